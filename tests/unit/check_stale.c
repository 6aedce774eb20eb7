/*
 * tests/unit/check_stale.c - Suite "stale": serve-stale answers and
 * prefetch decisions from the cache (resolver/front/stale.c), time driven by
 * hand.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cachetest.h"
#include "front/respond.h"
#include "front/stale.h"
#include "wire/wire.h"

#define T0 CACHETEST_T0
#define WINDOW 86400u

static uint8_t buf[8192];

static void put_a(const char *name, uint32_t ttl, time_t now)
{
	static const uint8_t a[4] = { 192, 0, 2, 1 };

	cachetest_put(name, WIRE_TYPE_A, ttl, a, sizeof a, CACHE_RANK_AUTH,
	              now);
}

static int ask(const char *name, uint16_t type, time_t now, struct answer *a,
               bool *st)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len = wname(n, name);

	return stale_answer(c, n, len, type, WIRE_CLASS_IN, now, WINDOW, a,
	                    buf, sizeof buf, st);
}

/* TTL of the i-th RR of an image. */
static uint32_t ttl_of(const uint8_t *img, size_t len, size_t i)
{
	struct wire_rr rr;
	size_t pos = 0, k;

	for (k = 0; k <= i; k++)
		ck_assert_int_eq(wire_read_rr(img, len, &pos, &rr), WIRE_OK);
	return rr.ttl;
}

START_TEST(test_fresh_is_not_stale)
{
	struct answer a;
	bool st = true;

	put_a("www.example", 300, T0);
	ck_assert_int_eq(ask("www.example", WIRE_TYPE_A, T0 + 100, &a, &st),
	                 STALE_OK);
	ck_assert(!st);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_uint_eq(ttl_of(a.an, a.an_len, 0), 200);
	ck_assert(!a.ede); /* fresh: no Stale Answer EDE */
}
END_TEST

START_TEST(test_expired_gets_ttl_30)
{
	struct answer a;
	bool st = false;

	put_a("www.example", 300, T0);
	ck_assert_int_eq(ask("www.example", WIRE_TYPE_A, T0 + 5000, &a, &st),
	                 STALE_OK);
	ck_assert(st);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_uint_eq(ttl_of(a.an, a.an_len, 0), STALE_TTL);
	/* RFC 8914 section 4.4: EDE 3, Stale Answer, without text. */
	ck_assert(a.ede);
	ck_assert_uint_eq(a.ede_code, 3);
	ck_assert_ptr_null(a.ede_text);
}
END_TEST

START_TEST(test_window)
{
	struct answer a;
	bool st;

	put_a("www.example", 300, T0);
	ck_assert_int_eq(ask("www.example", WIRE_TYPE_A, T0 + 300 + WINDOW, &a,
	                     &st),
	                 STALE_OK);
	ck_assert_int_eq(ask("www.example", WIRE_TYPE_A, T0 + 301 + WINDOW, &a,
	                     &st),
	                 STALE_EMISS);
	ck_assert_int_eq(ask("none.example", WIRE_TYPE_A, T0, &a, &st),
	                 STALE_EMISS);
}
END_TEST

/* A fresh CNAME to an expired A: the chain, only the A at TTL 30. */
START_TEST(test_cname_chain)
{
	uint8_t target[WIRE_NAME_MAX];
	size_t tlen = wname(target, "www.example");
	struct answer a;
	bool st = false;

	cachetest_put("alias.example", WIRE_TYPE_CNAME, 100000, target, tlen,
	              CACHE_RANK_AUTH, T0);
	put_a("www.example", 300, T0);
	ck_assert_int_eq(ask("alias.example", WIRE_TYPE_A, T0 + 1000, &a, &st),
	                 STALE_OK);
	ck_assert(st);
	ck_assert_uint_eq(a.an_count, 2);
	ck_assert_uint_eq(ttl_of(a.an, a.an_len, 0), 86400 - 1000);
	ck_assert_uint_eq(ttl_of(a.an, a.an_len, 1), STALE_TTL);
}
END_TEST

/* Glue never answers, even stale. */
START_TEST(test_glue_not_served)
{
	static const uint8_t a4[4] = { 192, 0, 2, 9 };
	struct answer a;
	bool st;

	cachetest_put("ns.example", WIRE_TYPE_A, 300, a4, sizeof a4,
	              CACHE_RANK_GLUE, T0);
	ck_assert_int_eq(ask("ns.example", WIRE_TYPE_A, T0 + 1000, &a, &st),
	                 STALE_EMISS);
}
END_TEST

START_TEST(test_negative_stale)
{
	uint8_t n[WIRE_NAME_MAX], z[WIRE_NAME_MAX], rd[600];
	size_t rl;
	struct answer a;
	bool st = false;
	struct cache_neg neg;

	rl = wname(rd, "ns.example");
	rl += wname(rd + rl, "host.example");
	memset(rd + rl, 0, 20);
	rd[rl + 19] = 60; /* MINIMUM 60 */
	rl += 20;
	memset(&neg, 0, sizeof neg);
	neg.kind = CACHE_KIND_NXDOMAIN;
	neg.name = n;
	neg.name_len = wname(n, "gone.example");
	neg.type = WIRE_TYPE_A;
	neg.klass = WIRE_CLASS_IN;
	neg.soa_name = z;
	neg.soa_name_len = wname(z, "example");
	neg.soa_ttl = 3600;
	neg.soa_rdata = rd;
	neg.soa_rdlen = rl;
	neg.rank = CACHE_RANK_AUTH;
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_OK);
	ck_assert_int_eq(ask("gone.example", WIRE_TYPE_A, T0 + 100, &a, &st),
	                 STALE_OK);
	ck_assert(st);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(a.ns_count, 1);
	ck_assert_uint_eq(ttl_of(a.ns, a.ns_len, 0), STALE_TTL);
	ck_assert(a.ede && a.ede_code == 3);
}
END_TEST

