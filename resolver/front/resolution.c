/*
 * resolver/front/resolution.c - the resolutions of one worker: it owns their
 * state (struct server_res: the iterator run, forward zones included,
 * its upstream queries, its deadline timer, its entry in the in-flight
 * table and the list of all alive) and drives them to an end, then
 * answers every waiting client. Also serve-stale on failure (RFC 8767),
 * prefetch, and dump_requestlist / flush_requestlist.
 *
 * It may call: the iterator (iter.h), the shared upstream queries
 * (upshare.h), the in-flight table
 * (inflight.h), the cache and stale data (respond.h, stale.h), and of
 * server.c only what server_int.h declares (server_answer, server_error,
 * server_hints_release). server.c calls it through resolution.h; nobody
 * else does.
 */
#include "resolution.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "cachedb_step.h"
#include "iter/iter_log.h"
#include "wire/rrtext.h"
#include "stale.h"
#include "transport/upshare.h"
#include "transport/upstream.h"

/** Nanoseconds per microsecond (uv_hrtime is in nanoseconds). */
#define RES_NS_PER_US 1000u
/** Nanoseconds per millisecond. */
#define RES_NS_PER_MS 1000000u

/** An upstream query of a resolution, by token. */
struct server_out {
	uint32_t token;
	struct upshare_q *sq;
};

/** One iterator run and what it needs; in the in-flight table. */
struct server_res {
	struct server *s;
	struct iter_req *req;
	struct inflight_entry *entry;
	struct iter_env env;
	struct server_hints *hints;
	struct server_anchors *anchors; /**< NULL: no validation */
	uv_timer_t deadline;
	bool done;
	bool prefetch;          /**< no client: a cache refresh */
	server_probe_fn *probe; /**< called at the end (server_probe) */
	void *probe_arg;
	bool early;       /**< the deadline timer runs the
	                       serve-stale client timer */
	uint64_t late_ms; /**< ...then this long to the end */
	size_t nout;
	struct server_out out[ITER_MAX_SENDS];
	uint64_t start_ns;              /**< when it started (uv_hrtime) */
	struct cachedb_fetch *cdb;      /**< the Redis lookup before the
	                                     iterator runs (cachedb_step.h) */
	struct server_res *prev, *next; /**< s->res_head: every one alive
	                                     (dump_requestlist) */
};

/** What the answer callback of inflight_finish needs. */
struct server_answer_ctx {
	struct server *s;
	const struct answer *a; /**< NULL: answer SERVFAIL */
	bool stale;             /**< a serve-stale answer */
};

static void res_drive(struct server_res *r);
static void res_fail(struct server_res *r, const char *why);

static struct iter_now res_now(void)
{
	struct iter_now n;

	n.wall = clock_wall_s();
	n.mono_ms = clock_ms();
	return n;
}
static void answer_waiter_cb(void *arg, const struct inflight_waiter *w)
{
	struct server_answer_ctx *ctx = arg;
	uint64_t now = uv_hrtime();

	stats_recursion(&ctx->s->st,
	                now > w->arrived_ns ?
	                        (now - w->arrived_ns) / RES_NS_PER_US :
	                        0);
	if (ctx->stale)
		ctx->s->st.expired++;
	if (ctx->a != NULL && ctx->a->rcode != WIRE_RCODE_SERVFAIL) {
		if (ctx->a->curve)
			ctx->s->st.answers_curve++;
		else
			ctx->s->st.answers_plain++;
	}
	if (ctx->a == NULL)
		server_error(ctx->s, &w->q, &w->dest, WIRE_RCODE_SERVFAIL,
		             true);
	else
		server_answer(ctx->s, &w->q, &w->dest, ctx->a, true,
		              QLOG_SRC_RESOLVED, false);
}

/* ------------------------------------------------------------------ */
/* Resolutions                                                         */

static void res_closed_cb(uv_handle_t *h)
{
	free(h->data);
}

