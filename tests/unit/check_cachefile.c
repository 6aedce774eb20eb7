/*
 * tests/unit/check_cachefile.c - Suite "cachefile": the dump_cache /
 * load_cache text format (resolver/store/cachefile.h): round trips of every
 * kind of entry, TTLs counted down from the dump's time, DNSSEC status
 * (sec=) and image ("; dnssec" lines), every rejection of the reader,
 * RDATA text and checks, hostile input.
 */
#include "control_test.h"

#include <stdio.h>

#include "store/cachefile.h"
#include "ctl/control.h"

/* The lab's DNSCurve test key (tests/lab/lab.sh) and its uz5 label. */
static const uint8_t key1[32] = {
	0x90, 0xaf, 0x53, 0xc1, 0x48, 0x74, 0x53, 0x85, 0x59, 0xf0, 0x86,
	0x47, 0xfb, 0x6d, 0x2d, 0xf3, 0xe6, 0x53, 0xb1, 0x86, 0x40, 0x90,
	0x32, 0x50, 0x9f, 0x96, 0x09, 0x04, 0x3e, 0xf0, 0xf4, 0x09,
};
#define KEY1_LABEL "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2"

#define HEADER "; curvecache-dump version=1 time=1700000000"

static int put_out(void *arg, const char *text, size_t len)
{
	control_out_put(arg, text, len);
	return 0;
}

/* Dump a cache into a NUL-terminated string (free it). */
static char *dump(struct cache *c, time_t now, size_t *entries)
{
	struct control_out o = { NULL, 0, 0, false };
	struct cachefile_dump_stats st;

	ck_assert_int_eq(cachefile_dump(c, now, put_out, &o, &st),
	                 CACHEFILE_OK);
	control_out_put(&o, "", 1);
	ck_assert(!o.full);
	if (entries != NULL)
		*entries = st.entries;
	return o.p;
}

/* Load text (lines split at '\n') into a cache; return the load. */
static struct cachefile_load *load(struct cache *c, time_t now,
                                   const char *text)
{
	struct cachefile_load *ld = NULL;
	const char *p = text, *nl;

	ck_assert_int_eq(cachefile_load_new(c, now, &ld), CACHEFILE_OK);
	while (*p != '\0') {
		nl = strchr(p, '\n');
		if (nl == NULL)
			nl = p + strlen(p);
		(void)cachefile_load_line(ld, p, (size_t)(nl - p));
		p = *nl == '\n' ? nl + 1 : nl;
	}
	cachefile_load_finish(ld);
	return ld;
}

