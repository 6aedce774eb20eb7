/*
 * resolver/policy/localzone.c - the table of local zones: the RFC 6761 /
 * RFC 6303 built-in zones, changed by local-zone lines, and the records
 * of local-data lines (see localzone.h).
 *
 * The built-in zones are added first, then each local-zone line retypes,
 * removes (nodefault) or adds a zone, then the records are added. Nodes
 * are found through an open addressing hash table (FNV-1a of the wire
 * name, linear probing, at most half full).
 */
#include "localzone_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/cachefile.h"
#include "wire/wire.h"

/** First slots of the hash table; it doubles at half full. */
#define LZ_SLOTS_START 256u
/** First elements of a growing array. */
#define LZ_VEC_START 64u
/** FNV-1a, 32 bits. */
#define LZ_FNV_OFFSET 2166136261u
#define LZ_FNV_PRIME 16777619u
/** Largest RDATA of a local record (a long TXT: SPF, DKIM). */
#define LZ_RDATA_MAX 8192u

/** Zones whose names below the apex do not exist (RFC 6761, 6303;
 *  home.arpa., RFC 8375: a home network that runs it sets local-zone:
 *  home.arpa. nodefault or a stub zone). */
static const char *const lz_static_zones[] = {
	"invalid",
	"test",
	"onion",
	"home.arpa",
	"0.in-addr.arpa",
	"10.in-addr.arpa",
	"127.in-addr.arpa",
	"254.169.in-addr.arpa",
	"168.192.in-addr.arpa",
	"2.0.192.in-addr.arpa",
	"100.51.198.in-addr.arpa",
	"113.0.203.in-addr.arpa",
	"255.255.255.255.in-addr.arpa",
	"c.f.ip6.arpa",
	"d.f.ip6.arpa",
	"8.e.f.ip6.arpa",
	"9.e.f.ip6.arpa",
	"a.e.f.ip6.arpa",
	"b.e.f.ip6.arpa",
	"8.b.d.0.1.0.0.2.ip6.arpa",
};

/** Numbered reverse zones: FIRST..LAST.SUFFIX (RFC 1918, RFC 6598). */
static const struct {
	unsigned first, last;
	const char *suffix;
} lz_ranges[] = {
	{ 16, 31, "172.in-addr.arpa" },
	{ 64, 127, "100.in-addr.arpa" },
};

const char *localzone_strerror(int status)
{
	switch (status) {
	case LOCALZONE_OK: return "ok";
	case LOCALZONE_ENOTLOCAL: return "not a local name";
	case LOCALZONE_ESPACE: return "buffer too small";
	case LOCALZONE_EINVAL: return "invalid argument";
	case LOCALZONE_ENOMEM: return "out of memory";
	case LOCALZONE_DROP: return "dropped";
	case LOCALZONE_ETOOMANY: return "too many names";
	default: return "unknown status";
	}
}

/* ------------------------------------------------------------------ */
/* The table                                                           */

static int vec_room(struct lz_vec *v, size_t elem, size_t more)
{
	if (v->n + more > v->cap) {
		size_t cap = v->cap ? v->cap : LZ_VEC_START;
		void *np;

		while (cap < v->n + more)
			cap *= 2;
		np = realloc(v->p, cap * elem);
		if (np == NULL)
			return -1;
		v->p = np;
		v->cap = cap;
	}
	return 0;
}

static uint32_t lz_hash(const uint8_t *name, size_t len)
{
	uint32_t h = LZ_FNV_OFFSET;
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ name[i]) * LZ_FNV_PRIME;
	return h;
}

struct localzone *lz_alloc(void)
{
	struct localzone *lz = calloc(1, sizeof(*lz));

	if (lz == NULL)
		return NULL;
	lz->slots = calloc(LZ_SLOTS_START, sizeof(*lz->slots));
	if (lz->slots == NULL) {
		free(lz);
		return NULL;
	}
	lz->nslots = LZ_SLOTS_START;
	return lz;
}

