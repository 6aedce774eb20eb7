/*
 * tests/fuzz/fuzz_load.h - a small cache and the load_cache line loop,
 * shared by the resolver/ fuzz targets (cachefile, query).
 *
 * fuzz_load_text cuts text into lines at '\n' and feeds them to
 * cachefile_load_line as load_cache does (a last line without '\n'
 * counts too), then writes the report, whose text must fit its bound.
 * fuzz_dump_reload dumps a cache and loads the dump into another (the
 * round trip of the cachefile and ubdump targets).
 */
#ifndef CURVECACHE_TESTS_FUZZ_FUZZ_LOAD_H
#define CURVECACHE_TESTS_FUZZ_FUZZ_LOAD_H

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache.h"
#include "store/cachefile.h"

/** The wall clock of every fuzz target: the time of the seed dumps. */
#define FUZZ_NOW ((time_t)1764770000)

/** A cache of max_bytes with the default config; aborts on failure. */
static inline struct cache *fuzz_cache_new(size_t max_bytes)
{
	struct cache_config cc;
	struct cache *c = NULL;

	cache_config_init(&cc);
	cc.max_bytes = max_bytes;
	if (cache_create(&cc, &c) != CACHE_OK)
		abort();
	return c;
}

/** Load cache-file text into c; n receives the counters. */
static inline void fuzz_load_text(struct cache *c, time_t now,
                                  const char *text, size_t len,
                                  struct cachefile_load_counts *n)
{
	static char report[CACHEFILE_REPORT_BYTES];
	struct cachefile_load *ld = NULL;
	const char *nl;
	size_t k;

	if (cachefile_load_new(c, now, &ld) != CACHEFILE_OK)
		abort();
	while (len > 0) {
		nl = memchr(text, '\n', len);
		k = nl != NULL ? (size_t)(nl - text) : len;
		(void)cachefile_load_line(ld, text, k);
		k += nl != NULL;
		text += k;
		len -= k;
	}
	cachefile_load_finish(ld);
	cachefile_load_counts(ld, n);
	k = cachefile_load_report(ld, report, sizeof report);
	if (k >= sizeof report || strlen(report) != k)
		abort();
	cachefile_load_free(ld);
}

/** Text gathered by fuzz_text_put, at most cap bytes (cut: more came). */
struct fuzz_text {
	char *p;
	size_t len, cap;
	bool cut;
};

/** A cachefile_put_fn appending to a struct fuzz_text. */
static inline int fuzz_text_put(void *arg, const char *text, size_t len)
{
	struct fuzz_text *d = arg;

	if (len > d->cap - d->len) {
		d->cut = true;
		return 1;
	}
	memcpy(d->p + d->len, text, len);
	d->len += len;
	return 0;
}

/**
 * Dump `from` into d, and load the dump into `to`: whatever curvecache
 * writes it must read back, so a bad line aborts. A dump longer than
 * d->cap is not loaded.
 * @return true if the dump was loaded (d holds its text).
 */
static inline bool fuzz_dump_reload(struct cache *from, struct cache *to,
                                    struct fuzz_text *d)
{
	struct cachefile_load_counts n;

	d->len = 0;
	d->cut = false;
	if (cachefile_dump(from, FUZZ_NOW, fuzz_text_put, d, NULL) !=
	            CACHEFILE_OK &&
	    !d->cut)
		abort();
	if (d->cut)
		return false;
	fuzz_load_text(to, FUZZ_NOW, d->p, d->len, &n);
	if (n.bad != 0)
		abort();
	return true;
}

#endif /* CURVECACHE_TESTS_FUZZ_FUZZ_LOAD_H */
