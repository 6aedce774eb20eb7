/*
 * tests/fuzz/fuzz_txt.c - libFuzzer target for the TXT-format response
 * opener.
 *
 * The query is fixed: the TXT query of the vectors (ID 0xabcd, the fixed
 * client key and nonce, zone curve.test). The input is the response packet.
 * Seeds are the genuine responses of the vectors, so mutations start from
 * a packet that passes every outer check.
 */
#include <string.h>
#include "fuzz_common.h"

/* www.curve.test A, ID 0x1234, the inner_query of the vectors. */
static const uint8_t inner_query[] = {
	0x12, 0x34, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x03, 'w',  'w',  'w',  0x05, 'c',  'u',  'r',  'v',  'e',
	0x04, 't',  'e',  's',  't',  0x00, 0x00, 0x01, 0x00, 0x01,
};

static uint8_t query[1024];
static size_t qlen;
static uint8_t out[CURVE_MAX_PACKET];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t outlen = 0;
	int rc;

	if (qlen == 0 &&
	    curve_txt_query_build(fuzz_client(), fuzz_server_pk, fuzz_nonce,
	                          0xabcd, "curve.test", inner_query,
	                          sizeof inner_query, query, sizeof query,
	                          &qlen) != CURVE_OK)
		abort();
	/* Any status is fine; a crash, overread or leak is the finding. */
	rc = curve_txt_response_open(fuzz_client(), fuzz_server_pk, fuzz_nonce,
	                             query, qlen, data, size, out, sizeof out,
	                             &outlen);
	if (rc == CURVE_OK && outlen > size)
		abort();
	return 0;
}
