/*
 * tests/unit/check_dnssec.c - Suite "dnssec": the DNSSEC primitives of
 * resolver/validate/ against the RFC examples, byte for byte (RFC 4034
 * Appendix B and section 5.4, RFC 4509 section 2.3, RFC 5702 section 6,
 * RFC 6605 section 6, RFC 8080 section 6, RFC 5155 Appendix A and B),
 * and the canonical form of RRsets; the rejections are in
 * check_dnssec_reject.c.
 */
#include <check.h>
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>

#include "dnssec_test.h"

START_TEST(test_key_tags)
{
	static const struct {
		unsigned flags, alg;
		const char *key;
		unsigned tag;
	} v[] = {
		{ 256, 5, DSKEY_KEY, 60485 },
		{ 256, 8, R5702_KEY8, 9033 },
		{ 256, 10, R5702_KEY10, 3740 },
		{ 257, 13, R6605_KEY13, 55648 },
		{ 257, 14, R6605_KEY14, 10771 },
		{ 257, 15, R8080_KEY15A, 3613 },
		{ 257, 15, R8080_KEY15B, 35217 },
		{ 257, 16, R8080_KEY16A, 9713 },
		{ 257, 16, R8080_KEY16B, 38353 },
	};
	struct dnssec_dnskey k;
	uint8_t rd[600];
	size_t i, n;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		n = dnskey(rd, v[i].flags, 3, v[i].alg, v[i].key);
		ck_assert_uint_eq(dnssec_key_tag(rd, n), v[i].tag);
		ck_assert_int_eq(dnssec_dnskey_parse(rd, n, &k), DNSSEC_OK);
		ck_assert_uint_eq(k.tag, v[i].tag);
		ck_assert_uint_eq(k.alg, v[i].alg);
		ck_assert_uint_eq(k.keylen, n - 4);
	}
}
END_TEST

/* RFC 4034 section 5.4 (SHA-1), RFC 4509 section 2.3 (SHA-256), RFC
 * 6605 section 6 (SHA-256, SHA-384), RFC 8080 section 6.1 (SHA-256). */
START_TEST(test_ds_digests)
{
	static const struct {
		const char *owner;
		unsigned flags, alg;
		const char *key;
		unsigned tag, type;
		const char *digest;
	} v[] = {
		{ "dskey.example.com.", 256, 5, DSKEY_KEY, 60485, 1,
		  "2BB183AF5F22588179A53B0A98631FAD1A292118" },
		{ "dskey.example.com.", 256, 5, DSKEY_KEY, 60485, 2,
		  "D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B83"
		  "83F6A1E4469DA50A" },
		{ "example.net.", 257, 13, R6605_KEY13, 55648, 2,
		  "b4c8c1fe2e7477127b27115656ad6256f424625bf5c1e2770ce6d6e3"
		  "7df61d17" },
		{ "example.net.", 257, 14, R6605_KEY14, 10771, 4,
		  "72d7b62976ce06438e9c0bf319013cf801f09ecc84b8d7e9495f27e3"
		  "05c6a9b0563a9b5f4d288405c3008a946df983d6" },
		{ "example.com.", 257, 15, R8080_KEY15A, 3613, 2,
		  "3aa5ab37efce57f737fc1627013fee07bdf241bd10f3b1964ab55c78"
		  "e79a304b" },
	};
	uint8_t owner[WIRE_NAME_MAX], key[600], ds[100], want[64];
	uint8_t got[DNSSEC_DIGEST_MAX];
	size_t i, j, ol, kl, wl, gl = 0;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		ol = tname(v[i].owner, owner);
		kl = dnskey(key, v[i].flags, 3, v[i].alg, v[i].key);
		wl = hex(v[i].digest, want);
		ck_assert_int_eq(dnssec_ds_digest((uint8_t)v[i].type, owner,
		                                  ol, key, kl, got, &gl),
		                 DNSSEC_OK);
		ck_assert_uint_eq(gl, wl);
		ck_assert_mem_eq(got, want, wl);
		put16(ds, v[i].tag);
		ds[2] = (uint8_t)v[i].alg;
		ds[3] = (uint8_t)v[i].type;
		memcpy(ds + 4, want, wl);
		ck_assert_int_eq(dnssec_ds_match(ds, 4 + wl, owner, ol, key,
		                                 kl),
		                 DNSSEC_OK);
		/* The owner is canonical whatever its case. */
		for (j = 0; j < ol; j++)
			owner[j] = (uint8_t)toupper(owner[j]);
		ck_assert_int_eq(dnssec_ds_match(ds, 4 + wl, owner, ol, key,
		                                 kl),
		                 DNSSEC_OK);
		ds[4 + wl - 1] ^= 1;
		ck_assert_int_eq(dnssec_ds_match(ds, 4 + wl, owner, ol, key,
		                                 kl),
		                 DNSSEC_EMISMATCH);
	}
}
END_TEST

