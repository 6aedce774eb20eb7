/*
 * resolver/policy/ratelimit.c - per-client token buckets (see ratelimit.h).
 */
#include "ratelimit.h"

#include "base/netaddr.h"

#include <netinet/in.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

/** Tokens are counted in thousandths, so refills are exact per ms. */
#define RATELIMIT_MILLI 1000u
/** Bytes of an address key: family byte + up to 8 address bytes. */
#define RATELIMIT_KEY_BYTES 9
/** Bytes of an IPv6 prefix that identifies a client (a /64). */
#define RATELIMIT_V6_PREFIX_BYTES 8
/** Bytes of an IPv4 address. */
#define RATELIMIT_V4_BYTES 4

_Static_assert((RATELIMIT_SLOTS & (RATELIMIT_SLOTS - 1)) == 0 &&
                       (RATELIMIT_PROBE_MAX & (RATELIMIT_PROBE_MAX - 1)) ==
                               0 &&
                       RATELIMIT_PROBE_MAX <= RATELIMIT_SLOTS,
               "slots and windows must be powers of two");

/** One client's bucket. */
struct ratelimit_bucket {
	uint64_t key;     /**< keyed hash of the address */
	uint64_t last_ms; /**< last refill (and last use, for LRU) */
	uint64_t tokens;  /**< thousandths of a token */
	bool used;
};

struct ratelimit {
	uint8_t hkey[crypto_shorthash_KEYBYTES];
	/* lock[w % RATELIMIT_LOCKS] guards window w (its PROBE_MAX slots) */
	pthread_mutex_t lock[RATELIMIT_LOCKS];
	struct ratelimit_bucket slot[RATELIMIT_SLOTS];
};

const char *ratelimit_strerror(int status)
{
	switch (status) {
	case RATELIMIT_OK: return "ok";
	case RATELIMIT_ENOMEM: return "out of memory";
	default: return "unknown ratelimit status";
	}
}

int ratelimit_new(struct ratelimit **out)
{
	struct ratelimit *rl;
	size_t i;

	if (sodium_init() < 0)
		return RATELIMIT_ENOMEM;
	rl = calloc(1, sizeof(*rl));
	if (rl == NULL)
		return RATELIMIT_ENOMEM;
	for (i = 0; i < RATELIMIT_LOCKS; i++)
		if (pthread_mutex_init(&rl->lock[i], NULL) != 0) {
			while (i-- > 0)
				pthread_mutex_destroy(&rl->lock[i]);
			free(rl);
			return RATELIMIT_ENOMEM;
		}
	crypto_shorthash_keygen(rl->hkey);
	*out = rl;
	return RATELIMIT_OK;
}

void ratelimit_free(struct ratelimit *rl)
{
	size_t i;

	if (rl == NULL)
		return;
	for (i = 0; i < RATELIMIT_LOCKS; i++)
		pthread_mutex_destroy(&rl->lock[i]);
	free(rl);
}

bool ratelimit_is_loopback(const struct sockaddr *sa)
{
	static const uint8_t loop6[16] = { [15] = 1 };
	size_t len;
	const uint8_t *a = netaddr_unmapped(sa, &len);

	if (len == 4)
		return a[0] == 127;
	return len == 16 && memcmp(a, loop6, sizeof loop6) == 0;
}

/* The key bytes of a client; 0 for an unsupported family. */
static size_t client_key(const struct sockaddr *sa,
                         uint8_t k[RATELIMIT_KEY_BYTES])
{
	size_t len;
	const uint8_t *a = netaddr_unmapped(sa, &len);

	memset(k, 0, RATELIMIT_KEY_BYTES);
	if (a == NULL)
		return 0;
	if (len == 4) {
		k[0] = 4;
		memcpy(k + 1, a, RATELIMIT_V4_BYTES);
	} else {
		k[0] = 6;
		memcpy(k + 1, a, RATELIMIT_V6_PREFIX_BYTES);
	}
	return RATELIMIT_KEY_BYTES;
}

/* The bucket of a key in its window (from slot `home`, the caller
 * holding the window's lock): its own, a free one, or the LRU one. */
static struct ratelimit_bucket *bucket_get(struct ratelimit *rl, size_t home,
                                           uint64_t key, uint64_t cap,
                                           uint64_t now_ms)
{
	struct ratelimit_bucket *b, *victim = NULL;
	size_t i;

	for (i = 0; i < RATELIMIT_PROBE_MAX; i++) {
		b = &rl->slot[home + i];
		if (b->used && b->key == key)
			return b;
		if (victim == NULL || !b->used ||
		    (victim->used && b->last_ms < victim->last_ms))
			victim = b;
	}
	victim->used = true;
	victim->key = key;
	victim->last_ms = now_ms;
	victim->tokens = cap;
	return victim;
}

enum ratelimit_verdict ratelimit_check(struct ratelimit *rl,
                                       const struct sockaddr *sa, uint32_t qps,
                                       bool exempt_loopback, uint64_t now_ms)
{
	uint8_t k[RATELIMIT_KEY_BYTES];
	uint8_t h[crypto_shorthash_BYTES];
	struct ratelimit_bucket *b;
	pthread_mutex_t *lock;
	uint64_t key, cap, add;
	size_t home;
	enum ratelimit_verdict v = RATELIMIT_PASS;

	if (qps == 0 || rl == NULL || client_key(sa, k) == 0 ||
	    (exempt_loopback && ratelimit_is_loopback(sa)))
		return RATELIMIT_PASS;
	crypto_shorthash(h, k, sizeof k, rl->hkey);
	memcpy(&key, h, sizeof key);
	cap = (uint64_t)qps * RATELIMIT_MILLI;
	/* windows are aligned, so one lock covers the whole of one */
	home = (size_t)key & (RATELIMIT_SLOTS - RATELIMIT_PROBE_MAX);
	lock = &rl->lock[(home / RATELIMIT_PROBE_MAX) % RATELIMIT_LOCKS];
	pthread_mutex_lock(lock);
	b = bucket_get(rl, home, key, cap, now_ms);
	if (b->tokens > cap) /* the limit was lowered by a reload */
		b->tokens = cap;
	/* another worker may have refilled at a later ms: never go back */
	if (now_ms > b->last_ms) {
		/* qps tokens per second = qps thousandths per ms */
		add = (now_ms - b->last_ms) * qps;
		b->tokens = cap - b->tokens < add ? cap : b->tokens + add;
		b->last_ms = now_ms;
	}
	if (b->tokens < RATELIMIT_MILLI)
		v = RATELIMIT_EXCESS;
	else
		b->tokens -= RATELIMIT_MILLI;
	pthread_mutex_unlock(lock);
	return v;
}
