/*
 * cache/cache.h - the answer cache of curvecache: the only public header
 * of cache/.
 *
 * The cache holds RRsets and negative answers (RFC 2308) keyed by
 * (owner name, type, class), each with an absolute expiry, a trust rank
 * (RFC 2181 5.4.1) and its provenance (learned over DNSCurve from a
 * server key, or plain). Its memory is bounded, it is safe to share
 * between threads, and every read reports the TTL that remains.
 *
 * Design notes:
 * - A leaf module: it uses libc and pthreads only, opens no socket and
 *   never reads a clock. Every call that depends on time takes `now`
 *   (the daemon passes time(NULL)), so tests move time by hand.
 * - Names are taken in canonical form only: uncompressed wire format,
 *   lowercase, ending in the root label, at most CACHE_NAME_MAX bytes.
 *   Every call checks this and answers CACHE_ENAME otherwise, so a name
 *   with 0x20 case left in it can never split the cache.
 * - Memory: one byte budget, given at creation, is split evenly across
 *   shards. It covers everything the cache allocates: the handle, the
 *   shard array, the hash-bucket arrays and every entry, each charged at
 *   the size the allocator really hands out. When a shard is full it
 *   evicts by CLOCK (second chance): entries that were read since the
 *   hand last passed survive, expired entries go first. The charged
 *   total never exceeds the budget.
 * - Threads: the table is split into shards by a keyed hash (SipHash-1-3)
 *   of the owner name, each with its own mutex. All types of one name
 *   live in one shard. Reads lock one shard, copy, unlock; they never
 *   allocate and take no global lock.
 * - Reads copy out a wire-ready image: each RR as owner name
 *   (uncompressed), type, class, TTL (already counted down) and RDATA, so
 *   the resolver appends it to a response as it is, or replaces each
 *   leading owner by a compression pointer.
 * - Expired entries are misses, but they stay until evicted and are
 *   returned on request (CACHE_GET_STALE, RFC 8767 serve-stale); the
 *   answer carries the absolute expiry, so the caller applies its own
 *   limit on staleness.
 * - DNSSEC: every entry keeps its security status (enum cache_sec) and
 *   may keep a DNSSEC image: the RRSIGs of an RRset, or the signed SOA
 *   and NSEC/NSEC3 proof of a negative answer, as wire RRs. The cache
 *   does not validate anything: the resolver says what it proved. A put
 *   checks only that the image is a run of whole RRs (bounded walk, no
 *   byte read past dnssec_len) and stores it with every TTL set to 0; a
 *   read with CACHE_GET_DNSSEC copies it after the RRs with the RRs'
 *   remaining TTL in every record. Without the flag a read only sets
 *   ans->sec and zeroes the image's two fields. The image is charged to
 *   the budget and counts toward the entry's share like the RRs. The
 *   status takes part in the rank rule (enum cache_rank): SECURE data is
 *   not replaced by data of equal rank that is not, and BOGUS data
 *   protects nothing.
 * - Caps: a name is at most CACHE_NAME_MAX bytes, an entry's RDATA image
 *   at most CACHE_IMAGE_MAX, its DNSSEC image at most CACHE_IMAGE_MAX too,
 *   one entry at most 1/CACHE_ENTRY_SHARE of its shard, one hash chain at
 *   most CACHE_CHAIN_MAX entries.
 */
#ifndef CURVECACHE_CACHE_CACHE_H
#define CURVECACHE_CACHE_CACHE_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define CACHE_MUST_CHECK __attribute__((warn_unused_result))

