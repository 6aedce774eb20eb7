/*
 * tests/unit/check_authtls.c - Suite "authtls": the RFC 9539 state of
 * authoritative server addresses (resolver/infra/authtls.c): one probe for
 * an unknown server while its queries stay plain, TLS after a success,
 * damping after a failure or a probe timeout (then one new probe), a
 * dropped connection back to plain, persistence, DNSCurve servers never
 * probed, the fixed bound of the table, and the rejected arguments; a
 * damping interval of the caller's (auth-tls-damping); the auth-tls and
 * auth-tls-damping options; and the opportunistic connections of dot.c
 * (dot_new_unauth), whose slots are reused once all are taken (refused
 * connections on 127.201.x.y:853; a forwarders' table never reuses one).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>

#include <uv.h>

#include "addrtest.h"
#include "conf/cfg.h"
#include "infra/authtls.h"
#include "stats/stats.h"
#include "transport/dot.h"

#define T0 1000000u

static struct authtls *tab;

static void setup(void)
{
	ck_assert_int_eq(authtls_new(0, 0, &tab), AUTHTLS_OK);
}

static void teardown(void)
{
	authtls_free(tab);
	tab = NULL;
}

static enum authtls_state state(const struct sockaddr_storage *ss,
                                uint64_t now)
{
	return authtls_state_of(tab, SA(*ss), now, NULL);
}

START_TEST(test_probe_success)
{
	struct sockaddr_storage a = test_addr("192.0.2.1");
	struct authtls_stats st;
	uint64_t until;

	ck_assert_int_eq(state(&a, T0), AUTHTLS_UNKNOWN);
	/* the first query probes; the next ones stay plain meanwhile */
	ck_assert_int_eq(authtls_use(tab, SA(a), T0), AUTHTLS_USE_PROBE);
	ck_assert_int_eq(state(&a, T0), AUTHTLS_PROBING);
	ck_assert_int_eq(authtls_use(tab, SA(a), T0 + 1), AUTHTLS_USE_PLAIN);
	ck_assert_int_eq(authtls_use(tab, SA(a), T0 + 2), AUTHTLS_USE_PLAIN);
	authtls_ok(tab, SA(a), T0 + 30);
	ck_assert_int_eq(authtls_state_of(tab, SA(a), T0 + 30, &until),
	                 AUTHTLS_WORKS);
	ck_assert_uint_eq(until, T0 + 30 + AUTHTLS_PERSIST_MS);
	ck_assert_int_eq(authtls_use(tab, SA(a), T0 + 31), AUTHTLS_USE_TLS);
	authtls_stats(tab, &st);
	ck_assert_uint_eq(st.probes, 1);
	ck_assert_uint_eq(st.works, 1);
	ck_assert_uint_eq(st.failures, 0);
	ck_assert_uint_eq(st.entries, 1);
}
END_TEST

START_TEST(test_probe_failure_damping)
{
	struct sockaddr_storage a = test_addr("2001:db8::53");
	uint64_t t = T0 + 100, until;

	ck_assert_int_eq(authtls_use(tab, SA(a), T0), AUTHTLS_USE_PROBE);
	authtls_fail(tab, SA(a), t);
	ck_assert_int_eq(authtls_state_of(tab, SA(a), t, &until),
	                 AUTHTLS_FAILED);
	ck_assert_uint_eq(until, t + AUTHTLS_DAMPING_MS);
	/* plain for the whole damping interval, no new probe */
	ck_assert_int_eq(authtls_use(tab, SA(a), t + 1), AUTHTLS_USE_PLAIN);
	ck_assert_int_eq(authtls_use(tab, SA(a), t + AUTHTLS_DAMPING_MS - 1),
	                 AUTHTLS_USE_PLAIN);
	/* then one new probe, and plain beside it */
	ck_assert_int_eq(authtls_use(tab, SA(a), t + AUTHTLS_DAMPING_MS),
	                 AUTHTLS_USE_PROBE);
	ck_assert_int_eq(authtls_use(tab, SA(a), t + AUTHTLS_DAMPING_MS + 1),
	                 AUTHTLS_USE_PLAIN);
}
END_TEST

