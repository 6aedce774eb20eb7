/*
 * tests/unit/check_sel.c - Suite "sel": the server selection table.
 */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infra/sel.h"

static struct sel *s;

static const uint8_t zone_a[] = "\004zone\001a"; /* + root label */
static const uint8_t zone_b[] = "\004zone\001b";
#define ZLEN (sizeof(zone_a))

static struct sockaddr_storage sa(const char *text)
{
	struct sockaddr_storage ss;

	memset(&ss, 0, sizeof ss);
	if (strchr(text, ':') != NULL) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(53);
		ck_assert_int_eq(inet_pton(AF_INET6, text, &in6->sin6_addr),
		                 1);
	} else {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		in->sin_family = AF_INET;
		in->sin_port = htons(53);
		ck_assert_int_eq(inet_pton(AF_INET, text, &in->sin_addr), 1);
	}
	return ss;
}

#define SA(x) ((const struct sockaddr *)&(x))

static void setup(void)
{
	ck_assert_int_eq(sel_new(64, &s), SEL_OK);
}

static void teardown(void)
{
	sel_free(s);
	s = NULL;
}

START_TEST(test_new_reject)
{
	struct sel *t = NULL;

	ck_assert_int_eq(sel_new(SEL_SLOTS_MAX + 1, &t), SEL_EINVAL);
	ck_assert_ptr_null(t);
	ck_assert_int_eq(sel_new(1, NULL), SEL_EINVAL);
	ck_assert_int_eq(sel_new(0, &t), SEL_OK);
	sel_free(t);
	sel_free(NULL);
	ck_assert_str_eq(sel_strerror(SEL_ENOMEM), "out of memory");
}
END_TEST

START_TEST(test_unknown)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sel_info info;

	ck_assert_uint_eq(sel_timeout_ms(s, SA(a), 0), SEL_RTT_UNKNOWN_MS);
	ck_assert(sel_edns(s, SA(a), 0));
	ck_assert_uint_eq(sel_score(s, SA(a), zone_a, ZLEN, 0),
	                  SEL_RTT_UNKNOWN_MS);
	sel_info_get(s, SA(a), 0, &info);
	ck_assert(!info.known);
	ck_assert_uint_eq(info.srtt_ms, SEL_RTT_UNKNOWN_MS);
}
END_TEST

START_TEST(test_rtt_smoothing)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sel_info info;

	sel_rtt_report(s, SA(a), 80, 1000);
	sel_info_get(s, SA(a), 1000, &info);
	ck_assert(info.known);
	ck_assert_uint_eq(info.srtt_ms, 80);
	ck_assert_uint_eq(sel_timeout_ms(s, SA(a), 1000), 80 * 3 + 20);
	sel_rtt_report(s, SA(a), 160, 1000);
	sel_info_get(s, SA(a), 1000, &info);
	ck_assert_uint_eq(info.srtt_ms, (80 * 7 + 160) / 8);
	/* fast server: the floor */
	sel_rtt_report(s, SA(a), 1, 2000);
	for (int i = 0; i < 40; i++)
		sel_rtt_report(s, SA(a), 1, 2000);
	ck_assert_uint_eq(sel_timeout_ms(s, SA(a), 2000), SEL_TIMEOUT_MIN_MS);
	/* slow server: the ceiling */
	sel_rtt_report(s, SA(a), 5000, 3000);
	for (int i = 0; i < 40; i++)
		sel_rtt_report(s, SA(a), 5000, 3000);
	ck_assert_uint_eq(sel_timeout_ms(s, SA(a), 3000), SEL_TIMEOUT_MAX_MS);
}
END_TEST

/* Regression: a loopback server answering in under a millisecond showed
 * srtt=20ms after 30 s idle (the estimate rose toward unknown by 0.67 ms
 * per idle second), and answers 10 s apart left it at 31 ms because the
 * average started from the drifted value. */
