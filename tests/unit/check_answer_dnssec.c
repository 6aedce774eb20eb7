/*
 * tests/unit/check_answer_dnssec.c - Suite "answer_dnssec": the chase
 * over the cache with DNSSEC (resolver/wire/answer.c): the status of an
 * answer is the least of its RRsets' (BOGUS if any is), and with
 * ANSWER_CHASE_DNSSEC each RRset's RRSIGs follow it in the answer image
 * and a negative entry's proof follows its SOA, counted; a wildcard
 * expansion's proof, cached after the RRSIGs of the set, goes to the
 * authority section (also from the links of a chain); without the flag
 * nothing of an image is read. Needs the cache to keep each
 * entry's status and DNSSEC image (cache.h: enum cache_sec,
 * CACHE_GET_DNSSEC).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/answer.h"
#include "cache.h"
#include "cachetest.h"
#include "wire/wire.h"

#define T0 CACHETEST_T0
#define T_RRSIG 46
#define T_NSEC 47
/** Bytes of the fake signature RDATA of the tests. */
#define SIG_BYTES 30

static const uint8_t addr[4] = { 192, 0, 2, 1 };
static uint8_t buf[16384];
/* DNSSEC images built for a put (one per entry, kept until the put). */
static uint8_t sig[1024];

/* Append to sig[at..) n records of type `type` owned by owner (RDATA
 * of SIG_BYTES bytes of `fill`); the image's new length. */
static size_t image_add(size_t at, const char *owner, uint16_t type,
                        unsigned n, uint8_t fill)
{
	uint8_t o[WIRE_NAME_MAX], rd[SIG_BYTES];
	size_t ol = wname(o, owner), len = at;
	unsigned i;

	memset(rd, fill, sizeof rd);
	for (i = 0; i < n; i++)
		ck_assert(answer_rr_append(sig, sizeof sig, &len, o, ol, type,
		                           WIRE_CLASS_IN, 300, rd, sizeof rd));
	return len;
}

/* An RRset of one record with a status and the image sig[0..dlen). */
static void put_img(const char *name, uint16_t type, const uint8_t *rd,
                    size_t rdlen, enum cache_sec sec, size_t dlen)
{
	uint8_t n[WIRE_NAME_MAX];
	struct cache_rdata r = { rd, rdlen };
	struct cache_rrset set = { n,
		                   wname(n, name),
		                   type,
		                   WIRE_CLASS_IN,
		                   300,
		                   &r,
		                   1,
		                   CACHE_RANK_AUTH,
		                   NULL,
		                   sec,
		                   dlen > 0 ? sig : NULL,
		                   dlen };

	ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_OK);
}

/* An RRset made from the wildcard *.w.example: nsig RRSIGs of its own,
 * then the proof (an NSEC of the wildcard and its RRSIG). */
static void put_wild(const char *name, uint16_t type, const uint8_t *rd,
                     size_t rdlen, unsigned nsig)
{
	size_t dlen = image_add(0, name, T_RRSIG, nsig, 0x5a);

	dlen = image_add(dlen, "*.w.example", T_NSEC, 1, 0x6b);
	dlen = image_add(dlen, "*.w.example", T_RRSIG, 1, 0x7c);
	put_img(name, type, rd, rdlen, CACHE_SEC_SECURE, dlen);
}

/* An RRset of one record with a status and an RRSIG image of nsig. */
static void put_sec(const char *name, uint16_t type, const uint8_t *rd,
                    size_t rdlen, enum cache_sec sec, unsigned nsig)
{
	put_img(name, type, rd, rdlen, sec,
	        image_add(0, name, T_RRSIG, nsig, 0x5a));
}

static void put_cname(const char *owner, const char *target,
                      enum cache_sec sec, unsigned nsig)
{
	uint8_t t[WIRE_NAME_MAX];

	put_sec(owner, WIRE_TYPE_CNAME, t, wname(t, target), sec, nsig);
}

static int chase(const char *name, uint16_t type, unsigned flags, time_t now,
                 struct answer *a)
{
	struct answer_chase ch = { c, WIRE_CLASS_IN, now, flags, 3600, false };
	uint8_t n[WIRE_NAME_MAX];
	size_t len = wname(n, name);

	return answer_chase(&ch, n, len, type, a, buf, sizeof buf);
}

/* The types of the records of an image, in order, into t (at most max);
 * how many. */
