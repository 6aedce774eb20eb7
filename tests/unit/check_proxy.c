/*
 * tests/unit/check_proxy.c - Check suite "proxy": the PROXY v2 header
 * parser of resolver/front/proxy.h. Valid INET, INET6 and LOCAL headers, TLVs
 * skipped, every rejection, and no read past len (each valid header is
 * parsed from an exact-size heap copy, so ASan sees any overread); the
 * stream reader of the DoT and DoH ports: a header split over reads, a
 * header and ClientHello in one segment (the reader stops at the header:
 * the ClientHello is left for TLS), garbage and oversized headers.
 */
#include "config.h"
#include <check.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include "front/proxy.h"

#define PKT_MAX 256

static const uint8_t sig[12] = {
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a,
};

/* Build a header: version/command, family/protocol, body; returns length. */
static size_t mk(uint8_t *out, uint8_t vc, uint8_t fp, const uint8_t *body,
                 size_t blen)
{
	memcpy(out, sig, 12);
	out[12] = vc;
	out[13] = fp;
	out[14] = (uint8_t)(blen >> 8);
	out[15] = (uint8_t)blen;
	if (blen > 0)
		memcpy(out + 16, body, blen);
	return 16 + blen;
}

/* Parse from an exact-size heap copy. */
static int parse_exact(const uint8_t *pkt, size_t len, size_t *hl,
                       struct sockaddr_storage *ss)
{
	uint8_t *copy = malloc(len ? len : 1);
	int rc;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, pkt, len);
	rc = proxy_parse(copy, len, hl, ss);
	free(copy);
	return rc;
}

static const uint8_t v4body[12] = {
	192, 0, 2, 7, 127, 53, 9, 53, 0x30, 0x39, 0x00, 0x35,
};

START_TEST(test_inet)
{
	uint8_t pkt[PKT_MAX];
	size_t n = mk(pkt, 0x21, 0x12, v4body, sizeof(v4body)), hl = 0;
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	char txt[INET_ADDRSTRLEN];

	pkt[n] = 0xab; /* DNS payload follows */
	ck_assert_int_eq(parse_exact(pkt, n + 1, &hl, &ss), PROXY_OK);
	ck_assert_uint_eq(hl, 28);
	ck_assert_int_eq(sin->sin_family, AF_INET);
	ck_assert_uint_eq(ntohs(sin->sin_port), 12345);
	inet_ntop(AF_INET, &sin->sin_addr, txt, sizeof(txt));
	ck_assert_str_eq(txt, "192.0.2.7");
	/* Header alone, no payload: still valid. */
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_OK);
	ck_assert_uint_eq(hl, 28);
}
END_TEST

START_TEST(test_inet6)
{
	uint8_t body[36], pkt[PKT_MAX];
	size_t n, hl = 0;
	struct sockaddr_storage ss;
	struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)&ss;
	char txt[INET6_ADDRSTRLEN];

	memset(body, 0, sizeof(body));
	ck_assert_int_eq(inet_pton(AF_INET6, "2001:db8::42", body), 1);
	body[31] = 1;
	body[32] = 0xff;
	body[33] = 0xfe;
	n = mk(pkt, 0x21, 0x22, body, sizeof(body));
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_OK);
	ck_assert_uint_eq(hl, 52);
	ck_assert_int_eq(sin6->sin6_family, AF_INET6);
	ck_assert_uint_eq(ntohs(sin6->sin6_port), 65534);
	inet_ntop(AF_INET6, &sin6->sin6_addr, txt, sizeof(txt));
	ck_assert_str_eq(txt, "2001:db8::42");
}
END_TEST

START_TEST(test_local)
{
	uint8_t pkt[PKT_MAX];
	size_t n = mk(pkt, 0x20, 0x00, NULL, 0), hl = 99;
	struct sockaddr_storage ss;

	ss.ss_family = AF_INET;
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_OK);
	ck_assert_uint_eq(hl, 16);
	ck_assert_int_eq(ss.ss_family, AF_UNSPEC);
	/* LOCAL with an address block and an unknown family: skipped. */
	n = mk(pkt, 0x20, 0x31, v4body, sizeof(v4body));
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_OK);
	ck_assert_uint_eq(hl, 28);
	ck_assert_int_eq(ss.ss_family, AF_UNSPEC);
}
END_TEST