START_TEST(test_rtt_idle_fast_server)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sel_info info;
	uint64_t t = 1000;

	sel_rtt_report(s, SA(a), 0, t);
	sel_info_get(s, SA(a), t + 30000, &info);
	ck_assert_uint_eq(info.srtt_ms, 0);
	for (int i = 0; i < 4; i++) {
		t += 10000;
		sel_rtt_report(s, SA(a), i % 2, t);
	}
	sel_info_get(s, SA(a), t, &info);
	ck_assert_uint_le(info.srtt_ms, 1);
	ck_assert_uint_eq(sel_score(s, SA(a), zone_a, ZLEN, t + 60000),
	                  info.srtt_ms);
}
END_TEST

/* Regression: the 7/8 average in whole milliseconds could not move by
 * less than 1 ms, so an estimate of 0 ms stayed 0 for a server that
 * answers in 7 ms (7/8 * 0 + 7/8 rounds down to 0). */
START_TEST(test_rtt_small_steps)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sel_info info;

	sel_rtt_report(s, SA(a), 0, 1000);
	for (int i = 0; i < 60; i++)
		sel_rtt_report(s, SA(a), 7, 1000);
	sel_info_get(s, SA(a), 1000, &info);
	ck_assert_uint_eq(info.srtt_ms, 7);
	/* samples of 0 and 1 ms (a 0.6 ms server) average near 0.5-1 */
	for (int i = 0; i < 200; i++)
		sel_rtt_report(s, SA(a), (uint32_t)(i % 5 < 3), 1000);
	sel_info_get(s, SA(a), 1000, &info);
	ck_assert_uint_eq(info.srtt_ms, 1);
}
END_TEST

START_TEST(test_decay)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sel_info info;

	sel_rtt_report(s, SA(a), 20, 0);
	sel_info_get(s, SA(a), SEL_DECAY_MS / 2, &info);
	ck_assert_uint_eq(info.srtt_ms, 20);
	sel_info_get(s, SA(a), SEL_DECAY_MS, &info);
	ck_assert_uint_eq(info.srtt_ms, SEL_RTT_UNKNOWN_MS);
	/* a slow server decays down toward unknown too */
	sel_rtt_report(s, SA(a), 1000, 10 * SEL_DECAY_MS);
	sel_info_get(s, SA(a), 10 * SEL_DECAY_MS + SEL_DECAY_MS / 2, &info);
	ck_assert_uint_lt(info.srtt_ms, 1000);
	ck_assert_uint_gt(info.srtt_ms, SEL_RTT_UNKNOWN_MS);
}
END_TEST

START_TEST(test_timeout_backoff)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sockaddr_storage b = sa("192.0.2.2");
	const struct sockaddr *c[2] = { SA(a), SA(b) };
	struct sel_info info;
	const uint64_t t = SEL_ALIVE_MS + 1; /* a's answer is older */
	uint32_t to;

	sel_rtt_report(s, SA(a), 10, 0);
	sel_rtt_report(s, SA(b), 100, 0);
	ck_assert_uint_eq(sel_choose(s, c, 2, zone_a, ZLEN, 0, 0, NULL), 0);
	ck_assert_uint_eq(sel_timeout_ms(s, SA(a), 0), 50);
	to = sel_timeout_ms(s, SA(a), t);
	/* not heard from within SEL_ALIVE_MS: back-off from the first */
	sel_timeout_report(s, SA(a), t);
	sel_info_get(s, SA(a), t, &info);
	ck_assert(info.backoff);
	ck_assert_uint_eq(info.timeouts, 1);
	ck_assert_uint_eq(sel_timeout_ms(s, SA(a), t), 2 * to);
	ck_assert_uint_eq(sel_choose(s, c, 2, zone_a, ZLEN, t, 0, NULL), 1);
	/* back-off ends after SEL_BACKOFF_BASE_MS */
	sel_info_get(s, SA(a), t + SEL_BACKOFF_BASE_MS, &info);
	ck_assert(!info.backoff);
	/* doubles per consecutive timeout, capped */
	sel_timeout_report(s, SA(a), t + 10000);
	sel_info_get(s, SA(a), t + 10000 + 2 * SEL_BACKOFF_BASE_MS - 1, &info);
	ck_assert(info.backoff);
	sel_info_get(s, SA(a), t + 10000 + 2 * SEL_BACKOFF_BASE_MS, &info);
	ck_assert(!info.backoff);
	for (int i = 0; i < 40; i++)
		sel_timeout_report(s, SA(a), t + 20000);
	ck_assert_uint_eq(sel_timeout_ms(s, SA(a), t + 20000),
	                  SEL_TIMEOUT_MAX_MS);
	sel_info_get(s, SA(a), t + 20000 + SEL_BACKOFF_MAX_MS, &info);
	ck_assert(!info.backoff);
	/* an answer ends the back-off */
	sel_rtt_report(s, SA(a), 10, t + 30000);
	sel_info_get(s, SA(a), t + 30000, &info);
	ck_assert(!info.backoff);
	ck_assert_uint_eq(info.timeouts, 0);
	ck_assert(info.answered);
}
END_TEST

