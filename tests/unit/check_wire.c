/*
 * tests/unit/check_wire.c - Check suite "wire": the DNS codec of
 * resolver/wire/wire.h and the presentation renderer of
 * resolver/wire/rrtext.h.
 *
 * Real packets (the inner responses of tests/vectors/dnscurve.vec,
 * captured from NSD behind CurveDNS), hand-made hostile packets for every
 * rejection path, the writer against the same vectors, and rrtext output
 * compared with what dig 9.18 prints for the same records.
 */
#include "config.h"
#include <check.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "wire/wire.h"
#include "wire/rrtext.h"

#define BUF 4096

/* The inner response of tests/vectors/dnscurve.vec, 137 bytes. */
static const char vec_inner137[] =
	"1234840000010001000100010377777705637572766504746573740000010001"
	"c00c0001000100000e100004c000020ac0100002000100000e10003d36757a35"
	"6a776337703033396e766e627364317936776b717a7170356d7274377073756a"
	"303234353338786d71643238307a30796e6832036e7331c010c03c0001000100"
	"000e1000047f005a02";
/* Section 4: inner query (32 bytes) and inner response (48 bytes). */
static const char vec_query32[] =
	"1234000000010000000000000377777705637572766504746573740000010001";
static const char vec_resp48[] =
	"1234840000010001000000000377777705637572766504746573740000010001"
	"c00c0001000100000e100004c000020a";

/* Section 5: TXT-format response as CurveDNS lays it out (270 bytes). */
static const char vec_txt270[] =
	"abcd84000001000100000000323030303030303030303030326a6a6271333670"
	"37766c7168676c766c34763738353379387a35743934397336677a77686d342e"
	"6a776d6d76677074733866756238366d3977747a3438703463376c353833716c"
	"763832317467377a62367877366736783161643478633963786e393931343974"
	"6e7731766a7033756a3463353939663534367964736d39756264713566673373"
	"736731377905637572766504746573740000100001c00c001000010000000000"
	"4d4c0102030405060708090a0b0caffaf2da828c092c66627970fd87716d43b5"
	"ef80184005e1001cc977a152e67901e6721926fea2fdd12314179cb66d1030cb"
	"df8c7fdb7cfd11cedbd9086a2eb5";

static size_t unhex(uint8_t *out, size_t cap, const char *hex)
{
	size_t n = 0;
	unsigned v;

	while (hex[0] != '\0' && hex[1] != '\0') {
		ck_assert_uint_lt(n, cap);
		ck_assert_int_eq(sscanf(hex, "%2x", &v), 1);
		out[n++] = (uint8_t)v;
		hex += 2;
	}
	return n;
}

/* Text name -> wire, asserting success. */
static size_t wname(uint8_t out[WIRE_NAME_MAX], const char *text)
{
	size_t n = 0;

	ck_assert_int_eq(wire_name_from_text(text, strlen(text), out, &n),
	                 WIRE_OK);
	return n;
}

/* Read the name at pos and return it as text (static buffer). */
static const char *name_at(const uint8_t *msg, size_t len, size_t pos)
{
	static char text[WIRE_NAME_TEXT_MAX];
	uint8_t name[WIRE_NAME_MAX];
	size_t n;

	ck_assert_int_eq(wire_read_name(msg, len, &pos, name, &n, 0), WIRE_OK);
	ck_assert_int_eq(wire_name_to_text(name, n, text, sizeof(text), NULL),
	                 WIRE_OK);
	return text;
}

/*
 * Build a response with a question for owner and one answer record of
 * type whose RDATA follows spec: 'n' a name (const char *, compressed),
 * 'h' a 16-bit and 'w' a 32-bit value (unsigned), 'r' raw bytes
 * (const uint8_t *, size_t).
 */
static size_t mkmsg(uint8_t *buf, const char *owner, uint16_t type,
                    const char *spec, ...)
{
	struct wire_writer w;
	struct wire_header h = { 0x1234, WIRE_FLAG_QR | WIRE_FLAG_AA, 0, 0, 0,
		                 0 };
	uint8_t on[WIRE_NAME_MAX], n[WIRE_NAME_MAX];
	size_t olen = wname(on, owner), pos, rl;
	const uint8_t *raw;
	va_list ap;

	wire_writer_init(&w, buf, BUF);
	ck_assert_int_eq(wire_write_header(&w, &h), WIRE_OK);
	ck_assert_int_eq(wire_write_question(&w, on, olen, type, 1), WIRE_OK);
	ck_assert_int_eq(wire_write_rr_begin(&w, WIRE_SECTION_ANSWER, on, olen,
	                                     type, WIRE_CLASS_IN, 3600, &pos),
	                 WIRE_OK);
	va_start(ap, spec);
	for (; *spec != '\0'; spec++) {
		int rc;

		if (*spec == 'n') {
			rl = wname(n, va_arg(ap, const char *));
			rc = wire_write_name(&w, n, rl, 1);
		} else if (*spec == 'h') {
			rc = wire_write_u16(&w,
			                    (uint16_t)va_arg(ap, unsigned));
		} else if (*spec == 'w') {
			rc = wire_write_u32(&w, va_arg(ap, unsigned));
		} else {
			raw = va_arg(ap, const uint8_t *);
			rl = va_arg(ap, size_t);
			rc = wire_write_bytes(&w, raw, rl);
		}
		ck_assert_int_eq(rc, WIRE_OK);
	}
	va_end(ap);
	ck_assert_int_eq(wire_write_rr_end(&w, pos), WIRE_OK);
	return w.len;
}

/* Parse msg and render its first answer record as a dig line. */
static const char *render_first(const uint8_t *msg, size_t len)
{
	static char line[8192];
	struct wire_rr rr[8];
	struct wire_msg m;

	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 8), WIRE_OK);
	ck_assert_uint_ge(m.an, 1);
	ck_assert_int_eq(rrtext_rr(line, sizeof(line), NULL, msg, len, &rr[0]),
	                 WIRE_OK);
	return line;
}

/* ------------------------------------------------------------------ */
/* vectors                                                             */

START_TEST(test_parse_inner137)
{
	uint8_t msg[BUF];
	size_t len = unhex(msg, sizeof(msg), vec_inner137);
	struct wire_rr rr[8];
	struct wire_msg m;
	char text[WIRE_NAME_TEXT_MAX];
	size_t pos;

	ck_assert_uint_eq(len, 137);
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 8), WIRE_OK);
	ck_assert_uint_eq(m.hdr.id, 0x1234);
	ck_assert_uint_eq(m.hdr.flags, 0x8400);
	ck_assert_uint_eq(m.an + m.ns + m.ar, 3);
	ck_assert_int_eq(m.has_question, 1);
	ck_assert_int_eq(wire_name_to_text(m.q.name, m.q.namelen, text,
	                                   sizeof(text), NULL),
	                 WIRE_OK);
	ck_assert_str_eq(text, "www.curve.test.");
	ck_assert_uint_eq(m.q.qtype, WIRE_TYPE_A);
	ck_assert_uint_eq(m.opt, WIRE_NONE);
	ck_assert_uint_eq(m.end, len);
	ck_assert_uint_eq(rr[0].section, WIRE_SECTION_ANSWER);
	ck_assert_uint_eq(rr[0].ttl, 3600);
	ck_assert_uint_eq(rr[0].rdlen, 4);
	ck_assert_uint_eq(rr[1].section, WIRE_SECTION_AUTHORITY);
	ck_assert_uint_eq(rr[1].type, WIRE_TYPE_NS);
	ck_assert_uint_eq(rr[2].section, WIRE_SECTION_ADDITIONAL);
	pos = rr[1].rdata;
	ck_assert_str_eq(name_at(msg, len, pos), "uz5jwc7p039nvnbsd1y6wkqzqp5m"
	                                         "rt7psuj024538xmqd280z0ynh2"
	                                         ".ns1.curve.test.");
	ck_assert_str_eq(name_at(msg, len, rr[2].owner),
	                 "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0yn"
	                 "h2"
	                 ".ns1.curve.test.");
	ck_assert_int_eq(wire_msg_match(&m, 0x1234, m.q.name, m.q.namelen,
	                                WIRE_TYPE_A, WIRE_CLASS_IN,
	                                WIRE_MATCH_CASE),
	                 WIRE_OK);
	ck_assert_uint_eq(wire_msg_rcode(&m), 0);
}
END_TEST

