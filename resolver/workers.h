/*
 * resolver/workers.h - the extra worker threads of "threads: N": worker 0
 * is the daemon's own (main loop, control socket); workers 1 .. N-1 each
 * run a loop of their own in a thread of their own, with their own
 * SO_REUSEPORT sockets on every listen address (the kernel spreads the
 * clients over the sockets), in-flight table, upstream transport and
 * server-selection table; the cache, the DNSCurve client (thread-safe),
 * the local zones and the configuration are shared.
 *
 * Design notes:
 * - Everything is set up (loops, servers, bound sockets) by the calling
 *   thread before any thread starts, so a listen error is reported at
 *   start-up as with one thread.
 * - Counters: workers_stats_add sums the extra workers' counters into
 *   the caller's (read without a lock: a counter of another thread may
 *   be one update behind; the figures are statistics, not invariants).
 * - A reload (SIGHUP) changes the shared configuration in place while
 *   the other threads read it; settings it cannot change at run time are
 *   kept (main.c), the others are plain words read per query.
 */
#ifndef CURVECACHE_RESOLVER_WORKERS_H
#define CURVECACHE_RESOLVER_WORKERS_H

#include <stddef.h>

#include "server.h"

/** Largest number of workers (cfg's threads bound). */
#define WORKERS_MAX 64

/** Status codes. */
enum workers_status {
	WORKERS_OK = 0,
	WORKERS_ENOMEM,  /**< allocation failed */
	WORKERS_EBIND,   /**< a listener could not be set up */
	WORKERS_EHINTS,  /**< the root hints could not be loaded */
	WORKERS_ETHREAD  /**< a thread could not be started */
};

/** Opaque set of extra workers. */
struct workers;

/**
 * Start workers 1 .. n-1 (nothing for n <= 1: *out is NULL).
 * @param out: receives the set; stop with workers_stop, then free.
 * @param n: cfg->threads.
 * @param p: what worker 0 was given; loop and hints are not used (each
 *   worker has its own loop and loads p->cfg->root_hints itself).
 * @param err, errlen: a message on failure.
 * @return WORKERS_OK or an error (everything started is stopped).
 */
int workers_start(struct workers **out, unsigned n,
                  const struct server_params *p, char *err, size_t errlen)
	__attribute__((warn_unused_result));

/**
 * Add the extra workers' counters to sum.
 * @param w: the set (NULL: nothing added).
 */
void workers_stats_add(const struct workers *w, struct stats *sum);

/**
 * Stop every extra worker (its resolutions end with SERVFAIL) and wait
 * for its thread to end, then free the set. NULL is allowed.
 */
void workers_stop(struct workers *w);

#endif /* CURVECACHE_RESOLVER_WORKERS_H */
