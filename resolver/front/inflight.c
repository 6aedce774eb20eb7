/*
 * resolver/front/inflight.c - resolutions in flight: a bounded hash table of
 * entries, each with a list of waiting clients, from fixed pools.
 */
#include "inflight.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

/** Index meaning "none" in the pools' links. */
#define INFLIGHT_NIL UINT32_MAX
/** The age lists: every entry, and those outside the protected half. */
#define INFLIGHT_ALL 0
#define INFLIGHT_JOSTLE 1
#define INFLIGHT_LISTS 2

struct inflight_entry {
	uint8_t name[WIRE_NAME_MAX];
	size_t len;
	uint16_t qtype;
	uint16_t qclass;
	bool used;
	bool kept; /**< in the protected half: runs to its end */
	void *res;
	size_t bucket;  /**< its hash bucket, hashed once at inflight_add */
	uint32_t chain; /**< next entry in the hash bucket */
	/** links in the age lists: INFLIGHT_ALL, INFLIGHT_JOSTLE */
	uint32_t older[INFLIGHT_LISTS], newer[INFLIGHT_LISTS];
	uint32_t whead, wtail; /**< waiters, arrival order */
	size_t nwaiters;
};

/** A waiter slot of the pool. */
struct inflight_slot {
	struct inflight_waiter w;
	uint32_t next; /**< next waiter of the entry, or free list */
};

struct inflight {
	struct inflight_entry *entries;
	size_t nentries;
	struct inflight_slot *slots;
	size_t nslots;
	uint32_t *buckets;
	size_t nbuckets;     /**< power of two */
	uint32_t free_entry; /**< free list, through chain */
	uint32_t free_slot;  /**< free list, through next */
	/** ends of the age lists: every entry; those that may be jostled */
	uint32_t oldest[INFLIGHT_LISTS], newest[INFLIGHT_LISTS];
	size_t count;
	size_t nkept; /**< entries in the protected half */
	uint8_t key[crypto_shorthash_KEYBYTES];
};

const char *inflight_strerror(int status)
{
	switch (status) {
	case INFLIGHT_OK: return "ok";
	case INFLIGHT_EFULL: return "table full";
	case INFLIGHT_EWAITERS: return "too many clients waiting";
	case INFLIGHT_EEXIST: return "already in flight";
	case INFLIGHT_EINVAL: return "invalid argument";
	case INFLIGHT_ENOMEM: return "out of memory";
	default: return "unknown status";
	}
}

static void inflight_links(struct inflight *t)
{
	size_t i;

	for (i = 0; i < t->nentries; i++)
		t->entries[i].chain = i + 1 < t->nentries ? (uint32_t)(i + 1) :
		                                            INFLIGHT_NIL;
	for (i = 0; i < t->nslots; i++)
		t->slots[i].next = i + 1 < t->nslots ? (uint32_t)(i + 1) :
		                                       INFLIGHT_NIL;
	for (i = 0; i < t->nbuckets; i++)
		t->buckets[i] = INFLIGHT_NIL;
	t->free_entry = 0;
	t->free_slot = 0;
	for (i = 0; i < INFLIGHT_LISTS; i++)
		t->oldest[i] = t->newest[i] = INFLIGHT_NIL;
}

int inflight_new(struct inflight **out, size_t max_entries, size_t max_waiters)
{
	struct inflight *t;

	if (out == NULL || max_entries == 0 || max_waiters == 0 ||
	    max_entries > INFLIGHT_POOL_MAX || max_waiters > INFLIGHT_POOL_MAX)
		return INFLIGHT_EINVAL;
	t = calloc(1, sizeof(*t));
	if (t == NULL)
		return INFLIGHT_ENOMEM;
	t->nentries = max_entries;
	t->nslots = max_waiters;
	t->nbuckets = 1;
	while (t->nbuckets < 2 * max_entries)
		t->nbuckets <<= 1;
	t->entries = calloc(t->nentries, sizeof(*t->entries));
	t->slots = calloc(t->nslots, sizeof(*t->slots));
	t->buckets = calloc(t->nbuckets, sizeof(*t->buckets));
	if (t->entries == NULL || t->slots == NULL || t->buckets == NULL) {
		inflight_free(t);
		return INFLIGHT_ENOMEM;
	}
	inflight_links(t);
	randombytes_buf(t->key, sizeof t->key);
	*out = t;
	return INFLIGHT_OK;
}

