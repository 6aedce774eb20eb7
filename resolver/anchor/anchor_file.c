/*
 * resolver/anchor/anchor_file.c - trust anchors in zone-file form, the
 * text of anchors_add_file (trust-anchor-file:, auto-trust-anchor-file:,
 * Debian's /usr/share/dns/root.key) and anchors_add_text (trust-anchor:
 * "RR"), both in anchor.c. Each DS or DNSKEY record read goes to the
 * set through anchors_add_rr (anchor.c).
 *
 * The subset of RFC 1035 section 5.1 that anchors need:
 *
 *   $ORIGIN example.          ; later relative owners end in it
 *   $TTL 3600                 ; read and checked, not used
 *   .    IN DS 20326 8 2 E06D44B8...    ; owner, [TTL] [IN], type, RDATA
 *   @ 3600 IN DNSKEY 257 3 8 ( AwEAAaz/tAm8y...   ; over several lines
 *                             ...R1AkUTV74bU= )   ; in parentheses
 *        IN DNSKEY 256 3 8 AwEAA...     ; a leading blank: the owner above
 *
 * Owners: absolute ("a.b."), "@" (the origin) or relative to $ORIGIN; a
 * trust-anchor: option holds one record and its owner must be absolute.
 * TTL and class in either order; the class must be IN. Algorithms as
 * numbers or mnemonics (RSASHA256). DS digests in hex, DNSKEY keys in
 * base64 (RFC 4648, padded), both with blanks allowed inside. Records of
 * other types are skipped, as Unbound does with a full zone file; a name
 * that is no type is an error (a typo must not drop a key). A DNSKEY
 * with the REVOKE bit (RFC 5011 section 2.1) is read and not used: a
 * revoked key is never an anchor. A DNSKEY must have protocol 3; a DS
 * of digest type 1, 2 or 4 must have 20, 32 or 48 bytes of digest; an
 * unknown algorithm or digest type is kept (the validator treats the
 * zone as insecure, never bogus).
 *
 * Bounds: a file is read whole first (anchor.c); every token is a (pointer,
 * length) into that text and every read checks the position against its
 * length; RDATA is built in ANCHOR_RDATA_MAX bytes and a longer one is an
 * error. Each message is "FILE:LINE: what" (the line of the token at fault)
 * or, for the option, "trust-anchor \"TEXT\": what".
 */
#include "anchor.h"
#include "anchor_int.h"
#include "validate/dnssec.h"
#include "wire/rrtext.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

/** Characters of base64 for the longest key a DNSKEY RDATA holds. */
#define ANCHOR_B64_MAX \
	(((ANCHOR_RDATA_MAX - DNSSEC_DNSKEY_FIXED_BYTES + 2) / 3) * 4)
/** Characters of a token repeated in a message. */
#define ANCHOR_TOKEN_QUOTE 40
/** The largest TTL (RFC 2181 section 8). */
#define ANCHOR_TTL_MAX 2147483647ul

/** One token: a pointer into the text and its length. */
struct tok {
	const char *p;
	size_t n;
};

/* A token, quoted for a message (at most ANCHOR_TOKEN_QUOTE chars). */
#define TOK_FMT "\"%.*s\""
#define TOK_ARG(t) \
	(int)((t)->n > ANCHOR_TOKEN_QUOTE ? ANCHOR_TOKEN_QUOTE : (t)->n), \
		(t)->p

/* ------------------------------------------------------------------ */
/* Tokens                                                              */

static bool is_delim(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == ';' ||
	       c == '(' || c == ')' || c == '\0';
}

/* Blanks, comments, parentheses and (inside parentheses) newlines before
 * the next token. 1: a token starts at pos, 0: the record ends here (a
 * newline outside parentheses, or the end of the text), -1: error. */
