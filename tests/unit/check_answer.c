/*
 * tests/unit/check_answer.c - Suite "answer": the record image
 * (resolver/wire/answer.c): append until full, walks over truncated and
 * hostile images, TTLs, and the chase over the cache (CNAME, DNAME,
 * loops, stale reads, the iterator's one-record rule).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire/answer.h"
#include "cache.h"
#include "cachetest.h"
#include "wire/wire.h"

#define T0 CACHETEST_T0
/** A byte no test writes: what lies past a buffer must stay this. */
#define SENTINEL 0xa5

static const uint8_t addr[4] = { 192, 0, 2, 1 };
static uint8_t buf[8192];

/* A name-valued record (CNAME, DNAME) into the cache. */
static void put_name(const char *owner, uint16_t type, const char *target,
                     uint32_t ttl, time_t now)
{
	uint8_t t[WIRE_NAME_MAX];

	cachetest_put(owner, type, ttl, t, wname(t, target), CACHE_RANK_AUTH,
	              now);
}

static void put_a(const char *name, uint32_t ttl, time_t now)
{
	cachetest_put(name, WIRE_TYPE_A, ttl, addr, sizeof addr,
	              CACHE_RANK_AUTH, now);
}

static int chase(struct answer_chase *ch, const char *name, uint16_t type,
                 struct answer *a)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t len = wname(n, name);

	return answer_chase(ch, n, len, type, a, buf, sizeof buf);
}

static struct answer_chase fresh(time_t now)
{
	struct answer_chase ch = { c, WIRE_CLASS_IN, now, 0, 0, false };

	return ch;
}

/* The i-th record of an image (the walk must reach it). */
static struct answer_rr rr_at(const uint8_t *img, size_t len, size_t i)
{
	struct answer_rr rr;
	size_t pos = 0, k;

	for (k = 0; k <= i; k++)
		ck_assert(answer_rr_next(img, len, &pos, &rr));
	return rr;
}

/* a->an_ttl is the least TTL a walk of the answer section finds (0
 * when the section is empty): the prefetch check trusts it. */
static void check_an_ttl(const struct answer *a)
{
	struct answer_rr least;

	if (a->an_count == 0) {
		ck_assert_uint_eq(a->an_ttl, 0);
		return;
	}
	ck_assert(answer_ttl_min(a->an, a->an_len, &least));
	ck_assert_uint_eq(a->an_ttl, least.ttl);
}

/* Three records appended to img; their total length. */
static size_t three(uint8_t *img, size_t cap)
{
	uint8_t n[WIRE_NAME_MAX], t[WIRE_NAME_MAX];
	size_t nl = wname(n, "www.example"), tl = wname(t, "a.example");
	size_t len = 0;

	ck_assert(answer_rr_append(img, cap, &len, n, nl, WIRE_TYPE_CNAME,
	                           WIRE_CLASS_IN, 300, t, tl));
	ck_assert(answer_rr_append(img, cap, &len, t, tl, WIRE_TYPE_A,
	                           WIRE_CLASS_IN, 60, addr, sizeof addr));
	ck_assert(answer_rr_append(img, cap, &len, t, tl, WIRE_TYPE_A,
	                           WIRE_CLASS_IN, 90, addr, sizeof addr));
	return len;
}

/* ------------------------------------------------------------------ */
/* append                                                              */

START_TEST(test_append_until_full)
{
	uint8_t n[WIRE_NAME_MAX], img[64];
	size_t nl = wname(n, "www.example"), one, len = 0, i;

	one = nl + ANSWER_RR_FIXED_BYTES + sizeof addr;
	memset(img, SENTINEL, sizeof img);
	/* Room for exactly two: the third does not fit, nothing moves. */
	ck_assert(answer_rr_append(img, 2 * one, &len, n, nl, WIRE_TYPE_A,
	                           WIRE_CLASS_IN, 1, addr, sizeof addr));
	ck_assert(answer_rr_append(img, 2 * one, &len, n, nl, WIRE_TYPE_A,
	                           WIRE_CLASS_IN, 2, addr, sizeof addr));
	ck_assert_uint_eq(len, 2 * one);
	ck_assert(!answer_rr_append(img, 2 * one, &len, n, nl, WIRE_TYPE_A,
	                            WIRE_CLASS_IN, 3, addr, sizeof addr));
	ck_assert_uint_eq(len, 2 * one);
	for (i = 2 * one; i < sizeof img; i++)
		ck_assert_uint_eq(img[i], SENTINEL);
	/* One byte short of a record: refused as well. */
	len = one;
	ck_assert(!answer_rr_append(img, 2 * one - 1, &len, n, nl, WIRE_TYPE_A,
	                            WIRE_CLASS_IN, 3, addr, sizeof addr));
	ck_assert_uint_eq(len, one);
	/* A length already past the end, and RDATA over 65535 bytes. */
	len = sizeof img + 1;
	ck_assert(!answer_rr_append(img, sizeof img, &len, n, nl, WIRE_TYPE_A,
	                            WIRE_CLASS_IN, 3, addr, sizeof addr));
	len = 0;
	ck_assert(!answer_rr_append(buf, sizeof buf, &len, n, nl, WIRE_TYPE_A,
	                            WIRE_CLASS_IN, 3, buf,
	                            (size_t)UINT16_MAX + 1));
	ck_assert_uint_eq(len, 0);
}
END_TEST

