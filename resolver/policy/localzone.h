/*
 * resolver/policy/localzone.h - zones answered by curvecache itself, never
 * asked upstream (RFC 6761 special-use names, RFC 6303 locally served
 * reverse zones).
 *
 *   localhost.                every name at or below it: A 127.0.0.1,
 *                             AAAA ::1, other types NODATA
 *   invalid. test. onion.     NXDOMAIN below the apex
 *   reverse zones             127/8 (1.0.0.127 PTR localhost), 0/8,
 *                             10/8, 172.16/12, 192.168/16, 169.254/16,
 *                             100.64/10, the documentation networks,
 *                             255.255.255.255; ::, ::1 (PTR localhost),
 *                             fc00::/7, fe80::/10, 2001:db8::/32 -
 *                             NXDOMAIN below the apex
 *
 * Each zone has a local SOA ("ZONE. nobody.invalid. 1 3600 1200 604800
 * 10800") and NS (the zone name itself), answered at the apex; negative
 * answers carry the SOA in the authority section, as RFC 6303 asks.
 *
 * local-zone lines (cfg.h) change the table, with the meanings of
 * Unbound's types of the same names; local-data and local-data-ptr lines
 * add records (any type whose text the cache file reader knows, or
 * "\# LEN HEX"). The closest zone at or above a name decides (found by
 * hashing the name and each ancestor: a million zones cost a lookup no
 * more than ten). "Data" below is the records of the query name (for
 * static, also the built-in zones' own: SOA and NS at the apex, the
 * localhost addresses, the loopback PTRs); NODATA and NXDOMAIN carry the
 * zone's SOA. A name under no zone with data is transparent (Unbound's
 * implicit zone).
 *   static            data, else NXDOMAIN (NODATA at the apex)
 *   transparent       data (another type: NODATA), else resolved
 *   typetransparent   data of the type, else resolved
 *   refuse            data, else REFUSED
 *   deny              data, else the query is dropped
 *   redirect          data, else the apex's data (owner: the query name),
 *                     else NXDOMAIN
 *   inform, inform_deny, inform_redirect: transparent, deny, redirect,
 *                     and the client is logged (LOCALZONE_INFORM)
 *   always_transparent  resolved, even with data
 *   always_refuse, always_nxdomain, always_nodata, always_deny: REFUSED,
 *                     NXDOMAIN, NODATA, dropped, even with data
 *   always_null       A 0.0.0.0, AAAA ::, other types NODATA
 *   noview            transparent (there are no views here)
 *   nodefault         the built-in zone NAME is gone (resolved as usual)
 * Local data of the files (local-data-file, block-file: localdata.h) is
 * looked up before the zones, so it answers inside a zone of any type.
 *
 * Design notes:
 * - A table is built from a configuration (localzone_build) and then only
 *   read: share it between threads freely. A reload builds a new one
 *   (server_localdata_load, per worker) and frees the old.
 * - Changes at run time (control local_zone, local_data ...:
 *   localzone_rt.c) are one more table, shared by every worker and
 *   consulted first; the control thread builds a new one per command and
 *   publishes it with one atomic store; a replaced one is freed
 *   LOCALZONE_RT_GRACE_S later. They survive reloads.
 * - Nodes (one per name that is a zone or has data) live in an open
 *   addressing hash table keyed by the wire name; nothing allocates
 *   after creation.
 * - Answers are written as record images (uncompressed owner, type,
 *   class, TTL, RDLENGTH, RDATA) into a struct answer, exactly like
 *   cache answers, so respond_build writes them.
 */
#ifndef CURVECACHE_RESOLVER_LOCALZONE_H
#define CURVECACHE_RESOLVER_LOCALZONE_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "conf/cfg.h"
#include "wire/answer.h"

/** TTL of every local record, and the SOA MINIMUM (negative TTL). */
#define LOCALZONE_TTL 10800
/** Names (zones and owners of data) in a table, all told. */
#define LOCALZONE_NODES_MAX 8000000u
/** Longest line of a runtime change (one record's text). */
#define LOCALZONE_RT_LINE_MAX 4096
/** Seconds a replaced runtime table lives on (workers may read it). */
#define LOCALZONE_RT_GRACE_S 10
/** Labels of a name looked at (a wire name has at most 127 + root). */
#define LOCALZONE_LABELS_MAX 128
/** Bytes a local answer may need (the largest is ANY at an apex). */
#define LOCALZONE_ANSWER_MAX 1024

/** Status codes. */
enum localzone_status {
	LOCALZONE_OK = 0,    /**< the name is local: *a holds the answer */
	LOCALZONE_ENOTLOCAL, /**< not a local name: resolve it */
	LOCALZONE_ESPACE,    /**< caller's buffer too small */
	LOCALZONE_EINVAL,    /**< bad argument or malformed name */
	LOCALZONE_ENOMEM,    /**< allocation failed (localzone_new) */
	LOCALZONE_DROP,      /**< deny: send nothing */
	LOCALZONE_ETOOMANY   /**< too many names, or changes too fast */
};

/** Flags of localzone_answer2. */
#define LOCALZONE_INFORM 1u /**< an inform zone: log the client */

/** Opaque table of local zones; read-only after localzone_new. */
struct localzone;

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *localzone_strerror(int status);

