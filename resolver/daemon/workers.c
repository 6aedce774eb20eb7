/*
 * resolver/daemon/workers.c - the extra worker threads of "threads: N": one
 * loop, one server and one thread each (see workers.h).
 */
#include "workers.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "conf/cfg.h"
#include "infra/hints.h"
#include "trust.h"

/** A thread name (Linux: 15 characters and the NUL). */
#define WORKERS_NAME_BYTES 16

/** How long a stats request waits for a worker (it answers at once
 *  unless it is stuck in one callback); then its last snapshot is used. */
#define WORKERS_SNAP_WAIT_S 2

_Static_assert(WORKERS_MAX <= STATS_THREADS_MAX,
               "the control socket shows every worker's counters");

/** One extra worker. */
struct worker {
	uv_loop_t loop;
	uv_async_t stop;
	uv_async_t call; /**< requests from the main thread */
	struct server *srv;
	struct cfg cfg; /**< its own copy: read by it only */
	pthread_t thread;
	/* Requests, under mu: the main thread asks, the worker answers. */
	pthread_mutex_t mu;
	pthread_cond_t cv;
	const struct cfg *req_cfg; /**< a reload to apply, or NULL */
	bool req_snap;             /**< copy srv's counters to snap */
	workers_fn *req_fn;        /**< run on the worker (workers_each) */
	void *req_arg;
	uint64_t asked;    /**< requests made */
	uint64_t done;     /**< requests answered */
	struct stats snap; /**< counters at the last request */
	int reload_rc;     /**< WORKERS_OK or why it failed */
	char reload_err[CFG_ERR_BYTES];
	bool loop_open;
	bool async_open;
	bool call_open;
	bool sync_open;
	bool running;
};

struct workers {
	size_t n;
	struct worker w[WORKERS_MAX];
};

static void *worker_main(void *arg)
{
	struct worker *k = arg;

	uv_run(&k->loop, UV_RUN_DEFAULT);
	return NULL;
}

/* On the worker's thread: stop its server; its loop then runs dry. */
static void worker_stop_cb(uv_async_t *a)
{
	struct worker *k = a->data;

	server_stop(k->srv);
	uv_close((uv_handle_t *)&k->stop, NULL);
	uv_close((uv_handle_t *)&k->call, NULL);
}

/* The worker's own trust anchors (trust.h), from its config. */
static int worker_anchors(struct worker *k, char *err, size_t errlen)
{
	struct anchors *a = NULL;

	if (trust_anchors_load(&k->cfg, &a, err, errlen) != 0)
		return WORKERS_EHINTS;
	if (server_anchors_set(k->srv, a) != SERVER_OK) {
		snprintf(err, errlen, "out of memory");
		return WORKERS_ENOMEM;
	}
	return WORKERS_OK;
}

/* On the worker's thread: take the new settings, local data, hints,
 * forward zones and trust anchors. */
static int worker_reload(struct worker *k, const struct cfg *nc, char *err,
                         size_t errlen)
{
	struct hints *h = NULL;

	k->cfg = *nc;
	if (server_localdata_load(k->srv, &k->cfg, err, errlen) != SERVER_OK)
		return WORKERS_EBIND;
	if (hints_select(k->cfg.root_hints, HINTS_DEBIAN_FILE, &h, NULL, 0,
	                 err, errlen) != HINTS_OK)
		return WORKERS_EHINTS;
	if (server_hints_set(k->srv, h) != SERVER_OK) {
		snprintf(err, errlen, "out of memory");
		return WORKERS_ENOMEM;
	}
	if (server_forward_set(k->srv, &k->cfg, err, errlen) != SERVER_OK)
		return WORKERS_ENOMEM;
	return worker_anchors(k, err, errlen);
}

/* On the worker's thread: answer the main thread's requests. */
static void worker_call_cb(uv_async_t *a)
{
	struct worker *k = a->data;
	const struct cfg *nc;
	uint64_t asked;
	int rc = WORKERS_OK;
	workers_fn *fn;
	void *arg;

	pthread_mutex_lock(&k->mu);
	nc = k->req_cfg;
	asked = k->asked;
	fn = k->req_fn;
	arg = k->req_arg;
	k->req_fn = NULL;
	pthread_mutex_unlock(&k->mu);
	if (nc != NULL)
		rc = worker_reload(k, nc, k->reload_err, sizeof k->reload_err);
	if (fn != NULL)
		fn(k->srv, &k->cfg, arg);
	pthread_mutex_lock(&k->mu);
	if (nc != NULL)
		k->reload_rc = rc;
	if (k->req_snap)
		k->snap = *server_stats(k->srv);
	k->req_cfg = NULL;
	k->req_snap = false;
	k->done = asked;
	pthread_cond_broadcast(&k->cv);
	pthread_mutex_unlock(&k->mu);
}

