/*
 * resolver/daemon/trust.h - which DNSSEC trust anchors the daemon uses
 * (issue 15), chosen in one place for start-up, reload and -t:
 *
 * - dnssec: no: an empty set (nothing validates);
 * - else, with any trust-anchor-file, auto-trust-anchor-file or
 *   trust-anchor line: exactly those (of an auto-trust-anchor-file, kept
 *   by RFC 5011 rollover (autotrust_run.h), only its VALID and MISSING
 *   keys, or while it has none the DS records it started from);
 * - else Debian's /usr/share/dns/root.key (package dns-root-data) when
 *   it is there and loads; when it is there and does not load, the
 *   reason is kept for a warning and
 * - the IANA root KSKs compiled in (resolver/anchor/anchor.h) are used;
 * - then each domain-insecure line is a negative trust anchor.
 *
 * A named file that cannot be read or a record that does not parse is an
 * error naming FILE:LINE (or the trust-anchor line's own FILE:LINE): the
 * daemon refuses to start, a reload keeps the running set.
 *
 * Log events: trust_anchors (source=builtin|file:PATH|options|none
 * zones=N insecure=N), and a warning trust_anchors_fallback when
 * Debian's file is there and does not load.
 */
#ifndef CURVECACHE_RESOLVER_TRUST_H
#define CURVECACHE_RESOLVER_TRUST_H

#include "base/base.h"

#include <stddef.h>

#include "conf/cfg.h"
#include "anchor/anchor.h"

struct autotrust_zone;

/** Bytes of the source told in the log ("file:" and a path). */
#define TRUST_SOURCE_BYTES (CFG_MAX_PATH + 8)

/** What trust_anchors_choose chose, for the log. */
struct trust_used {
	char source[TRUST_SOURCE_BYTES]; /**< "none" (dnssec: no), "options",
	                                      "file:PATH" or "builtin" */
	char note[ANCHOR_ERR_MAX];       /**< why Debian's file was passed over
	                                      although there; "" otherwise */
	size_t zones;                    /**< anchored zones */
	size_t insecure;                 /**< domain-insecure names */
};

/**
 * Build the anchors of a config, as the file header says.
 * @param cfg: a config cfg_load accepted.
 * @param debian: Debian's root.key (ANCHOR_DEBIAN_ROOT_KEY; tests name
 *   another file).
 * @param out: receives the set (anchors_free), untouched on failure.
 * @param used: receives the choice; may be NULL.
 * @param err, errlen: on failure "FILE:LINE: what", "FILE: what" or
 *   "FILE:LINE: trust-anchor \"TEXT\": what".
 * @return 0, or -1.
 */
int trust_anchors_choose(const struct cfg *cfg, const char *debian,
                         struct anchors **out, struct trust_used *used,
                         char *err, size_t errlen) MUST_CHECK;

/**
 * trust_anchors_choose with Debian's file at its place and no report.
 * @return 0, or -1 with the reason in err.
 */
int trust_anchors_load(const struct cfg *cfg, struct anchors **out, char *err,
                       size_t errlen) MUST_CHECK;

/**
 * Log the choice: one info line trust_anchors, and a warning
 * trust_anchors_fallback when Debian's file was there and did not load.
 * @param used: from trust_anchors_choose.
 */
void trust_anchors_log(const struct trust_used *used);

/**
 * Read an auto-trust-anchor-file (anchor/autotrust.h).
 * @param z: filled.
 * @param err, errlen: on failure "FILE:LINE: what" or "FILE: reason".
 * @return 0, or -1.
 */
int trust_auto_read(const char *path, struct autotrust_zone *z, char *err,
                    size_t errlen) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_TRUST_H */
