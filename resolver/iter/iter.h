/*
 * resolver/iter/iter.h - the iterator: one recursive resolution as a state
 * machine that does no I/O (Knot Resolver's produce/consume split).
 *
 * The daemon's event loop (resolver/transport/upstream.c,
 * resolver/front/server.c) drives it:
 *
 *   req = iter_new(env, name, type, class, now)
 *   loop:
 *     switch (iter_next(req, now, &target)):
 *       ITER_SEND: send target.qname/qtype to target.addr (boxed when
 *                  target.curve), remember target.token; loop again
 *                  (several queries may be outstanding);
 *       ITER_WAIT: wait for a reply or a timeout of an outstanding token,
 *                  then iter_feed(req, &reply, now) and loop;
 *       ITER_DONE: iter_result(req) is the answer for the clients.
 *
 * Design notes:
 * - The iterator reads and writes the cache, the server-selection table
 *   (sel.h) and the root hints; it never touches a socket or a clock:
 *   `now` (struct iter_now) is an argument, so unit tests drive time and
 *   feed canned replies.
 * - Transport belongs to the caller: the shell chooses the source port and
 *   ID, applies and checks 0x20, boxes and opens DNSCurve (streamlined,
 *   then TXT after a timeout when the config says so), retries over TCP
 *   on TC=1, and drops anything that does not match or does not open. The
 *   iterator sees only validated replies, timeouts and hard failures.
 * - Everything the iterator learns goes through one classifier: answer,
 *   CNAME/DNAME, referral, NXDOMAIN, NODATA, lame, error. Records are
 *   cached only when they are in bailiwick of the zone that was asked;
 *   NS names carrying a uz5 key label mark their servers as DNSCurve.
 * - DNSCurve keys come from the parent's referral only: an NS RRset the
 *   zone's own servers give for their apex is cached only when it names
 *   the same keys. With curve-require (and curve-pin) a key-less
 *   referral into a zone that needs keys, or a plain answer in it, ends
 *   the resolution in SERVFAIL (iter_curve.c).
 * - Server choice (sel.h, iter_query.c): the lowest score, unknown
 *   servers in random order (env->random). A target may carry a hedge
 *   deadline: the caller reports it as an early ITER_REPLY_TIMEOUT with
 *   reply.hedge set, the iterator asks the next server and keeps the
 *   query open; only the real timeout counts against the server. The
 *   retry of a query that timed out at a live server goes over TCP.
 * - Every loop has a cap: ITER_MAX_REFERRALS, ITER_MAX_CNAME,
 *   ITER_MAX_SUBQUERIES, ITER_MAX_SENDS, and the deadline.
 */
#ifndef CURVECACHE_RESOLVER_ITER_H
#define CURVECACHE_RESOLVER_ITER_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#include "validate/tlsa.h"
#include "wire/answer.h"
#include "wire/wire.h"

struct slab;

struct cache;
struct sel;
struct hints;
struct cfg;
struct localzone;
struct curvepin;
struct anchors;
struct dnssec_keycache;
struct nsecidx;
struct deadzone;

/** Referrals followed for one question. */
#define ITER_MAX_REFERRALS 30
/** CNAME/DNAME links followed for one client question. */
#define ITER_MAX_CNAME 12
/** Sub-resolutions (glueless NS addresses) for one client question. */
#define ITER_MAX_SUBQUERIES 6
/** Nesting depth of sub-resolutions. */
#define ITER_MAX_DEPTH 4
/** Upstream queries sent for one client question, all told. */
#define ITER_MAX_SENDS 64
/** Queries outstanding at once for one resolution. */
#define ITER_MAX_OUTSTANDING 8
/** Bytes of the answer image of a finished resolution. */
#define ITER_RESULT_MAX 16384

/** Time, given by the caller: wall clock for TTLs, monotonic for RTT. */
struct iter_now {
	time_t wall;      /**< seconds, time(NULL): cache expiry */
	uint64_t mono_ms; /**< milliseconds, CLOCK_MONOTONIC: RTT, deadline */
};

