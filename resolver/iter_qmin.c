/*
 * resolver/iter_qmin.c - QNAME minimisation (RFC 9156).
 *
 * Each zone is asked for one more label than its own name, with QTYPE NS
 * (RFC 9156 recommends A, but NS probes fit how authoritative servers
 * such as NSD answer: a delegation point comes back as a referral, the
 * apex of a zone the same server also serves as an authoritative NS
 * RRset, and anything else as NODATA; so every probe either reveals the
 * next zone cut or proves there is none at that label, and the NS RRsets
 * learned are the ones the iterator caches anyway). The full name and
 * the real QTYPE go out once the next label is the whole name, or after
 * ITER_QMIN_STEPS_MAX probes without a cut.
 *
 * Fall-backs (RFC 9156 section 3): NXDOMAIN to a probe (servers that do
 * not know empty non-terminals), a CNAME/DNAME at a probe name, or an
 * error answer (SERVFAIL, FORMERR, NOTIMP; see iter_reply.c) switch
 * minimisation off for the rest of the question and the full name is
 * asked of the same zone.
 */
#include "iter_int.h"

void iter_qmin_reset(struct iter_frame *f)
{
	f->qmin_labels = iter_name_labels(f->zone.name, f->zone.len) + 1;
}

void iter_qmin_name(const struct iter_frame *f, const uint8_t **name,
                    size_t *len, uint16_t *qtype, bool *minimised)
{
	size_t total = iter_name_labels(f->sname, f->snamelen), off;

	if (!f->qmin || f->qmin_labels >= total ||
	    f->qmin_steps >= ITER_QMIN_STEPS_MAX) {
		*name = f->sname;
		*len = f->snamelen;
		*qtype = f->qtype;
		*minimised = false;
		return;
	}
	off = iter_name_suffix(f->sname, f->snamelen, f->qmin_labels);
	*name = f->sname + off;
	*len = f->snamelen - off;
	*qtype = WIRE_TYPE_NS;
	*minimised = true;
}

/* Ask the same zone again: one label more, or the full name. */
static void iter_qmin_again(struct iter_req *req, size_t fi, bool fallback)
{
	struct iter_frame *f = req->frame[fi];

	if (fallback) {
		f->qmin = false;
	} else {
		f->qmin_labels++;
		f->qmin_steps++;
	}
	iter_frame_newstep(req, fi);
	f->state = ITER_F_QUERY;
}

bool iter_qmin_reply(struct iter_req *req, size_t fi,
                     const struct iter_out *o, const struct wire_msg *m,
                     const struct iter_reply *reply)
{
	const struct iter_class *c = &req->cls;

	switch (c->kind) {
	case ITER_K_REFERRAL:
		return false;
	case ITER_K_ANSWER:
		if (c->nlink == 0) {
			/* An authoritative NS RRset: a zone cut here. */
			iter_referral_apply(req, fi, m, o, reply, true);
			return true;
		}
		iter_qmin_again(req, fi, true);
		return true;
	case ITER_K_NODATA:
		iter_qmin_again(req, fi, false);
		return true;
	case ITER_K_NXDOMAIN:
	case ITER_K_CNAME:
	default:
		iter_qmin_again(req, fi, true);
		return true;
	}
}
