/*
 * resolver/infra/sel.h - server selection: what curvecache knows about each
 * upstream server address, and which server of a zone's set to ask next.
 *
 * Per server address the table keeps a smoothed round-trip time (moved
 * only by answers; forgotten after SEL_DECAY_MS without one, and an
 * estimate slower than "unknown" decays toward it meanwhile), consecutive
 * timeouts with an exponential back-off, lame/broken marks per zone that
 * expire, whether the server chokes on EDNS (FORMERR), and the DNSCurve
 * key last seen for it.
 *
 * Design notes:
 * - Bounded: the table has a fixed number of slots chosen at sel_new;
 *   lookups probe at most SEL_PROBE_MAX slots and an insert into a full
 *   window replaces the least recently used entry of that window.
 * - Time is an argument (monotonic milliseconds): nothing here reads a
 *   clock, so tests drive time by hand.
 * - Not thread-safe: one table per worker thread (struct iter_env).
 * - Lame and broken marks are kept per (address, zone): a server that is
 *   lame for one zone may serve another well. Timeouts and EDNS status
 *   belong to the address.
 * - Unknown servers (no RTT yet) tie on score; sel_choose breaks that tie
 *   with a random value from the caller, so a zone's servers share the
 *   first queries instead of the first listed taking them all.
 * - Hedging: an unknown or slow server gets an early deadline
 *   (sel_hedge_ms, ~SEL_HEDGE_MS) after which the caller asks the next
 *   server too while the first query stays open. Only the full timeout
 *   (sel_timeout_ms) counts as a timeout (sel_timeout_report): a server
 *   that answers after 300 ms is slow, not dead.
 * - Drops are not deaths: a server that answered within SEL_ALIVE_MS
 *   (rate limiting, RRL, drops some replies of a busy server) backs off
 *   only after SEL_BACKOFF_ALIVE_AFTER consecutive timeouts, and then for
 *   SEL_BACKOFF_BASE_MS only; its timeout doubles at most
 *   SEL_TIMEOUT_SHIFT_ALIVE times. A server not heard from backs off from
 *   its first timeout, doubling per timeout.
 * - For operators (curvecache-control servers) each entry also keeps the
 *   last zone the address was asked about and its last error; that makes
 *   an entry about 470 bytes, 1.9 MB for the default 4096 slots.
 */
#ifndef CURVECACHE_RESOLVER_SEL_H
#define CURVECACHE_RESOLVER_SEL_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/** Default number of server slots. */
#define SEL_SLOTS_DEFAULT 4096
/** Fewest and most slots sel_new accepts. */
#define SEL_SLOTS_MIN 16
#define SEL_SLOTS_MAX (1u << 22)
/** Slots probed for one address. */
#define SEL_PROBE_MAX 8
/** Zone marks (lame/broken) kept per address. */
#define SEL_MARKS_MAX 4
/** RTT assumed for a server never heard from, and its first timeout. */
#define SEL_RTT_UNKNOWN_MS 400u
/** Early deadline of a query to an unknown server: then the next
 *  server is asked too (a hedge; not a timeout). */
#define SEL_HEDGE_MS 120u
/** A known server is hedged after SEL_HEDGE_RTT_FACTOR x its smoothed
 *  RTT (at least SEL_HEDGE_MS), when that comes before its timeout. */
#define SEL_HEDGE_RTT_FACTOR 2u
/** A server that answered within this time is alive: its timeouts are
 *  drops (rate limiting), not an outage. */
