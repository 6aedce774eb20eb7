/*
 * tests/unit/check_iter_caps.c - Suite "iter" (continued): failure paths
 * (lame, REFUSED, SERVFAIL, timeouts, late answers, EDNS fallback), every
 * cap, loops, and the classifier on its own.
 */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iter_net.h"
#include "iter/iter_int.h"
#include "anchor/anchor.h"

Suite *iter_caps_suite(void);

static void setup(void)
{
	net_setup();
}

static void teardown(void)
{
	net_teardown();
}

static struct sockaddr_storage sa4(const char *text)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;

	memset(&ss, 0, sizeof ss);
	in->sin_family = AF_INET;
	in->sin_port = htons(53);
	ck_assert_int_eq(inet_pton(AF_INET, text, &in->sin_addr), 1);
	return ss;
}

/* zone.example. with two servers, 192.0.2.3 (first) and 192.0.2.4. */
static void two_servers(void)
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
	net_add(&(struct fake){
		.server = "192.0.2.4",
		.qname = "www.zone.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "www.zone.example. 60 A 192.0.2.44" } });
}

static void good_answer(const struct answer *r)
{
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert_uint_eq(net_sends_to("192.0.2.4"), 1);
}

static void first_server_bad(const struct fake *f, bool lame)
{
	const struct answer *r;
	struct sockaddr_storage a = sa4("192.0.2.3");
	uint8_t zone[WIRE_NAME_MAX];
	size_t zlen = net_wire("zone.example.", zone);

	net_add(f);
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	good_answer(r);
	ck_assert_uint_eq(N.nsends, 4);
	ck_assert_str_eq(N.sends[2].server, "192.0.2.3");
	/* the next server is asked at once, not after a timeout */
	ck_assert_uint_eq(N.sends[3].at_ms, N.sends[2].at_ms + 1);
	ck_assert_uint_eq(iter_counts(N.req)->lame, lame ? 1 : 0);
	ck_assert(sel_marked(N.sel, (struct sockaddr *)&a, zone, zlen,
	                     N.now.mono_ms));
	/* marked: the next resolution starts with the other server */
	(void)net_resolve("www.zone.example.", WIRE_TYPE_MX);
	ck_assert_str_eq(N.sends[0].server, "192.0.2.4");
}

START_TEST(test_refused)
{
	first_server_bad(&(struct fake){ .server = "192.0.2.3",
	                                 .qname = "*",
	                                 .flags = WIRE_RCODE_REFUSED },
	                 true);
}
END_TEST

START_TEST(test_servfail)
{
	first_server_bad(&(struct fake){ .server = "192.0.2.3",
	                                 .qname = "*",
	                                 .flags = WIRE_RCODE_SERVFAIL },
	                 false);
}
END_TEST

START_TEST(test_notimp)
{
	first_server_bad(&(struct fake){ .server = "192.0.2.3",
	                                 .qname = "*",
	                                 .flags = WIRE_RCODE_NOTIMP },
	                 false);
}
END_TEST

START_TEST(test_upward_referral)
{
	first_server_bad(&(struct fake){ .server = "192.0.2.3",
	                                 .qname = "*",
	                                 .ns = { ". 3600 NS a.root.test." },
	                                 .ar = { "a.root.test. 3600 A "
	                                         "198.51.100.1" } },
	                 true);
}
END_TEST

START_TEST(test_same_zone_referral)
{
	first_server_bad(&(struct fake){ .server = "192.0.2.3",
	                                 .qname = "*",
	                                 .ns = { "zone.example. 3600 NS "
	                                         "a.zone.example." } },
	                 true);
}
END_TEST

START_TEST(test_sideways_referral)
{
	first_server_bad(&(struct fake){ .server = "192.0.2.3",
	                                 .qname = "*",
	                                 .ns = { "other.zone.example. 3600 NS "
	                                         "ns.other.zone.example." },
	                                 .ar = { "ns.other.zone.example. 3600 "
	                                         "A 192.0.2.9" } },
	                 true);
	ck_assert_uint_eq(net_sends_to("192.0.2.9"), 0);
}
END_TEST

/* An answer without AA from a server of the zone is used (Unbound and
 * Knot do), ranked NONAUTH: an AA answer replaces it, not the reverse. */
START_TEST(test_no_aa)
{
	const struct answer *r;
	struct cache_answer ans;
	char rd[64];

	net_add(&(struct fake){
		.server = "192.0.2.3",
		.qname = "*",
		.an = { "www.zone.example. 60 A 192.0.2.66" } });
	net_add(&(struct fake){
		.server = "192.0.2.4",
		.qname = "*",
		.an = { "www.zone.example. 60 A 192.0.2.66" } });
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert_uint_eq(N.nsends, 3);
	ck_assert_uint_eq(iter_counts(N.req)->lame, 0);
	ck_assert_int_eq(net_cache("www.zone.example.", WIRE_TYPE_A, &ans, rd,
	                           sizeof rd),
	                 CACHE_OK);
	ck_assert_int_eq(ans.rank, CACHE_RANK_NONAUTH);
	ck_assert_str_eq(rd, "192.0.2.66");
}
END_TEST

/* RA and no AA: a recursive server in the NS set (recursive lame); the
 * other server is asked, and its answer used. */
START_TEST(test_recursive_lame)
{
	first_server_bad(&(struct fake){ .server = "192.0.2.3",
	                                 .qname = "*",
	                                 .flags = WIRE_FLAG_RA,
	                                 .an = { "www.zone.example. 60 A "
	                                         "192.0.2.66" } },
	                 true);
}
END_TEST

/* ...but when it is the only server that answers, its answer is used. */
START_TEST(test_recursive_lame_last)
{
	const struct answer *r;
	char text[256];

	net_add(&(struct fake){
		.server = "192.0.2.3",
		.qname = "*",
		.flags = WIRE_FLAG_RA,
		.an = { "www.zone.example. 60 A 192.0.2.66" } });
	net_add(&(struct fake){
		.server = "192.0.2.4", .qname = "*", .act = FAKE_SILENT });
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	net_rr_text(r, 0, text, sizeof text);
	ck_assert_str_eq(text, "www.zone.example. 1 192.0.2.66");
}
END_TEST

/* The child's own NS set (cached from its apex, AUTH) names a server
 * that no longer answers: the parent's delegation and glue, kept from
 * its referral, are used (issue 12 item 3). */
START_TEST(test_parent_fallback)
{
	const struct answer *r;

	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.fb.example.",
		.ns = { "fb.example. 86400 NS ns1.fb.example." },
		.ar = { "ns1.fb.example. 86400 A 192.0.2.3" } });
	net_add(&(struct fake){
		.server = "192.0.2.3",
		.qname = "fb.example.",
		.qtype = WIRE_TYPE_NS,
		.flags = WIRE_FLAG_AA,
		.an = { "fb.example. 86400 NS ns2.fb.example." } });
	net_add(&(struct fake){
		.server = "192.0.2.3",
		.qname = "ns2.fb.example.",
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { "ns2.fb.example. 86400 A 192.0.2.5" } });
	net_add(&(struct fake){ .server = "192.0.2.3",
	                        .qname = "www.fb.example.",
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "www.fb.example. 60 A 192.0.2.44" } });
	net_add(&(struct fake){
		.server = "192.0.2.5", .qname = "*", .act = FAKE_SILENT });
	(void)net_resolve("fb.example.", WIRE_TYPE_NS);
	(void)net_resolve("ns2.fb.example.", WIRE_TYPE_A);
	r = net_resolve("www.fb.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert_str_eq(N.sends[0].server, "192.0.2.5");
	/* ns2 twice, then ns1 from the parent's NS set and glue kept from
	 * the referral: the parent need not be asked again */
	ck_assert_uint_eq(N.nsends, 3);
	ck_assert_str_eq(N.sends[2].server, "192.0.2.3");
	ck_assert_uint_eq(net_sends_to("192.0.2.1"), 0);
	ck_assert_uint_eq(iter_counts(N.req)->timeouts, 2);
}
END_TEST

