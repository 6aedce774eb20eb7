/*
 * tests/unit/check_denial.c - Suite "denial": the proofs of
 * non-existence of resolver/validate/denial.h against the RFC examples:
 * the canonical order of RFC 4034 section 6.1, the bitmap of section
 * 4.3, the NSEC responses of RFC 4035 Appendix B and the NSEC3 responses
 * of RFC 5155 Appendix B, with the hashes each proof takes. The
 * rejections are in check_denial_reject.c; the helpers here build the
 * records from the RFCs' presentation text.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "denial_test.h"
#include "dnssec_test.h"

const struct n3par rfc5155 = { 1, 1, 12, "aabbccdd" };

/* RFC 5155 Appendix A: the NSEC3 chain (owner hash, next hash, types). */
static const char *const chain5155[][3] = {
	{ "0p9mhaveqvm6t7vbl5lop2u3t2rp3tom",
	  "2t7b4g4vsa5smi47k61mv5bv1a22bojr",
	  "MX DNSKEY NS SOA NSEC3PARAM RRSIG" },
	{ "2t7b4g4vsa5smi47k61mv5bv1a22bojr",
	  "2vptu5timamqttgl4luu9kg21e0aor3s", "A RRSIG" },
	{ "2vptu5timamqttgl4luu9kg21e0aor3s",
	  "35mthgpgcu1qg68fab165klnsnk3dpvl", "MX RRSIG" },
	{ "35mthgpgcu1qg68fab165klnsnk3dpvl",
	  "b4um86eghhds6nea196smvmlo4ors995", "NS DS RRSIG" },
	{ "b4um86eghhds6nea196smvmlo4ors995",
	  "gjeqe526plbf1g8mklp59enfd789njgi", "MX RRSIG" },
	{ "gjeqe526plbf1g8mklp59enfd789njgi",
	  "ji6neoaepv8b5o6k4ev33abha8ht9fgc", "A HINFO AAAA RRSIG" },
	{ "ji6neoaepv8b5o6k4ev33abha8ht9fgc",
	  "k8udemvp1j2f7eg6jebps17vp3n8i58h", "" },
	{ "k8udemvp1j2f7eg6jebps17vp3n8i58h",
	  "kohar7mbb8dc2ce8a9qvl8hon4k53uhi", "" },
	{ "kohar7mbb8dc2ce8a9qvl8hon4k53uhi",
	  "q04jkcevqvmu85r014c7dkba38o0ji5r", "A RRSIG" },
	{ "q04jkcevqvmu85r014c7dkba38o0ji5r",
	  "r53bq7cc2uvmubfu5ocmm6pers9tk9en", "A RRSIG" },
	{ "r53bq7cc2uvmubfu5ocmm6pers9tk9en",
	  "t644ebqk9bibcna874givr6joj62mlhv", "MX RRSIG" },
	{ "t644ebqk9bibcna874givr6joj62mlhv",
	  "0p9mhaveqvm6t7vbl5lop2u3t2rp3tom", "A HINFO AAAA RRSIG" },
};

/* RFC 4035 Appendix A: the NSEC chain (owner, next, types). */
static const char *const chain4035[][3] = {
	{ "example", "a.example", "NS SOA MX RRSIG NSEC DNSKEY" },
	{ "a.example", "ai.example", "NS DS RRSIG NSEC" },
	{ "ai.example", "b.example", "A HINFO AAAA RRSIG NSEC" },
	{ "b.example", "ns1.example", "NS RRSIG NSEC" },
	{ "ns1.example", "ns2.example", "A RRSIG NSEC" },
	{ "ns2.example", "*.w.example", "A RRSIG NSEC" },
	{ "*.w.example", "x.w.example", "MX RRSIG NSEC" },
	{ "x.w.example", "x.y.w.example", "MX RRSIG NSEC" },
	{ "x.y.w.example", "xx.example", "MX RRSIG NSEC" },
	{ "xx.example", "example", "A HINFO AAAA RRSIG NSEC" },
};

static const struct {
	const char *name;
	unsigned type;
} mnemonics[] = {
	{ "A", 1 },      { "NS", 2 },          { "CNAME", 5 },
	{ "SOA", 6 },    { "HINFO", 13 },      { "MX", 15 },
	{ "AAAA", 28 },  { "DNAME", 39 },      { "DS", 43 },
	{ "RRSIG", 46 }, { "NSEC", 47 },       { "DNSKEY", 48 },
	{ "NSEC3", 50 }, { "NSEC3PARAM", 51 }, { "TYPE1234", 1234 },
};