static int cmp_lines(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort the lines of a text in place (for order-free comparison). */
static void sort_lines(char *text, char **lines, size_t cap, size_t *n)
{
	char *save = NULL, *l;

	*n = 0;
	for (l = strtok_r(text, "\n", &save); l != NULL;
	     l = strtok_r(NULL, "\n", &save)) {
		ck_assert_uint_lt(*n, cap);
		lines[(*n)++] = l;
	}
	qsort(lines, *n, sizeof lines[0], cmp_lines);
}

/* Two dumps hold the same lines in any order; frees both; the lines. */
static size_t same_lines(char *t1, char *t2)
{
	char *l1[64], *l2[64];
	size_t n1, n2, i;

	sort_lines(t1, l1, 64, &n1);
	sort_lines(t2, l2, 64, &n2);
	ck_assert_uint_eq(n1, n2);
	for (i = 0; i < n1; i++)
		ck_assert_str_eq(l1[i], l2[i]);
	free(t1);
	free(t2);
	return n1;
}

/* RDATA from text, asserting success. */
static size_t rd(uint16_t type, const char *text, uint8_t *out, size_t cap)
{
	size_t len = 0;

	ck_assert_msg(cachefile_rdata_parse(type, text, strlen(text), out, cap,
	                                    &len) == CACHEFILE_OK,
	              "rdata %u \"%s\"", (unsigned)type, text);
	return len;
}

static void put_text(struct cache *c, const char *owner, uint16_t type,
                     const char *rdtext, enum cache_rank rank,
                     const uint8_t *key)
{
	uint8_t buf[4096];
	struct cache_rdata r;

	r.len = rd(type, rdtext, buf, sizeof buf);
	r.data = buf;
	ct_put(c, owner, type, 300, &r, 1, rank, key);
}

static void put_neg(struct cache *c, enum cache_kind kind, const char *name,
                    uint16_t type)
{
	uint8_t n[WIRE_NAME_MAX], z[WIRE_NAME_MAX], soa[512];
	struct cache_neg neg;

	memset(&neg, 0, sizeof neg);
	neg.kind = kind;
	neg.name_len = ct_name(name, n);
	neg.name = n;
	neg.type = type;
	neg.klass = WIRE_CLASS_IN;
	neg.soa_name_len = ct_name("example.lab.", z);
	neg.soa_name = z;
	neg.soa_ttl = 600;
	neg.soa_rdlen = rd(WIRE_TYPE_SOA,
	                   "ns1.example.lab. "
	                   "hostmaster.example.lab. 1 3600 600 86400 300",
	                   soa, sizeof soa);
	neg.soa_rdata = soa;
	neg.rank = CACHE_RANK_AUTH;
	ck_assert_int_eq(cache_neg_put(c, &neg, CT_NOW), CACHE_OK);
}

/* A cache with every kind of entry the format knows. */
static struct cache *full_cache(void)
{
	struct cache *c = ct_cache();
	uint8_t a[2][4] = { { 192, 0, 2, 10 }, { 192, 0, 2, 11 } };
	struct cache_rdata two[2] = { { a[0], 4 }, { a[1], 4 } };

	ct_put(c, "www.example.lab.", WIRE_TYPE_A, 300, two, 2,
	       CACHE_RANK_AUTH, NULL);
	put_text(c, "www.example.lab.", WIRE_TYPE_AAAA, "2001:db8::10",
	         CACHE_RANK_NONAUTH, key1);
	put_text(c, "example.lab.", WIRE_TYPE_NS, "ns1.example.lab.",
	         CACHE_RANK_REFERRAL, NULL);
	put_text(c, "ns1.example.lab.", WIRE_TYPE_A, "127.53.1.2",
	         CACHE_RANK_GLUE, NULL);
	put_text(c, "alias.example.lab.", WIRE_TYPE_CNAME, "www.example.lab.",
	         CACHE_RANK_AUTH, key1);
	put_text(c, "example.lab.", WIRE_TYPE_MX, "10 mail.example.lab.",
	         CACHE_RANK_AUTH, NULL);
	put_text(c, "www.example.lab.", WIRE_TYPE_TXT,
	         "\"hello world\" \"say \\\"hi\\\" \\\\ bye\" "
	         "\"\\000\\255;x\" \"\"",
	         CACHE_RANK_AUTH, NULL);
	put_text(c, "example.lab.", WIRE_TYPE_SOA,
	         "ns1.example.lab. "
	         "host\\.master.example.lab. 2024 3600 600 86400 300",
	         CACHE_RANK_AUTH, NULL);
	put_text(c, "_dns._udp.example.lab.", WIRE_TYPE_SRV,
	         "0 5 53 www.example.lab.", CACHE_RANK_AUTH, NULL);
	put_text(c, "10.2.0.192.in-addr.arpa.", WIRE_TYPE_PTR,
	         "www.example.lab.", CACHE_RANK_AUTH, NULL);
	put_text(c, "dn.example.lab.", WIRE_TYPE_DNAME, "other.lab.",
	         CACHE_RANK_AUTH, NULL);
	put_text(c, "odd\\059name\\032x.example.lab.", 65280,
	         "\\# 5 0102 03 ff00", CACHE_RANK_AUTH, NULL);
	put_text(c, "empty.example.lab.", 65281, "\\# 0", CACHE_RANK_AUTH,
	         NULL);
	put_neg(c, CACHE_KIND_NXDOMAIN, "nx.example.lab.", 0);
	put_neg(c, CACHE_KIND_NODATA, "mail.example.lab.", WIRE_TYPE_AAAA);
	return c;
}

#define FULL_ENTRIES 15

START_TEST(roundtrip_every_kind)
{
	struct cache *c1 = full_cache(), *c2 = ct_cache();
	struct cachefile_load_counts n;
	struct cachefile_load *ld;
	char *t1, *t2, first[16] = "x";
	size_t e1;

	t1 = dump(c1, CT_NOW, &e1);
	ck_assert_uint_eq(e1, FULL_ENTRIES);
	ck_assert(ct_has(t1, strlen(t1), HEADER "\n"));
	ck_assert(ct_has(t1, strlen(t1), "src=" KEY1_LABEL));
	ck_assert(ct_has(t1, strlen(t1),
	                 "; nxdomain name=nx.example.lab. "
	                 "rank=auth src=plain"));
	ck_assert(ct_has(t1, strlen(t1),
	                 "; nodata name=mail.example.lab. "
	                 "type=AAAA rank=auth src=plain"));
	ck_assert(ct_has(t1, strlen(t1), "rank=glue"));
	ld = load(c2, CT_NOW, t1);
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.bad, 0);
	/* no bad line: nothing to name */
	ck_assert_uint_eq(cachefile_load_first_bad(ld, "f", first,
	                                           sizeof first),
	                  0);
	ck_assert_str_eq(first, "");
	ck_assert_uint_eq(n.entries, FULL_ENTRIES);
	ck_assert_uint_eq(n.rrs, FULL_ENTRIES + 1);
	ck_assert_uint_eq(n.expired, 0);
	cachefile_load_free(ld);
	t2 = dump(c2, CT_NOW, NULL);
	(void)same_lines(t1, t2);
	cache_destroy(c1);
	cache_destroy(c2);
}
END_TEST

START_TEST(roundtrip_provenance_kept)
{
	struct cache *c1 = full_cache(), *c2 = ct_cache();
	struct cache_answer ans;
	struct cachefile_load *ld;
	struct cache_query q;
	uint8_t name[WIRE_NAME_MAX], buf[1024];
	char *t;

	t = dump(c1, CT_NOW, NULL);
	ld = load(c2, CT_NOW, t);
	cachefile_load_free(ld);
	q.name_len = ct_name("www.example.lab.", name);
	q.name = name;
	q.type = WIRE_TYPE_AAAA;
	q.klass = WIRE_CLASS_IN;
	q.flags = 0;
	ck_assert_int_eq(cache_get(c2, &q, CT_NOW, &ans, buf, sizeof buf),
	                 CACHE_OK);
	ck_assert_int_eq(ans.curve, 1);
	ck_assert_int_eq(ans.rank, CACHE_RANK_NONAUTH);
	ck_assert_mem_eq(ans.server_key, key1, 32);
	q.type = WIRE_TYPE_A;
	ck_assert_int_eq(cache_get(c2, &q, CT_NOW, &ans, buf, sizeof buf),
	                 CACHE_OK);
	ck_assert_int_eq(ans.curve, 0);
	ck_assert_uint_eq(ans.count, 2);
	q.name_len = ct_name("nx.example.lab.", name);
	ck_assert_int_eq(cache_get(c2, &q, CT_NOW, &ans, buf, sizeof buf),
	                 CACHE_OK);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
	free(t);
	cache_destroy(c1);
	cache_destroy(c2);
}
END_TEST

