/*
 * resolver/conf/privaddr.h - DNS rebinding protection (config
 * "private-address: PREFIX" and "private-domain: NAME", Unbound's
 * options of the same names): which upstream address records must not
 * reach a client.
 *
 * An A or AAAA record learned from an upstream server (iterator or
 * forwarder) is stripped when its address lies inside a private-address
 * prefix and its owner name is not at or below a private-domain. Local
 * data and local zones are the administrator's own and never filtered.
 * An AAAA inside ::ffff:0:0/96 (an IPv4-mapped address, which a dual-
 * stack client connects to as IPv4) is matched against the IPv4
 * prefixes too, so that the IPv4 list cannot be bypassed with it.
 *
 * Design notes:
 * - Pure: no I/O, no clock, no allocation. struct privaddr is plain data
 *   in fixed arrays (it lives inside struct cfg, which is copied whole).
 * - Lookups are linear: PRIVADDR_PREFIXES_MAX and PRIVADDR_DOMAINS_MAX
 *   bound them, and they run only for A/AAAA records of upstream answers
 *   (the cold path), never for answers served from the cache.
 * - A prefix written with host bits set ("10.1.2.3/8") is accepted and
 *   masked, as Unbound does; a repeated prefix or domain is kept once.
 */
#ifndef CURVECACHE_RESOLVER_PRIVADDR_H
#define CURVECACHE_RESOLVER_PRIVADDR_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** private-address lines kept. */
#define PRIVADDR_PREFIXES_MAX 64
/** private-domain lines kept. */
#define PRIVADDR_DOMAINS_MAX 32
/** Longest wire name (RFC 1035). */
#define PRIVADDR_NAME_MAX 255
/** Bytes of an IPv4 and an IPv6 address. */
#define PRIVADDR_IPV4_BYTES 4
#define PRIVADDR_IPV6_BYTES 16
/** Longest prefix text: an IPv6 address with a scope-less "/128". */
#define PRIVADDR_TEXT_MAX 64

/** Status codes. */
enum privaddr_status {
	PRIVADDR_OK = 0,
	PRIVADDR_ESYNTAX, /**< not ADDR or ADDR/BITS */
	PRIVADDR_EBITS,   /**< BITS above 32 (IPv4) or 128 (IPv6) */
	PRIVADDR_ENAME,   /**< not a lowercase wire name */
	PRIVADDR_EFULL    /**< PRIVADDR_*_MAX entries already */
};

/** One address prefix. */
struct privaddr_prefix {
	uint8_t family;                    /**< 4 or 6 */
	uint8_t bits;                      /**< prefix length */
	uint8_t addr[PRIVADDR_IPV6_BYTES]; /**< host bits zero */
};

/** The private-address prefixes and private-domain names. Zeroed: none
 *  (nothing is ever stripped). */
struct privaddr {
	struct privaddr_prefix prefix[PRIVADDR_PREFIXES_MAX];
	size_t nprefix;
	uint8_t domain[PRIVADDR_DOMAINS_MAX][PRIVADDR_NAME_MAX];
	size_t domainlen[PRIVADDR_DOMAINS_MAX];
	size_t ndomain;
};

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *privaddr_strerror(int status);

/**
 * Parse "ADDR" or "ADDR/BITS" (IPv4 or IPv6; a bare address is a /32 or
 * /128). Host bits past BITS are cleared.
 * @param text, len: the text (need not be NUL-terminated).
 * @param out: receives the prefix; unspecified on failure.
 * @return PRIVADDR_OK, PRIVADDR_ESYNTAX or PRIVADDR_EBITS.
 */
enum privaddr_status privaddr_prefix_parse(const char *text, size_t len,
                                           struct privaddr_prefix *out)
	MUST_CHECK;

/**
 * Whether an address lies inside a prefix.
 * @param p: the prefix.
 * @param family: 4 or 6.
 * @param addr: PRIVADDR_IPV4_BYTES or PRIVADDR_IPV6_BYTES bytes.
 */
bool privaddr_prefix_match(const struct privaddr_prefix *p, uint8_t family,
                           const uint8_t *addr);

/**
 * Add a private-address prefix (a repeated one is kept once).
 * @param pa: the set.
 * @param text, len: as for privaddr_prefix_parse.
 * @return PRIVADDR_OK, PRIVADDR_ESYNTAX, PRIVADDR_EBITS or
 *   PRIVADDR_EFULL (pa unchanged on failure).
 */
enum privaddr_status privaddr_add_prefix(struct privaddr *pa, const char *text,
                                         size_t len) MUST_CHECK;

/**
 * Add a private-domain (a repeated one is kept once).
 * @param pa: the set.
 * @param name, len: lowercase uncompressed wire name.
 * @return PRIVADDR_OK, PRIVADDR_ENAME or PRIVADDR_EFULL (pa unchanged on
 *   failure).
 */
enum privaddr_status privaddr_add_domain(struct privaddr *pa,
                                         const uint8_t *name, size_t len)
	MUST_CHECK;

/**
 * Whether an address is inside one of the private-address prefixes
 * (an IPv4-mapped IPv6 address also against the IPv4 ones).
 * @param pa: the set.
 * @param addr, len: 4 bytes (IPv4) or 16 (IPv6); any other length is
 *   never private.
 */
bool privaddr_is_private(const struct privaddr *pa, const uint8_t *addr,
                         size_t len);

/**
 * Whether a name is at or below one of the private-domain names.
 * @param pa: the set.
 * @param name, len: lowercase uncompressed wire name; a malformed one
 *   is in no domain.
 */
bool privaddr_domain_has(const struct privaddr *pa, const uint8_t *name,
                         size_t len);

/**
 * Whether an upstream record must be stripped: type A or AAAA, its RDATA
 * a private address, its owner in no private-domain.
 * @param pa: the set (NULL: never).
 * @param owner, ownerlen: lowercase wire name of the record.
 * @param type: the record type (1 = A, 28 = AAAA; others: never).
 * @param rdata, rdlen: the RDATA.
 */
bool privaddr_strip(const struct privaddr *pa, const uint8_t *owner,
                    size_t ownerlen, uint16_t type, const uint8_t *rdata,
                    size_t rdlen);

#endif /* CURVECACHE_RESOLVER_PRIVADDR_H */