START_TEST(test_rrtext_inner137)
{
	uint8_t msg[BUF];
	size_t len = unhex(msg, sizeof(msg), vec_inner137);
	struct wire_rr rr[8];
	struct wire_msg m;
	char line[1024];

	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 8), WIRE_OK);
	ck_assert_int_eq(rrtext_question(line, sizeof(line), NULL, &m.q),
	                 WIRE_OK);
	ck_assert_str_eq(line, ";www.curve.test.\t\t\tIN\tA");
	ck_assert_int_eq(rrtext_rr(line, sizeof(line), NULL, msg, len, &rr[0]),
	                 WIRE_OK);
	ck_assert_str_eq(line, "www.curve.test.\t\t3600\tIN\tA\t192.0.2.10");
	ck_assert_int_eq(rrtext_rr(line, sizeof(line), NULL, msg, len, &rr[1]),
	                 WIRE_OK);
	ck_assert_str_eq(line,
	                 "curve.test.\t\t3600\tIN\tNS\tuz5jwc7p039nvnbsd1"
	                 "y6wkqzqp5mrt7psuj024538xmqd280z0ynh2.ns1.curve."
	                 "test.");
	ck_assert_int_eq(rrtext_rr(line, sizeof(line), NULL, msg, len, &rr[2]),
	                 WIRE_OK);
	ck_assert_str_eq(line,
	                 "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd"
	                 "280z0ynh2.ns1.curve.test. 3600 IN A 127.0.90.2");
}
END_TEST

START_TEST(test_parse_txt270)
{
	uint8_t msg[BUF];
	size_t len = unhex(msg, sizeof(msg), vec_txt270);
	struct wire_rr rr[2];
	struct wire_msg m;
	char out[1024];

	ck_assert_uint_eq(len, 270);
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 2), WIRE_OK);
	ck_assert_uint_eq(m.q.namelen, 165);
	ck_assert_uint_eq(m.q.qtype, WIRE_TYPE_TXT);
	ck_assert_uint_eq(m.an, 1);
	ck_assert_uint_eq(rr[0].ttl, 0);
	ck_assert_uint_eq(rr[0].rdlen, 77);
	ck_assert_int_eq(rrtext_rdata(out, sizeof(out), NULL, msg, len,
	                              &rr[0]),
	                 WIRE_OK);
	/* One string: server nonce 01..0c escaped, then the box. */
	ck_assert_int_eq(strncmp(out, "\"\\001\\002\\003", 13), 0);
	ck_assert_uint_eq(out[strlen(out) - 1], '"');
	ck_assert_str_eq(name_at(msg, len, rr[0].owner) + 98,
	                 "x1ad4xc9cxn99149tnw1vjp3uj4c599f546ydsm9ubdq5fg3ssg"
	                 "17y.curve.test.");
}
END_TEST

START_TEST(test_write_vectors)
{
	uint8_t want[BUF], out[BUF], name[WIRE_NAME_MAX];
	static const uint8_t a[4] = { 192, 0, 2, 10 };
	struct wire_query q = { 0x1234, WIRE_TYPE_A, WIRE_CLASS_IN, 0, 0, 0 };
	struct wire_header h = { 0x1234, 0x8400, 0, 0, 0, 0 };
	struct wire_writer w;
	size_t wl, ol, nl = wname(name, "www.curve.test");

	/* The query builder reproduces the vectors' inner_query. */
	wl = unhex(want, sizeof(want), vec_query32);
	ck_assert_int_eq(wire_query_build_text(out, sizeof(out), &ol,
	                                       "www.curve.test.", &q),
	                 WIRE_OK);
	ck_assert_uint_eq(ol, wl);
	ck_assert_mem_eq(out, want, wl);
	/* The writer reproduces dnspython's response, pointer c00c included.
	 */
	wl = unhex(want, sizeof(want), vec_resp48);
	wire_writer_init(&w, out, sizeof(out));
	ck_assert_int_eq(wire_write_header(&w, &h), WIRE_OK);
	ck_assert_int_eq(wire_write_question(&w, name, nl, 1, 1), WIRE_OK);
	ck_assert_int_eq(wire_write_rr(&w, WIRE_SECTION_ANSWER, name, nl, 1, 1,
	                               3600, a, 4),
	                 WIRE_OK);
	ck_assert_uint_eq(w.len, wl);
	ck_assert_mem_eq(out, want, wl);
}
END_TEST

START_TEST(test_query_edns)
{
	static const uint8_t opt[] = { 0, 0,    41, 0x04, 0xd0, 0,
		                       0, 0x80, 0,  0,    0 };
	struct wire_query q = {
		7, WIRE_TYPE_TXT, WIRE_CLASS_IN, WIRE_FLAG_RD, 1232, 1
	};
	uint8_t out[BUF];
	struct wire_rr rr[2];
	struct wire_msg m;
	size_t len;

	ck_assert_int_eq(wire_query_build_text(out, sizeof(out), &len, "a.b",
	                                       &q),
	                 WIRE_OK);
	ck_assert_uint_eq(len, 12 + 5 + 4 + 11);
	ck_assert_mem_eq(out + len - 11, opt, 11);
	ck_assert_int_eq(wire_msg_parse(&m, out, len, rr, 2), WIRE_OK);
	ck_assert_uint_eq(m.hdr.flags, WIRE_FLAG_RD);
	ck_assert_uint_eq(m.hdr.arcount, 1);
	ck_assert_uint_eq(m.opt, 0);
	ck_assert_uint_eq(rr[0].rclass, 1232);
	ck_assert_uint_eq(rr[0].ttl & WIRE_EDNS_DO, WIRE_EDNS_DO);
	ck_assert_int_eq(wire_msg_match(&m, 7, m.q.name, m.q.namelen, 16, 1,
	                                0),
	                 WIRE_ENOTRESP);
}
END_TEST

/* wire_query_build writes a query at once: the same bytes as the writer
 * (header, question, wire_write_opt) for each EDNS setting and size,
 * and the writer's status when it does not fit or the name is bad. */
START_TEST(test_query_direct_as_writer)
{
	static const uint16_t sizes[] = { 0, 100, 512, 1232, 4096 };
	uint8_t name[WIRE_NAME_MAX], out[BUF], ref[BUF];
	size_t nl = wname(name, "Www.Example.COM"), len, i, cap;
	struct wire_writer w;
	struct wire_header h;
	int d;

	for (i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
		for (d = 0; d <= (sizes[i] != 0); d++) {
			struct wire_query q = { 0xbeef,        WIRE_TYPE_AAAA,
				                WIRE_CLASS_IN, WIRE_FLAG_RD,
				                sizes[i],      d };

			memset(&h, 0, sizeof h);
			h.id = q.id;
			h.flags = q.flags;
			wire_writer_init(&w, ref, sizeof ref);
			ck_assert_int_eq(wire_write_header(&w, &h), WIRE_OK);
			ck_assert_int_eq(wire_write_question(&w, name, nl,
			                                     q.qtype,
			                                     q.qclass),
			                 WIRE_OK);
			if (sizes[i] != 0)
				ck_assert_int_eq(wire_write_opt(&w, sizes[i],
				                                0, d),
				                 WIRE_OK);
			ck_assert_int_eq(wire_query_build(out, sizeof out,
			                                  &len, name, nl, &q),
			                 WIRE_OK);
			ck_assert_uint_eq(len, w.len);
			ck_assert_mem_eq(out, ref, len);
			for (cap = 0; cap < len; cap++)
				ck_assert_int_eq(wire_query_build(out, cap,
				                                  &len, name,
				                                  nl, &q),
				                 WIRE_ESPACE);
			len = w.len;
		}
	}
	name[0] = 64; /* a label too long */
	{
		struct wire_query q = {
			1, WIRE_TYPE_A, WIRE_CLASS_IN, 0, 0, 0
		};

		ck_assert_int_ne(wire_query_build(out, sizeof out, &len, name,
		                                  nl, &q),
		                 WIRE_OK);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* reject                                                              */

START_TEST(test_truncated_every_length)
{
	uint8_t msg[BUF];
	size_t len = unhex(msg, sizeof(msg), vec_inner137), cut;
	struct wire_rr rr[8];
	struct wire_msg m;
	int rc;

	for (cut = 0; cut < len; cut++) {
		rc = wire_msg_parse(&m, msg, cut, rr, 8);
		ck_assert_msg(rc == WIRE_ESHORT || rc == WIRE_ECOUNT,
		              "cut %zu: %s", cut, wire_strerror(rc));
	}
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 8), WIRE_OK);
}
END_TEST

