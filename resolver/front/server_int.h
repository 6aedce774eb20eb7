/*
 * resolver/front/server_int.h - what server.c (the worker, UDP, the query
 * path, sending answers), resolution.c (the resolutions), server_tcp.c (TCP
 * client connections), server_tls.c (DNS over TLS on them), server_doh.c
 * (DNS over HTTPS on those) and server_ddr.c (RFC 9462) share; nobody
 * else may include it.
 */
#ifndef CURVECACHE_RESOLVER_SERVER_INT_H
#define CURVECACHE_RESOLVER_SERVER_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "conf/cfg.h"
#include "inflight.h"
#include "iter/iter.h"
#include "qlog.h"
#include "respond.h"
#include "server.h"
#include "base/slab.h"
#include "udpio.h"

/** inflight_dest.transport values (qlog.h's enum qlog_proto's); TCP
 *  and TLS answers go to a connection slot (server_tcp_send), DoH
 *  answers to their stream on one (server_doh_send; inflight_dest.stream
 *  is read for SERVER_DOH only). */
#define SERVER_UDP QLOG_UDP
#define SERVER_TCP QLOG_TCP
#define SERVER_TLS QLOG_TLS
#define SERVER_DOH QLOG_HTTPS

/** What server_query did with a query. */
enum server_qresult {
	SERVER_Q_DONE = 0, /**< answered or dropped */
	SERVER_Q_WAITING   /**< waits on a resolution: answered later */
};

/** One UDP listener (batched receive and send: udpio.h). */
struct server_udp {
	struct server *s;
	struct udpio io;
};

/** One TCP listener. */
struct server_tcpl {
	struct server *s;
	uv_tcp_t h;
	bool open;
	bool waiting;        /**< a connection waits on a slot being
	                          freed (server_tcp_open): accept it then */
	uv_connection_cb cb; /**< its accept callback */
};

/** One TCP client connection (a fixed slot; see server_tcp.c). */
struct server_conn {
	struct server *s;
	uint32_t slot;
	uint64_t serial; /**< changes at every reuse of the slot */
	bool used;       /**< slot taken (open or closing) */
	bool closing;
	bool eof;         /**< the client closed its side */
	bool paused;      /**< reading stopped: too many pending */
	bool kick;        /**< the idle timer is set to process
	                       buffered frames at once */
	unsigned handles; /**< handles open (tcp + timer) */
	unsigned pending; /**< queries waiting on resolutions */
	unsigned writes;  /**< queued uv_write requests */
	size_t queued;    /**< bytes in those */
	uint64_t last_ms; /**< last activity, monotonic */
	uv_tcp_t h;
	uv_timer_t idle;
	struct sockaddr_storage peer;
	bool proxy_done;         /**< PROXY v2 header read (or none due) */
	struct server_tlsc *tls; /**< DNS over TLS (server_tls.c; one
	                              more handle); NULL: plain TCP */
	bool doh_want;           /**< on https-port: HTTP/2 after TLS */
	struct server_doh *doh;  /**< DNS over HTTPS (server_doh.c) */
	size_t rlen;
	uint8_t rbuf[2 + SERVER_TCP_QUERY_MAX];
};

/** Root hints with a count of users (the server and resolutions). */
struct server_hints {
	struct hints *h;
	unsigned refs;
};

/** DNSSEC trust anchors with a count of users (the server and
 *  resolutions), replaced on reload like the hints. */
struct server_anchors {
	struct anchors *a;
	unsigned refs;
};

/** DNSSEC public keys kept per worker (a few per signed zone in use;
 *  each is about 1-2 KB with libcrypto's objects). */
#define SERVER_KEYCACHE_SLOTS 512

/** Background probes of dead zones (RFC 9520) queued or running at
 *  once per worker; beyond, the zone is probed by a later question. */
#define SERVER_DZ_PROBES_MAX 8

/** A background probe waiting for the next loop turn (server.c). */
struct server_dzq {
	uint64_t key; /**< deadzone_key of the zone */
	uint16_t qtype;
	size_t len;
	uint8_t name[WIRE_NAME_MAX]; /**< lowercase wire name */
};

/** A background probe running (server.c): its zone, and its worker for
 *  the end callback (server_probe_fn). */
struct server_dzrun {
	struct server *s;
	uint64_t key; /**< deadzone_key of the zone; 0: a free slot */
};

