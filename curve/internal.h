/*
 * curve/internal.h - shared between the files of curve/ (and its unit
 * test); nothing outside curve/ includes it.
 *
 * Design notes:
 * - struct curve_client holds two locks. The shared-key table lock also
 *   guards the keypair, so a shared key and the client public key that
 *   go into one packet always belong to the same keypair, even while
 *   curve_client_rotate runs in another thread. The nonce lock guards the
 *   counter and the nonce file.
 * - Shared keys never leave the table lock except as a copy in a caller's
 *   stack buffer, which the caller wipes (curve_shared_get).
 * - The table is an LRU hash table over a fixed array of slots allocated
 *   with sodium_allocarray (guard pages, wiped on free); buckets are
 *   indexed by a keyed SipHash of the server key, so hostile keys cannot
 *   pile up in one chain.
 */
#ifndef CURVECACHE_CURVE_INTERNAL_H
#define CURVECACHE_CURVE_INTERNAL_H

#include <pthread.h>
#include "curve.h"

/** Bytes of the full crypto_box nonce (client half | server half). */
#define CURVE_BOX_NONCE_BYTES crypto_box_NONCEBYTES
/** Bytes of the big-endian counter at the start of a client nonce. */
#define CURVE_COUNTER_BYTES 8
/** Random bytes after the counter in a client nonce. */
#define CURVE_NONCE_RANDOM_BYTES (CURVE_NONCE_BYTES - CURVE_COUNTER_BYTES)
/** Counter values reserved in the nonce file per write. */
#define CURVE_NONCE_BLOCK ((uint64_t)1 << 20)
/** Largest wire-format domain name (RFC 1035). */
#define CURVE_NAME_MAX 255
/** Largest label of a domain name (RFC 1035). */
#define CURVE_LABEL_MAX 63
/** Base32 characters in a key label after its 3-byte prefix. */
#define CURVE_KEYLABEL_B32 (CURVE_KEYLABEL_LEN - 3)
/** Largest shared-key table (indexes are 32-bit). */
#define CURVE_SHARED_SLOTS_MAX ((size_t)1 << 24)
/** Index meaning "no entry" in the shared-key table. */
#define CURVE_SHARED_NONE UINT32_MAX
/** DNS header bytes. */
#define CURVE_DNS_HEADER 12
/** QTYPE + QCLASS bytes after a question name. */
#define CURVE_DNS_QFIXED 4
/** TYPE + CLASS + TTL + RDLENGTH bytes after an RR owner name. */
#define CURVE_DNS_RRFIXED 10
/** DNS RR type TXT. */
#define CURVE_DNS_TYPE_TXT 16
/** DNS class IN. */
#define CURVE_DNS_CLASS_IN 1

/** One slot of the shared-key table. */
struct curve_shared_entry {
	uint8_t server_pk[CURVE_KEY_BYTES];    /**< the table key */
	uint8_t key[crypto_box_BEFORENMBYTES]; /**< beforenm output */
	uint32_t chain;    /**< next entry in the same bucket */
	uint32_t lru_prev; /**< towards the most recently used */
	uint32_t lru_next; /**< towards the least recently used */
};

/** The bounded table of precomputed shared keys. */
struct curve_shared_table {
	pthread_mutex_t lock;           /**< guards all of this and the
	                                     client keypair */
	struct curve_shared_entry *ent; /**< slots entries (sodium) */
	uint32_t *bucket;               /**< nbuckets chain heads */
	size_t slots;                   /**< capacity */
	size_t used;                    /**< entries in use */
	size_t nbuckets;                /**< a power of two >= slots */
	uint32_t lru_head, lru_tail;    /**< most / least recently used */
	uint8_t hashkey[crypto_shorthash_KEYBYTES]; /**< SipHash key */
	uint64_t hits, misses, evictions;           /**< counters */
};

/** The client (ordinary heap, so leak checkers see what it points to);
 *  the secret key sits in its own sodium_malloc block. */
struct curve_client {
	uint8_t pk[CURVE_KEY_BYTES]; /**< under shared.lock */
	uint8_t *sk;                 /**< CURVE_SECRET_BYTES, sodium_malloc;
	                                  under shared.lock */
	uint64_t rotations;          /**< under shared.lock */
	struct curve_shared_table shared; /**< shared keys */
	pthread_mutex_t nonce_lock;       /**< guards the fields below */
	uint64_t counter;                 /**< next counter value */
	uint64_t reserved;                /**< first value not covered by the
	                                       mark on disk (file keys) */
	char *nonce_path;                 /**< PATH.nonce, or NULL */
};

/* sharedkey.c */

/**
 * Set up an empty table.
 * @return CURVE_OK or CURVE_ENOMEM.
 */
int curve_shared_init(struct curve_shared_table *t, size_t slots)
	CURVE_MUST_CHECK;

/** Wipe and free the table's memory (not the struct itself). */
void curve_shared_destroy(struct curve_shared_table *t);

