/*
 * tests/unit/check_dnssec_set.c - whole RRsets and DNSKEY sets
 * (validate/dnssec_set.h): any one good signature makes a set secure,
 * the reason reported when none does, the DS and anchor paths to a
 * zone's keys, and the bounds on work (KeyTrap).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "dnssec_test.h"
#include "validate/dnssec_set.h"

/* RFC 8080 section 6.1: the MX RRset of example.com. signed by two
 * Ed25519 keys (tags 3613 and 35217). */
struct mx {
	struct one o;
	uint8_t key[2][64], sig[2][200];
	struct dnssec_rdata keys[2], sigs[2];
	uint8_t zone[WIRE_NAME_MAX];
	size_t zonelen;
};

static void view(struct dnssec_rdata *r, const uint8_t *p, size_t n)
{
	r->msg = p;
	r->msglen = n;
	r->off = 0;
	r->len = (uint16_t)n;
}

static void mx_init(struct mx *x)
{
	static const uint8_t mx[] = { 0,   10,  4,   'm', 'a', 'i', 'l',
		                      7,   'e', 'x', 'a', 'm', 'p', 'l',
		                      'e', 3,   'c', 'o', 'm', 0 };
	const char *k[2] = { R8080_KEY15A, R8080_KEY15B };
	const char *s[2] = { R8080_SIG15A, R8080_SIG15B };
	const unsigned tag[2] = { 3613, 35217 };
	struct sigtext t = { 15,           15,           2, 3600,
		             "1440021600", "1438207200", 0, "example.com.",
		             NULL };
	int i;

	one_init(&x->o, "example.com.", 15, mx, sizeof mx);
	for (i = 0; i < 2; i++) {
		t.tag = tag[i];
		t.sig = s[i];
		view(&x->keys[i], x->key[i],
		     dnskey(x->key[i], 257, 3, 15, k[i]));
		view(&x->sigs[i], x->sig[i], rrsig(x->sig[i], &t));
	}
	x->zonelen = tname("example.com.", x->zone);
}

static int mx_verify(const struct mx *x, size_t nsigs, size_t nkeys,
                     time_t now, struct dnssec_work *w,
                     struct dnssec_verdict *v)
{
	return dnssec_set_verify(&x->o.set, x->sigs, nsigs, x->zone,
	                         x->zonelen, x->keys, nkeys, now, w, v);
}

START_TEST(test_set_any_one)
{
	struct mx x;
	struct dnssec_verdict v;
	struct dnssec_work w = { 10, 10, NULL, 0 };

	mx_init(&x);
	ck_assert_int_eq(mx_verify(&x, 2, 2, 1438207200, &w, &v), DNSSEC_OK);
	ck_assert_uint_eq(v.tag, 3613);
	ck_assert_uint_eq(v.labels, 2);
	/* TTL cap: the original TTL, or the time left to the expiration */
	ck_assert_uint_eq(v.ttl, 3600);
	ck_assert_uint_eq(w.verify_left, 9);
	w.verify_left = 10;
	ck_assert_int_eq(mx_verify(&x, 2, 2, 1440021600 - 100, &w, &v),
	                 DNSSEC_OK);
	ck_assert_uint_eq(v.ttl, 100);
	/* the first signature's key is gone: the second one serves */
	w.verify_left = 10;
	ck_assert_int_eq(dnssec_set_verify(&x.o.set, x.sigs, 2, x.zone,
	                                   x.zonelen, x.keys + 1, 1,
	                                   1438207200, &w, &v),
	                 DNSSEC_OK);
	ck_assert_uint_eq(v.tag, 35217);
	ck_assert_uint_eq(w.verify_left, 9);
}
END_TEST

