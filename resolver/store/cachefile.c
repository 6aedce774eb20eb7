/*
 * resolver/store/cachefile.c - dump_cache text (see cachefile.h): the
 * cache written out, each entry's RRs, then its DNSSEC image. Reading it
 * back is cachefile_load.c.
 */
#include "cachefile.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cachefile_int.h"
#include "curve.h"
#include "wire/wire.h"

/** Bytes of the comment of a dumped entry. */
#define CF_META_BYTES (2 * WIRE_NAME_TEXT_MAX)

const char *const cf_rank_names[CF_RANKS] = {
	"none", "glue", "referral", "nonauth", "auth",
};

const char *const cf_sec_names[CF_SECS] = {
	"unchecked",
	"insecure",
	"secure",
	"bogus",
};

const char *cachefile_strerror(int status)
{
	switch (status) {
	case CACHEFILE_OK: return "ok";
	case CACHEFILE_ESYNTAX: return "not a record line";
	case CACHEFILE_ENAME: return "bad name";
	case CACHEFILE_ETTL: return "bad TTL";
	case CACHEFILE_ECLASS: return "unknown class";
	case CACHEFILE_ETYPE: return "unknown type";
	case CACHEFILE_ERDATA: return "RDATA does not fit its type";
	case CACHEFILE_EMETA: return "bad or missing rank/src comment";
	case CACHEFILE_EHEADER: return "not a curvecache dump (no header)";
	case CACHEFILE_ETOOLONG: return "line or RRset too long";
	case CACHEFILE_ECACHE: return "refused by the cache";
	case CACHEFILE_ENOMEM: return "out of memory";
	case CACHEFILE_EINVAL: return "invalid argument";
	default: return "unknown status";
	}
}

/* ------------------------------------------------------------------ */
/* Dump                                                                */

/** State of one dump. */
struct cf_dump {
	cachefile_put_fn put;
	void *arg;
	time_t now;
	const uint8_t *name; /**< only this name (NULL: all) */
	size_t name_len;
	uint16_t type; /**< only this type (0: all) */
	bool stale;    /**< stale entries too */
	bool shown;    /**< private-use types left out */
	uint8_t *img;
	size_t imgcap;
	char *line; /**< CACHEFILE_LINE_MAX bytes */
	struct cachefile_dump_stats st;
	int rc;
};

/* The sec= of a comment: only for a status other than unchecked, so
 * that the lines of an unchecked entry read as they always did. */
static const char *cf_sec_text(const struct cache_view *v, char *out,
                               size_t cap)
{
	if (v->sec == CACHE_SEC_UNCHECKED || (size_t)v->sec >= CF_SECS)
		return "";
	snprintf(out, cap, " sec=%s", cf_sec_names[v->sec]);
	return out;
}

/* The trailing comment of an entry: what it is, rank, provenance and
 * DNSSEC status. */
static bool cf_meta_text(const struct cache_view *v, char *out, size_t cap)
{
	char name[WIRE_NAME_TEXT_MAX], tbuf[RRTEXT_NAME_MAX];
	char src[CURVE_KEYLABEL_LEN + 1] = "plain", secbuf[16];
	const char *sec = cf_sec_text(v, secbuf, sizeof secbuf);
	const char *rank = (size_t)v->rank < CF_RANKS ?
	                           cf_rank_names[v->rank] :
	                           "none";
	int n = 0;

	if (v->server_key != NULL &&
	    curve_keylabel_make(src, v->server_key) != CURVE_OK)
		return false;
	if (v->kind != CACHE_KIND_RRSET &&
	    wire_name_to_text(v->name, v->name_len, name, sizeof name, NULL) !=
	            WIRE_OK)
		return false;
	if (v->kind == CACHE_KIND_NXDOMAIN)
		n = snprintf(out, cap, "; nxdomain name=%s rank=%s src=%s%s",
		             name, rank, src, sec);
	else if (v->kind == CACHE_KIND_NODATA)
		n = snprintf(out, cap,
		             "; nodata name=%s type=%s rank=%s "
		             "src=%s%s",
		             name, rrtext_type_name(v->type, tbuf), rank, src,
		             sec);
	else
		n = snprintf(out, cap, "; rank=%s src=%s%s", rank, src, sec);
	return n > 0 && (size_t)n < cap;
}

