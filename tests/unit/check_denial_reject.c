/*
 * tests/unit/check_denial_reject.c - the rejections of the proofs of
 * non-existence: a record missing, a record that does not cover, the
 * wrong zone, NSEC3 records of other parameters or flags or owners, the
 * hash budget, the iterations cap, the NSEC at a delegation, and
 * malformed bitmaps and RDATA at every truncation (exact-size heap
 * copies, so ASan sees any read past them).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "denial_test.h"
#include "dnssec_test.h"

/* NSEC: each record of a proof is needed; one that does not cover
 * proves nothing. */
START_TEST(test_nsec_missing)
{
	struct set s;

	set_init(&s, "example");
	add_rfc4035(&s, "b.example");
	ck_assert_int_eq(deny_name(&s, "ml.example"), DNSSEC_ENOPROOF);
	set_init(&s, "example");
	add_rfc4035(&s, "example");
	ck_assert_int_eq(deny_name(&s, "ml.example"), DNSSEC_ENOPROOF);
	/* ns1 -> ns2 does not cover ml.example. */
	add_rfc4035(&s, "ns1.example");
	ck_assert_int_eq(deny_name(&s, "ml.example"), DNSSEC_ENOPROOF);
	/* B.7 without the wildcard, or without the cover. */
	set_init(&s, "example");
	add_rfc4035(&s, "x.y.w.example");
	ck_assert_int_eq(deny_type(&s, "a.z.w.example", 28), DNSSEC_ENOPROOF);
	set_init(&s, "example");
	add_rfc4035(&s, "*.w.example");
	ck_assert_int_eq(deny_type(&s, "a.z.w.example", 28), DNSSEC_ENOPROOF);
	/* B.6 without the cover; x.w -> x.y.w does not cover z.w. */
	add_rfc4035(&s, "x.w.example");
	ck_assert_int_eq(deny_expanded(&s, "a.z.w.example", 2),
	                 DNSSEC_ENOPROOF);
	/* Labels at or above the zone, or not below the qname's. */
	add_rfc4035(&s, "x.y.w.example");
	ck_assert_int_eq(deny_expanded(&s, "a.z.w.example", 2), DNSSEC_OK);
	ck_assert_int_eq(deny_expanded(&s, "a.z.w.example", 0),
	                 DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_expanded(&s, "a.z.w.example", 4), DNSSEC_EINVAL);
	ck_assert_int_eq(deny_expanded(&s, "a.z.w.example", 1000),
	                 DNSSEC_EINVAL);
}
END_TEST

/* NSEC: what the bitmap says. */
START_TEST(test_nsec_bitmap_rules)
{
	struct set s;

	set_init(&s, "example");
	add_rfc4035(&s, "ns1.example");
	ck_assert_int_eq(deny_type(&s, "ns1.example", 1), DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_name(&s, "ns1.example"), DNSSEC_ENOPROOF);
	set_init(&s, "example");
	add_nsec(&s, "ns1.example", "ns2.example", "CNAME RRSIG NSEC");
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	/* The wildcard has the type asked. */
	set_init(&s, "example");
	add_rfc4035(&s, "x.y.w.example");
	add_rfc4035(&s, "*.w.example");
	ck_assert_int_eq(deny_type(&s, "a.z.w.example", 15), DNSSEC_ENOPROOF);
	/* A span whose next name is not below qname: no empty
	 * non-terminal, and without the wildcard no NODATA. */
	set_init(&s, "example");
	add_rfc4035(&s, "b.example");
	ck_assert_int_eq(deny_type(&s, "ml.example", 1), DNSSEC_ENOPROOF);
	/* An empty non-terminal exists: no name error for it. */
	set_init(&s, "example");
	add_rfc4035(&s, "x.w.example");
	add_rfc4035(&s, "example");
	ck_assert_int_eq(deny_name(&s, "y.w.example"), DNSSEC_ENOPROOF);
	/* The DS of a zone is not denied by the child's apex NSEC. */
	set_init(&s, "example");
	add_rfc4035(&s, "example");
	ck_assert_int_eq(deny_type(&s, "example", WIRE_TYPE_DS),
	                 DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_type(&s, "example", 1), DNSSEC_OK);
	/* A signed delegation has its DS. */
	set_init(&s, "example");
	add_rfc4035(&s, "a.example");
	ck_assert_int_eq(deny_type(&s, "a.example", WIRE_TYPE_DS),
	                 DNSSEC_ENOPROOF);
}
END_TEST

