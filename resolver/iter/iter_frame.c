/*
 * resolver/iter/iter_frame.c - frames of a resolution: creation, sub-frames
 * for glueless NS names, and the LOOKUP (cache) and CUT (closest zone
 * cut) states.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "conf/cfg.h"
#include "iter_int.h"
#include "base/log.h"
#include "base/netaddr.h"
#include "base/slab.h"
#include "infra/nsecidx.h"
#include "anchor/anchor.h"
#include "wire/rrtext.h"
#include "validate/dnssec.h"

struct iter_frame *iter_frame_top(struct iter_req *req)
{
	return req->frame[req->depth];
}

void iter_frame_init(struct iter_frame *f, const uint8_t *name, size_t len,
                     uint16_t qtype, uint16_t qclass, bool qmin)
{
	memset(f, 0, sizeof(*f)); /* its zone without servers or room */
	f->state = ITER_F_LOOKUP;
	memcpy(f->sname, name, len);
	f->snamelen = len;
	wire_name_lower(f->sname, len);
	f->qtype = qtype;
	f->qclass = qclass;
	f->qmin = qmin;
	f->seen[0] = iter_name_hash(f->sname, len);
	f->nseen = 1;
}

void iter_fail(struct iter_frame *f, const char *why)
{
	f->state = ITER_F_FAIL;
	if (f->why == NULL)
		f->why = why;
}

int iter_frame_push(struct iter_req *req, size_t ns, uint16_t qtype)
{
	struct iter_frame *parent = iter_frame_top(req);
	struct iter_frame *f;
	bool qmin = req->env->cfg != NULL && req->env->cfg->qname_minimisation;

	if (req->depth >= ITER_MAX_DEPTH)
		return -1;
	f = iter_frame_alloc(req); /* iter_frame_init clears it */
	if (f == NULL)
		return -1;
	iter_frame_init(f, parent->zone.ns[ns].name,
	                parent->zone.ns[ns].namelen, qtype, WIRE_CLASS_IN,
	                qmin);
	f->parent_ns = ns;
	req->depth++;
	req->frame[req->depth] = f;
	req->subqueries++;
	req->counts.subqueries++;
	return 0;
}

void iter_frame_pop(struct iter_req *req)
{
	if (req->depth == 0)
		return;
	iter_frame_retire(req, req->depth);
	iter_frame_free(req, req->frame[req->depth]);
	req->frame[req->depth] = NULL;
	req->depth--;
}

void iter_frame_newstep(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	size_t i, j;

	f->gen++;
	f->retry_set = false;
	/* The step's queries end, except those a fallback kept. */
	for (i = 0; i < req->nout; i++)
		if (req->out[i]->used && req->out[i]->frame == fi &&
		    !req->out[i]->kept)
			iter_out_free(req, req->out[i]);
	for (i = 0; i < f->zone.nns; i++)
		for (j = 0; j < f->zone.ns[i].naddr; j++)
			f->zone.ns[i].addr[j].tries = 0;
}

bool iter_name_seen(struct iter_frame *f, const uint8_t *name, size_t len)
{
	uint64_t h = iter_name_hash(name, len);
	size_t i;

	for (i = 0; i < f->nseen; i++)
		if (f->seen[i] == h)
			return true;
	if (f->nseen < ITER_MAX_CNAME + 1)
		f->seen[f->nseen++] = h;
	return false;
}

/* Give the addresses of an A/AAAA image to the NS the frame resolves. */
static void iter_deliver_image(struct iter_req *req, size_t fi,
                               const uint8_t *img, size_t len)
{
	struct iter_zone *z = &req->frame[fi - 1]->zone;
	size_t nsi = req->frame[fi]->parent_ns, pos = 0, n;
	struct answer_rr rr;

	if (nsi >= z->nns) /* the parent's cut changed meanwhile */
		return;
	for (n = 0; n < ITER_RRSET_MAX && answer_rr_next(img, len, &pos, &rr);
	     n++)
		iter_ns_add_addr(req, &z->ns[nsi], rr.type, img + rr.rdata,
		                 rr.rdlen);
}

/* A fresh chase over the cache for a frame's lookups, one link at a
 * time (the loop checks are iter_cname_step's). */
