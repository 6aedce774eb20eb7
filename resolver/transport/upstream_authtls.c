/*
 * resolver/transport/upstream_authtls.c - opportunistic DNS over TLS to
 * authoritative servers (RFC 9539, auth-tls: opportunistic): which
 * queries go over TLS, the probes, and the state they leave in the
 * worker's table (infra/authtls.h).
 *
 * A server named with a DNSCurve key is never probed nor asked over TLS;
 * a forwarder (RD=1) is a forward zone's business (dot_auth_of). For any
 * other server: while its state is unknown the query goes as before and
 * a probe starts beside it, a TLS connection to port 853 (the worker's
 * unauthenticated connections, dot_new_unauth) carrying the same
 * question with an ID of its own, whose answer only tells that TLS works
 * (the client waits on the plain query, never on the probe); once it
 * works every query to the server goes over that connection (pipelined,
 * reused, closed when idle); a connection that fails sends its queries
 * in plain and the server is asked in plain until the damping interval
 * is over. At most UPSTREAM_PROBES_MAX probes are out at once per worker
 * (beyond, a server stays unknown and is probed later).
 *
 * DANE (RFC 7671): a target the iterator gave TLSA records (the usable
 * records of a secure TLSA RRset of its NS name, iter_enc.c) goes on a
 * connection of its own, named after the NS (its SNI) and checked
 * against every record (usage 3: the leaf; usage 2: a CA of the chain
 * sent, the path and the NS name verified: tls_peer.c), whatever the
 * RFC 9539 state says; when it fails the query fails, counted and
 * logged, and is never asked in plain nor on an unchecked connection.
 */
#include "upstream_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "base/netaddr.h"
#include "conf/cfg.h"
#include "dot.h"
#include "infra/authtls.h"
#include "stats/stats.h"

/** Probes out at once per worker. */
#define UPSTREAM_PROBES_MAX 64

/** One probe: a query on the server's TLS connection and its deadline. */
struct upstream_probe {
	struct upstream *u;
	struct upstream_probe *prev, *next;
	struct sockaddr_storage sa; /**< the server, port 853 */
	struct dot_query *dq;
	uv_timer_t timer; /**< AUTHTLS_PROBE_TIMEOUT_MS */
};

/** The authentication of every opportunistic connection: none. */
static const struct cfg_tls authtls_none;

int upstream_authtls_new(struct upstream *u)
{
	if (dot_new_unauth(&u->adot, u->loop, u->cfg, u->st) != DOT_OK)
		return UPSTREAM_ENOMEM;
	if (authtls_new(0, (uint64_t)u->cfg->auth_tls_damping_s * 1000u,
	                &u->authtls) != AUTHTLS_OK) {
		dot_free(u->adot);
		u->adot = NULL;
		return UPSTREAM_ENOMEM;
	}
	return UPSTREAM_OK;
}

static void probe_closed(uv_handle_t *h)
{
	free(h->data);
}

/* Unlink a probe, cancel its query and close its timer (freed then). */
static void probe_end(struct upstream_probe *p)
{
	struct upstream *u = p->u;

	if (p->prev != NULL)
		p->prev->next = p->next;
	else
		u->probes = p->next;
	if (p->next != NULL)
		p->next->prev = p->prev;
	u->nprobes--;
	dot_cancel(p->dq);
	p->dq = NULL;
	uv_close((uv_handle_t *)&p->timer, probe_closed);
}

void upstream_authtls_free(struct upstream *u)
{
	while (u->probes != NULL)
		probe_end(u->probes);
	dot_free(u->adot);
	u->adot = NULL;
	authtls_free(u->authtls);
	u->authtls = NULL;
}

/* The table, damping as the configuration says now: a reload rewrites
 * u->cfg in place (daemon/workers.c), and the failures from then on are
 * damped for the new interval, those known before keep theirs. */
static struct authtls *authtls_of(struct upstream *u)
{
	authtls_damping_set(u->authtls,
	                    (uint64_t)u->cfg->auth_tls_damping_s * 1000u);
	return u->authtls;
}

