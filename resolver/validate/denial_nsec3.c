/*
 * resolver/validate/denial_nsec3.c - the NSEC3 proofs of non-existence
 * (RFC 5155 section 8): the closest encloser proof (8.3), name error
 * (8.4), no data (8.5, 8.6 with erratum 3441, 8.7) and the wildcard
 * answer (8.8).
 *
 * A record takes part only if its owner is one base32hex label of a
 * SHA-1 hash directly under the zone, its RDATA parses to its end (a
 * 20-byte next hash, a well-formed bitmap) and its flags are 0 or 1
 * (opt-out); any other is ignored (RFC 5155 section 8.2). The chain's
 * parameters are those of the first such record whose iterations are
 * within the cap; records with other parameters are ignored. When no
 * record is usable, one over the cap gives DNSSEC_EITERATIONS, one of
 * another hash algorithm DNSSEC_EUNSUPPORTED_HASH: such records are
 * ignored (RFC 5155 section 8.1), so the denial is not proven.
 *
 * Each hash is taken from the caller's budget first (*d->hashes), and
 * none is taken at 0. The closest encloser is searched from both ends
 * at once, from the apex down and from qname up (n3_encloser), so a
 * proof costs about twice the lesser distance, the wildcard's hash, and
 * qname's for a no data.
 *
 * Opt-out: when the next closer name is covered by an opt-out record it
 * may exist as an unsigned delegation, and the proof can at most make
 * the answer insecure (DNSSEC_EOPTOUT): a name error still needs its
 * wildcard covered; a no data without a matching record (the DS of an
 * unsigned delegation, 8.6, or an empty non-terminal made by one,
 * erratum 3441) needs no more.
 */
#include "denial_int.h"

#include <string.h>

#define N3_HASH DNSSEC_NSEC3_HASH_BYTES
/** Flags an NSEC3 may carry (RFC 5155 section 3.1.2: opt-out). */
#define N3_FLAG_OPTOUT 0x01u

/* What one record of the set is to a proof. */
enum n3_kind { N3_IGNORED, N3_UNSUPPORTED, N3_OVER_CAP, N3_USABLE };

/* An NSEC3 record of the zone, parsed. */
struct n3_rr {
	uint8_t alg, flags;
	uint16_t iter;
	const uint8_t *salt;
	size_t saltlen;
	uint8_t hash[N3_HASH]; /* the owner label, decoded */
	const uint8_t *next;
	size_t nextlen;
	const uint8_t *bm;
	size_t bmlen;
};

/* The chain a proof uses. */
struct n3_chain {
	uint8_t alg;
	uint16_t iter;
	const uint8_t *salt;
	size_t saltlen;
};

/* The RDATA fields; 0 if it does not parse to its end. */
static int n3_rdata(const uint8_t *rd, size_t len, struct n3_rr *v)
{
	size_t pos = 5;

	if (rd == NULL || len < pos)
		return 0;
	v->alg = rd[0];
	v->flags = rd[1];
	v->iter = (uint16_t)(rd[2] << 8 | rd[3]);
	v->saltlen = rd[4];
	if (len - pos < v->saltlen + 1)
		return 0;
	v->salt = rd + pos;
	pos += v->saltlen;
	v->nextlen = rd[pos++];
	if (v->nextlen == 0 || len - pos < v->nextlen)
		return 0;
	v->next = rd + pos;
	pos += v->nextlen;
	v->bm = rd + pos;
	v->bmlen = len - pos;
	return dnssec_bitmap_has(v->bm, v->bmlen, 0) >= 0;
}

/* Record i as an NSEC3 of the zone (v filled unless N3_IGNORED). */
static enum n3_kind n3_get(const struct dnssec_denial *d, size_t i,
                           struct n3_rr *v)
{
	const struct dnssec_nsec *r = &d->rr[i];
	size_t l, n = 0;

