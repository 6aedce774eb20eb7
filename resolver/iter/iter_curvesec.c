/*
 * resolver/iter/iter_curvesec.c - DNSCurve keys confirmed by DNSSEC.
 *
 * The uz5 keys of a zone's servers arrive in the parent's referral, whose
 * NS RRset is never signed (RFC 4035 section 2.2): whoever sits between
 * the resolver and the parent can strip or swap them. A signed zone's
 * own apex NS RRset is signed; where the zone is SECURE (iter_trust.c)
 * and DNSCurve is on, its keys are read from that set:
 *
 * - The set is taken from the cache when it is there SECURE, else asked
 *   once per zone cut as the step's first question ("ZONE NS" of the
 *   zone's servers, f->curve_ask), and also noted whenever a SECURE NS
 *   RRset is cached or answered anyway (iter_curvesec_seen).
 * - Its keys are confirmed (curvepin_confirm) until its TTL runs out,
 *   with the keys the delegation had at the time.
 * - Keys it names that the frame's servers lack switch the frame to its
 *   servers (with their keys) when at least one of them has an address;
 *   a set without keys leaves the frame's (boxing only adds privacy to
 *   what DNSSEC checks), and confirms nothing a referral could strip.
 * - A later referral whose keys are neither the confirmed ones nor those
 *   the delegation had when they were confirmed drops or changes them:
 *   a downgrade (SERVFAIL, event=curve_downgrade, counted with the other
 *   refused downgrades, EDE 0 "Other" with a text).
 *
 * Key sets are compared by a BLAKE2b digest of their sorted distinct
 * keys. curve-require and curve-pin (iter_curve.c) are unchanged and
 * apply to every zone, signed or not.
 */
#include <sodium.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "conf/cfg.h"
#include "infra/curvepin.h"
#include "iter_int.h"
#include "base/log.h"

/** EDE INFO-CODE 0, "Other" (RFC 8914 section 4.1). */
#define ITER_EDE_OTHER 0
/** Bytes read back from the cache for an NS RRset. */
#define ITER_CURVESEC_BUF ITER_RDATA_BYTES

/* The digest of z's distinct keys; returns how many there are. */
static unsigned iter_curvesec_digest(const struct iter_zone *z,
                                     uint8_t out[CURVEPIN_DIGEST_BYTES])
{
	const uint8_t *k[ITER_NS_MAX];
	crypto_generichash_state st;
	size_t i, j, n = 0;

	for (i = 0; i < z->nns; i++) {
		const uint8_t *key = z->ns[i].key;

		if (!z->ns[i].curve)
			continue;
		/* insertion sort, skipping a key already there */
		for (j = n; j > 0 && memcmp(k[j - 1], key, KEY_BYTES) > 0; j--)
			;
		if (j > 0 && memcmp(k[j - 1], key, KEY_BYTES) == 0)
			continue;
		memmove(&k[j + 1], &k[j], (n - j) * sizeof(k[0]));
		k[j] = key;
		n++;
	}
	crypto_generichash_init(&st, NULL, 0, CURVEPIN_DIGEST_BYTES);
	for (i = 0; i < n; i++)
		crypto_generichash_update(&st, k[i], KEY_BYTES);
	crypto_generichash_final(&st, out, CURVEPIN_DIGEST_BYTES);
	return (unsigned)n;
}

/* One debug line (event=curve_confirmed) about zone z. */
static void iter_curvesec_log(const struct iter_zone *z, const char *note,
                              size_t n, uint32_t ttl)
{
	char text[WIRE_NAME_TEXT_MAX];

	if (log_level() < CFG_LOG_DEBUG)
		return;
	if (wire_name_to_text(z->name, z->len, text, sizeof text, NULL) !=
	    WIRE_OK)
		strcpy(text, "?");
	log_debug("curve_confirmed", "zone=%s note=%s n=%zu ttl=%u", text,
	          note, n, (unsigned)ttl);
}

/* Whether DNSSEC may confirm keys for this request. */
static bool iter_curvesec_on(const struct iter_req *req)
{
	return req->env->cfg != NULL && req->env->cfg->curve &&
	       iter_val_on(req);
}

/* Record the confirmation of zone's keys (apex: its signed NS set;
 * deleg: the servers the frame had, or NULL for the apex's own). */
static void iter_curvesec_confirm(struct iter_req *req,
                                  const struct iter_zone *apex,
                                  const struct iter_zone *deleg, uint32_t ttl)
{
	struct curvepin_conf c, old;
	time_t now = req->now.wall;

	if (ttl == 0)
		return;
	memset(&c, 0, sizeof c);
	c.nkeys = iter_curvesec_digest(apex, c.keys);
	/* the same keys again: the delegation first seen beside them
	 * stays (the frame may have been switched to them since) */
	if (curvepin_confirmed(req->env->pin, apex->name, apex->len, now,
	                       &old) &&
	    sodium_memcmp(old.keys, c.keys, sizeof c.keys) == 0)
		memcpy(c.parent, old.parent, sizeof c.parent);
	else if (deleg != NULL)
		(void)iter_curvesec_digest(deleg, c.parent);
	else
		memcpy(c.parent, c.keys, sizeof c.parent);
	c.until = now + (time_t)ttl;
	(void)curvepin_confirm(req->env->pin, apex->name, apex->len, &c, now);
	iter_curvesec_log(apex, "keys confirmed by the signed NS set", c.nkeys,
	                  ttl);
}

