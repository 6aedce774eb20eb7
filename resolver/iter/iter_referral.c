/*
 * resolver/iter/iter_referral.c - following a delegation: the new zone cut,
 * its NS names (with their DNSCurve keys), glue from the additional
 * section, and what is cached: the NS RRset (REFERRAL, or AUTH/NONAUTH
 * when it came as an answer) and the glue (GLUE, the lowest rank: it
 * never replaces an answer, RFC 2181 section 5.4.1).
 *
 * Glue policy (harden-glue, on by default): addresses are kept only for
 * NS names inside the bailiwick of the zone whose server sent the
 * referral (the parent): the root's glue for a.gtld-servers.net in the
 * com. referral, or a com. server's glue for ns.other.com beside
 * example.com, is used at once; a com. server's glue for a name under
 * org. is neither used nor cached (the name is resolved instead), since
 * that server has no authority over it. With harden-glue off any glue
 * is taken (broken setups only). A referral's glue is also cached under
 * ITER_TYPE_PARENT_A/AAAA, which the zone's own address records do not
 * replace: when those fail, the parent's addresses are the last resort
 * (iter_zone_parent_glue, iter_ns_sub_ended). A referral without keys
 * into a zone that needs them (curve-require, curve-pin) is refused
 * before anything is cached (iter_curve.c).
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "conf/cfg.h"
#include "iter_int.h"

/* Whether z already lists the NS name. */
static bool iter_zone_has(const struct iter_zone *z, const uint8_t *name,
                          size_t len)
{
	size_t i;

	for (i = 0; i < z->nns; i++)
		if (wire_name_equal(z->ns[i].name, z->ns[i].namelen, name,
		                    len))
			return true;
	return false;
}

/* The NS names of the cut from one section into z; returns the
 * smallest TTL among them (clamped as cached). */
uint32_t iter_zone_names(struct iter_req *req, struct iter_zone *z,
                         const struct wire_msg *m, size_t from, size_t to)
{
	uint32_t ttl = 0;
	size_t i;

	for (i = from; i < to && z->nns < ITER_NS_MAX; i++) {
		const struct wire_rr *rr = &m->rr[i];
		uint8_t owner[WIRE_NAME_MAX], name[WIRE_NAME_MAX];
		size_t olen, nlen;
		struct iter_ns *ns;

		if (rr->type != WIRE_TYPE_NS || rr->rclass != WIRE_CLASS_IN ||
		    !iter_rr_owner(m, rr, owner, &olen) ||
		    !wire_name_equal(owner, olen, z->name, z->len) ||
		    !iter_rr_name(m, rr, 0, name, &nlen) ||
		    iter_zone_has(z, name, nlen))
			continue;
		if ((ns = iter_zone_add(z)) == NULL)
			break;
		iter_ns_set_name(req, ns, name, nlen);
		if (z->nns == 1 || iter_ttl(req, rr->ttl) < ttl)
			ttl = iter_ttl(req, rr->ttl);
	}
	return ttl;
}

/* Glue of one type for one NS name inside the cut: use and cache it
 * (a referral's, parent, also as the parent's glue). */
static void iter_glue(struct iter_req *req, const struct wire_msg *m,
                      struct iter_ns *ns, uint16_t type, const uint8_t *key,
                      bool parent)
{
	size_t i, found = 0;

	for (i = m->an + m->ns; i < m->an + m->ns + m->ar; i++) {
		const struct wire_rr *rr = &m->rr[i];
		uint8_t owner[WIRE_NAME_MAX];
		size_t olen;

		if (rr->type != type || rr->rclass != WIRE_CLASS_IN ||
		    !iter_rr_owner(m, rr, owner, &olen) ||
		    !wire_name_equal(owner, olen, ns->name, ns->namelen))
			continue;
		iter_ns_add_addr(req, ns, type, m->buf + rr->rdata, rr->rdlen);
		found++;
	}
	if (found == 0)
		return;
	iter_cache_rrset(req, m, WIRE_SECTION_ADDITIONAL, ns->name,
	                 ns->namelen, type, CACHE_RANK_GLUE, key, false);
	if (parent)
		iter_cache_parent_glue(req, m, ns->name, ns->namelen, type,
		                       key);
}

/* The parent's glue kept for one NS name (ITER_TYPE_PARENT_A/AAAA). */
static void iter_ns_parent_addrs(struct iter_req *req, struct iter_ns *ns)
{
	const struct cfg *cfg = req->env->cfg;

	if (cfg == NULL || cfg->do_ip4)
		iter_ns_cache_type(req, ns, WIRE_TYPE_A, ITER_TYPE_PARENT_A);
	if (cfg == NULL || cfg->do_ip6)
		iter_ns_cache_type(req, ns, WIRE_TYPE_AAAA,
		                   ITER_TYPE_PARENT_AAAA);
}

bool iter_zone_parent_glue(struct iter_req *req, struct iter_zone *z, bool all)
{
	bool added = false;
	size_t i;

	for (i = 0; i < z->nns; i++) {
		size_t before = z->ns[i].naddr;

		if (!all && before > 0)
			continue;
		iter_ns_parent_addrs(req, &z->ns[i]);
		added = added || z->ns[i].naddr > before;
	}
	return added;
}