/** What the iterator shares between resolutions (one per worker). */
/** Counters the iterator adds to (each NULL: not counted). */
struct iter_tally {
	uint64_t *lame;             /**< replies that marked a server
	                                 lame for its zone */
	uint64_t *malformed;        /**< replies dropped: a record whose
	                                 RDATA does not parse */
	uint64_t *noaa;             /**< answers used without AA */
	uint64_t *fallback;         /**< failed cuts re-asked at the
	                                 parent */
	uint64_t *private_stripped; /**< answer A/AAAA records removed
	                                 by private-address */
	uint64_t *rrset_bogus;      /**< RRsets that failed DNSSEC
	                                 validation */
	uint64_t *aggr_nx;          /**< NXDOMAIN proven from the NSEC
	                                 index (RFC 8198) */
	uint64_t *aggr_nodata;      /**< NODATA proven from it */
	uint64_t *aggr_wild;        /**< answers synthesized from a cached
	                                 wildcard and an NSEC of it
	                                 (RFC 8198 section 5.4) */
	uint64_t *zone_backoff;     /**< questions failed at once: their
	                                 zone's servers were silent
	                                 (RFC 9520, infra/deadzone.h) */
	uint64_t *failure_cached;   /**< questions failed at once: their
	                                 own failure is cached */
	uint64_t *fwd_sends;        /**< queries sent to forwarders */
	uint64_t *fwd_failures;     /**< questions failed at a forward
	                                 zone: no forwarder answered */
};

struct iter_env {
	struct cache *cache;              /**< the shared answer cache */
	struct sel *sel;                  /**< server-selection table */
	const struct hints *hints;        /**< root hints */
	const struct cfg *cfg;            /**< limits and switches */
	bool refresh;                     /**< prefetch: the client's question
	                                       (and its CNAME targets) is
	                                       asked upstream even when cached,
	                                       to refresh the cache */
	struct dnssec_keycache *keycache; /**< NULL, or public keys kept
	                                       for reuse (one per worker,
	                                       validate/dnssec_set.h) */
	const struct anchors *anchors;    /**< DNSSEC trust anchors
	                                       (anchor/anchor.h); NULL:
	                                       no validation */
	struct curvepin *pin;             /**< zones seen with DNSCurve keys
	                                       (curvepin.h); NULL: none kept */
	struct nsecidx *nsecidx;          /**< validated NSEC records for
	                                       aggressive negative answers
	                                       (RFC 8198, nsecidx.h;
	                                       shared); NULL: none kept */
	struct deadzone *deadzone;        /**< resolution failures: zones
	                                       in back-off, failed questions
	                                       (RFC 9520; shared); NULL:
	                                       none kept */
	uint64_t *downgrades;             /**< NULL, or a counter bumped for
	                                       every downgrade refused
	                                       (curve-require, curve-pin) */
	struct slab *req_slab;            /**< NULL, or where iter_new takes
	                                       the request (slots of at least
	                                       iter_req_size(); same thread) */
	struct slab *frame_slab;          /**< likewise for its frames
	                                       (iter_frame_size()) */
	struct iter_tally tally;
	uint64_t *prime_after;    /**< NULL, or monotonic ms before
	                               which the root hints are not
	                               primed again (set when priming
	                               failed; one per worker) */
	uint32_t (*random)(void); /**< NULL: curve_random's pool; a
	                               fixed sequence in tests (the
	                               order of unknown servers) */
	/** NULL, or what a request does with a zone whose back-off ended
	 *  (RFC 9520): it hands the zone's question (qname, len: lowercase
	 *  wire name; qtype) to a probe run in the background, with no
	 *  client, and fails at once; true if that probe will run. NULL:
	 *  the request itself is the probe (and its client waits). */
	bool (*dz_probe)(void *arg, uint64_t key, const uint8_t *qname,
	                 size_t len, uint16_t qtype);
	void *dz_probe_arg;
	/** NULL, or told (with dz_probe_arg) that a zone failed (key;
	 *  zone, len: its wire name): its back-off starts now, and the
	 *  worker probes it (ZONE SOA) when the back-off ends, with no
	 *  client (RFC 9520). */
	void (*dz_failed)(void *arg, uint64_t key, const uint8_t *zone,
	                  size_t len);
	uint64_t dz_probe_key; /**< this request is the background probe of
	                            that zone (deadzone_key; 0: none) */
};

/** DANE (iter_target.dane): an NS name's text. */
#define ITER_DANE_NAME_BYTES 256

