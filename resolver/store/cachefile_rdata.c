/*
 * resolver/store/cachefile_rdata.c - RDATA from presentation text and checks
 * of wire RDATA against its type (see cachefile.h), and the tokenizer the
 * cache file reader uses (cachefile_int.h).
 */
#include <arpa/inet.h>
#include <string.h>

#include "cachefile.h"
#include "cachefile_int.h"
#include "wire/wire.h"

/** Longest text of an IPv6 address (INET6_ADDRSTRLEN less the NUL). */
#define CF_ADDR_TEXT_MAX 45
/** Longest character-string (RFC 1035 3.3). */
#define CF_STRING_MAX 255
/** Bytes of the fixed SOA counters, MX preference, SRV fields. */
#define CF_SOA_COUNTERS 20
#define CF_MX_FIXED 2
#define CF_SRV_FIXED 6
/** Largest RDATA length. */
#define CF_RDLEN_MAX 65535u

/* ------------------------------------------------------------------ */
/* Tokens                                                              */

static bool cf_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* A quoted token: from after the opening quote to the closing one. */
static enum cf_next_result cf_quoted(struct cf_cur *c, struct cf_tok *t)
{
	size_t start = ++c->pos;

	while (c->pos < c->len && c->p[c->pos] != '"') {
		if (c->p[c->pos] == '\\')
			c->pos++;
		c->pos++;
	}
	if (c->pos >= c->len)
		return CF_BAD;
	t->p = c->p + start;
	t->len = c->pos - start;
	t->quoted = true;
	c->pos++;
	if (c->pos < c->len && !cf_blank(c->p[c->pos]) && c->p[c->pos] != ';')
		return CF_BAD;
	return CF_TOKEN;
}

enum cf_next_result cf_next(struct cf_cur *c, struct cf_tok *t)
{
	size_t start;

	while (c->pos < c->len && cf_blank(c->p[c->pos]))
		c->pos++;
	if (c->pos >= c->len || c->p[c->pos] == ';')
		return CF_END;
	if (c->p[c->pos] == '"')
		return cf_quoted(c, t);
	start = c->pos;
	while (c->pos < c->len && !cf_blank(c->p[c->pos]) &&
	       c->p[c->pos] != ';' && c->p[c->pos] != '"') {
		if (c->p[c->pos] == '\\' && c->pos + 1 < c->len)
			c->pos++;
		c->pos++;
	}
	if (c->pos < c->len && c->p[c->pos] == '"')
		return CF_BAD;
	t->p = c->p + start;
	t->len = c->pos - start;
	t->quoted = false;
	return CF_TOKEN;
}

/* One escape after a backslash at t->p[*i]; advances *i past it. */
static bool cf_escape(const struct cf_tok *t, size_t *i, uint8_t *b)
{
	unsigned v = 0, k;

	if (*i >= t->len)
		return false;
	if (t->p[*i] < '0' || t->p[*i] > '9') {
		*b = (uint8_t)t->p[(*i)++];
		return true;
	}
	if (t->len - *i < 3)
		return false;
	for (k = 0; k < 3; k++) {
		char d = t->p[*i + k];

		if (d < '0' || d > '9')
			return false;
		v = v * 10 + (unsigned)(d - '0');
	}
	if (v > 255)
		return false;
	*b = (uint8_t)v;
	*i += 3;
	return true;
}

long cf_unescape(const struct cf_tok *t, uint8_t *out, size_t cap)
{
	size_t i = 0, n = 0;
	uint8_t b;

	while (i < t->len) {
		b = (uint8_t)t->p[i++];
		if (b == '\\' && !cf_escape(t, &i, &b))
			return -1;
		if (n == cap)
			return -1;
		out[n++] = b;
	}
	return (long)n;
}

bool cf_word(const struct cf_tok *t, char *out, size_t cap)
{
	if (t->quoted || t->len >= cap)
		return false;
	memcpy(out, t->p, t->len);
	out[t->len] = '\0';
	return true;
}

bool cf_number(const struct cf_tok *t, uint32_t max, uint32_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (t->quoted || t->len == 0 || t->len > 10)
		return false;
	for (i = 0; i < t->len; i++) {
		if (t->p[i] < '0' || t->p[i] > '9')
			return false;
		x = x * 10 + (uint64_t)(t->p[i] - '0');
	}
	if (x > max)
		return false;
	*v = (uint32_t)x;
	return true;
}

/* ------------------------------------------------------------------ */
/* Writing RDATA                                                       */

void cf_put(struct cf_out *o, const void *b, size_t n)
{
	if (o->over || wire_write_bytes(&o->w, b, n) != WIRE_OK)
		o->over = true;
}

void cf_put_u16(struct cf_out *o, uint32_t v)
{
	if (o->over || wire_write_u16(&o->w, (uint16_t)v) != WIRE_OK)
		o->over = true;
}