/** Longest domain name in wire format, root label included (RFC 1035). */
#define CACHE_NAME_MAX 255
/** Longest label (RFC 1035). */
#define CACHE_LABEL_MAX 63
/** Bytes in a DNSCurve server public key (= crypto_box_PUBLICKEYBYTES). */
#define CACHE_SERVER_KEY_BYTES 32
/** Bytes of the hash key in struct cache_config. */
#define CACHE_HASH_KEY_BYTES 16
/** Bytes in the fixed part of a wire RR: type, class, TTL, RDLENGTH. */
#define CACHE_RR_FIXED_BYTES 10
/** Largest stored RDATA image of one entry (a DNS message's limit). */
#define CACHE_IMAGE_MAX 65535
/** Most entries kept for one hash chain (all types of one name and any
 *  colliding names); inserting past it evicts from that chain. */
#define CACHE_CHAIN_MAX 32
/** Default and largest number of shards. */
#define CACHE_SHARDS_DEFAULT 64
#define CACHE_SHARDS_MAX 1024
/** Smallest budget of one shard; fewer shards are used for small caches. */
#define CACHE_SHARD_MIN_BYTES (64 * 1024)
/** One entry may use at most 1/CACHE_ENTRY_SHARE of its shard's budget. */
#define CACHE_ENTRY_SHARE 4
/** Config defaults. */
#define CACHE_MIN_TTL_DEFAULT 0
#define CACHE_MAX_TTL_DEFAULT 86400
#define CACHE_NEG_MAX_TTL_DEFAULT 3600
/** TTLs above this are read as 0 (RFC 2181 section 8). */
#define CACHE_TTL_WIRE_MAX 0x7fffffffu

/** DNS types the cache itself knows about. */
#define CACHE_TYPE_NS 2
#define CACHE_TYPE_SOA 6

/** Status codes: 0 is success, every rejection has its own code. */
enum cache_status {
	CACHE_OK = 0,
	CACHE_ENOTFOUND, /**< no usable entry (a miss) */
	CACHE_ERANK,     /**< not stored: a fresh entry that outranks it
	                      is kept (enum cache_rank) */
	CACHE_ETOOBIG,   /**< entry larger than its share of the budget */
	CACHE_ESPACE,    /**< caller's buffer too small */
	CACHE_ENAME,     /**< name not in canonical wire form */
	CACHE_ETYPE,     /**< type 0, OPT or a meta/query-only type */
	CACHE_ERDATA,    /**< RDATA missing, too long, or SOA malformed */
	CACHE_EINVAL,    /**< bad argument or configuration */
	CACHE_ENOMEM     /**< allocation failed */
};

/**
 * Trust ranks, highest last (RFC 2181 5.4.1). A put never replaces a
 * fresh entry of higher rank; at equal rank, data learned plain never
 * replaces fresh data learned over DNSCurve, and data that is not SECURE
 * never replaces fresh SECURE data (enum cache_sec). A fresh BOGUS entry
 * never blocks a put: any new data replaces it, whatever its rank.
 */
enum cache_rank {
	CACHE_RANK_NONE = 0, /**< invalid; rejected */
	CACHE_RANK_GLUE,     /**< additional-section address (glue) */
	CACHE_RANK_REFERRAL, /**< authority-section NS of a referral */
	CACHE_RANK_NONAUTH,  /**< answer section, AA bit clear */
	CACHE_RANK_AUTH      /**< answer section, AA bit set */
};

/** What an entry says. */
enum cache_kind {
	CACHE_KIND_RRSET = 0, /**< positive: an RRset */
	CACHE_KIND_NODATA,    /**< the name exists, the type does not */
	CACHE_KIND_NXDOMAIN   /**< the name does not exist */
};

/**
 * How an entry's data was learned: the transport of the answer it came
 * in (the control socket's lookup shows it). PLAIN also for data whose
 * transport is not known (a load_cache).
 */
enum cache_via {
	CACHE_VIA_PLAIN = 0, /**< plain DNS, UDP or TCP */
	CACHE_VIA_CURVE,     /**< a DNSCurve box */
	CACHE_VIA_TLS,       /**< DNS over TLS to an authoritative server,
	                          opportunistic (RFC 9539) */
	CACHE_VIA_TLS_DANE,  /**< ...authenticated by DANE (RFC 7671) */
	CACHE_VIA_FWD_TLS,   /**< DNS over TLS to a forwarder */
	CACHE_VIA_LOCAL,     /**< made here, not asked for */
	CACHE_VIA_COUNT
};

