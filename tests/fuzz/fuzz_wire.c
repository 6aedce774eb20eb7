/*
 * tests/fuzz/fuzz_wire.c - libFuzzer target for the DNS message parser.
 *
 * The input is a DNS message from the network. It is parsed with
 * wire_msg_parse; then every record it yields is rendered as text (which
 * reads the names inside its RDATA) and every owner name is read again
 * with decompression, lowercased, and its RDATA is checked by its type's
 * layout (wire_rdata_check: what makes an upstream reply bad). Any
 * status is acceptable; reading past the input, a hang or a crash is a
 * finding.
 */
#include <stdint.h>
#include <stdlib.h>
#include "wire/rrtext.h"
#include "wire/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_WIRE_RR 64

static void check_rr(const uint8_t *data, size_t size,
                     const struct wire_rr *rr)
{
	static char text[70000];
	uint8_t name[WIRE_NAME_MAX];
	size_t pos = rr->owner, n = 0, tl = 0;
	int rc;

	if (wire_read_name(data, size, &pos, name, &n, WIRE_NAME_LOWER) !=
	            WIRE_OK ||
	    n == 0 || n > WIRE_NAME_MAX)
		abort(); /* the parser accepted this owner before */
	if (rr->rdata + rr->rdlen > size)
		abort();
	if (rrtext_rr(text, sizeof text, &tl, data, size, rr) == WIRE_OK &&
	    tl >= sizeof text)
		abort();
	rc = wire_rdata_check(rr->type, data + rr->rdata, rr->rdlen);
	if (rc != WIRE_OK && rc != WIRE_ERDATA)
		abort(); /* a verdict, nothing else */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct wire_rr rr[FUZZ_WIRE_RR];
	struct wire_msg m;
	size_t i, total;

	if (wire_msg_parse(&m, data, size, rr, FUZZ_WIRE_RR) != WIRE_OK)
		return 0;
	total = m.an + m.ns + m.ar;
	if (total > FUZZ_WIRE_RR || m.end > size)
		abort();
	for (i = 0; i < total; i++)
		check_rr(data, size, &rr[i]);
	return 0;
}
