/*
 * tests/unit/check_tlsa.c - Suite "tlsa": TLSA RDATA read from (buf, len)
 * (resolver/validate/tlsa.c): short, long and wrong-length digests
 * refused, unused usages/selectors/matching types told apart; and the
 * DANE match of a self-made certificate for each selector and matching
 * type, a certificate of another key not matching, garbage DER refused.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

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

static Suite *tlsa_suite(void)
{
	Suite *s = suite_create("tlsa");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_match_each);
	tcase_add_test(tc, test_match_garbage);
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
