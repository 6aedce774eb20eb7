/*
 * tests/unit/check_deadzone.c - Suite "deadzone": the resolution failure
 * cache (resolver/infra/deadzone.c, RFC 9520): a zone's back-off doubles
 * per failure up to its cap, network errors keep the short one, one probe
 * at a time after the back-off, an answer resets it all, a question's
 * failure lasts its second; the fixed bound of the table; and its use by
 * several threads at once (built with ThreadSanitizer too).
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "zonename.h"
#include "infra/deadzone.h"

#define T0 1000000u
#define HOLD 5000u

static struct deadzone *dz;

static void setup(void)
{
	ck_assert_int_eq(deadzone_new(&dz), DEADZONE_OK);
}

static void teardown(void)
{
	deadzone_free(dz);
}

static enum deadzone_verdict at(uint64_t key, uint64_t now)
{
	return deadzone_check(dz, key, now, HOLD, NULL);
}

START_TEST(test_backoff_doubles)
{
	uint8_t z[32];
	size_t len = zonename(1, z);
	uint64_t k = deadzone_key(z, len, 0), t = T0;
	uint32_t want = DEADZONE_BACKOFF_MIN_MS;
	uint16_t ede = 0;
	unsigned i;

	ck_assert_int_eq(at(k, t), DEADZONE_ASK);
	for (i = 0; i < 12; i++) {
		ck_assert_uint_eq(deadzone_fail(dz, k, z, len, 0,
		                                DEADZONE_EDE_NO_REACH, t),
		                  want);
		ck_assert_int_eq(deadzone_check(dz, k, t + want - 1, HOLD,
		                                &ede),
		                 DEADZONE_FAIL);
		ck_assert_uint_eq(ede, DEADZONE_EDE_NO_REACH);
		t += want;
		/* one probe; the others fail while it is out */
		ck_assert_int_eq(at(k, t), DEADZONE_PROBE);
		ck_assert_int_eq(at(k, t + 1), DEADZONE_FAIL);
		want = want * 2 > DEADZONE_BACKOFF_MAX_MS ?
		               DEADZONE_BACKOFF_MAX_MS :
		               want * 2;
	}
	ck_assert_uint_eq(want, DEADZONE_BACKOFF_MAX_MS);
	/* the probe's hold runs out: another may probe */
	ck_assert_int_eq(at(k, t + HOLD), DEADZONE_PROBE);
}
END_TEST

/* A background probe (deadzone_extend) keeps the zone held while it
 * runs, longer than the hold its DEADZONE_PROBE verdict set; it makes no
 * entry; its failure doubles the back-off. */
START_TEST(test_probe_extend)
{
	uint8_t z[32];
	size_t len = zonename(2, z);
	uint64_t k = deadzone_key(z, len, 0), t = T0;
	uint16_t ede = 0;
	unsigned fails;
	uint64_t left;
	bool probing;

	ck_assert(!deadzone_extend(dz, k, t, HOLD));
	ck_assert(!deadzone_busy(dz));
	(void)deadzone_fail(dz, k, z, len, 0, DEADZONE_EDE_NO_REACH, t);
	t += DEADZONE_BACKOFF_MIN_MS;
	/* the probe verdict tells the EDE its failures carry */
	ck_assert_int_eq(deadzone_check(dz, k, t, 10, &ede), DEADZONE_PROBE);
	ck_assert_uint_eq(ede, DEADZONE_EDE_NO_REACH);
	ck_assert(deadzone_extend(dz, k, t + 5, HOLD));
	ck_assert_int_eq(at(k, t + HOLD), DEADZONE_FAIL);
	/* never shortened */
	ck_assert(deadzone_extend(dz, k, t + 6, 1));
	ck_assert_int_eq(at(k, t + HOLD), DEADZONE_FAIL);
	ck_assert(deadzone_refail(dz, k, DEADZONE_EDE_NO_REACH, t + 3000));
	ck_assert(deadzone_get(dz, k, t + 3000, &fails, &left, &probing));
	ck_assert_uint_eq(fails, 2);
	ck_assert_uint_eq(left, 2 * DEADZONE_BACKOFF_MIN_MS);
	ck_assert(!probing);
	/* an answer ends it: nothing left to extend */
	deadzone_alive(dz, k);
	ck_assert(!deadzone_extend(dz, k, t + 3001, HOLD));
	ck_assert_int_eq(at(k, t + 3001), DEADZONE_ASK);
}
END_TEST

/* A worker's timer (deadzone_due): waits while the back-off runs,
 * probes once at its end (holding the zone), stops after idle_max probes
 * with no client question between (deadzone_check resets the count),
 * and wants nothing once an answer ended the zone. */
