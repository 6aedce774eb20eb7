/*
 * tests/unit/check_anchor.c - Suite "anchor": trust anchors
 * (resolver/anchor/anchor.h): the built-in IANA root DS records tied to
 * the root KSKs by their digests, zone-file text (root.key, DS lines,
 * $ORIGIN, parentheses, comments), every syntax error with its
 * FILE:LINE, the option form, the closest-anchor lookup and negative
 * anchors; and the daemon's choice of anchors (resolver/daemon/trust.h).
 */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conf/cfg.h"
#include "daemon/trust.h"
#include "anchor/anchor.h"
#include "validate/dnssec.h"
#include "wire/wire.h"

/* The DNSKEY RDATA of the root KSKs (flags 257, protocol 3, algorithm 8,
 * key), typed from IANA's root-anchors.xml / Debian's root.key. */
static const char ksk2017_hex[] =
	"0101030803010001acffb409bcc939f831f7a1e5ec88f7a59255ec53040be432"
	"027390a4ce896d6f9086f3c5e177fbfe118163aaec7af1462c47945944c4e2c0"
	"26be5e98bbcded25978272e1e3e079c5094d573f0e83c92f02b32d3513b1550b"
	"826929c80dd0f92cac966d17769fd5867b647c3f38029abdc48152eb8f207159"
	"ecc5d232c7c1537c79f4b7ac28ff11682f21681bf6d6aba555032bf6f9f036be"
	"b2aaa5b3778d6eebfba6bf9ea191be4ab0caea759e2f773a1f9029c73ecb8d57"
	"35b9321db085f1b8e2d8038fe2941992548cee0d67dd4547e11dd63af9c9fc1c"
	"5466fb684cf009d7197c2cf79e792ab501e6a8a1ca519af2cb9b5f6367e94c0d"
	"47502451357be1b5";
static const char ksk2024_hex[] =
	"0101030803010001af7a8deba49d995a792aefc80263e991efdbc86138a931de"
	"b2c65d5682eab5d3b03738e3dfdc89d96da64c86c0224d9ce02514d285da3068"
	"b19054e5e787b2969058e98e12566c8c808c40c0b769e1db1a24a1bd9b31e303"
	"184a31fc7bb56b85bbba8abc02cd5040a444a36d47695969849e16ad856bb58e"
	"8fac8855224400319bdab224d83fc0e66aab32ff74bfeaf0f91c454e6850a129"
	"5207bbd4cdde8f6ffb08faa9755c2e3284efa01f99393e18786cb132f1e66ebc"
	"6517318e1ce8a3b7337ebb54d035ab57d9706ecd9350d4afacd825e43c8668ee"
	"ce89819caf6817af62dc4fbd82f0e33f6647b2b6bda175f14607f59f4635451e"
	"6b27df282ef73d87";

/* KSK-2017 in base64, as root.key writes it. */
#define KSK2017_B64_1 \
	"AwEAAaz/tAm8yTn4Mfeh5eyI96WSVexTBAvkMgJzkKTOiW1vkIbzxeF3+/4RgWOq" \
	"7HrxRixHlFlExOLAJr5emLvN7SWXgnLh4+B5xQlNVz8Og8kvArMtNROxVQuCaSnI"
#define KSK2017_B64_2 \
	"DdD5LKyWbRd2n9WGe2R8PzgCmr3EgVLrjyBxWezF0jLHwVN8efS3rCj/EWgvIWgb" \
	"9tarpVUDK/b58Da+sqqls3eNbuv7pr+eoZG+SrDK6nWeL3c6H5Apxz7LjVc1uTId"
#define KSK2017_B64_3 \
	"sIXxuOLYA4/ilBmSVIzuDWfdRUfhHdY6+cn8HFRm+2hM8AnXGXws9555KrUB5qih" \
	"ylGa8subX2Nn6UwNR1AkUTV74bU="

#define DS20326 \
	"20326 8 2 " \
	"E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D"
#define SHA1_HEX "2bb183af5f22588179a53b0a98631fad1a292118"

static uint8_t root[1] = { 0 };
static struct anchors *a;
static char err[ANCHOR_ERR_MAX];
static char path[64];

static size_t unhex(const char *h, uint8_t *out, size_t cap)
{
	size_t n = strlen(h) / 2, i;
	unsigned v;

	ck_assert_uint_le(n, cap);
	for (i = 0; i < n; i++) {
		ck_assert_int_eq(sscanf(h + 2 * i, "%2x", &v), 1);
		out[i] = (uint8_t)v;
	}
	return n;
}

