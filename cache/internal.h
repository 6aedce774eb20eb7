/*
 * cache/internal.h - what the files of cache/ share; nobody else may
 * include it.
 *
 * Layout: an entry is one allocation: the fixed header below, then the
 * owner name, then the 32-byte server key if learned over DNSCurve, then
 * the RDATA image, then, only if the entry has a DNSSEC image, the tail:
 *   RRset: count x (RDLENGTH[2] RDATA)
 *   negative (NXDOMAIN, NODATA): SOA owner, RDLENGTH[2], SOA RDATA
 *   tail: LENGTH[2], then the DNSSEC image: wire RRs (owner, type, class,
 *   TTL, RDLENGTH, RDATA) as the put gave them, checked whole, every TTL
 *   stored as 0 (dnssec.c)
 * An entry without a DNSSEC image pays nothing for the feature: its
 * status takes two bits of the flags byte and the tail's presence one
 * bit of count.
 * Each entry sits on two lists of its shard: the singly linked chain of
 * its hash bucket, and the circular doubly linked CLOCK ring.
 *
 * Locking: every field of a shard and of the entries it holds is read
 * and written with the shard mutex held; nothing else is shared.
 */
#ifndef CURVECACHE_CACHE_INTERNAL_H
#define CURVECACHE_CACHE_INTERNAL_H

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"

/**
 * Always-on check of an invariant that protects memory: on failure,
 * print where and abort (djbdns cache_impossible()).
 */
