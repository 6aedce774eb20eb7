/*
 * resolver/iter/iter_val.c - DNSSEC validation of what a reply brings
 * (RFC 4035 section 5): each RRset about to be cached is verified with
 * the keys of the zone that was asked, when that zone is SECURE
 * (iter_trust.c settled it before the query went out); negative answers
 * need their SOA signed and an NSEC/NSEC3 proof (validate/denial.h); a
 * referral's DS RRset, or its proof that there is none, decides the
 * trust of the zone below.
 *
 * Statuses go to the cache with the data (enum cache_sec) and, for the
 * client's answer, into the request (iter_val_note): BOGUS if any part
 * is, else the least of its parts. The reason of the first failure is
 * kept as an Extended DNS Error (RFC 8914).
 */
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "conf/cfg.h"
#include "iter_int.h"
#include "base/log.h"
#include "wire/rrtext.h"
#include "anchor/anchor.h"
#include "validate/denial.h"
#include "validate/dnssec_set.h"

/** NSEC/NSEC3 records used for one proof. */
#define ITER_PROOF_MAX 32
/** How long bogus data is cached when the config says nothing. */
#define ITER_BOGUS_TTL_DEFAULT 60u

/* RFC 8914 INFO-CODEs. */
#define EDE_OTHER 0
#define EDE_UNSUPPORTED_ALG 1
#define EDE_UNSUPPORTED_DIGEST 2
#define EDE_BOGUS 6
#define EDE_EXPIRED 7
#define EDE_NOT_YET 8
#define EDE_DNSKEY_MISSING 9
#define EDE_RRSIGS_MISSING 10
#define EDE_NSEC_MISSING 12
#define EDE_EXPIRED_BEFORE_VALID 25 /* IANA, for Unbound */
#define EDE_NSEC3_ITERATIONS 27

bool iter_img_add(struct iter_img *img, const uint8_t *owner, size_t ownerlen,
                  uint16_t type, uint32_t ttl, const uint8_t *rdata,
                  size_t rdlen)
{
	if (img == NULL || img->buf == NULL || img->count == UINT16_MAX ||
	    !answer_rr_append(img->buf, img->cap, &img->len, owner, ownerlen,
	                      type, WIRE_CLASS_IN, ttl, rdata, rdlen))
		return false;
	img->count++;
	return true;
}

/* Whether rr is an RRSIG at owner covering type. */
static bool iter_sig_for(const struct wire_msg *m, const struct wire_rr *rr,
                         const uint8_t *owner, size_t ownerlen, uint16_t type)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t nlen;

	return rr->type == WIRE_TYPE_RRSIG && rr->rclass == WIRE_CLASS_IN &&
	       rr->rdlen >= 2 &&
	       ((uint16_t)(m->buf[rr->rdata] << 8 | m->buf[rr->rdata + 1])) ==
	               type &&
	       iter_rr_owner(m, rr, name, &nlen) &&
	       wire_name_equal(name, nlen, owner, ownerlen);
}

static void iter_section_range(const struct wire_msg *m, enum wire_section sec,
                               size_t *from, size_t *to)
{
	*from = sec == WIRE_SECTION_ANSWER    ? 0 :
	        sec == WIRE_SECTION_AUTHORITY ? m->an :
	                                        m->an + m->ns;
	*to = sec == WIRE_SECTION_ANSWER    ? m->an :
	      sec == WIRE_SECTION_AUTHORITY ? m->an + m->ns :
	                                      m->an + m->ns + m->ar;
}

/* The RRSIG RDATAs at owner covering type, as views into the message. */
static size_t iter_sigs(const struct wire_msg *m, enum wire_section sec,
                        const uint8_t *owner, size_t ownerlen, uint16_t type,
                        struct dnssec_rdata *out, size_t cap)
{
	size_t from, to, i, n = 0;

	iter_section_range(m, sec, &from, &to);
	for (i = from; i < to && n < cap; i++) {
		const struct wire_rr *rr = &m->rr[i];

		if (!iter_sig_for(m, rr, owner, ownerlen, type))
			continue;
		out[n].msg = m->buf;
		out[n].msglen = m->len;
		out[n].off = rr->rdata;
		out[n].len = rr->rdlen;
		n++;
	}
	return n;
}

