/*
 * tests/unit/check_curve_proto.c - TCases "vectors" (every vector of
 * tests/vectors/dnscurve.vec, CurveDNS captures included) and "reject" (every
 * rejection path of the streamlined and TXT openers).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ares.h>
#include "curvetest.h"

/* ------------------------------------------------------------------ */
/* vectors                                                             */

START_TEST(test_vectors_keys_nonces)
{
	uint8_t a[64], b[64], csk[32], cpk[32], k[32];
	size_t n;

	/* Public keys follow from the secret keys. */
	vec_bytes("client_sk", csk, sizeof csk);
	vec_key("client_pk", a);
	curve_client_pk(vc, cpk);
	ck_assert_int_eq(memcmp(a, cpk, 32), 0);
	ck_assert_int_eq(crypto_scalarmult_base(b, ssk), 0);
	ck_assert_int_eq(memcmp(b, spk, 32), 0);
	/* Shared key, from both sides. */
	vec_key("shared_key", a);
	ck_assert_int_eq(crypto_box_beforenm(k, spk, csk), 0);
	ck_assert_int_eq(memcmp(k, a, 32), 0);
	ck_assert_int_eq(crypto_box_beforenm(k, cpk, ssk), 0);
	ck_assert_int_eq(memcmp(k, a, 32), 0);
	/* Nonces. */
	ck_assert_uint_eq(vec_bytes("client_nonce", a, sizeof a), 12);
	ck_assert_int_eq(memcmp(a, cnonce, 12), 0);
	ck_assert_uint_eq(vec_bytes("query_nonce", a, sizeof a), 24);
	memset(b, 0, 24);
	memcpy(b, cnonce, 12);
	ck_assert_int_eq(memcmp(a, b, 24), 0);
	n = vec_bytes("server_ext", b + 12, 12);
	ck_assert_uint_eq(n, 12);
	ck_assert_uint_eq(vec_bytes("response_nonce", a, sizeof a), 24);
	ck_assert_int_eq(memcmp(a, b, 24), 0);
	/* A client with counter 1 produces the counter part of the vector. */
	curve_client_set_counter(vc, 1);
	ck_assert_int_eq(curve_nonce_next(vc, a), CURVE_OK);
	ck_assert_int_eq(memcmp(a, cnonce, 8), 0);
}
END_TEST

/* The response of vector resp_name opens to the vector inner_name: a
 * streamlined one (q NULL), or a TXT one to the query q (ql bytes). The
 * bytes the box added. */
static size_t opens_to(const uint8_t *q, size_t ql, const char *resp_name,
                       const char *inner_name)
{
	uint8_t resp[1024], out[1024], exp[512];
	size_t rl = vec_bytes(resp_name, resp, sizeof resp),
	       el = vec_bytes(inner_name, exp, sizeof exp), n = 0;

	if (q == NULL)
		ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, resp,
		                                        rl, out, sizeof out,
		                                        &n),
		                 CURVE_OK);
	else
		ck_assert_int_eq(curve_txt_response_open(vc, spk, cnonce, q,
		                                         ql, resp, rl, out,
		                                         sizeof out, &n),
		                 CURVE_OK);
	ck_assert_uint_eq(n, el);
	ck_assert_int_eq(memcmp(out, exp, el), 0);
	return rl - el;
}

START_TEST(test_vectors_streamlined)
{
	uint8_t q[64], pkt[256], exp[256], box[64];
	size_t ql = vec_bytes("inner_query", q, sizeof q), n = 0, el;

	ck_assert_int_eq(curve_streamlined_box(vc, spk, cnonce, q, ql, pkt,
	                                       sizeof pkt, &n),
	                 CURVE_OK);
	el = vec_bytes("streamlined_query", exp, sizeof exp);
	ck_assert_uint_eq(n, el);
	ck_assert_int_eq(memcmp(pkt, exp, n), 0);
	ck_assert_uint_eq(vec_bytes("query_box", box, sizeof box), ql + 16);
	ck_assert_int_eq(memcmp(pkt + 52, box, ql + 16), 0);

	ck_assert_uint_eq(opens_to(NULL, 0, "streamlined_response",
	                           "inner_response"),
	                  CURVE_STREAMLINED_RESPONSE_OVERHEAD);
}
END_TEST

