/*
 * tests/unit/check_autotrust.c - Suite "autotrust": the RFC 5011 state
 * machine (resolver/anchor/autotrust.h) with simulated time and real
 * Ed25519 signatures made here (keys drawn per run): add after the
 * hold-down and not before, a key gone during its hold-down, revocation
 * by self-signature only, a revoked key never back, missing keys and
 * keep-missing, the last anchor kept, a start from a DS, an untrusted
 * set changing nothing, the probe interval of section 2.3; the file:
 * round trip, a fresh root.key, FILE:LINE; the options; the daemon's
 * anchors from a kept file (resolver/daemon/trust.h).
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "conf/cfg.h"
#include "daemon/trust.h"
#include "anchor/autotrust.h"
#include "validate/dnssec.h"

#define T0 1764900000
#define DAY 86400
#define KEYTTL 3600u
#define SIGLIFE (30 * DAY)
#define ED_KEY 32
#define ED_SIG 64
#define RD_KEY (DNSSEC_DNSKEY_FIXED_BYTES + ED_KEY)
#define NKEYS 4
#define SIGBUF 256

/** A test key: its private half and its DNSKEY RDATA. */
struct tkey {
	EVP_PKEY *pk;
	uint8_t rd[RD_KEY];
};

/** A published DNSKEY set and its RRSIGs. */
struct pub {
	struct dnssec_rdata rd[NKEYS], sig[NKEYS];
	uint8_t sigbuf[NKEYS][SIGBUF];
	struct dnssec_rrset set;
};

static const uint8_t root[] = { 0 };
static struct tkey k1, k2, k3;
static struct autotrust_params par;

static void key_make(struct tkey *k, uint16_t flags)
{
	size_t n = ED_KEY;

	k->pk = EVP_PKEY_Q_keygen(NULL, NULL, "ED25519");
	ck_assert_ptr_nonnull(k->pk);
	k->rd[0] = (uint8_t)(flags >> 8);
	k->rd[1] = (uint8_t)flags;
	k->rd[2] = DNSSEC_DNSKEY_PROTOCOL;
	k->rd[3] = DNSSEC_ALG_ED25519;
	ck_assert(EVP_PKEY_get_raw_public_key(k->pk, k->rd + 4, &n) == 1);
}

static void key_revoke(struct tkey *k)
{
	k->rd[1] |= (uint8_t)DNSSEC_DNSKEY_FLAG_REVOKE;
}

/* An RRSIG over p->set by k, valid from now - 1 day for SIGLIFE. */
static void sign(struct pub *p, size_t i, const struct tkey *k, time_t now)
{
	uint8_t *r = p->sigbuf[i], data[DNSSEC_SIGNED_MAX];
	uint32_t exp = (uint32_t)(now + SIGLIFE), inc = (uint32_t)(now - DAY);
	uint16_t tag = dnssec_key_tag(k->rd, RD_KEY);
	struct dnssec_rrsig s;
	size_t dlen, slen = ED_SIG;
	EVP_MD_CTX *ctx = EVP_MD_CTX_new();
	uint8_t hdr[] = { 0,
		          DNSSEC_TYPE_DNSKEY,
		          DNSSEC_ALG_ED25519,
		          0,
		          0,
		          0,
		          KEYTTL >> 8,
		          KEYTTL & 0xff,
		          (uint8_t)(exp >> 24),
		          (uint8_t)(exp >> 16),
		          (uint8_t)(exp >> 8),
		          (uint8_t)exp,
		          (uint8_t)(inc >> 24),
		          (uint8_t)(inc >> 16),
		          (uint8_t)(inc >> 8),
		          (uint8_t)inc,
		          (uint8_t)(tag >> 8),
		          (uint8_t)tag,
		          0 };

	memcpy(r, hdr, sizeof hdr);
	ck_assert_int_eq(dnssec_rrsig_parse(r, sizeof hdr, &s), DNSSEC_OK);
	ck_assert_int_eq(dnssec_signed_data(&s, &p->set, data, sizeof data,
	                                    &dlen),
	                 DNSSEC_OK);
	ck_assert(EVP_DigestSignInit(ctx, NULL, NULL, NULL, k->pk) == 1);
	ck_assert(EVP_DigestSign(ctx, r + sizeof hdr, &slen, data, dlen) == 1);
	EVP_MD_CTX_free(ctx);
	p->sig[i].msg = r;
	p->sig[i].msglen = p->sig[i].len = (uint16_t)(sizeof hdr + slen);
	p->sig[i].off = 0;
}

