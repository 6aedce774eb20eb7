/*
 * resolver/transport/upstream.c - the life of an upstream query: sockets,
 * timers, the DNSCurve format order, TCP retries, and the callbacks to the
 * owner. Packets are built and checked in upstream_pkt.c.
 */
#include "upstream_int.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "base/clock.h"
#include "base/log.h"
#include "dot.h"
#include "stats/stats.h"

/** Messages taken from one TCP read (each consumes >= 2 bytes). */
#define UPSTREAM_TCP_MSGS_MAX 64
/** First size of a TCP read buffer; grown to the message's length. */
#define UPSTREAM_TCP_RBUF_FIRST 2048u
/** Timeout used when a target carries none. */
#define UPSTREAM_TIMEOUT_DEFAULT_MS 400u

static void q_timer_cb(uv_timer_t *tm);
static int att_send(struct upstream_query *q, enum exchange_mode mode);

int upstream_new(struct upstream **out, uv_loop_t *loop, const struct cfg *cfg,
                 struct curve_client *curve, struct stats *st,
                 size_t max_sockets)
{
	struct upstream *u;

	if (out == NULL || loop == NULL || cfg == NULL || st == NULL)
		return UPSTREAM_EINVAL;
	u = calloc(1, sizeof(*u));
	if (u == NULL)
		return UPSTREAM_ENOMEM;
	u->loop = loop;
	u->cfg = cfg;
	u->curve = curve;
	u->st = st;
	u->max_sockets = max_sockets ? max_sockets : UPSTREAM_SOCKETS_DEFAULT;
	if (dot_new(&u->dot, loop, cfg, st) != DOT_OK ||
	    upstream_authtls_new(u) != UPSTREAM_OK) {
		dot_free(u->dot);
		free(u);
		return UPSTREAM_ENOMEM;
	}
	randombytes_buf(u->fmt_key, sizeof u->fmt_key);
	*out = u;
	return UPSTREAM_OK;
}

void upstream_free(struct upstream *u)
{
	if (u == NULL)
		return;
	while (u->head != NULL)
		upstream_cancel(u->head);
	upstream_authtls_free(u);
	dot_free(u->dot);
	sodium_memzero(u->inner, sizeof u->inner);
	sodium_memzero(u->plain, sizeof u->plain);
	free(u);
}

size_t upstream_pending(const struct upstream *u)
{
	return u == NULL ? 0 : u->pending;
}

/* ------------------------------------------------------------------ */
/* Closing                                                             */

static void q_handle_closed(struct upstream_query *q)
{
	q->open--;
	if (q->cancelled && q->open == 0)
		free(q);
}

static void att_closed_cb(uv_handle_t *h)
{
	struct upstream_att *a = h->data;
	struct upstream_query *q = a->q;
	size_t i;

	for (i = 0; i < q->natt; i++)
		if (q->att[i] == a)
			q->att[i] = NULL;
	free(a->rbuf);
	free(a);
	q_handle_closed(q);
}

static void att_close(struct upstream_att *a)
{
	if (a == NULL || !a->open || a->closing)
		return;
	a->closing = true;
	a->q->u->sockets--;
	dot_cancel(a->dq);
	a->dq = NULL;
	/* TCP: close with a reset, leaving no TIME_WAIT behind (an RRL
	 * server pushes thousands of queries a minute to TCP: their
	 * TIME_WAITs would fill the port range towards it) */
	if (a->tcp && !a->tls &&
	    uv_tcp_close_reset(&a->h.tcp, att_closed_cb) == 0)
		return;
	uv_close(&a->h.handle, att_closed_cb);
}

static void timer_closed_cb(uv_handle_t *h)
{
	q_handle_closed(h->data);
}

/* Close every handle of a query; the query itself stays (see cancel). */
static void q_close_all(struct upstream_query *q)
{
	size_t i;

	for (i = 0; i < q->natt; i++)
		att_close(q->att[i]);
	if (q->timer_open) {
		q->timer_open = false;
		uv_close((uv_handle_t *)&q->timer, timer_closed_cb);
	}
}

