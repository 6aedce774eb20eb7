/*
 * tests/unit/check_curve.c - Check suite "curve": DNSCurve base32, uz5 key
 * labels, the vectors of shared/docs/dnscurve-vectors.md (read from
 * VECTORS_DIR/dnscurve.vec), every rejection path, nonces, the shared-key
 * table, key files, the TXT format and the limits.
 *
 * The test plays the server with libsodium directly (server secret key of
 * the vectors, or fresh keypairs), so boxes made by curve/ are checked by
 * an independent opener and vice versa.
 */
#include "config.h"
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <ares.h>
#include "curve.h"
#include "internal.h"

#ifndef VECTORS_DIR
#define VECTORS_DIR "tests/vectors"
#endif
#define VEC_FILE VECTORS_DIR "/dnscurve.vec"
#define VEC_MAX_LINES 256
#define BIG 70000
#define TMPL "/tmp/check_curve.XXXXXX"

/* ------------------------------------------------------------------ */
/* Vector file                                                         */

static char *vec_line[VEC_MAX_LINES];
static size_t vec_count;

static void
vec_load(void)
{
	FILE *f;
	char buf[4096];

	if (vec_count > 0)
		return;
	f = fopen(VEC_FILE, "r");
	ck_assert_msg(f != NULL, "cannot open %s", VEC_FILE);
	while (fgets(buf, sizeof buf, f) != NULL) {
		size_t n = strlen(buf);

		ck_assert_msg(n > 0 && buf[n - 1] == '\n', "long line");
		buf[n - 1] = '\0';
		if (buf[0] == '#' || buf[0] == '\0')
			continue;
		ck_assert_uint_lt(vec_count, VEC_MAX_LINES);
		vec_line[vec_count++] = strdup(buf);
	}
	fclose(f);
	ck_assert_uint_gt(vec_count, 50);
}

/* Split line into up to max space-separated fields (in a copy). */
static size_t
vec_fields(const char *line, char **field, size_t max, char *copy,
           size_t cap)
{
	size_t n = 0;
	char *save = NULL, *tok;

	ck_assert_uint_lt(strlen(line), cap);
	strcpy(copy, line);
	for (tok = strtok_r(copy, " ", &save); tok != NULL && n < max;
	     tok = strtok_r(NULL, " ", &save))
		field[n++] = tok;
	return n;
}

static size_t
unhex(uint8_t *out, size_t cap, const char *hex)
{
	size_t n = 0;

	if (strcmp(hex, "-") == 0)
		return 0;
	ck_assert_int_eq(sodium_hex2bin(out, cap, hex, strlen(hex), NULL, &n,
	                                NULL), 0);
	return n;
}

/* The bytes of "hex NAME" or "block NAME LEN" (checking LEN). */
static size_t
vec_bytes(const char *name, uint8_t *out, size_t cap)
{
	char copy[4096], *f[4];
	size_t i, n, len;

	vec_load();
	for (i = 0; i < vec_count; i++) {
		n = vec_fields(vec_line[i], f, 4, copy, sizeof copy);
		if (n == 3 && strcmp(f[0], "hex") == 0 &&
		    strcmp(f[1], name) == 0)
			return unhex(out, cap, f[2]);
		if (n == 4 && strcmp(f[0], "block") == 0 &&
		    strcmp(f[1], name) == 0) {
			len = unhex(out, cap, f[3]);
			ck_assert_uint_eq(len, strtoul(f[2], NULL, 10));
			return len;
		}
	}
	ck_abort_msg("vector %s missing", name);
	return 0;
}

static void
vec_key(const char *name, uint8_t k[CURVE_KEY_BYTES])
{
	ck_assert_uint_eq(vec_bytes(name, k, CURVE_KEY_BYTES),
	                  CURVE_KEY_BYTES);
}

static int
status_of(const char *name)
{
	static const char *names[] = {
		"CURVE_OK", "CURVE_ESHORT", "CURVE_EMAGIC", "CURVE_ENONCE",
		"CURVE_EAUTH", "CURVE_EBASE32", "CURVE_ESPACE", "CURVE_EFORMAT",
		"CURVE_EID", "CURVE_EQUESTION", "CURVE_ENOKEY", "CURVE_ENAME",
		"CURVE_ENOMEM", "CURVE_EIO", "CURVE_EKEYFILE", "CURVE_EINVAL",
		"CURVE_ECRYPTO"
	};
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(names[i], name) == 0)
			return (int)i;
	ck_abort_msg("unknown status %s", name);
	return -1;
}

/* ------------------------------------------------------------------ */
/* Fixtures and the test-side server                                   */

static struct curve_client *vc;   /* client with the vector key */
static uint8_t spk[CURVE_KEY_BYTES], ssk[CURVE_SECRET_BYTES];
static uint8_t cnonce[CURVE_NONCE_BYTES];

static void
vec_setup(void)
{
	uint8_t csk[CURVE_SECRET_BYTES];

	ck_assert_int_ge(sodium_init(), 0);
	ck_assert_uint_eq(vec_bytes("client_sk", csk, sizeof csk),
	                  sizeof csk);
	ck_assert_int_eq(curve_client_from_secret(&vc, 0, csk), CURVE_OK);
	vec_key("server_pk", spk);
	ck_assert_uint_eq(vec_bytes("server_sk", ssk, sizeof ssk),
	                  sizeof ssk);
	/* Built by hand: counter 1, random part a1b2c3d4. */
	memcpy(cnonce, "\0\0\0\0\0\0\0\1\xa1\xb2\xc3\xd4", sizeof cnonce);
}

static void
vec_teardown(void)
{
	curve_client_free(vc);
	vc = NULL;
}

/* Server side: box m for the client (nonce cn | ext). */
static void
srv_box(const uint8_t cpk[CURVE_KEY_BYTES], const uint8_t *cn,
        const uint8_t *ext, const uint8_t *m, size_t mlen, uint8_t *box,
        const uint8_t *sk)
{
	uint8_t n24[CURVE_BOX_NONCE_BYTES];

	memcpy(n24, cn, CURVE_NONCE_BYTES);
	memcpy(n24 + CURVE_NONCE_BYTES, ext, CURVE_NONCE_BYTES);
	ck_assert_int_eq(crypto_box_easy(box, m, mlen, n24, cpk, sk), 0);
}

/* Server side: a streamlined response; returns its length. */
static size_t
srv_streamlined(const uint8_t cpk[CURVE_KEY_BYTES], const uint8_t *cn,
                const uint8_t *ext, const uint8_t *m, size_t mlen,
                uint8_t *out, const uint8_t *sk)
{
	memcpy(out, "R6fnvWJ8", CURVE_MAGIC_BYTES);
	memcpy(out + 8, cn, CURVE_NONCE_BYTES);
	memcpy(out + 20, ext, CURVE_NONCE_BYTES);
	srv_box(cpk, cn, ext, m, mlen, out + 32, sk);
	return mlen + CURVE_STREAMLINED_RESPONSE_OVERHEAD;
}

