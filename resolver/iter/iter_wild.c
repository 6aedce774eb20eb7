/*
 * resolver/iter/iter_wild.c - answers synthesized from a cached wildcard
 * (RFC 8198 section 5.4, aggressive use of the DNSSEC-validated cache;
 * RFC 4035 section 5.3.4 for what makes such an answer secure):
 * - iter_wild_keep: a SECURE answer expanded from a wildcard in an NSEC
 *   zone leaves the wildcard's own RRset cached at its name ("*." + the
 *   closest encloser, with its RRSIGs) and the NSEC records proving the
 *   expansion in the shared index (nsecidx_put_nsecs);
 * - iter_lookup_wild: when the client's question missed the cache, an
 *   NSEC of the index proves its name does not exist and the wildcard
 *   at the closest encloser it shows is cached SECURE (the type asked,
 *   or a CNAME, followed then), the answer is made from it without
 *   asking upstream: the name asked as owner, the wildcard's RRSIGs
 *   (labels field below the owner's: a validator downstream sees the
 *   expansion), the NSEC and its RRSIGs in the authority section, every
 *   TTL the least of the RRset's and the NSEC's (nsecidx_wild), SECURE.
 * Both run on the cold path only (a reply applied, a cache miss).
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "conf/cfg.h"
#include "iter_int.h"
#include "base/log.h"
#include "infra/nsecidx.h"
#include "anchor/anchor.h"
#include "validate/dnssec.h"
#include "wire/rrtext.h"

/* What every RRSIG over a wildcard's RRset says alike. */
struct iter_wsig {
	unsigned labels; /* the RRSIG labels field */
	uint8_t signer[WIRE_NAME_MAX];
	size_t signerlen;
};

/* Whether img[0..len) is one or more RRSIGs over type that agree on the
 * labels field (below the owner's labels) and the signer (into ws): a
 * signature with another label count (one that did not verify, say)
 * must not move the set to another wildcard. */
static bool iter_wild_sigs(const uint8_t *img, size_t len, uint16_t type,
                           size_t owner_labels, struct iter_wsig *ws)
{
	struct answer_rr rr;
	struct dnssec_rrsig s;
	size_t pos = 0, n = 0;

	while (n < ITER_RRSET_MAX && answer_rr_next(img, len, &pos, &rr)) {
		if (rr.type != WIRE_TYPE_RRSIG ||
		    dnssec_rrsig_parse(img + rr.rdata, rr.rdlen, &s) !=
		            DNSSEC_OK ||
		    s.type_covered != type || s.labels >= owner_labels)
			return false;
		if (n > 0 && (s.labels != ws->labels ||
		              !wire_name_equal(s.signer, s.signerlen,
		                               ws->signer, ws->signerlen)))
			return false;
		ws->labels = s.labels;
		memcpy(ws->signer, s.signer, s.signerlen);
		ws->signerlen = s.signerlen;
		wire_name_lower(ws->signer, ws->signerlen);
		n++;
	}
	return n > 0 && pos == len;
}

/* Whether an image holds an NSEC record (NSEC3 zones are not used). */
static bool iter_wild_nsec(const struct iter_img *img)
{
	struct answer_rr rr;
	size_t pos = 0;

	while (answer_rr_next(img->buf, img->len, &pos, &rr))
		if (rr.type == WIRE_TYPE_NSEC)
			return true;
	return false;
}

/* The records of img[0..len) with owner as theirs, into out (cap). */
static size_t iter_wild_owner(const uint8_t *img, size_t len,
                              const uint8_t *owner, size_t ownerlen,
                              uint8_t *out, size_t cap)
{
	struct answer_rr rr;
	size_t pos = 0, olen = 0;

	while (answer_rr_next(img, len, &pos, &rr))
		if (!answer_rr_append(out, cap, &olen, owner, ownerlen,
		                      rr.type, rr.rclass, rr.ttl,
		                      img + rr.rdata, rr.rdlen))
			return 0;
	return olen;
}

