/*
 * resolver/control_top.c - curvecache-control top: a live view of a busy
 * resolver, refreshed every second from stats_noreset on one connection:
 * queries per second, cache hit ratio, the DNSCurve share of answers,
 * the SERVFAIL rate, resolutions in flight.
 *
 *   top [--once] [-n COUNT] [-d SECONDS]
 *
 * Without -n it runs until q (when standard input is a terminal, read
 * without echo or line buffering) or Ctrl-C, and restores the terminal.
 * --once (= -n 1) and -n print that many views and exit: the first one
 * after one interval, since rates need two samples. On a terminal each
 * view replaces the last; otherwise views follow one another.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "control.h"
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

/** The counters the view uses. */
enum top_key {
	K_QUERIES = 0, K_UDP, K_TCP, K_HITS, K_MISSES, K_ANS_CURVE,
	K_ANS_PLAIN, K_SERVFAIL, K_INFLIGHT, K_UP_SENDS, K_UP_CURVE,
	K_UP_TIMEOUTS, K_CURVE_BAD, K_ENTRIES, K_MEM, K_UPTIME, K_RECURSIVE,
	TOP_NKEYS
};

static const char *const top_names[TOP_NKEYS] = {
	"total.num.queries", "num.query.udp", "num.query.tcp",
	"total.num.cachehits", "total.num.cachemiss",
	"curve.answers.dnscurve", "curve.answers.plain",
	"num.answer.rcode.SERVFAIL", "total.requestlist.current.all",
	"upstream.sends", "curve.queries", "upstream.timeouts",
	"curve.responses.bad", "rrset.cache.count", "mem.cache.rrset",
	"time.up", "total.num.recursivereplies"
};

/** One reading of the counters. */
struct top_sample {
	uint64_t v[TOP_NKEYS];
	double at;                /**< monotonic seconds */
};

/** State of the reader of one answer. */
struct top_reader {
	char line[TOP_LINE_MAX];
	size_t len;
	bool overlong;
	int done;                 /**< 0 reading, 1 ok, -1 error */
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
		fprintf(stderr, "%s\n", r->line);
		r->done = -1;
		return;
	}
	eq = strchr(r->line, '=');
	if (eq == NULL)
		return;
	*eq = '\0';
	for (i = 0; i < TOP_NKEYS; i++)
		if (strcmp(r->line, top_names[i]) == 0)
			s->v[i] = strtoull(eq + 1, NULL, 10);
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

/* Ask for the counters and read them; 0 or -1. */
static int top_read(int fd, struct top_sample *s)
{
	static const char cmd[] = "stats_noreset\n";
	struct top_reader r;
	struct pollfd pfd = { fd, POLLIN, 0 };
	char buf[TOP_READ_BYTES];
	ssize_t k;
	int rc;

	memset(&r, 0, sizeof r);
	memset(s, 0, sizeof(*s));
	if (ctlm_write_all(fd, cmd, sizeof cmd - 1) != 0)
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
	s->at = top_now();
	return r.done == 1 ? 0 : -1;
}

static double top_rate(const struct top_sample *a,
                       const struct top_sample *b, enum top_key k)
{
	double dt = b->at - a->at;
	uint64_t d = b->v[k] >= a->v[k] ? b->v[k] - a->v[k] : 0;

	return dt > 0 ? (double)d / dt : 0.0;
}

/* 100 * part / (part + rest) over the interval, or -1 when nothing. */
static double top_share(const struct top_sample *a,
                        const struct top_sample *b, enum top_key part,
                        enum top_key rest)
{
	double p = top_rate(a, b, part), q = top_rate(a, b, rest);

	return p + q > 0 ? 100.0 * p / (p + q) : -1.0;
}

static void top_pct(const char *label, double v, const char *note)
{
	if (v < 0)
		printf("%-18s %8s   %s\n", label, "-", note);
	else
		printf("%-18s %7.1f%%   %s\n", label, v, note);
}

