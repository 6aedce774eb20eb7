/*
 * resolver/daemon/main.c - the curvecache daemon: start-up (detach, listeners,
 * privilege drop, workers, control socket), the event loop and the clean
 * exit. The command line, -V, -h and -t are in main_args.c; the signals
 * (stop, reload, counters) in main_signal.c; main_int.h holds what they
 * share.
 *
 *   curvecache [-c FILE] [-f]    run
 *   curvecache [-c FILE] -t      check the configuration, exit 0 or 1
 *   curvecache -V | -h           versions (libraries as run) | usage
 *
 * Reads the configuration (default CFG_DEFAULT_FILE), the root hints
 * (root-hints, else Debian's file when it loads, else built in: hints.h)
 * and the DNSSEC trust anchors (trust.h), binds every listener, drops
 * privileges to cfg->user, then serves until SIGTERM or SIGINT (exit 0,
 * everything freed). SIGHUP reloads the configuration, the root hints and the
 * trust anchors; if one is bad, the old ones stay. SIGUSR1 writes every
 * counter to the log ("stats" events; the control socket serves them too:
 * resolver/ctl/control.h, curvecache-control). Without -f the daemon detaches
 * and logs to syslog; the starting process exits 0 only once the daemon is
 * ready (listeners bound, privileges dropped, cache file loaded), 1 if it
 * failed. With -f it stays in the foreground and logs to stderr (the systemd
 * unit runs it so).
 *
 * Operations (resolver/daemon/ops.h): with cache-file set, the cache is loaded
 * at start (after the privilege drop, so the file is the run user's) and
 * saved on SIGTERM/SIGINT; curve-key-file is checked before use (mode
 * 0600 or stricter, else start-up fails with the reason; a missing file
 * is created); curve-key-rotate arms a timer that rotates the client key;
 * READY=1 and STOPPING=1 go to systemd (Type=notify) when NOTIFY_SOCKET
 * is set. After the privilege drop, with user: set, every file a reload
 * reads (the config and its includes, root-hints, local-data-file,
 * block-file) is opened as that user: one it cannot read stops the start
 * with its name, rather than the first reload. Then the pidfile, if set,
 * is written as that user (so that the same user removes it at exit, and
 * root never writes into a directory the run user controls).
 *
 * -t reads everything a start reads (config, includes, root hints, local
 * data, block list, curve-key-file mode), binds nothing, prints the first
 * problem as "FILE:LINE: problem" on stderr and exits 1, or one "OK"
 * line on stdout and exits 0; run as root with user: set, it also checks
 * in a child, as that user, the files a reload reads.
 *
 * Design notes:
 * - The fork happens before the event loop exists (libuv loops do not
 *   survive a fork); the child reports readiness through a pipe.
 * - Settings that need a restart (listeners, user, cache size, DNSCurve
 *   key file, threads, control socket, pidfile) keep their running values
 *   on a reload, with a warning naming the options that changed.
 * - Order of start-up: bind the listeners and the control socket (its
 *   file gets the configured user's owner and group), then drop
 *   privileges: the socket's directory (/run/...) is usually root's.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <grp.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <uv.h>
#include <sodium.h>

#include "cache.h"
#include "conf/cfg.h"
#include "base/clock.h"
#include "ctl/control.h"
#include "curve.h"
#include "infra/curvepin.h"
#include "infra/nsecidx.h"
#include "infra/deadzone.h"
#include "infra/hints.h"
#include "base/log.h"
#include "main_int.h"
#include "ops.h"
#include "policy/ratelimit.h"
#include "front/server.h"
#include "stats/stats.h"
#include "workers.h"

/** What systemd hears once we answer (Type=notify). */
#define MAIN_NOTIFY_READY "READY=1\nSTATUS=answering queries"

/** Start-up failures go to the log too once it is syslog. */
static bool main_to_syslog;

/* A start-up failure: to stderr and to the log. Under the systemd
 * journal stderr is the log, so the line is logfmt like every other;
 * on a terminal or a file it is the plain "curvecache: problem" line. */
