/*
 * resolver/store/cachedb.c - the record image of the Redis tier (see
 * cachedb.h): the key of a question, building an image from the cache,
 * reading one (bounded, MAC first) and storing its entries.
 */
#include "cachedb.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "cache.h"
#include "cachefile.h"
#include "wire/answer.h"
#include "wire/wire.h"

/** What the key hash begins with (so it never equals a MAC input). */
static const uint8_t cachedb_key_domain[] = "curvecache cachedb key";
/** The type of an RRSIG: carried in the DNSSEC images, not an entry. */
#define CACHEDB_TYPE_RRSIG 46
/** Entries of one image: the question, two per CNAME link, the end. */
#define CACHEDB_PAIRS_MAX (2 * ANSWER_CNAME_MAX + 4)
/** Bytes of the text's header line. */
#define CACHEDB_HEADLINE_BYTES 96

const char *cachedb_strerror(int status)
{
	switch (status) {
	case CACHEDB_OK: return "ok";
	case CACHEDB_EMALFORMED: return "malformed record";
	case CACHEDB_EMAGIC: return "not a curvecache record";
	case CACHEDB_EVERSION: return "another record version";
	case CACHEDB_EMAC: return "MAC does not match (another secret?)";
	case CACHEDB_EEXPIRED: return "expired";
	case CACHEDB_EQUESTION: return "record of another question";
	case CACHEDB_ELOAD: return "a record line the cache refused";
	case CACHEDB_EEMPTY: return "nothing to share";
	case CACHEDB_ENOMEM: return "out of memory";
	case CACHEDB_EINVAL: return "invalid argument";
	default: return "unknown status";
	}
}

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	put16(p, (uint16_t)(v >> 16));
	put16(p + 2, (uint16_t)v);
}

static void put64(uint8_t *p, uint64_t v)
{
	put32(p, (uint32_t)(v >> 32));
	put32(p + 4, (uint32_t)v);
}

static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)(p[0] << 8 | p[1]);
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)get16(p) << 16 | get16(p + 2);
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) << 32 | get32(p + 4);
}

void cachedb_key_text(const uint8_t key[CACHEDB_KEY_BYTES],
                      const struct cachedb_question *q,
                      char out[CACHEDB_KEY_TEXT_BYTES])
{
	crypto_generichash_state st;
	uint8_t h[CACHEDB_KEYHASH_BYTES], tail[5], n = (uint8_t)q->qname_len;

	put16(tail, q->qtype);
	put16(tail + 2, q->qclass);
	tail[4] = q->flags;
	crypto_generichash_init(&st, key, CACHEDB_KEY_BYTES, sizeof h);
	crypto_generichash_update(&st, cachedb_key_domain,
	                          sizeof cachedb_key_domain);
	crypto_generichash_update(&st, &n, 1);
	crypto_generichash_update(&st, q->qname, q->qname_len);
	crypto_generichash_update(&st, tail, sizeof tail);
	crypto_generichash_final(&st, h, sizeof h);
	memcpy(out, CACHEDB_KEY_PREFIX, sizeof CACHEDB_KEY_PREFIX - 1);
	sodium_bin2hex(out + sizeof CACHEDB_KEY_PREFIX - 1, 2 * sizeof h + 1,
	               h, sizeof h);
}

/* The header fields, then the bounds: QNAME and TEXT inside len with the
 * MAC after them, exactly. */
static int image_shape(const uint8_t *buf, size_t len, struct cachedb_image *o)
{
	size_t pos;

	if (len <
	    CACHEDB_HEAD_BYTES + CACHEDB_TEXTLEN_BYTES + CACHEDB_MAC_BYTES)
		return CACHEDB_EMALFORMED;
	if (memcmp(buf, CACHEDB_MAGIC, CACHEDB_MAGIC_BYTES) != 0)
		return CACHEDB_EMAGIC;
	o->version = buf[4];
	o->sec = buf[5];
	o->rcode = buf[6];
	o->written = get64(buf + 8);
	o->expires = get64(buf + 16);
	o->qtype = get16(buf + 24);
	o->qclass = get16(buf + 26);
	o->qname_len = buf[28];
	o->qname = buf + CACHEDB_HEAD_BYTES;
	pos = CACHEDB_HEAD_BYTES + o->qname_len;
	if (len - CACHEDB_MAC_BYTES < pos + CACHEDB_TEXTLEN_BYTES)
		return CACHEDB_EMALFORMED;
	o->text_len = get32(buf + pos);
	o->text = (const char *)buf + pos + CACHEDB_TEXTLEN_BYTES;
	if (len - CACHEDB_MAC_BYTES - pos - CACHEDB_TEXTLEN_BYTES !=
	    o->text_len)
		return CACHEDB_EMALFORMED;
	return CACHEDB_OK;
}

int cachedb_image_parse(const uint8_t *buf, size_t len,
                        const uint8_t key[CACHEDB_KEY_BYTES], time_t now,
                        const struct cachedb_question *q,
                        struct cachedb_image *out)
{
	uint8_t mac[CACHEDB_MAC_BYTES];
	int rc;

