/*
 * tests/unit/check_respond_dnssec.c - Suite "respond_dnssec": what the
 * front sends for DNSSEC (RFC 4035 section 3.2, RFC 6840 section 5, RFC
 * 8914): DO echoed, DNSSEC records left out for DO=0 clients with counts
 * to match, the AD rules, bogus data as SERVFAIL with EDE 6 (the data to
 * CD=1 clients), the EDE option byte for byte, no OPT without client
 * EDNS, truncation with large RRSIGs; the counters and the query log
 * line that read the same decision (respond_plan).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>

#include "cache.h"
#include "base/log.h"
#include "front/qlog.h"
#include "front/respond.h"
#include "stats/stats.h"
#include "wire/wire.h"

#define BUF 65536
#define T_RRSIG 46
#define T_NSEC 47
#define T_NSEC3 50
/** Flag bits of a query built here: DO goes into its OPT record. */
#define Q_DO 0x10000u

static uint8_t pkt[BUF];
static uint8_t out[BUF];
static uint8_t img[BUF];
static struct wire_rr rrs[WIRE_RR_MAX];

/* A parsed query: name, type, header flags (| Q_DO), EDNS size (0: none). */
static struct respond_query mkq(const char *name, uint16_t qtype,
                                unsigned flags, uint16_t edns)
{
	struct respond_query q;
	struct wire_query wq;
	size_t len;

	memset(&wq, 0, sizeof wq);
	wq.id = 0x1234;
	wq.qtype = qtype;
	wq.qclass = WIRE_CLASS_IN;
	wq.flags = (uint16_t)flags;
	wq.edns_payload = edns;
	wq.edns_do = (flags & Q_DO) != 0;
	ck_assert_int_eq(wire_query_build_text(pkt, sizeof pkt, &len, name,
	                                       &wq),
	                 WIRE_OK);
	ck_assert_int_eq(respond_query_parse(pkt, len, &q), RESPOND_OK);
	return q;
}

/* Append an image RR of rdlen bytes of `fill` at img + at. */
static size_t rr(size_t at, const char *owner, uint16_t type, size_t rdlen,
                 uint8_t fill)
{
	uint8_t name[WIRE_NAME_MAX], rd[BUF];
	size_t nlen, end = at;

	ck_assert_int_eq(wire_name_from_text(owner, strlen(owner), name,
	                                     &nlen),
	                 WIRE_OK);
	memset(rd, fill, rdlen);
	ck_assert(answer_rr_append(img, sizeof img, &end, name, nlen, type,
	                           WIRE_CLASS_IN, 300, rd, rdlen));
	return end;
}

/* A positive answer: www.example. A, its RRSIG of sig bytes;
 * authority: SOA, its RRSIG, NSEC, its RRSIG, NSEC3. */
static void mkanswer(struct answer *a, size_t sig)
{
	size_t p;

	memset(a, 0, sizeof *a);
	p = rr(0, "www.example.", WIRE_TYPE_A, 4, 1);
	p = rr(p, "www.example.", T_RRSIG, sig, 2);
	a->an = img;
	a->an_len = p;
	a->an_count = 2;
	p = rr(p, "example.", WIRE_TYPE_SOA, 22, 0);
	p = rr(p, "example.", T_RRSIG, 40, 3);
	p = rr(p, "example.", T_NSEC, 10, 4);
	p = rr(p, "example.", T_RRSIG, 40, 5);
	p = rr(p, "abc.example.", T_NSEC3, 12, 6);
	a->ns = img + a->an_len;
	a->ns_len = p - a->an_len;
	a->ns_count = 5;
	a->rcode = WIRE_RCODE_NOERROR;
}

static struct wire_msg build(const struct respond_query *q,
                             const struct answer *a, size_t limit, bool *tc)
{
	struct wire_msg m;
	size_t olen;

	ck_assert_int_eq(respond_build(q, a, limit, out, sizeof out, &olen,
	                               tc),
	                 RESPOND_OK);
	ck_assert_uint_le(olen, limit);
	ck_assert_int_eq(wire_msg_parse(&m, out, olen, rrs, WIRE_RR_MAX),
	                 WIRE_OK);
	return m;
}

