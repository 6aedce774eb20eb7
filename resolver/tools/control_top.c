/*
 * resolver/tools/control_top.c - curvecache-control top: a live view of a busy
 * resolver, refreshed every second from stats_noreset on one connection:
 * queries per second, cache hit ratio, the DNSCurve share of answers,
 * the SERVFAIL rate, resolutions in flight.
 *
 *   top [--once] [-n COUNT] [-d SECONDS]
 *
 * Below the counters: the busiest query names and clients of the last
 * interval (the daemon's top_queries, resolver/stats/topk.h), the first
 * question during a flood.
 *
 * Without -n it runs until q (when standard input is a terminal, read
 * without echo or line buffering) or Ctrl-C, and restores the terminal.
 * --once (= -n 1) and -n print that many views and exit: the first one
 * after one interval, since rates need two samples. On a terminal each
 * view replaces the last; otherwise views follow one another.
 *
 * The view fits its terminal: lines are cut at the width (never
 * wrapped) and the lists are cut to the height, so the header stays on
 * screen. The size comes from the terminal (TIOCGWINSZ), else from
 * COLUMNS and LINES; without either nothing is cut.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ctl/control.h"
#include "control_main.h"

/** Longest wait for one answer of the daemon. */
#define TOP_ANSWER_MS 5000
/** Bytes kept of a stats answer line (longer ones are skipped). */
#define TOP_LINE_MAX 256
/** Refresh interval bounds and default, milliseconds. */
#define TOP_INTERVAL_MS 1000
#define TOP_INTERVAL_MIN_MS 100
#define TOP_INTERVAL_MAX_MS 3600000
/** Bytes read at a time. */
#define TOP_READ_BYTES 8192
#define TOP_MS_PER_S 1000.0
/** Entries kept per list (names, clients), and shown without a height. */
#define TOP_LIST_MAX 64
#define TOP_LIST_SHOW 10
/** Bytes of one screen line before it is cut to the width. */
#define TOP_OUT_MAX 1024

/** The counters the view uses. */
enum top_key {
	K_QUERIES = 0,
	K_UDP,
	K_TCP,
	K_HITS,
	K_MISSES,
	K_ANS_CURVE,
	K_ANS_PLAIN,
	K_SERVFAIL,
	K_INFLIGHT,
	K_UP_SENDS,
	K_UP_CURVE,
	K_UP_TIMEOUTS,
	K_CURVE_BAD,
	K_ENTRIES,
	K_MEM,
	K_UPTIME,
	K_RECURSIVE,
	K_ANSWERS, /**< the sum of num.answer.rcode.* (nodata excluded) */
	TOP_NKEYS
};

static const char *const top_names[TOP_NKEYS] = {
	"total.num.queries",
	"num.query.udp",
	"num.query.tcp",
	"total.num.cachehits",
	"total.num.cachemiss",
	"curve.answers.dnscurve",
	"curve.answers.plain",
	"num.answer.rcode.SERVFAIL",
	"total.requestlist.current.all",
	"upstream.sends",
	"curve.queries",
	"upstream.timeouts",
	"curve.responses.bad",
	"rrset.cache.count",
	"mem.cache.rrset",
	"time.up",
	"total.num.recursivereplies",
	NULL, /* K_ANSWERS: summed by top_answers */
};

/** The family of the answers by RCODE, and its one member that is not
 *  an RCODE (NOERROR answers without data, counted in NOERROR too). */
#define TOP_RCODE_PREFIX "num.answer.rcode."
#define TOP_RCODE_NODATA "nodata"

/* A counter of answers by RCODE: added to K_ANSWERS, the denominator of
 * the SERVFAIL share (every answer sent, whatever its RCODE). */
static void top_answers(const char *name, const char *value, uint64_t *v)
{
	static const char pfx[] = TOP_RCODE_PREFIX;

	if (strncmp(name, pfx, sizeof pfx - 1) == 0 &&
	    strcmp(name + sizeof pfx - 1, TOP_RCODE_NODATA) != 0)
		v[K_ANSWERS] += strtoull(value, NULL, 10);
}

/** One entry of a top list: a count and a name or address. */
struct top_item {
	uint64_t count;
	char text[TOP_LINE_MAX];
};

/** A top list of the interval (top_queries). */
struct top_list {
	bool have; /**< the daemon answered top_queries */
	uint64_t total, skipped;
	size_t n;
	struct top_item item[TOP_LIST_MAX];
};

/** One reading of the counters. */
struct top_sample {
	uint64_t v[TOP_NKEYS];
	double at; /**< monotonic seconds */
	struct top_list names, clients;
};

