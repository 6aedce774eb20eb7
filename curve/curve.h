/*
 * curve/curve.h - DNSCurve for curvecache: the only public header of curve/.
 *
 * Everything DNSCurve lives here and nowhere else: DNSCurve base32, uz5 key
 * labels in nameserver names, the client keypair, client nonces, the bounded
 * table of precomputed shared keys, and boxing/opening in the streamlined and
 * TXT formats (curve/README, "The protocol in brief").
 *
 * Design notes:
 * - curve/ knows nothing of the resolver: it takes bytes and returns bytes.
 *   It opens no socket and reads no clock.
 * - Every function that parses network bytes takes (buffer, length) and
 *   never reads past it. Every rejection has its own status code.
 * - Secrets (client secret key, shared keys, plaintext scratch) are wiped
 *   with sodium_memzero on every exit path and never printed.
 * - struct curve_client is safe to share between threads: nonce generation
 *   and the shared-key table take their own lock.
 */
#ifndef CURVECACHE_CURVE_CURVE_H
#define CURVECACHE_CURVE_CURVE_H

#include <stddef.h>
#include <stdint.h>
#include <sodium.h>

#define CURVE_MUST_CHECK __attribute__((warn_unused_result))

/** Bytes in a Curve25519 public key. */
#define CURVE_KEY_BYTES crypto_box_PUBLICKEYBYTES
/** Bytes in a Curve25519 secret key. */
#define CURVE_SECRET_BYTES crypto_box_SECRETKEYBYTES
/** Bytes in a client (or server) nonce half. */
#define CURVE_NONCE_BYTES 12
/** Bytes in the magic string that starts a streamlined packet. */
#define CURVE_MAGIC_BYTES 8
/** Bytes the box adds to its plaintext (the Poly1305 authenticator). */
#define CURVE_BOX_OVERHEAD crypto_box_MACBYTES
/** Streamlined query overhead: magic + client key + nonce + MAC = 68. */
#define CURVE_STREAMLINED_QUERY_OVERHEAD \
	(CURVE_MAGIC_BYTES + CURVE_KEY_BYTES + CURVE_NONCE_BYTES + \
	 CURVE_BOX_OVERHEAD)
/** Streamlined response overhead: magic + 2 nonces + MAC = 48. */
#define CURVE_STREAMLINED_RESPONSE_OVERHEAD \
	(CURVE_MAGIC_BYTES + 2 * CURVE_NONCE_BYTES + CURVE_BOX_OVERHEAD)
/** Length of a key label: "uz5" + 51 base32 characters. */
#define CURVE_KEYLABEL_LEN 54
/** Largest DNSCurve datagram a client needs to receive. */
#define CURVE_MAX_PACKET 4096
/** Largest EDNS payload to offer inside a box (curve/README, Sizes). */
#define CURVE_MAX_INNER_EDNS 4048
/** Characters of base32 needed for n bytes. */
#define CURVE_BASE32_LEN(n) (((n)*8 + 4) / 5)
/** Largest inner query curve_txt_query_build boxes (nonce | box fits
 *  in CURVE_MAX_PACKET bytes). */
#define CURVE_TXT_MAX_QUERY \
	(CURVE_MAX_PACKET - CURVE_NONCE_BYTES - CURVE_BOX_OVERHEAD)
/** Default number of slots in the shared-key table. */
#define CURVE_SHARED_SLOTS_DEFAULT 1024

/** Status codes: 0 is success, every rejection has its own code. */
enum curve_status {
	CURVE_OK = 0,
	CURVE_ESHORT,    /**< packet shorter than the format allows */
	CURVE_EMAGIC,    /**< streamlined magic missing or wrong */
	CURVE_ENONCE,    /**< our client nonce was not echoed */
	CURVE_EAUTH,     /**< box did not open (forged, tampered, wrong key) */
	CURVE_EBASE32,   /**< invalid DNSCurve base32 */
	CURVE_ESPACE,    /**< caller's output buffer too small */
	CURVE_EFORMAT,   /**< malformed outer packet (TXT format: header,
	                      counts, question, TTL, RDATA layout) */
	CURVE_EID,       /**< TXT response: outer ID does not match */
	CURVE_EQUESTION, /**< TXT response: question is not the one sent */
	CURVE_ENOKEY,    /**< no uz5 key label in the name */
	CURVE_ENAME,     /**< malformed domain name (label/length rules) */
	CURVE_ENOMEM,    /**< allocation failed */
	CURVE_EIO,       /**< key file could not be read or written */
	CURVE_EKEYFILE,  /**< key file malformed or its mode is not 0600 */
	CURVE_EINVAL,    /**< bad argument */
	CURVE_ECRYPTO    /**< libsodium failed (initialisation or keying) */
};

