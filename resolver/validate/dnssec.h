/*
 * resolver/validate/dnssec.h - the DNSSEC primitives: key tags, DS
 * digests, the canonical form of an RRset, RRSIG checks and signature
 * verification, NSEC3 hashes and base32hex.
 *
 * Everything the validator of issue 15 stands on, and nothing of its
 * state: no chains, no cache, no clock, no I/O. Each function takes
 * bytes and lengths (and `now` where time matters) and returns a status.
 *
 * Design notes:
 * - Every reader takes (buffer, length) and never reads past it; RDATA
 *   is handed in as it arrived (RRSIG, DNSKEY, DS RDATA never contain
 *   compression pointers; a signer name that does is DNSSEC_EFORMAT).
 *   Names inside the RDATA of an RRset being canonicalised may be
 *   compressed: they are expanded against the message that holds them
 *   (struct dnssec_rdata), through the codec (wire/wire.h).
 * - Canonical form: RFC 4034 section 6, with the type list of section
 *   6.2 item 3 as corrected by RFC 6840 section 5.1 (names in RRSIG RDATA
 *   lowercased, names in NSEC RDATA kept).
 * - Unsupported is not bogus: an algorithm, DS digest type or NSEC3 hash
 *   this file does not implement gets a status of its own
 *   (DNSSEC_EUNSUPPORTED_*), which the validator treats as insecure.
 * - Bounded work: RRsets of at most DNSSEC_RRSET_MAX records, RSA keys
 *   of at most DNSSEC_RSA_MAX_BITS with exponents of at most
 *   DNSSEC_RSA_EXP_MAX_BYTES, NSEC3 iterations capped by the caller.
 * - Crypto is OpenSSL libcrypto 3.0 (EVP); libsodium stays for DNSCurve.
 *   Only public data passes through here: nothing to wipe.
 */
#ifndef CURVECACHE_RESOLVER_DNSSEC_H
#define CURVECACHE_RESOLVER_DNSSEC_H

#include "base/base.h"
#include "wire/wire.h"

#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* Record types (RFC 4034, RFC 5155). */
#define DNSSEC_TYPE_RRSIG 46
#define DNSSEC_TYPE_NSEC 47
#define DNSSEC_TYPE_DNSKEY 48
#define DNSSEC_TYPE_NSEC3 50

/* Signature algorithms (RFC 8624 section 3.1: the ones implemented). */
#define DNSSEC_ALG_RSASHA1 5
#define DNSSEC_ALG_RSASHA1_NSEC3 7
#define DNSSEC_ALG_RSASHA256 8
#define DNSSEC_ALG_RSASHA512 10
#define DNSSEC_ALG_ECDSAP256 13
#define DNSSEC_ALG_ECDSAP384 14
#define DNSSEC_ALG_ED25519 15
#define DNSSEC_ALG_ED448 16

/* DS digest types (RFC 4034, 4509, 6605). */
#define DNSSEC_DIGEST_SHA1 1
#define DNSSEC_DIGEST_SHA256 2
#define DNSSEC_DIGEST_SHA384 4
/** The longest digest (SHA-384). */
#define DNSSEC_DIGEST_MAX 48

/* DNSKEY RDATA (RFC 4034 section 2). */
#define DNSSEC_DNSKEY_FLAG_ZONE 0x0100u   /**< bit 7: a zone key */
#define DNSSEC_DNSKEY_FLAG_REVOKE 0x0080u /**< bit 8 (RFC 5011) */
#define DNSSEC_DNSKEY_FLAG_SEP 0x0001u    /**< bit 15 */
#define DNSSEC_DNSKEY_PROTOCOL 3
/** Flags, protocol, algorithm. */
#define DNSSEC_DNSKEY_FIXED_BYTES 4
/** Key tag, algorithm, digest type. */
#define DNSSEC_DS_FIXED_BYTES 4
/** RRSIG RDATA before the signer name. */
#define DNSSEC_RRSIG_FIXED_BYTES 18

