/*
 * tests/unit/check_nsecidx.c - Suite "nsecidx": the index of validated
 * NSEC records for aggressive negative answers (resolver/infra/nsecidx.c,
 * RFC 8198): canonical order, covering and matching records, the wrap at
 * the zone's last NSEC, the TTLs of the answer, expiry, the byte bound
 * with eviction of the oldest zone, use from two threads, and the
 * wildcard that may answer a name an NSEC proves absent (nsecidx_wild).
 *
 * The zone example. has the chain example. -> a.example. -> d.example.
 * -> example. (the last wraps to the apex); in NSEC3 the same names,
 * hashed (salt 5ca1ab1e, 1 iteration), in hash order.
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "infra/nsecidx.h"
#include "validate/dnssec.h"
#include "wire/answer.h"
#include "wire/wire.h"

#define T0 1700000000
/** Seconds the test signatures last from T0. */
#define SIG_LIFE 100000u
#define IMG_CAP 4096

static struct nsecidx *x;

static size_t held(size_t which)
{
	struct nsecidx_size z;

	nsecidx_size(x, &z);
	return which == 0 ? z.bytes : which == 1 ? z.zones : z.records;
}

#define BYTES() held(0)
#define ZONES() held(1)
#define RECORDS() held(2)

static void setup(void)
{
	ck_assert_int_eq(nsecidx_new(0, &x), NSECIDX_OK);
}

static void teardown(void)
{
	nsecidx_free(x);
	x = NULL;
}

static size_t name(const char *text, uint8_t out[WIRE_NAME_MAX])
{
	size_t len = 0;

	ck_assert_int_eq(wire_name_from_text(text, strlen(text), out, &len),
	                 WIRE_OK);
	return len;
}

/* A proof image being built, with the SOA of zone `zone`. */
struct fix {
	uint8_t zone[WIRE_NAME_MAX];
	size_t zonelen;
	uint8_t soa[64];
	size_t soalen;
	uint8_t img[IMG_CAP];
	size_t len;
};

static void put_u32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* An RRSIG over (owner, covered) by the zone, expiring at `expire`. */
static void add_sig(struct fix *f, const uint8_t *owner, size_t olen,
                    uint16_t covered, uint32_t ttl, uint32_t expire)
{
	uint8_t rd[128];
	size_t n = 0;

	rd[n++] = (uint8_t)(covered >> 8);
	rd[n++] = (uint8_t)covered;
	rd[n++] = 8; /* RSASHA256 */
	rd[n++] = 2;
	put_u32(rd + n, ttl);
	put_u32(rd + n + 4, expire);
	put_u32(rd + n + 8, T0 - 1000);
	n += 12;
	rd[n++] = 0x12;
	rd[n++] = 0x34;
	memcpy(rd + n, f->zone, f->zonelen);
	n += f->zonelen;
	memset(rd + n, 0xab, 16);
	n += 16;
	ck_assert(answer_rr_append(f->img, sizeof f->img, &f->len, owner, olen,
	                           WIRE_TYPE_RRSIG, WIRE_CLASS_IN, ttl, rd,
	                           n));
}

/* The SOA of zone (TTL 3600, MINIMUM minimum) and its signature. */
static void fix_init(struct fix *f, const char *zone, uint32_t minimum)
{
	memset(f, 0, sizeof(*f));
	f->zonelen = name(zone, f->zone);
	/* MNAME and RNAME the root, five counters */
	f->soa[0] = 0;
	f->soa[1] = 0;
	memset(f->soa + 2, 0, 16);
	put_u32(f->soa + 18, minimum);
	f->soalen = 22;
	add_sig(f, f->zone, f->zonelen, WIRE_TYPE_SOA, 3600, T0 + SIG_LIFE);
}

/* A type bitmap of window 0 at out (34 bytes of room); its length. */
static size_t bitmap(uint8_t *out, const uint16_t *types, size_t ntypes)
{
	size_t i, top = 0;

	memset(out, 0, 34);
	for (i = 0; i < ntypes; i++) {
		out[2 + types[i] / 8] |= (uint8_t)(0x80 >> (types[i] % 8));
		if ((size_t)types[i] / 8 + 1 > top)
			top = types[i] / 8 + 1;
	}
	out[1] = (uint8_t)top;
	return 2 + top;
}

