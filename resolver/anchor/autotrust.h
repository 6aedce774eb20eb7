/*
 * resolver/anchor/autotrust.h - RFC 5011 automated updates of trust
 * anchors (auto-trust-anchor-file:), as Unbound does them: the state of
 * each key of an anchored zone, moved by the zone's DNSKEY RRset seen at
 * each probe (autotrust.c), and the text of the file that keeps that
 * state across restarts (autotrust_file.c).
 *
 * States (RFC 5011 section 4; the numbers are those of Unbound's file):
 *
 *   START    0  a DS record the zone was first anchored with (kept until
 *               a DNSKEY is VALID), or a key gone during its hold-down
 *   ADDPEND  1  a new SEP key seen in a trusted set: waits add-holddown
 *   VALID    2  a trust anchor
 *   MISSING  3  a trust anchor no longer in the set: still trusted, until
 *               keep-missing has passed (never the last one)
 *   REVOKED  4  seen with the REVOKE bit (0x0080) and signing the set
 *               itself: never trusted again
 *   REMOVED  5  revoked for del-holddown: forgotten once the zone no
 *               longer publishes it
 *
 * Design notes:
 * - Pure: no I/O, no clock; `now` is an argument, so tests drive time.
 * - The input of a probe is the zone's DNSKEY RRset and its RRSIGs, which
 *   the daemon's validator has found SECURE. autotrust_update checks once
 *   more that the set verifies with the zone's current trust anchors
 *   (RFC 5011 section 2.2: only a set signed by a trusted key changes
 *   anything), and a REVOKE bit counts only when that key signs the set
 *   itself (section 2.1; the tag of a revoked key is computed with the
 *   bit set).
 * - Only keys with the SEP flag are added (as Unbound: ZSKs come and go
 *   without a hold-down). A DNSKEY that matches a DS the zone was
 *   anchored with is VALID at once (the DS already trusts it).
 * - The file keeps one zone. A fresh file (plain zone-file records, as
 *   Debian's root.key) is read as that many VALID keys (DS records as
 *   START anchors).
 */
#ifndef CURVECACHE_RESOLVER_AUTOTRUST_H
#define CURVECACHE_RESOLVER_AUTOTRUST_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "anchor.h"
#include "validate/dnssec.h"

/** Keys tracked per zone (every state together). */
#define AUTOTRUST_KEYS_MAX ANCHOR_RR_MAX
/** Hold-downs (add and del) by default and at least without
 *  permit-small-holddown: 30 days (RFC 5011 section 2.4.1). */
#define AUTOTRUST_HOLDDOWN_DEFAULT 2592000u
/** keep-missing by default: 366 days (Unbound's). */
#define AUTOTRUST_KEEP_MISSING_DEFAULT 31622400u
/** Bounds of the probe interval (RFC 5011 section 2.3). */
#define AUTOTRUST_PROBE_MIN 3600u
#define AUTOTRUST_PROBE_MAX (15u * 86400u)
/** The largest retry interval after a failed probe. */
#define AUTOTRUST_RETRY_MAX 86400u
/** The smallest interval with permit-small-holddown (tests). */
#define AUTOTRUST_PROBE_SMALL 1u
/** State changes one probe reports at most (one per key, and the DS). */
#define AUTOTRUST_EVENTS_MAX (AUTOTRUST_KEYS_MAX + 1)
/** Bytes of an error message. */
#define AUTOTRUST_ERR_MAX ANCHOR_ERR_MAX
/** Bytes of the file written (a 4096-bit key takes about 800). */
#define AUTOTRUST_TEXT_MAX (64 * 1024)

/** Status codes: 0 is success. */
enum autotrust_status {
	AUTOTRUST_OK = 0,
	AUTOTRUST_EUNTRUSTED, /**< the set does not verify with a trusted
	                           key: nothing changed but the failure */
	AUTOTRUST_ESYNTAX,    /**< a line of the file does not parse */
	AUTOTRUST_EFULL,      /**< over AUTOTRUST_KEYS_MAX keys */
	AUTOTRUST_ESPACE,     /**< the text does not fit */
	AUTOTRUST_EINVAL
};

/** The state of a key (numbers of Unbound's file). */
enum autotrust_state {
	AUTOTRUST_START = 0,
	AUTOTRUST_ADDPEND = 1,
	AUTOTRUST_VALID = 2,
	AUTOTRUST_MISSING = 3,
	AUTOTRUST_REVOKED = 4,
	AUTOTRUST_REMOVED = 5
};

/** One key of a zone. */
struct autotrust_key {
	uint8_t rdata[ANCHOR_RDATA_MAX]; /**< as last seen (REVOKE bit set
	                                      once revoked) */
	uint16_t len;
	uint32_t ttl; /**< the DNSKEY TTL, for the file */
	enum autotrust_state state;
	uint32_t count;    /**< probes that saw it in ADDPEND */
	time_t lastchange; /**< when it entered its state */
};

/** One anchored zone and its probe times. */
struct autotrust_zone {
	uint8_t name[WIRE_NAME_MAX]; /**< lowercase wire name */
	size_t namelen;              /**< 0: no record read yet */
	struct autotrust_key key[AUTOTRUST_KEYS_MAX];
	size_t nkeys;
	struct anchor_rdata ds[ANCHOR_RR_MAX]; /**< START DS anchors */
	size_t nds;
	uint32_t ds_ttl;
	time_t last_queried;   /**< the last probe, good or not */
	time_t last_success;   /**< the last probe that was trusted */
	time_t next_probe;     /**< 0: at once */
	uint32_t query_failed; /**< failed probes in a row */
	uint32_t query_interval, retry_time; /**< as last computed */
};

