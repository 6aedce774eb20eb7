/*
 * cache/neg.c - negative answers (RFC 2308).
 *
 * A negative entry keeps the SOA that came with the answer, so that the
 * resolver can put it in the authority section of the responses it
 * builds from the cache, its TTL counted down like the entry's. The TTL
 * is min(SOA TTL, SOA MINIMUM) (RFC 2308 section 5), then lowered to the
 * configured neg_max_ttl. NXDOMAIN is keyed (name, class) with type 0;
 * NODATA is keyed (name, type, class), the same key as the RRset it
 * denies.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

/** SOA RDATA after its two names: SERIAL REFRESH RETRY EXPIRE MINIMUM. */
#define CACHE_SOA_COUNTERS_BYTES 20

/*
 * Check SOA RDATA (MNAME, RNAME, five 32-bit counters, nothing after)
 * and read MINIMUM, the last counter.
 */
static int soa_minimum(const uint8_t *rdata, size_t rdlen, uint32_t *min)
{
	size_t mname = 0, rname = 0, pos;

	if (rdata == NULL || cache_name_span(rdata, rdlen, &mname) != CACHE_OK)
		return CACHE_ERDATA;
	if (cache_name_span(rdata + mname, rdlen - mname, &rname) != CACHE_OK)
		return CACHE_ERDATA;
	pos = mname + rname;
	if (rdlen - pos != CACHE_SOA_COUNTERS_BYTES)
		return CACHE_ERDATA;
	pos = rdlen - 4;
	*min = ((uint32_t)rdata[pos] << 24) |
	       ((uint32_t)rdata[pos + 1] << 16) |
	       ((uint32_t)rdata[pos + 2] << 8) | rdata[pos + 3];
	return CACHE_OK;
}

static int neg_check(const struct cache_neg *neg)
{
	int rc;

	if (neg->kind != CACHE_KIND_NXDOMAIN && neg->kind != CACHE_KIND_NODATA)
		return CACHE_EINVAL;
	if (neg->rank <= CACHE_RANK_NONE || neg->rank > CACHE_RANK_AUTH)
		return CACHE_EINVAL;
	rc = cache_name_check(neg->name, neg->name_len);
	if (rc == CACHE_OK)
		rc = cache_name_check(neg->soa_name, neg->soa_name_len);
	if (rc == CACHE_OK && neg->kind == CACHE_KIND_NODATA)
		rc = cache_type_check(neg->type);
	if (rc == CACHE_OK &&
	    neg->soa_name_len + 2 + neg->soa_rdlen > CACHE_IMAGE_MAX)
		rc = CACHE_ERDATA;
	return rc;
}

/* The RFC 2308 TTL, each part read as 0 above 2^31 - 1 (RFC 2181 8). */
static uint32_t neg_ttl(const struct cache *c, uint32_t soa_ttl,
                        uint32_t minimum)
{
	uint32_t ttl;

	if (soa_ttl > CACHE_TTL_WIRE_MAX)
		soa_ttl = 0;
	if (minimum > CACHE_TTL_WIRE_MAX)
		minimum = 0;
	ttl = soa_ttl < minimum ? soa_ttl : minimum;
	return ttl < c->cfg.neg_max_ttl ? ttl : c->cfg.neg_max_ttl;
}

int cache_neg_put(struct cache *c, const struct cache_neg *neg, time_t now)
{
	return cache_neg_put_via(c, neg, now, CACHE_VIA_PLAIN);
}

int cache_neg_put_via(struct cache *c, const struct cache_neg *neg, time_t now,
                      enum cache_via via)
{
	struct cache_build b;
	uint32_t minimum = 0;
	int rc;

	if (c == NULL || neg == NULL)
		return CACHE_EINVAL;
	rc = neg_check(neg);
	if (rc == CACHE_OK)
		rc = soa_minimum(neg->soa_rdata, neg->soa_rdlen, &minimum);
	if (rc == CACHE_OK)
		rc = cache_dnssec_check(neg->dnssec, neg->dnssec_len,
		                        neg->sec);
	if (rc != CACHE_OK)
		return rc;
	memset(&b, 0, sizeof(b));
	b.name = neg->name;
	b.name_len = neg->name_len;
	b.hash = cache_siphash13(c->key, neg->name, neg->name_len);
	b.type = neg->kind == CACHE_KIND_NODATA ? neg->type : 0;
	b.klass = neg->klass;
	b.kind = neg->kind;
	b.rank = neg->rank;
	b.server_key = neg->server_key;
	b.via = via;
	b.ttl = neg_ttl(c, neg->soa_ttl, minimum);
	b.expire = cache_expire_at(now, b.ttl);
	b.image_len = neg->soa_name_len + 2 + neg->soa_rdlen;
	b.count = 1;
	b.soa_name = neg->soa_name;
	b.soa_name_len = neg->soa_name_len;
	b.soa_rdata = neg->soa_rdata;
	b.soa_rdlen = neg->soa_rdlen;
	b.sec = neg->sec;
	b.dnssec = neg->dnssec;
	b.dnssec_len = neg->dnssec_len;
	return cache_put_build(c, &b, now);
}