/* Issue 12 item 10: a server that answered lately and drops a reply
 * (NSD's response rate limiting) is alive: no back-off until
 * SEL_BACKOFF_ALIVE_AFTER drops in a row, then a short one only; its
 * timeout doubles once at most. */
START_TEST(test_drop_not_dead)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sockaddr_storage b = sa("192.0.2.2");
	const struct sockaddr *c[2] = { SA(a), SA(b) };
	struct sel_info info;
	uint32_t to;
	unsigned i;

	sel_rtt_report(s, SA(a), 2, 1000);
	sel_rtt_report(s, SA(b), 3, 1000);
	to = sel_timeout_ms(s, SA(a), 1000);
	sel_timeout_report(s, SA(a), 1100);
	sel_info_get(s, SA(a), 1100, &info);
	ck_assert(!info.backoff);
	ck_assert_uint_eq(info.timeouts, 1);
	/* one drop: the other server is preferred, but a is not shunned */
	ck_assert_uint_eq(sel_choose(s, c, 2, zone_a, ZLEN, 1100, 0, NULL), 1);
	ck_assert_uint_lt(sel_score(s, SA(a), zone_a, ZLEN, 1100),
	                  SEL_SCORE_BACKOFF);
	for (i = 1; i < SEL_BACKOFF_ALIVE_AFTER - 1; i++)
		sel_timeout_report(s, SA(a), 1100 + i);
	sel_info_get(s, SA(a), 1200, &info);
	ck_assert(!info.backoff);
	sel_timeout_report(s, SA(a), 1200);
	sel_info_get(s, SA(a), 1200, &info);
	ck_assert(info.backoff);
	sel_info_get(s, SA(a), 1200 + SEL_BACKOFF_BASE_MS, &info);
	ck_assert(!info.backoff);
	/* many drops: still a short back-off and a short timeout */
	for (i = 0; i < 40; i++)
		sel_timeout_report(s, SA(a), 2000);
	sel_info_get(s, SA(a), 2000 + SEL_BACKOFF_BASE_MS, &info);
	ck_assert(!info.backoff);
	ck_assert_uint_le(sel_timeout_ms(s, SA(a), 2000),
	                  to << SEL_TIMEOUT_SHIFT_ALIVE);
	/* when both are in back-off the better one is still chosen */
	for (i = 0; i < SEL_BACKOFF_ALIVE_AFTER; i++)
		sel_timeout_report(s, SA(b), 2000);
	ck_assert_uint_ne(sel_choose(s, c, 2, zone_a, ZLEN, 2000, 0, NULL),
	                  SEL_NONE);
	/* silent past SEL_ALIVE_MS: timeouts count as an outage again */
	sel_timeout_report(s, SA(a), 1000 + SEL_ALIVE_MS);
	sel_info_get(s, SA(a), 1000 + SEL_ALIVE_MS + 2 * SEL_BACKOFF_BASE_MS,
	             &info);
	ck_assert(info.backoff);
}
END_TEST

