/*
 * tests/fuzz/fuzz_iter.c - libFuzzer target for the iterator's response
 * classifier: arbitrary upstream answers for a fixed question.
 *
 * The input is a header byte, then replies, each a 2-byte big-endian
 * length and a DNS message (TCP framing). The low bits of the header
 * byte pick one of the lab questions below (plain zones, DNSCurve zones
 * from the root down or below a plain TLD, CNAMEs, NXDOMAIN, a glueless
 * delegation); the next bit turns QNAME minimisation on.
 *
 * A resolution starts from the lab's root hints with an empty cache and
 * selection table and is driven like the daemon does (fuzz_drive.h:
 * every query gets the next reply of the input in turn). Checks: those
 * of fuzz_drive.h (an end within its caps, one of the three RCODEs, an
 * answer that builds into a response that parses).
 */
#include <stdint.h>
#include <stdlib.h>

#include "fuzz_drive.h"

struct fuzz_question {
	const char *name;
	uint16_t type;
};

/* Lab names (tests/lab/lab.sh): index = header byte & 7. */
static const struct fuzz_question questions[] = {
	{ "www.example.lab.", WIRE_TYPE_A },    /* plain walk */
	{ "www.secure.curve.", WIRE_TYPE_A },   /* DNSCurve from the root */
	{ "www.boxed.lab.", WIRE_TYPE_AAAA },   /* DNSCurve below lab. */
	{ "alias.example.lab.", WIRE_TYPE_A },  /* CNAME in the zone */
	{ "chain.example.lab.", WIRE_TYPE_A },  /* CNAME across zones */
	{ "nosuch.example.lab.", WIRE_TYPE_A }, /* NXDOMAIN */
	{ "example.lab.", WIRE_TYPE_MX },       /* MX and its glue */
	{ "www.other.lab.", WIRE_TYPE_A },      /* glueless delegation */
};
#define FUZZ_NQUESTIONS (sizeof questions / sizeof questions[0])

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_run r;
	const struct fuzz_question *fq;
	uint8_t qname[WIRE_NAME_MAX];
	size_t qnamelen = 0;

	if (size < 1)
		return 0;
	fq = &questions[data[0] % FUZZ_NQUESTIONS];
	fuzz_run_init(&r, (data[0] & FUZZ_QMIN_BIT) != 0, data + 1, size - 1);
	fuzz_run_resolve(&r, fq->name, fq->type, qname, &qnamelen);
	fuzz_check_answer(iter_result(r.req), qname, qnamelen, fq->type,
	                  false);
	fuzz_run_free(&r);
	return 0;
}
