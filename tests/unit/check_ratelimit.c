/*
 * tests/unit/check_ratelimit.c - Suite "ratelimit": per-client token
 * buckets, time driven by the test; one table shared by threads (also
 * built with ThreadSanitizer as check_ratelimit_tsan).
 */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrtest.h"
#include "policy/ratelimit.h"

static struct ratelimit *rl;

static void setup(void)
{
	ck_assert_int_eq(ratelimit_new(&rl), RATELIMIT_OK);
}

static void teardown(void)
{
	ratelimit_free(rl);
	rl = NULL;
}

/* How many of n queries at time now pass. */
static unsigned passes(const struct sockaddr *a, uint32_t qps, bool exempt,
                       unsigned n, uint64_t now)
{
	unsigned i, ok = 0;

	for (i = 0; i < n; i++)
		if (ratelimit_check(rl, a, qps, exempt, now) == RATELIMIT_PASS)
			ok++;
	return ok;
}

START_TEST(test_burst_then_refill)
{
	struct sockaddr_storage a = test_addr("192.0.2.1");

	/* a full bucket: qps queries at once, then nothing */
	ck_assert_uint_eq(passes(SA(a), 10, true, 25, 1000), 10);
	/* 100 ms later: one token back */
	ck_assert_uint_eq(passes(SA(a), 10, true, 5, 1100), 1);
	/* 50 ms: half a token, not enough; 100 ms: one */
	ck_assert_uint_eq(passes(SA(a), 10, true, 5, 1150), 0);
	ck_assert_uint_eq(passes(SA(a), 10, true, 5, 1200), 1);
	/* a long pause refills to the cap only */
	ck_assert_uint_eq(passes(SA(a), 10, true, 50, 100000), 10);
	/* time going backwards refills nothing */
	ck_assert_uint_eq(passes(SA(a), 10, true, 5, 5000), 0);
}
END_TEST

START_TEST(test_steady_rate)
{
	struct sockaddr_storage a = test_addr("192.0.2.2");
	uint64_t t;
	unsigned ok = 0;

	/* 1 query per ms for 10 s against 100 qps: burst + 100/s */
	for (t = 0; t < 10000; t++)
		ok += passes(SA(a), 100, true, 1, t);
	ck_assert_uint_ge(ok, 100 + 999);
	ck_assert_uint_le(ok, 100 + 1000);
}
END_TEST

START_TEST(test_clients_apart)
{
	struct sockaddr_storage a = test_addr("192.0.2.3"),
				b = test_addr("192.0.2.4");
	struct sockaddr_storage c = test_addr("2001:db8:1:2::1");
	struct sockaddr_storage c2 = test_addr("2001:db8:1:2::99");
	struct sockaddr_storage d = test_addr("2001:db8:1:3::1");
	struct sockaddr_storage m = test_addr("::ffff:192.0.2.3");

	ck_assert_uint_eq(passes(SA(a), 5, true, 10, 0), 5);
	ck_assert_uint_eq(passes(SA(b), 5, true, 10, 0), 5);
	/* a v4-mapped address is the same client as its IPv4 */
	ck_assert_uint_eq(passes(SA(m), 5, true, 10, 0), 0);
	/* IPv6: one bucket per /64 */
	ck_assert_uint_eq(passes(SA(c), 5, true, 3, 0), 3);
	ck_assert_uint_eq(passes(SA(c2), 5, true, 10, 0), 2);
	ck_assert_uint_eq(passes(SA(d), 5, true, 10, 0), 5);
}
END_TEST

START_TEST(test_off_and_loopback)
{
	struct sockaddr_storage a = test_addr("192.0.2.5"),
				lo = test_addr("127.0.0.2");
	struct sockaddr_storage lo6 = test_addr("::1"),
				lom = test_addr("::ffff:127.1.2.3");
	struct sockaddr_storage un;

	/* qps 0: no limit */
	ck_assert_uint_eq(passes(SA(a), 0, true, 1000, 0), 1000);
	/* loopback exempt, or not */
	ck_assert_uint_eq(passes(SA(lo), 2, true, 100, 0), 100);
	ck_assert_uint_eq(passes(SA(lo6), 2, true, 100, 0), 100);
	ck_assert_uint_eq(passes(SA(lom), 2, true, 100, 0), 100);
	ck_assert_uint_eq(passes(SA(lo), 2, false, 100, 0), 2);
	ck_assert(ratelimit_is_loopback(SA(lo)));
	ck_assert(ratelimit_is_loopback(SA(lom)));
	ck_assert(!ratelimit_is_loopback(SA(a)));
	/* unknown families pass */
	memset(&un, 0, sizeof un);
	un.ss_family = AF_UNIX;
	ck_assert_uint_eq(passes(SA(un), 1, false, 10, 0), 10);
	ck_assert(!ratelimit_is_loopback(SA(un)));
}
END_TEST

