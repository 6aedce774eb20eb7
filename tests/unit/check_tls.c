/*
 * tests/unit/check_tls.c - Suite "tls": the TLS connection layer
 * (resolver/transport/tls.c) client against server over loopback, with a
 * test CA and certificates made here: a verified handshake with ALPN
 * "dot" and data both ways, a name that does not match, an unknown CA,
 * an expired certificate, the SPKI pin right and wrong, TLS 1.3
 * session resumption, and a server that reads plain bytes before TLS on
 * the session's own socket (one descriptor per connection).
 */
#include <check.h>
#include <dirent.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "transport/tls.h"
#include "validate/tlsa.h"

#define DAY_SECONDS (24L * 3600L)

static char dir[] = "/tmp/check_tls.XXXXXX";
static char ca_pem[256], other_pem[256], leaf_pem[256], leaf_key[256],
	old_pem[256];
static uint8_t leaf_pin[TLS_PIN_BYTES], ca_pin[TLS_PIN_BYTES];
/** DANE records for pair_run's client (NULL: none). */
static const struct tlsa_set *pair_dane;

static X509 *cert_make(EVP_PKEY *key, EVP_PKEY *signer, X509 *issuer,
                       const char *cn, bool ca, long from, long to)
{
	X509 *x = X509_new();
	X509_NAME *n = X509_NAME_new();
	X509V3_CTX v3;
	X509_EXTENSION *e;
	char san[128];

	ck_assert_ptr_nonnull(x);
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), (long)random());
	X509_gmtime_adj(X509_getm_notBefore(x), from);
	X509_gmtime_adj(X509_getm_notAfter(x), to);
	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC,
	                           (const unsigned char *)cn, -1, -1, 0);
	X509_set_subject_name(x, n);
	X509_set_issuer_name(x, issuer ? X509_get_subject_name(issuer) : n);
	X509_set_pubkey(x, key);
	X509V3_set_ctx(&v3, issuer ? issuer : x, x, NULL, NULL, 0);
	snprintf(san, sizeof san, "DNS:%s", cn);
	e = X509V3_EXT_conf_nid(NULL, &v3,
	                        ca ? NID_basic_constraints :
	                             NID_subject_alt_name,
	                        ca ? "critical,CA:TRUE" : san);
	X509_add_ext(x, e, -1);
	X509_EXTENSION_free(e);
	ck_assert_int_gt(X509_sign(x, signer, EVP_sha256()), 0);
	X509_NAME_free(n);
	return x;
}

static void write_pem(const char *path, X509 *x, EVP_PKEY *k)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	if (x != NULL)
		PEM_write_X509(f, x);
	if (k != NULL)
		PEM_write_PrivateKey(f, k, NULL, NULL, 0, NULL, NULL);
	fclose(f);
}

static void pin_of(X509 *x, uint8_t out[TLS_PIN_BYTES])
{
	unsigned char *der = NULL;
	unsigned int n = 0;
	int len = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x), &der);

	ck_assert_int_gt(len, 0);
	EVP_Digest(der, (size_t)len, out, &n, EVP_sha256(), NULL);
	OPENSSL_free(der);
}

/* CA, another CA, a leaf "dot.test" and an expired leaf, as files. */
static void pki_make(void)
{
	EVP_PKEY *ck = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	EVP_PKEY *ok = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	EVP_PKEY *lk = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	X509 *ca, *other, *leaf, *old;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	ca = cert_make(ck, ck, NULL, "Test CA", true, 0, DAY_SECONDS);
	other = cert_make(ok, ok, NULL, "Other CA", true, 0, DAY_SECONDS);
	leaf = cert_make(lk, ck, ca, "dot.test", false, 0, DAY_SECONDS);
	old = cert_make(lk, ck, ca, "dot.test", false, -3 * DAY_SECONDS,
	                -2 * DAY_SECONDS);
	snprintf(ca_pem, sizeof ca_pem, "%s/ca.pem", dir);
	snprintf(other_pem, sizeof other_pem, "%s/other.pem", dir);
	snprintf(leaf_pem, sizeof leaf_pem, "%s/leaf.pem", dir);
	snprintf(leaf_key, sizeof leaf_key, "%s/leaf.key", dir);
	snprintf(old_pem, sizeof old_pem, "%s/old.pem", dir);
	write_pem(ca_pem, ca, NULL);
	write_pem(other_pem, other, NULL);
	write_pem(leaf_pem, leaf, NULL);
	write_pem(leaf_key, NULL, lk);
	write_pem(old_pem, old, NULL);
	pin_of(leaf, leaf_pin);
	pin_of(ca, ca_pin);
	X509_free(ca);
	X509_free(other);
	X509_free(leaf);
	X509_free(old);
	EVP_PKEY_free(ck);
	EVP_PKEY_free(ok);
	EVP_PKEY_free(lk);
}

