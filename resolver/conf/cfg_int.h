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

/** Bytes of the text of a forward-zone: or stub-zone: clause: its name
 *  and servers, as one line of the flat option. */
#define CFG_UB_ZONE_BYTES 1536
/** Bytes of the text of the name: of such a clause. */
#define CFG_UB_NAME_BYTES 320

/** Which Unbound clause the lines belong to (cfg_unbound.c). */
enum cfg_ub_in {
	CFG_UB_SERVER = 0, /* server: or none: the flat options */
	CFG_UB_FORWARD,    /* forward-zone: name:, forward-addr: ... */
	CFG_UB_STUB,       /* stub-zone: name:, stub-addr: ... */
	CFG_UB_CONTROL     /* remote-control: */
};

/* An open clause of Unbound's syntax, and what its lines gave. */
struct cfg_ub_clause {
	enum cfg_ub_in in;
	char at[CFG_MAX_PATH + 16];    /* "FILE:LINE" of the clause line */
	char name[CFG_UB_NAME_BYTES];  /* its name: line, "" before */
	char zone[CFG_UB_ZONE_BYTES];  /* " ADDR ADDR ..." so far */
	uint64_t msg_size, rrset_size; /* msg-/rrset-cache-size, 0: not */
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
	size_t depth;            /* files in chain */
	size_t nfiles;           /* files read in all, the top one counted */
	struct cfg_ub_clause ub; /* Unbound's clauses (cfg_unbound.c) */
	const char *key;         /* the option being run (its table name) */
};

/**
 * One "option: value" line (NUL-terminated, comment already cut), run
 * through the option table (cfg.c).
 * @return 0, or -1 with the problem in x->why (or, from an included
 *   file, in x->err with x->err_set).
 */
int cfg_line_parse(struct cfg_ctx *x, char *line);

/**
 * One option by its curvecache name, through the option table (cfg.c);
 * a name not there goes to cfg_ub_option.
 * @return 0, or -1 with the problem in x->why.
 */
int cfg_option_run(struct cfg_ctx *x, const char *key, char *value);

/**
 * The name of option i of the table (cfg.c), NULL past the last: for the
 * nearest name to an unknown one.
 */
const char *cfg_option_name(size_t i);

/**
 * A line of Unbound's clause syntax (cfg_unbound.c): a clause line
 * ("server:", "forward-zone:" with no value ...) or an option of the open
 * forward-zone:, stub-zone: or remote-control: clause.
 * @return 1 when the line is none of those (an option as any other), else
 *   0 or -1 with the problem in x->why.
 */
int cfg_ub_clause_line(struct cfg_ctx *x, const char *key, char *value);

/**
 * An option name that is not curvecache's (cfg_unbound.c): Unbound's name
 * of a curvecache option (run as that), one ignored here (a note in
 * x->c->notes), one refused (why, and the nearest option), or unknown
 * (the nearest name, when one is near).
 * @return 0, or -1 with the problem in x->why.
 */
int cfg_ub_option(struct cfg_ctx *x, const char *key, char *value);

/**
 * The end of the text: an open forward-zone: or stub-zone: clause
 * becomes its zone (cfg_unbound.c).
 * @return 0, or -1 with "FILE:LINE: problem" in x->why (the clause's).
 */
int cfg_ub_end(struct cfg_ctx *x);

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
 * The value of a file option (x->key: root-hints, cache-file, pidfile ...;
 * cfg_file.c): relative from the folder of the file holding the line, as
 * include; a file the daemon reads must be there (the message names the
 * option at its FILE:LINE, at a reload too); one the daemon writes must
 * end up absolute. Empty: none.
 * @param v: the value; dst, cap: the result.
 * @return 0, or -1 with the problem in x->why.
 */
int cfg_path_opt(struct cfg_ctx *x, const char *v, char *dst, size_t cap);