static int tok_skip(struct anchor_text *z)
{
	while (z->pos < z->len) {
		char c = z->text[z->pos];

		z->tokline = z->line;
		if (c == ' ' || c == '\t' || c == '\r') {
			z->pos++;
		} else if (c == ';') {
			while (z->pos < z->len && z->text[z->pos] != '\n')
				z->pos++;
		} else if (c == '\n' && z->paren) {
			z->pos++;
			z->line++;
		} else if (c == '\n') {
			return 0;
		} else if (c == '\0') {
			return anchor_text_fail(z, ANCHOR_ESYNTAX, "NUL byte");
		} else if (c == '(' && z->paren) {
			return anchor_text_fail(z, ANCHOR_ESYNTAX,
			                        "'(' inside '('");
		} else if (c == ')' && !z->paren) {
			return anchor_text_fail(z, ANCHOR_ESYNTAX,
			                        "')' without '('");
		} else if (c == '(' || c == ')') {
			z->paren = c == '(';
			z->parenline = z->line;
			z->pos++;
		} else {
			return 1;
		}
	}
	if (z->paren) {
		z->tokline = z->parenline;
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "'(' is never closed");
	}
	return 0;
}

/* The next token of the record: 1 (in *t), 0 at its end, -1 error. A
 * backslash keeps the character after it in the token ("\;", "\ "). */
static int tok_next(struct anchor_text *z, struct tok *t)
{
	int r = tok_skip(z);

	if (r != 1)
		return r;
	t->p = z->text + z->pos;
	while (z->pos < z->len && !is_delim(z->text[z->pos])) {
		if (z->text[z->pos] == '\\' && z->pos + 1 < z->len &&
		    z->text[z->pos + 1] != '\n' && z->text[z->pos + 1] != '\0')
			z->pos++;
		z->pos++;
	}
	t->n = (size_t)(z->text + z->pos - t->p);
	return 1;
}

/* The next token, which must be there ("what" names it if not). */
static int tok_need(struct anchor_text *z, struct tok *t, const char *what)
{
	int r = tok_next(z, t);

	if (r == 0)
		return anchor_text_fail(z, ANCHOR_ESYNTAX, "no %s", what);
	return r == 1 ? 0 : -1;
}

/* No token may be left in the record. */
static int tok_end(struct anchor_text *z)
{
	struct tok t;
	int r = tok_next(z, &t);

	if (r == 1)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "unexpected " TOK_FMT, TOK_ARG(&t));
	return r;
}

/* Skip blank lines and comment lines up to the next record. 1: a record
 * starts at pos, and *owner_given says whether its line starts with a
 * token (not a blank); 0: the end of the text. */
static int rec_begin(struct anchor_text *z, bool *owner_given)
{
	while (z->pos < z->len) {
		size_t p = z->pos;

		while (p < z->len &&
		       (z->text[p] == ' ' || z->text[p] == '\t' ||
		        z->text[p] == '\r'))
			p++;
		if (p < z->len && z->text[p] == ';')
			while (p < z->len && z->text[p] != '\n')
				p++;
		if (p < z->len && z->text[p] == '\n') {
			z->pos = p + 1;
			z->line++;
			continue;
		}
		if (p >= z->len)
			break;
		*owner_given = p == z->pos;
		z->pos = p;
		z->tokline = z->line;
		return 1;
	}
	z->pos = z->len;
	return 0;
}

/* After a record: past its newline. */
static void rec_finish(struct anchor_text *z)
{
	if (z->pos < z->len && z->text[z->pos] == '\n') {
		z->pos++;
		z->line++;
	}
}

/* ------------------------------------------------------------------ */
/* Fields                                                              */

static bool all_digits(const struct tok *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!isdigit((unsigned char)t->p[i]))
			return false;
	return t->n > 0;
}

/* A decimal number of at most max. */
static int num_parse(struct anchor_text *z, const struct tok *t,
                     unsigned long max, const char *what, unsigned long *out)
{
	uint64_t v = 0;
	size_t i;
	bool ok = all_digits(t);

	for (i = 0; ok && i < t->n && v <= max; i++)
		v = v * 10 + (uint64_t)(t->p[i] - '0');
	if (!ok || v > max)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "%s " TOK_FMT
		                        ": want a number from 0 to %lu",
		                        what, TOK_ARG(t), max);
	*out = (unsigned long)v;
	return 0;
}

/* Does the token spell word (any case)? */
static bool tok_is(const struct tok *t, const char *word)
{
	return t->n == strlen(word) && strncasecmp(t->p, word, t->n) == 0;
}