/* A message: header (QD=1) then the given question name bytes. */
static size_t qmsg(uint8_t *buf, const uint8_t *name, size_t n)
{
	static const uint8_t hdr[12] = {
		0, 1, 0x80, 0, 0, 1, 0, 0, 0, 0, 0, 0
	};

	memcpy(buf, hdr, 12);
	memcpy(buf + 12, name, n);
	buf[12 + n] = 0;
	buf[13 + n] = 1;
	buf[14 + n] = 0;
	buf[15 + n] = 1;
	return 16 + n;
}

static int parse_name_at12(const uint8_t *name, size_t n)
{
	uint8_t buf[BUF], out[WIRE_NAME_MAX];
	size_t len = qmsg(buf, name, n), pos = 12, ol = 99;
	int rc = wire_read_name(buf, len, &pos, out, &ol, 0);

	if (rc != WIRE_OK) {
		ck_assert_uint_eq(pos, 12); /* untouched on failure */
		ck_assert_uint_eq(ol, 99);
	}
	return rc;
}

START_TEST(test_pointers)
{
	static const uint8_t self[] = { 0xc0, 0x0c };
	static const uint8_t fwd[] = { 0xc0, 0x0e, 0x01, 'a', 0x00 };
	static const uint8_t beyond[] = { 0xff, 0xff };
	static const uint8_t into_run[] = { 0x01, 'a', 0xc0, 0x0c };
	static const uint8_t mid_run[] = { 0x01, 'a', 0x01, 'b', 0xc0, 0x0e };
	static const uint8_t cut_ptr[] = { 0x01, 'a', 0xc0 };

	ck_assert_int_eq(parse_name_at12(self, sizeof(self)), WIRE_EPTR);
	ck_assert_int_eq(parse_name_at12(fwd, sizeof(fwd)), WIRE_EPTR);
	ck_assert_int_eq(parse_name_at12(beyond, sizeof(beyond)), WIRE_EPTR);
	ck_assert_int_eq(parse_name_at12(into_run, sizeof(into_run)),
	                 WIRE_ELOOP);
	ck_assert_int_eq(parse_name_at12(mid_run, sizeof(mid_run)),
	                 WIRE_ELOOP);
	/* A pointer cut by the end of the buffer. */
	{
		uint8_t b[32];
		size_t pos = 0;

		memcpy(b, cut_ptr, sizeof(cut_ptr));
		ck_assert_int_eq(wire_read_name(b, sizeof(cut_ptr), &pos, NULL,
		                                NULL, 0),
		                 WIRE_ESHORT);
	}
}
END_TEST

/* A chain of n pointers, each to the one before, ending at a root label. */
static int pointer_chain(size_t n)
{
	uint8_t buf[BUF], out[WIRE_NAME_MAX];
	size_t i, len = 12, pos, ol;

	memset(buf, 0, 12);
	buf[len++] = 0; /* root label at 12 */
	for (i = 0; i < n; i++) {
		size_t target = (i == 0) ? 12 : len - 2;

		buf[len++] = (uint8_t)(0xc0 | (target >> 8));
		buf[len++] = (uint8_t)target;
	}
	pos = len - 2;
	return wire_read_name(buf, len, &pos, out, &ol, 0);
}

START_TEST(test_pointer_step_cap)
{
	ck_assert_int_eq(pointer_chain(1), WIRE_OK);
	ck_assert_int_eq(pointer_chain(WIRE_PTR_STEPS_MAX), WIRE_OK);
	ck_assert_int_eq(pointer_chain(WIRE_PTR_STEPS_MAX + 1), WIRE_ELOOP);
}
END_TEST

START_TEST(test_labels_and_length)
{
	uint8_t n[600];
	size_t i, len;

	n[0] = 64; /* label of 64 */
	memset(n + 1, 'a', 64);
	n[65] = 0;
	ck_assert_int_eq(parse_name_at12(n, 66), WIRE_ELABEL);
	n[0] = 0x40; /* extended label type */
	ck_assert_int_eq(parse_name_at12(n, 2), WIRE_ELABEL);
	n[0] = 0x80; /* reserved label type */
	ck_assert_int_eq(parse_name_at12(n, 2), WIRE_ELABEL);
	/* 63+63+63+61: exactly 255 bytes; one more byte is too long. */
	for (len = 0, i = 0; i < 4; i++) {
		size_t l = (i == 3) ? 61 : 63;

		n[len] = (uint8_t)l;
		memset(n + len + 1, 'x', l);
		len += 1 + l;
	}
	n[len++] = 0;
	ck_assert_uint_eq(len, 255);
	ck_assert_int_eq(parse_name_at12(n, len), WIRE_OK);
	ck_assert_int_eq(wire_name_check(n, len), WIRE_OK);
	n[192] = 62; /* 63+63+63+62: 256 bytes */
	n[193 + 61] = 'x';
	n[193 + 62] = 0;
	ck_assert_int_eq(parse_name_at12(n, 256), WIRE_ENAME);
	ck_assert_int_eq(wire_name_check(n, 256), WIRE_ENAME);
}
END_TEST

START_TEST(test_long_name_via_pointers)
{
	/* 200 bytes of labels at 12, then a name of 3 x 20-byte labels that
	 * points to it: 60 + 200 > 255. */
	uint8_t buf[BUF];
	size_t len = 12, start, pos, i;

	memset(buf, 0, 12);
	for (i = 0; i < 4; i++) {
		buf[len] = 49;
		memset(buf + len + 1, 'a', 49);
		len += 50;
	}
	buf[len++] = 0; /* 201-byte name */
	start = len;
	for (i = 0; i < 3; i++) {
		buf[len] = 19;
		memset(buf + len + 1, 'b', 19);
		len += 20;
	}
	buf[len++] = 0xc0;
	buf[len++] = 12;
	pos = start;
	ck_assert_int_eq(wire_read_name(buf, len, &pos, NULL, NULL, 0),
	                 WIRE_ENAME);
	buf[start] = 0; /* root: fine */
	pos = start;
	ck_assert_int_eq(wire_read_name(buf, len, &pos, NULL, NULL, 0),
	                 WIRE_OK);
}
END_TEST

START_TEST(test_counts)
{
	uint8_t msg[BUF];
	size_t len = unhex(msg, sizeof(msg), vec_inner137);
	struct wire_rr rr[8];
	struct wire_msg m;

	msg[7] = 100; /* ANCOUNT 100 */
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 8), WIRE_ECOUNT);
	ck_assert_int_eq(wire_msg_parse(&m, msg, BUF, rr, 8), WIRE_ECOUNT);
	msg[7] = 1;
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 2), WIRE_ECOUNT);
	msg[6] = 0xff; /* ANCOUNT 65281 */
	ck_assert_int_eq(wire_msg_parse(&m, msg, BUF, rr, 8), WIRE_ECOUNT);
	msg[6] = 0;
	msg[11] = 2; /* ARCOUNT 2: fits the minimum, not data */
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 8), WIRE_ESHORT);
	msg[11] = 1;
	msg[5] = 2; /* QDCOUNT 2 */
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 8), WIRE_EQDCOUNT);
	msg[5] = 0; /* QDCOUNT 0: the question bytes become garbage */
	ck_assert_int_ne(wire_msg_parse(&m, msg, len, rr, 8), WIRE_OK);
}
END_TEST