START_TEST(test_probe_timeout)
{
	struct sockaddr_storage a = test_addr("192.0.2.2");
	uint64_t dl = T0 + AUTHTLS_PROBE_TIMEOUT_MS;
	struct authtls_stats st;

	ck_assert_int_eq(authtls_use(tab, SA(a), T0), AUTHTLS_USE_PROBE);
	ck_assert_int_eq(state(&a, dl - 1), AUTHTLS_PROBING);
	/* a probe that never came back counts as failed at its deadline */
	ck_assert_int_eq(state(&a, dl), AUTHTLS_FAILED);
	ck_assert_int_eq(authtls_use(tab, SA(a), dl + 5), AUTHTLS_USE_PLAIN);
	/* the transport's own timeout after that is not a second failure */
	authtls_fail(tab, SA(a), dl + 10);
	authtls_stats(tab, &st);
	ck_assert_uint_eq(st.failures, 1);
	ck_assert_int_eq(authtls_use(tab, SA(a), dl + AUTHTLS_DAMPING_MS - 1),
	                 AUTHTLS_USE_PLAIN);
	ck_assert_int_eq(authtls_use(tab, SA(a), dl + AUTHTLS_DAMPING_MS),
	                 AUTHTLS_USE_PROBE);
}
END_TEST

START_TEST(test_late_answer)
{
	struct sockaddr_storage a = test_addr("192.0.2.3");

	/* an answer after the deadline but before anyone looked: it works */
	ck_assert_int_eq(authtls_use(tab, SA(a), T0), AUTHTLS_USE_PROBE);
	authtls_ok(tab, SA(a), T0 + AUTHTLS_PROBE_TIMEOUT_MS + 1);
	ck_assert_int_eq(authtls_use(tab, SA(a),
	                             T0 + AUTHTLS_PROBE_TIMEOUT_MS + 2),
	                 AUTHTLS_USE_TLS);
	/* an answer to an address never probed changes nothing */
	a = test_addr("192.0.2.4");
	authtls_ok(tab, SA(a), T0);
	ck_assert_int_eq(state(&a, T0), AUTHTLS_UNKNOWN);
}
END_TEST

START_TEST(test_connection_dropped)
{
	struct sockaddr_storage a = test_addr("192.0.2.5");
	uint64_t t = T0 + 5000;

	ck_assert_int_eq(authtls_use(tab, SA(a), T0), AUTHTLS_USE_PROBE);
	authtls_ok(tab, SA(a), T0 + 10);
	ck_assert_int_eq(authtls_use(tab, SA(a), t), AUTHTLS_USE_TLS);
	/* the connection failed: plain again, a new probe after damping */
	authtls_fail(tab, SA(a), t + 1);
	ck_assert_int_eq(authtls_use(tab, SA(a), t + 2), AUTHTLS_USE_PLAIN);
	/* a late answer on the old connection does not undo the failure */
	authtls_ok(tab, SA(a), t + 3);
	ck_assert_int_eq(authtls_use(tab, SA(a), t + 4), AUTHTLS_USE_PLAIN);
	ck_assert_int_eq(authtls_use(tab, SA(a), t + 1 + AUTHTLS_DAMPING_MS),
	                 AUTHTLS_USE_PROBE);
}
END_TEST

START_TEST(test_persistence)
{
	struct sockaddr_storage a = test_addr("192.0.2.6");
	uint64_t t = T0 + 10;

	ck_assert_int_eq(authtls_use(tab, SA(a), T0), AUTHTLS_USE_PROBE);
	authtls_ok(tab, SA(a), t);
	/* every answer extends it */
	authtls_ok(tab, SA(a), t + AUTHTLS_PERSIST_MS - 1);
	ck_assert_int_eq(authtls_use(tab, SA(a), t + AUTHTLS_PERSIST_MS),
	                 AUTHTLS_USE_TLS);
	/* unused for the persistence interval: probed again */
	t += 2ull * AUTHTLS_PERSIST_MS;
	ck_assert_int_eq(state(&a, t), AUTHTLS_UNKNOWN);
	ck_assert_int_eq(authtls_use(tab, SA(a), t), AUTHTLS_USE_PROBE);
}
END_TEST

