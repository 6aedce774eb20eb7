/*
 * cache/shard.c - one shard: its bucket chains, its CLOCK ring, its byte
 * budget, and the insert that keeps all three right.
 *
 * Every function here except init/fini runs with the shard lock held.
 * An insert does all its work under the lock, eviction and allocation
 * included, so the bytes a shard has allocated never exceed its budget,
 * not even between two steps of an insert.
 *
 * The bucket array starts at CACHE_BUCKETS_START heads and doubles when
 * an insert finds entries for half the buckets, up to max_buckets (the
 * budget's count): a shard that holds few names touches few pages.
 * Readers take the same lock, so none ever sees a table being rebuilt.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

int cache_shard_init(struct cache_shard *s, size_t budget)
{
	size_t max = budget / CACHE_BYTES_PER_BUCKET;
	size_t n;

	memset(s, 0, sizeof(*s));
	if (max < 1)
		max = 1;
	if (cache_mem_estimate(max * sizeof(*s->buckets)) * 2 > budget)
		return CACHE_EINVAL;
	n = max < CACHE_BUCKETS_START ? max : CACHE_BUCKETS_START;
	s->buckets = calloc(n, sizeof(*s->buckets));
	if (s->buckets == NULL)
		return CACHE_ENOMEM;
	s->nbuckets = n;
	s->max_buckets = max;
	s->budget = budget;
	s->used = cache_mem_charge(s->buckets, n * sizeof(*s->buckets));
	if (pthread_mutex_init(&s->lock, NULL)) {
		free(s->buckets);
		s->buckets = NULL;
		return CACHE_ENOMEM;
	}
	return CACHE_OK;
}

void cache_shard_fini(struct cache_shard *s)
{
	if (s->buckets == NULL)
		return;
	(void)cache_shard_clear(s, NULL, 0);
	free(s->buckets);
	s->buckets = NULL;
	pthread_mutex_destroy(&s->lock);
}

/* Mark a change of the shard's entries (lock held): a watch taken
 * before it no longer holds (cache_watch_same). */
void cache_shard_changed(struct cache_shard *s)
{
	__atomic_store_n(&s->gen, s->gen + 1, __ATOMIC_RELEASE);
}

/* Put e at the head of its chain and just behind the CLOCK hand. */
void cache_shard_link(struct cache_shard *s, struct cache_entry *e)
{
	cache_shard_changed(s);
	struct cache_entry **b = cache_shard_bucket(s, e->hash);

	e->chain = *b;
	*b = e;
	if (s->hand == NULL) {
		e->prev = e->next = e;
		s->hand = e;
	} else {
		e->next = s->hand;
		e->prev = s->hand->prev;
		e->prev->next = e;
		s->hand->prev = e;
	}
	s->entries++;
}

/* Take e off its chain and the ring, uncharge and free it. */
void cache_shard_remove(struct cache_shard *s, struct cache_entry *e)
{
	struct cache_entry **pp = cache_shard_bucket(s, e->hash);
	size_t steps = 0;
	size_t charge;

	cache_shard_changed(s);
	while (*pp != e) {
		CACHE_REQUIRE(*pp != NULL && ++steps <= CACHE_CHAIN_MAX);
		pp = &(*pp)->chain;
	}
	*pp = e->chain;
	if (e->next == e) {
		s->hand = NULL;
	} else {
		if (s->hand == e)
			s->hand = e->next;
		e->prev->next = e->next;
		e->next->prev = e->prev;
	}
	charge = cache_mem_charge(e, cache_entry_size(e));
	CACHE_REQUIRE(s->entries > 0 && s->used >= charge);
	s->entries--;
	s->used -= charge;
	free(e);
}

/* Remove every entry at or below zone (all of them if zone is NULL). */
size_t cache_shard_clear(struct cache_shard *s, const uint8_t *zone,
                         size_t zone_len)
{
	size_t n = s->entries, removed = 0;
	struct cache_entry *e = s->hand;

	for (size_t i = 0; i < n && e != NULL; i++) {
		struct cache_entry *next = e->next;
		if (zone == NULL ||
		    cache_name_below(e->data, e->name_len, zone, zone_len)) {
			cache_shard_remove(s, e);
			removed++;
		}
		e = next;
	}
	return removed;
}

/*
 * Apply the rank rule and clear the way for b: the entry of the same key
 * goes (unless it wins), and so do entries of the same name that b
 * contradicts: an RRset or NODATA removes the name's NXDOMAIN, an
 * NXDOMAIN removes the name's other entries, each only if it does not
 * outrank b (rank, then DNSCurve and SECURE at equal rank; a BOGUS entry
 * never does) or it has expired. *ref tells whether the replaced entry had
 * been read since the hand passed, so that a refreshed hot entry stays hot.
 */
