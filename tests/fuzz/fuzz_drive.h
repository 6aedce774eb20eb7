/*
 * tests/fuzz/fuzz_drive.h - one resolution of the iterator driven from
 * fuzz input, as the daemon drives it; shared by the iter and validate
 * fuzz targets.
 *
 * The input is a run of replies, each a 2-byte big-endian length and a
 * DNS message (TCP framing). A resolution starts from the lab's root
 * hints with an empty cache and selection table: every query the
 * iterator hands out gets the next reply of the input in turn, as the
 * shell would have accepted it (the reply's question is replaced by the
 * target's, its ID taken as it is; what does not parse or match is
 * dropped and the query times out). DNSCurve targets get their replies
 * as opened boxes (curve set), as the shell feeds them. When the
 * iterator waits with every query answered or timed out (it lingers for
 * late replies until the deadline), the next reply goes to the query
 * that timed out last. When the input runs out, every query times out
 * and time runs to the deadline.
 *
 * With fuzz_run.trace set, each query that is about to take a reply is
 * written there as one line "query QNAME QTYPE ZONE" (names in hex of
 * their wire form): how tests/fuzz/mkvalidate.py learns what to answer.
 *
 * Checks (each an abort): the resolution ends within FUZZ_STEPS_MAX
 * steps, at the latest at the deadline, with one of the three RCODEs,
 * and its answer (the images the clients get) builds into a response
 * that parses.
 */
#ifndef CURVECACHE_TESTS_FUZZ_FUZZ_DRIVE_H
#define CURVECACHE_TESTS_FUZZ_FUZZ_DRIVE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "conf/cfg.h"
#include "fuzz_hints.h"
#include "fuzz_load.h"
#include "iter/iter.h"
#include "front/respond.h"
#include "infra/sel.h"
#include "wire/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** Bytes of the cache of one resolution. */
#define FUZZ_CACHE_BYTES ((size_t)256 * 1024)
/** Slots of the selection table. */
#define FUZZ_SEL_SLOTS 64
/** iter_next calls before the resolution counts as looping. */
#define FUZZ_STEPS_MAX 4096
/** Queries remembered as outstanding (the iterator sends fewer). */
#define FUZZ_PENDING_MAX (2 * ITER_MAX_SENDS)
/** Round-trip time of every reply. */
#define FUZZ_RTT_MS 7u
/** Bit of the header byte that turns QNAME minimisation on. */
#define FUZZ_QMIN_BIT 0x8u
/** Bytes of a reply length prefix. */
#define FUZZ_LEN_BYTES 2
/** EDNS payload of the checked response with DO set. */
#define FUZZ_EDNS_SIZE 4096

/** One resolution and the input it is fed from. */
struct fuzz_run {
	struct cfg cfg;
	struct iter_env env;
	struct iter_now now;
	struct iter_req *req;
	const uint8_t *in;
	size_t inlen;
	struct iter_target pending[FUZZ_PENDING_MAX];
	size_t npending;
	struct iter_target late[FUZZ_PENDING_MAX]; /**< timed out */
	size_t nlate;
	uint64_t deadline_ms;
	bool past_deadline;
	FILE *trace; /**< NULL, or where the queries are written */
};

static uint8_t fuzz_msgbuf[WIRE_MSG_MAX];
static uint8_t fuzz_out[RESPOND_BUF_BYTES];
static struct wire_rr fuzz_rrs[WIRE_RR_MAX];

/* The iterator's random values (the order of unknown servers): fixed,
 * so that an input always takes the same path. */
static inline uint32_t fuzz_random(void)
{
	return 0;
}

/* The next reply of the input (NULL when none is left). */
static inline const uint8_t *fuzz_next_reply(struct fuzz_run *r, size_t *len)
{
	const uint8_t *p;
	size_t n;

	if (r->inlen < FUZZ_LEN_BYTES)
		return NULL;
	n = (size_t)r->in[0] << 8 | r->in[1];
	if (n > r->inlen - FUZZ_LEN_BYTES)
		n = r->inlen - FUZZ_LEN_BYTES;
	p = r->in + FUZZ_LEN_BYTES;
	r->in += FUZZ_LEN_BYTES + n;
	r->inlen -= FUZZ_LEN_BYTES + n;
	*len = n;
	return p;
}

