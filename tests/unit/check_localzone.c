/*
 * tests/unit/check_localzone.c - Suite "localzone": RFC 6761 / 6303
 * names answered locally, and the local-zone lines that change them.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/localzone.h"
#include "front/respond.h"
#include "wire/wire.h"

static struct localzone *lz;
static uint8_t buf[LOCALZONE_ANSWER_MAX];

static void setup(void)
{
	ck_assert_int_eq(localzone_new(NULL, 0, &lz), LOCALZONE_OK);
}

static void teardown(void)
{
	localzone_free(lz);
	lz = NULL;
}

static int ask(const char *text, uint16_t qtype, struct answer *a)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t len;

	ck_assert_int_eq(wire_name_from_text(text, strlen(text), name, &len),
	                 WIRE_OK);
	wire_name_lower(name, len);
	return localzone_answer(lz, name, len, qtype, WIRE_CLASS_IN, a, buf,
	                        sizeof buf);
}

/* A check that ask answers (a macro: a failure names the caller's line). */
#define ASK_OK(...) ck_assert_int_eq(ask(__VA_ARGS__), LOCALZONE_OK)

static bool local(const char *text)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t len;

	ck_assert_int_eq(wire_name_from_text(text, strlen(text), name, &len),
	                 WIRE_OK);
	wire_name_lower(name, len);
	return localzone_match(lz, name, len);
}

/* Type and RDATA of record i of an image. */
static uint16_t rr_type(const uint8_t *img, size_t len, unsigned i,
                        const uint8_t **rd, uint16_t *rdlen)
{
	size_t pos = 0;
	struct wire_rr rr;
	unsigned k;

	for (k = 0; k <= i; k++)
		ck_assert_int_eq(wire_read_rr(img, len, &pos, &rr), WIRE_OK);
	*rd = img + rr.rdata;
	*rdlen = rr.rdlen;
	ck_assert_uint_eq(rr.ttl, LOCALZONE_TTL);
	return rr.type;
}

