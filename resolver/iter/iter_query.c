/*
 * resolver/iter/iter_query.c - the QUERY state: server sets (NS names, their
 * addresses and DNSCurve keys), address filters, the choice of the next
 * server (sel.h), sub-resolutions for glueless NS names, and the target
 * handed to the caller.
 */
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>

#include "cache.h"
#include "conf/cfg.h"
#include "curve.h"
#include "infra/hints.h"
#include "iter_int.h"
#include "base/log.h"
#include "base/netaddr.h"
#include "infra/sel.h"

/** Bytes read from the cache for the addresses of one NS name. */
#define ITER_ADDR_IMAGE_BYTES 2048
/** Candidates considered for one send. */
#define ITER_CAND_MAX (ITER_NS_MAX * ITER_NS_ADDRS)

void iter_addr_sockaddr(const struct iter_addr *a, struct sockaddr_storage *sa,
                        socklen_t *len)
{
	*len = netaddr_make(sa, a->ip,
	                    a->family == AF_INET ? ITER_IPV4_BYTES :
	                                           ITER_IPV6_BYTES,
	                    a->port != 0 ? a->port : ITER_PORT);
}

/* 127/8, 0/8, ::1, :: and v4-mapped forms of the first two. */
static bool iter_addr_local(const struct iter_addr *a)
{
	static const uint8_t mapped[12] = { 0, 0, 0, 0, 0,    0,
		                            0, 0, 0, 0, 0xff, 0xff };
	static const uint8_t zero[ITER_IPV6_BYTES];
	const uint8_t *v4 = NULL;

	if (a->family == AF_INET)
		v4 = a->ip;
	else if (memcmp(a->ip, mapped, sizeof(mapped)) == 0)
		v4 = a->ip + sizeof(mapped);
	if (v4 != NULL)
		return v4[0] == 127 || v4[0] == 0;
	if (memcmp(a->ip, zero, ITER_IPV6_BYTES - 1) != 0)
		return false;
	return a->ip[ITER_IPV6_BYTES - 1] <= 1;
}

bool iter_addr_ok(const struct iter_req *req, const struct iter_ns *ns,
                  const struct iter_addr *a)
{
	const struct cfg *cfg = req->env->cfg;

	if (cfg == NULL)
		return true;
	if (a->family == AF_INET && !cfg->do_ip4)
		return false;
	if (a->family == AF_INET6 && !cfg->do_ip6)
		return false;
	if (cfg->do_not_query_localhost && !ns->hints && iter_addr_local(a))
		return false;
	return true;
}

void iter_ns_add_addr(struct iter_req *req, struct iter_ns *ns, uint16_t type,
                      const uint8_t *rdata, size_t rdlen)
{
	struct iter_addr a;
	size_t i;

	memset(&a, 0, sizeof(a));
	if (type == WIRE_TYPE_A && rdlen == ITER_IPV4_BYTES)
		a.family = AF_INET;
	else if (type == WIRE_TYPE_AAAA && rdlen == ITER_IPV6_BYTES)
		a.family = AF_INET6;
	else
		return;
	memcpy(a.ip, rdata, rdlen);
	if (!iter_addr_ok(req, ns, &a) || ns->naddr == ITER_NS_ADDRS)
		return;
	for (i = 0; i < ns->naddr; i++)
		if (ns->addr[i].family == a.family &&
		    memcmp(ns->addr[i].ip, a.ip, ITER_IPV6_BYTES) == 0)
			return;
	ns->addr[ns->naddr++] = a;
}

void iter_ns_set_name(const struct iter_req *req, struct iter_ns *ns,
                      const uint8_t *name, size_t len)
{
	const struct cfg *cfg = req->env->cfg;
	uint8_t key[CURVE_KEY_BYTES];

	memset(ns, 0, sizeof(*ns));
	memcpy(ns->name, name, len);
	ns->namelen = len;
	wire_name_lower(ns->name, len);
	if (cfg == NULL || !cfg->curve)
		return;
	if (curve_keylabel_find_wire(ns->name, len, key) == CURVE_OK) {
		ns->curve = true;
		memcpy(ns->key, key, KEY_BYTES);
	}
}

/** Addresses remembered for one NS name (more: not remembered). */
#define ITER_ADDR_MEMO_IPS 8

