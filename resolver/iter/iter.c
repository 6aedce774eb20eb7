/*
 * resolver/iter/iter.c - the iterator's public API (see iter.h): requests, the
 * table of outstanding queries (tokens), and the loop that runs the state
 * of the top frame until the caller has something to do.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "conf/cfg.h"
#include "iter_int.h"
#include "base/slab.h"
#include "infra/sel.h"
#include "validate/dnssec_set.h"

/** Query deadline when the config gives none. */
#define ITER_DEADLINE_DEFAULT_MS 5000u
/** Query types the iterator refuses to resolve (zone transfers, meta). */
#define ITER_TYPE_IXFR 251
#define ITER_TYPE_AXFR 252
#define ITER_TYPE_MAILB 253
#define ITER_TYPE_MAILA 254

/** What an empty section of a result points to. */
static const uint8_t iter_none[1];

static bool iter_qtype_ok(uint16_t qtype)
{
	return qtype != 0 && qtype != WIRE_TYPE_OPT &&
	       qtype != ITER_TYPE_IXFR && qtype != ITER_TYPE_AXFR &&
	       qtype != ITER_TYPE_MAILB && qtype != ITER_TYPE_MAILA;
}

struct iter_req *iter_new(const struct iter_env *env, const uint8_t *qname,
                          size_t qnamelen, uint16_t qtype, uint16_t qclass,
                          const struct iter_now *now)
{
	struct iter_req *req;
	uint32_t ms;
	bool qmin, name_ok;

	if (env == NULL || now == NULL)
		return NULL;
	req = env->req_slab != NULL ? slab_alloc(env->req_slab) :
	                              malloc(sizeof(*req));
	if (req == NULL)
		return NULL;
	memset(req, 0, sizeof(*req));
	req->env = env;
	/* iter_frame_init clears the frame */
	req->frame[0] = iter_frame_alloc(req);
	if (req->frame[0] == NULL) {
		slab_free(env->req_slab, req);
		return NULL;
	}
	iter_buf_hold();
	req->now = *now;
	req->next_token = 1;
	req->val_work.verify_left = DNSSEC_VERIFY_MAX;
	req->val_work.fail_left = DNSSEC_VERIFY_FAIL_MAX;
	req->val_work.keys = env->keycache;
	req->hashes_left = ITER_NSEC3_HASHES_MAX;
	req->curve_all = true;
	ms = env->cfg != NULL ? env->cfg->query_timeout_ms : 0;
	req->deadline_ms = now->mono_ms +
	                   (ms != 0 ? ms : ITER_DEADLINE_DEFAULT_MS);
	qmin = env->cfg != NULL && env->cfg->qname_minimisation;
	name_ok = qname != NULL && qnamelen <= WIRE_NAME_MAX &&
	          wire_name_check(qname, qnamelen) == WIRE_OK;
	iter_frame_init(req->frame[0], name_ok ? qname : (const uint8_t *)"",
	                name_ok ? qnamelen : 1, qtype, qclass, qmin);
	if (!name_ok)
		iter_finish(req, WIRE_RCODE_SERVFAIL, "malformed query name");
	else if (qclass != WIRE_CLASS_IN)
		iter_finish(req, WIRE_RCODE_SERVFAIL, "class not supported");
	else if (!iter_qtype_ok(qtype))
		iter_finish(req, WIRE_RCODE_SERVFAIL, "type not supported");
	else
		(void)iter_dz_question(req);
	return req;
}

void iter_free(struct iter_req *req)
{
	size_t i;

	if (req == NULL)
		return;
	for (i = 0; i <= ITER_MAX_DEPTH; i++)
		iter_frame_free(req, req->frame[i]);
	for (i = 0; i < req->nout; i++)
		iter_tmp_give(sizeof(struct iter_out), (uint8_t *)req->out[i]);
	iter_buf_free(req);
	slab_free(req->env->req_slab, req);
}

size_t iter_req_size(void)
{
	return sizeof(struct iter_req);
}