/* Publish keys ks (n of them) signed by the first nsign of signers. */
static void publish(struct pub *p, const struct tkey *const *ks, size_t n,
                    const struct tkey *const *signers, size_t nsign,
                    time_t now)
{
	size_t i;

	memset(p, 0, sizeof *p);
	for (i = 0; i < n; i++) {
		p->rd[i].msg = ks[i]->rd;
		p->rd[i].msglen = p->rd[i].len = RD_KEY;
	}
	p->set.owner = root;
	p->set.ownerlen = 1;
	p->set.type = DNSSEC_TYPE_DNSKEY;
	p->set.rclass = WIRE_CLASS_IN;
	p->set.rd = p->rd;
	p->set.count = n;
	for (i = 0; i < nsign; i++)
		sign(p, i, signers[i], now);
}

/* Probe: the set of keys ks signed by signers; returns the status. */
static int probe(struct autotrust_zone *z, const struct tkey *const *ks,
                 size_t n, const struct tkey *const *signers, size_t nsign,
                 time_t now, struct autotrust_events *ev)
{
	static struct pub p;

	publish(&p, ks, n, signers, nsign, now);
	return autotrust_update(z, &par, &p.set, p.sig, nsign, KEYTTL, now,
	                        ev);
}

/* A zone that trusts k1 (as a fresh file would). */
static void zone_k1(struct autotrust_zone *z)
{
	memset(z, 0, sizeof *z);
	z->namelen = 1;
	z->nkeys = 1;
	memcpy(z->key[0].rdata, k1.rd, RD_KEY);
	z->key[0].len = RD_KEY;
	z->key[0].state = AUTOTRUST_VALID;
	z->key[0].ttl = KEYTTL;
}

static enum autotrust_state state_of(const struct autotrust_zone *z,
                                     const struct tkey *k)
{
	size_t i;

	for (i = 0; i < z->nkeys; i++)
		if (memcmp(z->key[i].rdata + 2, k->rd + 2, RD_KEY - 2) == 0)
			return z->key[i].state;
	return (enum autotrust_state) - 1;
}

static void setup(void)
{
	static bool made;

	if (!made) {
		key_make(&k1, 257);
		key_make(&k2, 257);
		key_make(&k3, 256);
		made = true;
	}
	k1.rd[1] = k2.rd[1] = 1; /* undo a revocation */
	autotrust_params_default(&par);
	par.add_holddown = 30 * DAY;
	par.del_holddown = 30 * DAY;
	par.keep_missing = 366 * DAY;
}

START_TEST(add_after_holddown)
{
	const struct tkey *both[] = { &k1, &k2, &k3 }, *s1[] = { &k1 };
	struct autotrust_zone z;
	struct autotrust_events ev;

	zone_k1(&z);
	ck_assert_int_eq(probe(&z, both, 3, s1, 1, T0, &ev), AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k2), AUTOTRUST_ADDPEND);
	ck_assert_int_eq(z.nkeys, 2); /* the ZSK is not tracked */
	ck_assert(!ev.anchors_changed);
	ck_assert_int_eq(probe(&z, both, 3, s1, 1, T0 + 30 * DAY - 1, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k2), AUTOTRUST_ADDPEND);
	ck_assert_int_eq(probe(&z, both, 3, s1, 1, T0 + 30 * DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k2), AUTOTRUST_VALID);
	ck_assert(ev.anchors_changed);
	ck_assert_str_eq(ev.ev[0].why, "add-holddown");
	ck_assert_int_eq(autotrust_trusted(&z), 2);
}
END_TEST

START_TEST(small_holddown_needs_permit)
{
	const struct tkey *both[] = { &k1, &k2 }, *s1[] = { &k1 };
	struct autotrust_zone z;
	struct autotrust_events ev;

	par.add_holddown = 10;
	zone_k1(&z);
	ck_assert_int_eq(probe(&z, both, 2, s1, 1, T0, &ev), AUTOTRUST_OK);
	ck_assert_int_eq(probe(&z, both, 2, s1, 1, T0 + 10, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k2), AUTOTRUST_ADDPEND);
	par.permit_small = true;
	ck_assert_int_eq(probe(&z, both, 2, s1, 1, T0 + 11, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k2), AUTOTRUST_VALID);
}
END_TEST

