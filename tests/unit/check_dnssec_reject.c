/*
 * tests/unit/check_dnssec_reject.c - the rejection paths of the DNSSEC
 * primitives: tampered data, wrong keys, time, serial wrap-around, RRSIG
 * fields, unsupported algorithms, truncated and hostile lengths.
 */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dnssec_test.h"

/* Tampered data, signature or key: the signature does not verify. */
START_TEST(test_reject_tampered)
{
	struct dnssec_pubkey *pk = NULL;
	struct dnssec_dnskey k;
	struct dnssec_rrsig s;
	size_t len = 0;
	struct ex e;

	ex_5702(&e);
	e.o.rdata[3] = 92;
	ck_assert_int_eq(ex_verify(&e), DNSSEC_EBADSIG);
	e.o.rdata[3] = 91;
	e.sig[e.siglen - 5] ^= 0x10;
	ck_assert_int_eq(ex_verify(&e), DNSSEC_EBADSIG);
	e.sig[e.siglen - 5] ^= 0x10;
	ck_assert_int_eq(ex_verify(&e), DNSSEC_OK);
	/* Another key of the same size (one modulus bit changed). */
	ck_assert_int_eq(dnssec_rrsig_parse(e.sig, e.siglen, &s), DNSSEC_OK);
	ck_assert_int_eq(dnssec_signed_data(&s, &e.o.set, scratch,
	                                    sizeof scratch, &len),
	                 DNSSEC_OK);
	e.key[20] ^= 0x01;
	ck_assert_int_eq(dnssec_dnskey_parse(e.key, e.keylen, &k), DNSSEC_OK);
	ck_assert_int_eq(dnssec_pubkey_new(&k, &pk), DNSSEC_OK);
	ck_assert_int_eq(dnssec_pubkey_verify(pk, s.sig, s.siglen, scratch,
	                                      len),
	                 DNSSEC_EBADSIG);
	dnssec_pubkey_free(pk);
	/* Through the whole path the changed key has another tag. */
	ck_assert_int_eq(ex_verify(&e), DNSSEC_EKEYTAG);
}
END_TEST

/* Inception and expiration, inclusive. */
START_TEST(test_reject_time)
{
	struct ex e;

	ex_5702(&e);
	e.now = rtime("20000101000000") - 1;
	ck_assert_int_eq(ex_verify(&e), DNSSEC_ENOTYET);
	e.now = rtime("20300101000000");
	ck_assert_int_eq(ex_verify(&e), DNSSEC_OK);
	e.now += 1;
	ck_assert_int_eq(ex_verify(&e), DNSSEC_EEXPIRED);
}
END_TEST

/* Serial-number arithmetic (RFC 4034 section 3.1.5): a validity period
 * across the 32-bit wrap of 2106 holds. */
START_TEST(test_reject_serial)
{
	const time_t wrap = (time_t)1 << 32;
	struct dnssec_dnskey k;
	struct dnssec_rrsig s;
	uint8_t z[WIRE_NAME_MAX];
	size_t zl = tname("example.net.", z);
	struct ex e;

	ex_5702(&e);
	ck_assert_int_eq(dnssec_rrsig_parse(e.sig, e.siglen, &s), DNSSEC_OK);
	ck_assert_int_eq(dnssec_dnskey_parse(e.key, e.keylen, &k), DNSSEC_OK);
	s.inception = 0xffffff00u;
	s.expiration = 0x00000100u;
	ck_assert_int_eq(dnssec_rrsig_check(&s, &e.o.set, z, zl, &k,
	                                    wrap + 0x10),
	                 DNSSEC_OK);
	ck_assert_int_eq(dnssec_rrsig_check(&s, &e.o.set, z, zl, &k,
	                                    wrap - 0x10),
	                 DNSSEC_OK);
	ck_assert_int_eq(dnssec_rrsig_check(&s, &e.o.set, z, zl, &k,
	                                    wrap + 0x101),
	                 DNSSEC_EEXPIRED);
	ck_assert_int_eq(dnssec_rrsig_check(&s, &e.o.set, z, zl, &k,
	                                    wrap - 0x101),
	                 DNSSEC_ENOTYET);
}
END_TEST

