/*
 * resolver/infra/nsecidx.h - the validated NSEC and NSEC3 records of
 * signed zones, kept for aggressive use of the DNSSEC-validated cache
 * (RFC 8198): a name inside a known span, or a type missing from a
 * known bitmap, is answered NXDOMAIN or NODATA without asking upstream;
 * a name covered by a known NSEC is answered from the cached wildcard
 * at its closest encloser (nsecidx_wild, RFC 8198 section 5.4).
 *
 * Design notes:
 * - Only SECURE data goes in: the NSEC/NSEC3 records and the SOA of negative
 *   answers the validator proved (iter_reply.c feeds them), and the NSEC
 *   records proving a validated wildcard expansion (iter_wild.c; no
 *   SOA comes with those). Each record
 *   keeps its RRSIGs (to hand to the client) and an absolute expiry:
 *   the least of its TTL, the signatures' original TTL and their
 *   expiration.
 * - Per zone the records are ordered canonically (dnssec_name_cmp), so
 *   the record covering or matching a name is found by binary search.
 *   The proof itself is validate/denial.c's (dnssec_deny_type, then
 *   dnssec_deny_name): this file only picks the candidates.
 * - NSEC3 zones too: their records sort by hash (the base32hex owner
 *   label keeps the order), and a lookup hashes qname, its ancestors
 *   and their wildcards with the zone's parameters (the last NSEC3 fed)
 *   to find them (NSECIDX_HASHES at most). An opt-out span proves
 *   nothing here (the answer would be insecure): upstream is asked.
 * - Bounded: at most max_bytes of records, zones and arrays together.
 *   A zone fed is the newest; when full, the zones fed longest ago are
 *   dropped first. Expired records are dropped when a lookup meets
 *   them, a zone whose SOA expired when a lookup or a feed meets it.
 * - One index for all workers, behind one mutex: it is used only after
 *   the cache missed and when a secure negative answer is cached (the
 *   cold path). No clock is read: `now` is an argument.
 */
#ifndef CURVECACHE_RESOLVER_NSECIDX_H
#define CURVECACHE_RESOLVER_NSECIDX_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/** Bytes an index holds by default (records, zones, arrays): about
 *  12000 NSEC records of ordinary size with one signature each. */
#define NSECIDX_BYTES_DEFAULT (4u * 1024u * 1024u)
/** Longest wire name (RFC 1035 section 2.3.4). */
#define NSECIDX_NAME_MAX 255
/** Records one lookup hands to the proof: the one at or before the
 *  name (NSEC3: its hash), one per wildcard of its ancestors inside the
 *  zone (NSEC3: and one per ancestor). */
#define NSECIDX_CANDIDATES 12

/** Results of nsecidx_new and nsecidx_put_proof. */
enum nsecidx_status {
	NSECIDX_OK = 0,
	NSECIDX_ENOMEM, /**< out of memory, or over the byte bound */
	NSECIDX_EINVAL  /**< bad argument, malformed or expired data */
};

/** What a lookup proved. */
enum nsecidx_verdict {
	NSECIDX_NONE = 0, /**< nothing proven: ask upstream */
	NSECIDX_NXDOMAIN, /**< the name does not exist */
	NSECIDX_NODATA    /**< the name exists without the type */
};

/** A validated negative answer proven with NSEC or NSEC3, as fed. */
struct nsecidx_proof {
	const uint8_t *zone; /**< the zone (SOA owner, signer), lowercase */
	size_t zonelen;
	const uint8_t *soa; /**< SOA RDATA, names uncompressed */
	size_t soalen;
	uint32_t soa_ttl;
	/** The proof image (wire/answer.h record images): RRSIGs over the
	 *  SOA, NSEC or NSEC3 records and the RRSIGs over each; other
	 *  records are skipped. */
	const uint8_t *img;
	size_t imglen;
	uint32_t ttl_max; /**< cap on every TTL (0: none) */
};

/** Where a proven answer goes: the authority image (SOA, its RRSIGs,
 *  the NSEC records used with their RRSIGs), TTLs as of `now`. */
struct nsecidx_answer {
	uint8_t *buf; /**< caller's buffer */
	size_t cap;
	size_t len;     /**< out: bytes written */
	uint16_t count; /**< out: records written */
	uint32_t ttl;   /**< out: the SOA's TTL: least of its TTL, its
	                     MINIMUM and the NSEC records' (RFC 8198 s. 5.4) */
};

/** Opaque index. */
struct nsecidx;

/**
 * Make an empty index.
 * @param max_bytes: the bound (0: NSECIDX_BYTES_DEFAULT).
 * @param out: receives the index (free with nsecidx_free).
 * @return NSECIDX_OK or NSECIDX_ENOMEM.
 */
enum nsecidx_status nsecidx_new(size_t max_bytes, struct nsecidx **out)
	MUST_CHECK;

/** Free an index; NULL is allowed. */
void nsecidx_free(struct nsecidx *x);