/* Free a resolution that is out of the in-flight table (or never was). */
static void res_release(struct server_res *r)
{
	struct server *s = r->s;
	server_probe_fn *probe = r->probe;
	size_t i;

	r->done = true;
	r->probe = NULL;
	cachedb_step_cancel(r->cdb);
	r->cdb = NULL;
	if (probe != NULL)
		probe(r->probe_arg);
	for (i = 0; i < r->nout; i++)
		upshare_detach(r->out[i].sq, r, r->out[i].token);
	r->nout = 0;
	iter_free(r->req);
	r->req = NULL;
	server_hints_release(r->hints);
	r->hints = NULL;
	server_anchors_release(r->anchors);
	r->anchors = NULL;
	s->nres--;
	if (r->prev != NULL)
		r->prev->next = r->next;
	else if (s->res_head == r)
		s->res_head = r->next;
	if (r->next != NULL)
		r->next->prev = r->prev;
	r->prev = r->next = NULL;
	uv_close((uv_handle_t *)&r->deadline, res_closed_cb);
}

static void log_servfail(const struct server_res *r, const char *why)
{
	char name[WIRE_NAME_TEXT_MAX], tbuf[RRTEXT_NAME_MAX];
	char zone[WIRE_NAME_TEXT_MAX], server[ITER_LOG_SERVER_TEXT];
	const char *last;
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;

	if (log_level() < CFG_LOG_INFO)
		return;
	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	if (wire_name_to_text(n, len, name, sizeof name, NULL) != WIRE_OK)
		name[0] = '\0';
	/* where it ended: the zone, the last server asked, what it did */
	last = iter_fail_where(r->req, zone, server);
	log_info_limited("servfail",
	                 "qname=%s type=%s why=%s zone=%s server=%s "
	                 "server_why=%s",
	                 name, rrtext_type_name(qtype, tbuf),
	                 why != NULL ? why : "-", zone, server, last);
}

/* RFC 8767: a failed resolution answers from expired data if it can. */
static bool res_stale(struct server_res *r, struct answer *a)
{
	struct server *s = r->s;
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;
	bool used;

	if (!s->cfg->serve_stale || s->stopping || r->prefetch)
		return false;
	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	return stale_answer(s->cache, n, len, qtype, qclass, clock_wall_s(),
	                    s->cfg->serve_stale_window, a, s->ans,
	                    sizeof s->ans, &used) == STALE_OK;
}

/*
 * A failed walk may still have cached a complete answer (one too large
 * for the iterator's result buffer, say): answer from the cache then.
 */
static bool res_cached(struct server_res *r, struct answer *a)
{
	struct server *s = r->s;
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;

	if (s->stopping || r->prefetch)
		return false;
	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	/* with the images: waiters that set DO get them, respond_build
	 * leaves them out for the others */
	return respond_cache_answer_flags(s->cache, n, len, qtype, qclass,
	                                  clock_wall_s(), ANSWER_CHASE_DNSSEC,
	                                  a, s->ans,
	                                  sizeof s->ans) == RESPOND_OK;
}

/* SERVFAIL (or a stale answer) to every waiter, then free. */
static void res_fail(struct server_res *r, const char *why)
{
	struct server_answer_ctx ctx = { r->s, NULL, false };
	struct answer a;

	if (r->done)
		return;
	r->done = true;
	r->s->st.resolutions_done++;
	r->s->st.resolutions_servfail++;
	log_servfail(r, why);
	if (res_stale(r, &a)) {
		ctx.a = &a;
		ctx.stale = true;
	}
	inflight_finish(r->s->inflight, r->entry, answer_waiter_cb, &ctx);
	res_release(r);
}

/* Answer every waiter; then, if share, what the resolution learned goes
 * to the Redis tier (cachedb_step.h), the clients answered first. */
static void res_answer_share(struct server_res *r,
                             struct server_answer_ctx *ctx, bool share)
{
	uint8_t name[WIRE_NAME_MAX];
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;

	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	memcpy(name, n, len);
	inflight_finish(r->s->inflight, r->entry, answer_waiter_cb, ctx);
	if (share)
		cachedb_step_store(r->s, name, len, qtype, qclass);
}

/* ITER_DONE: answer every waiter from the result, then free. */
static void res_finish(struct server_res *r)
{
	const struct answer *ir = iter_result(r->req);
	struct server_answer_ctx ctx;
	struct answer a;

	if (ir == NULL) {
		res_fail(r, "no result");
		return;
	}
	a = *ir; /* res_cached and res_stale may replace it */
	r->done = true;
	r->s->st.resolutions_done++;
	ctx.stale = false;
	if (ir->rcode == WIRE_RCODE_SERVFAIL && !res_cached(r, &a)) {
		r->s->st.resolutions_servfail++;
		log_servfail(r, ir->why);
		ctx.stale = res_stale(r, &a);
	}
	ctx.s = r->s;
	ctx.a = &a;
	res_answer_share(r, &ctx, ir->rcode != WIRE_RCODE_SERVFAIL);
	res_release(r);
}