/** State of the reader of one answer. */
struct top_reader {
	char line[TOP_LINE_MAX];
	size_t len;
	bool overlong;
	bool quiet; /**< do not print an error line */
	int done;   /**< 0 reading, 1 ok, -1 error */
};

/** The screen being written: its size (0: no limit), rows used. */
struct top_screen {
	size_t cols, rows, used;
};

static volatile sig_atomic_t top_stop;

static void top_on_signal(int sig)
{
	(void)sig;
	top_stop = 1;
}

static double top_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* A line of top_queries: a list heading or an entry. */
static void top_list_line(const char *l, struct top_sample *s)
{
	struct top_list *t;
	unsigned long long c, a, b;
	int off = 0;

	if (sscanf(l, "names queries=%llu skipped=%llu", &a, &b) == 2 ||
	    sscanf(l, "clients queries=%llu skipped=%llu", &a, &b) == 2) {
		t = l[0] == 'n' ? &s->names : &s->clients;
		t->have = true;
		t->total = a;
		t->skipped = b;
		return;
	}
	if (sscanf(l, "name %llu %n", &c, &off) == 1 && off > 0)
		t = &s->names;
	else if (sscanf(l, "client %llu %n", &c, &off) == 1 && off > 0)
		t = &s->clients;
	else
		return;
	if (t->n < TOP_LIST_MAX) {
		t->item[t->n].count = c;
		snprintf(t->item[t->n].text, sizeof(t->item[t->n].text), "%s",
		         l + off);
		t->n++;
	}
}

/* One complete line of the answer. */
static void top_line(struct top_reader *r, struct top_sample *s)
{
	char *eq;
	size_t i;

	r->line[r->len] = '\0';
	if (strcmp(r->line, "ok") == 0) {
		r->done = 1;
		return;
	}
	if (strncmp(r->line, "error: ", 7) == 0) {
		if (!r->quiet)
			fprintf(stderr, "%s\n", r->line);
		r->done = -1;
		return;
	}
	eq = strchr(r->line, '=');
	if (eq == NULL || strchr(r->line, ' ') != NULL) {
		top_list_line(r->line, s);
		return;
	}
	if (eq == NULL)
		return;
	*eq = '\0';
	for (i = 0; i < TOP_NKEYS; i++)
		if (top_names[i] != NULL && strcmp(r->line, top_names[i]) == 0)
			s->v[i] = strtoull(eq + 1, NULL, 10);
	top_answers(r->line, eq + 1, s->v);
}

static void top_bytes(struct top_reader *r, const char *b, size_t n,
                      struct top_sample *s)
{
	size_t i;

	for (i = 0; i < n && r->done == 0; i++) {
		if (b[i] == '\n') {
			if (!r->overlong)
				top_line(r, s);
			r->len = 0;
			r->overlong = false;
		} else if (r->len + 1 < sizeof r->line) {
			r->line[r->len++] = b[i];
		} else {
			r->overlong = true;
		}
	}
}

/* Send one command and read its answer into s; 0 or -1. */
static int top_ask(int fd, const char *cmd, bool quiet, struct top_sample *s)
{
	struct top_reader r;
	struct pollfd pfd = { fd, POLLIN, 0 };
	char buf[TOP_READ_BYTES];
	ssize_t k;
	int rc;

	memset(&r, 0, sizeof r);
	r.quiet = quiet;
	if (ctlm_write_all(fd, cmd, strlen(cmd)) != 0)
		return -1;
	while (r.done == 0) {
		rc = poll(&pfd, 1, TOP_ANSWER_MS);
		if (rc < 0 && errno == EINTR && !top_stop)
			continue;
		if (rc <= 0)
			return -1;
		k = read(fd, buf, sizeof buf);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		top_bytes(&r, buf, (size_t)k, s);
	}
	return r.done == 1 ? 0 : -1;
}

/* Read the counters and the interval's top lists (a daemon without
 * top_queries answers an error: the lists are left out); 0 or -1. */
static int top_read(int fd, size_t listn, struct top_sample *s)
{
	char cmd[32];

	memset(s, 0, sizeof(*s));
	if (top_ask(fd, "stats_noreset\n", false, s) != 0)
		return -1;
	s->at = top_now();
	snprintf(cmd, sizeof cmd, "top_queries %zu\n", listn);
	if (top_ask(fd, cmd, true, s) != 0) {
		s->names.have = s->clients.have = false;
		s->names.n = s->clients.n = 0;
	}
	return 0;
}

static double top_rate(const struct top_sample *a, const struct top_sample *b,
                       enum top_key k)
{
	double dt = b->at - a->at;
	uint64_t d = b->v[k] >= a->v[k] ? b->v[k] - a->v[k] : 0;

