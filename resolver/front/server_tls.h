/*
 * resolver/front/server_tls.h - DNS over TLS for clients (RFC 7858): a
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

#include <stddef.h>
#include <stdint.h>

struct cfg;

/** Padding block of responses (RFC 8467 s4.1: 468 bytes). */
#define SERVER_TLS_PAD_BLOCK 468
/** Time a client has from accept to the end of its TLS handshake. */
#define SERVER_TLS_HANDSHAKE_MS 5000u

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
