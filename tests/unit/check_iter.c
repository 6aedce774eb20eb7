/*
 * tests/unit/check_iter.c - Suite "iter": the iterator, driven through a
 * fake network (check_iter_net.c) with time moved by hand. This file
 * holds the walk scenarios; check_iter_caps.c the failure paths and caps.
 * Behaviours a client can see (CNAME chains across zones, NXDOMAIN and
 * NODATA with negative caching, ...) are proven by the scenario files
 * of tests/replay/ against the real daemon; what stays here looks
 * inside (ranks, counters, timelines).
 */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iter_net.h"
#include "curve.h"

/* A uz5 key label and its key (the lab's CurveDNS test key). */
#define KEYLABEL "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2"
#define KEYHEX \
	"90af53c14874538559f08647fb6d2df3" \
	"e653b186409032509f9609043ef0f409"

Suite *iter_caps_suite(void);
Suite *iter_proof_suite(void);
Suite *iter_dz_suite(void);
Suite *iter_log_suite(void);

static void setup(void)
{
	net_setup();
}

static void teardown(void)
{
	net_teardown();
}

static void answer_is(const struct answer *r, size_t i, const char *want)
{
	char text[2048];

	ck_assert_uint_gt(r->an_count, i);
	net_rr_text(r, i, text, sizeof text);
	ck_assert_str_eq(text, want);
}

static void zone_answer(const char *name, const char *addr)
{
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = name,
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { net_str("%s 300 A %s", name, addr) } });
}

START_TEST(test_referral_chain)
{
	const struct answer *r;
	struct cache_answer ans;
	char rd[256];

	net_std();
	zone_answer("www.zone.example.", "192.0.2.80");
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	answer_is(r, 0, "www.zone.example. 1 192.0.2.80");
	ck_assert_uint_eq(net_ttl(r->an, r->an_len, 0), 300);
	ck_assert(!r->curve);
	ck_assert_uint_eq(N.nsends, 3);
	ck_assert_str_eq(N.sends[0].server, "198.51.100.1");
	ck_assert_str_eq(N.sends[0].zone, ".");
	ck_assert_str_eq(N.sends[1].server, "192.0.2.1");
	ck_assert_str_eq(N.sends[1].zone, "example.");
	ck_assert_str_eq(N.sends[2].server, "192.0.2.2");
	ck_assert_str_eq(N.sends[2].zone, "zone.example.");
	ck_assert_str_eq(N.sends[2].qname, "www.zone.example.");
	ck_assert_uint_eq(N.sends[2].edns, 1232);
	ck_assert_uint_eq(N.sends[0].timeout_ms, SEL_RTT_UNKNOWN_MS);
	ck_assert_uint_eq(iter_counts(N.req)->referrals, 2);
	ck_assert_uint_eq(iter_counts(N.req)->sends, 3);
	/* what was cached, with which rank */
	ck_assert_int_eq(net_cache("zone.example.", WIRE_TYPE_NS, &ans, rd,
	                           sizeof rd),
	                 CACHE_OK);
	ck_assert_int_eq(ans.rank, CACHE_RANK_REFERRAL);
	ck_assert_str_eq(rd, "ns.zone.example.");
	ck_assert_int_eq(net_cache("ns.zone.example.", WIRE_TYPE_A, &ans, rd,
	                           sizeof rd),
	                 CACHE_OK);
	ck_assert_int_eq(ans.rank, CACHE_RANK_GLUE);
	ck_assert_str_eq(rd, "192.0.2.2");
	ck_assert_int_eq(net_cache("www.zone.example.", WIRE_TYPE_A, &ans, rd,
	                           sizeof rd),
	                 CACHE_OK);
	ck_assert_int_eq(ans.rank, CACHE_RANK_AUTH);
	ck_assert(!ans.curve);
}
END_TEST

