/*
 * resolver/policy/localzone.c - RFC 6761 / RFC 6303 zones answered locally, as
 * changed by local-zone lines.
 *
 * The built-in zones are added first, then each local-zone line retypes,
 * removes (nodefault) or adds a zone; the table is then sorted by label
 * count, most first, so the first zone that holds a name is the closest
 * (a transparent corp.test. inside the static test.).
 */
#include "localzone.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/wire.h"

/** Built-in zones: localhost, 20 named, 16 + 64 numbered, 2 nibble. */
#define LZ_BUILTIN_ZONES 103
/** Last labels of the built-in zones: localhost invalid test onion arpa */
#define LZ_BUILTIN_TLDS 5

_Static_assert(LZ_BUILTIN_ZONES + CFG_MAX_LOCAL_ZONES <= LOCALZONE_ZONES_MAX,
               "room for every local-zone line");
_Static_assert(LZ_BUILTIN_TLDS + CFG_MAX_LOCAL_ZONES <= LOCALZONE_TLDS_MAX,
               "room for the last label of every local-zone line");

/** How names below a zone's apex are answered. */
enum lz_kind {
	LZ_STATIC = 0, /**< NXDOMAIN below the apex */
	LZ_LOCALHOST   /**< every name has the loopback addresses */
};

/** One local zone. */
struct lz_zone {
	uint8_t name[WIRE_NAME_MAX];
	size_t len;
	unsigned labels; /**< labels, root excluded */
	enum lz_kind kind;
	enum cfg_lz_type type; /**< static, transparent or refuse */
};

/** A wire name (the PTR localhost names). */
struct lz_name {
	uint8_t name[WIRE_NAME_MAX];
	size_t len;
};

struct localzone {
	struct lz_zone zones[LOCALZONE_ZONES_MAX];
	size_t nzones;
	struct lz_name ptrs[2]; /**< 1.0.0.127 and ::1 reverse */
	size_t nptrs;
	struct lz_name tlds[LOCALZONE_TLDS_MAX]; /**< last labels, as names */
	size_t ntlds;
	struct lz_name localhost;
	struct lz_name nobody; /**< SOA RNAME nobody.invalid. */
};

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

/** SOA timers of every local zone: serial, refresh, retry, expire. */
static const uint32_t lz_soa_timers[4] = { 1, 3600, 1200, 604800 };

static const uint8_t lz_a_loopback[4] = { 127, 0, 0, 1 };
static const uint8_t lz_aaaa_loopback[16] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
};

const char *localzone_strerror(int status)
{
	switch (status) {
	case LOCALZONE_OK: return "ok";
	case LOCALZONE_ENOTLOCAL: return "not a local name";
	case LOCALZONE_ESPACE: return "buffer too small";
	case LOCALZONE_EINVAL: return "invalid argument";
	case LOCALZONE_ENOMEM: return "out of memory";
	default: return "unknown status";
	}
}

/* ------------------------------------------------------------------ */
/* Building the table                                                  */

/* Offsets of the label starts of a wire name; returns the number of
 * labels (root excluded), or -1 when malformed. */
static int lz_labels(const uint8_t *name, size_t len,
                     size_t off[LOCALZONE_LABELS_MAX])
{
	size_t pos = 0;
	int n = 0;

	while (pos < len && name[pos] != 0) {
		if (n >= LOCALZONE_LABELS_MAX || name[pos] > WIRE_LABEL_MAX)
			return -1;
		off[n++] = pos;
		pos += (size_t)name[pos] + 1;
	}
	if (pos + 1 != len)
		return -1;
	return n;
}

static int lz_text(const char *text, struct lz_name *out)
{
	return wire_name_from_text(text, strlen(text), out->name, &out->len) ==
	                       WIRE_OK ?
	               0 :
	               -1;
}