static struct answer_chase iter_chase(const struct iter_req *req,
                                      const struct iter_frame *f)
{
	struct answer_chase ch = {
		req->env->cache, f->qclass, req->now.wall, 0, 0, false
	};

	if (f == req->frame[0] && iter_val_on(req))
		ch.flags |= ANSWER_CHASE_DNSSEC;
	return ch;
}

/* A negative cache entry: SOA image into the authority buffer. */
static void iter_lookup_negative(struct iter_req *req, size_t fi,
                                 const struct cache_answer *ans,
                                 const uint8_t *img)
{
	if (fi > 0)
		return;
	req->rcode = ans->kind == CACHE_KIND_NXDOMAIN ? WIRE_RCODE_NXDOMAIN :
	                                                WIRE_RCODE_NOERROR;
	if (ans->len + ans->dnssec_len <= ITER_AUTH_MAX && ans->count > 0 &&
	    iter_buf_ns(req) != NULL) {
		/* the proofs of the chain that led here stay after it */
		struct iter_img chain = { req->ns_len > 0 ?
			                          malloc(ITER_AUTH_MAX) :
			                          NULL,
			                  req->ns_len, ITER_AUTH_MAX, 0 };

		if (chain.buf != NULL)
			memcpy(chain.buf, req->ns, req->ns_len);
		memmove(req->ns, img, ans->len + ans->dnssec_len);
		req->ns_len = ans->len + ans->dnssec_len;
		req->ns_count = (uint16_t)(ans->count + ans->dnssec_count);
		iter_answer_curve(req, ans->curve != 0);
		iter_authority_add(req, &chain, 0);
		free(chain.buf);
	}
	iter_val_note(req, ans->sec, iter_cached_status(ans->sec, ans->ede));
}

/* An RRset read for the client at img (req->an + req->an_len): the set
 * and its RRSIGs join the answer section, the proof of its wildcard
 * expansion, if cached with it, the authority section
 * (answer_dnssec_split). */
static void iter_image_take(struct iter_req *req,
                            const struct cache_answer *ans, uint8_t *img)
{
	struct answer_split sp;
	struct iter_img proof;

	answer_dnssec_split(ans, img, &sp);
	proof = (struct iter_img){ img + ans->len + sp.sig_len,
		                   ans->dnssec_len - sp.sig_len,
		                   ans->dnssec_len - sp.sig_len, 0 };
	req->an_len += ans->len + sp.sig_len;
	req->an_count = (uint16_t)(req->an_count + ans->count + sp.sig_count);
	if (proof.len > 0)
		iter_authority_add(req, &proof, 0);
}

/* The RRset (or negative entry) asked for, from the cache. */
static bool iter_lookup_exact(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	struct answer_chase ch = iter_chase(req, f);
	struct cache_answer ans;
	uint8_t *buf = iter_scratch;
	size_t cap = sizeof(iter_scratch);

	if (fi == 0) {
		/* read in place: the client's answer grows by it */
		if (iter_buf_an(req) == NULL)
			return false;
		buf = req->an + req->an_len;
		cap = ITER_RESULT_MAX - req->an_len;
	}
	if (!answer_read(&ch, f->sname, f->snamelen, f->qtype, &ans, buf, cap))
		return false;
	/* a DS frame settles a chain of trust: data cached unvalidated
	 * (while validation was off) is asked again */
	if (f->ds_frame && ans.sec == CACHE_SEC_UNCHECKED)
		return false;
	f->state = ITER_F_DONE;
	if (ans.kind != CACHE_KIND_RRSET) {
		iter_lookup_negative(req, fi, &ans, buf);
		return true;
	}
	if (fi > 0) {
		if (!f->ds_frame)
			iter_deliver_image(req, fi, buf, ans.len);
		return true;
	}
	if ((size_t)req->an_count + ans.count + ans.dnssec_count >
	    UINT16_MAX) {
		iter_fail(f, "answer too large");
		return true;
	}
	iter_image_take(req, &ans, buf);
	iter_answer_curve(req, ans.curve != 0);
	iter_val_note(req, ans.sec, iter_cached_status(ans.sec, ans.ede));
	return true;
}

