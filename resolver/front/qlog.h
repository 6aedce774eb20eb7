/*
 * resolver/front/qlog.h - the query log: one line per answered client query.
 *
 *   level=info event=query client=127.0.0.1@40312 proto=udp
 *     name=www.example.lab. type=A rcode=NOERROR cached=yes src=cache
 *     curve=no dnssec=unchecked
 *
 * (one line in the log). src says where the answer came from: cache (a
 * fresh cached answer), local (a locally served zone), referral (RD=0
 * query answered with a cached delegation), resolved (a resolution ran:
 * an answer or its SERVFAIL), none (an error answer without a lookup:
 * REFUSED by access control, FORMERR, NOTIMP). cached=yes exactly when
 * src is cache or referral. curve=yes when every RRset of the answer came
 * over DNSCurve. dnssec= is the DNSSEC status of the answer's data
 * (answer.sec): secure, insecure, bogus or unchecked (validation off,
 * local data, error answers without a lookup); an answer sent as an
 * error other than NXDOMAIN (a SERVFAIL) is never secure. Names are
 * lowercased, with the final dot; a query without a question logs name=-
 * type=-.
 *
 * Written only when log-queries is yes (the caller checks), through
 * log_query (resolver/base/log.h), whatever log-level says. Queries that get
 * no answer (access-control deny, rate limit, unparseable) are not
 * logged.
 */
#ifndef CURVECACHE_RESOLVER_QLOG_H
#define CURVECACHE_RESOLVER_QLOG_H

#include <stdbool.h>
#include <sys/socket.h>

#include "respond.h"

/** Where an answer came from. */
enum qlog_src {
	QLOG_SRC_NONE = 0, /**< error answer, no lookup */
	QLOG_SRC_LOCAL,    /**< a locally served zone */
	QLOG_SRC_CACHE,    /**< a fresh cached answer */
	QLOG_SRC_REFERRAL, /**< RD=0: a cached delegation */
	QLOG_SRC_RESOLVED  /**< a resolution (answer or SERVFAIL) */
};

/** How a query came (proto= of the log line); the values of
 *  server_int.h's inflight_dest.transport. */
enum qlog_proto {
	QLOG_UDP = 0,
	QLOG_TCP,  /**< DNS over TCP */
	QLOG_TLS,  /**< DNS over TLS (RFC 7858) */
	QLOG_HTTPS /**< DNS over HTTPS (RFC 8484) */
};

/**
 * Write the query log line of one answer.
 * @param q: the client's query, as parsed.
 * @param client: the client's address (AF_INET or AF_INET6).
 * @param proto: how it came (enum qlog_proto).
 * @param rcode: the RCODE sent (12-bit extended allowed).
 * @param src: where the answer came from.
 * @param curve: every RRset of the answer came over DNSCurve.
 */
void qlog_write(const struct respond_query *q, const struct sockaddr *client,
                int proto, unsigned rcode, enum qlog_src src, bool curve);

/**
 * Write the query log line of an answer sent with respond_build: the
 * RCODE as respond_plan decides it (SERVFAIL for BOGUS data to a CD=0
 * client), curve= and dnssec= from the answer.
 * @param q, client, proto, src: as qlog_write.
 * @param a: the answer.
 */
void qlog_answer(const struct respond_query *q, const struct sockaddr *client,
                 int proto, enum qlog_src src, const struct answer *a);

#endif /* CURVECACHE_RESOLVER_QLOG_H */