void iter_img_sigs(struct iter_img *img, const struct wire_msg *m,
                   enum wire_section sec, const uint8_t *owner,
                   size_t ownerlen, uint16_t type)
{
	size_t from, to, i, n = 0;

	iter_section_range(m, sec, &from, &to);
	for (i = from; i < to && n < ITER_IMG_SIGS_MAX; i++) {
		const struct wire_rr *rr = &m->rr[i];

		if (!iter_sig_for(m, rr, owner, ownerlen, type))
			continue;
		n++;
		(void)iter_img_add(img, owner, ownerlen, WIRE_TYPE_RRSIG,
		                   rr->ttl, m->buf + rr->rdata, rr->rdlen);
	}
}

/* The EDE code that tells a validation failure. */
static uint16_t iter_ede_of(int status)
{
	switch (status) {
	case DNSSEC_EUNSUPPORTED_ALG: return EDE_UNSUPPORTED_ALG;
	case DNSSEC_EUNSUPPORTED_DIGEST: return EDE_UNSUPPORTED_DIGEST;
	case DNSSEC_EEXPIRED: return EDE_EXPIRED;
	case DNSSEC_ENOTYET: return EDE_NOT_YET;
	case DNSSEC_EVALIDITY: return EDE_EXPIRED_BEFORE_VALID;
	case DNSSEC_EKEYTAG:
	case DNSSEC_EMISMATCH: return EDE_DNSKEY_MISSING;
	case DNSSEC_ENOSIG: return EDE_RRSIGS_MISSING;
	case DNSSEC_EUNSUPPORTED_HASH: /* such NSEC3 are ignored */
	case DNSSEC_ENOPROOF: return EDE_NSEC_MISSING;
	case DNSSEC_EITERATIONS: return EDE_NSEC3_ITERATIONS;
	case DNSSEC_EBUDGET: return EDE_OTHER;
	default: return EDE_BOGUS;
	}
}

void iter_val_note(struct iter_req *req, uint8_t sec, int status)
{
	if (!req->val_ede && status != DNSSEC_OK &&
	    (sec == CACHE_SEC_BOGUS || sec == CACHE_SEC_INSECURE)) {
		req->val_ede = true;
		req->val_ede_code = iter_ede_of(status);
		req->val_ede_text = dnssec_strerror(status);
	}
	if (!req->val_any || sec == CACHE_SEC_BOGUS)
		req->val_sec = sec;
	else if (req->val_sec != CACHE_SEC_BOGUS && sec < req->val_sec)
		req->val_sec = sec;
	req->val_any = true;
}

int iter_val_lost(struct iter_req *req, const char *why)
{
	/* not the data's fault: the cap's path (SERVFAIL, nothing cached
	 * as bogus), with a reason of its own */
	if (!req->val_ede) {
		req->val_ede = true;
		req->val_ede_code = EDE_OTHER;
		req->val_ede_text = why;
	}
	return DNSSEC_EBUDGET;
}

void iter_val_cache_why(struct iter_req *req, const uint8_t *name, size_t len,
                        uint16_t type, uint8_t sec, int status)
{
	struct cache_query q = { name, len, type, req->frame[0]->qclass, 0 };

	if (sec == CACHE_SEC_BOGUS && status != DNSSEC_OK &&
	    status != DNSSEC_EBUDGET)
		(void)cache_bogus_ede(req->env->cache, &q, req->now.wall,
		                      (uint8_t)iter_ede_of(status));
}

void iter_val_cache_set(struct iter_req *req, const struct cache_rrset *set,
                        int status)
{
	(void)cache_rrset_put_via(req->env->cache, set, req->now.wall,
	                          (enum cache_via)req->via);
	iter_val_cache_why(req, set->name, set->name_len, set->type,
	                   (uint8_t)set->sec, status);
}

uint32_t iter_bogus_ttl(const struct iter_req *req)
{
	const struct cfg *c = req->env->cfg;

	return c != NULL ? c->val_bogus_ttl : ITER_BOGUS_TTL_DEFAULT;
}

/* The zone's validated keys from the cache, as views into buf. */
static size_t iter_keys(struct iter_req *req, const uint8_t *zone,
                        size_t zonelen, uint8_t *buf, size_t cap,
                        struct dnssec_rdata *out, size_t max,
                        struct cache_answer *ans)
{
	struct cache_query q = { zone, zonelen, WIRE_TYPE_DNSKEY,
		                 WIRE_CLASS_IN, 0 };
	struct answer_rr rr;
	size_t pos = 0, n = 0;

