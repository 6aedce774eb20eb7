/*
 * tests/unit/check_cache.c - Check suite "cache": the answer cache.
 *
 * Time is driven by hand (the `now` argument), never by sleeping.
 * TCases: roundtrip, ttl, rank, negative, reject, evict, flush, zonecut,
 * hash, dnssec, threads. The "threads" case also runs in a ThreadSanitizer
 * build (tests/cache_tsan.sh). Environment: CACHE_TEST_INSERTS  inserts of the
 * eviction test (default 1000000) CACHE_STRESS_OPS    operations per thread of
 * the stress test
 */
#include "config.h"

#include <check.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#if defined(__GLIBC__) /* defined by the libc headers above */
#include <malloc.h>
#endif

#include "cache.h"
#include "internal.h"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define UNDER_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define UNDER_SANITIZER 1
#endif
#endif

#define T0 ((time_t)1700000000)
#define TYPE_A 1
#define TYPE_AAAA 28
#define TYPE_MX 15
#define CLASS_IN 1
#define BUF_BYTES 70000
/** A one-shard cache: the shard minimum plus room for the handle. */
#define SMALL_CACHE (CACHE_SHARD_MIN_BYTES + 4096)

static uint8_t buf[BUF_BYTES];

/* ---- helpers ---------------------------------------------------- */

/* "www.example.com" -> wire; "." -> root. */
static size_t wire(uint8_t *out, const char *dotted)
{
	size_t n = 0;
	const char *p = dotted;

	if (strcmp(dotted, ".") == 0) {
		out[0] = 0;
		return 1;
	}
	while (*p) {
		const char *dot = strchr(p, '.');
		size_t l = dot ? (size_t)(dot - p) : strlen(p);
		out[n++] = (uint8_t)l;
		memcpy(out + n, p, l);
		n += l;
		p += l;
		if (*p == '.')
			p++;
	}
	out[n++] = 0;
	return n;
}

static struct cache *make_cache(size_t bytes, unsigned shards)
{
	struct cache_config cfg;
	struct cache *c = NULL;

	cache_config_init(&cfg);
	cfg.max_bytes = bytes;
	cfg.shards = shards;
	for (int i = 0; i < CACHE_HASH_KEY_BYTES; i++)
		cfg.hash_key[i] = (uint8_t)(i * 7 + 1);
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_OK);
	ck_assert_ptr_nonnull(c);
	return c;
}

static int put_rrset(struct cache *c, const char *name, uint16_t type,
                     uint32_t ttl, enum cache_rank rank, const uint8_t *key,
                     const struct cache_rdata *rd, size_t count, time_t now)
{
	uint8_t n[CACHE_NAME_MAX + 1];
	struct cache_rrset set = {
		n,   wire(n, name),       type, CLASS_IN, ttl, rd, count, rank,
		key, CACHE_SEC_UNCHECKED, NULL, 0
	};
	return cache_rrset_put(c, &set, now);
}

static int put_a(struct cache *c, const char *name, uint32_t ttl,
                 enum cache_rank rank, const uint8_t *key, uint32_t addr,
                 time_t now)
{
	uint8_t a[4] = { (uint8_t)(addr >> 24), (uint8_t)(addr >> 16),
		         (uint8_t)(addr >> 8), (uint8_t)addr };
	struct cache_rdata rd = { a, sizeof(a) };
	return put_rrset(c, name, TYPE_A, ttl, rank, key, &rd, 1, now);
}

static int get(struct cache *c, const char *name, uint16_t type,
               unsigned flags, time_t now, struct cache_answer *ans)
{
	uint8_t n[CACHE_NAME_MAX + 1];
	struct cache_query q = { n, wire(n, name), type, CLASS_IN, flags };
	return cache_get(c, &q, now, ans, buf, sizeof(buf));
}

/* put_a, get: checks that they give CACHE_OK (or for GET_NONE,
 * CACHE_ENOTFOUND), failing at the caller's line. */
#define PUT_A_OK(...) ck_assert_int_eq(put_a(__VA_ARGS__), CACHE_OK)
#define GET_OK(...) ck_assert_int_eq(get(__VA_ARGS__), CACHE_OK)
#define GET_NONE(...) ck_assert_int_eq(get(__VA_ARGS__), CACHE_ENOTFOUND)

/* The A address in a one-RR answer in buf. */
static uint32_t answer_addr(const struct cache_answer *ans)
{
	const uint8_t *rd = buf + ans->len - 4;
	return ((uint32_t)rd[0] << 24) | ((uint32_t)rd[1] << 16) |
	       ((uint32_t)rd[2] << 8) | rd[3];
}

static uint32_t rd32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) |
	       ((uint32_t)p[2] << 8) | p[3];
}

/* SOA RDATA: ns.<zone> hostmaster.<zone> 1 7200 900 1209600 minimum. */
static size_t soa_rdata(uint8_t *out, const char *zone, uint32_t minimum)
{
	char tmp[300];
	size_t n;
	uint32_t v[5] = { 1, 7200, 900, 1209600, minimum };

	snprintf(tmp, sizeof(tmp), "ns.%s", zone);
	n = wire(out, tmp);
	snprintf(tmp, sizeof(tmp), "hostmaster.%s", zone);
	n += wire(out + n, tmp);
	for (int i = 0; i < 5; i++, n += 4) {
		out[n] = (uint8_t)(v[i] >> 24);
		out[n + 1] = (uint8_t)(v[i] >> 16);
		out[n + 2] = (uint8_t)(v[i] >> 8);
		out[n + 3] = (uint8_t)v[i];
	}
	return n;
}

static int put_neg(struct cache *c, enum cache_kind kind, const char *name,
                   uint16_t type, const char *zone, uint32_t soa_ttl,
                   uint32_t minimum, enum cache_rank rank, time_t now)
{
	uint8_t n[CACHE_NAME_MAX + 1], z[CACHE_NAME_MAX + 1], rd[600];
	struct cache_neg neg = { kind,
		                 n,
		                 wire(n, name),
		                 type,
		                 CLASS_IN,
		                 z,
		                 wire(z, zone),
		                 soa_ttl,
		                 rd,
		                 soa_rdata(rd, zone, minimum),
		                 rank,
		                 NULL,
		                 CACHE_SEC_UNCHECKED,
		                 NULL,
		                 0 };
	return cache_neg_put(c, &neg, now);
}

/* ---- roundtrip --------------------------------------------------- */

START_TEST(test_put_get_a)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t n[64], want[64];
	size_t nl = wire(n, "www.example.com"), wl = 0;

	PUT_A_OK(c, "www.example.com", 300, CACHE_RANK_AUTH, NULL, 0x5db8d822,
	         T0);
	GET_OK(c, "www.example.com", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_RRSET);
	ck_assert_int_eq(ans.rank, CACHE_RANK_AUTH);
	ck_assert_uint_eq(ans.type, TYPE_A);
	ck_assert_uint_eq(ans.klass, CLASS_IN);
	ck_assert_uint_eq(ans.ttl, 300);
	ck_assert_int_eq(ans.stale, 0);
	ck_assert_int_eq(ans.curve, 0);
	ck_assert_uint_eq(ans.count, 1);
	ck_assert_uint_eq(ans.owner_off, 0);
	/* The exact wire RR: owner, type, class, TTL, RDLENGTH, RDATA. */
	memcpy(want, n, nl);
	wl = nl;
	memcpy(want + wl,
	       "\x00\x01\x00\x01\x00\x00\x01\x2c\x00\x04"
	       "\x5d\xb8\xd8\x22",
	       14);
	wl += 14;
	ck_assert_uint_eq(ans.len, wl);
	ck_assert_mem_eq(buf, want, wl);
	/* Other type, class or name: misses. */
	GET_NONE(c, "www.example.com", TYPE_AAAA, 0, T0, &ans);
	GET_NONE(c, "example.com", TYPE_A, 0, T0, &ans);
	{
		struct cache_query q = { n, nl, TYPE_A, 3, 0 };
		ck_assert_int_eq(cache_get(c, &q, T0, &ans, buf, sizeof(buf)),
		                 CACHE_ENOTFOUND);
	}
	cache_destroy(c);
}
END_TEST

/* cache_watch: any change of the name's shard breaks it (a put of
 * another type, a refused put does not, a flush, a noted EDE), a read
 * does not; a watch never holds on another cache. One shard, so every
 * name shares it. */
START_TEST(test_watch)
{
	struct cache *c = make_cache(1 << 20, 1), *d;
	struct cache_watch w, w2;
	struct cache_answer ans;
	uint8_t n[CACHE_NAME_MAX + 1];
	size_t len = wire(n, "example.com");
	time_t now = 1000;

	ck_assert_int_eq(cache_watch(c, n, len, &w), CACHE_OK);
	ck_assert(cache_watch_same(c, &w));
	GET_NONE(c, "example.com", TYPE_A, 0, now, &ans);
	ck_assert(cache_watch_same(c, &w));
	PUT_A_OK(c, "other.example", 300, CACHE_RANK_AUTH, NULL, 1, now);
	ck_assert(!cache_watch_same(c, &w));
	ck_assert_int_eq(cache_watch(c, n, len, &w), CACHE_OK);
	GET_OK(c, "other.example", TYPE_A, 0, now, &ans);
	ck_assert(cache_watch_same(c, &w));
	ck_assert_int_eq(put_a(c, "other.example", 300, CACHE_RANK_GLUE, NULL,
	                       2, now),
	                 CACHE_ERANK);
	ck_assert(cache_watch_same(c, &w));
	ck_assert_int_eq(cache_flush_name(c, n, len, NULL), CACHE_OK);
	ck_assert(cache_watch_same(c, &w)); /* nothing was there */
	len = wire(n, "other.example");
	ck_assert_int_eq(cache_flush_name(c, n, len, NULL), CACHE_OK);
	ck_assert(!cache_watch_same(c, &w));
	ck_assert_int_eq(cache_watch(c, n, len, &w), CACHE_OK);
	d = make_cache(1 << 20, 1);
	ck_assert_int_eq(cache_watch(d, n, len, &w2), CACHE_OK);
	w.gen = w2.gen; /* the same shard and count, another cache */
	ck_assert(!cache_watch_same(d, &w));
	ck_assert(!cache_watch_same(c, &w2));
	ck_assert_int_eq(cache_watch(c, (const uint8_t *)"\x01", 1, &w),
	                 CACHE_ENAME);
	cache_destroy(d);
	cache_destroy(c);
}
END_TEST

START_TEST(test_put_get_aaaa8)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t addrs[8][16], n[64];
	struct cache_rdata rd[8];
	size_t nl = wire(n, "v6.example.net"), pos = 0;

	for (int i = 0; i < 8; i++) {
		memset(addrs[i], 0x20 + i, 16);
		rd[i].data = addrs[i];
		rd[i].len = 16;
	}
	ck_assert_int_eq(put_rrset(c, "v6.example.net", TYPE_AAAA, 600,
	                           CACHE_RANK_NONAUTH, NULL, rd, 8, T0),
	                 CACHE_OK);
	GET_OK(c, "v6.example.net", TYPE_AAAA, 0, T0 + 10, &ans);
	ck_assert_uint_eq(ans.count, 8);
	ck_assert_uint_eq(ans.len, 8 * (nl + 10 + 16));
	for (int i = 0; i < 8; i++) {
		ck_assert_mem_eq(buf + pos, n, nl);
		pos += nl;
		ck_assert_mem_eq(buf + pos, "\x00\x1c\x00\x01", 4);
		ck_assert_uint_eq(rd32(buf + pos + 4), 590);
		ck_assert_mem_eq(buf + pos + 8, "\x00\x10", 2);
		ck_assert_mem_eq(buf + pos + 10, addrs[i], 16);
		pos += 26;
	}
	cache_destroy(c);
}
END_TEST

START_TEST(test_provenance_and_space)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t key[CACHE_SERVER_KEY_BYTES], n[64], small[10];
	struct cache_query q = { n, wire(n, "curve.example"), TYPE_A, CLASS_IN,
		                 0 };

	for (int i = 0; i < CACHE_SERVER_KEY_BYTES; i++)
		key[i] = (uint8_t)(0xa0 + i);
	PUT_A_OK(c, "curve.example", 60, CACHE_RANK_AUTH, key, 1, T0);
	GET_OK(c, "curve.example", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.curve, 1);
	ck_assert_mem_eq(ans.server_key, key, CACHE_SERVER_KEY_BYTES);
	ck_assert_uint_eq(answer_addr(&ans), 1);
	/* Too small a buffer: CACHE_ESPACE with the size needed, no write. */
	memset(small, 0xee, sizeof(small));
	ck_assert_int_eq(cache_get(c, &q, T0, &ans, small, sizeof(small)),
	                 CACHE_ESPACE);
	ck_assert_uint_eq(ans.len, q.name_len + 14);
	for (size_t i = 0; i < sizeof(small); i++)
		ck_assert_uint_eq(small[i], 0xee);
	ck_assert_int_eq(cache_get(c, &q, T0, &ans, NULL, 0), CACHE_ESPACE);
	memset(buf, 0xee, sizeof(buf));
	ck_assert_int_eq(cache_get(c, &q, T0, &ans, buf, q.name_len + 13),
	                 CACHE_ESPACE);
	ck_assert_uint_eq(buf[0], 0xee);
	ck_assert_int_eq(cache_get(c, &q, T0, &ans, buf, q.name_len + 14),
	                 CACHE_OK);
	/* Same rank, same provenance: the newer data replaces. */
	PUT_A_OK(c, "curve.example", 60, CACHE_RANK_AUTH, key, 2, T0 + 1);
	GET_OK(c, "curve.example", TYPE_A, 0, T0 + 1, &ans);
	ck_assert_uint_eq(answer_addr(&ans), 2);
	cache_destroy(c);
}
END_TEST

/* cache_view's via, for test_via. */
static int via_cb(const struct cache_view *v, void *arg)
{
	int *seen = arg;

	seen[v->kind == CACHE_KIND_NXDOMAIN ? 0 : 1] = (int)v->via;
	return 0;
}

/* How data was learned is kept with it (cache_*_put_via): read back by
 * cache_get and cache_iterate, beside a BOGUS entry's EDE code; plain by
 * default and for a bad value. */