/* Issue 12 item 6: unknown servers in random order; known ones by RTT. */
START_TEST(test_unknown_random)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sockaddr_storage b = sa("192.0.2.2");
	struct sockaddr_storage d = sa("192.0.2.3");
	const struct sockaddr *c[3] = { SA(a), SA(b), SA(d) };
	unsigned seen[3] = { 0, 0, 0 };
	uint32_t r;
	bool unknown;

	for (r = 0; r < 30; r++) {
		size_t k = sel_choose(s, c, 3, zone_a, ZLEN, 0, r, &unknown);

		ck_assert_uint_lt(k, 3);
		ck_assert_uint_eq(k, r % 3);
		ck_assert(unknown);
		seen[k]++;
	}
	ck_assert_uint_eq(seen[0], 10);
	ck_assert_uint_eq(seen[2], 10);
	/* a server that timed out is not among the unknown ones */
	sel_timeout_report(s, SA(a), 0);
	for (r = 0; r < 10; r++)
		ck_assert_uint_ne(sel_choose(s, c, 3, zone_a, ZLEN,
		                             SEL_BACKOFF_MAX_MS, r, NULL),
		                  0);
	/* one answer: chosen by RTT from then on, whatever rnd */
	sel_rtt_report(s, SA(d), 30, SEL_BACKOFF_MAX_MS);
	for (r = 0; r < 10; r++) {
		ck_assert_uint_eq(sel_choose(s, c, 3, zone_a, ZLEN,
		                             SEL_BACKOFF_MAX_MS, r, &unknown),
		                  2);
		ck_assert(!unknown);
	}
	/* not heard from for SEL_DECAY_MS: unknown again */
	sel_rtt_report(s, SA(b), 30, SEL_BACKOFF_MAX_MS);
	ck_assert_uint_eq(sel_choose(s, c, 3, zone_a, ZLEN,
	                             SEL_BACKOFF_MAX_MS + SEL_DECAY_MS, 1,
	                             &unknown),
	                  2);
	ck_assert(unknown);
	/* a single candidate is no random pick */
	ck_assert_uint_eq(sel_choose(s, c + 1, 1, zone_a, ZLEN, 0, 7,
	                             &unknown),
	                  0);
	ck_assert(!unknown);
}
END_TEST

/* Hedge deadlines: SEL_HEDGE_MS for unknown servers, twice the RTT for
 * slow known ones, none when the timeout comes first. */
START_TEST(test_hedge)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sockaddr_storage b = sa("192.0.2.2");
	struct sockaddr_storage d = sa("192.0.2.3");

	ck_assert_uint_eq(sel_hedge_ms(s, SA(a), 0), SEL_HEDGE_MS);
	ck_assert_uint_lt(SEL_HEDGE_MS, sel_timeout_ms(s, SA(a), 0));
	sel_rtt_report(s, SA(b), 10, 0); /* timeout 50: no hedge */
	ck_assert_uint_eq(sel_hedge_ms(s, SA(b), 0), 0);
	sel_rtt_report(s, SA(d), 200, 0); /* timeout 620, hedge 400 */
	ck_assert_uint_eq(sel_timeout_ms(s, SA(d), 0), 620);
	ck_assert_uint_eq(sel_hedge_ms(s, SA(d), 0), 400);
	/* a hedge is not a timeout: only sel_timeout_report counts */
	ck_assert_uint_eq(sel_score(s, SA(a), NULL, 0, 0), SEL_RTT_UNKNOWN_MS);
}
END_TEST

/* Every server of a zone times out (or is unreachable) for two
 * minutes, one attempt each per OUTAGE_STEP_MS, then they come back:
 * the back-off never reaches past SEL_BACKOFF_MAX_MS, the timeout stays
 * within SEL_TIMEOUT_MAX_MS, a server is always chosen (so the first
 * query after the outage goes out), and one answer forgets it all. */