START_TEST(test_localhost)
{
	static const uint8_t v4[4] = { 127, 0, 0, 1 };
	struct answer a;
	const uint8_t *rd;
	uint16_t rdlen;

	ASK_OK("LocalHost.", WIRE_TYPE_A, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_uint_eq(rr_type(a.an, a.an_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_A);
	ck_assert_uint_eq(rdlen, 4);
	ck_assert_mem_eq(rd, v4, 4);
	ASK_OK("localhost.", WIRE_TYPE_AAAA, &a);
	ck_assert_uint_eq(rr_type(a.an, a.an_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_AAAA);
	ck_assert_uint_eq(rdlen, 16);
	ck_assert_uint_eq(rd[15], 1);
	/* Below localhost too (RFC 6761 6.3). */
	ASK_OK("a.b.localhost.", WIRE_TYPE_A, &a);
	ck_assert_uint_eq(a.an_count, 1);
	/* Other types: NODATA with the SOA. */
	ASK_OK("localhost.", WIRE_TYPE_MX, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 0);
	ck_assert_uint_eq(a.ns_count, 1);
	ck_assert_uint_eq(rr_type(a.ns, a.ns_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_SOA);
	/* The apex has SOA and NS. */
	ASK_OK("localhost.", WIRE_TYPE_SOA, &a);
	ck_assert_uint_eq(a.an_count, 1);
	ASK_OK("localhost.", WIRE_TYPE_ANY, &a);
	ck_assert_uint_eq(a.an_count, 4);
}
END_TEST

START_TEST(test_special_names)
{
	struct answer a;
	const uint8_t *rd;
	uint16_t rdlen;

	ASK_OK("www.example.invalid.", WIRE_TYPE_A, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(a.ns_count, 1);
	ASK_OK("foo.TEST.", WIRE_TYPE_A, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ASK_OK("xyz.onion.", WIRE_TYPE_AAAA, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	/* RFC 8375: home.arpa. is local unless switched off */
	ASK_OK("nas.home.arpa.", WIRE_TYPE_A, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	/* The apex exists: NODATA. */
	ASK_OK("test.", WIRE_TYPE_A, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 0);
	ck_assert_uint_eq(rr_type(a.ns, a.ns_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_SOA);
	ASK_OK("invalid.", WIRE_TYPE_NS, &a);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_uint_eq(rr_type(a.an, a.an_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_NS);
	ck_assert_mem_eq(rd, "\7invalid", 9);
}
END_TEST

START_TEST(test_reverse)
{
	struct answer a;
	const uint8_t *rd;
	uint16_t rdlen;

	ASK_OK("1.0.0.127.in-addr.arpa.", WIRE_TYPE_PTR, &a);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_uint_eq(rr_type(a.an, a.an_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_PTR);
	ck_assert_mem_eq(rd, "\11localhost", 11);
	ASK_OK("1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0."
	       "0.0.0.0.0.0.0.0.ip6.arpa.",
	       WIRE_TYPE_PTR, &a);
	ck_assert_uint_eq(a.an_count, 1);
	ASK_OK("2.0.0.127.in-addr.arpa.", WIRE_TYPE_PTR, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ASK_OK("4.3.2.10.in-addr.arpa.", WIRE_TYPE_PTR, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ASK_OK("1.1.168.192.in-addr.arpa.", WIRE_TYPE_PTR, &a);
	ASK_OK("9.9.20.172.in-addr.arpa.", WIRE_TYPE_PTR, &a);
	ASK_OK("31.172.in-addr.arpa.", WIRE_TYPE_SOA, &a);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert(local("1.0.0.0.8.e.f.ip6.arpa."));
	ck_assert(local("0.d.f.ip6.arpa."));
	ck_assert(local("c.f.ip6.arpa."));
	ck_assert(local("8.b.d.0.1.0.0.2.ip6.arpa."));
	ck_assert(!local("5.100.in-addr.arpa."));
	ck_assert(local("5.64.100.in-addr.arpa."));
	/* Public space is not local. */
	ck_assert(!local("9.9.32.172.in-addr.arpa."));
	ck_assert(!local("15.172.in-addr.arpa."));
	ck_assert(local("1.2.0.192.in-addr.arpa."));
	ck_assert(!local("8.8.8.8.in-addr.arpa."));
	ck_assert(!local("in-addr.arpa."));
	ck_assert(!local("arpa."));
	ck_assert(!local("e.f.ip6.arpa."));
	ck_assert_int_eq(ask("8.8.8.8.in-addr.arpa.", WIRE_TYPE_PTR, &a),
	                 LOCALZONE_ENOTLOCAL);
}
END_TEST

START_TEST(test_not_local)
{
	struct answer a;
	uint8_t name[WIRE_NAME_MAX];
	size_t len;

	ck_assert(!local("."));
	ck_assert(!local("example.com."));
	ck_assert(!local("localhost.example."));
	ck_assert(!local("nottest."));
	ck_assert(!local("test.lab."));
	ck_assert_int_eq(ask("www.example.com.", WIRE_TYPE_A, &a),
	                 LOCALZONE_ENOTLOCAL);
	/* Other classes are never local. */
	ck_assert_int_eq(wire_name_from_text("localhost.", 10, name, &len),
	                 WIRE_OK);
	ck_assert_int_eq(localzone_answer(lz, name, len, WIRE_TYPE_A,
	                                  WIRE_CLASS_CH, &a, buf, sizeof buf),
	                 LOCALZONE_ENOTLOCAL);
	/* Malformed names are not local either. */
	ck_assert(!localzone_match(lz, (const uint8_t *)"\5test", 5));
	ck_assert(!localzone_match(lz, (const uint8_t *)"\4test\0\0", 7));
	ck_assert(!localzone_match(lz, NULL, 0));
}
END_TEST

START_TEST(test_space)
{
	struct answer a;
	uint8_t name[WIRE_NAME_MAX];
	size_t len;

	ck_assert_int_eq(wire_name_from_text("localhost.", 10, name, &len),
	                 WIRE_OK);
	ck_assert_int_eq(localzone_answer(lz, name, len, WIRE_TYPE_ANY,
	                                  WIRE_CLASS_IN, &a, buf, 40),
	                 LOCALZONE_ESPACE);
	ck_assert_int_eq(localzone_answer(lz, name, len, WIRE_TYPE_A,
	                                  WIRE_CLASS_IN, &a, buf, 100),
	                 LOCALZONE_OK);
	ck_assert_int_eq(localzone_answer(NULL, name, len, WIRE_TYPE_A,
	                                  WIRE_CLASS_IN, &a, buf, 100),
	                 LOCALZONE_EINVAL);
}
END_TEST

/* Zones in the built-in table. */
#define BUILTIN_ZONES 103

/** Lines a test gives. */
#define LINES_MAX 64
/** Zones of test_zone_limits, each under its own last label. */
#define LIMIT_ZONES 16

static struct cfg_local_zone lines[LINES_MAX];
static size_t nlines;

static void line(const char *name, enum cfg_lz_type type)
{
	struct cfg_local_zone *z = &lines[nlines++];

	ck_assert_int_eq(cfg_name_parse(name, z->name, &z->namelen), 0);
	z->type = type;
}

/* Rebuild lz from the lines given so far. */
static void rebuild(void)
{
	localzone_free(lz);
	lz = NULL;
	ck_assert_int_eq(localzone_new(lines, nlines, &lz), LOCALZONE_OK);
}

static void setup_lines(void)
{
	nlines = 0;
	setup();
}

/* rcode of an answer for NAME A, or -1 when it is not local. */
static int rcode(const char *name)
{
	struct answer a;
	int rc = ask(name, WIRE_TYPE_A, &a);

	if (rc == LOCALZONE_ENOTLOCAL)
		return -1;
	ck_assert_int_eq(rc, LOCALZONE_OK);
	return a.rcode;
}

START_TEST(test_nodefault)
{
	ck_assert_uint_eq(localzone_count(lz), BUILTIN_ZONES);
	line("test.", CFG_LZ_NODEFAULT);
	line("10.in-addr.arpa", CFG_LZ_NODEFAULT);
	line("sub.onion.", CFG_LZ_NODEFAULT); /* no such zone: no effect */
	line("home.arpa.", CFG_LZ_NODEFAULT);
	rebuild();
	ck_assert_uint_eq(localzone_count(lz), BUILTIN_ZONES - 3);
	ck_assert_int_eq(rcode("printer.home.arpa."), -1);
	ck_assert_int_eq(rcode("www.plain.test."), -1);
	ck_assert_int_eq(rcode("test."), -1);
	ck_assert(!local("www.test."));
	ck_assert_int_eq(rcode("4.3.2.10.in-addr.arpa."), -1);
	/* the others stay */
	ck_assert_int_eq(rcode("x.sub.onion."), WIRE_RCODE_NXDOMAIN);
	ck_assert_int_eq(rcode("1.1.168.192.in-addr.arpa."),
	                 WIRE_RCODE_NXDOMAIN);
	ck_assert_int_eq(rcode("localhost."), WIRE_RCODE_NOERROR);
}
END_TEST

START_TEST(test_transparent)
{
	line("invalid.", CFG_LZ_TRANSPARENT);
	line("lab.test.", CFG_LZ_TRANSPARENT); /* a hole in test. */
	rebuild();
	ck_assert_uint_eq(localzone_count(lz), BUILTIN_ZONES + 1);
	ck_assert_int_eq(rcode("www.invalid."), -1);
	ck_assert_int_eq(rcode("invalid."), -1);
	ck_assert(!local("invalid."));
	ck_assert_int_eq(rcode("www.lab.test."), -1);
	ck_assert_int_eq(rcode("lab.test."), -1);
	ck_assert_int_eq(rcode("www.test."), WIRE_RCODE_NXDOMAIN);
	ck_assert(local("lab2.test."));
}
END_TEST

START_TEST(test_refuse)
{
	struct answer a;

	line("onion.", CFG_LZ_REFUSE);
	line("Corp.Example.", CFG_LZ_REFUSE);
	line("open.corp.example.", CFG_LZ_TRANSPARENT);
	rebuild();
	ASK_OK("x.onion.", WIRE_TYPE_AAAA, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_REFUSED);
	ck_assert_uint_eq(a.an_count + a.ns_count, 0);
	ASK_OK("onion.", WIRE_TYPE_SOA, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_REFUSED);
	ck_assert_uint_eq(a.an_count, 0);
	ck_assert_int_eq(rcode("corp.example."), WIRE_RCODE_REFUSED);
	ck_assert_int_eq(rcode("a.b.CORP.example."), WIRE_RCODE_REFUSED);
	ck_assert(local("a.corp.example."));
	ck_assert_int_eq(rcode("www.open.corp.example."), -1);
	ck_assert_int_eq(rcode("example."), -1);
	ck_assert_int_eq(rcode("xcorp.example."), -1);
}
END_TEST

START_TEST(test_static)
{
	struct answer a;
	const uint8_t *rd;
	uint16_t rdlen;

	line("localhost.", CFG_LZ_STATIC);    /* as built in: unchanged */
	line("home.example.", CFG_LZ_STATIC); /* a new zone */
	rebuild();
	ASK_OK("localhost.", WIRE_TYPE_A, &a);
	ck_assert_uint_eq(a.an_count, 1);
	ASK_OK("pc.home.example.", WIRE_TYPE_A, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(rr_type(a.ns, a.ns_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_SOA);
	ck_assert_mem_eq(rd, "\4home\7example", 14);
	ASK_OK("home.example.", WIRE_TYPE_A, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 0);
	ASK_OK("home.example.", WIRE_TYPE_NS, &a);
	ck_assert_uint_eq(a.an_count, 1);
}
END_TEST

START_TEST(test_zone_limits)
{
	char name[32];
	size_t i;

	/* every line a new zone under its own last label */
	for (i = 0; i < LIMIT_ZONES; i++) {
		snprintf(name, sizeof name, "z.tld%zu.", i);
		line(name, CFG_LZ_STATIC);
	}
	rebuild();
	ck_assert_uint_eq(localzone_count(lz), BUILTIN_ZONES + LIMIT_ZONES);
	ck_assert_int_eq(rcode("a.z.tld0."), WIRE_RCODE_NXDOMAIN);
	ck_assert_int_eq(rcode("a.z.tld15."), WIRE_RCODE_NXDOMAIN);
	ck_assert_int_eq(rcode("www.test."), WIRE_RCODE_NXDOMAIN);
	localzone_free(lz);
	lz = NULL;
	ck_assert_int_eq(localzone_new(NULL, 1, &lz), LOCALZONE_EINVAL);
	ck_assert_ptr_null(lz);
	ck_assert_int_eq(localzone_new(NULL, 0, NULL), LOCALZONE_EINVAL);
	lines[0].name[0] = 0; /* the root: no zone */
	lines[0].namelen = 1;
	ck_assert_int_eq(localzone_new(lines, 1, &lz), LOCALZONE_EINVAL);
	ck_assert_ptr_null(lz);
}
END_TEST

static Suite *localzone_suite(void)
{
	Suite *s = suite_create("localzone");
	TCase *t;

	t = tcase_create("answers");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_localhost);
	tcase_add_test(t, test_special_names);
	tcase_add_test(t, test_reverse);
	suite_add_tcase(s, t);
	t = tcase_create("reject");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, test_not_local);
	tcase_add_test(t, test_space);
	suite_add_tcase(s, t);
	t = tcase_create("local-zone");
	tcase_add_checked_fixture(t, setup_lines, teardown);
	tcase_add_test(t, test_nodefault);
	tcase_add_test(t, test_transparent);
	tcase_add_test(t, test_refuse);
	tcase_add_test(t, test_static);
	suite_add_tcase(s, t);
	t = tcase_create("limits");
	tcase_add_checked_fixture(t, setup_lines, teardown);
	tcase_add_test(t, test_zone_limits);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(localzone_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
