/*
 * resolver/anchor/autotrust.c - the RFC 5011 state machine of one
 * anchored zone (see autotrust.h): a probe's DNSKEY RRset moves each key
 * (key_seen for the keys in it, key_absent for the others), then the
 * times of the next probe are set.
 *
 * Bounds: at most AUTOTRUST_KEYS_MAX keys per zone (a new key past that
 * is not tracked), DNSSEC_RRSET_MAX records per set read, and the
 * signatures checked per probe are budgeted (AUTOTRUST_VERIFY_MAX).
 */
#include "autotrust.h"
#include "anchor_int.h"
#include "validate/dnssec_set.h"

#include <string.h>

/** Signature verifications one probe may spend: the trust check, then
 *  one self-signature check per revoked key. */
#define AUTOTRUST_VERIFY_MAX (2 * DNSSEC_VERIFY_MAX)

const char *autotrust_state_name(enum autotrust_state s)
{
	switch (s) {
	case AUTOTRUST_START: return "START";
	case AUTOTRUST_ADDPEND: return "ADDPEND";
	case AUTOTRUST_VALID: return "VALID";
	case AUTOTRUST_MISSING: return "MISSING";
	case AUTOTRUST_REVOKED: return "REVOKED";
	case AUTOTRUST_REMOVED: return "REMOVED";
	}
	return "?";
}

void autotrust_params_default(struct autotrust_params *p)
{
	p->add_holddown = AUTOTRUST_HOLDDOWN_DEFAULT;
	p->del_holddown = AUTOTRUST_HOLDDOWN_DEFAULT;
	p->keep_missing = AUTOTRUST_KEEP_MISSING_DEFAULT;
	p->permit_small = false;
}

uint32_t autotrust_holddown(const struct autotrust_params *p, uint32_t value)
{
	if (!p->permit_small && value < AUTOTRUST_HOLDDOWN_DEFAULT)
		return AUTOTRUST_HOLDDOWN_DEFAULT;
	return value;
}

uint32_t autotrust_interval(const struct autotrust_params *p, uint32_t ttl,
                            uint32_t expiry, bool retry)
{
	uint32_t div = retry ? 10u : 2u;
	uint32_t v = retry ? AUTOTRUST_RETRY_MAX : AUTOTRUST_PROBE_MAX;
	uint32_t lo = p->permit_small ? AUTOTRUST_PROBE_SMALL :
	                                AUTOTRUST_PROBE_MIN;

	if (ttl > 0 && ttl / div < v)
		v = ttl / div;
	if (expiry > 0 && expiry / div < v)
		v = expiry / div;
	return v < lo ? lo : v;
}

static uint16_t key_flags(const uint8_t *rd, size_t len)
{
	return len >= 2 ? (uint16_t)(rd[0] << 8 | rd[1]) : 0;
}

/* The same key, the REVOKE bit left out of the comparison. */
static bool key_same(const uint8_t *a, size_t alen, const uint8_t *b,
                     size_t blen)
{
	uint16_t fa = key_flags(a, alen), fb = key_flags(b, blen);

	return alen == blen && alen > 2 &&
	       (fa & ~DNSSEC_DNSKEY_FLAG_REVOKE) ==
	               (fb & ~DNSSEC_DNSKEY_FLAG_REVOKE) &&
	       memcmp(a + 2, b + 2, alen - 2) == 0;
}

static struct autotrust_key *key_find(struct autotrust_zone *z,
                                      const uint8_t *rd, size_t len)
{
	size_t i;

	for (i = 0; i < z->nkeys; i++)
		if (key_same(z->key[i].rdata, z->key[i].len, rd, len))
			return &z->key[i];
	return NULL;
}

static bool trusted_state(enum autotrust_state s)
{
	return s == AUTOTRUST_VALID || s == AUTOTRUST_MISSING;
}

size_t autotrust_trusted(const struct autotrust_zone *z)
{
	size_t i, n = 0;

	for (i = 0; i < z->nkeys; i++)
		if (trusted_state(z->key[i].state))
			n++;
	return n;
}

static void ev_add(struct autotrust_events *ev, uint16_t tag, bool ds,
                   enum autotrust_state from, enum autotrust_state to,
                   const char *why)
{
	struct autotrust_event *e;

	if (trusted_state(from) != trusted_state(to) || ds)
		ev->anchors_changed = true;
	if (ev->n >= AUTOTRUST_EVENTS_MAX)
		return;
	e = &ev->ev[ev->n++];
	e->tag = tag;
	e->ds = ds;
	e->from = from;
	e->to = to;
	e->why = why;
}

