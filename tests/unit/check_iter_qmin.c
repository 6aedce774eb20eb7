/*
 * tests/unit/check_iter_qmin.c - Suite "iter_qmin": what QNAME
 * minimisation probes teach is remembered (iter_qmin.c): a probe's
 * NODATA is cached for (probe name, NS) and later questions under the
 * same name skip the probe; NXDOMAIN below such a name still works.
 *
 * The world: net_std() (root -> example. at 192.0.2.1 -> zone.example.
 * at 192.0.2.2), with wild.zone.example. an empty non-terminal above a
 * wildcard and sub.zone.example. one above names that do not exist.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "iter_net.h"
#include "anchor/anchor.h"

#define ZONE_SOA \
	"zone.example. 60 SOA ns.zone.example. " \
	"host.zone.example. 1 3600 600 86400 300"
/** Seconds the probe's NODATA lives: min(SOA TTL, MINIMUM). */
#define PROBE_NEG_TTL 60

static void setup(void)
{
	net_setup();
	N.cfg.qname_minimisation = true;
	net_std();
	/* NODATA for the probes of the two empty non-terminals */
	net_add(&(struct fake){ .server = "192.0.2.2",
	                        .qname = "wild.zone.example.",
	                        .qtype = WIRE_TYPE_NS,
	                        .flags = WIRE_FLAG_AA,
	                        .ns = { ZONE_SOA } });
	net_add(&(struct fake){ .server = "192.0.2.2",
	                        .qname = "sub.zone.example.",
	                        .qtype = WIRE_TYPE_NS,
	                        .flags = WIRE_FLAG_AA,
	                        .ns = { ZONE_SOA } });
	net_add(&(struct fake){ .server = "192.0.2.2",
	                        .qname = "*.sub.zone.example.",
	                        .flags = WIRE_FLAG_AA | WIRE_RCODE_NXDOMAIN,
	                        .ns = { ZONE_SOA } });
}

static void teardown(void)
{
	net_teardown();
}

/* The wildcard's answer for one name. */
static void wild_answer(const char *name)
{
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = name,
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { net_str("%s 300 A 192.0.2.42", name) } });
}

/* Sends of the last resolution that asked `qname`. */
static size_t sends_of(const char *qname)
{
	size_t i, n = 0;

	for (i = 0; i < N.nsends; i++)
		n += strcmp(N.sends[i].qname, qname) == 0;
	return n;
}

/* Sends of the last resolution that asked `qname` of type `qtype`. */
static size_t sends_of_type(const char *qname, uint16_t qtype)
{
	size_t i, n = 0;

	for (i = 0; i < N.nsends; i++)
		n += strcmp(N.sends[i].qname, qname) == 0 &&
		     N.sends[i].qtype == qtype;
	return n;
}

