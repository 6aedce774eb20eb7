/*
 * resolver/iter/iter_trust.c - the chain of trust of a frame's zone cut
 * (RFC 4035 section 5): before a frame asks a zone anything, it knows
 * whether the zone is SECURE (its DNSKEY set validated and cached),
 * INSECURE or BOGUS, or what is missing: the zone's DS (a DS frame asks
 * the parent, like Unbound's and Knot's DS sub-queries) or its DNSKEY
 * set (asked of the zone's own servers as the step's question, checked
 * against the DS set or the trust anchor: iter_trust_key_reply).
 *
 * Everything is read from the cache, so a cached chain costs lookups
 * only: a validated DNSKEY set is reused for its TTL, and one proven
 * unsigned delegation (ITER_TYPE_NODS, or an INSECURE DNSKEY or DS
 * entry above) makes everything below it insecure without asking.
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "iter_int.h"
#include "anchor/anchor.h"
#include "validate/dnssec_set.h"

/** Bytes read back from the cache for a DS or DNSKEY set. */
#define ITER_TRUST_BUF ITER_RDATA_BYTES

bool iter_val_on(const struct iter_req *req)
{
	return req->env->anchors != NULL &&
	       anchors_count(req->env->anchors) > 0;
}

/* One cache read of (name, type): CACHE_OK or not found. */
static bool iter_trust_get(struct iter_req *req, const uint8_t *name,
                           size_t len, uint16_t type, struct cache_answer *ans,
                           uint8_t *buf)
{
	struct cache_query q = { name, len, type, WIRE_CLASS_IN, 0 };

	return cache_get(req->env->cache, &q, req->now.wall, ans, buf,
	                 ITER_TRUST_BUF) == CACHE_OK;
}

/* The status of (name, type) in the cache without its records: no
 * buffer, so cache_get fills ans and copies nothing (CACHE_ESPACE); a
 * zone's DNSKEY set (a KeyTrap set: 40 keys, 10 KB) is read whole only
 * where its keys are used (iter_val.c). */
static bool iter_trust_peek(struct iter_req *req, const uint8_t *name,
                            size_t len, uint16_t type,
                            struct cache_answer *ans)
{
	struct cache_query q = { name, len, type, WIRE_CLASS_IN, 0 };
	int rc = cache_get(req->env->cache, &q, req->now.wall, ans, NULL, 0);

	return rc == CACHE_OK || rc == CACHE_ESPACE;
}

/* RDATA views of an RRset image read from the cache. */
static size_t iter_trust_views(const uint8_t *img, size_t len,
                               struct dnssec_rdata *out, size_t max)
{
	struct answer_rr rr;
	size_t pos = 0, n = 0;

	while (n < max && answer_rr_next(img, len, &pos, &rr)) {
		out[n] = (struct dnssec_rdata){ img, len, rr.rdata, rr.rdlen };
		n++;
	}
	return n;
}

/* What the cached DS entry of zone says, or ITER_T_UNKNOWN. */
static enum iter_trust iter_trust_ds(struct iter_req *req, const uint8_t *z,
                                     size_t zlen, uint8_t *buf)
{
	struct dnssec_rdata ds[ITER_RRSET_MAX];
	struct cache_answer ans;
	size_t n;

	if (!iter_trust_get(req, z, zlen, WIRE_TYPE_DS, &ans, buf))
		return ITER_T_UNKNOWN;
	if (ans.sec == CACHE_SEC_BOGUS)
		return ITER_T_BOGUS;
	if (ans.kind != CACHE_KIND_RRSET)
		return ans.sec == CACHE_SEC_UNCHECKED ? ITER_T_UNKNOWN :
		                                        ITER_T_INSECURE;
	if (ans.sec == CACHE_SEC_INSECURE)
		return ITER_T_INSECURE;
	if (ans.sec != CACHE_SEC_SECURE)
		return ITER_T_UNKNOWN;
	/* no DS with a supported digest and algorithm: insecure (RFC
	 * 4035 section 5.2) */
	n = iter_trust_views(buf, ans.len, ds, ITER_RRSET_MAX);
	return dnssec_ds_usable(ds, n) == DNSSEC_OK ? ITER_T_NEED_KEY :
	                                              ITER_T_INSECURE;
}