/* RFC 4035 section 3.1.4.1: a DS lives in the parent, so an apex NSEC
 * never denies it; the root has no parent, and its own apex NSEC is the
 * only proof that ". DS" does not exist. */
START_TEST(test_nsec_root_ds)
{
	struct set s;

	set_init(&s, ".");
	add_nsec(&s, ".", "com.", "NS SOA RRSIG NSEC DNSKEY");
	ck_assert_int_eq(deny_type(&s, ".", WIRE_TYPE_DS), DNSSEC_OK);
	set_init(&s, ".");
	add_nsec(&s, ".", "com.", "NS SOA DS RRSIG NSEC DNSKEY");
	ck_assert_int_eq(deny_type(&s, ".", WIRE_TYPE_DS), DNSSEC_ENOPROOF);
	set_init(&s, ".");
	add_nsec(&s, ".", "com.", "CNAME RRSIG NSEC");
	ck_assert_int_eq(deny_type(&s, ".", WIRE_TYPE_DS), DNSSEC_ENOPROOF);
	/* the exception is the root's: a TLD's apex NSEC denies nothing of
	 * its DS, even from the root zone's set */
	set_init(&s, "com.");
	add_nsec(&s, "com.", "a.com.", "NS SOA RRSIG NSEC DNSKEY");
	ck_assert_int_eq(deny_type(&s, "com.", WIRE_TYPE_DS), DNSSEC_ENOPROOF);
}
END_TEST

/* RFC 6840 section 4.1: an NSEC at a delegation (NS, no SOA) or at a
 * DNAME proves nothing below it, nor any type but DS at it. */
START_TEST(test_nsec_delegation)
{
	struct set s;

	set_init(&s, "example");
	add_rfc4035(&s, "b.example");
	add_rfc4035(&s, "example");
	ck_assert_int_eq(deny_name(&s, "mc.b.example"), DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_type(&s, "mc.b.example", 1), DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_type(&s, "b.example", 1), DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_type(&s, "b.example", WIRE_TYPE_DS), DNSSEC_OK);
	/* The same span without the cut proves it. */
	set_init(&s, "example");
	add_nsec(&s, "b.example", "ns1.example", "A RRSIG NSEC");
	add_rfc4035(&s, "example");
	ck_assert_int_eq(deny_name(&s, "mc.b.example"), DNSSEC_OK);
	set_init(&s, "example");
	add_nsec(&s, "b.example", "ns1.example", "DNAME RRSIG NSEC");
	add_rfc4035(&s, "example");
	ck_assert_int_eq(deny_name(&s, "mc.b.example"), DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_name(&s, "c.example"), DNSSEC_OK);
}
END_TEST

/* Records of another zone are ignored; a qname outside the zone is not
 * proven; bad arguments. */