	if (r->type != DNSSEC_TYPE_NSEC3 || r->owner == NULL ||
	    wire_name_check(r->owner, r->ownerlen) != WIRE_OK)
		return N3_IGNORED;
	l = r->owner[0];
	if (l == 0 || r->ownerlen - 1 - l != d->zonelen ||
	    !wire_name_equal(r->owner + 1 + l, d->zonelen, d->zone,
	                     d->zonelen) ||
	    !n3_rdata(r->rdata, r->rdlen, v) || (v->flags & ~N3_FLAG_OPTOUT))
		return N3_IGNORED;
	if (v->alg != DNSSEC_NSEC3_HASH_SHA1)
		return N3_UNSUPPORTED;
	if (v->nextlen != N3_HASH ||
	    dnssec_b32hex_decode(v->hash, sizeof v->hash, &n,
	                         (const char *)r->owner + 1, l) != DNSSEC_OK ||
	    n != N3_HASH)
		return N3_IGNORED;
	return v->iter > d->max_iterations ? N3_OVER_CAP : N3_USABLE;
}

/* The chain of the first usable record. */
static int n3_chain(const struct dnssec_denial *d, struct n3_chain *c)
{
	struct n3_rr v;
	int over = 0, unsup = 0;
	size_t i;

	for (i = 0; i < d->count; i++) {
		switch (n3_get(d, i, &v)) {
		case N3_USABLE:
			c->alg = v.alg;
			c->iter = v.iter;
			c->salt = v.salt;
			c->saltlen = v.saltlen;
			return DNSSEC_OK;
		case N3_OVER_CAP: over = 1; break;
		case N3_UNSUPPORTED: unsup = 1; break;
		case N3_IGNORED: break;
		}
	}
	return over  ? DNSSEC_EITERATIONS :
	       unsup ? DNSSEC_EUNSUPPORTED_HASH :
	               DNSSEC_ENOPROOF;
}

/* Record i is of chain c. */
static int n3_of(const struct dnssec_denial *d, size_t i,
                 const struct n3_chain *c, struct n3_rr *v)
{
	return n3_get(d, i, v) == N3_USABLE && v->alg == c->alg &&
	       v->iter == c->iter && v->saltlen == c->saltlen &&
	       (c->saltlen == 0 || memcmp(v->salt, c->salt, c->saltlen) == 0);
}

/* owner < h < next in hash order, the last record wrapping around. */
static int n3_covers(const struct n3_rr *v, const uint8_t h[N3_HASH])
{
	int lo = memcmp(v->hash, h, N3_HASH) < 0;
	int hi = memcmp(h, v->next, N3_HASH) < 0;

	if (memcmp(v->hash, v->next, N3_HASH) < 0)
		return lo && hi;
	return lo || hi;
}

/* A record of chain c whose owner is h (cover 0) or that covers h. */
static int n3_find(const struct dnssec_denial *d, const struct n3_chain *c,
                   const uint8_t h[N3_HASH], int cover, struct n3_rr *v)
{
	size_t i;

	for (i = 0; i < d->count; i++)
		if (n3_of(d, i, c, v) &&
		    (cover ? n3_covers(v, h) :
		             memcmp(v->hash, h, N3_HASH) == 0))
			return 1;
	return 0;
}

/* The hash of a name, paid from the budget first. */
static int n3_hash(const struct dnssec_denial *d, const struct n3_chain *c,
                   const uint8_t *name, size_t len, uint8_t h[N3_HASH])
{
	if (*d->hashes == 0)
		return DNSSEC_EBUDGET;
	(*d->hashes)--;
	return dnssec_nsec3_hash(c->alg, c->iter, d->max_iterations, c->salt,
	                         c->saltlen, name, len, h);
}

/* The hashes of qname's ancestors in the zone, by level (labels kept),
 * each taken once: the walk down from the apex and the walk up from
 * qname meet, never cross. */
struct n3_walk {
	const struct dnssec_denial *d;
	const struct n3_chain *c;
	const uint8_t *qname;
	size_t qlen;
	unsigned n; /* qname's labels */
	uint8_t o[DENIAL_LABELS_MAX];
	uint8_t h[DENIAL_LABELS_MAX + 1][N3_HASH];
};

