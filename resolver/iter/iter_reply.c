/*
 * resolver/iter/iter_reply.c - applying a classified reply to its frame:
 * answers, bad replies (lame, errors), and caching RRsets with their
 * rank and provenance (negative answers: iter_negative.c).
 *
 * Nothing from a reply to a DNSCurve target is looked at unless the
 * reply came inside the box (reply->curve); the shell guarantees it, and
 * this file checks it again.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "cache.h"
#include "conf/cfg.h"
#include "iter_int.h"
#include "base/log.h"
#include "base/netaddr.h"
#include "wire/rrtext.h"
#include "infra/nsecidx.h"
#include "infra/sel.h"

/** iter_cache_as's rank for "validate; cache at the data's rank only
 *  when SECURE" (an apex NS set whose keys are not the delegation's). */
#define ITER_RANK_CHECKED (-1)

void iter_tally(uint64_t *counter)
{
	if (counter != NULL)
		(*counter)++;
}

int iter_data_rank(const struct iter_class *c)
{
	return c->aa ? CACHE_RANK_AUTH : CACHE_RANK_NONAUTH;
}

const uint8_t *iter_reply_key(const struct iter_out *o,
                              const struct iter_reply *reply)
{
	return o->curve && reply->curve ? o->key : NULL;
}

/* First and last+1 record index of a section. */
static void iter_section(const struct wire_msg *m, enum wire_section sec,
                         size_t *from, size_t *to)
{
	*from = sec == WIRE_SECTION_ANSWER    ? 0 :
	        sec == WIRE_SECTION_AUTHORITY ? m->an :
	                                        m->an + m->ns;
	*to = sec == WIRE_SECTION_ANSWER    ? m->an :
	      sec == WIRE_SECTION_AUTHORITY ? m->an + m->ns :
	                                      m->an + m->ns + m->ar;
}

/** The RDATA of one RRset gathered from a reply. */
struct iter_set {
	struct cache_rdata rd[ITER_RRSET_MAX];
	size_t n;
	uint32_t ttl;
	uint8_t *buf;
	size_t used;
};

static bool iter_set_has(const struct iter_set *s, const uint8_t *p,
                         size_t len)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (s->rd[i].len == len && memcmp(s->rd[i].data, p, len) == 0)
			return true;
	return false;
}

/* Gather the records (owner, type) of a section into s. */
static void iter_set_gather(struct iter_req *req, const struct wire_msg *m,
                            enum wire_section sec, const uint8_t *owner,
                            size_t ownerlen, uint16_t type, struct iter_set *s)
{
	uint16_t qclass = req->frame[0]->qclass;
	size_t from, to, i;

	iter_section(m, sec, &from, &to);
	for (i = from; i < to && s->n < ITER_RRSET_MAX; i++) {
		const struct wire_rr *rr = &m->rr[i];
		uint8_t name[WIRE_NAME_MAX], *p = s->buf + s->used;
		size_t nlen, len;

		if (rr->type != type || rr->rclass != qclass ||
		    !iter_rr_owner(m, rr, name, &nlen) ||
		    !wire_name_equal(name, nlen, owner, ownerlen) ||
		    !iter_rdata_expand(m, rr, p, ITER_RDATA_BYTES - s->used,
		                       &len) ||
		    iter_set_has(s, p, len))
			continue;
		s->rd[s->n].data = p;
		s->rd[s->n].len = len;
		s->used += len;
		if (s->n == 0 || iter_ttl(req, rr->ttl) < s->ttl)
			s->ttl = iter_ttl(req, rr->ttl);
		s->n++;
	}
}

/* DNS rebinding protection (privaddr.h): the answer-section A/AAAA
 * records whose address is private and whose owner is in no
 * private-domain leave the set before it is cached or answered; each
 * is counted. Glue and referral addresses (never served to a client)
 * and the addresses a sub-frame hands to its NS are left alone. */
