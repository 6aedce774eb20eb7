/*
 * resolver/iter/iter_fwd.c - forward zones (cfg forward-zone) as zone
 * cuts whose servers are the forwarders.
 *
 * A name at or below a forward zone starts its walk at that zone, with
 * the forwarders as its servers (unless a longer stub zone holds it, or
 * forward-first gave up on them for this frame): the same server
 * selection, hedging, TCP retry, back-off and counters as any zone cut.
 * The differences are elsewhere and read the zone's fwd field: queries
 * carry RD=1 (iter_query.c), never minimised; the forwarders' answers
 * are final without AA, a referral from one is a bad reply
 * (iter_classify.c); a DS is asked of the forwarders of the zone holding
 * its parent. Validation is as for any zone: the signer of the RRSIGs
 * names the cuts below (iter_val_descend), and their DS and DNSKEY go to
 * the same forwarders. Stub zones (cfg stub-zone) are here too: their
 * servers start the walk, asked as any zone's.
 */
#include <string.h>

#include "cache.h"
#include "base/log.h"
#include "base/netaddr.h"
#include "conf/cfg.h"
#include "iter_int.h"

/* One server of a stub zone: NS name "[uz5KEY.]ZONE", its address. */
static void iter_stub_ns(struct iter_req *req, struct iter_ns *ns,
                         const struct cfg_zone *cz, size_t i)
{
	const struct sockaddr *sa = (const struct sockaddr *)&cz->addr[i].sa;
	uint8_t name[WIRE_NAME_MAX];
	size_t klen = strlen(cz->key[i]), len = 0, iplen;
	const uint8_t *ip;

	if (klen > 0 && 1 + klen + cz->namelen <= WIRE_NAME_MAX) {
		name[len++] = (uint8_t)klen;
		memcpy(name + len, cz->key[i], klen);
		len += klen;
	}
	memcpy(name + len, cz->name, cz->namelen);
	iter_ns_set_name(req, ns, name, len + cz->namelen);
	ns->hints = true; /* configured: no localhost filter */
	ip = netaddr_bytes(sa, &iplen);
	if (ip != NULL)
		iter_ns_add_addr(req, ns,
		                 iplen == 4 ? WIRE_TYPE_A : WIRE_TYPE_AAAA, ip,
		                 iplen);
	/* stub-zone: ADDR@PORT: that server's own port */
	if (ns->naddr > 0 && cz->addr[i].port_given)
		ns->addr[ns->naddr - 1].port = netaddr_port(sa);
}

/*
 * A stub zone (cfg stub-zone) holding the name starts the walk at its
 * servers, unless the cut found in the cache lies below the stub zone
 * (learned from the stub servers' own referrals). True: f->zone is set.
 */
bool iter_cut_stub(struct iter_req *req, struct iter_frame *f, bool cached)
{
	const struct cfg *c = req->env->cfg;
	const struct cfg_zone *cz;
	struct iter_zone *z = &f->zone;
	struct iter_ns *ns;
	size_t i;
	int si;

	if (c == NULL || c->n_stub == 0)
		return false;
	si = cfg_zone_find(c->stub, c->n_stub, f->sname, f->snamelen);
	if (si < 0)
		return false;
	cz = &c->stub[si];
	if (cached && z->len > cz->namelen &&
	    iter_name_under(z->name, z->len, cz->name, cz->namelen))
		return false;
	iter_zone_reset(z);
	memcpy(z->name, cz->name, cz->namelen);
	z->len = cz->namelen;
	for (i = 0; i < cz->naddr && (ns = iter_zone_add(z)) != NULL; i++)
		iter_stub_ns(req, ns, cz, i);
	return true;
}

/* The name whose cut is wanted: the name, or its parent for a DS (RFC
 * 4035 section 3.1.4.1: the DS lives in the parent zone). */
static void iter_fwd_name(const struct iter_frame *f, const uint8_t **name,
                          size_t *len)
{
	*name = f->sname;
	*len = f->snamelen;
	if (f->qtype == WIRE_TYPE_DS && f->snamelen > 1) {
		size_t skip = (size_t)f->sname[0] + 1;

		*name += skip;
		*len -= skip;
	}
}

/* The forward zone holding the frame's name, or -1 (none, a longer stub
 * zone holds it, or forward-first gave up on it). */
static int iter_fwd_find(const struct iter_req *req,
                         const struct iter_frame *f)
{
	const struct cfg *c = req->env->cfg;
	const uint8_t *name;
	size_t len;
	int fi, si;

	if (c == NULL || c->n_forward == 0 || f->nofwd)
		return -1;
	iter_fwd_name(f, &name, &len);
	fi = cfg_zone_find(c->forward, c->n_forward, name, len);
	if (fi < 0)
		return -1;
	si = cfg_zone_find(c->stub, c->n_stub, name, len);
	if (si >= 0 && c->stub[si].namelen > c->forward[fi].namelen)
		return -1;
	return fi;
}