/* The offset in qname of its ancestor of k labels (k <= n). */
static size_t n3_off(const struct n3_walk *w, unsigned k)
{
	return k == w->n ? 0 : k == 0 ? w->qlen - 1 : w->o[w->n - k];
}

/* The hash of the ancestor of k labels into w->h[k]. */
static int n3_level(struct n3_walk *w, unsigned k)
{
	size_t off = n3_off(w, k);

	return n3_hash(w->d, w->c, w->qname + off, w->qlen - off, w->h[k]);
}

/* The walk up's step at level b: DNSSEC_OK if a record matches it, the
 * encloser (RFC 5155 section 8.3: the longest ancestor matched, neither
 * qname, a delegation nor a DNAME) whose next closer name, hashed the
 * step before, is covered; DNSSEC_ENOPROOF if it matches otherwise; 1
 * if nothing matches (go on). */
static int n3_up(struct n3_walk *w, unsigned b, size_t *ce, int *optout)
{
	struct n3_rr v;

	if (!n3_find(w->d, w->c, w->h[b], 0, &v))
		return 1;
	if (b == w->n || denial_cut(v.bm, v.bmlen) ||
	    !n3_find(w->d, w->c, w->h[b + 1], 1, &v))
		return DNSSEC_ENOPROOF;
	*ce = n3_off(w, b);
	*optout = (v.flags & N3_FLAG_OPTOUT) != 0;
	return DNSSEC_OK;
}

/* The closest encloser proof (RFC 5155 section 8.3). Two walks take
 * turns, each hash once: up from qname (the first ancestor a record
 * matches is the candidate, and its child on the way to qname, the
 * next closer name, must be covered) and down from the apex (an
 * ancestor matched whose child is covered; a covered name has no
 * descendants, so in a set the zone signed at most one level fits, the
 * one the walk up finds). The cost is twice the lesser of the
 * encloser's distance from the apex and from qname: a deep name under a
 * shallow encloser (its labels chosen by the asker) and a name just
 * below a deep one (a zone's deep names) both cost a few hashes.
 * qh is qname's hash if already taken (it matched nothing), else NULL.
 * Sets *ce (the encloser's offset in qname) and *optout (whether the
 * covering record is opt-out); DNSSEC_ENOPROOF if qname matches. */
static int n3_encloser(const struct dnssec_denial *d, const struct n3_chain *c,
                       const uint8_t *qname, size_t qlen, const uint8_t *qh,
                       size_t *ce, int *optout)
{
	struct n3_walk w = { .d = d, .c = c, .qname = qname, .qlen = qlen };
	unsigned t = denial_offsets(d->zone, d->zonelen, w.o), b;
	struct n3_rr v;
	int rc, above = 0; /* level t - 1 matched */

	b = w.n = denial_offsets(qname, qlen, w.o);
	while (t <= b) {
		if ((rc = n3_level(&w, t)) != DNSSEC_OK)
			return rc;
		if (n3_find(d, c, w.h[t], 0, &v)) {
			if (denial_cut(v.bm, v.bmlen))
				return DNSSEC_ENOPROOF;
			above = 1;
		} else if (above && n3_find(d, c, w.h[t], 1, &v)) {
			*ce = n3_off(&w, t - 1);
			*optout = (v.flags & N3_FLAG_OPTOUT) != 0;
			return DNSSEC_OK;
		} else {
			above = 0;
		}
		if (++t > b)
			break;
		rc = b == w.n && qh != NULL ? DNSSEC_OK : n3_level(&w, b);
		if (b == w.n && qh != NULL)
			memcpy(w.h[b], qh, N3_HASH);
		if (rc != DNSSEC_OK || (rc = n3_up(&w, b, ce, optout)) != 1)
			return rc;
		b--;
	}
	/* The walks met: level t, taken by the walk up, matched nothing. */
	if (above && t <= w.n && n3_find(d, c, w.h[t], 1, &v)) {
		*ce = n3_off(&w, t - 1);
		*optout = (v.flags & N3_FLAG_OPTOUT) != 0;
		return DNSSEC_OK;
	}
	return DNSSEC_ENOPROOF;
}

