/*
 * tests/unit/check_inflight.c - Suite "inflight": joining identical
 * resolutions, the bounds of the table, dropping the oldest.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "front/inflight.h"

static struct inflight *t;

static void setup(void)
{
	ck_assert_int_ge(sodium_init(), 0);
	ck_assert_int_eq(inflight_new(&t, 4, 8), INFLIGHT_OK);
}

static void teardown(void)
{
	inflight_free(t);
	t = NULL;
}

/* A lowercase one-label name "\3abc" style from text without dots. */
static size_t mkname(uint8_t *name, const char *label)
{
	size_t n = strlen(label);

	name[0] = (uint8_t)n;
	memcpy(name + 1, label, n);
	name[n + 1] = 0;
	return n + 2;
}

static struct inflight_waiter waiter(uint16_t id)
{
	struct inflight_waiter w;

	memset(&w, 0, sizeof w);
	w.q.id = id;
	w.dest.slot = id;
	return w;
}

/* Records the IDs of the waiters a finish calls back. */
struct seen {
	uint16_t ids[64];
	size_t n;
};

static void record(void *arg, const struct inflight_waiter *w)
{
	struct seen *s = arg;

	if (s->n < 64)
		s->ids[s->n++] = w->q.id;
}

START_TEST(test_join)
{
	uint8_t n[WIRE_NAME_MAX];
	struct inflight_entry *e, *f;
	struct inflight_waiter w;
	struct seen s = { { 0 }, 0 };
	const uint8_t *kn;
	size_t len = mkname(n, "www"), kl;
	uint16_t kt, kc;
	int res = 42;

	ck_assert_ptr_null(inflight_find(t, n, len, 1, 1));
	ck_assert_int_eq(inflight_add(t, n, len, 1, 1, &res, &e), INFLIGHT_OK);
	ck_assert_int_eq(inflight_add(t, n, len, 1, 1, &res, &f),
	                 INFLIGHT_EEXIST);
	ck_assert_ptr_eq(inflight_find(t, n, len, 1, 1), e);
	/* Another type or class is another resolution. */
	ck_assert_ptr_null(inflight_find(t, n, len, 28, 1));
	ck_assert_ptr_null(inflight_find(t, n, len, 1, 3));
	w = waiter(1);
	ck_assert_int_eq(inflight_wait(t, e, &w), INFLIGHT_OK);
	w = waiter(2);
	ck_assert_int_eq(inflight_wait(t, e, &w), INFLIGHT_OK);
	w = waiter(3);
	ck_assert_int_eq(inflight_wait(t, e, &w), INFLIGHT_OK);
	ck_assert_uint_eq(inflight_entry_waiters(e), 3);
	ck_assert_ptr_eq(inflight_entry_res(e), &res);
	inflight_entry_key(e, &kn, &kl, &kt, &kc);
	ck_assert_uint_eq(kl, len);
	ck_assert_mem_eq(kn, n, len);
	ck_assert_uint_eq(kt, 1);
	ck_assert_uint_eq(inflight_count(t), 1);
	inflight_finish(t, e, record, &s);
	ck_assert_uint_eq(s.n, 3);
	ck_assert_uint_eq(s.ids[0], 1);
	ck_assert_uint_eq(s.ids[1], 2);
	ck_assert_uint_eq(s.ids[2], 3);
	ck_assert_uint_eq(inflight_count(t), 0);
	ck_assert_ptr_null(inflight_find(t, n, len, 1, 1));
	ck_assert_ptr_null(inflight_oldest(t));
}
END_TEST

