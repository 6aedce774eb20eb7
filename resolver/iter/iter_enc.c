/*
 * resolver/iter/iter_enc.c - encrypted-zone NAME: the servers of NAME and
 * of every zone below it are asked only when the query can reach them
 * encrypted and authenticated: over DNSCurve (a key in the delegation)
 * or over DNS over TLS authenticated by DANE (RFC 7671): a DNSSEC-SECURE
 * TLSA RRset at _853._tcp.NSNAME with a usable record (usage 3 DANE-EE or
 * 2 DANE-TA; selector 0 or 1; matching type 0, 1 or 2; the PKIX usages 0
 * and 1 are ignored, RFC 7672 s3.1.3). All usable records of the RRset,
 * at most TLSA_SET_MAX, go with the target (iter_target.dane_set): the
 * transport accepts a server whose chain matches any of them (a rollover
 * publishes two). An RRset with no usable record is no TLSA at all: the
 * server is asked as any other (opportunistic TLS or plain) outside an
 * encrypted-zone, and not at all inside one. Outside one, a target of a
 * DNSSEC-secure zone whose NS name's TLSA is not cached is marked
 * (iter_target.dane_want): once its server takes TLS, the worker looks
 * the TLSA up in the background (front/server_dane.c).
 *
 * Before a frame of such a zone sends anything, the TLSA of each server
 * without a key is looked up once (a sub-frame, as for a glueless NS
 * name's address: the client waits, there is no other way in), then the
 * servers with neither are dropped (a log line names them); when none is
 * left the frame fails
 * and the client's SERVFAIL carries EDE 22 (No Reachable Authority) with
 * ITER_ENC_TEXT, so nothing of the zone leaves in plain. The parents of
 * NAME are asked as usual (a referral names the zone, never more than
 * QNAME minimisation shows), and so are the zones of the NS names
 * themselves unless they too lie under an encrypted-zone.
 */
#include <string.h>

#include <stdlib.h>

#include "base/log.h"
#include "cache.h"
#include "conf/cfg.h"
#include "iter_int.h"
#include "validate/tlsa.h"

/** The labels put before an NS name for its TLSA: _853._tcp. */
static const uint8_t iter_dane_prefix[] = "\004_853\004_tcp";
#define ITER_DANE_PREFIX_BYTES (sizeof iter_dane_prefix - 1)
/** Room for a TLSA RRset read from the cache. */
#define ITER_DANE_BUF 8192
/** Bit in iter_ns.sub: its TLSA was looked up by this frame. */
#define ITER_SUB_TLSA 0x4u

/** RFC 8914: No Reachable Authority. */
#define ITER_ENC_EDE 22
/** The EXTRA-TEXT of that EDE. */
static const char iter_enc_text[] =
	"encrypted-zone: no server reachable by DNSCurve or DANE TLS";
/** Bytes of the list of skipped NS names in the log line. */
#define ITER_ENC_LIST_BYTES 512

/* Whether name is at or under an encrypted-zone. */
static bool iter_enc_required(const struct iter_req *req, const uint8_t *name,
                              size_t len)
{
	const struct cfg *cfg = req->env->cfg;
	size_t i;

	for (i = 0; cfg != NULL && i < cfg->n_encrypted_zone; i++)
		if (iter_name_under(name, len, cfg->encrypted_zone[i],
		                    cfg->encrypted_zone_len[i]))
			return true;
	return false;
}

/* Append ns's name to list (comma-separated, cut when full). */
static void iter_enc_list_add(char *list, size_t cap, const struct iter_ns *ns)
{
	char text[WIRE_NAME_TEXT_MAX];
	size_t used = strlen(list);

	if (wire_name_to_text(ns->name, ns->namelen, text, sizeof text,
	                      NULL) != WIRE_OK)
		strcpy(text, "?");
	if (used + strlen(text) + 2 >= cap)
		return;
	if (used > 0)
		list[used++] = ',';
	strcpy(list + used, text);
}

/* _853._tcp.NS into out; its length, 0 when too long. */
static size_t iter_dane_name(const struct iter_ns *ns,
                             uint8_t out[WIRE_NAME_MAX])
{
	if (ITER_DANE_PREFIX_BYTES + ns->namelen > WIRE_NAME_MAX)
		return 0;
	memcpy(out, iter_dane_prefix, ITER_DANE_PREFIX_BYTES);
	memcpy(out + ITER_DANE_PREFIX_BYTES, ns->name, ns->namelen);
	return ITER_DANE_PREFIX_BYTES + ns->namelen;
}

/* The usable records of an RRset image into set; false when none. */
static bool iter_dane_scan(const uint8_t *img, size_t len,
                           struct tlsa_set *set)
{
	struct answer_rr rr;
	size_t pos = 0;

	memset(set, 0, sizeof *set);
	while (answer_rr_next(img, len, &pos, &rr))
		(void)tlsa_set_add(set, img + rr.rdata, rr.rdlen);
	return set->n > 0;
}

/* A TLSA lookup that found no usable set (-1: nothing cached, 0: another
 * answer) is kept while what it read holds (iter_memo_get): every
 * upstream query looked its server's TLSA up, and most servers have
 * none. A usable set is read again each time. */

/* ns's usable TLSA records into set from a SECURE TLSA RRset in the
 * cache: 1; 0 when the cache holds another answer (negative, insecure,
 * no usable record) or DANE is off; -1 when it holds none. */
