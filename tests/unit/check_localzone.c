/*
 * tests/unit/check_localzone.c - Suite "localzone": RFC 6761 / 6303
 * names answered locally.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "localzone.h"
#include "respond.h"
#include "wire.h"

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

static int ask(const char *text, uint16_t qtype, struct respond_answer *a)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t len;

	ck_assert_int_eq(wire_name_from_text(text, strlen(text), name, &len),
	                 WIRE_OK);
	wire_name_lower(name, len);
	return localzone_answer(lz, name, len, qtype, WIRE_CLASS_IN, a, buf,
	                        sizeof buf);
}

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
	struct respond_answer a;
	const uint8_t *rd;
	uint16_t rdlen;

	ck_assert_int_eq(ask("LocalHost.", WIRE_TYPE_A, &a), LOCALZONE_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_uint_eq(rr_type(a.an, a.an_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_A);
	ck_assert_uint_eq(rdlen, 4);
	ck_assert_mem_eq(rd, v4, 4);
	ck_assert_int_eq(ask("localhost.", WIRE_TYPE_AAAA, &a), LOCALZONE_OK);
	ck_assert_uint_eq(rr_type(a.an, a.an_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_AAAA);
	ck_assert_uint_eq(rdlen, 16);
	ck_assert_uint_eq(rd[15], 1);
	/* Below localhost too (RFC 6761 6.3). */
	ck_assert_int_eq(ask("a.b.localhost.", WIRE_TYPE_A, &a), LOCALZONE_OK);
	ck_assert_uint_eq(a.an_count, 1);
	/* Other types: NODATA with the SOA. */
	ck_assert_int_eq(ask("localhost.", WIRE_TYPE_MX, &a), LOCALZONE_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 0);
	ck_assert_uint_eq(a.ns_count, 1);
	ck_assert_uint_eq(rr_type(a.ns, a.ns_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_SOA);
	/* The apex has SOA and NS. */
	ck_assert_int_eq(ask("localhost.", WIRE_TYPE_SOA, &a), LOCALZONE_OK);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_int_eq(ask("localhost.", WIRE_TYPE_ANY, &a), LOCALZONE_OK);
	ck_assert_uint_eq(a.an_count, 4);
}
END_TEST

START_TEST(test_special_names)
{
	struct respond_answer a;
	const uint8_t *rd;
	uint16_t rdlen;

	ck_assert_int_eq(ask("www.example.invalid.", WIRE_TYPE_A, &a),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(a.ns_count, 1);
	ck_assert_int_eq(ask("foo.TEST.", WIRE_TYPE_A, &a), LOCALZONE_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_int_eq(ask("xyz.onion.", WIRE_TYPE_AAAA, &a), LOCALZONE_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	/* The apex exists: NODATA. */
	ck_assert_int_eq(ask("test.", WIRE_TYPE_A, &a), LOCALZONE_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 0);
	ck_assert_uint_eq(rr_type(a.ns, a.ns_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_SOA);
	ck_assert_int_eq(ask("invalid.", WIRE_TYPE_NS, &a), LOCALZONE_OK);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_uint_eq(rr_type(a.an, a.an_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_NS);
	ck_assert_mem_eq(rd, "\7invalid", 9);
}
END_TEST

START_TEST(test_reverse)
{
	struct respond_answer a;
	const uint8_t *rd;
	uint16_t rdlen;

	ck_assert_int_eq(ask("1.0.0.127.in-addr.arpa.", WIRE_TYPE_PTR, &a),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_uint_eq(rr_type(a.an, a.an_len, 0, &rd, &rdlen),
	                  WIRE_TYPE_PTR);
	ck_assert_mem_eq(rd, "\11localhost", 11);
	ck_assert_int_eq(ask("1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0."
	                     "0.0.0.0.0.0.0.0.ip6.arpa.", WIRE_TYPE_PTR, &a),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_int_eq(ask("2.0.0.127.in-addr.arpa.", WIRE_TYPE_PTR, &a),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_int_eq(ask("4.3.2.10.in-addr.arpa.", WIRE_TYPE_PTR, &a),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_int_eq(ask("1.1.168.192.in-addr.arpa.", WIRE_TYPE_PTR, &a),
	                 LOCALZONE_OK);
	ck_assert_int_eq(ask("9.9.20.172.in-addr.arpa.", WIRE_TYPE_PTR, &a),
	                 LOCALZONE_OK);
	ck_assert_int_eq(ask("31.172.in-addr.arpa.", WIRE_TYPE_SOA, &a),
	                 LOCALZONE_OK);
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
	struct respond_answer a;
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
	struct respond_answer a;
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