/* Take the query of a token out of the list (NULL if not there). */
static struct upshare_q *res_out_take(struct server_res *r, uint32_t token)
{
	struct upshare_q *sq;
	size_t i;

	for (i = 0; i < r->nout; i++) {
		if (r->out[i].token != token)
			continue;
		sq = r->out[i].sq;
		r->out[i] = r->out[--r->nout];
		return sq;
	}
	return NULL;
}

static void res_on_reply(void *arg, const struct iter_reply *reply)
{
	struct server_res *r = arg;
	struct iter_now now;

	if (r->done)
		return;
	if (reply->kind != ITER_REPLY_TIMEOUT)
		upshare_detach(res_out_take(r, reply->token), r, reply->token);
	now = res_now();
	iter_feed(r->req, reply, &now);
	res_drive(r);
}

static void res_send(struct server_res *r, const struct iter_target *t,
                     const struct iter_now *now)
{
	struct upshare_q *sq = NULL;
	struct iter_reply fail;

	if (r->nout == ITER_MAX_SENDS) {
		upshare_detach(r->out[0].sq, r, r->out[0].token);
		r->out[0] = r->out[--r->nout];
	}
	if (upshare_send(r->s->share, t, now->mono_ms, res_on_reply, r, &sq) ==
	    UPSTREAM_OK) {
		r->out[r->nout].token = t->token;
		r->out[r->nout++].sq = sq;
		return;
	}
	memset(&fail, 0, sizeof fail);
	fail.token = t->token;
	fail.kind = ITER_REPLY_UNREACHABLE;
	r->s->st.upstream_unreachable++;
	iter_feed(r->req, &fail, now);
}

static void res_drive(struct server_res *r)
{
	struct iter_target t;
	struct iter_now now;
	unsigned step;

	if (r->req == NULL)
		return;
	for (step = 0; step < SERVER_DRIVE_MAX && !r->done; step++) {
		now = res_now();
		switch (iter_next(r->req, &now, &t)) {
		case ITER_SEND: res_send(r, &t, &now); break;
		case ITER_WAIT: return;
		case ITER_DONE: res_finish(r); return;
		}
	}
	res_fail(r, "iterator step cap");
}

/*
 * RFC 8767 client response timer: the clients waiting when it fires get
 * the stale data now (if there is any); the resolution goes on to
 * refresh the cache, in a fresh entry that later clients join.
 */
static void res_stale_early(struct server_res *r)
{
	struct server *s = r->s;
	struct server_answer_ctx ctx = { s, NULL, true };
	struct answer a;
	uint8_t name[WIRE_NAME_MAX];
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;

	if (r->prefetch || inflight_entry_waiters(r->entry) == 0 ||
	    !res_stale(r, &a))
		return;
	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	memcpy(name, n, len);
	ctx.a = &a;
	inflight_finish(s->inflight, r->entry, answer_waiter_cb, &ctx);
	if (inflight_add(s->inflight, name, len, qtype, qclass, r,
	                 &r->entry) != INFLIGHT_OK)
		res_release(r);
}

static void res_deadline_cb(uv_timer_t *tm)
{
	struct server_res *r = tm->data;

	if (r->done)
		return;
	if (r->early) {
		r->early = false;
		res_stale_early(r);
		if (!r->done)
			uv_timer_start(&r->deadline, res_deadline_cb,
			               r->late_ms, 0);
		return;
	}
	res_drive(r);
	if (!r->done)
		res_fail(r, "deadline");
}

/* A client of a resolution shed under overload: UDP clients get no
 * answer (a stub asks again, as after a lost packet); a TCP client,
 * which cannot, gets SERVFAIL. */
static void drop_waiter_cb(void *arg, const struct inflight_waiter *w)
{
	struct server *s = arg;

	if (w->dest.transport != SERVER_UDP)
		server_error(s, &w->q, &w->dest, WIRE_RCODE_SERVFAIL, true);
}

/* End a resolution under overload: its clients are dropped (above). */
static void res_drop(struct server_res *r)
{
	if (r->done)
		return;
	r->done = true;
	log_debug("overload", "event=jostle waiters=%zu",
	          inflight_entry_waiters(r->entry));
	inflight_finish(r->s->inflight, r->entry, drop_waiter_cb, r->s);
	res_release(r);
}

