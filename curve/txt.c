/*
 * curve/txt.c - the TXT format (curve/README, "TXT format"), with c-ares.
 *
 * Design notes (what c-ares 1.18.1 does, checked against the library):
 * - ares_create_query builds the query packet, but it refuses any QNAME
 *   over 255 bytes (its MAXCDNAME check) and any name under .onion
 *   (RFC 7686). A TXT QNAME passes 255 bytes once the inner query is
 *   about 90 bytes, so those names are written by our own bounded code
 *   (curve_txt_qname_write); shorter ones go through c-ares.
 * - ares_expand_name and ares_parse_txt_reply_ext do accept names over
 *   255 bytes, so parsing uses them: ares_expand_name measures the
 *   question of the query we sent, ares_parse_txt_reply_ext splits the
 *   RDATA into its character-strings. c-ares checks neither the header
 *   flags, the TTL, nor that the answer belongs to the question, so those
 *   checks come first, in bounded code here; c-ares only ever sees a
 *   packet whose every byte we have already accounted for.
 */
#include "config.h"
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <ares.h>
#include "internal.h"

/** Base32 characters per QNAME label of the box. */
#define TXT_LABEL_CHARS 50
/** Bytes of (client nonce | box) for an inner query of n bytes. */
#define TXT_DATA_LEN(n) (CURVE_NONCE_BYTES + CURVE_BOX_OVERHEAD + (n))
/** Largest (client nonce | box) we box (see CURVE_TXT_MAX_QUERY). */
#define TXT_DATA_MAX TXT_DATA_LEN(CURVE_TXT_MAX_QUERY)
/** Header flags byte 1: QR, opcode (4 bits), AA, TC, RD. */
#define DNS_QR 0x80u
#define DNS_OPCODE_MASK 0x78u
#define DNS_AA 0x04u
#define DNS_TC 0x02u
/** Header flags byte 2: RA, Z, AD, CD, RCODE (4 bits). */
#define DNS_RCODE_MASK 0x0fu
/** Top bits of a compression pointer. */
#define DNS_PTR 0xc0u

/** Bytes of the TXT QNAME for dlen data bytes and a zlen-byte zone. */
static size_t txt_qname_len(size_t dlen, size_t zlen)
{
	size_t chars = CURVE_BASE32_LEN(dlen);
	size_t labels = (chars + TXT_LABEL_CHARS - 1) / TXT_LABEL_CHARS;

	return chars + labels + 1 + CURVE_KEYLABEL_LEN + zlen;
}

/** Write the x1a label's 54 characters. */
static int txt_x1a(char out[CURVE_KEYLABEL_LEN],
                   const uint8_t pk[CURVE_KEY_BYTES])
{
	memcpy(out, "x1a", 3);
	return curve_key_b32(out + 3, pk);
}

int curve_txt_qname_write(uint8_t *out, size_t outcap, size_t *outlen,
                          const uint8_t *data, size_t dlen,
                          const uint8_t client_pk[CURVE_KEY_BYTES],
                          const uint8_t *zone_wire, size_t zlen)
{
	char b32[CURVE_BASE32_LEN(TXT_DATA_MAX)];
	size_t chars = 0, i, n, pos = 0;

	if (dlen > TXT_DATA_MAX || zlen == 0)
		return CURVE_EINVAL;
	if (txt_qname_len(dlen, zlen) > outcap)
		return CURVE_ESPACE;
	if (curve_base32_encode(b32, sizeof b32, &chars, data, dlen) !=
	    CURVE_OK)
		return CURVE_EINVAL;
	for (i = 0; i < chars; i += n) {
		n = chars - i < TXT_LABEL_CHARS ? chars - i : TXT_LABEL_CHARS;
		if (outcap - pos < 1 + n)
			return CURVE_ESPACE;
		out[pos++] = (uint8_t)n;
		memcpy(out + pos, b32 + i, n);
		pos += n;
	}
	if (outcap - pos < 1 + CURVE_KEYLABEL_LEN + zlen)
		return CURVE_ESPACE;
	out[pos++] = CURVE_KEYLABEL_LEN;
	if (txt_x1a((char *)out + pos, client_pk) != CURVE_OK)
		return CURVE_EINVAL;
	pos += CURVE_KEYLABEL_LEN;
	memcpy(out + pos, zone_wire, zlen);
	*outlen = pos + zlen;
	return CURVE_OK;
}