START_TEST(test_cached_cut)
{
	const struct answer *r;

	net_std();
	zone_answer("www.zone.example.", "192.0.2.80");
	zone_answer("ftp.zone.example.", "192.0.2.81");
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(N.nsends, 3);
	r = net_resolve("ftp.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	answer_is(r, 0, "ftp.zone.example. 1 192.0.2.81");
	ck_assert_uint_eq(N.nsends, 1);
	ck_assert_str_eq(N.sends[0].zone, "zone.example.");
	/* the answer itself is cached: no send at all */
	r = net_resolve("www.zone.example.", WIRE_TYPE_A);
	answer_is(r, 0, "www.zone.example. 1 192.0.2.80");
	ck_assert_uint_eq(N.nsends, 0);
}
END_TEST

START_TEST(test_glueless)
{
	const struct answer *r;

	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.glueless.example.",
		.ns = { "glueless.example. 86400 NS ns.other.net." } });
	net_add(&(struct fake){ .server = "192.0.2.10",
	                        .qname = "ns.other.net.",
	                        .qtype = WIRE_TYPE_A,
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "ns.other.net. 3600 A 192.0.2.20" } });
	net_add(&(struct fake){
		.server = "192.0.2.20",
		.qname = "www.glueless.example.",
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { "www.glueless.example. 60 A 192.0.2.90" } });
	r = net_resolve("www.glueless.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	answer_is(r, 0, "www.glueless.example. 1 192.0.2.90");
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert_uint_eq(iter_counts(N.req)->subqueries, 1);
	/* root, example., root (net.), net., then the glueless server */
	ck_assert_uint_eq(N.nsends, 5);
	ck_assert_str_eq(N.sends[3].qname, "ns.other.net.");
	ck_assert_str_eq(N.sends[4].server, "192.0.2.20");
	ck_assert_str_eq(N.sends[4].zone, "glueless.example.");
}
END_TEST

/* example.'s server refers oob.example. to ns.evil.net. and to the
 * sibling ns.sib.example., with glue for both and an unrelated name. */
static void oob_referral(void)
{
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.oob.example.",
		.ns = { "oob.example. 86400 NS ns.evil.net.",
	                "oob.example. 86400 NS ns.sib.example." },
		.ar = { "ns.evil.net. 86400 A 192.0.2.66",
	                "ns.sib.example. 86400 A 192.0.2.67",
	                "attack.example. 86400 A 192.0.2.68" } });
	net_add(&(struct fake){ .server = "192.0.2.10",
	                        .qname = "ns.evil.net.",
	                        .qtype = WIRE_TYPE_A,
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "ns.evil.net. 3600 A 192.0.2.30" } });
	net_add(&(struct fake){
		.server = "*",
		.qname = "www.oob.example.",
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { "www.oob.example. 60 A 192.0.2.91" } });
}

/* harden-glue: glue for the sibling inside example. (the referring
 * zone's bailiwick) is used and cached as GLUE; glue for a name under
 * net. is neither used nor cached; an address for a name that is no
 * NS of the referral is ignored. */
START_TEST(test_out_of_bailiwick_glue)
{
	const struct answer *r;
	struct cache_answer ans;
	char rd[256];

	oob_referral();
	r = net_resolve("www.oob.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	answer_is(r, 0, "www.oob.example. 1 192.0.2.91");
	ck_assert_uint_eq(net_sends_to("192.0.2.66"), 0);
	ck_assert_uint_eq(net_sends_to("192.0.2.67"), 1);
	ck_assert_uint_eq(net_sends_to("192.0.2.68"), 0);
	/* the sibling's glue spared resolving ns.evil.net. */
	ck_assert_uint_eq(iter_counts(N.req)->subqueries, 0);
	ck_assert_int_eq(net_cache("ns.sib.example.", WIRE_TYPE_A, &ans, rd,
	                           sizeof rd),
	                 CACHE_OK);
	ck_assert_int_eq(ans.rank, CACHE_RANK_GLUE);
	ck_assert_str_eq(rd, "192.0.2.67");
	ck_assert_int_eq(net_cache("ns.evil.net.", WIRE_TYPE_A, &ans, NULL, 0),
	                 CACHE_ENOTFOUND);
	ck_assert_int_eq(net_cache("attack.example.", WIRE_TYPE_A, &ans, NULL,
	                           0),
	                 CACHE_ENOTFOUND);
}
END_TEST

/* harden-glue: no takes glue for any NS name (and still only for NS
 * names of the referral). */
START_TEST(test_glue_unhardened)
{
	struct cache_answer ans;
	char rd[256];

	N.cfg.harden_glue = false;
	oob_referral();
	(void)net_resolve("www.oob.example.", WIRE_TYPE_A);
	ck_assert_int_eq(net_cache("ns.evil.net.", WIRE_TYPE_A, &ans, rd,
	                           sizeof rd),
	                 CACHE_OK);
	ck_assert_int_eq(ans.rank, CACHE_RANK_GLUE);
	ck_assert_str_eq(rd, "192.0.2.66");
	ck_assert_int_eq(net_cache("attack.example.", WIRE_TYPE_A, &ans, NULL,
	                           0),
	                 CACHE_ENOTFOUND);
}
END_TEST

START_TEST(test_cname_in_zone_chain)
{
	const struct answer *r;

	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "a.zone.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "a.zone.example. 600 CNAME b.zone.example.",
	                "b.zone.example. 600 CNAME c.zone.example.",
	                "c.zone.example. 600 A 192.0.2.96" } });
	r = net_resolve("a.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 3);
	answer_is(r, 2, "c.zone.example. 1 192.0.2.96");
	ck_assert_uint_eq(N.nsends, 3);
}
END_TEST

