/*
 * resolver/ctl/control_cmd.c - the control protocol (see control.h):
 * sessions (lines in, answers out, load_cache streams),
 * command table and its dispatch, and the small commands (reload,
 * verbosity, stop, help, load_cache). The cache's commands
 * (flushes, dump_cache) are in control_cache.c; the output buffer in
 * control_out.c; status, lookup, servers
 * and flush_infra in control_info.c; the counters in control_stats.c;
 * get_option in control_option.c; the workers' running state in
 * control_rt.c; top_queries in control_topk.c. No sockets here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/cachefile.h"
#include "conf/cfg.h"
#include "base/log.h"
#include "control_int.h"
#include "stats/topk.h"
#include "wire/wire.h"

/** Unbound's framing: a connection whose first line starts so. */
#define CONTROL_UBCT_MAGIC "UBCT"
/** ...and the version we speak ("UBCT1 " then the command). */
#define CONTROL_UBCT_PREFIX "UBCT1 "
/** The line that ends a cache file sent in Unbound's framing. */
#define CONTROL_UBCT_EOF "EOF"

struct control_session {
	struct control_cmd *c;
	char line[CONTROL_LINE_MAX + 1];
	size_t len;
	bool closed;
	bool started; /**< the first line has been seen */
	bool stop;    /**< stop was asked: stop after the
	                   answer */
	bool ubct;    /**< Unbound's framing (one command) */
	/* load_cache: the rest of the stream */
	struct cachefile_load *ld;
	char *lbuf; /**< CACHEFILE_LINE_MAX + 1 bytes */
	size_t llen;
	bool skipping;             /**< an over-long line: to its end */
	struct control_bulk *bulk; /**< local_zones ...: input follows */
};

struct control_bulk **control_session_bulk(struct control_session *s)
{
	return &s->bulk;
}

struct control_cmd *control_session_cmd(struct control_session *s)
{
	return s->c;
}

/* ------------------------------------------------------------------ */
/* The engine                                                          */

int control_cmd_new(const struct control_env *env, struct control_cmd **out)
{
	struct control_cmd *c;

	if (env == NULL || out == NULL || env->cache == NULL ||
	    env->srv == NULL || env->cfg == NULL)
		return CONTROL_EINVAL;
	c = calloc(1, sizeof(*c));
	if (c == NULL)
		return CONTROL_ENOMEM;
	c->env = *env;
	c->base.mono_ms = env->start_ms;
	*out = c;
	return CONTROL_OK;
}

void control_cmd_free(struct control_cmd *c)
{
	free(c);
}

bool control_name_arg(const char *text, uint8_t *name, size_t *len)
{
	if (wire_name_from_text(text, strlen(text), name, len) != WIRE_OK)
		return false;
	wire_name_lower(name, *len);
	return true;
}

/* ------------------------------------------------------------------ */
/* Commands that change things                                         */

static const char *cmd_reload(struct control_session *s, char **argv,
                              size_t argc, struct control_out *out, char *err)
{
	const struct control_env *env = &s->c->env;

	(void)argv;
	(void)argc;
	if (env->reload == NULL)
		return "reload is not available";
	if (env->reload(env->reload_arg, err, CONTROL_ERR_BYTES) != 0)
		return err;
	control_out_printf(out, "reloaded %s\n",
	                   env->cfg_path != NULL ? env->cfg_path : "");
	return NULL;
}

/* flush, flush_zone, flush_type, flush_all, flush_negative, flush_bogus,
 * dump_cache:
 * the cache's entries (control_cache.c). A dump in Unbound's framing
 * ends with the line its load_cache reads up to. */