START_TEST(test_wrong_zone)
{
	uint8_t q[WIRE_NAME_MAX];
	struct set s;
	size_t ql;

	set_init(&s, "w.example");
	add_rfc4035(&s, "x.y.w.example"); /* next xx.example: outside */
	ck_assert_int_eq(deny_expanded(&s, "a.z.w.example", 2),
	                 DNSSEC_ENOPROOF);
	set_init(&s, "org");
	add_rfc4035(&s, "b.example");
	add_rfc4035(&s, "example");
	ck_assert_int_eq(deny_name(&s, "ml.example"), DNSSEC_ENOPROOF);
	/* An NSEC3 of example used for the zone w.example. */
	set_init(&s, "example");
	add_rfc5155(&s, "2t7b", 0);
	s.d.zonelen = tname("w.example", s.zone);
	ck_assert_int_eq(deny_type(&s, "ns1.w.example", 15), DNSSEC_ENOPROOF);
	ck_assert_uint_eq(taken(&s), 0);
	/* A qname outside the zone, whose hash a record of the zone has. */
	set_init(&s, "w.example");
	add_rfc5155(&s, "2t7b", 0);
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_type(&s, "ns1.w.example", 15), DNSSEC_ENOPROOF);
	set_init(&s, "example");
	add_rfc5155(&s, "2t7b", 0);
	ql = tname("ns1.example", q);
	ck_assert_int_eq(dnssec_deny_name(NULL, q, ql), DNSSEC_EINVAL);
	ck_assert_int_eq(dnssec_deny_type(&s.d, q, ql, 0), DNSSEC_EINVAL);
	ck_assert_int_eq(dnssec_deny_name(&s.d, q, ql - 1), DNSSEC_EFORMAT);
	s.d.hashes = NULL;
	ck_assert_int_eq(dnssec_deny_type(&s.d, q, ql, 15), DNSSEC_EINVAL);
	s.d.hashes = &s.hashes;
	s.d.zonelen--;
	ck_assert_int_eq(dnssec_deny_type(&s.d, q, ql, 15), DNSSEC_EINVAL);
}
END_TEST

/* NSEC3: each record of B.1 and B.5 is needed; a record that does not
 * cover does not do. */
START_TEST(test_nsec3_missing)
{
	static const char *const b1[] = { "0p9m b4um", "0p9m 35mt",
		                          "b4um 35mt", "0p9m b4um 2vpt" };
	static const char *const b5[] = { "q04j r53b", "k8ud r53b",
		                          "k8ud q04j", "k8ud 2t7b r53b" };
	char keys[32], *k, *save = NULL;
	unsigned flags = (unsigned)_i;
	struct set s;
	size_t i;

	for (i = 0; i < 4; i++) {
		set_init(&s, "example");
		strcpy(keys, b1[i]);
		for (k = strtok_r(keys, " ", &save); k != NULL;
		     k = strtok_r(NULL, " ", &save))
			add_rfc5155(&s, k, flags);
		ck_assert_int_eq(deny_name(&s, "a.c.x.w.example"),
		                 DNSSEC_ENOPROOF);
		set_init(&s, "example");
		strcpy(keys, b5[i]);
		for (k = strtok_r(keys, " ", &save); k != NULL;
		     k = strtok_r(NULL, " ", &save))
			add_rfc5155(&s, k, flags);
		/* With opt-out the wildcard is not looked at. */
		ck_assert_int_eq(deny_type(&s, "a.z.w.example", 28),
		                 flags && i == 2 ? DNSSEC_EOPTOUT :
		                                   DNSSEC_ENOPROOF);
	}
	/* example matches and z.w.example is covered, but w.example
	 * between them neither: no encloser (*.example is covered). */
	set_init(&s, "example");
	add_rfc5155(&s, "0p9m", flags);
	add_rfc5155(&s, "q04j", flags);
	add_rfc5155(&s, "gjeq", flags);
	ck_assert_int_eq(deny_name(&s, "a.z.w.example"), DNSSEC_ENOPROOF);
	set_init(&s, "example");
	add_rfc5155(&s, "r53b", flags);
	ck_assert_int_eq(deny_expanded(&s, "a.z.w.example", 2),
	                 DNSSEC_ENOPROOF);
	set_init(&s, "example");
	add_rfc5155(&s, "35mt", flags);
	ck_assert_int_eq(deny_type(&s, "y.w.example", 1), DNSSEC_ENOPROOF);
}
END_TEST

/* NSEC3 bitmaps: the type, CNAME, a delegation, the child's apex, and
 * a closest encloser that is a delegation or a DNAME. */
