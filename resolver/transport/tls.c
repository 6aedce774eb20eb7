/*
 * resolver/transport/tls.c - a TLS session over a libuv TCP handle with
 * OpenSSL memory BIOs (see tls.h).
 *
 * The socket's bytes are written into the read BIO and libssl's output
 * is taken from the write BIO after every call into libssl (flush), so
 * both BIOs stay near empty: what is read is consumed in the same
 * callback, what is produced goes to uv_write at once.
 */
#include "tls.h"
#include "tls_peer.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

/* The socket's bytes and the plaintext, one chunk each per thread, not
 * per connection: each is used within one read callback only (the bytes
 * go into the read BIO, the plaintext to the data callback, before it
 * returns), and no callback reads a socket. */
static _Thread_local uint8_t tls_rchunk[TLS_READ_CHUNK];
static _Thread_local uint8_t tls_plain[TLS_READ_CHUNK];

/* A memory BIO's buffer grows to the most it ever held and never
 * shrinks: one that held the handshake's flights, or more than this at
 * once (a burst of records), is replaced by a new one once it is empty,
 * so that an idle connection keeps small ones. Not less: a busy server
 * reads and writes a few kB at a time, and a new BIO costs five mallocs
 * (one bench-srvtls run with 1 kB here: 13.2 us of CPU per DoT query,
 * 11.3 without the renewals; the machine was shared). */
#define TLS_BIO_KEEP 8192
/* The most a TLS record adds to its plaintext (header, explicit IV, MAC
 * or tag, CBC padding), rounded up; and the margin under TLS_WQUEUE_MAX
 * below which tls_conn_write trusts its own count of the write BIO's
 * bytes (an upper bound of its records) without asking the BIO. */
#define TLS_RECORD_OVER 512
#define TLS_RECORD_MAX 16384
#define TLS_WQUEUE_SLACK (32u * 1024u)

/** ALPN of DNS over TLS (IANA "dot"), in wire form. */
static const unsigned char tls_alpn_dot[] = { 3, 'd', 'o', 't' };
/** ALPN of HTTP/2 (DNS over HTTPS), in wire form. */
static const unsigned char tls_alpn_h2[] = { 2, 'h', '2' };

struct tls_ctx {
	SSL_CTX *ssl;
	bool server;
	bool unauth; /**< opportunistic client: nothing checked */
};

struct tls_conn {
	uv_tcp_t tcp;
	uv_connect_t conn;
	SSL *ssl;
	BIO *rbio; /**< socket -> libssl */
	BIO *wbio; /**< libssl -> socket */
	struct tls_cbs cbs;
	void *arg;
	const struct tls_plain_cbs *plain; /**< tls_conn_read_plain's */
	void *plain_arg;
	uv_idle_t out_idle; /**< sends out at the next turn of the loop */
	bool out_pending;   /**< records wait in the write BIO for it */
	size_t out_bound;   /**< tls_conn_write's bytes since the last flush */
	bool rbio_grown;    /**< the read BIO to be replaced once empty */
	bool wbio_grown;    /**< the write BIO to be replaced once empty */
	int handles; /**< libuv handles not closed yet (tcp, out_idle) */
	uint8_t pin[TLS_PIN_BYTES];
	bool has_pin;
	const struct tlsa_set *dane; /**< tls_auth's (kept by the caller) */
	const char *dane_host;       /**< the name DANE-TA checks */
	void **resume;
	bool unauth;      /**< the context's: no name, no chain check */
	bool handle_open; /**< uv_tcp_init done */
	bool ready;       /**< handshake and checks passed */
	bool dead;        /**< the error callback came */
	bool closing;     /**< tls_conn_close was called */
	bool paused;      /**< tls_conn_pause: the socket is not read */
	bool h2;          /**< server: ALPN h2, not dot (tls_conn_want_h2) */
	char why[TLS_WHY_BYTES];
};

/** One write to the socket: the bytes libssl produced. */
struct tls_wreq {
	uv_write_t req;
	struct tls_conn *c;
	uint8_t data[];
};

