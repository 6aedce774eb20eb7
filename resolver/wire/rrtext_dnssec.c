/*
 * resolver/wire/rrtext_dnssec.c - the DNSSEC types in presentation format,
 * as dig prints them (see rrtext.h and rrtext_int.h): RRSIG, DNSKEY and
 * CDNSKEY, DS and CDS, NSEC, NSEC3, NSEC3PARAM; and RRSIG times both ways.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "rrtext.h"
#include "rrtext_int.h"

/** Characters of base64 (and of hex) per blank-separated group, as dig
 *  breaks keys, signatures and digests on one line. */
#define B64_GROUP_CHARS 56
#define HEX_GROUP_BYTES (B64_GROUP_CHARS / 2)
/** Base64 and base32hex block sizes (RFC 4648). */
#define B64_IN 3
#define B64_OUT 4
#define B32_BITS 5
/** Calendar. */
#define SECS_PER_DAY 86400u
#define EPOCH_YEAR 1970u
#define TIME_YEAR_MIN 1901u
#define TIME_YEAR_MAX 2106u
#define MONTHS 12u
/** Digits of a 32-bit decimal. */
#define U32_DIGITS_MAX 10

static const char b64_digits[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
static const char b32hex_digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";

/* ------------------------------------------------------------------ */
/* Encodings                                                           */

/* Base64 (RFC 4648 section 4, padded), a blank every B64_GROUP_CHARS. */
static void put_base64(struct rrtext_tb *t, const uint8_t *p, size_t n)
{
	char q[B64_OUT];
	size_t i, k, out = 0;
	uint32_t v;

	for (i = 0; i < n; i += B64_IN) {
		k = n - i < B64_IN ? n - i : B64_IN;
		v = (uint32_t)p[i] << 16;
		if (k > 1)
			v |= (uint32_t)p[i + 1] << 8;
		if (k > 2)
			v |= p[i + 2];
		q[0] = b64_digits[v >> 18 & 0x3f];
		q[1] = b64_digits[v >> 12 & 0x3f];
		q[2] = k > 1 ? b64_digits[v >> 6 & 0x3f] : '=';
		q[3] = k > 2 ? b64_digits[v & 0x3f] : '=';
		if (out > 0 && out % B64_GROUP_CHARS == 0)
			rrtext_tb_putc(t, ' ');
		rrtext_tb_putn(t, q, B64_OUT);
		out += B64_OUT;
	}
}

/* Base32hex (RFC 4648 section 7), uppercase, no padding. */
static void put_base32hex(struct rrtext_tb *t, const uint8_t *p, size_t n)
{
	size_t i, bits = 0;
	uint32_t acc = 0;

	for (i = 0; i < n; i++) {
		acc = (acc << 8 | p[i]) & 0xfffu;
		bits += 8;
		while (bits >= B32_BITS) {
			bits -= B32_BITS;
			rrtext_tb_putc(t, b32hex_digits[acc >> bits & 0x1f]);
		}
	}
	if (bits > 0)
		rrtext_tb_putc(t,
		               b32hex_digits[acc << (B32_BITS - bits) & 0x1f]);
}

/* ------------------------------------------------------------------ */
/* Times                                                               */

static bool leap_year(unsigned y)
{
	return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static unsigned year_days(unsigned y)
{
	return leap_year(y) ? 366 : 365;
}

static unsigned month_days(unsigned y, unsigned m)
{
	static const uint8_t days[MONTHS] = { 31, 28, 31, 30, 31, 30,
		                              31, 31, 30, 31, 30, 31 };

	return m == 1 && leap_year(y) ? 29u : days[m];
}

/* An RRSIG time as YYYYMMDDHHmmSS, the field read as seconds since
 * 1970 (so years 1970-2106: each loop runs at most 137 and 12 times). */
static void put_time(struct rrtext_tb *t, uint32_t v)
{
	uint32_t days = v / SECS_PER_DAY, secs = v % SECS_PER_DAY;
	unsigned y = EPOCH_YEAR, m = 0;

	while (days >= year_days(y))
		days -= year_days(y++);
	while (days >= month_days(y, m))
		days -= month_days(y, m++);
	rrtext_tb_printf(t, "%04u%02u%02lu%02lu%02lu%02lu", y, m + 1,
	                 (unsigned long)days + 1, (unsigned long)secs / 3600,
	                 (unsigned long)secs / 60 % 60,
	                 (unsigned long)secs % 60);
}

/* n decimal digits of s as a number; false if any is not a digit. */
static bool digits(const char *s, size_t n, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return true;
}

/* Days from 1970-01-01 to y-m-d (m and d from 1; checked), negative
 * before 1970. */
static bool civil_days(unsigned y, unsigned m, unsigned d, int64_t *days)
{
	unsigned i;

	if (y < TIME_YEAR_MIN || y > TIME_YEAR_MAX || m < 1 || m > MONTHS ||
	    d < 1 || d > month_days(y, m - 1))
		return false;
	*days = 0;
	for (i = EPOCH_YEAR; i < y; i++)
		*days += year_days(i);
	for (i = y; i < EPOCH_YEAR; i++)
		*days -= year_days(i);
	for (i = 0; i + 1 < m; i++)
		*days += month_days(y, i);
	*days += d - 1;
	return true;
}

int rrtext_time_parse(const char *s, size_t n, uint32_t *out)
{
	uint64_t y, mo, d, h, mi, sec, v;
	int64_t days;

	if (s == NULL || out == NULL)
		return WIRE_ETEXT;
	if (n != RRTEXT_TIME_CHARS) {
		if (n == 0 || n > U32_DIGITS_MAX || !digits(s, n, &v) ||
		    v > UINT32_MAX)
			return WIRE_ETEXT;
		*out = (uint32_t)v;
		return WIRE_OK;
	}
	if (!digits(s, 4, &y) || !digits(s + 4, 2, &mo) ||
	    !digits(s + 6, 2, &d) || !digits(s + 8, 2, &h) ||
	    !digits(s + 10, 2, &mi) || !digits(s + 12, 2, &sec) || h > 23 ||
	    mi > 59 || sec > 59 ||
	    !civil_days((unsigned)y, (unsigned)mo, (unsigned)d, &days))
		return WIRE_ETEXT;
	/* modulo 2^32: before 1970 is the serial number a dig date means */
	*out = (uint32_t)(uint64_t)(days * (int64_t)SECS_PER_DAY +
	                            (int64_t)(h * 3600 + mi * 60 + sec));
	return WIRE_OK;
}

/* ------------------------------------------------------------------ */
/* Fields                                                              */

/* An uncompressed name at *pos (RFC 4034 and 6840 forbid compression in
 * RRSIG and NSEC) as text; advances *pos. */
static bool put_plain_name(struct rrtext_tb *t, const uint8_t *p, size_t n,
                           size_t *pos)
{
	char text[WIRE_NAME_TEXT_MAX];
	size_t i = *pos;

	if (!wire_rdata_plain_name(p, n, &i) ||
	    wire_name_to_text(p + *pos, i - *pos, text, sizeof text, NULL) !=
	            WIRE_OK)
		return false;
	rrtext_tb_puts(t, text);
	*pos = i;
	return true;
}

/* Is the bitmap at [pos, n) canonical with at most
 * RRTEXT_BITMAP_TYPES_MAX types? (wire_rdata_bitmap_ok) */
static bool bitmap_ok(const uint8_t *p, size_t n, size_t pos)
{
	return wire_rdata_bitmap_ok(p, n, pos, RRTEXT_BITMAP_TYPES_MAX);
}

/* The types of a checked bitmap, each after a blank. */
static void put_bitmap(struct rrtext_tb *t, const uint8_t *p, size_t n,
                       size_t pos)
{
	char nbuf[RRTEXT_NAME_MAX];
	size_t len, bit;
	unsigned type;

	for (; pos < n; pos += 2 + len) {
		len = p[pos + 1];
		for (bit = 0; bit < len * 8; bit++) {
			if (!(p[pos + 2 + bit / 8] & (0x80u >> bit % 8)))
				continue;
			type = (unsigned)p[pos] << 8 | (unsigned)bit;
			rrtext_tb_putc(t, ' ');
			rrtext_tb_puts(t,
			               rrtext_type_name((uint16_t)type, nbuf));
		}
	}
}

/* ------------------------------------------------------------------ */
/* Types                                                               */

/* RRSIG (RFC 4034 3.2): "A 8 3 300 20261231000000 20261201000000 12345
 * example. BASE64". */
static int rd_rrsig(struct rrtext_tb *t, const uint8_t *p, size_t n)
{
	char nbuf[RRTEXT_NAME_MAX];
	uint16_t covered, tag;
	uint8_t alg, labels;
	uint32_t ottl, expire, incept;
	size_t pos = 0;

	if (wire_read_u16(p, n, &pos, &covered) != WIRE_OK ||
	    wire_read_u8(p, n, &pos, &alg) != WIRE_OK ||
	    wire_read_u8(p, n, &pos, &labels) != WIRE_OK ||
	    wire_read_u32(p, n, &pos, &ottl) != WIRE_OK ||
	    wire_read_u32(p, n, &pos, &expire) != WIRE_OK ||
	    wire_read_u32(p, n, &pos, &incept) != WIRE_OK ||
	    wire_read_u16(p, n, &pos, &tag) != WIRE_OK)
		return WIRE_ERDATA;
	rrtext_tb_printf(t, "%s %u %u %lu ", rrtext_type_name(covered, nbuf),
	                 alg, labels, (unsigned long)ottl);
	put_time(t, expire);
	rrtext_tb_putc(t, ' ');
	put_time(t, incept);
	rrtext_tb_printf(t, " %u ", (unsigned)tag);
	if (!put_plain_name(t, p, n, &pos) || pos >= n)
		return WIRE_ERDATA; /* no signature */
	rrtext_tb_putc(t, ' ');
	put_base64(t, p + pos, n - pos);
	return WIRE_OK;
}

/* DNSKEY, CDNSKEY (RFC 4034 2.2): "257 3 13 BASE64"; DS, CDS (5.3):
 * "12345 13 2 HEX": three numbers of 2, 1 and 1 bytes, then the key or
 * the digest (not empty; a digest of its type's length: wire_rdata_check). */
static int rd_key_or_ds(struct rrtext_tb *t, uint16_t type, const uint8_t *p,
                        size_t n, bool ds)
{
	if (wire_rdata_check(type, p, n) != WIRE_OK)
		return WIRE_ERDATA;
	rrtext_tb_printf(t, "%u %u %u ", (unsigned)(p[0] << 8 | p[1]), p[2],
	                 p[3]);
	if (ds)
		rrtext_tb_hex(t, p + 4, n - 4, HEX_GROUP_BYTES);
	else
		put_base64(t, p + 4, n - 4);
	return WIRE_OK;
}

/* NSEC (RFC 4034 4.2): "next. A NS RRSIG NSEC". */
static int rd_nsec(struct rrtext_tb *t, const uint8_t *p, size_t n)
{
	size_t pos = 0;

	if (!put_plain_name(t, p, n, &pos) || pos >= n ||
	    !bitmap_ok(p, n, pos))
		return WIRE_ERDATA;
	put_bitmap(t, p, n, pos);
	return WIRE_OK;
}

/* "1 0 10 SALT" of NSEC3 and NSEC3PARAM (RFC 5155 3.3, 4.3): hash
 * algorithm, flags, iterations, the salt in hex or "-"; *pos past it. */
static bool put_nsec3_params(struct rrtext_tb *t, const uint8_t *p, size_t n,
                             size_t *pos)
{
	size_t end = wire_rdata_nsec3_params(p, n);

	if (end == 0)
		return false;
	rrtext_tb_printf(t, "%u %u %u ", p[0], p[1],
	                 (unsigned)(p[2] << 8 | p[3]));
	if (end == 5)
		rrtext_tb_putc(t, '-');
	rrtext_tb_hex(t, p + 5, end - 5, 0);
	*pos = end;
	return true;
}

/* NSEC3 (RFC 5155 3.3): "1 1 12 AABBCCDD 2T7B4G4V... NS SOA RRSIG"; the
 * bitmap may be empty (an empty non-terminal). */
static int rd_nsec3(struct rrtext_tb *t, const uint8_t *p, size_t n)
{
	size_t pos, hash;

	if (!put_nsec3_params(t, p, n, &pos) || pos >= n)
		return WIRE_ERDATA;
	hash = p[pos++];
	if (hash == 0 || hash > n - pos || !bitmap_ok(p, n, pos + hash))
		return WIRE_ERDATA;
	rrtext_tb_putc(t, ' ');
	put_base32hex(t, p + pos, hash);
	put_bitmap(t, p, n, pos + hash);
	return WIRE_OK;
}

/* NSEC3PARAM (RFC 5155 4.3): "1 0 0 -". */
static int rd_nsec3param(struct rrtext_tb *t, const uint8_t *p, size_t n)
{
	size_t pos;

	if (!put_nsec3_params(t, p, n, &pos) || pos != n)
		return WIRE_ERDATA;
	return WIRE_OK;
}

int rrtext_dnssec_rdata(struct rrtext_tb *t, uint16_t type, const uint8_t *p,
                        size_t n)
{
	if (p == NULL)
		return WIRE_ERDATA;
	switch (type) {
	case WIRE_TYPE_RRSIG: return rd_rrsig(t, p, n);
	case WIRE_TYPE_DNSKEY:
	case RRTEXT_TYPE_CDNSKEY: return rd_key_or_ds(t, type, p, n, false);
	case WIRE_TYPE_DS:
	case RRTEXT_TYPE_CDS: return rd_key_or_ds(t, type, p, n, true);
	case WIRE_TYPE_NSEC: return rd_nsec(t, p, n);
	case WIRE_TYPE_NSEC3: return rd_nsec3(t, p, n);
	case RRTEXT_TYPE_NSEC3PARAM: return rd_nsec3param(t, p, n);
	default: return WIRE_ERDATA;
	}
}
