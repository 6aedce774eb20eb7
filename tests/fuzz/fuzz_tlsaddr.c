/*
 * tests/fuzz/fuzz_tlsaddr.c - libFuzzer target for forward servers written
 * ADDR[@PORT][#NAME[^PIN]] (resolver/conf/cfg_tlsaddr.c) and for the pin
 * alone; and the EDNS(0) options of DNS over TLS (transport/dot_opt.c):
 * padding and edns-tcp-keepalive added to a query (each reads the
 * packet it grows; both at once give the same bytes), the keepalive
 * TIMEOUT read from an answer.
 *
 * The input is not NUL-terminated (the parser takes (buf, len)). What is
 * taken must hold up: an AUTH-NAME is a NUL-terminated host name of
 * printable characters, and a pin is only set with a name.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "transport/dot.h"

/* Padding leaves a packet as it was or makes it whole blocks; the
 * keepalive option adds 4 bytes or nothing. */
static void check_pad(const uint8_t *data, size_t size)
{
	size_t cap = size + DOT_QUERY_GROWTH, n, k;
	uint8_t *pkt = malloc(cap), *both = malloc(cap);
	uint16_t t;

	if (pkt == NULL) {
		free(both);
		return;
	}
	memcpy(pkt, data, size);
	(void)dot_keepalive_of(pkt, size, &t);
	k = dot_keepalive_add(pkt, size, cap);
	if (k != size && k != size + 4)
		abort();
	n = dot_pad(pkt, k, cap);
	if (n != k && (n < k || n % DOT_PAD_BLOCK != 0 || n > cap))
		abort();
	/* both in one walk: the same bytes */
	if (both != NULL) {
		memcpy(both, data, size);
		if (dot_opts_add(both, size, cap) != n ||
		    memcmp(both, pkt, n) != 0)
			abort();
	}
	free(both);
	free(pkt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cfg_addr addr;
	struct cfg_tls tls;
	uint8_t pin[CFG_PIN_BYTES];
	size_t n;

	/* a private copy so that ASan sees any read past size */
	char *buf = malloc(size > 0 ? size : 1);

	if (buf == NULL)
		return 0;
	memcpy(buf, data, size);
	if (cfg_tlsaddr_parse(buf, size, &addr, &tls) == 0) {
		n = strnlen(tls.name, sizeof tls.name);
		if (n >= sizeof tls.name || (tls.has_pin && n == 0))
			abort();
		if (addr.len == 0)
			abort();
	}
	(void)cfg_pin_parse(buf, size, pin);
	free(buf);
	check_pad(data, size);
	return 0;
}