START_TEST(test_rdlen_overrun)
{
	uint8_t msg[BUF];
	size_t len = unhex(msg, sizeof(msg), vec_resp48);
	struct wire_rr rr[2];
	struct wire_msg m;

	msg[len - 5] = 5; /* RDLENGTH 5, 4 left */
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 2), WIRE_ESHORT);
	msg[len - 5] = 3; /* 1 trailing byte */
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 2), WIRE_OK);
	ck_assert_uint_eq(m.end, len - 1);
}
END_TEST

/* Append an OPT record (owner given) to the 48-byte response. */
static size_t with_opt(uint8_t *msg, int count_in_answer, uint8_t owner)
{
	static const uint8_t opt[] = { 0, 0, 41, 4, 0xd0, 0, 0, 0, 0, 0, 0 };
	size_t len = unhex(msg, BUF, vec_resp48);

	memcpy(msg + len, opt, sizeof(opt));
	if (owner != 0) { /* owner "a." instead of the root */
		memmove(msg + len + 2, msg + len, sizeof(opt));
		msg[len] = 1;
		msg[len + 1] = owner;
		len += 2;
	}
	len += sizeof(opt);
	if (count_in_answer)
		msg[7] = 2;
	else
		msg[11] = 1;
	return len;
}

START_TEST(test_opt_rules)
{
	uint8_t msg[BUF];
	struct wire_rr rr[4];
	struct wire_msg m;
	size_t len;

	len = with_opt(msg, 0, 0);
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 4), WIRE_OK);
	ck_assert_uint_eq(m.opt, 1);
	msg[3] = 0x03; /* RCODE 3 + extended 1 -> 19 */
	msg[len - 6] = 1;
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 4), WIRE_OK);
	ck_assert_uint_eq(wire_msg_rcode(&m), 19);
	len = with_opt(msg, 1, 0); /* OPT in the answer section */
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 4), WIRE_EOPT);
	len = with_opt(msg, 0, 'a'); /* OPT not owned by the root */
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 4), WIRE_EOPT);
	len = with_opt(msg, 0, 0); /* two OPT records */
	memcpy(msg + len, msg + len - 11, 11);
	msg[11] = 2;
	ck_assert_int_eq(wire_msg_parse(&m, msg, len + 11, rr, 4), WIRE_EOPT);
}
END_TEST

START_TEST(test_match)
{
	uint8_t msg[BUF], n[WIRE_NAME_MAX];
	size_t len = unhex(msg, sizeof(msg), vec_resp48);
	size_t nl = wname(n, "WWW.curve.test");
	struct wire_rr rr[2];
	struct wire_msg m;

	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 2), WIRE_OK);
	ck_assert_int_eq(wire_msg_match(&m, 0x1234, n, nl, 1, 1, 0), WIRE_OK);
	ck_assert_int_eq(wire_msg_match(&m, 0x1234, n, nl, 1, 1,
	                                WIRE_MATCH_CASE),
	                 WIRE_ECASE);
	ck_assert_int_eq(wire_msg_match(&m, 0x1235, n, nl, 1, 1, 0), WIRE_EID);
	ck_assert_int_eq(wire_msg_match(&m, 0x1234, n, nl, 28, 1, 0),
	                 WIRE_EQUESTION);
	ck_assert_int_eq(wire_msg_match(&m, 0x1234, n, nl, 1, 3, 0),
	                 WIRE_EQUESTION);
	nl = wname(n, "ww.curve.test");
	ck_assert_int_eq(wire_msg_match(&m, 0x1234, n, nl, 1, 1, 0),
	                 WIRE_EQUESTION);
	msg[5] = 0; /* no question: FORMERR style */
	msg[7] = 0;
	ck_assert_int_eq(wire_msg_parse(&m, msg, 12, rr, 2), WIRE_OK);
	ck_assert_int_eq(wire_msg_match(&m, 0x1234, n, nl, 1, 1, 0),
	                 WIRE_EQUESTION);
}
END_TEST

START_TEST(test_reader_bounds)
{
	static const uint8_t b[4] = { 1, 2, 3, 4 };
	size_t pos = 1;
	uint8_t v8, out[4];
	uint16_t v16;
	uint32_t v32;
	struct wire_header h;

	ck_assert_int_eq(wire_read_u32(b, 4, &pos, &v32), WIRE_ESHORT);
	ck_assert_uint_eq(pos, 1);
	ck_assert_int_eq(wire_read_u16(b, 4, &pos, &v16), WIRE_OK);
	ck_assert_uint_eq(v16, 0x0203);
	ck_assert_int_eq(wire_read_u16(b, 4, &pos, &v16), WIRE_ESHORT);
	ck_assert_int_eq(wire_read_u8(b, 4, &pos, &v8), WIRE_OK);
	ck_assert_uint_eq(v8, 4);
	ck_assert_int_eq(wire_read_u8(b, 4, &pos, &v8), WIRE_ESHORT);
	pos = 99; /* past the end */
	ck_assert_int_eq(wire_read_u8(b, 4, &pos, &v8), WIRE_ESHORT);
	pos = 0;
	ck_assert_int_eq(wire_read_u32(b, 4, &pos, &v32), WIRE_OK);
	ck_assert_uint_eq(v32, 0x01020304);
	pos = 0;
	ck_assert_int_eq(wire_read_bytes(b, 4, &pos, out, 5), WIRE_ESHORT);
	ck_assert_int_eq(wire_read_bytes(b, 4, &pos, out, 4), WIRE_OK);
	pos = 0;
	ck_assert_int_eq(wire_read_header(b, 4, &pos, &h), WIRE_ESHORT);
	ck_assert_uint_eq(pos, 0);
}
END_TEST

START_TEST(test_rdata_name_bounds)
{
	uint8_t msg[BUF], n[WIRE_NAME_MAX];
	size_t len, pos;
	struct wire_rr rr[2];
	struct wire_msg m;

	len = mkmsg(msg, "a.test", WIRE_TYPE_NS, "n", "ns.b.test");
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 2), WIRE_OK);
	pos = rr[0].rdata;
	ck_assert_int_eq(wire_read_rdata_name(msg, len, &rr[0], &pos, n, NULL,
	                                      0),
	                 WIRE_OK);
	ck_assert_uint_eq(pos, rr[0].rdata + rr[0].rdlen);
	rr[0].rdlen -= 1; /* the name now runs past the RDATA */
	pos = rr[0].rdata;
	ck_assert_int_eq(wire_read_rdata_name(msg, len, &rr[0], &pos, n, NULL,
	                                      0),
	                 WIRE_ERDATA);
	pos = rr[0].rdata + rr[0].rdlen + 1; /* outside the RDATA */
	ck_assert_int_eq(wire_read_rdata_name(msg, len, &rr[0], &pos, n, NULL,
	                                      0),
	                 WIRE_ERDATA);
}
END_TEST

/* ------------------------------------------------------------------ */
/* writer                                                              */

START_TEST(test_writer_capacity)
{
	struct wire_query q = { 1, WIRE_TYPE_A, WIRE_CLASS_IN, 0, 1232, 0 };
	uint8_t out[BUF];
	size_t full, cap, len;

	ck_assert_int_eq(wire_query_build_text(out, sizeof(out), &full,
	                                       "www.curve.test", &q),
	                 WIRE_OK);
	for (cap = 0; cap < full; cap++) {
		memset(out, 0xee, sizeof(out));
		ck_assert_int_eq(wire_query_build_text(out, cap, &len,
		                                       "www.curve.test", &q),
		                 WIRE_ESPACE);
		ck_assert_uint_eq(out[cap], 0xee); /* nothing past cap */
	}
	ck_assert_int_eq(wire_query_build_text(out, full, &len,
	                                       "www.curve.test", &q),
	                 WIRE_OK);
	ck_assert_uint_eq(len, full);
}
END_TEST

