/*
 * resolver/validate/denial.c - canonical name order, type bitmaps and
 * the NSEC proofs of non-existence (RFC 4035 section 5.4, RFC 6840
 * section 4); the entry points of denial.h, which check their arguments
 * and try NSEC first, then NSEC3 (denial_nsec3.c).
 *
 * An NSEC record is used only if its owner and its next name are inside
 * the zone, its next name is an uncompressed wire name that ends inside
 * the RDATA and its bitmap is well formed; any other is ignored, as if
 * absent. "Covers" means owner < name < next in canonical order (the
 * last record's next name wraps to the apex), next not below name (else
 * name is an empty non-terminal), and owner not a zone cut above name
 * (an NSEC at a delegation or a DNAME proves nothing below it).
 */
#include "denial_int.h"

#include <string.h>

/* An NSEC record of the zone, parsed. */
struct nsec_rr {
	const uint8_t *owner;
	size_t ownerlen;
	const uint8_t *next;
	size_t nextlen;
	const uint8_t *bm;
	size_t bmlen;
};

static uint8_t lower(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + ('a' - 'A')) : c;
}

unsigned denial_offsets(const uint8_t *name, size_t len,
                        uint8_t off[DENIAL_LABELS_MAX])
{
	size_t pos = 0;
	unsigned n = 0;

	while (pos < len && name[pos] != 0 && n < DENIAL_LABELS_MAX) {
		off[n++] = (uint8_t)pos;
		pos += 1 + (size_t)name[pos];
	}
	return n;
}

/* Labels a and b (length byte first), lowercase bytes, shorter first. */
static int label_cmp(const uint8_t *a, const uint8_t *b)
{
	size_t i, n = a[0] < b[0] ? a[0] : b[0];

	for (i = 1; i <= n; i++)
		if (lower(a[i]) != lower(b[i]))
			return lower(a[i]) < lower(b[i]) ? -1 : 1;
	return (a[0] > b[0]) - (a[0] < b[0]);
}

static int bytes_cmp(const uint8_t *a, size_t alen, const uint8_t *b,
                     size_t blen)
{
	size_t n = alen < blen ? alen : blen;
	int c = (n > 0 && a != NULL && b != NULL) ? memcmp(a, b, n) : 0;

	if (c != 0)
		return c < 0 ? -1 : 1;
	return (alen > blen) - (alen < blen);
}

int dnssec_name_cmp(const uint8_t *a, size_t alen, const uint8_t *b,
                    size_t blen)
{
	uint8_t ao[DENIAL_LABELS_MAX], bo[DENIAL_LABELS_MAX];
	unsigned na, nb;
	int c;

	if (a == NULL || b == NULL || wire_name_check(a, alen) != WIRE_OK ||
	    wire_name_check(b, blen) != WIRE_OK)
		return bytes_cmp(a, alen, b, blen);
	na = denial_offsets(a, alen, ao);
	nb = denial_offsets(b, blen, bo);
	while (na > 0 && nb > 0) {
		c = label_cmp(a + ao[--na], b + bo[--nb]);
		if (c != 0)
			return c;
	}
	return (na > nb) - (na < nb);
}

int dnssec_bitmap_has(const uint8_t *bitmap, size_t len, uint16_t type)
{
	size_t pos = 0, blen, byte = (type & 0xffu) >> 3;
	int last = -1, found = 0;

	if (bitmap == NULL && len > 0)
		return -1;
	while (pos < len) {
		if (len - pos < 2)
			return -1;
		blen = bitmap[pos + 1];
		if ((int)bitmap[pos] <= last || blen < 1 || blen > 32 ||
		    blen > len - pos - 2)
			return -1;
		last = bitmap[pos];
		if ((unsigned)last == (unsigned)type >> 8 && byte < blen)
			found = (bitmap[pos + 2 + byte] >> (7 - (type & 7u))) &
			        1;
		pos += 2 + blen;
	}
	return found;
}

int denial_under(const uint8_t *name, size_t len, const uint8_t *anc,
                 size_t anclen)
{
	size_t pos = 0;

	while (pos < len && len - pos > anclen && name[pos] != 0)
		pos += 1 + (size_t)name[pos];
	return pos <= len && len - pos == anclen &&
	       wire_name_equal(name + pos, anclen, anc, anclen);
}

