/*
 * resolver/transport/dot_opt.c - the EDNS(0) options of DNS over TLS to
 * forwarders (see dot.h): edns-tcp-keepalive (RFC 7828) and padding
 * (RFC 7830, RFC 8467) added to queries, the keepalive TIMEOUT read
 * from answers (and the idle timeout it gives), a query's name for the
 * debug log. Every reader takes (buf, len) and stays inside it. And
 * the configuration's side: which forwarders are asked over TLS; the
 * DoT statuses in words.
 */
#include "dot.h"

#include <stdio.h>
#include <string.h>

#include "base/netaddr.h"
#include "conf/cfg.h"
#include "wire/wire.h"

/** EDNS option code of edns-tcp-keepalive (RFC 7828). */
#define DOT_OPT_KEEPALIVE 11
/** Bytes of the keepalive TIMEOUT field (in an answer). */
#define DOT_KEEPALIVE_LEN 2
/** Bytes of an OPT record with empty rdata (root name, type, class,
 *  TTL, rdlength). */
#define DOT_OPT_FIXED 11
/** Bytes of an option's code and length. */
#define DOT_OPTHDR 4
/** Bytes of the DNS header. */
#define DOT_HDR 12
/** Bytes of a question's type and class. */
#define DOT_QTAIL 4
/** Bytes of a record after its owner name: type, class, TTL, RDLENGTH. */
#define DOT_RR_FIXED 10
/** Milliseconds per unit of the keepalive TIMEOUT. */
#define DOT_KEEPALIVE_UNIT_MS 100u
/** A connection is closed this fraction of the server's TIMEOUT early. */
#define DOT_KEEPALIVE_EARLY 8u

/* A 16-bit field of a message. */
static size_t get16(const uint8_t *p, size_t off)
{
	return (size_t)p[off] << 8 | p[off + 1];
}

/* Skip a wire name at off; the offset after it, or 0. */
static size_t skip_name(const uint8_t *p, size_t len, size_t off)
{
	while (off < len) {
		if (p[off] == 0)
			return off + 1;
		if ((p[off] & 0xc0) != 0)
			return off + 2 <= len ? off + 2 : 0;
		off += (size_t)p[off] + 1;
	}
	return 0;
}

/* The OPT record of a query whose last record it is: its offset (at
 * the root name) and RDLENGTH; false when the query is not so. */
static bool opt_last(const uint8_t *pkt, size_t len, size_t *at, size_t *rdlen)
{
	size_t off;

	/* one question, no answer or authority, one additional: OPT */
	if (len < DOT_HDR || pkt[4] != 0 || pkt[5] != 1 || pkt[6] != 0 ||
	    pkt[7] != 0 || pkt[8] != 0 || pkt[9] != 0 || pkt[10] != 0 ||
	    pkt[11] != 1)
		return false;
	off = skip_name(pkt, len, DOT_HDR);
	if (off == 0 || off + DOT_QTAIL + DOT_OPT_FIXED > len)
		return false;
	off += DOT_QTAIL;
	if (pkt[off] != 0 || pkt[off + 1] != 0 ||
	    pkt[off + 2] != WIRE_TYPE_OPT)
		return false;
	*rdlen = (size_t)pkt[off + 9] << 8 | pkt[off + 10];
	*at = off;
	return off + DOT_OPT_FIXED + *rdlen == len;
}

/* Append an option of datalen zero bytes to the OPT record that ends
 * the query; the new length (len when it cannot). */
static size_t opt_append(uint8_t *pkt, size_t len, size_t cap, uint16_t code,
                         size_t datalen)
{
	size_t off, rdlen, total = len + DOT_OPTHDR + datalen;

	if (!opt_last(pkt, len, &off, &rdlen) || total > cap ||
	    rdlen + DOT_OPTHDR + datalen > WIRE_MSG_MAX)
		return len;
	pkt[len] = (uint8_t)(code >> 8);
	pkt[len + 1] = (uint8_t)code;
	pkt[len + 2] = (uint8_t)(datalen >> 8);
	pkt[len + 3] = (uint8_t)datalen;
	memset(pkt + len + DOT_OPTHDR, 0, datalen);
	rdlen += DOT_OPTHDR + datalen;
	pkt[off + 9] = (uint8_t)(rdlen >> 8);
	pkt[off + 10] = (uint8_t)rdlen;
	return total;
}

