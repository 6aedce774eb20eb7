/*
 * resolver/store/cachefile_load.c - load_cache text (see cachefile.h):
 * reading a dump back line by line, each entry (its RRs, then the lines
 * of its DNSSEC image) gathered and stored once the next entry begins.
 * A dump of Unbound's (its first line START_RRSET_CACHE) is read by the
 * lines of cachefile_unbound.c: each RRset is stored as one entry, its
 * RRSIGs as its DNSSEC image, never as validated.
 */
#include "cachefile.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cachefile_int.h"
#include "curve.h"
#include "wire/wire.h"

/* ------------------------------------------------------------------ */
/* Load: state                                                         */

/** What the comment of a line says. */
struct cf_meta {
	enum cache_kind kind;
	enum cache_rank rank;
	enum cache_sec sec; /**< sec=, unchecked if absent */
	bool dnssec;        /**< "; dnssec": a line of the entry's image */
	bool curve;
	uint8_t key[CURVE_KEY_BYTES];
	uint8_t name[WIRE_NAME_MAX]; /**< negative: the name asked */
	size_t namelen;
	uint16_t ntype; /**< nodata: the type asked */
};

/** One parsed RR line. */
struct cf_line {
	uint8_t owner[WIRE_NAME_MAX];
	size_t ownerlen;
	uint32_t ttl;
	uint16_t klass;
	uint16_t type;
	size_t rdlen; /**< RDATA in ld->scratch */
	struct cf_meta meta;
};

struct cachefile_load {
	struct cache *c;
	time_t now;
	time_t dumped;
	bool header;
	bool dead;       /**< no header: the rest is ignored */
	bool unbound;    /**< an Unbound dump (ub reads its lines) */
	struct cf_ub ub; /**< its reader */
	size_t ub_line;  /**< the line of its current ";rrset" */
	struct cachefile_load_counts n;
	char errs[CACHEFILE_ERRORS_SHOWN][CACHEFILE_ERR_BYTES]; /**< reasons */
	size_t err_line[CACHEFILE_ERRORS_SHOWN];                /**< lines */
	size_t nerrs;
	/* the entry being gathered: an RRset, or one negative entry */
	bool open;
	bool bad;
	size_t first; /**< its first line */
	struct cf_line set;
	size_t count;
	struct cache_rdata rd[CACHEFILE_RRSET_MAX];
	size_t used;
	uint8_t rdata[CACHEFILE_RDATA_BYTES];
	/* its DNSSEC image: wire RRs, TTLs 0 (the cache sets them) */
	size_t image_len;
	size_t image_count; /**< its records */
	uint8_t image[CACHEFILE_DNSSEC_BYTES];
	uint8_t scratch[CACHEFILE_RDATA_BYTES];
};

int cachefile_load_new(struct cache *c, time_t now,
                       struct cachefile_load **out)
{
	struct cachefile_load *ld;

	if (c == NULL || out == NULL)
		return CACHEFILE_EINVAL;
	ld = calloc(1, sizeof(*ld));
	if (ld == NULL)
		return CACHEFILE_ENOMEM;
	ld->c = c;
	ld->now = now;
	*out = ld;
	return CACHEFILE_OK;
}

void cachefile_load_reset(struct cachefile_load *ld, time_t now)
{
	struct cache *c = ld->c;

	/* everything before the buffers, then their lengths */
	memset(ld, 0, offsetof(struct cachefile_load, rd));
	ld->used = ld->image_len = ld->image_count = 0;
	ld->c = c;
	ld->now = now;
}

void cachefile_load_free(struct cachefile_load *ld)
{
	free(ld);
}

void cachefile_load_counts(const struct cachefile_load *ld,
                           struct cachefile_load_counts *out)
{
	*out = ld->n;
}

/* Count a bad line (or entry), keep its message if there is room. */
static int cf_bad(struct cachefile_load *ld, size_t line, int status,
                  const char *detail)
{
	/* the reason is cut so that "line N: reason" fits the bytes */
	int plen = snprintf(NULL, 0, "line %zu: ", line);

	ld->n.bad++;
	if (ld->nerrs < CACHEFILE_ERRORS_SHOWN) {
		ld->err_line[ld->nerrs] = line;
		snprintf(ld->errs[ld->nerrs++],
		         CACHEFILE_ERR_BYTES - (size_t)plen, "%s%s%s",
		         cachefile_strerror(status),
		         detail != NULL ? ": " : "",
		         detail != NULL ? detail : "");
	}
	return status;
}