/* The A and AAAA records last read from the cache for an NS name, kept
 * while what was read holds (iter_memo_get): every cold name read its
 * zone's server addresses again. They go through iter_ns_add_addr each
 * time, as read. */
struct iter_addr_memo {
	uint8_t v4, v6; /**< the types read (do-ip4, do-ip6) */
	uint8_t n;
	bool over; /**< more records than kept: not remembered */
	uint16_t type[ITER_ADDR_MEMO_IPS];
	uint8_t ip[ITER_ADDR_MEMO_IPS][ITER_IPV6_BYTES];
	time_t expire; /**< the first entry read to expire */
};

/* Addresses of one type for an NS name from the cache (any rank), each
 * also noted in m (may be NULL). */
static void iter_ns_read(struct iter_req *req, struct iter_ns *ns,
                         uint16_t type, uint16_t store,
                         struct iter_addr_memo *m)
{
	uint8_t img[ITER_ADDR_IMAGE_BYTES];
	struct cache_query q = { ns->name, ns->namelen, store, WIRE_CLASS_IN,
		                 0 };
	struct cache_answer ans;
	struct answer_rr rr;
	size_t pos = 0, n;
	int rc = cache_get(req->env->cache, &q, req->now.wall, &ans, img,
	                   sizeof(img));

	/* whatever entry was picked (a negative one too) holds until it
	 * expires: then another may be */
	if (m != NULL && (rc == CACHE_OK || rc == CACHE_ESPACE) &&
	    ans.expire < m->expire)
		m->expire = ans.expire;
	if (rc != CACHE_OK || ans.kind != CACHE_KIND_RRSET)
		return;
	for (n = 0; n < ans.count && answer_rr_next(img, ans.len, &pos, &rr);
	     n++) {
		if (rr.type != store)
			continue;
		iter_ns_add_addr(req, ns, type, img + rr.rdata, rr.rdlen);
		if (m == NULL ||
		    rr.rdlen != (type == WIRE_TYPE_A ? ITER_IPV4_BYTES :
		                                       ITER_IPV6_BYTES))
			continue; /* iter_ns_add_addr takes none such */
		if (m->n == ITER_ADDR_MEMO_IPS) {
			m->over = true;
			continue;
		}
		m->type[m->n] = type;
		memcpy(m->ip[m->n], img + rr.rdata, rr.rdlen);
		m->n++;
	}
}

void iter_ns_cache_type(struct iter_req *req, struct iter_ns *ns,
                        uint16_t type, uint16_t store)
{
	iter_ns_read(req, ns, type, store, NULL);
}

/* ns's addresses from the memo; false: none that holds. */
static bool iter_addr_memo_get(struct iter_req *req, struct iter_ns *ns,
                               bool v4, bool v6)
{
	struct iter_addr_memo m;
	size_t j;

	if (!iter_memo_get(req, ITER_MK_IP, ns->name, ns->namelen, &m,
	                   sizeof m) ||
	    m.v4 != v4 || m.v6 != v6)
		return false;
	for (j = 0; j < m.n; j++)
		iter_ns_add_addr(req, ns, m.type[j], m.ip[j],
		                 m.type[j] == WIRE_TYPE_A ? ITER_IPV4_BYTES :
		                                            ITER_IPV6_BYTES);
	return true;
}

/* Read ns's addresses from the cache and remember them. */
static void iter_addr_memo_read(struct iter_req *req, struct iter_ns *ns,
                                bool v4, bool v6)
{
	struct iter_addr_memo m;
	struct cache_watch w;

	memset(&m, 0, sizeof m);
	m.v4 = v4;
	m.v6 = v6;
	m.expire = (time_t)INT64_MAX;
	if (cache_watch(req->env->cache, ns->name, ns->namelen, &w) !=
	    CACHE_OK)
		m.over = true;
	if (v4)
		iter_ns_read(req, ns, WIRE_TYPE_A, WIRE_TYPE_A, &m);
	if (v6)
		iter_ns_read(req, ns, WIRE_TYPE_AAAA, WIRE_TYPE_AAAA, &m);
	if (!m.over)
		iter_memo_put(req, ITER_MK_IP, ns->name, ns->namelen, &w,
		              m.expire, &m, sizeof m);
}

