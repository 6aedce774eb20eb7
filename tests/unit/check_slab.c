/*
 * tests/unit/check_slab.c - Suite "slab": fixed-size slots from a
 * 2 MiB-aligned region, reuse through the free list, malloc behind a
 * full or missing region, pages given back when the slab goes idle.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "base/slab.h"

#define HUGE ((uintptr_t)2 << 20)

/* The region starts on a 2 MiB boundary, slots are 64-byte multiples,
 * each slot is writable in full, and slots do not overlap. */
START_TEST(test_layout)
{
	struct slab s;
	uint8_t *p[8];
	size_t i, j;

	ck_assert_int_eq(slab_init(&s, 1000, 8), 0);
	ck_assert_uint_eq((uintptr_t)s.base % HUGE, 0);
	ck_assert_uint_ge(s.slot, 1000);
	ck_assert_uint_eq(s.slot % 64, 0);
	for (i = 0; i < 8; i++) {
		p[i] = slab_alloc(&s);
		ck_assert_ptr_nonnull(p[i]);
		ck_assert_uint_eq((uintptr_t)p[i] % 64, 0);
		memset(p[i], (int)i, 1000);
	}
	for (i = 0; i < 8; i++)
		for (j = 0; j < 1000; j++)
			ck_assert_uint_eq(p[i][j], i);
	ck_assert_uint_eq(s.in_use, 8);
	ck_assert_uint_eq(s.fallbacks, 0);
	for (i = 0; i < 8; i++)
		slab_free(&s, p[i]);
	ck_assert_uint_eq(s.in_use, 0);
	slab_fini(&s);
	ck_assert_ptr_null(s.base);
}
END_TEST

/* A freed slot is handed out again before any fresh one (last freed
 * first), so a steady load touches no new memory. */
START_TEST(test_reuse)
{
	struct slab s;
	void *a, *b, *c;
	int n;

	ck_assert_int_eq(slab_init(&s, 35000, 1024), 0);
	a = slab_alloc(&s);
	b = slab_alloc(&s);
	slab_free(&s, a);
	c = slab_alloc(&s);
	ck_assert_ptr_eq(c, a);
	slab_free(&s, b);
	slab_free(&s, c);
	for (n = 0; n < 100000; n++) {
		a = slab_alloc(&s);
		slab_free(&s, a);
	}
	ck_assert_uint_le(s.bumped, 2);
	ck_assert_uint_eq(s.in_use, 0);
	slab_fini(&s);
}
END_TEST

/* Past nslots the slab hands out malloc'd objects of the slot's size,
 * and slab_free gives them to free (ASan's leak check would fail the
 * test otherwise); the region's own slots still go back to the list. */
START_TEST(test_fallback)
{
	struct slab s;
	void *p[5];
	int i;

	ck_assert_int_eq(slab_init(&s, 100, 3), 0);
	for (i = 0; i < 5; i++) {
		p[i] = slab_alloc(&s);
		ck_assert_ptr_nonnull(p[i]);
		memset(p[i], 0xab, 100);
	}
	ck_assert_uint_eq(s.fallbacks, 2);
	ck_assert_uint_eq(s.in_use, 3);
	for (i = 4; i >= 0; i--)
		slab_free(&s, p[i]);
	ck_assert_uint_eq(s.in_use, 0);
	ck_assert_ptr_eq(slab_alloc(&s), p[0]);
	slab_free(&s, p[0]);
	slab_free(&s, NULL);
	slab_free(NULL, malloc(10));
	slab_fini(&s);
}
END_TEST

/* Sizes that cannot be mapped (none, zero-byte slots, more than the
 * address space) are refused, leaving a slab that still
 * works through malloc. */
START_TEST(test_refused)
{
	struct slab s;
	void *p;

	ck_assert_int_eq(slab_init(&s, 64, 0), -1);
	ck_assert_int_eq(slab_init(&s, SIZE_MAX / 2, 4), -1);
	ck_assert_int_eq(slab_init(&s, 0, 8), -1);
	ck_assert_ptr_null(s.base);
	s.size = 64;
	p = slab_alloc(&s);
	ck_assert_ptr_nonnull(p);
	memset(p, 1, 64);
	slab_free(&s, p);
	ck_assert_uint_eq(s.fallbacks, 1);
	slab_fini(&s);
}
END_TEST

/* slab_fini while a slot is still held keeps the mapping: the holder's
 * memory stays valid (shutdown order mistakes leak, never corrupt). */
