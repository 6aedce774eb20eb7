/*
 * resolver/front/server.c - one worker and its client front: UDP listeners,
 * the path of a client query (access control, parse, local zones, cache) and
 * the sending of answers. A cache miss goes to resolution.c (the
 * resolutions: iterator runs driven through the upstream transport),
 * which answers its waiters through server_answer and server_error.
 * TCP client connections are in server_tcp.c, DNS over TLS on them in
 * server_tls.c.
 */
#include "server_int.h"
#include "front_tls/server_ticket.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "base/clock.h"
#include "cachedb_step.h"
#include "infra/curvepin.h"
#include "infra/deadzone.h"
#include "infra/hints.h"
#include "anchor/anchor.h"
#include "validate/dnssec_set.h"
#include "policy/localdata.h"
#include "policy/localzone.h"
#include "base/log.h"
#include "proxy.h"
#include "qlog.h"
#include "policy/ratelimit.h"
#include "resolution.h"
#include "infra/sel.h"
#include "stats/topk.h"
#include "transport/tls.h"
#include "transport/upshare.h"
#include "transport/upstream.h"
#include "wire/rrtext.h"

/** The RCODE BADVERS (RFC 6891), 12 bits. */
#define SERVER_RCODE_BADVERS 16u
/** EDE "Prohibited" (RFC 8914): refused by access-control. */
#define SERVER_EDE_PROHIBITED 18u
/** Idle time after which the slabs' pages are given back
 *  (slab_on_idle): longer than the gaps inside a burst (a wave of
 *  resolutions waiting on one referral), short against a burst. */
#define SERVER_SLAB_IDLE_MS 250u

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

void server_anchors_release(struct server_anchors *a)
{
	if (a != NULL && --a->refs == 0) {
		anchors_free(a->a);
		free(a);
	}
}

int server_anchors_set(struct server *s, struct anchors *a)
{
	struct server_anchors *na = NULL;

	if (a != NULL && (na = calloc(1, sizeof(*na))) == NULL) {
		anchors_free(a);
		return SERVER_ENOMEM;
	}
	if (na != NULL) {
		na->a = a;
		na->refs = 1;
	}
	server_anchors_release(s->anchors);
	s->anchors = na;
	return SERVER_OK;
}

int server_insecure_set(struct server *s, const uint8_t *name, size_t len,
                        bool add)
{
	struct anchors *a = s->anchors != NULL ? s->anchors->a : NULL;
	int rc;

	if (a == NULL || anchors_count(a) == 0)
		return SERVER_EINVAL;
	rc = add ? anchors_add_insecure(a, name, len) :
	           anchors_remove_insecure(a, name, len);
	return rc == ANCHOR_OK ? SERVER_OK : SERVER_EINVAL;
}

const struct anchors *server_anchors(const struct server *s)
{
	return s->anchors != NULL && anchors_count(s->anchors->a) > 0 ?
	               s->anchors->a :
	               NULL;
}

void server_hints_release(struct server_hints *h)
{
	if (h != NULL && --h->refs == 0) {
		hints_free(h->h);
		free(h);
	}
}

/* ------------------------------------------------------------------ */
/* Sending answers                                                     */

/* The statistics' name of a destination's transport. */
static enum stats_transport
server_stats_transport(const struct inflight_dest *d)
{
	switch (d->transport) {
	case SERVER_DOH: return STATS_TR_HTTPS;
	case SERVER_TLS: return STATS_TR_TLS;
	case SERVER_TCP: return STATS_TR_TCP;
	default: return STATS_TR_UDP;
	}
}

static void server_send(struct server *s, const struct inflight_dest *d,
                        const uint8_t *msg, size_t len, bool waited)
{
	struct server_udp *l = d->handle;

	stats_sent(&s->st, server_stats_transport(d),
	           len >= WIRE_HEADER_BYTES ? msg[3] & 0x0fu : 0);
	if (d->transport == SERVER_DOH) {
		server_doh_send(s, d, msg, len, waited);
		return;
	}
	if (d->transport == SERVER_TCP || d->transport == SERVER_TLS) {
		server_tcp_send(s, d, msg, len, waited);
		return;
	}
	if (l != NULL)
		udpio_send(&l->io, msg, len, (const struct sockaddr *)&d->peer,
		           d->peerlen,
		           d->local.ss_family != 0 ?
		                   (const struct sockaddr *)&d->local :
		                   NULL);
}