START_TEST(test_curve_never_probed)
{
	struct sockaddr_storage a = test_addr("192.0.2.7");
	struct sockaddr_storage b = test_addr("192.0.2.8");
	struct authtls_stats st;

	authtls_curve(tab, SA(a), T0);
	ck_assert_int_eq(state(&a, T0), AUTHTLS_CURVE);
	ck_assert_int_eq(authtls_use(tab, SA(a), T0 + 1), AUTHTLS_USE_PLAIN);
	authtls_fail(tab, SA(a), T0 + 2);
	ck_assert_int_eq(state(&a, T0 + 2), AUTHTLS_CURVE);
	authtls_ok(tab, SA(a), T0 + 3);
	ck_assert_int_eq(authtls_use(tab, SA(a), T0 + 4), AUTHTLS_USE_PLAIN);
	/* a key seen while a probe is out, or after TLS worked, wins */
	ck_assert_int_eq(authtls_use(tab, SA(b), T0), AUTHTLS_USE_PROBE);
	authtls_curve(tab, SA(b), T0 + 1);
	authtls_ok(tab, SA(b), T0 + 2);
	ck_assert_int_eq(authtls_use(tab, SA(b), T0 + 3), AUTHTLS_USE_PLAIN);
	authtls_stats(tab, &st);
	ck_assert_uint_eq(st.probes, 1);
	ck_assert_uint_eq(st.works, 0);
}
END_TEST

START_TEST(test_forget)
{
	struct sockaddr_storage a = test_addr("192.0.2.10");
	struct authtls_stats st;

	ck_assert_int_eq(authtls_use(tab, SA(a), T0), AUTHTLS_USE_PROBE);
	/* the probe could not start here: probed again next time */
	authtls_forget(tab, SA(a));
	ck_assert_int_eq(state(&a, T0), AUTHTLS_UNKNOWN);
	authtls_stats(tab, &st);
	ck_assert_uint_eq(st.entries, 0);
	ck_assert_int_eq(authtls_use(tab, SA(a), T0 + 1), AUTHTLS_USE_PROBE);
	authtls_forget(tab, NULL);
	authtls_forget(NULL, SA(a));
}
END_TEST

START_TEST(test_mapped_and_port)
{
	struct sockaddr_storage a = test_addr("192.0.2.9");
	struct sockaddr_storage m = test_addr("::ffff:192.0.2.9");

	((struct sockaddr_in *)&a)->sin_port = htons(53);
	ck_assert_int_eq(authtls_use(tab, SA(a), T0), AUTHTLS_USE_PROBE);
	((struct sockaddr_in *)&a)->sin_port = htons(AUTHTLS_PORT);
	authtls_ok(tab, SA(a), T0 + 1);
	/* the port is not part of the key; a v4-mapped address is the v4 */
	ck_assert_int_eq(authtls_use(tab, SA(m), T0 + 2), AUTHTLS_USE_TLS);
}
END_TEST

START_TEST(test_bound)
{
	struct authtls *small;
	struct authtls_stats st;
	struct sockaddr_storage a;
	char text[32];
	unsigned i;

	ck_assert_int_eq(authtls_new(AUTHTLS_SLOTS_MIN, 0, &small),
	                 AUTHTLS_OK);
	for (i = 0; i < 1000; i++) {
		snprintf(text, sizeof text, "10.%u.%u.1", i / 250, i % 250);
		a = test_addr(text);
		ck_assert_int_eq(authtls_use(small, SA(a), T0 + i),
		                 AUTHTLS_USE_PROBE);
	}
	authtls_stats(small, &st);
	ck_assert_uint_eq(st.slots, AUTHTLS_SLOTS_MIN);
	ck_assert_uint_le(st.entries, AUTHTLS_SLOTS_MIN);
	ck_assert_uint_eq(st.entries + st.evictions, 1000);
	/* the newest is there */
	ck_assert_int_eq(authtls_state_of(small, SA(a), T0 + 1000, NULL),
	                 AUTHTLS_PROBING);
	authtls_free(small);
}
END_TEST