/* RFC 8109: without a cached root NS set the hints are primed first; a
 * root that refuses the priming question is still used as the hints
 * say, and one that does not answer it costs one timeout, not the
 * question. */
START_TEST(test_priming_refused)
{
	const struct answer *r;
	uint64_t prime_after = 0;

	N.env.prime_after = &prime_after;
	cache_flush_all(N.cache, NULL);
	net_add(&(struct fake){ .server = "198.51.100.1",
	                        .qname = ".",
	                        .qtype = WIRE_TYPE_NS,
	                        .flags = WIRE_RCODE_REFUSED });
	net_add(&(struct fake){ .server = "198.51.100.2",
	                        .qname = ".",
	                        .qtype = WIRE_TYPE_NS,
	                        .act = FAKE_SILENT });
	net_add(&(struct fake){ .server = "*",
	                        .qname = "y.",
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "y. 60 A 192.0.2.2" } });
	net_add(&(struct fake){ .server = "*",
	                        .qname = "*",
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "x. 60 A 192.0.2.1" } });
	r = net_resolve("x.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_str_eq(N.sends[0].qname, ".");
	ck_assert_uint_eq(N.sends[0].qtype, WIRE_TYPE_NS);
	ck_assert_str_eq(N.sends[N.nsends - 1].qname, "x.");
	ck_assert_uint_le(N.nsends, 3);
	/* not primed again for a while: the hints are asked at once */
	ck_assert_uint_gt(prime_after, N.now.mono_ms);
	ck_assert_uint_le(prime_after, N.now.mono_ms + ITER_PRIME_RETRY_MS);
	r = net_resolve("y.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_str_eq(N.sends[0].qname, "y.");
}
END_TEST

/* Under a root trust anchor the priming NS set arrives before the root's
 * keys are checked: it guides the iterator but is cached below the rank
 * clients are answered from, so ". NS" asked by a client is validated. */
START_TEST(test_priming_unvalidated_not_for_clients)
{
	struct anchors *a;
	char err[ANCHOR_ERR_MAX];
	struct cache_answer ans;

	ck_assert_int_eq(anchors_new(&a), ANCHOR_OK);
	ck_assert_int_eq(anchors_add_text(a,
	                                  net_str(". 3600 IN DS 1 15 2 %064d",
	                                          0),
	                                  err, sizeof err),
	                 ANCHOR_OK);
	N.env.anchors = a;
	cache_flush_all(N.cache, NULL);
	net_add(&(struct fake){
		.server = "*",
		.qname = ".",
		.qtype = WIRE_TYPE_NS,
		.flags = WIRE_FLAG_AA,
		.an = { ". 3600 NS a.root.test." },
		.ar = { "a.root.test. 3600 A 198.51.100.1" } });
	(void)net_resolve("x.", WIRE_TYPE_A);
	ck_assert_str_eq(N.sends[0].qname, ".");
	ck_assert_uint_eq(N.sends[0].qtype, WIRE_TYPE_NS);
	ck_assert_int_eq(net_cache(".", WIRE_TYPE_NS, &ans, NULL, 0),
	                 CACHE_OK);
	ck_assert_int_eq(ans.rank, CACHE_RANK_REFERRAL);
	ck_assert_int_eq(ans.sec, CACHE_SEC_UNCHECKED);
	N.env.anchors = NULL;
	anchors_free(a);
}
END_TEST

/* A reply with a malformed record is bad: the next server is asked. */
START_TEST(test_malformed_reply)
{
	first_server_bad(&(struct fake){ .server = "192.0.2.3",
	                                 .qname = "*",
	                                 .flags = WIRE_FLAG_AA,
	                                 .an = { "www.zone.example. 60 A \\# "
	                                         "3 c00002" } },
	                 false);
}
END_TEST

START_TEST(test_unreachable)
{
	const struct answer *r;

	net_add(&(struct fake){
		.server = "192.0.2.3", .qname = "*", .act = FAKE_UNREACH });
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	good_answer(r);
	ck_assert_uint_eq(N.sends[3].at_ms, N.sends[2].at_ms);
}
END_TEST

/* Issue 12 item 6: with no RTT known, the first server asked is drawn
 * at random (N.rnd), not always the first listed; a silent one costs
 * the hedge (SEL_HEDGE_MS), and is not counted as a timeout when the
 * answer came first. */
START_TEST(test_unknown_random_hedge)
{
	const struct answer *r;

	net_add(&(struct fake){
		.server = "192.0.2.3", .qname = "*", .act = FAKE_SILENT });
	two_servers();
	/* rnd 1: the second of the tied ones (root servers included:
	 * b.root.test., which answers like a.root.test. here) */
	net_add(&(struct fake){ .server = "198.51.100.2",
	                        .qname = "*.example.",
	                        .ns = { "example. 172800 NS ns1.example." },
	                        .ar = { "ns1.example. 172800 A 192.0.2.1" } });
	N.rnd = 1;
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	good_answer(r);
	ck_assert_str_eq(N.sends[0].server, "198.51.100.2");
	ck_assert_str_eq(N.sends[2].server, "192.0.2.4");
	ck_assert_uint_eq(N.nsends, 3);
	N.rnd = 0;
	net_teardown();
	net_setup();
	net_add(&(struct fake){
		.server = "192.0.2.3", .qname = "*", .act = FAKE_SILENT });
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	good_answer(r);
	ck_assert_str_eq(N.sends[2].server, "192.0.2.3");
	ck_assert_uint_eq(N.sends[2].hedge_ms, SEL_HEDGE_MS);
	ck_assert_uint_eq(N.sends[3].at_ms - N.sends[2].at_ms, SEL_HEDGE_MS);
	ck_assert_uint_le(N.now.mono_ms - N.start_ms, 150);
	ck_assert_uint_eq(iter_counts(N.req)->hedges, 1);
	ck_assert_uint_eq(iter_counts(N.req)->timeouts, 0);
}
END_TEST

/* Issue 12 item 10: a server that answered lately and then dropped a
 * query (RRL) is asked again over TCP. */
START_TEST(test_drop_retry_tcp)
{
	const struct answer *r;

	net_add(&(struct fake){ .server = "192.0.2.4",
	                        .qname = "drop.zone.example.",
	                        .act = FAKE_SILENT });
	net_add(&(struct fake){
		.server = "192.0.2.3", .qname = "*", .act = FAKE_SILENT });
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	good_answer(r);
	/* 192.0.2.4 answered; both drop drop.zone.example. */
	r = net_resolve("drop.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_uint_eq(N.sends[0].tcp, false);
	/* up to the parent asked again (issue 12 item 3) */
	for (size_t i = 1;
	     i < N.nsends && strcmp(N.sends[i].server, "192.0.2.1") != 0; i++)
		if (strcmp(N.sends[i].server, "192.0.2.4") == 0)
			ck_assert(N.sends[i].tcp);
		else
			ck_assert(!N.sends[i].tcp);
	ck_assert_uint_ge(net_sends_to("192.0.2.4"), 2);
}
END_TEST

/* The TCP retry's answer counts (the server is alive, its timeouts
 * forgotten) but its slow time does not raise the smoothed RTT. */
START_TEST(test_tcp_answer_rtt)
{
	const struct answer *r;
	struct sockaddr_storage ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sel_info info;

	net_add(&(struct fake){
		.server = "192.0.2.4",
		.qname = "rrl.zone.example.",
		.flags = WIRE_FLAG_AA,
		.udp_drop = true,
		.delay_ms = 300,
		.an = { "rrl.zone.example. 60 A 192.0.2.45" } });
	net_add(&(struct fake){
		.server = "192.0.2.3", .qname = "*", .act = FAKE_SILENT });
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	good_answer(r);
	r = net_resolve("rrl.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_str_eq(N.sends[2].server, "192.0.2.4");
	ck_assert(N.sends[2].tcp);
	memset(&ss, 0, sizeof ss);
	in->sin_family = AF_INET;
	ck_assert_int_eq(inet_pton(AF_INET, "192.0.2.4", &in->sin_addr), 1);
	sel_info_get(N.sel, (struct sockaddr *)&ss, N.now.mono_ms, &info);
	ck_assert_uint_eq(info.timeouts, 0);
	ck_assert_uint_le(info.srtt_ms, 2);
}
END_TEST

START_TEST(test_all_timeout)
{
	const struct answer *r;

	net_add(&(struct fake){
		.server = "192.0.2.3", .qname = "*", .act = FAKE_SILENT });
	net_add(&(struct fake){
		.server = "192.0.2.4", .qname = "*", .act = FAKE_SILENT });
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_uint_eq(r->an_count, 0);
	ck_assert_ptr_nonnull(r->why);
	/* each server twice; the first wait costs the hedge (120 ms), not
	 * the timeout; the retry follows the first real timeout; then the
	 * parent once more (issue 12 item 3) and its servers again; then
	 * late answers are awaited until the deadline, no longer */
	ck_assert_uint_ge(N.nsends, 8);
	ck_assert_uint_eq(N.sends[3].at_ms - N.sends[2].at_ms, SEL_HEDGE_MS);
	ck_assert_uint_eq(N.sends[4].at_ms - N.sends[2].at_ms,
	                  SEL_RTT_UNKNOWN_MS);
	ck_assert_str_eq(N.sends[4].server, N.sends[2].server);
	ck_assert_str_eq(N.sends[6].server, "192.0.2.1");
	ck_assert_str_eq(N.sends[7].zone, "zone.example.");
	ck_assert_uint_lt(N.sends[N.nsends - 1].at_ms, 5000);
	ck_assert_uint_eq(N.now.mono_ms - N.start_ms, 5000);
	ck_assert_str_eq(r->why, "deadline reached");
	ck_assert_uint_eq(iter_counts(N.req)->timeouts, N.nsends - 3);
}
END_TEST

/* Regression (faults_lab "slow alone"): the only server answers after
 * 2 s, long after every retry timed out; its answer is still taken. */
START_TEST(test_slow_only_server)
{
	const struct answer *r;

	net_add(&(struct fake){
		.server = "192.0.2.3",
		.qname = "*",
		.flags = WIRE_FLAG_AA,
		.delay_ms = 2000,
		.an = { "www.zone.example. 60 A 192.0.2.33" } });
	net_add(&(struct fake){
		.server = "192.0.2.4", .qname = "*", .act = FAKE_UNREACH });
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert_uint_eq(N.now.mono_ms - N.start_ms, N.sends[2].at_ms + 2000);
}
END_TEST

START_TEST(test_deadline)
{
	const struct answer *r;

	N.cfg.query_timeout_ms = 1000;
	net_add(&(struct fake){
		.server = "192.0.2.3", .qname = "*", .act = FAKE_SILENT });
	net_add(&(struct fake){
		.server = "192.0.2.4", .qname = "*", .act = FAKE_SILENT });
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "deadline reached");
	ck_assert_uint_eq(N.now.mono_ms - N.start_ms, 1000);
	/* the last timeout was cut to what was left */
	ck_assert_uint_eq(N.sends[N.nsends - 1].at_ms +
	                          N.sends[N.nsends - 1].timeout_ms,
	                  1000);
}
END_TEST

START_TEST(test_late_answer)
{
	const struct answer *r;

	net_add(&(struct fake){
		.server = "192.0.2.3",
		.qname = "*",
		.flags = WIRE_FLAG_AA,
		.delay_ms = 600,
		.an = { "www.zone.example. 60 A 192.0.2.33" } });
	net_add(&(struct fake){
		.server = "192.0.2.4", .qname = "*", .act = FAKE_SILENT });
	two_servers();
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	/* hedged at 120 ms, both retried after their real timeouts (400
	 * ms); the first query's answer (600 ms) is still taken */
	ck_assert_uint_eq(N.nsends, 6);
	ck_assert_uint_eq(N.sends[3].at_ms - N.sends[2].at_ms, SEL_HEDGE_MS);
	ck_assert_uint_eq(N.now.mono_ms - N.start_ms, N.sends[2].at_ms + 600);
	ck_assert_uint_eq(iter_counts(N.req)->timeouts, 2);
	ck_assert_uint_eq(iter_counts(N.req)->hedges, 3);
}
END_TEST

START_TEST(test_late_answer_during_sub)
{
	const struct answer *r;

	/* slow.example.: one server with glue (slow), one glueless; the
	 * walk for the glueless name is under way when the slow answer
	 * comes: it is used and the sub-resolution is dropped */
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.slow.example.",
		.ns = { "slow.example. 60 NS ns.slow.example.",
	                "slow.example. 60 NS ns.far.net." },
		.ar = { "ns.slow.example. 60 A 192.0.2.50" } });
	net_add(&(struct fake){
		.server = "192.0.2.50",
		.qname = "*",
		.flags = WIRE_FLAG_AA,
		.delay_ms = 450,
		.an = { "www.slow.example. 60 A 192.0.2.51" } });
	net_add(&(struct fake){
		.server = "192.0.2.10", .qname = "*", .act = FAKE_SILENT });
	r = net_resolve("www.slow.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert_uint_eq(iter_counts(N.req)->subqueries, 1);
	ck_assert_str_eq(N.sends[N.nsends - 1].qname, "ns.far.net.");
	ck_assert_uint_eq(N.now.mono_ms - N.start_ms, N.sends[2].at_ms + 450);
}
END_TEST

static void edns_case(const struct fake *f)
{
	const struct answer *r;
	struct sockaddr_storage a = sa4("192.0.2.4");

	net_add(f);
	two_servers();
	net_add(&(struct fake){
		.server = "192.0.2.3", .qname = "*", .act = FAKE_SILENT });
	/* make 192.0.2.4 the first choice */
	sel_rtt_report(N.sel, (struct sockaddr *)&a, 5, N.now.mono_ms);
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(N.nsends, 4);
	ck_assert_str_eq(N.sends[2].server, "192.0.2.4");
	ck_assert_uint_eq(N.sends[2].edns, 1232);
	ck_assert_str_eq(N.sends[3].server, "192.0.2.4");
	ck_assert_uint_eq(N.sends[3].edns, 0);
	ck_assert(!sel_edns(N.sel, (struct sockaddr *)&a, N.now.mono_ms));
}

START_TEST(test_formerr_edns)
{
	edns_case(&(struct fake){
		.server = "192.0.2.4",
		.qname = "*",
		.formerr_edns = true,
		.flags = WIRE_FLAG_AA,
		.an = { "www.zone.example. 60 A 192.0.2.44" } });
}
END_TEST

START_TEST(test_formerr_msg)
{
	edns_case(&(struct fake){
		.server = "192.0.2.4",
		.qname = "*",
		.formerr_msg = true,
		.flags = WIRE_FLAG_AA,
		.an = { "www.zone.example. 60 A 192.0.2.44" } });
}
END_TEST

START_TEST(test_cname_loop)
{
	const struct answer *r;

	net_std();
	/* inside one reply */
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "a.zone.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "a.zone.example. 60 CNAME b.zone.example.",
	                "b.zone.example. 60 CNAME a.zone.example." } });
	/* across zones and replies */
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "c.zone.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "c.zone.example. 60 CNAME d.loop.net." } });
	net_add(&(struct fake){
		.server = "192.0.2.10",
		.qname = "d.loop.net.",
		.flags = WIRE_FLAG_AA,
		.an = { "d.loop.net. 60 CNAME c.zone.example." } });
	r = net_resolve("a.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "CNAME loop");
	r = net_resolve("c.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "CNAME loop");
	/* the cached links make the same loop: found without a send */
	r = net_resolve("c.zone.example.", WIRE_TYPE_A);
	ck_assert_str_eq(r->why, "CNAME loop");
	ck_assert_uint_eq(N.nsends, 0);
}
END_TEST

static void cname_chain(char p, unsigned links)
{
	for (unsigned k = 0; k < links; k++)
		net_add(&(struct fake){
			.server = "192.0.2.2",
			.qname = net_str("%c%u.zone.example.", p, k),
			.flags = WIRE_FLAG_AA,
			.an = { net_str("%c%u.zone.example. 60 CNAME "
		                        "%c%u.zone.example.",
		                        p, k, p, k + 1) } });
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = net_str("%c%u.zone.example.", p, links),
		.flags = WIRE_FLAG_AA,
		.an = { net_str("%c%u.zone.example. 60 A 192.0.2.1", p,
	                        links) } });
}