/* Keys built once: the second verification finds the key kept. */
START_TEST(test_set_keycache)
{
	struct mx x;
	struct dnssec_verdict v;
	struct dnssec_work w = { 10, 10, NULL, 0 };
	uint64_t hits, builds;

	mx_init(&x);
	ck_assert_int_eq(dnssec_keycache_new(&w.keys, 0), DNSSEC_EINVAL);
	ck_assert_int_eq(dnssec_keycache_new(&w.keys, 4), DNSSEC_OK);
	ck_assert_int_eq(mx_verify(&x, 2, 2, 1438207200, &w, &v), DNSSEC_OK);
	ck_assert_int_eq(mx_verify(&x, 2, 2, 1438207200, &w, &v), DNSSEC_OK);
	dnssec_keycache_counts(w.keys, &hits, &builds);
	ck_assert_uint_eq(builds, 1);
	ck_assert_uint_eq(hits, 1);
	/* a kept key does not vouch for other data */
	x.o.rdata[1] = 11;
	ck_assert_int_eq(mx_verify(&x, 2, 2, 1438207200, &w, &v),
	                 DNSSEC_EBADSIG);
	/* nor for another key of the same tag: its RDATA differs */
	x.o.rdata[1] = 10;
	x.key[0][10] ^= 1;
	ck_assert_int_ne(mx_verify(&x, 1, 1, 1438207200, &w, &v), DNSSEC_OK);
	dnssec_keycache_free(w.keys);
}
END_TEST

START_TEST(test_set_reasons)
{
	struct mx x;
	struct dnssec_verdict v;
	struct dnssec_work w = { 10, 10, NULL, 0 };
	uint8_t other[WIRE_NAME_MAX];
	size_t olen = tname("example.net.", other);

	mx_init(&x);
	ck_assert_int_eq(mx_verify(&x, 0, 2, 1438207200, &w, &v),
	                 DNSSEC_ENOSIG);
	ck_assert_int_eq(mx_verify(&x, 2, 0, 1438207200, &w, &v),
	                 DNSSEC_EKEYTAG);
	ck_assert_int_eq(mx_verify(&x, 2, 2, 1440021601, &w, &v),
	                 DNSSEC_EEXPIRED);
	ck_assert_int_eq(mx_verify(&x, 2, 2, 1438207199, &w, &v),
	                 DNSSEC_ENOTYET);
	ck_assert_uint_eq(w.verify_left, 10); /* no crypto was needed */
	/* signed by another zone than the one asked */
	ck_assert_int_eq(dnssec_set_verify(&x.o.set, x.sigs, 2, other, olen,
	                                   x.keys, 2, 1438207200, &w, &v),
	                 DNSSEC_ESIGNER);
	/* both signatures fail, for different reasons: bad signature */
	x.sig[0][x.sigs[0].len - 1] ^= 1;
	ck_assert_int_eq(dnssec_set_verify(&x.o.set, x.sigs, 2, x.zone,
	                                   x.zonelen, x.keys, 1, 1438207200,
	                                   &w, &v),
	                 DNSSEC_EBADSIG);
	ck_assert_int_eq(v.status, DNSSEC_EBADSIG);
	/* the data changed */
	x.sig[0][x.sigs[0].len - 1] ^= 1;
	x.o.rdata[1] = 11;
	ck_assert_int_eq(mx_verify(&x, 2, 2, 1438207200, &w, &v),
	                 DNSSEC_EBADSIG);
}
END_TEST

START_TEST(test_set_budget)
{
	struct mx x;
	struct dnssec_verdict v;
	struct dnssec_work w = { 0, 10, NULL, 0 };

	mx_init(&x);
	ck_assert_int_eq(mx_verify(&x, 2, 2, 1438207200, &w, &v),
	                 DNSSEC_EBUDGET);
	/* one verification left, spent on a bad first signature */
	w.verify_left = 1;
	x.sig[0][x.sigs[0].len - 1] ^= 1;
	ck_assert_int_eq(mx_verify(&x, 2, 2, 1438207200, &w, &v),
	                 DNSSEC_EBUDGET);
	ck_assert_uint_eq(w.verify_left, 0);
}
END_TEST

/* RRSIG RDATA offsets of the expiration and inception (RFC 4034 s3.1) */
enum { SIG_EXPIRATION = 8, SIG_INCEPTION = 12 };

/* An expired or not yet valid signature names the reason even when the
 * other signatures fail otherwise (a key not given, a bad signature):
 * EDE 7 and 8 (issue 21 item 11). */
