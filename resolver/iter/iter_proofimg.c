/*
 * resolver/iter/iter_proofimg.c - the proof a negative answer came with,
 * kept as it came when it proved nothing (see iter_int.h).
 *
 * A SECURE negative answer keeps the NSEC/NSEC3 records that proved it
 * (iter_val.c collects them as it verifies). An INSECURE one (a zone
 * proven unsigned that signs anyway, an opt-out span) or a BOGUS one
 * (served to CD=1 clients) proved nothing here, but a DO=1 client is
 * still owed the records and signatures the server gave (RFC 4035
 * sections 3.1.3 and 3.2.1), so that a validator of its own can judge
 * them: the SOA's RRSIGs and every NSEC and NSEC3 record of the
 * authority section inside the zone asked, each with its RRSIGs.
 */
#include "config.h"

#include "iter_int.h"

/* Whether record i of the authority section repeats an earlier NSEC or
 * NSEC3 of the same owner and type (its RRSIGs are already in). */
static bool proof_seen(const struct wire_msg *m, size_t i,
                       const uint8_t *owner, size_t olen)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t j, nlen;

	for (j = m->an; j < i; j++)
		if (m->rr[j].type == m->rr[i].type &&
		    iter_rr_owner(m, &m->rr[j], name, &nlen) &&
		    wire_name_equal(name, nlen, owner, olen))
			return true;
	return false;
}

/* The image: the SOA's RRSIGs (soa: its owner, or NULL), then the
 * NSEC/NSEC3 records under zone with their RRSIGs. */
static void proof_raw(struct iter_img *img, const struct wire_msg *m,
                      const uint8_t *soa, size_t soalen, const uint8_t *zone,
                      size_t zonelen)
{
	uint8_t owner[WIRE_NAME_MAX];
	size_t i, olen, n = 0;

	img->len = 0;
	img->count = 0;
	if (soa != NULL)
		iter_img_sigs(img, m, WIRE_SECTION_AUTHORITY, soa, soalen,
		              WIRE_TYPE_SOA);
	for (i = m->an; i < m->an + m->ns && n < ITER_PROOF_RAW_MAX; i++) {
		const struct wire_rr *rr = &m->rr[i];

		if (rr->type != WIRE_TYPE_NSEC && rr->type != WIRE_TYPE_NSEC3)
			continue;
		n++; /* each one looked at counts: the cap bounds the work */
		if (rr->rclass != WIRE_CLASS_IN ||
		    !iter_rr_owner(m, rr, owner, &olen) ||
		    !iter_name_under(owner, olen, zone, zonelen) ||
		    proof_seen(m, i, owner, olen))
			continue;
		if (!iter_img_add(img, owner, olen, rr->type, rr->ttl,
		                  m->buf + rr->rdata, rr->rdlen))
			return;
		iter_img_sigs(img, m, WIRE_SECTION_AUTHORITY, owner, olen,
		              rr->type);
	}
}

void iter_negative_proof(struct iter_req *req, size_t fi,
                         const struct wire_msg *m, struct iter_img *img)
{
	const struct iter_frame *f = req->frame[fi];
	uint8_t soa[WIRE_NAME_MAX];
	size_t soalen;
	bool has = iter_cls.soa != WIRE_NONE &&
	           iter_rr_owner(m, &m->rr[iter_cls.soa], soa, &soalen);

	proof_raw(img, m, has ? soa : NULL, has ? soalen : 0, f->zone.name,
	          f->zone.len);
}
