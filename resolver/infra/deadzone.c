/*
 * resolver/infra/deadzone.c - the resolution failure cache (see
 * deadzone.h): a fixed array of entries addressed by their key, a probe
 * window of DEADZONE_WINDOW slots, one mutex.
 */
#include "deadzone.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/** Shifts of the doubling back-off (1 s << 9 passes 5 minutes). */
#define DEADZONE_SHIFT_MAX 9u
/** An entry whose back-off and hold ended this long ago is free (its
 *  failures no longer count as "in a row"). */
#define DEADZONE_FORGET_MS (2u * DEADZONE_BACKOFF_MAX_MS)

struct deadzone_slot {
	uint64_t key;
	uint64_t until_ms; /**< back-off end (0: none yet) */
	uint64_t hold_ms;  /**< a probe or first failure holds until */
	uint16_t type;
	uint16_t ede;
	uint8_t fails;
	uint8_t idle; /**< timer probes since a client's question */
	bool used;
	uint8_t len;
	uint8_t name[DEADZONE_NAME_MAX];
};

struct deadzone {
	pthread_mutex_t mu; /**< guards everything below but count */
	size_t count;       /**< entries used (also read without mu) */
	uint64_t evictions;
	struct deadzone_slot slot[DEADZONE_SLOTS];
};

int deadzone_new(struct deadzone **out)
{
	struct deadzone *dz = calloc(1, sizeof(*dz));

	if (dz == NULL)
		return DEADZONE_ENOMEM;
	if (pthread_mutex_init(&dz->mu, NULL) != 0) {
		free(dz);
		return DEADZONE_ENOMEM;
	}
	*out = dz;
	return DEADZONE_OK;
}

void deadzone_free(struct deadzone *dz)
{
	if (dz == NULL)
		return;
	pthread_mutex_destroy(&dz->mu);
	free(dz);
}

uint64_t deadzone_key(const uint8_t *name, size_t len, uint16_t type)
{
	uint8_t t[2] = { (uint8_t)(type >> 8), (uint8_t)type };
	uint64_t h = base_fnv1a(name, len, 1);

	h = base_fnv1a_add(h, t, sizeof t, 0);
	return h != 0 ? h : 1;
}

/* When an entry stops mattering: its back-off and hold both over. */
static uint64_t slot_end(const struct deadzone_slot *s)
{
	return s->until_ms > s->hold_ms ? s->until_ms : s->hold_ms;
}

static bool slot_stale(const struct deadzone_slot *s, uint64_t now_ms)
{
	return slot_end(s) + DEADZONE_FORGET_MS <= now_ms;
}

static void slot_drop(struct deadzone *dz, struct deadzone_slot *s)
{
	memset(s, 0, sizeof(*s));
	__atomic_store_n(&dz->count, dz->count - 1, __ATOMIC_RELAXED);
}

/* The slot of a key, stale or not (under mu), or NULL. */
static struct deadzone_slot *slot_exact(struct deadzone *dz, uint64_t key)
{
	size_t i;

	for (i = 0; i < DEADZONE_WINDOW; i++) {
		struct deadzone_slot *s =
			&dz->slot[(key + i) % DEADZONE_SLOTS];

		if (s->used && s->key == key)
			return s;
	}
	return NULL;
}

/* The live slot of a key (under mu), or NULL; a stale one is freed. */
static struct deadzone_slot *slot_find(struct deadzone *dz, uint64_t key,
                                       uint64_t now_ms)
{
	struct deadzone_slot *s = slot_exact(dz, key);

	if (s != NULL && slot_stale(s, now_ms)) {
		slot_drop(dz, s);
		return NULL;
	}
	return s;
}

/* The slot of a key, made when missing (under mu): a free one of the
 * window, else a stale one, else the one that ended first. */
static struct deadzone_slot *slot_make(struct deadzone *dz, uint64_t key,
                                       const uint8_t *name, size_t len,
                                       uint16_t type, uint64_t now_ms)
{
	struct deadzone_slot *s = slot_find(dz, key, now_ms), *v = NULL;
	size_t i;

	if (s != NULL)
		return s;
	for (i = 0; i < DEADZONE_WINDOW; i++) {
		s = &dz->slot[(key + i) % DEADZONE_SLOTS];
		if (!s->used || slot_stale(s, now_ms)) {
			v = s;
			break;
		}
		if (v == NULL || slot_end(s) < slot_end(v))
			v = s;
	}
	if (v->used)
		dz->evictions++;
	else
		__atomic_store_n(&dz->count, dz->count + 1, __ATOMIC_RELAXED);
	memset(v, 0, sizeof(*v));
	v->used = true;
	v->key = key;
	v->type = type;
	v->ede = DEADZONE_EDE_NO_REACH;
	if (name != NULL && len <= DEADZONE_NAME_MAX) {
		memcpy(v->name, name, len);
		v->len = (uint8_t)len;
	}
	return v;
}