START_TEST(test_via)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t a[4] = { 192, 0, 2, 1 }, n[64], soa[64] = { 0 };
	struct cache_rdata rd = { a, sizeof(a) };
	struct cache_rrset set = { n,      wire(n, "tls.example"),
		                   TYPE_A, CLASS_IN,
		                   60,     &rd,
		                   1,      CACHE_RANK_AUTH,
		                   NULL,   CACHE_SEC_UNCHECKED,
		                   NULL,   0 };
	struct cache_query q = { n, set.name_len, TYPE_A, CLASS_IN, 0 };
	struct cache_neg neg;
	int seen[2] = { -1, -1 };

	ck_assert_int_eq(cache_rrset_put_via(c, &set, T0, CACHE_VIA_TLS),
	                 CACHE_OK);
	GET_OK(c, "tls.example", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.via, CACHE_VIA_TLS);
	ck_assert_int_eq(cache_iterate(c, T0, via_cb, seen), CACHE_OK);
	ck_assert_int_eq(seen[1], CACHE_VIA_TLS);
	set.sec = CACHE_SEC_BOGUS;
	ck_assert_int_eq(cache_rrset_put_via(c, &set, T0, CACHE_VIA_TLS_DANE),
	                 CACHE_OK);
	ck_assert_int_eq(cache_bogus_ede(c, &q, T0, 27), CACHE_OK);
	GET_OK(c, "tls.example", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.via, CACHE_VIA_TLS_DANE);
	ck_assert_uint_eq(ans.ede, 27);
	set.sec = CACHE_SEC_UNCHECKED;
	ck_assert_int_eq(cache_rrset_put(c, &set, T0 + 1), CACHE_OK);
	GET_OK(c, "tls.example", TYPE_A, 0, T0 + 1, &ans);
	ck_assert_int_eq(ans.via, CACHE_VIA_PLAIN);
	ck_assert_uint_eq(ans.ede, 0);
	ck_assert_int_eq(cache_rrset_put_via(c, &set, T0 + 2,
	                                     (enum cache_via)200),
	                 CACHE_OK);
	GET_OK(c, "tls.example", TYPE_A, 0, T0 + 2, &ans);
	ck_assert_int_eq(ans.via, CACHE_VIA_PLAIN);
	/* a negative entry: SOA "." "." and five counters */
	memset(&neg, 0, sizeof neg);
	neg.kind = CACHE_KIND_NXDOMAIN;
	neg.name = n;
	neg.name_len = wire(n, "nx.example");
	neg.klass = CLASS_IN;
	neg.soa_name = (const uint8_t *)"";
	neg.soa_name_len = 1;
	neg.soa_ttl = 60;
	neg.soa_rdata = soa;
	neg.soa_rdlen = 2 + 20;
	soa[2 + 19] = 60; /* MINIMUM: the entry's TTL */
	neg.rank = CACHE_RANK_AUTH;
	ck_assert_int_eq(cache_neg_put_via(c, &neg, T0, CACHE_VIA_FWD_TLS),
	                 CACHE_OK);
	GET_OK(c, "nx.example", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
	ck_assert_int_eq(ans.via, CACHE_VIA_FWD_TLS);
	ck_assert_int_eq(cache_iterate(c, T0, via_cb, seen), CACHE_OK);
	ck_assert_int_eq(seen[0], CACHE_VIA_FWD_TLS);
	cache_destroy(c);
}
END_TEST

START_TEST(test_empty_rdata_and_root)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	struct cache_rdata rd = { NULL, 0 };
	uint8_t ns[64];
	struct cache_rdata nsrd = { ns, wire(ns, "a.root-servers.net") };

	ck_assert_int_eq(put_rrset(c, "empty.example", 10, 60, CACHE_RANK_AUTH,
	                           NULL, &rd, 1, T0),
	                 CACHE_OK);
	GET_OK(c, "empty.example", 10, 0, T0, &ans);
	ck_assert_mem_eq(buf + ans.len - 2, "\x00\x00", 2);
	ck_assert_int_eq(put_rrset(c, ".", CACHE_TYPE_NS, 60, CACHE_RANK_AUTH,
	                           NULL, &nsrd, 1, T0),
	                 CACHE_OK);
	GET_OK(c, ".", CACHE_TYPE_NS, 0, T0, &ans);
	ck_assert_uint_eq(ans.len, 1 + 10 + nsrd.len);
	cache_destroy(c);
}
END_TEST

/* ---- ttl ----------------------------------------------------------- */

START_TEST(test_ttl_countdown_and_expiry)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	struct cache_stats st;

	PUT_A_OK(c, "t.example", 300, CACHE_RANK_AUTH, NULL, 9, T0);
	GET_OK(c, "t.example", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.ttl, 300);
	ck_assert_uint_eq(rd32(buf + 11 + 4), 300); /* TTL in the RR too */
	GET_OK(c, "t.example", TYPE_A, 0, T0 + 100, &ans);
	ck_assert_uint_eq(ans.ttl, 200);
	ck_assert_uint_eq(rd32(buf + 11 + 4), 200);
	GET_OK(c, "t.example", TYPE_A, 0, T0 + 299, &ans);
	ck_assert_uint_eq(ans.ttl, 1);
	/* At expiry it is a miss... */
	GET_NONE(c, "t.example", TYPE_A, 0, T0 + 300, &ans);
	GET_NONE(c, "t.example", TYPE_A, 0, T0 + 5000, &ans);
	/* ...but stays for serve-stale, with TTL 0. */
	GET_OK(c, "t.example", TYPE_A, CACHE_GET_STALE, T0 + 5000, &ans);
	ck_assert_int_eq(ans.stale, 1);
	ck_assert_uint_eq(ans.ttl, 0);
	ck_assert_int_eq(ans.expire, T0 + 300);
	ck_assert_uint_eq(rd32(buf + 11 + 4), 0);
	ck_assert_uint_eq(answer_addr(&ans), 9);
	/* A fresh entry is not flagged stale under the flag. */
	GET_OK(c, "t.example", TYPE_A, CACHE_GET_STALE, T0 + 1, &ans);
	ck_assert_int_eq(ans.stale, 0);
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.hits, 4);
	ck_assert_uint_eq(st.misses, 2);
	ck_assert_uint_eq(st.stale_hits, 1);
	ck_assert_uint_eq(st.entries, 1);
	ck_assert_uint_eq(st.inserts, 1);
	cache_destroy(c);
}
END_TEST

/* The stored expiry is 32 bits: crossing 2^32 and 2^31 changes nothing. */
START_TEST(test_ttl_across_32bit_boundaries)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	const time_t wrap = (time_t)1 << 32, half = (time_t)1 << 31;
	const time_t starts[] = { wrap - 10, half - 10, -20, 3 * wrap - 1 };

	for (size_t i = 0; i < sizeof(starts) / sizeof(starts[0]); i++) {
		time_t t = starts[i];
		PUT_A_OK(c, "w.example", 100, CACHE_RANK_AUTH, NULL, 1, t);
		GET_OK(c, "w.example", TYPE_A, 0, t + 15, &ans);
		ck_assert_uint_eq(ans.ttl, 85);
		ck_assert_int_eq(ans.expire, t + 100);
		GET_NONE(c, "w.example", TYPE_A, 0, t + 100, &ans);
		GET_OK(c, "w.example", TYPE_A, CACHE_GET_STALE, t + 5000,
		       &ans);
		ck_assert_int_eq(ans.stale, 1);
		ck_assert_int_eq(ans.expire, t + 100);
		/* Long expired, still stale (not fresh again) a year on. */
		GET_NONE(c, "w.example", TYPE_A, 0, t + 366 * 86400, &ans);
	}
	/* The largest TTL the config allows stays fresh to its end. */
	PUT_A_OK(c, "max.example", 86400, CACHE_RANK_AUTH, NULL, 1, wrap - 1);
	GET_OK(c, "max.example", TYPE_A, 0, wrap + 86398, &ans);
	ck_assert_uint_eq(ans.ttl, 1);
	cache_destroy(c);
}
END_TEST

START_TEST(test_ttl_clamps)
{
	struct cache_config cfg;
	struct cache *c = NULL;
	struct cache_answer ans;

	cache_config_init(&cfg);
	ck_assert_uint_eq(cfg.min_ttl, 0);
	ck_assert_uint_eq(cfg.max_ttl, 86400);
	ck_assert_uint_eq(cfg.neg_max_ttl, 3600);
	cfg.max_bytes = 1 << 20;
	cfg.min_ttl = 60;
	cfg.max_ttl = 3600;
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_OK);
	PUT_A_OK(c, "low.example", 5, CACHE_RANK_AUTH, NULL, 1, T0);
	GET_OK(c, "low.example", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.ttl, 60);
	PUT_A_OK(c, "high.example", 100000, CACHE_RANK_AUTH, NULL, 1, T0);
	GET_OK(c, "high.example", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.ttl, 3600);
	/* A TTL with the top bit set reads as 0 (RFC 2181 8), then min. */
	PUT_A_OK(c, "top.example", 0x80000001u, CACHE_RANK_AUTH, NULL, 1, T0);
	GET_OK(c, "top.example", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.ttl, 60);
	cache_destroy(c);
}
END_TEST

/* The original (clamped) TTL is reported on every read, for prefetch. */
START_TEST(test_ttl_orig_for_prefetch)
{
	struct cache_config cfg;
	struct cache *c = NULL;
	struct cache_answer ans;

	cache_config_init(&cfg);
	cfg.max_bytes = 1 << 20;
	cfg.min_ttl = 60;
	cfg.max_ttl = 3600;
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_OK);
	PUT_A_OK(c, "p.example", 1000, CACHE_RANK_AUTH, NULL, 1, T0);
	GET_OK(c, "p.example", TYPE_A, 0, T0 + 950, &ans);
	ck_assert_uint_eq(ans.ttl, 50);
	ck_assert_uint_eq(ans.orig_ttl, 1000);
	PUT_A_OK(c, "low.example", 5, CACHE_RANK_AUTH, NULL, 1, T0);
	GET_OK(c, "low.example", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.orig_ttl, 60);
	PUT_A_OK(c, "high.example", 100000, CACHE_RANK_AUTH, NULL, 1, T0);
	GET_OK(c, "high.example", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.orig_ttl, 3600);
	/* Negative entries: min(SOA TTL, MINIMUM). */
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NXDOMAIN, "nx.example", TYPE_A,
	                         "example", 900, 300, CACHE_RANK_AUTH, T0),
	                 CACHE_OK);
	GET_OK(c, "nx.example", TYPE_A, 0, T0 + 10, &ans);
	ck_assert_uint_eq(ans.ttl, 290);
	ck_assert_uint_eq(ans.orig_ttl, 300);
	/* Stale reads keep it too. */
	GET_OK(c, "p.example", TYPE_A, CACHE_GET_STALE, T0 + 2000, &ans);
	ck_assert_int_eq(ans.stale, 1);
	ck_assert_uint_eq(ans.orig_ttl, 1000);
	cache_destroy(c);
}
END_TEST

START_TEST(test_ttl_default_max_and_zero)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	const time_t end = (time_t)INT64_MAX;

	PUT_A_OK(c, "week.example", 604800, CACHE_RANK_AUTH, NULL, 1, T0);
	GET_OK(c, "week.example", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.ttl, 86400);
	/* TTL 0: stored, but never fresh. */
	PUT_A_OK(c, "zero.example", 0, CACHE_RANK_AUTH, NULL, 1, T0);
	GET_NONE(c, "zero.example", TYPE_A, 0, T0, &ans);
	GET_OK(c, "zero.example", TYPE_A, CACHE_GET_STALE, T0, &ans);
	/* At the end of time_t the TTL still counts down; the absolute
	 * expiry reported saturates instead of wrapping. */
	ck_assert_int_eq(sizeof(time_t), 8);
	PUT_A_OK(c, "end.example", 100, CACHE_RANK_AUTH, NULL, 1, end - 10);
	GET_OK(c, "end.example", TYPE_A, 0, end - 5, &ans);
	ck_assert_uint_eq(ans.ttl, 95);
	ck_assert_int_eq(ans.expire == end, 1);
	ck_assert_int_eq(cache_time_add(end - 1, 5) == end, 1);
	ck_assert_int_eq(cache_time_add(-end + 1, -5) == -end - 1, 1);
	ck_assert_int_eq(cache_time_add(T0, -5), T0 - 5);
	cache_destroy(c);
}
END_TEST

/* ---- rank --------------------------------------------------------- */

START_TEST(test_rank_lower_never_overwrites_fresh_higher)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	struct cache_stats st;

	PUT_A_OK(c, "r.example", 100, CACHE_RANK_AUTH, NULL, 1, T0);
	ck_assert_int_eq(put_a(c, "r.example", 100, CACHE_RANK_NONAUTH, NULL,
	                       2, T0),
	                 CACHE_ERANK);
	ck_assert_int_eq(put_a(c, "r.example", 100, CACHE_RANK_REFERRAL, NULL,
	                       3, T0),
	                 CACHE_ERANK);
	ck_assert_int_eq(put_a(c, "r.example", 100, CACHE_RANK_GLUE, NULL, 4,
	                       T0 + 99),
	                 CACHE_ERANK);
	GET_OK(c, "r.example", TYPE_A, 0, T0 + 1, &ans);
	ck_assert_uint_eq(answer_addr(&ans), 1);
	ck_assert_uint_eq(ans.ttl, 99);
	/* Equal rank replaces. */
	PUT_A_OK(c, "r.example", 50, CACHE_RANK_AUTH, NULL, 5, T0 + 2);
	GET_OK(c, "r.example", TYPE_A, 0, T0 + 2, &ans);
	ck_assert_uint_eq(answer_addr(&ans), 5);
	ck_assert_uint_eq(ans.ttl, 50);
	/* Once expired, the lower rank may replace it. */
	PUT_A_OK(c, "r.example", 100, CACHE_RANK_GLUE, NULL, 6, T0 + 52);
	GET_OK(c, "r.example", TYPE_A, 0, T0 + 52, &ans);
	ck_assert_uint_eq(answer_addr(&ans), 6);
	ck_assert_int_eq(ans.rank, CACHE_RANK_GLUE);
	/* Higher rank replaces lower at once. */
	PUT_A_OK(c, "r.example", 100, CACHE_RANK_REFERRAL, NULL, 7, T0 + 53);
	PUT_A_OK(c, "r.example", 100, CACHE_RANK_NONAUTH, NULL, 8, T0 + 53);
	GET_OK(c, "r.example", TYPE_A, 0, T0 + 53, &ans);
	ck_assert_uint_eq(answer_addr(&ans), 8);
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.rank_kept, 3);
	ck_assert_uint_eq(st.entries, 1);
	cache_destroy(c);
}
END_TEST