static void pki_remove(void)
{
	unlink(ca_pem);
	unlink(other_pem);
	unlink(leaf_pem);
	unlink(leaf_key);
	unlink(old_pem);
	rmdir(dir);
}

/* ---- one client and one server on a loop ---- */

struct side {
	struct tls_conn *c;
	bool client, ready, closed, resumed;
	char alpn[8];
	int error;
	char got[64];
	size_t ngot;
};

struct pair {
	uv_loop_t loop;
	uv_tcp_t listener;
	struct tls_ctx *sctx, *cctx;
	struct side cli, srv;
	void *resume;
};

/* test_burst: the client's first turn writes records until the queue
 * is full (their count here). */
static bool burst;
static size_t burst_n;

static void burst_write(struct tls_conn *c)
{
	static const uint8_t rec[1000] = { 'p', 'i', 'n', 'g' };

	burst_n = 0;
	while (tls_conn_write(c, rec, sizeof rec) == TLS_OK)
		burst_n++;
}

static void s_ready(void *arg)
{
	struct side *s = arg;

	if (burst && s->client)
		burst_write(s->c);
	s->ready = true;
	s->resumed = tls_conn_resumed(s->c);
	tls_conn_alpn(s->c, s->alpn, sizeof s->alpn);
	if (s->client &&
	    tls_conn_write(s->c, (const uint8_t *)"ping", 4) != TLS_OK)
		s->error = -1;
}

static void s_data(void *arg, const uint8_t *buf, size_t len)
{
	struct side *s = arg;

	if (s->ngot + len < sizeof s->got) {
		memcpy(s->got + s->ngot, buf, len);
		s->ngot += len;
	}
	/* the server echoes what came */
	if (!s->client && tls_conn_write(s->c, buf, len) != TLS_OK)
		s->error = -1;
}

static void s_error(void *arg, int status, const char *why)
{
	struct side *s = arg;

	(void)why;
	s->error = status;
	tls_conn_close(s->c);
}

static void s_closed(void *arg)
{
	((struct side *)arg)->closed = true;
}

static const struct tls_cbs side_cbs = { s_ready, s_data, s_error, s_closed };

/* test_plain_first's server side (NULL: TLS from the first byte). */
struct plain;
static struct plain *plain_first;
static void accept_plain(struct plain *x, uv_stream_t *l);

static void on_accept(uv_stream_t *l, int status)
{
	struct pair *p = l->data;

	ck_assert_int_eq(status, 0);
	ck_assert_int_eq(tls_conn_new(&p->srv.c, p->sctx, &p->loop, &side_cbs,
	                              &p->srv),
	                 TLS_OK);
	if (plain_first != NULL)
		accept_plain(plain_first, l);
	else
		ck_assert_int_eq(tls_conn_accept(p->srv.c, l), TLS_OK);
}

static void pair_start(struct pair *p, const char *chain, const char *bundle)
{
	struct sockaddr_in sa;

	memset(p, 0, sizeof *p);
	ck_assert_int_eq(uv_loop_init(&p->loop), 0);
	ck_assert_int_eq(tls_ctx_server(&p->sctx, chain, leaf_key), TLS_OK);
	ck_assert_int_eq(tls_ctx_client(&p->cctx, bundle), TLS_OK);
	uv_ip4_addr("127.0.0.1", 0, &sa);
	uv_tcp_init(&p->loop, &p->listener);
	p->listener.data = p;
	ck_assert_int_eq(uv_tcp_bind(&p->listener, (struct sockaddr *)&sa, 0),
	                 0);
	ck_assert_int_eq(uv_listen((uv_stream_t *)&p->listener, 8, on_accept),
	                 0);
}

