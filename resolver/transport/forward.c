/*
 * resolver/transport/forward.c - forward zones (see forward.h): c-ares
 * channels run by the worker's libuv loop, and the check, caching and answer
 * image of a forwarder's response.
 */
#include "forward.h"

#include <arpa/inet.h>
#include <ares.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "iter/iter.h"
#include "wire/wire.h"

/** Bytes of the servers CSV of one zone ("[v6]:port," each). */
#define FWD_CSV_BYTES (CFG_ZONE_ADDRS * (INET6_ADDRSTRLEN + 10))
/** Bytes of a query we send (name, question, OPT). */
#define FWD_QUERY_BYTES (WIRE_HEADER_BYTES + WIRE_NAME_MAX + 4 + 11)
/** Microseconds per millisecond. */
#define FWD_US_PER_MS 1000

/** One zone: its c-ares channel and timeout timer. */
struct fwd_zone {
	struct forward *f;
	ares_channel ch;
	bool open;         /**< channel made */
	uv_timer_t *timer; /**< freed by its close callback */
};

/** One socket c-ares watches. */
struct fwd_poll {
	struct fwd_zone *z;
	ares_socket_t fd;
	struct fwd_poll *next;
	uv_poll_t h;
};

struct forward {
	uv_loop_t *loop;
	struct cfg_zone zones[CFG_MAX_ZONES];
	size_t n;
	struct fwd_zone z[CFG_MAX_ZONES];
	struct fwd_poll *polls;
	uint32_t timeout_ms;
	bool stopped;
};

struct forward_query {
	forward_cb cb; /**< NULL once cancelled */
	void *arg;
	bool sending;        /**< inside ares_send */
	bool failed_at_once; /**< c-ares called back inside it */
};

const char *forward_strerror(int status)
{
	switch (status) {
	case FORWARD_OK: return "ok";
	case FORWARD_EFAIL: return "every forwarder failed";
	case FORWARD_EMSG: return "not a response to the question";
	case FORWARD_ERCODE: return "forwarder answered an error RCODE";
	case FORWARD_ESPACE: return "buffer too small";
	case FORWARD_EINVAL: return "invalid argument";
	case FORWARD_ENOMEM: return "out of memory";
	case FORWARD_EARES: return "c-ares set-up failed";
	default: return "unknown status";
	}
}

/* ------------------------------------------------------------------ */
/* c-ares in the libuv loop                                            */

static void timer_closed_cb(uv_handle_t *h)
{
	free(h);
}

static void poll_closed_cb(uv_handle_t *h)
{
	free(h->data);
}

static void timer_cb(uv_timer_t *t);

/* Arm the zone's timer for c-ares's next timeout (or stop it). */
static void timer_update(struct fwd_zone *z)
{
	struct timeval tv, *tvp;
	uint64_t ms;

	if (!z->open)
		return;
	tvp = ares_timeout(z->ch, NULL, &tv);
	if (tvp == NULL) {
		uv_timer_stop(z->timer);
		return;
	}
	ms = (uint64_t)tvp->tv_sec * FWD_US_PER_MS +
	     (uint64_t)tvp->tv_usec / FWD_US_PER_MS + 1;
	uv_timer_start(z->timer, timer_cb, ms, 0);
}

static void timer_cb(uv_timer_t *t)
{
	struct fwd_zone *z = t->data;

	if (!z->open)
		return;
	ares_process_fd(z->ch, ARES_SOCKET_BAD, ARES_SOCKET_BAD);
	timer_update(z);
}

static void poll_cb(uv_poll_t *h, int status, int events)
{
	struct fwd_poll *p = h->data;
	struct fwd_zone *z = p->z;
	ares_socket_t rfd = ARES_SOCKET_BAD, wfd = ARES_SOCKET_BAD;

	if (!z->open)
		return;
	if (status < 0 || (events & UV_READABLE))
		rfd = p->fd;
	if (status < 0 || (events & UV_WRITABLE))
		wfd = p->fd;
	ares_process_fd(z->ch, rfd, wfd);
	timer_update(z);
}

static struct fwd_poll **poll_find(struct forward *f, struct fwd_zone *z,
                                   ares_socket_t fd)
{
	struct fwd_poll **pp;

	for (pp = &f->polls; *pp != NULL; pp = &(*pp)->next)
		if ((*pp)->z == z && (*pp)->fd == fd)
			return pp;
	return pp;
}

