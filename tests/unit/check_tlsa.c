/*
 * tests/unit/check_tlsa.c - Suite "tlsa": TLSA RDATA read from (buf, len)
 * (resolver/validate/tlsa.c): short, long and wrong-length digests
 * refused, unused usages/selectors/matching types told apart; and the
 * DANE match of a self-made certificate for each selector and matching
 * type, a certificate of another key not matching, garbage DER refused;
 * the set of an RRset's usable records (PKIX usages left out, twins
 * kept once, bounded) and the chain check against all of them: a
 * rollover (two records, one matching), DANE-EE of each selector and
 * matching type, DANE-TA with a test CA (the path verified, the leaf's
 * name checked, an intermediate as anchor, a certificate of another CA
 * refused).
 */
#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include "validate/tlsa.h"

/** A DER certificate of a fresh P-256 key (and the key's SPKI). */
struct cert {
	unsigned char *der, *spki;
	int derlen, spkilen;
};

static void cert_make(struct cert *c)
{
	EVP_PKEY *k = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	X509 *x = X509_new();
	X509_NAME *n = X509_NAME_new();

	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_nonnull(x);
	X509_set_version(x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
	X509_gmtime_adj(X509_getm_notBefore(x), 0);
	X509_gmtime_adj(X509_getm_notAfter(x), 3600);
	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC,
	                           (const unsigned char *)"ns1.example", -1,
	                           -1, 0);
	X509_set_subject_name(x, n);
	X509_set_issuer_name(x, n);
	X509_set_pubkey(x, k);
	ck_assert_int_gt(X509_sign(x, k, EVP_sha256()), 0);
	c->der = NULL;
	c->spki = NULL;
	c->derlen = i2d_X509(x, &c->der);
	c->spkilen = i2d_PUBKEY(k, &c->spki);
	ck_assert_int_gt(c->derlen, 0);
	ck_assert_int_gt(c->spkilen, 0);
	X509_NAME_free(n);
	X509_free(x);
	EVP_PKEY_free(k);
}

static void cert_free(struct cert *c)
{
	OPENSSL_free(c->der);
	OPENSSL_free(c->spki);
}

/* RDATA usage/selector/mtype + the association data for c. */
static size_t rdata(uint8_t *out, uint8_t usage, uint8_t sel, uint8_t mt,
                    const struct cert *c)
{
	const unsigned char *in = sel == TLSA_SEL_CERT ? c->der : c->spki;
	size_t inlen = (size_t)(sel == TLSA_SEL_CERT ? c->derlen : c->spkilen);
	unsigned int n = 0;

	out[0] = usage;
	out[1] = sel;
	out[2] = mt;
	if (mt == TLSA_MATCH_FULL) {
		memcpy(out + TLSA_FIXED_BYTES, in, inlen);
		return TLSA_FIXED_BYTES + inlen;
	}
	ck_assert_int_eq(EVP_Digest(in, inlen, out + TLSA_FIXED_BYTES, &n,
	                            mt == TLSA_MATCH_SHA256 ? EVP_sha256() :
	                                                      EVP_sha512(),
	                            NULL),
	                 1);
	return TLSA_FIXED_BYTES + n;
}

