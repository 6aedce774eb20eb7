/*
 * resolver/transport/upshare.c - one upstream query for equal askers in flight
 * (upshare.h).
 */
#include "config.h"
#include "upshare.h"

#include <netinet/in.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

/** Settled entries an upshare keeps. */
#define UPSHARE_SPARE_MAX 16

struct upshare_waiter {
	upshare_cb *cb;
	void *arg; /**< NULL: detached (during a hand-out) */
	uint32_t token;
};

struct upshare_q {
	struct upshare *t;
	struct upshare_q *next; /**< bucket chain */
	bool linked;            /**< in the table: joinable */
	unsigned handing;       /**< reply hand-outs running */
	bool ended;             /**< final reply handed out */
	uint64_t hash;
	struct iter_target tg; /**< the key (token unused) */
	struct upstream_query *uq;
	size_t nw;
	struct upshare_waiter w[UPSHARE_WAITERS_MAX];
};

struct upshare {
	upshare_send_fn *send;
	upshare_cancel_fn *cancel;
	void *ctx;
	uint64_t *joined;
	size_t count;
	unsigned char key[crypto_shorthash_KEYBYTES];
	struct upshare_q *bucket[UPSHARE_BUCKETS];
	/** Settled entries kept for the next sends: a malloc and a free
	 *  of 1.7 KB per upstream query were 0.4k instructions. */
	struct upshare_q *spare[UPSHARE_SPARE_MAX];
	size_t nspare;
};

struct upshare *upshare_new(upshare_send_fn *send, upshare_cancel_fn *cancel,
                            void *ctx, uint64_t *joined)
{
	struct upshare *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return NULL;
	t->send = send;
	t->cancel = cancel;
	t->ctx = ctx;
	t->joined = joined;
	randombytes_buf(t->key, sizeof t->key);
	return t;
}

void upshare_free(struct upshare *t)
{
	while (t != NULL && t->nspare > 0)
		free(t->spare[--t->nspare]);
	free(t);
}

size_t upshare_count(const struct upshare *t)
{
	return t->count;
}

/* The server address as bytes: family, port, address (nothing else of
 * the sockaddr, whose padding need not be zero). */
static size_t addr_bytes(const struct iter_target *g, uint8_t *out)
{
	const struct sockaddr_in *in;
	const struct sockaddr_in6 *in6;

	out[0] = (uint8_t)g->addr.ss_family;
	if (g->addr.ss_family == AF_INET) {
		in = (const struct sockaddr_in *)&g->addr;
		memcpy(out + 1, &in->sin_port, 2);
		memcpy(out + 3, &in->sin_addr, 4);
		return 7;
	}
	if (g->addr.ss_family == AF_INET6) {
		in6 = (const struct sockaddr_in6 *)&g->addr;
		memcpy(out + 1, &in6->sin6_port, 2);
		memcpy(out + 3, &in6->sin6_addr, 16);
		memcpy(out + 19, &in6->sin6_scope_id, 4);
		return 23;
	}
	return 1;
}

/* Everything that makes two targets the same query, as one string:
 * type, class, EDNS size, curve flag and key, server, name, zone. */
static size_t tg_key(const struct iter_target *g, uint8_t *buf)
{
	size_t n = 0;

	buf[n++] = (uint8_t)(g->qtype >> 8);
	buf[n++] = (uint8_t)g->qtype;
	buf[n++] = (uint8_t)(g->qclass >> 8);
	buf[n++] = (uint8_t)g->qclass;
	buf[n++] = (uint8_t)(g->edns >> 8);
	buf[n++] = (uint8_t)g->edns;
	buf[n++] = (uint8_t)((g->curve ? 1 : 0) | (g->tcp ? 2 : 0) |
	                     (g->edns_do ? 4 : 0) | (g->rd ? 8 : 0) |
	                     (g->dane ? 16 : 0)); /* DANE joins no other */
	if (g->curve) {
		memcpy(buf + n, g->key, KEY_BYTES);
		n += KEY_BYTES;
	}
	n += addr_bytes(g, buf + n);
	buf[n++] = (uint8_t)g->qnamelen;
	memcpy(buf + n, g->qname, g->qnamelen);
	n += g->qnamelen;
	memcpy(buf + n, g->zone, g->zonelen);
	n += g->zonelen;
	return n;
}

/** Bytes of the longest key tg_key makes. */
#define UPSHARE_KEY_MAX (7 + KEY_BYTES + 23 + 1 + 2 * WIRE_NAME_MAX)