START_TEST(test_tlvs)
{
	uint8_t body[64], pkt[PKT_MAX];
	size_t n, hl = 0, blen = sizeof(v4body);
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;

	memcpy(body, v4body, blen);
	/* PP2_TYPE_AUTHORITY "lab", then a NOOP of 2 bytes. */
	body[blen++] = 0x02;
	body[blen++] = 0;
	body[blen++] = 3;
	memcpy(body + blen, "lab", 3);
	blen += 3;
	body[blen++] = 0x04;
	body[blen++] = 0;
	body[blen++] = 2;
	body[blen++] = 0;
	body[blen++] = 0;
	n = mk(pkt, 0x21, 0x12, body, blen);
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_OK);
	ck_assert_uint_eq(hl, 16 + blen);
	ck_assert_int_eq(sin->sin_family, AF_INET);
	ck_assert_uint_eq(ntohs(sin->sin_port), 12345);
}
END_TEST

START_TEST(test_reject_short)
{
	uint8_t pkt[PKT_MAX];
	size_t n = mk(pkt, 0x21, 0x12, v4body, sizeof(v4body)), hl = 7, k;
	struct sockaddr_storage ss;

	/* Every prefix shorter than the fixed part. */
	for (k = 1; k < 16; k++)
		ck_assert_int_eq(parse_exact(pkt, k, &hl, &ss), PROXY_ESHORT);
	ck_assert_int_eq(parse_exact(pkt, 0, &hl, &ss), PROXY_ESIG);
	/* Every prefix cut inside the address block: length too long. */
	for (k = 16; k < n; k++)
		ck_assert_int_eq(parse_exact(pkt, k, &hl, &ss), PROXY_ELENGTH);
	ck_assert_uint_eq(hl, 7);
}
END_TEST

START_TEST(test_reject_sig)
{
	uint8_t pkt[PKT_MAX];
	size_t n = mk(pkt, 0x21, 0x12, v4body, sizeof(v4body)), hl, i;
	struct sockaddr_storage ss;

	for (i = 0; i < 12; i++) {
		pkt[i] ^= 0x20;
		ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_ESIG);
		pkt[i] ^= 0x20;
	}
	/* A plain DNS query is not a header. */
	memcpy(pkt,
	       "\x12\x34\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00"
	       "\x00\x00\x01\x00\x01",
	       17);
	ck_assert_int_eq(parse_exact(pkt, 17, &hl, &ss), PROXY_ESIG);
	ck_assert(!proxy_has_signature(pkt, 17));
	ck_assert(proxy_has_signature(sig, 5));
	ck_assert(proxy_has_signature(sig, 12));
}
END_TEST

START_TEST(test_reject_fields)
{
	uint8_t pkt[PKT_MAX], shortv6[20];
	size_t n, hl;
	struct sockaddr_storage ss;

	n = mk(pkt, 0x11, 0x12, v4body, sizeof(v4body));
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_EVERSION);
	n = mk(pkt, 0x31, 0x12, v4body, sizeof(v4body));
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_EVERSION);
	n = mk(pkt, 0x22, 0x12, v4body, sizeof(v4body));
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_ECOMMAND);
	n = mk(pkt, 0x21, 0x00, v4body, sizeof(v4body)); /* UNSPEC */
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_EFAMILY);
	n = mk(pkt, 0x21, 0x31, v4body, sizeof(v4body)); /* UNIX */
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_EFAMILY);
	/* Announced length beyond the packet. */
	n = mk(pkt, 0x21, 0x12, v4body, sizeof(v4body));
	pkt[15] = 13;
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_ELENGTH);
	pkt[14] = 0xff;
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_ELENGTH);
	/* Length within the packet but shorter than the address block. */
	n = mk(pkt, 0x21, 0x12, v4body, 11);
	ck_assert_int_eq(parse_exact(pkt, n + 1, &hl, &ss), PROXY_EADDR);
	memset(shortv6, 0, sizeof(shortv6));
	n = mk(pkt, 0x21, 0x22, shortv6, sizeof(shortv6));
	ck_assert_int_eq(parse_exact(pkt, n, &hl, &ss), PROXY_EADDR);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The stream reader of the DoT and DoH ports (proxy_stream_want)      */

