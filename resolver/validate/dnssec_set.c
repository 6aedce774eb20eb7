/*
 * resolver/validate/dnssec_set.c - RRsets verified with a zone's keys, a
 * zone's keys verified with its DS set or anchor, within the caps of
 * dnssec_set.h.
 */
#include <stdlib.h>
#include <string.h>

#include "dnssec_set.h"

/* The bytes of one RDATA view, or NULL when it lies outside its buffer. */
static const uint8_t *rd_bytes(const struct dnssec_rdata *r)
{
	if (r->msg == NULL || r->off > r->msglen ||
	    r->len > r->msglen - r->off)
		return NULL;
	return r->msg + r->off;
}

/* Scratch enough for dnssec_signed_data over this set (dnssec.h). */
static size_t signed_cap(const struct dnssec_rrset *set)
{
	size_t cap = DNSSEC_RRSIG_FIXED_BYTES + WIRE_NAME_MAX, i;

	for (i = 0; i < set->count; i++)
		cap += WIRE_NAME_MAX + 10 +
		       2 * ((size_t)set->rd[i].len +
		            DNSSEC_RDATA_NAMES_MAX * WIRE_NAME_MAX);
	return cap;
}

/* What a failure tells of the RRset when no signature verifies: a
 * signature by a key not among those given (another key of the zone, or
 * one not vouched for by the DS) tells least, one outside its validity
 * period most (RFC 8914 has codes of its own for them). */
static int weight(int rc)
{
	switch (rc) {
	case DNSSEC_EKEYTAG: return 0;
	case DNSSEC_EEXPIRED:
	case DNSSEC_ENOTYET: return 2;
	default: return 1;
	}
}

/* Fold one signature's failure into the verdict: the weightiest reason;
 * among ordinary ones that differ, "bad signature". */
static void fold(int *acc, int rc)
{
	if (*acc == DNSSEC_ENOSIG || weight(rc) > weight(*acc))
		*acc = rc;
	else if (weight(rc) == 1 && weight(*acc) == 1 && *acc != rc)
		*acc = DNSSEC_EBADSIG;
}

/* Verify one signature with one key; the signed data is built once per
 * signature (*slen 0: not yet). */
static int verify_key(struct dnssec_work *w, const struct dnssec_dnskey *key,
                      const struct dnssec_rrsig *sig,
                      const struct dnssec_rrset *set, uint8_t *scratch,
                      size_t cap, size_t *slen)
{
	const struct dnssec_pubkey *pk = NULL;
	struct dnssec_pubkey *own = NULL;
	int rc = DNSSEC_OK;

	if (*slen == 0 && (rc = dnssec_signed_data(sig, set, scratch, cap,
	                                           slen)) != DNSSEC_OK) {
		*slen = 0;
		return rc;
	}
	if ((rc = dnssec_sig_fits(key, sig->siglen)) != DNSSEC_OK)
		return rc;
	if (w->keys != NULL) {
		rc = dnssec_keycache_get(w->keys, key, &pk);
	} else {
		rc = dnssec_pubkey_new(key, &own);
		pk = own;
	}
	if (rc == DNSSEC_OK)
		rc = dnssec_pubkey_verify(pk, sig->sig, sig->siglen, scratch,
		                          *slen);
	dnssec_pubkey_free(own);
	return rc;
}

/* One RRSIG being tried: its RRset, zone, time and budget, and the
 * scratch its signed data is built in once (slen 0: not yet). */
struct sig_try {
	const struct dnssec_rrset *set;
	const uint8_t *zone;
	size_t zonelen;
	time_t now;
	struct dnssec_work *w;
	uint8_t *scratch;
	size_t cap, slen;
	int setrc; /**< dnssec_rrsig_check_set's, once a signature */
	bool set_checked;
};

/* Try the RRSIG with one key of its tag; DNSSEC_OK fills v. */
static int try_key(struct sig_try *t, const struct dnssec_rrsig *sig,
                   const struct dnssec_dnskey *key, struct dnssec_verdict *v)
{
	struct dnssec_work *w = t->w;
	uint32_t left;
	int k;

	/* the RRSIG's own checks once, however many keys share its tag */
	if (!t->set_checked) {
		t->setrc = dnssec_rrsig_check_set(sig, t->set, t->zone,
		                                  t->zonelen, t->now);
		t->set_checked = true;
	}
	k = t->setrc;
	if (k == DNSSEC_OK)
		k = dnssec_rrsig_check_key(sig, key);
	if (k == DNSSEC_OK && !dnssec_alg_supported(sig->alg))
		k = DNSSEC_EUNSUPPORTED_ALG;
	if (k != DNSSEC_OK)
		return k;
	/* out of failures: the signatures are the fault (bogus, and cached
	 * so); out of verifications: the question's work */
	if (w->fail_left == 0)
		return DNSSEC_EFAILCAP;
	if (w->verify_left == 0)
		return DNSSEC_EBUDGET;
	w->verify_left--;
	k = verify_key(w, key, sig, t->set, t->scratch, t->cap, &t->slen);
	if (k != DNSSEC_OK) {
		w->fail_left--;
		return k;
	}
	left = sig->expiration - (uint32_t)t->now;
	v->labels = sig->labels;
	v->tag = key->tag;
	v->ttl = sig->orig_ttl < left ? sig->orig_ttl : left;
	w->good = base_fnv1a(key->rdata, key->rdlen, 0);
	return DNSSEC_OK;
}

