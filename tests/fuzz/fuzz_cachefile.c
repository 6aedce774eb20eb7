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

struct dump_buf {
	char *p;
	size_t len;
	bool cut;
};

static struct cache *first, *second;
static struct dump_buf dump;

static int dump_put(void *arg, const char *text, size_t len)
{
	struct dump_buf *d = arg;

	if (len > FUZZ_DUMP_BYTES - d->len) {
		d->cut = true;
		return 1;
	}
	memcpy(d->p + d->len, text, len);
	d->len += len;
	return 0;
}

static void init(void)
{
	dump.p = malloc(FUZZ_DUMP_BYTES);
	first = fuzz_cache_new(FUZZ_CACHE_BYTES);
	second = fuzz_cache_new(FUZZ_CACHE_BYTES);
	if (dump.p == NULL)
		abort();
}

/* The dump of the first cache must load into the second without error. */
static void reload(void)
{
	struct cachefile_load_counts n;

	dump.len = 0;
	dump.cut = false;
	if (cachefile_dump(first, FUZZ_NOW, dump_put, &dump, NULL) !=
	            CACHEFILE_OK &&
	    !dump.cut)
		abort();
	if (dump.cut)
		return;
	fuzz_load_text(second, FUZZ_NOW, dump.p, dump.len, &n);
	if (n.bad != 0)
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
		reload();
	cache_flush_all(first, NULL);
	cache_flush_all(second, NULL);
	return 0;
}