/** Bytes of a stream in the tests: a header, a ClientHello's start. */
#define STREAM_MAX 2048

/* The start of a TLS ClientHello record (handshake, TLS 1.0 record). */
static const uint8_t hello[] = {
	0x16, 0x03, 0x01, 0x00, 0x2a, 0x01, 0x00, 0x00, 0x26, 0x03, 0x03,
};

/* Read a stream as the server does: the socket has the bytes that
 * arrived in pieces of arrive[] (then no more); each read takes at most
 * what the reader wants. The bytes taken are copied to buf, *have of
 * them; *reads counts the reads. @return the reader's last status. */
static int stream_read(const uint8_t *s, const size_t *arrive, size_t n,
                       uint8_t *buf, size_t *have, unsigned *reads)
{
	size_t want = 0, avail = 0, i = 0, k;
	int rc;

	*have = 0;
	*reads = 0;
	for (;;) {
		rc = proxy_stream_want(buf, *have, &want);
		if (rc != PROXY_ESHORT)
			return rc;
		ck_assert_uint_gt(want, 0);
		if (avail == *have) { /* the socket is empty: wait */
			if (i == n)
				return rc;
			avail += arrive[i++];
		}
		k = avail - *have < want ? avail - *have : want;
		memcpy(buf + *have, s + *have, k);
		*have += k;
		(*reads)++;
	}
}

/* A header with a TLV (an INET client), then a ClientHello: length. */
static size_t mk_stream(uint8_t *out, size_t *hlen)
{
	uint8_t body[32];

	memcpy(body, v4body, sizeof v4body);
	body[12] = 0xe0; /* a TLV the reader only counts */
	body[13] = 0;
	body[14] = 3;
	memcpy(body + 15, "abc", 3);
	*hlen = mk(out, 0x21, 0x11, body, 18);
	memcpy(out + *hlen, hello, sizeof hello);
	return *hlen + sizeof hello;
}

START_TEST(test_stream_split)
{
	uint8_t s[STREAM_MAX], buf[STREAM_MAX];
	size_t hlen, n = mk_stream(s, &hlen), have, hl = 0;
	size_t arrive[] = { 1, 5, 13, 3, 30 }; /* then the rest */
	struct sockaddr_storage ss;
	struct sockaddr_in *sin = (struct sockaddr_in *)&ss;
	unsigned reads;

	arrive[4] = n - 22;
	ck_assert_int_eq(stream_read(s, arrive, 5, buf, &have, &reads),
	                 PROXY_OK);
	ck_assert_uint_eq(have, hlen);
	ck_assert_uint_eq(reads, 6); /* 1, 5, 10 (the fixed part), 3, 3, 12 */
	ck_assert_int_eq(proxy_parse(buf, have, &hl, &ss), PROXY_OK);
	ck_assert_uint_eq(hl, hlen);
	ck_assert_uint_eq(ntohs(sin->sin_port), 12345);
	/* one byte at a time: never a byte past the header */
	{
		size_t ones[STREAM_MAX], i;

		for (i = 0; i < n; i++)
			ones[i] = 1;
		ck_assert_int_eq(stream_read(s, ones, n, buf, &have, &reads),
		                 PROXY_OK);
		ck_assert_uint_eq(have, hlen);
		ck_assert_uint_eq(reads, hlen);
	}
	/* the stream ends inside the header: more is still wanted */
	arrive[0] = 20;
	ck_assert_int_eq(stream_read(s, arrive, 1, buf, &have, &reads),
	                 PROXY_ESHORT);
	ck_assert_uint_eq(have, 20);
	ck_assert_int_ne(proxy_parse(buf, have, &hl, &ss), PROXY_OK);
}
END_TEST

START_TEST(test_stream_with_hello)
{
	uint8_t s[STREAM_MAX], buf[STREAM_MAX];
	size_t hlen, n = mk_stream(s, &hlen), have, want = 9;
	size_t arrive[1];
	unsigned reads;

	arrive[0] = n; /* header and ClientHello in one segment */
	ck_assert_int_eq(stream_read(s, arrive, 1, buf, &have, &reads),
	                 PROXY_OK);
	ck_assert_uint_eq(reads, 2); /* the fixed part, then the rest */
	ck_assert_uint_eq(have, hlen);
	/* what the reader left is the ClientHello, whole, for TLS */
	ck_assert_uint_eq(n - have, sizeof hello);
	ck_assert_mem_eq(s + have, hello, sizeof hello);
	/* given more than the header, it still ends at the header */
	ck_assert_int_eq(proxy_stream_want(s, n, &want), PROXY_OK);
	ck_assert_uint_eq(want, 0);
}
END_TEST

