/*
 * resolver/front/server_tcp.c - TCP client connections (RFC 7766): 2-byte
 * length framing, pipelining with answers in completion order, an idle
 * timeout, a cap on connections (fixed slots, allocated with the worker)
 * and on queries in progress per connection. A DNS-over-TLS connection
 * (c->tls: server_tls.c) is one of these slots whose bytes go through its
 * TLS session instead of c->h. The frames of both are read by
 * wire/frame.h, as DoT answers are (transport/dot_frame.c).
 */
#include "server_int.h"

#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/log.h"
#include "proxy.h"
#include "front_tls/server_tls.h"
#include "wire/frame.h"

/** Backlog of each TCP listener. */
#define SERVER_TCP_BACKLOG 128
/** Frames taken from one connection's buffer in one go. */
#define SERVER_TCP_BATCH_MAX (SERVER_TCP_QUERY_MAX / 2)

/** An answer the kernel did not take at once, queued on the stream. */
struct server_wreq {
	uv_write_t req;
	struct server_conn *c;
	size_t len;
	uint8_t data[];
};

static void conn_process(struct server_conn *c);

/* A slot is free: accept the connections left waiting for one. */
static void tcp_resume(struct server *s)
{
	size_t i;

	for (i = 0; i < s->ntcpl && !s->stopping; i++) {
		struct server_tcpl *l = &s->tcpl[i];

		if (l->open && l->waiting) {
			l->waiting = false;
			l->cb((uv_stream_t *)&l->h, 0);
		}
	}
}

void server_tcp_unref(struct server_conn *c)
{
	if (--c->handles == 0) {
		c->used = false;
		c->s->st.tcp_freed++;
		tcp_resume(c->s);
	}
}

static void conn_closed_cb(uv_handle_t *h)
{
	server_tcp_unref(h->data);
}

static void conn_close(struct server_conn *c)
{
	if (!c->used || c->closing)
		return;
	c->closing = true;
	if (c->tls != NULL)
		server_tls_close(c);
	uv_close((uv_handle_t *)&c->h, conn_closed_cb);
	uv_close((uv_handle_t *)&c->idle, conn_closed_cb);
}

/* Close once the client is gone and nothing is owed to it any more. */
static void conn_maybe_close(struct server_conn *c)
{
	if (c->eof && c->pending == 0 && c->writes == 0)
		conn_close(c);
}

static void conn_idle_cb(uv_timer_t *t);

static void conn_idle_restart(struct server_conn *c)
{
	if (!c->closing && !c->kick)
		uv_timer_start(&c->idle, conn_idle_cb, SERVER_TCP_IDLE_MS, 0);
}

/* Process buffered frames soon, from the loop (never re-entrantly). */
static void conn_kick(struct server_conn *c)
{
	if (c->closing || c->kick)
		return;
	c->kick = true;
	uv_timer_start(&c->idle, conn_idle_cb, 0, 0);
}

static void conn_idle_cb(uv_timer_t *t)
{
	struct server_conn *c = t->data;

	if (c->closing)
		return;
	if (c->kick) {
		c->kick = false;
		conn_process(c);
		conn_idle_restart(c);
		return;
	}
	if (c->pending > 0 || c->writes > 0) {
		conn_idle_restart(c);
		return;
	}
	c->s->st.tcp_idle_closed++;
	conn_close(c);
}

/* ------------------------------------------------------------------ */
/* Writing answers                                                     */

static void conn_written_cb(uv_write_t *req, int status)
{
	struct server_wreq *wr = (struct server_wreq *)req;
	struct server_conn *c = wr->c;

	c->writes--;
	c->queued -= wr->len;
	free(wr);
	if (status < 0)
		conn_close(c);
	else
		conn_maybe_close(c);
}

