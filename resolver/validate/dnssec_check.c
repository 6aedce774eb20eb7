/*
 * resolver/validate/dnssec_check.c - the RRSIG checks of RFC 4035 section
 * 5.3.1 that need no chain, and one RRSIG verified from end to end.
 */
#include "dnssec.h"

/* Is anc the name itself or one of its ancestors (both valid wire names,
 * compared without case)? */
static int name_under(const uint8_t *name, size_t len, const uint8_t *anc,
                      size_t anclen)
{
	size_t pos = 0;

	for (;;) {
		if (len - pos == anclen &&
		    wire_name_equal(name + pos, len - pos, anc, anclen))
			return 1;
		if (name[pos] == 0)
			return 0;
		pos += (size_t)name[pos] + 1;
	}
}

/* a <= b in serial-number arithmetic (RFC 1982, 32 bits). */
static int serial_le(uint32_t a, uint32_t b)
{
	return (int32_t)(b - a) >= 0;
}

/* The checks of the RRSIG against its RRset and zone. */
static int check_rrsig(const struct dnssec_rrsig *sig,
                       const struct dnssec_rrset *set, const uint8_t *zone,
                       size_t zonelen, uint32_t now)
{
	int labels = dnssec_name_labels(set->owner, set->ownerlen);

	if (labels < 0 || wire_name_check(zone, zonelen) != WIRE_OK)
		return DNSSEC_EFORMAT;
	if (!wire_name_equal(sig->signer, sig->signerlen, zone, zonelen) ||
	    !name_under(set->owner, set->ownerlen, zone, zonelen))
		return DNSSEC_ESIGNER;
	if (sig->type_covered != set->type)
		return DNSSEC_ETYPE;
	if (sig->labels > labels)
		return DNSSEC_ELABELS;
	/* a validity period that ends at or before it starts is no period:
	 * with both ends compared to now alone, one longer than 2^31 s
	 * would pass (serial order is not transitive) */
	if (serial_le(sig->expiration, sig->inception))
		return DNSSEC_EVALIDITY;
	if (!serial_le(sig->inception, now))
		return DNSSEC_ENOTYET;
	if (!serial_le(now, sig->expiration))
		return DNSSEC_EEXPIRED;
	return DNSSEC_OK;
}

/* The checks of the DNSKEY against the RRSIG. */
static int check_key(const struct dnssec_rrsig *sig,
                     const struct dnssec_dnskey *key)
{
	if (key->protocol != DNSSEC_DNSKEY_PROTOCOL)
		return DNSSEC_EPROTOCOL;
	if (!(key->flags & DNSSEC_DNSKEY_FLAG_ZONE))
		return DNSSEC_ENOTZONEKEY;
	if (key->alg != sig->alg)
		return DNSSEC_EALGMISMATCH;
	if (key->tag != sig->tag)
		return DNSSEC_EKEYTAG;
	return DNSSEC_OK;
}

int dnssec_rrsig_check_set(const struct dnssec_rrsig *sig,
                           const struct dnssec_rrset *set, const uint8_t *zone,
                           size_t zonelen, time_t now)
{
	if (sig == NULL || set == NULL || set->owner == NULL || zone == NULL)
		return DNSSEC_EINVAL;
	return check_rrsig(sig, set, zone, zonelen, (uint32_t)now);
}

int dnssec_rrsig_check_key(const struct dnssec_rrsig *sig,
                           const struct dnssec_dnskey *key)
{
	if (sig == NULL || key == NULL)
		return DNSSEC_EINVAL;
	return check_key(sig, key);
}

int dnssec_rrsig_check(const struct dnssec_rrsig *sig,
                       const struct dnssec_rrset *set, const uint8_t *zone,
                       size_t zonelen, const struct dnssec_dnskey *key,
                       time_t now)
{
	int rc;

	if (key == NULL)
		return DNSSEC_EINVAL;
	rc = dnssec_rrsig_check_set(sig, set, zone, zonelen, now);
	if (rc == DNSSEC_OK)
		rc = check_key(sig, key);
	return rc;
}

int dnssec_rrset_verify(const struct dnssec_rrset *set,
                        const uint8_t *sig_rdata, size_t sig_len,
                        const uint8_t *zone, size_t zonelen,
                        const uint8_t *key_rdata, size_t key_len, time_t now,
                        uint8_t *scratch, size_t cap)
{
	struct dnssec_pubkey *pk = NULL;
	struct dnssec_rrsig sig;
	struct dnssec_dnskey key;
	size_t len = 0;
	int rc;

	rc = dnssec_rrsig_parse(sig_rdata, sig_len, &sig);
	if (rc == DNSSEC_OK)
		rc = dnssec_dnskey_parse(key_rdata, key_len, &key);
	if (rc == DNSSEC_OK)
		rc = dnssec_rrsig_check(&sig, set, zone, zonelen, &key, now);
	if (rc == DNSSEC_OK && !dnssec_alg_supported(sig.alg))
		rc = DNSSEC_EUNSUPPORTED_ALG;
	if (rc == DNSSEC_OK)
		rc = dnssec_signed_data(&sig, set, scratch, cap, &len);
	if (rc == DNSSEC_OK)
		rc = dnssec_pubkey_new(&key, &pk);
	if (rc == DNSSEC_OK)
		rc = dnssec_pubkey_verify(pk, sig.sig, sig.siglen, scratch,
		                          len);
	dnssec_pubkey_free(pk);
	return rc;
}