void server_error(struct server *s, const struct respond_query *q,
                  const struct inflight_dest *d, unsigned rcode, bool waited)
{
	size_t len;

	if (respond_error(q, rcode, s->out, sizeof s->out, &len) != RESPOND_OK)
		return;
	stats_rcode(&s->st, rcode & 0x0fu);
	if (s->cfg->log_queries)
		qlog_write(q, (const struct sockaddr *)&d->addr, d->transport,
		           rcode, waited ? QLOG_SRC_RESOLVED : QLOG_SRC_NONE,
		           false);
	server_send(s, d, s->out, len, waited);
}

void server_answer(struct server *s, const struct respond_query *q,
                   const struct inflight_dest *d, const struct answer *a,
                   bool waited, enum qlog_src src, bool aa)
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
	if (aa) /* local data: we are the authority (flags byte 2) */
		s->out[2] |= (uint8_t)(WIRE_FLAG_AA >> 8);
	if (tc) {
		s->st.truncated++;
		respond_tc_note(q, a, s->out, len,
		                (const struct sockaddr *)&d->addr);
	}
	stats_response(&s->st, q, a);
	if (s->cfg->log_queries)
		qlog_answer(q, (const struct sockaddr *)&d->addr, d->transport,
		            src, a);
	server_send(s, d, s->out, len, waited);
}

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
	int f = cfg_zone_find(c->forward, c->n_forward, q->lname, q->qnamelen);
	int t = cfg_zone_find(c->stub, c->n_stub, q->lname, q->qnamelen);

	return (f >= 0 && c->forward[f].namelen > 1) ||
	       (t >= 0 && c->stub[t].namelen > 1);
}

/* An inform local zone: the client and the question, at info level. */
static void server_local_inform(const struct respond_query *q,
                                const struct inflight_dest *d)
{
	char addr[INET6_ADDRSTRLEN + 8], name[WIRE_NAME_TEXT_MAX];
	char type[RRTEXT_NAME_MAX];

	server_addr_text((const struct sockaddr *)&d->addr, addr, sizeof addr);
	if (wire_name_to_text(q->lname, q->qnamelen, name, sizeof name,
	                      NULL) != WIRE_OK)
		snprintf(name, sizeof name, "?");
	log_info("local_inform", "client=%s name=%s type=%s", addr, name,
	         rrtext_type_name(q->qtype, type));
}

/* Local data and blocked names, then the local zones: true if
 * answered (or dropped by a deny zone). */
static bool server_local(struct server *s, const struct respond_query *q,
                         const struct inflight_dest *d)
{
	struct answer a;
	bool blocked;
	unsigned flags;
	int rc;

	if (localdata_answer(s->ld, q->lname, q->qnamelen, q->qtype, q->qclass,
	                     &a, s->ans, sizeof s->ans,
	                     &blocked) == LOCALDATA_OK) {
		if (blocked)
			s->st.blocked++;
		else
			s->st.localdata_answers++;
		server_answer(s, q, d, &a, false, QLOG_SRC_LOCAL, true);
		return true;
	}
	if ((s->cfg->n_forward > 0 || s->cfg->n_stub > 0) &&
	    server_routed(s, q))
		return false;
	rc = localzone_answer2(s->lz, q->lname, q->qnamelen, q->qtype,
	                       q->qclass, &a, s->ans, sizeof s->ans, &flags);
	if (flags & LOCALZONE_INFORM)
		server_local_inform(q, d);
	if (rc == LOCALZONE_DROP)
		s->st.local_answers++; /* deny: nothing is sent */
	if (rc != LOCALZONE_OK)
		return rc == LOCALZONE_DROP;
	s->st.local_answers++;
	server_answer(s, q, d, &a, false, QLOG_SRC_LOCAL,
	              a.rcode != WIRE_RCODE_REFUSED); /* AA, as Unbound */
	return true;
}

/* Local data and zones, the cache, RD=0; else a resolution. */
static enum server_qresult server_lookup(struct server *s,
                                         const struct respond_query *q,
                                         const struct inflight_dest *d)
{
	struct answer a;
	time_t now = clock_wall_s();

	if (server_local(s, q, d) || server_ddr(s, q, d))
		return SERVER_Q_DONE;
	if (respond_cache_answer_flags(s->cache, q->lname, q->qnamelen,
	                               q->qtype, q->qclass, now,
	                               respond_chase_flags(q), &a, s->ans,
	                               sizeof s->ans) == RESPOND_OK) {
		s->st.cache_hits++;
		if (a.curve)
			s->st.answers_curve++;
		else
			s->st.answers_plain++;
		server_answer(s, q, d, &a, false, QLOG_SRC_CACHE, false);
		resolution_prefetch(s, q, &a, now);
		return SERVER_Q_DONE;
	}
	s->st.cache_misses++;
	if (q->flags & WIRE_FLAG_RD)
		return resolution_wait(s, q, d);
	s->st.nonrecursive++;
	if (respond_cache_referral(s->cache, q->lname, q->qnamelen, q->qclass,
	                           now, &a, s->ans,
	                           sizeof s->ans) == RESPOND_OK)
		server_answer(s, q, d, &a, false, QLOG_SRC_REFERRAL, false);
	else
		server_error(s, q, d, WIRE_RCODE_REFUSED, false);
	return SERVER_Q_DONE;
}