/* Queue what uv_try_write did not take (prefix + message from off). */
static void conn_queue(struct server_conn *c, const uint8_t pfx[2],
                       const uint8_t *msg, size_t len, size_t off)
{
	size_t rest = 2 + len - off;
	struct server_wreq *wr;
	uv_buf_t b;
	uv_stream_t *st;

	if (c->queued + rest > SERVER_TCP_QUEUE_MAX ||
	    (wr = malloc(sizeof(*wr) + rest)) == NULL) {
		conn_close(c);
		return;
	}
	wr->c = c;
	wr->len = rest;
	if (off < 2) {
		memcpy(wr->data, pfx + off, 2 - off);
		memcpy(wr->data + 2 - off, msg, len);
	} else {
		memcpy(wr->data, msg + off - 2, rest);
	}
	b = uv_buf_init((char *)wr->data, (unsigned)rest);
	st = (uv_stream_t *)&c->h;
	if (uv_write(&wr->req, st, &b, 1, conn_written_cb) != 0) {
		free(wr);
		conn_close(c);
		return;
	}
	c->writes++;
	c->queued += rest;
}

static void conn_write(struct server_conn *c, const uint8_t *msg, size_t len)
{
	uint8_t pfx[2] = { (uint8_t)(len >> 8), (uint8_t)len };
	uv_buf_t b[2];
	int n;

	if (c->tls != NULL) {
		server_tls_write(c, msg, len);
		return;
	}
	b[0] = uv_buf_init((char *)pfx, 2);
	b[1] = uv_buf_init((char *)msg, (unsigned)len);
	n = uv_try_write((uv_stream_t *)&c->h, b, 2);
	if (n == (int)(len + 2))
		return;
	if (n < 0 && n != UV_EAGAIN) {
		c->s->st.send_errors++;
		conn_close(c);
		return;
	}
	conn_queue(c, pfx, msg, len, n < 0 ? 0 : (size_t)n);
}

/* ------------------------------------------------------------------ */
/* edns-tcp-keepalive (RFC 7828)                                       */

/* Walk a message to its last record (rr); false unless the walk ends
 * exactly at len. */
static bool ka_last(const uint8_t *msg, size_t len, struct wire_rr *rr)
{
	struct wire_header h = { 0 };
	struct wire_question q;
	size_t pos = 0, left;
	bool ok;

	/* DNS messages carry at most one question (wire_msg_parse too) */
	ok = wire_read_header(msg, len, &pos, &h) == WIRE_OK &&
	     h.arcount > 0 && h.qdcount <= 1;
	if (ok && h.qdcount == 1)
		ok = wire_read_question(msg, len, &pos, &q) == WIRE_OK;
	left = (size_t)h.ancount + h.nscount + h.arcount;
	while (ok && left-- > 0)
		ok = wire_read_rr(msg, len, &pos, rr) == WIRE_OK;
	return ok && pos == len;
}

/* Is option code in the OPT RDATA (p, n)? */
static bool ka_has(const uint8_t *p, size_t n, unsigned code)
{
	size_t i = 0;

	while (i + WIRE_OPT_HDR <= n) {
		if (((unsigned)p[i] << 8 | p[i + 1]) == code)
			return true;
		i += WIRE_OPT_HDR + ((size_t)p[i + 2] << 8 | p[i + 3]);
	}
	return false;
}

bool server_keepalive_asked(const uint8_t *q, size_t len)
{
	struct wire_rr rr;

	/* a query's OPT is its only additional record: the last one */
	return ka_last(q, len, &rr) && rr.type == WIRE_TYPE_OPT &&
	       q[rr.owner] == 0 &&
	       ka_has(q + rr.rdata, rr.rdlen, SERVER_OPT_KEEPALIVE);
}