	if (cache_get(req->env->cache, &q, req->now.wall, ans, buf, cap) !=
	    CACHE_OK) {
		ans->sec = CACHE_SEC_UNCHECKED;
		return 0;
	}
	if (ans->kind != CACHE_KIND_RRSET || ans->sec != CACHE_SEC_SECURE)
		return 0;
	while (n < max && answer_rr_next(buf, ans->len, &pos, &rr)) {
		out[n].msg = buf;
		out[n].msglen = ans->len;
		out[n].off = rr.rdata;
		out[n].len = rr.rdlen;
		n++;
	}
	return n;
}

/* Verify an RRset (standalone RDATAs) with the zone's cached keys. */
static int iter_verify(struct iter_req *req, const uint8_t *zone,
                       size_t zonelen, const struct dnssec_rrset *set,
                       const struct dnssec_rdata *sigs, size_t nsigs,
                       struct dnssec_verdict *v)
{
	struct dnssec_rdata keys[ITER_RRSET_MAX];
	uint8_t *buf = malloc(ITER_RDATA_BYTES);
	struct cache_answer ans;
	size_t nkeys;
	int rc;

	memset(v, 0, sizeof(*v));
	if (buf == NULL)
		return v->status = iter_val_lost(req, ITER_WHY_KEYS_LOST);
	nkeys = iter_keys(req, zone, zonelen, buf, ITER_RDATA_BYTES, keys,
	                  ITER_RRSET_MAX, &ans);
	if (nkeys == 0) {
		/* held bogus since for the failure cap (another question
		 * met KeyTrap's shape): that verdict; else the zone was
		 * SECURE, but its keys left the cache (evicted under load)
		 * or were replaced since: a failure, not bogus */
		rc = ans.sec == CACHE_SEC_BOGUS ?
		             iter_trust_keys_held(req, zone, zonelen, buf) :
		             DNSSEC_OK;
		free(buf);
		return v->status = rc != DNSSEC_OK ?
		                           rc :
		                           iter_val_lost(req,
		                                         ITER_WHY_KEYS_LOST);
	}
	rc = dnssec_set_verify(set, sigs, nsigs, zone, zonelen, keys, nkeys,
	                       req->now.wall, &req->val_work, v);
	if (rc == DNSSEC_EFAILCAP)
		iter_trust_keys_capped(req, zone, zonelen, keys, nkeys);
	free(buf);
	return rc;
}

/* Verify the RRset of rd[] at owner from a reply section. */
static int iter_verify_rd(struct iter_req *req, const uint8_t *zone,
                          size_t zonelen, const struct wire_msg *m,
                          enum wire_section sec, const uint8_t *owner,
                          size_t ownerlen, uint16_t type,
                          const struct cache_rdata *rd, size_t n,
                          struct dnssec_verdict *v)
{
	struct dnssec_rdata *views = calloc(n > 0 ? n : 1, sizeof(*views));
	struct dnssec_rdata sigs[DNSSEC_SIGS_PER_SET];
	struct dnssec_rrset set = { owner,         ownerlen, type,
		                    WIRE_CLASS_IN, views,    n };
	size_t i, nsigs;
	int rc;

	if (views == NULL)
		return DNSSEC_ECRYPTO;
	for (i = 0; i < n; i++) {
		views[i].msg = rd[i].data;
		views[i].msglen = rd[i].len;
		views[i].off = 0;
		views[i].len = (uint16_t)rd[i].len;
	}
	nsigs = iter_sigs(m, sec, owner, ownerlen, type, sigs,
	                  DNSSEC_SIGS_PER_SET);
	rc = iter_verify(req, zone, zonelen, &set, sigs, nsigs, v);
	free(views);
	return rc;
}

/* NSEC/NSEC3 records of a reply's authority section, each verified. */
struct iter_proof {
	struct dnssec_nsec rr[ITER_PROOF_MAX];
	uint8_t owner[ITER_PROOF_MAX][WIRE_NAME_MAX];
	size_t n;
	uint32_t ttl; /**< least TTL of the records kept */
	int status;   /**< why a record was left out, else DNSSEC_OK */
};

/* Per worker: what one request's reply's authority records concluded. */
struct iter_vmemo {
	uint64_t stamp; /**< bumped each time another reply takes it */
	uint8_t zone[WIRE_NAME_MAX];
	size_t zonelen;
	uint8_t known[ITER_VMEMO_MAX];
	int16_t rc[ITER_VMEMO_MAX];
};

