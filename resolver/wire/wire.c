/*
 * resolver/wire/wire.c - bounded reader, message parser and response matching.
 *
 * The writer and query builder are in wire_write.c, name helpers and text
 * conversion in wire_name.c; all three share the public header wire.h.
 */
#include "config.h"

#include <string.h>

#include "wire.h"

const char *wire_strerror(int status)
{
	switch (status) {
	case WIRE_OK: return "success";
	case WIRE_ESHORT: return "message truncated";
	case WIRE_ELABEL: return "label too long or of a reserved type";
	case WIRE_ENAME: return "name longer than 255 bytes";
	case WIRE_EPTR: return "compression pointer does not point back";
	case WIRE_ELOOP: return "compression loop";
	case WIRE_ECOUNT: return "record counts exceed the message";
	case WIRE_EQDCOUNT: return "more than one question";
	case WIRE_EOPT: return "bad OPT record";
	case WIRE_ERDATA: return "malformed RDATA";
	case WIRE_ESPACE: return "no space left in the output";
	case WIRE_ETEXT: return "malformed text";
	case WIRE_ENOTRESP: return "not a response";
	case WIRE_EID: return "ID mismatch";
	case WIRE_EQUESTION: return "question mismatch";
	case WIRE_ECASE: return "question case mismatch (0x20)";
	case WIRE_EINVAL: return "invalid argument";
	default: return "unknown wire status";
	}
}

/* ------------------------------------------------------------------ */
/* Bounded reader                                                      */

/* 1 if n bytes are available at pos in a buffer of len bytes. */
static int avail(size_t len, size_t pos, size_t n)
{
	return pos <= len && n <= len - pos;
}

int wire_read_u8(const uint8_t *buf, size_t len, size_t *pos, uint8_t *out)
{
	if (buf == NULL || !avail(len, *pos, 1))
		return WIRE_ESHORT;
	*out = buf[*pos];
	*pos += 1;
	return WIRE_OK;
}

int wire_read_u16(const uint8_t *buf, size_t len, size_t *pos, uint16_t *out)
{
	if (buf == NULL || !avail(len, *pos, 2))
		return WIRE_ESHORT;
	*out = (uint16_t)((unsigned)buf[*pos] << 8 | buf[*pos + 1]);
	*pos += 2;
	return WIRE_OK;
}

int wire_read_u32(const uint8_t *buf, size_t len, size_t *pos, uint32_t *out)
{
	const uint8_t *p;

	if (buf == NULL || !avail(len, *pos, 4))
		return WIRE_ESHORT;
	p = buf + *pos;
	*out = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
	*pos += 4;
	return WIRE_OK;
}

int wire_read_bytes(const uint8_t *buf, size_t len, size_t *pos, uint8_t *out,
                    size_t n)
{
	if (buf == NULL || !avail(len, *pos, n))
		return WIRE_ESHORT;
	if (out != NULL && n > 0)
		memcpy(out, buf + *pos, n);
	*pos += n;
	return WIRE_OK;
}

int wire_read_header(const uint8_t *buf, size_t len, size_t *pos,
                     struct wire_header *h)
{
	size_t p = *pos;
	struct wire_header t;

	if (wire_read_u16(buf, len, &p, &t.id) != WIRE_OK ||
	    wire_read_u16(buf, len, &p, &t.flags) != WIRE_OK ||
	    wire_read_u16(buf, len, &p, &t.qdcount) != WIRE_OK ||
	    wire_read_u16(buf, len, &p, &t.ancount) != WIRE_OK ||
	    wire_read_u16(buf, len, &p, &t.nscount) != WIRE_OK ||
	    wire_read_u16(buf, len, &p, &t.arcount) != WIRE_OK)
		return WIRE_ESHORT;
	*h = t;
	*pos = p;
	return WIRE_OK;
}

/* Lowercase one ASCII byte. */
static uint8_t lower(uint8_t c)
{
	return (c >= 'A' && c <= 'Z') ? (uint8_t)(c + ('a' - 'A')) : c;
}

/*
 * Follow the compression pointer at p (two bytes available). run is the
 * start of the label run that holds it; the target must lie before it.
 */
static int follow_pointer(const uint8_t *buf, size_t p, size_t *run,
                          unsigned *steps, size_t *next)
{
	size_t target = ((size_t)(buf[p] & 0x3f) << 8) | buf[p + 1];

	if (target >= p)
		return WIRE_EPTR;
	if (target >= *run)
		return WIRE_ELOOP;
	if (++*steps > WIRE_PTR_STEPS_MAX)
		return WIRE_ELOOP;
	*run = target;
	*next = target;
	return WIRE_OK;
}

