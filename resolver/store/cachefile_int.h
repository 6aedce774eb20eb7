/*
 * resolver/store/cachefile_int.h - what cachefile.c (dump),
 * cachefile_load.c (load), cachefile_rdata.c (RDATA text) and
 * cachefile_dnssec.c (RDATA text of the DNSSEC types) and
 * cachefile_unbound.c (the lines of Unbound's dump) share: the names of
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

/* ---- Unbound's dump (cachefile_unbound.c) ---- */

/** Where in an Unbound dump the reader is. */
enum cf_ub_where {
	CF_UB_RRSETS = 0, /**< the RRset part (after START_RRSET_CACHE) */
	CF_UB_BETWEEN,    /**< after END_RRSET_CACHE or END_MSG_CACHE */
	CF_UB_MSGS,       /**< the message part: skipped */
	CF_UB_DONE        /**< after EOF: the rest is ignored */
};

/** The reader of an Unbound dump (zeroed: at the RRset part). */
struct cf_ub {
	enum cf_ub_where where;
	uint32_t ttl;  /**< of the RRset being read */
	uint32_t rrs;  /**< its record lines still to come */
	uint32_t sigs; /**< then its RRSIG lines */
	uint8_t rank;  /**< its enum cache_rank */
	uint8_t sec;   /**< its enum cache_sec: unchecked or insecure */
	bool drop;     /**< its lines are skipped (bogus, or bad) */
	bool cut;      /**< an RRset ended with lines missing: set by
	                    cf_ub_next and cf_ub_finish, cleared by the
	                    caller */
};

/** What one line of an Unbound dump is. */
enum cf_ub_line {
	CF_UB_SKIP = 0, /**< nothing to store */
	CF_UB_SET,      /**< ";rrset ...": an RRset begins (its shape in u) */
	CF_UB_RR,       /**< a record of the RRset */
	CF_UB_SIG,      /**< an RRSIG of the RRset */
	CF_UB_END,      /**< EOF: the dump ends */
	CF_UB_BAD       /**< a line that does not belong there (*why) */
};

/** Is line[0..len) the first line of an Unbound dump? */
bool cf_ub_first(const char *line, size_t len);

/**
 * Read one line (after the first) of an Unbound dump.
 * @param why: receives a reason for CF_UB_BAD (static), else NULL.
 */
enum cf_ub_line cf_ub_next(struct cf_ub *u, const char *line, size_t len,
                           const char **why);

/** The input's end: true if the open RRset was cut short (u->cut). */
bool cf_ub_finish(struct cf_ub *u);

#endif /* CURVECACHE_RESOLVER_CACHEFILE_INT_H */