/* How many records of a type in [first, first + n). */
static unsigned count_type(const struct wire_msg *m, size_t first, size_t n,
                           uint16_t type)
{
	unsigned k = 0;
	size_t i;

	for (i = first; i < first + n; i++)
		k += m->rr[i].type == type;
	return k;
}

START_TEST(test_do_echo)
{
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A, Q_DO, 1232);
	struct answer a;
	struct wire_msg m;

	mkanswer(&a, 60);
	ck_assert(q.edns_do);
	ck_assert_uint_eq(respond_chase_flags(&q), ANSWER_CHASE_DNSSEC);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_ne(m.opt, WIRE_NONE);
	ck_assert(m.rr[m.opt].ttl & WIRE_EDNS_DO);
	q = mkq("www.example.", WIRE_TYPE_A, 0, 1232);
	ck_assert_uint_eq(respond_chase_flags(&q), 0);
	m = build(&q, &a, 4096, NULL);
	ck_assert(!(m.rr[m.opt].ttl & WIRE_EDNS_DO));
}
END_TEST

START_TEST(test_filter_do1)
{
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A, Q_DO, 1232);
	struct answer a;
	struct wire_msg m;

	mkanswer(&a, 60);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(m.an, 2);
	ck_assert_uint_eq(m.hdr.ancount, 2);
	ck_assert_uint_eq(count_type(&m, 0, m.an, T_RRSIG), 1);
	ck_assert_uint_eq(m.ns, 5);
	ck_assert_uint_eq(count_type(&m, m.an, m.ns, T_RRSIG), 2);
	ck_assert_uint_eq(count_type(&m, m.an, m.ns, T_NSEC), 1);
	ck_assert_uint_eq(count_type(&m, m.an, m.ns, T_NSEC3), 1);
}
END_TEST

START_TEST(test_filter_do0)
{
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A, 0, 1232);
	struct answer a;
	struct wire_msg m;

	mkanswer(&a, 60);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(m.hdr.ancount, 1);
	ck_assert_uint_eq(m.rr[0].type, WIRE_TYPE_A);
	ck_assert_uint_eq(m.hdr.nscount, 1);
	ck_assert_uint_eq(m.rr[1].type, WIRE_TYPE_SOA);
	/* Without EDNS at all: the same. */
	q = mkq("www.example.", WIRE_TYPE_A, 0, 0);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(m.hdr.ancount, 1);
	ck_assert_uint_eq(m.hdr.nscount, 1);
	ck_assert_uint_eq(m.opt, WIRE_NONE);
	/* The question asks for RRSIG: RRSIGs stay, NSECs still go. */
	q = mkq("www.example.", T_RRSIG, 0, 1232);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(m.hdr.ancount, 2);
	ck_assert_uint_eq(m.hdr.nscount, 3);
	ck_assert_uint_eq(count_type(&m, m.an, m.ns, T_NSEC), 0);
	/* ...for NSEC: the NSEC stays in the authority section. */
	q = mkq("www.example.", T_NSEC, 0, 1232);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(m.hdr.ancount, 1);
	ck_assert_uint_eq(m.hdr.nscount, 2);
	ck_assert_uint_eq(count_type(&m, m.an, m.ns, T_NSEC), 1);
	/* ...for NSEC3 likewise. */
	q = mkq("www.example.", T_NSEC3, 0, 1232);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(m.hdr.nscount, 2);
	ck_assert_uint_eq(count_type(&m, m.an, m.ns, T_NSEC3), 1);
}
END_TEST

/* Whether the response to (flags, edns) of an answer of status sec has
 * AD. */
static bool ad_of(uint8_t sec, unsigned flags, uint16_t edns)
{
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A, flags, edns);
	struct answer a;
	struct wire_msg m;

	mkanswer(&a, 60);
	a.sec = sec;
	m = build(&q, &a, 4096, NULL);
	return (m.hdr.flags & WIRE_FLAG_AD) != 0;
}