START_TEST(test_set_reason_weights)
{
	struct mx x;
	struct dnssec_verdict v;
	struct dnssec_work w = { 10, 10, NULL, 0 };
	const time_t now = 1438207200 + 10;

	mx_init(&x);
	/* sig 0 by a key given, out of its period; sig 1 by a key not
	 * given (DNSSEC_EKEYTAG) */
	ck_assert_int_eq(dnssec_set_verify(&x.o.set, x.sigs, 2, x.zone,
	                                   x.zonelen, x.keys, 1, 1440021601,
	                                   &w, &v),
	                 DNSSEC_EEXPIRED);
	ck_assert_int_eq(dnssec_set_verify(&x.o.set, x.sigs, 2, x.zone,
	                                   x.zonelen, x.keys, 1, 1438207199,
	                                   &w, &v),
	                 DNSSEC_ENOTYET);
	/* sig 0 does not verify, sig 1 expired just before now */
	x.sig[0][x.sigs[0].len - 1] ^= 1;
	put32(x.sig[1] + SIG_EXPIRATION, (uint32_t)now - 5);
	ck_assert_int_eq(mx_verify(&x, 2, 2, now, &w, &v), DNSSEC_EEXPIRED);
	/* ... sig 1 valid only from just after now */
	put32(x.sig[1] + SIG_EXPIRATION, 1440021600);
	put32(x.sig[1] + SIG_INCEPTION, (uint32_t)now + 5);
	ck_assert_int_eq(mx_verify(&x, 2, 2, now, &w, &v), DNSSEC_ENOTYET);
	/* all keys missing: the tag is the reason */
	ck_assert_int_eq(mx_verify(&x, 2, 0, now, &w, &v), DNSSEC_EKEYTAG);
}
END_TEST

/* An expiration at or before the inception is no validity period (RFC
 * 4034 s3.1.5, RFC 1982): rejected as such, before now is looked at;
 * one 3 x 2^30 s after the inception is before it in serial order,
 * though now lies after the inception and before the expiration. */
START_TEST(test_set_validity_period)
{
	struct mx x;
	struct dnssec_verdict v;
	struct dnssec_work w = { 10, 10, NULL, 0 };
	const uint32_t inc = 1438207200, span = 3u << 30;

	mx_init(&x);
	put32(x.sig[0] + SIG_EXPIRATION, inc);
	ck_assert_int_eq(mx_verify(&x, 1, 2, inc, &w, &v), DNSSEC_EVALIDITY);
	put32(x.sig[0] + SIG_EXPIRATION, inc - 86400);
	ck_assert_int_eq(mx_verify(&x, 1, 2, inc + 86400, &w, &v),
	                 DNSSEC_EVALIDITY);
	put32(x.sig[0] + SIG_EXPIRATION, inc + span);
	ck_assert_int_eq(mx_verify(&x, 1, 2, inc + span / 2, &w, &v),
	                 DNSSEC_EVALIDITY);
	ck_assert_uint_eq(w.verify_left, 10); /* no crypto was needed */
	ck_assert_str_eq(dnssec_strerror(DNSSEC_EVALIDITY),
	                 "signature expiration not after its inception");
}
END_TEST

/* Keys sharing the signing key's tag listed before it (issue 21 item
 * 18): each failure is paid from the question's failure budget, the key
 * that verified goes first for the next RRset; more colliding keys than
 * that budget make the set bogus (DNSSEC_EFAILCAP), with no more
 * crypto. */