/**
 * Describe a status code.
 * @param status: a value of enum curve_status.
 * @return a static string; never NULL.
 */
const char *curve_strerror(int status);

/* ------------------------------------------------------------------ */
/* DNSCurve base32 (alphabet 0123456789bcdfghjklmnpqrstuvwxyz, least    */
/* significant bits first).                                            */

/**
 * Encode bytes in DNSCurve base32.
 * @param out: destination, not NUL-terminated.
 * @param outcap: size of out; must be >= CURVE_BASE32_LEN(inlen).
 * @param outlen: set to the number of characters written.
 * @param in, inlen: the bytes to encode.
 * @return CURVE_OK, or CURVE_ESPACE (nothing written past outcap).
 */
int curve_base32_encode(char *out, size_t outcap, size_t *outlen,
                        const uint8_t *in, size_t inlen) CURVE_MUST_CHECK;

/**
 * Decode DNSCurve base32, strictly: case-insensitive, every character in
 * the alphabet, leftover bits after the last whole byte must be zero and
 * fewer than 5.
 * @param out: destination bytes.
 * @param outcap: size of out.
 * @param outlen: set to the number of bytes written.
 * @param in, inlen: the characters (not NUL-terminated).
 * @return CURVE_OK, CURVE_EBASE32 or CURVE_ESPACE; on error out may hold
 *   partial output and *outlen is unspecified.
 */
int curve_base32_decode(uint8_t *out, size_t outcap, size_t *outlen,
                        const char *in, size_t inlen) CURVE_MUST_CHECK;

/* ------------------------------------------------------------------ */
/* uz5 key labels                                                      */

/**
 * Parse one label as a uz5 key label: exactly 54 bytes, "uz5" in any case,
 * then 51 base32 characters that decode to a key below 2^255.
 * @param label, len: the label bytes (no length prefix).
 * @param pk: receives the server public key on success.
 * @return CURVE_OK or CURVE_ENOKEY.
 */
int curve_keylabel_parse(const uint8_t *label, size_t len,
                         uint8_t pk[CURVE_KEY_BYTES]) CURVE_MUST_CHECK;

/**
 * Find the server key in an NS name in uncompressed wire format: every
 * label is checked and the left-most key label wins.
 * @param name, len: the wire name (length-prefixed labels, ending in the
 *   root label, at most 255 bytes); reading stops at len, and bytes after
 *   the root label are ignored.
 * @param pk: receives the key on success.
 * @return CURVE_OK, CURVE_ENOKEY (a plain server), or CURVE_ENAME if the
 *   name is malformed.
 */
int curve_keylabel_find_wire(const uint8_t *name, size_t len,
                             uint8_t pk[CURVE_KEY_BYTES]) CURVE_MUST_CHECK;

/**
 * Same as curve_keylabel_find_wire for a dotted text name ("a.b.c" or
 * "a.b.c."; no escapes).
 * @return CURVE_OK, CURVE_ENOKEY or CURVE_ENAME.
 */
int curve_keylabel_find_text(const char *name, size_t len,
                             uint8_t pk[CURVE_KEY_BYTES]) CURVE_MUST_CHECK;

/**
 * Make the uz5 key label of a public key.
 * @param out: receives CURVE_KEYLABEL_LEN characters and a NUL.
 * @param pk: the server public key (bit 255 must be clear).
 * @return CURVE_OK or CURVE_EINVAL (bit 255 set).
 */
int curve_keylabel_make(char out[CURVE_KEYLABEL_LEN + 1],
                        const uint8_t pk[CURVE_KEY_BYTES]) CURVE_MUST_CHECK;

/* ------------------------------------------------------------------ */
/* Random bytes for per-query values                                   */

/**
 * Fill out with len random bytes from a per-thread pool refilled from
 * libsodium's randombytes_buf 4 KiB at a time (one system call per ~120
 * queries instead of two per query); bytes handed out are wiped from
 * the pool. Requests over 64 bytes go to randombytes_buf directly.
 * Thread-safe (one pool per thread). Call sodium_init first.
 */
void curve_random(void *out, size_t len);

/** A random 16-bit value (a query ID) from curve_random. */
uint16_t curve_random16(void);

/* ------------------------------------------------------------------ */
/* The client: keypair, nonces, shared-key table                       */

/** Opaque client state; see curve_client_new. Thread-safe. */
struct curve_client;

/** Counters kept by a client, read with curve_client_stats. */
struct curve_stats {
	uint64_t shared_hits;      /**< shared key found in the table */
	uint64_t shared_misses;    /**< shared key computed (beforenm) */
	uint64_t shared_evictions; /**< table slot reused */
	uint64_t shared_entries;   /**< keys in the table now */
	uint64_t rotations;        /**< client key rotations */
};