void cf_put_u32(struct cf_out *o, uint32_t v)
{
	if (o->over || wire_write_u32(&o->w, v) != WIRE_OK)
		o->over = true;
}

/* The next token, which must be there. */
static bool cf_want(struct cf_cur *c, struct cf_tok *t)
{
	return cf_next(c, t) == CF_TOKEN;
}

int cf_name(struct cf_cur *c, struct cf_out *o)
{
	uint8_t name[WIRE_NAME_MAX];
	struct cf_tok t;
	size_t n;

	if (!cf_want(c, &t) || t.quoted)
		return CACHEFILE_ERDATA;
	if (wire_name_from_text(t.p, t.len, name, &n) != WIRE_OK)
		return CACHEFILE_ENAME;
	cf_put(o, name, n);
	return CACHEFILE_OK;
}

int cf_u16(struct cf_cur *c, struct cf_out *o)
{
	struct cf_tok t;
	uint32_t v;

	if (!cf_want(c, &t) || !cf_number(&t, UINT16_MAX, &v))
		return CACHEFILE_ERDATA;
	cf_put_u16(o, v);
	return CACHEFILE_OK;
}

int cf_u8(struct cf_cur *c, struct cf_out *o)
{
	struct cf_tok t;
	uint32_t v;

	if (!cf_want(c, &t) || !cf_number(&t, UINT8_MAX, &v))
		return CACHEFILE_ERDATA;
	cf_put(o, (uint8_t[]){ (uint8_t)v }, 1);
	return CACHEFILE_OK;
}

int cf_u32(struct cf_cur *c, struct cf_out *o)
{
	struct cf_tok t;
	uint32_t v;

	if (!cf_want(c, &t) || !cf_number(&t, UINT32_MAX, &v))
		return CACHEFILE_ERDATA;
	cf_put_u32(o, v);
	return CACHEFILE_OK;
}

static int cf_addr(struct cf_cur *c, struct cf_out *o, int family)
{
	char text[CF_ADDR_TEXT_MAX + 1];
	uint8_t a[16];
	struct cf_tok t;

	if (!cf_want(c, &t) || t.quoted || t.len > CF_ADDR_TEXT_MAX)
		return CACHEFILE_ERDATA;
	memcpy(text, t.p, t.len);
	text[t.len] = '\0';
	if (inet_pton(family, text, a) != 1)
		return CACHEFILE_ERDATA;
	cf_put(o, a, family == AF_INET ? 4 : 16);
	return CACHEFILE_OK;
}

static int cf_txt(struct cf_cur *c, struct cf_out *o)
{
	uint8_t s[CF_STRING_MAX];
	struct cf_tok t;
	enum cf_next_result r;
	size_t n = 0;
	long k;

	while ((r = cf_next(c, &t)) == CF_TOKEN) {
		k = cf_unescape(&t, s, sizeof s);
		if (k < 0)
			return CACHEFILE_ERDATA;
		cf_put(o, (uint8_t[]){ (uint8_t)k }, 1);
		cf_put(o, s, (size_t)k);
		n++;
	}
	return r == CF_END && n > 0 ? CACHEFILE_OK : CACHEFILE_ERDATA;
}

int cf_hexval(char h)
{
	if (h >= '0' && h <= '9')
		return h - '0';
	if (h >= 'a' && h <= 'f')
		return h - 'a' + 10;
	if (h >= 'A' && h <= 'F')
		return h - 'A' + 10;
	return -1;
}

int cf_hex_rest(struct cf_cur *c, struct cf_out *o, size_t *n)
{
	struct cf_tok t;
	size_t start = o->w.len, i;
	int hi = -1, v;

	while (cf_next(c, &t) == CF_TOKEN) {
		for (i = 0; i < t.len; i++) {
			if (t.quoted || (v = cf_hexval(t.p[i])) < 0)
				return CACHEFILE_ERDATA;
			if (hi < 0) {
				hi = v;
				continue;
			}
			cf_put(o, (uint8_t[]){ (uint8_t)(hi << 4 | v) }, 1);
			hi = -1;
		}
	}
	*n = o->w.len - start;
	return hi < 0 ? CACHEFILE_OK : CACHEFILE_ERDATA;
}

/* RFC 3597: after "\#": the length, then hex in any grouping. */
static int cf_generic(struct cf_cur *c, struct cf_out *o)
{
	struct cf_tok t;
	uint32_t want;
	size_t n;

	if (!cf_want(c, &t) || !cf_number(&t, CF_RDLEN_MAX, &want) ||
	    cf_hex_rest(c, o, &n) != CACHEFILE_OK)
		return CACHEFILE_ERDATA;
	return !o->over && n == want ? CACHEFILE_OK : CACHEFILE_ERDATA;
}