/* The RRSIG against its RRset, zone and key. */
START_TEST(test_reject_fields)
{
	struct ex e;

	ex_5702(&e);
	e.o.set.type = WIRE_TYPE_AAAA;
	ck_assert_int_eq(ex_verify(&e), DNSSEC_ETYPE);
	ex_5702(&e);
	ck_assert_int_eq(verify_one(&e.o, "example.org.", e.sig, e.siglen,
	                            e.key, e.keylen, e.now),
	                 DNSSEC_ESIGNER);
	one_init(&e.o, "www.example.com.", 1, a_91, sizeof a_91);
	ck_assert_int_eq(ex_verify(&e), DNSSEC_ESIGNER);
	ex_5702(&e);
	e.sig[3] = 4; /* labels */
	ck_assert_int_eq(ex_verify(&e), DNSSEC_ELABELS);
	ex_5702(&e);
	e.sig[17] ^= 1; /* key tag */
	ck_assert_int_eq(ex_verify(&e), DNSSEC_EKEYTAG);
	ex_5702(&e);
	e.key[3] = 10; /* algorithm */
	ck_assert_int_eq(ex_verify(&e), DNSSEC_EALGMISMATCH);
	ex_5702(&e);
	e.key[0] = 0; /* flags 0: not a zone key */
	ck_assert_int_eq(ex_verify(&e), DNSSEC_ENOTZONEKEY);
	ex_5702(&e);
	e.key[2] = 2; /* protocol */
	ck_assert_int_eq(ex_verify(&e), DNSSEC_EPROTOCOL);
}
END_TEST

/* Unsupported is its own status, never a failed signature. */
START_TEST(test_unsupported)
{
	static const uint8_t salt[] = { 0xaa };
	uint8_t name[WIRE_NAME_MAX], h[DNSSEC_NSEC3_HASH_BYTES];
	uint8_t ds[8] = { 0xec, 0x45, 5, 3, 1, 2, 3, 4 };
	uint8_t d[DNSSEC_DIGEST_MAX];
	struct dnssec_pubkey *pk = NULL;
	struct dnssec_dnskey k;
	size_t nl = tname("example.", name), dl = 0;
	unsigned alg[] = { 1, 3, 6, 12, 253 }, i;
	struct ex e;
	int st;

	for (i = 0; i < sizeof alg / sizeof alg[0]; i++) {
		ex_5702(&e);
		e.key[3] = (uint8_t)alg[i];
		e.sig[2] = (uint8_t)alg[i];
		put16(e.sig + 16, dnssec_key_tag(e.key, e.keylen));
		ck_assert_int_eq(ex_verify(&e), DNSSEC_EUNSUPPORTED_ALG);
		ck_assert_int_eq(dnssec_dnskey_parse(e.key, e.keylen, &k),
		                 DNSSEC_OK);
		ck_assert_int_eq(dnssec_pubkey_new(&k, &pk),
		                 DNSSEC_EUNSUPPORTED_ALG);
		ck_assert_int_eq(dnssec_alg_supported((uint8_t)alg[i]), 0);
	}
	ck_assert_int_eq(dnssec_ds_digest(3, name, nl, e.key, e.keylen, d,
	                                  &dl),
	                 DNSSEC_EUNSUPPORTED_DIGEST);
	ck_assert_int_eq(dnssec_ds_match(ds, sizeof ds, name, nl, e.key,
	                                 e.keylen),
	                 DNSSEC_EUNSUPPORTED_DIGEST);
	ck_assert_int_eq(dnssec_nsec3_hash(2, 0, 50, salt, 1, name, nl, h),
	                 DNSSEC_EUNSUPPORTED_HASH);
	ck_assert_int_eq(dnssec_nsec3_hash(1, 51, 50, salt, 1, name, nl, h),
	                 DNSSEC_EITERATIONS);
	ck_assert_int_eq(dnssec_nsec3_hash(1, 50, 50, salt, 1, name, nl, h),
	                 DNSSEC_OK);
	ck_assert_int_eq(dnssec_nsec3_hash(1, 0, 0, NULL, 0, name, nl, h),
	                 DNSSEC_OK);
	for (st = DNSSEC_OK; st <= DNSSEC_ENOSIG; st++)
		ck_assert_str_ne(dnssec_strerror(st), "unknown status");
	ck_assert_str_eq(dnssec_strerror(DNSSEC_EFAILCAP + 1),
	                 "unknown status");
}
END_TEST