static void iter_set_strip_private(struct iter_req *req, enum wire_section sec,
                                   const uint8_t *owner, size_t ownerlen,
                                   uint16_t type, struct iter_set *s)
{
	const struct cfg *cfg = req->env->cfg;
	size_t i, kept = 0;

	if (cfg == NULL || sec != WIRE_SECTION_ANSWER)
		return;
	for (i = 0; i < s->n; i++) {
		if (privaddr_strip(&cfg->priv, owner, ownerlen, type,
		                   s->rd[i].data, s->rd[i].len)) {
			iter_tally(req->env->tally.private_stripped);
			continue;
		}
		s->rd[kept++] = s->rd[i];
	}
	if (kept < s->n && log_level() >= CFG_LOG_DEBUG) {
		char name[WIRE_NAME_TEXT_MAX], tname[RRTEXT_NAME_MAX];

		if (wire_name_to_text(owner, ownerlen, name, sizeof name,
		                      NULL) != WIRE_OK)
			name[0] = '\0';
		log_debug("private_stripped",
		          "name=%s type=%s records=%zu "
		          "kept=%zu",
		          name, rrtext_type_name(type, tname), s->n - kept,
		          kept);
	}
	s->n = kept;
}

/* The rank an RRset of status vsec is cached at: a SECURE NS set was
 * signed by its zone, so its keys stand and it is cached whatever the
 * delegation said (noted by iter_curvesec.c); ITER_RANK_CHECKED: at the
 * data's rank only when SECURE. */
static int iter_rank_final(struct iter_req *req, const struct wire_msg *m,
                           enum wire_section sec, const uint8_t *owner,
                           size_t ownerlen, uint16_t store, int rank,
                           uint8_t vsec, uint32_t ttl)
{
	if (vsec == CACHE_SEC_SECURE && store == WIRE_TYPE_NS) {
		iter_curvesec_seen(req, m, sec, owner, ownerlen, ttl);
		return rank == CACHE_RANK_NONE || rank == ITER_RANK_CHECKED ?
		               iter_data_rank(&iter_cls) :
		               rank;
	}
	return rank == ITER_RANK_CHECKED ? CACHE_RANK_NONE : rank;
}

/* The rank an RRset is cached at after its check. */
static int iter_rank_checked(const struct iter_req *req, uint16_t type,
                             int rank, uint8_t vsec, int status)
{
	/* data cached before its zone's trust was settled (the priming
	 * NS set) serves the iterator, not clients: they ask again */
	if (vsec == CACHE_SEC_UNCHECKED && rank >= CACHE_RANK_NONAUTH &&
	    type != WIRE_TYPE_RRSIG && iter_val_on(req))
		return CACHE_RANK_REFERRAL;
	/* this question's work cap, not the data, ended the check: the
	 * next question checks it again */
	if (status == DNSSEC_EBUDGET)
		return CACHE_RANK_NONE;
	return rank;
}

/* The proof of a wildcard expansion is kept after the RRSIGs of the
 * set, so that an answer from the cache carries it too (answer.c splits
 * them again); the bytes of the DNSSEC image to cache. */
static size_t iter_img_join(struct iter_img *img, struct iter_img *proof)
{
	if (img->buf == NULL || proof->len == 0 ||
	    img->len + proof->len > CACHE_IMAGE_MAX)
		return img->len;
	memmove(img->buf + img->len, proof->buf, proof->len);
	proof->buf = img->buf + img->len;
	return img->len + proof->len;
}

/* An empty set with its RDATA buffer (the thread's pool); false: none.
 * rd[] (4 KB) is read only below n: zeroing it was a tenth of the
 * instructions of a cold insecure name. */
static bool iter_set_init(struct iter_set *s)
{
	s->n = 0;
	s->ttl = 0;
	s->used = 0;
	return (s->buf = iter_tmp_take(ITER_RDATA_BYTES)) != NULL;
}

/* Gather the (owner, type) records of a section; cache them as type
 * `store` (the same, or ITER_TYPE_PARENT_NS) unless rank is NONE; with
 * append, add them to the client's answer. */
