/*
 * tests/unit/check_iter_net.c - the fake network of the iterator tests
 * (see iter_net.h).
 */
#include <arpa/inet.h>
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "iter_net.h"
#include "anchor/anchor.h"

/** Events (replies and timeouts) pending at once. */
#define NET_EVENTS_MAX 512
/** Driver iterations per resolution (a hang is a failure). */
#define NET_LOOP_MAX 2000
/** The iterator's deadline when the config gives none (iter.c). */
#define NET_DEADLINE_DEFAULT_MS 5000u
/** Records parsed per reply. */
#define NET_RR_MAX 128
/** Test cache size. */
#define NET_CACHE_BYTES (4u * 1024 * 1024)

struct net N;

struct net_event {
	bool used;
	uint64_t at_ms;
	uint64_t seq;
	uint32_t token;
	enum iter_reply_kind kind;
	bool hedge;
	bool tcp;
	bool curve;
	uint32_t rtt_ms;
	uint8_t msg[NET_MSG_MAX];
	size_t len;
};

static struct net_event ev[NET_EVENTS_MAX];
static uint64_t ev_seq;

static const char hints_text[] = ". 3600000 NS a.root.test.\n"
				 ". 3600000 NS b.root.test.\n"
				 "a.root.test. 3600000 A 198.51.100.1\n"
				 "b.root.test. 3600000 A 198.51.100.2\n";

/* One RRset of text RDATA ("a.root.test." or "198.51.100.1") into the
 * cache, as the iterator would have cached it. */
static void net_seed(const char *owner, uint16_t type, const char *rdata,
                     const char *rdata2, enum cache_rank rank)
{
	uint8_t name[WIRE_NAME_MAX], rd[2][WIRE_NAME_MAX];
	struct cache_rdata set_rd[2];
	const char *text[2] = { rdata, rdata2 };
	size_t n;

	for (n = 0; n < 2 && text[n] != NULL; n++) {
		if (type == WIRE_TYPE_A) {
			ck_assert_int_eq(inet_pton(AF_INET, text[n], rd[n]),
			                 1);
			set_rd[n].len = 4;
		} else {
			set_rd[n].len = net_wire(text[n], rd[n]);
		}
		set_rd[n].data = rd[n];
	}
	{
		struct cache_rrset set = { name,    net_wire(owner, name),
			                   type,    WIRE_CLASS_IN,
			                   3600000, set_rd,
			                   n,       rank,
			                   NULL,    CACHE_SEC_UNCHECKED,
			                   NULL,    0 };

		ck_assert_int_eq(cache_rrset_put(N.cache, &set, N.now.wall),
		                 CACHE_OK);
	}
}

void net_primed(void)
{
	net_seed(".", WIRE_TYPE_NS, "a.root.test.", "b.root.test.",
	         CACHE_RANK_AUTH);
	net_seed("a.root.test.", WIRE_TYPE_A, "198.51.100.1", NULL,
	         CACHE_RANK_GLUE);
	net_seed("b.root.test.", WIRE_TYPE_A, "198.51.100.2", NULL,
	         CACHE_RANK_GLUE);
}

/* The iterator's random values: N.rnd (fixed; tests set it). */
static uint32_t net_random(void)
{
	return N.rnd;
}

void net_setup(void)
{
	struct cache_config cc;
	char err[HINTS_ERR_BYTES];

	memset(&N, 0, sizeof(N));
	memset(ev, 0, sizeof(ev));
	cfg_defaults(&N.cfg);
	N.cfg.qname_minimisation = false;
	N.cfg.do_ip6 = false;
	cache_config_init(&cc);
	cc.max_bytes = NET_CACHE_BYTES;
	ck_assert_int_eq(cache_create(&cc, &N.cache), CACHE_OK);
	ck_assert_int_eq(sel_new(256, &N.sel), SEL_OK);
	ck_assert_int_eq(hints_parse("test.hints", hints_text,
	                             strlen(hints_text), &N.hints, err,
	                             sizeof err),
	                 HINTS_OK);
	N.env.cache = N.cache;
	N.env.sel = N.sel;
	N.env.hints = N.hints;
	N.env.cfg = &N.cfg;
	N.env.random = net_random;
	N.rnd = 0;
	N.now.wall = 1000000;
	N.now.mono_ms = 5000000;
	/* The root NS set as priming (RFC 8109) leaves it; tests of the
	 * hints themselves flush it. */
	net_primed();
}

