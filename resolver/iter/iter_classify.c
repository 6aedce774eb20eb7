/*
 * resolver/iter/iter_classify.c - the one classifier of upstream replies.
 *
 * A reply to (qname, qtype) asked of a server of zone Z is one of:
 *   ANSWER    the answer section holds the RRset asked for, at qname or
 *             at the end of a CNAME/DNAME chain starting there;
 *   CNAME     a chain from qname that ends at a name without data in the
 *             reply (resolution goes on at that name);
 *   REFERRAL  no answer, no SOA, NS records in the authority section for
 *             a zone strictly below Z and at or above qname;
 *   NXDOMAIN  RCODE 3, no chain, and AA or an SOA of Z covering qname;
 *   NODATA    RCODE 0, no answer, no chain, and an SOA covering qname,
 *             or AA with no NS of another zone;
 *   LAME      REFUSED; a referral upward or sideways (with or without
 *             AA); no AA, no SOA and no referral; AA with an answer
 *             section about other names only;
 *   ERROR     SERVFAIL, FORMERR, NOTIMP, any other RCODE, TC, opcode, a
 *             record whose RDATA does not parse (the whole reply is
 *             bad: RFC 1035 section 4.1.3 fixes the layouts).
 * Answers, chains and negative answers without the AA bit are accepted
 * as Unbound and Knot Resolver do (the server was asked as one of Z's):
 * c->aa tells the caller to rank them below authoritative data (RFC 2181
 * section 5.4.1), and c->ra with no AA marks a recursive-lame server,
 * whose answer the caller uses only when no other server is left.
 * Only records whose owner is in bailiwick of Z (at or below it) are
 * looked at; the rest of a reply is ignored.
 * Asked of a forwarder (a->fwd, iter_fwd.c), a reply is final: NXDOMAIN
 * and NODATA are taken without AA or SOA, and a referral is LAME.
 */
#include <string.h>

#include "iter_int.h"

/* The record at index i is in bailiwick and belongs to the question's
 * class; its owner is read into owner (lowercase). */
static bool iter_rr_ours(const struct wire_msg *m, const struct iter_ask *a,
                         size_t i, uint8_t *owner, size_t *ownerlen)
{
	const struct wire_rr *rr = &m->rr[i];

	if (rr->rclass != a->qclass || !iter_rr_owner(m, rr, owner, ownerlen))
		return false;
	return iter_name_under(owner, *ownerlen, a->zone, a->zonelen);
}

static bool iter_type_match(uint16_t have, uint16_t want)
{
	if (want == WIRE_TYPE_ANY)
		return have != WIRE_TYPE_OPT;
	return have == want;
}

/* Whether the answer section holds data of the asked type at name. */
static bool iter_find_final(const struct wire_msg *m, const struct iter_ask *a,
                            const uint8_t *name, size_t len)
{
	uint8_t owner[WIRE_NAME_MAX];
	size_t olen, i;

	for (i = 0; i < m->an; i++)
		if (iter_type_match(m->rr[i].type, a->qtype) &&
		    iter_rr_ours(m, a, i, owner, &olen) &&
		    wire_name_equal(owner, olen, name, len))
			return true;
	return false;
}

/* A CNAME at name: fill the link. */
static bool iter_find_cname(const struct wire_msg *m, const struct iter_ask *a,
                            const uint8_t *name, size_t len,
                            struct iter_link *l)
{
	uint8_t owner[WIRE_NAME_MAX];
	size_t olen, i;

	if (a->qtype == WIRE_TYPE_CNAME)
		return false;
	for (i = 0; i < m->an; i++) {
		if (m->rr[i].type != WIRE_TYPE_CNAME ||
		    !iter_rr_ours(m, a, i, owner, &olen) ||
		    !wire_name_equal(owner, olen, name, len))
			continue;
		if (!iter_rr_name(m, &m->rr[i], 0, l->target, &l->targetlen))
			return false;
		l->rr = i;
		l->dname = false;
		return true;
	}
	return false;
}

/* Replace the suffix `owner` of name by `target` (DNAME substitution). */
static bool iter_dname_subst(const uint8_t *name, size_t len, size_t ownerlen,
                             const uint8_t *target, size_t targetlen,
                             uint8_t *out, size_t *outlen)
{
	size_t keep = len - ownerlen;

	if (keep + targetlen > WIRE_NAME_MAX)
		return false;
	memcpy(out, name, keep);
	memcpy(out + keep, target, targetlen);
	*outlen = keep + targetlen;
	return true;
}