START_TEST(test_writer_atomic)
{
	static const uint8_t rd[8] = { 0 };
	struct wire_header h = { 1, 0, 0, 0, 0, 0 };
	uint8_t out[64], n[WIRE_NAME_MAX];
	size_t nl = wname(n, "example.org"), before, pos;
	struct wire_writer w;
	struct wire_mark mk;

	wire_writer_init(&w, out, 45);
	ck_assert_int_eq(wire_write_question(&w, n, nl, 1, 1), WIRE_EINVAL);
	ck_assert_int_eq(wire_write_header(&w, &h), WIRE_OK);
	ck_assert_int_eq(wire_write_header(&w, &h), WIRE_EINVAL);
	ck_assert_int_eq(wire_write_question(&w, n, nl, 1, 1), WIRE_OK);
	before = w.len; /* 12 + 13 + 4 = 29 */
	ck_assert_int_eq(wire_write_rr(&w, WIRE_SECTION_ANSWER, n, nl, 1, 1,
	                               60, rd, 8),
	                 WIRE_ESPACE); /* 2 + 10 + 8 > 16 */
	ck_assert_uint_eq(w.len, before);
	ck_assert_uint_eq(out[7], 0); /* ANCOUNT untouched */
	ck_assert_int_eq(wire_write_rr(&w, 7, n, nl, 1, 1, 60, rd, 0),
	                 WIRE_EINVAL);
	/* Mark and rollback undo a record and its count. */
	wire_writer_mark(&w, &mk);
	ck_assert_int_eq(wire_write_rr_begin(&w, WIRE_SECTION_AUTHORITY, n, nl,
	                                     1, 1, 60, &pos),
	                 WIRE_OK);
	ck_assert_uint_eq(out[9], 1);
	ck_assert_int_eq(wire_write_rr_end(&w, 3), WIRE_EINVAL);
	ck_assert_int_eq(wire_write_rr_end(&w, w.len), WIRE_EINVAL);
	wire_writer_rollback(&w, &mk);
	ck_assert_uint_eq(w.len, before);
	ck_assert_uint_eq(out[9], 0);
	/* A full count is refused. */
	out[10] = 0xff;
	out[11] = 0xff;
	wire_writer_init(&w, out, sizeof(out));
	w.len = before;
	ck_assert_int_eq(wire_write_opt(&w, 1232, 0, 0), WIRE_ECOUNT);
	ck_assert_uint_eq(w.len, before);
}
END_TEST

START_TEST(test_writer_compression)
{
	/* clang-format off */
	static const uint8_t want[] = {
		/* question www.curve.test at 12 */
		3, 'w', 'w', 'w', 5, 'c', 'u', 'r', 'v', 'e', 4, 't', 'e', 's',
		't', 0, 0, 2, 0, 1,
		/* answer: owner CURVE.test -> pointer to 16 */
		0xc0, 16, 0, 2, 0, 1, 0, 0, 0, 60, 0, 6,
		/* RDATA: ns1 + pointer to 16 */
		3, 'n', 's', '1', 0xc0, 16,
		/* additional: owner ns1.curve.test -> pointer to the RDATA */
		0xc0, 44, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 127, 0, 0, 1,
	};
	/* clang-format on */
	static const uint8_t a[4] = { 127, 0, 0, 1 };
	struct wire_header h = { 9, 0x8000, 0, 0, 0, 0 };
	uint8_t out[BUF], n1[WIRE_NAME_MAX], n2[WIRE_NAME_MAX];
	uint8_t n3[WIRE_NAME_MAX];
	size_t l1 = wname(n1, "www.curve.test"), l2 = wname(n2, "CURVE.test");
	size_t l3 = wname(n3, "ns1.curve.test"), pos;
	struct wire_writer w;
	struct wire_rr rr[4];
	struct wire_msg m;

	wire_writer_init(&w, out, sizeof(out));
	ck_assert_int_eq(wire_write_header(&w, &h), WIRE_OK);
	ck_assert_int_eq(wire_write_question(&w, n1, l1, 2, 1), WIRE_OK);
	ck_assert_int_eq(wire_write_rr_begin(&w, WIRE_SECTION_ANSWER, n2, l2,
	                                     2, 1, 60, &pos),
	                 WIRE_OK);
	ck_assert_int_eq(wire_write_name(&w, n3, l3, 1), WIRE_OK);
	ck_assert_int_eq(wire_write_rr_end(&w, pos), WIRE_OK);
	ck_assert_int_eq(wire_write_rr(&w, WIRE_SECTION_ADDITIONAL, n3, l3, 1,
	                               1, 60, a, 4),
	                 WIRE_OK);
	ck_assert_uint_eq(w.len, 12 + sizeof(want));
	ck_assert_mem_eq(out + 12, want, sizeof(want));
	ck_assert_int_eq(wire_msg_parse(&m, out, w.len, rr, 4), WIRE_OK);
	ck_assert_str_eq(name_at(out, w.len, rr[1].owner), "ns1.curve.test.");
	/* Without compression the name is written whole. */
	ck_assert_int_eq(wire_write_name(&w, n3, l3, 0), WIRE_OK);
	ck_assert_mem_eq(out + w.len - l3, n3, l3);
}
END_TEST

/* ------------------------------------------------------------------ */
/* names                                                               */

/* text -> wire -> text */
static const char *round_trip(const char *text)
{
	static char out[WIRE_NAME_TEXT_MAX];
	uint8_t n[WIRE_NAME_MAX];
	size_t nl = wname(n, text);

	ck_assert_int_eq(wire_name_to_text(n, nl, out, sizeof(out), NULL),
	                 WIRE_OK);
	return out;
}

static int from_text(const char *text)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t nl;

	return wire_name_from_text(text, strlen(text), n, &nl);
}

START_TEST(test_text_names)
{
	uint8_t n[WIRE_NAME_MAX];
	char big[400];
	size_t nl;

	ck_assert_str_eq(round_trip("www.curve.test"), "www.curve.test.");
	ck_assert_str_eq(round_trip("www.curve.test."), "www.curve.test.");
	ck_assert_str_eq(round_trip("."), ".");
	ck_assert_str_eq(round_trip("weird\\.dot.test"), "weird\\.dot.test.");
	ck_assert_str_eq(round_trip("sp\\032ace"), "sp\\032ace.");
	ck_assert_str_eq(round_trip("a\\(b\\)c\\;d\\@e\\$f\\\"g"),
	                 "a\\(b\\)c\\;d\\@e\\$f\\\"g.");
	ck_assert_str_eq(round_trip("\\065\\000\\255\\\\x"),
	                 "A\\000\\255\\\\x.");
	ck_assert_str_eq(round_trip("*._tcp.a-b/c"), "*._tcp.a-b/c.");
	nl = wname(n, "a\\.b.c");
	ck_assert_uint_eq(nl, 7);
	ck_assert_uint_eq(n[0], 3);
	ck_assert_uint_eq(n[2], '.');
	ck_assert_int_eq(from_text(""), WIRE_ETEXT);
	ck_assert_int_eq(from_text(".."), WIRE_ETEXT);
	ck_assert_int_eq(from_text(".a"), WIRE_ETEXT);
	ck_assert_int_eq(from_text("a..b"), WIRE_ETEXT);
	ck_assert_int_eq(from_text("a\\"), WIRE_ETEXT);
	ck_assert_int_eq(from_text("a\\25"), WIRE_ETEXT);
	ck_assert_int_eq(from_text("a\\256"), WIRE_ETEXT);
	ck_assert_int_eq(from_text("a\\2x5"), WIRE_ETEXT);
	memset(big, 'a', 64);
	big[64] = '\0';
	ck_assert_int_eq(from_text(big), WIRE_ELABEL);
	big[63] = '\0';
	ck_assert_int_eq(from_text(big), WIRE_OK);
	/* 63.63.63.61 = 255 wire bytes; 62 in the last label = 256. */
	memset(big, 'a', sizeof(big));
	big[63] = big[127] = big[191] = '.';
	big[253] = '\0';
	ck_assert_int_eq(from_text(big), WIRE_OK);
	big[253] = '.';
	big[254] = '\0';
	ck_assert_int_eq(from_text(big), WIRE_OK);
	big[253] = 'a';
	ck_assert_int_eq(from_text(big), WIRE_ENAME);
}
END_TEST