	if (buf == NULL || key == NULL || out == NULL)
		return CACHEDB_EINVAL;
	memset(out, 0, sizeof *out);
	if (len > CACHEDB_IMAGE_MAX)
		return CACHEDB_EMALFORMED;
	if ((rc = image_shape(buf, len, out)) != CACHEDB_OK)
		return rc;
	crypto_generichash(mac, sizeof mac, buf, len - CACHEDB_MAC_BYTES, key,
	                   CACHEDB_KEY_BYTES);
	if (sodium_memcmp(mac, buf + len - CACHEDB_MAC_BYTES, sizeof mac) != 0)
		return CACHEDB_EMAC;
	if (out->version != CACHEDB_VERSION)
		return CACHEDB_EVERSION;
	if (wire_name_check(out->qname, out->qname_len) != WIRE_OK)
		return CACHEDB_EMALFORMED;
	if (now < 0 || out->expires <= (uint64_t)now)
		return CACHEDB_EEXPIRED;
	if (q != NULL && (q->qtype != out->qtype || q->qclass != out->qclass ||
	                  q->qname_len != out->qname_len ||
	                  memcmp(q->qname, out->qname, q->qname_len) != 0))
		return CACHEDB_EQUESTION;
	return CACHEDB_OK;
}

/* ------------------------------------------------------------------ */
/* Build                                                               */

/** The text being written, after room for the header and QNAME. */
struct cachedb_out {
	uint8_t *p;
	size_t len, cap;
	bool over;
};

static int out_put(void *arg, const char *text, size_t len)
{
	struct cachedb_out *o = arg;
	size_t cap = o->cap;
	uint8_t *np;

	if (o->over || len > CACHEDB_IMAGE_MAX - o->len) {
		o->over = true;
		return 1;
	}
	while (cap - o->len < len + CACHEDB_MAC_BYTES)
		cap *= 2;
	if (cap != o->cap) {
		if ((np = realloc(o->p, cap)) == NULL) {
			o->over = true;
			return 1;
		}
		o->p = np;
		o->cap = cap;
	}
	memcpy(o->p + o->len, text, len);
	o->len += len;
	return 0;
}

/** An entry to write: (name, type). */
struct cachedb_pair {
	const uint8_t *name;
	size_t len;
	uint16_t type;
};

static void pair_add(struct cachedb_pair *ps, size_t *n, const uint8_t *name,
                     size_t len, uint16_t type)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (ps[i].type == type && ps[i].len == len &&
		    memcmp(ps[i].name, name, len) == 0)
			return;
	if (*n < CACHEDB_PAIRS_MAX) {
		ps[*n].name = name;
		ps[*n].len = len;
		ps[*n].type = type;
		(*n)++;
	}
}

/* The entries behind a chase: the question, each RRset of the answer
 * section, each CNAME's target with the question's type. Names are
 * lowered in place (the chase's buffer). */
static size_t chase_pairs(uint8_t *img, size_t len,
                          const struct cachedb_question *q,
                          struct cachedb_pair *ps)
{
	struct answer_rr rr;
	size_t pos = 0, n = 0;

	pair_add(ps, &n, q->qname, q->qname_len, q->qtype);
	while (answer_rr_next(img, len, &pos, &rr)) {
		if (rr.type == CACHEDB_TYPE_RRSIG)
			continue;
		wire_name_lower(img + rr.owner, rr.ownerlen);
		pair_add(ps, &n, img + rr.owner, rr.ownerlen, rr.type);
		if (rr.type == WIRE_TYPE_CNAME &&
		    wire_name_check(img + rr.rdata, rr.rdlen) == WIRE_OK) {
			wire_name_lower(img + rr.rdata, rr.rdlen);
			pair_add(ps, &n, img + rr.rdata, rr.rdlen, q->qtype);
		}
	}
	return n;
}

/* The least TTL of the answer (0: nothing to share). */
static uint32_t answer_least_ttl(const struct answer *a)
{
	struct answer_rr an, ns;
	bool has_an = answer_ttl_min(a->an, a->an_len, &an);
	bool has_ns = answer_ttl_min(a->ns, a->ns_len, &ns);

	if (has_an && has_ns)
		return an.ttl < ns.ttl ? an.ttl : ns.ttl;
	return has_an ? an.ttl : has_ns ? ns.ttl : 0;
}

/* The header and QNAME at the front of o, TEXTLEN after the text, the
 * MAC at the end. */
