/*
 * resolver/stats/topk.c - heavy-hitter counters of query names and clients
 * (see topk.h).
 *
 * The hash is FNV-1a, unkeyed: names aimed at one set only compete with
 * the other names of that set, which loses nothing of what the counters
 * are for (seeing who dominates).
 *
 * A slot keeps its key in a heap block of its own, sized in steps of
 * TOPK_KEY_STEP bytes and reused by the slot's next keys while they fit:
 * the static slots stay small (32 bytes, not 280), so a flood of fresh
 * names dirties about 40 KB per table instead of 143 KB, and a block
 * is allocated only when a key outgrows its slot's (rare once warm).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/base.h"
#include "base/netaddr.h"
#include "topk.h"

/** FNV-1a 64-bit parameters. */
/** Bytes of a client key: family byte + IPv6-sized address. */
#define TOPK_CLIENT_BYTES 17
#define TOPK_IP4_BYTES 4
#define TOPK_IP6_BYTES 16
/** A key block's size is a multiple of this (every client key fits). */
#define TOPK_KEY_STEP 32

struct topk_slot {
	uint64_t count; /**< 0: free */
	uint64_t hash;
	uint8_t *key;    /**< keycap bytes on the heap; NULL: none yet */
	uint16_t keylen; /**< <= TOPK_KEY_MAX */
	uint16_t keycap;
};

struct topk_tab {
	pthread_mutex_t mu;
	uint64_t total; /**< notes counted this interval */
	atomic_uint_fast64_t skipped;
	struct topk_slot slot[TOPK_SETS][TOPK_WAYS];
};

struct topk {
	struct topk_tab tab[TOPK_NTABLES];
};

static struct topk topk_static = {
	.tab = { { .mu = PTHREAD_MUTEX_INITIALIZER },
	         { .mu = PTHREAD_MUTEX_INITIALIZER },
	         { .mu = PTHREAD_MUTEX_INITIALIZER } },
};

struct topk *topk_shared(void)
{
	return &topk_static;
}

struct topk *topk_new(void)
{
	struct topk *t = calloc(1, sizeof(*t));
	size_t i;

	if (t == NULL)
		return NULL;
	for (i = 0; i < TOPK_NTABLES; i++) {
		if (pthread_mutex_init(&t->tab[i].mu, NULL) != 0) {
			while (i-- > 0)
				pthread_mutex_destroy(&t->tab[i].mu);
			free(t);
			return NULL;
		}
	}
	return t;
}

void topk_free(struct topk *t)
{
	size_t i, j, k;

	if (t == NULL || t == &topk_static)
		return;
	for (i = 0; i < TOPK_NTABLES; i++) {
		pthread_mutex_destroy(&t->tab[i].mu);
		for (j = 0; j < TOPK_SETS; j++)
			for (k = 0; k < TOPK_WAYS; k++)
				free(t->tab[i].slot[j][k].key);
	}
	free(t);
}

/* Room for len key bytes in s: its block, or a larger one. 0: none. */
static bool topk_key_room(struct topk_slot *s, size_t len)
{
	size_t cap = (len + TOPK_KEY_STEP - 1) / TOPK_KEY_STEP * TOPK_KEY_STEP;
	uint8_t *k;

	if (len <= s->keycap)
		return true;
	k = malloc(cap);
	if (k == NULL)
		return false;
	free(s->key);
	s->key = k;
	s->keycap = (uint16_t)cap;
	return true;
}

static uint64_t topk_hash(const uint8_t *key, size_t len)
{
	return base_fnv1a(key, len, 0);
}

/* The key's slot in its set: the one holding it, else the one with the
 * smallest count (a free slot counts 0). */
static struct topk_slot *topk_slot_for(struct topk_slot *set, uint64_t h,
                                       const uint8_t *key, size_t len,
                                       bool *found)
{
	struct topk_slot *min = &set[0];
	size_t i;

	for (i = 0; i < TOPK_WAYS; i++) {
		if (set[i].count != 0 && set[i].hash == h &&
		    set[i].keylen == len &&
		    memcmp(set[i].key, key, len) == 0) {
			*found = true;
			return &set[i];
		}
		if (set[i].count < min->count)
			min = &set[i];
	}
	*found = false;
	return min;
}

static void topk_note(struct topk_tab *tb, const uint8_t *key, size_t len)
{
	uint64_t h = topk_hash(key, len);
	struct topk_slot *s;
	bool found;

	if (pthread_mutex_trylock(&tb->mu) != 0) {
		atomic_fetch_add_explicit(&tb->skipped, 1,
		                          memory_order_relaxed);
		return;
	}
	s = topk_slot_for(tb->slot[h % TOPK_SETS], h, key, len, &found);
	if (!found && !topk_key_room(s, len)) {
		pthread_mutex_unlock(&tb->mu);
		atomic_fetch_add_explicit(&tb->skipped, 1,
		                          memory_order_relaxed);
		return;
	}
	tb->total++;
	/* a newcomer inherits the count of the entry it replaces */
	s->count++;
	if (!found) {
		REQUIRE(len <= s->keycap);
		s->hash = h;
		s->keylen = (uint16_t)len;
		memcpy(s->key, key, len);
	}
	pthread_mutex_unlock(&tb->mu);
}

