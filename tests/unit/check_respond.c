/*
 * tests/unit/check_respond.c - Suite "respond": parsing client queries,
 * writing responses (flags, echo, EDNS, truncation), answers from the
 * cache.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "front/respond.h"
#include "wire/wire.h"

#define BUF 65536

static uint8_t pkt[BUF];
static uint8_t out[BUF];
static uint8_t img[BUF];
static struct wire_rr rrs[WIRE_RR_MAX];

/* A query: name in text, type, flags, EDNS payload (0 = none). */
static size_t mkquery(const char *name, uint16_t qtype, uint16_t flags,
                      uint16_t edns)
{
	struct wire_query q;
	size_t len;

	memset(&q, 0, sizeof q);
	q.id = 0xbeef;
	q.qtype = qtype;
	q.qclass = WIRE_CLASS_IN;
	q.flags = flags;
	q.edns_payload = edns;
	ck_assert_int_eq(wire_query_build_text(pkt, sizeof pkt, &len, name,
	                                       &q),
	                 WIRE_OK);
	return len;
}

static struct respond_query parse_ok(size_t len)
{
	struct respond_query q;

	ck_assert_int_eq(respond_query_parse(pkt, len, &q), RESPOND_OK);
	return q;
}

/* Append an image RR: owner (text), type, TTL, RDATA. */
static size_t img_rr(size_t at, const char *owner, uint16_t type, uint32_t ttl,
                     const uint8_t *rd, uint16_t rdlen)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t nlen;

	ck_assert_int_eq(wire_name_from_text(owner, strlen(owner), name,
	                                     &nlen),
	                 WIRE_OK);
	wire_name_lower(name, nlen);
	memcpy(img + at, name, nlen);
	at += nlen;
	img[at++] = (uint8_t)(type >> 8);
	img[at++] = (uint8_t)type;
	img[at++] = 0;
	img[at++] = WIRE_CLASS_IN;
	img[at++] = (uint8_t)(ttl >> 24);
	img[at++] = (uint8_t)(ttl >> 16);
	img[at++] = (uint8_t)(ttl >> 8);
	img[at++] = (uint8_t)ttl;
	img[at++] = (uint8_t)(rdlen >> 8);
	img[at++] = (uint8_t)rdlen;
	memcpy(img + at, rd, rdlen);
	return at + rdlen;
}

static struct wire_msg parse_resp(size_t len)
{
	struct wire_msg m;

	ck_assert_int_eq(wire_msg_parse(&m, out, len, rrs, WIRE_RR_MAX),
	                 WIRE_OK);
	return m;
}

START_TEST(test_parse_ok)
{
	size_t len = mkquery("WwW.ExAmple.", WIRE_TYPE_AAAA, WIRE_FLAG_RD,
	                     4096);
	struct respond_query q = parse_ok(len);

	ck_assert_uint_eq(q.id, 0xbeef);
	ck_assert(q.has_question && q.edns && !q.edns_do);
	ck_assert_uint_eq(q.edns_size, 4096);
	ck_assert_uint_eq(q.qtype, WIRE_TYPE_AAAA);
	ck_assert_uint_eq(q.qnamelen, 13);
	ck_assert_mem_eq(q.qname, "\3WwW\7ExAmple", 12);
	ck_assert_mem_eq(q.lname, "\3www\7example", 12);
	ck_assert_uint_eq(respond_udp_limit(&q, 1232), 1232);
	ck_assert_uint_eq(respond_udp_limit(&q, 65535), RESPOND_UDP_MAX);
	len = mkquery("a.", WIRE_TYPE_A, 0, 0);
	q = parse_ok(len);
	ck_assert(!q.edns);
	ck_assert_uint_eq(respond_udp_limit(&q, 1232), 512);
}
END_TEST