/** Drop every entry (wiping keys). Caller holds t->lock. */
void curve_shared_clear_locked(struct curve_shared_table *t);

/**
 * Find or compute the shared key between the client's current secret key
 * and server_pk; copy it and the matching client public key out.
 * @param key: receives the shared key; the caller must sodium_memzero it.
 * @param client_pk: receives the client public key of the same keypair.
 * @return CURVE_OK or CURVE_ECRYPTO (a key with no usable shared point).
 */
int curve_shared_get(struct curve_client *c,
                     const uint8_t server_pk[CURVE_KEY_BYTES],
                     uint8_t key[crypto_box_BEFORENMBYTES],
                     uint8_t client_pk[CURVE_KEY_BYTES]) CURVE_MUST_CHECK;

/* nonce.c */

/**
 * Start persisting the nonce counter of a client loaded from keypath:
 * read the mark in keypath.nonce (1 when the file is missing), start the
 * counter there and reserve the first block (writing the new mark).
 * @param why, whylen: NULL, or on failure receive "KEYPATH.nonce: what
 *   is wrong" (curve_why).
 * @return CURVE_OK, CURVE_ENOMEM, CURVE_EIO (errno set) or
 *   CURVE_EKEYFILE (the mark file is malformed).
 */
int curve_nonce_file_attach(struct curve_client *c, const char *keypath,
                            char *why, size_t whylen) CURVE_MUST_CHECK;

/**
 * Say why a file was refused: "FILE: " and the formatted text into why
 * (nothing when why is NULL); errno is kept.
 * @return status.
 */
int curve_why(char *why, size_t whylen, int status, const char *file,
              const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/**
 * Replace path atomically with data: write a temporary file in the same
 * directory (mode 0600), fsync, rename over path, fsync the directory.
 * @return CURVE_OK or CURVE_EIO (errno set).
 */
int curve_file_replace(const char *path, const char *data, size_t len)
	CURVE_MUST_CHECK;

/* streamlined.c: the box itself, shared with txt.c */

/**
 * Box m under the shared key with nonce = client nonce | 12 zero bytes.
 * @param box: receives mlen + CURVE_BOX_OVERHEAD bytes.
 * @param client_pk: receives the client public key used (may be NULL).
 * @return CURVE_OK or CURVE_ECRYPTO.
 */
int curve_box_query(struct curve_client *c,
                    const uint8_t server_pk[CURVE_KEY_BYTES],
                    const uint8_t nonce[CURVE_NONCE_BYTES], const uint8_t *m,
                    size_t mlen, uint8_t *box,
                    uint8_t client_pk[CURVE_KEY_BYTES]) CURVE_MUST_CHECK;

/**
 * Open a response box: checks the server nonce half is not all zero
 * (that would be our own query reflected), opens into a wiped scratch
 * buffer, then copies to out. out is untouched on failure.
 * @param data, dlen: server nonce (12) | box.
 * @return CURVE_OK, CURVE_ESHORT, CURVE_ENONCE, CURVE_EAUTH,
 *   CURVE_ESPACE, CURVE_ENOMEM or CURVE_ECRYPTO.
 */
int curve_box_open_response(struct curve_client *c,
                            const uint8_t server_pk[CURVE_KEY_BYTES],
                            const uint8_t nonce[CURVE_NONCE_BYTES],
                            const uint8_t *data, size_t dlen, uint8_t *out,
                            size_t outcap, size_t *outlen) CURVE_MUST_CHECK;

/* keylabel.c: shared with txt.c */

/**
 * Write the 51 base32 characters of a key below 2^255 (the 52nd, always
 * '0', is dropped).
 * @return CURVE_OK or CURVE_EINVAL (bit 255 set).
 */
int curve_key_b32(char out[CURVE_KEYLABEL_B32],
                  const uint8_t pk[CURVE_KEY_BYTES]) CURVE_MUST_CHECK;

/**
 * Convert a dotted text name ("a.b", "a.b.", "." or "") to wire format.
 * No escapes: a backslash is refused.
 * @return CURVE_OK, CURVE_ENAME (empty or long label, name over 255
 *   bytes, backslash) or CURVE_ESPACE.
 */
int curve_name_from_text(uint8_t *out, size_t outcap, size_t *outlen,
                         const char *name, size_t len) CURVE_MUST_CHECK;

/* txt.c: exposed for the unit test */

/**
 * Write a TXT-format QNAME (labels of base32(data) of at most 50
 * characters, the x1a label, then zone_wire) in wire format with our own
 * bounded code. Used for names c-ares refuses to build.
 * @return CURVE_OK, CURVE_ESPACE or CURVE_EINVAL.
 */
int curve_txt_qname_write(uint8_t *out, size_t outcap, size_t *outlen,
                          const uint8_t *data, size_t dlen,
                          const uint8_t client_pk[CURVE_KEY_BYTES],
                          const uint8_t *zone_wire, size_t zlen)
	CURVE_MUST_CHECK;

#endif /* CURVECACHE_CURVE_INTERNAL_H */
