/*
 * tests/unit/check_config.c - Suite "config": the configuration file.
 */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "cfg.h"

static struct cfg c;
static char err[CFG_ERR_BYTES];

static int parse(const char *text)
{
	cfg_defaults(&c);
	err[0] = '\0';
	return cfg_parse("test.conf", text, strlen(text), &c, err, sizeof err);
}

static struct sockaddr_storage addr(const char *s)
{
	struct sockaddr_storage ss;
	struct cfg_addr a;

	ck_assert_int_eq(cfg_addr_parse(s, 53, &a), 0);
	memcpy(&ss, &a.sa, sizeof ss);
	return ss;
}

static enum cfg_acl_action acl(const char *s)
{
	struct sockaddr_storage ss = addr(s);

	return cfg_acl_check(&c, (struct sockaddr *)&ss);
}

START_TEST(test_defaults)
{
	ck_assert_int_eq(parse(""), 0);
	ck_assert_uint_eq(c.n_listen, 2);
	ck_assert_uint_eq(c.port, 53);
	ck_assert_uint_eq(c.max_ttl, 86400);
	ck_assert_uint_eq(c.neg_max_ttl, 3600);
	ck_assert_uint_eq(c.query_timeout_ms, 5000);
	ck_assert(c.curve && !c.curve_plain_fallback);
	ck_assert(c.qname_minimisation && c.do_not_query_localhost);
	ck_assert_uint_eq(c.n_curve_order, 2);
	ck_assert_int_eq(c.curve_order[0], CFG_CURVE_STREAMLINED);
	ck_assert_int_eq(acl("127.0.0.1"), CFG_ACL_ALLOW);
	ck_assert_int_eq(acl("127.9.8.7"), CFG_ACL_ALLOW);
	ck_assert_int_eq(acl("::1"), CFG_ACL_ALLOW);
	ck_assert_int_eq(acl("192.0.2.1"), CFG_ACL_REFUSE);
	ck_assert_int_eq(acl("2001:db8::1"), CFG_ACL_REFUSE);
	ck_assert_int_eq(acl("::ffff:127.0.0.1"), CFG_ACL_ALLOW);
}
END_TEST

START_TEST(test_values)
{
	ck_assert_int_eq(parse(
		"# a comment\n"
		"port: 5300   # trailing comment\n"
		"listen: 127.0.0.2\n"
		"listen: ::1@5353\n"
		"cache-size: 128m\n"
		"min-ttl: 5\n"
		"max-ttl: 600\n"
		"query-timeout: 0.5\n"
		"curve-formats: txt streamlined\n"
		"user:\n"
		"control-socket:\n"
		"threads: 2\n"
		"log-level: debug\n"
		"access-control: 10.0.0.0/8 allow\n"
		"access-control: 10.1.0.0/16 deny\n"), 0);
	ck_assert_uint_eq(c.n_listen, 2);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in *)&c.listen[0].sa)
	                        ->sin_port), 5300);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in6 *)&c.listen[1].sa)
	                        ->sin6_port), 5353);
	ck_assert_uint_eq(c.cache_size, 128u * 1024 * 1024);
	ck_assert_uint_eq(c.min_ttl, 5);
	ck_assert_uint_eq(c.query_timeout_ms, 500);
	ck_assert_int_eq(c.curve_order[0], CFG_CURVE_TXT);
	ck_assert_str_eq(c.user, "");
	ck_assert_str_eq(c.control_socket, "");
	ck_assert_uint_eq(c.threads, 2);
	ck_assert_int_eq(c.log_level, CFG_LOG_DEBUG);
	/* The first access-control line replaces the default list. */
	ck_assert_int_eq(acl("127.0.0.1"), CFG_ACL_REFUSE);
	ck_assert_int_eq(acl("10.2.3.4"), CFG_ACL_ALLOW);
	ck_assert_int_eq(acl("10.1.3.4"), CFG_ACL_DENY); /* longest wins */
}
END_TEST