/* Move a key to a state (and log it). */
static void key_move(struct autotrust_key *k, enum autotrust_state to,
                     time_t now, struct autotrust_events *ev, const char *why)
{
	ev_add(ev, dnssec_key_tag(k->rdata, k->len), false, k->state, to, why);
	k->state = to;
	k->lastchange = now;
	k->count = 0;
}

/* Does the set verify with the zone's trusted keys (or its START DS)? */
static bool set_trusted(const struct autotrust_zone *z,
                        const struct dnssec_rrset *keys,
                        const struct dnssec_rdata *sigs, size_t nsigs,
                        time_t now, struct dnssec_work *w)
{
	struct dnssec_rdata ak[AUTOTRUST_KEYS_MAX], ds[ANCHOR_RR_MAX];
	struct dnssec_verdict v;
	size_t i, na = 0, nd = 0;

	for (i = 0; i < z->nkeys; i++)
		if (trusted_state(z->key[i].state)) {
			ak[na].msg = z->key[i].rdata;
			ak[na].msglen = ak[na].len = z->key[i].len;
			ak[na++].off = 0;
		}
	for (i = 0; na == 0 && i < z->nds; i++) {
		ds[nd].msg = z->ds[i].data;
		ds[nd].msglen = ds[nd].len = z->ds[i].len;
		ds[nd++].off = 0;
	}
	return dnssec_keys_verify(keys, sigs, nsigs, ds, nd, ak, na, now, w,
	                          &v) == DNSSEC_OK;
}

/* Does a key with the REVOKE bit sign the set itself (RFC 5011 s2.1)? */
static bool self_signed(const struct autotrust_zone *z,
                        const struct dnssec_rrset *keys,
                        const struct dnssec_rdata *key,
                        const struct dnssec_rdata *sigs, size_t nsigs,
                        time_t now, struct dnssec_work *w)
{
	struct dnssec_verdict v;

	return dnssec_set_verify(keys, sigs, nsigs, z->name, z->namelen, key,
	                         1, now, w, &v) == DNSSEC_OK;
}

/* The RDATA of record i of a set, or NULL when it lies outside. */
static const uint8_t *rd_of(const struct dnssec_rdata *r)
{
	if (r->off > r->msglen || r->len > r->msglen - r->off)
		return NULL;
	return r->msg + r->off;
}

/* A new SEP key: ADDPEND, or VALID when a START DS names it. */
static void key_new(struct autotrust_zone *z, const uint8_t *rd, size_t len,
                    uint32_t ttl, time_t now, struct autotrust_events *ev)
{
	struct autotrust_key *k;
	size_t i;
	bool ds = false;

	for (i = 0; i < z->nds && !ds; i++)
		ds = dnssec_ds_match(z->ds[i].data, z->ds[i].len, z->name,
		                     z->namelen, rd, len) == DNSSEC_OK;
	if (z->nkeys >= AUTOTRUST_KEYS_MAX || len > ANCHOR_RDATA_MAX)
		return;
	k = &z->key[z->nkeys++];
	memset(k, 0, sizeof *k);
	memcpy(k->rdata, rd, len);
	k->len = (uint16_t)len;
	k->ttl = ttl;
	k->state = AUTOTRUST_START;
	key_move(k, ds ? AUTOTRUST_VALID : AUTOTRUST_ADDPEND, now, ev,
	         ds ? "ds-match" : "new-key");
	k->count = 1;
}

/* A key of the set without the REVOKE bit, known as k. */
static void key_present(struct autotrust_key *k,
                        const struct autotrust_params *p, time_t now,
                        struct autotrust_events *ev)
{
	uint32_t hd = autotrust_holddown(p, p->add_holddown);

	switch (k->state) {
	case AUTOTRUST_START:
		key_move(k, AUTOTRUST_ADDPEND, now, ev, "new-key");
		k->count = 1;
		break;
	case AUTOTRUST_ADDPEND:
		k->count++;
		if (now - k->lastchange >= (time_t)hd && k->count >= 2)
			key_move(k, AUTOTRUST_VALID, now, ev, "add-holddown");
		break;
	case AUTOTRUST_MISSING:
		key_move(k, AUTOTRUST_VALID, now, ev, "key-back");
		break;
	default: break; /* VALID stays; REVOKED, REMOVED: never again */
	}
}

/* A key of the set with the REVOKE bit that signs the set itself. */
static void key_revoked(struct autotrust_key *k, const uint8_t *rd, size_t len,
                        time_t now, struct autotrust_events *ev)
{
	if (k->state == AUTOTRUST_REVOKED || k->state == AUTOTRUST_REMOVED)
		return;
	memcpy(k->rdata, rd, len); /* same length: key_same */
	key_move(k, AUTOTRUST_REVOKED, now, ev, "revoked");
}

