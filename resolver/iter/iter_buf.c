/*
 * resolver/iter/iter_buf.c - the iterator's large buffers, per thread.
 *
 * A request used to carry 40 KB of buffers inline: the client's answer
 * (16 KB) and authority (8 KB) images, a scratch buffer for cache reads
 * (8 KB) and the classifier's output (7.5 KB). With 100 resolutions in
 * flight, most waiting for a server, that was the larger part of the
 * resolver's peak memory on a cold start, while only the resolution
 * being run uses the scratch and the classifier's output, and a request
 * holds an answer only from its first record to its end.
 *
 * - iter_scratch and iter_cls are the thread's: a cache read is parsed
 *   and a reply classified and applied within one call (iter_next,
 *   iter_feed, iter_peek_cut), never across two, and one thread runs
 *   one request at a time (the front queues what the iterator asks of
 *   it, server_dz.c).
 * - the answer and authority images come from the thread's pool when
 *   first written and go back when the call that took them leaves them
 *   empty (iter_buf_idle) or the request ends (iter_buf_free). The pool
 *   keeps the most recently freed ones (their pages are warm) up to
 *   ITER_BUF_KEEP of each size; the rest go back to malloc, and all of
 *   them when the thread's last request ends (a worker that stops
 *   leaves nothing behind).
 * - the buffers one call uses and frees (iter_tmp_take, iter_tmp_give:
 *   a reply's RRset being cached, a trust or TLSA read), a request's
 *   query slots and a zone cut's first NS room come from pools of their
 *   own by the same rules: a malloc and a free of 64 KB each time were a
 *   twentieth of the instructions of a cold name.
 */
#include "iter_int.h"

#include <stdlib.h>
#include <string.h>

#include "cache.h"

/** Free images each pool keeps (a burst of answers being sent). */
#define ITER_BUF_KEEP 16

static _Thread_local uint8_t iter_scratch_t[ITER_SCRATCH_BYTES];
static _Thread_local struct iter_class iter_cls_t;

uint8_t (*iter_scratch_of(void))[ITER_SCRATCH_BYTES]
{
	return &iter_scratch_t;
}

struct iter_class *iter_cls_of(void)
{
	return &iter_cls_t;
}

/** A free image: the pool's list runs through its first bytes. */
struct iter_buf_free {
	struct iter_buf_free *next;
};

/** The free images of one size. */
struct iter_buf_pool {
	struct iter_buf_free *head;
	size_t n;
};

static _Thread_local struct iter_buf_pool iter_buf_an_pool;
static _Thread_local struct iter_buf_pool iter_buf_ns_pool;
/** The sizes iter_tmp_take pools (any other is a plain malloc). */
static const size_t iter_tmp_bytes[] = {
	ITER_RDATA_BYTES,
	2 * ITER_AUTH_MAX,
	sizeof(struct iter_out),
	ITER_NS_ROOM_FIRST * sizeof(struct iter_ns),
};
#define ITER_TMP_COUNT (sizeof iter_tmp_bytes / sizeof iter_tmp_bytes[0])
static _Thread_local struct iter_buf_pool iter_tmp_pool[ITER_TMP_COUNT];
/** Requests of this thread not yet freed (iter_buf_hold). */
static _Thread_local size_t iter_buf_live;

static uint8_t *iter_buf_take(struct iter_buf_pool *p, size_t size)
{
	struct iter_buf_free *b = p->head;

	if (b == NULL)
		return malloc(size);
	p->head = b->next;
	p->n--;
	return (uint8_t *)b;
}

static void iter_buf_give(struct iter_buf_pool *p, uint8_t *buf)
{
	struct iter_buf_free *b = (struct iter_buf_free *)(void *)buf;

	if (buf == NULL)
		return;
	if (p->n >= ITER_BUF_KEEP) {
		free(buf);
		return;
	}
	b->next = p->head;
	p->head = b;
	p->n++;
}

uint8_t *iter_buf_an(struct iter_req *req)
{
	if (req->an == NULL)
		req->an = iter_buf_take(&iter_buf_an_pool, ITER_RESULT_MAX);
	return req->an;
}

uint8_t *iter_buf_ns(struct iter_req *req)
{
	if (req->ns == NULL)
		req->ns = iter_buf_take(&iter_buf_ns_pool, ITER_AUTH_MAX);
	return req->ns;
}

void iter_buf_idle(struct iter_req *req)
{
	if (req->done)
		return; /* the result points into them */
	if (req->an != NULL && req->an_len == 0) {
		iter_buf_give(&iter_buf_an_pool, req->an);
		req->an = NULL;
	}
	if (req->ns != NULL && req->ns_len == 0) {
		iter_buf_give(&iter_buf_ns_pool, req->ns);
		req->ns = NULL;
	}
}