static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void fail(const char *fmt, ...)
{
	char msg[CFG_ERR_BYTES + 256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (!log_stderr_is_journal())
		fprintf(stderr, "curvecache: %s\n", msg);
	if (main_to_syslog || log_stderr_is_journal())
		log_error("start_failed", "error=%s", msg);
}

/* ------------------------------------------------------------------ */
/* Daemon: detach, report readiness, drop privileges                   */

/* Fork; the parent waits for the child's word and exits with it. */
static int daemon_begin(struct main_ctx *m)
{
	int p[2];
	pid_t pid;
	ssize_t n;
	char c = 1;

	if (pipe(p) != 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid > 0) {
		close(p[1]);
		do
			n = read(p[0], &c, 1);
		while (n < 0 && errno == EINTR);
		_exit(n == 1 && c == 0 ? 0 : 1);
	}
	close(p[0]);
	m->ready_fd = p[1];
	if (setsid() < 0 || chdir("/") != 0)
		return -1;
	return 0;
}

/* Tell the parent we are up; detach stdio. */
static void daemon_ready(struct main_ctx *m)
{
	char ok = 0;
	int fd;

	if (m->ready_fd < 0)
		return;
	if (write(m->ready_fd, &ok, 1) != 1)
		log_warn("ready_notify", "error=%s", strerror(errno));
	close(m->ready_fd);
	m->ready_fd = -1;
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, STDIN_FILENO);
		dup2(fd, STDOUT_FILENO);
		dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
}

int main_drop_privileges(const char *user)
{
	struct passwd *pw;

	if (user[0] == '\0')
		return 0;
	errno = 0;
	pw = getpwnam(user);
	if (pw == NULL) {
		fail("user %s: %s", user,
		     errno ? strerror(errno) : "no such user");
		return -1;
	}
	if (getuid() == pw->pw_uid && geteuid() == pw->pw_uid &&
	    getgid() == pw->pw_gid && getegid() == pw->pw_gid)
		return 0; /* started as that user (systemd User=) */
	if (setgroups(1, &pw->pw_gid) != 0 || setgid(pw->pw_gid) != 0 ||
	    setuid(pw->pw_uid) != 0) {
		fail("cannot switch to user %s: %s", user, strerror(errno));
		return -1;
	}
	if (pw->pw_uid != 0 && (setuid(0) == 0 || geteuid() == 0)) {
		fail("still root after switching to user %s", user);
		return -1;
	}
	return 0;
}

/* Sockets for every upstream query: let the soft limit reach the hard. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		(void)setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* ------------------------------------------------------------------ */
/* Start-up                                                            */

static int make_cache(struct main_ctx *m)
{
	struct cache_config cc;
	int rc;

	cache_config_init(&cc);
	cc.max_bytes = (size_t)m->cfg.cache_size;
	cc.min_ttl = m->cfg.min_ttl;
	cc.max_ttl = m->cfg.max_ttl;
	cc.neg_max_ttl = m->cfg.neg_max_ttl;
	randombytes_buf(cc.hash_key, sizeof cc.hash_key);
	rc = cache_create(&cc, &m->cache);
	sodium_memzero(cc.hash_key, sizeof cc.hash_key);
	if (rc != CACHE_OK) {
		fail("cache: %s", cache_strerror(rc));
		return -1;
	}
	return 0;
}

static int make_curve(struct main_ctx *m)
{
	char err[CFG_ERR_BYTES];

	if (ops_curve_open(&m->cfg, &m->curve, err, sizeof err) != 0) {
		fail("%s", err);
		return -1;
	}
	return 0;
}

static void on_rotate(uv_timer_t *t)
{
	struct main_ctx *m = t->data;

	ops_curve_rotate(m->curve, m->cfg.curve_key_rotate_s);
}

/* (Re)arm the rotation timer for cfg.curve_key_rotate_s (0: stop it). */
void main_arm_rotate(struct main_ctx *m)
{
	uint64_t ms = (uint64_t)m->cfg.curve_key_rotate_s * 1000;

	if (!m->rotate_open) {
		if (uv_timer_init(&m->loop, &m->rotate) != 0)
			return;
		m->rotate.data = m;
		m->rotate_open = true;
	}
	uv_timer_stop(&m->rotate);
	if (ms > 0)
		(void)uv_timer_start(&m->rotate, on_rotate, ms, ms);
}

static void on_log_tick(uv_timer_t *t)
{
	(void)t;
	log_flush_due();
}