static const char *cmd_cache(struct control_session *s, char **argv,
                             size_t argc, struct control_out *out, char *err)
{
	const char *msg;

	if (strcmp(argv[0], "flush_type") == 0)
		return control_cmd_flush_type(s->c, argv, argc, out, err);
	if (strcmp(argv[0], "dump_cache") != 0)
		return control_cmd_flush(s->c, argv, argc, out, err);
	msg = control_cmd_dump(s->c, argv, argc, out, err);
	if (msg == NULL && s->ubct)
		control_out_printf(out, "%s\n", CONTROL_UBCT_EOF);
	return msg;
}

static const char *cmd_load(struct control_session *s, char **argv,
                            size_t argc, struct control_out *out, char *err)
{
	(void)argv;
	(void)argc;
	(void)out;
	(void)err;
	s->lbuf = malloc(CACHEFILE_LINE_MAX + 1);
	if (s->lbuf == NULL || cachefile_load_new(s->c->env.cache, time(NULL),
	                                          &s->ld) != CACHEFILE_OK) {
		free(s->lbuf);
		s->lbuf = NULL;
		return "out of memory";
	}
	return NULL;
}

/* Unbound's verbosity numbers as log levels: 0 errors and warnings,
 * 1 and 2 operational information, 3 and up everything. */
static const char *cmd_verbosity(struct control_session *s, char **argv,
                                 size_t argc, struct control_out *out,
                                 char *err)
{
	char *end;
	long v = strtol(argv[1], &end, 10);

	(void)s;
	(void)argc;
	(void)out;
	if (end == argv[1] || *end != '\0' || v < 0) {
		snprintf(err, CONTROL_ERR_BYTES,
		         "in verbosity number syntax: %.32s", argv[1]);
		return err;
	}
	log_level_set(v == 0 ? CFG_LOG_WARN :
	              v < 3  ? CFG_LOG_INFO :
	                       CFG_LOG_DEBUG);
	return NULL;
}

/* stop: answered, then the daemon stops (control.c). log_reopen: logs
 * go to stderr or syslog, never to a file of ours, so there is nothing
 * to reopen (a rotated journal or syslog file is the logger's). */
static const char *cmd_stop_reopen(struct control_session *s, char **argv,
                                   size_t argc, struct control_out *out,
                                   char *err)
{
	(void)argc;
	(void)out;
	(void)err;
	if (strcmp(argv[0], "stop") == 0)
		s->stop = true;
	return NULL;
}

static const char *cmd_list(struct control_session *s, char **argv,
                            size_t argc, struct control_out *out, char *err)
{
	if (strcmp(argv[0], "get_option") == 0)
		return control_cmd_get_option(s->c, argv, argc, out, err);
	return control_cmd_list_zones(s->c, argv, argc, out, err);
}

static const char *cmd_stats(struct control_session *s, char **argv,
                             size_t argc, struct control_out *out, char *err)
{
	enum control_format fmt = CONTROL_FMT_TEXT;

	if (strcmp(argv[0], "flush_stats") == 0)
		return control_cmd_flush_stats(s->c, argv, argc, out, err);
	if (argc == 2) {
		const char *f = argv[1];

		if (f[0] == '-' && f[1] == '-')
			f += 2;
		if (strcmp(f, "prometheus") == 0)
			fmt = CONTROL_FMT_PROM;
		else if (strcmp(f, "json") == 0)
			fmt = CONTROL_FMT_JSON;
		else if (strcmp(f, "text") != 0)
			return "format must be text, prometheus or json";
	}
	control_stats_write(s->c, fmt, strcmp(argv[0], "stats") == 0, out);
	return NULL;
}

static const char *cmd_status(struct control_session *s, char **argv,
                              size_t argc, struct control_out *out, char *err)
{
	if (s->ubct)
		return control_cmd_status_ub(s->c, argv, argc, out, err);
	return control_cmd_status(s->c, argv, argc, out, err);
}

static const char *cmd_lookup(struct control_session *s, char **argv,
                              size_t argc, struct control_out *out, char *err)
{
	return control_cmd_lookup(s->c, argv, argc, out, err);
}