size_t cachefile_load_first_bad(const struct cachefile_load *ld,
                                const char *file, char *out, size_t cap)
{
	int k;

	if (cap == 0)
		return 0;
	out[0] = '\0';
	if (ld->nerrs == 0)
		return 0;
	k = snprintf(out, cap, "%s:%zu: %s", file, ld->err_line[0],
	             ld->errs[0]);
	if (k < 0)
		return 0;
	return (size_t)k < cap ? (size_t)k : cap - 1;
}

size_t cachefile_load_report(const struct cachefile_load *ld, char *out,
                             size_t cap)
{
	size_t n = 0, i;
	int k;

	if (cap == 0)
		return 0;
	out[0] = '\0';
	for (i = 0; i < ld->nerrs && n < cap; i++) {
		k = snprintf(out + n, cap - n, "line %zu: %s\n",
		             ld->err_line[i], ld->errs[i]);
		n += k > 0 ? (size_t)k : 0;
	}
	if (n < cap && ld->n.bad > ld->nerrs) {
		k = snprintf(out + n, cap - n, "(%zu more bad lines)\n",
		             ld->n.bad - ld->nerrs);
		n += k > 0 ? (size_t)k : 0;
	}
	if (n < cap) {
		k = snprintf(out + n, cap - n,
		             "loaded %zu entries (%zu "
		             "records); %zu expired, %zu kept (better data "
		             "cached), %zu bad\n",
		             ld->n.entries, ld->n.rrs, ld->n.expired,
		             ld->n.kept, ld->n.bad);
		n += k > 0 ? (size_t)k : 0;
	}
	return n < cap ? n : cap - 1;
}

/* ------------------------------------------------------------------ */
/* Load: storing                                                       */

/* The TTL left now of a TTL read at the dump's time; 0 if gone. */
static uint32_t cf_ttl_left(const struct cachefile_load *ld, uint32_t ttl)
{
	int64_t gone = ld->now > ld->dumped ?
	                       (int64_t)ld->now - (int64_t)ld->dumped :
	                       0;

	return (int64_t)ttl > gone ? (uint32_t)((int64_t)ttl - gone) : 0;
}

/* Count what a put of n RRs did. */
static void cf_count_put(struct cachefile_load *ld, int rc, size_t n)
{
	if (rc == CACHE_OK) {
		ld->n.entries++;
		ld->n.rrs += n;
		ld->n.dnssec += ld->image_count;
	} else if (rc == CACHE_ERANK) {
		ld->n.kept++;
	} else {
		(void)cf_bad(ld, ld->first, CACHEFILE_ECACHE,
		             cache_strerror(rc));
	}
}

/* Store the gathered negative entry (its SOA RDATA in ld->rdata). */
static int cf_put_neg(struct cachefile_load *ld, uint32_t ttl)
{
	const struct cf_line *l = &ld->set;
	struct cache_neg neg;

	memset(&neg, 0, sizeof neg);
	neg.kind = l->meta.kind;
	neg.name = l->meta.name;
	neg.name_len = l->meta.namelen;
	neg.type = l->meta.ntype;
	neg.klass = l->klass;
	neg.soa_name = l->owner;
	neg.soa_name_len = l->ownerlen;
	neg.soa_ttl = ttl;
	neg.soa_rdata = ld->rdata;
	neg.soa_rdlen = ld->used;
	neg.rank = l->meta.rank;
	neg.server_key = l->meta.curve ? l->meta.key : NULL;
	neg.sec = l->meta.sec;
	neg.dnssec = ld->image;
	neg.dnssec_len = ld->image_len;
	return cache_neg_put(ld->c, &neg, ld->now);
}

