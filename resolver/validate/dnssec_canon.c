/*
 * resolver/validate/dnssec_canon.c - RRSIG RDATA and the data it signs:
 * the canonical form of an RRset (RFC 4034 sections 3.1.8.1, 6.2, 6.3;
 * RFC 6840 section 5.1).
 *
 * The canonical RDATA of every record is written first, one after the
 * other, then moved to the end of the caller's buffer; the records are
 * sorted by pointers into that copy and written from the front, each
 * once. The destination is checked to hold both before anything moves.
 */
#include "dnssec.h"

#include <stdlib.h>
#include <string.h>

/* The RDATA layout of the types whose RDATA holds names (RFC 4034
 * section 6.2 item 3, without NSEC as RFC 6840 section 5.1 says): 'n' a
 * name (expanded, lowercased), 's' a character-string, 'a' the A6 prefix
 * and suffix (RFC 2874), a digit d: d fixed bytes. What follows the
 * layout is copied as it is. HINFO is in the list but holds no name. */
static const char *canon_layout(uint16_t type)
{
	switch (type) {
	case 2:
	case 3:
	case 4:
	case 5:
	case 7:
	case 8:
	case 9:
	case 12:
	case 30:
	case 39: /* NS MD MF CNAME MB MG MR PTR NXT DNAME */ return "n";
	case 6:
	case 14:
	case 17: /* SOA MINFO RP */ return "nn";
	case 15:
	case 18:
	case 21:
	case 36: /* MX AFSDB RT KX */ return "2n";
	case 26: /* PX */ return "2nn";
	case 33: /* SRV */ return "6n";
	case 35: /* NAPTR */ return "4sssn";
	case 24:
	case DNSSEC_TYPE_RRSIG: /* SIG RRSIG */ return "99n";
	case 38: /* A6 */ return "a";
	default: return "";
	}
}

/* A destination with its capacity checked at every copy. */
struct canon_out {
	uint8_t *p;
	size_t cap;
	size_t len;
};

static int put(struct canon_out *o, const uint8_t *src, size_t n)
{
	if (n > o->cap - o->len)
		return DNSSEC_ESPACE;
	memcpy(o->p + o->len, src, n);
	o->len += n;
	return DNSSEC_OK;
}

/* Copy n bytes of the RDATA at *pos. */
static int canon_copy(const struct dnssec_rdata *rd, size_t end, size_t *pos,
                      size_t n, struct canon_out *o)
{
	if (n > end - *pos)
		return DNSSEC_EFORMAT;
	*pos += n;
	return put(o, rd->msg + *pos - n, n);
}

/* One layout step at *pos; the RDATA is [rr->rdata, end). */
static int canon_step(char c, const struct dnssec_rdata *rd,
                      const struct wire_rr *rr, size_t *pos,
                      struct canon_out *o)
{
	size_t end = rr->rdata + rr->rdlen, n;
	uint8_t name[WIRE_NAME_MAX];

	if (c >= '1' && c <= '9')
		return canon_copy(rd, end, pos, (size_t)(c - '0'), o);
	if (c == 's' || c == 'a') {
		if (*pos >= end)
			return DNSSEC_EFORMAT;
		n = rd->msg[*pos];
		if (c == 'a') { /* prefix length, then the address suffix */
			if (n > 128)
				return DNSSEC_EFORMAT;
			n = (128 - n + 7) / 8;
		}
		return canon_copy(rd, end, pos, n + 1, o);
	}
	if (wire_read_rdata_name(rd->msg, rd->msglen, rr, pos, name, &n,
	                         WIRE_NAME_LOWER) != WIRE_OK)
		return DNSSEC_EFORMAT;
	return put(o, name, n);
}

/* The canonical RDATA of one record, appended to o. */
static int canon_rdata(uint16_t type, const struct dnssec_rdata *rd,
                       struct canon_out *o)
{
	const char *lay = canon_layout(type);
	struct wire_rr rr;
	size_t pos, end, start = o->len;
	int rc = DNSSEC_OK;