void upstream_cancel(struct upstream_query *q)
{
	struct upstream *u;

	if (q == NULL || q->cancelled)
		return;
	u = q->u;
	q->cancelled = true;
	if (q->prev != NULL)
		q->prev->next = q->next;
	else
		u->head = q->next;
	if (q->next != NULL)
		q->next->prev = q->prev;
	u->pending--;
	q_close_all(q);
	if (q->open == 0)
		free(q);
}

/* ------------------------------------------------------------------ */
/* Reporting to the owner                                              */

static void q_report_as(struct upstream_query *q, enum iter_reply_kind kind,
                        const struct wire_msg *msg,
                        const struct upstream_att *a, bool hedge)
{
	struct iter_reply r;
	uint64_t now = clock_ms();

	memset(&r, 0, sizeof r);
	r.token = q->t.token;
	r.kind = kind;
	r.hedge = hedge;
	r.tcp = a != NULL && a->tcp;
	r.msg = msg;
	r.curve = a != NULL && a->s.mode != EXCHANGE_PLAIN;
	r.via = upstream_reply_via(a);
	r.rtt_ms = a != NULL && now > a->sent_ms ?
	                   (uint32_t)(now - a->sent_ms) :
	                   0;
	if (kind == ITER_REPLY_MSG && log_level() >= CFG_LOG_DEBUG) {
		char addr[64];

		log_debug("upstream_recv",
		          "server=%s rtt_ms=%u transport=%s "
		          "token=%u",
		          upstream_addr_text(&q->t.addr, addr, sizeof addr),
		          (unsigned)r.rtt_ms,
		          a->tls ? "tls" :
		          a->tcp ? "tcp" :
		                   "udp",
		          (unsigned)q->t.token);
	}
	if (kind != ITER_REPLY_TIMEOUT) {
		q->finished = true;
		q_close_all(q);
	}
	q->cb(q->arg, &r);
}

static void q_report(struct upstream_query *q, enum iter_reply_kind kind,
                     const struct wire_msg *msg, const struct upstream_att *a)
{
	q_report_as(q, kind, msg, a, false);
}

/* A socket failed (ICMP unreachable, refused, reset). */
static void att_error(struct upstream_att *a, int err)
{
	struct upstream_query *q = a->q;
	char addr[64];

	log_debug("upstream_error", "server=%s error=%s transport=%s",
	          upstream_addr_text(&q->t.addr, addr, sizeof addr),
	          uv_err_name(err),
	          a->tls ? "tls" :
	          a->tcp ? "tcp" :
	                   "udp");
	att_close(a);
	if (q->reported_timeout || q->finished)
		return;
	q->u->st->upstream_unreachable++;
	q_report(q, ITER_REPLY_UNREACHABLE, NULL, a);
}

/* ------------------------------------------------------------------ */
/* Sockets                                                             */

/* A configured source address of the family, chosen at random. */
static const struct sockaddr *outgoing(const struct upstream *u, int family)
{
	const struct cfg *c = u->cfg;
	size_t i, n = 0, pick;

	for (i = 0; i < c->n_outgoing; i++)
		if (c->outgoing[i].sa.ss_family == family)
			n++;
	if (n == 0)
		return NULL;
	pick = randombytes_uniform((uint32_t)n);
	for (i = 0; i < c->n_outgoing; i++) {
		if (c->outgoing[i].sa.ss_family != family)
			continue;
		if (pick-- == 0)
			return (const struct sockaddr *)&c->outgoing[i].sa;
	}
	return NULL;
}

static struct upstream_att *att_new(struct upstream_query *q,
                                    const struct exchange_sent *s,
                                    const uint8_t *pkt, bool tcp)
{
	struct upstream *u = q->u;
	struct upstream_att *a;

	if (q->natt >= UPSTREAM_ATTEMPTS_MAX || u->sockets >= u->max_sockets)
		return NULL;
	a = calloc(1, sizeof(*a) + s->pktlen);
	if (a == NULL)
		return NULL;
	a->q = q;
	a->s = *s;
	a->tcp = tcp;
	memcpy(a->pkt, pkt, s->pktlen);
	return a;
}