	return dt > 0 ? (double)d / dt : 0.0;
}

/* 100 * part / (part + rest) over the interval, or -1 when nothing. */
static double top_share(const struct top_sample *a, const struct top_sample *b,
                        enum top_key part, enum top_key rest)
{
	double p = top_rate(a, b, part), q = top_rate(a, b, rest);

	return p + q > 0 ? 100.0 * p / (p + q) : -1.0;
}

/* One line of the view, cut at the width; nothing once the height is
 * used up (the last row stays empty so that the screen does not scroll
 * the header away). */
__attribute__((format(printf, 2, 3))) static void
top_out(struct top_screen *sc, const char *fmt, ...)
{
	char line[TOP_OUT_MAX];
	va_list ap;
	size_t n;

	if (sc->rows > 0 && sc->used + 1 >= sc->rows)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof line, fmt, ap);
	va_end(ap);
	n = strlen(line);
	if (sc->cols > 0 && n > sc->cols)
		n = sc->cols;
	printf("%.*s\n", (int)n, line);
	sc->used++;
}

static void top_pct(struct top_screen *sc, const char *label, double v,
                    const char *note)
{
	if (v < 0)
		top_out(sc, "%-18s %8s   %s", label, "-", note);
	else
		top_out(sc, "%-18s %7.1f%%   %s", label, v, note);
}

/* The counters: rates over the interval a..b. */
static void top_counters(struct top_screen *sc, const struct top_sample *a,
                         const struct top_sample *b)
{
	double answered = top_rate(a, b, K_ANSWERS);

	top_out(sc, "%-18s %8.1f   udp %.1f/s, tcp %.1f/s", "queries/s",
	        top_rate(a, b, K_QUERIES), top_rate(a, b, K_UDP),
	        top_rate(a, b, K_TCP));
	top_pct(sc, "cache hit ratio", top_share(a, b, K_HITS, K_MISSES),
	        "of queries the cache answered");
	top_pct(sc, "DNSCurve share",
	        top_share(a, b, K_ANS_CURVE, K_ANS_PLAIN),
	        "of answers with data from upstream");
	top_out(sc, "%-18s %8.1f   %.1f%% of all answers", "SERVFAIL/s",
	        top_rate(a, b, K_SERVFAIL),
	        answered > 0 ? 100.0 * top_rate(a, b, K_SERVFAIL) / answered :
	                       0.0);
	top_out(sc,
	        "%-18s %8" PRIu64 "   resolutions (%.1f recursive "
	        "replies/s)",
	        "in flight", b->v[K_INFLIGHT], top_rate(a, b, K_RECURSIVE));
	top_out(sc,
	        "%-18s %8.1f   DNSCurve %.1f/s, timeouts %.1f/s, bad "
	        "boxes %.1f/s",
	        "upstream/s", top_rate(a, b, K_UP_SENDS),
	        top_rate(a, b, K_UP_CURVE), top_rate(a, b, K_UP_TIMEOUTS),
	        top_rate(a, b, K_CURVE_BAD));
	top_out(sc, "%-18s %8" PRIu64 "   entries, %.1f MB", "cache",
	        b->v[K_ENTRIES], (double)b->v[K_MEM] / 1e6);
}

/* How many entries of each list fit below the counters. */
static size_t top_list_room(const struct top_screen *sc)
{
	/* a blank line and a heading per list, and the free last row */
	size_t fixed = sc->used + 2 * 2 + 1;

	if (sc->rows == 0)
		return TOP_LIST_SHOW;
	return sc->rows > fixed ? (sc->rows - fixed) / 2 : 0;
}

static void top_list_show(struct top_screen *sc, const char *title,
                          const struct top_list *t, double dt, size_t room)
{
	size_t i;

	if (!t->have)
		return;
	top_out(sc, "%s", "");
	top_out(sc, "%-18s %8s   of %.1f/s%s", title, "q/s",
	        dt > 0 ? (double)t->total / dt : 0.0,
	        t->skipped > 0 ? " (busy: a sample)" : "");
	for (i = 0; i < t->n && i < room; i++)
		top_out(sc, "%18s %8.1f   %s", "",
		        dt > 0 ? (double)t->item[i].count / dt : 0.0,
		        t->item[i].text);
}

static void top_render(const struct top_sample *a, const struct top_sample *b,
                       bool tty, double interval, struct top_screen *sc)
{
	double dt = b->at - a->at;
	size_t room;

	sc->used = 0;
	if (tty)
		printf("\033[H\033[2J");
	top_out(sc, "curvecache top: up %" PRIu64 " s, every %.1f s%s",
	        b->v[K_UPTIME], interval, tty ? " (q quits)" : "");
	top_counters(sc, a, b);
	room = top_list_room(sc);
	top_list_show(sc, "top query names", &b->names, dt, room);
	top_list_show(sc, "top clients", &b->clients, dt, room);
	if (!tty)
		printf("\n");
	fflush(stdout);
}