/* Is img a run of whole wire RRs (so cf_dump_rrs cannot stop half-way)? */
static bool cf_rrs_whole(const uint8_t *img, size_t len)
{
	size_t pos = 0;
	struct wire_rr rr;

	while (pos < len)
		if (wire_read_rr(img, len, &pos, &rr) != WIRE_OK)
			return false;
	return true;
}

/*
 * Write the wire RRs of img, each with the comment; ttl NULL: each with
 * its own TTL, else with *ttl. *count grows by the lines written.
 */
static int cf_dump_rrs(struct cf_dump *d, const uint8_t *img, size_t len,
                       const uint32_t *ttl, const char *meta, size_t *count)
{
	size_t pos = 0, n, k, mlen = strlen(meta);
	struct wire_rr rr;

	for (k = 0; pos < len; k++) {
		if (wire_read_rr(img, len, &pos, &rr) != WIRE_OK)
			return -1;
		if (ttl != NULL)
			rr.ttl = *ttl;
		if (rrtext_rr(d->line, CACHEFILE_LINE_MAX - mlen - 2, &n, img,
		              len, &rr) != WIRE_OK)
			return -1;
		d->line[n++] = '\t';
		memcpy(d->line + n, meta, mlen);
		n += mlen;
		d->line[n++] = '\n';
		if (d->put(d->arg, d->line, n) != 0) {
			d->rc = CACHEFILE_EINVAL;
			return 1;
		}
	}
	*count += k;
	return 0;
}

/* The lines of one entry whose records are img[0..len) (rendered):
 * 0, or 1 when put stopped the dump. */
static int cf_dump_entry(struct cf_dump *d, const struct cache_view *v,
                         const char *meta, const uint8_t *img, size_t len)
{
	int rc;

	if (!cf_rrs_whole(v->dnssec, v->dnssec_len)) {
		d->st.skipped++;
		return 0;
	}
	rc = cf_dump_rrs(d, img, len, NULL, meta, &d->st.rrs);
	if (rc == 0)
		rc = cf_dump_rrs(d, v->dnssec, v->dnssec_len, &v->ttl,
		                 "; " CF_DNSSEC_WORD, &d->st.dnssec);
	if (rc > 0)
		return 1;
	if (rc < 0)
		d->st.skipped++;
	else
		d->st.entries++;
	return 0;
}

static int cf_dump_view(const struct cache_view *v, void *arg)
{
	struct cf_dump *d = arg;
	char meta[CF_META_BYTES];
	size_t len, m;

	if (d->name != NULL && (v->name_len != d->name_len ||
	                        memcmp(v->name, d->name, d->name_len) != 0 ||
	                        (d->type != 0 && v->type != d->type &&
	                         v->kind != CACHE_KIND_NXDOMAIN)))
		return 0;
	if (d->shown && v->type >= CACHEFILE_TYPE_PRIVATE_MIN &&
	    v->type <= CACHEFILE_TYPE_PRIVATE_MAX) {
		d->st.hidden++;
		return 0;
	}
	if ((!d->stale && (v->stale || v->ttl == 0)) ||
	    !cf_meta_text(v, meta, sizeof meta)) {
		d->st.skipped++;
		return 0;
	}
	m = strlen(meta);
	if (v->stale && d->now > v->expire)
		snprintf(meta + m, sizeof meta - m, " stale=%" PRId64 "s",
		         (int64_t)(d->now - v->expire));
	if (v->wire_len > d->imgcap) {
		uint8_t *p = realloc(d->img, v->wire_len);

		if (p == NULL) {
			d->rc = CACHEFILE_ENOMEM;
			return 1;
		}
		d->img = p;
		d->imgcap = v->wire_len;
	}
	if (cache_view_render(v, d->img, d->imgcap, &len) != CACHE_OK) {
		d->st.skipped++;
		return 0;
	}
	return cf_dump_entry(d, v, meta, d->img, len);
}

/* Start a dump to PUT: the state zeroed, its line buffer allocated. */
static int cf_dump_start(struct cf_dump *d, time_t now, cachefile_put_fn put,
                         void *arg)
{
	memset(d, 0, sizeof *d);
	d->put = put;
	d->arg = arg;
	d->now = now;
	d->line = malloc(CACHEFILE_LINE_MAX);
	return d->line != NULL ? CACHEFILE_OK : CACHEFILE_ENOMEM;
}

/* Free what a dump allocated. */
static void cf_dump_end(struct cf_dump *d)
{
	free(d->line);
	free(d->img);
}