/** The zone as dotted text without the final dot ("" for the root). */
static size_t zone_text_len(const char *zone)
{
	size_t n = strlen(zone);

	if (n > 0 && zone[n - 1] == '.')
		n--;
	return n;
}

/**
 * Build the packet with ares_create_query (QNAME <= 255 bytes).
 * @return CURVE_OK, CURVE_ENOMEM, or CURVE_ENAME when c-ares refused the
 *   name (the caller then writes it itself).
 */
static int txt_build_cares(const uint8_t *data, size_t dlen,
                           const uint8_t client_pk[CURVE_KEY_BYTES],
                           const char *zone, uint16_t id, uint8_t *out,
                           size_t pktlen)
{
	char text[CURVE_NAME_MAX + 1], b32[CURVE_BASE32_LEN(TXT_DATA_MAX)];
	size_t chars = 0, i, n, pos = 0, zn = zone_text_len(zone);
	unsigned char *buf = NULL;
	int buflen = 0, rc;

	if (curve_base32_encode(b32, sizeof b32, &chars, data, dlen) !=
	    CURVE_OK)
		return CURVE_EINVAL;
	/* Fits: the wire name is <= 255 bytes and its text form is one
	 * byte shorter (dots replace length bytes, no root byte). */
	for (i = 0; i < chars; i += n) {
		n = chars - i < TXT_LABEL_CHARS ? chars - i : TXT_LABEL_CHARS;
		memcpy(text + pos, b32 + i, n);
		pos += n;
		text[pos++] = '.';
	}
	if (txt_x1a(text + pos, client_pk) != CURVE_OK)
		return CURVE_EINVAL;
	pos += CURVE_KEYLABEL_LEN;
	if (zn > 0) {
		text[pos++] = '.';
		memcpy(text + pos, zone, zn);
		pos += zn;
	}
	text[pos] = '\0';
	rc = ares_create_query(text, CURVE_DNS_CLASS_IN, CURVE_DNS_TYPE_TXT,
	                       id, 0, &buf, &buflen, 0);
	if (rc == ARES_ENOMEM)
		return CURVE_ENOMEM;
	if (rc != ARES_SUCCESS)
		return CURVE_ENAME;
	rc = CURVE_ENAME;
	if (buflen >= 0 && (size_t)buflen == pktlen) {
		memcpy(out, buf, pktlen);
		rc = CURVE_OK;
	}
	ares_free_string(buf);
	return rc;
}

/** Write the header, QNAME and question tail ourselves. */
static int txt_build_own(const uint8_t *data, size_t dlen,
                         const uint8_t client_pk[CURVE_KEY_BYTES],
                         const uint8_t *zone_wire, size_t zlen, uint16_t id,
                         uint8_t *out, size_t pktlen)
{
	size_t qn = 0, pos = CURVE_DNS_HEADER;
	int st;

	memset(out, 0, CURVE_DNS_HEADER);
	out[0] = (uint8_t)(id >> 8);
	out[1] = (uint8_t)id;
	out[5] = 1; /* QDCOUNT */
	st = curve_txt_qname_write(out + pos, pktlen - pos - CURVE_DNS_QFIXED,
	                           &qn, data, dlen, client_pk, zone_wire,
	                           zlen);
	if (st != CURVE_OK)
		return st;
	pos += qn;
	out[pos++] = 0;
	out[pos++] = CURVE_DNS_TYPE_TXT;
	out[pos++] = 0;
	out[pos++] = CURVE_DNS_CLASS_IN;
	return pos == pktlen ? CURVE_OK : CURVE_EINVAL;
}

