/*
 * resolver/conf/cfg_file.c - reading configuration files: the text of a file
 * as lines (comments, quotes, NUL bytes, length, "FILE:LINE: problem"), each
 * handed to cfg_line_parse (cfg.c); cfg_parse, cfg_load, the include
 * option (glob patterns, nesting, loops) and the one reader of a whole
 * config file (see cfg.h for the rules); the paths of file options and
 * the FILE:LINE each keeps, which the loaders' messages start with
 * (cfg_root_hints_error, cfg_file_error).
 */
#include "cfg.h"
#include "cfg_int.h"
#include "base/fileio.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/** Bytes of a config line, its NUL counted. */
#define CFG_LINE_MAX 1024

/** Loads so far (cfg.load_gen); the main thread loads, a worker reads
 *  its own copy. */
static _Atomic uint64_t cfg_loads;

/* The problem of a line, for the caller's FILE:LINE (cfg_int.h). */
int cfg_why(struct cfg_ctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->why, sizeof x->why, fmt, ap);
	va_end(ap);
	return -1;
}

/* Whether the file (st) is one of those being read: an include loop. */
static bool in_chain(const struct cfg_ctx *x, const struct stat *st)
{
	size_t i;

	for (i = 0; i < x->depth; i++)
		if (x->chain[i].dev == st->st_dev &&
		    x->chain[i].ino == st->st_ino)
			return true;
	return false;
}

/* Read and parse one file. Its own problems (cannot open, a loop, too
 * deep) go to x->why for the caller's FILE:LINE; those of its lines go
 * to x->err (x->err_set). An include must be a regular file. */
static int parse_file(struct cfg_ctx *x, const char *path, bool include)
{
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd, rc = -1;

	/* O_NONBLOCK: an include naming a FIFO fails below, never hangs */
	fd = open(path, O_RDONLY | O_CLOEXEC | (include ? O_NONBLOCK : 0));
	if (fd < 0)
		return cfg_why(x, "cannot open: %s", strerror(errno));
	if (fstat(fd, &st) != 0)
		cfg_why(x, "cannot stat: %s", strerror(errno));
	else if (include && !S_ISREG(st.st_mode))
		cfg_why(x, "not a regular file");
	else if (in_chain(x, &st))
		cfg_why(x, "include loop: the file is already being read");
	else if (x->depth > CFG_MAX_INCLUDE_DEPTH)
		cfg_why(x, "includes nested deeper than %d",
		        CFG_MAX_INCLUDE_DEPTH);
	else if (++x->nfiles > CFG_MAX_INCLUDE_FILES)
		cfg_why(x, "more than %d files included",
		        CFG_MAX_INCLUDE_FILES);
	else if (fileio_read_fd(fd, CFG_MAX_FILE_BYTES, include, &buf, &len,
	                        x->why, sizeof x->why) == FILEIO_OK) {
		x->chain[x->depth].dev = st.st_dev;
		x->chain[x->depth++].ino = st.st_ino;
		rc = cfg_text_parse(x, path, buf, len);
		x->depth--;
	}
	free(buf);
	close(fd);
	return rc;
}

/* One file an include names; its own problem is told with its name. */
static int include_one(struct cfg_ctx *x, const char *path)
{
	char why[CFG_WHY_BYTES];

	if (parse_file(x, path, true) == 0)
		return 0;
	if (x->err_set)
		return -1;
	snprintf(why, sizeof why, "%s", x->why);
	return cfg_why(x, "include %.100s: %s", path, why);
}

/* glob(3): a directory that is not there matches nothing; one that cannot
 * be read (permissions) stops the include. */
static int glob_error(const char *path, int eerrno)
{
	(void)path;
	return eerrno != ENOENT && eerrno != ENOTDIR;
}

int cfg_path_join(const char *file, const char *v, char *out, size_t cap)
{
	const char *slash = strrchr(file, '/');
	int rc;

	if (v[0] == '/' || slash == NULL)
		rc = snprintf(out, cap, "%s", v);
	else
		rc = snprintf(out, cap, "%.*s/%s", (int)(slash - file), file,
		              v);
	return rc < 0 || (size_t)rc >= cap ? -1 : 0;
}

