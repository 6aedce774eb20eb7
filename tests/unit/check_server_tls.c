/*
 * tests/unit/check_server_tls.c - Suite "server_tls": the padding of
 * answers over DNS over TLS (resolver/front_tls/server_tls.c, RFC 8467: 468-
 * byte blocks), curvecache -t's check of tls-service-key/-pem against
 * the listen addresses on tls-port, and those options.
 */
#include <check.h>
#include <openssl/ssl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "front/server.h"
#include "front_tls/server_ticket.h"
#include "front_tls/server_tls.h"
#include "transport/tls.h"
#include "wire/frame.h"
#include "wire/wire.h"

/** Room for a padded answer and some. */
#define T_CAP 2048

/* An answer to a.lab. A: header, question, one A record, then an OPT
 * record (when opt) with the option bytes given. */
static size_t answer_make(uint8_t *m, bool opt, const uint8_t *ob, size_t olen)
{
	static const uint8_t head[] = { 0x12, 0x34, 0x81, 0x80, 0, 1,   0, 1,
		                        0,    0,    0,    0,    1, 'a', 3, 'l',
		                        'a',  'b',  0,    0,    1, 0,   1 };
	static const uint8_t an[] = { 0xc0, 12,   0, 1, 0,   1, 0, 0,
		                      1,    0x2c, 0, 4, 192, 0, 2, 1 };
	size_t n = 0;

	memcpy(m, head, sizeof head);
	n = sizeof head;
	memcpy(m + n, an, sizeof an);
	n += sizeof an;
	if (!opt)
		return n;
	m[11] = 1; /* ARCOUNT */
	m[n++] = 0;
	m[n++] = 0;
	m[n++] = WIRE_TYPE_OPT;
	m[n++] = 0x04; /* payload 1232 */
	m[n++] = 0xd0;
	memset(m + n, 0, 4); /* TTL: rcode, version, flags */
	n += 4;
	m[n++] = (uint8_t)(olen >> 8);
	m[n++] = (uint8_t)olen;
	if (olen > 0)
		memcpy(m + n, ob, olen);
	return n + olen;
}

START_TEST(test_pad_block)
{
	uint8_t m[T_CAP];
	size_t len = answer_make(m, true, NULL, 0), n;
	struct wire_msg msg;
	struct wire_rr rr[4];

	n = server_tls_pad(m, len, sizeof m);
	ck_assert_uint_eq(n, SERVER_TLS_PAD_BLOCK);
	ck_assert_int_eq(wire_msg_parse(&msg, m, n, rr, 4), WIRE_OK);
	ck_assert_int_ne(msg.opt, WIRE_NONE);
	ck_assert_uint_eq(rr[msg.opt].rdlen, n - len);
	/* option 12, its length, zeros */
	ck_assert_uint_eq(m[len + 1], 12);
	ck_assert_uint_eq((size_t)m[len + 2] << 8 | m[len + 3], n - len - 4);
	ck_assert_uint_eq(m[n - 1], 0);
	/* padded already: left alone */
	ck_assert_uint_eq(server_tls_pad(m, n, sizeof m), n);
}
END_TEST

/* An answer whose OPT record holds one unknown option of olen bytes
 * in all. */
static size_t answer_filled(uint8_t *m, size_t olen)
{
	uint8_t ob[T_CAP];

	memset(ob, 0, sizeof ob);
	ob[1] = 65; /* an unknown option code */
	ob[2] = (uint8_t)((olen - 4) >> 8);
	ob[3] = (uint8_t)(olen - 4);
	return answer_make(m, true, ob, olen);
}

START_TEST(test_pad_exact_and_big)
{
	uint8_t m[T_CAP];
	size_t base = answer_make(m, true, NULL, 0), len;

	/* the option header alone fills the block: padding of length 0 */
	len = answer_filled(m, SERVER_TLS_PAD_BLOCK - WIRE_OPT_HDR - base);
	ck_assert_uint_eq(server_tls_pad(m, len, sizeof m),
	                  SERVER_TLS_PAD_BLOCK);
	ck_assert_uint_eq(m[len + 2], 0);
	ck_assert_uint_eq(m[len + 3], 0);
	/* a longer answer: two blocks */
	len = answer_filled(m, SERVER_TLS_PAD_BLOCK);
	ck_assert_uint_eq(server_tls_pad(m, len, sizeof m),
	                  2 * SERVER_TLS_PAD_BLOCK);
}
END_TEST