void net_teardown(void)
{
	size_t i;

	iter_free(N.req);
	cache_destroy(N.cache);
	sel_free(N.sel);
	hints_free(N.hints);
	free(N.fakes);
	for (i = 0; i < N.npool; i++)
		free(N.pool[i]);
	free(N.pool);
	memset(&N, 0, sizeof(N));
}

void net_add(const struct fake *f)
{
	if (N.nfakes == N.capfakes) {
		N.capfakes = N.capfakes ? 2 * N.capfakes : 32;
		N.fakes = realloc(N.fakes, N.capfakes * sizeof(*N.fakes));
		ck_assert_ptr_nonnull(N.fakes);
	}
	N.fakes[N.nfakes++] = *f;
}

const char *net_str(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&s, fmt, ap), 0);
	va_end(ap);
	N.pool = realloc(N.pool, (N.npool + 1) * sizeof(*N.pool));
	ck_assert_ptr_nonnull(N.pool);
	N.pool[N.npool++] = s;
	return s;
}

size_t net_wire(const char *text, uint8_t out[WIRE_NAME_MAX])
{
	size_t len;

	ck_assert_int_eq(wire_name_from_text(text, strlen(text), out, &len),
	                 WIRE_OK);
	return len;
}

/* Does the text name match a pattern ("a.b.", "*.b.", "*")? */
static bool net_name_match(const char *pat, const char *name)
{
	size_t pl, nl;

	if (strcmp(pat, "*") == 0)
		return true;
	if (strncmp(pat, "*.", 2) != 0)
		return strcasecmp(pat, name) == 0;
	pat += 2;
	pl = strlen(pat);
	nl = strlen(name);
	if (nl == pl)
		return strcasecmp(pat, name) == 0;
	return nl > pl && name[nl - pl - 1] == '.' &&
	       strcasecmp(name + nl - pl, pat) == 0;
}

static const struct fake *net_find(const char *server, const char *qname,
                                   uint16_t qtype)
{
	size_t i;

	for (i = 0; i < N.nfakes; i++) {
		const struct fake *f = &N.fakes[i];

		if ((strcmp(f->server, "*") == 0 ||
		     strcmp(f->server, server) == 0) &&
		    (f->qtype == 0 || f->qtype == qtype) &&
		    net_name_match(f->qname, qname))
			return f;
	}
	return NULL;
}

static uint16_t net_type(const char *t)
{
	static const struct {
		const char *n;
		uint16_t v;
	} types[] = {
		{ "A", WIRE_TYPE_A },          { "NS", WIRE_TYPE_NS },
		{ "CNAME", WIRE_TYPE_CNAME },  { "SOA", WIRE_TYPE_SOA },
		{ "PTR", WIRE_TYPE_PTR },      { "MX", WIRE_TYPE_MX },
		{ "TXT", WIRE_TYPE_TXT },      { "AAAA", WIRE_TYPE_AAAA },
		{ "DNAME", WIRE_TYPE_DNAME },  { "RRSIG", WIRE_TYPE_RRSIG },
		{ "DNSKEY", WIRE_TYPE_DNSKEY }
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (strcmp(types[i].n, t) == 0)
			return types[i].v;
	ck_abort_msg("unknown type %s", t);
	return 0;
}

static void net_put_name(struct wire_writer *w, const char *text)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len = net_wire(text, n);

	ck_assert_int_eq(wire_write_name(w, n, len, 1), WIRE_OK);
}

/* RFC 3597 generic RDATA "\\# LEN HEX" (any length, for malformed
 * records). */
static void net_put_generic(struct wire_writer *w, char **tok, size_t ntok)
{
	size_t n, i;

	ck_assert_uint_eq(ntok, 3);
	n = strtoul(tok[1], NULL, 10);
	ck_assert_uint_eq(strlen(tok[2]), 2 * n);
	for (i = 0; i < n; i++) {
		char hex[3] = { tok[2][2 * i], tok[2][2 * i + 1], 0 };

		ck_assert_int_eq(wire_write_u8(w, (uint8_t)strtoul(hex, NULL,
		                                                   16)),
		                 WIRE_OK);
	}
}