/* An NSEC owner -> next with types (window 0 only), signed. */
static void add_nsec_exp(struct fix *f, const char *owner, const char *next,
                         const uint16_t *types, size_t ntypes, uint32_t ttl,
                         uint32_t expire)
{
	uint8_t o[WIRE_NAME_MAX], rd[WIRE_NAME_MAX + 34];
	size_t olen = name(owner, o), nlen = name(next, rd);

	nlen += bitmap(rd + nlen, types, ntypes);
	ck_assert(answer_rr_append(f->img, sizeof f->img, &f->len, o, olen,
	                           WIRE_TYPE_NSEC, WIRE_CLASS_IN, ttl, rd,
	                           nlen));
	add_sig(f, o, olen, WIRE_TYPE_NSEC, ttl, expire);
}

static void add_nsec(struct fix *f, const char *owner, const char *next,
                     const uint16_t *types, size_t ntypes, uint32_t ttl)
{
	add_nsec_exp(f, owner, next, types, ntypes, ttl, T0 + SIG_LIFE);
}

static enum nsecidx_status fix_put(const struct fix *f, time_t now)
{
	struct nsecidx_proof p = { f->zone, f->zonelen, f->soa, f->soalen,
		                   3600,    f->img,     f->len, 0 };

	return nsecidx_put_proof(x, &p, now);
}

static const uint16_t apex_types[] = { WIRE_TYPE_NS, WIRE_TYPE_SOA,
	                               WIRE_TYPE_RRSIG, WIRE_TYPE_NSEC,
	                               WIRE_TYPE_DNSKEY };
static const uint16_t a_types[] = { WIRE_TYPE_A, WIRE_TYPE_RRSIG,
	                            WIRE_TYPE_NSEC };
static const uint16_t d_types[] = { WIRE_TYPE_A, WIRE_TYPE_TXT,
	                            WIRE_TYPE_RRSIG, WIRE_TYPE_NSEC };

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* The example. chain, fed out of order. */
static void feed_example(uint32_t nsec_ttl)
{
	struct fix f;

	fix_init(&f, "example.", 300);
	add_nsec(&f, "d.example.", "example.", d_types, N(d_types), nsec_ttl);
	add_nsec(&f, "example.", "a.example.", apex_types, N(apex_types),
	         nsec_ttl);
	add_nsec(&f, "a.example.", "d.example.", a_types, N(a_types),
	         nsec_ttl);
	ck_assert_int_eq(fix_put(&f, T0), NSECIDX_OK);
}

/* Ask; on a proof, check the image and give the owners of its NSECs
 * (in order, space separated) and the SOA TTL. */
static enum nsecidx_verdict ask(const char *qname, uint16_t qtype, time_t now,
                                char *owners, uint32_t *soa_ttl)
{
	uint8_t q[WIRE_NAME_MAX], buf[IMG_CAP];
	struct nsecidx_answer a = { buf, sizeof buf, 0, 0, 0 };
	size_t qlen = name(qname, q), pos = 0;
	enum nsecidx_verdict v = nsecidx_deny(x, q, qlen, qtype, 0, now, &a);
	struct answer_rr rr;
	uint16_t n = 0;

	owners[0] = '\0';
	while (v != NSECIDX_NONE && answer_rr_next(buf, a.len, &pos, &rr)) {
		char t[WIRE_NAME_TEXT_MAX];

		n++;
		if (n == 1) {
			ck_assert_uint_eq(rr.type, WIRE_TYPE_SOA);
			ck_assert_uint_eq(rr.ttl, a.ttl);
			*soa_ttl = rr.ttl;
		}
		if (rr.type != WIRE_TYPE_NSEC && rr.type != WIRE_TYPE_NSEC3)
			continue;
		ck_assert_int_eq(wire_name_to_text(buf + rr.owner, rr.ownerlen,
		                                   t, sizeof t, NULL),
		                 WIRE_OK);
		strcat(owners, owners[0] != '\0' ? " " : "");
		strcat(owners, t);
	}
	ck_assert_uint_eq(n, a.count);
	return v;
}

/* One question and the verdict it must get. */
struct want {
	const char *qname;
	uint16_t qtype;
	enum nsecidx_verdict v;
};