int denial_suffix(const uint8_t *name, size_t len, unsigned keep, size_t *off)
{
	uint8_t o[DENIAL_LABELS_MAX];
	unsigned n = denial_offsets(name, len, o);

	if (keep > n)
		return -1;
	*off = keep == n ? 0 : (keep == 0 ? len - 1 : o[n - keep]);
	return 0;
}

int denial_wildcard(const uint8_t *ce, size_t celen,
                    uint8_t out[WIRE_NAME_MAX], size_t *outlen)
{
	if (celen > WIRE_NAME_MAX - 2)
		return -1;
	out[0] = 1;
	out[1] = '*';
	memcpy(out + 2, ce, celen);
	*outlen = celen + 2;
	return 0;
}

static int has(const uint8_t *bm, size_t bmlen, uint16_t type)
{
	return dnssec_bitmap_has(bm, bmlen, type) == 1;
}

int denial_nodata(const uint8_t *bm, size_t bmlen, uint16_t qtype)
{
	if (has(bm, bmlen, qtype) || has(bm, bmlen, WIRE_TYPE_CNAME))
		return 0;
	if (qtype == WIRE_TYPE_DS)
		return !has(bm, bmlen, WIRE_TYPE_SOA);
	return !(has(bm, bmlen, WIRE_TYPE_NS) &&
	         !has(bm, bmlen, WIRE_TYPE_SOA));
}

int denial_cut(const uint8_t *bm, size_t bmlen)
{
	return (has(bm, bmlen, WIRE_TYPE_NS) &&
	        !has(bm, bmlen, WIRE_TYPE_SOA)) ||
	       has(bm, bmlen, WIRE_TYPE_DNAME);
}

/* The length of the uncompressed wire name that starts buf, or 0 (a
 * compression pointer jumps past the end or fails wire_name_check). */
static size_t name_len(const uint8_t *buf, size_t len)
{
	size_t pos = 0;

	while (pos < len && pos < WIRE_NAME_MAX) {
		if (buf[pos] == 0)
			return wire_name_check(buf, pos + 1) == WIRE_OK ?
			               pos + 1 :
			               0;
		pos += 1 + (size_t)buf[pos];
	}
	return 0;
}

/* Record i as an NSEC of the zone; 0 if it is not one or is malformed. */
static int nsec_get(const struct dnssec_denial *d, size_t i, struct nsec_rr *v)
{
	const struct dnssec_nsec *r = &d->rr[i];

	if (r->type != DNSSEC_TYPE_NSEC || r->owner == NULL ||
	    r->rdata == NULL ||
	    wire_name_check(r->owner, r->ownerlen) != WIRE_OK ||
	    !denial_under(r->owner, r->ownerlen, d->zone, d->zonelen))
		return 0;
	v->owner = r->owner;
	v->ownerlen = r->ownerlen;
	v->next = r->rdata;
	v->nextlen = name_len(r->rdata, r->rdlen);
	if (v->nextlen == 0 ||
	    !denial_under(v->next, v->nextlen, d->zone, d->zonelen))
		return 0;
	v->bm = r->rdata + v->nextlen;
	v->bmlen = r->rdlen - v->nextlen;
	return dnssec_bitmap_has(v->bm, v->bmlen, 0) >= 0;
}

/* owner < name < next, the last record's next wrapping to the apex. */
static int nsec_between(const struct nsec_rr *v, const uint8_t *name,
                        size_t len)
{
	int lo = dnssec_name_cmp(v->owner, v->ownerlen, name, len) < 0;
	int hi = dnssec_name_cmp(name, len, v->next, v->nextlen) < 0;

	if (dnssec_name_cmp(v->owner, v->ownerlen, v->next, v->nextlen) < 0)
		return lo && hi;
	return lo || hi;
}

/* Between, and owner is no zone cut above name (RFC 6840 s. 4.1). */
static int nsec_spans(const struct nsec_rr *v, const uint8_t *name, size_t len)
{
	return nsec_between(v, name, len) &&
	       !(denial_cut(v->bm, v->bmlen) &&
	         denial_under(name, len, v->owner, v->ownerlen));
}

