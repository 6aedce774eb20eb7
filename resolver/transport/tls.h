/*
 * resolver/transport/tls.h - one TLS session over a libuv TCP handle, on
 * OpenSSL's libssl with memory BIOs: the bytes of the socket go through
 * this file, and libssl never touches a file descriptor. Client (DNS over
 * TLS to forwarders, RFC 7858) and server (DoT to clients:
 * front_tls/server_tls.c).
 *
 * A client is authenticated strictly (RFC 8310): the certificate chain
 * against the context's bundle, AUTH-NAME against its subjectAltName,
 * and, when given, the SHA-256 of the SubjectPublicKeyInfo (DER) of the
 * certificate or of one in its verified chain (RFC 7858 s4.2). TLS 1.2 at
 * least; ALPN "dot" offered; a TLS 1.3 session ticket is stored in the
 * caller's resume slot and offered on the next connection.
 *
 * Memory per connection is bounded: libssl's record buffers, and at
 * most TLS_WQUEUE_MAX bytes queued for the socket (tls_conn_write says
 * TLS_EFULL beyond); the read chunk and the plaintext chunk are per
 * thread.
 *
 * Life: tls_conn_new, then tls_conn_connect or tls_conn_accept (or
 * tls_conn_accept_held, plain bytes, tls_conn_serve); the
 * ready callback after the handshake and checks; data callbacks with
 * plaintext; one error callback when the connection dies (the owner
 * then calls tls_conn_close); tls_conn_close exactly once, after which
 * only the closed callback comes (the memory is freed after it).
 * Callbacks may call tls_conn_close.
 */
#ifndef CURVECACHE_RESOLVER_TLS_H
#define CURVECACHE_RESOLVER_TLS_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

/** Bytes read from the socket at once. */
#define TLS_READ_CHUNK 16384
/** Most bytes waiting to be written to the socket. */
#define TLS_WQUEUE_MAX (256u * 1024u)
/** Bytes of an SPKI pin (SHA-256). */
#define TLS_PIN_BYTES 32
/** Bytes of a failure's reason text. */
#define TLS_WHY_BYTES 128

/** Status codes. */
enum tls_status {
	TLS_OK = 0,
	TLS_EINVAL,     /**< bad argument or state */
	TLS_ENOMEM,     /**< allocation failed */
	TLS_EBUNDLE,    /**< the CA bundle could not be loaded */
	TLS_ECERT,      /**< our certificate or key could not be loaded */
	TLS_ECONNECT,   /**< the TCP connection failed */
	TLS_EHANDSHAKE, /**< the TLS handshake failed */
	TLS_EVERIFY,    /**< the certificate chain or name did not verify */
	TLS_EPIN,       /**< no key of the chain matched the pin */
	TLS_EFULL,      /**< the write queue is full */
	TLS_ECLOSED,    /**< the peer closed the connection */
	TLS_EIO         /**< a socket read or write failed */
};

struct tlsa_set; /* validate/tlsa.h */

/** What to check of a server, and where its session is kept. */
struct tls_auth {
	const char *name;   /**< AUTH-NAME (and SNI); never NULL */
	const uint8_t *pin; /**< TLS_PIN_BYTES, or NULL */
	void **resume;      /**< session slot (NULL: none); see
	                         tls_resume_free */
	/** NULL, or DANE (an authoritative server's TLSA records, RFC
	 *  7671; name: its NS name, checked by DANE-TA and sent as SNI):
	 *  the chain sent must match one (tls_peer.h); dane and name must
	 *  outlive the connection */
	const struct tlsa_set *dane;
};

/** The callbacks of a connection; arg is tls_conn_new's. */
struct tls_cbs {
	void (*ready)(void *arg);
	void (*data)(void *arg, const uint8_t *buf, size_t len);
	void (*error)(void *arg, int status, const char *why);
	void (*closed)(void *arg);
};

/** Shared settings (libssl's SSL_CTX): one per worker and role. */
struct tls_ctx;
/** One connection. */
struct tls_conn;

/** Describe a status code (static string). */
const char *tls_strerror(int status);

/**
 * A client context verifying servers against a bundle of CA
 * certificates (a PEM file).
 * @return TLS_OK, TLS_ENOMEM or TLS_EBUNDLE.
 */
int tls_ctx_client(struct tls_ctx **out, const char *bundle) MUST_CHECK;

/**
 * An opportunistic client context (RFC 9539 s3, DNS over TLS to
 * authoritative servers that were not asked to authenticate): the same
 * TLS 1.2 at least, ALPN "dot" and session resumption, but neither chain
 * nor name is checked and no SNI is sent (tls_auth's name may be NULL
 * or ""; a pin, when given, is still checked). It keeps a passive
 * observer out, not an active attacker.
 * @return TLS_OK, TLS_EINVAL or TLS_ENOMEM.
 */
int tls_ctx_client_unauth(struct tls_ctx **out) MUST_CHECK;

/**
 * A server context with a certificate chain and key (PEM files).
 * @return TLS_OK, TLS_ENOMEM or TLS_ECERT.
 */
int tls_ctx_server(struct tls_ctx **out, const char *chain, const char *key)
	MUST_CHECK;

/**
 * Check a server's certificate chain and key (PEM files, the key
 * unencrypted): both read, the key matching the first certificate.
 * @param not_after: NULL, or receives the first certificate's expiry
 *   (seconds since 1970, 0 if unknown).
 * @param why, whylen: receive the reason on failure.
 * @return TLS_OK, TLS_EINVAL, TLS_ENOMEM or TLS_ECERT.
 */
