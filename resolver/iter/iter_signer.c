/*
 * resolver/iter/iter_signer.c - the zone cut of an unsigned answer from
 * a server that serves a signed parent and its child (RFC 4035 section
 * 5): without a referral, and without an RRSIG whose signer names the
 * child, the resolver cannot tell the child's data from the parent's
 * stripped of its signatures. Before calling it bogus it looks for the
 * cut, one label at a time from the zone asked down to the name: each
 * candidate's DS is asked of the parent (a DS frame, iter_trust.c). A
 * DS set makes the candidate a signed zone (its keys are asked next, and
 * unsigned data there is bogus); a proof of no DS at a delegation (the
 * NSEC/NSEC3 at the name has NS) makes it an insecure cut, whose data is
 * taken as insecure; a proof that the name has no DS and no NS either
 * (ITER_TYPE_NOCUT) means it is no cut, and the next label is tried; a
 * name that does not exist ends the search, bogus. Only proofs signed by
 * the parent's keys move the walk, so a forger who strips signatures
 * gains nothing but a few more queries (bounded by the frame's referral
 * cap and the labels of the name).
 *
 * Also here: the signed case (iter_val_descend), where an RRSIG's signer
 * strictly below the zone asked names the cut and the frame moves there.
 */
#include <string.h>

#include "cache.h"
#include "iter_int.h"
#include "validate/denial.h"
#include "validate/dnssec.h"

/** Labels the name must lie below the zone asked for a cut to be looked
 *  for: one, so the child's apex itself (one label down, asked without
 *  QNAME minimisation: its A, SOA, or no data) finds its cut at the
 *  name. The zone's own names one label down then cost one DS query
 *  when stripped, and stay bogus: the parent's NSEC or NSEC3 matching
 *  an existing name proves it no cut (an opt-out span never covers a
 *  name that exists). */
#define ITER_SIGNER_DEPTH_MIN 1

/* Whether the reply holds an RRSIG in its answer or authority section. */
static bool iter_signer_any(const struct wire_msg *m)
{
	size_t i;

	for (i = 0; i < m->an + m->ns; i++)
		if (m->rr[i].type == WIRE_TYPE_RRSIG)
			return true;
	return false;
}

/* Move frame f's zone one label down towards its name. */
static void iter_signer_next(struct iter_frame *f)
{
	size_t labels = iter_name_labels(f->zone.name, f->zone.len);
	size_t off = iter_name_suffix(f->sname, f->snamelen, labels + 1);

	f->zone.len = f->snamelen - off;
	memcpy(f->zone.name, f->sname + off, f->zone.len);
	f->trust = ITER_T_UNKNOWN;
	f->ds_asked = false;
}

bool iter_signer_walk(struct iter_req *req, size_t fi,
                      const struct wire_msg *m, const uint8_t *name,
                      size_t namelen)
{
	struct iter_frame *f = req->frame[fi];
	enum iter_kind k = iter_cls.kind;

	if (f->trust != ITER_T_SECURE || f->prime || f->ds_frame ||
	    (k != ITER_K_ANSWER && k != ITER_K_NXDOMAIN &&
	     k != ITER_K_NODATA) ||
	    iter_cls.nlink > 0 ||
	    !wire_name_equal(name, namelen, f->sname, f->snamelen) ||
	    wire_name_equal(name, namelen, f->zone.name, f->zone.len) ||
	    !iter_name_under(name, namelen, f->zone.name, f->zone.len) ||
	    iter_name_labels(name, namelen) <
	            iter_name_labels(f->zone.name, f->zone.len) +
	                    ITER_SIGNER_DEPTH_MIN ||
	    iter_signer_any(m))
		return false;
	if (++f->referrals > ITER_MAX_REFERRALS) {
		iter_fail(f, "referral cap");
		return true;
	}
	iter_signer_next(f);
	f->cut_walk = true;
	iter_val_log(req, f->zone.name, f->zone.len, name, namelen,
	             WIRE_TYPE_DS, CACHE_SEC_UNCHECKED, DNSSEC_OK);
	iter_qmin_reset(f);
	iter_frame_newstep(req, fi);
	f->state = ITER_F_QUERY;
	return true;
}

void iter_signer_note(struct iter_req *req, const struct iter_frame *f,
                      const struct dnssec_denial *d, bool nx, uint32_t ttl)
{
	uint8_t mark[1] = { nx ? 1 : 0 };
	struct cache_rdata rd = { mark, sizeof mark };
	struct cache_rrset set = { f->sname,
		                   f->snamelen,
		                   ITER_TYPE_NOCUT,
		                   WIRE_CLASS_IN,
		                   ttl,
		                   &rd,
		                   1,
		                   CACHE_RANK_AUTH,
		                   NULL,
		                   CACHE_SEC_SECURE,
		                   NULL,
		                   0 };

	/* no DS and no NS at the name (or no name): not a cut */
	if (!nx && dnssec_deny_type(d, f->sname, f->snamelen, WIRE_TYPE_NS) !=
	                   DNSSEC_OK)
		return;
	(void)cache_rrset_put_via(req->env->cache, &set, req->now.wall,
	                          CACHE_VIA_LOCAL);
}