/**
 * DNSSEC security status of an entry (RFC 4035 section 4.3). Ordered:
 * a higher value is better evidence, except BOGUS, which is worst.
 */
enum cache_sec {
	CACHE_SEC_UNCHECKED = 0, /**< not validated (validation off, or
	                              glue and referral data) */
	CACHE_SEC_INSECURE,      /**< proven outside any signed chain */
	CACHE_SEC_SECURE,        /**< validated from a trust anchor */
	CACHE_SEC_BOGUS          /**< failed validation: kept briefly,
	                              served only to CD=1 clients */
};

/** Flags for struct cache_query. */
#define CACHE_GET_STALE 0x1u /**< expired entries are returned too */
#define CACHE_GET_DNSSEC \
	0x2u /**< also copy the entry's DNSSEC image (its RRSIGs, or \
	          a negative entry's proof) after its RRs */

/** Configuration; fill with cache_config_init, then change fields. */
struct cache_config {
	size_t max_bytes; /**< the memory bound, overhead included */
	uint32_t min_ttl; /**< TTLs of RRsets are raised to this */
	uint32_t max_ttl; /**< ...and lowered to this (< 2^31) */
	uint32_t
		neg_max_ttl; /**< negative TTLs are lowered to this (< 2^31) */
	unsigned shards;     /**< 0 = default; rounded down to a power of 2 */
	/** Key of the bucket hash; the daemon fills it with random bytes so
	 *  that nobody can aim names at one chain. */
	uint8_t hash_key[CACHE_HASH_KEY_BYTES];
};

/** Opaque cache handle; see cache_create. Thread-safe. */
struct cache;

/** One RDATA: pointer and length. */
struct cache_rdata {
	const uint8_t *data; /**< RDATA bytes, uncompressed names */
	size_t len;          /**< RDLENGTH */
};

/** An RRset to store. All pointers are read during the call only. */
struct cache_rrset {
	const uint8_t *name; /**< owner, canonical wire form */
	size_t name_len;
	uint16_t type;
	uint16_t klass;
	uint32_t ttl; /**< TTL from the wire, clamped at insert */
	const struct cache_rdata *rdata; /**< count entries */
	size_t count;                    /**< >= 1 */
	enum cache_rank rank;
	/** NULL: learned plain; else the CACHE_SERVER_KEY_BYTES key of the
	 *  server whose DNSCurve box it came in. */
	const uint8_t *server_key;
	enum cache_sec sec; /**< security status */
	/** NULL/0, or the DNSSEC image kept with the set: wire RRs
	 *  (uncompressed owner, type, class, TTL, RDLENGTH, RDATA), here
	 *  the RRSIGs that cover it. TTLs in it are ignored: a read gives
	 *  each the entry's remaining TTL. */
	const uint8_t *dnssec;
	size_t dnssec_len;
};

/** A negative answer to store, with the SOA that came with it. */
struct cache_neg {
	enum cache_kind kind; /**< CACHE_KIND_NXDOMAIN or CACHE_KIND_NODATA */
	const uint8_t *name;  /**< the name asked for, canonical */
	size_t name_len;
	uint16_t type; /**< NODATA: the type asked for; else ignored */
	uint16_t klass;
	const uint8_t *soa_name; /**< SOA owner (the zone), canonical */
	size_t soa_name_len;
	uint32_t soa_ttl;         /**< TTL of the SOA RR */
	const uint8_t *soa_rdata; /**< SOA RDATA, uncompressed names */
	size_t soa_rdlen;
	enum cache_rank rank;
	const uint8_t *server_key; /**< as in struct cache_rrset */
	enum cache_sec sec;        /**< as in struct cache_rrset */
	/** As in struct cache_rrset: the SOA's RRSIGs and the NSEC/NSEC3
	 *  records (with their RRSIGs) that prove the denial. */
	const uint8_t *dnssec;
	size_t dnssec_len;
};