#define OUTAGE_MS 120000u
#define OUTAGE_STEP_MS 250u
START_TEST(test_outage_recovery)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sockaddr_storage b = sa("192.0.2.2");
	struct sockaddr_storage v6 = sa("2001:db8::1");
	const struct sockaddr *c[3] = { SA(a), SA(b), SA(v6) };
	struct sel_info info;
	uint64_t t, end = 1000 + OUTAGE_MS;
	size_t i;

	for (i = 0; i < 3; i++)
		sel_rtt_report(s, c[i], 20 + 10 * (uint32_t)i, 1000);
	for (t = 1000; t < end; t += OUTAGE_STEP_MS) {
		for (i = 0; i < 3; i++) {
			sel_timeout_report(s, c[i], t);
			ck_assert_uint_le(sel_timeout_ms(s, c[i], t),
			                  SEL_TIMEOUT_MAX_MS);
			sel_info_get(s, c[i], t + SEL_BACKOFF_MAX_MS, &info);
			ck_assert_msg(!info.backoff, "back-off past the max");
		}
		ck_assert_uint_ne(sel_choose(s, c, 3, zone_a, ZLEN, t, 0,
		                             NULL),
		                  SEL_NONE);
	}
	sel_info_get(s, SA(a), end, &info);
	ck_assert(info.backoff);
	ck_assert_uint_eq(info.timeouts, 3 * OUTAGE_MS / OUTAGE_STEP_MS / 3);
	ck_assert_uint_eq(sel_timeout_ms(s, SA(a), end), SEL_TIMEOUT_MAX_MS);
	/* back: the first answer ends b's back-off; b is preferred */
	sel_rtt_report(s, SA(b), 30, end + 5);
	sel_info_get(s, SA(b), end + 5, &info);
	ck_assert(!info.backoff);
	ck_assert_uint_eq(info.timeouts, 0);
	ck_assert_uint_eq(sel_choose(s, c, 3, zone_a, ZLEN, end + 5, 0, NULL),
	                  1);
	ck_assert_uint_lt(sel_score(s, SA(b), zone_a, ZLEN, end + 5),
	                  SEL_SCORE_BACKOFF);
	/* its timeout is from its RTT again, not from the outage */
	ck_assert_uint_lt(sel_timeout_ms(s, SA(b), end + 5),
	                  SEL_TIMEOUT_MAX_MS);
	/* the others: at most SEL_BACKOFF_MAX_MS after their last timeout */
	sel_info_get(s, SA(a), end - OUTAGE_STEP_MS + SEL_BACKOFF_MAX_MS,
	             &info);
	ck_assert(!info.backoff);
}
END_TEST

START_TEST(test_marks)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sockaddr_storage b = sa("192.0.2.2");
	const struct sockaddr *c[3] = { NULL, SA(a), SA(b) };

	sel_rtt_report(s, SA(a), 10, 0);
	sel_rtt_report(s, SA(b), 300, 0);
	sel_mark_set(s, SA(a), zone_a, ZLEN, SEL_MARK_LAME, 0);
	ck_assert(sel_marked(s, SA(a), zone_a, ZLEN, 0));
	ck_assert(!sel_marked(s, SA(a), zone_b, ZLEN, 0));
	ck_assert(!sel_marked(s, SA(b), zone_a, ZLEN, 0));
	ck_assert_uint_eq(sel_choose(s, c, 3, zone_a, ZLEN, 0, 0, NULL), 2);
	ck_assert_uint_eq(sel_choose(s, c, 3, zone_b, ZLEN, 0, 0, NULL), 1);
	/* names compare case-insensitively */
	ck_assert(sel_marked(s, SA(a), (const uint8_t *)"\004ZONE\001A", ZLEN,
	                     0));
	/* marks expire */
	ck_assert(sel_marked(s, SA(a), zone_a, ZLEN, SEL_LAME_MS - 1));
	ck_assert(!sel_marked(s, SA(a), zone_a, ZLEN, SEL_LAME_MS));
	sel_mark_set(s, SA(b), zone_a, ZLEN, SEL_MARK_BROKEN, 0);
	ck_assert(sel_marked(s, SA(b), zone_a, ZLEN, SEL_BROKEN_MS - 1));
	ck_assert(!sel_marked(s, SA(b), zone_a, ZLEN, SEL_BROKEN_MS));
	/* the kind and time left, for curvecache-control lookup */
	{
		enum sel_mark m = SEL_MARK_LAME;
		uint64_t left = 0;

		ck_assert(sel_mark_get(s, SA(b), zone_a, ZLEN, 1000, &m,
		                       &left));
		ck_assert_int_eq(m, SEL_MARK_BROKEN);
		ck_assert_uint_eq(left, SEL_BROKEN_MS - 1000);
		ck_assert(!sel_mark_get(s, SA(b), zone_b, ZLEN, 1000, &m,
		                        &left));
		ck_assert(!sel_mark_get(s, SA(b), zone_a, ZLEN, SEL_BROKEN_MS,
		                        &m, &left));
	}
	/* all marked: the least bad still wins */
	sel_mark_set(s, SA(a), zone_a, ZLEN, SEL_MARK_LAME, 0);
	sel_mark_set(s, SA(b), zone_a, ZLEN, SEL_MARK_LAME, 0);
	ck_assert_uint_eq(sel_choose(s, c, 3, zone_a, ZLEN, 0, 0, NULL), 1);
	ck_assert_uint_eq(sel_choose(s, c, 0, zone_a, ZLEN, 0, 0, NULL),
	                  SEL_NONE);
}
END_TEST