START_TEST(test_rank_curve_beats_plain_at_equal_rank)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t key[CACHE_SERVER_KEY_BYTES];

	memset(key, 0x42, sizeof(key));
	PUT_A_OK(c, "p.example", 100, CACHE_RANK_NONAUTH, NULL, 1, T0);
	PUT_A_OK(c, "p.example", 100, CACHE_RANK_NONAUTH, key, 2, T0);
	ck_assert_int_eq(put_a(c, "p.example", 100, CACHE_RANK_NONAUTH, NULL,
	                       3, T0),
	                 CACHE_ERANK);
	/* A higher rank learned plain still wins. */
	PUT_A_OK(c, "p.example", 100, CACHE_RANK_AUTH, NULL, 4, T0);
	GET_OK(c, "p.example", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(answer_addr(&ans), 4);
	ck_assert_int_eq(ans.curve, 0);
	cache_destroy(c);
}
END_TEST

START_TEST(test_rank_negative_vs_positive)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;

	/* NXDOMAIN (auth) removes the name's lower-ranked RRsets. */
	PUT_A_OK(c, "gone.example", 100, CACHE_RANK_NONAUTH, NULL, 1, T0);
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NXDOMAIN, "gone.example", 0,
	                         "example", 300, 300, CACHE_RANK_AUTH, T0),
	                 CACHE_OK);
	GET_OK(c, "gone.example", TYPE_A, CACHE_GET_STALE, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
	/* A glue A for it may be stored, but the NXDOMAIN outranks it. */
	PUT_A_OK(c, "gone.example", 100, CACHE_RANK_GLUE, NULL, 2, T0);
	GET_OK(c, "gone.example", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
	/* An authoritative answer for the name removes the NXDOMAIN. */
	PUT_A_OK(c, "gone.example", 100, CACHE_RANK_AUTH, NULL, 3, T0 + 1);
	GET_OK(c, "gone.example", TYPE_A, 0, T0 + 1, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_RRSET);
	ck_assert_uint_eq(answer_addr(&ans), 3);
	GET_NONE(c, "gone.example", TYPE_MX, CACHE_GET_STALE, T0 + 1, &ans);
	/* NODATA of lower rank cannot replace the fresh RRset... */
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NODATA, "gone.example", TYPE_A,
	                         "example", 300, 300, CACHE_RANK_NONAUTH,
	                         T0 + 1),
	                 CACHE_ERANK);
	/* ...and NXDOMAIN of lower rank leaves it, while a higher-ranked
	 * fresh RRset wins the lookup over the fresh NXDOMAIN. */
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NXDOMAIN, "gone.example", 0,
	                         "example", 300, 300, CACHE_RANK_NONAUTH,
	                         T0 + 1),
	                 CACHE_OK);
	GET_OK(c, "gone.example", TYPE_A, 0, T0 + 1, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_RRSET);
	GET_OK(c, "gone.example", TYPE_MX, 0, T0 + 1, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
	cache_destroy(c);
}
END_TEST

/* ---- negative ----------------------------------------------------- */

START_TEST(test_neg_nxdomain)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t z[64], rd[200];
	size_t zl = wire(z, "example.org"),
	       rl = soa_rdata(rd, "example.org", 120);

	ck_assert_int_eq(put_neg(c, CACHE_KIND_NXDOMAIN, "no.example.org", 0,
	                         "example.org", 900, 120, CACHE_RANK_AUTH, T0),
	                 CACHE_OK);
	GET_OK(c, "no.example.org", TYPE_AAAA, 0, T0 + 20, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
	ck_assert_uint_eq(ans.type, TYPE_AAAA);
	ck_assert_uint_eq(ans.ttl, 100); /* min(900, 120) - 20 */
	ck_assert_uint_eq(ans.count, 1);
	/* The SOA RR: zone owner, type SOA, class, TTL counted down. */
	ck_assert_uint_eq(ans.len, zl + 10 + rl);
	ck_assert_mem_eq(buf, z, zl);
	ck_assert_mem_eq(buf + zl, "\x00\x06\x00\x01", 4);
	ck_assert_uint_eq(rd32(buf + zl + 4), 100);
	ck_assert_uint_eq(buf[zl + 8] * 256u + buf[zl + 9], rl);
	ck_assert_mem_eq(buf + zl + 10, rd, rl);
	GET_NONE(c, "no.example.org", TYPE_A, 0, T0 + 120, &ans);
	/* SOA TTL smaller than MINIMUM wins. */
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NXDOMAIN, "x.example.org", 0,
	                         "example.org", 30, 120, CACHE_RANK_AUTH, T0),
	                 CACHE_OK);
	GET_OK(c, "x.example.org", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.ttl, 30);
	/* neg_max_ttl (3600) caps it. */
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NXDOMAIN, "y.example.org", 0,
	                         "example.org", 86400, 86400, CACHE_RANK_AUTH,
	                         T0),
	                 CACHE_OK);
	GET_OK(c, "y.example.org", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.ttl, 3600);
	/* MINIMUM with the top bit set reads as 0. */
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NXDOMAIN, "z.example.org", 0,
	                         "example.org", 300, 0x80000000u,
	                         CACHE_RANK_AUTH, T0),
	                 CACHE_OK);
	GET_NONE(c, "z.example.org", TYPE_A, 0, T0, &ans);
	cache_destroy(c);
}
END_TEST

START_TEST(test_neg_nodata)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;

	PUT_A_OK(c, "v4only.example", 300, CACHE_RANK_AUTH, NULL, 7, T0);
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NODATA, "v4only.example",
	                         TYPE_AAAA, "example", 600, 60,
	                         CACHE_RANK_AUTH, T0),
	                 CACHE_OK);
	GET_OK(c, "v4only.example", TYPE_AAAA, 0, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NODATA);
	ck_assert_uint_eq(ans.ttl, 60);
	ck_assert_uint_eq(ans.type, TYPE_AAAA);
	/* The A RRset is untouched. */
	GET_OK(c, "v4only.example", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_RRSET);
	ck_assert_uint_eq(answer_addr(&ans), 7);
	/* Other types of the name are plain misses. */
	GET_NONE(c, "v4only.example", TYPE_MX, 0, T0, &ans);
	/* A later RRset of the type (same rank) replaces the NODATA. */
	{
		uint8_t a6[16] = { 0x20, 0x01 };
		struct cache_rdata rd = { a6, 16 };
		ck_assert_int_eq(put_rrset(c, "v4only.example", TYPE_AAAA, 60,
		                           CACHE_RANK_AUTH, NULL, &rd, 1, T0),
		                 CACHE_OK);
	}
	GET_OK(c, "v4only.example", TYPE_AAAA, 0, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_RRSET);
	/* Expired NODATA: miss, but stale reads see it. */
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NODATA, "v4only.example",
	                         TYPE_MX, "example", 600, 60, CACHE_RANK_AUTH,
	                         T0),
	                 CACHE_OK);
	GET_NONE(c, "v4only.example", TYPE_MX, 0, T0 + 60, &ans);
	GET_OK(c, "v4only.example", TYPE_MX, CACHE_GET_STALE, T0 + 60, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NODATA);
	ck_assert_int_eq(ans.stale, 1);
	cache_destroy(c);
}
END_TEST

START_TEST(test_neg_reject)
{
	struct cache *c = make_cache(1 << 20, 0);
	uint8_t n[64], z[64], rd[300];
	size_t rl = soa_rdata(rd, "example", 60);
	struct cache_neg good = { CACHE_KIND_NXDOMAIN,
		                  n,
		                  wire(n, "a.example"),
		                  0,
		                  CLASS_IN,
		                  z,
		                  wire(z, "example"),
		                  60,
		                  rd,
		                  rl,
		                  CACHE_RANK_AUTH,
		                  NULL,
		                  CACHE_SEC_UNCHECKED,
		                  NULL,
		                  0 };
	struct cache_neg neg;

	ck_assert_int_eq(cache_neg_put(c, &good, T0), CACHE_OK);
	neg = good;
	neg.kind = CACHE_KIND_RRSET;
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_EINVAL);
	neg = good;
	neg.rank = CACHE_RANK_NONE;
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_EINVAL);
	neg = good;
	neg.soa_rdlen = rl - 1; /* counters cut short */
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_ERDATA);
	neg = good;
	neg.soa_rdlen = rl + 1; /* a byte after MINIMUM */
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_ERDATA);
	neg = good;
	neg.soa_rdlen = 5; /* MNAME runs off the end */
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_ERDATA);
	neg = good;
	neg.soa_rdata = NULL;
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_ERDATA);
	neg = good;
	rd[0] = 64; /* label too long in MNAME */
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_ERDATA);
	rd[0] = 2;
	neg.soa_name_len = 3; /* zone not a whole name */
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_ENAME);
	neg = good;
	neg.name = NULL;
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_ENAME);
	neg = good;
	neg.kind = CACHE_KIND_NODATA;
	neg.type = 255;
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_ETYPE);
	neg = good;
	neg.soa_rdlen = CACHE_IMAGE_MAX;
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_ERDATA);
	ck_assert_int_eq(cache_neg_put(NULL, &good, T0), CACHE_EINVAL);
	ck_assert_int_eq(cache_neg_put(c, NULL, T0), CACHE_EINVAL);
	cache_destroy(c);
}
END_TEST

/* ---- reject --------------------------------------------------------- */

START_TEST(test_reject_names)
{
	uint8_t n[300];
	static const struct {
		const char *bytes;
		size_t len;
	} bad[] = {
		{ "", 0 },                /* empty */
		{ "\x03www", 4 },         /* no root label */
		{ "\x03www\x00\x00", 6 }, /* bytes after the root */
		{ "\x03WWW\x00", 5 },     /* upper case */
		{ "\x05www\x00", 5 },     /* label runs past the end */
		{ "\x03www\x03", 5 },     /* label to the end, no root */
		{ "\x40xxx\x00", 5 },     /* 64: not a label length */
		{ "\xc0\x0c", 2 },        /* compression pointer */
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_int_eq(cache_name_check((const uint8_t *)bad[i]
		                                          .bytes,
		                                  bad[i].len),
		                 CACHE_ENAME);
	ck_assert_int_eq(cache_name_check(NULL, 1), CACHE_ENAME);
	ck_assert_int_eq(cache_name_check((const uint8_t *)"", 1), CACHE_OK);
	ck_assert_int_eq(cache_name_check((const uint8_t *)"\x03w-w\x00", 5),
	                 CACHE_OK);
	/* 4 labels of 63 and the root: 257 bytes, over the 255 limit. */
	memset(n, 'a', sizeof(n));
	for (int i = 0; i < 4; i++)
		n[i * 64] = 63;
	n[256] = 0;
	ck_assert_int_eq(cache_name_check(n, 257), CACHE_ENAME);
	/* 3 x 64 + (1 + 61) + 1 = 255. */
	memset(n, 'b', sizeof(n));
	n[0] = n[64] = n[128] = 63;
	n[192] = 61;
	n[254] = 0;
	ck_assert_int_eq(cache_name_check(n, 255), CACHE_OK);
	n[192] = 62;
	n[254] = 'b';
	n[255] = 0;
	ck_assert_int_eq(cache_name_check(n, 256), CACHE_ENAME);
}
END_TEST

/* Every byte value at every position of a word and of the tail. */
START_TEST(test_reject_upper_case_bytes)
{
	uint8_t n[32];

	for (size_t len = 1; len <= 20; len++)
		for (size_t at = 0; at < len * 256; at++) {
			unsigned v = at % 256;
			int upper = v >= 'A' && v <= 'Z';
			n[0] = (uint8_t)len;
			memset(n + 1, 'a', len);
			n[1 + at / 256] = (uint8_t)v;
			n[1 + len] = 0;
			int bad = cache_name_check(n, len + 2) == CACHE_ENAME;
			if (bad != upper)
				ck_abort_msg("len %zu at %zu byte %u", len,
				             at / 256, v);
		}
}
END_TEST

START_TEST(test_reject_puts_and_gets)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t n[64], a[4] = { 1, 2, 3, 4 };
	struct cache_rdata rd = { a, 4 };
	struct cache_rrset good = { n,      wire(n, "ok.example"),
		                    TYPE_A, CLASS_IN,
		                    60,     &rd,
		                    1,      CACHE_RANK_AUTH,
		                    NULL,   CACHE_SEC_UNCHECKED,
		                    NULL,   0 };
	struct cache_rrset set;
	struct cache_query q = { n, good.name_len, TYPE_A, CLASS_IN, 0 };
	static const uint16_t bad_types[] = { 0,   41,  249, 250, 251,
		                              252, 253, 254, 255 };

	ck_assert_int_eq(cache_rrset_put(c, &good, T0), CACHE_OK);
	for (size_t i = 0; i < sizeof(bad_types) / 2; i++) {
		set = good;
		set.type = bad_types[i];
		ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_ETYPE);
		q.type = bad_types[i];
		ck_assert_int_eq(cache_get(c, &q, T0, &ans, buf, sizeof(buf)),
		                 CACHE_ETYPE);
	}
	q.type = TYPE_A;
	set = good;
	set.name = (const uint8_t *)"\x02OK\x07"
				    "example\x00";
	ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_ENAME);
	q.name = set.name;
	ck_assert_int_eq(cache_get(c, &q, T0, &ans, buf, sizeof(buf)),
	                 CACHE_ENAME);
	ck_assert_int_eq(cache_closest_ns(c, &q, T0, &ans, buf, sizeof(buf)),
	                 CACHE_ENAME);
	q.name = n;
	set = good;
	set.count = 0;
	ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_ERDATA);
	set = good;
	set.rdata = NULL;
	ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_ERDATA);
	set = good;
	{
		struct cache_rdata r2 = { NULL, 4 };
		set.rdata = &r2;
		ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_ERDATA);
		r2.data = a;
		r2.len = 65536;
		ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_ERDATA);
	}
	set = good;
	set.rank = CACHE_RANK_NONE;
	ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_EINVAL);
	set.rank = (enum cache_rank)(CACHE_RANK_AUTH + 1);
	ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_EINVAL);
	cache_destroy(c);
}
END_TEST

