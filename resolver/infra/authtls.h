/*
 * resolver/infra/authtls.h - what curvecache knows about each authoritative
 * server address's DNS over TLS (RFC 9539, unilateral opportunistic
 * probing): unknown, probing, working, failed (with damping), or a
 * DNSCurve server that is never probed.
 *
 * The life of an address:
 *
 *   UNKNOWN --authtls_use--> PROBING (the caller asks in plain as before
 *                            and starts a probe beside it: a TLS
 *                            connection to port 853 carrying the query)
 *   PROBING --authtls_ok--> OK (every query goes over TLS)
 *   PROBING --authtls_fail, or AUTHTLS_PROBE_TIMEOUT_MS gone--> FAILED
 *   OK --authtls_fail (the connection failed)--> FAILED
 *   OK --AUTHTLS_PERSIST_MS without authtls_ok--> PROBING (probed again)
 *   FAILED --the damping interval gone, authtls_use--> PROBING
 *   any --authtls_curve--> CURVE (never probed, never asked over TLS)
 *
 * Only PROBING hands out a probe, once: while it runs, and while the
 * address is FAILED, authtls_use says plain, so a client never waits on
 * a probe and a server that does not speak TLS costs one failed
 * connection per damping interval.
 *
 * Design notes:
 * - Bounded: a fixed number of slots chosen at authtls_new; lookups probe
 *   at most AUTHTLS_PROBE_MAX slots and an insert into a full window
 *   replaces the least recently touched entry of that window.
 * - Time is an argument (monotonic milliseconds): nothing here reads a
 *   clock, so tests drive time by hand.
 * - Not thread-safe: one table per worker (the transport's, beside its
 *   TLS connections), as the selection table (sel.h) is.
 * - The port is not part of the key: a server address is probed on 853
 *   whatever port its plain queries go to.
 */
#ifndef CURVECACHE_RESOLVER_AUTHTLS_H
#define CURVECACHE_RESOLVER_AUTHTLS_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/** Default number of address slots. */
#define AUTHTLS_SLOTS_DEFAULT 4096
/** Fewest and most slots authtls_new accepts. */
#define AUTHTLS_SLOTS_MIN 16
#define AUTHTLS_SLOTS_MAX (1u << 20)
/** Slots probed for one address. */
#define AUTHTLS_PROBE_MAX 8
/** A probe not answered within this long has failed (RFC 9539 s4.1:
 *  "timeout", 4 s). */
#define AUTHTLS_PROBE_TIMEOUT_MS 4000u
/** After a failure, no new probe for this long (RFC 9539: "damping",
 *  one day): the default of authtls_new's damping (auth-tls-damping). */
#define AUTHTLS_DAMPING_MS 86400000u
/** A working server not used for this long is probed again (RFC 9539:
 *  "persistence", three days). */
#define AUTHTLS_PERSIST_MS (3u * 86400000u)
/** The port of DNS over TLS (RFC 7858). */
#define AUTHTLS_PORT 853

/** Status codes. */
enum authtls_status {
	AUTHTLS_OK = 0,
	AUTHTLS_EINVAL, /**< bad argument (slot count) */
	AUTHTLS_ENOMEM  /**< allocation failed */
};

/** The state of an address. */
enum authtls_state {
	AUTHTLS_UNKNOWN = 0, /**< no entry: never probed, or forgotten */
	AUTHTLS_PROBING,     /**< a probe is out */
	AUTHTLS_WORKS,       /**< TLS worked: ask over TLS */
	AUTHTLS_FAILED,      /**< a probe or connection failed: plain
	                          until the damping interval is over */
	AUTHTLS_CURVE        /**< a DNSCurve server: never over TLS */
};

/** What to do with a query to an address (authtls_use). */
enum authtls_use {
	AUTHTLS_USE_PLAIN = 0, /**< ask as before (plain or DNSCurve) */
	AUTHTLS_USE_PROBE,     /**< ask as before, and start one probe */
	AUTHTLS_USE_TLS        /**< ask over the TLS connection */
};

/** Counters of the table. */
struct authtls_stats {
	size_t entries;     /**< addresses held */
	size_t slots;       /**< capacity */
	uint64_t evictions; /**< entries replaced for space */
	uint64_t probes;    /**< probes handed out */
	uint64_t works;     /**< probes that succeeded */
	uint64_t failures;  /**< probes or connections that failed (the
	                         probe timeouts included) */
};

/** The table (opaque). */
struct authtls;

/** Describe a status code (a static string, never NULL). */
const char *authtls_strerror(int status);

/** Name of a state ("unknown", "probing", "tls", "failed", "curve"). */
const char *authtls_state_name(enum authtls_state st);

/**
 * Create a table.
 * @param slots: capacity (0 = AUTHTLS_SLOTS_DEFAULT); rounded up to a
 *   power of two; AUTHTLS_SLOTS_MIN .. AUTHTLS_SLOTS_MAX.
 * @param damping_ms: how long a failed address is asked in plain before
 *   it is probed again (0 = AUTHTLS_DAMPING_MS).
 * @return AUTHTLS_OK, AUTHTLS_EINVAL or AUTHTLS_ENOMEM (*out untouched
 *   on error).
 */
int authtls_new(size_t slots, uint64_t damping_ms, struct authtls **out)
	MUST_CHECK;

/** Free a table. NULL is allowed. */
void authtls_free(struct authtls *t);

/**
 * What to do with a query to sa now; moves UNKNOWN (and FAILED after
 * its damping, WORKS after its persistence) to PROBING, and a probe out
 * for longer than AUTHTLS_PROBE_TIMEOUT_MS to FAILED.
 * @param sa: AF_INET or AF_INET6 (anything else: AUTHTLS_USE_PLAIN).
 */
enum authtls_use authtls_use(struct authtls *t, const struct sockaddr *sa,
                             uint64_t now_ms);

/** An answer came over TLS from sa: PROBING becomes WORKS, and WORKS
 *  lasts AUTHTLS_PERSIST_MS more; other states are kept. */
void authtls_ok(struct authtls *t, const struct sockaddr *sa, uint64_t now_ms);

/** A probe or a TLS connection to sa failed (or timed out): FAILED for
 *  the table's damping interval (a CURVE address stays CURVE). */
void authtls_fail(struct authtls *t, const struct sockaddr *sa,
                  uint64_t now_ms);

/** sa was named with a DNSCurve key: CURVE for AUTHTLS_PERSIST_MS (made
 *  again at every query to it with the key). */
void authtls_curve(struct authtls *t, const struct sockaddr *sa,
                   uint64_t now_ms);

/** Change the damping interval (0 = AUTHTLS_DAMPING_MS; a reload of
 *  auth-tls-damping): failures from now on are damped for it, the
 *  addresses already FAILED keep the end they were given. */
void authtls_damping_set(struct authtls *t, uint64_t damping_ms);

/** Forget sa (UNKNOWN again: the next query probes): a probe that could
 *  not start for want of local resources says nothing of the server. */
void authtls_forget(struct authtls *t, const struct sockaddr *sa);

/**
 * The state of sa now, without changing it (an expired damping or
 * persistence reads as UNKNOWN, a probe past its timeout as FAILED).
 * @param until_ms: receives when the state ends (0: no entry), or NULL.
 */
enum authtls_state authtls_state_of(const struct authtls *t,
                                    const struct sockaddr *sa, uint64_t now_ms,
                                    uint64_t *until_ms);

/** The table's counters. */
void authtls_stats(const struct authtls *t, struct authtls_stats *out);

#endif /* CURVECACHE_RESOLVER_AUTHTLS_H */