START_TEST(test_cname_cap)
{
	const struct answer *r;

	net_std();
	cname_chain('a', ITER_MAX_CNAME);
	cname_chain('b', ITER_MAX_CNAME + 1);
	r = net_resolve("a0.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, ITER_MAX_CNAME + 1);
	r = net_resolve("b0.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "CNAME chain too long");
}
END_TEST

/* Zone k of a deep chain: l<k>. ... l1.deep. (k = 0: deep.) */
static const char *deep_zone(unsigned k)
{
	const char *z = "deep.";

	for (unsigned i = 1; i <= k; i++)
		z = net_str("l%u.%s", i, z);
	return z;
}

START_TEST(test_referral_cap)
{
	const struct answer *r;
	unsigned k;

	net_add(&(struct fake){ .server = "198.51.100.1",
	                        .qname = "*.deep.",
	                        .ns = { "deep. 3600 NS ns.deep." },
	                        .ar = { "ns.deep. 3600 A 10.1.0.0" } });
	for (k = 0; k <= ITER_MAX_REFERRALS; k++) {
		const char *z = deep_zone(k), *c = deep_zone(k + 1);

		net_add(&(struct fake){
			.server = net_str("10.1.0.%u", k),
			.qname = net_str("x.%s", z),
			.flags = WIRE_FLAG_AA,
			.an = { net_str("x.%s 60 A 192.0.2.1", z) } });
		net_add(&(struct fake){
			.server = net_str("10.1.0.%u", k),
			.qname = net_str("*.%s", c),
			.ns = { net_str("%s 3600 NS ns.%s", c, c) },
			.ar = { net_str("ns.%s 3600 A 10.1.0.%u", c,
		                        k + 1) } });
	}
	r = net_resolve(net_str("x.%s", deep_zone(ITER_MAX_REFERRALS - 1)),
	                WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(iter_counts(N.req)->referrals, ITER_MAX_REFERRALS);
	cache_flush_all(N.cache, NULL);
	net_primed();
	r = net_resolve(net_str("x.%s", deep_zone(ITER_MAX_REFERRALS)),
	                WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "referral cap");
}
END_TEST

START_TEST(test_subquery_cap)
{
	const struct answer *r;
	struct fake f = { .server = "192.0.2.1", .qname = "*.many.example." };
	unsigned k;

	net_std();
	for (k = 0; k <= ITER_MAX_SUBQUERIES; k++)
		f.ns[k] = net_str("many.example. 3600 NS ns%u.dead.net.", k);
	net_add(&f);
	net_add(&(struct fake){
		.server = "192.0.2.10",
		.qname = "*.dead.net.",
		.flags = WIRE_FLAG_AA | WIRE_RCODE_NXDOMAIN,
		.ns = { "net. 60 SOA ns1.net. h.net. 1 2 3 4 60" } });
	r = net_resolve("www.many.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "sub-resolution cap");
	ck_assert_uint_eq(iter_counts(N.req)->subqueries, ITER_MAX_SUBQUERIES);
}
END_TEST

START_TEST(test_depth_cap)
{
	const struct answer *r;

	net_std();
	net_add(&(struct fake){ .server = "198.51.100.1",
	                        .qname = "*.org.",
	                        .ns = { "org. 3600 NS ns1.org." },
	                        .ar = { "ns1.org. 3600 A 192.0.2.40" } });
	net_add(&(struct fake){ .server = "192.0.2.1",
	                        .qname = "*.d0.example.",
	                        .ns = { "d0.example. 3600 NS ns.d1.org." } });
	for (unsigned k = 1; k <= ITER_MAX_DEPTH + 1; k++)
		net_add(&(struct fake){
			.server = "192.0.2.40",
			.qname = net_str("*.d%u.org.", k),
			.ns = { net_str("d%u.org. 3600 NS ns.d%u.org.", k,
		                        k + 1) } });
	r = net_resolve("www.d0.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "sub-resolution depth cap");
	ck_assert_uint_eq(iter_counts(N.req)->subqueries, ITER_MAX_DEPTH);
}
END_TEST

START_TEST(test_glueless_loop)
{
	const struct answer *r;

	net_std();
	net_add(&(struct fake){ .server = "198.51.100.1",
	                        .qname = "*.org.",
	                        .ns = { "org. 3600 NS ns1.org." },
	                        .ar = { "ns1.org. 3600 A 192.0.2.40" } });
	net_add(&(struct fake){ .server = "192.0.2.1",
	                        .qname = "*.a.example.",
	                        .ns = { "a.example. 3600 NS ns.b.org." } });
	net_add(&(struct fake){ .server = "192.0.2.40",
	                        .qname = "*.b.org.",
	                        .ns = { "b.org. 3600 NS ns.a.example." } });
	r = net_resolve("www.a.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_uint_le(N.nsends, 8);
}
END_TEST

START_TEST(test_send_cap)
{
	const struct answer *r;
	struct fake f = { .server = "192.0.2.1", .qname = "*.big.example." };
	unsigned i, j;

	net_std();
	for (i = 0; i < ITER_NS_MAX; i++) {
		f.ns[i] = net_str("big.example. 60 NS n%u.big.example.", i);
		for (j = 0; j < ITER_NS_ADDRS; j++)
			f.ar[i * ITER_NS_ADDRS + j] =
				net_str("n%u.big.example. 60 A 10.2.%u.%u", i,
			                i, j);
	}
	net_add(&f);
	net_add(&(struct fake){
		.server = "*", .qname = "*", .flags = WIRE_RCODE_REFUSED });
	r = net_resolve("www.big.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "upstream query cap");
	ck_assert_uint_eq(N.nsends, ITER_MAX_SENDS);
	ck_assert_uint_eq(iter_counts(N.req)->sends, ITER_MAX_SENDS);
}
END_TEST

/* A cut's servers take room as they come (iter_zone_add: 2, 4, 8, 16):
 * of 20 NS names the first ITER_NS_MAX are kept, whole across each
 * growth, and the rest never asked. */
START_TEST(test_ns_room_grows)
{
	const struct answer *r;
	struct fake f = { .server = "192.0.2.1", .qname = "*.wide.example." };
	struct iter_peek *peek = malloc(sizeof(*peek));
	uint8_t wn[WIRE_NAME_MAX];
	size_t wl = net_wire("ftp.wide.example.", wn);
	unsigned i, last = ITER_NS_MAX - 1;

	ck_assert_ptr_nonnull(peek);
	net_std();
	for (i = 0; i < ITER_NS_MAX + 4; i++) {
		f.ns[i] = net_str("wide.example. 60 NS n%u.wide.example.", i);
		f.ar[i] = net_str("n%u.wide.example. 60 A 10.4.%u.1", i, i);
	}
	net_add(&(struct fake){ .server = net_str("10.4.%u.1", last),
	                        .qname = "www.wide.example.",
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "www.wide.example. 60 A 10.9.9.9" } });
	for (i = ITER_NS_MAX; i < ITER_NS_MAX + 4; i++)
		net_add(&(struct fake){ .server = net_str("10.4.%u.1", i),
		                        .qname = "www.wide.example.",
		                        .flags = WIRE_FLAG_AA,
		                        .an = { "www.wide.example. 60 A "
		                                "10.8.8.8" } });
	net_add(&f);
	net_add(&(struct fake){
		.server = "*", .qname = "*", .flags = WIRE_RCODE_REFUSED });
	r = net_resolve("www.wide.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(net_count(r, WIRE_TYPE_A), 1);
	ck_assert_uint_eq(net_sends_to(net_str("10.4.%u.1", last)), 1);
	for (i = ITER_NS_MAX; i < ITER_NS_MAX + 4; i++)
		ck_assert_uint_eq(net_sends_to(net_str("10.4.%u.1", i)), 0);
	/* the cached cut, read back: the same 16, each with its address */
	ck_assert_int_eq(iter_peek_cut(&N.env, wn, wl, &N.now, peek), 0);
	ck_assert_uint_eq(peek->nns, ITER_NS_MAX);
	for (i = 0; i < ITER_NS_MAX; i++) {
		char name[WIRE_NAME_TEXT_MAX];

		ck_assert_int_eq(wire_name_to_text(peek->ns[i].name,
		                                   peek->ns[i].namelen, name,
		                                   sizeof name, NULL),
		                 WIRE_OK);
		ck_assert_str_eq(name, net_str("n%u.wide.example.", i));
		ck_assert_uint_eq(peek->ns[i].naddr, 1);
	}
	free(peek);
}
END_TEST

START_TEST(test_outstanding_cap)
{
	const struct answer *r;
	struct fake f = { .server = "192.0.2.1", .qname = "*.slow.example." };
	size_t i, first = NET_SENDS_MAX, second = NET_SENDS_MAX;

	/* eight servers, only 10.3.0.0 answers, 2.5 s late: hedged every
	 * 120 ms, its first token's slot is reused by the ninth send after
	 * it (at most ITER_MAX_OUTSTANDING open, hedged ones never reused),
	 * so only the retry's answer is used */
	N.cfg.query_timeout_ms = 60000;
	net_std();
	for (i = 0; i < 8; i++) {
		f.ns[i] = net_str("slow.example. 60 NS n%zu.slow.example.", i);
		f.ar[i] = net_str("n%zu.slow.example. 60 A 10.3.0.%zu", i, i);
	}
	net_add(&f);
	net_add(&(struct fake){
		.server = "10.3.0.0",
		.qname = "*",
		.flags = WIRE_FLAG_AA,
		.delay_ms = 2500,
		.an = { "www.slow.example. 60 A 192.0.2.1" } });
	net_add(&(struct fake){
		.server = "*", .qname = "*", .act = FAKE_SILENT });
	r = net_resolve("www.slow.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	for (i = 0; i < N.nsends; i++) {
		if (strcmp(N.sends[i].server, "10.3.0.0") != 0)
			continue;
		if (first == NET_SENDS_MAX)
			first = i;
		else if (second == NET_SENDS_MAX)
			second = i;
	}
	ck_assert_uint_lt(second, N.nsends);
	ck_assert_uint_ge(second - first, ITER_MAX_OUTSTANDING);
	ck_assert_uint_gt(N.sends[first].at_ms + 2500,
	                  N.sends[first + 4].at_ms);
	/* the answer used is one of 10.3.0.0's, 2.5 s after its send */
	for (i = 0; i < N.nsends; i++)
		if (strcmp(N.sends[i].server, "10.3.0.0") == 0 &&
		    N.sends[i].at_ms + 2500 == N.now.mono_ms - N.start_ms)
			break;
	ck_assert_uint_lt(i, N.nsends);
}
END_TEST

START_TEST(test_bad_input)
{
	static const uint8_t bad[] = { 70, 'a', 0 };
	struct iter_target t;
	struct iter_req *req;
	uint8_t name[WIRE_NAME_MAX];
	size_t len = net_wire("www.example.", name);

	req = iter_new(&N.env, bad, sizeof bad, WIRE_TYPE_A, WIRE_CLASS_IN,
	               &N.now);
	ck_assert_int_eq(iter_next(req, &N.now, &t), ITER_DONE);
	ck_assert_uint_eq(iter_result(req)->rcode, WIRE_RCODE_SERVFAIL);
	iter_free(req);
	req = iter_new(&N.env, name, len, WIRE_TYPE_A, WIRE_CLASS_CH, &N.now);
	ck_assert_int_eq(iter_next(req, &N.now, &t), ITER_DONE);
	ck_assert_str_eq(iter_result(req)->why, "class not supported");
	iter_free(req);
	req = iter_new(&N.env, name, len, 252, WIRE_CLASS_IN, &N.now);
	ck_assert_int_eq(iter_next(req, &N.now, &t), ITER_DONE);
	ck_assert_str_eq(iter_result(req)->why, "type not supported");
	/* feeding unknown tokens and NULLs is harmless */
	iter_feed(req, &(struct iter_reply){ .token = 99 }, &N.now);
	iter_feed(NULL, NULL, NULL);
	iter_free(req);
	iter_free(NULL);
	req = iter_new(&N.env, name, len, WIRE_TYPE_A, WIRE_CLASS_IN, &N.now);
	ck_assert_ptr_null(iter_result(req));
	iter_free(req);
}
END_TEST

START_TEST(test_unknown_token_ignored)
{
	struct iter_target t, t2;
	struct iter_req *req;
	uint8_t name[WIRE_NAME_MAX];
	size_t len = net_wire("www.example.", name);

	req = iter_new(&N.env, name, len, WIRE_TYPE_A, WIRE_CLASS_IN, &N.now);
	ck_assert_int_eq(iter_next(req, &N.now, &t), ITER_SEND);
	ck_assert_int_eq(iter_next(req, &N.now, &t2), ITER_WAIT);
	iter_feed(req,
	          &(struct iter_reply){ .token = t.token + 1,
	                                .kind = ITER_REPLY_TIMEOUT },
	          &N.now);
	ck_assert_int_eq(iter_next(req, &N.now, &t2), ITER_WAIT);
	iter_feed(req,
	          &(struct iter_reply){ .token = t.token,
	                                .kind = ITER_REPLY_TIMEOUT },
	          &N.now);
	ck_assert_int_eq(iter_next(req, &N.now, &t2), ITER_SEND);
	ck_assert_uint_ne(t2.token, t.token);
	ck_assert_int_ne(memcmp(&t2.addr, &t.addr, sizeof t.addr), 0);
	iter_free(req);
}
END_TEST

/* unit repeated n times, then tail (a string that lives to teardown). */
static const char *repeat(const char *unit, unsigned n, const char *tail)
{
	const char *s = tail;

	while (n-- > 0)
		s = net_str("%s%s", unit, s);
	return s;
}

/* Classify a canned reply to (qname, qtype) asked of zone. */
static enum iter_kind classify(const struct fake *f, const char *zone,
                               const char *qname, uint16_t qtype,
                               struct iter_class *c)
{
	static uint8_t buf[NET_MSG_MAX];
	struct wire_rr rr[128];
	struct wire_msg m;
	uint8_t z[WIRE_NAME_MAX], q[WIRE_NAME_MAX];
	struct iter_ask a = { 0 };
	size_t len = net_msg(f, qname, qtype, buf);

	ck_assert_int_eq(wire_msg_parse(&m, buf, len, rr, 128), WIRE_OK);
	a.zone = z;
	a.zonelen = net_wire(zone, z);
	a.qname = q;
	a.qnamelen = net_wire(qname, q);
	a.qtype = qtype;
	a.qclass = WIRE_CLASS_IN;
	iter_classify(&m, &a, c);
	return c->kind;
}

START_TEST(test_classify)
{
	static struct iter_class c;
	const char *soa = "z. 60 SOA ns.z. h.z. 1 2 3 4 5";

	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA |
	                                                   WIRE_FLAG_TC },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_ERROR);
	ck_assert_str_eq(c.why, "truncated");
	ck_assert_int_eq(classify(&(struct fake){ .flags = 0x2000 }, "z.",
	                          "a.z.", 1, &c),
	                 ITER_K_ERROR);
	ck_assert_int_eq(classify(&(struct fake){ .flags = 9 }, "z.", "a.z.",
	                          1, &c),
	                 ITER_K_ERROR);
	/* negative answers without AA: with an SOA of the zone (as Unbound
	 * and Knot take them), else lame */
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_RCODE_NXDOMAIN,
	                                          .ns = { soa } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_NXDOMAIN);
	ck_assert(!c.aa);
	ck_assert_int_eq(
		classify(&(struct fake){ .flags = WIRE_RCODE_NXDOMAIN }, "z.",
	                 "a.z.", 1, &c),
		ITER_K_LAME);
	ck_assert_str_eq(c.why, "NXDOMAIN without AA or SOA");
	ck_assert_int_eq(classify(&(struct fake){ .ns = { soa } }, "z.",
	                          "a.z.", 1, &c),
	                 ITER_K_NODATA);
	ck_assert_int_eq(classify(&(struct fake){ .flags = 0 }, "z.", "a.z.",
	                          1, &c),
	                 ITER_K_LAME);
	ck_assert_str_eq(c.why, "NODATA without AA or SOA");
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA |
	                                                   WIRE_RCODE_NXDOMAIN,
	                                          .ns = { soa } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_NXDOMAIN);
	ck_assert_uint_eq(c.soa, 0);
	/* an SOA out of bailiwick is not the negative answer's SOA */
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                          .ns = { "y. 60 SOA ns.y. "
	                                                  "h.y. 1 2 3 4 5" } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_NODATA);
	ck_assert_uint_eq(c.soa, WIRE_NONE);
	/* records out of bailiwick are not an answer */
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                          .an = { "a.z. 60 A "
	                                                  "1.2.3.4" } },
	                          "y.", "a.z.", 1, &c),
	                 ITER_K_NODATA);
	/* 101 labels "x." after the DNAME, 2 x 50 + 2 before: > 255 */
	ck_assert_int_eq(
		classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                 .an = { net_str("a.z. 60 DNAME %s",
	                                                 repeat("x.", 101,
	                                                        "")) } },
	                 "z.", repeat("b", 50, repeat(".b", 50, ".a.z.")), 1,
	                 &c),
		ITER_K_ERROR);
	ck_assert_str_eq(c.why, "DNAME substitution too long");
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                          .an = { "a.z. 60 CNAME b.z.",
	                                                  "b.z. 60 CNAME "
	                                                  "a.z." } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_CNAME);
	ck_assert(c.loop);
	ck_assert_int_eq(classify(&(struct fake){ .ns = { "a.z. 60 NS "
	                                                  "ns.a.z." } },
	                          "z.", "b.a.z.", 1, &c),
	                 ITER_K_REFERRAL);
	ck_assert_int_eq(classify(&(struct fake){ .ns = { "c.z. 60 NS "
	                                                  "ns.a.z." } },
	                          "z.", "b.a.z.", 1, &c),
	                 ITER_K_LAME);
	ck_assert_str_eq(c.why, "referral sideways");
	/* AA set on a referral by mistake: still a referral; with an SOA,
	 * or with NS of the zone itself, a NODATA */
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                          .ns = { "a.z. 60 NS "
	                                                  "ns.a.z." } },
	                          "z.", "b.a.z.", 1, &c),
	                 ITER_K_REFERRAL);
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                          .ns = { "z. 60 NS ns.z." } },
	                          "z.", "b.a.z.", 1, &c),
	                 ITER_K_NODATA);
	ck_assert_ptr_null(c.why);
}
END_TEST