/** A lookup key. */
struct cache_query {
	const uint8_t *name; /**< canonical wire form */
	size_t name_len;
	uint16_t type;
	uint16_t klass;
	unsigned flags; /**< CACHE_GET_* */
};

/**
 * What a read found. The RRs themselves are copied to the caller's
 * buffer as `count` wire RRs: owner (uncompressed), type, class, TTL (the
 * remaining TTL), RDLENGTH, RDATA. For a negative entry that is the one
 * SOA RR, whose owner is the zone.
 */
struct cache_answer {
	enum cache_kind kind;
	enum cache_rank rank;
	uint16_t type; /**< RRset type; the asked type if negative */
	uint16_t klass;
	uint32_t ttl;      /**< seconds left; 0 when stale */
	uint32_t orig_ttl; /**< the TTL the entry was stored with (after
	                        clamping): ttl / orig_ttl tells how much
	                        of its life is left, for prefetch */
	int stale;         /**< 1 if expired (CACHE_GET_STALE only) */
	time_t expire;     /**< absolute expiry: now - expire tells how
	                        stale, for a serve-stale limit */
	int curve;         /**< 1 if learned over DNSCurve */
	uint8_t server_key[CACHE_SERVER_KEY_BYTES]; /**< valid if curve */
	size_t count;                               /**< RRs written */
	size_t len;          /**< bytes written, or needed on CACHE_ESPACE */
	size_t owner_off;    /**< owner = query name + owner_off (non-zero
	                          only from cache_closest_ns) */
	enum cache_sec sec;  /**< security status */
	enum cache_via via;  /**< how it was learned */
	uint8_t ede;         /**< BOGUS: the RFC 8914 INFO-CODE noted by
	                          cache_bogus_ede (0: none noted) */
	size_t dnssec_len;   /**< CACHE_GET_DNSSEC: bytes of the DNSSEC
	                          image written at buf + len (TTLs as
	                          the RRs'); else 0 */
	size_t dnssec_count; /**< its records */
};

/**
 * An entry as seen by cache_iterate. Every pointer points into the cache
 * and is valid only during the callback, which runs under a shard lock:
 * it must be short and must not call into the cache.
 */
struct cache_view {
	const uint8_t *name;
	size_t name_len;
	enum cache_kind kind;
	enum cache_rank rank;
	uint16_t type; /**< 0 for NXDOMAIN */
	uint16_t klass;
	time_t expire; /**< absolute expiry */
	uint32_t ttl;  /**< seconds left at `now`; 0 when stale */
	int stale;
	const uint8_t *server_key; /**< NULL if learned plain */
	enum cache_sec sec;
	enum cache_via via;    /**< how it was learned */
	const uint8_t *dnssec; /**< its DNSSEC image (NULL if none), every
	                            TTL 0: that is how it is stored */
	size_t dnssec_len;
	size_t count;      /**< RRs */
	size_t wire_len;   /**< bytes cache_view_render writes */
	const void *entry; /**< for cache_view_render; opaque */
};

/** Counters, read with cache_stats_get. */
struct cache_stats {
	size_t entries;   /**< entries held now */
	size_t bytes;     /**< bytes charged now, overhead included */
	size_t max_bytes; /**< the bound */
	unsigned shards;
	uint64_t hits;       /**< cache_get answered from a fresh entry */
	uint64_t misses;     /**< cache_get found nothing usable */
	uint64_t stale_hits; /**< cache_get answered from an expired entry */
	uint64_t inserts;    /**< entries stored */
	uint64_t rank_kept;  /**< puts refused by the rank rule */
	uint64_t evictions;  /**< fresh entries pushed out for space */
	uint64_t expired;    /**< expired entries reclaimed */
	uint64_t too_big;    /**< puts refused as larger than their share */
};