/* A cached CNAME link (in iter_scratch) goes to the client's answer,
 * after the DNAME that synthesizes it when there is one; false: too
 * large (the frame failed). */
static bool iter_cname_to_client(struct iter_req *req, struct iter_frame *f,
                                 struct answer_chase *ch,
                                 const struct cache_answer *ans,
                                 const uint8_t *target, size_t tlen)
{
	size_t len = ans->len + ans->dnssec_len, dlen;
	uint16_t dcount = 0;
	uint8_t dsec = CACHE_SEC_SECURE;
	bool dcurve = true;

	dlen = answer_dname_before(ch, f->sname, f->snamelen, target, tlen,
	                           iter_scratch, len, sizeof(iter_scratch),
	                           &dcount, &dsec, &dcurve);
	if (iter_buf_an(req) == NULL ||
	    dlen + len > ITER_RESULT_MAX - req->an_len ||
	    (size_t)req->an_count + dcount + 1 + ans->dnssec_count >
	            UINT16_MAX) {
		iter_fail(f, "answer too large");
		return false;
	}
	memcpy(req->an + req->an_len, iter_scratch, dlen + len);
	req->an_len += dlen;
	req->an_count = (uint16_t)(req->an_count + dcount);
	iter_image_take(req, ans, req->an + req->an_len);
	iter_answer_curve(req, ans->curve != 0 && dcurve);
	if (dlen > 0)
		iter_val_note(req, dsec, iter_cached_status(dsec, 0));
	iter_val_note(req, ans->sec, iter_cached_status(ans->sec, ans->ede));
	return true;
}

/* A cached CNAME at the current name: follow it. */
static bool iter_lookup_cname(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	struct answer_chase ch = iter_chase(req, f);
	struct cache_answer ans;
	uint8_t target[WIRE_NAME_MAX];
	size_t tlen;

	/* the link's RRSIGs (and proof) too, for the client */
	ch.flags |= ANSWER_CHASE_ONE_CNAME;
	if (f->qtype == WIRE_TYPE_CNAME ||
	    !answer_cname(&ch, f->sname, f->snamelen, &ans, iter_scratch,
	                  sizeof(iter_scratch), target, &tlen))
		return false;
	if (fi == 0 && !iter_cname_to_client(req, f, &ch, &ans, target, tlen))
		return true;
	if (iter_cname_step(req, fi, target, tlen, 1))
		f->state = ITER_F_LOOKUP;
	return true;
}

/*
 * RFC 8020: a cached NXDOMAIN of an ancestor means the name does not
 * exist either ("there really is nothing underneath"): answered from
 * that entry's SOA without asking. Only NXDOMAINs of the name asked are
 * cached (a QNAME minimisation probe's NXDOMAIN is not: old servers
 * answer it for empty non-terminals), so one wrong answer cannot hide a
 * zone that exists.
 */
/** What the cache said of an ancestor for the RFC 8020 walk: go on
 *  (0) or stop (1), for one type and class (an ITER_MK_NX memo). */
struct iter_nxcut_memo {
	uint16_t qtype, qclass;
	int r;
};

/* The walk at ancestor (name, len): 0 go on, 1 stop, 2 an NXDOMAIN that
 * answers (in *ans and iter_scratch). Every name of a zone walks the
 * same ancestors: what they said is kept while it holds. */
static int iter_nxcut_at(struct iter_req *req, const struct iter_frame *f,
                         const uint8_t *name, size_t len,
                         struct cache_answer *ans)
{
	struct cache_query q = { name, len, f->qtype, f->qclass, 0 };
	struct iter_nxcut_memo v = { f->qtype, f->qclass, 0 };
	struct cache_watch w;
	int rc;

	if (iter_memo_get(req, ITER_MK_NX, name, len, &v, sizeof v) &&
	    v.qtype == f->qtype && v.qclass == f->qclass)
		return v.r;
	if (cache_watch(req->env->cache, name, len, &w) != CACHE_OK)
		w.cache_id = 0; /* nothing is remembered */
	rc = cache_get(req->env->cache, &q, req->now.wall, ans, iter_scratch,
	               sizeof(iter_scratch));
	v = (struct iter_nxcut_memo){ f->qtype, f->qclass, 0 };
	if (rc == CACHE_OK && ans->kind != CACHE_KIND_NXDOMAIN)
		v.r = 1;
	else if (rc == CACHE_OK && ans->rank >= CACHE_RANK_NONAUTH)
		return 2;
	/* the entry picked, if any, holds until it expires */
	iter_memo_put(req, ITER_MK_NX, name, len, &w,
	              rc == CACHE_OK || rc == CACHE_ESPACE ? ans->expire :
	                                                     (time_t)INT64_MAX,
	              &v, sizeof v);
	return v.r;
}

