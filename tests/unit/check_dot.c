/*
 * tests/unit/check_dot.c - Suite "dot": the parts of DNS over TLS to
 * forwarders (resolver/transport/dot.c) that need no connection: EDNS(0)
 * padding of queries to 128-byte blocks (RFC 7830, RFC 8467), the
 * edns-tcp-keepalive option (RFC 7828: empty in queries, before the
 * padding; the TIMEOUT read from answers within bounds) and which
 * TLS authentication a forwarder address gets (per forward zone, and
 * never none for an address that is a TLS forwarder anywhere), and the
 * framing of answers (dot_frame.c: reads cut anywhere, two messages in
 * one read, a length of 0, a length above the reader's bound), and the
 * one 2-byte length reader under it and the clients' side
 * (wire/frame.h: nothing held, a split prefix, a length of 0, a buffer
 * exactly full, one byte short, a length of max and one over).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "transport/dot.h"
#include "wire/frame.h"

/* A query for www.example.lab A with an empty OPT record (DO=1). */
static const uint8_t query_opt[] = {
	0x12, 0x34, 0x01, 0x00, 0,    1,   0,   0,    0,   0,   0,
	1,    3,    'w',  'w',  'w',  7,   'e', 'x',  'a', 'm', 'p',
	'l',  'e',  3,    'l',  'a',  'b', 0,   0,    1,   0,   1,
	0,    0,    41,   0x04, 0xd0, 0,   0,   0x80, 0,   0,   0,
};

START_TEST(test_pad)
{
	uint8_t pkt[512];
	size_t n, rdlen;

	memcpy(pkt, query_opt, sizeof query_opt);
	n = dot_pad(pkt, sizeof query_opt, sizeof pkt);
	ck_assert_uint_eq(n, DOT_PAD_BLOCK);
	rdlen = (size_t)pkt[sizeof query_opt - 2] << 8 |
	        pkt[sizeof query_opt - 1];
	ck_assert_uint_eq(rdlen, n - sizeof query_opt);
	/* the option: code 12, its length, zeros */
	ck_assert_uint_eq(pkt[sizeof query_opt + 1], 12);
	ck_assert_uint_eq((size_t)pkt[sizeof query_opt + 2] << 8 |
	                          pkt[sizeof query_opt + 3],
	                  n - sizeof query_opt - 4);
	ck_assert_uint_eq(pkt[n - 1], 0);
	/* no room: unchanged */
	memcpy(pkt, query_opt, sizeof query_opt);
	ck_assert_uint_eq(dot_pad(pkt, sizeof query_opt, 100),
	                  sizeof query_opt);
	/* without OPT (arcount 0): unchanged */
	memcpy(pkt, query_opt, sizeof query_opt);
	pkt[11] = 0;
	ck_assert_uint_eq(dot_pad(pkt, sizeof query_opt - 11, sizeof pkt),
	                  sizeof query_opt - 11);
	/* cut short anywhere: unchanged, never read past len */
	for (n = 0; n < sizeof query_opt; n++) {
		memcpy(pkt, query_opt, sizeof query_opt);
		ck_assert_uint_eq(dot_pad(pkt, n, sizeof pkt), n);
	}
}
END_TEST

START_TEST(test_keepalive_add)
{
	uint8_t pkt[512];
	size_t n, ka = sizeof query_opt;

	memcpy(pkt, query_opt, sizeof query_opt);
	n = dot_keepalive_add(pkt, sizeof query_opt, sizeof pkt);
	ck_assert_uint_eq(n, sizeof query_opt + 4);
	n = dot_pad(pkt, n, sizeof pkt);
	ck_assert_uint_eq(n, DOT_PAD_BLOCK);
	/* RDLENGTH covers both options */
	ck_assert_uint_eq((size_t)pkt[ka - 2] << 8 | pkt[ka - 1],
	                  n - sizeof query_opt);
	/* first edns-tcp-keepalive (11), empty in a query ... */
	ck_assert_uint_eq(pkt[ka], 0);
	ck_assert_uint_eq(pkt[ka + 1], 11);
	ck_assert_uint_eq(pkt[ka + 2], 0);
	ck_assert_uint_eq(pkt[ka + 3], 0);
	/* ... then padding (12), last, to the block */
	ck_assert_uint_eq(pkt[ka + 5], 12);
	ck_assert_uint_eq((size_t)pkt[ka + 6] << 8 | pkt[ka + 7], n - ka - 8);
	/* no room, or not an OPT-last query: unchanged */
	memcpy(pkt, query_opt, sizeof query_opt);
	ck_assert_uint_eq(dot_keepalive_add(pkt, sizeof query_opt,
	                                    sizeof query_opt + 3),
	                  sizeof query_opt);
	for (n = 0; n < sizeof query_opt; n++) {
		memcpy(pkt, query_opt, sizeof query_opt);
		ck_assert_uint_eq(dot_keepalive_add(pkt, n, sizeof pkt), n);
	}
}
END_TEST