static unsigned mnemonic(const char *m, size_t n)
{
	size_t i;

	for (i = 0; i < sizeof mnemonics / sizeof mnemonics[0]; i++)
		if (strlen(mnemonics[i].name) == n &&
		    memcmp(mnemonics[i].name, m, n) == 0)
			return mnemonics[i].type;
	ck_abort_msg("unknown type %.*s", (int)n, m);
	return 0;
}

/* A type bitmap (RFC 4034 section 4.1.2) from mnemonics. */
size_t bitmap(uint8_t *out, const char *types)
{
	static uint8_t win[256][32];
	const char *p = types;
	size_t n, len = 0;
	unsigned t, w, last;

	memset(win, 0, sizeof win);
	while (*p != '\0') {
		n = strcspn(p, " ");
		if (n > 0) {
			t = mnemonic(p, n);
			win[t >> 8][(t & 0xffu) >> 3] |= (uint8_t)(0x80u >>
			                                           (t & 7u));
		}
		p += n + (p[n] == ' ');
	}
	for (w = 0; w < 256; w++) {
		for (last = 32; last > 0 && win[w][last - 1] == 0; last--)
			;
		if (last == 0)
			continue;
		out[len++] = (uint8_t)w;
		out[len++] = (uint8_t)last;
		memcpy(out + len, win[w], last);
		len += last;
	}
	return len;
}

void set_init(struct set *s, const char *zone)
{
	memset(s, 0, sizeof *s);
	ck_assert_uint_lt(strlen(zone), sizeof s->zonetext);
	strcpy(s->zonetext, zone);
	s->d.zonelen = tname(zone, s->zone);
	s->d.zone = s->zone;
	s->d.rr = s->n;
	s->d.max_iterations = DNSSEC_NSEC3_ITERATIONS_MAX;
	s->hashes = SET_HASHES;
	s->d.hashes = &s->hashes;
}

static struct rec *add(struct set *s, const char *owner, unsigned type,
                       size_t rdlen)
{
	size_t i = s->d.count++;

	ck_assert_uint_lt(i, SET_MAX);
	s->n[i].owner = s->r[i].owner;
	s->n[i].ownerlen = tname(owner, s->r[i].owner);
	s->n[i].type = (uint16_t)type;
	s->n[i].rdata = s->r[i].rd;
	s->n[i].rdlen = rdlen;
	return &s->r[i];
}

void add_nsec(struct set *s, const char *owner, const char *next,
              const char *types)
{
	uint8_t rd[600];
	size_t len = tname(next, rd);

	len += bitmap(rd + len, types);
	memcpy(add(s, owner, DNSSEC_TYPE_NSEC, len)->rd, rd, len);
}

void add_nsec3(struct set *s, const struct n3par *p, const char *hash,
               const char *next, const char *types)
{
	char owner[2 * WIRE_NAME_MAX];
	uint8_t rd[600];
	size_t len = 5, n = 0;

	rd[0] = (uint8_t)p->alg;
	rd[1] = (uint8_t)p->flags;
	put16(rd + 2, p->iter);
	rd[4] = (uint8_t)hex(p->salt, rd + 5);
	len += rd[4];
	ck_assert_int_eq(dnssec_b32hex_decode(rd + len + 1, 255, &n, next,
	                                      strlen(next)),
	                 DNSSEC_OK);
	rd[len] = (uint8_t)n;
	len += 1 + n;
	len += bitmap(rd + len, types);
	snprintf(owner, sizeof owner, "%s.%s", hash, s->zonetext);
	memcpy(add(s, owner, DNSSEC_TYPE_NSEC3, len)->rd, rd, len);
}

void add_rfc5155(struct set *s, const char *key, unsigned flags)
{
	struct n3par p = rfc5155;
	size_t i;

	p.flags = flags;
	for (i = 0; i < sizeof chain5155 / sizeof chain5155[0]; i++)
		if (strncmp(chain5155[i][0], key, strlen(key)) == 0) {
			add_nsec3(s, &p, chain5155[i][0], chain5155[i][1],
			          chain5155[i][2]);
			return;
		}
	ck_abort_msg("no record %s", key);
}

