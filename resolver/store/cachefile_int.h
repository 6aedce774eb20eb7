/*
 * resolver/store/cachefile_int.h - what cachefile.c (dump),
 * cachefile_load.c (load), cachefile_rdata.c (RDATA text) and
 * cachefile_dnssec.c (RDATA text of the DNSSEC types) share: the names of
 * the comment's words, the bounded tokenizer of one presentation line and
 * the RDATA fields read from it. Nobody else may include it.
 */
#ifndef CURVECACHE_RESOLVER_CACHEFILE_INT_H
#define CURVECACHE_RESOLVER_CACHEFILE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/wire.h"

/** The header's first word. */
#define CF_MAGIC "curvecache-dump"
/** Bytes of a token copied out to be NUL-terminated (types, classes). */
#define CF_WORD_MAX 16
/** Largest TTL (RFC 2181 section 8). */
#define CF_TTL_MAX 0x7fffffffu
/** The comment of a line of an entry's DNSSEC image. */
#define CF_DNSSEC_WORD "dnssec"

/** Names of enum cache_rank (rank=) and enum cache_sec (sec=). */
#define CF_RANKS 5
#define CF_SECS 4
extern const char *const cf_rank_names[CF_RANKS];
extern const char *const cf_sec_names[CF_SECS];

/** A position in a line of text (not NUL-terminated). */
struct cf_cur {
	const char *p;
	size_t len;
	size_t pos;
};

/** One token: a view into the line, without the quotes. */
struct cf_tok {
	const char *p;
	size_t len;
	bool quoted;
};

/** What cf_next found. */
enum cf_next_result {
	CF_TOKEN = 0, /**< *t is the next token */
	CF_END,       /**< end of line, or a comment (';') begins here */
	CF_BAD        /**< unterminated quote or junk after one */
};

/**
 * The next blank-separated token. A '"' starts a quoted token running to
 * the next unescaped '"'; outside quotes a backslash keeps the next
 * character in the token and an unescaped ';' starts the comment. Reads
 * nothing at or past c->len.
 */
enum cf_next_result cf_next(struct cf_cur *c, struct cf_tok *t);

/**
 * Decode a character-string token (escapes \X and \DDD) into bytes.
 * @param out: receives at most cap bytes.
 * @return the length, or -1 if malformed or longer than cap.
 */
long cf_unescape(const struct cf_tok *t, uint8_t *out, size_t cap);

/**
 * Parse a decimal number (digits only) not above max.
 * @return true and *v on success.
 */
bool cf_number(const struct cf_tok *t, uint32_t max, uint32_t *v);

/**
 * Copy a token out as a NUL-terminated word (types, classes).
 * @return false if it is quoted or does not fit cap with its NUL.
 */
bool cf_word(const struct cf_tok *t, char *out, size_t cap);

/** Where parsed RDATA goes: the codec's bounded writer, and whether
 *  anything did not fit (checked once, at the end). */
struct cf_out {
	struct wire_writer w;
	bool over;
};

/** Append bytes, a 16-bit or a 32-bit field; on overflow set o->over
 *  and write no more. */
void cf_put(struct cf_out *o, const void *b, size_t n);
void cf_put_u16(struct cf_out *o, uint32_t v);
void cf_put_u32(struct cf_out *o, uint32_t v);

/**
 * Read the next field of the RDATA text into o: a name (uncompressed,
 * case kept), a decimal number of 32, 16 or 8 bits.
 * @return CACHEFILE_OK, CACHEFILE_ENAME or CACHEFILE_ERDATA (missing or
 *   malformed).
 */
int cf_name(struct cf_cur *c, struct cf_out *o);
int cf_u32(struct cf_cur *c, struct cf_out *o);
int cf_u16(struct cf_cur *c, struct cf_out *o);
int cf_u8(struct cf_cur *c, struct cf_out *o);

/** The value of a hex digit (either case), or -1. */
int cf_hexval(char h);

/**
 * The rest of the line as hex digits in any grouping into o.
 * @param n: receives the bytes written.
 * @return CACHEFILE_OK, or CACHEFILE_ERDATA (a quoted token, a non-hex
 *   character or an odd number of digits).
 */
int cf_hex_rest(struct cf_cur *c, struct cf_out *o, size_t *n);

/**
 * The RDATA text of a DNSSEC type, as rrtext prints it (RRSIG, DNSKEY,
 * CDNSKEY, DS, CDS, NSEC, NSEC3, NSEC3PARAM; cachefile_dnssec.c).
 * @return CACHEFILE_OK, CACHEFILE_ETYPE (not such a type),
 *   CACHEFILE_ENAME or CACHEFILE_ERDATA; the caller checks o->over and
 *   that the line ends.
 */
int cf_dnssec(uint16_t type, struct cf_cur *c, struct cf_out *o);

#endif /* CURVECACHE_RESOLVER_CACHEFILE_INT_H */
