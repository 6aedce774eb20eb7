/*
 * tests/unit/check_curve.c - Check suite "curve": DNSCurve base32, uz5 key
 * labels, the vectors of tests/vectors/README (read from
 * VECTORS_DIR/dnscurve.vec), every rejection path, nonces, the shared-key
 * table, key files, the TXT format and the limits.
 *
 * This file: main, TCases "base32" and "keylabel". check_curve_proto.c:
 * "vectors", "reject". check_curve_keys.c: "nonce", "sharedkey",
 * "keyfile". check_curve_txt.c: "txt", "limits". check_curve_util.c:
 * helpers and the test-side server.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ares.h>
#include "curvetest.h"

/* ------------------------------------------------------------------ */
/* base32                                                              */

START_TEST(test_base32_vectors)
{
	char copy[4096], *f[4], enc[128], upper[128];
	uint8_t bytes[64], dec[64];
	size_t i, n, bl, el = 0, dl = 0, k, rows = 0;

	vec_load();
	for (i = 0; i < vec_count; i++) {
		n = vec_fields(vec_line[i], f, 4, copy, sizeof copy);
		if (n != 3 || strcmp(f[0], "b32") != 0)
			continue;
		rows++;
		bl = unhex(bytes, sizeof bytes, f[1]);
		ck_assert_int_eq(curve_base32_encode(enc, sizeof enc, &el,
		                                     bytes, bl),
		                 CURVE_OK);
		if (strcmp(f[2], "-") == 0)
			f[2] = (char *)"";
		ck_assert_uint_eq(el, strlen(f[2]));
		ck_assert_int_eq(memcmp(enc, f[2], el), 0);
		ck_assert_uint_eq(el, CURVE_BASE32_LEN(bl));
		ck_assert_int_eq(curve_base32_decode(dec, sizeof dec, &dl,
		                                     f[2], el),
		                 CURVE_OK);
		ck_assert_uint_eq(dl, bl);
		ck_assert_int_eq(memcmp(dec, bytes, bl), 0);
		for (k = 0; k < el; k++)
			upper[k] = (char)(f[2][k] >= 'a' ? f[2][k] - 32 :
			                                   f[2][k]);
		ck_assert_int_eq(curve_base32_decode(dec, sizeof dec, &dl,
		                                     upper, el),
		                 CURVE_OK);
		ck_assert_uint_eq(dl, bl);
		ck_assert_int_eq(memcmp(dec, bytes, bl), 0);
	}
	ck_assert_uint_eq(rows, 15);
}
END_TEST

START_TEST(test_base32_reject)
{
	char copy[4096], *f[3];
	uint8_t dec[16];
	size_t i, dl, rows = 0;

	vec_load();
	for (i = 0; i < vec_count; i++) {
		if (vec_fields(vec_line[i], f, 3, copy, sizeof copy) != 2 ||
		    strcmp(f[0], "b32_reject") != 0)
			continue;
		rows++;
		ck_assert_msg(curve_base32_decode(dec, sizeof dec, &dl, f[1],
		                                  strlen(f[1])) ==
		                      CURVE_EBASE32,
		              "accepted %s", f[1]);
	}
	ck_assert_uint_eq(rows, 5);
	/* For one byte the second character carries bits 5-9, of which 8
	 * and 9 are left over: it must be 0-7 (the document says 0-3, but
	 * its own row ff -> z7 needs 7). */
	ck_assert_int_eq(curve_base32_decode(dec, 1, &dl, "z7", 2), CURVE_OK);
	ck_assert_uint_eq(dec[0], 0xff);
	ck_assert_int_eq(curve_base32_decode(dec, 1, &dl, "z3", 2), CURVE_OK);
	ck_assert_uint_eq(dec[0], 0x7f);
	ck_assert_int_eq(curve_base32_decode(dec, 1, &dl, "z8", 2),
	                 CURVE_EBASE32);
	ck_assert_int_eq(curve_base32_decode(dec, 1, &dl, "0z", 2),
	                 CURVE_EBASE32);
	ck_assert_int_eq(curve_base32_decode(dec, 16, &dl, "0a0", 3),
	                 CURVE_EBASE32);
	ck_assert_int_eq(curve_base32_decode(dec, 16, &dl, "00\0", 3),
	                 CURVE_EBASE32);
}
END_TEST

/* Every byte value as a character: valid exactly for the alphabet, in
 * either case, with the value of its position. */