/* The reply with the target's question in place of its own. */
static inline size_t fuzz_with_question(const struct iter_target *t,
                                        const uint8_t *p, size_t n)
{
	size_t pos = WIRE_HEADER_BYTES, len;
	const size_t qfixed = 4; /* QTYPE and QCLASS */

	if (n < WIRE_HEADER_BYTES)
		return 0;
	if ((p[4] | p[5]) != 0 &&
	    (wire_read_name(p, n, &pos, NULL, NULL, 0) != WIRE_OK ||
	     n - pos < qfixed))
		return 0;
	if ((p[4] | p[5]) != 0)
		pos += qfixed;
	len = WIRE_HEADER_BYTES + t->qnamelen + qfixed + (n - pos);
	if (len > sizeof fuzz_msgbuf)
		return 0;
	memcpy(fuzz_msgbuf, p, WIRE_HEADER_BYTES);
	fuzz_msgbuf[4] = 0;
	fuzz_msgbuf[5] = 1;
	memcpy(fuzz_msgbuf + WIRE_HEADER_BYTES, t->qname, t->qnamelen);
	len = WIRE_HEADER_BYTES + t->qnamelen;
	fuzz_msgbuf[len++] = (uint8_t)(t->qtype >> 8);
	fuzz_msgbuf[len++] = (uint8_t)t->qtype;
	fuzz_msgbuf[len++] = (uint8_t)(t->qclass >> 8);
	fuzz_msgbuf[len++] = (uint8_t)t->qclass;
	memcpy(fuzz_msgbuf + len, p + pos, n - pos);
	return len + (n - pos);
}

/* Take the next reply of the input as the shell would pass it on for
 * target t: true with rep filled, false when there is none or the shell
 * would drop it. */
static inline bool fuzz_take_reply(struct fuzz_run *r,
                                   const struct iter_target *t,
                                   struct iter_reply *rep, struct wire_msg *m)
{
	const uint8_t *p;
	size_t n = 0;

	p = fuzz_next_reply(r, &n);
	if (p == NULL)
		return false;
	n = fuzz_with_question(t, p, n);
	if (n == 0 ||
	    wire_msg_parse(m, fuzz_msgbuf, n, fuzz_rrs, WIRE_RR_MAX) !=
	            WIRE_OK ||
	    wire_msg_match(m, m->hdr.id, t->qname, t->qnamelen, t->qtype,
	                   t->qclass, 0) != WIRE_OK)
		return false;
	memset(rep, 0, sizeof *rep);
	rep->token = t->token;
	rep->kind = WIRE_RCODE(m->hdr.flags) == WIRE_RCODE_FORMERR && t->edns ?
	                    ITER_REPLY_FORMERR_EDNS :
	                    ITER_REPLY_MSG;
	rep->msg = rep->kind == ITER_REPLY_MSG ? m : NULL;
	rep->curve = t->curve;
	rep->rtt_ms = FUZZ_RTT_MS;
	r->now.mono_ms += FUZZ_RTT_MS;
	return true;
}

/* One wire name in hex on the trace line. */
static inline void fuzz_trace_name(FILE *f, const uint8_t *name, size_t len)
{
	size_t i;

	fputc(' ', f);
	for (i = 0; i < len; i++)
		fprintf(f, "%02x", name[i]);
}

/* Answer the oldest outstanding query from the input, or time it out
 * (it may still get a late reply then). */
static inline void fuzz_answer_one(struct fuzz_run *r)
{
	struct iter_target t = r->pending[0];
	struct iter_reply rep;
	struct wire_msg m;

	memmove(r->pending, r->pending + 1,
	        --r->npending * sizeof r->pending[0]);
	if (r->trace != NULL) {
		fputs("query", r->trace);
		fuzz_trace_name(r->trace, t.qname, t.qnamelen);
		fprintf(r->trace, " %u", (unsigned)t.qtype);
		fuzz_trace_name(r->trace, t.zone, t.zonelen);
		fputc('\n', r->trace);
	}
	if (!fuzz_take_reply(r, &t, &rep, &m)) {
		memset(&rep, 0, sizeof rep);
		rep.token = t.token;
		rep.kind = ITER_REPLY_TIMEOUT;
		r->now.mono_ms += t.timeout_ms;
		if (r->nlate < FUZZ_PENDING_MAX)
			r->late[r->nlate++] = t;
	}
	iter_feed(r->req, &rep, &r->now);
}

/* Every query answered or timed out, and the iterator lingers for late
 * replies: the next reply of the input is a late one for the query that
 * timed out last; with no input left, time runs to the deadline (the
 * daemon's deadline timer), after which the resolution must end. */
static inline void fuzz_linger(struct fuzz_run *r)
{
	struct iter_reply rep;
	struct wire_msg m;

	if (r->nlate > 0 && r->inlen >= FUZZ_LEN_BYTES) {
		if (fuzz_take_reply(r, &r->late[r->nlate - 1], &rep, &m)) {
			r->nlate--;
			iter_feed(r->req, &rep, &r->now);
		}
		return;
	}
	if (r->past_deadline)
		abort(); /* still waiting after the deadline */
	r->past_deadline = true;
	if (r->now.mono_ms < r->deadline_ms)
		r->now.mono_ms = r->deadline_ms;
}