/* Key and signature sizes. */
#define DNSSEC_RSA_MIN_BITS 512  /**< RFC 3110 section 2 */
#define DNSSEC_RSA_MAX_BITS 4096 /**< RFC 3110 section 2 */
#define DNSSEC_RSA_EXP_MAX_BYTES 8
#define DNSSEC_ECDSAP256_BYTES 64 /**< key (X|Y) and signature (r|s) */
#define DNSSEC_ECDSAP384_BYTES 96
#define DNSSEC_ED25519_KEY_BYTES 32
#define DNSSEC_ED25519_SIG_BYTES 64
#define DNSSEC_ED448_KEY_BYTES 57
#define DNSSEC_ED448_SIG_BYTES 114

/** Records in one RRset given to dnssec_signed_data. */
#define DNSSEC_RRSET_MAX 1024
/** Names expanded in one RDATA at most (SOA, MINFO, RP, PX: two). */
#define DNSSEC_RDATA_NAMES_MAX 2
/** A scratch size for dnssec_signed_data that holds any RRset drawn
 *  from one message of at most WIRE_MSG_MAX bytes: the RRSIG prefix and
 *  signer; per record the owner expanded and the fixed fields; twice the
 *  RDATA (result and sort copy), each with its names expanded (about
 *  1.4 MB: one per worker, not per query). */
#define DNSSEC_SIGNED_MAX \
	(DNSSEC_RRSIG_FIXED_BYTES + WIRE_NAME_MAX + \
	 DNSSEC_RRSET_MAX * (WIRE_NAME_MAX + 10) + \
	 2 * (WIRE_MSG_MAX + \
	      DNSSEC_RRSET_MAX * DNSSEC_RDATA_NAMES_MAX * WIRE_NAME_MAX))

/* NSEC3 (RFC 5155). */
#define DNSSEC_NSEC3_HASH_SHA1 1
#define DNSSEC_NSEC3_HASH_BYTES 20
/** The default iteration cap (RFC 9276; Knot, PowerDNS). */
#define DNSSEC_NSEC3_ITERATIONS_MAX 50
/** Characters of base32hex for n bytes, no padding (RFC 4648 s. 7). */
#define DNSSEC_B32HEX_LEN(n) (((n)*8 + 4) / 5)
/** An NSEC3 owner label: the base32hex of one SHA-1 hash. */
#define DNSSEC_NSEC3_LABEL_LEN DNSSEC_B32HEX_LEN(DNSSEC_NSEC3_HASH_BYTES)

/** Status codes: 0 is success, every rejection has its own code. */
enum dnssec_status {
	DNSSEC_OK = 0,
	DNSSEC_EUNSUPPORTED_ALG, /**< algorithm not implemented (insecure) */
	DNSSEC_EUNSUPPORTED_DIGEST, /**< DS digest type not implemented */
	DNSSEC_EUNSUPPORTED_HASH,   /**< NSEC3 hash algorithm not SHA-1 */
	DNSSEC_EITERATIONS,         /**< NSEC3 iterations above the cap */
	DNSSEC_EFORMAT,             /**< RDATA or name malformed, truncated */
	DNSSEC_EKEY,         /**< public key unusable for its algorithm */
	DNSSEC_ESIGLEN,      /**< signature of the wrong length */
	DNSSEC_EBADSIG,      /**< the signature does not verify */
	DNSSEC_EMISMATCH,    /**< DS does not match the DNSKEY */
	DNSSEC_ESIGNER,      /**< signer is not the zone above owner */
	DNSSEC_ETYPE,        /**< type covered is not the RRset's */
	DNSSEC_ELABELS,      /**< labels field above owner's labels */
	DNSSEC_EEXPIRED,     /**< now is after the expiration */
	DNSSEC_ENOTYET,      /**< now is before the inception */
	DNSSEC_EKEYTAG,      /**< key tag differs from the DNSKEY's */
	DNSSEC_EALGMISMATCH, /**< algorithm differs from the DNSKEY's */
	DNSSEC_ENOTZONEKEY,  /**< DNSKEY without the Zone Key flag */
	DNSSEC_EPROTOCOL,    /**< DNSKEY protocol other than 3 */
	DNSSEC_ESPACE,       /**< output buffer too small */
	DNSSEC_ETOOMANY,     /**< RRset over DNSSEC_RRSET_MAX records */
	DNSSEC_ECRYPTO,      /**< libcrypto failed (out of memory) */
	DNSSEC_EINVAL,       /**< bad argument */
	DNSSEC_EOPTOUT,      /**< denial proven only by an NSEC3 opt-out span:
	                          the name may exist unsigned (insecure) */
	DNSSEC_ENOPROOF,     /**< the records given do not prove the denial */
	DNSSEC_EBUDGET,      /**< a per-query cap on work (hashes,
	                          verifications) was reached */
	DNSSEC_ENOSIG,       /**< no RRSIG covers the RRset */
	DNSSEC_EVALIDITY,    /**< expiration not after inception (RFC
	                          1982 serial arithmetic) */
	DNSSEC_EFAILCAP      /**< the question's failed verifications
	                          reached their limit (KeyTrap): the
	                          signatures are at fault */
};