/* A DNAME at a proper ancestor of name: fill the link. Returns -1 when
 * the substituted name would be too long (YXDOMAIN). */
static int iter_find_dname(const struct wire_msg *m, const struct iter_ask *a,
                           const uint8_t *name, size_t len,
                           struct iter_link *l)
{
	uint8_t owner[WIRE_NAME_MAX], target[WIRE_NAME_MAX];
	size_t olen, tlen, i;

	for (i = 0; i < m->an; i++) {
		if (m->rr[i].type != WIRE_TYPE_DNAME ||
		    !iter_rr_ours(m, a, i, owner, &olen) || olen >= len ||
		    !iter_name_under(name, len, owner, olen))
			continue;
		if (!iter_rr_name(m, &m->rr[i], 0, target, &tlen))
			return 0;
		if (!iter_dname_subst(name, len, olen, target, tlen, l->target,
		                      &l->targetlen))
			return -1;
		l->rr = i;
		l->dname = true;
		return 1;
	}
	return 0;
}

/* Whether name is one of the chain's names so far (or qname). */
static bool iter_chain_has(const struct iter_class *c,
                           const struct iter_ask *a, const uint8_t *name,
                           size_t len)
{
	size_t i;

	if (wire_name_equal(name, len, a->qname, a->qnamelen))
		return true;
	for (i = 0; i < c->nlink; i++)
		if (wire_name_equal(name, len, c->link[i].target,
		                    c->link[i].targetlen))
			return true;
	return false;
}

/* A CNAME question: whether the CNAME at qname is the one a DNAME of the
 * answer synthesizes (then it is as good as the DNAME, RFC 6672). */
static void iter_find_synth(const struct wire_msg *m, const struct iter_ask *a,
                            struct iter_class *c)
{
	struct iter_link *s = &c->synth_link;
	uint8_t owner[WIRE_NAME_MAX], target[WIRE_NAME_MAX];
	size_t olen, tlen, i;

	if (a->qtype != WIRE_TYPE_CNAME ||
	    iter_find_dname(m, a, a->qname, a->qnamelen, s) != 1)
		return;
	for (i = 0; i < m->an; i++) {
		if (m->rr[i].type != WIRE_TYPE_CNAME ||
		    !iter_rr_ours(m, a, i, owner, &olen) ||
		    !wire_name_equal(owner, olen, a->qname, a->qnamelen) ||
		    !iter_rr_name(m, &m->rr[i], 0, target, &tlen))
			continue;
		if (!wire_name_equal(target, tlen, s->target, s->targetlen))
			return;
		memcpy(s->owner, a->qname, a->qnamelen);
		s->ownerlen = a->qnamelen;
		c->synth = true;
		return;
	}
}

/* Follow the chain from qname; returns true if the final RRset is there. */
static bool iter_walk_chain(const struct wire_msg *m, const struct iter_ask *a,
                            struct iter_class *c)
{
	memcpy(c->final, a->qname, a->qnamelen);
	c->finallen = a->qnamelen;
	while (c->nlink < ITER_MAX_CNAME) {
		struct iter_link *l = &c->link[c->nlink];
		int d;

		if (iter_find_final(m, a, c->final, c->finallen))
			return true;
		d = iter_find_dname(m, a, c->final, c->finallen, l);
		if (d < 0) {
			c->kind = ITER_K_ERROR;
			c->why = "DNAME substitution too long";
			return false;
		}
		if (d == 0 && !iter_find_cname(m, a, c->final, c->finallen, l))
			return false;
		memcpy(l->owner, c->final, c->finallen);
		l->ownerlen = c->finallen;
		if (iter_chain_has(c, a, l->target, l->targetlen))
			c->loop = true;
		c->nlink++;
		memcpy(c->final, l->target, l->targetlen);
		c->finallen = l->targetlen;
		if (c->loop)
			return false;
	}
	return iter_find_final(m, a, c->final, c->finallen);
}

/* The SOA of the authority section that covers qname, in bailiwick. */
static size_t iter_find_soa(const struct wire_msg *m, const struct iter_ask *a)
{
	uint8_t owner[WIRE_NAME_MAX];
	size_t olen, i;

	for (i = m->an; i < m->an + m->ns; i++)
		if (m->rr[i].type == WIRE_TYPE_SOA &&
		    iter_rr_ours(m, a, i, owner, &olen) &&
		    iter_name_under(a->qname, a->qnamelen, owner, olen))
			return i;
	return WIRE_NONE;
}