START_TEST(test_nsec3_bitmap_rules)
{
	struct n3par p = rfc5155;
	struct set s;

	p.flags = 0;
	set_init(&s, "example");
	add_nsec3(&s, &p, "2t7b4g4vsa5smi47k61mv5bv1a22bojr",
	          "2vptu5timamqttgl4luu9kg21e0aor3s", "A MX RRSIG");
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	set_init(&s, "example");
	add_nsec3(&s, &p, "2t7b4g4vsa5smi47k61mv5bv1a22bojr",
	          "2vptu5timamqttgl4luu9kg21e0aor3s", "CNAME RRSIG");
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	set_init(&s, "example");
	add_nsec3(&s, &p, "2t7b4g4vsa5smi47k61mv5bv1a22bojr",
	          "2vptu5timamqttgl4luu9kg21e0aor3s", "NS");
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_type(&s, "ns1.example", WIRE_TYPE_DS),
	                 DNSSEC_OK);
	/* B.6 of the DS of example: the apex record is the child's. */
	set_init(&s, "example");
	add_rfc5155(&s, "0p9m", 0);
	ck_assert_int_eq(deny_type(&s, "example", WIRE_TYPE_DS),
	                 DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_type(&s, "example", 1), DNSSEC_OK);
	/* B.1 with x.w.example a delegation, then a DNAME. */
	set_init(&s, "example");
	add_rfc5155(&s, "0p9m", 0);
	add_nsec3(&s, &p, "b4um86eghhds6nea196smvmlo4ors995",
	          "gjeqe526plbf1g8mklp59enfd789njgi", "NS");
	add_rfc5155(&s, "35mt", 0);
	ck_assert_int_eq(deny_name(&s, "a.c.x.w.example"), DNSSEC_ENOPROOF);
	set_init(&s, "example");
	add_rfc5155(&s, "0p9m", 0);
	add_nsec3(&s, &p, "b4um86eghhds6nea196smvmlo4ors995",
	          "gjeqe526plbf1g8mklp59enfd789njgi", "DNAME RRSIG");
	add_rfc5155(&s, "35mt", 0);
	ck_assert_int_eq(deny_name(&s, "a.c.x.w.example"), DNSSEC_ENOPROOF);
	/* A qname that matches has no name error, even with the rest of a
	 * proof: 0p9m the encloser, a record covering H(ns1.example) =
	 * 2t7b..., gjeq -> ji6n covering H(*.example) = jhsv.... */
	set_init(&s, "example");
	add_rfc5155(&s, "2t7b", 0);
	add_rfc5155(&s, "0p9m", 0);
	add_rfc5155(&s, "gjeq", 0);
	add_nsec3(&s, &p, "2t7a0000000000000000000000000000",
	          "2t7c0000000000000000000000000000", "A RRSIG");
	ck_assert_int_eq(deny_name(&s, "ns1.example"), DNSSEC_ENOPROOF);
}
END_TEST

/* NSEC3 records that must be ignored: other parameters than the
 * chain's, unknown flags, owners that are not one hash label directly
 * under the zone, next hashes of the wrong length. */