const char *tls_strerror(int status)
{
	switch (status) {
	case TLS_OK: return "ok";
	case TLS_EINVAL: return "invalid argument or state";
	case TLS_ENOMEM: return "out of memory";
	case TLS_EBUNDLE: return "CA bundle not loaded";
	case TLS_ECERT: return "certificate or key not loaded";
	case TLS_ECONNECT: return "TCP connection failed";
	case TLS_EHANDSHAKE: return "TLS handshake failed";
	case TLS_EVERIFY: return "certificate did not verify";
	case TLS_EPIN: return "no key matched the pin";
	case TLS_EFULL: return "write queue full";
	case TLS_ECLOSED: return "closed by the peer";
	case TLS_EIO: return "socket error";
	default: return "unknown TLS status";
	}
}

/* ---- contexts ---- */

/* TLS 1.3 hands its session tickets over after the handshake: keep the
 * latest in the connection's resume slot (we own it: return 1). */
static int tls_new_session(SSL *ssl, SSL_SESSION *sess)
{
	struct tls_conn *c = SSL_get_app_data(ssl);

	if (c == NULL || c->resume == NULL)
		return 0;
	if (*c->resume != NULL)
		SSL_SESSION_free(*c->resume);
	*c->resume = sess;
	return 1;
}

static int tls_alpn_select(SSL *ssl, const unsigned char **out,
                           unsigned char *outlen, const unsigned char *in,
                           unsigned int inlen, void *arg)
{
	unsigned char *sel = NULL;
	const struct tls_conn *c = SSL_get_app_data(ssl);
	bool h2 = c != NULL && c->h2;

	(void)arg;
	if (SSL_select_next_proto(&sel, outlen,
	                          h2 ? tls_alpn_h2 : tls_alpn_dot,
	                          h2 ? sizeof tls_alpn_h2 :
	                               sizeof tls_alpn_dot,
	                          in, inlen) != OPENSSL_NPN_NEGOTIATED)
		return SSL_TLSEXT_ERR_NOACK;
	*out = sel;
	return SSL_TLSEXT_ERR_OK;
}

static int tls_ctx_new(struct tls_ctx **out, bool server)
{
	struct tls_ctx *x = calloc(1, sizeof *x);

	if (x == NULL)
		return TLS_ENOMEM;
	x->server = server;
	x->ssl = SSL_CTX_new(server ? TLS_server_method() :
	                              TLS_client_method());
	if (x->ssl == NULL ||
	    SSL_CTX_set_min_proto_version(x->ssl, TLS1_2_VERSION) != 1) {
		SSL_CTX_free(x->ssl);
		free(x);
		return TLS_ENOMEM;
	}
	SSL_CTX_set_mode(x->ssl, SSL_MODE_RELEASE_BUFFERS);
	*out = x;
	return TLS_OK;
}

/* What every client context has: session tickets kept by the caller,
 * ALPN "dot". Frees x on failure. */
