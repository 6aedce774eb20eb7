/*
 * resolver/wire/answer.c - record images: append, walk, TTLs, and the one
 * chase over the cache (see answer.h). No allocation anywhere here.
 */
#include "answer.h"

#include <string.h>

#include "cache.h"

/** Records of one image looked at (a cache entry holds fewer). */
#define ANSWER_IMAGE_RR_MAX 65535
/** ANSWER_CHASE_STALE is CACHE_GET_STALE, and ANSWER_CHASE_DNSSEC this
 *  many times CACHE_GET_DNSSEC. */
#define ANSWER_DNSSEC_SHIFT (ANSWER_CHASE_DNSSEC / CACHE_GET_DNSSEC)
_Static_assert(ANSWER_CHASE_STALE == CACHE_GET_STALE &&
                       ANSWER_CHASE_DNSSEC ==
                               ANSWER_DNSSEC_SHIFT * CACHE_GET_DNSSEC,
               "chase flags map onto the cache's by one division");
/** Bytes from the start of RDATA back to the TTL of a record. */
#define ANSWER_TTL_BACK 6

/* The length of the uncompressed wire name at img[p..len): labels of 1
 * to 63 bytes ending in the root label, WIRE_NAME_MAX bytes at most; 0
 * when there is none (a pointer, a bad label, the end of the image).
 * Walks run on cache hits (records of another owner than the question
 * name, which answer_rr_owned compares instead): this scan costs a
 * fraction of the general reader. */
static size_t answer_name_span(const uint8_t *img, size_t len, size_t p)
{
	size_t start = p,
	       end = len - p > WIRE_NAME_MAX ? p + WIRE_NAME_MAX : len;

	while (p < end) {
		uint8_t l = img[p];

		if (l == 0)
			return p + 1 - start;
		if (l > WIRE_LABEL_MAX)
			return 0;
		p += (size_t)l + 1;
	}
	return 0;
}

bool answer_rr_next(const uint8_t *img, size_t len, size_t *pos,
                    struct answer_rr *rr)
{
	size_t p = *pos;

	if (img == NULL || p >= len)
		return false;
	return answer_rr_rest(img, len, p, answer_name_span(img, len, p), pos,
	                      rr);
}

bool answer_rr_append(uint8_t *buf, size_t cap, size_t *len,
                      const uint8_t *owner, size_t ownerlen, uint16_t type,
                      uint16_t rclass, uint32_t ttl, const uint8_t *rdata,
                      size_t rdlen)
{
	struct wire_writer w;

	if (buf == NULL || *len > cap || rdlen > UINT16_MAX)
		return false;
	wire_writer_init(&w, buf + *len, cap - *len);
	if (wire_write_bytes(&w, owner, ownerlen) != WIRE_OK ||
	    wire_write_u16(&w, type) != WIRE_OK ||
	    wire_write_u16(&w, rclass) != WIRE_OK ||
	    wire_write_u32(&w, ttl) != WIRE_OK ||
	    wire_write_u16(&w, (uint16_t)rdlen) != WIRE_OK ||
	    wire_write_bytes(&w, rdata, rdlen) != WIRE_OK)
		return false;
	*len += w.len;
	return true;
}

void answer_ttl_set(uint8_t *img, size_t len, uint32_t ttl)
{
	struct answer_rr rr;
	size_t pos = 0, n;

	for (n = 0;
	     n < ANSWER_IMAGE_RR_MAX && answer_rr_next(img, len, &pos, &rr);
	     n++) {
		uint8_t *p = img + rr.rdata - ANSWER_TTL_BACK;

		p[0] = (uint8_t)(ttl >> 24);
		p[1] = (uint8_t)(ttl >> 16);
		p[2] = (uint8_t)(ttl >> 8);
		p[3] = (uint8_t)ttl;
	}
}

bool answer_ttl_min(const uint8_t *img, size_t len, struct answer_rr *least)
{
	struct answer_rr rr;
	size_t pos = 0, n;
	bool any = false;

	for (n = 0; pos < len && n < ANSWER_IMAGE_RR_MAX; n++) {
		if (!answer_rr_next(img, len, &pos, &rr))
			return false;
		if (!any || rr.ttl < least->ttl)
			*least = rr;
		any = true;
	}
	return any;
}

/* ------------------------------------------------------------------ */
/* The chase                                                           */