size_t iter_frame_size(void)
{
	return sizeof(struct iter_frame);
}

struct iter_frame *iter_frame_alloc(struct iter_req *req)
{
	struct slab *s = req->env->frame_slab;

	return s != NULL ? slab_alloc(s) : malloc(sizeof(struct iter_frame));
}

void iter_frame_free(struct iter_req *req, struct iter_frame *f)
{
	if (f == NULL)
		return;
	iter_zone_drop(&f->zone);
	slab_free(req->env->frame_slab, f);
}

const struct answer *iter_result(const struct iter_req *req)
{
	return req != NULL && req->done ? &req->result : NULL;
}

const struct iter_counts *iter_counts(const struct iter_req *req)
{
	return req != NULL ? &req->counts : NULL;
}

void iter_out_free(struct iter_req *req, struct iter_out *o)
{
	(void)req;
	memset(o, 0, sizeof(*o));
}

void iter_frame_retire(struct iter_req *req, size_t fi)
{
	size_t i;

	for (i = 0; i < req->nout; i++)
		if (req->out[i]->used && req->out[i]->frame == fi)
			iter_out_free(req, req->out[i]);
}

/* A free slot, else the oldest timed-out one (its late answer is lost);
 * never a hedged one, which still waits for its answer. */
struct iter_out *iter_out_alloc(struct iter_req *req)
{
	struct iter_out *best = NULL;
	size_t i;

	for (i = 0; i < req->nout; i++) {
		struct iter_out *o = req->out[i];

		if (!o->used)
			return o;
		if (o->timed_out &&
		    (best == NULL || o->sent_ms < best->sent_ms))
			best = o;
	}
	if (req->nout < ITER_MAX_OUTSTANDING &&
	    (req->out[req->nout] = (struct iter_out *)(void *)
	             iter_tmp_take(sizeof(struct iter_out))) != NULL) {
		memset(req->out[req->nout], 0, sizeof(struct iter_out));
		return req->out[req->nout++]; /* a new slot, cleared */
	}
	if (best != NULL)
		iter_out_free(req, best);
	return best;
}

bool iter_out_room(const struct iter_req *req)
{
	size_t i;

	for (i = 0; i < req->nout; i++)
		if (!req->out[i]->used || req->out[i]->timed_out)
			return true;
	return req->nout < ITER_MAX_OUTSTANDING;
}

bool iter_frame_busy(const struct iter_req *req, size_t fi)
{
	const struct iter_frame *f = req->frame[fi];
	size_t i;

	for (i = 0; i < req->nout; i++) {
		const struct iter_out *o = req->out[i];

		if (o->used && !o->timed_out && !o->hedged && o->frame == fi &&
		    o->gen == f->gen)
			return true;
	}
	return false;
}

/* A query of frame fi timed out (or passed its hedge deadline) but still
 * listens: a late answer (a slow server) may come before the deadline. */
bool iter_frame_lingering(const struct iter_req *req, size_t fi)
{
	const struct iter_frame *f = req->frame[fi];
	size_t i;

	for (i = 0; i < req->nout; i++) {
		const struct iter_out *o = req->out[i];

		if (o->used && (o->timed_out || o->hedged) && o->frame == fi &&
		    o->gen == f->gen)
			return true;
	}
	return false;
}

void iter_finish(struct iter_req *req, uint8_t rcode, const char *why)
{
	struct answer *r = &req->result;
	size_t i;

	if (req->done)
		return;
	iter_dz_finish(req, rcode, why);
	iter_log_finish(req);
	req->done = true;
	for (i = 0; i < req->nout; i++)
		iter_out_free(req, req->out[i]);
	memset(r, 0, sizeof(*r));
	r->rcode = rcode;
	r->why = why;
	r->sec = req->val_any ? req->val_sec : CACHE_SEC_UNCHECKED;
	r->ede = req->val_ede;
	r->ede_code = req->val_ede_code;
	r->ede_text = req->val_ede_text;
	if (rcode == WIRE_RCODE_SERVFAIL && !r->ede && req->dz_ede != 0) {
		/* RFC 8914: no reachable authority, network error */
		r->ede = true;
		r->ede_code = req->dz_ede;
		r->ede_text = req->dz_ede_text;
	}
	if (rcode == WIRE_RCODE_SERVFAIL)
		return;
	r->an = req->an != NULL ? req->an : iter_none;
	r->an_len = req->an_len;
	r->an_count = req->an_count;
	r->ns = req->ns != NULL ? req->ns : iter_none;
	r->ns_len = req->ns_len;
	r->ns_count = req->ns_count;
	r->curve = req->any_rrset && req->curve_all;
}