/* RFC 5702 section 6.1 and 6.2: the A record of www.example.net. */
START_TEST(test_rsasha2)
{
	static const struct sigtext t10 = { 1,
		                            10,
		                            3,
		                            3600,
		                            "20300101000000",
		                            "20000101000000",
		                            3740,
		                            "example.net.",
		                            R5702_SIG10 };
	uint8_t key[600], sig[600];
	struct ex e;

	ex_5702(&e);
	ck_assert_int_eq(ex_verify(&e), DNSSEC_OK);
	ck_assert_int_eq(verify_one(&e.o, "example.net.", sig,
	                            rrsig(sig, &t10), key,
	                            dnskey(key, 256, 3, 10, R5702_KEY10),
	                            e.now),
	                 DNSSEC_OK);
}
END_TEST

/* RFC 6605 section 6.1 and 6.2: randomized signatures, so the RFC's own
 * signatures over the RFC's data. */
START_TEST(test_ecdsa)
{
	static const struct sigtext t13 = { 1,
		                            13,
		                            3,
		                            3600,
		                            "20100909100439",
		                            "20100812100439",
		                            55648,
		                            "example.net.",
		                            R6605_SIG13 };
	static const struct sigtext t14 = { 1,
		                            14,
		                            3,
		                            3600,
		                            "20100909102025",
		                            "20100812102025",
		                            10771,
		                            "example.net.",
		                            R6605_SIG14 };
	uint8_t key[600], sig[600];
	size_t kl, sl;
	struct one o;

	one_init(&o, "www.example.net.", 1, a_1, sizeof a_1);
	kl = dnskey(key, 257, 3, 13, R6605_KEY13);
	sl = rrsig(sig, &t13);
	ck_assert_int_eq(verify_one(&o, "example.net.", sig, sl, key, kl,
	                            rtime("20100812100439")),
	                 DNSSEC_OK);
	sig[sl - 1] ^= 0x40;
	ck_assert_int_eq(verify_one(&o, "example.net.", sig, sl, key, kl,
	                            rtime("20100812100439")),
	                 DNSSEC_EBADSIG);
	kl = dnskey(key, 257, 3, 14, R6605_KEY14);
	sl = rrsig(sig, &t14);
	ck_assert_int_eq(verify_one(&o, "example.net.", sig, sl, key, kl,
	                            rtime("20100901000000")),
	                 DNSSEC_OK);
}
END_TEST