void iter_curvesec_seen(struct iter_req *req, const struct wire_msg *m,
                        enum wire_section sec, const uint8_t *owner,
                        size_t ownerlen, uint32_t ttl)
{
	const struct iter_zone *fz = &req->frame[req->vfi]->zone;
	struct iter_zone *apex;
	size_t from = sec == WIRE_SECTION_ANSWER ? 0 : m->an;
	size_t to = sec == WIRE_SECTION_ANSWER ? m->an : m->an + m->ns;

	if (!iter_curvesec_on(req) || sec == WIRE_SECTION_ADDITIONAL ||
	    (apex = calloc(1, sizeof(*apex))) == NULL)
		return;
	memcpy(apex->name, owner, ownerlen);
	apex->len = ownerlen;
	(void)iter_zone_names(req, apex, m, from, to);
	iter_curvesec_confirm(req, apex,
	                      wire_name_equal(fz->name, fz->len, owner,
	                                      ownerlen) ?
	                              fz :
	                              NULL,
	                      ttl);
	iter_zone_drop(apex);
	free(apex);
}

/** What the cache holds of a zone's own NS RRset. */
enum iter_apex {
	ITER_APEX_NONE = 0, /**< nothing from the zone itself */
	ITER_APEX_HEARD,    /**< its own answer, not SECURE */
	ITER_APEX_SECURE    /**< its own answer, SECURE */
};

/* The zone's NS RRset from the cache; when it is there SECURE, into
 * apex (names and keys), its TTL left in *ttl. */
static enum iter_apex iter_curvesec_cached(struct iter_req *req,
                                           const struct iter_zone *z,
                                           struct iter_zone *apex,
                                           uint32_t *ttl)
{
	struct cache_query q = { z->name, z->len, WIRE_TYPE_NS, WIRE_CLASS_IN,
		                 0 };
	uint8_t *buf = malloc(ITER_CURVESEC_BUF);
	struct cache_answer ans;
	struct answer_rr rr;
	size_t pos = 0;
	bool ok, heard;

	memset(apex, 0, sizeof(*apex));
	memcpy(apex->name, z->name, z->len);
	apex->len = z->len;
	ok = buf != NULL &&
	     cache_get(req->env->cache, &q, req->now.wall, &ans, buf,
	               ITER_CURVESEC_BUF) == CACHE_OK &&
	     ans.kind == CACHE_KIND_RRSET && ans.rank >= CACHE_RANK_NONAUTH;
	heard = ok;
	ok = ok && ans.sec == CACHE_SEC_SECURE;
	while (ok && answer_rr_next(buf, ans.len, &pos, &rr))
		if (rr.rdlen > 0 && rr.rdlen <= WIRE_NAME_MAX) {
			struct iter_ns *ns = iter_zone_add(apex);

			if (ns == NULL)
				break;
			iter_ns_set_name(req, ns, buf + rr.rdata, rr.rdlen);
		}
	if (ok)
		*ttl = ans.ttl;
	free(buf);
	return ok && apex->nns > 0 ? ITER_APEX_SECURE :
	       heard               ? ITER_APEX_HEARD :
	                             ITER_APEX_NONE;
}

/* Give the frame the apex set's servers, with the addresses known for
 * them (the frame's own, else the cache); false if none has one. */
static bool iter_curvesec_switch(struct iter_req *req, size_t fi,
                                 struct iter_zone *apex)
{
	struct iter_zone *z = &req->frame[fi]->zone;
	bool any = false;
	size_t i, j;

	for (i = 0; i < apex->nns; i++) {
		struct iter_ns *ns = &apex->ns[i];

		for (j = 0; j < z->nns && ns->naddr == 0; j++)
			if (wire_name_equal(z->ns[j].name, z->ns[j].namelen,
			                    ns->name, ns->namelen)) {
				memcpy(ns->addr, z->ns[j].addr,
				       sizeof(ns->addr));
				ns->naddr = z->ns[j].naddr;
				ns->sub = z->ns[j].sub;
			}
		if (ns->naddr == 0)
			iter_ns_cache_addrs(req, ns);
		any = any || ns->naddr > 0;
	}
	if (!any) {
		iter_curvesec_log(apex, "no address for its servers",
		                  apex->nns, 0);
		return false;
	}
	iter_zone_move(z, apex);
	iter_frame_newstep(req, fi);
	iter_curvesec_log(apex, "servers switched to its keys", z->nns, 0);
	return true;
}

/* The cached SECURE apex set of frame fi's zone: confirm it (unless it
 * is) and take its keys when the frame's differ. */