START_TEST(test_reject_null_and_bad_flush)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t n[64], a[4] = { 1, 2, 3, 4 };
	struct cache_rdata rd = { a, 4 };
	struct cache_rrset good = { n,      wire(n, "ok.example"),
		                    TYPE_A, CLASS_IN,
		                    60,     &rd,
		                    1,      CACHE_RANK_AUTH,
		                    NULL,   CACHE_SEC_UNCHECKED,
		                    NULL,   0 };
	struct cache_query q = { n, good.name_len, TYPE_A, CLASS_IN, 0 };

	ck_assert_int_eq(cache_rrset_put(NULL, &good, T0), CACHE_EINVAL);
	ck_assert_int_eq(cache_rrset_put(c, NULL, T0), CACHE_EINVAL);
	ck_assert_int_eq(cache_get(NULL, &q, T0, &ans, buf, 1), CACHE_EINVAL);
	ck_assert_int_eq(cache_get(c, NULL, T0, &ans, buf, 1), CACHE_EINVAL);
	ck_assert_int_eq(cache_get(c, &q, T0, NULL, buf, 1), CACHE_EINVAL);
	ck_assert_int_eq(cache_closest_ns(NULL, &q, T0, &ans, buf, 1),
	                 CACHE_EINVAL);
	ck_assert_int_eq(cache_flush_name(c, (const uint8_t *)"\x01", 1, NULL),
	                 CACHE_ENAME);
	ck_assert_int_eq(cache_flush_name(NULL, n, good.name_len, NULL),
	                 CACHE_EINVAL);
	ck_assert_int_eq(cache_flush_zone(c, (const uint8_t *)"\x01", 1, NULL),
	                 CACHE_ENAME);
	ck_assert_int_eq(cache_flush_zone(NULL, n, good.name_len, NULL),
	                 CACHE_EINVAL);
	cache_destroy(c);
}
END_TEST

START_TEST(test_reject_too_many_rdata_bytes)
{
	struct cache *c = make_cache(64u << 20, 1);
	static uint8_t big[65535];
	struct cache_rdata rd[2] = { { big, 65535 }, { big, 1 } };

	/* One RDATA of 65535 bytes is fine; the image overflows with 2. */
	ck_assert_int_eq(put_rrset(c, "big.example", 16, 60, CACHE_RANK_AUTH,
	                           NULL, rd, 1, T0),
	                 CACHE_ERDATA);
	rd[0].len = 65000;
	ck_assert_int_eq(put_rrset(c, "big.example", 16, 60, CACHE_RANK_AUTH,
	                           NULL, rd, 1, T0),
	                 CACHE_OK);
	ck_assert_int_eq(put_rrset(c, "big.example", 16, 60, CACHE_RANK_AUTH,
	                           NULL, rd, 2, T0),
	                 CACHE_OK);
	rd[1].len = 600;
	ck_assert_int_eq(put_rrset(c, "big.example", 16, 60, CACHE_RANK_AUTH,
	                           NULL, rd, 2, T0),
	                 CACHE_ERDATA);
	cache_destroy(c);
}
END_TEST

START_TEST(test_reject_create)
{
	struct cache_config cfg;
	struct cache *c = NULL;
	struct cache_stats st;

	cache_config_init(&cfg);
	ck_assert_int_eq(cache_create(NULL, &c), CACHE_EINVAL);
	ck_assert_int_eq(cache_create(&cfg, NULL), CACHE_EINVAL);
	cfg.min_ttl = 100;
	cfg.max_ttl = 99;
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_EINVAL);
	cache_config_init(&cfg);
	cfg.max_ttl = CACHE_TTL_WIRE_MAX + 1u; /* must stay below 2^31 */
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_EINVAL);
	cache_config_init(&cfg);
	cfg.neg_max_ttl = CACHE_TTL_WIRE_MAX + 1u;
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_EINVAL);
	cfg.neg_max_ttl = CACHE_TTL_WIRE_MAX;
	cfg.max_ttl = CACHE_TTL_WIRE_MAX;
	cfg.max_bytes = 1 << 20;
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_OK);
	{
		struct cache_answer ans;
		PUT_A_OK(c, "long.example", CACHE_TTL_WIRE_MAX,
		         CACHE_RANK_AUTH, NULL, 1, T0);
		GET_OK(c, "long.example", TYPE_A, 0, T0, &ans);
		ck_assert_uint_eq(ans.ttl, CACHE_TTL_WIRE_MAX);
	}
	cache_destroy(c);
	c = NULL;
	cache_config_init(&cfg);
	cfg.shards = CACHE_SHARDS_MAX + 1;
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_EINVAL);
	cfg.shards = 0;
	cfg.max_bytes = CACHE_SHARD_MIN_BYTES - 1;
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_EINVAL);
	ck_assert_ptr_null(c);
	/* Small caches get fewer shards; 64 MiB gets the default 64. */
	cfg.max_bytes = 4 * CACHE_SHARD_MIN_BYTES;
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_OK);
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.shards, 2);
	ck_assert_uint_le(st.bytes, cfg.max_bytes);
	cache_destroy(c);
	cache_config_init(&cfg);
	cfg.shards = 100; /* rounded down to 64 */
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_OK);
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.shards, 64);
	ck_assert_uint_eq(st.entries, 0);
	cache_destroy(c);
	cache_destroy(NULL);
}
END_TEST

START_TEST(test_strerror)
{
	for (int i = CACHE_OK; i <= CACHE_ENOMEM; i++) {
		const char *s = cache_strerror(i);
		ck_assert_ptr_nonnull(s);
		ck_assert_str_ne(s, cache_strerror(-1));
		for (int j = CACHE_OK; j < i; j++)
			ck_assert_str_ne(s, cache_strerror(j));
	}
	ck_assert_str_eq(cache_strerror(CACHE_ENOMEM + 1),
	                 "unknown cache status");
}
END_TEST

/* ---- evict ---------------------------------------------------------- */

static uint64_t rng_next(uint64_t *s)
{
	uint64_t x = *s;
	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	return *s = x;
}

/* A random canonical name of 2..5 labels. */
static size_t random_name(uint64_t *rng, uint8_t *out)
{
	static const char alpha[] = "abcdefghijklmnopqrstuvwxyz0123456789-";
	size_t labels = 2 + rng_next(rng) % 4, n = 0;

	for (size_t i = 0; i < labels; i++) {
		size_t l = 1 + rng_next(rng) % 20;
		out[n++] = (uint8_t)l;
		for (size_t k = 0; k < l; k++)
			out[n++] = (uint8_t)alpha[rng_next(rng) % 37];
	}
	out[n++] = 0;
	return n;
}

/* Bytes in use by the allocator's own count, or 0 when not known. */
static size_t heap_in_use(void)
{
#if defined(__GLIBC__) && !defined(UNDER_SANITIZER)
	const char *tun = getenv("GLIBC_TUNABLES");
	struct mallinfo2 mi;
	if (tun == NULL || strstr(tun, "tcache_count=0") == NULL)
		return 0; /* see exec_without_tcache */
	mi = mallinfo2();
	return mi.uordblks + mi.hblkhd;
#else
	return 0;
#endif
}

static size_t env_size(const char *name, size_t dflt)
{
	const char *v = getenv(name);
	return v && *v ? (size_t)strtoull(v, NULL, 10) : dflt;
}

/* Insert one random RRset: mostly small, now and then huge. */
static int random_put(struct cache *c, uint64_t *rng, time_t now)
{
	static uint8_t data[65535];
	struct cache_rdata rd[64];
	uint8_t n[CACHE_NAME_MAX + 1];
	size_t count = 1 + rng_next(rng) % 8, max = 1 + rng_next(rng) % 64;
	struct cache_rrset set = { n,
		                   random_name(rng, n),
		                   TYPE_A,
		                   CLASS_IN,
		                   (uint32_t)(rng_next(rng) % 7200),
		                   rd,
		                   0,
		                   CACHE_RANK_NONAUTH,
		                   NULL,
		                   CACHE_SEC_UNCHECKED,
		                   NULL,
		                   0 };

	if (rng_next(rng) % 1000 == 0) { /* hostile: 1000..60000 bytes */
		count = 1 + rng_next(rng) % 60;
		max = 1000;
	}
	for (size_t i = 0; i < count; i++) {
		rd[i].data = data;
		rd[i].len = rng_next(rng) % (max + 1);
	}
	set.count = count;
	set.type = (uint16_t)(1 + rng_next(rng) % 40);
	if (set.type == 41)
		set.type = 1;
	return cache_rrset_put(c, &set, now);
}

START_TEST(test_evict_million_bounded)
{
	const size_t max = 8u << 20;
	size_t inserts = env_size("CACHE_TEST_INSERTS", 1000000);
	size_t before = heap_in_use(), ok = 0, too_big = 0;
	struct cache *c = make_cache(max, 0);
	struct cache_stats st;
	uint64_t rng = 0x9e3779b97f4a7c15u;

	/* No ck_assert in the loop: Check records each passing one. */
	for (size_t i = 0; i < inserts; i++) {
		int rc = random_put(c, &rng, T0 + (time_t)(i / 1000));
		if (rc != CACHE_OK && rc != CACHE_ETOOBIG)
			ck_abort_msg("insert %zu: %s", i, cache_strerror(rc));
		ok += rc == CACHE_OK;
		too_big += rc == CACHE_ETOOBIG;
		if (i % 4099 != 0)
			continue;
		cache_stats_get(c, &st);
		if (st.bytes > max ||
		    (before != 0 && heap_in_use() - before > max))
			ck_abort_msg("insert %zu: %zu bytes charged, %zu "
			             "in use, bound %zu",
			             i, st.bytes, heap_in_use() - before, max);
	}
	cache_stats_get(c, &st);
	ck_assert_uint_le(st.bytes, max);
	if (before != 0) /* the allocator's own count agrees */
		ck_assert_uint_le(heap_in_use() - before, max);
	ck_assert_uint_eq(st.inserts, ok);
	ck_assert_uint_eq(st.too_big, too_big);
	ck_assert_uint_gt(too_big, 0);
	ck_assert_uint_gt(st.evictions + st.expired, inserts / 2);
	/* Eviction made room a little at a time: the cache is still full. */
	ck_assert_uint_gt(st.bytes, max / 10 * 8);
	ck_assert_uint_gt(st.entries, 1000);
	cache_flush_all(c, NULL);
	cache_destroy(c);
	if (before != 0)
		ck_assert_uint_eq(heap_in_use(), before);
}
END_TEST

START_TEST(test_evict_keeps_hot_entries)
{
	struct cache *c = make_cache(SMALL_CACHE, 1);
	struct cache_answer ans;
	struct cache_stats st;
	char name[64];

	for (int i = 0; i < 50; i++) {
		snprintf(name, sizeof(name), "hot%d.example", i);
		PUT_A_OK(c, name, 3600, CACHE_RANK_AUTH, NULL, (uint32_t)i,
		         T0);
	}
	for (int i = 0; i < 20000; i++) {
		snprintf(name, sizeof(name), "cold%d.example", i);
		PUT_A_OK(c, name, 3600, CACHE_RANK_AUTH, NULL, (uint32_t)i,
		         T0);
		for (int k = 0; i % 20 == 0 && k < 50; k++) {
			snprintf(name, sizeof(name), "hot%d.example", k);
			(void)get(c, name, TYPE_A, 0, T0, &ans);
		}
	}
	for (int k = 0; k < 50; k++) {
		snprintf(name, sizeof(name), "hot%d.example", k);
		GET_OK(c, name, TYPE_A, 0, T0, &ans);
		ck_assert_uint_eq(answer_addr(&ans), (uint32_t)k);
	}
	cache_stats_get(c, &st);
	ck_assert_uint_gt(st.evictions, 15000);
	ck_assert_uint_eq(st.expired, 0);
	ck_assert_uint_gt(st.entries, 300); /* still full, not flushed */
	ck_assert_uint_le(st.bytes, SMALL_CACHE);
	cache_destroy(c);
}
END_TEST

START_TEST(test_evict_expired_first)
{
	struct cache *c = make_cache(SMALL_CACHE, 1);
	struct cache_answer ans;
	struct cache_stats st;
	char name[64];

	for (int i = 0; i < 700; i++) {
		snprintf(name, sizeof(name), "short%d.example", i);
		PUT_A_OK(c, name, 10, CACHE_RANK_AUTH, NULL, 1, T0);
	}
	/* Read them all so their bits are set: expired still go first. */
	for (int i = 0; i < 700; i++) {
		snprintf(name, sizeof(name), "short%d.example", i);
		(void)!get(c, name, TYPE_A, 0, T0, &ans);
	}
	for (int i = 0; i < 700; i++) {
		snprintf(name, sizeof(name), "long%d.example", i);
		PUT_A_OK(c, name, 1000, CACHE_RANK_AUTH, NULL, 1, T0 + 20);
	}
	cache_stats_get(c, &st);
	ck_assert_uint_gt(st.expired, 0);
	ck_assert_uint_eq(st.evictions, 0);
	for (int i = 0; i < 700; i++) {
		snprintf(name, sizeof(name), "long%d.example", i);
		GET_OK(c, name, TYPE_A, 0, T0 + 20, &ans);
	}
	cache_destroy(c);
}
END_TEST

static int ref_of(const struct cache_view *v, void *arg)
{
	const struct cache_entry *e = v->entry;
	if (v->name_len == 7 && memcmp(v->name, "\005hot-x\000", 7) == 0)
		*(int *)arg = (e->flags & CACHE_F_REF) ? 1 : 0;
	return 0;
}

