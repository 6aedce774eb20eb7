/*
 * resolver/iter/iter_qmin.c - QNAME minimisation (RFC 9156).
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
 * error or lame answer (SERVFAIL, FORMERR, NOTIMP, REFUSED, a referral
 * without AA back to the zone asked; see iter_reply.c) switch
 * minimisation off for the rest of the question and the full name is
 * asked of the same zone.
 *
 * What a probe taught is remembered: its NODATA is cached as a negative
 * answer for (probe name, NS) with the RFC 2308 TTL of the SOA, and
 * before a probe goes out iter_qmin_skip passes over the labels the cache
 * shows are no zone cut (a fresh NODATA for (name, NS)), so that many
 * names under one zone (a wildcard, say) cost one probe, not one each.
 * A cached NXDOMAIN for a probe name falls back as the probe's reply
 * would.
 *
 * Priming (RFC 8109) rides on the same path: a frame whose cut is the
 * root hints first asks them ". NS" as a probe; the authoritative root
 * NS set that comes back is a zone cut like any other (cached with the
 * addresses of its additional section; a root server named without an
 * address keeps the hints' address for its name, RFC 8109 section 4.3),
 * and anything else, or a set none of whose servers has an address,
 * ends priming:
 * the hints are then used as they are, and not primed again for
 * ITER_PRIME_RETRY_MS (the worker's env->prime_after).
 */
#include <string.h>

#include "cache.h"
#include "iter_int.h"

/** Bytes read from the cache to look at a probe name's NS entry (a
 *  negative entry is one SOA RR). */
#define ITER_QMIN_IMAGE_BYTES 1024
/** Room for SOA RDATA: two names and five 32-bit counters. */
#define ITER_QMIN_SOA_BYTES (2 * WIRE_NAME_MAX + 20)

/* The frame's next probe name (labels of sname from the right). */
static void iter_qmin_probe(const struct iter_frame *f, const uint8_t **name,
                            size_t *len)
{
	size_t off = iter_name_suffix(f->sname, f->snamelen, f->qmin_labels);

	*name = f->sname + off;
	*len = f->snamelen - off;
}

/* Whether the frame would send a probe now (not the full name). */
static bool iter_qmin_probing(const struct iter_frame *f)
{
	return f->qmin && f->qmin_steps < ITER_QMIN_STEPS_MAX &&
	       f->qmin_labels < iter_name_labels(f->sname, f->snamelen);
}

void iter_qmin_reset(struct iter_frame *f)
{
	f->qmin_labels = iter_name_labels(f->zone.name, f->zone.len) + 1;
}

void iter_qmin_name(const struct iter_frame *f, const uint8_t **name,
                    size_t *len, uint16_t *qtype, bool *minimised)
{
	static const uint8_t root[1] = { 0 };

	if (f->prime) {
		/* RFC 8109 priming: handled as a probe of the root. */
		*name = root;
		*len = sizeof(root);
		*qtype = WIRE_TYPE_NS;
		*minimised = true;
		return;
	}
	if (!iter_qmin_probing(f)) {
		*name = f->sname;
		*len = f->snamelen;
		*qtype = f->qtype;
		*minimised = false;
		return;
	}
	iter_qmin_probe(f, name, len);
	*qtype = WIRE_TYPE_NS;
	*minimised = true;
}

void iter_prime_done(struct iter_req *req, size_t fi)
{
	if (req->env->prime_after != NULL)
		*req->env->prime_after = req->now.mono_ms +
		                         ITER_PRIME_RETRY_MS;
	req->frame[fi]->prime = false;
	iter_frame_newstep(req, fi);
	req->frame[fi]->state = ITER_F_QUERY;
}

/* An NS RRset answer to a probe (or to priming): the zone cut it names.
 * A root NS set none of whose servers has an address (names the hints
 * do not know, no addresses beside them) cannot be used: resolving its
 * names needs the root itself. Priming then failed, and the hints are
 * used as they are (RFC 8109 section 4.3). */