/*
 * Overload: make room for one more resolution or client by ending the
 * oldest resolution outside the protected half (inflight.h), only when
 * it has run longer than jostle-timeout (Unbound's rule); false if none
 * may go: the newcomer is dropped instead. What was asked first goes on.
 */
static bool res_jostle(struct server *s, struct inflight_entry *keep)
{
	struct inflight_entry *e = inflight_jostle_oldest(s->inflight);
	struct server_res *r;
	uint64_t now = uv_hrtime();

	if (e == NULL || e == keep)
		return false;
	r = inflight_entry_res(e);
	if (now < r->start_ns ||
	    (now - r->start_ns) / RES_NS_PER_MS < s->cfg->jostle_timeout_ms)
		return false;
	s->st.inflight_evicted++;
	res_drop(r);
	return true;
}

static struct server_res *res_new(struct server *s,
                                  const struct respond_query *q)
{
	struct server_res *r = calloc(1, sizeof(*r));
	struct iter_now now = res_now();
	uint64_t ms = (uint64_t)s->cfg->query_timeout_ms +
	              SERVER_DEADLINE_SLACK_MS;

	if (r == NULL)
		return NULL;
	r->s = s;
	r->hints = s->hints;
	r->hints->refs++;
	r->env.cache = s->cache;
	r->env.sel = s->sel;
	r->env.hints = r->hints->h;
	r->anchors = s->anchors;
	if (r->anchors != NULL) {
		r->anchors->refs++;
		r->env.anchors = r->anchors->a;
	}
	r->env.cfg = s->cfg;
	r->env.pin = s->pin;
	r->env.nsecidx = s->nx;
	server_iter_deadzone(s, &r->env);
	r->env.downgrades = &s->st.curve_downgrade_refused;
	r->env.tally.lame = &s->st.upstream_lame;
	r->env.tally.malformed = &s->st.upstream_malformed;
	r->env.tally.noaa = &s->st.upstream_noaa;
	r->env.tally.fallback = &s->st.upstream_fallback;
	r->env.tally.private_stripped = &s->st.upstream_private_stripped;
	r->env.tally.rrset_bogus = &s->st.rrset_bogus;
	r->env.tally.aggr_nx = &s->st.aggressive_nxdomain;
	r->env.tally.aggr_nodata = &s->st.aggressive_nodata;
	r->env.tally.aggr_wild = &s->st.aggressive_wildcard;
	r->env.tally.fwd_sends = &s->st.forward_queries;
	r->env.tally.fwd_failures = &s->st.forward_failures;
	r->env.prime_after = &s->prime_after_ms;
	r->env.keycache = s->keycache;
	r->env.req_slab = &s->req_slab;
	r->env.frame_slab = &s->frame_slab;
	s->nres++;
	r->start_ns = uv_hrtime();
	r->next = s->res_head;
	if (r->next != NULL)
		r->next->prev = r;
	s->res_head = r;
	uv_timer_init(s->loop, &r->deadline);
	r->deadline.data = r;
	/* forward zones are zone cuts of the iterator (iter_fwd.c) */
	r->req = iter_new(&r->env, q->lname, q->qnamelen, q->qtype, q->qclass,
	                  &now);
	if (r->req == NULL) {
		res_release(r);
		return NULL;
	}
	if (s->cfg->serve_stale && ms > STALE_CLIENT_TIMEOUT_MS) {
		r->early = true;
		r->late_ms = ms - STALE_CLIENT_TIMEOUT_MS;
		ms = STALE_CLIENT_TIMEOUT_MS;
	}
	uv_timer_start(&r->deadline, res_deadline_cb, ms, 0);
	return r;
}

/* Start a resolution and put it in the table. */
static struct server_res *res_start(struct server *s,
                                    const struct respond_query *q)
{
	struct server_res *r = res_new(s, q);
	int rc;

	if (r == NULL)
		return NULL;
	rc = inflight_add(s->inflight, q->lname, q->qnamelen, q->qtype,
	                  q->qclass, r, &r->entry);
	if (rc == INFLIGHT_EFULL && res_jostle(s, NULL))
		rc = inflight_add(s->inflight, q->lname, q->qnamelen, q->qtype,
		                  q->qclass, r, &r->entry);
	if (rc != INFLIGHT_OK) {
		res_release(r);
		return NULL;
	}
	s->st.inflight_started++;
	stats_requestlist(&s->st, s->nres);
	return r;
}