START_TEST(test_dname)
{
	const struct answer *r;

	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "x.old.zone.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "old.zone.example. 600 DNAME new.target.net.",
	                "x.old.zone.example. 600 CNAME x.new.target.net." } });
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "y.old.zone.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "old.zone.example. 600 DNAME new.target.net." } });
	net_add(&(struct fake){
		.server = "192.0.2.10",
		.qname = "*.new.target.net.",
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { "x.new.target.net. 120 A 192.0.2.97",
	                "y.new.target.net. 120 A 192.0.2.98" } });
	r = net_resolve("x.old.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 3);
	answer_is(r, 0, "old.zone.example. 39 new.target.net.");
	answer_is(r, 1, "x.old.zone.example. 5 x.new.target.net.");
	answer_is(r, 2, "x.new.target.net. 1 192.0.2.97");
	/* without the synthesized CNAME in the reply */
	r = net_resolve("y.old.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->an_count, 3);
	answer_is(r, 1, "y.old.zone.example. 5 y.new.target.net.");
	answer_is(r, 2, "y.new.target.net. 1 192.0.2.98");
}
END_TEST

START_TEST(test_curve_keys)
{
	const struct answer *r;
	struct cache_answer ans;
	uint8_t key[KEY_BYTES];
	size_t klen;

	ck_assert_int_eq(sodium_hex2bin(key, sizeof key, KEYHEX,
	                                strlen(KEYHEX), NULL, &klen, NULL),
	                 0);
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.curve.example.",
		.ns = { "curve.example. 86400 NS " KEYLABEL
	                ".ns1.curve.example." },
		.ar = { KEYLABEL ".ns1.curve.example. 86400 A 192.0.2.5" } });
	net_add(&(struct fake){
		.server = "192.0.2.5",
		.qname = "www.curve.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "www.curve.example. 300 A 192.0.2.55" } });
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(r->curve);
	ck_assert_uint_eq(N.nsends, 3);
	ck_assert(!N.sends[1].curve);
	ck_assert(N.sends[2].curve);
	ck_assert_mem_eq(N.sends[2].key, key, KEY_BYTES);
	ck_assert_str_eq(N.sends[2].zone, "curve.example.");
	ck_assert_uint_eq(iter_counts(N.req)->sends_curve, 1);
	ck_assert_int_eq(net_cache("www.curve.example.", WIRE_TYPE_A, &ans,
	                           NULL, 0),
	                 CACHE_OK);
	ck_assert(ans.curve);
	ck_assert_mem_eq(ans.server_key, key, KEY_BYTES);
}
END_TEST

START_TEST(test_curve_off)
{
	const struct answer *r;
	struct cache_answer ans;

	N.cfg.curve = false;
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.curve.example.",
		.ns = { "curve.example. 86400 NS " KEYLABEL
	                ".ns1.curve.example." },
		.ar = { KEYLABEL ".ns1.curve.example. 86400 A 192.0.2.5" } });
	net_add(&(struct fake){
		.server = "192.0.2.5",
		.qname = "www.curve.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "www.curve.example. 300 A 192.0.2.55" } });
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(!r->curve);
	ck_assert(!N.sends[2].curve);
	ck_assert_uint_eq(iter_counts(N.req)->sends_curve, 0);
	ck_assert_int_eq(net_cache("www.curve.example.", WIRE_TYPE_A, &ans,
	                           NULL, 0),
	                 CACHE_OK);
	ck_assert(!ans.curve);
}
END_TEST

START_TEST(test_curve_unboxed_dropped)
{
	const struct answer *r;
	struct cache_answer ans;

	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.curve.example.",
		.ns = { "curve.example. 86400 NS " KEYLABEL
	                ".ns1.curve.example." },
		.ar = { KEYLABEL ".ns1.curve.example. 86400 A 192.0.2.5" } });
	net_add(&(struct fake){
		.server = "192.0.2.5",
		.qname = "www.curve.example.",
		.flags = WIRE_FLAG_AA,
		.unboxed = true,
		.an = { "www.curve.example. 300 A 192.0.2.66" } });
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_uint_eq(r->an_count, 0);
	ck_assert_int_eq(net_cache("www.curve.example.", WIRE_TYPE_A, &ans,
	                           NULL, 0),
	                 CACHE_ENOTFOUND);
	/* tried twice, never believed; the unboxed reply ends the wait;
	 * the parent is asked once more and the server twice again */
	ck_assert_uint_eq(net_sends_to("192.0.2.5"), 4);
	ck_assert_uint_eq(net_sends_to("192.0.2.1"), 2);
	ck_assert_uint_eq(N.sends[3].at_ms, N.sends[2].at_ms + 1);
}
END_TEST

