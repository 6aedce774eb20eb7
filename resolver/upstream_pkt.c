/*
 * resolver/upstream_pkt.c - upstream packets: build (plain with a random
 * ID and 0x20, or boxed with DNSCurve), then check what comes back
 * (open the box, match ID and question) before anything is believed.
 */
#include "upstream_int.h"

#include <netinet/in.h>
#include <string.h>

#include "cfg.h"
#include "log.h"

_Static_assert(ITER_KEY_BYTES == CURVE_KEY_BYTES, "server key sizes");

const char *upstream_mode_name(enum upstream_mode mode)
{
	switch (mode) {
	case UPSTREAM_MODE_PLAIN: return "plain";
	case UPSTREAM_MODE_STREAMLINED: return "streamlined";
	case UPSTREAM_MODE_TXT: return "txt";
	default: return "?";
	}
}

uint16_t upstream_curve_edns(uint16_t edns)
{
	unsigned v;

	if (edns == 0)
		return 0;
	v = edns > UPSTREAM_CURVE_RESPONSE_OVERHEAD ?
		edns - UPSTREAM_CURVE_RESPONSE_OVERHEAD : 0;
	if (v > CURVE_MAX_INNER_EDNS)
		v = CURVE_MAX_INNER_EDNS;
	if (v < WIRE_UDP_PLAIN_MAX)
		v = WIRE_UDP_PLAIN_MAX;
	return (uint16_t)v;
}

/* ------------------------------------------------------------------ */
/* Building                                                            */

/* The DNS query itself (plain, or the one inside a box) into out. */
static int build_query(const struct iter_target *t, struct upstream_sent *s,
                       uint16_t edns, uint8_t *out, size_t cap,
                       size_t *outlen)
{
	struct wire_query wq;

	if (t->qnamelen < 1 || t->qnamelen > WIRE_NAME_MAX)
		return UPSTREAM_EBUILD;
	memset(&wq, 0, sizeof wq);
	s->id = curve_random16();
	wq.id = s->id;
	wq.qtype = t->qtype;
	wq.qclass = t->qclass;
	wq.edns_payload = edns;
	s->edns = edns != 0;
	if (wire_query_build(out, cap, outlen, s->qname, s->qnamelen, &wq) !=
	    WIRE_OK)
		return UPSTREAM_EBUILD;
	return UPSTREAM_OK;
}

static int build_plain(struct upstream *u, const struct iter_target *t,
                       bool mix_case, struct upstream_sent *s)
{
	uint8_t rnd[WIRE_0X20_RANDOM_BYTES];

	memcpy(s->qname, t->qname, t->qnamelen);
	s->qnamelen = t->qnamelen;
	if (mix_case) {
		curve_random(rnd, sizeof rnd);
		wire_name_0x20(s->qname, s->qnamelen, rnd);
	}
	return build_query(t, s, t->edns, u->sbuf, sizeof u->sbuf,
	                   &s->pktlen);
}

/* The zone as dotted text for the TXT format; names whose labels hold
 * dots or odd bytes (escaped in text) cannot be sent that way. */
static int zone_text(const struct iter_target *t, char *out, size_t cap)
{
	if (wire_name_to_text(t->zone, t->zonelen, out, cap, NULL) !=
	    WIRE_OK || strchr(out, '\\') != NULL)
		return UPSTREAM_EBUILD;
	return UPSTREAM_OK;
}

/* A fresh client nonce; a failure (the nonce file of a loaded key cannot
 * be written, e.g. after the switch to cfg->user) is logged once. */
static int nonce_next(struct upstream *u, uint8_t nonce[CURVE_NONCE_BYTES])
{
	int rc = curve_nonce_next(u->curve, nonce);

	if (rc != CURVE_OK && !u->nonce_warned) {
		u->nonce_warned = true;
		log_error("curve_nonce_failed", "error=%s effect=%s",
		          curve_strerror(rc), "no DNSCurve queries");
	}
	return rc;
}

static int build_curve(struct upstream *u, const struct iter_target *t,
                       enum upstream_mode mode, struct upstream_sent *s)
{
	char zone[WIRE_NAME_TEXT_MAX];
	size_t ilen = 0;
	int rc;