/* Remember the last label of a zone in the TLD filter; -1 when full. */
static int lz_add_tld(struct localzone *lz, const struct lz_zone *z,
                      const size_t *off)
{
	const uint8_t *tld = z->name + off[z->labels - 1];
	size_t tlen = z->len - off[z->labels - 1], i;

	for (i = 0; i < lz->ntlds; i++)
		if (lz->tlds[i].len == tlen &&
		    memcmp(lz->tlds[i].name, tld, tlen) == 0)
			return 0;
	if (lz->ntlds == LOCALZONE_TLDS_MAX)
		return -1;
	memcpy(lz->tlds[lz->ntlds].name, tld, tlen);
	lz->tlds[lz->ntlds++].len = tlen;
	return 0;
}

/* Add a zone (wire name, lowercase); -1 when the table is full. */
static int lz_add_wire(struct localzone *lz, const uint8_t *name, size_t len,
                       enum lz_kind kind, enum cfg_lz_type type)
{
	size_t off[LOCALZONE_LABELS_MAX];
	struct lz_zone *z;
	int labels;

	if (lz->nzones >= LOCALZONE_ZONES_MAX || len > WIRE_NAME_MAX)
		return -1;
	labels = lz_labels(name, len, off);
	if (labels < 1)
		return -1;
	z = &lz->zones[lz->nzones];
	memcpy(z->name, name, len);
	z->len = len;
	z->labels = (unsigned)labels;
	z->kind = kind;
	z->type = type;
	if (lz_add_tld(lz, z, off) != 0)
		return -1;
	lz->nzones++;
	return 0;
}

static int lz_add(struct localzone *lz, const char *text, enum lz_kind kind)
{
	struct lz_name n;

	if (lz_text(text, &n) != 0)
		return -1;
	return lz_add_wire(lz, n.name, n.len, kind, CFG_LZ_STATIC);
}

/* The reverse names of ::1 and :: are 32 nibble labels under ip6.arpa. */
static int lz_add_ip6_nibbles(struct localzone *lz)
{
	char text[80];
	size_t i, p = 0;

	for (i = 0; i < 32; i++) {
		text[p++] = i == 0 ? '1' : '0';
		text[p++] = '.';
	}
	memcpy(text + p, "ip6.arpa", sizeof "ip6.arpa");
	if (lz_text(text, &lz->ptrs[lz->nptrs]) != 0 ||
	    lz_add(lz, text, LZ_STATIC) != 0)
		return -1;
	lz->nptrs++;
	text[0] = '0';
	return lz_add(lz, text, LZ_STATIC);
}

static int lz_build(struct localzone *lz)
{
	char text[64];
	size_t i;
	unsigned k;

	if (lz_add(lz, "localhost", LZ_LOCALHOST) != 0 ||
	    lz_text("localhost", &lz->localhost) != 0 ||
	    lz_text("nobody.invalid", &lz->nobody) != 0 ||
	    lz_text("1.0.0.127.in-addr.arpa", &lz->ptrs[lz->nptrs++]) != 0)
		return -1;
	for (i = 0; i < sizeof lz_static_zones / sizeof lz_static_zones[0];
	     i++)
		if (lz_add(lz, lz_static_zones[i], LZ_STATIC) != 0)
			return -1;
	for (i = 0; i < sizeof lz_ranges / sizeof lz_ranges[0]; i++) {
		for (k = lz_ranges[i].first; k <= lz_ranges[i].last; k++) {
			snprintf(text, sizeof text, "%u.%s", k,
			         lz_ranges[i].suffix);
			if (lz_add(lz, text, LZ_STATIC) != 0)
				return -1;
		}
	}
	return lz_add_ip6_nibbles(lz);
}

/* The zone named exactly so, or NULL. */
static struct lz_zone *lz_exact(struct localzone *lz, const uint8_t *name,
                                size_t len)
{
	size_t i;

	for (i = 0; i < lz->nzones; i++)
		if (lz->zones[i].len == len &&
		    memcmp(lz->zones[i].name, name, len) == 0)
			return &lz->zones[i];
	return NULL;
}

