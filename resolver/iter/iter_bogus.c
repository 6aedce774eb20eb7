/*
 * resolver/iter/iter_bogus.c - a bogus reply is one server's, not yet
 * the zone's: when the data a reply brings fails validation in a zone
 * whose keys are good (or the zone's DNSKEY set fails), the same
 * question goes to another server of the zone, up to
 * ITER_BOGUS_RETRIES times per client question, before the verdict
 * stands. A stale secondary, a server that strips or mangles
 * signatures, or an on-path forger at one address then costs one more
 * query, not a SERVFAIL (RFC 4035 section 5: the resolver may try the
 * zone's other servers; Unbound does the same with its per-query
 * blacklist of the server that sent bogus data).
 *
 * What the reply left is undone before the retry: the client's answer
 * and authority images, the rcode and the validation status go back to
 * what they were before it (iter_bogus_snap); the bogus RRsets stay in
 * the cache, where BOGUS outranks nothing, so the good answer replaces
 * them. The server is skipped for the rest of this frame's step only:
 * another question may find it right.
 */
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "cache.h"
#include "conf/cfg.h"
#include "iter_int.h"
#include "base/log.h"

/** Other servers asked after a bogus reply, per client question. */
#define ITER_BOGUS_RETRIES 3

void iter_bogus_snap(const struct iter_req *req, size_t fi,
                     struct iter_snap *s)
{
	s->bogus_n = req->bogus_n;
	s->depth = req->depth;
	s->trust = req->frame[fi]->trust;
	s->an_len = req->an_len;
	s->an_count = req->an_count;
	s->ns_len = req->ns_len;
	s->ns_count = req->ns_count;
	s->curve_all = req->curve_all;
	s->any_rrset = req->any_rrset;
	s->val_any = req->val_any;
	s->val_sec = req->val_sec;
	s->val_ede = req->val_ede;
	s->val_ede_code = req->val_ede_code;
	s->val_ede_text = req->val_ede_text;
	s->rcode = req->rcode;
}

/* What the client's answer was before the reply. */
static void iter_bogus_undo(struct iter_req *req, const struct iter_snap *s)
{
	req->an_len = s->an_len;
	req->an_count = s->an_count;
	req->ns_len = s->ns_len;
	req->ns_count = s->ns_count;
	req->curve_all = s->curve_all;
	req->any_rrset = s->any_rrset;
	req->val_any = s->val_any;
	req->val_sec = s->val_sec;
	req->val_ede = s->val_ede;
	req->val_ede_code = s->val_ede_code;
	req->val_ede_text = s->val_ede_text;
	req->rcode = s->rcode;
}

/* Another server address of the frame's zone that may be asked. */
static bool iter_bogus_other(const struct iter_req *req,
                             const struct iter_frame *f,
                             const struct iter_out *o)
{
	size_t i, j;

	for (i = 0; i < f->zone.nns; i++) {
		/* a name without an address yet: the frame resolves it */
		if (f->zone.ns[i].naddr == 0)
			return true;
		for (j = 0; j < f->zone.ns[i].naddr; j++)
			if ((i != o->ns || j != o->addr) &&
			    !f->zone.ns[i].addr[j].dead &&
			    iter_addr_ok(req, &f->zone.ns[i],
			                 &f->zone.ns[i].addr[j]))
				return true;
	}
	return false;
}

/* Whether the reply's bogus verdict may be one server's. */
static bool iter_bogus_worth(const struct iter_req *req, size_t fi,
                             const struct iter_out *o,
                             const struct iter_snap *s)
{
	const struct iter_frame *f = req->frame[fi];
	const struct iter_class *c = &iter_cls;

	if (req->bogus_n == s->bogus_n || req->depth != s->depth ||
	    req->bogus_retries >= ITER_BOGUS_RETRIES || o->kept ||
	    req->val_work.fail_left == 0 || req->val_work.verify_left == 0)
		return false;
	/* the zone's keys: the DNSKEY answer of one server */
	if (o->keyq)
		return f->trust == ITER_T_BOGUS;
	/* data checked with good keys; a chain that moved the frame on
	 * (a CNAME followed) is not undone */
	if (s->trust != ITER_T_SECURE || c->nlink > 0 || c->synth)
		return false;
	if (c->kind != ITER_K_ANSWER && c->kind != ITER_K_NXDOMAIN &&
	    c->kind != ITER_K_NODATA)
		return false;
	/* an address handed down to the frame below is not undone */
	return fi == 0 || c->kind != ITER_K_ANSWER ||
	       (f->qtype != WIRE_TYPE_A && f->qtype != WIRE_TYPE_AAAA);
}

/* The debug line of a retry: the zone, the server left, the count. */
static void iter_bogus_log(const struct iter_frame *f,
                           const struct iter_out *o, unsigned n)
{
	char zone[WIRE_NAME_TEXT_MAX], addr[INET6_ADDRSTRLEN];

	iter_log_where(f, (const struct sockaddr *)&o->sa, zone, sizeof zone,
	               addr, sizeof addr);
	log_debug("iter_bogus_retry", "zone=%s server=%s retry=%u", zone, addr,
	          n);
}

bool iter_bogus_can_retry(const struct iter_req *req, size_t fi,
                          const struct iter_out *o)
{
	return req->bogus_retries < ITER_BOGUS_RETRIES && !o->kept &&
	       req->val_work.fail_left > 0 && req->val_work.verify_left > 0 &&
	       iter_bogus_other(req, req->frame[fi], o);
}

bool iter_bogus_retry(struct iter_req *req, size_t fi,
                      const struct iter_out *o, const struct iter_snap *s)
{
	struct iter_frame *f = req->frame[fi];

	if (!iter_bogus_worth(req, fi, o, s) || !iter_bogus_other(req, f, o))
		return false;
	req->bogus_retries++;
	if (log_level() >= CFG_LOG_DEBUG)
		iter_bogus_log(f, o, req->bogus_retries);
	iter_bogus_undo(req, s);
	if (o->keyq) {
		f->trust = ITER_T_NEED_KEY; /* the keys asked again */
		f->trust_status = 0;
	}
	iter_frame_newstep(req, fi);
	if (o->ns < f->zone.nns && o->addr < f->zone.ns[o->ns].naddr)
		f->zone.ns[o->ns].addr[o->addr].dead = true;
	f->state = ITER_F_QUERY;
	return true;
}
