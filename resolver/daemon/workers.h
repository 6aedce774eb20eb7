/*
 * resolver/daemon/workers.h - the extra worker threads of "threads: N": worker
 * 0 is the daemon's own (main loop, control socket); workers 1 .. N-1 each run
 * a loop of their own in a thread of their own, with their own SO_REUSEPORT
 * sockets on every listen address (the kernel spreads the clients over the
 * sockets), in-flight table, upstream transport and server-selection table;
 * the cache, the DNSCurve client (thread-safe), the local zones are shared.
 *
 * Design notes:
 * - Everything is set up (loops, servers, bound sockets) by the calling
 *   thread before any thread starts, so a listen error is reported at
 *   start-up as with one thread.
 * - Each extra worker reads a private copy of the configuration (struct
 *   cfg is plain data) and has its own local data (local-data-file,
 *   block-file) and root hints; only its own thread touches them.
 * - Reload (SIGHUP, "curvecache-control reload"): the main thread loads
 *   and checks the new configuration, applies it to worker 0, then
 *   workers_reload posts it to every extra worker (a uv_async_t "call"
 *   on the worker's own loop, request fields under a per-worker mutex)
 *   and waits until each has answered. Each worker, on its own thread
 *   and between two callbacks, copies the settings into its private
 *   struct cfg and loads its local data and hints, exactly as one thread
 *   reloads in place; the workers do this in parallel. The hand-off is
 *   synchronous, so the new cfg needs no reference count: the main
 *   thread does not change or free it before every worker acknowledged.
 *   A worker whose files fail to load (edited between the main thread's
 *   check and its own load) keeps its old data; the reload reports it.
 * - Counters: each worker bumps its struct stats with plain ++ (no cost
 *   on the query path). workers_stats posts a snapshot request to every
 *   worker through the same call; the worker copies its counters under
 *   its mutex and the reader sums the copies under the same mutex, so
 *   nothing is read while it is written. A worker that does not answer
 *   within WORKERS_SNAP_WAIT_S (stuck in one long callback) contributes
 *   its previous snapshot.
 * - Control commands that touch a worker's own state (its
 *   server-selection table for flush_infra, its resolutions, its forward
 *   zones) run a function on its thread through workers_each.
 */
#ifndef CURVECACHE_RESOLVER_WORKERS_H
#define CURVECACHE_RESOLVER_WORKERS_H

#include "base/base.h"

#include <stddef.h>

#include "front/server.h"

struct cfg;

/** Largest number of workers (cfg's threads bound). */
#define WORKERS_MAX 64

/** Status codes. */
enum workers_status {
	WORKERS_OK = 0,
	WORKERS_ENOMEM, /**< allocation failed */
	WORKERS_EBIND,  /**< a listener could not be set up */
	WORKERS_EHINTS, /**< the root hints could not be loaded */
	WORKERS_ETHREAD /**< a thread could not be started */
};

/** Opaque set of extra workers. */
struct workers;

/**
 * Start workers 1 .. n-1 (nothing for n <= 1: *out is NULL).
 * @param out: receives the set; stop with workers_stop, then free.
 * @param n: cfg->threads.
 * @param p: what worker 0 was given; loop, hints and lz are not used
 *   (each worker has its own loop, chooses its root hints with
 *   hints_select and builds its local zones from p->cfg itself).
 * @param err, errlen: a message on failure.
 * @return WORKERS_OK or an error (everything started is stopped).
 */
int workers_start(struct workers **out, unsigned n,
                  const struct server_params *p, char *err, size_t errlen)
	MUST_CHECK;

/**
 * Give every extra worker a new configuration (see the design notes);
 * returns once each has applied it. Main thread only.
 * @param w: the set (NULL: nothing to do).
 * @param nc: the new settings (restart-only ones already kept); read by
 *   the workers during the call only.
 * @param err, errlen: "worker N: reason" when a worker kept old data.
 * @return WORKERS_OK, or the first worker's error (the others applied).
 */
int workers_reload(struct workers *w, const struct cfg *nc, char *err,
                   size_t errlen);

/**
 * Add the extra workers' counters to sum, read race-free (see the
 * design notes). Main thread only.
 * @param w: the set (NULL: nothing added, 0 returned).
 * @param sum: the sum.
 * @param per, cap: receive workers 1 .. N-1's per-thread counters.
 * @return how many entries of per were written.
 */
size_t workers_stats(struct workers *w, struct stats *sum,
                     struct stats_thread *per, size_t cap);

/** Run on a worker's own thread: its server and its copy of the cfg
 *  (which it may change: runtime forward zones). */
typedef void workers_fn(struct server *srv, struct cfg *cfg, void *arg);

/**
 * Run fn on each extra worker's thread, one after the other (workers 1
 * .. N-1 in order), and return when the last has run it: fn may write
 * into arg without a lock (the caller waits). Main thread only; waits
 * as long as a worker is busy. NULL w: nothing.
 */
void workers_each(struct workers *w, workers_fn *fn, void *arg);

/**
 * Stop every extra worker (its resolutions end with SERVFAIL) and wait
 * for its thread to end, then free the set. NULL is allowed.
 */
void workers_stop(struct workers *w);

#endif /* CURVECACHE_RESOLVER_WORKERS_H */
