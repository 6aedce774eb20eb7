/*
 * curve/keylabel.c - uz5 key labels in nameserver names (curve/README,
 * "Key label").
 *
 * Design notes:
 * - A key label is exactly 54 bytes: "uz5" in any case, then 51 base32
 *   characters. 51 characters carry 255 bits; we decode them with the
 *   52nd character, always '0', put back, so the strict decoder sees 260
 *   bits = 32 bytes + 4 zero bits and bit 255 comes out clear.
 * - Every label of a name is looked at; the left-most key label wins, but
 *   the whole name is checked first, so a malformed name is CURVE_ENAME
 *   even when it holds a key label.
 * - Walking a wire name reads one length byte, checks it against len and
 *   the 63-byte label limit, then reads that many bytes: never past len,
 *   and at most CURVE_NAME_MAX bytes of name.
 */
#include <string.h>
#include "internal.h"

/** Characters of base32 in a full 32-byte key (the 52nd is '0'). */
#define KEY_B32_FULL CURVE_BASE32_LEN(CURVE_KEY_BYTES)

/** Is ch the (case-insensitive) ASCII letter lower? */
static int ci_eq(uint8_t ch, char lower)
{
	return ch == (uint8_t)lower || ch == (uint8_t)(lower - 'a' + 'A');
}

int curve_keylabel_parse(const uint8_t *label, size_t len,
                         uint8_t pk[CURVE_KEY_BYTES])
{
	char b32[KEY_B32_FULL];
	uint8_t key[CURVE_KEY_BYTES];
	size_t n = 0;

	if (label == NULL || pk == NULL || len != CURVE_KEYLABEL_LEN)
		return CURVE_ENOKEY;
	if (!ci_eq(label[0], 'u') || !ci_eq(label[1], 'z') || label[2] != '5')
		return CURVE_ENOKEY;
	memcpy(b32, label + 3, CURVE_KEYLABEL_B32);
	b32[CURVE_KEYLABEL_B32] = '0';
	if (curve_base32_decode(key, sizeof key, &n, b32, sizeof b32) !=
	            CURVE_OK ||
	    n != CURVE_KEY_BYTES || (key[CURVE_KEY_BYTES - 1] & 0x80u) != 0)
		return CURVE_ENOKEY;
	memcpy(pk, key, CURVE_KEY_BYTES);
	return CURVE_OK;
}

int curve_keylabel_find_wire(const uint8_t *name, size_t len,
                             uint8_t pk[CURVE_KEY_BYTES])
{
	uint8_t key[CURVE_KEY_BYTES];
	int found = 0;
	size_t pos = 0, lablen;

	if (name == NULL || pk == NULL)
		return CURVE_ENAME;
	/* One iteration per label; pos grows by >= 1 each time and the loop
	 * stops at CURVE_NAME_MAX bytes: the cap on this walk. */
	for (;;) {
		if (pos >= len || pos >= CURVE_NAME_MAX)
			return CURVE_ENAME; /* no root label, or too long */
		lablen = name[pos];
		if (lablen == 0)
			break;
		if (lablen > CURVE_LABEL_MAX || lablen >= len - pos)
			return CURVE_ENAME;
		if (!found && curve_keylabel_parse(name + pos + 1, lablen,
		                                   key) == CURVE_OK)
			found = 1;
		pos += 1 + lablen;
	}
	if (!found)
		return CURVE_ENOKEY;
	memcpy(pk, key, CURVE_KEY_BYTES);
	return CURVE_OK;
}

int curve_name_from_text(uint8_t *out, size_t outcap, size_t *outlen,
                         const char *name, size_t len)
{
	size_t i, start = 0, n = 0, lablen;

	if (out == NULL || outlen == NULL || (len > 0 && name == NULL))
		return CURVE_EINVAL;
	if (len == 1 && name[0] == '.')
		len = 0; /* the root */
	else if (len > 0 && name[len - 1] == '.')
		len--; /* "a.b." = "a.b" */
	for (i = 0; i <= len; i++) {
		if (i < len && name[i] == '\\')
			return CURVE_ENAME; /* no escapes */
		if (i < len && name[i] != '.')
			continue;
		lablen = i - start;
		if (len == 0)
			break;
		if (lablen == 0 || lablen > CURVE_LABEL_MAX)
			return CURVE_ENAME;
		if (n + 1 + lablen + 1 > CURVE_NAME_MAX)
			return CURVE_ENAME;
		if (n + 1 + lablen + 1 > outcap)
			return CURVE_ESPACE;
		out[n++] = (uint8_t)lablen;
		memcpy(out + n, name + start, lablen);
		n += lablen;
		start = i + 1;
	}
	if (n + 1 > outcap)
		return CURVE_ESPACE;
	out[n++] = 0;
	*outlen = n;
	return CURVE_OK;
}

int curve_keylabel_find_text(const char *name, size_t len,
                             uint8_t pk[CURVE_KEY_BYTES])
{
	uint8_t wire[CURVE_NAME_MAX];
	size_t wlen = 0;
	int st;

	if (name == NULL || pk == NULL)
		return CURVE_ENAME;
	st = curve_name_from_text(wire, sizeof wire, &wlen, name, len);
	if (st != CURVE_OK)
		return CURVE_ENAME;
	return curve_keylabel_find_wire(wire, wlen, pk);
}

int curve_key_b32(char out[CURVE_KEYLABEL_B32],
                  const uint8_t pk[CURVE_KEY_BYTES])
{
	char b32[KEY_B32_FULL];
	size_t n = 0;

	if ((pk[CURVE_KEY_BYTES - 1] & 0x80u) != 0)
		return CURVE_EINVAL;
	if (curve_base32_encode(b32, sizeof b32, &n, pk, CURVE_KEY_BYTES) !=
	            CURVE_OK ||
	    n != KEY_B32_FULL || b32[n - 1] != '0')
		return CURVE_EINVAL;
	memcpy(out, b32, CURVE_KEYLABEL_B32);
	return CURVE_OK;
}

int curve_keylabel_make(char out[CURVE_KEYLABEL_LEN + 1],
                        const uint8_t pk[CURVE_KEY_BYTES])
{
	int st;

	if (out == NULL || pk == NULL)
		return CURVE_EINVAL;
	st = curve_key_b32(out + 3, pk);
	if (st != CURVE_OK)
		return st;
	memcpy(out, "uz5", 3);
	out[CURVE_KEYLABEL_LEN] = '\0';
	return CURVE_OK;
}