void inflight_free(struct inflight *t)
{
	if (t == NULL)
		return;
	free(t->entries);
	free(t->slots);
	free(t->buckets);
	sodium_memzero(t->key, sizeof t->key);
	free(t);
}

static size_t inflight_bucket(const struct inflight *t, const uint8_t *name,
                              size_t len, uint16_t qtype, uint16_t qclass)
{
	uint8_t in[WIRE_NAME_MAX + 4], h[crypto_shorthash_BYTES];
	uint64_t v;

	memcpy(in, name, len);
	in[len] = (uint8_t)(qtype >> 8);
	in[len + 1] = (uint8_t)qtype;
	in[len + 2] = (uint8_t)(qclass >> 8);
	in[len + 3] = (uint8_t)qclass;
	crypto_shorthash(h, in, len + 4, t->key);
	memcpy(&v, h, sizeof v);
	return (size_t)(v & (t->nbuckets - 1));
}

static bool key_ok(const uint8_t *name, size_t len)
{
	return name != NULL && len >= 1 && len <= WIRE_NAME_MAX;
}

/* The entry of the key in bucket b, or NULL. */
static struct inflight_entry *bucket_find(struct inflight *t, size_t b,
                                          const uint8_t *lname, size_t len,
                                          uint16_t qtype, uint16_t qclass)
{
	uint32_t i = t->buckets[b];
	size_t steps;

	for (steps = 0; i != INFLIGHT_NIL && steps < t->nentries; steps++) {
		struct inflight_entry *e = &t->entries[i];

		if (e->len == len && e->qtype == qtype &&
		    e->qclass == qclass && memcmp(e->name, lname, len) == 0)
			return e;
		i = e->chain;
	}
	return NULL;
}

struct inflight_entry *inflight_find(struct inflight *t, const uint8_t *lname,
                                     size_t len, uint16_t qtype,
                                     uint16_t qclass)
{
	if (t == NULL || !key_ok(lname, len))
		return NULL;
	return bucket_find(t, inflight_bucket(t, lname, len, qtype, qclass),
	                   lname, len, qtype, qclass);
}

/* Append entry i to age list k. */
static void age_append(struct inflight *t, uint32_t i, int k)
{
	struct inflight_entry *e = &t->entries[i];

	e->older[k] = t->newest[k];
	e->newer[k] = INFLIGHT_NIL;
	if (t->newest[k] != INFLIGHT_NIL)
		t->entries[t->newest[k]].newer[k] = i;
	else
		t->oldest[k] = i;
	t->newest[k] = i;
}

/* Take entry i out of age list k. */
static void age_remove(struct inflight *t, uint32_t i, int k)
{
	struct inflight_entry *e = &t->entries[i];

	if (e->older[k] != INFLIGHT_NIL)
		t->entries[e->older[k]].newer[k] = e->newer[k];
	else
		t->oldest[k] = e->newer[k];
	if (e->newer[k] != INFLIGHT_NIL)
		t->entries[e->newer[k]].older[k] = e->older[k];
	else
		t->newest[k] = e->older[k];
}

/* Put a fresh entry at the new end of the age list(s) and in its bucket:
 * the first half of the table runs to its end, later ones may be
 * jostled. */
static void entry_link(struct inflight *t, uint32_t i, size_t b)
{
	struct inflight_entry *e = &t->entries[i];

	e->chain = t->buckets[b];
	t->buckets[b] = i;
	age_append(t, i, INFLIGHT_ALL);
	t->count++;
	e->kept = t->nkept < (t->nentries + 1) / 2;
	if (e->kept)
		t->nkept++;
	else
		age_append(t, i, INFLIGHT_JOSTLE);
}

int inflight_add(struct inflight *t, const uint8_t *lname, size_t len,
                 uint16_t qtype, uint16_t qclass, void *res,
                 struct inflight_entry **out)
{
	struct inflight_entry *e;
	uint32_t i;
	size_t b;