/* The chain, then qname's hash (and whether a record matches it). */
static int n3_start(const struct dnssec_denial *d, struct n3_chain *c,
                    const uint8_t *qname, size_t qlen, uint8_t h[N3_HASH],
                    struct n3_rr *match, int *matched)
{
	int rc = n3_chain(d, c);

	if (rc == DNSSEC_OK)
		rc = n3_hash(d, c, qname, qlen, h);
	if (rc == DNSSEC_OK)
		*matched = n3_find(d, c, h, 0, match);
	return rc;
}

/* The hash of the wildcard at qname's encloser at offset ce. */
static int n3_wildcard(const struct dnssec_denial *d, const struct n3_chain *c,
                       const uint8_t *qname, size_t qlen, size_t ce,
                       uint8_t h[N3_HASH])
{
	uint8_t wc[WIRE_NAME_MAX];
	size_t wl = 0;

	if (denial_wildcard(qname + ce, qlen - ce, wc, &wl) != 0)
		return DNSSEC_ENOPROOF;
	return n3_hash(d, c, wc, wl, h);
}

int denial_nsec3_name(const struct dnssec_denial *d, const uint8_t *qname,
                      size_t qlen)
{
	uint8_t h[N3_HASH];
	struct n3_chain c;
	struct n3_rr v;
	size_t ce = 0;
	int rc, optout = 0;

	rc = n3_chain(d, &c);
	if (rc == DNSSEC_OK)
		rc = n3_encloser(d, &c, qname, qlen, NULL, &ce, &optout);
	if (rc == DNSSEC_OK)
		rc = n3_wildcard(d, &c, qname, qlen, ce, h);
	if (rc != DNSSEC_OK)
		return rc;
	if (!n3_find(d, &c, h, 1, &v))
		return DNSSEC_ENOPROOF;
	return optout ? DNSSEC_EOPTOUT : DNSSEC_OK;
}

int denial_nsec3_type(const struct dnssec_denial *d, const uint8_t *qname,
                      size_t qlen, uint16_t qtype)
{
	uint8_t h[N3_HASH];
	struct n3_chain c;
	struct n3_rr v;
	size_t ce = 0;
	int rc, matched = 0, optout = 0;

	rc = n3_start(d, &c, qname, qlen, h, &v, &matched);
	if (rc != DNSSEC_OK)
		return rc;
	if (matched)
		return denial_nodata(v.bm, v.bmlen, qtype) ? DNSSEC_OK :
		                                             DNSSEC_ENOPROOF;
	rc = n3_encloser(d, &c, qname, qlen, h, &ce, &optout);
	if (rc != DNSSEC_OK)
		return rc;
	if (optout)
		return DNSSEC_EOPTOUT;
	rc = n3_wildcard(d, &c, qname, qlen, ce, h);
	if (rc != DNSSEC_OK)
		return rc;
	if (n3_find(d, &c, h, 0, &v) && denial_nodata(v.bm, v.bmlen, qtype))
		return DNSSEC_OK;
	return DNSSEC_ENOPROOF;
}

int denial_nsec3_expanded(const struct dnssec_denial *d, const uint8_t *qname,
                          size_t qlen, size_t nc_off)
{
	uint8_t h[N3_HASH];
	struct n3_chain c;
	struct n3_rr v;
	int rc = n3_chain(d, &c);

	if (rc == DNSSEC_OK)
		rc = n3_hash(d, &c, qname + nc_off, qlen - nc_off, h);
	if (rc != DNSSEC_OK)
		return rc;
	if (!n3_find(d, &c, h, 1, &v))
		return DNSSEC_ENOPROOF;
	return (v.flags & N3_FLAG_OPTOUT) ? DNSSEC_EOPTOUT : DNSSEC_OK;
}