/* One record of the set; seen[] marks the keys it is. */
static void key_seen(struct autotrust_zone *z,
                     const struct autotrust_params *p,
                     const struct dnssec_rrset *keys, size_t i,
                     const struct dnssec_rdata *sigs, size_t nsigs,
                     uint32_t ttl, time_t now, struct dnssec_work *w,
                     struct autotrust_events *ev, bool seen[])
{
	const uint8_t *rd = rd_of(&keys->rd[i]);
	size_t len = keys->rd[i].len;
	uint16_t fl = key_flags(rd, len);
	struct autotrust_key *k;

	if (rd == NULL || len <= DNSSEC_DNSKEY_FIXED_BYTES ||
	    !(fl & DNSSEC_DNSKEY_FLAG_ZONE))
		return;
	k = key_find(z, rd, len);
	if (fl & DNSSEC_DNSKEY_FLAG_REVOKE) {
		if (k == NULL ||
		    !self_signed(z, keys, &keys->rd[i], sigs, nsigs, now, w))
			return; /* not proven: as if not there */
		seen[k - z->key] = true;
		key_revoked(k, rd, len, now, ev);
		return;
	}
	if (k == NULL) {
		if (fl & DNSSEC_DNSKEY_FLAG_SEP) {
			key_new(z, rd, len, ttl, now, ev);
			if (z->nkeys > 0 &&
			    key_same(z->key[z->nkeys - 1].rdata,
			             z->key[z->nkeys - 1].len, rd, len))
				seen[z->nkeys - 1] = true;
		}
		return;
	}
	seen[k - z->key] = true;
	k->ttl = ttl;
	key_present(k, p, now, ev);
}

/* A key the set does not hold (or holds revoked without proof). */
static void key_absent(struct autotrust_zone *z, struct autotrust_key *k,
                       const struct autotrust_params *p, time_t now,
                       struct autotrust_events *ev)
{
	switch (k->state) {
	case AUTOTRUST_ADDPEND:
		key_move(k, AUTOTRUST_START, now, ev, "key-gone");
		break;
	case AUTOTRUST_VALID:
		key_move(k, AUTOTRUST_MISSING, now, ev, "key-gone");
		break;
	case AUTOTRUST_MISSING:
		/* never the last trust anchor (RFC 5011 s6, as Unbound) */
		if (p->keep_missing > 0 &&
		    now - k->lastchange >= (time_t)p->keep_missing &&
		    autotrust_trusted(z) > 1)
			key_move(k, AUTOTRUST_REMOVED, now, ev,
			         "keep-missing");
		break;
	default: break;
	}
}

/* Revoked keys past del-holddown are REMOVED; START keys and REMOVED
 * keys no longer published are forgotten. */
static void keys_tidy(struct autotrust_zone *z,
                      const struct autotrust_params *p, const bool seen[],
                      time_t now, struct autotrust_events *ev)
{
	uint32_t hd = autotrust_holddown(p, p->del_holddown);
	size_t i, n = 0;

	for (i = 0; i < z->nkeys; i++) {
		struct autotrust_key *k = &z->key[i];

		if (k->state == AUTOTRUST_REVOKED &&
		    now - k->lastchange >= (time_t)hd)
			key_move(k, AUTOTRUST_REMOVED, now, ev,
			         "del-holddown");
		if (!seen[i] && (k->state == AUTOTRUST_START ||
		                 k->state == AUTOTRUST_REMOVED)) {
			if (k->state == AUTOTRUST_REMOVED)
				ev_add(ev, dnssec_key_tag(k->rdata, k->len),
				       false, k->state, k->state, "forget");
			continue;
		}
		if (n != i)
			z->key[n] = *k;
		n++;
	}
	z->nkeys = n;
}

/* The seconds until the first RRSIG of the set expires (0: none), and
 * the least original TTL the RRSIGs give (*ottl untouched if none). */
static uint32_t sig_expiry(const struct autotrust_zone *z,
                           const struct dnssec_rdata *sigs, size_t nsigs,
                           time_t now, uint32_t *ottl)
{
	uint32_t best = 0, left, least = 0;
	struct dnssec_rrsig s;
	size_t i;

	for (i = 0; i < nsigs; i++) {
		const uint8_t *rd = rd_of(&sigs[i]);

		if (rd == NULL ||
		    dnssec_rrsig_parse(rd, sigs[i].len, &s) != DNSSEC_OK ||
		    s.type_covered != DNSSEC_TYPE_DNSKEY ||
		    !wire_name_equal(s.signer, s.signerlen, z->name,
		                     z->namelen))
			continue;
		left = s.expiration - (uint32_t)now; /* RFC 1982 */
		if (left > 0 && left < INT32_MAX && (best == 0 || left < best))
			best = left;
		if (s.orig_ttl > 0 && (least == 0 || s.orig_ttl < least))
			least = s.orig_ttl;
	}
	if (least > 0)
		*ottl = least;
	return best;
}

