/*
 * tests/fuzz/fuzz_dnssec.c - libFuzzer target for the DNSSEC primitives
 * (resolver/validate/dnssec.h).
 *
 * The input is a run of pieces, each a 16-bit big-endian length and its
 * bytes: a DNSKEY RDATA, an RRSIG RDATA, the owner name of the RRset,
 * then up to FUZZ_RRS_MAX RDATAs of the RRset, whose type is the RRSIG's
 * type covered (so the canonical forms of every type with names in its
 * RDATA are reached). Each piece is copied into a heap buffer of exactly
 * its length, so ASan sees any read past it.
 *
 * The RRset goes through the whole verifier with the RRSIG's signer as
 * the zone and its inception as `now` (so the checks pass and the crypto
 * runs), and the pieces through the key tag, the DS digests and match,
 * the NSEC3 hash and base32hex. Invariants, each an abort: a DS made
 * from a key matches it; the signed data does not depend on the order
 * of the records; base32hex decodes what it encoded, and encodes what it
 * decoded back to the same text (up to case).
 *
 * The same pieces, taken two by two (owner, RDATA), are also a set of
 * NSEC and NSEC3 records (each pair twice, once as each type) for the
 * proofs of non-existence (resolver/validate/denial.h) of a fixed
 * question in the zone "example": a.c.x.w.example does not exist, has
 * no A nor DS, and is a wildcard expansion (labels 2 and 3). Invariants:
 * every proof returns one of its documented statuses, never takes more
 * hashes than its budget, and dnssec_name_cmp is antisymmetric.
 *
 * Seeds (corpus/dnssec/): the examples of tests/unit/dnssec_test.h in
 * this layout, each of which verifies (RFC 5702, 6605, 8080, dnspython's
 * SOA and wildcard), and SRV, NAPTR and MX sets with names to expand;
 * denial-*: records of RFC 5155 Appendix B.1 (NSEC3, opt-out cleared)
 * and RFC 4035 Appendix B.2 and B.6 (NSEC) as owner/RDATA pairs;
 * denial-nsec3-unknown-hash: the B.1 records with hash algorithm 2, and
 * rrsig-expires-before-inception: rfc6605-p256 with the expiration one
 * second before the inception (issue 21, items 10 and 11).
 */
#include <ctype.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "validate/denial.h"
#include "validate/dnssec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** RDATAs in one fuzzed RRset (pieces after the first three). */
#define FUZZ_RRS_MAX 8
/** Pieces: DNSKEY, RRSIG, owner and the RDATAs. */
#define FUZZ_PIECES (3 + FUZZ_RRS_MAX)
/** NSEC3 hashes one fuzzed proof may take. */
#define FUZZ_HASHES 8
/** NSEC and NSEC3 records: each pair of pieces, as each type. */
#define FUZZ_DENIAL_RRS (FUZZ_PIECES / 2 * 2)
/** Signed data of a fuzzed RRset: at most 64 KiB of input, expanded. */
#define FUZZ_SIGNED_MAX (FUZZ_RRS_MAX * 2 * (65536 + WIRE_NAME_MAX + 16))

struct piece {
	uint8_t *p;
	size_t len;
};

/* Cut the input into heap copies; returns the number of pieces. */
static size_t cut(const uint8_t *data, size_t size, struct piece *pc)
{
	size_t pos = 0, n = 0, len;

	while (n < FUZZ_PIECES && size - pos >= 2) {
		len = (size_t)data[pos] << 8 | data[pos + 1];
		pos += 2;
		if (len > size - pos)
			len = size - pos;
		pc[n].p = malloc(len ? len : 1);
		if (pc[n].p == NULL)
			break;
		memcpy(pc[n].p, data + pos, len);
		pc[n].len = len;
		pos += len;
		n++;
	}
	return n;
}