/* servers; dump_infra and ratelimit_list (control_ub.c) */
static const char *cmd_servers(struct control_session *s, char **argv,
                               size_t argc, struct control_out *out, char *err)
{
	if (strcmp(argv[0], "servers") != 0)
		return control_cmd_ub_tables(s->c, argv, argc, out, err);
	return control_cmd_servers(s->c, argv, argc, out, err);
}

static const char *cmd_flush_infra(struct control_session *s, char **argv,
                                   size_t argc, struct control_out *out,
                                   char *err)
{
	return control_cmd_flush_infra(s->c, argv, argc, out, err);
}

static const char *cmd_top_queries(struct control_session *s, char **argv,
                                   size_t argc, struct control_out *out,
                                   char *err)
{
	(void)s;
	(void)err;
	return control_topk_write(argv, argc, out);
}

static const char *cmd_privacy(struct control_session *s, char **argv,
                               size_t argc, struct control_out *out, char *err)
{
	(void)err;
	return control_cmd_privacy(s->c, argv, argc, out);
}

/* dump_requestlist, flush_requestlist, forward_add, forward_remove:
 * every worker's running state (control_rt.c). */
static const char *cmd_rt(struct control_session *s, char **argv, size_t argc,
                          struct control_out *out, char *err)
{
	if (strncmp(argv[0], "forward_", 8) == 0)
		return control_cmd_forward(s->c, argv, argc, out, err);
	if (strstr(argv[0], "insecure") != NULL)
		return control_cmd_insecure(s->c, argv, argc, out, err);
	if (strcmp(argv[0], "tls_cert") == 0)
		return control_cmd_tls_cert(s->c, argv, argc, out, err);
	return control_cmd_requestlist(s->c, argv, argc, out, err);
}

static const char *cmd_help(struct control_session *s, char **argv,
                            size_t argc, struct control_out *out, char *err);

