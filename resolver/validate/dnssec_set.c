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

/* Fold one signature's failure into the verdict: the shared reason, or
 * "bad signature" when reasons differ. */
static void fold(int *acc, int rc)
{
	if (*acc == DNSSEC_ENOSIG)
		*acc = rc;
	else if (*acc != rc)
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

/* Try one RRSIG with the keys of its tag; DNSSEC_OK fills v. */
static int try_sig(const struct dnssec_rrset *set,
                   const struct dnssec_rrsig *sig, const uint8_t *zone,
                   size_t zonelen, const struct dnssec_rdata *keys,
                   size_t nkeys, time_t now, struct dnssec_work *w,
                   uint8_t *scratch, size_t cap, struct dnssec_verdict *v)
{
	int rc = DNSSEC_EKEYTAG;
	size_t i, tried = 0, slen = 0;

	for (i = 0; i < nkeys && tried < DNSSEC_KEYS_PER_TAG; i++) {
		const uint8_t *kd = rd_bytes(&keys[i]);
		struct dnssec_dnskey key;
		int k;

		if (kd == NULL ||
		    dnssec_dnskey_parse(kd, keys[i].len, &key) != DNSSEC_OK ||
		    key.tag != sig->tag || key.alg != sig->alg)
			continue;
		tried++;
		k = dnssec_rrsig_check(sig, set, zone, zonelen, &key, now);
		if (k == DNSSEC_OK && !dnssec_alg_supported(sig->alg))
			k = DNSSEC_EUNSUPPORTED_ALG;
		/* out of failures: the signatures are the fault (bogus, and
		 * cached so); out of verifications: the question's work */
		if (k == DNSSEC_OK && w->fail_left == 0)
			return DNSSEC_EBADSIG;
		if (k == DNSSEC_OK && w->verify_left == 0)
			return DNSSEC_EBUDGET;
		if (k == DNSSEC_OK) {
			w->verify_left--;
			k = verify_key(w, &key, sig, set, scratch, cap, &slen);
			if (k != DNSSEC_OK)
				w->fail_left--;
		}
		if (k == DNSSEC_OK) {
			uint32_t left = sig->expiration - (uint32_t)now;

			v->labels = sig->labels;
			v->tag = key.tag;
			v->ttl = sig->orig_ttl < left ? sig->orig_ttl : left;
			return DNSSEC_OK;
		}
		rc = k;
	}
	return rc;
}

int dnssec_set_verify(const struct dnssec_rrset *set,
                      const struct dnssec_rdata *sigs, size_t nsigs,
                      const uint8_t *zone, size_t zonelen,
                      const struct dnssec_rdata *keys, size_t nkeys,
                      time_t now, struct dnssec_work *w,
                      struct dnssec_verdict *v)
{
	uint8_t *scratch = NULL;
	size_t cap, i, tried = 0;
	int acc = DNSSEC_ENOSIG;
	bool other = false; /* signed, but by another zone */

	memset(v, 0, sizeof(*v));
	if (set == NULL || set->count == 0 || w == NULL ||
	    (nsigs > 0 && sigs == NULL) || (nkeys > 0 && keys == NULL))
		return v->status = DNSSEC_EINVAL;
	cap = signed_cap(set);
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
		if (scratch == NULL && (scratch = malloc(cap)) == NULL)
			return v->status = DNSSEC_ECRYPTO;
		rc = try_sig(set, &sig, zone, zonelen, keys, nkeys, now, w,
		             scratch, cap, v);
		if (rc == DNSSEC_OK || rc == DNSSEC_EBUDGET) {
			acc = rc;
			break;
		}
		fold(&acc, rc);
	}
	free(scratch);
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
	return dnssec_set_verify(keyset, sigs, nsigs, zone, keyset->ownerlen,
	                         trusted, n, now, w, v);
}
