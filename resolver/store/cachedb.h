/*
 * resolver/store/cachedb.h - the record image of the shared cache tier on
 * Redis (cachedb-backend: redis; issue 26): what one member of a fleet
 * writes after a resolution and every member may read on a local miss.
 *
 * The value of a Redis key is the cache's own text (cachefile.h: the
 * header line, then each entry that answers the question, with its
 * rank, provenance, DNSSEC status and DNSSEC image) inside a versioned
 * binary header and followed by a MAC:
 *
 *   "CCDB" VERSION(1) SEC(1) RCODE(1) FLAGS(1) WRITTEN(8) EXPIRES(8)
 *   QTYPE(2) QCLASS(2) QNAMELEN(1) QNAME TEXTLEN(4) TEXT MAC(32)
 *
 * (numbers big-endian; SEC is the answer's enum cache_sec, FLAGS 0;
 * WRITTEN and EXPIRES Unix seconds; QNAME lowercase wire form; MAC the
 * keyed BLAKE2b-256, libsodium crypto_generichash, of every byte before
 * it under the fleet key of cachedb-secret-file, as the cache file's
 * trailer, persist.h).
 *
 * Design notes:
 * - Redis is shared, so its bytes are hostile: cachedb_image_parse takes
 *   (buf, len) and reads nothing past it; a record of another version,
 *   with a bad MAC, expired, or for another question is refused (the
 *   caller counts it) and never reaches the cache. The text then goes
 *   through the cachefile loader, which checks every record against its
 *   type, as a load_cache does. So only a member holding the secret can
 *   make another member believe a record, its DNSSEC status (AD) or its
 *   DNSCurve provenance.
 * - The key names the question, not the data: "curvecache:" and the hex
 *   of a keyed BLAKE2b-128 of (qname, qtype, qclass, flags), so two
 *   fleets with other secrets sharing one Redis never meet. CD does not
 *   split the key: the entries carry their status, and the local cache
 *   decides, as for its own data, what a CD=0 client sees.
 * - Writing reads the cache the way a client hit does (answer_chase:
 *   the CNAME/DNAME chain and the final RRset or negative entry), one
 *   cache_get per entry, never a walk over the cache.
 */
#ifndef CURVECACHE_RESOLVER_CACHEDB_H
#define CURVECACHE_RESOLVER_CACHEDB_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "cachefile.h"

struct cache;

/** The image's first bytes and its format version. */
#define CACHEDB_MAGIC "CCDB"
#define CACHEDB_MAGIC_BYTES 4
#define CACHEDB_VERSION 1
/** Bytes of the fleet key, of the MAC, of the key hash. */
#define CACHEDB_KEY_BYTES 32
#define CACHEDB_MAC_BYTES 32
#define CACHEDB_KEYHASH_BYTES 16
/** The Redis key: this prefix and the key hash in hex. */
#define CACHEDB_KEY_PREFIX "curvecache:"
#define CACHEDB_KEY_TEXT_BYTES \
	(sizeof CACHEDB_KEY_PREFIX + 2 * CACHEDB_KEYHASH_BYTES)
/** The header before QNAME, and between QNAME and TEXT. */
#define CACHEDB_HEAD_BYTES 29
#define CACHEDB_TEXTLEN_BYTES 4
/** The largest image written or read. */
#define CACHEDB_IMAGE_MAX (1024u * 1024u)

/** Status codes of parse and load. */
enum cachedb_status {
	CACHEDB_OK = 0,
	CACHEDB_EMALFORMED, /**< short, lengths that do not add up */
	CACHEDB_EMAGIC,     /**< not an image of ours */
	CACHEDB_EVERSION,   /**< another format version */
	CACHEDB_EMAC,       /**< not written with our secret */
	CACHEDB_EEXPIRED,   /**< its expiry has passed */
	CACHEDB_EQUESTION,  /**< the image of another question */
	CACHEDB_ELOAD,      /**< a line the cache loader refused */
	CACHEDB_EEMPTY,     /**< nothing to write or nothing stored */
	CACHEDB_ENOMEM,     /**< allocation failed */
	CACHEDB_EINVAL      /**< bad argument */
};

