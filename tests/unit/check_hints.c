/*
 * tests/unit/check_hints.c - Suite "hints": the root hints file parser.
 */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hints.h"
#include "wire.h"

static char err[HINTS_ERR_BYTES];

static int parse(const char *text, struct hints **h)
{
	err[0] = '\0';
	return hints_parse("t.hints", text, strlen(text), h, err, sizeof err);
}

/* Expect a failure with status st whose message starts with prefix. */
static void reject(const char *text, int st, const char *prefix)
{
	struct hints *h = NULL;

	ck_assert_int_eq(parse(text, &h), st);
	ck_assert_ptr_null(h);
	ck_assert_msg(strncmp(err, prefix, strlen(prefix)) == 0,
	              "error '%s' does not start with '%s'", err, prefix);
}

static void addr_text(const struct hints *h, size_t i, size_t j, char *out,
                      size_t cap)
{
	struct sockaddr_storage ss;
	socklen_t len;

	ck_assert_int_eq(hints_addr(h, i, j, &ss, &len), HINTS_OK);
	if (ss.ss_family == AF_INET) {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		ck_assert_uint_eq(ntohs(in->sin_port), 53);
		ck_assert_uint_eq(len, sizeof(*in));
		inet_ntop(AF_INET, &in->sin_addr, out, (socklen_t)cap);
	} else {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		ck_assert_uint_eq(ntohs(in6->sin6_port), 53);
		inet_ntop(AF_INET6, &in6->sin6_addr, out, (socklen_t)cap);
	}
}

START_TEST(test_basic)
{
	struct hints *h = NULL;
	char txt[WIRE_NAME_TEXT_MAX], a[64];
	const uint8_t *n;
	size_t len;

	ck_assert_int_eq(parse("; comment\n\n"
	                       "a.root.lab.  3600000 A 127.53.0.1 ; x\n"
	                       ".  3600000 IN NS A.Root.Lab.\n"
	                       ".\t3600000\tns\tb.root.lab\r\n"
	                       "b.root.lab 0 IN AAAA ::1\n"
	                       "b.root.lab 0 a 127.0.0.2", &h), HINTS_OK);
	ck_assert_uint_eq(hints_ns_count(h), 2);
	n = hints_ns_name(h, 0, &len);
	ck_assert_int_eq(wire_name_to_text(n, len, txt, sizeof txt, NULL), 0);
	ck_assert_str_eq(txt, "a.root.lab.");
	ck_assert_uint_eq(hints_addr_count(h, 0), 1);
	addr_text(h, 0, 0, a, sizeof a);
	ck_assert_str_eq(a, "127.53.0.1");
	ck_assert_uint_eq(hints_addr_count(h, 1), 2);
	addr_text(h, 1, 0, a, sizeof a);
	ck_assert_str_eq(a, "::1");
	addr_text(h, 1, 1, a, sizeof a);
	ck_assert_str_eq(a, "127.0.0.2");
	ck_assert_ptr_null(hints_ns_name(h, 2, &len));
	ck_assert_uint_eq(hints_addr_count(h, 2), 0);
	hints_free(h);
}
END_TEST

START_TEST(test_duplicates)
{
	struct hints *h = NULL;

	ck_assert_int_eq(parse(". 1 NS a.x.\n. 1 NS A.X.\n"
	                       "a.x. 1 A 192.0.2.1\na.x. 1 A 192.0.2.1\n",
	                       &h), HINTS_OK);
	ck_assert_uint_eq(hints_ns_count(h), 1);
	ck_assert_uint_eq(hints_addr_count(h, 0), 1);
	hints_free(h);
}
END_TEST

START_TEST(test_shipped_files)
{
	static const char *files[] = { SRCDIR "/etc/root.hints",
	                               SRCDIR "/tests/lab/root.hints" };
	static const size_t want[] = { 13, 1 };
	size_t i;

	for (i = 0; i < 2; i++) {
		struct hints *h = NULL;

		ck_assert_msg(hints_load(files[i], &h, err, sizeof err) ==
		              HINTS_OK, "%s", err);
		ck_assert_uint_eq(hints_ns_count(h), want[i]);
		ck_assert_uint_ge(hints_addr_count(h, 0), 1);
		hints_free(h);
	}
}
END_TEST