START_TEST(test_ad_rules)
{
	/* SECURE: AD to DO=1 and to AD=1, never to a client that set
	 * neither (RFC 6840 section 5.7). */
	ck_assert(ad_of(CACHE_SEC_SECURE, Q_DO, 1232));
	ck_assert(ad_of(CACHE_SEC_SECURE, WIRE_FLAG_AD, 1232));
	ck_assert(ad_of(CACHE_SEC_SECURE, WIRE_FLAG_AD, 0));
	ck_assert(!ad_of(CACHE_SEC_SECURE, 0, 1232));
	ck_assert(!ad_of(CACHE_SEC_SECURE, 0, 0));
	/* CD=1 and secure data: still authenticated. */
	ck_assert(ad_of(CACHE_SEC_SECURE, Q_DO | WIRE_FLAG_CD, 1232));
	/* Anything else: never. */
	ck_assert(!ad_of(CACHE_SEC_INSECURE, Q_DO | WIRE_FLAG_AD, 1232));
	ck_assert(!ad_of(CACHE_SEC_UNCHECKED, Q_DO | WIRE_FLAG_AD, 1232));
	ck_assert(!ad_of(CACHE_SEC_BOGUS, Q_DO | WIRE_FLAG_AD | WIRE_FLAG_CD,
	                 1232));
}
END_TEST

/* An error never carries AD, whatever the status of the data behind it
 * (a loop of secure CNAMEs ends in SERVFAIL; RFC 4035 section 3.2.3):
 * neither to DO=1, nor to AD=1, nor with CD=1; the plan says the same. */
START_TEST(test_ad_never_on_error)
{
	static const unsigned errs[] = { WIRE_RCODE_SERVFAIL,
		                         WIRE_RCODE_REFUSED,
		                         WIRE_RCODE_FORMERR,
		                         WIRE_RCODE_NOTIMP };
	static const unsigned cl[] = { Q_DO, WIRE_FLAG_AD,
		                       Q_DO | WIRE_FLAG_CD };
	struct respond_query q;
	struct respond_plan p;
	struct answer a;
	struct wire_msg m;
	size_t i, j;

	for (i = 0; i < sizeof errs / sizeof errs[0]; i++)
		for (j = 0; j < sizeof cl / sizeof cl[0]; j++) {
			q = mkq("www.example.", WIRE_TYPE_A, cl[j], 1232);
			mkanswer(&a, 60);
			a.sec = CACHE_SEC_SECURE;
			a.rcode = (uint8_t)errs[i];
			m = build(&q, &a, 4096, NULL);
			ck_assert_uint_eq(m.hdr.flags & WIRE_FLAG_AD, 0);
			ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), errs[i]);
			respond_plan(&q, &a, &p);
			ck_assert(!p.ad);
		}
	/* NXDOMAIN is an answer: AD stays. */
	q = mkq("www.example.", WIRE_TYPE_A, Q_DO, 1232);
	mkanswer(&a, 60);
	a.sec = CACHE_SEC_SECURE;
	a.rcode = WIRE_RCODE_NXDOMAIN;
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_ne(m.hdr.flags & WIRE_FLAG_AD, 0);
}
END_TEST

/* The OPT record's RDATA of the last built response, and its length. */
static const uint8_t *opt_rdata(const struct wire_msg *m, size_t *len)
{
	ck_assert_uint_ne(m->opt, WIRE_NONE);
	*len = m->rr[m->opt].rdlen;
	return out + m->rr[m->opt].rdata;
}

