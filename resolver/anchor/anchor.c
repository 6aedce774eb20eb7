/*
 * resolver/anchor/anchor.c - the set of trust anchors (see anchor.h):
 * its storage, the built-in IANA root anchors, negative trust anchors,
 * the two lookups, and the entry points for zone-file text
 * (anchors_add_file reads the file whole, at most ANCHOR_FILE_MAX bytes;
 * anchors_add_text) with their messages. The text itself is read by
 * anchor_file.c, which stores each record here (anchors_add_rr).
 *
 * Storage: one array of ANCHOR_ZONES_MAX pointers; a zone's struct
 * anchor (about 33 KB: room for ANCHOR_RR_MAX records of each type) is
 * allocated when its first record arrives, so a set of one root anchor
 * costs one zone, not 256. Lookups compare the name's suffixes with each
 * zone: at most ANCHOR_ZONES_MAX comparisons, no allocation.
 */
#include "anchor.h"
#include "anchor_int.h"
#include "validate/dnssec.h"
#include "base/fileio.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** A negative trust anchor (domain-insecure:). */
struct anchor_nta {
	uint8_t name[WIRE_NAME_MAX]; /**< lowercase wire name */
	size_t len;
};

struct anchors {
	struct anchor *zone[ANCHOR_ZONES_MAX]; /**< the first nzones used */
	size_t nzones;
	struct anchor_nta nta[ANCHOR_ZONES_MAX];
	size_t nnta;
};

/** Bytes of an anchor file (Debian's root.key has under 1 KB). */
#define ANCHOR_FILE_MAX (1024 * 1024)
/** Characters of the option text repeated in a message. */
#define ANCHOR_QUOTE_MAX 80

/* The IANA root KSKs as DS records (root-anchors.xml, and the same text
 * as Debian's /usr/share/dns/root.ds): KSK-2017 and KSK-2024, algorithm
 * 8 (RSA/SHA-256), digest type 2 (SHA-256). tests/unit/check_anchor.c
 * ties each digest to its DNSKEY with dnssec_ds_match. */
static const char *const builtin_ds[] = {
	". IN DS 20326 8 2 "
	"E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D",
	". IN DS 38696 8 2 "
	"683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16",
};

int anchors_new(struct anchors **out)
{
	struct anchors *a;

	if (out == NULL)
		return ANCHOR_EINVAL;
	a = calloc(1, sizeof *a);
	if (a == NULL)
		return ANCHOR_ENOMEM;
	*out = a;
	return ANCHOR_OK;
}

void anchors_free(struct anchors *a)
{
	size_t i;

	if (a == NULL)
		return;
	for (i = 0; i < a->nzones; i++)
		free(a->zone[i]);
	free(a);
}

/* Mark where each label of a valid wire name starts (the root label
 * too), so that each zone is then one look and one compare: is the
 * suffix of the zone's length a whole run of labels, and equal? */
static void label_starts(const uint8_t *name, size_t len,
                         bool start[WIRE_NAME_MAX])
{
	size_t off = 0;

	memset(start, 0, WIRE_NAME_MAX);
	while (off < len) {
		start[off] = true;
		off += (size_t)name[off] + 1;
	}
}

/* Is zone name itself or one of its ancestors (letter case ignored)? */
static bool name_under(const uint8_t *name, size_t len,
                       const bool start[WIRE_NAME_MAX], const uint8_t *zone,
                       size_t zlen)
{
	return zlen <= len && start[len - zlen] &&
	       wire_name_equal(name + (len - zlen), zlen, zone, zlen);
}

/* The zone's anchor, or NULL. */
static struct anchor *zone_get(const struct anchors *a, const uint8_t *name,
                               size_t len)
{
	size_t i;

	for (i = 0; i < a->nzones; i++)
		if (a->zone[i]->namelen == len &&
		    memcmp(a->zone[i]->name, name, len) == 0)
			return a->zone[i];
	return NULL;
}