	if (t == NULL || out == NULL || !key_ok(lname, len))
		return INFLIGHT_EINVAL;
	b = inflight_bucket(t, lname, len, qtype, qclass);
	if (bucket_find(t, b, lname, len, qtype, qclass) != NULL)
		return INFLIGHT_EEXIST;
	if (t->free_entry == INFLIGHT_NIL)
		return INFLIGHT_EFULL;
	i = t->free_entry;
	e = &t->entries[i];
	t->free_entry = e->chain;
	memcpy(e->name, lname, len);
	e->len = len;
	e->qtype = qtype;
	e->qclass = qclass;
	e->res = res;
	e->used = true;
	e->whead = e->wtail = INFLIGHT_NIL;
	e->nwaiters = 0;
	e->bucket = b;
	entry_link(t, i, b);
	*out = e;
	return INFLIGHT_OK;
}

int inflight_wait(struct inflight *t, struct inflight_entry *e,
                  const struct inflight_waiter *w)
{
	uint32_t s;

	if (t == NULL || e == NULL || w == NULL || !e->used)
		return INFLIGHT_EINVAL;
	if (e->nwaiters >= INFLIGHT_WAITERS_PER_ENTRY)
		return INFLIGHT_EWAITERS;
	if (t->free_slot == INFLIGHT_NIL)
		return INFLIGHT_EFULL;
	s = t->free_slot;
	t->free_slot = t->slots[s].next;
	t->slots[s].w = *w;
	t->slots[s].next = INFLIGHT_NIL;
	if (e->wtail != INFLIGHT_NIL)
		t->slots[e->wtail].next = s;
	else
		e->whead = s;
	e->wtail = s;
	e->nwaiters++;
	return INFLIGHT_OK;
}

struct inflight_entry *inflight_oldest(struct inflight *t)
{
	if (t == NULL || t->oldest[INFLIGHT_ALL] == INFLIGHT_NIL)
		return NULL;
	return &t->entries[t->oldest[INFLIGHT_ALL]];
}

struct inflight_entry *inflight_jostle_oldest(struct inflight *t)
{
	if (t == NULL || t->oldest[INFLIGHT_JOSTLE] == INFLIGHT_NIL)
		return NULL;
	return &t->entries[t->oldest[INFLIGHT_JOSTLE]];
}

bool inflight_full(const struct inflight *t)
{
	return t != NULL &&
	       (t->free_entry == INFLIGHT_NIL || t->free_slot == INFLIGHT_NIL);
}

void *inflight_entry_res(const struct inflight_entry *e)
{
	return e->res;
}

size_t inflight_entry_waiters(const struct inflight_entry *e)
{
	return e->nwaiters;
}

void inflight_entry_key(const struct inflight_entry *e, const uint8_t **lname,
                        size_t *len, uint16_t *qtype, uint16_t *qclass)
{
	*lname = e->name;
	*len = e->len;
	*qtype = e->qtype;
	*qclass = e->qclass;
}

/* Take an entry out of its bucket chain and the age list. */
static void entry_unlink(struct inflight *t, uint32_t i)
{
	struct inflight_entry *e = &t->entries[i];
	uint32_t *p;
	size_t steps;

	p = &t->buckets[e->bucket];
	for (steps = 0; *p != INFLIGHT_NIL && steps < t->nentries; steps++) {
		if (*p == i) {
			*p = e->chain;
			break;
		}
		p = &t->entries[*p].chain;
	}
	age_remove(t, i, INFLIGHT_ALL);
	t->count--;
	if (e->kept)
		t->nkept--;
	else
		age_remove(t, i, INFLIGHT_JOSTLE);
}

void inflight_finish(struct inflight *t, struct inflight_entry *e,
                     inflight_waiter_fn fn, void *arg)
{
	uint32_t i, s, next;
	size_t n;

	if (t == NULL || e == NULL || !e->used)
		return;
	i = (uint32_t)(e - t->entries);
	entry_unlink(t, i);
	for (s = e->whead, n = 0; s != INFLIGHT_NIL && n < t->nslots; n++) {
		next = t->slots[s].next;
		if (fn != NULL)
			fn(arg, &t->slots[s].w);
		t->slots[s].next = t->free_slot;
		t->free_slot = s;
		s = next;
	}
	e->used = false;
	e->res = NULL;
	e->whead = e->wtail = INFLIGHT_NIL;
	e->nwaiters = 0;
	e->chain = t->free_entry;
	t->free_entry = i;
}

size_t inflight_count(const struct inflight *t)
{
	return t == NULL ? 0 : t->count;
}