/* Main thread: post a request (nc: a reload; else a stats snapshot). */
static uint64_t worker_ask(struct worker *k, const struct cfg *nc)
{
	uint64_t want;

	pthread_mutex_lock(&k->mu);
	if (nc != NULL)
		k->req_cfg = nc;
	else
		k->req_snap = true;
	want = ++k->asked;
	pthread_mutex_unlock(&k->mu);
	uv_async_send(&k->call);
	return want;
}

/* Main thread: wait for request want (wait_s 0: as long as it takes).
 * Returns with k->mu held. */
static void worker_wait(struct worker *k, uint64_t want, time_t wait_s)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += wait_s;
	pthread_mutex_lock(&k->mu);
	while (k->done < want) {
		if (wait_s == 0)
			pthread_cond_wait(&k->cv, &k->mu);
		else if (pthread_cond_timedwait(&k->cv, &k->mu, &until) ==
		         ETIMEDOUT)
			break;
	}
}

/* Set up one worker on the calling thread: loop, server, sockets. */
static int worker_init(struct worker *k, const struct server_params *p0,
                       char *err, size_t errlen)
{
	struct server_params p = *p0;
	char herr[HINTS_ERR_BYTES];
	int rc;

	if (uv_loop_init(&k->loop) != 0) {
		snprintf(err, errlen, "worker: cannot create a loop");
		return WORKERS_ENOMEM;
	}
	k->loop_open = true;
	if (uv_async_init(&k->loop, &k->stop, worker_stop_cb) != 0) {
		snprintf(err, errlen, "worker: cannot create a wake-up");
		return WORKERS_ENOMEM;
	}
	k->stop.data = k;
	k->async_open = true;
	if (uv_async_init(&k->loop, &k->call, worker_call_cb) != 0) {
		snprintf(err, errlen, "worker: cannot create a wake-up");
		return WORKERS_ENOMEM;
	}
	k->call.data = k;
	k->call_open = true;
	if (pthread_mutex_init(&k->mu, NULL) != 0) {
		snprintf(err, errlen, "worker: cannot create a lock");
		return WORKERS_ENOMEM;
	}
	if (pthread_cond_init(&k->cv, NULL) != 0) {
		pthread_mutex_destroy(&k->mu);
		snprintf(err, errlen, "worker: cannot create a condition");
		return WORKERS_ENOMEM;
	}
	k->sync_open = true;
	k->cfg = *p0->cfg;
	p.cfg = &k->cfg;
	if (hints_select(p.cfg->root_hints, HINTS_DEBIAN_FILE, &p.hints, NULL,
	                 0, herr, sizeof herr) != HINTS_OK) {
		snprintf(err, errlen, "%s", herr);
		return WORKERS_EHINTS;
	}
	p.loop = &k->loop;
	if (server_new(&k->srv, &p) != SERVER_OK) {
		snprintf(err, errlen, "worker: out of memory");
		return WORKERS_ENOMEM;
	}
	if ((rc = worker_anchors(k, err, errlen)) != WORKERS_OK)
		return rc;
	if (server_localdata_load(k->srv, p.cfg, err, errlen) != SERVER_OK)
		return WORKERS_EBIND;
	if (server_listen(k->srv, err, errlen) != SERVER_OK)
		return WORKERS_EBIND;
	return WORKERS_OK;
}

/* Undo a worker whose thread is not running (or has ended). */
static void worker_fini(struct worker *k)
{
	if (k->srv != NULL)
		server_stop(k->srv);
	if (k->async_open && !uv_is_closing((uv_handle_t *)&k->stop))
		uv_close((uv_handle_t *)&k->stop, NULL);
	if (k->call_open && !uv_is_closing((uv_handle_t *)&k->call))
		uv_close((uv_handle_t *)&k->call, NULL);
	if (k->loop_open) {
		uv_run(&k->loop, UV_RUN_DEFAULT);
		(void)uv_loop_close(&k->loop);
	}
	server_free(k->srv);
	k->srv = NULL;
	if (k->sync_open) {
		pthread_cond_destroy(&k->cv);
		pthread_mutex_destroy(&k->mu);
	}
	k->loop_open = k->async_open = k->call_open = k->sync_open = false;
}