/* The top frame finished: hand the result down, or end the request. */
static void iter_frame_end(struct iter_req *req)
{
	struct iter_frame *f = iter_frame_top(req);

	if (req->depth > 0) {
		size_t nsi = f->parent_ns;
		bool target = !f->ds_frame;
		struct iter_zone *z;

		iter_frame_pop(req);
		/* A glueless NS name that did not resolve: what is known
		 * for it (its glue, the parent's) is the last resort. */
		z = &req->frame[req->depth]->zone;
		if (target && nsi < z->nns)
			iter_ns_sub_ended(req, &z->ns[nsi]);
		return;
	}
	if (f->state == ITER_F_DONE)
		iter_finish(req, req->rcode, NULL);
	else
		iter_finish(req, WIRE_RCODE_SERVFAIL,
		            req->cap_why != NULL ? req->cap_why :
		            f->why != NULL       ? f->why :
		                                   "resolution failed");
}

/* Run one state of the top frame. */
static int iter_run(struct iter_req *req, struct iter_target *t)
{
	size_t fi = req->depth;
	struct iter_frame *f = req->frame[fi];

	switch (f->state) {
	case ITER_F_LOOKUP: iter_state_lookup(req, fi); return ITER_CONTINUE;
	case ITER_F_CUT: iter_state_cut(req, fi); return ITER_CONTINUE;
	case ITER_F_QUERY: return iter_state_query(req, fi, t);
	case ITER_F_DONE:
	case ITER_F_FAIL:
	default:
		iter_frame_end(req);
		return req->done ? (int)ITER_DONE : ITER_CONTINUE;
	}
}

/* The states of the top frame, until one waits or the request ends. */
static enum iter_step iter_steps(struct iter_req *req,
                                 struct iter_target *target)
{
	const struct iter_now *now = &req->now;
	unsigned steps;

	if (now->mono_ms >= req->deadline_ms) {
		iter_fwd_failed(req, req->depth);
		iter_finish(req, WIRE_RCODE_SERVFAIL, "deadline reached");
		return ITER_DONE;
	}
	for (steps = 0; steps < ITER_STEPS_MAX; steps++) {
		int st = iter_run(req, target);

		if (req->done)
			return ITER_DONE;
		if (st != ITER_CONTINUE)
			return (enum iter_step)st;
	}
	iter_finish(req, WIRE_RCODE_SERVFAIL, "internal step cap");
	return ITER_DONE;
}

enum iter_step iter_next(struct iter_req *req, const struct iter_now *now,
                         struct iter_target *target)
{
	enum iter_step st;

	if (req == NULL)
		return ITER_DONE;
	if (req->done)
		return ITER_DONE;
	req->now = *now;
	st = iter_steps(req, target);
	iter_buf_idle(req);
	return st;
}

static struct iter_out *iter_out_find(struct iter_req *req, uint32_t token)
{
	size_t i;

	for (i = 0; i < req->nout; i++)
		if (req->out[i]->used && req->out[i]->token == token)
			return req->out[i];
	return NULL;
}

static struct iter_addr *iter_out_addr(struct iter_req *req,
                                       const struct iter_out *o)
{
	struct iter_frame *f = req->frame[o->frame];

	if (o->ns >= f->zone.nns || o->addr >= f->zone.ns[o->ns].naddr)
		return NULL;
	return &f->zone.ns[o->ns].addr[o->addr];
}