/* curve-plain-fallback: yes: the unboxed reply is used, cached as plain. */
START_TEST(test_curve_plain_fallback)
{
	const struct answer *r;
	struct cache_answer ans;

	net_std();
	N.cfg.curve_plain_fallback = true;
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.curve.example.",
		.ns = { "curve.example. 86400 NS " KEYLABEL
	                ".ns1.curve.example." },
		.ar = { KEYLABEL ".ns1.curve.example. 86400 A 192.0.2.5" } });
	net_add(&(struct fake){
		.server = "192.0.2.5",
		.qname = "www.curve.example.",
		.flags = WIRE_FLAG_AA,
		.unboxed = true,
		.an = { "www.curve.example. 300 A 192.0.2.66" } });
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert(!r->curve);
	ck_assert_int_eq(net_cache("www.curve.example.", WIRE_TYPE_A, &ans,
	                           NULL, 0),
	                 CACHE_OK);
	ck_assert(!ans.curve);
}
END_TEST

START_TEST(test_qmin)
{
	const struct answer *r;
	static const char *want[][2] = { { "example.", "198.51.100.1" },
		                         { "zone.example.", "192.0.2.1" },
		                         { "a.zone.example.", "192.0.2.2" },
		                         { "www.a.zone.example.",
		                           "192.0.2.2" } };

	N.cfg.qname_minimisation = true;
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "a.zone.example.",
		.qtype = WIRE_TYPE_NS,
		.flags = WIRE_FLAG_AA,
		.ns = { "zone.example. 60 SOA ns.zone.example. "
	                "host.zone.example. 1 3600 600 86400 300" } });
	zone_answer("www.a.zone.example.", "192.0.2.99");
	r = net_resolve("www.a.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	answer_is(r, 0, "www.a.zone.example. 1 192.0.2.99");
	ck_assert_uint_eq(N.nsends, 4);
	for (size_t i = 0; i < 4; i++) {
		ck_assert_str_eq(N.sends[i].qname, want[i][0]);
		ck_assert_str_eq(N.sends[i].server, want[i][1]);
		ck_assert_uint_eq(N.sends[i].qtype,
		                  i < 3 ? WIRE_TYPE_NS : WIRE_TYPE_A);
	}
}
END_TEST

