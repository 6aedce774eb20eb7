/*
 * tests/fuzz/fuzz_tlsa.c - libFuzzer target for TLSA RDATA
 * (resolver/validate/tlsa.c): the input read as a record, and as a DER
 * certificate matched against a fixed record of each selector and
 * matching type.
 *
 * What is taken must hold up: the association data lies inside the
 * input, a SHA-256/512 has its length, and a match is 0, 1 or an error.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "validate/tlsa.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t zero[TLSA_SHA512_BYTES];
	/* a private copy so that ASan sees any read past size */
	uint8_t *buf = malloc(size > 0 ? size : 1);
	struct tlsa_rr rr, fixed;
	int r;

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	r = tlsa_parse(buf, size, &rr);
	if (r == TLSA_OK || r == TLSA_EUNUSABLE) {
		if (rr.data != buf + TLSA_FIXED_BYTES ||
		    rr.len + TLSA_FIXED_BYTES != size)
			abort();
		if (rr.mtype == TLSA_MATCH_SHA256 &&
		    rr.len != TLSA_SHA256_BYTES)
			abort();
	}
	fixed.usage = TLSA_USAGE_DANE_EE;
	fixed.data = zero;
	for (fixed.selector = 0; fixed.selector <= TLSA_SEL_SPKI;
	     fixed.selector++)
		for (fixed.mtype = 0; fixed.mtype <= TLSA_MATCH_SHA512;
		     fixed.mtype++) {
			fixed.len = fixed.mtype == TLSA_MATCH_SHA256 ?
			                    TLSA_SHA256_BYTES :
			                    TLSA_SHA512_BYTES;
			r = tlsa_match(&fixed, buf, size);
			if (r != 0 && r != 1 && r != -TLSA_ECERT)
				abort();
		}
	free(buf);
	return 0;
}
