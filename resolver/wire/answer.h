/*
 * resolver/wire/answer.h - the record image and the answer built of it.
 *
 * A record image is a run of wire RRs with uncompressed owners and TTLs
 * already counted down: what cache_get hands out, what the iterator
 * returns, what local zones, local data, forwarding and stale answers
 * build, and what respond_build writes (compressing owners on the way
 * out). This module owns the format and everything done to it:
 * - struct answer: RCODE, answer and authority images, curve, a
 *   SERVFAIL reason and the least TTL of a chase's answer section (the
 *   one answer type of resolver/);
 * - answer_rr_append: add one record, bounded by the destination;
 * - answer_rr_next: walk the records of an image, bounded by its length
 *   (hostile or truncated bytes end the walk, never overrun), and
 *   answer_rr_owned the same for a record of a known owner;
 * - answer_ttl_set, answer_ttl_min: rewrite and read TTLs in place;
 * - answer_chase: the one walk over the cache for a question, following
 *   CNAMEs and the DNAMEs that synthesize them, fresh or stale, with
 *   answer_read and answer_cname as its steps (the iterator takes one
 *   link at a time with ANSWER_CHASE_ONE_CNAME).
 *
 * Design notes:
 * - Nothing here allocates, touches a socket or reads the clock: the
 *   caller passes its buffers and `now` (the hot path runs through
 *   answer_chase).
 * - Only cache data of rank NONAUTH or better answers; glue and referral
 *   data are misses.
 * - The walk is capped at ANSWER_CNAME_MAX links, so a CNAME loop in the
 *   cache ends as a miss.
 */
#ifndef CURVECACHE_RESOLVER_ANSWER_H
#define CURVECACHE_RESOLVER_ANSWER_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "wire.h"

struct cache;
struct cache_answer;

/** CNAME links followed inside the cache. */
#define ANSWER_CNAME_MAX 12
/** Type, class, TTL and RDLENGTH of a record. */
#define ANSWER_RR_FIXED_BYTES 10
/** TTL of an expired record served stale (RFC 8767 section 4). */
#define ANSWER_STALE_TTL 30u

/** Options of a chase (struct answer_chase, flags). */
#define ANSWER_CHASE_STALE \
	0x1u /**< expired entries within `window` \
	          answer too; their records get \
	          ANSWER_STALE_TTL */
#define ANSWER_CHASE_DNSSEC \
	0x4u /**< read with CACHE_GET_DNSSEC: each \
	          RRset's RRSIGs follow it in the \
	          answer image (the proof of a \
	          wildcard expansion goes to the \
	          authority image), a negative \
	          entry's proof follows its SOA */
#define ANSWER_CHASE_ONE_CNAME \
	0x2u /**< follow only CNAME sets of one \
	          record (the iterator's rule) */

/** Status codes of answer_chase. */
enum answer_status {
	ANSWER_OK = 0,
	ANSWER_EMISS, /**< something along the chain is not cached, or
	                   does not fit the buffer */
	ANSWER_EINVAL /**< bad argument */
};

/** An answer: RCODE and record images (see above). */
struct answer {
	uint8_t rcode;     /**< NOERROR, NXDOMAIN, SERVFAIL, ... */
	const uint8_t *an; /**< answer section images (CNAME chain,
	                        then the final RRset) */
	size_t an_len;
	uint16_t an_count;
	const uint8_t *ns; /**< authority section images (the SOA of a
	                        negative answer, or a referral's NS) */
	size_t ns_len;
	uint16_t ns_count;
	bool curve;           /**< every RRset in it came over DNSCurve
	                           (counted in the statistics, never sent) */
	const char *why;      /**< SERVFAIL reason for the log, or NULL */
	uint8_t sec;          /**< enum cache_sec: the least of its
	                           RRsets' (BOGUS if any is), and
	                           of its proof when negative */
	bool ede;             /**< an Extended DNS Error goes with it */
	uint16_t ede_code;    /**< RFC 8914 INFO-CODE, if ede; without
	                           ede, a BOGUS answer's reason as the
	                           cache kept it (0: none known) */
	const char *ede_text; /**< EXTRA-TEXT (static), or NULL */
	uint32_t an_ttl;      /**< the least TTL in the answer section
	                           (answer_chase sets it, so that the
	                           prefetch check needs no walk); 0:
	                           not known (every other producer,
	                           which zeroes the struct) */
};

/** One record of an image, as offsets into it. */
struct answer_rr {
	size_t owner;
	size_t ownerlen;
	uint16_t type;
	uint16_t rclass;
	uint32_t ttl;
	size_t rdata;
	uint16_t rdlen;
};

/** A walk over the cache: where, when, and how. */
struct answer_chase {
	struct cache *cache;
	uint16_t qclass;
	time_t now;      /**< wall-clock seconds */
	unsigned flags;  /**< ANSWER_CHASE_* */
	uint32_t window; /**< STALE: seconds past expiry still served */
	bool stale_used; /**< out: an expired entry answered */
};

