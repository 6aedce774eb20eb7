/*
 * resolver/transport/upstream.h - the transport to authoritative servers: one
 * upstream query per ITER_SEND target, on libuv.
 *
 * Plain DNS, hardened against forgery: every query gets a fresh UDP
 * socket (connected to the server, bound to port 0 so the kernel picks a
 * random source port), a random ID, and 0x20 case randomisation of the
 * name; an answer counts only if it comes to that socket with that ID and
 * the question exactly as sent, letter case included. Anything else is
 * ignored and the query keeps waiting. TC=1 retries over TCP; FORMERR to
 * a query with EDNS is reported as ITER_REPLY_FORMERR_EDNS; ICMP port
 * unreachable (ECONNREFUSED) as ITER_REPLY_UNREACHABLE.
 *
 * DNSCurve when target.curve: the query is boxed with curve/ for the
 * server's key, in the format that last worked for that server (else the
 * first of cfg->curve_order); after a timeout the other format is tried
 * too. EDNS goes inside the box, offering target.edns less the 48-byte
 * response overhead (1184 for the default 1232, never above 4048); the
 * outer TXT packet carries none. Only responses that open under our nonce
 * and match the inner question count; everything else is dropped and
 * counted (curve.responses.bad), never taken as plain. TC inside the box
 * retries over TCP, boxed, with a new nonce. Plain DNS to a DNSCurve
 * server only after both formats timed out and only if
 * cfg->curve_plain_fallback.
 *
 * Timing: ITER_REPLY_TIMEOUT is reported once, target.timeout_ms after
 * the send; the sockets stay open afterwards (the next format, a plain
 * fallback, or just listening) so that a late answer is still delivered,
 * until the owner cancels the query or UPSTREAM_LINGER_MS have passed.
 *
 * Ownership: upstream_send returns a query the caller must end with
 * upstream_cancel exactly once, in any state, even after its final
 * reply; no callback comes after upstream_cancel. A callback may call
 * upstream_cancel on its own query (and on others). After a reply other
 * than ITER_REPLY_TIMEOUT no further callback comes.
 */
#ifndef CURVECACHE_RESOLVER_UPSTREAM_H
#define CURVECACHE_RESOLVER_UPSTREAM_H

#include "base/base.h"

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "iter/iter.h"

struct cfg;
struct curve_client;
struct stats;

/** Receive buffer: any UDP datagram or TCP message. */
#define UPSTREAM_RECV_BYTES (WIRE_MSG_MAX + 1)
/** Largest query packet built (boxed TXT queries included). */
#define UPSTREAM_PKT_MAX 4096
/** Attempts (packets on their own socket) per query, all told. */
#define UPSTREAM_ATTEMPTS_MAX 6
/** How long a query keeps listening after its last timeout. */
#define UPSTREAM_LINGER_MS 10000u
/** Time allowed for a TCP retry: this many times target.timeout_ms... */
#define UPSTREAM_TCP_TIMEOUT_FACTOR 3u
/** ...but at least this long. */
#define UPSTREAM_TCP_TIMEOUT_MIN_MS 1000u
/** Slots of the table remembering which DNSCurve format a server took. */
#define UPSTREAM_FORMAT_SLOTS 1024
/** Default cap on sockets open at once, per worker. */
#define UPSTREAM_SOCKETS_DEFAULT 4096
/** Bytes a response box adds (streamlined: magic, nonces, MAC). */
#define UPSTREAM_CURVE_RESPONSE_OVERHEAD 48

/** Status codes. */
enum upstream_status {
	UPSTREAM_OK = 0,
	UPSTREAM_ELIMIT,  /**< socket cap reached */
	UPSTREAM_ESOCKET, /**< socket, bind, connect or send failed */
	UPSTREAM_EBUILD,  /**< the query could not be built or boxed */
	UPSTREAM_EINVAL,  /**< bad argument */
	UPSTREAM_ENOMEM   /**< allocation failed */
};

