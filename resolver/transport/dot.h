/*
 * resolver/transport/dot.h - DNS over TLS to forwarders (RFC 7858, RFC
 * 8310 strict profile), one worker's connections.
 *
 * One long-lived TLS connection (tls.h) per forwarder carries every
 * query to it: pipelined, each message with the 2-byte length of DNS
 * over TCP (RFC 7766), answers matched by ID in any order (the IDs of
 * the queries open on one connection are distinct: dot_send refuses a
 * duplicate). Queries wait while the connection is made; after the
 * handshake and the checks they are written at once.
 *
 * A connection that fails before it is up (TCP, handshake, chain, name,
 * pin) is never replaced by plain DNS: its queries fail (the iterator
 * asks the next forwarder), the reason is logged once (event
 * tls_failure) and counted, and the forwarder is skipped for a back-off
 * (DOT_BACKOFF_FIRST_MS, doubling up to DOT_BACKOFF_MAX_MS) during which
 * dot_send fails at once. A connection that was up and is closed by the
 * server is made again and its open queries sent again (once).
 * Queries carry an empty edns-tcp-keepalive option (RFC 7828) before
 * their padding. A connection without queries is closed after its idle
 * timeout: DOT_IDLE_MS, or the TIMEOUT of the server's keepalive option
 * in its last answer when shorter (units of 100 ms; an eighth less, to
 * close before the server does); a TIMEOUT of 0
 * closes it once its open queries are answered, and queries asked
 * meanwhile are not written on it: they wait for the next connection. Each
 * connection has a number (conn= in the debug events tls_up, tls_query and
 * tls_idle_close; tls_query names the query's ID and qname), so the log says
 * which connection carried each query.
 */
#ifndef CURVECACHE_RESOLVER_DOT_H
#define CURVECACHE_RESOLVER_DOT_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct tlsa_set; /* validate/tlsa.h */

struct cfg;
struct cfg_tls;
struct stats;

/** Idle connection lifetime. */
#define DOT_IDLE_MS 10000u
/** Time allowed for TCP connect and TLS handshake. */
#define DOT_CONNECT_MS 5000u
/** First back-off after a failure, doubled per failure... */
#define DOT_BACKOFF_FIRST_MS 1000u
/** ...up to this. */
#define DOT_BACKOFF_MAX_MS 60000u
/** Queries open on one connection at most. */
#define DOT_QUERIES_MAX 512
/** EDNS(0) padding block of queries (RFC 8467 s4.1). */
#define DOT_PAD_BLOCK 128
/** Bytes a query grows by at most: the keepalive option, padding's
 *  code and length, the padding (dot_opt.c). */
#define DOT_QUERY_GROWTH (2 * 4 + DOT_PAD_BLOCK)

/** Status codes. */
enum dot_status {
	DOT_OK = 0,
	DOT_EINVAL,   /**< bad argument */
	DOT_ENOMEM,   /**< allocation failed */
	DOT_EFAILING, /**< the forwarder is in back-off after a failure */
	DOT_EID,      /**< a query with this ID is open on the connection */
	DOT_EFULL,    /**< too many queries open on the connection */
	DOT_EFAIL     /**< (callback) the connection failed */
};

/**
 * The outcome of a query: DOT_OK with an answer whose ID matched
 * (msg, len; check it as any answer), or DOT_EFAIL (msg NULL). After
 * DOT_EFAIL nothing more comes; after DOT_OK nothing more comes either
 * (the owner cancels the query). Either way the owner calls dot_cancel.
 */
typedef void (*dot_cb)(void *arg, int status, uint8_t *msg, size_t len);

struct dot;
struct dot_query;

/** Describe a status code (static string). */
const char *dot_strerror(int status);

/** A worker's connections; cfg is read at every send. The TLS context
 *  (tls-cert-bundle read) is made here when dot_cfg_tls(cfg), else (or
 *  when that failed) at the first connection, and again as soon as the
 *  loop turns after a reload (a cfg with another load_gen; checked
 *  before each poll, and at each send); a bundle that does not load then
 *  is logged, event tls_bundle_failed with its file, and the old one
 *  kept. @return DOT_OK, DOT_EINVAL or DOT_ENOMEM. */
int dot_new(struct dot **out, uv_loop_t *loop, const struct cfg *cfg,
            struct stats *st) MUST_CHECK;

/**
 * A worker's opportunistic connections to authoritative servers (RFC
 * 9539; the owner keeps each server's state, infra/authtls.h): as
 * dot_new, but through tls_ctx_client_unauth (nothing authenticated,
 * no bundle; made here when auth-tls is on, kept over reloads;
 * dot_send's auth only tells connections apart: pass one all zero), a
 * failure is neither logged nor counted here nor shown by list_forwards
 * (the owner does), and when all DOT_FWD_MAX slots are taken the slot of
 * a server with no connection and no query is reused.
 * @return DOT_OK, DOT_EINVAL or DOT_ENOMEM.
 */
int dot_new_unauth(struct dot **out, uv_loop_t *loop, const struct cfg *cfg,
                   struct stats *st) MUST_CHECK;

/** Close every connection (no callback comes); the loop must run on
 *  until the handles are closed. NULL is allowed. */
void dot_free(struct dot *d);

/**
 * The TLS authentication configured for a forwarder address (and port)
 * in the forward zone holding zone (the zone cut asked; wire, lowercase;
 * NULL: any), or NULL when no forward zone asks it over TLS. An address
 * that is a TLS forwarder of some zone always gets an authentication,
 * so it is never asked in plain.
 */
const struct cfg_tls *dot_auth_of(const struct cfg *cfg,
                                  const struct sockaddr *sa,
                                  const uint8_t *zone, size_t zonelen);