static enum iter_apex iter_curvesec_apply(struct iter_req *req, size_t fi,
                                          const struct curvepin_conf *live)
{
	struct iter_zone *z = &req->frame[fi]->zone;
	struct iter_zone *apex = malloc(sizeof(*apex));
	uint8_t have[CURVEPIN_DIGEST_BYTES], want[CURVEPIN_DIGEST_BYTES];
	uint32_t ttl = 0;
	enum iter_apex found =
		apex != NULL ? iter_curvesec_cached(req, z, apex, &ttl) :
			       ITER_APEX_NONE;

	if (found == ITER_APEX_SECURE) {
		if (live == NULL)
			iter_curvesec_confirm(req, apex, z, ttl);
		(void)iter_curvesec_digest(z, have);
		/* a signed set without keys leaves the referral's be */
		if (iter_curvesec_digest(apex, want) > 0 &&
		    sodium_memcmp(have, want, sizeof have) != 0)
			(void)iter_curvesec_switch(req, fi, apex);
	}
	if (apex != NULL)
		iter_zone_drop(apex);
	free(apex);
	return found;
}

void iter_curvesec_step(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	struct curvepin_conf c;
	uint8_t have[CURVEPIN_DIGEST_BYTES];
	uint64_t h;
	bool live;

	f->curve_ask = false;
	/* (a forward zone's servers are the forwarders, never the zone's
	 * own: its NS set names no server that is asked) */
	if (f->trust != ITER_T_SECURE || f->prime || f->zone.len <= 1 ||
	    f->zone.fwd != 0 || !iter_curvesec_on(req))
		return;
	live = curvepin_confirmed(req->env->pin, f->zone.name, f->zone.len,
	                          req->now.wall, &c);
	(void)iter_curvesec_digest(&f->zone, have);
	if (live &&
	    (c.nkeys == 0 || sodium_memcmp(have, c.keys, sizeof have) == 0))
		return;
	/* the zone's own set already heard, unsigned or bogus: asking
	 * again before it expires tells nothing new */
	if (iter_curvesec_apply(req, fi, live ? &c : NULL) != ITER_APEX_NONE)
		return;
	h = iter_name_hash(f->zone.name, f->zone.len);
	if (f->curve_asked == h)
		return;
	f->curve_asked = h;
	f->curve_ask = true;
}

void iter_curvesec_ns_reply(struct iter_req *req, size_t fi,
                            const struct iter_out *o, const struct wire_msg *m,
                            const uint8_t *key)
{
	struct iter_frame *f = req->frame[fi];
	const struct iter_class *c = &iter_cls;
	struct curvepin_conf conf;

	(void)o;
	f->curve_ask = false;
	/* Validated on the way in (iter_cache_rrset); a SECURE set is
	 * noted there (iter_curvesec_seen) and cached whatever its keys. */
	if (c->kind == ITER_K_ANSWER && c->nlink == 0 &&
	    wire_name_equal(c->final, c->finallen, f->zone.name, f->zone.len))
		iter_cache_ns_checked(req, m, f->zone.name, f->zone.len, key);
	iter_frame_newstep(req, fi);
	(void)iter_curvesec_apply(req, fi,
	                          curvepin_confirmed(req->env->pin,
	                                             f->zone.name, f->zone.len,
	                                             req->now.wall, &conf) ?
	                                  &conf :
	                                  NULL);
	f->state = ITER_F_QUERY;
}

bool iter_curvesec_referral_ok(struct iter_req *req, size_t fi,
                               struct iter_zone *z)
{
	struct curvepin_conf c;
	uint8_t got[CURVEPIN_DIGEST_BYTES];
	unsigned n;
	char text[WIRE_NAME_TEXT_MAX];
	const char *why;

	if (!curvepin_confirmed(req->env->pin, z->name, z->len, req->now.wall,
	                        &c))
		return true;
	/* the zone's signed set names no key: nothing to keep from being
	 * stripped, and keys a referral adds only box what DNSSEC checks */
	if (c.nkeys == 0)
		return true;
	n = iter_curvesec_digest(z, got);
	if (sodium_memcmp(got, c.keys, sizeof got) == 0) {
		if (c.nkeys > 0)
			iter_curve_keyed_only(z);
		return true;
	}
	if (sodium_memcmp(got, c.parent, sizeof got) == 0)
		return true; /* as when confirmed: the step switches */
	why = n == 0 ? "referral drops the DNSSEC-confirmed DNSCurve keys" :
	               "referral changes the DNSSEC-confirmed DNSCurve keys";
	if (wire_name_to_text(z->name, z->len, text, sizeof text, NULL) !=
	    WIRE_OK)
		strcpy(text, "?");
	log_warn_limited("curve_downgrade", "zone=%s reason=%s", text, why);
	iter_curve_refused(req, fi, why);
	req->val_ede = true;
	req->val_ede_code = ITER_EDE_OTHER;
	req->val_ede_text = "DNSCurve downgrade: keys confirmed by DNSSEC";
	return false;
}
