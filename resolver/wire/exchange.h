/*
 * resolver/wire/exchange.h - one query exchange with one server, without the
 * network: build the query (plain with a random ID and, if asked, 0x20
 * letter case; or boxed with DNSCurve in the streamlined or TXT format)
 * and check what comes back against what was sent. The daemon's
 * transport (upstream_pkt.c) and curvecache-query both use it.
 *
 * Pure: no sockets, no loop, no global state, no allocation. Every buffer
 * is the caller's; randomness comes from curve_random16/curve_random.
 */
#ifndef CURVECACHE_RESOLVER_EXCHANGE_H
#define CURVECACHE_RESOLVER_EXCHANGE_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "curve.h"
#include "wire.h"

/** How a query is sent. */
enum exchange_mode { EXCHANGE_PLAIN = 0, EXCHANGE_STREAMLINED, EXCHANGE_TXT };

/** What exchange_build and exchange_check return (0: built / the answer). */
enum exchange_status {
	EXCHANGE_OK = 0,    /**< built; or the answer: msg is set */
	EXCHANGE_FORMERR,   /**< FORMERR to our EDNS query: msg is set
	                         (old servers leave out the question) */
	EXCHANGE_ECASE,     /**< plain, strict case: ID and question
	                         right but the 0x20 case not echoed */
	EXCHANGE_EGARBAGE,  /**< not a DNS message: too long, cut short
	                         or malformed (why: WIRE_E*) */
	EXCHANGE_ENOTRESP,  /**< a DNS message with QR clear */
	EXCHANGE_EID,       /**< another ID */
	EXCHANGE_EQUESTION, /**< another question, or none */
	EXCHANGE_EBOX,      /**< boxed: did not open (why: CURVE_E*) */
	EXCHANGE_EPLAIN,    /**< boxed: a plain DNS response came instead */
	EXCHANGE_EBUILD,    /**< the DNS query could not be written
	                         (why: WIRE_E*) */
	EXCHANGE_ESEAL      /**< the query could not be boxed (why:
	                         CURVE_E*) */
};

/** The question and how to ask it (the caller's; read, never kept). */
struct exchange_ask {
	enum exchange_mode mode;
	const uint8_t *qname; /**< as the answer must echo it */
	size_t qnamelen;
	uint16_t qtype, qclass;
	uint16_t flags;              /**< query header flags (WIRE_FLAG_RD) */
	uint16_t edns;               /**< EDNS payload of the (inner) query;
	                                  0: no OPT record */
	bool edns_do;                /**< set the DO bit (RFC 3225): the
	                                  answer brings its RRSIGs */
	bool mix_case;               /**< plain: randomise the letter case */
	bool strict_case;            /**< plain: a reply whose question lost
	                                  the case is EXCHANGE_ECASE */
	struct curve_client *client; /**< boxed: our key and nonces */
	const uint8_t *server_key;   /**< boxed: CURVE_KEY_BYTES */
	const uint8_t *nonce;        /**< boxed, build: a fresh client nonce
	                                  (CURVE_NONCE_BYTES) */
	const char *zone; /**< TXT, build: the zone as dotted text */
};

/** What a sent query must be matched against (the caller's, filled by
 *  exchange_build; fixed size, no pointers: copy it freely). */
struct exchange_sent {
	enum exchange_mode mode;
	uint16_t id;                      /**< ID of the (inner) query */
	bool mixed;                       /**< qname holds the 0x20 name */
	bool edns;                        /**< the (inner) query had EDNS */
	uint8_t qname[WIRE_NAME_MAX];     /**< the name as sent, if mixed */
	uint8_t nonce[CURVE_NONCE_BYTES]; /**< client nonce, if boxed */
	size_t pktlen;                    /**< bytes of the packet sent */
};

/** The caller's buffers. */
struct exchange_bufs {
	uint8_t *out; /**< build: receives the packet to send */
	size_t out_cap;
	uint8_t *scratch; /**< build: the inner query while boxing
	                       (wiped after); check: the opened box */
	size_t scratch_cap;
	const uint8_t *sent; /**< check, TXT: the packet as sent */
	struct wire_rr *rr;  /**< check: records of the parsed reply */
	size_t rr_cap;
	int why; /**< out: the WIRE_* or CURVE_* status
	              behind the last failure, or 0 */
};

/**
 * Build a query: a fresh random ID; in plain mode the name in 0x20 case
 * if a->mix_case; boxed modes wrap the query under a->client, a->nonce
 * and a->server_key (TXT: a query for a TXT record under a->zone).
 * @param a: the question; a->qname must be a well-formed name.
 * @param b: b->out receives s->pktlen bytes; b->scratch (boxed only)
 *   holds the inner query and is wiped before return.
 * @param s: receives what the reply must match.
 * @return EXCHANGE_OK, EXCHANGE_EBUILD or EXCHANGE_ESEAL (b->why says
 *   why).
 */
int exchange_build(const struct exchange_ask *a, struct exchange_bufs *b,
                   struct exchange_sent *s) MUST_CHECK;

/**
 * Check a received packet (a datagram, or a TCP message without its
 * length prefix) against what was sent: open the box first if boxed,
 * then match ID and question. On a plain answer to a 0x20 query the
 * question name is set back to a->qname, in pkt and in msg, so names
 * compressed against it carry no random case further.
 * @param a: the question (mode, nonce and zone unused: s has them).
 * @param s: what exchange_build recorded.
 * @param b: scratch receives the opened box; sent is the packet as sent
 *   (TXT mode); rr receives the records; why is set on a rejection.
 * @param pkt, len: what came (modified as said above).
 * @param msg: on EXCHANGE_OK and EXCHANGE_FORMERR, the parsed reply
 *   (pointing into pkt, or b->scratch if boxed); else unspecified.
 * @return an enum exchange_status other than EXCHANGE_EBUILD and
 *   EXCHANGE_ESEAL.
 */
int exchange_check(const struct exchange_ask *a, const struct exchange_sent *s,
                   struct exchange_bufs *b, uint8_t *pkt, size_t len,
                   struct wire_msg *msg) MUST_CHECK;

/**
 * Describe a status, with its detail where there is one.
 * @param status: an enum exchange_status.
 * @param why: b->why after the call that returned status.
 * @return a static string; never NULL.
 */
const char *exchange_strerror(int status, int why);

#endif /* CURVECACHE_RESOLVER_EXCHANGE_H */
