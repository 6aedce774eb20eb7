/*
 * tests/fuzz/fuzz_cachefile.c - libFuzzer target for the cache-dump
 * loader (load_cache, resolver/store/cachefile.h).
 *
 * The input is a cache file: it is cut into lines at '\n' and loaded into
 * an empty cache line by line, as load_cache does, then the report is
 * written. What was stored is dumped, and the dump is loaded into a
 * second empty cache: whatever curvecache writes it must read back, so
 * the second load must have no bad line. Both caches are emptied after
 * each input.
 *
 * Seeds: tests/fuzz/mkcorpus.sh makes them from the lab's dump, except
 * corpus/cachefile/dnssec, made by hand while the lab has no signed zone:
 * entries with a DNSSEC status (sec=) and image lines ("; dnssec": RRSIGs
 * of ECDSA P-256 size, NSEC proofs of a NODATA and an NXDOMAIN).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "store/cachefile.h"
#include "fuzz_load.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** Bytes of each cache: small, so that eviction runs too. */
#define FUZZ_CACHE_BYTES ((size_t)1024 * 1024)
/** Bytes of the dump kept for the reload; a longer dump is cut. */
#define FUZZ_DUMP_BYTES ((size_t)1024 * 1024)

static struct cache *first, *second;
static struct fuzz_text dump;

static void init(void)
{
	dump.p = malloc(FUZZ_DUMP_BYTES);
	dump.cap = FUZZ_DUMP_BYTES;
	first = fuzz_cache_new(FUZZ_CACHE_BYTES);
	second = fuzz_cache_new(FUZZ_CACHE_BYTES);
	if (dump.p == NULL)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cachefile_load_counts n;

	if (dump.p == NULL)
		init();
	fuzz_load_text(first, FUZZ_NOW, (const char *)data, size, &n);
	if (n.entries > n.lines)
		abort();
	if (n.entries > 0)
		(void)fuzz_dump_reload(first, second, &dump);
	cache_flush_all(first, NULL);
	cache_flush_all(second, NULL);
	return 0;
}