static int tls_ctx_client_end(struct tls_ctx *x, struct tls_ctx **out)
{
	SSL_CTX_set_session_cache_mode(
		x->ssl,
		SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
	SSL_CTX_sess_set_new_cb(x->ssl, tls_new_session);
	if (SSL_CTX_set_alpn_protos(x->ssl, tls_alpn_dot,
	                            sizeof tls_alpn_dot) != 0) {
		tls_ctx_free(x);
		return TLS_ENOMEM;
	}
	*out = x;
	return TLS_OK;
}

int tls_ctx_client(struct tls_ctx **out, const char *bundle)
{
	struct tls_ctx *x;
	int rc;

	if (out == NULL || bundle == NULL)
		return TLS_EINVAL;
	if ((rc = tls_ctx_new(&x, false)) != TLS_OK)
		return rc;
	if (SSL_CTX_load_verify_locations(x->ssl, bundle, NULL) != 1) {
		ERR_clear_error();
		tls_ctx_free(x);
		return TLS_EBUNDLE;
	}
	SSL_CTX_set_verify(x->ssl, SSL_VERIFY_PEER, NULL);
	return tls_ctx_client_end(x, out);
}

int tls_ctx_client_unauth(struct tls_ctx **out)
{
	struct tls_ctx *x;
	int rc;

	if (out == NULL)
		return TLS_EINVAL;
	if ((rc = tls_ctx_new(&x, false)) != TLS_OK)
		return rc;
	x->unauth = true;
	SSL_CTX_set_verify(x->ssl, SSL_VERIFY_NONE, NULL);
	return tls_ctx_client_end(x, out);
}

int tls_ctx_server(struct tls_ctx **out, const char *chain, const char *key)
{
	struct tls_ctx *x;
	int rc;

	if (out == NULL || chain == NULL || key == NULL)
		return TLS_EINVAL;
	if ((rc = tls_ctx_new(&x, true)) != TLS_OK)
		return rc;
	if (SSL_CTX_use_certificate_chain_file(x->ssl, chain) != 1 ||
	    SSL_CTX_use_PrivateKey_file(x->ssl, key, SSL_FILETYPE_PEM) != 1 ||
	    SSL_CTX_check_private_key(x->ssl) != 1) {
		ERR_clear_error();
		tls_ctx_free(x);
		return TLS_ECERT;
	}
	SSL_CTX_set_alpn_select_cb(x->ssl, tls_alpn_select, NULL);
	*out = x;
	return TLS_OK;
}

void tls_ctx_free(struct tls_ctx *ctx)
{
	if (ctx == NULL)
		return;
	SSL_CTX_free(ctx->ssl);
	free(ctx);
}

void *tls_ctx_libssl(struct tls_ctx *ctx)
{
	return ctx->ssl;
}

void tls_resume_free(void **resume)
{
	if (resume == NULL || *resume == NULL)
		return;
	SSL_SESSION_free(*resume);
	*resume = NULL;
}

/* ---- the connection ---- */

int tls_conn_new(struct tls_conn **out, struct tls_ctx *ctx, uv_loop_t *loop,
                 const struct tls_cbs *cbs, void *arg)
{
	struct tls_conn *c;

	if (out == NULL || ctx == NULL || loop == NULL || cbs == NULL)
		return TLS_EINVAL;
	if ((c = calloc(1, sizeof *c)) == NULL)
		return TLS_ENOMEM;
	c->ssl = SSL_new(ctx->ssl);
	c->rbio = BIO_new(BIO_s_mem());
	c->wbio = BIO_new(BIO_s_mem());
	if (c->ssl == NULL || c->rbio == NULL || c->wbio == NULL ||
	    uv_tcp_init(loop, &c->tcp) != 0) {
		BIO_free(c->rbio);
		BIO_free(c->wbio);
		SSL_free(c->ssl);
		free(c);
		return TLS_ENOMEM;
	}
	SSL_set_bio(c->ssl, c->rbio, c->wbio); /* the SSL owns them */
	SSL_set_app_data(c->ssl, c);
	c->handle_open = true;
	c->unauth = ctx->unauth;
	c->tcp.data = c;
	c->cbs = *cbs;
	c->arg = arg;
	(void)uv_idle_init(loop, &c->out_idle); /* cannot fail */
	c->out_idle.data = c;
	c->handles = 2; /* tcp and out_idle */
	*out = c;
	return TLS_OK;
}

/* The connection died: say why, once. */
static void tls_fail(struct tls_conn *c, int status, const char *why)
{
	if (c->dead || c->closing)
		return;
	c->dead = true;
	c->ready = false;
	snprintf(c->why, sizeof c->why, "%s", why);
	ERR_clear_error();
	uv_read_stop((uv_stream_t *)&c->tcp);
	c->cbs.error(c->arg, status, c->why);
}

static void tls_written(uv_write_t *req, int status)
{
	struct tls_wreq *w = (struct tls_wreq *)req;
	struct tls_conn *c = w->c;

	free(w);
	if (status < 0 && status != UV_ECANCELED)
		tls_fail(c, TLS_EIO, uv_strerror(status));
}

/* Send what libssl produced. */
static int tls_flush(struct tls_conn *c)
{
	size_t n;
	struct tls_wreq *w;
	uv_buf_t b;
	BIO *b2;

	while ((n = BIO_ctrl_pending(c->wbio)) > 0) {
		c->wbio_grown = c->wbio_grown || n > TLS_BIO_KEEP;
		if ((w = malloc(sizeof *w + n)) == NULL)
			return TLS_ENOMEM;
		w->c = c;
		if (BIO_read(c->wbio, w->data, (int)n) != (int)n) {
			free(w);
			return TLS_EIO;
		}
		b = uv_buf_init((char *)w->data, (unsigned)n);
		if (uv_write(&w->req, (uv_stream_t *)&c->tcp, &b, 1,
		             tls_written) != 0) {
			free(w);
			return TLS_EIO;
		}
	}
	c->out_bound = 0;
	if (c->wbio_grown && (b2 = BIO_new(BIO_s_mem())) != NULL) {
		SSL_set0_wbio(c->ssl, b2); /* frees the old one */
		c->wbio = b2;
		c->wbio_grown = false;
	}
	return TLS_OK;
}

/* The read BIO is empty after a read callback (libssl takes every byte
 * into its own record buffer): a new one if the old one grew. */
static void tls_rbio_renew(struct tls_conn *c)
{
	BIO *b;

	if (!c->rbio_grown || c->closing || BIO_ctrl_pending(c->rbio) > 0 ||
	    (b = BIO_new(BIO_s_mem())) == NULL)
		return;
	SSL_set0_rbio(c->ssl, b); /* frees the old one */
	c->rbio = b;
	c->rbio_grown = false;
}

/* Why the handshake failed: the verification result when there is one,
 * else libssl's reason. */
static void tls_hs_failed(struct tls_conn *c)
{
	long v = SSL_get_verify_result(c->ssl);
	unsigned long e = ERR_peek_last_error();
	const char *r = e != 0 ? ERR_reason_error_string(e) : NULL;

	if (v != X509_V_OK)
		tls_fail(c, TLS_EVERIFY, X509_verify_cert_error_string(v));
	else
		tls_fail(c, TLS_EHANDSHAKE,
		         r != NULL ? r : "handshake failed");
}

static void tls_read_plain(struct tls_conn *c);

static void tls_handshake(struct tls_conn *c)
{
	int r, e;

	ERR_clear_error();
	r = SSL_do_handshake(c->ssl);
	if (tls_flush(c) != TLS_OK) {
		tls_fail(c, TLS_EIO, "write to the socket failed");
		return;
	}
	if (r != 1) {
		e = SSL_get_error(c->ssl, r);
		if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE)
			tls_hs_failed(c);
		return;
	}
	if (!SSL_is_server(c->ssl) && c->has_pin &&
	    !tls_peer_pin_ok(c->ssl, c->pin, c->unauth)) {
		tls_fail(c, TLS_EPIN,
		         "SHA-256 of the SPKI differs from the pin");
		return;
	}
	if (!SSL_is_server(c->ssl) && c->dane != NULL &&
	    !tls_peer_dane_ok(c->ssl, c->dane, c->dane_host)) {
		tls_fail(c, TLS_EPIN, "no TLSA record matched (DANE)");
		return;
	}
	c->ready = true;
	/* the BIOs held the handshake's messages: new ones once empty */
	c->rbio_grown = c->wbio_grown = true;
	c->cbs.ready(c->arg);
	if (!c->dead && !c->closing)
		tls_read_plain(c);
}