/* A DS made from the key by each digest type must match the key. */
static void check_ds(const struct piece *key, const struct piece *owner)
{
	static const uint8_t types[] = { 1, 2, 4 };
	uint8_t ds[DNSSEC_DS_FIXED_BYTES + DNSSEC_DIGEST_MAX];
	struct dnssec_dnskey k;
	size_t i, len = 0;

	if (dnssec_dnskey_parse(key->p, key->len, &k) != DNSSEC_OK)
		return;
	for (i = 0; i < sizeof types; i++) {
		if (dnssec_ds_digest(types[i], owner->p, owner->len, key->p,
		                     key->len, ds + 4, &len) != DNSSEC_OK)
			return;
		ds[0] = (uint8_t)(k.tag >> 8);
		ds[1] = (uint8_t)k.tag;
		ds[2] = k.alg;
		ds[3] = types[i];
		if (dnssec_ds_match(ds, 4 + len, owner->p, owner->len, key->p,
		                    key->len) != DNSSEC_OK)
			abort();
	}
}

/* base32hex both ways over a piece. */
static void check_b32hex(const struct piece *pc)
{
	char text[DNSSEC_B32HEX_LEN(512)];
	uint8_t bin[512];
	size_t n = pc->len < sizeof bin ? pc->len : sizeof bin, tl = 0, bl = 0;
	size_t i;

	if (dnssec_b32hex_encode(text, sizeof text, &tl, pc->p, n) !=
	            DNSSEC_OK ||
	    dnssec_b32hex_decode(bin, sizeof bin, &bl, text, tl) !=
	            DNSSEC_OK ||
	    bl != n || memcmp(bin, pc->p, n) != 0)
		abort();
	if (dnssec_b32hex_decode(bin, sizeof bin, &bl, (const char *)pc->p,
	                         n) != DNSSEC_OK)
		return;
	if (dnssec_b32hex_encode(text, sizeof text, &tl, bin, bl) !=
	            DNSSEC_OK ||
	    tl != n)
		abort();
	for (i = 0; i < n; i++)
		if (tolower(pc->p[i]) != text[i])
			abort();
}

/* The signed data of the RRset in both orders must be the same. */
static void check_order(const struct dnssec_rrsig *s, struct dnssec_rrset *set,
                        uint8_t *a, uint8_t *b)
{
	struct dnssec_rdata rev[FUZZ_RRS_MAX];
	const struct dnssec_rdata *fwd = set->rd;
	size_t i, alen = 0, blen = 0;
	int ra, rb;

	for (i = 0; i < set->count; i++)
		rev[i] = set->rd[set->count - 1 - i];
	ra = dnssec_signed_data(s, set, a, FUZZ_SIGNED_MAX, &alen);
	set->rd = rev;
	rb = dnssec_signed_data(s, set, b, FUZZ_SIGNED_MAX, &blen);
	set->rd = fwd;
	if (ra != rb ||
	    (ra == DNSSEC_OK && (alen != blen || memcmp(a, b, alen) != 0)))
		abort();
}

static void run(struct piece *pc, size_t n, uint8_t *a, uint8_t *b)
{
	struct dnssec_rdata rd[FUZZ_RRS_MAX];
	struct dnssec_rrset set;
	struct dnssec_rrsig s;
	uint8_t h[DNSSEC_NSEC3_HASH_BYTES];
	size_t i;
	int rc;

	if (n < 1)
		return;
	(void)dnssec_key_tag(pc[0].p, pc[0].len);
	check_b32hex(&pc[0]);
	if (n < 3)
		return;
	check_ds(&pc[0], &pc[2]);
	check_b32hex(&pc[2]);
	rc = dnssec_nsec3_hash(1, (uint16_t)(pc[0].len % 8), 50, pc[1].p,
	                       pc[1].len, pc[2].p, pc[2].len, h);
	(void)rc;
	if (n < 4 || dnssec_rrsig_parse(pc[1].p, pc[1].len, &s) != DNSSEC_OK)
		return;
	for (i = 3; i < n; i++) {
		rd[i - 3].msg = pc[i].p;
		rd[i - 3].msglen = pc[i].len;
		rd[i - 3].off = 0;
		rd[i - 3].len = (uint16_t)pc[i].len;
	}
	set.owner = pc[2].p;
	set.ownerlen = pc[2].len;
	set.type = s.type_covered;
	set.rclass = WIRE_CLASS_IN;
	set.rd = rd;
	set.count = n - 3;
	check_order(&s, &set, a, b);
	rc = dnssec_rrset_verify(&set, pc[1].p, pc[1].len, s.signer,
	                         s.signerlen, pc[0].p, pc[0].len,
	                         (time_t)s.inception, a, FUZZ_SIGNED_MAX);
	(void)rc;
}

