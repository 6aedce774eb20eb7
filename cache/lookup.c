/*
 * cache/lookup.c - reads (get, closest zone cut), flushes, iteration and
 * counters.
 *
 * The read path: check the name, hash it, lock its one shard, walk one
 * chain (at most CACHE_CHAIN_MAX entries), copy the chosen entry into
 * the caller's buffer with its TTL counted down, set its CLOCK bit, move
 * it to the front of its chain, unlock. No allocation, no global lock.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "internal.h"

static int query_check(const struct cache_query *q)
{
	int rc = cache_name_check(q->name, q->name_len);

	if (rc != CACHE_OK)
		return rc;
	return cache_type_check(q->type);
}

static int entry_curve(const struct cache_entry *e)
{
	return (e->flags & CACHE_F_CURVE) ? 1 : 0;
}

/*
 * Choose the entry that answers q: the exact key or the name's NXDOMAIN,
 * fresh before stale, and the higher rank if both are fresh. With
 * rrset_only, only a positive entry of the exact key counts.
 */
static struct cache_entry *pick(struct cache_shard *s, uint32_t hash,
                                const struct cache_query *q, time_t now,
                                int rrset_only)
{
	struct cache_entry *e = *cache_shard_bucket(s, hash);
	struct cache_entry *exact = NULL, *nx = NULL;
	int fresh_exact, fresh_nx;

	for (size_t n = 0; e != NULL && n < CACHE_CHAIN_MAX;
	     e = e->chain, n++) {
		if (!cache_entry_same_name(e, hash, q->name, q->name_len,
		                           q->klass))
			continue;
		if (e->type == q->type)
			exact = e;
		else if (cache_entry_kind(e) == CACHE_KIND_NXDOMAIN)
			nx = e;
	}
	if (rrset_only) {
		if (exact == NULL ||
		    cache_entry_kind(exact) != CACHE_KIND_RRSET)
			return NULL;
		nx = NULL;
	}
	fresh_exact = exact != NULL && cache_entry_fresh(exact, now);
	fresh_nx = nx != NULL && cache_entry_fresh(nx, now);
	if (fresh_exact && fresh_nx)
		return cache_entry_outranks(nx, cache_entry_rank(exact),
		                            entry_curve(exact),
		                            cache_entry_sec(exact)) ?
		               nx :
		               exact;
	if (fresh_exact)
		return exact;
	if (fresh_nx)
		return nx;
	if (!(q->flags & CACHE_GET_STALE))
		return NULL;
	return exact != NULL ? exact : nx;
}

/*
 * The copy-out with CACHE_GET_DNSSEC: the RRs, then the DNSSEC image
 * right after them with the same TTL; on CACHE_ESPACE, ans->len +
 * ans->dnssec_len is what it takes (shard lock held).
 */
static int render_dnssec(const struct cache_entry *e, struct cache_answer *ans,
                         uint8_t *buf, size_t cap)
{
	const uint8_t *img = cache_dnssec_tail(e, &ans->dnssec_len);

	if (buf == NULL || ans->len > cap ||
	    ans->dnssec_len > cap - ans->len) {
		ans->dnssec_count = cache_dnssec_count(e);
		return CACHE_ESPACE;
	}
	cache_entry_render(e, ans->ttl, buf);
	ans->dnssec_count = cache_dnssec_render(img, ans->dnssec_len, ans->ttl,
	                                        buf + ans->len);
	return CACHE_OK;
}