START_TEST(test_rejects)
{
	struct authtls *t = NULL;
	struct sockaddr_storage u;
	struct authtls_stats st;

	ck_assert_int_eq(authtls_new(0, 0, NULL), AUTHTLS_EINVAL);
	ck_assert_int_eq(authtls_new(AUTHTLS_SLOTS_MAX + 1u, 0, &t),
	                 AUTHTLS_EINVAL);
	ck_assert_ptr_null(t);
	ck_assert_int_eq(authtls_new(3, 0, &t), AUTHTLS_OK);
	authtls_stats(t, &st);
	ck_assert_uint_eq(st.slots, AUTHTLS_SLOTS_MIN);
	authtls_free(t);
	authtls_free(NULL);
	/* another family, or no address: plain, nothing kept */
	memset(&u, 0, sizeof u);
	u.ss_family = AF_UNIX;
	ck_assert_int_eq(authtls_use(tab, SA(u), T0), AUTHTLS_USE_PLAIN);
	ck_assert_int_eq(authtls_use(tab, NULL, T0), AUTHTLS_USE_PLAIN);
	ck_assert_int_eq(authtls_use(NULL, SA(u), T0), AUTHTLS_USE_PLAIN);
	authtls_fail(tab, SA(u), T0);
	authtls_curve(tab, NULL, T0);
	authtls_stats(tab, &st);
	ck_assert_uint_eq(st.entries, 0);
	authtls_stats(NULL, &st);
	ck_assert_uint_eq(st.slots, 0);
	ck_assert_str_eq(authtls_strerror(AUTHTLS_ENOMEM), "out of memory");
	ck_assert_str_eq(authtls_strerror(99), "unknown authtls status");
	ck_assert_str_eq(authtls_state_name(AUTHTLS_WORKS), "tls");
	ck_assert_str_eq(authtls_state_name((enum authtls_state)99), "?");
}
END_TEST

/* auth-tls: opportunistic (the default) or no; anything else refused
 * with FILE:LINE. */
START_TEST(test_option)
{
	static const char on[] = "auth-tls: opportunistic\n";
	static const char off[] = "auth-tls: no\n";
	static const char wrong[] = "auth-tls: yes\n";
	static struct cfg c;
	static char err[CFG_ERR_BYTES];

	cfg_defaults(&c);
	ck_assert_int_eq(c.auth_tls, CFG_AUTH_TLS_OPPORTUNISTIC);
	ck_assert_int_eq(cfg_parse("test.conf", off, sizeof off - 1, &c, err,
	                           sizeof err),
	                 0);
	ck_assert_int_eq(c.auth_tls, CFG_AUTH_TLS_NO);
	ck_assert_int_eq(cfg_parse("test.conf", on, sizeof on - 1, &c, err,
	                           sizeof err),
	                 0);
	ck_assert_int_eq(c.auth_tls, CFG_AUTH_TLS_OPPORTUNISTIC);
	ck_assert_int_ne(cfg_parse("test.conf", wrong, sizeof wrong - 1, &c,
	                           err, sizeof err),
	                 0);
	ck_assert_msg(strstr(err, "test.conf:1:") != NULL &&
	                      strstr(err, "opportunistic or no") != NULL,
	              "%s", err);
}
END_TEST

/* A table made with its own damping interval: a failed server is probed
 * again after that long, not after a day; so is a timed-out probe. */
START_TEST(test_damping_option)
{
	struct authtls *t;
	struct sockaddr_storage a = test_addr("192.0.2.9");
	struct sockaddr_storage b = test_addr("192.0.2.10");
	const uint64_t damp = 5000;
	uint64_t until, dl = T0 + AUTHTLS_PROBE_TIMEOUT_MS;

	ck_assert_int_eq(authtls_new(0, damp, &t), AUTHTLS_OK);
	ck_assert_int_eq(authtls_use(t, SA(a), T0), AUTHTLS_USE_PROBE);
	authtls_fail(t, SA(a), T0 + 10);
	ck_assert_int_eq(authtls_state_of(t, SA(a), T0 + 10, &until),
	                 AUTHTLS_FAILED);
	ck_assert_uint_eq(until, T0 + 10 + damp);
	ck_assert_int_eq(authtls_use(t, SA(a), T0 + 10 + damp - 1),
	                 AUTHTLS_USE_PLAIN);
	ck_assert_int_eq(authtls_use(t, SA(a), T0 + 10 + damp),
	                 AUTHTLS_USE_PROBE);
	/* a probe that timed out is damped from its deadline */
	ck_assert_int_eq(authtls_use(t, SA(b), T0), AUTHTLS_USE_PROBE);
	ck_assert_int_eq(authtls_state_of(t, SA(b), dl, &until),
	                 AUTHTLS_FAILED);
	ck_assert_uint_eq(until, dl + damp);
	ck_assert_int_eq(authtls_use(t, SA(b), dl + damp - 1),
	                 AUTHTLS_USE_PLAIN);
	ck_assert_int_eq(authtls_use(t, SA(b), dl + damp), AUTHTLS_USE_PROBE);
	authtls_free(t);
}
END_TEST

