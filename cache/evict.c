/*
 * cache/evict.c - memory accounting and the CLOCK eviction policy.
 *
 * Accounting: every block the cache allocates is charged at what the
 * allocator really uses for it. With glibc that is malloc_usable_size()
 * plus the chunk header (one size_t); elsewhere the request is rounded up
 * to 16 bytes and 16 bytes of header are added, which is at least what
 * common allocators use. Estimates made before an allocation use the
 * glibc chunk rule (16-byte steps, 32-byte minimum) and are checked
 * against the real charge once the block exists.
 *
 * CLOCK (second chance): the entries of a shard form a ring with a hand.
 * A read sets the entry's reference bit. To make room, the hand looks at
 * the entry under it: expired -> reclaimed at once (counted "expired");
 * referenced -> bit cleared, hand moves on; else -> evicted (counted
 * "evictions"). New entries join just behind the hand with the bit
 * clear, so a scan of names read once cannot push out the hot set: the
 * hand meets the newcomers before it comes back to anything read since.
 */
#include "config.h"

#include <stdlib.h> /* first: it defines __GLIBC__ */

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "internal.h"

/** glibc: header of one chunk, and its size granule and minimum. */
#define CACHE_CHUNK_HEADER sizeof(size_t)
#define CACHE_CHUNK_ALIGN 16
#define CACHE_CHUNK_MIN 32

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) / to * to;
}

/** What a block of n bytes is expected to cost. */
size_t cache_mem_estimate(size_t n)
{
	size_t chunk = round_up(n + CACHE_CHUNK_HEADER, CACHE_CHUNK_ALIGN);
#if defined(__GLIBC__)
	return chunk < CACHE_CHUNK_MIN ? CACHE_CHUNK_MIN : chunk;
#else
	return round_up(n, CACHE_CHUNK_ALIGN) + CACHE_CHUNK_ALIGN;
#endif
}

/** What the block p, asked for with n bytes, costs. */
size_t cache_mem_charge(const void *p, size_t n)
{
#if defined(__GLIBC__)
	size_t usable = malloc_usable_size((void *)p);
	CACHE_REQUIRE(usable >= n);
	return usable + CACHE_CHUNK_HEADER;
#else
	(void)p;
	return cache_mem_estimate(n);
#endif
}

/* The entry to go next: see the top of this file. */
static struct cache_entry *clock_pick(struct cache_shard *s, time_t now,
                                      int *expired)
{
	/* One full turn clears every bit, so entries + 1 steps suffice. */
	size_t steps = s->entries + 1;
	struct cache_entry *e = s->hand;

	while (e != NULL && steps-- > 0) {
		if (!cache_entry_fresh(e, now)) {
			*expired = 1;
			return e;
		}
		if (!(e->flags & CACHE_F_REF))
			break;
		e->flags &= (uint8_t)~CACHE_F_REF;
		e = s->hand = e->next;
	}
	*expired = 0;
	return e;
}

/**
 * Evict one entry from a shard (lock held).
 * @return 1 if an entry went, 0 if the shard is empty.
 */
int cache_evict_one(struct cache_shard *s, time_t now)
{
	int expired = 0;
	struct cache_entry *e = clock_pick(s, now, &expired);

	if (e == NULL)
		return 0;
	if (expired)
		s->expired++;
	else
		s->evictions++;
	cache_shard_remove(s, e);
	return 1;
}

/**
 * Evict until need more bytes fit in the shard's budget (lock held).
 * @return CACHE_OK, or CACHE_ETOOBIG if they cannot fit even when empty.
 */
int cache_make_room(struct cache_shard *s, size_t need, time_t now)
{
	while (s->used + need > s->budget)
		if (!cache_evict_one(s, now))
			return CACHE_ETOOBIG;
	return CACHE_OK;
}