/* The outcome of a probe: the state, a counter, a debug line. */
static void probe_result(struct upstream_probe *p, bool ok, const char *why)
{
	struct upstream *u = p->u;
	char addr[NETADDR_TEXT_MAX];

	if (ok) {
		authtls_ok(u->authtls, (const struct sockaddr *)&p->sa,
		           clock_ms());
		u->st->upstream_authtls_works++;
	} else {
		authtls_fail(authtls_of(u), (const struct sockaddr *)&p->sa,
		             clock_ms());
		u->st->upstream_authtls_failed++;
	}
	netaddr_text((const struct sockaddr *)&p->sa, addr, sizeof addr);
	log_debug("authtls_probe", "server=%s result=%s why=%s", addr,
	          ok ? "tls" : "failed", why);
	probe_end(p);
}

static void probe_reply(void *arg, int status, uint8_t *msg, size_t len)
{
	(void)msg;
	(void)len;
	probe_result(arg, status == DOT_OK,
	             status == DOT_OK ? "answered" : "connection failed");
}

static void probe_timeout(uv_timer_t *t)
{
	probe_result(t->data, false, "timed out");
}

/* A probe for q's server beside q: the same question on a connection to
 * its port 853. When the connection cannot start the server has failed;
 * when there is no room for it (connections, memory) it stays unknown. */
static void probe_start(struct upstream_query *q, const struct sockaddr *sa)
{
	struct upstream *u = q->u;
	struct upstream_probe *p;
	struct exchange_sent s;
	int rc = DOT_ENOMEM;

	if ((p = calloc(1, sizeof *p)) == NULL ||
	    uv_timer_init(u->loop, &p->timer) != 0) {
		free(p);
		authtls_forget(u->authtls, sa); /* probed another time */
		return;
	}
	p->u = u;
	p->timer.data = p;
	memcpy(&p->sa, sa, sizeof p->sa);
	p->next = u->probes;
	if (u->probes != NULL)
		u->probes->prev = p;
	u->probes = p;
	u->nprobes++;
	u->st->upstream_authtls_probes++;
	if (upstream_pkt_build(u, &q->t, EXCHANGE_PLAIN, false, &s) ==
	    UPSTREAM_OK)
		rc = dot_send(u->adot, sa, &authtls_none, NULL, u->sbuf,
		              s.pktlen, probe_reply, p, &p->dq);
	if (rc == DOT_EFAILING) {
		probe_result(p, false, "could not connect");
		return;
	}
	if (rc != DOT_OK) { /* no room here: nothing learned */
		authtls_forget(u->authtls, sa);
		probe_end(p);
		return;
	}
	uv_timer_start(&p->timer, probe_timeout, AUTHTLS_PROBE_TIMEOUT_MS, 0);
}

/* A server's TLS connection failed: counted once, logged (debug). */
static void authtls_failed(struct upstream *u, const struct sockaddr *sa,
                           uint64_t now)
{
	char addr[NETADDR_TEXT_MAX];

	if (authtls_state_of(u->authtls, sa, now, NULL) == AUTHTLS_FAILED)
		return;
	authtls_fail(authtls_of(u), sa, now);
	u->st->upstream_authtls_failed++;
	netaddr_text(sa, addr, sizeof addr);
	log_debug("authtls_down", "server=%s note=%s", addr,
	          "TLS failed or timed out: plain until the damping ends");
}

/* A TLS connection may have to be made first: the time of a TCP query,
 * not of a datagram (and no hedge, which would ask another server in
 * plain, before a handshake could be over). */
static void upstream_authtls_tcp_times(struct upstream_query *q)
{
	q->t.hedge_ms *= UPSTREAM_TCP_TIMEOUT_FACTOR;
	if (q->t.timeout_ms * UPSTREAM_TCP_TIMEOUT_FACTOR >
	    UPSTREAM_TCP_TIMEOUT_MIN_MS)
		q->t.timeout_ms *= UPSTREAM_TCP_TIMEOUT_FACTOR;
	else
		q->t.timeout_ms = UPSTREAM_TCP_TIMEOUT_MIN_MS;
}

/* May q's server be asked over opportunistic TLS at all? */
static bool authtls_candidate(const struct upstream_query *q)
{
	const struct upstream *u = q->u;

	return u->cfg->auth_tls == CFG_AUTH_TLS_OPPORTUNISTIC &&
	       u->adot != NULL && !q->t.rd &&
	       (q->t.addr.ss_family == AF_INET ||
	        q->t.addr.ss_family == AF_INET6);
}

