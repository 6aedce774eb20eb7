/*
 * tests/unit/check_localdata.c - Suite "localdata": local-data-file and
 * block-file (resolver/policy/localdata.c): parsing, answers, errors with
 * FILE:LINE, files.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "policy/localdata.h"
#include "wire/wire.h"

static struct localdata *ld;
static char err[LOCALDATA_ERR_BYTES];
static uint8_t buf[4096];

static const char hosts[] =
	"# a hosts file\n"
	"192.168.1.10   printer.home.arpa Printer.LAN  # two names\n"
	"\n"
	"fd00::10\tprinter.home.arpa\n"
	"192.168.1.11 scanner.home.arpa\n"
	"192.168.1.10 second.home.arpa\n";
static const char block[] =
	"ads.example\n"
	"0.0.0.0 tracker.example pixel.example # hosts style\n"
	"  # comment only\n";

static void build(const char *h, const char *b)
{
	ck_assert_int_eq(localdata_new(&ld), LOCALDATA_OK);
	ck_assert_msg(localdata_add_text(ld, LOCALDATA_HOSTS, "hosts", h,
	                                 strlen(h), err,
	                                 sizeof err) == LOCALDATA_OK,
	              "%s", err);
	ck_assert_msg(localdata_add_text(ld, LOCALDATA_BLOCK, "block", b,
	                                 strlen(b), err,
	                                 sizeof err) == LOCALDATA_OK,
	              "%s", err);
	ck_assert_int_eq(localdata_finish(ld), LOCALDATA_OK);
}

static void teardown(void)
{
	localdata_free(ld);
	ld = NULL;
}

static int ask(const char *name, uint16_t type, struct answer *a,
               bool *blocked)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len;

	ck_assert_int_eq(wire_name_from_text(name, strlen(name), n, &len),
	                 WIRE_OK);
	wire_name_lower(n, len);
	return localdata_answer(ld, n, len, type, WIRE_CLASS_IN, a, buf,
	                        sizeof buf, blocked);
}

/* The RDATA of the i-th record image of the answer section. */
static const uint8_t *rdata(const struct answer *a, size_t i,
                            struct wire_rr *rr)
{
	size_t pos = 0, k;

	for (k = 0; k <= i; k++)
		ck_assert_int_eq(wire_read_rr(a->an, a->an_len, &pos, rr),
		                 WIRE_OK);
	return a->an + rr->rdata;
}

START_TEST(test_addresses)
{
	static const uint8_t ip4[4] = { 192, 168, 1, 10 };
	struct answer a;
	struct wire_rr rr;
	bool blocked = true;

	build(hosts, block);
	ck_assert_int_eq(ask("printer.home.arpa", WIRE_TYPE_A, &a, &blocked),
	                 LOCALDATA_OK);
	ck_assert(!blocked);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_mem_eq(rdata(&a, 0, &rr), ip4, 4);
	ck_assert_uint_eq(rr.ttl, LOCALDATA_TTL);
	ck_assert_uint_eq(rr.type, WIRE_TYPE_A);
	ck_assert_int_eq(ask("printer.home.arpa", WIRE_TYPE_AAAA, &a, NULL),
	                 LOCALDATA_OK);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_uint_eq(rdata(&a, 0, &rr)[0], 0xfd);
	/* Case does not matter; other types are NODATA. */
	ck_assert_int_eq(ask("PRINTER.lan", WIRE_TYPE_A, &a, NULL),
	                 LOCALDATA_OK);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_int_eq(ask("printer.lan", WIRE_TYPE_MX, &a, NULL),
	                 LOCALDATA_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 0);
	ck_assert_int_eq(ask("printer.home.arpa", WIRE_TYPE_ANY, &a, NULL),
	                 LOCALDATA_OK);
	ck_assert_uint_eq(a.an_count, 2);
	/* Not local: other names, names below a local one. */
	ck_assert_int_eq(ask("www.printer.lan", WIRE_TYPE_A, &a, NULL),
	                 LOCALDATA_ENOTLOCAL);
	ck_assert_int_eq(ask("home.arpa", WIRE_TYPE_A, &a, NULL),
	                 LOCALDATA_ENOTLOCAL);
}
END_TEST

START_TEST(test_ptr)
{
	static const uint8_t first[] = "\007printer\004home\004arpa";
	struct answer a;
	struct wire_rr rr;

	build(hosts, "");
	ck_assert_int_eq(ask("10.1.168.192.in-addr.arpa", WIRE_TYPE_PTR, &a,
	                     NULL),
	                 LOCALDATA_OK);
	/* Two lines give the address: the first line's first name. */
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_mem_eq(rdata(&a, 0, &rr), first, sizeof first);
	ck_assert_int_eq(ask("0.1.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0"
	                     ".0.0.0.0.0.0.d.f.ip6.arpa",
	                     WIRE_TYPE_PTR, &a, NULL),
	                 LOCALDATA_OK);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_int_eq(ask("11.1.168.192.in-addr.arpa", WIRE_TYPE_PTR, &a,
	                     NULL),
	                 LOCALDATA_OK);
	ck_assert_uint_eq(a.an_count, 1);
}
END_TEST