static size_t types_of(const uint8_t *img, size_t len, uint16_t *t, size_t max)
{
	struct answer_rr rr;
	size_t pos = 0, n = 0;

	while (n < max && answer_rr_next(img, len, &pos, &rr))
		t[n++] = rr.type;
	ck_assert_uint_eq(pos, len); /* the whole image walks */
	return n;
}

/* The status of a CNAME (s1) to an A (s2), chased. */
static uint8_t chain_sec(enum cache_sec s1, enum cache_sec s2)
{
	struct answer a;

	/* a fresh cache: SECURE data is not replaced by less at its rank */
	cache_flush_all(c, NULL);
	put_cname("www.example", "a.example", s1, 0);
	put_sec("a.example", WIRE_TYPE_A, addr, sizeof addr, s2, 0);
	ck_assert_int_eq(chase("www.example", WIRE_TYPE_A, 0, T0, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 2);
	return a.sec;
}

START_TEST(test_chain_least)
{
	ck_assert_uint_eq(chain_sec(CACHE_SEC_SECURE, CACHE_SEC_SECURE),
	                  CACHE_SEC_SECURE);
	ck_assert_uint_eq(chain_sec(CACHE_SEC_SECURE, CACHE_SEC_INSECURE),
	                  CACHE_SEC_INSECURE);
	ck_assert_uint_eq(chain_sec(CACHE_SEC_INSECURE, CACHE_SEC_SECURE),
	                  CACHE_SEC_INSECURE);
	ck_assert_uint_eq(chain_sec(CACHE_SEC_UNCHECKED, CACHE_SEC_SECURE),
	                  CACHE_SEC_UNCHECKED);
	ck_assert_uint_eq(chain_sec(CACHE_SEC_BOGUS, CACHE_SEC_SECURE),
	                  CACHE_SEC_BOGUS);
	ck_assert_uint_eq(chain_sec(CACHE_SEC_UNCHECKED, CACHE_SEC_BOGUS),
	                  CACHE_SEC_BOGUS);
}
END_TEST

START_TEST(test_rrsigs_follow)
{
	uint16_t t[8];
	struct answer a;

	put_cname("www.example", "a.example", CACHE_SEC_SECURE, 1);
	put_sec("a.example", WIRE_TYPE_A, addr, sizeof addr, CACHE_SEC_SECURE,
	        2);
	ck_assert_int_eq(chase("www.example", WIRE_TYPE_A, ANSWER_CHASE_DNSSEC,
	                       T0, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.sec, CACHE_SEC_SECURE);
	ck_assert_uint_eq(a.an_count, 5);
	ck_assert_uint_eq(types_of(a.an, a.an_len, t, 8), 5);
	ck_assert_uint_eq(t[0], WIRE_TYPE_CNAME);
	ck_assert_uint_eq(t[1], T_RRSIG);
	ck_assert_uint_eq(t[2], WIRE_TYPE_A);
	ck_assert_uint_eq(t[3], T_RRSIG);
	ck_assert_uint_eq(t[4], T_RRSIG);
	ck_assert_uint_eq(a.an_ttl, 300); /* the RRSIGs' TTL too */
	/* Without the flag: the RRsets alone, the same status. */
	ck_assert_int_eq(chase("www.example", WIRE_TYPE_A, 0, T0, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 2);
	ck_assert_uint_eq(types_of(a.an, a.an_len, t, 8), 2);
	ck_assert_uint_eq(a.sec, CACHE_SEC_SECURE);
}
END_TEST

START_TEST(test_dname_with_rrsigs)
{
	uint8_t t[WIRE_NAME_MAX];
	uint16_t ty[8];
	struct answer a;

	put_sec("example", WIRE_TYPE_DNAME, t, wname(t, "example.net"),
	        CACHE_SEC_SECURE, 1);
	put_cname("www.example", "www.example.net", CACHE_SEC_INSECURE, 0);
	put_sec("www.example.net", WIRE_TYPE_A, addr, sizeof addr,
	        CACHE_SEC_SECURE, 1);
	ck_assert_int_eq(chase("www.example", WIRE_TYPE_A, ANSWER_CHASE_DNSSEC,
	                       T0, &a),
	                 ANSWER_OK);
	/* DNAME and its RRSIG first, then the CNAME, then A and RRSIG. */
	ck_assert_uint_eq(a.an_count, 5);
	ck_assert_uint_eq(types_of(a.an, a.an_len, ty, 8), 5);
	ck_assert_uint_eq(ty[0], WIRE_TYPE_DNAME);
	ck_assert_uint_eq(ty[1], T_RRSIG);
	ck_assert_uint_eq(ty[2], WIRE_TYPE_CNAME);
	ck_assert_uint_eq(ty[3], WIRE_TYPE_A);
	ck_assert_uint_eq(ty[4], T_RRSIG);
	ck_assert_uint_eq(a.sec, CACHE_SEC_INSECURE);
}
END_TEST

/* A secure NXDOMAIN for name A, SOA of example., with the image
 * sig[0..dlen) as its proof. */
static void put_nx(const char *name, size_t dlen)
{
	/* Two root names, then serial .. minimum (300). */
	static const uint8_t soa[] = { 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0,
		                       0, 0, 3, 0, 0, 0, 4, 0, 0, 1, 44 };
	uint8_t n[WIRE_NAME_MAX], z[WIRE_NAME_MAX];
	struct cache_neg neg;

	memset(&neg, 0, sizeof neg);
	neg.kind = CACHE_KIND_NXDOMAIN;
	neg.name = n;
	neg.name_len = wname(n, name);
	neg.type = WIRE_TYPE_A;
	neg.klass = WIRE_CLASS_IN;
	neg.soa_name = z;
	neg.soa_name_len = wname(z, "example");
	neg.soa_ttl = 300;
	neg.soa_rdata = soa;
	neg.soa_rdlen = sizeof soa;
	neg.rank = CACHE_RANK_AUTH;
	neg.sec = CACHE_SEC_SECURE;
	neg.dnssec = sig;
	neg.dnssec_len = dlen;
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_OK);
}

/* The proof of b.example's NXDOMAIN: the SOA's RRSIG, an NSEC and its
 * RRSIG; the image's length. */
static size_t nx_proof(void)
{
	size_t dlen = image_add(0, "example", T_RRSIG, 1, 1);

	dlen = image_add(dlen, "a.example", T_NSEC, 1, 2);
	return image_add(dlen, "a.example", T_RRSIG, 1, 3);
}

START_TEST(test_negative_proof)
{
	struct answer a;
	uint16_t t[8];

	put_nx("b.example", nx_proof());
	ck_assert_int_eq(chase("b.example", WIRE_TYPE_A, ANSWER_CHASE_DNSSEC,
	                       T0, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(a.sec, CACHE_SEC_SECURE);
	ck_assert_uint_eq(a.an_count, 0);
	ck_assert_uint_eq(a.ns_count, 4);
	ck_assert_uint_eq(types_of(a.ns, a.ns_len, t, 8), 4);
	ck_assert_uint_eq(t[0], WIRE_TYPE_SOA);
	ck_assert_uint_eq(t[1], T_RRSIG);
	ck_assert_uint_eq(t[2], T_NSEC);
	ck_assert_uint_eq(t[3], T_RRSIG);
	/* Without the flag: the SOA alone. */
	ck_assert_int_eq(chase("b.example", WIRE_TYPE_A, 0, T0, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.ns_count, 1);
	ck_assert_uint_eq(types_of(a.ns, a.ns_len, t, 8), 1);
}
END_TEST

/* The types of an answer's two sections as one string ("CNAME RRSIG |
 * NSEC RRSIG"), checked against want. */
static void sections_are(const struct answer *a, const char *want)
{
	uint16_t t[32];
	char got[256] = "";
	size_t n, i;

	n = types_of(a->an, a->an_len, t, 32);
	ck_assert_uint_eq(n, a->an_count);
	for (i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof got - strlen(got), "%u ",
		         t[i]);
	strcat(got, "|");
	n = a->ns != NULL ? types_of(a->ns, a->ns_len, t, 32) : 0;
	ck_assert_uint_eq(n, a->ns_count);
	for (i = 0; i < n; i++)
		snprintf(got + strlen(got), sizeof got - strlen(got), " %u",
		         t[i]);
	ck_assert_str_eq(got, want);
}

/* RFC 4035 section 3.1.3.3: the proof of a wildcard expansion, cached
 * with the RRset's RRSIGs, goes to the authority section; the RRSIGs
 * covering the set stay with it. */
START_TEST(test_wildcard_proof_split)
{
	struct answer a;

	put_wild("any.w.example", WIRE_TYPE_A, addr, sizeof addr, 1);
	ck_assert_int_eq(chase("any.w.example", WIRE_TYPE_A,
	                       ANSWER_CHASE_DNSSEC, T0, &a),
	                 ANSWER_OK);
	sections_are(&a, "1 46 | 47 46");
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.sec, CACHE_SEC_SECURE);
	/* two RRSIGs over the set (two algorithms): both in the answer */
	put_wild("two.w.example", WIRE_TYPE_A, addr, sizeof addr, 2);
	ck_assert_int_eq(chase("two.w.example", WIRE_TYPE_A,
	                       ANSWER_CHASE_DNSSEC, T0, &a),
	                 ANSWER_OK);
	sections_are(&a, "1 46 46 | 47 46");
	/* without DNSSEC: the RRset alone */
	ck_assert_int_eq(chase("any.w.example", WIRE_TYPE_A, 0, T0, &a),
	                 ANSWER_OK);
	sections_are(&a, "1 |");
}
END_TEST

/* A wildcard-made CNAME in the chain: its proof joins the authority
 * section after the final set's (an RRset, or a negative answer's SOA
 * and proof: RFC 4035 section 3.1.3 at the end of a chain). */
START_TEST(test_chain_wildcard_proofs)
{
	uint8_t t[WIRE_NAME_MAX];
	struct answer a;

	put_wild("any.w.example", WIRE_TYPE_CNAME, t, wname(t, "a.example"),
	         1);
	put_sec("a.example", WIRE_TYPE_A, addr, sizeof addr, CACHE_SEC_SECURE,
	        1);
	ck_assert_int_eq(chase("any.w.example", WIRE_TYPE_A,
	                       ANSWER_CHASE_DNSSEC, T0, &a),
	                 ANSWER_OK);
	sections_are(&a, "5 46 1 46 | 47 46");
	/* two links made from the same wildcard: its proof goes once */
	put_wild("c.w.example", WIRE_TYPE_CNAME, t, wname(t, "d.w.example"),
	         1);
	put_wild("d.w.example", WIRE_TYPE_A, addr, sizeof addr, 1);
	ck_assert_int_eq(chase("c.w.example", WIRE_TYPE_A, ANSWER_CHASE_DNSSEC,
	                       T0, &a),
	                 ANSWER_OK);
	sections_are(&a, "5 46 1 46 | 47 46");
	/* the chain ends in a secure NXDOMAIN */
	put_wild("nx.w.example", WIRE_TYPE_CNAME, t, wname(t, "b.example"), 1);
	put_nx("b.example", nx_proof());
	ck_assert_int_eq(chase("nx.w.example", WIRE_TYPE_A,
	                       ANSWER_CHASE_DNSSEC, T0, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	sections_are(&a, "5 46 | 6 46 47 46 47 46");
}
END_TEST

START_TEST(test_stale_rrsigs)
{
	struct answer_rr rr;
	struct answer a;
	size_t pos = 0;

	put_sec("www.example", WIRE_TYPE_A, addr, sizeof addr,
	        CACHE_SEC_SECURE, 1);
	ck_assert_int_eq(chase("www.example", WIRE_TYPE_A,
	                       ANSWER_CHASE_DNSSEC | ANSWER_CHASE_STALE,
	                       T0 + 400, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 2);
	/* Every record of the stale answer, its RRSIG too, at 30 s. */
	while (answer_rr_next(a.an, a.an_len, &pos, &rr))
		ck_assert_uint_eq(rr.ttl, ANSWER_STALE_TTL);
	ck_assert_uint_eq(pos, a.an_len);
	ck_assert_uint_eq(a.an_ttl, ANSWER_STALE_TTL);
}
END_TEST

static Suite *answer_dnssec_suite(void)
{
	Suite *s = suite_create("answer_dnssec");
	TCase *tc = tcase_create("chase");

	tcase_add_checked_fixture(tc, cachetest_setup, cachetest_teardown);
	tcase_add_test(tc, test_chain_least);
	tcase_add_test(tc, test_rrsigs_follow);
	tcase_add_test(tc, test_dname_with_rrsigs);
	tcase_add_test(tc, test_negative_proof);
	tcase_add_test(tc, test_stale_rrsigs);
	tcase_add_test(tc, test_wildcard_proof_split);
	tcase_add_test(tc, test_chain_wildcard_proofs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(answer_dnssec_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
