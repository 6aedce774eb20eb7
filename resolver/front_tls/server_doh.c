/*
 * resolver/front_tls/server_doh.c - DNS over HTTPS for clients (RFC 8484)
 * over HTTP/2 (nghttp2's server session, fed from and into the TLS
 * session of server_tls.c): a listen address on https-port accepts TCP
 * connections on server_tcp.c's slots (the same cap as TCP and DoT),
 * runs the TLS handshake with ALPN "h2" and its time limit, then every
 * HTTP/2 stream is one query: GET with ?dns= or POST of an
 * application/dns-message to http-endpoint. The query takes the path of
 * every other (server_query: access control, rate limits, local zones,
 * DNSSEC, EDE, statistics) and its answer comes back to its stream
 * (inflight_dest.stream), padded to 468 bytes like DoT, with the
 * Cache-Control max-age of its least TTL (dohhttp.h). The request
 * parsing that needs no HTTP/2 is dohhttp.c's.
 *
 * Memory: per connection, the slot, the TLS session, nghttp2's session
 * (at most http-max-streams streams at once: SETTINGS) and per stream
 * at most SERVER_TCP_QUERY_MAX query bytes and one padded answer; the
 * query and answer bytes of a worker's streams are capped by
 * http-query-buffer-size and http-response-buffer-size (503 beyond).
 */
#include "front/server_int.h"

#include <nghttp2/nghttp2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/netaddr.h"
#include "dohhttp.h"
#include "server_tls.h"
#include "transport/tls.h"

/** Bytes of HTTP/2 output gathered into one TLS write. */
#define SERVER_DOH_OUT 16384
/** Bytes of a header value written here (a number). */
#define SERVER_DOH_NUM 24

/** The request methods DoH knows. */
enum doh_method { DOH_M_NONE = 0, DOH_M_GET, DOH_M_POST, DOH_M_OTHER };

/** One HTTP/2 stream: one query. */
struct doh_stream {
	struct server_doh *h;
	struct doh_stream *prev, *next; /**< the connection's streams */
	int32_t id;
	enum doh_method method;
	int path;      /**< dohhttp_path's status; -1: no :path yet */
	int status;    /**< an HTTP error decided (0: none) */
	bool ctype_ok; /**< content-type application/dns-message */
	bool answered; /**< a response is submitted */
	uint8_t *q;    /**< the query (GET: decoded; POST: the body) */
	size_t qlen;
	uint8_t *resp; /**< the padded answer */
	size_t rlen, roff;
};

/** The HTTP/2 side of a connection slot (server_int.h: c->doh). */
struct server_doh {
	struct server_conn *c;
	nghttp2_session *h2;
	struct doh_stream *streams;
	bool in_recv; /**< inside nghttp2_session_mem_recv */
};

bool server_doh_port(const struct cfg *c, const struct sockaddr *sa)
{
	uint16_t port = netaddr_port(sa);

	/* tls-port wins a tie */
	return port != 0 && port == c->https_port && port != c->tls_port;
}

/* ------------------------------------------------------------------ */
/* Streams                                                             */

static void stream_free(struct doh_stream *st)
{
	struct server *s = st->h->c->s;

	if (st->prev != NULL)
		st->prev->next = st->next;
	else
		st->h->streams = st->next;
	if (st->next != NULL)
		st->next->prev = st->prev;
	s->doh_qbytes -= st->q != NULL ? SERVER_TCP_QUERY_MAX : 0;
	s->doh_rbytes -= st->rlen;
	free(st->q);
	free(st->resp);
	free(st);
}

/* The query buffer of a stream, counted against the worker's cap. */
static bool stream_qbuf(struct doh_stream *st)
{
	struct server *s = st->h->c->s;

	if (st->q != NULL)
		return true;
	if (s->doh_qbytes + SERVER_TCP_QUERY_MAX >
	            s->cfg->http_query_buffer_size ||
	    (st->q = malloc(SERVER_TCP_QUERY_MAX)) == NULL) {
		st->status = DOHHTTP_503;
		return false;
	}
	s->doh_qbytes += SERVER_TCP_QUERY_MAX;
	return true;
}

static ssize_t doh_read_cb(nghttp2_session *session, int32_t id, uint8_t *buf,
                           size_t length, uint32_t *flags,
                           nghttp2_data_source *src, void *arg)
{
	struct doh_stream *st = src->ptr;
	size_t n = st->rlen - st->roff;

	(void)session;
	(void)id;
	(void)arg;
	n = n < length ? n : length;
	memcpy(buf, st->resp + st->roff, n);
	st->roff += n;
	if (st->roff == st->rlen)
		*flags |= NGHTTP2_DATA_FLAG_EOF;
	return (ssize_t)n;
}