START_TEST(test_reject)
{
	reject("", HINTS_EEMPTY, "t.hints:0: ");
	reject("; only\n", HINTS_EEMPTY, "t.hints:1: no root server");
	reject(". 1 NS a.x.\n", HINTS_ENOADDR, "t.hints:1: ");
	reject(". 1 NS a.x.\na.x. 1 A 192.0.2.1\nb.x. 1 A 192.0.2.2\n",
	       HINTS_EORPHAN, "t.hints:3: ");
	reject(". 1 NS a.x.\na.x. 1 A 192.0.2.300\n", HINTS_ESYNTAX,
	       "t.hints:2: bad IPv4 address");
	reject(". 1 NS a.x.\na.x. 1 AAAA 192.0.2.3\n", HINTS_ESYNTAX,
	       "t.hints:2: bad IPv6 address");
	reject("\n\n. x NS a.x.\n", HINTS_ESYNTAX, "t.hints:3: bad TTL");
	reject(". 4294967296 NS a.x.\n", HINTS_ESYNTAX, "t.hints:1: bad TTL");
	reject(". 2147483648 NS a.x.\n", HINTS_ESYNTAX, "t.hints:1: bad TTL");
	reject(". 1 CH NS a.x.\n", HINTS_ESYNTAX, "t.hints:1: class");
	reject(". 1 IN MX a.x.\n", HINTS_ESYNTAX, "t.hints:1: type 'MX'");
	reject(". 1 NS\n", HINTS_ESYNTAX, "t.hints:1: expected");
	reject(". 1 IN NS a.x. extra\n", HINTS_ESYNTAX, "t.hints:1: expected");
	reject(". 1 IN NS a.x. b c d e\n", HINTS_ESYNTAX,
	       "t.hints:1: expected");
	reject("$TTL 5\n", HINTS_ESYNTAX, "t.hints:1: directive");
	reject("x. 1 NS a.x.\n", HINTS_ESYNTAX, "t.hints:1: NS record not");
	reject(". 1 NS a..x.\n", HINTS_ESYNTAX, "t.hints:1: bad NS name");
	reject("a..x. 1 A 1.2.3.4\n", HINTS_ESYNTAX, "t.hints:1: bad owner");
}
END_TEST

START_TEST(test_reject_nul_and_long)
{
	char big[HINTS_MAX_LINE + 40];
	struct hints *h = NULL;
	static const char nul[] = ". 1 NS a.x.\n\0\n";

	ck_assert_int_eq(hints_parse("t.hints", nul, sizeof nul - 1, &h, err,
	                             sizeof err), HINTS_ESYNTAX);
	ck_assert_str_eq(err, "t.hints:2: NUL byte");
	memset(big, ' ', sizeof big);
	big[sizeof big - 1] = '\0';
	reject(big, HINTS_ESYNTAX, "t.hints:1: line longer");
	ck_assert_int_eq(hints_load("/nonexistent/x.hints", &h, err,
	                            sizeof err), HINTS_EIO);
	ck_assert_ptr_null(h);
	ck_assert(strstr(err, "/nonexistent/x.hints: ") == err);
	ck_assert_int_eq(hints_parse("t", NULL, 1, &h, NULL, 0),
	                 HINTS_EINVAL);
}
END_TEST

START_TEST(test_limits)
{
	char *text = malloc(64 * 1024);
	struct hints *h = NULL;
	size_t i, n = 0;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < HINTS_MAX_NS; i++)
		n += (size_t)sprintf(text + n, ". 1 NS n%zu.x.\n"
		                     "n%zu.x. 1 A 192.0.2.%zu\n", i, i, i);
	ck_assert_int_eq(parse(text, &h), HINTS_OK);
	ck_assert_uint_eq(hints_ns_count(h), HINTS_MAX_NS);
	hints_free(h);
	sprintf(text + n, ". 1 NS one.more.\n");
	reject(text, HINTS_ETOOMANY, "t.hints:65: more than");
	n = (size_t)sprintf(text, ". 1 NS a.x.\n");
	for (i = 0; i <= HINTS_MAX_ADDRS; i++)
		n += (size_t)sprintf(text + n, "a.x. 1 A 192.0.2.%zu\n", i);
	reject(text, HINTS_ETOOMANY, "t.hints:6: more than 4");
	free(text);
}
END_TEST

static Suite *hints_suite(void)
{
	Suite *s = suite_create("hints");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_basic);
	tcase_add_test(tc, test_duplicates);
	tcase_add_test(tc, test_shipped_files);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_test(tc, test_reject);
	tcase_add_test(tc, test_reject_nul_and_long);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, test_limits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(hints_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