/* Hand over the plaintext libssl has. */
static void tls_read_plain(struct tls_conn *c)
{
	int r, e;

	while (!c->dead && !c->closing) {
		/* Nothing left to decrypt (nothing buffered in libssl or the
		 * read BIO): one more SSL_read would only say WANT_READ, and
		 * keep what it allocated to do so (BIOs and a buffer, 4 KB a
		 * connection by heaptrack) while the connection idles. */
		if (!SSL_has_pending(c->ssl) &&
		    BIO_ctrl_pending(c->rbio) == 0) {
			if (tls_flush(c) != TLS_OK)
				tls_fail(c, TLS_EIO,
				         "write to the socket failed");
			return;
		}
		ERR_clear_error();
		r = SSL_read(c->ssl, tls_plain, sizeof tls_plain);
		if (r > 0) {
			c->cbs.data(c->arg, tls_plain, (size_t)r);
			continue;
		}
		e = SSL_get_error(c->ssl, r);
		/* session tickets and key updates may want a reply */
		if (tls_flush(c) != TLS_OK)
			tls_fail(c, TLS_EIO, "write to the socket failed");
		else if (e == SSL_ERROR_ZERO_RETURN)
			tls_fail(c, TLS_ECLOSED, "close_notify from the peer");
		else if (e != SSL_ERROR_WANT_READ && e != SSL_ERROR_WANT_WRITE)
			tls_fail(c, TLS_EIO, "TLS record error");
		return;
	}
}