/* A reload changes auth-tls-damping (authtls_damping_set): a failure
 * from then on is damped for the new interval, an address failed before
 * keeps the end it had; 0 is the default day. */
START_TEST(test_damping_changed)
{
	struct sockaddr_storage a = test_addr("192.0.2.11");
	struct sockaddr_storage b = test_addr("192.0.2.12");
	struct sockaddr_storage c = test_addr("192.0.2.13");
	uint64_t until;

	ck_assert_int_eq(authtls_use(tab, SA(a), T0), AUTHTLS_USE_PROBE);
	authtls_fail(tab, SA(a), T0);
	ck_assert_int_eq(authtls_use(tab, SA(b), T0), AUTHTLS_USE_PROBE);
	authtls_damping_set(tab, 2000);
	authtls_fail(tab, SA(b), T0 + 5);
	ck_assert_int_eq(authtls_state_of(tab, SA(a), T0 + 5, &until),
	                 AUTHTLS_FAILED);
	ck_assert_uint_eq(until, T0 + AUTHTLS_DAMPING_MS);
	ck_assert_int_eq(authtls_state_of(tab, SA(b), T0 + 5, &until),
	                 AUTHTLS_FAILED);
	ck_assert_uint_eq(until, T0 + 5 + 2000);
	ck_assert_int_eq(authtls_use(tab, SA(b), T0 + 2005),
	                 AUTHTLS_USE_PROBE);
	ck_assert_int_eq(authtls_use(tab, SA(a), T0 + 2005),
	                 AUTHTLS_USE_PLAIN);
	/* back to the default: a probe out before times out into a day */
	ck_assert_int_eq(authtls_use(tab, SA(c), T0), AUTHTLS_USE_PROBE);
	authtls_damping_set(tab, 0);
	ck_assert_int_eq(authtls_state_of(tab, SA(c),
	                                  T0 + AUTHTLS_PROBE_TIMEOUT_MS,
	                                  &until),
	                 AUTHTLS_FAILED);
	ck_assert_uint_eq(until,
	                  T0 + AUTHTLS_PROBE_TIMEOUT_MS + AUTHTLS_DAMPING_MS);
	authtls_damping_set(NULL, 1); /* no table: nothing */
}
END_TEST

/* auth-tls-damping: SECONDS, 1 day by default, 1 s to 30 days. */
START_TEST(test_damping_cfg)
{
	static const char ok[] = "auth-tls-damping: 2\n";
	static const char big[] = "auth-tls-damping: 2592001\n";
	static const char zero[] = "auth-tls-damping: 0\n";
	static const char word[] = "auth-tls-damping: soon\n";
	static struct cfg c;
	static char err[CFG_ERR_BYTES];

	cfg_defaults(&c);
	ck_assert_uint_eq(c.auth_tls_damping_s, 86400);
	ck_assert_int_eq(cfg_parse("t.conf", ok, sizeof ok - 1, &c, err,
	                           sizeof err),
	                 0);
	ck_assert_uint_eq(c.auth_tls_damping_s, 2);
	ck_assert_int_ne(cfg_parse("t.conf", big, sizeof big - 1, &c, err,
	                           sizeof err),
	                 0);
	ck_assert_msg(strstr(err, "t.conf:1:") != NULL &&
	                      strstr(err, "auth-tls-damping") != NULL,
	              "%s", err);
	ck_assert_int_ne(cfg_parse("t.conf", zero, sizeof zero - 1, &c, err,
	                           sizeof err),
	                 0);
	ck_assert_int_ne(cfg_parse("t.conf", word, sizeof word - 1, &c, err,
	                           sizeof err),
	                 0);
}
END_TEST

/* ---- the connections of dot_new_unauth: slots are reused ---- */

/** Servers a dot table holds (dot.c's SLOTS). */
#define SLOTS (CFG_MAX_ZONES * CFG_ZONE_ADDRS)

/* A query (www.lab A, no EDNS) with ID id. */
static void query_of(uint8_t q[25], uint16_t id)
{
	static const uint8_t tail[] = { 0,   0,   0,   0, 0,   0,   3,
		                        'w', 'w', 'w', 3, 'l', 'a', 'b',
		                        0,   0,   1,   0, 1 };

	q[0] = (uint8_t)(id >> 8);
	q[1] = (uint8_t)id;
	q[2] = 0;
	q[3] = 0;
	q[4] = 0;
	q[5] = 1;
	memcpy(q + 6, tail, sizeof tail);
}