void iter_ns_sub_ended(struct iter_req *req, struct iter_ns *ns)
{
	const struct cfg *cfg = req->env->cfg;
	unsigned want = 0;

	if (cfg == NULL || cfg->do_ip4)
		want |= ITER_SUB_A;
	if (cfg == NULL || cfg->do_ip6)
		want |= ITER_SUB_AAAA;
	if (ns->naddr > 0 || (ns->sub & want) != want)
		return;
	iter_ns_cache_addrs(req, ns);
	iter_ns_parent_addrs(req, ns);
}

/* Whether glue for an NS name may be used: the name lies inside the
 * bailiwick of the zone `from` whose server sent it (harden-glue), or
 * any name when harden-glue is off. */
static bool iter_glue_ok(const struct iter_req *req, const struct iter_ns *ns,
                         const uint8_t *from, size_t fromlen)
{
	const struct cfg *cfg = req->env->cfg;

	if (cfg != NULL && !cfg->harden_glue)
		return true;
	return iter_name_under(ns->name, ns->namelen, from, fromlen);
}

/* Addresses for every NS name: glue the sender may give, else the
 * cache. */
static void iter_zone_addrs(struct iter_req *req, struct iter_zone *z,
                            const struct wire_msg *m, const uint8_t *key,
                            const uint8_t *from, size_t fromlen, bool parent)
{
	size_t i;

	for (i = 0; i < z->nns; i++) {
		struct iter_ns *ns = &z->ns[i];

		if (iter_glue_ok(req, ns, from, fromlen)) {
			iter_glue(req, m, ns, WIRE_TYPE_A, key, parent);
			iter_glue(req, m, ns, WIRE_TYPE_AAAA, key, parent);
		}
		if (ns->naddr == 0)
			iter_ns_cache_addrs(req, ns);
	}
}

void iter_answer_ns_glue(struct iter_req *req, size_t fi,
                         const struct wire_msg *m, const uint8_t *key)
{
	const struct iter_frame *f = req->frame[fi];
	const struct iter_class *c = &iter_cls;
	struct iter_zone *z = malloc(sizeof(*z));
	size_t i;

	if (z == NULL)
		return;
	memset(z, 0, sizeof(*z));
	memcpy(z->name, c->final, c->finallen);
	z->len = c->finallen;
	(void)iter_zone_names(req, z, m, 0, m->an);
	for (i = 0; i < z->nns; i++)
		if (iter_glue_ok(req, &z->ns[i], f->zone.name, f->zone.len)) {
			iter_glue(req, m, &z->ns[i], WIRE_TYPE_A, key, false);
			iter_glue(req, m, &z->ns[i], WIRE_TYPE_AAAA, key,
			          false);
		}
	iter_zone_drop(z);
	free(z);
}

void iter_referral_apply(struct iter_req *req, size_t fi,
                         const struct wire_msg *m, const struct iter_out *o,
                         const struct iter_reply *reply, bool answer)
{
	struct iter_frame *f = req->frame[fi];
	const struct iter_class *c = &iter_cls;
	const uint8_t *key = iter_reply_key(o, reply);
	struct iter_zone *z = &f->zone;
	enum wire_section sec = answer ? WIRE_SECTION_ANSWER :
	                                 WIRE_SECTION_AUTHORITY;
	uint8_t from[WIRE_NAME_MAX];
	size_t fromlen = z->len, i;
	uint32_t ttl;
	enum iter_trust trust = ITER_T_UNKNOWN;
	int status = 0;

	f->referrals++;
	req->counts.referrals++;
	f->prime = false;
	if (f->referrals > ITER_MAX_REFERRALS) {
		iter_fail(f, "referral cap");
		return;
	}
	/* The DS of the zone below, validated in the zone above (an NS
	 * answer comes from the zone itself: its DS is asked later). */
	if (!answer)
		trust = iter_val_referral(req, fi, m, c->cut, c->cutlen,
		                          &status);
	/* The bailiwick of the sender, for its glue. */
	memcpy(from, z->name, fromlen);
	iter_zone_reset(z);
	f->trust = trust;
	f->trust_status = status;
	f->ds_asked = false;
	f->parent_glue = false; /* a new cut: its parent's glue untried */
	memcpy(z->name, answer ? c->final : c->cut,
	       answer ? c->finallen : c->cutlen);
	z->len = answer ? c->finallen : c->cutlen;
	if (answer)
		ttl = iter_zone_names(req, z, m, 0, m->an);
	else
		ttl = iter_zone_names(req, z, m, m->an, m->an + m->ns);
	if (z->nns == 0) {
		iter_fail(f, "referral without NS names");
		return;
	}
	for (i = 0; z->len == 1 && i < z->nns; i++)
		z->ns[i].hints = iter_hints_name(req, z->ns[i].name,
		                                 z->ns[i].namelen);
	if (!iter_curve_referral_ok(req, fi, z, ttl))
		return;
	iter_cache_rrset(req, m, sec, z->name, z->len, WIRE_TYPE_NS,
	                 answer ? iter_data_rank(c) : CACHE_RANK_REFERRAL, key,
	                 false);
	if (!answer)
		iter_cache_parent_ns(req, m, z->name, z->len, key);
	iter_zone_addrs(req, z, m, key, from, fromlen, !answer);
	iter_qmin_reset(f);
	iter_frame_newstep(req, fi);
	f->state = ITER_F_QUERY;
}