/* Every prefix of the RRSIG, DNSKEY and DS RDATA, each in a heap buffer
 * of exactly its length (ASan sees any read past it): never accepted. */
START_TEST(test_reject_truncated)
{
	uint8_t owner[WIRE_NAME_MAX], d[DNSSEC_DIGEST_MAX], *p;
	size_t ol = tname("example.net.", owner), dl = 0, n;
	struct dnssec_rrsig s;
	struct ex e;

	ex_5702(&e);
	for (n = 0; n < e.siglen; n++) {
		p = malloc(n + 1);
		memcpy(p, e.sig, n);
		ck_assert_int_ne(verify_one(&e.o, "example.net.", p, n, e.key,
		                            e.keylen, e.now),
		                 DNSSEC_OK);
		free(p);
	}
	for (n = 0; n < e.keylen; n++) {
		p = malloc(n + 1);
		memcpy(p, e.key, n);
		ck_assert_int_ne(verify_one(&e.o, "example.net.", e.sig,
		                            e.siglen, p, n, e.now),
		                 DNSSEC_OK);
		free(p);
	}
	ck_assert_int_eq(dnssec_ds_digest(2, owner, ol, e.key, e.keylen, d,
	                                  &dl),
	                 DNSSEC_OK);
	memmove(d + 4, d, dl);
	put16(d, 9033);
	d[2] = 8;
	d[3] = 2;
	ck_assert_int_eq(dnssec_ds_match(d, dl + 4, owner, ol, e.key,
	                                 e.keylen),
	                 DNSSEC_OK);
	for (n = 0; n < dl + 4; n++)
		ck_assert_int_ne(dnssec_ds_match(d, n, owner, ol, e.key,
		                                 e.keylen),
		                 DNSSEC_OK);
	/* A compressed signer name is malformed (RFC 4034 section 3.1.7). */
	memcpy(d, e.sig, 18);
	d[18] = 0xc0;
	d[19] = 0;
	ck_assert_int_eq(dnssec_rrsig_parse(d, 30, &s), DNSSEC_EFORMAT);
}
END_TEST

/* Keys and signatures of the wrong size for their algorithm. */
static int key_status(unsigned alg, const uint8_t *key, size_t n)
{
	struct dnssec_pubkey *pk = NULL;
	struct dnssec_dnskey k;
	uint8_t rd[1100];
	int rc;

	put16(rd, 257);
	rd[2] = 3;
	rd[3] = (uint8_t)alg;
	memcpy(rd + 4, key, n);
	rc = dnssec_dnskey_parse(rd, n + 4, &k);
	if (rc != DNSSEC_OK)
		return rc;
	rc = dnssec_pubkey_new(&k, &pk);
	dnssec_pubkey_free(pk);
	return rc;
}

