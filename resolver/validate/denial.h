/*
 * resolver/validate/denial.h - proofs of non-existence with NSEC (RFC
 * 4035 section 5.4, RFC 6840 section 4) and NSEC3 (RFC 5155 sections 8
 * and 7.2): NXDOMAIN, NODATA, wildcard answers and wildcard NODATA, and
 * the unsigned delegation (no DS; NSEC3 opt-out).
 *
 * Design notes:
 * - The records handed in are already validated (their RRSIGs checked
 *   by the caller under the zone's keys); this file only reasons about
 *   names, hashes and type bitmaps. Records whose owner is not inside
 *   the zone are ignored.
 * - Names compare in the canonical order of RFC 4034 section 6.1
 *   (dnssec_name_cmp); NSEC3 owners compare as hashes (base32hex of
 *   the first label decoded).
 * - Work is bounded: every NSEC3 hash computed is taken from the
 *   caller's budget (*hashes); at 0 the proof stops with
 *   DNSSEC_EBUDGET. NSEC3 records whose iterations exceed
 *   max_iterations are not hashed: a proof that would need them gives
 *   DNSSEC_EITERATIONS (RFC 9276: the answer is insecure). Records of
 *   an unknown hash algorithm are ignored (RFC 5155 section 8.1); a
 *   proof left with nothing else is DNSSEC_EUNSUPPORTED_HASH, which
 *   proves nothing (the caller makes a secure zone's answer bogus).
 */
#ifndef CURVECACHE_RESOLVER_DENIAL_H
#define CURVECACHE_RESOLVER_DENIAL_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** One NSEC or NSEC3 record a proof may use. */
struct dnssec_nsec {
	const uint8_t *owner; /**< uncompressed wire name, any case */
	size_t ownerlen;
	uint16_t type;        /**< WIRE_TYPE_NSEC (47) or NSEC3 (50) */
	const uint8_t *rdata; /**< uncompressed RDATA */
	size_t rdlen;
};

/** What a proof may use and spend. */
struct dnssec_denial {
	const struct dnssec_nsec *rr; /**< the records, any order */
	size_t count;
	const uint8_t *zone; /**< the zone that signed them (lowercase) */
	size_t zonelen;
	unsigned max_iterations; /**< NSEC3 iterations cap */
	unsigned *hashes;        /**< NSEC3 hashes left for this query */
};

/**
 * Compare two wire names in canonical DNS order (RFC 4034 section
 * 6.1): label by label from the root, each label as lowercase bytes.
 * @return <0, 0, >0; names that are not valid wire names compare as
 *   the bytes they are (never read past a or b's length).
 */
int dnssec_name_cmp(const uint8_t *a, size_t alen, const uint8_t *b,
                    size_t blen);

/**
 * NXDOMAIN: qname does not exist and no wildcard could have made it
 * (NSEC: a record covering qname and one covering the wildcard at the
 * closest encloser; NSEC3: the closest encloser proof and a record
 * covering the wildcard at it).
 * @return DNSSEC_OK (proven), DNSSEC_EOPTOUT (the next closer name is
 *   covered by an opt-out NSEC3: insecure), DNSSEC_ENOPROOF,
 *   DNSSEC_EITERATIONS, DNSSEC_EUNSUPPORTED_HASH, DNSSEC_EBUDGET,
 *   DNSSEC_EFORMAT (qname malformed) or DNSSEC_EINVAL.
 */
int dnssec_deny_name(const struct dnssec_denial *d, const uint8_t *qname,
                     size_t qlen) MUST_CHECK;

/**
 * NODATA: qname exists but has no qtype (nor CNAME) RRset: a record
 * matching qname whose bitmap lacks both (an empty non-terminal with
 * NSEC: a record covering qname whose next name is below qname); or a
 * wildcard NODATA (qname covered, the wildcard at the closest encloser
 * matched without qtype). For qtype DS at a delegation: the matching
 * record has NS and neither DS nor SOA (the delegation is unsigned);
 * with NSEC3 and no matching record, an opt-out span covering the next
 * closer name gives DNSSEC_EOPTOUT (RFC 5155 section 8.6).
 * @return as dnssec_deny_name.
 */
int dnssec_deny_type(const struct dnssec_denial *d, const uint8_t *qname,
                     size_t qlen, uint16_t qtype) MUST_CHECK;

/**
 * A positive answer synthesized from a wildcard (its RRSIG labels field
 * is below the owner's label count): the name itself must not exist.
 * The closest encloser is qname's last `labels` labels; the proof shows
 * the next closer name (one label more) does not exist (NSEC: covered;
 * NSEC3: a covering record, RFC 5155 section 8.8).
 * @param labels: the RRSIG labels field.
 * @return as dnssec_deny_name (DNSSEC_EOPTOUT when an opt-out NSEC3
 *   covers the next closer name).
 */
int dnssec_deny_expanded(const struct dnssec_denial *d, const uint8_t *qname,
                         size_t qlen, unsigned labels) MUST_CHECK;

/**
 * Whether a type's bit is set in an NSEC or NSEC3 type bitmap (RFC 4034
 * section 4.1.2; windows in order, each 1..32 bytes).
 * @param bitmap, len: the bitmap field.
 * @return 1 set, 0 clear, -1 malformed bitmap.
 */
int dnssec_bitmap_has(const uint8_t *bitmap, size_t len, uint16_t type);

#endif /* CURVECACHE_RESOLVER_DENIAL_H */