/* Key r parsed into *key if it has the RRSIG's tag and algorithm. */
static bool key_of(const struct dnssec_rdata *r,
                   const struct dnssec_rrsig *sig, struct dnssec_dnskey *key)
{
	const uint8_t *kd = rd_bytes(r);

	return kd != NULL &&
	       dnssec_dnskey_parse(kd, r->len, key) == DNSSEC_OK &&
	       key->tag == sig->tag && key->alg == sig->alg;
}

/* Try one RRSIG with the keys of its tag, the key that verified last for
 * the question first (keys sharing a tag then cost their failures once
 * a question, not once an RRset); DNSSEC_OK fills v. */
static int try_sig(struct sig_try *t, const struct dnssec_rrsig *sig,
                   const struct dnssec_rdata *keys, size_t nkeys,
                   struct dnssec_verdict *v)
{
	int rc = DNSSEC_EKEYTAG;
	size_t i, tried = 0;
	int pass;

	for (pass = t->w->good != 0 ? 0 : 1; pass < 2; pass++) {
		for (i = 0; i < nkeys && tried < DNSSEC_KEYS_PER_TAG; i++) {
			struct dnssec_dnskey key;
			bool good;
			int k;

			if (!key_of(&keys[i], sig, &key))
				continue;
			/* no key verified yet: no hash to compare */
			good = t->w->good != 0 &&
			       base_fnv1a(key.rdata, key.rdlen, 0) ==
			               t->w->good;
			if (good != (pass == 0))
				continue;
			tried++;
			k = try_key(t, sig, &key, v);
			if (k == DNSSEC_OK || k == DNSSEC_EFAILCAP ||
			    k == DNSSEC_EBUDGET)
				return k;
			rc = k;
		}
	}
	return tried == DNSSEC_KEYS_PER_TAG ? DNSSEC_EFAILCAP : rc;
}

int dnssec_set_verify(const struct dnssec_rrset *set,
                      const struct dnssec_rdata *sigs, size_t nsigs,
                      const uint8_t *zone, size_t zonelen,
                      const struct dnssec_rdata *keys, size_t nkeys,
                      time_t now, struct dnssec_work *w,
                      struct dnssec_verdict *v)
{
	struct sig_try t = {
		set, zone, zonelen, now, w, NULL, 0, 0, 0, false
	};
	size_t i, tried = 0;
	int acc = DNSSEC_ENOSIG;
	bool other = false; /* signed, but by another zone */

	memset(v, 0, sizeof(*v));
	if (set == NULL || set->count == 0 || w == NULL ||
	    (nsigs > 0 && sigs == NULL) || (nkeys > 0 && keys == NULL))
		return v->status = DNSSEC_EINVAL;
	t.cap = signed_cap(set);
	for (i = 0; i < nsigs && tried < DNSSEC_SIGS_PER_SET; i++) {
		const uint8_t *sd = rd_bytes(&sigs[i]);
		struct dnssec_rrsig sig;
		int rc;

		if (sd == NULL ||
		    dnssec_rrsig_parse(sd, sigs[i].len, &sig) != DNSSEC_OK ||
		    sig.type_covered != set->type)
			continue;
		if (!wire_name_equal(sig.signer, sig.signerlen, zone,
		                     zonelen)) {
			other = true;
			continue;
		}
		tried++;
		if (t.scratch == NULL && (t.scratch = malloc(t.cap)) == NULL)
			return v->status = DNSSEC_ECRYPTO;
		t.slen = 0;
		t.set_checked = false;
		rc = try_sig(&t, &sig, keys, nkeys, v);
		if (rc == DNSSEC_OK || rc == DNSSEC_EBUDGET ||
		    rc == DNSSEC_EFAILCAP) {
			acc = rc;
			break;
		}
		fold(&acc, rc);
	}
	free(t.scratch);
	if (tried == 0 && other)
		acc = DNSSEC_ESIGNER;
	return v->status = acc;
}

int dnssec_ds_usable(const struct dnssec_rdata *ds, size_t nds)
{
	int rc = DNSSEC_EUNSUPPORTED_DIGEST;
	size_t i;

	for (i = 0; i < nds; i++) {
		const uint8_t *d = rd_bytes(&ds[i]);
		struct dnssec_ds p;

		if (d == NULL ||
		    dnssec_ds_parse(d, ds[i].len, &p) != DNSSEC_OK)
			continue;
		if (!dnssec_digest_supported(p.digest_type))
			rc = DNSSEC_EUNSUPPORTED_DIGEST;
		else if (!dnssec_alg_supported(p.alg))
			rc = DNSSEC_EUNSUPPORTED_ALG;
		else
			return DNSSEC_OK;
	}
	return rc;
}

