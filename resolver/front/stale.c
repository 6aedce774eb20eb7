/*
 * resolver/front/stale.c - serve-stale answers and prefetch decisions from the
 * cache (see stale.h).
 */
#include "stale.h"

#include <string.h>

#include "wire/answer.h"
#include "cache.h"
#include "wire/wire.h"
#include "respond.h"

const char *stale_strerror(int status)
{
	switch (status) {
	case STALE_OK: return "ok";
	case STALE_EMISS: return "no usable data, fresh or stale";
	case STALE_EINVAL: return "invalid argument";
	default: return "unknown status";
	}
}

int stale_answer(struct cache *c, const uint8_t *lname, size_t lnamelen,
                 uint16_t qtype, uint16_t qclass, time_t now, uint32_t window,
                 struct answer *a, uint8_t *buf, size_t cap, bool *used_stale)
{
	struct answer_chase ch = {
		c,      qclass, now, ANSWER_CHASE_STALE | ANSWER_CHASE_DNSSEC,
		window, false
	};
	int rc;

	if (c == NULL || lname == NULL || a == NULL || buf == NULL ||
	    used_stale == NULL || lnamelen == 0 || lnamelen > WIRE_NAME_MAX)
		return STALE_EINVAL;
	rc = answer_chase(&ch, lname, lnamelen, qtype, a, buf, cap);
	if (rc == ANSWER_EMISS) { /* the images may not fit: without */
		ch.flags = ANSWER_CHASE_STALE;
		ch.stale_used = false;
		rc = answer_chase(&ch, lname, lnamelen, qtype, a, buf, cap);
	}
	*used_stale = ch.stale_used;
	if (rc == ANSWER_OK && ch.stale_used) {
		a->ede = true; /* RFC 8914 section 4.4 */
		a->ede_code = RESPOND_EDE_STALE;
		a->ede_text = NULL;
	}
	return rc == ANSWER_OK ? STALE_OK : STALE_EMISS;
}

bool stale_prefetch_due(struct cache *c, const struct answer *a,
                        const uint8_t *lname, size_t lnamelen, uint16_t qtype,
                        uint16_t qclass, time_t now, uint32_t max_ttl)
{
	struct cache_query q = { lname, lnamelen, qtype, qclass, 0 };
	struct cache_answer ans;
	struct answer_rr least;
	int rc;

	if (c == NULL || a == NULL)
		return false;
	if (a->an_count > 0) {
		/* answer_chase's least TTL first: no walk on most hits. */
		if ((uint64_t)a->an_ttl * STALE_PREFETCH_SHARE > max_ttl)
			return false;
		if (!answer_ttl_min(a->an, a->an_len, &least))
			return false;
		/* No stored TTL is above max_ttl: most hits stop here. */
		if ((uint64_t)least.ttl * STALE_PREFETCH_SHARE > max_ttl)
			return false;
		q.name = a->an + least.owner;
		q.name_len = least.ownerlen;
		q.type = least.type;
	}
	/* buf NULL: the answer's fields without its records. */
	rc = cache_get(c, &q, now, &ans, NULL, 0);
	if (rc != CACHE_ESPACE && rc != CACHE_OK)
		return false;
	return ans.orig_ttl > 0 &&
	       (uint64_t)ans.ttl * STALE_PREFETCH_SHARE <= ans.orig_ttl;
}