START_TEST(test_parse_reject)
{
	struct respond_query q;
	size_t len;

	/* Shorter than a header, or a response: dropped. */
	ck_assert_int_eq(respond_query_parse(pkt, 11, &q), RESPOND_EDROP);
	len = mkquery("a.", WIRE_TYPE_A, WIRE_FLAG_QR, 0);
	ck_assert_int_eq(respond_query_parse(pkt, len, &q), RESPOND_EDROP);
	/* Opcode STATUS: NOTIMP, question still echoed. */
	len = mkquery("a.", WIRE_TYPE_A, 2u << 11, 0);
	ck_assert_int_eq(respond_query_parse(pkt, len, &q), RESPOND_ENOTIMP);
	ck_assert(q.has_question);
	/* No question. */
	len = mkquery("a.", WIRE_TYPE_A, 0, 0);
	pkt[5] = 0;
	ck_assert_int_eq(respond_query_parse(pkt, 12, &q), RESPOND_EFORMERR);
	ck_assert(!q.has_question);
	/* Two questions. */
	len = mkquery("a.", WIRE_TYPE_A, 0, 0);
	pkt[5] = 2;
	ck_assert_int_eq(respond_query_parse(pkt, len, &q), RESPOND_EFORMERR);
	/* A record in the answer section (the OPT moved there). */
	len = mkquery("a.", WIRE_TYPE_A, 0, 1232);
	pkt[7] = 1;
	pkt[11] = 0;
	ck_assert_int_eq(respond_query_parse(pkt, len, &q), RESPOND_EFORMERR);
	ck_assert(q.has_question);
	/* Truncated name. */
	len = mkquery("abc.def.", WIRE_TYPE_A, 0, 0);
	ck_assert_int_eq(respond_query_parse(pkt, 16, &q), RESPOND_EFORMERR);
	ck_assert(!q.has_question);
	/* EDNS version 1: BADVERS. */
	len = mkquery("a.", WIRE_TYPE_A, 0, 1232);
	pkt[len - 5] = 1; /* EDNS version */
	ck_assert_int_eq(respond_query_parse(pkt, len, &q), RESPOND_EBADVERS);
	ck_assert_uint_eq(q.edns_version, 1);
	/* Garbage. */
	memset(pkt, 0xff, 64);
	pkt[2] = 0;
	ck_assert_int_eq(respond_query_parse(pkt, 64, &q), RESPOND_EFORMERR);
}
END_TEST

START_TEST(test_error)
{
	struct respond_query q;
	struct wire_msg m;
	size_t len, olen;

	len = mkquery("Mixed.Case.", WIRE_TYPE_A, WIRE_FLAG_RD | WIRE_FLAG_AD,
	              1232);
	q = parse_ok(len);
	ck_assert_int_eq(respond_error(&q, WIRE_RCODE_REFUSED, out, sizeof out,
	                               &olen),
	                 RESPOND_OK);
	m = parse_resp(olen);
	ck_assert_uint_eq(m.hdr.id, 0xbeef);
	ck_assert_uint_eq(m.hdr.flags, WIRE_FLAG_QR | WIRE_FLAG_RD |
	                                       WIRE_FLAG_RA |
	                                       WIRE_RCODE_REFUSED);
	ck_assert(m.has_question);
	ck_assert_mem_eq(m.q.name, "\5Mixed\4Case", 11);
	ck_assert_uint_ne(m.opt, WIRE_NONE);
	/* BADVERS = 16: the upper bits go to the OPT record. */
	pkt[len - 5] = 1; /* EDNS version */
	ck_assert_int_eq(respond_query_parse(pkt, len, &q), RESPOND_EBADVERS);
	ck_assert_int_eq(respond_error(&q, 16, out, sizeof out, &olen),
	                 RESPOND_OK);
	m = parse_resp(olen);
	ck_assert_uint_eq(wire_msg_rcode(&m), 16);
	/* NOTIMP keeps the opcode. */
	len = mkquery("a.", WIRE_TYPE_A, 4u << 11, 0);
	ck_assert_int_eq(respond_query_parse(pkt, len, &q), RESPOND_ENOTIMP);
	ck_assert_int_eq(respond_error(&q, WIRE_RCODE_NOTIMP, out, sizeof out,
	                               &olen),
	                 RESPOND_OK);
	m = parse_resp(olen);
	ck_assert_uint_eq(WIRE_OPCODE(m.hdr.flags), 4);
	ck_assert_uint_eq(m.opt, WIRE_NONE);
	/* Too small a buffer. */
	ck_assert_int_eq(respond_error(&q, 1, out, 11, &olen), RESPOND_ESPACE);
}
END_TEST