START_TEST(test_nsec3_ignored)
{
	static const struct n3par other[] = {
		{ 1, 0, 12, "aabbccde" },
		{ 1, 0, 11, "aabbccdd" },
		{ 1, 0, 12, "" },
		{ 1, 2, 12, "aabbccdd" },
		{ 1, 0x81, 12, "aabbccdd" },
	};
	static const char *const owners[] = {
		"2t7b4g4vsa5smi47k61mv5bv1a22bojr.sub",
		"2t7b4g4vsa5smi47k61mv5bv1a22bojra",
		"2t7b4g4vsa5smi47k61mv5bv1a22boj",
		"wt7b4g4vsa5smi47k61mv5bv1a22bojr",
	};
	struct n3par p = rfc5155;
	struct set s;
	size_t i;

	/* One B.1 record with other parameters than the first's. */
	for (i = 0; i < sizeof other / sizeof other[0]; i++) {
		set_init(&s, "example");
		add_rfc5155(&s, "0p9m", 0);
		add_rfc5155(&s, "b4um", 0);
		add_nsec3(&s, &other[i], "35mthgpgcu1qg68fab165klnsnk3dpvl",
		          "b4um86eghhds6nea196smvmlo4ors995", "NS DS RRSIG");
		ck_assert_int_eq(deny_name(&s, "a.c.x.w.example"),
		                 DNSSEC_ENOPROOF);
		/* Alone, a record with other flags is no chain at all. */
		set_init(&s, "example");
		add_nsec3(&s, &other[i], "2t7b4g4vsa5smi47k61mv5bv1a22bojr",
		          "2vptu5timamqttgl4luu9kg21e0aor3s", "A RRSIG");
		ck_assert_int_eq(deny_type(&s, "ns1.example", 15),
		                 DNSSEC_ENOPROOF);
		/* qname's hash, then example's (no match: no encloser). */
		ck_assert_uint_eq(taken(&s), other[i].flags > 1 ? 0 : 2);
	}
	p.flags = 0;
	for (i = 0; i < sizeof owners / sizeof owners[0]; i++) {
		set_init(&s, "example");
		add_nsec3(&s, &p, owners[i],
		          "2vptu5timamqttgl4luu9kg21e0aor3s", "A RRSIG");
		ck_assert_int_eq(deny_type(&s, "ns1.example", 15),
		                 DNSSEC_ENOPROOF);
		ck_assert_uint_eq(taken(&s), 0);
	}
	/* An owner label of 31 characters (19 bytes) spanning everything. */
	set_init(&s, "example");
	add_nsec3(&s, &p, "0000000000000000000000000000000",
	          "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv", "A RRSIG");
	ck_assert_int_eq(deny_expanded(&s, "a.z.w.example", 2),
	                 DNSSEC_ENOPROOF);
	/* A next hash of 19 bytes. */
	set_init(&s, "example");
	add_nsec3(&s, &p, "2t7b4g4vsa5smi47k61mv5bv1a22bojr",
	          "2vptu5timamqttgl4luu9kg21e0aor0", "A RRSIG");
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	/* The owner the zone itself. */
	set_init(&s, "example");
	add_rfc5155(&s, "2t7b", 0);
	memcpy(s.r[0].owner, s.zone, s.d.zonelen);
	s.n[0].ownerlen = s.d.zonelen;
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	ck_assert_uint_eq(taken(&s), 0);
	/* The owner label in upper case is the same hash. */
	set_init(&s, "example");
	add_nsec3(&s, &p, "2T7B4G4VSA5SMI47K61MV5BV1A22BOJR",
	          "2vptu5timamqttgl4luu9kg21e0aor3s", "A RRSIG");
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_OK);
}
END_TEST

/* The budget: at 0 no hash is taken and the proof stops. */
START_TEST(test_nsec3_budget)
{
	unsigned n;
	struct set s;

	for (n = 0; n <= 6; n++) {
		set_init(&s, "example");
		add_rfc5155(&s, "0p9m", 0);
		add_rfc5155(&s, "b4um", 0);
		add_rfc5155(&s, "35mt", 0);
		s.hashes = n;
		ck_assert_int_eq(deny_name(&s, "a.c.x.w.example"),
		                 n < 6 ? DNSSEC_EBUDGET : DNSSEC_OK);
		ck_assert_uint_eq(s.hashes, 0);
		/* Spent: the next proof takes nothing. */
		ck_assert_int_eq(deny_type(&s, "ns1.example", 15),
		                 DNSSEC_EBUDGET);
		ck_assert_int_eq(deny_expanded(&s, "a.z.w.example", 2),
		                 DNSSEC_EBUDGET);
		ck_assert_uint_eq(s.hashes, 0);
	}
}
END_TEST