static void tls_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
	(void)h;
	(void)hint;
	*buf = uv_buf_init((char *)tls_rchunk, sizeof tls_rchunk);
}

/* What was read is acknowledged at once (TCP_QUICKACK; Linux clears it
 * again, so after every read): a peer that holds its next bytes until
 * its last ones are acknowledged (Nagle: NSD's answers, a DoH client's
 * request in two writes) would otherwise wait for the delayed ACK, 40 ms
 * a message. */
static void tls_quickack(struct tls_conn *c)
{
#ifdef TCP_QUICKACK
	uv_os_fd_t fd;
	int one = 1;

	if (uv_fileno((const uv_handle_t *)&c->tcp, &fd) == 0)
		(void)setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &one,
		                 sizeof one);
#else
	(void)c;
#endif
}

static void tls_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	struct tls_conn *c = s->data;

	(void)buf;
	if (c->dead || c->closing || n == 0)
		return;
	if (n < 0) {
		tls_fail(c, n == UV_EOF ? TLS_ECLOSED : TLS_EIO,
		         n == UV_EOF ? "connection closed by the peer" :
		                       uv_strerror((int)n));
		return;
	}
	if (BIO_write(c->rbio, tls_rchunk, (int)n) != (int)n) {
		tls_fail(c, TLS_ENOMEM, "read buffer");
		return;
	}
	tls_quickack(c);
	c->rbio_grown = c->rbio_grown || n > TLS_BIO_KEEP;
	if (c->ready)
		tls_read_plain(c);
	else
		tls_handshake(c);
	tls_rbio_renew(c);
}

static void tls_connected(uv_connect_t *req, int status)
{
	struct tls_conn *c = req->data;

	if (c->closing || c->dead)
		return;
	if (status < 0) {
		tls_fail(c, TLS_ECONNECT, uv_strerror(status));
		return;
	}
	/* the records of a turn go in one write: Nagle would only delay */
	(void)uv_tcp_nodelay(&c->tcp, 1);
	if (uv_read_start((uv_stream_t *)&c->tcp, tls_alloc, tls_read) != 0) {
		tls_fail(c, TLS_EIO, "read start failed");
		return;
	}
	tls_handshake(c);
}

/* The name to check and send as SNI. */
static int tls_client_name(struct tls_conn *c, const char *name)
{
	SSL_set_hostflags(c->ssl, X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS);
	if (SSL_set1_host(c->ssl, name) != 1 ||
	    SSL_set_tlsext_host_name(c->ssl, name) != 1)
		return TLS_EINVAL;
	return TLS_OK;
}

/* The name, SNI and pin of the server (an opportunistic client: none);
 * the session to resume. */
static int tls_client_setup(struct tls_conn *c, const struct tls_auth *auth)
{
	if (auth == NULL ||
	    (!c->unauth && (auth->name == NULL || auth->name[0] == '\0')))
		return TLS_EINVAL;
	if (!c->unauth && tls_client_name(c, auth->name) != TLS_OK)
		return TLS_EINVAL;
	if (auth->pin != NULL) {
		memcpy(c->pin, auth->pin, TLS_PIN_BYTES);
		c->has_pin = true;
	}
	if (auth->dane != NULL) { /* the NS name as SNI (RFC 7671 s5.2.2) */
		c->dane = auth->dane;
		c->dane_host = auth->name;
		if (c->unauth && auth->name != NULL && auth->name[0] != '\0')
			(void)SSL_set_tlsext_host_name(c->ssl, auth->name);
	}
	c->resume = auth->resume;
	if (c->resume != NULL && *c->resume != NULL &&
	    SSL_SESSION_is_resumable(*c->resume))
		(void)SSL_set_session(c->ssl, *c->resume);
	SSL_set_connect_state(c->ssl);
	return TLS_OK;
}