static uint8_t iter_cache_as(struct iter_req *req, const struct wire_msg *m,
                             enum wire_section sec, const uint8_t *owner,
                             size_t ownerlen, uint16_t type, uint16_t store,
                             int rank, const uint8_t *key, bool append)
{
	struct iter_set set_, *s = &set_;
	struct iter_img img = { NULL, 0, 0, 0 }, proof = { NULL, 0, 0, 0 };
	uint8_t vsec = CACHE_SEC_UNCHECKED;
	int status = 0;
	size_t i, dlen;
	bool checked = rank == ITER_RANK_CHECKED;

	if (checked)
		rank = iter_data_rank(&iter_cls);
	if (!iter_set_init(s))
		return vsec;
	iter_set_gather(req, m, sec, owner, ownerlen, type, s);
	if (s->n == 0)
		goto done;
	/* validated before private addresses leave the set (the
	 * signature covers them all); glue and referrals are unsigned */
	if ((append || rank >= CACHE_RANK_NONAUTH) && iter_val_on(req) &&
	    (img.buf = iter_tmp_take(2 * ITER_AUTH_MAX)) != NULL) {
		img.cap = ITER_AUTH_MAX;
		proof = (struct iter_img){ img.buf + ITER_AUTH_MAX, 0,
			                   ITER_AUTH_MAX, 0 };
		req->proof = append ? &proof : NULL;
		vsec = iter_val_rrset(req, m, sec, owner, ownerlen, type,
		                      s->rd, s->n, &s->ttl, &img, &status);
		req->proof = NULL;
	}
	iter_set_strip_private(req, sec, owner, ownerlen, type, s);
	if (s->n == 0)
		goto done;
	rank = iter_rank_final(req, m, sec, owner, ownerlen, store,
	                       checked ? ITER_RANK_CHECKED : rank, vsec,
	                       s->ttl);
	rank = iter_rank_checked(req, type, rank, vsec, status);
	dlen = iter_img_join(&img, &proof);
	if (rank != CACHE_RANK_NONE && type != WIRE_TYPE_ANY) {
		struct cache_rrset set = { owner,   ownerlen,
			                   store,   req->frame[0]->qclass,
			                   s->ttl,  s->rd,
			                   s->n,    (enum cache_rank)rank,
			                   key,     (enum cache_sec)vsec,
			                   img.buf, dlen };

		iter_val_cache_set(req, &set, status);
		iter_wild_keep(req, &set, img.len, &proof);
	}
	for (i = 0; append && i < s->n; i++)
		if (!iter_answer_append(req, owner, ownerlen, type, s->ttl,
		                        s->rd[i].data, s->rd[i].len))
			iter_fail(req->frame[0], "answer too large");
	if (append) {
		iter_answer_image(req, &img, s->ttl, false);
		iter_authority_add(req, &proof, s->ttl);
		iter_answer_curve(req, key != NULL);
		iter_val_note(req, vsec, status);
	}
done:
	iter_tmp_give(ITER_RDATA_BYTES, s->buf);
	if (img.buf != NULL)
		iter_tmp_give(2 * ITER_AUTH_MAX, img.buf);
	return vsec;
}

uint8_t iter_cache_rrset(struct iter_req *req, const struct wire_msg *m,
                         enum wire_section sec, const uint8_t *owner,
                         size_t ownerlen, uint16_t type, int rank,
                         const uint8_t *key, bool append)
{
	return iter_cache_as(req, m, sec, owner, ownerlen, type, type, rank,
	                     key, append);
}

void iter_cache_parent_ns(struct iter_req *req, const struct wire_msg *m,
                          const uint8_t *zone, size_t zonelen,
                          const uint8_t *key)
{
	(void)iter_cache_as(req, m, WIRE_SECTION_AUTHORITY, zone, zonelen,
	                    WIRE_TYPE_NS, ITER_TYPE_PARENT_NS,
	                    CACHE_RANK_REFERRAL, key, false);
}

void iter_cache_parent_glue(struct iter_req *req, const struct wire_msg *m,
                            const uint8_t *owner, size_t ownerlen,
                            uint16_t type, const uint8_t *key)
{
	(void)iter_cache_as(req, m, WIRE_SECTION_ADDITIONAL, owner, ownerlen,
	                    type,
	                    type == WIRE_TYPE_A ? ITER_TYPE_PARENT_A :
	                                          ITER_TYPE_PARENT_AAAA,
	                    CACHE_RANK_GLUE, key, false);
}

