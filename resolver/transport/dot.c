/*
 * resolver/transport/dot.c - DNS over TLS to forwarders: one connection
 * per forwarder, pipelined queries, answers by ID (see dot.h).
 */
#include "dot.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "base/netaddr.h"
#include "conf/cfg.h"
#include "stats/fwdstate.h"
#include "stats/stats.h"
#include "validate/tlsa.h"
#include "wire/wire.h"
#include "tls.h"

/** Forwarders of one worker at most (every server of every zone). */
#define DOT_FWD_MAX (CFG_MAX_ZONES * CFG_ZONE_ADDRS)
/** Bytes of the length prefix. */
#define DOT_PFX 2
/** Times a query is sent again after its connection closed. */
#define DOT_RESEND_MAX 1
/** Bytes of the DNS header. */
#define DOT_HDR 12
/** Chains of a forwarder's ID table (a power of 2): answers and sends
 *  find a query by ID without walking every query open. */
#define DOT_ID_BUCKETS 64u

enum dot_state {
	DOT_IDLE = 0,   /**< no connection */
	DOT_CONNECTING, /**< TCP and handshake under way */
	DOT_UP,         /**< verified, queries flow */
	DOT_FAILING     /**< in back-off after a failure */
};

struct dot_fwd;

struct dot_query {
	struct dot_fwd *f;
	struct dot_query *prev, *next;
	struct dot_query *hnext; /**< the next of its ID chain */
	dot_cb cb;
	void *arg;
	uint16_t id;
	bool sent;   /**< written on the current connection */
	bool failed; /**< DOT_EFAIL was handed over */
	uint8_t resent;
	size_t len;    /**< of pkt, prefix included */
	uint8_t pkt[]; /**< length prefix and message */
};

struct dot_fwd {
	struct dot *d;
	struct sockaddr_storage sa;
	socklen_t salen;
	struct cfg_tls auth;
	struct tlsa_set dane; /**< n 0: none; else the TLSA records checked */
	struct tls_conn *conn;
	enum dot_state state;
	void *resume;        /**< TLS session for resumption */
	uint64_t resume_gen; /**< the load_gen of the connection it came on */
	uint64_t retry_at;
	uint32_t backoff_ms;
	bool logged; /**< the failure was logged */
	char why[TLS_WHY_BYTES];
	struct dot_query *head;
	struct dot_query **ids; /**< DOT_ID_BUCKETS chains by ID; only
	                             while queries are open */
	size_t nq;
	struct dot_frame rd; /**< the answers' framing (dot_frame.c) */
	uint32_t idle_ms;    /**< this connection's idle timeout (RFC 7828) */
	uint64_t serial;     /**< this connection's number, for the log */
	uv_timer_t timer;    /**< connect deadline, then idle timeout */
};

struct dot {
	uv_loop_t *loop;
	const struct cfg *cfg;
	struct stats *st;
	struct tls_ctx *ctx;
	uint64_t gen;    /**< cfg->load_gen of the last send */
	uint64_t serial; /**< connections made so far */
	struct dot_fwd *fwd[DOT_FWD_MAX];
	size_t nfwd;
	bool unauth;          /**< dot_new_unauth: authoritative servers */
	uv_prepare_t prepare; /**< takes a reload before the next poll */
};

/* The pin of a forwarder (for fwdstate), or NULL. */
static const uint8_t *fwd_pin(const struct dot_fwd *f)
{
	return f->auth.has_pin ? f->auth.pin : NULL;
}

/* The TLS context, made now (none yet, or a reload): unauthenticated,
 * or verifying against tls-cert-bundle. TLS_OK or the failure, d->ctx
 * kept then (NULL: the first connection tries again, and logs). */
static int dot_ctx_make(struct dot *d)
{
	struct tls_ctx *x = NULL;
	int rc = d->unauth ? tls_ctx_client_unauth(&x) :
	                     tls_ctx_client(&x, d->cfg->tls_cert_bundle);

	if (rc == TLS_OK) { /* connections hold the old one */
		tls_ctx_free(d->ctx);
		d->ctx = x;
	}
	return rc;
}