/**
 * Build the table of local zones: the built-in ones, changed by
 * local-zone lines.
 * @param set, n: local-zone lines (not the root; a later line for a name
 *   wins); NULL/0 for the built-in zones alone.
 * @param out: receives the table; free with localzone_free.
 * @return LOCALZONE_OK, LOCALZONE_ENOMEM, or LOCALZONE_EINVAL (bad
 *   argument or line; nothing allocated).
 */
int localzone_new(const struct cfg_local_zone *set, size_t n,
                  struct localzone **out) MUST_CHECK;

/**
 * Build the table of a config: the built-in zones, its local-zone lines,
 * its local-data and local-data-ptr records.
 * @param cl: the config's lines (cfg->local); NULL: none.
 * @param out: receives the table; free with localzone_free.
 * @param err, errlen: receive the problem ("local-data \"...\": bad
 *   RDATA").
 * @return LOCALZONE_OK, LOCALZONE_ENOMEM, LOCALZONE_EINVAL (a record's
 *   RDATA) or LOCALZONE_ETOOMANY.
 */
int localzone_build(const struct cfg_local *cl, struct localzone **out,
                    char *err, size_t errlen) MUST_CHECK;

/** Number of zones in the table (any type; runtime zones not counted). */
size_t localzone_count(const struct localzone *lz);

/** Free the table. NULL is allowed. */
void localzone_free(struct localzone *lz);

/**
 * Is this name answered by a local zone (inside one that is not
 * transparent, so it is never asked upstream)?
 * @param lz: the table.
 * @param lname, len: a wire name, lowercase.
 * @return true when local.
 */
bool localzone_match(const struct localzone *lz, const uint8_t *lname,
                     size_t len);

/**
 * Answer a question from the local zones.
 * @param lz: the table.
 * @param lname, len: the question name, lowercase wire format.
 * @param qtype: the question type.
 * @param qclass: the class; only IN (and ANY) names are local.
 * @param a: receives the answer, pointing into buf.
 * @param buf, cap: space for the record images (LOCALZONE_ANSWER_MAX is
 *   always enough).
 * @return LOCALZONE_OK (a->rcode may be REFUSED), LOCALZONE_ENOTLOCAL
 *   (also inside a transparent zone), LOCALZONE_DROP (deny: no answer),
 *   LOCALZONE_ESPACE or LOCALZONE_EINVAL.
 */
int localzone_answer(const struct localzone *lz, const uint8_t *lname,
                     size_t len, uint16_t qtype, uint16_t qclass,
                     struct answer *a, uint8_t *buf, size_t cap) MUST_CHECK;

/**
 * localzone_answer, and what else the caller should do.
 * @param flags: receives LOCALZONE_INFORM when the name is in an inform
 *   zone (log the client, whatever the result); may be NULL.
 */
int localzone_answer2(const struct localzone *lz, const uint8_t *lname,
                      size_t len, uint16_t qtype, uint16_t qclass,
                      struct answer *a, uint8_t *buf, size_t cap,
                      unsigned *flags) MUST_CHECK;

/* ---- changes at run time (localzone_rt.c; control thread only) ---- */

/** The runtime table (NULL: none); localzone_answer consults it. */
const struct localzone *localzone_rt_table(void);

/** Told each bad line of localzone_rt_apply: its index and problem. */
typedef void localzone_rt_bad_fn(void *arg, size_t index, const char *why);

/**
 * Apply lines of a control command and publish the result once.
 * @param op: LOCALZONE_RT_ZONE ("NAME TYPE"), LOCALZONE_RT_ZONE_REMOVE
 *   ("NAME"), LOCALZONE_RT_DATA ("RR") or LOCALZONE_RT_DATA_REMOVE
 *   ("NAME"); a line may be in one pair of double quotes.
 * @param lines, n: the arguments, one a line (blank ones are skipped).
 * @param done: receives how many lines were applied.
 * @param bad, arg: called for each bad line (skipped); bad may be NULL.
 * @param err, errlen: receive the first problem.
 * @return LOCALZONE_OK (also with bad lines: see bad), LOCALZONE_EINVAL
 *   (no line was applied and some were bad), LOCALZONE_ETOOMANY,
 *   LOCALZONE_ENOMEM.
 */
int localzone_rt_apply(int op, const char *const *lines, size_t n,
                       size_t *done, localzone_rt_bad_fn *bad, void *arg,
                       char *err, size_t errlen) MUST_CHECK;

/** The operations of localzone_rt_apply. */
enum localzone_rt_op {
	LOCALZONE_RT_ZONE = 0,
	LOCALZONE_RT_ZONE_REMOVE,
	LOCALZONE_RT_DATA,
	LOCALZONE_RT_DATA_REMOVE
};

/**
 * The runtime zones as "NAME TYPE" lines ("NAME removed" for a removed
 * one).
 * @return the length the whole text needs (as snprintf).
 */
size_t localzone_rt_list(char *out, size_t cap);

/** The runtime records as "NAME<TAB>TTL<TAB>IN<TAB>TYPE<TAB>RDATA" lines
 *  (as the control command gave them); as localzone_rt_list. */
size_t localzone_rt_list_data(char *out, size_t cap);

/** Drop every runtime change and free the tables: only when no worker
 *  can be reading (tests). */
void localzone_rt_clear(void);

#endif /* CURVECACHE_RESOLVER_LOCALZONE_H */