static size_t name(const char *text, uint8_t out[WIRE_NAME_MAX])
{
	size_t len;

	ck_assert_int_eq(wire_name_from_text(text, strlen(text), out, &len),
	                 WIRE_OK);
	return len;
}

static void setup(void)
{
	int fd;

	ck_assert_int_eq(anchors_new(&a), ANCHOR_OK);
	err[0] = '\0';
	snprintf(path, sizeof path, "/tmp/check_anchor.XXXXXX");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	close(fd);
}

static void teardown(void)
{
	anchors_free(a);
	a = NULL;
	unlink(path);
}

/* Write text to the test's file and read it as a trust-anchor-file. */
static int load(const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(text, 1, strlen(text), f), strlen(text));
	ck_assert_int_eq(fclose(f), 0);
	err[0] = '\0';
	return anchors_add_file(a, path, err, sizeof err);
}

/* The anchor of a zone (which must exist). */
static const struct anchor *zone(const char *text)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len = name(text, n);
	const struct anchor *z = anchors_find(a, n, len);

	ck_assert_ptr_nonnull(z);
	ck_assert(wire_name_equal(z->name, z->namelen, n, len));
	return z;
}

/* ------------------------------------------------------------------ */
/* The built-in root anchors                                            */

/* Each built-in DS is the digest of its KSK and of no other key: the
 * digests typed into anchor.c are tied to the keys typed here. */
START_TEST(test_builtin_matches_ksks)
{
	uint8_t k17[300], k24[300];
	size_t n17 = unhex(ksk2017_hex, k17, sizeof k17);
	size_t n24 = unhex(ksk2024_hex, k24, sizeof k24);
	const struct anchor *z;

	ck_assert_uint_eq(dnssec_key_tag(k17, n17), 20326);
	ck_assert_uint_eq(dnssec_key_tag(k24, n24), 38696);
	ck_assert_int_eq(anchors_add_builtin(a), ANCHOR_OK);
	ck_assert_uint_eq(anchors_count(a), 1);
	z = zone(".");
	ck_assert_uint_eq(z->nds, 2);
	ck_assert_uint_eq(z->ndnskey, 0);
	ck_assert_int_eq(dnssec_ds_match(z->ds[0].data, z->ds[0].len, root, 1,
	                                 k17, n17),
	                 DNSSEC_OK);
	ck_assert_int_eq(dnssec_ds_match(z->ds[1].data, z->ds[1].len, root, 1,
	                                 k24, n24),
	                 DNSSEC_OK);
	ck_assert_int_eq(dnssec_ds_match(z->ds[0].data, z->ds[0].len, root, 1,
	                                 k24, n24),
	                 DNSSEC_EMISMATCH);
	ck_assert_int_eq(dnssec_ds_match(z->ds[1].data, z->ds[1].len, root, 1,
	                                 k17, n17),
	                 DNSSEC_EMISMATCH);
	/* twice is once */
	ck_assert_int_eq(anchors_add_builtin(a), ANCHOR_OK);
	ck_assert_uint_eq(zone(".")->nds, 2);
}
END_TEST

