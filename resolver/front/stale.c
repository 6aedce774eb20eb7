/*
 * resolver/front/stale.c - serve-stale answers and prefetch decisions from the
 * cache (see stale.h).
 */
#include "stale.h"

#include <string.h>

#include "cache.h"
#include "respond.h"
#include "wire/wire.h"

/** Bytes from the start of RDATA back to the TTL of an RR image. */
#define STALE_TTL_BACK 6
/** Records of one image looked at (a cache entry holds fewer). */
#define STALE_IMAGE_RR_MAX 65535

const char *stale_strerror(int status)
{
	switch (status) {
	case STALE_OK: return "ok";
	case STALE_EMISS: return "no usable data, fresh or stale";
	case STALE_EINVAL: return "invalid argument";
	default: return "unknown status";
	}
}

static void put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Set the TTL of every RR of an image to ttl. */
static void image_set_ttl(uint8_t *img, size_t len, uint32_t ttl)
{
	size_t pos = 0, n;

	for (n = 0; pos < len && n < STALE_IMAGE_RR_MAX; n++) {
		struct wire_rr rr;

		if (wire_read_rr(img, len, &pos, &rr) != WIRE_OK)
			return;
		put_u32(img + rr.rdata - STALE_TTL_BACK, ttl);
	}
}

/*
 * One cache read, expired entries included when they are within the
 * window; the RRs of an expired one get STALE_TTL.
 */
static bool read_stale(struct cache *c, const uint8_t *name, size_t len,
                       uint16_t type, uint16_t klass, time_t now,
                       uint32_t window, struct cache_answer *ans,
                       uint8_t *buf, size_t cap, bool *used_stale)
{
	struct cache_query q = { name, len, type, klass, CACHE_GET_STALE };

	if (cache_get(c, &q, now, ans, buf, cap) != CACHE_OK ||
	    ans->rank < CACHE_RANK_NONAUTH)
		return false;
	if (!ans->stale)
		return true;
	if (ans->expire > now || (uint64_t)(now - ans->expire) > window)
		return false;
	image_set_ttl(buf, ans->len, STALE_TTL);
	*used_stale = true;
	return true;
}

/* The target of the CNAME image (its first RR), lowercased. */
static bool cname_target(const uint8_t *img, size_t len, uint8_t *out,
                         size_t *outlen)
{
	struct wire_rr rr;
	size_t pos = 0, p;

	if (wire_read_rr(img, len, &pos, &rr) != WIRE_OK ||
	    rr.type != WIRE_TYPE_CNAME)
		return false;
	p = rr.rdata;
	return wire_read_rdata_name(img, len, &rr, &p, out, outlen,
	                            WIRE_NAME_LOWER) == WIRE_OK;
}

int stale_answer(struct cache *c, const uint8_t *lname, size_t lnamelen,
                 uint16_t qtype, uint16_t qclass, time_t now,
                 uint32_t window, struct respond_answer *a, uint8_t *buf,
                 size_t cap, bool *used_stale)
{
	struct cache_answer ans;
	uint8_t name[WIRE_NAME_MAX];
	size_t nlen = lnamelen, used = 0;
	uint16_t an = 0;
	unsigned link;
	bool curve = true;

	if (c == NULL || lname == NULL || a == NULL || buf == NULL ||
	    used_stale == NULL || lnamelen == 0 || lnamelen > WIRE_NAME_MAX)
		return STALE_EINVAL;
	*used_stale = false;
	memcpy(name, lname, lnamelen);
	for (link = 0; link <= RESPOND_CNAME_MAX; link++) {
		if (read_stale(c, name, nlen, qtype, qclass, now, window, &ans,
		               buf + used, cap - used, used_stale)) {
			respond_cache_final(&ans, buf, used, an, curve, a);
			return STALE_OK;
		}
		if (qtype == WIRE_TYPE_CNAME ||
		    !read_stale(c, name, nlen, WIRE_TYPE_CNAME, qclass, now,
		                window, &ans, buf + used, cap - used,
		                used_stale) ||
		    ans.kind != CACHE_KIND_RRSET ||
		    !cname_target(buf + used, ans.len, name, &nlen))
			return STALE_EMISS;
		used += ans.len;
		an = (uint16_t)(an + ans.count);
		curve = curve && ans.curve != 0;
	}
	return STALE_EMISS;
}

/* The owner and type of the RR with the least TTL in an image. */
static bool image_min_ttl(const uint8_t *img, size_t len, uint32_t *ttl,
                          const uint8_t **owner, size_t *ownerlen,
                          uint16_t *type)
{
	size_t pos = 0, n;
	bool any = false;

	for (n = 0; pos < len && n < STALE_IMAGE_RR_MAX; n++) {
		struct wire_rr rr;

		if (wire_read_rr(img, len, &pos, &rr) != WIRE_OK)
			return false;
		if (any && rr.ttl >= *ttl)
			continue;
		any = true;
		*ttl = rr.ttl;
		*owner = img + rr.owner;
		*ownerlen = rr.rdata - STALE_TTL_BACK - 4 - rr.owner;
		*type = rr.type;
	}
	return any;
}

bool stale_prefetch_due(struct cache *c, const struct respond_answer *a,
                        const uint8_t *lname, size_t lnamelen,
                        uint16_t qtype, uint16_t qclass, time_t now,
                        uint32_t max_ttl)
{
	struct cache_query q = { lname, lnamelen, qtype, qclass, 0 };
	struct cache_answer ans;
	uint32_t ttl = 0;
	int rc;

	if (c == NULL || a == NULL)
		return false;
	if (a->an_count > 0) {
		if (!image_min_ttl(a->an, a->an_len, &ttl, &q.name,
		                   &q.name_len, &q.type))
			return false;
		/* No stored TTL is above max_ttl: most hits stop here. */
		if ((uint64_t)ttl * STALE_PREFETCH_SHARE > max_ttl)
			return false;
	}
	/* buf NULL: the answer's fields without its records. */
	rc = cache_get(c, &q, now, &ans, NULL, 0);
	if (rc != CACHE_ESPACE && rc != CACHE_OK)
		return false;
	return ans.orig_ttl > 0 &&
	       (uint64_t)ans.ttl * STALE_PREFETCH_SHARE <= ans.orig_ttl;
}