/* One local-zone line: retype, remove or add a zone. */
static int lz_apply(struct localzone *lz, const struct cfg_local_zone *c)
{
	struct lz_zone *z = lz_exact(lz, c->name, c->namelen);

	if (z != NULL && c->type == CFG_LZ_NODEFAULT) {
		*z = lz->zones[--lz->nzones]; /* sorted in localzone_new */
		return 0;
	}
	if (z != NULL) {
		z->type = c->type;
		return 0;
	}
	if (c->type == CFG_LZ_NODEFAULT)
		return 0; /* no built-in zone of that name: nothing to do */
	return lz_add_wire(lz, c->name, c->namelen, LZ_STATIC, c->type);
}

static int lz_by_labels(const void *a, const void *b)
{
	const struct lz_zone *x = a, *y = b;

	return (x->labels < y->labels) - (x->labels > y->labels);
}

int localzone_new(const struct cfg_local_zone *set, size_t n,
                  struct localzone **out)
{
	struct localzone *lz;
	size_t i;

	if (out == NULL || (set == NULL && n > 0) || n > CFG_MAX_LOCAL_ZONES)
		return LOCALZONE_EINVAL;
	lz = calloc(1, sizeof(*lz));
	if (lz == NULL)
		return LOCALZONE_ENOMEM;
	if (lz_build(lz) != 0) {
		free(lz);
		return LOCALZONE_EINVAL;
	}
	for (i = 0; i < n; i++) {
		if (lz_apply(lz, &set[i]) != 0) {
			free(lz);
			return LOCALZONE_EINVAL;
		}
	}
	qsort(lz->zones, lz->nzones, sizeof(lz->zones[0]), lz_by_labels);
	*out = lz;
	return LOCALZONE_OK;
}

size_t localzone_count(const struct localzone *lz)
{
	return lz != NULL ? lz->nzones : 0;
}

void localzone_free(struct localzone *lz)
{
	free(lz);
}

/* ------------------------------------------------------------------ */
/* Lookup                                                              */

/* The closest zone holding a name (zones are sorted, most labels
 * first), or NULL. */
static const struct lz_zone *lz_find(const struct localzone *lz,
                                     const uint8_t *name, size_t len)
{
	size_t off[LOCALZONE_LABELS_MAX], i, tail;
	int n;

	if (name == NULL || len < 2 || len > WIRE_NAME_MAX)
		return NULL;
	n = lz_labels(name, len, off);
	if (n < 1)
		return NULL;
	tail = len - off[n - 1];
	for (i = 0; i < lz->ntlds; i++)
		if (lz->tlds[i].len == tail &&
		    memcmp(lz->tlds[i].name, name + off[n - 1], tail) == 0)
			break;
	if (i == lz->ntlds)
		return NULL;
	for (i = 0; i < lz->nzones; i++) {
		const struct lz_zone *z = &lz->zones[i];

		if (z->labels <= (unsigned)n &&
		    len - off[(unsigned)n - z->labels] == z->len &&
		    memcmp(name + off[(unsigned)n - z->labels], z->name,
		           z->len) == 0)
			return z;
	}
	return NULL;
}

bool localzone_match(const struct localzone *lz, const uint8_t *lname,
                     size_t len)
{
	const struct lz_zone *z;

	if (lz == NULL)
		return false;
	z = lz_find(lz, lname, len);
	return z != NULL && z->type != CFG_LZ_TRANSPARENT;
}

static bool lz_is_ptr(const struct localzone *lz, const uint8_t *name,
                      size_t len)
{
	size_t i;

	for (i = 0; i < lz->nptrs; i++)
		if (lz->ptrs[i].len == len &&
		    memcmp(lz->ptrs[i].name, name, len) == 0)
			return true;
	return false;
}

/** An image being written into the caller's buffer. */
struct lz_out {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int err; /**< set once anything did not fit */
};

/* One record image with TTL LOCALZONE_TTL; *count goes up. */
static void out_rr(struct lz_out *o, const uint8_t *owner, size_t olen,
                   uint16_t type, const uint8_t *rdata, size_t rdlen,
                   uint16_t *count)
{
	if (o->err ||
	    !answer_rr_append(o->buf, o->cap, &o->len, owner, olen, type,
	                      WIRE_CLASS_IN, LOCALZONE_TTL, rdata, rdlen))
		o->err = 1;
	else
		(*count)++;
}