/* Store the gathered RRset. */
static int cf_put_rrset(struct cachefile_load *ld, uint32_t ttl)
{
	struct cache_rrset set;

	memset(&set, 0, sizeof set);
	set.name = ld->set.owner;
	set.name_len = ld->set.ownerlen;
	set.type = ld->set.type;
	set.klass = ld->set.klass;
	set.ttl = ttl;
	set.rdata = ld->rd;
	set.count = ld->count;
	set.rank = ld->set.meta.rank;
	set.server_key = ld->set.meta.curve ? ld->set.meta.key : NULL;
	set.sec = ld->set.meta.sec;
	set.dnssec = ld->image;
	set.dnssec_len = ld->image_len;
	return cache_rrset_put(ld->c, &set, ld->now);
}

/* Store the gathered entry, if any and if good. */
static void cf_flush(struct cachefile_load *ld)
{
	uint32_t ttl;

	if (!ld->open)
		return;
	ld->open = false;
	if (!ld->bad) {
		ttl = cf_ttl_left(ld, ld->set.ttl);
		if (ttl == 0)
			ld->n.expired++;
		else if (ld->set.meta.kind == CACHE_KIND_RRSET)
			cf_count_put(ld, cf_put_rrset(ld, ttl), ld->count);
		else
			cf_count_put(ld, cf_put_neg(ld, ttl), 1);
	}
	ld->image_len = ld->image_count = 0;
}

/* A negative entry: one SOA line, gathered for the lines of its image. */
static int cf_open_neg(struct cachefile_load *ld, const struct cf_line *l,
                       size_t line)
{
	cf_flush(ld);
	if (l->type != WIRE_TYPE_SOA)
		return cf_bad(ld, line, CACHEFILE_EMETA, "not an SOA");
	ld->open = true;
	ld->bad = false;
	ld->first = line;
	ld->set = *l;
	ld->count = 1;
	memcpy(ld->rdata, ld->scratch, l->rdlen);
	ld->used = l->rdlen;
	return CACHEFILE_OK;
}

static void cf_put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* A line of the open entry's DNSSEC image: appended as a wire RR. */
static int cf_image_add(struct cachefile_load *ld, const struct cf_line *l,
                        size_t line)
{
	size_t need = l->ownerlen + CACHE_RR_FIXED_BYTES + l->rdlen;
	uint8_t *p;

	if (!ld->open)
		return cf_bad(ld, line, CACHEFILE_EMETA,
		              "DNSSEC record with no entry before it");
	if (ld->bad)
		return CACHEFILE_OK;
	if (need > sizeof ld->image - ld->image_len) {
		ld->bad = true;
		return cf_bad(ld, line, CACHEFILE_ETOOLONG, NULL);
	}
	p = ld->image + ld->image_len;
	memcpy(p, l->owner, l->ownerlen);
	p += l->ownerlen;
	memset(p, 0, CACHE_RR_FIXED_BYTES); /* TTL 0: the cache sets it */
	cf_put16(p, l->type);
	cf_put16(p + 2, l->klass);
	cf_put16(p + 8, (uint16_t)l->rdlen);
	memcpy(p + CACHE_RR_FIXED_BYTES, ld->scratch, l->rdlen);
	ld->image_len += need;
	ld->image_count++;
	return CACHEFILE_OK;
}

static bool cf_same_set(const struct cf_line *a, const struct cf_line *b)
{
	return a->ownerlen == b->ownerlen &&
	       memcmp(a->owner, b->owner, a->ownerlen) == 0 &&
	       a->type == b->type && a->klass == b->klass &&
	       a->ttl == b->ttl && a->meta.rank == b->meta.rank &&
	       a->meta.sec == b->meta.sec && a->meta.curve == b->meta.curve &&
	       (!a->meta.curve ||
	        memcmp(a->meta.key, b->meta.key, CURVE_KEY_BYTES) == 0);
}

/* Add a parsed RR line to the RRset being gathered (or start one). */
static int cf_gather(struct cachefile_load *ld, const struct cf_line *l,
                     size_t line)
{
	if (ld->open && (ld->set.meta.kind != CACHE_KIND_RRSET ||
	                 ld->image_len > 0 || !cf_same_set(&ld->set, l)))
		cf_flush(ld);
	if (!ld->open) {
		ld->open = true;
		ld->bad = false;
		ld->first = line;
		ld->set = *l;
		ld->count = 0;
		ld->used = 0;
	}
	if (ld->bad)
		return CACHEFILE_OK;
	if (ld->count == CACHEFILE_RRSET_MAX ||
	    l->rdlen > sizeof ld->rdata - ld->used) {
		ld->bad = true;
		return cf_bad(ld, line, CACHEFILE_ETOOLONG, NULL);
	}
	memcpy(ld->rdata + ld->used, ld->scratch, l->rdlen);
	ld->rd[ld->count].data = ld->rdata + ld->used;
	ld->rd[ld->count].len = l->rdlen;
	ld->used += l->rdlen;
	ld->count++;
	return CACHEFILE_OK;
}