/** One upstream query the caller must send. */
struct iter_target {
	uint32_t token;               /**< echo it in iter_feed; non-zero,
	                                   never reused in one request */
	uint8_t qname[WIRE_NAME_MAX]; /**< lowercase wire name to ask */
	size_t qnamelen;
	uint16_t qtype;
	uint16_t qclass;
	uint8_t zone[WIRE_NAME_MAX]; /**< the zone cut this server serves
	                                  (TXT format zone; bailiwick) */
	size_t zonelen;
	struct sockaddr_storage addr; /**< server address, port 53 */
	socklen_t addrlen;
	bool curve;             /**< box it: the NS name had a key */
	uint8_t key[KEY_BYTES]; /**< server public key if curve */
	uint16_t edns;          /**< EDNS payload to offer, 0 = none */
	bool edns_do;           /**< with EDNS: set DO (validating) */
	bool rd;                /**< set RD: a forwarder (forward-zone) */
	uint32_t timeout_ms;    /**< report ITER_REPLY_TIMEOUT after */
	uint32_t hedge_ms;      /**< 0, or (below timeout_ms) also
	                             report an early ITER_REPLY_TIMEOUT
	                             with hedge set after this long:
	                             the next server is asked too, and
	                             the query keeps waiting for its
	                             answer and its real timeout */
	bool tcp;               /**< ask over TCP from the start (a
	                             retry after a UDP drop) */
	bool dane; /**< a SECURE TLSA RRset at _853._tcp.NS with a usable
	                record (iter_enc.c): ask over TLS to port 853, the
	                server's chain matched against dane_set, never in
	                plain nor unauthenticated */
	struct tlsa_set dane_set; /**< its usable records */
	bool dane_want; /**< not dane: the zone asked is DNSSEC-secure and
	                     nothing of the NS name's TLSA is cached; once
	                     the server takes TLS, the transport may have it
	                     looked up in the background (upstream.h) */
	char dane_ns[ITER_DANE_NAME_BYTES]; /**< the NS name (text) */
};

/** How an outstanding query ended, as the caller saw it. */
enum iter_reply_kind {
	ITER_REPLY_MSG = 0,     /**< a validated DNS reply (msg is set) */
	ITER_REPLY_TIMEOUT,     /**< nothing acceptable within timeout_ms; the
	                             caller may still feed a late MSG for the
	                             same token afterwards */
	ITER_REPLY_UNREACHABLE, /**< ICMP unreachable, connection refused */
	ITER_REPLY_FORMERR_EDNS /**< FORMERR to a query with EDNS: the
	                           server gets no EDNS from now on */
};

/** A reply fed back to the iterator. */
struct iter_reply {
	uint32_t token;
	enum iter_reply_kind kind;
	const struct wire_msg *msg; /**< kind MSG: parsed, ID/question
	                                 matched, opened if curve */
	bool curve;                 /**< came inside a DNSCurve box */
	uint8_t via;                /**< kind MSG: the enum cache_via of
	                                 its transport (cache.h) */
	uint32_t rtt_ms;            /**< send to receive */
	bool hedge;                 /**< kind TIMEOUT: the early one at
	                                 target.hedge_ms, not a timeout */
	bool tcp;                   /**< kind MSG: came over TCP (its
	                                 time never raises the server's
	                                 smoothed RTT: handshake and the
	                                 server's TCP queue are not the
	                                 UDP path) */
};

/** What iter_next asks of the caller. */
enum iter_step {
	ITER_SEND = 0, /**< send *target, then call iter_next again */
	ITER_WAIT,     /**< wait for a reply/timeout of an outstanding token;
	                    also returned after every query of the step has
	                    timed out, while a late answer may still come:
	                    the caller's deadline timer (iter_next past the
	                    deadline gives ITER_DONE) ends that wait */
	ITER_DONE      /**< finished: see iter_result */
};

/** Counters a resolution adds to; the caller sums them into stats. */
struct iter_counts {
	uint32_t sends;
	uint32_t sends_curve;
	uint32_t referrals;
	uint32_t subqueries;
	uint32_t lame;
	uint32_t timeouts;
	uint32_t hedges;     /**< early deadlines passed (the next
	                          server asked too) */
	uint32_t downgrades; /**< key-less referrals or plain
	                          answers refused (curve-require,
	                          curve-pin) */
};

/** Opaque resolution state. */
struct iter_req;