START_TEST(ttl_counts_down_and_expired_dropped)
{
	struct cache *c = ct_cache();
	struct cachefile_load_counts n;
	struct cachefile_load *ld;
	struct cache_answer ans;
	struct cache_query q;
	uint8_t name[WIRE_NAME_MAX], buf[256];

	ld = load(c, CT_NOW + 100,
	          HEADER
	          "\n"
	          "a.lab.\t300\tIN\tA\t192.0.2.1\t; rank=auth src=plain\n"
	          "b.lab.\t50\tIN\tA\t192.0.2.2\t; rank=auth src=plain\n"
	          "c.lab. 100 IN A 192.0.2.3 ; rank=auth src=plain\n"
	          "lab.\t20\tIN\tSOA\ta. b. 1 2 3 4 5\t; nxdomain "
	          "name=x.lab. rank=auth src=plain\n");
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.entries, 1);
	ck_assert_uint_eq(n.expired, 3);
	ck_assert_uint_eq(n.bad, 0);
	cachefile_load_free(ld);
	q.name_len = ct_name("a.lab.", name);
	q.name = name;
	q.type = WIRE_TYPE_A;
	q.klass = WIRE_CLASS_IN;
	q.flags = 0;
	ck_assert_int_eq(cache_get(c, &q, CT_NOW + 100, &ans, buf, sizeof buf),
	                 CACHE_OK);
	ck_assert_uint_eq(ans.ttl, 200);
	cache_destroy(c);
}
END_TEST

START_TEST(dump_skips_stale)
{
	struct cache *c = ct_cache();
	size_t e;
	char *t;

	ct_put_a(c, "short.lab.", 10, 1);
	ct_put_a(c, "long.lab.", 1000, 2);
	t = dump(c, CT_NOW + 20, &e);
	ck_assert_uint_eq(e, 1);
	ck_assert(ct_has(t, strlen(t), "long.lab."));
	ck_assert(!ct_has(t, strlen(t), "short.lab."));
	ck_assert(ct_has(t, strlen(t), "980"));
	free(t);
	cache_destroy(c);
}
END_TEST

