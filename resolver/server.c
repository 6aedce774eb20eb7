/*
 * resolver/server.c - one worker: UDP listeners, the path of a client
 * query (access control, parse, local zones, cache, resolution), and the
 * resolutions: iterator runs driven through the upstream transport.
 * TCP client connections are in server_tcp.c.
 */
#include "server_int.h"

#include <arpa/inet.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"
#include "curvepin.h"
#include "forward.h"
#include "hints.h"
#include "localdata.h"
#include "localzone.h"
#include "log.h"
#include "proxy.h"
#include "qlog.h"
#include "ratelimit.h"
#include "rrtext.h"
#include "sel.h"
#include "stale.h"
#include "topk.h"
#include "upshare.h"
#include "upstream.h"

/** The RCODE BADVERS (RFC 6891), 12 bits. */
#define SERVER_RCODE_BADVERS 16u
/** Nanoseconds per microsecond (uv_hrtime is in nanoseconds). */
#define SERVER_NS_PER_US 1000u

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
	uv_timer_t deadline;
	bool done;
	bool prefetch;                   /**< no client: a cache refresh */
	bool early;                      /**< the deadline timer runs the
	                                      serve-stale client timer */
	uint64_t late_ms;                /**< ...then this long to the end */
	struct forward_query *fq;        /**< a forward-zone question */
	size_t nout;
	struct server_out out[ITER_MAX_SENDS];
	uint64_t start_ns;               /**< when it started (uv_hrtime) */
	struct server_res *prev, *next;  /**< s->res_head: every one alive
	                                      (dump_requestlist) */
};

/** What the answer callback of inflight_finish needs. */
struct server_answer_ctx {
	struct server *s;
	const struct respond_answer *a;  /**< NULL: answer SERVFAIL */
	bool stale;                      /**< a serve-stale answer */
};

static void res_drive(struct server_res *r);
static void res_fail(struct server_res *r, const char *why);

const char *server_strerror(int status)
{
	switch (status) {
	case SERVER_OK: return "ok";
	case SERVER_EBIND: return "cannot listen";
	case SERVER_ENOMEM: return "out of memory";
	case SERVER_EINVAL: return "invalid argument";
	default: return "unknown status";
	}
}

static struct iter_now server_now(void)
{
	struct iter_now n;

	n.wall = time(NULL);
	n.mono_ms = upstream_now_ms();
	return n;
}

static void hints_release(struct server_hints *h)
{
	if (h != NULL && --h->refs == 0) {
		hints_free(h->h);
		free(h);
	}
}

/* ------------------------------------------------------------------ */
/* Sending answers                                                     */

static void server_send(struct server *s, const struct inflight_dest *d,
                        const uint8_t *msg, size_t len, bool waited)
{
	struct server_udp *l = d->handle;

	if (d->transport == SERVER_TCP) {
		server_tcp_send(s, d->slot, d->serial, msg, len, waited);
		return;
	}
	if (l != NULL)
		udpio_send(&l->io, msg, len, (const struct sockaddr *)&d->peer,
		           d->peerlen, d->local.ss_family != 0 ?
		           (const struct sockaddr *)&d->local : NULL);
}

static void server_error(struct server *s, const struct respond_query *q,
                         const struct inflight_dest *d, unsigned rcode,
                         bool waited)
{
	size_t len;

	if (respond_error(q, rcode, s->out, sizeof s->out, &len) !=
	    RESPOND_OK)
		return;
	stats_rcode(&s->st, rcode & 0x0fu);
	if (s->cfg->log_queries)
		qlog_write(q, (const struct sockaddr *)&d->addr,
		           d->transport == SERVER_TCP, rcode,
		           waited ? QLOG_SRC_RESOLVED : QLOG_SRC_NONE, false);
	server_send(s, d, s->out, len, waited);
}