START_TEST(test_bogus)
{
	static const uint8_t ede6[] = { 0, 15, 0, 2, 0, 6 };
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A,
	                             Q_DO | WIRE_FLAG_AD, 1232);
	struct answer a;
	struct wire_msg m;
	const uint8_t *o;
	size_t olen;

	mkanswer(&a, 60);
	a.sec = CACHE_SEC_BOGUS;
	/* CD=0: SERVFAIL, no records, EDE 6 without text. */
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_SERVFAIL);
	ck_assert_uint_eq(m.hdr.ancount + m.hdr.nscount, 0);
	ck_assert_uint_eq(m.hdr.arcount, 1);
	o = opt_rdata(&m, &olen);
	ck_assert_uint_eq(olen, sizeof ede6);
	ck_assert_mem_eq(o, ede6, sizeof ede6);
	/* CD=1: the data as it is, every record, no AD, no EDE. */
	q = mkq("www.example.", WIRE_TYPE_A, Q_DO | WIRE_FLAG_CD, 1232);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(m.hdr.ancount, 2);
	ck_assert_uint_eq(m.hdr.nscount, 5);
	ck_assert(!(m.hdr.flags & WIRE_FLAG_AD));
	ck_assert_uint_eq(m.rr[m.opt].rdlen, 0);
	/* CD=0 without EDNS: SERVFAIL and no OPT at all. */
	q = mkq("www.example.", WIRE_TYPE_A, 0, 0);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_SERVFAIL);
	ck_assert_uint_eq(m.hdr.ancount + m.hdr.nscount + m.hdr.arcount, 0);
}
END_TEST

/* The bug: a bogus answer fresh from the iterator carries the
 * validator's EDE (a->ede), one from the cache only its code, so a CD=1
 * client got an EDE the first time and none after. Now neither; an EDE
 * of its own reason (3 Stale Answer) stays, and so does the one that
 * says why a SERVFAIL failed. */
START_TEST(test_bogus_cd_fresh)
{
	struct respond_plan p;
	struct wire_msg m;
	struct answer a;
	struct respond_query q;

	q = mkq("www.example.", WIRE_TYPE_A, Q_DO | WIRE_FLAG_CD, 1232);
	mkanswer(&a, 60);
	a.sec = CACHE_SEC_BOGUS;
	a.ede = true; /* fresh: the validator's reason */
	a.ede_code = 8;
	a.ede_text = "signature not yet valid";
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(m.hdr.ancount, 2);
	ck_assert(!(m.hdr.flags & WIRE_FLAG_AD));
	ck_assert_uint_eq(m.rr[m.opt].rdlen, 0);
	/* as from the cache: the code alone, the same plan */
	a.ede = false;
	a.ede_text = NULL;
	respond_plan(&q, &a, &p);
	ck_assert(!p.ede && p.records && !p.ad);
	/* stale bogus data: EDE 3 stays (code and length, no text) */
	a.ede = true;
	a.ede_code = RESPOND_EDE_STALE;
	respond_plan(&q, &a, &p);
	ck_assert(p.ede && p.ede_code == RESPOND_EDE_STALE);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(m.rr[m.opt].rdlen, 6);
	/* a SERVFAIL keeps its reason, DNSSEC or not */
	memset(&a, 0, sizeof a);
	a.rcode = WIRE_RCODE_SERVFAIL;
	a.sec = CACHE_SEC_BOGUS;
	a.ede = true;
	a.ede_code = RESPOND_EDE_BOGUS;
	respond_plan(&q, &a, &p);
	ck_assert(p.ede && p.ede_code == RESPOND_EDE_BOGUS);
}
END_TEST