void add_rfc4035(struct set *s, const char *owner)
{
	size_t i;

	for (i = 0; i < sizeof chain4035 / sizeof chain4035[0]; i++)
		if (strcmp(chain4035[i][0], owner) == 0) {
			add_nsec(s, owner, chain4035[i][1], chain4035[i][2]);
			return;
		}
	ck_abort_msg("no record %s", owner);
}

unsigned taken(const struct set *s)
{
	return SET_HASHES - s->hashes;
}

int deny_name(struct set *s, const char *qname)
{
	uint8_t q[WIRE_NAME_MAX];
	size_t ql = tname(qname, q);

	return dnssec_deny_name(&s->d, q, ql);
}

int deny_type(struct set *s, const char *qname, uint16_t qtype)
{
	uint8_t q[WIRE_NAME_MAX];
	size_t ql = tname(qname, q);

	return dnssec_deny_type(&s->d, q, ql, qtype);
}

int deny_expanded(struct set *s, const char *qname, unsigned labels)
{
	uint8_t q[WIRE_NAME_MAX];
	size_t ql = tname(qname, q);

	return dnssec_deny_expanded(&s->d, q, ql, labels);
}

/* RFC 4034 section 6.1: the example names in canonical order. */
START_TEST(test_name_order)
{
	static const char *const v[] = {
		"example",         "a.example",      "yljkjljk.a.example",
		"Z.a.example",     "zABC.a.EXAMPLE", "z.example",
		"\\001.z.example", "*.z.example",    "\\200.z.example",
	};
	uint8_t a[WIRE_NAME_MAX], b[WIRE_NAME_MAX];
	size_t i, j, al, bl;
	int c;

	for (i = 0; i < sizeof v / sizeof v[0]; i++) {
		al = tname(v[i], a);
		for (j = 0; j < sizeof v / sizeof v[0]; j++) {
			bl = tname(v[j], b);
			c = dnssec_name_cmp(a, al, b, bl);
			ck_assert_msg(i < j ? c < 0 :
			              i > j ? c > 0 :
			                      c == 0,
			              "%s vs %s: %d", v[i], v[j], c);
		}
	}
	/* Case is folded; the root sorts first. */
	al = tname("Z.A.example", a);
	bl = tname("z.a.EXAMPLE", b);
	ck_assert_int_eq(dnssec_name_cmp(a, al, b, bl), 0);
	bl = tname(".", b);
	ck_assert_int_gt(dnssec_name_cmp(a, al, b, bl), 0);
	ck_assert_int_lt(dnssec_name_cmp(b, bl, a, al), 0);
	/* Not wire names: the bytes, never past their lengths. */
	ck_assert_int_lt(dnssec_name_cmp(a, 3, a, 4), 0);
	ck_assert_int_gt(dnssec_name_cmp(a, 4, a, 3), 0);
	ck_assert_int_eq(dnssec_name_cmp(a, 3, a, 3), 0);
	ck_assert_int_eq(dnssec_name_cmp(NULL, 0, NULL, 0), 0);
}
END_TEST

/* RFC 4034 section 4.3: "A MX RRSIG NSEC TYPE1234", byte for byte. */
START_TEST(test_bitmap_rfc4034)
{
	static const uint8_t want[] = {
		0x00, 0x06, 0x40, 0x01, 0x00, 0x00, 0x00, 0x03, 0x04, 0x1b,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x20,
	};
	static const unsigned set[] = { 1, 15, 46, 47, 1234 };
	static const unsigned clear[] = { 0,   2,   5,    14,   16,   45,   48,
		                          255, 256, 1233, 1235, 1279, 65535 };
	uint8_t bm[64];
	size_t i;

	ck_assert_uint_eq(bitmap(bm, "A MX RRSIG NSEC TYPE1234"), sizeof want);
	ck_assert_mem_eq(bm, want, sizeof want);
	for (i = 0; i < sizeof set / sizeof set[0]; i++)
		ck_assert_int_eq(dnssec_bitmap_has(want, sizeof want,
		                                   (uint16_t)set[i]),
		                 1);
	for (i = 0; i < sizeof clear / sizeof clear[0]; i++)
		ck_assert_int_eq(dnssec_bitmap_has(want, sizeof want,
		                                   (uint16_t)clear[i]),
		                 0);
	ck_assert_int_eq(dnssec_bitmap_has(NULL, 0, 1), 0);
}
END_TEST