/* ------------------------------------------------------------------ */
/* Load: parsing                                                       */

static bool cf_tok_is(const struct cf_tok *t, const char *s)
{
	return !t->quoted && t->len == strlen(s) &&
	       memcmp(t->p, s, t->len) == 0;
}

static int cf_class(const struct cf_tok *t, uint16_t *klass)
{
	char w[CF_WORD_MAX];
	struct cf_tok num;

	if (cf_tok_is(t, "IN")) {
		*klass = WIRE_CLASS_IN;
		return CACHEFILE_OK;
	}
	if (!cf_word(t, w, sizeof w) || strncmp(w, "CLASS", 5) != 0)
		return CACHEFILE_ECLASS;
	num.p = t->p + 5;
	num.len = t->len - 5;
	num.quoted = false;
	{
		uint32_t v;

		if (!cf_number(&num, UINT16_MAX, &v))
			return CACHEFILE_ECLASS;
		*klass = (uint16_t)v;
	}
	return CACHEFILE_OK;
}

/* A name token into canonical (lowercase) wire form. */
static int cf_name_tok(const struct cf_tok *t, uint8_t *out, size_t *len)
{
	if (t->quoted ||
	    wire_name_from_text(t->p, t->len, out, len) != WIRE_OK)
		return CACHEFILE_ENAME;
	wire_name_lower(out, *len);
	return CACHEFILE_OK;
}

/** Bits of the comment's keys seen. */
#define CF_SEEN_RANK 0x1u
#define CF_SEEN_SRC 0x2u
#define CF_SEEN_NAME 0x4u
#define CF_SEEN_TYPE 0x8u
#define CF_SEEN_SEC 0x10u

static bool cf_rank(const struct cf_tok *v, enum cache_rank *rank)
{
	size_t i;

	for (i = CACHE_RANK_GLUE; i < CF_RANKS; i++) {
		if (cf_tok_is(v, cf_rank_names[i])) {
			*rank = (enum cache_rank)i;
			return true;
		}
	}
	return false;
}

/* sec=: the DNSSEC status (absent: unchecked). */
static bool cf_sec(const struct cf_tok *v, enum cache_sec *sec)
{
	size_t i;

	for (i = 0; i < CF_SECS; i++) {
		if (cf_tok_is(v, cf_sec_names[i])) {
			*sec = (enum cache_sec)i;
			return true;
		}
	}
	return false;
}

/* src=plain or src=uz5...: where the data came from. */
static bool cf_src(const struct cf_tok *v, struct cf_meta *m)
{
	if (cf_tok_is(v, "plain")) {
		m->curve = false;
		return true;
	}
	m->curve = curve_keylabel_parse((const uint8_t *)v->p, v->len,
	                                m->key) == CURVE_OK;
	return m->curve;
}

/* name=NAME and type=TYPE of the comment. */
static bool cf_name_ok(const struct cf_tok *v, struct cf_meta *m)
{
	return cf_name_tok(v, m->name, &m->namelen) == CACHEFILE_OK;
}

static bool cf_type_ok(const struct cf_tok *v, struct cf_meta *m)
{
	char w[CF_WORD_MAX];

	return cf_word(v, w, sizeof w) &&
	       rrtext_type_parse(w, &m->ntype) == WIRE_OK;
}