/* Connect, say "ping" once ready, run until the echo or an error. */
static void pair_run(struct pair *p, const char *name, const uint8_t *pin)
{
	struct sockaddr_storage ss;
	int len = sizeof ss;
	struct tls_auth a = { name, pin, &p->resume, pair_dane };
	int i;

	p->cli = (struct side){ .client = true };
	p->srv = (struct side){ .client = false };
	uv_tcp_getsockname(&p->listener, (struct sockaddr *)&ss, &len);
	ck_assert_int_eq(tls_conn_new(&p->cli.c, p->cctx, &p->loop, &side_cbs,
	                              &p->cli),
	                 TLS_OK);
	ck_assert_int_eq(tls_conn_connect(p->cli.c, (struct sockaddr *)&ss,
	                                  NULL, &a),
	                 TLS_OK);
	for (i = 0; i < 2000 && p->cli.error == 0 && p->cli.ngot < 4; i++)
		uv_run(&p->loop, UV_RUN_ONCE);
	if (p->cli.error == 0)
		tls_conn_close(p->cli.c);
	if (p->srv.c != NULL && p->srv.error == 0)
		tls_conn_close(p->srv.c);
	while (!p->cli.closed || (p->srv.c != NULL && !p->srv.closed))
		uv_run(&p->loop, UV_RUN_ONCE);
}

static void pair_end(struct pair *p)
{
	uv_close((uv_handle_t *)&p->listener, NULL);
	uv_run(&p->loop, UV_RUN_DEFAULT);
	ck_assert_int_eq(uv_loop_close(&p->loop), 0);
	tls_ctx_free(p->sctx);
	tls_ctx_free(p->cctx);
	tls_resume_free(&p->resume);
}

START_TEST(test_verified)
{
	struct pair p;
	pair_start(&p, leaf_pem, ca_pem);
	pair_run(&p, "dot.test", NULL);
	ck_assert_int_eq(p.cli.error, 0);
	ck_assert(p.cli.ready);
	ck_assert_uint_eq(p.cli.ngot, 4);
	ck_assert_mem_eq(p.cli.got, "ping", 4);
	ck_assert_str_eq(p.cli.alpn, "dot");
	ck_assert_str_eq(p.srv.alpn, "dot");
	ck_assert(!p.cli.resumed);
	pair_end(&p);
}
END_TEST

/* A turn's records up to the write queue's cap (one record each; the
 * cap counts their bytes): then EFULL, and the connection still works
 * (its write BIO, grown by the burst, replaced). */
START_TEST(test_burst)
{
	struct pair p;
	size_t rec = 1000, over = 22; /* TLS 1.3 AES-GCM: header, type, tag */

	burst = true;
	pair_start(&p, leaf_pem, ca_pem);
	pair_run(&p, "dot.test", NULL);
	burst = false;
	ck_assert_uint_eq(burst_n, (TLS_WQUEUE_MAX - rec) / (rec + over) + 1);
	ck_assert_int_eq(p.cli.error, 0);
	ck_assert_uint_ge(p.cli.ngot, 4);
	ck_assert_mem_eq(p.cli.got, "ping", 4);
	pair_end(&p);
}
END_TEST

START_TEST(test_alpn)
{
	struct tls_ctx *x;

	ck_assert_int_eq(tls_ctx_client(&x, "/nonexistent/bundle"),
	                 TLS_EBUNDLE);
	ck_assert_int_eq(tls_ctx_server(&x, leaf_pem, ca_pem), TLS_ECERT);
	ck_assert_str_eq(tls_conn_alpn(NULL, (char[4]){ 0 }, 4), "");
	ck_assert_str_ne(tls_strerror(TLS_EPIN), tls_strerror(TLS_EVERIFY));
}
END_TEST

static void expect_fail(const char *chain, const char *bundle,
                        const char *name, const uint8_t *pin, int status)
{
	struct pair p;

	pair_start(&p, chain, bundle);
	pair_run(&p, name, pin);
	ck_assert_int_eq(p.cli.error, status);
	ck_assert(!p.cli.ready || status == TLS_EPIN);
	ck_assert_uint_eq(p.srv.ngot, 0); /* not one byte of plaintext */
	pair_end(&p);
}

