/*
 * resolver/wire/wire_write.c - the DNS message writer (capacity checked at
 * every copy, name compression), the query builder and EDNS padding.
 * Public API in wire.h.
 */
#include "config.h"

#include <stdbool.h>
#include <string.h>

#include "wire.h"

/* Offset of the count of a section in the header. */
#define COUNT_OFFSET(section) (4 + 2 * (size_t)(section))

void wire_writer_init(struct wire_writer *w, uint8_t *buf, size_t cap)
{
	w->buf = buf;
	w->cap = (buf == NULL) ? 0 : (cap > WIRE_MSG_MAX ? WIRE_MSG_MAX : cap);
	w->len = 0;
	w->nnames = 0;
}

static int room(const struct wire_writer *w, size_t n)
{
	return w->len <= w->cap && n <= w->cap - w->len;
}

int wire_write_u8(struct wire_writer *w, uint8_t v)
{
	if (!room(w, 1))
		return WIRE_ESPACE;
	w->buf[w->len++] = v;
	return WIRE_OK;
}

int wire_write_u16(struct wire_writer *w, uint16_t v)
{
	if (!room(w, 2))
		return WIRE_ESPACE;
	w->buf[w->len++] = (uint8_t)(v >> 8);
	w->buf[w->len++] = (uint8_t)v;
	return WIRE_OK;
}

int wire_write_u32(struct wire_writer *w, uint32_t v)
{
	if (!room(w, 4))
		return WIRE_ESPACE;
	w->buf[w->len++] = (uint8_t)(v >> 24);
	w->buf[w->len++] = (uint8_t)(v >> 16);
	w->buf[w->len++] = (uint8_t)(v >> 8);
	w->buf[w->len++] = (uint8_t)v;
	return WIRE_OK;
}

int wire_write_bytes(struct wire_writer *w, const uint8_t *p, size_t n)
{
	if (!room(w, n))
		return WIRE_ESPACE;
	if (n > 0)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
	return WIRE_OK;
}

/* Store a big-endian 16-bit value at a position already checked. */
static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

int wire_write_header(struct wire_writer *w, const struct wire_header *h)
{
	uint8_t *p;

	if (w->len != 0)
		return WIRE_EINVAL;
	if (!room(w, WIRE_HEADER_BYTES))
		return WIRE_ESPACE;
	p = w->buf;
	put16(p, h->id);
	put16(p + 2, h->flags);
	put16(p + 4, h->qdcount);
	put16(p + 6, h->ancount);
	put16(p + 8, h->nscount);
	put16(p + 10, h->arcount);
	w->len = WIRE_HEADER_BYTES;
	return WIRE_OK;
}

void wire_writer_mark(const struct wire_writer *w, struct wire_mark *m)
{
	size_t i;

	m->len = w->len;
	m->nnames = w->nnames;
	memset(m->counts, 0, sizeof m->counts);
	for (i = 0; i < 4 && w->len >= WIRE_HEADER_BYTES; i++)
		m->counts[i] = (uint16_t)(w->buf[COUNT_OFFSET(i)] << 8 |
		                          w->buf[COUNT_OFFSET(i) + 1]);
}

void wire_writer_rollback(struct wire_writer *w, const struct wire_mark *m)
{
	size_t i;

	if (m->len > w->len || m->nnames > w->nnames)
		return; /* not a mark of this writer's past */
	w->len = m->len;
	w->nnames = m->nnames;
	if (w->len < WIRE_HEADER_BYTES)
		return;
	for (i = 0; i < 4; i++)
		put16(w->buf + COUNT_OFFSET(i), m->counts[i]);
}

/* Increment the header count of a section. */
static int bump_count(struct wire_writer *w, enum wire_section section)
{
	size_t off = COUNT_OFFSET(section);
	unsigned v;

	if (w->len < WIRE_HEADER_BYTES || (unsigned)section > 3)
		return WIRE_EINVAL;
	v = (unsigned)w->buf[off] << 8 | w->buf[off + 1];
	if (v >= 0xffffu)
		return WIRE_ECOUNT;
	put16(w->buf + off, (uint16_t)(v + 1));
	return WIRE_OK;
}

/* ------------------------------------------------------------------ */
/* Names and compression                                               */