/* Append an RDATA to a list of *n, unless it is there already. */
static int rdata_add(struct anchor_rdata *list, size_t *n,
                     const uint8_t *rdata, size_t rdlen)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (list[i].len == rdlen &&
		    memcmp(list[i].data, rdata, rdlen) == 0)
			return ANCHOR_OK;
	if (*n >= ANCHOR_RR_MAX)
		return ANCHOR_EFULL;
	memcpy(list[*n].data, rdata, rdlen);
	list[*n].len = (uint16_t)rdlen;
	(*n)++;
	return ANCHOR_OK;
}

int anchors_add_rr(struct anchors *a, const uint8_t *owner, size_t ownerlen,
                   uint16_t type, const uint8_t *rdata, size_t rdlen)
{
	struct anchor *z;

	if (a == NULL || owner == NULL || rdata == NULL || rdlen == 0 ||
	    rdlen > ANCHOR_RDATA_MAX || ownerlen > WIRE_NAME_MAX ||
	    (type != WIRE_TYPE_DS && type != DNSSEC_TYPE_DNSKEY))
		return ANCHOR_EINVAL;
	z = zone_get(a, owner, ownerlen);
	if (z == NULL) {
		if (a->nzones >= ANCHOR_ZONES_MAX)
			return ANCHOR_EFULL;
		z = calloc(1, sizeof *z);
		if (z == NULL)
			return ANCHOR_ENOMEM;
		memcpy(z->name, owner, ownerlen);
		z->namelen = ownerlen;
		a->zone[a->nzones++] = z;
	}
	/* a zone made just now has no record yet: this cannot fail then */
	if (type == WIRE_TYPE_DS)
		return rdata_add(z->ds, &z->nds, rdata, rdlen);
	return rdata_add(z->dnskey, &z->ndnskey, rdata, rdlen);
}

int anchors_add_builtin(struct anchors *a)
{
	size_t i;
	int rc = ANCHOR_OK;

	for (i = 0; i < sizeof builtin_ds / sizeof builtin_ds[0]; i++)
		if (rc == ANCHOR_OK)
			rc = anchors_add_text(a, builtin_ds[i], NULL, 0);
	return rc;
}

int anchors_add_insecure(struct anchors *a, const uint8_t *name, size_t len)
{
	struct anchor_nta *n;
	size_t i;

	if (a == NULL || name == NULL || wire_name_check(name, len) != WIRE_OK)
		return ANCHOR_EINVAL;
	for (i = 0; i < a->nnta; i++)
		if (wire_name_equal(a->nta[i].name, a->nta[i].len, name, len))
			return ANCHOR_OK;
	if (a->nnta >= ANCHOR_ZONES_MAX)
		return ANCHOR_EFULL;
	n = &a->nta[a->nnta++];
	memcpy(n->name, name, len);
	wire_name_lower(n->name, len);
	n->len = len;
	return ANCHOR_OK;
}

int anchors_remove_insecure(struct anchors *a, const uint8_t *name, size_t len)
{
	size_t i;

	if (a == NULL || name == NULL || wire_name_check(name, len) != WIRE_OK)
		return ANCHOR_EINVAL;
	for (i = 0; i < a->nnta; i++)
		if (wire_name_equal(a->nta[i].name, a->nta[i].len, name,
		                    len)) {
			a->nta[i] = a->nta[--a->nnta];
			return ANCHOR_OK;
		}
	return ANCHOR_EEMPTY;
}

bool anchors_insecure_at(const struct anchors *a, size_t i,
                         const uint8_t **name, size_t *len)
{
	if (a == NULL || i >= a->nnta)
		return false;
	*name = a->nta[i].name;
	*len = a->nta[i].len;
	return true;
}

size_t anchors_count(const struct anchors *a)
{
	return a == NULL ? 0 : a->nzones;
}

