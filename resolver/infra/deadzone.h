/*
 * resolver/infra/deadzone.h - the resolution failure cache (RFC 9520):
 * zones whose every server stayed silent, and questions that failed.
 *
 * Two kinds of entry share one table, each keyed by a 64-bit hash of a
 * canonical name and a type (deadzone_key):
 * - a zone cut (type 0) whose servers all timed out or were unreachable
 *   in one resolution, and none answered: it backs off for
 *   DEADZONE_BACKOFF_MIN_MS, doubled at each further failure up to
 *   DEADZONE_BACKOFF_MAX_MS (a failure by network errors alone, ICMP or
 *   sendto, keeps DEADZONE_NETERR_MS: see deadzone_fail). During the
 *   back-off, questions into the zone fail at once (DEADZONE_FAIL);
 *   after it, the first resolution that reaches the zone is let through
 *   (DEADZONE_PROBE; a worker hands it to a background probe, which
 *   deadzone_extend keeps holding) and the others still fail at once
 *   while it runs; a worker's timer may probe it first (deadzone_due)
 *   (RFC 9520 section 3.2: no query while the failure is cached; one
 *   probe, not a burst, when it expires). Any answer from one of the
 *   zone's servers ends it all (deadzone_alive);
 * - a question (qname, qtype) whose resolution failed: answered SERVFAIL
 *   without asking anyone for DEADZONE_QUESTION_MS (the RFC's 1 s).
 *
 * Design notes:
 * - Shared by the workers, one mutex; bounded: DEADZONE_SLOTS entries,
 *   a key probes DEADZONE_WINDOW slots, and a new entry in a full window
 *   takes the slot whose back-off ended first (named caps, no allocation
 *   after deadzone_new).
 * - Time is an argument (monotonic milliseconds); nothing here reads a
 *   clock or does I/O.
 * - deadzone_alive is called for every upstream reply: it takes the
 *   lock only when the table holds something.
 */
#ifndef CURVECACHE_RESOLVER_DEADZONE_H
#define CURVECACHE_RESOLVER_DEADZONE_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Entries of the table (zones and questions together). */
#define DEADZONE_SLOTS 2048
/** Slots probed for one key. */
#define DEADZONE_WINDOW 8
/** Bytes of a name kept per entry (a wire name's maximum). */
#define DEADZONE_NAME_MAX 255
/** The first back-off of a silent zone; doubles per further failure. */
#define DEADZONE_BACKOFF_MIN_MS 1000u
#define DEADZONE_BACKOFF_MAX_MS 300000u
/** The back-off of a zone whose servers failed by network errors only
 *  (ICMP unreachable, sendto errors): such a probe costs neither the
 *  client a wait nor the server a query, and the cause is often ours
 *  (an address or route gone), so it is not doubled. */
#define DEADZONE_NETERR_MS 1000u
/** How long a failed question is answered SERVFAIL at once. */
#define DEADZONE_QUESTION_MS 1000u
/** Extended DNS Errors (RFC 8914) a failure carries. */
#define DEADZONE_EDE_NO_REACH 22 /**< No Reachable Authority */
#define DEADZONE_EDE_NETWORK 23  /**< Network Error */

/** Status codes. */
enum deadzone_status {
	DEADZONE_OK = 0,
	DEADZONE_ENOMEM /**< allocation failed */
};

/** What deadzone_check says of a key. */
enum deadzone_verdict {
	DEADZONE_ASK = 0, /**< nothing known: go ahead */
	DEADZONE_PROBE,   /**< the back-off is over: this caller goes
	                       ahead as the probe (until hold_ms) */
	DEADZONE_FAIL     /**< in back-off, or a probe is out: fail now */
};

/** One entry as deadzone_walk shows it. */
struct deadzone_info {
	const uint8_t *name; /**< canonical wire name */
	size_t namelen;
	uint16_t type;    /**< 0: a zone; else a question's type */
	unsigned fails;   /**< failures in a row */
	uint64_t left_ms; /**< back-off left (0: over) */
	bool probing;     /**< a probe (or the first failure) is out */
	uint16_t ede;     /**< the EDE its failures carry */
};

/** The callback of deadzone_walk; non-zero stops the walk. */
typedef int (*deadzone_walk_fn)(const struct deadzone_info *info, void *arg);

/** Counters. */
struct deadzone_stats {
	size_t entries;
	uint64_t evictions; /**< entries replaced for space */
};

/** The table (opaque). */
struct deadzone;