/* One key=value of the comment. */
static bool cf_meta_kv(struct cf_meta *m, const struct cf_tok *t,
                       unsigned *seen)
{
	const char *eq = memchr(t->p, '=', t->len);
	struct cf_tok v;
	size_t klen;
	unsigned bit;

	if (t->quoted || eq == NULL)
		return false;
	klen = (size_t)(eq - t->p);
	v.p = eq + 1;
	v.len = t->len - klen - 1;
	v.quoted = false;
	if (klen == 4 && memcmp(t->p, "rank", 4) == 0)
		bit = cf_rank(&v, &m->rank) ? CF_SEEN_RANK : 0;
	else if (klen == 3 && memcmp(t->p, "src", 3) == 0)
		bit = cf_src(&v, m) ? CF_SEEN_SRC : 0;
	else if (klen == 4 && memcmp(t->p, "name", 4) == 0)
		bit = cf_name_ok(&v, m) ? CF_SEEN_NAME : 0;
	else if (klen == 4 && memcmp(t->p, "type", 4) == 0)
		bit = cf_type_ok(&v, m) ? CF_SEEN_TYPE : 0;
	else if (klen == 3 && memcmp(t->p, "sec", 3) == 0)
		bit = cf_sec(&v, &m->sec) ? CF_SEEN_SEC : 0;
	else
		bit = 0;
	if (bit == 0 || (*seen & bit) != 0)
		return false;
	*seen |= bit;
	return true;
}

/* The comment after ';': [nxdomain|nodata] key=value ..., or dnssec. */
static int cf_meta(struct cf_cur *c, struct cf_meta *m)
{
	unsigned seen = 0, need = CF_SEEN_RANK | CF_SEEN_SRC;
	struct cf_tok t;
	enum cf_next_result r;
	bool first = true;

	memset(m, 0, sizeof(*m));
	m->kind = CACHE_KIND_RRSET;
	while ((r = cf_next(c, &t)) == CF_TOKEN) {
		if (first && cf_tok_is(&t, "nxdomain")) {
			m->kind = CACHE_KIND_NXDOMAIN;
			need |= CF_SEEN_NAME;
		} else if (first && cf_tok_is(&t, "nodata")) {
			m->kind = CACHE_KIND_NODATA;
			need |= CF_SEEN_NAME | CF_SEEN_TYPE;
		} else if (first && cf_tok_is(&t, CF_DNSSEC_WORD)) {
			m->dnssec = true;
			need = 0;
		} else if (m->dnssec || !cf_meta_kv(m, &t, &seen)) {
			return CACHEFILE_EMETA;
		}
		first = false;
	}
	/* sec= is optional (unchecked); the dnssec word stands alone. */
	if (r != CF_END || c->pos < c->len || (seen & ~CF_SEEN_SEC) != need)
		return CACHEFILE_EMETA;
	return CACHEFILE_OK;
}

/* Owner, TTL, class and type; *key set once the type is known. */
static int cf_rr_head(struct cf_cur *c, struct cf_line *l, bool *key)
{
	char w[CF_WORD_MAX];
	struct cf_tok t;
	int rc;

	if (cf_next(c, &t) != CF_TOKEN)
		return CACHEFILE_ESYNTAX;
	if ((rc = cf_name_tok(&t, l->owner, &l->ownerlen)) != CACHEFILE_OK)
		return rc;
	if (cf_next(c, &t) != CF_TOKEN || !cf_number(&t, CF_TTL_MAX, &l->ttl))
		return CACHEFILE_ETTL;
	if (cf_next(c, &t) != CF_TOKEN)
		return CACHEFILE_ECLASS;
	if ((rc = cf_class(&t, &l->klass)) != CACHEFILE_OK)
		return rc;
	if (cf_next(c, &t) != CF_TOKEN || !cf_word(&t, w, sizeof w) ||
	    rrtext_type_parse(w, &l->type) != WIRE_OK)
		return CACHEFILE_ETYPE;
	*key = true;
	return CACHEFILE_OK;
}

/* A whole RR line; the RDATA goes to ld->scratch. */
static int cf_parse(struct cachefile_load *ld, const char *text, size_t len,
                    struct cf_line *l, bool *key)
{
	struct cf_cur c = { text, len, 0 };
	struct cf_tok t;
	enum cf_next_result r;
	size_t start, end;
	int rc;