size_t server_keepalive_add(uint8_t *msg, size_t len, size_t cap)
{
	const size_t add = WIRE_OPT_HDR + 2;
	struct wire_rr rr;
	size_t rdlen;

	if (!ka_last(msg, len, &rr) || rr.type != WIRE_TYPE_OPT ||
	    msg[rr.owner] != 0 ||
	    ka_has(msg + rr.rdata, rr.rdlen, SERVER_OPT_KEEPALIVE))
		return len;
	rdlen = (size_t)rr.rdlen + add;
	if (len + add > cap || len + add > WIRE_MSG_MAX || rdlen > UINT16_MAX)
		return len;
	msg[len] = 0;
	msg[len + 1] = SERVER_OPT_KEEPALIVE;
	msg[len + 2] = 0;
	msg[len + 3] = 2;
	msg[len + 4] = (uint8_t)(SERVER_KEEPALIVE_UNITS >> 8);
	msg[len + 5] = (uint8_t)SERVER_KEEPALIVE_UNITS;
	msg[rr.rdata - 2] = (uint8_t)(rdlen >> 8);
	msg[rr.rdata - 1] = (uint8_t)rdlen;
	return len + add;
}

/* Write an answer, with edns-tcp-keepalive when the query asked. */
static void conn_answer(struct server_conn *c, const uint8_t *msg, size_t len,
                        bool keepalive)
{
	uint8_t *copy;

	if (!keepalive || (copy = malloc(len + WIRE_OPT_HDR + 2)) == NULL) {
		conn_write(c, msg, len);
		return;
	}
	memcpy(copy, msg, len);
	len = server_keepalive_add(copy, len, len + WIRE_OPT_HDR + 2);
	conn_write(c, copy, len);
	free(copy);
}

void server_tcp_send(struct server *s, const struct inflight_dest *d,
                     const uint8_t *msg, size_t len, bool waited)
{
	struct server_conn *c;

	if (d->slot >= s->nconns || len > WIRE_MSG_MAX)
		return;
	c = &s->conns[d->slot];
	if (!c->used || c->closing || c->serial != d->serial)
		return;
	if (waited && c->pending > 0)
		c->pending--;
	conn_answer(c, msg, len, d->keepalive);
	if (c->closing)
		return;
	c->last_ms = clock_ms();
	if (c->paused && c->pending < SERVER_TCP_PENDING_MAX)
		conn_kick(c);
	conn_maybe_close(c);
}

/* ------------------------------------------------------------------ */
/* Reading queries                                                     */

static void conn_alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *b)
{
	struct server_conn *c = h->data;

	(void)hint;
	b->base = (char *)c->rbuf + c->rlen;
	b->len = sizeof c->rbuf - c->rlen;
}

static void conn_read_cb(uv_stream_t *st, ssize_t n, const uv_buf_t *b);

/* Take one frame off the front of the buffer and answer it. */
static void conn_frame(struct server_conn *c, size_t need)
{
	struct inflight_dest d;

	memset(&d, 0, sizeof d);
	d.transport = c->tls != NULL ? SERVER_TLS : SERVER_TCP;
	d.slot = c->slot;
	d.serial = c->serial;
	d.addr = c->peer;
	d.addrlen = sizeof c->peer;
	d.keepalive = server_keepalive_asked(c->rbuf + 2, need);
	c->pending++;
	c->s->st.queries_tcp++;
	if (c->tls != NULL)
		c->s->st.queries_tls++;
	if (server_query(c->s, c->rbuf + 2, need, &d) == SERVER_Q_DONE &&
	    c->pending > 0)
		c->pending--;
	memmove(c->rbuf, c->rbuf + 2 + need, c->rlen - 2 - need);
	c->rlen -= 2 + need;
}

/* A proxy-protocol-from connection starts with a PROXY v2 header: take
 * it off the buffer and make its client the connection's peer.
 * @return false while more bytes are needed or after closing. */
static bool conn_proxy(struct server_conn *c)
{
	struct inflight_dest d;
	size_t skip = 0;
	int rc;

	rc = proxy_parse(c->rbuf, c->rlen, &skip, &d.addr);
	if ((rc == PROXY_ESHORT || rc == PROXY_ELENGTH) &&
	    c->rlen < sizeof c->rbuf && !c->eof)
		return false;
	memset(&d, 0, sizeof d);
	d.addr = c->peer;
	if (!server_proxy_client(c->s, c->rbuf, c->rlen, &d, &skip)) {
		conn_close(c);
		return false;
	}
	c->peer = d.addr;
	memmove(c->rbuf, c->rbuf + skip, c->rlen - skip);
	c->rlen -= skip;
	c->proxy_done = true;
	return true;
}

