/*
 * resolver/anchor/anchor_int.h - what anchor.c (the set: storage,
 * lookups, the built-in root anchors) and anchor_file.c (the zone-file
 * text of trust-anchor-file: and trust-anchor:) share; nothing else
 * includes it.
 */
#ifndef CURVECACHE_RESOLVER_ANCHOR_INT_H
#define CURVECACHE_RESOLVER_ANCHOR_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "anchor.h"

/**
 * Add one DS or DNSKEY RDATA to the anchor of a zone, creating the zone's
 * anchor if it has none; an RDATA already there is not added twice.
 * @param a: the set.
 * @param owner, ownerlen: the zone, a lowercase wire name (checked by
 *   the caller).
 * @param type: 43 (DS) or DNSSEC_TYPE_DNSKEY.
 * @param rdata, rdlen: the RDATA (at most ANCHOR_RDATA_MAX bytes).
 * @return ANCHOR_OK, ANCHOR_EFULL (ANCHOR_ZONES_MAX zones, or
 *   ANCHOR_RR_MAX records of that type for the zone), ANCHOR_ENOMEM or
 *   ANCHOR_EINVAL (another type, an RDATA too long); the set is
 *   unchanged on failure.
 */
int anchors_add_rr(struct anchors *a, const uint8_t *owner, size_t ownerlen,
                   uint16_t type, const uint8_t *rdata, size_t rdlen)
	MUST_CHECK;

/** The state of one text being read (anchor_file.c). */
struct anchor_text {
	const char *text;
	size_t len, pos;
	size_t line;    /**< line of pos, from 1 */
	size_t tokline; /**< line of the token at fault */
	bool paren;     /**< inside parentheses */
	size_t parenline;
	const char *file; /**< NULL: the text of a trust-anchor: option */
	uint8_t origin[WIRE_NAME_MAX];
	size_t originlen; /**< 0: no $ORIGIN yet */
	uint8_t owner[WIRE_NAME_MAX];
	size_t ownerlen; /**< 0: no owner yet */
	size_t records;  /**< records begun (directives counted) */
	size_t added;    /**< DS and DNSKEY records kept */
	int rc;          /**< the status of the error */
	char *err;       /**< the caller's message buffer, or NULL */
	size_t errlen;
};

/**
 * Read every record of a text into a set (anchor_file.c); a
 * trust-anchor option (file NULL) holds one record.
 * @param z: text, len, line 1, file, err set; everything else zero.
 * @param a: the set; records before an error stay in it.
 * @return 0, or -1 with z->rc and the message in z->err.
 */
int anchor_text_read(struct anchor_text *z, struct anchors *a) MUST_CHECK;

/**
 * Fail the text being read (anchor.c): z->rc = rc, and z->err gets
 * "FILE:LINE: what" (the line of z->tokline) or, for an option,
 * "trust-anchor \"TEXT\": what".
 * @return -1.
 */
int anchor_text_fail(struct anchor_text *z, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* CURVECACHE_RESOLVER_ANCHOR_INT_H */
