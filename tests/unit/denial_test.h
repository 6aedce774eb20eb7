/*
 * tests/unit/denial_test.h - what the denial suite's files share: a set
 * of NSEC/NSEC3 records built from presentation text, and the example
 * zones of RFC 4035 Appendix A (NSEC) and RFC 5155 Appendix A (NSEC3)
 * typed from the RFCs.
 */
#ifndef CURVECACHE_TESTS_UNIT_DENIAL_TEST_H
#define CURVECACHE_TESTS_UNIT_DENIAL_TEST_H

#include <check.h>
#include <stddef.h>
#include <stdint.h>

#include "validate/denial.h"
#include "validate/dnssec.h"

/** Records in one test set. */
#define SET_MAX 16
/** Hashes a test proof may spend unless it says otherwise. */
#define SET_HASHES 100

struct rec {
	uint8_t owner[WIRE_NAME_MAX];
	uint8_t rd[600];
};

/* A set of records for a zone, and the budget the proofs spend. */
struct set {
	struct rec r[SET_MAX];
	struct dnssec_nsec n[SET_MAX];
	uint8_t zone[WIRE_NAME_MAX];
	char zonetext[WIRE_NAME_MAX];
	unsigned hashes;
	struct dnssec_denial d;
};

/* The NSEC3 parameters of a record (RFC 5155 section 3.2). */
struct n3par {
	unsigned alg, flags, iter;
	const char *salt; /* hex */
};

/* RFC 5155 Appendix A: SHA-1, opt-out set, 12 iterations, aabbccdd. */
extern const struct n3par rfc5155;

void set_init(struct set *s, const char *zone);
size_t bitmap(uint8_t *out, const char *types);
void add_nsec(struct set *s, const char *owner, const char *next,
              const char *types);
void add_nsec3(struct set *s, const struct n3par *p, const char *hash,
               const char *next, const char *types);
/* The record of RFC 5155 Appendix A whose owner hash starts with key. */
void add_rfc5155(struct set *s, const char *key, unsigned flags);
/* The NSEC of RFC 4035 Appendix A owned by owner. */
void add_rfc4035(struct set *s, const char *owner);
/* Hashes taken since set_init. */
unsigned taken(const struct set *s);

int deny_name(struct set *s, const char *qname);
int deny_type(struct set *s, const char *qname, uint16_t qtype);
int deny_expanded(struct set *s, const char *qname, unsigned labels);

/* The rejection cases (check_denial_reject.c). */
TCase *denial_reject_tcase(void);

#endif /* CURVECACHE_TESTS_UNIT_DENIAL_TEST_H */
