/*
 * resolver/store/cachefile_dnssec.c - the RDATA text of the DNSSEC types
 * read back (see cachefile_int.h): what resolver/wire/rrtext_dnssec.c
 * prints for RRSIG, DNSKEY, CDNSKEY, DS, CDS, NSEC, NSEC3 and NSEC3PARAM,
 * in dig's form; base64 and hex in any grouping, RRSIG times as
 * YYYYMMDDHHmmSS or seconds. Each text gives one RDATA, the one it was
 * printed from: a type bitmap is rebuilt in its canonical form, and
 * non-canonical base64 or base32hex (stray bits set) is refused.
 */
#include <string.h>

#include "cachefile.h"
#include "cachefile_int.h"
#include "wire/b64.h"
#include "wire/rrtext.h"
#include "wire/wire.h"

/** Longest NSEC3 salt and next hashed owner (one length byte). */
#define CF_HASH_MAX 255
/** Bytes of a bitmap of every type: one bit per type. */
#define CF_BITMAP_BYTES (65536 / 8)
/** Windows of a type bitmap, bytes of one (RFC 4034 4.1.2). */
#define CF_WINDOWS 256
#define CF_WINDOW_BYTES 32
/** Bits of a base32hex digit (RFC 4648). */
#define CF_B32_BITS 5

/* ------------------------------------------------------------------ */
/* Encodings                                                           */

/* The rest of the line as base64 (RFC 4648 section 4, padded, in any
 * grouping), at least one byte, into o. */
static int cf_b64_rest(struct cf_cur *c, struct cf_out *o)
{
	struct b64 s;
	struct cf_tok t;
	uint8_t byte = 0;
	size_t i;
	int rc;

	b64_start(&s, B64_STD);
	while (cf_next(c, &t) == CF_TOKEN)
		for (i = 0; i < t.len; i++) {
			if (t.quoted ||
			    (rc = b64_char(&s, t.p[i], &byte)) == B64_EBAD)
				return CACHEFILE_ERDATA;
			if (rc == B64_BYTE)
				cf_put(o, &byte, 1);
		}
	return b64_whole_padded(&s) ? CACHEFILE_OK : CACHEFILE_ERDATA;
}

static int cf_b32val(char ch)
{
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch >= 'A' && ch <= 'V')
		return ch - 'A' + 10;
	if (ch >= 'a' && ch <= 'v')
		return ch - 'a' + 10;
	return -1;
}

/* A base32hex token (RFC 4648 section 7, no padding) into out; *n its
 * bytes. Only the canonical text of some bytes is taken. */
static bool cf_b32(const struct cf_tok *t, uint8_t out[CF_HASH_MAX], size_t *n)
{
	uint32_t acc = 0;
	unsigned bits = 0;
	size_t i;
	int v;

	*n = 0;
	for (i = 0; i < t->len; i++) {
		if ((v = cf_b32val(t->p[i])) < 0)
			return false;
		acc = (acc << CF_B32_BITS | (uint32_t)v) & 0xfffu;
		bits += CF_B32_BITS;
		if (bits >= 8) {
			if (*n == CF_HASH_MAX)
				return false;
			bits -= 8;
			out[(*n)++] = (uint8_t)(acc >> bits);
		}
	}
	return !t->quoted && bits < CF_B32_BITS &&
	       (acc & ((1u << bits) - 1)) == 0;
}

/* ------------------------------------------------------------------ */
/* Fields                                                              */

/* A type mnemonic or TYPEnnn. */
static bool cf_type(const struct cf_tok *t, uint16_t *type)
{
	char w[CF_WORD_MAX];

	return cf_word(t, w, sizeof w) &&
	       rrtext_type_parse(w, type) == WIRE_OK;
}

/* An RRSIG time: YYYYMMDDHHmmSS or seconds. */
static int cf_time(struct cf_cur *c, struct cf_out *o)
{
	struct cf_tok t;
	uint32_t v;

	if (cf_next(c, &t) != CF_TOKEN || t.quoted ||
	    rrtext_time_parse(t.p, t.len, &v) != WIRE_OK)
		return CACHEFILE_ERDATA;
	cf_put_u32(o, v);
	return CACHEFILE_OK;
}

/* The rest of the line as type names, written as the canonical bitmap
 * (RFC 4034 4.1.2); *none: no type at all. */
static int cf_bitmap(struct cf_cur *c, struct cf_out *o, bool *none)
{
	uint8_t map[CF_BITMAP_BYTES];
	struct cf_tok t;
	uint16_t type;
	size_t w, len;

	memset(map, 0, sizeof map);
	*none = true;
	while (cf_next(c, &t) == CF_TOKEN) {
		if (!cf_type(&t, &type))
			return CACHEFILE_ERDATA;
		map[type / 8] |= (uint8_t)(0x80u >> type % 8);
		*none = false;
	}
	for (w = 0; w < CF_WINDOWS; w++) {
		const uint8_t *win = map + w * CF_WINDOW_BYTES;

		for (len = CF_WINDOW_BYTES; len > 0 && win[len - 1] == 0;
		     len--)
			;
		if (len == 0)
			continue;
		cf_put(o, (uint8_t[]){ (uint8_t)w, (uint8_t)len }, 2);
		cf_put(o, win, len);
	}
	return CACHEFILE_OK;
}

