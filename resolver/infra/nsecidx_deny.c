/*
 * resolver/infra/nsecidx_deny.c - lookups in the NSEC index (nsecidx.h):
 * the candidate records for a question (by name for NSEC, by hash for
 * NSEC3), the proof by validate/denial.c, the fewest records that still
 * prove it, and the answer image with its TTLs.
 */
#include "nsecidx_int.h"

#include <limits.h>
#include <string.h>

#include "validate/denial.h"
#include "validate/dnssec.h"
#include "wire/answer.h"

/** NSEC3 hashes one lookup may compute to pick candidates, and each
 *  proof over them (validate/denial.h: hashes). */
#define NSECIDX_HASHES 16
#define NSECIDX_PROOF_HASHES 64

/* The records a lookup offers the proof. */
struct nsecidx_cand {
	const struct nsecidx_rec *rec[NSECIDX_CANDIDATES];
	struct dnssec_nsec rr[NSECIDX_CANDIDATES];
	bool off[NSECIDX_CANDIDATES]; /* left out by the pruning */
	bool own[NSECIDX_CANDIDATES]; /* NSEC3: qname's or an ancestor's */
	size_t n;
};

/* The closest zone of name (or of its parent, for DS) in the index;
 * need_soa: the closest with a SOA (a zone known only from the proofs
 * of wildcard answers has none). A zone whose SOA expired is dropped. */
struct nsecidx_zone *nsecidx_zone_closest(struct nsecidx *x,
                                          const uint8_t *name, size_t len,
                                          bool parent, bool need_soa,
                                          time_t now)
{
	size_t pos = 0;

	if (parent && len > 1)
		pos = 1 + (size_t)name[0];
	/* Names longer than every zone's are none (a deep question). */
	while (len - pos > x->zone_len_max && name[pos] != 0)
		pos += 1 + (size_t)name[pos];
	while (pos < len) {
		struct nsecidx_zone *z = nsecidx_zone_find(x, name + pos,
		                                           len - pos);

		if (z != NULL && z->soa != NULL && z->soa->expire <= now) {
			nsecidx_zone_drop(x, z);
			z = NULL;
		}
		if (z != NULL && (z->soa != NULL || !need_soa))
			return z;
		if (name[pos] == 0)
			break;
		pos += 1 + (size_t)name[pos];
	}
	return NULL;
}

/* The live record at or before name (the last one when none is: it
 * wraps to the apex), or NULL; expired ones met are dropped. */
const struct nsecidx_rec *nsecidx_zone_at(struct nsecidx *x,
                                          struct nsecidx_zone *z,
                                          const uint8_t *name, size_t len,
                                          time_t now)
{
	bool exact;
	size_t i;

	while (z->n > 0) {
		i = nsecidx_zone_before(z, name, len, &exact);
		if (i == z->n)
			i = z->n - 1;
		if (z->rec[i]->expire > now)
			return z->rec[i];
		nsecidx_zone_remove(x, z, i);
	}
	return NULL;
}

/* Add the live record at or before name (nsecidx_zone_at); it, or
 * NULL. */
static const struct nsecidx_rec *
cand_add(struct nsecidx *x, struct nsecidx_zone *z, struct nsecidx_cand *c,
         const uint8_t *name, size_t len, time_t now)
{
	const struct nsecidx_rec *r;
	size_t i;

	if (c->n >= NSECIDX_CANDIDATES ||
	    (r = nsecidx_zone_at(x, z, name, len, now)) == NULL)
		return NULL;
	for (i = 0; i < c->n; i++)
		if (c->rec[i] == r)
			return r;
	c->rec[c->n] = r;
	c->rr[c->n] = (struct dnssec_nsec){ nsecidx_rec_owner(r), r->ownerlen,
		                            r->type, nsecidx_rec_rdata(r),
		                            r->rdlen };
	c->n++;
	return r;
}

/* NSEC3: add the record at or before the hash of name (its owner
 * <base32hex>.zone in the zone's order), if the budget allows; anc:
 * name is qname or an ancestor, whose own record is marked c->own. */
