/*
 * tests/unit/check_topk.c - Suite "topk": the busiest query names and
 * clients (resolver/stats/topk.c) and the control command top_queries.
 */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "addrtest.h"
#include "ctl/control.h"
#include "stats/topk.h"

static struct topk *t;
static struct topk_entry e[TOPK_TAKE_MAX];

static void setup(void)
{
	t = topk_new();
	ck_assert_ptr_nonnull(t);
}

static void teardown(void)
{
	topk_free(t);
}

/* A wire name "\001x\004lab\0" style for label text and a number. */
static size_t name_of(uint8_t *out, const char *label, unsigned n)
{
	char l[32];
	int k = snprintf(l, sizeof l, "%s%u", label, n);

	out[0] = (uint8_t)k;
	memcpy(out + 1, l, (size_t)k);
	memcpy(out + 1 + k, "\003lab", 5);
	return (size_t)k + 1 + 5;
}

/* A flood of one name among thousands of one-off names: the flood is
 * first, with at least its real count; the total is exact. */
START_TEST(test_heavy_hitter_found)
{
	uint8_t name[64];
	size_t len, n;
	uint64_t total, skipped;

	for (unsigned i = 0; i < 20000; i++) {
		len = name_of(name, "noise", i);
		topk_note_name(t, name, len);
		if (i % 4 == 0) {
			len = name_of(name, "flood", 0);
			topk_note_name(t, name, len);
		}
		if (i % 10 == 0) {
			len = name_of(name, "second", 0);
			topk_note_name(t, name, len);
		}
	}
	n = topk_take(t, TOPK_NAMES, e, 3, &total, &skipped);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(total, 20000 + 5000 + 2000);
	ck_assert_uint_eq(skipped, 0);
	len = name_of(name, "flood", 0);
	ck_assert_uint_eq(e[0].keylen, len);
	ck_assert_mem_eq(e[0].key, name, len);
	ck_assert_uint_ge(e[0].count, 5000);
	len = name_of(name, "second", 0);
	ck_assert_mem_eq(e[1].key, name, len);
	ck_assert_uint_ge(e[1].count, 2000);
	ck_assert_uint_ge(e[1].count, e[2].count);
}
END_TEST

/* A take starts a new interval: the next one sees only what came after. */
START_TEST(test_take_resets)
{
	uint8_t name[64];
	size_t len = name_of(name, "www", 1), n;
	uint64_t total, skipped;

	topk_note_name(t, name, len);
	topk_note_name(t, name, len);
	n = topk_take(t, TOPK_NAMES, e, TOPK_TAKE_MAX, &total, &skipped);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(e[0].count, 2);
	n = topk_take(t, TOPK_NAMES, e, TOPK_TAKE_MAX, &total, &skipped);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(total, 0);
	topk_note_name(t, name, len);
	n = topk_take(t, TOPK_NAMES, e, TOPK_TAKE_MAX, &total, &skipped);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(e[0].count, 1);
}
END_TEST

START_TEST(test_clients)
{
	struct sockaddr_storage a = test_addr("192.0.2.7");
	struct sockaddr_storage b = test_addr("2001:db8::53");
	struct sockaddr_storage u;
	char text[64];
	uint64_t total, skipped;
	size_t n;

	memset(&u, 0, sizeof u);
	u.ss_family = AF_UNIX;
	for (int i = 0; i < 5; i++)
		topk_note_client(t, SA(b));
	topk_note_client(t, SA(a));
	topk_note_client(t, SA(u));
	n = topk_take(t, TOPK_CLIENTS, e, TOPK_TAKE_MAX, &total, &skipped);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(total, 6);
	ck_assert_str_eq(topk_client_text(&e[0], text, sizeof text),
	                 "2001:db8::53");
	ck_assert_uint_eq(e[0].count, 5);
	ck_assert_str_eq(topk_client_text(&e[1], text, sizeof text),
	                 "192.0.2.7");
}
END_TEST

/* Plain queries per server: keyed by address and zone, read without a
 * reset (since the start), merged by address with the biggest zone's
 * name kept. */
