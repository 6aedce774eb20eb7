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
	struct curvepin_conf conf; /**< confirmations only */
};

struct curvepin {
	pthread_mutex_t mu; /**< guards slot[] and conf[] */
	struct curvepin_slot slot[CURVEPIN_SLOTS];
	struct curvepin_slot conf[CURVEPIN_SLOTS];
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

static bool curvepin_name_ok(const uint8_t *zone, size_t len)
{
	return zone != NULL && len > 0 && len <= CURVEPIN_NAME_MAX;
}

/* The slot of a zone in a table (under p->mu): its own, else the first
 * empty or expired one of the window, else the one expiring first. */
static struct curvepin_slot *curvepin_place(struct curvepin_slot *tab,
                                            const uint8_t *zone, size_t len,
                                            time_t now, bool *found)
{
	size_t h = curvepin_hash(zone, len), i, idx;
	size_t freed = CURVEPIN_SLOTS, oldest = CURVEPIN_SLOTS;

	*found = false;
	for (i = 0; i < CURVEPIN_PROBE; i++) {
		struct curvepin_slot *s;

		idx = (h + i) % CURVEPIN_SLOTS;
		s = &tab[idx];
		if (curvepin_is(s, zone, len)) {
			*found = true;
			return s;
		}
		if (s->until <= now) {
			if (freed == CURVEPIN_SLOTS)
				freed = idx;
		} else if (oldest == CURVEPIN_SLOTS ||
		           s->until < tab[oldest].until) {
			oldest = idx;
		}
	}
	idx = freed != CURVEPIN_SLOTS ? freed : oldest;
	tab[idx].len = (uint8_t)len;
	memcpy(tab[idx].name, zone, len);
	return &tab[idx];
}

/* A zone's slot in a table (under p->mu), or NULL. */
static struct curvepin_slot *curvepin_find(struct curvepin_slot *tab,
                                           const uint8_t *zone, size_t len)
{
	size_t h = curvepin_hash(zone, len), i;

	for (i = 0; i < CURVEPIN_PROBE; i++) {
		struct curvepin_slot *s = &tab[(h + i) % CURVEPIN_SLOTS];

		if (curvepin_is(s, zone, len))
			return s;
	}
	return NULL;
}

enum curvepin_status curvepin_note(struct curvepin *p, const uint8_t *zone,
                                   size_t len, time_t until, time_t now)
{
	struct curvepin_slot *s;
	bool found;

	if (p == NULL || !curvepin_name_ok(zone, len) || until <= now)
		return CURVEPIN_EINVAL;
	pthread_mutex_lock(&p->mu);
	s = curvepin_place(p->slot, zone, len, now, &found);
	if (!found || until > s->until)
		s->until = until;
	pthread_mutex_unlock(&p->mu);
	return CURVEPIN_OK;
}

bool curvepin_held(struct curvepin *p, const uint8_t *zone, size_t len,
                   time_t now)
{
	const struct curvepin_slot *s;
	bool held;

	if (p == NULL || !curvepin_name_ok(zone, len))
		return false;
	pthread_mutex_lock(&p->mu);
	s = curvepin_find(p->slot, zone, len);
	held = s != NULL && s->until > now;
	pthread_mutex_unlock(&p->mu);
	return held;
}

enum curvepin_status curvepin_confirm(struct curvepin *p, const uint8_t *zone,
                                      size_t len,
                                      const struct curvepin_conf *c,
                                      time_t now)
{
	struct curvepin_slot *s;
	bool found;

	if (p == NULL || c == NULL || !curvepin_name_ok(zone, len) ||
	    c->until <= now)
		return CURVEPIN_EINVAL;
	pthread_mutex_lock(&p->mu);
	s = curvepin_place(p->conf, zone, len, now, &found);
	s->conf = *c;
	s->until = c->until;
	pthread_mutex_unlock(&p->mu);
	return CURVEPIN_OK;
}

bool curvepin_confirmed(struct curvepin *p, const uint8_t *zone, size_t len,
                        time_t now, struct curvepin_conf *out)
{
	const struct curvepin_slot *s;
	bool live;

	if (p == NULL || !curvepin_name_ok(zone, len))
		return false;
	pthread_mutex_lock(&p->mu);
	s = curvepin_find(p->conf, zone, len);
	live = s != NULL && s->until > now;
	if (live && out != NULL)
		*out = s->conf;
	pthread_mutex_unlock(&p->mu);
	return live;
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
