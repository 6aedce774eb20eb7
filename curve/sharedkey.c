/*
 * curve/sharedkey.c - the bounded table of precomputed shared keys
 * (crypto_box_beforenm), keyed by server public key.
 *
 * Design notes:
 * - Fixed memory: `slots` entries allocated once with sodium_allocarray
 *   (guard pages, mlock where allowed); a full table reuses its least
 *   recently used entry (counted as an eviction).
 * - Buckets hold chains of entry indexes; the bucket of a key is a keyed
 *   SipHash (crypto_shorthash) with a random key per table, so server
 *   keys seen on the network cannot be chosen to share a chain. A chain
 *   walk is capped by the number of slots.
 * - The table lock also guards the client keypair (see internal.h). A
 *   shared key leaves the lock only as a copy in the caller's buffer.
 * - A miss computes beforenm under the lock: it happens once per server
 *   and keeps the table and keypair consistent during a rotation.
 */
#include <stdlib.h>
#include <string.h>
#include "internal.h"

/** Bucket of a server key. */
static size_t shared_bucket(const struct curve_shared_table *t,
                            const uint8_t server_pk[CURVE_KEY_BYTES])
{
	uint8_t h[crypto_shorthash_BYTES];
	uint64_t v = 0;
	size_t i;

	crypto_shorthash(h, server_pk, CURVE_KEY_BYTES, t->hashkey);
	for (i = 0; i < sizeof h; i++)
		v = (v << 8) | h[i];
	return (size_t)(v & (t->nbuckets - 1));
}

int curve_shared_init(struct curve_shared_table *t, size_t slots)
{
	size_t nb = 1, i;

	if (slots == 0)
		slots = CURVE_SHARED_SLOTS_DEFAULT;
	if (slots > CURVE_SHARED_SLOTS_MAX)
		return CURVE_ENOMEM;
	while (nb < slots)
		nb <<= 1;
	memset(t, 0, sizeof *t);
	t->ent = sodium_allocarray(slots, sizeof *t->ent);
	t->bucket = calloc(nb, sizeof *t->bucket);
	if (t->ent == NULL || t->bucket == NULL) {
		sodium_free(t->ent);
		free(t->bucket);
		t->ent = NULL;
		t->bucket = NULL;
		return CURVE_ENOMEM;
	}
	if (pthread_mutex_init(&t->lock, NULL) != 0) {
		sodium_free(t->ent);
		free(t->bucket);
		t->ent = NULL;
		t->bucket = NULL;
		return CURVE_ENOMEM;
	}
	sodium_memzero(t->ent, slots * sizeof *t->ent);
	t->slots = slots;
	t->nbuckets = nb;
	for (i = 0; i < nb; i++)
		t->bucket[i] = CURVE_SHARED_NONE;
	t->lru_head = t->lru_tail = CURVE_SHARED_NONE;
	crypto_shorthash_keygen(t->hashkey);
	return CURVE_OK;
}

void curve_shared_destroy(struct curve_shared_table *t)
{
	if (t->ent == NULL)
		return;
	sodium_memzero(t->ent, t->slots * sizeof *t->ent);
	sodium_free(t->ent);
	free(t->bucket);
	t->ent = NULL;
	t->bucket = NULL;
	sodium_memzero(t->hashkey, sizeof t->hashkey);
	pthread_mutex_destroy(&t->lock);
}

void curve_shared_clear_locked(struct curve_shared_table *t)
{
	size_t i;

	sodium_memzero(t->ent, t->slots * sizeof *t->ent);
	for (i = 0; i < t->nbuckets; i++)
		t->bucket[i] = CURVE_SHARED_NONE;
	t->lru_head = t->lru_tail = CURVE_SHARED_NONE;
	t->used = 0;
}

/** Unlink entry i from the LRU list. */
static void lru_unlink(struct curve_shared_table *t, uint32_t i)
{
	struct curve_shared_entry *e = &t->ent[i];

	if (e->lru_prev != CURVE_SHARED_NONE)
		t->ent[e->lru_prev].lru_next = e->lru_next;
	else
		t->lru_head = e->lru_next;
	if (e->lru_next != CURVE_SHARED_NONE)
		t->ent[e->lru_next].lru_prev = e->lru_prev;
	else
		t->lru_tail = e->lru_prev;
	e->lru_prev = e->lru_next = CURVE_SHARED_NONE;
}

