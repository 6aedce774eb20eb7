/*
 * resolver/store/cachefile_int.h - what cachefile.c (dump, load) and
 * cachefile_rdata.c (RDATA text) share: the bounded tokenizer of one
 * presentation line. Nobody else may include it.
 */
#ifndef CURVECACHE_RESOLVER_CACHEFILE_INT_H
#define CURVECACHE_RESOLVER_CACHEFILE_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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

#endif /* CURVECACHE_RESOLVER_CACHEFILE_INT_H */
