/*
 * resolver/iter/iter_util.c - iterator helpers: wire names, RDATA expansion,
 * the answer image of a resolution and a zone cut's room for servers.
 *
 * Names here are uncompressed wire names that resolver/wire/wire.c produced
 * (checked); RDATA is read from parsed messages with the bounded reader
 * only.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "base/netaddr.h"
#include "infra/hints.h"
#include "iter_int.h"

/** Bytes before the name in MX RDATA (preference). */
#define ITER_MX_SKIP 2
/** Bytes before the name in SRV RDATA (priority, weight, port). */
#define ITER_SRV_SKIP 6
/** Bytes of the five SOA counters. */
#define ITER_SOA_COUNTERS 20
/** Largest TTL taken as is (RFC 2181 section 8). */
#define ITER_TTL_MAX 0x7fffffffu
/* ITER_NS_ROOM_FIRST: NS entries of a zone's first room (most zones
 * have two to four servers; it doubles up to ITER_NS_MAX). A frame holds
 * only the room its zone uses: with ITER_NS_MAX entries inline (6.4 KB),
 * each frame in flight made ~5.5 KB resident for the ~1.5 KB it wrote. */

size_t iter_name_labels(const uint8_t *name, size_t len)
{
	size_t pos = 0, n = 0;

	while (pos < len && name[pos] != 0) {
		pos += (size_t)name[pos] + 1;
		n++;
	}
	return n;
}

size_t iter_name_suffix(const uint8_t *name, size_t len, size_t labels)
{
	size_t total = iter_name_labels(name, len), pos = 0;

	while (total > labels && pos < len && name[pos] != 0) {
		pos += (size_t)name[pos] + 1;
		total--;
	}
	return pos < len ? pos : len - 1;
}

bool iter_name_under(const uint8_t *name, size_t len, const uint8_t *zone,
                     size_t zonelen)
{
	size_t nl = iter_name_labels(name, len);
	size_t zl = iter_name_labels(zone, zonelen);
	size_t off;

	if (nl < zl)
		return false;
	off = iter_name_suffix(name, len, zl);
	return wire_name_equal(name + off, len - off, zone, zonelen) == 1;
}

uint64_t iter_name_hash(const uint8_t *name, size_t len)
{
	return base_fnv1a(name, len, 1);
}

bool iter_rr_owner(const struct wire_msg *m, const struct wire_rr *rr,
                   uint8_t *out, size_t *outlen)
{
	size_t pos = rr->owner;

	return wire_read_name(m->buf, m->len, &pos, out, outlen,
	                      WIRE_NAME_LOWER) == WIRE_OK;
}

bool iter_rr_name(const struct wire_msg *m, const struct wire_rr *rr,
                  size_t skip, uint8_t *out, size_t *outlen)
{
	size_t pos = rr->rdata + skip;

	if (skip >= rr->rdlen)
		return false;
	return wire_read_rdata_name(m->buf, m->len, rr, &pos, out, outlen,
	                            WIRE_NAME_LOWER) == WIRE_OK;
}

/* Copy n raw RDATA bytes from *pos to out + *o. */
static bool iter_copy_raw(const struct wire_msg *m, size_t *pos, size_t n,
                          uint8_t *out, size_t cap, size_t *o)
{
	if (n > cap - *o)
		return false;
	if (wire_read_bytes(m->buf, m->len, pos, out + *o, n) != WIRE_OK)
		return false;
	*o += n;
	return true;
}

/* Expand one RDATA name at *pos into out + *o (case kept). */
static bool iter_copy_name(const struct wire_msg *m, const struct wire_rr *rr,
                           size_t *pos, uint8_t *out, size_t cap, size_t *o)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t len;

	if (wire_read_rdata_name(m->buf, m->len, rr, pos, name, &len, 0) !=
	            WIRE_OK ||
	    len > cap - *o)
		return false;
	memcpy(out + *o, name, len);
	*o += len;
	return true;
}