START_TEST(test_set_keys_sharing_tag)
{
	enum { N = DNSSEC_VERIFY_FAIL_MAX + 4, FEW = 5 };
	struct mx x;
	static uint8_t keys[N + 1][64];
	struct dnssec_rdata kv[N + 1], few[FEW + 1];
	struct dnssec_verdict v;
	struct dnssec_work w = { DNSSEC_VERIFY_MAX, DNSSEC_VERIFY_FAIL_MAX,
		                 NULL, 0 };
	size_t i, len, at;

	mx_init(&x);
	len = x.keys[0].len;
	for (i = 0, at = 3; i < N; i++) {
		/* two unequal public-key bytes two apart swapped */
		do
			at++;
		while (at + 2 < len && x.key[0][at] == x.key[0][at + 2]);
		ck_assert_uint_lt(at + 2, len);
		memcpy(keys[i], x.key[0], len);
		keys[i][at] = x.key[0][at + 2];
		keys[i][at + 2] = x.key[0][at];
		ck_assert_uint_eq(dnssec_key_tag(keys[i], len),
		                  dnssec_key_tag(x.key[0], len));
		ck_assert_int_ne(memcmp(keys[i], x.key[0], len), 0);
		view(&kv[i], keys[i], len);
	}
	memcpy(keys[N], x.key[0], len);
	view(&kv[N], keys[N], len);
	/* five before the signing key; then the next RRset of the zone,
	 * where the key that verified goes first */
	memcpy(few, kv, FEW * sizeof kv[0]);
	few[FEW] = kv[N];
	for (i = 1; i <= 2; i++) {
		ck_assert_int_eq(dnssec_set_verify(&x.o.set, x.sigs, 1, x.zone,
		                                   x.zonelen, few, FEW + 1,
		                                   1438207200, &w, &v),
		                 DNSSEC_OK);
		ck_assert_uint_eq(w.fail_left, DNSSEC_VERIFY_FAIL_MAX - FEW);
		ck_assert_uint_eq(w.verify_left, DNSSEC_VERIFY_MAX - FEW - i);
	}
	/* a few keys of one tag are no collision a zone is judged by */
	ck_assert(!dnssec_keys_collide(few, FEW + 1));
	ck_assert(!dnssec_keys_collide(kv, DNSSEC_KEYS_PER_TAG - 1));
	ck_assert(dnssec_keys_collide(kv, DNSSEC_KEYS_PER_TAG));
	ck_assert(dnssec_keys_collide(kv, N + 1));
	/* more than the failure budget before it: bogus, bounded */
	w = (struct dnssec_work){ DNSSEC_VERIFY_MAX, DNSSEC_VERIFY_FAIL_MAX,
		                  NULL, 0 };
	ck_assert_int_eq(dnssec_set_verify(&x.o.set, x.sigs, 1, x.zone,
	                                   x.zonelen, kv, N + 1, 1438207200,
	                                   &w, &v),
	                 DNSSEC_EFAILCAP);
	ck_assert_uint_eq(w.fail_left, 0);
	ck_assert_uint_eq(w.verify_left,
	                  DNSSEC_VERIFY_MAX - DNSSEC_VERIFY_FAIL_MAX);
}
END_TEST

/* KeyTrap: 40 signatures with one key tag over an RRset, and 40 keys
 * that share the tag (bytes at even offsets of the key swapped keep the
 * RFC 4034 Appendix B sum): at most DNSSEC_SIGS_PER_SET x
 * DNSSEC_KEYS_PER_TAG verifications, whatever the budget. */
START_TEST(test_set_keytrap)
{
	enum { N = 40 };
	struct mx x;
	static uint8_t keys[N][64], sigs[N][200];
	struct dnssec_rdata kv[N], sv[N];
	struct dnssec_verdict v;
	struct dnssec_work w = { 100000, 100000, NULL, 0 };
	size_t i;
	uint16_t tag;

	mx_init(&x);
	tag = dnssec_key_tag(x.key[0], x.keys[0].len);
	for (i = 0; i < N; i++) {
		memcpy(keys[i], x.key[0], x.keys[0].len);
		/* swap two public-key bytes at even offsets */
		keys[i][4 + 2 * (i % 14)] = x.key[0][6 + 2 * (i % 14)];
		keys[i][6 + 2 * (i % 14)] = x.key[0][4 + 2 * (i % 14)];
		view(&kv[i], keys[i], x.keys[0].len);
		ck_assert_uint_eq(dnssec_key_tag(keys[i], x.keys[0].len), tag);
		memcpy(sigs[i], x.sig[0], x.sigs[0].len);
		sigs[i][x.sigs[0].len - 1] ^= (uint8_t)(i + 1);
		view(&sv[i], sigs[i], x.sigs[0].len);
	}
	ck_assert_int_ne(dnssec_set_verify(&x.o.set, sv, N, x.zone, x.zonelen,
	                                   kv, N, 1438207200, &w, &v),
	                 DNSSEC_OK);
	/* the key set itself has KeyTrap's shape (iter_trust_keys_capped);
	 * a key that does not parse is skipped */
	ck_assert(dnssec_keys_collide(kv, N));
	kv[0].len = 2;
	ck_assert(dnssec_keys_collide(kv, DNSSEC_KEYS_PER_TAG + 1));
	ck_assert(!dnssec_keys_collide(kv, DNSSEC_KEYS_PER_TAG));
	view(&kv[0], keys[0], x.keys[0].len);
	ck_assert_uint_ge(w.verify_left,
	                  100000 - DNSSEC_SIGS_PER_SET * DNSSEC_KEYS_PER_TAG);
	/* the question's failure budget ends it sooner: bogus, not a cap
	 * of the question's work */
	w = (struct dnssec_work){ 100000, DNSSEC_VERIFY_FAIL_MAX, NULL, 0 };
	ck_assert_int_eq(dnssec_set_verify(&x.o.set, sv, N, x.zone, x.zonelen,
	                                   kv, N, 1438207200, &w, &v),
	                 DNSSEC_EFAILCAP);
	ck_assert_uint_eq(w.fail_left, 0);
	ck_assert_uint_eq(w.verify_left, 100000 - DNSSEC_VERIFY_FAIL_MAX);
}
END_TEST