/* 1 if the name written at off equals suffix (case-insensitively). */
static int written_equal(const struct wire_writer *w, size_t off,
                         const uint8_t *suffix, size_t sufflen)
{
	uint8_t tmp[WIRE_NAME_MAX];
	size_t p = off, n;

	if (w->buf[off] != suffix[0])
		return 0; /* label lengths differ: cheap early exit */
	if (wire_read_name(w->buf, w->len, &p, tmp, &n, 0) != WIRE_OK)
		return 0;
	return wire_name_equal(tmp, n, suffix, sufflen);
}

/* Find the longest suffix of name already written; 1 if found. */
static int find_suffix(const struct wire_writer *w, const uint8_t *name,
                       size_t namelen, size_t *sufoff, size_t *target)
{
	size_t s, k;

	for (s = 0; s < namelen && name[s] != 0; s += 1 + (size_t)name[s]) {
		for (k = 0; k < w->nnames; k++) {
			if (written_equal(w, w->names[k], name + s,
			                  namelen - s)) {
				*sufoff = s;
				*target = w->names[k];
				return 1;
			}
		}
	}
	return 0;
}

/* Remember a label start as a compression target, if it fits. */
static void remember(struct wire_writer *w, size_t off)
{
	if (off <= WIRE_PTR_OFFSET_MAX && w->nnames < WIRE_COMPRESS_MAX)
		w->names[w->nnames++] = (uint16_t)off;
}

int wire_write_name(struct wire_writer *w, const uint8_t *name, size_t namelen,
                    int compress)
{
	size_t sufoff = namelen, target = 0, s, need;
	int found = 0, rc;

	rc = wire_name_check(name, namelen);
	if (rc != WIRE_OK)
		return rc;
	if (compress)
		found = find_suffix(w, name, namelen, &sufoff, &target);
	need = found ? sufoff + 2 : namelen;
	if (!room(w, need))
		return WIRE_ESPACE;
	for (s = 0; s < sufoff && name[s] != 0; s += 1 + (size_t)name[s])
		remember(w, w->len + s);
	REQUIRE(!found || sufoff <= namelen);
	if (found) {
		memcpy(w->buf + w->len, name, sufoff);
		w->len += sufoff;
		w->buf[w->len++] = (uint8_t)(0xc0 | (target >> 8));
		w->buf[w->len++] = (uint8_t)target;
	} else {
		memcpy(w->buf + w->len, name, namelen);
		w->len += namelen;
	}
	return WIRE_OK;
}

int wire_write_question(struct wire_writer *w, const uint8_t *name,
                        size_t namelen, uint16_t qtype, uint16_t qclass)
{
	struct wire_mark m;
	int rc;

	if (w->len < WIRE_HEADER_BYTES)
		return WIRE_EINVAL;
	wire_writer_mark(w, &m);
	if ((rc = wire_write_name(w, name, namelen, 1)) != WIRE_OK ||
	    (rc = wire_write_u16(w, qtype)) != WIRE_OK ||
	    (rc = wire_write_u16(w, qclass)) != WIRE_OK ||
	    (rc = bump_count(w, WIRE_SECTION_QUESTION)) != WIRE_OK) {
		wire_writer_rollback(w, &m);
		return rc;
	}
	return WIRE_OK;
}

int wire_write_rr_begin(struct wire_writer *w, enum wire_section section,
                        const uint8_t *name, size_t namelen, uint16_t type,
                        uint16_t rclass, uint32_t ttl, size_t *rdlen_pos)
{
	struct wire_mark m;
	size_t pos;
	int rc;

	if (w->len < WIRE_HEADER_BYTES || section < WIRE_SECTION_ANSWER ||
	    section > WIRE_SECTION_ADDITIONAL)
		return WIRE_EINVAL;
	wire_writer_mark(w, &m);
	if ((rc = wire_write_name(w, name, namelen, 1)) != WIRE_OK ||
	    (rc = wire_write_u16(w, type)) != WIRE_OK ||
	    (rc = wire_write_u16(w, rclass)) != WIRE_OK ||
	    (rc = wire_write_u32(w, ttl)) != WIRE_OK)
		goto fail;
	pos = w->len;
	if ((rc = wire_write_u16(w, 0)) != WIRE_OK ||
	    (rc = bump_count(w, section)) != WIRE_OK)
		goto fail;
	*rdlen_pos = pos;
	return WIRE_OK;
fail:
	wire_writer_rollback(w, &m);
	return rc;
}

