/*
 * tests/unit/check_curvepin.c - Suite "curvepin": the DNSCurve pin table
 * (resolver/infra/curvepin.c): pins, expiry, extension, and the fixed bound;
 * the confirmations (keys a signed apex NS set named): replaced, expired,
 * apart from the pins.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zonename.h"
#include "infra/curvepin.h"

#define T0 1000000

static struct curvepin *p;

static void setup(void)
{
	ck_assert_int_eq(curvepin_new(&p), CURVEPIN_OK);
}

static void teardown(void)
{
	curvepin_free(p);
}

START_TEST(test_pin_expire)
{
	uint8_t z[64];
	size_t len = zonename(1, z);

	ck_assert(!curvepin_held(p, z, len, T0));
	ck_assert_int_eq(curvepin_note(p, z, len, T0 + 60, T0), CURVEPIN_OK);
	ck_assert(curvepin_held(p, z, len, T0));
	ck_assert(curvepin_held(p, z, len, T0 + 59));
	ck_assert(!curvepin_held(p, z, len, T0 + 60));
	/* exact zone only: neither parent nor child */
	ck_assert(!curvepin_held(p, z + 3, len - 3, T0));
	ck_assert_uint_eq(curvepin_count(p, T0), 1);
	ck_assert_uint_eq(curvepin_count(p, T0 + 60), 0);
}
END_TEST

START_TEST(test_pin_extend)
{
	uint8_t z[64];
	size_t len = zonename(2, z);

	ck_assert_int_eq(curvepin_note(p, z, len, T0 + 100, T0), CURVEPIN_OK);
	ck_assert_int_eq(curvepin_note(p, z, len, T0 + 10, T0), CURVEPIN_OK);
	ck_assert(curvepin_held(p, z, len, T0 + 50));
	ck_assert_int_eq(curvepin_note(p, z, len, T0 + 200, T0 + 50),
	                 CURVEPIN_OK);
	ck_assert(curvepin_held(p, z, len, T0 + 150));
	ck_assert_uint_eq(curvepin_count(p, T0), 1);
}
END_TEST

START_TEST(test_pin_reject)
{
	uint8_t z[64], big[CURVEPIN_NAME_MAX + 1];
	size_t len = zonename(3, z);

	memset(big, 1, sizeof big);
	ck_assert_int_eq(curvepin_note(p, z, len, T0, T0), CURVEPIN_EINVAL);
	ck_assert_int_eq(curvepin_note(p, z, 0, T0 + 1, T0), CURVEPIN_EINVAL);
	ck_assert_int_eq(curvepin_note(p, big, sizeof big, T0 + 1, T0),
	                 CURVEPIN_EINVAL);
	ck_assert_int_eq(curvepin_note(NULL, z, len, T0 + 1, T0),
	                 CURVEPIN_EINVAL);
	ck_assert(!curvepin_held(NULL, z, len, T0));
	ck_assert_uint_eq(curvepin_count(p, T0), 0);
}
END_TEST

/* Many more zones than slots: the table stays within its bound, the
 * newest pins are held, and expired slots are reused first. */
START_TEST(test_pin_bound)
{
	uint8_t z[64];
	unsigned i, held = 0, n = 4 * CURVEPIN_SLOTS;
	size_t len;

	for (i = 0; i < n; i++) {
		len = zonename(i, z);
		ck_assert_int_eq(curvepin_note(p, z, len, T0 + 1000 + i, T0),
		                 CURVEPIN_OK);
		ck_assert(curvepin_held(p, z, len, T0));
	}
	ck_assert_uint_le(curvepin_count(p, T0), CURVEPIN_SLOTS);
	ck_assert_uint_gt(curvepin_count(p, T0), CURVEPIN_SLOTS / 2);
	for (i = n - 16; i < n; i++) {
		len = zonename(i, z);
		held += curvepin_held(p, z, len, T0);
	}
	ck_assert_uint_eq(held, 16);
	/* all expired: fresh pins take their slots */
	for (i = 0; i < CURVEPIN_SLOTS / 2; i++) {
		len = zonename(n + i, z);
		ck_assert_int_eq(curvepin_note(p, z, len, T0 + 10 * n,
		                               T0 + 5 * n),
		                 CURVEPIN_OK);
	}
	ck_assert_uint_eq(curvepin_count(p, T0 + 5 * n), CURVEPIN_SLOTS / 2);
}
END_TEST

/* A confirmation with key digest byte k, parent digest byte pk. */
static struct curvepin_conf conf(uint8_t k, uint8_t pk, unsigned n,
                                 time_t until)
{
	struct curvepin_conf c;

	memset(&c, 0, sizeof c);
	memset(c.keys, k, sizeof c.keys);
	memset(c.parent, pk, sizeof c.parent);
	c.nkeys = n;
	c.until = until;
	return c;
}

