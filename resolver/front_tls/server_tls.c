/*
 * resolver/front_tls/server_tls.c - DNS over TLS for clients (RFC 7858; see
 * server_tls.h): the listener, the handshake and its time limit, the
 * plaintext between the TLS session and server_tcp.c's frame buffer, the
 * padded answers (RFC 8467), the key and certificate (start, reload, -t).
 *
 * Memory of a connection: server_tcp.c's slot, the TLS session (tls.h:
 * two 16 KiB chunks and libssl's state) and, only while a paused
 * connection holds plaintext that does not fit its frame buffer, a stage
 * of SERVER_TLS_STAGE_MAX bytes. The socket is not read while the stage
 * holds anything, so one read's plaintext is the most it ever takes.
 */
#include "server_tls.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/log.h"
#include "front/server_int.h"
#include "server_ticket.h"
#include "transport/tls.h"
#include "wire/wire.h"

/** Bytes of an answer built on the stack (larger ones are allocated). */
#define SERVER_TLS_SMALL 1536
/** Bytes of a certificate problem's text. */
#define SERVER_TLS_WHY 256
/** Seconds per day (expiry notes). */
#define SERVER_TLS_DAY 86400

/** The TLS side of a connection slot (server_int.h: c->tls). */
struct server_tlsc {
	struct server_conn *c;
	struct tls_conn *t;
	bool ready;                    /**< handshake done */
	struct server_tls_stage stage; /**< plaintext behind rbuf */
};

size_t server_tls_pad(uint8_t *msg, size_t len, size_t cap)
{
	return wire_pad(msg, len, cap, SERVER_TLS_PAD_BLOCK);
}

/* ------------------------------------------------------------------ */
/* Plaintext in, answers out                                           */

bool server_tls_take(uint8_t *rbuf, size_t rcap, size_t *rlen,
                     struct server_tls_stage *st, const uint8_t *buf,
                     size_t len)
{
	size_t n = 0;

	if (st->len == 0) {
		n = rcap - *rlen;
		n = n < len ? n : len;
		memcpy(rbuf + *rlen, buf, n);
		*rlen += n;
	}
	if (n == len)
		return true;
	if (st->len + (len - n) > SERVER_TLS_STAGE_MAX)
		return false;
	if (st->buf == NULL &&
	    (st->buf = malloc(SERVER_TLS_STAGE_MAX)) == NULL)
		return false;
	memcpy(st->buf + st->len, buf + n, len - n);
	st->len += len - n;
	return true;
}

void server_tls_unstage(uint8_t *rbuf, size_t rcap, size_t *rlen,
                        struct server_tls_stage *st)
{
	size_t n = rcap - *rlen;

	if (st->len == 0)
		return;
	n = n < st->len ? n : st->len;
	memcpy(rbuf + *rlen, st->buf, n);
	*rlen += n;
	st->len -= n;
	memmove(st->buf, st->buf + n, st->len);
	if (st->len == 0) {
		free(st->buf);
		st->buf = NULL;
	}
}

void server_tls_refill(struct server_conn *c)
{
	server_tls_unstage(c->rbuf, sizeof c->rbuf, &c->rlen, &c->tls->stage);
}

void server_tls_reading(struct server_conn *c, bool on)
{
	struct server_tlsc *x = c->tls;

	if (!x->ready)
		return;
	if (on && x->stage.len > 0) {
		/* what is staged first, from the loop; the socket waits */
		server_tcp_kick(c);
		on = false;
	}
	(void)tls_conn_pause(x->t, !on); /* failures come by callback */
}

void server_tls_write(struct server_conn *c, const uint8_t *msg, size_t len)
{
	uint8_t small[SERVER_TLS_SMALL], *buf = small;
	size_t cap = 2 + len + WIRE_OPT_HDR + SERVER_TLS_PAD_BLOCK;
	int rc;

	if (cap > sizeof small && (buf = malloc(cap)) == NULL) {
		server_tcp_close(c);
		return;
	}
	memcpy(buf + 2, msg, len);
	len = server_tls_pad(buf + 2, len, cap - 2);
	buf[0] = (uint8_t)(len >> 8);
	buf[1] = (uint8_t)len;
	rc = tls_conn_write(c->tls->t, buf, len + 2);
	if (buf != small)
		free(buf);
	if (rc == TLS_EFULL) { /* the client does not read its answers */
		c->s->st.send_errors++;
		server_tcp_close(c);
	}
}

/* ------------------------------------------------------------------ */
/* The session's callbacks                                             */