int wire_write_rr_end(struct wire_writer *w, size_t rdlen_pos)
{
	size_t n;

	if (rdlen_pos < WIRE_HEADER_BYTES || rdlen_pos > w->len ||
	    w->len - rdlen_pos < 2)
		return WIRE_EINVAL;
	n = w->len - rdlen_pos - 2;
	if (n > 0xffffu)
		return WIRE_EINVAL;
	put16(w->buf + rdlen_pos, (uint16_t)n);
	return WIRE_OK;
}

int wire_write_rr(struct wire_writer *w, enum wire_section section,
                  const uint8_t *name, size_t namelen, uint16_t type,
                  uint16_t rclass, uint32_t ttl, const uint8_t *rdata,
                  uint16_t rdlen)
{
	struct wire_mark m;
	size_t pos;
	int rc;

	wire_writer_mark(w, &m);
	rc = wire_write_rr_begin(w, section, name, namelen, type, rclass, ttl,
	                         &pos);
	if (rc != WIRE_OK)
		return rc;
	if ((rc = wire_write_bytes(w, rdata, rdlen)) != WIRE_OK ||
	    (rc = wire_write_rr_end(w, pos)) != WIRE_OK) {
		wire_writer_rollback(w, &m);
		return rc;
	}
	return WIRE_OK;
}

int wire_write_opt(struct wire_writer *w, uint16_t udp_size, uint8_t ext_rcode,
                   int do_bit)
{
	static const uint8_t root[1] = { 0 };
	uint32_t ttl = (uint32_t)ext_rcode << 24;

	if (udp_size < WIRE_UDP_PLAIN_MAX)
		udp_size = WIRE_UDP_PLAIN_MAX;
	if (do_bit)
		ttl |= WIRE_EDNS_DO;
	return wire_write_rr(w, WIRE_SECTION_ADDITIONAL, root, sizeof(root),
	                     WIRE_TYPE_OPT, udp_size, ttl, NULL, 0);
}

/* ------------------------------------------------------------------ */
/* Query builder                                                       */

/** Bytes of an OPT record without options: root owner, type, class,
 *  TTL, RDLENGTH. */
#define WIRE_OPT_EMPTY_BYTES 11

/* The bytes the writer below makes of a query, written at once (a tenth
 * of the instructions): the header, the name as it is (the first name
 * of a message has nothing to point to), type, class, and the OPT record
 * of wire_write_opt. False, with nothing written, when the name is not
 * valid or does not fit: the writer then says why. */
static bool query_direct(uint8_t *out, size_t cap, size_t *outlen,
                         const uint8_t *name, size_t namelen,
                         const struct wire_query *q)
{
	size_t opt = q->edns_payload != 0 ? WIRE_OPT_EMPTY_BYTES : 0;
	size_t n = WIRE_HEADER_BYTES + namelen + 4 + opt;
	uint8_t *p = out + WIRE_HEADER_BYTES + namelen;
	uint32_t ttl = q->edns_do ? WIRE_EDNS_DO : 0;

	if (n > cap || wire_name_check(name, namelen) != WIRE_OK)
		return false;
	memset(out, 0, WIRE_HEADER_BYTES);
	put16(out, q->id);
	put16(out + 2, q->flags);
	put16(out + 4, 1);
	put16(out + 10, opt != 0 ? 1 : 0);
	memcpy(out + WIRE_HEADER_BYTES, name, namelen);
	put16(p, q->qtype);
	put16(p + 2, q->qclass);
	if (opt != 0) {
		p[4] = 0; /* the root */
		put16(p + 5, WIRE_TYPE_OPT);
		put16(p + 7, q->edns_payload < WIRE_UDP_PLAIN_MAX ?
		                     WIRE_UDP_PLAIN_MAX :
		                     q->edns_payload);
		put16(p + 9, (uint16_t)(ttl >> 16));
		put16(p + 11, (uint16_t)ttl);
		put16(p + 13, 0);
	}
	*outlen = n;
	return true;
}