static _Thread_local struct iter_vmemo iter_vmemo_t;

/* The memo of req's reply m under zone; else emptied, taken, restamped. */
static struct iter_vmemo *iter_vmemo_for(struct iter_req *req,
                                         const uint8_t *zone, size_t zonelen,
                                         const struct wire_msg *m)
{
	struct iter_vmemo *vm = &iter_vmemo_t;

	if (req->vmemo_buf == m->buf && req->vmemo_at == vm &&
	    req->vmemo_stamp == vm->stamp &&
	    wire_name_equal(vm->zone, vm->zonelen, zone, zonelen))
		return vm;
	memset(vm->known, 0, sizeof(vm->known));
	memcpy(vm->zone, zone, zonelen);
	vm->zonelen = zonelen;
	req->vmemo_buf = m->buf;
	req->vmemo_at = vm;
	req->vmemo_stamp = ++vm->stamp;
	return vm;
}

/* Verify one authority record of the reply (a set of one), once per
 * reply and zone (iter_vmemo_for). */
static int iter_proof_verify(struct iter_req *req, const uint8_t *zone,
                             size_t zonelen, const struct wire_msg *m,
                             const struct wire_rr *rr, const uint8_t *owner,
                             size_t olen, const struct cache_rdata *rd)
{
	size_t k = (size_t)(rr - m->rr) - m->an;
	struct dnssec_verdict v;
	struct iter_vmemo *vm;
	int rc;

	if (k >= ITER_VMEMO_MAX)
		return iter_verify_rd(req, zone, zonelen, m,
		                      WIRE_SECTION_AUTHORITY, owner, olen,
		                      rr->type, rd, 1, &v);
	vm = iter_vmemo_for(req, zone, zonelen, m);
	if (vm->known[k])
		return vm->rc[k];
	rc = iter_verify_rd(req, zone, zonelen, m, WIRE_SECTION_AUTHORITY,
	                    owner, olen, rr->type, rd, 1, &v);
	if (req->vmemo_stamp == vm->stamp) { /* still req's */
		vm->known[k] = 1;
		vm->rc[k] = (int16_t)rc;
	}
	return rc;
}

/* Verify one NSEC/NSEC3 record (a set of one) and keep it. */
static void iter_proof_add(struct iter_req *req, const uint8_t *zone,
                           size_t zonelen, const struct wire_msg *m,
                           const struct wire_rr *rr, struct iter_proof *p,
                           struct iter_img *img)
{
	uint8_t *owner = p->owner[p->n];
	size_t olen, i;
	struct cache_rdata rd;
	int rc;

	if (!iter_rr_owner(m, rr, owner, &olen) ||
	    !iter_name_under(owner, olen, zone, zonelen))
		return;
	for (i = 0; i < p->n; i++)
		if (p->rr[i].type == rr->type &&
		    wire_name_equal(p->rr[i].owner, p->rr[i].ownerlen, owner,
		                    olen))
			return;
	rd.data = m->buf + rr->rdata;
	rd.len = rr->rdlen;
	rc = iter_proof_verify(req, zone, zonelen, m, rr, owner, olen, &rd);
	if (rc != DNSSEC_OK) {
		p->status = rc;
		return;
	}
	p->rr[p->n] = (struct dnssec_nsec){ owner, olen, rr->type,
		                            m->buf + rr->rdata, rr->rdlen };
	if (p->n == 0 || rr->ttl < p->ttl)
		p->ttl = rr->ttl;
	p->n++;
	(void)iter_img_add(img, owner, olen, rr->type, rr->ttl,
	                   m->buf + rr->rdata, rr->rdlen);
	iter_img_sigs(img, m, WIRE_SECTION_AUTHORITY, owner, olen, rr->type);
}

static void iter_proof_collect(struct iter_req *req, const uint8_t *zone,
                               size_t zonelen, const struct wire_msg *m,
                               struct iter_proof *p, struct iter_img *img)
{
	size_t i;

	p->n = 0;
	p->status = DNSSEC_OK;
	for (i = m->an; i < m->an + m->ns && p->n < ITER_PROOF_MAX; i++)
		if (m->rr[i].type == WIRE_TYPE_NSEC ||
		    m->rr[i].type == WIRE_TYPE_NSEC3)
			iter_proof_add(req, zone, zonelen, m, &m->rr[i], p,
			               img);
}