/* Whether a DNSKEY may anchor its set: a zone key, not revoked, named by
 * a usable DS or equal to an anchor key. */
static bool key_trusted(const struct dnssec_rrset *keyset,
                        const struct dnssec_rdata *kr,
                        const struct dnssec_rdata *ds, size_t nds,
                        const struct dnssec_rdata *akeys, size_t nakeys)
{
	const uint8_t *kd = rd_bytes(kr);
	struct dnssec_dnskey key;
	size_t i;

	if (kd == NULL ||
	    dnssec_dnskey_parse(kd, kr->len, &key) != DNSSEC_OK ||
	    !(key.flags & DNSSEC_DNSKEY_FLAG_ZONE) ||
	    (key.flags & DNSSEC_DNSKEY_FLAG_REVOKE))
		return false;
	for (i = 0; i < nakeys; i++) {
		const uint8_t *a = rd_bytes(&akeys[i]);

		if (a != NULL && akeys[i].len == kr->len &&
		    memcmp(a, kd, kr->len) == 0)
			return true;
	}
	for (i = 0; i < nds; i++) {
		const uint8_t *d = rd_bytes(&ds[i]);

		if (d != NULL && dnssec_ds_match(d, ds[i].len, keyset->owner,
		                                 keyset->ownerlen, kd,
		                                 kr->len) == DNSSEC_OK)
			return true;
	}
	return false;
}

/* Whether an anchor key has an algorithm this resolver implements. */
static bool anchor_usable(const struct dnssec_rdata *akeys, size_t nakeys)
{
	size_t i;

	for (i = 0; i < nakeys; i++) {
		const uint8_t *a = rd_bytes(&akeys[i]);
		struct dnssec_dnskey key;

		if (a != NULL &&
		    dnssec_dnskey_parse(a, akeys[i].len, &key) == DNSSEC_OK &&
		    dnssec_alg_supported(key.alg))
			return true;
	}
	return false;
}

int dnssec_keys_verify(const struct dnssec_rrset *keyset,
                       const struct dnssec_rdata *sigs, size_t nsigs,
                       const struct dnssec_rdata *ds, size_t nds,
                       const struct dnssec_rdata *akeys, size_t nakeys,
                       time_t now, struct dnssec_work *w,
                       struct dnssec_verdict *v)
{
	struct dnssec_rdata trusted[DNSSEC_SIGS_PER_SET];
	uint8_t zone[WIRE_NAME_MAX];
	size_t n = 0, i;
	int rc;

	memset(v, 0, sizeof(*v));
	if (keyset == NULL || keyset->ownerlen > WIRE_NAME_MAX)
		return v->status = DNSSEC_EINVAL;
	if (nakeys == 0 && (rc = dnssec_ds_usable(ds, nds)) != DNSSEC_OK)
		return v->status = rc;
	for (i = 0; i < keyset->count && n < DNSSEC_SIGS_PER_SET; i++)
		if (key_trusted(keyset, &keyset->rd[i], ds, nds, akeys,
		                nakeys))
			trusted[n++] = keyset->rd[i];
	if (n == 0)
		return v->status = DNSSEC_EMISMATCH;
	memcpy(zone, keyset->owner, keyset->ownerlen);
	wire_name_lower(zone, keyset->ownerlen);
	rc = dnssec_set_verify(keyset, sigs, nsigs, zone, keyset->ownerlen,
	                       trusted, n, now, w, v);
	/* a usable DS (or anchor key) says the zone signs with an
	 * implemented algorithm: signatures by others alone leave it
	 * unproven, not insecure (RFC 4035 s5.2; a stripped RRSIG) */
	if (rc == DNSSEC_EUNSUPPORTED_ALG &&
	    (nakeys == 0 || anchor_usable(akeys, nakeys)))
		rc = DNSSEC_ENOSIG;
	return v->status = rc;
}

/* Ascending order of (algorithm, key tag) pairs, for qsort. */
static int tag_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

bool dnssec_keys_collide(const struct dnssec_rdata *keys, size_t nkeys)
{
	uint32_t tags[DNSSEC_RRSET_MAX];
	size_t i, n = 0, run = 0;

	for (i = 0; i < nkeys && n < DNSSEC_RRSET_MAX; i++) {
		const uint8_t *kd = rd_bytes(&keys[i]);
		struct dnssec_dnskey key;

		if (kd != NULL &&
		    dnssec_dnskey_parse(kd, keys[i].len, &key) == DNSSEC_OK)
			tags[n++] = (uint32_t)key.alg << 16 | key.tag;
	}
	if (n < DNSSEC_KEYS_PER_TAG)
		return false;
	qsort(tags, n, sizeof tags[0], tag_cmp);
	for (i = 0; i < n; i++) {
		run = i > 0 && tags[i] == tags[i - 1] ? run + 1 : 1;
		if (run >= DNSSEC_KEYS_PER_TAG)
			return true;
	}
	return false;
}
