/*
 * resolver/ctl/control.h - the control socket of the curvecache daemon and
 * the commands it runs; curvecache-control (control_main.c) is the
 * client.
 *
 * The socket: a Unix stream socket at cfg->control_socket, created
 * before the daemon drops its privileges, mode 0660, owned by the
 * daemon's user and group. A peer must be root, the daemon's user or a
 * member of its group (SO_PEERCRED, and the peer's groups); anyone else
 * gets "error: permission denied" and is closed.
 *
 * The protocol (control_session): lines of text. A command is one line
 * of at most CONTROL_LINE_MAX bytes; its answer is zero or more lines of
 * output and then one status line, "ok" or "error: REASON". The peer may
 * send the next command on the same connection (curvecache-control top
 * polls stats_noreset so) or close. load_cache is special: every line
 * after it, up to the peer's end of stream, is the cache file; its answer
 * comes at the end. A malformed or oversized command gets an error line
 * and the connection is closed.
 *
 * Unbound's framing, chosen per connection by its first line: a line
 * that starts "UBCT" is a command from unbound-control (or an exporter
 * made for it: unbound_exporter, the netdata and collectd plugins), as
 * it sends one with control-use-cert: no and a socket path for
 * control-interface: "UBCT1 " + " COMMAND ARGS" + "\n". Another version
 * is answered "error version mismatch". The answer is the command's
 * output alone (status in Unbound's words, stats as name=value lines),
 * "ok" first for a command that changes things, or "error REASON" first
 * on failure (unbound-control exits 1 when its first bytes are
 * "error"); then the connection is closed. load_cache reads the cache
 * file up to a line "EOF" (unbound-control never closes its side),
 * which dump_cache writes last in this framing.
 *
 * Commands:
 *   status                       version, uptime, pid, threads, config
 *   stats [text|prometheus|json] counters since the last reset, then reset
 *   stats_noreset [FORMAT]       the same without the reset
 *   reload                       as SIGHUP: config and root hints
 *   flush NAME                   every entry of one name
 *   flush_zone NAME              every entry at or below a name
 *   flush_all                    everything
 *   flush_negative               every NXDOMAIN and NODATA entry
 *   flush_bogus                  every entry that failed validation
 *   dump_cache                   the cache as text (cachefile.h)
 *   load_cache                   read such text back (it follows)
 *   lookup NAME [TYPE]           what the cache holds for a name (each
 *                                entry's DNSSEC status and provenance,
 *                                a one-line verdict on the answer) and
 *                                the servers a resolution would ask
 *   servers                      the server-selection table
 *   help                         the list of commands
 *
 * Design notes:
 * - Everything runs on the daemon's event loop thread, the one worker's
 *   thread: commands read the worker's counters and tables directly.
 * - The protocol and the commands (control_cmd.c) take bytes and write
 *   into a growing buffer; only control.c touches sockets. A unit test or
 *   a fuzzer drives control_session_feed with any bytes.
 * - Bounds: CONTROL_LINE_MAX per command, CONTROL_CONNS_MAX peers at
 *   once, CONTROL_OUT_MAX bytes of answer per command (a larger dump is
 *   cut, with an error line), cache-file lines of CACHEFILE_LINE_MAX.
 */
#ifndef CURVECACHE_RESOLVER_CONTROL_H
#define CURVECACHE_RESOLVER_CONTROL_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <uv.h>

struct cache;
struct cfg;
struct curve_client;
struct curvepin;
struct nsecidx;
struct server;

/**
 * The verdict of lookup on an answer: its DNSSEC status (enum cache_sec)
 * and whether all of it came over DNSCurve, in the words a user asks
 * in: "secure and private (DNSSEC + DNSCurve)", "secure (DNSSEC), plain
 * transport", "private (DNSCurve), unsigned", "neither (unsigned,
 * plain)", "BOGUS (failed DNSSEC validation; DNSCurve|plain)"; for
 * unchecked data (validation off) "not validated" stands for
 * "unsigned".
 * @return a static string; never NULL.
 */
const char *control_sec_summary(int sec, bool curve);

/** Longest command line, newline excluded. */
#define CONTROL_LINE_MAX 1024
/** Words in a command line, the command included. */
#define CONTROL_ARGS_MAX 4
/** Peers connected at once; more are closed at once. */
#define CONTROL_CONNS_MAX 16
/** Bytes of the answer to one command (dump_cache is cut beyond). */
#define CONTROL_OUT_MAX ((size_t)512 * 1024 * 1024)
/** A peer that sends nothing for this long is closed. */
#define CONTROL_IDLE_MS 60000u
/** Mode of the socket file. */
#define CONTROL_SOCKET_MODE 0660

/** Status codes. */
enum control_status {
	CONTROL_OK = 0,
	CONTROL_ESOCKET, /**< the socket could not be set up */
	CONTROL_EINUSE,  /**< another process answers on the path */
	CONTROL_EUSER,   /**< the configured user does not exist */
	CONTROL_ENOMEM,  /**< allocation failed */
	CONTROL_EINVAL   /**< bad argument */
};

/** Output formats of the stats commands. */
enum control_format {
	CONTROL_FMT_TEXT = 0, /**< name=value lines */
	CONTROL_FMT_PROM,     /**< Prometheus text exposition format */
	CONTROL_FMT_JSON      /**< one JSON object */
};

/** What control_session_feed asks of the transport. */
enum control_state {
	CONTROL_OPEN = 0, /**< send the output, keep reading */
	CONTROL_CLOSE,    /**< send the output, then close */
	CONTROL_STOP      /**< send the output, close, then stop the
	                       daemon (SIGTERM to itself: the clean
	                       stop) */
};

