/*
 * resolver/daemon/autotrust_run.h - RFC 5011 rollover of the zones of
 * auto-trust-anchor-file: (issue 15) in the running daemon: a timer on
 * worker 0's loop probes each zone's DNSKEY RRset when it is due
 * (server_probe: a background resolution, validated against the running
 * anchors), feeds the validated set and its RRSIGs from the cache to the
 * state machine (anchor/autotrust.h), rewrites the file when it moved,
 * and when the set of trusted keys changed gives every worker new
 * anchors as a reload does (trust.h, server_anchors_set, workers_each).
 *
 * Design notes:
 * - One probe at a time (zones are few); one tick a second reads the
 *   times, nothing on the query path.
 * - The file is written as the run user after the privilege drop: a
 *   temporary in the same directory, fsync, rename (fileio.h). A start
 *   where the run user cannot write the file or its directory logs a
 *   warning naming both (the anchors are still used, as Unbound does);
 *   each failed write is an error line. The workers read their anchors
 *   from the file, so a change that could not be written is not used.
 * - A probe whose set is not SECURE, missing from the cache or not
 *   signed by a trusted key is a failure: retried after the retry time.
 *
 * Log events: autotrust_probe (zone= result=ok|untrusted|failed keys=
 * trusted= next_probe=), autotrust_key (zone= tag= from= to= why=),
 * autotrust_anchors (zone= trusted=), autotrust_write_failed,
 * autotrust_file_unwritable, autotrust_revoked_all.
 */
#ifndef CURVECACHE_RESOLVER_AUTOTRUST_RUN_H
#define CURVECACHE_RESOLVER_AUTOTRUST_RUN_H

#include "base/base.h"

#include <uv.h>

struct autotrust_run;
struct cache;
struct cfg;
struct server;
struct workers;

/**
 * Read every auto-trust-anchor-file of cfg and start the timer (nothing
 * for a config without any, or dnssec: no: *out is NULL).
 * @param cfg: the running config; read live (a reload changes it in
 *   place, then calls autotrust_run_reload).
 * @param w: the extra workers, or NULL.
 * @return 0, or -1 (out of memory; a file that does not load was
 *   already refused by trust.h).
 */
int autotrust_run_start(struct autotrust_run **out, uv_loop_t *loop,
                        struct server *srv, struct cache *cache,
                        struct workers *w, const struct cfg *cfg) MUST_CHECK;

/** After a reload: read the files again (a probe in flight is ignored). */
void autotrust_run_reload(struct autotrust_run *r);

/** Close the timer (at exit, before the loop's last run). NULL is ok. */
void autotrust_run_close(struct autotrust_run *r);

/** Free (after the loop's last run: server_stop ended every probe). */
void autotrust_run_free(struct autotrust_run *r);

#endif /* CURVECACHE_RESOLVER_AUTOTRUST_RUN_H */