	memset(l, 0, sizeof(*l));
	if ((rc = cf_rr_head(&c, l, key)) != CACHEFILE_OK)
		return rc;
	start = c.pos;
	while ((r = cf_next(&c, &t)) == CF_TOKEN)
		;
	if (r == CF_BAD)
		return CACHEFILE_ERDATA;
	end = c.pos;
	if (end >= len)
		return CACHEFILE_EMETA;
	c.pos++;
	if ((rc = cf_meta(&c, &l->meta)) != CACHEFILE_OK)
		return rc;
	return cachefile_rdata_parse(l->type, text + start, end - start,
	                             ld->scratch, sizeof ld->scratch,
	                             &l->rdlen);
}

/* "; curvecache-dump version=1 time=N" */
static int cf_header(struct cachefile_load *ld, const char *text, size_t len,
                     size_t line)
{
	struct cf_cur c = { text, len, 0 };
	struct cf_tok t[3];
	size_t i;
	uint64_t when = 0;

	if (len <= CACHEFILE_LINE_MAX && cf_ub_first(text, len)) {
		/* Unbound's TTLs are left at the dump's time: taken as now */
		ld->header = ld->unbound = true;
		ld->dumped = ld->now;
		return CACHEFILE_OK;
	}
	while (c.pos < len && (text[c.pos] == ' ' || text[c.pos] == '\t'))
		c.pos++;
	if (len <= CACHEFILE_LINE_MAX && c.pos < len && text[c.pos] == ';') {
		c.pos++;
		for (i = 0; i < 3 && cf_next(&c, &t[i]) == CF_TOKEN; i++)
			;
		if (i == 3 && cf_next(&c, &t[0]) == CF_END &&
		    cf_tok_is(&t[0], CF_MAGIC) &&
		    cf_tok_is(&t[1], "version=1") && t[2].len > 5 &&
		    t[2].len <= 5 + 18 && memcmp(t[2].p, "time=", 5) == 0) {
			for (i = 5; i < t[2].len && t[2].p[i] >= '0' &&
			            t[2].p[i] <= '9';
			     i++)
				when = when * 10 + (uint64_t)(t[2].p[i] - '0');
			if (i == t[2].len) {
				ld->header = true;
				ld->dumped = (time_t)when;
				return CACHEFILE_OK;
			}
		}
	}
	ld->dead = true;
	return cf_bad(ld, line, CACHEFILE_EHEADER, NULL);
}

/* Bytes a line may hold: printable ASCII and tabs (all else escaped). */
static bool cf_clean(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++) {
		unsigned char b = (unsigned char)p[i];

		if ((b < 0x20 && b != '\t') || b >= 0x7f)
			return false;
	}
	return true;
}

static bool cf_skip(const char *p, size_t len)
{
	size_t i = 0;

	while (i < len && (p[i] == ' ' || p[i] == '\t'))
		i++;
	return i == len || p[i] == ';';
}

/* ------------------------------------------------------------------ */
/* Load: Unbound's dump                                                */

/* An RRset of the dump ended with lines missing: not stored. */
static void cf_ub_cut(struct cachefile_load *ld)
{
	ld->ub.cut = false;
	if (!ld->open || !ld->bad)
		(void)cf_bad(ld, ld->ub_line, CACHEFILE_ESYNTAX,
		             "RRset cut short");
	ld->bad = true;
	cf_flush(ld);
}

/* A record line of the dump (no comment after the data): owner, TTL,
 * class, type, data; the RRset's TTL, rank and status from its ";rrset"
 * line. */
static int cf_ub_parse(struct cachefile_load *ld, const char *text, size_t len,
                       struct cf_line *l)
{
	struct cf_cur c = { text, len, 0 };
	struct cf_tok t;
	enum cf_next_result r;
	size_t start;
	bool key = false;
	int rc;

	memset(l, 0, sizeof(*l));
	if ((rc = cf_rr_head(&c, l, &key)) != CACHEFILE_OK)
		return rc;
	start = c.pos;
	while ((r = cf_next(&c, &t)) == CF_TOKEN)
		;
	if (r == CF_BAD || c.pos < len)
		return CACHEFILE_ERDATA;
	l->ttl = ld->ub.ttl;
	l->meta.kind = CACHE_KIND_RRSET;
	l->meta.rank = (enum cache_rank)ld->ub.rank;
	l->meta.sec = (enum cache_sec)ld->ub.sec;
	return cachefile_rdata_parse(l->type, text + start, c.pos - start,
	                             ld->scratch, sizeof ld->scratch,
	                             &l->rdlen);
}

