/*
 * tests/unit/check_localzone_types.c - every local-zone type of Unbound
 * against the same question set (resolver/policy/localzone.h): a zone
 * z.example. of the type with local data at its apex and at d.z.example.;
 * asked: d.z.example. A (data of the type), d.z.example. MX (data of
 * another type), x.z.example. A (no data), z.example. A (the apex).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "policy/localzone.h"
#include "wire/answer.h"
#include "wire/wire.h"

/** What a question gets. */
enum want {
	W_ANS = 1, /**< NOERROR, one A record of the data */
	W_NODATA,  /**< NOERROR, no answer */
	W_NXDOMAIN,
	W_REFUSED,
	W_DROP,    /**< no answer at all */
	W_RESOLVE, /**< not local: resolved */
	W_NULL,    /**< A 0.0.0.0 */
	W_REDIR    /**< the apex's A, owned by the query name */
};

/** The questions, in the order of the table's columns. */
static const char *const qnames[4] = { "d.z.example.", "d.z.example.",
	                               "x.z.example.", "z.example." };
static const uint16_t qtypes[4] = { WIRE_TYPE_A, WIRE_TYPE_MX, WIRE_TYPE_A,
	                            WIRE_TYPE_A };

static const struct {
	const char *type;
	enum want want[4];
	bool inform;
} table[] = {
	{ "static", { W_ANS, W_NODATA, W_NXDOMAIN, W_ANS }, false },
	{ "transparent", { W_ANS, W_NODATA, W_RESOLVE, W_ANS }, false },
	{ "typetransparent", { W_ANS, W_RESOLVE, W_RESOLVE, W_ANS }, false },
	{ "refuse", { W_ANS, W_NODATA, W_REFUSED, W_ANS }, false },
	{ "deny", { W_ANS, W_NODATA, W_DROP, W_ANS }, false },
	{ "redirect", { W_ANS, W_NODATA, W_REDIR, W_ANS }, false },
	{ "inform", { W_ANS, W_NODATA, W_RESOLVE, W_ANS }, true },
	{ "inform_deny", { W_ANS, W_NODATA, W_DROP, W_ANS }, true },
	{ "inform_redirect", { W_ANS, W_NODATA, W_REDIR, W_ANS }, true },
	{ "always_transparent",
	  { W_RESOLVE, W_RESOLVE, W_RESOLVE, W_RESOLVE },
	  false },
	{ "always_refuse",
	  { W_REFUSED, W_REFUSED, W_REFUSED, W_REFUSED },
	  false },
	{ "always_nxdomain",
	  { W_NXDOMAIN, W_NXDOMAIN, W_NXDOMAIN, W_NXDOMAIN },
	  false },
	{ "always_nodata", { W_NODATA, W_NODATA, W_NODATA, W_NODATA }, false },
	{ "always_deny", { W_DROP, W_DROP, W_DROP, W_DROP }, false },
	{ "always_null", { W_NULL, W_NODATA, W_NULL, W_NULL }, false },
	{ "noview", { W_ANS, W_NODATA, W_RESOLVE, W_ANS }, false },
	/* no zone: the data make an implicit transparent one */
	{ "nodefault", { W_ANS, W_NODATA, W_RESOLVE, W_ANS }, false },
};

static struct localzone *build(const char *conf)
{
	static struct cfg c;
	struct localzone *lz = NULL;
	char err[CFG_ERR_BYTES];

	cfg_defaults(&c);
	ck_assert_msg(cfg_parse("t.conf", conf, strlen(conf), &c, err,
	                        sizeof err) == 0,
	              "%s", err);
	ck_assert_msg(localzone_build(c.local, &lz, err, sizeof err) ==
	                      LOCALZONE_OK,
	              "%s", err);
	return lz;
}

/* The first record's type, owner and RDATA of an image. */
static uint16_t first_rr(const struct answer *a, const uint8_t **owner,
                         size_t *olen, const uint8_t **rd, size_t *rdlen)
{
	const uint8_t *p = a->an;
	size_t n = 0;

	while (p[n] != 0)
		n += (size_t)p[n] + 1;
	*owner = p;
	*olen = n + 1;
	p += n + 1;
	*rdlen = (size_t)(p[8] << 8 | p[9]);
	*rd = p + 10;
	return (uint16_t)(p[0] << 8 | p[1]);
}