START_TEST(test_reject_key_forms)
{
	uint8_t key[1100], raw[600];
	size_t n = b64(R6605_KEY13, raw, sizeof raw);

	ck_assert_int_eq(key_status(13, raw, n), DNSSEC_OK);
	ck_assert_int_eq(key_status(13, raw, n - 1), DNSSEC_EKEY);
	ck_assert_int_eq(key_status(14, raw, n), DNSSEC_EKEY);
	raw[n - 1] ^= 1; /* Y no longer matches X: off the curve */
	ck_assert_int_eq(key_status(13, raw, n), DNSSEC_EKEY);
	n = b64(R8080_KEY15A, raw, sizeof raw);
	ck_assert_int_eq(key_status(15, raw, n), DNSSEC_OK);
	ck_assert_int_eq(key_status(15, raw, n - 1), DNSSEC_EKEY);
	ck_assert_int_eq(key_status(16, raw, n), DNSSEC_EKEY);
	/* RSA: exponent 3 bytes long form, empty, too long, no modulus;
	 * a modulus below 512 or above 4096 bits. */
	n = b64(R5702_KEY8, raw, sizeof raw);
	ck_assert_int_eq(key_status(8, raw, n), DNSSEC_OK);
	key[0] = 0;
	key[1] = 0;
	memcpy(key + 2, raw, n);
	ck_assert_int_eq(key_status(8, key, n + 2), DNSSEC_OK);
	key[2] = 0;
	ck_assert_int_eq(key_status(8, key, n + 2), DNSSEC_EKEY);
	key[2] = 0xff;
	ck_assert_int_eq(key_status(8, key, n + 2), DNSSEC_EKEY);
	ck_assert_int_eq(key_status(8, key, 2), DNSSEC_EKEY);
	key[0] = 9;
	ck_assert_int_eq(key_status(8, key, 9 + 64 + 1), DNSSEC_EKEY);
	ck_assert_int_eq(key_status(8, raw, n - 1), DNSSEC_EKEY);
	memset(key, 0x55, sizeof key);
	key[0] = 3;
	ck_assert_int_eq(key_status(8, key, 4 + 512), DNSSEC_OK);
	ck_assert_int_eq(key_status(8, key, 4 + 513), DNSSEC_EKEY);
	ck_assert_int_eq(key_status(8, key, 1), DNSSEC_EKEY);
	ck_assert_int_eq(key_status(8, key, 0), DNSSEC_EFORMAT);
}
END_TEST

START_TEST(test_reject_sig_forms)
{
	static const char *const keys[] = { R5702_KEY8, R6605_KEY13,
		                            R6605_KEY14, R8080_KEY15A,
		                            R8080_KEY16A };
	static const unsigned alg[] = { 8, 13, 14, 15, 16 };
	static const size_t len[] = { 64, 64, 96, 64, 114 };
	struct dnssec_pubkey *pk = NULL;
	struct dnssec_dnskey k;
	uint8_t rd[600], sig[200];
	size_t i;

	memset(sig, 1, sizeof sig);
	for (i = 0; i < 5; i++) {
		ck_assert_int_eq(dnssec_dnskey_parse(rd,
		                                     dnskey(rd, 257, 3, alg[i],
		                                            keys[i]),
		                                     &k),
		                 DNSSEC_OK);
		/* told from the lengths alone, as the key would say */
		ck_assert_int_eq(dnssec_sig_fits(&k, len[i]), DNSSEC_OK);
		ck_assert_int_eq(dnssec_sig_fits(&k, len[i] - 1),
		                 DNSSEC_ESIGLEN);
		ck_assert_int_eq(dnssec_sig_fits(&k, len[i] + 1),
		                 DNSSEC_ESIGLEN);
		ck_assert_int_eq(dnssec_sig_fits(&k, 0), DNSSEC_ESIGLEN);
		ck_assert_int_eq(dnssec_pubkey_new(&k, &pk), DNSSEC_OK);
		ck_assert_int_eq(dnssec_pubkey_verify(pk, sig, len[i] - 1, rd,
		                                      10),
		                 DNSSEC_ESIGLEN);
		ck_assert_int_eq(dnssec_pubkey_verify(pk, sig, len[i] + 1, rd,
		                                      10),
		                 DNSSEC_ESIGLEN);
		ck_assert_int_eq(dnssec_pubkey_verify(pk, sig, 0, rd, 10),
		                 DNSSEC_ESIGLEN);
		ck_assert_int_eq(dnssec_pubkey_verify(pk, sig, len[i], rd, 10),
		                 DNSSEC_EBADSIG);
		dnssec_pubkey_free(pk);
		pk = NULL;
	}
}
END_TEST