START_TEST(test_vectors_txt)
{
	uint8_t q[64], pkt[512], exp[512];
	char copy[4096], *f[4], zone[64] = "";
	size_t ql = vec_bytes("inner_query", q, sizeof q), n = 0, el, i;
	size_t pos = 12, labels = 0;

	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 0xabcd,
	                                       "curve.test", q, ql, pkt,
	                                       sizeof pkt, &n),
	                 CURVE_OK);
	el = vec_bytes("txt_query", exp, sizeof exp);
	ck_assert_uint_eq(n, el);
	ck_assert_int_eq(memcmp(pkt, exp, n), 0);
	el = vec_bytes("txt_qname_wire", exp, sizeof exp);
	ck_assert_int_eq(memcmp(pkt + 12, exp, el), 0);
	ck_assert_uint_eq(n, 12 + el + 4);
	/* The label listing of the document. */
	for (i = 0; i < vec_count; i++) {
		size_t nf = vec_fields(vec_line[i], f, 4, copy, sizeof copy);

		if (nf == 3 && strcmp(f[0], "txt_label") == 0) {
			ck_assert_uint_eq(strtoul(f[1], NULL, 10),
			                  strlen(f[2]));
			ck_assert_uint_eq(pkt[pos], strlen(f[2]));
			ck_assert_int_eq(memcmp(pkt + pos + 1, f[2],
			                        strlen(f[2])),
			                 0);
			pos += 1 + strlen(f[2]);
			labels++;
		} else if (nf == 2 && strcmp(f[0], "txt_zone") == 0) {
			strcpy(zone, f[1]);
		}
	}
	ck_assert_uint_eq(labels, 3);
	ck_assert_str_eq(zone, "curve.test");
	ck_assert_uint_eq(wire_name(zone, exp), 12);
	ck_assert_int_eq(memcmp(pkt + pos, exp, 12), 0);

	(void)opens_to(pkt, n, "txt_response", "inner_response");
}
END_TEST

/* The split-RDATA vector opens; rebuilding it from the plaintext with
 * 255-byte strings gives the same 575 bytes. */
START_TEST(test_vectors_txt_split)
{
	uint8_t q[64], tq[512], resp[1024], out[1024], again[1024], ext[12];
	uint8_t cpk[32];
	size_t ql = vec_bytes("inner_query", q, sizeof q), tl, rl, n = 0;

	tl = vec_bytes("txt_query", tq, sizeof tq);
	rl = vec_bytes("txt_response_split", resp, sizeof resp);
	ck_assert_uint_eq(rl, 575);
	ck_assert_int_eq(curve_txt_response_open(vc, spk, cnonce, tq, tl, resp,
	                                         rl, out, sizeof out, &n),
	                 CURVE_OK);
	ck_assert_uint_eq(n, 352);
	ck_assert_uint_eq(out[0], 0x12);
	ck_assert_uint_eq(out[1], 0x34);
	ck_assert_uint_eq(out[7], 20); /* 20 A records */
	/* RDLENGTH 382 = strings of [255, 125]. */
	ck_assert_uint_eq(resp[tl + 10] * 256 + resp[tl + 11], 382);
	ck_assert_uint_eq(resp[tl + 12], 255);
	ck_assert_uint_eq(resp[tl + 12 + 256], 125);
	vec_bytes("server_ext", ext, sizeof ext);
	curve_client_pk(vc, cpk);
	ck_assert_uint_eq(srv_txt(tq, tl, cpk, cnonce, ext, out, n, 255, 0,
	                          again, ssk),
	                  rl);
	ck_assert_int_eq(memcmp(again, resp, rl), 0);
	(void)ql;
}
END_TEST

START_TEST(test_vectors_curvedns)
{
	uint8_t tq[512];
	size_t tl;

	(void)opens_to(NULL, 0, "curvedns_streamlined_response",
	               "curvedns_streamlined_inner");
	tl = vec_bytes("txt_query", tq, sizeof tq);
	(void)opens_to(tq, tl, "curvedns_txt_response", "curvedns_txt_inner");
}
END_TEST

