/*
 * resolver/transport/tls_peer.h - what a TLS client checks of the server
 * after the handshake (tls.c): an SPKI pin (forwarders' #AUTH-NAME pins,
 * RFC 7858 s4.2), or the DANE records of an authoritative server's NS
 * name (RFC 7671: validate/tlsa.h matches them).
 */
#ifndef CURVECACHE_RESOLVER_TLS_PEER_H
#define CURVECACHE_RESOLVER_TLS_PEER_H

#include <stdbool.h>
#include <stdint.h>

#include <openssl/ssl.h>

#include "tls.h"

struct tlsa_set;

/**
 * Does the pin (SHA-256 of an SPKI) match the leaf, or, unless leaf_only
 * (no chain was verified: any other certificate sent is anyone's), a
 * certificate of the verified chain?
 */
bool tls_peer_pin_ok(SSL *ssl, const uint8_t pin[TLS_PIN_BYTES],
                     bool leaf_only);

/**
 * Does the chain the server sent match a record of dane (usage 3: the
 * leaf; usage 2: a certificate after it, the path verified and the leaf
 * naming host)? At most TLSA_CHAIN_MAX certificates are looked at.
 */
bool tls_peer_dane_ok(SSL *ssl, const struct tlsa_set *dane, const char *host);

#endif /* CURVECACHE_RESOLVER_TLS_PEER_H */