/* Wanted at start: a TLS forwarder, or auth-tls on. */
static bool dot_ctx_wanted(const struct dot *d)
{
	return d->unauth ? d->cfg->auth_tls != CFG_AUTH_TLS_NO :
	                   dot_cfg_tls(d->cfg);
}

static void dot_reloaded(struct dot *d);

/* Before each poll: a reload (the worker's cfg changed) is taken now,
 * off the path of the next query. */
static void dot_prepare_cb(uv_prepare_t *p)
{
	struct dot *d = p->data;

	if (d->cfg->load_gen != d->gen)
		dot_reloaded(d);
}

static int dot_make(struct dot **out, uv_loop_t *loop, const struct cfg *cfg,
                    struct stats *st, bool unauth)
{
	struct dot *d;

	if (out == NULL || loop == NULL || cfg == NULL || st == NULL)
		return DOT_EINVAL;
	if ((d = calloc(1, sizeof *d)) == NULL)
		return DOT_ENOMEM;
	d->loop = loop;
	d->cfg = cfg;
	d->gen = cfg->load_gen;
	d->st = st;
	d->unauth = unauth;
	if (dot_ctx_wanted(d))
		(void)dot_ctx_make(d); /* a failure: again at first use */
	(void)uv_prepare_init(loop, &d->prepare); /* cannot fail */
	d->prepare.data = d;
	(void)uv_prepare_start(&d->prepare, dot_prepare_cb);
	uv_unref((uv_handle_t *)&d->prepare); /* keeps no loop running */
	*out = d;
	return DOT_OK;
}

int dot_new(struct dot **out, uv_loop_t *loop, const struct cfg *cfg,
            struct stats *st)
{
	return dot_make(out, loop, cfg, st, false);
}

int dot_new_unauth(struct dot **out, uv_loop_t *loop, const struct cfg *cfg,
                   struct stats *st)
{
	return dot_make(out, loop, cfg, st, true);
}

static void dot_closed(uv_handle_t *h)
{
	free(h->data);
}

static void fwd_timer_closed(uv_handle_t *h)
{
	struct dot_fwd *f = h->data;

	dot_frame_free(&f->rd);
	free(f->ids);
	tls_resume_free(&f->resume);
	free(f);
}

void dot_free(struct dot *d)
{
	size_t i;

	if (d == NULL)
		return;
	for (i = 0; i < d->nfwd; i++) {
		struct dot_fwd *f = d->fwd[i];

		while (f->head != NULL)
			dot_cancel(f->head);
		if (f->state == DOT_UP)
			fwdstate_note((const struct sockaddr *)&f->sa,
			              f->auth.name, fwd_pin(f), FWDSTATE_DOWN,
			              NULL);
		tls_conn_close(f->conn);
		uv_close((uv_handle_t *)&f->timer, fwd_timer_closed);
	}
	tls_ctx_free(d->ctx);
	uv_close((uv_handle_t *)&d->prepare, dot_closed);
}

/* ---- queries and failures ---- */

static void fwd_text(const struct dot_fwd *f, char *out, size_t cap)
{
	netaddr_text_port((const struct sockaddr *)&f->sa, out, cap);
}

static void fwd_idle_check(struct dot_fwd *f);

/* The chain of an ID. */
static struct dot_query **ids_chain(const struct dot_fwd *f, uint16_t id)
{
	return &f->ids[id & (DOT_ID_BUCKETS - 1)];
}

/* Take a query out of its ID chain; the table goes with the last. */
static void ids_unlink(struct dot_fwd *f, struct dot_query *q)
{
	struct dot_query **p = ids_chain(f, q->id);

	while (*p != q)
		p = &(*p)->hnext;
	*p = q->hnext;
	if (f->nq == 1) {
		free(f->ids);
		f->ids = NULL;
	}
}

void dot_cancel(struct dot_query *q)
{
	struct dot_fwd *f;

	if (q == NULL)
		return;
	f = q->f;
	if (q->prev != NULL)
		q->prev->next = q->next;
	else
		f->head = q->next;
	if (q->next != NULL)
		q->next->prev = q->prev;
	ids_unlink(f, q);
	f->nq--;
	free(q);
	fwd_idle_check(f);
}