int tls_conn_connect(struct tls_conn *c, const struct sockaddr *sa,
                     const struct sockaddr *src, const struct tls_auth *auth)
{
	if (c == NULL || sa == NULL || c->closing || SSL_is_server(c->ssl))
		return TLS_EINVAL;
	if (tls_client_setup(c, auth) != TLS_OK) {
		ERR_clear_error();
		return TLS_EINVAL;
	}
	c->conn.data = c;
	if ((src != NULL && uv_tcp_bind(&c->tcp, src, 0) != 0) ||
	    uv_tcp_connect(&c->conn, &c->tcp, sa, tls_connected) != 0)
		return TLS_ECONNECT;
	return TLS_OK;
}

/* An accepted socket in c->tcp: read it, the handshake as a server. */
static int tls_serve(struct tls_conn *c)
{
	if (uv_tcp_nodelay(&c->tcp, 1) != 0 ||
	    uv_read_start((uv_stream_t *)&c->tcp, tls_alloc, tls_read) != 0)
		return TLS_EIO;
	SSL_set_accept_state(c->ssl);
	return TLS_OK;
}

int tls_conn_accept_held(struct tls_conn *c, uv_stream_t *listener)
{
	if (c == NULL || listener == NULL || c->closing ||
	    !SSL_is_server(c->ssl))
		return TLS_EINVAL;
	return uv_accept(listener, (uv_stream_t *)&c->tcp) == 0 ? TLS_OK :
	                                                          TLS_EIO;
}

int tls_conn_accept(struct tls_conn *c, uv_stream_t *listener)
{
	int rc = tls_conn_accept_held(c, listener);

	return rc == TLS_OK ? tls_serve(c) : rc;
}

/* Plain bytes before TLS, on the session's own socket: the caller's
 * room and got (tls_conn_read_plain). */
static void tls_plain_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
	struct tls_conn *c = h->data;
	uint8_t *p = NULL;
	size_t len = 0;

	(void)hint;
	c->plain->room(c->plain_arg, &p, &len);
	*buf = uv_buf_init((char *)p, (unsigned)len);
}

static void tls_plain_read(uv_stream_t *s, ssize_t n, const uv_buf_t *buf)
{
	struct tls_conn *c = s->data;

	(void)buf;
	if (!c->closing && n != 0)
		c->plain->got(c->plain_arg, n);
}

int tls_conn_read_plain(struct tls_conn *c, const struct tls_plain_cbs *cbs,
                        void *arg)
{
	if (c == NULL || cbs == NULL || c->closing || !SSL_is_server(c->ssl))
		return TLS_EINVAL;
	c->plain = cbs;
	c->plain_arg = arg;
	return uv_read_start((uv_stream_t *)&c->tcp, tls_plain_alloc,
	                     tls_plain_read) == 0 ?
	               TLS_OK :
	               TLS_EIO;
}

int tls_conn_serve(struct tls_conn *c)
{
	if (c == NULL || c->closing || !SSL_is_server(c->ssl))
		return TLS_EINVAL;
	uv_read_stop((uv_stream_t *)&c->tcp); /* the plain read, if any */
	return tls_serve(c);
}

/* Hand the records tls_conn_write made in this turn of the loop to the
 * socket, in one write. */
static void tls_out_send(struct tls_conn *c)
{
	c->out_pending = false;
	uv_idle_stop(&c->out_idle);
	if (c->dead || !c->ready)
		return;
	if (tls_flush(c) != TLS_OK)
		tls_fail(c, TLS_EIO, "write to the socket failed");
}

static void tls_out_cb(uv_idle_t *h)
{
	tls_out_send(h->data);
}

/*
 * Encrypted at once, one TLS record per call (a DNS message, or what
 * DNS over HTTPS has to send): some servers answer only the first DNS
 * message of a record until more bytes come (NSD 4.6), and some clients
 * read one response per record. The records of one turn of the loop go
 * to the socket in one write, at the start of the next turn (an idle
 * handle: the loop does not wait in poll while it is active).
 */
