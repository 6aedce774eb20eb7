/*
 * resolver/validate/dnssec_keycache.c - public keys built once per
 * DNSKEY RDATA (dnssec_set.h): building a libcrypto key (an RSA modulus,
 * an elliptic-curve point checked to lie on its curve) costs as much as
 * a verification for some algorithms, and a zone's few keys verify every
 * RRset of the zone.
 */
#include <stdlib.h>
#include <string.h>

#include "dnssec_set.h"

/** One kept key. */
struct kc_slot {
	uint64_t hash;
	uint8_t *rdata; /**< a copy of the DNSKEY RDATA, NULL: empty */
	size_t len;
	struct dnssec_pubkey *pk;
};

struct dnssec_keycache {
	size_t n;
	uint64_t hits, builds;
	struct kc_slot slot[];
};

int dnssec_keycache_new(struct dnssec_keycache **out, size_t slots)
{
	struct dnssec_keycache *kc;

	if (out == NULL || slots == 0 ||
	    slots > (SIZE_MAX - sizeof(*kc)) / sizeof(struct kc_slot))
		return DNSSEC_EINVAL;
	kc = calloc(1, sizeof(*kc) + slots * sizeof(struct kc_slot));
	if (kc == NULL)
		return DNSSEC_ECRYPTO;
	kc->n = slots;
	*out = kc;
	return DNSSEC_OK;
}

static void kc_clear(struct kc_slot *s)
{
	dnssec_pubkey_free(s->pk);
	free(s->rdata);
	memset(s, 0, sizeof(*s));
}

void dnssec_keycache_free(struct dnssec_keycache *kc)
{
	size_t i;

	if (kc == NULL)
		return;
	for (i = 0; i < kc->n; i++)
		kc_clear(&kc->slot[i]);
	free(kc);
}

int dnssec_keycache_get(struct dnssec_keycache *kc,
                        const struct dnssec_dnskey *k,
                        const struct dnssec_pubkey **out)
{
	struct dnssec_pubkey *pk = NULL;
	struct kc_slot *s;
	uint64_t h;
	int rc;

	if (kc == NULL || k == NULL || out == NULL || k->rdata == NULL)
		return DNSSEC_EINVAL;
	h = base_fnv1a(k->rdata, k->rdlen, 0);
	s = &kc->slot[h % kc->n];
	if (s->rdata != NULL && s->hash == h && s->len == k->rdlen &&
	    memcmp(s->rdata, k->rdata, k->rdlen) == 0) {
		kc->hits++;
		*out = s->pk;
		return DNSSEC_OK;
	}
	rc = dnssec_pubkey_new(k, &pk);
	if (rc != DNSSEC_OK)
		return rc;
	kc_clear(s);
	kc->builds++;
	s->rdata = malloc(k->rdlen > 0 ? k->rdlen : 1);
	if (s->rdata == NULL) {
		dnssec_pubkey_free(pk);
		return DNSSEC_ECRYPTO;
	}
	memcpy(s->rdata, k->rdata, k->rdlen);
	s->len = k->rdlen;
	s->hash = h;
	s->pk = pk;
	*out = pk;
	return DNSSEC_OK;
}

void dnssec_keycache_counts(const struct dnssec_keycache *kc, uint64_t *hits,
                            uint64_t *builds)
{
	*hits = kc != NULL ? kc->hits : 0;
	*builds = kc != NULL ? kc->builds : 0;
}
