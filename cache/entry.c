/*
 * cache/entry.c - one cached entry: its layout, how it is built from a
 * put, how it is written out as wire RRs, and the freshness and rank
 * rules that decide whether it may be replaced.
 *
 * The image is built by this file only, from lengths checked before the
 * build, and every walk over it is bounded by image_len and checked with
 * CACHE_REQUIRE, so a bug cannot make a read run past the entry.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

static size_t get16(const uint8_t *p)
{
	return ((size_t)p[0] << 8) | p[1];
}

static size_t key_bytes(unsigned flags)
{
	return (flags & CACHE_F_CURVE) ? CACHE_SERVER_KEY_BYTES : 0;
}

/* Header + data, and never less than the struct (its tail padding). */
static size_t entry_bytes(size_t data)
{
	size_t n = CACHE_ENTRY_HEADER + data;
	return n < sizeof(struct cache_entry) ? sizeof(struct cache_entry) : n;
}

/* Bytes of the tail that holds a DNSSEC image of len bytes. */
static size_t tail_bytes(size_t len)
{
	return len ? CACHE_TAIL_LEN_BYTES + len : 0;
}

size_t cache_entry_size(const struct cache_entry *e)
{
	return entry_bytes(e->name_len + key_bytes(e->flags) + e->image_len +
	                   tail_bytes(cache_entry_dnssec_len(e)));
}

size_t cache_build_size(const struct cache_build *b)
{
	return entry_bytes(b->name_len + b->image_len +
	                   tail_bytes(b->dnssec_len) +
	                   (b->server_key ? CACHE_SERVER_KEY_BYTES : 0));
}

/** The stored server key, or NULL if learned plain. */
const uint8_t *cache_entry_key(const struct cache_entry *e)
{
	if (!(e->flags & CACHE_F_CURVE))
		return NULL;
	return e->data + e->name_len;
}

/*
 * Bytes cache_entry_render writes. Positive: each RR is owner + fixed
 * part + RDATA, and the image holds RDLENGTH + RDATA per RR. Negative:
 * the image is SOA owner + RDLENGTH + RDATA, the output adds type, class
 * and TTL.
 */
size_t cache_entry_wire_len(const struct cache_entry *e)
{
	if (cache_entry_kind(e) == CACHE_KIND_RRSET)
		return cache_entry_count(e) *
		               (e->name_len + CACHE_RR_FIXED_BYTES - 2) +
		       e->image_len;
	return (size_t)e->image_len + CACHE_RR_FIXED_BYTES - 2;
}

static uint8_t *render_fixed(uint8_t *out, uint16_t type, uint16_t klass,
                             uint32_t ttl)
{
	put16(out, type);
	put16(out + 2, klass);
	put32(out + 4, ttl);
	return out + 8;
}

static void render_positive(const struct cache_entry *e, uint32_t ttl,
                            uint8_t *out)
{
	const uint8_t *img = cache_entry_image(e);
	size_t pos = 0;

	for (size_t i = 0; i < cache_entry_count(e); i++) {
		size_t rr;
		CACHE_REQUIRE(pos + 2 <= e->image_len);
		rr = 2 + get16(img + pos);
		CACHE_REQUIRE(pos + rr <= e->image_len);
		memcpy(out, e->data, e->name_len);
		out = render_fixed(out + e->name_len, e->type, e->klass, ttl);
		memcpy(out, img + pos, rr);
		out += rr;
		pos += rr;
	}
	CACHE_REQUIRE(pos == e->image_len);
}

static void render_negative(const struct cache_entry *e, uint32_t ttl,
                            uint8_t *out)
{
	const uint8_t *img = cache_entry_image(e);
	size_t soa_len = 0;

	CACHE_REQUIRE(cache_name_span(img, e->image_len, &soa_len) ==
	              CACHE_OK);
	CACHE_REQUIRE(soa_len + 2 + get16(img + soa_len) == e->image_len);
	memcpy(out, img, soa_len);
	out = render_fixed(out + soa_len, CACHE_TYPE_SOA, e->klass, ttl);
	memcpy(out, img + soa_len, e->image_len - soa_len);
}

/**
 * Write the entry as wire RRs with the given TTL; out must hold
 * cache_entry_wire_len(e) bytes (the caller checked).
 */
void cache_entry_render(const struct cache_entry *e, uint32_t ttl,
                        uint8_t *out)
{
	if (cache_entry_kind(e) == CACHE_KIND_RRSET)
		render_positive(e, ttl, out);
	else
		render_negative(e, ttl, out);
}

static void fill_image(uint8_t *img, const struct cache_build *b)
{
	size_t pos = 0;

	if (b->kind == CACHE_KIND_RRSET) {
		for (size_t i = 0; i < b->count; i++) {
			size_t len = b->rdata[i].len;
			CACHE_REQUIRE(pos + 2 + len <= b->image_len);
			put16(img + pos, (uint16_t)len);
			if (len)
				memcpy(img + pos + 2, b->rdata[i].data, len);
			pos += 2 + len;
		}
	} else {
		CACHE_REQUIRE(b->soa_name_len + 2 + b->soa_rdlen ==
		              b->image_len);
		memcpy(img, b->soa_name, b->soa_name_len);
		pos = b->soa_name_len;
		put16(img + pos, (uint16_t)b->soa_rdlen);
		memcpy(img + pos + 2, b->soa_rdata, b->soa_rdlen);
		pos += 2 + b->soa_rdlen;
	}
	CACHE_REQUIRE(pos == b->image_len);
}