START_TEST(test_append_walk_round_trip)
{
	uint8_t img[256];
	size_t len = three(img, sizeof img), pos = 0, n = 0;
	struct answer_rr rr;

	while (answer_rr_next(img, len, &pos, &rr))
		n++;
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(pos, len);
	rr = rr_at(img, len, 0);
	ck_assert_uint_eq(rr.type, WIRE_TYPE_CNAME);
	ck_assert_uint_eq(rr.ttl, 300);
	ck_assert_uint_eq(rr.owner, 0);
	ck_assert_uint_eq(rr.ownerlen, 13);
	rr = rr_at(img, len, 2);
	ck_assert_uint_eq(rr.type, WIRE_TYPE_A);
	ck_assert_uint_eq(rr.rclass, WIRE_CLASS_IN);
	ck_assert_uint_eq(rr.ttl, 90);
	ck_assert_uint_eq(rr.rdlen, sizeof addr);
	ck_assert_mem_eq(img + rr.rdata, addr, sizeof addr);
}
END_TEST

/* ------------------------------------------------------------------ */
/* walk                                                                */

/* Walk img[0..len) copied to the end of a buffer of exactly len bytes;
 * every record read must lie inside; returns how many were read. */
static size_t walk_exact(const uint8_t *img, size_t len)
{
	uint8_t *copy = malloc(len > 0 ? len : 1);
	struct answer_rr rr;
	size_t pos = 0, n = 0, last = 0;

	ck_assert_ptr_nonnull(copy);
	memcpy(copy, img, len);
	while (n < len + 1 && answer_rr_next(copy, len, &pos, &rr)) {
		ck_assert_uint_le(rr.rdata + rr.rdlen, len);
		ck_assert_uint_le(rr.owner + rr.ownerlen, rr.rdata);
		ck_assert_uint_gt(pos, last);
		last = pos;
		n++;
	}
	ck_assert_uint_le(n, len);
	free(copy);
	return n;
}

START_TEST(test_walk_truncated)
{
	uint8_t img[256];
	size_t len = three(img, sizeof img), cut, ends[3], k = 0, pos = 0;
	struct answer_rr rr;

	while (answer_rr_next(img, len, &pos, &rr))
		ends[k++] = pos;
	/* Every cut reads exactly the whole records before it. */
	for (cut = 0; cut <= len; cut++) {
		size_t whole = 0;

		while (whole < 3 && ends[whole] <= cut)
			whole++;
		ck_assert_uint_eq(walk_exact(img, cut), whole);
	}
}
END_TEST

START_TEST(test_walk_hostile)
{
	/* A compressed owner, a label running off the end, RDLENGTH past
	 * the end, a name without its root label. */
	static const uint8_t ptr[] = {
		0xc0, 0x00, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0
	};
	static const uint8_t label[] = { 63, 'a', 'b' };
	static const uint8_t rdlen[] = {
		0, 0, 1, 0, 1, 0, 0, 0, 1, 0, 9, 1, 2
	};
	static const uint8_t noroot[] = { 3, 'w', 'w', 'w' };
	uint8_t rnd[97];
	unsigned seed = 14, round;
	size_t i;

	ck_assert_uint_eq(walk_exact(ptr, sizeof ptr), 0);
	ck_assert_uint_eq(walk_exact(label, sizeof label), 0);
	ck_assert_uint_eq(walk_exact(rdlen, sizeof rdlen), 0);
	ck_assert_uint_eq(walk_exact(noroot, sizeof noroot), 0);
	i = 0;
	ck_assert(!answer_rr_next(NULL, 10, &i, NULL));
	/* Random bytes: the checks inside walk_exact hold every time. */
	for (round = 0; round < 2000; round++) {
		for (i = 0; i < sizeof rnd; i++) {
			seed = seed * 1103515245u + 12345u;
			rnd[i] = (uint8_t)(seed >> 16);
			if (rnd[i] > 0x3f && (seed & 0x100))
				rnd[i] &= 0x07; /* short labels, often */
		}
		(void)walk_exact(rnd, (size_t)(seed >> 8) % sizeof rnd);
	}
}
END_TEST

