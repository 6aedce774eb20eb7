/*
 * resolver/conf/privaddr.c - DNS rebinding protection: private-address
 * prefixes and private-domain names (privaddr.h).
 */
#include "privaddr.h"

#include <arpa/inet.h>
#include <string.h>

/** DNS types looked at. */
#define PRIVADDR_TYPE_A 1
#define PRIVADDR_TYPE_AAAA 28
/** Bits in a byte, and per family. */
#define PRIVADDR_BYTE_BITS 8u
#define PRIVADDR_IPV4_BITS 32u
#define PRIVADDR_IPV6_BITS 128u
/** Digits of a prefix length ("128"). */
#define PRIVADDR_BITS_DIGITS 3
/** Bytes of the ::ffff:0:0/96 prefix of IPv4-mapped IPv6 addresses. */
#define PRIVADDR_MAPPED_BYTES 12

const char *privaddr_strerror(int status)
{
	switch (status) {
	case PRIVADDR_OK: return "ok";
	case PRIVADDR_ESYNTAX: return "not an address or ADDR/BITS";
	case PRIVADDR_EBITS:
		return "prefix length above 32 (IPv4) or 128 "
		       "(IPv6)";
	case PRIVADDR_ENAME: return "bad domain name";
	case PRIVADDR_EFULL: return "too many entries";
	default: return "unknown status";
	}
}

/* "/BITS": 1 to 3 digits, at most max. */
static enum privaddr_status parse_bits(const char *p, size_t len, unsigned max,
                                       uint8_t *out)
{
	unsigned v = 0;
	size_t i;

	if (len == 0 || len > PRIVADDR_BITS_DIGITS)
		return PRIVADDR_ESYNTAX;
	for (i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return PRIVADDR_ESYNTAX;
		v = v * 10 + (unsigned)(p[i] - '0');
	}
	if (v > max)
		return PRIVADDR_EBITS;
	*out = (uint8_t)v;
	return PRIVADDR_OK;
}

/* Clear the bits past p->bits. */
static void mask_host_bits(struct privaddr_prefix *p)
{
	size_t full = p->bits / PRIVADDR_BYTE_BITS, i;
	unsigned rest = p->bits % PRIVADDR_BYTE_BITS;

	if (rest != 0)
		p->addr[full++] &= (uint8_t)(0xffu
		                             << (PRIVADDR_BYTE_BITS - rest));
	for (i = full; i < PRIVADDR_IPV6_BYTES; i++)
		p->addr[i] = 0;
}

enum privaddr_status privaddr_prefix_parse(const char *text, size_t len,
                                           struct privaddr_prefix *out)
{
	char host[PRIVADDR_TEXT_MAX];
	const char *slash = text != NULL ? memchr(text, '/', len) : NULL;
	size_t hl = slash != NULL ? (size_t)(slash - text) : len;
	unsigned max;

	if (text == NULL || hl == 0 || hl >= sizeof host ||
	    memchr(text, '\0', len) != NULL)
		return PRIVADDR_ESYNTAX;
	memcpy(host, text, hl);
	host[hl] = '\0';
	memset(out, 0, sizeof *out);
	if (inet_pton(AF_INET, host, out->addr) == 1) {
		out->family = 4;
		max = PRIVADDR_IPV4_BITS;
	} else if (inet_pton(AF_INET6, host, out->addr) == 1) {
		out->family = 6;
		max = PRIVADDR_IPV6_BITS;
	} else {
		return PRIVADDR_ESYNTAX;
	}
	out->bits = (uint8_t)max;
	if (slash != NULL) {
		enum privaddr_status st = parse_bits(slash + 1, len - hl - 1,
		                                     max, &out->bits);
		if (st != PRIVADDR_OK)
			return st;
	}
	mask_host_bits(out);
	return PRIVADDR_OK;
}

bool privaddr_prefix_match(const struct privaddr_prefix *p, uint8_t family,
                           const uint8_t *addr)
{
	size_t full = p->bits / PRIVADDR_BYTE_BITS;
	unsigned rest = p->bits % PRIVADDR_BYTE_BITS;

	if (p->family != family || memcmp(addr, p->addr, full) != 0)
		return false;
	if (rest == 0)
		return true;
	return ((addr[full] ^ p->addr[full]) &
	        (uint8_t)(0xffu << (PRIVADDR_BYTE_BITS - rest))) == 0;
}