/* Account for an attempt whose handle was initialised. */
static void att_opened(struct upstream_att *a)
{
	struct upstream_query *q = a->q;

	a->h.handle.data = a;
	a->open = true;
	q->open++;
	q->u->sockets++;
	q->att[q->natt++] = a;
}

static void att_sent(struct upstream_att *a)
{
	struct stats *st = a->q->u->st;

	a->sent_ms = clock_ms();
	st->upstream_sends++;
	if (a->tcp)
		st->upstream_tcp++;
	else
		st->upstream_udp++;
	if (a->s.mode == EXCHANGE_PLAIN)
		stats_plain_sent(st, (const struct sockaddr *)&a->q->t.addr,
		                 a->q->t.zone, a->q->t.zonelen);
	else {
		st->curve_queries++;
		if (a->s.mode == EXCHANGE_TXT)
			st->curve_txt++;
		else
			st->curve_streamlined++;
	}
	upstream_log_send(a->q, a);
}

static void att_packet(struct upstream_att *a, uint8_t *pkt, size_t len);

static void udp_alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
	struct upstream_att *a = h->data;

	(void)hint;
	buf->base = (char *)a->q->u->rbuf;
	buf->len = sizeof a->q->u->rbuf;
}

static void udp_recv_cb(uv_udp_t *h, ssize_t n, const uv_buf_t *buf,
                        const struct sockaddr *addr, unsigned flags)
{
	struct upstream_att *a = h->data;
	struct upstream_query *q = a->q;

	if (a->closing || q->cancelled || q->finished)
		return;
	if (n == 0 && addr == NULL)
		return;
	if (n < 0) {
		att_error(a, (int)n);
		return;
	}
	if (flags & UV_UDP_PARTIAL) {
		q->u->st->upstream_ignored++;
		q->u->st->unwanted_replies++;
		return;
	}
	att_packet(a, (uint8_t *)buf->base, (size_t)n);
}

static int att_udp_start(struct upstream_att *a)
{
	struct upstream_query *q = a->q;
	const struct sockaddr *src;
	uv_buf_t b;
	int rc;

	if (uv_udp_init(q->u->loop, &a->h.udp) != 0) {
		free(a);
		return UPSTREAM_ESOCKET;
	}
	att_opened(a);
	src = outgoing(q->u, q->t.addr.ss_family);
	rc = src != NULL ? uv_udp_bind(&a->h.udp, src, 0) : 0;
	if (rc == 0)
		rc = uv_udp_connect(&a->h.udp,
		                    (const struct sockaddr *)&q->t.addr);
	if (rc == 0)
		rc = uv_udp_recv_start(&a->h.udp, udp_alloc_cb, udp_recv_cb);
	if (rc == 0) {
		b = uv_buf_init((char *)a->pkt, (unsigned)a->s.pktlen);
		rc = uv_udp_try_send(&a->h.udp, &b, 1, NULL);
		rc = rc == (int)a->s.pktlen ? 0 : (rc < 0 ? rc : UV_EIO);
	}
	if (rc != 0) {
		log_debug("upstream_socket", "error=%s", uv_err_name(rc));
		q->u->st->upstream_errors++;
		att_close(a);
		return UPSTREAM_ESOCKET;
	}
	att_sent(a);
	return UPSTREAM_OK;
}

/* ------------------------------------------------------------------ */
/* TCP retries                                                         */