/* answer_rr_owned reads what answer_rr_next reads, for its name only. */
static void owned_is_next(const uint8_t *img, size_t len, size_t pos,
                          const char *owner, bool expect)
{
	uint8_t n[WIRE_NAME_MAX];
	size_t nl = wname(n, owner), p1 = pos, p2 = pos;
	struct answer_rr a, b;

	ck_assert(answer_rr_owned(img, len, &p1, n, nl, &a) == expect);
	if (!expect) {
		ck_assert_uint_eq(p1, pos);
		return;
	}
	ck_assert(answer_rr_next(img, len, &p2, &b));
	ck_assert_uint_eq(p1, p2);
	ck_assert_uint_eq(a.owner, b.owner);
	ck_assert_uint_eq(a.ownerlen, b.ownerlen);
	ck_assert_uint_eq(a.type, b.type);
	ck_assert_uint_eq(a.rclass, b.rclass);
	ck_assert_uint_eq(a.ttl, b.ttl);
	ck_assert_uint_eq(a.rdata, b.rdata);
	ck_assert_uint_eq(a.rdlen, b.rdlen);
}

START_TEST(test_walk_owned)
{
	uint8_t img[256], n[WIRE_NAME_MAX], *copy;
	size_t len = three(img, sizeof img), second = 0, cut, pos, nl;
	struct answer_rr rr;

	ck_assert(answer_rr_next(img, len, &second, &rr));
	owned_is_next(img, len, 0, "www.example", true);
	owned_is_next(img, len, 0, "a.example", false);
	owned_is_next(img, len, 0, "www.exampla", false); /* the last word */
	owned_is_next(img, len, second, "a.example", true);
	/* Names that share a prefix of the owner's bytes, or extend it. */
	owned_is_next(img, len, second, "a.exampl", false);
	owned_is_next(img, len, second, "a.example.org", false);
	owned_is_next(img, len, second, "b.example", false);
	/* A short owner (under one word) and the root. */
	len = 0;
	ck_assert(answer_rr_append(img, sizeof img, &len, n, wname(n, "a.b"),
	                           WIRE_TYPE_A, WIRE_CLASS_IN, 5, addr,
	                           sizeof addr));
	ck_assert(answer_rr_append(img, sizeof img, &len, n, wname(n, "."),
	                           WIRE_TYPE_A, WIRE_CLASS_IN, 6, addr,
	                           sizeof addr));
	owned_is_next(img, len, 0, "a.b", true);
	owned_is_next(img, len, 0, "a.c", false);
	owned_is_next(img, len, 0, ".", false);
	owned_is_next(img, len, 1 + 4 + ANSWER_RR_FIXED_BYTES + sizeof addr,
	              ".", true);
	/* Cut short anywhere: no record, nothing read past the cut (the
	 * copy has exactly the cut's bytes, for the sanitizers). */
	len = three(img, sizeof img);
	nl = wname(n, "www.example");
	for (cut = 0; cut < second; cut++) {
		copy = malloc(cut > 0 ? cut : 1);
		ck_assert_ptr_nonnull(copy);
		memcpy(copy, img, cut);
		pos = 0;
		ck_assert(!answer_rr_owned(copy, cut, &pos, n, nl, &rr));
		ck_assert_uint_eq(pos, 0);
		free(copy);
	}
	pos = len;
	ck_assert(!answer_rr_owned(img, len, &pos, n, nl, &rr));
	pos = 0;
	ck_assert(!answer_rr_owned(NULL, len, &pos, n, nl, &rr));
	ck_assert(!answer_rr_owned(img, len, &pos, n, 0, &rr));
}
END_TEST

/* ------------------------------------------------------------------ */
/* ttl                                                                 */

