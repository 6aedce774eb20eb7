/*
 * resolver/transport/upstream_int.h - what upstream.c (sockets, timers, the
 * life of a query) and upstream_pkt.c (packets on the transport's buffers,
 * built and checked by exchange.c) share; nobody else may include it.
 */
#ifndef CURVECACHE_RESOLVER_UPSTREAM_INT_H
#define CURVECACHE_RESOLVER_UPSTREAM_INT_H

#include "base/base.h"

#include <stdbool.h>
#include <sodium.h>

#include "curve.h"
#include "wire/exchange.h"
#include "upstream.h"
#include "wire/wire.h"

/** Where a query is in its life (what its timer does next). */
enum upstream_stage {
	UPSTREAM_STAGE_UDP = 0, /**< waiting on UDP attempts */
	UPSTREAM_STAGE_TCP,     /**< waiting on the TCP retry */
	UPSTREAM_STAGE_LINGER   /**< timed out; listening for late answers */
};

/** What the check of a received packet found. */
enum upstream_verdict {
	UPSTREAM_V_ANSWER = 0, /**< a matching answer: msg is set */
	UPSTREAM_V_FORMERR,    /**< FORMERR to our EDNS query */
	UPSTREAM_V_IGNORE,     /**< does not match: keep waiting */
	UPSTREAM_V_BADCURVE,   /**< box did not open or match: drop, count */
	UPSTREAM_V_CASE        /**< plain, ID and question right but the
	                            0x20 letter case lost: ask again
	                            without it */
};

/** Which format a DNSCurve server answered last. */
struct upstream_fmt {
	bool used;
	uint8_t family;
	uint8_t addr[16];
	uint8_t key[KEY_BYTES];
	uint8_t mode; /**< enum exchange_mode */
};

struct upstream_query;
struct dot_query;
struct dot;
struct cfg_tls;
struct authtls;
struct upstream_probe;

/** One packet on its own socket. */
struct upstream_att {
	struct upstream_query *q;
	struct exchange_sent s;
	bool tcp;
	bool tls;             /**< over a forwarder's TLS connection (dot.h;
	                           tcp is set too): h.timer is a stand-in
	                           handle, so closing stays asynchronous */
	struct dot_query *dq; /**< tls: the query on the connection */
	bool opp;             /**< tls to an authoritative server (RFC
	                           9539): asked in plain if it fails */
	bool open;            /**< the handle is open */
	bool closing;         /**< uv_close was called */
	union {
		uv_handle_t handle;
		uv_udp_t udp;
		uv_tcp_t tcp;
		uv_timer_t timer;
	} h;
	uv_connect_t conn;
	uv_write_t wr;
	uint64_t sent_ms;
	uint8_t lenpfx[2]; /**< TCP length prefix */
	uint8_t *rbuf;     /**< TCP: grown to the message being read (2 +
	                        its length, at most 2 + WIRE_MSG_MAX) */
	size_t rlen;
	size_t rcap;   /**< bytes of rbuf */
	uint8_t pkt[]; /**< the packet as sent (s.pktlen) */
};

struct upstream_query {
	struct upstream *u;
	struct upstream_query *prev, *next; /**< live queries of u */
	upstream_cb cb;
	void *arg;
	struct iter_target t;
	uv_timer_t timer;
	bool timer_open;
	enum upstream_stage stage;
	bool reported_timeout; /**< ITER_REPLY_TIMEOUT delivered */
	bool hedged;           /**< the early (hedge) timeout delivered */
	uint64_t rest_ms;      /**< after the hedge: time left until the
	                            real timeout */
	bool finished;         /**< a final reply was delivered */
	bool cancelled;        /**< upstream_cancel was called */
	bool tried_second;     /**< the second curve format was sent */
	bool tried_plain;      /**< plain fallback was sent */
	bool tried_tcp;
	bool nocase;               /**< the server lost the 0x20 case: plain
	                                attempts go in lowercase */
	enum exchange_mode first;  /**< mode of the first attempt */
	enum exchange_mode second; /**< the other DNSCurve format */
	bool has_second;           /**< cfg lists a second format */
	unsigned open;             /**< handles open (timer + attempts) */
	struct upstream_att *att[UPSTREAM_ATTEMPTS_MAX];
	size_t natt;
};

struct upstream {
	uv_loop_t *loop;
	const struct cfg *cfg;
	struct curve_client *curve;
	struct stats *st;
	struct dot *dot;  /**< TLS connections to forwarders */
	struct dot *adot; /**< opportunistic TLS to authoritative servers */
	struct authtls *authtls;       /**< their RFC 9539 state */
	struct upstream_probe *probes; /**< probes out (upstream_authtls.c) */
	size_t nprobes;
	size_t max_sockets;
	size_t sockets;    /**< attempts open now */
	size_t pending;    /**< queries not cancelled */
	bool nonce_warned; /**< a nonce failure was logged */
	struct upstream_query *head;
	uint8_t fmt_key[crypto_shorthash_KEYBYTES];
	struct upstream_fmt fmt[UPSTREAM_FORMAT_SLOTS];
	uint8_t rbuf[UPSTREAM_RECV_BYTES];  /**< UDP receive */
	uint8_t inner[UPSTREAM_RECV_BYTES]; /**< opened boxes */
	uint8_t sbuf[UPSTREAM_PKT_MAX];     /**< packet being built */
	uint8_t plain[UPSTREAM_PKT_MAX];    /**< inner query being built */
	struct wire_rr rr[WIRE_RR_MAX];
};