static void cand_hash(struct nsecidx *x, struct nsecidx_zone *z,
                      struct nsecidx_cand *c, const uint8_t *name, size_t len,
                      time_t now, unsigned *hashes, bool anc)
{
	uint8_t h[DNSSEC_NSEC3_HASH_BYTES], owner[WIRE_NAME_MAX];
	const struct nsecidx_rec *r;
	size_t i, tlen = 0;

	if (*hashes == 0 ||
	    1 + DNSSEC_NSEC3_LABEL_LEN + z->namelen > WIRE_NAME_MAX)
		return;
	(*hashes)--;
	if (dnssec_nsec3_hash(z->n3.alg, z->n3.iterations,
	                      DNSSEC_NSEC3_ITERATIONS_MAX, z->n3.salt,
	                      z->n3.saltlen, name, len, h) != DNSSEC_OK ||
	    dnssec_b32hex_encode((char *)owner + 1, DNSSEC_NSEC3_LABEL_LEN,
	                         &tlen, h, sizeof h) != DNSSEC_OK)
		return;
	owner[0] = (uint8_t)tlen;
	memcpy(owner + 1 + tlen, z->name, z->namelen);
	r = cand_add(x, z, c, owner, 1 + tlen + z->namelen, now);
	if (!anc || r == NULL ||
	    !wire_name_equal(nsecidx_rec_owner(r), r->ownerlen, owner,
	                     1 + tlen + z->namelen))
		return;
	for (i = 0; i < c->n; i++)
		if (c->rec[i] == r)
			c->own[i] = true;
}

/* Add the candidate for name: by name (NSEC) or by hash (NSEC3). */
static void cand_name(struct nsecidx *x, struct nsecidx_zone *z,
                      struct nsecidx_cand *c, const uint8_t *name, size_t len,
                      time_t now, unsigned *hashes, bool anc)
{
	if (z->n3.set)
		cand_hash(x, z, c, name, len, now, hashes, anc);
	else
		(void)cand_add(x, z, c, name, len, now);
}

/* The candidates for qname: for it, for the wildcard of each ancestor
 * inside the zone and (NSEC3: the closest encloser may be any) for each
 * ancestor, closest first. */
static void cand_collect(struct nsecidx *x, struct nsecidx_zone *z,
                         struct nsecidx_cand *c, const uint8_t *qname,
                         size_t qlen, time_t now, unsigned levels)
{
	uint8_t wc[WIRE_NAME_MAX];
	size_t pos = 0;
	unsigned hashes = NSECIDX_HASHES;

	memset(c, 0, sizeof *c);
	cand_name(x, z, c, qname, qlen, now, &hashes, true);
	while (qlen - pos > z->namelen && qname[pos] != 0 && levels-- > 0 &&
	       (hashes > 0 || !z->n3.set)) {
		pos += 1 + (size_t)qname[pos];
		if (z->n3.set)
			cand_hash(x, z, c, qname + pos, qlen - pos, now,
			          &hashes, true);
		if (qlen - pos + 2 > WIRE_NAME_MAX)
			continue;
		wc[0] = 1;
		wc[1] = '*';
		memcpy(wc + 2, qname + pos, qlen - pos);
		cand_name(x, z, c, wc, qlen - pos + 2, now, &hashes, false);
	}
}

/* Prove with the candidates not left out: NODATA first, then NXDOMAIN. */
static enum nsecidx_verdict prove(const struct nsecidx_zone *z,
                                  const struct nsecidx_cand *c,
                                  const uint8_t *qname, size_t qlen,
                                  uint16_t qtype)
{
	struct dnssec_nsec rr[NSECIDX_CANDIDATES];
	struct dnssec_denial d;
	unsigned hashes = NSECIDX_PROOF_HASHES;
	size_t i, n = 0;
	bool own = false;

	for (i = 0; i < c->n; i++)
		if (!c->off[i]) {
			rr[n++] = c->rr[i];
			own = own || c->own[i];
		}
	/* Every NSEC3 denial rests on the record of qname or of an
	 * ancestor (RFC 5155 section 8): without one among the candidates
	 * (none found, or the pruning left it out) the proof would only
	 * walk every level in vain. */
	if (z->n3.set && !own)
		return NSECIDX_NONE;
	d = (struct dnssec_denial){
		rr,     n, z->name, z->namelen, DNSSEC_NSEC3_ITERATIONS_MAX,
		&hashes
	};
	if (dnssec_deny_type(&d, qname, qlen, qtype) == DNSSEC_OK)
		return NSECIDX_NODATA;
	if (dnssec_deny_name(&d, qname, qlen) == DNSSEC_OK)
		return NSECIDX_NXDOMAIN;
	return NSECIDX_NONE;
}

/* The candidates and the verdict. NSEC3: first those of qname, its
 * parent and the parent's wildcard only (a name error below a name the
 * zone holds, or a no data at qname: three hashes, and few candidates
 * for the pruning), then all. */
static enum nsecidx_verdict collect_prove(struct nsecidx *x,
                                          struct nsecidx_zone *z,
                                          struct nsecidx_cand *c,
                                          const uint8_t *qname, size_t qlen,
                                          uint16_t qtype, time_t now)
{
	enum nsecidx_verdict v = NSECIDX_NONE;

	if (z->n3.set) {
		cand_collect(x, z, c, qname, qlen, now, 1);
		v = prove(z, c, qname, qlen, qtype);
	}
	if (v == NSECIDX_NONE) {
		cand_collect(x, z, c, qname, qlen, now, UINT_MAX);
		v = prove(z, c, qname, qlen, qtype);
	}
	return v;
}

