/*
 * tests/unit/check_privaddr.c - Suite "privaddr": DNS rebinding
 * protection (resolver/conf/privaddr.c): prefix parsing and matching,
 * private-domain names, the strip decision, and the config lines
 * private-address / private-domain (resolver/conf/cfg.c).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "conf/privaddr.h"

#define TYPE_A 1
#define TYPE_AAAA 28
#define TYPE_TXT 16

static const uint8_t www_public[] = "\3www\7example\3com"; /* +NUL */
static const uint8_t nas_home[] = "\3nas\4home\4arpa";
static const uint8_t home[] = "\4home\4arpa";
static const uint8_t nothome[] = "\7nothome\4arpa";

static enum privaddr_status parse(const char *text, struct privaddr_prefix *p)
{
	return privaddr_prefix_parse(text, strlen(text), p);
}

static void add(struct privaddr *pa, const char *text)
{
	ck_assert_int_eq(privaddr_add_prefix(pa, text, strlen(text)),
	                 PRIVADDR_OK);
}

/* The set an administrator typically writes, and home.arpa private. */
static void lan_set(struct privaddr *pa)
{
	static const char *const prefixes[] = {
		"10.0.0.0/8",     "172.16.0.0/12", "192.168.0.0/16",
		"169.254.0.0/16", "fd00::/8",      "fe80::/10",
		"127.0.0.0/8",    "::1/128"
	};
	size_t i;

	memset(pa, 0, sizeof *pa);
	for (i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
		add(pa, prefixes[i]);
	ck_assert_int_eq(privaddr_add_domain(pa, home, sizeof home),
	                 PRIVADDR_OK);
}

START_TEST(test_prefix_parse)
{
	struct privaddr_prefix p;
	static const uint8_t v6[16] = { 0xfd };

	ck_assert_int_eq(parse("10.0.0.0/8", &p), PRIVADDR_OK);
	ck_assert_uint_eq(p.family, 4);
	ck_assert_uint_eq(p.bits, 8);
	ck_assert_int_eq(parse("192.168.1.1", &p), PRIVADDR_OK);
	ck_assert_uint_eq(p.bits, 32);
	ck_assert_int_eq(parse("fd12:3456::/8", &p), PRIVADDR_OK);
	ck_assert_uint_eq(p.family, 6);
	ck_assert_uint_eq(p.bits, 8);
	ck_assert_mem_eq(p.addr, v6, sizeof v6); /* host bits cleared */
	ck_assert_int_eq(parse("::1", &p), PRIVADDR_OK);
	ck_assert_uint_eq(p.bits, 128);
	ck_assert_int_eq(parse("10.1.2.3/12", &p), PRIVADDR_OK);
	ck_assert_uint_eq(p.addr[1], 0);
	ck_assert_int_eq(parse("0.0.0.0/0", &p), PRIVADDR_OK);
}
END_TEST

START_TEST(test_prefix_reject)
{
	struct privaddr_prefix p;

	ck_assert_int_eq(parse("10.0.0.0/33", &p), PRIVADDR_EBITS);
	ck_assert_int_eq(parse("fd00::/129", &p), PRIVADDR_EBITS);
	ck_assert_int_eq(parse("10.0.0.0/", &p), PRIVADDR_ESYNTAX);
	ck_assert_int_eq(parse("10.0.0.0/8x", &p), PRIVADDR_ESYNTAX);
	ck_assert_int_eq(parse("10.0.0.0/-8", &p), PRIVADDR_ESYNTAX);
	ck_assert_int_eq(parse("10.0.0.0/0008", &p), PRIVADDR_ESYNTAX);
	ck_assert_int_eq(parse("/8", &p), PRIVADDR_ESYNTAX);
	ck_assert_int_eq(parse("", &p), PRIVADDR_ESYNTAX);
	ck_assert_int_eq(parse("10.0.0/8", &p), PRIVADDR_ESYNTAX);
	ck_assert_int_eq(parse("example.com", &p), PRIVADDR_ESYNTAX);
	ck_assert_int_eq(privaddr_prefix_parse("10.0.0.0\0/8", 11, &p),
	                 PRIVADDR_ESYNTAX);
	/* The length bounds the read: "10.0.0.0/8" cut to "10.0.0.0/". */
	ck_assert_int_eq(privaddr_prefix_parse("10.0.0.0/8", 9, &p),
	                 PRIVADDR_ESYNTAX);
}
END_TEST

START_TEST(test_is_private)
{
	struct privaddr pa;
	static const uint8_t lan[4] = { 192, 168, 1, 1 };
	static const uint8_t pub[4] = { 192, 0, 2, 1 };
	static const uint8_t edge[4] = { 172, 32, 0, 1 }; /* outside /12 */
	static const uint8_t ula[16] = { 0xfd, 0x54, [15] = 1 };
	static const uint8_t ll[16] = { 0xfe, 0xbf, [15] = 1 }; /* fe80::/10 */
	static const uint8_t doc[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t mapped[16] = { [10] = 0xff, [11] = 0xff, 192,
		                            168,         1,           1 };

	lan_set(&pa);
	ck_assert(privaddr_is_private(&pa, lan, sizeof lan));
	ck_assert(!privaddr_is_private(&pa, pub, sizeof pub));
	ck_assert(!privaddr_is_private(&pa, edge, sizeof edge));
	ck_assert(privaddr_is_private(&pa, ula, sizeof ula));
	ck_assert(privaddr_is_private(&pa, ll, sizeof ll));
	ck_assert(!privaddr_is_private(&pa, doc, sizeof doc));
	/* An IPv4-mapped AAAA cannot slip past the IPv4 prefixes. */
	ck_assert(privaddr_is_private(&pa, mapped, sizeof mapped));
	ck_assert(!privaddr_is_private(&pa, lan, 3));
}
END_TEST

START_TEST(test_domain_has)
{
	struct privaddr pa;
	static const uint8_t root[] = "";

	lan_set(&pa);
	ck_assert(privaddr_domain_has(&pa, home, sizeof home));
	ck_assert(privaddr_domain_has(&pa, nas_home, sizeof nas_home));
	ck_assert(!privaddr_domain_has(&pa, nothome, sizeof nothome));
	ck_assert(!privaddr_domain_has(&pa, www_public, sizeof www_public));
	/* Malformed: a label running past the end. */
	ck_assert(!privaddr_domain_has(&pa, (const uint8_t *)"\011home\0", 6));
	ck_assert_int_eq(privaddr_add_domain(&pa, root, sizeof root),
	                 PRIVADDR_OK);
	ck_assert(privaddr_domain_has(&pa, www_public, sizeof www_public));
	ck_assert_int_eq(privaddr_add_domain(&pa, (const uint8_t *)"\3a", 2),
	                 PRIVADDR_ENAME);
}
END_TEST

START_TEST(test_strip)
{
	struct privaddr pa;
	static const uint8_t lan[4] = { 192, 168, 1, 1 };
	static const uint8_t pub[4] = { 192, 0, 2, 1 };
	static const uint8_t ula[16] = { 0xfd, 0x54, [15] = 1 };

	lan_set(&pa);
	ck_assert(privaddr_strip(&pa, www_public, sizeof www_public, TYPE_A,
	                         lan, sizeof lan));
	ck_assert(!privaddr_strip(&pa, nas_home, sizeof nas_home, TYPE_A, lan,
	                          sizeof lan));
	ck_assert(!privaddr_strip(&pa, www_public, sizeof www_public, TYPE_A,
	                          pub, sizeof pub));
	ck_assert(privaddr_strip(&pa, www_public, sizeof www_public, TYPE_AAAA,
	                         ula, sizeof ula));
	/* Only A with 4 bytes and AAAA with 16 are addresses. */
	ck_assert(!privaddr_strip(&pa, www_public, sizeof www_public,
	                          TYPE_AAAA, lan, sizeof lan));
	ck_assert(!privaddr_strip(&pa, www_public, sizeof www_public, TYPE_TXT,
	                          lan, sizeof lan));
	ck_assert(!privaddr_strip(NULL, www_public, sizeof www_public, TYPE_A,
	                          lan, sizeof lan));
	/* Without private-address nothing is stripped. */
	memset(&pa, 0, sizeof pa);
	ck_assert(!privaddr_strip(&pa, www_public, sizeof www_public, TYPE_A,
	                          lan, sizeof lan));
}
END_TEST

START_TEST(test_limits)
{
	struct privaddr pa;
	char text[32];
	unsigned i;

	memset(&pa, 0, sizeof pa);
	for (i = 0; i < PRIVADDR_PREFIXES_MAX; i++) {
		snprintf(text, sizeof text, "10.%u.0.0/16", i);
		add(&pa, text);
	}
	add(&pa, "10.0.0.0/16"); /* a repeat is kept once */
	ck_assert_uint_eq(pa.nprefix, PRIVADDR_PREFIXES_MAX);
	ck_assert_int_eq(privaddr_add_prefix(&pa, "11.0.0.0/8", 10),
	                 PRIVADDR_EFULL);
	ck_assert_uint_eq(pa.nprefix, PRIVADDR_PREFIXES_MAX);
}
END_TEST

/* Config text through cfg_parse; 0 or -1, the error in err. */
static int cfg_text(const char *text, struct cfg *c, char *err, size_t errlen)
{
	cfg_defaults(c);
	return cfg_parse("test.conf", text, strlen(text), c, err, errlen);
}

START_TEST(test_cfg_options)
{
	struct cfg *c = malloc(sizeof *c);
	char err[CFG_ERR_BYTES];
	static const uint8_t lan[4] = { 192, 168, 1, 1 };

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(cfg_text("log-level: info\n", c, err, sizeof err), 0);
	ck_assert_uint_eq(c->priv.nprefix, 0);
	ck_assert_uint_eq(c->priv.ndomain, 0);
	ck_assert_int_eq(cfg_text("private-address: 192.168.0.0/16\n"
	                          "private-address: fd00::/8\n"
	                          "private-address: \"10.0.0.0/8\"\n"
	                          "private-domain: \"Home.Arpa\"\n"
	                          "private-domain: corp.example.\n",
	                          c, err, sizeof err),
	                 0);
	ck_assert_uint_eq(c->priv.nprefix, 3);
	ck_assert_uint_eq(c->priv.ndomain, 2);
	ck_assert(privaddr_strip(&c->priv, www_public, sizeof www_public,
	                         TYPE_A, lan, sizeof lan));
	ck_assert(!privaddr_strip(&c->priv, nas_home, sizeof nas_home, TYPE_A,
	                          lan, sizeof lan));
	free(c);
}
END_TEST

START_TEST(test_cfg_bad_prefix)
{
	struct cfg *c = malloc(sizeof *c);
	char err[CFG_ERR_BYTES];

	ck_assert_ptr_nonnull(c);
	ck_assert_int_eq(cfg_text("log-level: info\n"
	                          "private-address: 10.0.0.0/33\n",
	                          c, err, sizeof err),
	                 -1);
	ck_assert_msg(strncmp(err,
	                      "test.conf:2: bad private-address "
	                      "\"10.0.0.0/33\"",
	                      44) == 0,
	              "%s", err);
	ck_assert_int_eq(cfg_text("private-address: 10.0.0\n", c, err,
	                          sizeof err),
	                 -1);
	ck_assert_msg(strstr(err, "test.conf:1:") == err, "%s", err);
	ck_assert_int_eq(cfg_text("\nprivate-domain: a..b\n", c, err,
	                          sizeof err),
	                 -1);
	ck_assert_msg(strncmp(err, "test.conf:2: bad private-domain", 31) == 0,
	              "%s", err);
	ck_assert_int_eq(cfg_text("private-address:\n", c, err, sizeof err),
	                 -1);
	free(c);
}
END_TEST

static Suite *privaddr_suite(void)
{
	Suite *s = suite_create("privaddr");
	TCase *t = tcase_create("prefixes");

	tcase_add_test(t, test_prefix_parse);
	tcase_add_test(t, test_is_private);
	tcase_add_test(t, test_domain_has);
	tcase_add_test(t, test_strip);
	suite_add_tcase(s, t);
	t = tcase_create("reject");
	tcase_add_test(t, test_prefix_reject);
	tcase_add_test(t, test_cfg_bad_prefix);
	suite_add_tcase(s, t);
	t = tcase_create("limits");
	tcase_add_test(t, test_limits);
	suite_add_tcase(s, t);
	t = tcase_create("config");
	tcase_add_test(t, test_cfg_options);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(privaddr_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