START_TEST(test_ede_bytes)
{
	/* RFC 8914 section 2: OPTION-CODE 15, OPTION-LENGTH 2 + text,
	 * INFO-CODE, EXTRA-TEXT without NUL. */
	static const uint8_t want[] = { 0,   15,  0,   11,  0,   7,   's', 'i',
		                        'g', ' ', 'e', 'x', 'p', 'i', 'r' };
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A, 0, 1232);
	struct answer a;
	struct wire_msg m;
	const uint8_t *o;
	size_t olen;

	mkanswer(&a, 60);
	a.sec = CACHE_SEC_BOGUS;
	a.ede = true;
	a.ede_code = 7;
	a.ede_text = "sig expir";
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_SERVFAIL);
	o = opt_rdata(&m, &olen);
	ck_assert_uint_eq(olen, sizeof want);
	ck_assert_mem_eq(o, want, sizeof want);
	/* An iterator's SERVFAIL with an EDE keeps it, and DO is echoed. */
	memset(&a, 0, sizeof a);
	a.rcode = WIRE_RCODE_SERVFAIL;
	a.ede = true;
	a.ede_code = 9;
	q = mkq("www.example.", WIRE_TYPE_A, Q_DO, 1232);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_SERVFAIL);
	ck_assert(m.rr[m.opt].ttl & WIRE_EDNS_DO);
	o = opt_rdata(&m, &olen);
	ck_assert_uint_eq(olen, 6);
	ck_assert_uint_eq(o[5], 9);
	/* A text over RESPOND_EDE_TEXT_MAX bytes is cut, never inside a
	 * UTF-8 sequence: 127 'x' and a 2-byte letter keep 127 bytes. */
	{
		static char longtext[RESPOND_EDE_TEXT_MAX + 8];

		memset(longtext, 'x', RESPOND_EDE_TEXT_MAX - 1);
		memcpy(longtext + RESPOND_EDE_TEXT_MAX - 1, "\xc3\xa9tc", 4);
		a.ede_text = longtext;
		m = build(&q, &a, 4096, NULL);
		o = opt_rdata(&m, &olen);
		ck_assert_uint_eq(olen, 6 + RESPOND_EDE_TEXT_MAX - 1);
		ck_assert_uint_eq(o[1], 15);
		ck_assert_uint_eq(o[3], 2 + RESPOND_EDE_TEXT_MAX - 1);
		a.ede_text = NULL;
	}
	/* No client EDNS: no OPT, so no EDE. */
	q = mkq("www.example.", WIRE_TYPE_A, 0, 0);
	m = build(&q, &a, 4096, NULL);
	ck_assert_uint_eq(m.opt, WIRE_NONE);
	ck_assert_uint_eq(m.hdr.arcount, 0);
}
END_TEST

START_TEST(test_tc_big_rrsig)
{
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A, Q_DO, 512);
	struct answer a;
	struct wire_msg m;
	bool tc = false;

	/* DO=1: the A and its 600-byte RRSIG do not fit 512: TC, none. */
	mkanswer(&a, 600);
	m = build(&q, &a, 512, &tc);
	ck_assert(tc);
	ck_assert(m.hdr.flags & WIRE_FLAG_TC);
	ck_assert_uint_eq(m.hdr.ancount, 0);
	/* DO=0: the RRSIG is left out, the A fits. */
	q = mkq("www.example.", WIRE_TYPE_A, 0, 512);
	m = build(&q, &a, 512, &tc);
	ck_assert(!tc);
	ck_assert_uint_eq(m.hdr.ancount, 1);
	/* An answer that would fit beside the EDE's code but not beside
	 * its text: the text gives way, the answer section goes whole (TC
	 * for the proof that does not fit; the answer is not lost to a
	 * comment on it: check_respond's truncation tests). */
	mkanswer(&a, 408); /* the records end at byte 465: past 512 - 51 */
	a.ede = true;
	a.ede_code = 3;
	a.ede_text = "a fairly long text about staleness";
	q = mkq("www.example.", WIRE_TYPE_A, Q_DO, 512);
	m = build(&q, &a, 512, &tc);
	ck_assert(tc);
	ck_assert_uint_eq(m.hdr.ancount, 2);
	ck_assert_uint_eq(m.rr[m.opt].rdlen, 6);
	/* A smaller RRSIG fits with the option; the authority does not:
	 * to a DO=1 client it is the proof (RFC 4035 section 3.1.3), so
	 * TC; the answer section stays. */
	mkanswer(&a, 380);
	a.ede = true;
	a.ede_code = 3;
	a.ede_text = "a fairly long text about staleness";
	m = build(&q, &a, 512, &tc);
	ck_assert(tc);
	ck_assert_uint_eq(m.hdr.ancount, 2);
	ck_assert_uint_eq(m.hdr.nscount, 0);
	ck_assert_uint_eq(m.rr[m.opt].rdlen, 6 + strlen(a.ede_text));
}
END_TEST

