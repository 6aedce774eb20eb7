/*
 * resolver/validate/dnssec_crypto.c - DNSKEY public keys and signature
 * verification through OpenSSL libcrypto 3.0 (EVP): RSA/SHA-1, SHA-256,
 * SHA-512 (RFC 3110, 5702), ECDSA P-256 and P-384 (RFC 6605), Ed25519 and
 * Ed448 (RFC 8080).
 *
 * Keys are checked for their sizes before libcrypto sees them: RSA
 * moduli of DNSSEC_RSA_MIN_BITS .. DNSSEC_RSA_MAX_BITS and exponents of
 * at most DNSSEC_RSA_EXP_MAX_BYTES (a huge key or exponent would make one
 * verification cost what thousands should), EC points of exactly the
 * curve's size (libcrypto refuses points off the curve).
 */
#include "dnssec.h"
#include "dnssec_memo.h"

#include <string.h>

#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>

struct dnssec_pubkey {
	EVP_PKEY *pkey;
	uint8_t alg;
	bool memo; /**< id is set: verifications are memoised */
	uint8_t id[DNSSEC_MEMO_DIGEST]; /**< dnssec_memo_key_id */
};

/* DER of an ECDSA signature of P-384: SEQUENCE of two INTEGERs of at
 * most 49 bytes each, with their headers. */
#define ECDSA_DER_MAX (2 + 2 * (2 + DNSSEC_ECDSAP384_BYTES / 2 + 1))

/* Build a key from OSSL_PARAMs of a libcrypto key type. */
static int key_from_params(const char *type, const OSSL_PARAM *params,
                           EVP_PKEY **out)
{
	EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, type, NULL);
	int rc = DNSSEC_ECRYPTO;

	if (ctx == NULL)
		return rc;
	if (EVP_PKEY_fromdata_init(ctx) == 1)
		rc = EVP_PKEY_fromdata(ctx, out, EVP_PKEY_PUBLIC_KEY,
		                       (OSSL_PARAM *)params) == 1 ?
		             DNSSEC_OK :
		             DNSSEC_EKEY;
	EVP_PKEY_CTX_free(ctx);
	return rc;
}

/* Split an RSA key (RFC 3110 section 2): exponent length in one byte,
 * or 0 and two bytes; the exponent; the modulus. */
static int rsa_split(const uint8_t *k, size_t n, size_t *epos, size_t *elen,
                     size_t *mlen)
{
	size_t pos = 1, e;

	if (n < 1)
		return DNSSEC_EKEY;
	e = k[0];
	if (e == 0) {
		if (n < 3)
			return DNSSEC_EKEY;
		e = (size_t)k[1] << 8 | k[2];
		pos = 3;
	}
	if (e == 0 || e > DNSSEC_RSA_EXP_MAX_BYTES || e >= n - pos)
		return DNSSEC_EKEY;
	*epos = pos;
	*elen = e;
	*mlen = n - pos - e;
	if (*mlen < DNSSEC_RSA_MIN_BITS / 8 || *mlen > DNSSEC_RSA_MAX_BITS / 8)
		return DNSSEC_EKEY;
	return DNSSEC_OK;
}

static int rsa_key(const uint8_t *k, size_t n, EVP_PKEY **out)
{
	size_t epos = 0, elen = 0, mlen = 0;
	BIGNUM *e = NULL, *m = NULL;
	OSSL_PARAM_BLD *bld = NULL;
	OSSL_PARAM *params = NULL;
	int rc = rsa_split(k, n, &epos, &elen, &mlen);

	if (rc != DNSSEC_OK)
		return rc;
	rc = DNSSEC_ECRYPTO;
	e = BN_bin2bn(k + epos, (int)elen, NULL);
	m = BN_bin2bn(k + epos + elen, (int)mlen, NULL);
	bld = OSSL_PARAM_BLD_new();
	if (e == NULL || m == NULL || bld == NULL ||
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_N, m) != 1 ||
	    OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_RSA_E, e) != 1)
		goto out;
	params = OSSL_PARAM_BLD_to_param(bld);
	if (params != NULL)
		rc = key_from_params("RSA", params, out);
