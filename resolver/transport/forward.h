/*
 * resolver/transport/forward.h - forward zones: questions for a configured
 * zone go to its recursive servers (forward-zone lines, cfg.h) instead of
 * being resolved from the root.
 *
 * No longer in the query path: forward zones are zone cuts of the
 * iterator, whose servers are the forwarders (resolver/iter/iter_fwd.c),
 * asked and validated like any other. Only server.c still makes a handle
 * per worker (and logs forward_zones on a reload); to be removed.
 *
 * The client is c-ares: one channel per zone, its servers set with
 * ares_set_servers_ports_csv, run inside the worker's libuv loop through
 * c-ares's socket-state callback (one uv_poll_t per socket c-ares opens)
 * and one timer per channel for its timeouts. c-ares sends each query
 * over UDP from a random port with a random ID, checks the ID and the
 * question of the reply, retries over TCP on TC and moves to the next
 * server on timeouts, SERVFAIL or REFUSED.
 *
 * forward_answer then checks what came back as well as a forwarder can be
 * checked (a response to our question, RCODE NOERROR or NXDOMAIN, data
 * or an SOA: an empty answer without SOA is a referral, refused), keeps
 * only the answer records on the CNAME chain from the question (no
 * authority NS, no additional data), caches them with rank NONAUTH (RFC
 * 2181 5.4.1: an answer from a non-authoritative server), and writes the
 * record images for the clients.
 *
 * Design notes:
 * - The zones are copied at forward_new. A reload whose zones differ
 *   (forward_same) makes a new handle and stops the old one: queries it
 *   still holds end with FORWARD_EFAIL (their clients get SERVFAIL and
 *   ask again, reaching the new forwarders).
 * - A query is owned by forward.c until c-ares calls back;
 *   forward_cancel only detaches the caller's callback, so a resolution
 *   may end (deadline, eviction) while c-ares still holds the query.
 * - forward_answer needs no loop and no socket: unit tests feed it
 *   messages.
 */
#ifndef CURVECACHE_RESOLVER_FORWARD_H
#define CURVECACHE_RESOLVER_FORWARD_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <uv.h>

#include "conf/cfg.h"
#include "conf/privaddr.h"
#include "wire/answer.h"

struct cache;

/** Tries per server (c-ares ARES_OPT_TRIES). */
#define FORWARD_TRIES 2
/** Smallest per-try timeout, milliseconds. */
#define FORWARD_TIMEOUT_MIN_MS 200u
/** EDNS payload offered to forwarders. */
#define FORWARD_EDNS_PAYLOAD 1232
/** Records of one RRset cached from a forwarded answer. */
#define FORWARD_RRSET_MAX 256

/** Status codes. */
enum forward_status {
	FORWARD_OK = 0,
	FORWARD_EFAIL,  /**< every server failed or timed out */
	FORWARD_EMSG,   /**< malformed, or not a response to our question */
	FORWARD_ERCODE, /**< an RCODE other than NOERROR or NXDOMAIN */
	FORWARD_ESPACE, /**< caller's buffer too small */
	FORWARD_EINVAL, /**< bad argument */
	FORWARD_ENOMEM, /**< allocation failed */
	FORWARD_EARES   /**< c-ares could not be set up */
};

/** The forward zones of one worker. */
struct forward;

/** One query handed to c-ares. */
struct forward_query;

/**
 * Called once per forward_send that was not cancelled.
 * @param arg: as given to forward_send.
 * @param status: FORWARD_OK (msg, len hold the response) or
 *   FORWARD_EFAIL (msg NULL).
 */
typedef void (*forward_cb)(void *arg, int status, const uint8_t *msg,
                           size_t len);

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *forward_strerror(int status);

/**
 * Set up the forward zones of cfg (none is fine: every lookup misses).
 * @param out: receives the handle; free with forward_free after
 *   forward_stop and the loop has run the closes.
 * @param loop: the worker's loop.
 * @param c: the configuration; zones are copied.
 * @param err, errlen: receive the reason on failure.
 * @return FORWARD_OK, FORWARD_ENOMEM or FORWARD_EARES.
 */
int forward_new(struct forward **out, uv_loop_t *loop, const struct cfg *c,
                char *err, size_t errlen) MUST_CHECK;

/**
 * Whether a configuration has the zones, servers and timeout that a
 * handle runs with (a reload then keeps the handle).
 * @param f: the handle (NULL: false).
 * @param c: the configuration.
 */
bool forward_same(const struct forward *f, const struct cfg *c);

/**
 * Destroy the c-ares channels (pending queries that were not cancelled
 * get their callback with FORWARD_EFAIL) and close every handle; the
 * handle may be freed right after. Idempotent; NULL is allowed.
 */
void forward_stop(struct forward *f);

/** Free the handle (after forward_stop). NULL is allowed. */
void forward_free(struct forward *f);

/**
 * The forward zone holding a name.
 * @param f: the handle (NULL: none).
 * @param lname, len: lowercase wire name.
 * @return the zone index, or -1.
 */
int forward_find(const struct forward *f, const uint8_t *lname, size_t len);

/**
 * Send a question (RD=1, EDNS) to the servers of a zone.
 * @param f: the handle.
 * @param zone: from forward_find.
 * @param lname, len, qtype, qclass: the question.
 * @param cb, arg: called with the outcome, later, from the loop.
 * @param out: receives the query, for forward_cancel.
 * @return FORWARD_OK, or (and then no callback) FORWARD_EFAIL (c-ares
 *   failed at once), FORWARD_EINVAL or FORWARD_ENOMEM.
 */
int forward_send(struct forward *f, int zone, const uint8_t *lname, size_t len,
                 uint16_t qtype, uint16_t qclass, forward_cb cb, void *arg,
                 struct forward_query **out) MUST_CHECK;

/** The callback of a query will not be called. NULL is allowed. */
void forward_cancel(struct forward_query *q);

/**
 * Check a forwarder's response, cache what it says (rank NONAUTH) and
 * write the answer for the clients.
 * @param c: the cache.
 * @param msg, len: the response.
 * @param lname, lnamelen, qtype, qclass: the question asked.
 * @param now: wall-clock seconds.
 * @param a: receives the answer (NOERROR or NXDOMAIN), pointing into buf.
 * @param buf, cap: space for the record images.
 * @param priv: private-address and private-domain (NULL: none): the
 *   answer A/AAAA records it strips are neither cached nor answered; an
 *   answer left empty is NOERROR without records (not a referral).
 * @param stripped: NULL, or a counter that the stripped records add to.
 * @return FORWARD_OK, FORWARD_EMSG, FORWARD_ERCODE, FORWARD_ESPACE,
 *   FORWARD_EINVAL or FORWARD_ENOMEM.
 */
int forward_answer(struct cache *c, const uint8_t *msg, size_t len,
                   const uint8_t *lname, size_t lnamelen, uint16_t qtype,
                   uint16_t qclass, time_t now, struct answer *a, uint8_t *buf,
                   size_t cap, const struct privaddr *priv, uint64_t *stripped)
	MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_FORWARD_H */