int wire_read_name(const uint8_t *buf, size_t len, size_t *pos, uint8_t *out,
                   size_t *outlen, unsigned flags)
{
	size_t p = *pos, run = *pos, after = 0, n = 0, i;
	unsigned steps = 0;
	uint8_t c;
	int rc;

	if (buf == NULL)
		return WIRE_ESHORT;
	for (;;) {
		if (p >= len)
			return WIRE_ESHORT;
		c = buf[p];
		if ((c & 0xc0) == 0xc0) {
			if (!avail(len, p, 2))
				return WIRE_ESHORT;
			if (steps == 0)
				after = p + 2;
			rc = follow_pointer(buf, p, &run, &steps, &p);
			if (rc != WIRE_OK)
				return rc;
			continue;
		}
		if (c > WIRE_LABEL_MAX)
			return WIRE_ELABEL;
		/* Room for this label and, after it, the root label. */
		if (n + 1 + c + (c ? 1 : 0) > WIRE_NAME_MAX)
			return WIRE_ENAME;
		if (!avail(len, p + 1, c))
			return WIRE_ESHORT;
		if (out != NULL) {
			out[n] = c;
			for (i = 0; i < c; i++)
				out[n + 1 + i] =
					(flags & WIRE_NAME_LOWER) ?
						lower(buf[p + 1 + i]) :
						buf[p + 1 + i];
		}
		n += 1 + (size_t)c;
		p += 1 + (size_t)c;
		if (c == 0)
			break;
	}
	*pos = steps ? after : p;
	if (outlen != NULL)
		*outlen = n;
	return WIRE_OK;
}

int wire_read_question(const uint8_t *buf, size_t len, size_t *pos,
                       struct wire_question *q)
{
	size_t p = *pos, namelen;
	uint16_t qtype, qclass;
	int rc;

	rc = wire_read_name(buf, len, &p, q->name, &namelen, 0);
	if (rc != WIRE_OK)
		return rc;
	if (wire_read_u16(buf, len, &p, &qtype) != WIRE_OK ||
	    wire_read_u16(buf, len, &p, &qclass) != WIRE_OK)
		return WIRE_ESHORT;
	q->namelen = namelen;
	q->qtype = qtype;
	q->qclass = qclass;
	*pos = p;
	return WIRE_OK;
}

int wire_read_rr(const uint8_t *buf, size_t len, size_t *pos,
                 struct wire_rr *rr)
{
	size_t p = *pos;
	struct wire_rr t;
	int rc;

	t.owner = p;
	rc = wire_read_name(buf, len, &p, NULL, NULL, 0);
	if (rc != WIRE_OK)
		return rc;
	if (wire_read_u16(buf, len, &p, &t.type) != WIRE_OK ||
	    wire_read_u16(buf, len, &p, &t.rclass) != WIRE_OK ||
	    wire_read_u32(buf, len, &p, &t.ttl) != WIRE_OK ||
	    wire_read_u16(buf, len, &p, &t.rdlen) != WIRE_OK)
		return WIRE_ESHORT;
	t.rdata = p;
	if (wire_read_bytes(buf, len, &p, NULL, t.rdlen) != WIRE_OK)
		return WIRE_ESHORT;
	/* Every field but section, which belongs to the caller. */
	rr->owner = t.owner;
	rr->rdata = t.rdata;
	rr->ttl = t.ttl;
	rr->type = t.type;
	rr->rclass = t.rclass;
	rr->rdlen = t.rdlen;
	*pos = p;
	return WIRE_OK;
}

int wire_read_rdata_name(const uint8_t *buf, size_t len,
                         const struct wire_rr *rr, size_t *pos, uint8_t *out,
                         size_t *outlen, unsigned flags)
{
	size_t p = *pos, end = rr->rdata + rr->rdlen, n;
	int rc;

	if (end > len || p < rr->rdata || p >= end)
		return WIRE_ERDATA;
	rc = wire_read_name(buf, len, &p, out, &n, flags);
	if (rc != WIRE_OK)
		return rc == WIRE_ESHORT ? WIRE_ERDATA : rc;
	if (p > end)
		return WIRE_ERDATA;
	*pos = p;
	if (outlen != NULL)
		*outlen = n;
	return WIRE_OK;
}

/* ------------------------------------------------------------------ */
/* Messages                                                            */

