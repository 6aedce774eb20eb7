/*
 * resolver/validate/dnssec_nsec3.c - NSEC3 owner hashes (RFC 5155 section
 * 5) and base32hex (RFC 4648 section 7), the form of NSEC3 owner labels.
 *
 * The iteration count comes from the network and each iteration is one
 * SHA-1: the caller's cap is checked before anything is hashed
 * (CVE-2023-50868; RFC 9276 section 3.2).
 *
 * Each thread keeps the last hashes it took, a small direct-mapped
 * table keyed by the whole input (lowercased name, salt, iterations):
 * a flood of names below one deep encloser, or the many proofs of one
 * aggressive lookup, hash the same ancestors and wildcards again and
 * again. A hit gives the same bytes as a miss; callers still pay their
 * budget for it, so no result depends on what the table holds.
 */
#include "dnssec.h"

#include <string.h>

#include <openssl/evp.h>

/** The largest NSEC3 salt (a one-byte length field). */
#define NSEC3_SALT_MAX 255

/** Entries of each thread's table of hashes (a power of 2). */
#define NSEC3_MEMO_SLOTS 128
/** FNV-1a, 32 bits: the table's index. */
#define NSEC3_FNV_BASIS 2166136261u
#define NSEC3_FNV_PRIME 16777619u

static const char b32hex_alphabet[] = "0123456789abcdefghijklmnopqrstuv";

/* One hash taken: its input (namelen 0: empty) and its digest. */
struct nsec3_memo {
	uint16_t iterations;
	uint8_t namelen, saltlen;
	uint8_t out[DNSSEC_NSEC3_HASH_BYTES];
	uint8_t key[WIRE_NAME_MAX + NSEC3_SALT_MAX]; /* name, then salt */
};

static _Thread_local struct nsec3_memo nsec3_memo[NSEC3_MEMO_SLOTS];
static _Thread_local unsigned long nsec3_memo_hit;

/* The slot of a lowercased name with these parameters. */
static struct nsec3_memo *memo_slot(const uint8_t *name, size_t namelen,
                                    size_t saltlen, uint16_t iterations)
{
	uint32_t h = NSEC3_FNV_BASIS;
	size_t i;

	for (i = 0; i < namelen; i++)
		h = (h ^ name[i]) * NSEC3_FNV_PRIME;
	h = (h ^ (uint32_t)saltlen) * NSEC3_FNV_PRIME;
	h = (h ^ iterations) * NSEC3_FNV_PRIME;
	return &nsec3_memo[h & (NSEC3_MEMO_SLOTS - 1)];
}

/* Whether slot m holds this input. */
static int memo_holds(const struct nsec3_memo *m, const uint8_t *name,
                      size_t namelen, const uint8_t *salt, size_t saltlen,
                      uint16_t iterations)
{
	return m->namelen == namelen && m->saltlen == saltlen &&
	       m->iterations == iterations &&
	       memcmp(m->key, name, namelen) == 0 &&
	       (saltlen == 0 || memcmp(m->key + namelen, salt, saltlen) == 0);
}

/* The iterated SHA-1 of RFC 5155 section 5 of a lowercased name. */
static int nsec3_digest(uint16_t iterations, const uint8_t *salt,
                        size_t saltlen, const uint8_t *name, size_t namelen,
                        uint8_t out[DNSSEC_NSEC3_HASH_BYTES])
{
	const uint8_t *in = name;
	size_t inlen = namelen;
	unsigned i, n = 0;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int ok;

	if (ctx == NULL)
		return DNSSEC_ECRYPTO;
	/* The digest is looked up once; each round re-initialises the
	 * context with it (a NULL type keeps the one set). */
	ok = EVP_DigestInit_ex(ctx, EVP_sha1(), NULL) == 1;
	for (i = 0; ok && i <= iterations; i++) {
		ok = (i == 0 || EVP_DigestInit_ex(ctx, NULL, NULL) == 1) &&
		     EVP_DigestUpdate(ctx, in, inlen) == 1 &&
		     (saltlen == 0 ||
		      EVP_DigestUpdate(ctx, salt, saltlen) == 1) &&
		     EVP_DigestFinal_ex(ctx, out, &n) == 1 &&
		     n == DNSSEC_NSEC3_HASH_BYTES;
		in = out;
		inlen = DNSSEC_NSEC3_HASH_BYTES;
	}
	EVP_MD_CTX_free(ctx);
	return ok ? DNSSEC_OK : DNSSEC_ECRYPTO;
}

