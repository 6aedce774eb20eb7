/*
 * resolver/validate/dnssec_key.c - DNSKEY and DS: key tags, parsing, DS
 * digests and the DS-to-DNSKEY match (RFC 4034 sections 2, 5 and
 * Appendix B; RFC 4509; RFC 6605 section 2 for SHA-384).
 */
#include "dnssec.h"

#include <string.h>

#include <openssl/evp.h>

const char *dnssec_strerror(int status)
{
	static const char *const text[] = {
		[DNSSEC_OK] = "ok",
		[DNSSEC_EUNSUPPORTED_ALG] = "unsupported algorithm",
		[DNSSEC_EUNSUPPORTED_DIGEST] = "unsupported DS digest type",
		[DNSSEC_EUNSUPPORTED_HASH] = "NSEC3 hash algorithm unknown: "
					     "such NSEC3 prove nothing",
		[DNSSEC_EITERATIONS] = "NSEC3 iterations above the limit",
		[DNSSEC_EFORMAT] = "malformed record data",
		[DNSSEC_EKEY] = "unusable public key",
		[DNSSEC_ESIGLEN] = "signature of the wrong length",
		[DNSSEC_EBADSIG] = "signature does not verify",
		[DNSSEC_EMISMATCH] = "no DNSKEY matches the DS",
		[DNSSEC_ESIGNER] = "signer is not the zone of the owner",
		[DNSSEC_ETYPE] = "type covered differs",
		[DNSSEC_ELABELS] = "labels field above the owner's labels",
		[DNSSEC_EEXPIRED] = "signature expired",
		[DNSSEC_ENOTYET] = "signature not yet valid",
		[DNSSEC_EKEYTAG] = "key tag differs",
		[DNSSEC_EALGMISMATCH] = "algorithm differs",
		[DNSSEC_ENOTZONEKEY] = "DNSKEY is not a zone key",
		[DNSSEC_EPROTOCOL] = "DNSKEY protocol is not 3",
		[DNSSEC_ESPACE] = "output buffer too small",
		[DNSSEC_ETOOMANY] = "too many records in the RRset",
		[DNSSEC_ECRYPTO] = "libcrypto failure",
		[DNSSEC_EINVAL] = "invalid argument",
		[DNSSEC_EOPTOUT] = "denial by an opt-out span only",
		[DNSSEC_ENOPROOF] = "denial not proven",
		[DNSSEC_EBUDGET] = "DNSSEC limit reached: verifications or "
				   "NSEC3 hashes of one question",
		[DNSSEC_ENOSIG] = "no signature covers the RRset",
		[DNSSEC_EVALIDITY] = "signature expiration not after its "
				     "inception",
		[DNSSEC_EFAILCAP] = "DNSSEC limit reached: failed "
				    "verifications of one question",
	};

	if (status < 0 || (size_t)status >= sizeof text / sizeof text[0] ||
	    text[status] == NULL)
		return "unknown status";
	return text[status];
}

int dnssec_alg_supported(uint8_t alg)
{
	switch (alg) {
	case DNSSEC_ALG_RSASHA1:
	case DNSSEC_ALG_RSASHA1_NSEC3:
	case DNSSEC_ALG_RSASHA256:
	case DNSSEC_ALG_RSASHA512:
	case DNSSEC_ALG_ECDSAP256:
	case DNSSEC_ALG_ECDSAP384:
	case DNSSEC_ALG_ED25519:
	case DNSSEC_ALG_ED448: return 1;
	default: return 0;
	}
}

/* The digest of a DS digest type, and its length; NULL if unsupported. */
static const EVP_MD *ds_md(uint8_t t, size_t *len)
{
	switch (t) {
	case DNSSEC_DIGEST_SHA1: *len = 20; return EVP_sha1();
	case DNSSEC_DIGEST_SHA256: *len = 32; return EVP_sha256();
	case DNSSEC_DIGEST_SHA384: *len = 48; return EVP_sha384();
	default: return NULL;
	}
}

int dnssec_digest_supported(uint8_t t)
{
	size_t len;

	return ds_md(t, &len) != NULL;
}

/* 8-byte words summed before one 16-bit lane of a sum could carry into
 * the next: 256 * 255 < 65536. */
#define KEY_TAG_BLOCK 256
/* The bytes of a word at even offsets, one per 16-bit lane (on a
 * little-endian host; the odd ones are the word shifted by 8). */
#define KEY_TAG_LANES 0x00ff00ff00ff00ffULL

/* The four 16-bit lanes of x added. */
static uint32_t key_tag_fold(uint64_t x)
{
	return (uint32_t)((x & 0xffffu) + (x >> 16 & 0xffffu) +
	                  (x >> 32 & 0xffffu) + (x >> 48));
}

/* The sum of the words of rdata from *pos, 8 bytes at a time, while 8
 * are left; *pos is moved past them. Words are read on a little-endian
 * host only (elsewhere the byte loop does it all). */
static uint32_t key_tag_words(const uint8_t *rdata, size_t rdlen, size_t *pos)
{
	uint32_t ac = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	size_t i = *pos, n;

	while (rdlen - i >= 8) {
		uint64_t even = 0, odd = 0, w;

		for (n = 0; n < KEY_TAG_BLOCK && rdlen - i >= 8; n++, i += 8) {
			memcpy(&w, rdata + i, sizeof w);
			even += w & KEY_TAG_LANES;
			odd += w >> 8 & KEY_TAG_LANES;
		}
		ac += key_tag_fold(even) << 8;
		ac += key_tag_fold(odd);
	}
	*pos = i;
#else
	(void)rdata;
	(void)rdlen;
	(void)pos;
#endif
	return ac;
}