/* Start the timer that writes due log_suppressed lines each second. */
static void arm_log_tick(struct main_ctx *m)
{
	if (uv_timer_init(&m->loop, &m->log_tick) != 0)
		return;
	m->log_tick_open = true;
	uv_unref((uv_handle_t *)&m->log_tick);
	(void)uv_timer_start(&m->log_tick, on_log_tick, LOG_LIMIT_WINDOW_MS,
	                     LOG_LIMIT_WINDOW_MS);
}

/* Close the timer of arm_log_tick, if open. */
void main_close_log_tick(struct main_ctx *m)
{
	if (m->log_tick_open)
		uv_close((uv_handle_t *)&m->log_tick, NULL);
	m->log_tick_open = false;
}

static size_t workers_stats_cb(void *arg, struct stats *sum,
                               struct stats_thread *per, size_t cap)
{
	return workers_stats(arg, sum, per, cap);
}

/* threads: N: workers 1 .. N-1, their counters summed into worker 0's. */
static int start_workers(struct main_ctx *m, const struct server_params *p)
{
	char err[CFG_ERR_BYTES];

	err[0] = '\0';
	if (workers_start(&m->workers, m->cfg.threads, p, err, sizeof err) !=
	    WORKERS_OK) {
		fail("threads: %s", err);
		return -1;
	}
	if (m->workers != NULL && server_stats_more(m->srv, workers_stats_cb,
	                                            m->workers) != SERVER_OK) {
		fail("threads: out of memory");
		return -1;
	}
	return 0;
}

/* Stop threads 1 .. N-1 (waits for them); worker 0 counts alone again. */
void main_stop_workers(struct main_ctx *m)
{
	if (m->workers == NULL)
		return;
	(void)server_stats_more(m->srv, NULL, NULL);
	workers_stop(m->workers);
	m->workers = NULL;
}

static int make_server(struct main_ctx *m, struct hints *h)
{
	struct server_params p;
	char err[CFG_ERR_BYTES];
	int rc;

	if (ratelimit_new(&m->rl) != RATELIMIT_OK ||
	    curvepin_new(&m->pin) != CURVEPIN_OK ||
	    nsecidx_new(NSECIDX_BYTES_DEFAULT, &m->nx) != NSECIDX_OK ||
	    deadzone_new(&m->dz) != DEADZONE_OK) {
		hints_free(h);
		fail("rate limiter, pins, NSEC index, failure cache: out of "
		     "memory");
		return -1;
	}
	memset(&p, 0, sizeof p);
	p.loop = &m->loop;
	p.cfg = &m->cfg;
	p.cache = m->cache;
	p.curve = m->curve;
	p.rl = m->rl;
	p.pin = m->pin;
	p.nsecidx = m->nx;
	p.deadzone = m->dz;
	p.hints = h;
	rc = server_new(&m->srv, &p);
	if (rc == SERVER_OK) {
		/* the set passes to the server (each worker reads its own) */
		rc = server_anchors_set(m->srv, m->anchors);
		m->anchors = NULL;
	}
	if (rc != SERVER_OK) {
		fail("worker: %s", server_strerror(rc));
		return -1;
	}
	err[0] = '\0';
	if (server_localdata_load(m->srv, &m->cfg, err, sizeof err) !=
	    SERVER_OK) {
		cfg_file_error(&m->cfg, err, sizeof err);
		fail("%s", err);
		return -1;
	}
	if (server_listen(m->srv, err, sizeof err) != SERVER_OK) {
		fail("%s", err);
		return -1;
	}
	return start_workers(m, &p);
}

/* The control socket's reload command. */
static int reload_cb(void *arg, char *err, size_t errlen)
{
	return main_reload(arg, err, errlen);
}

/* The control socket's per-worker commands: worker 0 here, then the
 * extra threads (each on its own thread, one after the other). */
static void each_cb(void *arg, control_worker_fn *fn, void *fnarg)
{
	struct main_ctx *m = arg;

	fn(m->srv, &m->cfg, fnarg);
	workers_each(m->workers, fn, fnarg);
}