/* A read entry that is refreshed keeps its second chance. */
START_TEST(test_evict_refresh_keeps_reference)
{
	struct cache *c = make_cache(SMALL_CACHE, 1);
	struct cache_answer ans;
	int ref = -1;

	PUT_A_OK(c, "hot-x", 60, CACHE_RANK_AUTH, NULL, 1, T0);
	ck_assert_int_eq(cache_iterate(c, T0, ref_of, &ref), 0);
	ck_assert_int_eq(ref, 0);
	GET_OK(c, "hot-x", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(cache_iterate(c, T0, ref_of, &ref), 0);
	ck_assert_int_eq(ref, 1);
	PUT_A_OK(c, "hot-x", 60, CACHE_RANK_AUTH, NULL, 2, T0 + 1);
	ck_assert_int_eq(cache_iterate(c, T0, ref_of, &ref), 0);
	ck_assert_int_eq(ref, 1);
	cache_destroy(c);
}
END_TEST

START_TEST(test_evict_huge_and_chains)
{
	struct cache *c = make_cache(SMALL_CACHE, 1);
	static uint8_t data[20000];
	struct cache_rdata rd = { data, sizeof(data) };
	struct cache_answer ans;
	struct cache_stats st;

	/* More than a quarter of the shard: refused, nothing evicted. */
	PUT_A_OK(c, "keep.example", 60, CACHE_RANK_AUTH, NULL, 1, T0);
	ck_assert_int_eq(put_rrset(c, "huge.example", 16, 60, CACHE_RANK_AUTH,
	                           NULL, &rd, 1, T0),
	                 CACHE_ETOOBIG);
	rd.len = 12000;
	for (int i = 0; i < 20; i++)
		ck_assert_int_eq(put_rrset(c, "big.example",
		                           (uint16_t)(100 + i), 60,
		                           CACHE_RANK_AUTH, NULL, &rd, 1, T0),
		                 CACHE_OK);
	cache_stats_get(c, &st);
	ck_assert_uint_le(st.bytes, SMALL_CACHE);
	ck_assert_uint_eq(st.too_big, 1);
	/* One name with more types than a chain may hold. */
	cache_flush_all(c, NULL);
	rd.len = 1;
	for (int t = 1; t <= CACHE_CHAIN_MAX + 10; t++)
		ck_assert_int_eq(put_rrset(c, "many.example",
		                           (uint16_t)(1000 + t), 60,
		                           CACHE_RANK_AUTH, NULL, &rd, 1, T0),
		                 CACHE_OK);
	cache_stats_get(c, &st);
	ck_assert_uint_le(st.entries, CACHE_CHAIN_MAX);
	GET_OK(c, "many.example", 1000 + CACHE_CHAIN_MAX + 10, 0, T0, &ans);
	cache_destroy(c);
}
END_TEST

/* ---- flush and iterate --------------------------------------------- */

static const char *const zone_names[] = {
	"example.com",      "www.example.com", "a.b.example.com",
	"example.org",      "xexample.com",    "com",
	"mail.example.net",
};

static void put_zone_names(struct cache *c)
{
	const size_t count = sizeof(zone_names) / sizeof(zone_names[0]);

	for (size_t i = 0; i < count; i++) {
		PUT_A_OK(c, zone_names[i], 60, CACHE_RANK_AUTH, NULL,
		         (uint32_t)i, T0);
		ck_assert_int_eq(put_neg(c, CACHE_KIND_NODATA, zone_names[i],
		                         TYPE_MX, "com", 60, 60,
		                         CACHE_RANK_AUTH, T0),
		                 CACHE_OK);
	}
}

static int found(struct cache *c, const char *name)
{
	struct cache_answer ans;
	return get(c, name, TYPE_A, 0, T0, &ans) == CACHE_OK;
}

/* The bucket array starts small and doubles as entries arrive, each
 * step charged: an empty shard charges far less than a full array, every
 * entry stays found across the moves, and the budget holds. */
START_TEST(test_buckets_grow)
{
	struct cache *c = make_cache(1 << 20, 1);
	struct cache_stats empty, st;
	struct cache_answer ans;
	char name[64];
	const int n = 3000;

	cache_stats_get(c, &empty);
	/* 1 MiB: 8,192 buckets when full (64 KiB), 64 to start. */
	ck_assert_uint_lt(empty.bytes, 8192);
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "g%d.example.com", i);
		PUT_A_OK(c, name, 300, CACHE_RANK_AUTH, NULL, (uint32_t)i, T0);
	}
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.entries, (size_t)n);
	ck_assert_uint_eq(st.evictions, 0);
	ck_assert_uint_le(st.bytes, st.max_bytes);
	/* 8,192 buckets now (the full count): 64 KiB of heads. */
	ck_assert_uint_gt(st.bytes - empty.bytes, (size_t)n * 64 + 32000);
	for (int i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "g%d.example.com", i);
		GET_OK(c, name, TYPE_A, 0, T0, &ans);
		ck_assert_uint_eq(answer_addr(&ans), (uint32_t)i);
	}
	cache_flush_all(c, NULL);
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.entries, 0);
	ck_assert_uint_gt(st.bytes, empty.bytes); /* the array stays */
	cache_destroy(c);
}
END_TEST

START_TEST(test_flush_name_zone_all)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_stats st, empty;
	uint8_t z[64];
	size_t removed = 99;

	cache_stats_get(c, &empty);
	put_zone_names(c);
	ck_assert_int_eq(cache_flush_name(c, z, wire(z, "www.example.com"),
	                                  &removed),
	                 CACHE_OK);
	ck_assert_uint_eq(removed, 2); /* the A and the NODATA */
	ck_assert_int_eq(found(c, "www.example.com"), 0);
	ck_assert_int_eq(found(c, "example.com"), 1);
	ck_assert_int_eq(cache_flush_name(c, z, wire(z, "nothing.example"),
	                                  &removed),
	                 CACHE_OK);
	ck_assert_uint_eq(removed, 0);
	put_zone_names(c);
	ck_assert_int_eq(cache_flush_zone(c, z, wire(z, "example.com"),
	                                  &removed),
	                 CACHE_OK);
	ck_assert_uint_eq(removed, 6);
	ck_assert_int_eq(found(c, "example.com"), 0);
	ck_assert_int_eq(found(c, "www.example.com"), 0);
	ck_assert_int_eq(found(c, "a.b.example.com"), 0);
	ck_assert_int_eq(found(c, "xexample.com"), 1);
	ck_assert_int_eq(found(c, "com"), 1);
	ck_assert_int_eq(found(c, "example.org"), 1);
	ck_assert_int_eq(cache_flush_zone(c, z, wire(z, "."), &removed),
	                 CACHE_OK);
	ck_assert_uint_eq(removed, 8);
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.entries, 0);
	ck_assert_uint_eq(st.bytes, empty.bytes);
	put_zone_names(c);
	cache_flush_all(c, &removed);
	ck_assert_uint_eq(removed, 14);
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.entries, 0);
	ck_assert_uint_eq(st.bytes, empty.bytes);
	ck_assert_uint_eq(st.inserts, 42);
	cache_destroy(c);
}
END_TEST

/* flush_type: one type of a name goes (with the name's NXDOMAIN), its
 * other types and other names stay; bad names and types are refused. */
START_TEST(test_flush_type)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t z[64];
	size_t removed = 99, zl;

	put_zone_names(c);
	zl = wire(z, "www.example.com");
	ck_assert_int_eq(cache_flush_type(c, z, zl, TYPE_A, &removed),
	                 CACHE_OK);
	ck_assert_uint_eq(removed, 1);
	ck_assert_int_eq(found(c, "www.example.com"), 0);
	GET_OK(c, "www.example.com", TYPE_MX, 0, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NODATA);
	ck_assert_int_eq(found(c, "example.com"), 1);
	ck_assert_int_eq(found(c, "a.b.example.com"), 1);
	/* the NODATA entry of a type goes the same way */
	ck_assert_int_eq(cache_flush_type(c, z, zl, TYPE_MX, &removed),
	                 CACHE_OK);
	ck_assert_uint_eq(removed, 1);
	GET_NONE(c, "www.example.com", TYPE_MX, 0, T0, &ans);
	ck_assert_int_eq(cache_flush_type(c, z, zl, TYPE_A, &removed),
	                 CACHE_OK);
	ck_assert_uint_eq(removed, 0);
	/* an NXDOMAIN answers every type: flushing any type removes it */
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NXDOMAIN, "gone.example.com", 0,
	                         "example.com", 60, 60, CACHE_RANK_AUTH, T0),
	                 CACHE_OK);
	GET_OK(c, "gone.example.com", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(cache_flush_type(c, z, wire(z, "gone.example.com"),
	                                  TYPE_MX, &removed),
	                 CACHE_OK);
	ck_assert_uint_eq(removed, 1);
	GET_NONE(c, "gone.example.com", TYPE_A, 0, T0, &ans);
	/* refusals change nothing */
	ck_assert_int_eq(cache_flush_type(c, z, wire(z, "example.com"), 0,
	                                  NULL),
	                 CACHE_ETYPE);
	ck_assert_int_eq(cache_flush_type(c, z, wire(z, "example.com"), 255,
	                                  NULL),
	                 CACHE_ETYPE);
	ck_assert_int_eq(cache_flush_type(c, (const uint8_t *)"\x01", 1,
	                                  TYPE_A, NULL),
	                 CACHE_ENAME);
	ck_assert_int_eq(cache_flush_type(NULL, z, zl, TYPE_A, NULL),
	                 CACHE_EINVAL);
	ck_assert_int_eq(found(c, "example.com"), 1);
	cache_destroy(c);
}
END_TEST

struct dump {
	size_t entries, rrsets, nodata, stale, stop_after;
	size_t bytes;
	int render_ok;
};

static int dump_cb(const struct cache_view *v, void *arg)
{
	struct dump *d = arg;
	static uint8_t out[BUF_BYTES];
	size_t len = 0;

	d->entries++;
	d->rrsets += v->kind == CACHE_KIND_RRSET;
	d->nodata += v->kind == CACHE_KIND_NODATA;
	d->stale += v->stale != 0;
	if (cache_view_render(v, out, sizeof(out), &len) != CACHE_OK ||
	    len != v->wire_len)
		d->render_ok = 0;
	if (v->kind == CACHE_KIND_RRSET &&
	    memcmp(out, v->name, v->name_len) != 0)
		d->render_ok = 0;
	if (v->kind == CACHE_KIND_RRSET &&
	    cache_view_render(v, out, len - 1, &len) != CACHE_ESPACE)
		d->render_ok = 0;
	d->bytes += len;
	if (d->stop_after && d->entries == d->stop_after)
		return 7;
	return 0;
}

START_TEST(test_iterate_dump)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct dump d = { 0, 0, 0, 0, 0, 0, 1 };

	put_zone_names(c);
	PUT_A_OK(c, "old.example", 5, CACHE_RANK_AUTH, NULL, 1, T0 - 100);
	ck_assert_int_eq(cache_iterate(c, T0, dump_cb, &d), 0);
	ck_assert_uint_eq(d.entries, 15);
	ck_assert_uint_eq(d.rrsets, 8);
	ck_assert_uint_eq(d.nodata, 7);
	ck_assert_uint_eq(d.stale, 1);
	ck_assert_int_eq(d.render_ok, 1);
	memset(&d, 0, sizeof(d));
	d.stop_after = 3;
	d.render_ok = 1;
	ck_assert_int_eq(cache_iterate(c, T0, dump_cb, &d), 7);
	ck_assert_uint_eq(d.entries, 3);
	cache_destroy(c);
}
END_TEST

/* ---- zonecut --------------------------------------------------------- */

static int put_ns(struct cache *c, const char *zone, const char *host,
                  uint32_t ttl)
{
	uint8_t h[64];
	struct cache_rdata rd = { h, wire(h, host) };
	return put_rrset(c, zone, CACHE_TYPE_NS, ttl, CACHE_RANK_REFERRAL,
	                 NULL, &rd, 1, T0);
}

static int closest(struct cache *c, const char *name, unsigned flags,
                   time_t now, struct cache_answer *ans, uint8_t *n)
{
	struct cache_query q = { n, wire(n, name), 0, CLASS_IN, flags };
	return cache_closest_ns(c, &q, now, ans, buf, sizeof(buf));
}

START_TEST(test_closest_ns)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	struct cache_stats st;
	uint8_t n[64];

	ck_assert_int_eq(closest(c, "www.example.com", 0, T0, &ans, n),
	                 CACHE_ENOTFOUND);
	ck_assert_int_eq(put_ns(c, "com", "a.gtld-servers.net", 1000),
	                 CACHE_OK);
	ck_assert_int_eq(put_ns(c, "example.com", "a.iana-servers.net", 100),
	                 CACHE_OK);
	ck_assert_int_eq(put_neg(c, CACHE_KIND_NODATA, "sub.example.com",
	                         CACHE_TYPE_NS, "example.com", 60, 60,
	                         CACHE_RANK_AUTH, T0),
	                 CACHE_OK);
	ck_assert_int_eq(closest(c, "www.sub.example.com", 0, T0, &ans, n),
	                 CACHE_OK);
	ck_assert_uint_eq(ans.owner_off, 8); /* \3www\3sub -> example.com */
	ck_assert_uint_eq(ans.type, CACHE_TYPE_NS);
	ck_assert_int_eq(ans.rank, CACHE_RANK_REFERRAL);
	ck_assert_mem_eq(buf, n + 8, 13);
	ck_assert_int_eq(closest(c, "example.com", 0, T0, &ans, n), CACHE_OK);
	ck_assert_uint_eq(ans.owner_off, 0);
	/* example.com NS expired: com is next; stale reads keep the deeper. */
	ck_assert_int_eq(closest(c, "www.example.com", 0, T0 + 100, &ans, n),
	                 CACHE_OK);
	ck_assert_uint_eq(ans.owner_off, 4 + 8);
	ck_assert_int_eq(closest(c, "www.example.com", CACHE_GET_STALE,
	                         T0 + 100, &ans, n),
	                 CACHE_OK);
	ck_assert_uint_eq(ans.owner_off, 4);
	ck_assert_int_eq(ans.stale, 1);
	ck_assert_int_eq(closest(c, "example.org", 0, T0, &ans, n),
	                 CACHE_ENOTFOUND);
	ck_assert_int_eq(put_ns(c, ".", "a.root-servers.net", 1000), CACHE_OK);
	ck_assert_int_eq(closest(c, "example.org", 0, T0, &ans, n), CACHE_OK);
	ck_assert_uint_eq(ans.owner_off, 12);
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.hits + st.misses, 0);
	cache_destroy(c);
}
END_TEST

