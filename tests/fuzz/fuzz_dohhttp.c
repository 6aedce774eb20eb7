/*
 * tests/fuzz/fuzz_dohhttp.c - libFuzzer target for the HTTP side of DNS
 * over HTTPS (resolver/front_tls/dohhttp.c): the input is taken as a :path
 * (with its ?dns= query string), as a content-type and as a DNS answer
 * for the max-age walk; a decoded query never exceeds its buffer (ASan)
 * and is at least a DNS header when the path is accepted.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "front_tls/dohhttp.h"

/** The decoded query's buffer (a DoH query's most). */
#define FUZZ_DOH_Q 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	uint8_t *q = malloc(FUZZ_DOH_Q);
	char *copy = malloc(size + 1); /* exactly the input: ASan */
	size_t qlen = 0;
	int rc;

	if (q == NULL || copy == NULL) {
		free(q);
		free(copy);
		return 0;
	}
	memcpy(copy, data, size);
	rc = dohhttp_path(copy, size, "/dns-query", q, FUZZ_DOH_Q, &qlen);
	if (rc == DOHHTTP_OK && (qlen < DOHHTTP_DNS_MIN || qlen > FUZZ_DOH_Q))
		abort();
	if (rc != DOHHTTP_OK && qlen != 0)
		abort();
	(void)dohhttp_ctype_ok(copy, size);
	(void)dohhttp_max_age(data, size);
	if (dohhttp_b64url_decode(copy, size, q, FUZZ_DOH_Q, &qlen) == 0 &&
	    qlen > (size / 4) * 3 + 2)
		abort();
	free(q);
	free(copy);
	return 0;
}
