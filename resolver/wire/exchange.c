/*
 * resolver/wire/exchange.c - build a query for one server (plain or boxed) and
 * check its reply: open the box, match ID and question, tell a lost 0x20
 * case and a plain reply to a boxed query apart from the rest.
 */
#include "exchange.h"

#include <sodium.h>
#include <string.h>

/** Why a boxed query was answered in plain DNS (curvecache-query says it
 *  so; a wrong key or a nonce not echoed is told as such). */
#define EXCHANGE_PLAIN_TEXT "the server answered in plain DNS, not DNSCurve"

static int reject(struct exchange_bufs *b, int status, int why)
{
	b->why = why;
	return status;
}

/* ------------------------------------------------------------------ */
/* Building                                                            */

/* The DNS query itself (plain, or the one inside a box) into out. */
static int build_dns(const struct exchange_ask *a, struct exchange_sent *s,
                     struct exchange_bufs *b, uint8_t *out, size_t cap,
                     size_t *outlen)
{
	struct wire_query wq;
	int rc;

	memset(&wq, 0, sizeof wq);
	s->id = curve_random16();
	wq.id = s->id;
	wq.flags = a->flags;
	wq.qtype = a->qtype;
	wq.qclass = a->qclass;
	wq.edns_payload = a->edns;
	wq.edns_do = a->edns != 0 && a->edns_do;
	s->edns = a->edns != 0;
	rc = wire_query_build(out, cap, outlen, s->mixed ? s->qname : a->qname,
	                      a->qnamelen, &wq);
	return rc == WIRE_OK ? EXCHANGE_OK : reject(b, EXCHANGE_EBUILD, rc);
}

static int build_plain(const struct exchange_ask *a, struct exchange_bufs *b,
                       struct exchange_sent *s)
{
	uint8_t rnd[WIRE_0X20_RANDOM_BYTES];

	if (a->mix_case) {
		memcpy(s->qname, a->qname, a->qnamelen);
		curve_random(rnd, sizeof rnd);
		wire_name_0x20(s->qname, a->qnamelen, rnd);
		s->mixed = true;
	}
	return build_dns(a, s, b, b->out, b->out_cap, &s->pktlen);
}

/* Box the inner query (ilen bytes of b->scratch) into b->out. */
static int box(const struct exchange_ask *a, struct exchange_bufs *b,
               struct exchange_sent *s, size_t ilen)
{
	if (a->mode == EXCHANGE_STREAMLINED)
		return curve_streamlined_box(a->client, a->server_key,
		                             s->nonce, b->scratch, ilen,
		                             b->out, b->out_cap, &s->pktlen);
	if (a->zone == NULL)
		return CURVE_EINVAL;
	return curve_txt_query_build(a->client, a->server_key, s->nonce,
	                             curve_random16(), a->zone, b->scratch,
	                             ilen, b->out, b->out_cap, &s->pktlen);
}

static int build_boxed(const struct exchange_ask *a, struct exchange_bufs *b,
                       struct exchange_sent *s)
{
	size_t ilen = 0;
	int rc;

	if (a->client == NULL || a->server_key == NULL || a->nonce == NULL)
		return reject(b, EXCHANGE_ESEAL, CURVE_EINVAL);
	memcpy(s->nonce, a->nonce, sizeof s->nonce);
	rc = build_dns(a, s, b, b->scratch, b->scratch_cap, &ilen);
	if (rc == EXCHANGE_OK) {
		rc = box(a, b, s, ilen);
		rc = rc == CURVE_OK ? EXCHANGE_OK :
		                      reject(b, EXCHANGE_ESEAL, rc);
	}
	sodium_memzero(b->scratch, ilen);
	return rc;
}

int exchange_build(const struct exchange_ask *a, struct exchange_bufs *b,
                   struct exchange_sent *s)
{
	memset(s, 0, sizeof(*s));
	s->mode = a->mode;
	b->why = 0;
	if (a->qnamelen < 1 || a->qnamelen > WIRE_NAME_MAX)
		return reject(b, EXCHANGE_EBUILD, WIRE_ENAME);
	if (a->mode == EXCHANGE_PLAIN)
		return build_plain(a, b, s);
	return build_boxed(a, b, s);
}

/* ------------------------------------------------------------------ */
/* Checking                                                            */