static bool iter_lookup_nxcut(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	const uint8_t *name = f->sname;
	size_t len = f->snamelen, walk;

	for (walk = 0; walk < ITER_CUT_WALK_MAX && len > 1; walk++) {
		struct cache_answer ans;
		size_t skip = (size_t)name[0] + 1;
		int r;

		name += skip;
		len -= skip;
		if (len <= 1)
			return false;
		r = iter_nxcut_at(req, f, name, len, &ans);
		if (r == 1)
			return false;
		if (r == 0)
			continue;
		f->state = ITER_F_DONE;
		iter_lookup_negative(req, fi, &ans, iter_scratch);
		return true;
	}
	return false;
}

/*
 * RFC 8198: NXDOMAIN or NODATA proven from validated NSEC records of
 * the shared index (nsecidx.h: only SECURE data goes in), answered like
 * a cached negative entry: the SOA and the records used in the
 * authority section, status SECURE. The client's question only (a
 * sub-frame's cache misses are asked), with validation on.
 */
static bool iter_lookup_aggressive(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	const struct cfg *cfg = req->env->cfg;
	struct nsecidx_answer a = { NULL, ITER_AUTH_MAX, 0, 0, 0 };
	enum nsecidx_verdict v;

	if (fi != 0 || !iter_aggressive_on(req) ||
	    f->qclass != WIRE_CLASS_IN ||
	    anchors_insecure(req->env->anchors, f->sname, f->snamelen) ||
	    (a.buf = iter_buf_ns(req)) == NULL)
		return false;
	v = nsecidx_deny(req->env->nsecidx, f->sname, f->snamelen, f->qtype,
	                 cfg != NULL ? cfg->neg_max_ttl : 0, req->now.wall,
	                 &a);
	if (v == NSECIDX_NONE)
		return false;
	f->state = ITER_F_DONE;
	req->rcode = v == NSECIDX_NXDOMAIN ? WIRE_RCODE_NXDOMAIN :
	                                     WIRE_RCODE_NOERROR;
	req->ns_len = a.len;
	req->ns_count = a.count;
	iter_answer_curve(req, false);
	iter_val_note(req, CACHE_SEC_SECURE, DNSSEC_OK);
	iter_tally(v == NSECIDX_NXDOMAIN ? req->env->tally.aggr_nx :
	                                   req->env->tally.aggr_nodata);
	if (log_level() >= CFG_LOG_DEBUG) {
		char name[WIRE_NAME_TEXT_MAX], t[RRTEXT_NAME_MAX];

		if (wire_name_to_text(f->sname, f->snamelen, name, sizeof name,
		                      NULL) != WIRE_OK)
			name[0] = '\0';
		log_debug("aggressive", "name=%s type=%s verdict=%s", name,
		          rrtext_type_name(f->qtype, t),
		          v == NSECIDX_NXDOMAIN ? "nxdomain" : "nodata");
	}
	return true;
}

void iter_state_lookup(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];

	if (f->qtype != WIRE_TYPE_ANY && !(fi == 0 && req->env->refresh)) {
		if (iter_lookup_exact(req, fi))
			return;
		if (iter_lookup_cname(req, fi))
			return;
		if (iter_lookup_nxcut(req, fi))
			return;
		if (iter_lookup_aggressive(req, fi))
			return;
		if (iter_lookup_wild(req, fi))
			return;
	}
	f->state = ITER_F_CUT;
}

/** An NS image of at most this many bytes is remembered parsed. */
#define ITER_ZMEMO_IMG 512

/* The NS names and keys last parsed from a cut's NS image (the thread's):
 * the same bytes (TTLs included) with the same curve setting give the
 * same names, so they are copied, not parsed again. The addresses are
 * read from the cache each time; the root's (hints) are never kept. */