void iter_cache_ns_checked(struct iter_req *req, const struct wire_msg *m,
                           const uint8_t *zone, size_t zonelen,
                           const uint8_t *key)
{
	int rank = iter_curve_ns_agree(req, req->vfi, m) ?
	                   iter_data_rank(&iter_cls) :
	                   ITER_RANK_CHECKED;

	uint8_t vsec = iter_cache_as(req, m, WIRE_SECTION_ANSWER, zone,
	                             zonelen, WIRE_TYPE_NS, WIRE_TYPE_NS, rank,
	                             key, false);

	/* the addresses of the servers of a set that was cached */
	if (rank != ITER_RANK_CHECKED || vsec == CACHE_SEC_SECURE)
		iter_answer_ns_glue(req, req->vfi, m, key);
}

/* The final RRset of an ANY answer: every type at the name, uncached;
 * when validating, the RRSIGs go with the RRsets they cover (to DO
 * clients), not as an RRset of their own. */
static void iter_final_any(struct iter_req *req, const struct wire_msg *m,
                           const uint8_t *key)
{
	const struct iter_class *c = &iter_cls;
	uint16_t done[ITER_RRSET_MAX];
	size_t ndone = 0, i, j;

	for (i = 0; i < m->an && ndone < ITER_RRSET_MAX; i++) {
		uint8_t name[WIRE_NAME_MAX];
		size_t nlen;
		bool seen = false;

		if (!iter_rr_owner(m, &m->rr[i], name, &nlen) ||
		    !wire_name_equal(name, nlen, c->final, c->finallen) ||
		    m->rr[i].type == WIRE_TYPE_OPT ||
		    (m->rr[i].type == WIRE_TYPE_RRSIG && iter_val_on(req)))
			continue;
		for (j = 0; j < ndone; j++)
			seen = seen || done[j] == m->rr[i].type;
		if (seen)
			continue;
		done[ndone++] = m->rr[i].type;
		iter_cache_rrset(req, m, WIRE_SECTION_ANSWER, c->final,
		                 c->finallen, m->rr[i].type, CACHE_RANK_NONE,
		                 key, true);
	}
}

/* Addresses of the answer go to the NS the sub-frame resolves. */
static void iter_final_deliver(struct iter_req *req, size_t fi,
                               const struct wire_msg *m)
{
	const struct iter_class *c = &iter_cls;
	struct iter_frame *f = req->frame[fi];
	struct iter_zone *z = &req->frame[fi - 1]->zone;
	size_t i;

	if (f->parent_ns >= z->nns) /* the parent's cut changed meanwhile */
		return;
	for (i = 0; i < m->an; i++) {
		uint8_t name[WIRE_NAME_MAX];
		size_t nlen;

		if (m->rr[i].type != f->qtype ||
		    m->rr[i].rclass != f->qclass ||
		    !iter_rr_owner(m, &m->rr[i], name, &nlen) ||
		    !wire_name_equal(name, nlen, c->final, c->finallen))
			continue;
		iter_ns_add_addr(req, &z->ns[f->parent_ns], m->rr[i].type,
		                 m->buf + m->rr[i].rdata, m->rr[i].rdlen);
	}
}

/* ANSWER: the chain, then the final RRset. */
static void iter_answer(struct iter_req *req, size_t fi,
                        const struct wire_msg *m, const uint8_t *key)
{
	struct iter_frame *f = req->frame[fi];
	const struct iter_class *c = &iter_cls;
	int rank;

	if (!iter_chain_apply(req, fi, m, key, c))
		return;
	f->state = ITER_F_DONE;
	if (f->qtype == WIRE_TYPE_ANY) {
		if (fi == 0)
			iter_final_any(req, m, key);
		return;
	}
	if (c->synth) {
		iter_cname_synth_final(req, fi, m, key, c);
		if (fi == 0)
			req->rcode = WIRE_RCODE_NOERROR;
		return;
	}
	/* An apex NS RRset with other keys than the delegation's goes to
	 * the client uncached: keys come from the parent (iter_curve.c). */
	rank = f->qtype == WIRE_TYPE_NS && !iter_curve_ns_agree(req, fi, m) ?
	               CACHE_RANK_NONE :
	               iter_data_rank(c);
	iter_cache_rrset(req, m, WIRE_SECTION_ANSWER, c->final, c->finallen,
	                 f->qtype, rank, key, fi == 0);
	if (f->qtype == WIRE_TYPE_NS && rank != CACHE_RANK_NONE)
		iter_answer_ns_glue(req, fi, m, key);
	if (fi > 0)
		iter_final_deliver(req, fi, m);
	if (fi == 0)
		req->rcode = WIRE_RCODE_NOERROR;
}

