/*
 * tests/unit/check_log.c - Suite "log": event lines (resolver/log.h):
 * the level filter, key=value layout with a timestamp on a terminal or
 * file, the "<N>" priority prefix when stderr is the journal
 * (JOURNAL_STREAM), and the query log written whatever the level.
 */
#include <check.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"

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
	char *buf = calloc(1, 8192);

	fflush(stderr);
	dup2(saved_fd, STDERR_FILENO);
	close(saved_fd);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_lt(fread(buf, 1, 8191, f), 8191);
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
	ck_assert_ptr_nonnull(strstr(out, "Z level=warn event=shown a=3 b=x\n"));
	ck_assert_ptr_nonnull(strstr(out, "Z level=error event=bare\n"));
	/* The query log ignores the level. */
	ck_assert_ptr_nonnull(strstr(out, "Z level=info event=query "
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
	snprintf(js, sizeof js, "%" PRIuMAX ":%" PRIuMAX,
	         (uintmax_t)sb.st_dev, (uintmax_t)sb.st_ino + 1);
	setenv("JOURNAL_STREAM", js, 1);
	ck_assert(!log_stderr_is_journal());
	snprintf(js, sizeof js, "%" PRIuMAX ":%" PRIuMAX "x",
	         (uintmax_t)sb.st_dev, (uintmax_t)sb.st_ino);
	setenv("JOURNAL_STREAM", js, 1);
	ck_assert(!log_stderr_is_journal());
	snprintf(js, sizeof js, "%" PRIuMAX ":%" PRIuMAX,
	         (uintmax_t)sb.st_dev, (uintmax_t)sb.st_ino);
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

static Suite *log_suite(void)
{
	Suite *s = suite_create("log");
	TCase *tc = tcase_create("lines");

	tcase_add_test(tc, test_levels_and_layout);
	tcase_add_test(tc, test_journal_prefix);
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