/* Debian's root.key, when installed, holds the same two keys. */
START_TEST(test_debian_root_key)
{
	uint8_t k17[300], k24[300];
	size_t n17 = unhex(ksk2017_hex, k17, sizeof k17);
	size_t n24 = unhex(ksk2024_hex, k24, sizeof k24);
	const struct anchor *z;

	if (access(ANCHOR_DEBIAN_ROOT_KEY, R_OK) != 0)
		return; /* dns-root-data not installed */
	ck_assert_int_eq(anchors_add_file(a, ANCHOR_DEBIAN_ROOT_KEY, err,
	                                  sizeof err),
	                 ANCHOR_OK);
	z = zone(".");
	ck_assert_uint_eq(z->ndnskey, 2);
	ck_assert_uint_eq(z->dnskey[0].len, n17);
	ck_assert_mem_eq(z->dnskey[0].data, k17, n17);
	ck_assert_uint_eq(z->dnskey[1].len, n24);
	ck_assert_mem_eq(z->dnskey[1].data, k24, n24);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Zone-file text                                                       */

/* A root.key of an Unbound or BIND style: comments, $TTL, a DNSKEY over
 * several lines in parentheses, a blank owner, a DS. */
START_TEST(test_root_key_file)
{
	uint8_t k17[300];
	size_t n17 = unhex(ksk2017_hex, k17, sizeof k17);
	const struct anchor *z;

	ck_assert_int_eq(load("; autotrust trust anchor file\n"
	                      ";;id: . 1\n"
	                      "\n"
	                      "$TTL 172800\n"
	                      ".\t172800\tIN\tDNSKEY\t257 3 8 ( ; KSK-2017\n"
	                      "\t\t" KSK2017_B64_1 "\n"
	                      "\t\t" KSK2017_B64_2 " ; more key\n"
	                      "\t\t" KSK2017_B64_3 "\n"
	                      "\t\t) ; {id = 20326 (ksk), size = 2048b}\n"
	                      "\tIN 3600 DS " DS20326 "\r\n"),
	                 ANCHOR_OK);
	ck_assert_uint_eq(anchors_count(a), 1);
	z = zone(".");
	ck_assert_uint_eq(z->ndnskey, 1);
	ck_assert_uint_eq(z->dnskey[0].len, n17);
	ck_assert_mem_eq(z->dnskey[0].data, k17, n17);
	ck_assert_uint_eq(z->nds, 1);
	ck_assert_int_eq(dnssec_ds_match(z->ds[0].data, z->ds[0].len, root, 1,
	                                 k17, n17),
	                 DNSSEC_OK);
}
END_TEST

/* DS lines: digest types 1, 2, 4 and an unknown one, algorithm
 * mnemonics, TTL and class in any order or absent, hex in parts. */
START_TEST(test_ds_lines)
{
	const struct anchor *z;

	ck_assert_int_eq(load("example. DS 1 RSASHA1 1 " SHA1_HEX "\n"
	                      "example. IN 60 DS 2 ecdsap256sha256 2 "
	                      "E06D44B80B8F1D39 A95C0B0D7C65D084"
	                      "58E880409BBC6834 57104237C7F8EC8D\n"
	                      "EXAMPLE. 60 IN DS 3 15 4 " SHA1_HEX SHA1_HEX
	                      "0102030405060708\n"
	                      "example. DS 4 200 99 0a0b\n"),
	                 ANCHOR_OK);
	z = zone("example.");
	ck_assert_uint_eq(z->nds, 4);
	ck_assert_uint_eq(z->ds[0].len, 4 + 20);
	ck_assert_mem_eq(z->ds[0].data, "\x00\x01\x05\x01\x2b\xb1", 6);
	ck_assert_uint_eq(z->ds[1].len, 4 + 32);
	ck_assert_mem_eq(z->ds[1].data, "\x00\x02\x0d\x02\xe0\x6d", 6);
	ck_assert_uint_eq(z->ds[2].len, 4 + 48);
	ck_assert_mem_eq(z->ds[2].data, "\x00\x03\x0f\x04", 4);
	/* unknown algorithm and digest type: kept as they are */
	ck_assert_uint_eq(z->ds[3].len, 6);
	ck_assert_mem_eq(z->ds[3].data, "\x00\x04\xc8\x63\x0a\x0b", 6);
}
END_TEST

/* $ORIGIN, "@", relative owners, a relative $ORIGIN, lowercasing;
 * other types skipped. */
START_TEST(test_origin)
{
	ck_assert_int_eq(load("$ORIGIN Example.\n"
	                      "@ DS 1 8 1 " SHA1_HEX "\n"
	                      "@ SOA ns hostmaster 1 2 3 4 5\n"
	                      "@ NS ns ; skipped\n"
	                      "Sub DS 2 8 1 " SHA1_HEX "\n"
	                      "  DS 3 8 1 " SHA1_HEX "\n"
	                      "$ORIGIN deep\n"
	                      "a.b DNSKEY 257 3 8 AwEAAQ==\n"
	                      "other. TYPE43 ignored-as-type-43-is-ds\n"),
	                 ANCHOR_ESYNTAX);
	ck_assert_ptr_nonnull(strstr(err, ":9: key tag"));
	ck_assert_uint_eq(anchors_count(a), 3);
	ck_assert_uint_eq(zone("example.")->nds, 1);
	ck_assert_uint_eq(zone("sub.example.")->nds, 2);
	ck_assert_uint_eq(zone("a.b.deep.example.")->ndnskey, 1);
	ck_assert_uint_eq(zone("a.b.deep.example.")->dnskey[0].len, 4 + 4);
}
END_TEST

/* Other types only, or only revoked keys: nothing to anchor. */
START_TEST(test_empty)
{
	ck_assert_int_eq(load(""), ANCHOR_EEMPTY);
	ck_assert_str_eq(err + strlen(path),
	                 ": no DS or DNSKEY record (revoked keys do not "
	                 "count)");
	ck_assert_int_eq(load("; nothing\n\n. NS a.root-servers.net.\n"),
	                 ANCHOR_EEMPTY);
	/* 385 = 257 | REVOKE */
	ck_assert_int_eq(load(". DNSKEY 385 3 8 AwEAAQ==\n"), ANCHOR_EEMPTY);
	ck_assert_uint_eq(anchors_count(a), 0);
	ck_assert_int_eq(load(". DNSKEY 385 3 8 AwEAAQ==\n"
	                      ". DNSKEY 257 3 8 AwEAAQ==\n"),
	                 ANCHOR_OK);
	ck_assert_uint_eq(zone(".")->ndnskey, 1);
	ck_assert_uint_eq(zone(".")->dnskey[0].data[1], 1);
}
END_TEST

/* Every syntax error: its status and "FILE:LINE: what". */
START_TEST(test_reject)
{
	static const struct {
		const char *text;
		unsigned line;
		const char *what;
	} bad[] = {
		{ "example.\n", 1, "no type" },
		{ ". DS\n", 1, "no key tag" },
		{ ". DS 70000 8 2 00\n", 1,
		  "key tag \"70000\": want a number from 0 to 65535" },
		{ ". DS 1 RSA 2 00\n", 1, "algorithm \"RSA\": want a number" },
		{ ". DS 1 8\n", 1, "no digest type" },
		{ ". DS 1 8 256 00\n", 1, "digest type \"256\": want" },
		{ ". DS 1 8 2\n", 1, "no digest" },
		{ ". DS 1 8 2 E06D\n", 1,
		  "DS digest type 2 wants 32 bytes, got 2" },
		{ ". DS 1 8 1 " SHA1_HEX "00\n", 1,
		  "DS digest type 1 wants 20 bytes, got 21" },
		{ ". DS 1 8 4 " SHA1_HEX "\n", 1,
		  "DS digest type 4 wants 48 bytes, got 20" },
		{ ". DS 1 8 2 E06\n", 1, "odd number of hex digits" },
		{ ". DS 1 8 2 E0 6G\n", 1, "digest \"6G\": not hex" },
		{ ". DNSKEY 257\n", 1, "no protocol" },
		{ ". DNSKEY 257 4 8 AwEAAQ==\n", 1,
		  "DNSKEY protocol 4, not 3" },
		{ ". DNSKEY 70000 3 8 AwEAAQ==\n", 1, "flags \"70000\"" },
		{ ". DNSKEY 257 3 8\n", 1, "no key" },
		{ ". DNSKEY 257 3 8 AwE\n", 1, "key: 3 base64 characters" },
		{ ". DNSKEY 257 3 8 Aw=A\n", 1,
		  "key: '=' (padding) before the end" },
		{ ". DNSKEY 257 3 8 A===\n", 1,
		  "key: '=' (padding) before the end" },
		{ ". DNSKEY 257 3 8 Aw*A\n", 1, "key: '*' is not base64" },
		{ ". CH DS " DS20326 "\n", 1,
		  "class \"CH\": trust anchors are class IN" },
		{ ". CLASS3 DS " DS20326 "\n", 1, "class \"CLASS3\"" },
		{ ". IN DNSKY 257 3 8 AwEAAQ==\n", 1,
		  "unknown type \"DNSKY\"" },
		{ ". 1 2 DS 1 8 1 00\n", 1, "unknown type \"2\"" },
		{ ". 9999999999 DS 1 8 1 00\n", 1, "TTL \"9999999999\"" },
		{ "sub DS " DS20326 "\n", 1,
		  "owner \"sub\" is relative and no $ORIGIN is set" },
		{ "@ DS " DS20326 "\n", 1, "owner \"@\" is relative" },
		{ "a..b. DS " DS20326 "\n", 1, "bad owner \"a..b.\"" },
		{ "\n\n   DS " DS20326 "\n", 3, "no owner (the line starts" },
		{ "$INCLUDE other.key\n", 1,
		  "directive \"$INCLUDE\" is not supported" },
		{ "$ORIGIN\n", 1, "no $ORIGIN name" },
		{ "$ORIGIN a. b.\n", 1, "unexpected \"b.\"" },
		{ "$TTL 1h\n", 1, "$TTL \"1h\": want a number" },
		{ "; a\n; b\n. DS 1 8 2 (\n E06D\n", 3,
		  "'(' is never closed" },
		{ ". DS 1 8 2 ( E0 ( 6D )\n", 1, "'(' inside '('" },
		{ ". DS 1 8 2 E0 ) 6D\n", 1, "')' without '('" },
		{ ". DS 1 8 1 (\n 00 ; c\n 0g )\n", 3,
		  "digest \"0g\": not hex" },
		{ ". DS 1 8 1 00\0 11\n", 1, "NUL byte" },
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char want[ANCHOR_ERR_MAX];
		FILE *f = fopen(path, "w");
		/* the NUL byte case: its length is up to its newline */
		size_t n = strlen(bad[i].text);

		if (strstr(bad[i].what, "NUL") != NULL)
			n = 15;
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(fwrite(bad[i].text, 1, n, f), n);
		ck_assert_int_eq(fclose(f), 0);
		err[0] = '\0';
		ck_assert_msg(anchors_add_file(a, path, err, sizeof err) ==
		                      ANCHOR_ESYNTAX,
		              "case %zu accepted: %s", i, bad[i].text);
		snprintf(want, sizeof want, "%s:%u: %s", path, bad[i].line,
		         bad[i].what);
		ck_assert_msg(strncmp(err, want, strlen(want)) == 0,
		              "case %zu: got \"%s\", want \"%s...\"", i, err,
		              want);
	}
}
END_TEST

/* Over the size of one RDATA: refused, never written past. */
START_TEST(test_reject_long)
{
	char *text = malloc(4096);
	size_t n;

	ck_assert_ptr_nonnull(text);
	n = (size_t)snprintf(text, 4096, ". DS 1 8 3 ");
	memset(text + n, 'a', 2 * ANCHOR_RDATA_MAX);
	strcpy(text + n + 2 * ANCHOR_RDATA_MAX, "\n");
	ck_assert_int_eq(load(text), ANCHOR_ESYNTAX);
	ck_assert_ptr_nonnull(strstr(err, ":1: digest longer than 1020"));
	n = (size_t)snprintf(text, 4096, ". DNSKEY 257 3 8 ");
	memset(text + n, 'A', 1364);
	strcpy(text + n + 1364, "\n");
	ck_assert_int_eq(load(text), ANCHOR_ESYNTAX);
	ck_assert_ptr_nonnull(strstr(err, ":1: key longer than 1020"));
	/* the longest that fits: 1020 bytes of key (1360 characters) */
	n = (size_t)snprintf(text, 4096, ". DNSKEY 257 3 8 ");
	memset(text + n, 'A', 1360);
	strcpy(text + n + 1360, "\n");
	ck_assert_int_eq(load(text), ANCHOR_OK);
	ck_assert_uint_eq(zone(".")->dnskey[0].len, ANCHOR_RDATA_MAX);
	free(text);
}
END_TEST

/* ANCHOR_ZONES_MAX zones, ANCHOR_RR_MAX records of a type per zone. */
START_TEST(test_full)
{
	char text[128];
	size_t i;

	for (i = 0; i < ANCHOR_RR_MAX; i++) {
		snprintf(text, sizeof text, ". DS %zu 8 1 " SHA1_HEX, i);
		ck_assert_int_eq(anchors_add_text(a, text, err, sizeof err),
		                 ANCHOR_OK);
	}
	ck_assert_int_eq(anchors_add_text(a, ". DS 999 8 1 " SHA1_HEX, err,
	                                  sizeof err),
	                 ANCHOR_EFULL);
	ck_assert_ptr_nonnull(strstr(err, "\": too many anchors"));
	/* a record already there is no new one */
	ck_assert_int_eq(anchors_add_text(a, ". DS 0 8 1 " SHA1_HEX, err,
	                                  sizeof err),
	                 ANCHOR_OK);
	for (i = 1; i < ANCHOR_ZONES_MAX; i++) {
		snprintf(text, sizeof text, "z%zu. DS 1 8 1 " SHA1_HEX, i);
		ck_assert_int_eq(anchors_add_text(a, text, err, sizeof err),
		                 ANCHOR_OK);
	}
	ck_assert_int_eq(anchors_add_text(a, "over. DS 1 8 1 " SHA1_HEX, err,
	                                  sizeof err),
	                 ANCHOR_EFULL);
	ck_assert_uint_eq(anchors_count(a), ANCHOR_ZONES_MAX);
}
END_TEST

START_TEST(test_missing_file)
{
	ck_assert_int_eq(anchors_add_file(a, "/nonexistent/root.key", err,
	                                  sizeof err),
	                 ANCHOR_EFILE);
	ck_assert_str_eq(err,
	                 "/nonexistent/root.key: No such file or directory");
	ck_assert_int_eq(anchors_add_file(a, "/tmp", err, sizeof err),
	                 ANCHOR_EFILE);
	ck_assert_str_eq(err, "/tmp: not a regular file");
	ck_assert_uint_eq(anchors_count(a), 0);
}
END_TEST

/* trust-anchor: "RR": one record, an absolute owner, its own message. */
START_TEST(test_text)
{
	static const char longer[] = "example. DS 1 8 2 "
				     "0000000000000000000000000000000000000000"
				     "0000000000000000000000"
				     "000000";

	ck_assert_int_eq(anchors_add_text(a, ". IN DS " DS20326, err,
	                                  sizeof err),
	                 ANCHOR_OK);
	ck_assert_int_eq(anchors_add_text(a, "example DS 1 8 2 00", err,
	                                  sizeof err),
	                 ANCHOR_ESYNTAX);
	ck_assert_str_eq(err, "trust-anchor \"example DS 1 8 2 00"
	                      "\": owner \"example\" is not absolute (end it "
	                      "with '.')");
	ck_assert_int_eq(anchors_add_text(a, "@ DS " DS20326, err, sizeof err),
	                 ANCHOR_ESYNTAX);
	ck_assert_int_eq(anchors_add_text(a, "$ORIGIN .", err, sizeof err),
	                 ANCHOR_ESYNTAX);
	ck_assert_str_eq(err, "trust-anchor \"$ORIGIN .\": directive "
	                      "\"$ORIGIN\" in a trust-anchor option");
	ck_assert_int_eq(anchors_add_text(a, "a. DS " DS20326 "\nb. DS 1 8 4",
	                                  err, sizeof err),
	                 ANCHOR_ESYNTAX);
	ck_assert_ptr_nonnull(strstr(err, "\": more than one record"));
	ck_assert_int_eq(anchors_add_text(a, "a. NS ns.a.", err, sizeof err),
	                 ANCHOR_EEMPTY);
	ck_assert_str_eq(err, "trust-anchor \"a. NS ns.a.\": neither DS nor "
	                      "DNSKEY (nor a key that is not revoked)");
	ck_assert_int_eq(anchors_add_text(a, "", err, sizeof err),
	                 ANCHOR_EEMPTY);
	/* a long text is cut in the message */
	ck_assert_int_eq(anchors_add_text(a, longer, err, sizeof err),
	                 ANCHOR_ESYNTAX);
	ck_assert_uint_eq(strlen(longer), 86);
	ck_assert_ptr_nonnull(strstr(err, "0000...\": DS digest type 2"));
	/* "." and "a.": a record before an error stays (the daemon drops
	 * a set whose loading failed) */
	ck_assert_uint_eq(anchors_count(a), 2);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Lookups                                                              */

START_TEST(test_find_closest)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len;
	const struct anchor *z;

	ck_assert_int_eq(anchors_add_text(a, "example.com. DS 1 8 1 " SHA1_HEX,
	                                  err, sizeof err),
	                 ANCHOR_OK);
	ck_assert_int_eq(anchors_add_text(a,
	                                  "sub.example.com. DNSKEY 257 3 8 "
	                                  "AwEAAQ==",
	                                  err, sizeof err),
	                 ANCHOR_OK);
	len = name("org.", n);
	ck_assert_ptr_null(anchors_find(a, n, len)); /* no root anchor */
	ck_assert_int_eq(anchors_add_builtin(a), ANCHOR_OK);
	ck_assert_uint_eq(anchors_count(a), 3);
	len = name("www.sub.example.com.", n);
	ck_assert_uint_eq(anchors_find(a, n, len)->ndnskey, 1);
	len = name("sub.example.com.", n);
	ck_assert_uint_eq(anchors_find(a, n, len)->ndnskey, 1);
	len = name("x.example.com.", n);
	z = anchors_find(a, n, len);
	ck_assert_uint_eq(z->namelen, 13);
	len = name("example.com.", n);
	ck_assert_ptr_eq(anchors_find(a, n, len), z);
	/* a label boundary, not a string suffix */
	len = name("xsub.example.com.", n);
	ck_assert_ptr_eq(anchors_find(a, n, len), z);
	/* "a\007example.com." ends in the bytes of "example.com.", not
	 * at a label */
	len = name("a\\007example.com.", n);
	ck_assert_uint_eq(len, 15);
	ck_assert_uint_eq(anchors_find(a, n, len)->namelen, 1);
	len = name("notexample.com.", n);
	ck_assert_uint_eq(anchors_find(a, n, len)->namelen, 1);
	len = name("com.", n);
	ck_assert_uint_eq(anchors_find(a, n, len)->namelen, 1);
	ck_assert_uint_eq(anchors_find(a, root, 1)->namelen, 1);
	/* a malformed name finds nothing */
	ck_assert_ptr_null(anchors_find(a,
	                                (const uint8_t *)"\x05"
	                                                 "ab",
	                                3));
}
END_TEST

START_TEST(test_insecure)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len;
	char text[32];
	size_t i;

	len = name("Corp.Example.", n);
	ck_assert(!anchors_insecure(a, n, len));
	ck_assert_int_eq(anchors_add_insecure(a, n, len), ANCHOR_OK);
	ck_assert_int_eq(anchors_add_insecure(a, n, len), ANCHOR_OK);
	ck_assert(anchors_insecure(a, n, len));
	len = name("a.b.corp.example.", n);
	ck_assert(anchors_insecure(a, n, len));
	len = name("xcorp.example.", n);
	ck_assert(!anchors_insecure(a, n, len));
	len = name("example.", n);
	ck_assert(!anchors_insecure(a, n, len));
	/* the bytes of "corp.example." at its end, not at a label */
	len = name("a\\004corp.example.", n);
	ck_assert(!anchors_insecure(a, n, len));
	ck_assert_uint_eq(anchors_count(a), 0); /* not an anchor */
	ck_assert_int_eq(anchors_add_insecure(a,
	                                      (const uint8_t *)"\x05"
	                                                       "ab",
	                                      3),
	                 ANCHOR_EINVAL);
	for (i = 1; i < ANCHOR_ZONES_MAX; i++) {
		snprintf(text, sizeof text, "n%zu.", i);
		len = name(text, n);
		ck_assert_int_eq(anchors_add_insecure(a, n, len), ANCHOR_OK);
	}
	len = name("over.", n);
	ck_assert_int_eq(anchors_add_insecure(a, n, len), ANCHOR_EFULL);
	ck_assert(!anchors_insecure(a, n, len));
	ck_assert(anchors_insecure(a, n, name("x.n255.", n)));
}
END_TEST