/* Hand DOT_EFAIL to the queries of the forwarder (all, or those sent
 * on the connection that closed); their callbacks may cancel any of
 * them: start again from the head each time. */
static void fwd_fail_queries(struct dot_fwd *f, bool sent_only)
{
	struct dot_query *q;

	for (;;) {
		for (q = f->head;
		     q != NULL && (q->failed || (sent_only && !q->sent));
		     q = q->next)
			;
		if (q == NULL)
			return;
		q->failed = true;
		q->cb(q->arg, DOT_EFAIL, NULL, 0);
	}
}

/* The connection could not be made or authenticated: back-off, log
 * once, count, and fail the queries (never plain DNS instead). */
static void fwd_failed(struct dot_fwd *f, const char *why)
{
	char addr[NETADDR_TEXT_MAX];

	tls_conn_close(f->conn);
	f->conn = NULL;
	f->rd.len = 0;
	f->state = DOT_FAILING;
	f->backoff_ms = f->backoff_ms == 0 ? DOT_BACKOFF_FIRST_MS :
	                f->backoff_ms >= DOT_BACKOFF_MAX_MS / 2 ?
	                                     DOT_BACKOFF_MAX_MS :
	                                     f->backoff_ms * 2;
	f->retry_at = clock_ms() + f->backoff_ms;
	snprintf(f->why, sizeof f->why, "%s", why);
	uv_timer_stop(&f->timer);
	if (f->d->unauth) { /* opportunistic: the owner counts and logs */
		fwd_fail_queries(f, false);
		return;
	}
	f->d->st->upstream_tls_failures++;
	fwdstate_note((const struct sockaddr *)&f->sa, f->auth.name,
	              fwd_pin(f), FWDSTATE_FAILED, why);
	if (!f->logged) {
		f->logged = true;
		fwd_text(f, addr, sizeof addr);
		log_warn("tls_failure", "server=%s auth_name=%s reason=%s",
		         addr, f->auth.name, why);
	}
	fwd_fail_queries(f, false);
}

static int fwd_connect(struct dot_fwd *f);

/* Close the connection that was up; the next query makes another. */
static void fwd_down(struct dot_fwd *f)
{
	uv_timer_stop(&f->timer);
	tls_conn_close(f->conn);
	f->conn = NULL;
	f->rd.len = 0;
	f->state = DOT_IDLE;
	fwdstate_note((const struct sockaddr *)&f->sa, f->auth.name,
	              fwd_pin(f), FWDSTATE_DOWN, NULL);
}

/* An established connection closed (server idle timeout, reset): the
 * open queries go again on a new one, once; the others fail. */
static void fwd_dropped(struct dot_fwd *f)
{
	struct dot_query *q;
	bool again = false;

	fwd_down(f);
	for (q = f->head; q != NULL; q = q->next) {
		if (q->failed || (q->sent && q->resent >= DOT_RESEND_MAX))
			continue;
		if (q->sent)
			q->resent++;
		q->sent = false;
		again = true;
	}
	fwd_fail_queries(f, true);
	if (again && f->state == DOT_IDLE)
		(void)fwd_connect(f);
}

/* ---- the connection ---- */

/* The debug log: which connection carried the query. */
static void query_log(const struct dot_fwd *f, const struct dot_query *q)
{
	char addr[NETADDR_TEXT_MAX], text[DOT_QNAME_TEXT];

	dot_qname_text(q->pkt + DOT_PFX, q->len - DOT_PFX, text, sizeof text);
	fwd_text(f, addr, sizeof addr);
	log_debug("tls_query", "server=%s conn=%llu id=%u qname=%s", addr,
	          (unsigned long long)f->serial, (unsigned)q->id, text);
}