static unsigned iter_nsec3_cap(const struct iter_req *req)
{
	const struct cfg *c = req->env->cfg;

	return c != NULL ? c->nsec3_max_iterations :
	                   DNSSEC_NSEC3_ITERATIONS_MAX;
}

/* The status a denial result gives; *status gets the reason. */
static uint8_t iter_denial_sec(int rc, int *status)
{
	*status = rc;
	switch (rc) {
	case DNSSEC_OK: return CACHE_SEC_SECURE;
	case DNSSEC_EOPTOUT: *status = DNSSEC_OK; return CACHE_SEC_INSECURE;
	case DNSSEC_EITERATIONS: return CACHE_SEC_INSECURE;
	/* RFC 5155 s8.1: NSEC3 of an unknown hash are ignored: nothing
	 * proves the denial (DNSSEC_EUNSUPPORTED_HASH too) */
	default: return CACHE_SEC_BOGUS;
	}
}

/* A proof (deny_fn over the records) for a wildcard expansion. */
static uint8_t iter_val_wildcard(struct iter_req *req, const uint8_t *zone,
                                 size_t zonelen, const struct wire_msg *m,
                                 const uint8_t *owner, size_t ownerlen,
                                 unsigned labels, int *status)
{
	struct iter_proof *p = malloc(sizeof(*p));
	struct iter_img none = { NULL, 0, 0, 0 };
	struct dnssec_denial d;
	uint8_t sec;
	int rc;

	if (p == NULL) {
		*status = DNSSEC_ECRYPTO;
		return CACHE_SEC_BOGUS;
	}
	/* the proof goes to the client's authority section when the set is
	 * for it (req->proof, set by iter_cache_as) */
	iter_proof_collect(req, zone, zonelen, m, p,
	                   req->proof != NULL ? req->proof : &none);
	d = (struct dnssec_denial){ p->rr,
		                    p->n,
		                    zone,
		                    zonelen,
		                    iter_nsec3_cap(req),
		                    &req->hashes_left };
	rc = dnssec_deny_expanded(&d, owner, ownerlen, labels);
	sec = iter_denial_sec(rc, status);
	if (rc == DNSSEC_ENOPROOF && p->status != DNSSEC_OK)
		*status = p->status;
	free(p);
	return sec;
}

void iter_val_log(struct iter_req *req, const uint8_t *zone, size_t zlen,
                  const uint8_t *name, size_t nlen, uint16_t type, uint8_t sec,
                  int status)
{
	static const char *const secs[] = { "unchecked", "insecure", "secure",
		                            "bogus" };
	char z[WIRE_NAME_TEXT_MAX], n[WIRE_NAME_TEXT_MAX], t[RRTEXT_NAME_MAX];

	if (sec == CACHE_SEC_BOGUS)
		iter_log_bogus(req, zone, zlen, status);
	if (log_level() < CFG_LOG_DEBUG)
		return;
	if (wire_name_to_text(zone, zlen, z, sizeof z, NULL) != WIRE_OK)
		z[0] = '\0';
	if (wire_name_to_text(name, nlen, n, sizeof n, NULL) != WIRE_OK)
		n[0] = '\0';
	log_debug("dnssec", "zone=%s name=%s type=%s verdict=%s why=%s", z, n,
	          rrtext_type_name(type, t), secs[sec & 3],
	          status == DNSSEC_OK ? "" : dnssec_strerror(status));
}

/* A bogus part: counted, kept briefly. */
static uint8_t iter_bogus(struct iter_req *req, uint32_t *ttl)
{
	req->bogus_n++;
	iter_tally(req->env->tally.rrset_bogus);
	if (*ttl > iter_bogus_ttl(req))
		*ttl = iter_bogus_ttl(req);
	return CACHE_SEC_BOGUS;
}

/* The status a frame's trust gives its data without verifying. */
static uint8_t iter_trust_sec(const struct iter_frame *f, int *status)
{
	*status = DNSSEC_OK;
	switch (f->trust) {
	case ITER_T_INSECURE: return CACHE_SEC_INSECURE;
	case ITER_T_BOGUS: *status = f->trust_status; return CACHE_SEC_BOGUS;
	case ITER_T_SECURE: return CACHE_SEC_SECURE;
	default: return CACHE_SEC_UNCHECKED;
	}
}

