/*
 * tests/unit/check_curve_txt.c - TCases "txt" (query building with and
 * without c-ares, round trips through the test server) and "limits"
 * (truncations at every length, sizes, large messages).
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
/* txt                                                                 */

/* Build a TXT query for an inner query of ql bytes, have the test server
 * open it, answer with strings of `chunk` bytes, and open the answer. */
static void txt_roundtrip(size_t ql, const char *zone, size_t chunk,
                          int literal)
{
	static uint8_t q[5000], pkt[BIG], m[5000], resp[BIG], out[5000];
	uint8_t zw[300], cn[12], cpk[32], ext[12], mycpk[32];
	size_t n = 0, zl, ml, rl, ol = 0, i;

	for (i = 0; i < ql; i++)
		q[i] = (uint8_t)(i * 7 + ql);
	zl = wire_name(strcmp(zone, ".") == 0 ? "" : zone, zw);
	if (zl > 1 && zone[strlen(zone) - 1] == '.')
		zl = wire_name(strcmp(zone, ".") ? zone : "", zw);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 0x4242, zone,
	                                       q, ql, pkt, sizeof pkt, &n),
	                 CURVE_OK);
	ml = srv_open_txt(pkt, n, (const char *)zw, zl, m, cn, cpk, ssk);
	ck_assert_uint_eq(ml, ql);
	ck_assert_int_eq(memcmp(m, q, ql), 0);
	ck_assert_int_eq(memcmp(cn, cnonce, 12), 0);
	curve_client_pk(vc, mycpk);
	ck_assert_int_eq(memcmp(cpk, mycpk, 32), 0);
	randombytes_buf(ext, sizeof ext);
	rl = srv_txt(pkt, n, cpk, cn, ext, q, ql, chunk, literal, resp, ssk);
	ck_assert_int_eq(curve_txt_response_open(vc, spk, cnonce, pkt, n, resp,
	                                         rl, out, sizeof out, &ol),
	                 CURVE_OK);
	ck_assert_uint_eq(ol, ql);
	ck_assert_int_eq(memcmp(out, q, ql), 0);
}

/* The text name trimmed of a final dot, for wire_name. */
START_TEST(test_txt_roundtrip_sizes)
{
	size_t ql;

	for (ql = 0; ql <= 600; ql += (ql < 130 ? 1 : 37))
		txt_roundtrip(ql, "curve.test", 255, ql % 2);
	txt_roundtrip(17, "curve.test", 1, 0);
	txt_roundtrip(300, "curve.test", 100, 1);
	txt_roundtrip(CURVE_TXT_MAX_QUERY, "curve.test", 255, 0);
}
END_TEST

START_TEST(test_txt_zones)
{
	uint8_t q[32] = { 0x12, 0x34 }, a[600], b[600];
	size_t na = 0, nb = 0;
	char zone[300];

	txt_roundtrip(32, "a", 255, 0);
	txt_roundtrip(32, "x.onion", 255, 0); /* c-ares refuses .onion */
	/* "zone." is "zone"; "." and "" are the root. */
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1,
	                                       "curve.test", q, 32, a,
	                                       sizeof a, &na),
	                 CURVE_OK);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1,
	                                       "curve.test.", q, 32, b,
	                                       sizeof b, &nb),
	                 CURVE_OK);
	ck_assert_uint_eq(na, nb);
	ck_assert_int_eq(memcmp(a, b, na), 0);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, ".", q, 32,
	                                       a, sizeof a, &na),
	                 CURVE_OK);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, "", q, 32,
	                                       b, sizeof b, &nb),
	                 CURVE_OK);
	ck_assert_uint_eq(na, nb);
	ck_assert_int_eq(memcmp(a, b, na), 0);
	ck_assert_uint_eq(na, 181 - 11);
	ck_assert_uint_eq(a[na - 5], 0); /* root after the x1a label */
	/* Bad zones. */
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, "a..b", q,
	                                       32, a, sizeof a, &na),
	                 CURVE_ENAME);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, ".a", q, 32,
	                                       a, sizeof a, &na),
	                 CURVE_ENAME);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, "a\\.b", q,
	                                       32, a, sizeof a, &na),
	                 CURVE_ENAME);
	memset(zone, 'z', 64);
	zone[64] = '\0';
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, zone, q, 32,
	                                       a, sizeof a, &na),
	                 CURVE_ENAME);
	zone[63] = '\0';
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, zone, q, 32,
	                                       a, sizeof a, &na),
	                 CURVE_OK);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, NULL, q, 32,
	                                       a, sizeof a, &na),
	                 CURVE_EINVAL);
}
END_TEST