/** The callback of cache_iterate; return non-zero to stop. */
typedef int (*cache_iter_fn)(const struct cache_view *view, void *arg);

/**
 * Describe a status code.
 * @param status: a value of enum cache_status.
 * @return a static string; never NULL.
 */
const char *cache_strerror(int status);

/**
 * Fill a config with defaults: max_bytes 64 MiB, min_ttl 0, max_ttl
 * 86400, neg_max_ttl 3600, default shards, an all-zero hash key.
 * @param cfg: the config to fill.
 */
void cache_config_init(struct cache_config *cfg);

/**
 * Create a cache. Everything it will ever allocate is charged against
 * cfg->max_bytes, this call's own allocations included.
 * @param cfg: the configuration; copied, not kept.
 * @param out: receives the cache; free it with cache_destroy.
 * @return CACHE_OK, CACHE_EINVAL (min_ttl > max_ttl, max_ttl or
 *   neg_max_ttl above CACHE_TTL_WIRE_MAX, shards too many, or max_bytes
 *   too small for one shard of CACHE_SHARD_MIN_BYTES), or CACHE_ENOMEM.
 *   *out is untouched on error.
 */
int cache_create(const struct cache_config *cfg, struct cache **out)
	CACHE_MUST_CHECK;

/**
 * Free a cache and every entry. No other thread may be using it.
 * @param c: the cache, or NULL.
 */
void cache_destroy(struct cache *c);

/**
 * Check that a name is in canonical wire form: labels of 1..63 bytes
 * with no upper-case ASCII, ending in the root label exactly at len,
 * len <= CACHE_NAME_MAX.
 * @return CACHE_OK or CACHE_ENAME.
 */
int cache_name_check(const uint8_t *name, size_t len) CACHE_MUST_CHECK;

/**
 * Store an RRset. The TTL is clamped to [min_ttl, max_ttl] and stored as
 * now + ttl. An existing entry for the key (RRset or NODATA) is replaced
 * unless it is fresh and outranks this one under the rank rule (enum
 * cache_rank: higher rank; at equal rank learned over DNSCurve while
 * this one is plain, or SECURE while this one is not; never if BOGUS).
 * A fresh NXDOMAIN of the name that does not outrank this one is
 * removed. set->sec and a copy of set->dnssec are kept. May evict other
 * entries.
 * @param c: the cache.
 * @param set: the RRset; read during the call only.
 * @param now: the current time.
 * @return CACHE_OK, CACHE_ERANK (nothing changed), CACHE_ENAME,
 *   CACHE_ETYPE, CACHE_ERDATA (count 0, RDATA over 65535 bytes, the
 *   whole image over CACHE_IMAGE_MAX, or a DNSSEC image over
 *   CACHE_IMAGE_MAX, NULL with a length, or not a run of whole wire RRs
 *   with uncompressed owners), CACHE_EINVAL (bad rank or sec, NULL),
 *   CACHE_ETOOBIG or CACHE_ENOMEM (the entry it was to replace may be
 *   gone then).
 */
int cache_rrset_put(struct cache *c, const struct cache_rrset *set,
                    time_t now);

/**
 * Store a negative answer. Its TTL is min(SOA TTL, SOA MINIMUM) (RFC 2308
 * section 5), lowered to neg_max_ttl (min_ttl does not apply). NODATA
 * takes the key (name, type, class) and replaces an RRset there under the
 * rank rule; NXDOMAIN has a key of its own per (name, class), and removes
 * the name's entries that do not outrank it (so a NXDOMAIN that is not
 * SECURE leaves fresh SECURE entries of its rank in place; a read then
 * picks between them by the same rule). neg->sec and a copy of
 * neg->dnssec are kept.
 * @return as cache_rrset_put; CACHE_ERDATA if the SOA RDATA is too short
 *   to hold its two names and five counters or a name in it is malformed.
 */
