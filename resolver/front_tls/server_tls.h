/*
 * resolver/front_tls/server_tls.h - DNS over TLS for clients (RFC 7858): a
 * listen address on tls-port accepts TCP connections, runs a TLS server
 * handshake (resolver/transport/tls.h, a time limit of
 * SERVER_TLS_HANDSHAKE_MS), then the connection is one of server_tcp.c's:
 * the same slots, 2-byte framing, pipelining, answers out of order, idle
 * timeout and limits, and the same query path (access control, rate
 * limits, local zones, DNSSEC, EDE, statistics) as plain TCP. Answers
 * with an OPT record are padded to SERVER_TLS_PAD_BLOCK bytes (RFC 8467
 * s4.1). The key and certificate chain are read at start and on every
 * reload (server_localdata_load); connections keep the context they
 * began with.
 *
 * What else the worker shares with server_tls.c is in server_int.h.
 */
#ifndef CURVECACHE_RESOLVER_SERVER_TLS_H
#define CURVECACHE_RESOLVER_SERVER_TLS_H

#include "base/base.h"
#include "front/server.h"
#include "transport/tls.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cfg;

/** Padding block of responses (RFC 8467 s4.1: 468 bytes). */
#define SERVER_TLS_PAD_BLOCK 468
/** Time a client has from accept to the end of its TLS handshake. */
#define SERVER_TLS_HANDSHAKE_MS 5000u

/** Plaintext a DoT connection may hold behind its frame buffer: what
 *  one socket read can bring, the ciphertext of a record begun before it
 *  (at most 16 KiB and its overhead) and of the read itself. */
#define SERVER_TLS_STAGE_MAX (2u * TLS_READ_CHUNK + 4096u)

/** The plaintext of a DoT connection that does not fit its frame buffer
 *  yet (the socket is not read while it holds any). */
struct server_tls_stage {
	uint8_t *buf; /**< SERVER_TLS_STAGE_MAX bytes; NULL while empty */
	size_t len;
};

/**
 * Keep plaintext from the TLS session: into the frame buffer while
 * nothing is staged, the rest (and everything while something is) behind
 * it in the stage. Socket-free (fuzzed: tests/fuzz/fuzz_dotserve.c).
 * @param rbuf, rcap, rlen: the frame buffer, its size, its bytes held.
 * @param st: the stage.
 * @param buf, len: the plaintext.
 * @return false when the stage would pass SERVER_TLS_STAGE_MAX (or
 *   cannot be allocated): close the connection.
 */
bool server_tls_take(uint8_t *rbuf, size_t rcap, size_t *rlen,
                     struct server_tls_stage *st, const uint8_t *buf,
                     size_t len);

/**
 * Move what the stage holds into the room left in the frame buffer
 * (the stage is freed once empty).
 */
void server_tls_unstage(uint8_t *rbuf, size_t rcap, size_t *rlen,
                        struct server_tls_stage *st);

/**
 * Pad an answer to a multiple of SERVER_TLS_PAD_BLOCK bytes: wire_pad
 * (wire/wire.h), which needs cap >= len + WIRE_OPT_HDR + the block.
 * @return the new length (len when it is not padded).
 */
size_t server_tls_pad(uint8_t *msg, size_t len, size_t cap);

/**
 * curvecache -t: the tls-service-key and tls-service-pem of a config
 * (both or neither; the key matches the certificate) and its listen
 * addresses on tls-port (they need both).
 * @param note, notelen: receive a line on the certificate's expiry
 *   ("" when no certificate is configured).
 * @param err, errlen: receive "FILE:LINE: problem" on failure.
 * @return 0 or -1.
 */
int server_tls_check(const struct cfg *c, char *note, size_t notelen,
                     char *err, size_t errlen) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_SERVER_TLS_H */