/* Every block of the file has the byte count the document states (the
 * check is in vec_bytes), and the server-side opener agrees with ours. */
START_TEST(test_vectors_blocks)
{
	static const char *blocks[] = {
		"ns_wire",
		"inner_query",
		"query_box",
		"streamlined_query",
		"inner_response",
		"streamlined_response",
		"txt_qname_wire",
		"txt_query",
		"txt_response",
		"txt_response_split",
		"curvedns_streamlined_response",
		"curvedns_streamlined_inner",
		"curvedns_txt_response",
		"curvedns_txt_inner",
	};
	uint8_t buf[1024], m[256], q[64], cpk[32], mycpk[32];
	size_t i, n;

	for (i = 0; i < sizeof blocks / sizeof blocks[0]; i++)
		ck_assert_uint_gt(vec_bytes(blocks[i], buf, sizeof buf), 0);
	n = vec_bytes("streamlined_query", buf, sizeof buf);
	n = srv_open_streamlined(buf, n, m, cpk, ssk);
	ck_assert_uint_eq(n, vec_bytes("inner_query", q, sizeof q));
	ck_assert_int_eq(memcmp(m, q, n), 0);
	curve_client_pk(vc, mycpk);
	ck_assert_int_eq(memcmp(cpk, mycpk, 32), 0);
}
END_TEST

/* ------------------------------------------------------------------ */
/* reject                                                              */

START_TEST(test_reject_streamlined_vectors)
{
	char copy[4096], *f[5];
	uint8_t resp[128], bad[128];
	size_t rl = vec_bytes("streamlined_response", resp, sizeof resp);
	size_t i, n, off, rows = 0, len;

	ck_assert_int_eq(open_sl(resp, rl, spk, cnonce), CURVE_OK);
	for (i = 0; i < vec_count; i++) {
		n = vec_fields(vec_line[i], f, 5, copy, sizeof copy);
		if (n < 4 || strcmp(f[0], "sl_reject") != 0)
			continue;
		rows++;
		memcpy(bad, resp, rl);
		len = rl;
		if (strcmp(f[1], "xor") == 0) {
			off = strcmp(f[2], "last") == 0 ?
			              rl - 1 :
			              strtoul(f[2], NULL, 10);
			bad[off] ^= (uint8_t)strtoul(f[3], NULL, 16);
		} else if (strcmp(f[1], "magic") == 0) {
			ck_assert_uint_eq(strlen(f[2]), 8);
			memcpy(bad, f[2], 8);
			ck_assert_int_eq(memcmp(bad,
			                        "\x52\x36\x66\x6e\x76\x57"
			                        "\x6a\x38",
			                        8),
			                 0);
		} else {
			ck_assert_str_eq(f[1], "cut");
			len = strtoul(f[2], NULL, 10);
		}
		ck_assert_int_eq(open_sl(bad, len, spk, cnonce),
		                 status_of(f[n - 1]));
	}
	ck_assert_uint_eq(rows, 5);
}
END_TEST

START_TEST(test_reject_wrong_key_nonce)
{
	uint8_t resp[128], key2[32], n2[12], cd[256];
	size_t rl = vec_bytes("streamlined_response", resp, sizeof resp);
	size_t cl = vec_bytes("curvedns_streamlined_response", cd, sizeof cd);

	vec_serverkey(0, key2);
	ck_assert_int_eq(memcmp(key2, spk, 32), 0);
	ck_assert_int_eq(open_sl(resp, rl, key2, cnonce), CURVE_OK);
	/* The second test key: the box does not open. */
	vec_serverkey(1, key2);
	ck_assert_int_eq(open_sl(resp, rl, key2, cnonce), CURVE_EAUTH);
	ck_assert_int_eq(open_sl(cd, cl, key2, cnonce), CURVE_EAUTH);
	/* A nonce we did not send (each byte in turn). */
	for (size_t i = 0; i < sizeof n2; i++) {
		memcpy(n2, cnonce, sizeof n2);
		n2[i] ^= 0x80;
		ck_assert_int_eq(open_sl(resp, rl, spk, n2), CURVE_ENONCE);
		ck_assert_int_eq(open_sl(cd, cl, spk, n2), CURVE_ENONCE);
	}
}
END_TEST

