/*
 * resolver/server.c - one worker: UDP listeners, the path of a client
 * query (access control, parse, local zones, cache, resolution), and the
 * resolutions: iterator runs driven through the upstream transport.
 * TCP client connections are in server_tcp.c.
 */
#include "server_int.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"
#include "hints.h"
#include "localzone.h"
#include "log.h"
#include "sel.h"
#include "upstream.h"

/** The RCODE BADVERS (RFC 6891), 12 bits. */
#define SERVER_RCODE_BADVERS 16u
/** Nanoseconds per microsecond (uv_hrtime is in nanoseconds). */
#define SERVER_NS_PER_US 1000u
/** Meta and transfer types that are never resolved. */
#define SERVER_TYPE_TKEY 249
#define SERVER_TYPE_TSIG 250
#define SERVER_TYPE_IXFR 251
#define SERVER_TYPE_AXFR 252
#define SERVER_TYPE_MAILB 253
#define SERVER_TYPE_MAILA 254

/** An upstream query of a resolution, by token. */
struct server_out {
	uint32_t token;
	struct upstream_query *uq;
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
	size_t nout;
	struct server_out out[ITER_MAX_SENDS];
};

/** What the answer callback of inflight_finish needs. */
struct server_answer_ctx {
	struct server *s;
	const struct respond_answer *a;  /**< NULL: answer SERVFAIL */
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
	uv_buf_t b;

	if (d->transport == SERVER_TCP) {
		server_tcp_send(s, d->slot, d->serial, msg, len, waited);
		return;
	}
	if (l == NULL || !l->open)
		return;
	b = uv_buf_init((char *)msg, (unsigned)len);
	if (uv_udp_try_send(&l->h, &b, 1,
	                    (const struct sockaddr *)&d->addr) < 0)
		s->st.send_errors++;
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
	server_send(s, d, s->out, len, waited);
}

static void server_answer(struct server *s, const struct respond_query *q,
                          const struct inflight_dest *d,
                          const struct respond_answer *a, bool waited)
{
	size_t limit = WIRE_MSG_MAX, len;
	bool tc = false;

	if (d->transport == SERVER_UDP)
		limit = respond_udp_limit(q, s->cfg->edns_size);
	if (respond_build(q, a, limit, s->out, sizeof s->out, &len, &tc) !=
	    RESPOND_OK) {
		server_error(s, q, d, WIRE_RCODE_SERVFAIL, waited);
		return;
	}
	if (tc)
		s->st.truncated++;
	stats_rcode(&s->st, a->rcode);
	server_send(s, d, s->out, len, waited);
}

static void answer_waiter_cb(void *arg, const struct inflight_waiter *w)
{
	struct server_answer_ctx *ctx = arg;
	uint64_t now = uv_hrtime();

	stats_recursion(&ctx->s->st, now > w->arrived_ns ?
	                (now - w->arrived_ns) / SERVER_NS_PER_US : 0);
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
		server_answer(ctx->s, &w->q, &w->dest, ctx->a, true);
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
		upstream_cancel(r->out[i].uq);
	r->nout = 0;
	iter_free(r->req);
	r->req = NULL;
	hints_release(r->hints);
	r->hints = NULL;
	s->nres--;
	uv_close((uv_handle_t *)&r->deadline, res_closed_cb);
}

static void log_servfail(const struct server_res *r, const char *why)
{
	char name[WIRE_NAME_TEXT_MAX];
	const uint8_t *n;
	size_t len;
	uint16_t qtype, qclass;

	if (log_level() < CFG_LOG_INFO)
		return;
	inflight_entry_key(r->entry, &n, &len, &qtype, &qclass);
	if (wire_name_to_text(n, len, name, sizeof name, NULL) != WIRE_OK)
		name[0] = '\0';
	log_info("servfail", "qname=%s qtype=%u why=%s", name,
	         (unsigned)qtype, why != NULL ? why : "-");
}

/* SERVFAIL to every waiter, then free. */
static void res_fail(struct server_res *r, const char *why)
{
	struct server_answer_ctx ctx = { r->s, NULL };

	if (r->done)
		return;
	r->done = true;
	r->s->st.resolutions_done++;
	r->s->st.resolutions_servfail++;
	log_servfail(r, why);
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
	if (ir->rcode == WIRE_RCODE_SERVFAIL) {
		r->s->st.resolutions_servfail++;
		log_servfail(r, ir->why);
	}
	ctx.s = r->s;
	ctx.a = &a;
	inflight_finish(r->s->inflight, r->entry, answer_waiter_cb, &ctx);
	res_release(r);
}

