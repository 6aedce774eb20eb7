/*
 * tests/unit/check_log.c - Suite "log": event lines (resolver/base/log.h):
 * the level filter, key=value layout with a timestamp on a terminal or
 * file, the "<N>" priority prefix when stderr is the journal
 * (JOURNAL_STREAM), the query log written whatever the level; logfmt:
 * every value escaped by the logger (log_escape: space, quote, backslash,
 * '=', control and non-ASCII bytes, empty), types as mnemonics left to
 * the callers; and the per-kind rate limit of log_event_limited (fake
 * clock for log_limit_admit / log_limit_due, real lines for the rest).
 */
#include <check.h>
#include <ctype.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/log.h"
#include "wire/rrtext.h"

/** Bytes of captured stderr a test may read. */
#define CAPTURE_BYTES 65536

static char path[] = "/tmp/check_log.XXXXXX";
static int saved_fd = -1;

/* Send stderr to a fresh temporary file. */
static void capture(void)
{
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	saved_fd = dup(STDERR_FILENO);
	ck_assert_int_ge(dup2(fd, STDERR_FILENO), 0);
	close(fd);
}

/* Restore stderr; return what was written (free it). */
static char *captured(void)
{
	FILE *f;
	char *buf = calloc(1, CAPTURE_BYTES);

	fflush(stderr);
	dup2(saved_fd, STDERR_FILENO);
	close(saved_fd);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_lt(fread(buf, 1, CAPTURE_BYTES - 1, f),
	                  CAPTURE_BYTES - 1);
	fclose(f);
	unlink(path);
	memcpy(path + strlen(path) - 6, "XXXXXX", 6);
	return buf;
}

START_TEST(test_levels_and_layout)
{
	char *out;

	unsetenv("JOURNAL_STREAM");
	capture();
	log_init(CFG_LOG_WARN, true);
	log_info("hidden", "a=%d", 1);
	log_debug("hidden", "a=%d", 2);
	log_warn("shown", "a=%d b=%s", 3, "x");
	log_error("bare", "%s", "");
	log_query("client=%s name=%s", "127.0.0.1@5", "a.example.");
	out = captured();
	ck_assert_ptr_null(strstr(out, "hidden"));
	ck_assert_ptr_nonnull(strstr(out,
	                             "Z level=warn event=shown a=3 b=x\n"));
	ck_assert_ptr_nonnull(strstr(out, "Z level=error event=bare\n"));
	/* The query log ignores the level. */
	ck_assert_ptr_nonnull(strstr(out,
	                             "Z level=info event=query "
	                             "client=127.0.0.1@5 name=a.example.\n"));
	/* Each line starts with a timestamp: 2026-12-04T05:59:30.123Z */
	ck_assert_int_eq(out[4], '-');
	ck_assert_int_eq(out[10], 'T');
	free(out);
}
END_TEST

START_TEST(test_journal_prefix)
{
	struct stat sb;
	char js[64];
	char *out;

	capture();
	ck_assert_int_eq(fstat(STDERR_FILENO, &sb), 0);
	/* Another file: not the journal. */
	snprintf(js, sizeof js, "%" PRIuMAX ":%" PRIuMAX, (uintmax_t)sb.st_dev,
	         (uintmax_t)sb.st_ino + 1);
	setenv("JOURNAL_STREAM", js, 1);
	ck_assert(!log_stderr_is_journal());
	snprintf(js, sizeof js, "%" PRIuMAX ":%" PRIuMAX "x",
	         (uintmax_t)sb.st_dev, (uintmax_t)sb.st_ino);
	setenv("JOURNAL_STREAM", js, 1);
	ck_assert(!log_stderr_is_journal());
	snprintf(js, sizeof js, "%" PRIuMAX ":%" PRIuMAX, (uintmax_t)sb.st_dev,
	         (uintmax_t)sb.st_ino);
	setenv("JOURNAL_STREAM", js, 1);
	ck_assert(log_stderr_is_journal());
	log_init(CFG_LOG_DEBUG, true);
	log_error("e", "k=%d", 1);
	log_warn("w", "%s", "");
	log_info("i", "%s", "");
	log_debug("d", "%s", "");
	out = captured();
	ck_assert_str_eq(out, "<3>level=error event=e k=1\n"
	                      "<4>level=warn event=w\n"
	                      "<6>level=info event=i\n"
	                      "<7>level=debug event=d\n");
	unsetenv("JOURNAL_STREAM");
	log_init(CFG_LOG_INFO, true);
	free(out);
}
END_TEST

