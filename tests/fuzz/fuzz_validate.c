/*
 * tests/fuzz/fuzz_validate.c - libFuzzer target for DNSSEC validation in
 * the iterator (resolver/iter/iter_trust.c, iter_val.c and the
 * validate/ room under them): arbitrary DNSKEY, RRSIG, DS, NSEC and
 * NSEC3 records in the replies to a fixed question, with the root as a
 * trust anchor.
 *
 * The input is a header byte, then replies, each a 2-byte big-endian
 * length and a DNS message, fed to the iterator's queries in turn as
 * fuzz_drive.h does. The low three bits of the header byte pick one of
 * the questions below, the next bit turns QNAME minimisation on, the
 * next makes the anchor the root's DNSKEY instead of its DS, and the
 * next asks AAAA instead of A (NODATA cases).
 *
 * Every resolution has a trust anchor (so validation is on, from the
 * root down) and a key cache shared by all runs, like a worker's.
 * Checks, each an abort: those of fuzz_drive.h, for a client without
 * EDNS and for one with DO and CD (which gets the RRSIGs, the proofs
 * and bogus data); the answer's status is one of enum cache_sec and its
 * Extended DNS Error code, if any, a registered one (RFC 8914).
 *
 * Seeds (corpus/validate/) are real signed replies from the fixed keys
 * of tests/fuzz/mkvalidate.py, which prints the anchors below and
 * remakes the seeds (tests/fuzz/mkcorpus.sh runs it).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "fuzz_drive.h"
#include "anchor/anchor.h"
#include "validate/dnssec_set.h"

/** Bit of the header byte: the root's DNSKEY is the anchor. */
#define FUZZ_KEY_ANCHOR_BIT 0x10u
/** Bit of the header byte: ask AAAA instead of A. */
#define FUZZ_AAAA_BIT 0x20u
/** Slots of the key cache. */
#define FUZZ_KEYCACHE_SLOTS 16
/** EDE INFO-CODEs registered so far are below this (RFC 8914 and
 *  the IANA registry). */
#define FUZZ_EDE_CODE_MAX 64

/* The root's key of tests/fuzz/mkvalidate.py (anchor). */
static const char fuzz_anchor_ds[] =
	". DS 34259 15 2 "
	"cb1d360e1ae51edb97e1e8a4446c41790bb611d34f5040bbac01f71ab966cb41";
static const char fuzz_anchor_dnskey[] =
	". DNSKEY 257 3 15 A6EHv/POEL4dcN0Y50vAmWfk1jCbpQ1fHdyGZBJVMbg=";

/* Names of tests/fuzz/mkvalidate.py's tree: index = header byte & 7. */
static const char *const questions[] = {
	"www.example.",          /* answer signed by a ZSK */
	"nosuch.example.",       /* NXDOMAIN, NSEC */
	"www.example.",          /* (with the AAAA bit: NODATA, NSEC) */
	"a.wild.example.",       /* wildcard expansion, NSEC */
	"www.h.example.",        /* three zones deep, NSEC3 */
	"nosuch.h.example.",     /* NXDOMAIN, NSEC3 */
	"a.wild.h.example.",     /* wildcard expansion, NSEC3 */
	"www.unsigned.example.", /* an insecure delegation */
};
#define FUZZ_NQUESTIONS (sizeof questions / sizeof questions[0])

/* An anchor set with one record; aborts on failure. */
static struct anchors *fuzz_anchors(const char *rr)
{
	char err[ANCHOR_ERR_MAX];
	struct anchors *a = NULL;

	if (anchors_new(&a) != ANCHOR_OK ||
	    anchors_add_text(a, rr, err, sizeof err) != ANCHOR_OK)
		abort();
	return a;
}

/* FUZZ_TRACE=FILE: write the queries of each run to FILE (the seed
 * generator reads them); NULL when unset. */
static FILE *fuzz_trace_open(void)
{
	const char *path = getenv("FUZZ_TRACE");
	FILE *f;

	if (path == NULL)
		return NULL;
	f = fopen(path, "w");
	if (f == NULL)
		abort();
	return f;
}

/* The end of a trace: "result RCODE SEC EDE WHY" (-1: no EDE). */
static void trace_result(FILE *f, const struct answer *res)
{
	fprintf(f, "result %u %u %d %s\n", (unsigned)res->rcode,
	        (unsigned)res->sec, res->ede ? (int)res->ede_code : -1,
	        res->why != NULL ? res->why : "-");
}

/* The status and EDE of a finished resolution. */
static void check_status(const struct answer *res)
{
	if (res->sec > CACHE_SEC_BOGUS)
		abort();
	if (res->ede && res->ede_code >= FUZZ_EDE_CODE_MAX)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct fuzz_run r;
	static struct anchors *by_ds, *by_key;
	static struct dnssec_keycache *keys;
	uint8_t qname[WIRE_NAME_MAX];
	size_t qnamelen = 0;
	uint16_t qtype;

	if (size < 1)
		return 0;
	if (keys == NULL) {
		by_ds = fuzz_anchors(fuzz_anchor_ds);
		by_key = fuzz_anchors(fuzz_anchor_dnskey);
		if (dnssec_keycache_new(&keys, FUZZ_KEYCACHE_SLOTS) !=
		    DNSSEC_OK)
			abort();
	}
	qtype = (data[0] & FUZZ_AAAA_BIT) != 0 ? WIRE_TYPE_AAAA : WIRE_TYPE_A;
	fuzz_run_init(&r, (data[0] & FUZZ_QMIN_BIT) != 0, data + 1, size - 1);
	r.env.anchors = (data[0] & FUZZ_KEY_ANCHOR_BIT) != 0 ? by_key : by_ds;
	r.env.keycache = keys;
	r.trace = fuzz_trace_open();
	fuzz_run_resolve(&r, questions[data[0] % FUZZ_NQUESTIONS], qtype,
	                 qname, &qnamelen);
	if (r.trace != NULL) {
		trace_result(r.trace, iter_result(r.req));
		fclose(r.trace);
	}
	fuzz_check_answer(iter_result(r.req), qname, qnamelen, qtype, false);
	fuzz_check_answer(iter_result(r.req), qname, qnamelen, qtype, true);
	check_status(iter_result(r.req));
	fuzz_run_free(&r);
	return 0;
}
