/*
 * resolver/infra/nsecidx_wild.c - the wildcard that may answer a name
 * the index proves absent (nsecidx.h, nsecidx_wild; RFC 8198 section
 * 5.4, RFC 4035 section 5.3.4).
 *
 * One NSEC record does it: the live record at or before qname in its
 * zone must cover qname (validate/denial.c's rule: strictly between
 * owner and next, not below a zone cut at the owner, not an empty
 * non-terminal). The closest encloser is then the longest ancestor of
 * qname the same record does not cover: every name between qname and
 * it is covered (none exists), and it sorts at or before the owner, so
 * it is the owner or an ancestor of it: it exists. Only its wildcard
 * can have made an answer for qname.
 */
#include "nsecidx_int.h"

#include <string.h>

#include "validate/denial.h"
#include "validate/dnssec.h"

_Static_assert(NSECIDX_NAME_MAX == WIRE_NAME_MAX,
               "nsecidx_wild names are wire names");

/* Whether r proves that the ancestor of qname with `keep` labels does
 * not exist (keep: qname's labels for qname itself). */
static bool wild_covers(const struct nsecidx_zone *z,
                        const struct nsecidx_rec *r, const uint8_t *qname,
                        size_t qlen, unsigned keep)
{
	struct dnssec_nsec rr = { nsecidx_rec_owner(r), r->ownerlen, r->type,
		                  nsecidx_rec_rdata(r), r->rdlen };
	unsigned hashes = 0;
	struct dnssec_denial d = {
		&rr,    1, z->name, z->namelen, DNSSEC_NSEC3_ITERATIONS_MAX,
		&hashes
	};

	/* the next closer name of an encloser of keep - 1 labels */
	return keep > 0 &&
	       dnssec_deny_expanded(&d, qname, qlen, keep - 1) == DNSSEC_OK;
}

/* The offset in name of its ancestor of keep labels (of n). */
static size_t wild_suffix(const uint8_t *name, unsigned n, unsigned keep)
{
	size_t pos = 0;

	while (n-- > keep)
		pos += 1 + (size_t)name[pos];
	return pos;
}

/* The closest encloser of qname shown by r into w; false when r does
 * not cover qname. */
static bool wild_encloser(const struct nsecidx_zone *z,
                          const struct nsecidx_rec *r, const uint8_t *qname,
                          size_t qlen, struct nsecidx_wild *w)
{
	int labels = dnssec_name_labels(qname, qlen);
	unsigned n, keep;
	size_t off;

	if (labels <= 0 || r->type != WIRE_TYPE_NSEC)
		return false;
	n = (unsigned)labels;
	if (!wild_covers(z, r, qname, qlen, n))
		return false;
	keep = n - 1;
	while (keep > 0 && wild_covers(z, r, qname, qlen, keep))
		keep--;
	off = wild_suffix(qname, n, keep);
	if (qlen - off + 2 > WIRE_NAME_MAX)
		return false;
	w->wc[0] = 1;
	w->wc[1] = '*';
	memcpy(w->wc + 2, qname + off, qlen - off);
	w->wclen = qlen - off + 2;
	w->labels = keep;
	memcpy(w->zone, z->name, z->namelen);
	w->zonelen = z->namelen;
	return true;
}

/* The record's TTL left, lowered by the SOA's MINIMUM and ttl_max. */
static uint32_t wild_ttl(const struct nsecidx_zone *z,
                         const struct nsecidx_rec *r, uint32_t ttl_max,
                         time_t now)
{
	uint32_t ttl = nsecidx_rec_left(r, now);

	if (z->soa != NULL && nsecidx_soa_min(z->soa) < ttl)
		ttl = nsecidx_soa_min(z->soa);
	if (ttl_max > 0 && ttl > ttl_max)
		ttl = ttl_max;
	return ttl;
}

bool nsecidx_wild(struct nsecidx *x, const uint8_t *qname, size_t qlen,
                  uint32_t ttl_max, time_t now, struct nsecidx_wild *w,
                  struct nsecidx_answer *out)
{
	const struct nsecidx_rec *r = NULL;
	struct nsecidx_zone *z;
	bool ok = false;

	if (x == NULL || w == NULL || out == NULL || out->buf == NULL ||
	    wire_name_check(qname, qlen) != WIRE_OK ||
	    (qlen > 1 && qname[0] == 1 && qname[1] == '*'))
		return false;
	out->len = 0;
	out->count = 0;
	pthread_mutex_lock(&x->lock);
	z = nsecidx_zone_closest(x, qname, qlen, false, false, now);
	if (z != NULL && !z->n3.set)
		r = nsecidx_zone_at(x, z, qname, qlen, now);
	if (r != NULL && wild_encloser(z, r, qname, qlen, w)) {
		out->ttl = wild_ttl(z, r, ttl_max, now);
		ok = out->ttl > 0 && nsecidx_rec_emit(out, r, out->ttl);
	}
	pthread_mutex_unlock(&x->lock);
	if (!ok) {
		out->len = 0;
		out->count = 0;
	}
	return ok;
}
