/*
 * resolver/wire/b64.h - one base64 decoder for both alphabets of RFC 4648:
 * base64 (s4: '+' and '/' for 62 and 63, the text of DNSKEY and RRSIG
 * records, resolver/store/cachefile_dnssec.c) and base64url (s5: '-' and
 * '_', DNS over HTTPS's ?dns=, resolver/front_tls/dohhttp.c). The alphabet
 * is an argument; the decoder goes a character at a time (a text may come
 * in pieces) or over a whole buffer. Pure: no allocation, never reads
 * or writes past the lengths given.
 */
#ifndef CURVECACHE_RESOLVER_WIRE_B64_H
#define CURVECACHE_RESOLVER_WIRE_B64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

/** The characters of 62 and 63: base64 (RFC 4648 s4), base64url (s5). */
#define B64_STD "+/"
#define B64_URL "-_"

/** b64_char's and b64_decode's results. */
enum b64_status {
	B64_EFULL = -2, /**< b64_decode: the bytes do not fit */
	B64_EBAD = -1,  /**< a character outside the alphabet, or after
	                     padding, or a length no encoding has */
	B64_MORE = 0,   /**< b64_char: no byte completed */
	B64_BYTE = 1,   /**< b64_char: a byte completed */
	B64_OK = 0      /**< b64_decode: decoded */
};

/** A text being decoded. */
struct b64 {
	const char *last; /**< the characters of 62 and 63 (B64_STD...) */
	uint32_t acc;     /**< bits not written yet */
	unsigned bits;
	size_t chars; /**< characters taken, padding included */
	unsigned pad; /**< '=' taken */
};

/**
 * Start decoding.
 * @param b: the state.
 * @param last: B64_STD or B64_URL (two characters).
 */
void b64_start(struct b64 *b, const char *last);

/**
 * Take one character: a digit of the alphabet, or '=' as padding (in
 * the last two places of a block of four; nothing but '=' after it).
 * @param b: the state.
 * @param ch: the character.
 * @param byte: receives the byte when one is completed.
 * @return B64_BYTE, B64_MORE or B64_EBAD.
 */
int b64_char(struct b64 *b, char ch, uint8_t *byte);

/**
 * Is the text taken a whole padded encoding in its canonical form: at
 * least one character, whole blocks of four, no stray bits set
 * (RFC 4648 s3.5)?
 */
bool b64_whole_padded(const struct b64 *b);

/**
 * Decode a text without padding (a length of 4n + 1 is refused; the
 * stray bits of the last character are not checked, as RFC 8484 asks
 * nothing of them).
 * @param last: B64_STD or B64_URL.
 * @param in, inlen: the text.
 * @param out, cap: the destination.
 * @param outlen: receives the bytes decoded (0 on failure).
 * @return B64_OK, B64_EBAD or B64_EFULL.
 */
int b64_decode(const char *last, const char *in, size_t inlen, uint8_t *out,
               size_t cap, size_t *outlen) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_WIRE_B64_H */