START_TEST(test_parse)
{
	uint8_t b[TLSA_FIXED_BYTES + TLSA_DATA_MAX + 1];
	struct tlsa_rr rr;

	memset(b, 0, sizeof b);
	b[0] = 3;
	b[1] = 1;
	b[2] = 1;
	ck_assert_int_eq(tlsa_parse(b, 3 + 32, &rr), TLSA_OK);
	ck_assert_uint_eq(rr.len, 32);
	ck_assert_ptr_eq(rr.data, b + 3);
	ck_assert(!tlsa_usage_ta(&rr));
	ck_assert_int_eq(tlsa_parse(b, 3 + 31, &rr), TLSA_EFORMAT);
	ck_assert_int_eq(tlsa_parse(b, 3, &rr), TLSA_EFORMAT);
	ck_assert_int_eq(tlsa_parse(b, 0, &rr), TLSA_EFORMAT);
	ck_assert_int_eq(tlsa_parse(NULL, 40, &rr), TLSA_EFORMAT);
	b[2] = 2;
	ck_assert_int_eq(tlsa_parse(b, 3 + 64, &rr), TLSA_OK);
	ck_assert_int_eq(tlsa_parse(b, 3 + 32, &rr), TLSA_EFORMAT);
	b[2] = 0;
	ck_assert_int_eq(tlsa_parse(b, 3 + TLSA_DATA_MAX, &rr), TLSA_OK);
	ck_assert_int_eq(tlsa_parse(b, sizeof b, &rr), TLSA_EFORMAT);
	b[0] = 2;
	ck_assert_int_eq(tlsa_parse(b, 3 + 10, &rr), TLSA_OK);
	ck_assert(tlsa_usage_ta(&rr));
	/* PKIX usages, private selectors and matching types: unused */
	b[0] = 1;
	ck_assert_int_eq(tlsa_parse(b, 3 + 10, &rr), TLSA_EUNUSABLE);
	b[0] = 3;
	b[1] = 255;
	ck_assert_int_eq(tlsa_parse(b, 3 + 10, &rr), TLSA_EUNUSABLE);
	b[1] = 0;
	b[2] = 255;
	ck_assert_int_eq(tlsa_parse(b, 3 + 10, &rr), TLSA_EUNUSABLE);
	ck_assert_str_eq(tlsa_strerror(TLSA_EFORMAT), "malformed TLSA record");
	ck_assert_str_eq(tlsa_strerror(99), "unknown TLSA status");
}
END_TEST

START_TEST(test_match_each)
{
	static uint8_t b[TLSA_FIXED_BYTES + TLSA_DATA_MAX];
	struct cert c, other;
	struct tlsa_rr rr;
	uint8_t sel, mt;

	cert_make(&c);
	cert_make(&other);
	for (sel = 0; sel <= TLSA_SEL_SPKI; sel++)
		for (mt = 0; mt <= TLSA_MATCH_SHA512; mt++) {
			size_t n = rdata(b, TLSA_USAGE_DANE_EE, sel, mt, &c);

			ck_assert_int_eq(tlsa_parse(b, n, &rr), TLSA_OK);
			ck_assert_int_eq(tlsa_match(&rr, c.der,
			                            (size_t)c.derlen),
			                 1);
			ck_assert_int_eq(tlsa_match(&rr, other.der,
			                            (size_t)other.derlen),
			                 0);
			/* one bit off */
			b[n - 1] ^= 1;
			ck_assert_int_eq(tlsa_match(&rr, c.der,
			                            (size_t)c.derlen),
			                 0);
		}
	cert_free(&c);
	cert_free(&other);
}
END_TEST

START_TEST(test_match_garbage)
{
	uint8_t b[TLSA_FIXED_BYTES + TLSA_SHA256_BYTES] = { 3, 1, 1 };
	const uint8_t junk[] = { 0x30, 0x82, 0xff, 0xff, 0x01 };
	struct cert c;
	struct tlsa_rr rr;

	ck_assert_int_eq(tlsa_parse(b, sizeof b, &rr), TLSA_OK);
	ck_assert_int_eq(tlsa_match(&rr, junk, sizeof junk), -TLSA_ECERT);
	ck_assert_int_eq(tlsa_match(&rr, junk, 0), -TLSA_ECERT);
	cert_make(&c);
	/* a truncated certificate is not read */
	ck_assert_int_eq(tlsa_match(&rr, c.der, (size_t)c.derlen - 1),
	                 -TLSA_ECERT);
	rr.mtype = 7;
	ck_assert_int_eq(tlsa_match(&rr, c.der, (size_t)c.derlen),
	                 -TLSA_EUNUSABLE);
	cert_free(&c);
}
END_TEST

/* ---- sets and chains ---- */

/** A key and its certificate, issued by another (or itself). */
struct tcert {
	EVP_PKEY *key;
	X509 *x;
	unsigned char *der;
	int derlen;
};

