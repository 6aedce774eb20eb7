/*
 * resolver/policy/ratelimit.h - per-client query rate limiting (token
 * buckets).
 *
 * A client address may send `qps` queries per second on average, with
 * bursts of up to `qps` queries (a bucket of qps tokens, refilled at qps
 * tokens per second; each query takes one). Queries beyond that are to be
 * dropped by the caller (server.c counts them as num.ratelimited).
 *
 * Design notes:
 * - Fixed memory: RATELIMIT_SLOTS buckets allocated by ratelimit_new;
 *   nothing allocates per query. A bucket is found by a keyed hash of the
 *   address (SipHash, libsodium crypto_shorthash, random key per table) in
 *   a window of RATELIMIT_PROBE_MAX slots; when the window is full the
 *   least recently used bucket of the window is taken over (its client
 *   starts again with a full bucket). So a client may at worst get a
 *   fresh bucket more often than it should, never fewer queries.
 * - IPv4 clients are keyed by their address; IPv6 clients by their /64
 *   (one host usually owns the whole /64); a v4-mapped IPv6 address is
 *   keyed as IPv4.
 * - Sans-I/O: `now_ms` (monotonic milliseconds) is an argument, so unit
 *   tests drive time. The limit is an argument too, so a reload that
 *   changes it needs nothing here.
 * - Loopback (127.0.0.0/8, ::1) is exempt when the caller asks: a host's
 *   own stub resolver must never be limited by default.
 * - One table serves every worker thread (the kernel spreads one
 *   client's queries over the workers by source port, so per-worker
 *   tables would give it `threads` times its limit). Windows are aligned
 *   groups of RATELIMIT_PROBE_MAX slots and RATELIMIT_LOCKS mutexes are
 *   striped over them, so a check takes one uncontended lock.
 */
#ifndef CURVECACHE_RESOLVER_RATELIMIT_H
#define CURVECACHE_RESOLVER_RATELIMIT_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/** Buckets per table (a power of two). */
#define RATELIMIT_SLOTS 4096u
/** Slots looked at for one address. */
#define RATELIMIT_PROBE_MAX 4u
/** Mutexes striped over the windows (a power of two). */
#define RATELIMIT_LOCKS 64u
/** Largest queries per second the config accepts. */
#define RATELIMIT_QPS_MAX 1000000u

/** Status codes. */
enum ratelimit_status {
	RATELIMIT_OK = 0,
	RATELIMIT_ENOMEM /**< allocation failed (ratelimit_new) */
};

/** What ratelimit_check decided. */
enum ratelimit_verdict {
	RATELIMIT_PASS = 0, /**< within the limit (or not limited) */
	RATELIMIT_EXCESS    /**< over the limit: drop the query */
};

/** The table (opaque). */
struct ratelimit;

/**
 * Create a table of RATELIMIT_SLOTS empty buckets.
 * @param out: receives the table; free with ratelimit_free.
 * @return RATELIMIT_OK or RATELIMIT_ENOMEM (*out untouched on error).
 */
int ratelimit_new(struct ratelimit **out) MUST_CHECK;

/** Free a table. NULL is allowed. */
void ratelimit_free(struct ratelimit *rl);

/** Describe a status code (a static string, never NULL). */
const char *ratelimit_strerror(int status);

/**
 * Count one query from a client against its bucket.
 * @param rl: the table.
 * @param sa: the client address (AF_INET or AF_INET6; other families
 *   always pass).
 * @param qps: the limit in queries per second; 0 = no limit (always
 *   passes, nothing recorded).
 * @param exempt_loopback: loopback clients always pass.
 * @param now_ms: monotonic milliseconds.
 * @return RATELIMIT_PASS or RATELIMIT_EXCESS.
 */
enum ratelimit_verdict ratelimit_check(struct ratelimit *rl,
                                       const struct sockaddr *sa, uint32_t qps,
                                       bool exempt_loopback, uint64_t now_ms)
	MUST_CHECK;

/**
 * Whether an address is loopback (127.0.0.0/8, ::1, or v4-mapped
 * 127.0.0.0/8).
 */
bool ratelimit_is_loopback(const struct sockaddr *sa);

#endif /* CURVECACHE_RESOLVER_RATELIMIT_H */