/* RFC 4035 Appendix B, with the records each response carries. */
START_TEST(test_nsec_rfc4035)
{
	struct set s;

	/* B.2: ml.example does not exist, nor *.example. */
	set_init(&s, "example");
	add_rfc4035(&s, "b.example");
	add_rfc4035(&s, "example");
	ck_assert_int_eq(deny_name(&s, "ml.example"), DNSSEC_OK);
	ck_assert_int_eq(deny_name(&s, "ML.Example"), DNSSEC_OK);
	/* B.3: ns1.example has no MX. */
	set_init(&s, "example");
	add_rfc4035(&s, "ns1.example");
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_OK);
	/* B.5: the unsigned delegation b.example has no DS. */
	set_init(&s, "example");
	add_rfc4035(&s, "b.example");
	ck_assert_int_eq(deny_type(&s, "b.example", WIRE_TYPE_DS), DNSSEC_OK);
	/* B.6: a.z.w.example MX from *.w.example (labels 2). */
	set_init(&s, "example");
	add_rfc4035(&s, "x.y.w.example");
	ck_assert_int_eq(deny_expanded(&s, "a.z.w.example", 2), DNSSEC_OK);
	/* B.7: and it has no AAAA, nor has the wildcard. */
	add_rfc4035(&s, "*.w.example");
	ck_assert_int_eq(deny_type(&s, "a.z.w.example", 28), DNSSEC_OK);
	/* y.w.example is an empty non-terminal: x.w.example's next name is
	 * below it. */
	set_init(&s, "example");
	add_rfc4035(&s, "x.w.example");
	ck_assert_int_eq(deny_type(&s, "y.w.example", 1), DNSSEC_OK);
	/* The last NSEC wraps to the apex: zz.example does not exist. */
	set_init(&s, "example");
	add_rfc4035(&s, "xx.example");
	add_rfc4035(&s, "example");
	ck_assert_int_eq(deny_name(&s, "zz.example"), DNSSEC_OK);
	ck_assert_int_eq(taken(&s), 0);
}
END_TEST

/* The wildcard's own RRset is no expansion: nothing to deny. */
START_TEST(test_nsec_wildcard_owner)
{
	struct set s;

	set_init(&s, "example");
	ck_assert_int_eq(deny_expanded(&s, "*.w.example", 2), DNSSEC_OK);
	ck_assert_int_eq(deny_expanded(&s, "a.w.example", 2), DNSSEC_ENOPROOF);
}
END_TEST

/* RFC 5155 Appendix B: the records of each response, as the RFC gives
 * them (every one opt-out) and with the flags cleared, and the hashes
 * each proof takes. */
enum proof { P_NAME, P_TYPE, P_EXPANDED };

static const struct {
	const char *what;
	enum proof kind;
	const char *qname;
	unsigned arg; /* qtype, or the RRSIG labels */
	const char *keys;
	int rc1, rc0; /* with opt-out, without */
	unsigned hashes1, hashes0;
} b5155[] = {
	{ "B.1", P_NAME, "a.c.x.w.example", 0, "0p9m b4um 35mt",
	  DNSSEC_EOPTOUT, DNSSEC_OK, 6, 6 },
	{ "B.2", P_TYPE, "ns1.example", 15, "2t7b", DNSSEC_OK, DNSSEC_OK, 1,
	  1 },
	{ "B.2.1", P_TYPE, "y.w.example", 1, "ji6n", DNSSEC_OK, DNSSEC_OK, 1,
	  1 },
	{ "B.3", P_TYPE, "c.example", WIRE_TYPE_DS, "0p9m 35mt",
	  DNSSEC_EOPTOUT, DNSSEC_ENOPROOF, 2, 3 },
	{ "B.4", P_EXPANDED, "a.z.w.example", 2, "q04j", DNSSEC_EOPTOUT,
	  DNSSEC_OK, 1, 1 },
	{ "B.5", P_TYPE, "a.z.w.example", 28, "k8ud q04j r53b", DNSSEC_EOPTOUT,
	  DNSSEC_OK, 4, 5 },
	/* Not in the RFC: f.example hashes past t644, so the last record
	 * (t644 -> 0p9m) covers it; *.example is covered by gjeq -> ji6n. */
	{ "wrap", P_NAME, "f.example", 0, "0p9m t644 gjeq", DNSSEC_EOPTOUT,
	  DNSSEC_OK, 3, 3 },
};

