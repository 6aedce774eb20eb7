/*
 * resolver/base/slab.h - fixed-size objects from one reserved region, in
 * 4 KiB pages touched only as used and given back when the slab is idle.
 *
 * Why: a cold resolution's state (struct iter_req, ~45 KB, and its
 * frames, ~7 KB each) came from malloc, and the first hundred
 * concurrent resolutions after a start touched ~1,200 fresh 4 KiB
 * pages (on the virtual machines curvecache is benchmarked on, a page
 * fault costs 2-15 us). Slots here live in one MAP_NORESERVE region
 * and freed slots are reused from a free list, last freed first, so
 * steady state touches nothing new. The region was once advised
 * MADV_HUGEPAGE (fewer faults), but a huge page makes 2 MiB resident
 * for the first slot in it: a burst of 100 cold names held ~6 MB, three
 * times what Unbound's heap grows by for the same names
 * (tests/bench/bench_validate.sh, BENCH_COLD=1); it is now advised
 * MADV_NOHUGEPAGE, so only the pages a slot writes are resident.
 *
 * Design notes:
 * - The region reserves nslots * slot bytes of address space only
 *   (rounded up to, and aligned on, 2 MiB);
 *   memory is committed as slots are first used (bump pointer). When
 *   the last held slot is freed, the pages past the first 128 KiB are
 *   given back (MADV_DONTNEED) and slots are handed out from the start
 *   again (at most once a second, unless this burst reached further
 *   than the last one given back): light traffic stays within the
 *   pages kept, a burst's memory is not held after it, and a slab in
 *   constant use pays nothing. A slab with an owner's timer
 *   (slab_on_idle, slab_trim: the worker's) gives them back only once
 *   it has stayed idle ~250 ms instead: a cold run's short idle gaps
 *   (waves waiting on one referral) cost 1,300 page faults for 1,000
 *   names when each gave the pages back, and a burst ending within the
 *   second of the last give-back was held until the next burst.
 * - When the region is full, or could not be mapped, slab_alloc falls
 *   back to malloc and slab_free to free: callers never see a limit.
 * - slab_alloc returns uninitialised memory (callers clear what they
 *   need: the point is not to touch more than they use).
 * - Not thread-safe: one slab per worker thread.
 * - slab_free(NULL, p) is free(p).
 * - Sanitizer builds poison free slots and a redzone after each object
 *   (ASan's manual poisoning), so overruns and use after free are still
 *   reported as with malloc.
 */
#ifndef CURVECACHE_RESOLVER_SLAB_H
#define CURVECACHE_RESOLVER_SLAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One region of equal slots; fields private. */
struct slab {
	uint8_t *base; /**< NULL: not mapped, malloc only */
	size_t len;    /**< bytes mapped at base */
	size_t size;   /**< bytes of an object */
	size_t slot;   /**< bytes per slot (size, a redzone in
	                    sanitizer builds, rounded to 64) */
	size_t nslots;
	size_t bumped;           /**< slots handed out at least once */
	void *free_list;         /**< freed slots, linked through their
	                              first bytes */
	size_t in_use;           /**< slots (not malloc fallbacks) held */
	uint64_t fallbacks;      /**< allocations that went to malloc */
	bool trimmed;            /**< pages were given back once */
	uint64_t trimmed_ms;     /**< when (clock_ms), the last time */
	size_t trimmed_used;     /**< bytes of slots used before it */
	void (*idle_fn)(void *); /**< slab_on_idle */
	void *idle_arg;
};

/**
 * Reserve a region for nslots objects of size bytes.
 * @return 0, or -1 if the region could not be mapped (the slab then
 *   works through malloc; it still has to be passed to slab_fini).
 */
int slab_init(struct slab *s, size_t size, size_t nslots);

/** An uninitialised object (from the region, else malloc), or NULL
 * when memory is exhausted. */
void *slab_alloc(struct slab *s);

/** Give back an object from slab_alloc on the same slab (NULL: no-op). */
void slab_free(struct slab *s, void *p);

/**
 * Have fn(arg) called, instead of the give-back, when the last held
 * slot is freed and pages past the first ones kept are resident: the
 * caller calls slab_trim once the slab has stayed idle a while (a
 * timer restarted at each call). Never called while slots are held, so
 * a load that does not resolve (cache hits) never reaches it.
 */
void slab_on_idle(struct slab *s, void (*fn)(void *), void *arg);

/** If no slot is held, give the pages past the first ones kept back
 * now (whatever the last give-back's time); else nothing. */
void slab_trim(struct slab *s);

/** Unmap the region; if objects are still held it is left mapped
 * (they stay valid) rather than pulled from under them. */
void slab_fini(struct slab *s);

#endif