START_TEST(gone_during_addpend)
{
	const struct tkey *both[] = { &k1, &k2 }, *one[] = { &k1 };
	struct autotrust_zone z;
	struct autotrust_events ev;

	zone_k1(&z);
	ck_assert_int_eq(probe(&z, both, 2, one, 1, T0, &ev), AUTOTRUST_OK);
	ck_assert_int_eq(probe(&z, one, 1, one, 1, T0 + DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(z.nkeys, 1); /* forgotten */
	ck_assert_int_eq(probe(&z, both, 2, one, 1, T0 + 20 * DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(probe(&z, both, 2, one, 1, T0 + 31 * DAY, &ev),
	                 AUTOTRUST_OK);
	/* the hold-down began again at its return */
	ck_assert_int_eq(state_of(&z, &k2), AUTOTRUST_ADDPEND);
	ck_assert_int_eq(probe(&z, both, 2, one, 1, T0 + 50 * DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k2), AUTOTRUST_VALID);
}
END_TEST

/* k1 and k2 both trusted. */
static void zone_k1k2(struct autotrust_zone *z)
{
	zone_k1(z);
	z->nkeys = 2;
	z->key[1] = z->key[0];
	memcpy(z->key[1].rdata, k2.rd, RD_KEY);
}

START_TEST(revoke_needs_self_signature)
{
	const struct tkey *set[] = { &k1, &k2 }, *s2[] = { &k2 },
			  *s12[] = { &k2, &k1 };
	struct autotrust_zone z;
	struct autotrust_events ev;

	zone_k1k2(&z);
	key_revoke(&k1);
	/* signed by k2 only: the REVOKE bit proves nothing */
	ck_assert_int_eq(probe(&z, set, 2, s2, 1, T0, &ev), AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k1), AUTOTRUST_MISSING);
	ck_assert_int_eq(probe(&z, set, 2, s12, 2, T0 + DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k1), AUTOTRUST_REVOKED);
	ck_assert(ev.anchors_changed);
	ck_assert_int_eq(ev.ev[0].tag, dnssec_key_tag(k1.rd, RD_KEY));
	ck_assert_int_eq(autotrust_trusted(&z), 1);
}
END_TEST

START_TEST(revoked_never_back)
{
	const struct tkey *set[] = { &k1, &k2 }, *s12[] = { &k2, &k1 };
	struct autotrust_zone z;
	struct autotrust_events ev;

	zone_k1k2(&z);
	key_revoke(&k1);
	ck_assert_int_eq(probe(&z, set, 2, s12, 2, T0, &ev), AUTOTRUST_OK);
	ck_assert_int_eq(probe(&z, set, 2, s12, 2, T0 + 1, &ev), AUTOTRUST_OK);
	ck_assert_int_eq(ev.n, 0); /* still revoked since T0 */
	k1.rd[1] = 1;              /* published again without the bit */
	ck_assert_int_eq(probe(&z, set, 2, s12, 2, T0 + DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k1), AUTOTRUST_REVOKED);
	ck_assert_int_eq(probe(&z, set, 2, s12, 2, T0 + 31 * DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k1), AUTOTRUST_REMOVED);
	ck_assert_int_eq(autotrust_trusted(&z), 1);
	/* forgotten only once no longer published */
	set[0] = &k2;
	ck_assert_int_eq(probe(&z, set, 1, s12, 1, T0 + 32 * DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(z.nkeys, 1);
}
END_TEST

START_TEST(missing_and_keep_missing)
{
	const struct tkey *only2[] = { &k2 }, *s2[] = { &k2 },
			  *both[] = { &k1, &k2 };
	struct autotrust_zone z;
	struct autotrust_events ev;

	zone_k1k2(&z);
	ck_assert_int_eq(probe(&z, only2, 1, s2, 1, T0, &ev), AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k1), AUTOTRUST_MISSING);
	ck_assert(!ev.anchors_changed); /* a missing key still counts */
	ck_assert_int_eq(autotrust_trusted(&z), 2);
	ck_assert_int_eq(probe(&z, both, 2, s2, 1, T0 + DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k1), AUTOTRUST_VALID); /* back */
	ck_assert_int_eq(probe(&z, only2, 1, s2, 1, T0 + 2 * DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(probe(&z, only2, 1, s2, 1, T0 + 367 * DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k1), AUTOTRUST_MISSING);
	ck_assert_int_eq(probe(&z, only2, 1, s2, 1, T0 + 368 * DAY, &ev),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k1), (enum autotrust_state) - 1);
	ck_assert(ev.anchors_changed);
	ck_assert_int_eq(autotrust_trusted(&z), 1);
}
END_TEST

/* The last trusted key is never removed by keep-missing: k1 missing for
 * long, k2 revoked in the same probe (published both ways). */
START_TEST(last_anchor_kept)
{
	struct tkey k2rev = k2;
	const struct tkey *set[] = { &k2, &k2rev }, *sig[] = { &k2, &k2rev };
	struct autotrust_zone z;
	struct autotrust_events ev;

	key_revoke(&k2rev);
	zone_k1k2(&z);
	z.key[0].state = AUTOTRUST_MISSING;
	z.key[0].lastchange = T0 - 400 * DAY;
	ck_assert_int_eq(probe(&z, set, 2, sig, 2, T0, &ev), AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k2), AUTOTRUST_REVOKED);
	ck_assert_int_eq(state_of(&z, &k1), AUTOTRUST_MISSING);
	ck_assert_int_eq(autotrust_trusted(&z), 1);
	ck_assert(!ev.revoked_all);
}
END_TEST

/* A file that starts from a DS: the key it names is VALID at once, the
 * others wait, and the DS is dropped. */
START_TEST(start_from_ds)
{
	const struct tkey *set[] = { &k1, &k2 }, *s1[] = { &k1 };
	struct autotrust_zone z;
	struct autotrust_events ev;
	size_t dlen;
	uint16_t tag = dnssec_key_tag(k1.rd, RD_KEY);

	memset(&z, 0, sizeof z);
	z.namelen = 1;
	z.nds = 1;
	z.ds[0].data[0] = (uint8_t)(tag >> 8);
	z.ds[0].data[1] = (uint8_t)tag;
	z.ds[0].data[2] = DNSSEC_ALG_ED25519;
	z.ds[0].data[3] = DNSSEC_DIGEST_SHA256;
	ck_assert_int_eq(dnssec_ds_digest(DNSSEC_DIGEST_SHA256, root, 1, k1.rd,
	                                  RD_KEY, z.ds[0].data + 4, &dlen),
	                 DNSSEC_OK);
	z.ds[0].len = (uint16_t)(4 + dlen);
	ck_assert_int_eq(probe(&z, set, 2, s1, 1, T0, &ev), AUTOTRUST_OK);
	ck_assert_int_eq(state_of(&z, &k1), AUTOTRUST_VALID);
	ck_assert_int_eq(state_of(&z, &k2), AUTOTRUST_ADDPEND);
	ck_assert_int_eq(z.nds, 0);
	ck_assert(ev.anchors_changed);
}
END_TEST

START_TEST(untrusted_set_changes_nothing)
{
	const struct tkey *set[] = { &k1, &k2 }, *s2[] = { &k2 };
	struct autotrust_zone z;
	struct autotrust_events ev;

	zone_k1(&z);
	ck_assert_int_eq(probe(&z, set, 2, s2, 1, T0, &ev),
	                 AUTOTRUST_EUNTRUSTED);
	ck_assert_int_eq(z.nkeys, 1);
	ck_assert_int_eq(z.query_failed, 1);
	ck_assert_int_eq(z.next_probe, T0 + 3600); /* ttl/10, 1 h at least */
	z.key[0].ttl = 864000;
	autotrust_failed(&z, &par, T0);
	ck_assert_int_eq(z.next_probe, T0 + 86400); /* 1 day at most */
	ck_assert_int_eq(z.query_failed, 2);
	z.key[0].ttl = 0; /* unknown: an hour */
	autotrust_failed(&z, &par, T0);
	ck_assert_int_eq(z.next_probe, T0 + 3600);
}
END_TEST

START_TEST(last_key_revoked)
{
	const struct tkey *set[] = { &k1 }, *s1[] = { &k1 };
	struct autotrust_zone z;
	struct autotrust_events ev;
	struct anchors *a;

	zone_k1(&z);
	key_revoke(&k1);
	ck_assert_int_eq(probe(&z, set, 1, s1, 1, T0, &ev),
	                 AUTOTRUST_EUNTRUSTED);
	ck_assert_int_eq(state_of(&z, &k1), AUTOTRUST_VALID);
	ck_assert_int_eq(anchors_new(&a), ANCHOR_OK);
	ck_assert_int_eq(autotrust_anchors_add(&z, a), ANCHOR_OK);
	ck_assert_int_eq(anchors_count(a), 1);
	anchors_free(a);
}
END_TEST

START_TEST(interval)
{
	autotrust_params_default(&par);
	ck_assert_uint_eq(autotrust_interval(&par, 172800, 0, false), 86400);
	ck_assert_uint_eq(autotrust_interval(&par, 172800, 7200, false), 3600);
	ck_assert_uint_eq(autotrust_interval(&par, 600, 0, false), 3600);
	ck_assert_uint_eq(autotrust_interval(&par, 0, 0, false), 15 * 86400);
	ck_assert_uint_eq(autotrust_interval(&par, 86400 * 60, 0, false),
	                  15 * 86400);
	ck_assert_uint_eq(autotrust_interval(&par, 172800, 0, true), 17280);
	ck_assert_uint_eq(autotrust_interval(&par, 0, 0, true), 86400);
	ck_assert_uint_eq(autotrust_interval(&par, 600, 0, true), 3600);
	par.permit_small = true;
	ck_assert_uint_eq(autotrust_interval(&par, 6, 0, false), 3);
	ck_assert_uint_eq(autotrust_interval(&par, 6, 0, true), 1);
	ck_assert_uint_eq(autotrust_holddown(&par, 5), 5);
	par.permit_small = false;
	ck_assert_uint_eq(autotrust_holddown(&par, 5), 30 * 86400);
}
END_TEST

/* The probe interval from the RRSIGs' original TTL (the cache's TTL is
 * clamped) and their expiry. */
START_TEST(interval_from_probe)
{
	const struct tkey *set[] = { &k1 }, *s1[] = { &k1 };
	static struct pub p;
	struct autotrust_zone z;
	struct autotrust_events ev;

	par.permit_small = true;
	zone_k1(&z);
	publish(&p, set, 1, s1, 1, T0);
	ck_assert_int_eq(autotrust_update(&z, &par, &p.set, p.sig, 1, 100, T0,
	                                  &ev),
	                 AUTOTRUST_OK);
	ck_assert_uint_eq(z.query_interval, KEYTTL / 2);
	ck_assert_uint_eq(z.retry_time, KEYTTL / 10);
	ck_assert_int_eq(z.next_probe, T0 + KEYTTL / 2);
	ck_assert_uint_eq(z.key[0].ttl, KEYTTL);
	/* a signature that runs out in 20 minutes: 10 */
	publish(&p, set, 1, s1, 1, T0 + 1200 - SIGLIFE);
	ck_assert_int_eq(autotrust_update(&z, &par, &p.set, p.sig, 1, 100, T0,
	                                  &ev),
	                 AUTOTRUST_OK);
	ck_assert_uint_eq(z.query_interval, 600);
	ck_assert_uint_eq(z.retry_time, 120);
}
END_TEST

START_TEST(file_round_trip)
{
	const struct tkey *both[] = { &k1, &k2 }, *s12[] = { &k1, &k2 };
	static char text[AUTOTRUST_TEXT_MAX], text2[AUTOTRUST_TEXT_MAX];
	static struct autotrust_zone z, back;
	struct autotrust_events ev;
	char err[AUTOTRUST_ERR_MAX];
	size_t len, len2;

	zone_k1(&z);
	ck_assert_int_eq(probe(&z, both, 2, s12, 1, T0, &ev), AUTOTRUST_OK);
	key_revoke(&k1);
	z.key[0].state = AUTOTRUST_VALID;
	memcpy(z.key[0].rdata, k1.rd, RD_KEY);
	z.key[0].state = AUTOTRUST_REVOKED;
	ck_assert_int_eq(autotrust_file_text(&z, text, sizeof text, &len),
	                 AUTOTRUST_OK);
	ck_assert_ptr_nonnull(strstr(text, ";;state=1 [ ADDPEND ]"));
	ck_assert_ptr_nonnull(strstr(text, ";;state=4 [ REVOKED ]"));
	ck_assert_ptr_nonnull(strstr(text, ";;next_probe_time: "));
	ck_assert_int_eq(autotrust_file_parse(text, len, "f", &back, err,
	                                      sizeof err),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(back.nkeys, 2);
	ck_assert_int_eq(back.key[0].state, AUTOTRUST_REVOKED);
	ck_assert(memcmp(back.key[0].rdata, k1.rd, RD_KEY) == 0);
	ck_assert_int_eq(back.key[1].state, AUTOTRUST_ADDPEND);
	ck_assert_int_eq(back.key[1].lastchange, T0);
	ck_assert_int_eq(back.key[1].count, 1);
	ck_assert_int_eq(back.next_probe, z.next_probe);
	ck_assert_int_eq(back.last_success, T0);
	ck_assert_int_eq(autotrust_file_text(&back, text2, sizeof text2,
	                                     &len2),
	                 AUTOTRUST_OK);
	ck_assert_str_eq(text, text2);
}
END_TEST

START_TEST(file_fresh_root_key)
{
	static const char fresh[] = "; a copy of root.key\n"
				    ". IN DNSKEY 257 3 15 ( "
				    "l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZ"
				    "JA4= ) ; keytag\n"
				    ". 172800 IN DS 20326 8 2 "
				    "E06D44B80B8F1D39A95C0B0D7C65D08458E880409"
				    "BBC683457104237C7F8EC8D\n"
				    ". IN NS a.root-servers.net.\n";
	static struct autotrust_zone z;
	char err[AUTOTRUST_ERR_MAX];
	struct anchors *a;

	ck_assert_int_eq(autotrust_file_parse(fresh, strlen(fresh), "f", &z,
	                                      err, sizeof err),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(z.nkeys, 1);
	ck_assert_int_eq(z.key[0].state, AUTOTRUST_VALID);
	ck_assert_int_eq(z.nds, 1);
	ck_assert_int_eq(anchors_new(&a), ANCHOR_OK);
	ck_assert_int_eq(autotrust_anchors_add(&z, a), ANCHOR_OK);
	ck_assert_ptr_nonnull(anchors_find(a, root, 1));
	ck_assert_int_eq(anchors_find(a, root, 1)->ndnskey, 1);
	ck_assert_int_eq(anchors_find(a, root, 1)->nds, 0);
	anchors_free(a);
}
END_TEST

static void bad(const char *text, const char *want)
{
	static struct autotrust_zone z;
	char err[AUTOTRUST_ERR_MAX];

	ck_assert_int_ne(autotrust_file_parse(text, strlen(text), "/x/at.key",
	                                      &z, err, sizeof err),
	                 AUTOTRUST_OK);
	ck_assert_msg(strstr(err, want) != NULL, "got \"%s\", want \"%s\"",
	              err, want);
}

START_TEST(file_errors)
{
	bad(";;id: . 1\n\n. IN DNSKEY 257 3 15 !!!!\n", "/x/at.key:3: ");
	bad(". IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZ"
	    "JA4= ;;state=9 [ ? ]\n",
	    "/x/at.key:1: bad ;;state=");
	bad(". IN DNSKEY 257 3 15 l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZ"
	    "JA4=\nexample. IN DS 1 8 2 "
	    "E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D"
	    "\n",
	    "/x/at.key:2: a second zone");
	bad("; nothing\n", "no DS or DNSKEY record");
	bad(". IN DNSKEY ( 257 3 15\n", "/x/at.key:1: '(' is never closed");
	bad("$ORIGIN .\n", "/x/at.key:1: directives");
	bad(". IN FOO 1\n", "/x/at.key:1: unknown type");
}
END_TEST

START_TEST(options)
{
	static struct cfg c;
	char err[CFG_ERR_BYTES];
	const char *ok_text = "add-holddown: 3\ndel-holddown: \"4\"\n"
			      "keep-missing: 0\npermit-small-holddown: yes\n";

	cfg_defaults(&c);
	ck_assert_uint_eq(c.add_holddown, 2592000);
	ck_assert_uint_eq(c.del_holddown, 2592000);
	ck_assert_uint_eq(c.keep_missing, 31622400);
	ck_assert(!c.permit_small_holddown);
	ck_assert_int_eq(cfg_parse("t.conf", ok_text, strlen(ok_text), &c, err,
	                           sizeof err),
	                 0);
	ck_assert_uint_eq(c.add_holddown, 3);
	ck_assert_uint_eq(c.del_holddown, 4);
	ck_assert_uint_eq(c.keep_missing, 0);
	ck_assert(c.permit_small_holddown);
	ck_assert_int_ne(cfg_parse("t.conf", "\nadd-holddown: 3d\n", 18, &c,
	                           err, sizeof err),
	                 0);
	ck_assert_msg(strncmp(err, "t.conf:2: add-holddown wants seconds",
	                      36) == 0,
	              "%s", err);
	ck_assert_int_ne(cfg_parse("t.conf", "keep-missing: +5\n", 17, &c, err,
	                           sizeof err),
	                 0);
}
END_TEST

/* The daemon's anchors from a kept file: VALID and MISSING keys only. */
START_TEST(daemon_trusts_valid_only)
{
	static struct autotrust_zone z;
	static struct cfg c;
	static char text[AUTOTRUST_TEXT_MAX], conf[256];
	char err[ANCHOR_ERR_MAX], path[] = "/tmp/check_autotrust.XXXXXX";
	struct anchors *a = NULL;
	size_t len;
	int fd = mkstemp(path);

	ck_assert_int_ge(fd, 0);
	zone_k1k2(&z);
	z.key[1].state = AUTOTRUST_ADDPEND;
	ck_assert_int_eq(autotrust_file_text(&z, text, sizeof text, &len),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(write(fd, text, len), (ssize_t)len);
	snprintf(conf, sizeof conf, "auto-trust-anchor-file: %s\n", path);
	cfg_defaults(&c);
	ck_assert_int_eq(cfg_parse("t.conf", conf, strlen(conf), &c, err,
	                           sizeof err),
	                 0);
	ck_assert_int_eq(trust_anchors_load(&c, &a, err, sizeof err), 0);
	ck_assert_int_eq(anchors_find(a, root, 1)->ndnskey, 1);
	ck_assert(memcmp(anchors_find(a, root, 1)->dnskey[0].data, k1.rd,
	                 RD_KEY) == 0);
	anchors_free(a);
	/* nothing trusted left: refused, naming the file */
	z.key[0].state = AUTOTRUST_REVOKED;
	ck_assert_int_eq(autotrust_file_text(&z, text, sizeof text, &len),
	                 AUTOTRUST_OK);
	ck_assert_int_eq(pwrite(fd, text, len, 0), (ssize_t)len);
	ck_assert_int_eq(ftruncate(fd, (off_t)len), 0);
	ck_assert_int_ne(trust_anchors_load(&c, &a, err, sizeof err), 0);
	ck_assert_msg(strstr(err, "no trusted key left") != NULL, "%s", err);
	/* "t.conf:1: auto-trust-anchor-file PATH: ..." (issue 22) */
	snprintf(conf, sizeof conf,
	         "t.conf:1: auto-trust-anchor-file %s:", path);
	ck_assert_msg(strncmp(err, conf, strlen(conf)) == 0, "%s", err);
	close(fd);
	unlink(path);
}
END_TEST

static Suite *autotrust_suite(void)
{
	Suite *s = suite_create("autotrust");
	TCase *m = tcase_create("machine"), *f = tcase_create("file");

	tcase_add_checked_fixture(m, setup, NULL);
	tcase_add_test(m, add_after_holddown);
	tcase_add_test(m, small_holddown_needs_permit);
	tcase_add_test(m, gone_during_addpend);
	tcase_add_test(m, revoke_needs_self_signature);
	tcase_add_test(m, revoked_never_back);
	tcase_add_test(m, missing_and_keep_missing);
	tcase_add_test(m, untrusted_set_changes_nothing);
	tcase_add_test(m, last_anchor_kept);
	tcase_add_test(m, start_from_ds);
	tcase_add_test(m, last_key_revoked);
	tcase_add_test(m, interval);
	tcase_add_test(m, interval_from_probe);
	suite_add_tcase(s, m);
	tcase_add_checked_fixture(f, setup, NULL);
	tcase_add_test(f, file_round_trip);
	tcase_add_test(f, file_fresh_root_key);
	tcase_add_test(f, file_errors);
	tcase_add_test(f, options);
	tcase_add_test(f, daemon_trusts_valid_only);
	suite_add_tcase(s, f);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(autotrust_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? 0 : 1;
}
