/*
 * resolver/infra/hints.h - root hints: the servers every resolution starts
 * from when the cache knows no closer zone cut.
 *
 * The file is a small zone file: one record a line,
 *   OWNER TTL [IN] NS|A|AAAA DATA
 * with ';' starting a comment and blank lines ignored. NS records must be
 * owned by the root "."; A/AAAA records give the addresses of those NS
 * names. Every NS name must have at least one address, and every address
 * must belong to an NS name. Names are absolute (a final dot is optional)
 * and compared case-insensitively. No directives ($ORIGIN, $TTL), no
 * parentheses.
 *
 * Design notes:
 * - The parser takes (text, len), never reads past len, and reports the
 *   first problem as "FILE:LINE: reason"; a file with any error is
 *   rejected as a whole (a SIGHUP reload keeps the old hints).
 * - Fixed sizes: at most HINTS_MAX_NS servers with HINTS_MAX_ADDRS
 *   addresses each; a hints object is one allocation, immutable once
 *   built, safe to share between threads.
 * - The TTL is checked (0 .. 2^31-1) but not used: hints never expire.
 * - Without a root-hints option the daemon takes Debian's file
 *   (HINTS_DEBIAN_FILE, package dns-root-data) when it is there and
 *   loads, else the IANA root servers compiled in (hints_builtin.c):
 *   hints_select makes that choice in one place for start-up, reload and
 *   every worker. A file that is named is used or is an error.
 */
#ifndef CURVECACHE_RESOLVER_HINTS_H
#define CURVECACHE_RESOLVER_HINTS_H

#include "base/base.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/** Most NS names (root servers) in a hints file. */
#define HINTS_MAX_NS 32
/** Most addresses per NS name. */
#define HINTS_MAX_ADDRS 4
/** Largest hints file read. */
#define HINTS_MAX_FILE_BYTES (256 * 1024)
/** Longest line (bytes, without the newline). */
#define HINTS_MAX_LINE 1024
/** Bytes of the error message buffer that always suffices. */
#define HINTS_ERR_BYTES 512
/** Longest wire name. */
#define HINTS_NAME_MAX 255
/** Debian's copy of the IANA root hints (package dns-root-data). */
#define HINTS_DEBIAN_FILE "/usr/share/dns/root.hints"
/** What hints_select reports for the compiled-in set. */
#define HINTS_BUILTIN_NAME "built-in"
/** Root servers in the compiled-in set (a..m.root-servers.net). */
#define HINTS_BUILTIN_NS 13
/** TTL of the compiled-in records, as in the IANA file. */
#define HINTS_BUILTIN_TTL 3600000

/** Status codes. */
enum hints_status {
	HINTS_OK = 0,
	HINTS_ESYNTAX,  /**< malformed line (message says which) */
	HINTS_ETOOMANY, /**< more than HINTS_MAX_NS / HINTS_MAX_ADDRS */
	HINTS_EEMPTY,   /**< no NS record */
	HINTS_ENOADDR,  /**< an NS name without an address */
	HINTS_EORPHAN,  /**< an address for a name that is no NS */
	HINTS_EIO,      /**< file unreadable or too large */
	HINTS_EINVAL,   /**< bad argument */
	HINTS_ENOMEM    /**< allocation failed */
};

/** Parsed root hints (opaque, immutable). */
struct hints;

/** Describe a status code (a static string, never NULL). */
const char *hints_strerror(int status);

/**
 * Parse hints text.
 * @param file: the name used in error messages.
 * @param text, len: the text (need not be NUL-terminated).
 * @param out: receives the hints; free with hints_free.
 * @param err, errlen: receive "FILE:LINE: reason" on failure (may be
 *   NULL/0).
 * @return HINTS_OK or an error (nothing allocated, *out untouched).
 */
int hints_parse(const char *file, const char *text, size_t len,
                struct hints **out, char *err, size_t errlen) MUST_CHECK;

/**
 * Read and parse a hints file (at most HINTS_MAX_FILE_BYTES).
 * @return as hints_parse, or HINTS_EIO ("FILE: reason" in err).
 */
int hints_load(const char *path, struct hints **out, char *err, size_t errlen)
	MUST_CHECK;

/**
 * The IANA root servers compiled in: HINTS_BUILTIN_NS names, each with
 * one IPv4 and one IPv6 address.
 * @param out: receives the hints; free with hints_free.
 * @return HINTS_OK, or HINTS_ENOMEM (the table always parses:
 *   check_hints proves it).
 */
int hints_builtin(struct hints **out) MUST_CHECK;

/**
 * The root hints of a configuration.
 * - path set (the root-hints option): that file, or its error ("FILE:
 *   reason" or "FILE:LINE: reason" in err);
 * - path empty: the file fallback (HINTS_DEBIAN_FILE in the daemon) if it
 *   exists and loads, else hints_builtin.
 * @param path: the root-hints option, "" when absent; not NULL.
 * @param fallback: the file tried when path is empty; NULL: none.
 * @param out: receives the hints; free with hints_free.
 * @param used, usedlen: receive the file read or HINTS_BUILTIN_NAME (may
 *   be NULL/0).
 * @param err, errlen: on failure the reason; on success with the
 *   built-in set, why fallback was not used when it exists but does not
 *   load ("" when it is absent or was used).
 * @return HINTS_OK, or an error of hints_load for a named file.
 */
int hints_select(const char *path, const char *fallback, struct hints **out,
                 char *used, size_t usedlen, char *err, size_t errlen)
	MUST_CHECK;

/** Free hints. NULL is allowed. */
void hints_free(struct hints *h);

/** Number of NS names (root servers). */
size_t hints_ns_count(const struct hints *h);

/**
 * The wire name of NS i (lowercase, canonical).
 * @param len: receives its length.
 * @return the name, or NULL if i is out of range.
 */
const uint8_t *hints_ns_name(const struct hints *h, size_t i, size_t *len);

/** Number of addresses of NS i (0 if i is out of range). */
size_t hints_addr_count(const struct hints *h, size_t i);

/**
 * Address j of NS i, port 53.
 * @param sa, salen: receive the address.
 * @return HINTS_OK or HINTS_EINVAL (out of range).
 */
int hints_addr(const struct hints *h, size_t i, size_t j,
               struct sockaddr_storage *sa, socklen_t *salen) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_HINTS_H */