int upstream_authtls_try(struct upstream_query *q)
{
	struct upstream *u = q->u;
	struct sockaddr_storage sa = q->t.addr;
	const struct sockaddr *s = (const struct sockaddr *)&sa;
	uint64_t now = clock_ms();

	if (!authtls_candidate(q))
		return UPSTREAM_EINVAL;
	if (q->t.curve) { /* DNSCurve: never probed, never over TLS */
		authtls_curve(u->authtls, s, now);
		return UPSTREAM_EINVAL;
	}
	netaddr_set_port((struct sockaddr *)&sa, AUTHTLS_PORT);
	if (u->nprobes >= UPSTREAM_PROBES_MAX &&
	    authtls_state_of(u->authtls, s, now, NULL) == AUTHTLS_UNKNOWN)
		return UPSTREAM_ELIMIT;               /* probed later */
	switch (authtls_use(authtls_of(u), s, now)) { /* a probe's timeout */
	case AUTHTLS_USE_PROBE: probe_start(q, s); return UPSTREAM_EINVAL;
	case AUTHTLS_USE_TLS: break;
	default: return UPSTREAM_EINVAL;
	}
	/* not started (in back-off, full): plain this time; a failure of
	 * the server came by DOT_EFAIL */
	if (upstream_att_tls(q, u->adot, s, &authtls_none) != UPSTREAM_OK)
		return UPSTREAM_ESOCKET;
	upstream_authtls_tcp_times(q);
	/* it takes TLS: its TLSA, looked up beside, may make it DANE */
	if (q->t.dane_want && u->tlsa_want != NULL)
		u->tlsa_want(u->tlsa_arg, q->t.dane_ns);
	return UPSTREAM_OK;
}

void upstream_set_tlsa_want(struct upstream *u, upstream_tlsa_fn fn, void *arg)
{
	if (u == NULL)
		return;
	u->tlsa_want = fn;
	u->tlsa_arg = arg;
}

int upstream_authtls_dane(struct upstream_query *q)
{
	struct upstream *u = q->u;
	struct sockaddr_storage sa = q->t.addr;
	struct cfg_tls auth;
	size_t n;

	q->first = EXCHANGE_PLAIN; /* and no other format after */
	if (u->adot == NULL ||
	    (sa.ss_family != AF_INET && sa.ss_family != AF_INET6))
		return UPSTREAM_EINVAL;
	/* a named auth: its own connection, never the opportunistic one,
	 * and no plain retry when it fails (upstream.c) */
	memset(&auth, 0, sizeof auth);
	snprintf(auth.name, sizeof auth.name, "%.*s",
	         (int)sizeof auth.name - 1, q->t.dane_ns);
	n = strlen(auth.name); /* SNI: no final dot (RFC 6066 s3) */
	if (n > 1 && auth.name[n - 1] == '.')
		auth.name[n - 1] = '\0';
	if (auth.name[0] == '\0')
		auth.name[0] = '.';
	netaddr_set_port((struct sockaddr *)&sa, AUTHTLS_PORT);
	if (upstream_att_tls(q, u->adot, (const struct sockaddr *)&sa,
	                     &auth) != UPSTREAM_OK)
		return UPSTREAM_ESOCKET;
	u->st->upstream_authtls_dane++;
	u->st->upstream_tls_dane++; /* privacy: a subset of the tls count */
	upstream_authtls_tcp_times(q);
	return UPSTREAM_OK;
}

void upstream_authtls_dane_failed(struct upstream_query *q, int status)
{
	char addr[NETADDR_TEXT_MAX];

	if (!q->t.dane)
		return; /* not asked by DANE */
	q->u->st->upstream_authtls_dane_failed++;
	netaddr_text((const struct sockaddr *)&q->t.addr, addr, sizeof addr);
	log_warn_limited("authtls_dane_failed", "ns=%s server=%s error=%s",
	                 q->t.dane_ns, addr, dot_strerror(status));
}

void upstream_authtls_note(struct upstream_query *q, bool ok)
{
	struct upstream *u = q->u;
	struct sockaddr_storage sa = q->t.addr;

	if (ok) {
		authtls_ok(u->authtls, (const struct sockaddr *)&sa,
		           clock_ms());
		return;
	}
	authtls_failed(u, (const struct sockaddr *)&sa, clock_ms());
	u->st->upstream_authtls_plain++;
}

void upstream_authtls_timeout(struct upstream_query *q)
{
	size_t i;

	for (i = 0; i < q->natt; i++) {
		if (q->att[i] != NULL && q->att[i]->opp) {
			authtls_failed(q->u,
			               (const struct sockaddr *)&q->t.addr,
			               clock_ms());
			return;
		}
	}
}
