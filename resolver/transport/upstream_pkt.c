/*
 * resolver/transport/upstream_pkt.c - upstream packets on the transport's
 * buffers: build (plain with a random ID and 0x20, or boxed with DNSCurve) and
 * check what comes back with exchange.c, the one query-exchange module
 * curvecache-query shares; the DNSCurve format each server took; and the
 * texts of the transport's logs.
 */
#include "upstream_int.h"

#include <netinet/in.h>
#include <string.h>

#include "conf/cfg.h"
#include "base/log.h"
#include "base/netaddr.h"
#include "wire/rrtext.h"

_Static_assert(KEY_BYTES == CURVE_KEY_BYTES, "server key sizes");

const char *upstream_strerror(int status)
{
	switch (status) {
	case UPSTREAM_OK: return "ok";
	case UPSTREAM_ELIMIT: return "too many sockets open";
	case UPSTREAM_ESOCKET: return "socket error";
	case UPSTREAM_EBUILD: return "query could not be built";
	case UPSTREAM_EINVAL: return "invalid argument";
	case UPSTREAM_ENOMEM: return "out of memory";
	default: return "unknown status";
	}
}

/* Address text for logs. */
const char *upstream_addr_text(const struct sockaddr_storage *ss, char *buf,
                               size_t cap)
{
	buf[0] = '\0';
	if (ss->ss_family == AF_INET)
		uv_ip4_name((const struct sockaddr_in *)ss, buf, cap);
	else if (ss->ss_family == AF_INET6)
		uv_ip6_name((const struct sockaddr_in6 *)ss, buf, cap);
	return buf;
}

void upstream_log_send(const struct upstream_query *q,
                       const struct upstream_att *a)
{
	char addr[64], name[WIRE_NAME_TEXT_MAX], tbuf[RRTEXT_NAME_MAX];

	if (log_level() < CFG_LOG_DEBUG)
		return;
	if (wire_name_to_text(q->t.qname, q->t.qnamelen, name, sizeof name,
	                      NULL) != WIRE_OK)
		name[0] = '\0';
	log_debug("upstream_send",
	          "server=%s qname=%s type=%s "
	          "transport=%s format=%s token=%u",
	          upstream_addr_text(&q->t.addr, addr, sizeof addr), name,
	          rrtext_type_name(q->t.qtype, tbuf),
	          a->tls ? "tls" :
	          a->tcp ? "tcp" :
	                   "udp",
	          upstream_mode_name(a->s.mode), (unsigned)q->t.token);
}

const char *upstream_mode_name(enum exchange_mode mode)
{
	switch (mode) {
	case EXCHANGE_PLAIN: return "plain";
	case EXCHANGE_STREAMLINED: return "streamlined";
	case EXCHANGE_TXT: return "txt";
	default: return "?";
	}
}

uint16_t upstream_curve_edns(uint16_t edns)
{
	unsigned v;

	if (edns == 0)
		return 0;
	v = edns > UPSTREAM_CURVE_RESPONSE_OVERHEAD ?
	            edns - UPSTREAM_CURVE_RESPONSE_OVERHEAD :
	            0;
	if (v > CURVE_MAX_INNER_EDNS)
		v = CURVE_MAX_INNER_EDNS;
	if (v < WIRE_UDP_PLAIN_MAX)
		v = WIRE_UDP_PLAIN_MAX;
	return (uint16_t)v;
}

/* ------------------------------------------------------------------ */
/* Building and checking: exchange.c, on the buffers of struct upstream */

/* The zone as dotted text for the TXT format; names whose labels hold
 * dots or odd bytes (escaped in text) cannot be sent that way. */
