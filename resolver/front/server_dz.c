/*
 * resolver/front/server_dz.c - the background probes of dead zones (RFC
 * 9520; the failure cache is infra/deadzone.h, its use by the iterator
 * iter/iter_deadzone.c). When a zone's back-off has ended, the first
 * request that reaches it hands its question here (iter_env.dz_probe)
 * and fails at once: no client waits on a dead zone. The question is
 * queued and asked on the next loop turn (never from inside the
 * iterator step of the client's resolution) by a resolution with no
 * client (server_probe) that holds the zone (iter_env.dz_probe_key):
 * its answer ends the back-off, its failure doubles it. One probe per
 * zone, at most SERVER_DZ_PROBES_MAX queued and running per worker.
 * Before that, the worker that saw a zone fail (iter_env.dz_failed)
 * keeps a timer for the back-off's end (SERVER_DZ_ARMS_MAX zones) and
 * probes ZONE SOA then, no client asking: a zone that came back is
 * cleared before the next client; a failed probe sets the next timer,
 * and SERVER_DZ_IDLE_MAX probes in a row with no client question
 * between end it (deadzone_due).
 */
#include "server_int.h"

#include <string.h>

#include "base/clock.h"
#include "infra/deadzone.h"

static struct server_dzarm *server_dz_arm(struct server *s, uint64_t key);
static void server_dz_arm_set(struct server *s);

static void server_dz_probe_end(void *arg)
{
	struct server_dzrun *run = arg;
	struct server_dzarm *a = server_dz_arm(run->s, run->key);

	/* a timer probe that left no back-off (an answer ended it, or it
	 * never reached the zone): the timer forgets the zone */
	if (a != NULL && a->at_ms == UINT64_MAX) {
		deadzone_release(run->s->dz, run->key);
		memset(a, 0, sizeof(*a));
	}
	run->key = 0;
}

/* The slot of a running probe of key (0: a free slot), or NULL. */
static struct server_dzrun *server_dz_run(struct server *s, uint64_t key)
{
	size_t i;

	for (i = 0; i < SERVER_DZ_PROBES_MAX; i++)
		if (s->dz_run[i].key == key)
			return &s->dz_run[i];
	return NULL;
}

/* Start one queued probe: a resolution with no client that holds its
 * zone (iter_env.dz_probe_key); the zone's hold is dropped when none can
 * start, for a later question to probe it. */
static void server_dz_probe_start(struct server *s, const struct server_dzq *p)
{
	struct server_dzrun *run = server_dz_run(s, 0);
	int rc = SERVER_EINVAL;

	if (run != NULL && !s->stopping &&
	    inflight_find(s->inflight, p->name, p->len, p->qtype,
	                  WIRE_CLASS_IN) == NULL &&
	    inflight_count(s->inflight) < SERVER_RES_MAX / 2) {
		run->s = s;
		run->key = p->key;
		s->dz_probe_next = p->key;
		rc = server_probe(s, p->name, p->len, p->qtype,
		                  server_dz_probe_end, run);
		s->dz_probe_next = 0;
	}
	if (rc != SERVER_OK) {
		struct server_dzarm *a = server_dz_arm(s, p->key);

		if (run != NULL)
			run->key = 0;
		if (a != NULL)
			memset(a, 0, sizeof(*a));
		deadzone_release(s->dz, p->key);
		return;
	}
	s->st.upstream_zone_probe++;
}

static void server_dz_probe_cb(uv_timer_t *t)
{
	struct server *s = t->data;
	struct server_dzq p;

	while (s->dz_nq > 0) {
		p = s->dz_q[--s->dz_nq];
		server_dz_probe_start(s, &p);
	}
}

/* Whether a probe of key is queued or running. */
static bool server_dz_busy(const struct server *s, uint64_t key)
{
	size_t i;

	for (i = 0; i < s->dz_nq; i++)
		if (s->dz_q[i].key == key)
			return true;
	for (i = 0; i < SERVER_DZ_PROBES_MAX; i++)
		if (s->dz_run[i].key == key)
			return true;
	return false;
}

/* Probes queued and running. */
static size_t server_dz_count(const struct server *s)
{
	size_t i, n = s->dz_nq;

	for (i = 0; i < SERVER_DZ_PROBES_MAX; i++)
		n += s->dz_run[i].key != 0;
	return n;
}

/* iter_env.dz_probe: queue a probe for the next loop turn (never from
 * inside the iterator step of the client's resolution); one of the zone
 * already out is enough. */
static bool server_dz_probe(void *arg, uint64_t key, const uint8_t *qname,
                            size_t len, uint16_t qtype)
{
	struct server *s = arg;
	struct server_dzq *p;

	if (server_dz_busy(s, key))
		return true;
	if (s->stopping || len == 0 || len > WIRE_NAME_MAX ||
	    server_dz_count(s) >= SERVER_DZ_PROBES_MAX)
		return false;
	if (!s->dz_timer_open) {
		if (uv_timer_init(s->loop, &s->dz_timer) != 0)
			return false;
		s->dz_timer.data = s;
		s->dz_timer_open = true;
	}
	p = &s->dz_q[s->dz_nq++];
	p->key = key;
	p->qtype = qtype;
	p->len = len;
	memcpy(p->name, qname, len);
	wire_name_lower(p->name, len);
	if (s->dz_nq == 1)
		uv_timer_start(&s->dz_timer, server_dz_probe_cb, 0, 0);
	return true;
}