/* RFC 2308 section 2.2, RFC 1034 section 4.3.4: what makes a reply
 * lame, and answers without AA (RFC 2181 section 5.4.1 ranks them). */
START_TEST(test_classify_lame)
{
	static struct iter_class c;

	/* an answer without AA is an answer, ranked below AA data */
	ck_assert_int_eq(classify(&(struct fake){ .an = { "a.z. 60 A "
	                                                  "1.2.3.4" } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_ANSWER);
	ck_assert(!c.aa && !c.ra);
	ck_assert_int_eq(iter_data_rank(&c), CACHE_RANK_NONAUTH);
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_RA,
	                                          .an = { "a.z. 60 CNAME "
	                                                  "b.y." } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_CNAME);
	ck_assert(!c.aa && c.ra);
	/* AA with NS records of a parent or of another zone, no SOA */
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                          .ns = { ". 60 NS "
	                                                  "a.root." } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_LAME);
	ck_assert_str_eq(c.why, "AA with an upward referral");
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                          .ns = { "y. 60 NS ns.y." } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_LAME);
	ck_assert_str_eq(c.why, "AA with a sideways referral");
	/* AA, data about another name only: not a NODATA */
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                          .an = { "b.z. 60 A "
	                                                  "1.2.3.4" } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_LAME);
	ck_assert_str_eq(c.why, "AA answer about another name");
	/* ...but a record of another type at the name is a NODATA (a qmin
	 * NS probe at the owner of a DNAME) */
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                          .an = { "a.z. 60 DNAME b.y.",
	                                                  "c.a.z. 60 CNAME "
	                                                  "c.b.y." } },
	                          "z.", "a.z.", WIRE_TYPE_NS, &c),
	                 ITER_K_NODATA);
	/* a negative answer from the zone above (the server holds the
	 * parent, not the zone it was asked as a server of) */
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA |
	                                                   WIRE_RCODE_NXDOMAIN,
	                                          .ns = { "y. 60 SOA ns.y. "
	                                                  "h.y. 1 2 3 4 5" } },
	                          "z.y.", "a.z.y.", 1, &c),
	                 ITER_K_LAME);
	ck_assert_str_eq(c.why,
	                 "negative answer with the SOA of a zone above");
	/* no AA, NS of the zone asked: not a referral */
	ck_assert_int_eq(classify(&(struct fake){ .ns = { "z. 60 NS ns.z." } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_LAME);
}
END_TEST

/* A record whose RDATA does not parse makes the whole reply bad. */
START_TEST(test_classify_malformed)
{
	static struct iter_class c;
	static const char *const bad[] = { "a.z. 60 A \\# 3 010203",
		                           "a.z. 60 A \\# 5 0102030405",
		                           "a.z. 60 AAAA \\# 4 01020304",
		                           "a.z. 60 MX \\# 1 00",
		                           "a.z. 60 NS \\# 3 030102" };
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(classify(&(struct fake){ .flags =
		                                                  WIRE_FLAG_AA,
		                                          .an = { bad[i] } },
		                          "z.", "a.z.", 1, &c),
		                 ITER_K_ERROR);
		ck_assert_str_eq(c.why, ITER_WHY_MALFORMED);
	}
	/* in the additional section too */
	ck_assert_int_eq(
		classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                 .an = { "a.z. 60 A 1.2.3.4" },
	                                 .ar = { "ns.z. 60 A \\# 3 010203" } },
	                 "z.", "a.z.", 1, &c),
		ITER_K_ERROR);
	ck_assert_int_eq(classify(&(struct fake){ .flags = WIRE_FLAG_AA,
	                                          .an = { "a.z. 60 A \\# 4 "
	                                                  "01020304" } },
	                          "z.", "a.z.", 1, &c),
	                 ITER_K_ANSWER);
}
END_TEST

