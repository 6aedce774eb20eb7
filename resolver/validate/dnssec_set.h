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
 *   the answer is DNSSEC_EBUDGET without any more crypto; a failed one
 *   also takes one from the failure budget, and at 0 the answer is
 *   DNSSEC_EFAILCAP (the signatures are at fault, not the question).
 * - Keys that share the signing key's tag (RFC 4034 Appendix B: tags
 *   collide) are tried in turn, each failure paid from the failure
 *   budget; the key that verified is remembered in the budget
 *   (w->good) and tried first for the question's later RRsets, so a
 *   zone with a few colliding keys pays for them once a question.
 * - The failure reported when nothing verifies is the weightiest the
 *   tried signatures give: expired or not yet valid (the first of these
 *   found) over any other; a signature by a key not given
 *   (DNSSEC_EKEYTAG) counts only when every one is so; other reasons
 *   that differ give DNSSEC_EBADSIG. The EDE code sent to the client
 *   then says what is wrong with the zone.
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
/** DNSKEYs tried per key tag of one RRSIG (colliding tags): as many as
 *  the failure budget pays for, so what bounds them is that budget. */
#define DNSSEC_KEYS_PER_TAG DNSSEC_VERIFY_FAIL_MAX
/** Signature verifications per client question (Knot: 32 per packet,
 *  PowerDNS: 30 per query). A legitimate chain spends one per RRset it
 *  proves (a cold CNAME chain across zones, a few dozen); */
#define DNSSEC_VERIFY_MAX 128
/** ... of which may fail: an honest chain fails almost none, KeyTrap's
 *  colliding keys and signatures fail all (CVE-2023-50387). Past it a
 *  signature is not tried: DNSSEC_EFAILCAP (the data's fault, cached as
 *  bogus); past DNSSEC_VERIFY_MAX: DNSSEC_EBUDGET (the question's). */
#define DNSSEC_VERIFY_FAIL_MAX 16

/** Public keys built once and reused while their DNSKEY RDATA is seen
 *  again (validated DNSKEY sets are cached for their TTL, so the same
 *  key verifies many RRsets): one per thread, no locking. */
struct dnssec_keycache;

/** What a question may spend on signatures, and where keys are kept. */
struct dnssec_work {
	unsigned verify_left;         /**< verifications left; each
	                                   takes one */
	unsigned fail_left;           /**< failed verifications left */
	struct dnssec_keycache *keys; /**< NULL: each key is built
	                                    for its verification */
	uint64_t good; /**< hash of the DNSKEY RDATA that verified last
	                    (0: none yet), tried first in its tag */
};

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
 * @param w: the question's budget (w->verify_left, decremented per
 *   verification) and key cache.
 * @param v: the verdict (v->status is the return value too).
 * @return DNSSEC_OK; DNSSEC_ENOSIG (no RRSIG covers the set);
 *   DNSSEC_ESIGNER (RRSIGs cover it, none by the zone); DNSSEC_EKEYTAG (no key
 * has the tag); DNSSEC_EEXPIRED, DNSSEC_ENOTYET, DNSSEC_EUNSUPPORTED_ALG or
 * another check's status when every tried signature failed for that reason;
 * DNSSEC_EBADSIG; DNSSEC_EFAILCAP (out of failed verifications);
 * DNSSEC_EBUDGET; DNSSEC_ECRYPTO (out of memory).
 */
int dnssec_set_verify(const struct dnssec_rrset *set,
                      const struct dnssec_rdata *sigs, size_t nsigs,
                      const uint8_t *zone, size_t zonelen,
                      const struct dnssec_rdata *keys, size_t nkeys,
                      time_t now, struct dnssec_work *w,
                      struct dnssec_verdict *v) MUST_CHECK;

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
 *   usable DS; DNSSEC_ENOSIG when only signatures of algorithms not
 *   implemented cover it while a usable DS (or anchor key) exists (a
 *   stripped RRSIG: bogus, never insecure); else as dnssec_set_verify.
 */
int dnssec_keys_verify(const struct dnssec_rrset *keyset,
                       const struct dnssec_rdata *sigs, size_t nsigs,
                       const struct dnssec_rdata *ds, size_t nds,
                       const struct dnssec_rdata *akeys, size_t nakeys,
                       time_t now, struct dnssec_work *w,
                       struct dnssec_verdict *v) MUST_CHECK;

/**
 * Whether any DS of a set could be used (supported digest type and
 * algorithm). A DS set with none makes the zone insecure (RFC 4035
 * section 5.2); malformed records count as unusable.
 * @return DNSSEC_OK, DNSSEC_EUNSUPPORTED_DIGEST or
 *   DNSSEC_EUNSUPPORTED_ALG (what made the last one unusable).
 */
int dnssec_ds_usable(const struct dnssec_rdata *ds, size_t nds);

/**
 * Whether DNSSEC_KEYS_PER_TAG or more of a zone's keys share one key tag
 * and algorithm: a signature of that tag may then exhaust the failure
 * budget before its key is tried (KeyTrap's shape, CVE-2023-50387), and
 * a validator may take the key set as bogus (iter_trust_keys_capped).
 * Keys that do not parse are skipped; at most DNSSEC_RRSET_MAX are read.
 */
bool dnssec_keys_collide(const struct dnssec_rdata *keys, size_t nkeys);

/**
 * A key cache of `slots` entries (direct-mapped by a hash of the DNSKEY
 * RDATA; a new key replaces the one in its slot).
 * @return DNSSEC_OK, DNSSEC_EINVAL (0 slots) or DNSSEC_ECRYPTO (out of
 *   memory).
 */
int dnssec_keycache_new(struct dnssec_keycache **out, size_t slots) MUST_CHECK;

/** Free a key cache and its keys (NULL allowed). */
void dnssec_keycache_free(struct dnssec_keycache *kc);

/**
 * The public key of a parsed DNSKEY: the one built before for the same
 * RDATA (compared byte for byte), else built now and kept.
 * @param out: the key; valid until the next call on this cache.
 * @return DNSSEC_OK or as dnssec_pubkey_new.
 */
int dnssec_keycache_get(struct dnssec_keycache *kc,
                        const struct dnssec_dnskey *k,
                        const struct dnssec_pubkey **out) MUST_CHECK;

/** Keys found in the cache, and keys built, since it was made. */
void dnssec_keycache_counts(const struct dnssec_keycache *kc, uint64_t *hits,
                            uint64_t *builds);

#endif /* CURVECACHE_RESOLVER_DNSSEC_SET_H */