uint8_t iter_val_rrset(struct iter_req *req, const struct wire_msg *m,
                       enum wire_section sec, const uint8_t *owner,
                       size_t ownerlen, uint16_t type,
                       const struct cache_rdata *rd, size_t n, uint32_t *ttl,
                       struct iter_img *img, int *status)
{
	const struct iter_frame *f = req->frame[req->vfi];
	struct dnssec_verdict v;
	uint8_t st;
	int labels;

	*status = DNSSEC_OK;
	/* RRSIGs asked for as such are not signed themselves (RFC 4035
	 * section 2.2): passed on unvalidated, never bogus */
	if (!iter_val_on(req) || type == WIRE_TYPE_RRSIG)
		return CACHE_SEC_UNCHECKED;
	iter_img_sigs(img, m, sec, owner, ownerlen, type);
	st = iter_trust_sec(f, status);
	if (st == CACHE_SEC_BOGUS) {
		iter_log_bogus(req, f->zone.name, f->zone.len, *status);
		return iter_bogus(req, ttl);
	}
	if (st != CACHE_SEC_SECURE)
		return st;
	/* the zone's keys asked for: by the DS, as the chain took them
	 * (not by the keys themselves, whose tags may collide) */
	if (type == WIRE_TYPE_DNSKEY && sec == WIRE_SECTION_ANSWER &&
	    wire_name_equal(owner, ownerlen, f->zone.name, f->zone.len)) {
		*status = iter_trust_keys_status(req, owner, ownerlen, m, ttl);
		if (*status == DNSSEC_OK)
			return CACHE_SEC_SECURE;
		iter_val_log(req, f->zone.name, f->zone.len, owner, ownerlen,
		             type, CACHE_SEC_BOGUS, *status);
		return iter_bogus(req, ttl);
	}
	*status = iter_verify_rd(req, f->zone.name, f->zone.len, m, sec, owner,
	                         ownerlen, type, rd, n, &v);
	if (*status != DNSSEC_OK) {
		iter_val_log(req, f->zone.name, f->zone.len, owner, ownerlen,
		             type, CACHE_SEC_BOGUS, *status);
		return iter_bogus(req, ttl);
	}
	if (v.ttl < *ttl)
		*ttl = v.ttl;
	labels = dnssec_name_labels(owner, ownerlen);
	if (labels >= 0 && v.labels < (unsigned)labels)
		st = iter_val_wildcard(req, f->zone.name, f->zone.len, m,
		                       owner, ownerlen, v.labels, status);
	if (st == CACHE_SEC_BOGUS)
		iter_log_bogus(req, f->zone.name, f->zone.len, *status);
	return st == CACHE_SEC_BOGUS ? iter_bogus(req, ttl) : st;
}

uint8_t iter_val_negative(struct iter_req *req, size_t fi,
                          const struct wire_msg *m, bool nx,
                          struct iter_img *img, int *status)
{
	const struct iter_frame *f = req->frame[fi];
	const struct iter_class *c = &iter_cls;
	uint8_t owner[WIRE_NAME_MAX], rdbuf[2 * WIRE_NAME_MAX + 20], st;
	size_t olen, rdlen;
	struct cache_rdata rd;
	struct dnssec_verdict v;
	struct iter_proof *p;
	struct dnssec_denial d;
	uint32_t ttl = UINT32_MAX;