/* Server side: open a streamlined query; returns the inner length. */
static size_t
srv_open_streamlined(const uint8_t *pkt, size_t len, uint8_t *m,
                     uint8_t cpk_out[CURVE_KEY_BYTES], const uint8_t *sk)
{
	uint8_t n24[CURVE_BOX_NONCE_BYTES] = { 0 };

	ck_assert_uint_ge(len, CURVE_STREAMLINED_QUERY_OVERHEAD);
	ck_assert_int_eq(memcmp(pkt, "Q6fnvWj8", 8), 0);
	memcpy(cpk_out, pkt + 8, CURVE_KEY_BYTES);
	memcpy(n24, pkt + 40, CURVE_NONCE_BYTES);
	ck_assert_int_eq(crypto_box_open_easy(m, pkt + 52, len - 52, n24,
	                                      cpk_out, sk), 0);
	return len - CURVE_STREAMLINED_QUERY_OVERHEAD;
}

/* Server side: take a TXT query apart (independently of curve/): client
 * nonce, client key and inner query; returns the inner length. */
static size_t
srv_open_txt(const uint8_t *q, size_t qlen, const char *zone_wire,
             size_t zlen, uint8_t *m, uint8_t cn[CURVE_NONCE_BYTES],
             uint8_t cpk[CURVE_KEY_BYTES], const uint8_t *sk)
{
	char b32[8192], x1a[CURVE_KEYLABEL_LEN + 2];
	uint8_t data[5000], key[40], n24[CURVE_BOX_NONCE_BYTES] = { 0 };
	size_t pos = CURVE_DNS_HEADER, nb = 0, dlen = 0, klen = 0, l;

	ck_assert_uint_ge(qlen, 17);
	ck_assert_int_eq(memcmp(q + 2, "\0\0\0\1\0\0\0\0\0\0", 10), 0);
	while (q[pos] != CURVE_KEYLABEL_LEN) {
		l = q[pos];
		ck_assert_uint_ge(l, 1);
		ck_assert_uint_le(l, 50);
		ck_assert_uint_lt(pos + 1 + l, qlen);
		memcpy(b32 + nb, q + pos + 1, l);
		nb += l;
		pos += 1 + l;
		if (l < 50)
			ck_assert_uint_eq(q[pos], CURVE_KEYLABEL_LEN);
	}
	memcpy(x1a, q + pos + 1, CURVE_KEYLABEL_LEN);
	pos += 1 + CURVE_KEYLABEL_LEN;
	ck_assert_int_eq(memcmp(x1a, "x1a", 3), 0);
	x1a[CURVE_KEYLABEL_LEN] = '0';
	ck_assert_int_eq(curve_base32_decode(key, sizeof key, &klen, x1a + 3,
	                                     52), CURVE_OK);
	ck_assert_uint_eq(klen, CURVE_KEY_BYTES);
	memcpy(cpk, key, CURVE_KEY_BYTES);
	ck_assert_uint_eq(qlen, pos + zlen + 4);
	ck_assert_int_eq(memcmp(q + pos, zone_wire, zlen), 0);
	ck_assert_int_eq(memcmp(q + pos + zlen, "\0\x10\0\x01", 4), 0);
	ck_assert_int_eq(curve_base32_decode(data, sizeof data, &dlen, b32,
	                                     nb), CURVE_OK);
	ck_assert_uint_ge(dlen, 28);
	memcpy(cn, data, CURVE_NONCE_BYTES);
	memcpy(n24, data, CURVE_NONCE_BYTES);
	ck_assert_int_eq(crypto_box_open_easy(m, data + 12, dlen - 12, n24,
	                                      cpk, sk), 0);
	return dlen - 28;
}

/* Server side: TXT response to query q (strings of at most chunk bytes,
 * owner as pointer c00c or, if literal, the name). Returns its length. */
static size_t
srv_txt(const uint8_t *q, size_t qlen, const uint8_t cpk[CURVE_KEY_BYTES],
        const uint8_t *cn, const uint8_t *ext, const uint8_t *m,
        size_t mlen, size_t chunk, int literal, uint8_t *out,
        const uint8_t *sk)
{
	uint8_t data[BIG];
	size_t dlen = 12 + 16 + mlen, pos, i, n, rdpos, qn = qlen - 16;

	memcpy(data, ext, 12);
	srv_box(cpk, cn, ext, m, mlen, data + 12, sk);
	memcpy(out, q, qlen);
	out[2] = 0x84;
	out[3] = 0;
	out[7] = 1;
	pos = qlen;
	if (literal) {
		memcpy(out + pos, q + 12, qn);
		pos += qn;
	} else {
		out[pos++] = 0xc0;
		out[pos++] = 0x0c;
	}
	memcpy(out + pos, "\0\x10\0\x01\0\0\0\0", 8);
	pos += 10;
	rdpos = pos;
	for (i = 0; i < dlen; i += n) {
		n = dlen - i < chunk ? dlen - i : chunk;
		out[pos++] = (uint8_t)n;
		memcpy(out + pos, data + i, n);
		pos += n;
	}
	out[rdpos - 2] = (uint8_t)((pos - rdpos) >> 8);
	out[rdpos - 1] = (uint8_t)(pos - rdpos);
	return pos;
}

/* Is every byte of out still 0xa5? (One assertion: each Check assertion
 * costs a write to the runner.) */
static int
untouched(const uint8_t *out, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (out[i] != 0xa5)
			return 0;
	return 1;
}

/* A buffer of exactly len bytes, so ASan sees any read past len. */
static uint8_t *
exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len > 0 ? len : 1);

	ck_assert_ptr_nonnull(p);
	if (len > 0)
		memcpy(p, src, len);
	return p;
}