bool answer_read(struct answer_chase *ch, const uint8_t *name, size_t len,
                 uint16_t type, struct cache_answer *ans, uint8_t *buf,
                 size_t cap)
{
	struct cache_query q;

	q.name = name;
	q.name_len = len;
	q.type = type;
	q.klass = ch->qclass;
	/* The chase flags as the cache's (no branch: the hot path). */
	q.flags = (ch->flags & ANSWER_CHASE_STALE) |
	          (ch->flags & ANSWER_CHASE_DNSSEC) / ANSWER_DNSSEC_SHIFT;
	/* Absent the image, its fields read 0 whatever the cache writes. */
	ans->sec = CACHE_SEC_UNCHECKED;
	ans->dnssec_len = 0;
	ans->dnssec_count = 0;
	if (cache_get(ch->cache, &q, ch->now, ans, buf, cap) != CACHE_OK ||
	    ans->rank < CACHE_RANK_NONAUTH)
		return false;
	if (!ans->stale)
		return true;
	if (ans->expire > ch->now ||
	    (uint64_t)(ch->now - ans->expire) > ch->window)
		return false;
	answer_ttl_set(buf, ans->len + ans->dnssec_len, ANSWER_STALE_TTL);
	ch->stale_used = true;
	return true;
}

/* The name in the RDATA of a record (its first field), lowercased. */
static bool rdata_name(const uint8_t *img, const struct answer_rr *rr,
                       uint8_t out[WIRE_NAME_MAX], size_t *outlen)
{
	size_t p = rr->rdata;

	return wire_read_name(img, rr->rdata + rr->rdlen, &p, out, outlen,
	                      WIRE_NAME_LOWER) == WIRE_OK;
}

bool answer_cname(struct answer_chase *ch, const uint8_t *name, size_t len,
                  struct cache_answer *ans, uint8_t *buf, size_t cap,
                  uint8_t target[WIRE_NAME_MAX], size_t *tlen)
{
	struct answer_rr rr;
	size_t pos = 0;

	if (!answer_read(ch, name, len, WIRE_TYPE_CNAME, ans, buf, cap) ||
	    ans->kind != CACHE_KIND_RRSET ||
	    ((ch->flags & ANSWER_CHASE_ONE_CNAME) && ans->count != 1))
		return false;
	return answer_rr_next(buf, ans->len, &pos, &rr) &&
	       rr.type == WIRE_TYPE_CNAME &&
	       rdata_name(buf, &rr, target, tlen);
}

/* Reverse buf[from..to) in place. */
static void reverse(uint8_t *buf, size_t from, size_t to)
{
	uint8_t t;

	while (from + 1 < to) {
		to--;
		t = buf[from];
		buf[from] = buf[to];
		buf[to] = t;
		from++;
	}
}

/* Swap the adjacent regions buf[0..a) and buf[a..a+b) in place. */
static void rotate(uint8_t *buf, size_t a, size_t b)
{
	reverse(buf, 0, a + b);
	reverse(buf, 0, b);
	reverse(buf, b, a + b);
}

/*
 * Whether the DNAME image (first record) at ancestor `owner` of `name`
 * maps name to `target` (RFC 6672 substitution of the owner suffix).
 */
static bool dname_maps(const uint8_t *img, size_t len, const uint8_t *name,
                       size_t nlen, size_t olen, const uint8_t *target,
                       size_t tlen)
{
	struct answer_rr rr;
	uint8_t dt[WIRE_NAME_MAX];
	size_t pos = 0, dtlen, keep = nlen - olen;

	if (!answer_rr_next(img, len, &pos, &rr) ||
	    rr.type != WIRE_TYPE_DNAME || !rdata_name(img, &rr, dt, &dtlen))
		return false;
	return keep + dtlen == tlen && memcmp(name, target, keep) == 0 &&
	       memcmp(dt, target + keep, dtlen) == 0;
}

/** One link of the chain being walked. */
struct answer_link {
	const uint8_t *name; /**< the name the CNAME is owned by */
	size_t nlen;
	const uint8_t *target; /**< what it points to */
	size_t tlen;
};

/** What the links so far are worth: provenance and DNSSEC status. */
struct answer_trust {
	bool curve;   /**< every link came over DNSCurve */
	uint8_t sec;  /**< the least enum cache_sec of the links */
	uint32_t ttl; /**< the least TTL in their images (UINT32_MAX: none) */
	uint8_t ede;  /**< the EDE code of the first bogus link (0: none) */
};