/** Called with the outcome of a query (see the notes above). */
typedef void (*upstream_cb)(void *arg, const struct iter_reply *reply);

/** Opaque transport of one worker. */
struct upstream;
/** Opaque query. */
struct upstream_query;

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *upstream_strerror(int status);

/**
 * Create the transport of a worker.
 * @param out: receives it; free with upstream_free.
 * @param loop: the worker's event loop.
 * @param cfg: the configuration; read at every send, so the caller may
 *   update it in place (SIGHUP). Must outlive the transport.
 * @param curve: the DNSCurve client (shared), or NULL for no DNSCurve.
 * @param st: the worker's counters.
 * @param max_sockets: cap on sockets open at once (0: default).
 * @return UPSTREAM_OK, UPSTREAM_EINVAL or UPSTREAM_ENOMEM.
 */
int upstream_new(struct upstream **out, uv_loop_t *loop, const struct cfg *cfg,
                 struct curve_client *curve, struct stats *st,
                 size_t max_sockets) MUST_CHECK;

/**
 * Free the transport. Every query must have been cancelled; the loop
 * must still run afterwards until its handles are closed (their memory
 * is freed by their close callbacks). NULL is allowed.
 */
void upstream_free(struct upstream *u);

/**
 * Send a query for an iterator target.
 * @param u: the transport.
 * @param t: the target (copied).
 * @param mono_ms: the monotonic clock now, for RTTs.
 * @param cb, arg: the callback (never called from within this call).
 * @param out: receives the query, to be cancelled by the caller.
 * @return UPSTREAM_OK; UPSTREAM_ELIMIT, UPSTREAM_ESOCKET, UPSTREAM_EBUILD
 *   or UPSTREAM_ENOMEM (nothing sent, *out untouched: the caller feeds
 *   ITER_REPLY_UNREACHABLE itself).
 */
int upstream_send(struct upstream *u, const struct iter_target *t,
                  uint64_t mono_ms, upstream_cb cb, void *arg,
                  struct upstream_query **out) MUST_CHECK;

/**
 * End a query: close its sockets and timer; no callback comes after.
 * @param q: the query, or NULL.
 */
void upstream_cancel(struct upstream_query *q);

/**
 * Forget the DNSCurve format (streamlined or TXT) learned for a server
 * address, whatever its key, or for every address (flush_infra). Same
 * thread as the upstream.
 * @param sa: AF_INET or AF_INET6 address, or NULL for all.
 * @return the remembered formats removed.
 */
size_t upstream_fmt_forget(struct upstream *u, const struct sockaddr *sa);

/** Queries not yet cancelled. */
size_t upstream_pending(const struct upstream *u);

struct authtls;

/** The transport's RFC 9539 state per server address (infra/authtls.h;
 *  same thread only), NULL without auth-tls (upstream_privacy.c). */
const struct authtls *upstream_authtls_table(const struct upstream *u);

/** Told the NS name (text, absolute) of a server of a DNSSEC-secure zone
 *  that takes TLS (RFC 9539) and whose TLSA is not cached
 *  (iter_target.dane_want), each time a query goes to it over TLS: the
 *  owner may look _853._tcp.NS TLSA up in the background, so that the
 *  next queries go by DANE. Called from within upstream_send. */
typedef void (*upstream_tlsa_fn)(void *arg, const char *ns);

/** Set (fn NULL: clear) that callback (upstream_authtls.c). */
void upstream_set_tlsa_want(struct upstream *u, upstream_tlsa_fn fn,
                            void *arg);

/**
 * The EDNS payload to offer inside a DNSCurve box for an outer offer:
 * edns - 48, at most CURVE_MAX_INNER_EDNS, at least 512; 0 stays 0.
 */
uint16_t upstream_curve_edns(uint16_t edns);

#endif /* CURVECACHE_RESOLVER_UPSTREAM_H */
