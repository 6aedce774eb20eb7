/*
 * resolver/infra/nsecidx.c - the index of validated NSEC records
 * (nsecidx.h): zones in a hash table and an age list, each with its SOA
 * and a canonically sorted array of records; the lookup picks candidate
 * records by binary search and lets validate/denial.c prove.
 */
#include "nsecidx.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "validate/denial.h"
#include "validate/dnssec.h"
#include "wire/answer.h"
#include "wire/wire.h"

/** Hash buckets of zone names. */
#define NSECIDX_BUCKETS 1024u
/** Offsets in RRSIG RDATA (RFC 4034 section 3.1). */
#define NSECIDX_SIG_ORIGTTL 4
#define NSECIDX_SIG_EXPIRE 8
#define NSECIDX_SIG_FIXED 18
/** Offset of the MINIMUM field from the end of SOA RDATA. */
#define NSECIDX_SOA_MINIMUM_FROM_END 4
/** Records of a proof image looked at. */
#define NSECIDX_IMG_RECORDS 64

/* One record: owner, RDATA and the image of its RRSIGs, in data[]. */
struct nsecidx_rec {
	time_t expire;
	size_t ownerlen, rdlen, siglen;
	uint8_t data[];
};

struct nsecidx_zone {
	struct nsecidx_zone *hnext;         /* hash chain */
	struct nsecidx_zone *older, *newer; /* age list */
	uint8_t name[WIRE_NAME_MAX];
	size_t namelen;
	unsigned bucket;
	struct nsecidx_rec *soa;
	struct nsecidx_rec **rec; /* sorted by owner */
	size_t n, cap;
};

struct nsecidx {
	pthread_mutex_t lock;
	size_t max_bytes, bytes, nzones, nrec;
	struct nsecidx_zone *bucket[NSECIDX_BUCKETS];
	struct nsecidx_zone *oldest, *newest;
};

static const uint8_t *rec_owner(const struct nsecidx_rec *r)
{
	return r->data;
}

static const uint8_t *rec_rdata(const struct nsecidx_rec *r)
{
	return r->data + r->ownerlen;
}

static const uint8_t *rec_sigs(const struct nsecidx_rec *r)
{
	return r->data + r->ownerlen + r->rdlen;
}

static size_t rec_bytes(const struct nsecidx_rec *r)
{
	return sizeof(*r) + r->ownerlen + r->rdlen + r->siglen;
}

enum nsecidx_status nsecidx_new(size_t max_bytes, struct nsecidx **out)
{
	struct nsecidx *x;

	if (out == NULL)
		return NSECIDX_EINVAL;
	*out = NULL;
	x = calloc(1, sizeof(*x));
	if (x == NULL)
		return NSECIDX_ENOMEM;
	if (pthread_mutex_init(&x->lock, NULL) != 0) {
		free(x);
		return NSECIDX_ENOMEM;
	}
	x->max_bytes = max_bytes > 0 ? max_bytes : NSECIDX_BYTES_DEFAULT;
	*out = x;
	return NSECIDX_OK;
}

static unsigned name_bucket(const uint8_t *name, size_t len)
{
	uint32_t h = 2166136261u;
	size_t i;

	for (i = 0; i < len; i++) {
		uint8_t c = name[i];

		h = (h ^ (c >= 'A' && c <= 'Z' ? c + 32u : c)) * 16777619u;
	}
	return h % NSECIDX_BUCKETS;
}

static void rec_drop(struct nsecidx *x, struct nsecidx_rec *r)
{
	if (r == NULL)
		return;
	x->bytes -= rec_bytes(r);
	free(r);
}

/* Unlink a zone from its chain and the age list, and free it. */
static void zone_drop(struct nsecidx *x, struct nsecidx_zone *z)
{
	struct nsecidx_zone **pp = &x->bucket[z->bucket];
	size_t i;

	while (*pp != NULL && *pp != z)
		pp = &(*pp)->hnext;
	if (*pp == z)
		*pp = z->hnext;
	if (z->older != NULL)
		z->older->newer = z->newer;
	else
		x->oldest = z->newer;
	if (z->newer != NULL)
		z->newer->older = z->older;
	else
		x->newest = z->older;
	for (i = 0; i < z->n; i++)
		rec_drop(x, z->rec[i]);
	x->nrec -= z->n;
	rec_drop(x, z->soa);
	x->bytes -= sizeof(*z) + z->cap * sizeof(*z->rec);
	x->nzones--;
	free(z->rec);
	free(z);
}