/* Check the counts against the data and the caps before reading. */
static int check_counts(const struct wire_header *h, size_t len, size_t rrcap)
{
	size_t nrr = (size_t)h->ancount + h->nscount + h->arcount;
	size_t need;

	if (h->qdcount > 1)
		return WIRE_EQDCOUNT;
	if (nrr > rrcap || nrr > WIRE_RR_MAX)
		return WIRE_ECOUNT;
	need = WIRE_HEADER_BYTES +
	       (size_t)h->qdcount * WIRE_QUESTION_MIN_BYTES +
	       nrr * WIRE_RR_MIN_BYTES;
	if (need > len)
		return WIRE_ECOUNT;
	return WIRE_OK;
}

/* OPT rules (RFC 6891 6.1.1): one, in the additional section, root owner. */
static int check_opt(struct wire_msg *m, size_t i)
{
	const struct wire_rr *rr = &m->rr[i];

	if (rr->type != WIRE_TYPE_OPT)
		return WIRE_OK;
	if (rr->section != WIRE_SECTION_ADDITIONAL || m->opt != WIRE_NONE)
		return WIRE_EOPT;
	if (rr->owner >= m->len || m->buf[rr->owner] != 0)
		return WIRE_EOPT;
	m->opt = i;
	return WIRE_OK;
}

/* Read count records of one section at *pos into m->rr[*n ..]. */
static int parse_section(struct wire_msg *m, size_t *pos, size_t count,
                         enum wire_section section, size_t *n)
{
	size_t k;
	int rc;

	for (k = 0; k < count; k++) {
		if (*n >= m->rrcap) /* check_counts ensures this never is */
			return WIRE_ECOUNT;
		m->rr[*n].section = (uint8_t)section;
		rc = wire_read_rr(m->buf, m->len, pos, &m->rr[*n]);
		if (rc != WIRE_OK)
			return rc;
		rc = check_opt(m, *n);
		if (rc != WIRE_OK)
			return rc;
		*n += 1;
	}
	return WIRE_OK;
}

int wire_msg_parse(struct wire_msg *m, const uint8_t *buf, size_t len,
                   struct wire_rr *rr, size_t rrcap)
{
	size_t pos = 0, n = 0;
	int rc;

	if (m == NULL || buf == NULL || (rr == NULL && rrcap > 0))
		return WIRE_EINVAL;
	memset(m, 0, sizeof(*m));
	m->buf = buf;
	m->len = len;
	m->rr = rr;
	m->rrcap = rrcap;
	m->opt = WIRE_NONE;
	rc = wire_read_header(buf, len, &pos, &m->hdr);
	if (rc != WIRE_OK)
		return rc;
	rc = check_counts(&m->hdr, len, rrcap);
	if (rc != WIRE_OK)
		return rc;
	if (m->hdr.qdcount == 1) {
		rc = wire_read_question(buf, len, &pos, &m->q);
		if (rc != WIRE_OK)
			return rc;
		m->has_question = 1;
	}
	if ((rc = parse_section(m, &pos, m->hdr.ancount, WIRE_SECTION_ANSWER,
	                        &n)) != WIRE_OK ||
	    (rc = parse_section(m, &pos, m->hdr.nscount,
	                        WIRE_SECTION_AUTHORITY, &n)) != WIRE_OK ||
	    (rc = parse_section(m, &pos, m->hdr.arcount,
	                        WIRE_SECTION_ADDITIONAL, &n)) != WIRE_OK)
		return rc;
	m->an = m->hdr.ancount;
	m->ns = m->hdr.nscount;
	m->ar = m->hdr.arcount;
	m->end = pos;
	return WIRE_OK;
}

int wire_msg_match(const struct wire_msg *m, uint16_t id, const uint8_t *qname,
                   size_t qnamelen, uint16_t qtype, uint16_t qclass,
                   unsigned flags)
{
	const struct wire_question *q = &m->q;

	if (!(m->hdr.flags & WIRE_FLAG_QR))
		return WIRE_ENOTRESP;
	if (m->hdr.id != id)
		return WIRE_EID;
	if (!m->has_question || q->qtype != qtype || q->qclass != qclass ||
	    !wire_name_equal(q->name, q->namelen, qname, qnamelen))
		return WIRE_EQUESTION;
	if ((flags & WIRE_MATCH_CASE) &&
	    !wire_name_equal_case(q->name, q->namelen, qname, qnamelen))
		return WIRE_ECASE;
	return WIRE_OK;
}

unsigned wire_msg_rcode(const struct wire_msg *m)
{
	unsigned rcode = WIRE_RCODE(m->hdr.flags);

	if (m->opt != WIRE_NONE)
		rcode |= (unsigned)(m->rr[m->opt].ttl >> 24) << 4;
	return rcode;
}