/* ------------------------------------------------------------------ */
/* The daemon's choice (resolver/daemon/trust.h)                        */

static struct cfg conf;

/* The config of text, then trust_anchors_choose with debian as Debian's
 * root.key; the set replaces a. */
static int choose(const char *text, const char *debian, struct trust_used *u)
{
	struct anchors *n = NULL;
	int rc;

	cfg_defaults(&conf);
	ck_assert_msg(cfg_parse("test.conf", text, strlen(text), &conf, err,
	                        sizeof err) == 0,
	              "%s", err);
	err[0] = '\0';
	rc = trust_anchors_choose(&conf, debian, &n, u, err, sizeof err);
	if (rc == 0) {
		anchors_free(a);
		a = n;
	}
	return rc;
}

START_TEST(test_choose)
{
	struct trust_used u;
	char text[256];
	uint8_t n[WIRE_NAME_MAX];

	/* no option, no Debian file: the built-in KSKs */
	ck_assert_int_eq(choose("", "/nonexistent/root.key", &u), 0);
	ck_assert_str_eq(u.source, "builtin");
	ck_assert_str_eq(u.note, "");
	ck_assert_uint_eq(u.zones, 1);
	ck_assert_uint_eq(zone(".")->nds, 2);
	/* Debian's file when it is there and loads */
	ck_assert_int_eq(load(". IN DNSKEY 257 3 8 AwEAAQ==\n"), ANCHOR_OK);
	ck_assert_int_eq(choose("domain-insecure: corp.example\n", path, &u),
	                 0);
	snprintf(text, sizeof text, "file:%s", path);
	ck_assert_str_eq(u.source, text);
	ck_assert_uint_eq(zone(".")->ndnskey, 1);
	ck_assert_uint_eq(zone(".")->nds, 0);
	ck_assert_uint_eq(u.insecure, 1);
	ck_assert(anchors_insecure(a, n, name("www.corp.example.", n)));
	/* there and broken: the built-in KSKs, and why */
	ck_assert_int_eq(load(". IN DNSKEY 257 4 8 AwEAAQ==\n"),
	                 ANCHOR_ESYNTAX);
	ck_assert_int_eq(choose("", path, &u), 0);
	ck_assert_str_eq(u.source, "builtin");
	snprintf(text, sizeof text, "%s:1: DNSKEY protocol 4, not 3", path);
	ck_assert_str_eq(u.note, text);
	ck_assert_uint_eq(zone(".")->nds, 2);
	/* options: exactly those */
	snprintf(text, sizeof text,
	         "trust-anchor-file: %s\n"
	         "trust-anchor: \"example. DS 1 8 1 " SHA1_HEX "\"\n",
	         ANCHOR_DEBIAN_ROOT_KEY);
	if (access(ANCHOR_DEBIAN_ROOT_KEY, R_OK) == 0) {
		ck_assert_int_eq(choose(text, path, &u), 0);
		ck_assert_str_eq(u.source, "options");
		ck_assert_uint_eq(u.zones, 2);
		ck_assert_uint_eq(zone(".")->ndnskey, 2);
	}
	ck_assert_int_eq(choose("trust-anchor: \"example. DS 1 8 1 " SHA1_HEX
	                        "\"\n",
	                        "/nonexistent/root.key", &u),
	                 0);
	ck_assert_uint_eq(u.zones, 1);
	ck_assert_ptr_null(anchors_find(a, root, 1));
	/* dnssec: no: nothing at all */
	ck_assert_int_eq(choose("dnssec: no\ndomain-insecure: a.\n"
	                        "trust-anchor: \". DS 1 8 1 00\"\n",
	                        "/nonexistent/root.key", &u),
	                 0);
	ck_assert_str_eq(u.source, "none");
	ck_assert_uint_eq(u.zones + u.insecure, 0);
	ck_assert_uint_eq(anchors_count(a), 0);
}
END_TEST