/* Where the NS records of the authority section point, from Z. */
enum iter_refdir {
	ITER_REF_NONE = 0, /**< no NS record of the class */
	ITER_REF_DOWN,     /**< a zone below Z holding qname: a referral */
	ITER_REF_SAME,     /**< Z itself (an apex NS set beside data) */
	ITER_REF_UP,       /**< Z's parent or another ancestor */
	ITER_REF_SIDE      /**< a zone that does not hold qname */
};

/* The first NS record of the authority section: its owner goes to
 * c->cut, and where it points is returned. */
static enum iter_refdir iter_refdir(const struct wire_msg *m,
                                    const struct iter_ask *a,
                                    struct iter_class *c)
{
	size_t i;
	bool found = false;

	for (i = m->an; i < m->an + m->ns && !found; i++)
		if (m->rr[i].type == WIRE_TYPE_NS &&
		    m->rr[i].rclass == a->qclass &&
		    iter_rr_owner(m, &m->rr[i], c->cut, &c->cutlen))
			found = true;
	if (!found)
		return ITER_REF_NONE;
	if (wire_name_equal(c->cut, c->cutlen, a->zone, a->zonelen))
		return ITER_REF_SAME;
	if (!iter_name_under(c->cut, c->cutlen, a->zone, a->zonelen))
		return iter_name_under(a->zone, a->zonelen, c->cut,
		                       c->cutlen) ?
		               ITER_REF_UP :
		               ITER_REF_SIDE;
	if (!iter_name_under(a->qname, a->qnamelen, c->cut, c->cutlen))
		return ITER_REF_SIDE;
	return ITER_REF_DOWN;
}

static void iter_lame(struct iter_class *c, const char *why)
{
	c->kind = ITER_K_LAME;
	c->why = why;
}

/* RCODE, TC and opcode: true if the reply can be looked into. */
static bool iter_header_ok(const struct wire_msg *m, struct iter_class *c)
{
	unsigned rcode = wire_msg_rcode(m);

	if (m->hdr.flags & WIRE_FLAG_TC) {
		c->kind = ITER_K_ERROR;
		c->why = "truncated";
		return false;
	}
	if (WIRE_OPCODE(m->hdr.flags) != WIRE_OPCODE_QUERY) {
		c->kind = ITER_K_ERROR;
		c->why = "bad opcode";
		return false;
	}
	if (rcode == WIRE_RCODE_REFUSED) {
		c->kind = ITER_K_LAME;
		c->why = "REFUSED";
		return false;
	}
	if (rcode != WIRE_RCODE_NOERROR && rcode != WIRE_RCODE_NXDOMAIN) {
		c->kind = ITER_K_ERROR;
		c->why = rcode == WIRE_RCODE_SERVFAIL ? "SERVFAIL" :
		         rcode == WIRE_RCODE_FORMERR  ? "FORMERR" :
		         rcode == WIRE_RCODE_NOTIMP   ? "NOTIMP" :
		                                        "bad RCODE";
		return false;
	}
	return true;
}

/* Every record of the reply, in every section, parses by its type's
 * layout: names in RDATA (iter_rdata_valid) and the DNSSEC types
 * (wire_rdata_check), so a broken RRSIG beside a good one, or a DS
 * whose digest is cut short, makes the whole reply bad. */
static bool iter_records_ok(const struct wire_msg *m, struct iter_class *c)
{
	size_t i;

	for (i = 0; i < m->an + m->ns + m->ar; i++)
		if (!iter_rdata_valid(m, &m->rr[i]) ||
		    wire_rdata_check(m->rr[i].type, m->buf + m->rr[i].rdata,
		                     m->rr[i].rdlen) != WIRE_OK) {
			c->kind = ITER_K_ERROR;
			c->why = ITER_WHY_MALFORMED;
			c->malformed = true;
			return false;
		}
	return true;
}

/* Whether the answer section holds records in bailiwick, none of them
 * at qname (after no chain matched: an answer about some other name; a
 * record of another type at qname, such as a DNAME there, is not). */
static bool iter_answer_other(const struct wire_msg *m,
                              const struct iter_ask *a)
{
	uint8_t owner[WIRE_NAME_MAX];
	size_t olen, i;
	bool other = false;

	for (i = 0; i < m->an; i++) {
		if (m->rr[i].type == WIRE_TYPE_OPT ||
		    !iter_rr_ours(m, a, i, owner, &olen))
			continue;
		if (wire_name_equal(owner, olen, a->qname, a->qnamelen))
			return false;
		other = true;
	}
	return other;
}