int curve_txt_query_build(struct curve_client *c,
                          const uint8_t server_pk[CURVE_KEY_BYTES],
                          const uint8_t nonce[CURVE_NONCE_BYTES], uint16_t id,
                          const char *zone, const uint8_t *query, size_t qlen,
                          uint8_t *out, size_t outcap, size_t *outlen)
{
	uint8_t data[TXT_DATA_MAX], zone_wire[CURVE_NAME_MAX];
	uint8_t client_pk[CURVE_KEY_BYTES];
	size_t zlen = 0, dlen, qname, pktlen;
	int st;

	if (c == NULL || server_pk == NULL || nonce == NULL || zone == NULL ||
	    out == NULL || outlen == NULL || (qlen > 0 && query == NULL) ||
	    qlen > CURVE_TXT_MAX_QUERY)
		return CURVE_EINVAL;
	if (curve_name_from_text(zone_wire, sizeof zone_wire, &zlen, zone,
	                         strlen(zone)) != CURVE_OK)
		return CURVE_ENAME;
	dlen = TXT_DATA_LEN(qlen);
	qname = txt_qname_len(dlen, zlen);
	pktlen = CURVE_DNS_HEADER + qname + CURVE_DNS_QFIXED;
	if (outcap < pktlen)
		return CURVE_ESPACE;
	memcpy(data, nonce, CURVE_NONCE_BYTES);
	st = curve_box_query(c, server_pk, nonce, query, qlen,
	                     data + CURVE_NONCE_BYTES, client_pk);
	if (st != CURVE_OK)
		return st;
	st = CURVE_ENAME;
	if (qname <= CURVE_NAME_MAX)
		st = txt_build_cares(data, dlen, client_pk, zone, id, out,
		                     pktlen);
	/* c-ares 1.18.1 ares_create_query refuses QNAMEs over 255 bytes
	 * (MAXCDNAME) and .onion names; the TXT format needs both, so such
	 * names are written here, bounded by pktlen <= outcap. */
	if (st == CURVE_ENAME)
		st = txt_build_own(data, dlen, client_pk, zone_wire, zlen, id,
		                   out, pktlen);
	if (st == CURVE_OK)
		*outlen = pktlen;
	return st;
}

/** Bytes of the question (name + type + class) of the query we sent. */
static int txt_question_len(const uint8_t *query, size_t qlen, size_t *qsz)
{
	char *name = NULL;
	long enclen = 0;
	int rc;

	if (query == NULL || qlen > INT_MAX ||
	    qlen < CURVE_DNS_HEADER + 1 + CURVE_DNS_QFIXED)
		return CURVE_EINVAL;
	rc = ares_expand_name(query + CURVE_DNS_HEADER, query, (int)qlen,
	                      &name, &enclen);
	if (rc == ARES_ENOMEM)
		return CURVE_ENOMEM;
	if (rc != ARES_SUCCESS)
		return CURVE_EINVAL;
	ares_free_string(name);
	if (enclen <= 0 ||
	    (size_t)enclen > qlen - CURVE_DNS_HEADER - CURVE_DNS_QFIXED)
		return CURVE_EINVAL;
	*qsz = (size_t)enclen + CURVE_DNS_QFIXED;
	return CURVE_OK;
}

/** Check ID, flags and counts of the response. */
static int txt_check_header(const uint8_t *query, const uint8_t *pkt,
                            size_t len)
{
	static const uint8_t counts[] = { 0, 1, 0, 1, 0, 0, 0, 0 };

	if (len < CURVE_DNS_HEADER)
		return CURVE_ESHORT;
	if (pkt[0] != query[0] || pkt[1] != query[1])
		return CURVE_EID;
	if ((pkt[2] & (DNS_QR | DNS_AA)) != (DNS_QR | DNS_AA) ||
	    (pkt[2] & (DNS_OPCODE_MASK | DNS_TC)) != 0 ||
	    (pkt[3] & DNS_RCODE_MASK) != 0)
		return CURVE_EFORMAT;
	if (memcmp(pkt + 4, counts, sizeof counts) != 0)
		return CURVE_EFORMAT;
	return CURVE_OK;
}

/** Read a 16-bit big-endian field. */
static uint16_t get16(const uint8_t *p)
{
	return (uint16_t)((p[0] << 8) | p[1]);
}

/**
 * Check the answer RR at *pos: owner = question name (pointer c00c or
 * the literal name), TXT, IN, TTL 0, and RDATA ending exactly at len.
 * On success *pos is the start of RDATA and *rdlen its length.
 */