/* LAME or ERROR: mark the server and move on (or fall back). */
static void iter_bad(struct iter_req *req, struct iter_out *o,
                     const struct wire_msg *m)
{
	struct iter_frame *f = req->frame[o->frame];
	const struct iter_class *c = &iter_cls;
	const struct sockaddr *sa = (const struct sockaddr *)&o->sa;
	bool lame = c->kind == ITER_K_LAME;
	struct iter_addr *a = NULL;

	if (o->kept) {
		/* A late reply from a zone the frame has left. */
		iter_out_free(req, o);
		return;
	}
	if (o->ns < f->zone.nns && o->addr < f->zone.ns[o->ns].naddr)
		a = &f->zone.ns[o->ns].addr[o->addr];
	if (!lame && wire_msg_rcode(m) == WIRE_RCODE_FORMERR && o->edns) {
		sel_noedns_set(req->env->sel, sa, req->now.mono_ms);
		if (a != NULL && a->tries > 0)
			a->tries--;
		if (a != NULL && !f->retry_set) {
			f->retry_set = true;
			f->retry_ns = o->ns;
			f->retry_addr = o->addr;
		}
		iter_out_free(req, o);
		return;
	}
	if (o->minimised && f->prime) {
		/* A priming query that failed: the hints as they are. */
		size_t fi = o->frame;

		iter_out_free(req, o);
		iter_prime_done(req, fi);
		return;
	}
	if (o->minimised) {
		/* RFC 9156 section 3: retry without minimising. An error
		 * RCODE (REFUSED included) or a lame answer (a referral
		 * without AA back to the zone asked or above it) may be the
		 * server's answer to a name or type it was not built for;
		 * the full question goes to the zone's servers, this one
		 * too, and its answer tells whether the server is lame. */
		f->qmin = false;
		iter_frame_newstep(req, o->frame);
		f->state = ITER_F_QUERY;
		return;
	}
	sel_mark_set(req->env->sel, sa, f->zone.name, f->zone.len,
	             lame ? SEL_MARK_LAME : SEL_MARK_BROKEN, req->now.mono_ms);
	if (lame) {
		req->counts.lame++;
		iter_tally(req->env->tally.lame);
	}
	if (c->malformed)
		iter_tally(req->env->tally.malformed);
	/* A recursive-lame server stays askable: last, in the retry round
	 * (its sel mark puts it behind every other server). */
	if (a != NULL && !c->reclame)
		a->dead = true;
	iter_out_free(req, o);
}

/* Whether a server of o's zone other than o's address may still be
 * asked in this step. */
static bool iter_other_server(const struct iter_req *req,
                              const struct iter_out *o)
{
	const struct iter_zone *z = &req->frame[o->frame]->zone;
	size_t i, j;

	for (i = 0; i < z->nns; i++)
		for (j = 0; j < z->ns[i].naddr; j++) {
			const struct iter_addr *a = &z->ns[i].addr[j];

			if ((i == o->ns && j == o->addr) || a->dead ||
			    !iter_addr_ok(req, &z->ns[i], a))
				continue;
			if (a->tries < ITER_TRIES_MAX)
				return true;
		}
	return false;
}

/* An answer (or a negative answer) with RA and without AA comes from a
 * recursive server, not from one of the zone's (recursive lame): used
 * only when no other server is left or on its second try; else it
 * counts as lame. */