static int run5155(size_t i, unsigned flags, int whole, unsigned *hashes)
{
	char keys[64], *k, *save = NULL;
	struct set s;
	size_t j;
	int rc = -1;

	set_init(&s, "example");
	if (whole)
		for (j = 0; j < sizeof chain5155 / sizeof chain5155[0]; j++)
			add_rfc5155(&s, chain5155[j][0], flags);
	else {
		strcpy(keys, b5155[i].keys);
		for (k = strtok_r(keys, " ", &save); k != NULL;
		     k = strtok_r(NULL, " ", &save))
			add_rfc5155(&s, k, flags);
	}
	switch (b5155[i].kind) {
	case P_NAME: rc = deny_name(&s, b5155[i].qname); break;
	case P_TYPE:
		rc = deny_type(&s, b5155[i].qname, (uint16_t)b5155[i].arg);
		break;
	case P_EXPANDED:
		rc = deny_expanded(&s, b5155[i].qname, b5155[i].arg);
		break;
	}
	*hashes = taken(&s);
	return rc;
}

START_TEST(test_nsec3_rfc5155)
{
	unsigned h = 0;
	size_t i;
	int rc;

	for (i = 0; i < sizeof b5155 / sizeof b5155[0]; i++) {
		rc = run5155(i, 1, 0, &h);
		ck_assert_msg(rc == b5155[i].rc1 && h == b5155[i].hashes1,
		              "%s opt-out: %s, %u hashes", b5155[i].what,
		              dnssec_strerror(rc), h);
		rc = run5155(i, 0, 0, &h);
		ck_assert_msg(rc == b5155[i].rc0 && h == b5155[i].hashes0,
		              "%s: %s, %u hashes", b5155[i].what,
		              dnssec_strerror(rc), h);
		/* The whole chain proves the same. */
		ck_assert_int_eq(run5155(i, 1, 1, &h), b5155[i].rc1);
		ck_assert_int_eq(run5155(i, 0, 1, &h), b5155[i].rc0);
	}
}
END_TEST

/* The closest encloser is searched from both ends, the apex down and
 * qname up, in turns: a qname a hundred labels below c.x.w.example
 * costs B.1's hashes (example, w.example, x.w.example, c.x.w.example,
 * *.x.w.example) and the three the walk up takes meanwhile. */
START_TEST(test_nsec3_deep)
{
	char q[WIRE_NAME_MAX * 2] = "";
	struct set s;
	int i;

	for (i = 0; i < 100; i++)
		strcat(q, "a.");
	strcat(q, "c.x.w.example");
	set_init(&s, "example");
	add_rfc5155(&s, "0p9m", 0);
	add_rfc5155(&s, "b4um", 0);
	add_rfc5155(&s, "35mt", 0);
	ck_assert_int_eq(deny_name(&s, q), DNSSEC_OK);
	ck_assert_uint_eq(taken(&s), 8);
	/* A no data hashes qname first; the walk up starts from it. */
	ck_assert_int_eq(deny_type(&s, q, 1), DNSSEC_ENOPROOF);
	ck_assert_uint_eq(taken(&s), 8 + 8);
}
END_TEST

/* RFC 5155's parameters without opt-out. */
static const struct n3par plain5155 = { 1, 0, 12, "aabbccdd" };

/* The hash of name under plain5155 plus delta (-1, 0 or 1, as a 160-bit
 * number), in base32hex. */
static void hash_text(const char *name, int delta, char out[33])
{
	static const uint8_t salt[] = { 0xaa, 0xbb, 0xcc, 0xdd };
	uint8_t w[WIRE_NAME_MAX], h[DNSSEC_NSEC3_HASH_BYTES];
	size_t nl = tname(name, w), tl = 0;
	int i;

	ck_assert_int_eq(dnssec_nsec3_hash(1, 12, 50, salt, sizeof salt, w, nl,
	                                   h),
	                 DNSSEC_OK);
	for (i = DNSSEC_NSEC3_HASH_BYTES - 1; delta != 0 && i >= 0; i--) {
		h[i] = (uint8_t)(h[i] + delta);
		if (h[i] != (delta > 0 ? 0x00 : 0xff))
			break; /* no carry */
	}
	ck_assert_int_eq(dnssec_b32hex_encode(out, 32, &tl, h, sizeof h),
	                 DNSSEC_OK);
	out[tl] = '\0';
}

