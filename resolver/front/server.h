/*
 * resolver/front/server.h - one worker of the curvecache daemon: client
 * listeners (UDP and TCP), the path of a client query, and the driving of
 * iterator runs.
 *
 * The path of a query (resolver/README): access control (cfg_acl_check:
 * REFUSED or silently dropped), parse (FORMERR on garbage, NOTIMP on
 * opcodes other than QUERY, REFUSED for classes other than IN and for
 * zone transfers), local zones (RFC 6761/6303), the cache (the hot path:
 * the answer is built in per-worker buffers and sent with no allocation),
 * RD=0 queries answered from the cache only (a cached referral at most),
 * then a resolution: joined to an identical one in flight
 * (resolver/front/inflight.h) or started with iter_new and driven through
 * iter_next / upstream_send / iter_feed until ITER_DONE, when every
 * waiting client gets its answer.
 *
 * Design notes:
 * - Everything a worker owns lives in struct server: its loop, sockets,
 *   the in-flight table, the upstream transport, the server-selection
 *   table and its counters. The cache, the DNSCurve client, the local
 *   zones and the configuration are shared and owned by the caller.
 * - Every client query ends within cfg->query_timeout_ms: each
 *   resolution has a deadline timer that asks the iterator again when the
 *   time is up and answers SERVFAIL if it still has no answer.
 * - TCP (RFC 7766): 2-byte length framing, pipelined queries answered as
 *   they complete (out of order), an idle timeout, at most
 *   incoming-num-tcp connections (the one idle longest is closed to
 *   make room for a new one), at most SERVER_TCP_PENDING_MAX queries in
 * progress per connection (reading pauses beyond).
 * - DNS over TLS (RFC 7858; server_tls.h): a listen address on tls-port
 *   takes TLS on TCP only; its connections are TCP's slots and framing.
 * - Bounds: SERVER_RES_MAX resolutions at once (beyond, the newest is
 *   dropped or an old one jostled: resolution.c; each holds about 60 KB
 *   of iterator state, so this bounds the memory of an overload),
 *   INFLIGHT_WAITERS_PER_ENTRY clients per resolution.
 */
#ifndef CURVECACHE_RESOLVER_SERVER_H
#define CURVECACHE_RESOLVER_SERVER_H

#include "base/base.h"

#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "stats/stats.h"
#include "wire/wire.h"

struct cache;
struct cfg;
struct curve_client;
struct hints;
struct iter_env;
struct localzone;
struct sel;

/** Resolutions in flight per worker. */
#define SERVER_RES_MAX 256
/** Clients waiting on resolutions per worker, all together. */
#define SERVER_WAITERS_MAX 4096
/** Largest query accepted over TCP (bytes, without the prefix). */
#define SERVER_TCP_QUERY_MAX 4096
/** Queries in progress per TCP connection before reading pauses. */
#define SERVER_TCP_PENDING_MAX 32
/** Bytes of answers queued on one TCP connection before it is closed. */
#define SERVER_TCP_QUEUE_MAX (256 * 1024)
/** A TCP connection with nothing in progress is closed after this. */
#define SERVER_TCP_IDLE_MS 10000u
/** Steps of one iter_next loop before the resolution is failed. */
#define SERVER_DRIVE_MAX 256
/** Extra time past the query timeout before a resolution is forced. */
#define SERVER_DEADLINE_SLACK_MS 50u
/** Bytes for record images read from the cache. */
#define SERVER_ANSWER_BYTES WIRE_MSG_MAX

/** Status codes. */
enum server_status {
	SERVER_OK = 0,
	SERVER_EBIND,  /**< a listener could not be set up */
	SERVER_ENOMEM, /**< allocation failed */
	SERVER_EINVAL  /**< bad argument */
};

/** What a worker is given (shared, owned by the caller). */
struct server_params {
	uv_loop_t *loop;       /**< the worker's loop */
	const struct cfg *cfg; /**< read live: reload in place */
	struct cache *cache;
	struct curve_client *curve; /**< NULL: no DNSCurve */
	/** local zones until server_localdata_load builds the worker's
	    own from the config; NULL: none until then */
	const struct localzone *lz;
	struct hints *hints;  /**< ownership passes to the server */
	struct ratelimit *rl; /**< shared buckets; NULL: own */
	struct curvepin *pin; /**< shared pins; NULL: own */
	/** shared NSEC index (RFC 8198); NULL: no aggressive answers */
	struct nsecidx *nsecidx;
	/** shared resolution failure cache (RFC 9520); NULL: own */
	struct deadzone *deadzone;
};

/** Opaque worker. */
struct server;
struct anchors;

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *server_strerror(int status);