static int zone_text(const struct iter_target *t, char *out, size_t cap)
{
	if (wire_name_to_text(t->zone, t->zonelen, out, cap, NULL) !=
	            WIRE_OK ||
	    strchr(out, '\\') != NULL)
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

/* The question of a target, as the exchange module takes it. */
static void ask_of(const struct upstream *u, const struct iter_target *t,
                   enum exchange_mode mode, struct exchange_ask *a)
{
	memset(a, 0, sizeof(*a));
	a->mode = mode;
	a->qname = t->qname;
	a->qnamelen = t->qnamelen;
	a->qtype = t->qtype;
	a->qclass = t->qclass;
	a->flags = t->rd ? WIRE_FLAG_RD : 0; /* forwarders only */
	a->strict_case = true;
	a->client = u->curve;
	a->server_key = t->key;
}

int upstream_pkt_build(struct upstream *u, const struct iter_target *t,
                       enum exchange_mode mode, bool mix_case,
                       struct exchange_sent *s)
{
	struct exchange_bufs b = { u->sbuf,  sizeof u->sbuf,
		                   u->plain, sizeof u->plain,
		                   NULL,     NULL,
		                   0,        0 };
	uint8_t nonce[CURVE_NONCE_BYTES];
	char zone[WIRE_NAME_TEXT_MAX];
	struct exchange_ask a;

	ask_of(u, t, mode, &a);
	a.mix_case = mix_case;
	a.edns = t->edns;
	a.edns_do = t->edns_do;
	if (mode != EXCHANGE_PLAIN) {
		if (u->curve == NULL || nonce_next(u, nonce) != CURVE_OK ||
		    (mode == EXCHANGE_TXT &&
		     zone_text(t, zone, sizeof zone) != UPSTREAM_OK))
			return UPSTREAM_EBUILD;
		a.edns = upstream_curve_edns(t->edns);
		a.nonce = nonce;
		a.zone = zone;
	}
	return exchange_build(&a, &b, s) == EXCHANGE_OK ? UPSTREAM_OK :
	                                                  UPSTREAM_EBUILD;
}

enum upstream_verdict upstream_pkt_check(struct upstream *u,
                                         const struct iter_target *t,
                                         const struct upstream_att *a,
                                         uint8_t *pkt, size_t len,
                                         struct wire_msg *msg)
{
	struct exchange_bufs b = { NULL,   0,     u->inner,    sizeof u->inner,
		                   a->pkt, u->rr, WIRE_RR_MAX, 0 };
	struct exchange_ask q;
	bool boxed = a->s.mode != EXCHANGE_PLAIN;

	if (boxed && u->curve == NULL)
		return UPSTREAM_V_BADCURVE;
	ask_of(u, t, a->s.mode, &q);
	switch (exchange_check(&q, &a->s, &b, pkt, len, msg)) {
	case EXCHANGE_OK: return UPSTREAM_V_ANSWER;
	case EXCHANGE_FORMERR: return UPSTREAM_V_FORMERR;
	/* Right but for the letter case: some servers and middle boxes
	 * lowercase the question (Knot Resolver then asks again without
	 * 0x20; so do we, never using this reply). */
	case EXCHANGE_ECASE: return UPSTREAM_V_CASE;
	default: return boxed ? UPSTREAM_V_BADCURVE : UPSTREAM_V_IGNORE;
	}
}

/* ------------------------------------------------------------------ */
/* Which format each DNSCurve server takes                             */

static enum exchange_mode cfg_mode(enum cfg_curve_format f)
{
	return f == CFG_CURVE_TXT ? EXCHANGE_TXT : EXCHANGE_STREAMLINED;
}

/* The slot of a server (address and key) and its identity bytes. */
static struct upstream_fmt *fmt_slot(struct upstream *u,
                                     const struct iter_target *t,
                                     struct upstream_fmt *id)
{
	uint8_t h[crypto_shorthash_BYTES];
	uint8_t in[1 + sizeof id->addr + sizeof id->key];
	const uint8_t *a;
	size_t alen;
	uint64_t v;

	memset(id, 0, sizeof(*id));
	id->family = (uint8_t)t->addr.ss_family;
	a = netaddr_bytes((const struct sockaddr *)&t->addr, &alen);
	if (a != NULL)
		memcpy(id->addr, a, alen);
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

enum exchange_mode upstream_fmt_first(struct upstream *u,
                                      const struct iter_target *t,
                                      enum exchange_mode *second_mode,
                                      bool *second)
{
	const struct cfg *c = u->cfg;
	enum exchange_mode o0, o1, first;
	struct upstream_fmt id, *slot = fmt_slot(u, t, &id);

	o0 = cfg_mode(c->n_curve_order > 0 ? c->curve_order[0] :
	                                     CFG_CURVE_STREAMLINED);
	o1 = c->n_curve_order > 1 ? cfg_mode(c->curve_order[1]) : o0;
	first = o0;
	if (fmt_same(slot, &id) && (slot->mode == o0 || slot->mode == o1))
		first = (enum exchange_mode)slot->mode;
	*second = c->n_curve_order > 1 && o1 != o0;
	*second_mode = first == o0 ? o1 : o0;
	return first;
}

void upstream_fmt_set(struct upstream *u, const struct iter_target *t,
                      enum exchange_mode mode)
{
	struct upstream_fmt id, *slot = fmt_slot(u, t, &id);

	*slot = id;
	slot->used = true;
	slot->mode = (uint8_t)mode;
}

size_t upstream_fmt_forget(struct upstream *u, const struct sockaddr *sa)
{
	struct iter_target t;
	struct upstream_fmt id;
	size_t i, n = 0;

	memset(&t, 0, sizeof t);
	if (sa != NULL)
		memcpy(&t.addr, sa,
		       sa->sa_family == AF_INET6 ?
		               sizeof(struct sockaddr_in6) :
		               sizeof(struct sockaddr_in));
	(void)fmt_slot(u, &t, &id); /* id: the family and address bytes */
	for (i = 0; i < UPSTREAM_FORMAT_SLOTS; i++) {
		struct upstream_fmt *f = &u->fmt[i];

		if (!f->used || (sa != NULL && (f->family != id.family ||
		                                memcmp(f->addr, id.addr,
		                                       sizeof f->addr) != 0)))
			continue;
		memset(f, 0, sizeof(*f));
		n++;
	}
	return n;
}