/* The key tag read eight bytes at a time is the RFC 4034 Appendix B
 * sum, byte by byte: every length to past one block of 256 words, with
 * all bytes 0xff (the largest lane sums) and with varied ones. */
START_TEST(test_key_tag_words)
{
	static uint8_t rd[2100];
	size_t len, i;
	int fill;

	for (fill = 0; fill < 2; fill++) {
		for (i = 0; i < sizeof rd; i++)
			rd[i] = fill == 0 ? 0xff : (uint8_t)(i * 131u + 7u);
		for (len = 0; len <= sizeof rd; len++) {
			uint32_t ac = 0;

			for (i = 0; i < len; i++)
				ac += (i & 1) ? rd[i] : (uint32_t)rd[i] << 8;
			ac += (ac >> 16) & 0xffffu;
			ck_assert_uint_eq(dnssec_key_tag(rd, len),
			                  ac & 0xffffu);
		}
	}
}
END_TEST

/* RDATA views outside their buffer, RRsets too big or empty. */
START_TEST(test_reject_rrset_shape)
{
	static struct dnssec_rdata many[DNSSEC_RRSET_MAX + 1];
	struct dnssec_rrsig s;
	size_t len = 0, i;
	struct ex e;

	ex_5702(&e);
	ck_assert_int_eq(dnssec_rrsig_parse(e.sig, e.siglen, &s), DNSSEC_OK);
	e.o.rd.off = 1;
	ck_assert_int_eq(dnssec_signed_data(&s, &e.o.set, scratch,
	                                    sizeof scratch, &len),
	                 DNSSEC_EFORMAT);
	e.o.rd.off = 5;
	ck_assert_int_eq(dnssec_signed_data(&s, &e.o.set, scratch,
	                                    sizeof scratch, &len),
	                 DNSSEC_EFORMAT);
	e.o.rd.off = 0;
	for (i = 0; i < DNSSEC_RRSET_MAX + 1; i++)
		many[i] = e.o.rd;
	e.o.set.rd = many;
	e.o.set.count = DNSSEC_RRSET_MAX + 1;
	ck_assert_int_eq(dnssec_signed_data(&s, &e.o.set, scratch,
	                                    sizeof scratch, &len),
	                 DNSSEC_ETOOMANY);
	e.o.set.count = DNSSEC_RRSET_MAX; /* all duplicates: one record */
	ck_assert_int_eq(dnssec_signed_data(&s, &e.o.set, scratch,
	                                    sizeof scratch, &len),
	                 DNSSEC_OK);
	ck_assert_uint_eq(len, 18 + 13 + 17 + 10 + 4);
	e.o.set.count = 0;
	ck_assert_int_eq(dnssec_signed_data(&s, &e.o.set, scratch,
	                                    sizeof scratch, &len),
	                 DNSSEC_EINVAL);
}
END_TEST

/* The largest RRset the scratch size promises to hold: DNSSEC_RRSET_MAX
 * SOA records under a 255-byte owner, both names of each a compression
 * pointer to a 255-byte name (every byte expands), all in one message. */
