/*
 * tests/unit/check_iter_log.c - Suite "iter_log" (run by check_iter): what
 * a failed resolution tells the administrator at the default log level
 * (resolver/iter/iter_log.c, issue 22 item 6): the zone, the last server
 * asked and what it did, for the SERVFAIL line (iter_fail_where); one
 * dnssec_failure line naming the zone and the reason when the answer is
 * bogus, and a DS that matches no DNSKEY says so.
 */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "iter_net.h"
#include "base/log.h"
#include "iter/iter_log.h"
#include "anchor/anchor.h"

Suite *iter_log_suite(void);

/** Bytes of the daemon's stderr a test reads back. */
#define LOGBUF_BYTES 8192

static char logpath[] = "/tmp/check_iter_log.XXXXXX";
static int stderr_copy = -1;
static char logbuf[LOGBUF_BYTES];

static void setup(void)
{
	net_setup();
	net_std();
}

static void teardown(void)
{
	if (N.env.anchors != NULL)
		anchors_free((struct anchors *)N.env.anchors);
	N.env.anchors = NULL;
	net_teardown();
}

/* The log goes to a file at level info (the default) until log_read. */
static void log_to_file(void)
{
	int fd = mkstemp(logpath);

	ck_assert_int_ge(fd, 0);
	fflush(stderr);
	stderr_copy = dup(STDERR_FILENO);
	ck_assert_int_ge(dup2(fd, STDERR_FILENO), 0);
	close(fd);
	log_init(CFG_LOG_INFO, true);
}

/* What was logged since log_to_file (in logbuf); stderr is back. */
static const char *log_read(void)
{
	int fd;
	ssize_t n;

	log_flush_suppressed();
	fflush(stderr);
	dup2(stderr_copy, STDERR_FILENO);
	close(stderr_copy);
	fd = open(logpath, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	n = read(fd, logbuf, sizeof logbuf - 1);
	close(fd);
	unlink(logpath);
	strcpy(logpath + strlen(logpath) - 6, "XXXXXX");
	logbuf[n > 0 ? n : 0] = '\0';
	log_init(CFG_LOG_WARN, true);
	return logbuf;
}

/* Lines of s holding needle. */
static size_t lines_with(const char *s, const char *needle)
{
	size_t n = 0;

	while ((s = strstr(s, needle)) != NULL) {
		n++;
		s += strlen(needle);
	}
	return n;
}

/* What zone.example.'s only server does, and what the SERVFAIL line
 * then says it did. */
static const struct {
	uint16_t rcode;
	enum fake_act act;
	const char *what;
} where_cases[] = {
	{ WIRE_RCODE_REFUSED, FAKE_REPLY, "REFUSED" },
	{ WIRE_RCODE_SERVFAIL, FAKE_REPLY, "SERVFAIL" },
	{ 0, FAKE_SILENT, "timeout" },
	{ 0, FAKE_UNREACH, "unreachable" },
};

/* The question fails; where it ended is the zone, that server and what
 * it did. */
START_TEST(test_servfail_where)
{
	char zone[WIRE_NAME_TEXT_MAX], server[ITER_LOG_SERVER_TEXT];
	const struct answer *r;

	net_add(&(struct fake){ .server = "192.0.2.2",
	                        .qname = "*",
	                        .flags = where_cases[_i].rcode,
	                        .act = where_cases[_i].act });
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(iter_fail_where(N.req, zone, server),
	                 where_cases[_i].what);
	ck_assert_str_eq(zone, "zone.example.");
	ck_assert_str_eq(server, "192.0.2.2");
}
END_TEST

START_TEST(test_servfail_where_nothing_asked)
{
	char zone[WIRE_NAME_TEXT_MAX], server[ITER_LOG_SERVER_TEXT];

	ck_assert_str_eq(iter_fail_where(NULL, zone, server), "-");
	ck_assert_str_eq(zone, "-");
	ck_assert_str_eq(server, "-");
}
END_TEST

/* www.zone.example. A, answered by its server, resolved with the log
 * going to the file. */
static const struct answer *www_logged(void)
{
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "www.zone.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "www.zone.example. 300 A 192.0.2.80" } });
	log_to_file();
	return net_resolve("www.zone.example.", WIRE_TYPE_A);
}

/* zone.example. is anchored by a DS its server's DNSKEY does not match:
 * the answer is bogus, its EDE and the one log line say why. */
START_TEST(test_dnssec_failure_ds_matches_no_key)
{
	struct anchors *a;
	char err[ANCHOR_ERR_MAX];
	const struct answer *r;
	const char *log;

	ck_assert_int_eq(anchors_new(&a), ANCHOR_OK);
	ck_assert_int_eq(anchors_add_text(a,
	                                  net_str("zone.example. 3600 IN DS 1 "
	                                          "15 2 "
	                                          "%064d",
	                                          0),
	                                  err, sizeof err),
	                 ANCHOR_OK);
	N.env.anchors = a;
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "zone.example.",
		.qtype = WIRE_TYPE_DNSKEY,
		.flags = WIRE_FLAG_AA,
		.an = { "zone.example. 3600 DNSKEY \\# 6 0101030fabcd" } });
	r = www_logged();
	log = log_read();
	ck_assert_int_eq(r->sec, CACHE_SEC_BOGUS);
	ck_assert(r->ede);
	ck_assert_str_eq(r->ede_text, "no DNSKEY matches the DS");
	ck_assert_uint_eq(lines_with(log, "event=dnssec_failure "), 1);
	ck_assert_ptr_nonnull(strstr(log,
	                             "event=dnssec_failure zone=zone.example. "
	                             "reason=\"no DNSKEY matches the DS\" "
	                             "name=www.zone.example. type=A "
	                             "server=192.0.2.2\n"));
}
END_TEST

/* A good answer logs nothing at info. */
START_TEST(test_no_line_when_answered)
{
	const struct answer *r;

	r = www_logged();
	ck_assert_str_eq(log_read(), "");
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
}
END_TEST

Suite *iter_log_suite(void)
{
	Suite *s = suite_create("iter_log");
	TCase *tc = tcase_create("failure lines");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_loop_test(tc, test_servfail_where, 0,
	                    sizeof where_cases / sizeof where_cases[0]);
	tcase_add_test(tc, test_servfail_where_nothing_asked);
	tcase_add_test(tc, test_dnssec_failure_ds_matches_no_key);
	tcase_add_test(tc, test_no_line_when_answered);
	suite_add_tcase(s, tc);
	return s;
}
