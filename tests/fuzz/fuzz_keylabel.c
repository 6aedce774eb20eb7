/*
 * tests/fuzz/fuzz_keylabel.c - libFuzzer target for uz5 key labels and
 * DNSCurve base32.
 *
 * The input is read as a wire name, as a text name and as one label. Where
 * base32 decoding succeeds, encoding the result must give the input back
 * (up to case): the strict decoder accepts only canonical strings. Where a
 * key is found, the label made from it must parse to the same key.
 */
#include <ctype.h>
#include <string.h>
#include "fuzz_common.h"

static void check_base32(const uint8_t *data, size_t size)
{
	uint8_t bin[512];
	char txt[CURVE_BASE32_LEN(sizeof bin)];
	size_t n = 0, m = 0, i;

	if (curve_base32_decode(bin, sizeof bin, &n, (const char *)data,
	                        size) != CURVE_OK)
		return;
	if (curve_base32_encode(txt, sizeof txt, &m, bin, n) != CURVE_OK ||
	    m != size)
		abort();
	for (i = 0; i < size; i++)
		if (tolower(data[i]) != txt[i])
			abort();
}

static void check_key(const uint8_t pk[CURVE_KEY_BYTES])
{
	char label[CURVE_KEYLABEL_LEN + 1];
	uint8_t again[CURVE_KEY_BYTES];

	if (curve_keylabel_make(label, pk) != CURVE_OK ||
	    curve_keylabel_parse((const uint8_t *)label, CURVE_KEYLABEL_LEN,
	                         again) != CURVE_OK ||
	    memcmp(pk, again, CURVE_KEY_BYTES) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t pk[CURVE_KEY_BYTES];

	if (curve_keylabel_find_wire(data, size, pk) == CURVE_OK)
		check_key(pk);
	if (curve_keylabel_find_text((const char *)data, size, pk) == CURVE_OK)
		check_key(pk);
	if (curve_keylabel_parse(data, size, pk) == CURVE_OK)
		check_key(pk);
	check_base32(data, size);
	return 0;
}