/**
 * A value in double quotes: the text between them (cfg_zone.c). The line
 * reader (cfg_file.c) already cuts the quotes of every value, so an
 * option handler needs it only for text that was quoted twice.
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

/**
 * An address prefix, "10.0.0.0/8", "::1" or "fd00::/8", into *a (its
 * action untouched; cfg_acl.c).
 * @return 0, or -1 when it is none.
 */
int cfg_prefix_parse(const char *s, struct cfg_acl *a);

/* The access-control options (cfg_acl.c), each an option handler: 0, or
 * -1 with the problem in x->why. */

/** access-control: PREFIX allow|refuse|deny (repeatable). */
int cfg_opt_acl(struct cfg_ctx *x, char *value);
/** access-control-default: allow|refuse|deny. */
int cfg_opt_acl_default(struct cfg_ctx *x, char *value);
/** proxy-protocol-from: PREFIX (repeatable). */
int cfg_opt_proxy_from(struct cfg_ctx *x, char *value);

/* The DNS over HTTPS options (cfg_doh.c), each an option handler: 0, or
 * -1 with the problem in x->why; their defaults (cfg_doh_defaults). */

/** https-port: PORT. */
int cfg_opt_https_port(struct cfg_ctx *x, char *value);
/** http-endpoint: /PATH. */
int cfg_opt_http_endpoint(struct cfg_ctx *x, char *value);
/** http-max-streams: N (1 to CFG_HTTP_STREAMS_MAX). */
int cfg_opt_http_max_streams(struct cfg_ctx *x, char *value);
/** http-query-buffer-size, http-response-buffer-size: SIZE. */
int cfg_opt_http_query_buffer(struct cfg_ctx *x, char *value);
int cfg_opt_http_response_buffer(struct cfg_ctx *x, char *value);
/** tls-ticket-rotate: SECONDS (1 to CFG_TICKET_ROTATE_MAX). */
int cfg_opt_tls_ticket_rotate(struct cfg_ctx *x, char *value);
void cfg_doh_defaults(struct cfg *c);
/** cfg.c's number and size readers: 0, or -1 with x->why set. */
int cfg_parse_u32(struct cfg_ctx *x, const char *value, uint32_t max,
                  uint32_t *out);
int cfg_parse_size(struct cfg_ctx *x, const char *value, uint64_t *out);

/* The DNSSEC options (cfg_dnssec.c), each an option handler: the value
 * (its quotes cut by the line reader); 0, or -1 with the problem in x->why. */

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
/** encrypted-zone: NAME (repeatable). */
int cfg_opt_encrypted_zone(struct cfg_ctx *x, char *v);
/** add-holddown, del-holddown, keep-missing: SECONDS (RFC 5011). */
int cfg_opt_add_holddown(struct cfg_ctx *x, char *v);
int cfg_opt_del_holddown(struct cfg_ctx *x, char *v);
int cfg_opt_keep_missing(struct cfg_ctx *x, char *v);

/** local-zone: NAME TYPE, local-data: "RR", local-data-ptr: "ADDR NAME"
 *  (repeatable; cfg_local.c). */
int cfg_opt_local_zone(struct cfg_ctx *x, char *v);
int cfg_opt_local_data(struct cfg_ctx *x, char *v);
int cfg_opt_local_data_ptr(struct cfg_ctx *x, char *v);

/* The Redis cache tier (cfg_cachedb.c): cachedb-backend, redis-server-host,
 * -port, -path, -password, redis-timeout, redis-expire-records,
 * cachedb-no-store, cachedb-secret-file; each an option handler. */
int cfg_opt_cachedb(struct cfg_ctx *x, char *v);
/** The defaults of struct cfg_cachedb. */
void cfg_cachedb_defaults(struct cfg_cachedb *d);
/** At the end of a config: the backend on without a secret is an error
 *  at the FILE:LINE of the cachedb-backend line.
 *  @return 0, or -1 with the message in x->why. */
int cfg_cachedb_end(struct cfg_ctx *x);

#endif /* CURVECACHE_RESOLVER_CFG_INT_H */