/* The pool of a size, or NULL. */
static struct iter_buf_pool *iter_tmp_pool_of(size_t bytes)
{
	size_t k;

	for (k = 0; k < ITER_TMP_COUNT; k++)
		if (iter_tmp_bytes[k] == bytes)
			return &iter_tmp_pool[k];
	return NULL;
}

uint8_t *iter_tmp_take(size_t bytes)
{
	struct iter_buf_pool *p = iter_tmp_pool_of(bytes);

	return p != NULL ? iter_buf_take(p, bytes) : malloc(bytes);
}

void iter_tmp_give(size_t bytes, uint8_t *buf)
{
	struct iter_buf_pool *p = iter_tmp_pool_of(bytes);

	if (p == NULL || iter_buf_live == 0) /* no request holds the pools */
		free(buf);
	else
		iter_buf_give(p, buf);
}

void iter_buf_hold(void)
{
	iter_buf_live++;
}

static void iter_buf_drain(struct iter_buf_pool *p)
{
	while (p->head != NULL) {
		struct iter_buf_free *b = p->head;

		p->head = b->next;
		free(b);
	}
	p->n = 0;
}

void iter_buf_free(struct iter_req *req)
{
	size_t k;

	iter_buf_give(&iter_buf_an_pool, req->an);
	iter_buf_give(&iter_buf_ns_pool, req->ns);
	req->an = NULL;
	req->ns = NULL;
	if (iter_buf_live > 0 && --iter_buf_live > 0)
		return;
	iter_buf_drain(&iter_buf_an_pool);
	iter_buf_drain(&iter_buf_ns_pool);
	for (k = 0; k < ITER_TMP_COUNT; k++)
		iter_buf_drain(&iter_tmp_pool[k]);
}

/** Names each kind of memo keeps (round robin). */
#define ITER_MEMO_NAMES 4
/** The largest value a memo keeps (iter_query.c's addresses). */
#define ITER_MEMO_VAL 192

/* What reads of one name's cache entries concluded (iter_memo_get,
 * iter_memo_put): kept while nothing of the name's cache shard changed
 * (the watch taken before the reads) and every entry they picked is
 * fresh (made <= now < expire). */
struct iter_memo {
	struct cache_watch w;
	uint8_t name[WIRE_NAME_MAX];
	size_t namelen; /**< 0: unused */
	time_t made, expire;
	size_t vlen;
	uint8_t val[ITER_MEMO_VAL];
};

/** The thread's memos: per kind its entries and the next one replaced. */
struct iter_memos {
	struct iter_memo m[ITER_MK_N][ITER_MEMO_NAMES];
	size_t next[ITER_MK_N];
};

static _Thread_local struct iter_memos iter_memos_t;

/* Via a call (GCC 12's UBSan sees a thread-local's address as NULL). */
static __attribute__((noinline)) struct iter_memos *iter_memos(void)
{
	return &iter_memos_t;
}

bool iter_memo_get(const struct iter_req *req, enum iter_mk kind,
                   const uint8_t *name, size_t len, void *val, size_t vlen)
{
	struct iter_memo *m = iter_memos()->m[kind];
	time_t now = req->now.wall;
	size_t i;

	for (i = 0; i < ITER_MEMO_NAMES; i++, m++) {
		if (m->namelen != len || memcmp(m->name, name, len) != 0)
			continue;
		if (m->vlen == vlen && now >= m->made && now < m->expire &&
		    cache_watch_same(req->env->cache, &m->w)) {
			memcpy(val, m->val, vlen);
			return true;
		}
		m->namelen = 0;
	}
	return false;
}

void iter_memo_put(const struct iter_req *req, enum iter_mk kind,
                   const uint8_t *name, size_t len,
                   const struct cache_watch *w, time_t expire, const void *val,
                   size_t vlen)
{
	struct iter_memos *all = iter_memos();
	struct iter_memo *m = &all->m[kind][all->next[kind]];

	if (w->cache_id == 0 || len == 0 || len > WIRE_NAME_MAX ||
	    vlen > ITER_MEMO_VAL)
		return;
	all->next[kind] = (all->next[kind] + 1) % ITER_MEMO_NAMES;
	m->w = *w;
	memcpy(m->name, name, len);
	m->namelen = len;
	m->made = req->now.wall;
	m->expire = expire;
	memcpy(m->val, val, vlen);
	m->vlen = vlen;
}