START_TEST(test_to_text_limits)
{
	uint8_t n[WIRE_NAME_MAX];
	char out[WIRE_NAME_TEXT_MAX];
	size_t nl = wname(n, "ab.c"), ol;
	static const uint8_t bad[] = { 5, 'a', 0 };
	static const uint8_t trail[] = { 1, 'a', 0, 0 };

	ck_assert_int_eq(wire_name_to_text(n, nl, out, 5, NULL), WIRE_ESPACE);
	ck_assert_int_eq(wire_name_to_text(n, nl, out, 6, &ol), WIRE_OK);
	ck_assert_uint_eq(ol, 5);
	ck_assert_int_eq(wire_name_to_text(bad, sizeof(bad), out, sizeof(out),
	                                   NULL),
	                 WIRE_ESHORT);
	ck_assert_int_eq(wire_name_to_text(trail, sizeof(trail), out,
	                                   sizeof(out), NULL),
	                 WIRE_EINVAL);
	/* Every byte escaped as \DDD still fits WIRE_NAME_TEXT_MAX. */
	memset(n, 0, sizeof(n));
	n[0] = 63;
	n[64] = 63;
	n[128] = 63;
	n[192] = 61;
	n[254] = 0;
	ck_assert_int_eq(wire_name_to_text(n, 255, out, sizeof(out), &ol),
	                 WIRE_OK);
	ck_assert_uint_eq(ol, 250 * 4 + 4);
}
END_TEST

START_TEST(test_0x20)
{
	uint8_t n[WIRE_NAME_MAX], orig[WIRE_NAME_MAX];
	uint8_t rnd[WIRE_0X20_RANDOM_BYTES];
	char text[WIRE_NAME_TEXT_MAX];
	size_t nl = wname(n, "www.curve-1.test"), i;
	int trial, differs = 0;

	memcpy(orig, n, nl);
	memset(rnd, 0xff, sizeof(rnd));
	wire_name_0x20(n, nl, rnd);
	ck_assert_int_eq(wire_name_to_text(n, nl, text, sizeof(text), NULL),
	                 WIRE_OK);
	ck_assert_str_eq(text, "WWW.CURVE-1.TEST.");
	memset(rnd, 0, sizeof(rnd));
	wire_name_0x20(n, nl, rnd);
	ck_assert_mem_eq(n, orig, nl);
	srand(20);
	for (trial = 0; trial < 64; trial++) {
		for (i = 0; i < sizeof(rnd); i++)
			rnd[i] = (uint8_t)rand();
		wire_name_0x20(n, nl, rnd);
		ck_assert(wire_name_equal(n, nl, orig, nl));
		ck_assert_int_eq(wire_name_check(n, nl), WIRE_OK);
		differs |= !wire_name_equal_case(n, nl, orig, nl);
		wire_name_lower(n, nl);
		ck_assert(wire_name_equal_case(n, nl, orig, nl));
	}
	ck_assert(differs);
	ck_assert(!wire_name_equal(orig, nl, orig, nl - 1));
	for (i = 0; i < 256 * nl; i++) { /* every byte value, every place */
		size_t at = i / 256, k;

		memcpy(n, orig, nl);
		n[at] = (uint8_t)i;
		memcpy(text, n, nl);
		wire_name_lower(n, nl);
		for (k = 0; k < nl; k++)
			ck_assert_uint_eq(n[k],
			                  (uint8_t)text[k] >= 'A' &&
			                                  (uint8_t)text[k] <=
			                                          'Z' ?
			                          (uint8_t)text[k] + 32 :
			                          (uint8_t)text[k]);
	}
	for (i = 0; i < nl; i++) { /* one byte changed: in a word, the tail */
		memcpy(n, orig, nl);
		n[i] ^= 0x01;
		ck_assert(!wire_name_equal(n, nl, orig, nl));
		n[i] ^= 0x21; /* the original with its case flipped, or not */
		ck_assert(wire_name_equal(n, nl, orig, nl) ==
		          (orig[i] >= 'a' && orig[i] <= 'z'));
	}
}
END_TEST

START_TEST(test_read_lower_and_parent)
{
	uint8_t msg[BUF], out[WIRE_NAME_MAX], n[WIRE_NAME_MAX];
	size_t len = unhex(msg, sizeof(msg), vec_resp48), pos = 12, ol, off;

	msg[13] = 'W';
	ck_assert_int_eq(wire_read_name(msg, len, &pos, out, &ol,
	                                WIRE_NAME_LOWER),
	                 WIRE_OK);
	ck_assert_uint_eq(out[1], 'w');
	ck_assert_uint_eq(pos, 12 + ol);
	pos = 12;
	ck_assert_int_eq(wire_read_name(msg, len, &pos, out, &ol, 0), WIRE_OK);
	ck_assert_uint_eq(out[1], 'W');
	pos = 32; /* the answer owner: pointer c00c */
	ck_assert_int_eq(wire_read_name(msg, len, &pos, out, &ol, 0), WIRE_OK);
	ck_assert_uint_eq(pos, 34);
	ck_assert_uint_eq(ol, 16);
	ol = wname(n, "www.curve.test");
	ck_assert_int_eq(wire_name_parent(n, ol, &off), WIRE_OK);
	ck_assert_uint_eq(off, 4);
	ck_assert_int_eq(wire_name_parent(n + 15, 1, &off), WIRE_EINVAL);
}
END_TEST

/* ------------------------------------------------------------------ */
/* rrtext                                                              */

