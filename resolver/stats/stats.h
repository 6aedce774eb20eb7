/*
 * resolver/stats/stats.h - counters of one worker of the curvecache daemon.
 *
 * Each worker (one event loop) owns a struct stats and bumps its fields
 * without locks; a reader (the control socket, resolver/ctl/control.h) sums
 * the workers' copies with stats_add, takes a reset baseline away with
 * stats_sub, and prints them with stats_format as "name=value" lines or
 * walks them with stats_walk (Prometheus and JSON output).
 *
 * Names: Unbound's where the meaning is the same (total.num.queries,
 * total.num.cachehits, num.query.type.A, num.answer.rcode.NXDOMAIN,
 * histogram.000000.000000.to.000000.000001, ...), so that dashboards and
 * exporters made for unbound-control read them (through Unbound's
 * framing on the control socket, control.h); curvecache's own
 * otherwise, dotted by area ("curve.responses.bad", "upstream.timeouts").
 * A value curvecache names its own way is also reported under Unbound's
 * name as an alias (total.num.prefetch = num.prefetch), which the
 * Prometheus output leaves out.
 *
 * Design notes:
 * - Only uint64_t fields and arrays of them, no allocation: a struct
 *   stats is zeroed with memset, copied with =, summed word by word.
 * - The names live in one table in stats.c next to the field offsets, so
 *   adding a counter is one field here and one line there.
 * - The recursion-time histogram has Unbound's 40 buckets: [0, 1 us),
 *   then powers of two of microseconds up to 1 s, then powers of two of
 *   seconds up to 2^19 s; a longer time counts in the last bucket.
 */
#ifndef CURVECACHE_RESOLVER_STATS_H
#define CURVECACHE_RESOLVER_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache.h"
#include "wire/answer.h"

/** RCODEs counted one by one (4-bit header RCODE). */
#define STATS_RCODES 16
/** Query types counted one by one: 0-255 and 256-259 (URI, CAA, AVC,
 *  DOA); higher ones count as other. */
#define STATS_QTYPES 260
/** Opcodes counted one by one (4-bit header OPCODE). */
#define STATS_OPCODES 16
/** Query classes counted one by one (0-255); higher ones count as other. */
#define STATS_QCLASSES 256
/** Buckets of the recursion-time histogram. */
#define STATS_HIST_BUCKETS 40
/** Extended DNS Error codes (RFC 8914) counted one by one, in
 *  num.answer.ede.CODE; stats_ede_codes lists them. */
#define STATS_EDE_CODES 14
/** Client transports, for the answers counted by transport
 *  (num.answer.transport.udp, .tcp, .tls, .https). */
enum stats_transport {
	STATS_TR_UDP = 0, /**< plain DNS over UDP */
	STATS_TR_TCP,     /**< plain DNS over TCP */
	STATS_TR_TLS,     /**< DNS over TLS (RFC 7858) */
	STATS_TR_HTTPS,   /**< DNS over HTTPS (RFC 8484) */
	STATS_TRANSPORTS
};
/** Bytes enough for any counter name ("num.query.type.NSEC3PARAM"). */
#define STATS_NAME_MAX 64

/** What a value is, for exporters. */
enum stats_kind {
	STATS_COUNTER = 0, /**< only goes up (until a reset) */
	STATS_GAUGE        /**< a level: goes up and down */
};

/** One value as stats_walk reports it; valid during the callback. */
struct stats_item {
	const char *name;   /**< full name: "num.query.type.A" */
	const char *family; /**< name less the label: "num.query.type" */
	const char *label;  /**< label name ("type", "rcode") or NULL */
	const char *lvalue; /**< label value ("A", "NXDOMAIN") or NULL */
	const char *help;   /**< one line of description */
	enum stats_kind kind;
	uint64_t value;
	bool alias; /**< Unbound's name for a value reported under
	                 another name too (Prometheus skips it) */
};

/** The callback of stats_walk. */
typedef void (*stats_walk_fn)(const struct stats_item *item, void *arg);