/* RDATA of one record from its text fields. */
static void net_put_rdata(struct wire_writer *w, uint16_t type, char **tok,
                          size_t ntok)
{
	uint8_t ip[16];

	if (strcmp(tok[0], "\\#") == 0) {
		net_put_generic(w, tok, ntok);
		return;
	}
	switch (type) {
	case WIRE_TYPE_A:
	case WIRE_TYPE_AAAA:
		ck_assert_int_eq(inet_pton(type == WIRE_TYPE_A ? AF_INET :
		                                                 AF_INET6,
		                           tok[0], ip),
		                 1);
		ck_assert_int_eq(wire_write_bytes(w, ip,
		                                  type == WIRE_TYPE_A ? 4 :
		                                                        16),
		                 WIRE_OK);
		break;
	case WIRE_TYPE_SOA:
		ck_assert_uint_eq(ntok, 7);
		net_put_name(w, tok[0]);
		net_put_name(w, tok[1]);
		for (size_t i = 2; i < 7; i++)
			ck_assert_int_eq(wire_write_u32(w,
			                                (uint32_t)
			                                        strtoul(tok[i],
			                                                NULL,
			                                                10)),
			                 WIRE_OK);
		break;
	case WIRE_TYPE_MX:
		ck_assert_int_eq(wire_write_u16(w, (uint16_t)atoi(tok[0])),
		                 WIRE_OK);
		net_put_name(w, tok[1]);
		break;
	case WIRE_TYPE_TXT:
		ck_assert_int_eq(wire_write_u8(w, (uint8_t)strlen(tok[0])),
		                 WIRE_OK);
		ck_assert_int_eq(wire_write_bytes(w, (const uint8_t *)tok[0],
		                                  strlen(tok[0])),
		                 WIRE_OK);
		break;
	default: net_put_name(w, tok[0]); break;
	}
}

/* One record "OWNER TTL TYPE DATA..." into a section. */
static void net_put_rr(struct wire_writer *w, enum wire_section sec,
                       const char *text)
{
	char buf[1024], *tok[12], *save = NULL, *p;
	size_t ntok = 0, pos;
	uint8_t owner[WIRE_NAME_MAX];
	size_t olen;
	uint16_t type;

	snprintf(buf, sizeof buf, "%s", text);
	for (p = strtok_r(buf, " ", &save); p != NULL && ntok < 12;
	     p = strtok_r(NULL, " ", &save))
		tok[ntok++] = p;
	ck_assert_uint_ge(ntok, 4);
	olen = net_wire(tok[0], owner);
	type = net_type(tok[2]);
	ck_assert_int_eq(wire_write_rr_begin(w, sec, owner, olen, type,
	                                     WIRE_CLASS_IN,
	                                     (uint32_t)strtoul(tok[1], NULL,
	                                                       10),
	                                     &pos),
	                 WIRE_OK);
	net_put_rdata(w, type, tok + 3, ntok - 3);
	ck_assert_int_eq(wire_write_rr_end(w, pos), WIRE_OK);
}

static size_t net_build(const struct fake *f, const struct iter_target *t,
                        uint8_t *buf)
{
	struct wire_writer w;
	struct wire_header h = { 0, (uint16_t)(WIRE_FLAG_QR | f->flags),
		                 0, 0,
		                 0, 0 };
	size_t i;
	bool formerr = f->formerr_msg && t->edns != 0;

	if (formerr)
		h.flags = WIRE_FLAG_QR | WIRE_RCODE_FORMERR;

	wire_writer_init(&w, buf, NET_MSG_MAX);
	ck_assert_int_eq(wire_write_header(&w, &h), WIRE_OK);
	ck_assert_int_eq(wire_write_question(&w, t->qname, t->qnamelen,
	                                     t->qtype, t->qclass),
	                 WIRE_OK);
	if (formerr)
		return w.len;
	for (i = 0; i < FAKE_RR_MAX && f->an[i] != NULL; i++)
		net_put_rr(&w, WIRE_SECTION_ANSWER, f->an[i]);
	for (i = 0; i < FAKE_RR_MAX && f->ns[i] != NULL; i++)
		net_put_rr(&w, WIRE_SECTION_AUTHORITY, f->ns[i]);
	for (i = 0; i < FAKE_RR_MAX && f->ar[i] != NULL; i++)
		net_put_rr(&w, WIRE_SECTION_ADDITIONAL, f->ar[i]);
	return w.len;
}

size_t net_msg(const struct fake *f, const char *qname, uint16_t qtype,
               uint8_t *buf)
{
	struct iter_target t;

	memset(&t, 0, sizeof t);
	t.qnamelen = net_wire(qname, t.qname);
	t.qtype = qtype;
	t.qclass = WIRE_CLASS_IN;
	return net_build(f, &t, buf);
}

static struct net_event *net_event_new(uint64_t at, uint32_t token,
                                       enum iter_reply_kind kind)
{
	size_t i;