/**
 * Forget zones: every zone at or below name, and the zone that holds
 * name (its records may cover names under it); name NULL: all zones
 * (curvecache-control flush_zone, flush_all, flush_negative,
 * insecure_add).
 * @param name, len: a wire name (any case), or NULL.
 * @return the zones dropped.
 */
size_t nsecidx_flush(struct nsecidx *x, const uint8_t *name, size_t len);

/**
 * Add the SOA and the NSEC records of a validated proof. A record
 * already there (same owner) is replaced; records without a live
 * signature, owners outside the zone and malformed images are skipped.
 * @param x: the index (NULL: nothing is kept).
 * @param p: the proof; read during the call only.
 * @param now: wall clock.
 * @return NSECIDX_OK (something kept), NSECIDX_EINVAL (nothing usable:
 *   no signed SOA or no signed NSEC), NSECIDX_ENOMEM (over the bound
 *   even after eviction, or malloc failed; what fitted is kept).
 */
enum nsecidx_status nsecidx_put_proof(struct nsecidx *x,
                                      const struct nsecidx_proof *p,
                                      time_t now);

/**
 * Try to prove NODATA or NXDOMAIN for a question from the index: the
 * closest enclosing zone of qname (of its parent for qtype DS) with a
 * live SOA, its records at or before qname and the wildcards of
 * qname's ancestors, handed to dnssec_deny_type then dnssec_deny_name.
 * @param x: the index (NULL: NSECIDX_NONE).
 * @param qname, qlen: lowercase wire name.
 * @param qtype: the type asked (not ANY).
 * @param ttl_max: cap on the answer's TTLs (0: none).
 * @param now: wall clock.
 * @param out: receives the authority image when proven (records only
 *   used by the proof); untouched otherwise but for len and count.
 * @return NSECIDX_NXDOMAIN, NSECIDX_NODATA, or NSECIDX_NONE (no zone,
 *   no proof, image too large for out->cap).
 */
enum nsecidx_verdict nsecidx_deny(struct nsecidx *x, const uint8_t *qname,
                                  size_t qlen, uint16_t qtype,
                                  uint32_t ttl_max, time_t now,
                                  struct nsecidx_answer *out);

/**
 * Add the NSEC (or NSEC3) records of a validated wildcard expansion's
 * proof (RFC 4035 section 3.1.3.3: no SOA comes with it): a zone not
 * yet known is made without a SOA, which nsecidx_deny passes over (a
 * negative answer needs one) and nsecidx_wild does not need.
 * @param zone, zonelen: the zone that signed the records.
 * @param img, imglen: the records and their RRSIGs (record images).
 * @param ttl_max: cap on every TTL (0: none).
 * @return as nsecidx_put_proof (EINVAL: no signed record of the zone).
 */
enum nsecidx_status nsecidx_put_nsecs(struct nsecidx *x, const uint8_t *zone,
                                      size_t zonelen, const uint8_t *img,
                                      size_t imglen, uint32_t ttl_max,
                                      time_t now);

/** The wildcard that may answer a name that does not exist. */
struct nsecidx_wild {
	uint8_t zone[NSECIDX_NAME_MAX]; /**< the zone (signer), lowercase */
	size_t zonelen;
	uint8_t wc[NSECIDX_NAME_MAX]; /**< "*." + the closest encloser */
	size_t wclen;
	unsigned labels; /**< the encloser's labels: the RRSIG labels field
	                      of an RRset expanded from wc */
};

/**
 * RFC 8198 section 5.4, RFC 4035 section 5.3.4: find the NSEC record
 * of qname's closest zone that proves qname does not exist (it covers
 * qname; not a zone cut above it, not an empty non-terminal), and the
 * closest encloser it shows: the wildcard below that encloser is the
 * only name that can answer qname. The caller answers from the cached
 * RRset of that wildcard, if SECURE and signed by w->zone with labels
 * w->labels. NSEC zones only: a zone fed NSEC3 gives false (RFC 8198
 * allows NSEC3 too; like Unbound, curvecache does not synthesize from
 * NSEC3).
 * @param qname, qlen: lowercase wire name (not itself a wildcard).
 * @param ttl_max: cap on the TTL (0: none).
 * @param w: receives the zone and the wildcard.
 * @param out: receives the NSEC record and its RRSIGs (the proof that a
 *   DO=1 client needs), each with out->ttl: the record's TTL left,
 *   lowered to the zone SOA's MINIMUM when the SOA is known (RFC 8198
 *   section 5.4) and to ttl_max.
 * @return true when found (and out filled); false otherwise.
 */
bool nsecidx_wild(struct nsecidx *x, const uint8_t *qname, size_t qlen,
                  uint32_t ttl_max, time_t now, struct nsecidx_wild *w,
                  struct nsecidx_answer *out);

/** What an index holds (expired records included until met). */
struct nsecidx_size {
	size_t bytes;   /**< counted against the bound */
	size_t zones;   /**< zones (with a SOA or not) */
	size_t records; /**< NSEC records */
};

/** Read the sizes (for tests and stats). */
void nsecidx_size(struct nsecidx *x, struct nsecidx_size *out);

#endif /* CURVECACHE_RESOLVER_NSECIDX_H */