size_t dot_pad(uint8_t *pkt, size_t len, size_t cap)
{
	return wire_pad(pkt, len, cap, DOT_PAD_BLOCK);
}

size_t dot_keepalive_add(uint8_t *pkt, size_t len, size_t cap)
{
	return opt_append(pkt, len, cap, DOT_OPT_KEEPALIVE, 0);
}

/* A query whose OPT record ends it (at, rdlen) that dot_pad would pad
 * the same: its name in plain labels (no pointer), at most
 * WIRE_NAME_MAX bytes, and no padding option yet. */
static bool opts_plain(const uint8_t *pkt, size_t len, size_t at, size_t rdlen)
{
	const uint8_t *o = pkt + at + DOT_OPT_FIXED;
	size_t off = DOT_HDR, pos = 0;

	while (off < len && pkt[off] != 0) {
		if ((pkt[off] & 0xc0) != 0)
			return false;
		off += (size_t)pkt[off] + 1;
	}
	if (off + 1 - DOT_HDR > WIRE_NAME_MAX)
		return false;
	/* each option's code, as far as their lengths lead */
	for (; pos + DOT_OPTHDR <= rdlen;
	     pos += DOT_OPTHDR + get16(o, pos + 2))
		if (get16(o, pos) == WIRE_OPT_PADDING)
			return false;
	return true;
}

size_t dot_opts_add(uint8_t *pkt, size_t len, size_t cap)
{
	size_t at, rdlen, k, total;

	if (!opt_last(pkt, len, &at, &rdlen) ||
	    !opts_plain(pkt, len, at, rdlen))
		return dot_pad(pkt, dot_keepalive_add(pkt, len, cap), cap);
	if ((k = dot_keepalive_add(pkt, len, cap)) == len)
		return dot_pad(pkt, len, cap);
	/* the OPT record is known last: the padding goes after it */
	total = k + DOT_OPTHDR;
	return opt_append(pkt, k, cap, WIRE_OPT_PADDING,
	                  (DOT_PAD_BLOCK - total % DOT_PAD_BLOCK) %
	                          DOT_PAD_BLOCK);
}

/* The edns-tcp-keepalive option among an OPT record's options. */
static bool opt_keepalive(const uint8_t *p, size_t n, uint16_t *timeout)
{
	size_t pos = 0;
	uint16_t code, olen;

	while (wire_read_u16(p, n, &pos, &code) == WIRE_OK &&
	       wire_read_u16(p, n, &pos, &olen) == WIRE_OK &&
	       pos + olen <= n) {
		if (code == DOT_OPT_KEEPALIVE && olen == DOT_KEEPALIVE_LEN)
			return wire_read_u16(p, n, &pos, timeout) == WIRE_OK;
		pos += olen;
	}
	return false;
}

/* The RDATA (offset, length) of an answer's OPT record: its records
 * walked, names skipped, not read (on every answer, before the owner's
 * checks); false when there is none or a record runs past len. */
static bool answer_opt(const uint8_t *m, size_t len, size_t *rd, size_t *n)
{
	size_t off = DOT_HDR, i, qd, before, nrr;

	if (len < DOT_HDR)
		return false;
	qd = get16(m, 4);
	before = get16(m, 6) + get16(m, 8); /* answer and authority */
	nrr = before + get16(m, 10);
	for (i = 0; i < qd; i++) {
		off = skip_name(m, len, off);
		if (off == 0 || len - off < DOT_QTAIL)
			return false;
		off += DOT_QTAIL;
	}
	for (i = 0; i < nrr; i++) {
		off = skip_name(m, len, off);
		if (off == 0 || len - off < DOT_RR_FIXED ||
		    len - off - DOT_RR_FIXED < get16(m, off + 8))
			return false;
		/* the OPT record: additional section only */
		if (i >= before && get16(m, off) == WIRE_TYPE_OPT) {
			*rd = off + DOT_RR_FIXED;
			*n = get16(m, off + 8);
			return true;
		}
		off += DOT_RR_FIXED + get16(m, off + 8);
	}
	return false;
}