static void tcp_alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
	struct upstream_att *a = h->data;

	size_t want = UPSTREAM_TCP_RBUF_FIRST;
	uint8_t *p;

	(void)hint;
	buf->base = NULL;
	buf->len = 0;
	/* as large as the message whose length prefix is in: a TCP
	 * fallback holds what it reads, not 64 KB each (overload) */
	if (a->rlen >= 2 && 2 + ((size_t)a->rbuf[0] << 8 | a->rbuf[1]) > want)
		want = 2 + ((size_t)a->rbuf[0] << 8 | a->rbuf[1]);
	if (a->rcap < want) {
		if ((p = realloc(a->rbuf, want)) == NULL)
			return;
		a->rbuf = p;
		a->rcap = want;
	}
	if (a->rlen >= a->rcap)
		return;
	buf->base = (char *)a->rbuf + a->rlen;
	buf->len = a->rcap - a->rlen;
}

/* Take the complete messages out of the read buffer. */
static void tcp_messages(struct upstream_att *a)
{
	size_t need, k;

	for (k = 0; k < UPSTREAM_TCP_MSGS_MAX && a->rlen >= 2; k++) {
		need = (size_t)a->rbuf[0] << 8 | a->rbuf[1];
		if (a->rlen < 2 + need)
			return;
		att_packet(a, a->rbuf + 2, need);
		if (a->closing || a->q->finished || a->q->cancelled)
			return;
		memmove(a->rbuf, a->rbuf + 2 + need, a->rlen - 2 - need);
		a->rlen -= 2 + need;
	}
}

static void tcp_read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	struct upstream_att *a = s->data;

	(void)buf;
	if (a->closing || a->q->cancelled || a->q->finished)
		return;
	if (n < 0) {
		att_error(a, n == UV_EOF ? UV_ECONNRESET : (int)n);
		return;
	}
	a->rlen += (size_t)n;
	tcp_messages(a);
}

static void tcp_written_cb(uv_write_t *req, int status)
{
	struct upstream_att *a = req->data;

	if (status < 0 && status != UV_ECANCELED && !a->closing &&
	    !a->q->cancelled && !a->q->finished)
		att_error(a, status);
}

static void tcp_connected_cb(uv_connect_t *req, int status)
{
	struct upstream_att *a = req->data;
	uv_buf_t b[2];
	int rc;

	if (status == UV_ECANCELED || a->closing || a->q->cancelled ||
	    a->q->finished)
		return;
	if (status < 0) {
		att_error(a, status);
		return;
	}
	a->lenpfx[0] = (uint8_t)(a->s.pktlen >> 8);
	a->lenpfx[1] = (uint8_t)a->s.pktlen;
	b[0] = uv_buf_init((char *)a->lenpfx, 2);
	b[1] = uv_buf_init((char *)a->pkt, (unsigned)a->s.pktlen);
	a->wr.data = a;
	rc = uv_write(&a->wr, (uv_stream_t *)&a->h.tcp, b, 2, tcp_written_cb);
	if (rc == 0)
		rc = uv_read_start((uv_stream_t *)&a->h.tcp, tcp_alloc_cb,
		                   tcp_read_cb);
	if (rc != 0) {
		att_error(a, rc);
		return;
	}
	att_sent(a);
}

static int att_tcp_start(struct upstream_att *a)
{
	struct upstream_query *q = a->q;
	const struct sockaddr *src;
	int rc;

	if (uv_tcp_init(q->u->loop, &a->h.tcp) != 0) {
		free(a);
		return UPSTREAM_ESOCKET;
	}
	att_opened(a);
	src = outgoing(q->u, q->t.addr.ss_family);
	rc = src != NULL ? uv_tcp_bind(&a->h.tcp, src, 0) : 0;
	a->conn.data = a;
	if (rc == 0)
		rc = uv_tcp_connect(&a->conn, &a->h.tcp,
		                    (const struct sockaddr *)&q->t.addr,
		                    tcp_connected_cb);
	if (rc != 0) {
		q->u->st->upstream_errors++;
		att_close(a);
		return UPSTREAM_ESOCKET;
	}
	return UPSTREAM_OK;
}

/* Time allowed for a TCP query. */
static uint64_t upstream_tcp_ms(const struct upstream_query *q)
{
	uint64_t ms = (uint64_t)q->t.timeout_ms * UPSTREAM_TCP_TIMEOUT_FACTOR;

	return ms < UPSTREAM_TCP_TIMEOUT_MIN_MS ? UPSTREAM_TCP_TIMEOUT_MIN_MS :
	                                          ms;
}

