/*
 * cache/name.c - names and the bucket hash.
 *
 * Names reach the cache in canonical wire form from resolver/wire.c;
 * still, every public entry point checks them here (lengths, label
 * structure, no upper case), because the rest of cache/ walks their
 * labels. The hash is SipHash-1-3 under a key the daemon picks at random,
 * so that names cannot be chosen to fall into one chain; SipHash-2-4 is
 * here too, for the reference test vector that checks the shared core.
 */
#include "config.h"

#include <string.h>

#include "internal.h"

#define SIP_ROTL(x, b) (uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

struct sip_state {
	uint64_t v0, v1, v2, v3;
};

static inline void sip_round(struct sip_state *s)
{
	s->v0 += s->v1;
	s->v1 = SIP_ROTL(s->v1, 13);
	s->v1 ^= s->v0;
	s->v0 = SIP_ROTL(s->v0, 32);
	s->v2 += s->v3;
	s->v3 = SIP_ROTL(s->v3, 16);
	s->v3 ^= s->v2;
	s->v0 += s->v3;
	s->v3 = SIP_ROTL(s->v3, 21);
	s->v3 ^= s->v0;
	s->v2 += s->v1;
	s->v1 = SIP_ROTL(s->v1, 17);
	s->v1 ^= s->v2;
	s->v2 = SIP_ROTL(s->v2, 32);
}