/* Whether the cache holds a validated DNSKEY set at name: a zone apex
 * whose keys are known. */
static bool iter_fwd_apex(struct iter_req *req, const uint8_t *name,
                          size_t len)
{
	struct cache_query q = { name, len, WIRE_TYPE_DNSKEY, WIRE_CLASS_IN,
		                 0 };
	struct cache_answer ans;

	return cache_get(req->env->cache, &q, req->now.wall, &ans,
	                 iter_scratch, sizeof iter_scratch) == CACHE_OK &&
	       ans.kind == CACHE_KIND_RRSET && ans.sec == CACHE_SEC_SECURE;
}

/* Validating: start at the deepest zone under the forward zone whose
 * keys are cached (what the RRSIGs' signer would name, iter_val_descend)
 * rather than asking at the forward zone, learning the signer from the
 * answer and asking again there. */
static void iter_fwd_deepest(struct iter_req *req, struct iter_frame *f)
{
	struct iter_zone *z = &f->zone;
	const uint8_t *name;
	size_t len;

	if (!iter_val_on(req))
		return;
	iter_fwd_name(f, &name, &len);
	while (len > z->len) {
		if (iter_fwd_apex(req, name, len)) {
			memcpy(z->name, name, len);
			z->len = len;
			return;
		}
		len -= (size_t)name[0] + 1;
		name += (size_t)name[0] + 1;
	}
}

bool iter_cut_forward(struct iter_req *req, struct iter_frame *f)
{
	const struct cfg_zone *cz;
	struct iter_zone *z = &f->zone;
	struct iter_ns *ns;
	size_t i;
	int zi = iter_fwd_find(req, f);

	if (zi < 0)
		return false;
	cz = &req->env->cfg->forward[zi];
	iter_zone_reset(z);
	memcpy(z->name, cz->name, cz->namelen);
	z->len = cz->namelen;
	z->fwd = cz->namelen;
	for (i = 0; i < cz->naddr && (ns = iter_zone_add(z)) != NULL; i++)
		iter_stub_ns(req, ns, cz, i);
	iter_fwd_deepest(req, f);
	/* a forwarder resolves the whole name: nothing to minimise, no
	 * root to prime */
	f->qmin = false;
	f->prime = false;
	f->above_pending = false;
	return true;
}

bool iter_fwd_fallback(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	const struct cfg *c = req->env->cfg;
	const uint8_t *fz;
	char zone[WIRE_NAME_TEXT_MAX];
	int zi;

	if (f->zone.fwd == 0 || f->nofwd || c == NULL)
		return false;
	fz = f->zone.name + f->zone.len - f->zone.fwd;
	zi = cfg_zone_find(c->forward, c->n_forward, fz, f->zone.fwd);
	if (zi < 0 || !c->forward[zi].first)
		return false;
	if (log_level() >= CFG_LOG_DEBUG &&
	    wire_name_to_text(fz, f->zone.fwd, zone, sizeof zone, NULL) ==
	            WIRE_OK)
		log_debug("iter_fallback", "zone=%s to=%s note=%s", zone,
		          "iteration", "forward-first: no forwarder answered");
	f->nofwd = true;
	f->state = ITER_F_CUT;
	iter_tally(req->env->tally.fallback);
	return true;
}

void iter_fwd_failed(struct iter_req *req, size_t fi)
{
	if (req->frame[fi]->zone.fwd != 0)
		iter_tally(req->env->tally.fwd_failures);
}

/* Whether address sa is one of the servers of forward zone cz. */
static bool iter_fwd_has(const struct cfg_zone *cz, const struct sockaddr *sa)
{
	size_t i, len, clen;
	const uint8_t *ip = netaddr_bytes(sa, &len), *cip;

	for (i = 0; ip != NULL && i < cz->naddr; i++) {
		const struct sockaddr *c =
			(const struct sockaddr *)&cz->addr[i].sa;

		cip = netaddr_bytes(c, &clen);
		if (cip != NULL && clen == len && memcmp(cip, ip, len) == 0 &&
		    netaddr_port(c) == netaddr_port(sa))
			return true;
	}
	return false;
}

bool iter_fwd_stale(const struct iter_req *req, const struct iter_out *o)
{
	const struct iter_frame *f = req->frame[o->frame];
	const struct cfg *c = req->env->cfg;
	const uint8_t *fz;
	int zi;

	if (o->kept || f->zone.fwd == 0 || c == NULL)
		return false;
	fz = f->zone.name + f->zone.len - f->zone.fwd;
	zi = cfg_zone_find(c->forward, c->n_forward, fz, f->zone.fwd);
	return zi < 0 || c->forward[zi].namelen != f->zone.fwd ||
	       !iter_fwd_has(&c->forward[zi], (const struct sockaddr *)&o->sa);
}
