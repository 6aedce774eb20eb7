/*
 * tests/unit/check_iter_dz.c - Suite "iter-deadzone": the iterator with
 * the resolution failure cache (RFC 9520, iter/iter_deadzone.c): a zone
 * whose servers are all silent costs one wait, then fails at once (EDE
 * 22; 23 for network errors) until its back-off ends; an answer from
 * one of its servers ends the back-off; a failed question is cached 1 s.
 */
#include <check.h>
#include <stdlib.h>

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

/* example. -> zone.example. (a 192.0.2.3, b 192.0.2.4), both acting as
 * act; mail.zone.example. answered when they answer at all. */
static void zone_servers(enum fake_act act)
{
	net_add(&(struct fake){ .server = "198.51.100.1",
	                        .qname = "*.example.",
	                        .ns = { "example. 172800 NS ns1.example." },
	                        .ar = { "ns1.example. 172800 A 192.0.2.1" } });
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.zone.example.",
		.ns = { "zone.example. 86400 NS a.zone.example.",
	                "zone.example. 86400 NS b.zone.example." },
		.ar = { "a.zone.example. 86400 A 192.0.2.3",
	                "b.zone.example. 86400 A 192.0.2.4" } });
	net_add(&(struct fake){ .server = "192.0.2.3", .qname = "*",
	                        .act = act });
	net_add(&(struct fake){ .server = "192.0.2.4", .qname = "*",
	                        .act = act });
}

static void servfail_ede(const struct answer *r, uint16_t ede)
{
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert(r->ede);
	ck_assert_uint_eq(r->ede_code, ede);
}

START_TEST(test_silent_zone_one_wait)
{
	const struct answer *r;

	zone_servers(FAKE_SILENT);
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	servfail_ede(r, DEADZONE_EDE_NO_REACH);
	ck_assert_uint_gt(N.now.mono_ms - N.start_ms, 1000);
	/* another name of the zone: at once, nothing sent */
	r = net_resolve("mail.zone.example.", WIRE_TYPE_A);
	servfail_ede(r, DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(N.now.mono_ms, N.start_ms);
	ck_assert_uint_eq(net_sends_to("192.0.2.3") + net_sends_to("192.0.2.4"),
	                  0);
	/* the back-off over: asked again (the probe), then 2 s */
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	r = net_resolve("mail.zone.example.", WIRE_TYPE_A);
	servfail_ede(r, DEADZONE_EDE_NO_REACH);
	ck_assert_uint_gt(net_sends_to("192.0.2.3") + net_sends_to("192.0.2.4"),
	                  0);
	N.now.mono_ms += DEADZONE_BACKOFF_MIN_MS;
	r = net_resolve("ftp.zone.example.", WIRE_TYPE_A);
	servfail_ede(r, DEADZONE_EDE_NO_REACH);
	ck_assert_uint_eq(N.nsends, 0);
}
END_TEST

START_TEST(test_unreachable_network_error)
{
	const struct answer *r;

	zone_servers(FAKE_UNREACH);
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	servfail_ede(r, DEADZONE_EDE_NETWORK);
	r = net_resolve("mail.zone.example.", WIRE_TYPE_A);
	servfail_ede(r, DEADZONE_EDE_NETWORK);
	ck_assert_uint_eq(N.nsends, 0);
}
END_TEST

START_TEST(test_answer_ends_backoff)
{
	const struct answer *r;
	uint8_t z[WIRE_NAME_MAX];
	size_t len;

	/* both servers drop www only: the zone backs off... */
	net_add(&(struct fake){ .server = "*", .qname = "www.zone.example.",
	                        .act = FAKE_SILENT });
	net_add(&(struct fake){ .server = "*", .qname = "mail.zone.example.",
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "mail.zone.example. 60 A 192.0.2.9" } });
	zone_servers(FAKE_SILENT);
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

Suite *iter_dz_suite(void)
{
	Suite *s = suite_create("iter-deadzone");
	TCase *tc = tcase_create("backoff");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_silent_zone_one_wait);
	tcase_add_test(tc, test_unreachable_network_error);
	tcase_add_test(tc, test_answer_ends_backoff);
	suite_add_tcase(s, tc);
	return s;
}