static void iter_prime_apply(struct iter_req *req, size_t fi,
                             const struct wire_msg *m,
                             const struct iter_out *o,
                             const struct iter_reply *reply)
{
	struct iter_frame *f = req->frame[fi];
	bool prime = f->prime;

	iter_referral_apply(req, fi, m, o, reply, true);
	if (!prime || f->state != ITER_F_QUERY ||
	    iter_zone_usable(req, &f->zone))
		return;
	iter_zone_from_hints(req, &f->zone);
	iter_qmin_reset(f);
	iter_prime_done(req, fi);
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

void iter_qmin_skip(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	uint8_t img[ITER_QMIN_IMAGE_BYTES];
	bool changed = false;

	while (!f->prime && iter_qmin_probing(f)) {
		struct cache_query q = { NULL, 0, WIRE_TYPE_NS, f->qclass, 0 };
		struct cache_answer ans;

		iter_qmin_probe(f, &q.name, &q.name_len);
		if (cache_get(req->env->cache, &q, req->now.wall, &ans, img,
		              sizeof(img)) != CACHE_OK)
			break;
		if (ans.kind == CACHE_KIND_NODATA)
			f->qmin_labels++;
		else if (ans.kind == CACHE_KIND_NXDOMAIN)
			f->qmin = false;
		else
			break;
		changed = true;
	}
	if (changed)
		iter_frame_newstep(req, fi);
}

/* A probe's NODATA: (probe name, NS) is no zone cut; cache it with the
 * SOA's TTL (RFC 2308) for iter_qmin_skip. Under a trust anchor the
 * probe's denial is not validated (its proof is not asked for), so
 * unless the zone is insecure it is cached at referral rank: clients
 * asking (name, NS) get a validated answer of their own. */
static void iter_qmin_remember(struct iter_req *req, size_t fi,
                               const struct iter_out *o,
                               const struct wire_msg *m,
                               const struct iter_reply *reply)
{
	const struct iter_class *c = &iter_cls;
	uint8_t owner[WIRE_NAME_MAX], rd[ITER_QMIN_SOA_BYTES];
	size_t olen, rdlen;
	struct cache_neg neg;

	if (c->soa == WIRE_NONE ||
	    !iter_rr_owner(m, &m->rr[c->soa], owner, &olen) ||
	    !iter_rdata_expand(m, &m->rr[c->soa], rd, sizeof(rd), &rdlen))
		return;
	memset(&neg, 0, sizeof(neg));
	neg.kind = CACHE_KIND_NODATA;
	neg.name = o->qname;
	neg.name_len = o->qnamelen;
	neg.type = WIRE_TYPE_NS;
	neg.klass = req->frame[fi]->qclass;
	neg.soa_name = owner;
	neg.soa_name_len = olen;
	neg.soa_ttl = iter_ttl(req, m->rr[c->soa].ttl);
	neg.soa_rdata = rd;
	neg.soa_rdlen = rdlen;
	neg.rank = (enum cache_rank)iter_data_rank(c);
	neg.server_key = iter_reply_key(o, reply);
	/* Unvalidated where validation applies: a hint for iter_qmin_skip
	 * only, below the rank client answers are read at. */
	if (req->frame[fi]->trust == ITER_T_INSECURE)
		neg.sec = CACHE_SEC_INSECURE;
	else if (iter_val_on(req))
		neg.rank = CACHE_RANK_REFERRAL;
	(void)cache_neg_put_via(req->env->cache, &neg, req->now.wall,
	                        (enum cache_via)req->via);
}

bool iter_qmin_reply(struct iter_req *req, size_t fi, const struct iter_out *o,
                     const struct wire_msg *m, const struct iter_reply *reply)
{
	const struct iter_class *c = &iter_cls;

	if (req->frame[fi]->prime &&
	    (c->kind != ITER_K_ANSWER || c->nlink != 0)) {
		/* No root NS set from the priming query: go on with the
		 * hints as they are. */
		iter_prime_done(req, fi);
		return true;
	}
	switch (c->kind) {
	case ITER_K_REFERRAL: return false;
	case ITER_K_ANSWER:
		if (c->nlink == 0) {
			/* An authoritative NS RRset: a zone cut here. */
			iter_prime_apply(req, fi, m, o, reply);
			return true;
		}
		iter_qmin_again(req, fi, true);
		return true;
	case ITER_K_NODATA:
		iter_qmin_remember(req, fi, o, m, reply);
		iter_qmin_again(req, fi, false);
		return true;
	case ITER_K_NXDOMAIN:
	case ITER_K_CNAME:
	default: iter_qmin_again(req, fi, true); return true;
	}
}