static void image_seal(struct cachedb_out *o, const struct answer *a,
                       const struct cachedb_question *q, time_t now,
                       uint32_t ttl, size_t text_at,
                       const uint8_t key[CACHEDB_KEY_BYTES])
{
	uint8_t *h = o->p;

	memcpy(h, CACHEDB_MAGIC, CACHEDB_MAGIC_BYTES);
	h[4] = CACHEDB_VERSION;
	h[5] = a->sec;
	h[6] = a->rcode;
	h[7] = q->flags;
	put64(h + 8, (uint64_t)now);
	put64(h + 16, (uint64_t)now + ttl);
	put16(h + 24, q->qtype);
	put16(h + 26, q->qclass);
	h[28] = (uint8_t)q->qname_len;
	memcpy(h + CACHEDB_HEAD_BYTES, q->qname, q->qname_len);
	put32(h + text_at - CACHEDB_TEXTLEN_BYTES,
	      (uint32_t)(o->len - text_at));
	crypto_generichash(o->p + o->len, CACHEDB_MAC_BYTES, o->p, o->len, key,
	                   CACHEDB_KEY_BYTES);
	o->len += CACHEDB_MAC_BYTES;
}

/* The text of the entries of pairs into o (header line first). */
static int image_text(struct cache *c, time_t now, uint16_t qclass,
                      const struct cachedb_pair *ps, size_t n, uint8_t *space,
                      struct cachedb_out *o)
{
	char head[CACHEDB_HEADLINE_BYTES];
	size_t i, found, total = 0;
	int len;

	len = snprintf(head, sizeof head,
	               "; curvecache-dump version=%d time=%" PRId64 "\n",
	               CACHEFILE_VERSION, (int64_t)now);
	if (out_put(o, head, (size_t)len) != 0)
		return CACHEDB_ENOMEM;
	for (i = 0; i < n; i++) {
		if (cachefile_dump_get(c, now, ps[i].name, ps[i].len,
		                       ps[i].type, qclass, space,
		                       CACHEFILE_GET_SCRATCH_BYTES, out_put, o,
		                       &found) != CACHEFILE_OK ||
		    o->over)
			return CACHEDB_EEMPTY;
		total += found;
	}
	return total > 0 ? CACHEDB_OK : CACHEDB_EEMPTY;
}

int cachedb_image_build(struct cache *c, time_t now,
                        const uint8_t key[CACHEDB_KEY_BYTES],
                        const struct cachedb_question *q, uint8_t *scratch,
                        size_t cap, uint8_t **out, size_t *outlen,
                        uint32_t *ttl)
{
	struct answer_chase ch = { c, q->qclass, now, 0, 0, false };
	struct cachedb_pair ps[CACHEDB_PAIRS_MAX];
	struct cachedb_out o = { NULL, 0, 0, false };
	size_t text_at = CACHEDB_HEAD_BYTES + q->qname_len +
	                 CACHEDB_TEXTLEN_BYTES;
	struct answer a;
	int rc = CACHEDB_EEMPTY;

	*out = NULL;
	if (scratch == NULL || cap < CACHEDB_SCRATCH_BYTES)
		return CACHEDB_EINVAL;
	if (answer_chase(&ch, q->qname, q->qname_len, q->qtype, &a, scratch,
	                 CACHEDB_CHASE_BYTES) != ANSWER_OK ||
	    a.rcode == WIRE_RCODE_SERVFAIL || a.sec == CACHE_SEC_BOGUS ||
	    (*ttl = answer_least_ttl(&a)) == 0)
		goto done;
	o.cap = text_at + CACHEDB_HEADLINE_BYTES + CACHEDB_MAC_BYTES;
	if ((o.p = malloc(o.cap)) == NULL) {
		rc = CACHEDB_ENOMEM;
		goto done;
	}
	o.len = text_at;
	rc = image_text(c, now, q->qclass, ps,
	                chase_pairs((uint8_t *)a.an, a.an_len, q, ps),
	                scratch + CACHEDB_CHASE_BYTES, &o);
	if (rc == CACHEDB_OK) {
		image_seal(&o, &a, q, now, *ttl, text_at, key);
		*out = o.p;
		*outlen = o.len;
		o.p = NULL;
	}
done:
	free(o.p);
	return rc;
}

int cachedb_image_load(struct cache *c, struct cachefile_load *reuse,
                       time_t now, const struct cachedb_image *img,
                       size_t *entries)
{
	struct cachefile_load *ld = reuse;
	struct cachefile_load_counts n;
	size_t pos = 0, end;
	int rc;

	if (c == NULL || img == NULL)
		return CACHEDB_EINVAL;
	if (ld != NULL)
		cachefile_load_reset(ld, now);
	else if ((rc = cachefile_load_new(c, now, &ld)) != CACHEFILE_OK)
		return rc == CACHEFILE_ENOMEM ? CACHEDB_ENOMEM :
		                                CACHEDB_EINVAL;
	while (pos < img->text_len) {
		const char *nl = memchr(img->text + pos, '\n',
		                        img->text_len - pos);

		end = nl != NULL ? (size_t)(nl - img->text) : img->text_len;
		(void)cachefile_load_line(ld, img->text + pos, end - pos);
		pos = end + 1;
	}
	cachefile_load_finish(ld);
	cachefile_load_counts(ld, &n);
	if (ld != reuse)
		cachefile_load_free(ld);
	if (entries != NULL)
		*entries = n.entries;
	if (n.bad > 0)
		return CACHEDB_ELOAD;
	return n.entries > 0 || n.kept > 0 ? CACHEDB_OK : CACHEDB_EEMPTY;
}