/** Address text for logs (into buf, returned). */
const char *upstream_addr_text(const struct sockaddr_storage *ss, char *buf,
                               size_t cap);

/** The debug line of a packet sent. */
void upstream_log_send(const struct upstream_query *q,
                       const struct upstream_att *a);

/**
 * Build the packet of an attempt into u->sbuf.
 * @param u: the transport.
 * @param t: the target.
 * @param mode: plain, streamlined or TXT.
 * @param s: receives what the answer must match (s->pktlen: the length).
 * @return UPSTREAM_OK or UPSTREAM_EBUILD.
 */
int upstream_pkt_build(struct upstream *u, const struct iter_target *t,
                       enum exchange_mode mode, bool mix_case,
                       struct exchange_sent *s) MUST_CHECK;

/**
 * Check a received packet (a datagram, or a TCP message without its
 * prefix) against what was sent, opening it first if boxed. A plain
 * answer that matches gets its question name set back to the lowercase
 * name of the target, in pkt and in msg, so that names compressed against
 * it carry no 0x20 case into the cache.
 * @param u: the transport (its inner buffer and record array are used).
 * @param t: the target.
 * @param a: the attempt (sent packet and match data).
 * @param pkt, len: what came (modified as said above).
 * @param msg: receives the parsed answer on UPSTREAM_V_ANSWER and
 *   UPSTREAM_V_FORMERR; valid until the next call.
 * @return an enum upstream_verdict.
 */
enum upstream_verdict upstream_pkt_check(struct upstream *u,
                                         const struct iter_target *t,
                                         const struct upstream_att *a,
                                         uint8_t *pkt, size_t len,
                                         struct wire_msg *msg);

/** The format to try first for a DNSCurve server, and the second
 *  (*second = false when there is none). */
enum exchange_mode upstream_fmt_first(struct upstream *u,
                                      const struct iter_target *t,
                                      enum exchange_mode *second_mode,
                                      bool *second);

/** Remember the format a DNSCurve server answered in. */
void upstream_fmt_set(struct upstream *u, const struct iter_target *t,
                      enum exchange_mode mode);

/**
 * Put a query on a TLS connection of d (u->dot: a forwarder, auth its
 * AUTH-NAME; u->adot: an authoritative server on port 853, auth all zero,
 * asked in plain if the connection fails); a new ID when its ID is open
 * there already.
 * @return UPSTREAM_OK, UPSTREAM_EBUILD, UPSTREAM_ELIMIT or
 *   UPSTREAM_ESOCKET (nothing sent).
 */
int upstream_att_tls(struct upstream_query *q, struct dot *d,
                     const struct sockaddr *sa, const struct cfg_tls *auth)
	MUST_CHECK;

/** The enum cache_via of a reply that came on attempt a (NULL: plain),
 *  for iter_reply.via (upstream_privacy.c). */
uint8_t upstream_reply_via(const struct upstream_att *a);

/* ---- opportunistic TLS to authoritative servers (upstream_authtls.c) ---- */

/** Set up u->adot and u->authtls (auth-tls). @return UPSTREAM_OK or
 *  UPSTREAM_ENOMEM. */
int upstream_authtls_new(struct upstream *u) MUST_CHECK;

/** End every probe, free u->adot and u->authtls. */
void upstream_authtls_free(struct upstream *u);

/**
 * A new query's turn (RFC 9539): over TLS when its server is known to
 * take it; else, for an unknown server, a probe is started beside it.
 * @return UPSTREAM_OK when the query went on a TLS connection; anything
 *   else: send it as before (plain or DNSCurve).
 */
int upstream_authtls_try(struct upstream_query *q);

/** An opportunistic TLS query of q was answered (ok) or its connection
 *  failed: the server's state. */
void upstream_authtls_note(struct upstream_query *q, bool ok);

/** q timed out (not a hedge): if it was asked over opportunistic TLS,
 *  the server has failed (RFC 9539: a timeout is a failure). */
void upstream_authtls_timeout(struct upstream_query *q);

/**
 * A query whose server has DANE records (iter_target.dane): over TLS to
 * its port 853 with the chain checked against them, whatever auth-tls
 * learned of it.
 * @return UPSTREAM_OK, or an error: never ask it another way.
 */
int upstream_authtls_dane(struct upstream_query *q);

/** A TLS query's connection failed: if DANE asked it (no record
 *  matched, or no TLS), counted and logged with the NS name. */
void upstream_authtls_dane_failed(struct upstream_query *q, int status);

/** Name of a mode for logs ("plain", "streamlined", "txt"). */
const char *upstream_mode_name(enum exchange_mode mode);

#endif /* CURVECACHE_RESOLVER_UPSTREAM_INT_H */
