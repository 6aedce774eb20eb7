/*
 * resolver/transport/cachedb_redis.h - one worker's connection to the Redis of
 * the shared cache tier (cachedb-backend: redis; issue 26): asynchronous
 * GET and SET on the worker's libuv loop (hiredis's async context and its
 * libuv adapter).
 *
 * Design notes:
 * - Never on the hot path: a call is made only on a local miss, and only
 *   while the connection is up; otherwise cachedb_redis_get returns NULL
 *   at once and the caller resolves as if Redis were not there.
 * - Bounded waits: each call has the timeout (redis-timeout). The first
 *   call that outlives it takes the connection down: every call waiting
 *   on it ends at once as an error, and nothing is asked again until a
 *   reconnect succeeds. Reconnects back off from 100 ms, doubling to
 *   30 s; a connect that takes longer than the timeout fails too. So a
 *   slow or dead Redis costs the clients of the calls in flight one
 *   timeout, then nothing while it is down.
 * - Replies are hostile: a GET reply is a hit only as a bulk string of
 *   at most CACHEDB_REDIS_VALUE_MAX bytes, a miss only as nil; anything else
 * is an error. A SET reply must be the status OK.
 * - One connection per worker, one thread: nothing here is shared.
 */
#ifndef CURVECACHE_RESOLVER_CACHEDB_REDIS_H
#define CURVECACHE_RESOLVER_CACHEDB_REDIS_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

/** Reconnect back-off: first wait and the longest, ms. */
#define CACHEDB_REDIS_BACKOFF_MIN_MS 100u
#define CACHEDB_REDIS_BACKOFF_MAX_MS 30000u
/** The longest value taken (the record image's bound, store/cachedb.h). */
#define CACHEDB_REDIS_VALUE_MAX (1024u * 1024u)
/** Bytes of a host name or password kept. */
#define CACHEDB_REDIS_TEXT_BYTES 256

/** Where Redis is. */
struct cachedb_redis_params {
	const char *host; /**< address or name (hiredis resolves it) */
	unsigned port;
	const char *path;     /**< unix socket; wins when not empty */
	const char *password; /**< AUTH when not empty */
	uint32_t timeout_ms;
};

/** The connection's state. */
enum cachedb_redis_state {
	CACHEDB_REDIS_DOWN = 0,   /**< waiting for the next try */
	CACHEDB_REDIS_CONNECTING, /**< a try is running */
	CACHEDB_REDIS_UP          /**< calls are made */
};

/** How a GET ended. */
enum cachedb_redis_result {
	CACHEDB_REDIS_HIT = 0, /**< val, len: the value (valid in the call) */
	CACHEDB_REDIS_MISS,    /**< no such key */
	CACHEDB_REDIS_ERROR    /**< timeout, connection lost, bad reply */
};

/** What a GET's caller is told (once, unless cancelled). */
typedef void cachedb_redis_get_fn(void *arg, enum cachedb_redis_result res,
                                  const uint8_t *val, size_t len);

/** The counters of a connection. */
struct cachedb_redis_counts {
	uint64_t connects;   /**< connections made */
	uint64_t failures;   /**< connects failed, connections lost */
	uint64_t set_errors; /**< SETs not answered OK */
};

struct cachedb_redis;
struct cachedb_redis_call;

/**
 * Make a connection (it starts connecting at once).
 * @return NULL when out of memory.
 */
struct cachedb_redis *cachedb_redis_new(uv_loop_t *loop,
                                        const struct cachedb_redis_params *p);

/**
 * Close: calls in flight end without their callbacks; the memory is
 * freed once the loop has closed the handles.
 */
void cachedb_redis_free(struct cachedb_redis *r);

/**
 * GET key.
 * @return the call (for cachedb_redis_cancel), or NULL when the
 *   connection is not up (nothing asked, fn never called).
 */
struct cachedb_redis_call *cachedb_redis_get(struct cachedb_redis *r,
                                             const char *key,
                                             cachedb_redis_get_fn *fn,
                                             void *arg);

/** Forget a call: its fn is never called. */
void cachedb_redis_cancel(struct cachedb_redis_call *call);

/**
 * SET key val (EX ttl when ttl > 0), fire and forget.
 * @return false when the connection is not up (nothing sent).
 */
bool cachedb_redis_set(struct cachedb_redis *r, const char *key,
                       const uint8_t *val, size_t len, uint32_t ttl);

/** The state, and its name ("up", "down", "connecting"). */
enum cachedb_redis_state cachedb_redis_state(const struct cachedb_redis *r);
const char *cachedb_redis_state_name(enum cachedb_redis_state s);

/** The counters. */
void cachedb_redis_counts(const struct cachedb_redis *r,
                          struct cachedb_redis_counts *out);

#endif /* CURVECACHE_RESOLVER_CACHEDB_REDIS_H */