START_TEST(existing_better_data_kept)
{
	struct cache *c = ct_cache();
	struct cachefile_load_counts n;
	struct cachefile_load *ld;
	uint8_t a[4] = { 192, 0, 2, 9 };
	struct cache_rdata r = { a, 4 };

	ct_put(c, "k.lab.", WIRE_TYPE_A, 300, &r, 1, CACHE_RANK_AUTH, key1);
	ld = load(c, CT_NOW,
	          HEADER "\n"
	                 "k.lab. 300 IN A 192.0.2.1 ; rank=glue src=plain\n");
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.kept, 1);
	ck_assert_uint_eq(n.entries, 0);
	ck_assert_uint_eq(n.bad, 0);
	cachefile_load_free(ld);
	cache_destroy(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Rejections                                                          */

/** A line after a good header, and the status it must get. */
struct bad_case {
	const char *line;
	int status;
};

#define OKM "; rank=auth src=plain"

static const struct bad_case bad_cases[] = {
	{ "x", CACHEFILE_ETTL },
	{ "\"quoted\" 300 IN A 192.0.2.1 " OKM, CACHEFILE_ENAME },
	{ "a..lab. 300 IN A 192.0.2.1 " OKM, CACHEFILE_ENAME },
	{ "a.lab. -1 IN A 192.0.2.1 " OKM, CACHEFILE_ETTL },
	{ "a.lab. 2147483648 IN A 192.0.2.1 " OKM, CACHEFILE_ETTL },
	{ "a.lab. 30x IN A 192.0.2.1 " OKM, CACHEFILE_ETTL },
	{ "a.lab. 300 " OKM, CACHEFILE_ECLASS },
	{ "a.lab. 300 XX A 192.0.2.1 " OKM, CACHEFILE_ECLASS },
	{ "a.lab. 300 CLASS70000 A 192.0.2.1 " OKM, CACHEFILE_ECLASS },
	{ "a.lab. 300 IN FOO 192.0.2.1 " OKM, CACHEFILE_ETYPE },
	{ "a.lab. 300 IN " OKM, CACHEFILE_ETYPE },
	{ "a.lab. 300 IN A 192.0.2.256 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN A 192.0.2.1 192.0.2.2 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN A " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN AAAA 2001:db8::zz " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN NS " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN NS a..b. " OKM, CACHEFILE_ENAME },
	{ "a.lab. 300 IN MX 10 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN MX 70000 b.lab. " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN SRV 1 2 b.lab. " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN SOA a. b. 1 2 3 4 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN TXT \"open " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN TXT " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN TXT \"a\"b " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN TXT \"\\999\" " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN TYPE65280 \\# 3 0102 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN TYPE65280 \\# 1 012 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN TYPE65280 \\# 1 zz " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN TYPE65280 \\# 70000 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN TYPE65280 0102 " OKM, CACHEFILE_ETYPE },
	{ "a.lab. 300 IN A \\# 3 010203 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN NS \\# 3 c00c00 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN NS \\# 3 016101 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN CNAME \\# 4 01610000 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN TXT \\# 2 0561 " OKM, CACHEFILE_ERDATA },
	{ "a.lab. 300 IN A 192.0.2.1", CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ;", CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=auth", CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; src=plain", CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=best src=plain", CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=none src=plain", CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=auth src=uz5bad",
	  CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=auth rank=auth src=plain",
	  CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=auth src=plain extra=1",
	  CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=auth src=plain name=a.lab.",
	  CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=auth nxdomain src=plain",
	  CACHEFILE_EMETA },
	{ "lab. 300 IN SOA a. b. 1 2 3 4 5 ; nxdomain rank=auth src=plain",
	  CACHEFILE_EMETA },
	{ "lab. 300 IN SOA a. b. 1 2 3 4 5 ; nodata name=x.lab. rank=auth "
	  "src=plain",
	  CACHEFILE_EMETA },
	{ "lab. 300 IN SOA a. b. 1 2 3 4 5 ; nodata name=x.lab. type=BAD "
	  "rank=auth src=plain",
	  CACHEFILE_EMETA },
	{ "lab. 300 IN A 192.0.2.1 ; nxdomain name=x.lab. rank=auth "
	  "src=plain",
	  CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=auth src=plain sec=good",
	  CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=auth src=plain sec=secure "
	  "sec=secure",
	  CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=auth src=plain dnssec",
	  CACHEFILE_EMETA },
	{ "a.lab. 300 IN RRSIG \\# 2 0102 ; dnssec rank=auth",
	  CACHEFILE_EMETA },
	{ "a.lab. 300 IN RRSIG \\# 2 0102 ; dnssec", CACHEFILE_EMETA },
	{ "a.lab. 300 IN A 192.0.2.1 ; rank=auth src=plain sec=9",
	  CACHEFILE_EMETA },
	{ "a.lab. 300 IN OPT \\# 0 " OKM, CACHEFILE_ECACHE },
	{ "a.lab. 300 IN A 192.0.2.1\001 " OKM, CACHEFILE_ESYNTAX },
	{ "a.lab. 300 IN A 192.0.2.1 \xc3\xa9 " OKM, CACHEFILE_ESYNTAX },
};

START_TEST(reject_each)
{
	const struct bad_case *bc = &bad_cases[_i];
	struct cache *c = ct_cache();
	struct cachefile_load_counts n;
	struct cachefile_load *ld = NULL;
	char report[CACHEFILE_REPORT_BYTES], want[64];
	int rc;

	ck_assert_int_eq(cachefile_load_new(c, CT_NOW, &ld), CACHEFILE_OK);
	ck_assert_int_eq(cachefile_load_line(ld, HEADER, strlen(HEADER)),
	                 CACHEFILE_OK);
	rc = cachefile_load_line(ld, bc->line, strlen(bc->line));
	/* The cache refuses an RRset when it is stored: at the end. */
	if (bc->status == CACHEFILE_ECACHE && rc == CACHEFILE_OK)
		rc = CACHEFILE_ECACHE;
	ck_assert_msg(rc == bc->status, "case %d \"%s\": %s, not %s", _i,
	              bc->line, cachefile_strerror(rc),
	              cachefile_strerror(bc->status));
	cachefile_load_finish(ld);
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.bad, 1);
	ck_assert_uint_eq(n.entries, 0);
	(void)cachefile_load_report(ld, report, sizeof report);
	snprintf(want, sizeof want, "line 2: %s", cachefile_strerror(rc));
	ck_assert_msg(ct_has(report, strlen(report), want), "%s", report);
	/* read from a file: FILE:LINE, as the configuration's errors */
	ck_assert_uint_eq(cachefile_load_first_bad(ld, "my.dump", report,
	                                           sizeof report),
	                  strlen(report));
	snprintf(want, sizeof want, "my.dump:2: %s", cachefile_strerror(rc));
	ck_assert_msg(strncmp(report, want, strlen(want)) == 0, "%s", report);
	ck_assert_uint_eq(cachefile_load_first_bad(ld, "my.dump", report, 8),
	                  7);
	ck_assert_str_eq(report, "my.dump");
	cachefile_load_free(ld);
	cache_destroy(c);
}
END_TEST

START_TEST(reject_headers)
{
	static const char *const heads[] = {
		"",
		"www.lab. 300 IN A 192.0.2.1 ; rank=auth src=plain",
		"; curvecache-dump",
		"; curvecache-dump version=2 time=1",
		"; curvecache-dump version=1 time=x",
		"; curvecache-dump version=1 time=",
		"; curvecache-dump version=1 time=1 more",
		"; other version=1 time=1",
		"; curvecache-dump version=1 time=1234567890123456789",
	};
	struct cachefile_load_counts n;
	size_t i;

	for (i = 0; i < sizeof heads / sizeof heads[0]; i++) {
		struct cache *c = ct_cache();
		struct cachefile_load *ld = NULL;
		char text[256];

		snprintf(text, sizeof text,
		         "%s\na.lab. 300 IN A 192.0.2.1 " OKM "\n", heads[i]);
		ld = load(c, CT_NOW, text);
		cachefile_load_counts(ld, &n);
		ck_assert_msg(n.bad == 1 && n.entries == 0, "header %zu", i);
		cachefile_load_free(ld);
		cache_destroy(c);
	}
}
END_TEST

START_TEST(reject_empty_input)
{
	struct cache *c = ct_cache();
	struct cachefile_load_counts n;
	struct cachefile_load *ld = load(c, CT_NOW, "");
	char report[CACHEFILE_REPORT_BYTES];

	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.bad, 1);
	(void)cachefile_load_report(ld, report, sizeof report);
	ck_assert(ct_has(report, strlen(report), "line 1: not a curvecache"));
	cachefile_load_free(ld);
	cache_destroy(c);
}
END_TEST

START_TEST(reject_bad_line_drops_its_rrset)
{
	struct cache *c = ct_cache();
	struct cachefile_load_counts n;
	struct cachefile_load *ld;

	ld = load(c, CT_NOW,
	          HEADER "\n"
	                 "a.lab. 300 IN A 192.0.2.1 " OKM "\n"
	                 "a.lab. 300 IN A 192.0.2.300 " OKM "\n"
	                 "a.lab. 300 IN A 192.0.2.3 " OKM "\n"
	                 "b.lab. 300 IN A 192.0.2.4 " OKM "\n"
	                 "; a comment line\n"
	                 "\n"
	                 "   \t\n"
	                 "c.lab. 300 IN A 192.0.2.5 " OKM "\r\n");
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.bad, 1);
	ck_assert_uint_eq(n.entries, 2);
	ck_assert_uint_eq(n.lines, 9);
	cachefile_load_free(ld);
	cache_destroy(c);
}
END_TEST