/* RFC 8080 section 6: Ed25519 and Ed448, two keys each. */
START_TEST(test_eddsa)
{
	static const struct {
		unsigned alg, tag;
		const char *key, *sig;
	} v[] = {
		{ 15, 3613, R8080_KEY15A, R8080_SIG15A },
		{ 15, 35217, R8080_KEY15B, R8080_SIG15B },
		{ 16, 9713, R8080_KEY16A, R8080_SIG16A },
		{ 16, 38353, R8080_KEY16B, R8080_SIG16B },
	};
	static const uint8_t mx[] = { 0,   10,  4,   'm', 'a', 'i', 'l',
		                      7,   'e', 'x', 'a', 'm', 'p', 'l',
		                      'e', 3,   'c', 'o', 'm', 0 };
	uint8_t key[600], sig[600];
	struct sigtext t = {
		15,  0, 2, 3600, "1440021600", "1438207200", 0, "example.com.",
		NULL
	};
	struct one o;
	size_t i, kl, sl;

	one_init(&o, "example.com.", 15, mx, sizeof mx);
	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		t.alg = v[i].alg;
		t.tag = v[i].tag;
		t.sig = v[i].sig;
		kl = dnskey(key, 257, 3, v[i].alg, v[i].key);
		sl = rrsig(sig, &t);
		ck_assert_int_eq(verify_one(&o, "example.com.", sig, sl, key,
		                            kl, 1438207200),
		                 DNSSEC_OK);
		o.rdata[1] = 11; /* MX 11: not what was signed */
		ck_assert_int_eq(verify_one(&o, "example.com.", sig, sl, key,
		                            kl, 1438207200),
		                 DNSSEC_EBADSIG);
		o.rdata[1] = 10;
	}
}
END_TEST

/* RFC 5155 Appendix A and B.1: SHA-1, 12 iterations, salt aabbccdd. */
START_TEST(test_nsec3_hashes)
{
	static const char *const v[][2] = {
		{ "example", "0p9mhaveqvm6t7vbl5lop2u3t2rp3tom" },
		{ "a.example", "35mthgpgcu1qg68fab165klnsnk3dpvl" },
		{ "ai.example", "gjeqe526plbf1g8mklp59enfd789njgi" },
		{ "ns1.example", "2t7b4g4vsa5smi47k61mv5bv1a22bojr" },
		{ "ns2.example", "q04jkcevqvmu85r014c7dkba38o0ji5r" },
		{ "w.example", "k8udemvp1j2f7eg6jebps17vp3n8i58h" },
		{ "*.w.example", "r53bq7cc2uvmubfu5ocmm6pers9tk9en" },
		{ "x.w.example", "b4um86eghhds6nea196smvmlo4ors995" },
		{ "y.w.example", "ji6neoaepv8b5o6k4ev33abha8ht9fgc" },
		{ "x.y.w.example", "2vptu5timamqttgl4luu9kg21e0aor3s" },
		{ "xx.example", "t644ebqk9bibcna874givr6joj62mlhv" },
		{ "2t7b4g4vsa5smi47k61mv5bv1a22bojr.example",
		  "kohar7mbb8dc2ce8a9qvl8hon4k53uhi" },
		{ "c.x.w.example", "0va5bpr2ou0vk0lbqeeljri88laipsfh" },
		{ "*.x.w.example", "92pqneegtaue7pjatc3l3qnk738c6v5m" },
		{ "X.W.Example", "b4um86eghhds6nea196smvmlo4ors995" },
	};
	static const uint8_t salt[] = { 0xaa, 0xbb, 0xcc, 0xdd };
	uint8_t name[WIRE_NAME_MAX], h[DNSSEC_NSEC3_HASH_BYTES], back[32];
	char text[DNSSEC_NSEC3_LABEL_LEN];
	size_t i, nl, tl = 0, bl = 0;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		nl = tname(v[i][0], name);
		ck_assert_int_eq(dnssec_nsec3_hash(1, 12, 50, salt,
		                                   sizeof salt, name, nl, h),
		                 DNSSEC_OK);
		ck_assert_int_eq(dnssec_b32hex_encode(text, sizeof text, &tl,
		                                      h, sizeof h),
		                 DNSSEC_OK);
		ck_assert_uint_eq(tl, 32);
		ck_assert_mem_eq(text, v[i][1], 32);
		ck_assert_int_eq(dnssec_b32hex_decode(back, sizeof back, &bl,
		                                      v[i][1], 32),
		                 DNSSEC_OK);
		ck_assert_uint_eq(bl, sizeof h);
		ck_assert_mem_eq(back, h, sizeof h);
	}
}
END_TEST