/**
 * Read the record at *pos of an image. The owner must be an
 * uncompressed name and the RDATA must lie inside len.
 * @param img, len: the image.
 * @param pos: in: where the record starts; out: past it (only on true).
 * @param rr: receives the record's fields.
 * @return true when a whole record was read; false at the end of the
 *   image or on bytes that are not a record.
 */
bool answer_rr_next(const uint8_t *img, size_t len, size_t *pos,
                    struct answer_rr *rr) MUST_CHECK;

/**
 * The rest of a record whose owner, ownerlen bytes (0: none), starts at
 * p: the fixed part read in place, then the RDATA, which must end inside
 * len (answer_rr_next and answer_rr_owned end here).
 * @return as answer_rr_next.
 */
static inline bool answer_rr_rest(const uint8_t *img, size_t len, size_t p,
                                  size_t ownerlen, size_t *pos,
                                  struct answer_rr *rr)
{
	const uint8_t *f;

	rr->owner = p;
	rr->ownerlen = ownerlen;
	p += ownerlen;
	if (ownerlen == 0 || len - p < ANSWER_RR_FIXED_BYTES)
		return false;
	f = img + p;
	rr->type = (uint16_t)(f[0] << 8 | f[1]);
	rr->rclass = (uint16_t)(f[2] << 8 | f[3]);
	rr->ttl = (uint32_t)f[4] << 24 | (uint32_t)f[5] << 16 |
	          (uint32_t)f[6] << 8 | f[7];
	rr->rdlen = (uint16_t)(f[8] << 8 | f[9]);
	p += ANSWER_RR_FIXED_BYTES;
	if (len - p < rr->rdlen)
		return false;
	rr->rdata = p;
	*pos = p + rr->rdlen;
	return true;
}

/** Whether a[0..n) and b[0..n) are the same bytes: word by word, the
 *  last word overlapping the one before (an owner is 17 bytes or so: a
 *  call to memcmp costs more than the compare). */
static inline bool answer_same_bytes(const uint8_t *a, const uint8_t *b,
                                     size_t n)
{
	uint64_t x, y;
	size_t i;

	if (n < sizeof x) {
		for (i = 0; i < n; i++)
			if (a[i] != b[i])
				return false;
		return true;
	}
	for (i = 0; i + sizeof x < n; i += sizeof x) {
		memcpy(&x, a + i, sizeof x);
		memcpy(&y, b + i, sizeof y);
		if (x != y)
			return false;
	}
	memcpy(&x, a + n - sizeof x, sizeof x);
	memcpy(&y, b + n - sizeof y, sizeof y);
	return x == y;
}

/**
 * answer_rr_next for a record owned by a known name: the bytes at *pos
 * are compared with the name, not scanned (the reply writer reads
 * mostly records of the question name this way). Inline: on a cache hit
 * it runs once per record of the answer, and the caller's unused fields
 * cost nothing then.
 * @param name, namelen: an uncompressed wire name (checked by the
 *   caller: its bytes are trusted to end in its root label).
 * @return true, as answer_rr_next, when the record at *pos is whole and
 *   its owner is byte for byte the name; false otherwise, with *pos
 *   unchanged (answer_rr_next then reads a record of any other owner).
 */
static inline bool answer_rr_owned(const uint8_t *img, size_t len, size_t *pos,
                                   const uint8_t *name, size_t namelen,
                                   struct answer_rr *rr)
{
	size_t p = *pos;

	/* namelen 0 compares equal, and answer_rr_rest refuses it. */
	if (img == NULL || p >= len || len - p < namelen ||
	    !answer_same_bytes(img + p, name, namelen))
		return false;
	return answer_rr_rest(img, len, p, namelen, pos, rr);
}

/**
 * Append one record image to buf[*len..cap).
 * @param owner, ownerlen: the owner, uncompressed wire form.
 * @param rdata, rdlen: the RDATA, as it goes on the wire.
 * @return true, with *len moved past it; false (buf and *len unchanged)
 *   when it does not fit, rdlen is over 65535 or *len is past cap.
 */
bool answer_rr_append(uint8_t *buf, size_t cap, size_t *len,
                      const uint8_t *owner, size_t ownerlen, uint16_t type,
                      uint16_t rclass, uint32_t ttl, const uint8_t *rdata,
                      size_t rdlen) MUST_CHECK;

/**
 * Set the TTL of every record of an image. Stops at the first bytes
 * that are not a record.
 */
void answer_ttl_set(uint8_t *img, size_t len, uint32_t ttl);

/**
 * The record with the least TTL of an image (the first of equals).
 * @return true with *least filled; false when the image is empty or
 *   holds bytes that are not a record.
 */
bool answer_ttl_min(const uint8_t *img, size_t len, struct answer_rr *least)
	MUST_CHECK;