static void ext_add(X509 *x, X509 *issuer, int nid, const char *value)
{
	X509V3_CTX v;
	X509_EXTENSION *e;

	X509V3_set_ctx(&v, issuer, x, NULL, NULL, 0);
	e = X509V3_EXT_conf_nid(NULL, &v, nid, value);
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(X509_add_ext(x, e, -1), 1);
	X509_EXTENSION_free(e);
}

/* A certificate for cn (a DNS name), a CA's when ca, signed by issuer
 * (NULL: by itself), valid from an hour ago for lifetime seconds. */
static void tcert_make(struct tcert *c, const char *cn, bool ca,
                       const struct tcert *issuer, long lifetime)
{
	X509_NAME *n = X509_NAME_new();
	char san[300];

	c->key = EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256");
	c->x = X509_new();
	ck_assert_ptr_nonnull(c->key);
	X509_set_version(c->x, 2);
	ASN1_INTEGER_set(X509_get_serialNumber(c->x), ca ? 7 : 8);
	X509_gmtime_adj(X509_getm_notBefore(c->x), -3600);
	X509_gmtime_adj(X509_getm_notAfter(c->x), lifetime);
	X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC,
	                           (const unsigned char *)cn, -1, -1, 0);
	X509_set_subject_name(c->x, n);
	X509_set_issuer_name(c->x, issuer != NULL ?
	                                   X509_get_subject_name(issuer->x) :
	                                   n);
	X509_set_pubkey(c->x, c->key);
	ext_add(c->x, issuer != NULL ? issuer->x : c->x, NID_basic_constraints,
	        ca ? "critical,CA:TRUE" : "CA:FALSE");
	if (!ca) {
		snprintf(san, sizeof san, "DNS:%s", cn);
		ext_add(c->x, issuer->x, NID_subject_alt_name, san);
	}
	ck_assert_int_gt(X509_sign(c->x, issuer != NULL ? issuer->key : c->key,
	                           EVP_sha256()),
	                 0);
	c->der = NULL;
	c->derlen = i2d_X509(c->x, &c->der);
	ck_assert_int_gt(c->derlen, 0);
	X509_NAME_free(n);
}

static void tcert_free(struct tcert *c)
{
	OPENSSL_free(c->der);
	X509_free(c->x);
	EVP_PKEY_free(c->key);
}

/* Add the record usage/sel/mt for c to s. */
static int set_add(struct tlsa_set *s, uint8_t usage, uint8_t sel, uint8_t mt,
                   const struct tcert *c)
{
	static uint8_t b[TLSA_FIXED_BYTES + TLSA_DATA_MAX];
	struct cert k = { c->der, NULL, c->derlen, 0 };
	size_t n;
	int r;

	k.spkilen = i2d_PUBKEY(c->key, &k.spki);
	ck_assert_int_gt(k.spkilen, 0);
	n = rdata(b, usage, sel, mt, &k);
	r = tlsa_set_add(s, b, n);
	OPENSSL_free(k.spki);
	return r;
}

/* tlsa_set_check of the chain a[0..n-1] for host. */
static int chain_check(const struct tlsa_set *s, const struct tcert *const *a,
                       size_t n, const char *host)
{
	const uint8_t *der[TLSA_CHAIN_MAX];
	size_t len[TLSA_CHAIN_MAX], i;

	for (i = 0; i < n; i++) {
		der[i] = a[i]->der;
		len[i] = (size_t)a[i]->derlen;
	}
	return tlsa_set_check(s, der, len, n, host);
}