/* Whether an ancestor between zone and the anchor is known insecure. */
static bool iter_trust_above_insecure(struct iter_req *req, const uint8_t *z,
                                      size_t zlen, size_t anchorlen,
                                      uint8_t *buf)
{
	struct cache_answer ans;

	while (zlen > anchorlen && zlen > 1) {
		size_t skip = (size_t)z[0] + 1;

		z += skip;
		zlen -= skip;
		if (iter_trust_get(req, z, zlen, ITER_TYPE_NODS, &ans, buf) &&
		    ans.kind == CACHE_KIND_RRSET)
			return true;
		if (iter_trust_get(req, z, zlen, WIRE_TYPE_DNSKEY, &ans,
		                   buf) &&
		    ans.kind == CACHE_KIND_RRSET) {
			if (ans.sec == CACHE_SEC_INSECURE)
				return true;
			if (ans.sec == CACHE_SEC_SECURE)
				return false;
		}
	}
	return false;
}

/* Why a zone's DNSKEY set was found BOGUS (ITER_TYPE_BOGUS_WHY). */
static int iter_trust_why(struct iter_req *req, const uint8_t *z, size_t zlen,
                          uint8_t *buf)
{
	struct cache_answer ans;
	struct answer_rr rr;
	size_t pos = 0;

	if (!iter_trust_get(req, z, zlen, ITER_TYPE_BOGUS_WHY, &ans, buf) ||
	    ans.kind != CACHE_KIND_RRSET ||
	    !answer_rr_next(buf, ans.len, &pos, &rr) || rr.rdlen != 2)
		return DNSSEC_EBADSIG;
	return buf[rr.rdata] << 8 | buf[rr.rdata + 1];
}

/* What the cache said of a zone's trust when read from its own entries
 * alone (its DNSKEY set's status, or its NODS mark), kept while they
 * hold (iter_memo_get): a name in an unsigned zone below a signed parent
 * took two cache reads here for each question. The anchors are asked
 * each time. */
struct iter_trust_memo {
	enum iter_trust t;
	bool nods; /**< from the NODS mark: never the anchor's own zone */
};

/* Remember trust t of zone z, read under watch w from entries of which
 * the first expires at expire (nods: from the NODS mark); t. */
static enum iter_trust iter_trust_memo_put(const struct iter_req *req,
                                           const uint8_t *z, size_t zlen,
                                           const struct cache_watch *w,
                                           time_t expire, bool nods,
                                           enum iter_trust t)
{
	struct iter_trust_memo v = { t, nods };

	iter_memo_put(req, ITER_MK_KEY, z, zlen, w, expire, &v, sizeof v);
	return t;
}

/* The trust of a zone from its own cache entries (its DNSKEY set's
 * status, its NODS mark): ITER_T_UNKNOWN when they do not settle it. */
static enum iter_trust iter_trust_own(struct iter_req *req, const uint8_t *z,
                                      size_t zlen, bool at_anchor,
                                      uint8_t *buf)
{
	struct cache_watch w = { 0, 0, 0 };
	struct cache_answer ans;
	enum iter_trust t;
	time_t expire = (time_t)INT64_MAX;
	struct iter_trust_memo v;

	if (iter_memo_get(req, ITER_MK_KEY, z, zlen, &v, sizeof v) &&
	    !(v.nods && at_anchor))
		return v.t;
	if (cache_watch(req->env->cache, z, zlen, &w) != CACHE_OK)
		w.cache_id = 0; /* nothing is remembered */
	if (iter_trust_peek(req, z, zlen, WIRE_TYPE_DNSKEY, &ans)) {
		/* the entry picked holds until it expires (a negative
		 * one too: then another may be) */
		expire = ans.expire;
		t = ans.kind != CACHE_KIND_RRSET  ? ITER_T_UNKNOWN :
		    ans.sec == CACHE_SEC_SECURE   ? ITER_T_SECURE :
		    ans.sec == CACHE_SEC_INSECURE ? ITER_T_INSECURE :
		    ans.sec == CACHE_SEC_BOGUS    ? ITER_T_BOGUS :
		                                    ITER_T_UNKNOWN;
		if (t != ITER_T_UNKNOWN)
			return iter_trust_memo_put(req, z, zlen, &w, expire,
			                           false, t);
	}
	if (at_anchor)
		return ITER_T_NEED_KEY;
	if (iter_trust_get(req, z, zlen, ITER_TYPE_NODS, &ans, buf) &&
	    ans.kind == CACHE_KIND_RRSET)
		return iter_trust_memo_put(req, z, zlen, &w,
		                           ans.expire < expire ? ans.expire :
		                                                 expire,
		                           true, ITER_T_INSECURE);
	return ITER_T_UNKNOWN;
}

