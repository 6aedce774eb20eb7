/*
 * tests/fuzz/fuzz_tlspad.c - libFuzzer target for the padding of answers
 * over DNS over TLS (resolver/front_tls/server_tls.c: server_tls_pad walks the
 * message it pads: header, questions, every record). The input is the
 * message; the padding must leave it as it was or make it whole blocks
 * that still parse (when the message did), with nothing written past
 * cap.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "front_tls/server_tls.h"
#include "wire/wire.h"

/** Record views for the re-parse of a padded message. */
#define FUZZ_TLSPAD_RR 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t cap = size + WIRE_OPT_HDR + SERVER_TLS_PAD_BLOCK, n;
	uint8_t *msg = malloc(cap); /* ASan sees a write past cap */
	struct wire_rr *rr = malloc(FUZZ_TLSPAD_RR * sizeof *rr);
	struct wire_msg m;
	bool parsed;

	if (msg == NULL || rr == NULL) {
		free(msg);
		free(rr);
		return 0;
	}
	memcpy(msg, data, size);
	parsed = wire_msg_parse(&m, msg, size, rr, FUZZ_TLSPAD_RR) == WIRE_OK;
	n = server_tls_pad(msg, size, cap);
	if (n != size) {
		if (n < size || n % SERVER_TLS_PAD_BLOCK != 0 || n > cap ||
		    memcmp(msg, data, WIRE_HEADER_BYTES) != 0)
			abort();
		/* padded once: never twice */
		if (server_tls_pad(msg, n, cap) != n)
			abort();
		/* what parsed before still does */
		if (parsed &&
		    wire_msg_parse(&m, msg, n, rr, FUZZ_TLSPAD_RR) != WIRE_OK)
			abort();
	}
	free(msg);
	free(rr);
	return 0;
}
