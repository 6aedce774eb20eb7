/*
 * resolver/validate/tlsa.c - TLSA RDATA (RFC 6698 s2.1) and the match of
 * a DER certificate against one record (RFC 7671 s5): the whole
 * certificate or its SubjectPublicKeyInfo, as is or as a SHA-256 or
 * SHA-512 digest, compared in constant time; the usable records of an
 * RRset as a set, and the chain a server sent checked against all of
 * them (usage 3: the leaf; usage 2: a certificate of the chain, the path
 * from the leaf to it verified, the leaf's name checked).
 */
#include "tlsa.h"

#include <string.h>

#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <openssl/x509v3.h>

/** Room for a host name without its final dot, and the NUL. */
#define TLSA_HOST_BYTES 256

const char *tlsa_strerror(int status)
{
	switch (status) {
	case TLSA_OK: return "ok";
	case TLSA_EFORMAT: return "malformed TLSA record";
	case TLSA_EUNUSABLE: return "TLSA parameters not used";
	case TLSA_ECERT: return "certificate unreadable";
	case TLSA_EFULL: return "too many TLSA records";
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

/* A DER certificate read, or NULL. */
static X509 *tlsa_x509(const uint8_t *der, size_t len)
{
	const unsigned char *p = der;

	if (der == NULL || len == 0 || len > (size_t)INT32_MAX)
		return NULL;
	return d2i_X509(NULL, &p, (long)len);
}

/* The bytes of x a selector selects (DER of itself or of its SPKI),
 * allocated by OpenSSL; *n their length; NULL if unreadable. */
static unsigned char *tlsa_selected_x(X509 *x, uint8_t selector, int *n)
{
	unsigned char *sel = NULL;

	if (selector == TLSA_SEL_CERT)
		*n = i2d_X509(x, &sel);
	else
		*n = i2d_X509_PUBKEY(X509_get_X509_PUBKEY(x), &sel);
	if (*n <= 0) {
		OPENSSL_free(sel);
		return NULL;
	}
	return sel;
}

/* The selected bytes of a DER certificate (tlsa_selected_x). */
static unsigned char *tlsa_selected(const struct tlsa_rr *rr,
                                    const uint8_t *der, size_t len, int *n)
{
	X509 *x = tlsa_x509(der, len);
	unsigned char *sel;

	if (x == NULL)
		return NULL;
	sel = tlsa_selected_x(x, rr->selector, n);
	X509_free(x);
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

/* ---- the usable records of an RRset (struct tlsa_set) ---- */

int tlsa_set_add(struct tlsa_set *s, const uint8_t *rdata, size_t len)
{
	struct tlsa_set_rr e;
	struct tlsa_rr rr;
	unsigned int n = 0;
	size_t i;
	int r;

	if (s == NULL)
		return TLSA_EFORMAT;
	if ((r = tlsa_parse(rdata, len, &rr)) != TLSA_OK)
		return r;
	memset(&e, 0, sizeof e);
	e.usage = rr.usage;
	e.selector = rr.selector;
	e.mtype = rr.mtype;
	if (rr.mtype != TLSA_MATCH_FULL) {
		memcpy(e.digest, rr.data, rr.len);
		e.len = (uint8_t)rr.len;
	} else if (EVP_Digest(rr.data, rr.len, e.digest, &n, EVP_sha512(),
	                      NULL) == 1 &&
	           n == TLSA_SHA512_BYTES) {
		e.len = TLSA_SHA512_BYTES;
	} else {
		return TLSA_EFORMAT;
	}
	for (i = 0; i < s->n; i++)
		if (memcmp(&s->rr[i], &e, sizeof e) == 0)
			return TLSA_OK;
	if (s->n >= TLSA_SET_MAX)
		return TLSA_EFULL;
	s->rr[s->n++] = e;
	return TLSA_OK;
}

/* Does x match e (its selector, then SHA-256 for matching type 1,
 * SHA-512 for 2 and for 0, whose data is kept as its SHA-512)? */
static bool tlsa_set_rr_match(const struct tlsa_set_rr *e, X509 *x)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	unsigned char *sel;
	int n = 0;
	bool ok = false;

	if ((sel = tlsa_selected_x(x, e->selector, &n)) == NULL)
		return false;
	if (EVP_Digest(sel, (size_t)n, md, &mdlen,
	               e->mtype == TLSA_MATCH_SHA256 ? EVP_sha256() :
	                                               EVP_sha512(),
	               NULL) == 1)
		ok = mdlen == e->len &&
		     CRYPTO_memcmp(md, e->digest, mdlen) == 0;
	OPENSSL_free(sel);
	return ok;
}

/* Does the leaf name host (RFC 6125 rules, no partial wildcards; a final
 * dot of host ignored)? */
static bool tlsa_host_ok(X509 *leaf, const char *host)
{
	char h[TLSA_HOST_BYTES];
	size_t len = host != NULL ? strlen(host) : 0;

	if (len > 1 && host[len - 1] == '.')
		len--;
	if (len == 0 || len >= sizeof h || (len == 1 && host[0] == '.'))
		return false;
	memcpy(h, host, len);
	h[len] = '\0';
	return X509_check_host(leaf, h, len,
	                       X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS,
	                       NULL) == 1;
}

/* DANE-TA: does the path from x[0] to x[ta] (the trust anchor; the
 * others sent as intermediates) verify for a TLS server now, and does
 * the leaf name host? */
static bool tlsa_ta_verify(X509 *const *x, size_t n, size_t ta,
                           const char *host)
{
	X509_STORE *st = X509_STORE_new();
	X509_STORE_CTX *ctx = X509_STORE_CTX_new();
	STACK_OF(X509) *mid = sk_X509_new_null();
	bool ok = false;
	size_t i;

	if (st == NULL || ctx == NULL || mid == NULL ||
	    X509_STORE_add_cert(st, x[ta]) != 1)
		goto out;
	for (i = 1; i < n; i++)
		if (i != ta && x[i] != NULL && sk_X509_push(mid, x[i]) <= 0)
			goto out;
	if (X509_STORE_CTX_init(ctx, st, x[0], mid) != 1)
		goto out;
	/* the anchor need not be self-signed (RFC 7671 s5.2.2) */
	X509_STORE_CTX_set_flags(ctx, X509_V_FLAG_PARTIAL_CHAIN);
	(void)X509_STORE_CTX_set_purpose(ctx, X509_PURPOSE_SSL_SERVER);
	ok = X509_verify_cert(ctx) == 1 && tlsa_host_ok(x[0], host);
out:
	X509_STORE_CTX_free(ctx);
	sk_X509_free(mid); /* the certificates are the caller's */
	X509_STORE_free(st);
	ERR_clear_error();
	return ok;
}

/* Does the chain x (n certificates, x[0] the leaf) satisfy e? */
static bool tlsa_set_rr_ok(const struct tlsa_set_rr *e, X509 *const *x,
                           size_t n, const char *host)
{
	size_t i;

	if (e->usage == TLSA_USAGE_DANE_EE)
		return tlsa_set_rr_match(e, x[0]);
	for (i = 1; i < n; i++)
		if (x[i] != NULL && tlsa_set_rr_match(e, x[i]) &&
		    tlsa_ta_verify(x, n, i, host))
			return true;
	return false;
}

int tlsa_set_check(const struct tlsa_set *s, const uint8_t *const *der,
                   const size_t *derlen, size_t n, const char *host)
{
	X509 *x[TLSA_CHAIN_MAX] = { NULL };
	size_t i;
	int r = 0;

	if (s == NULL || der == NULL || derlen == NULL || n == 0)
		return -TLSA_ECERT;
	if (n > TLSA_CHAIN_MAX)
		n = TLSA_CHAIN_MAX;
	for (i = 0; i < n; i++)
		x[i] = tlsa_x509(der[i], derlen[i]);
	if (x[0] == NULL)
		r = -TLSA_ECERT;
	for (i = 0; r == 0 && i < s->n && i < TLSA_SET_MAX; i++)
		r = tlsa_set_rr_ok(&s->rr[i], x, n, host);
	for (i = 0; i < n; i++)
		X509_free(x[i]);
	return r;
}
