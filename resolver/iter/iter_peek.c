/*
 * resolver/iter/iter_peek.c - iter_peek_cut: the zone cut and servers a
 * resolution would start from, for curvecache-control lookup. Runs the
 * CUT state (iter_frame.c) on a private request that never sends.
 */
#include <stdlib.h>
#include <string.h>

#include "iter_int.h"
#include "infra/sel.h"

_Static_assert(ITER_PEEK_NS == ITER_NS_MAX, "peek shows every NS kept");
_Static_assert(ITER_PEEK_ADDRS == ITER_NS_ADDRS,
               "peek shows every address kept");

/* Copy one NS name of the cut, with the scores of its addresses. */
static void iter_peek_copy_ns(const struct iter_req *req,
                              const struct iter_zone *z, size_t i,
                              struct iter_peek_ns *p)
{
	const struct iter_ns *ns = &z->ns[i];
	size_t j;

	memcpy(p->name, ns->name, ns->namelen);
	p->namelen = ns->namelen;
	p->curve = ns->curve;
	memcpy(p->key, ns->key, KEY_BYTES);
	for (j = 0; j < ns->naddr; j++) {
		socklen_t sl;

		if (!iter_addr_ok(req, ns, &ns->addr[j]))
			continue;
		iter_addr_sockaddr(&ns->addr[j], &p->addr[p->naddr], &sl);
		p->score[p->naddr] =
			sel_score(req->env->sel,
		                  (const struct sockaddr *)&p->addr[p->naddr],
		                  z->name, z->len, req->now.mono_ms);
		p->naddr++;
	}
}

int iter_peek_cut(const struct iter_env *env, const uint8_t *name, size_t len,
                  const struct iter_now *now, struct iter_peek *out)
{
	struct iter_env penv;
	struct iter_req *req;
	const struct iter_zone *z;
	size_t i;

	if (out == NULL || env == NULL)
		return -1;
	memset(out, 0, sizeof(*out));
	/* a peek sends nothing: a cached failure of the name (RFC 9520)
	 * does not hide its cut */
	penv = *env;
	penv.deadzone = NULL;
	req = iter_new(&penv, name, len, WIRE_TYPE_A, WIRE_CLASS_IN, now);
	if (req == NULL)
		return -1;
	if (req->done) {
		iter_free(req);
		return -1;
	}
	iter_state_cut(req, 0);
	z = &req->frame[0]->zone;
	memcpy(out->zone, z->name, z->len);
	out->zonelen = z->len;
	out->forward = z->fwd != 0;
	out->from_hints = z->nns > 0 && z->ns[0].hints && !out->forward;
	for (i = 0; i < z->nns && i < ITER_PEEK_NS; i++)
		iter_peek_copy_ns(req, z, i, &out->ns[i]);
	out->nns = i;
	iter_free(req);
	return 0;
}