START_TEST(test_marks_full)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	uint8_t z[SEL_MARKS_MAX + 1][3];

	for (int i = 0; i <= SEL_MARKS_MAX; i++) {
		z[i][0] = 1;
		z[i][1] = (uint8_t)('a' + i);
		z[i][2] = 0;
		sel_mark_set(s, SA(a), z[i], 3, SEL_MARK_LAME,
		             (uint64_t)i * 10);
	}
	/* the mark that expired first (zone 0) was replaced */
	ck_assert(!sel_marked(s, SA(a), z[0], 3, 100));
	for (int i = 1; i <= SEL_MARKS_MAX; i++)
		ck_assert(sel_marked(s, SA(a), z[i], 3, 100));
	/* a broken mark never shortens a live lame mark */
	sel_mark_set(s, SA(a), z[1], 3, SEL_MARK_BROKEN, 100);
	ck_assert(sel_marked(s, SA(a), z[1], 3, SEL_BROKEN_MS + 200));
}
END_TEST

START_TEST(test_edns_and_key)
{
	struct sockaddr_storage a = sa("2001:db8::1");
	struct sockaddr_storage m = sa("::ffff:192.0.2.9");
	struct sockaddr_storage v4 = sa("192.0.2.9");
	uint8_t key[KEY_BYTES];
	struct sel_info info;

	memset(key, 0x5a, sizeof key);
	sel_noedns_set(s, SA(a), 0);
	ck_assert(!sel_edns(s, SA(a), 0));
	ck_assert(sel_edns(s, SA(a), SEL_NOEDNS_MS));
	sel_key_set(s, SA(a), key, 0);
	sel_info_get(s, SA(a), 0, &info);
	ck_assert(info.curve && info.noedns);
	ck_assert_mem_eq(info.key, key, sizeof key);
	sel_key_set(s, SA(a), NULL, 0);
	sel_info_get(s, SA(a), 0, &info);
	ck_assert(!info.curve);
	/* v4-mapped IPv6 is the same server as IPv4 */
	sel_noedns_set(s, SA(m), 0);
	ck_assert(!sel_edns(s, SA(v4), 0));
}
END_TEST

/* flush_infra: one address forgotten (RTT, back-off, marks, EDNS),
 * others kept; then all; what stays reachable after a hole. */
