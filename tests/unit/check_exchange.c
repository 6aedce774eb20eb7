/*
 * tests/unit/check_exchange.c - Suite "exchange": the one query-exchange
 * module (resolver/wire/exchange.c) that the daemon's transport and
 * curvecache-query share. Every status of exchange_check and
 * exchange_build is reached: the answer in plain, streamlined and TXT
 * form, and each way a reply is refused. Boxed replies come from the
 * test-side DNSCurve server of the "curve" suite (libsodium directly,
 * keys from tests/vectors/dnscurve.vec), so the module is checked
 * against an independent implementation.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "curvetest.h"
#include "wire/exchange.h"

/** The zone of the TXT format; the name asked is www under it (letters
 *  in every label, so 0x20 has work to do). */
#define XT_ZONE "example.com"
/** The EDNS payload the tests offer. */
#define XT_EDNS 1232
/** Header flag bytes: QR, and the RCODE bits of the fourth byte. */
#define XT_QR 0x80
#define XT_RCODE_FORMERR 1

static uint8_t qname[WIRE_NAME_MAX], zone_wire[WIRE_NAME_MAX];
static size_t qnamelen, zonelen;
static struct exchange_ask ask;
static struct exchange_sent sent;
static uint8_t out[WIRE_MSG_MAX], scratch[WIRE_MSG_MAX];
static uint8_t reply[WIRE_MSG_MAX], pkt[WIRE_MSG_MAX + 2];
static struct wire_rr rr[WIRE_RR_MAX];
static struct wire_msg msg;
static struct exchange_bufs bufs;
static uint8_t cpk[CURVE_KEY_BYTES];
static const uint8_t ext[CURVE_NONCE_BYTES] = {
	0x73, 0x65, 0x72, 0x76, 0x65, 0x72, 0x2d, 0x6e, 0x6f, 0x6e, 0x63, 0x65,
};

static void setup(void)
{
	vec_setup();
	curve_client_pk(vc, cpk);
	qnamelen = wire_name("www.example.com", qname);
	zonelen = wire_name(XT_ZONE, zone_wire);
	memset(&ask, 0, sizeof ask);
	ask.qname = qname;
	ask.qnamelen = qnamelen;
	ask.qtype = WIRE_TYPE_A;
	ask.qclass = WIRE_CLASS_IN;
	ask.edns = XT_EDNS;
	ask.mix_case = true;
	ask.strict_case = true;
	ask.client = vc;
	ask.server_key = spk;
	ask.nonce = cnonce;
	ask.zone = XT_ZONE;
	memset(&bufs, 0, sizeof bufs);
	bufs.out = out;
	bufs.out_cap = sizeof out;
	bufs.scratch = scratch;
	bufs.scratch_cap = sizeof scratch;
	bufs.sent = out;
	bufs.rr = rr;
	bufs.rr_cap = WIRE_RR_MAX;
}

static void build(enum exchange_mode mode)
{
	ask.mode = mode;
	ck_assert_int_eq(exchange_build(&ask, &bufs, &sent), EXCHANGE_OK);
	ck_assert_int_eq(sent.mode, mode);
	ck_assert_uint_gt(sent.pktlen, WIRE_HEADER_BYTES);
}

static int check(const uint8_t *p, size_t len)
{
	memcpy(pkt, p, len);
	return exchange_check(&ask, &sent, &bufs, pkt, len, &msg);
}

/* A plain reply: the query echoed with QR set (the OPT record too). */
static size_t echo(const uint8_t *q, size_t qlen, uint8_t *r)
{
	memcpy(r, q, qlen);
	r[2] |= XT_QR;
	return qlen;
}

/* Build a plain query and its echo in reply; returns the reply's length. */
static size_t plain_echo(void)
{
	build(EXCHANGE_PLAIN);
	return echo(out, sent.pktlen, reply);
}