/* An answer: www.example.lab A 192.0.2.1 (compressed owner), then an
 * OPT record with a cookie option and edns-tcp-keepalive TIMEOUT 25. */
static const uint8_t answer_ka[] = {
	0x12, 0x34, 0x81, 0x80, 0,   1,   0,   1,    0,   0,   0,   1, 3,
	'w',  'w',  'w',  7,    'e', 'x', 'a', 'm',  'p', 'l', 'e', 3, 'l',
	'a',  'b',  0,    0,    1,   0,   1,   0xc0, 12,  0,   1,   0, 1,
	0,    0,    0x0e, 0x10, 0,   4,   192, 0,    2,   1,   0,   0, 41,
	0x04, 0xd0, 0,    0,    0,   0,   0,   18,   0,   10,  0,   8, 1,
	2,    3,    4,    5,    6,   7,   8,   0,    11,  0,   2,   0, 25,
};

/* The keepalive option and padding in one walk: the bytes of one after
 * the other, whole or cut short anywhere. */
START_TEST(test_opts_add)
{
	uint8_t one[512], two[512];
	size_t n, a, b;

	for (n = 0; n <= sizeof query_opt; n++) {
		memcpy(one, query_opt, n);
		memcpy(two, query_opt, n);
		a = dot_pad(one, dot_keepalive_add(one, n, sizeof one),
		            sizeof one);
		b = dot_opts_add(two, n, sizeof two);
		ck_assert_uint_eq(a, b);
		ck_assert(memcmp(one, two, a) == 0);
	}
	ck_assert_uint_eq(b, DOT_PAD_BLOCK);
	/* no room for the padding: the keepalive option alone */
	memcpy(two, query_opt, sizeof query_opt);
	ck_assert_uint_eq(dot_opts_add(two, sizeof query_opt,
	                               sizeof query_opt + 4),
	                  sizeof query_opt + 4);
}
END_TEST

START_TEST(test_keepalive_of)
{
	uint8_t pkt[sizeof answer_ka];
	uint16_t t = 0;
	size_t n;

	ck_assert(dot_keepalive_of(answer_ka, sizeof answer_ka, &t));
	ck_assert_uint_eq(t, 25);
	/* cut short anywhere: none, and never a read past len (ASan) */
	for (n = 0; n < sizeof answer_ka; n++) {
		uint8_t *cut = malloc(n + 1);

		memcpy(cut, answer_ka, n);
		ck_assert(!dot_keepalive_of(cut, n, &t));
		free(cut);
	}
	/* an option length that is not 2: ignored */
	memcpy(pkt, answer_ka, sizeof pkt);
	pkt[sizeof pkt - 19] = 17;
	pkt[sizeof pkt - 3] = 1;
	ck_assert(!dot_keepalive_of(pkt, sizeof pkt - 1, &t));
	/* an option that runs past the RDATA: none */
	memcpy(pkt, answer_ka, sizeof pkt);
	pkt[sizeof pkt - 3] = 9;
	ck_assert(!dot_keepalive_of(pkt, sizeof pkt, &t));
	/* without the keepalive option (RDLENGTH 12): none */
	memcpy(pkt, answer_ka, sizeof pkt);
	pkt[sizeof pkt - 19] = 12;
	ck_assert(!dot_keepalive_of(pkt, sizeof pkt - 6, &t));
	/* TIMEOUT 0 is a value */
	memcpy(pkt, answer_ka, sizeof pkt);
	pkt[sizeof pkt - 1] = 0;
	ck_assert(dot_keepalive_of(pkt, sizeof pkt, &t));
	ck_assert_uint_eq(t, 0);
	ck_assert(!dot_keepalive_of(NULL, 0, &t));
}
END_TEST

/* The idle timeout an answer gives: 7/8 of its TIMEOUT, at most
 * DOT_IDLE_MS; without the option, the current one. */