/* Name in wire format from dotted text (test's own, independent). */
static size_t
wire_name(const char *text, uint8_t *out)
{
	size_t pos = 0, n;
	const char *dot;

	while (*text != '\0') {
		dot = strchr(text, '.');
		n = dot != NULL ? (size_t)(dot - text) : strlen(text);
		out[pos++] = (uint8_t)n;
		memcpy(out + pos, text, n);
		pos += n;
		text += n + (dot != NULL);
	}
	out[pos++] = 0;
	return pos;
}

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
		                                     bytes, bl), CURVE_OK);
		if (strcmp(f[2], "-") == 0)
			f[2] = (char *)"";
		ck_assert_uint_eq(el, strlen(f[2]));
		ck_assert_int_eq(memcmp(enc, f[2], el), 0);
		ck_assert_uint_eq(el, CURVE_BASE32_LEN(bl));
		ck_assert_int_eq(curve_base32_decode(dec, sizeof dec, &dl,
		                                     f[2], el), CURVE_OK);
		ck_assert_uint_eq(dl, bl);
		ck_assert_int_eq(memcmp(dec, bytes, bl), 0);
		for (k = 0; k < el; k++)
			upper[k] = (char)(f[2][k] >= 'a' ? f[2][k] - 32 :
			                  f[2][k]);
		ck_assert_int_eq(curve_base32_decode(dec, sizeof dec, &dl,
		                                     upper, el), CURVE_OK);
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
		              CURVE_EBASE32, "accepted %s", f[1]);
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
		p = ch != 0 ? strchr(alpha, ch >= 'A' && ch <= 'Z' ?
		                     ch + 32 : ch) : NULL;
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
		                                     n), CURVE_OK);
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
		                                     sizeof in), CURVE_ESPACE);
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

static void
check_scan(const char *name, const char *want)
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
			ck_assert_str_eq(f[2] + strlen(f[2]) - right, dots + 3);
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
	ck_assert_int_eq(curve_keylabel_find_wire(wire, 0, pk), CURVE_ENAME);
	/* A key label in front of a malformed rest is still ENAME. */
	n = wire_name("uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2"
	              ".ns1", wire);
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
	ck_assert_int_eq(curve_keylabel_find_wire(wire, 256, pk),
	                 CURVE_ENAME);
	/* Text names. */
	ck_assert_int_eq(curve_keylabel_find_text("a..b", 4, pk),
	                 CURVE_ENAME);
	ck_assert_int_eq(curve_keylabel_find_text(".a", 2, pk), CURVE_ENAME);
	ck_assert_int_eq(curve_keylabel_find_text("a.b..", 5, pk),
	                 CURVE_ENAME);
	ck_assert_int_eq(curve_keylabel_find_text("..", 2, pk), CURVE_ENAME);
	memset(text, 'a', 64);
	ck_assert_int_eq(curve_keylabel_find_text(text, 64, pk), CURVE_ENAME);
	ck_assert_int_eq(curve_keylabel_find_text(text, 63, pk),
	                 CURVE_ENOKEY);
	for (i = 0; i < 4; i++) {
		memset(text + i * 62, 'a', 61);
		text[i * 62 + 61] = '.';
	}
	memset(text + 248, 'b', 5);
	ck_assert_int_eq(curve_keylabel_find_text(text, 253, pk),
	                 CURVE_ENOKEY);
	ck_assert_int_eq(curve_keylabel_find_text(text, 254, pk),
	                 CURVE_ENAME);
	ck_assert_int_eq(curve_keylabel_find_text("a\\.b", 4, pk),
	                 CURVE_ENAME);
}
END_TEST

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

START_TEST(test_vectors_streamlined)
{
	uint8_t q[64], pkt[256], exp[256], box[64], out[256], resp[128];
	size_t ql = vec_bytes("inner_query", q, sizeof q), n = 0, el, rl;

	ck_assert_int_eq(curve_streamlined_box(vc, spk, cnonce, q, ql, pkt,
	                                       sizeof pkt, &n), CURVE_OK);
	el = vec_bytes("streamlined_query", exp, sizeof exp);
	ck_assert_uint_eq(n, el);
	ck_assert_int_eq(memcmp(pkt, exp, n), 0);
	ck_assert_uint_eq(vec_bytes("query_box", box, sizeof box), ql + 16);
	ck_assert_int_eq(memcmp(pkt + 52, box, ql + 16), 0);

	rl = vec_bytes("streamlined_response", resp, sizeof resp);
	el = vec_bytes("inner_response", exp, sizeof exp);
	ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, resp, rl, out,
	                                        sizeof out, &n), CURVE_OK);
	ck_assert_uint_eq(n, el);
	ck_assert_int_eq(memcmp(out, exp, n), 0);
	ck_assert_uint_eq(rl, el + CURVE_STREAMLINED_RESPONSE_OVERHEAD);
}
END_TEST

START_TEST(test_vectors_txt)
{
	uint8_t q[64], pkt[512], exp[512], resp[1024], out[512];
	char copy[4096], *f[4], zone[64] = "";
	size_t ql = vec_bytes("inner_query", q, sizeof q), n = 0, el, rl, i;
	size_t pos = 12, labels = 0;

	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 0xabcd,
	                                       "curve.test", q, ql, pkt,
	                                       sizeof pkt, &n), CURVE_OK);
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
			                        strlen(f[2])), 0);
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

	rl = vec_bytes("txt_response", resp, sizeof resp);
	el = vec_bytes("inner_response", exp, sizeof exp);
	ck_assert_int_eq(curve_txt_response_open(vc, spk, cnonce, pkt, n,
	                                         resp, rl, out, sizeof out,
	                                         &i), CURVE_OK);
	ck_assert_uint_eq(i, el);
	ck_assert_int_eq(memcmp(out, exp, el), 0);
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
	ck_assert_int_eq(curve_txt_response_open(vc, spk, cnonce, tq, tl,
	                                         resp, rl, out, sizeof out,
	                                         &n), CURVE_OK);
	ck_assert_uint_eq(n, 352);
	ck_assert_uint_eq(out[0], 0x12);
	ck_assert_uint_eq(out[1], 0x34);
	ck_assert_uint_eq(out[7], 20);          /* 20 A records */
	/* RDLENGTH 382 = strings of [255, 125]. */
	ck_assert_uint_eq(resp[tl + 10] * 256 + resp[tl + 11], 382);
	ck_assert_uint_eq(resp[tl + 12], 255);
	ck_assert_uint_eq(resp[tl + 12 + 256], 125);
	vec_bytes("server_ext", ext, sizeof ext);
	curve_client_pk(vc, cpk);
	ck_assert_uint_eq(srv_txt(tq, tl, cpk, cnonce, ext, out, n, 255, 0,
	                          again, ssk), rl);
	ck_assert_int_eq(memcmp(again, resp, rl), 0);
	(void)ql;
}
END_TEST