START_TEST(test_build_positive)
{
	static const uint8_t a1[4] = { 192, 0, 2, 1 },
			     a2[4] = { 192, 0, 2, 2 };
	struct answer a;
	struct respond_query q;
	struct wire_msg m;
	size_t len, olen, il;
	bool tc;

	len = mkquery("WWW.example.", WIRE_TYPE_A,
	              WIRE_FLAG_RD | WIRE_FLAG_CD | WIRE_FLAG_AD, 0);
	q = parse_ok(len);
	il = img_rr(0, "www.example.", WIRE_TYPE_A, 300, a1, 4);
	il = img_rr(il, "www.example.", WIRE_TYPE_A, 299, a2, 4);
	memset(&a, 0, sizeof a);
	a.an = img;
	a.an_len = il;
	a.an_count = 2;
	ck_assert_int_eq(respond_build(&q, &a, 512, out, sizeof out, &olen,
	                               &tc),
	                 RESPOND_OK);
	ck_assert(!tc);
	m = parse_resp(olen);
	/* QR RD RA CD; never AA or AD. */
	ck_assert_uint_eq(m.hdr.flags, WIRE_FLAG_QR | WIRE_FLAG_RD |
	                                       WIRE_FLAG_RA | WIRE_FLAG_CD);
	ck_assert_uint_eq(m.an, 2);
	ck_assert_uint_eq(m.ns + m.ar, 0);
	ck_assert_uint_eq(m.rr[0].ttl, 300);
	ck_assert_uint_eq(m.rr[1].ttl, 299);
	ck_assert_mem_eq(out + m.rr[1].rdata, a2, 4);
	/* The owner is a pointer to the question (as the client spelt it). */
	ck_assert_uint_eq(out[m.rr[0].owner], 0xc0);
	ck_assert_uint_eq(out[m.rr[0].owner + 1], 12);
	ck_assert_mem_eq(m.q.name, "\3WWW", 4);
	/* Another owner first, then the question's: every record counts
	 * (written by the two paths, one after the other). */
	il = img_rr(0, "other.example.", WIRE_TYPE_A, 300, a1, 4);
	il = img_rr(il, "www.example.", WIRE_TYPE_A, 300, a2, 4);
	il = img_rr(il, "www.example.", WIRE_TYPE_A, 300, a1, 4);
	a.an_len = il;
	a.an_count = 3;
	ck_assert_int_eq(respond_build(&q, &a, 512, out, sizeof out, &olen,
	                               &tc),
	                 RESPOND_OK);
	m = parse_resp(olen);
	ck_assert_uint_eq(m.an, 3);
	ck_assert_uint_eq(out[m.rr[1].owner], 0xc0);
	ck_assert_mem_eq(out + m.rr[2].rdata, a1, 4);
}
END_TEST

START_TEST(test_build_negative)
{
	static const uint8_t soa[22] = { 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0,
		                         0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 5 };
	struct answer a;
	struct respond_query q;
	struct wire_msg m;
	size_t len, olen, il;

	len = mkquery("nx.example.", WIRE_TYPE_A, WIRE_FLAG_RD, 1232);
	q = parse_ok(len);
	il = img_rr(0, "example.", WIRE_TYPE_SOA, 60, soa, sizeof soa);
	memset(&a, 0, sizeof a);
	a.rcode = WIRE_RCODE_NXDOMAIN;
	a.ns = img;
	a.ns_len = il;
	a.ns_count = 1;
	ck_assert_int_eq(respond_build(&q, &a, 1232, out, sizeof out, &olen,
	                               NULL),
	                 RESPOND_OK);
	m = parse_resp(olen);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(m.an, 0);
	ck_assert_uint_eq(m.ns, 1);
	ck_assert_uint_eq(m.rr[0].type, WIRE_TYPE_SOA);
	ck_assert_uint_eq(m.rr[0].ttl, 60);
	ck_assert_uint_ne(m.opt, WIRE_NONE);
	/* A malformed image is refused, not sent. */
	a.ns_count = 2;
	ck_assert_int_eq(respond_build(&q, &a, 1232, out, sizeof out, &olen,
	                               NULL),
	                 RESPOND_EINVAL);
}
END_TEST