/* The early deadline or the real timeout of a query. A hedge only lets
 * the frame ask the next server; the timeout counts (sel.h back-off) and
 * makes the address's retry go over TCP. */
static void iter_feed_timeout(struct iter_req *req, struct iter_out *o,
                              bool hedge)
{
	struct iter_addr *a = iter_out_addr(req, o);

	if (o->timed_out || (hedge && o->hedged))
		return;
	if (hedge) {
		o->hedged = true;
		req->counts.hedges++;
		return;
	}
	o->timed_out = true;
	req->counts.timeouts++;
	if (a != NULL)
		a->dropped = true;
	/* A probe no server answers (some drop questions they were not
	 * built for): the retries ask the full name (RFC 9156 section 3). */
	if (o->minimised && !o->kept && o->gen == req->frame[o->frame]->gen &&
	    !req->frame[o->frame]->prime)
		req->frame[o->frame]->qmin = false;
	sel_timeout_report(req->env->sel, (const struct sockaddr *)&o->sa,
	                   req->now.mono_ms);
}

/* A timeout, an unreachable server or an EDNS FORMERR. */
static void iter_feed_failure(struct iter_req *req, struct iter_out *o,
                              const struct iter_reply *reply)
{
	struct iter_addr *a = iter_out_addr(req, o);
	struct iter_frame *f = req->frame[o->frame];
	const struct sockaddr *sa = (const struct sockaddr *)&o->sa;
	enum iter_reply_kind kind = reply->kind;

	if (!reply->hedge)
		iter_log_server(req, o, f->zone.name, f->zone.len,
		                kind == ITER_REPLY_TIMEOUT ? "timeout" :
		                kind == ITER_REPLY_UNREACHABLE ?
		                                             "unreachable" :
		                                             "FORMERR");
	if (kind == ITER_REPLY_TIMEOUT) {
		iter_feed_timeout(req, o, reply->hedge);
		return;
	}
	if (kind == ITER_REPLY_UNREACHABLE) {
		sel_timeout_report(req->env->sel, sa, req->now.mono_ms);
		if (a != NULL)
			a->dead = true;
	} else {
		sel_noedns_set(req->env->sel, sa, req->now.mono_ms);
		if (a != NULL && o->edns != 0 && !f->retry_set) {
			if (a->tries > 0)
				a->tries--;
			f->retry_set = true;
			f->retry_ns = o->ns;
			f->retry_addr = o->addr;
		}
	}
	iter_out_free(req, o);
}

void iter_feed(struct iter_req *req, const struct iter_reply *reply,
               const struct iter_now *now)
{
	struct iter_out *o;

	if (req == NULL || reply == NULL || now == NULL || req->done)
		return;
	req->now = *now;
	req->via = reply->via;
	o = iter_out_find(req, reply->token);
	if (o == NULL)
		return;
	iter_dz_reply(req, o, reply->kind, reply->hedge);
	if (o->frame > req->depth || req->frame[o->frame] == NULL ||
	    (req->frame[o->frame]->gen != o->gen && !o->kept)) {
		iter_out_free(req, o);
		return;
	}
	if (reply->kind == ITER_REPLY_MSG && reply->tcp) {
		struct iter_reply r = *reply;
		struct sel_info info;

		/* a TCP answer proves the server alive; its time (the
		 * handshake, the server's TCP queue) says little of UDP */
		sel_info_get(req->env->sel, (const struct sockaddr *)&o->sa,
		             req->now.mono_ms, &info);
		if (r.rtt_ms > info.srtt_ms)
			r.rtt_ms = info.srtt_ms;
		iter_reply_apply(req, o, &r);
	} else if (reply->kind == ITER_REPLY_MSG) {
		iter_reply_apply(req, o, reply);
	} else if (o->kept) {
		iter_out_free(req, o);
	} else
		iter_feed_failure(req, o, reply);
	iter_buf_idle(req);
}