/* The least of two statuses: BOGUS if either is, else the weaker of
 * UNCHECKED < INSECURE < SECURE. */
static uint8_t sec_least(uint8_t a, uint8_t b)
{
	if (a == CACHE_SEC_BOGUS || b == CACHE_SEC_BOGUS)
		return CACHE_SEC_BOGUS;
	return a < b ? a : b;
}

/* Bytes and records of a read: the RRs, then its DNSSEC image. */
static size_t img_len(const struct cache_answer *ans)
{
	return ans->len + ans->dnssec_len;
}

static uint16_t img_count(const struct cache_answer *ans)
{
	return (uint16_t)(ans->count + ans->dnssec_count);
}

/* The TTL answer_read left in every record of a read's images. */
static uint32_t img_ttl(const struct cache_answer *ans)
{
	return ans->stale ? ANSWER_STALE_TTL : ans->ttl;
}

static void trust_add(struct answer_trust *t, const struct cache_answer *ans)
{
	if (img_ttl(ans) < t->ttl)
		t->ttl = img_ttl(ans);
	t->curve = t->curve && ans->curve != 0;
	t->sec = sec_least(t->sec, (uint8_t)ans->sec);
	if (ans->sec == CACHE_SEC_BOGUS && t->ede == 0)
		t->ede = ans->ede;
}

/*
 * A CNAME image for l->name sits at buf[0..clen): when a proper
 * ancestor of the name holds a DNAME that synthesizes it, put the DNAME
 * RRset (and its RRSIGs, when read) before it (RFC 6672 3.1). Returns
 * the DNAME's length and record count through dlen and dcount (0 when
 * there is none), and adds the DNAME's provenance and status to *t.
 */
static void chase_dname(struct answer_chase *ch, const struct answer_link *l,
                        uint8_t *buf, size_t clen, size_t cap, size_t *dlen,
                        uint16_t *dcount, struct answer_trust *t)
{
	struct cache_answer ans;
	const uint8_t *name = l->name;
	size_t off = 0, nlen = l->nlen;

	*dlen = 0;
	*dcount = 0;
	while (off < nlen && name[off] != 0) {
		off += (size_t)name[off] + 1;
		if (off >= nlen - 1)
			break; /* the root: no DNAME looked for there */
		if (!answer_read(ch, name + off, nlen - off, WIRE_TYPE_DNAME,
		                 &ans, buf + clen, cap - clen) ||
		    ans.kind != CACHE_KIND_RRSET)
			continue;
		if (!dname_maps(buf + clen, ans.len, name, nlen, nlen - off,
		                l->target, l->tlen))
			return;
		rotate(buf, clen, img_len(&ans));
		*dlen = img_len(&ans);
		*dcount = img_count(&ans);
		trust_add(t, &ans);
		return;
	}
}

size_t answer_dname_before(struct answer_chase *ch, const uint8_t *name,
                           size_t nlen, const uint8_t *target, size_t tlen,
                           uint8_t *buf, size_t clen, size_t cap,
                           uint16_t *count, uint8_t *sec, bool *curve)
{
	struct answer_link l = { name, nlen, target, tlen };
	struct answer_trust t = { true, CACHE_SEC_SECURE, UINT32_MAX, 0 };
	size_t dlen;

	chase_dname(ch, &l, buf, clen, cap, &dlen, count, &t);
	*sec = t.sec;
	*curve = t.curve;
	return dlen;
}

void answer_dnssec_split(const struct cache_answer *ans, const uint8_t *img,
                         struct answer_split *sp)
{
	struct answer_rr rr;
	size_t end = img_len(ans), pos = ans->len, next = pos, olen;
	uint16_t n = 0;

	sp->sig_len = ans->dnssec_len;
	sp->sig_count = (uint16_t)ans->dnssec_count;
	/* the marker: fewer records than one RRSIG and a proof hold */
	if (ans->kind != CACHE_KIND_RRSET ||
	    ans->dnssec_count < ANSWER_PROOF_MIN_RRS)
		return;
	olen = answer_name_span(img, ans->len, 0);
	while (n < ans->dnssec_count &&
	       answer_rr_owned(img, end, &next, img, olen, &rr) &&
	       rr.type == WIRE_TYPE_RRSIG) {
		pos = next;
		n++;
	}
	sp->sig_len = pos - ans->len;
	sp->sig_count = n;
}