/* A bad option: an error naming its FILE:LINE, no set. */
START_TEST(test_choose_errors)
{
	struct trust_used u;
	char text[256];
	struct anchors *before = a;

	ck_assert_int_eq(choose("# anchors\n\n"
	                        "trust-anchor: \". DS 1 8 1 00\"\n",
	                        "/nonexistent/root.key", &u),
	                 -1);
	ck_assert_str_eq(err, "test.conf:3: trust-anchor \". DS 1 8 1 00\": "
	                      "DS digest type 1 wants 20 bytes, got 1");
	ck_assert_ptr_eq(a, before);
	/* a file option's problem starts with its FILE:LINE (issue 22) */
	ck_assert_int_eq(choose("\ntrust-anchor-file: /nonexistent/a.key\n",
	                        "/nonexistent/root.key", &u),
	                 -1);
	ck_assert_str_eq(err, "test.conf:2: trust-anchor-file "
	                      "/nonexistent/a.key: No such file or directory");
	ck_assert_int_eq(load("; root\n. DS 1 8 2 00\n"), ANCHOR_ESYNTAX);
	snprintf(text, sizeof text, "auto-trust-anchor-file: %s\n", path);
	ck_assert_int_eq(choose(text, "/nonexistent/root.key", &u), -1);
	snprintf(text, sizeof text,
	         "test.conf:1: auto-trust-anchor-file %s:2: DS digest type 2 "
	         "wants 32",
	         path);
	ck_assert_msg(strncmp(err, text, strlen(text)) == 0, "%s", err);
	ck_assert_ptr_eq(a, before);
}
END_TEST