/* The size of the view: the terminal's, else COLUMNS and LINES, else no
 * limit (0). */
static void top_size(struct top_screen *sc)
{
	struct winsize ws;
	const char *c = getenv("COLUMNS"), *l = getenv("LINES");

	sc->cols = sc->rows = 0;
	if (isatty(STDOUT_FILENO) &&
	    ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 &&
	    ws.ws_row > 0) {
		sc->cols = ws.ws_col;
		sc->rows = ws.ws_row;
		return;
	}
	if (c != NULL)
		sc->cols = strtoul(c, NULL, 10);
	if (l != NULL)
		sc->rows = strtoul(l, NULL, 10);
}

/* Entries to ask the daemon for: what fits (at least 1). */
static size_t top_want(const struct top_screen *sc)
{
	size_t n = sc->rows > 0 && sc->rows < TOP_LIST_MAX ? sc->rows :
	           sc->rows > 0                            ? TOP_LIST_MAX :
	                                                     TOP_LIST_SHOW;

	return n > 0 ? n : 1;
}

/* Wait one interval; false when q was pressed or a signal came. */
static bool top_wait(double interval, bool keys)
{
	struct pollfd pfd = { STDIN_FILENO, POLLIN, 0 };
	double end = top_now() + interval;
	double left;
	char c;
	int rc;

	while (!top_stop && (left = end - top_now()) > 0) {
		rc = poll(&pfd, keys ? 1 : 0, (int)(left * TOP_MS_PER_S) + 1);
		if (rc > 0 && read(STDIN_FILENO, &c, 1) == 1 &&
		    (c == 'q' || c == 'Q'))
			return false;
		if (rc > 0 && (pfd.revents & (POLLHUP | POLLERR)))
			keys = false;
	}
	return !top_stop;
}

static int top_options(int argc, char **argv, long *count, double *iv)
{
	char *end;
	int i;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--once") == 0) {
			*count = 1;
		} else if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			*count = strtol(argv[++i], &end, 10);
			if (*end != '\0' || *count < 1)
				return -1;
		} else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) {
			*iv = strtod(argv[++i], &end);
			if (*end != '\0' ||
			    !(*iv * TOP_MS_PER_S >= TOP_INTERVAL_MIN_MS) ||
			    *iv * TOP_MS_PER_S > TOP_INTERVAL_MAX_MS)
				return -1;
		} else {
			return -1;
		}
	}
	return 0;
}

/* Terminal in (no echo, no line buffering); false if not a terminal. */
static bool top_raw(struct termios *saved)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, saved) != 0)
		return false;
	t = *saved;
	t.c_lflag &= (tcflag_t) ~(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	return tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0;
}

int ctlm_top(const char *path, int argc, char **argv)
{
	struct top_sample *a = malloc(2 * sizeof(*a)), *b = a + 1, *t;
	struct top_screen sc;
	struct sigaction sa;
	struct termios saved;
	double iv = TOP_INTERVAL_MS / TOP_MS_PER_S;
	long count = 0, i;
	bool raw, tty = isatty(STDOUT_FILENO);
	int fd, rc = CTLM_EXIT_OK;

	if (a == NULL || top_options(argc, argv, &count, &iv) != 0) {
		fprintf(stderr, "usage: curvecache-control top [--once] "
		                "[-n COUNT] [-d SECONDS]\n");
		free(a);
		return CTLM_EXIT_USAGE;
	}
	fd = ctlm_connect(path);
	if (fd < 0) {
		free(a);
		return CTLM_EXIT_CONNECT;
	}
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = top_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	raw = count == 0 && top_raw(&saved);
	top_size(&sc);
	if (top_read(fd, top_want(&sc), a) != 0)
		rc = CTLM_EXIT_ERROR;
	for (i = 0; rc == CTLM_EXIT_OK && (count == 0 || i < count); i++) {
		if (!top_wait(iv, raw))
			break;
		top_size(&sc);
		if (top_read(fd, top_want(&sc), b) != 0) {
			rc = top_stop ? CTLM_EXIT_OK : CTLM_EXIT_ERROR;
			break;
		}
		top_render(a, b, tty && count == 0, iv, &sc);
		t = a;
		a = b;
		b = t;
	}
	if (raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	if (rc == CTLM_EXIT_ERROR)
		fprintf(stderr, "curvecache-control: top: the daemon stopped "
		                "answering\n");
	close(fd);
	free(a < b ? a : b);
	return rc;
}