static void server_answer(struct server *s, const struct respond_query *q,
                          const struct inflight_dest *d,
                          const struct respond_answer *a, bool waited,
                          enum qlog_src src)
{
	size_t limit = WIRE_MSG_MAX, len;
	bool tc = false, aa = s->answer_aa;

	s->answer_aa = false;
	if (d->transport == SERVER_UDP)
		limit = respond_udp_limit(q, s->cfg->edns_size);
	if (respond_build(q, a, limit, s->out, sizeof s->out, &len, &tc) !=
	    RESPOND_OK) {
		server_error(s, q, d, WIRE_RCODE_SERVFAIL, waited);
		return;
	}
	if (aa) /* local data: we are the authority (flags byte 2) */
		s->out[2] |= (uint8_t)(WIRE_FLAG_AA >> 8);
	if (tc)
		s->st.truncated++;
	stats_answer(&s->st, a->rcode, a->an_count);
	if (s->cfg->log_queries)
		qlog_write(q, (const struct sockaddr *)&d->addr,
		           d->transport == SERVER_TCP, a->rcode, src, a->curve);
	server_send(s, d, s->out, len, waited);
}

static void answer_waiter_cb(void *arg, const struct inflight_waiter *w)
{
	struct server_answer_ctx *ctx = arg;
	uint64_t now = uv_hrtime();

	stats_recursion(&ctx->s->st, now > w->arrived_ns ?
	                (now - w->arrived_ns) / SERVER_NS_PER_US : 0);
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
		              QLOG_SRC_RESOLVED);
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
	size_t i;

	r->done = true;
	for (i = 0; i < r->nout; i++)
		upshare_detach(r->out[i].sq, r, r->out[i].token);
	r->nout = 0;
	forward_cancel(r->fq);
	r->fq = NULL;
	iter_free(r->req);
	r->req = NULL;
	hints_release(r->hints);
	r->hints = NULL;
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
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;

	if (log_level() < CFG_LOG_INFO)
		return;
	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	if (wire_name_to_text(n, len, name, sizeof name, NULL) != WIRE_OK)
		name[0] = '\0';
	log_info_limited("servfail", "qname=%s type=%s why=%s", name,
	                 rrtext_type_name(qtype, tbuf),
	                 why != NULL ? why : "-");
}

/* RFC 8767: a failed resolution answers from expired data if it can. */
static bool res_stale(struct server_res *r, struct respond_answer *a)
{
	struct server *s = r->s;
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;
	bool used;

	if (!s->cfg->serve_stale || s->stopping || r->prefetch)
		return false;
	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	return stale_answer(s->cache, n, len, qtype, qclass, time(NULL),
	                    s->cfg->serve_stale_window, a, s->ans,
	                    sizeof s->ans, &used) == STALE_OK;
}

/*
 * A failed walk may still have cached a complete answer (one too large
 * for the iterator's result buffer, say): answer from the cache then.
 */
static bool res_cached(struct server_res *r, struct respond_answer *a)
{
	struct server *s = r->s;
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;

	if (s->stopping || r->prefetch)
		return false;
	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	return respond_cache_answer(s->cache, n, len, qtype, qclass,
	                            time(NULL), a, s->ans,
	                            sizeof s->ans) == RESPOND_OK;
}