static void iter_reclame_check(const struct iter_req *req,
                               const struct iter_out *o, struct iter_class *c)
{
	const struct iter_zone *z = &req->frame[o->frame]->zone;

	if (c->kind == ITER_K_REFERRAL || c->kind == ITER_K_LAME ||
	    c->kind == ITER_K_ERROR || c->aa || !c->ra || o->kept || z->fwd ||
	    o->ns >= z->nns || o->addr >= z->ns[o->ns].naddr ||
	    z->ns[o->ns].addr[o->addr].tries >= ITER_TRIES_MAX ||
	    !iter_other_server(req, o))
		return;
	c->kind = ITER_K_LAME;
	c->why = ITER_WHY_RECLAME;
	c->reclame = true;
}

/* The zone o was asked about: the frame's, or the one it left. */
static const uint8_t *iter_out_zone(const struct iter_req *req,
                                    const struct iter_out *o, size_t *len)
{
	const struct iter_frame *f = req->frame[o->frame];

	if (o->kept) {
		*len = f->abovelen;
		return f->above;
	}
	*len = f->zone.len;
	return f->zone.name;
}

/* A kept query's reply is used only when it ends the frame's question
 * (an answer, a chain or a negative answer to the name now asked). */
static bool iter_kept_useful(const struct iter_req *req,
                             const struct iter_out *o)
{
	const struct iter_frame *f = req->frame[o->frame];
	enum iter_kind k = iter_cls.kind;

	return k != ITER_K_REFERRAL && k != ITER_K_LAME && k != ITER_K_ERROR &&
	       o->qtype == f->qtype &&
	       wire_name_equal(o->qname, o->qnamelen, f->sname, f->snamelen);
}

/* One debug line per classified reply: what it was and why. */
static void iter_reply_log(const struct iter_req *req,
                           const struct iter_out *o)
{
	static const char *const kinds[] = { "answer",   "cname",  "referral",
		                             "nxdomain", "nodata", "lame",
		                             "bad" };
	const struct iter_class *c = &iter_cls;
	char addr[INET6_ADDRSTRLEN], qname[WIRE_NAME_TEXT_MAX],
		zone[WIRE_NAME_TEXT_MAX], tbuf[RRTEXT_NAME_MAX];
	size_t zlen;
	const uint8_t *z = iter_out_zone(req, o, &zlen);

	if (log_level() < CFG_LOG_DEBUG)
		return;
	netaddr_text((const struct sockaddr *)&o->sa, addr, sizeof addr);
	if (wire_name_to_text(o->qname, o->qnamelen, qname, sizeof qname,
	                      NULL) != WIRE_OK)
		qname[0] = '\0';
	if (wire_name_to_text(z, zlen, zone, sizeof zone, NULL) != WIRE_OK)
		zone[0] = '\0';
	log_debug("upstream_reply",
	          "server=%s zone=%s qname=%s type=%s "
	          "kind=%s aa=%d ra=%d why=%s token=%u",
	          addr, zone, qname, rrtext_type_name(o->qtype, tbuf),
	          kinds[c->kind], c->aa ? 1 : 0, c->ra ? 1 : 0,
	          c->why != NULL ? c->why : "", (unsigned)o->token);
}

/* Whether the reply answers the question the slot asked. */
static bool iter_reply_matches(const struct iter_req *req,
                               const struct iter_out *o,
                               const struct iter_reply *reply)
{
	const struct wire_msg *m = reply->msg;
	const struct cfg *cfg = req->env->cfg;
	/* A plain reply from a DNSCurve server counts only where the config
	 * allows the downgrade; it is then cached as plain. */
	bool plain_ok = cfg != NULL && cfg->curve_plain_fallback;

	if (m == NULL || (o->curve && !reply->curve && !plain_ok) ||
	    !m->has_question)
		return false;
	return m->q.qtype == o->qtype &&
	       m->q.qclass == req->frame[o->frame]->qclass &&
	       wire_name_equal(m->q.name, m->q.namelen, o->qname, o->qnamelen);
}