START_TEST(test_servers_merge)
{
	struct sockaddr_storage a = test_addr("192.0.2.1");
	struct sockaddr_storage b = test_addr("192.0.2.2");
	struct sockaddr_storage c = test_addr("2001:db8::1");
	static const uint8_t lab[] = "\003lab", root[] = "";
	char text[64];
	uint64_t total, skipped;
	size_t n;

	for (int i = 0; i < 3; i++)
		topk_note_server(t, SA(a), lab, sizeof lab);
	for (int i = 0; i < 2; i++)
		topk_note_server(t, SA(a), root, sizeof root);
	for (int i = 0; i < 4; i++)
		topk_note_server(t, SA(b), lab, sizeof lab);
	topk_note_server(t, SA(c), NULL, 0);
	n = topk_peek(t, TOPK_SERVERS, e, TOPK_TAKE_MAX, &total, &skipped);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(total, 10);
	n = topk_peek(t, TOPK_SERVERS, e, TOPK_TAKE_MAX, &total, &skipped);
	ck_assert_uint_eq(n, 4); /* a peek starts no new interval */
	ck_assert_uint_eq(total, 10);
	n = topk_merge_servers(e, n);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(e[0].count, 5);
	ck_assert_str_eq(topk_client_text(&e[0], text, sizeof text),
	                 "192.0.2.1");
	ck_assert_uint_eq(topk_addr_len(&e[0]), 5);
	ck_assert_uint_eq(e[0].keylen, 5 + sizeof lab);
	ck_assert_mem_eq(e[0].key + 5, lab, sizeof lab);
	ck_assert_uint_eq(e[1].count, 4);
	ck_assert_str_eq(topk_client_text(&e[1], text, sizeof text),
	                 "192.0.2.2");
	ck_assert_uint_eq(e[2].count, 1);
	ck_assert_uint_eq(e[2].keylen, 17);
	ck_assert_str_eq(topk_client_text(&e[2], text, sizeof text),
	                 "2001:db8::1");
	/* the other tables are untouched */
	ck_assert_uint_eq(topk_take(t, TOPK_CLIENTS, e, TOPK_TAKE_MAX, &total,
	                            &skipped),
	                  0);
}
END_TEST

/* A merge that makes a later address overtake an earlier one. */
START_TEST(test_servers_merge_order)
{
	struct sockaddr_storage a = test_addr("192.0.2.1");
	struct sockaddr_storage b = test_addr("192.0.2.2");
	static const uint8_t z1[] = "\001a", z2[] = "\001b", z3[] = "\001c";
	char text[64];
	uint64_t total, skipped;
	size_t n;

	for (int i = 0; i < 4; i++)
		topk_note_server(t, SA(a), z1, sizeof z1);
	for (int i = 0; i < 3; i++) {
		topk_note_server(t, SA(b), z1, sizeof z1);
		topk_note_server(t, SA(b), z2, sizeof z2);
		topk_note_server(t, SA(b), z3, sizeof z3);
	}
	n = topk_peek(t, TOPK_SERVERS, e, TOPK_TAKE_MAX, &total, &skipped);
	ck_assert_uint_eq(n, 4);
	n = topk_merge_servers(e, n);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(e[0].count, 9);
	ck_assert_str_eq(topk_client_text(&e[0], text, sizeof text),
	                 "192.0.2.2");
	ck_assert_uint_eq(e[1].count, 4);
}
END_TEST

/* Empty and over-long names are ignored; more distinct keys than slots
 * never return more than asked, nor more than the table holds. */
START_TEST(test_limits)
{
	uint8_t big[TOPK_KEY_MAX + 1];
	uint8_t name[64];
	uint64_t total, skipped;
	size_t n;

	memset(big, 1, sizeof big);
	topk_note_name(t, big, 0);
	topk_note_name(t, big, sizeof big);
	n = topk_take(t, TOPK_NAMES, e, TOPK_TAKE_MAX, &total, &skipped);
	ck_assert_uint_eq(n, 0);
	ck_assert_uint_eq(total, 0);
	for (unsigned i = 0; i < TOPK_SETS * TOPK_WAYS * 4; i++)
		topk_note_name(t, name, name_of(name, "n", i));
	n = topk_take(t, TOPK_NAMES, e, TOPK_TAKE_MAX + 10, &total, &skipped);
	ck_assert_uint_eq(n, TOPK_TAKE_MAX);
	for (size_t i = 1; i < n; i++)
		ck_assert_uint_ge(e[i - 1].count, e[i].count);
}
END_TEST

