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
 */
#include "server_int.h"

#include <string.h>

#include "infra/deadzone.h"

static void server_dz_probe_end(void *arg)
{
	struct server_dzrun *run = arg;

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
		if (run != NULL)
			run->key = 0;
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

void server_dz_stop(struct server *s)
{
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
	env->dz_probe_key = s->dz_probe_next;
}
