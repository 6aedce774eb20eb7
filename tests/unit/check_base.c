/*
 * tests/unit/check_base.c - Suite "base": resolver/base/base.h, the two kinds
 * of assertion (REQUIRE stops the process in every build; DEBUG_ASSERT
 * only where NDEBUG is not set) and the shared key size; and
 * resolver/base/netaddr.h, the socket-address helpers.
 */
#include <check.h>
#include <signal.h>
#include <stdlib.h>

#include "base/base.h"
#include "base/netaddr.h"

#include <arpa/inet.h>
#include <string.h>
#include "curve.h"

static volatile int after;

START_TEST(test_require_holds)
{
	int a[4] = { 0 };
	size_t i = 3;

	REQUIRE(i < sizeof a / sizeof a[0]);
	a[i] = 1;
	ck_assert_int_eq(a[3], 1);
}
END_TEST

START_TEST(test_require_aborts)
{
	size_t i = 4;

	REQUIRE(i < 4);
	after = 1; /* never reached: the test expects SIGABRT */
}
END_TEST

START_TEST(test_key_size)
{
	ck_assert_int_eq(KEY_BYTES, CURVE_KEY_BYTES);
}
END_TEST

START_TEST(test_netaddr_v4)
{
	struct sockaddr_storage ss;
	const uint8_t ip[4] = { 192, 0, 2, 7 };
	char text[NETADDR_TEXT_MAX];
	size_t len = 99;
	const uint8_t *b;

	ck_assert_uint_eq(netaddr_make(&ss, ip, 4, 5353),
	                  sizeof(struct sockaddr_in));
	b = netaddr_bytes((struct sockaddr *)&ss, &len);
	ck_assert_uint_eq(len, 4);
	ck_assert_mem_eq(b, ip, 4);
	ck_assert_uint_eq(netaddr_port((struct sockaddr *)&ss), 5353);
	netaddr_set_port((struct sockaddr *)&ss, 53);
	netaddr_text_port((struct sockaddr *)&ss, text, sizeof text);
	ck_assert_str_eq(text, "192.0.2.7@53");
}
END_TEST

START_TEST(test_netaddr_v6_mapped)
{
	struct sockaddr_storage ss;
	uint8_t ip[16];
	char text[NETADDR_TEXT_MAX];
	size_t len;
	const uint8_t *b;

	ck_assert_int_eq(inet_pton(AF_INET6, "::ffff:127.0.0.9", ip), 1);
	ck_assert_uint_eq(netaddr_make(&ss, ip, 16, 0),
	                  sizeof(struct sockaddr_in6));
	b = netaddr_bytes((struct sockaddr *)&ss, &len);
	ck_assert_uint_eq(len, 16);
	/* the mapped form gives the IPv4 bytes */
	b = netaddr_unmapped((struct sockaddr *)&ss, &len);
	ck_assert_uint_eq(len, 4);
	ck_assert_uint_eq(b[0], 127);
	ck_assert_uint_eq(b[3], 9);
	ck_assert_int_eq(inet_pton(AF_INET6, "2001:db8::1", ip), 1);
	(void)netaddr_make(&ss, ip, 16, 853);
	b = netaddr_unmapped((struct sockaddr *)&ss, &len);
	ck_assert_uint_eq(len, 16);
	netaddr_text_port((struct sockaddr *)&ss, text, sizeof text);
	ck_assert_str_eq(text, "2001:db8::1@853");
}
END_TEST

START_TEST(test_netaddr_other)
{
	struct sockaddr_storage ss;
	char text[8];
	size_t len = 99;

	/* a length that is neither IPv4 nor IPv6 makes nothing */
	ck_assert_uint_eq(netaddr_make(&ss, "abcde", 5, 53), 0);
	ck_assert_int_eq(ss.ss_family, AF_UNSPEC);
	ss.ss_family = AF_UNIX;
	ck_assert_ptr_null(netaddr_bytes((struct sockaddr *)&ss, &len));
	ck_assert_uint_eq(len, 0);
	ck_assert_ptr_null(netaddr_unmapped((struct sockaddr *)&ss, &len));
	ck_assert_uint_eq(netaddr_port((struct sockaddr *)&ss), 0);
	netaddr_text((struct sockaddr *)&ss, text, sizeof text);
	ck_assert_str_eq(text, "?");
	/* a small buffer is cut, still a string */
	netaddr_text_port((struct sockaddr *)&ss, text, 3);
	ck_assert_str_eq(text, "?@");
}
END_TEST

static Suite *base_suite(void)
{
	Suite *s = suite_create("base");
	TCase *tc = tcase_create("base");

	tcase_add_test(tc, test_require_holds);
	tcase_add_test_raise_signal(tc, test_require_aborts, SIGABRT);
	tcase_add_test(tc, test_key_size);
	tcase_add_test(tc, test_netaddr_v4);
	tcase_add_test(tc, test_netaddr_v6_mapped);
	tcase_add_test(tc, test_netaddr_other);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(base_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