/** The options (conf: add-holddown, del-holddown, keep-missing,
 *  permit-small-holddown). */
struct autotrust_params {
	uint32_t add_holddown;
	uint32_t del_holddown;
	uint32_t keep_missing; /**< 0: a missing key stays for ever */
	bool permit_small;
};

/** One state change, for the log. */
struct autotrust_event {
	uint16_t tag; /**< key tag as the key is now (revoked: with the bit);
	                   for a DS the DS's own tag */
	bool ds;      /**< a START DS anchor was dropped */
	enum autotrust_state from, to;
	const char *why; /**< "new-key", "add-holddown", "key-gone",
	                      "key-back", "revoked", "del-holddown",
	                      "keep-missing", "ds-match", "forget",
	                      "ds-done" */
};

/** The state changes of one probe. */
struct autotrust_events {
	struct autotrust_event ev[AUTOTRUST_EVENTS_MAX];
	size_t n;
	bool anchors_changed; /**< the set of trusted keys changed */
	bool revoked_all;     /**< no trusted key is left */
};

/** The name of a state: "START", "ADDPEND", ... ("?" if unknown). */
const char *autotrust_state_name(enum autotrust_state s);

/** Default options. */
void autotrust_params_default(struct autotrust_params *p);

/**
 * The hold-down used: the option, raised to AUTOTRUST_HOLDDOWN_DEFAULT
 * unless permit_small.
 */
uint32_t autotrust_holddown(const struct autotrust_params *p, uint32_t value);

/**
 * The probe interval of RFC 5011 section 2.3:
 * MAX(1 hour, MIN(15 days, ttl/2, expiry/2)), or for a retry after a
 * failure MAX(1 hour, MIN(1 day, ttl/10, expiry/10)). With permit_small
 * the lower bound is AUTOTRUST_PROBE_SMALL instead of 1 hour.
 * @param ttl: the original TTL of the DNSKEY RRset (0: unknown).
 * @param expiry: seconds until the first of its RRSIGs expires (0:
 *   unknown or past).
 */
uint32_t autotrust_interval(const struct autotrust_params *p, uint32_t ttl,
                            uint32_t expiry, bool retry);

/**
 * One successful probe: move every key by the RRset seen, then set
 * last_queried, last_success and next_probe (the interval from ttl and
 * the RRSIGs' expiration).
 * @param z: the zone (its name is the set's owner).
 * @param keys: the DNSKEY RRset (owner = the zone).
 * @param sigs, nsigs: the RRSIGs at the apex (others are skipped).
 * @param ttl: the set's TTL, used when no RRSIG gives the original TTL
 *   (the RRSIGs' original TTL field is preferred: a cache clamps TTLs).
 * @param now: wall-clock seconds.
 * @param ev: receives the state changes.
 * @return AUTOTRUST_OK; AUTOTRUST_EUNTRUSTED (no trusted key signs the
 *   set: treated as a failed probe, see autotrust_failed, which is done
 *   here too); AUTOTRUST_EINVAL (another owner).
 */
int autotrust_update(struct autotrust_zone *z,
                     const struct autotrust_params *p,
                     const struct dnssec_rrset *keys,
                     const struct dnssec_rdata *sigs, size_t nsigs,
                     uint32_t ttl, time_t now, struct autotrust_events *ev)
	MUST_CHECK;

/**
 * A failed probe (no answer, not secure): count it and set next_probe
 * to the retry interval (of the keys' TTL; one hour while no TTL is
 * known, as in a fresh file).
 */
void autotrust_failed(struct autotrust_zone *z,
                      const struct autotrust_params *p, time_t now);

/** Trusted keys of a zone now (VALID and MISSING). */
size_t autotrust_trusted(const struct autotrust_zone *z);

/**
 * Add a zone's trust anchors to a set: its VALID and MISSING keys as
 * DNSKEY anchors, and, while it has none, its START DS records.
 * @return ANCHOR_OK, ANCHOR_EEMPTY (nothing to trust: every key revoked
 *   or removed), or as anchors_add_rr.
 */
int autotrust_anchors_add(const struct autotrust_zone *z, struct anchors *a)
	MUST_CHECK;

/**
 * Read the text of an auto-trust-anchor-file (autotrust_file.c): the
 * header lines ";;last_queried: N", ";;last_success: N",
 * ";;next_probe_time: N", ";;query_failed: N", and one DS or DNSKEY record
 * per line (or over lines in parentheses) with its comment ";;state=N
 * [ NAME ] ;;count=N ;;lastchange=N"; a record without it is VALID (a DS:
 * START), as a fresh file is read. Other comments and records of other
 * types are skipped.
 * @param text, len: the file's text (need not be NUL-terminated).
 * @param file: its name, for messages.
 * @param z: filled (zeroed first).
 * @param err, errlen: on failure "FILE:LINE: what".
 * @return AUTOTRUST_OK, AUTOTRUST_ESYNTAX, AUTOTRUST_EFULL.
 */
int autotrust_file_parse(const char *text, size_t len, const char *file,
                         struct autotrust_zone *z, char *err, size_t errlen)
	MUST_CHECK;

/**
 * Write a zone as the text of its file (read back by
 * autotrust_file_parse): header lines, then one line per key and DS.
 * @param out, cap: destination (AUTOTRUST_TEXT_MAX suffices).
 * @param outlen: receives the length (NUL not counted).
 * @return AUTOTRUST_OK or AUTOTRUST_ESPACE.
 */
int autotrust_file_text(const struct autotrust_zone *z, char *out, size_t cap,
                        size_t *outlen) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_AUTOTRUST_H */