START_TEST(test_set_add)
{
	uint8_t b[TLSA_FIXED_BYTES + TLSA_SHA256_BYTES] = { 3, 1, 1 };
	uint8_t full[TLSA_FIXED_BYTES + 100] = { 3, 0, 0 };
	struct tlsa_set s;
	int i;

	memset(&s, 0, sizeof s);
	ck_assert_int_eq(tlsa_set_add(&s, b, sizeof b), TLSA_OK);
	ck_assert_int_eq(tlsa_set_add(&s, b, sizeof b), TLSA_OK);
	ck_assert_uint_eq(s.n, 1); /* twins kept once */
	b[0] = 1;                  /* PKIX-EE */
	ck_assert_int_eq(tlsa_set_add(&s, b, sizeof b), TLSA_EUNUSABLE);
	b[0] = 0; /* PKIX-TA */
	ck_assert_int_eq(tlsa_set_add(&s, b, sizeof b), TLSA_EUNUSABLE);
	ck_assert_int_eq(tlsa_set_add(&s, b, 10), TLSA_EFORMAT);
	ck_assert_int_eq(tlsa_set_add(NULL, b, sizeof b), TLSA_EFORMAT);
	ck_assert_uint_eq(s.n, 1);
	/* full data: kept as its SHA-512 */
	ck_assert_int_eq(tlsa_set_add(&s, full, sizeof full), TLSA_OK);
	ck_assert_uint_eq(s.n, 2);
	ck_assert_uint_eq(s.rr[1].len, TLSA_SHA512_BYTES);
	ck_assert_uint_eq(s.rr[1].mtype, TLSA_MATCH_FULL);
	b[0] = 3;
	for (i = 0; s.n < TLSA_SET_MAX; i++) {
		b[3] = (uint8_t)(i + 1);
		ck_assert_int_eq(tlsa_set_add(&s, b, sizeof b), TLSA_OK);
	}
	b[3] = 0xee;
	ck_assert_int_eq(tlsa_set_add(&s, b, sizeof b), TLSA_EFULL);
	ck_assert_uint_eq(s.n, TLSA_SET_MAX);
	ck_assert_str_eq(tlsa_strerror(TLSA_EFULL), "too many TLSA records");
}
END_TEST

/* DANE-EE: each selector and matching type; a rollover (the old key's
 * record first) authenticates, the old key's record alone does not. */
START_TEST(test_set_ee)
{
	struct tcert ca, leaf, old;
	const struct tcert *ch[] = { &leaf, &ca };
	struct tlsa_set s;
	uint8_t sel, mt;

	tcert_make(&ca, "Test CA", true, NULL, 3600);
	tcert_make(&leaf, "ns1.example", false, &ca, 3600);
	tcert_make(&old, "ns1.example", false, &ca, 3600);
	for (sel = 0; sel <= TLSA_SEL_SPKI; sel++)
		for (mt = 0; mt <= TLSA_MATCH_SHA512; mt++) {
			memset(&s, 0, sizeof s);
			ck_assert_int_eq(set_add(&s, 3, sel, mt, &old),
			                 TLSA_OK);
			ck_assert_int_eq(chain_check(&s, ch, 2, "x."), 0);
			ck_assert_int_eq(set_add(&s, 3, sel, mt, &leaf),
			                 TLSA_OK);
			/* names are not checked for DANE-EE */
			ck_assert_int_eq(chain_check(&s, ch, 1, "other."), 1);
		}
	/* a DANE-EE record of the CA does not vouch for the leaf */
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(set_add(&s, 3, 1, 1, &ca), TLSA_OK);
	ck_assert_int_eq(chain_check(&s, ch, 2, "ns1.example."), 0);
	tcert_free(&ca);
	tcert_free(&leaf);
	tcert_free(&old);
}
END_TEST

/* DANE-TA with a test CA: the CA sent after the leaf matches, the path
 * verifies, the leaf names the NS; the wrong name, a missing CA, a leaf
 * of another CA, an expired leaf and a TA record of the leaf fail. */