/* The trust of a zone from the anchors and the cache. */
static enum iter_trust iter_trust_eval(struct iter_req *req, const uint8_t *z,
                                       size_t zlen, uint8_t *buf)
{
	const struct anchors *an = req->env->anchors;
	const struct anchor *a;
	enum iter_trust t;

	if (!iter_val_on(req) || anchors_insecure(an, z, zlen) ||
	    (a = anchors_find(an, z, zlen)) == NULL)
		return ITER_T_INSECURE;
	t = iter_trust_own(req, z, zlen,
	                   wire_name_equal(z, zlen, a->name, a->namelen), buf);
	if (t != ITER_T_UNKNOWN)
		return t;
	t = iter_trust_ds(req, z, zlen, buf);
	if (t != ITER_T_UNKNOWN)
		return t;
	return iter_trust_above_insecure(req, z, zlen, a->namelen, buf) ?
	               ITER_T_INSECURE :
	               ITER_T_NEED_DS;
}

/* Push a frame that resolves (zone, DS) for frame fi. */
static bool iter_trust_push_ds(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	struct iter_frame *d;
	size_t i;

	if (req->depth >= ITER_MAX_DEPTH || f->ds_asked)
		return false;
	for (i = 0; i <= req->depth; i++)
		if (req->frame[i]->qtype == WIRE_TYPE_DS &&
		    wire_name_equal(req->frame[i]->sname,
		                    req->frame[i]->snamelen, f->zone.name,
		                    f->zone.len))
			return false;
	d = iter_frame_alloc(req); /* iter_frame_init clears it */
	if (d == NULL)
		return false;
	iter_frame_init(d, f->zone.name, f->zone.len, WIRE_TYPE_DS,
	                WIRE_CLASS_IN, f->qmin);
	d->ds_frame = true;
	f->ds_asked = true;
	req->depth++;
	req->frame[req->depth] = d;
	req->counts.subqueries++;
	return true;
}

bool iter_trust_step(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	uint8_t *buf;
	int walk = 0;

	if (f->prime ||
	    (f->trust != ITER_T_UNKNOWN && f->trust != ITER_T_NEED_DS))
		return false;
	if (f->trust == ITER_T_UNKNOWN) {
		if ((buf = iter_tmp_take(ITER_RDATA_BYTES)) == NULL) {
			f->trust = ITER_T_BOGUS;
			f->trust_status = DNSSEC_ECRYPTO;
			return false;
		}
		do
			f->trust = iter_trust_eval(req, f->zone.name,
			                           f->zone.len, buf);
		while ((walk = iter_signer_step(req, fi)) == 1);
		if (f->trust == ITER_T_BOGUS && walk == 0)
			f->trust_status = iter_trust_why(req, f->zone.name,
			                                 f->zone.len, buf);
		iter_tmp_give(ITER_RDATA_BYTES, buf);
	}
	if (f->trust != ITER_T_NEED_DS)
		return false;
	if (iter_trust_push_ds(req, fi)) {
		f->trust = ITER_T_UNKNOWN; /* settled again after it */
		return true;
	}
	/* the DS could not be had (its fetch failed, timed out, or what it
	 * cached was evicted): a failure, not a bogus verdict */
	f->trust = ITER_T_BOGUS;
	f->trust_status = iter_val_lost(req, ITER_WHY_DS_LOST);
	return false;
}

/* The DS and DNSKEY records that vouch for zone: the anchor's when the
 * zone is anchored, else its cached SECURE DS set (views into buf). */
static void iter_trust_vouch(struct iter_req *req, const uint8_t *z,
                             size_t zlen, uint8_t *buf,
                             struct dnssec_rdata *ds, size_t *nds,
                             struct dnssec_rdata *ak, size_t *nak)
{
	const struct anchor *a = anchors_find(req->env->anchors, z, zlen);
	struct cache_answer ans;
	size_t i;

