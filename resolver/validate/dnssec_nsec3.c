/*
 * resolver/validate/dnssec_nsec3.c - NSEC3 owner hashes (RFC 5155 section
 * 5) and base32hex (RFC 4648 section 7), the form of NSEC3 owner labels.
 *
 * The iteration count comes from the network and each iteration is one
 * SHA-1: the caller's cap is checked before anything is hashed
 * (CVE-2023-50868; RFC 9276 section 3.2).
 */
#include "dnssec.h"

#include <string.h>

#include <openssl/evp.h>

/** The largest NSEC3 salt (a one-byte length field). */
#define NSEC3_SALT_MAX 255

static const char b32hex_alphabet[] = "0123456789abcdefghijklmnopqrstuv";

int dnssec_nsec3_hash(uint8_t hash_alg, uint16_t iterations,
                      unsigned max_iterations, const uint8_t *salt,
                      size_t saltlen, const uint8_t *name, size_t namelen,
                      uint8_t out[DNSSEC_NSEC3_HASH_BYTES])
{
	uint8_t lower[WIRE_NAME_MAX];
	const uint8_t *in = lower;
	size_t inlen = namelen;
	unsigned i, n = 0;
	EVP_MD_CTX *ctx;
	int ok = 1;

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
	ctx = EVP_MD_CTX_new();
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