START_TEST(reject_too_long)
{
	struct cache *c = ct_cache();
	struct cachefile_load_counts n;
	struct cachefile_load *ld = NULL;
	char *big = malloc(CACHEFILE_LINE_MAX + 1);
	char line[128];
	size_t i;

	ck_assert_ptr_nonnull(big);
	memset(big, 'a', CACHEFILE_LINE_MAX + 1);
	ck_assert_int_eq(cachefile_load_new(c, CT_NOW, &ld), CACHEFILE_OK);
	ck_assert_int_eq(cachefile_load_line(ld, HEADER, strlen(HEADER)),
	                 CACHEFILE_OK);
	ck_assert_int_eq(cachefile_load_line(ld, big, CACHEFILE_LINE_MAX + 1),
	                 CACHEFILE_ETOOLONG);
	/* One RRset longer than CACHEFILE_RRSET_MAX records. */
	for (i = 0; i <= CACHEFILE_RRSET_MAX; i++) {
		snprintf(line, sizeof line,
		         "m.lab. 300 IN A 10.%zu.%zu.%zu " OKM,
		         (i >> 16) & 255, (i >> 8) & 255, i & 255);
		(void)cachefile_load_line(ld, line, strlen(line));
	}
	cachefile_load_finish(ld);
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.bad, 2);
	ck_assert_uint_eq(n.entries, 0);
	cachefile_load_free(ld);
	free(big);
	cache_destroy(c);
}
END_TEST

START_TEST(report_caps_its_lines)
{
	struct cache *c = ct_cache();
	struct cachefile_load *ld = NULL;
	char report[CACHEFILE_REPORT_BYTES];
	size_t i;

	ck_assert_int_eq(cachefile_load_new(c, CT_NOW, &ld), CACHEFILE_OK);
	(void)cachefile_load_line(ld, HEADER, strlen(HEADER));
	for (i = 0; i < CACHEFILE_ERRORS_SHOWN + 7; i++)
		(void)cachefile_load_line(ld, "junk", 4);
	cachefile_load_finish(ld);
	(void)cachefile_load_report(ld, report, sizeof report);
	ck_assert(ct_has(report, strlen(report), "(7 more bad lines)"));
	ck_assert(ct_has(report, strlen(report), "57 bad"));
	cachefile_load_free(ld);
	cache_destroy(c);
}
END_TEST

/* ------------------------------------------------------------------ */
/* RDATA                                                               */

START_TEST(rdata_forms)
{
	uint8_t out[512], want[64];
	size_t n;

	n = rd(WIRE_TYPE_A, "\\# 4 c0000201", out, sizeof out);
	ck_assert_uint_eq(n, 4);
	ck_assert_uint_eq(out[3], 1);
	n = rd(WIRE_TYPE_MX, "  10\tmail.lab ", out, sizeof out);
	ck_assert_uint_eq(n, 2 + 10);
	n = rd(WIRE_TYPE_TXT, "plain \"two words\"", out, sizeof out);
	memcpy(want, "\005plain\011two words", 16);
	ck_assert_uint_eq(n, 16);
	ck_assert_mem_eq(out, want, 16);
	n = rd(WIRE_TYPE_NS, "A\\.b.Lab.", out, sizeof out);
	ck_assert_uint_eq(n, 9);
	ck_assert_uint_eq(out[0], 3);
	ck_assert_int_eq(cachefile_rdata_parse(WIRE_TYPE_A, "1.2.3.4", 7, out,
	                                       3, &n),
	                 CACHEFILE_ERDATA);
	ck_assert_int_eq(cachefile_rdata_parse(WIRE_TYPE_A, "", 0, out,
	                                       sizeof out, &n),
	                 CACHEFILE_ERDATA);
}
END_TEST