/* The control socket, if configured (before privileges are dropped). */
static int make_control(struct main_ctx *m)
{
	struct control_env env;
	char err[CFG_ERR_BYTES];

	if (m->cfg.control_socket[0] == '\0')
		return 0;
	memset(&env, 0, sizeof env);
	env.cache = m->cache;
	env.curve = m->curve;
	env.srv = m->srv;
	env.cfg = &m->cfg;
	env.cfg_path = m->cfg_path;
	env.start_wall = time(NULL);
	env.start_ms = clock_ms();
	env.reload = reload_cb;
	env.reload_arg = m;
	env.each = each_cb;
	env.each_arg = m;
	env.pin = m->pin;
	env.nsec = m->nx;
	err[0] = '\0';
	if (control_new(&m->loop, &env, &m->ctl, err, sizeof err) !=
	    CONTROL_OK) {
		fail("control socket %s", err);
		return -1;
	}
	return 0;
}

/* Debian's root hints exist but did not load: say so (built-in used). */
void main_log_hints_note(const struct main_ctx *m)
{
	if (m->hints.note[0] != '\0')
		log_warn("root_hints", "error=%s used=%s", m->hints.note,
		         m->hints.used);
}

/* The root hints of config c (hints_select) and what was chosen in *w:
 * 0, or -1 with the reason in err. */
int main_load_hints(const struct cfg *c, struct hints **h,
                    struct main_hints *w, char *err, size_t errlen)
{
	if (hints_select(c->root_hints, HINTS_DEBIAN_FILE, h, w->used,
	                 sizeof w->used, w->note,
	                 sizeof w->note) != HINTS_OK) {
		cfg_root_hints_error(c, w->note, err, errlen);
		return -1;
	}
	return 0;
}

/* The trust anchors of the config (trust.h), before anything runs: a
 * bad file or record refuses the start with its FILE:LINE. */
static int load_anchors(struct main_ctx *m)
{
	char err[CFG_ERR_BYTES + ANCHOR_ERR_MAX];

	if (trust_anchors_choose(&m->cfg, ANCHOR_DEBIAN_ROOT_KEY, &m->anchors,
	                         &m->anchors_used, err, sizeof err) != 0) {
		fail("%s", err);
		return -1;
	}
	return 0;
}

static void log_start(const struct main_ctx *m)
{
	char addrs[CFG_MAX_LISTEN * 64], a[64];
	size_t i, n = 0;

	addrs[0] = '\0';
	for (i = 0; i < m->cfg.n_listen && n < sizeof addrs - 64; i++) {
		server_addr_text((const struct sockaddr *)&m->cfg.listen[i].sa,
		                 a, sizeof a);
		n += (size_t)snprintf(addrs + n, sizeof addrs - n, "%s%s",
		                      i ? "," : "", a);
	}
	log_info("start",
	         "version=%s listen=%s curve=%s root_hints=%s "
	         "pid=%ld",
	         PACKAGE_VERSION, addrs, m->cfg.curve ? "on" : "off",
	         m->hints.used, (long)getpid());
	main_log_hints_note(m);
	trust_anchors_log(&m->anchors_used);
	ops_notes_log(&m->cfg);
}

/* After the privilege drop: every file a reload reads must be readable
 * by the run user (said now, not at the first reload); then the pidfile,
 * written as that user. -1 on failure (message given). */
static int after_drop(struct main_ctx *m)
{
	char err[CFG_ERR_BYTES];
	const char *u = m->cfg.user;

	if (u[0] != '\0' && ops_reload_files_check(&m->cfg, m->cfg_path, u,
	                                           err, sizeof err) != 0) {
		fail("%s", err);
		return -1;
	}
	if (m->cfg.pidfile[0] == '\0')
		return 0;
	if (ops_pidfile_write(m->cfg.pidfile, err, sizeof err) != 0) {
		fail("%s%s%s%s", err, u[0] ? " (as user " : "", u,
		     u[0] ? ")" : "");
		return -1;
	}
	m->pid_written = true;
	return 0;
}