/**
 * Create a worker (no sockets yet).
 * @param out: receives it; free with server_free.
 * @param p: what it works with; p->hints now belongs to the server (also
 *   on failure).
 * @return SERVER_OK, SERVER_EINVAL or SERVER_ENOMEM.
 */
int server_new(struct server **out, const struct server_params *p) MUST_CHECK;

/**
 * Bind and start the UDP and TCP listeners of cfg->listen.
 * @param s: the worker.
 * @param err, errlen: receive "ADDR: reason" on failure.
 * @return SERVER_OK or SERVER_EBIND (listeners opened so far are closed
 *   by server_stop).
 */
int server_listen(struct server *s, char *err, size_t errlen) MUST_CHECK;

/**
 * Use new root hints from now on (SIGHUP). Resolutions already running
 * keep the old ones, which are freed when the last of them ends.
 * @param s: the worker.
 * @param h: the new hints; ownership passes to the server.
 * @return SERVER_OK or SERVER_ENOMEM (h is freed, the old hints stay).
 */
int server_hints_set(struct server *s, struct hints *h) MUST_CHECK;

/**
 * Use new DNSSEC trust anchors from now on (start, SIGHUP); like the
 * hints, resolutions already running keep the old set.
 * @param a: the anchors (anchor/anchor.h), ownership passes to the
 *   server; NULL: no validation.
 * @return SERVER_OK or SERVER_ENOMEM (a is freed, the old set stays).
 */
int server_anchors_set(struct server *s, struct anchors *a) MUST_CHECK;

/**
 * Add or remove a negative trust anchor in the worker's running set
 * (curvecache-control insecure_add / insecure_remove; a reload goes back
 * to the config's domain-insecure lines).
 * @param name, len: lowercase wire name.
 * @return SERVER_OK; SERVER_EINVAL when the worker does not validate,
 *   the name is not there (remove) or the set is full (add).
 */
int server_insecure_set(struct server *s, const uint8_t *name, size_t len,
                        bool add) MUST_CHECK;

/** The worker's running trust anchors, NULL when it does not validate. */
const struct anchors *server_anchors(const struct server *s);

/**
 * Note the forward zones of a config (SIGHUP): the iterator reads them
 * from the config (resolver/iter/iter_fwd.c), so this only logs
 * forward_zones when they changed; a late answer from a forwarder no
 * longer listed is not used.
 * @param s: the worker.
 * @param c: the new config.
 * @param err, errlen: receive the reason on failure.
 * @return SERVER_OK or SERVER_EINVAL.
 */
int server_forward_set(struct server *s, const struct cfg *c, char *err,
                       size_t errlen) MUST_CHECK;

/**
 * Load local-data-file and block-file of a config and build its local
 * zones (the built-in ones changed by its local-zone lines), at start and
 * on SIGHUP, and use them from now on. On failure the running tables
 * stay.
 * @param s: the worker.
 * @param c: the config whose file names to read (the new one on a
 *   reload).
 * @param err, errlen: receive "FILE:LINE: problem" on failure.
 * @return SERVER_OK or SERVER_EINVAL.
 */
int server_localdata_load(struct server *s, const struct cfg *c, char *err,
                          size_t errlen) MUST_CHECK;

/**
 * Stop: close the listeners and client connections, answer SERVFAIL to
 * every waiting client, cancel every upstream query. Run the loop
 * afterwards until it has no more handles, then call server_free.
 */
void server_stop(struct server *s);

/** Free a stopped worker (after its loop has closed every handle). NULL
 *  is allowed. */
void server_free(struct server *s);

/**
 * Write an address as "ADDR@PORT" (for logs and messages).
 * @param sa: AF_INET or AF_INET6 (others give "@0").
 * @param out, cap: destination (64 bytes always suffice).
 */
void server_addr_text(const struct sockaddr *sa, char *out, size_t cap);

/** Adds the counters of other workers to sum and writes their
 *  per-thread counters to per[0 .. cap); returns how many (see
 *  server_stats_more). */
typedef size_t server_stats_more_fn(void *arg, struct stats *sum,
                                    struct stats_thread *per, size_t cap);

/**
 * The worker's counters; with a server_stats_more function, a snapshot
 * of them plus what it adds (valid until the next call).
 */
const struct stats *server_stats(const struct server *s);

/**
 * server_stats, and the counters of each thread: per[0] this worker's,
 * per[1 ..] the others' (server_stats_more).
 * @param per, cap: receive the per-thread counters (cap >= 1).
 * @param n: receives how many entries of per were written.
 */
