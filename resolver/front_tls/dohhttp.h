/*
 * resolver/front_tls/dohhttp.h - the HTTP side of DNS over HTTPS (RFC 8484)
 * that needs no HTTP/2 library, so that it can be fuzzed alone: the
 * :path of a request against the endpoint, its ?dns= parameter
 * (base64url without padding, RFC 4648 s5), the content-type of a
 * POST, and the max-age of an answer (the least TTL of its answer
 * section, else of its authority section: RFC 8484 s5.1).
 *
 * Every function takes (buf, len) and never reads past it; nothing is
 * allocated.
 */
#ifndef CURVECACHE_RESOLVER_DOHHTTP_H
#define CURVECACHE_RESOLVER_DOHHTTP_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** What a request's :path asks for (dohhttp_path). */
enum dohhttp_status {
	DOHHTTP_OK = 0,    /**< the endpoint with a dns= query decoded */
	DOHHTTP_NOQUERY,   /**< the endpoint, no dns= parameter (POST) */
	DOHHTTP_ENOTFOUND, /**< another path: 404 */
	DOHHTTP_EBAD,      /**< a dns= value that is not base64url or not
	                        a DNS header's worth: 400 */
	DOHHTTP_ETOOBIG    /**< a dns= value over the caller's buffer: 413
	                        (414 would do too; curl shows either) */
};

/** HTTP status codes DoH answers with. */
#define DOHHTTP_200 200
#define DOHHTTP_400 400
#define DOHHTTP_404 404
#define DOHHTTP_405 405
#define DOHHTTP_413 413
#define DOHHTTP_415 415
#define DOHHTTP_503 503

/** The media type of DNS messages (RFC 8484 s6). */
#define DOHHTTP_CTYPE "application/dns-message"
/** Bytes of a DNS header: the least query. */
#define DOHHTTP_DNS_MIN 12

/**
 * Decode base64url without padding (trailing '=' are accepted, as some
 * clients send them).
 * @param in, inlen: the text.
 * @param out, cap: the destination.
 * @param outlen: receives the bytes decoded.
 * @return 0, -1 on a character outside the alphabet or a length no
 *   encoding has, -2 when the result does not fit cap.
 */
int dohhttp_b64url_decode(const char *in, size_t inlen, uint8_t *out,
                          size_t cap, size_t *outlen) MUST_CHECK;

/**
 * A request's :path against the endpoint: the path must equal it; the
 * query string's dns= parameter (if any) is decoded into q.
 * @param path, len: the :path pseudo-header (not NUL-terminated).
 * @param endpoint: the configured path, NUL-terminated.
 * @param q, cap, qlen: receive the query (DOHHTTP_OK only).
 * @return a dohhttp_status.
 */
int dohhttp_path(const char *path, size_t len, const char *endpoint,
                 uint8_t *q, size_t cap, size_t *qlen) MUST_CHECK;

/** Is a content-type "application/dns-message" (any case, parameters
 *  after ';' allowed)? */
bool dohhttp_ctype_ok(const char *v, size_t len);

/**
 * The max-age of an answer: the least TTL of its answer records, of its
 * authority records when it has none, 0 when it has neither or the
 * message does not parse (OPT is never counted).
 */
uint32_t dohhttp_max_age(const uint8_t *msg, size_t len);

/** The HTTP status of a dohhttp_status (DOHHTTP_OK/NOQUERY: 200). */
int dohhttp_code(int status);

#endif /* CURVECACHE_RESOLVER_DOHHTTP_H */
