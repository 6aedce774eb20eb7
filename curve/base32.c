/*
 * curve/base32.c - DNSCurve base32: alphabet 0123456789bcdfghjklmnpqrstuvwxyz,
 * least significant bits first (curve/README, "Base32").
 *
 * Design note: the bit accumulator never holds more than 12 bits, so any
 * input length works; every write is checked against the destination's
 * capacity at the write.
 */
#include "internal.h"

/** Bits per base32 character. */
#define B32_BITS 5
/** Mask of one base32 digit. */
#define B32_MASK 0x1fu

static const char b32_alphabet[] = "0123456789bcdfghjklmnpqrstuvwxyz";

/** Value of one character, or -1 if it is not in the alphabet. */
static int b32_value(unsigned char ch)
{
	if (ch >= 'A' && ch <= 'Z')
		ch = (unsigned char)(ch - 'A' + 'a');
	if (ch >= '0' && ch <= '9')
		return ch - '0';
	if (ch < 'b' || ch > 'z' || ch == 'e' || ch == 'i' || ch == 'o')
		return -1;
	/* 'b'..'z' minus the letters a, e, i, o that precede or equal ch. */
	return 10 + (ch - 'b') - (ch > 'e') - (ch > 'i') - (ch > 'o');
}

int curve_base32_encode(char *out, size_t outcap, size_t *outlen,
                        const uint8_t *in, size_t inlen)
{
	size_t i, n = 0;
	uint32_t acc = 0;
	unsigned int bits = 0;

	if (outlen == NULL || (inlen > 0 && in == NULL))
		return CURVE_EINVAL;
	if (inlen > (SIZE_MAX - 4) / 8 || outcap < CURVE_BASE32_LEN(inlen))
		return CURVE_ESPACE;
	for (i = 0; i < inlen; i++) {
		acc |= (uint32_t)in[i] << bits;
		bits += 8;
		while (bits >= B32_BITS) {
			if (n >= outcap)
				return CURVE_ESPACE;
			out[n++] = b32_alphabet[acc & B32_MASK];
			acc >>= B32_BITS;
			bits -= B32_BITS;
		}
	}
	if (bits > 0) {
		if (n >= outcap)
			return CURVE_ESPACE;
		out[n++] = b32_alphabet[acc & B32_MASK];
	}
	*outlen = n;
	return CURVE_OK;
}

int curve_base32_decode(uint8_t *out, size_t outcap, size_t *outlen,
                        const char *in, size_t inlen)
{
	size_t i, n = 0;
	uint32_t acc = 0;
	unsigned int bits = 0;
	int v;

	if (outlen == NULL || (inlen > 0 && in == NULL))
		return CURVE_EINVAL;
	for (i = 0; i < inlen; i++) {
		v = b32_value((unsigned char)in[i]);
		if (v < 0)
			return CURVE_EBASE32;
		acc |= (uint32_t)v << bits;
		bits += B32_BITS;
		if (bits >= 8) {
			if (n >= outcap)
				return CURVE_ESPACE;
			out[n++] = (uint8_t)(acc & 0xffu);
			acc >>= 8;
			bits -= 8;
		}
	}
	/* Leftover: fewer than 5 bits (else a whole spare character) and 0. */
	if (bits >= B32_BITS || acc != 0)
		return CURVE_EBASE32;
	*outlen = n;
	return CURVE_OK;
}