/* Each thread's table of recent hashes (dnssec_nsec3.c): a hit gives
 * the bytes a miss computed (RFC 5155 Appendix A: example., x.w.example.,
 * either case), and the key is the whole input: another salt, another
 * iteration count or another name is a miss with its own digest. */
START_TEST(test_nsec3_memo)
{
	static const uint8_t salt[] = { 0xaa, 0xbb, 0xcc, 0xdd };
	static const uint8_t salt2[] = { 0xaa, 0xbb, 0xcc, 0xde };
	uint8_t name[WIRE_NAME_MAX], h[DNSSEC_NSEC3_HASH_BYTES];
	uint8_t first[DNSSEC_NSEC3_HASH_BYTES], other[DNSSEC_NSEC3_HASH_BYTES];
	char text[DNSSEC_NSEC3_LABEL_LEN];
	unsigned long hits = dnssec_nsec3_memo_hits();
	size_t nl = tname("x.w.example", name), tl = 0;

	ck_assert_int_eq(dnssec_nsec3_hash(1, 12, 50, salt, sizeof salt, name,
	                                   nl, first),
	                 DNSSEC_OK);
	ck_assert_uint_eq(dnssec_nsec3_memo_hits(), hits); /* a miss */
	nl = tname("X.W.EXAMPLE", name);
	ck_assert_int_eq(dnssec_nsec3_hash(1, 12, 50, salt, sizeof salt, name,
	                                   nl, h),
	                 DNSSEC_OK);
	ck_assert_uint_eq(dnssec_nsec3_memo_hits(), hits + 1); /* a hit */
	ck_assert_mem_eq(h, first, sizeof h);
	ck_assert_int_eq(dnssec_b32hex_encode(text, sizeof text, &tl, h,
	                                      sizeof h),
	                 DNSSEC_OK);
	ck_assert_mem_eq(text, "b4um86eghhds6nea196smvmlo4ors995", 32);
	/* Another salt, iteration count or name: misses, other digests. */
	ck_assert_int_eq(dnssec_nsec3_hash(1, 12, 50, salt2, sizeof salt2,
	                                   name, nl, other),
	                 DNSSEC_OK);
	ck_assert_mem_ne(other, first, sizeof h);
	ck_assert_int_eq(dnssec_nsec3_hash(1, 11, 50, salt, sizeof salt, name,
	                                   nl, other),
	                 DNSSEC_OK);
	ck_assert_mem_ne(other, first, sizeof h);
	nl = tname("example", name);
	ck_assert_int_eq(dnssec_nsec3_hash(1, 12, 50, salt, sizeof salt, name,
	                                   nl, other),
	                 DNSSEC_OK);
	ck_assert_uint_eq(dnssec_nsec3_memo_hits(), hits + 1);
	ck_assert_int_eq(dnssec_b32hex_encode(text, sizeof text, &tl, other,
	                                      sizeof other),
	                 DNSSEC_OK);
	ck_assert_mem_eq(text, "0p9mhaveqvm6t7vbl5lop2u3t2rp3tom", 32);
	/* Asked again, each is a hit with the same digest. */
	ck_assert_int_eq(dnssec_nsec3_hash(1, 12, 50, salt, sizeof salt, name,
	                                   nl, h),
	                 DNSSEC_OK);
	ck_assert_uint_eq(dnssec_nsec3_memo_hits(), hits + 2);
	ck_assert_mem_eq(h, other, sizeof h);
}
END_TEST

/* Vectors of dnspython's test suite (tests/test_dnssec.py), signed by
 * BIND: RSASHA1 over an SOA (names in the RDATA) and over a wildcard. */
