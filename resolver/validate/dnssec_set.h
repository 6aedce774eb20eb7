/*
 * resolver/validate/dnssec_set.h - verifying whole RRsets with a zone's
 * keys, and a zone's DNSKEY set with the DS records (or anchor keys)
 * that vouch for it (RFC 4035 sections 5.2 and 5.3), with the work
 * bounded (KeyTrap, CVE-2023-50387).
 *
 * Design notes:
 * - One RRset is secure when any one RRSIG over it, by the zone, checks
 *   out under any one of the zone's keys (RFC 4035 section 5.3.3; RFC
 *   6840 section 5.11: no algorithm has to be covered twice).
 * - Bounds: at most DNSSEC_SIGS_PER_SET RRSIGs are tried per RRset and
 *   DNSSEC_KEYS_PER_TAG keys per key tag; every signature verification
 *   takes one from the caller's budget (per client question), and at 0
 *   the answer is DNSSEC_EBUDGET without any more crypto.
 * - The failure reported when nothing verifies is the one all tried
 *   signatures share (expired, not yet valid, no key with the tag, ...)
 *   and DNSSEC_EBADSIG when they differ, so the EDE code sent to the
 *   client says what is wrong with the zone.
 */
#ifndef CURVECACHE_RESOLVER_DNSSEC_SET_H
#define CURVECACHE_RESOLVER_DNSSEC_SET_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "dnssec.h"

/** RRSIGs tried per RRset (Unbound's limit: 8). */
#define DNSSEC_SIGS_PER_SET 8
/** DNSKEYs tried per key tag of one RRSIG (colliding tags). */
#define DNSSEC_KEYS_PER_TAG 4
/** Signature verifications per client question (Knot: 32 per packet,
 *  PowerDNS: 30 per query). */
#define DNSSEC_VERIFY_MAX 32

/** What a verification concluded. */
struct dnssec_verdict {
	int status;     /**< DNSSEC_OK or the failure that says most */
	uint8_t labels; /**< OK: labels field of the RRSIG that verified
	                     (below the owner's: a wildcard expansion) */
	uint32_t ttl;   /**< OK: the TTL cap, min(original TTL, seconds
	                     to the expiration) (RFC 4035 s5.3.3) */
	uint16_t tag;   /**< OK: the key tag that verified */
};

/**
 * Verify an RRset with a zone's keys.
 * @param set: the RRset (its RDATAs as views, names may be compressed
 *   in their message).
 * @param sigs, nsigs: RRSIG RDATAs found at the owner (any type
 *   covered: those for other types or other signers are skipped; an
 *   RDATA must be uncompressed, as RRSIG RDATA always is).
 * @param zone, zonelen: the zone, lowercase (the signer required).
 * @param keys, nkeys: the zone's DNSKEY RDATAs.
 * @param now: wall-clock seconds.
 * @param budget: verifications left; decremented per verification.
 * @param v: the verdict (v->status is the return value too).
 * @return DNSSEC_OK; DNSSEC_ENOPROOF (no RRSIG by the zone covers the
 *   set); DNSSEC_EKEYTAG (no key has the tag); DNSSEC_EEXPIRED,
 *   DNSSEC_ENOTYET, DNSSEC_EUNSUPPORTED_ALG or another check's status
 *   when every tried signature failed for that reason; DNSSEC_EBADSIG;
 *   DNSSEC_EBUDGET; DNSSEC_ECRYPTO (out of memory).
 */
int dnssec_set_verify(const struct dnssec_rrset *set,
                      const struct dnssec_rdata *sigs, size_t nsigs,
                      const uint8_t *zone, size_t zonelen,
                      const struct dnssec_rdata *keys, size_t nkeys,
                      time_t now, unsigned *budget, struct dnssec_verdict *v)
	MUST_CHECK;

/**
 * Verify a zone's DNSKEY RRset from the DS set its parent gave (or a
 * trust anchor's DS and DNSKEY records): the keys a usable DS names
 * (supported digest and algorithm, RFC 4035 section 5.2), or that equal
 * an anchor DNSKEY, and that are zone keys without the REVOKE flag,
 * must sign the DNSKEY RRset.
 * @param keyset: the DNSKEY RRset (owner = the zone).
 * @param sigs, nsigs: the RRSIGs at the apex.
 * @param ds, nds: DS RDATAs (may be 0 with anchor keys).
 * @param akeys, nakeys: anchor DNSKEY RDATAs (may be 0).
 * @return DNSSEC_OK (secure); DNSSEC_EUNSUPPORTED_DIGEST or
 *   DNSSEC_EUNSUPPORTED_ALG when no DS (nor anchor key) is usable: the
 *   zone is insecure; DNSSEC_EMISMATCH when no key of the set matches a
 *   usable DS; else as dnssec_set_verify.
 */
int dnssec_keys_verify(const struct dnssec_rrset *keyset,
                       const struct dnssec_rdata *sigs, size_t nsigs,
                       const struct dnssec_rdata *ds, size_t nds,
                       const struct dnssec_rdata *akeys, size_t nakeys,
                       time_t now, unsigned *budget, struct dnssec_verdict *v)
	MUST_CHECK;

/**
 * Whether any DS of a set could be used (supported digest type and
 * algorithm). A DS set with none makes the zone insecure (RFC 4035
 * section 5.2); malformed records count as unusable.
 * @return DNSSEC_OK, DNSSEC_EUNSUPPORTED_DIGEST or
 *   DNSSEC_EUNSUPPORTED_ALG (what made the last one unusable).
 */
int dnssec_ds_usable(const struct dnssec_rdata *ds, size_t nds);

#endif /* CURVECACHE_RESOLVER_DNSSEC_SET_H */