/* v proves name does not exist: it spans name and next is not below
 * name (an empty non-terminal). */
static int nsec_covers(const struct nsec_rr *v, const uint8_t *name,
                       size_t len)
{
	return nsec_spans(v, name, len) &&
	       !denial_under(v->next, v->nextlen, name, len);
}

/* Labels two valid names share from the root. */
static unsigned common_labels(const uint8_t *a, size_t alen, const uint8_t *b,
                              size_t blen)
{
	uint8_t ao[DENIAL_LABELS_MAX], bo[DENIAL_LABELS_MAX];
	unsigned na = denial_offsets(a, alen, ao);
	unsigned nb = denial_offsets(b, blen, bo), k = 0;

	while (na > 0 && nb > 0 && label_cmp(a + ao[--na], b + bo[--nb]) == 0)
		k++;
	return k;
}

/* The closest encloser of name that v covers (RFC 4035 section 5.4): the
 * longer of name's common ancestors with owner and with next. */
static size_t nsec_encloser(const struct nsec_rr *v, const uint8_t *name,
                            size_t len)
{
	unsigned a = common_labels(name, len, v->owner, v->ownerlen);
	unsigned b = common_labels(name, len, v->next, v->nextlen);
	size_t off = 0;

	if (denial_suffix(name, len, a > b ? a : b, &off) != 0)
		return 0;
	return off;
}

/* Some NSEC of the set covers name. */
static int nsec_covered(const struct dnssec_denial *d, const uint8_t *name,
                        size_t len)
{
	struct nsec_rr v;
	size_t i;

	for (i = 0; i < d->count; i++)
		if (nsec_get(d, i, &v) && nsec_covers(&v, name, len))
			return 1;
	return 0;
}

/* NSEC v proves its owner has no qtype. A DS question is answered by
 * the parent, so an apex NSEC (SOA set) cannot deny it, except at the
 * root, which has no parent: its own apex NSEC is the proof (RFC 4035
 * section 3.1.4.1). */
static int nsec_nodata_ok(const struct nsec_rr *v, uint16_t qtype)
{
	if (qtype == WIRE_TYPE_DS && v->ownerlen == 1)
		return !has(v->bm, v->bmlen, WIRE_TYPE_DS) &&
		       !has(v->bm, v->bmlen, WIRE_TYPE_CNAME);
	return denial_nodata(v->bm, v->bmlen, qtype);
}

/* Some NSEC owned by name proves it has no qtype. */
static int nsec_nodata(const struct dnssec_denial *d, const uint8_t *name,
                       size_t len, uint16_t qtype)
{
	struct nsec_rr v;
	size_t i;

	for (i = 0; i < d->count; i++)
		if (nsec_get(d, i, &v) &&
		    wire_name_equal(v.owner, v.ownerlen, name, len) &&
		    nsec_nodata_ok(&v, qtype))
			return 1;
	return 0;
}

/* Record v covers qname; the wildcard at the closest encloser it shows
 * is covered too (qtype 0) or matched without qtype. */
static int nsec_wildcard(const struct dnssec_denial *d,
                         const struct nsec_rr *v, const uint8_t *qname,
                         size_t qlen, uint16_t qtype)
{
	uint8_t wc[WIRE_NAME_MAX];
	size_t off = nsec_encloser(v, qname, qlen), wlen = 0;

	if (!denial_under(qname + off, qlen - off, d->zone, d->zonelen) ||
	    denial_wildcard(qname + off, qlen - off, wc, &wlen) != 0)
		return 0;
	if (qtype == 0)
		return nsec_covered(d, wc, wlen);
	return nsec_nodata(d, wc, wlen, qtype);
}

/* NXDOMAIN (qtype 0) or wildcard NODATA with NSEC. */
static int nsec_absent(const struct dnssec_denial *d, const uint8_t *qname,
                       size_t qlen, uint16_t qtype)
{
	struct nsec_rr v;
	size_t i;

	for (i = 0; i < d->count; i++)
		if (nsec_get(d, i, &v) && nsec_covers(&v, qname, qlen) &&
		    nsec_wildcard(d, &v, qname, qlen, qtype))
			return DNSSEC_OK;
	return DNSSEC_ENOPROOF;
}