START_TEST(test_rsasha1_soa)
{
	static const struct sigtext t = { 6,
		                          5,
		                          2,
		                          3600,
		                          "20101127004331",
		                          "20101119213831",
		                          61695,
		                          "dnspython.org.",
		                          DP_SIG };
	/* "dnspython.org." at 0, then the SOA RDATA with both names
	 * compressed against it, in capitals. */
	static const uint8_t msg[] = {
		9,    'd',  'n',  's',  'p',  'y',  't',  'h', 'o',  'n',  3,
		'o',  'r',  'g',  0,    4,    'H',  'O',  'W', 'L',  0xc0, 0,
		10,   'H',  'o',  's',  't',  'M',  'a',  's', 't',  'e',  'r',
		0xc0, 0,    0x77, 0xce, 0x78, 0xcf, 0,    0,   0x0e, 0x10, 0,
		0,    0x07, 0x08, 0,    0x09, 0x3a, 0x80, 0,   0,    0x0e, 0x10
	};
	uint8_t key[600], sig[600], z[WIRE_NAME_MAX];
	size_t kl = dnskey(key, 256, 3, 5, DP_KEY), sl = rrsig(sig, &t);
	size_t zl = tname("dnspython.org.", z);
	struct one o;

	one_init(&o, "DNSPython.ORG.", 6, a_1, sizeof a_1);
	o.rd.msg = msg;
	o.rd.msglen = sizeof msg;
	o.rd.off = 15;
	o.rd.len = (uint16_t)(sizeof msg - 15);
	ck_assert_int_eq(dnssec_rrset_verify(&o.set, sig, sl, z, zl, key, kl,
	                                     1290250287, scratch,
	                                     sizeof scratch),
	                 DNSSEC_OK);
	/* A pointer that leaves the RDATA's message is malformed. */
	o.rd.msglen = 20;
	ck_assert_int_eq(dnssec_rrset_verify(&o.set, sig, sl, z, zl, key, kl,
	                                     1290250287, scratch,
	                                     sizeof scratch),
	                 DNSSEC_EFORMAT);
}
END_TEST

/* A wildcard: the RRSIG of *.example.com verifies the RRset as it was
 * signed, and as any name it expands to (RFC 4035 section 5.3.2). */
