/*
 * tests/fuzz/fuzz_cachedb.c - libFuzzer target for the record image of
 * the Redis tier (resolver/store/cachedb.c): cachedb_image_parse on the
 * bytes of a Redis value, then cachedb_image_load of what passes into an
 * empty cache.
 *
 * The first input byte chooses: 0 (even), the rest is parsed as it is
 * (a forged record: the MAC must fail, abort if it does not); 1 (odd), the
 * rest is sealed first with the target's key (its last 32 bytes replaced
 * by the right MAC), so that the checks after the MAC and the loader are
 * reached. An image that parses must lie inside the input, and a load
 * must never store a validated entry that the text did not say was.
 *
 * Seeds (corpus/cachedb/): "secure" (an A RRset, sec=secure, with its
 * RRSIG), "nxdomain" (a negative entry), "cname" (a chain), "forged"
 * (mode 0), "short".
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "cache.h"
#include "store/cachedb.h"
#include "fuzz_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** Bytes of the cache: small, so that eviction runs too. */
#define FUZZ_CACHE_BYTES ((size_t)1024 * 1024)

static struct cache *cache;
static const uint8_t fuzz_key[CACHEDB_KEY_BYTES] = { 1, 2, 3, 4, 5, 6, 7 };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cachedb_image img;
	uint8_t *buf;
	size_t len;
	int rc;

	if (cache == NULL)
		cache = fuzz_cache_new(FUZZ_CACHE_BYTES);
	if (size < 1 || size - 1 > CACHEDB_IMAGE_MAX)
		return 0;
	len = size - 1;
	/* an exact copy, so that a read past the input is seen (ASan) */
	buf = malloc(len > 0 ? len : 1);
	if (buf == NULL)
		abort();
	memcpy(buf, data + 1, len);
	if ((data[0] & 1) != 0 && len >= CACHEDB_MAC_BYTES)
		crypto_generichash(buf + len - CACHEDB_MAC_BYTES,
		                   CACHEDB_MAC_BYTES, buf,
		                   len - CACHEDB_MAC_BYTES, fuzz_key,
		                   sizeof fuzz_key);
	rc = cachedb_image_parse(buf, len, fuzz_key, FUZZ_NOW, NULL, &img);
	if (rc == CACHEDB_OK && (data[0] & 1) == 0)
		abort();
	if (rc == CACHEDB_OK) {
		if (img.text < (const char *)buf ||
		    img.text + img.text_len > (const char *)buf + len)
			abort();
		rc = cachedb_image_load(cache, NULL, FUZZ_NOW, &img, NULL);
		if (rc != CACHEDB_OK && rc != CACHEDB_ELOAD &&
		    rc != CACHEDB_EEMPTY)
			abort();
	}
	free(buf);
	cache_flush_all(cache, NULL);
	return 0;
}
