/*
 * tests/unit/check_doh.c - Suite "doh": the HTTP side of DNS over HTTPS
 * that needs no HTTP/2 (resolver/front_tls/dohhttp.c: base64url, :path and
 * ?dns=, content-type, max-age), the SVCB records of DDR
 * (resolver/front_tls/ddr.c, RFC 9460/9461/9462) and the DoH options.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "front_tls/ddr.h"
#include "front_tls/dohhttp.h"

/** Room for a decoded query, an RDATA. */
#define T_CAP 1024

/* The query of RFC 8484 s4.1.1's example: www.example.com A, ID 0. */
static const uint8_t t_query[] = { 0,   0,   1,   0,   0,   1,   0,   0,   0,
	                           0,   0,   0,   3,   'w', 'w', 'w', 7,   'e',
	                           'x', 'a', 'm', 'p', 'l', 'e', 3,   'c', 'o',
	                           'm', 0,   0,   1,   0,   1 };
static const char t_query_b64[] =
	"AAABAAABAAAAAAAAA3d3dwdleGFtcGxlA2NvbQAAAQAB";

START_TEST(test_b64url)
{
	uint8_t out[T_CAP];
	size_t n;

	ck_assert_int_eq(dohhttp_b64url_decode(t_query_b64,
	                                       strlen(t_query_b64), out,
	                                       sizeof out, &n),
	                 0);
	ck_assert_uint_eq(n, sizeof t_query);
	ck_assert_mem_eq(out, t_query, n);
	/* the URL alphabet: - and _ for + and / */
	ck_assert_int_eq(dohhttp_b64url_decode("-_8", 3, out, sizeof out, &n),
	                 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(out[0], 0xfb);
	ck_assert_uint_eq(out[1], 0xff);
	/* padding tolerated, '+' and '/' refused, 4n+1 characters refused */
	ck_assert_int_eq(dohhttp_b64url_decode("AAE=", 4, out, sizeof out, &n),
	                 0);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(dohhttp_b64url_decode("AA+/", 4, out, sizeof out, &n),
	                 -1);
	ck_assert_int_eq(dohhttp_b64url_decode("AAAAA", 5, out, sizeof out,
	                                       &n),
	                 -1);
	/* never past cap */
	ck_assert_int_eq(dohhttp_b64url_decode("AAAA", 4, out, 2, &n), -2);
	ck_assert_int_eq(dohhttp_b64url_decode("", 0, out, 0, &n), 0);
	ck_assert_uint_eq(n, 0);
}
END_TEST

static int t_path(const char *p, uint8_t *q, size_t *qlen)
{
	return dohhttp_path(p, strlen(p), "/dns-query", q, T_CAP, qlen);
}

START_TEST(test_path)
{
	char p[T_CAP];
	uint8_t q[T_CAP];
	size_t n;

	snprintf(p, sizeof p, "/dns-query?dns=%s", t_query_b64);
	ck_assert_int_eq(t_path(p, q, &n), DOHHTTP_OK);
	ck_assert_uint_eq(n, sizeof t_query);
	ck_assert_mem_eq(q, t_query, n);
	snprintf(p, sizeof p, "/dns-query?ct&x=1&dns=%s&dns=AAAA",
	         t_query_b64);
	ck_assert_int_eq(t_path(p, q, &n), DOHHTTP_OK);
	ck_assert_uint_eq(n, sizeof t_query);
	ck_assert_int_eq(t_path("/dns-query", q, &n), DOHHTTP_NOQUERY);
	ck_assert_int_eq(t_path("/dns-query?", q, &n), DOHHTTP_NOQUERY);
	ck_assert_int_eq(t_path("/dns-query?xdns=AAAA", q, &n),
	                 DOHHTTP_NOQUERY);
	ck_assert_int_eq(t_path("/dns-query/", q, &n), DOHHTTP_ENOTFOUND);
	ck_assert_int_eq(t_path("/dns", q, &n), DOHHTTP_ENOTFOUND);
	ck_assert_int_eq(t_path("", q, &n), DOHHTTP_ENOTFOUND);
	ck_assert_int_eq(t_path("/dns-query?dns=", q, &n), DOHHTTP_EBAD);
	ck_assert_int_eq(t_path("/dns-query?dns=AAAA", q, &n), DOHHTTP_EBAD);
	ck_assert_int_eq(t_path("/dns-query?dns=%41AAA", q, &n), DOHHTTP_EBAD);
	ck_assert_int_eq(dohhttp_code(DOHHTTP_ENOTFOUND), 404);
	ck_assert_int_eq(dohhttp_code(DOHHTTP_EBAD), 400);
	ck_assert_int_eq(dohhttp_code(DOHHTTP_ETOOBIG), 413);
	ck_assert_int_eq(dohhttp_code(DOHHTTP_OK), 200);
	/* a dns= larger than the buffer: 413 */
	ck_assert_int_eq(dohhttp_path(p, strlen(p), "/dns-query", q, 8, &n),
	                 DOHHTTP_ETOOBIG);
}
END_TEST

START_TEST(test_ctype)
{
	ck_assert(dohhttp_ctype_ok("application/dns-message", 23));
	ck_assert(dohhttp_ctype_ok("Application/DNS-Message ", 24));
	ck_assert(dohhttp_ctype_ok("application/dns-message; x=1", 28));
	ck_assert(!dohhttp_ctype_ok("application/dns-messages", 24));
	ck_assert(!dohhttp_ctype_ok("application/dns", 15));
	ck_assert(!dohhttp_ctype_ok("text/plain", 10));
	ck_assert(!dohhttp_ctype_ok("", 0));
}
END_TEST

START_TEST(test_max_age)
{
	/* the query, then two A records (TTL 300, 60) and an OPT */
	uint8_t m[T_CAP];
	static const uint8_t rr[] = { 0xc0, 12,   0, 1, 0, 1, 0, 0,
		                      1,    0x2c, 0, 4, 1, 2, 3, 4 };
	static const uint8_t opt[] = { 0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 0 };
	size_t n = sizeof t_query;

	memcpy(m, t_query, n);
	memcpy(m + n, rr, sizeof rr);
	n += sizeof rr;
	memcpy(m + n, rr, sizeof rr);
	m[n + 9] = 60;
	m[n + 8] = 0;
	n += sizeof rr;
	memcpy(m + n, opt, sizeof opt);
	n += sizeof opt;
	m[7] = 2;  /* ANCOUNT */
	m[11] = 1; /* ARCOUNT */
	ck_assert_uint_eq(dohhttp_max_age(m, n), 60);
	m[7] = 1;
	ck_assert_uint_eq(dohhttp_max_age(m, n), 300);
	/* no answers: the authority's (here the second record) */
	m[7] = 0;
	m[9] = 2;
	ck_assert_uint_eq(dohhttp_max_age(m, n), 60);
	/* truncated: 0, never a read past len */
	m[7] = 2;
	m[9] = 0;
	ck_assert_uint_eq(dohhttp_max_age(m, n - sizeof opt - 3), 0);
	ck_assert_uint_eq(dohhttp_max_age(m, 5), 0);
	m[7] = 0;
	ck_assert_uint_eq(dohhttp_max_age(m, sizeof t_query), 0);
}
END_TEST

START_TEST(test_svcb)
{
	/* DoH on 443 with one IPv4 hint: priority 1, target ".", alpn h2,
	 * port 443, ipv4hint 192.0.2.1, dohpath "/dns-query{?dns}" */
	static const uint8_t want[] = {
		0,   1,   0,                           /* prio, "." */
		0,   1,   0,   3,   2,   'h',  '2',    /* alpn */
		0,   3,   0,   2,   1,   0xbb,         /* port */
		0,   4,   0,   4,   192, 0,    2,   1, /* ipv4hint */
		0,   7,   0,   16,  '/', 'd',  'n', 's', '-', 'q',
		'u', 'e', 'r', 'y', '{', '?',  'd', 'n', 's', '}' /* dohpath */
	};
	static const uint8_t want_dot[] = { 0, 2,   0,    0,   1, 0, 4,
		                            3, 'd', 'o',  't', 0, 3, 0,
		                            2, 3,   0x55, 0,   6, 0, 16 };
	struct ddr_endpoint e;
	uint8_t out[T_CAP];
	size_t n;

	memset(&e, 0, sizeof e);
	e.priority = 1;
	e.doh = true;
	e.port = 443;
	e.path = "/dns-query";
	memcpy(e.v4[0], "\xc0\x00\x02\x01", 4);
	e.n4 = 1;
	n = ddr_svcb(&e, out, sizeof out);
	ck_assert_uint_eq(n, sizeof want);
	ck_assert_mem_eq(out, want, n);
	ck_assert_uint_eq(ddr_svcb(&e, out, n - 1), 0); /* never past cap */
	/* DoT on 853 with an IPv6 hint (::1) */
	memset(&e, 0, sizeof e);
	e.priority = 2;
	e.port = 853;
	e.v6[0][15] = 1;
	e.n6 = 1;
	n = ddr_svcb(&e, out, sizeof out);
	ck_assert_uint_eq(n, sizeof want_dot + 16);
	ck_assert_mem_eq(out, want_dot, sizeof want_dot);
	ck_assert_uint_eq(out[n - 1], 1);
	ck_assert(ddr_qname(ddr_owner, ddr_owner_len));
	ck_assert(!ddr_qname(ddr_owner + 5, ddr_owner_len - 5));
}
END_TEST

static int t_parse(struct cfg *c, const char *text, char *err, size_t len)
{
	cfg_defaults(c);
	return cfg_parse("t.conf", text, strlen(text), c, err, len);
}

START_TEST(test_options)
{
	struct cfg *c = malloc(sizeof *c);
	char err[256];

	ck_assert_ptr_nonnull(c);
	cfg_defaults(c);
	ck_assert_uint_eq(c->https_port, 443);
	ck_assert_str_eq(c->http_endpoint, "/dns-query");
	ck_assert_uint_eq(c->http_max_streams, 100);
	ck_assert_int_eq(t_parse(c,
	                         "https-port: 8443\nhttp-endpoint: /q\n"
	                         "http-max-streams: 10\n"
	                         "http-query-buffer-size: 1m\n"
	                         "http-response-buffer-size: 128k\n",
	                         err, sizeof err),
	                 0);
	ck_assert_uint_eq(c->https_port, 8443);
	ck_assert_str_eq(c->http_endpoint, "/q");
	ck_assert_uint_eq(c->http_max_streams, 10);
	ck_assert_uint_eq(c->http_query_buffer_size, 1024 * 1024);
	ck_assert_uint_eq(c->http_response_buffer_size, 128 * 1024);
	ck_assert_int_eq(t_parse(c, "http-endpoint: dns-query\n", err,
	                         sizeof err),
	                 -1);
	ck_assert_ptr_nonnull(strstr(err, "t.conf:1: bad http-endpoint"));
	ck_assert_int_eq(t_parse(c, "http-endpoint: /a?b\n", err, sizeof err),
	                 -1);
	ck_assert_int_eq(t_parse(c, "http-max-streams: 0\n", err, sizeof err),
	                 -1);
	ck_assert_int_eq(t_parse(c, "https-port: 70000\n", err, sizeof err),
	                 -1);
	ck_assert_int_eq(t_parse(c, "http-query-buffer-size: 1k\n", err,
	                         sizeof err),
	                 -1);
	ck_assert_ptr_nonnull(strstr(err, "below 64k"));
	free(c);
}
END_TEST

static Suite *doh_suite(void)
{
	Suite *s = suite_create("doh");
	TCase *t = tcase_create("doh");

	tcase_add_test(t, test_b64url);
	tcase_add_test(t, test_path);
	tcase_add_test(t, test_ctype);
	tcase_add_test(t, test_max_age);
	tcase_add_test(t, test_svcb);
	tcase_add_test(t, test_options);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(doh_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