static const struct control_verb control_verbs[] = {
	{ "status", 0, 0, cmd_status, "version, uptime, pid, threads", 0 },
	{ "stats", 0, 1, cmd_stats,
	  "[text|prometheus|json]  counters, then reset them", 0 },
	{ "stats_noreset", 0, 1, cmd_stats, "[text|prometheus|json]  counters",
	  0 },
	{ "flush_stats", 0, 0, cmd_stats, "reset the counters, print nothing",
	  CONTROL_VERB_ACTION },
	{ "reload", 0, 0, cmd_reload, "read the config and root hints",
	  CONTROL_VERB_ACTION },
	{ "reload_keep_cache", 0, 0, cmd_reload,
	  "as reload: the cache is kept either way", CONTROL_VERB_ACTION },
	{ "flush", 1, 1, cmd_cache, "NAME  remove a name's entries",
	  CONTROL_VERB_ACTION },
	{ "flush_zone", 1, 1, cmd_cache, "NAME  remove all at or below NAME",
	  CONTROL_VERB_ACTION },
	{ "flush_all", 0, 0, cmd_cache, "empty the cache",
	  CONTROL_VERB_ACTION },
	{ "flush_negative", 0, 0, cmd_cache,
	  "remove NXDOMAIN and NODATA entries", CONTROL_VERB_ACTION },
	{ "flush_bogus", 0, 0, cmd_cache,
	  "remove entries that failed DNSSEC validation",
	  CONTROL_VERB_ACTION },
	{ "flush_type", 2, 2, cmd_cache,
	  "NAME TYPE  remove NAME's TYPE (and its NXDOMAIN)",
	  CONTROL_VERB_ACTION },
	{ "flush_infra", 1, 1, cmd_flush_infra,
	  "all|ADDR  forget RTT, marks, back-off of servers",
	  CONTROL_VERB_ACTION },
	{ "dump_cache", 0, 0, cmd_cache, "the cache as text", 0 },
	{ "load_cache", 0, 0, cmd_load, "read a dump (follows, to EOF)", 0 },
	{ "lookup", 1, 2, cmd_lookup,
	  "NAME [TYPE]  cached data and servers for NAME", 0 },
	{ "servers", 0, 0, cmd_servers, "the server-selection table", 0 },
	{ "privacy", 0, 1, cmd_privacy,
	  "[N]  upstream queries by transport, top N servers asked in plain",
	  0 },
	{ "dump_infra", 0, 0, cmd_servers,
	  "the server-selection table in Unbound's fields", 0 },
	{ "ratelimit_list", 0, 1, cmd_servers,
	  "[+a]  zones over a rate limit: none (clients are limited)", 0 },
	{ "list_forwards", 0, 0, cmd_list, "the forward zones", 0 },
	{ "list_stubs", 0, 0, cmd_list, "the stub zones", 0 },
	{ "get_option", 1, 1, cmd_list, "NAME  an option's running value", 0 },
	{ "verbosity", 1, 1, cmd_verbosity,
	  "N  log level until a reload (0 warn, 1-2 info, 3+ debug)",
	  CONTROL_VERB_ACTION },
	{ "log_reopen", 0, 0, cmd_stop_reopen,
	  "nothing to reopen (stderr or syslog)", CONTROL_VERB_ACTION },
	{ "stop", 0, 0, cmd_stop_reopen, "stop the daemon (as SIGTERM)",
	  CONTROL_VERB_ACTION },
	{ "top_queries", 0, 1, cmd_top_queries,
	  "[N]  busiest names and clients since the last top_queries", 0 },
	{ "dump_requestlist", 0, 0, cmd_rt,
	  "the resolutions in flight, per thread", 0 },
	{ "flush_requestlist", 0, 0, cmd_rt,
	  "end the resolutions in flight (clients: SERVFAIL)",
	  CONTROL_VERB_ACTION },
	{ "forward_add", 1, 1, cmd_rt,
	  "[+it] NAME ADDR[@PORT][#AUTH]...  a forward zone until reload",
	  CONTROL_VERB_ACTION | CONTROL_VERB_REST },
	{ "forward_remove", 1, 2, cmd_rt,
	  "[+i] NAME  drop a forward zone until reload", CONTROL_VERB_ACTION },
	{ "insecure_add", 1, 1, cmd_rt,
	  "NAME  do not validate NAME and below until reload",
	  CONTROL_VERB_ACTION },
	{ "insecure_remove", 1, 1, cmd_rt, "NAME  validate NAME again",
	  CONTROL_VERB_ACTION },
	{ "list_insecure", 0, 0, cmd_rt, "the domains not validated", 0 },
	{ "tls_cert", 0, 0, cmd_rt,
	  "the certificate served over TLS and HTTPS, its expiry", 0 },
	{ "help", 0, 0, cmd_help, "this list", 0 },
};

#define CONTROL_NVERBS (sizeof control_verbs / sizeof control_verbs[0])

/* Verb I of the one list that help, the lookup and control_verb_at
 * walk: this file's table, then control_local's; NULL past the end. */
static const struct control_verb *verb_nth(size_t i)
{
	if (i < CONTROL_NVERBS)
		return &control_verbs[i];
	if (i - CONTROL_NVERBS < control_local_nverbs)
		return &control_local_verbs[i - CONTROL_NVERBS];
	return NULL;
}

static const char *cmd_help(struct control_session *s, char **argv,
                            size_t argc, struct control_out *out, char *err)
{
	size_t i;
	const char *name, *usage;

	(void)s;
	(void)argv;
	(void)argc;
	(void)err;
	for (i = 0; (name = control_verb_at(i, &usage)) != NULL; i++)
		control_out_printf(out, "%-15s %s\n", name, usage);
	return NULL;
}

const char *control_verb_at(size_t i, const char **usage)
{
	const struct control_verb *v = verb_nth(i);

	if (v == NULL)
		return NULL;
	if (usage != NULL)
		*usage = v->usage;
	return v->name;
}