/* Leave out every candidate the proof holds without. */
static void prune(const struct nsecidx_zone *z, struct nsecidx_cand *c,
                  const uint8_t *qname, size_t qlen, uint16_t qtype,
                  enum nsecidx_verdict v)
{
	size_t i;

	for (i = 0; i < c->n; i++) {
		c->off[i] = true;
		if (prove(z, c, qname, qlen, qtype) != v)
			c->off[i] = false;
	}
}

uint32_t nsecidx_rec_left(const struct nsecidx_rec *r, time_t now)
{
	return r->expire - now > UINT32_MAX ? UINT32_MAX :
	                                      (uint32_t)(r->expire - now);
}

/* One record and its RRSIGs into the answer, each with ttl. */
bool nsecidx_rec_emit(struct nsecidx_answer *out, const struct nsecidx_rec *r,
                      uint32_t ttl)
{
	struct answer_rr rr;
	size_t pos = 0;

	if (!answer_rr_append(out->buf, out->cap, &out->len,
	                      nsecidx_rec_owner(r), r->ownerlen, r->type,
	                      WIRE_CLASS_IN, ttl, nsecidx_rec_rdata(r),
	                      r->rdlen))
		return false;
	out->count++;
	while (answer_rr_next(nsecidx_rec_sigs(r), r->siglen, &pos, &rr)) {
		if (!answer_rr_append(out->buf, out->cap, &out->len,
		                      nsecidx_rec_owner(r), r->ownerlen,
		                      WIRE_TYPE_RRSIG, WIRE_CLASS_IN, ttl,
		                      nsecidx_rec_sigs(r) + rr.rdata,
		                      rr.rdlen))
			return false;
		out->count++;
	}
	return true;
}

/* The SOA (TTL: RFC 8198 section 5.4) and the records used. */
static bool answer_build(const struct nsecidx_zone *z,
                         const struct nsecidx_cand *c, uint32_t ttl_max,
                         time_t now, struct nsecidx_answer *out)
{
	const struct nsecidx_rec *soa = z->soa;
	uint32_t ttl = nsecidx_rec_left(soa, now), min = nsecidx_soa_min(soa);
	size_t i;

	if (min < ttl)
		ttl = min;
	if (ttl_max > 0 && ttl > ttl_max)
		ttl = ttl_max;
	for (i = 0; i < c->n; i++)
		if (!c->off[i] && nsecidx_rec_left(c->rec[i], now) < ttl)
			ttl = nsecidx_rec_left(c->rec[i], now);
	out->ttl = ttl;
	if (!nsecidx_rec_emit(out, soa, ttl))
		return false;
	for (i = 0; i < c->n; i++) {
		uint32_t t = nsecidx_rec_left(c->rec[i], now);

		if (ttl_max > 0 && t > ttl_max)
			t = ttl_max;
		if (!c->off[i] && !nsecidx_rec_emit(out, c->rec[i], t))
			return false;
	}
	return true;
}

enum nsecidx_verdict nsecidx_deny(struct nsecidx *x, const uint8_t *qname,
                                  size_t qlen, uint16_t qtype,
                                  uint32_t ttl_max, time_t now,
                                  struct nsecidx_answer *out)
{
	enum nsecidx_verdict v = NSECIDX_NONE;
	struct nsecidx_cand c;
	struct nsecidx_zone *z;

	if (x == NULL || out == NULL || out->buf == NULL ||
	    wire_name_check(qname, qlen) != WIRE_OK || qtype == WIRE_TYPE_ANY)
		return NSECIDX_NONE;
	out->len = 0;
	out->count = 0;
	memset(&c, 0, sizeof c);
	pthread_mutex_lock(&x->lock);
	z = nsecidx_zone_closest(x, qname, qlen, qtype == WIRE_TYPE_DS, true,
	                         now);
	if (z != NULL)
		v = collect_prove(x, z, &c, qname, qlen, qtype, now);
	if (v != NSECIDX_NONE) {
		prune(z, &c, qname, qlen, qtype, v);
		if (!answer_build(z, &c, ttl_max, now, out)) {
			out->len = 0;
			out->count = 0;
			v = NSECIDX_NONE;
		}
	}
	pthread_mutex_unlock(&x->lock);
	return v;
}

void nsecidx_size(struct nsecidx *x, struct nsecidx_size *out)
{
	pthread_mutex_lock(&x->lock);
	out->bytes = x->bytes;
	out->zones = x->nzones;
	out->records = x->nrec;
	pthread_mutex_unlock(&x->lock);
}