/* The file options that must exist when read (the daemon reads them, a
 * reload too; root-hints is checked by its loader, so that the shipped
 * file names the installed hints and still parses in the source tree)
 * and those that must be absolute (written by the daemon, which works
 * from "/"); the others are only joined. */
static const char *const path_read[] = { "local-data-file", "block-file",
	                                 "tls-cert-bundle", "tls-service-key",
	                                 "tls-service-pem" };
static const char *const path_abs[] = { "cache-file", "pidfile",
	                                "curve-key-file", "control-socket" };

static bool path_in(const char *key, const char *const *list, size_t n)
{
	size_t i;

	for (i = 0; key != NULL && i < n; i++)
		if (strcmp(key, list[i]) == 0)
			return true;
	return false;
}

/* Where the FILE:LINE of a file option is kept, or NULL: the loaders'
 * messages name it (cfg_root_hints_error, cfg_file_error, trust.h,
 * ops.h). */
static char *path_at(struct cfg *c, const char *opt)
{
	if (strcmp(opt, "root-hints") == 0)
		return c->root_hints_at;
	if (strcmp(opt, "curve-key-file") == 0)
		return c->curve_key_file_at;
	if (strcmp(opt, "local-data-file") == 0)
		return c->local_data_file_at;
	if (strcmp(opt, "block-file") == 0)
		return c->block_file_at;
	if (strcmp(opt, "tls-service-key") == 0)
		return c->tls_service_key_at;
	if (strcmp(opt, "tls-service-pem") == 0)
		return c->tls_service_pem_at;
	return NULL;
}

int cfg_path_opt(struct cfg_ctx *x, const char *v, char *dst, size_t cap)
{
	const char *opt = x->key != NULL ? x->key : "file";
	struct stat st;
	char *at;

	if (*v == '\0') {
		dst[0] = '\0';
		return 0;
	}
	if (cfg_path_join(x->file, v, dst, cap) != 0)
		return cfg_why(x, "%s: path too long: \"%.60s...\"", opt, v);
	if ((at = path_at(x->c, opt)) != NULL)
		snprintf(at, CFG_TRUST_AT_BYTES, "%.*s:%zu", CFG_MAX_PATH - 1,
		         x->file, x->line);
	if (dst[0] != '/' &&
	    path_in(opt, path_abs, sizeof path_abs / sizeof path_abs[0]))
		return cfg_why(x, "%s must be an absolute path, not \"%.60s\"",
		               opt, v);
	if (path_in(opt, path_read, sizeof path_read / sizeof path_read[0]) &&
	    stat(dst, &st) != 0 && (errno == ENOENT || errno == ENOTDIR))
		return cfg_why(x, "%s %.120s: %s", opt, dst, strerror(errno));
	return 0;
}

void cfg_root_hints_error(const struct cfg *c, const char *why, char *err,
                          size_t errlen)
{
	if (c->root_hints[0] != '\0' && c->root_hints_at[0] != '\0')
		snprintf(err, errlen, "%s: root-hints %s", c->root_hints_at,
		         why);
	else
		snprintf(err, errlen, "%s", why);
}

/* Does err start with file, then ':'? */
static bool names_file(const char *err, const char *file)
{
	size_t n = strlen(file);

	return n > 0 && strncmp(err, file, n) == 0 && err[n] == ':';
}

void cfg_file_error(const struct cfg *c, char *err, size_t errlen)
{
	const char *opt = NULL, *at = NULL;
	char why[CFG_ERR_BYTES];

	if (names_file(err, c->local_data_file))
		opt = "local-data-file", at = c->local_data_file_at;
	else if (names_file(err, c->block_file))
		opt = "block-file", at = c->block_file_at;
	if (opt == NULL || at[0] == '\0')
		return;
	snprintf(why, sizeof why, "%s", err);
	snprintf(err, errlen, "%s: %s %s", at, opt, why);
}

int cfg_include(struct cfg_ctx *x, char *v)
{
	char pat[PATH_MAX];
	glob_t g;
	size_t i;
	int rc;

	if (cfg_path_join(x->file, v, pat, sizeof pat) != 0)
		return cfg_why(x, "include path too long: \"%.60s...\"", v);
	if (strpbrk(v, "*?[") == NULL)
		return include_one(x, pat);
	rc = glob(pat, 0, glob_error, &g);
	if (rc == GLOB_NOMATCH)
		return 0;
	if (rc != 0)
		return cfg_why(x, "include %.100s: cannot list the files (%s)",
		               v,
		               rc == GLOB_NOSPACE ?
		                       "out of memory" :
		                       "a directory is unreadable");
	for (i = 0, rc = 0; i < g.gl_pathc && rc == 0; i++)
		rc = include_one(x, g.gl_pathv[i]);
	globfree(&g);
	return rc;
}

