/*
 * resolver/base/slab.c - fixed-size objects from one huge-page region
 * (slab.h).
 */
#include "config.h"
#include "slab.h"
#include "clock.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLAB_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define SLAB_ASAN 1
#endif

#ifdef SLAB_ASAN
/* Sanitizer builds: a slot is addressable only while it is held, and
 * only for the object's size; a redzone after each object catches
 * overruns into the next slot as malloc's would. */
#include <sanitizer/asan_interface.h>
#define SLAB_REDZONE 64u
#define SLAB_POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define SLAB_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define SLAB_REDZONE 0u
#define SLAB_POISON(p, n) ((void)(p), (void)(n))
#define SLAB_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

/** Slot alignment: a cache line. */
#define SLAB_ALIGN 64u
/** A transparent huge page (x86-64, arm64 with 4 KiB pages). */
#define SLAB_HUGE ((size_t)2 << 20)
/** Bytes at the start of the region kept resident when the slab goes
 * idle; the rest is given back (slab_idle). */
#define SLAB_KEEP_BYTES ((size_t)128 << 10)
/** At most one give-back in this many milliseconds, unless the burst
 * just ended reached further than the last one given back: a load that
 * goes idle between like bursts refaults their pages once a second at
 * most, and a burst larger than the last is not held after it. */
#define SLAB_TRIM_GAP_MS 1000u

int slab_init(struct slab *s, size_t size, size_t nslots)
{
	uint8_t *p, *start;
	size_t len, head, tail;

	memset(s, 0, sizeof(*s));
	if (size == 0 || size > SIZE_MAX / 2)
		return -1;
	s->size = size < sizeof(void *) ? sizeof(void *) : size;
	s->slot = (s->size + SLAB_REDZONE + SLAB_ALIGN - 1) / SLAB_ALIGN *
	          SLAB_ALIGN;
	if (nslots == 0 || nslots > (SIZE_MAX - SLAB_HUGE) / s->slot)
		return -1;
	len = (s->slot * nslots + SLAB_HUGE - 1) / SLAB_HUGE * SLAB_HUGE;
	/* over-reserve by one huge page to start on a 2 MiB boundary: the
	 * kernel only backs aligned 2 MiB ranges with huge pages */
	p = mmap(NULL, len + SLAB_HUGE, PROT_READ | PROT_WRITE,
	         MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return -1;
	start = (uint8_t *)(((uintptr_t)p + SLAB_HUGE - 1) &
	                    ~(uintptr_t)(SLAB_HUGE - 1));
	head = (size_t)(start - p);
	tail = SLAB_HUGE - head;
	if (head > 0)
		(void)munmap(p, head);
	if (tail > 0)
		(void)munmap(start + len, tail);
#ifdef MADV_NOHUGEPAGE
	/* 4 KiB pages, even where THP is "always": a huge page would
	 * make a few hundred slots resident 2 MiB at a time */
	(void)madvise(start, len, MADV_NOHUGEPAGE);
#endif
	SLAB_POISON(start, len);
	s->base = start;
	s->len = len;
	s->nslots = nslots;
	return 0;
}

static int slab_owns(const struct slab *s, const void *p)
{
	const uint8_t *b = p;

	return s->base != NULL && b >= s->base &&
	       b < s->base + s->slot * s->nslots;
}

void *slab_alloc(struct slab *s)
{
	void *p;

	if (s->free_list != NULL) {
		p = s->free_list;
		SLAB_UNPOISON(p, s->size);
		memcpy(&s->free_list, p, sizeof(void *));
		s->in_use++;
		return p;
	}
	if (s->base != NULL && s->bumped < s->nslots) {
		p = s->base + s->slot * s->bumped++;
		SLAB_UNPOISON(p, s->size);
		s->in_use++;
		return p;
	}
	s->fallbacks++;
	return malloc(s->size);
}

/* Give the pages of the used slots beyond the first SLAB_KEEP_BYTES
 * back to the kernel (they read as zeros when next touched), and hand
 * slots out from the start again. */
static void slab_give_back(struct slab *s, size_t used, uint64_t now)
{
	s->trimmed = true;
	s->trimmed_ms = now;
	s->trimmed_used = used;
	(void)madvise(s->base + SLAB_KEEP_BYTES, used - SLAB_KEEP_BYTES,
	              MADV_DONTNEED);
	s->free_list = NULL;
	s->bumped = 0;
}

/* Every slot is free: give pages back (slab_give_back), so light
 * traffic stays within the pages kept and a burst's pages are not held
 * after it. With an owner's timer (slab_on_idle), the owner is told and
 * gives them back once the slab has stayed idle: a load that goes idle
 * between waves (a cold run waiting on one referral) keeps its pages
 * instead of faulting them in again. Without one, not again within
 * SLAB_TRIM_GAP_MS of the last time, unless this burst reached
 * further. */
static void slab_idle(struct slab *s)
{
	size_t used = s->slot * s->bumped;
	uint64_t now;

	if (used <= SLAB_KEEP_BYTES)
		return;
	if (s->idle_fn != NULL) {
		s->idle_fn(s->idle_arg);
		return;
	}
	now = clock_ms();
	if (s->trimmed && now - s->trimmed_ms < SLAB_TRIM_GAP_MS &&
	    used <= s->trimmed_used)
		return;
	slab_give_back(s, used, now);
}

void slab_on_idle(struct slab *s, void (*fn)(void *), void *arg)
{
	s->idle_fn = fn;
	s->idle_arg = arg;
}

void slab_trim(struct slab *s)
{
	size_t used = s->slot * s->bumped;

	if (s->base == NULL || s->in_use > 0 || used <= SLAB_KEEP_BYTES)
		return;
	slab_give_back(s, used, clock_ms());
}

void slab_free(struct slab *s, void *p)
{
	if (p == NULL)
		return;
	if (s == NULL || !slab_owns(s, p)) {
		free(p);
		return;
	}
	memcpy(p, &s->free_list, sizeof(void *));
	s->free_list = p;
	s->in_use--;
	SLAB_POISON(p, s->size);
	if (s->in_use == 0)
		slab_idle(s);
}

void slab_fini(struct slab *s)
{
	if (s->base != NULL && s->in_use == 0) {
		SLAB_UNPOISON(s->base, s->len);
		(void)munmap(s->base, s->len);
	}
	memset(s, 0, sizeof(*s));
}