START_TEST(test_timer_due)
{
	uint8_t z[32];
	size_t len = zonename(5, z);
	uint64_t k = deadzone_key(z, len, 0), t = T0, left = 7;
	unsigned i;

	ck_assert_int_eq(deadzone_due(dz, k, t, HOLD, 2, &left), DEADZONE_ASK);
	ck_assert_uint_eq(left, 0);
	(void)deadzone_fail(dz, k, z, len, 0, DEADZONE_EDE_NO_REACH, t);
	ck_assert_int_eq(deadzone_due(dz, k, t + 400, HOLD, 2, &left),
	                 DEADZONE_FAIL);
	ck_assert_uint_eq(left, DEADZONE_BACKOFF_MIN_MS - 400);
	for (i = 0; i < 2; i++) {
		t += 10 * DEADZONE_BACKOFF_MAX_MS / 8;
		ck_assert_int_eq(deadzone_due(dz, k, t, HOLD, 2, &left),
		                 DEADZONE_PROBE);
		/* the probe is out: clients fail, another timer waits */
		ck_assert_int_eq(at(k, t + 1), DEADZONE_FAIL);
		ck_assert_int_eq(deadzone_due(dz, k, t + 2, HOLD, 2, &left),
		                 DEADZONE_FAIL);
		ck_assert_uint_eq(left, 0);
		ck_assert(deadzone_refail(dz, k, DEADZONE_EDE_NO_REACH,
		                          t + 3));
	}
	/* a client asked after each probe (at above): still probed */
	t += 10 * DEADZONE_BACKOFF_MAX_MS / 8;
	ck_assert_int_eq(deadzone_due(dz, k, t, HOLD, 2, &left),
	                 DEADZONE_PROBE);
	ck_assert(deadzone_refail(dz, k, DEADZONE_EDE_NO_REACH, t + 3));
	t += 10 * DEADZONE_BACKOFF_MAX_MS / 8;
	ck_assert_int_eq(deadzone_due(dz, k, t, HOLD, 2, &left),
	                 DEADZONE_PROBE);
	ck_assert(deadzone_refail(dz, k, DEADZONE_EDE_NO_REACH, t + 3));
	/* two probes in a row with no client: the timer stops */
	t += 10 * DEADZONE_BACKOFF_MAX_MS / 8;
	ck_assert_int_eq(deadzone_due(dz, k, t, HOLD, 2, &left), DEADZONE_ASK);
	/* a client's question still probes it (and counts) */
	ck_assert_int_eq(at(k, t), DEADZONE_PROBE);
	deadzone_alive(dz, k);
	ck_assert_int_eq(deadzone_due(dz, k, t + 1, HOLD, 2, &left),
	                 DEADZONE_ASK);
}
END_TEST

START_TEST(test_alive_resets)
{
	uint8_t z[32];
	size_t len = zonename(2, z);
	uint64_t k = deadzone_key(z, len, 0);

	(void)deadzone_fail(dz, k, z, len, 0, DEADZONE_EDE_NO_REACH, T0);
	(void)deadzone_fail(dz, k, z, len, 0, DEADZONE_EDE_NO_REACH, T0);
	ck_assert_int_eq(at(k, T0 + 1), DEADZONE_FAIL);
	deadzone_alive(dz, k);
	ck_assert_int_eq(at(k, T0 + 1), DEADZONE_ASK);
	ck_assert(!deadzone_busy(dz));
	ck_assert_uint_eq(deadzone_fail(dz, k, z, len, 0,
	                                DEADZONE_EDE_NO_REACH, T0),
	                  DEADZONE_BACKOFF_MIN_MS);
}
END_TEST

START_TEST(test_neterr_short)
{
	uint8_t z[32];
	size_t len = zonename(3, z);
	uint64_t k = deadzone_key(z, len, 0);
	uint16_t ede = 0;
	unsigned i;

	for (i = 0; i < 5; i++)
		ck_assert_uint_eq(deadzone_fail(dz, k, z, len, 0,
		                                DEADZONE_EDE_NETWORK, T0),
		                  DEADZONE_NETERR_MS);
	ck_assert_int_eq(deadzone_check(dz, k, T0, HOLD, &ede), DEADZONE_FAIL);
	ck_assert_uint_eq(ede, DEADZONE_EDE_NETWORK);
}
END_TEST