/* SERVFAIL (or a stale answer) to every waiter, then free. */
static void res_fail(struct server_res *r, const char *why)
{
	struct server_answer_ctx ctx = { r->s, NULL, false };
	struct respond_answer a;

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

/* ITER_DONE: answer every waiter from the result, then free. */
static void res_finish(struct server_res *r)
{
	const struct iter_result *ir = iter_result(r->req);
	struct server_answer_ctx ctx;
	struct respond_answer a;

	if (ir == NULL) {
		res_fail(r, "no result");
		return;
	}
	memset(&a, 0, sizeof a);
	a.rcode = ir->rcode;
	a.an = ir->an;
	a.an_len = ir->an_len;
	a.an_count = ir->an_count;
	a.ns = ir->ns;
	a.ns_len = ir->ns_len;
	a.ns_count = ir->ns_count;
	a.curve = ir->curve;
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
	inflight_finish(r->s->inflight, r->entry, answer_waiter_cb, &ctx);
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
	now = server_now();
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
		return; /* a forward-zone question: c-ares drives it */
	for (step = 0; step < SERVER_DRIVE_MAX && !r->done; step++) {
		now = server_now();
		switch (iter_next(r->req, &now, &t)) {
		case ITER_SEND:
			res_send(r, &t, &now);
			break;
		case ITER_WAIT:
			return;
		case ITER_DONE:
			res_finish(r);
			return;
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
	struct respond_answer a;
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

/* End the oldest resolution (SERVFAIL) to make room; false if none. */
static bool res_evict_oldest(struct server *s, struct inflight_entry *keep)
{
	struct inflight_entry *e = inflight_oldest(s->inflight);

	if (e == NULL || e == keep)
		return false;
	s->st.inflight_evicted++;
	res_fail(inflight_entry_res(e), "evicted: too many in flight");
	return true;
}

/* A forwarder's response (or failure): answer every waiter, free. */
static void res_fwd_cb(void *arg, int status, const uint8_t *msg,
                       size_t len)
{
	struct server_res *r = arg;
	struct server *s = r->s;
	struct server_answer_ctx ctx = { s, NULL, false };
	struct respond_answer a;
	const uint8_t *n;
	size_t nlen;
	uint16_t qtype, qclass;

	r->fq = NULL; /* freed by forward.c after this call */
	inflight_entry_key(r->entry, &n, &nlen, &qtype, &qclass);
	if (status != FORWARD_OK ||
	    forward_answer(s->cache, msg, len, n, nlen, qtype, qclass,
	                   time(NULL), &a, s->ans, sizeof s->ans, &s->cfg->priv,
	                   &s->st.upstream_private_stripped) != FORWARD_OK) {
		s->st.forward_failures++;
		res_fail(r, "forwarders failed");
		return;
	}
	r->done = true;
	s->st.resolutions_done++;
	ctx.a = &a;
	inflight_finish(s->inflight, r->entry, answer_waiter_cb, &ctx);
	res_release(r);
}

/* A forward zone holds the name: ask its servers. 1 sent, 0 not a
 * forward zone, -1 failed. */
static int res_forward(struct server_res *r, const struct respond_query *q)
{
	struct server *s = r->s;
	int z = forward_find(s->fwd, q->lname, q->qnamelen);

	if (z < 0)
		return 0;
	s->st.forward_queries++;
	if (forward_send(s->fwd, z, q->lname, q->qnamelen, q->qtype,
	                 q->qclass, res_fwd_cb, r, &r->fq) == FORWARD_OK)
		return 1;
	s->st.forward_failures++;
	return -1;
}

static struct server_res *res_new(struct server *s,
                                  const struct respond_query *q)
{
	int fwd;
	struct server_res *r = calloc(1, sizeof(*r));
	struct iter_now now = server_now();
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
	r->env.cfg = s->cfg;
	r->env.pin = s->pin;
	r->env.downgrades = &s->st.curve_downgrade_refused;
	r->env.tally.lame = &s->st.upstream_lame;
	r->env.tally.malformed = &s->st.upstream_malformed;
	r->env.tally.noaa = &s->st.upstream_noaa;
	r->env.tally.fallback = &s->st.upstream_fallback;
	r->env.tally.private_stripped = &s->st.upstream_private_stripped;
	r->env.prime_after = &s->prime_after_ms;
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
	fwd = res_forward(r, q);
	if (fwd == 0)
		r->req = iter_new(&r->env, q->lname, q->qnamelen, q->qtype,
		                  q->qclass, &now);
	if (fwd < 0 || (fwd == 0 && r->req == NULL)) {
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
	if (rc == INFLIGHT_EFULL && res_evict_oldest(s, NULL))
		rc = inflight_add(s->inflight, q->lname, q->qnamelen,
		                  q->qtype, q->qclass, r, &r->entry);
	if (rc != INFLIGHT_OK) {
		res_release(r);
		return NULL;
	}
	s->st.inflight_started++;
	stats_requestlist(&s->st, s->nres);
	return r;
}

/* A cache miss: join the resolution in flight, or start one. */
static enum server_qresult server_resolve(struct server *s,
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
	if (rc == INFLIGHT_EFULL && res_evict_oldest(s, e))
		rc = inflight_wait(s->inflight, e, &w);
	if (rc != INFLIGHT_OK)
		s->st.inflight_refused++;
	if (r != NULL)
		res_drive(r);
	return rc == INFLIGHT_OK ? SERVER_Q_WAITING : SERVER_Q_DONE;
}

/* ------------------------------------------------------------------ */
/* The path of a client query                                          */

static unsigned parse_rcode(int status)
{
	switch (status) {
	case RESPOND_ENOTIMP: return WIRE_RCODE_NOTIMP;
	case RESPOND_EBADVERS: return SERVER_RCODE_BADVERS;
	default: return WIRE_RCODE_FORMERR;
	}
}

/* A forward or stub zone below the root holds the name: it wins over
 * the built-in local zones (forward-zone: 10.in-addr.arpa. ..., e.g.). */
static bool server_routed(const struct server *s,
                          const struct respond_query *q)
{
	const struct cfg *c = s->cfg;
	int f = cfg_zone_find(c->forward, c->n_forward, q->lname,
	                      q->qnamelen);
	int t = cfg_zone_find(c->stub, c->n_stub, q->lname, q->qnamelen);

	return (f >= 0 && c->forward[f].namelen > 1) ||
	       (t >= 0 && c->stub[t].namelen > 1);
}

/* Local data and blocked names, then the local zones: true if
 * answered. */
static bool server_local(struct server *s, const struct respond_query *q,
                         const struct inflight_dest *d)
{
	struct respond_answer a;
	bool blocked;

	if (localdata_answer(s->ld, q->lname, q->qnamelen, q->qtype,
	                     q->qclass, &a, s->ans, sizeof s->ans, &blocked) ==
	    LOCALDATA_OK) {
		if (blocked)
			s->st.blocked++;
		else
			s->st.localdata_answers++;
		s->answer_aa = true;
		server_answer(s, q, d, &a, false, QLOG_SRC_LOCAL);
		return true;
	}
	if ((s->cfg->n_forward > 0 || s->cfg->n_stub > 0) &&
	    server_routed(s, q))
		return false;
	if (localzone_answer(s->lz, q->lname, q->qnamelen, q->qtype,
	                     q->qclass, &a, s->ans, sizeof s->ans) !=
	    LOCALZONE_OK)
		return false;
	s->st.local_answers++;
	server_answer(s, q, d, &a, false, QLOG_SRC_LOCAL);
	return true;
}

/* Prefetch: refresh a cache answer near its end in the background (no
 * client waits; joined by any resolution of the question in flight;
 * never when the table is half full: clients come first). */
static void server_prefetch(struct server *s, const struct respond_query *q,
                            const struct respond_answer *a, time_t now)
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

/* Local data and zones, the cache, RD=0; else a resolution. */
static enum server_qresult server_lookup(struct server *s,
                                         const struct respond_query *q,
                                         const struct inflight_dest *d)
{
	struct respond_answer a;
	time_t now = time(NULL);

	if (server_local(s, q, d))
		return SERVER_Q_DONE;
	if (respond_cache_answer(s->cache, q->lname, q->qnamelen, q->qtype,
	                         q->qclass, now, &a, s->ans, sizeof s->ans) ==
	    RESPOND_OK) {
		s->st.cache_hits++;
		if (a.curve)
			s->st.answers_curve++;
		else
			s->st.answers_plain++;
		server_answer(s, q, d, &a, false, QLOG_SRC_CACHE);
		server_prefetch(s, q, &a, now);
		return SERVER_Q_DONE;
	}
	s->st.cache_misses++;
	if (q->flags & WIRE_FLAG_RD)
		return server_resolve(s, q, d);
	s->st.nonrecursive++;
	if (respond_cache_referral(s->cache, q->lname, q->qnamelen, q->qclass,
	                           now, &a, s->ans, sizeof s->ans) ==
	    RESPOND_OK)
		server_answer(s, q, d, &a, false, QLOG_SRC_REFERRAL);
	else
		server_error(s, q, d, WIRE_RCODE_REFUSED, false);
	return SERVER_Q_DONE;
}

enum server_qresult server_query(struct server *s, const uint8_t *pkt,
                                 size_t len, const struct inflight_dest *d)
{
	struct respond_query q;
	enum cfg_acl_action acl;
	unsigned rcode;
	int rc;

	s->st.queries++;
	topk_note_client(topk_shared(), (const struct sockaddr *)&d->addr);
	acl = cfg_acl_check(s->cfg, (const struct sockaddr *)&d->addr);
	if (acl == CFG_ACL_DENY) {
		s->st.acl_dropped++;
		return SERVER_Q_DONE;
	}
	if (ratelimit_check(s->rl, (const struct sockaddr *)&d->addr,
	                    s->cfg->ratelimit,
	                    s->cfg->ratelimit_exempt_loopback,
	                    upstream_now_ms()) != RATELIMIT_PASS) {
		s->st.ratelimited++;
		return SERVER_Q_DONE;
	}
	rc = respond_query_parse(pkt, len, &q);
	if (rc == RESPOND_EDROP) {
		s->st.dropped++;
		return SERVER_Q_DONE;
	}
	if (acl != CFG_ACL_ALLOW) {
		s->st.acl_refused++;
		server_error(s, &q, d, WIRE_RCODE_REFUSED, false);
		return SERVER_Q_DONE;
	}
	stats_query(&s->st, &q, d->addr.ss_family == AF_INET6);
	if (q.has_question)
		topk_note_name(topk_shared(), q.lname, q.qnamelen);
	rcode = rc != RESPOND_OK ? parse_rcode(rc) : respond_policy(&q);
	if (rcode != 0) {
		server_error(s, &q, d, rcode, false);
		return SERVER_Q_DONE;
	}
	return server_lookup(s, &q, d);
}

/* ------------------------------------------------------------------ */
/* UDP listeners                                                       */

bool server_proxy_client(struct server *s, const uint8_t *pkt, size_t len,
                         struct inflight_dest *d, size_t *skip)
{
	struct sockaddr_storage client;
	int rc;

	*skip = 0;
	if (s->cfg->n_proxy_from == 0 ||
	    !cfg_proxy_from(s->cfg, (const struct sockaddr *)&d->addr))
		return true;
	rc = proxy_parse(pkt, len, skip, &client);
	if (rc != PROXY_OK) {
		s->st.proxy_bad++;
		if (log_level() >= CFG_LOG_DEBUG)
			log_event(CFG_LOG_DEBUG, "proxy_bad", "reason=%s",
			          proxy_strerror(rc));
		return false;
	}
	if (client.ss_family == AF_INET) {
		d->addr = client;
		d->addrlen = sizeof(struct sockaddr_in);
	} else if (client.ss_family == AF_INET6) {
		d->addr = client;
		d->addrlen = sizeof(struct sockaddr_in6);
	} /* LOCAL: the balancer itself asks */
	return true;
}

/* One datagram of a receive batch (udpio.h). */
static void udp_recv(struct udpio *u, const uint8_t *pkt, size_t len,
                     const struct sockaddr *from, socklen_t fromlen,
                     const struct sockaddr *local)
{
	struct server_udp *l = u->data;
	struct inflight_dest d;
	size_t skip;

	if (l->s->stopping)
		return;
	d.transport = SERVER_UDP;
	d.handle = l;
	d.slot = 0;
	d.serial = 0;
	memcpy(&d.addr, from, fromlen);
	d.addrlen = fromlen;
	memcpy(&d.peer, from, fromlen);
	d.peerlen = fromlen;
	d.local.ss_family = 0;
	if (local != NULL)
		memcpy(&d.local, local, local->sa_family == AF_INET6 ?
		       sizeof(struct sockaddr_in6) :
		       sizeof(struct sockaddr_in));
	if (!server_proxy_client(l->s, pkt, len, &d, &skip))
		return;
	l->s->st.queries_udp++;
	(void)server_query(l->s, pkt + skip, len - skip, &d);
}

unsigned server_sock_flags(const struct server *s)
{
	/* several workers (threads) share the address: SO_REUSEPORT */
	return (s->cfg->threads > 1 ? UDPIO_F_REUSEPORT : 0u) |
	       (s->cfg->ip_freebind ? UDPIO_F_FREEBIND : 0u);
}

static int server_udp_listen(struct server *s, const struct sockaddr *sa)
{
	struct server_udp *l = &s->udp[s->nudp];

	l->s = s;
	l->io.data = l;
	s->nudp++;
	return udpio_open(&l->io, s->loop, sa, server_sock_flags(s), udp_recv,
	                  &s->st.send_errors);
}

void server_addr_text(const struct sockaddr *sa, char *out, size_t cap)
{
	char a[INET6_ADDRSTRLEN];
	unsigned port = 0;

	a[0] = '\0';
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *v4 = (const struct sockaddr_in *)sa;

		uv_ip4_name(v4, a, sizeof a);
		port = ntohs(v4->sin_port);
	} else if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *v6 =
			(const struct sockaddr_in6 *)sa;

		uv_ip6_name(v6, a, sizeof a);
		port = ntohs(v6->sin6_port);
	}
	snprintf(out, cap, "%s@%u", a, port);
}

int server_listen(struct server *s, char *err, size_t errlen)
{
	const struct cfg *c = s->cfg;
	char addr[64];
	size_t i;
	int rc = 0;

	for (i = 0; i < c->n_listen && rc == 0; i++) {
		const struct sockaddr *sa =
			(const struct sockaddr *)&c->listen[i].sa;

		rc = server_udp_listen(s, sa);
		if (rc == 0)
			rc = server_tcp_listen(s, sa);
		if (rc != 0) {
			server_addr_text(sa, addr, sizeof addr);
			snprintf(err, errlen, "listen %s: %s%s", addr,
			         uv_strerror(rc), rc == UV_EADDRNOTAVAIL &&
			         !c->ip_freebind ? " (not an address of this "
			         "host; ip-freebind: yes binds it anyway)" : "");
		}
	}
	return rc == 0 ? SERVER_OK : SERVER_EBIND;
}

/* ------------------------------------------------------------------ */
/* The worker                                                          */

/* The transport behind the worker's upshare table. */
static int share_send(void *ctx, const struct iter_target *t,
                      uint64_t mono_ms, upstream_cb cb, void *arg,
                      struct upstream_query **out)
{
	return upstream_send(ctx, t, mono_ms, cb, arg, out);
}

static void share_cancel(void *ctx, struct upstream_query *q)
{
	(void)ctx;
	upstream_cancel(q);
}

int server_new(struct server **out, const struct server_params *p)
{
	char err[CFG_ERR_BYTES];
	struct server *s;

	if (out == NULL || p == NULL || p->hints == NULL || p->loop == NULL ||
	    p->cfg == NULL || p->cache == NULL) {
		if (p != NULL)
			hints_free(p->hints);
		return SERVER_EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (s == NULL || (s->hints = calloc(1, sizeof(*s->hints))) == NULL) {
		free(s);
		hints_free(p->hints);
		return SERVER_ENOMEM;
	}
	s->hints->h = p->hints;
	s->hints->refs = 1;
	s->loop = p->loop;
	s->cfg = p->cfg;
	s->cache = p->cache;
	s->curve = p->curve;
	s->lz = p->lz;
	s->rl = p->rl;
	s->own_rl = p->rl == NULL;
	s->pin = p->pin;
	s->own_pin = p->pin == NULL;
	/* a failed mapping leaves malloc behind the slabs */
	(void)slab_init(&s->req_slab, iter_req_size(), SERVER_RES_MAX);
	(void)slab_init(&s->frame_slab, iter_frame_size(),
	                SERVER_RES_MAX * SERVER_FRAMES_PER_RES);
	s->conns = calloc(SERVER_TCP_CONNS_MAX, sizeof(*s->conns));
	if (s->conns == NULL || sel_new(0, &s->sel) != SEL_OK ||
	    (s->own_pin && curvepin_new(&s->pin) != CURVEPIN_OK) ||
	    (s->own_rl && ratelimit_new(&s->rl) != RATELIMIT_OK) ||
	    inflight_new(&s->inflight, SERVER_RES_MAX, SERVER_WAITERS_MAX) !=
	    INFLIGHT_OK ||
	    upstream_new(&s->up, s->loop, s->cfg, s->curve, &s->st, 0) !=
	    UPSTREAM_OK ||
	    (s->share = upshare_new(share_send, share_cancel, s->up,
	                            &s->st.upstream_shared)) == NULL) {
		server_free(s);
		return SERVER_ENOMEM;
	}
	if (forward_new(&s->fwd, s->loop, s->cfg, err, sizeof err) !=
	    FORWARD_OK) {
		log_error("forward_failed", "error=%s", err);
		server_free(s);
		return SERVER_EINVAL;
	}
	*out = s;
	return SERVER_OK;
}

int server_hints_set(struct server *s, struct hints *h)
{
	struct server_hints *nh = calloc(1, sizeof(*nh));

	if (nh == NULL) {
		hints_free(h);
		return SERVER_ENOMEM;
	}
	nh->h = h;
	nh->refs = 1;
	hints_release(s->hints);
	s->hints = nh;
	return SERVER_OK;
}

void server_stop(struct server *s)
{
	struct inflight_entry *e;
	size_t i;

	if (s == NULL || s->stopping)
		return;
	s->stopping = true;
	for (i = 0; i < SERVER_RES_MAX &&
	     (e = inflight_oldest(s->inflight)) != NULL; i++)
		res_fail(inflight_entry_res(e), "shutting down");
	for (i = 0; i < s->nudp; i++)
		udpio_close(&s->udp[i].io);
	server_tcp_stop(s);
	upstream_free(s->up);
	s->up = NULL;
	forward_stop(s->fwd);
}

void server_free(struct server *s)
{
	if (s == NULL)
		return;
	upshare_free(s->share);
	upstream_free(s->up);
	inflight_free(s->inflight);
	sel_free(s->sel);
	if (s->own_pin)
		curvepin_free(s->pin);
	if (s->own_rl)
		ratelimit_free(s->rl);
	forward_stop(s->fwd);
	forward_free(s->fwd);
	localdata_free(s->ld);
	localzone_free(s->own_lz);
	hints_release(s->hints);
	free(s->conns);
	free(s->stats_sum);
	slab_fini(&s->req_slab);
	slab_fini(&s->frame_slab);
	free(s);
}

int server_forward_set(struct server *s, const struct cfg *c, char *err,
                       size_t errlen)
{
	struct forward *nf = NULL, *old = s->fwd;

	if (forward_same(old, c))
		return SERVER_OK;
	if (forward_new(&nf, s->loop, c, err, errlen) != FORWARD_OK) {
		forward_stop(nf);
		forward_free(nf);
		return SERVER_EINVAL;
	}
	s->fwd = nf;
	forward_stop(old);  /* its pending questions fail now */
	forward_free(old);
	log_info("forward_zones", "zones=%zu", c->n_forward);
	return SERVER_OK;
}

int server_localdata_load(struct server *s, const struct cfg *c, char *err,
                          size_t errlen)
{
	struct localdata *ld = NULL;
	struct localzone *lz = NULL;
	size_t nrec, nblk;
	int rc;

	rc = localzone_new(c->local_zone, c->n_local_zone, &lz);
	if (rc != LOCALZONE_OK) {
		snprintf(err, errlen, "local zones: %s",
		         localzone_strerror(rc));
		return SERVER_EINVAL;
	}
	if (localdata_load(c->local_data_file, c->block_file, &ld, err,
	                   errlen) != LOCALDATA_OK) {
		localzone_free(lz);
		return SERVER_EINVAL;
	}
	localdata_free(s->ld);
	s->ld = ld;
	localzone_free(s->own_lz);
	s->own_lz = lz;
	s->lz = lz;
	localdata_counts(ld, &nrec, &nblk);
	if (nrec + nblk > 0)
		log_info("localdata", "records=%zu blocked=%zu", nrec, nblk);
	return SERVER_OK;
}

const struct stats *server_stats(const struct server *s)
{
	if (s->stats_more == NULL || s->stats_sum == NULL)
		return &s->st;
	*s->stats_sum = s->st;
	(void)s->stats_more(s->stats_more_arg, s->stats_sum, NULL, 0);
	return s->stats_sum;
}

const struct stats *server_stats_threads(const struct server *s,
                                         struct stats_thread *per,
                                         size_t cap, size_t *n)
{
	stats_thread_of(&s->st, &per[0]);
	*n = 1;
	if (s->stats_more == NULL || s->stats_sum == NULL)
		return &s->st;
	*s->stats_sum = s->st;
	*n += s->stats_more(s->stats_more_arg, s->stats_sum, per + 1,
	                    cap - 1);
	return s->stats_sum;
}

int server_stats_more(struct server *s, server_stats_more_fn *fn, void *arg)
{
	if (s->stats_sum == NULL &&
	    (s->stats_sum = malloc(sizeof(*s->stats_sum))) == NULL)
		return SERVER_ENOMEM;
	s->stats_more = fn;
	s->stats_more_arg = arg;
	return SERVER_OK;
}

size_t server_forget_infra(struct server *s, const struct sockaddr *sa)
{
	(void)upstream_fmt_forget(s->up, sa);
	return sel_forget(s->sel, sa);
}

struct sel *server_sel(struct server *s)
{
	return s->sel;
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
	              (now_ns - r->start_ns) / SERVER_NS_PER_US : 0;
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
	             "%s\n", num, rrtext_type_name(qtype, tbuf), cbuf, name,
	             us / 1000000u, us % 1000000u,
	             r->req != NULL ? "iterator" : "forward",
	             r->prefetch ? "prefetch" : "wait",
	             inflight_entry_waiters(r->entry),
	             inflight_entry_waiters(r->entry) == 1 ? "client" :
	             "clients");
	if (k > 0)
		fn(arg, line, (size_t)k < sizeof line ? (size_t)k :
		   sizeof line - 1);
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
	 * its late upstream replies find it detached (upshare_detach,
	 * forward_cancel). The list only shrinks here: it ends. */
	while ((r = s->res_head) != NULL) {
		if (r->done) {  /* cannot stay listed; be safe anyway */
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

void server_iter_env(const struct server *s, struct iter_env *env)
{
	memset(env, 0, sizeof(*env));
	env->cache = s->cache;
	env->sel = s->sel;
	env->hints = s->hints->h;
	env->cfg = s->cfg;
	env->pin = s->pin;
}