START_TEST(test_stream_reject)
{
	uint8_t s[STREAM_MAX], buf[STREAM_MAX];
	size_t hlen, n = mk_stream(s, &hlen), have, want = 9, arrive[1];
	unsigned reads;

	/* nothing yet: the fixed part is wanted */
	ck_assert_int_eq(proxy_stream_want(s, 0, &want), PROXY_ESHORT);
	ck_assert_uint_eq(want, PROXY_FIXED_LEN);
	/* a ClientHello with no header: refused at its first byte */
	ck_assert_int_eq(proxy_stream_want(hello, 1, &want), PROXY_ESIG);
	ck_assert_uint_eq(want, 0);
	arrive[0] = sizeof hello;
	ck_assert_int_eq(stream_read(hello, arrive, 1, buf, &have, &reads),
	                 PROXY_ESIG);
	/* garbage inside the signature */
	s[5] ^= 0x40;
	ck_assert_int_eq(proxy_stream_want(s, 5, &want), PROXY_ESHORT);
	ck_assert_int_eq(proxy_stream_want(s, 6, &want), PROXY_ESIG);
	s[5] ^= 0x40;
	/* version 1, an unknown command */
	s[12] = 0x11;
	ck_assert_int_eq(proxy_stream_want(s, n, &want), PROXY_EVERSION);
	s[12] = 0x23;
	ck_assert_int_eq(proxy_stream_want(s, n, &want), PROXY_ECOMMAND);
	s[12] = 0x21;
	/* oversized: refused after the fixed part, nothing more read */
	s[14] = (uint8_t)((PROXY_STREAM_MAX - PROXY_FIXED_LEN + 1) >> 8);
	s[15] = (uint8_t)(PROXY_STREAM_MAX - PROXY_FIXED_LEN + 1);
	arrive[0] = n;
	ck_assert_int_eq(stream_read(s, arrive, 1, buf, &have, &reads),
	                 PROXY_ETOOBIG);
	ck_assert_uint_eq(have, PROXY_FIXED_LEN);
	ck_assert_int_eq(proxy_stream_want(s, PROXY_FIXED_LEN, &want),
	                 PROXY_ETOOBIG);
	ck_assert_uint_eq(want, 0);
	s[14] = 0xff;
	s[15] = 0xff;
	ck_assert_int_eq(proxy_stream_want(s, PROXY_FIXED_LEN, &want),
	                 PROXY_ETOOBIG);
	/* the largest allowed is waited for */
	s[14] = (uint8_t)((PROXY_STREAM_MAX - PROXY_FIXED_LEN) >> 8);
	s[15] = (uint8_t)(PROXY_STREAM_MAX - PROXY_FIXED_LEN);
	ck_assert_int_eq(proxy_stream_want(s, PROXY_FIXED_LEN, &want),
	                 PROXY_ESHORT);
	ck_assert_uint_eq(want, PROXY_STREAM_MAX - PROXY_FIXED_LEN);
}
END_TEST

START_TEST(test_strerror)
{
	int s;

	for (s = PROXY_OK; s <= PROXY_ETOOBIG; s++)
		ck_assert_str_ne(proxy_strerror(s), "unknown proxy status");
	ck_assert_str_eq(proxy_strerror(999), "unknown proxy status");
}
END_TEST

static Suite *proxy_suite(void)
{
	Suite *s = suite_create("proxy");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_inet);
	tcase_add_test(tc, test_inet6);
	tcase_add_test(tc, test_local);
	tcase_add_test(tc, test_tlvs);
	tcase_add_test(tc, test_reject_short);
	tcase_add_test(tc, test_reject_sig);
	tcase_add_test(tc, test_reject_fields);
	tcase_add_test(tc, test_strerror);
	tcase_add_test(tc, test_stream_split);
	tcase_add_test(tc, test_stream_with_hello);
	tcase_add_test(tc, test_stream_reject);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(proxy_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
