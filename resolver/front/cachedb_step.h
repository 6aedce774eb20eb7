/*
 * resolver/front/cachedb_step.h - the shared cache tier on Redis in the
 * resolution path (cachedb-backend: redis; issue 26): a local miss asks
 * Redis before the iterator starts (resolution.c calls cachedb_step_fetch
 * when it starts a resolution for a client), and what a resolution
 * learned is written there when it ends (cachedb_step_store).
 *
 * Design notes:
 * - A local hit never gets here: the cache answers first (server.c).
 * - A record from Redis is believed only when its MAC holds under the
 *   fleet key (resolver/store/cachedb.h); then its entries go into the
 *   local cache with their rank, provenance and DNSSEC status, and the
 *   waiting clients are answered from the local cache as any cached
 *   answer is (AD only for SECURE data, RRSIGs only for DO=1).
 * - The worker's one connection (resolver/transport/cachedb_redis.h) is made
 *   when it starts listening; while it is down nothing waits on it.
 * - Counted in struct stats: cachedb.hits, .misses, .errors, .refused
 *   (records that failed the MAC, version or question checks, or a
 *   line), .skipped (Redis down), .stores, .lookups and .lookup_usec.
 */
#ifndef CURVECACHE_RESOLVER_CACHEDB_STEP_H
#define CURVECACHE_RESOLVER_CACHEDB_STEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct server;
struct cachedb_fetch;

/** The end of a fetch: hit, the question's entries are in the cache. */
typedef void cachedb_step_fn(void *arg, bool hit);

/**
 * Ask Redis for a question (lowercase name).
 * @return the fetch (fn is called later, once, unless cancelled), or
 *   NULL when Redis is not asked (off, down, out of memory): go on now.
 */
struct cachedb_fetch *cachedb_step_fetch(struct server *s,
                                         const uint8_t *lname, size_t len,
                                         uint16_t qtype, uint16_t qclass,
                                         cachedb_step_fn *fn, void *arg);

/** Forget a fetch (NULL: nothing): fn is never called. */
void cachedb_step_cancel(struct cachedb_fetch *f);

/** Write what the cache holds for a question to Redis (unless off or
 *  cachedb-no-store). */
void cachedb_step_store(struct server *s, const uint8_t *lname, size_t len,
                        uint16_t qtype, uint16_t qclass);

/** When the worker starts listening: connect now, so that the first
 *  misses find Redis up. */
void cachedb_step_start(struct server *s);

/** At the worker's stop: close the connection. */
void cachedb_step_stop(struct server *s);

/**
 * The tier for `status`: "off", or "redis ADDR up|down|connecting".
 * @param out, cap: destination (NUL-terminated).
 */
void cachedb_step_status(const struct server *s, char *out, size_t cap);

#endif /* CURVECACHE_RESOLVER_CACHEDB_STEP_H */