/* Flip the case of every letter of the question name at r + 12. */
static void flip_case(uint8_t *r)
{
	size_t i;

	for (i = WIRE_HEADER_BYTES; i < WIRE_HEADER_BYTES + qnamelen; i++)
		if ((r[i] | 0x20) >= 'a' && (r[i] | 0x20) <= 'z')
			r[i] ^= 0x20;
}

/* ------------------------------------------------------------------ */
/* Plain                                                               */

START_TEST(plain_answer_undoes_0x20)
{
	size_t n;

	build(EXCHANGE_PLAIN);
	ck_assert(sent.mixed);
	ck_assert(wire_name_equal(out + WIRE_HEADER_BYTES, qnamelen, qname,
	                          qnamelen));
	n = echo(out, sent.pktlen, reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_OK);
	ck_assert_int_eq(bufs.why, 0);
	ck_assert_ptr_eq(msg.buf, pkt);
	ck_assert_uint_eq(msg.hdr.id, sent.id);
	/* the question is our lowercase name again, in pkt and in msg */
	ck_assert_int_eq(memcmp(pkt + WIRE_HEADER_BYTES, qname, qnamelen), 0);
	ck_assert_int_eq(memcmp(msg.q.name, qname, qnamelen), 0);
}
END_TEST

START_TEST(plain_no_0x20_keeps_name)
{
	size_t n;

	ask.mix_case = false;
	build(EXCHANGE_PLAIN);
	ck_assert(!sent.mixed);
	ck_assert_int_eq(memcmp(out + WIRE_HEADER_BYTES, qname, qnamelen), 0);
	n = echo(out, sent.pktlen, reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_OK);
}
END_TEST

START_TEST(plain_header_flags_and_edns)
{
	ask.flags = WIRE_FLAG_RD;
	ask.edns = 0;
	build(EXCHANGE_PLAIN);
	ck_assert(!sent.edns);
	ck_assert_uint_eq(out[2] & 0x01, 0x01);       /* RD */
	ck_assert_uint_eq(out[10] << 8 | out[11], 0); /* ARCOUNT: no OPT */
}
END_TEST

START_TEST(plain_wrong_id)
{
	size_t n;

	n = plain_echo();
	reply[1] ^= 0x01;
	ck_assert_int_eq(check(reply, n), EXCHANGE_EID);
	ck_assert_int_eq(bufs.why, WIRE_EID);
	ck_assert_str_eq(exchange_strerror(EXCHANGE_EID, bufs.why),
	                 wire_strerror(WIRE_EID));
}
END_TEST

START_TEST(plain_wrong_question)
{
	size_t n;

	n = plain_echo();
	reply[WIRE_HEADER_BYTES + qnamelen + 1] = WIRE_TYPE_AAAA;
	ck_assert_int_eq(check(reply, n), EXCHANGE_EQUESTION);
	ck_assert_int_eq(bufs.why, WIRE_EQUESTION);
}
END_TEST

START_TEST(plain_not_response)
{
	build(EXCHANGE_PLAIN);
	ck_assert_int_eq(check(out, sent.pktlen), EXCHANGE_ENOTRESP);
	ck_assert_int_eq(bufs.why, WIRE_ENOTRESP);
}
END_TEST

START_TEST(plain_case_lost)
{
	size_t n;

	n = plain_echo();
	flip_case(reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_ECASE);
	ck_assert_int_eq(bufs.why, WIRE_ECASE);
}
END_TEST

START_TEST(plain_case_lost_not_strict)
{
	size_t n;

	/* curvecache-query: the name as typed, any case back is fine */
	ask.strict_case = false;
	ask.mix_case = false;
	n = plain_echo();
	flip_case(reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_OK);
	/* nothing was mixed: the server's case is left as it came */
	ck_assert_int_ne(memcmp(pkt + WIRE_HEADER_BYTES, qname, qnamelen), 0);
}
END_TEST