int cfg_load(const char *path, struct cfg *out, char *err, size_t errlen)
{
	struct cfg_ctx x = {
		.c = out, .file = path, .err = err, .errlen = errlen
	};

	cfg_defaults(out);
	out->load_gen = ++cfg_loads;
	if (snprintf(out->file, sizeof out->file, "%s", path) >=
	    (int)sizeof out->file) {
		snprintf(err, errlen, "%.60s...: path too long", path);
		return -1;
	}
	if (parse_file(&x, path, false) != 0) {
		if (!x.err_set)
			snprintf(err, errlen, "%s: %s", path, x.why);
		return -1;
	}
	return cfg_end_check(&x, path);
}

/* The message of a failed line, "FILE:LINE: problem", unless an included
 * file already wrote its own. */
static int line_failed(struct cfg_ctx *x, const char *name, size_t lineno,
                       const char *why)
{
	if (!x->err_set)
		snprintf(x->err, x->errlen, "%s:%zu: %s", name, lineno, why);
	x->err_set = true;
	return -1;
}

/* Is c the quote that opens or closes a quoted part (*q: the open one,
 * 0 outside)? Quotes are cut from the line here, the one place: Unbound's
 * "corp.example." and 'NAME TXT "text"' reach the options without them,
 * and inside a quoted part '#' starts no comment. */
static bool quote_step(char c, char *q)
{
	if (*q == 0 && (c == '"' || c == '\''))
		*q = c;
	else if (*q != 0 && c == *q)
		*q = 0;
	else
		return false;
	return true;
}

/* Line lineno, from text[*pos] to its newline, into line (of
 * CFG_LINE_MAX): comment cut, quotes removed. 0, or -1 with *why. */
static int line_read(const char *text, size_t len, size_t *pos, char *line,
                     const char **why)
{
	size_t n = 0;
	bool comment = false;
	char q = 0;

	for (; *pos < len && text[*pos] != '\n'; (*pos)++) {
		char ch = text[*pos];

		if (ch == '\0') {
			*why = "NUL byte in file";
			return -1;
		}
		if (comment || quote_step(ch, &q))
			continue;
		/* '#' starts a comment at the start of a line or after
		 * white space; inside a value it is part of it
		 * (ADDR@PORT#NAME, as Unbound writes TLS names). */
		if (ch == '#' && q == 0 &&
		    (n == 0 || isspace((unsigned char)line[n - 1]))) {
			comment = true;
			continue;
		}
		if (n + 1 >= CFG_LINE_MAX) {
			*why = "line too long";
			return -1;
		}
		line[n++] = ch;
	}
	(*pos)++; /* the newline */
	line[n] = '\0';
	if (q != 0) {
		*why = q == '"' ? "unbalanced quote: a \" without its pair" :
		                  "unbalanced quote: a ' without its pair";
		return -1;
	}
	return 0;
}

int cfg_text_parse(struct cfg_ctx *x, const char *name, const char *text,
                   size_t len)
{
	char line[CFG_LINE_MAX];
	size_t pos = 0, lineno = 0;
	const char *outer = x->file;
	size_t outer_line = x->line;
	int rc = 0;

	x->file = name;
	while (pos < len && rc == 0) {
		const char *why = NULL;

		lineno++;
		if (line_read(text, len, &pos, line, &why) != 0) {
			rc = line_failed(x, name, lineno, why);
			break;
		}
		x->line = lineno;
		if (cfg_line_parse(x, line) != 0)
			rc = line_failed(x, name, lineno, x->why);
	}
	x->file = outer;
	x->line = outer_line;
	return rc;
}

int cfg_parse(const char *name, const char *text, size_t len, struct cfg *out,
              char *err, size_t errlen)
{
	struct cfg_ctx x = {
		.c = out, .file = name, .err = err, .errlen = errlen
	};

	if (cfg_text_parse(&x, name, text, len) != 0)
		return -1;
	return cfg_end_check(&x, name);
}