/**
 * Describe a status code.
 * @param status: a value of enum dnssec_status.
 * @return a static string; never NULL.
 */
const char *dnssec_strerror(int status);

/** @return 1 if signature algorithm alg is implemented, else 0. */
int dnssec_alg_supported(uint8_t alg);

/** @return 1 if DS digest type t is implemented, else 0. */
int dnssec_digest_supported(uint8_t t);

/* ------------------------------------------------------------------ */
/* DNSKEY and DS                                                        */

/** A parsed DNSKEY RDATA; pointers into the caller's buffer. */
struct dnssec_dnskey {
	const uint8_t *rdata; /**< the whole RDATA */
	size_t rdlen;
	uint16_t flags;
	uint8_t protocol;
	uint8_t alg;
	const uint8_t *key; /**< the public key field */
	size_t keylen;
	uint16_t tag; /**< key tag (RFC 4034 Appendix B) */
};

/** A parsed DS RDATA; the digest points into the caller's buffer. */
struct dnssec_ds {
	uint16_t tag;
	uint8_t alg;
	uint8_t digest_type;
	const uint8_t *digest;
	size_t digestlen;
};

/**
 * The key tag of a DNSKEY RDATA (RFC 4034 Appendix B; algorithm 1, whose
 * tag is computed otherwise, is not supported and gets the same sum).
 * @param rdata, rdlen: the RDATA; every byte is summed, none past rdlen.
 * @return the tag (0 .. 65535).
 */
uint16_t dnssec_key_tag(const uint8_t *rdata, size_t rdlen);

/**
 * Parse a DNSKEY RDATA. Flags and protocol are not judged here
 * (dnssec_rrsig_check does): a key of any shape parses.
 * @param rdata, rdlen: the RDATA; must stay valid while k is used.
 * @param k: filled on success, untouched on failure.
 * @return DNSSEC_OK, DNSSEC_EFORMAT (fewer than 5 bytes: no key) or
 *   DNSSEC_EINVAL.
 */
int dnssec_dnskey_parse(const uint8_t *rdata, size_t rdlen,
                        struct dnssec_dnskey *k) MUST_CHECK;

/**
 * Parse a DS RDATA.
 * @return DNSSEC_OK, DNSSEC_EFORMAT (no digest) or DNSSEC_EINVAL.
 */
int dnssec_ds_parse(const uint8_t *rdata, size_t rdlen, struct dnssec_ds *ds)
	MUST_CHECK;

/**
 * The digest of a DS record for a DNSKEY (RFC 4034 section 5.1.4):
 * digest(canonical owner name | DNSKEY RDATA).
 * @param type: DNSSEC_DIGEST_SHA1, _SHA256 or _SHA384.
 * @param owner, ownerlen: the DNSKEY's owner, an uncompressed wire name
 *   (any case: it is lowercased here).
 * @param rdata, rdlen: the DNSKEY RDATA.
 * @param out: DNSSEC_DIGEST_MAX bytes; *outlen gets the digest length.
 * @return DNSSEC_OK, DNSSEC_EUNSUPPORTED_DIGEST, DNSSEC_EFORMAT (owner not
 *   a valid wire name), DNSSEC_ECRYPTO or DNSSEC_EINVAL.
 */
int dnssec_ds_digest(uint8_t type, const uint8_t *owner, size_t ownerlen,
                     const uint8_t *rdata, size_t rdlen,
                     uint8_t out[DNSSEC_DIGEST_MAX], size_t *outlen)
	MUST_CHECK;

