/*
 * resolver/stats.h - counters of one worker of the curvecache daemon.
 *
 * Each worker (one event loop) owns a struct stats and bumps its fields
 * without locks; a reader (the control socket, later) sums the workers'
 * copies with stats_add and prints them with stats_format as
 * "name=value" lines, names dotted by area ("curve.responses.bad").
 *
 * Design notes:
 * - Plain uint64_t fields, no allocation: a struct stats is zeroed with
 *   memset and copied with =.
 * - The names live in one table in stats.c next to the field offsets, so
 *   adding a counter is one field here and one line there.
 */
#ifndef CURVECACHE_RESOLVER_STATS_H
#define CURVECACHE_RESOLVER_STATS_H

#include <stddef.h>
#include <stdint.h>

/** RCODEs counted one by one (4-bit header RCODE). */
#define STATS_RCODES 16

/** The counters of one worker. */
struct stats {
	/* client side */
	uint64_t queries;            /**< client queries received */
	uint64_t queries_udp;
	uint64_t queries_tcp;
	uint64_t acl_refused;        /**< answered REFUSED by access control */
	uint64_t acl_dropped;        /**< dropped by access control */
	uint64_t dropped;            /**< unanswerable: QR set, too short */
	uint64_t cache_hits;         /**< answered from the cache */
	uint64_t cache_misses;       /**< went to a resolution */
	uint64_t local_answers;      /**< answered from a local zone */
	uint64_t nonrecursive;       /**< RD=0 queries */
	uint64_t truncated;          /**< UDP answers sent with TC */
	uint64_t send_errors;        /**< answers the kernel did not take */
	uint64_t rcode[STATS_RCODES];/**< answers sent, by RCODE */
	uint64_t tcp_accepted;       /**< TCP client connections */
	uint64_t tcp_rejected;       /**< refused at the connection cap */
	uint64_t tcp_idle_closed;    /**< closed by the idle timeout */
	/* resolutions */
	uint64_t inflight_started;   /**< iterator runs started */
	uint64_t inflight_joined;    /**< clients joined to a running one */
	uint64_t inflight_evicted;   /**< oldest dropped, table full */
	uint64_t inflight_refused;   /**< clients refused: too many waiting */
	uint64_t resolutions_done;
	uint64_t resolutions_servfail;
	/* upstream */
	uint64_t upstream_sends;     /**< packets sent, all transports */
	uint64_t upstream_udp;
	uint64_t upstream_tcp;
	uint64_t upstream_replies;   /**< valid replies fed to the iterator */
	uint64_t upstream_timeouts;
	uint64_t upstream_unreachable;
	uint64_t upstream_ignored;   /**< packets that did not match a query */
	uint64_t upstream_formerr_edns;
	uint64_t upstream_truncated; /**< TC=1 answers retried over TCP */
	uint64_t upstream_errors;    /**< local send/socket failures */
	/* DNSCurve */
	uint64_t curve_queries;      /**< boxed queries sent */
	uint64_t curve_streamlined;  /**< ...in the streamlined format */
	uint64_t curve_txt;          /**< ...in the TXT format */
	uint64_t curve_responses_ok; /**< boxes opened and matched */
	uint64_t curve_responses_bad;/**< dropped: did not open or match */
	uint64_t curve_plain_fallback; /**< plain queries to curve servers */
};

/**
 * Add every counter of src to dst (to sum the workers).
 * @param dst: the sum.
 * @param src: one worker's counters.
 */
void stats_add(struct stats *dst, const struct stats *src);

/**
 * Count an answer sent to a client.
 * @param st: the counters.
 * @param rcode: the 4-bit header RCODE of the answer.
 */
void stats_rcode(struct stats *st, unsigned rcode);

/**
 * Write every counter as "name=value\n" lines.
 * @param st: the counters.
 * @param out, cap: destination; NUL-terminated when cap > 0.
 * @return the length the full text needs, without the NUL (as
 *   snprintf): a value >= cap means the text was cut.
 */
size_t stats_format(const struct stats *st, char *out, size_t cap);

/**
 * Read one counter by name ("curve.responses.bad").
 * @param st: the counters.
 * @param name: the counter name.
 * @param value: receives the value.
 * @return 0, or -1 when there is no such counter.
 */
int stats_get(const struct stats *st, const char *name, uint64_t *value);

#endif /* CURVECACHE_RESOLVER_STATS_H */
