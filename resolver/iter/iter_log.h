/*
 * resolver/iter/iter_log.h - what a resolution tells the administrator at
 * the default log level (info): why it failed, where.
 *
 * A resolution remembers the last server it heard from (or gave up on)
 * and what came of it, and the zone of the last DNSSEC verdict that
 * was bogus. When the answer ends bogus, one line names the zone, the
 * reason (the text of the answer's EDE), the name and the server
 * (iter_log_finish):
 *   level=info event=dnssec_failure zone=example.com.
 *     reason="no DNSKEY matches the DS" name=www.example.com. type=A
 *     server=192.0.2.1
 * and the SERVFAIL line of the daemon (front/resolution.c) adds the
 * zone and the last server asked and what it did (iter_fail_where):
 *   level=info event=servfail qname=www.example.com. type=A
 *     why="deadline reached" zone=example.com. server=192.0.2.1
 *     server_why=timeout
 * Both kinds are rate-limited (log_info_limited).
 */
#ifndef CURVECACHE_RESOLVER_ITER_LOG_H
#define CURVECACHE_RESOLVER_ITER_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "wire/wire.h"

struct iter_req;
struct iter_out;

/** What a request remembers for its failure lines (in struct iter_req,
 *  cleared by iter_new). */
struct iter_log_note {
	struct sockaddr_storage sa;  /**< the last server heard of */
	const char *what;            /**< what it did (NULL: none yet) */
	uint8_t zone[WIRE_NAME_MAX]; /**< the zone it was asked for */
	uint8_t zlen;
	uint8_t bogus_zone[WIRE_NAME_MAX]; /**< of the last bogus verdict */
	uint8_t bogus_zlen;                /**< 0: none */
	int bogus_status;                  /**< enum dnssec_status */
	struct sockaddr_storage bogus_sa;  /**< the server of its data */
	bool bogus_from;                   /**< bogus_sa is set */
};

/** Longest server text iter_fail_where writes (an address). */
#define ITER_LOG_SERVER_TEXT 64

/**
 * The query o, asked of zone, ended as what ("timeout", "REFUSED",
 * "answer" ...): the last server heard of. what must be a static
 * string.
 */
void iter_log_server(struct iter_req *req, const struct iter_out *o,
                     const uint8_t *zone, size_t zlen, const char *what);

/** The reply to o, classified (iter_cls): what it was ("answer",
 *  "referral" ...; the reason of a lame or bad one: "REFUSED",
 *  "SERVFAIL" ...). */
void iter_log_reply(struct iter_req *req, const struct iter_out *o,
                    const uint8_t *zone, size_t zlen);

/**
 * A bogus verdict on data of zone (a fresh one, not read from the
 * cache), with its status (enum dnssec_status).
 */
void iter_log_bogus(struct iter_req *req, const uint8_t *zone, size_t zlen,
                    int status);

/** The request ends (iter_finish): its dnssec_failure line if the
 *  answer is bogus. */
void iter_log_finish(struct iter_req *req);

/**
 * Where a failed resolution ended, for its SERVFAIL line: the zone and
 * the server last asked (text, "-" when none) and what came of it.
 * @param req: the request (NULL: all "-").
 * @param zone: receives the zone, WIRE_NAME_TEXT_MAX bytes.
 * @param server: receives the address, ITER_LOG_SERVER_TEXT bytes.
 * @return what the server did ("timeout", "REFUSED", "bogus" ...), or
 *   "-".
 */
const char *iter_fail_where(const struct iter_req *req, char *zone,
                            char *server);

#endif