/* ---- hash ------------------------------------------------------------ */

START_TEST(test_siphash_vector)
{
	/* SipHash paper, appendix A: key 00..0f, message 00..0e. */
	uint64_t key[2] = { UINT64_C(0x0706050403020100),
		            UINT64_C(0x0f0e0d0c0b0a0908) };
	uint8_t m[15];

	for (int i = 0; i < 15; i++)
		m[i] = (uint8_t)i;
	ck_assert_uint_eq(cache_siphash24(key, m, 15),
	                  UINT64_C(0xa129ca6149be45e5));
	ck_assert_uint_ne(cache_siphash13(key, m, 15),
	                  cache_siphash13(key, m, 14));
	key[0] ^= 1;
	ck_assert_uint_ne(cache_siphash24(key, m, 15),
	                  UINT64_C(0xa129ca6149be45e5));
	/* the thread's last hash is used again only for the same key and
	 * bytes: another key, another byte, then the first again */
	{
		uint64_t h = cache_siphash13(key, m, 15), h2;

		key[1] ^= 1;
		h2 = cache_siphash13(key, m, 15);
		ck_assert_uint_ne(h, h2);
		key[1] ^= 1;
		ck_assert_uint_eq(cache_siphash13(key, m, 15), h);
		m[14] ^= 1;
		ck_assert_uint_ne(cache_siphash13(key, m, 15), h);
		m[14] ^= 1;
		ck_assert_uint_eq(cache_siphash13(key, m, 15), h);
	}
	/* and a name is canonical again only byte for byte */
	{
		uint8_t n[32];
		size_t nl = wire(n, "www.example.com");

		ck_assert_int_eq(cache_name_check(n, nl), CACHE_OK);
		n[1] = 'W';
		ck_assert_int_eq(cache_name_check(n, nl), CACHE_ENAME);
		n[1] = 'w';
		ck_assert_int_eq(cache_name_check(n, nl), CACHE_OK);
		ck_assert_int_eq(cache_name_check(n, nl - 1), CACHE_ENAME);
	}
}
END_TEST

START_TEST(test_name_below)
{
	uint8_t n[64], z[64];
	size_t nl = wire(n, "a.b.example.com");

	ck_assert_int_eq(cache_name_below(n, nl, z, wire(z, "example.com")),
	                 1);
	ck_assert_int_eq(cache_name_below(n, nl, z, wire(z, "b.example.com")),
	                 1);
	ck_assert_int_eq(cache_name_below(n, nl, z, wire(z, ".")), 1);
	ck_assert_int_eq(cache_name_below(n, nl, n, nl), 1);
	ck_assert_int_eq(cache_name_below(n, nl, z, wire(z, "ample.com")), 0);
	ck_assert_int_eq(cache_name_below(n, nl, z,
	                                  wire(z, "x.a.b.example.com")),
	                 0);
	ck_assert_int_eq(cache_name_below(n, nl, z, wire(z, "example.org")),
	                 0);
}
END_TEST

/* ---- threads ----------------------------------------------------------- */

#define STRESS_NAMES 8000
#define STRESS_THREADS 6

struct stress {
	struct cache *c;
	size_t ops;
	int id;
	size_t bad;
	size_t hits;
};

static size_t stress_name(uint8_t *n, uint32_t i)
{
	char s[64];
	snprintf(s, sizeof(s), "n%u.stress%u.test", i, i % 7);
	return wire(n, s);
}

/* Writers store A RRsets whose address is the name's number. */
static void stress_write(struct stress *st, uint64_t *rng, time_t now)
{
	uint8_t n[64], a[4];
	uint32_t i = (uint32_t)(rng_next(rng) % STRESS_NAMES);
	struct cache_rdata rd = { a, 4 };
	struct cache_rrset set = { n,
		                   stress_name(n, i),
		                   TYPE_A,
		                   CLASS_IN,
		                   (uint32_t)(rng_next(rng) % 30),
		                   &rd,
		                   1,
		                   (enum cache_rank)(1 + rng_next(rng) % 4),
		                   NULL,
		                   CACHE_SEC_UNCHECKED,
		                   NULL,
		                   0 };

	a[0] = (uint8_t)(i >> 24), a[1] = (uint8_t)(i >> 16);
	a[2] = (uint8_t)(i >> 8), a[3] = (uint8_t)i;
	(void)cache_rrset_put(st->c, &set, now);
}

static void stress_read(struct stress *st, uint64_t *rng, time_t now,
                        uint8_t *out, size_t cap)
{
	uint8_t n[64];
	uint32_t i = (uint32_t)(rng_next(rng) % STRESS_NAMES);
	struct cache_query q = { n, stress_name(n, i), TYPE_A, CLASS_IN,
		                 (unsigned)(rng_next(rng) % 2) };
	struct cache_answer ans;

	if (cache_get(st->c, &q, now, &ans, out, cap) != CACHE_OK)
		return;
	st->hits++;
	if (ans.count != 1 || ans.len != q.name_len + 14 ||
	    memcmp(out, n, q.name_len) != 0 || rd32(out + ans.len - 4) != i)
		st->bad++;
}

static int stress_count(const struct cache_view *v, void *arg)
{
	(void)v;
	++*(size_t *)arg;
	return 0;
}

static void stress_other(struct stress *st, uint64_t *rng, time_t now)
{
	uint8_t n[64];
	struct cache_stats cs;
	size_t k = 0;

	switch (rng_next(rng) % 4) {
	case 0:
		(void)!cache_flush_name(st->c, n,
		                        stress_name(n,
		                                    (uint32_t)(rng_next(rng) %
		                                               STRESS_NAMES)),
		                        NULL);
		break;
	case 1:
		cache_stats_get(st->c, &cs);
		if (cs.bytes > cs.max_bytes)
			st->bad++;
		break;
	case 2: (void)cache_iterate(st->c, now, stress_count, &k); break;
	default:
		(void)!cache_flush_zone(st->c, n,
		                        wire(n, rng_next(rng) % 2 ?
		                                        "stress3.test" :
		                                        "test"),
		                        NULL);
	}
}

static void *stress_thread(void *arg)
{
	struct stress *st = arg;
	uint64_t rng = 0x1234567 + (uint64_t)st->id * 7919;
	uint8_t out[512];

	for (size_t i = 0; i < st->ops; i++) {
		time_t now = T0 + (time_t)(i / 64);
		unsigned what = (unsigned)(rng_next(&rng) % 1000);
		if (st->id < 2 || what < 300) /* two writers, some mixing */
			stress_write(st, &rng, now);
		else if (what < 997)
			stress_read(st, &rng, now, out, sizeof(out));
		else
			stress_other(st, &rng, now);
		if (st->id >= 2 && what < 2)
			stress_read(st, &rng, now, out, 8); /* ESPACE path */
	}
	return NULL;
}

START_TEST(test_threads_stress)
{
	/* A small cache, so writers evict while readers read. */
	struct cache *c = make_cache(5 * CACHE_SHARD_MIN_BYTES, 4);
	struct stress st[STRESS_THREADS];
	pthread_t th[STRESS_THREADS];
	size_t ops = env_size("CACHE_STRESS_OPS", 200000), hits = 0;
	struct cache_stats cs;

	for (int i = 0; i < STRESS_THREADS; i++) {
		st[i] = (struct stress){ c, ops, i, 0, 0 };
		ck_assert_int_eq(pthread_create(&th[i], NULL, stress_thread,
		                                &st[i]),
		                 0);
	}
	for (int i = 0; i < STRESS_THREADS; i++) {
		ck_assert_int_eq(pthread_join(th[i], NULL), 0);
		ck_assert_uint_eq(st[i].bad, 0);
		hits += st[i].hits;
	}
	cache_stats_get(c, &cs);
	ck_assert_uint_le(cs.bytes, cs.max_bytes);
	ck_assert_uint_gt(hits, 0);
	ck_assert_uint_eq(cs.hits + cs.stale_hits, hits);
	ck_assert_uint_gt(cs.evictions, 0);
	cache_destroy(c);
}
END_TEST

/* ---- dnssec ---------------------------------------------------------- */

#define TYPE_RRSIG 46
#define TYPE_NSEC 47
/** RDATA of an RRSIG with an ECDSA P-256 signature by example.com: 18
 *  fixed bytes, the signer (13), 64 bytes of signature. */
#define RRSIG_P256_RDLEN (18 + 13 + 64)
/** A TTL in the images given to puts, which reads must not return. */
#define IMAGE_TTL 0x01020304u

/* One wire RR into out: owner, type, class IN, IMAGE_TTL, rdlen bytes of
 * RDATA (each its offset + seed); returns its length. */
static size_t image_rr(uint8_t *out, const char *owner, uint16_t type,
                       size_t rdlen, uint8_t seed)
{
	size_t n = wire(out, owner);

	out[n] = (uint8_t)(type >> 8);
	out[n + 1] = (uint8_t)type;
	out[n + 2] = 0;
	out[n + 3] = CLASS_IN;
	out[n + 4] = (uint8_t)(IMAGE_TTL >> 24);
	out[n + 5] = (uint8_t)(IMAGE_TTL >> 16);
	out[n + 6] = (uint8_t)(IMAGE_TTL >> 8);
	out[n + 7] = (uint8_t)IMAGE_TTL;
	out[n + 8] = (uint8_t)(rdlen >> 8);
	out[n + 9] = (uint8_t)rdlen;
	n += CACHE_RR_FIXED_BYTES;
	for (size_t i = 0; i < rdlen; i++)
		out[n + i] = (uint8_t)(i + seed);
	return n + rdlen;
}

/* The typical image of an A RRset: one RRSIG (ECDSA P-256). */
static size_t image_one_sig(uint8_t *out, const char *owner)
{
	return image_rr(out, owner, TYPE_RRSIG, RRSIG_P256_RDLEN, 7);
}

static int put_sec_a(struct cache *c, const char *name, enum cache_rank rank,
                     const uint8_t *key, enum cache_sec sec,
                     const uint8_t *img, size_t img_len, uint32_t addr,
                     time_t now)
{
	uint8_t n[CACHE_NAME_MAX + 1], a[4] = { 10, 0, 0, (uint8_t)addr };
	struct cache_rdata rd = { a, sizeof(a) };
	struct cache_rrset set = { n,   wire(n, name), TYPE_A, CLASS_IN,
		                   300, &rd,           1,      rank,
		                   key, sec,           img,    img_len };
	return cache_rrset_put(c, &set, now);
}

static int put_sec_neg(struct cache *c, enum cache_kind kind, const char *name,
                       uint16_t type, enum cache_rank rank, enum cache_sec sec,
                       const uint8_t *img, size_t img_len, time_t now)
{
	uint8_t n[CACHE_NAME_MAX + 1], z[CACHE_NAME_MAX + 1], rd[600];
	struct cache_neg neg = { kind,
		                 n,
		                 wire(n, name),
		                 type,
		                 CLASS_IN,
		                 z,
		                 wire(z, "example.com"),
		                 600,
		                 rd,
		                 soa_rdata(rd, "example.com", 300),
		                 rank,
		                 NULL,
		                 sec,
		                 img,
		                 img_len };
	return cache_neg_put(c, &neg, now);
}

/* The image at got must be want with every TTL replaced by ttl. */
static void check_image(const uint8_t *got, const uint8_t *want, size_t len,
                        uint32_t ttl, size_t records)
{
	size_t pos = 0, k = 0;

	while (pos < len) {
		size_t owner = 0, rdlen;
		ck_assert_int_eq(cache_name_span(want + pos, len - pos,
		                                 &owner),
		                 CACHE_OK);
		ck_assert_mem_eq(got + pos, want + pos, owner + 4);
		pos += owner + 4;
		ck_assert_uint_eq(rd32(got + pos), ttl);
		rdlen = ((size_t)want[pos + 4] << 8) | want[pos + 5];
		ck_assert_mem_eq(got + pos + 4, want + pos + 4, 2 + rdlen);
		pos += 6 + rdlen;
		k++;
	}
	ck_assert_uint_eq(pos, len);
	ck_assert_uint_eq(k, records);
}

START_TEST(test_dnssec_sec_roundtrip)
{
	static const enum cache_sec all[] = { CACHE_SEC_UNCHECKED,
		                              CACHE_SEC_INSECURE,
		                              CACHE_SEC_SECURE,
		                              CACHE_SEC_BOGUS };
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	char name[64];

	for (size_t i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "s%zu.example.com", i);
		ck_assert_int_eq(put_sec_a(c, name, CACHE_RANK_AUTH, NULL,
		                           all[i], NULL, 0, 1, T0),
		                 CACHE_OK);
		ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NODATA, name,
		                             TYPE_MX, CACHE_RANK_AUTH, all[i],
		                             NULL, 0, T0),
		                 CACHE_OK);
		snprintf(name, sizeof(name), "nx%zu.example.com", i);
		ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NXDOMAIN, name, 0,
		                             CACHE_RANK_AUTH, all[i], NULL, 0,
		                             T0),
		                 CACHE_OK);
	}
	for (size_t i = 0; i < 4; i++) {
		snprintf(name, sizeof(name), "s%zu.example.com", i);
		GET_OK(c, name, TYPE_A, 0, T0, &ans);
		ck_assert_int_eq(ans.kind, CACHE_KIND_RRSET);
		ck_assert_int_eq(ans.sec, all[i]);
		ck_assert_int_eq(ans.rank, CACHE_RANK_AUTH);
		GET_OK(c, name, TYPE_MX, 0, T0, &ans);
		ck_assert_int_eq(ans.kind, CACHE_KIND_NODATA);
		ck_assert_int_eq(ans.sec, all[i]);
		snprintf(name, sizeof(name), "nx%zu.example.com", i);
		GET_OK(c, name, TYPE_A, 0, T0, &ans);
		ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
		ck_assert_int_eq(ans.sec, all[i]);
	}
	/* Every rank with every status: the bits do not mix. */
	for (int r = CACHE_RANK_GLUE; r <= CACHE_RANK_AUTH; r++)
		for (size_t i = 0; i < 4; i++) {
			snprintf(name, sizeof(name), "r%d-%zu.example.com", r,
			         i);
			ck_assert_int_eq(put_sec_a(c, name, (enum cache_rank)r,
			                           NULL, all[i], NULL, 0, 1,
			                           T0),
			                 CACHE_OK);
			GET_OK(c, name, TYPE_A, 0, T0, &ans);
			ck_assert_int_eq(ans.rank, r);
			ck_assert_int_eq(ans.sec, all[i]);
			ck_assert_int_eq(ans.curve, 0);
		}
	cache_destroy(c);
}
END_TEST