/* Write a query on the connection that is up. */
static int fwd_write(struct dot_fwd *f, struct dot_query *q)
{
	int rc = tls_conn_write(f->conn, q->pkt, q->len);

	if (rc != TLS_OK)
		return rc == TLS_EFULL ? DOT_EFULL : DOT_EFAIL;
	q->sent = true;
	f->d->st->upstream_tls++;
	f->d->st->upstream_sends++;
	if (log_level() >= CFG_LOG_DEBUG)
		query_log(f, q);
	return DOT_OK;
}

/* Close a connection without queries; the next query makes another. */
static void fwd_idle_close(struct dot_fwd *f)
{
	char addr[NETADDR_TEXT_MAX];

	fwd_text(f, addr, sizeof addr);
	log_debug("tls_idle_close", "server=%s conn=%llu idle_ms=%u", addr,
	          (unsigned long long)f->serial, (unsigned)f->idle_ms);
	fwd_down(f);
}

/* The queries not failed that were written on the connection (sent)
 * or wait for one (!sent). */
static size_t fwd_count(const struct dot_fwd *f, bool sent)
{
	const struct dot_query *q;
	size_t n = 0;

	for (q = f->head; q != NULL; q = q->next)
		n += !q->failed && q->sent == sent;
	return n;
}

/* Whether the connection that is up has no query open on it: after a
 * TIMEOUT of 0 (RFC 7828), queries waiting for the next one aside. */
static bool fwd_done(const struct dot_fwd *f)
{
	return f->state == DOT_UP &&
	       (f->nq == 0 || (f->idle_ms == 0 && fwd_count(f, true) == 0));
}

static void fwd_timer_cb(uv_timer_t *t)
{
	struct dot_fwd *f = t->data;

	if (f->state == DOT_CONNECTING)
		fwd_failed(f, "connect or handshake timed out");
	else if (fwd_done(f)) {
		fwd_idle_close(f);
		if (fwd_count(f, false) > 0) /* they go on a new one */
			(void)fwd_connect(f);
	}
}

/* Without queries, the connection lasts its idle timeout: DOT_IDLE_MS,
 * or less when the server said so (0: close at once, from the loop). */
static void fwd_idle_check(struct dot_fwd *f)
{
	if (fwd_done(f))
		uv_timer_start(&f->timer, fwd_timer_cb, f->idle_ms, 0);
}

static void fwd_ready(void *arg)
{
	struct dot_fwd *f = arg;
	struct dot_query *q;
	char addr[NETADDR_TEXT_MAX];

	f->state = DOT_UP;
	f->backoff_ms = 0;
	f->idle_ms = DOT_IDLE_MS;
	f->why[0] = '\0';
	f->d->st->upstream_tls_handshakes++;
	fwdstate_note((const struct sockaddr *)&f->sa, f->auth.name,
	              fwd_pin(f), FWDSTATE_UP, NULL);
	if (tls_conn_resumed(f->conn))
		f->d->st->upstream_tls_resumed++;
	uv_timer_stop(&f->timer);
	fwd_text(f, addr, sizeof addr);
	log_debug("tls_up", "server=%s conn=%llu resumed=%s", addr,
	          (unsigned long long)f->serial,
	          tls_conn_resumed(f->conn) ? "yes" : "no");
	if (f->logged) {
		f->logged = false;
		log_info("tls_recovered", "server=%s auth_name=%s", addr,
		         f->auth.name);
	}
	for (q = f->head; q != NULL && f->state == DOT_UP; q = q->next)
		if (!q->sent && !q->failed && fwd_write(f, q) != DOT_OK)
			break;
	fwd_idle_check(f);
}

/* Hand an answer to the open query with its ID. */
static void fwd_answer(struct dot_fwd *f, uint8_t *msg, size_t len)
{
	struct dot_query *q;
	uint16_t id;

	if (len < DOT_HDR)
		return;
	id = (uint16_t)(msg[0] << 8 | msg[1]);
	for (q = f->ids != NULL ? *ids_chain(f, id) : NULL; q != NULL;
	     q = q->hnext)
		if (q->sent && !q->failed && q->id == id)
			break;
	if (q == NULL) {
		f->d->st->upstream_ignored++;
		return;
	}
	/* before the owner's checks (bounded, the option alone): a TIMEOUT
	 * of 0 must hold for a query the owner sends from its callback */
	f->idle_ms = dot_idle_of(msg, len, f->idle_ms);
	q->cb(q->arg, DOT_OK, msg, len);
}