START_TEST(test_block)
{
	struct answer a;
	bool blocked = false;

	build(hosts, block);
	ck_assert_int_eq(ask("ads.example", WIRE_TYPE_A, &a, &blocked),
	                 LOCALDATA_OK);
	ck_assert(blocked);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(a.an_count + a.ns_count, 0);
	ck_assert_int_eq(ask("x.y.Tracker.example", WIRE_TYPE_TXT, &a,
	                     &blocked),
	                 LOCALDATA_OK);
	ck_assert(blocked);
	ck_assert_int_eq(ask("pixel.example", WIRE_TYPE_AAAA, &a, &blocked),
	                 LOCALDATA_OK);
	ck_assert_int_eq(ask("example", WIRE_TYPE_A, &a, &blocked),
	                 LOCALDATA_ENOTLOCAL);
	ck_assert(!blocked);
	ck_assert_int_eq(ask("xads.example", WIRE_TYPE_A, &a, &blocked),
	                 LOCALDATA_ENOTLOCAL);
}
END_TEST

/* A local name wins over a blocked ancestor; "." blocks everything. */
START_TEST(test_block_root_and_local_wins)
{
	struct answer a;
	bool blocked;

	build("10.0.0.1 ok.blocked.example\n", "blocked.example\n.\n");
	ck_assert_int_eq(ask("ok.blocked.example", WIRE_TYPE_A, &a, &blocked),
	                 LOCALDATA_OK);
	ck_assert(!blocked);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_int_eq(ask("www.debian.org", WIRE_TYPE_A, &a, &blocked),
	                 LOCALDATA_OK);
	ck_assert(blocked);
}
END_TEST

START_TEST(test_empty_and_null)
{
	struct answer a;
	static const uint8_t root[1] = { 0 };

	build("", "");
	ck_assert_int_eq(ask("printer.lan", WIRE_TYPE_A, &a, NULL),
	                 LOCALDATA_ENOTLOCAL);
	ck_assert_int_eq(localdata_answer(NULL, root, 1, 1, 1, &a, buf,
	                                  sizeof buf, NULL),
	                 LOCALDATA_ENOTLOCAL);
}
END_TEST

START_TEST(test_reject_lines)
{
	static const struct {
		enum localdata_kind k;
		const char *t;
	} bad[] = {
		{ LOCALDATA_HOSTS, "# ok\n192.168.1.300 x.lan\n" },
		{ LOCALDATA_HOSTS, "# ok\nprinter.lan 192.168.1.1\n" },
		{ LOCALDATA_HOSTS, "# ok\n192.168.1.1\n" },
		{ LOCALDATA_HOSTS, "# ok\n10.0.0.1 a..b\n" },
		{ LOCALDATA_BLOCK, "# ok\nads.example tracker.example\n" },
		{ LOCALDATA_BLOCK, "# ok\n0.0.0.0\n" },
		{ LOCALDATA_BLOCK, "# ok\nbad..name\n" },
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_int_eq(localdata_new(&ld), LOCALDATA_OK);
		ck_assert_int_eq(localdata_add_text(ld, bad[i].k, "f.txt",
		                                    bad[i].t, strlen(bad[i].t),
		                                    err, sizeof err),
		                 LOCALDATA_EPARSE);
		ck_assert_msg(strncmp(err, "f.txt:2: ", 9) == 0, "%s", err);
		localdata_free(ld);
	}
	ld = NULL;
	ck_assert_str_eq(localdata_strerror(LOCALDATA_EPARSE), "bad line");
	ck_assert_str_eq(localdata_strerror(-7), "unknown status");
}
END_TEST

START_TEST(test_files)
{
	char hp[] = "/tmp/check_localdata_h.XXXXXX";
	char bp[] = "/tmp/check_localdata_b.XXXXXX";
	int hf = mkstemp(hp), bf = mkstemp(bp);
	size_t nrec, nblk;

	ck_assert(hf >= 0 && bf >= 0);
	ck_assert_int_eq(write(hf, hosts, strlen(hosts)), (int)strlen(hosts));
	ck_assert_int_eq(write(bf, "ok.example\nbad name here\n", 25), 25);
	close(hf);
	close(bf);
	ck_assert_int_eq(localdata_load(hp, "", &ld, err, sizeof err),
	                 LOCALDATA_OK);
	localdata_counts(ld, &nrec, &nblk);
	ck_assert_uint_eq(nrec, 9); /* 5 addresses, 4 PTR */
	ck_assert_uint_eq(nblk, 0);
	localdata_free(ld);
	ld = NULL;
	ck_assert_int_eq(localdata_load(hp, bp, &ld, err, sizeof err),
	                 LOCALDATA_EPARSE);
	ck_assert_ptr_null(ld);
	ck_assert_msg(strstr(err, ":2: one name a line") != NULL, "%s", err);
	ck_assert_int_eq(localdata_load("/nonexistent/hosts", "", &ld, err,
	                                sizeof err),
	                 LOCALDATA_EFILE);
	ck_assert_msg(strncmp(err, "/nonexistent/hosts: ", 20) == 0, "%s",
	              err);
	ck_assert_int_eq(localdata_load("/tmp", "", &ld, err, sizeof err),
	                 LOCALDATA_EFILE);
	unlink(hp);
	unlink(bp);
}
END_TEST

static Suite *localdata_suite(void)
{
	Suite *s = suite_create("localdata");
	TCase *tc = tcase_create("answer");

	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_addresses);
	tcase_add_test(tc, test_ptr);
	tcase_add_test(tc, test_block);
	tcase_add_test(tc, test_block_root_and_local_wins);
	tcase_add_test(tc, test_empty_and_null);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_add_test(tc, test_reject_lines);
	tcase_add_test(tc, test_files);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(localdata_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
