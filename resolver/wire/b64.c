/*
 * resolver/wire/b64.c - base64 and base64url decoding (b64.h).
 */
#include "b64.h"

/** Bits of one base64 digit, of a byte; digits of a block. */
#define B64_DIGIT_BITS 6
#define B64_BYTE_BITS 8
#define B64_BLOCK 4
/** Values of the letters and digits, then of the alphabet's last two. */
#define B64_LOWER 26
#define B64_DIGITS 52
#define B64_V62 62
#define B64_V63 63

/* A character's value in the alphabet, -1 outside it. */
static int b64_value(const char *last, char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		return ch - 'A';
	if (ch >= 'a' && ch <= 'z')
		return ch - 'a' + B64_LOWER;
	if (ch >= '0' && ch <= '9')
		return ch - '0' + B64_DIGITS;
	if (ch == last[0])
		return B64_V62;
	if (ch == last[1])
		return B64_V63;
	return -1;
}

void b64_start(struct b64 *b, const char *last)
{
	b->last = last;
	b->acc = 0;
	b->bits = 0;
	b->chars = 0;
	b->pad = 0;
}

int b64_char(struct b64 *b, char ch, uint8_t *byte)
{
	int v = b64_value(b->last, ch);

	if (ch == '=' && b->chars % B64_BLOCK >= 2) {
		b->pad++;
		b->chars++;
		return B64_MORE;
	}
	if (v < 0 || b->pad > 0)
		return B64_EBAD;
	b->chars++;
	b->acc = b->acc << B64_DIGIT_BITS | (uint32_t)v;
	b->bits += B64_DIGIT_BITS;
	if (b->bits < B64_BYTE_BITS)
		return B64_MORE;
	b->bits -= B64_BYTE_BITS;
	*byte = (uint8_t)(b->acc >> b->bits);
	b->acc &= (1u << b->bits) - 1;
	return B64_BYTE;
}

bool b64_whole_padded(const struct b64 *b)
{
	return b->chars > 0 && b->chars % B64_BLOCK == 0 && b->acc == 0;
}

int b64_decode(const char *last, const char *in, size_t inlen, uint8_t *out,
               size_t cap, size_t *outlen)
{
	struct b64 b;
	uint8_t byte = 0;
	size_t i, n = 0;
	int rc;

	*outlen = 0;
	if (inlen % B64_BLOCK == 1)
		return B64_EBAD; /* no encoding ends with one character */
	b64_start(&b, last);
	for (i = 0; i < inlen; i++) {
		if (in[i] == '=' ||
		    (rc = b64_char(&b, in[i], &byte)) == B64_EBAD)
			return B64_EBAD;
		if (rc == B64_MORE)
			continue;
		if (n >= cap)
			return B64_EFULL;
		out[n++] = byte;
	}
	*outlen = n;
	return B64_OK;
}