START_TEST(test_limit_lowered)
{
	struct sockaddr_storage a = test_addr("192.0.2.6");

	ck_assert_uint_eq(passes(SA(a), 1000, true, 1, 0), 1);
	/* a reload lowers the limit: the bucket is clipped, not refilled */
	ck_assert_uint_eq(passes(SA(a), 3, true, 10, 0), 3);
}
END_TEST

START_TEST(test_table_full)
{
	struct sockaddr_storage a;
	char text[32];
	unsigned i, limited = 0;

	/* many more clients than slots: the table never fails, and every
	   client gets at least its burst (a taken-over bucket is full) */
	for (i = 0; i < 4 * RATELIMIT_SLOTS; i++) {
		snprintf(text, sizeof text, "10.%u.%u.%u", (i >> 16) & 255,
		         (i >> 8) & 255, i & 255);
		a = test_addr(text);
		if (passes(SA(a), 2, true, 2, i) != 2)
			limited++;
	}
	ck_assert_uint_eq(limited, 0);
	/* the last client is still known: over its limit now */
	ck_assert_uint_eq(passes(SA(a), 2, true, 1, i), 0);
	ck_assert_str_eq(ratelimit_strerror(RATELIMIT_ENOMEM),
	                 "out of memory");
	ck_assert_str_eq(ratelimit_strerror(99), "unknown ratelimit status");
	ck_assert_str_eq(ratelimit_strerror(RATELIMIT_OK), "ok");
}
END_TEST

/* Workers share one table: THREADS threads hammer one client at the
 * same millisecond and together get its burst exactly, not THREADS
 * bursts; each also has a client of its own with its own full bucket. */
#define THREADS 4
#define THREAD_QUERIES 20000
#define THREAD_QPS 1000

struct hammer {
	unsigned index;
	unsigned shared_ok; /* passes for the shared client */
	unsigned own_ok;    /* passes for the thread's own client */
};

static void *hammer_run(void *arg)
{
	struct hammer *h = arg;
	struct sockaddr_storage shared = test_addr("198.51.100.1"), own;
	char text[32];
	unsigned i;

	snprintf(text, sizeof text, "198.51.100.%u", 10 + h->index);
	own = test_addr(text);
	for (i = 0; i < THREAD_QUERIES; i++) {
		if (ratelimit_check(rl, SA(shared), THREAD_QPS, true, 5000) ==
		    RATELIMIT_PASS)
			h->shared_ok++;
		if (ratelimit_check(rl, SA(own), THREAD_QPS, true, 5000) ==
		    RATELIMIT_PASS)
			h->own_ok++;
	}
	return NULL;
}

START_TEST(test_threads_share)
{
	pthread_t t[THREADS];
	struct hammer h[THREADS];
	unsigned i, shared_ok = 0;

	memset(h, 0, sizeof h);
	for (i = 0; i < THREADS; i++) {
		h[i].index = i;
		ck_assert_int_eq(pthread_create(&t[i], NULL, hammer_run,
		                                &h[i]),
		                 0);
	}
	for (i = 0; i < THREADS; i++) {
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		shared_ok += h[i].shared_ok;
		ck_assert_uint_eq(h[i].own_ok, THREAD_QPS);
	}
	ck_assert_uint_eq(shared_ok, THREAD_QPS);
}
END_TEST

static Suite *ratelimit_suite(void)
{
	Suite *su = suite_create("ratelimit");
	TCase *tc = tcase_create("buckets");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_burst_then_refill);
	tcase_add_test(tc, test_steady_rate);
	tcase_add_test(tc, test_clients_apart);
	tcase_add_test(tc, test_off_and_loopback);
	tcase_add_test(tc, test_limit_lowered);
	tcase_add_test(tc, test_table_full);
	suite_add_tcase(su, tc);
	tc = tcase_create("threads");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_threads_share);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(ratelimit_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