static bool tg_valid(const struct iter_target *g)
{
	return g->qnamelen <= WIRE_NAME_MAX && g->zonelen <= WIRE_NAME_MAX;
}

static uint64_t key_hash(const struct upshare *t, const uint8_t *k, size_t n)
{
	unsigned char out[crypto_shorthash_BYTES];
	uint64_t h;

	crypto_shorthash(out, k, n, t->key);
	memcpy(&h, out, sizeof h);
	return h;
}

static void q_unlink(struct upshare_q *q)
{
	struct upshare_q **pp;

	if (!q->linked)
		return;
	pp = &q->t->bucket[q->hash % UPSHARE_BUCKETS];
	while (*pp != NULL && *pp != q)
		pp = &(*pp)->next;
	if (*pp == q)
		*pp = q->next;
	q->next = NULL;
	q->linked = false;
}

/* Free q once nobody waits and no hand-out runs. */
static void q_settle(struct upshare_q *q)
{
	struct upshare *t = q->t;
	size_t i, j;

	if (q->handing > 0)
		return;
	for (i = j = 0; i < q->nw; i++) /* drop detached slots */
		if (q->w[i].arg != NULL)
			q->w[j++] = q->w[i];
	q->nw = j;
	if (q->nw > 0 && !q->ended)
		return;
	q_unlink(q);
	t->cancel(t->ctx, q->uq);
	t->count--;
	if (t->nspare < UPSHARE_SPARE_MAX)
		t->spare[t->nspare++] = q;
	else
		free(q);
}

static void q_reply(void *arg, const struct iter_reply *reply)
{
	struct upshare_q *q = arg;
	struct iter_reply mine = *reply;
	size_t i, n;

	/* no joins after a timeout (the joiner would never get one) or an
	 * end: later askers send afresh */
	q_unlink(q);
	if (reply->kind != ITER_REPLY_TIMEOUT)
		q->ended = true;
	q->handing++;
	n = q->nw;
	for (i = 0; i < n; i++) {
		if (q->w[i].arg == NULL)
			continue;
		mine.token = q->w[i].token;
		q->w[i].cb(q->w[i].arg, &mine);
	}
	q->handing--;
	q_settle(q);
}

int upshare_send(struct upshare *t, const struct iter_target *tg,
                 uint64_t mono_ms, upshare_cb *cb, void *arg,
                 struct upshare_q **out)
{
	uint8_t k[UPSHARE_KEY_MAX], k2[UPSHARE_KEY_MAX];
	struct upshare_q *q;
	uint64_t h;
	size_t n;
	int rc;

	if (!tg_valid(tg))
		return UPSTREAM_EBUILD;
	n = tg_key(tg, k);
	h = key_hash(t, k, n);
	for (q = t->bucket[h % UPSHARE_BUCKETS]; q != NULL; q = q->next) {
		if (q->hash != h || q->nw >= UPSHARE_WAITERS_MAX ||
		    tg_key(&q->tg, k2) != n || memcmp(k, k2, n) != 0)
			continue;
		q->w[q->nw].cb = cb;
		q->w[q->nw].arg = arg;
		q->w[q->nw++].token = tg->token;
		if (t->joined != NULL)
			(*t->joined)++;
		*out = q;
		return UPSTREAM_OK;
	}
	q = t->nspare > 0 ? t->spare[--t->nspare] : malloc(sizeof(*q));
	if (q == NULL)
		return UPSTREAM_ENOMEM;
	memset(q, 0, offsetof(struct upshare_q, w));
	q->t = t;
	q->hash = h;
	q->tg = *tg;
	rc = t->send(t->ctx, tg, mono_ms, q_reply, q, &q->uq);
	if (rc != UPSTREAM_OK) {
		free(q);
		return rc;
	}
	q->w[0].cb = cb;
	q->w[0].arg = arg;
	q->w[0].token = tg->token;
	q->nw = 1;
	q->next = t->bucket[h % UPSHARE_BUCKETS];
	t->bucket[h % UPSHARE_BUCKETS] = q;
	q->linked = true;
	t->count++;
	*out = q;
	return UPSTREAM_OK;
}

void upshare_detach(struct upshare_q *q, void *arg, uint32_t token)
{
	size_t i;

	if (q == NULL)
		return;
	for (i = 0; i < q->nw; i++)
		if (q->w[i].arg == arg && q->w[i].token == token) {
			q->w[i].arg = NULL;
			break;
		}
	q_settle(q);
}