/* Fill ans from e and copy its RRs out (shard lock held). */
static int answer(struct cache_entry *e, const struct cache_query *q,
                  time_t now, struct cache_answer *ans, uint8_t *buf,
                  size_t cap)
{
	const uint8_t *key = cache_entry_key(e);

	ans->kind = cache_entry_kind(e);
	ans->rank = cache_entry_rank(e);
	ans->type = ans->kind == CACHE_KIND_RRSET ? e->type : q->type;
	ans->klass = e->klass;
	ans->ttl = cache_entry_ttl(e, now);
	ans->orig_ttl = e->ttl;
	ans->stale = !cache_entry_fresh(e, now);
	ans->expire = cache_entry_expire(e, now);
	ans->curve = key != NULL;
	if (key != NULL)
		memcpy(ans->server_key, key, CACHE_SERVER_KEY_BYTES);
	ans->count = cache_entry_count(e);
	ans->len = cache_entry_wire_len(e);
	ans->owner_off = 0;
	ans->sec = cache_entry_sec(e);
	ans->ede = (uint8_t)(e->ede & CACHE_EDE_MASK);
	ans->via = (enum cache_via)(e->ede >> CACHE_VIA_SHIFT);
	ans->dnssec_len = ans->dnssec_count = 0;
	if (!(e->flags & CACHE_F_REF)) /* keep hot lines clean */
		e->flags |= CACHE_F_REF;
	if (q->flags & CACHE_GET_DNSSEC)
		return render_dnssec(e, ans, buf, cap);
	if (ans->len > cap || buf == NULL)
		return CACHE_ESPACE;
	cache_entry_render(e, ans->ttl, buf);
	return CACHE_OK;
}

static void count_read(struct cache_shard *s, int rc,
                       const struct cache_answer *ans)
{
	if (rc == CACHE_ENOTFOUND)
		s->misses++;
	else if (rc == CACHE_OK && ans->stale)
		s->stale_hits++;
	else if (rc == CACHE_OK)
		s->hits++;
}

/*
 * Move a found entry to the front of its chain (lock held), so that a
 * hot name is found at the first step whatever was inserted after it.
 * Writes only when it is not there already.
 */
static void chain_to_front(struct cache_shard *s, struct cache_entry *e)
{
	struct cache_entry **b = cache_shard_bucket(s, e->hash), **pp = b;
	size_t n = 0;

	if (*b == e)
		return;
	while (*pp != e) {
		CACHE_REQUIRE(*pp != NULL && ++n <= CACHE_CHAIN_MAX);
		pp = &(*pp)->chain;
	}
	*pp = e->chain;
	e->chain = *b;
	*b = e;
}