static void tlsc_ready(void *arg)
{
	struct server_tlsc *x = arg;
	struct server_conn *c = x->c;

	x->ready = true;
	c->s->st.tls_handshakes++;
	if (tls_conn_resumed(x->t))
		c->s->st.tls_resumed++;
	c->last_ms = clock_ms();
	server_tcp_idle(c); /* the handshake's time limit ends */
	if (c->doh_want && server_doh_start(c) != 0) /* HTTP/2 */
		server_tcp_close(c);
}

static void tlsc_data(void *arg, const uint8_t *buf, size_t len)
{
	struct server_tlsc *x = arg;
	struct server_conn *c = x->c;
	uint64_t before = c->s->st.queries_tls;

	if (c->closing)
		return;
	if (c->doh != NULL) {
		server_doh_recv(c, buf, len);
	} else if (!server_tls_take(c->rbuf, sizeof c->rbuf, &c->rlen,
	                            &x->stage, buf, len)) {
		server_tcp_close(c);
		return;
	} else {
		server_tcp_process(c);
	}
	/* only whole queries are activity (as over TCP) */
	if (!c->closing && c->s->st.queries_tls != before) {
		c->last_ms = clock_ms();
		server_tcp_idle(c);
	}
}

static void tlsc_error(void *arg, int status, const char *why)
{
	struct server_tlsc *x = arg;
	struct server_conn *c = x->c;
	char addr[64];

	if (!x->ready) {
		c->s->st.tls_failed++;
		server_addr_text((const struct sockaddr *)&c->peer, addr,
		                 sizeof addr);
		log_debug("tls_client_failed", "client=%s status=%s why=%s",
		          addr, tls_strerror(status), why);
	}
	server_tcp_close(c);
}

static void tlsc_closed(void *arg)
{
	struct server_tlsc *x = arg;
	struct server_conn *c = x->c;

	server_doh_free(c);
	free(x->stage.buf);
	free(x);
	c->tls = NULL;
	server_tcp_unref(c);
}

struct tls_conn *server_tls_session(struct server_conn *c)
{
	return c->tls->t;
}

void server_tls_close(struct server_conn *c)
{
	tls_conn_close(c->tls->t);
}

/* ------------------------------------------------------------------ */
/* Accepting                                                           */

static void tlsc_hs_timeout(uv_timer_t *t)
{
	struct server_conn *c = t->data;

	if (c->closing || c->tls == NULL || c->tls->ready)
		return;
	c->s->st.tls_failed++;
	server_tcp_close(c);
}

/* The TLS session of a slot for the connection waiting on ls; -1: the
 * caller closes the slot. */
static int tlsc_start(struct server *s, struct server_conn *c, uv_stream_t *ls)
{
	static const struct tls_cbs cbs = { tlsc_ready, tlsc_data, tlsc_error,
		                            tlsc_closed };
	struct server_tlsc *x = calloc(1, sizeof *x);

	if (x == NULL ||
	    tls_conn_new(&x->t, s->tls_ctx, s->loop, &cbs, x) != TLS_OK) {
		free(x);
		/* take it off the backlog, on the slot's own handle */
		(void)uv_accept(ls, (uv_stream_t *)&c->h);
		return -1;
	}
	x->c = c;
	c->tls = x;
	c->handles++;
	if (c->doh_want)
		tls_conn_want_h2(x->t);
	if (server_tlsproxy_accept(c, ls) != 0) /* a PROXY v2 header first? */
		return -1;
	s->st.tcp_accepted++;
	uv_timer_start(&c->idle, tlsc_hs_timeout, SERVER_TLS_HANDSHAKE_MS, 0);
	return 0;
}

static void tls_accept(uv_stream_t *ls, int status, bool doh)
{
	struct server_tcpl *l = ls->data;
	struct server *s = l->s;
	struct server_conn *c;

	if (status < 0 || s->stopping || (c = server_tcp_open(s, ls)) == NULL)
		return;
	c->doh_want = doh;
	if (s->tls_ctx == NULL) /* never: listening needs a context */
		(void)uv_accept(ls, (uv_stream_t *)&c->h);
	if (s->tls_ctx == NULL || tlsc_start(s, c, ls) != 0)
		server_tcp_close(c);
}

static void tls_accept_cb(uv_stream_t *ls, int status)
{
	tls_accept(ls, status, false);
}

void server_tls_accept_doh(uv_stream_t *ls, int status)
{
	tls_accept(ls, status, true);
}