/* The hash algorithm, flags, iterations and salt of NSEC3 and
 * NSEC3PARAM (RFC 5155 3.3): "1 0 10 AABBCCDD", "-" for no salt. */
static int cf_nsec3_params(struct cf_cur *c, struct cf_out *o)
{
	struct cf_tok t;
	uint8_t salt[CF_HASH_MAX + 1];
	size_t n = 0, i;
	int rc = cf_u8(c, o), hi, lo;

	if (rc == CACHEFILE_OK)
		rc = cf_u8(c, o);
	if (rc == CACHEFILE_OK)
		rc = cf_u16(c, o);
	if (rc != CACHEFILE_OK)
		return rc;
	if (cf_next(c, &t) != CF_TOKEN || t.quoted)
		return CACHEFILE_ERDATA;
	if (t.len == 1 && t.p[0] == '-') {
		cf_put(o, (uint8_t[]){ 0 }, 1);
		return CACHEFILE_OK;
	}
	if (t.len == 0 || t.len % 2 != 0 || t.len > 2 * CF_HASH_MAX)
		return CACHEFILE_ERDATA; /* an empty salt is "-" */
	for (i = 0; i < t.len; i += 2) {
		if ((hi = cf_hexval(t.p[i])) < 0 ||
		    (lo = cf_hexval(t.p[i + 1])) < 0)
			return CACHEFILE_ERDATA;
		salt[++n] = (uint8_t)(hi << 4 | lo);
	}
	salt[0] = (uint8_t)n;
	cf_put(o, salt, n + 1);
	return CACHEFILE_OK;
}

/* ------------------------------------------------------------------ */
/* Types                                                               */

/* RRSIG (RFC 4034 3.2). */
static int cf_rrsig(struct cf_cur *c, struct cf_out *o)
{
	struct cf_tok t;
	uint16_t covered;
	int rc;

	if (cf_next(c, &t) != CF_TOKEN || !cf_type(&t, &covered))
		return CACHEFILE_ERDATA;
	cf_put_u16(o, covered);
	if ((rc = cf_u8(c, o)) != CACHEFILE_OK ||
	    (rc = cf_u8(c, o)) != CACHEFILE_OK ||
	    (rc = cf_u32(c, o)) != CACHEFILE_OK ||
	    (rc = cf_time(c, o)) != CACHEFILE_OK ||
	    (rc = cf_time(c, o)) != CACHEFILE_OK ||
	    (rc = cf_u16(c, o)) != CACHEFILE_OK ||
	    (rc = cf_name(c, o)) != CACHEFILE_OK)
		return rc;
	return cf_b64_rest(c, o);
}

/* DNSKEY, CDNSKEY (RFC 4034 2.2) and DS, CDS (5.3): 16, 8 and 8 bits,
 * then the key in base64 or the digest in hex, not empty. */
static int cf_key_or_ds(struct cf_cur *c, struct cf_out *o, bool ds)
{
	size_t n = 0;
	int rc = cf_u16(c, o);

	if (rc == CACHEFILE_OK)
		rc = cf_u8(c, o);
	if (rc == CACHEFILE_OK)
		rc = cf_u8(c, o);
	if (rc != CACHEFILE_OK)
		return rc;
	if (!ds)
		return cf_b64_rest(c, o);
	rc = cf_hex_rest(c, o, &n);
	return rc == CACHEFILE_OK && n == 0 ? CACHEFILE_ERDATA : rc;
}

/* NSEC (RFC 4034 4.2): the next name and at least one type. */
static int cf_nsec(struct cf_cur *c, struct cf_out *o)
{
	bool none;
	int rc = cf_name(c, o);

	if (rc == CACHEFILE_OK)
		rc = cf_bitmap(c, o, &none);
	return rc == CACHEFILE_OK && none ? CACHEFILE_ERDATA : rc;
}

/* NSEC3 (RFC 5155 3.3): parameters, the next hashed owner in base32hex,
 * the types (maybe none). */
static int cf_nsec3(struct cf_cur *c, struct cf_out *o)
{
	uint8_t hash[CF_HASH_MAX];
	struct cf_tok t;
	size_t n;
	bool none;
	int rc = cf_nsec3_params(c, o);

	if (rc != CACHEFILE_OK)
		return rc;
	if (cf_next(c, &t) != CF_TOKEN || !cf_b32(&t, hash, &n) || n == 0)
		return CACHEFILE_ERDATA;
	cf_put(o, (uint8_t[]){ (uint8_t)n }, 1);
	cf_put(o, hash, n);
	return cf_bitmap(c, o, &none);
}

int cf_dnssec(uint16_t type, struct cf_cur *c, struct cf_out *o)
{
	switch (type) {
	case WIRE_TYPE_RRSIG: return cf_rrsig(c, o);
	case WIRE_TYPE_DNSKEY:
	case RRTEXT_TYPE_CDNSKEY: return cf_key_or_ds(c, o, false);
	case WIRE_TYPE_DS:
	case RRTEXT_TYPE_CDS: return cf_key_or_ds(c, o, true);
	case WIRE_TYPE_NSEC: return cf_nsec(c, o);
	case WIRE_TYPE_NSEC3: return cf_nsec3(c, o);
	case RRTEXT_TYPE_NSEC3PARAM: return cf_nsec3_params(c, o);
	default: return CACHEFILE_ETYPE;
	}
}