/** Build an entry in e, which holds cache_build_size(b) bytes. */
void cache_entry_fill(struct cache_entry *e, const struct cache_build *b)
{
	CACHE_REQUIRE(b->name_len >= 1 && b->name_len <= CACHE_NAME_MAX);
	CACHE_REQUIRE(b->image_len <= CACHE_IMAGE_MAX);
	CACHE_REQUIRE(b->dnssec_len <= CACHE_IMAGE_MAX);
	CACHE_REQUIRE(b->count <= CACHE_COUNT_MASK);
	CACHE_REQUIRE((unsigned)b->sec <= CACHE_SEC_BOGUS);
	CACHE_REQUIRE(b->rank >= CACHE_RANK_GLUE);
	CACHE_REQUIRE((unsigned)b->kind <= CACHE_F_KIND_MASK);
	CACHE_REQUIRE(((unsigned)(b->rank - CACHE_RANK_GLUE)
	               << CACHE_F_RANK_SHIFT) <= CACHE_F_RANK_MASK);
	e->chain = e->prev = e->next = NULL;
	e->expire = b->expire;
	e->ttl = b->ttl;
	e->hash = (uint32_t)b->hash;
	e->type = b->type;
	e->klass = b->klass;
	e->image_len = (uint16_t)b->image_len;
	e->count = (uint16_t)(b->count |
	                      (b->dnssec_len ? CACHE_COUNT_TAIL : 0));
	e->name_len = (uint8_t)b->name_len;
	e->ede =
		(uint8_t)((b->via < CACHE_VIA_COUNT ? b->via : CACHE_VIA_PLAIN)
	                  << CACHE_VIA_SHIFT);
	e->flags = (uint8_t)((unsigned)b->kind |
	                     (unsigned)(b->rank - CACHE_RANK_GLUE)
	                             << CACHE_F_RANK_SHIFT |
	                     (unsigned)b->sec << CACHE_F_SEC_SHIFT |
	                     (b->server_key ? CACHE_F_CURVE : 0));
	memcpy(e->data, b->name, b->name_len);
	if (b->server_key)
		memcpy(e->data + b->name_len, b->server_key,
		       CACHE_SERVER_KEY_BYTES);
	fill_image(e->data + b->name_len + key_bytes(e->flags), b);
	if (b->dnssec_len)
		cache_dnssec_store(e->data + b->name_len +
		                           key_bytes(e->flags) + b->image_len,
		                   b->dnssec, b->dnssec_len);
}

/*
 * Does e (assumed fresh) outrank data of this rank, provenance and
 * status? A higher rank does. At equal rank, DNSCurve-learned data
 * outranks plain, and SECURE data outranks data that is not SECURE.
 * A BOGUS entry outranks nothing.
 */
int cache_entry_outranks(const struct cache_entry *e, enum cache_rank rank,
                         int curve, enum cache_sec sec)
{
	enum cache_rank mine = cache_entry_rank(e);
	enum cache_sec esec = cache_entry_sec(e);

	if (esec == CACHE_SEC_BOGUS || mine < rank)
		return 0;
	if (mine > rank)
		return 1;
	return ((e->flags & CACHE_F_CURVE) && !curve) ||
	       (esec == CACHE_SEC_SECURE && sec != CACHE_SEC_SECURE);
}

/* The absolute expiry, rebuilt from its low 32 bits and now. */
time_t cache_entry_expire(const struct cache_entry *e, time_t now)
{
	if (cache_entry_fresh(e, now))
		return cache_time_add(now, cache_entry_left(e, now));
	return cache_time_add(now,
	                      -(int64_t)(uint32_t)((uint32_t)now - e->expire));
}

void cache_entry_view(const struct cache_entry *e, time_t now,
                      struct cache_view *v)
{
	v->name = e->data;
	v->name_len = e->name_len;
	v->kind = cache_entry_kind(e);
	v->rank = cache_entry_rank(e);
	v->type = e->type;
	v->klass = e->klass;
	v->expire = cache_entry_expire(e, now);
	v->ttl = cache_entry_ttl(e, now);
	v->stale = !cache_entry_fresh(e, now);
	v->server_key = cache_entry_key(e);
	v->sec = cache_entry_sec(e);
	v->via = (enum cache_via)(e->ede >> CACHE_VIA_SHIFT);
	v->dnssec_len = cache_entry_dnssec_len(e);
	v->dnssec = v->dnssec_len ? cache_entry_dnssec(e) : NULL;
	v->count = cache_entry_count(e);
	v->wire_len = cache_entry_wire_len(e);
	v->entry = e;
}

int cache_view_render(const struct cache_view *view, uint8_t *buf, size_t cap,
                      size_t *len)
{
	const struct cache_entry *e = view->entry;

	*len = cache_entry_wire_len(e);
	if (*len > cap)
		return CACHE_ESPACE;
	cache_entry_render(e, view->ttl, buf);
	return CACHE_OK;
}