/* Layout of RDATA: bytes before the first name, names, bytes after. */
static bool iter_rdata_layout(uint16_t type, size_t *pre, size_t *names,
                              size_t *post)
{
	*pre = 0;
	*post = 0;
	*names = 1;
	switch (type) {
	case WIRE_TYPE_NS:
	case WIRE_TYPE_CNAME:
	case WIRE_TYPE_PTR:
	case WIRE_TYPE_DNAME: return true;
	case WIRE_TYPE_MX: *pre = ITER_MX_SKIP; return true;
	case WIRE_TYPE_SRV: *pre = ITER_SRV_SKIP; return true;
	case WIRE_TYPE_SOA:
		*names = 2;
		*post = ITER_SOA_COUNTERS;
		return true;
	default: *names = 0; return false;
	}
}

/* The index of the root hint named (name, len), or SIZE_MAX. */
static size_t iter_hints_find(const struct hints *h, const uint8_t *name,
                              size_t len)
{
	size_t i, n = h != NULL ? hints_ns_count(h) : 0;

	for (i = 0; i < n; i++) {
		size_t hl;
		const uint8_t *hn = hints_ns_name(h, i, &hl);

		if (hn != NULL && wire_name_equal(hn, hl, name, len))
			return i;
	}
	return SIZE_MAX;
}

bool iter_hints_name(const struct iter_req *req, const uint8_t *name,
                     size_t len)
{
	return iter_hints_find(req->env->hints, name, len) != SIZE_MAX;
}

void iter_hints_addrs(struct iter_req *req, struct iter_ns *ns, size_t i)
{
	const struct hints *h = req->env->hints;
	size_t j;

	for (j = 0; h != NULL && j < hints_addr_count(h, i); j++) {
		struct sockaddr_storage ss;
		socklen_t sl;
		const uint8_t *ip;
		size_t iplen;

		if (hints_addr(h, i, j, &ss, &sl) != HINTS_OK)
			continue;
		ip = netaddr_bytes((const struct sockaddr *)&ss, &iplen);
		if (ip != NULL)
			iter_ns_add_addr(req, ns,
			                 iplen == ITER_IPV4_BYTES ?
			                         WIRE_TYPE_A :
			                         WIRE_TYPE_AAAA,
			                 ip, iplen);
	}
}

void iter_ns_hints_addrs(struct iter_req *req, struct iter_ns *ns)
{
	size_t i = iter_hints_find(req->env->hints, ns->name, ns->namelen);

	if (i != SIZE_MAX)
		iter_hints_addrs(req, ns, i);
}

bool iter_rdata_valid(const struct wire_msg *m, const struct wire_rr *rr)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t pos, pre, names, post, len, i;

	if ((rr->type == WIRE_TYPE_A && rr->rdlen != ITER_IPV4_BYTES) ||
	    (rr->type == WIRE_TYPE_AAAA && rr->rdlen != ITER_IPV6_BYTES))
		return false;
	if (!iter_rdata_layout(rr->type, &pre, &names, &post))
		return true;
	if (pre > rr->rdlen)
		return false;
	pos = rr->rdata + pre;
	for (i = 0; i < names; i++)
		if (wire_read_rdata_name(m->buf, m->len, rr, &pos, name, &len,
		                         0) != WIRE_OK)
			return false;
	return pos + post == rr->rdata + rr->rdlen;
}

bool iter_rdata_expand(const struct wire_msg *m, const struct wire_rr *rr,
                       uint8_t *out, size_t cap, size_t *outlen)
{
	size_t pos = rr->rdata, o = 0, pre, names, post, i;

	if ((rr->type == WIRE_TYPE_A && rr->rdlen != ITER_IPV4_BYTES) ||
	    (rr->type == WIRE_TYPE_AAAA && rr->rdlen != ITER_IPV6_BYTES))
		return false;
	if (!iter_rdata_layout(rr->type, &pre, &names, &post)) {
		if (!iter_copy_raw(m, &pos, rr->rdlen, out, cap, &o))
			return false;
		*outlen = o;
		return true;
	}
	if (!iter_copy_raw(m, &pos, pre, out, cap, &o))
		return false;
	for (i = 0; i < names; i++)
		if (!iter_copy_name(m, rr, &pos, out, cap, &o))
			return false;
	if (pos + post != rr->rdata + rr->rdlen ||
	    !iter_copy_raw(m, &pos, post, out, cap, &o))
		return false;
	*outlen = o;
	return true;
}