/* Keys of every length follow one another in the same slots (each slot
 * reuses or grows its key block) and after a take: every key read back
 * is whole. */
START_TEST(test_key_lengths)
{
	uint8_t name[TOPK_KEY_MAX];
	uint64_t total, skipped;
	size_t n, len;

	for (int round = 0; round < 2; round++) {
		for (len = 1; len <= TOPK_KEY_MAX; len++) {
			memset(name, (int)('a' + len % 26), len);
			for (size_t k = 0; k <= len % 3; k++)
				topk_note_name(t, name, len);
		}
		n = topk_take(t, TOPK_NAMES, e, TOPK_TAKE_MAX, &total,
		              &skipped);
		ck_assert_uint_eq(n, TOPK_TAKE_MAX);
		for (size_t i = 0; i < n; i++) {
			ck_assert_uint_ge(e[i].keylen, 1);
			ck_assert_uint_le(e[i].keylen, TOPK_KEY_MAX);
			memset(name, (int)('a' + e[i].keylen % 26),
			       e[i].keylen);
			ck_assert_mem_eq(e[i].key, name, e[i].keylen);
		}
	}
}
END_TEST

#define THREADS 4
#define NOTES_PER_THREAD 50000

static void *noter(void *arg)
{
	struct sockaddr_storage a = test_addr("192.0.2.1");

	(void)arg;
	for (int i = 0; i < NOTES_PER_THREAD; i++)
		topk_note_client(t, SA(a));
	return NULL;
}

/* Workers note at once: every note is either counted or skipped. */
START_TEST(test_threads)
{
	pthread_t th[THREADS];
	uint64_t total, skipped;
	size_t n;

	for (int i = 0; i < THREADS; i++)
		ck_assert_int_eq(pthread_create(&th[i], NULL, noter, NULL), 0);
	for (int i = 0; i < THREADS; i++)
		pthread_join(th[i], NULL);
	n = topk_take(t, TOPK_CLIENTS, e, 1, &total, &skipped);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(total + skipped, THREADS * NOTES_PER_THREAD);
	ck_assert_uint_eq(e[0].count, total);
}
END_TEST

/* The control command's text, from the process's shared counters. */
START_TEST(test_control_lines)
{
	struct sockaddr_storage a = test_addr("192.0.2.9");
	struct control_out out;
	char *argv[] = { "top_queries", "1" }, *bad[] = { "top_queries", "0" };
	static const char want[] = "names queries=3 skipped=0\n"
				   "name 2 www.lab.\n"
				   "clients queries=1 skipped=0\n"
				   "client 1 192.0.2.9\n";

	memset(&out, 0, sizeof out);
	topk_note_name(topk_shared(), (const uint8_t *)"\003www\003lab", 9);
	topk_note_name(topk_shared(), (const uint8_t *)"\003www\003lab", 9);
	topk_note_name(topk_shared(), (const uint8_t *)"\001x\003lab", 7);
	topk_note_client(topk_shared(), SA(a));
	ck_assert_ptr_null(control_topk_write(argv, 2, &out));
	ck_assert_ptr_nonnull(out.p);
	ck_assert_uint_eq(out.len, sizeof want - 1);
	ck_assert_mem_eq(out.p, want, sizeof want - 1);
	control_out_free(&out);
	ck_assert_ptr_nonnull(control_topk_write(bad, 2, &out));
}
END_TEST

static Suite *topk_suite(void)
{
	Suite *su = suite_create("topk");
	TCase *tc = tcase_create("counts");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_heavy_hitter_found);
	tcase_add_test(tc, test_take_resets);
	tcase_add_test(tc, test_clients);
	tcase_add_test(tc, test_servers_merge);
	tcase_add_test(tc, test_servers_merge_order);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(su, tc);
	tc = tcase_create("limits");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_key_lengths);
	tcase_add_test(tc, test_control_lines);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(topk_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