static void conn_process(struct server_conn *c)
{
	size_t need = 0, k;
	int fr;

	if (c->tls != NULL)
		server_tls_refill(c);
	if (!c->proxy_done && !conn_proxy(c)) {
		if (!c->closing && c->eof)
			conn_maybe_close(c);
		return;
	}
	for (k = 0; k < SERVER_TCP_BATCH_MAX && !c->closing && c->rlen >= 2;
	     k++) {
		if (c->pending >= SERVER_TCP_PENDING_MAX) {
			c->paused = true;
			break;
		}
		fr = wire_frame(c->rbuf, c->rlen, SERVER_TCP_QUERY_MAX, &need);
		if (fr == WIRE_FRAME_MORE)
			break;
		if (fr != WIRE_FRAME_WHOLE) { /* length 0 or over 4096 */
			conn_close(c);
			return;
		}
		conn_frame(c, need);
	}
	if (c->closing)
		return;
	if (c->paused && c->pending < SERVER_TCP_PENDING_MAX)
		c->paused = false;
	if (c->tls != NULL) {
		server_tls_reading(c, !c->paused);
	} else if (c->paused || c->eof) {
		uv_read_stop((uv_stream_t *)&c->h);
		conn_maybe_close(c);
	} else {
		uv_read_start((uv_stream_t *)&c->h, conn_alloc_cb,
		              conn_read_cb);
	}
}

static void conn_read_cb(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
	struct server_conn *c = st->data;
	size_t had;

	(void)b;
	if (c->closing || n == 0)
		return;
	if (n == UV_EOF) {
		c->eof = true;
		uv_read_stop(st);
		conn_maybe_close(c);
		return;
	}
	if (n < 0) {
		conn_close(c);
		return;
	}
	c->rlen += (size_t)n;
	had = c->rlen;
	conn_process(c);
	/* Only whole queries are activity: a client that dribbles a query
	 * a byte at a time is still closed by the idle timer (and is the
	 * first evicted for room). */
	if (c->rlen < had) {
		c->last_ms = clock_ms();
		conn_idle_restart(c);
	}
}

/* ------------------------------------------------------------------ */
/* Accepting                                                           */

static void reject_closed_cb(uv_handle_t *h)
{
	free(h);
}

/* Accept and close at once: the connection cap is reached. */
static void tcp_reject(struct server *s, uv_stream_t *ls)
{
	uv_tcp_t *t = malloc(sizeof(*t));

	s->st.tcp_rejected++;
	if (t == NULL)
		return;
	if (uv_tcp_init(s->loop, t) != 0) {
		free(t);
		return;
	}
	(void)uv_accept(ls, (uv_stream_t *)t);
	uv_close((uv_handle_t *)t, reject_closed_cb);
}

/* Close the connection that has been idle longest, if any is idle.
 * @return false if none is. */
static bool conn_evict_idle(struct server *s)
{
	struct server_conn *best = NULL;
	size_t i;

	for (i = 0; i < s->nconns; i++) {
		struct server_conn *c = &s->conns[i];

		if (!c->used || c->closing || c->pending > 0 || c->writes > 0)
			continue;
		if (best == NULL || c->last_ms < best->last_ms)
			best = c;
	}
	if (best == NULL)
		return false;
	conn_close(best);
	return true;
}

static struct server_conn *conn_slot(struct server *s)
{
	size_t i;

	for (i = 0; i < s->nconns; i++)
		if (!s->conns[i].used)
			return &s->conns[i];
	return NULL;
}

/* Set a free slot up for a new connection; false if that failed. */
static bool conn_init(struct server *s, struct server_conn *c)
{
	memset(c, 0, offsetof(struct server_conn, rbuf));
	c->s = s;
	c->slot = (uint32_t)(c - s->conns);
	c->serial = ++s->conn_serial;
	if (uv_tcp_init(s->loop, &c->h) != 0)
		return false;
	c->h.data = c;
	c->used = true;
	s->st.tcp_opened++;
	c->handles = 1;
	if (uv_timer_init(s->loop, &c->idle) != 0) {
		conn_close(c);
		return false;
	}
	c->idle.data = c;
	c->handles = 2;
	c->last_ms = clock_ms();
	return true;
}