/* c-ares opens, watches or closes a socket. */
static void sock_state_cb(void *data, ares_socket_t fd, int readable,
                          int writable)
{
	struct fwd_zone *z = data;
	struct forward *f = z->f;
	struct fwd_poll **pp = poll_find(f, z, fd), *p = *pp;
	int events = (readable ? UV_READABLE : 0) |
	             (writable ? UV_WRITABLE : 0);

	if (events == 0) {
		if (p == NULL)
			return;
		*pp = p->next;
		uv_poll_stop(&p->h);
		uv_close((uv_handle_t *)&p->h, poll_closed_cb);
		return;
	}
	if (p == NULL) {
		p = calloc(1, sizeof(*p));
		if (p == NULL)
			return; /* the query times out */
		if (uv_poll_init_socket(f->loop, &p->h, fd) != 0) {
			free(p);
			return;
		}
		p->z = z;
		p->fd = fd;
		p->h.data = p;
		p->next = f->polls;
		f->polls = p;
	}
	uv_poll_start(&p->h, events, poll_cb);
}

/* "a.b.c.d:port,[v6]:port" for a zone's servers. */
static void servers_csv(const struct cfg_zone *cz, char *out, size_t cap)
{
	size_t i, n = 0;

	out[0] = '\0';
	for (i = 0; i < cz->naddr && n < cap; i++) {
		const struct sockaddr *sa =
			(const struct sockaddr *)&cz->addr[i].sa;
		char a[INET6_ADDRSTRLEN];
		unsigned port;

		if (sa->sa_family == AF_INET) {
			const struct sockaddr_in *v4 = (const void *)sa;

			inet_ntop(AF_INET, &v4->sin_addr, a, sizeof a);
			port = ntohs(v4->sin_port);
			n += (size_t)snprintf(out + n, cap - n, "%s%s:%u",
			                      i ? "," : "", a, port);
		} else {
			const struct sockaddr_in6 *v6 = (const void *)sa;

			inet_ntop(AF_INET6, &v6->sin6_addr, a, sizeof a);
			port = ntohs(v6->sin6_port);
			n += (size_t)snprintf(out + n, cap - n, "%s[%s]:%u",
			                      i ? "," : "", a, port);
		}
	}
}

static int zone_open(struct forward *f, size_t i, char *err, size_t errlen)
{
	struct fwd_zone *z = &f->z[i];
	struct ares_options o;
	char csv[FWD_CSV_BYTES];
	int rc;

	z->f = f;
	z->timer = calloc(1, sizeof(*z->timer));
	if (z->timer == NULL)
		return FORWARD_ENOMEM;
	uv_timer_init(f->loop, z->timer);
	z->timer->data = z;
	memset(&o, 0, sizeof o);
	o.sock_state_cb = sock_state_cb;
	o.sock_state_cb_data = z;
	o.timeout = (int)f->timeout_ms;
	o.tries = FORWARD_TRIES;
	rc = ares_init_options(&z->ch, &o,
	                       ARES_OPT_SOCK_STATE_CB | ARES_OPT_TIMEOUTMS |
	                               ARES_OPT_TRIES);
	if (rc == ARES_SUCCESS) {
		z->open = true;
		servers_csv(&f->zones[i], csv, sizeof csv);
		rc = ares_set_servers_ports_csv(z->ch, csv);
	}
	if (rc != ARES_SUCCESS) {
		snprintf(err, errlen, "forward-zone servers: %s",
		         ares_strerror(rc));
		return FORWARD_EARES;
	}
	return FORWARD_OK;
}

/* The per-try timeout of a configuration. */
static uint32_t fwd_timeout_ms(const struct cfg *c)
{
	uint32_t ms = c->query_timeout_ms / (2 * FORWARD_TRIES);

	return ms < FORWARD_TIMEOUT_MIN_MS ? FORWARD_TIMEOUT_MIN_MS : ms;
}

bool forward_same(const struct forward *f, const struct cfg *c)
{
	return f != NULL && f->n == c->n_forward &&
	       memcmp(f->zones, c->forward, sizeof f->zones) == 0 &&
	       f->timeout_ms == fwd_timeout_ms(c);
}