int tls_cert_check(const char *chain, const char *key, int64_t *not_after,
                   char *why, size_t whylen) MUST_CHECK;

/**
 * tls_ctx_server after tls_cert_check (its reason in why on failure),
 * for DNS over TLS to clients: no renegotiation, the server's cipher
 * order, TLS 1.3 session tickets (libssl's, a key per context).
 * @return as tls_cert_check.
 */
int tls_ctx_serve(struct tls_ctx **out, const char *chain, const char *key,
                  char *why, size_t whylen) MUST_CHECK;

/** Free a context (connections hold a reference of their own). */
void tls_ctx_free(struct tls_ctx *ctx);

/** libssl's SSL_CTX of a context (void *: tls.h includes no libssl),
 *  for what a user configures on it itself (server_ticket's keys). */
void *tls_ctx_libssl(struct tls_ctx *ctx);

/** Free the session kept in a resume slot; the slot becomes NULL. */
void tls_resume_free(void **resume);

/**
 * A new connection (no socket yet).
 * @param cbs: copied.
 * @return TLS_OK, TLS_EINVAL or TLS_ENOMEM.
 */
int tls_conn_new(struct tls_conn **out, struct tls_ctx *ctx, uv_loop_t *loop,
                 const struct tls_cbs *cbs, void *arg) MUST_CHECK;

/**
 * Connect to a server and start the handshake.
 * @param src: source address to bind, or NULL.
 * @param auth: copied (name, pin); auth->resume (and auth->dane and
 *   auth->name when dane is set) must outlive the connection.
 * @return TLS_OK (the outcome comes by callback) or TLS_EINVAL/ECONNECT.
 */
int tls_conn_connect(struct tls_conn *c, const struct sockaddr *sa,
                     const struct sockaddr *src, const struct tls_auth *auth)
	MUST_CHECK;

/**
 * Accept a client from a listening TCP handle (server context).
 * @return TLS_OK or TLS_EINVAL/TLS_EIO.
 */
int tls_conn_accept(struct tls_conn *c, uv_stream_t *listener) MUST_CHECK;

/**
 * Accept a client from a listening TCP handle (server context) and read
 * nothing yet: then tls_conn_peer, tls_conn_read_plain, tls_conn_serve.
 * @return TLS_OK or TLS_EINVAL/TLS_EIO.
 */
int tls_conn_accept_held(struct tls_conn *c, uv_stream_t *listener) MUST_CHECK;

/** Plain bytes a server reads before TLS, on the session's own socket
 *  (a balancer's PROXY v2 header, front_tls/server_tlsproxy.c); arg is
 *  tls_conn_read_plain's. */
struct tls_plain_cbs {
	/** Where the next read goes, and its bytes at most (0: none, the
	 *  read then reports UV_ENOBUFS to got). */
	void (*room)(void *arg, uint8_t **buf, size_t *len);
	/** n > 0 bytes came into the room, or n < 0: a libuv error
	 *  (UV_EOF). Not called once the connection is closing. */
	void (*got)(void *arg, ssize_t n);
};

/**
 * Read plain bytes on a connection tls_conn_accept_held took, until
 * tls_conn_serve (which may be called from got).
 * @param cbs: must outlive the plain reading.
 * @return TLS_OK or TLS_EINVAL/TLS_EIO.
 */
int tls_conn_read_plain(struct tls_conn *c, const struct tls_plain_cbs *cbs,
                        void *arg) MUST_CHECK;

/**
 * Serve TLS on a connection tls_conn_accept_held took (the plain read,
 * if any, stops: the next bytes on the socket are the ClientHello). One
 * descriptor per connection: the socket stays the session's.
 * @return TLS_OK or TLS_EINVAL/TLS_EIO.
 */
int tls_conn_serve(struct tls_conn *c) MUST_CHECK;

/**
 * Send plaintext (after the ready callback): encrypted at once, one TLS
 * record per call (up to 16 KB), and the records of one turn of the loop
 * leave together at the start of the next, in one write (a failure then
 * comes by the error callback). TLS_EFULL: more than TLS_WQUEUE_MAX
 * bytes would wait.
 * @return TLS_OK, TLS_EINVAL (not ready or dead), TLS_EFULL or TLS_EIO.
 */
int tls_conn_write(struct tls_conn *c, const uint8_t *buf, size_t len)
	MUST_CHECK;

/**
 * Stop (pause true) or resume reading the socket, after the ready
 * callback; plaintext already decrypted may still come in the data
 * callback running now.
 * @return TLS_OK, TLS_EINVAL (not ready or dead) or TLS_EIO (then the
 *   error callback has come).
 */
int tls_conn_pause(struct tls_conn *c, bool pause);

/** The peer's address. @return TLS_OK, TLS_EINVAL or TLS_EIO. */
int tls_conn_peer(const struct tls_conn *c, struct sockaddr_storage *ss)
	MUST_CHECK;

/** Send close_notify if the session is up, close the socket; the
 *  closed callback comes later. Once only; NULL is allowed. */
void tls_conn_close(struct tls_conn *c);

/** The reason of the last failure ("" if none). */
const char *tls_conn_why(const struct tls_conn *c);

/** A server connection agrees ALPN "h2" (DNS over HTTPS), not "dot";
 *  before tls_conn_accept. */
void tls_conn_want_h2(struct tls_conn *c);

/** Was the session resumed from the slot? */
bool tls_conn_resumed(const struct tls_conn *c);

/** The ALPN protocol agreed ("" if none). */
const char *tls_conn_alpn(const struct tls_conn *c, char *buf, size_t cap);

#endif /* CURVECACHE_RESOLVER_TLS_H */