/* The questions that both chains (NSEC, NSEC3) answer alike. */
static const struct want same[] = {
	{ "a.example.", WIRE_TYPE_TXT, NSECIDX_NODATA },
	/* types the bitmap has, and the CNAME rule */
	{ "a.example.", WIRE_TYPE_A, NSECIDX_NONE },
	{ "d.example.", WIRE_TYPE_TXT, NSECIDX_NONE },
	{ "a.example.", WIRE_TYPE_CNAME, NSECIDX_NODATA },
	/* names of other zones, and DS at the apex (the parent's) */
	{ "b.example.org.", WIRE_TYPE_A, NSECIDX_NONE },
	{ "example.", WIRE_TYPE_DS, NSECIDX_NONE },
	{ "example.", WIRE_TYPE_AAAA, NSECIDX_NODATA },
	{ "x.y.example.", WIRE_TYPE_A, NSECIDX_NXDOMAIN },
};

static void expect_all(const struct want *w, size_t n)
{
	char owners[512];
	uint32_t ttl = 0;
	size_t i;

	for (i = 0; i < n; i++)
		ck_assert_msg(ask(w[i].qname, w[i].qtype, T0, owners, &ttl) ==
		                      w[i].v,
		              "%s type %u: not verdict %d", w[i].qname,
		              (unsigned)w[i].qtype, (int)w[i].v);
}