/** Dead zones whose back-off end a worker's timer waits for, to probe
 *  them then with no client (server_dz.c); beyond, a later question
 *  probes the zone. */
#define SERVER_DZ_ARMS_MAX 8
/** Timer probes of a zone in a row with no client question between,
 *  after which the timer forgets it. */
#define SERVER_DZ_IDLE_MAX 3u
/** How long a timer probe holds its zone until it reaches it (then it
 *  holds it for its own time limit: deadzone_extend). */
#define SERVER_DZ_HOLD_MS 10000u

/** A dead zone a worker's timer waits for, with the question it kept
 *  (the last one into the zone). */
struct server_dzarm {
	struct server_dzq q; /**< q.key 0: a free slot */
	uint64_t at_ms;      /**< when the back-off ends (clock_ms) */
};

/** Bytes of the description of the certificate served. */
#define SERVER_TLS_CERT_TEXT SERVER_TLS_CERT_BYTES

/** Frame slots per resolution slot (most walks need one or two). */
#define SERVER_FRAMES_PER_RES 2

struct server {
	uv_loop_t *loop;
	const struct cfg *cfg;
	struct cache *cache;
	struct curve_client *curve;
	const struct localzone *lz; /**< own_lz, or the params' */
	struct localzone *own_lz;   /**< built from cfg local-zone
	                                 lines (server_localdata_load) */
	struct server_hints *hints;
	struct server_anchors *anchors;   /**< NULL: no validation */
	struct dnssec_keycache *keycache; /**< the worker's DNSSEC keys */
	struct sel *sel;
	struct inflight *inflight;
	struct upstream *up;
	struct upshare *share; /**< equal queries sent once */
	struct ratelimit *rl;  /**< per-client token buckets
	                            (shared by the workers) */
	bool own_rl, own_pin;  /**< made here, freed here */
	uint64_t fwd_sum;      /**< digest of the forward zones in use (the
	                            iterator reads them from cfg) */
	struct localdata *ld;  /**< local-data / block-file */
	struct curvepin *pin;  /**< zones seen with keys
	                            (curve-pin; shared) */
	struct nsecidx *nx;    /**< validated NSEC records
	                            (RFC 8198; shared, not ours) */
	struct deadzone *dz;   /**< failure cache (RFC 9520;
	                            shared unless own_dz) */
	bool own_dz;
	uv_timer_t dz_timer; /**< starts the probes queued below */
	bool dz_timer_open;
	size_t dz_nq; /**< probes queued (dz_q) */
	struct server_dzrun dz_run[SERVER_DZ_PROBES_MAX]; /**< running */
	uint64_t dz_probe_next; /**< the key of the probe starting now
	                             (server_iter_deadzone) */
	struct server_dzq dz_q[SERVER_DZ_PROBES_MAX];
	uv_timer_t dz_arm_timer; /**< the next back-off end of dz_arm */
	bool dz_arm_open;
	struct server_dzarm dz_arm[SERVER_DZ_ARMS_MAX];
	struct server_dane *dane; /**< TLSA lookups (server_dane.c) */
	struct stats st;
	server_stats_more_fn *stats_more; /**< other workers' counters */
	void *stats_more_arg;
	struct stats *stats_sum; /**< their sum with st */
	bool stopping;
	size_t nres;                 /**< resolutions alive */
	struct server_res *res_head; /**< ...all of them, newest
	                                  first (dump_requestlist) */
	struct slab req_slab;        /**< iterator requests and */
	struct slab frame_slab;      /**< frames (slab.h: why) */
	uv_timer_t slab_timer;       /**< gives their pages back once
	                                  idle (server.c) */
	bool slab_timer_open;
	uv_timer_t ticket_timer; /**< rotates the ticket keys
	                              (server_ticket.c) */
	bool ticket_timer_open;
	struct server_udp udp[CFG_MAX_LISTEN];
	size_t nudp;
	struct server_tcpl tcpl[CFG_MAX_LISTEN];
	size_t ntcpl;
	struct server_conn *conns; /**< nconns slots (incoming-num-tcp) */
	uint32_t nconns;
	struct tls_ctx *tls_ctx; /**< DNS over TLS for clients
	                              (server_tls.c); NULL: none */
	uint64_t conn_serial;
	char tls_cert[SERVER_TLS_CERT_TEXT]; /**< the certificate served:
	                                          subject, SANs, issuer
	                                          (server_tls.c) */
	int64_t tls_not_after;               /**< its notAfter, Unix time */
	size_t doh_qbytes, doh_rbytes;       /**< held by DoH streams
	                                          (server_doh.c) */
	uint64_t prime_after_ms;             /**< iter_env.prime_after */
	struct cachedb_worker *cdb;          /**< the Redis tier's connection
	                                          and space (cachedb_step.c);
	                                          NULL: none */
	uint8_t ans[SERVER_ANSWER_BYTES];    /**< record images */
	uint8_t out[RESPOND_BUF_BYTES];      /**< response being built */
};

