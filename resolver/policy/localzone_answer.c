/*
 * resolver/policy/localzone_answer.c - answering a question from the local
 * zones (see localzone.h): the closest zone at or above the name (the
 * runtime table first, then the configured one), the records of the name,
 * and what the zone's type makes of them.
 */
#include "localzone_int.h"

#include <string.h>

#include "wire/wire.h"

/** SOA timers of every local zone: serial, refresh, retry, expire. */
static const uint32_t lz_soa_timers[4] = { 1, 3600, 1200, 604800 };
/** SOA RNAME of the local zones, nobody.invalid. */
static const uint8_t lz_nobody[] = "\6nobody\7invalid";
static const uint8_t lz_localhost[] = "\11localhost";

static const uint8_t lz_a_loopback[4] = { 127, 0, 0, 1 };
static const uint8_t lz_aaaa_loopback[16] = {
	0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1,
};
static const uint8_t lz_null[16] = { 0 };
/** Bytes of an IPv4 and an IPv6 address. */
#define LZ_A_BYTES 4
#define LZ_AAAA_BYTES 16

/** What the lookup found for a name. */
struct lz_found {
	const struct localzone *ztab; /**< the zone's table */
	const struct lz_node *zone;   /**< closest zone, or NULL */
	unsigned type;                /**< its type (transparent if none) */
	const struct localzone *dtab; /**< the data's table */
	const struct lz_node *data;   /**< the name's node with records */
};

/** An image being written into the caller's buffer. */
struct lz_out {
	uint8_t *buf;
	size_t cap;
	size_t len;
	int err; /**< set once anything did not fit */
	uint16_t count;
};

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

static bool has_data(const struct lz_node *n)
{
	return n != NULL && (n->first != LZ_NO_RR || (n->flags & LZ_F_PTR) ||
	                     (n->flags & LZ_F_DATASET));
}

static bool lz_zone_here(const struct lz_node *n)
{
	return n->zone < CFG_LZ_COUNT && n->zone != CFG_LZ_NODEFAULT;
}

/* The closest zone and the name's data, the runtime table rt first.
 * false when the name is malformed. */
static bool lz_find(const struct localzone *lz, const struct localzone *rt,
                    const uint8_t *name, size_t len, struct lz_found *f)
{
	size_t off[LOCALZONE_LABELS_MAX];
	int n = lz_labels(name, len, off), i;
	uint32_t bit;

	memset(f, 0, sizeof(*f));
	f->type = CFG_LZ_TRANSPARENT;
	if (n < 1)
		return false;
	bit = lz_tld_bit(name, off[n - 1]);
	if (!lz_tld_has(lz, bit) && !lz_tld_has(rt, bit))
		return true; /* no local name ends so */
	for (i = 0; i < n; i++) {
		const struct lz_node *r = lz_lookup(rt, name + off[i],
		                                    len - off[i]);
		const struct lz_node *b = lz_lookup(lz, name + off[i],
		                                    len - off[i]);

		if (i == 0) {
			f->data = has_data(r) ? r : b;
			f->dtab = has_data(r) ? rt : lz;
		}
		if (r != NULL && r->zone == LZ_REMOVED)
			continue; /* hides the configured zone here */
		if (r != NULL && lz_zone_here(r)) {
			f->zone = r;
			f->ztab = rt;
		} else if (b != NULL && lz_zone_here(b)) {
			f->zone = b;
			f->ztab = lz;
		} else {
			continue;
		}
		f->type = f->zone->zone;
		break;
	}
	return true;
}

/* One record image; o->count goes up. */
static void out_rr(struct lz_out *o, const uint8_t *owner, size_t olen,
                   uint16_t type, uint32_t ttl, const uint8_t *rdata,
                   size_t rdlen)
{
	if (o->err || o->count == UINT16_MAX ||
	    !answer_rr_append(o->buf, o->cap, &o->len, owner, olen, type,
	                      WIRE_CLASS_IN, ttl, rdata, rdlen))
		o->err = 1;
	else
		o->count++;
}

static void out_soa(struct lz_out *o, const struct lz_found *f)
{
	const uint8_t *zn = lz_name(f->ztab, f->zone);
	uint8_t rd[2 * WIRE_NAME_MAX + 20];
	struct wire_writer r;
	bool ok;
	size_t i;

	wire_writer_init(&r, rd, sizeof rd);
	ok = wire_write_bytes(&r, zn, f->zone->len) == WIRE_OK &&
	     wire_write_bytes(&r, lz_nobody, sizeof lz_nobody) == WIRE_OK;
	for (i = 0; i < 4; i++)
		ok = ok && wire_write_u32(&r, lz_soa_timers[i]) == WIRE_OK;
	if (!ok || wire_write_u32(&r, LOCALZONE_TTL) != WIRE_OK) {
		o->err = 1;
		return;
	}
	out_rr(o, zn, f->zone->len, WIRE_TYPE_SOA, LOCALZONE_TTL, rd, r.len);
}