/* An algorithm: a number, or a mnemonic of RFC 8624 section 2. */
static int alg_parse(struct anchor_text *z, const struct tok *t, uint8_t *out)
{
	static const struct {
		const char *name;
		uint8_t alg;
	} names[] = {
		{ "RSAMD5", 1 },
		{ "DSA", 3 },
		{ "RSASHA1", DNSSEC_ALG_RSASHA1 },
		{ "DSA-NSEC3-SHA1", 6 },
		{ "RSASHA1-NSEC3-SHA1", DNSSEC_ALG_RSASHA1_NSEC3 },
		{ "RSASHA256", DNSSEC_ALG_RSASHA256 },
		{ "RSASHA512", DNSSEC_ALG_RSASHA512 },
		{ "ECC-GOST", 12 },
		{ "ECDSAP256SHA256", DNSSEC_ALG_ECDSAP256 },
		{ "ECDSAP384SHA384", DNSSEC_ALG_ECDSAP384 },
		{ "ED25519", DNSSEC_ALG_ED25519 },
		{ "ED448", DNSSEC_ALG_ED448 },
	};
	unsigned long v;
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (tok_is(t, names[i].name)) {
			*out = names[i].alg;
			return 0;
		}
	}
	if (num_parse(z, t, UINT8_MAX, "algorithm", &v) != 0)
		return -1;
	*out = (uint8_t)v;
	return 0;
}

/* Does a name in text end with an unescaped dot (absolute)? */
static bool text_absolute(const char *s, size_t n)
{
	size_t i = 0;
	bool dot = false;

	while (i < n) {
		dot = false;
		if (s[i] == '\\')
			i += i + 1 < n && isdigit((unsigned char)s[i + 1]) ?
			             4 :
			             2;
		else
			dot = s[i++] == '.';
	}
	return dot;
}

/* A name of the text: absolute, "@" (the origin) or relative to the
 * origin (files only); lowercase wire form in out. */
static int name_parse(struct anchor_text *z, const struct tok *t,
                      const char *what, uint8_t out[WIRE_NAME_MAX],
                      size_t *outlen)
{
	uint8_t rel[WIRE_NAME_MAX];
	size_t rellen;
	bool at = tok_is(t, "@"), abs = !at && text_absolute(t->p, t->n);

	if (!abs && z->file == NULL)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "%s " TOK_FMT
		                        " is not absolute (end it with '.')",
		                        what, TOK_ARG(t));
	if (!abs && z->originlen == 0)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "%s " TOK_FMT
		                        " is relative and no $ORIGIN is set",
		                        what, TOK_ARG(t));
	if (at) {
		memcpy(out, z->origin, z->originlen);
		*outlen = z->originlen;
		return 0;
	}
	if (wire_name_from_text(t->p, t->n, abs ? out : rel,
	                        abs ? outlen : &rellen) != WIRE_OK)
		return anchor_text_fail(z, ANCHOR_ESYNTAX, "bad %s " TOK_FMT,
		                        what, TOK_ARG(t));
	if (!abs) {
		/* the relative labels (less their root), then the origin */
		if (rellen - 1 + z->originlen > WIRE_NAME_MAX)
			return anchor_text_fail(z, ANCHOR_ESYNTAX,
			                        "%s " TOK_FMT
			                        " with $ORIGIN is too long",
			                        what, TOK_ARG(t));
		/* out may be z->origin itself ($ORIGIN relative): the
		 * origin moves first, then the labels go before it */
		memmove(out + rellen - 1, z->origin, z->originlen);
		memcpy(out, rel, rellen - 1);
		*outlen = rellen - 1 + z->originlen;
	}
	wire_name_lower(out, *outlen);
	return 0;
}

/* Is the token a class? 1 (the class in *c), 0 (not a class). */
static int class_of(const struct tok *t, unsigned long *c)
{
	struct tok num;

	if (tok_is(t, "IN") || tok_is(t, "CS") || tok_is(t, "CH") ||
	    tok_is(t, "HS")) {
		*c = tok_is(t, "IN") ? WIRE_CLASS_IN : 0;
		return 1;
	}
	if (t->n <= 5 || strncasecmp(t->p, "CLASS", 5) != 0)
		return 0;
	num.p = t->p + 5;
	num.n = t->n - 5;
	if (!all_digits(&num) || num.n > 5)
		return 0;
	*c = strtoul(num.p, NULL, 10);
	return 1;
}