/** The counters of one worker. */
struct stats {
	/* client side */
	uint64_t queries; /**< client queries received */
	uint64_t queries_udp;
	uint64_t queries_tcp;
	uint64_t queries_tls;       /**< over DNS over TLS (also in tcp) */
	uint64_t tls_resumed;       /**< TLS handshakes that resumed */
	uint64_t queries_https;     /**< over DNS over HTTPS (also in tls) */
	uint64_t doh_errors;        /**< DoH requests answered an HTTP error */
	uint64_t ddr_answers;       /**< _dns.resolver.arpa answered */
	uint64_t tls_handshakes;    /**< TLS handshakes that completed */
	uint64_t tls_failed;        /**< TLS handshakes failed or too slow */
	uint64_t acl_refused;       /**< answered REFUSED by access control */
	uint64_t acl_dropped;       /**< dropped by access control */
	uint64_t ratelimited;       /**< dropped by the per-client limit */
	uint64_t proxy_bad;         /**< proxy-protocol-from peer, no valid
	                                 PROXY v2 header: dropped */
	uint64_t dropped;           /**< unanswerable: QR set, too short */
	uint64_t cache_hits;        /**< answered from the cache */
	uint64_t cache_misses;      /**< went to a resolution */
	uint64_t local_answers;     /**< answered from a local zone */
	uint64_t localdata_answers; /**< answered from local-data-file */
	uint64_t blocked;           /**< NXDOMAIN from block-file */
	uint64_t expired;           /**< answered stale (RFC 8767) */
	uint64_t prefetch;          /**< background refreshes started */
	uint64_t forward_queries;   /**< sent to forward-zone servers */
	uint64_t forward_failures;  /**< ...that no forwarder answered */
	uint64_t nonrecursive;      /**< RD=0 queries */
	uint64_t truncated;         /**< UDP answers sent with TC */
	uint64_t send_errors;       /**< answers the kernel did not take */
	uint64_t rcode[STATS_RCODES]; /**< answers sent, by RCODE */
	uint64_t answer_transport[STATS_TRANSPORTS];   /**< answers sent, by
	                                        the client's transport */
	uint64_t servfail_transport[STATS_TRANSPORTS]; /**< ...of them
	                                      SERVFAIL */
	uint64_t tcp_accepted;    /**< TCP client connections */
	uint64_t tcp_rejected;    /**< refused at the connection cap */
	uint64_t tcp_idle_closed; /**< closed by the idle timeout */
	/* resolutions */
	uint64_t inflight_started; /**< iterator runs started */
	uint64_t inflight_joined;  /**< clients joined to a running one */
	uint64_t inflight_evicted; /**< oldest dropped, table full */
	uint64_t inflight_refused; /**< clients refused: too many waiting */
	uint64_t resolutions_done;
	uint64_t resolutions_servfail;
	/* upstream */
	uint64_t upstream_sends; /**< packets sent, all transports */
	uint64_t upstream_udp;
	uint64_t upstream_tcp;
	uint64_t upstream_tls;            /**< queries over TLS: forwarders
	                                       and authoritative servers */
	uint64_t upstream_tls_dane;       /**< ...of them, to servers whose
	                                       certificate a DNSSEC-secure
	                                       TLSA record vouched for (RFC
	                                       7671; a part of upstream_tls,
	                                       which counts every TLS query) */
	uint64_t upstream_tls_handshakes; /**< TLS connections made */
	uint64_t upstream_tls_resumed;    /**< ...of them resumed */
	uint64_t upstream_tls_failures;   /**< TLS connections that failed
	                                       (connect, handshake, checks) */
	uint64_t upstream_plain; /**< queries sent in plain DNS (UDP or TCP,
	                              neither boxed nor TLS) */
	uint64_t upstream_authtls_probes; /**< RFC 9539 probes started */
	uint64_t upstream_authtls_works;  /**< ...that found TLS working */
	uint64_t upstream_authtls_failed; /**< servers whose probe or TLS
	                                       connection failed */
	uint64_t upstream_authtls_plain;  /**< TLS queries to authoritative
	                                       servers asked again in plain */
	uint64_t upstream_authtls_dane;   /**< queries over DANE TLS */
	uint64_t upstream_authtls_dane_failed; /**< ...whose pin failed */
	uint64_t upstream_replies; /**< valid replies fed to the iterator */
	uint64_t upstream_timeouts;
	uint64_t upstream_hedges; /**< early deadlines (the next server
	                               asked too; not timeouts) */
	uint64_t upstream_unreachable;
	uint64_t upstream_shared;  /**< queries joined to an equal one in
	                                flight (upshare.h) */
	uint64_t upstream_ignored; /**< packets that did not match a query */
	uint64_t unwanted_replies; /**< upstream packets dropped, all
	                                reasons: ignored + curve bad */
	uint64_t upstream_formerr_edns;
	uint64_t upstream_truncated; /**< TC=1 answers retried over TCP */
	uint64_t upstream_errors;    /**< local send/socket failures */
	uint64_t upstream_lame;      /**< replies that marked a server lame */
	uint64_t upstream_malformed; /**< replies with unparsable records */
	uint64_t upstream_noaa;      /**< answers used without the AA bit */
	uint64_t upstream_fallback;  /**< failed cuts re-asked at the parent */
	uint64_t
		upstream_case_lost; /**< plain replies without our 0x20 case */
	uint64_t upstream_private_stripped; /**< answer A/AAAA records
	                                  removed by private-address */
	uint64_t upstream_zone_backoff;     /**< questions failed at once:
	                                         zone in back-off (RFC 9520) */
	uint64_t upstream_failure_cached;   /**< questions failed at once:
	                                         their failure is cached */
	uint64_t upstream_zone_probe;       /**< background probes of zones
	                                         whose back-off ended */
	/* DNSCurve */
	uint64_t curve_queries;        /**< boxed queries sent */
	uint64_t curve_streamlined;    /**< ...in the streamlined format */
	uint64_t curve_txt;            /**< ...in the TXT format */
	uint64_t curve_responses_ok;   /**< boxes opened and matched */
	uint64_t curve_responses_bad;  /**< dropped: did not open or match */
	uint64_t curve_plain_fallback; /**< plain queries to curve servers */
	uint64_t curve_fallback_txt;   /**< TXT tried after streamlined */
	uint64_t curve_downgrade_refused; /**< key-less referrals or plain
	                                  answers refused (curve-require,
	                                  curve-pin) */
	uint64_t answers_curve; /**< answers (cache or resolution) whose
	                             data all came over DNSCurve */
	uint64_t answers_plain; /**< ...with data learned plain */
	/* recursive replies: clients answered by a resolution */
	uint64_t recursive_replies;
	uint64_t recursion_usec;           /**< their waits added up */
	uint64_t hist[STATS_HIST_BUCKETS]; /**< their waits, bucketed */
	/* queries by type (parsed client queries) */
	uint64_t qtype[STATS_QTYPES];
	uint64_t qtype_other; /**< types STATS_QTYPES and up */
	/* Unbound's extended statistics (parsed client queries and the
	 * answers sent) */
	uint64_t nodata;                 /**< NOERROR answers without answer
	                                      records (num.answer.rcode.nodata) */
	uint64_t qopcode[STATS_OPCODES]; /**< queries by OPCODE */
	uint64_t qclass[STATS_QCLASSES]; /**< queries by class */
	uint64_t qclass_other;           /**< classes 256 and up */
	uint64_t edns_present;           /**< queries with an OPT record */
	uint64_t edns_do;                /**< ...with the DO bit */
	uint64_t qipv6;                  /**< queries from IPv6 clients */
	uint64_t requestlist_sum;        /**< resolutions running, added up at
	                                      each start (for the average) */
	uint64_t requestlist_max;        /**< most running at once: a level,
	                                      the largest of the workers' in a
	                                      sum, kept as is by stats_sub */
	uint64_t tcp_opened;             /**< client TCP slots taken */
	uint64_t tcp_freed;              /**< ...and given back (the difference
	                                      is total.tcpusage) */
	/* DNSSEC (Unbound's names where it has them) */
	uint64_t answer_secure; /**< answers whose data was SECURE (with AD
	                             or not: num.answer.secure) */
	uint64_t answer_bogus;  /**< answers of BOGUS data: SERVFAIL to CD=0,
	                             the data to CD=1 (num.answer.bogus) */
	uint64_t rrset_bogus;   /**< RRsets the validator found bogus
	                             (num.rrset.bogus; the iterator counts) */
	uint64_t aggressive_nxdomain;  /**< NXDOMAIN from cached NSEC/NSEC3
	                                    (RFC 8198) */
	uint64_t aggressive_nodata;    /**< NOERROR/NODATA from them */
	uint64_t aggressive_wildcard;  /**< answers from a cached wildcard
	                                    and an NSEC (RFC 8198 s. 5.4) */
	uint64_t ede[STATS_EDE_CODES]; /**< responses sent with an EDE, by
	                                    code (stats_ede_index) */