/* An RRset read whose image holds a wildcard proof (rare: out of line,
 * so that the usual hit's answer_from_cache stays a leaf): the RRSIGs
 * of the set end the answer section, the proof is the authority. */
__attribute__((noinline)) static void
proof_to_authority(const struct cache_answer *ans, uint8_t *buf, size_t used,
                   uint16_t an, struct answer *a)
{
	struct answer_split sp;

	answer_dnssec_split(ans, buf + used, &sp);
	a->an_len = used + ans->len + sp.sig_len;
	a->an_count = (uint16_t)(an + ans->count + sp.sig_count);
	a->ns = buf + a->an_len;
	a->ns_len = ans->dnssec_len - sp.sig_len;
	a->ns_count = (uint16_t)(ans->dnssec_count - sp.sig_count);
}

void answer_from_cache(const struct cache_answer *ans, uint8_t *buf,
                       size_t used, uint16_t an, bool curve, struct answer *a)
{
	memset(a, 0, sizeof(*a));
	a->an = buf;
	a->an_len = used;
	a->an_count = an;
	a->rcode = WIRE_RCODE_NOERROR;
	a->curve = curve && ans->curve != 0;
	a->sec = (uint8_t)ans->sec;
	if (ans->sec == CACHE_SEC_BOGUS)
		a->ede_code = ans->ede; /* why, as found first (0: unknown) */
	if (ans->kind == CACHE_KIND_RRSET) {
		a->an_len += img_len(ans);
		a->an_count = (uint16_t)(an + img_count(ans));
		if (ans->dnssec_count >= ANSWER_PROOF_MIN_RRS)
			proof_to_authority(ans, buf, used, an, a);
		return;
	}
	if (ans->kind == CACHE_KIND_NXDOMAIN)
		a->rcode = WIRE_RCODE_NXDOMAIN;
	a->ns = buf + used;
	a->ns_len = img_len(ans);
	a->ns_count = img_count(ans);
}

/* A CNAME link read at buf[used..) whose image may hold a proof (out of
 * line: rare): the proof moves to buf[cap - its length, cap), where the
 * chase keeps the proofs of its links (its cap shrinks by as much);
 * returns the split (what stays in the answer section: the CNAME and
 * its RRSIGs). */
__attribute__((noinline)) static struct answer_split
link_proof_out(const struct cache_answer *ans, uint8_t *buf, size_t used,
               size_t cap)
{
	struct answer_split sp;
	size_t plen;

	answer_dnssec_split(ans, buf + used, &sp);
	plen = ans->dnssec_len - sp.sig_len;
	memmove(buf + cap - plen, buf + used + ans->len + sp.sig_len, plen);
	return sp;
}

/* Whether sec[0..len) holds the record r of img already (the same
 * owner, type, class and RDATA; TTLs may differ). */
static bool image_has(const uint8_t *sec, size_t len, const uint8_t *img,
                      const struct answer_rr *r)
{
	struct answer_rr x;
	size_t pos = 0;

	while (answer_rr_next(sec, len, &pos, &x))
		if (x.type == r->type && x.rclass == r->rclass &&
		    x.ownerlen == r->ownerlen && x.rdlen == r->rdlen &&
		    memcmp(sec + x.owner, img + r->owner, r->ownerlen) == 0 &&
		    memcmp(sec + x.rdata, img + r->rdata, r->rdlen) == 0)
			return true;
	return false;
}

/* The kept proofs of the links, buf[cap, cap + len), join the authority
 * section of *a, whose images end before them, each record once (the
 * links of a chain in one zone often carry the same NSEC/NSEC3 records,
 * and so does the negative answer at its end). Each record moves down
 * to the end of the section, never past the records still to read. */
__attribute__((noinline)) static void
link_proofs_in(struct answer *a, uint8_t *buf, size_t cap, size_t len)
{
	uint8_t *sec = a->ns != NULL ? (uint8_t *)a->ns : buf + a->an_len;
	const uint8_t *src = buf + cap;
	struct answer_rr rr;
	size_t pos = 0, start = 0;

	if (a->ns == NULL)
		a->ns = sec;
	while (answer_rr_next(src, len, &pos, &rr)) {
		if (a->ns_count < UINT16_MAX &&
		    !image_has(sec, a->ns_len, src, &rr)) {
			memmove(sec + a->ns_len, src + start, pos - start);
			a->ns_len += pos - start;
			a->ns_count++;
		}
		start = pos;
	}
}

