/*
 * tests/unit/check_cachedb.c - Suite "cachedb": the Redis tier's options
 * (resolver/conf/cfg_cachedb.c) and its record image
 * (resolver/store/cachedb.c): built from a cache, read back into another
 * with rank and DNSSEC status; refused when forged, altered, of another
 * version, expired or of another question.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sodium.h>

#include "conf/cfg.h"
#include "store/cachedb.h"
#include "cachetest.h"

static struct cfg conf;
static char err[CFG_ERR_BYTES];
static const uint8_t key[CACHEDB_KEY_BYTES] = { 7, 7, 7 };
static uint8_t scratch[CACHEDB_SCRATCH_BYTES];

static int parse(const char *text)
{
	cfg_defaults(&conf);
	err[0] = '\0';
	return cfg_parse("test.conf", text, strlen(text), &conf, err,
	                 sizeof err);
}

/* A secret file of n bytes; its path in out. */
static void secret_file(char *out, size_t cap, size_t n)
{
	char buf[64];
	FILE *f;

	snprintf(out, cap, "/tmp/check_cachedb_%ld_%zu", (long)getpid(), n);
	memset(buf, 'x', sizeof buf);
	f = fopen(out, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(buf, 1, n, f), n);
	fclose(f);
}

START_TEST(test_options)
{
	char path[128], text[512];

	ck_assert_int_eq(parse(""), 0);
	ck_assert(!conf.cachedb.on);
	ck_assert_uint_eq(conf.cachedb.port, 6379);
	ck_assert_uint_eq(conf.cachedb.timeout_ms, 100);
	secret_file(path, sizeof path, 40);
	snprintf(text, sizeof text,
	         "cachedb:\n cachedb-backend: redis\n"
	         " redis-server-host: 127.53.9.1\n redis-server-port: 6390\n"
	         " redis-timeout: 250\n redis-expire-records: no\n"
	         " cachedb-no-store: yes\n redis-server-password: pw\n"
	         " cachedb-secret-file: %s\nserver:\n port: 5353\n",
	         path);
	ck_assert_msg(parse(text) == 0, "%s", err);
	ck_assert(conf.cachedb.on && conf.cachedb.key_set);
	ck_assert_str_eq(conf.cachedb.host, "127.53.9.1");
	ck_assert_uint_eq(conf.cachedb.port, 6390);
	ck_assert_uint_eq(conf.cachedb.timeout_ms, 250);
	ck_assert(!conf.cachedb.expire_records && conf.cachedb.no_store);
	ck_assert_str_eq(conf.cachedb.password, "pw");
	unlink(path);
}
END_TEST

START_TEST(test_options_reject)
{
	char path[128], text[256];

	ck_assert_int_ne(parse("cachedb-backend: memcached\n"), 0);
	ck_assert_ptr_nonnull(strstr(err, "test.conf:1"));
	/* the backend without a secret: FILE:LINE of the backend line */
	ck_assert_int_ne(parse("port: 53\ncachedb-backend: redis\n"), 0);
	ck_assert_ptr_nonnull(strstr(err, "test.conf:2: cachedb-backend"));
	ck_assert_int_ne(parse("redis-timeout: 0\n"), 0);
	ck_assert_int_ne(parse("redis-server-port: 70000\n"), 0);
	ck_assert_int_ne(parse("cachedb-no-store: maybe\n"), 0);
	ck_assert_int_ne(parse("cachedb-secret-file: /nonexistent/x\n"), 0);
	secret_file(path, sizeof path, 31);
	snprintf(text, sizeof text, "cachedb-secret-file: %s\n", path);
	ck_assert_int_ne(parse(text), 0);
	ck_assert_ptr_nonnull(strstr(err, "at least 32"));
	unlink(path);
}
END_TEST

/* The image of www.example.lab. A (secure, auth) from the test cache. */
static uint8_t *build(const char *qname, uint16_t qtype, size_t *len,
                      struct cachedb_question *q, uint8_t *qn)
{
	uint8_t *img = NULL;
	uint32_t ttl = 0;

	q->qname = qn;
	q->qname_len = wname(qn, qname);
	q->qtype = qtype;
	q->qclass = WIRE_CLASS_IN;
	q->flags = 0;
	ck_assert_int_eq(cachedb_image_build(c, CACHETEST_T0, key, q, scratch,
	                                     sizeof scratch, &img, len, &ttl),
	                 CACHEDB_OK);
	ck_assert_uint_eq(ttl, 300);
	return img;
}

static void put_secure(const char *name, const uint8_t *rd)
{
	uint8_t n[WIRE_NAME_MAX];
	struct cache_rdata r = { rd, 4 };
	struct cache_rrset set = {
		n, wname(n, name),  WIRE_TYPE_A, WIRE_CLASS_IN,    300,  &r,
		1, CACHE_RANK_AUTH, NULL,        CACHE_SEC_SECURE, NULL, 0
	};

	ck_assert_int_eq(cache_rrset_put(c, &set, CACHETEST_T0), CACHE_OK);
}