/**
 * Does a DS RDATA name a DNSKEY (RFC 4035 section 5.2): same key tag,
 * same algorithm, and the digest of the key equals the DS digest.
 * @param ds_rdata, ds_len: the DS RDATA.
 * @param owner, ownerlen: the DNSKEY owner (the child zone apex).
 * @param key_rdata, key_len: the DNSKEY RDATA.
 * @return DNSSEC_OK (it matches), DNSSEC_EMISMATCH (tag, algorithm or
 *   digest differ, or the digest has the wrong length),
 *   DNSSEC_EUNSUPPORTED_DIGEST, DNSSEC_EFORMAT, DNSSEC_ECRYPTO.
 */
int dnssec_ds_match(const uint8_t *ds_rdata, size_t ds_len,
                    const uint8_t *owner, size_t ownerlen,
                    const uint8_t *key_rdata, size_t key_len) MUST_CHECK;

/* ------------------------------------------------------------------ */
/* RRSIG and the canonical RRset                                        */

/** A parsed RRSIG RDATA; the signer is copied out, lowercased. */
struct dnssec_rrsig {
	const uint8_t *rdata; /**< the whole RDATA (first 18 bytes signed) */
	size_t rdlen;
	uint16_t type_covered;
	uint8_t alg;
	uint8_t labels;
	uint32_t orig_ttl;
	uint32_t expiration;
	uint32_t inception;
	uint16_t tag;
	uint8_t signer[WIRE_NAME_MAX];
	size_t signerlen;
	const uint8_t *sig; /**< the signature field */
	size_t siglen;
};

/**
 * One RDATA of an RRset, as a view into the buffer that holds it: a
 * whole DNS message (names in the RDATA may point into it), or just the
 * RDATA itself (msg = the RDATA, off = 0).
 */
struct dnssec_rdata {
	const uint8_t *msg;
	size_t msglen;
	size_t off;   /**< the RDATA starts at msg + off */
	uint16_t len; /**< RDLENGTH */
};

/** An RRset: one owner, type and class, and its RDATAs. */
struct dnssec_rrset {
	const uint8_t *owner; /**< uncompressed wire name, any case */
	size_t ownerlen;
	uint16_t type;
	uint16_t rclass;
	const struct dnssec_rdata *rd;
	size_t count;
};

/**
 * Parse an RRSIG RDATA. The signer name must be uncompressed and end
 * before the signature; the signature may be empty (judged later).
 * @return DNSSEC_OK, DNSSEC_EFORMAT or DNSSEC_EINVAL.
 */
int dnssec_rrsig_parse(const uint8_t *rdata, size_t rdlen,
                       struct dnssec_rrsig *s) MUST_CHECK;

/**
 * The labels of a wire name as RFC 4034 section 3.1.3 counts them (the
 * root label not counted, a leading "*" counted here).
 * @return the count, or -1 if name is not a valid wire name.
 */
int dnssec_name_labels(const uint8_t *name, size_t len);

/**
 * The data an RRSIG signs (RFC 4034 section 3.1.8.1): the RRSIG RDATA
 * without the signature (signer lowercased), then the RRset in canonical
 * form (section 6.2, 6.3): owner lowercased (or "*." plus its last
 * sig->labels labels when it has more: a wildcard expansion), TTL set
 * to the original TTL, names in the RDATA of the types of section 6.2
 * item 3 (less NSEC, RFC 6840 section 5.1) expanded and lowercased, the
 * records sorted by canonical RDATA and duplicates removed.
 * @param sig: a parsed RRSIG.
 * @param set: the RRset (1 .. DNSSEC_RRSET_MAX records).
 * @param out, cap: the destination. It also serves as scratch for the
 *   sort: cap must hold the prefix, every record (duplicates included)
 *   and the canonical RDATAs once more (DNSSEC_SIGNED_MAX suffices for
 *   any RRset of one message).
 * @param outlen: set to the length of the signed data.
 * @return DNSSEC_OK, DNSSEC_EFORMAT (bad owner, an RDATA outside its
 *   buffer or not matching its type), DNSSEC_ELABELS (labels field above
 *   the owner's), DNSSEC_ETOOMANY, DNSSEC_ESPACE or DNSSEC_EINVAL (no
 *   records); *outlen is set only on success.
 */
int dnssec_signed_data(const struct dnssec_rrsig *sig,
                       const struct dnssec_rrset *set, uint8_t *out,
                       size_t cap, size_t *outlen) MUST_CHECK;