START_TEST(test_base32_alphabet)
{
	static const char alpha[] = "0123456789bcdfghjklmnpqrstuvwxyz";
	const char *p;
	char in[2];
	uint8_t dec[2];
	size_t dl;
	int ch, st;

	for (ch = 0; ch < 256; ch++) {
		in[0] = (char)ch;
		in[1] = '0';
		st = curve_base32_decode(dec, sizeof dec, &dl, in, 2);
		p = ch != 0 ? strchr(alpha,
		                     ch >= 'A' && ch <= 'Z' ? ch + 32 : ch) :
		              NULL;
		if (p == NULL) {
			ck_assert_msg(st == CURVE_EBASE32, "char %d", ch);
			continue;
		}
		ck_assert_int_eq(st, CURVE_OK);
		ck_assert_uint_eq(dl, 1);
		ck_assert_uint_eq(dec[0], (size_t)(p - alpha));
	}
}
END_TEST

START_TEST(test_base32_roundtrip)
{
	uint8_t in[64], dec[64], big[80];
	char enc[CURVE_BASE32_LEN(64) + 1];
	size_t n, el, dl;

	for (n = 0; n <= sizeof in; n++) {
		randombytes_buf(in, n);
		ck_assert_int_eq(curve_base32_encode(enc, sizeof enc, &el, in,
		                                     n),
		                 CURVE_OK);
		ck_assert_uint_eq(el, CURVE_BASE32_LEN(n));
		ck_assert_int_eq(curve_base32_decode(dec, n, &dl, enc, el),
		                 CURVE_OK);
		ck_assert_uint_eq(dl, n);
		ck_assert_int_eq(memcmp(dec, in, n), 0);
		/* A spare '0' is accepted only where it leaves < 5 bits. */
		enc[el] = '0';
		ck_assert_int_eq(curve_base32_decode(big, sizeof big, &dl, enc,
		                                     el + 1),
		                 (el + 1) * 5 % 8 < 5 ? CURVE_OK :
		                                        CURVE_EBASE32);
	}
}
END_TEST

