/*
 * tests/unit/check_iter_enc.c - Suite "iter_enc": encrypted-zone NAME
 * (resolver/iter/iter_enc.c), driven through the fake network of
 * check_iter_net.c: a zone whose only server has a DNSCurve key is
 * answered over DNSCurve; a zone with only plain servers fails with EDE
 * 22 and no packet to its servers; a zone with both asks the keyed one
 * only; a zone under NAME is held to it too; the parent is asked as
 * usual; without the option nothing changes.
 *
 * The world: net_std() (root -> example. at 192.0.2.1), enc.example.
 * delegated by 192.0.2.1 to KEY.ns1.enc.example. at 192.0.2.5 (boxed)
 * and/or ns2.enc.example. at 192.0.2.6 (plain).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "iter_net.h"
#include "anchor/anchor.h"

/* The lab's TEST key. */
#define KEYLABEL "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2"
#define KEYED_NS "enc.example. 86400 NS " KEYLABEL ".ns1.enc.example."
#define KEYED_GLUE KEYLABEL ".ns1.enc.example. 86400 A 192.0.2.5"
#define PLAIN_NS "enc.example. 86400 NS ns2.enc.example."
#define PLAIN_GLUE "ns2.enc.example. 86400 A 192.0.2.6"
/** RFC 8914: No Reachable Authority. */
#define EDE_NO_REACH 22
/** The RR type TLSA. */
#define TLSA_TYPE 52

static void encrypted(const char *zone)
{
	size_t i = N.cfg.n_encrypted_zone++;

	N.cfg.encrypted_zone_len[i] = net_wire(zone, N.cfg.encrypted_zone[i]);
}

/* The parent's referral (keyed and/or plain servers); both servers
 * answer for www.enc.example. */
/* net_teardown, and the anchors net_signed_zone made. */
static void enc_teardown(void)
{
	anchors_free((struct anchors *)N.env.anchors);
	N.env.anchors = NULL;
	net_teardown();
}

static void world(bool keyed, bool plain)
{
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.enc.example.",
		.ns = { keyed ? KEYED_NS : PLAIN_NS, plain ? PLAIN_NS : NULL },
		.ar = { keyed ? KEYED_GLUE : PLAIN_GLUE,
	                plain ? PLAIN_GLUE : NULL } });
	net_add(&(struct fake){
		.server = "*",
		.qname = "*.enc.example.",
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { "www.enc.example. 300 A 192.0.2.55", NULL } });
	/* no TLSA for the servers (the lookups of encrypted-zone) */
	net_add(&(struct fake){
		.server = "*",
		.qname = "*.enc.example.",
		.qtype = TLSA_TYPE,
		.flags = WIRE_FLAG_AA,
		.ns = { "enc.example. 300 SOA ns2.enc.example. h.enc.example. "
	                "1 2 3 4 300" } });
}