/* The results a proof may give (denial.h). */
static int denial_status_ok(int rc)
{
	return rc == DNSSEC_OK || rc == DNSSEC_EOPTOUT ||
	       rc == DNSSEC_ENOPROOF || rc == DNSSEC_EITERATIONS ||
	       rc == DNSSEC_EUNSUPPORTED_HASH || rc == DNSSEC_EBUDGET;
}

/* Each proof of the fixed question within its budget. */
static void denial_prove(struct dnssec_denial *d, unsigned *hashes)
{
	static const uint8_t q[] = "\1a\1c\1x\1w\7example";
	int rc[5];
	size_t i;

	for (i = 0; i < 5; i++) {
		*hashes = FUZZ_HASHES;
		rc[i] = i == 0 ? dnssec_deny_name(d, q, sizeof q) :
		        i == 1 ? dnssec_deny_type(d, q, sizeof q, 1) :
		        i == 2 ? dnssec_deny_type(d, q, sizeof q, 43) :
		                 dnssec_deny_expanded(d, q, sizeof q,
		                                      (unsigned)i - 1);
		if (!denial_status_ok(rc[i]) || *hashes > FUZZ_HASHES)
			abort();
	}
}

/* The pieces as NSEC and NSEC3 records, and names compared. */
static void check_denial(const struct piece *pc, size_t n)
{
	static const uint8_t zone[] = "\7example";
	struct dnssec_nsec rr[FUZZ_DENIAL_RRS];
	struct dnssec_denial d;
	unsigned hashes = FUZZ_HASHES;
	size_t i, k = 0;
	int ab, ba;

	for (i = 0; i + 1 < n; i += 2) {
		rr[k].owner = pc[i].p;
		rr[k].ownerlen = pc[i].len;
		rr[k].rdata = pc[i + 1].p;
		rr[k].rdlen = pc[i + 1].len;
		rr[k].type = DNSSEC_TYPE_NSEC3;
		rr[k + 1] = rr[k];
		rr[k + 1].type = DNSSEC_TYPE_NSEC;
		k += 2;
		ab = dnssec_name_cmp(pc[i].p, pc[i].len, pc[i + 1].p,
		                     pc[i + 1].len);
		ba = dnssec_name_cmp(pc[i + 1].p, pc[i + 1].len, pc[i].p,
		                     pc[i].len);
		if ((ab < 0) != (ba > 0) || (ab == 0) != (ba == 0))
			abort();
		(void)dnssec_bitmap_has(pc[i + 1].p, pc[i + 1].len, 1);
	}
	d.rr = rr;
	d.count = k;
	d.zone = zone;
	d.zonelen = sizeof zone;
	d.max_iterations = DNSSEC_NSEC3_ITERATIONS_MAX;
	d.hashes = &hashes;
	denial_prove(&d, &hashes);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t a[FUZZ_SIGNED_MAX], b[FUZZ_SIGNED_MAX];
	struct piece pc[FUZZ_PIECES];
	size_t n = cut(data, size, pc), i;

	run(pc, n, a, b);
	check_denial(pc, n);
	for (i = 0; i < n; i++)
		free(pc[i].p);
	return 0;
}