void iter_ns_cache_addrs(struct iter_req *req, struct iter_ns *ns)
{
	const struct cfg *cfg = req->env->cfg;
	bool v4 = cfg == NULL || cfg->do_ip4, v6 = cfg == NULL || cfg->do_ip6;

	if (!iter_addr_memo_get(req, ns, v4, v6))
		iter_addr_memo_read(req, ns, v4, v6);
	/* A root server named by the hints whose address nothing gave
	 * (a priming answer without addresses): the hints' (RFC 8109
	 * section 4.3). */
	if (ns->hints && ns->naddr == 0)
		iter_ns_hints_addrs(req, ns);
}

void iter_zone_from_hints(struct iter_req *req, struct iter_zone *z)
{
	const struct hints *h = req->env->hints;
	size_t i, n = hints_ns_count(h);

	iter_zone_reset(z);
	z->name[0] = 0;
	z->len = 1;
	for (i = 0; i < n; i++) {
		struct iter_ns *ns = iter_zone_add(z);
		size_t len;
		const uint8_t *name = hints_ns_name(h, i, &len);

		if (ns == NULL)
			return;
		iter_ns_set_name(req, ns, name, len);
		ns->hints = true;
		iter_hints_addrs(req, ns, i);
	}
}

bool iter_zone_usable(const struct iter_req *req, const struct iter_zone *z)
{
	size_t i, j;

	for (i = 0; i < z->nns; i++) {
		const struct iter_ns *ns = &z->ns[i];

		if (!iter_name_under(ns->name, ns->namelen, z->name, z->len))
			return true;
		for (j = 0; j < ns->naddr; j++)
			if (iter_addr_ok(req, ns, &ns->addr[j]))
				return true;
	}
	return false;
}

/* Whether a query of the current step to (ns, addr) is still waiting
 * (not yet timed out). */
static bool iter_addr_open(const struct iter_req *req, size_t fi, size_t ns,
                           size_t addr)
{
	size_t i;

	for (i = 0; i < req->nout; i++) {
		const struct iter_out *o = req->out[i];

		if (o->used && !o->timed_out && o->frame == fi &&
		    o->gen == req->frame[fi]->gen && o->ns == ns &&
		    o->addr == addr)
			return true;
	}
	return false;
}

/** Candidate servers for one send. */
struct iter_cands {
	struct sockaddr_storage ss[ITER_CAND_MAX];
	const struct sockaddr *sa[ITER_CAND_MAX];
	size_t ns[ITER_CAND_MAX], addr[ITER_CAND_MAX];
	size_t n;
};

/* Collect the addresses tried `tries` times so far and still usable. */
static void iter_cands_collect(const struct iter_req *req, size_t fi,
                               unsigned tries, struct iter_cands *c)
{
	const struct iter_zone *z = &req->frame[fi]->zone;
	size_t i, j;

	c->n = 0;
	for (i = 0; i < z->nns; i++) {
		for (j = 0; j < z->ns[i].naddr; j++) {
			const struct iter_addr *a = &z->ns[i].addr[j];
			socklen_t sl;

			if (a->dead || a->tries != tries ||
			    !iter_addr_ok(req, &z->ns[i], a) ||
			    iter_addr_open(req, fi, i, j))
				continue;
			iter_addr_sockaddr(a, &c->ss[c->n], &sl);
			c->sa[c->n] = (const struct sockaddr *)&c->ss[c->n];
			c->ns[c->n] = i;
			c->addr[c->n] = j;
			c->n++;
		}
	}
}

uint32_t iter_random(const struct iter_req *req)
{
	uint32_t r;

	if (req->env->random != NULL)
		return req->env->random();
	curve_random(&r, sizeof(r));
	return r;
}

/** Why a server was chosen (the sel_choose debug line). */
enum iter_why {
	ITER_WHY_RTT = 0, /**< the lowest score (smoothed RTT) */
	ITER_WHY_UNKNOWN, /**< at random among unknown servers */
	ITER_WHY_RETRY    /**< a second try, or the FORMERR retry */
};

/* Choose the next server: the FORMERR retry first, then the best of the
 * least tried addresses among those tried fewer than `upto` times. */
