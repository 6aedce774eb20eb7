/*
 * resolver/daemon/ops.h - the daemon's operations glue: the DNSCurve client
 * key (curve-key-file, curve-key-rotate), the cache file (cache-file), the
 * service manager (sd_notify), the pidfile, the files a reload reads and
 * the check of "curvecache -t", each with its log events.
 * resolver/daemon/main.c calls these at start-up, on its timer and at
 * shutdown.
 *
 * Log events: curve_key_created, curve_key (source=file|fresh key_id=...),
 * curve_key_rotated, curve_key_rotate_failed, cache_file_absent,
 * cache_loaded, cache_file_skipped, cache_saved, cache_save_failed,
 * notify_failed, pidfile_remove_failed, reload_partial, config_note. A
 * key is named only by its key_id: the first OPS_KEY_ID_BYTES bytes of the
 * public key, in hex; never the secret.
 */
#ifndef CURVECACHE_RESOLVER_OPS_H
#define CURVECACHE_RESOLVER_OPS_H

#include "base/base.h"

#include <stddef.h>
#include <stdint.h>

#include "conf/cfg.h"

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
int ops_curve_open(const struct cfg *c, struct curve_client **out, char *err,
                   size_t errlen) MUST_CHECK;

/**
 * Rotate the client key (curve_client_rotate) and log it.
 * @param cl: the client.
 * @param period_s: the rotation period, for the log line.
 */
void ops_curve_rotate(struct curve_client *cl, uint32_t period_s);

/**
 * Load cache-file into the (empty) cache at start-up, if set; a missing
 * file is noted, a bad one reported and skipped (resolver/store/persist.h).
 */
void ops_cache_load(struct cache *cache, const struct cfg *c);

/** Save the cache to cache-file, if set (at shutdown). */
void ops_cache_save(struct cache *cache, const struct cfg *c);

/**
 * Tell the service manager our state (resolver/daemon/notify.h); a failure is
 * logged, no NOTIFY_SOCKET is no failure.
 * @param state: e.g. "READY=1".
 */
void ops_notify(const char *state);

/**
 * On a reload, keep the running values of the options that need a
 * restart (port, listen, user, cache-size, min-ttl, max-ttl,
 * negative-max-ttl, curve-key-file, threads, control-socket, pidfile),
 * with one "reload_partial" warning naming those that changed
 * (restart_needed=threads,listen), none when none changed.
 * @param old: the running config.
 * @param nc: the new config; those options are set back to old's.
 */
void ops_keep_restart_only(const struct cfg *old, struct cfg *nc);

/**
 * Log the notes of the config (Unbound options read and ignored, which
 * curvecache -t prints), one "config_note" info line each (file= line=
 * option= note=), at start and after a reload, so that an administrator
 * running the service sees them too.
 * @param c: the config just read.
 */
void ops_notes_log(const struct cfg *c);

/**
 * Check that the files a reload (SIGHUP, control "reload") reads can be
 * read by the user the daemon runs as now: the config file and every
 * file it includes (read again), root-hints, local-data-file,
 * block-file, trust-anchor-file and auto-trust-anchor-file. Called after the
 * privilege drop, so that a file the run user cannot read stops the start, not
 * the first reload.
 * @param c: the running config.
 * @param path: the config file.
 * @param user: the run user's name, for the message.
 * @param err, errlen: on failure, the file, the user and the reason
 *   ("local-data-file F: cannot be read by user U: Permission denied").
 * @return 0, or -1.
 */
int ops_reload_files_check(const struct cfg *c, const char *path,
                           const char *user, char *err, size_t errlen)
	MUST_CHECK;

/**
 * What "curvecache -t" checks beyond cfg_load: the root hints load (a
 * named file, else Debian's or the built-in set), the trust anchors load
 * (trust.h), local-data-file and block-file parse, curve-key-file is absent
 * (made at start) or a regular file of mode 0600 or stricter. Binds nothing,
 * changes nothing.
 * @param c: a config cfg_load accepted.
 * @param err, errlen: the first problem ("FILE:LINE: problem" for the
 *   files that have lines).
 * @return 0, or -1.
 */
int ops_config_check(const struct cfg *c, char *err, size_t errlen) MUST_CHECK;

/**
 * Write the pidfile: the process id and a newline, mode 0644 (under the
 * umask); an existing file is replaced, a symbolic link is refused.
 * @param path: pidfile (absolute).
 * @param err, errlen: the reason on failure.
 * @return 0, or -1 (nothing left behind).
 */
int ops_pidfile_write(const char *path, char *err, size_t errlen) MUST_CHECK;

/** Remove the pidfile at exit; a failure other than "absent" is logged. */
void ops_pidfile_remove(const char *path);

#endif /* CURVECACHE_RESOLVER_OPS_H */