	/* the Redis tier (cachedb; resolver/front/cachedb_step.h) */
	uint64_t cachedb_hits;        /**< local misses answered from it */
	uint64_t cachedb_misses;      /**< ...not there (or expired) */
	uint64_t cachedb_errors;      /**< timeouts, connection lost, bad
	                                   replies */
	uint64_t cachedb_refused;     /**< records refused: MAC, version,
	                                   question, a bad line */
	uint64_t cachedb_skipped;     /**< local misses not asked: down */
	uint64_t cachedb_stores;      /**< records written */
	uint64_t cachedb_lookups;     /**< lookups that ended */
	uint64_t cachedb_lookup_usec; /**< ...their time, summed */
};

/**
 * The slot of an EDE code in struct stats' ede[]: one of 0, 1, 2, 3, 6,
 * 7, 8, 9, 10, 12, 27 (RFC 8914: Other, Unsupported DNSKEY Algorithm,
 * Unsupported DS Digest Type, Stale Answer, DNSSEC Bogus, Signature
 * Expired, Signature Not Yet Valid, DNSKEY Missing, RRSIGs Missing, NSEC
 * Missing; RFC 9276: Unsupported NSEC3 Iterations Value).
 * @return 0 .. STATS_EDE_CODES - 1, or -1 for a code not counted.
 */