const struct anchor *anchors_find(const struct anchors *a, const uint8_t *name,
                                  size_t len)
{
	const struct anchor *best = NULL;
	bool start[WIRE_NAME_MAX];
	size_t i;

	if (a == NULL || name == NULL || wire_name_check(name, len) != WIRE_OK)
		return NULL;
	label_starts(name, len, start);
	for (i = 0; i < a->nzones; i++) {
		const struct anchor *z = a->zone[i];

		if (name_under(name, len, start, z->name, z->namelen) &&
		    (best == NULL || z->namelen > best->namelen))
			best = z;
	}
	return best;
}

bool anchors_insecure(const struct anchors *a, const uint8_t *name, size_t len)
{
	bool start[WIRE_NAME_MAX];
	size_t i;

	if (a == NULL || name == NULL || wire_name_check(name, len) != WIRE_OK)
		return false;
	label_starts(name, len, start);
	for (i = 0; i < a->nnta; i++)
		if (name_under(name, len, start, a->nta[i].name,
		               a->nta[i].len))
			return true;
	return false;
}

/* ------------------------------------------------------------------ */
/* Zone-file text (read by anchor_file.c)                              */

/* The error: "FILE:LINE: what" or "trust-anchor \"TEXT\": what". */
int anchor_text_fail(struct anchor_text *z, int rc, const char *fmt, ...)
{
	char why[ANCHOR_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	z->rc = rc;
	if (z->err == NULL || z->errlen == 0)
		return -1;
	if (z->file != NULL)
		snprintf(z->err, z->errlen, "%s:%zu: %s", z->file, z->tokline,
		         why);
	else
		snprintf(z->err, z->errlen, "trust-anchor \"%.*s%s\": %s",
		         (int)(z->len > ANCHOR_QUOTE_MAX ? ANCHOR_QUOTE_MAX :
		                                           z->len),
		         z->text, z->len > ANCHOR_QUOTE_MAX ? "..." : "", why);
	return -1;
}

int anchors_add_file(struct anchors *a, const char *path, char *err,
                     size_t errlen)
{
	struct anchor_text z;
	char why[ANCHOR_ERR_MAX];
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (a == NULL || path == NULL)
		return ANCHOR_EINVAL;
	rc = fileio_read_path(path, ANCHOR_FILE_MAX, true, &buf, &len, why,
	                      sizeof why);
	if (rc != FILEIO_OK) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen, "%s: %s", path, why);
		return rc == FILEIO_ENOMEM ? ANCHOR_ENOMEM : ANCHOR_EFILE;
	}
	memset(&z, 0, sizeof z);
	z.text = buf;
	z.len = len;
	z.line = z.tokline = 1;
	z.file = path;
	z.err = err;
	z.errlen = errlen;
	rc = anchor_text_read(&z, a) == 0 ? ANCHOR_OK : z.rc;
	free(buf);
	if (rc == ANCHOR_OK && z.added == 0) {
		if (err != NULL && errlen > 0)
			snprintf(err, errlen,
			         "%s: no DS or DNSKEY record (revoked keys "
			         "do not count)",
			         path);
		rc = ANCHOR_EEMPTY;
	}
	return rc;
}

int anchors_add_text(struct anchors *a, const char *rr, char *err,
                     size_t errlen)
{
	struct anchor_text z;

	if (a == NULL || rr == NULL)
		return ANCHOR_EINVAL;
	memset(&z, 0, sizeof z);
	z.text = rr;
	z.len = strlen(rr);
	z.line = z.tokline = 1;
	z.err = err;
	z.errlen = errlen;
	if (anchor_text_read(&z, a) != 0)
		return z.rc;
	if (z.added == 0)
		(void)anchor_text_fail(&z, ANCHOR_EEMPTY, "%s",
		                       z.records == 0 ?
		                               "no record" :
		                               "neither DS nor DNSKEY (nor a "
		                               "key that is not revoked)");
	return z.added == 0 ? ANCHOR_EEMPTY : ANCHOR_OK;
}
