/*
 * resolver/front_tls/ddr.c - the SVCB records of Discovery of Designated
 * Resolvers (RFC 9462; see ddr.h).
 */
#include "ddr.h"

#include <string.h>

/** SvcParamKeys (RFC 9460 s14.3.2, RFC 9461 s5). */
#define DDR_KEY_ALPN 1
#define DDR_KEY_PORT 3
#define DDR_KEY_IPV4HINT 4
#define DDR_KEY_IPV6HINT 6
#define DDR_KEY_DOHPATH 7
/** The URI template's variable after the path (RFC 9461 s5). */
#define DDR_DOHPATH_TAIL "{?dns}"
/** Bytes of the dohpath value. */
#define DDR_PATH_MAX 512

const uint8_t ddr_owner[] = { 4,   '_', 'd', 'n', 's', 8,   'r', 'e', 's', 'o',
	                      'l', 'v', 'e', 'r', 4,   'a', 'r', 'p', 'a', 0 };
const size_t ddr_owner_len = sizeof ddr_owner;

bool ddr_qname(const uint8_t *lname, size_t len)
{
	return len == sizeof ddr_owner && memcmp(lname, ddr_owner, len) == 0;
}

/** A bounded writer. */
struct ddr_out {
	uint8_t *p;
	size_t cap, len;
	bool full;
};

static void out_bytes(struct ddr_out *o, const void *b, size_t n)
{
	if (o->full || o->cap - o->len < n) {
		o->full = true;
		return;
	}
	memcpy(o->p + o->len, b, n);
	o->len += n;
}

static void out_u16(struct ddr_out *o, size_t v)
{
	uint8_t b[2] = { (uint8_t)(v >> 8), (uint8_t)v };

	out_bytes(o, b, sizeof b);
}

/* One SvcParam: key, length, value. */
static void out_param(struct ddr_out *o, unsigned key, const void *v, size_t n)
{
	if (n > UINT16_MAX) {
		o->full = true;
		return;
	}
	out_u16(o, key);
	out_u16(o, n);
	out_bytes(o, v, n);
}

static void out_hints(struct ddr_out *o, unsigned key, const void *a, size_t n,
                      size_t size)
{
	if (n > 0)
		out_param(o, key, a, n * size);
}

size_t ddr_svcb(const struct ddr_endpoint *e, uint8_t *out, size_t cap)
{
	static const uint8_t alpn_dot[] = { 3, 'd', 'o', 't' };
	static const uint8_t alpn_h2[] = { 2, 'h', '2' };
	struct ddr_out o = { out, cap, 0, false };
	uint8_t port[2] = { (uint8_t)(e->port >> 8), (uint8_t)e->port };
	char path[DDR_PATH_MAX];
	size_t plen;

	out_u16(&o, e->priority);
	out_bytes(&o, "", 1); /* TargetName "." */
	if (e->doh)
		out_param(&o, DDR_KEY_ALPN, alpn_h2, sizeof alpn_h2);
	else
		out_param(&o, DDR_KEY_ALPN, alpn_dot, sizeof alpn_dot);
	out_param(&o, DDR_KEY_PORT, port, sizeof port);
	out_hints(&o, DDR_KEY_IPV4HINT, e->v4,
	          e->n4 < DDR_HINTS_MAX ? e->n4 : DDR_HINTS_MAX, DDR_V4);
	out_hints(&o, DDR_KEY_IPV6HINT, e->v6,
	          e->n6 < DDR_HINTS_MAX ? e->n6 : DDR_HINTS_MAX, DDR_V6);
	if (e->doh && e->path != NULL) {
		plen = strlen(e->path);
		if (plen + sizeof DDR_DOHPATH_TAIL > sizeof path)
			return 0;
		memcpy(path, e->path, plen);
		memcpy(path + plen, DDR_DOHPATH_TAIL, sizeof DDR_DOHPATH_TAIL);
		out_param(&o, DDR_KEY_DOHPATH, path,
		          plen + sizeof DDR_DOHPATH_TAIL - 1);
	}
	return o.full ? 0 : o.len;
}