START_TEST(test_rrtext_types)
{
	static const uint8_t v6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 0x10 };
	static const uint8_t v4m[16] = { [10] = 0xff, [11] = 0xff, [12] = 1,
		                         [13] = 2,    [14] = 3,    [15] = 4 };
	static const uint8_t txt[] = {
		0x0b, 0x68, 0x65, 0x6c, 0x6c, 0x6f, 0x20, 0x77, 0x6f,
		0x72, 0x6c, 0x64, 0x1d, 0x77, 0x69, 0x74, 0x68, 0x20,
		0x22, 0x71, 0x75, 0x6f, 0x74, 0x65, 0x73, 0x22, 0x20,
		0x61, 0x6e, 0x64, 0x20, 0x5c, 0x20, 0x62, 0x61, 0x63,
		0x6b, 0x73, 0x6c, 0x61, 0x73, 0x68, 0x0a, 0x73, 0x65,
		0x6d, 0x69, 0x3b, 0x63, 0x6f, 0x6c, 0x6f, 0x6e, 0x08,
		0x00, 0xff, 0x0a, 0x74, 0x61, 0x62, 0x09, 0x78, 0x00,
	};
	static const uint8_t unk[4] = { 10, 0, 0, 1 };
	uint8_t msg[BUF];
	size_t len;

	len = mkmsg(msg, "www.curve.test", WIRE_TYPE_AAAA, "r", v6,
	            sizeof(v6));
	ck_assert_str_eq(render_first(msg, len),
	                 "www.curve.test.\t\t3600\tIN\tAAAA\t2001:db8::10");
	len = mkmsg(msg, "v6a.curve.test", WIRE_TYPE_AAAA, "r", v4m,
	            sizeof(v4m));
	ck_assert_str_eq(render_first(msg, len),
	                 "v6a.curve.test.\t\t3600\tIN\tAAAA\t::ffff:1.2.3.4");
	len = mkmsg(msg, "curve.test", WIRE_TYPE_MX, "hn", 10u,
	            "mail.curve.test");
	ck_assert_str_eq(render_first(msg, len),
	                 "curve.test.\t\t3600\tIN\tMX\t10 mail.curve.test.");
	len = mkmsg(msg, "txt.curve.test", WIRE_TYPE_TXT, "r", txt,
	            sizeof(txt));
	ck_assert_str_eq(render_first(msg, len),
	                 "txt.curve.test.\t\t3600\tIN\tTXT\t\"hello world\" "
	                 "\"with "
	                 "\\\"quotes\\\" and \\\\ backslash\" \"semi;colon\" "
	                 "\"\\000\\255\\010tab\\009x\" \"\"");
	len = mkmsg(msg, "curve.test", WIRE_TYPE_SOA, "nnwwwww",
	            "ns1.curve.test", "hostmaster.curve.test", 2024010101u,
	            3600u, 900u, 604800u, 300u);
	ck_assert_str_eq(render_first(msg, len),
	                 "curve.test.\t\t3600\tIN\tSOA\tns1.curve.test. "
	                 "hostmaster.curve.test. 2024010101 3600 900 604800 "
	                 "300");
	len = mkmsg(msg, "_sip._tcp.curve.test", WIRE_TYPE_SRV, "hhhn", 10u,
	            60u, 5060u, "sip.curve.test");
	ck_assert_str_eq(render_first(msg, len),
	                 "_sip._tcp.curve.test.\t3600"
	                 "\tIN\tSRV\t10 60 5060 sip.curve.test.");
	len = mkmsg(msg, "alias.curve.test", WIRE_TYPE_CNAME, "n",
	            "www.curve.test");
	ck_assert_str_eq(render_first(msg, len),
	                 "alias.curve.test.\t3600\tIN\tCNAME\twww.curve."
	                 "test.");
	len = mkmsg(msg, "d.curve.test", WIRE_TYPE_DNAME, "n", "example.org");
	ck_assert_str_eq(render_first(msg, len),
	                 "d.curve.test.\t\t3600\tIN\tDNAME\texample.org.");
	len = mkmsg(msg, "ptr.curve.test", WIRE_TYPE_PTR, "n",
	            "www.curve.test");
	ck_assert_str_eq(render_first(msg, len),
	                 "ptr.curve.test.\t\t3600\tIN\tPTR\twww.curve.test.");
	len = mkmsg(msg, "esc.curve.test", WIRE_TYPE_CNAME, "n",
	            "a\\(b\\)c\\;d\\@e\\$f\\\"g.curve.test");
	ck_assert_str_eq(render_first(msg, len),
	                 "esc.curve.test.\t\t3600\tIN"
	                 "\tCNAME\ta\\(b\\)c\\;d\\@e\\$f\\\"g.curve.test.");
	len = mkmsg(msg, "unk.curve.test", 65280, "r", unk, sizeof(unk));
	ck_assert_str_eq(render_first(msg, len),
	                 "unk.curve.test.\t\t3600\tIN\tTYPE65280 \\# 4 "
	                 "0A000001");
	len = mkmsg(msg, "unk0.curve.test", 65281, "");
	ck_assert_str_eq(render_first(msg, len),
	                 "unk0.curve.test.\t3600\tIN\tTYPE65281 \\# 0");
}
END_TEST

START_TEST(test_rrtext_generic_and_malformed)
{
	uint8_t msg[BUF], big[40];
	static const uint8_t a3[3] = { 1, 2, 3 };
	static const uint8_t badtxt[3] = { 5, 'a', 'b' };
	static const uint8_t badmx[4] = { 0, 10, 3, 'a' };
	char out[512];
	struct wire_rr rr[2];
	struct wire_msg m;
	size_t len, i;

	for (i = 0; i < sizeof(big); i++)
		big[i] = (uint8_t)i;
	len = mkmsg(msg, "unkbig.curve.test", 65282, "r", big, sizeof(big));
	ck_assert_str_eq(render_first(msg, len),
	                 "unkbig.curve.test.\t3600\tIN\tTYPE65282 \\# 40 "
	                 "000102030405060708"
	                 "090A0B0C0D0E0F101112131415161718191A1B "
	                 "1C1D1E1F2021222324252627");
	len = mkmsg(msg, "x.test", WIRE_TYPE_A, "r", a3, sizeof(a3));
	ck_assert_str_eq(render_first(msg, len),
	                 "x.test.\t\t\t3600\tIN\tA\t\\# 3 010203");
	len = mkmsg(msg, "x.test", WIRE_TYPE_TXT, "r", badtxt, sizeof(badtxt));
	ck_assert_str_eq(render_first(msg, len),
	                 "x.test.\t\t\t3600\tIN\tTXT\t\\# 3 056162");
	len = mkmsg(msg, "x.test", WIRE_TYPE_TXT, "");
	ck_assert_str_eq(render_first(msg, len),
	                 "x.test.\t\t\t3600\tIN\tTXT\t\\# 0");
	len = mkmsg(msg, "x.test", WIRE_TYPE_MX, "r", badmx, sizeof(badmx));
	ck_assert_str_eq(render_first(msg, len),
	                 "x.test.\t\t\t3600\tIN\tMX\t\\# 4 000A0361");
	/* rrtext_rdata alone, and an output buffer that is too small. */
	ck_assert_int_eq(wire_msg_parse(&m, msg, len, rr, 2), WIRE_OK);
	ck_assert_int_eq(rrtext_rdata(out, sizeof(out), &i, msg, len, &rr[0]),
	                 WIRE_OK);
	ck_assert_str_eq(out, "\\# 4 000A0361");
	ck_assert_uint_eq(i, 13);
	ck_assert_int_eq(rrtext_rdata(out, 13, NULL, msg, len, &rr[0]),
	                 WIRE_ESPACE);
	ck_assert_int_eq(rrtext_rr(out, 10, NULL, msg, len, &rr[0]),
	                 WIRE_ESPACE);
}
END_TEST

START_TEST(test_rrtext_columns)
{
	/* Lines as dig 9.18 prints them for the same names. */
	static const char *const want[][2] = {
		{ "a.w.curve.test",
		  "a.w.curve.test.\t\t3600\tIN\tA\t192.0.2.1" },
		{ "aaaaaaaaaa.w.curve.test",
		  "aaaaaaaaaa.w.curve.test. 3600\tIN\tA\t192.0.2.1" },
		{ "aaaaaaaaaaaaaaaaa.w.curve.test",
		  "aaaaaaaaaaaaaaaaa.w.curve.test.\t3600 IN\tA\t192.0.2.1" },
		{ "aaaaaaaaaaaaaaaaaaaa.w.curve.test",
		  "aaaaaaaaaaaaaaaaaaaa.w.curve.test. 3600\tIN A\t192.0.2.1" },
		{ "aaaaaaaaaaaaaaaaaaaaaaaaa.w.curve.test",
		  "aaaaaaaaaaaaaaaaaaaaaaaaa.w.curve.test.\t3600 IN\tA "
		  "192.0.2.1" },
	};
	static const char *const wantq[][2] = {
		{ "aa.w.curve.test", ";aa.w.curve.test.\t\tIN\tA" },
		{ "aaaaaaaaaaaaaaaaaa.w.curve.test",
		  ";aaaaaaaaaaaaaaaaaa.w.curve.test. IN\tA" },
		{ "aaaaaaaaaaaaaaaaaaaaaaaaa.w.curve.test",
		  ";aaaaaaaaaaaaaaaaaaaaaaaaa.w.curve.test.\tIN A" },
	};
	static const uint8_t a[4] = { 192, 0, 2, 1 };
	struct wire_question q = { { 0 }, 0, WIRE_TYPE_A, WIRE_CLASS_IN };
	uint8_t msg[BUF];
	char line[256];
	size_t i, len;

	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		len = mkmsg(msg, want[i][0], WIRE_TYPE_A, "r", a, sizeof(a));
		ck_assert_str_eq(render_first(msg, len), want[i][1]);
	}
	for (i = 0; i < sizeof(wantq) / sizeof(wantq[0]); i++) {
		q.namelen = wname(q.name, wantq[i][0]);
		ck_assert_int_eq(rrtext_question(line, sizeof(line), NULL, &q),
		                 WIRE_OK);
		ck_assert_str_eq(line, wantq[i][1]);
	}
}
END_TEST