static int cf_dump_all(struct cache *c, time_t now, bool shown,
                       cachefile_put_fn put, void *arg,
                       struct cachefile_dump_stats *st)
{
	struct cf_dump d;
	char head[96];
	int n;

	if (c == NULL || put == NULL)
		return CACHEFILE_EINVAL;
	if (cf_dump_start(&d, now, put, arg) != CACHEFILE_OK)
		return CACHEFILE_ENOMEM;
	d.shown = shown;
	n = snprintf(head, sizeof head, "; %s version=%d time=%" PRId64 "\n",
	             CF_MAGIC, CACHEFILE_VERSION, (int64_t)now);
	if (put(arg, head, (size_t)n) != 0)
		d.rc = CACHEFILE_EINVAL;
	else
		(void)cache_iterate(c, now, cf_dump_view, &d);
	cf_dump_end(&d);
	if (st != NULL)
		*st = d.st;
	return d.rc;
}

int cachefile_dump(struct cache *c, time_t now, cachefile_put_fn put,
                   void *arg, struct cachefile_dump_stats *st)
{
	return cf_dump_all(c, now, false, put, arg, st);
}

int cachefile_dump_shown(struct cache *c, time_t now, cachefile_put_fn put,
                         void *arg, struct cachefile_dump_stats *st)
{
	return cf_dump_all(c, now, true, put, arg, st);
}

int cachefile_dump_name(struct cache *c, time_t now, const uint8_t *name,
                        size_t name_len, uint16_t type, cachefile_put_fn put,
                        void *arg, size_t *found)
{
	struct cf_dump d;

	if (c == NULL || put == NULL || name == NULL)
		return CACHEFILE_EINVAL;
	if (cf_dump_start(&d, now, put, arg) != CACHEFILE_OK)
		return CACHEFILE_ENOMEM;
	d.name = name;
	d.name_len = name_len;
	d.type = type;
	d.stale = true;
	(void)cache_iterate(c, now, cf_dump_view, &d);
	cf_dump_end(&d);
	if (found != NULL)
		*found = d.st.entries;
	return d.rc;
}

/* The view of what cache_get found for (name, type): the entry that
 * answers it, its records in buf, its DNSSEC image after them. */
static void cf_view_of(struct cache_view *v, const struct cache_answer *a,
                       const uint8_t *name, size_t name_len,
                       const uint8_t *buf)
{
	memset(v, 0, sizeof *v);
	v->name = name;
	v->name_len = name_len;
	v->kind = a->kind;
	v->rank = a->rank;
	v->type = a->kind == CACHE_KIND_NXDOMAIN ? 0 : a->type;
	v->klass = a->klass;
	v->expire = a->expire;
	v->ttl = a->ttl;
	v->server_key = a->curve ? a->server_key : NULL;
	v->sec = a->sec;
	v->via = a->via;
	v->dnssec = a->dnssec_len > 0 ? buf + a->len : NULL;
	v->dnssec_len = a->dnssec_len;
	v->count = a->count;
}

int cachefile_dump_get(struct cache *c, time_t now, const uint8_t *name,
                       size_t name_len, uint16_t type, uint16_t klass,
                       uint8_t *scratch, size_t cap, cachefile_put_fn put,
                       void *arg, size_t *found)
{
	struct cache_query q = { name, name_len, type, klass,
		                 CACHE_GET_DNSSEC };
	struct cache_answer a;
	struct cache_view v;
	char meta[CF_META_BYTES];
	struct cf_dump d;

	if (c == NULL || put == NULL || name == NULL || scratch == NULL ||
	    cap < CACHEFILE_GET_SCRATCH_BYTES)
		return CACHEFILE_EINVAL;
	/* the caller's space: the line, then the entry's records */
	memset(&d, 0, sizeof d);
	d.put = put;
	d.arg = arg;
	d.now = now;
	d.line = (char *)scratch;
	d.img = scratch + CACHEFILE_LINE_MAX;
	d.imgcap = cap - CACHEFILE_LINE_MAX;
	if (cache_get(c, &q, now, &a, d.img, d.imgcap) == CACHE_OK) {
		cf_view_of(&v, &a, name, name_len, d.img);
		if (cf_meta_text(&v, meta, sizeof meta))
			(void)cf_dump_entry(&d, &v, meta, d.img, a.len);
	}
	if (found != NULL)
		*found = d.st.entries;
	return d.rc;
}