static bool iter_pick(struct iter_req *req, size_t fi, unsigned upto,
                      size_t *ns, size_t *addr, enum iter_why *why)
{
	struct iter_frame *f = req->frame[fi];
	struct iter_cands c;
	unsigned tries;

	*why = ITER_WHY_RETRY;
	if (f->retry_set) {
		f->retry_set = false;
		if (f->retry_ns < f->zone.nns &&
		    f->retry_addr < f->zone.ns[f->retry_ns].naddr) {
			*ns = f->retry_ns;
			*addr = f->retry_addr;
			return true;
		}
	}
	for (tries = 0; tries < upto; tries++) {
		size_t k;
		bool unknown;

		iter_cands_collect(req, fi, tries, &c);
		k = sel_choose(req->env->sel, c.sa, c.n, f->zone.name,
		               f->zone.len, req->now.mono_ms,
		               c.n > 1 ? iter_random(req) : 0, &unknown);
		if (k != SEL_NONE) {
			*ns = c.ns[k];
			*addr = c.addr[k];
			if (tries == 0)
				*why = unknown ? ITER_WHY_UNKNOWN :
				                 ITER_WHY_RTT;
			return true;
		}
	}
	return false;
}

/* Whether a query of frame fi passed its hedge deadline unanswered (the
 * send being made now is the hedge). */
static bool iter_frame_hedging(const struct iter_req *req, size_t fi)
{
	size_t i;

	for (i = 0; i < req->nout; i++) {
		const struct iter_out *o = req->out[i];

		if (o->used && o->hedged && !o->timed_out && o->frame == fi &&
		    o->gen == req->frame[fi]->gen)
			return true;
	}
	return false;
}

/* The retry of an address whose last query timed out goes over TCP when
 * the server answered lately: a drop (rate limiting, RRL), which TCP
 * gets around; a dead server is not worth a connection. */
static bool iter_retry_tcp(const struct iter_req *req,
                           const struct iter_addr *a,
                           const struct sockaddr *sa)
{
	struct sel_info info;

	if (!a->dropped || a->tries == 0)
		return false;
	sel_info_get(req->env->sel, sa, req->now.mono_ms, &info);
	return info.answered && info.answer_age_ms < SEL_ALIVE_MS;
}

/* One key=value debug line per server choice. */
static void iter_log_choice(const struct iter_req *req, size_t fi,
                            const struct iter_target *t, const char *why)
{
	const struct iter_frame *f = req->frame[fi];
	char zone[WIRE_NAME_TEXT_MAX], addr[INET6_ADDRSTRLEN];

	if (log_level() < CFG_LOG_DEBUG)
		return;
	iter_log_where(f, (const struct sockaddr *)&t->addr, zone, sizeof zone,
	               addr, sizeof addr);
	log_debug("sel_choose",
	          "zone=%s server=%s why=%s timeout_ms=%u "
	          "hedge_ms=%u tcp=%s token=%u",
	          zone, addr, why, (unsigned)t->timeout_ms,
	          (unsigned)t->hedge_ms, t->tcp ? "yes" : "no",
	          (unsigned)t->token);
}

/* The target of a recorded query (timing fields apart). */
static void iter_target_fill(const struct iter_frame *f,
                             const struct iter_out *o, struct iter_target *t)
{
	t->token = o->token;
	memcpy(t->qname, o->qname, o->qnamelen);
	t->qnamelen = o->qnamelen;
	t->qtype = o->qtype;
	t->qclass = f->qclass;
	memcpy(t->zone, f->zone.name, f->zone.len);
	t->zonelen = f->zone.len;
	memcpy(&t->addr, &o->sa, sizeof(o->sa));
	t->addrlen = o->salen;
	t->curve = o->curve;
	memcpy(t->key, o->key, KEY_BYTES);
	t->edns = o->edns;
}

/* What the step asks: the zone's keys first when its trust needs them
 * (iter_trust.c), else the question (or its QNAME minimisation probe). */
static void iter_out_question(const struct iter_frame *f, struct iter_out *o)
{
	const uint8_t *qname;

	iter_qmin_name(f, &qname, &o->qnamelen, &o->qtype, &o->minimised);
	if (f->trust == ITER_T_NEED_KEY && !f->prime) {
		qname = f->zone.name;
		o->qnamelen = f->zone.len;
		o->qtype = WIRE_TYPE_DNSKEY;
		o->minimised = false;
		o->keyq = true;
	} else if (f->curve_ask) {
		qname = f->zone.name;
		o->qnamelen = f->zone.len;
		o->qtype = WIRE_TYPE_NS;
		o->minimised = false;
		o->nsq = true;
	}
	memcpy(o->qname, qname, o->qnamelen);
}