START_TEST(test_dnssec_image_get)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t img[600], wn[64];
	size_t len = image_one_sig(img, "www.example.com");
	size_t len2;

	/* Two records, the second with another owner and type. */
	len2 = len + image_rr(img + len, "example.com", TYPE_NSEC, 30, 1);
	ck_assert_int_eq(put_sec_a(c, "www.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, img, len2, 1, T0),
	                 CACHE_OK);
	memset(buf, 0xaa, sizeof(buf));
	GET_OK(c, "www.example.com", TYPE_A, 0, T0 + 10, &ans);
	ck_assert_uint_eq(ans.dnssec_len, 0);
	ck_assert_uint_eq(ans.dnssec_count, 0);
	ck_assert_uint_eq(buf[ans.len], 0xaa); /* nothing after the RRs */
	ck_assert_int_eq(ans.sec, CACHE_SEC_SECURE);
	GET_OK(c, "www.example.com", TYPE_A, CACHE_GET_DNSSEC, T0 + 10, &ans);
	ck_assert_uint_eq(ans.ttl, 290);
	ck_assert_uint_eq(ans.count, 1);
	ck_assert_uint_eq(ans.dnssec_len, len2);
	ck_assert_uint_eq(ans.dnssec_count, 2);
	check_image(buf + ans.len, img, len2, 290, 2);
	ck_assert_uint_eq(buf[ans.len + len2], 0xaa);
	/* Stale: TTL 0 in the RRs and in the image. */
	GET_OK(c, "www.example.com", TYPE_A,
	       CACHE_GET_DNSSEC | CACHE_GET_STALE, T0 + 400, &ans);
	ck_assert_int_eq(ans.stale, 1);
	check_image(buf + ans.len, img, len2, 0, 2);
	/* Negative entries: the proof after the SOA. */
	ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NXDOMAIN, "nx.example.com",
	                             0, CACHE_RANK_AUTH, CACHE_SEC_SECURE, img,
	                             len2, T0),
	                 CACHE_OK);
	GET_OK(c, "nx.example.com", TYPE_A, CACHE_GET_DNSSEC, T0 + 1, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
	ck_assert_uint_eq(ans.dnssec_count, 2);
	check_image(buf + ans.len, img, len2, ans.ttl, 2);
	/* The zone cut's RRSIGs come with cache_closest_ns too. */
	ck_assert_int_eq(put_ns(c, "example.com", "ns.example.com", 300),
	                 CACHE_OK);
	len = image_one_sig(img, "example.com");
	{
		uint8_t n[64], h[64];
		struct cache_rdata rd = { h, wire(h, "ns.example.com") };
		struct cache_rrset set = { n,
			                   wire(n, "example.com"),
			                   CACHE_TYPE_NS,
			                   CLASS_IN,
			                   300,
			                   &rd,
			                   1,
			                   CACHE_RANK_AUTH,
			                   NULL,
			                   CACHE_SEC_SECURE,
			                   img,
			                   len };
		ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_OK);
	}
	ck_assert_int_eq(closest(c, "a.b.example.com", CACHE_GET_DNSSEC,
	                         T0 + 5, &ans, wn),
	                 CACHE_OK);
	ck_assert_int_eq(ans.sec, CACHE_SEC_SECURE);
	ck_assert_uint_eq(ans.dnssec_count, 1);
	check_image(buf + ans.len, img, len, 295, 1);
	ck_assert_int_eq(closest(c, "a.b.example.com", 0, T0 + 5, &ans, wn),
	                 CACHE_OK);
	ck_assert_uint_eq(ans.dnssec_len, 0);
	cache_destroy(c);
}
END_TEST

START_TEST(test_dnssec_espace)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t img[300], n[64], *out;
	size_t len = image_one_sig(img, "www.example.com"), rrs, total;
	struct cache_query q = { n, wire(n, "www.example.com"), TYPE_A,
		                 CLASS_IN, CACHE_GET_DNSSEC };

	ck_assert_int_eq(put_sec_a(c, "www.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, img, len, 1, T0),
	                 CACHE_OK);
	GET_OK(c, "www.example.com", TYPE_A, 0, T0, &ans);
	rrs = ans.len;
	total = rrs + len;
	/* Each cap below the total: ESPACE, and the total is told. */
	for (size_t cap = 0; cap < total; cap++) {
		out = malloc(cap ? cap : 1);
		ck_assert_int_eq(cache_get(c, &q, T0, &ans, out, cap),
		                 CACHE_ESPACE);
		ck_assert_uint_eq(ans.len + ans.dnssec_len, total);
		ck_assert_uint_eq(ans.dnssec_count, 1);
		free(out);
	}
	out = malloc(total); /* exact: ASan sees any write past it */
	ck_assert_int_eq(cache_get(c, &q, T0, &ans, out, total), CACHE_OK);
	check_image(out + rrs, img, len, 300, 1);
	free(out);
	ck_assert_int_eq(cache_get(c, &q, T0, &ans, NULL, 0), CACHE_ESPACE);
	ck_assert_uint_eq(ans.len + ans.dnssec_len, total);
	/* Without the flag the RRs alone fit. */
	q.flags = 0;
	out = malloc(rrs);
	ck_assert_int_eq(cache_get(c, &q, T0, &ans, out, rrs), CACHE_OK);
	ck_assert_uint_eq(ans.dnssec_len, 0);
	free(out);
	cache_destroy(c);
}
END_TEST

/* Every put of img[0..len) cut to fewer bytes, in an exact-size heap
 * copy, is refused, except the cuts listed in ok (record boundaries). */
static void check_cuts(struct cache *c, const uint8_t *img, size_t len,
                       size_t ok)
{
	for (size_t k = 1; k < len; k++) {
		uint8_t *cut = malloc(k);
		int want = k == ok ? CACHE_OK : CACHE_ERDATA;
		memcpy(cut, img, k);
		ck_assert_int_eq(put_sec_a(c, "cut.example.com",
		                           CACHE_RANK_AUTH, NULL,
		                           CACHE_SEC_SECURE, cut, k, 1, T0),
		                 want);
		ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NODATA,
		                             "cut.example.com", TYPE_MX,
		                             CACHE_RANK_AUTH, CACHE_SEC_SECURE,
		                             cut, k, T0),
		                 want);
		free(cut);
	}
}

START_TEST(test_dnssec_malformed_refused)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_stats st;
	uint8_t img[600], *big;
	size_t len = image_one_sig(img, "www.example.com"), len2;

	check_cuts(c, img, len, 0);
	len2 = len + image_rr(img + len, "example.com", TYPE_NSEC, 20, 3);
	check_cuts(c, img, len2, len);
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.entries, 2); /* only the record-boundary cut */
	/* A compressed owner, a label over 63, one byte too many. */
	img[len] = 0xc0;
	ck_assert_int_eq(put_sec_a(c, "x.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, img, len2, 1, T0),
	                 CACHE_ERDATA);
	img[len] = 64;
	ck_assert_int_eq(put_sec_a(c, "x.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, img, len2, 1, T0),
	                 CACHE_ERDATA);
	len = image_one_sig(img, "www.example.com");
	img[len] = 0;
	ck_assert_int_eq(put_sec_a(c, "x.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, img, len + 1, 1, T0),
	                 CACHE_ERDATA);
	/* NULL with a length, over CACHE_IMAGE_MAX, a bad status. */
	ck_assert_int_eq(put_sec_a(c, "x.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, NULL, 5, 1, T0),
	                 CACHE_ERDATA);
	/* Two whole records of CACHE_IMAGE_MAX + 1 bytes in all. */
	big = calloc(1, CACHE_IMAGE_MAX + 1);
	len = image_rr(big, ".", TYPE_RRSIG, 65000, 0);
	len += image_rr(big + len, ".", TYPE_RRSIG,
	                CACHE_IMAGE_MAX + 1 - len - 11, 0);
	ck_assert_uint_eq(len, CACHE_IMAGE_MAX + 1);
	ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NXDOMAIN, "x.example.com",
	                             0, CACHE_RANK_AUTH, CACHE_SEC_SECURE, big,
	                             CACHE_IMAGE_MAX + 1, T0),
	                 CACHE_ERDATA);
	free(big);
	ck_assert_int_eq(put_sec_a(c, "x.example.com", CACHE_RANK_AUTH, NULL,
	                           (enum cache_sec)(CACHE_SEC_BOGUS + 1), NULL,
	                           0, 1, T0),
	                 CACHE_EINVAL);
	ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NXDOMAIN, "x.example.com",
	                             0, CACHE_RANK_AUTH,
	                             (enum cache_sec)(CACHE_SEC_BOGUS + 1),
	                             NULL, 0, T0),
	                 CACHE_EINVAL);
	cache_stats_get(c, &st);
	ck_assert_uint_eq(st.entries, 2);
	cache_destroy(c);
}
END_TEST

/* Note a reason on name's A entry (cache_bogus_ede). */
static int note_ede(struct cache *c, const char *name, uint8_t code,
                    time_t now)
{
	uint8_t n[CACHE_NAME_MAX + 1];
	struct cache_query q = { n, wire(n, name), TYPE_A, CLASS_IN, 0 };
	return cache_bogus_ede(c, &q, now, code);
}

/* Put A at name with (rank, sec) over an entry of (AUTH, have). */
static int over(struct cache *c, enum cache_sec have, enum cache_rank rank,
                enum cache_sec sec, time_t when)
{
	cache_flush_all(c, NULL);
	ck_assert_int_eq(put_sec_a(c, "r.example.com", CACHE_RANK_AUTH, NULL,
	                           have, NULL, 0, 1, T0),
	                 CACHE_OK);
	return put_sec_a(c, "r.example.com", rank, NULL, sec, NULL, 0, 2,
	                 when);
}

/* A BOGUS entry keeps the EDE code noted beside it until it is replaced;
 * other entries take none (issue 21 item 11). */