START_TEST(test_qmin_auth_ns)
{
	const struct answer *r;

	/* a server authoritative for parent and child answers the NS probe
	 * with the child's NS RRset (AA): a cut, no referral needed */
	N.cfg.qname_minimisation = true;
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "sub.zone.example.",
		.qtype = WIRE_TYPE_NS,
		.flags = WIRE_FLAG_AA,
		.an = { "sub.zone.example. 60 NS ns.sub.zone.example." },
		.ar = { "ns.sub.zone.example. 60 A 192.0.2.3" } });
	net_add(&(struct fake){
		.server = "192.0.2.3",
		.qname = "www.sub.zone.example.",
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { "www.sub.zone.example. 60 A 192.0.2.33" } });
	r = net_resolve("www.sub.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	answer_is(r, 0, "www.sub.zone.example. 1 192.0.2.33");
	ck_assert_str_eq(N.sends[3].zone, "sub.zone.example.");
}
END_TEST

START_TEST(test_qmin_nxdomain_fallback)
{
	const struct answer *r;

	N.cfg.qname_minimisation = true;
	net_std();
	/* a broken server: NXDOMAIN for an empty non-terminal */
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "ent.zone.example.",
		.qtype = WIRE_TYPE_NS,
		.flags = WIRE_FLAG_AA | WIRE_RCODE_NXDOMAIN,
		.ns = { "zone.example. 60 SOA ns.zone.example. "
	                "host.zone.example. 1 3600 600 86400 300" } });
	zone_answer("www.ent.zone.example.", "192.0.2.77");
	r = net_resolve("www.ent.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	answer_is(r, 0, "www.ent.zone.example. 1 192.0.2.77");
	ck_assert_uint_eq(N.nsends, 4);
	ck_assert_str_eq(N.sends[2].qname, "ent.zone.example.");
	ck_assert_str_eq(N.sends[3].qname, "www.ent.zone.example.");
}
END_TEST

START_TEST(test_qmin_off_full_names)
{
	net_std();
	zone_answer("www.zone.example.", "192.0.2.80");
	(void)net_resolve("www.zone.example.", WIRE_TYPE_A);
	for (size_t i = 0; i < N.nsends; i++) {
		ck_assert_str_eq(N.sends[i].qname, "www.zone.example.");
		ck_assert_uint_eq(N.sends[i].qtype, WIRE_TYPE_A);
	}
}
END_TEST

static void local_glue(void)
{
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.local.example.",
		.ns = { "local.example. 86400 NS ns1.local.example.",
	                "local.example. 86400 NS ns2.local.example." },
		.ar = { "ns1.local.example. 86400 A 127.0.0.1",
	                "ns2.local.example. 86400 A 192.0.2.7" } });
	net_add(&(struct fake){
		.server = "127.0.0.1",
		.qname = "*",
		.flags = WIRE_FLAG_AA,
		.an = { "www.local.example. 60 A 192.0.2.127" } });
	net_add(&(struct fake){
		.server = "192.0.2.7",
		.qname = "*",
		.flags = WIRE_FLAG_AA,
		.an = { "www.local.example. 60 A 192.0.2.7" } });
}

START_TEST(test_localhost)
{
	const struct answer *r;

	local_glue();
	r = net_resolve("www.local.example.", WIRE_TYPE_A);
	answer_is(r, 0, "www.local.example. 1 192.0.2.7");
	ck_assert_uint_eq(net_sends_to("127.0.0.1"), 0);
}
END_TEST

START_TEST(test_localhost_allowed)
{
	const struct answer *r;

	N.cfg.do_not_query_localhost = false;
	local_glue();
	r = net_resolve("www.local.example.", WIRE_TYPE_A);
	answer_is(r, 0, "www.local.example. 1 192.0.2.127");
	ck_assert_uint_eq(net_sends_to("127.0.0.1"), 1);
}
END_TEST