	for (i = 0; i < NET_EVENTS_MAX; i++) {
		if (ev[i].used)
			continue;
		memset(&ev[i], 0, sizeof(ev[i]));
		ev[i].used = true;
		ev[i].at_ms = at;
		ev[i].seq = ev_seq++;
		ev[i].token = token;
		ev[i].kind = kind;
		return &ev[i];
	}
	ck_abort_msg("too many pending events");
	return NULL;
}

static void net_log(const struct iter_target *t, const char *server)
{
	struct net_send *s;

	ck_assert_uint_lt(N.nsends, NET_SENDS_MAX);
	s = &N.sends[N.nsends++];
	snprintf(s->server, sizeof s->server, "%s", server);
	ck_assert_int_eq(wire_name_to_text(t->qname, t->qnamelen, s->qname,
	                                   sizeof s->qname, NULL),
	                 WIRE_OK);
	ck_assert_int_eq(wire_name_to_text(t->zone, t->zonelen, s->zone,
	                                   sizeof s->zone, NULL),
	                 WIRE_OK);
	s->qtype = t->qtype;
	s->curve = t->curve;
	s->dane = t->dane;
	s->dane_set = t->dane_set;
	s->dane_want = t->dane_want;
	memcpy(s->key, t->key, KEY_BYTES);
	s->edns = t->edns;
	s->timeout_ms = t->timeout_ms;
	s->hedge_ms = t->hedge_ms;
	s->tcp = t->tcp;
	s->at_ms = N.now.mono_ms - N.start_ms;
	s->token = t->token;
}

/* The network's answer to one send: events for replies and timeouts. */
static void net_send(const struct iter_target *t)
{
	char server[64], qname[WIRE_NAME_TEXT_MAX];
	const struct fake *f;
	uint64_t now = N.now.mono_ms;
	struct net_event *e;

	ck_assert_uint_gt(t->timeout_ms, 0);
	if (t->addr.ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const void *)&t->addr;

		ck_assert_uint_eq(t->addrlen, sizeof(*in6));
		ck_assert_uint_eq(ntohs(in6->sin6_port), 53);
		inet_ntop(AF_INET6, &in6->sin6_addr, server, sizeof server);
	} else {
		const struct sockaddr_in *in = (const void *)&t->addr;

		ck_assert(t->addr.ss_family == AF_INET);
		ck_assert_uint_eq(t->addrlen, sizeof(*in));
		ck_assert_uint_eq(ntohs(in->sin_port), 53);
		inet_ntop(AF_INET, &in->sin_addr, server, sizeof server);
	}
	net_log(t, server);
	ck_assert_int_eq(wire_name_to_text(t->qname, t->qnamelen, qname,
	                                   sizeof qname, NULL),
	                 WIRE_OK);
	f = net_find(server, qname, t->qtype);
	if (f != NULL && f->act == FAKE_UNREACH) {
		(void)net_event_new(now, t->token, ITER_REPLY_UNREACHABLE);
		return;
	}
	if (f != NULL && f->formerr_edns && t->edns != 0) {
		(void)net_event_new(now + 1, t->token,
		                    ITER_REPLY_FORMERR_EDNS);
		return;
	}
	/* Like the shell: a timeout unless the query was settled before
	 * (the iterator ignores it then: the token is gone). */
	(void)net_event_new(now + t->timeout_ms, t->token, ITER_REPLY_TIMEOUT);
	if (t->hedge_ms != 0) {
		ck_assert_uint_lt(t->hedge_ms, t->timeout_ms);
		e = net_event_new(now + t->hedge_ms, t->token,
		                  ITER_REPLY_TIMEOUT);
		e->hedge = true;
	}
	if (f == NULL || f->act == FAKE_SILENT || (f->udp_drop && !t->tcp))
		return;
	e = net_event_new(now + (f->delay_ms ? f->delay_ms : 1), t->token,
	                  ITER_REPLY_MSG);
	e->tcp = t->tcp;
	e->len = net_build(f, t, e->msg);
	e->curve = t->curve && !f->unboxed;
	e->rtt_ms = f->delay_ms ? f->delay_ms : 1;
}

static struct net_event *net_next_event(void)
{
	struct net_event *best = NULL;
	size_t i;

	for (i = 0; i < NET_EVENTS_MAX; i++)
		if (ev[i].used &&
		    (best == NULL || ev[i].at_ms < best->at_ms ||
		     (ev[i].at_ms == best->at_ms && ev[i].seq < best->seq)))
			best = &ev[i];
	return best;
}