START_TEST(test_dnssec_bogus_ede)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;

	ck_assert_int_eq(put_sec_a(c, "b.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_BOGUS, NULL, 0, 1, T0),
	                 CACHE_OK);
	GET_OK(c, "b.example.com", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.ede, 0);
	ck_assert_int_eq(note_ede(c, "b.example.com", 7, T0), CACHE_OK);
	GET_OK(c, "b.example.com", TYPE_A, 0, T0 + 1, &ans);
	ck_assert_int_eq(ans.sec, CACHE_SEC_BOGUS);
	ck_assert_uint_eq(ans.ede, 7);
	/* replaced: the new entry's reason is not known */
	ck_assert_int_eq(over(c, CACHE_SEC_BOGUS, CACHE_RANK_AUTH,
	                      CACHE_SEC_BOGUS, T0),
	                 CACHE_OK);
	GET_OK(c, "r.example.com", TYPE_A, 0, T0, &ans);
	ck_assert_uint_eq(ans.ede, 0);
	/* not BOGUS, absent or expired: nothing noted */
	ck_assert_int_eq(put_sec_a(c, "s.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, NULL, 0, 1, T0),
	                 CACHE_OK);
	ck_assert_int_eq(note_ede(c, "s.example.com", 7, T0), CACHE_ENOTFOUND);
	ck_assert_int_eq(note_ede(c, "none.example.com", 7, T0),
	                 CACHE_ENOTFOUND);
	ck_assert_int_eq(note_ede(c, "b.example.com", 7, T0 + 100000),
	                 CACHE_ENOTFOUND);
	ck_assert_int_eq(cache_bogus_ede(NULL, NULL, T0, 7), CACHE_EINVAL);
	cache_destroy(c);
}
END_TEST

START_TEST(test_dnssec_rank_rule)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	uint8_t key[CACHE_SERVER_KEY_BYTES] = { 1 };

	/* SECURE kept against the rest at equal rank... */
	ck_assert_int_eq(over(c, CACHE_SEC_SECURE, CACHE_RANK_AUTH,
	                      CACHE_SEC_UNCHECKED, T0),
	                 CACHE_ERANK);
	ck_assert_int_eq(over(c, CACHE_SEC_SECURE, CACHE_RANK_AUTH,
	                      CACHE_SEC_INSECURE, T0),
	                 CACHE_ERANK);
	ck_assert_int_eq(over(c, CACHE_SEC_SECURE, CACHE_RANK_AUTH,
	                      CACHE_SEC_BOGUS, T0),
	                 CACHE_ERANK);
	GET_OK(c, "r.example.com", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.sec, CACHE_SEC_SECURE);
	ck_assert_uint_eq(answer_addr(&ans) & 0xff, 1);
	/* ...replaced by SECURE, or once expired. */
	ck_assert_int_eq(over(c, CACHE_SEC_SECURE, CACHE_RANK_AUTH,
	                      CACHE_SEC_SECURE, T0),
	                 CACHE_OK);
	ck_assert_int_eq(over(c, CACHE_SEC_SECURE, CACHE_RANK_AUTH,
	                      CACHE_SEC_UNCHECKED, T0 + 300),
	                 CACHE_OK);
	/* Below AUTH a higher rank wins whatever the status. */
	cache_flush_all(c, NULL);
	ck_assert_int_eq(put_sec_a(c, "r.example.com", CACHE_RANK_NONAUTH,
	                           NULL, CACHE_SEC_SECURE, NULL, 0, 1, T0),
	                 CACHE_OK);
	ck_assert_int_eq(put_sec_a(c, "r.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_INSECURE, NULL, 0, 2, T0),
	                 CACHE_OK);
	GET_OK(c, "r.example.com", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.sec, CACHE_SEC_INSECURE);
	/* A SECURE lower rank does not beat a higher rank. */
	ck_assert_int_eq(put_sec_a(c, "r.example.com", CACHE_RANK_NONAUTH,
	                           NULL, CACHE_SEC_SECURE, NULL, 0, 3, T0),
	                 CACHE_ERANK);
	/* BOGUS blocks nothing: any rank, any status replaces it. */
	ck_assert_int_eq(over(c, CACHE_SEC_BOGUS, CACHE_RANK_GLUE,
	                      CACHE_SEC_UNCHECKED, T0),
	                 CACHE_OK);
	ck_assert_int_eq(over(c, CACHE_SEC_BOGUS, CACHE_RANK_AUTH,
	                      CACHE_SEC_BOGUS, T0),
	                 CACHE_OK);
	/* Non-secure entries keep the old rule: equal rank replaces. */
	ck_assert_int_eq(over(c, CACHE_SEC_INSECURE, CACHE_RANK_AUTH,
	                      CACHE_SEC_UNCHECKED, T0),
	                 CACHE_OK);
	ck_assert_int_eq(over(c, CACHE_SEC_UNCHECKED, CACHE_RANK_NONAUTH,
	                      CACHE_SEC_SECURE, T0),
	                 CACHE_ERANK);
	/* DNSCurve does not lift a non-SECURE put over SECURE data. */
	cache_flush_all(c, NULL);
	ck_assert_int_eq(put_sec_a(c, "r.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, NULL, 0, 1, T0),
	                 CACHE_OK);
	ck_assert_int_eq(put_sec_a(c, "r.example.com", CACHE_RANK_AUTH, key,
	                           CACHE_SEC_UNCHECKED, NULL, 0, 2, T0),
	                 CACHE_ERANK);
	ck_assert_int_eq(put_sec_a(c, "r.example.com", CACHE_RANK_AUTH, key,
	                           CACHE_SEC_SECURE, NULL, 0, 2, T0),
	                 CACHE_OK);
	cache_destroy(c);
}
END_TEST

START_TEST(test_dnssec_rank_negative)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;

	/* NODATA: SECURE kept against an UNCHECKED NODATA or RRset. */
	ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NODATA, "n.example.com",
	                             TYPE_A, CACHE_RANK_AUTH, CACHE_SEC_SECURE,
	                             NULL, 0, T0),
	                 CACHE_OK);
	ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NODATA, "n.example.com",
	                             TYPE_A, CACHE_RANK_AUTH,
	                             CACHE_SEC_INSECURE, NULL, 0, T0),
	                 CACHE_ERANK);
	ck_assert_int_eq(put_sec_a(c, "n.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_UNCHECKED, NULL, 0, 1, T0),
	                 CACHE_ERANK);
	ck_assert_int_eq(put_sec_a(c, "n.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, NULL, 0, 1, T0),
	                 CACHE_OK);
	/* NXDOMAIN: an UNCHECKED one of equal rank leaves a fresh SECURE
	 * RRset of the name in place, and reads still find the RRset. */
	ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NXDOMAIN, "n.example.com",
	                             0, CACHE_RANK_AUTH, CACHE_SEC_UNCHECKED,
	                             NULL, 0, T0),
	                 CACHE_OK);
	GET_OK(c, "n.example.com", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_RRSET);
	ck_assert_int_eq(ans.sec, CACHE_SEC_SECURE);
	GET_OK(c, "n.example.com", TYPE_MX, 0, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
	/* A SECURE NXDOMAIN of equal rank removes it. */
	ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NXDOMAIN, "n.example.com",
	                             0, CACHE_RANK_AUTH, CACHE_SEC_SECURE,
	                             NULL, 0, T0),
	                 CACHE_OK);
	GET_OK(c, "n.example.com", TYPE_A, 0, T0, &ans);
	ck_assert_int_eq(ans.kind, CACHE_KIND_NXDOMAIN);
	ck_assert_int_eq(ans.sec, CACHE_SEC_SECURE);
	/* It is kept against an UNCHECKED NXDOMAIN; a BOGUS one goes. */
	ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NXDOMAIN, "n.example.com",
	                             0, CACHE_RANK_AUTH, CACHE_SEC_UNCHECKED,
	                             NULL, 0, T0),
	                 CACHE_ERANK);
	ck_assert_int_eq(put_sec_neg(c, CACHE_KIND_NXDOMAIN, "b.example.com",
	                             0, CACHE_RANK_AUTH, CACHE_SEC_BOGUS, NULL,
	                             0, T0),
	                 CACHE_OK);
	ck_assert_int_eq(put_sec_a(c, "b.example.com", CACHE_RANK_GLUE, NULL,
	                           CACHE_SEC_UNCHECKED, NULL, 0, 1, T0),
	                 CACHE_OK);
	GET_NONE(c, "b.example.com", TYPE_MX, 0, T0, &ans);
	cache_destroy(c);
}
END_TEST

/* Bytes charged for one A RRset of www.example.com with this image. */
static size_t charged(const uint8_t *img, size_t len)
{
	struct cache *c = make_cache(1 << 20, 1);
	struct cache_stats before, after;

	cache_stats_get(c, &before);
	ck_assert_int_eq(put_sec_a(c, "www.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, img, len, 1, T0),
	                 CACHE_OK);
	cache_stats_get(c, &after);
	cache_destroy(c);
	return after.bytes - before.bytes;
}

START_TEST(test_dnssec_memory)
{
	uint8_t img[300], *big;
	size_t len = image_one_sig(img, "www.example.com");
	size_t plain = charged(NULL, 0), signed_ = charged(img, len);
	struct cache *c = make_cache(SMALL_CACHE, 1);
	struct cache_stats st;

	fprintf(stderr,
	        "cache: one A RRset charged %zu bytes, %zu with one "
	        "RRSIG (ECDSA P-256, %zu-byte image)\n",
	        plain, signed_, len);
	ck_assert_uint_ge(signed_, plain + len);
	ck_assert_uint_le(signed_, plain + len + 32);
	/* The image counts toward the entry's share of its shard. */
	big = calloc(1, 40000);
	ck_assert_uint_eq(image_rr(big, ".", TYPE_RRSIG, 40000 - 11, 0),
	                  40000);
	ck_assert_int_eq(put_sec_a(c, "big.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, big, 40000, 1, T0),
	                 CACHE_ETOOBIG);
	free(big);
	/* Filling with signed entries stays in the budget. */
	for (int i = 0; i < 2000; i++) {
		char name[64];
		snprintf(name, sizeof(name), "n%d.example.com", i);
		ck_assert_int_eq(put_sec_a(c, name, CACHE_RANK_AUTH, NULL,
		                           CACHE_SEC_SECURE, img, len, 1, T0),
		                 CACHE_OK);
	}
	cache_stats_get(c, &st);
	ck_assert_uint_le(st.bytes, st.max_bytes);
	ck_assert_uint_gt(st.evictions, 0);
	ck_assert_uint_le(st.entries * signed_, st.max_bytes);
	cache_destroy(c);
}
END_TEST

struct view_seen {
	int found;
	enum cache_sec sec;
	size_t dnssec_len, wire_len;
	uint8_t image[300];
};

static int view_cb(const struct cache_view *v, void *arg)
{
	struct view_seen *s = arg;

	if (v->kind != CACHE_KIND_RRSET)
		return 0;
	s->found++;
	s->sec = v->sec;
	s->dnssec_len = v->dnssec_len;
	s->wire_len = v->wire_len;
	if (v->dnssec_len <= sizeof(s->image) && v->dnssec != NULL)
		memcpy(s->image, v->dnssec, v->dnssec_len);
	return 0;
}

START_TEST(test_dnssec_view)
{
	struct cache *c = make_cache(1 << 20, 0);
	struct cache_answer ans;
	struct view_seen seen;
	uint8_t img[300];
	size_t len = image_one_sig(img, "www.example.com");

	ck_assert_int_eq(put_sec_a(c, "www.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_SECURE, img, len, 1, T0),
	                 CACHE_OK);
	GET_OK(c, "www.example.com", TYPE_A, 0, T0, &ans);
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(cache_iterate(c, T0 + 1, view_cb, &seen), 0);
	ck_assert_int_eq(seen.found, 1);
	ck_assert_int_eq(seen.sec, CACHE_SEC_SECURE);
	ck_assert_uint_eq(seen.dnssec_len, len);
	ck_assert_uint_eq(seen.wire_len, ans.len); /* RRs only */
	check_image(seen.image, img, len, 0, 1);   /* TTLs stored as 0 */
	cache_flush_all(c, NULL);
	ck_assert_int_eq(put_sec_a(c, "www.example.com", CACHE_RANK_AUTH, NULL,
	                           CACHE_SEC_INSECURE, NULL, 0, 1, T0),
	                 CACHE_OK);
	memset(&seen, 0, sizeof(seen));
	ck_assert_int_eq(cache_iterate(c, T0 + 1, view_cb, &seen), 0);
	ck_assert_int_eq(seen.sec, CACHE_SEC_INSECURE);
	ck_assert_uint_eq(seen.dnssec_len, 0);
	cache_destroy(c);
}
END_TEST

static Suite *cache_suite(void)
{
	Suite *s = suite_create("cache");
	TCase *tc;

	tc = tcase_create("roundtrip");
	tcase_add_test(tc, test_put_get_a);
	tcase_add_test(tc, test_buckets_grow);
	tcase_add_test(tc, test_put_get_aaaa8);
	tcase_add_test(tc, test_provenance_and_space);
	tcase_add_test(tc, test_empty_rdata_and_root);
	suite_add_tcase(s, tc);
	tc = tcase_create("ttl");
	tcase_add_test(tc, test_ttl_countdown_and_expiry);
	tcase_add_test(tc, test_ttl_clamps);
	tcase_add_test(tc, test_ttl_across_32bit_boundaries);
	tcase_add_test(tc, test_ttl_default_max_and_zero);
	tcase_add_test(tc, test_ttl_orig_for_prefetch);
	suite_add_tcase(s, tc);
	tc = tcase_create("rank");
	tcase_add_test(tc, test_rank_lower_never_overwrites_fresh_higher);
	tcase_add_test(tc, test_rank_curve_beats_plain_at_equal_rank);
	tcase_add_test(tc, test_rank_negative_vs_positive);
	suite_add_tcase(s, tc);
	tc = tcase_create("negative");
	tcase_add_test(tc, test_neg_nxdomain);
	tcase_add_test(tc, test_neg_nodata);
	tcase_add_test(tc, test_neg_reject);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_test(tc, test_reject_names);
	tcase_add_test(tc, test_reject_upper_case_bytes);
	tcase_add_test(tc, test_reject_puts_and_gets);
	tcase_add_test(tc, test_reject_null_and_bad_flush);
	tcase_add_test(tc, test_reject_too_many_rdata_bytes);
	tcase_add_test(tc, test_reject_create);
	tcase_add_test(tc, test_strerror);
	suite_add_tcase(s, tc);
	tc = tcase_create("evict");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_evict_million_bounded);
	tcase_add_test(tc, test_evict_keeps_hot_entries);
	tcase_add_test(tc, test_evict_expired_first);
	tcase_add_test(tc, test_evict_huge_and_chains);
	tcase_add_test(tc, test_evict_refresh_keeps_reference);
	suite_add_tcase(s, tc);
	tc = tcase_create("flush");
	tcase_add_test(tc, test_flush_name_zone_all);
	tcase_add_test(tc, test_flush_type);
	tcase_add_test(tc, test_iterate_dump);
	suite_add_tcase(s, tc);
	tc = tcase_create("zonecut");
	tcase_add_test(tc, test_closest_ns);
	tcase_add_test(tc, test_watch);
	suite_add_tcase(s, tc);
	tc = tcase_create("hash");
	tcase_add_test(tc, test_siphash_vector);
	tcase_add_test(tc, test_name_below);
	suite_add_tcase(s, tc);
	tc = tcase_create("dnssec");
	tcase_add_test(tc, test_dnssec_sec_roundtrip);
	tcase_add_test(tc, test_dnssec_image_get);
	tcase_add_test(tc, test_dnssec_espace);
	tcase_add_test(tc, test_dnssec_malformed_refused);
	tcase_add_test(tc, test_dnssec_rank_rule);
	tcase_add_test(tc, test_dnssec_bogus_ede);
	tcase_add_test(tc, test_dnssec_rank_negative);
	tcase_add_test(tc, test_dnssec_memory);
	tcase_add_test(tc, test_dnssec_view);
	suite_add_tcase(s, tc);
	tc = tcase_create("threads");
	tcase_set_timeout(tc, 300);
	tcase_add_test(tc, test_threads_stress);
	suite_add_tcase(s, tc);
	/* last: what it leaves in the heap changes no charge measured
	 * above (test_dnssec_memory reads malloc_usable_size) */
	tc = tcase_create("via");
	tcase_add_test(tc, test_via);
	suite_add_tcase(s, tc);
	return s;
}

/*
 * glibc keeps freed chunks in a per-thread cache that mallinfo2 counts as
 * in use; run with it off so the eviction test can compare the cache's
 * own accounting with the allocator's (GLIBC_TUNABLES is read at start).
 */
static void exec_without_tcache(char **argv)
{
#if defined(__GLIBC__) && !defined(UNDER_SANITIZER)
	const char *tun = getenv("GLIBC_TUNABLES");
	if (tun == NULL || strstr(tun, "tcache_count=0") == NULL) {
		char val[512];
		snprintf(val, sizeof(val), "%s%sglibc.malloc.tcache_count=0",
		         tun ? tun : "", tun ? ":" : "");
		if (setenv("GLIBC_TUNABLES", val, 1) == 0)
			execv("/proc/self/exe", argv);
		/* If that failed, go on: heap_in_use() then over-counts. */
	}
#else
	(void)argv;
#endif
}

int main(int argc, char **argv)
{
	SRunner *sr;
	int failed;

	(void)argc;
	exec_without_tcache(argv);
	sr = srunner_create(cache_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
