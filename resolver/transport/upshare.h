/*
 * resolver/transport/upshare.h - identical upstream queries in flight at once
 * are sent once: later askers join the first one and get its reply.
 *
 * When a burst of client questions for names under one zone arrives
 * before the zone's delegation is cached (a cold start, or a popular
 * zone expiring), each resolution would ask the parent's server the
 * same question; a cold run of 1,000 names sent ~5 % more upstream
 * queries than it had names (tests/bench/resolvers.sh). Here a query
 * is keyed by everything that decides what goes on the wire and how
 * the answer is checked: server address, name, type, class, zone cut
 * (bailiwick, TXT format), DNSCurve key, EDNS size. An equal query
 * still in flight, that has not yet timed out, gets the new asker as
 * one more waiter; its reply (or timeout) is handed to every waiter
 * with the waiter's own token.
 *
 * Design notes:
 * - A query that reported its timeout takes no new waiters (a joiner
 *   would never see a timeout of its own), but stays open for its
 *   waiters' late answer; a final reply (MSG, UNREACHABLE, FORMERR)
 *   takes it out of the table before the waiters are called, so what
 *   they send next starts afresh.
 * - Waiters detach as their resolutions end; the last one to go
 *   cancels the upstream query. Callbacks may detach any waiter, or
 *   join new queries, while a reply is being handed out.
 * - The key hash is SipHash (crypto_shorthash) with a random key, so
 *   names chosen by clients cannot pile queries into one bucket.
 * - One table per worker (not thread-safe), next to its struct upstream.
 */
#ifndef CURVECACHE_RESOLVER_UPSHARE_H
#define CURVECACHE_RESOLVER_UPSHARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "iter/iter.h"
#include "upstream.h"

/** Askers of one query at most (more send their own). */
#define UPSHARE_WAITERS_MAX 64
/** Hash buckets of the table. */
#define UPSHARE_BUCKETS 1024u

struct upshare;
struct upshare_q;

/** The reply (token already set to the waiter's) for arg. */
typedef void upshare_cb(void *arg, const struct iter_reply *reply);

/** Send function: upstream_send, or a test's (same contract). */
typedef int upshare_send_fn(void *ctx, const struct iter_target *t,
                            uint64_t mono_ms, upstream_cb cb, void *arg,
                            struct upstream_query **out);
/** Cancel function: upstream_cancel, or a test's. */
typedef void upshare_cancel_fn(void *ctx, struct upstream_query *q);

/**
 * A table over a transport.
 * @param send, cancel, ctx: the transport (ctx passed back to both).
 * @param joined: NULL or a counter bumped for every join.
 * @return NULL when out of memory.
 */
struct upshare *upshare_new(upshare_send_fn *send, upshare_cancel_fn *cancel,
                            void *ctx, uint64_t *joined);

/** Free the table; every waiter must have detached. NULL is allowed. */
void upshare_free(struct upshare *t);

/**
 * Ask t's target for (cb, arg) under t->token: join an equal query in
 * flight, or send a new one.
 * @param out: receives the query, to detach from with (arg, token).
 * @return UPSTREAM_OK, or the transport's error for a new query
 *   (nothing sent, *out untouched, cb never called for it).
 */
int upshare_send(struct upshare *t, const struct iter_target *tg,
                 uint64_t mono_ms, upshare_cb *cb, void *arg,
                 struct upshare_q **out);

/** Stop waiting (no callback for (arg, token) after this). q may be
 * NULL. A final reply (any kind but ITER_REPLY_TIMEOUT) ends the wait
 * by itself: q must not be used once that callback has returned
 * (detaching inside it is allowed and does nothing more). */
void upshare_detach(struct upshare_q *q, void *arg, uint32_t token);

/** Queries in flight (for tests). */
size_t upshare_count(const struct upshare *t);

#endif