#define CACHE_REQUIRE(cond) \
	do { \
		if (!(cond)) \
			cache_impossible(__FILE__, __LINE__, #cond); \
	} while (0)

/** The flags byte of an entry: kind, rank, two bits and the status. */
#define CACHE_F_KIND_MASK 0x03u /**< enum cache_kind */
#define CACHE_F_RANK_SHIFT 2
#define CACHE_F_RANK_MASK 0x0cu /**< (enum cache_rank - GLUE) << 2 */
#define CACHE_F_CURVE 0x10u     /**< learned over DNSCurve; key stored */
#define CACHE_F_REF 0x20u       /**< read since the CLOCK hand last passed */
#define CACHE_F_SEC_SHIFT 6
#define CACHE_F_SEC_MASK 0xc0u /**< enum cache_sec << 6 */

/** Bit 15 of count: the DNSSEC tail follows the image. Each RR takes at
 *  least 2 bytes of an image of at most CACHE_IMAGE_MAX, so count needs
 *  15 bits only. */
#define CACHE_COUNT_TAIL 0x8000u
#define CACHE_COUNT_MASK 0x7fffu
/** Bytes of the tail's length field. */
#define CACHE_TAIL_LEN_BYTES 2

/** Average bytes of budget per hash bucket (about one entry): a full
 *  shard's bucket count. */
#define CACHE_BYTES_PER_BUCKET 128
/** Buckets a shard starts with; the array doubles when the entries
 *  reach 1/CACHE_BUCKET_LOAD of the buckets, up to the full count
 *  (shard.c): chains stay short, a hit costs what it did with the full
 *  array. */
#define CACHE_BUCKETS_START 64
#define CACHE_BUCKET_LOAD 2

/*
 * 46 bytes before the data: every byte here is paid per RRset. The
 * expiry is kept as the low 32 bits of the absolute time and compared in
 * serial-number arithmetic (RFC 1982): TTLs are below 2^31, so "fresh"
 * is "0 < expire - now < 2^31" computed mod 2^32, at any time_t.
 */
struct cache_entry {
	struct cache_entry *chain; /**< next in the bucket chain */
	struct cache_entry *prev;  /**< CLOCK ring */
	struct cache_entry *next;
	uint32_t expire; /**< (uint32_t)(now + ttl) */
	uint32_t ttl;    /**< the TTL stored (clamped): prefetch */
	uint32_t hash;   /**< low 32 bits of the name hash */
	uint16_t type;   /**< 0 for NXDOMAIN */
	uint16_t klass;
	uint16_t image_len; /**< bytes of RDATA image */
	uint16_t count;     /**< RRs in the image | CACHE_COUNT_TAIL */
	uint8_t name_len;   /**< 1..255: CACHE_NAME_MAX fits */
	uint8_t flags;      /**< CACHE_F_*: kind, rank, curve, ref, sec */
	uint8_t ede;        /**< CACHE_EDE_MASK: BOGUS: why (cache_bogus_ede),
	                         0: unknown; above: enum cache_via */
	uint8_t data[];     /**< name, [server key], image, [tail] */
};

/** The ede byte of an entry: the low bits hold an EDE INFO-CODE (the
 *  codes of a BOGUS entry are below 32; a larger one is kept as 0), the
 *  bits above how the data was learned (enum cache_via): the header
 *  stays 47 bytes. */
#define CACHE_EDE_MASK 0x1fu
#define CACHE_VIA_SHIFT 5

/** Bytes of an entry header: where its data starts. */
#define CACHE_ENTRY_HEADER offsetof(struct cache_entry, data)

/*
 * A shard, aligned to cache lines: the lock and the read counters share
 * the first line (a read dirties only it); what writers change is next.
 */
struct cache_shard {
	_Alignas(64) pthread_mutex_t lock;
	uint64_t hits, misses, stale_hits;
	struct cache_entry **buckets;
	size_t nbuckets;
	size_t max_buckets;       /**< the bucket count of a full shard */
	size_t budget;            /**< bytes this shard may charge */
	struct cache_entry *hand; /**< CLOCK hand; NULL when empty */
	size_t used;              /**< bytes charged: buckets + entries */
	size_t entries;
	uint64_t inserts, rank_kept, evictions, expired, too_big;
	/** Bumped (atomically, under the lock) whenever an entry is
	 *  linked, removed or its EDE noted: cache_watch reads it
	 *  without the lock. */
	uint64_t gen;
};

struct cache {
	struct cache_config cfg;
	uint64_t id;      /**< unique among the process's caches */
	uint64_t key[2];  /**< SipHash key */
	unsigned nshards; /**< power of two */
	size_t fixed;     /**< bytes charged outside the shards */
	struct cache_shard *shards;
};

/** Everything needed to build and insert one entry. */
struct cache_build {
	const uint8_t *name;
	size_t name_len;
	uint64_t hash;
	uint16_t type; /**< 0 for NXDOMAIN */
	uint16_t klass;
	enum cache_kind kind;
	enum cache_rank rank;
	const uint8_t *server_key; /**< NULL if plain */
	uint32_t expire;           /**< as in struct cache_entry */
	uint32_t ttl;              /**< the clamped TTL of expire */
	size_t image_len;
	size_t count;
	enum cache_sec sec;
	enum cache_via via;
	const uint8_t *dnssec; /**< checked by cache_dnssec_check */
	size_t dnssec_len;
	/* positive */
	const struct cache_rdata *rdata;
	/* negative */
	const uint8_t *soa_name;
	size_t soa_name_len;
	const uint8_t *soa_rdata;
	size_t soa_rdlen;
};

/* Small helpers of the read path, inline for speed. */

/** Seconds left at now, mod 2^32 (see struct cache_entry). */
static inline uint32_t cache_entry_left(const struct cache_entry *e,
                                        time_t now)
{
	return e->expire - (uint32_t)now;
}

/** Fresh: 0 < expire - now < 2^31. */
static inline int cache_entry_fresh(const struct cache_entry *e, time_t now)
{
	return cache_entry_left(e, now) - 1u < CACHE_TTL_WIRE_MAX;
}

/** Seconds left at now; 0 once expired. */
static inline uint32_t cache_entry_ttl(const struct cache_entry *e, time_t now)
{
	return cache_entry_fresh(e, now) ? cache_entry_left(e, now) : 0;
}

static inline enum cache_kind cache_entry_kind(const struct cache_entry *e)
{
	return (enum cache_kind)(e->flags & CACHE_F_KIND_MASK);
}

static inline enum cache_rank cache_entry_rank(const struct cache_entry *e)
{
	return (enum cache_rank)(((e->flags & CACHE_F_RANK_MASK) >>
	                          CACHE_F_RANK_SHIFT) +
	                         CACHE_RANK_GLUE);
}

static inline enum cache_sec cache_entry_sec(const struct cache_entry *e)
{
	return (enum cache_sec)((e->flags & CACHE_F_SEC_MASK) >>
	                        CACHE_F_SEC_SHIFT);
}

/** RRs in the image. */
static inline size_t cache_entry_count(const struct cache_entry *e)
{
	return e->count & CACHE_COUNT_MASK;
}

/** Where the RDATA image of e starts: after its name and server key
 *  (every read renders from it: inline). */
static inline const uint8_t *cache_entry_image(const struct cache_entry *e)
{
	return e->data + e->name_len +
	       ((e->flags & CACHE_F_CURVE) ? CACHE_SERVER_KEY_BYTES : 0);
}

/** The DNSSEC image of e and its *len bytes, found in one step for the
 *  read path (dnssec.c); NULL with *len 0 when e has none. */
static inline const uint8_t *cache_dnssec_tail(const struct cache_entry *e,
                                               size_t *len)
{
	const uint8_t *t;

	*len = 0;
	if (!(e->count & CACHE_COUNT_TAIL))
		return NULL;
	t = cache_entry_image(e) + e->image_len;
	*len = (size_t)t[0] << 8 | t[1];
	return t + CACHE_TAIL_LEN_BYTES;
}

/** Bucket of a hash: the low 32 bits scaled to nbuckets (no division). */
static inline struct cache_entry **cache_shard_bucket(struct cache_shard *s,
                                                      uint32_t hash)
{
	uint64_t i = ((uint64_t)hash * s->nbuckets) >> 32;
	return &s->buckets[i];
}

/** Is e an entry of this name and class? */
static inline int cache_entry_same_name(const struct cache_entry *e,
                                        uint32_t hash, const uint8_t *name,
                                        size_t len, uint16_t klass)
{
	return e->hash == hash && e->klass == klass && e->name_len == len &&
	       memcmp(e->data, name, len) == 0;
}

/* cache.c */
void cache_impossible(const char *file, int line, const char *what);
uint32_t cache_expire_at(time_t now, uint32_t ttl);
time_t cache_time_add(time_t now, int64_t delta);
struct cache_shard *cache_shard_of(struct cache *c, uint64_t hash);
int cache_put_build(struct cache *c, const struct cache_build *b, time_t now);

/* name.c */
uint64_t cache_siphash13(const uint64_t key[2], const uint8_t *m, size_t n);
uint64_t cache_siphash24(const uint64_t key[2], const uint8_t *m, size_t n);
int cache_name_span(const uint8_t *p, size_t avail, size_t *len);
int cache_name_below(const uint8_t *name, size_t len, const uint8_t *zone,
                     size_t zone_len);
int cache_type_check(uint16_t type);

/* entry.c */
size_t cache_entry_size(const struct cache_entry *e);
const uint8_t *cache_entry_key(const struct cache_entry *e);
size_t cache_entry_wire_len(const struct cache_entry *e);
void cache_entry_render(const struct cache_entry *e, uint32_t ttl,
                        uint8_t *out);
size_t cache_build_size(const struct cache_build *b);
void cache_entry_fill(struct cache_entry *e, const struct cache_build *b);
int cache_entry_outranks(const struct cache_entry *e, enum cache_rank rank,
                         int curve, enum cache_sec sec);
time_t cache_entry_expire(const struct cache_entry *e, time_t now);
void cache_entry_view(const struct cache_entry *e, time_t now,
                      struct cache_view *v);

/* dnssec.c */
int cache_dnssec_check(const uint8_t *img, size_t len, enum cache_sec sec);
void cache_dnssec_store(uint8_t *out, const uint8_t *img, size_t len);
size_t cache_dnssec_count(const struct cache_entry *e);
size_t cache_entry_dnssec_len(const struct cache_entry *e);
const uint8_t *cache_entry_dnssec(const struct cache_entry *e);

/* evict.c */
size_t cache_mem_estimate(size_t n);
size_t cache_mem_charge(const void *p, size_t n);
int cache_evict_one(struct cache_shard *s, time_t now);
int cache_make_room(struct cache_shard *s, size_t need, time_t now);

/* shard.c */
int cache_shard_init(struct cache_shard *s, size_t budget);
void cache_shard_fini(struct cache_shard *s);
void cache_shard_changed(struct cache_shard *s);
void cache_shard_link(struct cache_shard *s, struct cache_entry *e);
void cache_shard_remove(struct cache_shard *s, struct cache_entry *e);
size_t cache_shard_clear(struct cache_shard *s, const uint8_t *zone,
                         size_t zone_len);
int cache_shard_insert(struct cache_shard *s, const struct cache_build *b,
                       time_t now);

/* The read path's copy of a DNSSEC image (after the declarations: it
 * calls cache_impossible). */

/** Offset of the TTL and of RDLENGTH inside the fixed part of an RR. */
#define CACHE_RR_TTL_OFF 4
#define CACHE_RR_RDLEN_OFF 8

/**
 * Copy a stored DNSSEC image img (len bytes, from cache_dnssec_tail) to
 * out, which holds len bytes, and write ttl into every record of the
 * copy (dnssec.c). The image was checked whole at the put, so this walk
 * trusts the labels it steps over (the owner scan stops at the root
 * label without checking label lengths) and checks only what keeps it
 * inside out. Inline: a secure hit runs it under the shard lock.
 * @return the records written.
 */
static inline size_t cache_dnssec_render(const uint8_t *img, size_t len,
                                         uint32_t ttl, uint8_t *out)
{
	size_t pos = 0, n = 0;

	if (len == 0)
		return 0; /* img NULL: no copy */
	memcpy(out, img, len);
	while (pos < len) {
		while (pos < len && out[pos] != 0)
			pos += (size_t)out[pos] + 1;
		pos++;
		CACHE_REQUIRE(pos <= len && len - pos >= CACHE_RR_FIXED_BYTES);
		out[pos + CACHE_RR_TTL_OFF] = (uint8_t)(ttl >> 24);
		out[pos + CACHE_RR_TTL_OFF + 1] = (uint8_t)(ttl >> 16);
		out[pos + CACHE_RR_TTL_OFF + 2] = (uint8_t)(ttl >> 8);
		out[pos + CACHE_RR_TTL_OFF + 3] = (uint8_t)ttl;
		pos += CACHE_RR_FIXED_BYTES +
		       ((size_t)out[pos + CACHE_RR_RDLEN_OFF] << 8 |
		        out[pos + CACHE_RR_RDLEN_OFF + 1]);
		CACHE_REQUIRE(pos <= len);
		n++;
	}
	return n;
}

#endif /* CURVECACHE_CACHE_INTERNAL_H */