START_TEST(test_pad_not)
{
	uint8_t m[T_CAP];
	size_t len;

	/* no OPT: the client did not speak EDNS */
	len = answer_make(m, false, NULL, 0);
	ck_assert_uint_eq(server_tls_pad(m, len, sizeof m), len);
	/* no room */
	len = answer_make(m, true, NULL, 0);
	ck_assert_uint_eq(server_tls_pad(m, len, len + 10), len);
	/* bytes after the last record */
	m[len] = 0;
	ck_assert_uint_eq(server_tls_pad(m, len + 1, sizeof m), len + 1);
	/* cut short, or counts past the end */
	ck_assert_uint_eq(server_tls_pad(m, len - 1, sizeof m), len - 1);
	m[11] = 2;
	ck_assert_uint_eq(server_tls_pad(m, len, sizeof m), len);
	ck_assert_uint_eq(server_tls_pad(m, 5, sizeof m), 5);
	ck_assert_uint_eq(server_tls_pad(NULL, 0, 0), 0);
}
END_TEST

/* A config with listen addresses and the two files' names. */
static void cfg_make(struct cfg *c, const char *listen, const char *key,
                     const char *pem)
{
	cfg_defaults(c);
	snprintf(c->file, sizeof c->file, "/etc/x.conf");
	if (listen != NULL)
		ck_assert_int_eq(cfg_addr_parse(listen, 53, &c->listen[0]), 0);
	snprintf(c->tls_service_key, sizeof c->tls_service_key, "%s", key);
	snprintf(c->tls_service_pem, sizeof c->tls_service_pem, "%s", pem);
	snprintf(c->tls_service_key_at, sizeof c->tls_service_key_at,
	         "/etc/x.conf:7");
	snprintf(c->tls_service_pem_at, sizeof c->tls_service_pem_at,
	         "/etc/x.conf:8");
}

START_TEST(test_check_cfg)
{
	struct cfg *c = malloc(sizeof *c);
	char note[256], err[512];

	ck_assert_ptr_nonnull(c);
	cfg_make(c, NULL, "", "");
	ck_assert_int_eq(server_tls_check(c, note, sizeof note, err,
	                                  sizeof err),
	                 0);
	ck_assert_str_eq(note, "");
	cfg_make(c, "127.0.0.1@853", "", "");
	ck_assert_int_eq(server_tls_check(c, note, sizeof note, err,
	                                  sizeof err),
	                 -1);
	ck_assert_ptr_nonnull(strstr(err, "127.0.0.1@853 is on tls-port"));
	cfg_make(c, NULL, "/k.pem", "");
	ck_assert_int_eq(server_tls_check(c, note, sizeof note, err,
	                                  sizeof err),
	                 -1);
	ck_assert_str_eq(err, "/etc/x.conf:7: tls-service-key needs "
	                      "tls-service-pem too");
	cfg_make(c, NULL, "/nonexistent/k.pem", "/nonexistent/c.pem");
	ck_assert_int_eq(server_tls_check(c, note, sizeof note, err,
	                                  sizeof err),
	                 -1);
	ck_assert_ptr_nonnull(strstr(err, "/etc/x.conf:8: tls-service-pem "
	                                  "/nonexistent/c.pem"));
	free(c);
}
END_TEST