START_TEST(plain_case_lost_strict_lowercase)
{
	size_t n;

	/* the daemon after a lost case: lowercase, still strict */
	ask.mix_case = false;
	n = plain_echo();
	flip_case(reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_ECASE);
}
END_TEST

START_TEST(plain_garbage)
{
	size_t n;

	n = plain_echo();
	ck_assert_int_eq(check(reply, WIRE_HEADER_BYTES - 1),
	                 EXCHANGE_EGARBAGE);
	ck_assert_int_eq(bufs.why, WIRE_ESHORT);
	ck_assert_int_eq(check(reply, n - 1), EXCHANGE_EGARBAGE);
	ck_assert_int_ne(bufs.why, WIRE_OK);
	ck_assert_int_eq(check(reply, 0), EXCHANGE_EGARBAGE);
}
END_TEST

START_TEST(plain_too_long)
{
	uint8_t *big = calloc(1, WIRE_MSG_MAX + 1);
	size_t n;

	ck_assert_ptr_nonnull(big);
	build(EXCHANGE_PLAIN);
	n = echo(out, sent.pktlen, big);
	(void)n;
	ck_assert_int_eq(exchange_check(&ask, &sent, &bufs, big,
	                                WIRE_MSG_MAX + 1, &msg),
	                 EXCHANGE_EGARBAGE);
	ck_assert_int_eq(bufs.why, WIRE_ESPACE);
	free(big);
}
END_TEST

START_TEST(plain_formerr)
{
	size_t n;

	n = plain_echo();
	reply[3] = XT_RCODE_FORMERR;
	ck_assert_int_eq(check(reply, n), EXCHANGE_FORMERR);
	ck_assert(msg.has_question);
	/* an old server: FORMERR, no question, no OPT (header only) */
	memset(reply + 4, 0, 8);
	ck_assert_int_eq(check(reply, WIRE_HEADER_BYTES), EXCHANGE_FORMERR);
	ck_assert(!msg.has_question);
	/* but not with another ID */
	reply[1] ^= 0x01;
	ck_assert_int_eq(check(reply, WIRE_HEADER_BYTES), EXCHANGE_EID);
}
END_TEST

START_TEST(plain_formerr_without_edns)
{
	size_t n;

	ask.edns = 0;
	n = plain_echo();
	reply[3] = XT_RCODE_FORMERR;
	ck_assert_int_eq(check(reply, n), EXCHANGE_OK);
	memset(reply + 4, 0, 8);
	ck_assert_int_eq(check(reply, WIRE_HEADER_BYTES), EXCHANGE_EQUESTION);
}
END_TEST