/* The question echoed in a response (qdcount 1, the name as asked). */
static void has_question(const struct wire_msg *m, const char *name)
{
	uint8_t wn[WIRE_NAME_MAX];
	size_t wl;

	ck_assert_int_eq(wire_name_from_text(name, strlen(name), wn, &wl),
	                 WIRE_OK);
	ck_assert_uint_eq(m->hdr.qdcount, 1);
	ck_assert(m->has_question);
	ck_assert_uint_eq(m->q.namelen, wl);
	ck_assert_mem_eq(m->q.name, wn, wl);
}

/* The EDE INFO-CODE of a response (-1: none). */
static int ede_of(const struct wire_msg *m)
{
	const uint8_t *o;
	size_t olen;

	if (m->opt == WIRE_NONE || m->rr[m->opt].rdlen < 6)
		return -1;
	o = opt_rdata(m, &olen);
	ck_assert_uint_eq(o[1], 15);
	return o[4] << 8 | o[5];
}

/* A truncated response still carries the question, the answer's RCODE
 * and its EDE: a big DNSSEC answer (and a negative one whose proof does
 * not fit) for a 512-byte DO=1 client. */
START_TEST(test_tc_keeps_question_rcode)
{
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A, Q_DO, 512);
	struct answer a;
	struct wire_msg m;
	bool tc = false;
	size_t p;

	mkanswer(&a, 900);
	a.sec = CACHE_SEC_SECURE;
	a.ede = true;
	a.ede_code = 3;
	a.ede_text = "a fairly long text about staleness";
	m = build(&q, &a, 512, &tc);
	ck_assert(tc);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_NOERROR);
	has_question(&m, "www.example.");
	ck_assert_int_eq(ede_of(&m), 3);
	/* NXDOMAIN whose proof does not fit: TC, NXDOMAIN, the question */
	memset(&a, 0, sizeof a);
	p = rr(0, "example.", WIRE_TYPE_SOA, 22, 0);
	p = rr(p, "example.", T_RRSIG, 700, 3);
	a.ns = img;
	a.ns_len = p;
	a.ns_count = 2;
	a.rcode = WIRE_RCODE_NXDOMAIN;
	m = build(&q, &a, 512, &tc);
	ck_assert(tc);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_NXDOMAIN);
	has_question(&m, "www.example.");
}
END_TEST

/* An error never asks for TCP: a SERVFAIL (or REFUSED) that comes with
 * records too big for the client goes without them, TC clear, with its
 * question and EDE; never NOERROR. */
START_TEST(test_error_never_tc)
{
	static const unsigned rcodes[] = { WIRE_RCODE_SERVFAIL,
		                           WIRE_RCODE_REFUSED };
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A, Q_DO, 512);
	struct answer a;
	struct wire_msg m;
	bool tc = true;
	size_t i;

	for (i = 0; i < sizeof rcodes / sizeof rcodes[0]; i++) {
		mkanswer(&a, 900);
		a.rcode = (uint8_t)rcodes[i];
		a.ede = true;
		a.ede_code = 22;
		a.ede_text = "no server of the zone answered";
		m = build(&q, &a, 512, &tc);
		ck_assert(!tc);
		ck_assert(!(m.hdr.flags & WIRE_FLAG_TC));
		ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), rcodes[i]);
		ck_assert_uint_eq(m.hdr.ancount + m.hdr.nscount, 0);
		has_question(&m, "www.example.");
		ck_assert_int_eq(ede_of(&m), 22);
	}
	/* bogus data to a CD=0 client: SERVFAIL EDE 6, no TC */
	mkanswer(&a, 900);
	a.sec = CACHE_SEC_BOGUS;
	m = build(&q, &a, 512, &tc);
	ck_assert(!tc);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_SERVFAIL);
	ck_assert_int_eq(ede_of(&m), 6);
}
END_TEST

/* An EDE whose text does not fit beside the header, a 255-byte question
 * and the OPT record loses its text, then its option: the response is
 * still built with its own RCODE and the question (a NOERROR answer is
 * not lost to a SERVFAIL for want of room for a comment). */
