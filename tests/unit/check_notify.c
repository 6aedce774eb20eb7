/*
 * tests/unit/check_notify.c - Suite "notify": READY=1 and friends to the
 * service manager's socket (resolver/daemon/notify.h), path and abstract
 * sockets, and every refusal.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/notify.h"

/* A datagram socket bound at name ("/path" or "@abstract"). */
static int listener(const char *name)
{
	struct sockaddr_un sun;
	size_t len = strlen(name);
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);

	ck_assert_int_ge(fd, 0);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, name, len);
	if (name[0] == '@')
		sun.sun_path[0] = '\0';
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sun,
	                      (socklen_t)(offsetof(struct sockaddr_un,
	                                           sun_path) +
	                                  len)),
	                 0);
	return fd;
}

static void expect_msg(int fd, const char *want)
{
	char buf[256];
	ssize_t n = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT);

	ck_assert_int_eq(n, (ssize_t)strlen(want));
	buf[n] = '\0';
	ck_assert_str_eq(buf, want);
}

START_TEST(test_path_socket)
{
	char dir[] = "/tmp/check_notify.XXXXXX", path[128];
	int fd;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/notify", dir);
	fd = listener(path);
	setenv("NOTIFY_SOCKET", path, 1);
	ck_assert_int_eq(notify_send("READY=1\nSTATUS=answering"), NOTIFY_OK);
	expect_msg(fd, "READY=1\nSTATUS=answering");
	ck_assert_int_eq(notify_send("STOPPING=1"), NOTIFY_OK);
	expect_msg(fd, "STOPPING=1");
	close(fd);
	unlink(path);
	/* Nobody listens any more. */
	ck_assert_int_eq(notify_send("READY=1"), NOTIFY_ESEND);
	rmdir(dir);
}
END_TEST

START_TEST(test_abstract_socket)
{
	char name[64];
	int fd;

	snprintf(name, sizeof name, "@check_notify_%ld", (long)getpid());
	fd = listener(name);
	setenv("NOTIFY_SOCKET", name, 1);
	ck_assert_int_eq(notify_send("READY=1"), NOTIFY_OK);
	expect_msg(fd, "READY=1");
	close(fd);
}
END_TEST

START_TEST(test_refusals)
{
	char longp[200];

	unsetenv("NOTIFY_SOCKET");
	ck_assert_int_eq(notify_send("READY=1"), NOTIFY_NOSOCKET);
	setenv("NOTIFY_SOCKET", "", 1);
	ck_assert_int_eq(notify_send("READY=1"), NOTIFY_NOSOCKET);
	setenv("NOTIFY_SOCKET", "relative/path", 1);
	ck_assert_int_eq(notify_send("READY=1"), NOTIFY_EADDR);
	setenv("NOTIFY_SOCKET", "@", 1);
	ck_assert_int_eq(notify_send("READY=1"), NOTIFY_EADDR);
	memset(longp, 'a', sizeof longp - 1);
	longp[0] = '/';
	longp[sizeof longp - 1] = '\0';
	setenv("NOTIFY_SOCKET", longp, 1);
	ck_assert_int_eq(notify_send("READY=1"), NOTIFY_EADDR);
	unsetenv("NOTIFY_SOCKET");
}
END_TEST

static Suite *notify_suite(void)
{
	Suite *s = suite_create("notify");
	TCase *tc = tcase_create("send");

	tcase_add_test(tc, test_path_socket);
	tcase_add_test(tc, test_abstract_socket);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_test(tc, test_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(notify_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