/* Ask again over TCP, in the same mode (a new ID, nonce, 0x20). */
static int q_tcp_retry(struct upstream_query *q, enum exchange_mode mode)
{
	struct upstream *u = q->u;
	struct exchange_sent s;
	struct upstream_att *a;
	uint64_t ms;

	q->tried_tcp = true;
	if (upstream_pkt_build(u, &q->t, mode, !q->nocase, &s) != UPSTREAM_OK)
		return UPSTREAM_EBUILD;
	a = att_new(q, &s, u->sbuf, true);
	if (a == NULL)
		return UPSTREAM_ELIMIT;
	if (att_tcp_start(a) != UPSTREAM_OK)
		return UPSTREAM_ESOCKET;
	ms = upstream_tcp_ms(q);
	q->stage = UPSTREAM_STAGE_TCP;
	q->rest_ms = 0; /* a truncated answer: alive, no hedge */
	uv_timer_start(&q->timer, q_timer_cb, ms, 0);
	return UPSTREAM_OK;
}

/* ------------------------------------------------------------------ */
/* Answers                                                             */

/* A plain reply that lost the 0x20 case: unused; the query is sent
 * once more in lowercase (fresh ID and port), at once. */
static void att_case_lost(struct upstream_att *a)
{
	struct upstream_query *q = a->q;
	struct upstream *u = q->u;
	char addr[64];

	u->st->upstream_case_lost++;
	u->st->unwanted_replies++;
	if (q->nocase || a->tcp)
		return;
	q->nocase = true;
	log_debug("upstream_case_lost", "server=%s token=%u note=%s",
	          upstream_addr_text(&q->t.addr, addr, sizeof addr),
	          (unsigned)q->t.token,
	          "0x20 case not echoed: asking again in lowercase");
	if (att_send(q, EXCHANGE_PLAIN) != UPSTREAM_OK)
		u->st->upstream_errors++;
}

static void att_packet(struct upstream_att *a, uint8_t *pkt, size_t len)
{
	struct upstream_query *q = a->q;
	struct upstream *u = q->u;
	struct wire_msg msg;
	bool curve = a->s.mode != EXCHANGE_PLAIN;

	switch (upstream_pkt_check(u, &q->t, a, pkt, len, &msg)) {
	case UPSTREAM_V_IGNORE:
		u->st->upstream_ignored++;
		u->st->unwanted_replies++;
		return;
	case UPSTREAM_V_BADCURVE:
		u->st->curve_responses_bad++;
		u->st->unwanted_replies++;
		log_debug("curve_bad_response", "token=%u bytes=%zu",
		          (unsigned)q->t.token, len);
		return;
	case UPSTREAM_V_FORMERR:
		u->st->upstream_formerr_edns++;
		q_report(q, ITER_REPLY_FORMERR_EDNS, NULL, a);
		return;
	case UPSTREAM_V_CASE: att_case_lost(a); return;
	case UPSTREAM_V_ANSWER: break;
	}
	if (curve) {
		u->st->curve_responses_ok++;
		upstream_fmt_set(u, &q->t, a->s.mode);
	}
	if ((msg.hdr.flags & WIRE_FLAG_TC) && !a->tcp && !q->tried_tcp) {
		u->st->upstream_truncated++;
		if (q_tcp_retry(q, a->s.mode) == UPSTREAM_OK) {
			att_close(a);
			return;
		}
	}
	u->st->upstream_replies++;
	q_report(q, ITER_REPLY_MSG, &msg, a);
}

/* ------------------------------------------------------------------ */
/* Timeouts and the order of attempts                                  */