START_TEST(rdata_checks)
{
	static const uint8_t ok_ns[] = { 1, 'a', 0 };
	static const uint8_t ptr_ns[] = { 0xc0, 0x0c };
	static const uint8_t long_label[] = { 64, 'a' };
	static const uint8_t trail_ns[] = { 1, 'a', 0, 0 };
	static const uint8_t ok_txt[] = { 1, 'a', 0 };
	static const uint8_t bad_txt[] = { 3, 'a' };
	static const uint8_t mx_short[] = { 0, 10 };

	ck_assert_int_eq(cachefile_rdata_check(WIRE_TYPE_NS, ok_ns, 3),
	                 CACHEFILE_OK);
	ck_assert_int_eq(cachefile_rdata_check(WIRE_TYPE_NS, ptr_ns, 2),
	                 CACHEFILE_ERDATA);
	ck_assert_int_eq(cachefile_rdata_check(WIRE_TYPE_NS, long_label, 2),
	                 CACHEFILE_ERDATA);
	ck_assert_int_eq(cachefile_rdata_check(WIRE_TYPE_PTR, trail_ns, 4),
	                 CACHEFILE_ERDATA);
	ck_assert_int_eq(cachefile_rdata_check(WIRE_TYPE_NS, NULL, 0),
	                 CACHEFILE_ERDATA);
	ck_assert_int_eq(cachefile_rdata_check(WIRE_TYPE_TXT, ok_txt, 3),
	                 CACHEFILE_OK);
	ck_assert_int_eq(cachefile_rdata_check(WIRE_TYPE_TXT, bad_txt, 2),
	                 CACHEFILE_ERDATA);
	ck_assert_int_eq(cachefile_rdata_check(WIRE_TYPE_TXT, NULL, 0),
	                 CACHEFILE_ERDATA);
	ck_assert_int_eq(cachefile_rdata_check(WIRE_TYPE_MX, mx_short, 2),
	                 CACHEFILE_ERDATA);
	ck_assert_int_eq(cachefile_rdata_check(WIRE_TYPE_AAAA, ok_ns, 3),
	                 CACHEFILE_ERDATA);
	ck_assert_int_eq(cachefile_rdata_check(65280, NULL, 0), CACHEFILE_OK);
}
END_TEST

/* ------------------------------------------------------------------ */
/* Hostile input                                                       */

static uint32_t prng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

START_TEST(hostile_lines)
{
	static const char *const words[] = {
		"a.lab.",      "300",       "IN",
		"A",           "AAAA",      "TXT",
		"SOA",         "NS",        "MX",
		"\\#",         "4",         "c0000201",
		"\"",          "\"x\"",     "\\",
		";",           "rank=auth", "src=plain",
		"nxdomain",    "nodata",    "name=a.lab.",
		"type=A",      "192.0.2.1", "::1",
		"(",           ")",         "\\000",
		"99999999999", ".",         "src=" KEY1_LABEL,
		"\t",          " ",         "\\\"",
	};
	struct cache *c = ct_cache();
	struct cachefile_load *ld = NULL;
	struct cachefile_load_counts n;
	char line[512];
	uint32_t s = 12345;
	size_t i, k, len;

	ck_assert_int_eq(cachefile_load_new(c, CT_NOW, &ld), CACHEFILE_OK);
	(void)cachefile_load_line(ld, HEADER, strlen(HEADER));
	for (i = 0; i < 20000; i++) {
		len = 0;
		for (k = prng(&s) % 12; k > 0; k--) {
			const char *w = words[prng(&s) % (sizeof words /
			                                  sizeof words[0])];

			if (len + strlen(w) + 2 >= sizeof line)
				break;
			memcpy(line + len, w, strlen(w));
			len += strlen(w);
			if (prng(&s) % 4 != 0)
				line[len++] = ' ';
		}
		if (i % 7 == 0)
			for (k = 0; k < len; k++)
				if (prng(&s) % 16 == 0)
					line[k] = (char)(prng(&s) & 0xff);
		(void)cachefile_load_line(ld, line, len);
	}
	cachefile_load_finish(ld);
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.lines, 20001);
	cachefile_load_free(ld);
	cache_destroy(c);
}
END_TEST

/* ---- DNSSEC status and image ----------------------------------------- */

#define SIGNED_TEXT \
	HEADER "\n" \
	       "www.example.lab.\t300\tIN\tA\t192.0.2.10\t; rank=auth " \
	       "src=plain " \
	       "sec=secure\n" \
	       "www.example.lab.\t300\tIN\tRRSIG\t\\# 4 01020304\t; dnssec\n" \
	       "www.example.lab.\t9\tIN\tRRSIG\t\\# 2 0506\t; dnssec\n" \
	       "example.lab.\t300\tIN\tSOA\tns1.example.lab. " \
	       "hostmaster.example.lab. 1 3600 600 86400 300\t; nodata " \
	       "name=mail.example.lab. type=AAAA rank=auth src=plain " \
	       "sec=bogus\n" \
	       "a.example.lab.\t300\tIN\tNSEC\t\\# 3 000100\t; dnssec\n" \
	       "example.lab.\t300\tIN\tSOA\tns1.example.lab. " \
	       "hostmaster.example.lab. 1 3600 600 86400 300\t; nxdomain " \
	       "name=nx.example.lab. rank=auth src=plain sec=insecure\n" \
	       "plain.example.lab.\t300\tIN\tA\t192.0.2.11\t; rank=auth " \
	       "src=plain\n"