	*nds = *nak = 0;
	if (a != NULL && wire_name_equal(z, zlen, a->name, a->namelen)) {
		for (i = 0; i < a->nds && *nds < ITER_RRSET_MAX; i++)
			ds[(*nds)++] = (struct dnssec_rdata){ a->ds[i].data,
				                              a->ds[i].len, 0,
				                              a->ds[i].len };
		for (i = 0; i < a->ndnskey && *nak < ITER_RRSET_MAX; i++)
			ak[(*nak)++] =
				(struct dnssec_rdata){ a->dnskey[i].data,
				                       a->dnskey[i].len, 0,
				                       a->dnskey[i].len };
		return;
	}
	if (iter_trust_get(req, z, zlen, WIRE_TYPE_DS, &ans, buf) &&
	    ans.kind == CACHE_KIND_RRSET && ans.sec == CACHE_SEC_SECURE)
		*nds = iter_trust_views(buf, ans.len, ds, ITER_RRSET_MAX);
}

/* The DNSKEY RRset of a reply, checked against what vouches for it. */
static uint8_t iter_trust_keys_check(struct iter_req *req, const uint8_t *z,
                                     size_t zlen, const struct wire_msg *m,
                                     struct cache_rdata *rd, size_t *n,
                                     uint32_t *ttl, int *status)
{
	struct dnssec_rdata *v = calloc(3 * ITER_RRSET_MAX, sizeof(*v));
	struct dnssec_rdata *ds = v + ITER_RRSET_MAX,
			    *ak = ds + ITER_RRSET_MAX;
	struct dnssec_rdata sigs[2 * DNSSEC_SIGS_PER_SET];
	uint8_t *buf = malloc(ITER_TRUST_BUF);
	struct dnssec_rrset set = { z, zlen, WIRE_TYPE_DNSKEY, WIRE_CLASS_IN,
		                    v, 0 };
	struct dnssec_verdict verdict;
	size_t i, nds, nak, nsigs = 0;

	*n = 0;
	*status = DNSSEC_ECRYPTO;
	if (v != NULL && buf != NULL) {
		for (i = 0; i < m->an && *n < ITER_RRSET_MAX; i++) {
			const struct wire_rr *rr = &m->rr[i];
			uint8_t owner[WIRE_NAME_MAX];
			size_t olen;

			if (rr->rclass != WIRE_CLASS_IN ||
			    !iter_rr_owner(m, rr, owner, &olen) ||
			    !wire_name_equal(owner, olen, z, zlen))
				continue;
			if (rr->type == WIRE_TYPE_RRSIG &&
			    nsigs < 2 * DNSSEC_SIGS_PER_SET)
				sigs[nsigs++] = (struct dnssec_rdata){
					m->buf, m->len, rr->rdata, rr->rdlen
				};
			if (rr->type != WIRE_TYPE_DNSKEY)
				continue;
			rd[*n] = (struct cache_rdata){ m->buf + rr->rdata,
				                       rr->rdlen };
			v[(*n)++] = (struct dnssec_rdata){ m->buf, m->len,
				                           rr->rdata,
				                           rr->rdlen };
			if (*n == 1 || iter_ttl(req, rr->ttl) < *ttl)
				*ttl = iter_ttl(req, rr->ttl);
		}
		set.count = *n;
		iter_trust_vouch(req, z, zlen, buf, ds, &nds, ak, &nak);
		/* the DS the keys were asked by left the cache meanwhile */
		*status = nds + nak == 0 ?
		                  iter_val_lost(req, ITER_WHY_DS_LOST) :
		          *n == 0 ?
		                  DNSSEC_EMISMATCH :
		                  dnssec_keys_verify(&set, sigs, nsigs, ds,
		                                     nds, ak, nak,
		                                     req->now.wall,
		                                     &req->val_work, &verdict);
	}
	free(buf);
	free(v);
	if (*status == DNSSEC_OK && verdict.ttl < *ttl)
		*ttl = verdict.ttl;
	return *status == DNSSEC_OK ? CACHE_SEC_SECURE :
	       *status == DNSSEC_EUNSUPPORTED_ALG ||
	                       *status == DNSSEC_EUNSUPPORTED_DIGEST ?
	                              CACHE_SEC_INSECURE :
	                              CACHE_SEC_BOGUS;
}

