/*
 * resolver/front/inflight.h - resolutions in flight, and the clients waiting
 * on each.
 *
 * Many clients asking the same (name, type, class) at once cause one
 * iterator run: the first miss adds an entry, later ones join it as
 * waiters, and when the resolution is done every waiter is answered from
 * the one result (inflight_finish).
 *
 * Design notes:
 * - Sans-I/O and bounded: the entries and the waiters come from two pools
 *   allocated once by inflight_new; nothing allocates afterwards. When a
 *   pool is empty, inflight_add and inflight_wait fail with
 *   INFLIGHT_EFULL. The first half of the entries is protected: an entry
 *   added while fewer than half are protected is, and runs to its end;
 *   the others are on a second age list (inflight_jostle_oldest), from
 *   which the caller may end the oldest to make room when it has run
 *   long enough (Unbound's jostle-timeout), else it drops the newcomer.
 * - The table is keyed by the lowercase name, type and class, hashed
 *   with a random key (SipHash via libsodium's crypto_shorthash) so that
 *   nobody can aim queries at one bucket.
 * - A waiter is plain data: the client's query (what the answer echoes)
 *   and where to send the answer. The table never looks inside the
 *   "where"; the server gives it meaning (a UDP listener, or a TCP
 *   connection slot with a serial number so that an answer for a closed
 *   connection is dropped).
 * - The table does not own the caller's resolution object (`res`); it
 *   stores the pointer and hands it back.
 */
#ifndef CURVECACHE_RESOLVER_INFLIGHT_H
#define CURVECACHE_RESOLVER_INFLIGHT_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "respond.h"

/** Default resolutions in flight per worker. */
#define INFLIGHT_ENTRIES_DEFAULT 1024
/** Default waiting clients per worker, all entries together. */
#define INFLIGHT_WAITERS_DEFAULT 4096
/** Clients that may wait on one resolution; more are refused. */
#define INFLIGHT_WAITERS_PER_ENTRY 256
/** Largest pools inflight_new accepts. */
#define INFLIGHT_POOL_MAX (1u << 20)

/** Status codes. */
enum inflight_status {
	INFLIGHT_OK = 0,
	INFLIGHT_EFULL,    /**< no free entry (or waiter) in the pool */
	INFLIGHT_EWAITERS, /**< this entry has its maximum of waiters */
	INFLIGHT_EEXIST,   /**< an entry with this key already exists */
	INFLIGHT_EINVAL,   /**< bad argument */
	INFLIGHT_ENOMEM    /**< allocation failed (inflight_new) */
};

/** Where an answer goes; meaning given by the server. */
struct inflight_dest {
	int transport;                /**< the server's code: UDP, TCP, TLS,
	                                   DoH */
	void *handle;                 /**< UDP: the listener */
	uint32_t slot;                /**< TCP: connection slot */
	uint64_t serial;              /**< TCP: connection serial */
	uint32_t stream;              /**< DoH: the HTTP/2 stream
	                                   (server_doh.c); read for DoH
	                                   only */
	bool keepalive;               /**< TCP, DoT: the query asked for
	                                   edns-tcp-keepalive (RFC 7828) */
	struct sockaddr_storage addr; /**< the client (access control,
	                                   rate limit, query log); behind
	                                   PROXY v2: the header's */
	socklen_t addrlen;
	struct sockaddr_storage peer; /**< UDP: where the answer goes (the
	                                   datagram's source) */
	socklen_t peerlen;
	struct sockaddr_storage local; /**< UDP on a wildcard listener: the
	                                    address the query was sent to,
	                                    where the answer leaves from;
	                                    family 0: the listener's own */
};

/** A client waiting for a resolution. */
struct inflight_waiter {
	struct respond_query q; /**< its query, as parsed */
	struct inflight_dest dest;
	uint64_t arrived_ns; /**< monotonic time of its query
	                          (latency statistics) */
};

/** Opaque table; see inflight_new. One per worker, not thread-safe. */
struct inflight;
/** Opaque entry: one resolution in flight. */
struct inflight_entry;