/* The options (conf/cfg.c): Unbound's names, defaults, FILE:LINE. */
START_TEST(test_options)
{
	static const char text[] = "server:\n"
				   "  interface: 127.0.0.1@853\n"
				   "  tls-port: 8853\n"
				   "  tls-service-key: /dev/null\n"
				   "  tls-service-pem: /dev/null\n";
	static const char ub[] = "server:\n"
				 "  ssl-port: 8853\n"
				 "  ssl-service-key: /dev/null\n"
				 "  ssl-service-pem: /dev/null\n"
				 "  tls-ciphers: \"HIGH\"\n"
				 "  pad-responses: yes\n";
	struct cfg *c = malloc(sizeof *c);
	char err[CFG_ERR_BYTES];

	ck_assert_ptr_nonnull(c);
	cfg_defaults(c);
	ck_assert_uint_eq(c->tls_port, 853);
	ck_assert_int_eq(cfg_parse("t.conf", text, strlen(text), c, err,
	                           sizeof err),
	                 0);
	ck_assert_uint_eq(c->tls_port, 8853);
	ck_assert_str_eq(c->tls_service_key, "/dev/null");
	ck_assert_str_eq(c->tls_service_pem_at, "t.conf:5");
	cfg_defaults(c);
	ck_assert_int_eq(cfg_parse("t.conf", "tls-port: 0\n", 12, c, err,
	                           sizeof err),
	                 -1);
	ck_assert_ptr_nonnull(strstr(err, "t.conf:1: bad tls-port"));
	cfg_defaults(c);
	ck_assert_int_eq(cfg_parse("t.conf", "tls-service-key: /nonexistent\n",
	                           30, c, err, sizeof err),
	                 -1);
	ck_assert_ptr_nonnull(strstr(err, "t.conf:1: tls-service-key "));
	cfg_defaults(c);
	ck_assert_int_eq(cfg_parse("t.conf", ub, strlen(ub), c, err,
	                           sizeof err),
	                 0);
	ck_assert_uint_eq(c->tls_port, 8853);
	ck_assert_str_eq(c->tls_service_key_at, "t.conf:3");
	ck_assert_ptr_nonnull(strstr(c->notes, "tls-ciphers: ignored"));
	ck_assert_int_eq(cfg_parse("t.conf", "pad-responses: no\n", 18, c, err,
	                           sizeof err),
	                 -1);
	cfg_defaults(c);
	ck_assert_int_eq(cfg_parse("t.conf", "https-port: 8443\n", 17, c, err,
	                           sizeof err),
	                 0);
	ck_assert_uint_eq(c->https_port, 8443);
	ck_assert_uint_eq(c->tls_ticket_rotate, 3600);
	ck_assert_int_eq(cfg_parse("t.conf", "tls-ticket-rotate: 60\n", 22, c,
	                           err, sizeof err),
	                 0);
	ck_assert_uint_eq(c->tls_ticket_rotate, 60);
	ck_assert_int_eq(cfg_parse("t.conf", "tls-ticket-rotate: 0\n", 21, c,
	                           err, sizeof err),
	                 -1);
	ck_assert_ptr_nonnull(strstr(err, "bad tls-ticket-rotate"));
	free(c);
}
END_TEST

/* incoming-num-tcp: the slots of TCP, DoT and DoH connections. */
START_TEST(test_incoming_num_tcp)
{
	static const char *const bad[] = { "incoming-num-tcp: 0\n",
		                           "incoming-num-tcp: 65537\n",
		                           "incoming-num-tcp: ten\n" };
	struct cfg *c = malloc(sizeof *c);
	char err[CFG_ERR_BYTES];
	size_t i;

	ck_assert_ptr_nonnull(c);
	cfg_defaults(c);
	ck_assert_uint_eq(c->incoming_num_tcp, 256);
	ck_assert_int_eq(cfg_parse("t.conf",
	                           "server:\n incoming-num-tcp: 10\n", 30, c,
	                           err, sizeof err),
	                 0);
	ck_assert_uint_eq(c->incoming_num_tcp, 10);
	ck_assert_ptr_null(strstr(c->notes, "incoming-num-tcp"));
	ck_assert_int_eq(cfg_parse("t.conf", "incoming-num-tcp: 65536\n", 24,
	                           c, err, sizeof err),
	                 0);
	ck_assert_uint_eq(c->incoming_num_tcp, 65536);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		cfg_defaults(c);
		ck_assert_int_eq(cfg_parse("t.conf", bad[i], strlen(bad[i]), c,
		                           err, sizeof err),
		                 -1);
		ck_assert_ptr_nonnull(strstr(err, "t.conf:1: bad "
		                                  "incoming-num-tcp"));
	}
	free(c);
}
END_TEST