enum privaddr_status privaddr_add_prefix(struct privaddr *pa, const char *text,
                                         size_t len)
{
	struct privaddr_prefix p;
	enum privaddr_status st = privaddr_prefix_parse(text, len, &p);
	size_t i;

	if (st != PRIVADDR_OK)
		return st;
	for (i = 0; i < pa->nprefix; i++)
		if (memcmp(&pa->prefix[i], &p, sizeof p) == 0)
			return PRIVADDR_OK;
	if (pa->nprefix >= PRIVADDR_PREFIXES_MAX)
		return PRIVADDR_EFULL;
	pa->prefix[pa->nprefix++] = p;
	return PRIVADDR_OK;
}

/* Whether name, len is one well-formed wire name ending in the root. */
static bool name_ok(const uint8_t *name, size_t len)
{
	size_t pos = 0;

	if (name == NULL || len == 0 || len > PRIVADDR_NAME_MAX)
		return false;
	while (pos < len && name[pos] != 0) {
		if (name[pos] > 63)
			return false;
		pos += (size_t)name[pos] + 1;
	}
	return pos == len - 1;
}

enum privaddr_status privaddr_add_domain(struct privaddr *pa,
                                         const uint8_t *name, size_t len)
{
	size_t i;

	if (!name_ok(name, len))
		return PRIVADDR_ENAME;
	for (i = 0; i < pa->ndomain; i++)
		if (pa->domainlen[i] == len &&
		    memcmp(pa->domain[i], name, len) == 0)
			return PRIVADDR_OK;
	if (pa->ndomain >= PRIVADDR_DOMAINS_MAX)
		return PRIVADDR_EFULL;
	memcpy(pa->domain[pa->ndomain], name, len);
	pa->domainlen[pa->ndomain++] = len;
	return PRIVADDR_OK;
}

static bool in_prefixes(const struct privaddr *pa, uint8_t family,
                        const uint8_t *addr)
{
	size_t i;

	for (i = 0; i < pa->nprefix; i++)
		if (privaddr_prefix_match(&pa->prefix[i], family, addr))
			return true;
	return false;
}

bool privaddr_is_private(const struct privaddr *pa, const uint8_t *addr,
                         size_t len)
{
	static const uint8_t mapped[PRIVADDR_MAPPED_BYTES] = {
		0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff
	};

	if (len == PRIVADDR_IPV4_BYTES)
		return in_prefixes(pa, 4, addr);
	if (len != PRIVADDR_IPV6_BYTES)
		return false;
	if (in_prefixes(pa, 6, addr))
		return true;
	return memcmp(addr, mapped, sizeof mapped) == 0 &&
	       in_prefixes(pa, 4, addr + PRIVADDR_MAPPED_BYTES);
}

bool privaddr_domain_has(const struct privaddr *pa, const uint8_t *name,
                         size_t len)
{
	size_t pos = 0, i;

	if (!name_ok(name, len))
		return false;
	/* Each suffix that starts at a label boundary, the root last. */
	for (;;) {
		for (i = 0; i < pa->ndomain; i++)
			if (pa->domainlen[i] == len - pos &&
			    memcmp(pa->domain[i], name + pos, len - pos) == 0)
				return true;
		if (name[pos] == 0)
			return false;
		pos += (size_t)name[pos] + 1;
	}
}

bool privaddr_strip(const struct privaddr *pa, const uint8_t *owner,
                    size_t ownerlen, uint16_t type, const uint8_t *rdata,
                    size_t rdlen)
{
	if (pa == NULL || pa->nprefix == 0 || rdata == NULL ||
	    (type != PRIVADDR_TYPE_A && type != PRIVADDR_TYPE_AAAA) ||
	    (type == PRIVADDR_TYPE_A) != (rdlen == PRIVADDR_IPV4_BYTES))
		return false;
	return privaddr_is_private(pa, rdata, rdlen) &&
	       !privaddr_domain_has(pa, owner, ownerlen);
}
