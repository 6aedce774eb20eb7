/*
 * tests/unit/check_forward.c - Suite "forward": the check, caching and
 * answer images of forwarders' responses (forward_answer), without a
 * loop or a socket; and forward_new/forward_find without zones' I/O.
 */
#include <check.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "cachetest.h"
#include "transport/forward.h"
#include "wire/wire.h"

#define T0 CACHETEST_T0

static uint8_t msg[4096], buf[8192];
static struct wire_writer w;

/* A response header and question (name as given, case kept). */
static void begin(const char *qname, uint16_t qtype, uint16_t flags)
{
	struct wire_header h = {
		0x1234,
		(uint16_t)(WIRE_FLAG_QR | WIRE_FLAG_RD | WIRE_FLAG_RA | flags),
		0,
		0,
		0,
		0
	};
	uint8_t n[WIRE_NAME_MAX];
	size_t len = wname(n, qname);

	wire_writer_init(&w, msg, sizeof msg);
	ck_assert_int_eq(wire_write_header(&w, &h), WIRE_OK);
	ck_assert_int_eq(wire_write_question(&w, n, len, qtype, WIRE_CLASS_IN),
	                 WIRE_OK);
}

static void rr(enum wire_section sec, const char *owner, uint16_t type,
               uint32_t ttl, const uint8_t *rd, size_t rdlen)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len = wname(n, owner);

	ck_assert_int_eq(wire_write_rr(&w, sec, n, len, type, WIRE_CLASS_IN,
	                               ttl, rd, (uint16_t)rdlen),
	                 WIRE_OK);
}

/* A CNAME whose target is written compressed (as servers do). */
static void rr_cname(const char *owner, const char *target)
{
	uint8_t n[WIRE_NAME_MAX], t[WIRE_NAME_MAX];
	size_t len = wname(n, owner), tlen = wname(t, target), pos;

	ck_assert_int_eq(wire_write_rr_begin(&w, WIRE_SECTION_ANSWER, n, len,
	                                     WIRE_TYPE_CNAME, WIRE_CLASS_IN,
	                                     600, &pos),
	                 WIRE_OK);
	ck_assert_int_eq(wire_write_name(&w, t, tlen, 1), WIRE_OK);
	ck_assert_int_eq(wire_write_rr_end(&w, pos), WIRE_OK);
}

static void soa(const char *zone)
{
	uint8_t rd[600];
	char tmp[300];
	size_t n;

	snprintf(tmp, sizeof tmp, "ns.%s", zone);
	n = wname(rd, tmp);
	snprintf(tmp, sizeof tmp, "host.%s", zone);
	n += wname(rd + n, tmp);
	memset(rd + n, 0, 20);
	rd[n + 19] = 120; /* MINIMUM */
	rr(WIRE_SECTION_AUTHORITY, zone, WIRE_TYPE_SOA, 3600, rd, n + 20);
}

static int answer(const char *qname, uint16_t qtype, struct answer *a)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len = wname(n, qname);

	wire_name_lower(n, len);
	return forward_answer(c, msg, w.len, n, len, qtype, WIRE_CLASS_IN, T0,
	                      a, buf, sizeof buf, NULL, NULL);
}

static int cached(const char *name, uint16_t type, struct cache_answer *ans)
{
	uint8_t n[WIRE_NAME_MAX], img[1024];
	struct cache_query q = { n, wname(n, name), type, WIRE_CLASS_IN, 0 };

	return cache_get(c, &q, T0 + 1, ans, img, sizeof img);
}

static const uint8_t addr[4] = { 192, 0, 2, 1 };