START_TEST(test_build_truncate)
{
	uint8_t rd[16];
	struct answer a;
	struct respond_query q;
	struct wire_msg m;
	size_t len, olen, il = 0;
	bool tc;
	int i;

	for (i = 0; i < 40; i++) {
		memset(rd, i, sizeof rd);
		il = img_rr(il, "many.example.", WIRE_TYPE_AAAA, 60, rd, 16);
	}
	memset(&a, 0, sizeof a);
	a.an = img;
	a.an_len = il;
	a.an_count = 40;
	/* No EDNS: 512 bytes, the answer does not fit: TC, no records. */
	len = mkquery("many.example.", WIRE_TYPE_AAAA, WIRE_FLAG_RD, 0);
	q = parse_ok(len);
	ck_assert_int_eq(respond_build(&q, &a, respond_udp_limit(&q, 1232),
	                               out, sizeof out, &olen, &tc),
	                 RESPOND_OK);
	ck_assert(tc);
	ck_assert_uint_le(olen, 512);
	m = parse_resp(olen);
	ck_assert(m.hdr.flags & WIRE_FLAG_TC);
	ck_assert_uint_eq(m.an, 0);
	/* EDNS 1232: fits (40 * 40 = 1600? no: 40 * 28 + 31 = 1151). */
	len = mkquery("many.example.", WIRE_TYPE_AAAA, WIRE_FLAG_RD, 1232);
	q = parse_ok(len);
	ck_assert_int_eq(respond_build(&q, &a, respond_udp_limit(&q, 1232),
	                               out, sizeof out, &olen, &tc),
	                 RESPOND_OK);
	ck_assert(!tc);
	ck_assert_uint_le(olen, 1232);
	m = parse_resp(olen);
	ck_assert_uint_eq(m.an, 40);
	ck_assert_uint_ne(m.opt, WIRE_NONE);
	/* Cut exactly where the OPT record would no longer fit. */
	ck_assert_int_eq(respond_build(&q, &a, olen - 1, out, sizeof out,
	                               &olen, &tc),
	                 RESPOND_OK);
	ck_assert(tc);
	m = parse_resp(olen);
	ck_assert_uint_eq(m.an, 0);
	ck_assert_uint_ne(m.opt, WIRE_NONE);
	/* TCP: everything. */
	ck_assert_int_eq(respond_build(&q, &a, WIRE_MSG_MAX, out, sizeof out,
	                               &olen, &tc),
	                 RESPOND_OK);
	ck_assert(!tc);
	/* Not even the question fits. */
	ck_assert_int_eq(respond_build(&q, &a, 20, out, sizeof out, &olen,
	                               &tc),
	                 RESPOND_ESPACE);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The cache path                                                      */

static struct cache *mkcache(void)
{
	struct cache_config cc;
	struct cache *c = NULL;

	cache_config_init(&cc);
	cc.max_bytes = 1024 * 1024;
	ck_assert_int_eq(cache_create(&cc, &c), CACHE_OK);
	return c;
}

static void wname(const char *text, uint8_t *name, size_t *len)
{
	ck_assert_int_eq(wire_name_from_text(text, strlen(text), name, len),
	                 WIRE_OK);
	wire_name_lower(name, *len);
}

static void put(struct cache *c, const char *owner, uint16_t type,
                const uint8_t *rd, size_t rdlen, enum cache_rank rank)
{
	uint8_t name[WIRE_NAME_MAX];
	struct cache_rdata r = { rd, rdlen };
	struct cache_rrset s;

	memset(&s, 0, sizeof s);
	wname(owner, name, &s.name_len);
	s.name = name;
	s.type = type;
	s.klass = WIRE_CLASS_IN;
	s.ttl = 100;
	s.rdata = &r;
	s.count = 1;
	s.rank = rank;
	ck_assert_int_eq(cache_rrset_put(c, &s, 1000), CACHE_OK);
}

START_TEST(test_cache_chain)
{
	static const uint8_t addr[4] = { 192, 0, 2, 7 };
	uint8_t n[WIRE_NAME_MAX], t1[WIRE_NAME_MAX], t2[WIRE_NAME_MAX];
	struct answer a;
	struct cache *c = mkcache();
	size_t nl, l1, l2;

	wname("alias.example.", n, &nl);
	wname("Mid.Example.", t1, &l1); /* upper case in RDATA */
	wname("www.example.", t2, &l2);
	memcpy(t1, "\3Mid", 4);
	put(c, "alias.example.", WIRE_TYPE_CNAME, t1, l1, CACHE_RANK_AUTH);
	put(c, "mid.example.", WIRE_TYPE_CNAME, t2, l2, CACHE_RANK_AUTH);
	/* The end of the chain is missing: a miss. */
	ck_assert_int_eq(respond_cache_answer(c, n, nl, WIRE_TYPE_A,
	                                      WIRE_CLASS_IN, 1010, &a, img,
	                                      sizeof img),
	                 RESPOND_EMISS);
	/* Glue does not answer clients. */
	put(c, "www.example.", WIRE_TYPE_A, addr, 4, CACHE_RANK_GLUE);
	ck_assert_int_eq(respond_cache_answer(c, n, nl, WIRE_TYPE_A,
	                                      WIRE_CLASS_IN, 1010, &a, img,
	                                      sizeof img),
	                 RESPOND_EMISS);
	put(c, "www.example.", WIRE_TYPE_A, addr, 4, CACHE_RANK_AUTH);
	ck_assert_int_eq(respond_cache_answer(c, n, nl, WIRE_TYPE_A,
	                                      WIRE_CLASS_IN, 1010, &a, img,
	                                      sizeof img),
	                 RESPOND_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 3);
	ck_assert_uint_eq(a.ns_count, 0);
	/* Asking for the CNAME itself: one record. */
	ck_assert_int_eq(respond_cache_answer(c, n, nl, WIRE_TYPE_CNAME,
	                                      WIRE_CLASS_IN, 1010, &a, img,
	                                      sizeof img),
	                 RESPOND_OK);
	ck_assert_uint_eq(a.an_count, 1);
	/* Expired: a miss. */
	ck_assert_int_eq(respond_cache_answer(c, n, nl, WIRE_TYPE_A,
	                                      WIRE_CLASS_IN, 2000, &a, img,
	                                      sizeof img),
	                 RESPOND_EMISS);
	cache_destroy(c);
}
END_TEST

/* Type of the i-th record of an answer image. */
static uint16_t image_type(const uint8_t *im, size_t len, unsigned i)
{
	size_t pos = 0, nl;
	uint16_t type = 0, klass, rdlen;
	uint32_t ttl;

	for (;;) {
		ck_assert_int_eq(wire_read_name(im, len, &pos, NULL, &nl, 0),
		                 WIRE_OK);
		ck_assert_int_eq(wire_read_u16(im, len, &pos, &type), WIRE_OK);
		ck_assert_int_eq(wire_read_u16(im, len, &pos, &klass),
		                 WIRE_OK);
		ck_assert_int_eq(wire_read_u32(im, len, &pos, &ttl), WIRE_OK);
		ck_assert_int_eq(wire_read_u16(im, len, &pos, &rdlen),
		                 WIRE_OK);
		if (i-- == 0)
			return type;
		ck_assert_uint_le(rdlen, len - pos);
		pos += rdlen;
	}
}

/* A DNAME-synthesized CNAME answered from the cache keeps its DNAME. */
START_TEST(test_cache_dname)
{
	static const uint8_t addr[4] = { 192, 0, 2, 9 };
	uint8_t n[WIRE_NAME_MAX], dt[WIRE_NAME_MAX], ct[WIRE_NAME_MAX];
	struct answer a;
	struct cache *c = mkcache();
	size_t nl, dl, cl;

	wname("www.dn.example.", n, &nl);
	wname("Other.Test.", dt, &dl);
	memcpy(dt, "\5Other", 6);
	wname("www.other.test.", ct, &cl);
	put(c, "dn.example.", WIRE_TYPE_DNAME, dt, dl, CACHE_RANK_AUTH);
	put(c, "www.dn.example.", WIRE_TYPE_CNAME, ct, cl, CACHE_RANK_AUTH);
	put(c, "www.other.test.", WIRE_TYPE_A, addr, 4, CACHE_RANK_AUTH);
	ck_assert_int_eq(respond_cache_answer(c, n, nl, WIRE_TYPE_A,
	                                      WIRE_CLASS_IN, 1010, &a, img,
	                                      sizeof img),
	                 RESPOND_OK);
	ck_assert_uint_eq(a.an_count, 3);
	ck_assert_uint_eq(image_type(a.an, a.an_len, 0), WIRE_TYPE_DNAME);
	ck_assert_uint_eq(image_type(a.an, a.an_len, 1), WIRE_TYPE_CNAME);
	ck_assert_uint_eq(image_type(a.an, a.an_len, 2), WIRE_TYPE_A);
	/* A CNAME the DNAME does not synthesize stands alone. */
	wname("elsewhere.test.", ct, &cl);
	put(c, "old.dn.example.", WIRE_TYPE_CNAME, ct, cl, CACHE_RANK_AUTH);
	put(c, "elsewhere.test.", WIRE_TYPE_A, addr, 4, CACHE_RANK_AUTH);
	wname("old.dn.example.", n, &nl);
	ck_assert_int_eq(respond_cache_answer(c, n, nl, WIRE_TYPE_A,
	                                      WIRE_CLASS_IN, 1010, &a, img,
	                                      sizeof img),
	                 RESPOND_OK);
	ck_assert_uint_eq(a.an_count, 2);
	ck_assert_uint_eq(image_type(a.an, a.an_len, 0), WIRE_TYPE_CNAME);
	cache_destroy(c);
}
END_TEST

START_TEST(test_cache_negative)
{
	uint8_t soa[64], n[WIRE_NAME_MAX], z[WIRE_NAME_MAX];
	struct cache *c = mkcache();
	struct answer a;
	struct respond_query q;
	struct cache_neg neg;
	size_t nl, zl, sl, len, olen;
	struct wire_msg m;

	wname("nx.example.", n, &nl);
	wname("example.", z, &zl);
	memcpy(soa, z, zl);
	memcpy(soa + zl, z, zl);
	memset(soa + 2 * zl, 0, 20);
	soa[2 * zl + 19] = 30; /* MINIMUM 30 */
	sl = 2 * zl + 20;
	memset(&neg, 0, sizeof neg);
	neg.kind = CACHE_KIND_NXDOMAIN;
	neg.name = n;
	neg.name_len = nl;
	neg.klass = WIRE_CLASS_IN;
	neg.soa_name = z;
	neg.soa_name_len = zl;
	neg.soa_ttl = 300;
	neg.soa_rdata = soa;
	neg.soa_rdlen = sl;
	neg.rank = CACHE_RANK_AUTH;
	ck_assert_int_eq(cache_neg_put(c, &neg, 1000), CACHE_OK);
	ck_assert_int_eq(respond_cache_answer(c, n, nl, WIRE_TYPE_MX,
	                                      WIRE_CLASS_IN, 1010, &a, img,
	                                      sizeof img),
	                 RESPOND_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(a.an_count, 0);
	ck_assert_uint_eq(a.ns_count, 1);
	len = mkquery("NX.example.", WIRE_TYPE_MX, WIRE_FLAG_RD, 0);
	q = parse_ok(len);
	ck_assert_int_eq(respond_build(&q, &a, 512, out, sizeof out, &olen,
	                               NULL),
	                 RESPOND_OK);
	m = parse_resp(olen);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(m.ns, 1);
	ck_assert_uint_eq(m.rr[0].type, WIRE_TYPE_SOA);
	/* TTL counted down: 30 - 10 seconds. */
	ck_assert_uint_eq(m.rr[0].ttl, 20);
	cache_destroy(c);
}
END_TEST

START_TEST(test_cache_referral)
{
	uint8_t ns[WIRE_NAME_MAX], n[WIRE_NAME_MAX];
	struct cache *c = mkcache();
	struct answer a;
	size_t nsl, nl;

	wname("deep.www.example.", n, &nl);
	ck_assert_int_eq(respond_cache_referral(c, n, nl, WIRE_CLASS_IN, 1000,
	                                        &a, img, sizeof img),
	                 RESPOND_EMISS);
	wname("ns1.example.", ns, &nsl);
	put(c, "example.", WIRE_TYPE_NS, ns, nsl, CACHE_RANK_REFERRAL);
	ck_assert_int_eq(respond_cache_referral(c, n, nl, WIRE_CLASS_IN, 1000,
	                                        &a, img, sizeof img),
	                 RESPOND_OK);
	ck_assert_uint_eq(a.an_count, 0);
	ck_assert_uint_eq(a.ns_count, 1);
	cache_destroy(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Truncation: TC=1 only when what the client must have does not fit   */

#define T_RRSIG 46
#define T_NSEC3 50

static uint8_t out2[BUF];

/* mkquery's query with DO set (the top bit 4 bytes before the end). */
static struct respond_query parse_do(size_t len)
{
	pkt[len - 4] |= 0x80;
	return parse_ok(len);
}

/* An answer in img: n records of the question's type, each of rdlen
 * bytes, then an RRSIG of sig bytes (none if 0); authority (auth): SOA,
 * its RRSIG, an NSEC3, its RRSIG. */
static void tc_answer(struct answer *a, const char *name, unsigned n,
                      uint16_t rdlen, uint16_t sig, bool auth)
{
	static const uint8_t fill[600];
	size_t p = 0;
	unsigned i;

	memset(a, 0, sizeof *a);
	for (i = 0; i < n; i++)
		p = img_rr(p, name, WIRE_TYPE_AAAA, 60, fill, rdlen);
	if (sig > 0)
		p = img_rr(p, name, T_RRSIG, 60, fill, sig);
	a->an = img;
	a->an_len = p;
	a->an_count = (uint16_t)(n + (sig > 0));
	if (auth) {
		p = img_rr(p, "example.", WIRE_TYPE_SOA, 60, fill, 22);
		p = img_rr(p, "example.", T_RRSIG, 60, fill, 64);
		p = img_rr(p, "abc.example.", T_NSEC3, 60, fill, 40);
		p = img_rr(p, "abc.example.", T_RRSIG, 60, fill, 64);
	}
	a->ns = img + a->an_len;
	a->ns_len = p - a->an_len;
	a->ns_count = auth ? 4 : 0;
}

/* The size of the response that carries what the client must have, as
 * over TCP: no EDE (a comment), and no authority section when the
 * client may go without it (DO=0, an answer); with answer_only, the
 * answer section alone. */
static size_t tc_need(const struct respond_query *q, const struct answer *a,
                      bool answer_only)
{
	struct answer b = *a;
	size_t olen;
	bool tc = true;

	b.ede = false;
	b.ede_text = NULL;
	if (answer_only || (!q->edns_do && b.an_count > 0)) {
		b.ns_len = 0;
		b.ns_count = 0;
	}
	ck_assert_int_eq(respond_build(q, &b, WIRE_MSG_MAX, out2, sizeof out2,
	                               &olen, &tc),
	                 RESPOND_OK);
	ck_assert(!tc);
	return olen;
}

/* One response judged: within the limit; TC only for an answer (never
 * an error) whose needed records do not fit; an empty TC answer only
 * when its answer section alone does not fit; no TC: the whole answer
 * section went out. */
static void tc_judge(const struct respond_query *q, const struct answer *a,
                     size_t limit)
{
	struct wire_msg m, full;
	size_t olen, flen;
	bool tc = false;

	ck_assert_int_eq(respond_build(q, a, limit, out, sizeof out, &olen,
	                               &tc),
	                 RESPOND_OK);
	ck_assert_uint_le(olen, limit);
	m = parse_resp(olen);
	ck_assert(tc == ((m.hdr.flags & WIRE_FLAG_TC) != 0));
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), a->rcode);
	ck_assert(m.has_question);
	if (a->rcode != WIRE_RCODE_NOERROR &&
	    a->rcode != WIRE_RCODE_NXDOMAIN) {
		ck_assert(!tc);
		return;
	}
	if (tc) {
		ck_assert_uint_gt(tc_need(q, a, false), limit);
		if (m.hdr.ancount == 0 && a->an_count > 0)
			ck_assert_uint_gt(tc_need(q, a, true), limit);
		return;
	}
	ck_assert_int_eq(respond_build(q, a, WIRE_MSG_MAX, out2, sizeof out2,
	                               &flen, &tc),
	                 RESPOND_OK);
	ck_assert_int_eq(wire_msg_parse(&full, out2, flen, rrs, WIRE_RR_MAX),
	                 WIRE_OK);
	ck_assert_uint_eq(m.hdr.ancount, full.hdr.ancount);
}

/* A NOERROR answer that fits beside a bare OPT record, not beside its
 * EDE's text: the text gives way, no TC (it went empty with TC=1). */
START_TEST(test_tc_not_for_ede)
{
	static char text[RESPOND_EDE_TEXT_MAX + 1];
	struct respond_query q;
	struct answer a;
	struct wire_msg m;
	size_t olen, need;
	bool tc = true;

	memset(text, 'x', RESPOND_EDE_TEXT_MAX);
	q = parse_do(mkquery("www.example.", WIRE_TYPE_AAAA, WIRE_FLAG_RD,
	                     1232));
	tc_answer(&a, "www.example.", 1, 16, 400, false);
	a.ede = true;
	a.ede_code = 3;
	a.ede_text = text;
	need = tc_need(&q, &a, false); /* with a bare OPT record */
	/* room for the EDE's code, not its text */
	ck_assert_int_eq(respond_build(&q, &a, need + 6, out, sizeof out,
	                               &olen, &tc),
	                 RESPOND_OK);
	m = parse_resp(olen);
	ck_assert(!tc);
	ck_assert_uint_eq(m.hdr.ancount, 2);
	ck_assert_uint_eq(m.rr[m.opt].rdlen, 6);
	/* room for the OPT record alone: no EDE, the answer whole */
	ck_assert_int_eq(respond_build(&q, &a, need, out, sizeof out, &olen,
	                               &tc),
	                 RESPOND_OK);
	m = parse_resp(olen);
	ck_assert(!tc);
	ck_assert_uint_eq(m.hdr.ancount, 2);
	ck_assert_uint_eq(m.rr[m.opt].rdlen, 0);
	/* a byte less: TC, and the EDE as planned beside it */
	ck_assert_int_eq(respond_build(&q, &a, need - 1, out, sizeof out,
	                               &olen, &tc),
	                 RESPOND_OK);
	m = parse_resp(olen);
	ck_assert(tc);
	ck_assert_uint_eq(m.rr[m.opt].rdlen, 6 + RESPOND_EDE_TEXT_MAX);
}
END_TEST

/* Every answer shape, client and UDP size judged by tc_judge: short and
 * 200-byte names, one to 30 records with or without a big RRSIG, with
 * or without an authority section, NOERROR, NODATA, NXDOMAIN and
 * SERVFAIL, no EDE, an EDE code, one with a 128-byte text; no EDNS,
 * EDNS, EDNS with DO; limits from 512 to 1300 bytes. */
START_TEST(test_tc_only_when_needed)
{
	static const unsigned rc[] = { WIRE_RCODE_NOERROR, WIRE_RCODE_NXDOMAIN,
		                       WIRE_RCODE_SERVFAIL };
	static const unsigned shape[][3] = { { 0, 0, 0 },   { 1, 4, 0 },
		                             { 1, 4, 300 }, { 1, 16, 600 },
		                             { 10, 16, 0 }, { 30, 16, 256 } };
	static char text[RESPOND_EDE_TEXT_MAX + 1], deep[240];
	const char *names[2] = { "www.example.", deep };
	struct respond_query q;
	struct answer a;
	size_t i, s, k, e, lim;

	memset(text, 'y', RESPOND_EDE_TEXT_MAX);
	for (i = 0; i + 2 < 200; i += 2)
		memcpy(deep + i, "l.", 2);
	memcpy(deep + i, "example.", 9);
	for (i = 0; i < 2 * 3 * 2; i++) /* name, client (EDNS, DO) */
		for (s = 0; s < 2 * sizeof shape / sizeof shape[0]; s++)
			for (k = 0; k < 3 * 3; k++) { /* RCODE, EDE */
				size_t len = mkquery(names[i / 6],
				                     WIRE_TYPE_AAAA,
				                     WIRE_FLAG_RD,
				                     i % 6 / 2 == 0 ? 0 :
				                     i % 6 / 2 == 1 ? 1232 :
				                                      4096);
				q = i % 2 && i % 6 / 2 ? parse_do(len) :
				                         parse_ok(len);
				tc_answer(&a, names[i / 6], shape[s / 2][0],
				          (uint16_t)shape[s / 2][1],
				          (uint16_t)shape[s / 2][2], s % 2);
				a.rcode = (uint8_t)rc[k / 3];
				if (a.rcode == WIRE_RCODE_NXDOMAIN &&
				    a.an_count > 0)
					continue;
				e = k % 3;
				a.ede = e > 0;
				a.ede_code = 3;
				a.ede_text = e == 2 ? text : NULL;
				for (lim = 512; lim <= 1300; lim += 29)
					tc_judge(&q, &a, lim);
			}
}
END_TEST

static Suite *respond_suite(void)
{
	Suite *s = suite_create("respond");
	TCase *t;

	t = tcase_create("parse");
	tcase_add_test(t, test_parse_ok);
	tcase_add_test(t, test_parse_reject);
	suite_add_tcase(s, t);
	t = tcase_create("build");
	tcase_add_test(t, test_error);
	tcase_add_test(t, test_build_positive);
	tcase_add_test(t, test_build_negative);
	tcase_add_test(t, test_build_truncate);
	suite_add_tcase(s, t);
	t = tcase_create("truncation");
	tcase_add_test(t, test_tc_not_for_ede);
	tcase_add_test(t, test_tc_only_when_needed);
	suite_add_tcase(s, t);
	t = tcase_create("cache");
	tcase_add_test(t, test_cache_chain);
	tcase_add_test(t, test_cache_dname);
	tcase_add_test(t, test_cache_negative);
	tcase_add_test(t, test_cache_referral);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(respond_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
