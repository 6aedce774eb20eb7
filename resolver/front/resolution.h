/*
 * resolver/front/resolution.h - the resolution driver of a worker
 * (resolution.c): what server.c calls on a cache miss, for prefetch and at
 * stop. Internal to the worker: only server.c includes it.
 */
#ifndef CURVECACHE_RESOLVER_RESOLUTION_H
#define CURVECACHE_RESOLVER_RESOLUTION_H

#include <stdbool.h>
#include <time.h>

#include "server_int.h"

/**
 * A cache miss with RD=1: join the resolution of the question in flight,
 * or start one. Answers SERVFAIL at once if none can start.
 * @return SERVER_Q_WAITING if the client waits (answered later through
 *   server_answer or server_error), SERVER_Q_DONE if it was answered or
 *   refused (too many waiters: counted in num.query.inflight.refused).
 */
enum server_qresult resolution_wait(struct server *s,
                                    const struct respond_query *q,
                                    const struct inflight_dest *d);

/**
 * After a cache hit with answer a at wall time now: start a background
 * refresh if prefetch is on and the answer is near its end (stale.h),
 * unless the question is in flight or the table is half full.
 */
void resolution_prefetch(struct server *s, const struct respond_query *q,
                         const struct answer *a, time_t now);

/** End every resolution in the in-flight table (SERVFAIL, or a stale
 * answer, to their waiters) with the reason why. */
void resolution_fail_all(struct server *s, const char *why);

#endif /* CURVECACHE_RESOLVER_RESOLUTION_H */