/* The records of node n of type qtype (ANY: all; a CNAME answers any
 * type), written with the owner name given. */
static void out_data(struct lz_out *o, const struct localzone *t,
                     const struct lz_node *n, const uint8_t *owner,
                     size_t olen, uint16_t qtype)
{
	const struct lz_rr *rrs = t->rrs.p;
	uint32_t i;
	int pass;

	for (pass = 0; pass < 2 && o->count == 0; pass++) {
		uint16_t want = pass == 0 ? qtype : WIRE_TYPE_CNAME;

		for (i = n->first; i != LZ_NO_RR; i = rrs[i].next)
			if (want == WIRE_TYPE_ANY || rrs[i].type == want)
				out_rr(o, owner, olen, rrs[i].type, rrs[i].ttl,
				       (const uint8_t *)t->rdata.p +
				               rrs[i].rdata,
				       rrs[i].rdlen);
	}
}

/* The built-in records of a static zone: SOA and NS at the apex, the
 * localhost addresses, the loopback PTRs. */
static void out_builtin(struct lz_out *o, const struct lz_found *f,
                        const uint8_t *name, size_t len, uint16_t qtype)
{
	bool any = qtype == WIRE_TYPE_ANY, apex = len == f->zone->len;

	if (apex && (any || qtype == WIRE_TYPE_SOA))
		out_soa(o, f);
	if (apex && (any || qtype == WIRE_TYPE_NS))
		out_rr(o, name, len, WIRE_TYPE_NS, LOCALZONE_TTL, name, len);
	if (f->zone->kind == LZ_KIND_LOCALHOST &&
	    (any || qtype == WIRE_TYPE_A))
		out_rr(o, name, len, WIRE_TYPE_A, LOCALZONE_TTL, lz_a_loopback,
		       sizeof lz_a_loopback);
	if (f->zone->kind == LZ_KIND_LOCALHOST &&
	    (any || qtype == WIRE_TYPE_AAAA))
		out_rr(o, name, len, WIRE_TYPE_AAAA, LOCALZONE_TTL,
		       lz_aaaa_loopback, sizeof lz_aaaa_loopback);
	if (f->data != NULL && (f->data->flags & LZ_F_PTR) &&
	    (any || qtype == WIRE_TYPE_PTR))
		out_rr(o, name, len, WIRE_TYPE_PTR, LOCALZONE_TTL,
		       lz_localhost, sizeof lz_localhost);
}

/* A negative answer: rcode, the zone's SOA in the authority section. */
static int lz_negative(struct answer *a, struct lz_out *o,
                       const struct lz_found *f, uint8_t rcode)
{
	a->rcode = rcode;
	a->an_count = 0;
	a->an_len = 0;
	o->count = 0;
	if (f->zone != NULL)
		out_soa(o, f);
	a->ns = o->buf;
	a->ns_len = o->len;
	a->ns_count = o->count;
	return o->err ? LOCALZONE_ESPACE : LOCALZONE_OK;
}

static int lz_positive(struct answer *a, struct lz_out *o)
{
	a->an = o->buf;
	a->an_len = o->len;
	a->an_count = o->count;
	return o->err ? LOCALZONE_ESPACE : LOCALZONE_OK;
}

/* always_null: the null address of A and AAAA, else NODATA. */
static int lz_null_answer(struct answer *a, struct lz_out *o,
                          const struct lz_found *f, const uint8_t *name,
                          size_t len, uint16_t qtype)
{
	if (qtype == WIRE_TYPE_A || qtype == WIRE_TYPE_ANY)
		out_rr(o, name, len, WIRE_TYPE_A, LOCALZONE_TTL, lz_null,
		       LZ_A_BYTES);
	if (qtype == WIRE_TYPE_AAAA || qtype == WIRE_TYPE_ANY)
		out_rr(o, name, len, WIRE_TYPE_AAAA, LOCALZONE_TTL, lz_null,
		       LZ_AAAA_BYTES);
	if (o->count == 0)
		return lz_negative(a, o, f, WIRE_RCODE_NOERROR);
	return lz_positive(a, o);
}

/* The always_ types, which ignore local data; ENOTLOCAL for the rest. */
static int lz_always(struct answer *a, struct lz_out *o,
                     const struct lz_found *f, const uint8_t *name, size_t len,
                     uint16_t qtype)
{
	switch (f->type) {
	case CFG_LZ_ALWAYS_REFUSE:
		a->rcode = WIRE_RCODE_REFUSED;
		return LOCALZONE_OK;
	case CFG_LZ_ALWAYS_NXDOMAIN:
		return lz_negative(a, o, f, WIRE_RCODE_NXDOMAIN);
	case CFG_LZ_ALWAYS_NODATA:
		return lz_negative(a, o, f, WIRE_RCODE_NOERROR);
	case CFG_LZ_ALWAYS_DENY: return LOCALZONE_DROP;
	case CFG_LZ_ALWAYS_NULL:
		return lz_null_answer(a, o, f, name, len, qtype);
	default: return LOCALZONE_ENOTLOCAL;
	}
}

