/*
 * resolver/tools/control_main.c - curvecache-control: talk to a running
 * curvecache over its control socket (resolver/ctl/control.h).
 *
 *   curvecache-control [-c CONFIG | -s SOCKET] COMMAND [ARGS]
 *   curvecache-control -h | -V
 *
 * The socket is -s SOCKET, else the control-socket of -c CONFIG, else
 * that of the default config file (the built-in default path when that
 * file cannot be read). The command is sent as one line; the answer is
 * printed without its status line; "error: ..." goes to stderr.
 *
 * Exit status: 0 = ok, 1 = the daemon answered an error (or the answer
 * was cut off), 2 = usage (a load_cache FILE that cannot be opened
 * included: checked before connecting, so nothing is sent), 3 = cannot
 * connect (not running, or not allowed).
 *
 * Special commands:
 *   stats / stats_noreset [--prometheus | --json]
 *   load_cache [FILE]     the dump (curvecache's, or Unbound's dump_cache)
 *                         is read from FILE or standard input
 *   local_zones, local_zones_remove, local_datas, local_datas_remove
 *                         their lines are read from standard input
 *   top [--once] [-n COUNT] [-d SECONDS]
 *                         a live view (control_top.c); q or Ctrl-C quits
 *
 * Design notes:
 * - After the command (and a load_cache file) the client shuts down its
 *   side of the connection, so the daemon answers and closes; the last
 *   line read is the status line. Output is passed through as it comes,
 *   holding back only the last line.
 * - load_cache FILE: the daemon numbers the bad lines of what it was sent
 *   ("line N: reason"); they are printed "FILE:N: reason", the form of
 *   the configuration's errors (the lines sent are FILE's lines).
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "conf/cfg.h"
#include "ctl/control.h"
#include "control_main.h"

/** Bytes of the command line sent. */
#define CTLM_CMD_MAX CONTROL_LINE_MAX
/** Bytes read or copied at a time. */
#define CTLM_IO_BYTES 65536

/* The usage: the options, then every command of the daemon's table
 * (control_verb_at: the same list as its help command), with the forms
 * this tool adds (load_cache FILE, top). */
static void usage(FILE *f)
{
	const char *name, *what;
	size_t i;

	fprintf(f,
	        "usage: curvecache-control [-c CONFIG | -s SOCKET] COMMAND "
	        "[ARGS]\n"
	        "       curvecache-control -h | -V\n"
	        "  -c CONFIG  read the socket path from this config file\n"
	        "             (default %s)\n"
	        "  -s SOCKET  the control socket\n"
	        "  -h, --help      this help\n"
	        "  -V, --version   print the version\n"
	        "commands:\n",
	        CFG_DEFAULT_FILE);
	for (i = 0; (name = control_verb_at(i, &what)) != NULL; i++)
		if (strcmp(name, "load_cache") != 0)
			fprintf(f, "  %-18s %s\n", name, what);
	fprintf(f, "  %-18s %s\n", "load_cache [FILE]",
	        "read a dump of dump_cache, curvecache's or Unbound's\n"
	        "                     (default: standard input)");
	fprintf(f, "  %-18s %s\n", "top",
	        "[--once] [-n COUNT] [-d SECONDS]  a live view (q quits)");
}

/* The socket path from the options. */
static int socket_path(const char *cfgfile, const char *sock, char *out,
                       size_t cap)
{
	struct cfg *c;
	char err[CFG_ERR_BYTES];
	int rc = 0;

	if (sock != NULL) {
		snprintf(out, cap, "%s", sock);
		return 0;
	}
	c = malloc(sizeof(*c));
	if (c == NULL)
		return -1;
	if (cfg_load(cfgfile != NULL ? cfgfile : CFG_DEFAULT_FILE, c, err,
	             sizeof err) != 0) {
		if (cfgfile != NULL) {
			fprintf(stderr, "curvecache-control: %s\n", err);
			rc = -1;
		} else {
			cfg_defaults(c);
		}
	}
	if (rc == 0 && c->control_socket[0] == '\0') {
		fprintf(stderr, "curvecache-control: no control-socket in "
		                "the config\n");
		rc = -1;
	}
	if (rc == 0)
		snprintf(out, cap, "%s", c->control_socket);
	free(c);
	return rc;
}