/* [TTL] [class] TYPE, TTL and class in either order. */
static int rr_head(struct anchor_text *z, uint16_t *type)
{
	bool ttl = false, cls = false;
	char word[RRTEXT_NAME_MAX];
	unsigned long v;
	struct tok t;

	for (;;) {
		if (tok_need(z, &t, "type") != 0)
			return -1;
		if (!ttl && all_digits(&t)) {
			if (num_parse(z, &t, ANCHOR_TTL_MAX, "TTL", &v) != 0)
				return -1;
			ttl = true;
		} else if (!cls && class_of(&t, &v)) {
			if (v != WIRE_CLASS_IN)
				return anchor_text_fail(z, ANCHOR_ESYNTAX,
				                        "class " TOK_FMT
				                        ": trust anchors are "
				                        "class IN",
				                        TOK_ARG(&t));
			cls = true;
		} else {
			break;
		}
	}
	if (t.n >= sizeof word)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "unknown type " TOK_FMT, TOK_ARG(&t));
	memcpy(word, t.p, t.n);
	word[t.n] = '\0';
	if (rrtext_type_parse(word, type) != WIRE_OK)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "unknown type " TOK_FMT, TOK_ARG(&t));
	return 0;
}

/* ------------------------------------------------------------------ */
/* RDATA: DS and DNSKEY                                                */

static int hex_val(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = (char)tolower((unsigned char)c);
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The rest of the record as hex (a DS digest) into out (cap bytes). */
static int rest_hex(struct anchor_text *z, uint8_t *out, size_t cap,
                    size_t *outlen)
{
	size_t digits = 0, i;
	struct tok t;
	int r;

	while ((r = tok_next(z, &t)) == 1) {
		for (i = 0; i < t.n; i++) {
			int v = hex_val(t.p[i]);

			if (v < 0)
				return anchor_text_fail(z, ANCHOR_ESYNTAX,
				                        "digest " TOK_FMT
				                        ": not hex",
				                        TOK_ARG(&t));
			if (digits / 2 >= cap)
				return anchor_text_fail(z, ANCHOR_ESYNTAX,
				                        "digest longer than "
				                        "%zu bytes",
				                        cap);
			if (digits % 2 == 0)
				out[digits / 2] = (uint8_t)(v << 4);
			else
				out[digits / 2] |= (uint8_t)v;
			digits++;
		}
	}
	if (r < 0)
		return -1;
	if (digits == 0 || digits % 2 != 0)
		return anchor_text_fail(z, ANCHOR_ESYNTAX, "%s",
		                        digits ? "odd number of hex digits in "
		                                 "the digest" :
		                                 "no digest");
	*outlen = digits / 2;
	return 0;
}

static bool b64_char(char c)
{
	return isalnum((unsigned char)c) || c == '+' || c == '/';
}

/* Base64 text (blanks already gone) into out: the alphabet only, a
 * length that is a multiple of 4, at most two '=' and only at the end
 * (EVP_DecodeBlock alone would take '=' inside and count padding as
 * zero bytes). */
static int b64_decode(struct anchor_text *z, const char *in, size_t n,
                      uint8_t *out, size_t cap, size_t *outlen)
{
	size_t pad = 0, i;
	int got;

	while (pad < 2 && pad < n && in[n - 1 - pad] == '=')
		pad++;
	for (i = 0; i < n - pad; i++)
		if (!b64_char(in[i]))
			return anchor_text_fail(
				z, ANCHOR_ESYNTAX, "key: '%c' %s", in[i],
				in[i] == '=' ? "(padding) before the end" :
					       "is not base64");
	if (n == 0 || n % 4 != 0)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "key: %zu base64 characters (a "
		                        "multiple of 4, "
		                        "padded with '=')",
		                        n);
	/* EVP_DecodeBlock writes the padding too, as zero bytes */
	if (n / 4 * 3 > cap)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "key longer than %zu bytes", cap);
	got = EVP_DecodeBlock(out, (const unsigned char *)in, (int)n);
	if (got < 0 || (size_t)got != n / 4 * 3)
		return anchor_text_fail(z, ANCHOR_ESYNTAX, "%s",
		                        "key: bad base64");
	*outlen = (size_t)got - pad;
	return 0;
}

