/*
 * resolver/conf/cfg_int.h - what the files of the config parser share:
 * cfg.c (options), cfg_file.c (lines, files, include), cfg_zone.c (names),
 * cfg_dnssec.c (the DNSSEC lists) and cfg_local.c (local zones and data);
 * nothing else includes it.
 */
#ifndef CURVECACHE_RESOLVER_CFG_INT_H
#define CURVECACHE_RESOLVER_CFG_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cfg.h"

/** Bytes of the problem a handler writes (cfg_parse adds FILE:LINE). */
#define CFG_WHY_BYTES 200

/* A file being read (include loops are found by device and inode). */
struct cfg_open_file {
	dev_t dev;
	ino_t ino;
};

/* Parse state passed to every handler. */
struct cfg_ctx {
	struct cfg *c;
	bool listen_set, acl_set, outgoing_set;
	char why[CFG_WHY_BYTES];
	const char *file; /* the file being read: messages, includes */
	size_t line;      /* the line being read in it */
	char *err;        /* the caller's message buffer */
	size_t errlen;
	bool err_set; /* err holds the message (an included file's
	                 FILE:LINE): nothing more to prefix */
	struct cfg_open_file chain[CFG_MAX_INCLUDE_DEPTH + 1]; /* top first */
	size_t depth;  /* files in chain */
	size_t nfiles; /* files read in all, the top one counted */
};

/**
 * One "option: value" line (NUL-terminated, comment already cut), run
 * through the option table (cfg.c).
 * @return 0, or -1 with the problem in x->why (or, from an included
 *   file, in x->err with x->err_set).
 */
int cfg_line_parse(struct cfg_ctx *x, char *line);

/**
 * Parse the lines of one file into x->c (cfg_file.c).
 * @param x: the parse state; x->file is name while it runs.
 * @param name: the file name, for messages and relative includes.
 * @param text, len: the text; need not be NUL-terminated.
 * @return 0, or -1 with "FILE:LINE: problem" in x->err (x->err_set).
 */
int cfg_text_parse(struct cfg_ctx *x, const char *name, const char *text,
                   size_t len);

/**
 * The checks of the whole config after its last line (cfg.c).
 * @return 0, or -1 with "NAME: problem" in x->err.
 */
int cfg_end_check(struct cfg_ctx *x, const char *name);

/**
 * The include option (cfg_file.c): a file or a glob(3) pattern, its files
 * in sorted order (no match is no error); a relative path is taken from
 * the directory of x->file.
 * @param x: the parse state.
 * @param v: the value.
 * @return 0, or -1 with the problem in x->why (of this line) or, for a
 *   line of an included file, in x->err (x->err_set).
 */
int cfg_include(struct cfg_ctx *x, char *v);

/**
 * The problem of a line, for the caller's "FILE:LINE: " (cfg_file.c).
 * @return -1, with the text in x->why.
 */
int cfg_why(struct cfg_ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * A path of a config line: absolute as it is, relative from the
 * directory of the file holding the line (cfg_file.c).
 * @param file: that file; v: the path; out, cap: the result.
 * @return 0, or -1 when it does not fit.
 */
int cfg_path_join(const char *file, const char *v, char *out, size_t cap)
	MUST_CHECK;

/**
 * A value in double quotes, as Unbound's configs write names, files and
 * records: the text between them (cfg_zone.c).
 * @param v: NUL-terminated; the closing quote is cut in place.
 * @return v, or v + 1 when it was quoted.
 */
char *cfg_unquote(char *v);

/**
 * Add a name to a list of names once (cfg_zone.c): curve-require,
 * domain-insecure.
 * @param what: for the messages ("curve-require zone").
 * @param v: the name's text.
 * @param list, lens, n: the list, the names' lengths, their count.
 * @param max: the list's size.
 * @param why, whylen: receive the problem.
 * @return 0, or -1 (a bad name, given twice, the list full).
 */
int cfg_name_add(const char *what, const char *v, uint8_t list[][CFG_NAME_MAX],
                 size_t *lens, size_t *n, size_t max, char *why, size_t whylen)
	MUST_CHECK;

/* The DNSSEC options (cfg_dnssec.c), each an option handler: the value,
 * unquoted if in double quotes; 0, or -1 with the problem in x->why. */

/** trust-anchor-file: FILE (repeatable; relative: from the directory of
 *  the file holding the line, as include). */
int cfg_opt_trust_anchor_file(struct cfg_ctx *x, char *v);
/** auto-trust-anchor-file: FILE (repeatable; RFC 5011, one zone each). */
int cfg_opt_auto_trust_anchor_file(struct cfg_ctx *x, char *v);
/** trust-anchor: "RR" (repeatable; parsed when the anchors load, with
 *  its FILE:LINE kept for the message). */
int cfg_opt_trust_anchor(struct cfg_ctx *x, char *v);
/** domain-insecure: NAME (repeatable). */
int cfg_opt_domain_insecure(struct cfg_ctx *x, char *v);
/** add-holddown, del-holddown, keep-missing: SECONDS (RFC 5011). */
int cfg_opt_add_holddown(struct cfg_ctx *x, char *v);
int cfg_opt_del_holddown(struct cfg_ctx *x, char *v);
int cfg_opt_keep_missing(struct cfg_ctx *x, char *v);

/** local-zone: NAME TYPE, local-data: "RR", local-data-ptr: "ADDR NAME"
 *  (repeatable; cfg_local.c). */
int cfg_opt_local_zone(struct cfg_ctx *x, char *v);
int cfg_opt_local_data(struct cfg_ctx *x, char *v);
int cfg_opt_local_data_ptr(struct cfg_ctx *x, char *v);

#endif /* CURVECACHE_RESOLVER_CFG_INT_H */