struct server_conn *server_tcp_open(struct server *s, uv_stream_t *ls)
{
	struct server_conn *c = conn_slot(s);
	struct server_tcpl *l = ls->data;

	if (c == NULL) {
		/* Not accepted, libuv stops reading ls until it is
		 * (tcp_resume, once the evicted slot's handles close). */
		if (conn_evict_idle(s))
			l->waiting = true;
		else
			tcp_reject(s, ls);
		return NULL;
	}
	return conn_init(s, c) ? c : NULL;
}

static void tcp_accept_cb(uv_stream_t *ls, int status)
{
	struct server_tcpl *l = ls->data;
	struct server *s = l->s;
	struct server_conn *c;
	int alen = sizeof c->peer;

	if (status < 0 || s->stopping || (c = server_tcp_open(s, ls)) == NULL)
		return;
	if (uv_accept(ls, (uv_stream_t *)&c->h) != 0 ||
	    uv_tcp_getpeername(&c->h, (struct sockaddr *)&c->peer, &alen) !=
	            0) {
		conn_close(c);
		return;
	}
	/* a balancer's client is known after its PROXY v2 header */
	c->proxy_done = !cfg_proxy_from(s->cfg, (struct sockaddr *)&c->peer);
	if (c->proxy_done &&
	    cfg_acl_check(s->cfg, (struct sockaddr *)&c->peer) ==
	            CFG_ACL_DENY) {
		conn_close(c);
		return;
	}
	s->st.tcp_accepted++;
	uv_read_start((uv_stream_t *)&c->h, conn_alloc_cb, conn_read_cb);
	conn_idle_restart(c);
}

/* Bind a socket with the listener's options (server_sock_flags). */
static int server_tcp_bind(struct server *s, struct server_tcpl *l,
                           const struct sockaddr *sa)
{
	int fd, rc;

	fd = udpio_socket(sa, SOCK_STREAM, server_sock_flags(s));
	if (fd < 0)
		return fd;
	rc = uv_tcp_open(&l->h, fd);
	if (rc != 0)
		close(fd);
	return rc;
}

int server_tcp_listen(struct server *s, const struct sockaddr *sa)
{
	return server_tcp_listen_cb(s, sa, tcp_accept_cb);
}

int server_tcp_listen_cb(struct server *s, const struct sockaddr *sa,
                         uv_connection_cb cb)
{
	struct server_tcpl *l = &s->tcpl[s->ntcpl];
	int rc;

	rc = uv_tcp_init(s->loop, &l->h);
	if (rc != 0)
		return rc;
	l->s = s;
	l->h.data = l;
	l->open = true;
	l->waiting = false;
	l->cb = cb;
	s->ntcpl++;
	rc = server_tcp_bind(s, l, sa);
	if (rc == 0)
		rc = uv_listen((uv_stream_t *)&l->h, SERVER_TCP_BACKLOG, cb);
	return rc;
}

void server_tcp_stop(struct server *s)
{
	size_t i;

	for (i = 0; i < s->ntcpl; i++) {
		if (s->tcpl[i].open) {
			s->tcpl[i].open = false;
			uv_close((uv_handle_t *)&s->tcpl[i].h, NULL);
		}
	}
	for (i = 0; i < s->nconns; i++)
		conn_close(&s->conns[i]);
}

/* What server_tls.c shares of a connection's life (server_int.h). */
void server_tcp_process(struct server_conn *c)
{
	conn_process(c);
}

void server_tcp_close(struct server_conn *c)
{
	conn_close(c);
}

void server_tcp_kick(struct server_conn *c)
{
	conn_kick(c);
}

void server_tcp_idle(struct server_conn *c)
{
	conn_idle_restart(c);
}
