/*
 * resolver/wire/wire_rdata.c - the layout checks of the DNSSEC types'
 * RDATA (RRSIG, DNSKEY, CDNSKEY, DS, CDS, NSEC, NSEC3, NSEC3PARAM): the
 * one definition of "does not parse" that the iterator applies to every
 * upstream record and the record text (rrtext_dnssec.c) renders by.
 *
 * Design note: a record that fails here makes its whole reply bad (the
 * iterator asks the next server), so what passes is what dig and
 * dnspython read: every field present, names uncompressed (RFC 4034
 * section 6.2, RFC 3597 section 4) and inside the RDATA, a DS digest of
 * the length its digest type gives, type bitmaps in canonical form.
 */
#include "config.h"

#include <stdint.h>

#include "wire.h"

/** DS and DNSKEY: key tag or flags (2), algorithm or protocol (1),
 *  digest type or algorithm (1), then the digest or key (RFC 4034
 *  sections 2.1 and 5.1). */
#define RDATA_KEY_FIXED_BYTES 4
/** RRSIG before the signer's name (RFC 4034 section 3.1). */
#define RDATA_RRSIG_FIXED_BYTES 18
/** NSEC3 and NSEC3PARAM before the salt: hash algorithm, flags,
 *  iterations (2), salt length (RFC 5155 sections 3.2 and 4.2). */
#define RDATA_NSEC3_FIXED_BYTES 5
/** Bytes of one type bitmap window at most (RFC 4034 section 4.1.2). */
#define RDATA_WINDOW_MAX 32
/** Types that live beside RRSIG in presentation only. */
#define RDATA_TYPE_NSEC3PARAM 51
#define RDATA_TYPE_CDS 59
#define RDATA_TYPE_CDNSKEY 60
/** DS digest types and their lengths (RFC 3658 s2.4 SHA-1, RFC 4509
 *  SHA-256, RFC 5933 GOST, RFC 6605 SHA-384); 0 is reserved (a CDS of
 *  digest type 0 is the one-byte delete request, RFC 8078 s4). */
#define RDATA_DIGEST_SHA1_BYTES 20
#define RDATA_DIGEST_SHA256_BYTES 32
#define RDATA_DIGEST_GOST_BYTES 32
#define RDATA_DIGEST_SHA384_BYTES 48
#define RDATA_DIGEST_DELETE_BYTES 1

bool wire_rdata_plain_name(const uint8_t *p, size_t n, size_t *pos)
{
	size_t i = *pos;

	while (i < n && p[i] != 0) {
		if (p[i] > WIRE_LABEL_MAX || i - *pos >= WIRE_NAME_MAX)
			return false;
		i += 1 + (size_t)p[i];
	}
	if (i >= n || i + 1 - *pos > WIRE_NAME_MAX)
		return false;
	*pos = i + 1;
	return true;
}

bool wire_rdata_bitmap_ok(const uint8_t *p, size_t n, size_t pos,
                          size_t types_max)
{
	size_t len, i, types = 0;
	int last = -1;

	while (pos < n) {
		if (n - pos < 2)
			return false;
		len = p[pos + 1];
		if ((int)p[pos] <= last || len == 0 ||
		    len > RDATA_WINDOW_MAX || len > n - pos - 2 ||
		    p[pos + 1 + len] == 0)
			return false;
		last = p[pos];
		for (i = 0; i < len; i++)
			types += (size_t)__builtin_popcount(p[pos + 2 + i]);
		pos += 2 + len;
	}
	return types <= types_max;
}

/* The digest length a DS (or CDS) digest type requires; 0: any but
 * empty (a type we do not know); SIZE_MAX: never valid. */
static size_t ds_digest_bytes(uint8_t dtype, bool cds)
{
	switch (dtype) {
	case 0: return cds ? RDATA_DIGEST_DELETE_BYTES : SIZE_MAX;
	case 1: return RDATA_DIGEST_SHA1_BYTES;
	case 2: return RDATA_DIGEST_SHA256_BYTES;
	case 3: return RDATA_DIGEST_GOST_BYTES;
	case 4: return RDATA_DIGEST_SHA384_BYTES;
	default: return 0;
	}
}

/* DS, CDS: the fixed part, a digest of its type's length. */
static bool ds_ok(const uint8_t *p, size_t n, bool cds)
{
	size_t want;

	if (n <= RDATA_KEY_FIXED_BYTES)
		return false;
	want = ds_digest_bytes(p[3], cds);
	return want == 0 || n - RDATA_KEY_FIXED_BYTES == want;
}

/* RRSIG: the fixed part, an uncompressed signer, a signature. */
static bool rrsig_ok(const uint8_t *p, size_t n)
{
	size_t pos = RDATA_RRSIG_FIXED_BYTES;

	return n > pos && wire_rdata_plain_name(p, n, &pos) && pos < n;
}

/* NSEC: an uncompressed next name and a bitmap that is not empty (it
 * holds NSEC itself, RFC 4034 section 4.1.2). */
static bool nsec_ok(const uint8_t *p, size_t n, size_t types_max)
{
	size_t pos = 0;

	return wire_rdata_plain_name(p, n, &pos) && pos < n &&
	       wire_rdata_bitmap_ok(p, n, pos, types_max);
}

size_t wire_rdata_nsec3_params(const uint8_t *p, size_t n)
{
	size_t salt;

	if (n < RDATA_NSEC3_FIXED_BYTES)
		return 0;
	salt = p[RDATA_NSEC3_FIXED_BYTES - 1];
	if (salt > n - RDATA_NSEC3_FIXED_BYTES)
		return 0;
	return RDATA_NSEC3_FIXED_BYTES + salt;
}

/* NSEC3: parameters, a hash that is not empty, a bitmap (may be empty:
 * an empty non-terminal). */
static bool nsec3_ok(const uint8_t *p, size_t n, size_t types_max)
{
	size_t pos = wire_rdata_nsec3_params(p, n), hash;

	if (pos == 0 || pos >= n)
		return false;
	hash = p[pos++];
	return hash != 0 && hash <= n - pos &&
	       wire_rdata_bitmap_ok(p, n, pos + hash, types_max);
}

int wire_rdata_check(uint16_t type, const uint8_t *p, size_t n)
{
	bool ok;

	switch (type) {
	case WIRE_TYPE_RRSIG: ok = rrsig_ok(p, n); break;
	case WIRE_TYPE_DNSKEY:
	case RDATA_TYPE_CDNSKEY: ok = n > RDATA_KEY_FIXED_BYTES; break;
	case WIRE_TYPE_DS: ok = ds_ok(p, n, false); break;
	case RDATA_TYPE_CDS: ok = ds_ok(p, n, true); break;
	case WIRE_TYPE_NSEC: ok = nsec_ok(p, n, SIZE_MAX); break;
	case WIRE_TYPE_NSEC3: ok = nsec3_ok(p, n, SIZE_MAX); break;
	case RDATA_TYPE_NSEC3PARAM:
		ok = wire_rdata_nsec3_params(p, n) == n && n != 0;
		break;
	default: return WIRE_OK;
	}
	return ok ? WIRE_OK : WIRE_ERDATA;
}