/* access-control refuse: REFUSED with EDE 18 "Prohibited" (RFC 8914
 * section 5.19) for a client that sent EDNS. */
static void server_acl_refuse(struct server *s, const struct respond_query *q,
                              const struct inflight_dest *d)
{
	struct answer a;

	memset(&a, 0, sizeof a);
	a.rcode = WIRE_RCODE_REFUSED;
	a.ede = true;
	a.ede_code = SERVER_EDE_PROHIBITED;
	a.ede_text = "refused by access-control";
	server_answer(s, q, d, &a, false, QLOG_SRC_NONE, false);
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
	                    clock_ms()) != RATELIMIT_PASS) {
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
		server_acl_refuse(s, &q, d);
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
		memcpy(&d.local, local,
		       local->sa_family == AF_INET6 ?
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

		if (server_tls_port(c, sa))
			rc = server_tls_listen(s, sa);
		else if (server_doh_port(c, sa))
			rc = server_doh_listen(s, sa);
		else if ((rc = server_udp_listen(s, sa)) == 0)
			rc = server_tcp_listen(s, sa);
		if (rc != 0) {
			server_addr_text(sa, addr, sizeof addr);
			snprintf(err, errlen, "listen %s: %s%s", addr,
			         uv_strerror(rc),
			         rc == UV_EADDRNOTAVAIL && !c->ip_freebind ?
			                 " (not an address of this "
			                 "host; ip-freebind: yes binds it "
			                 "anyway)" :
			                 "");
		}
	}
	if (rc == 0)
		cachedb_step_start(s);
	return rc == 0 ? SERVER_OK : SERVER_EBIND;
}

/* ------------------------------------------------------------------ */
/* The worker                                                          */

/* The transport behind the worker's upshare table. */
static int share_send(void *ctx, const struct iter_target *t, uint64_t mono_ms,
                      upstream_cb cb, void *arg, struct upstream_query **out)
{
	return upstream_send(ctx, t, mono_ms, cb, arg, out);
}

static void share_cancel(void *ctx, struct upstream_query *q)
{
	(void)ctx;
	upstream_cancel(q);
}

/* A digest of a config's forward zones (names, servers, forward-first):
 * a reload that changes them is logged (server_forward_set). */
static uint64_t server_forward_sum(const struct cfg *c)
{
	uint64_t h = base_fnv1a((const uint8_t *)&c->n_forward,
	                        sizeof c->n_forward, 0);
	size_t i, j;

	for (i = 0; i < c->n_forward; i++) {
		const struct cfg_zone *z = &c->forward[i];
		uint8_t first = z->first ? 1 : 0;

		h = base_fnv1a_add(h, z->name, z->namelen, 0);
		h = base_fnv1a_add(h, &first, 1, 0);
		for (j = 0; j < z->naddr; j++)
			h = base_fnv1a_add(h, (const uint8_t *)&z->addr[j].sa,
			                   z->addr[j].len, 0);
	}
	return h;
}

static void server_slab_idle_cb(uv_timer_t *t)
{
	struct server *s = t->data;

	slab_trim(&s->req_slab);
	slab_trim(&s->frame_slab);
}

/* A slab went idle holding a burst's pages: give them back once it has
 * stayed idle SERVER_SLAB_IDLE_MS (a later idle restarts the wait;
 * slab_trim does nothing if slots are held again by then). */
static void server_slab_idle(void *arg)
{
	struct server *s = arg;

	if (s->stopping)
		return;
	if (!s->slab_timer_open) {
		if (uv_timer_init(s->loop, &s->slab_timer) != 0)
			return;
		s->slab_timer.data = s;
		/* the timer alone does not keep the loop running */
		uv_unref((uv_handle_t *)&s->slab_timer);
		s->slab_timer_open = true;
	}
	uv_timer_start(&s->slab_timer, server_slab_idle_cb,
	               SERVER_SLAB_IDLE_MS, 0);
}