/* The QNAME boundary of c-ares: 255 bytes built by ares_create_query,
 * 256+ by our code; both give what our own writer gives. */
START_TEST(test_txt_cares_boundary)
{
	uint8_t q[200], pkt[1024], own[1024], data[300], zw[16], cpk[32];
	size_t ql, n = 0, on = 0, zl = wire_name("curve.test", zw), qn;
	unsigned char *buf = NULL;
	int blen = 0, seen255 = 0, seen257 = 0;
	char text[400];

	memset(q, 0x33, sizeof q);
	curve_client_pk(vc, cpk);
	for (ql = 60; ql < 120; ql++) {
		ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 7,
		                                       "curve.test", q, ql,
		                                       pkt, sizeof pkt, &n),
		                 CURVE_OK);
		qn = n - 16;
		/* Same bytes from our own writer. */
		memcpy(data, cnonce, 12);
		memcpy(data + 12, pkt + 0, 0);
		{
			uint8_t m[200], cn[12], k[32];
			size_t ml = srv_open_txt(pkt, n, (const char *)zw, zl,
			                         m, cn, k, ssk);

			ck_assert_uint_eq(ml, ql);
		}
		/* Recover nonce | box from the name and rewrite it. */
		{
			char b32[400];
			size_t pos = 12, nb = 0, dl = 0;

			while (pkt[pos] != 54) {
				memcpy(b32 + nb, pkt + pos + 1, pkt[pos]);
				nb += pkt[pos];
				pos += 1 + pkt[pos];
			}
			ck_assert_int_eq(curve_base32_decode(data, sizeof data,
			                                     &dl, b32, nb),
			                 CURVE_OK);
			ck_assert_int_eq(curve_txt_qname_write(own, sizeof own,
			                                       &on, data, dl,
			                                       cpk, zw, zl),
			                 CURVE_OK);
			ck_assert_int_eq(curve_txt_qname_write(own, on - 1,
			                                       &on, data, dl,
			                                       cpk, zw, zl),
			                 CURVE_ESPACE);
			ck_assert_int_eq(curve_txt_qname_write(own, sizeof own,
			                                       &on, data, dl,
			                                       cpk, zw, zl),
			                 CURVE_OK);
		}
		ck_assert_uint_eq(on, qn);
		ck_assert_int_eq(memcmp(own, pkt + 12, qn), 0);
		seen255 |= qn == 255;
		seen257 |= qn == 257;
		/* What c-ares itself does with this name. */
		{
			size_t pos = 12, tl = 0;

			while (pkt[pos] != 0) {
				memcpy(text + tl, pkt + pos + 1, pkt[pos]);
				tl += pkt[pos];
				pos += 1 + pkt[pos];
				text[tl++] = '.';
			}
			text[tl - 1] = '\0';
		}
		ck_assert_int_eq(ares_create_query(text, 1, 16, 7, 0, &buf,
		                                   &blen, 0),
		                 qn <= 255 ? ARES_SUCCESS : ARES_EBADNAME);
		if (buf != NULL) {
			ck_assert_int_eq(blen, (int)n);
			ck_assert_int_eq(memcmp(buf, pkt, n), 0);
			ares_free_string(buf);
			buf = NULL;
		}
	}
	ck_assert(seen255 && seen257);
}
END_TEST