struct iter_zmemo {
	bool valid, curve;
	size_t len, nns;
	uint8_t img[ITER_ZMEMO_IMG];
	struct iter_ns ns[ITER_NS_MAX]; /**< no addresses */
};

static _Thread_local struct iter_zmemo iter_zmemo_t;

/* Via a call, as iter_buf.c's (GCC 12's UBSan and thread-locals). */
static __attribute__((noinline)) struct iter_zmemo *iter_zmemo_of(void)
{
	return &iter_zmemo_t;
}

/* Whether the memo holds img's names (copied into z). */
static bool iter_zmemo_get(const struct iter_req *req, struct iter_zone *z,
                           const uint8_t *img, size_t len)
{
	const struct iter_zmemo *m = iter_zmemo_of();
	bool curve = req->env->cfg != NULL && req->env->cfg->curve;
	size_t i;

	if (!m->valid || m->len != len || m->curve != curve ||
	    memcmp(m->img, img, len) != 0)
		return false;
	for (i = 0; i < m->nns; i++) {
		struct iter_ns *ns = iter_zone_add(z);

		if (ns == NULL)
			break;
		*ns = m->ns[i];
	}
	return true;
}

static void iter_zmemo_put(const struct iter_req *req,
                           const struct iter_zone *z, const uint8_t *img,
                           size_t len)
{
	struct iter_zmemo *m = iter_zmemo_of();

	m->valid = len <= ITER_ZMEMO_IMG && z->len > 1;
	if (!m->valid)
		return;
	m->curve = req->env->cfg != NULL && req->env->cfg->curve;
	m->len = len;
	memcpy(m->img, img, len);
	m->nns = z->nns;
	memcpy(m->ns, z->ns, z->nns * sizeof(*z->ns));
}

/* The NS names of a cached NS image into z (no addresses); false when
 * it stopped short (no room). */
static bool iter_image_names(struct iter_req *req, struct iter_zone *z,
                             const uint8_t *img, size_t len)
{
	size_t pos = 0, n;

	for (n = 0; pos < len && n < ITER_RRSET_MAX && z->nns < ITER_NS_MAX;
	     n++) {
		uint8_t name[WIRE_NAME_MAX];
		size_t nlen, p;
		struct answer_rr rr;
		struct iter_ns *ns;

		if (!answer_rr_next(img, len, &pos, &rr))
			return true;
		p = rr.rdata;
		if ((rr.type != WIRE_TYPE_NS &&
		     rr.type != ITER_TYPE_PARENT_NS) ||
		    wire_read_name(img, rr.rdata + rr.rdlen, &p, name, &nlen,
		                   WIRE_NAME_LOWER) != WIRE_OK)
			continue;
		if ((ns = iter_zone_add(z)) == NULL)
			return false;
		iter_ns_set_name(req, ns, name, nlen);
		ns->hints = z->len == 1 && iter_hints_name(req, name, nlen);
	}
	return true;
}

/* Build a zone from a cached NS image whose owner is the zone. */
static void iter_zone_from_image(struct iter_req *req, struct iter_zone *z,
                                 const uint8_t *zone, size_t zonelen,
                                 const uint8_t *img, size_t len)
{
	size_t i;

	iter_zone_reset(z);
	memcpy(z->name, zone, zonelen);
	z->len = zonelen;
	if (zonelen == 1 || !iter_zmemo_get(req, z, img, len)) {
		if (iter_image_names(req, z, img, len))
			iter_zmemo_put(req, z, img, len);
	}
	for (i = 0; i < z->nns; i++)
		iter_ns_cache_addrs(req, &z->ns[i]);
}

/* Keep the frame's timed-out queries open across a change of cut. */
static void iter_keep_lingering(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	size_t i;

	memcpy(f->above, f->zone.name, f->zone.len);
	f->abovelen = f->zone.len;
	for (i = 0; i < req->nout; i++) {
		struct iter_out *o = req->out[i];

		if (o->used && o->frame == fi && o->gen == f->gen &&
		    o->timed_out && !o->minimised)
			o->kept = true;
	}
}