int forward_new(struct forward **out, uv_loop_t *loop, const struct cfg *c,
                char *err, size_t errlen)
{
	static bool ares_ready;
	struct forward *f;
	size_t i;
	int rc = FORWARD_OK;

	if (!ares_ready && c->n_forward > 0) {
		if (ares_library_init(ARES_LIB_INIT_ALL) != ARES_SUCCESS) {
			snprintf(err, errlen, "c-ares cannot be initialised");
			return FORWARD_EARES;
		}
		ares_ready = true;
	}
	f = calloc(1, sizeof(*f));
	if (f == NULL)
		return FORWARD_ENOMEM;
	f->loop = loop;
	f->n = c->n_forward;
	memcpy(f->zones, c->forward, sizeof f->zones);
	f->timeout_ms = fwd_timeout_ms(c);
	for (i = 0; i < f->n && rc == FORWARD_OK; i++)
		rc = zone_open(f, i, err, errlen);
	*out = f;
	return rc;
}

void forward_stop(struct forward *f)
{
	size_t i;

	if (f == NULL || f->stopped)
		return;
	f->stopped = true;
	for (i = 0; i < f->n; i++) {
		struct fwd_zone *z = &f->z[i];

		if (z->open) /* closes its sockets: sock_state_cb(0, 0) */
			ares_destroy(z->ch);
		z->open = false;
		if (z->timer != NULL)
			uv_close((uv_handle_t *)z->timer, timer_closed_cb);
		z->timer = NULL;
	}
	while (f->polls != NULL) {
		struct fwd_poll *p = f->polls;

		f->polls = p->next;
		uv_poll_stop(&p->h);
		uv_close((uv_handle_t *)&p->h, poll_closed_cb);
	}
}

void forward_free(struct forward *f)
{
	free(f);
}

int forward_find(const struct forward *f, const uint8_t *lname, size_t len)
{
	if (f == NULL || f->n == 0)
		return -1;
	return cfg_zone_find(f->zones, f->n, lname, len);
}

static void ares_done_cb(void *arg, int status, int timeouts,
                         unsigned char *abuf, int alen)
{
	struct forward_query *q = arg;

	(void)timeouts;
	if (q->sending) {
		q->failed_at_once = true;
		return;
	}
	if (q->cb != NULL) {
		if (status == ARES_SUCCESS && abuf != NULL && alen > 0)
			q->cb(q->arg, FORWARD_OK, abuf, (size_t)alen);
		else
			q->cb(q->arg, FORWARD_EFAIL, NULL, 0);
	}
	free(q);
}

int forward_send(struct forward *f, int zone, const uint8_t *lname, size_t len,
                 uint16_t qtype, uint16_t qclass, forward_cb cb, void *arg,
                 struct forward_query **out)
{
	uint8_t pkt[FWD_QUERY_BYTES];
	struct wire_query wq;
	struct forward_query *q;
	struct fwd_zone *z;
	size_t plen;

	if (f == NULL || zone < 0 || (size_t)zone >= f->n || cb == NULL ||
	    f->stopped || !f->z[zone].open)
		return FORWARD_EINVAL;
	z = &f->z[zone];
	memset(&wq, 0, sizeof wq);
	wq.qtype = qtype;
	wq.qclass = qclass;
	wq.flags = WIRE_FLAG_RD;
	wq.edns_payload = FORWARD_EDNS_PAYLOAD;
	if (wire_query_build(pkt, sizeof pkt, &plen, lname, len, &wq) !=
	    WIRE_OK)
		return FORWARD_EINVAL;
	q = calloc(1, sizeof(*q));
	if (q == NULL)
		return FORWARD_ENOMEM;
	q->cb = cb;
	q->arg = arg;
	q->sending = true;
	/* c-ares sets a fresh random ID; it may fail at once (calling back
	 * inside ares_send): then no callback, FORWARD_EFAIL. */
	ares_send(z->ch, pkt, (int)plen, ares_done_cb, q);
	q->sending = false;
	timer_update(z);
	if (q->failed_at_once) {
		free(q);
		return FORWARD_EFAIL;
	}
	*out = q;
	return FORWARD_OK;
}

void forward_cancel(struct forward_query *q)
{
	if (q != NULL)
		q->cb = NULL;
}

/* ------------------------------------------------------------------ */
/* The response                                                        */

/** TTLs above this read as 0 (RFC 2181 section 8). */
#define FWD_TTL_MAX 0x7fffffffu

/** Scratch of one forward_answer (heap: about 150 KB). */
struct fwd_scratch {
	struct wire_rr rr[WIRE_RR_MAX];
	struct cache_rdata rd[FORWARD_RRSET_MAX];
	uint8_t rdbuf[WIRE_MSG_MAX];
};