START_TEST(test_vectors_curvedns)
{
	uint8_t tq[512], resp[1024], out[1024], exp[512];
	size_t tl, rl, el, n = 0;

	rl = vec_bytes("curvedns_streamlined_response", resp, sizeof resp);
	el = vec_bytes("curvedns_streamlined_inner", exp, sizeof exp);
	ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, resp, rl, out,
	                                        sizeof out, &n), CURVE_OK);
	ck_assert_uint_eq(n, el);
	ck_assert_int_eq(memcmp(out, exp, el), 0);

	tl = vec_bytes("txt_query", tq, sizeof tq);
	rl = vec_bytes("curvedns_txt_response", resp, sizeof resp);
	el = vec_bytes("curvedns_txt_inner", exp, sizeof exp);
	ck_assert_int_eq(curve_txt_response_open(vc, spk, cnonce, tq, tl,
	                                         resp, rl, out, sizeof out,
	                                         &n), CURVE_OK);
	ck_assert_uint_eq(n, el);
	ck_assert_int_eq(memcmp(out, exp, el), 0);
}
END_TEST

/* Every block of the file has the byte count the document states (the
 * check is in vec_bytes), and the server-side opener agrees with ours. */
START_TEST(test_vectors_blocks)
{
	static const char *blocks[] = {
		"ns_wire", "inner_query", "query_box", "streamlined_query",
		"inner_response", "streamlined_response", "txt_qname_wire",
		"txt_query", "txt_response", "txt_response_split",
		"curvedns_streamlined_response", "curvedns_streamlined_inner",
		"curvedns_txt_response", "curvedns_txt_inner"
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

static int
open_sl(const uint8_t *pkt, size_t len, const uint8_t *key,
        const uint8_t *nonce)
{
	uint8_t out[512], *p = exact(pkt, len);
	size_t n = 0x5a5a;
	int st;

	memset(out, 0xa5, sizeof out);
	st = curve_streamlined_open(vc, key, nonce, p, len, out, sizeof out,
	                            &n);
	free(p);
	if (st != CURVE_OK) {
		ck_assert(untouched(out, sizeof out));
		ck_assert_uint_eq(n, 0x5a5a);
	}
	return st;
}

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
			off = strcmp(f[2], "last") == 0 ? rl - 1 :
			      strtoul(f[2], NULL, 10);
			bad[off] ^= (uint8_t)strtoul(f[3], NULL, 16);
		} else if (strcmp(f[1], "magic") == 0) {
			ck_assert_uint_eq(strlen(f[2]), 8);
			memcpy(bad, f[2], 8);
			ck_assert_int_eq(memcmp(bad, "\x52\x36\x66\x6e\x76\x57"
			                        "\x6a\x38", 8), 0);
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

/* The idx-th "serverkey" row (0-based). */
static void
vec_serverkey(size_t idx, uint8_t pk[CURVE_KEY_BYTES])
{
	char copy[4096], *f[4];
	size_t i, seen = 0;

	vec_load();
	for (i = 0; i < vec_count; i++) {
		if (vec_fields(vec_line[i], f, 4, copy, sizeof copy) != 3 ||
		    strcmp(f[0], "serverkey") != 0)
			continue;
		if (seen++ == idx) {
			ck_assert_uint_eq(unhex(pk, CURVE_KEY_BYTES, f[1]), 32);
			return;
		}
	}
	ck_abort_msg("no serverkey %zu", idx);
}

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
	                                       sizeof pkt, &n), CURVE_OK);
	memcpy(refl, "R6fnvWJ8", 8);
	memcpy(refl + 8, cnonce, 12);
	memset(refl + 20, 0, 12);
	memcpy(refl + 32, pkt + 52, n - 52);
	len = 32 + n - 52;
	/* It really would open under the shared key... */
	vec_key("shared_key", key);
	memcpy(n24, cnonce, 12);
	ck_assert_int_eq(crypto_box_open_easy_afternm(out, refl + 32, len - 32,
	                                              n24, key), 0);
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
	                                        rl - 49, &n), CURVE_ESPACE);
	ck_assert_uint_eq(out[0], 0xa5);
	ck_assert_uint_eq(n, 7);
	ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, resp, rl, out,
	                                        rl - 48, &n), CURVE_OK);
	ck_assert_uint_eq(n, rl - 48);
	ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, resp, rl,
	                                        NULL, 0, &n), CURVE_ESPACE);
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

static uint8_t txq[512], txr[1024];
static size_t txql, txrl;

static void
txt_setup(void)
{
	vec_setup();
	txql = vec_bytes("txt_query", txq, sizeof txq);
	txrl = vec_bytes("txt_response", txr, sizeof txr);
}

static int
open_txt(const uint8_t *pkt, size_t len)
{
	uint8_t out[BIG / 8], *p = exact(pkt, len), *q = exact(txq, txql);
	size_t n = 0x5a5a;
	int st;

	memset(out, 0xa5, sizeof out);
	st = curve_txt_response_open(vc, spk, cnonce, q, txql, p, len, out,
	                             sizeof out, &n);
	free(p);
	free(q);
	if (st != CURVE_OK) {
		ck_assert(untouched(out, sizeof out));
		ck_assert_uint_eq(n, 0x5a5a);
	}
	return st;
}

/* Flip one byte of the vector response and expect status st. */
static void
txt_flip(size_t off, uint8_t x, int st)
{
	uint8_t bad[1024];

	memcpy(bad, txr, txrl);
	bad[off] ^= x;
	ck_assert_msg(open_txt(bad, txrl) == st, "offset %zu ^ %02x: %d",
	              off, x, open_txt(bad, txrl));
}

START_TEST(test_reject_txt_header)
{
	size_t i;

	ck_assert_int_eq(open_txt(txr, txrl), CURVE_OK);
	txt_flip(0, 0x01, CURVE_EID);
	txt_flip(1, 0x80, CURVE_EID);
	txt_flip(2, 0x80, CURVE_EFORMAT);      /* QR clear */
	txt_flip(2, 0x04, CURVE_EFORMAT);      /* AA clear */
	txt_flip(2, 0x08, CURVE_EFORMAT);      /* opcode 1 */
	txt_flip(2, 0x40, CURVE_EFORMAT);      /* opcode 8 */
	txt_flip(2, 0x02, CURVE_EFORMAT);      /* TC */
	txt_flip(3, 0x03, CURVE_EFORMAT);      /* NXDOMAIN */
	txt_flip(3, 0x05, CURVE_EFORMAT);      /* REFUSED */
	txt_flip(2, 0x01, CURVE_OK);           /* RD is not checked */
	txt_flip(3, 0x80, CURVE_OK);           /* nor RA */
	for (i = 4; i < 12; i++) {             /* counts 1/1/0/0 only */
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
	txt_flip(a + 1, 0x01, CURVE_EFORMAT);  /* pointer c00d */
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
	n = srv_txt(txq, txql, cpk, cnonce, (const uint8_t *)"\1\2\3\4\5\6\7"
	            "\10\11\12\13\14", m, ml, 1, 0, bad, ssk);
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
	                          "\xa1\xb2\xc3\xd4", 20), CURVE_EID);
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
/* nonce                                                               */