/* Our own query box sent back as a response with a zero server nonce
 * would open (same key, same nonce): it must be refused first. */
START_TEST(test_reject_reflected_query)
{
	uint8_t q[64], pkt[256], refl[256], out[256], key[32], n24[24] = { 0 };
	size_t ql = vec_bytes("inner_query", q, sizeof q), n = 0, len;

	ck_assert_int_eq(curve_streamlined_box(vc, spk, cnonce, q, ql, pkt,
	                                       sizeof pkt, &n),
	                 CURVE_OK);
	memcpy(refl, "R6fnvWJ8", 8);
	memcpy(refl + 8, cnonce, 12);
	memset(refl + 20, 0, 12);
	memcpy(refl + 32, pkt + 52, n - 52);
	len = 32 + n - 52;
	/* It really would open under the shared key... */
	vec_key("shared_key", key);
	memcpy(n24, cnonce, 12);
	ck_assert_int_eq(crypto_box_open_easy_afternm(out, refl + 32, len - 32,
	                                              n24, key),
	                 0);
	ck_assert_int_eq(memcmp(out, q, ql), 0);
	/* ... so it is dropped before opening. */
	ck_assert_int_eq(open_sl(refl, len, spk, cnonce), CURVE_ENONCE);
}
END_TEST

START_TEST(test_reject_plain_and_space)
{
	static const uint8_t notimp[12] = { 0x51, 0x36, 0x80, 0x04 };
	uint8_t resp[128], out[64], big[8];
	size_t rl = vec_bytes("streamlined_response", resp, sizeof resp);
	size_t n = 7;

	/* CurveDNS's plain NOTIMP to an unopenable query ("Q6" as ID). */
	ck_assert_int_eq(open_sl(notimp, sizeof notimp, spk, cnonce),
	                 CURVE_ESHORT);
	/* Output one byte too small; then exactly big enough. */
	memset(out, 0xa5, sizeof out);
	ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, resp, rl, out,
	                                        rl - 49, &n),
	                 CURVE_ESPACE);
	ck_assert_uint_eq(out[0], 0xa5);
	ck_assert_uint_eq(n, 7);
	ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, resp, rl, out,
	                                        rl - 48, &n),
	                 CURVE_OK);
	ck_assert_uint_eq(n, rl - 48);
	ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, resp, rl,
	                                        NULL, 0, &n),
	                 CURVE_ESPACE);
	ck_assert_int_eq(curve_streamlined_open(NULL, spk, cnonce, resp, rl,
	                                        out, sizeof out, &n),
	                 CURVE_EINVAL);
	/* A low-order server key has no shared key. */
	memset(big, 0, sizeof big);
	{
		uint8_t zero[32] = { 0 }, pkt[128];

		ck_assert_int_eq(curve_streamlined_box(vc, zero, cnonce, resp,
		                                       8, pkt, sizeof pkt, &n),
		                 CURVE_ECRYPTO);
	}
}
END_TEST

/* Flip one byte of the vector response and expect status st. */
static void txt_flip(size_t off, uint8_t x, int st)
{
	uint8_t bad[1024];

	memcpy(bad, txr, txrl);
	bad[off] ^= x;
	ck_assert_msg(open_txt(bad, txrl) == st, "offset %zu ^ %02x: %d", off,
	              x, open_txt(bad, txrl));
}

START_TEST(test_reject_txt_header)
{
	size_t i;

	ck_assert_int_eq(open_txt(txr, txrl), CURVE_OK);
	txt_flip(0, 0x01, CURVE_EID);
	txt_flip(1, 0x80, CURVE_EID);
	txt_flip(2, 0x80, CURVE_EFORMAT); /* QR clear */
	txt_flip(2, 0x04, CURVE_EFORMAT); /* AA clear */
	txt_flip(2, 0x08, CURVE_EFORMAT); /* opcode 1 */
	txt_flip(2, 0x40, CURVE_EFORMAT); /* opcode 8 */
	txt_flip(2, 0x02, CURVE_EFORMAT); /* TC */
	txt_flip(3, 0x03, CURVE_EFORMAT); /* NXDOMAIN */
	txt_flip(3, 0x05, CURVE_EFORMAT); /* REFUSED */
	txt_flip(2, 0x01, CURVE_OK);      /* RD is not checked */
	txt_flip(3, 0x80, CURVE_OK);      /* nor RA */
	for (i = 4; i < 12; i++) {        /* counts 1/1/0/0 only */
		txt_flip(i, 0x01, CURVE_EFORMAT);
		txt_flip(i, 0x10, CURVE_EFORMAT);
	}
}
END_TEST