static int clear_way(struct cache_shard *s, const struct cache_build *b,
                     time_t now, unsigned *ref)
{
	struct cache_entry **bucket = cache_shard_bucket(s, (uint32_t)b->hash);
	struct cache_entry *e, *next;
	int curve = b->server_key != NULL;
	size_t n = 0;

	/* Chains never exceed CACHE_CHAIN_MAX (trim_chain): the cap. */
	for (e = *bucket; e != NULL; e = e->chain) {
		CACHE_REQUIRE(++n <= CACHE_CHAIN_MAX);
		if (e->type == b->type &&
		    cache_entry_same_name(e, (uint32_t)b->hash, b->name,
		                          b->name_len, b->klass) &&
		    cache_entry_fresh(e, now) &&
		    cache_entry_outranks(e, b->rank, curve, b->sec))
			return CACHE_ERANK;
	}
	for (e = *bucket; e != NULL; e = next) {
		int contradicts;
		next = e->chain;
		if (!cache_entry_same_name(e, (uint32_t)b->hash, b->name,
		                           b->name_len, b->klass))
			continue;
		contradicts = e->type == b->type ||
		              b->kind == CACHE_KIND_NXDOMAIN ||
		              cache_entry_kind(e) == CACHE_KIND_NXDOMAIN;
		if (contradicts &&
		    (!cache_entry_fresh(e, now) ||
		     !cache_entry_outranks(e, b->rank, curve, b->sec))) {
			if (e->type == b->type)
				*ref = e->flags & CACHE_F_REF;
			cache_shard_remove(s, e);
		}
	}
	return CACHE_OK;
}

/* Keep the chain of b's bucket below CACHE_CHAIN_MAX: evict its tail. */
static void trim_chain(struct cache_shard *s, uint32_t hash)
{
	for (;;) {
		struct cache_entry **bucket = cache_shard_bucket(s, hash);
		struct cache_entry *e = *bucket, *last = NULL;
		size_t n = 0;
		for (; e != NULL; e = e->chain, n++) {
			CACHE_REQUIRE(n < CACHE_CHAIN_MAX);
			last = e;
		}
		if (n < CACHE_CHAIN_MAX)
			return;
		s->evictions++;
		cache_shard_remove(s, last);
	}
}

/* Move every entry of the array old (n heads) to its chain in s's array
 * (lock held); relative order within a chain is not kept. */
static void rehash(struct cache_shard *s, struct cache_entry **old, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct cache_entry *e = old[i], *next;
		for (; e != NULL; e = next) {
			struct cache_entry **b = cache_shard_bucket(s,
			                                            e->hash);
			next = e->chain;
			e->chain = *b;
			*b = e;
		}
	}
}

/*
 * Double the bucket array once the entries reach half the buckets (lock
 * held). The new array is charged like an entry (room made, evicting if
 * the shard is full) while the old one still is, so the budget holds at
 * every step; the old array is freed and uncharged after the move. On
 * failure the shard keeps its array: chains grow, trim_chain caps them.
 */
static void grow_buckets(struct cache_shard *s, time_t now)
{
	size_t n = s->nbuckets * 2, bytes, charge, old_n = s->nbuckets;
	struct cache_entry **nb, **old = s->buckets;

	if (s->entries * CACHE_BUCKET_LOAD < s->nbuckets ||
	    s->nbuckets >= s->max_buckets)
		return;
	if (n > s->max_buckets)
		n = s->max_buckets;
	bytes = n * sizeof(*nb);
	if (cache_make_room(s, cache_mem_estimate(bytes), now) != CACHE_OK)
		return;
	nb = calloc(n, sizeof(*nb));
	if (nb == NULL)
		return;
	charge = cache_mem_charge(nb, bytes);
	if (cache_make_room(s, charge, now) != CACHE_OK) {
		free(nb);
		return;
	}
	s->used += charge;
	s->buckets = nb;
	s->nbuckets = n;
	rehash(s, old, old_n);
	charge = cache_mem_charge(old, old_n * sizeof(*old));
	CACHE_REQUIRE(s->used >= charge);
	s->used -= charge;
	free(old);
}

/**
 * Insert the entry described by b (lock held): rank rule, room, then
 * allocate, fill and link.
 * @return CACHE_OK, CACHE_ERANK, CACHE_ETOOBIG or CACHE_ENOMEM.
 */
int cache_shard_insert(struct cache_shard *s, const struct cache_build *b,
                       time_t now)
{
	size_t size = cache_build_size(b), charge;
	struct cache_entry *e;
	unsigned ref = 0;
	int rc;

	if (cache_mem_estimate(size) > s->budget / CACHE_ENTRY_SHARE) {
		s->too_big++;
		return CACHE_ETOOBIG;
	}
	grow_buckets(s, now);
	rc = clear_way(s, b, now, &ref);
	if (rc != CACHE_OK) {
		s->rank_kept++;
		return rc;
	}
	trim_chain(s, (uint32_t)b->hash);
	rc = cache_make_room(s, cache_mem_estimate(size), now);
	if (rc != CACHE_OK)
		return rc;
	e = malloc(size);
	if (e == NULL)
		return CACHE_ENOMEM;
	charge = cache_mem_charge(e, size);
	if (cache_make_room(s, charge, now) != CACHE_OK) {
		free(e);
		s->too_big++;
		return CACHE_ETOOBIG;
	}
	cache_entry_fill(e, b);
	e->flags |= (uint8_t)ref;
	cache_shard_link(s, e);
	s->used += charge;
	s->inserts++;
	return CACHE_OK;
}