/* Match a DNS message (plain, or opened) against the query sent. */
static int match(const struct exchange_ask *a, const struct exchange_sent *s,
                 struct exchange_bufs *b, const uint8_t *buf, size_t len,
                 unsigned flags, struct wire_msg *msg)
{
	bool formerr;
	int rc;

	rc = wire_msg_parse(msg, buf, len, b->rr, b->rr_cap);
	if (rc != WIRE_OK)
		return reject(b, EXCHANGE_EGARBAGE, rc);
	formerr = s->edns && WIRE_RCODE(msg->hdr.flags) == WIRE_RCODE_FORMERR;
	rc = wire_msg_match(msg, s->id, s->mixed ? s->qname : a->qname,
	                    a->qnamelen, a->qtype, a->qclass, flags);
	if (rc == WIRE_OK)
		return formerr ? EXCHANGE_FORMERR : EXCHANGE_OK;
	/* Old servers answer FORMERR to EDNS without echoing the question
	 * (the match failed on the question alone: QR and ID are right). */
	if (formerr && rc == WIRE_EQUESTION && !msg->has_question)
		return EXCHANGE_FORMERR;
	if (rc == WIRE_ECASE)
		return reject(b, formerr ? EXCHANGE_EQUESTION : EXCHANGE_ECASE,
		              rc);
	return reject(b,
	              rc == WIRE_ENOTRESP ? EXCHANGE_ENOTRESP :
	              rc == WIRE_EID      ? EXCHANGE_EID :
	                                    EXCHANGE_EQUESTION,
	              rc);
}

/* The question of a matched answer is our 0x20 name, uncompressed at the
 * header's end: put the caller's name back. */
static void undo_0x20(const struct exchange_ask *a, uint8_t *pkt, size_t len,
                      struct wire_msg *msg)
{
	if (len < WIRE_HEADER_BYTES + a->qnamelen ||
	    !wire_name_equal(pkt + WIRE_HEADER_BYTES, a->qnamelen, a->qname,
	                     a->qnamelen))
		return;
	memcpy(pkt + WIRE_HEADER_BYTES, a->qname, a->qnamelen);
	memcpy(msg->q.name, a->qname, a->qnamelen);
}

static int check_plain(const struct exchange_ask *a,
                       const struct exchange_sent *s, struct exchange_bufs *b,
                       uint8_t *pkt, size_t len, struct wire_msg *msg)
{
	int v = match(a, s, b, pkt, len, a->strict_case ? WIRE_MATCH_CASE : 0u,
	              msg);

	if (v == EXCHANGE_OK && s->mixed)
		undo_0x20(a, pkt, len, msg);
	return v;
}

static int open_box(const struct exchange_ask *a,
                    const struct exchange_sent *s, struct exchange_bufs *b,
                    const uint8_t *pkt, size_t len, size_t *ilen)
{
	if (a->client == NULL || a->server_key == NULL)
		return CURVE_EINVAL;
	if (s->mode == EXCHANGE_STREAMLINED)
		return curve_streamlined_open(a->client, a->server_key,
		                              s->nonce, pkt, len, b->scratch,
		                              b->scratch_cap, ilen);
	if (b->sent == NULL)
		return CURVE_EINVAL;
	return curve_txt_response_open(a->client, a->server_key, s->nonce,
	                               b->sent, s->pktlen, pkt, len,
	                               b->scratch, b->scratch_cap, ilen);
}

/* Whether a packet that did not open (rc) is a plain DNS response: a DNS
 * message with QR set, not one that is DNSCurve-shaped but failed the
 * key, the nonce or the outer ID or question (TXT format). */
static bool plain_reply(struct exchange_bufs *b, const uint8_t *pkt,
                        size_t len, int rc, struct wire_msg *msg)
{
	if (rc == CURVE_EAUTH || rc == CURVE_ENONCE || rc == CURVE_EID ||
	    rc == CURVE_EQUESTION || rc == CURVE_EINVAL)
		return false;
	if (wire_msg_parse(msg, pkt, len, b->rr, b->rr_cap) != WIRE_OK)
		return false;
	return (msg->hdr.flags & WIRE_FLAG_QR) != 0;
}

int exchange_check(const struct exchange_ask *a, const struct exchange_sent *s,
                   struct exchange_bufs *b, uint8_t *pkt, size_t len,
                   struct wire_msg *msg)
{
	size_t ilen = 0;
	int rc;

	b->why = 0;
	if (len > WIRE_MSG_MAX)
		return reject(b, EXCHANGE_EGARBAGE, WIRE_ESPACE);
	if (s->mode == EXCHANGE_PLAIN)
		return check_plain(a, s, b, pkt, len, msg);
	rc = open_box(a, s, b, pkt, len, &ilen);
	if (rc != CURVE_OK)
		return reject(b,
		              plain_reply(b, pkt, len, rc, msg) ?
		                      EXCHANGE_EPLAIN :
		                      EXCHANGE_EBOX,
		              rc);
	return match(a, s, b, b->scratch, ilen, 0, msg);
}

const char *exchange_strerror(int status, int why)
{
	switch (status) {
	case EXCHANGE_OK: return "ok";
	case EXCHANGE_FORMERR: return "FORMERR to an EDNS query";
	case EXCHANGE_ECASE: return "0x20 letter case not echoed";
	case EXCHANGE_EGARBAGE:
	case EXCHANGE_ENOTRESP:
	case EXCHANGE_EID:
	case EXCHANGE_EQUESTION:
	case EXCHANGE_EBUILD: return wire_strerror(why);
	case EXCHANGE_EBOX:
	case EXCHANGE_ESEAL: return curve_strerror(why);
	case EXCHANGE_EPLAIN: return EXCHANGE_PLAIN_TEXT;
	default: return "unknown exchange status";
	}
}