/** What the answer is being built from and into. */
struct fwd_build {
	struct cache *c;
	struct wire_msg m;
	struct fwd_scratch *s;
	time_t now;
	uint16_t qclass;
	uint8_t *buf;
	size_t cap, used;
	bool full;                   /**< an image did not fit */
	const struct privaddr *priv; /**< private-address (NULL: none) */
	uint64_t stripped;           /**< records it removed */
};

static bool rr_owner_is(const struct wire_msg *m, const struct wire_rr *rr,
                        const uint8_t *name, size_t len)
{
	uint8_t o[WIRE_NAME_MAX];
	size_t olen, pos = rr->owner;

	if (wire_read_name(m->buf, m->len, &pos, o, &olen, WIRE_NAME_LOWER) !=
	    WIRE_OK)
		return false;
	return olen == len && memcmp(o, name, len) == 0;
}

/* Append one record image: owner, type, class, TTL, RDLENGTH, RDATA. */
static void img_add(struct fwd_build *b, const uint8_t *owner, size_t olen,
                    uint16_t type, uint32_t ttl, const uint8_t *rd,
                    size_t rdlen)
{
	if (!answer_rr_append(b->buf, b->cap, &b->used, owner, olen, type,
	                      b->qclass, ttl, rd, rdlen))
		b->full = true;
}

/*
 * The answer records at name of a type (WIRE_TYPE_ANY: every type):
 * into the images, and (one type only) into the cache as one RRset.
 * Their expanded RDATA stays in s->rdbuf (the first at offset 0).
 * @return how many.
 */
static size_t take_set(struct fwd_build *b, const uint8_t *name, size_t len,
                       uint16_t type, uint16_t *count)
{
	struct fwd_scratch *s = b->s;
	size_t i, n = 0, off = 0, rdlen;
	uint32_t ttl = FWD_TTL_MAX;

	for (i = 0; i < b->m.an; i++) {
		const struct wire_rr *rr = &b->m.rr[i];
		uint32_t t = rr->ttl > FWD_TTL_MAX ? 0 : rr->ttl;

		if ((type != WIRE_TYPE_ANY && rr->type != type) ||
		    rr->type == WIRE_TYPE_OPT || rr->rclass != b->qclass ||
		    n == FORWARD_RRSET_MAX ||
		    !rr_owner_is(&b->m, rr, name, len) ||
		    !iter_rdata_expand(&b->m, rr, s->rdbuf + off,
		                       sizeof s->rdbuf - off, &rdlen))
			continue;
		if (privaddr_strip(b->priv, name, len, rr->type,
		                   s->rdbuf + off, rdlen)) {
			b->stripped++;
			continue;
		}
		s->rd[n].data = s->rdbuf + off;
		s->rd[n++].len = rdlen;
		off += rdlen;
		ttl = t < ttl ? t : ttl;
		img_add(b, name, len, rr->type, t, s->rdbuf + off - rdlen,
		        rdlen);
	}
	if (n > 0 && type != WIRE_TYPE_ANY) {
		struct cache_rrset set = { name, len,
			                   type, b->qclass,
			                   ttl,  s->rd,
			                   n,    CACHE_RANK_NONAUTH,
			                   NULL, CACHE_SEC_UNCHECKED,
			                   NULL, 0 };

		(void)cache_rrset_put(b->c, &set, b->now);
	}
	*count = (uint16_t)(*count + n);
	return n;
}

/* Follow the CNAME chain from the question; *name ends at its end. */
static size_t take_chain(struct fwd_build *b, uint8_t *name, size_t *len,
                         uint16_t qtype, uint16_t *count)
{
	unsigned link;

	for (link = 0; link <= ANSWER_CNAME_MAX; link++) {
		size_t pos = 0, tlen;

		if (take_set(b, name, *len, qtype, count) > 0)
			return 1;
		if (qtype == WIRE_TYPE_CNAME ||
		    take_set(b, name, *len, WIRE_TYPE_CNAME, count) == 0)
			return 0;
		/* The target: the expanded RDATA of the CNAME, a name. */
		if (wire_read_name(b->s->rdbuf, b->s->rd[0].len, &pos, name,
		                   &tlen, WIRE_NAME_LOWER) != WIRE_OK)
			return 0;
		*len = tlen;
	}
	return 0;
}

