/*
 * tests/unit/check_iter_dz.c - Suite "iter-deadzone": the iterator with
 * the resolution failure cache (RFC 9520, iter/iter_deadzone.c): a zone
 * whose servers are all silent costs one wait, then fails at once (EDE
 * 22; 23 for network errors) until its back-off ends; an answer from
 * one of its servers ends the back-off. With background probes (a
 * worker's iter_env.dz_probe), no client is the probe.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "iter_net.h"
#include "infra/deadzone.h"

Suite *iter_dz_suite(void);

static struct deadzone *dz;

static void setup(void)
{
	net_setup();
	ck_assert_int_eq(deadzone_new(&dz), DEADZONE_OK);
	N.env.deadzone = dz;
}

static void teardown(void)
{
	net_teardown();
	deadzone_free(dz);
}

/* net_std's zone.example. (ns 192.0.2.2), its server acting as act. */
static void zone_servers(enum fake_act act)
{
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.2", .qname = "*", .act = act });
}

/* Queries sent to the zone's server in the last resolution. */
static size_t zone_sends(void)
{
	return net_sends_to("192.0.2.2");
}

static void servfail_ede(const struct answer *r, uint16_t ede)
{
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert(r->ede);
	ck_assert_uint_eq(r->ede_code, ede);
}

/* A question into the zone fails at once: nothing sent, no time spent. */
static void fails_at_once(const char *name, uint16_t ede)
{
	servfail_ede(net_resolve(name, WIRE_TYPE_A), ede);
	ck_assert_uint_eq(N.nsends, 0);
	ck_assert_uint_eq(N.now.mono_ms, N.start_ms);
}

START_TEST(test_silent_zone_one_wait)
{
	const struct answer *r;

	zone_servers(FAKE_SILENT);
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	servfail_ede(r, DEADZONE_EDE_NO_REACH);
	ck_assert_uint_gt(N.now.mono_ms - N.start_ms, 1000);
	/* curvecache-control lookup still sees the cut (a peek sends
	 * nothing, the failure cache does not stop it) */
	{
		struct iter_peek *peek = malloc(sizeof(*peek));
		uint8_t wn[WIRE_NAME_MAX];
		size_t wl = net_wire("www.zone.example.", wn);

		ck_assert_ptr_nonnull(peek);
		ck_assert_int_eq(iter_peek_cut(&N.env, wn, wl, &N.now, peek),
		                 0);
		ck_assert_uint_eq(peek->nns, 1);
		free(peek);
	}
	/* another name of the zone: at once, nothing sent */
	fails_at_once("mail.zone.example.", DEADZONE_EDE_NO_REACH);
	/* the back-off over: asked again (the probe), then 2 s */
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	r = net_resolve("mail.zone.example.", WIRE_TYPE_A);
	servfail_ede(r, DEADZONE_EDE_NO_REACH);
	ck_assert_uint_gt(zone_sends(), 0);
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	fails_at_once("ftp.zone.example.", DEADZONE_EDE_NO_REACH);
}
END_TEST

START_TEST(test_unreachable_network_error)
{
	zone_servers(FAKE_UNREACH);
	servfail_ede(net_resolve("www.zone.example.", WIRE_TYPE_A),
	             DEADZONE_EDE_NETWORK);
	fails_at_once("mail.zone.example.", DEADZONE_EDE_NETWORK);
}
END_TEST