void localzone_free(struct localzone *lz)
{
	if (lz == NULL)
		return;
	free(lz->nodes.p);
	free(lz->slots);
	free(lz->names.p);
	free(lz->rrs.p);
	free(lz->rdata.p);
	free(lz);
}

size_t localzone_count(const struct localzone *lz)
{
	return lz != NULL ? lz->nzones : 0;
}

/* The slot of a name: its node's, or the empty one it would take. */
static size_t lz_slot(const struct localzone *lz, const uint8_t *name,
                      size_t len)
{
	size_t mask = lz->nslots - 1, i = lz_hash(name, len) & mask;
	const struct lz_node *nodes = lz->nodes.p;

	while (lz->slots[i] != 0) {
		const struct lz_node *n = &nodes[lz->slots[i] - 1];

		if (n->len == len && memcmp(lz_name(lz, n), name, len) == 0)
			break;
		i = (i + 1) & mask;
	}
	return i;
}

const struct lz_node *lz_lookup(const struct localzone *lz,
                                const uint8_t *name, size_t len)
{
	size_t i;

	if (lz == NULL || lz->nodes.n == 0)
		return NULL;
	i = lz_slot(lz, name, len);
	return lz->slots[i] != 0 ? &((const struct lz_node *)
	                                     lz->nodes.p)[lz->slots[i] - 1] :
	                           NULL;
}

static int lz_grow(struct localzone *lz)
{
	size_t ns = lz->nslots * 2, i, j;
	uint32_t *old = lz->slots, *s = calloc(ns, sizeof(*s));
	const struct lz_node *nodes = lz->nodes.p;

	if (s == NULL)
		return -1;
	for (i = 0; i < lz->nslots; i++) {
		const struct lz_node *n;

		if (old[i] == 0)
			continue;
		n = &nodes[old[i] - 1];
		j = lz_hash(lz_name(lz, n), n->len) & (ns - 1);
		while (s[j] != 0)
			j = (j + 1) & (ns - 1);
		s[j] = old[i];
	}
	lz->slots = s;
	lz->nslots = ns;
	free(old);
	return 0;
}

/* Set the filter bit of a name's last label. */
static void lz_tld_set(struct localzone *lz, const uint8_t *name, size_t len)
{
	size_t off = 0, last = 0;
	uint32_t bit;

	while (off < len && name[off] != 0) {
		last = off;
		off += (size_t)name[off] + 1;
	}
	bit = lz_tld_bit(name, last);
	lz->tld[bit / 64] |= (uint64_t)1 << (bit % 64);
}

struct lz_node *lz_node_get(struct localzone *lz, const uint8_t *name,
                            size_t len)
{
	struct lz_node *n;
	size_t i;

	if (len < 2 || len > WIRE_NAME_MAX)
		return NULL;
	i = lz_slot(lz, name, len);
	if (lz->slots[i] != 0)
		return &((struct lz_node *)lz->nodes.p)[lz->slots[i] - 1];
	if (lz->nodes.n >= LOCALZONE_NODES_MAX ||
	    vec_room(&lz->nodes, sizeof(struct lz_node), 1) != 0 ||
	    vec_room(&lz->names, 1, len) != 0)
		return NULL;
	if ((lz->nodes.n + 1) * 2 > lz->nslots) {
		if (lz_grow(lz) != 0)
			return NULL;
		i = lz_slot(lz, name, len);
	}
	n = &((struct lz_node *)lz->nodes.p)[lz->nodes.n];
	memset(n, 0, sizeof(*n));
	n->name = (uint32_t)lz->names.n;
	n->len = (uint8_t)len;
	n->zone = LZ_NONE;
	n->first = n->last = LZ_NO_RR;
	memcpy((uint8_t *)lz->names.p + lz->names.n, name, len);
	lz->names.n += len;
	lz->slots[i] = (uint32_t)++lz->nodes.n;
	lz_tld_set(lz, name, len);
	return n;
}