#define SEL_ALIVE_MS 10000u
/** Consecutive timeouts before an alive server backs off. */
#define SEL_BACKOFF_ALIVE_AFTER 3u
/** Doublings of an alive server's timeout after consecutive timeouts. */
#define SEL_TIMEOUT_SHIFT_ALIVE 1u
/** Bounds of the per-query timeout handed to the transport. */
#define SEL_TIMEOUT_MIN_MS 50u
#define SEL_TIMEOUT_MAX_MS 1000u
/** Timeout = SEL_TIMEOUT_RTT_FACTOR x smoothed RTT + SEL_TIMEOUT_SLACK_MS. */
#define SEL_TIMEOUT_RTT_FACTOR 3u
#define SEL_TIMEOUT_SLACK_MS 20u
/** Idle time after which a smoothed RTT is back to "unknown". An
 *  estimate above SEL_RTT_UNKNOWN_MS comes down to it linearly over this
 *  time; a faster one is kept as it is until then: idle time is
 *  no evidence of slowness. */
#define SEL_DECAY_MS 600000u
/** First back-off after a timeout; doubles per consecutive timeout. */
#define SEL_BACKOFF_BASE_MS 1000u
#define SEL_BACKOFF_MAX_MS 120000u
/** How long marks last. */
#define SEL_LAME_MS 900000u    /**< lame for a zone: 15 minutes */
#define SEL_BROKEN_MS 60000u   /**< SERVFAIL/FORMERR/NOTIMP: 1 minute */
#define SEL_NOEDNS_MS 3600000u /**< no EDNS after FORMERR: 1 hour */
/** Bytes of the zone name kept per address (a wire name's maximum). */
#define SEL_ZONE_MAX 255
/** Score penalties (lower scores are better). */
#define SEL_SCORE_TIMEOUT 100u    /**< per consecutive timeout... */
#define SEL_SCORE_TIMEOUTS_MAX 8u /**< ...counted up to this many */
#define SEL_SCORE_BACKOFF 100000u
#define SEL_SCORE_MARKED 1000000u
/** sel_choose: no candidate. */
#define SEL_NONE ((size_t)-1)

/** Status codes. */
enum sel_status {
	SEL_OK = 0,
	SEL_EINVAL, /**< bad argument (address family, slot count) */
	SEL_ENOMEM  /**< allocation failed */
};

/** Marks that exclude a server from one zone for a while. */
enum sel_mark {
	SEL_MARK_LAME = 0, /**< REFUSED, upward/sideways referral, no AA */
	SEL_MARK_BROKEN    /**< SERVFAIL, FORMERR, NOTIMP, bad reply */
};

/** The last thing that went wrong with an address (sel_info). */
enum sel_error {
	SEL_ERR_NONE = 0,
	SEL_ERR_TIMEOUT, /**< sel_timeout_report */
	SEL_ERR_LAME,    /**< sel_mark_set SEL_MARK_LAME */
	SEL_ERR_BROKEN,  /**< sel_mark_set SEL_MARK_BROKEN */
	SEL_ERR_NOEDNS   /**< sel_noedns_set */
};

/** What the table says about one address (see sel_info). */
struct sel_info {
	bool known;        /**< the address has an entry */
	uint32_t srtt_ms;  /**< smoothed RTT with decay applied */
	uint32_t timeouts; /**< consecutive timeouts */
	bool backoff;      /**< in back-off after timeouts */
	bool noedns;       /**< send no EDNS */
	bool curve;        /**< a DNSCurve key was recorded */
	uint8_t key[KEY_BYTES];
	uint8_t zone[SEL_ZONE_MAX]; /**< zone it was last asked about
	                                 (sel_zone_note), canonical */
	size_t zonelen;             /**< 0: none noted */
	enum sel_error last_error;
	uint64_t error_age_ms;  /**< how long ago (if last_error) */
	bool answered;          /**< an answer was ever recorded */
	uint64_t answer_age_ms; /**< how long ago (if answered) */
};

/**
 * The callback of sel_walk.
 * @param sa: the address (port 0).
 * @param info: what the table knows; valid during the call only.
 * @return 0 to go on, non-zero to stop the walk.
 */
typedef int (*sel_walk_fn)(const struct sockaddr *sa,
                           const struct sel_info *info, void *arg);

/** Counters. */
struct sel_stats {
	size_t entries;     /**< addresses held */
	size_t slots;       /**< capacity */
	uint64_t evictions; /**< entries replaced for space */
};