/**
 * Create a client with a fresh random keypair. Calls sodium_init.
 * @param out: receives the client; free with curve_client_free.
 * @param slots: capacity of the shared-key table (0 = default).
 * @return CURVE_OK, CURVE_ENOMEM or CURVE_ECRYPTO.
 */
int curve_client_new(struct curve_client **out, size_t slots) CURVE_MUST_CHECK;

/**
 * Create a client from a given secret key (tests, and loaded keys).
 * The nonce counter starts at 1; see curve_client_set_counter.
 * @return as curve_client_new.
 */
int curve_client_from_secret(struct curve_client **out, size_t slots,
                             const uint8_t sk[CURVE_SECRET_BYTES])
	CURVE_MUST_CHECK;

/**
 * Create a client from a key file: one line of 64 hex digits (the secret
 * key). The file must be a regular file of mode 0600 or stricter. The
 * nonce counter's high-water mark lives in PATH.nonce (created when
 * missing); counters are reserved in blocks and the mark written before a
 * block is used, so a restart never reuses a nonce.
 * @return CURVE_OK, CURVE_EIO (with errno set; also when PATH.nonce
 *   cannot be read or written), CURVE_EKEYFILE (also for a malformed
 *   PATH.nonce), CURVE_EINVAL (NULL argument), or as curve_client_new.
 */
int curve_client_load(struct curve_client **out, size_t slots,
                      const char *path) CURVE_MUST_CHECK;

/**
 * As curve_client_load, and on failure says which file is at fault and
 * what is wrong with it, e.g. "/var/lib/curvecache/key.nonce: empty;
 * expected the nonce counter's mark (decimal digits and a newline)" or
 * "/var/lib/curvecache/key: 12 bytes; expected 64 hex digits and a
 * newline". Never holds key bytes.
 * @param why, whylen: receive that text on failure (NULL: not wanted).
 * @return as curve_client_load.
 */
int curve_client_load_why(struct curve_client **out, size_t slots,
                          const char *path, char *why, size_t whylen)
	CURVE_MUST_CHECK;

/**
 * Write a new random secret key to a file (mode 0600, created or replaced
 * atomically), in the format curve_client_load reads.
 * @return CURVE_OK, CURVE_EIO or CURVE_ECRYPTO.
 */
int curve_keyfile_generate(const char *path) CURVE_MUST_CHECK;

/**
 * Replace the client keypair with a fresh random one: the rotation hook.
 * Empties the shared-key table. The nonce counter is not reset: it keeps
 * going up, so a nonce drawn (in another thread) just before the rotation
 * cannot repeat under the new key. A client loaded from a file stops
 * using the file (and its nonce file). Queries boxed under the old key
 * can no longer be opened; the caller retries them.
 * @return CURVE_OK, CURVE_EINVAL (c is NULL) or CURVE_ECRYPTO.
 */
int curve_client_rotate(struct curve_client *c) CURVE_MUST_CHECK;

/** Wipe all secrets and free the client. NULL is allowed. */
void curve_client_free(struct curve_client *c);

/** Copy the client's public key into pk. */
void curve_client_pk(const struct curve_client *c,
                     uint8_t pk[CURVE_KEY_BYTES]);

/** Copy the client's counters into st. */
void curve_client_stats(struct curve_client *c, struct curve_stats *st);

/**
 * Set the next nonce counter value (tests and vectors only).
 */
void curve_client_set_counter(struct curve_client *c, uint64_t next);

/**
 * Make the next client nonce: an 8-byte big-endian counter that only goes
 * up, then 4 random bytes. Never repeats for one client key.
 * @param nonce: receives CURVE_NONCE_BYTES bytes.
 * @return CURVE_OK, CURVE_EIO if a counter block could not be reserved
 *   in the nonce file of a loaded key (no nonce is produced then), or
 *   CURVE_EINVAL if the counter is exhausted (it reached UINT64_MAX).
 */
int curve_nonce_next(struct curve_client *c, uint8_t nonce[CURVE_NONCE_BYTES])
	CURVE_MUST_CHECK;

/* ------------------------------------------------------------------ */
/* Streamlined format                                                  */

/**
 * Box a plain DNS query in the streamlined format:
 * "Q6fnvWj8" | client pk | nonce | box(query).
 * The shared key comes from the client's table (computed once per server).
 * @param c: the client.
 * @param server_pk: the server key from its uz5 label.
 * @param nonce: a fresh nonce from curve_nonce_next (kept by the caller to
 *   open the answer).
 * @param query, qlen: the plain DNS query.
 * @param out, outcap: destination; needs qlen +
 *   CURVE_STREAMLINED_QUERY_OVERHEAD bytes.
 * @param outlen: set to the packet length.
 * @return CURVE_OK, CURVE_ESPACE, CURVE_ECRYPTO or CURVE_EINVAL (NULL
 *   argument).
 */