static void out_soa(struct lz_out *o, const struct localzone *lz,
                    const struct lz_zone *z, uint16_t *count)
{
	uint8_t rd[2 * WIRE_NAME_MAX + 20];
	struct wire_writer r;
	bool ok;
	size_t i;

	wire_writer_init(&r, rd, sizeof rd);
	ok = wire_write_bytes(&r, z->name, z->len) == WIRE_OK &&
	     wire_write_bytes(&r, lz->nobody.name, lz->nobody.len) == WIRE_OK;
	for (i = 0; i < 4; i++)
		ok = ok && wire_write_u32(&r, lz_soa_timers[i]) == WIRE_OK;
	if (!ok || wire_write_u32(&r, LOCALZONE_TTL) != WIRE_OK) {
		o->err = 1;
		return;
	}
	out_rr(o, z->name, z->len, WIRE_TYPE_SOA, rd, r.len, count);
}

/* Positive records for (name, qtype); *count says how many. */
static void lz_positive(const struct localzone *lz, const struct lz_zone *z,
                        const uint8_t *name, size_t len, uint16_t qtype,
                        struct lz_out *o, uint16_t *count)
{
	bool any = qtype == WIRE_TYPE_ANY, apex = len == z->len;

	if (apex && (any || qtype == WIRE_TYPE_SOA))
		out_soa(o, lz, z, count);
	if (apex && (any || qtype == WIRE_TYPE_NS))
		out_rr(o, z->name, z->len, WIRE_TYPE_NS, z->name, z->len,
		       count);
	if (z->kind == LZ_LOCALHOST && (any || qtype == WIRE_TYPE_A))
		out_rr(o, name, len, WIRE_TYPE_A, lz_a_loopback,
		       sizeof lz_a_loopback, count);
	if (z->kind == LZ_LOCALHOST && (any || qtype == WIRE_TYPE_AAAA))
		out_rr(o, name, len, WIRE_TYPE_AAAA, lz_aaaa_loopback,
		       sizeof lz_aaaa_loopback, count);
	if ((any || qtype == WIRE_TYPE_PTR) && lz_is_ptr(lz, name, len))
		out_rr(o, name, len, WIRE_TYPE_PTR, lz->localhost.name,
		       lz->localhost.len, count);
}

int localzone_answer(const struct localzone *lz, const uint8_t *lname,
                     size_t len, uint16_t qtype, uint16_t qclass,
                     struct answer *a, uint8_t *buf, size_t cap)
{
	const struct lz_zone *z;
	struct lz_out o = { buf, cap, 0, 0 };
	uint16_t an = 0, ns = 0;
	bool exists;

	if (lz == NULL || a == NULL || buf == NULL)
		return LOCALZONE_EINVAL;
	if (qclass != WIRE_CLASS_IN && qclass != WIRE_CLASS_ANY)
		return LOCALZONE_ENOTLOCAL;
	z = lz_find(lz, lname, len);
	if (z == NULL || z->type == CFG_LZ_TRANSPARENT)
		return LOCALZONE_ENOTLOCAL;
	memset(a, 0, sizeof(*a));
	a->an = buf;
	if (z->type == CFG_LZ_REFUSE) {
		a->rcode = WIRE_RCODE_REFUSED;
		return LOCALZONE_OK;
	}
	lz_positive(lz, z, lname, len, qtype, &o, &an);
	a->an_len = o.len;
	a->an_count = an;
	if (an == 0) {
		exists = len == z->len || z->kind == LZ_LOCALHOST ||
		         lz_is_ptr(lz, lname, len);
		a->rcode = exists ? WIRE_RCODE_NOERROR : WIRE_RCODE_NXDOMAIN;
		out_soa(&o, lz, z, &ns);
		a->ns = buf + a->an_len;
		a->ns_len = o.len - a->an_len;
		a->ns_count = ns;
	}
	return o.err ? LOCALZONE_ESPACE : LOCALZONE_OK;
}
