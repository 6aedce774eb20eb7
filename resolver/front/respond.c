/*
 * resolver/front/respond.c - parse client queries, write client responses,
 * answer from the cache (the hot path: no allocation anywhere here).
 */
#include "respond.h"

#include <stdio.h>
#include <string.h>

#include "base/log.h"
#include "base/netaddr.h"
#include "cache.h"
#include "wire/rrtext.h"

/** A compression pointer (RFC 1035 4.1.4). */
#define RESPOND_PTR_BYTES 2
/** Type and class of a question. */
#define RESPOND_QFIXED_BYTES 4
/** Where the header's counts start (QDCOUNT; section n at 4 + 2n). */
#define RESPOND_COUNT_OFFSET 4
/** The second flags byte of the header (AD lives there). */
#define RESPOND_FLAGS_LOW 3
/** DNSSEC record types (RFC 4034, RFC 5155). */
#define RESPOND_TYPE_RRSIG 46
#define RESPOND_TYPE_NSEC 47
#define RESPOND_TYPE_NSEC3 50
/** RFC 8914: the EDNS option code, and its fixed part (OPTION-CODE,
 *  OPTION-LENGTH, INFO-CODE). */
#define RESPOND_EDE_OPTION 15
#define RESPOND_EDE_FIXED_BYTES 6

const char *respond_strerror(int status)
{
	switch (status) {
	case RESPOND_OK: return "ok";
	case RESPOND_EDROP: return "not a query: dropped";
	case RESPOND_EFORMERR: return "malformed query";
	case RESPOND_ENOTIMP: return "opcode not implemented";
	case RESPOND_EBADVERS: return "unsupported EDNS version";
	case RESPOND_EMISS: return "not in the cache";
	case RESPOND_ESPACE: return "buffer too small";
	case RESPOND_EINVAL: return "invalid argument or record image";
	default: return "unknown status";
	}
}

const char *respond_sec_name(uint8_t sec)
{
	switch (sec) {
	case CACHE_SEC_SECURE: return "secure";
	case CACHE_SEC_INSECURE: return "insecure";
	case CACHE_SEC_BOGUS: return "bogus";
	default: return "unchecked";
	}
}

/* ------------------------------------------------------------------ */
/* Parsing the client query                                            */

/* The question into q: as sent, and lowercased for lookups. */
static void query_take(const struct wire_question *wq, struct respond_query *q)
{
	memcpy(q->qname, wq->name, wq->namelen);
	memcpy(q->lname, wq->name, wq->namelen);
	wire_name_lower(q->lname, wq->namelen);
	q->qnamelen = wq->namelen;
	q->qtype = wq->qtype;
	q->qclass = wq->qclass;
	q->has_question = true;
}

/* Read the question alone (for error answers to broken queries). */
static void query_salvage(const uint8_t *pkt, size_t len,
                          const struct wire_header *h, struct respond_query *q)
{
	struct wire_question wq;
	size_t pos = WIRE_HEADER_BYTES;

	if (h->qdcount != 1 ||
	    wire_read_question(pkt, len, &pos, &wq) != WIRE_OK)
		return;
	query_take(&wq, q);
}

/* Take the EDNS fields of an OPT record. */
static int query_opt(const struct wire_rr *opt, struct respond_query *q)
{
	q->edns = true;
	q->edns_size = opt->rclass < WIRE_UDP_PLAIN_MAX ? WIRE_UDP_PLAIN_MAX :
	                                                  opt->rclass;
	q->edns_do = (opt->ttl & WIRE_EDNS_DO) != 0;
	q->edns_version = (uint8_t)(opt->ttl >> 16);
	return q->edns_version != 0 ? RESPOND_EBADVERS : RESPOND_OK;
}

/* Take the EDNS fields of the OPT record, if any. */
static int query_edns(const struct wire_msg *m, struct respond_query *q)
{
	if (m->opt == WIRE_NONE)
		return RESPOND_OK;
	return query_opt(&m->rr[m->opt], q);
}

