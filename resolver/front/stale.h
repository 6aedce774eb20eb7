/*
 * resolver/front/stale.h - serve-stale (RFC 8767) and prefetch decisions, from
 * the cache alone.
 *
 * - stale_answer: when a resolution fails (every server timed out,
 *   refused or failed: SERVFAIL), or is still running after
 *   STALE_CLIENT_TIMEOUT_MS, the server answers from cache data that
 *   expired at most `window` seconds ago, following CNAMEs and DNAMEs
 *   as respond_cache_answer does (answer_chase with
 *   ANSWER_CHASE_STALE); the expired records carry the TTL
 *   STALE_TTL (30 s, RFC 8767 section 4) and the answer the EDE 3,
 *   Stale Answer (RFC 8914). It reads the DNSSEC images too (clients
 *   share the answer; respond_build leaves them out for DO=0), or
 *   without them when they do not fit the buffer.
 * - stale_prefetch_due: after a cache hit, whether the answer is in the
 *   last tenth of its life (Unbound's rule: remaining TTL at most 10 %
 *   of the TTL it was stored with), so the server refreshes it in the
 *   background while the client gets the cached answer.
 *
 * Design notes:
 * - Like respond.c: nothing allocates or touches a socket; the caller
 *   passes its buffers and `now`, so unit tests drive time.
 * - Only data of rank NONAUTH or better answers (never glue or
 *   referral data), as on the hot path.
 * - stale_prefetch_due first reads the smallest TTL in the answer
 *   (a->an_ttl, which answer_chase sets: no walk of the image, whose
 *   RRSIGs would double it; a walk when it is 0 or small); only when
 *   that is within a tenth of the largest TTL the
 *   cache can hold (max_ttl: 8640 s by default) does it ask the cache
 *   for the stored TTL: one more lookup without a copy (about 110 ns
 *   next to 100 ns for the answer itself, measured on one name). Answers
 *   with more than 8640 s left cost no lookup.
 */
#ifndef CURVECACHE_RESOLVER_STALE_H
#define CURVECACHE_RESOLVER_STALE_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "wire/answer.h"

struct cache;

/** TTL of a stale record in an answer (RFC 8767 section 4). */
#define STALE_TTL ANSWER_STALE_TTL
/** Client response timer (RFC 8767 section 5): clients still waiting
 *  for a resolution after this long get stale data, if there is any,
 *  while the resolution goes on. */
#define STALE_CLIENT_TIMEOUT_MS 1800u
/** Prefetch when at most 1/STALE_PREFETCH_SHARE of the TTL is left. */
#define STALE_PREFETCH_SHARE 10u

/** Status codes. */
enum stale_status {
	STALE_OK = 0,
	STALE_EMISS, /**< nothing usable, fresh or within the window */
	STALE_EINVAL /**< bad argument */
};

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *stale_strerror(int status);

/**
 * Answer a question from the cache, expired data included: each RRset
 * or negative entry of the CNAME chain (at most ANSWER_CNAME_MAX links)
 * may be fresh, or expired at most `window` seconds before now; the
 * records of expired entries get TTL STALE_TTL.
 * @param c: the cache.
 * @param lname, lnamelen: the question name, lowercase wire form.
 * @param qtype, qclass: the question.
 * @param now: wall-clock seconds.
 * @param window: how long past its expiry data may be served.
 * @param a: receives the answer, pointing into buf.
 * @param buf, cap: space for the record images.
 * @param used_stale: receives whether any part of it had expired; then
 *   a->ede is set with a->ede_code RESPOND_EDE_STALE (3).
 * @return STALE_OK, STALE_EMISS or STALE_EINVAL.
 */
int stale_answer(struct cache *c, const uint8_t *lname, size_t lnamelen,
                 uint16_t qtype, uint16_t qclass, time_t now, uint32_t window,
                 struct answer *a, uint8_t *buf, size_t cap, bool *used_stale)
	MUST_CHECK;

/**
 * Whether a cache answer should be refreshed now: its record with the
 * least TTL left (or, for a negative answer, the negative entry of the
 * question) has at most 1/STALE_PREFETCH_SHARE of its stored TTL left.
 * @param c: the cache the answer came from.
 * @param a: the answer (respond_cache_answer's); its an_ttl, when not
 *   0, must be the least TTL of its answer section (answer_chase's).
 * @param lname, lnamelen, qtype, qclass: its question (lowercase).
 * @param now: the time the answer was read.
 * @param max_ttl: the cache's max-ttl (no stored TTL is above it).
 * @return true when a refresh is due.
 */
bool stale_prefetch_due(struct cache *c, const struct answer *a,
                        const uint8_t *lname, size_t lnamelen, uint16_t qtype,
                        uint16_t qclass, time_t now, uint32_t max_ttl);

#endif /* CURVECACHE_RESOLVER_STALE_H */