/* The usual text form of one of the types rrtext renders. */
static int cf_typed(uint16_t type, struct cf_cur *c, struct cf_out *o)
{
	int rc = CACHEFILE_OK, i;

	switch (type) {
	case WIRE_TYPE_A: return cf_addr(c, o, AF_INET);
	case WIRE_TYPE_AAAA: return cf_addr(c, o, AF_INET6);
	case WIRE_TYPE_NS:
	case WIRE_TYPE_CNAME:
	case WIRE_TYPE_DNAME:
	case WIRE_TYPE_PTR: return cf_name(c, o);
	case WIRE_TYPE_MX:
		rc = cf_u16(c, o);
		return rc != CACHEFILE_OK ? rc : cf_name(c, o);
	case WIRE_TYPE_SRV:
		for (i = 0; i < 3 && rc == CACHEFILE_OK; i++)
			rc = cf_u16(c, o);
		return rc != CACHEFILE_OK ? rc : cf_name(c, o);
	case WIRE_TYPE_SOA:
		rc = cf_name(c, o);
		if (rc == CACHEFILE_OK)
			rc = cf_name(c, o);
		for (i = 0; i < 5 && rc == CACHEFILE_OK; i++)
			rc = cf_u32(c, o);
		return rc;
	case WIRE_TYPE_TXT: return cf_txt(c, o);
	default: return cf_dnssec(type, c, o);
	}
}

int cachefile_rdata_parse(uint16_t type, const char *text, size_t len,
                          uint8_t *out, size_t cap, size_t *outlen)
{
	struct cf_cur c = { text, len, 0 }, peek;
	struct cf_out o;
	struct cf_tok t;
	int rc;

	if (text == NULL || out == NULL || outlen == NULL)
		return CACHEFILE_EINVAL;
	wire_writer_init(&o.w, out, cap);
	o.over = false;
	peek = c;
	if (cf_next(&peek, &t) == CF_TOKEN && !t.quoted && t.len == 2 &&
	    memcmp(t.p, "\\#", 2) == 0) {
		c = peek;
		rc = cf_generic(&c, &o);
	} else {
		rc = cf_typed(type, &c, &o);
	}
	if (rc == CACHEFILE_OK && (o.over || cf_next(&c, &t) != CF_END))
		rc = CACHEFILE_ERDATA;
	if (rc == CACHEFILE_OK)
		rc = cachefile_rdata_check(type, out, o.w.len);
	if (rc == CACHEFILE_OK)
		*outlen = o.w.len;
	return rc;
}

/* ------------------------------------------------------------------ */
/* Checking wire RDATA                                                 */

/* An uncompressed wire name at *pos, within len; advances *pos. */
static bool cf_wire_name(const uint8_t *p, size_t len, size_t *pos)
{
	size_t start = *pos, i = *pos;

	while (i < len && p[i] != 0) {
		if (p[i] > WIRE_LABEL_MAX)
			return false;
		i += 1 + (size_t)p[i];
		if (i - start >= WIRE_NAME_MAX)
			return false;
	}
	if (i >= len)
		return false;
	i++;
	if (wire_name_check(p + start, i - start) != WIRE_OK)
		return false;
	*pos = i;
	return true;
}

static bool cf_txt_ok(const uint8_t *p, size_t len)
{
	size_t pos = 0;

	if (len == 0)
		return false;
	while (pos < len)
		pos += 1 + (size_t)p[pos];
	return pos == len;
}

int cachefile_rdata_check(uint16_t type, const uint8_t *p, size_t len)
{
	size_t pos = 0;
	bool ok;

	if (p == NULL && len > 0)
		return CACHEFILE_ERDATA;
	switch (type) {
	case WIRE_TYPE_A: return len == 4 ? CACHEFILE_OK : CACHEFILE_ERDATA;
	case WIRE_TYPE_AAAA:
		return len == 16 ? CACHEFILE_OK : CACHEFILE_ERDATA;
	case WIRE_TYPE_NS:
	case WIRE_TYPE_CNAME:
	case WIRE_TYPE_DNAME:
	case WIRE_TYPE_PTR: ok = cf_wire_name(p, len, &pos); break;
	case WIRE_TYPE_MX:
	case WIRE_TYPE_SRV:
		pos = type == WIRE_TYPE_MX ? CF_MX_FIXED : CF_SRV_FIXED;
		ok = pos < len && cf_wire_name(p, len, &pos);
		break;
	case WIRE_TYPE_SOA:
		ok = cf_wire_name(p, len, &pos) &&
		     cf_wire_name(p, len, &pos) &&
		     len - pos == CF_SOA_COUNTERS;
		pos = len;
		break;
	case WIRE_TYPE_TXT:
		return cf_txt_ok(p, len) ? CACHEFILE_OK : CACHEFILE_ERDATA;
	default: return len <= CF_RDLEN_MAX ? CACHEFILE_OK : CACHEFILE_ERDATA;
	}
	return ok && pos == len ? CACHEFILE_OK : CACHEFILE_ERDATA;
}