/** The table (opaque). */
struct sel;

/**
 * Create a table.
 * @param slots: capacity in addresses (0 = SEL_SLOTS_DEFAULT); rounded up
 *   to a power of two; SEL_SLOTS_MIN .. SEL_SLOTS_MAX.
 * @param out: receives the table; free with sel_free.
 * @return SEL_OK, SEL_EINVAL or SEL_ENOMEM (*out untouched on error).
 */
int sel_new(size_t slots, struct sel **out) MUST_CHECK;

/** Free a table. NULL is allowed. */
void sel_free(struct sel *s);

/** Describe a status code (a static string, never NULL). */
const char *sel_strerror(int status);

/**
 * The timeout for the next query to an address: a few times its smoothed
 * RTT, doubled per consecutive timeout (at most SEL_TIMEOUT_SHIFT_ALIVE
 * times for a server that answered within SEL_ALIVE_MS), within
 * SEL_TIMEOUT_MIN_MS ..
 * SEL_TIMEOUT_MAX_MS; SEL_RTT_UNKNOWN_MS for an unknown server.
 * @param sa: AF_INET or AF_INET6 address (others: SEL_RTT_UNKNOWN_MS).
 * @param now_ms: monotonic milliseconds.
 */
uint32_t sel_timeout_ms(const struct sel *s, const struct sockaddr *sa,
                        uint64_t now_ms);

/**
 * The hedge deadline of the next query to an address: after this many
 * milliseconds without an answer the caller asks the next server too,
 * keeping this query open. SEL_HEDGE_MS for an unknown server;
 * SEL_HEDGE_RTT_FACTOR x smoothed RTT (at least SEL_HEDGE_MS) for a known
 * one; 0 (no hedge) when that is not before sel_timeout_ms.
 * @param sa: AF_INET or AF_INET6 address.
 * @param now_ms: monotonic milliseconds.
 */
uint32_t sel_hedge_ms(const struct sel *s, const struct sockaddr *sa,
                      uint64_t now_ms);

/**
 * Whether to offer EDNS to an address (false after sel_noedns_set, until
 * SEL_NOEDNS_MS has passed).
 */
bool sel_edns(const struct sel *s, const struct sockaddr *sa, uint64_t now_ms);

/**
 * Score an address for a zone: lower is better. Usable servers score
 * their smoothed RTT plus SEL_SCORE_TIMEOUT per consecutive timeout (up
 * to SEL_SCORE_TIMEOUTS_MAX); servers in back-off add SEL_SCORE_BACKOFF;
 * servers marked lame or broken for the zone add SEL_SCORE_MARKED.
 * @param zone, zonelen: the zone (canonical wire name), or NULL.
 */
uint32_t sel_score(const struct sel *s, const struct sockaddr *sa,
                   const uint8_t *zone, size_t zonelen, uint64_t now_ms);

/**
 * Choose the best of a zone's candidate addresses: the lowest
 * sel_score. Unknown addresses (no RTT and no timeout) that tie for the
 * lowest score are chosen among at random (rnd modulo their number);
 * other ties go to the earlier candidate.
 * @param sa: n candidate addresses (NULL entries are skipped).
 * @param rnd: a random value from the caller (tests pass fixed ones).
 * @param unknown: NULL, or set to whether the choice was such a random
 *   pick among unknown servers.
 * @return an index into sa, or SEL_NONE when n is 0 or all are NULL.
 */
size_t sel_choose(const struct sel *s, const struct sockaddr *const *sa,
                  size_t n, const uint8_t *zone, size_t zonelen,
                  uint64_t now_ms, uint32_t rnd, bool *unknown);

/**
 * Record an answer received rtt_ms after sending: updates the smoothed
 * RTT (7/8 old + 1/8 new, kept in fractions of a millisecond; the first
 * sample, and the first after SEL_DECAY_MS without one, is taken as is)
 * and ends any back-off.
 */