START_TEST(test_idle_of)
{
	uint8_t pkt[sizeof answer_ka];
	char text[DOT_QNAME_TEXT];

	memcpy(pkt, answer_ka, sizeof pkt);
	ck_assert_uint_eq(dot_idle_of(pkt, sizeof pkt, 7), 2500 - 2500 / 8);
	pkt[sizeof pkt - 1] = 0;
	ck_assert_uint_eq(dot_idle_of(pkt, sizeof pkt, 7), 0);
	pkt[sizeof pkt - 2] = 0xff; /* 6528 s */
	ck_assert_uint_eq(dot_idle_of(pkt, sizeof pkt, 7), DOT_IDLE_MS);
	ck_assert_uint_eq(dot_idle_of(pkt, sizeof pkt - 1, 7), 7);
	dot_qname_text(answer_ka, sizeof answer_ka, text, sizeof text);
	ck_assert_str_eq(text, "www.example.lab.");
	dot_qname_text(answer_ka, 20, text, sizeof text);
	ck_assert_str_eq(text, "-");
}
END_TEST

static struct cfg c;

static void zone(const char *line)
{
	char buf[256], why[128];

	ck_assert_uint_lt(c.n_forward, CFG_MAX_ZONES);
	strcpy(buf, line);
	ck_assert_int_eq(cfg_zone_parse(buf, false, &c.forward[c.n_forward],
	                                why, sizeof why),
	                 0);
	c.n_forward++;
}

START_TEST(test_auth_of)
{
	struct cfg_addr a, plain;
	const struct cfg_tls *t;
	static const uint8_t sub[] = "\3sub\4pin1\4test";
	static const uint8_t other[] = "\5other\4test";

	memset(&c, 0, sizeof c);
	zone("pin1.test. 127.0.0.1@853#dot.lab^"
	     "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=");
	zone("dot.test. 127.0.0.1@853#dot.lab");
	zone("plain.test. 127.0.0.2");
	ck_assert_int_eq(cfg_addr_parse("127.0.0.1@853", 53, &a), 0);
	ck_assert_int_eq(cfg_addr_parse("127.0.0.2", 53, &plain), 0);
	t = dot_auth_of(&c, (const struct sockaddr *)&a.sa, sub, sizeof sub);
	ck_assert_ptr_nonnull(t);
	ck_assert(t->has_pin);
	t = dot_auth_of(&c, (const struct sockaddr *)&a.sa, other,
	                sizeof other);
	ck_assert_ptr_nonnull(t); /* a TLS forwarder: never plain */
	ck_assert_str_eq(t->name, "dot.lab");
	ck_assert_ptr_null(dot_auth_of(&c, (const struct sockaddr *)&plain.sa,
	                               NULL, 0));
	/* the same address on port 53 is another server */
	ck_assert_int_eq(cfg_addr_parse("127.0.0.1", 53, &a), 0);
	ck_assert_ptr_null(dot_auth_of(&c, (const struct sockaddr *)&a.sa,
	                               NULL, 0));
}
END_TEST

/* The TLS context is made at start only when some forwarder is asked
 * over TLS. */
START_TEST(test_cfg_tls)
{
	memset(&c, 0, sizeof c);
	ck_assert(!dot_cfg_tls(NULL));
	zone("plain.test. 127.0.0.2");
	ck_assert(!dot_cfg_tls(&c));
	c.forward[0].tls_upstream = true;
	ck_assert(dot_cfg_tls(&c));
	c.forward[0].tls_upstream = false;
	zone("dot.test. 127.0.0.3 127.0.0.1@853#dot.lab");
	ck_assert(dot_cfg_tls(&c));
}
END_TEST

/* Feed (in, n) to fr once: the outcome, *msg and *mlen set on a
 * message, *left the bytes not taken. */
static int frame_feed(struct dot_frame *fr, const uint8_t *in, size_t n,
                      uint8_t **msg, size_t *mlen, size_t *left)
{
	int rc = dot_frame_next(fr, &in, &n, msg, mlen);

	*left = n;
	return rc;
}

/* Two messages in one read, then a length split across two reads, then
 * a message cut over three reads. */