static Suite *anchor_suite(void)
{
	Suite *su = suite_create("anchor");
	TCase *tb = tcase_create("builtin");
	TCase *tf = tcase_create("files");
	TCase *tr = tcase_create("reject");
	TCase *tl = tcase_create("lookups");
	TCase *td = tcase_create("daemon");

	tcase_add_checked_fixture(tb, setup, teardown);
	tcase_add_test(tb, test_builtin_matches_ksks);
	tcase_add_test(tb, test_debian_root_key);
	suite_add_tcase(su, tb);
	tcase_add_checked_fixture(tf, setup, teardown);
	tcase_add_test(tf, test_root_key_file);
	tcase_add_test(tf, test_ds_lines);
	tcase_add_test(tf, test_origin);
	tcase_add_test(tf, test_empty);
	tcase_add_test(tf, test_text);
	suite_add_tcase(su, tf);
	tcase_add_checked_fixture(tr, setup, teardown);
	tcase_add_test(tr, test_reject);
	tcase_add_test(tr, test_reject_long);
	tcase_add_test(tr, test_full);
	tcase_add_test(tr, test_missing_file);
	suite_add_tcase(su, tr);
	tcase_add_checked_fixture(tl, setup, teardown);
	tcase_add_test(tl, test_find_closest);
	tcase_add_test(tl, test_insecure);
	suite_add_tcase(su, tl);
	tcase_add_checked_fixture(td, setup, teardown);
	tcase_add_test(td, test_choose);
	tcase_add_test(td, test_choose_errors);
	suite_add_tcase(su, td);
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(anchor_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
