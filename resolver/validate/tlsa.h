/*
 * resolver/validate/tlsa.h - TLSA records (RFC 6698) and the DANE match
 * of a server's certificate (RFC 7671) for DNS over TLS to authoritative
 * servers (issue 24): the RDATA read from (buf, len), which records a
 * client may use (usages 2 and 3, selectors 0 and 1, matching types 0, 1
 * and 2), and whether a DER certificate matches one.
 *
 * Design notes:
 * - Pure: no I/O; the certificate is handed in as DER bytes, the TLS
 *   handshake is the caller's (transport/tls.c).
 * - Only a DNSSEC-secure RRset may be given to tlsa_match; that is the
 *   caller's check (RFC 7671 s4: an insecure or bogus TLSA RRset is no
 *   DANE at all).
 * - Usage 3 (DANE-EE) matches the end-entity certificate alone: names
 *   and dates are not checked (RFC 7671 s5.1). Usage 2 (DANE-TA) matches
 *   a certificate of the chain the server sent; the chain and the name
 *   are checked by the caller (tlsa_usage_ta says which ones need it).
 * - A server's usable records travel as a struct tlsa_set (at most
 *   TLSA_SET_MAX, a fixed size: iterator to transport, no allocation);
 *   tlsa_set_check matches the chain a server sent against all of them
 *   (a rollover publishes two: one match is enough), and for usage 2
 *   verifies the chain from the leaf to the matching certificate and
 *   the leaf's name (RFC 7671 s5.2.2). A full-data record (matching
 *   type 0) is kept as the SHA-512 of its data and compared as such.
 */
#ifndef CURVECACHE_RESOLVER_TLSA_H
#define CURVECACHE_RESOLVER_TLSA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** The RR type of TLSA. */
#define TLSA_RR_TYPE 52
/** The fixed part of the RDATA: usage, selector, matching type. */
#define TLSA_FIXED_BYTES 3
/** Certificate usages (RFC 7218 names). */
#define TLSA_USAGE_DANE_TA 2
#define TLSA_USAGE_DANE_EE 3
/** Selectors. */
#define TLSA_SEL_CERT 0
#define TLSA_SEL_SPKI 1
/** Matching types and their digest lengths. */
#define TLSA_MATCH_FULL 0
#define TLSA_MATCH_SHA256 1
#define TLSA_MATCH_SHA512 2
#define TLSA_SHA256_BYTES 32
#define TLSA_SHA512_BYTES 64
/** The longest association data kept (a full certificate). */
#define TLSA_DATA_MAX 4096

/** Status codes. */
enum tlsa_status {
	TLSA_OK = 0,
	TLSA_EFORMAT,   /**< RDATA too short, too long, or a digest of the
	                     wrong length */
	TLSA_EUNUSABLE, /**< a usage, selector or matching type this client
	                     does not use (RFC 7671 s4.1: ignored) */
	TLSA_ECERT,     /**< the certificate could not be read */
	TLSA_EFULL      /**< the set holds TLSA_SET_MAX records already */
};

/** One TLSA record; data points into the RDATA given to tlsa_parse. */
struct tlsa_rr {
	uint8_t usage;
	uint8_t selector;
	uint8_t mtype;
	const uint8_t *data;
	size_t len;
};

/** Describe a status code (a static string, never NULL). */
const char *tlsa_strerror(int status);

/**
 * Read a TLSA RDATA of len bytes.
 * @return TLSA_OK; TLSA_EFORMAT (shorter than 4 bytes, longer than
 *   TLSA_FIXED_BYTES + TLSA_DATA_MAX, or a SHA-256/512 of another
 *   length); TLSA_EUNUSABLE (a well-formed record of a usage other
 *   than 2 and 3, a selector other than 0 and 1, a matching type other
 *   than 0, 1 and 2: *out is filled all the same).
 */
int tlsa_parse(const uint8_t *buf, size_t len, struct tlsa_rr *out);

/** Whether a usable record's chain must be checked (usage 2). */
bool tlsa_usage_ta(const struct tlsa_rr *rr);

/**
 * Whether the DER certificate (der, len) matches rr (its selector and
 * matching type applied to it).
 * @return 1 a match, 0 none, or -TLSA_ECERT / -TLSA_EUNUSABLE.
 */
int tlsa_match(const struct tlsa_rr *rr, const uint8_t *der, size_t len);

/** Usable records kept per server; certificates of a chain looked at. */
#define TLSA_SET_MAX 8
#define TLSA_CHAIN_MAX 8

/** One usable record of a set: usage, selector, matching type and the
 *  digest compared (matching type 0: the SHA-512 of the data). */
struct tlsa_set_rr {
	uint8_t usage;
	uint8_t selector;
	uint8_t mtype;
	uint8_t len; /**< bytes of digest: 32 or 64 */
	uint8_t digest[TLSA_SHA512_BYTES];
};

/** The usable records of one TLSA RRset (n == 0: none, no DANE). Zero
 *  it before the first tlsa_set_add: sets are compared with memcmp. */
struct tlsa_set {
	uint8_t n;
	struct tlsa_set_rr rr[TLSA_SET_MAX];
};

/**
 * Add a TLSA RDATA of len bytes to s when this client may use it; a
 * record already there is not added twice.
 * @return TLSA_OK (added or there), or the reason it was not:
 *   TLSA_EFORMAT, TLSA_EUNUSABLE (tlsa_parse), TLSA_EFULL.
 */
int tlsa_set_add(struct tlsa_set *s, const uint8_t *rdata, size_t len);

/**
 * Does the chain a server sent (der[0] its leaf, then the rest in the
 * order sent; n of them, DER of derlen[i] bytes each, at most
 * TLSA_CHAIN_MAX looked at) match a record of s? Usage 3: the leaf
 * matches (nothing else checked, RFC 7671 s5.1). Usage 2: a certificate
 * after the leaf matches, the chain from the leaf to it verifies (now;
 * the rest of the chain as intermediates) and the leaf names host (a
 * DNS name, a final dot allowed; RFC 7671 s5.2.2).
 * @return 1 authenticated, 0 not, -TLSA_ECERT when the leaf could not
 *   be read.
 */
int tlsa_set_check(const struct tlsa_set *s, const uint8_t *const *der,
                   const size_t *derlen, size_t n, const char *host);

#endif /* CURVECACHE_RESOLVER_TLSA_H */