bool iter_aggressive_on(const struct iter_req *req)
{
	const struct cfg *cfg = req->env->cfg;

	return req->env->nsecidx != NULL && iter_val_on(req) &&
	       (cfg == NULL || cfg->aggressive_nsec);
}

void iter_wild_keep(struct iter_req *req, const struct cache_rrset *set,
                    size_t siglen, const struct iter_img *proof)
{
	const struct cfg *cfg = req->env->cfg;
	struct iter_wsig ws;
	struct cache_rrset w = *set;
	uint8_t wc[WIRE_NAME_MAX], *sigs;
	size_t off;

	if (set->sec != CACHE_SEC_SECURE || !iter_aggressive_on(req) ||
	    proof == NULL || proof->buf == NULL || !iter_wild_nsec(proof) ||
	    set->dnssec == NULL ||
	    (set->name[0] == 1 && set->name[1] == '*') ||
	    !iter_wild_sigs(set->dnssec, siglen, set->type,
	                    iter_name_labels(set->name, set->name_len), &ws))
		return;
	/* "*" replaces one label or more: no longer than the owner */
	off = iter_name_suffix(set->name, set->name_len, ws.labels);
	if (off == 0 || set->name_len - off + 2 > WIRE_NAME_MAX ||
	    (sigs = malloc(siglen)) == NULL)
		return;
	wc[0] = 1;
	wc[1] = '*';
	memcpy(wc + 2, set->name + off, set->name_len - off);
	w.name = wc;
	w.name_len = set->name_len - off + 2;
	w.dnssec = sigs;
	w.dnssec_len = iter_wild_owner(set->dnssec, siglen, wc, w.name_len,
	                               sigs, siglen);
	if (w.dnssec_len > 0)
		(void)cache_rrset_put_via(req->env->cache, &w, req->now.wall,
		                          (enum cache_via)req->via);
	free(sigs);
	(void)nsecidx_put_nsecs(req->env->nsecidx, ws.signer, ws.signerlen,
	                        proof->buf, proof->len,
	                        cfg != NULL ? cfg->max_ttl : 0, req->now.wall);
}

/* Whether the client's question may be answered from a wildcard. */
static bool iter_wild_asked(const struct iter_req *req, size_t fi)
{
	const struct iter_frame *f = req->frame[fi];

	return fi == 0 && iter_aggressive_on(req) &&
	       f->qclass == WIRE_CLASS_IN && f->qtype != WIRE_TYPE_DS &&
	       f->qtype != WIRE_TYPE_RRSIG && f->qtype != WIRE_TYPE_NSEC &&
	       f->qtype != WIRE_TYPE_NSEC3 &&
	       !anchors_insecure(req->env->anchors, f->sname, f->snamelen);
}

/* Whether a cache read is the wildcard's own SECURE RRset, signed by
 * its zone as an expansion of it would be (its RRSIGs in iter_scratch
 * after the set). */
static bool iter_wild_fit(const struct cache_answer *ans,
                          const struct nsecidx_wild *w)
{
	struct iter_wsig ws;

	return ans->kind == CACHE_KIND_RRSET && ans->sec == CACHE_SEC_SECURE &&
	       ans->count > 0 &&
	       iter_wild_sigs(iter_scratch + ans->len, ans->dnssec_len,
	                      ans->type, iter_name_labels(w->wc, w->wclen),
	                      &ws) &&
	       ws.labels == w->labels &&
	       wire_name_equal(ws.signer, ws.signerlen, w->zone, w->zonelen);
}

/* The wildcard's RRset of the type asked, or its CNAME (*tlen > 0,
 * target in target), read into iter_scratch. */
static bool iter_wild_read(struct iter_req *req, const struct iter_frame *f,
                           const struct nsecidx_wild *w,
                           struct cache_answer *ans, uint8_t *target,
                           size_t *tlen)
{
	struct answer_chase ch = {
		req->env->cache,     f->qclass, req->now.wall,
		ANSWER_CHASE_DNSSEC, 0,         false
	};

	*tlen = 0;
	if (answer_read(&ch, w->wc, w->wclen, f->qtype, ans, iter_scratch,
	                sizeof(iter_scratch)))
		return iter_wild_fit(ans, w);
	ch.flags |= ANSWER_CHASE_ONE_CNAME;
	return f->qtype != WIRE_TYPE_CNAME &&
	       answer_cname(&ch, w->wc, w->wclen, ans, iter_scratch,
	                    sizeof(iter_scratch), target, tlen) &&
	       iter_wild_fit(ans, w);
}