static void net_deliver(struct net_event *e)
{
	struct wire_rr rr[NET_RR_MAX];
	struct wire_msg m;
	struct iter_reply r;

	if (e->at_ms > N.now.mono_ms)
		N.now.mono_ms = e->at_ms;
	memset(&r, 0, sizeof r);
	r.token = e->token;
	r.kind = e->kind;
	r.hedge = e->hedge;
	r.tcp = e->tcp;
	r.curve = e->curve;
	r.rtt_ms = e->rtt_ms;
	if (e->kind == ITER_REPLY_MSG) {
		ck_assert_int_eq(wire_msg_parse(&m, e->msg, e->len, rr,
		                                NET_RR_MAX),
		                 WIRE_OK);
		r.msg = &m;
	}
	e->used = false;
	iter_feed(N.req, &r, &N.now);
}

/* When the resolution's deadline (query-timeout) passes. */
static uint64_t net_deadline(void)
{
	return N.start_ms + (N.cfg.query_timeout_ms != 0 ?
	                             N.cfg.query_timeout_ms :
	                             NET_DEADLINE_DEFAULT_MS);
}

const struct answer *net_resolve(const char *name, uint16_t type)
{
	uint8_t wn[WIRE_NAME_MAX];
	size_t len = net_wire(name, wn), loops;
	struct iter_target t;

	iter_free(N.req);
	memset(ev, 0, sizeof(ev));
	N.nsends = 0;
	N.start_ms = N.now.mono_ms;
	N.req = iter_new(&N.env, wn, len, type, WIRE_CLASS_IN, &N.now);
	ck_assert_ptr_nonnull(N.req);
	for (loops = 0; loops < NET_LOOP_MAX; loops++) {
		enum iter_step st = iter_next(N.req, &N.now, &t);
		struct net_event *e;

		if (st == ITER_DONE)
			break;
		if (st == ITER_SEND) {
			net_send(&t);
			continue;
		}
		ck_assert_int_eq(st, ITER_WAIT);
		e = net_next_event();
		if (e == NULL && N.now.mono_ms < net_deadline()) {
			/* only late answers could come: the daemon's
			   deadline timer fires */
			N.now.mono_ms = net_deadline();
			continue;
		}
		ck_assert_msg(e != NULL, "ITER_WAIT with nothing outstanding");
		net_deliver(e);
	}
	ck_assert_uint_lt(loops, NET_LOOP_MAX);
	if (getenv("NET_TRACE") != NULL)
		for (loops = 0; loops < N.nsends; loops++)
			fprintf(stderr,
			        "send %zu: %s %s at %llu timeout %u "
			        "hedge %u tcp %d\n",
			        loops, N.sends[loops].server,
			        N.sends[loops].qname,
			        (unsigned long long)N.sends[loops].at_ms,
			        (unsigned)N.sends[loops].timeout_ms,
			        (unsigned)N.sends[loops].hedge_ms,
			        (int)N.sends[loops].tcp);
	N.res = iter_result(N.req);
	ck_assert_ptr_nonnull(N.res);
	return N.res;
}

size_t net_sends_to(const char *server)
{
	size_t i, n = 0;

	for (i = 0; i < N.nsends; i++)
		if (strcmp(N.sends[i].server, server) == 0)
			n++;
	return n;
}

/* Walk to the i-th RR of an image. */
static void net_rr_at(const uint8_t *img, size_t len, size_t i,
                      struct wire_rr *rr)
{
	size_t pos = 0, k;

	for (k = 0; k <= i; k++)
		ck_assert_int_eq(wire_read_rr(img, len, &pos, rr), WIRE_OK);
}

size_t net_count(const struct answer *r, uint16_t type)
{
	size_t pos = 0, n = 0, k;

	for (k = 0; k < r->an_count; k++) {
		struct wire_rr rr;

		ck_assert_int_eq(wire_read_rr(r->an, r->an_len, &pos, &rr),
		                 WIRE_OK);
		if (rr.type == type)
			n++;
	}
	ck_assert_uint_eq(pos, r->an_len);
	return n;
}