void sel_rtt_report(struct sel *s, const struct sockaddr *sa, uint32_t rtt_ms,
                    uint64_t now_ms);

/**
 * Record a timeout (the full sel_timeout_ms, never a hedge): one more
 * consecutive timeout. A server not heard from within SEL_ALIVE_MS backs
 * off for SEL_BACKOFF_BASE_MS doubled per consecutive timeout (at most
 * SEL_BACKOFF_MAX_MS); one that answered within SEL_ALIVE_MS (a dropped
 * reply) backs off only from its SEL_BACKOFF_ALIVE_AFTER-th consecutive
 * timeout on, for SEL_BACKOFF_BASE_MS.
 */
void sel_timeout_report(struct sel *s, const struct sockaddr *sa,
                        uint64_t now_ms);

/**
 * Mark an address lame or broken for a zone (SEL_LAME_MS or
 * SEL_BROKEN_MS). When all SEL_MARKS_MAX marks are taken the one that
 * expires first is replaced.
 */
void sel_mark_set(struct sel *s, const struct sockaddr *sa,
                  const uint8_t *zone, size_t zonelen, enum sel_mark mark,
                  uint64_t now_ms);

/** Whether an address carries a live mark for a zone. */
bool sel_marked(const struct sel *s, const struct sockaddr *sa,
                const uint8_t *zone, size_t zonelen, uint64_t now_ms);

/**
 * The live mark of an address for a zone, if any (curvecache-control
 * lookup).
 * @param mark: set to the kind of the mark (the last one set).
 * @param left_ms: set to the time until it expires.
 * @return whether there is one (mark and left_ms untouched if not).
 */
bool sel_mark_get(const struct sel *s, const struct sockaddr *sa,
                  const uint8_t *zone, size_t zonelen, uint64_t now_ms,
                  enum sel_mark *mark, uint64_t *left_ms);

/** Stop offering EDNS to an address for SEL_NOEDNS_MS. */
void sel_noedns_set(struct sel *s, const struct sockaddr *sa, uint64_t now_ms);

/**
 * Record the DNSCurve key learned for an address (from its NS name), or
 * clear it (key NULL).
 */
void sel_key_set(struct sel *s, const struct sockaddr *sa, const uint8_t *key,
                 uint64_t now_ms);

/**
 * Everything known about one address.
 * @param info: filled; info->known is false for an unknown address.
 */
void sel_info_get(const struct sel *s, const struct sockaddr *sa,
                  uint64_t now_ms, struct sel_info *info);

/**
 * Forget what the table knows about one address (RTT, timeouts and
 * back-off, lame/broken marks, EDNS status, DNSCurve key, zone and last
 * error), or about every address: the next query treats it as never
 * heard from (curvecache-control flush_infra). The eviction counter is
 * kept.
 * @param sa: AF_INET or AF_INET6 address (port ignored; v4-mapped IPv6
 *   is the IPv4 address), or NULL for all; another family forgets none.
 * @return the number of entries removed (0 or 1 for one address).
 */
size_t sel_forget(struct sel *s, const struct sockaddr *sa);

/** Read the counters. */
void sel_stats_get(const struct sel *s, struct sel_stats *st);

/**
 * Note the zone an address is being asked about (shown by the control
 * socket's servers command; no effect on selection).
 * @param zone, zonelen: canonical wire name (longer ones are ignored).
 */
void sel_zone_note(struct sel *s, const struct sockaddr *sa,
                   const uint8_t *zone, size_t zonelen, uint64_t now_ms);

/**
 * Call fn for every address in the table, in slot order.
 * @return the non-zero value fn stopped with, else 0.
 */
int sel_walk(const struct sel *s, uint64_t now_ms, sel_walk_fn fn, void *arg);

/** Name of an enum sel_error ("timeout", "lame", ...; "-" for none). */
const char *sel_error_name(enum sel_error e);

#endif /* CURVECACHE_RESOLVER_SEL_H */