int stats_ede_index(uint16_t code);

/**
 * Upstream TLS queries not authenticated by DANE (opportunistic, or to a
 * forwarder): upstream_tls less upstream_tls_dane.
 */
static inline uint64_t stats_tls_opportunistic(const struct stats *st)
{
	return st->upstream_tls >= st->upstream_tls_dane ?
	               st->upstream_tls - st->upstream_tls_dane :
	               0;
}

/**
 * The share of upstream queries sent encrypted (DNSCurve or TLS, with
 * DANE or not), 0 to 1; 0 when none was sent.
 */
static inline double stats_encrypted_share(const struct stats *st)
{
	uint64_t enc = st->curve_queries + st->upstream_tls;
	uint64_t all = enc + st->upstream_plain;

	return all == 0 ? 0.0 : (double)enc / (double)all;
}

struct sockaddr;

/**
 * Count a query sent upstream in plain (privacy.c): upstream_plain, and
 * its server in the top servers asked in plain (topk_note_server on
 * topk_shared(), the privacy report).
 * @param st: the worker's counters.
 * @param sa: the server's address.
 * @param zone, zonelen: wire name of the zone cut it was asked for.
 */
void stats_plain_sent(struct stats *st, const struct sockaddr *sa,
                      const uint8_t *zone, size_t zonelen);

/** Most worker threads shown one by one ("threads" bound). */
#define STATS_THREADS_MAX 64

/** The few counters shown per thread as Unbound's threadN.* names. */
struct stats_thread {
	uint64_t queries;           /**< threadN.num.queries */
	uint64_t cache_hits;        /**< threadN.num.cachehits */
	uint64_t cache_misses;      /**< threadN.num.cachemiss */
	uint64_t prefetch;          /**< threadN.num.prefetch */
	uint64_t expired;           /**< threadN.num.expired */
	uint64_t recursive_replies; /**< threadN.num.recursivereplies */
	uint64_t
		recursion_usec; /**< their waits: threadN.recursion.time.avg */
	uint64_t hist[STATS_HIST_BUCKETS]; /**< ...bucketed: .median */
	uint64_t requestlist_sum;  /**< threadN.requestlist.avg (over */
	uint64_t inflight_started; /**< the resolutions started) */
	uint64_t requestlist_max;  /**< threadN.requestlist.max (a level) */
	uint64_t inflight_evicted; /**< threadN.requestlist.overwritten */
	uint64_t inflight_refused; /**< threadN.requestlist.exceeded */
	uint64_t requestlist_now;  /**< threadN.requestlist.current.all (a
	                                level: the control socket asks each
	                                worker; 0 from stats_thread_of) */
};

/**
 * Pick one worker's per-thread counters.
 * @param st: the worker's counters.
 * @param t: receives them.
 */
void stats_thread_of(const struct stats *st, struct stats_thread *t);

/**
 * Add every counter of src to dst (to sum the workers).
 * @param dst: the sum.
 * @param src: one worker's counters.
 */
void stats_add(struct stats *dst, const struct stats *src);

/**
 * Take every counter of base away from dst (counters since a reset).
 * A counter of base above dst's (cannot happen for a baseline taken
 * from the same counters earlier) gives 0.
 * @param dst: the counters, changed in place.
 * @param base: the baseline.
 */
void stats_sub(struct stats *dst, const struct stats *base);

/**
 * Count a parsed client query by its type.
 * @param st: the counters.
 * @param qtype: the question type.
 */
void stats_qtype(struct stats *st, uint16_t qtype);

struct respond_query;

/**
 * Count a parsed client query: type, class, OPCODE, EDNS, DO and the
 * client's address family.
 * @param st: the counters.
 * @param q: the query (respond_query_parse's).
 * @param ipv6: the client's address is IPv6.
 */
void stats_query(struct stats *st, const struct respond_query *q, bool ipv6);

/**
 * Count an answer sent to a client: its RCODE, and NODATA (NOERROR
 * without answer records).
 * @param st: the counters.
 * @param rcode: the 4-bit header RCODE.
 * @param ancount: the records of its answer section.
 */
void stats_answer(struct stats *st, unsigned rcode, uint16_t ancount);

