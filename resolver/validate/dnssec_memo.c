/*
 * resolver/validate/dnssec_memo.c - the signatures this thread verified
 * lately (dnssec_memo.h).
 */
#include "dnssec_memo.h"

#include <string.h>

#include <openssl/evp.h>

/** One thread's table: a digest per slot, chosen by its first bytes. */
struct dnssec_memo {
	uint8_t d[DNSSEC_MEMO_SLOTS][DNSSEC_MEMO_DIGEST];
	bool used[DNSSEC_MEMO_SLOTS];
};

static _Thread_local struct dnssec_memo dnssec_memo_tab;

static size_t dnssec_memo_slot(const uint8_t d[DNSSEC_MEMO_DIGEST])
{
	return ((size_t)d[0] | (size_t)d[1] << 8) & (DNSSEC_MEMO_SLOTS - 1);
}

/* SHA-256 of up to three parts (NULL parts are skipped). */
static bool dnssec_memo_sha(const uint8_t *a, size_t alen, const uint8_t *b,
                            size_t blen, const uint8_t *c, size_t clen,
                            uint8_t out[DNSSEC_MEMO_DIGEST])
{
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	unsigned int olen = 0;
	bool ok;

	if (ctx == NULL)
		return false;
	ok = EVP_DigestInit_ex(ctx, EVP_sha256(), NULL) == 1 &&
	     (alen == 0 || EVP_DigestUpdate(ctx, a, alen) == 1) &&
	     (blen == 0 || EVP_DigestUpdate(ctx, b, blen) == 1) &&
	     (clen == 0 || EVP_DigestUpdate(ctx, c, clen) == 1) &&
	     EVP_DigestFinal_ex(ctx, out, &olen) == 1 &&
	     olen == DNSSEC_MEMO_DIGEST;
	EVP_MD_CTX_free(ctx);
	return ok;
}

bool dnssec_memo_digest(const uint8_t id[DNSSEC_MEMO_DIGEST],
                        const uint8_t *sig, size_t siglen, const uint8_t *data,
                        size_t len, uint8_t out[DNSSEC_MEMO_DIGEST])
{
	uint8_t head[DNSSEC_MEMO_DIGEST + 2];

	/* the signature's length after the key: the input splits one way */
	if (siglen > UINT16_MAX)
		return false;
	memcpy(head, id, DNSSEC_MEMO_DIGEST);
	head[DNSSEC_MEMO_DIGEST] = (uint8_t)(siglen >> 8);
	head[DNSSEC_MEMO_DIGEST + 1] = (uint8_t)siglen;
	return dnssec_memo_sha(head, sizeof head, sig, siglen, data, len, out);
}

bool dnssec_memo_key_id(uint8_t alg, const uint8_t *key, size_t keylen,
                        uint8_t out[DNSSEC_MEMO_DIGEST])
{
	return dnssec_memo_sha(&alg, 1, key, keylen, NULL, 0, out);
}

bool dnssec_memo_seen(const uint8_t d[DNSSEC_MEMO_DIGEST])
{
	size_t i = dnssec_memo_slot(d);

	return dnssec_memo_tab.used[i] &&
	       memcmp(dnssec_memo_tab.d[i], d, DNSSEC_MEMO_DIGEST) == 0;
}

void dnssec_memo_add(const uint8_t d[DNSSEC_MEMO_DIGEST])
{
	size_t i = dnssec_memo_slot(d);

	memcpy(dnssec_memo_tab.d[i], d, DNSSEC_MEMO_DIGEST);
	dnssec_memo_tab.used[i] = true;
}
