/*
 * tests/unit/check_hints.c - Suite "hints": the root hints file parser,
 * the compiled-in IANA set and the choice between a named file, the
 * fallback file (Debian's in the daemon) and the compiled-in set.
 *
 * Nothing here sends a packet: the tests only read hints.
 */
#include <arpa/inet.h>
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "infra/hints.h"
#include "wire/wire.h"

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
	                       "b.root.lab 0 a 127.0.0.2",
	                       &h),
	                 HINTS_OK);
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
	                       &h),
	                 HINTS_OK);
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
		                      HINTS_OK,
		              "%s", err);
		ck_assert_uint_eq(hints_ns_count(h), want[i]);
		ck_assert_uint_ge(hints_addr_count(h, 0), 1);
		hints_free(h);
	}
}
END_TEST

START_TEST(test_reject)
{
	reject("", HINTS_EEMPTY, "t.hints: no root server");
	reject("; only\n", HINTS_EEMPTY, "t.hints: no root server");
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
	                             sizeof err),
	                 HINTS_ESYNTAX);
	ck_assert_str_eq(err, "t.hints:2: NUL byte");
	memset(big, ' ', sizeof big);
	big[sizeof big - 1] = '\0';
	reject(big, HINTS_ESYNTAX, "t.hints:1: line longer");
	ck_assert_int_eq(hints_load("/nonexistent/x.hints", &h, err,
	                            sizeof err),
	                 HINTS_EIO);
	ck_assert_ptr_null(h);
	ck_assert(strstr(err, "/nonexistent/x.hints: ") == err);
	ck_assert_int_eq(hints_parse("t", NULL, 1, &h, NULL, 0), HINTS_EINVAL);
}
END_TEST