void nsecidx_free(struct nsecidx *x)
{
	if (x == NULL)
		return;
	while (x->oldest != NULL)
		zone_drop(x, x->oldest);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

static struct nsecidx_zone *zone_find(struct nsecidx *x, const uint8_t *name,
                                      size_t len)
{
	struct nsecidx_zone *z = x->bucket[name_bucket(name, len)];

	while (z != NULL && !wire_name_equal(z->name, z->namelen, name, len))
		z = z->hnext;
	return z;
}

/* Make z the newest zone. */
static void zone_touch(struct nsecidx *x, struct nsecidx_zone *z)
{
	if (x->newest == z)
		return;
	if (z->older != NULL)
		z->older->newer = z->newer;
	else
		x->oldest = z->newer;
	z->newer->older = z->older;
	z->older = x->newest;
	z->newer = NULL;
	x->newest->newer = z;
	x->newest = z;
}

static bool make_room(struct nsecidx *x, struct nsecidx_zone *z, size_t need,
                      time_t now);

static struct nsecidx_zone *zone_get(struct nsecidx *x, const uint8_t *name,
                                     size_t len, time_t now)
{
	struct nsecidx_zone *z = zone_find(x, name, len);

	if (z != NULL) {
		zone_touch(x, z);
		return z;
	}
	if (!make_room(x, NULL, sizeof(*z), now) ||
	    (z = calloc(1, sizeof(*z))) == NULL)
		return NULL;
	memcpy(z->name, name, len);
	z->namelen = len;
	wire_name_lower(z->name, len);
	z->bucket = name_bucket(name, len);
	z->hnext = x->bucket[z->bucket];
	x->bucket[z->bucket] = z;
	z->older = x->newest;
	if (x->newest != NULL)
		x->newest->newer = z;
	else
		x->oldest = z;
	x->newest = z;
	x->bytes += sizeof(*z);
	x->nzones++;
	return z;
}

/* Seconds a signature has left (its original TTL and expiration), or
 * 0 when it has expired or is malformed. */
static uint32_t sig_left(const uint8_t *rd, size_t len, time_t now)
{
	uint32_t orig, exp;
	int64_t left;

	if (len < NSECIDX_SIG_FIXED)
		return 0;
	orig = (uint32_t)rd[NSECIDX_SIG_ORIGTTL] << 24 |
	       (uint32_t)rd[NSECIDX_SIG_ORIGTTL + 1] << 16 |
	       (uint32_t)rd[NSECIDX_SIG_ORIGTTL + 2] << 8 |
	       rd[NSECIDX_SIG_ORIGTTL + 3];
	exp = (uint32_t)rd[NSECIDX_SIG_EXPIRE] << 24 |
	      (uint32_t)rd[NSECIDX_SIG_EXPIRE + 1] << 16 |
	      (uint32_t)rd[NSECIDX_SIG_EXPIRE + 2] << 8 |
	      rd[NSECIDX_SIG_EXPIRE + 3];
	/* RFC 1982 serial arithmetic against the 32-bit clock */
	left = (int32_t)(exp - (uint32_t)now);
	if (left <= 0)
		return 0;
	return (uint64_t)left < orig ? (uint32_t)left : orig;
}

/* A record with the RRSIGs over (owner, type) of an image; its expiry
 * the least of ttl and the signatures'. NULL: none signed, no memory. */
static struct nsecidx_rec *rec_make(const uint8_t *img, size_t imglen,
                                    const uint8_t *owner, size_t ownerlen,
                                    uint16_t type, const uint8_t *rd,
                                    size_t rdlen, uint32_t ttl, time_t now)
{
	struct nsecidx_rec *r;
	struct answer_rr rr;
	size_t pos = 0, n, siglen = 0;
	uint32_t least = ttl;

	r = malloc(sizeof(*r) + ownerlen + rdlen + imglen);
	if (r == NULL)
		return NULL;
	memcpy(r->data, owner, ownerlen);
	wire_name_lower(r->data, ownerlen);
	memcpy(r->data + ownerlen, rd, rdlen);
	for (n = 0;
	     n < NSECIDX_IMG_RECORDS && answer_rr_next(img, imglen, &pos, &rr);
	     n++) {
		const uint8_t *s = img + rr.rdata;
		uint32_t left = sig_left(s, rr.rdlen, now);

		if (rr.type != WIRE_TYPE_RRSIG || left == 0 ||
		    (uint16_t)(s[0] << 8 | s[1]) != type ||
		    !wire_name_equal(img + rr.owner, rr.ownerlen, owner,
		                     ownerlen) ||
		    !answer_rr_append(r->data + ownerlen + rdlen, imglen,
		                      &siglen, owner, ownerlen, rr.type,
		                      rr.rclass, 0, s, rr.rdlen))
			continue;
		if (left < least)
			least = left;
	}
	if (siglen == 0 || least == 0) {
		free(r);
		return NULL;
	}
	r->expire = now + (time_t)least;
	r->ownerlen = ownerlen;
	r->rdlen = rdlen;
	r->siglen = siglen;
	return r;
}

/* Index of the last record whose owner is at or before name; n when
 * every owner is after name (or there is none). */
static size_t zone_before(const struct nsecidx_zone *z, const uint8_t *name,
                          size_t len, bool *exact)
{
	size_t lo = 0, hi = z->n;

	*exact = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct nsecidx_rec *r = z->rec[mid];
		int c = dnssec_name_cmp(rec_owner(r), r->ownerlen, name, len);

		if (c == 0) {
			*exact = true;
			return mid;
		}
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo == 0 ? z->n : lo - 1;
}

/* Room for one more pointer in z->rec (counted in x->bytes). */
static bool zone_grow(struct nsecidx *x, struct nsecidx_zone *z)
{
	size_t cap = z->cap > 0 ? z->cap * 2 : 8;
	struct nsecidx_rec **p;

	if (z->n < z->cap)
		return true;
	if (x->bytes + (cap - z->cap) * sizeof(*p) > x->max_bytes ||
	    (p = realloc(z->rec, cap * sizeof(*p))) == NULL)
		return false;
	x->bytes += (cap - z->cap) * sizeof(*p);
	z->rec = p;
	z->cap = cap;
	return true;
}

static void zone_remove(struct nsecidx *x, struct nsecidx_zone *z, size_t i)
{
	rec_drop(x, z->rec[i]);
	memmove(&z->rec[i], &z->rec[i + 1], (z->n - i - 1) * sizeof(*z->rec));
	z->n--;
	x->nrec--;
}

/* Drop the expired records of z. */
static void zone_sweep(struct nsecidx *x, struct nsecidx_zone *z, time_t now)
{
	size_t i = 0;

	while (i < z->n)
		if (z->rec[i]->expire <= now)
			zone_remove(x, z, i);
		else
			i++;
}

/* Make room for need bytes: z's expired records, then the zones fed
 * longest ago (never z). */
static bool make_room(struct nsecidx *x, struct nsecidx_zone *z, size_t need,
                      time_t now)
{
	if (x->bytes + need <= x->max_bytes)
		return true;
	if (z != NULL)
		zone_sweep(x, z, now);
	while (x->bytes + need > x->max_bytes && x->oldest != NULL &&
	       x->oldest != z)
		zone_drop(x, x->oldest);
	return x->bytes + need <= x->max_bytes;
}

/* Insert (or replace) r in z; r is freed when it does not fit. */
static bool zone_insert(struct nsecidx *x, struct nsecidx_zone *z,
                        struct nsecidx_rec *r, time_t now)
{
	bool exact;
	size_t i;

	if (!make_room(x, z, rec_bytes(r) + sizeof(r), now) ||
	    !zone_grow(x, z)) {
		free(r);
		return false;
	}
	i = zone_before(z, rec_owner(r), r->ownerlen, &exact);
	if (exact) {
		rec_drop(x, z->rec[i]);
		z->rec[i] = r;
	} else {
		i = i == z->n ? 0 : i + 1;
		memmove(&z->rec[i + 1], &z->rec[i],
		        (z->n - i) * sizeof(*z->rec));
		z->rec[i] = r;
		z->n++;
		x->nrec++;
	}
	x->bytes += rec_bytes(r);
	return true;
}

/* Whether name is zone or below it (a valid wire name). */
static bool name_under(const uint8_t *name, size_t len, const uint8_t *zone,
                       size_t zonelen)
{
	size_t pos = 0;

	if (wire_name_check(name, len) != WIRE_OK)
		return false;
	while (len - pos > zonelen && name[pos] != 0)
		pos += 1 + (size_t)name[pos];
	return len - pos == zonelen &&
	       wire_name_equal(name + pos, zonelen, zone, zonelen);
}

/* The NSEC records of a proof image into z. */
static enum nsecidx_status put_nsecs(struct nsecidx *x, struct nsecidx_zone *z,
                                     const struct nsecidx_proof *p, time_t now)
{
	enum nsecidx_status st = NSECIDX_EINVAL;
	struct answer_rr rr;
	size_t pos = 0, n;

	for (n = 0; n < NSECIDX_IMG_RECORDS &&
	            answer_rr_next(p->img, p->imglen, &pos, &rr);
	     n++) {
		const uint8_t *owner = p->img + rr.owner;
		uint32_t ttl = rr.ttl;
		struct nsecidx_rec *r;

		if (rr.type != WIRE_TYPE_NSEC ||
		    !name_under(owner, rr.ownerlen, z->name, z->namelen))
			continue;
		if (p->ttl_max > 0 && ttl > p->ttl_max)
			ttl = p->ttl_max;
		r = rec_make(p->img, p->imglen, owner, rr.ownerlen, rr.type,
		             p->img + rr.rdata, rr.rdlen, ttl, now);
		if (r == NULL)
			continue;
		if (!zone_insert(x, z, r, now))
			return NSECIDX_ENOMEM;
		st = NSECIDX_OK;
	}
	return st;
}

/* Whether a proof image holds an NSEC record (else nothing to keep). */
static bool has_nsec(const struct nsecidx_proof *p)
{
	struct answer_rr rr;
	size_t pos = 0, n;

	for (n = 0; n < NSECIDX_IMG_RECORDS &&
	            answer_rr_next(p->img, p->imglen, &pos, &rr);
	     n++)
		if (rr.type == WIRE_TYPE_NSEC)
			return true;
	return false;
}

enum nsecidx_status
nsecidx_put_proof(struct nsecidx *x, const struct nsecidx_proof *p, time_t now)
{
	enum nsecidx_status st = NSECIDX_ENOMEM;
	struct nsecidx_zone *z;
	struct nsecidx_rec *soa;
	uint32_t ttl;

	if (x == NULL || p == NULL || p->img == NULL || p->soa == NULL ||
	    p->soalen < NSECIDX_SOA_MINIMUM_FROM_END ||
	    wire_name_check(p->zone, p->zonelen) != WIRE_OK || !has_nsec(p))
		return NSECIDX_EINVAL;
	ttl = p->ttl_max > 0 && p->soa_ttl > p->ttl_max ? p->ttl_max :
	                                                  p->soa_ttl;
	soa = rec_make(p->img, p->imglen, p->zone, p->zonelen, WIRE_TYPE_SOA,
	               p->soa, p->soalen, ttl, now);
	if (soa == NULL)
		return NSECIDX_EINVAL;
	pthread_mutex_lock(&x->lock);
	z = zone_get(x, p->zone, p->zonelen, now);
	if (z != NULL && make_room(x, z, rec_bytes(soa), now)) {
		rec_drop(x, z->soa);
		z->soa = soa;
		x->bytes += rec_bytes(soa);
		soa = NULL;
		st = put_nsecs(x, z, p, now);
	}
	if (z != NULL && z->n == 0)
		zone_drop(x, z);
	pthread_mutex_unlock(&x->lock);
	free(soa);
	return st;
}

/* ------------------------------------------------------------------ */
/* Lookup                                                              */

/* The records a lookup offers the proof. */
struct nsecidx_cand {
	const struct nsecidx_rec *rec[NSECIDX_CANDIDATES];
	struct dnssec_nsec rr[NSECIDX_CANDIDATES];
	bool off[NSECIDX_CANDIDATES]; /* left out by the pruning */
	size_t n;
};

/* The closest zone of name (or of its parent) with a live SOA. */
static struct nsecidx_zone *find_zone(struct nsecidx *x, const uint8_t *name,
                                      size_t len, bool parent, time_t now)
{
	size_t pos = 0;

	if (parent && len > 1)
		pos = 1 + (size_t)name[0];
	while (pos < len) {
		struct nsecidx_zone *z = zone_find(x, name + pos, len - pos);

		if (z != NULL && z->soa->expire <= now) {
			zone_drop(x, z);
			z = NULL;
		}
		if (z != NULL)
			return z;
		if (name[pos] == 0)
			break;
		pos += 1 + (size_t)name[pos];
	}
	return NULL;
}

/* Add the live record at or before name (the last one when none is:
 * it wraps to the apex); expired ones met are dropped. */
static void cand_add(struct nsecidx *x, struct nsecidx_zone *z,
                     struct nsecidx_cand *c, const uint8_t *name, size_t len,
                     time_t now)
{
	const struct nsecidx_rec *r = NULL;
	bool exact;
	size_t i;

	while (z->n > 0 && c->n < NSECIDX_CANDIDATES) {
		i = zone_before(z, name, len, &exact);
		if (i == z->n)
			i = z->n - 1;
		if (z->rec[i]->expire > now) {
			r = z->rec[i];
			break;
		}
		zone_remove(x, z, i);
	}
	if (r == NULL)
		return;
	for (i = 0; i < c->n; i++)
		if (c->rec[i] == r)
			return;
	c->rec[c->n] = r;
	c->rr[c->n] = (struct dnssec_nsec){ rec_owner(r), r->ownerlen,
		                            WIRE_TYPE_NSEC, rec_rdata(r),
		                            r->rdlen };
	c->n++;
}

/* The candidates for qname: at or before it, and at or before the
 * wildcard of each ancestor inside the zone, closest first. */
static void cand_collect(struct nsecidx *x, struct nsecidx_zone *z,
                         struct nsecidx_cand *c, const uint8_t *qname,
                         size_t qlen, time_t now)
{
	uint8_t wc[WIRE_NAME_MAX];
	size_t pos = 0;

	c->n = 0;
	cand_add(x, z, c, qname, qlen, now);
	while (qlen - pos > z->namelen && qname[pos] != 0) {
		pos += 1 + (size_t)qname[pos];
		if (qlen - pos + 2 > WIRE_NAME_MAX)
			continue;
		wc[0] = 1;
		wc[1] = '*';
		memcpy(wc + 2, qname + pos, qlen - pos);
		cand_add(x, z, c, wc, qlen - pos + 2, now);
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
	unsigned hashes = 0;
	size_t i, n = 0;

	for (i = 0; i < c->n; i++)
		if (!c->off[i])
			rr[n++] = c->rr[i];
	d = (struct dnssec_denial){ rr, n, z->name, z->namelen, 0, &hashes };
	if (dnssec_deny_type(&d, qname, qlen, qtype) == DNSSEC_OK)
		return NSECIDX_NODATA;
	if (dnssec_deny_name(&d, qname, qlen) == DNSSEC_OK)
		return NSECIDX_NXDOMAIN;
	return NSECIDX_NONE;
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

static uint32_t left_of(const struct nsecidx_rec *r, time_t now)
{
	return r->expire - now > UINT32_MAX ? UINT32_MAX :
	                                      (uint32_t)(r->expire - now);
}

/* One record and its RRSIGs into the answer, each with ttl. */
static bool emit(struct nsecidx_answer *out, const struct nsecidx_rec *r,
                 uint16_t type, uint32_t ttl)
{
	struct answer_rr rr;
	size_t pos = 0;

	if (!answer_rr_append(out->buf, out->cap, &out->len, rec_owner(r),
	                      r->ownerlen, type, WIRE_CLASS_IN, ttl,
	                      rec_rdata(r), r->rdlen))
		return false;
	out->count++;
	while (answer_rr_next(rec_sigs(r), r->siglen, &pos, &rr)) {
		if (!answer_rr_append(out->buf, out->cap, &out->len,
		                      rec_owner(r), r->ownerlen,
		                      WIRE_TYPE_RRSIG, WIRE_CLASS_IN, ttl,
		                      rec_sigs(r) + rr.rdata, rr.rdlen))
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
	const uint8_t *mp = rec_rdata(soa) + soa->rdlen -
	                    NSECIDX_SOA_MINIMUM_FROM_END;
	uint32_t ttl = left_of(soa, now), min;
	size_t i;

	min = (uint32_t)mp[0] << 24 | (uint32_t)mp[1] << 16 |
	      (uint32_t)mp[2] << 8 | mp[3];
	if (min < ttl)
		ttl = min;
	if (ttl_max > 0 && ttl > ttl_max)
		ttl = ttl_max;
	for (i = 0; i < c->n; i++)
		if (!c->off[i] && left_of(c->rec[i], now) < ttl)
			ttl = left_of(c->rec[i], now);
	out->ttl = ttl;
	if (!emit(out, soa, WIRE_TYPE_SOA, ttl))
		return false;
	for (i = 0; i < c->n; i++) {
		uint32_t t = left_of(c->rec[i], now);

		if (ttl_max > 0 && t > ttl_max)
			t = ttl_max;
		if (!c->off[i] && !emit(out, c->rec[i], WIRE_TYPE_NSEC, t))
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
	z = find_zone(x, qname, qlen, qtype == WIRE_TYPE_DS, now);
	if (z != NULL) {
		cand_collect(x, z, &c, qname, qlen, now);
		v = prove(z, &c, qname, qlen, qtype);
	}
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