static void fwd_data(void *arg, const uint8_t *buf, size_t len)
{
	struct dot_fwd *f = arg;
	struct tls_conn *c = f->conn;
	uint8_t *msg;
	size_t n;
	int rc = DOT_FRAME_MORE;

	/* an answer's callback may close the connection: stop then */
	while (len > 0 && f->conn == c) {
		rc = dot_frame_next(&f->rd, &buf, &len, &msg, &n);
		if (rc != DOT_FRAME_MSG)
			break;
		fwd_answer(f, msg, n);
	}
	if (rc != DOT_FRAME_MSG && rc != DOT_FRAME_MORE && f->conn == c) {
		fwd_dropped(f); /* a length of 0 (not DNS), or no memory */
		return;
	}
	/* between messages: a large buffer, or one no answer will use,
	 * is not kept while the connection idles */
	dot_frame_trim(&f->rd, f->nq == 0 ? 0 : DOT_FRAME_FIRST);
}

static void fwd_error(void *arg, int status, const char *why)
{
	struct dot_fwd *f = arg;
	char text[TLS_WHY_BYTES];

	if (f->state == DOT_UP) {
		fwd_dropped(f);
		return;
	}
	snprintf(text, sizeof text, "%s: %s", tls_strerror(status), why);
	fwd_failed(f, text);
}

static const struct tls_cbs fwd_cbs = { fwd_ready, fwd_data, fwd_error, NULL };

/* The first outgoing-interface of the family, or NULL. */
static const struct sockaddr *fwd_source(const struct cfg *cfg, int family)
{
	size_t i;

	for (i = 0; i < cfg->n_outgoing; i++)
		if (cfg->outgoing[i].sa.ss_family == family)
			return (const struct sockaddr *)&cfg->outgoing[i].sa;
	return NULL;
}

static int fwd_connect(struct dot_fwd *f)
{
	struct dot *d = f->d;
	struct tls_auth a = { f->auth.name,
		              f->auth.has_pin ? f->auth.pin : NULL, &f->resume,
		              f->dane.n > 0 ? &f->dane : NULL };
	char why[TLS_WHY_BYTES + CFG_MAX_PATH];

	if (d->ctx == NULL && d->unauth && dot_ctx_make(d) != TLS_OK) {
		fwd_failed(f, "no TLS context");
		return DOT_EFAILING;
	}
	if (d->ctx == NULL && dot_ctx_make(d) != TLS_OK) {
		snprintf(why, sizeof why, "CA bundle %s could not be loaded",
		         d->cfg->tls_cert_bundle);
		fwd_failed(f, why);
		return DOT_EFAILING;
	}
	if (tls_conn_new(&f->conn, d->ctx, d->loop, &fwd_cbs, f) != TLS_OK)
		return DOT_ENOMEM;
	f->serial = ++d->serial;
	/* a session (a ticket may come late) from before a reload is not
	 * resumed: resumption skips the chain check */
	if (f->resume_gen != d->gen)
		tls_resume_free(&f->resume);
	f->resume_gen = d->gen;
	f->state = DOT_CONNECTING;
	f->rd.len = 0;
	if (tls_conn_connect(f->conn, (const struct sockaddr *)&f->sa,
	                     fwd_source(d->cfg, f->sa.ss_family),
	                     &a) != TLS_OK) {
		fwd_failed(f, "TCP connect failed");
		return DOT_EFAILING;
	}
	uv_timer_start(&f->timer, fwd_timer_cb, DOT_CONNECT_MS, 0);
	return DOT_OK;
}

/* ---- a reload ---- */

/* After a reload (before the next poll, or at a send): the CA bundle is
 * read again now when a context was made or is wanted (a bundle that does
 * not load is logged with its file, and the old context kept; with none,
 * the first connection tries again); the unauthenticated context reads
 * no file and is kept; TLS sessions, resumed without a chain check, are not
 * resumed (fwd_connect); forwarders without a connection
 * or a query are dropped (a new server or pin gets a new one; back-offs start
 * again). Connections that are up keep their check. */