	if (rd->msg == NULL || rd->off > rd->msglen ||
	    rd->len > rd->msglen - rd->off)
		return DNSSEC_EFORMAT;
	memset(&rr, 0, sizeof rr);
	rr.rdata = rd->off;
	rr.rdlen = rd->len;
	pos = rd->off;
	end = rd->off + rd->len;
	for (; *lay != '\0' && rc == DNSSEC_OK; lay++) {
		/* A6 with prefix length 0 has no prefix name. */
		int named = *lay == 'a' && pos < end && rd->msg[pos] != 0;

		rc = canon_step(*lay, rd, &rr, &pos, o);
		if (rc == DNSSEC_OK && named)
			rc = canon_step('n', rd, &rr, &pos, o);
	}
	if (rc == DNSSEC_OK)
		rc = canon_copy(rd, end, &pos, end - pos, o);
	if (rc == DNSSEC_OK && o->len - start > UINT16_MAX)
		rc = DNSSEC_EFORMAT;
	return rc;
}

int dnssec_name_labels(const uint8_t *name, size_t len)
{
	size_t pos = 0;
	int n = 0;

	if (name == NULL || wire_name_check(name, len) != WIRE_OK)
		return -1;
	while (name[pos] != 0) {
		pos += (size_t)name[pos] + 1;
		n++;
	}
	return n;
}

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | p[3];
}

int dnssec_rrsig_parse(const uint8_t *rdata, size_t rdlen,
                       struct dnssec_rrsig *s)
{
	size_t pos = DNSSEC_RRSIG_FIXED_BYTES, n = 0;
	const uint8_t *p = rdata;

	if (rdata == NULL || s == NULL)
		return DNSSEC_EINVAL;
	if (rdlen <= DNSSEC_RRSIG_FIXED_BYTES || rdlen > UINT16_MAX)
		return DNSSEC_EFORMAT;
	if (wire_read_name(rdata, rdlen, &pos, s->signer, &n,
	                   WIRE_NAME_LOWER) != WIRE_OK ||
	    pos - DNSSEC_RRSIG_FIXED_BYTES != n) /* a pointer: compressed */
		return DNSSEC_EFORMAT;
	s->rdata = rdata;
	s->rdlen = rdlen;
	s->type_covered = (uint16_t)(p[0] << 8 | p[1]);
	s->alg = p[2];
	s->labels = p[3];
	s->orig_ttl = rd32(p + 4);
	s->expiration = rd32(p + 8);
	s->inception = rd32(p + 12);
	s->tag = (uint16_t)(p[16] << 8 | p[17]);
	s->signerlen = n;
	s->sig = rdata + pos;
	s->siglen = rdlen - pos;
	return DNSSEC_OK;
}

/* The owner as signed: lowercased, and "*." plus the last labels labels
 * when the owner has more (RFC 4035 section 5.3.2). */
static int canon_owner(const struct dnssec_rrset *set, unsigned labels,
                       uint8_t out[WIRE_NAME_MAX], size_t *outlen)
{
	int have = dnssec_name_labels(set->owner, set->ownerlen);
	size_t pos = 0;

	if (have < 0)
		return DNSSEC_EFORMAT;
	if (labels > (unsigned)have)
		return DNSSEC_ELABELS;
	for (; (unsigned)have > labels; have--)
		pos += (size_t)set->owner[pos] + 1;
	if (pos == 0) {
		memcpy(out, set->owner, set->ownerlen);
		*outlen = set->ownerlen;
	} else { /* "*." is 2 bytes, the label dropped was at least 2 */
		out[0] = 1;
		out[1] = '*';
		memcpy(out + 2, set->owner + pos, set->ownerlen - pos);
		*outlen = set->ownerlen - pos + 2;
	}
	wire_name_lower(out, *outlen);
	return DNSSEC_OK;
}

/* A canonical RDATA in the sort scratch. */
struct canon_ent {
	const uint8_t *p;
	size_t off; /* from the first canonical RDATA */
	size_t len;
};

/* RFC 4034 section 6.3: RDATA as left-justified unsigned octet strings,
 * a missing octet sorting before a zero. */
static int canon_cmp(const void *a, const void *b)
{
	const struct canon_ent *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->p, y->p, n);

	if (c != 0)
		return c;
	return x->len < y->len ? -1 : x->len > y->len;
}

