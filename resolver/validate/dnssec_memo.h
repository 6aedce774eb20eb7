/*
 * resolver/validate/dnssec_memo.h - the signatures this thread has
 * verified lately, so that one RRSIG over one RRset with one key costs
 * one public-key operation, however many resolutions receive it.
 *
 * Why: equal upstream queries in flight are sent once (upshare), and
 * the one reply goes to every waiting resolution; each one verified
 * the same referral proof again (a cold burst of 100 names of one
 * unsigned zone: 100 ECDSA verifications of the parent's NSEC3 proof,
 * Unbound 1). The memo holds the SHA-256 of (key, signature, signed
 * data) of each successful verification, in a small direct-mapped
 * table per thread; a hit is that same verification, so its result is
 * the same (a signature's validity period is checked by the caller,
 * each time, from the RRSIG's own fields). Only successes are kept: a
 * failure costs what it costs (the caller's budgets bound it).
 */
#ifndef CURVECACHE_VALIDATE_DNSSEC_MEMO_H
#define CURVECACHE_VALIDATE_DNSSEC_MEMO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Bytes of a digest (SHA-256) and of a key's identity. */
#define DNSSEC_MEMO_DIGEST 32
/** Entries of each thread's table (a power of two). */
#define DNSSEC_MEMO_SLOTS 256

/**
 * The digest of a verification: key identity (the SHA-256 of the key's
 * algorithm and public key), signature, signed data.
 * @return false if libcrypto failed (then nothing is memoised).
 */
bool dnssec_memo_digest(const uint8_t id[DNSSEC_MEMO_DIGEST],
                        const uint8_t *sig, size_t siglen, const uint8_t *data,
                        size_t len, uint8_t out[DNSSEC_MEMO_DIGEST]);

/** The identity of a key: SHA-256 of its algorithm and its bytes.
 * @return false if libcrypto failed. */
bool dnssec_memo_key_id(uint8_t alg, const uint8_t *key, size_t keylen,
                        uint8_t out[DNSSEC_MEMO_DIGEST]);

/** Whether this thread verified the digest's signature lately. */
bool dnssec_memo_seen(const uint8_t d[DNSSEC_MEMO_DIGEST]);

/** Remember a successful verification (may push out an older one). */
void dnssec_memo_add(const uint8_t d[DNSSEC_MEMO_DIGEST]);

#endif