static void dot_reloaded(struct dot *d)
{
	size_t i, n = 0;
	int rc;

	d->gen = d->cfg->load_gen;
	if (d->unauth ? d->ctx == NULL && dot_ctx_wanted(d) :
	                d->ctx != NULL || dot_ctx_wanted(d)) {
		rc = dot_ctx_make(d);
		if (rc != TLS_OK && d->ctx != NULL)
			log_error("tls_bundle_failed",
			          "file=%s error=%s kept=old",
			          d->cfg->tls_cert_bundle, tls_strerror(rc));
	}
	for (i = 0; i < d->nfwd; i++) {
		struct dot_fwd *f = d->fwd[i];

		if (f->nq == 0 &&
		    (f->state == DOT_IDLE || f->state == DOT_FAILING))
			uv_close((uv_handle_t *)&f->timer, fwd_timer_closed);
		else
			d->fwd[n++] = f;
	}
	d->nfwd = n;
}

/* ---- sending ---- */

static struct dot_fwd *fwd_find(struct dot *d, const struct sockaddr *sa,
                                const struct cfg_tls *auth,
                                const struct tlsa_set *dane)
{
	struct dot_fwd *f;
	size_t i;

	for (i = 0; i < d->nfwd; i++) {
		f = d->fwd[i];
		if (dot_same_addr((const struct sockaddr *)&f->sa, sa) &&
		    memcmp(&f->auth, auth, sizeof *auth) == 0 &&
		    memcmp(&f->dane, dane, sizeof *dane) == 0)
			return f;
	}
	return NULL;
}

/* Every slot taken (authoritative servers): the first server without a
 * query, its connection closed if it was idle, serves sa from now on;
 * or none (NULL). */
static struct dot_fwd *fwd_reuse(struct dot *d, const struct sockaddr *sa,
                                 size_t len, const struct cfg_tls *auth,
                                 const struct tlsa_set *dane)
{
	struct dot_fwd *f;
	size_t i;

	for (i = 0; i < d->nfwd; i++) {
		f = d->fwd[i];
		if (f->nq != 0 || (f->conn != NULL && f->state != DOT_UP))
			continue;
		tls_conn_close(f->conn);
		f->conn = NULL;
		uv_timer_stop(&f->timer);
		tls_resume_free(&f->resume);
		memset(&f->sa, 0, sizeof f->sa);
		memcpy(&f->sa, sa, len);
		f->salen = (socklen_t)len;
		f->auth = *auth; /* never the last server's checks */
		f->dane = *dane;
		f->state = DOT_IDLE;
		f->backoff_ms = 0;
		f->rd.len = 0;
		return f;
	}
	return NULL;
}

static struct dot_fwd *fwd_get(struct dot *d, const struct sockaddr *sa,
                               const struct cfg_tls *auth,
                               const struct tlsa_set *dane)
{
	struct dot_fwd *f = fwd_find(d, sa, auth, dane);
	size_t len = sa->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) :
	                                         sizeof(struct sockaddr_in);

	if (f == NULL && d->nfwd >= DOT_FWD_MAX && d->unauth)
		return fwd_reuse(d, sa, len, auth, dane);
	if (f != NULL || d->nfwd >= DOT_FWD_MAX)
		return f;
	if ((f = calloc(1, sizeof *f)) == NULL)
		return NULL;
	if (uv_timer_init(d->loop, &f->timer) != 0) {
		free(f);
		return NULL;
	}
	f->timer.data = f;
	f->d = d;
	memcpy(&f->sa, sa, len);
	f->salen = (socklen_t)len;
	f->auth = *auth;
	f->dane = *dane;
	d->fwd[d->nfwd++] = f;
	return f;
}

/* The ID table, made with the first query open. */
static bool ids_ready(struct dot_fwd *f)
{
	if (f->ids == NULL)
		f->ids = calloc(DOT_ID_BUCKETS, sizeof *f->ids);
	return f->ids != NULL;
}