/** Create a table. @return DEADZONE_OK or DEADZONE_ENOMEM. */
int deadzone_new(struct deadzone **out) MUST_CHECK;

/** Free a table (NULL is allowed). */
void deadzone_free(struct deadzone *dz);

/** The key of (name, type): type 0 for a zone cut. */
uint64_t deadzone_key(const uint8_t *name, size_t len, uint16_t type);

/**
 * What to do with a key now.
 * @param hold_ms: a DEADZONE_PROBE caller holds the key this long (its
 *   resolution's time limit): others get DEADZONE_FAIL meanwhile.
 * @param ede: NULL, or set to the EDE of the failure (DEADZONE_FAIL,
 *   DEADZONE_PROBE).
 */
enum deadzone_verdict deadzone_check(struct deadzone *dz, uint64_t key,
                                     uint64_t now_ms, uint32_t hold_ms,
                                     uint16_t *ede);

/**
 * A worker's timer for a zone (RFC 9520: probed when its back-off ends,
 * not when a client asks next). DEADZONE_PROBE: the back-off is over and
 * no probe is out: the caller probes now and holds the key hold_ms (as a
 * DEADZONE_PROBE of deadzone_check). DEADZONE_FAIL: *left_ms of back-off
 * left (0: another probe is out). DEADZONE_ASK: no timer is wanted (the
 * entry is gone or holds no back-off, or idle_max timer probes went out
 * in a row with no client question between: deadzone_check resets
 * that count).
 */
enum deadzone_verdict deadzone_due(struct deadzone *dz, uint64_t key,
                                   uint64_t now_ms, uint32_t hold_ms,
                                   unsigned idle_max, uint64_t *left_ms);

/**
 * A resolution found every server of a zone silent and waits on for late
 * answers: others fail at once meanwhile (up to hold_ms), without a
 * back-off yet. Creates the entry (with the name) when there is none.
 */
void deadzone_hold(struct deadzone *dz, uint64_t key, const uint8_t *name,
                   size_t len, uint16_t type, uint64_t now_ms,
                   uint32_t hold_ms);

/**
 * A background probe (RFC 9520: no client waits on it) reaches a zone
 * whose back-off ended: its hold (set by the DEADZONE_PROBE verdict that
 * started it) lasts at least hold_ms more, so that no other probe goes
 * out meanwhile. Nothing is made: false when the key has no entry (an
 * answer ended it meanwhile).
 */
bool deadzone_extend(struct deadzone *dz, uint64_t key, uint64_t now_ms,
                     uint32_t hold_ms);

/**
 * A failure: the back-off starts (zones: DEADZONE_BACKOFF_MIN_MS doubled
 * per failure in a row, or DEADZONE_NETERR_MS with ede
 * DEADZONE_EDE_NETWORK; questions: DEADZONE_QUESTION_MS) and any hold
 * ends. Creates the entry when there is none.
 * @return the back-off in milliseconds.
 */
uint32_t deadzone_fail(struct deadzone *dz, uint64_t key, const uint8_t *name,
                       size_t len, uint16_t type, uint16_t ede,
                       uint64_t now_ms);

/**
 * The same for a key that has an entry (a hold, a probe) only: false,
 * and nothing done, when there is none (an answer ended it meanwhile).
 */
bool deadzone_refail(struct deadzone *dz, uint64_t key, uint16_t ede,
                     uint64_t now_ms);

/** An answer came: forget the key (back-off, hold, failures). */
void deadzone_alive(struct deadzone *dz, uint64_t key);

/** A hold ends without a verdict: drop it (failures are kept). */
void deadzone_release(struct deadzone *dz, uint64_t key);

/** Forget everything (curvecache-control flush_infra all). */
size_t deadzone_flush(struct deadzone *dz);

/** Whether the table holds anything (no lock; a hint). */
bool deadzone_busy(const struct deadzone *dz);

/**
 * Call fn for each entry under the lock (fn must not call back in).
 * @return the non-zero value fn stopped with, else 0.
 */
int deadzone_walk(struct deadzone *dz, uint64_t now_ms, deadzone_walk_fn fn,
                  void *arg);

/** The state of one key (curvecache-control lookup). @return found. */
bool deadzone_get(struct deadzone *dz, uint64_t key, uint64_t now_ms,
                  unsigned *fails, uint64_t *left_ms, bool *probing);

/** Read the counters. */
void deadzone_stats_get(struct deadzone *dz, struct deadzone_stats *st);

#endif /* CURVECACHE_RESOLVER_DEADZONE_H */