START_TEST(plain_formerr_case_lost)
{
	size_t n;

	/* FORMERR to EDNS and the case lost: neither the answer nor a
	 * reason to ask again in lowercase */
	n = plain_echo();
	reply[3] = XT_RCODE_FORMERR;
	flip_case(reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_EQUESTION);
	ck_assert_int_eq(bufs.why, WIRE_ECASE);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Streamlined                                                         */

/* The server's side: open the query, answer it (ID as given). */
static size_t sl_answer(const uint8_t *sk, const uint8_t *cn, int id_xor,
                        uint8_t *r)
{
	uint8_t m[WIRE_MSG_MAX], k[CURVE_KEY_BYTES];
	size_t mlen = srv_open_streamlined(out, sent.pktlen, m, k, ssk);

	ck_assert_int_eq(memcmp(k, cpk, sizeof k), 0);
	mlen = echo(m, mlen, m);
	m[1] ^= (uint8_t)id_xor;
	return srv_streamlined(cpk, cn, ext, m, mlen, r, sk);
}

START_TEST(sl_answer_opens)
{
	size_t n;

	build(EXCHANGE_STREAMLINED);
	ck_assert(!sent.mixed);
	ck_assert_int_eq(memcmp(sent.nonce, cnonce, sizeof cnonce), 0);
	n = sl_answer(ssk, cnonce, 0, reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_OK);
	ck_assert_ptr_eq(msg.buf, scratch);
	ck_assert_uint_eq(msg.hdr.id, sent.id);
	ck_assert_uint_eq(msg.len, n - CURVE_STREAMLINED_RESPONSE_OVERHEAD);
}
END_TEST

START_TEST(sl_build_wipes_scratch)
{
	size_t i;

	memset(scratch, 0xa5, sizeof scratch);
	build(EXCHANGE_STREAMLINED);
	for (i = 0; i < sent.pktlen - CURVE_STREAMLINED_QUERY_OVERHEAD; i++)
		ck_assert_uint_eq(scratch[i], 0);
}
END_TEST

START_TEST(sl_wrong_key)
{
	uint8_t pk2[CURVE_KEY_BYTES], sk2[CURVE_SECRET_BYTES];
	size_t n;

	crypto_box_keypair(pk2, sk2);
	build(EXCHANGE_STREAMLINED);
	n = sl_answer(sk2, cnonce, 0, reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_EBOX);
	ck_assert_int_eq(bufs.why, CURVE_EAUTH);
	ck_assert_str_eq(exchange_strerror(EXCHANGE_EBOX, bufs.why),
	                 curve_strerror(CURVE_EAUTH));
}
END_TEST

START_TEST(sl_wrong_nonce)
{
	uint8_t cn2[CURVE_NONCE_BYTES];
	size_t n;

	memcpy(cn2, cnonce, sizeof cn2);
	cn2[CURVE_NONCE_BYTES - 1] ^= 1;
	build(EXCHANGE_STREAMLINED);
	n = sl_answer(ssk, cn2, 0, reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_EBOX);
	ck_assert_int_eq(bufs.why, CURVE_ENONCE);
}
END_TEST

START_TEST(sl_short)
{
	size_t n;

	build(EXCHANGE_STREAMLINED);
	n = sl_answer(ssk, cnonce, 0, reply);
	ck_assert_int_eq(check(reply, CURVE_STREAMLINED_RESPONSE_OVERHEAD - 1),
	                 EXCHANGE_EBOX);
	ck_assert_int_eq(bufs.why, CURVE_ESHORT);
	reply[n - 1] ^= 1;
	ck_assert_int_eq(check(reply, n), EXCHANGE_EBOX);
	ck_assert_int_eq(bufs.why, CURVE_EAUTH);
}
END_TEST

START_TEST(sl_plain_reply)
{
	uint8_t m[WIRE_MSG_MAX], k[CURVE_KEY_BYTES];
	size_t mlen;

	build(EXCHANGE_STREAMLINED);
	mlen = srv_open_streamlined(out, sent.pktlen, m, k, ssk);
	mlen = echo(m, mlen, reply);
	ck_assert_int_eq(check(reply, mlen), EXCHANGE_EPLAIN);
	ck_assert_str_eq(exchange_strerror(EXCHANGE_EPLAIN, bufs.why),
	                 "the server answered in plain DNS, not DNSCurve");
	/* a plain query (QR clear) is no plain reply: just a bad box */
	reply[2] &= (uint8_t)~XT_QR;
	ck_assert_int_eq(check(reply, mlen), EXCHANGE_EBOX);
}
END_TEST

START_TEST(sl_inner_wrong_id)
{
	size_t n;

	build(EXCHANGE_STREAMLINED);
	n = sl_answer(ssk, cnonce, 0x01, reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_EID);
}
END_TEST

START_TEST(sl_inner_garbage)
{
	static const uint8_t junk[5] = { 1, 2, 3, 4, 5 };
	size_t n;

	build(EXCHANGE_STREAMLINED);
	n = srv_streamlined(cpk, cnonce, ext, junk, sizeof junk, reply, ssk);
	ck_assert_int_eq(check(reply, n), EXCHANGE_EGARBAGE);
	ck_assert_int_eq(bufs.why, WIRE_ESHORT);
}
END_TEST

START_TEST(sl_inner_case_not_strict)
{
	uint8_t m[WIRE_MSG_MAX], k[CURVE_KEY_BYTES];
	size_t mlen, n;

	/* no 0x20 inside a box: another case is no reason to refuse */
	build(EXCHANGE_STREAMLINED);
	mlen = srv_open_streamlined(out, sent.pktlen, m, k, ssk);
	mlen = echo(m, mlen, m);
	flip_case(m);
	n = srv_streamlined(cpk, cnonce, ext, m, mlen, reply, ssk);
	ck_assert_int_eq(check(reply, n), EXCHANGE_OK);
}
END_TEST

START_TEST(sl_inner_formerr)
{
	uint8_t m[WIRE_MSG_MAX], k[CURVE_KEY_BYTES];
	size_t mlen, n;

	build(EXCHANGE_STREAMLINED);
	ck_assert(sent.edns);
	mlen = srv_open_streamlined(out, sent.pktlen, m, k, ssk);
	mlen = echo(m, mlen, m);
	m[3] = XT_RCODE_FORMERR;
	n = srv_streamlined(cpk, cnonce, ext, m, mlen, reply, ssk);
	ck_assert_int_eq(check(reply, n), EXCHANGE_FORMERR);
}
END_TEST

/* ------------------------------------------------------------------ */
/* TXT                                                                 */

/* The server's side of the TXT format. */
static size_t txt_answer(int id_xor, uint8_t *r)
{
	uint8_t m[WIRE_MSG_MAX], k[CURVE_KEY_BYTES], cn[CURVE_NONCE_BYTES];
	size_t mlen = srv_open_txt(out, sent.pktlen, (const char *)zone_wire,
	                           zonelen, m, cn, k, ssk);

	ck_assert_int_eq(memcmp(cn, cnonce, sizeof cn), 0);
	mlen = echo(m, mlen, m);
	m[1] ^= (uint8_t)id_xor;
	return srv_txt(out, sent.pktlen, k, cn, ext, m, mlen, 255, 0, r, ssk);
}

START_TEST(txt_answer_opens)
{
	size_t n;

	build(EXCHANGE_TXT);
	n = txt_answer(0, reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_OK);
	ck_assert_ptr_eq(msg.buf, scratch);
	ck_assert_uint_eq(msg.hdr.id, sent.id);
}
END_TEST

START_TEST(txt_outer_id)
{
	size_t n;

	build(EXCHANGE_TXT);
	n = txt_answer(0, reply);
	reply[0] ^= 0x01;
	ck_assert_int_eq(check(reply, n), EXCHANGE_EBOX);
	ck_assert_int_eq(bufs.why, CURVE_EID);
}
END_TEST

START_TEST(txt_inner_wrong_id)
{
	size_t n;

	build(EXCHANGE_TXT);
	n = txt_answer(0x01, reply);
	ck_assert_int_eq(check(reply, n), EXCHANGE_EID);
}
END_TEST

START_TEST(txt_plain_reply)
{
	size_t n;

	/* a plain server: NXDOMAIN (3) for the TXT query's name */
	build(EXCHANGE_TXT);
	n = echo(out, sent.pktlen, reply);
	reply[3] = WIRE_RCODE_NXDOMAIN;
	ck_assert_int_eq(check(reply, n), EXCHANGE_EPLAIN);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Building                                                            */

START_TEST(build_rejects)
{
	ask.qnamelen = 0;
	ask.mode = EXCHANGE_PLAIN;
	ck_assert_int_eq(exchange_build(&ask, &bufs, &sent), EXCHANGE_EBUILD);
	ck_assert_int_eq(bufs.why, WIRE_ENAME);
	ask.qnamelen = qnamelen;
	bufs.out_cap = WIRE_HEADER_BYTES;
	ck_assert_int_eq(exchange_build(&ask, &bufs, &sent), EXCHANGE_EBUILD);
	ck_assert_int_eq(bufs.why, WIRE_ESPACE);
	bufs.out_cap = sizeof out;
	ask.mode = EXCHANGE_STREAMLINED;
	ask.client = NULL;
	ck_assert_int_eq(exchange_build(&ask, &bufs, &sent), EXCHANGE_ESEAL);
	ck_assert_int_eq(bufs.why, CURVE_EINVAL);
	ask.client = vc;
	ask.mode = EXCHANGE_TXT;
	ask.zone = NULL;
	ck_assert_int_eq(exchange_build(&ask, &bufs, &sent), EXCHANGE_ESEAL);
	ask.zone = XT_ZONE;
	bufs.out_cap = CURVE_STREAMLINED_QUERY_OVERHEAD;
	ask.mode = EXCHANGE_STREAMLINED;
	ck_assert_int_eq(exchange_build(&ask, &bufs, &sent), EXCHANGE_ESEAL);
	ck_assert_int_eq(bufs.why, CURVE_ESPACE);
}
END_TEST

START_TEST(check_without_client)
{
	size_t n;

	build(EXCHANGE_STREAMLINED);
	n = sl_answer(ssk, cnonce, 0, reply);
	ask.client = NULL;
	ck_assert_int_eq(check(reply, n), EXCHANGE_EBOX);
	ck_assert_int_eq(bufs.why, CURVE_EINVAL);
}
END_TEST

START_TEST(ids_differ)
{
	uint16_t first;
	int i, same = 0;

	ask.mode = EXCHANGE_PLAIN;
	build(EXCHANGE_PLAIN);
	first = sent.id;
	for (i = 0; i < 8; i++) {
		build(EXCHANGE_PLAIN);
		same += sent.id == first;
	}
	ck_assert_int_lt(same, 8);
}
END_TEST

static Suite *exchange_suite(void)
{
	Suite *s = suite_create("exchange");
	TCase *p = tcase_create("plain"), *c = tcase_create("curve");
	TCase *b = tcase_create("build");

	tcase_add_checked_fixture(p, setup, vec_teardown);
	tcase_add_checked_fixture(c, setup, vec_teardown);
	tcase_add_checked_fixture(b, setup, vec_teardown);
	tcase_add_test(p, plain_answer_undoes_0x20);
	tcase_add_test(p, plain_no_0x20_keeps_name);
	tcase_add_test(p, plain_header_flags_and_edns);
	tcase_add_test(p, plain_wrong_id);
	tcase_add_test(p, plain_wrong_question);
	tcase_add_test(p, plain_not_response);
	tcase_add_test(p, plain_case_lost);
	tcase_add_test(p, plain_case_lost_not_strict);
	tcase_add_test(p, plain_case_lost_strict_lowercase);
	tcase_add_test(p, plain_garbage);
	tcase_add_test(p, plain_too_long);
	tcase_add_test(p, plain_formerr);
	tcase_add_test(p, plain_formerr_without_edns);
	tcase_add_test(p, plain_formerr_case_lost);
	tcase_add_test(c, sl_answer_opens);
	tcase_add_test(c, sl_build_wipes_scratch);
	tcase_add_test(c, sl_wrong_key);
	tcase_add_test(c, sl_wrong_nonce);
	tcase_add_test(c, sl_short);
	tcase_add_test(c, sl_plain_reply);
	tcase_add_test(c, sl_inner_wrong_id);
	tcase_add_test(c, sl_inner_garbage);
	tcase_add_test(c, sl_inner_case_not_strict);
	tcase_add_test(c, sl_inner_formerr);
	tcase_add_test(c, txt_answer_opens);
	tcase_add_test(c, txt_outer_id);
	tcase_add_test(c, txt_inner_wrong_id);
	tcase_add_test(c, txt_plain_reply);
	tcase_add_test(c, check_without_client);
	tcase_add_test(b, build_rejects);
	tcase_add_test(b, ids_differ);
	suite_add_tcase(s, p);
	suite_add_tcase(s, c);
	suite_add_tcase(s, b);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(exchange_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