START_TEST(test_full_oldest)
{
	uint8_t n[WIRE_NAME_MAX];
	struct inflight_entry *e[5], *x;
	char label[8];
	size_t len;
	int i;

	for (i = 0; i < 4; i++) {
		snprintf(label, sizeof label, "n%d", i);
		len = mkname(n, label);
		ck_assert_int_eq(inflight_add(t, n, len, 1, 1, NULL, &e[i]),
		                 INFLIGHT_OK);
	}
	len = mkname(n, "n4");
	ck_assert_int_eq(inflight_add(t, n, len, 1, 1, NULL, &e[4]),
	                 INFLIGHT_EFULL);
	/* The caller ends the oldest, then there is room. */
	ck_assert_ptr_eq(inflight_oldest(t), e[0]);
	inflight_finish(t, e[0], NULL, NULL);
	ck_assert_int_eq(inflight_add(t, n, len, 1, 1, NULL, &e[4]),
	                 INFLIGHT_OK);
	ck_assert_ptr_eq(inflight_oldest(t), e[1]);
	/* Removing from the middle keeps the age order. */
	inflight_finish(t, e[2], NULL, NULL);
	ck_assert_ptr_eq(inflight_oldest(t), e[1]);
	inflight_finish(t, e[1], NULL, NULL);
	ck_assert_ptr_eq(inflight_oldest(t), e[3]);
	len = mkname(n, "n3");
	x = inflight_find(t, n, len, 1, 1);
	ck_assert_ptr_eq(x, e[3]);
	inflight_finish(t, e[3], NULL, NULL);
	ck_assert_ptr_eq(inflight_oldest(t), e[4]);
	ck_assert_uint_eq(inflight_count(t), 1);
}
END_TEST

/* Add the entry "nI" (asserting it fits). */
static struct inflight_entry *add_n(int i)
{
	uint8_t n[WIRE_NAME_MAX];
	struct inflight_entry *e = NULL;
	char label[16]; /* "n", an int, NUL */
	size_t len;

	snprintf(label, sizeof label, "n%d", i);
	len = mkname(n, label);
	ck_assert_int_eq(inflight_add(t, n, len, 1, 1, NULL, &e), INFLIGHT_OK);
	return e;
}

/* The first half of the table is protected; the others are on the
 * jostle list, oldest first, and a freed protected slot goes to the next
 * entry added. */
START_TEST(test_jostle_half)
{
	struct inflight_entry *e[6];
	int i;

	ck_assert_ptr_null(inflight_jostle_oldest(t));
	ck_assert(!inflight_full(t));
	for (i = 0; i < 4; i++) {
		e[i] = add_n(i);
		/* two of four are protected: none may be jostled yet */
		ck_assert_ptr_eq(inflight_jostle_oldest(t),
		                 i < 2 ? NULL : e[2]);
	}
	ck_assert(inflight_full(t));
	/* the protected e[0] ends: the next one added takes its place */
	inflight_finish(t, e[0], NULL, NULL);
	ck_assert(!inflight_full(t));
	e[4] = add_n(4);
	ck_assert_ptr_eq(inflight_jostle_oldest(t), e[2]);
	/* jostled: e[2] goes, e[3] is the next candidate; a new one joins
	 * the jostle list behind it */
	inflight_finish(t, e[2], NULL, NULL);
	ck_assert_ptr_eq(inflight_jostle_oldest(t), e[3]);
	e[5] = add_n(5);
	ck_assert_ptr_eq(inflight_jostle_oldest(t), e[3]);
	inflight_finish(t, e[3], NULL, NULL);
	ck_assert_ptr_eq(inflight_jostle_oldest(t), e[5]);
	inflight_finish(t, e[5], NULL, NULL);
	ck_assert_ptr_null(inflight_jostle_oldest(t));
	ck_assert_ptr_eq(inflight_oldest(t), e[1]);
}
END_TEST

START_TEST(test_waiter_pool)
{
	uint8_t n[WIRE_NAME_MAX];
	struct inflight_entry *a, *b;
	struct inflight_waiter w = waiter(7);
	struct seen s = { { 0 }, 0 };
	size_t len;
	int i;

	len = mkname(n, "a");
	ck_assert_int_eq(inflight_add(t, n, len, 1, 1, NULL, &a), INFLIGHT_OK);
	len = mkname(n, "b");
	ck_assert_int_eq(inflight_add(t, n, len, 1, 1, NULL, &b), INFLIGHT_OK);
	for (i = 0; i < 8; i++)
		ck_assert_int_eq(inflight_wait(t, i < 5 ? a : b, &w),
		                 INFLIGHT_OK);
	ck_assert_int_eq(inflight_wait(t, b, &w), INFLIGHT_EFULL);
	/* Ending a resolution returns its waiters to the pool. */
	inflight_finish(t, a, record, &s);
	ck_assert_uint_eq(s.n, 5);
	for (i = 0; i < 5; i++)
		ck_assert_int_eq(inflight_wait(t, b, &w), INFLIGHT_OK);
	ck_assert_uint_eq(inflight_entry_waiters(b), 8);
	s.n = 0;
	inflight_finish(t, b, record, &s);
	ck_assert_uint_eq(s.n, 8);
}
END_TEST