/* The answer must build into a response to the question that parses,
 * for a client without EDNS, or (edns_do) with DO and CD set, which
 * gets the DNSSEC records and bogus data too. */
static inline void fuzz_check_answer(const struct answer *res,
                                     const uint8_t *qname, size_t qnamelen,
                                     uint16_t qtype, bool edns_do)
{
	struct respond_query q;
	struct wire_msg m;
	size_t len = 0;

	if (res == NULL || (res->rcode != WIRE_RCODE_NOERROR &&
	                    res->rcode != WIRE_RCODE_NXDOMAIN &&
	                    res->rcode != WIRE_RCODE_SERVFAIL))
		abort();
	memset(&q, 0, sizeof q);
	q.flags = WIRE_FLAG_RD | (edns_do ? WIRE_FLAG_CD : 0);
	q.has_question = true;
	memcpy(q.qname, qname, qnamelen);
	memcpy(q.lname, qname, qnamelen);
	q.qnamelen = qnamelen;
	q.qtype = qtype;
	q.qclass = WIRE_CLASS_IN;
	q.edns = edns_do;
	q.edns_size = edns_do ? FUZZ_EDNS_SIZE : 0;
	q.edns_do = edns_do;
	if (respond_build(&q, res, WIRE_MSG_MAX, fuzz_out, sizeof fuzz_out,
	                  &len, NULL) != RESPOND_OK ||
	    wire_msg_parse(&m, fuzz_out, len, fuzz_rrs, WIRE_RR_MAX) !=
	            WIRE_OK)
		abort();
}

/* Run the iterator to its end, answering its queries from the input. */
static inline void fuzz_drive(struct fuzz_run *r)
{
	struct iter_target t;
	size_t steps;

	for (steps = 0; steps < FUZZ_STEPS_MAX; steps++) {
		switch (iter_next(r->req, &r->now, &t)) {
		case ITER_DONE: return;
		case ITER_SEND:
			if (r->npending == FUZZ_PENDING_MAX)
				abort();
			r->pending[r->npending++] = t;
			break;
		case ITER_WAIT:
			if (r->npending > 0)
				fuzz_answer_one(r);
			else
				fuzz_linger(r);
			break;
		}
	}
	abort(); /* no end in sight */
}

/* A fresh resolution environment (cache, selection table, the lab's
 * root hints, default config) fed from in; the caller may add to
 * r->env before fuzz_run_resolve. */
static inline void fuzz_run_init(struct fuzz_run *r, bool qmin,
                                 const uint8_t *in, size_t inlen)
{
	static struct hints *hints;

	if (hints == NULL)
		hints = fuzz_hints();
	memset(r, 0, sizeof *r);
	cfg_defaults(&r->cfg);
	r->cfg.qname_minimisation = qmin;
	r->cfg.do_not_query_localhost = false;
	r->cfg.do_ip6 = false;
	r->env.cache = fuzz_cache_new(FUZZ_CACHE_BYTES);
	if (sel_new(FUZZ_SEL_SLOTS, &r->env.sel) != SEL_OK)
		abort();
	r->env.hints = hints;
	r->env.cfg = &r->cfg;
	r->env.random = fuzz_random;
	r->now.wall = FUZZ_NOW;
	r->now.mono_ms = (uint64_t)FUZZ_NOW * 1000;
	r->deadline_ms = r->now.mono_ms + r->cfg.query_timeout_ms + 1;
	r->in = in;
	r->inlen = inlen;
}

/* Resolve the text question to its end; the result is
 * iter_result(r->req). */
static inline void fuzz_run_resolve(struct fuzz_run *r, const char *name,
                                    uint16_t qtype, uint8_t *qname,
                                    size_t *qnamelen)
{
	if (wire_name_from_text(name, strlen(name), qname, qnamelen) !=
	    WIRE_OK)
		abort();
	r->req = iter_new(&r->env, qname, *qnamelen, qtype, WIRE_CLASS_IN,
	                  &r->now);
	if (r->req == NULL)
		abort();
	fuzz_drive(r);
}

/* Free what fuzz_run_init and fuzz_run_resolve made. */
static inline void fuzz_run_free(struct fuzz_run *r)
{
	iter_free(r->req);
	sel_free(r->env.sel);
	cache_destroy(r->env.cache);
}

#endif /* CURVECACHE_TESTS_FUZZ_FUZZ_DRIVE_H */