START_TEST(test_probe_once)
{
	const struct answer *r;
	struct cache_answer ans;

	wild_answer("a.wild.zone.example.");
	wild_answer("b.wild.zone.example.");
	r = net_resolve("a.wild.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert_uint_eq(sends_of("wild.zone.example."), 1);
	ck_assert_int_eq(net_cache("wild.zone.example.", WIRE_TYPE_NS, &ans,
	                           NULL, 0),
	                 CACHE_OK);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NODATA);
	ck_assert_uint_eq(ans.ttl, PROBE_NEG_TTL);
	/* the second name: the cut is cached, the probe is not sent again */
	r = net_resolve("b.wild.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert_uint_eq(N.nsends, 1);
	ck_assert_str_eq(N.sends[0].qname, "b.wild.zone.example.");
	ck_assert_uint_eq(N.sends[0].qtype, WIRE_TYPE_A);
}
END_TEST

START_TEST(test_probe_again_after_ttl)
{
	wild_answer("a.wild.zone.example.");
	wild_answer("b.wild.zone.example.");
	(void)net_resolve("a.wild.zone.example.", WIRE_TYPE_A);
	N.now.wall += PROBE_NEG_TTL + 1;
	(void)net_resolve("b.wild.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(N.nsends, 2);
	ck_assert_str_eq(N.sends[0].qname, "wild.zone.example.");
	ck_assert_uint_eq(N.sends[0].qtype, WIRE_TYPE_NS);
}
END_TEST

START_TEST(test_skip_to_next_label)
{
	const struct answer *r;

	/* a deeper name: the known label is skipped, the next one probed */
	wild_answer("a.wild.zone.example.");
	net_add(&(struct fake){ .server = "192.0.2.2",
	                        .qname = "c.wild.zone.example.",
	                        .qtype = WIRE_TYPE_NS,
	                        .flags = WIRE_FLAG_AA,
	                        .ns = { ZONE_SOA } });
	wild_answer("x.c.wild.zone.example.");
	(void)net_resolve("a.wild.zone.example.", WIRE_TYPE_A);
	r = net_resolve("x.c.wild.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(N.nsends, 2);
	ck_assert_str_eq(N.sends[0].qname, "c.wild.zone.example.");
	ck_assert_uint_eq(N.sends[0].qtype, WIRE_TYPE_NS);
	ck_assert_str_eq(N.sends[1].qname, "x.c.wild.zone.example.");
}
END_TEST

/* A lame answer to a probe (a referral without AA back to the zone
 * asked): the full question goes to the same zone (RFC 9156 section 3)
 * and the server is not called lame for it. */
START_TEST(test_lame_probe_full_name)
{
	const struct answer *r;

	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "odd.zone.example.",
		.qtype = WIRE_TYPE_NS,
		.ns = { "zone.example. 86400 NS ns.zone.example." },
		.ar = { "ns.zone.example. 86400 A 192.0.2.2" } });
	net_add(&(struct fake){
		.server = "192.0.2.2",
		.qname = "x.odd.zone.example.",
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { "x.odd.zone.example. 300 A 192.0.2.43" } });
	r = net_resolve("x.odd.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert_uint_eq(sends_of("odd.zone.example."), 1);
	ck_assert_uint_eq(sends_of("x.odd.zone.example."), 1);
}
END_TEST

START_TEST(test_nxdomain_below_nodata)
{
	const struct answer *r;
	struct cache_answer ans;

	r = net_resolve("nx.sub.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(r->ns_count, 1);
	ck_assert_int_eq(net_cache("sub.zone.example.", WIRE_TYPE_NS, &ans,
	                           NULL, 0),
	                 CACHE_OK);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NODATA);
	/* the NODATA of the ENT does not hide NXDOMAIN below it */
	r = net_resolve("ny.sub.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(N.nsends, 1);
	ck_assert_str_eq(N.sends[0].qname, "ny.sub.zone.example.");
	/* a probe's NXDOMAIN further down: the full name, NXDOMAIN */
	r = net_resolve("www.nz.sub.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(N.nsends, 2);
	ck_assert_str_eq(N.sends[0].qname, "nz.sub.zone.example.");
	ck_assert_str_eq(N.sends[1].qname, "www.nz.sub.zone.example.");
}
END_TEST

START_TEST(test_cached_nxdomain_no_probe)
{
	const struct answer *r;

	/* nx.sub's NXDOMAIN is cached: a name below it is asked in full
	 * at once (as the probe's NXDOMAIN would have made it) */
	(void)net_resolve("nx.sub.zone.example.", WIRE_TYPE_A);
	r = net_resolve("www.nx.sub.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_le(N.nsends, 1);
	ck_assert_uint_eq(sends_of("nx.sub.zone.example."), 0);
}
END_TEST

START_TEST(test_qmin_off_unchanged)
{
	struct cache_answer ans;

	N.cfg.qname_minimisation = false;
	wild_answer("a.wild.zone.example.");
	wild_answer("b.wild.zone.example.");
	(void)net_resolve("a.wild.zone.example.", WIRE_TYPE_A);
	ck_assert_int_eq(net_cache("wild.zone.example.", WIRE_TYPE_NS, &ans,
	                           NULL, 0),
	                 CACHE_ENOTFOUND);
	(void)net_resolve("b.wild.zone.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(N.nsends, 1);
	for (size_t i = 0; i < N.nsends; i++) {
		ck_assert_str_eq(N.sends[i].qname, "b.wild.zone.example.");
		ck_assert_uint_eq(N.sends[i].qtype, WIRE_TYPE_A);
	}
}
END_TEST

/* Under a trust anchor the probe's NODATA is not validated: it still
 * guides the next probe but is kept below the rank clients are answered
 * from, so (name, NS) asked by a client is resolved and validated. */
START_TEST(test_probe_unvalidated_not_for_clients)
{
	struct cache_answer ans;

	net_signed_zone("zone.example.");
	wild_answer("a.wild.zone.example.");
	(void)net_resolve("a.wild.zone.example.", WIRE_TYPE_A);
	/* one probe; the unsigned answer then has its cut looked for (DS
	 * of wild.zone.example., iter_signer.c), which is no probe */
	ck_assert_uint_eq(sends_of_type("wild.zone.example.", WIRE_TYPE_NS),
	                  1);
	ck_assert_int_eq(net_cache("wild.zone.example.", WIRE_TYPE_NS, &ans,
	                           NULL, 0),
	                 CACHE_OK);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NODATA);
	ck_assert_int_eq(ans.rank, CACHE_RANK_REFERRAL);
	ck_assert_int_eq(ans.sec, CACHE_SEC_UNCHECKED);
	anchors_free((struct anchors *)N.env.anchors);
	N.env.anchors = NULL;
}
END_TEST

static Suite *iter_qmin_suite(void)
{
	Suite *s = suite_create("iter_qmin");
	TCase *tc = tcase_create("remember");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_probe_once);
	tcase_add_test(tc, test_probe_again_after_ttl);
	tcase_add_test(tc, test_probe_unvalidated_not_for_clients);
	tcase_add_test(tc, test_skip_to_next_label);
	tcase_add_test(tc, test_nxdomain_below_nodata);
	tcase_add_test(tc, test_cached_nxdomain_no_probe);
	tcase_add_test(tc, test_qmin_off_unchanged);
	tcase_add_test(tc, test_lame_probe_full_name);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(iter_qmin_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