START_TEST(test_forget)
{
	struct sockaddr_storage a = sa("192.0.2.1");
	struct sockaddr_storage b = sa("2001:db8::2");
	struct sockaddr_storage m = sa("::ffff:192.0.2.1");
	struct sockaddr_storage u;
	struct sel_stats st;
	struct sel_info info;

	memset(&u, 0, sizeof u);
	u.ss_family = AF_UNIX;
	sel_rtt_report(s, SA(a), 30, 0);
	sel_timeout_report(s, SA(a), 10);
	sel_timeout_report(s, SA(a), 20);
	sel_mark_set(s, SA(a), zone_a, ZLEN, SEL_MARK_LAME, 20);
	sel_noedns_set(s, SA(a), 20);
	sel_rtt_report(s, SA(b), 40, 0);
	ck_assert(sel_marked(s, SA(a), zone_a, ZLEN, 30));
	ck_assert_uint_eq(sel_forget(s, SA(u)), 0);
	ck_assert_uint_eq(sel_forget(s, SA(m)), 1); /* the IPv4 one */
	ck_assert_uint_eq(sel_forget(s, SA(a)), 0);
	sel_info_get(s, SA(a), 30, &info);
	ck_assert(!info.known);
	ck_assert(!sel_marked(s, SA(a), zone_a, ZLEN, 30));
	ck_assert(sel_edns(s, SA(a), 30));
	ck_assert_uint_eq(sel_timeout_ms(s, SA(a), 30), SEL_RTT_UNKNOWN_MS);
	ck_assert_uint_eq(sel_score(s, SA(a), zone_a, ZLEN, 30),
	                  SEL_RTT_UNKNOWN_MS);
	sel_info_get(s, SA(b), 30, &info);
	ck_assert(info.known);
	ck_assert_uint_eq(info.srtt_ms, 40);
	sel_stats_get(s, &st);
	ck_assert_uint_eq(st.entries, 1);
	sel_rtt_report(s, SA(a), 5, 40);
	ck_assert_uint_eq(sel_forget(s, NULL), 2);
	sel_stats_get(s, &st);
	ck_assert_uint_eq(st.entries, 0);
	sel_info_get(s, SA(b), 50, &info);
	ck_assert(!info.known);
	ck_assert_uint_eq(sel_forget(NULL, NULL), 0);
}
END_TEST

START_TEST(test_bounded)
{
	struct sel_stats st;
	char text[32];

	for (int i = 0; i < 5000; i++) {
		struct sockaddr_storage a;

		snprintf(text, sizeof text, "10.%d.%d.1", i / 256, i % 256);
		a = sa(text);
		sel_rtt_report(s, SA(a), 10, (uint64_t)i);
	}
	sel_stats_get(s, &st);
	ck_assert_uint_eq(st.slots, 64);
	ck_assert_uint_le(st.entries, 64);
	ck_assert_uint_ge(st.evictions, 5000 - 64);
	{
		/* the most recent address survives */
		struct sockaddr_storage a = sa(text);
		struct sel_info info;

		sel_info_get(s, SA(a), 5000, &info);
		ck_assert(info.known);
	}
	{
		struct sockaddr_storage u;

		memset(&u, 0, sizeof u);
		u.ss_family = AF_UNIX;
		sel_rtt_report(s, SA(u), 10, 0);
		ck_assert_uint_eq(sel_timeout_ms(s, SA(u), 0),
		                  SEL_RTT_UNKNOWN_MS);
	}
}
END_TEST

static Suite *sel_suite(void)
{
	Suite *su = suite_create("sel");
	TCase *tc = tcase_create("rtt");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_unknown);
	tcase_add_test(tc, test_rtt_smoothing);
	tcase_add_test(tc, test_decay);
	tcase_add_test(tc, test_rtt_idle_fast_server);
	tcase_add_test(tc, test_rtt_small_steps);
	tcase_add_test(tc, test_timeout_backoff);
	tcase_add_test(tc, test_drop_not_dead);
	tcase_add_test(tc, test_unknown_random);
	tcase_add_test(tc, test_hedge);
	tcase_add_test(tc, test_outage_recovery);
	suite_add_tcase(su, tc);
	tc = tcase_create("marks");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_marks);
	tcase_add_test(tc, test_marks_full);
	tcase_add_test(tc, test_edns_and_key);
	tcase_add_test(tc, test_forget);
	suite_add_tcase(su, tc);
	tc = tcase_create("limits");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_new_reject);
	tcase_add_test(tc, test_bounded);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(sel_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