START_TEST(test_txt_space)
{
	uint8_t q[40] = { 0 }, pkt[600];
	size_t n = 0, need;

	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1,
	                                       "curve.test", q, 32, pkt,
	                                       sizeof pkt, &need),
	                 CURVE_OK);
	ck_assert_uint_eq(need, 181);
	memset(pkt, 0xee, sizeof pkt);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1,
	                                       "curve.test", q, 32, pkt,
	                                       need - 1, &n),
	                 CURVE_ESPACE);
	ck_assert_uint_eq(pkt[0], 0xee);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1,
	                                       "curve.test", q,
	                                       CURVE_TXT_MAX_QUERY + 1, pkt,
	                                       sizeof pkt, &n),
	                 CURVE_EINVAL);
	/* A long name needs room too (our own writer). */
	{
		static uint8_t big[8000], qq[400];

		ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1,
		                                       "curve.test", qq, 400,
		                                       big, sizeof big, &need),
		                 CURVE_OK);
		ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1,
		                                       "curve.test", qq, 400,
		                                       big, need - 1, &n),
		                 CURVE_ESPACE);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* limits                                                              */

START_TEST(test_limits_constants)
{
	int i, j;

	ck_assert_int_eq(CURVE_STREAMLINED_QUERY_OVERHEAD, 68);
	ck_assert_int_eq(CURVE_STREAMLINED_RESPONSE_OVERHEAD, 48);
	ck_assert_int_eq(CURVE_BASE32_LEN(CURVE_KEY_BYTES), 52);
	ck_assert_int_eq(CURVE_KEYLABEL_LEN, 54);
	ck_assert_int_eq(CURVE_NONCE_BYTES + 12, crypto_box_NONCEBYTES);
	/* Every status has its own text. */
	for (i = CURVE_OK; i <= CURVE_ECRYPTO; i++) {
		ck_assert_ptr_nonnull(curve_strerror(i));
		ck_assert_str_ne(curve_strerror(i), curve_strerror(-1));
		for (j = CURVE_OK; j < i; j++)
			ck_assert_str_ne(curve_strerror(i), curve_strerror(j));
	}
	ck_assert_str_eq(curve_strerror(999), curve_strerror(-1));
}
END_TEST

/* Every truncation of a good response is refused without reading past
 * its length (each copy is malloc'd to exactly that size for ASan). */
START_TEST(test_limits_truncation)
{
	static const char *sl[] = { "streamlined_response",
		                    "curvedns_streamlined_response" };
	static const char *tx[] = { "txt_response", "txt_response_split",
		                    "curvedns_txt_response" };
	uint8_t pkt[1024];
	size_t i, len, cut;
	int st;

	for (i = 0; i < 2; i++) {
		len = vec_bytes(sl[i], pkt, sizeof pkt);
		ck_assert_int_eq(open_sl(pkt, len, spk, cnonce), CURVE_OK);
		for (cut = 0; cut < len; cut++) {
			st = open_sl(pkt, cut, spk, cnonce);
			ck_assert_int_eq(st, cut < 48 ? CURVE_ESHORT :
			                                CURVE_EAUTH);
		}
	}
	for (i = 0; i < 3; i++) {
		len = vec_bytes(tx[i], pkt, sizeof pkt);
		ck_assert_int_eq(open_txt(pkt, len), CURVE_OK);
		for (cut = 0; cut < len; cut++)
			ck_assert_msg(open_txt(pkt, cut) == CURVE_ESHORT,
			              "%s cut %zu: %d", tx[i], cut,
			              open_txt(pkt, cut));
	}
}
END_TEST

START_TEST(test_limits_truncation_names)
{
	uint8_t wire[128], pk[32], *p;
	size_t len = vec_bytes("ns_wire", wire, sizeof wire), cut;
	char *t;

	for (cut = 0; cut < len; cut++) {
		p = exact(wire, cut);
		ck_assert_int_eq(curve_keylabel_find_wire(p, cut, pk),
		                 CURVE_ENAME);
		free(p);
	}
	/* Text names cut anywhere: no read past len either. */
	{
		const char *name = "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538"
				   "xmqd280z0ynh2.ns1.curve.test";

		for (cut = 0; cut <= strlen(name); cut++) {
			t = (char *)exact((const uint8_t *)name, cut);
			ck_assert_int_eq(curve_keylabel_find_text(t, cut, pk),
			                 cut >= 54 ? CURVE_OK : CURVE_ENOKEY);
			free(t);
		}
	}
	/* base32 of every prefix of a vector. */
	{
		const char *s = "0804j1j05j1g0441bs20";
		uint8_t out[16];
		size_t dl;
		int st;

		for (cut = 0; cut <= strlen(s); cut++) {
			t = (char *)exact((const uint8_t *)s, cut);
			st = curve_base32_decode(out, sizeof out, &dl, t, cut);
			ck_assert(st == CURVE_OK || st == CURVE_EBASE32);
			free(t);
		}
	}
}
END_TEST