START_TEST(test_fini_held)
{
	struct slab s;
	uint8_t *p;

	ck_assert_int_eq(slab_init(&s, 4096, 4), 0);
	p = slab_alloc(&s);
	slab_fini(&s);
	memset(p, 7, 4096);
	ck_assert_uint_eq(p[4095], 7);
}
END_TEST

/* Pages resident (mincore) among the 64 past the first 128 KiB. */
static size_t resident_past_keep(const struct slab *s)
{
	unsigned char vec[64];
	const size_t keep = (size_t)128 << 10, pg = 4096;
	size_t i, n = 0;

	ck_assert_int_eq(mincore(s->base + keep, sizeof vec * pg, vec), 0);
	for (i = 0; i < sizeof vec; i++)
		n += vec[i] & 1;
	return n;
}

/* When the last held slot comes back, the pages past the first 128 KiB
 * go back to the kernel (mincore: not resident; they read as zeros when
 * handed out again), and slots are handed out from the start again;
 * not twice within a second. */
START_TEST(test_idle_trim)
{
	struct slab s;
	uint8_t *p[64], *q = NULL;
	const size_t obj = 8192, keep = (size_t)128 << 10;
	size_t i;

	ck_assert_int_eq(slab_init(&s, obj, 64), 0);
	for (i = 0; i < 64; i++) {
		p[i] = slab_alloc(&s);
		memset(p[i], 0x5a, obj);
	}
	for (i = 0; i < 63; i++)
		slab_free(&s, p[i]);
	ck_assert_uint_eq(s.bumped, 64); /* one still held: nothing given */
	slab_free(&s, p[63]);
	ck_assert_uint_eq(s.in_use, 0);
	ck_assert_uint_eq(s.bumped, 0);
	ck_assert_uint_eq(resident_past_keep(&s), 0);
	ck_assert_ptr_eq(slab_alloc(&s), s.base);
	for (i = 1; i * obj < keep + obj; i++)
		q = slab_alloc(&s);
	ck_assert_ptr_eq(q, s.base + (i - 1) * s.slot);
	ck_assert_uint_eq(q[obj - 1], 0); /* past the kept bytes: zeros */
	ck_assert_uint_eq(s.base[obj - 1], 0x5a); /* kept */
	/* idle again within the second: nothing given back this time */
	for (i = 0; i < 64; i++)
		p[i] = i <= 16 ? s.base + i * s.slot : slab_alloc(&s);
	for (i = 0; i < 64; i++)
		slab_free(&s, p[i]);
	ck_assert_uint_eq(s.bumped, 64);
	slab_fini(&s);
}
END_TEST

static void count_idle(void *arg)
{
	(*(unsigned *)arg)++;
}

/* With an owner's timer (slab_on_idle), an idle slab keeps its pages
 * and tells the owner, at each idle; slab_trim gives them back when no
 * slot is held, and does nothing while one is. */
START_TEST(test_idle_hook)
{
	struct slab s;
	uint8_t *p[64];
	const size_t obj = 8192;
	size_t i;
	unsigned calls = 0;

	ck_assert_int_eq(slab_init(&s, obj, 64), 0);
	slab_on_idle(&s, count_idle, &calls);
	for (i = 0; i < 64; i++) {
		p[i] = slab_alloc(&s);
		memset(p[i], 0x5a, obj);
	}
	for (i = 0; i < 64; i++)
		slab_free(&s, p[i]);
	ck_assert_uint_eq(calls, 1);
	ck_assert_uint_eq(s.bumped, 64); /* kept for the owner */
	for (i = 0; i < 64; i++)
		p[i] = slab_alloc(&s);
	ck_assert_uint_eq(s.bumped, 64); /* the same slots again */
	slab_trim(&s);                   /* slots held: nothing */
	ck_assert_uint_eq(s.bumped, 64);
	for (i = 0; i < 64; i++)
		slab_free(&s, p[i]);
	ck_assert_uint_eq(calls, 2);
	slab_trim(&s);
	ck_assert_uint_eq(s.bumped, 0);
	ck_assert_uint_eq(resident_past_keep(&s), 0);
	ck_assert_ptr_eq(slab_alloc(&s), s.base);
	slab_free(&s, s.base);
	ck_assert_uint_eq(calls, 2); /* within the kept bytes: no call */
	slab_fini(&s);
}
END_TEST

static Suite *slab_suite(void)
{
	Suite *su = suite_create("slab");
	TCase *tc = tcase_create("slots");

	tcase_add_test(tc, test_layout);
	tcase_add_test(tc, test_reuse);
	tcase_add_test(tc, test_fallback);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_fini_held);
	tcase_add_test(tc, test_idle_trim);
	tcase_add_test(tc, test_idle_hook);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(slab_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