int iter_trust_keys_status(struct iter_req *req, const uint8_t *z, size_t zlen,
                           const struct wire_msg *m, uint32_t *ttl)
{
	struct cache_rdata *rd = calloc(ITER_RRSET_MAX, sizeof(*rd));
	uint32_t t = *ttl;
	size_t n = 0;
	int status = DNSSEC_ECRYPTO;

	if (rd != NULL)
		(void)iter_trust_keys_check(req, z, zlen, m, rd, &n, &t,
		                            &status);
	free(rd);
	if (status == DNSSEC_OK && t < *ttl)
		*ttl = t;
	return status;
}

/* Keep why a zone's keys are bogus beside them, as long as they are. */
static void iter_trust_note_why(struct iter_req *req, const uint8_t *z,
                                size_t zlen, int status)
{
	uint8_t why[2] = { (uint8_t)(status >> 8), (uint8_t)status };
	struct cache_rdata rd = { why, sizeof why };
	struct cache_rrset set = { z,
		                   zlen,
		                   ITER_TYPE_BOGUS_WHY,
		                   WIRE_CLASS_IN,
		                   iter_bogus_ttl(req),
		                   &rd,
		                   1,
		                   CACHE_RANK_AUTH,
		                   NULL,
		                   CACHE_SEC_BOGUS,
		                   NULL,
		                   0 };

	(void)cache_rrset_put_via(req->env->cache, &set, req->now.wall,
	                          CACHE_VIA_LOCAL);
}

/* The set read (with its RRSIGs) into buf as ans, cached BOGUS. */
static void iter_trust_keys_hold(struct iter_req *req, const uint8_t *z,
                                 size_t zlen, const uint8_t *buf,
                                 const struct cache_answer *ans)
{
	struct cache_rdata *rd = calloc(ITER_RRSET_MAX, sizeof(*rd));
	struct cache_rrset set;
	struct answer_rr rr;
	size_t pos = 0, n = 0;

	if (rd == NULL)
		return;
	while (n < ITER_RRSET_MAX &&
	       answer_rr_next(buf, ans->len, &pos, &rr)) {
		rd[n].data = buf + rr.rdata;
		rd[n].len = rr.rdlen;
		n++;
	}
	set = (struct cache_rrset){ z,
		                    zlen,
		                    WIRE_TYPE_DNSKEY,
		                    WIRE_CLASS_IN,
		                    iter_bogus_ttl(req),
		                    rd,
		                    n,
		                    ans->rank,
		                    NULL,
		                    CACHE_SEC_BOGUS,
		                    buf + ans->len,
		                    ans->dnssec_len };
	/* a SECURE set outranks a BOGUS one of its rank: it goes first */
	if (n > 0 && cache_flush_type(req->env->cache, z, zlen,
	                              WIRE_TYPE_DNSKEY, NULL) == CACHE_OK) {
		(void)cache_rrset_put_via(req->env->cache, &set, req->now.wall,
		                          ans->via);
		iter_trust_note_why(req, z, zlen, DNSSEC_EFAILCAP);
		iter_val_log(req, z, zlen, z, zlen, WIRE_TYPE_DNSKEY,
		             CACHE_SEC_BOGUS, DNSSEC_EFAILCAP);
	}
	free(rd);
}

/*
 * KeyTrap (CVE-2023-50387): a zone whose validated key set holds
 * DNSSEC_KEYS_PER_TAG or more keys of one tag makes each question that
 * meets a signature of that tag spend its whole failure budget, and fail.
 * Once that happened, the key set is cached BOGUS (why: the failure cap)
 * for the bogus TTL, as Unbound marks a zone's keys bad: the zone's
 * later questions are bogus with the same EDE without a verification.
 * The collision is in the key set, which the zone signed, not in a
 * reply: a forged answer with bad signatures cannot mark a zone so.
 */
void iter_trust_keys_capped(struct iter_req *req, const uint8_t *z,
                            size_t zlen, const struct dnssec_rdata *keys,
                            size_t n)
{
	struct cache_query q = { z, zlen, WIRE_TYPE_DNSKEY, WIRE_CLASS_IN,
		                 CACHE_GET_DNSSEC };
	struct cache_answer ans;
	uint8_t *buf;

	if (n == 0 || !dnssec_keys_collide(keys, n) ||
	    (buf = malloc(ITER_TRUST_BUF)) == NULL)
		return;
	if (cache_get(req->env->cache, &q, req->now.wall, &ans, buf,
	              ITER_TRUST_BUF) == CACHE_OK &&
	    ans.kind == CACHE_KIND_RRSET && ans.sec == CACHE_SEC_SECURE)
		iter_trust_keys_hold(req, z, zlen, buf, &ans);
	free(buf);
}

