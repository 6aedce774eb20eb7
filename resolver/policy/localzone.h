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
 * local-zone lines (cfg.h, struct cfg_local_zone) change the table, with
 * the meanings of Unbound's types of the same names; local data
 * (local-data-file, block-file: localdata.h) is looked up before the
 * local zones, so it answers inside a zone of any type:
 *   static       names without local data: NXDOMAIN, or NODATA at the
 *                apex, with the zone's SOA (what the built-in zones do;
 *                localhost. keeps its addresses, the loopback reverse
 *                names their PTR)
 *   transparent  names without local data are resolved as usual
 *   refuse       names without local data are answered REFUSED
 *   nodefault    the built-in zone NAME is gone (resolved as usual); no
 *                effect on other names
 * A line for a name that is no built-in zone adds a zone of that type
 * (with its own SOA and NS). A name is handled by the closest zone at or
 * above it: "local-zone: lab.test. transparent" opens lab.test. while
 * the rest of test. stays static.
 *
 * Design notes:
 * - A table is built from a configuration (localzone_new) and then only
 *   read: share it between threads freely. A reload builds a new one
 *   (server_localdata_load, per worker) and frees the old.
 * - Lookups run on every client query, so names whose last label is not
 *   the last label of some local zone are turned away after one compare;
 *   nothing allocates after creation.
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
/** Zones in the table, all told. */
#define LOCALZONE_ZONES_MAX 128
/** Distinct last labels of the zones ("arpa", "localhost", ...). */
#define LOCALZONE_TLDS_MAX 24
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
	LOCALZONE_ENOMEM     /**< allocation failed (localzone_new) */
};

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
 * @param set, n: the local-zone lines (cfg->local_zone, n_local_zone; at
 *   most CFG_MAX_LOCAL_ZONES, names unique and not the root, as cfg_parse
 *   leaves them); NULL/0 for the built-in zones alone.
 * @param out: receives the table; free with localzone_free.
 * @return LOCALZONE_OK, LOCALZONE_ENOMEM, or LOCALZONE_EINVAL (bad
 *   argument or line; nothing allocated).
 */
int localzone_new(const struct cfg_local_zone *set, size_t n,
                  struct localzone **out) MUST_CHECK;

/** Number of zones in the table (any type). */
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
 *   (also inside a transparent zone), LOCALZONE_ESPACE or
 *   LOCALZONE_EINVAL.
 */
int localzone_answer(const struct localzone *lz, const uint8_t *lname,
                     size_t len, uint16_t qtype, uint16_t qclass,
                     struct answer *a, uint8_t *buf, size_t cap) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_LOCALZONE_H */