START_TEST(test_canon_worst)
{
	static struct dnssec_rdata rd[DNSSEC_RRSET_MAX];
	static uint8_t msg[WIRE_MSG_MAX];
	static const struct sigtext t = {
		6, 8, 4, 0, "0", "0", 0, ".", "AAAA"
	};
	uint8_t sig[100], owner[WIRE_NAME_MAX];
	struct dnssec_rrset set;
	struct dnssec_rrsig s;
	size_t pos = 0, len = 0, i;

	while (pos + 64 < WIRE_NAME_MAX) { /* 3 labels of 63, then 61 */
		msg[pos] = 63;
		memset(msg + pos + 1, 'A', 63);
		pos += 64;
	}
	msg[pos] = (uint8_t)(WIRE_NAME_MAX - pos - 2);
	memset(msg + pos + 1, 'B', msg[pos]);
	pos = WIRE_NAME_MAX; /* the root label ends the name */
	memcpy(owner, msg, WIRE_NAME_MAX);
	for (i = 0; i < DNSSEC_RRSET_MAX; i++, pos += 24) {
		ck_assert_uint_le(pos + 24, sizeof msg);
		memcpy(msg + pos, "\xc0\0\xc0\0", 4);
		put32(msg + pos + 4, (uint32_t)i); /* distinct serials */
		rd[i].msg = msg;
		rd[i].msglen = sizeof msg;
		rd[i].off = pos;
		rd[i].len = 24;
	}
	set.owner = owner;
	set.ownerlen = WIRE_NAME_MAX;
	set.type = 6;
	set.rclass = 1;
	set.rd = rd;
	set.count = DNSSEC_RRSET_MAX;
	ck_assert_int_eq(dnssec_rrsig_parse(sig, rrsig(sig, &t), &s),
	                 DNSSEC_OK);
	ck_assert_int_eq(dnssec_signed_data(&s, &set, scratch, sizeof scratch,
	                                    &len),
	                 DNSSEC_OK);
	ck_assert_uint_eq(len,
	                  19 + DNSSEC_RRSET_MAX * (WIRE_NAME_MAX + 10 +
	                                           2 * WIRE_NAME_MAX + 20));
}
END_TEST

/* base32hex: only canonical text decodes. */
START_TEST(test_reject_b32hex)
{
	uint8_t out[8];
	char text[8];
	size_t n = 0;

	ck_assert_int_eq(dnssec_b32hex_decode(out, sizeof out, &n, "0w", 2),
	                 DNSSEC_EFORMAT);
	ck_assert_int_eq(dnssec_b32hex_decode(out, sizeof out, &n, "0", 1),
	                 DNSSEC_EFORMAT);
	ck_assert_int_eq(dnssec_b32hex_decode(out, sizeof out, &n, "01", 2),
	                 DNSSEC_EFORMAT);
	ck_assert_int_eq(dnssec_b32hex_decode(out, sizeof out, &n, "0=", 2),
	                 DNSSEC_EFORMAT);
	ck_assert_int_eq(dnssec_b32hex_decode(out, sizeof out, &n, "V4", 2),
	                 DNSSEC_OK);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(out[0], 0xf9);
	ck_assert_int_eq(dnssec_b32hex_decode(out, 0, &n, "v4", 2),
	                 DNSSEC_ESPACE);
	ck_assert_int_eq(dnssec_b32hex_encode(text, 1, &n, out, 1),
	                 DNSSEC_ESPACE);
	ck_assert_int_eq(dnssec_b32hex_encode(text, 2, &n, out, 1), DNSSEC_OK);
	ck_assert_mem_eq(text, "v4", 2);
}
END_TEST

TCase *dnssec_reject_tcase(void)
{
	TCase *tc = tcase_create("reject");

	tcase_add_test(tc, test_reject_tampered);
	tcase_add_test(tc, test_reject_time);
	tcase_add_test(tc, test_reject_serial);
	tcase_add_test(tc, test_reject_fields);
	tcase_add_test(tc, test_unsupported);
	tcase_add_test(tc, test_reject_truncated);
	tcase_add_test(tc, test_reject_key_forms);
	tcase_add_test(tc, test_reject_sig_forms);
	tcase_add_test(tc, test_key_tag_words);
	tcase_add_test(tc, test_reject_rrset_shape);
	tcase_add_test(tc, test_canon_worst);
	tcase_add_test(tc, test_reject_b32hex);
	return tc;
}