/* The set and its RRSIGs (iter_scratch) to the client's answer, owned
 * by the name asked, with ttl; false (nothing added) when too large. */
static bool iter_wild_answer(struct iter_req *req, const struct iter_frame *f,
                             const struct cache_answer *ans, uint32_t ttl)
{
	size_t len = req->an_len, pos = 0;
	uint16_t count = req->an_count;
	struct answer_rr rr;
	uint8_t *an = iter_buf_an(req);

	if (an == NULL)
		return false;
	while (answer_rr_next(iter_scratch, ans->len + ans->dnssec_len, &pos,
	                      &rr)) {
		if (count == UINT16_MAX ||
		    !answer_rr_append(an, ITER_RESULT_MAX, &len, f->sname,
		                      f->snamelen, rr.type, rr.rclass, ttl,
		                      iter_scratch + rr.rdata, rr.rdlen))
			return false;
		count++;
	}
	req->an_len = len;
	req->an_count = count;
	return true;
}

static void iter_wild_log(const struct iter_frame *f,
                          const struct nsecidx_wild *w, uint32_t ttl)
{
	char name[WIRE_NAME_TEXT_MAX], wc[WIRE_NAME_TEXT_MAX];
	char t[RRTEXT_NAME_MAX];

	if (log_level() < CFG_LOG_DEBUG)
		return;
	if (wire_name_to_text(f->sname, f->snamelen, name, sizeof name,
	                      NULL) != WIRE_OK)
		name[0] = '\0';
	if (wire_name_to_text(w->wc, w->wclen, wc, sizeof wc, NULL) != WIRE_OK)
		wc[0] = '\0';
	log_debug("aggressive",
	          "name=%s type=%s verdict=wildcard from=%s "
	          "ttl=%u",
	          name, rrtext_type_name(f->qtype, t), wc, (unsigned)ttl);
}

bool iter_lookup_wild(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	const struct cfg *cfg = req->env->cfg;
	struct nsecidx_wild w;
	struct nsecidx_answer pa = { NULL, ITER_AUTH_MAX, 0, 0, 0 };
	struct cache_answer ans;
	uint8_t target[WIRE_NAME_MAX];
	size_t tlen = 0;
	uint32_t ttl;
	bool ok;

	if (!iter_wild_asked(req, fi) ||
	    (pa.buf = iter_tmp_take(2 * ITER_AUTH_MAX)) == NULL)
		return false;
	ok = nsecidx_wild(req->env->nsecidx, f->sname, f->snamelen,
	                  cfg != NULL ? cfg->max_ttl : 0, req->now.wall, &w,
	                  &pa) &&
	     iter_wild_read(req, f, &w, &ans, target, &tlen);
	ttl = ok && ans.ttl < pa.ttl ? ans.ttl : pa.ttl;
	ok = ok && ttl > 0 && iter_wild_answer(req, f, &ans, ttl);
	if (ok) {
		struct iter_img proof = { pa.buf, pa.len, pa.cap, pa.count };

		iter_authority_add(req, &proof, ttl);
		iter_answer_curve(req, false);
		iter_val_note(req, CACHE_SEC_SECURE, DNSSEC_OK);
		iter_tally(req->env->tally.aggr_wild);
		iter_wild_log(f, &w, ttl);
		req->rcode = WIRE_RCODE_NOERROR;
		f->state = ITER_F_DONE;
		if (tlen > 0 && iter_cname_step(req, fi, target, tlen, 1))
			f->state = ITER_F_LOOKUP;
	}
	iter_tmp_give(2 * ITER_AUTH_MAX, pa.buf);
	return ok;
}