static bool lz_is_zone(unsigned z)
{
	return z < CFG_LZ_COUNT && z != CFG_LZ_NODEFAULT;
}

void lz_set_zone(struct localzone *lz, struct lz_node *n, unsigned zone)
{
	lz->nzones -= lz_is_zone(n->zone);
	n->zone = (uint8_t)zone;
	lz->nzones += lz_is_zone(zone);
}

int lz_add_rr(struct localzone *lz, struct lz_node *n, uint16_t type,
              uint32_t ttl, const uint8_t *rdata, size_t rdlen)
{
	struct lz_rr *rrs = lz->rrs.p, *r;
	uint32_t i;

	for (i = n->first; i != LZ_NO_RR; i = rrs[i].next)
		if (rrs[i].type == type && rrs[i].rdlen == rdlen &&
		    memcmp((uint8_t *)lz->rdata.p + rrs[i].rdata, rdata,
		           rdlen) == 0)
			return 0; /* given twice */
	if (rdlen > LZ_RDATA_MAX || lz->rrs.n >= LOCALZONE_NODES_MAX ||
	    vec_room(&lz->rrs, sizeof(struct lz_rr), 1) != 0 ||
	    vec_room(&lz->rdata, 1, rdlen) != 0)
		return -1;
	rrs = lz->rrs.p;
	r = &rrs[lz->rrs.n];
	r->next = LZ_NO_RR;
	r->type = type;
	r->rdlen = (uint16_t)rdlen;
	r->ttl = ttl;
	r->rdata = (uint32_t)lz->rdata.n;
	memcpy((uint8_t *)lz->rdata.p + lz->rdata.n, rdata, rdlen);
	lz->rdata.n += rdlen;
	if (n->first == LZ_NO_RR)
		n->first = (uint32_t)lz->rrs.n;
	else
		rrs[n->last].next = (uint32_t)lz->rrs.n;
	n->last = (uint32_t)lz->rrs.n++;
	return 0;
}