START_TEST(test_ttl_set_and_min)
{
	uint8_t img[256];
	size_t len = three(img, sizeof img);
	struct answer_rr least;

	ck_assert(answer_ttl_min(img, len, &least));
	ck_assert_uint_eq(least.ttl, 60);
	ck_assert_uint_eq(least.type, WIRE_TYPE_A);
	ck_assert_uint_eq(least.ownerlen, 11);
	answer_ttl_set(img, len, 7);
	ck_assert_uint_eq(rr_at(img, len, 0).ttl, 7);
	ck_assert_uint_eq(rr_at(img, len, 1).ttl, 7);
	ck_assert_uint_eq(rr_at(img, len, 2).ttl, 7);
	/* Equal TTLs: the first record is the least. */
	ck_assert(answer_ttl_min(img, len, &least));
	ck_assert_uint_eq(least.type, WIRE_TYPE_CNAME);
	/* Empty and malformed images have no least record. */
	ck_assert(!answer_ttl_min(img, 0, &least));
	ck_assert(!answer_ttl_min(img, len - 1, &least));
}
END_TEST

START_TEST(test_ttl_set_truncated)
{
	uint8_t img[256], before[256];
	size_t len = three(img, sizeof img), cut = len - 2;

	/* The last record is cut: the first two change, its bytes not. */
	memcpy(before, img, len);
	answer_ttl_set(img, cut, 1);
	ck_assert_uint_eq(rr_at(img, len, 0).ttl, 1);
	ck_assert_uint_eq(rr_at(img, len, 1).ttl, 1);
	ck_assert_uint_eq(rr_at(img, len, 2).ttl, 90);
	ck_assert_mem_eq(img + cut, before + cut, len - cut);
}
END_TEST

/* ------------------------------------------------------------------ */
/* chase                                                               */

START_TEST(test_chase_cname)
{
	struct answer_chase ch = fresh(T0 + 10);
	struct answer a;

	put_name("www.example", WIRE_TYPE_CNAME, "a.example", 300, T0);
	put_name("a.example", WIRE_TYPE_CNAME, "b.example", 300, T0);
	put_a("b.example", 300, T0);
	ck_assert_int_eq(chase(&ch, "www.example", WIRE_TYPE_A, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(a.an_count, 3);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 0).type, WIRE_TYPE_CNAME);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 2).type, WIRE_TYPE_A);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 2).ttl, 290);
	ck_assert_uint_eq(a.an_ttl, 290);
	ck_assert_uint_eq(a.ns_count, 0);
	ck_assert(!ch.stale_used);
	/* The least TTL of the links, whichever link holds it. */
	put_name("short.example", WIRE_TYPE_CNAME, "b.example", 100, T0);
	ck_assert_int_eq(chase(&ch, "short.example", WIRE_TYPE_A, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_ttl, 90);
	check_an_ttl(&a);
	put_name("long.example", WIRE_TYPE_CNAME, "c.example", 3000, T0);
	put_a("c.example", 50, T0);
	ck_assert_int_eq(chase(&ch, "long.example", WIRE_TYPE_A, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_ttl, 40);
	check_an_ttl(&a);
	/* Asking for the CNAME itself stops at it. */
	ck_assert_int_eq(chase(&ch, "www.example", WIRE_TYPE_CNAME, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 1);
	/* A missing link is a miss; so is a chain that does not fit. */
	put_name("dead.example", WIRE_TYPE_CNAME, "none.example", 300, T0);
	ck_assert_int_eq(chase(&ch, "dead.example", WIRE_TYPE_A, &a),
	                 ANSWER_EMISS);
	{
		uint8_t n[WIRE_NAME_MAX];
		size_t nl = wname(n, "www.example");

		ck_assert_int_eq(answer_chase(&ch, n, nl, WIRE_TYPE_A, &a, buf,
		                              40),
		                 ANSWER_EMISS);
		ck_assert_int_eq(answer_chase(NULL, n, nl, WIRE_TYPE_A, &a,
		                              buf, sizeof buf),
		                 ANSWER_EINVAL);
	}
}
END_TEST

START_TEST(test_chase_dname)
{
	struct answer_chase ch = fresh(T0 + 10);
	struct answer a;

	put_name("dn.example", WIRE_TYPE_DNAME, "other.test", 300, T0);
	put_name("www.dn.example", WIRE_TYPE_CNAME, "www.other.test", 300, T0);
	put_a("www.other.test", 300, T0);
	ck_assert_int_eq(chase(&ch, "www.dn.example", WIRE_TYPE_A, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 3);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 0).type, WIRE_TYPE_DNAME);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 1).type, WIRE_TYPE_CNAME);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 2).type, WIRE_TYPE_A);
	/* The CNAME asked for itself comes with the DNAME that makes it
	 * (RFC 6672 section 3.1). */
	ck_assert_int_eq(chase(&ch, "www.dn.example", WIRE_TYPE_CNAME, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 2);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 0).type, WIRE_TYPE_DNAME);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 1).type, WIRE_TYPE_CNAME);
	check_an_ttl(&a);
	/* A CNAME the DNAME does not synthesize comes alone. */
	put_name("old.dn.example", WIRE_TYPE_CNAME, "www.other.test", 300, T0);
	ck_assert_int_eq(chase(&ch, "old.dn.example", WIRE_TYPE_CNAME, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_int_eq(chase(&ch, "old.dn.example", WIRE_TYPE_A, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 2);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 0).type, WIRE_TYPE_CNAME);
	/* Stale reads take an expired DNAME along (TTL 30), as fresh ones
	 * take a fresh one. */
	put_name("sdn.example", WIRE_TYPE_DNAME, "other.test", 100, T0);
	put_name("www.sdn.example", WIRE_TYPE_CNAME, "www.other.test", 1000,
	         T0);
	ch = fresh(T0 + 200);
	ck_assert_int_eq(chase(&ch, "www.sdn.example", WIRE_TYPE_A, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 2);
	ch.flags = ANSWER_CHASE_STALE;
	ch.window = 600;
	ck_assert_int_eq(chase(&ch, "www.sdn.example", WIRE_TYPE_A, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 3);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 0).type, WIRE_TYPE_DNAME);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 0).ttl, ANSWER_STALE_TTL);
	ck_assert(ch.stale_used);
	/* The DNAME's TTL counts: the least is the stale one's. */
	ck_assert_uint_eq(a.an_ttl, ANSWER_STALE_TTL);
	check_an_ttl(&a);
}
END_TEST