/* The question was for a CNAME that a cached DNAME synthesizes (read at
 * buf[*used..)): the DNAME RRset goes before it, as RFC 6672 section 3.1
 * has an answer carry it (out of line: rare). */
__attribute__((noinline)) static void
cname_question_dname(struct answer_chase *ch, const uint8_t *name, size_t nlen,
                     const struct cache_answer *ans, uint8_t *buf,
                     size_t *used, uint16_t *an, size_t cap,
                     struct answer_trust *t)
{
	uint8_t target[WIRE_NAME_MAX];
	struct answer_link l = { name, nlen, target, 0 };
	struct answer_rr rr;
	size_t pos = 0, dlen;
	uint16_t dcount;

	if (!answer_rr_next(buf + *used, ans->len, &pos, &rr) ||
	    rr.type != WIRE_TYPE_CNAME ||
	    !rdata_name(buf + *used, &rr, target, &l.tlen))
		return;
	chase_dname(ch, &l, buf + *used, img_len(ans), cap - *used, &dlen,
	            &dcount, t);
	*used += dlen;
	*an = (uint16_t)(*an + dcount);
}

int answer_chase(struct answer_chase *ch, const uint8_t *lname,
                 size_t lnamelen, uint16_t qtype, struct answer *a,
                 uint8_t *buf, size_t cap)
{
	struct cache_answer ans;
	uint8_t name[WIRE_NAME_MAX], target[WIRE_NAME_MAX];
	struct answer_link l = { name, lnamelen, target, 0 };
	struct answer_trust t = { true, CACHE_SEC_SECURE, UINT32_MAX, 0 };
	size_t used = 0, dlen, keep, plen = 0;
	uint16_t an = 0, dcount, kcount;
	unsigned link;

	if (ch == NULL || ch->cache == NULL || lname == NULL || a == NULL ||
	    buf == NULL || lnamelen > WIRE_NAME_MAX)
		return ANSWER_EINVAL;
	memcpy(name, lname, lnamelen);
	for (link = 0; link <= ANSWER_CNAME_MAX; link++) {
		if (answer_read(ch, name, l.nlen, qtype, &ans, buf + used,
		                cap - used)) {
			if (qtype == WIRE_TYPE_CNAME &&
			    ans.kind == CACHE_KIND_RRSET)
				cname_question_dname(ch, name, l.nlen, &ans,
				                     buf, &used, &an, cap, &t);
			answer_from_cache(&ans, buf, used, an, t.curve, a);
			/* a bogus link before the end: its reason, as the
			 * chain met it first */
			if (an > 0 && t.ede != 0)
				a->ede_code = t.ede;
			if (an > 0)
				a->sec = sec_least(a->sec, t.sec);
			if (ans.kind == CACHE_KIND_RRSET &&
			    img_ttl(&ans) < t.ttl)
				t.ttl = img_ttl(&ans);
			a->an_ttl = a->an_count > 0 ? t.ttl : 0;
			if (plen > 0)
				link_proofs_in(a, buf, cap, plen);
			return ANSWER_OK;
		}
		if (qtype == WIRE_TYPE_CNAME ||
		    !answer_cname(ch, name, l.nlen, &ans, buf + used,
		                  cap - used, target, &l.tlen))
			return ANSWER_EMISS;
		keep = img_len(&ans);
		kcount = img_count(&ans);
		if (ans.dnssec_count >= ANSWER_PROOF_MIN_RRS) {
			struct answer_split sp = link_proof_out(&ans, buf,
			                                        used, cap);

			keep = ans.len + sp.sig_len;
			kcount = (uint16_t)(ans.count + sp.sig_count);
			cap -= img_len(&ans) - keep;
			plen += img_len(&ans) - keep;
		}
		chase_dname(ch, &l, buf + used, keep, cap - used, &dlen,
		            &dcount, &t);
		used += keep + dlen;
		an = (uint16_t)(an + kcount + dcount);
		trust_add(&t, &ans);
		memcpy(name, target, l.tlen);
		l.nlen = l.tlen;
	}
	return ANSWER_EMISS;
}