static int txt_check_answer(const uint8_t *qname, size_t qnlen,
                            const uint8_t *pkt, size_t len, size_t *pos,
                            size_t *rdlen)
{
	size_t p = *pos;

	if (len - p < 2)
		return CURVE_ESHORT;
	if (pkt[p] == DNS_PTR && pkt[p + 1] == CURVE_DNS_HEADER) {
		p += 2;
	} else if ((pkt[p] & DNS_PTR) != 0) {
		return CURVE_EFORMAT; /* any other pointer */
	} else {
		if (len - p < qnlen)
			return CURVE_ESHORT;
		if (memcmp(pkt + p, qname, qnlen) != 0)
			return CURVE_EFORMAT;
		p += qnlen;
	}
	if (len - p < CURVE_DNS_RRFIXED)
		return CURVE_ESHORT;
	if (get16(pkt + p) != CURVE_DNS_TYPE_TXT ||
	    get16(pkt + p + 2) != CURVE_DNS_CLASS_IN ||
	    get16(pkt + p + 4) != 0 || get16(pkt + p + 6) != 0)
		return CURVE_EFORMAT;
	*rdlen = get16(pkt + p + 8);
	p += CURVE_DNS_RRFIXED;
	if (len - p < *rdlen)
		return CURVE_ESHORT;
	if (len - p > *rdlen || *rdlen == 0)
		return CURVE_EFORMAT; /* trailing bytes, or no data */
	*pos = p;
	return CURVE_OK;
}

/**
 * Concatenate the character-strings of the one TXT answer into data
 * (capacity rdlen) with ares_parse_txt_reply_ext.
 */
static int txt_collect(const uint8_t *pkt, size_t len, size_t rdlen,
                       uint8_t *data, size_t *dlen)
{
	struct ares_txt_ext *txt = NULL, *t;
	size_t n = 0, strings = 0;
	int rc, st = CURVE_OK;

	if (len > INT_MAX)
		return CURVE_EFORMAT;
	rc = ares_parse_txt_reply_ext(pkt, (int)len, &txt);
	if (rc == ARES_ENOMEM)
		return CURVE_ENOMEM;
	if (rc != ARES_SUCCESS)
		return CURVE_EFORMAT;
	/* Capped walk: each string takes at least its length byte of RDATA. */
	for (t = txt; t != NULL && st == CURVE_OK; t = t->next) {
		if (++strings > rdlen ||
		    (t == txt) != (t->record_start != 0) ||
		    t->length > rdlen - n) {
			st = CURVE_EFORMAT;
			break;
		}
		if (t->length > 0)
			memcpy(data + n, t->txt, t->length);
		n += t->length;
	}
	ares_free_data(txt);
	if (st == CURVE_OK && n + strings != rdlen)
		st = CURVE_EFORMAT; /* strings must tile RDATA exactly */
	if (st == CURVE_OK)
		*dlen = n;
	return st;
}

int curve_txt_response_open(struct curve_client *c,
                            const uint8_t server_pk[CURVE_KEY_BYTES],
                            const uint8_t nonce[CURVE_NONCE_BYTES],
                            const uint8_t *query, size_t qlen,
                            const uint8_t *pkt, size_t len, uint8_t *out,
                            size_t outcap, size_t *outlen)
{
	uint8_t stackbuf[CURVE_MAX_PACKET], *data = stackbuf;
	size_t qsz = 0, pos = CURVE_DNS_HEADER, rdlen = 0, dlen = 0;
	int st;

	if (c == NULL || server_pk == NULL || nonce == NULL ||
	    outlen == NULL || (len > 0 && pkt == NULL) ||
	    (outcap > 0 && out == NULL))
		return CURVE_EINVAL;
	st = txt_question_len(query, qlen, &qsz);
	if (st != CURVE_OK)
		return st;
	st = txt_check_header(query, pkt, len);
	if (st != CURVE_OK)
		return st;
	if (len - pos < qsz)
		return CURVE_ESHORT;
	if (memcmp(pkt + pos, query + pos, qsz) != 0)
		return CURVE_EQUESTION;
	pos += qsz;
	st = txt_check_answer(query + CURVE_DNS_HEADER, qsz - CURVE_DNS_QFIXED,
	                      pkt, len, &pos, &rdlen);
	if (st != CURVE_OK)
		return st;
	if (rdlen > sizeof stackbuf) {
		data = malloc(rdlen);
		if (data == NULL)
			return CURVE_ENOMEM;
	}
	st = txt_collect(pkt, len, rdlen, data, &dlen);
	if (st == CURVE_OK)
		st = curve_box_open_response(c, server_pk, nonce, data, dlen,
		                             out, outcap, outlen);
	if (data != stackbuf)
		free(data);
	return st;
}
