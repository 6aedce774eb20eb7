/*
 * resolver/iter/iter_cname.c - CNAME and DNAME chains: each link found in a
 * reply (or in the cache) is counted against ITER_MAX_CNAME, checked for
 * a loop (a name seen before in this question), cached, and added to the
 * client's answer section. A DNAME (RFC 6672) adds the DNAME record and
 * the CNAME synthesized from it.
 */
#include <string.h>

#include "cache.h"
#include "iter_int.h"

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

/* A DNAME link: the DNAME RRset, then the synthesized CNAME. */
static void iter_dname_link(struct iter_req *req, size_t fi,
                            const struct wire_msg *m, const uint8_t *key,
                            const struct iter_class *c, size_t i)
{
	const struct iter_link *l = &c->link[i];
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
	if (!iter_dname_done(c, i) && iter_rr_owner(m, rr, owner, &olen))
		req->dname_sec = iter_cache_rrset(req, m, WIRE_SECTION_ANSWER,
		                                  owner, olen, WIRE_TYPE_DNAME,
		                                  iter_data_rank(c), key,
		                                  fi == 0);
	set.sec = (enum cache_sec)req->dname_sec;
	(void)cache_rrset_put(req->env->cache, &set, req->now.wall);
	if (fi != 0)
		return;
	if (!iter_answer_append(req, l->owner, l->ownerlen, WIRE_TYPE_CNAME,
	                        ttl, l->target, l->targetlen))
		iter_fail(req->frame[0], "answer too large");
	iter_answer_curve(req, key != NULL);
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
			iter_dname_link(req, fi, m, key, c, i);
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