/* A useful reply (not lame, not an error) for frame fi. */
static void iter_reply_use(struct iter_req *req, size_t fi,
                           const struct iter_out *o,
                           const struct iter_reply *reply)
{
	const struct wire_msg *m = reply->msg;
	const uint8_t *key = iter_reply_key(o, reply);
	struct iter_frame *f = req->frame[fi];
	struct iter_snap snap;

	if (iter_curve_plain_refused(req, fi, o, reply))
		return;
	iter_bogus_snap(req, fi, &snap);
	if (o->keyq) {
		iter_trust_key_reply(req, fi, m, key);
		(void)iter_bogus_retry(req, fi, o, &snap);
		return;
	}
	if (o->nsq) {
		iter_curvesec_ns_reply(req, fi, o, m, key);
		return;
	}
	if (o->minimised && iter_qmin_reply(req, fi, o, m, reply))
		return;
	/* a signer below the zone names the cut; no signature at all:
	 * another server first, then the cut is looked for */
	if (iter_cls.kind != ITER_K_REFERRAL &&
	    (iter_val_descend(req, fi, m, o->qname, o->qnamelen) ||
	     (!iter_bogus_can_retry(req, fi, o) &&
	      iter_signer_walk(req, fi, m, o->qname, o->qnamelen))))
		return;
	if (iter_cls.kind == ITER_K_ANSWER && iter_cls.nlink > 0 &&
	    iter_val_foreign(req, fi, m, iter_cls.final, iter_cls.finallen,
	                     f->qtype))
		iter_cls.kind = ITER_K_CNAME; /* the links only */
	switch (iter_cls.kind) {
	case ITER_K_ANSWER: iter_answer(req, fi, m, key); break;
	case ITER_K_CNAME:
		if (iter_chain_apply(req, fi, m, key, &iter_cls)) {
			f->state = ITER_F_LOOKUP;
			iter_frame_newstep(req, fi);
		}
		break;
	case ITER_K_REFERRAL:
		iter_referral_apply(req, fi, m, o, reply, false);
		break;
	case ITER_K_NXDOMAIN:
	case ITER_K_NODATA:
		iter_negative(req, fi, m, key,
		              iter_cls.kind == ITER_K_NXDOMAIN);
		break;
	default: break;
	}
	(void)iter_bogus_retry(req, fi, o, &snap);
}

void iter_reply_apply(struct iter_req *req, struct iter_out *o,
                      const struct iter_reply *reply)
{
	struct iter_frame *f = req->frame[o->frame];
	struct iter_ask ask;
	struct iter_out copy;

	req->vmemo_buf = NULL; /* a new reply: nothing verified yet */
	if (!iter_reply_matches(req, o, reply)) {
		/* Unboxed from a DNSCurve server, or not our question: never
		 * used; the query counts as timed out so the walk goes on
		 * (the token stays open for a genuine answer). */
		o->timed_out = true;
		return;
	}
	if (iter_fwd_stale(req, o)) {
		/* a forwarder a reload dropped: its reply is not used, and
		 * it is not asked again */
		if (o->ns < f->zone.nns && o->addr < f->zone.ns[o->ns].naddr)
			f->zone.ns[o->ns].addr[o->addr].dead = true;
		iter_out_free(req, o);
		return;
	}
	sel_rtt_report(req->env->sel, (const struct sockaddr *)&o->sa,
	               reply->rtt_ms, req->now.mono_ms);
	ask.zone = iter_out_zone(req, o, &ask.zonelen);
	ask.qname = o->qname;
	ask.qnamelen = o->qnamelen;
	ask.qtype = o->qtype;
	ask.qclass = f->qclass;
	ask.fwd = !o->kept && f->zone.fwd != 0;
	iter_classify(reply->msg, &ask, &iter_cls);
	iter_reclame_check(req, o, &iter_cls);
	iter_reply_log(req, o);
	iter_log_reply(req, o, ask.zone, ask.zonelen);
	if (o->kept && !iter_kept_useful(req, o)) {
		iter_out_free(req, o);
		return;
	}
	if (iter_cls.kind == ITER_K_LAME || iter_cls.kind == ITER_K_ERROR) {
		iter_bad(req, o, reply->msg);
		return;
	}
	if ((iter_cls.kind == ITER_K_ANSWER ||
	     iter_cls.kind == ITER_K_CNAME) &&
	    !iter_cls.aa)
		iter_tally(req->env->tally.noaa);
	copy = *o;
	iter_out_free(req, o);
	while (req->depth > copy.frame)
		iter_frame_pop(req);
	req->vfi = copy.frame;
	iter_reply_use(req, copy.frame, &copy, reply);
}