	if (u->curve == NULL)
		return UPSTREAM_EBUILD;
	memcpy(s->qname, t->qname, t->qnamelen);
	s->qnamelen = t->qnamelen;
	rc = build_query(t, s, upstream_curve_edns(t->edns), u->plain,
	                 sizeof u->plain, &ilen);
	if (rc == UPSTREAM_OK && nonce_next(u, s->nonce) != CURVE_OK)
		rc = UPSTREAM_EBUILD;
	if (rc == UPSTREAM_OK && mode == UPSTREAM_MODE_STREAMLINED &&
	    curve_streamlined_box(u->curve, t->key, s->nonce, u->plain, ilen,
	                          u->sbuf, sizeof u->sbuf, &s->pktlen) !=
	    CURVE_OK)
		rc = UPSTREAM_EBUILD;
	if (rc == UPSTREAM_OK && mode == UPSTREAM_MODE_TXT &&
	    (zone_text(t, zone, sizeof zone) != UPSTREAM_OK ||
	     curve_txt_query_build(u->curve, t->key, s->nonce, curve_random16(), zone,
	                           u->plain, ilen, u->sbuf, sizeof u->sbuf,
	                           &s->pktlen) != CURVE_OK))
		rc = UPSTREAM_EBUILD;
	sodium_memzero(u->plain, ilen);
	return rc;
}

int upstream_pkt_build(struct upstream *u, const struct iter_target *t,
                       enum upstream_mode mode, bool mix_case,
                       struct upstream_sent *s)
{
	memset(s, 0, sizeof(*s));
	s->mode = mode;
	if (mode == UPSTREAM_MODE_PLAIN)
		return build_plain(u, t, mix_case, s);
	return build_curve(u, t, mode, s);
}

/* ------------------------------------------------------------------ */
/* Checking                                                            */

/* Match a DNS answer against the query it should answer. */
static enum upstream_verdict check_msg(struct upstream *u,
                                       const struct iter_target *t,
                                       const struct upstream_sent *s,
                                       const uint8_t *buf, size_t len,
                                       unsigned flags, struct wire_msg *msg)
{
	bool formerr;

	if (wire_msg_parse(msg, buf, len, u->rr, WIRE_RR_MAX) != WIRE_OK)
		return UPSTREAM_V_IGNORE;
	formerr = WIRE_RCODE(msg->hdr.flags) == WIRE_RCODE_FORMERR;
	if (wire_msg_match(msg, s->id, s->qname, s->qnamelen, t->qtype,
	                   t->qclass, flags) == WIRE_OK)
		return formerr && s->edns ? UPSTREAM_V_FORMERR :
		       UPSTREAM_V_ANSWER;
	/* Old servers answer FORMERR to EDNS without echoing the question. */
	if (formerr && s->edns && !msg->has_question &&
	    (msg->hdr.flags & WIRE_FLAG_QR) && msg->hdr.id == s->id)
		return UPSTREAM_V_FORMERR;
	return UPSTREAM_V_IGNORE;
}

/* The question of a matched answer is exactly our name (0x20 case) and
 * uncompressed at the header's end: put the lowercase name back. */
static void undo_0x20(const struct iter_target *t, uint8_t *pkt, size_t len,
                      struct wire_msg *msg)
{
	if (len < WIRE_HEADER_BYTES + t->qnamelen ||
	    !wire_name_equal(pkt + WIRE_HEADER_BYTES, t->qnamelen, t->qname,
	                     t->qnamelen))
		return;
	memcpy(pkt + WIRE_HEADER_BYTES, t->qname, t->qnamelen);
	memcpy(msg->q.name, t->qname, t->qnamelen);
}

enum upstream_verdict upstream_pkt_check(struct upstream *u,
                                         const struct iter_target *t,
                                         const struct upstream_att *a,
                                         uint8_t *pkt, size_t len,
                                         struct wire_msg *msg)
{
	enum upstream_verdict v;
	size_t ilen = 0;
	int rc;