/**
 * The checks of RFC 4035 section 5.3.1 that need no chain: the signer is
 * the zone and the zone is the owner or above it, the type covered is
 * the RRset's, the labels field is at most the owner's labels, the
 * expiration comes after the inception and now lies within [inception,
 * expiration], all in serial-number arithmetic (RFC 4034 section 3.1.5,
 * RFC 1982: right across the 2106 wrap), and the DNSKEY
 * has the RRSIG's key tag and algorithm, protocol 3 and the Zone Key flag.
 * @param sig: a parsed RRSIG.
 * @param set: the RRset it covers (owner and type are read).
 * @param zone, zonelen: the owner of the DNSKEY RRset (the zone apex).
 * @param key: the parsed DNSKEY.
 * @param now: wall-clock seconds (only its low 32 bits matter).
 * @return DNSSEC_OK or the first failed check: DNSSEC_ESIGNER,
 *   DNSSEC_ETYPE, DNSSEC_ELABELS, DNSSEC_EVALIDITY, DNSSEC_ENOTYET,
 *   DNSSEC_EEXPIRED,
 *   DNSSEC_EPROTOCOL, DNSSEC_ENOTZONEKEY, DNSSEC_EALGMISMATCH,
 *   DNSSEC_EKEYTAG; DNSSEC_EFORMAT for a malformed owner or zone.
 */
int dnssec_rrsig_check(const struct dnssec_rrsig *sig,
                       const struct dnssec_rrset *set, const uint8_t *zone,
                       size_t zonelen, const struct dnssec_dnskey *key,
                       time_t now) MUST_CHECK;

/**
 * dnssec_rrsig_check in two halves, for one RRSIG tried with several
 * keys: the checks of the RRSIG against its RRset, zone and time (the
 * same for every key; DNSSEC_EINVAL for a NULL argument), then those of
 * one DNSKEY against it. dnssec_rrsig_check is the first, then the
 * second if the first passed.
 */
int dnssec_rrsig_check_set(const struct dnssec_rrsig *sig,
                           const struct dnssec_rrset *set, const uint8_t *zone,
                           size_t zonelen, time_t now) MUST_CHECK;
int dnssec_rrsig_check_key(const struct dnssec_rrsig *sig,
                           const struct dnssec_dnskey *key) MUST_CHECK;

/* ------------------------------------------------------------------ */
/* Signatures (OpenSSL libcrypto)                                       */

/** A public key made ready for verification; see dnssec_pubkey_new. */
struct dnssec_pubkey;

/**
 * Build the libcrypto key of a DNSKEY: RSA (RFC 3110 exponent length
 * forms), ECDSA (RFC 6605: X|Y), EdDSA (RFC 8080: the raw key).
 * @param k: a parsed DNSKEY.
 * @param out: receives a key the caller frees with dnssec_pubkey_free;
 *   untouched on failure.
 * @return DNSSEC_OK, DNSSEC_EUNSUPPORTED_ALG, DNSSEC_EKEY (wrong length,
 *   an RSA modulus outside 512 .. 4096 bits, an exponent over 8 bytes,
 *   a point not on the curve) or DNSSEC_ECRYPTO.
 */
int dnssec_pubkey_new(const struct dnssec_dnskey *k,
                      struct dnssec_pubkey **out) MUST_CHECK;

/** Free a key of dnssec_pubkey_new (NULL is ignored). */
void dnssec_pubkey_free(struct dnssec_pubkey *pk);

/**
 * Verify a signature over data with a key. ECDSA signatures arrive as
 * r|s (RFC 6605) and are converted to DER here.
 * @param pk: a key of dnssec_pubkey_new.
 * @param sig, siglen: the RRSIG signature field.
 * @param data, len: the signed data (dnssec_signed_data).
 * @return DNSSEC_OK, DNSSEC_EBADSIG, DNSSEC_ESIGLEN or DNSSEC_ECRYPTO.
 */
int dnssec_pubkey_verify(const struct dnssec_pubkey *pk, const uint8_t *sig,
                         size_t siglen, const uint8_t *data, size_t len)
	MUST_CHECK;

/**
 * Whether a signature of siglen bytes can verify under DNSKEY k, told
 * from the lengths alone, before the key is built (a KeyTrap set's keys
 * of another size cost no key and no digest).
 * @return DNSSEC_ESIGLEN (dnssec_pubkey_verify would say so) or
 *   DNSSEC_OK (it may verify; a malformed key is left to
 *   dnssec_pubkey_new).
 */