uint32_t iter_ttl(const struct iter_req *req, uint32_t ttl)
{
	const struct cfg *cfg = req->env->cfg;

	if (ttl > ITER_TTL_MAX)
		ttl = 0;
	if (cfg != NULL && cfg->max_ttl > 0 && ttl > cfg->max_ttl)
		ttl = cfg->max_ttl;
	return ttl;
}

bool iter_answer_append(struct iter_req *req, const uint8_t *owner,
                        size_t ownerlen, uint16_t type, uint32_t ttl,
                        const uint8_t *rdata, size_t rdlen)
{
	uint8_t *an;

	if (req->an_count == UINT16_MAX || (an = iter_buf_an(req)) == NULL)
		return false;
	if (!answer_rr_append(an, ITER_RESULT_MAX, &req->an_len, owner,
	                      ownerlen, type, req->frame[0]->qclass, ttl,
	                      rdata, rdlen))
		return false;
	req->an_count++;
	return true;
}

void iter_answer_curve(struct iter_req *req, bool curve)
{
	req->any_rrset = true;
	if (!curve)
		req->curve_all = false;
}

void iter_answer_image(struct iter_req *req, const struct iter_img *img,
                       uint32_t ttl, bool authority)
{
	size_t cap = authority ? ITER_AUTH_MAX : ITER_RESULT_MAX;
	size_t *len = authority ? &req->ns_len : &req->an_len;
	uint16_t *count = authority ? &req->ns_count : &req->an_count;
	struct answer_rr rr;
	size_t pos = 0;
	uint8_t *dst;

	if (img == NULL || img->buf == NULL)
		return;
	dst = authority ? iter_buf_ns(req) : iter_buf_an(req);
	if (dst == NULL)
		return;
	/* what does not fit is left out: the records before it stand */
	while (*count < UINT16_MAX &&
	       answer_rr_next(img->buf, img->len, &pos, &rr) &&
	       answer_rr_append(dst, cap, len, img->buf + rr.owner,
	                        rr.ownerlen, rr.type, rr.rclass,
	                        ttl != 0 ? ttl : rr.ttl, img->buf + rr.rdata,
	                        rr.rdlen))
		(*count)++;
}

void iter_log_where(const struct iter_frame *f, const struct sockaddr *sa,
                    char *zone, size_t zcap, char *addr, size_t acap)
{
	if (wire_name_to_text(f->zone.name, f->zone.len, zone, zcap, NULL) !=
	    WIRE_OK)
		snprintf(zone, zcap, "?");
	netaddr_text(sa, addr, acap);
}

struct iter_ns *iter_zone_add(struct iter_zone *z)
{
	if (z->nns >= ITER_NS_MAX)
		return NULL;
	if (z->nns == z->cap) {
		size_t cap = z->cap == 0 ? ITER_NS_ROOM_FIRST : 2 * z->cap;
		struct iter_ns *ns;

		if (cap > ITER_NS_MAX)
			cap = ITER_NS_MAX;
		/* the first room from the thread's pool (a plain malloc
		 * block: realloc grows it, iter_zone_drop gives it back) */
		ns = z->cap == 0 ?
		             (struct iter_ns *)(void *)
		                     iter_tmp_take(ITER_NS_ROOM_FIRST *
		                                   sizeof(struct iter_ns)) :
		             realloc(z->ns, cap * sizeof(*ns));
		if (ns == NULL)
			return NULL;
		z->ns = ns;
		z->cap = cap;
	}
	return &z->ns[z->nns++];
}

void iter_zone_reset(struct iter_zone *z)
{
	memset(z, 0, offsetof(struct iter_zone, ns));
}

/* A zone's NS room back: to the pool when it is the first room. */
static void iter_zone_room_free(struct iter_zone *z)
{
	if (z->cap == ITER_NS_ROOM_FIRST)
		iter_tmp_give(ITER_NS_ROOM_FIRST * sizeof(struct iter_ns),
		              (uint8_t *)z->ns);
	else
		free(z->ns);
}

void iter_zone_move(struct iter_zone *dst, struct iter_zone *src)
{
	iter_zone_room_free(dst);
	*dst = *src;
	src->ns = NULL;
	src->cap = 0;
	src->nns = 0;
}

void iter_zone_drop(struct iter_zone *z)
{
	iter_zone_room_free(z);
	z->ns = NULL;
	z->cap = 0;
	z->nns = 0;
}
