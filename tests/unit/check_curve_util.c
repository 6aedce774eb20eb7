/*
 * tests/unit/check_curve_util.c - helpers of the Check suite "curve": the
 * vector file reader, the fixture with the vector client key, and the
 * test-side DNSCurve server (libsodium directly, independent of curve/).
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
/* Vector file                                                         */

char *vec_line[VEC_MAX_LINES];
size_t vec_count;

void vec_load(void)
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
size_t vec_fields(const char *line, char **field, size_t max, char *copy,
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

size_t unhex(uint8_t *out, size_t cap, const char *hex)
{
	size_t n = 0;

	if (strcmp(hex, "-") == 0)
		return 0;
	ck_assert_int_eq(sodium_hex2bin(out, cap, hex, strlen(hex), NULL, &n,
	                                NULL),
	                 0);
	return n;
}

/* The bytes of "hex NAME" or "block NAME LEN" (checking LEN). */
size_t vec_bytes(const char *name, uint8_t *out, size_t cap)
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

void vec_key(const char *name, uint8_t k[CURVE_KEY_BYTES])
{
	ck_assert_uint_eq(vec_bytes(name, k, CURVE_KEY_BYTES),
	                  CURVE_KEY_BYTES);
}

int status_of(const char *name)
{
	static const char *names[] = {
		"CURVE_OK",        "CURVE_ESHORT",  "CURVE_EMAGIC",
		"CURVE_ENONCE",    "CURVE_EAUTH",   "CURVE_EBASE32",
		"CURVE_ESPACE",    "CURVE_EFORMAT", "CURVE_EID",
		"CURVE_EQUESTION", "CURVE_ENOKEY",  "CURVE_ENAME",
		"CURVE_ENOMEM",    "CURVE_EIO",     "CURVE_EKEYFILE",
		"CURVE_EINVAL",    "CURVE_ECRYPTO",
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

struct curve_client *vc; /* client with the vector key */
uint8_t spk[CURVE_KEY_BYTES], ssk[CURVE_SECRET_BYTES];
uint8_t cnonce[CURVE_NONCE_BYTES];

void vec_setup(void)
{
	uint8_t csk[CURVE_SECRET_BYTES];

	ck_assert_int_ge(sodium_init(), 0);
	ck_assert_uint_eq(vec_bytes("client_sk", csk, sizeof csk), sizeof csk);
	ck_assert_int_eq(curve_client_from_secret(&vc, 0, csk), CURVE_OK);
	vec_key("server_pk", spk);
	ck_assert_uint_eq(vec_bytes("server_sk", ssk, sizeof ssk), sizeof ssk);
	/* Built by hand: counter 1, random part a1b2c3d4. */
	memcpy(cnonce, "\0\0\0\0\0\0\0\1\xa1\xb2\xc3\xd4", sizeof cnonce);
}

void vec_teardown(void)
{
	curve_client_free(vc);
	vc = NULL;
}

/* Server side: box m for the client (nonce cn | ext). */
void srv_box(const uint8_t cpk[CURVE_KEY_BYTES], const uint8_t *cn,
             const uint8_t *ext, const uint8_t *m, size_t mlen, uint8_t *box,
             const uint8_t *sk)
{
	uint8_t n24[CURVE_BOX_NONCE_BYTES];

	memcpy(n24, cn, CURVE_NONCE_BYTES);
	memcpy(n24 + CURVE_NONCE_BYTES, ext, CURVE_NONCE_BYTES);
	ck_assert_int_eq(crypto_box_easy(box, m, mlen, n24, cpk, sk), 0);
}

/* Server side: a streamlined response; returns its length. */
size_t srv_streamlined(const uint8_t cpk[CURVE_KEY_BYTES], const uint8_t *cn,
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
size_t srv_open_streamlined(const uint8_t *pkt, size_t len, uint8_t *m,
                            uint8_t cpk_out[CURVE_KEY_BYTES],
                            const uint8_t *sk)
{
	uint8_t n24[CURVE_BOX_NONCE_BYTES] = { 0 };

	ck_assert_uint_ge(len, CURVE_STREAMLINED_QUERY_OVERHEAD);
	ck_assert_int_eq(memcmp(pkt, "Q6fnvWj8", 8), 0);
	memcpy(cpk_out, pkt + 8, CURVE_KEY_BYTES);
	memcpy(n24, pkt + 40, CURVE_NONCE_BYTES);
	ck_assert_int_eq(crypto_box_open_easy(m, pkt + 52, len - 52, n24,
	                                      cpk_out, sk),
	                 0);
	return len - CURVE_STREAMLINED_QUERY_OVERHEAD;
}

/* Server side: take a TXT query apart (independently of curve/): client
 * nonce, client key and inner query; returns the inner length. */
size_t srv_open_txt(const uint8_t *q, size_t qlen, const char *zone_wire,
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
	                                     52),
	                 CURVE_OK);
	ck_assert_uint_eq(klen, CURVE_KEY_BYTES);
	memcpy(cpk, key, CURVE_KEY_BYTES);
	ck_assert_uint_eq(qlen, pos + zlen + 4);
	ck_assert_int_eq(memcmp(q + pos, zone_wire, zlen), 0);
	ck_assert_int_eq(memcmp(q + pos + zlen, "\0\x10\0\x01", 4), 0);
	ck_assert_int_eq(curve_base32_decode(data, sizeof data, &dlen, b32,
	                                     nb),
	                 CURVE_OK);
	ck_assert_uint_ge(dlen, 28);
	memcpy(cn, data, CURVE_NONCE_BYTES);
	memcpy(n24, data, CURVE_NONCE_BYTES);
	ck_assert_int_eq(crypto_box_open_easy(m, data + 12, dlen - 12, n24,
	                                      cpk, sk),
	                 0);
	return dlen - 28;
}

/* Server side: TXT response to query q (strings of at most chunk bytes,
 * owner as pointer c00c or, if literal, the name). Returns its length. */
size_t srv_txt(const uint8_t *q, size_t qlen,
               const uint8_t cpk[CURVE_KEY_BYTES], const uint8_t *cn,
               const uint8_t *ext, const uint8_t *m, size_t mlen, size_t chunk,
               int literal, uint8_t *out, const uint8_t *sk)
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
int untouched(const uint8_t *out, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (out[i] != 0xa5)
			return 0;
	return 1;
}

/* A buffer of exactly len bytes, so ASan sees any read past len. */
uint8_t *exact(const uint8_t *src, size_t len)
{
	uint8_t *p = malloc(len > 0 ? len : 1);

	ck_assert_ptr_nonnull(p);
	if (len > 0)
		memcpy(p, src, len);
	return p;
}

/* Name in wire format from dotted text (test's own, independent). */
size_t wire_name(const char *text, uint8_t *out)
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

uint8_t txq[512], txr[1024];
size_t txql, txrl;
/* The idx-th "serverkey" row (0-based). */
void vec_serverkey(size_t idx, uint8_t pk[CURVE_KEY_BYTES])
{
	char copy[4096], *f[4];
	size_t i, seen = 0;

	vec_load();
	for (i = 0; i < vec_count; i++) {
		if (vec_fields(vec_line[i], f, 4, copy, sizeof copy) != 3 ||
		    strcmp(f[0], "serverkey") != 0)
			continue;
		if (seen++ == idx) {
			ck_assert_uint_eq(unhex(pk, CURVE_KEY_BYTES, f[1]),
			                  32);
			return;
		}
	}
	ck_abort_msg("no serverkey %zu", idx);
}

int open_sl(const uint8_t *pkt, size_t len, const uint8_t *key,
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

void txt_setup(void)
{
	vec_setup();
	txql = vec_bytes("txt_query", txq, sizeof txq);
	txrl = vec_bytes("txt_response", txr, sizeof txr);
}

int open_txt(const uint8_t *pkt, size_t len)
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

uint64_t counter_of(const uint8_t n[CURVE_NONCE_BYTES])
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < 8; i++)
		v = (v << 8) | n[i];
	return v;
}