/* A record or RRSIG of the current RRset: gathered, or its image. */
static int cf_ub_record(struct cachefile_load *ld, const char *line,
                        size_t len, size_t no, bool sig)
{
	struct cf_line l;
	const char *why = NULL;
	int rc = cf_ub_parse(ld, line, len, &l);

	if (rc == CACHEFILE_OK && sig && l.type != WIRE_TYPE_RRSIG) {
		rc = CACHEFILE_ETYPE;
		why = "an RRSIG of the RRset expected";
	}
	if (rc == CACHEFILE_OK && !sig && ld->open &&
	    (l.type == WIRE_TYPE_RRSIG || !cf_same_set(&ld->set, &l))) {
		rc = CACHEFILE_ESYNTAX;
		why = "not of the RRset (owner, class or type)";
	}
	if (rc != CACHEFILE_OK) {
		ld->ub.drop = true; /* the rest of the RRset is skipped */
		ld->bad = ld->open;
		return cf_bad(ld, no, rc, why);
	}
	return sig ? cf_image_add(ld, &l, no) : cf_gather(ld, &l, no);
}

/* One line (after the first) of an Unbound dump. */
static int cf_ub_load(struct cachefile_load *ld, const char *line, size_t len,
                      size_t no)
{
	const char *why;
	enum cf_ub_line k = cf_ub_next(&ld->ub, line, len, &why);

	if (ld->ub.cut)
		cf_ub_cut(ld);
	switch (k) {
	case CF_UB_SET:
		cf_flush(ld);
		ld->ub_line = no;
		return CACHEFILE_OK;
	case CF_UB_END: cf_flush(ld); return CACHEFILE_OK;
	case CF_UB_BAD: return cf_bad(ld, no, CACHEFILE_ESYNTAX, why);
	case CF_UB_RR:
	case CF_UB_SIG: return cf_ub_record(ld, line, len, no, k == CF_UB_SIG);
	default: return CACHEFILE_OK;
	}
}

int cachefile_load_line(struct cachefile_load *ld, const char *line,
                        size_t len)
{
	size_t no = ++ld->n.lines;
	struct cf_line l;
	bool key = false;
	int rc;

	if (ld->dead)
		return CACHEFILE_EHEADER;
	if (len > 0 && len <= CACHEFILE_LINE_MAX && line[len - 1] == '\r')
		len--;
	if (!ld->header)
		return cf_header(ld, line, len, no);
	if (len > CACHEFILE_LINE_MAX || !cf_clean(line, len)) {
		cf_flush(ld);
		return cf_bad(ld, no,
		              len > CACHEFILE_LINE_MAX ? CACHEFILE_ETOOLONG :
		                                         CACHEFILE_ESYNTAX,
		              NULL);
	}
	if (ld->unbound)
		return cf_ub_load(ld, line, len, no);
	if (cf_skip(line, len))
		return CACHEFILE_OK;
	rc = cf_parse(ld, line, len, &l, &key);
	if (rc != CACHEFILE_OK) {
		/* A bad line of the open entry (or of its image) spoils it. */
		if (ld->open &&
		    (l.meta.dnssec ||
		     (key && l.ownerlen == ld->set.ownerlen &&
		      memcmp(l.owner, ld->set.owner, l.ownerlen) == 0 &&
		      l.type == ld->set.type && l.klass == ld->set.klass)))
			ld->bad = true;
		else
			cf_flush(ld);
		return cf_bad(ld, no, rc, NULL);
	}
	if (l.meta.dnssec)
		return cf_image_add(ld, &l, no);
	if (l.meta.kind != CACHE_KIND_RRSET)
		return cf_open_neg(ld, &l, no);
	return cf_gather(ld, &l, no);
}

void cachefile_load_finish(struct cachefile_load *ld)
{
	if (ld->unbound && cf_ub_finish(&ld->ub))
		cf_ub_cut(ld);
	cf_flush(ld);
	if (!ld->header && !ld->dead) {
		ld->dead = true;
		(void)cf_bad(ld, 1, CACHEFILE_EHEADER, "empty input");
	}
}