bool dot_keepalive_of(const uint8_t *msg, size_t len, uint16_t *timeout)
{
	size_t rd, n;

	if (msg == NULL || timeout == NULL || !answer_opt(msg, len, &rd, &n))
		return false;
	return opt_keepalive(msg + rd, n, timeout);
}

uint32_t dot_idle_of(const uint8_t *msg, size_t len, uint32_t idle_ms)
{
	uint16_t t;
	uint64_t ms;

	if (!dot_keepalive_of(msg, len, &t))
		return idle_ms;
	ms = (uint64_t)t * DOT_KEEPALIVE_UNIT_MS;
	ms -= ms / DOT_KEEPALIVE_EARLY;
	return ms < DOT_IDLE_MS ? (uint32_t)ms : DOT_IDLE_MS;
}

void dot_qname_text(const uint8_t *msg, size_t len, char *out, size_t cap)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t pos = DOT_HDR, nlen;

	if (wire_read_name(msg, len, &pos, name, &nlen, 0) != WIRE_OK ||
	    wire_name_to_text(name, nlen, out, cap, NULL) != WIRE_OK)
		snprintf(out, cap, "-");
}

/* ---- the configuration ---- */

bool dot_same_addr(const struct sockaddr *a, const struct sockaddr *b)
{
	size_t la, lb;
	const uint8_t *pa = netaddr_bytes(a, &la);
	const uint8_t *pb = netaddr_bytes(b, &lb);

	return pa != NULL && pb != NULL && la == lb &&
	       memcmp(pa, pb, la) == 0 && netaddr_port(a) == netaddr_port(b);
}

/* The TLS authentication of sa among a zone's servers, or NULL. */
static const struct cfg_tls *zone_auth(const struct cfg_zone *z,
                                       const struct sockaddr *sa)
{
	size_t j;

	for (j = 0; j < z->naddr; j++)
		if (z->tls[j].name[0] != '\0' &&
		    dot_same_addr((const struct sockaddr *)&z->addr[j].sa, sa))
			return &z->tls[j];
	return NULL;
}

const struct cfg_tls *dot_auth_of(const struct cfg *cfg,
                                  const struct sockaddr *sa,
                                  const uint8_t *zone, size_t zonelen)
{
	const struct cfg_tls *any = NULL, *best = NULL, *a;
	size_t i, bestlen = 0;

	for (i = 0; cfg != NULL && i < cfg->n_forward; i++) {
		const struct cfg_zone *z = &cfg->forward[i];

		if ((a = zone_auth(z, sa)) == NULL)
			continue;
		if (any == NULL)
			any = a;
		/* the forward zone holding the zone cut asked */
		if (zone != NULL && z->namelen >= bestlen &&
		    cfg_zone_find(z, 1, zone, zonelen) == 0) {
			best = a;
			bestlen = z->namelen;
		}
	}
	/* an address that is a TLS forwarder anywhere never gets plain */
	return best != NULL ? best : any;
}

bool dot_cfg_tls(const struct cfg *cfg)
{
	size_t i, j;

	for (i = 0; cfg != NULL && i < cfg->n_forward; i++) {
		if (cfg->forward[i].tls_upstream)
			return true;
		for (j = 0; j < cfg->forward[i].naddr; j++)
			if (cfg->forward[i].tls[j].name[0] != '\0')
				return true;
	}
	return false;
}

/* A DoT status in words, for the log. */
const char *dot_strerror(int status)
{
	switch (status) {
	case DOT_OK: return "ok";
	case DOT_EINVAL: return "invalid argument";
	case DOT_ENOMEM: return "out of memory";
	case DOT_EFAILING: return "forwarder failing (back-off)";
	case DOT_EID: return "ID open on the connection";
	case DOT_EFULL: return "too many queries on the connection";
	case DOT_EFAIL: return "TLS connection failed";
	default: return "unknown DoT status";
	}
}