void topk_note_name(struct topk *t, const uint8_t *name, size_t len)
{
	if (len == 0 || len > TOPK_KEY_MAX)
		return;
	topk_note(&t->tab[TOPK_NAMES], name, len);
}

/* An address key (family byte + address) into key; 0: not IP. */
static size_t topk_addr_key(const struct sockaddr *sa,
                            uint8_t key[TOPK_CLIENT_BYTES])
{
	size_t len;
	const uint8_t *a = netaddr_bytes(sa, &len);

	if (a == NULL)
		return 0;
	key[0] = (uint8_t)sa->sa_family;
	memcpy(key + 1, a, len);
	return len + 1;
}

void topk_note_client(struct topk *t, const struct sockaddr *sa)
{
	uint8_t key[TOPK_CLIENT_BYTES];
	size_t len = topk_addr_key(sa, key);

	if (len != 0)
		topk_note(&t->tab[TOPK_CLIENTS], key, len);
}

void topk_note_server(struct topk *t, const struct sockaddr *sa,
                      const uint8_t *zone, size_t zonelen)
{
	uint8_t key[TOPK_KEY_MAX];
	size_t len = topk_addr_key(sa, key);

	if (len == 0)
		return;
	if (zone != NULL && zonelen <= sizeof key - len) {
		memcpy(key + len, zone, zonelen);
		len += zonelen;
	}
	topk_note(&t->tab[TOPK_SERVERS], key, len);
}

/* Insert a slot into out[0..*n) (most first, at most cap). */
static void topk_insert(struct topk_entry *out, size_t *n, size_t cap,
                        const struct topk_slot *s)
{
	size_t i = *n < cap ? (*n)++ : cap;

	if (i == cap && (cap == 0 || out[cap - 1].count >= s->count))
		return;
	if (i == cap)
		i = cap - 1;
	while (i > 0 && out[i - 1].count < s->count) {
		out[i] = out[i - 1];
		i--;
	}
	out[i].count = s->count;
	out[i].keylen = s->keylen;
	memcpy(out[i].key, s->key, s->keylen);
}

/* topk_take (reset) or topk_peek. */
static size_t topk_read(struct topk *t, enum topk_table which,
                        struct topk_entry *out, size_t cap, uint64_t *total,
                        uint64_t *skipped, bool reset)
{
	struct topk_tab *tb = &t->tab[which];
	size_t n = 0, i, j;

	if (cap > TOPK_TAKE_MAX)
		cap = TOPK_TAKE_MAX;
	pthread_mutex_lock(&tb->mu);
	for (i = 0; i < TOPK_SETS; i++)
		for (j = 0; j < TOPK_WAYS; j++)
			if (tb->slot[i][j].count != 0)
				topk_insert(out, &n, cap, &tb->slot[i][j]);
	*total = tb->total;
	if (reset) {
		*skipped = atomic_exchange(&tb->skipped, 0);
		tb->total = 0;
		for (i = 0; i < TOPK_SETS; i++) /* the key blocks stay */
			for (j = 0; j < TOPK_WAYS; j++)
				tb->slot[i][j].count = 0;
	} else
		*skipped = atomic_load(&tb->skipped);
	pthread_mutex_unlock(&tb->mu);
	return n;
}

size_t topk_take(struct topk *t, enum topk_table which, struct topk_entry *out,
                 size_t cap, uint64_t *total, uint64_t *skipped)
{
	return topk_read(t, which, out, cap, total, skipped, true);
}

size_t topk_peek(struct topk *t, enum topk_table which, struct topk_entry *out,
                 size_t cap, uint64_t *total, uint64_t *skipped)
{
	return topk_read(t, which, out, cap, total, skipped, false);
}

size_t topk_addr_len(const struct topk_entry *e)
{
	if (e->keylen >= 1 + TOPK_IP4_BYTES && e->key[0] == AF_INET)
		return 1 + TOPK_IP4_BYTES;
	if (e->keylen >= 1 + TOPK_IP6_BYTES && e->key[0] == AF_INET6)
		return 1 + TOPK_IP6_BYTES;
	return 0;
}

/* Move e[i] up to its place in e[0 .. i] (most first). */
static void topk_sift(struct topk_entry *e, size_t i)
{
	struct topk_entry tmp;

	while (i > 0 && e[i - 1].count < e[i].count) {
		tmp = e[i - 1];
		e[i - 1] = e[i];
		e[i] = tmp;
		i--;
	}
}

size_t topk_merge_servers(struct topk_entry *e, size_t n)
{
	size_t i, j, m = 0, al;

	for (i = 0; i < n; i++) {
		al = topk_addr_len(&e[i]);
		for (j = 0; j < m; j++)
			if (al != 0 && topk_addr_len(&e[j]) == al &&
			    memcmp(e[j].key, e[i].key, al) == 0)
				break;
		if (j < m) {
			e[j].count += e[i].count;
			topk_sift(e, j);
			continue;
		}
		if (m != i)
			e[m] = e[i];
		topk_sift(e, m++);
	}
	return m;
}

const char *topk_client_text(const struct topk_entry *e, char *buf, size_t cap)
{
	size_t al = topk_addr_len(e);
	int af = al == 0 ? 0 : e->key[0];

	if (af == 0 || inet_ntop(af, e->key + 1, buf, (socklen_t)cap) == NULL)
		snprintf(buf, cap, "?");
	return buf;
}
