/*
 * tests/unit/check_tlsaddr.c - Suite "tlsaddr": forward servers written
 * ADDR[@PORT][#NAME[^PIN]] (resolver/conf/cfg_tlsaddr.c): ports, the
 * AUTH-NAME, the SHA-256 pin in base64, and what is refused.
 */
#include <arpa/inet.h>
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"

/* base64 of the 32 bytes 0x00..0x1f */
#define PIN_0_31 "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8="

static int parse(const char *s, struct cfg_addr *a, struct cfg_tls *t)
{
	return cfg_tlsaddr_parse(s, strlen(s), a, t);
}

static unsigned port_of(const struct cfg_addr *a)
{
	const struct sockaddr_in *v4 = (const struct sockaddr_in *)&a->sa;

	return ntohs(v4->sin_port);
}

START_TEST(test_plain)
{
	struct cfg_addr a;
	struct cfg_tls t;

	ck_assert_int_eq(parse("192.0.2.1", &a, &t), 0);
	ck_assert_uint_eq(port_of(&a), 53);
	ck_assert_str_eq(t.name, "");
	ck_assert_int_eq(parse("192.0.2.1@5353", &a, &t), 0);
	ck_assert_uint_eq(port_of(&a), 5353);
	ck_assert_int_eq(parse("2001:db8::1", &a, &t), 0);
	ck_assert_str_eq(t.name, "");
}
END_TEST

START_TEST(test_tls)
{
	struct cfg_addr a;
	struct cfg_tls t;

	ck_assert_int_eq(parse("9.9.9.9#dns.quad9.net", &a, &t), 0);
	ck_assert_uint_eq(port_of(&a), 853);
	ck_assert_str_eq(t.name, "dns.quad9.net");
	ck_assert(!t.has_pin);
	ck_assert_int_eq(parse("1.1.1.1@8853#cloudflare-dns.com.", &a, &t), 0);
	ck_assert_uint_eq(port_of(&a), 8853);
	ck_assert_str_eq(t.name, "cloudflare-dns.com");
	ck_assert_int_eq(parse("::1@853#dot.lab", &a, &t), 0);
	ck_assert_str_eq(t.name, "dot.lab");
}
END_TEST

START_TEST(test_pin)
{
	struct cfg_addr a;
	struct cfg_tls t;
	size_t i;

	ck_assert_int_eq(parse("127.0.0.1@853#dot.lab^" PIN_0_31, &a, &t), 0);
	ck_assert(t.has_pin);
	ck_assert_str_eq(t.name, "dot.lab");
	for (i = 0; i < CFG_PIN_BYTES; i++)
		ck_assert_uint_eq(t.pin[i], i);
}
END_TEST

START_TEST(test_refused)
{
	static const char *const bad[] = {
		"",
		"#dot.lab",
		"192.0.2.1#",
		"192.0.2.1#^" PIN_0_31,
		"192.0.2.1#a..b",
		"192.0.2.1#a b",
		"192.0.2.1#.a",
		"192.0.2.1@#x",
		"192.0.2.1@99999#x",
		"192.0.2.1#x^",
		"192.0.2.1#x^AAEC",
		/* not canonical: the last digit leaves bits set */
		"192.0.2.1#x^AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh9=",
		"192.0.2.1#x^AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
		"192.0.2.1#x^AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8==",
		"192.0.2.1#x^AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdH*8=",
		"not-an-address#x",
	};
	struct cfg_addr a;
	struct cfg_tls t;
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++)
		ck_assert_msg(parse(bad[i], &a, &t) != 0, "took \"%s\"",
		              bad[i]);
}
END_TEST

START_TEST(test_bounds)
{
	/* a name of 300 characters; the text is not NUL-terminated */
	char buf[320];
	struct cfg_addr a;
	struct cfg_tls t;

	memcpy(buf, "10.0.0.1#", 9);
	memset(buf + 9, 'a', sizeof buf - 9);
	ck_assert_int_ne(cfg_tlsaddr_parse(buf, sizeof buf, &a, &t), 0);
	/* only the first len bytes count */
	ck_assert_int_eq(cfg_tlsaddr_parse("10.0.0.1#ab^junk", 11, &a, &t), 0);
	ck_assert_str_eq(t.name, "ab");
}
END_TEST

static Suite *tlsaddr_suite(void)
{
	Suite *s = suite_create("tlsaddr");
	TCase *t = tcase_create("parse");

	tcase_add_test(t, test_plain);
	tcase_add_test(t, test_tls);
	tcase_add_test(t, test_pin);
	tcase_add_test(t, test_refused);
	tcase_add_test(t, test_bounds);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(tlsaddr_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
