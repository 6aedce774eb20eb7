/*
 * curve/streamlined.c - the streamlined format (curve/README), and the box
 * and open steps that the TXT format shares.
 *
 * Design notes:
 * - Verify, then use: length, magic, the echo of our nonce (sodium_memcmp),
 *   a non-zero server nonce half, and only then the authenticator.
 * - A response box opens into a scratch buffer (on the stack up to
 *   CURVE_MAX_PACKET, else on the heap) that is wiped on every path; the
 *   caller's output is written only after the box has opened.
 * - Shared keys are copied out of the table into a stack buffer that is
 *   wiped right after use.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

static const uint8_t query_magic[CURVE_MAGIC_BYTES] = {
	'Q', '6', 'f', 'n', 'v', 'W', 'j', '8',
};
static const uint8_t response_magic[CURVE_MAGIC_BYTES] = {
	'R', '6', 'f', 'n', 'v', 'W', 'J', '8',
};

int curve_box_query(struct curve_client *c,
                    const uint8_t server_pk[CURVE_KEY_BYTES],
                    const uint8_t nonce[CURVE_NONCE_BYTES], const uint8_t *m,
                    size_t mlen, uint8_t *box,
                    uint8_t client_pk[CURVE_KEY_BYTES])
{
	uint8_t key[crypto_box_BEFORENMBYTES];
	uint8_t pk[CURVE_KEY_BYTES];
	uint8_t n24[CURVE_BOX_NONCE_BYTES];
	static const uint8_t empty[1];
	int st;

	if (m == NULL)
		m = empty; /* mlen is 0: never hand libsodium NULL */
	st = curve_shared_get(c, server_pk, key, pk);
	if (st != CURVE_OK)
		return st;
	memset(n24, 0, sizeof n24);
	memcpy(n24, nonce, CURVE_NONCE_BYTES);
	if (crypto_box_easy_afternm(box, m, mlen, n24, key) != 0)
		st = CURVE_ECRYPTO;
	sodium_memzero(key, sizeof key);
	if (st == CURVE_OK && client_pk != NULL)
		memcpy(client_pk, pk, CURVE_KEY_BYTES);
	return st;
}

/** Open box (blen bytes) under nonce n24 into out (untouched on error). */
static int box_open(struct curve_client *c,
                    const uint8_t server_pk[CURVE_KEY_BYTES],
                    const uint8_t n24[CURVE_BOX_NONCE_BYTES],
                    const uint8_t *box, size_t blen, uint8_t *out,
                    size_t outcap, size_t *outlen)
{
	uint8_t stackbuf[CURVE_MAX_PACKET];
	uint8_t key[crypto_box_BEFORENMBYTES];
	uint8_t pk[CURVE_KEY_BYTES];
	uint8_t *scratch = stackbuf;
	size_t mlen = blen - CURVE_BOX_OVERHEAD;
	int st;

	if (mlen > outcap)
		return CURVE_ESPACE;
	if (mlen > sizeof stackbuf) {
		scratch = malloc(mlen);
		if (scratch == NULL)
			return CURVE_ENOMEM;
	}
	st = curve_shared_get(c, server_pk, key, pk);
	if (st == CURVE_OK &&
	    crypto_box_open_easy_afternm(scratch, box, blen, n24, key) != 0)
		st = CURVE_EAUTH;
	sodium_memzero(key, sizeof key);
	if (st == CURVE_OK) {
		if (mlen > 0)
			memcpy(out, scratch, mlen);
		*outlen = mlen;
	}
	sodium_memzero(scratch, mlen);
	if (scratch != stackbuf)
		free(scratch);
	return st;
}

int curve_box_open_response(struct curve_client *c,
                            const uint8_t server_pk[CURVE_KEY_BYTES],
                            const uint8_t nonce[CURVE_NONCE_BYTES],
                            const uint8_t *data, size_t dlen, uint8_t *out,
                            size_t outcap, size_t *outlen)
{
	static const uint8_t zero[CURVE_NONCE_BYTES];
	uint8_t n24[CURVE_BOX_NONCE_BYTES];

	if (dlen < CURVE_NONCE_BYTES + CURVE_BOX_OVERHEAD)
		return CURVE_ESHORT;
	/* A zero server half would make the response nonce equal to our
	 * query's: a reflected query box would open. */
	if (sodium_memcmp(data, zero, CURVE_NONCE_BYTES) == 0)
		return CURVE_ENONCE;
	memcpy(n24, nonce, CURVE_NONCE_BYTES);
	memcpy(n24 + CURVE_NONCE_BYTES, data, CURVE_NONCE_BYTES);
	return box_open(c, server_pk, n24, data + CURVE_NONCE_BYTES,
	                dlen - CURVE_NONCE_BYTES, out, outcap, outlen);
}

int curve_streamlined_box(struct curve_client *c,
                          const uint8_t server_pk[CURVE_KEY_BYTES],
                          const uint8_t nonce[CURVE_NONCE_BYTES],
                          const uint8_t *query, size_t qlen, uint8_t *out,
                          size_t outcap, size_t *outlen)
{
	size_t hdr = CURVE_MAGIC_BYTES + CURVE_KEY_BYTES + CURVE_NONCE_BYTES;
	int st;

	if (c == NULL || server_pk == NULL || nonce == NULL || out == NULL ||
	    outlen == NULL || (qlen > 0 && query == NULL))
		return CURVE_EINVAL;
	if (qlen > SIZE_MAX - CURVE_STREAMLINED_QUERY_OVERHEAD ||
	    outcap < qlen + CURVE_STREAMLINED_QUERY_OVERHEAD)
		return CURVE_ESPACE;
	st = curve_box_query(c, server_pk, nonce, query, qlen, out + hdr,
	                     out + CURVE_MAGIC_BYTES);
	if (st != CURVE_OK)
		return st;
	memcpy(out, query_magic, CURVE_MAGIC_BYTES);
	memcpy(out + CURVE_MAGIC_BYTES + CURVE_KEY_BYTES, nonce,
	       CURVE_NONCE_BYTES);
	*outlen = qlen + CURVE_STREAMLINED_QUERY_OVERHEAD;
	return CURVE_OK;
}

int curve_streamlined_open(struct curve_client *c,
                           const uint8_t server_pk[CURVE_KEY_BYTES],
                           const uint8_t nonce[CURVE_NONCE_BYTES],
                           const uint8_t *pkt, size_t len, uint8_t *out,
                           size_t outcap, size_t *outlen)
{
	const uint8_t *echo;

	if (c == NULL || server_pk == NULL || nonce == NULL ||
	    outlen == NULL || (len > 0 && pkt == NULL) ||
	    (outcap > 0 && out == NULL))
		return CURVE_EINVAL;
	if (len < CURVE_STREAMLINED_RESPONSE_OVERHEAD)
		return CURVE_ESHORT;
	if (memcmp(pkt, response_magic, CURVE_MAGIC_BYTES) != 0)
		return CURVE_EMAGIC;
	echo = pkt + CURVE_MAGIC_BYTES;
	if (sodium_memcmp(echo, nonce, CURVE_NONCE_BYTES) != 0)
		return CURVE_ENONCE;
	return curve_box_open_response(c, server_pk, nonce,
	                               pkt + CURVE_MAGIC_BYTES +
	                                       CURVE_NONCE_BYTES,
	                               len - CURVE_MAGIC_BYTES -
	                                       CURVE_NONCE_BYTES,
	                               out, outcap, outlen);
}