unsigned long dnssec_nsec3_memo_hits(void)
{
	return nsec3_memo_hit;
}

int dnssec_nsec3_hash(uint8_t hash_alg, uint16_t iterations,
                      unsigned max_iterations, const uint8_t *salt,
                      size_t saltlen, const uint8_t *name, size_t namelen,
                      uint8_t out[DNSSEC_NSEC3_HASH_BYTES])
{
	uint8_t lower[WIRE_NAME_MAX];
	struct nsec3_memo *m;
	int rc;

	if (name == NULL || out == NULL || (salt == NULL && saltlen > 0))
		return DNSSEC_EINVAL;
	if (hash_alg != DNSSEC_NSEC3_HASH_SHA1)
		return DNSSEC_EUNSUPPORTED_HASH;
	if (iterations > max_iterations)
		return DNSSEC_EITERATIONS;
	if (saltlen > NSEC3_SALT_MAX ||
	    wire_name_check(name, namelen) != WIRE_OK)
		return DNSSEC_EFORMAT;
	memcpy(lower, name, namelen);
	wire_name_lower(lower, namelen);
	m = memo_slot(lower, namelen, saltlen, iterations);
	if (memo_holds(m, lower, namelen, salt, saltlen, iterations)) {
		nsec3_memo_hit++;
		memcpy(out, m->out, DNSSEC_NSEC3_HASH_BYTES);
		return DNSSEC_OK;
	}
	rc = nsec3_digest(iterations, salt, saltlen, lower, namelen, out);
	if (rc != DNSSEC_OK)
		return rc;
	m->namelen = (uint8_t)namelen;
	m->saltlen = (uint8_t)saltlen;
	m->iterations = iterations;
	memcpy(m->key, lower, namelen);
	if (saltlen > 0)
		memcpy(m->key + namelen, salt, saltlen);
	memcpy(m->out, out, DNSSEC_NSEC3_HASH_BYTES);
	return DNSSEC_OK;
}

int dnssec_b32hex_encode(char *out, size_t cap, size_t *outlen,
                         const uint8_t *in, size_t n)
{
	size_t need, i, o = 0;
	uint32_t acc = 0;
	unsigned bits = 0;

	if (out == NULL || outlen == NULL || (in == NULL && n > 0) ||
	    n > SIZE_MAX / 8)
		return DNSSEC_EINVAL;
	need = DNSSEC_B32HEX_LEN(n);
	if (need > cap)
		return DNSSEC_ESPACE;
	for (i = 0; i < n; i++) {
		acc = (acc << 8 | in[i]) & 0xfffu; /* at most 12 bits kept */
		bits += 8;
		while (bits >= 5) {
			bits -= 5;
			out[o++] = b32hex_alphabet[(acc >> bits) & 31u];
		}
	}
	if (bits > 0)
		out[o++] = b32hex_alphabet[(acc << (5 - bits)) & 31u];
	*outlen = o;
	return DNSSEC_OK;
}

/* The value of a base32hex digit, either case, or -1. */
static int b32hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'v')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'V')
		return c - 'A' + 10;
	return -1;
}

int dnssec_b32hex_decode(uint8_t *out, size_t cap, size_t *outlen,
                         const char *in, size_t n)
{
	size_t i, o = 0;
	uint32_t acc = 0;
	unsigned bits = 0;
	int v;

	if (out == NULL || outlen == NULL || (in == NULL && n > 0))
		return DNSSEC_EINVAL;
	/* A tail of 1, 3 or 6 characters holds no whole byte. */
	if (n % 8 == 1 || n % 8 == 3 || n % 8 == 6)
		return DNSSEC_EFORMAT;
	if (n / 8 * 5 + (n % 8) * 5 / 8 > cap)
		return DNSSEC_ESPACE;
	for (i = 0; i < n; i++) {
		v = b32hex_value(in[i]);
		if (v < 0)
			return DNSSEC_EFORMAT;
		acc = (acc << 5 | (uint32_t)v) & 0x1fffu; /* 13 bits kept */
		bits += 5;
		if (bits >= 8) {
			bits -= 8;
			out[o++] = (uint8_t)(acc >> bits);
		}
	}
	if ((acc & ((1u << bits) - 1)) != 0) /* unused bits must be 0 */
		return DNSSEC_EFORMAT;
	*outlen = o;
	return DNSSEC_OK;
}