/**
 * Handle one client query (UDP or TCP).
 * @param s: the worker.
 * @param pkt, len: the query.
 * @param d: where the answer goes.
 * @return SERVER_Q_WAITING if the answer comes later.
 */
enum server_qresult server_query(struct server *s, const uint8_t *pkt,
                                 size_t len, const struct inflight_dest *d);

/**
 * Build an answer to q and send it to d (SERVFAIL if it cannot be
 * built); counts it and writes the query log line.
 * @param waited: the query had waited on a resolution.
 * @param src: where the answer came from (query log).
 * @param aa: set the AA flag (local data: we are the authority).
 */
void server_answer(struct server *s, const struct respond_query *q,
                   const struct inflight_dest *d, const struct answer *a,
                   bool waited, enum qlog_src src, bool aa);

/** Answer q with an error rcode (counted, logged); nothing if it cannot
 * be built. @param waited: as server_answer. */
void server_error(struct server *s, const struct respond_query *q,
                  const struct inflight_dest *d, unsigned rcode, bool waited);

/** Drop one user of root hints; the last frees them. NULL: nothing. */
void server_hints_release(struct server_hints *h);
/** The same for trust anchors. */
void server_anchors_release(struct server_anchors *a);

/** Set the failure cache (RFC 9520), its counters and the background
 *  probes of dead zones in a resolution's env (resolution.c; the probes
 *  are server_dz.c's). */
void server_iter_deadzone(struct server *s, struct iter_env *env);

/** At stop: the queued probes of dead zones never start (their zones are
 *  released) and their timer closes (server_dz.c). */
void server_dz_stop(struct server *s);

/** The transport's upstream_tlsa_fn: queue a background lookup of
 *  _853._tcp.NS TLSA; at stop the queue is dropped (server_dane.c). */
void server_dane_want(void *arg, const char *ns);
void server_dane_stop(struct server *s);

/**
 * Send an answer over TCP to a connection slot (d->slot), if it is still
 * the same connection (d->serial) and open; with the edns-tcp-keepalive
 * option if d->keepalive.
 * @param waited: the query had been counted as pending.
 */
void server_tcp_send(struct server *s, const struct inflight_dest *d,
                     const uint8_t *msg, size_t len, bool waited);

/**
 * For a proxy-protocol-from peer (d->addr), parse the PROXY v2 header at
 * pkt: d->addr becomes its client (LOCAL keeps the peer) and *skip its
 * length. Other peers: *skip = 0, nothing changes.
 * @return false when the header is required but not valid (counted in
 *   num.query.proxy.bad): drop the packet (or the connection).
 */
bool server_proxy_client(struct server *s, const uint8_t *pkt, size_t len,
                         struct inflight_dest *d, size_t *skip);

/**
 * The socket flags of a listener (udpio.h UDPIO_F_*): SO_REUSEPORT with
 * several workers, IP_FREEBIND with ip-freebind.
 */
unsigned server_sock_flags(const struct server *s);

/** Start the TCP listener on an address. @return 0 or a libuv error. */
int server_tcp_listen(struct server *s, const struct sockaddr *sa);

/** Close every TCP listener and connection. */
void server_tcp_stop(struct server *s);

struct tls_ctx;

/** The TLS context of a config's tls-service-key and tls-service-pem
 *  (server_tls.c; *out NULL when it has none), checked against its
 *  listen addresses on tls-port. @return 0, or -1 with "FILE:LINE:
 *  problem" in err. */
int server_tls_load(const struct cfg *c, struct tls_ctx **out, char *err,
                    size_t errlen);
/** Use a context for new connections from now on (the old one is freed
 *  once its connections end); NULL: none. Describes its certificate
 *  (c's tls-service-pem, read just after it) for server_tls_cert. */