/* Whether s (up to a newline or NUL) is strict logfmt: key=value fields
 * separated by one space; keys [A-Za-z0-9_.-]+; a value bare (printable
 * ASCII without '"' or '=', not empty) or quoted with \" \\ \n \t \r
 * \xNN escapes only. */
static bool logfmt_ok(const char *s)
{
	while (*s != '\0' && *s != '\n') {
		const char *k = s;

		while (isalnum((unsigned char)*s) || *s == '_' || *s == '.' ||
		       *s == '-')
			s++;
		if (s == k || *s++ != '=')
			return false;
		if (*s == '"') {
			for (s++; *s != '"'; s++) {
				if ((unsigned char)*s < 0x20 ||
				    (unsigned char)*s >= 0x7f)
					return false;
				if (*s != '\\')
					continue;
				s++;
				if (*s == 'x' &&
				    isxdigit((unsigned char)s[1]) &&
				    isxdigit((unsigned char)s[2]))
					s += 2;
				else if (strchr("\"\\ntr", *s) == NULL ||
				         *s == '\0')
					return false;
			}
			s++;
		} else {
			k = s;
			while ((unsigned char)*s > 0x20 &&
			       (unsigned char)*s < 0x7f && *s != '"' &&
			       *s != '=')
				s++;
			if (s == k)
				return false;
		}
		if (*s == ' ')
			s++;
		else if (*s != '\0' && *s != '\n')
			return false;
	}
	return true;
}

/* log_escape of n bytes of v must give want. */
static void escapes_to(const char *v, size_t n, const char *want)
{
	char out[64], line[80];

	ck_assert_uint_eq(log_escape(v, n, out, sizeof out), strlen(want));
	ck_assert_str_eq(out, want);
	snprintf(line, sizeof line, "k=%s", out);
	ck_assert_msg(logfmt_ok(line), "not logfmt: %s", line);
}

/* log_escape of the literal v (NUL bytes inside included). */
#define ESC(v, want) escapes_to(v, sizeof(v) - 1, want)

START_TEST(test_escape_values)
{
	char out[8];

	ESC("www.example.", "www.example.");
	ESC("", "\"\"");
	ESC("no server could answer", "\"no server could answer\"");
	ESC("f:10: unknown option \"bogus\"",
	    "\"f:10: unknown option \\\"bogus\\\"\"");
	ESC("a=b", "\"a=b\"");
	ESC("a\\032b.", "a\\032b.");     /* bare backslash */
	ESC("a\\\"b", "\"a\\\\\\\"b\""); /* a\"b */
	ESC("l1\nl2\tx\r", "\"l1\\nl2\\tx\\r\"");
	ESC("\x01\x1f\x7f", "\"\\x01\\x1f\\x7f\"");
	ESC("caf\xc3\xa9", "\"caf\\xc3\\xa9\"");
	ESC("a\0b", "\"a\\x00b\"");
	/* Too long: a quoted prefix, never half an escape. */
	ck_assert_uint_eq(log_escape("abcdefghij", 10, out, sizeof out), 7);
	ck_assert_str_eq(out, "\"abcde\"");
	ck_assert_uint_eq(log_escape("\"\"\"\"", 4, out, sizeof out), 6);
	ck_assert_str_eq(out, "\"\\\"\\\"\"");
	ck_assert_uint_eq(log_escape("x", 1, out, 2), 0);
	ck_assert_str_eq(out, "");
}
END_TEST