START_TEST(test_ede_text_overflow)
{
	static char text[RESPOND_EDE_TEXT_MAX + 1];
	char name[300];
	struct respond_query q;
	struct answer a;
	struct wire_msg m;
	size_t olen;
	bool tc = false;

	memset(text, 'x', RESPOND_EDE_TEXT_MAX);
	snprintf(name, sizeof name, "%.63s.%.63s.%.63s.%.61s.", text, text,
	         text, text);
	q = mkq(name, WIRE_TYPE_A, Q_DO, 512);
	memset(&a, 0, sizeof a);
	a.rcode = WIRE_RCODE_SERVFAIL;
	a.ede = true;
	a.ede_code = 22;
	a.ede_text = text;
	/* 12 + 259 + 11 + 6 = 288: the code fits in 300, the text not */
	m = build(&q, &a, 300, &tc);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_SERVFAIL);
	has_question(&m, name);
	ck_assert_int_eq(ede_of(&m), 22);
	ck_assert_uint_eq(m.rr[m.opt].rdlen, 6);
	/* a NOERROR answer: TC (its records do not fit), not an error */
	mkanswer(&a, 60);
	a.ede = true;
	a.ede_code = 3;
	a.ede_text = text;
	m = build(&q, &a, 300, &tc);
	ck_assert(tc);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_NOERROR);
	has_question(&m, name);
	/* 284: the OPT fits, not the option: no EDE, the rest goes */
	m = build(&q, &a, 284, &tc);
	ck_assert_uint_eq(WIRE_RCODE(m.hdr.flags), WIRE_RCODE_NOERROR);
	ck_assert_int_eq(ede_of(&m), -1);
	ck_assert_uint_ne(m.opt, WIRE_NONE);
	/* not even the OPT: nothing is built (the caller sends SERVFAIL) */
	ck_assert_int_eq(respond_build(&q, &a, 280, out, sizeof out, &olen,
	                               &tc),
	                 RESPOND_ESPACE);
}
END_TEST

START_TEST(test_stats_response)
{
	static const struct {
		const char *name;
		uint64_t want;
	} want[] = {
		{ "num.answer.secure", 1 },
		{ "num.answer.bogus", 2 },
		{ "num.answer.ede.6", 1 },
		{ "num.answer.ede.3", 1 },
		{ "num.answer.rcode.SERVFAIL", 2 },
		{ "num.answer.rcode.NOERROR", 4 },
		{ "num.answer.ede.27", 0 },
	};
	size_t i;
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A, 0, 1232);
	struct stats st;
	struct answer a;
	uint64_t v;

	memset(&st, 0, sizeof st);
	mkanswer(&a, 60);
	a.sec = CACHE_SEC_SECURE;
	stats_response(&st, &q, &a); /* secure, no AD asked: still secure */
	a.sec = CACHE_SEC_BOGUS;
	stats_response(&st, &q, &a); /* SERVFAIL + EDE 6 */
	q = mkq("www.example.", WIRE_TYPE_A, WIRE_FLAG_CD, 0);
	stats_response(&st, &q, &a); /* the data, to CD=1, no EDNS */
	a.sec = CACHE_SEC_INSECURE;
	a.ede = true;
	a.ede_code = 3;
	stats_response(&st, &q, &a); /* no EDNS: no EDE sent */
	q = mkq("www.example.", WIRE_TYPE_A, 0, 1232);
	stats_response(&st, &q, &a); /* EDE 3 sent */
	a.sec = CACHE_SEC_SECURE;
	a.ede = false;
	a.rcode = WIRE_RCODE_SERVFAIL;
	stats_response(&st, &q, &a); /* a loop of secure links: not secure */

	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		ck_assert_int_eq(stats_get(&st, want[i].name, &v), 0);
		ck_assert_uint_eq(v, want[i].want);
	}
	ck_assert_int_eq(stats_get(&st, "num.answer.ede.4", &v), -1);
	ck_assert_int_eq(stats_ede_index(27), STATS_EDE_CODES - 1);
	ck_assert_int_eq(stats_ede_index(5), -1);
}
END_TEST