/* Read name/type with CACHE_GET_DNSSEC from c at CT_NOW + 5. */
static int get_signed(struct cache *c, const char *name, uint16_t type,
                      struct cache_answer *ans, uint8_t *buf, size_t cap)
{
	uint8_t n[WIRE_NAME_MAX];
	struct cache_query q = { n, ct_name(name, n), type, WIRE_CLASS_IN,
		                 CACHE_GET_DNSSEC };

	return cache_get(c, &q, CT_NOW + 5, ans, buf, cap);
}

START_TEST(roundtrip_dnssec)
{
	static const uint8_t sig2[] = { 0, 46, 0, 1, 0, 0, 1, 39, 0, 2, 5, 6 };
	struct cache *c1 = ct_cache(), *c2 = ct_cache();
	struct cachefile_load_counts n;
	struct cachefile_load *ld;
	struct cache_answer ans;
	uint8_t buf[1024], owner[WIRE_NAME_MAX];
	char *t1, *t2;
	size_t ol = ct_name("www.example.lab.", owner);

	ld = load(c1, CT_NOW, SIGNED_TEXT);
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.bad, 0);
	ck_assert_uint_eq(n.entries, 4);
	ck_assert_uint_eq(n.rrs, 4);
	ck_assert_uint_eq(n.dnssec, 3);
	cachefile_load_free(ld);
	/* The image is in the cache, each TTL the entry's. */
	ck_assert_int_eq(get_signed(c1, "www.example.lab.", WIRE_TYPE_A, &ans,
	                            buf, sizeof buf),
	                 CACHE_OK);
	ck_assert_int_eq(ans.sec, CACHE_SEC_SECURE);
	ck_assert_uint_eq(ans.dnssec_count, 2);
	ck_assert_uint_eq(ans.dnssec_len, 2 * (ol + 10) + 6);
	ck_assert_mem_eq(buf + ans.len + ol + 10 + 4 + ol, sig2, sizeof sig2);
	ck_assert_int_eq(get_signed(c1, "mail.example.lab.", WIRE_TYPE_AAAA,
	                            &ans, buf, sizeof buf),
	                 CACHE_OK);
	ck_assert_int_eq(ans.sec, CACHE_SEC_BOGUS);
	ck_assert_uint_eq(ans.dnssec_count, 1);
	ck_assert_int_eq(get_signed(c1, "nx.example.lab.", WIRE_TYPE_A, &ans,
	                            buf, sizeof buf),
	                 CACHE_OK);
	ck_assert_int_eq(ans.sec, CACHE_SEC_INSECURE);
	ck_assert_uint_eq(ans.dnssec_count, 0);
	/* Dumped back: the same lines (the image with the entry's TTL). */
	t1 = dump(c1, CT_NOW, NULL);
	ck_assert(ct_has(t1, strlen(t1), "src=plain sec=secure\n"));
	ck_assert(ct_has(t1, strlen(t1), "src=plain sec=insecure\n"));
	ck_assert(ct_has(t1, strlen(t1),
	                 "type=AAAA rank=auth src=plain "
	                 "sec=bogus\n"));
	ck_assert(ct_has(t1, strlen(t1),
	                 "192.0.2.11\t; rank=auth "
	                 "src=plain\n"));
	ck_assert(!ct_has(t1, strlen(t1), "sec=unchecked"));
	ck_assert(ct_has(t1, strlen(t1), "\t; dnssec\n"));
	ld = load(c2, CT_NOW, t1);
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.bad, 0);
	ck_assert_uint_eq(n.dnssec, 3);
	cachefile_load_free(ld);
	t2 = dump(c2, CT_NOW, NULL);
	ck_assert_uint_eq(same_lines(t1, t2), 1 + 4 + 3);
	cache_destroy(c1);
	cache_destroy(c2);
}
END_TEST

/* A wildcard-expanded RRset keeps the proof of its expansion (an NSEC
 * of the wildcard and its RRSIG, other owners than the set's) after its
 * own RRSIG in its image (iter_reply.c): the longer image round-trips,
 * each record in its place. */
#define WILDCARD_TEXT \
	HEADER "\n" \
	       "any.w.example.lab.\t300\tIN\tA\t192.0.2.12\t; rank=auth " \
	       "src=plain sec=secure\n" \
	       "any.w.example.lab.\t300\tIN\tRRSIG\t\\# 2 0102\t; dnssec\n" \
	       "*.w.example.lab.\t300\tIN\tNSEC\t\\# 3 000100\t; dnssec\n" \
	       "*.w.example.lab.\t300\tIN\tRRSIG\t\\# 2 0304\t; dnssec\n"