/* Iterations over the cap and unknown hash algorithms: nothing hashed. */
START_TEST(test_nsec3_unusable)
{
	struct n3par p = rfc5155;
	struct set s;

	set_init(&s, "example");
	add_rfc5155(&s, "0p9m", 1);
	add_rfc5155(&s, "b4um", 1);
	add_rfc5155(&s, "35mt", 1);
	s.d.max_iterations = 11;
	ck_assert_int_eq(deny_name(&s, "a.c.x.w.example"), DNSSEC_EITERATIONS);
	ck_assert_int_eq(deny_type(&s, "a.c.x.w.example", 1),
	                 DNSSEC_EITERATIONS);
	ck_assert_int_eq(deny_expanded(&s, "a.c.x.w.example", 3),
	                 DNSSEC_EITERATIONS);
	ck_assert_uint_eq(taken(&s), 0);
	s.d.max_iterations = 12;
	ck_assert_int_eq(deny_name(&s, "a.c.x.w.example"), DNSSEC_EOPTOUT);
	p.alg = 2;
	set_init(&s, "example");
	add_nsec3(&s, &p, "2t7b4g4vsa5smi47k61mv5bv1a22bojr",
	          "2vptu5timamqttgl4luu9kg21e0aor3s", "A RRSIG");
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15),
	                 DNSSEC_EUNSUPPORTED_HASH);
	ck_assert_uint_eq(taken(&s), 0);
	/* A usable record beside them sets the chain. */
	add_rfc5155(&s, "2t7b", 0);
	s.d.max_iterations = 11;
	p.alg = 1;
	p.iter = 5;
	add_nsec3(&s, &p, "2t7b4g4vsa5smi47k61mv5bv1a22bojr",
	          "2vptu5timamqttgl4luu9kg21e0aor3s", "A RRSIG");
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	s.d.max_iterations = 12;
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_OK);
}
END_TEST

/* Opt-out: only the next closer name's cover counts. */
START_TEST(test_nsec3_optout)
{
	struct set s;

	/* B.1 with only the wildcard's cover opt-out: proven. */
	set_init(&s, "example");
	add_rfc5155(&s, "0p9m", 0);
	add_rfc5155(&s, "b4um", 1);
	add_rfc5155(&s, "35mt", 1);
	ck_assert_int_eq(deny_name(&s, "a.c.x.w.example"), DNSSEC_OK);
	set_init(&s, "example");
	add_rfc5155(&s, "0p9m", 1);
	add_rfc5155(&s, "b4um", 0);
	add_rfc5155(&s, "35mt", 0);
	ck_assert_int_eq(deny_name(&s, "a.c.x.w.example"), DNSSEC_EOPTOUT);
	/* A matching record decides a no data whatever its flags. */
	set_init(&s, "example");
	add_rfc5155(&s, "35mt", 1);
	ck_assert_int_eq(deny_type(&s, "a.example", 1), DNSSEC_ENOPROOF);
	ck_assert_int_eq(deny_type(&s, "a.example", WIRE_TYPE_DS),
	                 DNSSEC_ENOPROOF);
}
END_TEST

/* Bitmaps that break a rule of RFC 4034 section 4.1.2, at every
 * truncation too. */
START_TEST(test_bitmap_malformed)
{
	static const uint8_t bad[][6] = {
		{ 0x00, 0x00 },                         /* empty window */
		{ 0x01, 0x01, 0x40, 0x00, 0x01, 0x40 }, /* out of order */
		{ 0x00, 0x01, 0x40, 0x00, 0x01, 0x40 }, /* repeated */
		{ 0x00, 0x05, 0x40 },                   /* runs past the end */
	};
	static const size_t badlen[] = { 2, 6, 6, 3 };
	uint8_t bm[64], *h, big[40];
	size_t i, n = bitmap(bm, "A MX RRSIG NSEC TYPE1234");

	for (i = 0; i < 4; i++)
		ck_assert_int_eq(dnssec_bitmap_has(bad[i], badlen[i], 1), -1);
	memset(big, 0, sizeof big);
	big[1] = 33;
	ck_assert_int_eq(dnssec_bitmap_has(big, 35, 1), -1);
	for (i = 0; i < n; i++) {
		h = malloc(i ? i : 1);
		ck_assert_ptr_nonnull(h);
		memcpy(h, bm, i);
		/* Whole windows end at 0 and 8 bytes. */
		ck_assert_int_eq(dnssec_bitmap_has(h, i, 1234),
		                 i == 0 || i == 8 ? 0 : -1);
		free(h);
	}
}
END_TEST