START_TEST(test_reject)
{
	struct answer a;
	bool st;
	static const uint8_t root[1] = { 0 };

	ck_assert_int_eq(stale_answer(NULL, root, 1, 1, 1, T0, 1, &a, buf,
	                              sizeof buf, &st),
	                 STALE_EINVAL);
	ck_assert_int_eq(stale_answer(c, root, 0, 1, 1, T0, 1, &a, buf,
	                              sizeof buf, &st),
	                 STALE_EINVAL);
	ck_assert_int_eq(stale_answer(c, root, 1, 1, 1, T0, 1, &a, buf,
	                              sizeof buf, NULL),
	                 STALE_EINVAL);
	ck_assert_str_eq(stale_strerror(STALE_EMISS),
	                 "no usable data, fresh or stale");
	ck_assert_str_eq(stale_strerror(99), "unknown status");
}
END_TEST

/* Prefetch: due in the last 10 % of the stored TTL, not before. */
static bool due(const char *name, uint16_t type, time_t now)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len = wname(n, name);
	struct answer a;

	if (respond_cache_answer(c, n, len, type, WIRE_CLASS_IN, now, &a, buf,
	                         sizeof buf) != RESPOND_OK)
		return false;
	return stale_prefetch_due(c, &a, n, len, type, WIRE_CLASS_IN, now,
	                          86400);
}

START_TEST(test_prefetch_due)
{
	uint8_t target[WIRE_NAME_MAX];
	size_t tlen = wname(target, "www.example");

	put_a("www.example", 1000, T0);
	ck_assert(!due("www.example", WIRE_TYPE_A, T0));
	ck_assert(!due("www.example", WIRE_TYPE_A, T0 + 899));
	ck_assert(due("www.example", WIRE_TYPE_A, T0 + 900));
	ck_assert(due("www.example", WIRE_TYPE_A, T0 + 999));
	ck_assert(!due("www.example", WIRE_TYPE_A, T0 + 1000)); /* a miss */
	/* Through a CNAME: the link with the least life left decides. */
	put_a("www.example", 1000, T0);
	cachetest_put("alias.example", WIRE_TYPE_CNAME, 100, target, tlen,
	              CACHE_RANK_AUTH, T0);
	ck_assert(!due("alias.example", WIRE_TYPE_A, T0 + 50));
	ck_assert(due("alias.example", WIRE_TYPE_A, T0 + 95));
	/* A 2 s TTL: 1 s left is half its life, not due. */
	put_a("short.example", 2, T0);
	ck_assert(!due("short.example", WIRE_TYPE_A, T0 + 1));
	ck_assert(!stale_prefetch_due(NULL, NULL, NULL, 0, 0, 0, T0, 0));
}
END_TEST

/* The answer's an_ttl (answer_chase's least TTL) spares the walk: one
 * above max_ttl / 10 says "not due" whatever the records say; 0, not
 * known, walks them. */
START_TEST(test_prefetch_an_ttl)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len = wname(n, "www.example");
	struct answer a;

	put_a("www.example", 1000, T0);
	ck_assert_int_eq(respond_cache_answer(c, n, len, WIRE_TYPE_A,
	                                      WIRE_CLASS_IN, T0 + 950, &a, buf,
	                                      sizeof buf),
	                 RESPOND_OK);
	ck_assert_uint_eq(a.an_ttl, 50);
	ck_assert(stale_prefetch_due(c, &a, n, len, WIRE_TYPE_A, WIRE_CLASS_IN,
	                             T0 + 950, 86400));
	a.an_ttl = 8641;
	ck_assert(!stale_prefetch_due(c, &a, n, len, WIRE_TYPE_A,
	                              WIRE_CLASS_IN, T0 + 950, 86400));
	a.an_ttl = 0;
	ck_assert(stale_prefetch_due(c, &a, n, len, WIRE_TYPE_A, WIRE_CLASS_IN,
	                             T0 + 950, 86400));
}
END_TEST

static Suite *stale_suite(void)
{
	Suite *s = suite_create("stale");
	TCase *tc = tcase_create("serve");

	tcase_add_checked_fixture(tc, cachetest_setup, cachetest_teardown);
	tcase_add_test(tc, test_fresh_is_not_stale);
	tcase_add_test(tc, test_expired_gets_ttl_30);
	tcase_add_test(tc, test_window);
	tcase_add_test(tc, test_cname_chain);
	tcase_add_test(tc, test_glue_not_served);
	tcase_add_test(tc, test_negative_stale);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, cachetest_setup, cachetest_teardown);
	tcase_add_test(tc, test_reject);
	suite_add_tcase(s, tc);
	tc = tcase_create("prefetch");
	tcase_add_checked_fixture(tc, cachetest_setup, cachetest_teardown);
	tcase_add_test(tc, test_prefetch_due);
	tcase_add_test(tc, test_prefetch_an_ttl);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stale_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
