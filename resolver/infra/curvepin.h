/*
 * resolver/infra/curvepin.h - DNSCurve key pinning (config "curve-pin: yes"):
 * the zones whose delegations were seen with DNSCurve keys (uz5 NS
 * names), each until the NS TTL of that delegation runs out. A later
 * referral for a pinned zone that names no key is a downgrade (keys
 * stripped on the way) and the iterator refuses it.
 *
 * Beside the pins, the confirmations (validation on): per zone, the DNSCurve
 * keys its own DNSSEC-signed apex NS RRset named, as a digest of the key
 * set, with the digest of the delegation's keys seen at that time, until
 * that RRset's TTL runs out (resolver/iter/iter_curvesec.c).
 *
 * Fixed memory: two open-addressed tables of CURVEPIN_SLOTS entries
 * (pins, confirmations), probed CURVEPIN_PROBE slots deep; when a probe
 * window is full, the entry that expires first gives way. No clock is read:
 * `now` is an argument. One table for all workers, behind one mutex: pins are
 * noted and looked up only on referrals (the cold path), never per cached
 * answer, and a pin seen by one worker must guard the others too.
 */
#ifndef CURVECACHE_RESOLVER_CURVEPIN_H
#define CURVECACHE_RESOLVER_CURVEPIN_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/** Entries in each table (about 340 bytes each). */
#define CURVEPIN_SLOTS 1024
/** Slots looked at for one name. */
#define CURVEPIN_PROBE 8
/** Longest wire name kept (RFC 1035). */
#define CURVEPIN_NAME_MAX 255

/** Bytes of a key-set digest (the iterator's: curvepin compares bytes). */
#define CURVEPIN_DIGEST_BYTES 32

/** Results of curvepin_new. */
enum curvepin_status {
	CURVEPIN_OK = 0,
	CURVEPIN_ENOMEM, /**< out of memory */
	CURVEPIN_EINVAL  /**< bad argument */
};

/** Opaque pin table. */
struct curvepin;

/**
 * Make an empty pin table.
 * @param out: receives the table (free with curvepin_free).
 * @return CURVEPIN_OK or CURVEPIN_ENOMEM.
 */
enum curvepin_status curvepin_new(struct curvepin **out) MUST_CHECK;

/** Free a table; NULL is allowed. */
void curvepin_free(struct curvepin *p);

/**
 * Pin a zone: its servers were seen with keys, valid until `until`.
 * A pin already there is extended, never shortened.
 * @param p: the table.
 * @param zone, len: lowercase wire name of the zone.
 * @param until: wall-clock second the pin ends (now + NS TTL).
 * @param now: current wall clock (expired entries are reused).
 * @return CURVEPIN_OK, or CURVEPIN_EINVAL (bad name).
 */
enum curvepin_status curvepin_note(struct curvepin *p, const uint8_t *zone,
                                   size_t len, time_t until, time_t now);

/**
 * Whether a zone is pinned at `now`.
 * @param p: the table (NULL: nothing is pinned).
 * @param zone, len: lowercase wire name.
 * @param now: current wall clock.
 * @return true while a pin for exactly this zone lasts.
 */
bool curvepin_held(struct curvepin *p, const uint8_t *zone, size_t len,
                   time_t now);

/** Live (unexpired) pins at `now` (for tests and the control socket). */
size_t curvepin_count(struct curvepin *p, time_t now);

/** The keys a zone's signed apex NS RRset confirmed. */
struct curvepin_conf {
	uint8_t keys[CURVEPIN_DIGEST_BYTES];   /**< digest of its key set */
	uint8_t parent[CURVEPIN_DIGEST_BYTES]; /**< digest of the
	                                            delegation's keys when
	                                            confirmed */
	unsigned nkeys;                        /**< keys in the apex set */
	time_t until;                          /**< wall clock: its TTL ends */
};

/**
 * Record (or replace) a zone's confirmation: the newest one stands.
 * @param p: the table.
 * @param zone, len: lowercase wire name of the zone.
 * @param c: the confirmation; c->until must lie after now.
 * @param now: current wall clock.
 * @return CURVEPIN_OK, or CURVEPIN_EINVAL (bad name, until <= now).
 */
enum curvepin_status curvepin_confirm(struct curvepin *p, const uint8_t *zone,
                                      size_t len,
                                      const struct curvepin_conf *c,
                                      time_t now);

/**
 * A zone's live confirmation.
 * @param p: the table (NULL: none).
 * @param zone, len: lowercase wire name.
 * @param now: current wall clock.
 * @param out: receives the confirmation (may be NULL).
 * @return true while one for exactly this zone lasts.
 */
bool curvepin_confirmed(struct curvepin *p, const uint8_t *zone, size_t len,
                        time_t now, struct curvepin_conf *out);

#endif /* CURVECACHE_RESOLVER_CURVEPIN_H */