/* NODATA with NSEC: a match, an empty non-terminal, a wildcard. */
static int nsec_type(const struct dnssec_denial *d, const uint8_t *qname,
                     size_t qlen, uint16_t qtype)
{
	struct nsec_rr v;
	size_t i;

	if (nsec_nodata(d, qname, qlen, qtype))
		return DNSSEC_OK;
	for (i = 0; i < d->count; i++)
		if (nsec_get(d, i, &v) && nsec_spans(&v, qname, qlen) &&
		    denial_under(v.next, v.nextlen, qname, qlen))
			return DNSSEC_OK;
	return nsec_absent(d, qname, qlen, qtype);
}

/* Arguments, qname well formed and inside the zone; which kinds of
 * record the set holds (bit 0 NSEC, bit 1 NSEC3). */
static int check(const struct dnssec_denial *d, const uint8_t *qname,
                 size_t qlen, unsigned *kinds)
{
	size_t i;

	if (d == NULL || qname == NULL || d->hashes == NULL ||
	    (d->rr == NULL && d->count > 0) || d->zone == NULL ||
	    wire_name_check(d->zone, d->zonelen) != WIRE_OK)
		return DNSSEC_EINVAL;
	if (wire_name_check(qname, qlen) != WIRE_OK)
		return DNSSEC_EFORMAT;
	if (!denial_under(qname, qlen, d->zone, d->zonelen))
		return DNSSEC_ENOPROOF;
	*kinds = 0;
	for (i = 0; i < d->count; i++)
		*kinds |= d->rr[i].type == DNSSEC_TYPE_NSEC  ? 1u :
		          d->rr[i].type == DNSSEC_TYPE_NSEC3 ? 2u :
		                                               0u;
	return DNSSEC_OK;
}

int dnssec_deny_name(const struct dnssec_denial *d, const uint8_t *qname,
                     size_t qlen)
{
	unsigned kinds = 0;
	int rc = check(d, qname, qlen, &kinds);

	if (rc != DNSSEC_OK)
		return rc;
	if (kinds & 1u) {
		rc = nsec_absent(d, qname, qlen, 0);
		if (rc == DNSSEC_OK || !(kinds & 2u))
			return rc;
	}
	return denial_nsec3_name(d, qname, qlen);
}

int dnssec_deny_type(const struct dnssec_denial *d, const uint8_t *qname,
                     size_t qlen, uint16_t qtype)
{
	unsigned kinds = 0;
	int rc = check(d, qname, qlen, &kinds);

	if (rc != DNSSEC_OK)
		return rc;
	if (qtype == 0)
		return DNSSEC_EINVAL;
	if (kinds & 1u) {
		rc = nsec_type(d, qname, qlen, qtype);
		if (rc == DNSSEC_OK || !(kinds & 2u))
			return rc;
	}
	return denial_nsec3_type(d, qname, qlen, qtype);
}

int dnssec_deny_expanded(const struct dnssec_denial *d, const uint8_t *qname,
                         size_t qlen, unsigned labels)
{
	unsigned kinds = 0;
	size_t nc = 0;
	int rc = check(d, qname, qlen, &kinds);

	if (rc != DNSSEC_OK)
		return rc;
	if (labels >= DENIAL_LABELS_MAX ||
	    denial_suffix(qname, qlen, labels + 1, &nc) != 0)
		return DNSSEC_EINVAL;
	if (!denial_under(qname + nc, qlen - nc, d->zone, d->zonelen) ||
	    wire_name_equal(qname + nc, qlen - nc, d->zone, d->zonelen))
		return DNSSEC_ENOPROOF;
	/* The wildcard's own RRset (qname is "*." + the encloser). */
	if (nc == 0 && qname[0] == 1 && qname[1] == '*')
		return DNSSEC_OK;
	if ((kinds & 1u) && nsec_covered(d, qname + nc, qlen - nc))
		return DNSSEC_OK;
	if (!(kinds & 2u))
		return DNSSEC_ENOPROOF;
	return denial_nsec3_expanded(d, qname, qlen, nc);
}