static bool id_open(const struct dot_fwd *f, uint16_t id)
{
	const struct dot_query *q;

	for (q = f->ids != NULL ? *ids_chain(f, id) : NULL; q != NULL;
	     q = q->hnext)
		if (q->id == id && !q->failed)
			return true;
	return false;
}

static struct dot_query *query_new(struct dot_fwd *f, const uint8_t *msg,
                                   size_t len, dot_cb cb, void *arg)
{
	size_t cap;
	struct dot_query *q =
		malloc(sizeof *q + DOT_PFX + len + DOT_QUERY_GROWTH);

	if (q == NULL)
		return NULL;
	memset(q, 0, sizeof *q);
	q->f = f;
	q->cb = cb;
	q->arg = arg;
	q->id = (uint16_t)(msg[0] << 8 | msg[1]);
	memcpy(q->pkt + DOT_PFX, msg, len);
	cap = len + DOT_QUERY_GROWTH;
	/* edns-tcp-keepalive (RFC 7828), then padding, always last */
	len = dot_opts_add(q->pkt + DOT_PFX, len, cap);
	q->pkt[0] = (uint8_t)(len >> 8);
	q->pkt[1] = (uint8_t)len;
	q->len = DOT_PFX + len;
	return q;
}

/* Link a query and start it on the connection (or its making). */
static int query_start(struct dot_fwd *f, struct dot_query *q)
{
	int rc = DOT_OK;

	if (f->state == DOT_FAILING)
		f->state = DOT_IDLE; /* back-off over: try again */
	/* the server asked for no more queries on this one (RFC 7828) */
	if (f->state == DOT_UP && f->idle_ms == 0 && f->nq == 0)
		fwd_idle_close(f);
	if (f->state == DOT_IDLE && (rc = fwd_connect(f)) != DOT_OK)
		return rc;
	/* after a TIMEOUT of 0 it waits for the next connection */
	if (f->state == DOT_UP && f->idle_ms != 0 &&
	    (rc = fwd_write(f, q)) != DOT_OK)
		return rc;
	if (!ids_ready(f)) /* (a failure's callbacks took the last) */
		return DOT_ENOMEM;
	q->next = f->head;
	if (f->head != NULL)
		f->head->prev = q;
	f->head = q;
	q->hnext = *ids_chain(f, q->id);
	*ids_chain(f, q->id) = q;
	f->nq++;
	if (f->state == DOT_UP && f->idle_ms != 0)
		uv_timer_stop(&f->timer);
	return DOT_OK;
}

int dot_send(struct dot *d, const struct sockaddr *sa,
             const struct cfg_tls *auth, const struct tlsa_set *dane,
             const uint8_t *msg, size_t len, dot_cb cb, void *arg,
             struct dot_query **out)
{
	static const struct tlsa_set none;

	struct dot_fwd *f;
	struct dot_query *q;
	int rc = DOT_OK;

	if (d == NULL || sa == NULL || auth == NULL || msg == NULL ||
	    len < DOT_HDR || len > DOT_FRAME_MAX - DOT_QUERY_GROWTH ||
	    cb == NULL || out == NULL)
		return DOT_EINVAL;
	if (d->cfg->load_gen != d->gen)
		dot_reloaded(d);
	if ((f = fwd_get(d, sa, auth, dane != NULL ? dane : &none)) == NULL)
		return DOT_ENOMEM;
	if (f->state == DOT_FAILING && clock_ms() < f->retry_at)
		return DOT_EFAILING;
	if (f->nq >= DOT_QUERIES_MAX)
		return DOT_EFULL;
	if (id_open(f, (uint16_t)(msg[0] << 8 | msg[1])))
		return DOT_EID;
	if (!ids_ready(f) || (q = query_new(f, msg, len, cb, arg)) == NULL)
		rc = DOT_ENOMEM;
	else if ((rc = query_start(f, q)) != DOT_OK)
		free(q);
	if (rc != DOT_OK) {
		if (f->nq == 0) { /* the table goes with the last query */
			free(f->ids);
			f->ids = NULL;
		}
		return rc;
	}
	*out = q;
	return DOT_OK;
}
