/*
 * resolver/validate/denial_int.h - what denial.c (names, bitmaps, NSEC)
 * and denial_nsec3.c (NSEC3) share: label arithmetic on wire names
 * already checked, the bitmap rules of a NODATA, and the NSEC3 proofs
 * the entry points of denial.h dispatch to.
 *
 * Every name handed to these helpers has passed wire_name_check; the
 * entry points of denial.h make sure of it (and that qname is inside
 * the zone) before calling the NSEC3 proofs.
 */
#ifndef CURVECACHE_RESOLVER_DENIAL_INT_H
#define CURVECACHE_RESOLVER_DENIAL_INT_H

#include "denial.h"
#include "dnssec.h"

/** Labels of a wire name at most (root excluded): 2 bytes each. */
#define DENIAL_LABELS_MAX (WIRE_NAME_MAX / 2)

/**
 * The offsets of the labels of a valid wire name, first label first
 * (root excluded).
 * @return the number of labels (0 for the root).
 */
unsigned denial_offsets(const uint8_t *name, size_t len,
                        uint8_t off[DENIAL_LABELS_MAX]);

/** @return 1 if name is anc or below it (either case), else 0. */
int denial_under(const uint8_t *name, size_t len, const uint8_t *anc,
                 size_t anclen);

/**
 * The offset in name of its ancestor that has keep labels.
 * @return 0, or -1 if name has fewer than keep labels.
 */
int denial_suffix(const uint8_t *name, size_t len, unsigned keep, size_t *off);

/**
 * The wildcard "*." + ce.
 * @param out: WIRE_NAME_MAX bytes.
 * @return 0, or -1 if it would exceed WIRE_NAME_MAX.
 */
int denial_wildcard(const uint8_t *ce, size_t celen,
                    uint8_t out[WIRE_NAME_MAX], size_t *outlen);

/**
 * Whether a (well-formed) bitmap of a record at qname proves that qname
 * has no qtype RRset: qtype and CNAME clear; for DS also SOA clear (the
 * child's apex record says nothing of the parent's DS); for any other
 * type not a delegation (NS set, SOA clear), where the child answers.
 * @return 1 proven, 0 not.
 */
int denial_nodata(const uint8_t *bm, size_t bmlen, uint16_t qtype);

/**
 * Whether a record's bitmap marks a zone cut below which it proves
 * nothing (RFC 6840 section 4.1, RFC 5155 section 8.3): NS without SOA,
 * or DNAME.
 * @return 1 a cut, 0 not.
 */
int denial_cut(const uint8_t *bm, size_t bmlen);

/* The NSEC3 proofs (denial_nsec3.c): arguments checked, qname valid and
 * at or below d->zone; results as the entry points of denial.h. */
int denial_nsec3_name(const struct dnssec_denial *d, const uint8_t *qname,
                      size_t qlen);
int denial_nsec3_type(const struct dnssec_denial *d, const uint8_t *qname,
                      size_t qlen, uint16_t qtype);
/** @param nc_off: the offset in qname of the next closer name. */
int denial_nsec3_expanded(const struct dnssec_denial *d, const uint8_t *qname,
                          size_t qlen, size_t nc_off);

#endif /* CURVECACHE_RESOLVER_DENIAL_INT_H */
