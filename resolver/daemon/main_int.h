/*
 * resolver/daemon/main_int.h - what the files of the curvecache daemon share:
 * main.c (start-up, the event loop, the clean exit), main_signal.c (the
 * signals: stop, reload, counters) and main_args.c (the command line,
 * -V, -h and -t). Nobody else includes it.
 */
#ifndef CURVECACHE_RESOLVER_MAIN_INT_H
#define CURVECACHE_RESOLVER_MAIN_INT_H

#include <limits.h>
#include <stdbool.h>
#include <uv.h>

#include "conf/cfg.h"
#include "infra/hints.h"
#include "autotrust_run.h"
#include "trust.h"

/** Signals handled: TERM, INT, HUP, USR1. */
#define MAIN_SIGNALS 4

/** Which root hints were chosen (hints_select), for the log. */
struct main_hints {
	char used[CFG_MAX_PATH];    /**< the file, or "built-in" */
	char note[HINTS_ERR_BYTES]; /**< why Debian's file was not used
	                                 ("" when absent or used) */
};

/** Everything the daemon owns. */
struct main_ctx {
	const char *cfg_path;
	char cfg_abs[PATH_MAX]; /**< cfg_path made absolute (reloads
	                             happen after chdir("/")) */
	bool foreground;
	bool check;              /**< -t: check the config, run nothing */
	bool pid_written;        /**< cfg.pidfile is ours to remove */
	int ready_fd;            /**< pipe to the waiting parent, or -1 */
	struct cfg cfg;          /**< the running configuration */
	struct main_hints hints; /**< which root hints run */
	/** The DNSSEC trust anchors (trust.h), built at start and on each
	 *  reload, freed at exit. Held here only: the lead hands them to
	 *  the iterator and front/ when the validator is merged; until then
	 *  no worker reads them, so a reload frees the old set at once
	 *  (once workers read it, only after workers_reload returns). */
	struct anchors *anchors;
	struct trust_used anchors_used; /**< which anchors, for the log */
	uv_loop_t loop;
	bool loop_open;
	uv_signal_t sig[MAIN_SIGNALS]; /**< TERM, INT, HUP, USR1 */
	size_t nsig;
	struct cache *cache;
	struct curve_client *curve;
	struct ratelimit *rl; /**< shared by the workers */
	struct curvepin *pin; /**< shared by the workers */
	struct nsecidx *nx;   /**< NSEC records (RFC 8198), shared */
	struct deadzone *dz;  /**< failure cache (RFC 9520), shared */
	struct server *srv;
	struct workers *workers; /**< threads 1 .. N-1 (workers.h) */
	struct control *ctl;     /**< NULL: no control socket */
	uv_timer_t rotate;       /**< curve-key-rotate */
	bool rotate_open;
	/** RFC 5011 probes of auto-trust-anchor-file (autotrust_run.h);
	 *  NULL: none */
	struct autotrust_run *at;
	uv_timer_t log_tick; /**< log_suppressed lines, each second */
	bool log_tick_open;
};

/**
 * The command line into m (cfg_path, foreground, check); -h and -V print
 * and exit 0 (main_args.c).
 * @return 0, or -1 after the usage on stderr (a bad option or operand).
 */
int main_args_parse(struct main_ctx *m, int argc, char **argv);

/**
 * -t: everything a start reads (config, includes, the files it names;
 * as root with user: set, also in a child as that user), nothing bound
 * (main_args.c). Prints "FILE:LINE: problem" on stderr or an OK line.
 * @return 0 good, 1 not.
 */
int main_check(struct main_ctx *m);

/**
 * Become user (its group, then its gid and uid) for good; nothing for
 * an empty user or one we already run as (main.c).
 * @return 0, or -1 with the reason given as a start-up failure (stderr,
 *   and the log once it is syslog or the journal).
 */
int main_drop_privileges(const char *user);

/* main.c: what the signal handling calls back */

/** (Re)arm the rotation timer for cfg.curve_key_rotate_s (0: stop it). */
void main_arm_rotate(struct main_ctx *m);
/** Close the timer that writes due log_suppressed lines, if open. */
void main_close_log_tick(struct main_ctx *m);
/** Stop threads 1 .. N-1 (waits for them); worker 0 counts alone again. */
void main_stop_workers(struct main_ctx *m);
/** Debian's root hints exist but did not load: say so (built-in used). */
void main_log_hints_note(const struct main_ctx *m);
/**
 * The root hints of config c (hints_select) and what was chosen in *w.
 * @return 0, or -1 with the reason in err.
 */
int main_load_hints(const struct cfg *c, struct hints **h,
                    struct main_hints *w, char *err, size_t errlen);

/* main_signal.c */

/**
 * Ignore SIGPIPE; handle SIGTERM and SIGINT (stop), SIGHUP (reload) and
 * SIGUSR1 (log every counter) on m->loop.
 * @return 0, or -1 (the handles opened so far are in m->sig, m->nsig).
 */
int main_start_signals(struct main_ctx *m);

/**
 * Read the configuration, root hints and trust anchors again (SIGHUP,
 * the control socket's reload); on failure the running ones stay.
 * @return 0, or -1 with the reason in err (also logged).
 */
int main_reload(struct main_ctx *m, char *err, size_t errlen);

#endif /* CURVECACHE_RESOLVER_MAIN_INT_H */