/* Messages larger than CURVE_MAX_PACKET (TCP) use a heap scratch. */
START_TEST(test_limits_large)
{
	static uint8_t m[6000], pkt[7000], out[6000], q[64];
	uint8_t cpk[32], ext[12] = { 9 };
	size_t n, ol = 0;

	memset(m, 0x61, sizeof m);
	curve_client_pk(vc, cpk);
	n = srv_streamlined(cpk, cnonce, ext, m, sizeof m, pkt, ssk);
	ck_assert_int_eq(open_sl(pkt, n, spk, cnonce), CURVE_ESPACE);
	ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, pkt, n, out,
	                                        sizeof out, &ol),
	                 CURVE_OK);
	ck_assert_uint_eq(ol, sizeof m);
	ck_assert_int_eq(memcmp(out, m, ol), 0);
	pkt[n - 1] ^= 1;
	ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, pkt, n, out,
	                                        sizeof out, &ol),
	                 CURVE_EAUTH);
	/* Streamlined box: exactly qlen + 68 bytes of room. */
	ck_assert_int_eq(curve_streamlined_box(vc, spk, cnonce, q, 32, pkt,
	                                       32 + 67, &n),
	                 CURVE_ESPACE);
	ck_assert_int_eq(curve_streamlined_box(vc, spk, cnonce, q, 32, pkt,
	                                       32 + 68, &n),
	                 CURVE_OK);
	ck_assert_uint_eq(n, 100);
	ck_assert_int_eq(curve_streamlined_box(vc, spk, cnonce, q, SIZE_MAX,
	                                       pkt, sizeof pkt, &n),
	                 CURVE_ESPACE);
	/* TXT with RDATA over CURVE_MAX_PACKET: 4500 bytes inside. */
	txt_roundtrip(32, "curve.test", 255, 0);
	{
		static uint8_t tq[512], resp[BIG], o[5000];
		size_t tl = vec_bytes("txt_query", tq, sizeof tq), rl;

		rl = srv_txt(tq, tl, cpk, cnonce, ext, m, 4500, 255, 0, resp,
		             ssk);
		ck_assert_uint_gt(rl - tl, CURVE_MAX_PACKET);
		ck_assert_int_eq(curve_txt_response_open(vc, spk, cnonce, tq,
		                                         tl, resp, rl, o,
		                                         sizeof o, &ol),
		                 CURVE_OK);
		ck_assert_uint_eq(ol, 4500);
		ck_assert_int_eq(memcmp(o, m, 4500), 0);
	}
}
END_TEST

/* ------------------------------------------------------------------ */

/** Add the TCases "txt" and "limits". */
void check_curve_add_txt(Suite *s)
{
	TCase *tc;

	tc = tcase_create("txt");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, vec_setup, vec_teardown);
	tcase_add_test(tc, test_txt_roundtrip_sizes);
	tcase_add_test(tc, test_txt_zones);
	tcase_add_test(tc, test_txt_cares_boundary);
	tcase_add_test(tc, test_txt_space);
	suite_add_tcase(s, tc);

	tc = tcase_create("limits");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, txt_setup, vec_teardown);
	tcase_add_test(tc, test_limits_constants);
	tcase_add_test(tc, test_limits_truncation);
	tcase_add_test(tc, test_limits_truncation_names);
	tcase_add_test(tc, test_limits_large);
	suite_add_tcase(s, tc);
}