int dnssec_sig_fits(const struct dnssec_dnskey *k, size_t siglen);

/**
 * How many of this thread's dnssec_pubkey_verify calls were answered by
 * its memo of verifications that succeeded (dnssec_memo.h: the same key,
 * signature and data; for tests and profiles).
 */
unsigned long dnssec_verify_memo_hits(void);

/**
 * All of it for one RRSIG, one DNSKEY and one RRset: parse both RDATAs,
 * dnssec_rrsig_check, dnssec_signed_data, build the key and verify.
 * @param set: the RRset.
 * @param sig_rdata, sig_len: the RRSIG RDATA.
 * @param zone, zonelen: the DNSKEY owner.
 * @param key_rdata, key_len: the DNSKEY RDATA.
 * @param now: wall-clock seconds.
 * @param scratch, cap: for the signed data (see dnssec_signed_data).
 * @return DNSSEC_OK or the first failure of those steps; a key whose
 *   algorithm is unsupported gives DNSSEC_EUNSUPPORTED_ALG only after
 *   the checks that need no crypto have passed.
 */
int dnssec_rrset_verify(const struct dnssec_rrset *set,
                        const uint8_t *sig_rdata, size_t sig_len,
                        const uint8_t *zone, size_t zonelen,
                        const uint8_t *key_rdata, size_t key_len, time_t now,
                        uint8_t *scratch, size_t cap) MUST_CHECK;

/* ------------------------------------------------------------------ */
/* NSEC3 hashes and base32hex                                           */

/**
 * The NSEC3 hash of a name (RFC 5155 section 5): SHA-1 of the lowercased
 * wire name and the salt, then iterations more times of the previous
 * hash and the salt.
 * @param hash_alg: the NSEC3 hash algorithm field (1 = SHA-1).
 * @param iterations: the NSEC3 iterations field.
 * @param max_iterations: the caller's cap (DNSSEC_NSEC3_ITERATIONS_MAX).
 * @param salt, saltlen: the salt (at most 255 bytes).
 * @param name, namelen: an uncompressed wire name, any case.
 * @param out: receives DNSSEC_NSEC3_HASH_BYTES bytes.
 * @return DNSSEC_OK, DNSSEC_EUNSUPPORTED_HASH, DNSSEC_EITERATIONS (above
 *   the cap: nothing hashed), DNSSEC_EFORMAT (bad name, salt too long)
 *   or DNSSEC_ECRYPTO.
 */
int dnssec_nsec3_hash(uint8_t hash_alg, uint16_t iterations,
                      unsigned max_iterations, const uint8_t *salt,
                      size_t saltlen, const uint8_t *name, size_t namelen,
                      uint8_t out[DNSSEC_NSEC3_HASH_BYTES]) MUST_CHECK;

/**
 * How many of this thread's dnssec_nsec3_hash calls were answered from
 * its table of recent hashes (the same input hashed before; for tests
 * and profiles).
 */
unsigned long dnssec_nsec3_memo_hits(void);

/**
 * Encode bytes as base32hex (RFC 4648 section 7), lowercase, no padding.
 * @param out, cap: destination of DNSSEC_B32HEX_LEN(n) characters (no
 *   NUL is written).
 * @param outlen: set to the number of characters.
 * @return DNSSEC_OK or DNSSEC_ESPACE.
 */
int dnssec_b32hex_encode(char *out, size_t cap, size_t *outlen,
                         const uint8_t *in, size_t n) MUST_CHECK;

/**
 * Decode base32hex without padding, either case. Only canonical text is
 * accepted: a length whose tail holds no whole byte (n mod 8 of 1, 3 or
 * 6) or unused tail bits that are not zero are DNSSEC_EFORMAT, so each
 * byte string has exactly one text form (an NSEC3 owner label compares
 * equal to its hash).
 * @param out, cap: destination; *outlen gets the byte count.
 * @return DNSSEC_OK, DNSSEC_EFORMAT or DNSSEC_ESPACE.
 */
int dnssec_b32hex_decode(uint8_t *out, size_t cap, size_t *outlen,
                         const char *in, size_t n) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_DNSSEC_H */
