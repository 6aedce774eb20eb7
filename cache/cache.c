/*
 * cache/cache.c - the cache handle: configuration, creation and the
 * memory split, status strings, and storing RRsets.
 *
 * The budget: the handle and the shard array are charged first (the
 * "fixed" bytes); what is left is split evenly across the shards, each
 * of which charges its bucket array and then its entries to its part.
 * Shards are halved until each gets CACHE_SHARD_MIN_BYTES.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/** Default memory bound of cache_config_init. */
#define CACHE_MAX_BYTES_DEFAULT ((size_t)64 * 1024 * 1024)
/** Shards are aligned to a cache line so that locks do not share one. */
#define CACHE_LINE_BYTES 64

void cache_impossible(const char *file, int line, const char *what)
{
	fprintf(stderr, "cache: %s:%d: invariant broken: %s\n", file, line,
	        what);
	abort();
}

const char *cache_strerror(int status)
{
	switch (status) {
	case CACHE_OK: return "success";
	case CACHE_ENOTFOUND: return "not in the cache";
	case CACHE_ERANK: return "a better-ranked entry is kept";
	case CACHE_ETOOBIG: return "entry too large for the cache";
	case CACHE_ESPACE: return "output buffer too small";
	case CACHE_ENAME: return "name not in canonical wire form";
	case CACHE_ETYPE: return "type cannot be cached";
	case CACHE_ERDATA: return "malformed or oversized RDATA";
	case CACHE_EINVAL: return "invalid argument";
	case CACHE_ENOMEM: return "out of memory";
	default: return "unknown cache status";
	}
}

void cache_config_init(struct cache_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->max_bytes = CACHE_MAX_BYTES_DEFAULT;
	cfg->min_ttl = CACHE_MIN_TTL_DEFAULT;
	cfg->max_ttl = CACHE_MAX_TTL_DEFAULT;
	cfg->neg_max_ttl = CACHE_NEG_MAX_TTL_DEFAULT;
	cfg->shards = CACHE_SHARDS_DEFAULT;
}

/* The stored expiry: the low 32 bits of now + ttl (ttl < 2^31). */
uint32_t cache_expire_at(time_t now, uint32_t ttl)
{
	CACHE_REQUIRE(ttl <= CACHE_TTL_WIRE_MAX);
	return (uint32_t)now + ttl;
}

/* now + delta (|delta| < 2^32), saturating at the ends of time_t. */
time_t cache_time_add(time_t now, int64_t delta)
{
	const time_t max =
		(time_t)(((uint64_t)1 << (sizeof(time_t) * 8 - 1)) - 1);
	const time_t min = -max - 1;

	if (delta > 0 && now > max - (time_t)delta)
		return max;
	if (delta < 0 && now < min - (time_t)delta)
		return min;
	return now + (time_t)delta;
}

struct cache_shard *cache_shard_of(struct cache *c, uint64_t hash)
{
	return &c->shards[(hash >> 32) & (c->nshards - 1)];
}

/* Store a built entry (an RRset or a negative one) in its shard, under
 * the shard's lock; cache_shard_insert's status. */
int cache_put_build(struct cache *c, const struct cache_build *b, time_t now)
{
	struct cache_shard *s = cache_shard_of(c, b->hash);
	int rc;

	pthread_mutex_lock(&s->lock);
	rc = cache_shard_insert(s, b, now);
	pthread_mutex_unlock(&s->lock);
	return rc;
}

static uint64_t load_key(const uint8_t *p)
{
	uint64_t x = 0;
	for (int i = 7; i >= 0; i--)
		x = (x << 8) | p[i];
	return x;
}

/* Shards to use: a power of two, halved until each has its minimum. */
static unsigned shard_count(const struct cache_config *cfg, size_t fixed)
{
	unsigned n = 1;
	unsigned want = cfg->shards ? cfg->shards : CACHE_SHARDS_DEFAULT;

	while (n * 2 <= want)
		n *= 2;
	while (n > 1) {
		size_t arr =
			cache_mem_estimate(n * sizeof(struct cache_shard) +
		                           CACHE_LINE_BYTES);
		if (cfg->max_bytes > fixed + arr &&
		    (cfg->max_bytes - fixed - arr) / n >=
		            CACHE_SHARD_MIN_BYTES)
			break;
		n /= 2;
	}
	return n;
}