/* Each bad line must fail, naming the file and the line. */
START_TEST(test_reject)
{
	static const char *const bad[] = {
		"bogus: 1\n", "port: 0\n", "port: 70000\n", "port: x\n",
		"listen: 300.1.1.1\n", "listen: 127.0.0.1@99999\n",
		"do-ip4: maybe\n", "cache-size: 12q\n", "cache-size: 1k\n",
		"access-control: 10.0.0.0/33 allow\n",
		"access-control: 10.0.0.0/8\n",
		"access-control: 10.0.0.0/8 permit\n",
		"curve-formats: streamlined streamlined\n",
		"curve-formats: dnscrypt\n", "log-level: loud\n",
		"threads: 0\n", "query-timeout: -1\n", "query-timeout: 5x\n",
		"no colon here\n", "port:\n", "edns-buffer-size: 100\n",
		"outgoing-interface: 127.0.0.1@53\n", "min-ttl: 18446744073709551616\n",
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[200];

		snprintf(text, sizeof text, "# line 1\n%s", bad[i]);
		ck_assert_msg(parse(text) == -1, "accepted: %s", bad[i]);
		ck_assert_msg(strncmp(err, "test.conf:2: ", 13) == 0,
		              "message for %s: %s", bad[i], err);
	}
}
END_TEST

START_TEST(test_reject_whole)
{
	ck_assert_int_eq(parse("do-ip4: no\ndo-ip6: no\n"), -1);
	ck_assert_str_eq(err, "test.conf: do-ip4 and do-ip6 are both no");
	ck_assert_int_eq(parse("min-ttl: 100\nmax-ttl: 10\n"), -1);
	ck_assert_int_eq(cfg_parse("t", "port: 1\0x\n", 10, &c, err,
	                           sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "NUL"));
}
END_TEST

START_TEST(test_limits)
{
	char *text = malloc(100000);
	size_t n = 0;
	int i;

	for (i = 0; i < CFG_MAX_ACL + 1; i++)
		n += (size_t)sprintf(text + n, "access-control: 10.%d.0.0/16 allow\n",
		                     i);
	ck_assert_int_eq(parse(text), -1);
	ck_assert_ptr_nonnull(strstr(err, "test.conf:65: too many"));
	memset(text, 'a', 5000);
	memcpy(text + 5000, ": 1\n", 5);
	ck_assert_int_eq(parse(text), -1);
	ck_assert_ptr_nonnull(strstr(err, "line too long"));
	free(text);
}
END_TEST

START_TEST(test_load_file)
{
	char path[] = "/tmp/check_config_XXXXXX";
	int fd = mkstemp(path);
	const char *text = "port: 5301\nbogus-option: yes\n";

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	ck_assert_int_eq(cfg_load(path, &c, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, ":2: unknown option \"bogus-option\""));
	ck_assert_int_eq(strncmp(err, path, strlen(path)), 0);
	unlink(path);
	ck_assert_int_eq(cfg_load(path, &c, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "cannot open"));
}
END_TEST

/* The sample config parses, and gives exactly the built-in defaults. */
START_TEST(test_sample_file)
{
	struct cfg dflt;
	char path[512];

	snprintf(path, sizeof path, "%s/etc/curvecache.conf", SRCDIR);
	ck_assert_msg(cfg_load(path, &c, err, sizeof err) == 0, "%s", err);
	cfg_defaults(&dflt);
	memset(dflt.file, 0, sizeof dflt.file);
	memset(c.file, 0, sizeof c.file);
	memset(dflt.root_hints, 0, sizeof dflt.root_hints);
	memset(c.root_hints, 0, sizeof c.root_hints);
	ck_assert_msg(memcmp(&c, &dflt, sizeof c) == 0,
	              "etc/curvecache.conf differs from the defaults");
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_sample_file);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_test(tc, test_reject);
	tcase_add_test(tc, test_reject_whole);
	tcase_add_test(tc, test_load_file);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, test_limits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(config_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