int server_tls_plain(struct server_conn *c, const uint8_t *buf, size_t len)
{
	if (c->tls == NULL || tls_conn_write(c->tls->t, buf, len) != TLS_OK) {
		c->s->st.send_errors++;
		server_tcp_close(c);
		return -1;
	}
	return 0;
}

int server_tls_listen(struct server *s, const struct sockaddr *sa)
{
	return server_tcp_listen_cb(s, sa, tls_accept_cb);
}

bool server_tls_port(const struct cfg *c, const struct sockaddr *sa)
{
	unsigned port = 0;

	if (sa->sa_family == AF_INET)
		port = ntohs(((const struct sockaddr_in *)sa)->sin_port);
	else if (sa->sa_family == AF_INET6)
		port = ntohs(((const struct sockaddr_in6 *)sa)->sin6_port);
	return port != 0 && port == c->tls_port;
}

/* ------------------------------------------------------------------ */
/* The key and certificate                                             */

/* A listen address on tls-port needs both files; one file needs the
 * other. -1 with the problem in err. */
static int tls_files_check(const struct cfg *c, char *err, size_t errlen)
{
	bool key = c->tls_service_key[0] != '\0';
	bool pem = c->tls_service_pem[0] != '\0';
	char addr[64];
	size_t i;

	if (key != pem) {
		snprintf(err, errlen, "%s: %s needs %s too",
		         key ? c->tls_service_key_at : c->tls_service_pem_at,
		         key ? "tls-service-key" : "tls-service-pem",
		         key ? "tls-service-pem" : "tls-service-key");
		return -1;
	}
	for (i = 0; !key && i < c->n_listen; i++) {
		const struct sockaddr *sa =
			(const struct sockaddr *)&c->listen[i].sa;

		if (!server_tls_port(c, sa) && !server_doh_port(c, sa))
			continue;
		server_addr_text(sa, addr, sizeof addr);
		snprintf(err, errlen,
		         "%s: listen %s is on %s: "
		         "tls-service-key and tls-service-pem are needed",
		         c->file, addr,
		         server_tls_port(c, sa) ?
		                 "tls-port (DNS over TLS)" :
		                 "https-port (DNS over HTTPS)");
		return -1;
	}
	return 0;
}

/* The message of a key and certificate that do not load. */
static void tls_cert_error(const struct cfg *c, const char *why, char *err,
                           size_t errlen)
{
	snprintf(err, errlen,
	         "%s: tls-service-pem %s with tls-service-key %s (%s): %s",
	         c->tls_service_pem_at, c->tls_service_pem, c->tls_service_key,
	         c->tls_service_key_at, why);
}

int server_tls_load(const struct cfg *c, struct tls_ctx **out, char *err,
                    size_t errlen)
{
	char why[SERVER_TLS_WHY];

	*out = NULL;
	if (tls_files_check(c, err, errlen) != 0)
		return -1;
	if (c->tls_service_key[0] == '\0')
		return 0;
	if (tls_ctx_serve(out, c->tls_service_pem, c->tls_service_key, why,
	                  sizeof why) != TLS_OK) {
		tls_cert_error(c, why, err, errlen);
		return -1;
	}
	if (server_ticket_attach(*out, c->tls_ticket_rotate) != 0)
		log_warn("tls_ticket", "attached=no");
	return 0;
}

/* Append printf text to out (cap bytes, NUL kept); cut when full. */
__attribute__((format(printf, 3, 4))) static void
tls_cat(char *out, size_t cap, const char *fmt, ...)
{
	size_t n = strlen(out);
	va_list ap;

	if (n + 1 >= cap)
		return;
	va_start(ap, fmt);
	(void)vsnprintf(out + n, cap - n, fmt, ap);
	va_end(ap);
}

/* The subjectAltName entries (DNS names, addresses) of x, on one line. */
static void tls_sans(X509 *x, char *out, size_t cap)
{
	GENERAL_NAMES *g = X509_get_ext_d2i(x, NID_subject_alt_name, NULL,
	                                    NULL);
	char ip[INET6_ADDRSTRLEN];
	int i;

	tls_cat(out, cap, "san:");
	for (i = 0; g != NULL && i < sk_GENERAL_NAME_num(g); i++) {
		const GENERAL_NAME *n = sk_GENERAL_NAME_value(g, i);
		const ASN1_OCTET_STRING *a = n->d.iPAddress;

		if (n->type == GEN_DNS)
			tls_cat(out, cap, " DNS:%.*s",
			        ASN1_STRING_length(n->d.dNSName),
			        (const char *)
			                ASN1_STRING_get0_data(n->d.dNSName));
		else if (n->type == GEN_IPADD &&
		         inet_ntop(ASN1_STRING_length(a) == 4 ? AF_INET :
		                                                AF_INET6,
		                   ASN1_STRING_get0_data(a), ip,
		                   sizeof ip) != NULL &&
		         (ASN1_STRING_length(a) == 4 ||
		          ASN1_STRING_length(a) == 16))
			tls_cat(out, cap, " IP:%s", ip);
	}
	tls_cat(out, cap, "\n");
	GENERAL_NAMES_free(g);
}

