/*
 * resolver/conf/cfg_int.h - what cfg.c (options) and cfg_file.c (lines, files,
 * include) share; nothing else includes it.
 */
#ifndef CURVECACHE_RESOLVER_CFG_INT_H
#define CURVECACHE_RESOLVER_CFG_INT_H

#include <stdbool.h>
#include <stddef.h>
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

#endif /* CURVECACHE_RESOLVER_CFG_INT_H */
