/*
 * resolver/ops.h - the daemon's operations glue: the DNSCurve client key
 * (curve-key-file, curve-key-rotate), the cache file (cache-file) and the
 * service manager (sd_notify), each with its log events. resolver/main.c
 * calls these at start-up, on its timer and at shutdown.
 *
 * Log events: curve_key_created, curve_key (source=file|fresh key_id=...),
 * curve_key_rotated, curve_key_rotate_failed, cache_file_absent,
 * cache_loaded, cache_file_skipped, cache_saved, cache_save_failed,
 * notify_failed. A key is named only by its key_id: the first
 * OPS_KEY_ID_BYTES bytes of the public key, in hex; never the secret.
 */
#ifndef CURVECACHE_RESOLVER_OPS_H
#define CURVECACHE_RESOLVER_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

struct cache;
struct curve_client;

/** Bytes of the client public key logged as its key_id (public data). */
#define OPS_KEY_ID_BYTES 8
/** A cache file may be 4 x cache-size and this much more. */
#define OPS_CACHE_FILE_SLACK (1024 * 1024)

/**
 * Make the DNSCurve client: from curve-key-file (which must be a regular
 * file of mode 0600 or stricter; created with a fresh key when missing),
 * else with a fresh key. Logs which key is in use.
 * @param c: the config.
 * @param out: receives the client; free with curve_client_free.
 * @param err, errlen: the reason on failure ("curve-key-file F: mode
 *   0644; ... chmod 600 F").
 * @return 0, or -1 on failure.
 */
int ops_curve_open(const struct cfg *c, struct curve_client **out,
                   char *err, size_t errlen)
	__attribute__((warn_unused_result));

/**
 * Rotate the client key (curve_client_rotate) and log it.
 * @param cl: the client.
 * @param period_s: the rotation period, for the log line.
 */
void ops_curve_rotate(struct curve_client *cl, uint32_t period_s);

/**
 * Load cache-file into the (empty) cache at start-up, if set; a missing
 * file is noted, a bad one reported and skipped (resolver/persist.h).
 */
void ops_cache_load(struct cache *cache, const struct cfg *c);

/** Save the cache to cache-file, if set (at shutdown). */
void ops_cache_save(struct cache *cache, const struct cfg *c);

/**
 * Tell the service manager our state (resolver/notify.h); a failure is
 * logged, no NOTIFY_SOCKET is no failure.
 * @param state: e.g. "READY=1".
 */
void ops_notify(const char *state);

#endif /* CURVECACHE_RESOLVER_OPS_H */