/* edns-tcp-keepalive (RFC 7828): asked in a query, added to an answer. */
START_TEST(test_keepalive)
{
	/* a.lab. A with an OPT record holding keepalive (no TIMEOUT) */
	static const uint8_t q[] = { 0, 1, 1, 0,   0, 1,   0,   0,    0, 0,
		                     0, 1, 1, 'a', 3, 'l', 'a', 'b',  0, 0,
		                     1, 0, 1, 0,   0, 41,  4,   0xd0, 0, 0,
		                     0, 0, 0, 4,   0, 11,  0,   0 };
	uint8_t m[sizeof q + 16];
	size_t n;

	ck_assert(server_keepalive_asked(q, sizeof q));
	ck_assert(!server_keepalive_asked(q, sizeof q - 1));
	ck_assert(!server_keepalive_asked(q, 23)); /* no OPT */
	memcpy(m, q, sizeof q);
	m[sizeof q - 3] = 12; /* another option (padding) */
	ck_assert(!server_keepalive_asked(m, sizeof q));
	/* an answer with an empty OPT: keepalive 100 (10 s) appended */
	memcpy(m, q, sizeof q - 4);
	m[33] = 0;
	n = server_keepalive_add(m, sizeof q - 4, sizeof m);
	ck_assert_uint_eq(n, sizeof q + 2);
	ck_assert_uint_eq(m[33], 6);
	ck_assert_uint_eq(m[35], 11);
	ck_assert_uint_eq(m[37], 2);
	ck_assert_uint_eq((unsigned)m[38] << 8 | m[39], 100);
	ck_assert(server_keepalive_asked(m, n));
	/* once only, never past cap, nothing without OPT */
	ck_assert_uint_eq(server_keepalive_add(m, n, sizeof m), n);
	memcpy(m, q, sizeof q - 4);
	m[33] = 0;
	ck_assert_uint_eq(server_keepalive_add(m, sizeof q - 4, sizeof q),
	                  sizeof q - 4);
	ck_assert_uint_eq(server_keepalive_add(m, 23, sizeof m), 23);
}
END_TEST

/** The bound of a query over TCP and DoT (server_tcp.c). */
#define Q_MAX SERVER_TCP_QUERY_MAX

/* DoT framing without a socket: a read bigger than the frame buffer
 * goes to the stage, comes back as room is made; a query that fills the
 * buffer exactly is whole (wire_frame with the bound server_tcp.c
 * gives it), lengths 0 and 4097 are bad. */
START_TEST(test_take_and_frame)
{
	static uint8_t rbuf[2 + SERVER_TCP_QUERY_MAX];
	static uint8_t in[3 * SERVER_TCP_QUERY_MAX];
	struct server_tls_stage st = { NULL, 0 };
	size_t rlen = 0, need = 0;

	memset(in, 'q', sizeof in);
	in[0] = SERVER_TCP_QUERY_MAX >> 8; /* a frame of 4096 bytes */
	in[1] = 0;
	ck_assert_int_eq(wire_frame(in, 1, Q_MAX, &need), WIRE_FRAME_MORE);
	ck_assert(server_tls_take(rbuf, sizeof rbuf, &rlen, &st, in,
	                          sizeof in));
	ck_assert_uint_eq(rlen, sizeof rbuf);
	ck_assert_uint_eq(st.len, sizeof in - sizeof rbuf);
	ck_assert_int_eq(wire_frame(rbuf, rlen, Q_MAX, &need),
	                 WIRE_FRAME_WHOLE);
	ck_assert_uint_eq(need, SERVER_TCP_QUERY_MAX);
	ck_assert_int_eq(wire_frame(rbuf, rlen - 1, Q_MAX, &need),
	                 WIRE_FRAME_MORE); /* one byte short */
	rlen = 0;                          /* the frame taken */
	server_tls_unstage(rbuf, sizeof rbuf, &rlen, &st);
	ck_assert_uint_eq(rlen, sizeof rbuf);
	/* the next "length" is 'q' 'q': over 4096 */
	ck_assert_int_eq(wire_frame(rbuf, rlen, Q_MAX, &need), WIRE_FRAME_BIG);
	rbuf[0] = SERVER_TCP_QUERY_MAX >> 8; /* 4097: one over */
	rbuf[1] = 1;
	ck_assert_int_eq(wire_frame(rbuf, 2, Q_MAX, &need), WIRE_FRAME_BIG);
	rbuf[0] = rbuf[1] = 0;
	ck_assert_int_eq(wire_frame(rbuf, rlen, Q_MAX, &need),
	                 WIRE_FRAME_EMPTY);
	/* more than the stage holds: refused */
	while (st.len + sizeof in <= SERVER_TLS_STAGE_MAX)
		ck_assert(server_tls_take(rbuf, sizeof rbuf, &rlen, &st, in,
		                          sizeof in));
	ck_assert(!server_tls_take(rbuf, sizeof rbuf, &rlen, &st, in,
	                           sizeof in));
	rlen = 0;
	while (st.len > 0) {
		server_tls_unstage(rbuf, sizeof rbuf, &rlen, &st);
		rlen = 0;
	}
	ck_assert_ptr_null(st.buf);
}
END_TEST

