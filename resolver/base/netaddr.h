/*
 * resolver/base/netaddr.h - IPv4 and IPv6 socket addresses: the one place
 * that casts a struct sockaddr to its family's struct.
 *
 * Access control, rate limits, top clients, upstream identities and the
 * logs all need an address's bytes, its port or its text. They ask here,
 * so the casts (and the IPv4-mapped IPv6 rule) are written once.
 *
 * Design notes:
 * - The byte readers are inline: access control and the rate limiter
 *   call them for every client query.
 * - Only AF_INET and AF_INET6 have bytes; any other family gives NULL
 *   (length 0), port 0 and the text "?".
 */
#ifndef CURVECACHE_RESOLVER_NETADDR_H
#define CURVECACHE_RESOLVER_NETADDR_H

#include <netinet/in.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>

/** Room for any address text with its port: "[ffff:...]@65535". */
#define NETADDR_TEXT_MAX 64
/** Where the IPv4 address starts in an IPv4-mapped IPv6 address. */
#define NETADDR_MAPPED_OFFSET 12

/**
 * The address bytes of sa.
 * @param len: out: 4 (AF_INET), 16 (AF_INET6), else 0.
 * @return a pointer into sa, or NULL for another family.
 */
static inline const uint8_t *netaddr_bytes(const struct sockaddr *sa,
                                           size_t *len)
{
	const void *p = sa;
	const struct sockaddr_in *in = p;
	const struct sockaddr_in6 *in6 = p;

	if (sa->sa_family == AF_INET) {
		*len = 4;
		return (const uint8_t *)&in->sin_addr;
	}
	if (sa->sa_family == AF_INET6) {
		*len = 16;
		return in6->sin6_addr.s6_addr;
	}
	*len = 0;
	return NULL;
}

/**
 * As netaddr_bytes, but an IPv4-mapped IPv6 address (::ffff:a.b.c.d,
 * which a dual-stack socket reports for an IPv4 peer) gives its four
 * IPv4 bytes, so that one rule covers both spellings.
 */
static inline const uint8_t *netaddr_unmapped(const struct sockaddr *sa,
                                              size_t *len)
{
	static const uint8_t mapped[NETADDR_MAPPED_OFFSET] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff,
	};
	const uint8_t *b = netaddr_bytes(sa, len);

	if (*len == 16 && memcmp(b, mapped, sizeof mapped) == 0) {
		*len = 4;
		return b + NETADDR_MAPPED_OFFSET;
	}
	return b;
}

/**
 * Make a socket address from address bytes and a port (host order).
 * @param ip, len: 4 bytes (AF_INET) or 16 (AF_INET6).
 * @return the address's length, or 0 (ss zeroed) for another len.
 */
socklen_t netaddr_make(struct sockaddr_storage *ss, const void *ip, size_t len,
                       uint16_t port);

/** The port of sa in host order; 0 for another family. */
uint16_t netaddr_port(const struct sockaddr *sa);

/** Set the port (host order) of an AF_INET or AF_INET6 sa; others are
 *  left as they are. */
void netaddr_set_port(struct sockaddr *sa, uint16_t port);

/**
 * The address as text: "192.0.2.1", "2001:db8::1"; "?" for another
 * family. Never fails: out is always a string (cap > 0).
 */
void netaddr_text(const struct sockaddr *sa, char *out, size_t cap);

/** As netaddr_text with "@PORT" after it (for logs and messages):
 *  NETADDR_TEXT_MAX bytes always suffice. */
void netaddr_text_port(const struct sockaddr *sa, char *out, size_t cap);

#endif /* CURVECACHE_RESOLVER_NETADDR_H */