enum deadzone_verdict deadzone_check(struct deadzone *dz, uint64_t key,
                                     uint64_t now_ms, uint32_t hold_ms,
                                     uint16_t *ede)
{
	enum deadzone_verdict v = DEADZONE_ASK;
	struct deadzone_slot *s;

	if (dz == NULL || !deadzone_busy(dz))
		return DEADZONE_ASK;
	pthread_mutex_lock(&dz->mu);
	s = slot_find(dz, key, now_ms);
	if (s != NULL)
		s->idle = 0; /* a client asked */
	if (s != NULL && (s->until_ms > now_ms || s->hold_ms > now_ms)) {
		v = DEADZONE_FAIL;
		if (ede != NULL)
			*ede = s->ede;
	} else if (s != NULL && s->until_ms != 0) {
		/* the back-off is over: one probe goes out */
		s->hold_ms = now_ms + hold_ms;
		v = DEADZONE_PROBE;
		if (ede != NULL)
			*ede = s->ede;
	}
	pthread_mutex_unlock(&dz->mu);
	return v;
}

enum deadzone_verdict deadzone_due(struct deadzone *dz, uint64_t key,
                                   uint64_t now_ms, uint32_t hold_ms,
                                   unsigned idle_max, uint64_t *left_ms)
{
	enum deadzone_verdict v = DEADZONE_ASK;
	struct deadzone_slot *s;

	*left_ms = 0;
	if (dz == NULL || !deadzone_busy(dz))
		return DEADZONE_ASK;
	pthread_mutex_lock(&dz->mu);
	s = slot_find(dz, key, now_ms);
	if (s == NULL || s->until_ms == 0) {
		v = DEADZONE_ASK;
	} else if (s->until_ms > now_ms || s->hold_ms > now_ms) {
		v = DEADZONE_FAIL;
		if (s->until_ms > now_ms)
			*left_ms = s->until_ms - now_ms;
	} else if (s->idle < idle_max) {
		s->idle++;
		s->hold_ms = now_ms + hold_ms;
		v = DEADZONE_PROBE;
	}
	pthread_mutex_unlock(&dz->mu);
	return v;
}

void deadzone_hold(struct deadzone *dz, uint64_t key, const uint8_t *name,
                   size_t len, uint16_t type, uint64_t now_ms,
                   uint32_t hold_ms)
{
	struct deadzone_slot *s;

	if (dz == NULL)
		return;
	pthread_mutex_lock(&dz->mu);
	s = slot_make(dz, key, name, len, type, now_ms);
	if (s->hold_ms < now_ms + hold_ms)
		s->hold_ms = now_ms + hold_ms;
	pthread_mutex_unlock(&dz->mu);
}

bool deadzone_extend(struct deadzone *dz, uint64_t key, uint64_t now_ms,
                     uint32_t hold_ms)
{
	struct deadzone_slot *s;

	if (dz == NULL || !deadzone_busy(dz))
		return false;
	pthread_mutex_lock(&dz->mu);
	s = slot_find(dz, key, now_ms);
	if (s != NULL && s->hold_ms < now_ms + hold_ms)
		s->hold_ms = now_ms + hold_ms;
	pthread_mutex_unlock(&dz->mu);
	return s != NULL;
}

/* The back-off of a slot's next failure. */
static uint32_t slot_backoff(const struct deadzone_slot *s, uint16_t ede)
{
	unsigned shift;
	uint64_t b;

	if (s->type != 0)
		return DEADZONE_QUESTION_MS;
	if (ede == DEADZONE_EDE_NETWORK)
		return DEADZONE_NETERR_MS;
	shift = s->fails > 0 ? s->fails - 1u : 0u;
	if (shift > DEADZONE_SHIFT_MAX)
		shift = DEADZONE_SHIFT_MAX;
	b = (uint64_t)DEADZONE_BACKOFF_MIN_MS << shift;
	return b > DEADZONE_BACKOFF_MAX_MS ? DEADZONE_BACKOFF_MAX_MS :
	                                     (uint32_t)b;
}

/* One more failure of a slot (under mu): its back-off starts. */
static uint32_t slot_fail(struct deadzone_slot *s, uint16_t ede,
                          uint64_t now_ms)
{
	uint32_t b;

	if (s->fails < UINT8_MAX)
		s->fails++;
	s->ede = ede;
	b = slot_backoff(s, ede);
	s->until_ms = now_ms + b;
	s->hold_ms = 0;
	return b;
}