/* ------------------------------------------------------------------ */
/* Sessions                                                            */

int control_session_new(struct control_cmd *c, struct control_session **out)
{
	struct control_session *s;

	if (c == NULL || out == NULL)
		return CONTROL_EINVAL;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return CONTROL_ENOMEM;
	s->c = c;
	*out = s;
	return CONTROL_OK;
}

void control_session_free(struct control_session *s)
{
	if (s == NULL)
		return;
	cachefile_load_free(s->ld);
	control_bulk_free(s->bulk);
	free(s->lbuf);
	free(s);
}

/* Split a line into words in place; false if there are too many. A
 * verb that takes the rest of the line gets it as its one argument. */
static bool split_words(char *line, char **argv, size_t *argc)
{
	char *p = line;

	*argc = 0;
	for (;;) {
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '\0')
			return true;
		if (*argc == CONTROL_ARGS_MAX)
			return false;
		argv[(*argc)++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
}

/* Printable ASCII and tabs only. */
static bool line_clean(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (((unsigned char)p[i] < 0x20 && p[i] != '\t') ||
		    (unsigned char)p[i] >= 0x7f)
			return false;
	return true;
}

static void answer(struct control_out *out, const char *error)
{
	if (error == NULL)
		control_out_put(out, "ok\n", 3);
	else
		control_out_printf(out, "error: %s\n", error);
}

static const struct control_verb *verb_find(const char *word)
{
	const struct control_verb *v;
	size_t i;

	for (i = 0; (v = verb_nth(i)) != NULL; i++)
		if (strcmp(word, v->name) == 0)
			return v;
	return NULL;
}

/* The words of a verb that takes the rest of the line: argv[1] is the
 * line after the command word, blanks around it dropped. */
static void split_rest(char *line, char **argv, size_t *argc)
{
	char *p = line, *end;

	while (*p == ' ' || *p == '\t')
		p++;
	argv[0] = p;
	while (*p != '\0' && *p != ' ' && *p != '\t')
		p++;
	*argc = 1;
	if (*p == '\0')
		return;
	*p++ = '\0';
	while (*p == ' ' || *p == '\t')
		p++;
	end = p + strlen(p);
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		*--end = '\0';
	if (*p != '\0')
		argv[(*argc)++] = p;
}

/** Bytes of a command word looked up in the table. */
#define CONTROL_WORD_MAX 32

/* Run one command line (NUL-terminated, printable); its output goes to
 * out. *verb receives the verb (NULL: unknown, or a blank line); *fatal
 * is set when the line is malformed (the connection is closed).
 * @return NULL, or the error message (static, or in err). */
static const char *exec_line(struct control_session *s, char *line,
                             struct control_out *out,
                             const struct control_verb **verb, bool *fatal,
                             char *err)
{
	char *argv[CONTROL_ARGS_MAX], word[CONTROL_WORD_MAX];
	const struct control_verb *v = NULL;
	const char *w = line + strspn(line, " \t");
	size_t argc, n = strcspn(w, " \t");

	*verb = NULL;
	*fatal = false;
	if (n > 0 && n < sizeof word) {
		memcpy(word, w, n);
		word[n] = '\0';
		v = verb_find(word);
	}
	if (v != NULL && (v->flags & CONTROL_VERB_REST))
		split_rest(line, argv, &argc);
	else if (!split_words(line, argv, &argc)) {
		*fatal = true;
		return "malformed command: too many words";
	}
	if (argc == 0)
		return NULL;
	if (v == NULL)
		return "unknown command (try help)";
	*verb = v;
	if (argc - 1 < v->min_args || argc - 1 > v->max_args) {
		snprintf(err, CONTROL_ERR_BYTES, "usage: %s %s", v->name,
		         v->usage);
		return err;
	}
	return v->run(s, argv, argc, out, err);
}

/* A command in curvecache's own protocol: its output, then "ok" or
 * "error: REASON" (a load_cache under way answers at the end). */
static enum control_state run_native(struct control_session *s, char *line,
                                     struct control_out *out)
{
	const struct control_verb *v;
	char err[CONTROL_ERR_BYTES];
	const char *msg;
	bool fatal;

	err[0] = '\0';
	msg = exec_line(s, line, out, &v, &fatal, err);
	if (msg == NULL && v == NULL)
		return CONTROL_OPEN; /* a blank line */
	if ((s->ld == NULL && s->bulk == NULL) || msg != NULL)
		answer(out, msg);
	return fatal || s->stop ? CONTROL_CLOSE : CONTROL_OPEN;
}

/* A command in Unbound's framing ("UBCT1 " removed): one command per
 * connection. Success: the output (an action's answer starts with
 * "ok"); failure: "error REASON" first, so that unbound-control exits
 * 1. The connection closes after the answer, except while a load_cache
 * reads its file (to a line "EOF"). */
static enum control_state run_ubct(struct control_session *s, char *line,
                                   struct control_out *out)
{
	struct control_out body = { NULL, 0, 0, false };
	const struct control_verb *v;
	char err[CONTROL_ERR_BYTES];
	const char *msg;
	bool fatal;

	s->ubct = true;
	err[0] = '\0';
	msg = exec_line(s, line, &body, &v, &fatal, err);
	if (msg == NULL && v == NULL)
		msg = "no command given";
	if (msg != NULL) {
		control_out_printf(out, "error %s\n", msg);
	} else if (v->flags & CONTROL_VERB_ACTION) {
		control_out_put(out, "ok", 2);
		control_out_put(out, body.len > 0 ? " " : "\n", 1);
		control_out_put(out, body.p, body.len);
	} else {
		control_out_put(out, body.p, body.len);
	}
	control_out_free(&body);
	return (s->ld != NULL || s->bulk != NULL) && msg == NULL ?
	               CONTROL_OPEN :
	               CONTROL_CLOSE;
}

/* Run one whole command line (s->line, s->len bytes). */
static enum control_state run_line(struct control_session *s,
                                   struct control_out *out)
{
	static const char magic[] = CONTROL_UBCT_MAGIC;
	static const char prefix[] = CONTROL_UBCT_PREFIX;
	bool first = !s->started;

	s->started = true;
	if (s->len > 0 && s->line[s->len - 1] == '\r')
		s->len--;
	s->line[s->len] = '\0';
	if (first && strncmp(s->line, magic, sizeof magic - 1) == 0) {
		if (strncmp(s->line, prefix, sizeof prefix - 1) != 0) {
			control_out_printf(out, "error version mismatch\n");
			return CONTROL_CLOSE;
		}
		if (!line_clean(s->line, s->len)) {
			control_out_printf(out, "error malformed command\n");
			return CONTROL_CLOSE;
		}
		return run_ubct(s, s->line + sizeof prefix - 1, out);
	}
	if (!line_clean(s->line, s->len)) {
		answer(out,
		       "malformed command: bytes outside printable ASCII");
		return CONTROL_CLOSE;
	}
	return run_native(s, s->line, out);
}

/* One line of the cache file being loaded. In Unbound's framing a
 * line "EOF" ends the file: true then (the line is not loaded). */
static bool load_line(struct control_session *s)
{
	static const char eof[] = CONTROL_UBCT_EOF;
	size_t n = s->llen;
	bool end = false;

	if (n > 0 && s->lbuf[n - 1] == '\r')
		n--;
	if (s->ubct && !s->skipping && n == sizeof eof - 1 &&
	    memcmp(s->lbuf, eof, sizeof eof - 1) == 0)
		end = true;
	else if (!s->skipping)
		(void)cachefile_load_line(s->ld, s->lbuf, s->llen);
	s->llen = 0;
	s->skipping = false;
	return end;
}

/* The end of a load: the report, then "ok" or an error line. */
static void load_finish(struct control_session *s, struct control_out *out)
{
	char report[CACHEFILE_REPORT_BYTES];
	struct cachefile_load_counts n;

	cachefile_load_finish(s->ld);
	(void)cachefile_load_report(s->ld, report, sizeof report);
	cachefile_load_counts(s->ld, &n);
	if (s->ubct && n.bad > 0)
		control_out_printf(out, "error %zu bad lines\n", n.bad);
	if (s->ubct && n.bad == 0)
		control_out_put(out, "ok ", 3);
	control_out_put(out, report, strlen(report));
	if (!s->ubct && n.bad > 0)
		control_out_printf(out, "error: %zu bad lines\n", n.bad);
	else if (!s->ubct)
		answer(out, NULL);
	cachefile_load_free(s->ld);
	s->ld = NULL;
	s->closed = true;
}

/* Bytes of a load_cache stream; every one is used (in Unbound's
 * framing, up to the line "EOF", where the load ends). */
static void load_feed(struct control_session *s, const char *buf, size_t len,
                      struct control_out *out)
{
	const char *nl;
	size_t n;

	while (len > 0 && s->ld != NULL) {
		nl = memchr(buf, '\n', len);
		n = nl != NULL ? (size_t)(nl - buf) : len;
		if (!s->skipping) {
			size_t room = CACHEFILE_LINE_MAX + 1 - s->llen;
			size_t k = n < room ? n : room;

			memcpy(s->lbuf + s->llen, buf, k);
			s->llen += k;
			if (s->llen == CACHEFILE_LINE_MAX + 1) {
				/* Too long: report it now, skip to its end. */
				(void)cachefile_load_line(s->ld, s->lbuf,
				                          s->llen);
				s->skipping = true;
				s->llen = 0;
			}
		}
		if (nl == NULL)
			return;
		if (load_line(s))
			load_finish(s, out);
		buf += n + 1;
		len -= n + 1;
	}
}

enum control_state control_session_feed(struct control_session *s,
                                        const char *buf, size_t len,
                                        struct control_out *out)
{
	const char *nl;
	size_t n;

	while (len > 0 && !s->closed) {
		if (s->ld != NULL) {
			load_feed(s, buf, len, out);
			break;
		}
		if (s->bulk != NULL) {
			s->closed = control_bulk_feed(&s->bulk, buf, len,
			                              s->ubct, out);
			break;
		}
		nl = memchr(buf, '\n', len);
		n = nl != NULL ? (size_t)(nl - buf) : len;
		if (n > CONTROL_LINE_MAX - s->len) {
			/* "error: ..." also makes unbound-control exit 1 */
			answer(out, "malformed command: line too long");
			s->closed = true;
			break;
		}
		memcpy(s->line + s->len, buf, n);
		s->len += n;
		if (nl == NULL)
			return CONTROL_OPEN;
		buf += n + 1;
		len -= n + 1;
		if (run_line(s, out) == CONTROL_CLOSE)
			s->closed = true;
		s->len = 0;
	}
	if (s->stop) {
		s->closed = true;
		return CONTROL_STOP;
	}
	return s->closed ? CONTROL_CLOSE : CONTROL_OPEN;
}

enum control_state control_session_eof(struct control_session *s,
                                       struct control_out *out)
{
	if (s->closed)
		return CONTROL_CLOSE;
	s->closed = true;
	if (s->bulk != NULL) {
		control_bulk_finish(&s->bulk, s->ubct, out);
		return CONTROL_CLOSE;
	}
	if (s->ld == NULL) {
		if (s->len > 0)
			(void)run_line(s, out);
		s->len = 0;
		if (s->ld == NULL)
			return s->stop ? CONTROL_STOP : CONTROL_CLOSE;
	}
	if (s->llen > 0 || s->skipping)
		(void)load_line(s);
	load_finish(s, out);
	return CONTROL_CLOSE;
}