int tls_conn_write(struct tls_conn *c, const uint8_t *buf, size_t len)
{
	size_t done = 0, queued;

	if (c == NULL || !c->ready || c->dead || c->closing || len == 0 ||
	    len > INT32_MAX)
		return TLS_EINVAL;
	/* The write BIO asked only near the cap: its bytes are at most
	 * out_bound (and the little libssl may have answered on a read). */
	queued = c->tcp.write_queue_size + len;
	if (queued + c->out_bound + TLS_WQUEUE_SLACK > TLS_WQUEUE_MAX &&
	    queued + BIO_ctrl_pending(c->wbio) > TLS_WQUEUE_MAX)
		return TLS_EFULL;
	/* no ERR_clear_error: nothing here reads libssl's error queue, and
	 * tls_fail empties it */
	if (SSL_write_ex(c->ssl, buf, len, &done) != 1 || done != len) {
		tls_fail(c, TLS_EIO, "TLS write failed");
		return TLS_EIO;
	}
	c->out_bound += len + (len / TLS_RECORD_MAX + 1) * TLS_RECORD_OVER;
	if (!c->out_pending) {
		if (uv_idle_start(&c->out_idle, tls_out_cb) != 0)
			return TLS_EIO;
		c->out_pending = true;
	}
	return TLS_OK;
}

static void tls_closed(uv_handle_t *h)
{
	struct tls_conn *c = h->data;
	void (*cb)(void *) = c->cbs.closed;
	void *arg = c->arg;

	if (--c->handles > 0)
		return;
	SSL_free(c->ssl);
	free(c);
	if (cb != NULL)
		cb(arg);
}

void tls_conn_close(struct tls_conn *c)
{
	if (c == NULL || c->closing)
		return;
	c->closing = true;
	if (c->ready && !c->dead) {
		tls_out_send(c); /* what was queued before the close */
		ERR_clear_error();
		(void)SSL_shutdown(c->ssl);
		(void)tls_flush(c);
	}
	ERR_clear_error();
	uv_close((uv_handle_t *)&c->out_idle, tls_closed);
	uv_close((uv_handle_t *)&c->tcp, tls_closed);
}

const char *tls_conn_why(const struct tls_conn *c)
{
	return c != NULL ? c->why : "";
}

bool tls_conn_resumed(const struct tls_conn *c)
{
	return c != NULL && SSL_session_reused(c->ssl) == 1;
}

const char *tls_conn_alpn(const struct tls_conn *c, char *buf, size_t cap)
{
	const unsigned char *p = NULL;
	unsigned int n = 0;

	if (cap == 0)
		return "";
	buf[0] = '\0';
	if (c != NULL)
		SSL_get0_alpn_selected(c->ssl, &p, &n);
	if (p != NULL && n < cap) {
		memcpy(buf, p, n);
		buf[n] = '\0';
	}
	return buf;
}

void tls_conn_want_h2(struct tls_conn *c)
{
	if (c != NULL)
		c->h2 = true;
}

int tls_conn_pause(struct tls_conn *c, bool pause)
{
	if (c == NULL || !c->ready || c->dead || c->closing)
		return TLS_EINVAL;
	if (c->paused == pause)
		return TLS_OK;
	c->paused = pause;
	if (pause) {
		uv_read_stop((uv_stream_t *)&c->tcp);
		return TLS_OK;
	}
	if (uv_read_start((uv_stream_t *)&c->tcp, tls_alloc, tls_read) != 0) {
		tls_fail(c, TLS_EIO, "read start failed");
		return TLS_EIO;
	}
	return TLS_OK;
}

int tls_conn_peer(const struct tls_conn *c, struct sockaddr_storage *ss)
{
	int len = sizeof *ss;

	if (c == NULL || ss == NULL)
		return TLS_EINVAL;
	memset(ss, 0, sizeof *ss);
	return uv_tcp_getpeername(&c->tcp, (struct sockaddr *)ss, &len) == 0 ?
	               TLS_OK :
	               TLS_EIO;
}