/** Does some forward zone ask a server over TLS (#AUTH-NAME, or
 *  forward-tls-upstream)? Then dot_new makes the TLS context at once. */
bool dot_cfg_tls(const struct cfg *cfg);

/** Same address and port (IPv4 or IPv6)? */
bool dot_same_addr(const struct sockaddr *a, const struct sockaddr *b);

/**
 * Send a query (a DNS message, unpadded) to a TLS forwarder.
 * @param auth: whom to authenticate (dot_auth_of); copied.
 * @param dane: NULL, or an authoritative server's DANE records (its
 *   chain must match one, tls.h; auth->name its NS name); copied. A
 *   connection serves one address, auth and dane.
 * @param cb, arg: never called from within this call.
 * @return DOT_OK (*out set, to be cancelled), DOT_EFAILING, DOT_EID,
 *   DOT_EFULL, DOT_ENOMEM or DOT_EINVAL (nothing sent).
 */
int dot_send(struct dot *d, const struct sockaddr *sa,
             const struct cfg_tls *auth, const struct tlsa_set *dane,
             const uint8_t *msg, size_t len, dot_cb cb, void *arg,
             struct dot_query **out) MUST_CHECK;

/** End a query; no callback comes after. NULL is allowed. */
void dot_cancel(struct dot_query *q);

/**
 * Pad a query with EDNS(0) padding (RFC 7830) to a multiple of
 * DOT_PAD_BLOCK bytes: only a query whose last record is its OPT record.
 * @param cap: bytes of pkt.
 * @return the new length (len when it cannot be padded).
 */
size_t dot_pad(uint8_t *pkt, size_t len, size_t cap);

/**
 * Append an empty edns-tcp-keepalive option (RFC 7828) to a query whose
 * last record is its OPT record (before dot_pad: padding stays last).
 * @param cap: bytes of pkt.
 * @return the new length (len when it cannot be added).
 */
size_t dot_keepalive_add(uint8_t *pkt, size_t len, size_t cap);

/**
 * dot_keepalive_add, then dot_pad, with one walk of the query (each
 * query sent): the same bytes.
 * @param cap: bytes of pkt.
 * @return the new length.
 */
size_t dot_opts_add(uint8_t *pkt, size_t len, size_t cap);

/**
 * The TIMEOUT of the edns-tcp-keepalive option in an answer's OPT
 * record (units of 100 ms). Reads nothing outside (msg, len); the
 * records are walked (names skipped, not read: this runs on every answer,
 * before the owner's checks).
 * @return true with *timeout set; false when there is none (or a record
 *   runs past len, or the option is not 2 bytes long).
 */
bool dot_keepalive_of(const uint8_t *msg, size_t len, uint16_t *timeout);

/**
 * A connection's idle timeout after an answer (RFC 7828): the answer's
 * keepalive TIMEOUT when it has one, less an eighth so that the
 * connection is closed here before the server closes it (a query written
 * as the server closes would be lost), at most DOT_IDLE_MS; else idle_ms
 * (the current one). 0: close once the open queries are answered.
 */
uint32_t dot_idle_of(const uint8_t *msg, size_t len, uint32_t idle_ms);

/** Bytes of dot_qname_text's text (WIRE_NAME_TEXT_MAX). */
#define DOT_QNAME_TEXT 1024

/** A query's name as text for the log ("-" when it does not parse);
 *  reads nothing outside (msg, len). */
void dot_qname_text(const uint8_t *msg, size_t len, char *out, size_t cap);

/* ---- the framing of answers (dot_frame.c) ---- */

/** Largest DNS message over a stream (its 2-byte length). */
#define DOT_FRAME_MAX 65535u
/** Bytes a reader's buffer gets at first (grown to the frame read). */
#define DOT_FRAME_FIRST 1024u

/**
 * The reader of a stream of DNS messages, each after its 2-byte length
 * (RFC 7766 s8): the bytes as they come in, whole messages out. Its
 * buffer holds the prefix and one message: at most DOT_FRAME_FIRST or
 * max + 2 bytes. Zeroed, it is ready (max 0: DOT_FRAME_MAX).
 */
struct dot_frame {
	uint8_t *buf; /**< the frame being read, or NULL */
	size_t len;   /**< bytes of it read */
	size_t cap;   /**< bytes of buf */
	size_t max;   /**< largest message taken (0: DOT_FRAME_MAX) */
};

/** dot_frame_next's outcomes. */
enum dot_frame_rc {
	DOT_FRAME_MORE = 0, /**< the input is taken; no message is whole */
	DOT_FRAME_MSG,      /**< a message is whole */
	DOT_FRAME_EEMPTY,   /**< a length of 0: not DNS */
	DOT_FRAME_EBIG,     /**< a length above max */
	DOT_FRAME_ENOMEM    /**< the buffer could not grow */
};

/**
 * Take bytes of (*in, *inlen), advancing both, until a message is whole
 * or the input is all taken. Reads nothing outside the input.
 * @return DOT_FRAME_MSG with *msg, *msglen (in the reader's buffer,
 *   valid until the next call; the bytes after it are still in *in),
 *   DOT_FRAME_MORE, or an error (the reader starts over; the rest of the
 *   input is not taken: the stream is lost).
 */
int dot_frame_next(struct dot_frame *fr, const uint8_t **in, size_t *inlen,
                   uint8_t **msg, size_t *msglen) MUST_CHECK;

/** Between messages, free a buffer larger than keep bytes (0: any). */
void dot_frame_trim(struct dot_frame *fr, size_t keep);

/** Free the buffer; the reader starts over (it may be used again). */
void dot_frame_free(struct dot_frame *fr);

#endif /* CURVECACHE_RESOLVER_DOT_H */
