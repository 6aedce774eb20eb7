/*
 * resolver/anchor/anchor.h - trust anchors and negative trust anchors.
 *
 * A trust anchor is a zone whose DS or DNSKEY records are believed
 * without a parent: the IANA root KSKs compiled in (KSK-2017, tag 20326,
 * and KSK-2024, tag 38696), Debian's /usr/share/dns/root.key, or
 * Unbound's options trust-anchor-file: (zone-file form DS and DNSKEY
 * records), trust-anchor: "RR". A negative trust anchor (domain-insecure:
 * NAME, RFC 7646) makes a name and everything below it insecure.
 *
 * Design notes:
 * - Built once (at start and on reload) and then read-only: threads
 *   share it without locks. anchors_find and anchors_insecure never
 *   allocate.
 * - Zone-file parsing is the subset anchors need: owner (absolute, or
 *   "@" / relative to $ORIGIN), optional TTL and class IN in either
 *   order, type DS or DNSKEY (other types are skipped, as Unbound does
 *   with the SOA/NS of a full zone file), RDATA over several lines in
 *   parentheses, ";" comments, $ORIGIN and $TTL. DS digests in hex,
 *   DNSKEY keys in base64 (spaces allowed inside both).
 * - Every error names the file and line (or the option text) and what
 *   is wrong; the daemon refuses to start on it.
 */
#ifndef CURVECACHE_RESOLVER_ANCHOR_H
#define CURVECACHE_RESOLVER_ANCHOR_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/wire.h"

/** Records of each type kept per anchored zone. */
#define ANCHOR_RR_MAX 16
/** Bytes of one anchor RDATA (an RSA-4096 DNSKEY is 516). */
#define ANCHOR_RDATA_MAX 1024
/** Anchored zones and negative anchors per set. */
#define ANCHOR_ZONES_MAX 256
/** Bytes of an error message. */
#define ANCHOR_ERR_MAX 512
/** Debian's root trust anchor (package dns-root-data). */
#define ANCHOR_DEBIAN_ROOT_KEY "/usr/share/dns/root.key"

/** One RDATA of an anchor. */
struct anchor_rdata {
	uint8_t data[ANCHOR_RDATA_MAX];
	uint16_t len;
};

/** The anchor of one zone: its DS records, its DNSKEY records, or both
 *  (a DNSKEY anchor is matched as the key itself, RFC 4035 s5). */
struct anchor {
	uint8_t name[WIRE_NAME_MAX]; /**< lowercase wire name */
	size_t namelen;
	struct anchor_rdata ds[ANCHOR_RR_MAX];
	size_t nds;
	struct anchor_rdata dnskey[ANCHOR_RR_MAX];
	size_t ndnskey;
};

/** Opaque set of anchors and negative anchors. */
struct anchors;

/** Status codes: 0 is success. */
enum anchor_status {
	ANCHOR_OK = 0,
	ANCHOR_ESYNTAX, /**< a line or option does not parse */
	ANCHOR_EFILE,   /**< the file cannot be read */
	ANCHOR_EFULL,   /**< over ANCHOR_ZONES_MAX or ANCHOR_RR_MAX */
	ANCHOR_EEMPTY,  /**< a file with no DS or DNSKEY record */
	ANCHOR_ENOMEM,
	ANCHOR_EINVAL
};

/** A new, empty set (no anchor at all: nothing validates). */
int anchors_new(struct anchors **out) MUST_CHECK;

/** Free a set (NULL allowed). */
void anchors_free(struct anchors *a);

/** Add the IANA root KSK-2017 and KSK-2024 as DS records (SHA-256). */
int anchors_add_builtin(struct anchors *a) MUST_CHECK;

/**
 * Add the DS and DNSKEY records of a zone file (Debian's root.key,
 * trust-anchor-file:).
 * @param err: on failure, "FILE:LINE: what is wrong" (ANCHOR_ERR_MAX).
 * @return ANCHOR_OK, ANCHOR_EFILE, ANCHOR_ESYNTAX, ANCHOR_EEMPTY,
 *   ANCHOR_EFULL, ANCHOR_ENOMEM.
 */
int anchors_add_file(struct anchors *a, const char *path, char *err,
                     size_t errlen) MUST_CHECK;

/**
 * Add one record in zone-file form (trust-anchor: "RR"); its owner must
 * be absolute.
 * @return as anchors_add_file (no ANCHOR_EFILE, ANCHOR_EEMPTY when it
 *   is neither DS nor DNSKEY).
 */
int anchors_add_text(struct anchors *a, const char *rr, char *err,
                     size_t errlen) MUST_CHECK;

/** Add a negative trust anchor (domain-insecure:): lowercase wire name. */
int anchors_add_insecure(struct anchors *a, const uint8_t *name, size_t len)
	MUST_CHECK;

/**
 * Remove a negative trust anchor (curvecache-control insecure_remove).
 * @return ANCHOR_OK (removed), ANCHOR_EEMPTY (not there) or
 *   ANCHOR_EINVAL.
 */
int anchors_remove_insecure(struct anchors *a, const uint8_t *name, size_t len)
	MUST_CHECK;

/**
 * The i-th negative trust anchor, for listing.
 * @return false when i is past the last.
 */
bool anchors_insecure_at(const struct anchors *a, size_t i,
                         const uint8_t **name, size_t *len);

/** Anchored zones in the set (0: validation has nothing to start from). */
size_t anchors_count(const struct anchors *a);

/**
 * The closest anchor at or above a name.
 * @param name, len: lowercase wire name.
 * @return the anchor, or NULL when no anchored zone encloses name.
 */
const struct anchor *anchors_find(const struct anchors *a, const uint8_t *name,
                                  size_t len);

/**
 * Whether a name is at or below a negative trust anchor (it and all
 * below it are insecure, whatever anchors lie below it).
 */
bool anchors_insecure(const struct anchors *a, const uint8_t *name,
                      size_t len);

#endif /* CURVECACHE_RESOLVER_ANCHOR_H */