/* Write each RRset record's canonical RDATA into o (from o->len on) and
 * note its offset and length in ent (pointers come after the move). */
static int canon_all(const struct dnssec_rrset *set, struct canon_out *o,
                     struct canon_ent *ent)
{
	size_t i, head = o->len, start;
	int rc;

	for (i = 0; i < set->count; i++) {
		start = o->len;
		rc = canon_rdata(set->type, &set->rd[i], o);
		if (rc != DNSSEC_OK)
			return rc;
		ent[i].off = start - head;
		ent[i].len = o->len - start;
	}
	return DNSSEC_OK;
}

/* Write the sorted, distinct records (owner, type, class, TTL, RDATA). */
static int canon_write(const struct dnssec_rrsig *sig,
                       const struct dnssec_rrset *set, const uint8_t *owner,
                       size_t ownerlen, struct canon_ent *ent,
                       struct canon_out *o)
{
	uint8_t fixed[10];
	size_t i;
	int rc = DNSSEC_OK;

	fixed[0] = (uint8_t)(set->type >> 8);
	fixed[1] = (uint8_t)set->type;
	fixed[2] = (uint8_t)(set->rclass >> 8);
	fixed[3] = (uint8_t)set->rclass;
	fixed[4] = (uint8_t)(sig->orig_ttl >> 24);
	fixed[5] = (uint8_t)(sig->orig_ttl >> 16);
	fixed[6] = (uint8_t)(sig->orig_ttl >> 8);
	fixed[7] = (uint8_t)sig->orig_ttl;
	for (i = 0; i < set->count && rc == DNSSEC_OK; i++) {
		if (i > 0 && canon_cmp(&ent[i - 1], &ent[i]) == 0)
			continue; /* a duplicate (RFC 4034 section 6.3) */
		fixed[8] = (uint8_t)(ent[i].len >> 8);
		fixed[9] = (uint8_t)ent[i].len;
		rc = put(o, owner, ownerlen);
		if (rc == DNSSEC_OK)
			rc = put(o, fixed, sizeof fixed);
		if (rc == DNSSEC_OK)
			rc = put(o, ent[i].p, ent[i].len);
	}
	return rc;
}

int dnssec_signed_data(const struct dnssec_rrsig *sig,
                       const struct dnssec_rrset *set, uint8_t *out,
                       size_t cap, size_t *outlen)
{
	struct canon_ent ent[DNSSEC_RRSET_MAX];
	uint8_t owner[WIRE_NAME_MAX];
	struct canon_out o = { out, cap, 0 };
	size_t ownerlen = 0, head, body, i, need;
	int rc;

	if (sig == NULL || set == NULL || out == NULL || outlen == NULL ||
	    set->owner == NULL || set->rd == NULL || set->count == 0)
		return DNSSEC_EINVAL;
	if (set->count > DNSSEC_RRSET_MAX)
		return DNSSEC_ETOOMANY;
	rc = canon_owner(set, sig->labels, owner, &ownerlen);
	if (rc == DNSSEC_OK)
		rc = put(&o, sig->rdata, DNSSEC_RRSIG_FIXED_BYTES);
	if (rc == DNSSEC_OK)
		rc = put(&o, sig->signer, sig->signerlen);
	if (rc != DNSSEC_OK)
		return rc;
	head = o.len;
	rc = canon_all(set, &o, ent);
	if (rc != DNSSEC_OK)
		return rc;
	/* The records need head + count * (owner + 10) + body bytes, and the
	 * RDATA copy body more at the end, where it is not yet overwritten
	 * when read. */
	body = o.len - head;
	need = head + set->count * (ownerlen + 10) + body;
	if (need > cap || body > cap - need)
		return DNSSEC_ESPACE;
	memmove(out + cap - body, out + head, body);
	for (i = 0; i < set->count; i++)
		ent[i].p = out + cap - body + ent[i].off;
	qsort(ent, set->count, sizeof ent[0], canon_cmp);
	o.len = head;
	o.cap = cap - body;
	rc = canon_write(sig, set, owner, ownerlen, ent, &o);
	if (rc == DNSSEC_OK)
		*outlen = o.len;
	return rc;
}