out:
	OSSL_PARAM_free(params);
	OSSL_PARAM_BLD_free(bld);
	BN_free(m);
	BN_free(e);
	return rc;
}

static int ec_key(const char *group, size_t size, const uint8_t *k, size_t n,
                  EVP_PKEY **out)
{
	uint8_t point[1 + DNSSEC_ECDSAP384_BYTES];
	OSSL_PARAM params[3];

	if (n != size)
		return DNSSEC_EKEY;
	point[0] = 0x04; /* uncompressed: X|Y follow (SEC 1) */
	memcpy(point + 1, k, n);
	params[0] =
		OSSL_PARAM_construct_utf8_string(OSSL_PKEY_PARAM_GROUP_NAME,
	                                         (char *)group, 0);
	params[1] = OSSL_PARAM_construct_octet_string(OSSL_PKEY_PARAM_PUB_KEY,
	                                              point, n + 1);
	params[2] = OSSL_PARAM_construct_end();
	return key_from_params("EC", params, out);
}

static int ed_key(int type, size_t size, const uint8_t *k, size_t n,
                  EVP_PKEY **out)
{
	if (n != size)
		return DNSSEC_EKEY;
	*out = EVP_PKEY_new_raw_public_key(type, NULL, k, n);
	return *out != NULL ? DNSSEC_OK : DNSSEC_EKEY;
}

static int make_key(const struct dnssec_dnskey *k, EVP_PKEY **pkey)
{
	switch (k->alg) {
	case DNSSEC_ALG_RSASHA1:
	case DNSSEC_ALG_RSASHA1_NSEC3:
	case DNSSEC_ALG_RSASHA256:
	case DNSSEC_ALG_RSASHA512: return rsa_key(k->key, k->keylen, pkey);
	case DNSSEC_ALG_ECDSAP256:
		return ec_key("P-256", DNSSEC_ECDSAP256_BYTES, k->key,
		              k->keylen, pkey);
	case DNSSEC_ALG_ECDSAP384:
		return ec_key("P-384", DNSSEC_ECDSAP384_BYTES, k->key,
		              k->keylen, pkey);
	case DNSSEC_ALG_ED25519:
		return ed_key(EVP_PKEY_ED25519, DNSSEC_ED25519_KEY_BYTES,
		              k->key, k->keylen, pkey);
	case DNSSEC_ALG_ED448:
		return ed_key(EVP_PKEY_ED448, DNSSEC_ED448_KEY_BYTES, k->key,
		              k->keylen, pkey);
	default: return DNSSEC_EUNSUPPORTED_ALG;
	}
}

int dnssec_pubkey_new(const struct dnssec_dnskey *k,
                      struct dnssec_pubkey **out)
{
	struct dnssec_pubkey *pk;
	EVP_PKEY *pkey = NULL;
	int rc;

	if (k == NULL || out == NULL || (k->key == NULL && k->keylen > 0))
		return DNSSEC_EINVAL;
	rc = make_key(k, &pkey);
	if (rc != DNSSEC_OK) {
		ERR_clear_error(); /* a hostile key is no error of ours */
		return rc;
	}
	pk = malloc(sizeof *pk);
	if (pk == NULL) {
		EVP_PKEY_free(pkey);
		return DNSSEC_ECRYPTO;
	}
	pk->pkey = pkey;
	pk->alg = k->alg;
	pk->memo = dnssec_memo_key_id(k->alg, k->key, k->keylen, pk->id);
	*out = pk;
	return DNSSEC_OK;
}

void dnssec_pubkey_free(struct dnssec_pubkey *pk)
{
	if (pk == NULL)
		return;
	EVP_PKEY_free(pk->pkey);
	free(pk);
}

