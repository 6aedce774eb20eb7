/*
 * tests/unit/check_iter_proof.c - Suite "iter_proof" (run by check_iter):
 * what the iterator's own cache lookups (resolver/iter/iter_frame.c) give
 * a client when the cache holds a wildcard expansion with its proof
 * (RFC 4035 section 3.1.3.3): the set and its RRSIGs in the answer
 * section, the NSEC record and its RRSIG in the authority section; and
 * at the end of such a chain a negative entry's SOA and proof, with the
 * link's proof kept after them.
 *
 * The fake servers sign nothing: example. is made SECURE for the
 * iterator (net_signed_zone), and the entries are put in the cache with
 * DNSSEC images of fake records; nothing is asked upstream.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "iter_net.h"
#include "anchor/anchor.h"
#include "wire/answer.h"

#define T_RRSIG 46
#define T_NSEC 47

static uint8_t img[1024];

static void setup(void)
{
	net_setup();
	net_signed_zone("example.");
}

static void teardown(void)
{
	anchors_free((struct anchors *)N.env.anchors);
	N.env.anchors = NULL;
	net_teardown();
}

/* Append one fake record (RDATA: 8 bytes of fill) to img[*len..). */
static void img_add(size_t *len, const char *owner, uint16_t type,
                    uint8_t fill)
{
	uint8_t o[WIRE_NAME_MAX], rd[8];

	memset(rd, fill, sizeof rd);
	ck_assert(answer_rr_append(img, sizeof img, len, o, net_wire(owner, o),
	                           type, WIRE_CLASS_IN, 3600, rd, sizeof rd));
}

/* Cache owner/type (one record) SECURE with its RRSIG and, with wild,
 * the proof of its expansion from *.w.example. */
static void put_signed(const char *owner, uint16_t type, const uint8_t *rd,
                       size_t rdlen, bool wild)
{
	uint8_t o[WIRE_NAME_MAX];
	struct cache_rdata r = { rd, rdlen };
	size_t len = 0;
	struct cache_rrset set = {
		o, net_wire(owner, o), type, WIRE_CLASS_IN,    3600, &r,
		1, CACHE_RANK_AUTH,    NULL, CACHE_SEC_SECURE, img,  0
	};

	img_add(&len, owner, T_RRSIG, 1);
	if (wild) {
		img_add(&len, "*.w.example.", T_NSEC, 2);
		img_add(&len, "*.w.example.", T_RRSIG, 3);
	}
	set.dnssec_len = len;
	ck_assert_int_eq(cache_rrset_put(N.cache, &set, N.now.wall), CACHE_OK);
}

/* The types of an image, as text ("5 46 1 46"). */
static const char *types(const uint8_t *p, size_t len, uint16_t count)
{
	static char out[256];
	struct answer_rr rr;
	size_t pos = 0, n = 0;

	out[0] = '\0';
	while (answer_rr_next(p, len, &pos, &rr)) {
		snprintf(out + strlen(out), sizeof out - strlen(out), "%s%u",
		         n > 0 ? " " : "", rr.type);
		n++;
	}
	ck_assert_uint_eq(pos, len);
	ck_assert_uint_eq(n, count);
	return out;
}

START_TEST(test_cached_wildcard_chain)
{
	static const uint8_t addr[4] = { 192, 0, 2, 7 };
	uint8_t t[WIRE_NAME_MAX];
	const struct answer *r;

	put_signed("any.w.example.", WIRE_TYPE_CNAME, t,
	           net_wire("a.example.", t), true);
	put_signed("a.example.", WIRE_TYPE_A, addr, sizeof addr, false);
	r = net_resolve("any.w.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(N.nsends, 0);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->sec, CACHE_SEC_SECURE);
	ck_assert_str_eq(types(r->an, r->an_len, r->an_count), "5 46 1 46");
	ck_assert_str_eq(types(r->ns, r->ns_len, r->ns_count), "47 46");
	/* the wildcard-made set itself */
	r = net_resolve("any.w.example.", WIRE_TYPE_CNAME);
	ck_assert_str_eq(types(r->an, r->an_len, r->an_count), "5 46");
	ck_assert_str_eq(types(r->ns, r->ns_len, r->ns_count), "47 46");
}
END_TEST

START_TEST(test_cached_chain_to_nxdomain)
{
	/* Two root names, then serial .. minimum (300). */
	static const uint8_t soa[] = { 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0,
		                       0, 0, 3, 0, 0, 0, 4, 0, 0, 1, 44 };
	uint8_t t[WIRE_NAME_MAX], n[WIRE_NAME_MAX], z[WIRE_NAME_MAX];
	const struct answer *r;
	struct cache_neg neg;
	size_t len = 0;

	put_signed("nx.w.example.", WIRE_TYPE_CNAME, t,
	           net_wire("b.example.", t), true);
	img_add(&len, "example.", T_RRSIG, 4);
	img_add(&len, "a.example.", T_NSEC, 5);
	img_add(&len, "a.example.", T_RRSIG, 6);
	memset(&neg, 0, sizeof neg);
	neg.kind = CACHE_KIND_NXDOMAIN;
	neg.name = n;
	neg.name_len = net_wire("b.example.", n);
	neg.type = WIRE_TYPE_A;
	neg.klass = WIRE_CLASS_IN;
	neg.soa_name = z;
	neg.soa_name_len = net_wire("example.", z);
	neg.soa_ttl = 300;
	neg.soa_rdata = soa;
	neg.soa_rdlen = sizeof soa;
	neg.rank = CACHE_RANK_AUTH;
	neg.sec = CACHE_SEC_SECURE;
	neg.dnssec = img;
	neg.dnssec_len = len;
	ck_assert_int_eq(cache_neg_put(N.cache, &neg, N.now.wall), CACHE_OK);
	r = net_resolve("nx.w.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(N.nsends, 0);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_str_eq(types(r->an, r->an_len, r->an_count), "5 46");
	/* the SOA and its proof first, then the link's proof */
	ck_assert_str_eq(types(r->ns, r->ns_len, r->ns_count),
	                 "6 46 47 46 47 46");
}
END_TEST

Suite *iter_proof_suite(void);

Suite *iter_proof_suite(void)
{
	Suite *s = suite_create("iter_proof");
	TCase *tc = tcase_create("cached proofs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_cached_wildcard_chain);
	tcase_add_test(tc, test_cached_chain_to_nxdomain);
	suite_add_tcase(s, tc);
	return s;
}