int cache_neg_put(struct cache *c, const struct cache_neg *neg, time_t now);

/** cache_rrset_put with how the data was learned (cache_rrset_put:
 *  CACHE_VIA_PLAIN); a value out of range counts as plain. */
int cache_rrset_put_via(struct cache *c, const struct cache_rrset *set,
                        time_t now, enum cache_via via);

/** cache_neg_put with how the data was learned. */
int cache_neg_put_via(struct cache *c, const struct cache_neg *neg, time_t now,
                      enum cache_via via);

/**
 * Look up (name, type, class): the RRset or NODATA entry of that key, or
 * else an NXDOMAIN entry of the name. If both are fresh the higher rank
 * wins (the exact key on a tie). Takes one shard lock, never allocates.
 * @param c: the cache.
 * @param q: what to look up; CACHE_GET_STALE in q->flags also returns
 *   expired entries (ans->stale = 1, ttl 0) when nothing fresh is there;
 *   CACHE_GET_DNSSEC also writes the entry's DNSSEC image at buf +
 *   ans->len (ans->dnssec_len bytes, ans->dnssec_count records, each
 *   with TTL ans->ttl); without it both are 0. ans->sec is always set.
 * @param now: the current time.
 * @param ans: receives what was found.
 * @param buf, cap: receive the wire RRs (see struct cache_answer).
 * @return CACHE_OK; CACHE_ENOTFOUND (a miss); CACHE_ESPACE (buffer too
 *   small: ans->len + ans->dnssec_len is the size needed, buf is
 *   unspecified);
 *   CACHE_ENAME, CACHE_ETYPE or CACHE_EINVAL.
 */
int cache_get(struct cache *c, const struct cache_query *q, time_t now,
              struct cache_answer *ans, uint8_t *buf, size_t cap)
	CACHE_MUST_CHECK;

/**
 * Note why a BOGUS entry is bogus: the RFC 8914 INFO-CODE (1..31; a
 * larger one is kept as 0, unknown) that a read then gives in ans->ede, so
 * that an answer from the cache names the same failure as the first one did.
 * The entry is the one cache_get would pick for q (the exact key, or the
 * name's NXDOMAIN entry); it is changed only while fresh and BOGUS. A later
 * put replaces it, and the code with it.
 * @return CACHE_OK; CACHE_ENOTFOUND (no such fresh BOGUS entry);
 *   CACHE_ENAME, CACHE_ETYPE or CACHE_EINVAL.
 */
int cache_bogus_ede(struct cache *c, const struct cache_query *q, time_t now,
                    uint8_t code);

/**
 * Find the closest cached zone cut: the NS RRset of the longest ancestor
 * of q->name (the name itself included, the root last). Negative entries
 * are skipped. q->type is ignored. Not counted in hits and misses.
 * @return as cache_get; on CACHE_OK, ans->owner_off gives the zone name
 *   (q->name + ans->owner_off).
 */
int cache_closest_ns(struct cache *c, const struct cache_query *q, time_t now,
                     struct cache_answer *ans, uint8_t *buf, size_t cap)
	CACHE_MUST_CHECK;

/**
 * Remove every entry of one name (all types and classes, negative ones
 * included).
 * @param removed: receives the number removed; may be NULL.
 * @return CACHE_OK or CACHE_ENAME.
 */
int cache_flush_name(struct cache *c, const uint8_t *name, size_t name_len,
                     size_t *removed) CACHE_MUST_CHECK;