/* No room for a client under overload (resolution_wait): dropped
 * (UDP) or SERVFAIL (TCP), counted; a resolution started for it alone
 * ends too. */
static enum server_qresult res_shed(struct server *s,
                                    const struct respond_query *q,
                                    const struct inflight_dest *d,
                                    struct server_res *r)
{
	s->st.inflight_refused++;
	if (d->transport != SERVER_UDP)
		server_error(s, q, d, WIRE_RCODE_SERVFAIL, false);
	if (r != NULL && inflight_entry_waiters(r->entry) == 0)
		res_drop(r);
	return SERVER_Q_DONE;
}

/* The Redis tier answered (cachedb_step.h): on a hit the question is
 * in the cache now and every waiter is answered from it; else the
 * iterator starts. */
static void res_cdb_cb(void *arg, bool hit)
{
	struct server_res *r = arg;
	struct server_answer_ctx ctx = { r->s, NULL, false };
	struct answer a;

	r->cdb = NULL;
	if (!hit || !res_cached(r, &a)) {
		res_drive(r);
		return;
	}
	ctx.a = &a;
	r->done = true;
	inflight_finish(r->s->inflight, r->entry, answer_waiter_cb, &ctx);
	res_release(r);
}

/* A client's resolution starts: Redis first when the tier is on. */
static void res_begin(struct server_res *r)
{
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;

	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	r->cdb = cachedb_step_fetch(r->s, n, len, qtype, qclass, res_cdb_cb,
	                            r);
	if (r->cdb == NULL)
		res_drive(r);
}

/* A cache miss: join the resolution in flight, or start one. */
enum server_qresult resolution_wait(struct server *s,
                                    const struct respond_query *q,
                                    const struct inflight_dest *d)
{
	struct inflight_waiter w;
	struct inflight_entry *e;
	struct server_res *r = NULL;
	int rc;

	e = inflight_find(s->inflight, q->lname, q->qnamelen, q->qtype,
	                  q->qclass);
	if (e == NULL) {
		if (inflight_full(s->inflight) && !res_jostle(s, NULL))
			return res_shed(s, q, d, NULL);
		r = res_start(s, q);
		if (r == NULL) {
			server_error(s, q, d, WIRE_RCODE_SERVFAIL, false);
			return SERVER_Q_DONE;
		}
		e = r->entry;
	} else {
		s->st.inflight_joined++;
	}
	w.q = *q;
	w.dest = *d;
	w.arrived_ns = uv_hrtime();
	rc = inflight_wait(s->inflight, e, &w);
	if (rc == INFLIGHT_EFULL && res_jostle(s, e))
		rc = inflight_wait(s->inflight, e, &w);
	/* no room: the table's slots, or the entry's INFLIGHT_WAITERS_PER_
	 * ENTRY clients (a TCP client then gets SERVFAIL, not silence) */
	if (rc != INFLIGHT_OK)
		return res_shed(s, q, d, r);
	if (r != NULL)
		res_begin(r);
	return SERVER_Q_WAITING;
}

void resolution_fail_all(struct server *s, const char *why)
{
	struct inflight_entry *e;
	size_t i;

	for (i = 0;
	     i < SERVER_RES_MAX && (e = inflight_oldest(s->inflight)) != NULL;
	     i++)
		res_fail(inflight_entry_res(e), why);
}

/* Prefetch: refresh a cache answer near its end in the background (no
 * client waits; joined by any resolution of the question in flight;
 * never when the table is half full: clients come first). */
void resolution_prefetch(struct server *s, const struct respond_query *q,
                         const struct answer *a, time_t now)
{
	struct server_res *r;

	if (!s->cfg->prefetch || !(q->flags & WIRE_FLAG_RD) ||
	    inflight_count(s->inflight) >= SERVER_RES_MAX / 2 ||
	    !stale_prefetch_due(s->cache, a, q->lname, q->qnamelen, q->qtype,
	                        q->qclass, now, s->cfg->max_ttl) ||
	    inflight_find(s->inflight, q->lname, q->qnamelen, q->qtype,
	                  q->qclass) != NULL)
		return;
	r = res_start(s, q);
	if (r == NULL)
		return;
	s->st.prefetch++;
	r->prefetch = true;
	r->env.refresh = true;
	res_drive(r);
}