static uint64_t
counter_of(const uint8_t n[CURVE_NONCE_BYTES])
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | n[i];
	return v;
}

START_TEST(test_nonce_counter)
{
	struct curve_client *c = NULL;
	uint8_t a[12], b[12], pk1[32], pk2[32];
	uint64_t i, last = 0;
	int same = 1;

	ck_assert_int_eq(curve_client_new(&c, 0), CURVE_OK);
	for (i = 1; i <= 1000; i++) {
		ck_assert_int_eq(curve_nonce_next(c, a), CURVE_OK);
		ck_assert_uint_eq(counter_of(a), i);
		ck_assert_uint_gt(counter_of(a), last);
		last = counter_of(a);
		if (i > 1 && memcmp(a + 8, b + 8, 4) != 0)
			same = 0;
		memcpy(b, a, 12);
	}
	ck_assert_msg(!same, "random part never changes");
	/* Big-endian, over the whole 8 bytes. */
	curve_client_set_counter(c, 0x0102030405060708ull);
	ck_assert_int_eq(curve_nonce_next(c, a), CURVE_OK);
	ck_assert_int_eq(memcmp(a, "\1\2\3\4\5\6\7\10", 8), 0);
	/* Rotation: new key, counter keeps going up. */
	curve_client_pk(c, pk1);
	ck_assert_int_eq(curve_client_rotate(c), CURVE_OK);
	curve_client_pk(c, pk2);
	ck_assert_int_ne(memcmp(pk1, pk2, 32), 0);
	ck_assert_int_eq(curve_nonce_next(c, b), CURVE_OK);
	ck_assert_uint_eq(counter_of(b), 0x0102030405060709ull);
	/* Exhausted: no nonce. */
	curve_client_set_counter(c, UINT64_MAX - 1);
	ck_assert_int_eq(curve_nonce_next(c, a), CURVE_OK);
	memset(b, 0xee, sizeof b);
	ck_assert_int_eq(curve_nonce_next(c, b), CURVE_EINVAL);
	ck_assert_uint_eq(b[0], 0xee);
	ck_assert_int_eq(curve_nonce_next(c, b), CURVE_EINVAL);
	curve_client_free(c);
}
END_TEST

#define NONCE_THREADS 4
#define NONCE_PER_THREAD 20000

struct nonce_job {
	struct curve_client *c;
	uint64_t got[NONCE_PER_THREAD];
};