int ctlm_connect(const char *path)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof sun.sun_path) {
		fprintf(stderr, "curvecache-control: %s: path too long\n",
		        path);
		return -1;
	}
	memcpy(sun.sun_path, path, strlen(path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sun, sizeof sun) != 0) {
		fprintf(stderr, "curvecache-control: %s: %s\n", path,
		        strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	return fd;
}

int ctlm_write_all(int fd, const char *p, size_t n)
{
	ssize_t k;

	while (n > 0) {
		k = write(fd, p, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

/* Join the words of the command ("stats --json" -> "stats json"). */
static int build_command(int argc, char **argv, char *out, size_t cap)
{
	size_t n = 0, len;
	int i;
	/* local_data "NAME TTL IN TYPE RDATA", as unbound-control takes it */
	const char *cut = strcmp(argv[0], "local_data") == 0 ? "\r\n" :
	                                                       " \t\r\n";

	for (i = 0; i < argc; i++) {
		const char *w = argv[i];

		if (i > 0 && w[0] == '-' && w[1] == '-')
			w += 2;
		len = strlen(w);
		if (len == 0 || strpbrk(w, cut) != NULL || len + 2 > cap - n) {
			fprintf(stderr,
			        "curvecache-control: bad argument "
			        "\"%s\"\n",
			        argv[i]);
			return -1;
		}
		if (i > 0)
			out[n++] = ' ';
		memcpy(out + n, w, len);
		n += len;
	}
	out[n++] = '\n';
	out[n] = '\0';
	return 0;
}

/* Open the dump for load_cache (NULL: stdin) before anything is sent, so
 * a missing or unreadable file is one error and the daemon sees nothing.
 * Returns the descriptor, or -1 (message printed). */
static int open_dump(const char *file)
{
	struct stat st;
	const char *why;
	int in;

	if (file == NULL)
		return STDIN_FILENO;
	in = open(file, O_RDONLY | O_CLOEXEC);
	if (in < 0)
		why = strerror(errno);
	else if (fstat(in, &st) != 0)
		why = strerror(errno);
	else if (S_ISDIR(st.st_mode))
		why = "is a directory";
	else
		return in;
	fprintf(stderr,
	        "curvecache-control: load_cache: %s: %s; nothing "
	        "loaded\n",
	        file, why);
	if (in >= 0)
		close(in);
	return -1;
}

/* Copy an open file (or stdin) to the socket. */
static int send_file(int fd, int in)
{
	char buf[CTLM_IO_BYTES];
	ssize_t k;

	for (;;) {
		k = read(in, buf, sizeof buf);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -1 : 0;
		if (ctlm_write_all(fd, buf, (size_t)k) != 0)
			return -1;
	}
}

/** Unprinted bytes of the answer: at most the last line and a part. */
struct ctlm_tail {
	char *p;
	size_t len, cap;
	const char *file; /**< load_cache's FILE, else NULL */
};

/* The length of "line " when the line P (N bytes) is a bad line's report
 * "line DIGITS: ...", else 0. */
static size_t report_line(const char *p, size_t n)
{
	static const char word[] = "line ";
	size_t i = sizeof word - 1;

	if (n < i || memcmp(p, word, i) != 0)
		return 0;
	while (i < n && p[i] >= '0' && p[i] <= '9')
		i++;
	if (i == sizeof word - 1 || i + 1 >= n || p[i] != ':' ||
	    p[i + 1] != ' ')
		return 0;
	return sizeof word - 1;
}

/* Print N bytes of the answer to TO, line by line; with a FILE, a bad
 * line's report names FILE:N instead of "line N". */
static void put_lines(const char *file, const char *p, size_t n, FILE *to)
{
	size_t i = 0, end, skip;

	while (i < n) {
		for (end = i; end < n && p[end] != '\n'; end++)
			;
		if (end < n)
			end++;
		skip = file != NULL ? report_line(p + i, end - i) : 0;
		if (skip > 0)
			fprintf(to, "%s:", file);
		fwrite(p + i + skip, 1, end - i - skip, to);
		i = end;
	}
}

/* Add bytes; print everything before the last complete line. */
static int tail_add(struct ctlm_tail *t, const char *b, size_t n)
{
	size_t i, last = 0, prev = 0;
	char *q;

	if (n > t->cap - t->len) {
		size_t want = t->cap ? t->cap : CTLM_IO_BYTES;

		while (want - t->len < n)
			want *= 2;
		q = realloc(t->p, want);
		if (q == NULL)
			return -1;
		t->p = q;
		t->cap = want;
	}
	memcpy(t->p + t->len, b, n);
	t->len += n;
	for (i = 0; i < t->len; i++) {
		if (t->p[i] == '\n') {
			prev = last;
			last = i + 1;
		}
	}
	if (prev > 0) {
		put_lines(t->file, t->p, prev, stdout);
		memmove(t->p, t->p + prev, t->len - prev);
		t->len -= prev;
	}
	return 0;
}

/* Read the answer to its end; print it; 0 for "ok", 1 otherwise. FILE:
 * load_cache's (NULL: none). */
static int read_answer(int fd, const char *file)
{
	struct ctlm_tail t = { NULL, 0, 0, file };
	char buf[CTLM_IO_BYTES];
	ssize_t k;
	int rc = 1;

	for (;;) {
		k = read(fd, buf, sizeof buf);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0 || tail_add(&t, buf, (size_t)k) != 0)
			break;
	}
	if (t.len == 3 && memcmp(t.p, "ok\n", 3) == 0) {
		rc = 0;
	} else if (t.len > 7 && memcmp(t.p, "error: ", 7) == 0) {
		fwrite(t.p, 1, t.len, stderr);
	} else {
		put_lines(file, t.p, t.len, stdout);
		fprintf(stderr, "error: the answer was cut off\n");
	}
	fflush(stdout);
	free(t.p);
	return rc;
}

/* The commands whose lines follow on standard input, as Unbound's
 * (local_zones ...): sent like a load_cache dump. */
static bool bulk_input(const char *cmd)
{
	return strcmp(cmd, "local_zones") == 0 ||
	       strcmp(cmd, "local_zones_remove") == 0 ||
	       strcmp(cmd, "local_datas") == 0 ||
	       strcmp(cmd, "local_datas_remove") == 0;
}

static int run_command(const char *path, int argc, char **argv)
{
	char cmd[CTLM_CMD_MAX + 2];
	bool load = strcmp(argv[0], "load_cache") == 0 || bulk_input(argv[0]);
	int fd, rc, in = -1;

	if (build_command(load ? 1 : argc, argv, cmd, sizeof cmd) != 0)
		return CTLM_EXIT_USAGE;
	if (load && argc > 2) {
		usage(stderr);
		return CTLM_EXIT_USAGE;
	}
	if (load && (in = open_dump(argc > 1 ? argv[1] : NULL)) < 0)
		return CTLM_EXIT_USAGE;
	fd = ctlm_connect(path);
	if (fd < 0) {
		if (in > STDIN_FILENO)
			close(in);
		return CTLM_EXIT_CONNECT;
	}
	rc = ctlm_write_all(fd, cmd, strlen(cmd));
	if (rc == 0 && load)
		rc = send_file(fd, in);
	if (in > STDIN_FILENO)
		close(in);
	shutdown(fd, SHUT_WR);
	if (rc != 0)
		fprintf(stderr, "curvecache-control: sending failed\n");
	rc = read_answer(fd, load && argc > 1 ? argv[1] : NULL);
	close(fd);
	return rc;
}

int main(int argc, char **argv)
{
	const char *cfgfile = NULL, *sock = NULL;
	char path[CFG_MAX_PATH];
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	signal(SIGPIPE, SIG_IGN);
	while ((opt = getopt_long(argc, argv, "+c:s:hV", longs, NULL)) != -1) {
		switch (opt) {
		case 'c': cfgfile = optarg; break;
		case 's': sock = optarg; break;
		case 'h': usage(stdout); return 0;
		case 'V':
			printf("curvecache-control %s\n", PACKAGE_VERSION);
			return 0;
		default: usage(stderr); return CTLM_EXIT_USAGE;
		}
	}
	if (optind >= argc || (cfgfile != NULL && sock != NULL)) {
		usage(stderr);
		return CTLM_EXIT_USAGE;
	}
	if (socket_path(cfgfile, sock, path, sizeof path) != 0)
		return CTLM_EXIT_USAGE;
	if (strcmp(argv[optind], "top") == 0)
		return ctlm_top(path, argc - optind, argv + optind);
	return run_command(path, argc - optind, argv + optind);
}