/* r|s (RFC 6605 section 4) to DER, which libcrypto verifies. */
static int ecdsa_der(const uint8_t *sig, size_t siglen, size_t size,
                     uint8_t der[ECDSA_DER_MAX], size_t *derlen)
{
	ECDSA_SIG *es;
	BIGNUM *r, *s;
	unsigned char *p = der;
	int n, rc = DNSSEC_ECRYPTO;

	if (siglen != size)
		return DNSSEC_ESIGLEN;
	es = ECDSA_SIG_new();
	r = BN_bin2bn(sig, (int)(size / 2), NULL);
	s = BN_bin2bn(sig + size / 2, (int)(size / 2), NULL);
	if (es == NULL || r == NULL || s == NULL ||
	    ECDSA_SIG_set0(es, r, s) != 1) {
		BN_free(r);
		BN_free(s);
		ECDSA_SIG_free(es);
		return rc;
	}
	n = i2d_ECDSA_SIG(es, NULL);
	if (n > 0 && (size_t)n <= ECDSA_DER_MAX &&
	    i2d_ECDSA_SIG(es, &p) == n) {
		*derlen = (size_t)n;
		rc = DNSSEC_OK;
	}
	ECDSA_SIG_free(es); /* frees r and s */
	return rc;
}

/* The digest of a signature algorithm (NULL for EdDSA: none). */
static const EVP_MD *sig_md(uint8_t alg)
{
	switch (alg) {
	case DNSSEC_ALG_RSASHA1:
	case DNSSEC_ALG_RSASHA1_NSEC3: return EVP_sha1();
	case DNSSEC_ALG_RSASHA256:
	case DNSSEC_ALG_ECDSAP256: return EVP_sha256();
	case DNSSEC_ALG_RSASHA512: return EVP_sha512();
	case DNSSEC_ALG_ECDSAP384: return EVP_sha384();
	default: return NULL;
	}
}

/* Check the signature's length for its algorithm, converting ECDSA. */
static int sig_form(const struct dnssec_pubkey *pk, const uint8_t **sig,
                    size_t *siglen, uint8_t der[ECDSA_DER_MAX])
{
	size_t want;
	int rc;

	switch (pk->alg) {
	case DNSSEC_ALG_ECDSAP256:
	case DNSSEC_ALG_ECDSAP384:
		want = pk->alg == DNSSEC_ALG_ECDSAP256 ?
		               DNSSEC_ECDSAP256_BYTES :
		               DNSSEC_ECDSAP384_BYTES;
		rc = ecdsa_der(*sig, *siglen, want, der, siglen);
		*sig = der;
		return rc;
	case DNSSEC_ALG_ED25519: want = DNSSEC_ED25519_SIG_BYTES; break;
	case DNSSEC_ALG_ED448: want = DNSSEC_ED448_SIG_BYTES; break;
	default: /* RSA: as long as the modulus (RFC 3110 section 3) */
		want = (size_t)EVP_PKEY_get_size(pk->pkey);
		break;
	}
	return *siglen == want ? DNSSEC_OK : DNSSEC_ESIGLEN;
}

/* The signature and key sizes of an algorithm whose signatures have
 * one size (ECDSA, EdDSA); 0 for RSA (the modulus's) and unknown ones. */
static size_t fixed_sig(uint8_t alg, size_t *keybytes)
{
	switch (alg) {
	case DNSSEC_ALG_ECDSAP256:
		*keybytes = DNSSEC_ECDSAP256_BYTES;
		return DNSSEC_ECDSAP256_BYTES;
	case DNSSEC_ALG_ECDSAP384:
		*keybytes = DNSSEC_ECDSAP384_BYTES;
		return DNSSEC_ECDSAP384_BYTES;
	case DNSSEC_ALG_ED25519:
		*keybytes = DNSSEC_ED25519_KEY_BYTES;
		return DNSSEC_ED25519_SIG_BYTES;
	case DNSSEC_ALG_ED448:
		*keybytes = DNSSEC_ED448_KEY_BYTES;
		return DNSSEC_ED448_SIG_BYTES;
	default: *keybytes = 0; return 0;
	}
}

/* Whether a signature of siglen bytes has the length of the key's
 * signatures (sig_form's test, without ECDSA's conversion). */