START_TEST(test_image_round_trip)
{
	static const uint8_t a[4] = { 127, 0, 0, 3 };
	struct cachedb_question q;
	struct cachedb_image im;
	struct cache_answer ans;
	struct cache_query cq;
	uint8_t qn[WIRE_NAME_MAX], out[512], *img;
	struct cache *saved = c;
	struct cachefile_load *ld = NULL;
	size_t len, n = 0;

	put_secure("www.example.lab.", a);
	img = build("www.example.lab.", WIRE_TYPE_A, &len, &q, qn);
	ck_assert_int_eq(cachedb_image_parse(img, len, key, CACHETEST_T0 + 10,
	                                     &q, &im),
	                 CACHEDB_OK);
	ck_assert_uint_eq(im.sec, CACHE_SEC_SECURE);
	cachetest_setup(); /* a fresh cache: another member */
	ck_assert_int_eq(cachedb_image_load(c, NULL, CACHETEST_T0 + 10, &im,
	                                    &n),
	                 CACHEDB_OK);
	ck_assert_uint_eq(n, 1);
	/* again through a kept loader (the worker's): the same entry */
	ck_assert_int_eq(cachefile_load_new(c, 0, &ld), CACHEFILE_OK);
	ck_assert_int_eq(cachedb_image_load(c, ld, CACHETEST_T0 + 10, &im, &n),
	                 CACHEDB_OK);
	ck_assert_int_eq(cachedb_image_load(c, ld, CACHETEST_T0 + 10, &im, &n),
	                 CACHEDB_OK);
	cachefile_load_free(ld);
	cq = (struct cache_query){ q.qname, q.qname_len, WIRE_TYPE_A,
		                   WIRE_CLASS_IN, 0 };
	ck_assert_int_eq(cache_get(c, &cq, CACHETEST_T0 + 10, &ans, out,
	                           sizeof out),
	                 CACHE_OK);
	ck_assert_uint_eq(ans.sec, CACHE_SEC_SECURE);
	ck_assert_uint_eq(ans.rank, CACHE_RANK_AUTH);
	ck_assert_uint_eq(ans.ttl, 290);
	cachetest_teardown();
	c = saved;
	free(img);
}
END_TEST

START_TEST(test_image_refused)
{
	static const uint8_t a[4] = { 127, 0, 0, 3 };
	static const uint8_t other[CACHEDB_KEY_BYTES] = { 8 };
	struct cachedb_question q, q2;
	struct cachedb_image im;
	uint8_t qn[WIRE_NAME_MAX], qn2[WIRE_NAME_MAX], *img;
	size_t len, i;

	put_secure("www.example.lab.", a);
	img = build("www.example.lab.", WIRE_TYPE_A, &len, &q, qn);
	ck_assert_int_eq(cachedb_image_parse(img, len, other, CACHETEST_T0,
	                                     NULL, &im),
	                 CACHEDB_EMAC);
	ck_assert_int_eq(cachedb_image_parse(img, len, key, CACHETEST_T0 + 300,
	                                     NULL, &im),
	                 CACHEDB_EEXPIRED);
	q2 = q;
	q2.qname = qn2;
	q2.qname_len = wname(qn2, "xxx.example.lab.");
	ck_assert_int_eq(cachedb_image_parse(img, len, key, CACHETEST_T0, &q2,
	                                     &im),
	                 CACHEDB_EQUESTION);
	/* every shorter prefix and every flipped byte is refused */
	for (i = 0; i < len; i++)
		ck_assert_int_ne(cachedb_image_parse(img, i, key, CACHETEST_T0,
		                                     NULL, &im),
		                 CACHEDB_OK);
	for (i = 0; i < len; i++) {
		img[i] ^= 0x40;
		ck_assert_int_ne(cachedb_image_parse(img, len, key,
		                                     CACHETEST_T0, NULL, &im),
		                 CACHEDB_OK);
		img[i] ^= 0x40;
	}
	/* another version, sealed with the right key: EVERSION */
	img[4] = CACHEDB_VERSION + 1;
	crypto_generichash(img + len - CACHEDB_MAC_BYTES, CACHEDB_MAC_BYTES,
	                   img, len - CACHEDB_MAC_BYTES, key, sizeof key);
	ck_assert_int_eq(cachedb_image_parse(img, len, key, CACHETEST_T0, NULL,
	                                     &im),
	                 CACHEDB_EVERSION);
	free(img);
}
END_TEST

START_TEST(test_image_miss_and_key)
{
	struct cachedb_question q = { NULL, 0, WIRE_TYPE_A, WIRE_CLASS_IN, 0 };
	uint8_t qn[WIRE_NAME_MAX], *img = NULL;
	char k1[CACHEDB_KEY_TEXT_BYTES], k2[CACHEDB_KEY_TEXT_BYTES];
	size_t len = 0;
	uint32_t ttl;

	q.qname = qn;
	q.qname_len = wname(qn, "nothing.lab.");
	ck_assert_int_eq(cachedb_image_build(c, CACHETEST_T0, key, &q, scratch,
	                                     sizeof scratch, &img, &len, &ttl),
	                 CACHEDB_EEMPTY);
	ck_assert_ptr_null(img);
	cachedb_key_text(key, &q, k1);
	ck_assert_uint_eq(strlen(k1), strlen(CACHEDB_KEY_PREFIX) + 32);
	q.qtype = WIRE_TYPE_AAAA;
	cachedb_key_text(key, &q, k2);
	ck_assert_str_ne(k1, k2);
}
END_TEST

static Suite *cachedb_suite(void)
{
	Suite *s = suite_create("cachedb");
	TCase *tc = tcase_create("options");

	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_options_reject);
	suite_add_tcase(s, tc);
	tc = tcase_create("image");
	tcase_add_checked_fixture(tc, cachetest_setup, cachetest_teardown);
	tcase_add_test(tc, test_image_round_trip);
	tcase_add_test(tc, test_image_refused);
	tcase_add_test(tc, test_image_miss_and_key);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(cachedb_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