static void top_render(const struct top_sample *a,
                       const struct top_sample *b, bool tty,
                       double interval)
{
	double answered = top_rate(a, b, K_ANS_CURVE) +
	                  top_rate(a, b, K_ANS_PLAIN);

	if (tty)
		printf("\033[H\033[2J");
	printf("curvecache top: up %" PRIu64 " s, every %.1f s%s\n",
	       b->v[K_UPTIME], interval, tty ? " (q quits)" : "");
	printf("%-18s %8.1f   udp %.1f/s, tcp %.1f/s\n", "queries/s",
	       top_rate(a, b, K_QUERIES), top_rate(a, b, K_UDP),
	       top_rate(a, b, K_TCP));
	top_pct("cache hit ratio", top_share(a, b, K_HITS, K_MISSES),
	        "of queries the cache answered");
	top_pct("DNSCurve share", top_share(a, b, K_ANS_CURVE, K_ANS_PLAIN),
	        "of answers with data from upstream");
	printf("%-18s %8.1f   %.1f%% of those answers\n", "SERVFAIL/s",
	       top_rate(a, b, K_SERVFAIL), answered > 0 ?
	       100.0 * top_rate(a, b, K_SERVFAIL) / answered : 0.0);
	printf("%-18s %8" PRIu64 "   resolutions (%.1f recursive "
	       "replies/s)\n", "in flight", b->v[K_INFLIGHT],
	       top_rate(a, b, K_RECURSIVE));
	printf("%-18s %8.1f   DNSCurve %.1f/s, timeouts %.1f/s, bad boxes "
	       "%.1f/s\n", "upstream/s", top_rate(a, b, K_UP_SENDS),
	       top_rate(a, b, K_UP_CURVE), top_rate(a, b, K_UP_TIMEOUTS),
	       top_rate(a, b, K_CURVE_BAD));
	printf("%-18s %8" PRIu64 "   entries, %.1f MB\n", "cache",
	       b->v[K_ENTRIES], (double)b->v[K_MEM] / 1e6);
	if (!tty)
		printf("\n");
	fflush(stdout);
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
			if (*end != '\0' || !(*iv * TOP_MS_PER_S >=
			    TOP_INTERVAL_MIN_MS) || *iv * TOP_MS_PER_S >
			    TOP_INTERVAL_MAX_MS)
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
	t.c_lflag &= (tcflag_t)~(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	return tcsetattr(STDIN_FILENO, TCSANOW, &t) == 0;
}

int ctlm_top(const char *path, int argc, char **argv)
{
	struct top_sample a, b;
	struct sigaction sa;
	struct termios saved;
	double iv = TOP_INTERVAL_MS / TOP_MS_PER_S;
	long count = 0, i;
	bool raw, tty = isatty(STDOUT_FILENO);
	int fd, rc = CTLM_EXIT_OK;

	if (top_options(argc, argv, &count, &iv) != 0) {
		fprintf(stderr, "usage: curvecache-control top [--once] "
		        "[-n COUNT] [-d SECONDS]\n");
		return CTLM_EXIT_USAGE;
	}
	fd = ctlm_connect(path);
	if (fd < 0)
		return CTLM_EXIT_CONNECT;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = top_on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	raw = count == 0 && top_raw(&saved);
	if (top_read(fd, &a) != 0)
		rc = CTLM_EXIT_ERROR;
	for (i = 0; rc == CTLM_EXIT_OK && (count == 0 || i < count); i++) {
		if (!top_wait(iv, raw))
			break;
		if (top_read(fd, &b) != 0) {
			rc = top_stop ? CTLM_EXIT_OK : CTLM_EXIT_ERROR;
			break;
		}
		top_render(&a, &b, tty && count == 0, iv);
		a = b;
	}
	if (raw)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	if (rc == CTLM_EXIT_ERROR)
		fprintf(stderr, "curvecache-control: top: the daemon stopped "
		        "answering\n");
	close(fd);
	return rc;
}
