/*
 * tests/fuzz/fuzz_ubdump.c - libFuzzer target for the reader of Unbound's
 * cache dump (load_cache of "unbound-control dump_cache" text,
 * resolver/store/cachefile_unbound.c and its glue in cachefile_load.c).
 *
 * The input is the body of a dump: unless it begins with Unbound's first
 * line (START_RRSET_CACHE) that line is put before it, so every input
 * reaches the reader of the RRset part. It is cut into lines at '\n' and
 * loaded into an empty cache line by line, as load_cache does. Then:
 * - nothing stored is marked validated: no entry of the cache has the
 *   status secure (Unbound's statuses are never taken as proof);
 * - what was stored dumps in curvecache's own format, and that dump
 *   loads into a second empty cache with no bad line.
 * Both caches are emptied after each input.
 *
 * Seeds (corpus/ubdump/): "lab", the dump of Debian's unbound after
 * resolving names of the loopback lab (tests/e2e/ubdump_lab.sh asks the
 * same names); "dnssec", made by hand: RRSIGs after their RRsets, every
 * SECURITY value (bogus, insecure, secure), nsec_apex, an expired TTL;
 * "cut", RRsets with missing, extra and foreign lines.
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
/** Bytes of an input (with the first line put before it) and of the
 *  dump kept for the reload; a longer dump is not reloaded. */
#define FUZZ_TEXT_BYTES ((size_t)1024 * 1024)
/** Unbound's first line. */
#define FUZZ_UB_FIRST "START_RRSET_CACHE\n"

static struct cache *first, *second;
static char *input;
static struct fuzz_text dump;

static void init(void)
{
	input = malloc(FUZZ_TEXT_BYTES + sizeof FUZZ_UB_FIRST);
	dump.p = malloc(FUZZ_TEXT_BYTES);
	dump.cap = FUZZ_TEXT_BYTES;
	first = fuzz_cache_new(FUZZ_CACHE_BYTES);
	second = fuzz_cache_new(FUZZ_CACHE_BYTES);
	if (input == NULL || dump.p == NULL)
		abort();
}

/* An entry loaded as validated: abort (Unbound's statuses are never
 * taken as proof). */
static int never_secure(const struct cache_view *v, void *arg)
{
	(void)arg;
	if (v->sec == CACHE_SEC_SECURE)
		abort();
	return 0;
}

/* Nothing stored is validated; the dump of the first cache loads into
 * the second. */
static void reload(void)
{
	(void)cache_iterate(first, FUZZ_NOW, never_secure, NULL);
	(void)fuzz_dump_reload(first, second, &dump);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char head[] = FUZZ_UB_FIRST;
	struct cachefile_load_counts n;
	size_t len = 0;
	char *text;

	if (input == NULL)
		init();
	if (size > FUZZ_TEXT_BYTES)
		return 0;
	if (size < sizeof head - 1 ||
	    memcmp(data, head, sizeof head - 1) != 0) {
		memcpy(input, head, sizeof head - 1);
		len = sizeof head - 1;
	}
	memcpy(input + len, data, size);
	len += size;
	/* an exact copy, so that a read past the input is seen (ASan) */
	text = malloc(len);
	if (text == NULL)
		abort();
	memcpy(text, input, len);
	fuzz_load_text(first, FUZZ_NOW, text, len, &n);
	free(text);
	if (n.entries > n.lines)
		abort();
	if (n.entries > 0)
		reload();
	cache_flush_all(first, NULL);
	cache_flush_all(second, NULL);
	return 0;
}