START_TEST(test_wrong_name)
{
	expect_fail(leaf_pem, ca_pem, "other.test", NULL, TLS_EVERIFY);
}
END_TEST

START_TEST(test_unknown_ca)
{
	expect_fail(leaf_pem, other_pem, "dot.test", NULL, TLS_EVERIFY);
}
END_TEST

START_TEST(test_expired)
{
	expect_fail(old_pem, ca_pem, "dot.test", NULL, TLS_EVERIFY);
}
END_TEST

START_TEST(test_pin)
{
	struct pair p;
	uint8_t bad[TLS_PIN_BYTES];

	pair_start(&p, leaf_pem, ca_pem);
	pair_run(&p, "dot.test", leaf_pin);
	ck_assert_int_eq(p.cli.error, 0);
	ck_assert_uint_eq(p.cli.ngot, 4);
	pair_end(&p);
	memcpy(bad, leaf_pin, sizeof bad);
	bad[0] ^= 1;
	expect_fail(leaf_pem, ca_pem, "dot.test", bad, TLS_EPIN);
}
END_TEST

/* The leaf, then its CA, into path (a server's chain). */
static void chain_make(const char *path)
{
	char buf[4096];
	FILE *out, *in;
	size_t n;
	int i;

	ck_assert_ptr_nonnull(out = fopen(path, "w"));
	for (i = 0; i < 2; i++) {
		ck_assert_ptr_nonnull(in = fopen(i ? ca_pem : leaf_pem, "r"));
		while ((n = fread(buf, 1, sizeof buf, in)) > 0)
			ck_assert_uint_eq(fwrite(buf, 1, n, out), n);
		fclose(in);
	}
	fclose(out);
}

/* An opportunistic client's connection to a server sending chain,
 * checked with pin or pair_dane and name; its error (0: it worked). */
static int unauth_run(const char *chain, const char *name, const uint8_t *pin)
{
	struct pair p;
	int err;

	pair_start(&p, chain, ca_pem);
	tls_ctx_free(p.cctx);
	ck_assert_int_eq(tls_ctx_client_unauth(&p.cctx), TLS_OK);
	pair_run(&p, name, pin);
	err = p.cli.error;
	if (err == 0)
		ck_assert_uint_eq(p.cli.ngot, 4);
	else
		ck_assert_uint_eq(p.srv.ngot, 0);
	pair_end(&p);
	return err;
}

/* An opportunistic client with a pin (DANE-EE 3 1 1): the leaf's key
 * matches; a key of another certificate the server sends (here its CA,
 * appended to the chain) does not, since nothing verifies that chain. */
START_TEST(test_unauth_pin)
{
	char chain[300];

	snprintf(chain, sizeof chain, "%s/chain.pem", dir);
	chain_make(chain);
	ck_assert_int_eq(unauth_run(chain, "", leaf_pin), 0);
	ck_assert_int_eq(unauth_run(chain, "", ca_pin), TLS_EPIN);
	unlink(chain);
}
END_TEST

/* Add the record USAGE 1 1 (the SHA-256 of an SPKI: pin) to s. */
static void dane_add(struct tlsa_set *s, uint8_t usage, const uint8_t *pin)
{
	uint8_t rd[3 + TLS_PIN_BYTES] = { usage, 1, 1 };

	memcpy(rd + 3, pin, TLS_PIN_BYTES);
	ck_assert_int_eq(tlsa_set_add(s, rd, sizeof rd), TLSA_OK);
}

/* DANE on an opportunistic connection (tls_peer.c): DANE-EE on the
 * leaf (any name); DANE-TA on the CA sent after it, the path verified
 * and the leaf naming the NS (dot.test), after a record that does not
 * match (a rollover); the CA as DANE-EE, another name for DANE-TA and a
 * chain without the CA fail with TLS_EPIN, no query written. */