/* The zone's server drops www only (mail is answered). */
static void www_silent(void)
{
	net_add(&(struct fake){ .server = "*",
	                        .qname = "www.zone.example.",
	                        .act = FAKE_SILENT });
	net_add(&(struct fake){
		.server = "*",
		.qname = "mail.zone.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "mail.zone.example. 60 A 192.0.2.9" } });
	zone_servers(FAKE_SILENT);
}

START_TEST(test_answer_ends_backoff)
{
	const struct answer *r;
	uint8_t z[WIRE_NAME_MAX];
	size_t len;

	/* the server drops www only: the zone backs off... */
	www_silent(); /* mail answered */
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	servfail_ede(r, DEADZONE_EDE_NO_REACH);
	ck_assert(deadzone_busy(dz));
	/* ...until its probe is answered: then everything is forgotten */
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	r = net_resolve("mail.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(!r->ede);
	len = net_wire("zone.example.", z);
	ck_assert_int_eq(deadzone_check(dz, deadzone_key(z, len, 0),
	                                N.now.mono_ms, 0, NULL),
	                 DEADZONE_ASK);
	/* the next failure backs off for the first second again */
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	servfail_ede(r, DEADZONE_EDE_NO_REACH);
	ck_assert_uint_gt(N.nsends, 0);
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	r = net_resolve("mail.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
}
END_TEST

/* The background probes asked for (iter_env.dz_probe). */
static struct {
	unsigned calls;
	bool refuse;
	uint64_t key;
	uint8_t name[WIRE_NAME_MAX];
	size_t len;
	uint16_t qtype;
} bg;

static bool bg_probe(void *arg, uint64_t key, const uint8_t *qname, size_t len,
                     uint16_t qtype)
{
	(void)arg;
	bg.calls++;
	bg.key = key;
	memcpy(bg.name, qname, len);
	bg.len = len;
	bg.qtype = qtype;
	return !bg.refuse;
}

static uint64_t zone_key(void)
{
	uint8_t z[WIRE_NAME_MAX];
	size_t len = net_wire("zone.example.", z);

	return deadzone_key(z, len, 0);
}

/* Clients never wait on a zone whose back-off ended: the first fails at
 * once and hands its question to a probe; the probe (a request with
 * dz_probe_key) asks, and its failure doubles the back-off. */
START_TEST(test_background_probe_fails)
{
	uint8_t want[WIRE_NAME_MAX];
	size_t wl = net_wire("mail.zone.example.", want);
	unsigned fails;
	uint64_t left;
	bool probing;

	memset(&bg, 0, sizeof bg);
	N.env.dz_probe = bg_probe;
	zone_servers(FAKE_SILENT);
	servfail_ede(net_resolve("www.zone.example.", WIRE_TYPE_A),
	             DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(bg.calls, 0);
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	fails_at_once("mail.zone.example.", DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(bg.calls, 1);
	ck_assert_uint_eq(bg.key, zone_key());
	ck_assert_uint_eq(bg.qtype, WIRE_TYPE_A);
	ck_assert_mem_eq(bg.name, want, wl);
	/* while it is out: at once, no other probe */
	fails_at_once("ftp.zone.example.", DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(bg.calls, 1);
	/* the probe itself asks the zone's servers */
	N.env.dz_probe_key = bg.key;
	servfail_ede(net_resolve("mail.zone.example.", WIRE_TYPE_A),
	             DEADZONE_EDE_NO_REACH);
	ck_assert_uint_gt(zone_sends(), 0);
	ck_assert_uint_eq(bg.calls, 1);
	ck_assert(deadzone_get(dz, bg.key, N.now.mono_ms, &fails, &left,
	                       &probing));
	ck_assert_uint_eq(fails, 2);
	ck_assert_uint_eq(left, 2 * DEADZONE_BACKOFF_MIN_MS);
	N.env.dz_probe_key = 0;
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	fails_at_once("ftp.zone.example.", DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(bg.calls, 1);
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	fails_at_once("ftp.zone.example.", DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(bg.calls, 2);
}
END_TEST

/* The probe's answer ends the back-off: the next clients are answered;
 * a probe that cannot start leaves the zone for the next question. */
START_TEST(test_background_probe_clears)
{
	const struct answer *r;

	memset(&bg, 0, sizeof bg);
	N.env.dz_probe = bg_probe;
	www_silent(); /* mail answered */
	servfail_ede(net_resolve("www.zone.example.", WIRE_TYPE_A),
	             DEADZONE_EDE_NO_REACH);
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	bg.refuse = true; /* no room for a probe: still at once */
	fails_at_once("mail.zone.example.", DEADZONE_EDE_NO_REACH);
	bg.refuse = false;
	fails_at_once("mail.zone.example.", DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(bg.calls, 2);
	N.env.dz_probe_key = bg.key;
	r = net_resolve("mail.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(!deadzone_busy(dz) ||
	          deadzone_check(dz, bg.key, N.now.mono_ms, 0, NULL) ==
	                  DEADZONE_ASK);
	N.env.dz_probe_key = 0;
	r = net_resolve("mail.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(bg.calls, 2);
}
END_TEST

/* The zones told to the worker's timer (iter_env.dz_failed). */
static struct {
	unsigned calls;
	uint64_t key;
	uint8_t name[WIRE_NAME_MAX];
	size_t len;
} nt;

static void failed(void *arg, uint64_t key, const uint8_t *zone, size_t len)
{
	(void)arg;
	nt.calls++;
	nt.key = key;
	memcpy(nt.name, zone, len);
	nt.len = len;
}

/* The worker hears of a zone's failure, with its name (to probe it on a
 * timer when the back-off ends), not of the questions that fail at
 * once during the back-off; a failed probe tells it again. */
START_TEST(test_failed_for_timer)
{
	uint8_t want[WIRE_NAME_MAX];
	size_t wl = net_wire("zone.example.", want);

	memset(&nt, 0, sizeof nt);
	N.env.dz_failed = failed;
	zone_servers(FAKE_SILENT);
	servfail_ede(net_resolve("www.zone.example.", WIRE_TYPE_A),
	             DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(nt.calls, 1);
	ck_assert_uint_eq(nt.key, zone_key());
	ck_assert_uint_eq(nt.len, wl);
	ck_assert_mem_eq(nt.name, want, wl);
	fails_at_once("mail.zone.example.", DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(nt.calls, 1);
	/* the timer's probe (as deadzone_due lets it) fails: told again */
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	ck_assert_int_eq(deadzone_check(dz, nt.key, N.now.mono_ms, 5000, NULL),
	                 DEADZONE_PROBE);
	N.env.dz_probe_key = nt.key;
	servfail_ede(net_resolve("zone.example.", WIRE_TYPE_SOA),
	             DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(nt.calls, 2);
	N.env.dz_probe_key = 0;
	N.env.dz_failed = NULL;
}
END_TEST

Suite *iter_dz_suite(void)
{
	Suite *s = suite_create("iter-deadzone");
	TCase *tc = tcase_create("backoff");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_silent_zone_one_wait);
	tcase_add_test(tc, test_unreachable_network_error);
	tcase_add_test(tc, test_answer_ends_backoff);
	tcase_add_test(tc, test_background_probe_fails);
	tcase_add_test(tc, test_background_probe_clears);
	tcase_add_test(tc, test_failed_for_timer);
	suite_add_tcase(s, tc);
	return s;
}