/* Whether two zones list the same NS names. */
static bool iter_zone_same_ns(const struct iter_zone *a,
                              const struct iter_zone *b)
{
	size_t i, j;

	if (a->nns != b->nns)
		return false;
	for (i = 0; i < a->nns; i++) {
		bool found = false;

		for (j = 0; j < b->nns && !found; j++)
			found = wire_name_equal(a->ns[i].name,
			                        a->ns[i].namelen,
			                        b->ns[j].name,
			                        b->ns[j].namelen);
		if (!found)
			return false;
	}
	return true;
}

static void iter_fallback_log(const struct iter_frame *f, const char *to)
{
	char zone[WIRE_NAME_TEXT_MAX];

	if (log_level() >= CFG_LOG_DEBUG &&
	    wire_name_to_text(f->zone.name, f->zone.len, zone, sizeof zone,
	                      NULL) == WIRE_OK)
		log_debug("iter_fallback", "zone=%s to=%s note=%s", zone, to,
		          "no server of the zone answered");
}

/* The parent's NS set of f->zone, kept from its referral
 * (ITER_TYPE_PARENT_NS), into *z; false: none, or the same servers, or
 * none usable. */
static bool iter_parent_side_load(struct iter_req *req, struct iter_frame *f,
                                  struct iter_zone *z)
{
	struct cache_query q = { f->zone.name, f->zone.len,
		                 ITER_TYPE_PARENT_NS, f->qclass, 0 };
	struct cache_answer ans;

	f->parent_side = true;
	if (cache_get(req->env->cache, &q, req->now.wall, &ans, iter_scratch,
	              sizeof(iter_scratch)) != CACHE_OK ||
	    ans.kind != CACHE_KIND_RRSET)
		return false;
	iter_zone_from_image(req, z, f->zone.name, f->zone.len, iter_scratch,
	                     ans.len);
	return z->nns > 0 && !iter_zone_same_ns(z, &f->zone) &&
	       iter_zone_usable(req, z);
}

/* CUT: the zone's own NS set has no usable server: the parent's. */
static bool iter_parent_side_zone(struct iter_req *req, struct iter_frame *f)
{
	struct iter_zone z = { .ns = NULL };
	bool use = iter_parent_side_load(req, f, &z);

	if (use) {
		iter_fallback_log(f, "parent-ns");
		iter_zone_move(&f->zone, &z);
	}
	iter_zone_drop(&z);
	return use;
}

/* The closest cached zone cut with usable servers; false: none. After a
 * fallback the walk starts at the parent of the zone that failed. */
static bool iter_cut_cached(struct iter_req *req, struct iter_frame *f)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t len = f->snamelen, walk;

	memcpy(name, f->sname, len);
	if (f->above_pending && f->abovelen > 1) {
		size_t skip = (size_t)f->above[0] + 1;

		len = f->abovelen - skip;
		memcpy(name, f->above + skip, len);
	} else if (f->qtype == WIRE_TYPE_DS && len > 1) {
		/* DS lives in the parent zone (RFC 4035 section 3.1.4.1): the
		 * walk starts above the name's own cut. */
		size_t skip = (size_t)name[0] + 1;

		memmove(name, name + skip, len - skip);
		len -= skip;
	}
	f->above_pending = false;
	for (walk = 0; walk < ITER_CUT_WALK_MAX; walk++) {
		struct cache_query q = { name, len, WIRE_TYPE_NS, f->qclass,
			                 0 };
		struct cache_answer ans;
		size_t off, zlen;

		if (cache_closest_ns(req->env->cache, &q, req->now.wall, &ans,
		                     iter_scratch,
		                     sizeof(iter_scratch)) != CACHE_OK ||
		    ans.owner_off >= len)
			return false;
		off = ans.owner_off;
		zlen = len - off;
		iter_zone_from_image(req, &f->zone, name + off, zlen,
		                     iter_scratch, ans.len);
		if (iter_zone_usable(req, &f->zone) ||
		    (iter_zone_parent_glue(req, &f->zone, false) &&
		     iter_zone_usable(req, &f->zone)) ||
		    (!f->parent_side && iter_parent_side_zone(req, f)))
			return true;
		if (zlen == 1)
			return false;
		/* No usable server there: try the cut above it. */
		off += (size_t)name[off] + 1;
		memmove(name, name + off, len - off);
		len -= off;
	}
	return false;
}