/* No SOA, RCODE 0, AA: NODATA, unless the NS records point elsewhere or
 * the answer section is about another name (RFC 2308 section 2.2 and
 * RFC 1034 section 4.3.4: that server does not serve Z properly). */
static void iter_aa_nosoa(const struct wire_msg *m, const struct iter_ask *a,
                          struct iter_class *c, enum iter_refdir dir)
{
	if (dir == ITER_REF_UP)
		iter_lame(c, "AA with an upward referral");
	else if (dir == ITER_REF_SIDE)
		iter_lame(c, "AA with a sideways referral");
	else if (iter_answer_other(m, a))
		iter_lame(c, "AA answer about another name");
	else
		c->kind = ITER_K_NODATA;
}

/* An SOA in the authority section of a zone above Z (an ancestor): the
 * server answers from a zone above the one it was asked as a server of
 * (it holds the parent, not the delegated zone). */
static bool iter_soa_above(const struct wire_msg *m, const struct iter_ask *a)
{
	uint8_t owner[WIRE_NAME_MAX];
	size_t olen, i;

	for (i = m->an; i < m->an + m->ns; i++)
		if (m->rr[i].type == WIRE_TYPE_SOA &&
		    m->rr[i].rclass == a->qclass &&
		    iter_rr_owner(m, &m->rr[i], owner, &olen) &&
		    !wire_name_equal(owner, olen, a->zone, a->zonelen) &&
		    iter_name_under(a->zone, a->zonelen, owner, olen))
			return true;
	return false;
}

/* No data and no chain at qname: negative, referral or lame. */
static void iter_no_answer(const struct wire_msg *m, const struct iter_ask *a,
                           struct iter_class *c)
{
	bool nx = wire_msg_rcode(m) == WIRE_RCODE_NXDOMAIN;
	enum iter_refdir dir;

	c->soa = iter_find_soa(m, a);
	if (c->soa != WIRE_NONE) {
		c->kind = nx ? ITER_K_NXDOMAIN : ITER_K_NODATA;
		return;
	}
	if (iter_soa_above(m, a)) {
		iter_lame(c, "negative answer with the SOA of a zone above");
		return;
	}
	if (nx) {
		if (c->aa || a->fwd) /* a forwarder's word is final */
			c->kind = ITER_K_NXDOMAIN;
		else
			iter_lame(c, "NXDOMAIN without AA or SOA");
		return;
	}
	dir = iter_refdir(m, a, c);
	if (a->fwd && dir == ITER_REF_DOWN)
		iter_lame(c, "referral from a forwarder");
	else if (a->fwd && dir == ITER_REF_NONE)
		c->kind = ITER_K_NODATA;
	else if (dir == ITER_REF_DOWN)
		c->kind = ITER_K_REFERRAL;
	else if (c->aa)
		iter_aa_nosoa(m, a, c, dir);
	else if (dir == ITER_REF_NONE)
		iter_lame(c, "NODATA without AA or SOA");
	else if (dir == ITER_REF_SAME)
		iter_lame(c, "referral to the zone asked");
	else
		iter_lame(c, dir == ITER_REF_UP ? "upward referral" :
		                                  "referral sideways");
}

void iter_classify(const struct wire_msg *m, const struct iter_ask *a,
                   struct iter_class *c)
{
	bool final;

	c->kind = ITER_K_ERROR;
	c->why = NULL;
	c->aa = (m->hdr.flags & WIRE_FLAG_AA) != 0;
	c->ra = (m->hdr.flags & WIRE_FLAG_RA) != 0;
	c->malformed = false;
	c->reclame = false;
	c->loop = false;
	c->synth = false;
	c->nlink = 0;
	c->finallen = 0;
	c->cutlen = 0;
	c->soa = WIRE_NONE;
	if (!iter_header_ok(m, c) || !iter_records_ok(m, c))
		return;
	final = iter_walk_chain(m, a, c);
	iter_find_synth(m, a, c);
	if (c->why != NULL)
		return;
	if (!final && c->nlink == 0) {
		iter_no_answer(m, a, c);
		return;
	}
	c->kind = final ? ITER_K_ANSWER : ITER_K_CNAME;
}