START_TEST(test_chase_loop_and_cap)
{
	struct answer_chase ch = fresh(T0 + 10);
	struct answer a;
	char from[32], to[32];
	unsigned i;

	put_name("a.loop", WIRE_TYPE_CNAME, "b.loop", 300, T0);
	put_name("b.loop", WIRE_TYPE_CNAME, "a.loop", 300, T0);
	ck_assert_int_eq(chase(&ch, "a.loop", WIRE_TYPE_A, &a), ANSWER_EMISS);
	/* c0 -> c1 -> ... -> cN: ANSWER_CNAME_MAX links answer, one more
	 * does not. */
	for (i = 0; i <= ANSWER_CNAME_MAX; i++) {
		snprintf(from, sizeof from, "c%u.chain", i);
		snprintf(to, sizeof to, "c%u.chain", i + 1);
		put_name(from, WIRE_TYPE_CNAME, to, 300, T0);
	}
	snprintf(to, sizeof to, "c%u.chain", ANSWER_CNAME_MAX + 1);
	put_a(to, 300, T0);
	ck_assert_int_eq(chase(&ch, "c1.chain", WIRE_TYPE_A, &a), ANSWER_OK);
	ck_assert_uint_eq(a.an_count, ANSWER_CNAME_MAX + 1);
	ck_assert_int_eq(chase(&ch, "c0.chain", WIRE_TYPE_A, &a),
	                 ANSWER_EMISS);
}
END_TEST