/**
 * Remove one type of one name (all classes): its RRset or NODATA entry,
 * and the name's NXDOMAIN entry if any (it answers every type, so the
 * next ask of that name and type goes upstream either way). Other types
 * of the name stay.
 * @param removed: receives the number removed; may be NULL.
 * @return CACHE_OK, CACHE_EINVAL (c NULL), CACHE_ENAME or CACHE_ETYPE
 *   (a type cache_rrset_put rejects: 0, OPT, TKEY..ANY); nothing is
 *   removed on error.
 */
int cache_flush_type(struct cache *c, const uint8_t *name, size_t name_len,
                     uint16_t type, size_t *removed) CACHE_MUST_CHECK;

/**
 * Remove every entry at or below a name (a zone and everything in it).
 * Walks all shards, one lock at a time.
 * @return CACHE_OK or CACHE_ENAME.
 */
int cache_flush_zone(struct cache *c, const uint8_t *zone, size_t zone_len,
                     size_t *removed) CACHE_MUST_CHECK;

/**
 * Remove every entry. Counters other than entries and bytes are kept.
 * @param removed: receives the number removed; may be NULL.
 */
void cache_flush_all(struct cache *c, size_t *removed);

/**
 * Remove every negative entry (NXDOMAIN and NODATA), fresh or stale;
 * RRsets stay. Walks all shards, one lock at a time.
 * @param removed: receives the number removed; may be NULL.
 */
void cache_flush_negative(struct cache *c, size_t *removed);

/**
 * Remove every entry whose DNSSEC status is BOGUS (RRsets and negative
 * answers), fresh or stale: after a zone's signatures are repaired its
 * names are validated again at once instead of after val-bogus-ttl.
 * @param removed: receives the number removed; may be NULL.
 */
void cache_flush_bogus(struct cache *c, size_t *removed);

/**
 * Call fn for every entry, fresh and stale, shard by shard, each under
 * its shard lock (entries put meanwhile may or may not be seen).
 * @param now: the time against which view->ttl is computed.
 * @param fn, arg: the callback and its argument.
 * @return 0 when every entry was visited, else the non-zero value with
 *   which fn stopped the walk.
 */
int cache_iterate(struct cache *c, time_t now, cache_iter_fn fn, void *arg);

/**
 * Write the RRs of a viewed entry as cache_get does, with TTL view->ttl.
 * Only valid inside a cache_iterate callback.
 * @param len: receives the bytes written (or needed on CACHE_ESPACE).
 * @return CACHE_OK or CACHE_ESPACE.
 */
int cache_view_render(const struct cache_view *view, uint8_t *buf, size_t cap,
                      size_t *len) CACHE_MUST_CHECK;

/**
 * A watch on the entries of one name's shard: whether anything that a
 * read of the name (any type) could see has changed since. The caller
 * that keeps what it concluded from such reads takes a watch before
 * reading and uses its conclusion again only while cache_watch_same
 * says so, and while every entry it read is still fresh (a watch does
 * not see time pass: the caller keeps the earliest expiry). A watch also
 * breaks at changes of other names of the shard; it never holds on
 * another cache, even one created at the same address.
 */
struct cache_watch {
	uint64_t cache_id;
	uint32_t shard;
	uint64_t gen;
};

/**
 * Take a watch on name's shard (cheap: a hash and an atomic read, no
 * lock).
 * @return CACHE_OK, CACHE_EINVAL or CACHE_ENAME (*w untouched).
 */
int cache_watch(struct cache *c, const uint8_t *name, size_t name_len,
                struct cache_watch *w) CACHE_MUST_CHECK;

/**
 * @return 1 when no entry of the watched shard was added, replaced,
 *   removed (flushed, evicted, reclaimed) or given an EDE since the
 *   watch was taken, and c is the cache it was taken on; else 0.
 */
int cache_watch_same(const struct cache *c, const struct cache_watch *w);

/**
 * Read the counters (summed over shards, each read under its lock).
 * @param st: receives the counters.
 */
void cache_stats_get(struct cache *c, struct cache_stats *st);

#endif /* CURVECACHE_CACHE_CACHE_H */