/* The rest of the record as base64 (a DNSKEY key) into out. */
static int rest_b64(struct anchor_text *z, uint8_t *out, size_t cap,
                    size_t *outlen)
{
	char text[ANCHOR_B64_MAX + 4];
	size_t n = 0;
	struct tok t;
	int r;

	while ((r = tok_next(z, &t)) == 1) {
		if (t.n > sizeof text - n)
			return anchor_text_fail(z, ANCHOR_ESYNTAX,
			                        "key longer than %zu bytes",
			                        cap);
		memcpy(text + n, t.p, t.n);
		n += t.n;
	}
	if (r < 0)
		return -1;
	if (n == 0)
		return anchor_text_fail(z, ANCHOR_ESYNTAX, "%s", "no key");
	return b64_decode(z, text, n, out, cap, outlen);
}

/* The length a DS digest type must have; 0 for a type not known here
 * (kept: the validator calls it unsupported). */
static size_t digest_len(uint8_t type)
{
	switch (type) {
	case DNSSEC_DIGEST_SHA1: return 20;
	case DNSSEC_DIGEST_SHA256: return 32;
	case DNSSEC_DIGEST_SHA384: return 48;
	default: return 0;
	}
}

/* DS RDATA: key tag, algorithm, digest type, digest (RFC 4034 s5.3). */
static int ds_parse(struct anchor_text *z, uint8_t rd[ANCHOR_RDATA_MAX],
                    size_t *rdlen)
{
	unsigned long tag, dt;
	size_t n = 0, want;
	struct tok t;

	if (tok_need(z, &t, "key tag") != 0 ||
	    num_parse(z, &t, UINT16_MAX, "key tag", &tag) != 0 ||
	    tok_need(z, &t, "algorithm") != 0 ||
	    alg_parse(z, &t, &rd[2]) != 0 ||
	    tok_need(z, &t, "digest type") != 0 ||
	    num_parse(z, &t, UINT8_MAX, "digest type", &dt) != 0 ||
	    rest_hex(z, rd + DNSSEC_DS_FIXED_BYTES,
	             ANCHOR_RDATA_MAX - DNSSEC_DS_FIXED_BYTES, &n) != 0)
		return -1;
	want = digest_len((uint8_t)dt);
	if (want != 0 && n != want)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "DS digest type %lu wants %zu bytes, "
		                        "got %zu",
		                        dt, want, n);
	rd[0] = (uint8_t)(tag >> 8);
	rd[1] = (uint8_t)tag;
	rd[3] = (uint8_t)dt;
	*rdlen = DNSSEC_DS_FIXED_BYTES + n;
	return 0;
}

/* DNSKEY RDATA: flags, protocol (3), algorithm, key (RFC 4034 s2.2). */
static int dnskey_parse(struct anchor_text *z, uint8_t rd[ANCHOR_RDATA_MAX],
                        size_t *rdlen)
{
	unsigned long flags, proto;
	struct tok t;
	size_t n = 0;

	if (tok_need(z, &t, "flags") != 0 ||
	    num_parse(z, &t, UINT16_MAX, "flags", &flags) != 0 ||
	    tok_need(z, &t, "protocol") != 0 ||
	    num_parse(z, &t, UINT8_MAX, "protocol", &proto) != 0)
		return -1;
	if (proto != DNSSEC_DNSKEY_PROTOCOL)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "DNSKEY protocol %lu, not %d", proto,
		                        DNSSEC_DNSKEY_PROTOCOL);
	if (tok_need(z, &t, "algorithm") != 0 ||
	    alg_parse(z, &t, &rd[3]) != 0 ||
	    rest_b64(z, rd + DNSSEC_DNSKEY_FIXED_BYTES,
	             ANCHOR_RDATA_MAX - DNSSEC_DNSKEY_FIXED_BYTES, &n) != 0)
		return -1;
	rd[0] = (uint8_t)(flags >> 8);
	rd[1] = (uint8_t)flags;
	rd[2] = (uint8_t)proto;
	*rdlen = DNSSEC_DNSKEY_FIXED_BYTES + n;
	return 0;
}