START_TEST(test_chase_negative_and_rank)
{
	struct answer_chase ch = fresh(T0 + 10);
	uint8_t n[WIRE_NAME_MAX], z[WIRE_NAME_MAX],
		soa[2 * WIRE_NAME_MAX + 20];
	size_t zl = wname(z, "example");
	/* SOA RDATA: MNAME and RNAME the zone, then five counters. */
	struct cache_neg neg = { .kind = CACHE_KIND_NXDOMAIN,
		                 .name = n,
		                 .name_len = wname(n, "nx.example"),
		                 .klass = WIRE_CLASS_IN,
		                 .soa_name = z,
		                 .soa_name_len = zl,
		                 .soa_ttl = 60,
		                 .soa_rdata = soa,
		                 .soa_rdlen = 2 * zl + 20,
		                 .rank = CACHE_RANK_AUTH };
	struct answer a;

	memcpy(soa, z, zl);
	memcpy(soa + zl, z, zl);
	memset(soa + 2 * zl, 0, 20);
	soa[2 * zl + 19] = 60; /* MINIMUM */
	ck_assert_int_eq(cache_neg_put(c, &neg, T0), CACHE_OK);
	put_name("to-nx.example", WIRE_TYPE_CNAME, "nx.example", 300, T0);
	ck_assert_int_eq(chase(&ch, "to-nx.example", WIRE_TYPE_A, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(a.an_count, 1);
	ck_assert_uint_eq(a.ns_count, 1);
	ck_assert_uint_eq(rr_at(a.ns, a.ns_len, 0).type, WIRE_TYPE_SOA);
	/* The answer section is the CNAME alone: the SOA's 50 s left do
	 * not count; without the CNAME there is no least TTL. */
	ck_assert_uint_eq(a.an_ttl, 290);
	check_an_ttl(&a);
	ck_assert_int_eq(chase(&ch, "nx.example", WIRE_TYPE_A, &a), ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 0);
	check_an_ttl(&a);
	/* Glue answers nothing. */
	cachetest_put("glue.example", WIRE_TYPE_A, 300, addr, sizeof addr,
	              CACHE_RANK_GLUE, T0);
	ck_assert_int_eq(chase(&ch, "glue.example", WIRE_TYPE_A, &a),
	                 ANSWER_EMISS);
}
END_TEST

START_TEST(test_chase_stale)
{
	struct answer_chase ch = fresh(T0 + 400);
	struct answer a;

	put_name("www.example", WIRE_TYPE_CNAME, "a.example", 100, T0);
	put_a("a.example", 1000, T0);
	/* Fresh reads miss the expired CNAME. */
	ck_assert_int_eq(chase(&ch, "www.example", WIRE_TYPE_A, &a),
	                 ANSWER_EMISS);
	ch.flags = ANSWER_CHASE_STALE;
	ch.window = 600;
	ck_assert_int_eq(chase(&ch, "www.example", WIRE_TYPE_A, &a),
	                 ANSWER_OK);
	ck_assert(ch.stale_used);
	ck_assert_uint_eq(a.an_count, 2);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 0).ttl, ANSWER_STALE_TTL);
	ck_assert_uint_eq(rr_at(a.an, a.an_len, 1).ttl, 600);
	ck_assert_uint_eq(a.an_ttl, ANSWER_STALE_TTL);
	check_an_ttl(&a);
	/* Past the window: a miss. */
	ch.window = 200;
	ch.stale_used = false;
	ck_assert_int_eq(chase(&ch, "www.example", WIRE_TYPE_A, &a),
	                 ANSWER_EMISS);
	/* Fresh data through a stale chase is not stale. */
	ch.stale_used = false;
	ck_assert_int_eq(chase(&ch, "a.example", WIRE_TYPE_A, &a), ANSWER_OK);
	ck_assert(!ch.stale_used);
}
END_TEST

START_TEST(test_cname_one_record)
{
	static const char *const targets[2] = { "x.example", "y.example" };
	struct answer_chase ch = fresh(T0 + 10);
	uint8_t n[WIRE_NAME_MAX], t[2][WIRE_NAME_MAX], target[WIRE_NAME_MAX];
	struct cache_rdata r[2];
	struct cache_rrset set = { n,
		                   wname(n, "two.example"),
		                   WIRE_TYPE_CNAME,
		                   WIRE_CLASS_IN,
		                   300,
		                   r,
		                   2,
		                   CACHE_RANK_AUTH,
		                   NULL,
		                   CACHE_SEC_UNCHECKED,
		                   NULL,
		                   0 };
	struct cache_answer ans;
	size_t i, tlen;

	for (i = 0; i < 2; i++) {
		r[i].data = t[i];
		r[i].len = wname(t[i], targets[i]);
	}
	ck_assert_int_eq(cache_rrset_put(c, &set, T0), CACHE_OK);
	/* The chase takes the first record; the iterator's rule none. */
	ck_assert(answer_cname(&ch, n, set.name_len, &ans, buf, sizeof buf,
	                       target, &tlen));
	ck_assert_uint_eq(ans.count, 2);
	ck_assert_uint_eq(tlen, r[0].len);
	ck_assert_mem_eq(target, t[0], tlen);
	ch.flags = ANSWER_CHASE_ONE_CNAME;
	ck_assert(!answer_cname(&ch, n, set.name_len, &ans, buf, sizeof buf,
	                        target, &tlen));
	put_name("one.example", WIRE_TYPE_CNAME, "x.example", 300, T0);
	ck_assert(answer_cname(&ch, n, wname(n, "one.example"), &ans, buf,
	                       sizeof buf, target, &tlen));
	/* Not a CNAME at all. */
	put_a("x.example", 300, T0);
	ck_assert(!answer_cname(&ch, n, wname(n, "x.example"), &ans, buf,
	                        sizeof buf, target, &tlen));
}
END_TEST