START_TEST(test_wildcard)
{
	static const struct sigtext t = { 16,
		                          5,
		                          2,
		                          3600,
		                          "20200707211255",
		                          "20200630180755",
		                          42486,
		                          "example.com.",
		                          WC_SIG };
	static const uint8_t txt[] = { 3, 'f', 'o', 'o' };
	uint8_t key[600], sig[600];
	size_t kl = dnskey(key, 256, 3, 5, WC_KEY), sl = rrsig(sig, &t);
	struct one o;

	one_init(&o, "*.example.com.", 16, txt, sizeof txt);
	ck_assert_int_eq(verify_one(&o, "example.com.", sig, sl, key, kl,
	                            1593541048),
	                 DNSSEC_OK);
	one_init(&o, "a.B.example.com.", 16, txt, sizeof txt);
	ck_assert_int_eq(verify_one(&o, "example.com.", sig, sl, key, kl,
	                            1593541048),
	                 DNSSEC_OK);
	/* Not the apex: it has as many labels as the RRSIG says. */
	one_init(&o, "example.com.", 16, txt, sizeof txt);
	ck_assert_int_eq(verify_one(&o, "example.com.", sig, sl, key, kl,
	                            1593541048),
	                 DNSSEC_EBADSIG);
	one_init(&o, "a.example.org.", 16, txt, sizeof txt);
	ck_assert_int_eq(verify_one(&o, "example.com.", sig, sl, key, kl,
	                            1593541048),
	                 DNSSEC_ESIGNER);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Canonical form                                                      */

/* Three A records out of order, one twice, under a capitalised owner:
 * the signed data is the RRSIG prefix, the signer, then each distinct
 * record once, sorted, owner lowercased, TTL the original TTL. */
START_TEST(test_canon_bytes)
{
	static const uint8_t rdata[3][4] = { { 192, 0, 2, 3 },
		                             { 192, 0, 2, 1 },
		                             { 192, 0, 2, 3 } };
	static const struct sigtext t = { 1,
		                          8,
		                          3,
		                          7200,
		                          "20300101000000",
		                          "20000101000000",
		                          9033,
		                          "Example.NET.",
		                          "AAAA" };
	uint8_t sig[600], owner[WIRE_NAME_MAX], want[300];
	struct dnssec_rdata rd[3];
	struct dnssec_rrset set;
	struct dnssec_rrsig s;
	size_t sl = rrsig(sig, &t), w = 0, len = 0, i, j;

	for (i = 0; i < 3; i++) {
		rd[i].msg = rdata[i];
		rd[i].msglen = 4;
		rd[i].off = 0;
		rd[i].len = 4;
	}
	set.ownerlen = tname("WWW.Example.net.", owner);
	set.owner = owner;
	set.type = 1;
	set.rclass = 1;
	set.rd = rd;
	set.count = 3;
	ck_assert_int_eq(dnssec_rrsig_parse(sig, sl, &s), DNSSEC_OK);
	ck_assert_uint_eq(s.signerlen, 13);
	ck_assert_mem_eq(s.signer, "\7example\3net", 13);
	memcpy(want, sig, 18);
	w = 18 + tname("example.net.", want + 18);
	for (i = 1; i <= 3; i += 2) {
		w += tname("www.example.net.", want + w);
		memcpy(want + w, "\0\1\0\1\0\0\x1c\x20\0\4\xc0\0\2", 13);
		want[w + 13] = (uint8_t)i;
		w += 14;
	}
	ck_assert_int_eq(dnssec_signed_data(&s, &set, scratch, sizeof scratch,
	                                    &len),
	                 DNSSEC_OK);
	ck_assert_uint_eq(len, w);
	ck_assert_mem_eq(scratch, want, w);
	/* The smallest buffer: prefix, every record before duplicates go,
	 * and the copy of the RDATAs for the sort. */
	j = 18 + 13 + 3 * (17 + 10) + 2 * 12;
	ck_assert_int_eq(dnssec_signed_data(&s, &set, scratch, j, &len),
	                 DNSSEC_OK);
	ck_assert_mem_eq(scratch, want, w);
	ck_assert_int_eq(dnssec_signed_data(&s, &set, scratch, j - 1, &len),
	                 DNSSEC_ESPACE);
}
END_TEST

/* The RDATA of one record in canonical form (the signed data's tail). */
static size_t canon_of(unsigned type, const uint8_t *rdata, size_t n,
                       const uint8_t **out)
{
	static const struct sigtext t = {
		0, 8, 0, 0, "0", "0", 0, ".", "AAAA"
	};
	struct dnssec_rrsig s;
	uint8_t sig[100];
	size_t sl, len = 0;
	struct one o;
	int rc;

	sl = rrsig(sig, &t);
	put16(sig, type);
	ck_assert_int_eq(dnssec_rrsig_parse(sig, sl, &s), DNSSEC_OK);
	one_init(&o, ".", type, rdata, n);
	rc = dnssec_signed_data(&s, &o.set, scratch, sizeof scratch, &len);
	if (rc != DNSSEC_OK)
		return (size_t)-rc;
	*out = scratch + 19 + 1 +
	       10; /* prefix, signer ".", owner ".", fixed */
	ck_assert_uint_eq(len - 30, (size_t)(scratch[28] << 8 | scratch[29]));
	return len - 30;
}

/* Names in the RDATA of the RFC 4034 list are lowercased, those of NSEC
 * kept (RFC 6840 section 5.1); other types are copied as they are. */
START_TEST(test_canon_rdata)
{
	static const uint8_t mx[] = { 0, 10, 2, 'M', 'X', 1, 'E', 0 };
	static const uint8_t srv[] = { 0, 1, 0, 2, 0, 3, 1, 'S', 0 };
	static const uint8_t naptr[] = { 0, 1,   0, 2, 1,   'U',
		                         1, 'E', 0, 1, 'R', 0 };
	static const uint8_t nsec[] = { 1, 'N', 0, 0, 1, 0x40 };
	static const uint8_t txt[] = { 2, 'T', 'X' };
	static const uint8_t a6[] = { 120, 0xff, 1, 'P', 0 };
	static const uint8_t bad_mx[] = { 0, 10, 5, 'M', 'X' };
	const uint8_t *c = NULL;

	ck_assert_uint_eq(canon_of(15, mx, sizeof mx, &c), sizeof mx);
	ck_assert_mem_eq(c, "\0\12\2mx\1e", sizeof mx);
	ck_assert_uint_eq(canon_of(33, srv, sizeof srv, &c), sizeof srv);
	ck_assert_mem_eq(c, "\0\1\0\2\0\3\1s", sizeof srv);
	ck_assert_uint_eq(canon_of(35, naptr, sizeof naptr, &c), sizeof naptr);
	ck_assert_mem_eq(c, "\0\1\0\2\1U\1E\0\1r", sizeof naptr);
	ck_assert_uint_eq(canon_of(47, nsec, sizeof nsec, &c), sizeof nsec);
	ck_assert_mem_eq(c, nsec, sizeof nsec);
	ck_assert_uint_eq(canon_of(16, txt, sizeof txt, &c), sizeof txt);
	ck_assert_mem_eq(c, txt, sizeof txt);
	ck_assert_uint_eq(canon_of(38, a6, sizeof a6, &c), sizeof a6);
	ck_assert_mem_eq(c, "\170\377\1p", sizeof a6);
	ck_assert_uint_eq(canon_of(15, bad_mx, sizeof bad_mx, &c),
	                  (size_t)-DNSSEC_EFORMAT);
	ck_assert_uint_eq(canon_of(35, naptr, 7, &c), (size_t)-DNSSEC_EFORMAT);
}
END_TEST

/* RFC 4034 section 6.3: a shorter RDATA that is a prefix of a longer one
 * sorts first. */
START_TEST(test_canon_order)
{
	static const uint8_t r1[] = { 2, 'a', 'b', 1, 'c' };
	static const uint8_t r2[] = { 2, 'a', 'b' };
	static const struct sigtext t = {
		16, 8, 0, 0, "0", "0", 0, ".", "AAAA"
	};
	struct dnssec_rdata rd[2] = { { r1, sizeof r1, 0, sizeof r1 },
		                      { r2, sizeof r2, 0, sizeof r2 } };
	struct dnssec_rrset set = { (const uint8_t *)"", 1, 16, 1, rd, 2 };
	uint8_t sig[100];
	struct dnssec_rrsig s;
	size_t len = 0;

	ck_assert_int_eq(dnssec_rrsig_parse(sig, rrsig(sig, &t), &s),
	                 DNSSEC_OK);
	ck_assert_int_eq(dnssec_signed_data(&s, &set, scratch, sizeof scratch,
	                                    &len),
	                 DNSSEC_OK);
	ck_assert_uint_eq(len, 19 + 2 * 11 + 3 + 5);
	ck_assert_mem_eq(scratch + 19 + 11, r2, sizeof r2);
	ck_assert_mem_eq(scratch + 19 + 11 + 3 + 11, r1, sizeof r1);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Signed here                                                         */

/* TXT RDATA of one character. */
static void txt_rd(struct dnssec_rdata *rd, const uint8_t *c)
{
	rd->msg = c;
	rd->msglen = 2;
	rd->off = 0;
	rd->len = 2;
}

/* The DNSKEY RDATA (algorithm alg) of a fresh RSA key. */
static size_t rsa_dnskey(EVP_PKEY *pkey, unsigned alg, uint8_t *out)
{
	BIGNUM *n = NULL, *e = NULL;
	size_t len;

	ck_assert_int_eq(EVP_PKEY_get_bn_param(pkey, "n", &n), 1);
	ck_assert_int_eq(EVP_PKEY_get_bn_param(pkey, "e", &e), 1);
	put16(out, 256);
	out[2] = 3;
	out[3] = (uint8_t)alg;
	out[4] = (uint8_t)BN_num_bytes(e);
	len = 5 + (size_t)BN_bn2bin(e, out + 5);
	len += (size_t)BN_bn2bin(n, out + len);
	BN_free(n);
	BN_free(e);
	return len;
}

/* Algorithm 7 (RSASHA1-NSEC3-SHA1), which no RFC example covers, with a
 * key made here: a TXT RRset of three records signed in one order
 * verifies in any other, with duplicates and the owner in capitals, and
 * no longer verifies without one of its records. */
START_TEST(test_signed_here)
{
	static const uint8_t t[4][2] = {
		{ 1, 'b' }, { 1, 'a' }, { 1, 'c' }, { 1, 'a' }
	};
	struct sigtext st = {
		16, 7, 3, 300, "2000000000", "1000000000", 0, "example.net.",
		""
	};
	EVP_PKEY *pkey = EVP_RSA_gen(1024);
	uint8_t key[300], sig[400], owner[WIRE_NAME_MAX], z[WIRE_NAME_MAX];
	struct dnssec_rdata rd[4];
	struct dnssec_rrset set;
	struct dnssec_rrsig s;
	size_t kl, sl, len = 0, siglen = 0, zl = tname("example.net.", z);
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	int i;

	ck_assert_ptr_nonnull(pkey);
	kl = rsa_dnskey(pkey, 7, key);
	st.tag = dnssec_key_tag(key, kl);
	sl = rrsig(sig, &st);
	for (i = 0; i < 4; i++)
		txt_rd(&rd[i], t[i]);
	set.ownerlen = tname("www.example.net.", owner);
	set.owner = owner;
	set.type = 16;
	set.rclass = 1;
	set.rd = rd;
	set.count = 3;
	ck_assert_int_eq(dnssec_rrsig_parse(sig, sl, &s), DNSSEC_OK);
	ck_assert_int_eq(dnssec_signed_data(&s, &set, scratch, sizeof scratch,
	                                    &len),
	                 DNSSEC_OK);
	ck_assert_int_eq(EVP_DigestSignInit(ctx, NULL, EVP_sha1(), NULL, pkey),
	                 1);
	siglen = sizeof sig - sl;
	ck_assert_int_eq(EVP_DigestSign(ctx, sig + sl, &siglen, scratch, len),
	                 1);
	sl += siglen;
	set.ownerlen = tname("WWW.EXAMPLE.NET.", owner);
	txt_rd(&rd[0], t[2]);
	txt_rd(&rd[2], t[0]);
	set.count = 4;
	ck_assert_int_eq(dnssec_rrset_verify(&set, sig, sl, z, zl, key, kl,
	                                     1500000000, scratch,
	                                     sizeof scratch),
	                 DNSSEC_OK);
	set.count = 2;
	ck_assert_int_eq(dnssec_rrset_verify(&set, sig, sl, z, zl, key, kl,
	                                     1500000000, scratch,
	                                     sizeof scratch),
	                 DNSSEC_EBADSIG);
	EVP_MD_CTX_free(ctx);
	EVP_PKEY_free(pkey);
}
END_TEST

static Suite *dnssec_suite(void)
{
	Suite *su = suite_create("dnssec");
	TCase *tv = tcase_create("vectors");
	TCase *tc = tcase_create("canonical");

	tcase_add_test(tv, test_key_tags);
	tcase_add_test(tv, test_ds_digests);
	tcase_add_test(tv, test_rsasha2);
	tcase_add_test(tv, test_ecdsa);
	tcase_add_test(tv, test_eddsa);
	tcase_add_test(tv, test_nsec3_memo); /* before: a fresh table */
	tcase_add_test(tv, test_nsec3_hashes);
	tcase_add_test(tv, test_rsasha1_soa);
	tcase_add_test(tv, test_wildcard);
	tcase_add_test(tv, test_signed_here);
	suite_add_tcase(su, tv);
	tcase_add_test(tc, test_canon_bytes);
	tcase_add_test(tc, test_canon_rdata);
	tcase_add_test(tc, test_canon_order);
	suite_add_tcase(su, tc);
	suite_add_tcase(su, dnssec_reject_tcase());
	suite_add_tcase(su, dnssec_set_tcase());
	suite_add_tcase(su, dnssec_memo_tcase());
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(dnssec_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
