/*
 * tests/unit/check_dot.c - Suite "dot": the parts of DNS over TLS to
 * forwarders (resolver/transport/dot.c) that need no connection: EDNS(0)
 * padding of queries to 128-byte blocks (RFC 7830, RFC 8467) and which
 * TLS authentication a forwarder address gets (per forward zone, and
 * never none for an address that is a TLS forwarder anywhere).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "transport/dot.h"

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

static Suite *dot_suite(void)
{
	Suite *s = suite_create("dot");
	TCase *t = tcase_create("pure");

	tcase_add_test(t, test_pad);
	tcase_add_test(t, test_auth_of);
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