static bool sig_len_ok(const struct dnssec_pubkey *pk, size_t siglen)
{
	size_t keybytes;
	size_t want = fixed_sig(pk->alg, &keybytes);

	if (want == 0) /* RSA: as long as the modulus */
		want = (size_t)EVP_PKEY_get_size(pk->pkey);
	return siglen == want;
}

int dnssec_sig_fits(const struct dnssec_dnskey *k, size_t siglen)
{
	size_t epos = 0, elen = 0, mlen = 0, lead = 0, keybytes;
	size_t want = fixed_sig(k->alg, &keybytes);

	if (want != 0) /* a key of the wrong size: dnssec_pubkey_new's */
		return k->keylen != keybytes || siglen == want ?
		               DNSSEC_OK :
		               DNSSEC_ESIGLEN;
	if (sig_md(k->alg) == NULL ||
	    rsa_split(k->key, k->keylen, &epos, &elen, &mlen) != DNSSEC_OK)
		return DNSSEC_OK; /* unknown, or the key's own fault */
	/* libcrypto's size of an RSA key: the modulus without its leading
	 * zero bytes */
	while (lead < mlen && k->key[epos + elen + lead] == 0)
		lead++;
	return siglen == mlen - lead ? DNSSEC_OK : DNSSEC_ESIGLEN;
}

/* Verifications this thread answered from its memo (dnssec_memo.h). */
static _Thread_local unsigned long verify_memo_hits;

unsigned long dnssec_verify_memo_hits(void)
{
	return verify_memo_hits;
}

/* The same verification done lately by this thread (dnssec_memo.h); the
 * digest is taken only for a signature the memo may hold. */
static bool memo_hit(const struct dnssec_pubkey *pk, const uint8_t *sig,
                     size_t siglen, const uint8_t *data, size_t len)
{
	uint8_t d[DNSSEC_MEMO_DIGEST];

	if (!pk->memo || !dnssec_memo_maybe(sig, siglen) ||
	    !dnssec_memo_digest(pk->id, sig, siglen, data, len, d) ||
	    !dnssec_memo_seen(d))
		return false;
	verify_memo_hits++;
	return true;
}

/* Remember a verification that succeeded. */
static void memo_keep(const struct dnssec_pubkey *pk, const uint8_t *sig,
                      size_t siglen, const uint8_t *data, size_t len)
{
	uint8_t d[DNSSEC_MEMO_DIGEST];

	if (pk->memo &&
	    dnssec_memo_digest(pk->id, sig, siglen, data, len, d)) {
		dnssec_memo_add(d);
		dnssec_memo_note(sig, siglen);
	}
}

int dnssec_pubkey_verify(const struct dnssec_pubkey *pk, const uint8_t *sig,
                         size_t siglen, const uint8_t *data, size_t len)
{
	uint8_t der[ECDSA_DER_MAX];
	EVP_MD_CTX *ctx;
	int rc;
	const uint8_t *sig0 = sig;
	size_t siglen0 = siglen;

	if (pk == NULL || (sig == NULL && siglen > 0) || data == NULL)
		return DNSSEC_EINVAL;
	/* a length that cannot verify costs no digest of the memo (a
	 * KeyTrap set's keys of another size, all tried) */
	if (!sig_len_ok(pk, siglen))
		return DNSSEC_ESIGLEN;
	if (memo_hit(pk, sig, siglen, data, len))
		return DNSSEC_OK;
	rc = sig_form(pk, &sig, &siglen, der);
	if (rc != DNSSEC_OK)
		return rc;
	ctx = EVP_MD_CTX_new();
	if (ctx == NULL)
		return DNSSEC_ECRYPTO;
	if (EVP_DigestVerifyInit(ctx, NULL, sig_md(pk->alg), NULL, pk->pkey) !=
	    1)
		rc = DNSSEC_ECRYPTO;
	else if (EVP_DigestVerify(ctx, sig, siglen, data, len) != 1)
		rc = DNSSEC_EBADSIG;
	EVP_MD_CTX_free(ctx);
	if (rc != DNSSEC_OK)
		ERR_clear_error();
	else
		memo_keep(pk, sig0, siglen0, data, len);
	return rc;
}