/* After a timeout: the other DNSCurve format, then plain if allowed. */
static bool q_next_attempt(struct upstream_query *q)
{
	if (q->first == EXCHANGE_PLAIN)
		return false;
	if (!q->tried_second) {
		q->tried_second = true;
		if (q->has_second && att_send(q, q->second) == UPSTREAM_OK) {
			if (q->second == EXCHANGE_TXT)
				q->u->st->curve_fallback_txt++;
			return true;
		}
	}
	if (!q->tried_plain && q->u->cfg->curve_plain_fallback) {
		q->tried_plain = true;
		q->u->st->curve_plain_fallback++;
		if (att_send(q, EXCHANGE_PLAIN) == UPSTREAM_OK)
			return true;
	}
	return false;
}

static void q_timer_cb(uv_timer_t *tm)
{
	struct upstream_query *q = tm->data;

	if (q->cancelled || q->finished)
		return;
	if (q->stage == UPSTREAM_STAGE_LINGER) {
		q_close_all(q);
		return;
	}
	if (q->rest_ms != 0 && !q->hedged) {
		/* the early deadline: the owner asks another server too;
		 * this query waits on until its real timeout */
		q->hedged = true;
		q->u->st->upstream_hedges++;
		uv_timer_start(tm, q_timer_cb, q->rest_ms, 0);
		q_report_as(q, ITER_REPLY_TIMEOUT, NULL, NULL, true);
		return;
	}
	if (q->stage == UPSTREAM_STAGE_UDP && q_next_attempt(q)) {
		uv_timer_start(tm, q_timer_cb, q->t.timeout_ms, 0);
	} else {
		q->stage = UPSTREAM_STAGE_LINGER;
		uv_timer_start(tm, q_timer_cb, UPSTREAM_LINGER_MS, 0);
	}
	if (!q->reported_timeout) {
		q->reported_timeout = true;
		upstream_authtls_timeout(q);
		q->u->st->upstream_timeouts++;
		q_report(q, ITER_REPLY_TIMEOUT, NULL, NULL);
	}
}

/* Build and send one UDP attempt in a mode. */
static int att_send(struct upstream_query *q, enum exchange_mode mode)
{
	struct upstream *u = q->u;
	struct exchange_sent s;
	struct upstream_att *a;

	if (upstream_pkt_build(u, &q->t, mode, !q->nocase, &s) != UPSTREAM_OK)
		return UPSTREAM_EBUILD;
	a = att_new(q, &s, u->sbuf, false);
	if (a == NULL) {
		u->st->upstream_errors++;
		return UPSTREAM_ELIMIT;
	}
	return att_udp_start(a);
}

/* ------------------------------------------------------------------ */
/* DNS over TLS to forwarders (dot.h)                                 */

static void tls_reply_cb(void *arg, int status, uint8_t *msg, size_t len)
{
	struct upstream_att *a = arg;
	struct upstream_query *q = a->q;

	if (a->closing || q->cancelled || q->finished)
		return;
	if (a->opp) /* an authoritative server (RFC 9539): its state */
		upstream_authtls_note(q, status == DOT_OK);
	if (status == DOT_OK) {
		att_packet(a, msg, len);
		return;
	}
	/* a forwarder: never plain DNS; an authoritative server: plain */
	upstream_authtls_dane_failed(q, status); /* when asked by DANE */
	att_close(a);
	if (!a->opp || att_send(q, EXCHANGE_PLAIN) != UPSTREAM_OK)
		att_error(a, UV_ECONNREFUSED);
}

int upstream_att_tls(struct upstream_query *q, struct dot *d,
                     const struct sockaddr *sa, const struct cfg_tls *auth)
{
	struct upstream *u = q->u;
	struct exchange_sent s;
	struct upstream_att *a;
	int rc = DOT_EID, i;

	for (i = 0; i < UPSTREAM_ATTEMPTS_MAX && rc == DOT_EID; i++) {
		/* no 0x20 case mixing: TLS already keeps forgers out */
		if (upstream_pkt_build(u, &q->t, EXCHANGE_PLAIN, false, &s) !=
		    UPSTREAM_OK)
			return UPSTREAM_EBUILD;
		if ((a = att_new(q, &s, u->sbuf, true)) == NULL)
			return UPSTREAM_ELIMIT;
		a->tls = true;
		a->opp = auth->name[0] == '\0';
		rc = dot_send(d, sa, auth, q->t.dane ? &q->t.dane_set : NULL,
		              a->pkt, s.pktlen, tls_reply_cb, a, &a->dq);
		if (rc != DOT_OK || uv_timer_init(u->loop, &a->h.timer) != 0) {
			dot_cancel(rc == DOT_OK ? a->dq : NULL);
			free(a);
			continue;
		}
		att_opened(a);
		a->sent_ms = clock_ms();
		upstream_log_send(q, a);
		return UPSTREAM_OK;
	}
	return UPSTREAM_ESOCKET;
}

