/*
 * resolver/infra/curvepin.c - DNSCurve key pinning: a fixed table of zones
 * seen with keys (see curvepin.h).
 */
#include "curvepin.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

struct curvepin_slot {
	time_t until; /**< 0: empty */
	uint8_t len;  /**< name length, 1..255 */
	uint8_t name[CURVEPIN_NAME_MAX];
};

struct curvepin {
	pthread_mutex_t mu; /**< guards slot[] */
	struct curvepin_slot slot[CURVEPIN_SLOTS];
};

enum curvepin_status curvepin_new(struct curvepin **out)
{
	struct curvepin *p = calloc(1, sizeof(*p));

	if (p == NULL)
		return CURVEPIN_ENOMEM;
	if (pthread_mutex_init(&p->mu, NULL) != 0) {
		free(p);
		return CURVEPIN_ENOMEM;
	}
	*out = p;
	return CURVEPIN_OK;
}

void curvepin_free(struct curvepin *p)
{
	if (p == NULL)
		return;
	pthread_mutex_destroy(&p->mu);
	free(p);
}

static size_t curvepin_hash(const uint8_t *name, size_t len)
{
	return (size_t)(base_fnv1a(name, len, 0) % CURVEPIN_SLOTS);
}

static bool curvepin_is(const struct curvepin_slot *s, const uint8_t *name,
                        size_t len)
{
	return s->until != 0 && s->len == len &&
	       memcmp(s->name, name, len) == 0;
}

enum curvepin_status curvepin_note(struct curvepin *p, const uint8_t *zone,
                                   size_t len, time_t until, time_t now)
{
	size_t h, i, idx, freed = CURVEPIN_SLOTS, oldest = CURVEPIN_SLOTS;

	if (p == NULL || zone == NULL || len == 0 || len > CURVEPIN_NAME_MAX ||
	    until <= now)
		return CURVEPIN_EINVAL;
	h = curvepin_hash(zone, len);
	pthread_mutex_lock(&p->mu);
	for (i = 0; i < CURVEPIN_PROBE; i++) {
		struct curvepin_slot *s;

		idx = (h + i) % CURVEPIN_SLOTS;
		s = &p->slot[idx];
		if (curvepin_is(s, zone, len)) {
			if (until > s->until)
				s->until = until;
			pthread_mutex_unlock(&p->mu);
			return CURVEPIN_OK;
		}
		/* The first empty or expired slot, else the oldest pin. */
		if (s->until <= now) {
			if (freed == CURVEPIN_SLOTS)
				freed = idx;
		} else if (oldest == CURVEPIN_SLOTS ||
		           s->until < p->slot[oldest].until) {
			oldest = idx;
		}
	}
	idx = freed != CURVEPIN_SLOTS ? freed : oldest;
	p->slot[idx].until = until;
	p->slot[idx].len = (uint8_t)len;
	memcpy(p->slot[idx].name, zone, len);
	pthread_mutex_unlock(&p->mu);
	return CURVEPIN_OK;
}

bool curvepin_held(struct curvepin *p, const uint8_t *zone, size_t len,
                   time_t now)
{
	size_t h, i;
	bool held = false;

	if (p == NULL || zone == NULL || len == 0 || len > CURVEPIN_NAME_MAX)
		return false;
	h = curvepin_hash(zone, len);
	pthread_mutex_lock(&p->mu);
	for (i = 0; i < CURVEPIN_PROBE; i++) {
		const struct curvepin_slot *s =
			&p->slot[(h + i) % CURVEPIN_SLOTS];

		if (curvepin_is(s, zone, len)) {
			held = s->until > now;
			break;
		}
	}
	pthread_mutex_unlock(&p->mu);
	return held;
}

size_t curvepin_count(struct curvepin *p, time_t now)
{
	size_t i, n = 0;

	if (p == NULL)
		return 0;
	pthread_mutex_lock(&p->mu);
	for (i = 0; i < CURVEPIN_SLOTS; i++)
		if (p->slot[i].until > now)
			n++;
	pthread_mutex_unlock(&p->mu);
	return n;
}