int workers_start(struct workers **out, unsigned n,
                  const struct server_params *p, char *err, size_t errlen)
{
	struct workers *ws;
	char name[WORKERS_NAME_BYTES];
	size_t i;
	int rc = WORKERS_OK;

	*out = NULL;
	if (n <= 1)
		return WORKERS_OK;
	if (n > WORKERS_MAX)
		n = WORKERS_MAX;
	ws = calloc(1, sizeof(*ws));
	if (ws == NULL)
		return WORKERS_ENOMEM;
	for (i = 0; i + 1 < n && rc == WORKERS_OK; i++) {
		ws->n++;
		rc = worker_init(&ws->w[i], p, err, errlen);
	}
	for (i = 0; i < ws->n && rc == WORKERS_OK; i++) {
		if (pthread_create(&ws->w[i].thread, NULL, worker_main,
		                   &ws->w[i]) != 0) {
			snprintf(err, errlen, "worker: cannot start a thread");
			rc = WORKERS_ETHREAD;
			break;
		}
		ws->w[i].running = true;
		snprintf(name, sizeof name, "cc-worker%u",
		         (unsigned)((i + 1) % WORKERS_MAX));
		(void)pthread_setname_np(ws->w[i].thread, name);
	}
	if (rc != WORKERS_OK) {
		workers_stop(ws);
		return rc;
	}
	*out = ws;
	return WORKERS_OK;
}

int workers_reload(struct workers *w, const struct cfg *nc, char *err,
                   size_t errlen)
{
	uint64_t want[WORKERS_MAX];
	size_t i;
	int rc = WORKERS_OK;

	if (w == NULL)
		return WORKERS_OK;
	for (i = 0; i < w->n; i++)
		want[i] = worker_ask(&w->w[i], nc);
	for (i = 0; i < w->n; i++) {
		struct worker *k = &w->w[i];

		worker_wait(k, want[i], 0);
		if (k->reload_rc != WORKERS_OK && rc == WORKERS_OK) {
			rc = k->reload_rc;
			snprintf(err, errlen, "worker %zu: %s", i + 1,
			         k->reload_err);
		}
		k->reload_rc = WORKERS_OK;
		pthread_mutex_unlock(&k->mu);
	}
	return rc;
}

size_t workers_stats(struct workers *w, struct stats *sum,
                     struct stats_thread *per, size_t cap)
{
	uint64_t want[WORKERS_MAX];
	size_t i;

	if (w == NULL)
		return 0;
	for (i = 0; i < w->n; i++)
		want[i] = worker_ask(&w->w[i], NULL);
	for (i = 0; i < w->n; i++) {
		struct worker *k = &w->w[i];

		worker_wait(k, want[i], WORKERS_SNAP_WAIT_S);
		stats_add(sum, &k->snap);
		if (i < cap)
			stats_thread_of(&k->snap, &per[i]);
		pthread_mutex_unlock(&k->mu);
	}
	return w->n < cap ? w->n : cap;
}

void workers_stop(struct workers *w)
{
	size_t i;

	if (w == NULL)
		return;
	for (i = 0; i < w->n; i++) {
		struct worker *k = &w->w[i];

		if (!k->running)
			continue;
		uv_async_send(&k->stop);
		pthread_join(k->thread, NULL);
		k->running = false;
		k->async_open = false; /* closed by worker_stop_cb */
		k->call_open = false;
	}
	for (i = 0; i < w->n; i++)
		worker_fini(&w->w[i]);
	free(w);
}

void workers_each(struct workers *w, workers_fn *fn, void *arg)
{
	struct worker *k;
	uint64_t want;
	size_t i;

	for (i = 0; w != NULL && i < w->n; i++) {
		k = &w->w[i];
		pthread_mutex_lock(&k->mu);
		k->req_fn = fn;
		k->req_arg = arg;
		want = ++k->asked;
		pthread_mutex_unlock(&k->mu);
		uv_async_send(&k->call);
		worker_wait(k, want, 0);
		pthread_mutex_unlock(&k->mu);
	}
}