/* A header field of a response. */
static nghttp2_nv doh_nv(const char *name, const char *value)
{
	nghttp2_nv nv = { (uint8_t *)(uintptr_t)name,
		          (uint8_t *)(uintptr_t)value, strlen(name),
		          strlen(value), NGHTTP2_NV_FLAG_NONE };

	return nv;
}

/* A response with no body: an HTTP error. */
static void stream_error(struct doh_stream *st, int code)
{
	char status[SERVER_DOH_NUM];
	nghttp2_nv nv[2];

	if (st->answered)
		return;
	st->answered = true;
	st->h->c->s->st.doh_errors++;
	snprintf(status, sizeof status, "%d", code);
	nv[0] = doh_nv(":status", status);
	nv[1] = doh_nv("content-length", "0");
	(void)nghttp2_submit_response(st->h->h2, st->id, nv, 2, NULL);
}

/* The answer to a stream: padded, with its max-age. */
static void stream_answer(struct doh_stream *st, const uint8_t *msg,
                          size_t len)
{
	struct server *s = st->h->c->s;
	size_t cap = len + WIRE_OPT_HDR + SERVER_TLS_PAD_BLOCK;
	char clen[SERVER_DOH_NUM], age[SERVER_DOH_NUM + 8];
	nghttp2_data_provider prd;
	nghttp2_nv nv[4];

	if (s->doh_rbytes + cap > s->cfg->http_response_buffer_size ||
	    (st->resp = malloc(cap)) == NULL) {
		stream_error(st, DOHHTTP_503);
		return;
	}
	st->answered = true;
	memcpy(st->resp, msg, len);
	st->rlen = server_tls_pad(st->resp, len, cap);
	s->doh_rbytes += st->rlen;
	snprintf(clen, sizeof clen, "%zu", st->rlen);
	snprintf(age, sizeof age, "max-age=%u", dohhttp_max_age(msg, len));
	nv[0] = doh_nv(":status", "200");
	nv[1] = doh_nv("content-type", DOHHTTP_CTYPE);
	nv[2] = doh_nv("content-length", clen);
	nv[3] = doh_nv("cache-control", age);
	prd.source.ptr = st;
	prd.read_callback = doh_read_cb;
	(void)nghttp2_submit_response(st->h->h2, st->id, nv, 4, &prd);
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

/* Everything nghttp2 has to send, through TLS; false after closing. */
static bool doh_flush(struct server_doh *h)
{
	struct server_conn *c = h->c;
	uint8_t out[SERVER_DOH_OUT];
	const uint8_t *data;
	size_t have = 0;
	ssize_t n;

	for (;;) {
		n = nghttp2_session_mem_send(h->h2, &data);
		if (n < 0)
			break;
		if (have > 0 && (n == 0 || have + (size_t)n > sizeof out)) {
			if (server_tls_plain(c, out, have) != 0)
				return false;
			have = 0;
		}
		if (n == 0)
			break;
		if ((size_t)n > sizeof out) {
			if (server_tls_plain(c, data, (size_t)n) != 0)
				return false;
			continue;
		}
		memcpy(out + have, data, (size_t)n);
		have += (size_t)n;
	}
	if (n < 0 || (!nghttp2_session_want_read(h->h2) &&
	              !nghttp2_session_want_write(h->h2))) {
		server_tcp_close(c);
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------ */
/* Requests                                                            */

/* The query of a whole request, through the resolver. */
static void stream_query(struct doh_stream *st)
{
	struct server_conn *c = st->h->c;
	struct inflight_dest d;
	enum server_qresult rc;

	memset(&d, 0, sizeof d);
	d.transport = SERVER_DOH;
	d.slot = c->slot;
	d.serial = c->serial;
	d.stream = (uint32_t)st->id;
	d.addr = c->peer;
	d.addrlen = sizeof c->peer;
	c->pending++;
	c->s->st.queries_tcp++;
	c->s->st.queries_tls++;
	c->s->st.queries_https++;
	rc = server_query(c->s, st->q, st->qlen, &d);
	/* the query is read: its buffer goes back to the worker's budget */
	free(st->q);
	st->q = NULL;
	c->s->doh_qbytes -= SERVER_TCP_QUERY_MAX;
	if (rc == SERVER_Q_DONE) {
		if (c->pending > 0)
			c->pending--;
		/* dropped (rate limit, a query not worth an answer) */
		if (!st->answered && !c->closing)
			(void)nghttp2_submit_rst_stream(
				st->h->h2, NGHTTP2_FLAG_NONE, st->id,
				NGHTTP2_REFUSED_STREAM);
	}
}

/* A request is whole: its error, or its query. */
static void stream_request(struct doh_stream *st)
{
	int code = st->status;

	if (code == 0 && st->path != DOHHTTP_OK && st->path != DOHHTTP_NOQUERY)
		code = st->path < 0 ? DOHHTTP_400 : dohhttp_code(st->path);
	if (code == 0 && st->method != DOH_M_GET && st->method != DOH_M_POST)
		code = DOHHTTP_405;
	if (code == 0 && st->method == DOH_M_GET && st->path != DOHHTTP_OK)
		code = DOHHTTP_400;
	if (code == 0 && st->method == DOH_M_POST && !st->ctype_ok)
		code = DOHHTTP_415;
	if (code == 0 && st->qlen < DOHHTTP_DNS_MIN)
		code = DOHHTTP_400;
	if (code != 0)
		stream_error(st, code);
	else
		stream_query(st);
}

/* :path of a stream; a GET's query is decoded at once. */
static void stream_path(struct doh_stream *st, const uint8_t *v, size_t len)
{
	uint8_t q[SERVER_TCP_QUERY_MAX];
	size_t qlen = 0;

	st->path = dohhttp_path((const char *)v, len,
	                        st->h->c->s->cfg->http_endpoint, q, sizeof q,
	                        &qlen);
	if (st->path == DOHHTTP_OK && stream_qbuf(st)) {
		memcpy(st->q, q, qlen);
		st->qlen = qlen;
	}
}

static enum doh_method doh_method(const uint8_t *v, size_t len)
{
	if (len == 3 && memcmp(v, "GET", 3) == 0)
		return DOH_M_GET;
	if (len == 4 && memcmp(v, "POST", 4) == 0)
		return DOH_M_POST;
	return DOH_M_OTHER;
}

static int doh_header_cb(nghttp2_session *session, const nghttp2_frame *f,
                         const uint8_t *name, size_t namelen, const uint8_t *v,
                         size_t len, uint8_t flags, void *arg)
{
	struct doh_stream *st =
		nghttp2_session_get_stream_user_data(session, f->hd.stream_id);

	(void)flags;
	(void)arg;
	if (st == NULL || f->hd.type != NGHTTP2_HEADERS)
		return 0;
	if (namelen == 7 && memcmp(name, ":method", 7) == 0)
		st->method = doh_method(v, len);
	else if (namelen == 5 && memcmp(name, ":path", 5) == 0 && st->path < 0)
		stream_path(st, v, len);
	else if (namelen == 12 && memcmp(name, "content-type", 12) == 0)
		st->ctype_ok = dohhttp_ctype_ok((const char *)v, len);
	return 0;
}

static int doh_begin_cb(nghttp2_session *session, const nghttp2_frame *f,
                        void *arg)
{
	struct server_doh *h = arg;
	struct doh_stream *st;

	if (f->hd.type != NGHTTP2_HEADERS ||
	    f->headers.cat != NGHTTP2_HCAT_REQUEST)
		return 0;
	if ((st = calloc(1, sizeof *st)) == NULL)
		return NGHTTP2_ERR_CALLBACK_FAILURE;
	st->h = h;
	st->id = f->hd.stream_id;
	st->path = -1;
	st->next = h->streams;
	if (h->streams != NULL)
		h->streams->prev = st;
	h->streams = st;
	return nghttp2_session_set_stream_user_data(session, st->id, st);
}

static int doh_data_cb(nghttp2_session *session, uint8_t flags, int32_t id,
                       const uint8_t *data, size_t len, void *arg)
{
	struct doh_stream *st = nghttp2_session_get_stream_user_data(session,
	                                                             id);

	(void)flags;
	(void)arg;
	if (st == NULL || st->status != 0)
		return 0;
	if (st->method != DOH_M_POST || st->path != DOHHTTP_NOQUERY)
		return 0; /* answered with an error once whole */
	if (len > SERVER_TCP_QUERY_MAX - st->qlen) {
		st->status = DOHHTTP_413;
		return 0;
	}
	if (!stream_qbuf(st))
		return 0;
	memcpy(st->q + st->qlen, data, len);
	st->qlen += len;
	return 0;
}

static int doh_frame_cb(nghttp2_session *session, const nghttp2_frame *f,
                        void *arg)
{
	struct doh_stream *st;

	(void)arg;
	if ((f->hd.type != NGHTTP2_HEADERS && f->hd.type != NGHTTP2_DATA) ||
	    !(f->hd.flags & NGHTTP2_FLAG_END_STREAM))
		return 0;
	st = nghttp2_session_get_stream_user_data(session, f->hd.stream_id);
	if (st != NULL && !st->answered)
		stream_request(st);
	return 0;
}

static int doh_close_cb(nghttp2_session *session, int32_t id, uint32_t code,
                        void *arg)
{
	struct doh_stream *st = nghttp2_session_get_stream_user_data(session,
	                                                             id);

	(void)code;
	(void)arg;
	if (st != NULL) {
		(void)nghttp2_session_set_stream_user_data(session, id, NULL);
		stream_free(st);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* The connection                                                      */

/* nghttp2's callbacks, made once per session (nghttp2 copies them). */
static nghttp2_session_callbacks *doh_callbacks(void)
{
	nghttp2_session_callbacks *cb;

	if (nghttp2_session_callbacks_new(&cb) != 0)
		return NULL;
	nghttp2_session_callbacks_set_on_begin_headers_callback(cb,
	                                                        doh_begin_cb);
	nghttp2_session_callbacks_set_on_header_callback(cb, doh_header_cb);
	nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb,
	                                                          doh_data_cb);
	nghttp2_session_callbacks_set_on_frame_recv_callback(cb, doh_frame_cb);
	nghttp2_session_callbacks_set_on_stream_close_callback(cb,
	                                                       doh_close_cb);
	return cb;
}

int server_doh_start(struct server_conn *c)
{
	nghttp2_settings_entry iv[1] = {
		{ NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS,
		  c->s->cfg->http_max_streams }
	};
	nghttp2_session_callbacks *cb = doh_callbacks();
	struct server_doh *h = calloc(1, sizeof *h);
	int rc = -1;

	if (cb != NULL && h != NULL &&
	    nghttp2_session_server_new(&h->h2, cb, h) == 0) {
		h->c = c;
		c->doh = h;
		rc = 0;
	} else {
		free(h);
	}
	nghttp2_session_callbacks_del(cb);
	if (rc == 0 &&
	    nghttp2_submit_settings(h->h2, NGHTTP2_FLAG_NONE, iv, 1) != 0)
		rc = -1;
	if (rc == 0 && !doh_flush(h))
		rc = -1;
	return rc;
}

void server_doh_recv(struct server_conn *c, const uint8_t *buf, size_t len)
{
	struct server_doh *h = c->doh;
	ssize_t n;

	h->in_recv = true;
	n = nghttp2_session_mem_recv(h->h2, buf, len);
	h->in_recv = false;
	if (c->closing)
		return;
	if (n < 0 || (size_t)n != len) {
		server_tcp_close(c);
		return;
	}
	(void)doh_flush(h);
}

void server_doh_send(struct server *s, const struct inflight_dest *d,
                     const uint8_t *msg, size_t len, bool waited)
{
	struct server_conn *c;
	struct doh_stream *st;

	if (d->slot >= s->nconns || len > WIRE_MSG_MAX)
		return;
	c = &s->conns[d->slot];
	if (!c->used || c->closing || c->serial != d->serial || c->doh == NULL)
		return;
	if (waited && c->pending > 0)
		c->pending--;
	st = nghttp2_session_get_stream_user_data(c->doh->h2,
	                                          (int32_t)d->stream);
	if (st == NULL || st->answered)
		return; /* the client reset the stream */
	stream_answer(st, msg, len);
	c->last_ms = clock_ms();
	if (!c->doh->in_recv)
		(void)doh_flush(c->doh);
}

void server_doh_free(struct server_conn *c)
{
	struct server_doh *h = c->doh;

	if (h == NULL)
		return;
	nghttp2_session_del(h->h2);
	while (h->streams != NULL)
		stream_free(h->streams);
	free(h);
	c->doh = NULL;
}

int server_doh_listen(struct server *s, const struct sockaddr *sa)
{
	return server_tcp_listen_cb(s, sa, server_tls_accept_doh);
}