START_TEST(test_answer_cached_nonauth)
{
	struct answer a;
	struct cache_answer ans;

	begin("WWW.corp.example", WIRE_TYPE_A, 0);
	rr(WIRE_SECTION_ANSWER, "WWW.corp.example", WIRE_TYPE_A, 300, addr, 4);
	rr(WIRE_SECTION_ANSWER, "www.corp.example", WIRE_TYPE_A, 200, addr, 4);
	rr(WIRE_SECTION_AUTHORITY, "corp.example", WIRE_TYPE_NS, 300,
	   (const uint8_t *)"\002ns\004corp\007example", 17);
	ck_assert_int_eq(answer("www.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 2);
	ck_assert_uint_eq(a.ns_count, 0);
	ck_assert_int_eq(cached("www.corp.example", WIRE_TYPE_A, &ans),
	                 CACHE_OK);
	ck_assert_int_eq(ans.rank, CACHE_RANK_NONAUTH);
	ck_assert_uint_eq(ans.count, 2);
	ck_assert_uint_eq(ans.orig_ttl, 200); /* the least TTL of the set */
	/* The authority NS of a forwarder is never cached. */
	ck_assert_int_eq(cached("corp.example", WIRE_TYPE_NS, &ans),
	                 CACHE_ENOTFOUND);
}
END_TEST

START_TEST(test_cname_chain_and_strays)
{
	struct answer a;
	struct cache_answer ans;

	begin("alias.corp.example", WIRE_TYPE_A, 0);
	rr_cname("alias.corp.example", "www.corp.example");
	rr(WIRE_SECTION_ANSWER, "www.corp.example", WIRE_TYPE_A, 300, addr, 4);
	/* Off the chain: dropped, not cached. */
	rr(WIRE_SECTION_ANSWER, "bank.example", WIRE_TYPE_A, 300, addr, 4);
	ck_assert_int_eq(answer("alias.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_OK);
	ck_assert_uint_eq(a.an_count, 2);
	ck_assert_int_eq(cached("alias.corp.example", WIRE_TYPE_CNAME, &ans),
	                 CACHE_OK);
	ck_assert_int_eq(cached("www.corp.example", WIRE_TYPE_A, &ans),
	                 CACHE_OK);
	ck_assert_int_eq(cached("bank.example", WIRE_TYPE_A, &ans),
	                 CACHE_ENOTFOUND);
}
END_TEST

START_TEST(test_negative)
{
	struct answer a;
	struct cache_answer ans;

	begin("nosuch.corp.example", WIRE_TYPE_A, WIRE_RCODE_NXDOMAIN);
	soa("corp.example");
	ck_assert_int_eq(answer("nosuch.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(a.an_count, 0);
	ck_assert_uint_eq(a.ns_count, 1);
	ck_assert_int_eq(cached("nosuch.corp.example", WIRE_TYPE_A, &ans),
	                 CACHE_OK);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
	begin("www.corp.example", WIRE_TYPE_MX, 0);
	soa("corp.example");
	ck_assert_int_eq(answer("www.corp.example", WIRE_TYPE_MX, &a),
	                 FORWARD_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.ns_count, 1);
	ck_assert_int_eq(cached("www.corp.example", WIRE_TYPE_MX, &ans),
	                 CACHE_OK);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NODATA);
}
END_TEST

START_TEST(test_reject)
{
	struct answer a;

	begin("www.corp.example", WIRE_TYPE_A, WIRE_RCODE_SERVFAIL);
	ck_assert_int_eq(answer("www.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_ERCODE);
	begin("www.corp.example", WIRE_TYPE_A, WIRE_RCODE_REFUSED);
	ck_assert_int_eq(answer("www.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_ERCODE);
	/* Another question, another type, truncated, garbage. */
	begin("www.other.example", WIRE_TYPE_A, 0);
	ck_assert_int_eq(answer("www.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_EMSG);
	begin("www.corp.example", WIRE_TYPE_AAAA, 0);
	ck_assert_int_eq(answer("www.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_EMSG);
	begin("www.corp.example", WIRE_TYPE_A, WIRE_FLAG_TC);
	ck_assert_int_eq(answer("www.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_EMSG);
	begin("www.corp.example", WIRE_TYPE_A, 0);
	w.len = 7;
	ck_assert_int_eq(answer("www.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_EMSG);
	/* A bad A record is skipped: nothing left, no SOA. */
	begin("www.corp.example", WIRE_TYPE_A, 0);
	rr(WIRE_SECTION_ANSWER, "www.corp.example", WIRE_TYPE_A, 300, addr, 3);
	ck_assert_int_eq(answer("www.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_EMSG);
	/* A referral (a forwarder that does not recurse). */
	begin("www.corp.example", WIRE_TYPE_A, 0);
	rr(WIRE_SECTION_AUTHORITY, "corp.example", WIRE_TYPE_NS, 300,
	   (const uint8_t *)"\002ns\004corp\007example", 17);
	ck_assert_int_eq(answer("www.corp.example", WIRE_TYPE_A, &a),
	                 FORWARD_EMSG);
	ck_assert_int_eq(forward_answer(NULL, msg, w.len, msg, 1, 1, 1, T0, &a,
	                                buf, sizeof buf, NULL, NULL),
	                 FORWARD_EINVAL);
	/* Too small a buffer. */
	begin("www.corp.example", WIRE_TYPE_A, 0);
	rr(WIRE_SECTION_ANSWER, "www.corp.example", WIRE_TYPE_A, 300, addr, 4);
	{
		uint8_t n[WIRE_NAME_MAX];
		size_t len = wname(n, "www.corp.example");

		ck_assert_int_eq(forward_answer(c, msg, w.len, n, len,
		                                WIRE_TYPE_A, WIRE_CLASS_IN, T0,
		                                &a, buf, 10, NULL, NULL),
		                 FORWARD_ESPACE);
	}
	ck_assert_str_eq(forward_strerror(FORWARD_EMSG),
	                 "not a response to the question");
	ck_assert_str_eq(forward_strerror(99), "unknown status");
}
END_TEST

START_TEST(test_zones)
{
	struct cfg cfg;
	struct forward *f = NULL;
	char err[CFG_ERR_BYTES], v1[] = "corp.example 127.0.0.1@5399",
				 v2[] = ". 127.0.0.1";
	uv_loop_t loop;

	cfg_defaults(&cfg);
	ck_assert_int_eq(cfg_zone_parse(v1, false, &cfg.forward[0], err,
	                                sizeof err),
	                 0);
	ck_assert_int_eq(cfg_zone_parse(v2, false, &cfg.forward[1], err,
	                                sizeof err),
	                 0);
	cfg.n_forward = 2;
	ck_assert_int_eq(uv_loop_init(&loop), 0);
	ck_assert_int_eq(forward_new(&f, &loop, &cfg, err, sizeof err),
	                 FORWARD_OK);
	ck_assert_int_eq(forward_find(f,
	                              (const uint8_t
	                                       *)"\001x\004corp\007example",
	                              16),
	                 0);
	ck_assert_int_eq(forward_find(f, (const uint8_t *)"\003org", 5), 1);
	ck_assert_int_eq(forward_find(NULL, (const uint8_t *)"\003org", 5),
	                 -1);
	/* a reload keeps the handle only for the same zones and timeout */
	ck_assert(forward_same(f, &cfg));
	ck_assert(!forward_same(NULL, &cfg));
	cfg.query_timeout_ms *= 2;
	ck_assert(!forward_same(f, &cfg));
	cfg.query_timeout_ms /= 2;
	((struct sockaddr_in *)&cfg.forward[1].addr[0].sa)->sin_port ^= 1;
	ck_assert(!forward_same(f, &cfg));
	((struct sockaddr_in *)&cfg.forward[1].addr[0].sa)->sin_port ^= 1;
	ck_assert(forward_same(f, &cfg));
	cfg.n_forward = 1;
	ck_assert(!forward_same(f, &cfg));
	forward_stop(f);
	forward_stop(f);
	ck_assert_int_eq(uv_run(&loop, UV_RUN_DEFAULT), 0);
	forward_free(f);
	ck_assert_int_eq(uv_loop_close(&loop), 0);
}
END_TEST

static Suite *forward_suite(void)
{
	Suite *s = suite_create("forward");
	TCase *tc = tcase_create("answer");

	tcase_add_checked_fixture(tc, cachetest_setup, cachetest_teardown);
	tcase_add_test(tc, test_answer_cached_nonauth);
	tcase_add_test(tc, test_cname_chain_and_strays);
	tcase_add_test(tc, test_negative);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, cachetest_setup, cachetest_teardown);
	tcase_add_test(tc, test_reject);
	suite_add_tcase(s, tc);
	tc = tcase_create("zones");
	tcase_add_test(tc, test_zones);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(forward_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
