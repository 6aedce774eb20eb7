/*
 * tests/fuzz/fuzz_proxy.c - libFuzzer target for the PROXY v2 header
 * (resolver/front/proxy.c): proxy_parse on a datagram, and the stream
 * reader of the DoT and DoH ports (proxy_stream_want), fed as reads cut
 * the stream.
 *
 * The input: a byte that seeds the sizes of the reads, then the stream.
 * The reader, each read taking at most what it asks, must never ask past
 * PROXY_STREAM_MAX nor past the header: when it says complete, what it
 * holds is exactly the header proxy_parse finds (or one proxy_parse
 * rejects for its addresses), and the bytes after it were never taken.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "front/proxy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Read the stream as the server does; returns the reader's last status
 * and the bytes taken in *have. */
static int read_stream(const uint8_t *s, size_t n, unsigned seed, size_t *have)
{
	size_t want = 0, cut;
	int rc;

	*have = 0;
	for (;;) {
		rc = proxy_stream_want(s, *have, &want);
		if (rc != PROXY_ESHORT || *have == n)
			return rc;
		if (want == 0 || *have + want > PROXY_STREAM_MAX)
			abort();
		seed = seed * 1103515245u + 12345u;
		cut = 1 + (seed >> 16) % want; /* a read brings 1..want */
		*have += cut < n - *have ? cut : n - *have;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_storage ss;
	size_t have, hl = 0;
	uint8_t *copy;
	int rc, prc;

	if (size < 1)
		return 0;
	copy = malloc(size - 1 ? size - 1 : 1);
	if (copy == NULL)
		return 0;
	memcpy(copy, data + 1, size - 1);
	if (proxy_parse(copy, size - 1, &hl, &ss) == PROXY_OK &&
	    hl > size - 1) /* a datagram */
		abort();
	rc = read_stream(copy, size - 1, data[0], &have);
	if (rc == PROXY_OK) {
		prc = proxy_parse(copy, have, &hl, &ss);
		if (prc == PROXY_OK && hl != have)
			abort();
		if (prc != PROXY_OK && prc != PROXY_EFAMILY &&
		    prc != PROXY_EADDR)
			abort();
	} else if (rc == PROXY_ESHORT) {
		if (have != size - 1)
			abort();
	}
	free(copy);
	return 0;
}