START_TEST(roundtrip_wildcard_proof)
{
	static const uint16_t types[] = { 46, 47, 46 };
	struct cache *c1 = ct_cache(), *c2 = ct_cache();
	struct cachefile_load_counts n;
	struct cachefile_load *ld;
	struct cache_answer ans;
	uint8_t buf[1024], o[WIRE_NAME_MAX], w[WIRE_NAME_MAX];
	size_t ol = ct_name("any.w.example.lab.", o), pos, i;
	size_t wl = ct_name("*.w.example.lab.", w);
	char *t1, *t2;

	ld = load(c1, CT_NOW, WILDCARD_TEXT);
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.bad, 0);
	ck_assert_uint_eq(n.dnssec, 3);
	cachefile_load_free(ld);
	ck_assert_int_eq(get_signed(c1, "any.w.example.lab.", WIRE_TYPE_A,
	                            &ans, buf, sizeof buf),
	                 CACHE_OK);
	ck_assert_uint_eq(ans.dnssec_count, 3);
	ck_assert_uint_eq(ans.dnssec_len, (ol + 12) + (wl + 13) + (wl + 12));
	for (pos = ans.len, i = 0; i < 3; i++) {
		size_t olen = i == 0 ? ol : wl;

		ck_assert_mem_eq(buf + pos, i == 0 ? o : w, olen);
		ck_assert_uint_eq(buf[pos + olen + 1], types[i]);
		pos += olen + 10 + buf[pos + olen + 9];
	}
	ck_assert_uint_eq(pos, ans.len + ans.dnssec_len);
	t1 = dump(c1, CT_NOW, NULL);
	ld = load(c2, CT_NOW, t1);
	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.bad, 0);
	ck_assert_uint_eq(n.dnssec, 3);
	cachefile_load_free(ld);
	t2 = dump(c2, CT_NOW, NULL);
	ck_assert_uint_eq(same_lines(t1, t2), 1 + 1 + 3);
	cache_destroy(c1);
	cache_destroy(c2);
}
END_TEST

/* A bad line of an entry's image: the entry is not stored (it would be
 * served without its signatures), the next one is. */
START_TEST(reject_bad_dnssec_line_drops_entry)
{
	static const char text[] = HEADER
		"\n"
		"a.lab.\t300\tIN\tA\t192.0.2.1\t; rank=auth src=plain "
		"sec=secure\n"
		"a.lab.\t300\tIN\tRRSIG\t\\# 2 01\t; dnssec\n"
		"b.lab.\t300\tIN\tA\t192.0.2.2\t; rank=auth src=plain "
		"sec=secure\n"
		"b.lab.\t300\tIN\tRRSIG\t\\# 1 01\t; dnssec\n"
		"b.lab.\t300\tIN\tA\t192.0.2.3\t; rank=auth src=plain "
		"sec=secure\n"
		"c.lab.\t300\tIN\tA\t192.0.2.4\t; rank=auth src=plain\n"
		"c.lab.\t300\tIN\tRRSIG\t\\# 1 01\t; dnssec sec=secure\n";
	struct cache *c = ct_cache();
	struct cachefile_load_counts n;
	struct cachefile_load *ld = load(c, CT_NOW, text);
	struct cache_answer ans;
	uint8_t buf[512];

	cachefile_load_counts(ld, &n);
	ck_assert_uint_eq(n.bad, 2);
	ck_assert_uint_eq(n.entries, 2); /* b.lab. twice */
	ck_assert_int_eq(get_signed(c, "c.lab.", WIRE_TYPE_A, &ans, buf,
	                            sizeof buf),
	                 CACHE_ENOTFOUND);
	ck_assert_int_eq(get_signed(c, "a.lab.", WIRE_TYPE_A, &ans, buf,
	                            sizeof buf),
	                 CACHE_ENOTFOUND);
	/* An RR line after the image starts a new entry: b.lab. is the
	 * second A line alone, which replaced the first (equal rank). */
	ck_assert_int_eq(get_signed(c, "b.lab.", WIRE_TYPE_A, &ans, buf,
	                            sizeof buf),
	                 CACHE_OK);
	ck_assert_uint_eq(ans.count, 1);
	ck_assert_uint_eq(buf[ans.len - 1], 3);
	ck_assert_uint_eq(ans.dnssec_count, 0);
	cachefile_load_free(ld);
	cache_destroy(c);
}
END_TEST

Suite *cachefile_suite(void)
{
	Suite *s = suite_create("cachefile");
	TCase *tc;

	tc = tcase_create("roundtrip");
	tcase_add_test(tc, roundtrip_every_kind);
	tcase_add_test(tc, roundtrip_provenance_kept);
	tcase_add_test(tc, ttl_counts_down_and_expired_dropped);
	tcase_add_test(tc, dump_skips_stale);
	tcase_add_test(tc, existing_better_data_kept);
	tcase_add_test(tc, roundtrip_dnssec);
	tcase_add_test(tc, roundtrip_wildcard_proof);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_loop_test(tc, reject_each, 0,
	                    (int)(sizeof bad_cases / sizeof bad_cases[0]));
	tcase_add_test(tc, reject_headers);
	tcase_add_test(tc, reject_empty_input);
	tcase_add_test(tc, reject_bad_line_drops_its_rrset);
	tcase_add_test(tc, reject_bad_dnssec_line_drops_entry);
	tcase_add_test(tc, reject_too_long);
	tcase_add_test(tc, report_caps_its_lines);
	suite_add_tcase(s, tc);
	tc = tcase_create("rdata");
	tcase_add_test(tc, rdata_forms);
	tcase_add_test(tc, rdata_checks);
	suite_add_tcase(s, tc);
	tc = tcase_create("hostile");
	tcase_add_test(tc, hostile_lines);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
