/*
 * tests/fuzz/fuzz_streamlined.c - libFuzzer target for the streamlined
 * response opener.
 *
 * The first input byte picks a mode. Mode 0 feeds the rest to
 * curve_streamlined_open as a received datagram. Mode 1 treats the rest as
 * an inner DNS response, boxes it genuinely (as the server would, with the
 * server key and a nonce made from the input) and opens that, so the code
 * past the authenticator runs too; the open must then succeed and give the
 * inner bytes back unchanged.
 */
#include <string.h>
#include "fuzz_common.h"

static uint8_t out[CURVE_MAX_PACKET];
static uint8_t pkt[CURVE_MAX_PACKET + CURVE_STREAMLINED_RESPONSE_OVERHEAD];

static void open_raw(const uint8_t *data, size_t size)
{
	size_t outlen = 0;
	int rc;

	rc = curve_streamlined_open(fuzz_client(), fuzz_server_pk, fuzz_nonce,
	                            data, size, out, sizeof out, &outlen);
	/* Only a genuine box opens, and that cannot be forged here. */
	if (rc == CURVE_OK &&
	    outlen + CURVE_STREAMLINED_RESPONSE_OVERHEAD != size)
		abort();
}

static void open_genuine(const uint8_t *data, size_t size)
{
	uint8_t n[crypto_box_NONCEBYTES];
	uint8_t cpk[CURVE_KEY_BYTES];
	size_t outlen = 0;
	size_t pos = 0;

	if (size > CURVE_MAX_PACKET)
		return;
	memcpy(pkt, "R6fnvWJ8", CURVE_MAGIC_BYTES);
	pos += CURVE_MAGIC_BYTES;
	memcpy(pkt + pos, fuzz_nonce, CURVE_NONCE_BYTES);
	pos += CURVE_NONCE_BYTES;
	memset(pkt + pos, 0x5a, CURVE_NONCE_BYTES);
	pkt[pos] = (uint8_t)size;
	memcpy(n, fuzz_nonce, CURVE_NONCE_BYTES);
	memcpy(n + CURVE_NONCE_BYTES, pkt + pos, CURVE_NONCE_BYTES);
	pos += CURVE_NONCE_BYTES;
	curve_client_pk(fuzz_client(), cpk);
	if (crypto_box_easy(pkt + pos, data, size, n, cpk, fuzz_server_sk) !=
	    0)
		abort();
	pos += size + CURVE_BOX_OVERHEAD;
	if (curve_streamlined_open(fuzz_client(), fuzz_server_pk, fuzz_nonce,
	                           pkt, pos, out, sizeof out,
	                           &outlen) != CURVE_OK ||
	    outlen != size || memcmp(out, data, size) != 0)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] & 1)
		open_genuine(data + 1, size - 1);
	else
		open_raw(data + 1, size - 1);
	return 0;
}