START_TEST(test_unauth_dane)
{
	struct tlsa_set s;
	char chain[300];

	snprintf(chain, sizeof chain, "%s/chain.pem", dir);
	chain_make(chain);
	pair_dane = &s;
	memset(&s, 0, sizeof s);
	dane_add(&s, 3, ca_pin);
	ck_assert_int_eq(unauth_run(chain, "dot.test", NULL), TLS_EPIN);
	dane_add(&s, 3, leaf_pin);
	ck_assert_int_eq(unauth_run(chain, "any.name", NULL), 0);
	memset(&s, 0, sizeof s);
	dane_add(&s, 3, ca_pin);
	dane_add(&s, 2, ca_pin);
	ck_assert_int_eq(unauth_run(chain, "dot.test", NULL), 0);
	ck_assert_int_eq(unauth_run(chain, "other.test", NULL), TLS_EPIN);
	ck_assert_int_eq(unauth_run(leaf_pem, "dot.test", NULL), TLS_EPIN);
	pair_dane = NULL;
	unlink(chain);
}
END_TEST

START_TEST(test_resume)
{
	struct pair p;

	pair_start(&p, leaf_pem, ca_pem);
	pair_run(&p, "dot.test", NULL);
	ck_assert_int_eq(p.cli.error, 0);
	ck_assert_ptr_nonnull(p.resume);
	ck_assert(!tls_conn_resumed(NULL));
	pair_run(&p, "dot.test", NULL);
	ck_assert_int_eq(p.cli.error, 0);
	ck_assert_uint_eq(p.cli.ngot, 4);
	ck_assert(p.cli.resumed);
	pair_end(&p);
}
END_TEST

/* The server side's check of its files (curvecache -t, start, reload). */
START_TEST(test_cert_check)
{
	struct tls_ctx *x = NULL;
	int64_t after = 0, now = (int64_t)time(NULL);
	char why[256];

	ck_assert_int_eq(tls_cert_check(leaf_pem, leaf_key, &after, why,
	                                sizeof why),
	                 TLS_OK);
	ck_assert(after > now + DAY_SECONDS - 600 &&
	          after < now + DAY_SECONDS + 600);
	ck_assert_int_eq(tls_cert_check(old_pem, leaf_key, &after, why,
	                                sizeof why),
	                 TLS_OK); /* expired, but the key matches */
	ck_assert(after < now);
	ck_assert_int_eq(tls_cert_check(ca_pem, leaf_key, NULL, why,
	                                sizeof why),
	                 TLS_ECERT);
	ck_assert_ptr_nonnull(strstr(why, "does not match"));
	ck_assert_int_eq(tls_cert_check("/nonexistent.pem", leaf_key, NULL,
	                                why, sizeof why),
	                 TLS_ECERT);
	ck_assert_ptr_nonnull(strstr(why, "certificate"));
	ck_assert_int_eq(tls_cert_check(leaf_pem, leaf_pem, NULL, why,
	                                sizeof why),
	                 TLS_ECERT);
	ck_assert_ptr_nonnull(strstr(why, "private key"));
	ck_assert_int_eq(tls_ctx_serve(&x, ca_pem, leaf_key, why, sizeof why),
	                 TLS_ECERT);
	ck_assert_int_eq(tls_ctx_serve(&x, leaf_pem, leaf_key, why,
	                               sizeof why),
	                 TLS_OK);
	tls_ctx_free(x);
	ck_assert_int_eq(tls_conn_pause(NULL, true), TLS_EINVAL);
}
END_TEST

/* ---- plain bytes before TLS on the session's own socket ---- */

/* test_plain_first: the server's side of a balancer's connection. */
struct plain {
	struct pair *p;
	uint8_t buf[16];
	size_t len, want;
	bool served;
	int err;
};

static void pl_room(void *arg, uint8_t **buf, size_t *len)
{
	struct plain *x = arg;

	*buf = x->buf + x->len;
	*len = x->want - x->len;
}

static void pl_got(void *arg, ssize_t n)
{
	struct plain *x = arg;

	if (n < 0) {
		x->err = (int)n;
		return;
	}
	x->len += (size_t)n;
	if (x->len == x->want)
		x->served = tls_conn_serve(x->p->srv.c) == TLS_OK;
}

static const struct tls_plain_cbs pl_cbs = { pl_room, pl_got };