START_TEST(test_localhost_hints_exempt)
{
	const struct answer *r;
	static const char text[] = ". 1 NS a.root.lab.\n"
				   "a.root.lab. 1 A 127.53.0.1\n";
	char err[HINTS_ERR_BYTES];

	hints_free(N.hints);
	ck_assert_int_eq(hints_parse("lab.hints", text, strlen(text), &N.hints,
	                             err, sizeof err),
	                 HINTS_OK);
	N.env.hints = N.hints;
	cache_flush_all(N.cache, NULL);
	ck_assert(N.cfg.do_not_query_localhost);
	/* priming: the root NS set names the hints' server, which stays
	 * exempt */
	net_add(&(struct fake){ .server = "127.53.0.1",
	                        .qname = ".",
	                        .qtype = WIRE_TYPE_NS,
	                        .flags = WIRE_FLAG_AA,
	                        .an = { ". 1 NS a.root.lab." },
	                        .ar = { "a.root.lab. 1 A 127.53.0.1" } });
	net_add(&(struct fake){ .server = "127.53.0.1",
	                        .qname = "*",
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "lab. 60 A 192.0.2.1" } });
	r = net_resolve("lab.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(net_sends_to("127.53.0.1"), 2);
	ck_assert_str_eq(N.sends[0].qname, ".");
	/* from the cached root NS set now */
	r = net_resolve("lab.", WIRE_TYPE_MX);
	ck_assert_uint_eq(net_sends_to("127.53.0.1"), 1);
}
END_TEST

