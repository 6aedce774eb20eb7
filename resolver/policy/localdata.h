/*
 * resolver/policy/localdata.h - names the administrator serves or blocks:
 * local-data-file and block-file (see etc/curvecache.conf).
 *
 * Local data is a hosts-like file, one "ADDRESS NAME [NAME...]" line per
 * address ('#' starts a comment), as /etc/hosts:
 *
 *   192.168.1.10   printer.home.arpa printer.lan
 *   fd00::10       printer.home.arpa
 *
 * Each name is answered authoritatively (AA) with its A and AAAA
 * records; other types of such a name are NODATA; the reverse name of
 * each address (in-addr.arpa / ip6.arpa) is answered with a PTR to the
 * first name of the first line that gives the address. Names below a
 * local name are not affected.
 *
 * The block file names one name per line (or hosts-style lines
 * "0.0.0.0 NAME...", as published block lists are): the name and every
 * name below it are answered NXDOMAIN (AA). A local-data name wins over a
 * blocked ancestor.
 *
 * Design notes:
 * - The table is built once (a load, at start and at every SIGHUP) and
 *   then only read: the server swaps a fresh table in, so a bad file
 *   leaves the running one in place. Errors are "FILE:LINE: problem".
 * - Records and blocked names live in one byte arena each, reached
 *   through sorted offset arrays (binary search): a list of a million
 *   blocked names costs about its own size plus 4 bytes a name, and a
 *   lookup never allocates.
 * - Lookups run on every client query before the cache: an empty table
 *   costs two compares.
 * - Records added at run time (control local_data) are the local zones'
 *   (localzone.h).
 */
#ifndef CURVECACHE_RESOLVER_LOCALDATA_H
#define CURVECACHE_RESOLVER_LOCALDATA_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wire/answer.h"

/** TTL of local records. */
#define LOCALDATA_TTL 3600u
/** Largest file read (local data or block list). */
#define LOCALDATA_FILE_MAX (64u * 1024 * 1024)
/** Most records, and most blocked names, in one table. */
#define LOCALDATA_ENTRIES_MAX 2000000u
/** Longest line of a file. */
#define LOCALDATA_LINE_MAX 1024
/** Bytes of an error message. */
#define LOCALDATA_ERR_BYTES 512

/** Status codes. */
enum localdata_status {
	LOCALDATA_OK = 0,    /**< the name is local or blocked: see *a */
	LOCALDATA_ENOTLOCAL, /**< neither: resolve it */
	LOCALDATA_ESPACE,    /**< caller's buffer too small */
	LOCALDATA_EINVAL,    /**< bad argument */
	LOCALDATA_EPARSE,    /**< a bad line (err says FILE:LINE) */
	LOCALDATA_EFILE,     /**< cannot read a file, or too large */
	LOCALDATA_ENOMEM,    /**< allocation failed */
	LOCALDATA_ETOOMANY   /**< more than LOCALDATA_ENTRIES_MAX */
};

/** What a file holds. */
enum localdata_kind {
	LOCALDATA_HOSTS = 0, /**< "ADDRESS NAME..." lines */
	LOCALDATA_BLOCK      /**< one blocked name a line */
};

/** Opaque table; read-only once finished. */
struct localdata;

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *localdata_strerror(int status);

/**
 * An empty table, to fill with localdata_add_text then finish with
 * localdata_finish.
 * @param out: receives it; free with localdata_free.
 * @return LOCALDATA_OK or LOCALDATA_ENOMEM.
 */
int localdata_new(struct localdata **out) MUST_CHECK;

/** Free a table. NULL is allowed. */
void localdata_free(struct localdata *ld);

/**
 * Add the lines of a file's text.
 * @param ld: a table not yet finished.
 * @param kind: hosts lines or blocked names.
 * @param fname: the file name for messages.
 * @param text, len: the text; need not be NUL-terminated.
 * @param err, errlen: receive "FILE:LINE: problem" on failure.
 * @return LOCALDATA_OK, LOCALDATA_EPARSE, LOCALDATA_ETOOMANY or
 *   LOCALDATA_ENOMEM (the table is then unusable: free it).
 */
int localdata_add_text(struct localdata *ld, enum localdata_kind kind,
                       const char *fname, const char *text, size_t len,
                       char *err, size_t errlen) MUST_CHECK;

/**
 * Sort the table for lookups; no more adds afterwards.
 * @return LOCALDATA_OK or LOCALDATA_ENOMEM.
 */
int localdata_finish(struct localdata *ld) MUST_CHECK;

/**
 * Build a table from files (either path may be empty: none).
 * @param hosts: the local-data-file.
 * @param block: the block-file.
 * @param out: receives the finished table; free with localdata_free.
 * @param err, errlen: receive "FILE:LINE: problem" or "FILE: problem".
 * @return LOCALDATA_OK or an error of localdata_add_text, LOCALDATA_EFILE.
 */
int localdata_load(const char *hosts, const char *block,
                   struct localdata **out, char *err, size_t errlen)
	MUST_CHECK;

/** Records and blocked names held (for the log). */
void localdata_counts(const struct localdata *ld, size_t *records,
                      size_t *blocked);

/**
 * Answer a question from the table.
 * @param ld: a finished table, or NULL (nothing is local).
 * @param lname, len: the question name, lowercase wire form.
 * @param qtype, qclass: the question; only class IN is local.
 * @param a: receives the answer (rcode NOERROR or NXDOMAIN), pointing
 *   into buf.
 * @param buf, cap: space for the record images.
 * @param blocked: receives whether the name is blocked; may be NULL.
 * @return LOCALDATA_OK, LOCALDATA_ENOTLOCAL, LOCALDATA_ESPACE or
 *   LOCALDATA_EINVAL.
 */
int localdata_answer(const struct localdata *ld, const uint8_t *lname,
                     size_t len, uint16_t qtype, uint16_t qclass,
                     struct answer *a, uint8_t *buf, size_t cap, bool *blocked)
	MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_LOCALDATA_H */