/* Everything up to serving; -1 on failure (message already given). */
static int startup(struct main_ctx *m)
{
	char err[HINTS_ERR_BYTES];
	struct hints *h = NULL;

	if (sodium_init() < 0) {
		fail("libsodium cannot be initialised");
		return -1;
	}
	if (main_load_hints(&m->cfg, &h, &m->hints, err, sizeof err) != 0) {
		fail("%s", err);
		return -1;
	}
	if (load_anchors(m) != 0) {
		hints_free(h);
		return -1;
	}
	if (!m->foreground && daemon_begin(m) != 0) {
		hints_free(h);
		fail("cannot detach: %s", strerror(errno));
		return -1;
	}
	log_init(m->cfg.log_level, m->foreground);
	main_to_syslog = !m->foreground;
	raise_fd_limit();
	if (uv_loop_init(&m->loop) != 0) {
		hints_free(h);
		fail("event loop: cannot be created");
		return -1;
	}
	m->loop_open = true;
	if (make_cache(m) != 0 || make_curve(m) != 0) {
		hints_free(h);
		return -1;
	}
	if (make_server(m, h) != 0 || make_control(m) != 0 ||
	    main_drop_privileges(m->cfg.user) != 0 || after_drop(m) != 0 ||
	    main_start_signals(m) != 0)
		return -1;
	if (autotrust_run_start(&m->at, &m->loop, m->srv, m->cache, m->workers,
	                        &m->cfg) != 0) {
		fail("auto-trust-anchor-file: out of memory");
		return -1;
	}
	ops_cache_load(m->cache, &m->cfg);
	main_arm_rotate(m);
	arm_log_tick(m);
	log_start(m);
	daemon_ready(m);
	ops_notify(MAIN_NOTIFY_READY);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Exit                                                                */

static void cleanup(struct main_ctx *m)
{
	size_t i;

	control_stop(m->ctl);
	if (m->srv != NULL)
		server_stop(m->srv);
	for (i = 0; i < m->nsig; i++)
		uv_close((uv_handle_t *)&m->sig[i], NULL);
	if (m->rotate_open)
		uv_close((uv_handle_t *)&m->rotate, NULL);
	main_close_log_tick(m);
	autotrust_run_close(m->at);
	if (m->loop_open) {
		uv_run(&m->loop, UV_RUN_DEFAULT);
		if (uv_loop_close(&m->loop) != 0)
			log_warn("loop_close", "error=%s", "handles left");
	}
	control_free(m->ctl);
	main_stop_workers(m);
	server_free(m->srv);
	autotrust_run_free(m->at);
	curve_client_free(m->curve);
	cache_destroy(m->cache);
	ratelimit_free(m->rl);
	curvepin_free(m->pin);
	nsecidx_free(m->nx);
	deadzone_free(m->dz);
	anchors_free(m->anchors);
	if (m->ready_fd >= 0)
		close(m->ready_fd);
	if (m->pid_written)
		ops_pidfile_remove(m->cfg.pidfile);
}

/* glibc gives the top of the heap back whenever 128 KiB of it is free,
 * and a cold burst's allocations then grow and shrink it over and over
 * (1,170 brk calls in 1,000 cold secure names, tests/bench/
 * callgrind_validate.sh, each regrowth more page faults); keeping up to
 * MAIN_TRIM_KEEP free at the top made it 5. */
#define MAIN_TRIM_KEEP (4 << 20)

static void main_malloc_tune(void)
{
#if defined(__GLIBC__) && defined(M_TRIM_THRESHOLD)
	(void)mallopt(M_TRIM_THRESHOLD, MAIN_TRIM_KEEP);
#endif
}

int main(int argc, char **argv)
{
	struct main_ctx *m;
	char err[CFG_ERR_BYTES];
	int status = 1;

	main_malloc_tune();
	m = calloc(1, sizeof(*m));
	if (m == NULL)
		return 1;
	m->ready_fd = -1;
	if (main_args_parse(m, argc, argv) != 0) {
		free(m);
		return 2;
	}
	log_init(CFG_LOG_INFO, true);
	if (m->check) {
		status = main_check(m);
		free(m);
		return status;
	}
	if (cfg_load(m->cfg_path, &m->cfg, err, sizeof err) != 0) {
		fail("%s", err);
		free(m);
		return 1;
	}
	if (startup(m) == 0) {
		uv_run(&m->loop, UV_RUN_DEFAULT);
		status = 0;
	}
	cleanup(m);
	if (status == 0)
		log_info("exit", "status=0");
	free(m);
	return status;
}