void server_tls_use(struct server *s, struct tls_ctx *ctx,
                    const struct cfg *c);
/** Is this listen address on the config's tls-port? */
bool server_tls_port(const struct cfg *c, const struct sockaddr *sa);
/** Start a DNS-over-TLS listener. @return 0 or a libuv error. */
int server_tls_listen(struct server *s, const struct sockaddr *sa);
/** server_tcp.c's hooks for a connection with c->tls: close its TLS
 *  session (the slot's last handle), send an answer (padded, framed),
 *  move plaintext waiting beyond rbuf into it, read on or pause. */
void server_tls_close(struct server_conn *c);
void server_tls_write(struct server_conn *c, const uint8_t *msg, size_t len);
void server_tls_refill(struct server_conn *c);
void server_tls_reading(struct server_conn *c, bool on);

/** A TCP listener whose connections cb accepts (server_tls.c's).
 *  @return 0 or a libuv error. */
int server_tcp_listen_cb(struct server *s, const struct sockaddr *sa,
                         uv_connection_cb cb);

/** A free slot set up (idle timer, serial; its own TCP handle unused
 *  by DNS over TLS) for a connection waiting on ls; NULL on failure or
 *  when none is free: then the connection idle longest (nothing in
 *  flight) is closed and the newcomer stays on ls until its slot is
 *  free (ls's callback runs again then), or, all being busy, it is
 *  refused. */
struct server_conn *server_tcp_open(struct server *s, uv_stream_t *ls);

/** The life of a connection, for server_tls.c: take the frames
 *  buffered in rbuf (process), close it, process soon from the loop
 *  (kick), restart its idle timer, and one of its handles closed
 *  (unref: the slot is free after the last). */
void server_tcp_process(struct server_conn *c);
void server_tcp_close(struct server_conn *c);
void server_tcp_kick(struct server_conn *c);
void server_tcp_idle(struct server_conn *c);
void server_tcp_unref(struct server_conn *c);

/* DNS over HTTPS for clients (server_doh.c) and DDR (server_ddr.c). */

/** Is this listen address on the config's https-port (and not on
 *  tls-port)? */
bool server_doh_port(const struct cfg *c, const struct sockaddr *sa);
/** Start a DNS-over-HTTPS listener. @return 0 or a libuv error. */
int server_doh_listen(struct server *s, const struct sockaddr *sa);
/** server_tls.c's: accept a connection that speaks HTTP/2 after TLS. */
void server_tls_accept_doh(uv_stream_t *ls, int status);
/** server_tls.c's: send plaintext on a connection's TLS session; -1
 *  after closing it (its write queue is full or it is dead). */
int server_tls_plain(struct server_conn *c, const uint8_t *buf, size_t len);
/** After the handshake of a doh_want connection: its HTTP/2 session
 *  (the server's SETTINGS sent). @return 0, or -1: close it. */
int server_doh_start(struct server_conn *c);
/** Plaintext from a connection with c->doh. */
void server_doh_recv(struct server_conn *c, const uint8_t *buf, size_t len);
/** Send an answer to the stream of d (d->stream), if it is still open. */
void server_doh_send(struct server *s, const struct inflight_dest *d,
                     const uint8_t *msg, size_t len, bool waited);
/** Free c->doh (its TLS session has closed); nothing if NULL. */
void server_doh_free(struct server_conn *c);
/** Answer _dns.resolver.arpa. (RFC 9462) when DoT or DoH is served.
 *  @return true if answered. */
bool server_ddr(struct server *s, const struct respond_query *q,
                const struct inflight_dest *d);

/* A balancer's PROXY v2 header before TLS (server_tlsproxy.c). */

struct tls_conn;
/** server_tls.c's: the TLS session of a connection with c->tls. */
struct tls_conn *server_tls_session(struct server_conn *c);
/**
 * Accept a connection waiting on a DoT or DoH listener for c's TLS
 * session, and set c->peer: a proxy-protocol-from peer sends a PROXY v2
 * header first, in plain, read before TLS starts (its client is then the
 * peer; a bad or missing one closes the connection, counted in
 * num.query.proxy.bad); others start TLS at once. A peer (or header
 * client) the access control denies is refused.
 * @return 0, or -1: the caller closes the slot.
 */
int server_tlsproxy_accept(struct server_conn *c, uv_stream_t *ls);

#endif /* CURVECACHE_RESOLVER_SERVER_INT_H */