START_TEST(test_limits)
{
	char *text = malloc(64 * 1024);
	struct hints *h = NULL;
	size_t i, n = 0;

	ck_assert_ptr_nonnull(text);
	for (i = 0; i < HINTS_MAX_NS; i++)
		n += (size_t)sprintf(text + n,
		                     ". 1 NS n%zu.x.\n"
		                     "n%zu.x. 1 A 192.0.2.%zu\n",
		                     i, i, i);
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

/* A file of the test's own: written in the build directory. */
static const char *tmp_file(const char *name, const char *text)
{
	FILE *f = fopen(name, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fputs(text, f) >= 0, 1);
	ck_assert_int_eq(fclose(f), 0);
	return name;
}

/* The text of address j of NS i, and whether it is IPv6. */
static bool addr_v6(const struct hints *h, size_t i, size_t j, char *out,
                    size_t cap)
{
	struct sockaddr_storage ss;
	socklen_t len;

	addr_text(h, i, j, out, cap);
	ck_assert_int_eq(hints_addr(h, i, j, &ss, &len), HINTS_OK);
	return ss.ss_family == AF_INET6;
}

START_TEST(test_builtin_set)
{
	struct hints *h = NULL;
	char txt[WIRE_NAME_TEXT_MAX], want[32], a[64];
	size_t i, len, v4 = 0, v6 = 0;
	const uint8_t *n;

	ck_assert_int_eq(hints_builtin(&h), HINTS_OK);
	ck_assert_uint_eq(hints_ns_count(h), HINTS_BUILTIN_NS);
	ck_assert_uint_eq(HINTS_BUILTIN_NS, 13);
	for (i = 0; i < hints_ns_count(h); i++) {
		n = hints_ns_name(h, i, &len);
		ck_assert_int_eq(wire_name_to_text(n, len, txt, sizeof txt,
		                                   NULL),
		                 0);
		snprintf(want, sizeof want, "%c.root-servers.net.",
		         (char)('a' + i));
		ck_assert_str_eq(txt, want);
		ck_assert_uint_eq(hints_addr_count(h, i), 2);
		/* one IPv4 and one IPv6 address each */
		ck_assert(addr_v6(h, i, 0, a, sizeof a) !=
		          addr_v6(h, i, 1, a, sizeof a));
		v6 += addr_v6(h, i, 0, a, sizeof a) +
		      addr_v6(h, i, 1, a, sizeof a);
		v4 += !addr_v6(h, i, 0, a, sizeof a) +
		      !addr_v6(h, i, 1, a, sizeof a);
	}
	ck_assert_uint_eq(v4, 13);
	ck_assert_uint_eq(v6, 13);
	addr_text(h, 0, 0, a, sizeof a);
	ck_assert_str_eq(a, "198.41.0.4");
	addr_text(h, 12, 1, a, sizeof a);
	ck_assert_str_eq(a, "2001:dc3::35");
	hints_free(h);
}
END_TEST

/* Every name and address of a against b (same order of names). */
static void same_hints(const struct hints *a, const struct hints *b)
{
	size_t i, j, k, la, lb;

	ck_assert_uint_eq(hints_ns_count(a), hints_ns_count(b));
	for (i = 0; i < hints_ns_count(a); i++) {
		const uint8_t *na = hints_ns_name(a, i, &la);
		const uint8_t *nb = hints_ns_name(b, i, &lb);

		ck_assert_uint_eq(la, lb);
		ck_assert_mem_eq(na, nb, la);
		ck_assert_uint_eq(hints_addr_count(a, i),
		                  hints_addr_count(b, i));
		for (j = 0; j < hints_addr_count(a, i); j++) {
			char ta[64], tb[64];
			bool found = false;

			addr_text(a, i, j, ta, sizeof ta);
			for (k = 0; k < hints_addr_count(b, i); k++) {
				addr_text(b, i, k, tb, sizeof tb);
				found = found || strcmp(ta, tb) == 0;
			}
			ck_assert_msg(found, "%s missing", ta);
		}
	}
}

START_TEST(test_builtin_matches_shipped_file)
{
	struct hints *b = NULL, *f = NULL;

	ck_assert_int_eq(hints_builtin(&b), HINTS_OK);
	ck_assert_msg(hints_load(SRCDIR "/etc/root.hints", &f, err,
	                         sizeof err) == HINTS_OK,
	              "%s", err);
	same_hints(b, f);
	hints_free(b);
	hints_free(f);
}
END_TEST

/* Debian's file, where dns-root-data is installed: it must load. */
START_TEST(test_debian_file)
{
	struct hints *h = NULL;

	if (access(HINTS_DEBIAN_FILE, F_OK) != 0)
		return; /* dns-root-data not installed */
	ck_assert_msg(hints_load(HINTS_DEBIAN_FILE, &h, err, sizeof err) ==
	                      HINTS_OK,
	              "%s", err);
	ck_assert_uint_eq(hints_ns_count(h), 13);
	hints_free(h);
}
END_TEST

START_TEST(test_named_file_errors)
{
	const char *empty = tmp_file("check_hints.empty", "; nothing\n");
	struct hints *h = NULL;
	char used[64] = "x";

	ck_assert_int_eq(hints_select(empty, NULL, &h, used, sizeof used, err,
	                              sizeof err),
	                 HINTS_EEMPTY);
	ck_assert_ptr_null(h);
	ck_assert_str_eq(err, "check_hints.empty: no root server (no NS "
	                      "record owned by '.')");
	ck_assert_str_eq(used, "x");
	ck_assert_int_eq(hints_select("/nonexistent/r.hints", NULL, &h, used,
	                              sizeof used, err, sizeof err),
	                 HINTS_EIO);
	ck_assert(strstr(err, "/nonexistent/r.hints: ") == err);
	/* a named file never falls back, even with a good fallback */
	ck_assert_int_eq(hints_select(empty, SRCDIR "/tests/lab/root.hints",
	                              &h, used, sizeof used, err, sizeof err),
	                 HINTS_EEMPTY);
	ck_assert_ptr_null(h);
	unlink(empty);
}
END_TEST

/* hints_select(path, fallback): expect NS count, used and the note. */
static void select_ok(const char *path, const char *fallback, size_t ns,
                      const char *want_used, const char *note_prefix)
{
	struct hints *h = NULL;
	char used[256];

	ck_assert_int_eq(hints_select(path, fallback, &h, used, sizeof used,
	                              err, sizeof err),
	                 HINTS_OK);
	ck_assert_uint_eq(hints_ns_count(h), ns);
	ck_assert_str_eq(used, want_used);
	ck_assert_msg(strncmp(err, note_prefix, strlen(note_prefix)) == 0 &&
	                      (note_prefix[0] != '\0' || err[0] == '\0'),
	              "note '%s', want '%s'", err, note_prefix);
	hints_free(h);
}

START_TEST(test_fallback_order)
{
	const char *lab = SRCDIR "/tests/lab/root.hints";
	const char *empty = tmp_file("check_hints.fb", "");

	/* named file first */
	select_ok(lab, NULL, 1, lab, "");
	/* no option: the fallback file when it loads */
	select_ok("", lab, 1, lab, "");
	/* absent fallback: built in, quietly */
	select_ok("", "/nonexistent/root.hints", 13, HINTS_BUILTIN_NAME, "");
	select_ok("", NULL, 13, HINTS_BUILTIN_NAME, "");
	/* a fallback that does not load: built in, and why */
	select_ok("", empty, 13, HINTS_BUILTIN_NAME,
	          "check_hints.fb: no root server");
	unlink(empty);
	ck_assert_int_eq(hints_select(NULL, NULL, NULL, NULL, 0, NULL, 0),
	                 HINTS_EINVAL);
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
	tc = tcase_create("builtin");
	tcase_add_test(tc, test_builtin_set);
	tcase_add_test(tc, test_builtin_matches_shipped_file);
	tcase_add_test(tc, test_debian_file);
	suite_add_tcase(s, tc);
	tc = tcase_create("select");
	tcase_add_test(tc, test_named_file_errors);
	tcase_add_test(tc, test_fallback_order);
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