/* ------------------------------------------------------------------ */
/* answer_from_cache: status and DNSSEC image                          */

START_TEST(test_from_cache_dnssec)
{
	struct cache_answer ans;
	struct answer a;

	memset(&ans, 0, sizeof ans);
	ans.kind = CACHE_KIND_RRSET;
	ans.count = 2;
	ans.len = 40;
	ans.sec = CACHE_SEC_SECURE;
	ans.dnssec_count = 1;
	ans.dnssec_len = 100;
	/* A chain of 1 record (30 bytes) before it: the RRSIGs follow
	 * the final set in the answer section, counted. */
	answer_from_cache(&ans, buf, 30, 1, false, &a);
	ck_assert_uint_eq(a.sec, CACHE_SEC_SECURE);
	ck_assert_uint_eq(a.an_len, 30 + 40 + 100);
	ck_assert_uint_eq(a.an_count, 1 + 2 + 1);
	ck_assert_uint_eq(a.ns_count, 0);
	ck_assert(!a.ede);
	/* Negative: the proof follows the SOA in the authority section. */
	ans.kind = CACHE_KIND_NXDOMAIN;
	ans.count = 1;
	ans.dnssec_count = 4;
	ans.sec = CACHE_SEC_BOGUS;
	answer_from_cache(&ans, buf, 0, 0, false, &a);
	ck_assert_uint_eq(a.rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_uint_eq(a.sec, CACHE_SEC_BOGUS);
	ck_assert_ptr_eq(a.ns, buf);
	ck_assert_uint_eq(a.ns_len, 40 + 100);
	ck_assert_uint_eq(a.ns_count, 1 + 4);
	ck_assert_uint_eq(a.an_count, 0);
}
END_TEST

/* Without ANSWER_CHASE_DNSSEC nothing of an image is read, whatever the
 * cache holds; an entry stored UNCHECKED reads UNCHECKED. */
START_TEST(test_chase_plain_status)
{
	struct answer_chase ch = fresh(T0);
	struct answer a;

	put_name("www.example", WIRE_TYPE_CNAME, "a.example", 300, T0);
	put_a("a.example", 300, T0);
	ck_assert_int_eq(chase(&ch, "www.example", WIRE_TYPE_A, &a),
	                 ANSWER_OK);
	ck_assert_uint_eq(a.an_count, 2);
	ck_assert_uint_eq(a.sec, CACHE_SEC_UNCHECKED);
	ck_assert(!a.ede);
}
END_TEST

static Suite *answer_suite(void)
{
	Suite *s = suite_create("answer");
	TCase *tc = tcase_create("append");

	tcase_add_test(tc, test_append_until_full);
	tcase_add_test(tc, test_append_walk_round_trip);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, test_walk_truncated);
	tcase_add_test(tc, test_walk_hostile);
	tcase_add_test(tc, test_walk_owned);
	suite_add_tcase(s, tc);
	tc = tcase_create("ttl");
	tcase_add_test(tc, test_ttl_set_and_min);
	tcase_add_test(tc, test_ttl_set_truncated);
	suite_add_tcase(s, tc);
	tc = tcase_create("chase");
	tcase_add_checked_fixture(tc, cachetest_setup, cachetest_teardown);
	tcase_add_test(tc, test_chase_cname);
	tcase_add_test(tc, test_chase_dname);
	tcase_add_test(tc, test_chase_loop_and_cap);
	tcase_add_test(tc, test_chase_negative_and_rank);
	tcase_add_test(tc, test_chase_stale);
	tcase_add_test(tc, test_cname_one_record);
	tcase_add_test(tc, test_chase_plain_status);
	tcase_add_test(tc, test_from_cache_dnssec);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(answer_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
