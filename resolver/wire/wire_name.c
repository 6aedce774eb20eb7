/*
 * resolver/wire/wire_name.c - wire name helpers: checks, case, 0x20, and the
 * text (presentation) <-> wire conversion. Public API in wire.h.
 */
#include "config.h"

#include <string.h>

#include "wire.h"

/* Lowercase one ASCII byte. */
static uint8_t to_lower(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + ('a' - 'A')) : c;
}

static int is_letter(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

int wire_name_check(const uint8_t *name, size_t len)
{
	size_t p = 0;
	uint8_t c;

	if (name == NULL)
		return WIRE_EINVAL;
	for (;;) {
		if (p >= len)
			return WIRE_ESHORT;
		c = name[p];
		if (c > WIRE_LABEL_MAX)
			return WIRE_ELABEL;
		if (p + 1 + c + (c ? 1 : 0) > WIRE_NAME_MAX)
			return WIRE_ENAME;
		if (1 + (size_t)c > len - p)
			return WIRE_ESHORT;
		p += 1 + (size_t)c;
		if (c == 0)
			return p == len ? WIRE_OK : WIRE_EINVAL;
	}
}

/** Bytes of a word, each 0x01. */
#define WIRE_ONES UINT64_C(0x0101010101010101)

/* 0x80 in each byte of x that is 'A'..'Z', else 0 (exact for every byte
 * value: no borrow or carry crosses a byte). */
static uint64_t word_upper(uint64_t x)
{
	uint64_t low7 = x & WIRE_ONES * 127;

	return (WIRE_ONES * (127 + 'Z' + 1) - low7) & ~x &
	       (low7 + WIRE_ONES * (127 - ('A' - 1))) & WIRE_ONES * 128;
}

void wire_name_lower(uint8_t *name, size_t len)
{
	size_t i = 0;

	/* Length bytes are <= 63, below 'A', so lowering them is a no-op.
	 * Eight bytes at a time: each upper-case letter gains 0x20. */
	for (; i + sizeof(uint64_t) <= len; i += sizeof(uint64_t)) {
		uint64_t w;

		memcpy(&w, name + i, sizeof w);
		w |= word_upper(w) >> 2;
		memcpy(name + i, &w, sizeof w);
	}
	for (; i < len; i++)
		name[i] = to_lower(name[i]);
}

/* Whether n bytes of a and b are equal, ASCII case folded. */
static int bytes_equal_fold(const uint8_t *a, const uint8_t *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (to_lower(a[i]) != to_lower(b[i]))
			return 0;
	return 1;
}

/* Eight bytes at a time: words equal as they are need no folding (the
 * names compared are mostly the same, and mostly already lowercase). */
int wire_name_equal(const uint8_t *a, size_t alen, const uint8_t *b,
                    size_t blen)
{
	size_t i;

	if (alen != blen)
		return 0;
	for (i = 0; i + sizeof(uint64_t) <= alen; i += sizeof(uint64_t)) {
		uint64_t x, y;

		memcpy(&x, a + i, sizeof x);
		memcpy(&y, b + i, sizeof y);
		if (x != y && !bytes_equal_fold(a + i, b + i, sizeof x))
			return 0;
	}
	return bytes_equal_fold(a + i, b + i, alen - i);
}

int wire_name_equal_case(const uint8_t *a, size_t alen, const uint8_t *b,
                         size_t blen)
{
	return alen == blen && (alen == 0 || memcmp(a, b, alen) == 0);
}

void wire_name_0x20(uint8_t *name, size_t len,
                    const uint8_t rnd[WIRE_0X20_RANDOM_BYTES])
{
	size_t p = 0, i, end;
	uint8_t c;

	while (p < len && p < WIRE_NAME_MAX && name[p] != 0 &&
	       name[p] <= WIRE_LABEL_MAX) {
		end = p + 1 + name[p];
		if (end > len || end > WIRE_NAME_MAX)
			return;
		for (i = p + 1; i < end; i++) {
			c = name[i];
			if (!is_letter(c))
				continue;
			if ((rnd[i / 8] >> (i % 8)) & 1)
				name[i] = (uint8_t)(c & ~0x20u);
			else
				name[i] = (uint8_t)(c | 0x20u);
		}
		p = end;
	}
}

int wire_name_parent(const uint8_t *name, size_t len, size_t *off)
{
	if (wire_name_check(name, len) != WIRE_OK || name[0] == 0)
		return WIRE_EINVAL;
	*off = 1 + (size_t)name[0];
	return WIRE_OK;
}

/* ------------------------------------------------------------------ */
/* Text -> wire                                                        */

/* Decode the escape after a backslash at text[*i]; advance *i. */
static int unescape(const char *text, size_t textlen, size_t *i, uint8_t *out)
{
	unsigned v = 0, k;
	uint8_t c;

	if (*i >= textlen)
		return WIRE_ETEXT;
	c = (uint8_t)text[*i];
	if (c < '0' || c > '9') {
		*out = c;
		*i += 1;
		return WIRE_OK;
	}
	if (textlen - *i < 3)
		return WIRE_ETEXT;
	for (k = 0; k < 3; k++) {
		c = (uint8_t)text[*i + k];
		if (c < '0' || c > '9')
			return WIRE_ETEXT;
		v = v * 10 + (unsigned)(c - '0');
	}
	if (v > 255)
		return WIRE_ETEXT;
	*out = (uint8_t)v;
	*i += 3;
	return WIRE_OK;
}

int wire_name_from_text(const char *text, size_t textlen,
                        uint8_t out[WIRE_NAME_MAX], size_t *outlen)
{
	uint8_t buf[WIRE_NAME_MAX], c;
	size_t i = 0, lab = 0, n = 1, llen = 0;
	int rc;

	if (text == NULL || textlen == 0)
		return WIRE_ETEXT;
	if (textlen == 1 && text[0] == '.') {
		out[0] = 0;
		*outlen = 1;
		return WIRE_OK;
	}
	while (i < textlen) {
		c = (uint8_t)text[i++];
		if (c == '.') {
			if (llen == 0)
				return WIRE_ETEXT;
			buf[lab] = (uint8_t)llen;
			lab = n++; /* n <= 254 here: see below */
			llen = 0;
			continue;
		}
		if (c == '\\') {
			rc = unescape(text, textlen, &i, &c);
			if (rc != WIRE_OK)
				return rc;
		}
		if (llen == WIRE_LABEL_MAX)
			return WIRE_ELABEL;
		if (n + 1 >= WIRE_NAME_MAX) /* keep room for the root label */
			return WIRE_ENAME;
		buf[n++] = c;
		llen++;
	}
	buf[lab] = (uint8_t)llen;
	if (llen > 0)
		buf[n++] = 0;
	memcpy(out, buf, n);
	*outlen = n;
	return WIRE_OK;
}

/* ------------------------------------------------------------------ */
/* Wire -> text                                                        */

/* Append the presentation form of one label byte; 0 if out of room. */
static int put_byte(char *out, size_t outcap, size_t *o, uint8_t c)
{
	static const char special[] = ".\\\"();@$";
	size_t need;

	if (c <= 0x20 || c >= 0x7f)
		need = 4;
	else if (strchr(special, c) != NULL)
		need = 2;
	else
		need = 1;
	if (outcap - *o <= need) /* keep room for the NUL */
		return 0;
	if (need == 4) {
		out[(*o)++] = '\\';
		out[(*o)++] = (char)('0' + c / 100);
		out[(*o)++] = (char)('0' + (c / 10) % 10);
		out[(*o)++] = (char)('0' + c % 10);
		return 1;
	}
	if (need == 2)
		out[(*o)++] = '\\';
	out[(*o)++] = (char)c;
	return 1;
}

int wire_name_to_text(const uint8_t *name, size_t len, char *out,
                      size_t outcap, size_t *outlen)
{
	size_t p = 0, o = 0, i;
	int rc;

	rc = wire_name_check(name, len);
	if (rc != WIRE_OK)
		return rc;
	if (out == NULL || outcap < 2)
		return WIRE_ESPACE;
	if (name[0] == 0)
		out[o++] = '.';
	while (name[p] != 0) {
		for (i = 1; i <= name[p]; i++)
			if (!put_byte(out, outcap, &o, name[p + i]))
				return WIRE_ESPACE;
		if (outcap - o <= 1)
			return WIRE_ESPACE;
		out[o++] = '.';
		p += 1 + (size_t)name[p];
	}
	out[o] = '\0';
	if (outlen != NULL)
		*outlen = o;
	return WIRE_OK;
}