/* Describe the first certificate of the chain file the context was
 * loaded from (subject, SANs, issuer; its notAfter kept apart). */
static void tls_describe(struct server *s, const char *pem)
{
	FILE *f = fopen(pem, "r");
	X509 *x = f != NULL ? PEM_read_X509(f, NULL, NULL, NULL) : NULL;
	char name[SERVER_TLS_WHY];
	struct tm tm;

	if (f != NULL)
		fclose(f);
	s->tls_cert[0] = '\0';
	s->tls_not_after = 0;
	if (x == NULL)
		return;
	tls_cat(s->tls_cert, sizeof s->tls_cert, "file: %s\n", pem);
	X509_NAME_oneline(X509_get_subject_name(x), name, sizeof name);
	tls_cat(s->tls_cert, sizeof s->tls_cert, "subject: %s\n", name);
	tls_sans(x, s->tls_cert, sizeof s->tls_cert);
	X509_NAME_oneline(X509_get_issuer_name(x), name, sizeof name);
	tls_cat(s->tls_cert, sizeof s->tls_cert, "issuer: %s\n", name);
	if (ASN1_TIME_to_tm(X509_get0_notAfter(x), &tm) == 1)
		s->tls_not_after = (int64_t)timegm(&tm);
	X509_free(x);
}

void server_tls_use(struct server *s, struct tls_ctx *ctx, const struct cfg *c)
{
	if (ctx != NULL)
		log_info("tls_service", "certificate=loaded reload=%s",
		         s->tls_ctx != NULL ? "yes" : "no");
	tls_ctx_free(s->tls_ctx);
	s->tls_ctx = ctx;
	if (ctx != NULL) {
		tls_describe(s, c->tls_service_pem);
		server_ticket_start(s, c->tls_ticket_rotate);
	} else
		s->tls_cert[0] = '\0';
}

size_t server_tls_cert(const struct server *s, char *out, size_t cap)
{
	int64_t now = (int64_t)time(NULL), after = s->tls_not_after;
	time_t t = (time_t)after;
	char day[32];
	struct tm tm;

	if (cap == 0 || s->tls_ctx == NULL || s->tls_cert[0] == '\0')
		return 0;
	out[0] = '\0';
	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(day, sizeof day, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(day, sizeof day, "unknown");
	tls_cat(out, cap, "%snot_after: %s\ndays_left: %lld%s\n", s->tls_cert,
	        day, (long long)((after - now) / SERVER_TLS_DAY),
	        after < now ? " (EXPIRED)" : "");
	return strlen(out);
}

int server_tls_check(const struct cfg *c, char *note, size_t notelen,
                     char *err, size_t errlen)
{
	char why[SERVER_TLS_WHY], day[32];
	int64_t after = 0, now = (int64_t)time(NULL), days;
	time_t t;
	struct tm tm;

	note[0] = '\0';
	if (tls_files_check(c, err, errlen) != 0)
		return -1;
	if (c->tls_service_key[0] == '\0')
		return 0;
	if (tls_cert_check(c->tls_service_pem, c->tls_service_key, &after, why,
	                   sizeof why) != TLS_OK) {
		tls_cert_error(c, why, err, errlen);
		return -1;
	}
	t = (time_t)after;
	if (after == 0 || gmtime_r(&t, &tm) == NULL ||
	    strftime(day, sizeof day, "%Y-%m-%d %H:%M:%S UTC", &tm) == 0)
		snprintf(day, sizeof day, "an unknown date");
	days = (after > now ? after - now : now - after) / SERVER_TLS_DAY;
	snprintf(note, notelen,
	         "curvecache: tls-service-pem %s: the key matches; %s %s "
	         "(%lld day%s %s)",
	         c->tls_service_pem, after < now ? "EXPIRED" : "expires", day,
	         (long long)days, days == 1 ? "" : "s",
	         after < now ? "ago" : "from now");
	return 0;
}