	*status = DNSSEC_OK;
	if (!iter_val_on(req))
		return CACHE_SEC_UNCHECKED;
	if (c->soa != WIRE_NONE &&
	    iter_rr_owner(m, &m->rr[c->soa], owner, &olen))
		iter_img_sigs(img, m, WIRE_SECTION_AUTHORITY, owner, olen,
		              WIRE_TYPE_SOA);
	st = iter_trust_sec(f, status);
	if (st != CACHE_SEC_SECURE)
		return st == CACHE_SEC_BOGUS ? iter_bogus(req, &ttl) : st;
	/* the SOA: signed by the zone */
	if (c->soa == WIRE_NONE ||
	    !iter_rr_owner(m, &m->rr[c->soa], owner, &olen) ||
	    !iter_rdata_expand(m, &m->rr[c->soa], rdbuf, sizeof rdbuf,
	                       &rdlen)) {
		*status = DNSSEC_ENOPROOF;
		return iter_bogus(req, &ttl);
	}
	rd.data = rdbuf;
	rd.len = rdlen;
	*status = iter_verify_rd(req, f->zone.name, f->zone.len, m,
	                         WIRE_SECTION_AUTHORITY, owner, olen,
	                         WIRE_TYPE_SOA, &rd, 1, &v);
	if (*status != DNSSEC_OK)
		return iter_bogus(req, &ttl);
	if ((p = malloc(sizeof(*p))) == NULL) {
		*status = DNSSEC_ECRYPTO;
		return iter_bogus(req, &ttl);
	}
	iter_proof_collect(req, f->zone.name, f->zone.len, m, p, img);
	d = (struct dnssec_denial){ p->rr,
		                    p->n,
		                    f->zone.name,
		                    f->zone.len,
		                    iter_nsec3_cap(req),
		                    &req->hashes_left };
	st = iter_denial_sec(nx ? dnssec_deny_name(&d, f->sname, f->snamelen) :
	                          dnssec_deny_type(&d, f->sname, f->snamelen,
	                                           f->qtype),
	                     status);
	if (*status == DNSSEC_ENOPROOF && p->status != DNSSEC_OK)
		*status = p->status;
	if (f->qtype == WIRE_TYPE_DS && st == CACHE_SEC_SECURE)
		iter_signer_note(req, f, &d, nx, iter_ttl(req, p->ttl));
	free(p);
	return st == CACHE_SEC_BOGUS ? iter_bogus(req, &ttl) : st;
}

/* Cache an RRset of standalone RDATAs with its status and image. */
static void iter_val_put(struct iter_req *req, const uint8_t *owner,
                         size_t ownerlen, uint16_t type,
                         const struct cache_rdata *rd, size_t n, uint32_t ttl,
                         uint8_t sec, const struct iter_img *img)
{
	struct cache_rrset set = { owner,
		                   ownerlen,
		                   type,
		                   WIRE_CLASS_IN,
		                   ttl,
		                   rd,
		                   n,
		                   CACHE_RANK_NONAUTH,
		                   NULL,
		                   (enum cache_sec)sec,
		                   img != NULL ? img->buf : NULL,
		                   img != NULL ? img->len : 0 };

	(void)cache_rrset_put_via(req->env->cache, &set, req->now.wall,
	                          (enum cache_via)req->via);
}

/* The DS RDATAs at cut in the authority section (no names inside). */
static size_t iter_ds_gather(const struct iter_req *req,
                             const struct wire_msg *m, const uint8_t *cut,
                             size_t cutlen, struct cache_rdata *rd, size_t cap,
                             uint32_t *ttl)
{
	size_t i, n = 0;

	for (i = m->an; i < m->an + m->ns && n < cap; i++) {
		const struct wire_rr *rr = &m->rr[i];
		uint8_t owner[WIRE_NAME_MAX];
		size_t olen;

		if (rr->type != WIRE_TYPE_DS || rr->rclass != WIRE_CLASS_IN ||
		    !iter_rr_owner(m, rr, owner, &olen) ||
		    !wire_name_equal(owner, olen, cut, cutlen))
			continue;
		rd[n].data = m->buf + rr->rdata;
		rd[n].len = rr->rdlen;
		if (n == 0 || iter_ttl(req, rr->ttl) < *ttl)
			*ttl = iter_ttl(req, rr->ttl);
		n++;
	}
	return n;
}

/* A referral without DS: its proof that there is none. */
static enum iter_trust iter_val_nods(struct iter_req *req, size_t fi,
                                     const struct wire_msg *m,
                                     const uint8_t *cut, size_t cutlen)
{
	const struct iter_frame *f = req->frame[fi];
	struct iter_proof *p = malloc(sizeof(*p));
	struct iter_img none = { NULL, 0, 0, 0 };
	struct dnssec_denial d;
	static const uint8_t mark[1] = { 0 };
	struct cache_rdata rd = { mark, sizeof mark };
	int status;
	uint8_t st;

	if (p == NULL)
		return ITER_T_NEED_DS;
	iter_proof_collect(req, f->zone.name, f->zone.len, m, p, &none);
	if (p->n == 0) {
		free(p);
		return ITER_T_NEED_DS;
	}
	d = (struct dnssec_denial){ p->rr,
		                    p->n,
		                    f->zone.name,
		                    f->zone.len,
		                    iter_nsec3_cap(req),
		                    &req->hashes_left };
	st = iter_denial_sec(dnssec_deny_type(&d, cut, cutlen, WIRE_TYPE_DS),
	                     &status);
	if (st != CACHE_SEC_BOGUS)
		iter_val_put(req, cut, cutlen, ITER_TYPE_NODS, &rd, 1,
		             iter_ttl(req, p->ttl), CACHE_SEC_SECURE, NULL);
	free(p);
	/* no proof: the DS is asked for explicitly (a server may leave
	 * proofs out of referrals; a forged referral fails there too) */
	return st == CACHE_SEC_BOGUS ? ITER_T_NEED_DS : ITER_T_INSECURE;
}