START_TEST(test_fields_escaped)
{
	char tbuf[RRTEXT_NAME_MAX];
	char *out;

	unsetenv("JOURNAL_STREAM");
	capture();
	log_init(CFG_LOG_INFO, true);
	log_info("servfail", "qname=%s type=%s why=%s", "a\\\"b c=d.",
	         rrtext_type_name(1, tbuf), "no server could answer");
	log_info("t2", "type=%s", rrtext_type_name(65280, tbuf));
	log_error("reload_failed", "error=%s kept=old",
	          "f.conf:10: unknown option \"bogus\"");
	log_warn("nums",
	         "a=%d b=%zu c=%" PRIu64 "s d=%-*d| e=%%x f=%.1f "
	         "g=%s%s h=%c i=%5.2s",
	         -3, (size_t)7, (uint64_t)9, 3, 4, 0.25, "x y", "z", 'q',
	         "abc");
	log_info("empty", "why=%s", "");
	log_info("keyless", "%s a=1", "hello world");
	log_query("client=%s name=%s", "127.0.0.1@5", "t\xab.example.");
	out = captured();
	ck_assert_ptr_nonnull(strstr(out, " level=info event=servfail "
	                                  "qname=\"a\\\\\\\"b c=d.\" type=A "
	                                  "why=\"no server could answer\"\n"));
	ck_assert_ptr_nonnull(strstr(out, " event=t2 type=TYPE65280\n"));
	ck_assert_ptr_nonnull(strstr(out, " event=reload_failed error="
	                                  "\"f.conf:10: unknown option "
	                                  "\\\"bogus\\\"\" kept=old\n"));
	ck_assert_ptr_nonnull(strstr(out, " event=nums a=-3 b=7 c=9s "
	                                  "d=\"4  |\" e=%x f=0.2 g=\"x yz\" "
	                                  "h=q i=\"   ab\"\n"));
	ck_assert_ptr_nonnull(strstr(out, " event=empty why=\"\"\n"));
	ck_assert_ptr_nonnull(strstr(out, " event=keyless "
	                                  "msg=\"hello world\" a=1\n"));
	ck_assert_ptr_nonnull(strstr(out, " event=query client=127.0.0.1@5 "
	                                  "name=\"t\\xab.example.\"\n"));
	free(out);
}
END_TEST