/**
 * One cache read of (name, type) for a chase: a hit of rank NONAUTH or
 * better, fresh, or (ANSWER_CHASE_STALE) expired at most ch->window
 * seconds ago, whose records then get ANSWER_STALE_TTL and which sets
 * ch->stale_used.
 * @param name, len: lowercase wire name.
 * @param ans: receives the cache's answer; the records go to buf.
 * @return true on such a hit; false otherwise (buf unspecified).
 */
bool answer_read(struct answer_chase *ch, const uint8_t *name, size_t len,
                 uint16_t type, struct cache_answer *ans, uint8_t *buf,
                 size_t cap) MUST_CHECK;

/**
 * One link of a chase: the CNAME RRset cached at name (as answer_read;
 * ANSWER_CHASE_ONE_CNAME: of exactly one record) and its target.
 * @param ans: receives the cache's answer; the CNAME image goes to buf.
 * @param target, tlen: receive the first record's target, lowercased.
 * @return true when there is such a CNAME; false otherwise.
 */
bool answer_cname(struct answer_chase *ch, const uint8_t *name, size_t len,
                  struct cache_answer *ans, uint8_t *buf, size_t cap,
                  uint8_t target[WIRE_NAME_MAX], size_t *tlen) MUST_CHECK;

/**
 * The DNAME that synthesizes a CNAME link (RFC 6672 section 3.1: an
 * answer carries it before the CNAME): the CNAME image for name ->
 * target sits at buf[0..clen); when a cached DNAME at a proper ancestor
 * of name maps it to target, its image (with ANSWER_CHASE_DNSSEC, its
 * RRSIGs too) is moved in front of it, within buf[0..cap).
 * @param count, sec, curve: receive its records, status and provenance.
 * @return the DNAME image's bytes, 0 when there is none.
 */
size_t answer_dname_before(struct answer_chase *ch, const uint8_t *name,
                           size_t nlen, const uint8_t *target, size_t tlen,
                           uint8_t *buf, size_t clen, size_t cap,
                           uint16_t *count, uint8_t *sec, bool *curve);

/** Records of a DNSSEC image below which it holds only the RRset's
 *  RRSIGs: a wildcard proof adds an NSEC/NSEC3 record and its RRSIG to
 *  at least one RRSIG of the RRset. */
#define ANSWER_PROOF_MIN_RRS 3

/** Where a read's DNSSEC image splits (answer_dnssec_split). */
struct answer_split {
	size_t sig_len;     /**< bytes of the RRSIGs covering the RRset */
	uint16_t sig_count; /**< their records */
};

/**
 * Split the DNSSEC image of an RRset read (img: the RRs, ans->len
 * bytes, then the image, ans->dnssec_len bytes): the leading RRSIGs
 * owned by the RRset's owner go with the RRset to the answer section,
 * the rest (the NSEC/NSEC3 records proving a wildcard expansion, and
 * their RRSIGs, RFC 4035 section 3.1.3.3) to the authority section.
 * An image of fewer than ANSWER_PROOF_MIN_RRS records, or a negative
 * entry's, is not walked: all of it is sig_len.
 */
void answer_dnssec_split(const struct cache_answer *ans, const uint8_t *img,
                         struct answer_split *sp);

/**
 * Fill *a with the last link of a chase: the RRset the cache gave
 * (written after the chain's `used` bytes of buf) with its RRSIGs, and
 * the proof of its wildcard expansion, if cached, as the authority
 * section (answer_dnssec_split); or for a negative entry its SOA (and
 * proof) as the authority section and NXDOMAIN/NOERROR.
 * @param an: records of the chain so far in buf[0..used).
 * @param curve: every link so far came over DNSCurve.
 */
void answer_from_cache(const struct cache_answer *ans, uint8_t *buf,
                       size_t used, uint16_t an, bool curve, struct answer *a);

/**
 * Answer a question from the cache alone, following CNAMEs (at most
 * ANSWER_CNAME_MAX links; a loop ends as a miss); when a cached DNAME
 * of a proper ancestor synthesizes a CNAME of the chain, the DNAME RRset
 * comes before it (RFC 6672 3.1). Every read is answer_read's.
 * @param lname, lnamelen: the question name, lowercase.
 * @param a: receives the answer, pointing into buf, with an_ttl: every
 *   image of a read carries one TTL (the entry's, or ANSWER_STALE_TTL),
 *   so the least of the reads that went to the answer section is the
 *   least TTL of its records (0 when it has none).
 * @param buf, cap: space for the record images.
 * @return ANSWER_OK, ANSWER_EMISS or ANSWER_EINVAL.
 */
int answer_chase(struct answer_chase *ch, const uint8_t *lname,
                 size_t lnamelen, uint16_t qtype, struct answer *a,
                 uint8_t *buf, size_t cap) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_ANSWER_H */