/* A trust anchor at or above the cut but below the frame's zone (an
 * island of trust under an insecure parent): the cut's trust starts
 * from that anchor, not from the parent. */
static bool iter_val_island(const struct iter_req *req, size_t fi,
                            const uint8_t *cut, size_t cutlen)
{
	const struct anchor *a = anchors_find(req->env->anchors, cut, cutlen);

	return a != NULL && a->namelen > req->frame[fi]->zone.len;
}

enum iter_trust iter_val_referral(struct iter_req *req, size_t fi,
                                  const struct wire_msg *m, const uint8_t *cut,
                                  size_t cutlen, int *status)
{
	struct iter_frame *f = req->frame[fi];
	struct cache_rdata rd[ITER_PROOF_MAX];
	uint8_t imgbuf[ITER_AUTH_MAX];
	struct iter_img img = { imgbuf, 0, sizeof imgbuf, 0 };
	uint32_t ttl = 0;
	size_t n;
	uint8_t st;

	*status = DNSSEC_OK;
	if (!iter_val_on(req))
		return ITER_T_INSECURE;
	if (f->trust == ITER_T_INSECURE &&
	    iter_val_island(req, fi, cut, cutlen))
		return ITER_T_UNKNOWN;
	if (f->trust == ITER_T_INSECURE || f->trust == ITER_T_BOGUS)
		return f->trust;
	if (f->trust != ITER_T_SECURE)
		return ITER_T_UNKNOWN;
	n = iter_ds_gather(req, m, cut, cutlen, rd, ITER_PROOF_MAX, &ttl);
	if (n == 0)
		return iter_val_nods(req, fi, m, cut, cutlen);
	req->vfi = fi;
	st = iter_val_rrset(req, m, WIRE_SECTION_AUTHORITY, cut, cutlen,
	                    WIRE_TYPE_DS, rd, n, &ttl, &img, status);
	iter_val_put(req, cut, cutlen, WIRE_TYPE_DS, rd, n, ttl, st, &img);
	/* a secure DS set: iter_trust_eval reads it (usable or not) */
	return st == CACHE_SEC_BOGUS ? ITER_T_BOGUS : ITER_T_UNKNOWN;
}

int iter_cached_status(uint8_t sec, uint8_t ede)
{
	/* the statuses whose EDE code names them alone */
	static const int precise[] = { DNSSEC_EEXPIRED,   DNSSEC_ENOTYET,
		                       DNSSEC_EVALIDITY,  DNSSEC_EMISMATCH,
		                       DNSSEC_ENOSIG,     DNSSEC_ENOPROOF,
		                       DNSSEC_EITERATIONS };
	size_t i;

	if (sec != CACHE_SEC_BOGUS)
		return DNSSEC_OK;
	for (i = 0; ede != 0 && i < sizeof precise / sizeof precise[0]; i++)
		if (iter_ede_of(precise[i]) == ede)
			return precise[i];
	return DNSSEC_EBADSIG;
}

bool iter_val_foreign(const struct iter_req *req, size_t fi,
                      const struct wire_msg *m, const uint8_t *owner,
                      size_t ownerlen, uint16_t type)
{
	const struct iter_frame *f = req->frame[fi];
	uint8_t signer[WIRE_NAME_MAX];
	size_t i, slen;
	bool other = false;

	if (f->trust != ITER_T_SECURE)
		return false;
	/* data of another zone (signed or not) is asked of that zone */
	if (!iter_name_under(owner, ownerlen, f->zone.name, f->zone.len))
		return true;
	for (i = 0; i < m->an; i++) {
		const struct wire_rr *rr = &m->rr[i];

		if (!iter_sig_for(m, rr, owner, ownerlen, type) ||
		    !iter_sig_signer(m, rr, signer, &slen))
			continue;
		if (wire_name_equal(signer, slen, f->zone.name, f->zone.len))
			return false;
		other = true;
	}
	return other;
}
