/*
 * resolver/iter/iter_negative.c - a negative answer (NXDOMAIN or NODATA,
 * RFC 2308) applied to its frame: validated (iter_val_negative), cached
 * with its SOA, status and proof, fed to the RFC 8198 index when SECURE,
 * and put in the client's authority section.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "conf/cfg.h"
#include "iter_int.h"
#include "infra/nsecidx.h"

/** Offset of the MINIMUM field from the end of SOA RDATA. */
#define ITER_SOA_MINIMUM_FROM_END 4

/* The SOA of a negative answer goes first in the authority image; the
 * proofs of the CNAME chain that led to the name (iter_cache_as) stay
 * after it: a validator needs them too (RFC 4035 section 3.1.3). */
static void iter_negative_soa(struct iter_req *req, const uint8_t *owner,
                              size_t ownerlen, uint32_t ttl, const uint8_t *rd,
                              size_t rdlen, bool curve)
{
	const struct cfg *cfg = req->env->cfg;
	const uint8_t *mp = rd + rdlen - ITER_SOA_MINIMUM_FROM_END;
	uint32_t min = (uint32_t)mp[0] << 24 | (uint32_t)mp[1] << 16 |
	               (uint32_t)mp[2] << 8 | mp[3];
	/* NULL when there is nothing to keep (iter_authority_add) */
	struct iter_img chain = { req->ns_len > 0 ? malloc(ITER_AUTH_MAX) :
		                                    NULL,
		                  req->ns_len, ITER_AUTH_MAX, 0 };
	uint8_t *ns = iter_buf_ns(req);

	if (min < ttl)
		ttl = min;
	if (cfg != NULL && cfg->neg_max_ttl > 0 && ttl > cfg->neg_max_ttl)
		ttl = cfg->neg_max_ttl;
	if (chain.buf != NULL && req->ns_len > 0)
		memcpy(chain.buf, req->ns, req->ns_len);
	req->ns_len = 0;
	req->ns_count = 0;
	if (ns != NULL &&
	    answer_rr_append(ns, ITER_AUTH_MAX, &req->ns_len, owner, ownerlen,
	                     WIRE_TYPE_SOA, req->frame[0]->qclass, ttl, rd,
	                     rdlen)) {
		req->ns_count = 1;
		iter_answer_curve(req, curve);
		iter_authority_add(req, &chain, 0);
	}
	free(chain.buf);
}

/* RFC 8198: the SOA and NSEC records of a SECURE proof go to the
 * shared index (nsecidx.h) when the SOA is the zone's that signed. */
static void iter_negative_index(struct iter_req *req, size_t fi,
                                const uint8_t *soa, size_t soalen,
                                const uint8_t *rd, size_t rdlen, uint32_t ttl,
                                const struct iter_img *img)
{
	const struct iter_frame *f = req->frame[fi];
	const struct cfg *cfg = req->env->cfg;
	struct nsecidx_proof p = { soa,      soalen,
		                   rd,       rdlen,
		                   ttl,      img->buf,
		                   img->len, cfg != NULL ? cfg->max_ttl : 0 };

	if (iter_aggressive_on(req) && img->buf != NULL &&
	    wire_name_equal(soa, soalen, f->zone.name, f->zone.len))
		(void)nsecidx_put_proof(req->env->nsecidx, &p, req->now.wall);
}

/* Cache a negative answer with its status and proof; the SOA and the
 * proof go to the client's authority section. */
static void iter_negative_cache(struct iter_req *req, size_t fi,
                                const struct wire_msg *m, const uint8_t *key,
                                bool nx, uint8_t vsec, int status,
                                const struct iter_img *img)
{
	struct iter_frame *f = req->frame[fi];
	const struct iter_class *c = &iter_cls;
	uint8_t owner[WIRE_NAME_MAX], rd[2 * WIRE_NAME_MAX + 20];
	size_t olen, rdlen;
	uint32_t ttl;

	if (c->soa == WIRE_NONE ||
	    !iter_rr_owner(m, &m->rr[c->soa], owner, &olen) ||
	    !iter_rdata_expand(m, &m->rr[c->soa], rd, sizeof(rd), &rdlen) ||
	    rdlen < ITER_SOA_MINIMUM_FROM_END)
		return;
	ttl = iter_ttl(req, m->rr[c->soa].ttl);
	if (vsec == CACHE_SEC_BOGUS && ttl > iter_bogus_ttl(req))
		ttl = iter_bogus_ttl(req);
	{
		struct cache_neg neg = { nx ? CACHE_KIND_NXDOMAIN :
			                      CACHE_KIND_NODATA,
			                 f->sname,
			                 f->snamelen,
			                 f->qtype,
			                 f->qclass,
			                 owner,
			                 olen,
			                 ttl,
			                 rd,
			                 rdlen,
			                 (enum cache_rank)iter_data_rank(c),
			                 key,
			                 (enum cache_sec)vsec,
			                 img->buf,
			                 img->len };

		/* not when the work cap ended the check (iter_cache_as) */
		if (status != DNSSEC_EBUDGET)
			(void)cache_neg_put_via(req->env->cache, &neg,
			                        req->now.wall,
			                        (enum cache_via)req->via);
		iter_val_cache_why(req, f->sname, f->snamelen, f->qtype, vsec,
		                   status);
	}
	if (vsec == CACHE_SEC_SECURE)
		iter_negative_index(req, fi, owner, olen, rd, rdlen, ttl, img);
	if (fi != 0)
		return;
	iter_negative_soa(req, owner, olen, ttl, rd, rdlen, key != NULL);
	iter_authority_add(req, img, req->ns_count > 0 ? ttl : 0);
}

/* NXDOMAIN / NODATA for the frame's name: validate and cache it (RFC
 * 2308, RFC 4035 section 5.4). */
void iter_negative(struct iter_req *req, size_t fi, const struct wire_msg *m,
                   const uint8_t *key, bool nx)
{
	struct iter_img img = { malloc(ITER_AUTH_MAX), 0, ITER_AUTH_MAX, 0 };
	int status = 0;
	uint8_t vsec = CACHE_SEC_UNCHECKED;

	req->frame[fi]->state = ITER_F_DONE;
	if (fi == 0)
		req->rcode = nx ? WIRE_RCODE_NXDOMAIN : WIRE_RCODE_NOERROR;
	if (img.buf != NULL) {
		vsec = iter_val_negative(req, fi, m, nx, &img, &status);
		if (vsec == CACHE_SEC_INSECURE || vsec == CACHE_SEC_BOGUS)
			iter_negative_proof(req, fi, m, &img);
	} else
		img.cap = 0;
	if (vsec == CACHE_SEC_BOGUS)
		iter_log_bogus(req, req->frame[fi]->zone.name,
		               req->frame[fi]->zone.len, status);
	iter_negative_cache(req, fi, m, key, nx, vsec, status, &img);
	if (fi == 0)
		iter_val_note(req, vsec, status);
	free(img.buf);
}