START_TEST(test_reject_txt_question)
{
	size_t i;

	/* Any change to the echoed question, byte by byte (0x20 case of a
	 * letter too: the echo must be verbatim). */
	for (i = 12; i < txql; i++) {
		txt_flip(i, 0x20, CURVE_EQUESTION);
		txt_flip(i, 0x01, CURVE_EQUESTION);
	}
}
END_TEST

START_TEST(test_reject_txt_answer)
{
	uint8_t bad[1024], out[2048], ext[12], cpk[32], m[64];
	size_t a = txql, ml = vec_bytes("inner_response", m, sizeof m), n;

	vec_bytes("server_ext", ext, sizeof ext);
	curve_client_pk(vc, cpk);
	txt_flip(a + 1, 0x01, CURVE_EFORMAT); /* pointer c00d */
	/* A pointer to a valid name, but not the question's: "curve.test". */
	ck_assert_uint_eq(txr[a - 4 - 12], 5);
	txt_flip(a + 1, 0x0c ^ (uint8_t)(a - 4 - 12), CURVE_EFORMAT);
	txt_flip(a, 0x40, CURVE_EFORMAT);      /* 0x80: reserved bits */
	txt_flip(a + 3, 0x11, CURVE_EFORMAT);  /* TYPE A */
	txt_flip(a + 2, 0x01, CURVE_EFORMAT);  /* TYPE 272 */
	txt_flip(a + 5, 0x02, CURVE_EFORMAT);  /* CLASS CH */
	txt_flip(a + 9, 0x01, CURVE_EFORMAT);  /* TTL 1 */
	txt_flip(a + 6, 0x80, CURVE_EFORMAT);  /* TTL 2^31 */
	txt_flip(a + 11, 0x01, CURVE_EFORMAT); /* RDLENGTH 76: 1 left over */
	txt_flip(a + 12, 0x01, CURVE_EFORMAT); /* string length past RDATA */
	txt_flip(a + 13, 0x01, CURVE_EAUTH);   /* server nonce */
	txt_flip(txrl - 1, 0x01, CURVE_EAUTH); /* box */
	txt_flip(a + 12 + 13, 0x01, CURVE_EAUTH); /* authenticator */
	/* RDLENGTH 78: more than the packet. */
	memcpy(bad, txr, txrl);
	bad[a + 11] = 78;
	ck_assert_int_eq(open_txt(bad, txrl), CURVE_ESHORT);
	/* A trailing byte after RDATA. */
	memcpy(bad, txr, txrl);
	bad[txrl] = 0;
	ck_assert_int_eq(open_txt(bad, txrl + 1), CURVE_EFORMAT);
	/* RDLENGTH 0 (and nothing after). */
	memcpy(bad, txr, txrl);
	bad[a + 11] = 0;
	ck_assert_int_eq(open_txt(bad, a + 12), CURVE_EFORMAT);
	/* The literal owner name is accepted; a different literal is not. */
	n = srv_txt(txq, txql, cpk, cnonce, ext, m, ml, 255, 1, bad, ssk);
	ck_assert_uint_eq(n, txrl + txql - 16 - 2);
	ck_assert_int_eq(open_txt(bad, n), CURVE_OK);
	bad[a + 5] ^= 0x01;
	ck_assert_int_eq(open_txt(bad, n), CURVE_EFORMAT);
	bad[a + 5] ^= 0x01;
	ck_assert_int_eq(open_txt(bad, n - 1), CURVE_ESHORT);
	/* Zero server nonce: refused before opening. */
	memset(ext, 0, sizeof ext);
	n = srv_txt(txq, txql, cpk, cnonce, ext, m, ml, 255, 0, bad, ssk);
	ck_assert_int_eq(open_txt(bad, n), CURVE_ENONCE);
	/* Data shorter than nonce + authenticator. */
	memcpy(bad, txr, txrl);
	bad[a + 11] = 28;
	bad[a + 12] = 27;
	ck_assert_int_eq(open_txt(bad, a + 12 + 28), CURVE_ESHORT);
	/* An empty string before the data, and 1-byte strings: fine. */
	n = srv_txt(txq, txql, cpk, cnonce,
	            (const uint8_t *)"\1\2\3\4\5\6\7"
	                             "\10\11\12\13\14",
	            m, ml, 1, 0, bad, ssk);
	ck_assert_int_eq(open_txt(bad, n), CURVE_OK);
	/* Output one byte too small. */
	memset(out, 0xa5, sizeof out);
	ck_assert_int_eq(curve_txt_response_open(vc, spk, cnonce, txq, txql,
	                                         txr, txrl, out, ml - 1, &n),
	                 CURVE_ESPACE);
	ck_assert_uint_eq(out[0], 0xa5);
}
END_TEST