Suite *iter_caps_suite(void)
{
	Suite *s = suite_create("iter-caps");
	TCase *tc = tcase_create("servers");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_refused);
	tcase_add_test(tc, test_servfail);
	tcase_add_test(tc, test_notimp);
	tcase_add_test(tc, test_upward_referral);
	tcase_add_test(tc, test_same_zone_referral);
	tcase_add_test(tc, test_sideways_referral);
	tcase_add_test(tc, test_no_aa);
	tcase_add_test(tc, test_recursive_lame);
	tcase_add_test(tc, test_recursive_lame_last);
	tcase_add_test(tc, test_malformed_reply);
	tcase_add_test(tc, test_parent_fallback);
	tcase_add_test(tc, test_priming_refused);
	tcase_add_test(tc, test_priming_unvalidated_not_for_clients);
	tcase_add_test(tc, test_unreachable);
	tcase_add_test(tc, test_all_timeout);
	tcase_add_test(tc, test_unknown_random_hedge);
	tcase_add_test(tc, test_drop_retry_tcp);
	tcase_add_test(tc, test_tcp_answer_rtt);
	tcase_add_test(tc, test_slow_only_server);
	tcase_add_test(tc, test_deadline);
	tcase_add_test(tc, test_late_answer);
	tcase_add_test(tc, test_late_answer_during_sub);
	tcase_add_test(tc, test_formerr_edns);
	tcase_add_test(tc, test_formerr_msg);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_cname_loop);
	tcase_add_test(tc, test_cname_cap);
	tcase_add_test(tc, test_referral_cap);
	tcase_add_test(tc, test_subquery_cap);
	tcase_add_test(tc, test_depth_cap);
	tcase_add_test(tc, test_glueless_loop);
	tcase_add_test(tc, test_send_cap);
	tcase_add_test(tc, test_ns_room_grows);
	tcase_add_test(tc, test_outstanding_cap);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_bad_input);
	tcase_add_test(tc, test_unknown_token_ignored);
	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_classify_lame);
	tcase_add_test(tc, test_classify_malformed);
	suite_add_tcase(s, tc);
	return s;
}
