/*
 * resolver/validate/tlsa.c - TLSA RDATA (RFC 6698 s2.1) and the match of
 * a DER certificate against one record (RFC 7671 s5): the whole
 * certificate or its SubjectPublicKeyInfo, as is or as a SHA-256 or
 * SHA-512 digest, compared in constant time.
 */
#include "tlsa.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/x509.h>

const char *tlsa_strerror(int status)
{
	switch (status) {
	case TLSA_OK: return "ok";
	case TLSA_EFORMAT: return "malformed TLSA record";
	case TLSA_EUNUSABLE: return "TLSA parameters not used";
	case TLSA_ECERT: return "certificate unreadable";
	default: return "unknown TLSA status";
	}
}

int tlsa_parse(const uint8_t *buf, size_t len, struct tlsa_rr *out)
{
	if (buf == NULL || out == NULL || len <= TLSA_FIXED_BYTES ||
	    len - TLSA_FIXED_BYTES > TLSA_DATA_MAX)
		return TLSA_EFORMAT;
	out->usage = buf[0];
	out->selector = buf[1];
	out->mtype = buf[2];
	out->data = buf + TLSA_FIXED_BYTES;
	out->len = len - TLSA_FIXED_BYTES;
	if ((out->mtype == TLSA_MATCH_SHA256 &&
	     out->len != TLSA_SHA256_BYTES) ||
	    (out->mtype == TLSA_MATCH_SHA512 && out->len != TLSA_SHA512_BYTES))
		return TLSA_EFORMAT;
	if ((out->usage != TLSA_USAGE_DANE_TA &&
	     out->usage != TLSA_USAGE_DANE_EE) ||
	    out->selector > TLSA_SEL_SPKI || out->mtype > TLSA_MATCH_SHA512)
		return TLSA_EUNUSABLE;
	return TLSA_OK;
}

bool tlsa_usage_ta(const struct tlsa_rr *rr)
{
	return rr->usage == TLSA_USAGE_DANE_TA;
}

/* The selected bytes of the certificate (DER of itself or of its SPKI),
 * allocated by OpenSSL; *n their length; NULL if unreadable. */
static unsigned char *tlsa_selected(const struct tlsa_rr *rr,
                                    const uint8_t *der, size_t len, int *n)
{
	const unsigned char *p = der;
	unsigned char *sel = NULL;
	X509 *x;

	if (len == 0 || len > (size_t)INT32_MAX)
		return NULL;
	x = d2i_X509(NULL, &p, (long)len);
	if (x == NULL)
		return NULL;
	if (rr->selector == TLSA_SEL_CERT)
		*n = i2d_X509(x, &sel);
	else
		*n = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x), &sel);
	X509_free(x);
	if (*n <= 0) {
		OPENSSL_free(sel);
		return NULL;
	}
	return sel;
}

int tlsa_match(const struct tlsa_rr *rr, const uint8_t *der, size_t len)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	const unsigned char *cmp;
	unsigned char *sel;
	unsigned int mdlen = 0;
	size_t cmplen;
	int n = 0, r;

	if (rr->selector > TLSA_SEL_SPKI || rr->mtype > TLSA_MATCH_SHA512)
		return -TLSA_EUNUSABLE;
	sel = tlsa_selected(rr, der, len, &n);
	if (sel == NULL)
		return -TLSA_ECERT;
	cmp = sel;
	cmplen = (size_t)n;
	if (rr->mtype != TLSA_MATCH_FULL) {
		const EVP_MD *h = rr->mtype == TLSA_MATCH_SHA256 ?
		                          EVP_sha256() :
		                          EVP_sha512();

		if (EVP_Digest(sel, (size_t)n, md, &mdlen, h, NULL) != 1) {
			OPENSSL_free(sel);
			return -TLSA_ECERT;
		}
		cmp = md;
		cmplen = mdlen;
	}
	r = cmplen == rr->len && CRYPTO_memcmp(cmp, rr->data, cmplen) == 0;
	OPENSSL_free(sel);
	return r;
}