/*
 * The hot path: the usual query (QUERY, one question, no records but at
 * most one OPT record owned by the root) read without the general
 * parser. Returns false, with q untouched but for id and flags, for
 * anything else: respond_query_parse then decides, so the result is the
 * same either way.
 */
static bool query_fast(const uint8_t *pkt, size_t len,
                       const struct wire_header *h, size_t pos,
                       struct respond_query *q, int *status)
{
	struct wire_question wq;
	struct wire_rr opt;

	if (WIRE_OPCODE(h->flags) != WIRE_OPCODE_QUERY || h->qdcount != 1 ||
	    h->ancount != 0 || h->nscount != 0 || h->arcount > 1 ||
	    wire_read_question(pkt, len, &pos, &wq) != WIRE_OK)
		return false;
	if (h->arcount == 1 &&
	    (wire_read_rr(pkt, len, &pos, &opt) != WIRE_OK ||
	     opt.type != WIRE_TYPE_OPT || pkt[opt.owner] != 0))
		return false;
	query_take(&wq, q);
	*status = h->arcount == 1 ? query_opt(&opt, q) : RESPOND_OK;
	return true;
}

int respond_query_parse(const uint8_t *pkt, size_t len,
                        struct respond_query *q)
{
	struct wire_rr rr[RESPOND_QUERY_RR_MAX];
	struct wire_header h;
	struct wire_msg m;
	size_t pos = 0;
	int rc;

	memset(q, 0, sizeof(*q));
	if (pkt == NULL || wire_read_header(pkt, len, &pos, &h) != WIRE_OK ||
	    (h.flags & WIRE_FLAG_QR))
		return RESPOND_EDROP;
	q->id = h.id;
	q->flags = h.flags;
	if (query_fast(pkt, len, &h, pos, q, &rc))
		return rc;
	if (WIRE_OPCODE(h.flags) != WIRE_OPCODE_QUERY) {
		query_salvage(pkt, len, &h, q);
		return RESPOND_ENOTIMP;
	}
	if (wire_msg_parse(&m, pkt, len, rr, RESPOND_QUERY_RR_MAX) !=
	    WIRE_OK) {
		query_salvage(pkt, len, &h, q);
		return RESPOND_EFORMERR;
	}
	if (!m.has_question)
		return RESPOND_EFORMERR;
	query_take(&m.q, q);
	if (m.an != 0 || m.ns != 0)
		return RESPOND_EFORMERR;
	return query_edns(&m, q);
}

size_t respond_udp_limit(const struct respond_query *q, size_t our_max)
{
	size_t lim = WIRE_UDP_PLAIN_MAX;

	if (q->edns && q->edns_size > lim)
		lim = q->edns_size;
	if (our_max < lim)
		lim = our_max;
	if (lim > RESPOND_UDP_MAX)
		lim = RESPOND_UDP_MAX;
	return lim < WIRE_UDP_PLAIN_MAX ? WIRE_UDP_PLAIN_MAX : lim;
}

/* ------------------------------------------------------------------ */
/* Writing responses                                                   */