/* RDATA as text: an address or a name. */
static void net_rdata_text(const uint8_t *img, size_t len,
                           const struct wire_rr *rr, char *out, size_t cap)
{
	size_t pos = rr->rdata, nlen;
	uint8_t name[WIRE_NAME_MAX];

	if (rr->type == WIRE_TYPE_A && rr->rdlen == 4) {
		inet_ntop(AF_INET, img + rr->rdata, out, (socklen_t)cap);
		return;
	}
	if (rr->type == WIRE_TYPE_AAAA && rr->rdlen == 16) {
		inet_ntop(AF_INET6, img + rr->rdata, out, (socklen_t)cap);
		return;
	}
	if (wire_read_rdata_name(img, len, rr, &pos, name, &nlen, 0) ==
	            WIRE_OK &&
	    wire_name_to_text(name, nlen, out, cap, NULL) == WIRE_OK)
		return;
	snprintf(out, cap, "?");
}

void net_rr_text(const struct answer *r, size_t i, char *out, size_t cap)
{
	struct wire_rr rr;
	uint8_t owner[WIRE_NAME_MAX];
	char otext[WIRE_NAME_TEXT_MAX], rd[WIRE_NAME_TEXT_MAX];
	size_t pos, olen;

	net_rr_at(r->an, r->an_len, i, &rr);
	pos = rr.owner;
	ck_assert_int_eq(wire_read_name(r->an, r->an_len, &pos, owner, &olen,
	                                0),
	                 WIRE_OK);
	ck_assert_int_eq(wire_name_to_text(owner, olen, otext, sizeof otext,
	                                   NULL),
	                 WIRE_OK);
	net_rdata_text(r->an, r->an_len, &rr, rd, sizeof rd);
	snprintf(out, cap, "%s %u %s", otext, rr.type, rd);
}

uint32_t net_ttl(const uint8_t *img, size_t len, size_t i)
{
	struct wire_rr rr;

	net_rr_at(img, len, i, &rr);
	return rr.ttl;
}

void net_put_secure(const char *owner, uint16_t type, const uint8_t *rd,
                    size_t len, enum cache_rank rank)
{
	uint8_t z[WIRE_NAME_MAX];
	struct cache_rdata r = { rd, len };
	struct cache_rrset set = { z,    net_wire(owner, z),
		                   type, WIRE_CLASS_IN,
		                   3600, &r,
		                   1,    rank,
		                   NULL, CACHE_SEC_SECURE,
		                   NULL, 0 };

	ck_assert_int_eq(cache_rrset_put(N.cache, &set, N.now.wall), CACHE_OK);
}

void net_signed_zone(const char *zone)
{
	static const uint8_t dnskey[] = { 1, 1, 3, 15, 0xab, 0xcd };
	struct anchors *a;
	char err[ANCHOR_ERR_MAX];

	ck_assert_int_eq(anchors_new(&a), ANCHOR_OK);
	ck_assert_int_eq(anchors_add_text(a,
	                                  net_str("%s 3600 IN DS 1 15 2 %064d",
	                                          zone, 0),
	                                  err, sizeof err),
	                 ANCHOR_OK);
	N.env.anchors = a;
	net_put_secure(zone, WIRE_TYPE_DNSKEY, dnskey, sizeof dnskey,
	               CACHE_RANK_AUTH);
}

int net_cache(const char *name, uint16_t type, struct cache_answer *ans,
              char *rdata_text, size_t cap)
{
	static uint8_t img[16384];
	uint8_t wn[WIRE_NAME_MAX];
	struct cache_query q;
	int rc;

	q.name = wn;
	q.name_len = net_wire(name, wn);
	q.type = type;
	q.klass = WIRE_CLASS_IN;
	q.flags = 0;
	rc = cache_get(N.cache, &q, N.now.wall, ans, img, sizeof img);
	if (rc == CACHE_OK && rdata_text != NULL && ans->count > 0) {
		struct wire_rr rr;

		net_rr_at(img, ans->len, 0, &rr);
		net_rdata_text(img, ans->len, &rr, rdata_text, cap);
	}
	return rc;
}

void net_std(void)
{
	net_add(&(struct fake){ .server = "198.51.100.1",
	                        .qname = "*.example.",
	                        .ns = { "example. 172800 NS ns1.example." },
	                        .ar = { "ns1.example. 172800 A 192.0.2.1" } });
	net_add(&(struct fake){ .server = "198.51.100.1",
	                        .qname = "*.net.",
	                        .ns = { "net. 172800 NS ns1.net." },
	                        .ar = { "ns1.net. 172800 A 192.0.2.10" } });
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.zone.example.",
		.ns = { "zone.example. 86400 NS ns.zone.example." },
		.ar = { "ns.zone.example. 86400 A 192.0.2.2" } });
}