static void *
nonce_worker(void *arg)
{
	struct nonce_job *j = arg;
	uint8_t n[12];
	size_t i;

	for (i = 0; i < NONCE_PER_THREAD; i++) {
		if (curve_nonce_next(j->c, n) != CURVE_OK)
			return NULL;
		j->got[i] = counter_of(n);
	}
	return j;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

START_TEST(test_nonce_threads)
{
	static struct nonce_job job[NONCE_THREADS];
	static uint64_t all[NONCE_THREADS * NONCE_PER_THREAD];
	pthread_t t[NONCE_THREADS];
	struct curve_client *c = NULL;
	void *ret;
	size_t i;

	ck_assert_int_eq(curve_client_new(&c, 0), CURVE_OK);
	for (i = 0; i < NONCE_THREADS; i++) {
		job[i].c = c;
		ck_assert_int_eq(pthread_create(&t[i], NULL, nonce_worker,
		                                &job[i]), 0);
	}
	for (i = 0; i < NONCE_THREADS; i++) {
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_eq(ret, &job[i]);
		memcpy(all + i * NONCE_PER_THREAD, job[i].got,
		       sizeof job[i].got);
		/* Each thread sees its values strictly increase. */
		for (size_t k = 1; k < NONCE_PER_THREAD; k++)
			if (job[i].got[k] <= job[i].got[k - 1])
				ck_abort_msg("thread %zu went down", i);
	}
	qsort(all, NONCE_THREADS * NONCE_PER_THREAD, sizeof all[0], cmp_u64);
	for (i = 0; i < NONCE_THREADS * NONCE_PER_THREAD; i++)
		if (all[i] != i + 1)                /* no repeats, no gaps */
			ck_abort_msg("counter %zu is %llu", i,
			             (unsigned long long)all[i]);
	curve_client_free(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* sharedkey                                                           */

static void
box_to(struct curve_client *c, const uint8_t *pk, const uint8_t *sk)
{
	uint8_t pkt[128], m[64], cpk[32], nonce[12];
	size_t n = 0;

	ck_assert_int_eq(curve_nonce_next(c, nonce), CURVE_OK);
	ck_assert_int_eq(curve_streamlined_box(c, pk, nonce,
	                                       (const uint8_t *)"query", 5,
	                                       pkt, sizeof pkt, &n), CURVE_OK);
	ck_assert_uint_eq(srv_open_streamlined(pkt, n, m, cpk, sk), 5);
	ck_assert_int_eq(memcmp(m, "query", 5), 0);
}

static void
expect_stats(struct curve_client *c, uint64_t hits, uint64_t misses,
             uint64_t ev, uint64_t entries)
{
	struct curve_stats st;

	curve_client_stats(c, &st);
	ck_assert_uint_eq(st.shared_hits, hits);
	ck_assert_uint_eq(st.shared_misses, misses);
	ck_assert_uint_eq(st.shared_evictions, ev);
	ck_assert_uint_eq(st.shared_entries, entries);
}

START_TEST(test_sharedkey_lru)
{
	struct curve_client *c = NULL;
	uint8_t pk[4][32], sk[4][32];
	size_t i;

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(crypto_box_keypair(pk[i], sk[i]), 0);
	ck_assert_int_eq(curve_client_new(&c, 2), CURVE_OK);
	expect_stats(c, 0, 0, 0, 0);
	box_to(c, pk[0], sk[0]);
	expect_stats(c, 0, 1, 0, 1);
	box_to(c, pk[0], sk[0]);
	expect_stats(c, 1, 1, 0, 1);
	box_to(c, pk[1], sk[1]);
	expect_stats(c, 1, 2, 0, 2);
	box_to(c, pk[0], sk[0]);               /* A is now most recent */
	expect_stats(c, 2, 2, 0, 2);
	box_to(c, pk[2], sk[2]);               /* full: evicts B */
	expect_stats(c, 2, 3, 1, 2);
	box_to(c, pk[0], sk[0]);               /* A survived */
	expect_stats(c, 3, 3, 1, 2);
	box_to(c, pk[2], sk[2]);
	expect_stats(c, 4, 3, 1, 2);
	box_to(c, pk[1], sk[1]);               /* B again: evicts A */
	expect_stats(c, 4, 4, 2, 2);
	box_to(c, pk[0], sk[0]);               /* evicts C */
	expect_stats(c, 4, 5, 3, 2);
	box_to(c, pk[1], sk[1]);
	expect_stats(c, 5, 5, 3, 2);
	/* Rotation empties the table. */
	ck_assert_int_eq(curve_client_rotate(c), CURVE_OK);
	expect_stats(c, 5, 5, 3, 0);
	box_to(c, pk[1], sk[1]);
	expect_stats(c, 5, 6, 3, 1);
	/* A key with no shared point is not cached. */
	{
		uint8_t zero[32] = { 0 }, pkt[128], nonce[12] = { 1 };
		size_t n;

		ck_assert_int_eq(curve_streamlined_box(c, zero, nonce,
		                                       (const uint8_t *)"q", 1,
		                                       pkt, sizeof pkt, &n),
		                 CURVE_ECRYPTO);
		expect_stats(c, 5, 7, 3, 1);
	}
	{
		struct curve_stats st;

		curve_client_stats(c, &st);
		ck_assert_uint_eq(st.rotations, 1);
	}
	curve_client_free(c);
}
END_TEST

/* Many keys through tables of several sizes: every box opens at the
 * server, and the counters add up. */
START_TEST(test_sharedkey_many)
{
	static const size_t sizes[] = { 1, 3, 16, 0 };
	uint8_t pk[40][32], sk[40][32];
	struct curve_client *c = NULL;
	struct curve_stats st;
	size_t s, i, r, slots;

	for (i = 0; i < 40; i++)
		ck_assert_int_eq(crypto_box_keypair(pk[i], sk[i]), 0);
	for (s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
		ck_assert_int_eq(curve_client_new(&c, sizes[s]), CURVE_OK);
		slots = sizes[s] ? sizes[s] : CURVE_SHARED_SLOTS_DEFAULT;
		for (r = 0; r < 3; r++)
			for (i = 0; i < 40; i++)
				box_to(c, pk[(i * 7 + r) % 40],
				       sk[(i * 7 + r) % 40]);
		curve_client_stats(c, &st);
		ck_assert_uint_eq(st.shared_hits + st.shared_misses, 120);
		ck_assert_uint_eq(st.shared_entries, slots < 40 ? slots : 40);
		ck_assert_uint_eq(st.shared_evictions,
		                  st.shared_misses - st.shared_entries);
		if (slots >= 40)
			ck_assert_uint_eq(st.shared_misses, 40);
		curve_client_free(c);
	}
	ck_assert_int_eq(curve_client_new(&c, CURVE_SHARED_SLOTS_MAX + 1),
	                 CURVE_ENOMEM);
	ck_assert_ptr_null(c);
}
END_TEST

#define SK_THREADS 4
#define SK_KEYS 6

struct sk_job {
	struct curve_client *c;
	uint8_t (*pk)[32];
	uint8_t (*sk)[32];
	int rotate;
	int ok;
};

/* Box to several servers while another thread rotates: the client key in
 * each packet must match the key that boxed it. */
static void *
sk_worker(void *arg)
{
	struct sk_job *j = arg;
	uint8_t pkt[128], m[64], cpk[32], nonce[12], n24[24] = { 0 };
	size_t i, n = 0, k;

	j->ok = 1;
	for (i = 0; i < 2000; i++) {
		if (j->rotate) {
			if (curve_client_rotate(j->c) != CURVE_OK)
				j->ok = 0;
			continue;
		}
		k = i % SK_KEYS;
		if (curve_nonce_next(j->c, nonce) != CURVE_OK ||
		    curve_streamlined_box(j->c, j->pk[k], nonce,
		                          (const uint8_t *)"qq", 2, pkt,
		                          sizeof pkt, &n) != CURVE_OK) {
			j->ok = 0;
			continue;
		}
		memcpy(cpk, pkt + 8, 32);
		memcpy(n24, pkt + 40, 12);
		if (crypto_box_open_easy(m, pkt + 52, n - 52, n24, cpk,
		                         j->sk[k]) != 0)
			j->ok = 0;
	}
	return NULL;
}

START_TEST(test_sharedkey_threads)
{
	static uint8_t pk[SK_KEYS][32], sk[SK_KEYS][32];
	struct sk_job job[SK_THREADS];
	pthread_t t[SK_THREADS];
	struct curve_client *c = NULL;
	size_t i;

	for (i = 0; i < SK_KEYS; i++)
		ck_assert_int_eq(crypto_box_keypair(pk[i], sk[i]), 0);
	ck_assert_int_eq(curve_client_new(&c, 4), CURVE_OK);
	for (i = 0; i < SK_THREADS; i++) {
		job[i].c = c;
		job[i].pk = pk;
		job[i].sk = sk;
		job[i].rotate = i == 0;
		ck_assert_int_eq(pthread_create(&t[i], NULL, sk_worker,
		                                &job[i]), 0);
	}
	for (i = 0; i < SK_THREADS; i++) {
		ck_assert_int_eq(pthread_join(t[i], NULL), 0);
		ck_assert_msg(job[i].ok, "thread %zu failed", i);
	}
	curve_client_free(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* keyfile                                                             */

static char tmpdir[64];

static void
keyfile_setup(void)
{
	ck_assert_int_ge(sodium_init(), 0);
	strcpy(tmpdir, TMPL);
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void
keyfile_teardown(void)
{
	char cmd[128];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
	ck_assert_int_eq(system(cmd), 0);
}

static void
path_in(char *out, size_t cap, const char *name)
{
	ck_assert_int_lt(snprintf(out, cap, "%s/%s", tmpdir, name), (int)cap);
}

static void
write_file(const char *path, const char *data, mode_t mode)
{
	FILE *f;

	unlink(path);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, strlen(data), f), strlen(data));
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(chmod(path, mode), 0);
}

static int
load_status(const char *path)
{
	struct curve_client *c = (struct curve_client *)&c;
	int st = curve_client_load(&c, 0, path);

	if (st == CURVE_OK)
		ck_assert_ptr_nonnull(c);
	else
		ck_assert_ptr_null(c);
	curve_client_free(c);
	return st;
}

static const char hexkey[] =
    "e264283b6d9ecfc0b2d2c447eaab2f3e3d5f55115c7fde483d5e05bd7f4ff06a";

START_TEST(test_keyfile_generate_load)
{
	char path[128], buf[128];
	struct curve_client *c = NULL;
	struct stat sb;
	uint8_t sk[32], pk[32], pk2[32];
	FILE *f;
	size_t n;

	path_in(path, sizeof path, "key");
	ck_assert_int_eq(curve_keyfile_generate(path), CURVE_OK);
	ck_assert_int_eq(stat(path, &sb), 0);
	ck_assert(S_ISREG(sb.st_mode));
	ck_assert_uint_eq(sb.st_mode & 07777, 0600);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	ck_assert_uint_eq(n, 65);
	ck_assert_uint_eq(buf[64], '\n');
	ck_assert_int_eq(sodium_hex2bin(sk, 32, buf, 64, NULL, &n, NULL), 0);
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	ck_assert_int_eq(crypto_scalarmult_base(pk, sk), 0);
	curve_client_pk(c, pk2);
	ck_assert_int_eq(memcmp(pk, pk2, 32), 0);
	curve_client_free(c);
	/* Generating again replaces the key atomically (no temp left). */
	ck_assert_int_eq(curve_keyfile_generate(path), CURVE_OK);
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	curve_client_pk(c, pk2);
	ck_assert_int_ne(memcmp(pk, pk2, 32), 0);
	curve_client_free(c);
	snprintf(buf, sizeof buf, "ls '%s' | grep -vx 'key' | "
	         "grep -vx 'key.nonce' | grep -q .", tmpdir);
	ck_assert_int_ne(system(buf), 0);
	/* A missing directory. */
	path_in(path, sizeof path, "no/such/key");
	ck_assert_int_eq(curve_keyfile_generate(path), CURVE_EIO);
	/* The vector key as a file gives the vector public key. */
	path_in(path, sizeof path, "vec");
	snprintf(buf, sizeof buf, "%s\n", hexkey);
	write_file(path, buf, 0600);
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	curve_client_pk(c, pk2);
	vec_key("client_pk", pk);
	ck_assert_int_eq(memcmp(pk, pk2, 32), 0);
	curve_client_free(c);
}
END_TEST

START_TEST(test_keyfile_mode_type)
{
	static const mode_t bad[] = { 0644, 0640, 0604, 0700, 0610, 0601,
	                              04600, 0666 };
	char path[128], link[128], line[80];
	size_t i;

	path_in(path, sizeof path, "key");
	snprintf(line, sizeof line, "%s\n", hexkey);
	write_file(path, line, 0600);
	ck_assert_int_eq(load_status(path), CURVE_OK);
	ck_assert_int_eq(chmod(path, 0400), 0);
	ck_assert_int_eq(load_status(path), CURVE_OK);
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(chmod(path, bad[i]), 0);
		ck_assert_msg(load_status(path) == CURVE_EKEYFILE, "mode %o",
		              (unsigned)bad[i]);
	}
	ck_assert_int_eq(chmod(path, 0600), 0);
	/* A symlink to a good key file is followed (the target is checked). */
	path_in(link, sizeof link, "link");
	ck_assert_int_eq(symlink(path, link), 0);
	ck_assert_int_eq(load_status(link), CURVE_OK);
	/* Not regular files. */
	ck_assert_int_eq(load_status(tmpdir), CURVE_EKEYFILE);
	path_in(path, sizeof path, "fifo");
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	ck_assert_int_eq(load_status("/dev/null"), CURVE_EKEYFILE);
	/* Missing: EIO with errno. */
	path_in(path, sizeof path, "missing");
	errno = 0;
	ck_assert_int_eq(load_status(path), CURVE_EIO);
	ck_assert_int_eq(errno, ENOENT);
}
END_TEST

START_TEST(test_keyfile_malformed)
{
	char path[128], line[160];
	const char *bad[] = { "", "\n", "%.63s\n", "%.63s", "%s0\n", "%s\n\n",
	                      "%s\r\n", " %s\n", "%s \n", "%s0", "x%.63s\n" };
	size_t i;

	path_in(path, sizeof path, "key");
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
		snprintf(line, sizeof line, bad[i], hexkey);
#pragma GCC diagnostic pop
		write_file(path, line, 0600);
		ck_assert_msg(load_status(path) == CURVE_EKEYFILE, "case %zu",
		              i);
	}
	/* Not hex. */
	snprintf(line, sizeof line, "%s\n", hexkey);
	line[10] = 'g';
	write_file(path, line, 0600);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	/* Upper-case hex and no final newline are fine. */
	snprintf(line, sizeof line, "%s", hexkey);
	for (i = 0; line[i]; i++)
		if (line[i] >= 'a')
			line[i] = (char)(line[i] - 32);
	write_file(path, line, 0600);
	ck_assert_int_eq(load_status(path), CURVE_OK);
}
END_TEST

static uint64_t
read_mark(const char *keypath)
{
	char path[160], buf[64];
	FILE *f;
	size_t n;

	snprintf(path, sizeof path, "%s.nonce", keypath);
	f = fopen(path, "r");
	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return strtoull(buf, NULL, 10);
}

START_TEST(test_keyfile_nonce_persist)
{
	char path[128], npath[160];
	struct curve_client *c = NULL;
	uint8_t n[12];
	uint64_t max1 = 0, v, i, mark;

	path_in(path, sizeof path, "key");
	snprintf(npath, sizeof npath, "%s.nonce", path);
	ck_assert_int_eq(curve_keyfile_generate(path), CURVE_OK);
	ck_assert_int_ne(access(npath, F_OK), 0);
	/* First run: the mark is written before the first nonce. */
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	mark = read_mark(path);
	ck_assert_uint_eq(mark, 1 + CURVE_NONCE_BLOCK);
	for (i = 0; i < 100; i++) {
		ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
		v = counter_of(n);
		ck_assert_uint_lt(v, mark);
		if (v > max1)
			max1 = v;
	}
	/* Crossing the block reserves the next one first. */
	curve_client_set_counter(c, mark - 1);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
	ck_assert_uint_eq(counter_of(n), mark - 1);
	ck_assert_uint_eq(read_mark(path), mark);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
	ck_assert_uint_eq(counter_of(n), mark);
	ck_assert_uint_eq(read_mark(path), mark + CURVE_NONCE_BLOCK);
	max1 = counter_of(n);
	curve_client_free(c);
	/* Second run never reuses a counter value of the first. */
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	for (i = 0; i < 100; i++) {
		ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
		ck_assert_uint_gt(counter_of(n), max1);
	}
	ck_assert_uint_eq(read_mark(path), mark + 2 * CURVE_NONCE_BLOCK);
	/* Rotation stops using the file. */
	ck_assert_int_eq(curve_client_rotate(c), CURVE_OK);
	curve_client_set_counter(c, mark + 5 * CURVE_NONCE_BLOCK);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
	ck_assert_uint_eq(read_mark(path), mark + 2 * CURVE_NONCE_BLOCK);
	curve_client_free(c);
}
END_TEST

START_TEST(test_keyfile_nonce_errors)
{
	char path[128], npath[160], cmd[256];
	struct curve_client *c = NULL;
	uint8_t n[12];

	path_in(path, sizeof path, "key");
	snprintf(npath, sizeof npath, "%s.nonce", path);
	ck_assert_int_eq(curve_keyfile_generate(path), CURVE_OK);
	/* Malformed marks. */
	write_file(npath, "12x\n", 0600);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	write_file(npath, "\n", 0600);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	write_file(npath, "99999999999999999999\n", 0600);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	write_file(npath, "123456789012345678901234\n", 0600);
	ck_assert_int_eq(load_status(path), CURVE_EKEYFILE);
	write_file(npath, "4096", 0600);
	ck_assert_int_eq(load_status(path), CURVE_OK);
	ck_assert_uint_eq(read_mark(path), 4096 + CURVE_NONCE_BLOCK);
	/* The mark cannot be read: EIO. */
	unlink(npath);
	ck_assert_int_eq(mkdir(npath, 0700), 0);
	ck_assert_int_eq(load_status(path), CURVE_EIO);
	ck_assert_int_eq(rmdir(npath), 0);
	/* The mark cannot be written later: no nonce, EIO. */
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	unlink(npath);
	ck_assert_int_eq(mkdir(npath, 0700), 0);
	snprintf(cmd, sizeof cmd, "touch '%s/x'", npath);
	ck_assert_int_eq(system(cmd), 0);
	curve_client_set_counter(c, UINT64_MAX / 2);
	memset(n, 0xee, sizeof n);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_EIO);
	ck_assert_uint_eq(n[0], 0xee);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_EIO);
	curve_client_free(c);
	/* Near the end of the counter space the mark saturates. */
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", npath);
	ck_assert_int_eq(system(cmd), 0);
	snprintf(cmd, sizeof cmd, "%llu\n",
	         (unsigned long long)(UINT64_MAX - 2));
	write_file(npath, cmd, 0600);
	ck_assert_int_eq(curve_client_load(&c, 0, path), CURVE_OK);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
	ck_assert_uint_eq(counter_of(n), UINT64_MAX - 2);
	ck_assert_int_eq(curve_nonce_next(c, n), CURVE_OK);
	ck_assert_int_ne(curve_nonce_next(c, n), CURVE_OK);
	curve_client_free(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* txt                                                                 */

/* Build a TXT query for an inner query of ql bytes, have the test server
 * open it, answer with strings of `chunk` bytes, and open the answer. */
static void
txt_roundtrip(size_t ql, const char *zone, size_t chunk, int literal)
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
	txt_roundtrip(32, "x.onion", 255, 0);   /* c-ares refuses .onion */
	/* "zone." is "zone"; "." and "" are the root. */
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, "curve.test",
	                                       q, 32, a, sizeof a, &na),
	                 CURVE_OK);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1,
	                                       "curve.test.", q, 32, b,
	                                       sizeof b, &nb), CURVE_OK);
	ck_assert_uint_eq(na, nb);
	ck_assert_int_eq(memcmp(a, b, na), 0);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, ".", q, 32,
	                                       a, sizeof a, &na), CURVE_OK);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, "", q, 32,
	                                       b, sizeof b, &nb), CURVE_OK);
	ck_assert_uint_eq(na, nb);
	ck_assert_int_eq(memcmp(a, b, na), 0);
	ck_assert_uint_eq(na, 181 - 11);
	ck_assert_uint_eq(a[na - 5], 0);        /* root after the x1a label */
	/* Bad zones. */
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, "a..b", q,
	                                       32, a, sizeof a, &na),
	                 CURVE_ENAME);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, ".a", q, 32,
	                                       a, sizeof a, &na), CURVE_ENAME);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, "a\\.b", q,
	                                       32, a, sizeof a, &na),
	                 CURVE_ENAME);
	memset(zone, 'z', 64);
	zone[64] = '\0';
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, zone, q, 32,
	                                       a, sizeof a, &na), CURVE_ENAME);
	zone[63] = '\0';
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, zone, q, 32,
	                                       a, sizeof a, &na), CURVE_OK);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, NULL, q, 32,
	                                       a, sizeof a, &na), CURVE_EINVAL);
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

	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, "curve.test",
	                                       q, 32, pkt, sizeof pkt, &need),
	                 CURVE_OK);
	ck_assert_uint_eq(need, 181);
	memset(pkt, 0xee, sizeof pkt);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, "curve.test",
	                                       q, 32, pkt, need - 1, &n),
	                 CURVE_ESPACE);
	ck_assert_uint_eq(pkt[0], 0xee);
	ck_assert_int_eq(curve_txt_query_build(vc, spk, cnonce, 1, "curve.test",
	                                       q, CURVE_TXT_MAX_QUERY + 1,
	                                       pkt, sizeof pkt, &n),
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
		const char *name = "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmq"
		                   "d280z0ynh2.ns1.curve.test";

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
	                                        sizeof out, &ol), CURVE_OK);
	ck_assert_uint_eq(ol, sizeof m);
	ck_assert_int_eq(memcmp(out, m, ol), 0);
	pkt[n - 1] ^= 1;
	ck_assert_int_eq(curve_streamlined_open(vc, spk, cnonce, pkt, n, out,
	                                        sizeof out, &ol), CURVE_EAUTH);
	/* Streamlined box: exactly qlen + 68 bytes of room. */
	ck_assert_int_eq(curve_streamlined_box(vc, spk, cnonce, q, 32, pkt,
	                                       32 + 67, &n), CURVE_ESPACE);
	ck_assert_int_eq(curve_streamlined_box(vc, spk, cnonce, q, 32, pkt,
	                                       32 + 68, &n), CURVE_OK);
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

static Suite *
curve_suite(void)
{
	Suite *s = suite_create("curve");
	TCase *tc;

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

	tc = tcase_create("nonce");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_nonce_counter);
	tcase_add_test(tc, test_nonce_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("sharedkey");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_sharedkey_lru);
	tcase_add_test(tc, test_sharedkey_many);
	tcase_add_test(tc, test_sharedkey_threads);
	suite_add_tcase(s, tc);

	tc = tcase_create("keyfile");
	tcase_add_checked_fixture(tc, keyfile_setup, keyfile_teardown);
	tcase_add_test(tc, test_keyfile_generate_load);
	tcase_add_test(tc, test_keyfile_mode_type);
	tcase_add_test(tc, test_keyfile_malformed);
	tcase_add_test(tc, test_keyfile_nonce_persist);
	tcase_add_test(tc, test_keyfile_nonce_errors);
	suite_add_tcase(s, tc);

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
	return s;
}

int
main(void)
{
	SRunner *sr = srunner_create(curve_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