/* on_accept's way in test_plain_first: accepted, the preface read. */
static void accept_plain(struct plain *x, uv_stream_t *l)
{
	ck_assert_int_eq(tls_conn_accept_held(x->p->srv.c, l), TLS_OK);
	ck_assert_int_eq(tls_conn_read_plain(x->p->srv.c, &pl_cbs, x), TLS_OK);
}

/* Descriptors of the process. */
static int fds_open(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	ck_assert_ptr_nonnull(d);
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

/* A ClientHello from a libssl client on memory BIOs, after `pre`. */
static size_t hello_after(const char *pre, uint8_t *out, size_t cap)
{
	SSL_CTX *x = SSL_CTX_new(TLS_client_method());
	SSL *ssl = SSL_new(x);
	BIO *r = BIO_new(BIO_s_mem()), *w = BIO_new(BIO_s_mem());
	size_t n = strlen(pre);
	int k;

	SSL_set_bio(ssl, r, w);
	SSL_set_connect_state(ssl);
	ck_assert_int_le(SSL_do_handshake(ssl), 0); /* wants the reply */
	memcpy(out, pre, n);
	k = BIO_read(w, out + n, (int)(cap - n));
	ck_assert_int_gt(k, 5);
	SSL_free(ssl);
	SSL_CTX_free(x);
	return n + (size_t)k;
}

/* A PROXY-like preface and the ClientHello behind it in one segment: the
 * plain read takes exactly the preface, TLS then answers the ClientHello
 * from the same socket (a handshake record back), and the connection
 * costs the server one descriptor: the socket it accepted. */
START_TEST(test_plain_first)
{
	static const char pre[] = "PREFACE-12";
	struct pair p;
	struct plain x = { &p, { 0 }, 0, sizeof pre - 1, false, 0 };
	struct sockaddr_storage ss;
	int len = sizeof ss, fd, before, i;
	uint8_t seg[4096], back[8];
	ssize_t got = -1;
	size_t n;

	pair_start(&p, leaf_pem, ca_pem);
	plain_first = &x;
	uv_tcp_getsockname(&p.listener, (struct sockaddr *)&ss, &len);
	fd = socket(AF_INET, SOCK_STREAM, 0);
	ck_assert_int_eq(connect(fd, (struct sockaddr *)&ss, (socklen_t)len),
	                 0);
	n = hello_after(pre, seg, sizeof seg);
	before = fds_open();
	ck_assert_int_eq(send(fd, seg, n, 0), (ssize_t)n);
	for (i = 0; i < 2000 && got <= 0 && x.err == 0; i++) {
		uv_run(&p.loop, UV_RUN_NOWAIT);
		got = recv(fd, back, sizeof back, MSG_DONTWAIT);
		usleep(1000);
	}
	ck_assert_int_eq(x.err, 0);
	ck_assert(x.served);
	ck_assert_mem_eq(x.buf, pre, sizeof pre - 1);
	ck_assert_int_ge(got, 3);
	ck_assert_uint_eq(back[0], 22); /* a handshake record: ServerHello */
	ck_assert_int_eq(fds_open(), before + 1);
	close(fd);
	tls_conn_close(p.srv.c);
	while (!p.srv.closed)
		uv_run(&p.loop, UV_RUN_ONCE);
	pair_end(&p);
	plain_first = NULL;
}
END_TEST

static Suite *tls_suite(void)
{
	Suite *s = suite_create("tls");
	TCase *t = tcase_create("loopback");

	tcase_add_unchecked_fixture(t, pki_make, pki_remove);
	tcase_add_test(t, test_verified);
	tcase_add_test(t, test_alpn);
	tcase_add_test(t, test_burst);
	tcase_add_test(t, test_wrong_name);
	tcase_add_test(t, test_unknown_ca);
	tcase_add_test(t, test_expired);
	tcase_add_test(t, test_pin);
	tcase_add_test(t, test_unauth_pin);
	tcase_add_test(t, test_unauth_dane);
	tcase_add_test(t, test_resume);
	tcase_add_test(t, test_cert_check);
	tcase_add_test(t, test_plain_first);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(tls_suite());
	int failed;

	srunner_set_fork_status(r, CK_NOFORK);
	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
