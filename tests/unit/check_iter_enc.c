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

/* A SECURE TLSA 3 1 1 for the plain server: asked with its pin (DANE),
 * and only so; an insecure one (or another usage) does not count. */
START_TEST(test_enc_dane)
{
	uint8_t rd[3 + ITER_DANE_PIN_BYTES] = { 3, 1, 1 };
	const struct answer *r;
	size_t i, n = 0;

	memset(rd + 3, 0xab, ITER_DANE_PIN_BYTES);
	encrypted("enc.example.");
	world(false, true);
	net_put_secure("_853._tcp.ns2.enc.example.", TLSA_TYPE, rd, sizeof rd,
	               CACHE_RANK_AUTH);
	r = net_resolve("www.enc.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	for (i = 0; i < N.nsends; i++) {
		if (strcmp(N.sends[i].server, "192.0.2.6") != 0)
			continue;
		ck_assert(N.sends[i].dane);
		ck_assert_mem_eq(N.sends[i].dane_pin, rd + 3,
		                 ITER_DANE_PIN_BYTES);
		n++;
	}
	ck_assert_uint_gt(n, 0);
	/* without encrypted-zone the pin is used all the same */
	net_teardown();
	net_setup();
	world(false, true);
	rd[0] = 1; /* PKIX-EE: not used */
	net_put_secure("_853._tcp.ns2.enc.example.", TLSA_TYPE, rd, sizeof rd,
	               CACHE_RANK_AUTH);
	r = net_resolve("www.enc.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	for (i = 0; i < N.nsends; i++)
		ck_assert(!N.sends[i].dane);
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

	tcase_add_checked_fixture(tc, net_setup, net_teardown);
	tcase_add_test(tc, test_enc_keyed);
	tcase_add_test(tc, test_enc_plain_only);
	tcase_add_test(tc, test_enc_mixed);
	tcase_add_test(tc, test_enc_below_and_off);
	tcase_add_test(tc, test_enc_dane);
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