START_TEST(test_lines_parse)
{
	char big[3000];
	char *out, *line, *save = NULL;
	int n = 0;

	unsetenv("JOURNAL_STREAM");
	memset(big, '"', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	capture();
	log_init(CFG_LOG_INFO, true);
	log_info("long", "a=%s b=%s c=1", big, big);
	log_info("long2", "a=%.1500s b=%s", big + 10, "x y");
	log_pairs(CFG_LOG_INFO, "stats",
	          "total.num.queries=5 x=a\"b\n"
	          "y=1  =2 bare\n");
	out = captured();
	ck_assert_ptr_nonnull(strstr(out, " event=stats total.num.queries=5 "
	                                  "x=\"a\\\"b\" y=1 msg=\"=2\" "
	                                  "msg=bare\n"));
	for (line = strtok_r(out, "\n", &save); line != NULL;
	     line = strtok_r(NULL, "\n", &save)) {
		char *f = strchr(line, ' ') + 1; /* after the timestamp */

		ck_assert_uint_le(strlen(f), LOG_LINE_BYTES - 1);
		ck_assert_msg(logfmt_ok(f), "not logfmt: %s", f);
		n++;
	}
	ck_assert_int_eq(n, 3);
	free(out);
}
END_TEST

START_TEST(test_limit_fake_clock)
{
	struct log_limit l;
	struct log_limit_note notes[4];
	uint64_t t = 5000;
	int i, sent = 0;

	memset(&l, 0, sizeof l);
	for (i = 0; i < 4000; i++) /* 4000 in the first 400 ms */
		sent += log_limit_admit(&l, "servfail", CFG_LOG_INFO,
		                        t + (uint64_t)i / 10);
	ck_assert_int_eq(sent, LOG_LIMIT_BURST);
	/* Another kind has its own budget. */
	ck_assert(log_limit_admit(&l, "curve_downgrade", CFG_LOG_WARN, t));
	ck_assert_uint_eq(log_limit_due(&l, t + 999, false, notes, 4), 0);
	ck_assert_uint_eq(log_limit_due(&l, t + 1000, false, notes, 4), 1);
	ck_assert_str_eq(notes[0].event, "servfail");
	ck_assert_uint_eq(notes[0].suppressed, 4000 - LOG_LIMIT_BURST);
	ck_assert_int_eq(notes[0].level, CFG_LOG_INFO);
	/* Reported once; the next window has a fresh budget. */
	ck_assert_uint_eq(log_limit_due(&l, t + 1000, false, notes, 4), 0);
	for (i = 0; i < LOG_LIMIT_BURST; i++)
		ck_assert(log_limit_admit(&l, "servfail", CFG_LOG_INFO,
		                          t + 1000));
	ck_assert(!log_limit_admit(&l, "servfail", CFG_LOG_INFO, t + 1500));
	/* all: even inside the window (exit). */
	ck_assert_uint_eq(log_limit_due(&l, t + 1500, true, notes, 4), 1);
	ck_assert_uint_eq(notes[0].suppressed, 1);
	/* A clock that went back starts a new window. */
	ck_assert(log_limit_admit(&l, "servfail", CFG_LOG_INFO, 10));
}
END_TEST

START_TEST(test_limit_table_full)
{
	static const char *const names[] = {
		"k00", "k01", "k02", "k03", "k04", "k05", "k06", "k07", "k08",
		"k09", "k10", "k11", "k12", "k13", "k14", "k15", "k16", "k17",
		"k18", "k19", "k20", "k21", "k22", "k23", "k24", "k25", "k26",
		"k27", "k28", "k29", "k30", "k31", "k32", "k33"
	};
	struct log_limit l;
	size_t i, j;
	int sent = 0;

	memset(&l, 0, sizeof l);
	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		for (j = 0; j < LOG_LIMIT_BURST; j++)
			sent += log_limit_admit(&l, names[i], CFG_LOG_INFO, 1);
	ck_assert_uint_eq(l.n, LOG_LIMIT_KINDS);
	/* k31, k32, k33 share the last slot and its one budget. */
	ck_assert_int_eq(sent, LOG_LIMIT_KINDS * LOG_LIMIT_BURST);
}
END_TEST

/* Count the lines of out that hold s. */
static int count(const char *out, const char *s)
{
	int n = 0;

	while ((out = strstr(out, s)) != NULL) {
		n++;
		out += strlen(s);
	}
	return n;
}

START_TEST(test_limited_lines)
{
	char *out;
	int i;

	unsetenv("JOURNAL_STREAM");
	capture();
	log_init(CFG_LOG_INFO, true);
	for (i = 0; i < 25; i++)
		log_info_limited("flood_a", "i=%d", i);
	for (i = 0; i < 12; i++)
		log_warn_limited("flood_b", "i=%d", i);
	log_info("other", "x=1"); /* window not over: no summary */
	log_flush_suppressed();
	log_flush_suppressed();        /* nothing left to report */
	log_init(CFG_LOG_DEBUG, true); /* debug: nothing limited */
	for (i = 0; i < 25; i++)
		log_info_limited("flood_c", "i=%d", i);
	log_flush_suppressed();
	log_init(CFG_LOG_INFO, true);
	out = captured();
	ck_assert_int_eq(count(out, " event=flood_a "), LOG_LIMIT_BURST);
	ck_assert_int_eq(count(out, " event=flood_b "), LOG_LIMIT_BURST);
	ck_assert_int_eq(count(out, " event=flood_c "), 25);
	ck_assert_int_eq(count(out, " event=log_suppressed "), 2);
	ck_assert_ptr_nonnull(strstr(out, " level=info event=log_suppressed "
	                                  "kind=flood_a suppressed=15\n"));
	ck_assert_ptr_nonnull(strstr(out, " level=warn event=log_suppressed "
	                                  "kind=flood_b suppressed=2\n"));
	ck_assert(strstr(out, "event=other") <
	          strstr(out, "event=log_suppressed"));
	free(out);
}
END_TEST

START_TEST(test_flush_due_after_window)
{
	struct timespec pause = { 1, 100 * 1000 * 1000 };
	char *out;
	int i;

	unsetenv("JOURNAL_STREAM");
	capture();
	log_init(CFG_LOG_INFO, true);
	for (i = 0; i < LOG_LIMIT_BURST + 2; i++)
		log_info_limited("flood_d", "i=%d", i);
	log_flush_due(); /* the window is still open */
	nanosleep(&pause, NULL);
	log_flush_due(); /* the daemon's each-second call */
	log_flush_due();
	out = captured();
	ck_assert_int_eq(count(out, " event=log_suppressed "), 1);
	ck_assert_ptr_nonnull(strstr(out, " event=log_suppressed "
	                                  "kind=flood_d suppressed=2\n"));
	free(out);
}
END_TEST

static Suite *log_suite(void)
{
	Suite *s = suite_create("log");
	TCase *tc = tcase_create("lines");

	tcase_add_test(tc, test_levels_and_layout);
	tcase_add_test(tc, test_journal_prefix);
	suite_add_tcase(s, tc);
	tc = tcase_create("logfmt");
	tcase_add_test(tc, test_escape_values);
	tcase_add_test(tc, test_fields_escaped);
	tcase_add_test(tc, test_lines_parse);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, test_limit_fake_clock);
	tcase_add_test(tc, test_limit_table_full);
	tcase_add_test(tc, test_limited_lines);
	tcase_add_test(tc, test_flush_due_after_window);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(log_suite());
	int failed;

	srunner_set_fork_status(sr, CK_NOFORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