START_TEST(test_enc_keyed)
{
	const struct answer *r;

	encrypted("enc.example.");
	world(true, false);
	r = net_resolve("www.enc.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(r->curve);
	ck_assert_uint_eq(net_sends_to("192.0.2.6"), 0);
}
END_TEST

START_TEST(test_enc_plain_only)
{
	const struct answer *r;

	encrypted("enc.example.");
	world(false, true);
	r = net_resolve("www.enc.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert(r->ede);
	ck_assert_uint_eq(r->ede_code, EDE_NO_REACH);
	ck_assert_ptr_nonnull(r->ede_text);
	ck_assert_str_eq(r->ede_text, "encrypted-zone: no server reachable "
	                              "by DNSCurve or DANE TLS");
	/* nothing of the zone left in plain; the parent was asked */
	ck_assert_uint_eq(net_sends_to("192.0.2.6"), 0);
	ck_assert_uint_gt(net_sends_to("192.0.2.1"), 0);
	/* a name beside the zone is not affected */
	net_add(&(struct fake){ .server = "192.0.2.1",
	                        .qname = "www.example.",
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "www.example. 300 A 192.0.2.80" } });
	r = net_resolve("www.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
}
END_TEST

START_TEST(test_enc_mixed)
{
	const struct answer *r;
	int i;

	encrypted("enc.example.");
	world(true, true);
	for (i = 0; i < 4; i++) {
		r = net_resolve(i % 2 ? "www.enc.example." :
		                        "WWW.enc.example.",
		                WIRE_TYPE_A);
		ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
		ck_assert(r->curve);
		ck_assert_uint_eq(net_sends_to("192.0.2.6"), 0);
	}
}
END_TEST

/* A SECURE TLSA RRset of the records rd[0..n-1] (3 + 64 bytes each,
 * of which len[i]) at _853._tcp.ns2.enc.example. */
static void tlsa_put(uint8_t (*rd)[3 + 64], const size_t *len, size_t n)
{
	uint8_t z[WIRE_NAME_MAX];
	struct cache_rdata r[8];
	struct cache_rrset set = {
		z,         net_wire("_853._tcp.ns2.enc.example.", z),
		TLSA_TYPE, WIRE_CLASS_IN,
		3600,      r,
		n,         CACHE_RANK_AUTH,
		NULL,      CACHE_SEC_SECURE,
		NULL,      0
	};
	size_t i;

	for (i = 0; i < n; i++) {
		r[i].data = rd[i];
		r[i].len = len[i];
	}
	ck_assert_int_eq(cache_rrset_put(N.cache, &set, N.now.wall), CACHE_OK);
}

/* A SECURE TLSA RRset for the plain server: every usable record goes
 * with its queries (DANE), and they go only so; the PKIX usages are
 * left out, and an RRset of those alone is no TLSA: SERVFAIL in an
 * encrypted-zone, plain queries without DANE outside one. */
START_TEST(test_enc_dane)
{
	uint8_t rd[4][3 + 64] = {
		{ 1, 1, 1 }, { 3, 1, 1 }, { 2, 0, 1 }, { 3, 0, 2 }
	};
	size_t len[4] = { 35, 35, 35, 67 };
	const struct answer *r;
	size_t i, n = 0;

	memset(rd[1] + 3, 0xab, 32);
	memset(rd[2] + 3, 0xcd, 32);
	memset(rd[3] + 3, 0xef, 64);
	encrypted("enc.example.");
	world(false, true);
	tlsa_put(rd, len, 4);
	r = net_resolve("www.enc.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	for (i = 0; i < N.nsends; i++) {
		const struct tlsa_set *s = &N.sends[i].dane_set;

		if (strcmp(N.sends[i].server, "192.0.2.6") != 0)
			continue;
		ck_assert(N.sends[i].dane);
		ck_assert_uint_eq(s->n, 3); /* 1 1 1 left out */
		ck_assert_uint_eq(s->rr[0].usage, 3);
		ck_assert_mem_eq(s->rr[0].digest, rd[1] + 3, 32);
		ck_assert_uint_eq(s->rr[1].usage, 2);
		ck_assert_uint_eq(s->rr[1].selector, 0);
		ck_assert_mem_eq(s->rr[1].digest, rd[2] + 3, 32);
		ck_assert_uint_eq(s->rr[2].mtype, 2);
		ck_assert_uint_eq(s->rr[2].len, 64);
		ck_assert_mem_eq(s->rr[2].digest, rd[3] + 3, 64);
		n++;
	}
	ck_assert_uint_gt(n, 0);
	/* PKIX records only: no TLSA for encrypted-zone */
	net_teardown();
	net_setup();
	encrypted("enc.example.");
	world(false, true);
	rd[1][0] = 0; /* PKIX-TA */
	tlsa_put(rd, len, 2);
	r = net_resolve("www.enc.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_uint_eq(r->ede_code, EDE_NO_REACH);
	ck_assert_uint_eq(net_sends_to("192.0.2.6"), 0);
	/* ... and without encrypted-zone, plain as any other server */
	net_teardown();
	net_setup();
	world(false, true);
	tlsa_put(rd, len, 2);
	r = net_resolve("www.enc.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_gt(net_sends_to("192.0.2.6"), 0);
	for (i = 0; i < N.nsends; i++)
		ck_assert(!N.sends[i].dane);
	/* without encrypted-zone a usable record is used all the same */
	net_teardown();
	net_setup();
	world(false, true);
	tlsa_put(rd + 2, len + 2, 1);
	r = net_resolve("www.enc.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	for (i = 0; i < N.nsends; i++)
		if (strcmp(N.sends[i].server, "192.0.2.6") == 0)
			ck_assert(N.sends[i].dane &&
			          N.sends[i].dane_set.n == 1);
}
END_TEST

/* A server of a DNSSEC-secure zone whose TLSA is not cached is marked
 * for a background lookup (dane_want, with its NS name); not in an
 * unsigned zone, nor once its TLSA (even of no usable record) is. */
START_TEST(test_dane_want)
{
	uint8_t rd[1][3 + 64] = { { 1, 1, 1 } };
	size_t len[1] = { 35 }, i, n = 0;

	world(false, true);
	(void)net_resolve("www.enc.example.", WIRE_TYPE_A);
	for (i = 0; i < N.nsends; i++)
		ck_assert(!N.sends[i].dane_want);
	net_teardown();
	net_setup();
	world(false, true);
	net_signed_zone("enc.example.");
	(void)net_resolve("www.enc.example.", WIRE_TYPE_A);
	for (i = 0; i < N.nsends; i++) {
		if (strcmp(N.sends[i].server, "192.0.2.6") != 0)
			continue;
		ck_assert(N.sends[i].dane_want);
		ck_assert(!N.sends[i].dane);
		n++;
	}
	ck_assert_uint_gt(n, 0);
	enc_teardown();
	net_setup();
	world(false, true);
	net_signed_zone("enc.example.");
	tlsa_put(rd, len, 1);
	(void)net_resolve("www.enc.example.", WIRE_TYPE_A);
	for (i = 0; i < N.nsends; i++)
		ck_assert(!N.sends[i].dane_want && !N.sends[i].dane);
}
END_TEST

/* The zone below a named one is held to it; without the option the
 * plain server answers. */
START_TEST(test_enc_below_and_off)
{
	const struct answer *r;

	world(false, true);
	r = net_resolve("www.enc.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_gt(net_sends_to("192.0.2.6"), 0);
	net_teardown();
	net_setup();
	encrypted("example.");
	world(false, true);
	r = net_resolve("www.enc.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_uint_eq(r->ede_code, EDE_NO_REACH);
	/* example.'s own server is plain: not asked either */
	ck_assert_uint_eq(net_sends_to("192.0.2.1"), 0);
	ck_assert_uint_eq(net_sends_to("192.0.2.6"), 0);
}
END_TEST

/* The option: names in lowercase wire form, repeatable, a zone once. */
START_TEST(test_enc_option)
{
	static struct cfg c;
	char err[256];
	const char *ok = "encrypted-zone: Enc.Example.\nencrypted-zone: .\n";
	const char *twice = "encrypted-zone: a.\nencrypted-zone: A.\n";

	cfg_defaults(&c);
	ck_assert_int_eq(cfg_parse("t.conf", ok, strlen(ok), &c, err,
	                           sizeof err),
	                 0);
	ck_assert_uint_eq(c.n_encrypted_zone, 2);
	ck_assert_uint_eq(c.encrypted_zone_len[0], 13);
	ck_assert_mem_eq(c.encrypted_zone[0], "\003enc\007example", 13);
	ck_assert_uint_eq(c.encrypted_zone_len[1], 1);
	cfg_defaults(&c);
	ck_assert_int_ne(cfg_parse("t.conf", twice, strlen(twice), &c, err,
	                           sizeof err),
	                 0);
	ck_assert_ptr_nonnull(strstr(err, "encrypted-zone"));
}
END_TEST

static Suite *iter_enc_suite(void)
{
	Suite *s = suite_create("iter_enc");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, net_setup, enc_teardown);
	tcase_add_test(tc, test_enc_keyed);
	tcase_add_test(tc, test_enc_plain_only);
	tcase_add_test(tc, test_enc_mixed);
	tcase_add_test(tc, test_enc_below_and_off);
	tcase_add_test(tc, test_enc_dane);
	tcase_add_test(tc, test_dane_want);
	tcase_add_test(tc, test_enc_option);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(iter_enc_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
