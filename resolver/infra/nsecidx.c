/*
 * resolver/infra/nsecidx.c - the index of validated NSEC/NSEC3 records
 * (nsecidx.h): zones in a hash table and an age list, each with its SOA
 * and a canonically sorted array of records; feeding, the byte bound
 * and eviction (lookups: nsecidx_deny.c).
 */
#include "nsecidx_int.h"

#include <stdlib.h>
#include <string.h>

#include "validate/denial.h"
#include "validate/dnssec.h"
#include "wire/answer.h"

/** Offsets in RRSIG RDATA (RFC 4034 section 3.1). */
#define NSECIDX_SIG_ORIGTTL 4
#define NSECIDX_SIG_EXPIRE 8
#define NSECIDX_SIG_FIXED 18
/** Records of a proof image looked at. */
#define NSECIDX_IMG_RECORDS 64

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
	x->bytes -= nsecidx_rec_bytes(r);
	free(r);
}

/* Unlink a zone from its chain and the age list, and free it. */
void nsecidx_zone_drop(struct nsecidx *x, struct nsecidx_zone *z)
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
		nsecidx_zone_drop(x, x->oldest);
	pthread_mutex_destroy(&x->lock);
	free(x);
}

/* Whether a is b or below it (label boundaries, any case). */
static bool name_at_or_below(const uint8_t *a, size_t alen, const uint8_t *b,
                             size_t blen)
{
	size_t pos = 0;

	while (alen - pos > blen && pos < alen && a[pos] != 0)
		pos += (size_t)a[pos] + 1;
	return alen - pos == blen && wire_name_equal(a + pos, blen, b, blen);
}

size_t nsecidx_flush(struct nsecidx *x, const uint8_t *name, size_t len)
{
	struct nsecidx_zone *z, *next;
	size_t n = 0;

	if (x == NULL)
		return 0;
	pthread_mutex_lock(&x->lock);
	for (z = x->oldest; z != NULL; z = next) {
		next = z->newer;
		if (name != NULL &&
		    !name_at_or_below(z->name, z->namelen, name, len) &&
		    !name_at_or_below(name, len, z->name, z->namelen))
			continue;
		nsecidx_zone_drop(x, z);
		n++;
	}
	pthread_mutex_unlock(&x->lock);
	return n;
}

struct nsecidx_zone *nsecidx_zone_find(struct nsecidx *x, const uint8_t *name,
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
	struct nsecidx_zone *z = nsecidx_zone_find(x, name, len);

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
	if (len > x->zone_len_max)
		x->zone_len_max = len;
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
	r->type = type;
	r->ownerlen = ownerlen;
	r->rdlen = rdlen;
	r->siglen = siglen;
	return r;
}

/* Index of the last record whose owner is at or before name; n when
 * every owner is after name (or there is none). */
size_t nsecidx_zone_before(const struct nsecidx_zone *z, const uint8_t *name,
                           size_t len, bool *exact)
{
	size_t lo = 0, hi = z->n;

	*exact = false;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct nsecidx_rec *r = z->rec[mid];
		int c = dnssec_name_cmp(nsecidx_rec_owner(r), r->ownerlen,
		                        name, len);

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

void nsecidx_zone_remove(struct nsecidx *x, struct nsecidx_zone *z, size_t i)
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
			nsecidx_zone_remove(x, z, i);
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
		nsecidx_zone_drop(x, x->oldest);
	return x->bytes + need <= x->max_bytes;
}

/* Insert (or replace) r in z; r is freed when it does not fit. */
static bool zone_insert(struct nsecidx *x, struct nsecidx_zone *z,
                        struct nsecidx_rec *r, time_t now)
{
	bool exact;
	size_t i;

	if (!make_room(x, z, nsecidx_rec_bytes(r) + sizeof(r), now) ||
	    !zone_grow(x, z)) {
		free(r);
		return false;
	}
	i = nsecidx_zone_before(z, nsecidx_rec_owner(r), r->ownerlen, &exact);
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
	x->bytes += nsecidx_rec_bytes(r);
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

/* The hash parameters of an NSEC3 RDATA (RFC 5155 section 3.2) into
 * n3; false when it is malformed. */
static bool n3_params(const uint8_t *rd, size_t len, struct nsecidx_n3 *n3)
{
	size_t saltlen;

	if (len < 5 || (saltlen = rd[4]) + 6 > len)
		return false;
	n3->set = true;
	n3->alg = rd[0];
	n3->iterations = (uint16_t)(rd[2] << 8 | rd[3]);
	memcpy(n3->salt, rd + 5, saltlen);
	n3->saltlen = saltlen;
	return true;
}

/* The NSEC and NSEC3 records of a proof image into z. */
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

		if ((rr.type != WIRE_TYPE_NSEC &&
		     (rr.type != WIRE_TYPE_NSEC3 ||
		      !n3_params(p->img + rr.rdata, rr.rdlen, &z->n3))) ||
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
		if (rr.type == WIRE_TYPE_NSEC || rr.type == WIRE_TYPE_NSEC3)
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
	if (z != NULL && make_room(x, z, nsecidx_rec_bytes(soa), now)) {
		rec_drop(x, z->soa);
		z->soa = soa;
		x->bytes += nsecidx_rec_bytes(soa);
		soa = NULL;
		st = put_nsecs(x, z, p, now);
	}
	if (z != NULL && z->n == 0)
		nsecidx_zone_drop(x, z);
	pthread_mutex_unlock(&x->lock);
	free(soa);
	return st;
}

enum nsecidx_status nsecidx_put_nsecs(struct nsecidx *x, const uint8_t *zone,
                                      size_t zonelen, const uint8_t *img,
                                      size_t imglen, uint32_t ttl_max,
                                      time_t now)
{
	struct nsecidx_proof p = { zone, zonelen, NULL,   0,
		                   0,    img,     imglen, ttl_max };
	enum nsecidx_status st = NSECIDX_ENOMEM;
	struct nsecidx_zone *z;

	if (x == NULL || img == NULL || zone == NULL ||
	    wire_name_check(zone, zonelen) != WIRE_OK || !has_nsec(&p))
		return NSECIDX_EINVAL;
	pthread_mutex_lock(&x->lock);
	z = zone_get(x, zone, zonelen, now);
	if (z != NULL)
		st = put_nsecs(x, z, &p, now);
	if (z != NULL && z->n == 0 && z->soa == NULL)
		nsecidx_zone_drop(x, z);
	pthread_mutex_unlock(&x->lock);
	return st;
}