int lz_add_data(struct localzone *lz, const struct cfg_local_data *d,
                char *err, size_t errlen)
{
	uint8_t rd[LZ_RDATA_MAX];
	size_t rdlen = 0;
	struct lz_node *n;
	int rc = cachefile_rdata_parse(d->type, d->rdata, d->rdlen, rd,
	                               sizeof rd, &rdlen);

	if (rc != CACHEFILE_OK ||
	    cachefile_rdata_check(d->type, rd, rdlen) != CACHEFILE_OK) {
		snprintf(err, errlen, "local-data: bad RDATA \"%.*s\"",
		         (int)(d->rdlen > 60 ? 60 : d->rdlen), d->rdata);
		return -1;
	}
	n = lz_node_get(lz, d->name, d->namelen);
	if (n == NULL || lz_add_rr(lz, n, d->type, d->ttl, rd, rdlen) != 0) {
		snprintf(err, errlen, "local-data: out of memory or too many");
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Building                                                            */

static int lz_add_text(struct localzone *lz, const char *text, unsigned kind,
                       unsigned flags, unsigned zone)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t len;
	struct lz_node *n;

	if (wire_name_from_text(text, strlen(text), name, &len) != WIRE_OK)
		return -1;
	n = lz_node_get(lz, name, len);
	if (n == NULL)
		return -1;
	n->kind = (uint8_t)kind;
	n->flags |= (uint8_t)flags;
	if (zone != LZ_NONE)
		lz_set_zone(lz, n, zone);
	return 0;
}

/* The reverse names of ::1 and :: are 32 nibble labels under ip6.arpa:
 * both zones, ::1 with its PTR. */
static int lz_add_ip6_nibbles(struct localzone *lz)
{
	char text[80];
	size_t i, p = 0;

	for (i = 0; i < 32; i++) {
		text[p++] = i == 0 ? '1' : '0';
		text[p++] = '.';
	}
	memcpy(text + p, "ip6.arpa", sizeof "ip6.arpa");
	if (lz_add_text(lz, text, LZ_KIND_PLAIN, LZ_F_PTR, CFG_LZ_STATIC) != 0)
		return -1;
	text[0] = '0';
	return lz_add_text(lz, text, LZ_KIND_PLAIN, 0, CFG_LZ_STATIC);
}

static int lz_builtin(struct localzone *lz)
{
	char text[64];
	size_t i;
	unsigned k;

	if (lz_add_text(lz, "localhost", LZ_KIND_LOCALHOST, 0,
	                CFG_LZ_STATIC) != 0 ||
	    lz_add_text(lz, "1.0.0.127.in-addr.arpa", LZ_KIND_PLAIN, LZ_F_PTR,
	                LZ_NONE) != 0)
		return -1;
	for (i = 0; i < sizeof lz_static_zones / sizeof lz_static_zones[0];
	     i++)
		if (lz_add_text(lz, lz_static_zones[i], LZ_KIND_PLAIN, 0,
		                CFG_LZ_STATIC) != 0)
			return -1;
	for (i = 0; i < sizeof lz_ranges / sizeof lz_ranges[0]; i++) {
		for (k = lz_ranges[i].first; k <= lz_ranges[i].last; k++) {
			snprintf(text, sizeof text, "%u.%s", k,
			         lz_ranges[i].suffix);
			if (lz_add_text(lz, text, LZ_KIND_PLAIN, 0,
			                CFG_LZ_STATIC) != 0)
				return -1;
		}
	}
	return lz_add_ip6_nibbles(lz);
}

/* One local-zone line: retype, remove (nodefault) or add a zone. */
static int lz_apply(struct localzone *lz, const struct cfg_local_zone *c)
{
	struct lz_node *n;

	if (c->namelen < 2 || (unsigned)c->type >= CFG_LZ_COUNT)
		return -1;
	if (c->type == CFG_LZ_NODEFAULT) {
		n = (struct lz_node *)lz_lookup(lz, c->name, c->namelen);
		if (n != NULL)
			lz_set_zone(lz, n, LZ_NONE);
		return 0;
	}
	n = lz_node_get(lz, c->name, c->namelen);
	if (n == NULL)
		return -1;
	lz_set_zone(lz, n, c->type);
	return 0;
}

int localzone_new(const struct cfg_local_zone *set, size_t n,
                  struct localzone **out)
{
	struct localzone *lz;
	size_t i;

	if (out == NULL || (set == NULL && n > 0))
		return LOCALZONE_EINVAL;
	lz = lz_alloc();
	if (lz == NULL)
		return LOCALZONE_ENOMEM;
	if (lz_builtin(lz) != 0) {
		localzone_free(lz);
		return LOCALZONE_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		if (lz_apply(lz, &set[i]) != 0) {
			localzone_free(lz);
			return LOCALZONE_EINVAL;
		}
	}
	*out = lz;
	return LOCALZONE_OK;
}

int localzone_build(const struct cfg_local *cl, struct localzone **out,
                    char *err, size_t errlen)
{
	struct localzone *lz = NULL;
	struct cfg_local_zone z;
	struct cfg_local_data d;
	size_t pos = 0;
	int rc = localzone_new(NULL, 0, &lz);

	if (rc != LOCALZONE_OK) {
		snprintf(err, errlen, "local zones: %s",
		         localzone_strerror(rc));
		return rc;
	}
	while (cfg_local_zone_next(cl, &pos, &z)) {
		if (lz_apply(lz, &z) != 0) {
			snprintf(err, errlen,
			         "local-zone: out of memory or "
			         "too many");
			localzone_free(lz);
			return LOCALZONE_ETOOMANY;
		}
	}
	pos = 0;
	while (cfg_local_data_next(cl, &pos, &d)) {
		if (lz_add_data(lz, &d, err, errlen) != 0) {
			localzone_free(lz);
			return LOCALZONE_EINVAL;
		}
	}
	*out = lz;
	return LOCALZONE_OK;
}