/* Fill the target for (ns, addr) and record the outstanding query. */
static bool iter_send(struct iter_req *req, size_t fi, size_t nsi, size_t ai,
                      enum iter_why why, struct iter_target *t)
{
	static const char *const why_text[] = { "rtt", "unknown-random",
		                                "retry" };
	bool hedging = iter_frame_hedging(req, fi);
	struct iter_frame *f = req->frame[fi];
	struct iter_ns *ns = &f->zone.ns[nsi];
	struct iter_out *o;
	const struct sockaddr *sa;
	uint64_t left = req->deadline_ms - req->now.mono_ms;
	uint32_t timeout;

	memset(t, 0, sizeof(*t));
	o = iter_out_alloc(req);
	if (o == NULL)
		return false;
	memset(o, 0, sizeof(*o));
	o->used = true;
	o->token = req->next_token++;
	o->frame = fi;
	o->gen = f->gen;
	o->ns = nsi;
	o->addr = ai;
	iter_addr_sockaddr(&ns->addr[ai], &o->sa, &o->salen);
	sa = (const struct sockaddr *)&o->sa;
	iter_out_question(f, o);
	o->curve = ns->curve;
	memcpy(o->key, ns->key, KEY_BYTES);
	o->edns = sel_edns(req->env->sel, sa, req->now.mono_ms) &&
	                          req->env->cfg != NULL ?
	                  req->env->cfg->edns_size :
	                  0;
	o->sent_ms = req->now.mono_ms;
	iter_dz_sent(req, fi, o);
	sel_zone_note(req->env->sel, sa, f->zone.name, f->zone.len,
	              req->now.mono_ms);
	timeout = sel_timeout_ms(req->env->sel, sa, req->now.mono_ms);
	if (timeout > left)
		timeout = left > 0 ? (uint32_t)left : 1;
	t->hedge_ms = sel_hedge_ms(req->env->sel, sa, req->now.mono_ms);
	if (t->hedge_ms >= timeout)
		t->hedge_ms = 0;
	t->tcp = iter_retry_tcp(req, &ns->addr[ai], sa);
	ns->addr[ai].tries++;
	req->counts.sends++;
	if (o->curve) {
		req->counts.sends_curve++;
		sel_key_set(req->env->sel, sa, o->key, req->now.mono_ms);
	}
	iter_target_fill(f, o, t);
	t->edns_do = t->edns != 0 && iter_val_on(req);
	t->rd = f->zone.fwd != 0; /* a forwarder recurses for us */
	iter_dane_fill(req, f, ns, t);
	if (t->rd)
		iter_tally(req->env->tally.fwd_sends);
	t->timeout_ms = timeout;
	iter_log_choice(req, fi, t,
	                why == ITER_WHY_RETRY ? "retry" :
	                hedging               ? "hedge" :
	                                        why_text[why]);
	return true;
}

/* Whether some frame of the stack already resolves (name, type). */
static bool iter_stack_has(const struct iter_req *req, const uint8_t *name,
                           size_t len, uint16_t qtype)
{
	size_t i;

	for (i = 0; i <= req->depth; i++)
		if (req->frame[i]->qtype == qtype &&
		    wire_name_equal(req->frame[i]->sname,
		                    req->frame[i]->snamelen, name, len))
			return true;
	return false;
}

/* Whether a server of zone z has an address. */
static bool iter_zone_has_addr(const struct iter_zone *z)
{
	size_t i;

	for (i = 0; i < z->nns; i++)
		if (z->ns[i].naddr > 0)
			return true;
	return false;
}

/* The address type to resolve next for an NS name, or 0. */
static uint16_t iter_sub_type(const struct iter_req *req,
                              const struct iter_zone *z,
                              const struct iter_ns *ns)
{
	const struct cfg *cfg = req->env->cfg;
	bool ip4 = cfg == NULL || cfg->do_ip4;
	bool ip6 = cfg == NULL || cfg->do_ip6;

	/* Known addresses (usable or spent): nothing new to learn. */
	if (ns->naddr > 0)
		return 0;
	/* A name in the zone: only the zone's own servers know it. The
	 * root's are asked (RFC 8109 section 4.3: a priming answer
	 * without addresses for names the hints lack) when one of them
	 * has an address; other zones' glueless names in the zone wait
	 * for glue. */
	if (iter_name_under(ns->name, ns->namelen, z->name, z->len) &&
	    (z->len != 1 || !iter_zone_has_addr(z)))
		return 0;
	if (ip4 && !(ns->sub & ITER_SUB_A))
		return WIRE_TYPE_A;
	if (ip6 && !(ns->sub & ITER_SUB_AAAA))
		return WIRE_TYPE_AAAA;
	return 0;
}