/* One locked lookup of q in its shard. */
static int lookup(struct cache *c, const struct cache_query *q, time_t now,
                  int rrset_only, struct cache_answer *ans, uint8_t *buf,
                  size_t cap)
{
	uint64_t h = cache_siphash13(c->key, q->name, q->name_len);
	struct cache_shard *s = cache_shard_of(c, h);
	struct cache_entry *e;
	int rc = CACHE_ENOTFOUND;

	pthread_mutex_lock(&s->lock);
	e = pick(s, (uint32_t)h, q, now, rrset_only);
	if (e != NULL) {
		rc = answer(e, q, now, ans, buf, cap);
		chain_to_front(s, e);
	}
	if (!rrset_only)
		count_read(s, rc, ans);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int cache_get(struct cache *c, const struct cache_query *q, time_t now,
              struct cache_answer *ans, uint8_t *buf, size_t cap)
{
	int rc;

	if (c == NULL || q == NULL || ans == NULL)
		return CACHE_EINVAL;
	rc = query_check(q);
	if (rc != CACHE_OK)
		return rc;
	return lookup(c, q, now, 0, ans, buf, cap);
}

int cache_bogus_ede(struct cache *c, const struct cache_query *q, time_t now,
                    uint8_t code)
{
	uint64_t h;
	struct cache_shard *s;
	struct cache_entry *e;
	int rc;

	if (c == NULL || q == NULL)
		return CACHE_EINVAL;
	rc = query_check(q);
	if (rc != CACHE_OK)
		return rc;
	h = cache_siphash13(c->key, q->name, q->name_len);
	s = cache_shard_of(c, h);
	pthread_mutex_lock(&s->lock);
	e = pick(s, (uint32_t)h, q, now, 0);
	rc = CACHE_ENOTFOUND;
	if (e != NULL && cache_entry_fresh(e, now) &&
	    cache_entry_sec(e) == CACHE_SEC_BOGUS) {
		cache_shard_changed(s);
		e->ede = (uint8_t)((e->ede & ~CACHE_EDE_MASK) |
		                   (code <= CACHE_EDE_MASK ? code : 0));
		rc = CACHE_OK;
	}
	pthread_mutex_unlock(&s->lock);
	return rc;
}

int cache_closest_ns(struct cache *c, const struct cache_query *q, time_t now,
                     struct cache_answer *ans, uint8_t *buf, size_t cap)
{
	struct cache_query up;
	size_t off = 0;
	int rc;

	if (c == NULL || q == NULL || ans == NULL)
		return CACHE_EINVAL;
	rc = cache_name_check(q->name, q->name_len);
	if (rc != CACHE_OK)
		return rc;
	up = *q;
	up.type = CACHE_TYPE_NS;
	/* One step per label: the name check bounds it by CACHE_NAME_MAX. */
	for (;;) {
		up.name = q->name + off;
		up.name_len = q->name_len - off;
		rc = lookup(c, &up, now, 1, ans, buf, cap);
		if (rc != CACHE_ENOTFOUND) {
			ans->owner_off = off;
			return rc;
		}
		if (q->name[off] == 0)
			return CACHE_ENOTFOUND;
		off += 1 + (size_t)q->name[off];
	}
}

/* Does flushing (name, type) take e (of that name)? all: every entry;
 * else the RRset or NODATA of type, and the name's NXDOMAIN. */
static int flush_takes(const struct cache_entry *e, int all, uint16_t type)
{
	return all || e->type == type ||
	       cache_entry_kind(e) == CACHE_KIND_NXDOMAIN;
}

/* Remove the entries of one (checked) name that flush_takes. */
static size_t flush_one_name(struct cache *c, const uint8_t *name,
                             size_t name_len, int all, uint16_t type)
{
	uint64_t h = cache_siphash13(c->key, name, name_len);
	struct cache_shard *s = cache_shard_of(c, h);
	struct cache_entry *e, *next;
	size_t n = 0, k = 0;

	pthread_mutex_lock(&s->lock);
	for (e = *cache_shard_bucket(s, (uint32_t)h); e != NULL; e = next) {
		CACHE_REQUIRE(++k <= CACHE_CHAIN_MAX);
		next = e->chain;
		if (e->hash == (uint32_t)h && e->name_len == name_len &&
		    memcmp(e->data, name, name_len) == 0 &&
		    flush_takes(e, all, type)) {
			cache_shard_remove(s, e);
			n++;
		}
	}
	pthread_mutex_unlock(&s->lock);
	return n;
}

int cache_flush_name(struct cache *c, const uint8_t *name, size_t name_len,
                     size_t *removed)
{
	size_t n;

	if (c == NULL || cache_name_check(name, name_len) != CACHE_OK)
		return c == NULL ? CACHE_EINVAL : CACHE_ENAME;
	n = flush_one_name(c, name, name_len, 1, 0);
	if (removed != NULL)
		*removed = n;
	return CACHE_OK;
}

int cache_flush_type(struct cache *c, const uint8_t *name, size_t name_len,
                     uint16_t type, size_t *removed)
{
	size_t n;

	if (c == NULL)
		return CACHE_EINVAL;
	if (cache_name_check(name, name_len) != CACHE_OK)
		return CACHE_ENAME;
	if (cache_type_check(type) != CACHE_OK)
		return CACHE_ETYPE;
	n = flush_one_name(c, name, name_len, 0, type);
	if (removed != NULL)
		*removed = n;
	return CACHE_OK;
}

/* Remove entries at or below zone (all if NULL) from every shard. */
static size_t clear_all_shards(struct cache *c, const uint8_t *zone,
                               size_t zone_len)
{
	size_t n = 0;

	for (unsigned i = 0; i < c->nshards; i++) {
		struct cache_shard *s = &c->shards[i];
		pthread_mutex_lock(&s->lock);
		n += cache_shard_clear(s, zone, zone_len);
		pthread_mutex_unlock(&s->lock);
	}
	return n;
}

int cache_flush_zone(struct cache *c, const uint8_t *zone, size_t zone_len,
                     size_t *removed)
{
	size_t n;

	if (c == NULL)
		return CACHE_EINVAL;
	if (cache_name_check(zone, zone_len) != CACHE_OK)
		return CACHE_ENAME;
	n = clear_all_shards(c, zone, zone_len);
	if (removed != NULL)
		*removed = n;
	return CACHE_OK;
}

void cache_flush_all(struct cache *c, size_t *removed)
{
	size_t n = clear_all_shards(c, NULL, 0);

	if (removed != NULL)
		*removed = n;
}

/* Remove every entry (fresh or stale) for which drop says so; each
 * shard under its lock, each original entry once, in ring order, as
 * shard_clear. Returns the number removed. */
static size_t flush_where(struct cache *c,
                          bool (*drop)(const struct cache_entry *))
{
	size_t n = 0;

	for (unsigned i = 0; i < c->nshards; i++) {
		struct cache_shard *s = &c->shards[i];
		struct cache_entry *e, *next;
		size_t left;
		pthread_mutex_lock(&s->lock);
		e = s->hand;
		left = s->entries;
		for (size_t k = 0; k < left && e != NULL; k++) {
			next = e->next;
			if (drop(e)) {
				cache_shard_remove(s, e);
				n++;
			}
			e = next;
		}
		pthread_mutex_unlock(&s->lock);
	}
	return n;
}

static bool is_negative(const struct cache_entry *e)
{
	return cache_entry_kind(e) != CACHE_KIND_RRSET;
}

static bool is_bogus(const struct cache_entry *e)
{
	return cache_entry_sec(e) == CACHE_SEC_BOGUS;
}

void cache_flush_negative(struct cache *c, size_t *removed)
{
	size_t n = flush_where(c, is_negative);

	if (removed != NULL)
		*removed = n;
}

void cache_flush_bogus(struct cache *c, size_t *removed)
{
	size_t n = flush_where(c, is_bogus);

	if (removed != NULL)
		*removed = n;
}

int cache_iterate(struct cache *c, time_t now, cache_iter_fn fn, void *arg)
{
	for (unsigned i = 0; i < c->nshards; i++) {
		struct cache_shard *s = &c->shards[i];
		struct cache_entry *e;
		int rc = 0;
		pthread_mutex_lock(&s->lock);
		e = s->hand;
		for (size_t k = 0; k < s->entries && rc == 0; k++) {
			struct cache_view v;
			cache_entry_view(e, now, &v);
			rc = fn(&v, arg);
			e = e->next;
		}
		pthread_mutex_unlock(&s->lock);
		if (rc != 0)
			return rc;
	}
	return 0;
}

void cache_stats_get(struct cache *c, struct cache_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->max_bytes = c->cfg.max_bytes;
	st->shards = c->nshards;
	st->bytes = c->fixed;
	for (unsigned i = 0; i < c->nshards; i++) {
		struct cache_shard *s = &c->shards[i];
		pthread_mutex_lock(&s->lock);
		st->entries += s->entries;
		st->bytes += s->used;
		st->hits += s->hits;
		st->misses += s->misses;
		st->stale_hits += s->stale_hits;
		st->inserts += s->inserts;
		st->rank_kept += s->rank_kept;
		st->evictions += s->evictions;
		st->expired += s->expired;
		st->too_big += s->too_big;
		pthread_mutex_unlock(&s->lock);
	}
}

int cache_watch(struct cache *c, const uint8_t *name, size_t name_len,
                struct cache_watch *w)
{
	int rc;

	if (c == NULL || w == NULL)
		return CACHE_EINVAL;
	rc = cache_name_check(name, name_len);
	if (rc != CACHE_OK)
		return rc;
	w->cache_id = c->id;
	w->shard = (uint32_t)(cache_shard_of(c, cache_siphash13(c->key, name,
	                                                        name_len)) -
	                      c->shards);
	w->gen = __atomic_load_n(&c->shards[w->shard].gen, __ATOMIC_ACQUIRE);
	return CACHE_OK;
}

int cache_watch_same(const struct cache *c, const struct cache_watch *w)
{
	return c != NULL && w != NULL && w->cache_id == c->id &&
	       w->shard < c->nshards &&
	       __atomic_load_n(&c->shards[w->shard].gen, __ATOMIC_ACQUIRE) ==
	               w->gen;
}