const struct stats *server_stats_threads(const struct server *s,
                                         struct stats_thread *per, size_t cap,
                                         size_t *n);

/**
 * Make server_stats add the counters of other workers (threads: N).
 * @param fn, arg: called by server_stats; fn NULL: none (never fails).
 * @return SERVER_OK or SERVER_ENOMEM.
 */
int server_stats_more(struct server *s, server_stats_more_fn *fn, void *arg);

/** The worker's server-selection table (the control socket's servers
 *  and lookup commands read it; same thread only). */
struct sel *server_sel(struct server *s);

struct authtls;

/** The worker's RFC 9539 state per authoritative server address
 *  (infra/authtls.h; the control socket's servers command reads it; same
 *  thread only), NULL without auth-tls (server_privacy.c). */
const struct authtls *server_authtls(const struct server *s);

/**
 * flush_infra on this worker: forget what it learned about a server
 * address (NULL: every address): its server-selection entry and the
 * DNSCurve format it answered in. Same thread only.
 * @return the server-selection entries removed.
 */
size_t server_forget_infra(struct server *s, const struct sockaddr *sa);

/** Called once when a probe (server_probe) ends, whatever its outcome:
 *  what it learned is in the cache. */
typedef void server_probe_fn(void *arg);

/**
 * Resolve a question in the background, with no client, fresh from the
 * servers (the cached copy is not used) and validated as any other, and
 * call fn when it ends: the RFC 5011 trust-anchor probes
 * (resolver/daemon/autotrust_run.h). Same thread only. A resolution of
 * the question already in flight is joined.
 * @param lname, len: lowercase wire name.
 * @return SERVER_OK (fn will be called once, at the latest when the
 *   server stops), SERVER_ENOMEM or SERVER_EINVAL (nothing started, fn
 *   never called: the joined resolution already has a probe).
 */
int server_probe(struct server *s, const uint8_t *lname, size_t len,
                 uint16_t qtype, server_probe_fn *fn, void *arg) MUST_CHECK;

/** Resolutions running now. */
size_t server_resolutions(const struct server *s);

/** Receives text (not NUL-terminated) from the functions below. */
typedef void server_text_fn(void *arg, const char *text, size_t len);

/**
 * The resolutions in flight, as Unbound's dump_requestlist shows one
 * thread: "thread #N", the header line "#   type cl name    seconds
 * module status", then one line per resolution: number, type, class,
 * name, seconds since it started (s.micro), "iterator" (a walk from
 * the root) or "forward" (a forward zone's servers), "wait" or
 * "prefetch", and the clients waiting. Same thread only; never fails
 * (a name that cannot be shown is "?").
 */
void server_requestlist(const struct server *s, unsigned thread,
                        server_text_fn *fn, void *arg);

/**
 * End every resolution in flight (flush_requestlist): each ends as an
 * abandoned one does (its waiting clients get SERVFAIL, or stale data
 * with serve-stale), its upstream queries are detached so that a late
 * reply is dropped. Same thread only.
 * @return how many were ended.
 */
size_t server_requestlist_flush(struct server *s);

/**
 * What the worker's iterator works with: its cache, selection table,
 * current root hints and config (for iter_peek_cut). Valid until the
 * next reload or server_free.
 * @param env: filled.
 */
void server_iter_env(const struct server *s, struct iter_env *env);

/** The certificate served over TLS and HTTPS (after a reload: the new
 *  one) as lines "file:", "subject:", "san:", "issuer:", "not_after:",
 *  "days_left:" into out (cap bytes, NUL-terminated). @return the length,
 *  0 when no certificate is served. */
size_t server_tls_cert(const struct server *s, char *out, size_t cap);
/** Bytes of that text, at most (out may be twice that). */
#define SERVER_TLS_CERT_BYTES 1024

/** EDNS option code of edns-tcp-keepalive (RFC 7828) and the TIMEOUT a
 *  server sends in it: the TCP idle timeout in units of 100 ms. */
#define SERVER_OPT_KEEPALIVE 11
#define SERVER_KEEPALIVE_UNITS (SERVER_TCP_IDLE_MS / 100u)

/** Does the query (q, len) carry the edns-tcp-keepalive option in an OPT
 *  record of the root? Reads only (q, len). */
bool server_keepalive_asked(const uint8_t *q, size_t len);

/** Append edns-tcp-keepalive with SERVER_KEEPALIVE_UNITS to the answer's
 *  OPT record, when it is the last record (of the root) and has none
 *  yet; writes at most up to cap. @return the new length (len: none). */
size_t server_keepalive_add(uint8_t *msg, size_t len, size_t cap);

#endif /* CURVECACHE_RESOLVER_SERVER_H */