START_TEST(test_per_entry_cap)
{
	struct inflight *big;
	struct inflight_entry *e;
	struct inflight_waiter w = waiter(1);
	uint8_t n[WIRE_NAME_MAX];
	size_t len = mkname(n, "x"), i;

	ck_assert_int_eq(inflight_new(&big, 2, 2 * INFLIGHT_WAITERS_PER_ENTRY),
	                 INFLIGHT_OK);
	ck_assert_int_eq(inflight_add(big, n, len, 1, 1, NULL, &e),
	                 INFLIGHT_OK);
	for (i = 0; i < INFLIGHT_WAITERS_PER_ENTRY; i++)
		ck_assert_int_eq(inflight_wait(big, e, &w), INFLIGHT_OK);
	ck_assert_int_eq(inflight_wait(big, e, &w), INFLIGHT_EWAITERS);
	inflight_free(big);
}
END_TEST

START_TEST(test_reject)
{
	struct inflight *x = NULL;
	struct inflight_entry *e;
	uint8_t n[WIRE_NAME_MAX];

	ck_assert_int_eq(inflight_new(&x, 0, 1), INFLIGHT_EINVAL);
	ck_assert_int_eq(inflight_new(&x, 1, 0), INFLIGHT_EINVAL);
	ck_assert_int_eq(inflight_new(&x, INFLIGHT_POOL_MAX + 1, 1),
	                 INFLIGHT_EINVAL);
	ck_assert_int_eq(inflight_new(NULL, 1, 1), INFLIGHT_EINVAL);
	ck_assert_int_eq(inflight_add(t, n, 0, 1, 1, NULL, &e),
	                 INFLIGHT_EINVAL);
	ck_assert_int_eq(inflight_add(t, n, WIRE_NAME_MAX + 1, 1, 1, NULL, &e),
	                 INFLIGHT_EINVAL);
	ck_assert_int_eq(inflight_wait(t, NULL, NULL), INFLIGHT_EINVAL);
	ck_assert_ptr_null(inflight_find(NULL, n, 1, 1, 1));
	inflight_finish(t, NULL, NULL, NULL);
	inflight_free(NULL);
	ck_assert_str_eq(inflight_strerror(INFLIGHT_EFULL), "table full");
}
END_TEST

START_TEST(test_many)
{
	struct inflight *big;
	struct inflight_entry *e;
	uint8_t n[WIRE_NAME_MAX];
	char label[16];
	size_t len, i;

	ck_assert_int_eq(inflight_new(&big, 1000, 1000), INFLIGHT_OK);
	for (i = 0; i < 3000; i++) {
		snprintf(label, sizeof label, "n%zu", i);
		len = mkname(n, label);
		if (inflight_add(big, n, len, 1, 1, NULL, &e) ==
		    INFLIGHT_EFULL) {
			inflight_finish(big, inflight_oldest(big), NULL, NULL);
			ck_assert_int_eq(inflight_add(big, n, len, 1, 1, NULL,
			                              &e),
			                 INFLIGHT_OK);
		}
	}
	ck_assert_uint_eq(inflight_count(big), 1000);
	for (i = 2000; i < 3000; i++) {
		snprintf(label, sizeof label, "n%zu", i);
		len = mkname(n, label);
		ck_assert_ptr_nonnull(inflight_find(big, n, len, 1, 1));
	}
	len = mkname(n, "n1999");
	ck_assert_ptr_null(inflight_find(big, n, len, 1, 1));
	inflight_free(big);
}
END_TEST

static Suite *inflight_suite(void)
{
	Suite *s = suite_create("inflight");
	TCase *tc;

	tc = tcase_create("join");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_join);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_full_oldest);
	tcase_add_test(tc, test_jostle_half);
	tcase_add_test(tc, test_waiter_pool);
	tcase_add_test(tc, test_per_entry_cap);
	tcase_add_test(tc, test_many);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_reject);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(inflight_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