/* A ticket key of one byte of name, born at `born`. */
static struct server_ticket_key tkey(uint8_t id, int64_t born)
{
	struct server_ticket_key k;

	memset(&k, id, sizeof k);
	k.born = born;
	return k;
}

/* The ticket keys' rotation, the time an argument: a key encrypts for
 * one interval, decrypts for two (the second time as the previous key,
 * renewed), and no ticket outlives two intervals. */
START_TEST(test_ticket_rotation)
{
	struct server_ticket_ring r;
	struct server_ticket_key k1 = tkey(1, 1000), k2 = tkey(2, 1100);
	struct server_ticket_key k3 = tkey(3, 1250);
	uint8_t other[SERVER_TICKET_NAME];
	int64_t t;

	memset(&r, 0, sizeof r);
	memset(other, 9, sizeof other);
	r.life = 100;
	ck_assert(server_ticket_due(&r, 0)); /* no key yet */
	ck_assert_int_eq(server_ticket_find(&r, k1.name, 1000), -1);
	server_ticket_push(&r, &k1);
	ck_assert(!server_ticket_due(&r, 1000));
	ck_assert(!server_ticket_due(&r, 1099));
	ck_assert(server_ticket_due(&r, 1100)); /* an interval on */
	ck_assert(server_ticket_due(&r, 999));  /* the clock went back */
	ck_assert_int_eq(server_ticket_find(&r, k1.name, 1050), 0);
	ck_assert_int_eq(server_ticket_find(&r, other, 1050), -1);
	ck_assert_int_eq(server_ticket_find(&r, k1.name, 999), -1);
	/* one rotation: k1 still decrypts, as the previous key */
	server_ticket_push(&r, &k2);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_int_eq(server_ticket_find(&r, k2.name, 1150), 0);
	ck_assert_int_eq(server_ticket_find(&r, k1.name, 1150), 1);
	ck_assert_int_eq(server_ticket_find(&r, k1.name, 1199), 1);
	ck_assert_int_eq(server_ticket_find(&r, k1.name, 1200), -1);
	/* a key never decrypts two intervals after its birth */
	for (t = 900; t < 1400; t++) {
		if (server_ticket_find(&r, k1.name, t) >= 0)
			ck_assert_int_lt(t - k1.born, 2 * r.life);
		if (server_ticket_find(&r, k2.name, t) >= 0)
			ck_assert_int_lt(t - k2.born, 2 * r.life);
	}
	/* a late rotation: k1 is gone, k2 decrypts until 1300 */
	server_ticket_push(&r, &k3);
	ck_assert_uint_eq(r.n, 2);
	ck_assert_int_eq(server_ticket_find(&r, k1.name, 1260), -1);
	ck_assert_int_eq(server_ticket_find(&r, k2.name, 1260), 1);
	ck_assert_int_eq(server_ticket_find(&r, k2.name, 1300), -1);
	ck_assert_int_eq(server_ticket_find(&r, k3.name, 1300), 0);
	ck_assert(!server_ticket_due(&r, 1349));
	ck_assert(server_ticket_due(&r, 1350));
}
END_TEST

/* libssl's context of a tls_ctx takes the callback,
 * and its session timeout becomes two intervals. */
START_TEST(test_ticket_attach)
{
	struct tls_ctx *x = NULL;
	SSL_CTX *ssl;

	ck_assert_int_eq(tls_ctx_client_unauth(&x), TLS_OK);
	ssl = tls_ctx_libssl(x);
	ck_assert_ptr_eq(SSL_CTX_get_ssl_method(ssl), TLS_client_method());
	ck_assert_int_eq(server_ticket_attach(x, 60), 0);
	ck_assert_int_eq(SSL_CTX_get_timeout(ssl), 120);
	tls_ctx_free(x);
}
END_TEST

static Suite *server_tls_suite(void)
{
	Suite *s = suite_create("server_tls");
	TCase *t = tcase_create("pad");

	tcase_add_test(t, test_pad_block);
	tcase_add_test(t, test_pad_exact_and_big);
	tcase_add_test(t, test_pad_not);
	tcase_add_test(t, test_check_cfg);
	tcase_add_test(t, test_options);
	tcase_add_test(t, test_incoming_num_tcp);
	tcase_add_test(t, test_keepalive);
	tcase_add_test(t, test_ticket_rotation);
	tcase_add_test(t, test_take_and_frame);
	tcase_add_test(t, test_ticket_attach);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(server_tls_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