uint32_t deadzone_fail(struct deadzone *dz, uint64_t key, const uint8_t *name,
                       size_t len, uint16_t type, uint16_t ede,
                       uint64_t now_ms)
{
	uint32_t b;

	if (dz == NULL)
		return 0;
	pthread_mutex_lock(&dz->mu);
	b = slot_fail(slot_make(dz, key, name, len, type, now_ms), ede,
	              now_ms);
	pthread_mutex_unlock(&dz->mu);
	return b;
}

bool deadzone_refail(struct deadzone *dz, uint64_t key, uint16_t ede,
                     uint64_t now_ms)
{
	struct deadzone_slot *s;

	if (dz == NULL || !deadzone_busy(dz))
		return false;
	pthread_mutex_lock(&dz->mu);
	s = slot_find(dz, key, now_ms);
	if (s != NULL)
		(void)slot_fail(s, ede, now_ms);
	pthread_mutex_unlock(&dz->mu);
	return s != NULL;
}

void deadzone_alive(struct deadzone *dz, uint64_t key)
{
	struct deadzone_slot *s;

	if (dz == NULL || !deadzone_busy(dz))
		return;
	pthread_mutex_lock(&dz->mu);
	if ((s = slot_exact(dz, key)) != NULL)
		slot_drop(dz, s);
	pthread_mutex_unlock(&dz->mu);
}

void deadzone_release(struct deadzone *dz, uint64_t key)
{
	struct deadzone_slot *s;

	if (dz == NULL || !deadzone_busy(dz))
		return;
	pthread_mutex_lock(&dz->mu);
	if ((s = slot_exact(dz, key)) != NULL) {
		s->hold_ms = 0;
		if (s->until_ms == 0)
			slot_drop(dz, s);
	}
	pthread_mutex_unlock(&dz->mu);
}

size_t deadzone_flush(struct deadzone *dz)
{
	size_t i, n = 0;

	if (dz == NULL)
		return 0;
	pthread_mutex_lock(&dz->mu);
	for (i = 0; i < DEADZONE_SLOTS; i++) {
		if (dz->slot[i].used) {
			slot_drop(dz, &dz->slot[i]);
			n++;
		}
	}
	pthread_mutex_unlock(&dz->mu);
	return n;
}

bool deadzone_busy(const struct deadzone *dz)
{
	return dz != NULL && __atomic_load_n(&dz->count, __ATOMIC_RELAXED) > 0;
}

static void slot_info(const struct deadzone_slot *s, uint64_t now_ms,
                      struct deadzone_info *info)
{
	info->name = s->name;
	info->namelen = s->len;
	info->type = s->type;
	info->fails = s->fails;
	info->left_ms = s->until_ms > now_ms ? s->until_ms - now_ms : 0;
	info->probing = s->hold_ms > now_ms;
	info->ede = s->ede;
}

int deadzone_walk(struct deadzone *dz, uint64_t now_ms, deadzone_walk_fn fn,
                  void *arg)
{
	struct deadzone_info info;
	size_t i;
	int rc = 0;

	if (dz == NULL)
		return 0;
	pthread_mutex_lock(&dz->mu);
	for (i = 0; i < DEADZONE_SLOTS && rc == 0; i++) {
		const struct deadzone_slot *s = &dz->slot[i];

		if (!s->used || slot_stale(s, now_ms) || s->len == 0)
			continue;
		slot_info(s, now_ms, &info);
		rc = fn(&info, arg);
	}
	pthread_mutex_unlock(&dz->mu);
	return rc;
}

bool deadzone_get(struct deadzone *dz, uint64_t key, uint64_t now_ms,
                  unsigned *fails, uint64_t *left_ms, bool *probing)
{
	struct deadzone_info info;
	struct deadzone_slot *s;

	if (dz == NULL || !deadzone_busy(dz))
		return false;
	pthread_mutex_lock(&dz->mu);
	s = slot_find(dz, key, now_ms);
	if (s != NULL) {
		slot_info(s, now_ms, &info);
		*fails = info.fails;
		*left_ms = info.left_ms;
		*probing = info.probing;
	}
	pthread_mutex_unlock(&dz->mu);
	return s != NULL;
}

void deadzone_stats_get(struct deadzone *dz, struct deadzone_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (dz == NULL)
		return;
	pthread_mutex_lock(&dz->mu);
	st->entries = dz->count;
	st->evictions = dz->evictions;
	pthread_mutex_unlock(&dz->mu);
}