int iter_trust_keys_held(struct iter_req *req, const uint8_t *z, size_t zlen,
                         uint8_t *buf)
{
	return iter_trust_why(req, z, zlen, buf) == DNSSEC_EFAILCAP ?
	               DNSSEC_EFAILCAP :
	               DNSSEC_OK;
}

/* The zone's DNSKEY set is cached SECURE already: the frame goes on. */
static bool iter_trust_keys_cached(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	struct cache_query q = { f->zone.name, f->zone.len, WIRE_TYPE_DNSKEY,
		                 WIRE_CLASS_IN, 0 };
	struct cache_answer ans;

	if (cache_get(req->env->cache, &q, req->now.wall, &ans, iter_scratch,
	              sizeof(iter_scratch)) != CACHE_OK ||
	    ans.kind != CACHE_KIND_RRSET || ans.sec != CACHE_SEC_SECURE)
		return false;
	f->trust = ITER_T_SECURE;
	iter_frame_newstep(req, fi);
	f->state = ITER_F_QUERY;
	return true;
}

void iter_trust_key_reply(struct iter_req *req, size_t fi,
                          const struct wire_msg *m, const uint8_t *key)
{
	struct iter_frame *f = req->frame[fi];
	const struct iter_class *c = &iter_cls;
	struct cache_rdata *rd = calloc(ITER_RRSET_MAX, sizeof(*rd));
	uint8_t imgbuf[ITER_AUTH_MAX];
	struct iter_img img = { imgbuf, 0, sizeof imgbuf, 0 };
	uint32_t ttl = 0;
	size_t n = 0;
	int status = DNSSEC_EMISMATCH;
	uint8_t sec = CACHE_SEC_BOGUS;

	if (iter_trust_keys_cached(req, fi)) {
		/* another resolution asked and checked them meanwhile (a
		 * burst of names under a new zone shares one upstream
		 * answer): no second verification */
		free(rd);
		return;
	}
	if (rd != NULL && c->kind == ITER_K_ANSWER && c->nlink == 0)
		sec = iter_trust_keys_check(req, f->zone.name, f->zone.len, m,
		                            rd, &n, &ttl, &status);
	if (n > 0 && status != DNSSEC_EBUDGET) {
		struct cache_rrset set;

		if (sec == CACHE_SEC_BOGUS && ttl > iter_bogus_ttl(req))
			ttl = iter_bogus_ttl(req);
		iter_img_sigs(&img, m, WIRE_SECTION_ANSWER, f->zone.name,
		              f->zone.len, WIRE_TYPE_DNSKEY);
		set = (struct cache_rrset){
			f->zone.name,
			f->zone.len,
			WIRE_TYPE_DNSKEY,
			WIRE_CLASS_IN,
			ttl,
			rd,
			n,
			(enum cache_rank)iter_data_rank(c),
			key,
			(enum cache_sec)sec,
			img.buf,
			img.len,
		};
		(void)cache_rrset_put_via(req->env->cache, &set, req->now.wall,
		                          (enum cache_via)req->via);
	}
	if (sec == CACHE_SEC_BOGUS && status != DNSSEC_EBUDGET)
		iter_trust_note_why(req, f->zone.name, f->zone.len, status);
	free(rd);
	f->trust = sec == CACHE_SEC_SECURE   ? ITER_T_SECURE :
	           sec == CACHE_SEC_INSECURE ? ITER_T_INSECURE :
	                                       ITER_T_BOGUS;
	f->trust_status = status;
	iter_val_log(req, f->zone.name, f->zone.len, f->zone.name, f->zone.len,
	             WIRE_TYPE_DNSKEY, sec, status);
	if (sec == CACHE_SEC_BOGUS) {
		req->bogus_n++;
		iter_tally(req->env->tally.rrset_bogus);
	}
	iter_frame_newstep(req, fi);
	f->state = ITER_F_QUERY;
}