int server_new(struct server **out, const struct server_params *p)
{
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
	s->nx = p->nsecidx;
	s->dz = p->deadzone;
	s->own_dz = p->deadzone == NULL;
	/* a failed mapping leaves malloc behind the slabs */
	(void)slab_init(&s->req_slab, iter_req_size(), SERVER_RES_MAX);
	(void)slab_init(&s->frame_slab, iter_frame_size(),
	                SERVER_RES_MAX * SERVER_FRAMES_PER_RES);
	slab_on_idle(&s->req_slab, server_slab_idle, s);
	slab_on_idle(&s->frame_slab, server_slab_idle, s);
	s->nconns = s->cfg->incoming_num_tcp > 0 ? s->cfg->incoming_num_tcp :
	                                           CFG_INCOMING_TCP_DEFAULT;
	s->conns = calloc(s->nconns, sizeof(*s->conns));
	if (s->conns == NULL || sel_new(0, &s->sel) != SEL_OK ||
	    (s->own_pin && curvepin_new(&s->pin) != CURVEPIN_OK) ||
	    (s->own_dz && deadzone_new(&s->dz) != DEADZONE_OK) ||
	    dnssec_keycache_new(&s->keycache, SERVER_KEYCACHE_SLOTS) !=
	            DNSSEC_OK ||
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
	s->fwd_sum = server_forward_sum(s->cfg);
	upstream_set_tlsa_want(s->up, server_dane_want, s);
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
	server_hints_release(s->hints);
	s->hints = nh;
	return SERVER_OK;
}

void server_stop(struct server *s)
{
	size_t i;

	if (s == NULL || s->stopping)
		return;
	s->stopping = true;
	server_dz_stop(s);
	server_dane_stop(s);
	resolution_fail_all(s, "shutting down");
	cachedb_step_stop(s);
	server_ticket_stop(s);
	if (s->slab_timer_open)
		uv_close((uv_handle_t *)&s->slab_timer, NULL);
	s->slab_timer_open = false;
	for (i = 0; i < s->nudp; i++)
		udpio_close(&s->udp[i].io);
	server_tcp_stop(s);
	upstream_free(s->up);
	s->up = NULL;
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
	if (s->own_dz)
		deadzone_free(s->dz);
	if (s->own_rl)
		ratelimit_free(s->rl);
	localdata_free(s->ld);
	localzone_free(s->own_lz);
	server_hints_release(s->hints);
	server_anchors_release(s->anchors);
	dnssec_keycache_free(s->keycache);
	tls_ctx_free(s->tls_ctx);
	free(s->conns);
	free(s->stats_sum);
	slab_fini(&s->req_slab);
	slab_fini(&s->frame_slab);
	free(s);
}

int server_forward_set(struct server *s, const struct cfg *c, char *err,
                       size_t errlen)
{
	uint64_t sum = server_forward_sum(c);

	(void)err;
	(void)errlen;
	/* The iterator reads the forward zones from the config itself
	 * (resolver/iter/iter_fwd.c); a change is only logged. */
	if (sum == s->fwd_sum)
		return SERVER_OK;
	s->fwd_sum = sum;
	log_info("forward_zones", "zones=%zu", c->n_forward);
	return SERVER_OK;
}

int server_localdata_load(struct server *s, const struct cfg *c, char *err,
                          size_t errlen)
{
	struct localdata *ld = NULL;
	struct localzone *lz = NULL;
	struct tls_ctx *tc = NULL;
	size_t nrec, nblk;
	int rc;

	if (server_tls_load(c, &tc, err, errlen) != 0)
		return SERVER_EINVAL;
	rc = localzone_build(c->local, &lz, err, errlen);
	if (rc != LOCALZONE_OK) {
		tls_ctx_free(tc);
		return SERVER_EINVAL;
	}
	if (localdata_load(c->local_data_file, c->block_file, &ld, err,
	                   errlen) != LOCALDATA_OK) {
		localzone_free(lz);
		tls_ctx_free(tc);
		return SERVER_EINVAL;
	}
	server_tls_use(s, tc, c);
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
                                         struct stats_thread *per, size_t cap,
                                         size_t *n)
{
	stats_thread_of(&s->st, &per[0]);
	*n = 1;
	if (s->stats_more == NULL || s->stats_sum == NULL)
		return &s->st;
	*s->stats_sum = s->st;
	*n += s->stats_more(s->stats_more_arg, s->stats_sum, per + 1, cap - 1);
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

void server_iter_env(const struct server *s, struct iter_env *env)
{
	memset(env, 0, sizeof(*env));
	env->cache = s->cache;
	env->sel = s->sel;
	env->hints = s->hints->h;
	env->cfg = s->cfg;
	env->pin = s->pin;
	env->nsecidx = s->nx;
	env->deadzone = s->dz; /* a peek counts nothing */
	env->anchors = s->anchors != NULL ? s->anchors->a : NULL;
	env->keycache = s->keycache;
}