/* The keys of the set, the others, the DS once a key is VALID. */
static void keys_move(struct autotrust_zone *z,
                      const struct autotrust_params *p,
                      const struct dnssec_rrset *keys,
                      const struct dnssec_rdata *sigs, size_t nsigs,
                      uint32_t ttl, time_t now, struct dnssec_work *w,
                      struct autotrust_events *ev)
{
	bool seen[AUTOTRUST_KEYS_MAX] = { false };
	size_t i, known = z->nkeys;

	for (i = 0; i < keys->count && i < DNSSEC_RRSET_MAX; i++)
		key_seen(z, p, keys, i, sigs, nsigs, ttl, now, w, ev, seen);
	for (i = 0; i < known; i++)
		if (!seen[i])
			key_absent(z, &z->key[i], p, now, ev);
	keys_tidy(z, p, seen, now, ev);
	if (z->nds > 0 && autotrust_trusted(z) > 0) {
		for (i = 0; i < z->nds; i++)
			ev_add(ev,
			       (uint16_t)(z->ds[i].data[0] << 8 |
			                  z->ds[i].data[1]),
			       true, AUTOTRUST_START, AUTOTRUST_REMOVED,
			       "ds-done");
		z->nds = 0;
	}
	ev->revoked_all = autotrust_trusted(z) == 0 && z->nds == 0;
}

int autotrust_update(struct autotrust_zone *z,
                     const struct autotrust_params *p,
                     const struct dnssec_rrset *keys,
                     const struct dnssec_rdata *sigs, size_t nsigs,
                     uint32_t ttl, time_t now, struct autotrust_events *ev)
{
	struct dnssec_work w = { AUTOTRUST_VERIFY_MAX, AUTOTRUST_VERIFY_MAX,
		                 NULL, 0 };
	uint32_t expiry;

	memset(ev, 0, sizeof *ev);
	if (z == NULL || p == NULL || keys == NULL ||
	    !wire_name_equal(keys->owner, keys->ownerlen, z->name, z->namelen))
		return AUTOTRUST_EINVAL;
	if (!set_trusted(z, keys, sigs, nsigs, now, &w)) {
		autotrust_failed(z, p, now);
		return AUTOTRUST_EUNTRUSTED;
	}
	/* the zone's TTL, not the cache's clamped one (RFC 5011 s2.3) */
	expiry = sig_expiry(z, sigs, nsigs, now, &ttl);
	keys_move(z, p, keys, sigs, nsigs, ttl, now, &w, ev);
	z->last_queried = z->last_success = now;
	z->query_failed = 0;
	z->query_interval = autotrust_interval(p, ttl, expiry, false);
	z->retry_time = autotrust_interval(p, ttl, expiry, true);
	z->next_probe = now + (time_t)z->query_interval;
	return AUTOTRUST_OK;
}

void autotrust_failed(struct autotrust_zone *z,
                      const struct autotrust_params *p, time_t now)
{
	uint32_t ttl = z->nkeys > 0 ? z->key[0].ttl : z->ds_ttl;

	z->last_queried = now;
	z->query_failed++;
	/* no TTL known yet (a fresh file): an hour, not the day of the
	 * formula, so a start without network soon tries again */
	z->retry_time = ttl > 0 ? autotrust_interval(p, ttl, 0, true) :
	                          AUTOTRUST_PROBE_MIN;
	z->next_probe = now + (time_t)z->retry_time;
}

int autotrust_anchors_add(const struct autotrust_zone *z, struct anchors *a)
{
	size_t i, n = 0;
	int rc;

	for (i = 0; i < z->nkeys; i++) {
		if (!trusted_state(z->key[i].state))
			continue;
		rc = anchors_add_rr(a, z->name, z->namelen, DNSSEC_TYPE_DNSKEY,
		                    z->key[i].rdata, z->key[i].len);
		if (rc != ANCHOR_OK)
			return rc;
		n++;
	}
	for (i = 0; n == 0 && i < z->nds; i++) {
		rc = anchors_add_rr(a, z->name, z->namelen, WIRE_TYPE_DS,
		                    z->ds[i].data, z->ds[i].len);
		if (rc != ANCHOR_OK)
			return rc;
	}
	return n > 0 || z->nds > 0 ? ANCHOR_OK : ANCHOR_EEMPTY;
}