int curve_streamlined_box(struct curve_client *c,
                          const uint8_t server_pk[CURVE_KEY_BYTES],
                          const uint8_t nonce[CURVE_NONCE_BYTES],
                          const uint8_t *query, size_t qlen, uint8_t *out,
                          size_t outcap, size_t *outlen) CURVE_MUST_CHECK;

/**
 * Open a streamlined response: checks length (>= 48), magic "R6fnvWJ8",
 * the echo of our nonce (constant time), then the authenticator.
 * @param c, server_pk: as for curve_streamlined_box.
 * @param nonce: the nonce the query was sent with.
 * @param pkt, len: the received datagram (or TCP message).
 * @param out, outcap: receives the inner DNS response (len - 48 bytes).
 * @param outlen: set to the inner length on success.
 * @return CURVE_OK, CURVE_ESHORT, CURVE_EMAGIC, CURVE_ENONCE (our nonce
 *   not echoed, or an all-zero server nonce, which would make a reflected
 *   query box open), CURVE_EAUTH, CURVE_ESPACE, CURVE_ENOMEM (a message
 *   over CURVE_MAX_PACKET needs a heap scratch buffer), CURVE_ECRYPTO
 *   (server key with no usable shared key) or CURVE_EINVAL (NULL
 *   argument). On failure out is left untouched.
 */
int curve_streamlined_open(struct curve_client *c,
                           const uint8_t server_pk[CURVE_KEY_BYTES],
                           const uint8_t nonce[CURVE_NONCE_BYTES],
                           const uint8_t *pkt, size_t len, uint8_t *out,
                           size_t outcap, size_t *outlen) CURVE_MUST_CHECK;

/* ------------------------------------------------------------------ */
/* TXT format                                                          */

/**
 * Build a TXT-format query: an ordinary DNS query (ID id, flags 0,
 * QDCOUNT 1, TXT IN, no EDNS) whose QNAME is base32(nonce | box) in labels
 * of at most 50 characters, the "x1a" client-key label, then the zone.
 * @param c, server_pk, nonce, query, qlen: as for curve_streamlined_box.
 * @param id: the outer DNS ID (random, chosen by the caller).
 * @param zone: the zone of the server, dotted text ("curve.test" or
 *   "curve.test."; "." or "" for the root).
 * @param out, outcap, outlen: the packet.
 * @return CURVE_OK, CURVE_ESPACE, CURVE_ENAME, CURVE_ECRYPTO, CURVE_ENOMEM
 *   or CURVE_EINVAL (NULL argument, or qlen > CURVE_TXT_MAX_QUERY).
 */
int curve_txt_query_build(struct curve_client *c,
                          const uint8_t server_pk[CURVE_KEY_BYTES],
                          const uint8_t nonce[CURVE_NONCE_BYTES], uint16_t id,
                          const char *zone, const uint8_t *query, size_t qlen,
                          uint8_t *out, size_t outcap, size_t *outlen)
	CURVE_MUST_CHECK;

/**
 * Open a TXT-format response. The outer packet must match the query that
 * was sent (same ID, QR and AA set, TC clear, opcode 0, RCODE 0, counts
 * 1/1/0/0, the question byte for byte), and carry one TXT IN answer whose
 * owner is the question name (pointer c00c or the literal name), with
 * TTL 0, whose concatenated strings are server nonce | box and fill
 * RDATA, which ends the packet.
 * @param c, server_pk, nonce: as for curve_streamlined_open.
 * @param query, qlen: the outer TXT query as sent.
 * @param pkt, len: the received packet.
 * @param out, outcap, outlen: the inner DNS response.
 * @return CURVE_OK, CURVE_ESHORT, CURVE_EFORMAT, CURVE_EID,
 *   CURVE_EQUESTION, CURVE_ENONCE (all-zero server nonce), CURVE_EAUTH,
 *   CURVE_ESPACE, CURVE_ENOMEM, CURVE_ECRYPTO, or CURVE_EINVAL (NULL
 *   argument, or query is not a DNS query with a question). On failure
 *   out is left untouched.
 */
int curve_txt_response_open(struct curve_client *c,
                            const uint8_t server_pk[CURVE_KEY_BYTES],
                            const uint8_t nonce[CURVE_NONCE_BYTES],
                            const uint8_t *query, size_t qlen,
                            const uint8_t *pkt, size_t len, uint8_t *out,
                            size_t outcap, size_t *outlen) CURVE_MUST_CHECK;

#endif /* CURVECACHE_CURVE_CURVE_H */