START_TEST(test_base32_space)
{
	uint8_t in[12] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12 }, dec[12];
	char enc[32];
	size_t el = 0, dl = 0, n;

	for (n = 0; n < CURVE_BASE32_LEN(sizeof in); n++) {
		memset(enc, '#', sizeof enc);
		ck_assert_int_eq(curve_base32_encode(enc, n, &el, in,
		                                     sizeof in),
		                 CURVE_ESPACE);
		ck_assert_int_eq(enc[n], '#');
	}
	ck_assert_int_eq(curve_base32_encode(enc, n, &el, in, sizeof in),
	                 CURVE_OK);
	for (n = 0; n < sizeof in; n++) {
		memset(dec, 0xee, sizeof dec);
		ck_assert_int_eq(curve_base32_decode(dec, n, &dl, enc, el),
		                 CURVE_ESPACE);
		if (n < sizeof dec)
			ck_assert_uint_eq(dec[n], 0xee);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* uz5 key labels                                                      */

static void check_scan(const char *name, const char *want)
{
	uint8_t pk[CURVE_KEY_BYTES], wire[300], exp[CURVE_KEY_BYTES];
	size_t wl = wire_name(name, wire);
	int st_t, st_w;

	memset(pk, 0, sizeof pk);
	st_t = curve_keylabel_find_text(name, strlen(name), pk);
	if (strcmp(want, "none") == 0) {
		ck_assert_msg(st_t == CURVE_ENOKEY, "%s: %d", name, st_t);
	} else {
		ck_assert_msg(st_t == CURVE_OK, "%s: %d", name, st_t);
		unhex(exp, sizeof exp, want);
		ck_assert_int_eq(memcmp(pk, exp, sizeof pk), 0);
	}
	memset(pk, 0, sizeof pk);
	st_w = curve_keylabel_find_wire(wire, wl, pk);
	ck_assert_int_eq(st_w, st_t);
	if (st_w == CURVE_OK)
		ck_assert_int_eq(memcmp(pk, exp, sizeof pk), 0);
}

START_TEST(test_keylabel_scan_vectors)
{
	char copy[4096], *f[5];
	size_t i, n, rows = 0;

	vec_load();
	for (i = 0; i < vec_count; i++) {
		n = vec_fields(vec_line[i], f, 5, copy, sizeof copy);
		if (n == 3 && strcmp(f[0], "scan") == 0) {
			check_scan(f[1], f[2]);
			rows++;
		} else if (n == 4 && strcmp(f[0], "scan_full") == 0) {
			/* The document abbreviates: LEFT...RIGHT. */
			char *dots = strstr(f[1], "...");
			size_t left, right;

			ck_assert_ptr_nonnull(dots);
			left = (size_t)(dots - f[1]);
			right = strlen(dots + 3);
			ck_assert_int_eq(strncmp(f[2], f[1], left), 0);
			ck_assert_str_eq(f[2] + strlen(f[2]) - right,
			                 dots + 3);
			check_scan(f[2], f[3]);
			rows++;
		}
	}
	ck_assert_uint_eq(rows, 8);
	/* More variants: uz5 in any case, text name with final dot. */
	check_scan("Uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2.n.",
	           "90af53c14874538559f08647fb6d2df3e653b186409032509f96090"
	           "43ef0f409");
	check_scan("uZ5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2",
	           "90af53c14874538559f08647fb6d2df3e653b186409032509f96090"
	           "43ef0f409");
	check_scan("uz6jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2",
	           "none");
	check_scan(".", "none");
}
END_TEST

START_TEST(test_keylabel_make_parse)
{
	char copy[4096], *f[4], label[CURVE_KEYLABEL_LEN + 1];
	uint8_t pk[CURVE_KEY_BYTES], got[CURVE_KEY_BYTES];
	size_t i, rows = 0;

	vec_load();
	for (i = 0; i < vec_count; i++) {
		if (vec_fields(vec_line[i], f, 4, copy, sizeof copy) != 3 ||
		    strcmp(f[0], "serverkey") != 0)
			continue;
		rows++;
		unhex(pk, sizeof pk, f[1]);
		ck_assert_int_eq(curve_keylabel_make(label, pk), CURVE_OK);
		ck_assert_str_eq(label, f[2]);
		ck_assert_int_eq(curve_keylabel_parse((uint8_t *)f[2],
		                                      strlen(f[2]), got),
		                 CURVE_OK);
		ck_assert_int_eq(memcmp(got, pk, sizeof pk), 0);
	}
	ck_assert_uint_eq(rows, 2);
	/* Bit 255 set: not a Curve25519 public key. */
	pk[31] |= 0x80;
	ck_assert_int_eq(curve_keylabel_make(label, pk), CURVE_EINVAL);
	/* Random keys below 2^255 round-trip; every label is 54 bytes. */
	for (i = 0; i < 200; i++) {
		randombytes_buf(pk, sizeof pk);
		pk[31] &= 0x7f;
		ck_assert_int_eq(curve_keylabel_make(label, pk), CURVE_OK);
		ck_assert_uint_eq(strlen(label), CURVE_KEYLABEL_LEN);
		ck_assert_int_eq(curve_keylabel_parse((uint8_t *)label,
		                                      CURVE_KEYLABEL_LEN, got),
		                 CURVE_OK);
		ck_assert_int_eq(memcmp(got, pk, sizeof pk), 0);
	}
}
END_TEST

START_TEST(test_keylabel_not_a_key)
{
	const char *good =
		"uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2";
	uint8_t pk[CURVE_KEY_BYTES], l[64];
	size_t i;

	memcpy(l, good, CURVE_KEYLABEL_LEN);
	ck_assert_int_eq(curve_keylabel_parse(l, 53, pk), CURVE_ENOKEY);
	l[54] = '0';
	ck_assert_int_eq(curve_keylabel_parse(l, 55, pk), CURVE_ENOKEY);
	ck_assert_int_eq(curve_keylabel_parse(l, 0, pk), CURVE_ENOKEY);
	/* Each position with a character outside the alphabet. */
	for (i = 3; i < CURVE_KEYLABEL_LEN; i++) {
		memcpy(l, good, CURVE_KEYLABEL_LEN);
		l[i] = (uint8_t)(i % 2 ? 'a' : '-');
		ck_assert_int_eq(curve_keylabel_parse(l, 54, pk),
		                 CURVE_ENOKEY);
	}
	/* Prefix variants. */
	memcpy(l, good, CURVE_KEYLABEL_LEN);
	l[0] = 'v';
	ck_assert_int_eq(curve_keylabel_parse(l, 54, pk), CURVE_ENOKEY);
	memcpy(l, good, CURVE_KEYLABEL_LEN);
	l[2] = '6';
	ck_assert_int_eq(curve_keylabel_parse(l, 54, pk), CURVE_ENOKEY);
	memcpy(l, good, CURVE_KEYLABEL_LEN);
	memcpy(l, "UZ5", 3);
	ck_assert_int_eq(curve_keylabel_parse(l, 54, pk), CURVE_OK);
	/* The largest key: 51 'z' = 2^255 - 1, bit 255 clear. */
	memset(l + 3, 'z', CURVE_KEYLABEL_B32);
	ck_assert_int_eq(curve_keylabel_parse(l, 54, pk), CURVE_OK);
	ck_assert_uint_eq(pk[31], 0x7f);
	ck_assert_uint_eq(pk[0], 0xff);
}
END_TEST

START_TEST(test_keylabel_wire_vector)
{
	uint8_t wire[128], pk[CURVE_KEY_BYTES], exp[CURVE_KEY_BYTES];
	size_t n = vec_bytes("ns_wire", wire, sizeof wire);

	vec_key("server_pk", exp);
	ck_assert_int_eq(curve_keylabel_find_wire(wire, n, pk), CURVE_OK);
	ck_assert_int_eq(memcmp(pk, exp, sizeof pk), 0);
	ck_assert_uint_eq(wire[0], CURVE_KEYLABEL_LEN);
}
END_TEST

START_TEST(test_keylabel_malformed)
{
	uint8_t wire[600], pk[CURVE_KEY_BYTES];
	size_t n, i;
	char text[400];

	n = wire_name("ns1.curve.test", wire);
	/* Missing root label. */
	ck_assert_int_eq(curve_keylabel_find_wire(wire, n - 1, pk),
	                 CURVE_ENAME);
	/* Label running past len. */
	wire[0] = 20;
	ck_assert_int_eq(curve_keylabel_find_wire(wire, n, pk), CURVE_ENAME);
	/* Label length > 63, and compression pointers. */
	n = wire_name("ns1.curve.test", wire);
	wire[4] = 64;
	ck_assert_int_eq(curve_keylabel_find_wire(wire, n, pk), CURVE_ENAME);
	wire[4] = 0xc0;
	ck_assert_int_eq(curve_keylabel_find_wire(wire, n, pk), CURVE_ENAME);
	/* A whole 64-byte label inside len; 63 is fine. */
	wire[0] = 64;
	memset(wire + 1, 'a', 64);
	wire[65] = 0;
	ck_assert_int_eq(curve_keylabel_find_wire(wire, 66, pk), CURVE_ENAME);
	wire[1] = 63;
	ck_assert_int_eq(curve_keylabel_find_wire(wire + 1, 65, pk),
	                 CURVE_ENOKEY);
	ck_assert_int_eq(curve_keylabel_find_wire(wire, 0, pk), CURVE_ENAME);
	/* A key label in front of a malformed rest is still ENAME. */
	n = wire_name("uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2"
	              ".ns1",
	              wire);
	ck_assert_int_eq(curve_keylabel_find_wire(wire, n, pk), CURVE_OK);
	ck_assert_int_eq(curve_keylabel_find_wire(wire, n - 1, pk),
	                 CURVE_ENAME);
	wire[55] = 63;
	ck_assert_int_eq(curve_keylabel_find_wire(wire, n, pk), CURVE_ENAME);
	/* 255 bytes is the longest name; 256 is refused. */
	for (i = 0; i < 4; i++) {
		wire[i * 62] = 61;
		memset(wire + i * 62 + 1, 'a', 61);
	}
	wire[248] = 5;
	memset(wire + 249, 'b', 5);
	wire[254] = 0;
	ck_assert_int_eq(curve_keylabel_find_wire(wire, 255, pk),
	                 CURVE_ENOKEY);
	wire[248] = 6;
	memset(wire + 249, 'b', 6);
	wire[255] = 0;
	ck_assert_int_eq(curve_keylabel_find_wire(wire, 256, pk), CURVE_ENAME);
	/* Text names. */
	ck_assert_int_eq(curve_keylabel_find_text("a..b", 4, pk), CURVE_ENAME);
	ck_assert_int_eq(curve_keylabel_find_text(".a", 2, pk), CURVE_ENAME);
	ck_assert_int_eq(curve_keylabel_find_text("a.b..", 5, pk),
	                 CURVE_ENAME);
	ck_assert_int_eq(curve_keylabel_find_text("..", 2, pk), CURVE_ENAME);
	memset(text, 'a', 64);
	ck_assert_int_eq(curve_keylabel_find_text(text, 64, pk), CURVE_ENAME);
	ck_assert_int_eq(curve_keylabel_find_text(text, 63, pk), CURVE_ENOKEY);
	for (i = 0; i < 4; i++) {
		memset(text + i * 62, 'a', 61);
		text[i * 62 + 61] = '.';
	}
	memset(text + 248, 'b', 5);
	ck_assert_int_eq(curve_keylabel_find_text(text, 253, pk),
	                 CURVE_ENOKEY);
	ck_assert_int_eq(curve_keylabel_find_text(text, 254, pk), CURVE_ENAME);
	ck_assert_int_eq(curve_keylabel_find_text("a\\.b", 4, pk),
	                 CURVE_ENAME);
}
END_TEST

/* ------------------------------------------------------------------ */

/* ------------------------------------------------------------------ */
/* curve_random: the per-thread pool                                   */

static int cmp16(const void *a, const void *b)
{
	return memcmp(a, b, 16);
}

/* 20,000 draws of 16 bytes (several refills of the pool) are all
 * distinct and never all-zero: the pool hands out each byte once and
 * refills rather than repeating or running dry. */
START_TEST(test_random_pool_distinct)
{
	enum { N = 20000 };
	unsigned char(*v)[16] = malloc(sizeof(*v) * N);
	static const unsigned char zero[16];
	size_t i;

	ck_assert_ptr_nonnull(v);
	for (i = 0; i < N; i++) {
		curve_random(v[i], sizeof v[i]);
		ck_assert_mem_ne(v[i], zero, sizeof zero);
	}
	qsort(v, N, sizeof(*v), cmp16);
	for (i = 1; i < N; i++)
		ck_assert_msg(memcmp(v[i - 1], v[i], 16) != 0,
		              "draw repeated");
	free(v);
}
END_TEST

/* Odd sizes, sizes over the pool's direct limit, zero, and the 16-bit
 * helper: every byte value turns up in 1 MiB of 1..200-byte draws and
 * both halves of curve_random16's range occur. */
START_TEST(test_random_pool_sizes)
{
	static unsigned char big[1000];
	unsigned seen[256] = { 0 };
	unsigned char buf[200];
	size_t total = 0, i, len = 1;
	bool lo = false, hi = false;
	uint16_t r;

	curve_random(buf, 0);
	memset(big, 0, sizeof big);
	curve_random(big, sizeof big);
	for (i = 0; i < sizeof big && big[i] == 0; i++)
		;
	ck_assert_uint_lt(i, sizeof big);
	while (total < (1u << 20)) {
		curve_random(buf, len);
		for (i = 0; i < len; i++)
			seen[buf[i]]++;
		total += len;
		len = len % 200 + 1;
	}
	for (i = 0; i < 256; i++)
		ck_assert_msg(seen[i] > 0, "byte %zu never drawn", i);
	for (i = 0; i < 1000 && !(lo && hi); i++) {
		r = curve_random16();
		lo = lo || r < 0x8000;
		hi = hi || r >= 0x8000;
	}
	ck_assert(lo && hi);
}
END_TEST

static Suite *curve_suite(void)
{
	Suite *s = suite_create("curve");
	TCase *tc;

	tc = tcase_create("random");
	tcase_add_test(tc, test_random_pool_distinct);
	tcase_add_test(tc, test_random_pool_sizes);
	suite_add_tcase(s, tc);

	tc = tcase_create("base32");
	tcase_add_test(tc, test_base32_vectors);
	tcase_add_test(tc, test_base32_reject);
	tcase_add_test(tc, test_base32_alphabet);
	tcase_add_test(tc, test_base32_roundtrip);
	tcase_add_test(tc, test_base32_space);
	suite_add_tcase(s, tc);

	tc = tcase_create("keylabel");
	tcase_add_test(tc, test_keylabel_scan_vectors);
	tcase_add_test(tc, test_keylabel_make_parse);
	tcase_add_test(tc, test_keylabel_not_a_key);
	tcase_add_test(tc, test_keylabel_wire_vector);
	tcase_add_test(tc, test_keylabel_malformed);
	suite_add_tcase(s, tc);
	check_curve_add_proto(s);
	check_curve_add_keys(s);
	check_curve_add_txt(s);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(curve_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
