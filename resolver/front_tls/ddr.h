/*
 * resolver/front_tls/ddr.h - Discovery of Designated Resolvers (RFC 9462):
 * the question _dns.resolver.arpa. SVCB, and the SVCB RDATA (RFC 9460)
 * of one encrypted endpoint of this resolver: DNS over TLS (alpn "dot")
 * or DNS over HTTPS (alpn "h2", dohpath "/PATH{?dns}", RFC 9461), its
 * port and the addresses it listens on. Pure: nothing is allocated, no
 * I/O.
 */
#ifndef CURVECACHE_RESOLVER_DDR_H
#define CURVECACHE_RESOLVER_DDR_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Record type SVCB (RFC 9460). */
#define DDR_TYPE_SVCB 64
/** TTL of the answers. */
#define DDR_TTL 300u
/** Addresses of each family in one record's hints. */
#define DDR_HINTS_MAX 8
/** Bytes of an IPv4 and an IPv6 address. */
#define DDR_V4 4
#define DDR_V6 16

/** One endpoint. */
struct ddr_endpoint {
	uint16_t priority; /**< SvcPriority, 1 or more */
	bool doh;          /**< alpn h2 + dohpath; else alpn dot */
	uint16_t port;
	const char *path; /**< doh: the http-endpoint ("/dns-query") */
	uint8_t v4[DDR_HINTS_MAX][DDR_V4];
	size_t n4;
	uint8_t v6[DDR_HINTS_MAX][DDR_V6];
	size_t n6;
};

/** Is a lowercase wire name _dns.resolver.arpa.? */
bool ddr_qname(const uint8_t *lname, size_t len);

/** The owner _dns.resolver.arpa. in wire form, and its length. */
extern const uint8_t ddr_owner[];
extern const size_t ddr_owner_len;

/**
 * The SVCB RDATA of an endpoint: its priority, the target "." (the
 * owner's own name: the client's resolver), then alpn (1), port (3),
 * ipv4hint (4), ipv6hint (6) and, for DoH, dohpath (7): ascending keys.
 * @return the RDATA's length, 0 when it does not fit cap.
 */
size_t ddr_svcb(const struct ddr_endpoint *e, uint8_t *out, size_t cap);

#endif /* CURVECACHE_RESOLVER_DDR_H */