/* A zone's DNSKEY set made here: an Ed25519 KSK signs it. */
struct zk {
	EVP_PKEY *pk;
	uint8_t ksk[64], zsk[64], sig[200], owner[WIRE_NAME_MAX];
	size_t ksklen, siglen;
	struct dnssec_rdata rd[2], sigv;
	struct dnssec_rrset set;
};

static size_t ed_dnskey(EVP_PKEY *pk, unsigned flags, uint8_t *out)
{
	size_t n = 32;

	put16(out, flags);
	out[2] = 3;
	out[3] = 15;
	ck_assert_int_eq(EVP_PKEY_get_raw_public_key(pk, out + 4, &n), 1);
	return 4 + n;
}

static void zk_sign(struct zk *z)
{
	struct sigtext st = { 48,           15, 1,          3600, "2000000000",
		              "1000000000", 0,  "example.", "" };
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	struct dnssec_rrsig s;
	size_t len = 0, sl;

	st.tag = dnssec_key_tag(z->ksk, z->ksklen);
	z->siglen = rrsig(z->sig, &st);
	ck_assert_int_eq(dnssec_rrsig_parse(z->sig, z->siglen, &s), DNSSEC_OK);
	ck_assert_int_eq(dnssec_signed_data(&s, &z->set, scratch,
	                                    sizeof scratch, &len),
	                 DNSSEC_OK);
	ck_assert_int_eq(EVP_DigestSignInit(ctx, NULL, NULL, NULL, z->pk), 1);
	sl = sizeof z->sig - z->siglen;
	ck_assert_int_eq(EVP_DigestSign(ctx, z->sig + z->siglen, &sl, scratch,
	                                len),
	                 1);
	z->siglen += sl;
	view(&z->sigv, z->sig, z->siglen);
	EVP_MD_CTX_free(ctx);
}

static void zk_init(struct zk *z, unsigned kskflags)
{
	EVP_PKEY *zpk = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");

	z->pk = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	ck_assert_ptr_nonnull(z->pk);
	ck_assert_ptr_nonnull(zpk);
	z->ksklen = ed_dnskey(z->pk, kskflags, z->ksk);
	view(&z->rd[0], z->ksk, z->ksklen);
	view(&z->rd[1], z->zsk, ed_dnskey(zpk, 256, z->zsk));
	EVP_PKEY_free(zpk);
	z->set.ownerlen = tname("example.", z->owner);
	z->set.owner = z->owner;
	z->set.type = 48;
	z->set.rclass = 1;
	z->set.rd = z->rd;
	z->set.count = 2;
	zk_sign(z);
}

/* A DS RDATA (digest type dt, algorithm alg) for a key. */
static size_t ds_of(const struct zk *z, const uint8_t *key, size_t keylen,
                    unsigned alg, unsigned dt, uint8_t *out)
{
	size_t n = 0;

	put16(out, dnssec_key_tag(key, keylen));
	out[2] = (uint8_t)alg;
	out[3] = (uint8_t)dt;
	ck_assert_int_eq(dnssec_ds_digest(2, z->owner, z->set.ownerlen, key,
	                                  keylen, out + 4, &n),
	                 DNSSEC_OK);
	return 4 + n;
}