/* One record copied to a heap buffer of exactly each shorter length:
 * never read past, never trusted unless what is left is a record. */
static void truncations(struct set *s, const char *qname, uint16_t qtype,
                        size_t whole_at)
{
	const uint8_t *rd = s->n[0].rdata;
	size_t len = s->n[0].rdlen, i;
	uint8_t *h;

	for (i = 0; i < len; i++) {
		h = malloc(i ? i : 1);
		ck_assert_ptr_nonnull(h);
		memcpy(h, rd, i);
		s->n[0].rdata = h;
		s->n[0].rdlen = i;
		ck_assert_int_eq(deny_type(s, qname, qtype),
		                 i == whole_at ? DNSSEC_OK : DNSSEC_ENOPROOF);
		free(h);
	}
	s->n[0].rdata = rd;
	s->n[0].rdlen = len;
	ck_assert_int_eq(deny_type(s, qname, qtype), DNSSEC_OK);
}

START_TEST(test_rdata_truncated)
{
	uint8_t *owner;
	struct set s;
	size_t i, ol;

	/* NSEC ns1 -> ns2 "A RRSIG NSEC": the name is 13 bytes; cut
	 * there, the bitmap is empty and still proves no MX. */
	set_init(&s, "example");
	add_rfc4035(&s, "ns1.example");
	truncations(&s, "ns1.example", 15, 13);
	/* NSEC3 2t7b: 5 + 4 salt + 1 + 20 hash, then the bitmap. */
	set_init(&s, "example");
	add_rfc5155(&s, "2t7b", 0);
	truncations(&s, "ns1.example", 15, 30);
	/* The owner cut short is no name. */
	ol = s.n[0].ownerlen;
	for (i = 0; i < ol; i++) {
		owner = malloc(i ? i : 1);
		ck_assert_ptr_nonnull(owner);
		memcpy(owner, s.r[0].owner, i);
		s.n[0].owner = owner;
		s.n[0].ownerlen = i;
		ck_assert_int_eq(deny_type(&s, "ns1.example", 15),
		                 DNSSEC_ENOPROOF);
		free(owner);
	}
}
END_TEST

/* A bad bitmap in a whole record: the record is ignored. */
START_TEST(test_rdata_bad_bitmap)
{
	struct set s;

	set_init(&s, "example");
	add_rfc4035(&s, "ns1.example");
	s.r[0].rd[13 + 1] = 0; /* the window's length */
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	s.r[0].rd[13 + 1] = 33;
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	set_init(&s, "example");
	add_rfc5155(&s, "2t7b", 0);
	s.r[0].rd[30 + 1] = 7; /* one byte past the end */
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
	/* A compression pointer in the NSEC next name. */
	set_init(&s, "example");
	add_rfc4035(&s, "ns1.example");
	s.r[0].rd[4] = 0xc0;
	ck_assert_int_eq(deny_type(&s, "ns1.example", 15), DNSSEC_ENOPROOF);
}
END_TEST

TCase *denial_reject_tcase(void)
{
	TCase *tc = tcase_create("reject");

	tcase_add_test(tc, test_nsec_missing);
	tcase_add_test(tc, test_nsec_bitmap_rules);
	tcase_add_test(tc, test_nsec_delegation);
	tcase_add_test(tc, test_nsec_root_ds);
	tcase_add_test(tc, test_wrong_zone);
	tcase_add_loop_test(tc, test_nsec3_missing, 0, 2);
	tcase_add_test(tc, test_nsec3_bitmap_rules);
	tcase_add_test(tc, test_nsec3_ignored);
	tcase_add_test(tc, test_nsec3_budget);
	tcase_add_test(tc, test_nsec3_unusable);
	tcase_add_test(tc, test_nsec3_optout);
	tcase_add_test(tc, test_bitmap_malformed);
	tcase_add_test(tc, test_rdata_truncated);
	tcase_add_test(tc, test_rdata_bad_bitmap);
	return tc;
}