/* The query log line of one answer, read back from stderr. */
static void qlog_line_of(const struct respond_query *q, const struct answer *a,
                         char *line, size_t cap)
{
	struct sockaddr_in sin;
	FILE *f = tmpfile();
	int saved = dup(STDERR_FILENO);
	size_t n;

	ck_assert_ptr_nonnull(f);
	memset(&sin, 0, sizeof sin);
	sin.sin_family = AF_INET;
	sin.sin_port = htons(5);
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_ge(dup2(fileno(f), STDERR_FILENO), 0);
	log_init(CFG_LOG_WARN, true);
	if (a != NULL)
		qlog_answer(q, (const struct sockaddr *)&sin, false,
		            QLOG_SRC_CACHE, a);
	else
		qlog_write(q, (const struct sockaddr *)&sin, false,
		           WIRE_RCODE_REFUSED, QLOG_SRC_NONE, false);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	rewind(f);
	n = fread(line, 1, cap - 1, f);
	line[n] = 0;
	fclose(f);
}

START_TEST(test_qlog_dnssec)
{
	struct respond_query q = mkq("www.example.", WIRE_TYPE_A, 0, 1232);
	char line[1024];
	struct answer a;

	mkanswer(&a, 60);
	a.sec = CACHE_SEC_SECURE;
	qlog_line_of(&q, &a, line, sizeof line);
	ck_assert_ptr_nonnull(strstr(line, " rcode=NOERROR cached=yes "
	                                   "src=cache curve=no "
	                                   "dnssec=secure\n"));
	a.sec = CACHE_SEC_BOGUS;
	qlog_line_of(&q, &a, line, sizeof line);
	ck_assert_ptr_nonnull(strstr(line, " rcode=SERVFAIL "));
	ck_assert_ptr_nonnull(strstr(line, " dnssec=bogus\n"));
	a.sec = CACHE_SEC_INSECURE;
	qlog_line_of(&q, &a, line, sizeof line);
	ck_assert_ptr_nonnull(strstr(line, " dnssec=insecure\n"));
	/* a failure is never secure, whatever parts validated before it
	 * (a CNAME loop in a signed zone, a cap hit after a secure link) */
	a.sec = CACHE_SEC_SECURE;
	a.rcode = WIRE_RCODE_SERVFAIL;
	qlog_line_of(&q, &a, line, sizeof line);
	ck_assert_ptr_nonnull(strstr(line, " rcode=SERVFAIL "));
	ck_assert_ptr_null(strstr(line, " dnssec=secure"));
	ck_assert_ptr_nonnull(strstr(line, " dnssec=unchecked\n"));
	qlog_line_of(&q, NULL, line, sizeof line);
	ck_assert_ptr_nonnull(strstr(line, " rcode=REFUSED cached=no src=none "
	                                   "curve=no dnssec=unchecked\n"));
}
END_TEST

static Suite *respond_dnssec_suite(void)
{
	Suite *s = suite_create("respond_dnssec");
	TCase *t;

	t = tcase_create("records");
	tcase_add_test(t, test_do_echo);
	tcase_add_test(t, test_filter_do1);
	tcase_add_test(t, test_filter_do0);
	tcase_add_test(t, test_tc_big_rrsig);
	tcase_add_test(t, test_tc_keeps_question_rcode);
	tcase_add_test(t, test_error_never_tc);
	tcase_add_test(t, test_ede_text_overflow);
	suite_add_tcase(s, t);
	t = tcase_create("flags");
	tcase_add_test(t, test_ad_rules);
	tcase_add_test(t, test_ad_never_on_error);
	tcase_add_test(t, test_bogus);
	tcase_add_test(t, test_bogus_cd_fresh);
	tcase_add_test(t, test_ede_bytes);
	suite_add_tcase(s, t);
	t = tcase_create("accounting");
	tcase_add_test(t, test_stats_response);
	tcase_add_test(t, test_qlog_dnssec);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(respond_dnssec_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