int wire_query_build(uint8_t *out, size_t cap, size_t *outlen,
                     const uint8_t *name, size_t namelen,
                     const struct wire_query *q)
{
	struct wire_writer w;
	struct wire_header h;
	int rc;

	if (out == NULL || outlen == NULL || q == NULL)
		return WIRE_EINVAL;
	if (name != NULL && query_direct(out, cap, outlen, name, namelen, q))
		return WIRE_OK;
	memset(&h, 0, sizeof(h));
	h.id = q->id;
	h.flags = q->flags;
	wire_writer_init(&w, out, cap);
	rc = wire_write_header(&w, &h);
	if (rc == WIRE_OK)
		rc = wire_write_question(&w, name, namelen, q->qtype,
		                         q->qclass);
	if (rc == WIRE_OK && q->edns_payload != 0)
		rc = wire_write_opt(&w, q->edns_payload, 0, q->edns_do);
	if (rc != WIRE_OK)
		return rc;
	*outlen = w.len;
	return WIRE_OK;
}

int wire_query_build_text(uint8_t *out, size_t cap, size_t *outlen,
                          const char *name, const struct wire_query *q)
{
	uint8_t wname[WIRE_NAME_MAX];
	size_t wlen;
	int rc;

	if (name == NULL)
		return WIRE_EINVAL;
	rc = wire_name_from_text(name, strlen(name), wname, &wlen);
	if (rc != WIRE_OK)
		return rc;
	return wire_query_build(out, cap, outlen, wname, wlen, q);
}

/* ------------------------------------------------------------------ */
/* Padding (RFC 7830, RFC 8467)                                        */

/* Does the OPT record's RDATA hold a padding option already? */
static bool pad_has(const uint8_t *p, size_t n)
{
	size_t i = 0, olen;

	while (i + WIRE_OPT_HDR <= n) {
		if (p[i] == 0 && p[i + 1] == WIRE_OPT_PADDING)
			return true;
		olen = (size_t)p[i + 2] << 8 | p[i + 3];
		i += WIRE_OPT_HDR + olen;
	}
	return false;
}

/* The last record of a message, if the walk ends exactly at len. */
static bool pad_last(const uint8_t *msg, size_t len, struct wire_rr *rr)
{
	struct wire_header h;
	struct wire_question q;
	size_t pos = 0, i, n;

	if (wire_read_header(msg, len, &pos, &h) != WIRE_OK || h.arcount == 0)
		return false;
	for (i = 0; i < h.qdcount; i++)
		if (wire_read_question(msg, len, &pos, &q) != WIRE_OK)
			return false;
	n = (size_t)h.ancount + h.nscount + h.arcount;
	for (i = 0; i < n; i++)
		if (wire_read_rr(msg, len, &pos, rr) != WIRE_OK)
			return false;
	return pos == len;
}

size_t wire_pad(uint8_t *msg, size_t len, size_t cap, size_t block)
{
	struct wire_rr rr, again;
	size_t total, pad, rdlen;

	if (msg == NULL || block == 0 || !pad_last(msg, len, &rr) ||
	    rr.type != WIRE_TYPE_OPT || msg[rr.owner] != 0 ||
	    pad_has(msg + rr.rdata, rr.rdlen))
		return len;
	total = len + WIRE_OPT_HDR;
	pad = (block - total % block) % block;
	rdlen = (size_t)rr.rdlen + WIRE_OPT_HDR + pad;
	if (total + pad > cap || total + pad > WIRE_MSG_MAX ||
	    rdlen > UINT16_MAX)
		return len;
	msg[len] = 0;
	msg[len + 1] = WIRE_OPT_PADDING;
	msg[len + 2] = (uint8_t)(pad >> 8);
	msg[len + 3] = (uint8_t)pad;
	memset(msg + total, 0, pad);
	msg[rr.rdata - 2] = (uint8_t)(rdlen >> 8);
	msg[rr.rdata - 1] = (uint8_t)rdlen;
	/* A compressed name may run through the OPT's RDLENGTH (a pointer
	 * into the header, say): if the new length changes how the message
	 * reads, leave it as it was. */
	if (!pad_last(msg, total + pad, &again) || again.rdata != rr.rdata) {
		msg[rr.rdata - 2] = (uint8_t)(rr.rdlen >> 8);
		msg[rr.rdata - 1] = (uint8_t)rr.rdlen;
		return len;
	}
	return total + pad;
}
