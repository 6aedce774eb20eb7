/*
 * resolver/infra/nsecidx_int.h - the inside of the NSEC index, shared by
 * nsecidx.c (tables, feeding, eviction) and nsecidx_deny.c (lookups).
 * Every function here is called with the index's mutex held.
 */
#ifndef CURVECACHE_RESOLVER_NSECIDX_INT_H
#define CURVECACHE_RESOLVER_NSECIDX_INT_H

#include "nsecidx.h"

#include <pthread.h>

#include "wire/wire.h"

/** Hash buckets of zone names. */
#define NSECIDX_BUCKETS 1024u
/** Longest NSEC3 salt (its length is one byte). */
#define NSECIDX_SALT_MAX 255
/** Offset of the MINIMUM field from the end of SOA RDATA. */
#define NSECIDX_SOA_MINIMUM_FROM_END 4

/* One record: owner, RDATA and the image of its RRSIGs, in data[]. */
struct nsecidx_rec {
	time_t expire;
	uint16_t type; /* WIRE_TYPE_NSEC or NSEC3 (SOA for a zone's) */
	size_t ownerlen, rdlen, siglen;
	uint8_t data[];
};

/* The NSEC3 parameters of a zone, from the last NSEC3 record fed. */
struct nsecidx_n3 {
	bool set;
	uint8_t alg;
	uint16_t iterations;
	uint8_t salt[NSECIDX_SALT_MAX];
	size_t saltlen;
};

struct nsecidx_zone {
	struct nsecidx_zone *hnext;         /* hash chain */
	struct nsecidx_zone *older, *newer; /* age list */
	uint8_t name[WIRE_NAME_MAX];
	size_t namelen;
	unsigned bucket;
	struct nsecidx_rec *soa;  /* NULL: known from wildcard proofs only */
	struct nsecidx_rec **rec; /* sorted by owner (NSEC3: by hash) */
	size_t n, cap;
	struct nsecidx_n3 n3;
};

struct nsecidx {
	pthread_mutex_t lock;
	size_t max_bytes, bytes, nzones, nrec;
	size_t zone_len_max; /* no zone's name is longer (may be none) */
	struct nsecidx_zone *bucket[NSECIDX_BUCKETS];
	struct nsecidx_zone *oldest, *newest;
};

static inline const uint8_t *nsecidx_rec_owner(const struct nsecidx_rec *r)
{
	return r->data;
}

static inline const uint8_t *nsecidx_rec_rdata(const struct nsecidx_rec *r)
{
	return r->data + r->ownerlen;
}

static inline const uint8_t *nsecidx_rec_sigs(const struct nsecidx_rec *r)
{
	return r->data + r->ownerlen + r->rdlen;
}

static inline size_t nsecidx_rec_bytes(const struct nsecidx_rec *r)
{
	return sizeof(*r) + r->ownerlen + r->rdlen + r->siglen;
}

/* The MINIMUM field of a SOA record (its RDATA was checked long enough
 * when fed). */
static inline uint32_t nsecidx_soa_min(const struct nsecidx_rec *soa)
{
	const uint8_t *p = nsecidx_rec_rdata(soa) + soa->rdlen -
	                   NSECIDX_SOA_MINIMUM_FROM_END;

	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

/* The zone named exactly name, or NULL. */
struct nsecidx_zone *nsecidx_zone_find(struct nsecidx *x, const uint8_t *name,
                                       size_t len);
/* Unlink and free a zone with its records. */
void nsecidx_zone_drop(struct nsecidx *x, struct nsecidx_zone *z);
/* Index of the last record whose owner is at or before name (*exact:
 * equal); z->n when every owner is after name. */
size_t nsecidx_zone_before(const struct nsecidx_zone *z, const uint8_t *name,
                           size_t len, bool *exact);
/* Drop record i of z. */
void nsecidx_zone_remove(struct nsecidx *x, struct nsecidx_zone *z, size_t i);

/* nsecidx_deny.c */
/* The closest zone of name (parent: of its parent) in the index;
 * need_soa: the closest with a SOA. A zone whose SOA expired is dropped
 * on the way. */
struct nsecidx_zone *nsecidx_zone_closest(struct nsecidx *x,
                                          const uint8_t *name, size_t len,
                                          bool parent, bool need_soa,
                                          time_t now);
/* The live record of z at or before name (the last one when none is: it
 * wraps to the apex), or NULL; expired ones met are dropped. */
const struct nsecidx_rec *nsecidx_zone_at(struct nsecidx *x,
                                          struct nsecidx_zone *z,
                                          const uint8_t *name, size_t len,
                                          time_t now);
/* Seconds a record has left at now. */
uint32_t nsecidx_rec_left(const struct nsecidx_rec *r, time_t now);
/* Append a record and its RRSIGs to an answer image, each with ttl;
 * false when it does not fit. */
bool nsecidx_rec_emit(struct nsecidx_answer *out, const struct nsecidx_rec *r,
                      uint32_t ttl);

#endif /* CURVECACHE_RESOLVER_NSECIDX_INT_H */