START_TEST(test_reject_txt_plain)
{
	uint8_t bad[1024];

	/* A plain NXDOMAIN to the TXT query (question echoed, no answer). */
	memcpy(bad, txq, txql);
	bad[2] = 0x84;
	bad[3] = 0x03;
	ck_assert_int_eq(open_txt(bad, txql), CURVE_EFORMAT);
	/* A plain NOERROR with no answer. */
	bad[3] = 0;
	ck_assert_int_eq(open_txt(bad, txql), CURVE_EFORMAT);
	/* The streamlined vector response is no TXT response. */
	ck_assert_int_eq(open_txt((const uint8_t *)"R6fnvWJ8\0\0\0\0\0\0\0\1"
	                                           "\xa1\xb2\xc3\xd4",
	                          20),
	                 CURVE_EID);
	/* Wrong key. */
	{
		uint8_t key2[32], out[128], *p = exact(txr, txrl);
		size_t n;

		vec_serverkey(1, key2);
		ck_assert_int_eq(curve_txt_response_open(vc, key2, cnonce, txq,
		                                         txql, p, txrl, out,
		                                         sizeof out, &n),
		                 CURVE_EAUTH);
		free(p);
	}
	/* A query that is not a query. */
	{
		uint8_t out[128];
		size_t n;

		ck_assert_int_eq(curve_txt_response_open(vc, spk, cnonce, txq,
		                                         16, txr, txrl, out,
		                                         sizeof out, &n),
		                 CURVE_EINVAL);
		ck_assert_int_eq(curve_txt_response_open(vc, spk, cnonce, txq,
		                                         txql - 1, txr, txrl,
		                                         out, sizeof out, &n),
		                 CURVE_EINVAL);
	}
}
END_TEST

/* ------------------------------------------------------------------ */

/** Add the TCases "vectors" and "reject". */
void check_curve_add_proto(Suite *s)
{
	TCase *tc;

	tc = tcase_create("vectors");
	tcase_add_checked_fixture(tc, vec_setup, vec_teardown);
	tcase_add_test(tc, test_vectors_keys_nonces);
	tcase_add_test(tc, test_vectors_streamlined);
	tcase_add_test(tc, test_vectors_txt);
	tcase_add_test(tc, test_vectors_txt_split);
	tcase_add_test(tc, test_vectors_curvedns);
	tcase_add_test(tc, test_vectors_blocks);
	suite_add_tcase(s, tc);

	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, txt_setup, vec_teardown);
	tcase_add_test(tc, test_reject_streamlined_vectors);
	tcase_add_test(tc, test_reject_wrong_key_nonce);
	tcase_add_test(tc, test_reject_reflected_query);
	tcase_add_test(tc, test_reject_plain_and_space);
	tcase_add_test(tc, test_reject_txt_header);
	tcase_add_test(tc, test_reject_txt_question);
	tcase_add_test(tc, test_reject_txt_answer);
	tcase_add_test(tc, test_reject_txt_plain);
	suite_add_tcase(s, tc);
}
