/*
 * tests/fuzz/fuzz_tlsa.c - libFuzzer target for TLSA RDATA
 * (resolver/validate/tlsa.c): the input read as a record, and as a DER
 * certificate matched against a fixed record of each selector and
 * matching type; the input added to a set (tlsa_set_add) and cut in
 * two as a chain (leaf, anchor) checked against a set of each usage,
 * with a DANE-TA record of the second certificate when it reads (the
 * path check and the name check run on hostile certificates).
 *
 * What is taken must hold up: the association data lies inside the
 * input, a SHA-256/512 has its length, and a match is 0, 1 or an error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/x509.h>

#include "validate/tlsa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A DANE-TA 2 1 1 record of the DER certificate (der, len) into s, when
 * it reads. */
static void fuzz_ta_of(struct tlsa_set *s, const uint8_t *der, size_t len)
{
	uint8_t rd[TLSA_FIXED_BYTES + EVP_MAX_MD_SIZE] = { 2, 1, 1 };
	const unsigned char *p = der;
	unsigned char *spki = NULL;
	unsigned int n = 0;
	X509 *x = d2i_X509(NULL, &p, (long)len);
	int k;

	if (x == NULL)
		return;
	k = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x), &spki);
	if (k > 0 && EVP_Digest(spki, (size_t)k, rd + TLSA_FIXED_BYTES, &n,
	                        EVP_sha256(), NULL) == 1)
		(void)tlsa_set_add(s, rd, TLSA_FIXED_BYTES + n);
	OPENSSL_free(spki);
	X509_free(x);
}

/* The set of each usage against the input cut in two. */
static void fuzz_chain(const uint8_t *buf, size_t size)
{
	static const uint8_t ee[TLSA_FIXED_BYTES + TLSA_SHA256_BYTES] = { 3, 1,
		                                                          1 };
	struct tlsa_set s;
	size_t half = size / 2;
	const uint8_t *der[2] = { buf, buf + half };
	size_t len[2] = { half, size - half };
	int r;

	memset(&s, 0, sizeof s);
	r = tlsa_set_add(&s, buf, size);
	if (r != TLSA_OK && r != TLSA_EFORMAT && r != TLSA_EUNUSABLE)
		abort();
	if (s.n > 1 || (s.n == 1 && s.rr[0].len != TLSA_SHA256_BYTES &&
	                s.rr[0].len != TLSA_SHA512_BYTES))
		abort();
	(void)tlsa_set_add(&s, ee, sizeof ee);
	fuzz_ta_of(&s, der[1], len[1]);
	r = tlsa_set_check(&s, der, len, 2, "ns1.example.");
	if (r != 0 && r != 1 && r != -TLSA_ECERT)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t zero[TLSA_SHA512_BYTES];
	/* a private copy so that ASan sees any read past size */
	uint8_t *buf = malloc(size > 0 ? size : 1);
	struct tlsa_rr rr, fixed;
	int r;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	r = tlsa_parse(buf, size, &rr);
	if (r == TLSA_OK || r == TLSA_EUNUSABLE) {
		if (rr.data != buf + TLSA_FIXED_BYTES ||
		    rr.len + TLSA_FIXED_BYTES != size)
			abort();
		if (rr.mtype == TLSA_MATCH_SHA256 &&
		    rr.len != TLSA_SHA256_BYTES)
			abort();
	}
	fixed.usage = TLSA_USAGE_DANE_EE;
	fixed.data = zero;
	for (fixed.selector = 0; fixed.selector <= TLSA_SEL_SPKI;
	     fixed.selector++)
		for (fixed.mtype = 0; fixed.mtype <= TLSA_MATCH_SHA512;
		     fixed.mtype++) {
			fixed.len = fixed.mtype == TLSA_MATCH_SHA256 ?
			                    TLSA_SHA256_BYTES :
			                    TLSA_SHA512_BYTES;
			r = tlsa_match(&fixed, buf, size);
			if (r != 0 && r != 1 && r != -TLSA_ECERT)
				abort();
		}
	fuzz_chain(buf, size);
	free(buf);
	return 0;
}