/* Start a sub-resolution for a glueless NS name; false: none possible
 * (*why tells a cap that stopped it). */
static bool iter_sub_start(struct iter_req *req, size_t fi, const char **why)
{
	struct iter_zone *z = &req->frame[fi]->zone;
	size_t i;

	for (i = 0; i < z->nns; i++) {
		struct iter_ns *ns = &z->ns[i];
		uint16_t type = iter_sub_type(req, z, ns);

		if (type == 0)
			continue;
		if (req->depth >= ITER_MAX_DEPTH) {
			*why = "sub-resolution depth cap";
			return false;
		}
		if (req->subqueries >= ITER_MAX_SUBQUERIES) {
			*why = "sub-resolution cap";
			return false;
		}
		ns->sub |= type == WIRE_TYPE_A ? ITER_SUB_A : ITER_SUB_AAAA;
		if (iter_stack_has(req, ns->name, ns->namelen, type))
			continue;
		return iter_frame_push(req, i, type) == 0;
	}
	return false;
}

/* Send to (ns, addr) unless the send cap is reached. */
static int iter_query_send(struct iter_req *req, size_t fi, size_t ns,
                           size_t addr, enum iter_why why,
                           struct iter_target *t)
{
	if (req->counts.sends >= ITER_MAX_SENDS) {
		iter_finish(req, WIRE_RCODE_SERVFAIL, "upstream query cap");
		return ITER_DONE;
	}
	if (!iter_send(req, fi, ns, addr, why, t)) {
		iter_finish(req, WIRE_RCODE_SERVFAIL, "no query slot");
		return ITER_DONE;
	}
	return ITER_SEND;
}

int iter_state_query(struct iter_req *req, size_t fi, struct iter_target *t)
{
	struct iter_frame *f = req->frame[fi];
	const char *why = NULL;
	enum iter_why pick;
	size_t ns, addr;

	/* a query waits, or every slot holds a hedged query still waiting
	 * for its answer (its real timeout frees one) */
	if (iter_frame_busy(req, fi) || !iter_out_room(req))
		return ITER_WAIT;
	if (iter_dz_blocked(req, fi))
		return ITER_CONTINUE;
	if (iter_trust_step(req, fi))
		return ITER_CONTINUE;
	iter_curvesec_step(req, fi);
	if (iter_enc_step(req, fi))
		return ITER_CONTINUE;
	iter_qmin_skip(req, fi);
	/* Untried addresses, then untried glueless NS names, then retries. */
	if (iter_pick(req, fi, 1, &ns, &addr, &pick) ||
	    (!iter_sub_start(req, fi, &why) &&
	     iter_pick(req, fi, ITER_TRIES_MAX, &ns, &addr, &pick)))
		return iter_query_send(req, fi, ns, addr, pick, t);
	if (req->depth > fi)
		return ITER_CONTINUE;
	/* Priming got no answer: the hints as they are. */
	if (f->prime) {
		iter_prime_done(req, fi);
		return ITER_CONTINUE;
	}
	/* Every server tried: when none answered, the zone is held (other
	 * questions into it fail at once, RFC 9520); ask the parent again
	 * once (the late answers of this step stay welcome), then wait for
	 * a late answer until the deadline (a server that takes 2 s is
	 * slow, not dead). */
	if (why == NULL)
		iter_dz_silent(req, fi);
	if (why == NULL &&
	    (iter_fwd_fallback(req, fi) || iter_cut_fallback(req, fi)))
		return ITER_CONTINUE;
	if (why == NULL && iter_frame_lingering(req, fi))
		return ITER_WAIT;
	if (why != NULL)
		req->cap_why = why;
	iter_fwd_failed(req, fi);
	iter_fail(f, why != NULL ? why : "no server could answer");
	return ITER_CONTINUE;
}