	if (a->s.mode == UPSTREAM_MODE_PLAIN) {
		v = check_msg(u, t, &a->s, pkt, len, WIRE_MATCH_CASE, msg);
		if (v == UPSTREAM_V_ANSWER)
			undo_0x20(t, pkt, len, msg);
		/* Right but for the letter case: some servers and middle
		 * boxes lowercase the question (Knot Resolver then asks
		 * again without 0x20; so do we, never using this reply). */
		if (v == UPSTREAM_V_IGNORE &&
		    check_msg(u, t, &a->s, pkt, len, 0, msg) ==
		    UPSTREAM_V_ANSWER)
			return UPSTREAM_V_CASE;
		return v;
	}
	if (u->curve == NULL)
		return UPSTREAM_V_BADCURVE;
	if (a->s.mode == UPSTREAM_MODE_STREAMLINED)
		rc = curve_streamlined_open(u->curve, t->key, a->s.nonce, pkt,
		                            len, u->inner, sizeof u->inner,
		                            &ilen);
	else
		rc = curve_txt_response_open(u->curve, t->key, a->s.nonce,
		                             a->pkt, a->s.pktlen, pkt, len,
		                             u->inner, sizeof u->inner, &ilen);
	if (rc != CURVE_OK)
		return UPSTREAM_V_BADCURVE;
	v = check_msg(u, t, &a->s, u->inner, ilen, 0, msg);
	return v == UPSTREAM_V_IGNORE ? UPSTREAM_V_BADCURVE : v;
}

/* ------------------------------------------------------------------ */
/* Which format each DNSCurve server takes                             */

static enum upstream_mode cfg_mode(enum cfg_curve_format f)
{
	return f == CFG_CURVE_TXT ? UPSTREAM_MODE_TXT :
	       UPSTREAM_MODE_STREAMLINED;
}

/* The slot of a server (address and key) and its identity bytes. */
static struct upstream_fmt *fmt_slot(struct upstream *u,
                                     const struct iter_target *t,
                                     struct upstream_fmt *id)
{
	uint8_t h[crypto_shorthash_BYTES];
	uint8_t in[1 + sizeof id->addr + sizeof id->key];
	uint64_t v;

	memset(id, 0, sizeof(*id));
	id->family = (uint8_t)t->addr.ss_family;
	if (t->addr.ss_family == AF_INET)
		memcpy(id->addr, &((const struct sockaddr_in *)&t->addr)
		       ->sin_addr, 4);
	else if (t->addr.ss_family == AF_INET6)
		memcpy(id->addr, &((const struct sockaddr_in6 *)&t->addr)
		       ->sin6_addr, 16);
	memcpy(id->key, t->key, sizeof id->key);
	in[0] = id->family;
	memcpy(in + 1, id->addr, sizeof id->addr);
	memcpy(in + 1 + sizeof id->addr, id->key, sizeof id->key);
	crypto_shorthash(h, in, sizeof in, u->fmt_key);
	memcpy(&v, h, sizeof v);
	return &u->fmt[v % UPSTREAM_FORMAT_SLOTS];
}

static bool fmt_same(const struct upstream_fmt *a,
                     const struct upstream_fmt *b)
{
	return a->used && a->family == b->family &&
	       memcmp(a->addr, b->addr, sizeof a->addr) == 0 &&
	       memcmp(a->key, b->key, sizeof a->key) == 0;
}

enum upstream_mode upstream_fmt_first(struct upstream *u,
                                      const struct iter_target *t,
                                      enum upstream_mode *second_mode,
                                      bool *second)
{
	const struct cfg *c = u->cfg;
	enum upstream_mode o0, o1, first;
	struct upstream_fmt id, *slot = fmt_slot(u, t, &id);

	o0 = cfg_mode(c->n_curve_order > 0 ? c->curve_order[0] :
	              CFG_CURVE_STREAMLINED);
	o1 = c->n_curve_order > 1 ? cfg_mode(c->curve_order[1]) : o0;
	first = o0;
	if (fmt_same(slot, &id) &&
	    (slot->mode == o0 || slot->mode == o1))
		first = (enum upstream_mode)slot->mode;
	*second = c->n_curve_order > 1 && o1 != o0;
	*second_mode = first == o0 ? o1 : o0;
	return first;
}

void upstream_fmt_set(struct upstream *u, const struct iter_target *t,
                      enum upstream_mode mode)
{
	struct upstream_fmt id, *slot = fmt_slot(u, t, &id);

	*slot = id;
	slot->used = true;
	slot->mode = (uint8_t)mode;
}