/**
 * Start a resolution.
 * @param env: shared state; must outlive the request.
 * @param qname, qnamelen: canonical (lowercase) wire name.
 * @param qtype, qclass: the question.
 * @param now: current time; the deadline is now + cfg query-timeout.
 * @return the request (free with iter_free), or NULL when out of memory.
 */
/** Bytes of a request and of one of its frames (for struct slab). */
size_t iter_req_size(void);
size_t iter_frame_size(void);

struct iter_req *iter_new(const struct iter_env *env, const uint8_t *qname,
                          size_t qnamelen, uint16_t qtype, uint16_t qclass,
                          const struct iter_now *now);

/**
 * Ask what to do next.
 * @param req: the request.
 * @param now: current time.
 * @param target: filled when ITER_SEND is returned.
 * @return ITER_SEND, ITER_WAIT or ITER_DONE. Past the deadline, or when a
 *   cap is reached, it returns ITER_DONE with SERVFAIL.
 */
enum iter_step iter_next(struct iter_req *req, const struct iter_now *now,
                         struct iter_target *target);

/**
 * Feed a reply (or timeout) for a token iter_next handed out. Replies
 * for tokens that are no longer outstanding are ignored.
 * @param req: the request.
 * @param reply: what happened; reply->msg is read during the call only.
 * @param now: current time.
 */
void iter_feed(struct iter_req *req, const struct iter_reply *reply,
               const struct iter_now *now);

/**
 * The answer, once iter_next returned ITER_DONE: RCODE NOERROR,
 * NXDOMAIN or SERVFAIL (then `why` says why, for the log, and there are
 * no records). Valid until iter_free.
 * NULL before ITER_DONE. After ITER_DONE every token is retired (feeds
 * are ignored), so the caller may cancel its queries.
 */
const struct answer *iter_result(const struct iter_req *req);

/** This request's counters. */
const struct iter_counts *iter_counts(const struct iter_req *req);

/** Free a request (any state). NULL is allowed. */
void iter_free(struct iter_req *req);

/* ------------------------------------------------------------------ */
/* Peeking (curvecache-control lookup)                                 */

/** NS names and addresses per name shown by iter_peek_cut (the
 *  iterator's own caps). */
#define ITER_PEEK_NS 16
#define ITER_PEEK_ADDRS 4

/** One NS name of a peeked zone cut. */
struct iter_peek_ns {
	uint8_t name[WIRE_NAME_MAX]; /**< lowercase wire name */
	size_t namelen;
	bool curve; /**< its name carries a key */
	uint8_t key[KEY_BYTES];
	size_t naddr; /**< 0: glueless, none cached */
	struct sockaddr_storage addr[ITER_PEEK_ADDRS]; /**< port 53 */
	uint32_t score[ITER_PEEK_ADDRS]; /**< sel_score: lower is asked
	                                      first */
};

/** The zone cut a resolution of a name would start from. */
struct iter_peek {
	uint8_t zone[WIRE_NAME_MAX];
	size_t zonelen;
	bool from_hints; /**< no usable cut cached: the root
	                      hints */
	bool forward;    /**< a forward zone: the servers are
	                      its forwarders (from_hints false) */
	size_t nns;
	struct iter_peek_ns ns[ITER_PEEK_NS];
};

/**
 * Find, without sending anything, the zone cut and servers the iterator
 * would start from to resolve a name (the CUT state on a private
 * request): the closest cached NS set with usable addresses, else the
 * root hints. Reads the cache and the selection table only.
 * @param env: as for iter_new.
 * @param name, len: canonical wire name.
 * @param now: current time.
 * @param out: filled.
 * @return 0, or -1 (malformed name, out of memory).
 */
int iter_peek_cut(const struct iter_env *env, const uint8_t *name, size_t len,
                  const struct iter_now *now, struct iter_peek *out);

/**
 * Copy the RDATA of a parsed record with the names in it (NS, CNAME,
 * PTR, DNAME, MX, SRV, SOA) decompressed, as the cache stores it
 * (iter_util.c).
 * @param m: the message; rr: one of its records.
 * @param out, cap: destination.
 * @param outlen: receives the length.
 * @return false when the RDATA is malformed (A/AAAA of the wrong size
 *   included) or does not fit.
 */
bool iter_rdata_expand(const struct wire_msg *m, const struct wire_rr *rr,
                       uint8_t *out, size_t cap, size_t *outlen);

#endif /* CURVECACHE_RESOLVER_ITER_H */