/** A question: the key's parts. */
struct cachedb_question {
	const uint8_t *qname; /**< lowercase wire form */
	size_t qname_len;
	uint16_t qtype;
	uint16_t qclass;
	uint8_t flags; /**< 0 (kept in the key for later use) */
};

/** A parsed image: pointers into the caller's buffer. */
struct cachedb_image {
	uint8_t version;
	uint8_t sec;   /**< enum cache_sec of the answer */
	uint8_t rcode; /**< the answer's RCODE */
	uint64_t written, expires;
	uint16_t qtype, qclass;
	const uint8_t *qname;
	size_t qname_len;
	const char *text; /**< the cachefile text (header line first) */
	size_t text_len;
};

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *cachedb_strerror(int status);

/**
 * The Redis key of a question under the fleet key.
 * @param out: receives "curvecache:" and 32 hex digits, NUL-terminated.
 */
void cachedb_key_text(const uint8_t key[CACHEDB_KEY_BYTES],
                      const struct cachedb_question *q,
                      char out[CACHEDB_KEY_TEXT_BYTES]);

/**
 * Read an image: bounded by len, MAC checked under key before anything
 * else is believed; then the version, the expiry (against now) and, if q
 * is not NULL, the question.
 * @return CACHEDB_OK with *out filled, or the first check that failed.
 */
int cachedb_image_parse(const uint8_t *buf, size_t len,
                        const uint8_t key[CACHEDB_KEY_BYTES], time_t now,
                        const struct cachedb_question *q,
                        struct cachedb_image *out) MUST_CHECK;

/** Bytes of the scratch space of cachedb_image_build: the records of a
 *  chase (answer and authority), then cachefile_dump_get's. */
#define CACHEDB_CHASE_BYTES (4 * 65536u)
#define CACHEDB_SCRATCH_BYTES \
	(CACHEDB_CHASE_BYTES + CACHEFILE_GET_SCRATCH_BYTES)

/**
 * Build the image of what the cache holds for a question (the chain and
 * the final entry, see above).
 * @param scratch, cap: the caller's space, reused across calls (at least
 *   CACHEDB_SCRATCH_BYTES, else CACHEDB_EINVAL).
 * @param out, outlen: receive a malloc'd image; the caller frees it.
 * @param ttl: receives the seconds it lives (the least TTL in it).
 * @return CACHEDB_OK; CACHEDB_EEMPTY (nothing usable cached: a miss, a
 *   SERVFAIL, BOGUS data, or too large); CACHEDB_ENOMEM, CACHEDB_EINVAL.
 */
int cachedb_image_build(struct cache *c, time_t now,
                        const uint8_t key[CACHEDB_KEY_BYTES],
                        const struct cachedb_question *q, uint8_t *scratch,
                        size_t cap, uint8_t **out, size_t *outlen,
                        uint32_t *ttl) MUST_CHECK;

/**
 * Store the entries of a parsed image in the cache (the cachefile
 * loader: every line checked, the rank rule applied).
 * @param reuse: NULL (a loader is made and freed), or a loader of c kept
 *   by the caller (cachefile_load_reset; no allocation).
 * @param entries: NULL, or receives the entries stored.
 * @return CACHEDB_OK; CACHEDB_ELOAD (a bad line: nothing of that entry
 *   is stored); CACHEDB_EEMPTY (no line stored anything);
 *   CACHEDB_ENOMEM, CACHEDB_EINVAL.
 */
int cachedb_image_load(struct cache *c, struct cachefile_load *reuse,
                       time_t now, const struct cachedb_image *img,
                       size_t *entries) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_CACHEDB_H */