/* Whether some address of the zone was asked in this step. */
static bool iter_zone_asked(const struct iter_zone *z)
{
	size_t i, j;

	for (i = 0; i < z->nns; i++)
		for (j = 0; j < z->ns[i].naddr; j++)
			if (z->ns[i].addr[j].tries > 0 ||
			    z->ns[i].addr[j].dead)
				return true;
	return false;
}

/* Whether every NS name of the zone without an address was looked up in
 * vain (a child NS set whose names do not resolve). */
static bool iter_zone_looked_up(const struct iter_zone *z)
{
	size_t i;

	for (i = 0; i < z->nns; i++)
		if (z->ns[i].naddr == 0 && z->ns[i].sub == 0)
			return false;
	return z->nns > 0;
}

/* Every server of the zone failed: the parent's NS set, if another. */
static bool iter_parent_side(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	struct iter_zone z = { .ns = NULL };
	bool use = iter_parent_side_load(req, f, &z);

	if (use) {
		iter_fallback_log(f, "parent-ns");
		iter_keep_lingering(req, fi);
		iter_zone_move(&f->zone, &z);
		iter_frame_newstep(req, fi);
		f->state = ITER_F_QUERY;
	}
	iter_zone_drop(&z);
	return use;
}

/* Whether a query of the frame's step passed its hedge deadline but not
 * yet its real timeout (the server may only be slow). */
static bool iter_frame_hedging(const struct iter_req *req, size_t fi)
{
	const struct iter_frame *f = req->frame[fi];
	size_t i;

	for (i = 0; i < req->nout; i++) {
		const struct iter_out *o = req->out[i];

		if (o->used && o->hedged && !o->timed_out && o->frame == fi &&
		    o->gen == f->gen)
			return true;
	}
	return false;
}

bool iter_cut_fallback(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	bool asked;

	/* Only after servers were asked and failed (a zone without any
	 * address would come back the same; a query past its hedge only is
	 * waited for); not above the root, nor away from configured (stub)
	 * servers. */
	if (f->zone.len <= 1 || f->zone.nns == 0 || f->zone.ns[0].hints ||
	    iter_frame_hedging(req, fi))
		return false;
	asked = iter_zone_asked(&f->zone);
	/* First the addresses the parent's glue gave for these NS names,
	 * where the zone's own replaced them (RFC 2181 section 5.4.1). */
	if (asked && !f->parent_glue) {
		f->parent_glue = true;
		if (iter_zone_parent_glue(req, &f->zone, true)) {
			iter_fallback_log(f, "parent-glue");
			iter_tally(req->env->tally.fallback);
			return true;
		}
	}
	/* Then the parent's own NS set and glue, from the cache (also when
	 * none of the child's NS names resolved). */
	if (!f->parent_side && (asked || iter_zone_looked_up(&f->zone))) {
		if (iter_parent_side(req, fi)) {
			iter_tally(req->env->tally.fallback);
			return true;
		}
	}
	/* Then ask the parent again, after servers were really asked. */
	if (!asked || f->fallbacks >= ITER_FALLBACK_MAX)
		return false;
	f->fallbacks++;
	iter_fallback_log(f, "parent");
	iter_keep_lingering(req, fi);
	f->above_pending = true;
	f->state = ITER_F_CUT;
	iter_tally(req->env->tally.fallback);
	return true;
}

void iter_state_cut(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	bool fwd = iter_cut_forward(req, f);
	bool cached = !fwd && iter_cut_cached(req, f);

	if (!fwd && !iter_cut_stub(req, f, cached) && !cached) {
		const uint64_t *after = req->env->prime_after;

		iter_zone_from_hints(req, &f->zone);
		f->prime = after == NULL || req->now.mono_ms >= *after;
	}
	if (f->zone.nns == 0) {
		iter_fail(f, "no root hints");
		return;
	}
	iter_qmin_reset(f);
	iter_frame_newstep(req, fi);
	f->trust = ITER_T_UNKNOWN;
	f->ds_asked = false;
	f->state = ITER_F_QUERY;
}