/* Store a 16-bit big-endian value. */
static void put16(uint8_t *p, unsigned v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/*
 * The question, first thing after the header: the bytes and compression
 * targets wire_write_question would give (nothing written before can be
 * pointed to), without its search and bookkeeping.
 */
static int resp_question(struct wire_writer *w, const struct respond_query *q)
{
	size_t s, need = q->qnamelen + RESPOND_QFIXED_BYTES;
	uint8_t *p = w->buf + w->len;

	if (w->len != WIRE_HEADER_BYTES || w->nnames != 0)
		return wire_write_question(w, q->qname, q->qnamelen, q->qtype,
		                           q->qclass) == WIRE_OK ?
		               RESPOND_OK :
		               RESPOND_ESPACE;
	if (wire_name_check(q->qname, q->qnamelen) != WIRE_OK ||
	    w->cap < w->len || w->cap - w->len < need)
		return RESPOND_ESPACE;
	memcpy(p, q->qname, q->qnamelen);
	put16(p + q->qnamelen, q->qtype);
	put16(p + q->qnamelen + 2, q->qclass);
	for (s = 0; q->qname[s] != 0 && w->nnames < WIRE_COMPRESS_MAX;
	     s += 1 + (size_t)q->qname[s])
		w->names[w->nnames++] = (uint16_t)(w->len + s);
	w->len += need;
	put16(w->buf + RESPOND_COUNT_OFFSET, 1);
	return RESPOND_OK;
}

/* Header and question; the writer is left after the question. */
static int resp_begin(const struct respond_query *q, unsigned rcode,
                      struct wire_writer *w, uint8_t *out, size_t cap)
{
	struct wire_header h;

	memset(&h, 0, sizeof h);
	h.id = q->id;
	h.flags = (uint16_t)(WIRE_FLAG_QR | WIRE_FLAG_RA |
	                     (q->flags &
	                      (0x7800u | WIRE_FLAG_RD | WIRE_FLAG_CD)) |
	                     (rcode & 0x0fu));
	wire_writer_init(w, out, cap);
	if (wire_write_header(w, &h) != WIRE_OK)
		return RESPOND_ESPACE;
	if (q->has_question && resp_question(w, q) != RESPOND_OK)
		return RESPOND_ESPACE;
	return RESPOND_OK;
}

/* The EXTRA-TEXT of an EDE: at most RESPOND_EDE_TEXT_MAX bytes, cut
 * before a UTF-8 continuation byte so it stays UTF-8 (RFC 8914). */
static size_t ede_text_len(const char *text)
{
	size_t n;

	if (text == NULL)
		return 0;
	n = strnlen(text, RESPOND_EDE_TEXT_MAX);
	if (text[n] != '\0')
		while (n > 0 && ((uint8_t)text[n] & 0xc0) == 0x80)
			n--;
	return n;
}

/* Our OPT record: our payload size, the extended RCODE, DO copied. */
static int resp_opt(const struct respond_query *q, unsigned rcode,
                    struct wire_writer *w)
{
	if (!q->edns)
		return RESPOND_OK;
	if (wire_write_opt(w, RESPOND_UDP_MAX, (uint8_t)(rcode >> 4),
	                   q->edns_do) != WIRE_OK)
		return RESPOND_ESPACE;
	return RESPOND_OK;
}

/* The same with an EDE option (RFC 8914 section 2: OPTION-CODE 15,
 * OPTION-LENGTH, INFO-CODE, EXTRA-TEXT without NUL); only with EDNS. */
static int resp_opt_ede(const struct respond_query *q, unsigned rcode,
                        uint16_t code, const char *text, struct wire_writer *w)
{
	static const uint8_t root[1] = { 0 };
	uint8_t opt[RESPOND_EDE_FIXED_BYTES + RESPOND_EDE_TEXT_MAX];
	size_t tlen = ede_text_len(text);
	uint32_t ttl = (uint32_t)(rcode >> 4) << 24;

	put16(opt, RESPOND_EDE_OPTION);
	put16(opt + 2, (unsigned)(2 + tlen));
	put16(opt + 4, code);
	if (tlen > 0)
		memcpy(opt + RESPOND_EDE_FIXED_BYTES, text, tlen);
	if (q->edns_do)
		ttl |= WIRE_EDNS_DO;
	if (wire_write_rr(w, WIRE_SECTION_ADDITIONAL, root, sizeof root,
	                  WIRE_TYPE_OPT, RESPOND_UDP_MAX, ttl, opt,
	                  RESPOND_EDE_FIXED_BYTES + tlen) != WIRE_OK)
		return RESPOND_ESPACE;
	return RESPOND_OK;
}

int respond_error(const struct respond_query *q, unsigned rcode, uint8_t *out,
                  size_t cap, size_t *outlen)
{
	struct wire_writer w;
	int rc;

	if (q == NULL || out == NULL || outlen == NULL)
		return RESPOND_EINVAL;
	rc = resp_begin(q, rcode, &w, out, cap);
	if (rc == RESPOND_OK)
		rc = resp_opt(q, rcode, &w);
	if (rc != RESPOND_OK)
		return rc;
	*outlen = w.len;
	return RESPOND_OK;
}

/* The header count of a section. */
static unsigned section_count(const struct wire_writer *w,
                              enum wire_section sec)
{
	const uint8_t *c = w->buf + RESPOND_COUNT_OFFSET + 2 * (size_t)sec;

	return (unsigned)c[0] << 8 | c[1];
}

/*
 * A record owned by the question name (the usual answer), written by
 * hand: its owner is a pointer to the question at offset 12, the bytes
 * wire_write_rr would write after a search of every name written before;
 * the rest (type, class, TTL, RDLENGTH, RDATA) is the image's as it is.
 * *n is the section's header count, kept by the caller, written back.
 */
static int rr_at_question(struct wire_writer *w, enum wire_section sec,
                          unsigned *n, const uint8_t *img,
                          const struct answer_rr *r)
{
	size_t rest = ANSWER_RR_FIXED_BYTES + (size_t)r->rdlen;
	uint8_t *p = w->buf + w->len;

	if (w->len > w->cap || w->cap - w->len < RESPOND_PTR_BYTES + rest)
		return RESPOND_ESPACE;
	if (*n >= 0xffffu)
		return RESPOND_EINVAL;
	put16(p, 0xc000u | WIRE_HEADER_BYTES);
	memcpy(p + RESPOND_PTR_BYTES, img + r->owner + r->ownerlen, rest);
	w->len += RESPOND_PTR_BYTES + rest;
	*n += 1;
	put16(w->buf + RESPOND_COUNT_OFFSET + 2 * (size_t)sec, *n);
	return RESPOND_OK;
}

/*
 * Whether a DO=0 client is spared a record (RFC 4035 section 3.2.1,
 * RFC 6840 section 5): RRSIGs in any section, NSEC and NSEC3 in the
 * authority section, unless the question asked for that type.
 */
static bool rr_hidden(uint16_t type, enum wire_section sec, uint16_t qtype)
{
	if (type == qtype)
		return false;
	if (type == RESPOND_TYPE_RRSIG)
		return true;
	return sec == WIRE_SECTION_AUTHORITY &&
	       (type == RESPOND_TYPE_NSEC || type == RESPOND_TYPE_NSEC3);
}

/* The record at *pos when its owner is not the question name: through
 * the general writer, which compresses it against every name written
 * before; *n, the section's count, is read back after it. */
static int rr_other(struct wire_writer *w, enum wire_section sec,
                    const struct respond_query *q, const uint8_t *img,
                    size_t len, size_t *pos, bool hide, unsigned *n)
{
	struct answer_rr r;
	int rc;

	if (!answer_rr_next(img, len, pos, &r))
		return RESPOND_EINVAL;
	if (r.type >= RESPOND_TYPE_RRSIG && hide &&
	    rr_hidden(r.type, sec, q != NULL ? q->qtype : 0))
		return RESPOND_OK;
	rc = wire_write_rr(w, sec, img + r.owner, r.ownerlen, r.type, r.rclass,
	                   r.ttl, img + r.rdata, r.rdlen);
	if (rc == WIRE_ESPACE)
		return RESPOND_ESPACE;
	if (rc != WIRE_OK)
		return RESPOND_EINVAL;
	*n = section_count(w, sec);
	return RESPOND_OK;
}

/* Write the `count` records of an image into one section; q (NULL: no
 * question written) lets records owned by the question name point to
 * it at once (most records are: compared, not scanned); hide leaves out
 * what a DO=0 client is spared. */
static int resp_section(struct wire_writer *w, enum wire_section sec,
                        const struct respond_query *q, const uint8_t *img,
                        size_t len, uint16_t count, bool hide)
{
	struct answer_rr r;
	size_t pos = 0;
	uint16_t i;
	unsigned n = count > 0 ? section_count(w, sec) : 0;
	int rc;

	for (i = 0; i < count; i++) {
		if (q == NULL || !answer_rr_owned(img, len, &pos, q->lname,
		                                  q->qnamelen, &r))
			rc = rr_other(w, sec, q, img, len, &pos, hide, &n);
		else if (hide && r.type >= RESPOND_TYPE_RRSIG &&
		         rr_hidden(r.type, sec, q->qtype))
			continue;
		else
			rc = rr_at_question(w, sec, &n, img, &r);
		if (rc != RESPOND_OK)
			return rc;
	}
	return RESPOND_OK;
}

/* The authority section did not fit: it goes; TC when it was needed
 * (no answer, or to a DO=1 client, for whom it is the proof: RFC 4035
 * section 3.1.3). Out of line: rare. */
__attribute__((cold, noinline)) static void auth_cut(struct wire_writer *w,
                                                     const struct wire_mark *m,
                                                     bool needed, bool *tc)
{
	wire_writer_rollback(w, m);
	if (needed)
		*tc = true;
}

/* Write the answer and authority sections, cutting at the writer's cap;
 * *tc is set when the client must retry over TCP. */
static int resp_records(struct wire_writer *w, const struct respond_query *q,
                        const struct answer *a, bool dnssec, bool *tc)
{
	struct wire_mark m;
	int rc;

	if (!q->has_question)
		q = NULL;
	wire_writer_mark(w, &m);
	rc = resp_section(w, WIRE_SECTION_ANSWER, q, a->an, a->an_len,
	                  a->an_count, !dnssec);
	if (rc == RESPOND_ESPACE) {
		wire_writer_rollback(w, &m);
		*tc = true;
		return RESPOND_OK;
	}
	if (rc != RESPOND_OK)
		return rc;
	wire_writer_mark(w, &m);
	rc = resp_section(w, WIRE_SECTION_AUTHORITY, q, a->ns, a->ns_len,
	                  a->ns_count, !dnssec);
	if (rc == RESPOND_ESPACE)
		auth_cut(w, &m, a->an_count == 0 || dnssec, tc);
	return rc == RESPOND_ESPACE ? RESPOND_OK : rc;
}

/*
 * Whether a response of this RCODE may carry AD: only an answer
 * (NOERROR, NXDOMAIN) has sections to vouch for (RFC 4035 section
 * 3.2.3); SERVFAIL, REFUSED, FORMERR and every other error never do,
 * whatever the status of the data that led there (a loop of secure
 * CNAMEs, a secure DNAME that rewrites to itself).
 */
static bool rcode_may_ad(unsigned rcode)
{
	return rcode == WIRE_RCODE_NOERROR || rcode == WIRE_RCODE_NXDOMAIN;
}

/*
 * Whether an EDE INFO-CODE tells a DNSSEC verdict (RFC 8914 section 4:
 * 1, 2, 5 to 12; 25 and 27 from IANA's registry). Such a code has no
 * place on the data a CD=1 client asked for (as Unbound: its issue 1293
 * called EDE 6 on a CD answer a bug); a code with its own reason, as 3
 * Stale Answer, stays.
 */
static bool ede_is_dnssec(uint16_t code)
{
	return code == RESPOND_EDE_ALG || code == RESPOND_EDE_DIGEST ||
	       (code >= RESPOND_EDE_INDETERMINATE &&
	        code <= RESPOND_EDE_NSEC_MISSING) ||
	       code == RESPOND_EDE_EXPIRED_BEFORE_VALID ||
	       code == RESPOND_EDE_NSEC3_ITERATIONS;
}

void respond_plan(const struct respond_query *q, const struct answer *a,
                  struct respond_plan *p)
{
	p->rcode = a->rcode;
	p->records = true;
	p->dnssec = q->edns_do; /* set only with EDNS */
	p->ad = false;
	p->bogus = false;
	p->ede = a->ede && q->edns; /* no OPT, no EDE */
	p->ede_code = a->ede_code;
	p->ede_text = a->ede_text;
	if (a->sec == CACHE_SEC_SECURE) {
		/* RFC 6840 section 5.7: AD only to clients that show they
		 * understand it (DO=1 or AD=1). */
		p->ad = (p->dnssec || (q->flags & WIRE_FLAG_AD) != 0) &&
		        rcode_may_ad(p->rcode);
		return;
	}
	if (a->sec != CACHE_SEC_BOGUS)
		return;
	p->bogus = true;
	if (q->flags & WIRE_FLAG_CD) {
		/* RFC 4035 section 3.2.2: the data, without AD, and without
		 * the validator's EDE, fresh (a->ede) as from the cache
		 * (only a->ede_code): one answer to one question */
		if (p->ede && rcode_may_ad(a->rcode) &&
		    ede_is_dnssec(a->ede_code))
			p->ede = false;
		return;
	}
	p->rcode = WIRE_RCODE_SERVFAIL;
	p->records = false;
	p->ede = q->edns;
	p->ede_code = a->ede || a->ede_code != 0 ? a->ede_code :
	                                           RESPOND_EDE_BOGUS;
	p->ede_text = a->ede ? a->ede_text : NULL;
}

/*
 * The bytes kept free for the OPT record while the records are written
 * (used: header and question). An EDE that does not fit beside them
 * loses its EXTRA-TEXT, then the option itself: the response still goes
 * with its own RCODE (a comment never turns an answer into SERVFAIL).
 */
static size_t resp_reserve(const struct respond_query *q,
                           struct respond_plan *p, size_t used, size_t lim)
{
	size_t opt = RESPOND_OPT_BYTES, ede = RESPOND_EDE_FIXED_BYTES;

	if (!q->edns)
		return 0;
	if (!p->ede || used + opt + ede > lim) {
		p->ede = false;
		return opt;
	}
	if (used + opt + ede + ede_text_len(p->ede_text) > lim)
		p->ede_text = NULL;
	return opt + ede + ede_text_len(p->ede_text);
}

/*
 * The records, cut at the writer's cap. An error RCODE never sets TC:
 * a client asking again over TCP would get the same error; what does not
 * fit goes (the question, RCODE and EDE stay).
 */
static int resp_body(struct wire_writer *w, const struct respond_query *q,
                     const struct answer *a, const struct respond_plan *p,
                     bool *tc)
{
	struct wire_mark m;
	int rc;

	if (!p->records)
		return RESPOND_OK;
	if (rcode_may_ad(p->rcode)) /* an answer: the hot path */
		return resp_records(w, q, a, p->dnssec, tc);
	wire_writer_mark(w, &m);
	rc = resp_records(w, q, a, p->dnssec, tc);
	if (rc == RESPOND_OK && *tc) {
		wire_writer_rollback(w, &m);
		*tc = false;
	}
	return rc;
}

/*
 * The records did not fit beside the EDE kept free for (resp_reserve):
 * an answer comes before a comment on it, so the EXTRA-TEXT gives its
 * room, then the option, until the answer section goes whole; TC for
 * an empty answer only when it does not fit beside a bare OPT record
 * (then the EDE goes out as planned). Without this a NOERROR that fits went
 * out empty with TC=1 for the sake of its EDE, and the client asked again over
 * TCP for nothing. *m holds the length and compression targets after the
 * question; its counts (QDCOUNT alone) are filled in here: w goes back to it
 * before each try. Out of line: rare.
 */
__attribute__((cold, noinline)) static int
resp_body_room(struct wire_writer *w, struct wire_mark *m,
               const struct respond_query *q, const struct answer *a,
               struct respond_plan *p, size_t lim, bool *tc)
{
	struct respond_plan whole = *p;
	bool found = section_count(w, WIRE_SECTION_ANSWER) > 0;
	int rc;

	memset(m->counts, 0, sizeof m->counts);
	m->counts[WIRE_SECTION_QUESTION] = q->has_question ? 1 : 0;
	while (p->ede) {
		if (p->ede_text != NULL)
			p->ede_text = NULL;
		else
			p->ede = false;
		wire_writer_rollback(w, m);
		*tc = false;
		w->cap = lim - resp_reserve(q, p, m->len, lim);
		rc = resp_body(w, q, a, p, tc);
		if (rc != RESPOND_OK || !*tc)
			return rc;
		/* only the authority cut (the answer section goes whole or
		 * not at all): the first such plan, if no other fits */
		if (!found && section_count(w, WIRE_SECTION_ANSWER) > 0) {
			whole = *p;
			found = true;
		}
	}
	*p = whole; /* cut anyway: the answer whole, or the EDE as planned */
	wire_writer_rollback(w, m);
	*tc = false;
	w->cap = lim - resp_reserve(q, p, m->len, lim);
	return resp_body(w, q, a, p, tc);
}

int respond_build(const struct respond_query *q, const struct answer *a,
                  size_t limit, uint8_t *out, size_t cap, size_t *outlen,
                  bool *truncated)
{
	struct respond_plan p = {
		0, true, false, false, false, false, 0, NULL
	};
	struct wire_writer w;
	struct wire_mark m;
	size_t reserve, lim;
	bool tc = false;
	int rc;

	if (q == NULL || a == NULL || out == NULL || outlen == NULL)
		return RESPOND_EINVAL;
	/* The usual answer, unsigned or secure without an EDE, goes as it
	 * is with AD as respond_plan sets it (RFC 6840 section 5.7): the
	 * plan's fields stay in registers on the hot path. */
	p.rcode = a->rcode;
	p.dnssec = q->edns_do;
	if (a->sec == CACHE_SEC_SECURE && !a->ede)
		p.ad = p.dnssec || (q->flags & WIRE_FLAG_AD) != 0;
	else if (a->sec > CACHE_SEC_SECURE || a->ede)
		respond_plan(q, a, &p);
	lim = limit < cap ? limit : cap;
	rc = resp_begin(q, p.rcode, &w, out, lim);
	if (rc != RESPOND_OK)
		return rc;
	reserve = resp_reserve(q, &p, w.len, lim);
	if (w.len + reserve > lim)
		return RESPOND_ESPACE;
	w.cap = lim - reserve;
	m.len = w.len; /* after the question: resp_body_room's mark */
	m.nnames = w.nnames;
	rc = resp_body(&w, q, a, &p, &tc);
	if (rc == RESPOND_OK && tc && p.ede)
		rc = resp_body_room(&w, &m, q, a, &p, lim, &tc);
	if (rc != RESPOND_OK)
		return rc;
	w.cap = lim;
	rc = p.ede ? resp_opt_ede(q, p.rcode, p.ede_code, p.ede_text, &w) :
	             resp_opt(q, p.rcode, &w);
	if (rc != RESPOND_OK)
		return rc;
	if (tc)
		out[2] |= (uint8_t)(WIRE_FLAG_TC >> 8);
	/* the one place AD is written: never on an error */
	if (p.ad && rcode_may_ad(p.rcode))
		out[RESPOND_FLAGS_LOW] |= (uint8_t)WIRE_FLAG_AD;
	if (truncated != NULL)
		*truncated = tc;
	*outlen = w.len;
	return RESPOND_OK;
}

__attribute__((cold, noinline)) void
respond_tc_note(const struct respond_query *q, const struct answer *a,
                const uint8_t *out, size_t len, const struct sockaddr *client)
{
	char addr[NETADDR_TEXT_MAX], name[WIRE_NAME_TEXT_MAX];
	char type[RRTEXT_NAME_MAX];
	struct wire_header h;
	size_t pos = 0;

	if (log_level() < CFG_LOG_DEBUG ||
	    wire_read_header(out, len, &pos, &h) != WIRE_OK ||
	    h.ancount != 0 || h.nscount != 0)
		return;
	netaddr_text(client, addr, sizeof addr);
	if (!q->has_question ||
	    wire_name_to_text(q->lname, q->qnamelen, name, sizeof name,
	                      NULL) != WIRE_OK)
		snprintf(name, sizeof name, "?");
	log_debug("udp_truncated_empty",
	          "client=%s name=%s type=%s rcode=%u bytes=%zu an=%u "
	          "an_bytes=%zu ns=%u ns_bytes=%zu do=%d",
	          addr, name, rrtext_type_name(q->qtype, type),
	          (unsigned)a->rcode, len, (unsigned)a->an_count, a->an_len,
	          (unsigned)a->ns_count, a->ns_len, q->edns_do ? 1 : 0);
}

/* ------------------------------------------------------------------ */
/* Answers from the cache                                              */

/* Meta and transfer types that are never resolved (RFC 1035, 2845,
 * 2930, 1995, 5936). */
#define RESPOND_TYPE_TKEY 249
#define RESPOND_TYPE_TSIG 250
#define RESPOND_TYPE_IXFR 251
#define RESPOND_TYPE_AXFR 252
#define RESPOND_TYPE_MAILB 253
#define RESPOND_TYPE_MAILA 254

unsigned respond_policy(const struct respond_query *q)
{
	if (q->qclass != WIRE_CLASS_IN)
		return WIRE_RCODE_REFUSED;
	switch (q->qtype) {
	case 0:
	case WIRE_TYPE_OPT: return WIRE_RCODE_FORMERR;
	case RESPOND_TYPE_IXFR:
	case RESPOND_TYPE_AXFR: return WIRE_RCODE_REFUSED;
	case RESPOND_TYPE_TKEY:
	case RESPOND_TYPE_TSIG:
	case RESPOND_TYPE_MAILB:
	case RESPOND_TYPE_MAILA: return WIRE_RCODE_NOTIMP;
	default: return 0;
	}
}

int respond_cache_answer(struct cache *c, const uint8_t *lname,
                         size_t lnamelen, uint16_t qtype, uint16_t qclass,
                         time_t now, struct answer *a, uint8_t *buf,
                         size_t cap)
{
	return respond_cache_answer_flags(c, lname, lnamelen, qtype, qclass,
	                                  now, 0, a, buf, cap);
}

unsigned respond_chase_flags(const struct respond_query *q)
{
	return q->edns && q->edns_do ? ANSWER_CHASE_DNSSEC : 0;
}

int respond_cache_answer_flags(struct cache *c, const uint8_t *lname,
                               size_t lnamelen, uint16_t qtype,
                               uint16_t qclass, time_t now, unsigned flags,
                               struct answer *a, uint8_t *buf, size_t cap)
{
	struct answer_chase ch = { c, qclass, now, flags & ANSWER_CHASE_DNSSEC,
		                   0, false };

	switch (answer_chase(&ch, lname, lnamelen, qtype, a, buf, cap)) {
	case ANSWER_OK: return RESPOND_OK;
	case ANSWER_EINVAL: return RESPOND_EINVAL;
	default: return RESPOND_EMISS;
	}
}

int respond_cache_referral(struct cache *c, const uint8_t *lname,
                           size_t lnamelen, uint16_t qclass, time_t now,
                           struct answer *a, uint8_t *buf, size_t cap)
{
	struct cache_answer ans;
	struct cache_query cq;

	if (c == NULL || a == NULL)
		return RESPOND_EINVAL;
	cq.name = lname;
	cq.name_len = lnamelen;
	cq.type = WIRE_TYPE_NS;
	cq.klass = qclass;
	cq.flags = 0;
	if (cache_closest_ns(c, &cq, now, &ans, buf, cap) != CACHE_OK)
		return RESPOND_EMISS;
	memset(a, 0, sizeof(*a));
	a->rcode = WIRE_RCODE_NOERROR;
	a->ns = buf;
	a->ns_len = ans.len;
	a->ns_count = (uint16_t)ans.count;
	return RESPOND_OK;
}