static int zk_verify(const struct zk *z, const struct dnssec_rdata *ds,
                     size_t nds, const struct dnssec_rdata *ak, size_t nak)
{
	struct dnssec_verdict v;
	struct dnssec_work w = { 10, 10, NULL, 0 };

	return dnssec_keys_verify(&z->set, &z->sigv, 1, ds, nds, ak, nak,
	                          1500000000, &w, &v);
}

START_TEST(test_keys_by_ds)
{
	struct zk z;
	uint8_t ds[4][80];
	struct dnssec_rdata dv[4];

	zk_init(&z, 257);
	view(&dv[0], ds[0], ds_of(&z, z.ksk, z.ksklen, 15, 2, ds[0]));
	ck_assert_int_eq(zk_verify(&z, dv, 1, NULL, 0), DNSSEC_OK);
	ck_assert_int_eq(dnssec_ds_usable(dv, 1), DNSSEC_OK);
	/* a DS of the ZSK, which did not sign the set: no trusted key
	 * has the signature's tag */
	view(&dv[1], ds[1], ds_of(&z, z.zsk, z.rd[1].len, 15, 2, ds[1]));
	ck_assert_int_eq(zk_verify(&z, dv + 1, 1, NULL, 0), DNSSEC_EKEYTAG);
	/* a DS that names no key of the set */
	memcpy(ds[2], ds[0], dv[0].len);
	ds[2][10] ^= 1;
	view(&dv[2], ds[2], dv[0].len);
	ck_assert_int_eq(zk_verify(&z, dv + 2, 1, NULL, 0), DNSSEC_EMISMATCH);
	/* beside a good one it does not matter */
	ck_assert_int_eq(zk_verify(&z, dv, 3, NULL, 0), DNSSEC_OK);
	/* unsupported digest or algorithm alone: insecure, not bogus */
	memcpy(ds[3], ds[0], dv[0].len);
	ds[3][3] = 99;
	view(&dv[3], ds[3], dv[0].len);
	ck_assert_int_eq(zk_verify(&z, dv + 3, 1, NULL, 0),
	                 DNSSEC_EUNSUPPORTED_DIGEST);
	ds[3][3] = 2;
	ds[3][2] = 253;
	ck_assert_int_eq(zk_verify(&z, dv + 3, 1, NULL, 0),
	                 DNSSEC_EUNSUPPORTED_ALG);
	ck_assert_int_eq(dnssec_ds_usable(dv + 3, 1), DNSSEC_EUNSUPPORTED_ALG);
	EVP_PKEY_free(z.pk);
}
END_TEST

START_TEST(test_keys_by_anchor)
{
	struct zk z;
	uint8_t ds[80];
	struct dnssec_rdata dv;

	zk_init(&z, 257);
	ck_assert_int_eq(zk_verify(&z, NULL, 0, z.rd, 1), DNSSEC_OK);
	ck_assert_int_eq(zk_verify(&z, NULL, 0, z.rd + 1, 1), DNSSEC_EKEYTAG);
	EVP_PKEY_free(z.pk);
	/* a revoked KSK (RFC 5011) anchors nothing, by DS or by key */
	zk_init(&z, 257 | DNSSEC_DNSKEY_FLAG_REVOKE);
	view(&dv, ds, ds_of(&z, z.ksk, z.ksklen, 15, 2, ds));
	ck_assert_int_eq(zk_verify(&z, &dv, 1, NULL, 0), DNSSEC_EMISMATCH);
	ck_assert_int_eq(zk_verify(&z, NULL, 0, z.rd, 1), DNSSEC_EMISMATCH);
	EVP_PKEY_free(z.pk);
}
END_TEST

TCase *dnssec_set_tcase(void)
{
	TCase *tc = tcase_create("sets");

	tcase_add_test(tc, test_set_any_one);
	tcase_add_test(tc, test_set_keycache);
	tcase_add_test(tc, test_set_reasons);
	tcase_add_test(tc, test_set_budget);
	tcase_add_test(tc, test_set_keytrap);
	tcase_add_test(tc, test_set_reason_weights);
	tcase_add_test(tc, test_set_validity_period);
	tcase_add_test(tc, test_set_keys_sharing_tag);
	tcase_add_test(tc, test_keys_by_ds);
	tcase_add_test(tc, test_keys_by_anchor);
	return tc;
}