static int iter_dane_lookup(const struct iter_req *req,
                            const struct iter_ns *ns, struct tlsa_set *set)
{
	uint8_t name[WIRE_NAME_MAX];
	struct cache_query q = { name, 0, TLSA_RR_TYPE, WIRE_CLASS_IN, 0 };
	struct cache_answer ans;
	struct cache_watch w;
	uint8_t *buf;
	int rc, r;

	if (req->env->cfg == NULL ||
	    req->env->cfg->auth_tls == CFG_AUTH_TLS_NO ||
	    (q.name_len = iter_dane_name(ns, name)) == 0)
		return 0;
	if (iter_memo_get(req, ITER_MK_DANE, name, q.name_len, &r, sizeof r))
		return r;
	if (cache_watch(req->env->cache, name, q.name_len, &w) != CACHE_OK ||
	    (buf = iter_tmp_take(2 * ITER_AUTH_MAX)) == NULL)
		return 0;
	rc = cache_get(req->env->cache, &q, req->now.wall, &ans, buf,
	               ITER_DANE_BUF);
	if (rc == CACHE_ENOTFOUND)
		r = -1;
	else
		r = rc == CACHE_OK && ans.kind == CACHE_KIND_RRSET &&
		    ans.sec == CACHE_SEC_SECURE &&
		    iter_dane_scan(buf, ans.len, set);
	iter_tmp_give(2 * ITER_AUTH_MAX, buf);
	if (r != 1) /* the entry picked, if any, holds until it expires */
		iter_memo_put(req, ITER_MK_DANE, name, q.name_len, &w,
		              rc == CACHE_OK || rc == CACHE_ESPACE ?
		                      ans.expire :
		                      (time_t)INT64_MAX,
		              &r, sizeof r);
	return r;
}

/* ns's usable TLSA records from a SECURE TLSA RRset in the cache. */
static bool iter_dane_set(const struct iter_req *req, const struct iter_ns *ns,
                          struct tlsa_set *set)
{
	return iter_dane_lookup(req, ns, set) == 1;
}

void iter_dane_fill(const struct iter_req *req, const struct iter_frame *f,
                    const struct iter_ns *ns, struct iter_target *t)
{
	int r;

	if (t->curve || t->rd)
		return;
	r = iter_dane_lookup(req, ns, &t->dane_set);
	if (r != 1)
		memset(&t->dane_set, 0, sizeof t->dane_set);
	if (r == 1)
		t->dane = true;
	else if (r < 0 && f->trust == ITER_T_SECURE)
		t->dane_want = true; /* looked up in the background */
	else
		return;
	if (wire_name_to_text(ns->name, ns->namelen, t->dane_ns,
	                      sizeof t->dane_ns, NULL) != WIRE_OK)
		strcpy(t->dane_ns, "?");
}

/* Push a frame for the TLSA of the first server of frame fi without a
 * key whose TLSA was not looked up yet; false when there is none (or
 * the caps say no). */
static bool iter_dane_push(struct iter_req *req, size_t fi)
{
	struct iter_zone *z = &req->frame[fi]->zone;
	uint8_t name[WIRE_NAME_MAX];
	struct tlsa_set set;
	struct iter_frame *f;
	size_t i, j, len;

	for (i = 0; i < z->nns; i++) {
		struct iter_ns *ns = &z->ns[i];
		bool dup = false;

		if (ns->curve || (ns->sub & ITER_SUB_TLSA) ||
		    (len = iter_dane_name(ns, name)) == 0)
			continue;
		ns->sub |= ITER_SUB_TLSA;
		for (j = 0; j <= req->depth; j++)
			dup = dup || (req->frame[j]->qtype == TLSA_RR_TYPE &&
			              wire_name_equal(req->frame[j]->sname,
			                              req->frame[j]->snamelen,
			                              name, len));
		if (dup || iter_dane_set(req, ns, &set) ||
		    req->depth >= ITER_MAX_DEPTH ||
		    req->subqueries >= ITER_MAX_SUBQUERIES ||
		    (f = iter_frame_alloc(req)) == NULL)
			continue;
		iter_frame_init(f, name, len, TLSA_RR_TYPE, WIRE_CLASS_IN,
		                req->frame[fi]->qmin);
		f->parent_ns = i;
		req->frame[++req->depth] = f;
		req->subqueries++;
		req->counts.subqueries++;
		return true;
	}
	return false;
}

bool iter_enc_step(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	struct iter_zone *z = &f->zone;
	char list[ITER_ENC_LIST_BYTES] = "";
	char zone[WIRE_NAME_TEXT_MAX];
	size_t i, n = 0, skipped = 0;
	struct tlsa_set set;

	if (!iter_enc_required(req, z->name, z->len))
		return false;
	if (iter_dane_push(req, fi))
		return true;
	for (i = 0; i < z->nns; i++) {
		if (z->ns[i].curve || iter_dane_set(req, &z->ns[i], &set)) {
			if (n != i)
				z->ns[n] = z->ns[i];
			n++;
			continue;
		}
		iter_enc_list_add(list, sizeof list, &z->ns[i]);
		skipped++;
	}
	z->nns = n;
	if (skipped == 0)
		return false;
	if (wire_name_to_text(z->name, z->len, zone, sizeof zone, NULL) !=
	    WIRE_OK)
		strcpy(zone, "?");
	log_warn_limited("encrypted_zone_skip",
	                 "zone=%s skipped=%zu servers=%s left=%zu", zone,
	                 skipped, list, n);
	if (n > 0)
		return false;
	req->dz_ede = ITER_ENC_EDE;
	req->dz_ede_text = iter_enc_text;
	iter_fail(f, "encrypted-zone: no server reachable encrypted");
	return true;
}