/* What lz answers for question q, checked against w. */
static void check_one(struct localzone *lz, size_t row, int q, enum want w)
{
	static const uint8_t apex_a[] = { 192, 0, 2, 1 },
			     d_a[] = { 192, 0, 2, 2 };
	static const uint8_t null4[4] = { 0 };
	uint8_t name[WIRE_NAME_MAX], buf[LOCALZONE_ANSWER_MAX];
	const uint8_t *owner, *rd;
	size_t len, olen, rdlen;
	struct answer a;
	unsigned flags = 0;
	int rc;

	ck_assert_int_eq(wire_name_from_text(qnames[q], strlen(qnames[q]),
	                                     name, &len),
	                 WIRE_OK);
	rc = localzone_answer2(lz, name, len, qtypes[q], WIRE_CLASS_IN, &a,
	                       buf, sizeof buf, &flags);
	ck_assert_msg((flags == LOCALZONE_INFORM) == table[row].inform,
	              "%s: inform flag", table[row].type);
	if (w == W_RESOLVE || w == W_DROP) {
		ck_assert_msg(rc == (w == W_DROP ? LOCALZONE_DROP :
		                                   LOCALZONE_ENOTLOCAL),
		              "%s %s %d: rc %d", table[row].type, qnames[q],
		              qtypes[q], rc);
		return;
	}
	ck_assert_msg(rc == LOCALZONE_OK, "%s %s %d: rc %d", table[row].type,
	              qnames[q], qtypes[q], rc);
	switch (w) {
	case W_NXDOMAIN:
	case W_REFUSED:
	case W_NODATA:
		ck_assert_msg(a.rcode == (w == W_NXDOMAIN ?
		                                  WIRE_RCODE_NXDOMAIN :
		                          w == W_REFUSED ?
		                                  WIRE_RCODE_REFUSED :
		                                  WIRE_RCODE_NOERROR) &&
		                      a.an_count == 0,
		              "%s %s %d: rcode %d an %d", table[row].type,
		              qnames[q], qtypes[q], a.rcode, a.an_count);
		return;
	default: break;
	}
	ck_assert_msg(a.rcode == WIRE_RCODE_NOERROR && a.an_count == 1,
	              "%s %s: rcode %d an %d", table[row].type, qnames[q],
	              a.rcode, a.an_count);
	ck_assert_uint_eq(first_rr(&a, &owner, &olen, &rd, &rdlen),
	                  WIRE_TYPE_A);
	ck_assert_uint_eq(olen, len);
	ck_assert_mem_eq(owner, name, len);
	ck_assert_uint_eq(rdlen, 4);
	if (w == W_NULL)
		ck_assert_mem_eq(rd, null4, 4);
	else if (w == W_REDIR || q == 3)
		ck_assert_mem_eq(rd, apex_a, 4);
	else
		ck_assert_mem_eq(rd, d_a, 4);
}

START_TEST(test_types)
{
	char conf[512];
	struct localzone *lz;
	int q;

	snprintf(conf, sizeof conf,
	         "local-zone: \"z.example.\" %s\n"
	         "local-data: \"z.example. A 192.0.2.1\"\n"
	         "local-data: \"d.z.example. 300 IN A 192.0.2.2\"\n",
	         table[_i].type);
	lz = build(conf);
	for (q = 0; q < 4; q++)
		check_one(lz, (size_t)_i, q, table[_i].want[q]);
	localzone_free(lz);
}
END_TEST

/* A redirect zone without data at its apex: NXDOMAIN below it; a CNAME
 * answers any type; AAAA of always_null is ::. */