uint16_t dnssec_key_tag(const uint8_t *rdata, size_t rdlen)
{
	size_t i = 0;
	uint32_t ac;

	/* RFC 4034 Appendix B: even bytes are high, odd bytes low; a sum
	 * of at most 65535 bytes fits in 32 bits. Eight bytes at a time (a
	 * KeyTrap set's keys are each parsed once per signature tried),
	 * then word by word. */
	ac = key_tag_words(rdata, rdlen, &i);
	for (; i + 1 < rdlen; i += 2)
		ac += (uint32_t)rdata[i] << 8 | rdata[i + 1];
	if (i < rdlen)
		ac += (uint32_t)rdata[i] << 8;
	ac += (ac >> 16) & 0xffffu;
	return (uint16_t)(ac & 0xffffu);
}

int dnssec_dnskey_parse(const uint8_t *rdata, size_t rdlen,
                        struct dnssec_dnskey *k)
{
	if (rdata == NULL || k == NULL)
		return DNSSEC_EINVAL;
	if (rdlen <= DNSSEC_DNSKEY_FIXED_BYTES || rdlen > UINT16_MAX)
		return DNSSEC_EFORMAT;
	k->rdata = rdata;
	k->rdlen = rdlen;
	k->flags = (uint16_t)(rdata[0] << 8 | rdata[1]);
	k->protocol = rdata[2];
	k->alg = rdata[3];
	k->key = rdata + DNSSEC_DNSKEY_FIXED_BYTES;
	k->keylen = rdlen - DNSSEC_DNSKEY_FIXED_BYTES;
	k->tag = dnssec_key_tag(rdata, rdlen);
	return DNSSEC_OK;
}

int dnssec_ds_parse(const uint8_t *rdata, size_t rdlen, struct dnssec_ds *ds)
{
	if (rdata == NULL || ds == NULL)
		return DNSSEC_EINVAL;
	if (rdlen <= DNSSEC_DS_FIXED_BYTES || rdlen > UINT16_MAX)
		return DNSSEC_EFORMAT;
	ds->tag = (uint16_t)(rdata[0] << 8 | rdata[1]);
	ds->alg = rdata[2];
	ds->digest_type = rdata[3];
	ds->digest = rdata + DNSSEC_DS_FIXED_BYTES;
	ds->digestlen = rdlen - DNSSEC_DS_FIXED_BYTES;
	return DNSSEC_OK;
}

int dnssec_ds_digest(uint8_t type, const uint8_t *owner, size_t ownerlen,
                     const uint8_t *rdata, size_t rdlen,
                     uint8_t out[DNSSEC_DIGEST_MAX], size_t *outlen)
{
	uint8_t name[WIRE_NAME_MAX];
	const EVP_MD *md;
	EVP_MD_CTX *ctx;
	size_t len = 0;
	unsigned n = 0;
	int ok;

	if (owner == NULL || rdata == NULL || out == NULL || outlen == NULL)
		return DNSSEC_EINVAL;
	md = ds_md(type, &len);
	if (md == NULL)
		return DNSSEC_EUNSUPPORTED_DIGEST;
	if (wire_name_check(owner, ownerlen) != WIRE_OK)
		return DNSSEC_EFORMAT;
	memcpy(name, owner, ownerlen);
	wire_name_lower(name, ownerlen);
	ctx = EVP_MD_CTX_new();
	if (ctx == NULL)
		return DNSSEC_ECRYPTO;
	ok = EVP_DigestInit_ex(ctx, md, NULL) == 1 &&
	     EVP_DigestUpdate(ctx, name, ownerlen) == 1 &&
	     EVP_DigestUpdate(ctx, rdata, rdlen) == 1 &&
	     EVP_DigestFinal_ex(ctx, out, &n) == 1 && n == len;
	EVP_MD_CTX_free(ctx);
	if (!ok)
		return DNSSEC_ECRYPTO;
	*outlen = len;
	return DNSSEC_OK;
}

int dnssec_ds_match(const uint8_t *ds_rdata, size_t ds_len,
                    const uint8_t *owner, size_t ownerlen,
                    const uint8_t *key_rdata, size_t key_len)
{
	uint8_t digest[DNSSEC_DIGEST_MAX];
	struct dnssec_dnskey k;
	struct dnssec_ds ds;
	size_t len = 0;
	int rc;

	rc = dnssec_ds_parse(ds_rdata, ds_len, &ds);
	if (rc == DNSSEC_OK)
		rc = dnssec_dnskey_parse(key_rdata, key_len, &k);
	if (rc != DNSSEC_OK)
		return rc;
	if (!dnssec_digest_supported(ds.digest_type))
		return DNSSEC_EUNSUPPORTED_DIGEST;
	if (ds.tag != k.tag || ds.alg != k.alg)
		return DNSSEC_EMISMATCH;
	rc = dnssec_ds_digest(ds.digest_type, owner, ownerlen, key_rdata,
	                      key_len, digest, &len);
	if (rc != DNSSEC_OK)
		return rc;
	/* Public data on both sides: a plain comparison is fine. */
	if (ds.digestlen != len || memcmp(ds.digest, digest, len) != 0)
		return DNSSEC_EMISMATCH;
	return DNSSEC_OK;
}