START_TEST(test_frame_reads)
{
	static const uint8_t two[] = {
		0, 3, 'a', 'b', 'c', 0, 2, 'd', 'e', 0
	};
	struct dot_frame fr;
	const uint8_t *in = two;
	size_t n = sizeof two, mlen = 0, left;
	uint8_t *msg = NULL;

	memset(&fr, 0, sizeof fr);
	ck_assert_int_eq(dot_frame_next(&fr, &in, &n, &msg, &mlen),
	                 DOT_FRAME_MSG);
	ck_assert_uint_eq(mlen, 3);
	ck_assert(memcmp(msg, "abc", 3) == 0);
	ck_assert_uint_eq(n, 5);
	ck_assert_int_eq(dot_frame_next(&fr, &in, &n, &msg, &mlen),
	                 DOT_FRAME_MSG);
	ck_assert_uint_eq(mlen, 2);
	ck_assert(memcmp(msg, "de", 2) == 0);
	/* the last byte: half of the next length */
	ck_assert_int_eq(dot_frame_next(&fr, &in, &n, &msg, &mlen),
	                 DOT_FRAME_MORE);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(fr.len, 1);
	/* its other half, and the message over two more reads */
	ck_assert_int_eq(frame_feed(&fr, (const uint8_t *)"\4wx", 3, &msg,
	                            &mlen, &left),
	                 DOT_FRAME_MORE);
	ck_assert_int_eq(frame_feed(&fr, (const uint8_t *)"y", 1, &msg, &mlen,
	                            &left),
	                 DOT_FRAME_MORE);
	ck_assert_int_eq(frame_feed(&fr, (const uint8_t *)"z\0", 2, &msg,
	                            &mlen, &left),
	                 DOT_FRAME_MSG);
	ck_assert_uint_eq(mlen, 4);
	ck_assert(memcmp(msg, "wxyz", 4) == 0);
	ck_assert_uint_eq(left, 1);
	/* no input: nothing */
	ck_assert_int_eq(frame_feed(&fr, two, 0, &msg, &mlen, &left),
	                 DOT_FRAME_MORE);
	ck_assert_uint_eq(fr.cap, DOT_FRAME_FIRST);
	dot_frame_free(&fr);
	ck_assert_ptr_null(fr.buf);
}
END_TEST

/* A length of 0 is not DNS; a length above max is refused before any
 * byte of it is kept; the largest message is one buffer of its size. */
START_TEST(test_frame_bounds)
{
	static const uint8_t zero[] = { 0, 1, 'a', 0, 0, 0, 1, 'b' };
	static const uint8_t big[] = { 0, 101, 'a' };
	struct dot_frame fr;
	size_t mlen = 0, left, i;
	uint8_t *msg = NULL, b;

	memset(&fr, 0, sizeof fr);
	ck_assert_int_eq(frame_feed(&fr, zero, sizeof zero, &msg, &mlen,
	                            &left),
	                 DOT_FRAME_MSG);
	ck_assert_int_eq(frame_feed(&fr, zero + 3, left, &msg, &mlen, &left),
	                 DOT_FRAME_EEMPTY);
	ck_assert_uint_eq(left, 3); /* the rest is not taken */
	ck_assert_uint_eq(fr.len, 0);
	fr.max = 100;
	ck_assert_int_eq(frame_feed(&fr, big, sizeof big, &msg, &mlen, &left),
	                 DOT_FRAME_EBIG);
	ck_assert_uint_eq(left, 1);
	ck_assert_uint_eq(fr.cap, DOT_FRAME_FIRST);
	/* 65,535 bytes, one at a time */
	fr.max = 0;
	b = 0xff;
	for (i = 0; i < 2 + DOT_FRAME_MAX - 1; i++)
		ck_assert_int_eq(frame_feed(&fr, &b, 1, &msg, &mlen, &left),
		                 DOT_FRAME_MORE);
	ck_assert_int_eq(frame_feed(&fr, &b, 1, &msg, &mlen, &left),
	                 DOT_FRAME_MSG);
	ck_assert_uint_eq(mlen, DOT_FRAME_MAX);
	ck_assert_uint_eq(fr.cap, 2 + DOT_FRAME_MAX);
	/* between messages a large buffer goes, a small one may stay */
	dot_frame_trim(&fr, DOT_FRAME_FIRST);
	ck_assert_ptr_null(fr.buf);
	ck_assert_int_eq(frame_feed(&fr, zero, 1, &msg, &mlen, &left),
	                 DOT_FRAME_MORE);
	dot_frame_trim(&fr, 0); /* within a frame: kept */
	ck_assert_ptr_nonnull(fr.buf);
	ck_assert_int_eq(frame_feed(&fr, zero + 1, 2, &msg, &mlen, &left),
	                 DOT_FRAME_MSG);
	dot_frame_trim(&fr, DOT_FRAME_FIRST);
	ck_assert_ptr_nonnull(fr.buf);
	dot_frame_trim(&fr, 0);
	ck_assert_ptr_null(fr.buf);
	dot_frame_free(&fr);
}
END_TEST

/* wire_frame on a copy of (in, n) in a buffer of exactly n bytes (so
 * that a read past it is ASan's): its result, *mlen its length. */
static int frame_at(const uint8_t *in, size_t n, size_t max, size_t *mlen)
{
	uint8_t *b = n > 0 ? malloc(n) : NULL;
	int rc;

	if (n > 0) {
		ck_assert_ptr_nonnull(b);
		memcpy(b, in, n);
	}
	*mlen = 99;
	rc = wire_frame(b, n, max, mlen);
	free(b);
	return rc;
}

