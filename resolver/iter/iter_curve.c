/*
 * resolver/iter/iter_curve.c - where DNSCurve keys may come from, and the
 * zones that must be reached with them.
 *
 * Keys come from the parent only: a zone's servers are found, with their
 * keys, in the referral of the zone above, and that NS RRset is what the
 * cache keeps for the cut. The zone's own servers may answer an NS
 * question for their apex with another set (other keys, or none); that
 * answer goes to the client but is cached only when it names exactly the
 * keys of the delegation it came through, so a child (or whoever holds
 * its key) cannot swap the keys the parent published.
 *
 * curve-require ZONE: a referral to ZONE or below that names no key, an
 * answer (anything but a referral) for a name in ZONE, and any reply from
 * a server of ZONE or below, that did not come inside a box, is a
 * downgrade: the frame fails (SERVFAIL for the
 * client's question), a warning is logged and the refusal counted. A
 * keyed referral into such a zone keeps its keyed servers only.
 *
 * curve-pin: every keyed referral pins its zone until its NS TTL runs
 * out (curvepin.h); a key-less referral for a pinned zone is refused in
 * the same way.
 *
 * Signed zones: keys the zone's own SECURE apex NS RRset confirmed
 * (iter_curvesec.c) are checked first; a referral that drops or changes
 * them is refused there, and the SECURE set is cached whatever its keys.
 */
#include <string.h>

#include "conf/cfg.h"
#include "infra/curvepin.h"
#include "iter_int.h"
#include "base/log.h"

bool iter_curve_required(const struct iter_req *req, const uint8_t *name,
                         size_t len)
{
	const struct cfg *cfg = req->env->cfg;
	size_t i;

	for (i = 0; cfg != NULL && i < cfg->n_curve_require; i++)
		if (iter_name_under(name, len, cfg->curve_require[i],
		                    cfg->curve_require_len[i]))
			return true;
	return false;
}

void iter_curve_refused(struct iter_req *req, size_t fi, const char *why)
{
	req->counts.downgrades++;
	if (req->env->downgrades != NULL)
		(*req->env->downgrades)++;
	iter_fail(req->frame[fi], why);
}

/* Refuse: count, log, fail the frame. */
static void iter_curve_refuse(struct iter_req *req, size_t fi,
                              const uint8_t *name, size_t len, const char *why)
{
	char text[WIRE_NAME_TEXT_MAX];

	if (wire_name_to_text(name, len, text, sizeof(text), NULL) != WIRE_OK)
		strcpy(text, "?");
	log_warn_limited("curve_downgrade", "name=%s reason=%s", text, why);
	iter_curve_refused(req, fi, why);
}

void iter_curve_keyed_only(struct iter_zone *z)
{
	size_t i, n = 0;

	for (i = 0; i < z->nns; i++)
		if (z->ns[i].curve) {
			if (n != i)
				z->ns[n] = z->ns[i];
			n++;
		}
	z->nns = n;
}

bool iter_curve_referral_ok(struct iter_req *req, size_t fi,
                            struct iter_zone *z, uint32_t ttl)
{
	const struct cfg *cfg = req->env->cfg;
	time_t now = req->now.wall;
	bool need = iter_curve_required(req, z->name, z->len);
	bool pinned = cfg != NULL && cfg->curve_pin &&
	              curvepin_held(req->env->pin, z->name, z->len, now);
	bool keyed = false;
	size_t i;

	if (!iter_curvesec_referral_ok(req, fi, z))
		return false;
	for (i = 0; i < z->nns; i++)
		keyed = keyed || z->ns[i].curve;
	if (keyed) {
		if (ttl > 0)
			(void)curvepin_note(req->env->pin, z->name, z->len,
			                    now + (time_t)ttl, now);
		if (need || pinned)
			iter_curve_keyed_only(z);
		return true;
	}
	if (!need && !pinned)
		return true;
	iter_curve_refuse(req, fi, z->name, z->len,
	                  need ? "curve-require: referral without keys" :
	                         "curve-pin: referral without keys");
	return false;
}

bool iter_curve_plain_refused(struct iter_req *req, size_t fi,
                              const struct iter_out *o,
                              const struct iter_reply *reply)
{
	const struct iter_class *c = &iter_cls;
	const struct iter_zone *z = &req->frame[fi]->zone;

	if (iter_reply_key(o, reply) != NULL)
		return false;
	/* A server of a required zone (a key-less cut from the cache, or
	 * curve-plain-fallback) is believed in nothing, referrals included. */
	if (iter_curve_required(req, z->name, z->len)) {
		iter_curve_refuse(req, fi, z->name, z->len,
		                  "curve-require: plain reply");
		return true;
	}
	if (c->kind == ITER_K_REFERRAL)
		return false;
	if (iter_curve_required(req, o->qname, o->qnamelen)) {
		iter_curve_refuse(req, fi, o->qname, o->qnamelen,
		                  "curve-require: plain answer");
		return true;
	}
	if (c->kind != ITER_K_CNAME &&
	    iter_curve_required(req, c->final, c->finallen)) {
		iter_curve_refuse(req, fi, c->final, c->finallen,
		                  "curve-require: plain answer");
		return true;
	}
	return false;
}

/* Whether every key of a is among the keys of b. */
static bool iter_curve_keys_in(const struct iter_zone *a,
                               const struct iter_zone *b)
{
	size_t i, j;

	for (i = 0; i < a->nns; i++) {
		bool found = false;

		if (!a->ns[i].curve)
			continue;
		for (j = 0; j < b->nns && !found; j++)
			found = b->ns[j].curve &&
			        memcmp(a->ns[i].key, b->ns[j].key,
			               KEY_BYTES) == 0;
		if (!found)
			return false;
	}
	return true;
}

/* Whether z has a server with (keyed) or without (!keyed) a key. */
static bool iter_curve_has(const struct iter_zone *z, bool keyed)
{
	size_t i;

	for (i = 0; i < z->nns; i++)
		if (z->ns[i].curve == keyed)
			return true;
	return false;
}

bool iter_curve_ns_agree(struct iter_req *req, size_t fi,
                         const struct wire_msg *m)
{
	const struct iter_class *c = &iter_cls;
	const struct iter_zone *cut = &req->frame[fi]->zone;
	struct iter_zone own;
	bool agree;

	/* Only the apex asked of its own servers is in question: an NS
	 * answer for a name below comes from the parent's servers. */
	if (!wire_name_equal(c->final, c->finallen, cut->name, cut->len))
		return true;
	memset(&own, 0, sizeof(own));
	memcpy(own.name, cut->name, cut->len);
	own.len = cut->len;
	(void)iter_zone_names(req, &own, m, 0, m->an);
	/* The same keys, and no key-less server beside keyed ones. */
	agree = iter_curve_keys_in(&own, cut) &&
	        iter_curve_keys_in(cut, &own) &&
	        !(iter_curve_has(cut, true) && iter_curve_has(&own, false));
	iter_zone_drop(&own);
	if (!agree)
		log_debug("curve_ns_keys_differ", "note=%s",
		          "apex NS answer "
		          "not cached: its keys differ from the "
		          "delegation's");
	return agree;
}