/* The name has records (of some type). */
static int lz_with_data(struct answer *a, struct lz_out *o,
                        const struct lz_found *f, const uint8_t *name,
                        size_t len, uint16_t qtype)
{
	out_data(o, f->dtab, f->data, name, len, qtype);
	if (o->count == 0 && f->type == CFG_LZ_STATIC && f->zone != NULL)
		out_builtin(o, f, name, len, qtype);
	if (o->count > 0)
		return lz_positive(a, o);
	if (f->type == CFG_LZ_TYPETRANSPARENT)
		return LOCALZONE_ENOTLOCAL;
	return lz_negative(a, o, f, WIRE_RCODE_NOERROR);
}

/* No records at the name: what the zone's type answers. */
static int lz_without_data(struct answer *a, struct lz_out *o,
                           const struct lz_found *f, const uint8_t *name,
                           size_t len, uint16_t qtype)
{
	switch (f->type) {
	case CFG_LZ_STATIC:
		out_builtin(o, f, name, len, qtype);
		if (o->count > 0)
			return lz_positive(a, o);
		return lz_negative(a, o, f,
		                   len == f->zone->len ||
		                                   f->zone->kind ==
		                                           LZ_KIND_LOCALHOST ?
		                           WIRE_RCODE_NOERROR :
		                           WIRE_RCODE_NXDOMAIN);
	case CFG_LZ_REFUSE: a->rcode = WIRE_RCODE_REFUSED; return LOCALZONE_OK;
	case CFG_LZ_DENY:
	case CFG_LZ_INFORM_DENY: return LOCALZONE_DROP;
	case CFG_LZ_REDIRECT:
	case CFG_LZ_INFORM_REDIRECT:
		if (f->zone->first == LZ_NO_RR)
			return lz_negative(a, o, f, WIRE_RCODE_NXDOMAIN);
		out_data(o, f->ztab, f->zone, name, len, qtype);
		if (o->count > 0)
			return lz_positive(a, o);
		return lz_negative(a, o, f, WIRE_RCODE_NOERROR);
	default: return LOCALZONE_ENOTLOCAL; /* the transparent ones */
	}
}

static bool lz_inform(unsigned type)
{
	return type == CFG_LZ_INFORM || type == CFG_LZ_INFORM_DENY ||
	       type == CFG_LZ_INFORM_REDIRECT;
}

int localzone_answer2(const struct localzone *lz, const uint8_t *lname,
                      size_t len, uint16_t qtype, uint16_t qclass,
                      struct answer *a, uint8_t *buf, size_t cap,
                      unsigned *flags)
{
	const struct localzone *rt = localzone_rt_table();
	struct lz_out o = { buf, cap, 0, 0, 0 };
	struct lz_found f;
	int rc;

	if (flags != NULL)
		*flags = 0;
	if (lz == NULL || a == NULL || buf == NULL)
		return LOCALZONE_EINVAL;
	if (qclass != WIRE_CLASS_IN && qclass != WIRE_CLASS_ANY)
		return LOCALZONE_ENOTLOCAL;
	if (lname == NULL || len < 2 || len > WIRE_NAME_MAX ||
	    !lz_find(lz, rt != lz ? rt : NULL, lname, len, &f))
		return LOCALZONE_ENOTLOCAL;
	if (f.zone == NULL && !has_data(f.data))
		return LOCALZONE_ENOTLOCAL;
	if (flags != NULL && lz_inform(f.type))
		*flags = LOCALZONE_INFORM;
	memset(a, 0, sizeof(*a));
	a->an = buf;
	rc = lz_always(a, &o, &f, lname, len, qtype);
	if (rc != LOCALZONE_ENOTLOCAL || f.type == CFG_LZ_ALWAYS_TRANSPARENT)
		return rc;
	if (has_data(f.data) &&
	    (f.data->first != LZ_NO_RR || (f.data->flags & LZ_F_PTR)))
		return lz_with_data(a, &o, &f, lname, len, qtype);
	return lz_without_data(a, &o, &f, lname, len, qtype);
}

int localzone_answer(const struct localzone *lz, const uint8_t *lname,
                     size_t len, uint16_t qtype, uint16_t qclass,
                     struct answer *a, uint8_t *buf, size_t cap)
{
	return localzone_answer2(lz, lname, len, qtype, qclass, a, buf, cap,
	                         NULL);
}

bool localzone_match(const struct localzone *lz, const uint8_t *lname,
                     size_t len)
{
	struct lz_found f;

	if (lz == NULL || lname == NULL || len < 2 || len > WIRE_NAME_MAX ||
	    !lz_find(lz, localzone_rt_table(), lname, len, &f) ||
	    f.zone == NULL)
		return false;
	switch (f.type) {
	case CFG_LZ_TRANSPARENT:
	case CFG_LZ_TYPETRANSPARENT:
	case CFG_LZ_INFORM:
	case CFG_LZ_NOVIEW:
	case CFG_LZ_ALWAYS_TRANSPARENT: return false;
	default: return true;
	}
}