START_TEST(test_confirm)
{
	uint8_t z[64];
	size_t len = zonename(7, z);
	struct curvepin_conf c = conf(1, 2, 1, T0 + 60), got;

	ck_assert(!curvepin_confirmed(p, z, len, T0, &got));
	ck_assert_int_eq(curvepin_confirm(p, z, len, &c, T0), CURVEPIN_OK);
	ck_assert(curvepin_confirmed(p, z, len, T0 + 59, &got));
	ck_assert_mem_eq(got.keys, c.keys, sizeof c.keys);
	ck_assert_mem_eq(got.parent, c.parent, sizeof c.parent);
	ck_assert_uint_eq(got.nkeys, 1);
	ck_assert(!curvepin_confirmed(p, z, len, T0 + 60, NULL));
	/* a confirmation is no pin, and a pin no confirmation */
	ck_assert(!curvepin_held(p, z, len, T0));
	ck_assert_int_eq(curvepin_note(p, z, len, T0 + 500, T0), CURVEPIN_OK);
	ck_assert_uint_eq(curvepin_count(p, T0), 1);
	/* the newest replaces, even with a shorter life */
	c = conf(3, 3, 0, T0 + 30);
	ck_assert_int_eq(curvepin_confirm(p, z, len, &c, T0), CURVEPIN_OK);
	ck_assert(curvepin_confirmed(p, z, len, T0, &got));
	ck_assert_uint_eq(got.keys[0], 3);
	ck_assert_uint_eq(got.nkeys, 0);
	ck_assert(!curvepin_confirmed(p, z, len, T0 + 30, NULL));
	/* exact zone only */
	ck_assert(!curvepin_confirmed(p, z + 3, len - 3, T0, NULL));
	c = conf(1, 1, 1, T0);
	ck_assert_int_eq(curvepin_confirm(p, z, len, &c, T0), CURVEPIN_EINVAL);
	ck_assert_int_eq(curvepin_confirm(NULL, z, len, &c, T0 + 1),
	                 CURVEPIN_EINVAL);
	ck_assert_int_eq(curvepin_confirm(p, z, 0, &c, T0 - 1),
	                 CURVEPIN_EINVAL);
	ck_assert(!curvepin_confirmed(NULL, z, len, T0, NULL));
}
END_TEST

/* More zones than slots: the newest confirmations stand. */
START_TEST(test_confirm_bound)
{
	uint8_t z[64];
	unsigned i, held = 0, n = 4 * CURVEPIN_SLOTS;
	size_t len;

	for (i = 0; i < n; i++) {
		struct curvepin_conf c = conf((uint8_t)i, 0, 1, T0 + 1000 + i);

		len = zonename(i, z);
		ck_assert_int_eq(curvepin_confirm(p, z, len, &c, T0),
		                 CURVEPIN_OK);
	}
	for (i = n - 16; i < n; i++) {
		struct curvepin_conf got;

		len = zonename(i, z);
		held += curvepin_confirmed(p, z, len, T0, &got) &&
		        got.keys[0] == (uint8_t)i;
	}
	ck_assert_uint_eq(held, 16);
	ck_assert_uint_eq(curvepin_count(p, T0), 0);
}
END_TEST

/* One table for all workers: threads pin zones of their own and look up
 * each other's while they do; every pin is seen by every thread. */
#define THREADS 4
#define THREAD_ZONES 64

struct pinner {
	unsigned index;
	unsigned others_seen; /* the other threads' zones found held */
};

static void *pinner_run(void *arg)
{
	struct pinner *w = arg;
	uint8_t z[64];
	size_t len;
	unsigned i, k;

	for (i = 0; i < THREAD_ZONES; i++) {
		len = zonename(w->index * THREAD_ZONES + i, z);
		if (curvepin_note(p, z, len, T0 + 100, T0) != CURVEPIN_OK ||
		    !curvepin_held(p, z, len, T0))
			return "own pin lost";
		/* a zone of another thread, pinned or not yet */
		k = (w->index + 1) % THREADS;
		len = zonename(k * THREAD_ZONES + i, z);
		(void)curvepin_held(p, z, len, T0);
		(void)curvepin_count(p, T0);
	}
	return NULL;
}

START_TEST(test_pin_threads)
{
	pthread_t t[THREADS];
	struct pinner w[THREADS];
	uint8_t z[64];
	size_t len;
	unsigned i, held = 0;
	void *ret;

	for (i = 0; i < THREADS; i++) {
		w[i].index = i;
		ck_assert_int_eq(pthread_create(&t[i], NULL, pinner_run,
		                                &w[i]),
		                 0);
	}
	for (i = 0; i < THREADS; i++) {
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_null(ret);
	}
	for (i = 0; i < THREADS * THREAD_ZONES; i++) {
		len = zonename(i, z);
		held += curvepin_held(p, z, len, T0 + 99);
	}
	/* 256 zones in 1,024 slots probed 8 deep: all fit (FNV of these
	   names is fixed, so this does not vary from run to run) */
	ck_assert_uint_eq(held, THREADS * THREAD_ZONES);
	ck_assert_uint_eq(curvepin_count(p, T0), THREADS * THREAD_ZONES);
}
END_TEST

static Suite *curvepin_suite(void)
{
	Suite *s = suite_create("curvepin");
	TCase *tc = tcase_create("pins");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pin_expire);
	tcase_add_test(tc, test_pin_extend);
	tcase_add_test(tc, test_pin_reject);
	tcase_add_test(tc, test_confirm);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pin_bound);
	tcase_add_test(tc, test_confirm_bound);
	suite_add_tcase(s, tc);
	tc = tcase_create("threads");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pin_threads);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(curvepin_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