START_TEST(test_rrtext_opt)
{
	/* clang-format off */
	static const uint8_t opts[] = {
		0, 10, 0, 8, 1, 2, 3, 4, 5, 6, 7, 0xab,           /* COOKIE */
		0, 15, 0, 6, 0, 14, 'n', 'o', 'p', 'e',           /* EDE */
		0, 3, 0, 3, 'n', 's', 0,                          /* NSID */
		0xfd, 0xe9, 0, 1, 'x',                            /* 65001 */
	};
	/* clang-format on */
	struct wire_rr rr = { 0, 0, WIRE_EDNS_DO, WIRE_TYPE_OPT, 1232, 0, 3 };
	uint8_t msg[64];
	char out[512];

	memcpy(msg, opts, sizeof(opts));
	ck_assert_int_eq(rrtext_opt(out, sizeof(out), NULL, msg, 0, &rr),
	                 WIRE_OK);
	ck_assert_str_eq(out, "; EDNS: version: 0, flags: do; udp: 1232");
	rr.ttl = 0x00010000u | 0x4000u;
	ck_assert_int_eq(rrtext_opt(out, sizeof(out), NULL, msg, 0, &rr),
	                 WIRE_OK);
	ck_assert_str_eq(out, "; EDNS: version: 1, flags:; MBZ: 0x4000, "
	                      "udp: 1232");
	rr.ttl = 0;
	rr.rdlen = sizeof(opts);
	ck_assert_int_eq(rrtext_opt(out, sizeof(out), NULL, msg, sizeof(msg),
	                            &rr),
	                 WIRE_OK);
	ck_assert_str_eq(out, "; EDNS: version: 0, flags:; udp: 1232\n"
	                      "; COOKIE: 01020304050607ab\n"
	                      "; EDE: 14 (Not Ready): (nope)\n"
	                      "; NSID: 6e 73 00 (\"ns.\")\n"
	                      "; OPT=65001: 78 (\"x\")");
	rr.rdlen = 3; /* option header cut */
	ck_assert_int_eq(rrtext_opt(out, sizeof(out), NULL, msg, sizeof(msg),
	                            &rr),
	                 WIRE_ERDATA);
	rr.rdlen = 10; /* option body cut */
	ck_assert_int_eq(rrtext_opt(out, sizeof(out), NULL, msg, sizeof(msg),
	                            &rr),
	                 WIRE_ERDATA);
	rr.type = WIRE_TYPE_A;
	ck_assert_int_eq(rrtext_opt(out, sizeof(out), NULL, msg, sizeof(msg),
	                            &rr),
	                 WIRE_EOPT);
}
END_TEST

START_TEST(test_rrtext_names)
{
	char buf[RRTEXT_NAME_MAX], flags[RRTEXT_FLAGS_MAX];
	uint16_t t;

	ck_assert_str_eq(rrtext_type_name(1, buf), "A");
	ck_assert_str_eq(rrtext_type_name(39, buf), "DNAME");
	ck_assert_str_eq(rrtext_type_name(65280, buf), "TYPE65280");
	ck_assert_str_eq(rrtext_class_name(1, buf), "IN");
	ck_assert_str_eq(rrtext_class_name(3, buf), "CH");
	ck_assert_str_eq(rrtext_class_name(1232, buf), "CLASS1232");
	ck_assert_str_eq(rrtext_rcode_name(3, buf), "NXDOMAIN");
	ck_assert_str_eq(rrtext_rcode_name(16, buf), "BADVERS");
	ck_assert_str_eq(rrtext_rcode_name(12, buf), "12");
	ck_assert_str_eq(rrtext_opcode_name(0, buf), "QUERY");
	ck_assert_str_eq(rrtext_opcode_name(9, buf), "RESERVED9");
	ck_assert_int_eq(rrtext_type_parse("aaaa", &t), WIRE_OK);
	ck_assert_uint_eq(t, 28);
	ck_assert_int_eq(rrtext_type_parse("ANY", &t), WIRE_OK);
	ck_assert_uint_eq(t, 255);
	ck_assert_int_eq(rrtext_type_parse("type65280", &t), WIRE_OK);
	ck_assert_uint_eq(t, 65280);
	ck_assert_int_eq(rrtext_type_parse("TYPE65536", &t), WIRE_ETEXT);
	ck_assert_int_eq(rrtext_type_parse("TYPE", &t), WIRE_ETEXT);
	ck_assert_int_eq(rrtext_type_parse("TYPE1x", &t), WIRE_ETEXT);
	ck_assert_int_eq(rrtext_type_parse("FOO", &t), WIRE_ETEXT);
	rrtext_flags(0x8580, flags);
	ck_assert_str_eq(flags, "qr aa rd ra");
	rrtext_flags(0, flags);
	ck_assert_str_eq(flags, "");
	ck_assert_str_eq(wire_strerror(WIRE_ELOOP), "compression loop");
	ck_assert_str_eq(wire_strerror(-1), "unknown wire status");
}
END_TEST

/* ------------------------------------------------------------------ */
/* robust: mutated real packets never break the parser or the renderer */

START_TEST(test_mutations)
{
	uint8_t orig[BUF], msg[BUF];
	size_t len = unhex(orig, sizeof(orig), vec_inner137), i, k;
	static char line[RRTEXT_LINE_MAX];
	struct wire_rr rr[8];
	struct wire_msg m;
	unsigned seed = 1, ok = 0;
	int rc;

	for (i = 0; i < 20000; i++) {
		memcpy(msg, orig, len);
		for (k = 0; k < 1 + i % 4; k++) {
			seed = seed * 1103515245u + 12345u;
			msg[(seed >> 8) % len] = (uint8_t)(seed >> 20);
		}
		if (wire_msg_parse(&m, msg, len, rr, 8) != WIRE_OK)
			continue;
		ok++;
		for (k = 0; k < m.an + m.ns + m.ar; k++) {
			ck_assert_uint_le(rr[k].rdata + rr[k].rdlen, len);
			rc = rrtext_rr(line, sizeof(line), NULL, msg, len,
			               &rr[k]);
			ck_assert_int_eq(rc, WIRE_OK);
		}
	}
	ck_assert_uint_gt(ok, 100);
}
END_TEST

static Suite *wire_suite(void)
{
	Suite *s = suite_create("wire");
	TCase *tc;

	tc = tcase_create("vectors");
	tcase_add_test(tc, test_parse_inner137);
	tcase_add_test(tc, test_rrtext_inner137);
	tcase_add_test(tc, test_parse_txt270);
	tcase_add_test(tc, test_write_vectors);
	tcase_add_test(tc, test_query_edns);
	tcase_add_test(tc, test_query_direct_as_writer);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_test(tc, test_truncated_every_length);
	tcase_add_test(tc, test_pointers);
	tcase_add_test(tc, test_pointer_step_cap);
	tcase_add_test(tc, test_labels_and_length);
	tcase_add_test(tc, test_long_name_via_pointers);
	tcase_add_test(tc, test_counts);
	tcase_add_test(tc, test_rdlen_overrun);
	tcase_add_test(tc, test_opt_rules);
	tcase_add_test(tc, test_match);
	tcase_add_test(tc, test_reader_bounds);
	tcase_add_test(tc, test_rdata_name_bounds);
	suite_add_tcase(s, tc);
	tc = tcase_create("writer");
	tcase_add_test(tc, test_writer_capacity);
	tcase_add_test(tc, test_writer_atomic);
	tcase_add_test(tc, test_writer_compression);
	suite_add_tcase(s, tc);
	tc = tcase_create("names");
	tcase_add_test(tc, test_text_names);
	tcase_add_test(tc, test_to_text_limits);
	tcase_add_test(tc, test_0x20);
	tcase_add_test(tc, test_read_lower_and_parent);
	suite_add_tcase(s, tc);
	tc = tcase_create("rrtext");
	tcase_add_test(tc, test_rrtext_types);
	tcase_add_test(tc, test_rrtext_generic_and_malformed);
	tcase_add_test(tc, test_rrtext_columns);
	tcase_add_test(tc, test_rrtext_opt);
	tcase_add_test(tc, test_rrtext_names);
	suite_add_tcase(s, tc);
	tc = tcase_create("robust");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_mutations);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(wire_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