START_TEST(test_set_ta)
{
	struct tcert ca, mid, leaf, rogue_ca, rogue, old;
	const struct tcert *ch[] = { &leaf, &mid, &ca };
	const struct tcert *bad[] = { &rogue, &ca };
	const struct tcert *exp[] = { &old, &mid, &ca };
	struct tlsa_set s;
	uint8_t sel, mt;

	tcert_make(&ca, "Test CA", true, NULL, 3600);
	tcert_make(&mid, "Test Mid", true, &ca, 3600);
	tcert_make(&leaf, "ns1.example", false, &mid, 3600);
	tcert_make(&old, "ns1.example", false, &mid, -60);
	tcert_make(&rogue_ca, "Test CA", true, NULL, 3600);
	tcert_make(&rogue, "ns1.example", false, &rogue_ca, 3600);
	for (sel = 0; sel <= TLSA_SEL_SPKI; sel++)
		for (mt = 0; mt <= TLSA_MATCH_SHA512; mt++) {
			memset(&s, 0, sizeof s);
			ck_assert_int_eq(set_add(&s, 2, sel, mt, &ca),
			                 TLSA_OK);
			ck_assert_int_eq(chain_check(&s, ch, 3,
			                             "ns1.example."),
			                 1);
		}
	ck_assert_int_eq(chain_check(&s, ch, 3, "NS1.Example"), 1);
	ck_assert_int_eq(chain_check(&s, ch, 3, "ns2.example."), 0);
	ck_assert_int_eq(chain_check(&s, ch, 3, ""), 0);
	ck_assert_int_eq(chain_check(&s, ch, 3, NULL), 0);
	ck_assert_int_eq(chain_check(&s, ch, 2, "ns1.example."), 0);
	ck_assert_int_eq(chain_check(&s, bad, 2, "ns1.example."), 0);
	ck_assert_int_eq(chain_check(&s, exp, 3, "ns1.example."), 0);
	/* the intermediate as the anchor: the root need not be sent */
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(set_add(&s, 2, 1, 1, &mid), TLSA_OK);
	ck_assert_int_eq(chain_check(&s, ch, 2, "ns1.example."), 1);
	/* DANE-TA names a CA, not the leaf */
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(set_add(&s, 2, 1, 1, &leaf), TLSA_OK);
	ck_assert_int_eq(chain_check(&s, ch, 3, "ns1.example."), 0);
	/* a rollover from a DANE-EE key to the CA */
	ck_assert_int_eq(set_add(&s, 3, 1, 1, &rogue), TLSA_OK);
	ck_assert_int_eq(set_add(&s, 2, 0, 1, &ca), TLSA_OK);
	ck_assert_int_eq(chain_check(&s, ch, 3, "ns1.example."), 1);
	tcert_free(&ca);
	tcert_free(&mid);
	tcert_free(&leaf);
	tcert_free(&old);
	tcert_free(&rogue_ca);
	tcert_free(&rogue);
}
END_TEST

START_TEST(test_set_garbage)
{
	const uint8_t junk[] = { 0x30, 0x82, 0xff, 0xff, 0x01 };
	const uint8_t *der[] = { junk, junk };
	size_t len[] = { sizeof junk, sizeof junk };
	struct tlsa_set s;
	struct tcert ca, leaf;

	memset(&s, 0, sizeof s);
	tcert_make(&ca, "Test CA", true, NULL, 3600);
	tcert_make(&leaf, "ns1.example", false, &ca, 3600);
	ck_assert_int_eq(set_add(&s, 2, 1, 1, &ca), TLSA_OK);
	ck_assert_int_eq(tlsa_set_check(&s, der, len, 2, "a."), -TLSA_ECERT);
	ck_assert_int_eq(tlsa_set_check(&s, der, len, 0, "a."), -TLSA_ECERT);
	ck_assert_int_eq(tlsa_set_check(NULL, der, len, 1, "a."), -TLSA_ECERT);
	/* an unreadable CA after a good leaf: no match, no crash */
	der[0] = leaf.der;
	len[0] = (size_t)leaf.derlen;
	ck_assert_int_eq(tlsa_set_check(&s, der, len, 2, "ns1.example."), 0);
	/* the empty set authenticates nothing */
	memset(&s, 0, sizeof s);
	ck_assert_int_eq(tlsa_set_check(&s, der, len, 1, "ns1.example."), 0);
	tcert_free(&ca);
	tcert_free(&leaf);
}
END_TEST

static Suite *tlsa_suite(void)
{
	Suite *s = suite_create("tlsa");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_match_each);
	tcase_add_test(tc, test_match_garbage);
	tcase_add_test(tc, test_set_add);
	tcase_add_test(tc, test_set_ee);
	tcase_add_test(tc, test_set_ta);
	tcase_add_test(tc, test_set_garbage);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tlsa_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
