/*
 * tests/unit/check_fileio.c - Suite "fileio": the one bounded whole-file
 * reader of resolver/ (resolver/base/fileio.c): sizes at and past the limit,
 * the NUL after the data, non-regular files refused or read, a file
 * that is not there; and the one atomic replace (fileio_replace,
 * fileio_dir_of).
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"

static char dir[] = "/tmp/check_fileio.XXXXXX";
static char path[256];
static char why[128];

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/f", dir);
}

static void teardown(void)
{
	char fifo[300];

	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	unlink(fifo);
	unlink(path);
	rmdir(dir);
	memcpy(dir + sizeof dir - 7, "XXXXXX", 6);
}

/* Write n bytes of 'a' to path. */
static void write_file(size_t n)
{
	FILE *f = fopen(path, "w");
	size_t i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < n; i++)
		fputc('a', f);
	ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_sizes)
{
	char *buf = NULL;
	size_t len = 99;

	write_file(0);
	ck_assert_int_eq(fileio_read_path(path, 10, true, &buf, &len, why,
	                                  sizeof why),
	                 FILEIO_OK);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(buf[0], '\0');
	free(buf);

	write_file(10);
	ck_assert_int_eq(fileio_read_path(path, 10, true, &buf, &len, why,
	                                  sizeof why),
	                 FILEIO_OK);
	ck_assert_uint_eq(len, 10);
	ck_assert_int_eq(buf[10], '\0');
	ck_assert_int_eq(memcmp(buf, "aaaaaaaaaa", 10), 0);
	free(buf);

	write_file(11);
	ck_assert_int_eq(fileio_read_path(path, 10, true, &buf, &len, why,
	                                  sizeof why),
	                 FILEIO_ETOOBIG);
	ck_assert_ptr_null(buf);
	ck_assert_str_eq(why, "larger than 10 bytes");

	write_file(100000); /* past the first chunk: the buffer grows */
	ck_assert_int_eq(fileio_read_path(path, 1 << 20, true, &buf, &len, why,
	                                  sizeof why),
	                 FILEIO_OK);
	ck_assert_uint_eq(len, 100000);
	ck_assert_int_eq(buf[99999], 'a');
	ck_assert_int_eq(buf[100000], '\0');
	free(buf);
}
END_TEST

START_TEST(test_not_regular)
{
	char fifo[300], *buf = (char *)1;
	size_t len;

	snprintf(fifo, sizeof fifo, "%s/fifo", dir);
	ck_assert_int_eq(mkfifo(fifo, 0600), 0);
	/* a FIFO without a writer would block a plain open: never here */
	ck_assert_int_eq(fileio_read_path(fifo, 10, true, &buf, &len, why,
	                                  sizeof why),
	                 FILEIO_ENOTREG);
	ck_assert_ptr_null(buf);
	ck_assert_str_eq(why, "not a regular file");
	ck_assert_int_eq(fileio_read_path(dir, 10, true, &buf, &len, why,
	                                  sizeof why),
	                 FILEIO_ENOTREG);
	ck_assert_int_eq(fileio_read_path("/dev/zero", 10, true, &buf, &len,
	                                  why, sizeof why),
	                 FILEIO_ENOTREG);
	/* read anyway, /dev/zero never ends: the limit stops it */
	ck_assert_int_eq(fileio_read_path("/dev/zero", 5000, false, &buf, &len,
	                                  why, sizeof why),
	                 FILEIO_ETOOBIG);
	ck_assert_ptr_null(buf);
}
END_TEST

START_TEST(test_pipe)
{
	int p[2];
	char *buf;
	size_t len;

	ck_assert_int_eq(pipe(p), 0);
	ck_assert_int_eq(write(p[1], "nameserver x\n", 13), 13);
	close(p[1]);
	ck_assert_int_eq(fileio_read_fd(p[0], 100, true, &buf, &len, why,
	                                sizeof why),
	                 FILEIO_ENOTREG);
	ck_assert_int_eq(fileio_read_fd(p[0], 100, false, &buf, &len, why,
	                                sizeof why),
	                 FILEIO_OK);
	ck_assert_uint_eq(len, 13);
	ck_assert_str_eq(buf, "nameserver x\n");
	free(buf);
	close(p[0]);
}
END_TEST

START_TEST(test_missing)
{
	char *buf = (char *)1;
	size_t len = 7;

	ck_assert_int_eq(fileio_read_path(path, 10, true, &buf, &len, why,
	                                  sizeof why),
	                 FILEIO_EOPEN);
	ck_assert_ptr_null(buf);
	ck_assert_uint_eq(len, 0);
	ck_assert_str_eq(why, "No such file or directory");
	/* no room for a reason: still no crash */
	ck_assert_int_eq(fileio_read_path(path, 10, true, &buf, &len, NULL, 0),
	                 FILEIO_EOPEN);
}
END_TEST

START_TEST(test_dir_of)
{
	char d[16];

	ck_assert_int_eq(fileio_dir_of("/var/cache/x", d, sizeof d), 0);
	ck_assert_str_eq(d, "/var/cache");
	ck_assert_int_eq(fileio_dir_of("/cache", d, sizeof d), 0);
	ck_assert_str_eq(d, "/");
	ck_assert_int_eq(fileio_dir_of("relative", d, sizeof d), -1);
	/* a directory name that does not fit: refused, not cut */
	ck_assert_int_eq(fileio_dir_of("/0123456789abcde/x", d, sizeof d), -1);
	ck_assert_int_eq(fileio_dir_of("/0123456789abcd/x", d, sizeof d), 0);
	ck_assert_str_eq(d, "/0123456789abcd");
}
END_TEST

START_TEST(test_replace)
{
	char tmp[300], *buf;
	size_t len;
	FILE *f;

	write_file(3);
	snprintf(tmp, sizeof tmp, "%s/f.tmp", dir);
	f = fopen(tmp, "w");
	ck_assert_ptr_nonnull(f);
	fputs("new", f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(fileio_replace(tmp, path), 0);
	ck_assert_int_eq(access(tmp, F_OK), -1);
	ck_assert_int_eq(fileio_read_path(path, 10, true, &buf, &len, why,
	                                  sizeof why),
	                 FILEIO_OK);
	ck_assert_str_eq(buf, "new");
	free(buf);
	/* no temporary: -1 with errno, the file untouched */
	ck_assert_int_eq(fileio_replace(tmp, path), -1);
	ck_assert_int_eq(access(path, F_OK), 0);
}
END_TEST

static Suite *fileio_suite(void)
{
	Suite *s = suite_create("fileio");
	TCase *tc = tcase_create("read");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sizes);
	tcase_add_test(tc, test_not_regular);
	tcase_add_test(tc, test_pipe);
	tcase_add_test(tc, test_missing);
	tcase_add_test(tc, test_dir_of);
	tcase_add_test(tc, test_replace);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fileio_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
