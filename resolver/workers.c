/*
 * resolver/workers.c - the extra worker threads of "threads: N": one
 * loop, one server and one thread each (see workers.h).
 */
#include "workers.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg.h"
#include "hints.h"

/** A thread name (Linux: 15 characters and the NUL). */
#define WORKERS_NAME_BYTES 16

/** One extra worker. */
struct worker {
	uv_loop_t loop;
	uv_async_t stop;
	struct server *srv;
	pthread_t thread;
	bool loop_open;
	bool async_open;
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
}

/* Set up one worker on the calling thread: loop, server, sockets. */
static int worker_init(struct worker *k, const struct server_params *p0,
                       char *err, size_t errlen)
{
	struct server_params p = *p0;
	char herr[HINTS_ERR_BYTES];

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
	if (hints_load(p.cfg->root_hints, &p.hints, herr, sizeof herr) !=
	    HINTS_OK) {
		snprintf(err, errlen, "%s", herr);
		return WORKERS_EHINTS;
	}
	p.loop = &k->loop;
	if (server_new(&k->srv, &p) != SERVER_OK) {
		snprintf(err, errlen, "worker: out of memory");
		return WORKERS_ENOMEM;
	}
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
	if (k->loop_open) {
		uv_run(&k->loop, UV_RUN_DEFAULT);
		(void)uv_loop_close(&k->loop);
	}
	server_free(k->srv);
	k->srv = NULL;
	k->loop_open = k->async_open = false;
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

void workers_stats_add(const struct workers *w, struct stats *sum)
{
	size_t i;

	if (w == NULL)
		return;
	for (i = 0; i < w->n; i++)
		if (w->w[i].srv != NULL)
			stats_add(sum, server_stats(w->w[i].srv));
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
		k->async_open = false;  /* closed by worker_stop_cb */
	}
	for (i = 0; i < w->n; i++)
		worker_fini(&w->w[i]);
	free(w);
}