/** Put entry i at the head (most recently used) of the LRU list. */
static void lru_push(struct curve_shared_table *t, uint32_t i)
{
	struct curve_shared_entry *e = &t->ent[i];

	e->lru_prev = CURVE_SHARED_NONE;
	e->lru_next = t->lru_head;
	if (t->lru_head != CURVE_SHARED_NONE)
		t->ent[t->lru_head].lru_prev = i;
	t->lru_head = i;
	if (t->lru_tail == CURVE_SHARED_NONE)
		t->lru_tail = i;
}

/** Find server_pk; returns its index or CURVE_SHARED_NONE. */
static uint32_t shared_find(const struct curve_shared_table *t, size_t b,
                            const uint8_t server_pk[CURVE_KEY_BYTES])
{
	uint32_t i = t->bucket[b];
	size_t steps;

	for (steps = 0; i != CURVE_SHARED_NONE && steps < t->slots; steps++) {
		const uint8_t *pk = t->ent[i].server_pk;

		if (memcmp(pk, server_pk, CURVE_KEY_BYTES) == 0)
			return i;
		i = t->ent[i].chain;
	}
	return CURVE_SHARED_NONE;
}

/** Take the least recently used entry out of its chain and the LRU. */
static uint32_t shared_evict(struct curve_shared_table *t)
{
	uint32_t i = t->lru_tail, *link;
	size_t b = shared_bucket(t, t->ent[i].server_pk), steps;

	link = &t->bucket[b];
	for (steps = 0; *link != CURVE_SHARED_NONE && steps < t->slots;
	     steps++) {
		if (*link == i) {
			*link = t->ent[i].chain;
			break;
		}
		link = &t->ent[*link].chain;
	}
	lru_unlink(t, i);
	sodium_memzero(&t->ent[i], sizeof t->ent[i]);
	t->evictions++;
	return i;
}

/** Compute and insert the key for server_pk; returns its index. */
static int shared_insert(struct curve_client *c, size_t b,
                         const uint8_t server_pk[CURVE_KEY_BYTES],
                         uint32_t *out)
{
	struct curve_shared_table *t = &c->shared;
	uint8_t key[crypto_box_BEFORENMBYTES];
	uint32_t i;

	if (crypto_box_beforenm(key, server_pk, c->sk) != 0) {
		sodium_memzero(key, sizeof key);
		return CURVE_ECRYPTO;
	}
	if (t->used < t->slots)
		i = (uint32_t)t->used++;
	else
		i = shared_evict(t);
	memcpy(t->ent[i].server_pk, server_pk, CURVE_KEY_BYTES);
	memcpy(t->ent[i].key, key, sizeof key);
	sodium_memzero(key, sizeof key);
	t->ent[i].chain = t->bucket[b];
	t->bucket[b] = i;
	lru_push(t, i);
	*out = i;
	return CURVE_OK;
}

int curve_shared_get(struct curve_client *c,
                     const uint8_t server_pk[CURVE_KEY_BYTES],
                     uint8_t key[crypto_box_BEFORENMBYTES],
                     uint8_t client_pk[CURVE_KEY_BYTES])
{
	struct curve_shared_table *t = &c->shared;
	uint32_t i;
	size_t b;
	int st = CURVE_OK;

	pthread_mutex_lock(&t->lock);
	b = shared_bucket(t, server_pk);
	i = shared_find(t, b, server_pk);
	if (i != CURVE_SHARED_NONE) {
		t->hits++;
		lru_unlink(t, i);
		lru_push(t, i);
	} else {
		t->misses++;
		st = shared_insert(c, b, server_pk, &i);
	}
	if (st == CURVE_OK) {
		memcpy(key, t->ent[i].key, crypto_box_BEFORENMBYTES);
		memcpy(client_pk, c->pk, CURVE_KEY_BYTES);
	}
	pthread_mutex_unlock(&t->lock);
	return st;
}