START_TEST(test_ip_filters)
{
	const struct answer *r;

	/* IPv4 off and no IPv6 root address: nothing to ask */
	N.cfg.do_ip4 = false;
	N.cfg.do_ip6 = true;
	r = net_resolve("www.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_uint_eq(N.nsends, 0);
}
END_TEST

START_TEST(test_ipv6_only)
{
	const struct answer *r;
	static const char text[] = ". 1 NS a.root.test.\n"
				   "a.root.test. 1 A 198.51.100.1\n"
				   "a.root.test. 1 AAAA 2001:db8::1\n";
	char err[HINTS_ERR_BYTES];

	/* IPv6 only: AAAA glue, and a glueless NS resolved with AAAA */
	N.cfg.do_ip4 = false;
	N.cfg.do_ip6 = true;
	hints_free(N.hints);
	ck_assert_int_eq(hints_parse("v6.hints", text, strlen(text), &N.hints,
	                             err, sizeof err),
	                 HINTS_OK);
	N.env.hints = N.hints;
	cache_flush_all(N.cache, NULL);
	net_add(&(struct fake){ .server = "2001:db8::1",
	                        .qname = ".",
	                        .qtype = WIRE_TYPE_NS,
	                        .flags = WIRE_FLAG_AA,
	                        .an = { ". 1 NS a.root.test." },
	                        .ar = { "a.root.test. 1 A 198.51.100.1",
	                                "a.root.test. 1 AAAA 2001:db8::1" } });
	net_add(&(struct fake){ .server = "2001:db8::1",
	                        .qname = "*.v6.",
	                        .ns = { "v6. 60 NS ns.v6." },
	                        .ar = { "ns.v6. 60 A 192.0.2.6",
	                                "ns.v6. 60 AAAA 2001:db8::6" } });
	net_add(&(struct fake){ .server = "2001:db8::6",
	                        .qname = "*.far.v6.",
	                        .ns = { "far.v6. 60 NS ns.other.v6." } });
	net_add(&(struct fake){
		.server = "2001:db8::6",
		.qname = "ns.other.v6.",
		.qtype = WIRE_TYPE_AAAA,
		.flags = WIRE_FLAG_AA,
		.an = { "ns.other.v6. 60 AAAA 2001:db8::7" } });
	net_add(&(struct fake){
		.server = "2001:db8::7",
		.qname = "*",
		.flags = WIRE_FLAG_AA,
		.an = { "www.far.v6. 60 AAAA 2001:db8::80" } });
	r = net_resolve("www.far.v6.", WIRE_TYPE_AAAA);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	answer_is(r, 0, "www.far.v6. 28 2001:db8::80");
	ck_assert_uint_eq(net_sends_to("192.0.2.6"), 0);
	ck_assert_uint_eq(net_sends_to("198.51.100.1"), 0);
	ck_assert_uint_eq(iter_counts(N.req)->subqueries, 1);
}
END_TEST

START_TEST(test_cache_first)
{
	const struct answer *r;
	uint8_t name[WIRE_NAME_MAX], target[WIRE_NAME_MAX];
	size_t nlen = net_wire("alias.example.", name);
	size_t tlen = net_wire("real.example.", target);
	uint8_t addr[4] = { 192, 0, 2, 44 };
	struct cache_rdata rd1 = { target, tlen }, rd2 = { addr, 4 };
	struct cache_rrset s1 = { name,
		                  nlen,
		                  WIRE_TYPE_CNAME,
		                  WIRE_CLASS_IN,
		                  100,
		                  &rd1,
		                  1,
		                  CACHE_RANK_AUTH,
		                  NULL,
		                  CACHE_SEC_UNCHECKED,
		                  NULL,
		                  0 };
	struct cache_rrset s2 = { target,      tlen,
		                  WIRE_TYPE_A, WIRE_CLASS_IN,
		                  100,         &rd2,
		                  1,           CACHE_RANK_AUTH,
		                  NULL,        CACHE_SEC_UNCHECKED,
		                  NULL,        0 };

	ck_assert_int_eq(cache_rrset_put(N.cache, &s1, N.now.wall), CACHE_OK);
	ck_assert_int_eq(cache_rrset_put(N.cache, &s2, N.now.wall), CACHE_OK);
	N.now.wall += 40;
	r = net_resolve("alias.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(N.nsends, 0);
	ck_assert_uint_eq(r->an_count, 2);
	answer_is(r, 0, "alias.example. 5 real.example.");
	answer_is(r, 1, "real.example. 1 192.0.2.44");
	ck_assert_uint_eq(net_ttl(r->an, r->an_len, 1), 60);
}
END_TEST

START_TEST(test_glue_rank_not_an_answer)
{
	const struct answer *r;

	/* glue for ns.zone.example. is cached by the walk, but a client
	 * asking for it gets an authoritative answer */
	net_std();
	zone_answer("www.zone.example.", "192.0.2.80");
	zone_answer("ns.zone.example.", "192.0.2.2");
	(void)net_resolve("www.zone.example.", WIRE_TYPE_A);
	r = net_resolve("ns.zone.example.", WIRE_TYPE_A);
	answer_is(r, 0, "ns.zone.example. 1 192.0.2.2");
	ck_assert_uint_eq(N.nsends, 1);
}
END_TEST

static Suite *iter_suite(void)
{
	Suite *s = suite_create("iter");
	TCase *tc = tcase_create("walk");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_referral_chain);
	tcase_add_test(tc, test_cached_cut);
	tcase_add_test(tc, test_glueless);
	tcase_add_test(tc, test_out_of_bailiwick_glue);
	tcase_add_test(tc, test_glue_unhardened);
	tcase_add_test(tc, test_cname_in_zone_chain);
	tcase_add_test(tc, test_dname);
	tcase_add_test(tc, test_cache_first);
	tcase_add_test(tc, test_glue_rank_not_an_answer);
	suite_add_tcase(s, tc);
	tc = tcase_create("curve");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_curve_keys);
	tcase_add_test(tc, test_curve_off);
	tcase_add_test(tc, test_curve_unboxed_dropped);
	tcase_add_test(tc, test_curve_plain_fallback);
	suite_add_tcase(s, tc);
	tc = tcase_create("qmin");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_qmin);
	tcase_add_test(tc, test_qmin_auth_ns);
	tcase_add_test(tc, test_qmin_nxdomain_fallback);
	tcase_add_test(tc, test_qmin_off_full_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("filters");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_localhost);
	tcase_add_test(tc, test_localhost_allowed);
	tcase_add_test(tc, test_localhost_hints_exempt);
	tcase_add_test(tc, test_ip_filters);
	tcase_add_test(tc, test_ipv6_only);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(iter_suite());
	int failed;

	srunner_add_suite(sr, iter_caps_suite());
	srunner_add_suite(sr, iter_proof_suite());
	srunner_add_suite(sr, iter_dz_suite());
	srunner_add_suite(sr, iter_log_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