/* The pure reader: what a buffer's first bytes are, read no further
 * than its length. */
START_TEST(test_wire_frame)
{
	static const uint8_t f[] = { 0, 3, 'a', 'b', 'c', 0, 0 };
	static const uint8_t big[] = { 0xff, 0xff };
	size_t m;

	/* nothing held, and half a prefix: more, no length yet */
	ck_assert_int_eq(frame_at(f, 0, 512, &m), WIRE_FRAME_MORE);
	ck_assert_uint_eq(m, 0);
	ck_assert_int_eq(frame_at(f, 1, 512, &m), WIRE_FRAME_MORE);
	ck_assert_uint_eq(m, 0);
	/* the prefix whole: the length, the message not yet */
	ck_assert_int_eq(frame_at(f, 2, 512, &m), WIRE_FRAME_MORE);
	ck_assert_uint_eq(m, 3);
	/* one byte short, exactly full, and more behind it */
	ck_assert_int_eq(frame_at(f, 4, 512, &m), WIRE_FRAME_MORE);
	ck_assert_int_eq(frame_at(f, 5, 512, &m), WIRE_FRAME_WHOLE);
	ck_assert_uint_eq(m, 3);
	ck_assert_int_eq(frame_at(f, sizeof f, 512, &m), WIRE_FRAME_WHOLE);
	ck_assert_uint_eq(m, 3);
	/* a length of 0: not DNS, as soon as the prefix is whole */
	ck_assert_int_eq(frame_at(f + 5, 1, 512, &m), WIRE_FRAME_MORE);
	ck_assert_int_eq(frame_at(f + 5, 2, 512, &m), WIRE_FRAME_EMPTY);
	ck_assert_uint_eq(m, 0);
	/* max taken, one over refused before any byte of it */
	ck_assert_int_eq(frame_at(f, 5, 3, &m), WIRE_FRAME_WHOLE);
	ck_assert_int_eq(frame_at(f, 2, 2, &m), WIRE_FRAME_BIG);
	ck_assert_uint_eq(m, 3);
	ck_assert_int_eq(frame_at(big, 2, WIRE_FRAME_MAX, &m),
	                 WIRE_FRAME_MORE);
	ck_assert_uint_eq(m, WIRE_FRAME_MAX);
	ck_assert_int_eq(frame_at(big, 2, WIRE_FRAME_MAX - 1, &m),
	                 WIRE_FRAME_BIG);
}
END_TEST

/* The stream reader at the same edges: a prefix split before a length
 * of 0, a read that ends exactly with its message, a message of max
 * bytes and one of max + 1. */
START_TEST(test_frame_edges)
{
	static const uint8_t s[] = { 0, 4, 'a', 'b', 'c', 'd', 0, 5, 0, 0 };
	struct dot_frame fr;
	size_t mlen = 0, left;
	uint8_t *msg = NULL;

	memset(&fr, 0, sizeof fr);
	fr.max = 4;
	ck_assert_int_eq(frame_feed(&fr, s, 6, &msg, &mlen, &left),
	                 DOT_FRAME_MSG);
	ck_assert_uint_eq(mlen, 4);
	ck_assert_uint_eq(left, 0);
	ck_assert_uint_eq(fr.len, 0);
	ck_assert_int_eq(frame_feed(&fr, s + 6, 2, &msg, &mlen, &left),
	                 DOT_FRAME_EBIG); /* 5 > max */
	ck_assert_uint_eq(left, 0);
	ck_assert_int_eq(frame_feed(&fr, s + 8, 1, &msg, &mlen, &left),
	                 DOT_FRAME_MORE);
	ck_assert_uint_eq(fr.len, 1);
	ck_assert_int_eq(frame_feed(&fr, s + 9, 1, &msg, &mlen, &left),
	                 DOT_FRAME_EEMPTY);
	ck_assert_uint_eq(fr.len, 0);
	dot_frame_free(&fr);
}
END_TEST

static Suite *dot_suite(void)
{
	Suite *s = suite_create("dot");
	TCase *t = tcase_create("pure");

	tcase_add_test(t, test_pad);
	tcase_add_test(t, test_auth_of);
	tcase_add_test(t, test_cfg_tls);
	tcase_add_test(t, test_keepalive_add);
	tcase_add_test(t, test_opts_add);
	tcase_add_test(t, test_keepalive_of);
	tcase_add_test(t, test_idle_of);
	tcase_add_test(t, test_frame_reads);
	tcase_add_test(t, test_frame_bounds);
	tcase_add_test(t, test_wire_frame);
	tcase_add_test(t, test_frame_edges);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(dot_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