/* The timer slot of key (0: a free slot), or NULL. */
static struct server_dzarm *server_dz_arm(struct server *s, uint64_t key)
{
	size_t i;

	for (i = 0; i < SERVER_DZ_ARMS_MAX; i++)
		if (s->dz_arm[i].q.key == key)
			return &s->dz_arm[i];
	return NULL;
}

/* The timer of one zone fired: probe it (a resolution with no client,
 * as server_dz_probe's), wait on, or forget it. */
static void server_dz_arm_due(struct server *s, struct server_dzarm *a,
                              uint64_t now)
{
	uint64_t left = 0;

	switch (deadzone_due(s->dz, a->q.key, now, SERVER_DZ_HOLD_MS,
	                     SERVER_DZ_IDLE_MAX, &left)) {
	case DEADZONE_PROBE:
		if (server_dz_probe(s, a->q.key, a->q.name, a->q.len,
		                    a->q.qtype)) {
			a->at_ms = UINT64_MAX; /* until the probe ends */
			return;
		}
		deadzone_release(s->dz, a->q.key);
		break;
	case DEADZONE_FAIL:
		if (left > 0) {
			a->at_ms = now + left;
			return;
		}
		break; /* another probe is out: its worker takes it on */
	default: break;
	}
	memset(a, 0, sizeof(*a));
}

static void server_dz_arm_cb(uv_timer_t *t)
{
	struct server *s = t->data;
	uint64_t now = clock_ms();
	size_t i;

	for (i = 0; i < SERVER_DZ_ARMS_MAX; i++)
		if (s->dz_arm[i].q.key != 0 && s->dz_arm[i].at_ms <= now)
			server_dz_arm_due(s, &s->dz_arm[i], now);
	server_dz_arm_set(s);
}

/* (Re)start the timer for the first back-off end of the zones kept. */
static void server_dz_arm_set(struct server *s)
{
	uint64_t now = clock_ms(), first = UINT64_MAX;
	size_t i;

	if (s->stopping)
		return;
	for (i = 0; i < SERVER_DZ_ARMS_MAX; i++)
		if (s->dz_arm[i].q.key != 0 && s->dz_arm[i].at_ms < first)
			first = s->dz_arm[i].at_ms;
	if (first == UINT64_MAX) {
		if (s->dz_arm_open)
			uv_timer_stop(&s->dz_arm_timer);
		return;
	}
	if (!s->dz_arm_open) {
		if (uv_timer_init(s->loop, &s->dz_arm_timer) != 0)
			return;
		s->dz_arm_timer.data = s;
		s->dz_arm_open = true;
	}
	uv_timer_start(&s->dz_arm_timer, server_dz_arm_cb,
	               first > now ? first - now : 0, 0);
}

/* iter_env.dz_failed: a zone failed; its back-off starts: the timer is
 * set for its end, to probe ZONE SOA then (a question clients seldom
 * ask: one that did would wait on the probe's resolution). */
static void server_dz_failed(void *arg, uint64_t key, const uint8_t *zone,
                             size_t len)
{
	struct server *s = arg;
	struct server_dzarm *a = server_dz_arm(s, key);
	bool probing;
	unsigned fails;
	uint64_t left;

	if (a == NULL)
		a = server_dz_arm(s, 0);
	if (s->stopping || len == 0 || len > WIRE_NAME_MAX || key == 0 ||
	    a == NULL)
		return;
	if (!deadzone_get(s->dz, key, clock_ms(), &fails, &left, &probing) ||
	    left == 0) {
		if (a->q.key == key)
			memset(a, 0, sizeof(*a));
		return;
	}
	a->q.key = key;
	a->q.qtype = WIRE_TYPE_SOA;
	a->q.len = len;
	memcpy(a->q.name, zone, len);
	wire_name_lower(a->q.name, len);
	a->at_ms = clock_ms() + left;
	server_dz_arm_set(s);
}

void server_dz_stop(struct server *s)
{
	memset(s->dz_arm, 0, sizeof(s->dz_arm));
	if (s->dz_arm_open)
		uv_close((uv_handle_t *)&s->dz_arm_timer, NULL);
	s->dz_arm_open = false;
	while (s->dz_nq > 0)
		deadzone_release(s->dz, s->dz_q[--s->dz_nq].key);
	if (s->dz_timer_open)
		uv_close((uv_handle_t *)&s->dz_timer, NULL);
	s->dz_timer_open = false;
}

void server_iter_deadzone(struct server *s, struct iter_env *env)
{
	env->deadzone = s->dz;
	env->tally.zone_backoff = &s->st.upstream_zone_backoff;
	env->tally.failure_cached = &s->st.upstream_failure_cached;
	env->dz_probe = server_dz_probe;
	env->dz_probe_arg = s;
	env->dz_failed = server_dz_failed;
	env->dz_probe_key = s->dz_probe_next;
}