START_TEST(test_edges)
{
	static const uint8_t null6[16] = { 0 };
	struct localzone *lz =
		build("local-zone: r.example. redirect\n"
	              "local-zone: n.example. always_null\n"
	              "local-data: \"c.lan. CNAME host.lan.\"\n"
	              "local-data-ptr: \"192.0.2.7 host.lan.\"\n");
	uint8_t name[WIRE_NAME_MAX], buf[LOCALZONE_ANSWER_MAX];
	const uint8_t *owner, *rd;
	size_t len, olen, rdlen;
	struct answer a;

	ck_assert_int_eq(wire_name_from_text("x.r.example", 11, name, &len),
	                 WIRE_OK);
	ck_assert_int_eq(localzone_answer(lz, name, len, WIRE_TYPE_A,
	                                  WIRE_CLASS_IN, &a, buf, sizeof buf),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_int_eq(wire_name_from_text("c.lan", 5, name, &len), WIRE_OK);
	ck_assert_int_eq(localzone_answer(lz, name, len, WIRE_TYPE_A,
	                                  WIRE_CLASS_IN, &a, buf, sizeof buf),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(first_rr(&a, &owner, &olen, &rd, &rdlen),
	                  WIRE_TYPE_CNAME);
	ck_assert_int_eq(wire_name_from_text("a.n.example", 11, name, &len),
	                 WIRE_OK);
	ck_assert_int_eq(localzone_answer(lz, name, len, WIRE_TYPE_AAAA,
	                                  WIRE_CLASS_IN, &a, buf, sizeof buf),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(first_rr(&a, &owner, &olen, &rd, &rdlen),
	                  WIRE_TYPE_AAAA);
	ck_assert_uint_eq(rdlen, 16);
	ck_assert_mem_eq(rd, null6, 16);
	ck_assert_int_eq(wire_name_from_text("7.2.0.192.in-addr.arpa", 22,
	                                     name, &len),
	                 WIRE_OK);
	ck_assert_int_eq(localzone_answer(lz, name, len, WIRE_TYPE_PTR,
	                                  WIRE_CLASS_IN, &a, buf, sizeof buf),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(first_rr(&a, &owner, &olen, &rd, &rdlen),
	                  WIRE_TYPE_PTR);
	ck_assert_mem_eq(rd, "\4host\3lan", 10);
	localzone_free(lz);
}
END_TEST

/* Bad RDATA is refused when the table is built (curvecache -t too). */
START_TEST(test_bad_rdata)
{
	static struct cfg c;
	struct localzone *lz = NULL;
	char err[CFG_ERR_BYTES];
	static const char conf[] = "local-data: \"h.lan. A 10.0.0\"\n";

	cfg_defaults(&c);
	ck_assert_int_eq(cfg_parse("t.conf", conf, strlen(conf), &c, err,
	                           sizeof err),
	                 0);
	ck_assert_int_eq(localzone_build(c.local, &lz, err, sizeof err),
	                 LOCALZONE_EINVAL);
	ck_assert_ptr_null(lz);
	ck_assert_msg(strstr(err, "bad RDATA \"10.0.0\"") != NULL, "%s", err);
}
END_TEST

/* Many zones: each is found, names between them are not. */
START_TEST(test_many)
{
	enum { MANY = 20000 };
	size_t cap = (size_t)MANY * 48, n = 0, i;
	char *conf = malloc(cap), text[64];
	uint8_t name[WIRE_NAME_MAX], buf[LOCALZONE_ANSWER_MAX];
	struct localzone *lz;
	struct answer a;
	size_t len;

	ck_assert_ptr_nonnull(conf);
	for (i = 0; i < MANY; i++)
		n += (size_t)snprintf(conf + n, cap - n,
		                      "local-zone: ad%zu.example. "
		                      "always_nxdomain\n",
		                      i);
	lz = build(conf);
	free(conf);
	for (i = 0; i < MANY; i += 997) {
		snprintf(text, sizeof text, "www.ad%zu.example", i);
		ck_assert_int_eq(wire_name_from_text(text, strlen(text), name,
		                                     &len),
		                 WIRE_OK);
		ck_assert_int_eq(localzone_answer(lz, name, len, WIRE_TYPE_A,
		                                  WIRE_CLASS_IN, &a, buf,
		                                  sizeof buf),
		                 LOCALZONE_OK);
		ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	}
	ck_assert_int_eq(wire_name_from_text("ad.example", 10, name, &len),
	                 WIRE_OK);
	ck_assert_int_eq(localzone_answer(lz, name, len, WIRE_TYPE_A,
	                                  WIRE_CLASS_IN, &a, buf, sizeof buf),
	                 LOCALZONE_ENOTLOCAL);
	localzone_free(lz);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("localzone_types");
	TCase *tc = tcase_create("types");
	SRunner *sr;
	int failed;

	tcase_add_loop_test(tc, test_types, 0,
	                    (int)(sizeof table / sizeof table[0]));
	tcase_add_test(tc, test_edges);
	tcase_add_test(tc, test_bad_rdata);
	tcase_add_test(tc, test_many);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