START_TEST(test_nxdomain_covering)
{
	char owners[512];
	uint32_t ttl = 0;

	feed_example(3600);
	ck_assert_uint_eq(RECORDS(), 3);
	/* b.example.: covered by a.example.; *.example. by the apex */
	ck_assert_int_eq(ask("b.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	ck_assert_str_eq(owners, "a.example. example.");
	/* SOA TTL: the least of 3600, MINIMUM 300 and the NSECs' */
	ck_assert_uint_eq(ttl, 300);
	/* below a name that exists: a.example. -> d.example. covers it */
	ck_assert_int_eq(ask("x.a.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	/* it covers *.a.example. too: the apex's record is not needed */
	ck_assert_str_eq(owners, "a.example.");
}
END_TEST

START_TEST(test_wrap)
{
	char owners[512];
	uint32_t ttl = 0;

	feed_example(3600);
	/* after the last owner: d.example. -> example. wraps */
	ck_assert_int_eq(ask("zzz.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	ck_assert_str_eq(owners, "d.example. example.");
	ck_assert_int_eq(ask("e.d.example.", WIRE_TYPE_AAAA, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
}
END_TEST

START_TEST(test_nodata_matching)
{
	char owners[512];
	uint32_t ttl = 0;

	feed_example(3600);
	ck_assert_int_eq(ask("a.example.", WIRE_TYPE_TXT, T0, owners, &ttl),
	                 NSECIDX_NODATA);
	ck_assert_str_eq(owners, "a.example.");
	expect_all(same, N(same));
}
END_TEST

/* Flushing: a name below a zone drops that zone (its records cover the
 * name), an unrelated name drops nothing, NULL drops everything. */
START_TEST(test_flush)
{
	char owners[512];
	uint32_t ttl = 0;
	uint8_t n[WIRE_NAME_MAX];
	size_t nl;

	feed_example(3600);
	ck_assert_int_eq(wire_name_from_text("other.test.", 11, n, &nl),
	                 WIRE_OK);
	ck_assert_uint_eq(nsecidx_flush(x, n, nl), 0);
	ck_assert_int_eq(ask("b.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	ck_assert_int_eq(wire_name_from_text("Sub.Example.", 12, n, &nl),
	                 WIRE_OK);
	ck_assert_uint_eq(nsecidx_flush(x, n, nl), 1);
	ck_assert_int_eq(ask("b.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NONE);
	ck_assert_uint_eq(RECORDS(), 0);
	feed_example(3600);
	ck_assert_uint_eq(nsecidx_flush(x, NULL, 0), 1);
	ck_assert_int_eq(ask("b.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NONE);
	ck_assert_uint_eq(nsecidx_flush(NULL, NULL, 0), 0);
}
END_TEST

START_TEST(test_delegation)
{
	static const uint16_t cut[] = { WIRE_TYPE_NS, WIRE_TYPE_RRSIG,
		                        WIRE_TYPE_NSEC };
	char owners[512];
	uint32_t ttl = 0;
	struct fix f;

	fix_init(&f, "example.", 300);
	add_nsec(&f, "example.", "sub.example.", apex_types, N(apex_types),
	         3600);
	add_nsec(&f, "sub.example.", "example.", cut, N(cut), 3600);
	ck_assert_int_eq(fix_put(&f, T0), NSECIDX_OK);
	/* nothing below a zone cut is proven by the parent's NSEC */
	ck_assert_int_eq(ask("x.sub.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NONE);
	/* the unsigned delegation: no DS; asked of the parent even when
	 * the child's own records are known */
	fix_init(&f, "sub.example.", 300);
	add_nsec(&f, "sub.example.", "sub.example.", apex_types, N(apex_types),
	         3600);
	ck_assert_int_eq(fix_put(&f, T0), NSECIDX_OK);
	ck_assert_int_eq(ask("sub.example.", WIRE_TYPE_DS, T0, owners, &ttl),
	                 NSECIDX_NODATA);
	ck_assert_int_eq(ask("x.sub.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	ck_assert_int_eq(ask("zz.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
}
END_TEST

/* The NSEC3 owner of name in zone example. (hash into h). */
static size_t n3_owner(const char *text, uint8_t h[DNSSEC_NSEC3_HASH_BYTES],
                       uint8_t out[WIRE_NAME_MAX])
{
	static const uint8_t salt[] = { 0x5c, 0xa1, 0xab, 0x1e };
	uint8_t n[WIRE_NAME_MAX];
	size_t len = name(text, n), tlen = 0;

	ck_assert_int_eq(dnssec_nsec3_hash(DNSSEC_NSEC3_HASH_SHA1, 1,
	                                   DNSSEC_NSEC3_ITERATIONS_MAX, salt,
	                                   sizeof salt, n, len, h),
	                 DNSSEC_OK);
	ck_assert_int_eq(dnssec_b32hex_encode((char *)out + 1,
	                                      DNSSEC_NSEC3_LABEL_LEN, &tlen, h,
	                                      DNSSEC_NSEC3_HASH_BYTES),
	                 DNSSEC_OK);
	out[0] = (uint8_t)tlen;
	return 1 + tlen + name("example.", out + 1 + tlen);
}

/* Space-separated words of s. */
static size_t words(const char *s)
{
	size_t n = s[0] != '\0';

	for (; *s != '\0'; s++)
		n += *s == ' ';
	return n;
}

/** Names of the NSEC3 example. (the apex, d with TXT, the rest A). */
#define N3_NAMES 12

/* The example. chain in NSEC3 (flags: 1 opt-out), signed. */
static void feed_example_n3(uint8_t flags)
{
	static const char *const names[N3_NAMES] = {
		"example.",    "d.example.",  "a.example.",  "m1.example.",
		"m2.example.", "m3.example.", "m4.example.", "m5.example.",
		"m6.example.", "m7.example.", "m8.example.", "m9.example."
	};
	uint8_t h[N3_NAMES][DNSSEC_NSEC3_HASH_BYTES];
	uint8_t o[N3_NAMES][WIRE_NAME_MAX];
	size_t olen[N3_NAMES], i, j;
	struct fix f;

	fix_init(&f, "example.", 300);
	for (i = 0; i < N3_NAMES; i++)
		olen[i] = n3_owner(names[i], h[i], o[i]);
	for (i = 0; i < N3_NAMES; i++) {
		const uint16_t *types = i == 0 ? apex_types :
		                        i == 1 ? d_types :
		                                 a_types;
		size_t ntypes = i == 0 ? N(apex_types) :
		                i == 1 ? N(d_types) :
		                         N(a_types);
		/* the next hash: the least one above h[i], else the least */
		size_t next = i, n = 0;
		uint8_t rd[64];

		for (j = 0; j < N3_NAMES; j++)
			if (memcmp(h[j], h[i], sizeof h[i]) > 0 &&
			    (next == i ||
			     memcmp(h[j], h[next], sizeof h[j]) < 0))
				next = j;
		for (j = 0; next == i && j < N3_NAMES; j++)
			if (memcmp(h[j], h[next], sizeof h[j]) < 0)
				next = j;
		rd[n++] = DNSSEC_NSEC3_HASH_SHA1;
		rd[n++] = flags;
		rd[n++] = 0;
		rd[n++] = 1;
		rd[n++] = 4;
		memcpy(rd + n, "\x5c\xa1\xab\x1e", 4);
		n += 4;
		rd[n++] = DNSSEC_NSEC3_HASH_BYTES;
		memcpy(rd + n, h[next], DNSSEC_NSEC3_HASH_BYTES);
		n += DNSSEC_NSEC3_HASH_BYTES;
		n += bitmap(rd + n, types, ntypes);
		ck_assert(answer_rr_append(f.img, sizeof f.img, &f.len, o[i],
		                           olen[i], WIRE_TYPE_NSEC3,
		                           WIRE_CLASS_IN, 3600, rd, n));
		add_sig(&f, o[i], olen[i], WIRE_TYPE_NSEC3, 3600,
		        T0 + SIG_LIFE);
	}
	ck_assert_int_eq(fix_put(&f, T0), NSECIDX_OK);
}

START_TEST(test_nsec3)
{
	char owners[512];
	uint32_t ttl = 0;

	feed_example_n3(0);
	ck_assert_uint_eq(RECORDS(), N3_NAMES);
	ck_assert_int_eq(ask("b.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	/* the closest encloser, the next closer and the wildcard: at most
	 * three records (two when one covers both) */
	ck_assert_uint_ge(words(owners), 2);
	ck_assert_uint_le(words(owners), 3);
	expect_all(same, N(same));
}
END_TEST

/* NSEC3 candidates come in two steps: those of qname, its parent and
 * the parent's wildcard, then all (a name error one level below a name
 * of the zone, then two; a no data at qname); a name 120 labels deep
 * (its zone searched past the suffixes longer than any zone) is not
 * proven from candidates 8 levels up at most. */
START_TEST(test_nsec3_steps)
{
	char owners[512], deep[WIRE_NAME_TEXT_MAX] = "";
	uint32_t ttl = 0;
	int i;

	feed_example_n3(0);
	ck_assert_int_eq(ask("b.a.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	ck_assert_uint_le(words(owners), 3);
	ck_assert_int_eq(ask("b.c.a.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	ck_assert_uint_ge(words(owners), 2);
	ck_assert_uint_le(words(owners), 3);
	ck_assert_int_eq(ask("m1.example.", WIRE_TYPE_TXT, T0, owners, &ttl),
	                 NSECIDX_NODATA);
	ck_assert_uint_eq(words(owners), 1);
	for (i = 0; i < 120; i++)
		strcat(deep, "x.");
	strcat(deep, "example.");
	ck_assert_int_eq(ask(deep, WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NONE);
	expect_all(same, N(same));
}
END_TEST

START_TEST(test_nsec3_optout)
{
	char owners[512];
	uint32_t ttl = 0;

	/* an opt-out span proves only an insecure answer: not from here */
	feed_example_n3(1);
	ck_assert_int_eq(ask("b.example.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NONE);
	ck_assert_int_eq(ask("a.example.", WIRE_TYPE_TXT, T0, owners, &ttl),
	                 NSECIDX_NODATA);
}
END_TEST

START_TEST(test_expiry)
{
	char owners[512];
	uint32_t ttl = 0;
	struct fix f;

	feed_example(200);
	ck_assert_int_eq(ask("b.example.", WIRE_TYPE_A, T0 + 150, owners,
	                     &ttl),
	                 NSECIDX_NXDOMAIN);
	ck_assert_uint_eq(ttl, 50);
	ck_assert_int_eq(ask("b.example.", WIRE_TYPE_A, T0 + 200, owners,
	                     &ttl),
	                 NSECIDX_NONE);
	ck_assert_uint_lt(RECORDS(), 3);
	/* a signature that expires first bounds the record */
	fix_init(&f, "example.", 300);
	add_nsec_exp(&f, "a.example.", "d.example.", a_types, N(a_types), 3600,
	             T0 + 10);
	add_nsec(&f, "example.", "a.example.", apex_types, N(apex_types),
	         3600);
	ck_assert_int_eq(fix_put(&f, T0), NSECIDX_OK);
	ck_assert_int_eq(ask("b.example.", WIRE_TYPE_A, T0 + 9, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	ck_assert_uint_eq(ttl, 1);
	ck_assert_int_eq(ask("b.example.", WIRE_TYPE_A, T0 + 10, owners, &ttl),
	                 NSECIDX_NONE);
	/* expired signatures are not taken at all */
	ck_assert_int_eq(fix_put(&f, T0 + SIG_LIFE), NSECIDX_EINVAL);
}
END_TEST

START_TEST(test_reject)
{
	struct fix f;
	struct nsecidx_proof p;

	/* no NSEC, or an NSEC without a signature, or outside the zone */
	fix_init(&f, "example.", 300);
	ck_assert_int_eq(fix_put(&f, T0), NSECIDX_EINVAL);
	add_nsec(&f, "a.example.org.", "b.example.org.", a_types, N(a_types),
	         3600);
	ck_assert_int_eq(fix_put(&f, T0), NSECIDX_EINVAL);
	ck_assert_uint_eq(ZONES(), 0);
	memset(&p, 0, sizeof p);
	ck_assert_int_eq(nsecidx_put_proof(x, &p, T0), NSECIDX_EINVAL);
	ck_assert_int_eq(nsecidx_put_proof(NULL, &p, T0), NSECIDX_EINVAL);
}
END_TEST

/* zN.test. with two NSEC records, fed at now. */
static enum nsecidx_status feed_zone(unsigned n, time_t now)
{
	char zone[32], apex[32], next[32];
	struct fix f;

	snprintf(zone, sizeof zone, "z%u.test.", n);
	snprintf(apex, sizeof apex, "z%u.test.", n);
	snprintf(next, sizeof next, "m.z%u.test.", n);
	fix_init(&f, zone, 300);
	add_nsec(&f, apex, next, apex_types, N(apex_types), 3600);
	add_nsec(&f, next, apex, a_types, N(a_types), 3600);
	return fix_put(&f, now);
}

START_TEST(test_bound)
{
	char owners[512], q[32];
	uint32_t ttl = 0;
	unsigned i;

	nsecidx_free(x);
	ck_assert_int_eq(nsecidx_new(16384, &x), NSECIDX_OK);
	for (i = 0; i < 200; i++) {
		ck_assert_int_eq(feed_zone(i, T0), NSECIDX_OK);
		ck_assert_uint_le(BYTES(), 16384);
	}
	ck_assert_uint_lt(ZONES(), 200);
	ck_assert_uint_gt(ZONES(), 10);
	/* the oldest zones went first; the newest are there */
	ck_assert_int_eq(ask("b.z0.test.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NONE);
	ck_assert_int_eq(ask("b.z199.test.", WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	/* a zone fed again is the newest: it outlives the ones after it */
	i = 200 - (unsigned)ZONES();
	ck_assert_int_eq(feed_zone(i, T0), NSECIDX_OK);
	ck_assert_int_eq(feed_zone(500, T0), NSECIDX_OK);
	snprintf(q, sizeof q, "b.z%u.test.", i);
	ck_assert_int_eq(ask(q, WIRE_TYPE_A, T0, owners, &ttl),
	                 NSECIDX_NXDOMAIN);
	snprintf(q, sizeof q, "b.z%u.test.", i + 1);
	ck_assert_int_eq(ask(q, WIRE_TYPE_A, T0, owners, &ttl), NSECIDX_NONE);
	/* a proof larger than the bound is refused, nothing overflows */
	nsecidx_free(x);
	ck_assert_int_eq(nsecidx_new(256, &x), NSECIDX_OK);
	ck_assert_int_eq(feed_zone(1, T0), NSECIDX_ENOMEM);
	ck_assert_uint_le(BYTES(), 256);
	ck_assert_uint_eq(ZONES(), 0);
}
END_TEST

/* Feed a wildcard answer's proof (no SOA) of zone example. */
static enum nsecidx_status fix_put_nsecs(const struct fix *f, time_t now)
{
	return nsecidx_put_nsecs(x, f->zone, f->zonelen, f->img, f->len, 0,
	                         now);
}

/* nsecidx_wild for qname: the wildcard (text) and its labels, the TTL;
 * the image holds the one NSEC and its RRSIG. */
static bool wild(const char *qname, time_t now, char *wc, unsigned *labels,
                 uint32_t *ttl)
{
	uint8_t q[WIRE_NAME_MAX], buf[IMG_CAP];
	struct nsecidx_answer a = { buf, sizeof buf, 0, 0, 0 };
	struct nsecidx_wild w;
	size_t qlen = name(qname, q), pos = 0;
	struct answer_rr rr;

	wc[0] = '\0';
	if (!nsecidx_wild(x, q, qlen, 0, now, &w, &a)) {
		ck_assert_uint_eq(a.len, 0);
		return false;
	}
	ck_assert_int_eq(wire_name_to_text(w.wc, w.wclen, wc,
	                                   WIRE_NAME_TEXT_MAX, NULL),
	                 WIRE_OK);
	ck_assert(wire_name_equal(w.zone, w.zonelen,
	                          (const uint8_t *)"\7example", 9));
	*labels = w.labels;
	*ttl = a.ttl;
	ck_assert_uint_eq(a.count, 2);
	ck_assert(answer_rr_next(buf, a.len, &pos, &rr));
	ck_assert_uint_eq(rr.type, WIRE_TYPE_NSEC);
	ck_assert_uint_eq(rr.ttl, a.ttl);
	ck_assert(answer_rr_next(buf, a.len, &pos, &rr));
	ck_assert_uint_eq(rr.type, WIRE_TYPE_RRSIG);
	return true;
}

/* example.: *.w.example. -> x.example. (the proof of an expansion),
 * m.example. -> a.n.example. (n.example. an empty non-terminal) and the
 * delegation sub.example. -> *.w.example. */
static void feed_wild(uint32_t ttl)
{
	static const uint16_t cut[] = { WIRE_TYPE_NS, WIRE_TYPE_RRSIG,
		                        WIRE_TYPE_NSEC };
	struct fix f;

	fix_init(&f, "example.", 300);
	f.len = 0; /* no SOA, no signature over it */
	add_nsec(&f, "*.w.example.", "x.example.", a_types, N(a_types), ttl);
	add_nsec(&f, "m.example.", "a.n.example.", a_types, N(a_types), ttl);
	add_nsec(&f, "sub.example.", "*.w.example.", cut, N(cut), ttl);
	ck_assert_int_eq(fix_put_nsecs(&f, T0), NSECIDX_OK);
}

/* The closest encloser an NSEC shows, and the names it proves nothing
 * about: itself, names it does not cover, empty non-terminals, names
 * below a zone cut, the wildcard itself. */
START_TEST(test_wild_encloser)
{
	char wc[WIRE_NAME_TEXT_MAX], owners[512];
	unsigned labels = 0;
	uint32_t ttl = 0;

	feed_wild(3600);
	ck_assert_uint_eq(ZONES(), 1);
	ck_assert(wild("b.w.example.", T0, wc, &labels, &ttl));
	ck_assert_str_eq(wc, "*.w.example.");
	ck_assert_uint_eq(labels, 2);
	ck_assert_uint_eq(ttl, 3600);
	/* two labels below the encloser: c.b.w.example. and b.w.example.
	 * are both covered */
	ck_assert(wild("c.b.w.example.", T0, wc, &labels, &ttl));
	ck_assert_str_eq(wc, "*.w.example.");
	ck_assert_uint_eq(labels, 2);
	/* below the empty non-terminal n.example.: its wildcard */
	ck_assert(wild("0.n.example.", T0, wc, &labels, &ttl));
	ck_assert_str_eq(wc, "*.n.example.");
	/* the encloser may be the apex */
	ck_assert(wild("mm.example.", T0, wc, &labels, &ttl));
	ck_assert_str_eq(wc, "*.example.");
	ck_assert_uint_eq(labels, 1);
	ck_assert(!wild("n.example.", T0, wc, &labels, &ttl));
	ck_assert(!wild("m.example.", T0, wc, &labels, &ttl));
	ck_assert(!wild("*.w.example.", T0, wc, &labels, &ttl));
	ck_assert(!wild("x.sub.example.", T0, wc, &labels, &ttl));
	ck_assert(!wild("b.example.", T0, wc, &labels, &ttl));
	ck_assert(!wild("b.w.example.org.", T0, wc, &labels, &ttl));
	/* without a SOA the zone gives no negative answer */
	ck_assert_int_eq(ask("b.w.example.", WIRE_TYPE_TXT, T0, owners, &ttl),
	                 NSECIDX_NONE);
}
END_TEST

/* The TTL: the NSEC's left, lowered to the SOA's MINIMUM once a negative
 * answer gave the SOA (RFC 8198 section 5.4); none once it expired. */
START_TEST(test_wild_ttl)
{
	char wc[WIRE_NAME_TEXT_MAX], owners[512];
	unsigned labels = 0;
	uint32_t ttl = 0;

	feed_wild(1000);
	ck_assert(wild("b.w.example.", T0 + 400, wc, &labels, &ttl));
	ck_assert_uint_eq(ttl, 600);
	feed_example(3600);
	ck_assert(wild("b.w.example.", T0 + 400, wc, &labels, &ttl));
	ck_assert_uint_eq(ttl, 300);
	/* the zone now answers negatively from all its records */
	ck_assert_int_eq(ask("b.w.example.", WIRE_TYPE_TXT, T0, owners, &ttl),
	                 NSECIDX_NODATA);
	ck_assert_str_eq(owners, "*.w.example.");
	/* *.w.example.'s NSEC expired: d.example. -> example. covers the
	 * name now, and shows the apex as its closest encloser */
	ck_assert(wild("b.w.example.", T0 + 1000, wc, &labels, &ttl));
	ck_assert_str_eq(wc, "*.example.");
	ck_assert(!wild("b.w.example.", T0 + 3600, wc, &labels, &ttl));
}
END_TEST

/* NSEC3 zones are not used; a proof without NSEC is refused. */
START_TEST(test_wild_reject)
{
	char wc[WIRE_NAME_TEXT_MAX];
	unsigned labels = 0;
	uint32_t ttl = 0;
	struct fix f;

	fix_init(&f, "example.", 300);
	ck_assert_int_eq(fix_put_nsecs(&f, T0), NSECIDX_EINVAL);
	ck_assert_uint_eq(ZONES(), 0);
	ck_assert_int_eq(nsecidx_put_nsecs(NULL, f.zone, f.zonelen, f.img,
	                                   f.len, 0, T0),
	                 NSECIDX_EINVAL);
	feed_example_n3(0);
	ck_assert(!wild("b.example.", T0, wc, &labels, &ttl));
	ck_assert(!wild("x.d.example.", T0, wc, &labels, &ttl));
}
END_TEST

/* Feed and ask the same zones as the other thread (id: its offset). */
static void *worker_run(void *arg)
{
	unsigned id = *(const unsigned *)arg, i;
	uint8_t q[WIRE_NAME_MAX], buf[IMG_CAP];

	for (i = 0; i < 400; i++) {
		struct nsecidx_answer a = { buf, sizeof buf, 0, 0, 0 };
		unsigned n = (i + id * 7) % 40;
		char text[32];
		size_t qlen;

		snprintf(text, sizeof text, "b.z%u.test.", (n + 3) % 40);
		qlen = name(text, q);
		if (feed_zone(n, T0 + i) != NSECIDX_OK)
			return arg;
		(void)nsecidx_deny(x, q, qlen, WIRE_TYPE_A, 0, T0 + i, &a);
	}
	return NULL;
}

START_TEST(test_threads)
{
	pthread_t t[2];
	unsigned id[2] = { 1, 2 };
	void *ret;
	size_t i;

	nsecidx_free(x);
	ck_assert_int_eq(nsecidx_new(32768, &x), NSECIDX_OK);
	ck_assert_int_eq(feed_zone(1, T0), NSECIDX_OK);
	for (i = 0; i < 2; i++)
		ck_assert_int_eq(pthread_create(&t[i], NULL, worker_run,
		                                &id[i]),
		                 0);
	for (i = 0; i < 2; i++) {
		ck_assert_int_eq(pthread_join(t[i], &ret), 0);
		ck_assert_ptr_null(ret);
	}
	ck_assert_uint_le(BYTES(), 32768);
}
END_TEST

static Suite *nsecidx_suite(void)
{
	Suite *s = suite_create("nsecidx");
	TCase *tc = tcase_create("proofs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_nxdomain_covering);
	tcase_add_test(tc, test_wrap);
	tcase_add_test(tc, test_nodata_matching);
	tcase_add_test(tc, test_flush);
	tcase_add_test(tc, test_delegation);
	tcase_add_test(tc, test_nsec3);
	tcase_add_test(tc, test_nsec3_steps);
	suite_add_tcase(s, tc);
	tc = tcase_create("wildcard");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_wild_encloser);
	tcase_add_test(tc, test_wild_ttl);
	tcase_add_test(tc, test_wild_reject);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_expiry);
	tcase_add_test(tc, test_reject);
	tcase_add_test(tc, test_nsec3_optout);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_bound);
	suite_add_tcase(s, tc);
	tc = tcase_create("threads");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_threads);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(nsecidx_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