int server_probe(struct server *s, const uint8_t *lname, size_t len,
                 uint16_t qtype, server_probe_fn *fn, void *arg)
{
	struct respond_query q;
	struct inflight_entry *e;
	struct server_res *r;

	if (s == NULL || fn == NULL || len == 0 || len > WIRE_NAME_MAX ||
	    s->stopping)
		return SERVER_EINVAL;
	e = inflight_find(s->inflight, lname, len, qtype, WIRE_CLASS_IN);
	r = e != NULL ? inflight_entry_res(e) : NULL;
	if (r != NULL) {
		if (r->probe != NULL)
			return SERVER_EINVAL;
		r->probe = fn;
		r->probe_arg = arg;
		return SERVER_OK;
	}
	memset(&q, 0, sizeof q);
	q.flags = WIRE_FLAG_RD;
	memcpy(q.qname, lname, len);
	memcpy(q.lname, lname, len);
	q.qnamelen = len;
	q.qtype = qtype;
	q.qclass = WIRE_CLASS_IN;
	r = res_start(s, &q);
	if (r == NULL)
		return SERVER_ENOMEM;
	r->prefetch = true; /* no client: no stale answer, no cache read */
	r->env.refresh = true;
	r->probe = fn;
	r->probe_arg = arg;
	res_drive(r);
	return SERVER_OK;
}

size_t server_resolutions(const struct server *s)
{
	return s->nres;
}

/* One resolution as a line of Unbound's dump_requestlist:
 * "NUM TYPE CLASS NAME SECONDS MODULE STATUS". */
static void reqlist_line(const struct server_res *r, unsigned num,
                         uint64_t now_ns, server_text_fn *fn, void *arg)
{
	char name[WIRE_NAME_TEXT_MAX], tbuf[RRTEXT_NAME_MAX], line[512];
	char cbuf[RRTEXT_NAME_MAX];
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;
	uint64_t us = now_ns > r->start_ns ?
	                      (now_ns - r->start_ns) / RES_NS_PER_US :
	                      0;
	int k;

	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	if (wire_name_to_text(n, len, name, sizeof name, NULL) != WIRE_OK)
		snprintf(name, sizeof name, "?");
	if (qclass == WIRE_CLASS_IN)
		snprintf(cbuf, sizeof cbuf, "IN");
	else
		snprintf(cbuf, sizeof cbuf, "CLASS%u", (unsigned)qclass);
	k = snprintf(line, sizeof line,
	             "%3u %4s %2s %s %" PRIu64 ".%06" PRIu64 " %s %s %zu "
	             "%s\n",
	             num, rrtext_type_name(qtype, tbuf), cbuf, name,
	             us / 1000000u, us % 1000000u,
	             /* (a forward zone's question: the iterator asks
	              * its forwarders) */
	             cfg_zone_find(r->s->cfg->forward, r->s->cfg->n_forward, n,
	                           len) >= 0 ?
	                     "forward" :
	                     "iterator",
	             r->prefetch ? "prefetch" : "wait",
	             inflight_entry_waiters(r->entry),
	             inflight_entry_waiters(r->entry) == 1 ? "client" :
	                                                     "clients");
	if (k > 0)
		fn(arg, line,
		   (size_t)k < sizeof line ? (size_t)k : sizeof line - 1);
}

void server_requestlist(const struct server *s, unsigned thread,
                        server_text_fn *fn, void *arg)
{
	static const char head[] = "#   type cl name    seconds    module "
				   "status\n";
	const struct server_res *r;
	uint64_t now = uv_hrtime();
	char line[64];
	unsigned num = 0;
	int k;

	k = snprintf(line, sizeof line, "thread #%u\n", thread);
	if (k > 0 && (size_t)k < sizeof line)
		fn(arg, line, (size_t)k);
	fn(arg, head, sizeof head - 1);
	for (r = s->res_head; r != NULL; r = r->next)
		if (!r->done && r->entry != NULL)
			reqlist_line(r, num++, now, fn, arg);
}

size_t server_requestlist_flush(struct server *s)
{
	size_t n = 0;
	struct server_res *r;

	/* res_fail takes r off the list (res_release) before it returns;
	 * its late upstream replies find it detached (upshare_detach).
	 * The list only shrinks here: it ends. */
	while ((r = s->res_head) != NULL) {
		if (r->done) { /* cannot stay listed; be safe anyway */
			s->res_head = r->next;
			if (r->next != NULL)
				r->next->prev = NULL;
			r->next = NULL;
			continue;
		}
		res_fail(r, "flush_requestlist");
		n++;
	}
	return n;
}