/**
 * stats_response for an answer with a DNSSEC status of SECURE or BOGUS
 * or with an EDE (stats_response calls it).
 */
void stats_response_dnssec(struct stats *st, const struct respond_query *q,
                           const struct answer *a);

/**
 * Count a response sent to a client from an answer, as respond_build
 * writes it (respond_plan): its RCODE (SERVFAIL for BOGUS data to a
 * CD=0 client), NODATA, secure and bogus answers, and the EDE sent. Use
 * this instead of stats_answer for answers. Inline: the usual answer
 * (not bogus, no EDE) costs what stats_answer costs (plus a count when
 * secure).
 * @param st: the counters.
 * @param q: the client's query.
 * @param a: the answer.
 */
static inline void stats_response(struct stats *st,
                                  const struct respond_query *q,
                                  const struct answer *a)
{
	if (a->sec <= CACHE_SEC_SECURE && !a->ede) {
		stats_answer(st, a->rcode, a->an_count);
		if (a->sec == CACHE_SEC_SECURE &&
		    (a->rcode == WIRE_RCODE_NOERROR ||
		     a->rcode == WIRE_RCODE_NXDOMAIN))
			st->answer_secure++; /* an error is never secure */
	} else
		stats_response_dnssec(st, q, a);
}

/**
 * Count a response sent to a client by its transport, and SERVFAIL
 * among them (num.answer.transport.*; the RCODE itself is counted by
 * stats_response or stats_rcode).
 * @param st: the counters.
 * @param tr: the client's transport.
 * @param rcode: the 4-bit header RCODE of the response.
 */
static inline void stats_sent(struct stats *st, enum stats_transport tr,
                              unsigned rcode)
{
	st->answer_transport[tr]++;
	if ((rcode & (STATS_RCODES - 1)) == WIRE_RCODE_SERVFAIL)
		st->servfail_transport[tr]++;
}

/**
 * Count a resolution started while `running` were running (itself
 * included): total.requestlist.avg and .max.
 * @param st: the counters.
 * @param running: resolutions running now.
 */
void stats_requestlist(struct stats *st, uint64_t running);

/**
 * A quantile of recursion times from histogram buckets (as
 * stats_recursion_quantile; for one thread's, struct stats_thread).
 * @return seconds; 0 when the buckets are empty.
 */
double stats_hist_quantile(const uint64_t hist[STATS_HIST_BUCKETS], double q);

/**
 * The recursion time below which a fraction of the recursive replies
 * fall, from the histogram (linear within a bucket, as Unbound does).
 * @param st: the counters.
 * @param q: the fraction, 0.5 for the median.
 * @return seconds; 0 when nothing was counted.
 */
double stats_recursion_quantile(const struct stats *st, double q);

/**
 * Count a client answered by a resolution, and how long it waited.
 * @param st: the counters.
 * @param usec: microseconds from its query to its answer.
 */
void stats_recursion(struct stats *st, uint64_t usec);

/**
 * The upper bound of a histogram bucket (its lower bound is the upper
 * bound of the bucket before, 0 for the first).
 * @param i: the bucket, 0 .. STATS_HIST_BUCKETS - 1.
 * @return microseconds; 0 for i out of range.
 */
uint64_t stats_hist_upper_us(size_t i);

/**
 * Report every counter in stats_format's order, the histogram buckets
 * excepted (read them from st->hist with stats_hist_upper_us). Query
 * types are reported when non-zero and for a few common types always.
 * @param st: the counters.
 * @param fn, arg: called once per value.
 */
void stats_walk(const struct stats *st, stats_walk_fn fn, void *arg);

/**
 * Count an answer sent to a client.
 * @param st: the counters.
 * @param rcode: the 4-bit header RCODE of the answer.
 */
void stats_rcode(struct stats *st, unsigned rcode);

/**
 * Write every counter as "name=value\n" lines: stats_walk's, then the
 * histogram buckets ("histogram.000000.000000.to.000000.000001=0").
 * @param st: the counters.
 * @param out, cap: destination; NUL-terminated when cap > 0.
 * @return the length the full text needs, without the NUL (as
 *   snprintf): a value >= cap means the text was cut.
 */
size_t stats_format(const struct stats *st, char *out, size_t cap);

/**
 * Read one counter by name ("curve.responses.bad", "num.query.type.A";
 * not the histogram).
 * @param st: the counters.
 * @param name: the counter name.
 * @param value: receives the value.
 * @return 0, or -1 when there is no such counter.
 */
int stats_get(const struct stats *st, const char *name, uint64_t *value);

#endif /* CURVECACHE_RESOLVER_STATS_H */