static int create_shards(struct cache *c)
{
	size_t bytes = c->nshards * sizeof(struct cache_shard);
	size_t per;

	c->shards = aligned_alloc(CACHE_LINE_BYTES, bytes);
	if (c->shards == NULL)
		return CACHE_ENOMEM;
	memset(c->shards, 0, bytes);
	c->fixed += cache_mem_charge(c->shards, bytes);
	if (c->cfg.max_bytes <= c->fixed)
		return CACHE_EINVAL;
	per = (c->cfg.max_bytes - c->fixed) / c->nshards;
	if (per < CACHE_SHARD_MIN_BYTES)
		return CACHE_EINVAL;
	for (unsigned i = 0; i < c->nshards; i++) {
		int rc = cache_shard_init(&c->shards[i], per);
		if (rc != CACHE_OK)
			return rc;
	}
	return CACHE_OK;
}

/** The last cache id handed out (struct cache.id, never 0). */
static uint64_t cache_ids;

int cache_create(const struct cache_config *cfg, struct cache **out)
{
	struct cache *c;
	int rc;

	if (cfg == NULL || out == NULL || cfg->min_ttl > cfg->max_ttl ||
	    cfg->max_ttl > CACHE_TTL_WIRE_MAX ||
	    cfg->neg_max_ttl > CACHE_TTL_WIRE_MAX ||
	    cfg->shards > CACHE_SHARDS_MAX)
		return CACHE_EINVAL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return CACHE_ENOMEM;
	c->cfg = *cfg;
	c->id = __atomic_add_fetch(&cache_ids, 1, __ATOMIC_RELAXED);
	c->key[0] = load_key(cfg->hash_key);
	c->key[1] = load_key(cfg->hash_key + 8);
	c->fixed = cache_mem_charge(c, sizeof(*c));
	c->nshards = shard_count(cfg, c->fixed);
	rc = create_shards(c);
	if (rc != CACHE_OK) {
		cache_destroy(c);
		return rc;
	}
	*out = c;
	return CACHE_OK;
}

void cache_destroy(struct cache *c)
{
	if (c == NULL)
		return;
	if (c->shards != NULL)
		for (unsigned i = 0; i < c->nshards; i++)
			cache_shard_fini(&c->shards[i]);
	free(c->shards);
	free(c);
}

/* Check a put and measure its image. */
static int rrset_check(const struct cache_rrset *set, size_t *image_len)
{
	size_t total = 0;
	int rc = cache_name_check(set->name, set->name_len);

	if (rc != CACHE_OK)
		return rc;
	rc = cache_type_check(set->type);
	if (rc != CACHE_OK)
		return rc;
	if (set->rank <= CACHE_RANK_NONE || set->rank > CACHE_RANK_AUTH)
		return CACHE_EINVAL;
	if (set->count == 0 || set->rdata == NULL)
		return CACHE_ERDATA;
	/* Each RR adds at least 2 bytes: the image cap bounds the loop. */
	for (size_t i = 0; i < set->count; i++) {
		const struct cache_rdata *r = &set->rdata[i];
		if (r->len > UINT16_MAX || (r->len > 0 && r->data == NULL))
			return CACHE_ERDATA;
		total += 2 + r->len;
		if (total > CACHE_IMAGE_MAX)
			return CACHE_ERDATA;
	}
	*image_len = total;
	return CACHE_OK;
}

static uint32_t clamp_ttl(const struct cache *c, uint32_t ttl)
{
	if (ttl > CACHE_TTL_WIRE_MAX)
		ttl = 0;
	if (ttl < c->cfg.min_ttl)
		ttl = c->cfg.min_ttl;
	if (ttl > c->cfg.max_ttl)
		ttl = c->cfg.max_ttl;
	return ttl;
}

int cache_rrset_put(struct cache *c, const struct cache_rrset *set, time_t now)
{
	return cache_rrset_put_via(c, set, now, CACHE_VIA_PLAIN);
}

int cache_rrset_put_via(struct cache *c, const struct cache_rrset *set,
                        time_t now, enum cache_via via)
{
	struct cache_build b;
	int rc;

	if (c == NULL || set == NULL)
		return CACHE_EINVAL;
	memset(&b, 0, sizeof(b));
	rc = rrset_check(set, &b.image_len);
	if (rc == CACHE_OK)
		rc = cache_dnssec_check(set->dnssec, set->dnssec_len,
		                        set->sec);
	if (rc != CACHE_OK)
		return rc;
	b.name = set->name;
	b.name_len = set->name_len;
	b.hash = cache_siphash13(c->key, set->name, set->name_len);
	b.type = set->type;
	b.klass = set->klass;
	b.kind = CACHE_KIND_RRSET;
	b.rank = set->rank;
	b.server_key = set->server_key;
	b.ttl = clamp_ttl(c, set->ttl);
	b.expire = cache_expire_at(now, b.ttl);
	b.count = set->count;
	b.rdata = set->rdata;
	b.sec = set->sec;
	b.via = via;
	b.dnssec = set->dnssec;
	b.dnssec_len = set->dnssec_len;
	return cache_put_build(c, &b, now);
}