/** A growing output buffer (an answer being built). */
struct control_out {
	char *p; /**< the text (not NUL-terminated); NULL when empty */
	size_t len;
	size_t cap;
	bool full; /**< CONTROL_OUT_MAX reached or no memory: text was
	                dropped */
};

/**
 * Reload the configuration (main.c): 0, or -1 with a message in err.
 */
typedef int (*control_reload_fn)(void *arg, char *err, size_t errlen);

/** Runs on one worker's thread: its server and its copy of the cfg
 *  (dump_requestlist, flush_requestlist, forward_add, forward_remove). */
typedef void control_worker_fn(struct server *srv, struct cfg *cfg, void *arg);

/**
 * Run fn on every worker, worker 0 (env.srv, env.cfg) first then the
 * extra threads in order, and return when all have run it (main.c).
 */
typedef void (*control_each_fn)(void *arg, control_worker_fn *fn, void *fnarg);

/** What the commands work on; owned by the caller, same thread. */
struct control_env {
	struct cache *cache;
	struct curve_client *curve; /**< NULL: no DNSCurve */
	struct server *srv;         /**< the worker */
	const struct cfg *cfg;      /**< the running config (reloads change
	                                 it in place) */
	const char *cfg_path;
	time_t start_wall;        /**< when the daemon started */
	uint64_t start_ms;        /**< the same, monotonic */
	control_reload_fn reload; /**< NULL: reload refused */
	void *reload_arg;
	struct nsecidx *nsec; /**< NULL, or the validated NSEC records of
	                           aggressive answers (flushed with the
	                           cache) */
	control_each_fn each; /**< NULL: worker 0 only, and
	                           forward_add/remove refused */
	void *each_arg;
	struct curvepin *pin; /**< DNSCurve pins and keys confirmed
	                           by DNSSEC (lookup); NULL: none */
};

/** The command engine: an environment and the stats reset baseline. */
struct control_cmd;
/** One peer's conversation. */
struct control_session;
/** The listening socket and its peers. */
struct control;

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *control_strerror(int status);

/* ---- output buffer ---- */

/** Append bytes; past CONTROL_OUT_MAX (or out of memory) sets full. */
void control_out_put(struct control_out *o, const char *s, size_t n);

/** Append printf-style text (one line at most CONTROL_LINE_MAX * 4). */
void control_out_printf(struct control_out *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** Free the text and empty the buffer. */
void control_out_free(struct control_out *o);

/* ---- commands and sessions (control_cmd.c) ---- */

/**
 * Create the command engine.
 * @param env: copied; the objects it points to must outlive the engine.
 * @param out: receives it; free with control_cmd_free.
 * @return CONTROL_OK, CONTROL_EINVAL or CONTROL_ENOMEM.
 */
int control_cmd_new(const struct control_env *env, struct control_cmd **out)
	MUST_CHECK;

/** Free the engine (NULL allowed); its sessions must be freed first. */
void control_cmd_free(struct control_cmd *c);

/**
 * The commands the daemon runs, in the order help lists them (for the
 * help of curvecache-control).
 * @param i: from 0.
 * @param usage: if not NULL, receives the arguments and what it does.
 * @return the i-th command word; NULL past the last.
 */
const char *control_verb_at(size_t i, const char **usage);

/**
 * Start a conversation with one (already authorised) peer.
 * @return CONTROL_OK, CONTROL_EINVAL or CONTROL_ENOMEM.
 */
int control_session_new(struct control_cmd *c, struct control_session **out)
	MUST_CHECK;

/** Free a session (NULL allowed); a load in progress is abandoned. */
void control_session_free(struct control_session *s);

/**
 * Feed bytes from the peer; any split, any content. Answers are
 * appended to out.
 * @return CONTROL_OPEN, CONTROL_CLOSE after a protocol error (out
 *   holds the error line) or an Unbound-framed command, CONTROL_STOP
 *   after the stop command.
 */
enum control_state control_session_feed(struct control_session *s,
                                        const char *buf, size_t len,
                                        struct control_out *out);

/**
 * The peer's end of stream: finishes a load_cache (its answer is
 * appended to out); a partial command line is answered with an error.
 * @return CONTROL_CLOSE.
 */
enum control_state control_session_eof(struct control_session *s,
                                       struct control_out *out);

/**
 * Write the counters in a format (the stats commands; also for tests).
 * @param c: the engine.
 * @param fmt: the format.
 * @param reset: start counting from zero afterwards.
 * @param out: the text is appended.
 */
void control_stats_write(struct control_cmd *c, enum control_format fmt,
                         bool reset, struct control_out *out);

/* ---- the socket (control.c) ---- */

/**
 * Create the socket at cfg->control_socket and listen on the loop. Call
 * it while still privileged: the file gets mode 0660 and the owner and
 * group of cfg->user (of the current process when cfg->user is empty); a
 * missing parent directory is created (mode 0755, same owner). A stale
 * socket file nobody answers on is replaced; a live one is not.
 * @param loop: the daemon's loop.
 * @param env: for the commands (copied).
 * @param out: receives the control, also on failure (a handle may be
 *   open): stop it with control_stop, run the loop, then control_free.
 * @param err, errlen: receive "PATH: reason" on failure.
 * @return CONTROL_OK, CONTROL_ESOCKET, CONTROL_EINUSE, CONTROL_EUSER,
 *   CONTROL_ENOMEM or CONTROL_EINVAL.
 */
int control_new(uv_loop_t *loop, const struct control_env *env,
                struct control **out, char *err, size_t errlen) MUST_CHECK;

/** Close the socket and every peer; remove the socket file if we can. */
void control_stop(struct control *ctl);

/** Free a stopped control whose handles have closed (NULL allowed). */
void control_free(struct control *ctl);

#endif /* CURVECACHE_RESOLVER_CONTROL_H */
