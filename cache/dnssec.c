/*
 * cache/dnssec.c - the DNSSEC image of an entry: the RRSIGs of an RRset
 * (then, for a wildcard expansion, the NSEC/NSEC3 records proving it and
 * their RRSIGs: the iterator appends them, resolver/wire/answer.c splits
 * them off again), or the signed SOA and NSEC/NSEC3 records of a
 * negative answer, kept
 * beside the entry's RRs so that a DNSSEC-aware answer can be built from
 * the cache alone (RFC 4035 section 3.1).
 *
 * The cache does not look inside these records; it only makes sure that
 * the image is a run of whole wire RRs (owner in uncompressed wire form,
 * type, class, TTL, RDLENGTH, RDATA inside the image), so that every
 * later walk over it stays inside the entry. The check is the one walk
 * over bytes that come from outside; it is bounded by the length given
 * (each record takes at least 11 bytes) and reads nothing past it.
 *
 * Stored form: the tail of the entry (internal.h): a 2-byte length, then
 * the image as given with every TTL set to 0 (the stored TTL would be
 * wrong after the first second anyway; cache_view shows the zeros). A
 * read copies it and writes the entry's remaining TTL into each record
 * (cache_dnssec_render, inline in internal.h: the read path's).
 * An entry without an image has no tail.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

static size_t get16(const uint8_t *p)
{
	return ((size_t)p[0] << 8) | p[1];
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/**
 * Check a DNSSEC image given to a put, and the status with it.
 * @return CACHE_OK; CACHE_EINVAL (sec out of range); CACHE_ERDATA (NULL
 *   with a length, longer than CACHE_IMAGE_MAX, a record cut short, an
 *   owner that is not an uncompressed wire name, RDATA past the end).
 */
int cache_dnssec_check(const uint8_t *img, size_t len, enum cache_sec sec)
{
	size_t pos = 0, owner = 0, rdlen;

	if ((unsigned)sec > CACHE_SEC_BOGUS)
		return CACHE_EINVAL;
	if (len == 0)
		return CACHE_OK;
	if (img == NULL || len > CACHE_IMAGE_MAX)
		return CACHE_ERDATA;
	while (pos < len) {
		if (cache_name_span(img + pos, len - pos, &owner) != CACHE_OK)
			return CACHE_ERDATA;
		pos += owner;
		if (len - pos < CACHE_RR_FIXED_BYTES)
			return CACHE_ERDATA;
		rdlen = get16(img + pos + CACHE_RR_RDLEN_OFF);
		pos += CACHE_RR_FIXED_BYTES;
		if (len - pos < rdlen)
			return CACHE_ERDATA;
		pos += rdlen;
	}
	return CACHE_OK;
}

/*
 * Walk an image of len bytes, already checked, and count its records;
 * if w is not NULL (a copy of img), write ttl into each record of w.
 * The checks here guard memory against a bug, not against input.
 */
static size_t walk(const uint8_t *img, size_t len, uint8_t *w, uint32_t ttl)
{
	size_t pos = 0, owner = 0, rdlen, n = 0;

	while (pos < len) {
		CACHE_REQUIRE(cache_name_span(img + pos, len - pos, &owner) ==
		              CACHE_OK);
		pos += owner;
		CACHE_REQUIRE(len - pos >= CACHE_RR_FIXED_BYTES);
		if (w != NULL)
			put32(w + pos + CACHE_RR_TTL_OFF, ttl);
		rdlen = get16(img + pos + CACHE_RR_RDLEN_OFF);
		pos += CACHE_RR_FIXED_BYTES;
		CACHE_REQUIRE(len - pos >= rdlen);
		pos += rdlen;
		n++;
	}
	return n;
}

/** Write the tail of a checked image of 1..CACHE_IMAGE_MAX bytes at out
 *  (which holds CACHE_TAIL_LEN_BYTES + len): length, image, TTLs 0. */
void cache_dnssec_store(uint8_t *out, const uint8_t *img, size_t len)
{
	CACHE_REQUIRE(len >= 1 && len <= CACHE_IMAGE_MAX);
	out[0] = (uint8_t)(len >> 8);
	out[1] = (uint8_t)len;
	out += CACHE_TAIL_LEN_BYTES;
	memcpy(out, img, len);
	(void)walk(out, len, out, 0);
}

/** Bytes of the DNSSEC image of e; 0 if it has none. */
size_t cache_entry_dnssec_len(const struct cache_entry *e)
{
	size_t len;

	(void)cache_dnssec_tail(e, &len);
	return len;
}

/** The DNSSEC image of e (NULL if it has none). */
const uint8_t *cache_entry_dnssec(const struct cache_entry *e)
{
	size_t len;

	return cache_dnssec_tail(e, &len);
}

/** Records in the stored image of e. */
size_t cache_dnssec_count(const struct cache_entry *e)
{
	size_t len;
	const uint8_t *img = cache_dnssec_tail(e, &len);

	return walk(img, len, NULL, 0);
}
