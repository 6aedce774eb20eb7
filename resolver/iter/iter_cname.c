/*
 * resolver/iter/iter_cname.c - CNAME and DNAME chains: each link found in a
 * reply (or in the cache) is counted against ITER_MAX_CNAME, checked for
 * a loop (a name seen before in this question), cached, and added to the
 * client's answer section. A DNAME (RFC 6672) adds the DNAME record and
 * the CNAME synthesized from it. The proofs of wildcard-made links go to
 * the authority section, each record once (iter_authority_add).
 */
#include <string.h>

#include "cache.h"
#include "iter_int.h"

/* Whether the record rr of img is in the authority image already. */
static bool iter_authority_has(const struct iter_req *req, const uint8_t *img,
                               const struct answer_rr *rr)
{
	struct answer_rr x;
	size_t pos = 0, n = (size_t)(rr->rdata + rr->rdlen - rr->owner);

	if (req->ns == NULL)
		return false;
	while (answer_rr_next(req->ns, req->ns_len, &pos, &x))
		if ((size_t)(x.rdata + x.rdlen - x.owner) == n &&
		    x.type == rr->type && x.ownerlen == rr->ownerlen &&
		    memcmp(req->ns + x.owner, img + rr->owner, rr->ownerlen) ==
		            0 &&
		    memcmp(req->ns + x.rdata, img + rr->rdata, rr->rdlen) == 0)
			return true;
	return false;
}

/* The records of a proof image not yet in the authority section go
 * there (the links of a chain in one zone share NSEC/NSEC3 records). */
void iter_authority_add(struct iter_req *req, const struct iter_img *img,
                        uint32_t ttl)
{
	struct answer_rr rr;
	size_t pos = 0, start;

	if (img == NULL || img->buf == NULL)
		return;
	for (start = 0; answer_rr_next(img->buf, img->len, &pos, &rr);
	     start = pos) {
		struct iter_img one = { img->buf + start, pos - start,
			                pos - start, 0 };

		if (!iter_authority_has(req, img->buf, &rr))
			iter_answer_image(req, &one, ttl, true);
	}
}

bool iter_cname_step(struct iter_req *req, size_t fi, const uint8_t *target,
                     size_t len, unsigned links)
{
	struct iter_frame *f = req->frame[fi];

	f->cnames += links;
	if (f->cnames > ITER_MAX_CNAME) {
		iter_fail(f, "CNAME chain too long");
		return false;
	}
	if (iter_name_seen(f, target, len)) {
		iter_fail(f, "CNAME loop");
		return false;
	}
	memcpy(f->sname, target, len);
	f->snamelen = len;
	return true;
}

/* Whether an earlier link used the same DNAME record. */
static bool iter_dname_done(const struct iter_class *c, size_t upto)
{
	size_t i;

	for (i = 0; i < upto; i++)
		if (c->link[i].dname && c->link[i].rr == c->link[upto].rr)
			return true;
	return false;
}

/* A DNAME link: the DNAME RRset (unless an earlier link cached it:
 * done), then the synthesized CNAME. */
static void iter_dname_link(struct iter_req *req, size_t fi,
                            const struct wire_msg *m, const uint8_t *key,
                            const struct iter_class *c,
                            const struct iter_link *l, bool done)
{
	const struct wire_rr *rr = &m->rr[l->rr];
	uint8_t owner[WIRE_NAME_MAX];
	size_t olen;
	uint32_t ttl = iter_ttl(req, rr->ttl);
	struct cache_rdata rd = { l->target, l->targetlen };
	struct cache_rrset set = { l->owner,
		                   l->ownerlen,
		                   WIRE_TYPE_CNAME,
		                   req->frame[fi]->qclass,
		                   ttl,
		                   &rd,
		                   1,
		                   (enum cache_rank)iter_data_rank(c),
		                   key,
		                   CACHE_SEC_UNCHECKED,
		                   NULL,
		                   0 };

	/* the CNAME synthesized from a DNAME is unsigned (RFC 6672
	 * section 5.3.3): it is as good as the DNAME */
	if (!done && iter_rr_owner(m, rr, owner, &olen))
		req->dname_sec = iter_cache_rrset(req, m, WIRE_SECTION_ANSWER,
		                                  owner, olen, WIRE_TYPE_DNAME,
		                                  iter_data_rank(c), key,
		                                  fi == 0);
	set.sec = (enum cache_sec)req->dname_sec;
	(void)cache_rrset_put_via(req->env->cache, &set, req->now.wall,
	                          (enum cache_via)req->via);
	if (fi != 0)
		return;
	if (!iter_answer_append(req, l->owner, l->ownerlen, WIRE_TYPE_CNAME,
	                        ttl, l->target, l->targetlen))
		iter_fail(req->frame[0], "answer too large");
	iter_answer_curve(req, key != NULL);
}

void iter_cname_synth_final(struct iter_req *req, size_t fi,
                            const struct wire_msg *m, const uint8_t *key,
                            const struct iter_class *c)
{
	iter_dname_link(req, fi, m, key, c, &c->synth_link, false);
}

bool iter_chain_apply(struct iter_req *req, size_t fi,
                      const struct wire_msg *m, const uint8_t *key,
                      const struct iter_class *c)
{
	struct iter_frame *f = req->frame[fi];
	size_t i;

	for (i = 0; i < c->nlink; i++) {
		const struct iter_link *l = &c->link[i];

		/* Valid data even when it loops: cache it, then check. */
		if (l->dname)
			iter_dname_link(req, fi, m, key, c, &c->link[i],
			                iter_dname_done(c, i));
		else
			iter_cache_rrset(req, m, WIRE_SECTION_ANSWER, l->owner,
			                 l->ownerlen, WIRE_TYPE_CNAME,
			                 iter_data_rank(c), key, fi == 0);
		if (f->state == ITER_F_FAIL ||
		    !iter_cname_step(req, fi, l->target, l->targetlen, 1))
			return false;
	}
	if (c->loop) {
		iter_fail(f, "CNAME loop");
		return false;
	}
	return true;
}