static unsigned failed_cbs;

static void count_cb(void *arg, int status, uint8_t *msg, size_t len)
{
	(void)arg;
	(void)msg;
	(void)len;
	if (status == DOT_EFAIL)
		failed_cbs++;
}

/* Send to 127.201.X.Y:853 (nothing listens: refused) for the servers
 * [from, to), run the loop until every query sent failed, cancel them.
 * @return the last dot_send status (DOT_EFAILING: its connection could
 *   not even start, the slot is taken all the same). */
static int fill(struct dot *d, uv_loop_t *loop, unsigned from, unsigned to,
                const struct cfg_tls *auth)
{
	static struct dot_query *dq[SLOTS + 1];
	struct sockaddr_storage a;
	uint8_t q[25];
	char text[32];
	unsigned i, want = failed_cbs;
	int rc = DOT_OK;

	memset(dq, 0, sizeof dq);
	for (i = from; i < to; i++) {
		snprintf(text, sizeof text, "127.201.%u.%u", i / 200,
		         i % 200 + 1);
		a = test_addr(text);
		((struct sockaddr_in *)&a)->sin_port = htons(AUTHTLS_PORT);
		query_of(q, (uint16_t)i);
		rc = dot_send(d, SA(a), auth, NULL, q, sizeof q, count_cb,
		              NULL, &dq[i - from]);
		want += rc == DOT_OK;
	}
	while (failed_cbs < want && uv_run(loop, UV_RUN_ONCE) != 0)
		;
	for (i = 0; i < to - from; i++)
		dot_cancel(dq[i]);
	return rc;
}

START_TEST(test_unauth_slots)
{
	uv_loop_t loop;
	struct dot *d;
	static struct cfg c;
	static struct stats st;
	static const struct cfg_tls none, named = { "dot.lab", { 0 }, false };

	cfg_defaults(&c);
	ck_assert_int_eq(uv_loop_init(&loop), 0);
	ck_assert_int_eq(dot_new_unauth(&d, &loop, &c, &st), DOT_OK);
	/* every slot taken by a server whose connection failed... */
	ck_assert_int_eq(fill(d, &loop, 0, SLOTS, &none), DOT_OK);
	ck_assert_uint_eq(failed_cbs, SLOTS);
	/* ...one more server takes the slot of one of them */
	ck_assert_int_eq(fill(d, &loop, SLOTS, SLOTS + 1, &none), DOT_OK);
	ck_assert_uint_eq(failed_cbs, SLOTS + 1);
	/* failures are the owner's to count */
	ck_assert_uint_eq(st.upstream_tls_failures, 0);
	dot_free(d);
	/* a forwarders' table does not reuse a slot */
	ck_assert_int_eq(dot_new(&d, &loop, &c, &st), DOT_OK);
	ck_assert_int_ne(fill(d, &loop, 0, SLOTS, &named), DOT_ENOMEM);
	ck_assert_int_eq(fill(d, &loop, SLOTS, SLOTS + 1, &named), DOT_ENOMEM);
	dot_free(d);
	while (uv_run(&loop, UV_RUN_DEFAULT) != 0)
		;
	ck_assert_int_eq(uv_loop_close(&loop), 0);
}
END_TEST

static Suite *authtls_suite(void)
{
	Suite *s = suite_create("authtls");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_probe_success);
	tcase_add_test(tc, test_probe_failure_damping);
	tcase_add_test(tc, test_probe_timeout);
	tcase_add_test(tc, test_late_answer);
	tcase_add_test(tc, test_connection_dropped);
	tcase_add_test(tc, test_persistence);
	tcase_add_test(tc, test_curve_never_probed);
	tcase_add_test(tc, test_forget);
	tcase_add_test(tc, test_mapped_and_port);
	tcase_add_test(tc, test_bound);
	tcase_add_test(tc, test_rejects);
	tcase_add_test(tc, test_option);
	tcase_add_test(tc, test_damping_option);
	tcase_add_test(tc, test_damping_changed);
	tcase_add_test(tc, test_damping_cfg);
	tcase_add_test(tc, test_unauth_slots);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(authtls_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