/* A record of zone s whose owner is name's hash (cover 0) or just
 * before it (cover 1); its next hash is one past name's. */
static void add_at(struct set *s, const char *name, int cover,
                   const char *types)
{
	char owner[33], next[33];

	hash_text(name, cover ? -1 : 0, owner);
	hash_text(name, 1, next);
	add_nsec3(s, &plain5155, owner, next, types);
}

/* "p." count times, then tail. */
static void repeat(char *out, const char *p, int count, const char *tail)
{
	int i;

	out[0] = '\0';
	for (i = 0; i < count; i++)
		strcat(out, p);
	strcat(out, tail);
}

/* Names of 127 labels (the most a name has), zone x.: the name error
 * for q.l^125.x below the deep encloser l^125.x (the walk up meets it
 * at once: two hashes each way and the wildcard's, where a walk from
 * the apex would pay 127), for a^126.x below the apex (the walk down:
 * the apex, a.x covered), and for a^63.l^63.x, the encloser half way:
 * every level hashed once, never twice (127 and the wildcard's), past a
 * budget of 100. An encloser that is a delegation proves nothing. */
START_TEST(test_nsec3_encloser_walk)
{
	char q[WIRE_NAME_MAX * 2], ce[WIRE_NAME_MAX * 2],
		wc[WIRE_NAME_MAX * 2];
	struct set s;

	repeat(ce, "l.", 125, "x");
	snprintf(q, sizeof q, "q.%s", ce);
	snprintf(wc, sizeof wc, "*.%s", ce);
	set_init(&s, "x");
	add_at(&s, ce, 0, "A RRSIG");
	add_at(&s, q, 1, "A RRSIG");
	add_at(&s, wc, 1, "A RRSIG");
	ck_assert_int_eq(deny_name(&s, q), DNSSEC_OK);
	ck_assert_uint_eq(taken(&s), 5);
	set_init(&s, "x");
	add_at(&s, ce, 0, "NS");
	add_at(&s, q, 1, "A RRSIG");
	add_at(&s, wc, 1, "A RRSIG");
	ck_assert_int_eq(deny_name(&s, q), DNSSEC_ENOPROOF);

	repeat(q, "a.", 126, "x");
	set_init(&s, "x");
	add_at(&s, "x", 0, "NS SOA RRSIG DNSKEY NSEC3PARAM");
	add_at(&s, "a.x", 1, "A RRSIG");
	add_at(&s, "*.x", 1, "A RRSIG");
	ck_assert_int_eq(deny_name(&s, q), DNSSEC_OK);
	ck_assert_uint_eq(taken(&s), 4);

	repeat(ce, "l.", 63, "x");
	repeat(q, "a.", 63, ce);
	snprintf(wc, sizeof wc, "*.%s", ce);
	set_init(&s, "x");
	add_at(&s, ce, 0, "A RRSIG");
	add_at(&s, q + 63 * 2 - 2, 1, "A RRSIG"); /* the next closer */
	add_at(&s, wc, 1, "A RRSIG");
	ck_assert_int_eq(deny_name(&s, q), DNSSEC_EBUDGET);
	set_init(&s, "x");
	add_at(&s, ce, 0, "A RRSIG");
	add_at(&s, q + 63 * 2 - 2, 1, "A RRSIG");
	add_at(&s, wc, 1, "A RRSIG");
	s.hashes = 200;
	ck_assert_int_eq(deny_name(&s, q), DNSSEC_OK);
	ck_assert_uint_eq(200 - s.hashes, 127 + 1);
}
END_TEST

static Suite *denial_suite(void)
{
	Suite *su = suite_create("denial");
	TCase *tv = tcase_create("vectors");

	tcase_add_test(tv, test_name_order);
	tcase_add_test(tv, test_bitmap_rfc4034);
	tcase_add_test(tv, test_nsec_rfc4035);
	tcase_add_test(tv, test_nsec_wildcard_owner);
	tcase_add_test(tv, test_nsec3_rfc5155);
	tcase_add_test(tv, test_nsec3_deep);
	tcase_add_test(tv, test_nsec3_encloser_walk);
	suite_add_tcase(su, tv);
	suite_add_tcase(su, denial_reject_tcase());
	return su;
}

int main(void)
{
	SRunner *sr = srunner_create(denial_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