/* Take the query of a token out of the list (NULL if not there). */
static struct upstream_query *res_out_take(struct server_res *r,
                                           uint32_t token)
{
	struct upstream_query *uq;
	size_t i;

	for (i = 0; i < r->nout; i++) {
		if (r->out[i].token != token)
			continue;
		uq = r->out[i].uq;
		r->out[i] = r->out[--r->nout];
		return uq;
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
		upstream_cancel(res_out_take(r, reply->token));
	now = server_now();
	iter_feed(r->req, reply, &now);
	res_drive(r);
}

static void res_send(struct server_res *r, const struct iter_target *t,
                     const struct iter_now *now)
{
	struct upstream_query *uq = NULL;
	struct iter_reply fail;

	if (r->nout == ITER_MAX_SENDS) {
		upstream_cancel(r->out[0].uq);
		r->out[0] = r->out[--r->nout];
	}
	if (upstream_send(r->s->up, t, now->mono_ms, res_on_reply, r, &uq) ==
	    UPSTREAM_OK) {
		r->out[r->nout].token = t->token;
		r->out[r->nout++].uq = uq;
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

static void res_deadline_cb(uv_timer_t *tm)
{
	struct server_res *r = tm->data;

	if (r->done)
		return;
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

static struct server_res *res_new(struct server *s,
                                  const struct respond_query *q)
{
	struct server_res *r = calloc(1, sizeof(*r));
	struct iter_now now = server_now();

	if (r == NULL)
		return NULL;
	r->s = s;
	r->hints = s->hints;
	r->hints->refs++;
	r->env.cache = s->cache;
	r->env.sel = s->sel;
	r->env.hints = r->hints->h;
	r->env.cfg = s->cfg;
	s->nres++;
	uv_timer_init(s->loop, &r->deadline);
	r->deadline.data = r;
	r->req = iter_new(&r->env, q->lname, q->qnamelen, q->qtype,
	                  q->qclass, &now);
	if (r->req == NULL) {
		res_release(r);
		return NULL;
	}
	uv_timer_start(&r->deadline, res_deadline_cb,
	               (uint64_t)s->cfg->query_timeout_ms +
	               SERVER_DEADLINE_SLACK_MS, 0);
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

/* The RCODE for questions that are never resolved; 0 for the others. */
static unsigned query_policy(const struct respond_query *q)
{
	if (q->qclass != WIRE_CLASS_IN)
		return WIRE_RCODE_REFUSED;
	switch (q->qtype) {
	case 0:
	case WIRE_TYPE_OPT:
		return WIRE_RCODE_FORMERR;
	case SERVER_TYPE_IXFR:
	case SERVER_TYPE_AXFR:
		return WIRE_RCODE_REFUSED;
	case SERVER_TYPE_TKEY:
	case SERVER_TYPE_TSIG:
	case SERVER_TYPE_MAILB:
	case SERVER_TYPE_MAILA:
		return WIRE_RCODE_NOTIMP;
	default:
		return 0;
	}
}

static unsigned parse_rcode(int status)
{
	switch (status) {
	case RESPOND_ENOTIMP: return WIRE_RCODE_NOTIMP;
	case RESPOND_EBADVERS: return SERVER_RCODE_BADVERS;
	default: return WIRE_RCODE_FORMERR;
	}
}

/* Local zones, the cache, RD=0; else a resolution. */
static enum server_qresult server_lookup(struct server *s,
                                         const struct respond_query *q,
                                         const struct inflight_dest *d)
{
	struct respond_answer a;
	time_t now = time(NULL);

	if (localzone_answer(s->lz, q->lname, q->qnamelen, q->qtype,
	                     q->qclass, &a, s->ans, sizeof s->ans) ==
	    LOCALZONE_OK) {
		s->st.local_answers++;
		server_answer(s, q, d, &a, false);
		return SERVER_Q_DONE;
	}
	if (respond_cache_answer(s->cache, q->lname, q->qnamelen, q->qtype,
	                         q->qclass, now, &a, s->ans, sizeof s->ans) ==
	    RESPOND_OK) {
		s->st.cache_hits++;
		if (a.curve)
			s->st.answers_curve++;
		else
			s->st.answers_plain++;
		server_answer(s, q, d, &a, false);
		return SERVER_Q_DONE;
	}
	s->st.cache_misses++;
	if (q->flags & WIRE_FLAG_RD)
		return server_resolve(s, q, d);
	s->st.nonrecursive++;
	if (respond_cache_referral(s->cache, q->lname, q->qnamelen, q->qclass,
	                           now, &a, s->ans, sizeof s->ans) ==
	    RESPOND_OK)
		server_answer(s, q, d, &a, false);
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
	acl = cfg_acl_check(s->cfg, (const struct sockaddr *)&d->addr);
	if (acl == CFG_ACL_DENY) {
		s->st.acl_dropped++;
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
	if (q.has_question)
		stats_qtype(&s->st, q.qtype);
	rcode = rc != RESPOND_OK ? parse_rcode(rc) : query_policy(&q);
	if (rcode != 0) {
		server_error(s, &q, d, rcode, false);
		return SERVER_Q_DONE;
	}
	return server_lookup(s, &q, d);
}

/* ------------------------------------------------------------------ */
/* UDP listeners                                                       */

static void udp_alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *b)
{
	struct server_udp *l = h->data;

	(void)hint;
	b->base = (char *)l->s->in;
	b->len = sizeof l->s->in;
}

static void udp_recv_cb(uv_udp_t *h, ssize_t n, const uv_buf_t *b,
                        const struct sockaddr *addr, unsigned flags)
{
	struct server_udp *l = h->data;
	struct inflight_dest d;
	socklen_t alen;

	if (n <= 0 || addr == NULL || (flags & UV_UDP_PARTIAL) ||
	    l->s->stopping)
		return;
	if (addr->sa_family == AF_INET)
		alen = sizeof(struct sockaddr_in);
	else if (addr->sa_family == AF_INET6)
		alen = sizeof(struct sockaddr_in6);
	else
		return;
	d.transport = SERVER_UDP;
	d.handle = l;
	d.slot = 0;
	d.serial = 0;
	memcpy(&d.addr, addr, alen);
	d.addrlen = alen;
	l->s->st.queries_udp++;
	(void)server_query(l->s, (const uint8_t *)b->base, (size_t)n, &d);
}

static int server_udp_listen(struct server *s, const struct sockaddr *sa)
{
	struct server_udp *l = &s->udp[s->nudp];
	int rc;

	rc = uv_udp_init(s->loop, &l->h);
	if (rc != 0)
		return rc;
	l->s = s;
	l->h.data = l;
	l->open = true;
	s->nudp++;
	rc = uv_udp_bind(&l->h, sa,
	                 sa->sa_family == AF_INET6 ? UV_UDP_IPV6ONLY : 0);
	if (rc == 0)
		rc = uv_udp_recv_start(&l->h, udp_alloc_cb, udp_recv_cb);
	return rc;
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
			snprintf(err, errlen, "listen %s: %s", addr,
			         uv_strerror(rc));
		}
	}
	return rc == 0 ? SERVER_OK : SERVER_EBIND;
}

/* ------------------------------------------------------------------ */
/* The worker                                                          */

int server_new(struct server **out, const struct server_params *p)
{
	struct server *s;

	if (out == NULL || p == NULL || p->hints == NULL || p->loop == NULL ||
	    p->cfg == NULL || p->cache == NULL || p->lz == NULL) {
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
	s->conns = calloc(SERVER_TCP_CONNS_MAX, sizeof(*s->conns));
	if (s->conns == NULL || sel_new(0, &s->sel) != SEL_OK ||
	    inflight_new(&s->inflight, SERVER_RES_MAX, SERVER_WAITERS_MAX) !=
	    INFLIGHT_OK ||
	    upstream_new(&s->up, s->loop, s->cfg, s->curve, &s->st, 0) !=
	    UPSTREAM_OK) {
		server_free(s);
		return SERVER_ENOMEM;
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
	for (i = 0; i < s->nudp; i++) {
		if (s->udp[i].open) {
			s->udp[i].open = false;
			uv_close((uv_handle_t *)&s->udp[i].h, NULL);
		}
	}
	server_tcp_stop(s);
	upstream_free(s->up);
	s->up = NULL;
}

void server_free(struct server *s)
{
	if (s == NULL)
		return;
	upstream_free(s->up);
	inflight_free(s->inflight);
	sel_free(s->sel);
	hints_release(s->hints);
	free(s->conns);
	free(s);
}

const struct stats *server_stats(const struct server *s)
{
	return &s->st;
}

struct sel *server_sel(struct server *s)
{
	return s->sel;
}

size_t server_resolutions(const struct server *s)
{
	return s->nres;
}

void server_iter_env(const struct server *s, struct iter_env *env)
{
	memset(env, 0, sizeof(*env));
	env->cache = s->cache;
	env->sel = s->sel;
	env->hints = s->hints->h;
	env->cfg = s->cfg;
}