/* A negative answer: the SOA of the authority section, cached. */
static uint16_t take_negative(struct fwd_build *b, const uint8_t *name,
                              size_t len, uint16_t qtype, bool nx)
{
	size_t i, olen, rdlen;
	uint8_t owner[WIRE_NAME_MAX];

	for (i = b->m.an; i < b->m.an + b->m.ns; i++) {
		const struct wire_rr *rr = &b->m.rr[i];
		size_t pos = rr->owner;

		if (rr->type != WIRE_TYPE_SOA || rr->rclass != b->qclass ||
		    wire_read_name(b->m.buf, b->m.len, &pos, owner, &olen,
		                   WIRE_NAME_LOWER) != WIRE_OK ||
		    !iter_rdata_expand(&b->m, rr, b->s->rdbuf,
		                       sizeof b->s->rdbuf, &rdlen))
			continue;
		{
			uint32_t t = rr->ttl > FWD_TTL_MAX ? 0 : rr->ttl;
			struct cache_neg neg = { nx ? CACHE_KIND_NXDOMAIN :
				                      CACHE_KIND_NODATA,
				                 name,
				                 len,
				                 qtype,
				                 b->qclass,
				                 owner,
				                 olen,
				                 t,
				                 b->s->rdbuf,
				                 rdlen,
				                 CACHE_RANK_NONAUTH,
				                 NULL,
				                 CACHE_SEC_UNCHECKED,
				                 NULL,
				                 0 };

			(void)cache_neg_put(b->c, &neg, b->now);
			img_add(b, owner, olen, WIRE_TYPE_SOA, t, b->s->rdbuf,
			        rdlen);
		}
		return 1;
	}
	return 0;
}

/* Parse and match the response; its RCODE in *rcode. */
static int fwd_check(struct fwd_build *b, const uint8_t *msg, size_t len,
                     const uint8_t *lname, size_t lnamelen, uint16_t qtype,
                     unsigned *rcode)
{
	if (wire_msg_parse(&b->m, msg, len, b->s->rr, WIRE_RR_MAX) !=
	            WIRE_OK ||
	    wire_msg_match(&b->m, b->m.hdr.id, lname, lnamelen, qtype,
	                   b->qclass, 0) != WIRE_OK ||
	    (b->m.hdr.flags & WIRE_FLAG_TC))
		return FORWARD_EMSG;
	*rcode = wire_msg_rcode(&b->m);
	if (*rcode != WIRE_RCODE_NOERROR && *rcode != WIRE_RCODE_NXDOMAIN)
		return FORWARD_ERCODE;
	return FORWARD_OK;
}

int forward_answer(struct cache *c, const uint8_t *msg, size_t len,
                   const uint8_t *lname, size_t lnamelen, uint16_t qtype,
                   uint16_t qclass, time_t now, struct answer *a, uint8_t *buf,
                   size_t cap, const struct privaddr *priv, uint64_t *stripped)
{
	struct fwd_build b;
	uint8_t name[WIRE_NAME_MAX];
	size_t nlen = lnamelen;
	unsigned rcode = 0;
	uint16_t an = 0;
	int rc;

	if (c == NULL || msg == NULL || lname == NULL || a == NULL ||
	    buf == NULL || lnamelen == 0 || lnamelen > WIRE_NAME_MAX)
		return FORWARD_EINVAL;
	memset(&b, 0, sizeof b);
	b.s = malloc(sizeof(*b.s));
	if (b.s == NULL)
		return FORWARD_ENOMEM;
	b.c = c;
	b.now = now;
	b.qclass = qclass;
	b.buf = buf;
	b.cap = cap;
	b.priv = priv;
	rc = fwd_check(&b, msg, len, lname, lnamelen, qtype, &rcode);
	memcpy(name, lname, lnamelen);
	if (rc == FORWARD_OK) {
		memset(a, 0, sizeof(*a));
		a->rcode = (uint8_t)rcode;
		if (take_chain(&b, name, &nlen, qtype, &an) == 0 || an == 0 ||
		    rcode == WIRE_RCODE_NXDOMAIN) {
			a->ns = buf + b.used;
			a->ns_count =
				take_negative(&b, name, nlen, qtype,
			                      rcode == WIRE_RCODE_NXDOMAIN);
			a->ns_len = (size_t)(buf + b.used - a->ns);
		}
		a->an = buf;
		a->an_count = an;
		a->an_len = a->ns != NULL ? (size_t)(a->ns - buf) : b.used;
		if (b.full)
			rc = FORWARD_ESPACE;
		else if (an == 0 && a->ns_count == 0 && b.stripped == 0)
			rc = FORWARD_EMSG; /* a referral: not a recursive
			                      server */
	}
	if (stripped != NULL)
		*stripped += b.stripped;
	free(b.s);
	return rc;
}