/**
 * Called by inflight_finish for each waiter, in arrival order.
 * @param arg: the caller's argument.
 * @param w: the waiter; valid during the call only.
 */
typedef void (*inflight_waiter_fn)(void *arg, const struct inflight_waiter *w);

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *inflight_strerror(int status);

/**
 * Create a table.
 * @param out: receives the table; free with inflight_free.
 * @param max_entries: resolutions at once (1 .. INFLIGHT_POOL_MAX).
 * @param max_waiters: waiting clients at once, all entries together
 *   (1 .. INFLIGHT_POOL_MAX).
 * @return INFLIGHT_OK, INFLIGHT_EINVAL or INFLIGHT_ENOMEM.
 */
int inflight_new(struct inflight **out, size_t max_entries, size_t max_waiters)
	MUST_CHECK;

/**
 * Free the table and every entry and waiter in it (the caller's `res`
 * objects are not touched: end them first). NULL is allowed.
 */
void inflight_free(struct inflight *t);

/**
 * Find the resolution of a question.
 * @param t: the table.
 * @param lname, len: the name, lowercase wire format.
 * @param qtype, qclass: the rest of the key.
 * @return the entry, or NULL.
 */
struct inflight_entry *inflight_find(struct inflight *t, const uint8_t *lname,
                                     size_t len, uint16_t qtype,
                                     uint16_t qclass);

/**
 * Add a resolution (with no waiters yet).
 * @param t: the table.
 * @param lname, len, qtype, qclass: the key, as for inflight_find.
 * @param res: the caller's resolution object, returned by
 *   inflight_entry_res.
 * @param out: receives the entry.
 * @return INFLIGHT_OK, INFLIGHT_EFULL (end inflight_oldest, try again),
 *   INFLIGHT_EEXIST or INFLIGHT_EINVAL.
 */
int inflight_add(struct inflight *t, const uint8_t *lname, size_t len,
                 uint16_t qtype, uint16_t qclass, void *res,
                 struct inflight_entry **out) MUST_CHECK;

/**
 * Add a waiter to an entry (copied).
 * @return INFLIGHT_OK, INFLIGHT_EWAITERS (too many on this entry: refuse
 *   the client), INFLIGHT_EFULL (waiter pool empty: end the oldest
 *   resolution, try again) or INFLIGHT_EINVAL.
 */
int inflight_wait(struct inflight *t, struct inflight_entry *e,
                  const struct inflight_waiter *w) MUST_CHECK;

/**
 * The oldest entry (added first), or NULL when the table is empty.
 */
struct inflight_entry *inflight_oldest(struct inflight *t);

/**
 * The oldest entry outside the protected half (the one that may be
 * jostled to make room), or NULL when there is none.
 */
struct inflight_entry *inflight_jostle_oldest(struct inflight *t);

/** Whether a new entry or a new waiter may find no room. */
bool inflight_full(const struct inflight *t);

/** The `res` pointer given to inflight_add. */
void *inflight_entry_res(const struct inflight_entry *e);

/** Number of clients waiting on an entry. */
size_t inflight_entry_waiters(const struct inflight_entry *e);

/**
 * The key of an entry (for logs).
 * @param lname, len, qtype, qclass: receive the key; the name points into
 *   the entry and is valid until it is finished.
 */
void inflight_entry_key(const struct inflight_entry *e, const uint8_t **lname,
                        size_t *len, uint16_t *qtype, uint16_t *qclass);

/**
 * End a resolution: call fn for each waiter in arrival order, then remove
 * the entry and free its waiters. fn must not call into this table.
 * @param t: the table.
 * @param e: the entry; invalid afterwards.
 * @param fn: the callback, or NULL to drop the waiters.
 * @param arg: its argument.
 */
void inflight_finish(struct inflight *t, struct inflight_entry *e,
                     inflight_waiter_fn fn, void *arg);

/** Resolutions in the table. */
size_t inflight_count(const struct inflight *t);

#endif /* CURVECACHE_RESOLVER_INFLIGHT_H */