/* Start the timer of a new query: the hedge first when there is one. */
static void q_timer_first(struct upstream_query *q, uint64_t full_ms)
{
	uint64_t h = q->t.hedge_ms;

	if (h != 0 && h < full_ms) {
		q->rest_ms = full_ms - h;
		uv_timer_start(&q->timer, q_timer_cb, h, 0);
	} else
		uv_timer_start(&q->timer, q_timer_cb, full_ms, 0);
}

/* A query asked over TCP from the start (a retry after a UDP drop). */
static int q_send_tcp(struct upstream_query *q, struct upstream_query **out)
{
	int rc = q_tcp_retry(q, q->first);

	if (rc != UPSTREAM_OK) {
		upstream_cancel(q);
		return rc;
	}
	uv_timer_stop(&q->timer);
	q_timer_first(q, upstream_tcp_ms(q));
	*out = q;
	return UPSTREAM_OK;
}

int upstream_send(struct upstream *u, const struct iter_target *t,
                  uint64_t mono_ms, upstream_cb cb, void *arg,
                  struct upstream_query **out)
{
	struct upstream_query *q;
	const struct cfg_tls *auth;
	int rc;

	(void)mono_ms;
	if (u == NULL || t == NULL || cb == NULL || out == NULL)
		return UPSTREAM_EINVAL;
	q = calloc(1, sizeof(*q));
	if (q == NULL || uv_timer_init(u->loop, &q->timer) != 0) {
		free(q);
		return UPSTREAM_ENOMEM;
	}
	q->u = u;
	q->cb = cb;
	q->arg = arg;
	q->t = *t;
	if (q->t.timeout_ms == 0)
		q->t.timeout_ms = UPSTREAM_TIMEOUT_DEFAULT_MS;
	q->timer.data = q;
	q->timer_open = true;
	q->open = 1;
	q->next = u->head;
	if (u->head != NULL)
		u->head->prev = q;
	u->head = q;
	u->pending++;
	q->first = EXCHANGE_PLAIN;
	if (t->curve && u->cfg->curve && u->curve != NULL)
		q->first = upstream_fmt_first(u, t, &q->second,
		                              &q->has_second);
	auth = dot_auth_of(u->cfg, (const struct sockaddr *)&t->addr, t->zone,
	                   t->zonelen);
	if (auth != NULL) {
		q->first = EXCHANGE_PLAIN; /* and no other format after */
		rc = upstream_att_tls(q, u->dot,
		                      (const struct sockaddr *)&t->addr, auth);
	} else if (t->dane) { /* DANE: TLS checked by its TLSA, or nothing */
		rc = upstream_authtls_dane(q);
	} else if (upstream_authtls_try(q) == UPSTREAM_OK) {
		rc = UPSTREAM_OK; /* over TLS (RFC 9539) */
	} else if (t->tcp)
		return q_send_tcp(q, out);
	else
		rc = att_send(q, q->first);
	if (rc != UPSTREAM_OK && q->first != EXCHANGE_PLAIN && q->has_second) {
		q->tried_second = true;
		rc = att_send(q, q->second);
	}
	if (rc != UPSTREAM_OK) {
		upstream_cancel(q);
		return rc;
	}
	q_timer_first(q, q->t.timeout_ms);
	*out = q;
	return UPSTREAM_OK;
}