/* The NOCUT mark of name: 0 none, 1 no cut, 2 the name does not exist. */
static int iter_signer_mark(struct iter_req *req, const uint8_t *name,
                            size_t len)
{
	struct cache_query q = { name, len, ITER_TYPE_NOCUT, WIRE_CLASS_IN,
		                 0 };
	struct cache_answer ans;
	struct answer_rr rr;
	size_t pos = 0;

	if (cache_get(req->env->cache, &q, req->now.wall, &ans, iter_scratch,
	              sizeof(iter_scratch)) != CACHE_OK ||
	    ans.sec != CACHE_SEC_SECURE)
		return 0;
	/* a proven NXDOMAIN of the name answers every type, the mark's too */
	if (ans.kind == CACHE_KIND_NXDOMAIN)
		return 2;
	if (ans.kind != CACHE_KIND_RRSET ||
	    !answer_rr_next(iter_scratch, ans.len, &pos, &rr) || rr.rdlen != 1)
		return 0;
	return iter_scratch[rr.rdata] == 1 ? 2 : 1;
}

int iter_signer_step(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	int mark;

	if (!f->cut_walk || f->trust == ITER_T_NEED_DS ||
	    f->trust == ITER_T_UNKNOWN)
		return 0;
	mark = iter_signer_mark(req, f->zone.name, f->zone.len);
	if (mark == 0)
		return 0;
	if (mark == 1 && !wire_name_equal(f->zone.name, f->zone.len, f->sname,
	                                  f->snamelen)) {
		iter_signer_next(f);
		return 1;
	}
	/* the name itself is no cut, or lies under a name that does not
	 * exist: the parent's own data, stripped of its signatures */
	f->trust = ITER_T_BOGUS;
	f->trust_status = DNSSEC_ENOSIG;
	return 2;
}

/* The signer of an RRSIG record (uncompressed, RFC 4034 s3.1.7). */
bool iter_sig_signer(const struct wire_msg *m, const struct wire_rr *rr,
                     uint8_t *out, size_t *len)
{
	size_t pos = rr->rdata + DNSSEC_RRSIG_FIXED_BYTES;

	return rr->rdlen > DNSSEC_RRSIG_FIXED_BYTES &&
	       wire_read_name(m->buf, rr->rdata + rr->rdlen, &pos, out, len,
	                      WIRE_NAME_LOWER) == WIRE_OK &&
	       pos <= rr->rdata + rr->rdlen;
}

/* A signer strictly below zone and at or above name, among the RRSIGs
 * of the answer and authority sections (with owner at or below it). */
static bool iter_signer_below(const struct wire_msg *m, const uint8_t *zone,
                              size_t zonelen, const uint8_t *name,
                              size_t namelen, uint8_t *signer, size_t *slen)
{
	size_t i;

	for (i = 0; i < m->an + m->ns; i++) {
		const struct wire_rr *rr = &m->rr[i];

		if (rr->type != WIRE_TYPE_RRSIG ||
		    !iter_sig_signer(m, rr, signer, slen) ||
		    *slen <= zonelen ||
		    !iter_name_under(signer, *slen, zone, zonelen) ||
		    !iter_name_under(name, namelen, signer, *slen))
			continue;
		return true;
	}
	return false;
}

bool iter_val_descend(struct iter_req *req, size_t fi,
                      const struct wire_msg *m, const uint8_t *name,
                      size_t namelen)
{
	struct iter_frame *f = req->frame[fi];
	uint8_t signer[WIRE_NAME_MAX];
	size_t slen;

	if (f->trust != ITER_T_SECURE ||
	    !iter_signer_below(m, f->zone.name, f->zone.len, name, namelen,
	                       signer, &slen))
		return false;
	if (++f->referrals > ITER_MAX_REFERRALS) {
		iter_fail(f, "referral cap");
		return true;
	}
	/* The server serves the zone below too and answered from it: that
	 * zone is a cut of its own, with its own keys (asked next). */
	iter_val_log(req, f->zone.name, f->zone.len, signer, slen,
	             WIRE_TYPE_NS, CACHE_SEC_UNCHECKED, DNSSEC_OK);
	memcpy(f->zone.name, signer, slen);
	f->zone.len = slen;
	f->trust = ITER_T_UNKNOWN;
	f->ds_asked = false;
	iter_qmin_reset(f);
	iter_frame_newstep(req, fi);
	f->state = ITER_F_QUERY;
	return true;
}