static inline uint64_t load_le64(const uint8_t *p)
{
	return (uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16 |
	       (uint64_t)p[3] << 24 | (uint64_t)p[4] << 32 |
	       (uint64_t)p[5] << 40 | (uint64_t)p[6] << 48 |
	       (uint64_t)p[7] << 56;
}

static inline void sip_absorb(struct sip_state *s, uint64_t m, int crounds)
{
	s->v3 ^= m;
	for (int i = 0; i < crounds; i++)
		sip_round(s);
	s->v0 ^= m;
}

static uint64_t siphash(const uint64_t key[2], const uint8_t *m, size_t n,
                        int crounds, int drounds)
{
	struct sip_state s = {
		key[0] ^ UINT64_C(0x736f6d6570736575),
		key[1] ^ UINT64_C(0x646f72616e646f6d),
		key[0] ^ UINT64_C(0x6c7967656e657261),
		key[1] ^ UINT64_C(0x7465646279746573),
	};
	size_t whole = n & ~(size_t)7;
	uint64_t last = (uint64_t)n << 56;

	for (size_t i = 0; i < whole; i += 8)
		sip_absorb(&s, load_le64(m + i), crounds);
	for (size_t i = 0; i < (n & 7); i++)
		last |= (uint64_t)m[whole + i] << (8 * i);
	sip_absorb(&s, last, crounds);
	s.v2 ^= 0xff;
	for (int i = 0; i < drounds; i++)
		sip_round(&s);
	return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}

/*
 * The last name this thread hashed and the last it found canonical: a
 * question reads and writes one name several times in a row (the type,
 * its CNAME, in the front and the iterator, the zone cut walk's first
 * step, the answer's put), so a name equal byte for byte to the last one
 * is neither hashed nor checked again. Both are pure functions of the
 * bytes (the hash also of the key, compared too): never stale.
 */
struct name_memo {
	uint64_t key[2];
	uint64_t hash;
	size_t hash_len, ok_len; /**< 0: none */
	uint8_t hash_name[CACHE_NAME_MAX];
	uint8_t ok_name[CACHE_NAME_MAX];
};

static _Thread_local struct name_memo name_memo_t;

/* Via a call (GCC 12's UBSan sees a thread-local's address as NULL). */
static __attribute__((noinline)) struct name_memo *name_memo_of(void)
{
	return &name_memo_t;
}

uint64_t cache_siphash13(const uint64_t key[2], const uint8_t *m, size_t n)
{
	struct name_memo *nm;

	if (n == 0 || n > CACHE_NAME_MAX)
		return siphash(key, m, n, 1, 3);
	nm = name_memo_of();
	if (nm->hash_len == n && nm->key[0] == key[0] &&
	    nm->key[1] == key[1] && memcmp(nm->hash_name, m, n) == 0)
		return nm->hash;
	nm->hash = siphash(key, m, n, 1, 3);
	nm->key[0] = key[0];
	nm->key[1] = key[1];
	memcpy(nm->hash_name, m, n);
	nm->hash_len = n;
	return nm->hash;
}

uint64_t cache_siphash24(const uint64_t key[2], const uint8_t *m, size_t n)
{
	return siphash(key, m, n, 2, 4);
}

/*
 * Measure a wire name (any case) that starts at p and may use up to
 * avail bytes: labels of 1..63 bytes, then the root label.
 */
int cache_name_span(const uint8_t *p, size_t avail, size_t *len)
{
	size_t pos = 0;

	if (avail > CACHE_NAME_MAX)
		avail = CACHE_NAME_MAX;
	while (pos < avail) {
		uint8_t l = p[pos];
		if (l == 0) {
			*len = pos + 1;
			return CACHE_OK;
		}
		if (l > CACHE_LABEL_MAX)
			return CACHE_ENAME;
		pos += 1 + (size_t)l;
	}
	return CACHE_ENAME;
}

/** Bytes of a word, each 0x01. */
#define ONES UINT64_C(0x0101010101010101)

/*
 * Does any byte of x lie strictly between 'A' - 1 and 'Z' + 1? (The
 * "has byte between" word trick: exact for all byte values.)
 */
static inline uint64_t word_has_upper(uint64_t x)
{
	uint64_t low7 = x & ONES * 127;
	return (ONES * (127 + 'Z' + 1) - low7) & ~x &
	       (low7 + ONES * (127 - ('A' - 1))) & ONES * 128;
}

/*
 * Upper-case ASCII anywhere in the name? Length bytes are at most 63,
 * never 'A'..'Z' (65..90), so one pass over every byte, a word at a time,
 * needs no label walk.
 */
static int name_has_upper(const uint8_t *name, size_t len)
{
	uint64_t hit = 0, w;
	size_t i = 0;

	if (len < 8) {
		for (; i < len; i++)
			hit |= (uint8_t)(name[i] - 'A') < 26;
		return hit != 0;
	}
	for (; i + 8 <= len; i += 8) {
		memcpy(&w, name + i, 8);
		hit |= word_has_upper(w);
	}
	if (i < len) { /* the last 8 bytes, overlapping what was seen */
		memcpy(&w, name + len - 8, 8);
		hit |= word_has_upper(w);
	}
	return hit != 0;
}

int cache_name_check(const uint8_t *name, size_t len)
{
	struct name_memo *nm;
	size_t pos = 0;

	if (name == NULL || len == 0 || len > CACHE_NAME_MAX)
		return CACHE_ENAME;
	nm = name_memo_of();
	if (nm->ok_len == len && memcmp(nm->ok_name, name, len) == 0)
		return CACHE_OK;
	if (name_has_upper(name, len))
		return CACHE_ENAME;
	while (pos < len) {
		uint8_t l = name[pos];
		if (l == 0 && pos + 1 != len)
			return CACHE_ENAME;
		if (l == 0) {
			memcpy(nm->ok_name, name, len);
			nm->ok_len = len;
			return CACHE_OK;
		}
		/* The label and at least the root label must fit. */
		if (l > CACHE_LABEL_MAX || pos + 1 + (size_t)l >= len)
			return CACHE_ENAME;
		pos += 1 + (size_t)l;
	}
	return CACHE_ENAME;
}

/*
 * Is name (checked) equal to zone (checked) or below it? Compares at
 * every label boundary of name, so "xexample.com" is not below
 * "example.com".
 */
int cache_name_below(const uint8_t *name, size_t len, const uint8_t *zone,
                     size_t zone_len)
{
	size_t pos = 0;

	while (pos < len) {
		if (len - pos == zone_len &&
		    memcmp(name + pos, zone, zone_len) == 0)
			return 1;
		if (len - pos < zone_len || name[pos] == 0)
			return 0;
		pos += 1 + (size_t)name[pos];
	}
	return 0;
}

/*
 * Types that may be cached: not 0 (our NXDOMAIN key), not OPT (41), not
 * the query-only and meta types TKEY..ANY (249..255).
 */
int cache_type_check(uint16_t type)
{
	if (type == 0 || type == 41 || (type >= 249 && type <= 255))
		return CACHE_ETYPE;
	return CACHE_OK;
}