/* ------------------------------------------------------------------ */
/* Records and directives                                              */

/* $ORIGIN NAME, $TTL N; $INCLUDE and others are refused. */
static int directive(struct anchor_text *z, const struct tok *d)
{
	unsigned long v;
	struct tok t;

	if (z->file == NULL)
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "directive " TOK_FMT
		                        " in a trust-anchor option",
		                        TOK_ARG(d));
	if (tok_is(d, "$ORIGIN")) {
		if (tok_need(z, &t, "$ORIGIN name") != 0 ||
		    name_parse(z, &t, "$ORIGIN", z->origin, &z->originlen))
			return -1;
	} else if (tok_is(d, "$TTL")) {
		if (tok_need(z, &t, "$TTL value") != 0 ||
		    num_parse(z, &t, ANCHOR_TTL_MAX, "$TTL", &v) != 0)
			return -1;
	} else {
		return anchor_text_fail(z, ANCHOR_ESYNTAX,
		                        "directive " TOK_FMT
		                        " is not supported "
		                        "($ORIGIN and $TTL are)",
		                        TOK_ARG(d));
	}
	return tok_end(z);
}

/* The rest of a record of another type: skipped. */
static int rest_skip(struct anchor_text *z)
{
	struct tok t;
	int r;

	while ((r = tok_next(z, &t)) == 1)
		;
	return r;
}

/* Keep a record: a revoked key is read, never used (RFC 5011 s2.1). */
static int keep(struct anchor_text *z, struct anchors *a, uint16_t type,
                const uint8_t *rd, size_t rdlen)
{
	int rc;

	if (type == DNSSEC_TYPE_DNSKEY &&
	    (((unsigned)rd[0] << 8 | rd[1]) & DNSSEC_DNSKEY_FLAG_REVOKE))
		return 0;
	rc = anchors_add_rr(a, z->owner, z->ownerlen, type, rd, rdlen);
	if (rc == ANCHOR_EFULL)
		return anchor_text_fail(z, rc,
		                        "too many anchors (at most %d zones, "
		                        "%d DS and "
		                        "%d DNSKEY records each)",
		                        ANCHOR_ZONES_MAX, ANCHOR_RR_MAX,
		                        ANCHOR_RR_MAX);
	if (rc != ANCHOR_OK)
		return anchor_text_fail(z, rc, "%s", "out of memory");
	z->added++;
	return 0;
}

/* One record (or directive) from its first token to its end. */
static int record(struct anchor_text *z, struct anchors *a, bool owner_given)
{
	uint8_t rd[ANCHOR_RDATA_MAX];
	size_t rdlen = 0;
	uint16_t type;
	struct tok t;

	if (owner_given) {
		if (tok_need(z, &t, "owner") != 0)
			return -1;
		if (t.p[0] == '$')
			return directive(z, &t);
		if (name_parse(z, &t, "owner", z->owner, &z->ownerlen) != 0)
			return -1;
	} else if (z->ownerlen == 0) {
		return anchor_text_fail(z, ANCHOR_ESYNTAX, "%s",
		                        "no owner (the line starts with a "
		                        "blank and "
		                        "no record is above it)");
	}
	if (rr_head(z, &type) != 0)
		return -1;
	if (type == WIRE_TYPE_DS) {
		if (ds_parse(z, rd, &rdlen) != 0)
			return -1;
	} else if (type == DNSSEC_TYPE_DNSKEY) {
		if (dnskey_parse(z, rd, &rdlen) != 0)
			return -1;
	} else {
		return rest_skip(z);
	}
	return keep(z, a, type, rd, rdlen);
}

int anchor_text_read(struct anchor_text *z, struct anchors *a)
{
	bool owner_given = false;
	int r;

	while ((r = rec_begin(z, &owner_given)) == 1) {
		if (z->file == NULL && z->records > 0)
			return anchor_text_fail(z, ANCHOR_ESYNTAX, "%s",
			                        "more than one record");
		z->records++;
		if (record(z, a, owner_given) != 0)
			return -1;
		rec_finish(z);
	}
	return r;
}