START_TEST(test_hold_and_question)
{
	uint8_t z[32];
	size_t len = zonename(4, z);
	uint64_t k = deadzone_key(z, len, 0), q = deadzone_key(z, len, 1);

	ck_assert(k != q);
	/* a resolution waits on silent servers: others fail meanwhile */
	deadzone_hold(dz, k, z, len, 0, T0, HOLD);
	ck_assert_int_eq(at(k, T0 + 10), DEADZONE_FAIL);
	deadzone_release(dz, k);
	ck_assert_int_eq(at(k, T0 + 10), DEADZONE_ASK);
	/* a held zone fails only while its entry lasts (no answer ended
	 * it meanwhile) */
	ck_assert(!deadzone_refail(dz, k, DEADZONE_EDE_NO_REACH, T0));
	deadzone_hold(dz, k, z, len, 0, T0, HOLD);
	ck_assert(deadzone_refail(dz, k, DEADZONE_EDE_NO_REACH, T0));
	ck_assert_int_eq(at(k, T0 + DEADZONE_BACKOFF_MIN_MS - 1),
	                 DEADZONE_FAIL);
	deadzone_alive(dz, k);
	/* a question's failure: one second, not doubled */
	ck_assert_uint_eq(deadzone_fail(dz, q, z, len, 1,
	                                DEADZONE_EDE_NO_REACH, T0),
	                  DEADZONE_QUESTION_MS);
	ck_assert_uint_eq(deadzone_fail(dz, q, z, len, 1,
	                                DEADZONE_EDE_NO_REACH, T0),
	                  DEADZONE_QUESTION_MS);
	ck_assert_int_eq(at(q, T0 + DEADZONE_QUESTION_MS - 1), DEADZONE_FAIL);
	ck_assert_int_ne(at(q, T0 + DEADZONE_QUESTION_MS), DEADZONE_FAIL);
}
END_TEST

static int count_cb(const struct deadzone_info *info, void *arg)
{
	(void)info;
	(*(size_t *)arg)++;
	return 0;
}

START_TEST(test_bound)
{
	struct deadzone_stats st;
	uint8_t z[32];
	size_t len, n = 0;
	unsigned i;

	for (i = 0; i < 4 * DEADZONE_SLOTS; i++) {
		len = zonename(i, z);
		(void)deadzone_fail(dz, deadzone_key(z, len, 0), z, len, 0,
		                    DEADZONE_EDE_NO_REACH, T0 + i);
	}
	deadzone_stats_get(dz, &st);
	ck_assert_uint_le(st.entries, DEADZONE_SLOTS);
	ck_assert_uint_gt(st.evictions, 0);
	(void)deadzone_walk(dz, T0, count_cb, &n);
	ck_assert_uint_eq(n, st.entries);
	/* the latest is kept */
	len = zonename(4 * DEADZONE_SLOTS - 1, z);
	ck_assert_int_eq(at(deadzone_key(z, len, 0), T0 + 4 * DEADZONE_SLOTS),
	                 DEADZONE_FAIL);
	ck_assert_uint_eq(deadzone_flush(dz), st.entries);
	ck_assert(!deadzone_busy(dz));
}
END_TEST

/** Threads of the race test, and the zones each fails, probes, clears. */
#define THREADS 4
#define THREAD_ZONES 64

/* One worker's traffic: failures, checks, probes and answers of zones
 * shared with the other threads. */
static void *worker_run(void *arg)
{
	unsigned id = *(const unsigned *)arg, i;
	uint8_t z[32];

	for (i = 0; i < 8 * THREAD_ZONES; i++) {
		size_t len = zonename(i % THREAD_ZONES, z);
		uint64_t k = deadzone_key(z, len, 0), t = T0 + i;

		switch ((i + id) % 4) {
		case 0:
			(void)deadzone_fail(dz, k, z, len, 0,
			                    DEADZONE_EDE_NO_REACH, t);
			break;
		case 1: (void)at(k, t + DEADZONE_BACKOFF_MAX_MS); break;
		case 2: deadzone_hold(dz, k, z, len, 0, t, HOLD); break;
		default: deadzone_alive(dz, k); break;
		}
	}
	return NULL;
}

START_TEST(test_threads)
{
	pthread_t t[THREADS];
	unsigned id[THREADS], i;
	struct deadzone_stats st;

	for (i = 0; i < THREADS; i++) {
		id[i] = i;
		ck_assert_int_eq(pthread_create(&t[i], NULL, worker_run,
		                                &id[i]),
		                 0);
	}
	for (i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
	deadzone_stats_get(dz, &st);
	ck_assert_uint_le(st.entries, THREAD_ZONES);
	ck_assert_uint_eq(deadzone_flush(dz), st.entries);
}
END_TEST

static Suite *deadzone_suite(void)
{
	Suite *s = suite_create("deadzone");
	TCase *tc = tcase_create("backoff");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_backoff_doubles);
	tcase_add_test(tc, test_alive_resets);
	tcase_add_test(tc, test_probe_extend);
	tcase_add_test(tc, test_timer_due);
	tcase_add_test(tc, test_neterr_short);
	tcase_add_test(tc, test_hold_and_question);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_bound);
	suite_add_tcase(s, tc);
	tc = tcase_create("threads");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(deadzone_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
