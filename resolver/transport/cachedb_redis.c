/*
 * resolver/transport/cachedb_redis.c - one worker's Redis connection for the
 * shared cache tier (see cachedb_redis.h): hiredis's async context on the
 * worker's loop, the calls in flight in order with their deadlines, one
 * timer for those deadlines and the connect's, one for the reconnect.
 */
#include "cachedb_redis.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>
#include <hiredis/hiredis.h>
#include <hiredis/async.h>
#include <hiredis/adapters/libuv.h>

#include "base/log.h"

/** A call in flight (GET, or SET with no caller). */
struct cachedb_redis_call {
	struct cachedb_redis *r;
	cachedb_redis_get_fn *fn; /**< NULL: a SET */
	void *arg;
	uint64_t deadline; /**< uv_now ms */
	bool cancelled;
	struct cachedb_redis_call *prev, *next;
};

struct cachedb_redis {
	uv_loop_t *loop;
	redisAsyncContext *ac; /**< NULL: no connection */
	enum cachedb_redis_state state;
	char host[CACHEDB_REDIS_TEXT_BYTES];
	char path[CACHEDB_REDIS_TEXT_BYTES];
	char password[CACHEDB_REDIS_TEXT_BYTES];
	unsigned port;
	uint32_t timeout_ms;
	uint64_t connect_deadline;
	uint32_t backoff_ms;
	uv_timer_t tick;  /**< deadlines of calls and of the connect */
	uv_timer_t retry; /**< the next connect */
	int open_handles; /**< freed when both are closed */
	bool closing;
	struct cachedb_redis_call *head, *tail; /**< oldest first */
	struct cachedb_redis_counts counts;
};

static void redis_connect(struct cachedb_redis *r);

/* A change of state; going up or down from up is logged. */
static void state_set(struct cachedb_redis *r, enum cachedb_redis_state s,
                      const char *why)
{
	if (s == CACHEDB_REDIS_UP && r->state != CACHEDB_REDIS_UP)
		log_event(CFG_LOG_INFO, "cachedb_up", "server=%s%s%u",
		          r->path[0] != '\0' ? r->path : r->host,
		          r->path[0] != '\0' ? "" : ":",
		          r->path[0] != '\0' ? 0u : r->port);
	else if (s != CACHEDB_REDIS_UP && r->state == CACHEDB_REDIS_UP)
		log_event(CFG_LOG_INFO, "cachedb_down", "why=%s", why);
	r->state = s;
}

const char *cachedb_redis_state_name(enum cachedb_redis_state s)
{
	switch (s) {
	case CACHEDB_REDIS_UP: return "up";
	case CACHEDB_REDIS_CONNECTING: return "connecting";
	default: return "down";
	}
}

enum cachedb_redis_state cachedb_redis_state(const struct cachedb_redis *r)
{
	return r != NULL ? r->state : CACHEDB_REDIS_DOWN;
}

void cachedb_redis_counts(const struct cachedb_redis *r,
                          struct cachedb_redis_counts *out)
{
	if (r != NULL)
		*out = r->counts;
	else
		memset(out, 0, sizeof *out);
}

static void call_unlink(struct cachedb_redis *r, struct cachedb_redis_call *c)
{
	if (c->prev != NULL)
		c->prev->next = c->next;
	else
		r->head = c->next;
	if (c->next != NULL)
		c->next->prev = c->prev;
	else
		r->tail = c->prev;
	c->prev = c->next = NULL;
}

/* The tick timer at the earliest deadline (a call's or the connect's). */
static void tick_arm(struct cachedb_redis *r);

/* Give up the connection (a timeout, or a connect that took too long):
 * every call in flight ends as an error (hiredis calls each back with no
 * reply), then the next try after the back-off. */
static void redis_drop(struct cachedb_redis *r)
{
	redisAsyncContext *ac = r->ac;

	r->ac = NULL;
	state_set(r, CACHEDB_REDIS_DOWN, "timeout");
	r->counts.failures++;
	if (ac != NULL)
		redisAsyncFree(ac);
}

static void retry_cb(uv_timer_t *t)
{
	struct cachedb_redis *r = t->data;

	if (!r->closing && r->ac == NULL)
		redis_connect(r);
}

/* The next connect after the back-off (doubled each time, to its cap). */
static void retry_later(struct cachedb_redis *r)
{
	if (r->closing)
		return;
	uv_timer_start(&r->retry, retry_cb, r->backoff_ms, 0);
	r->backoff_ms = r->backoff_ms >= CACHEDB_REDIS_BACKOFF_MAX_MS / 2 ?
	                        CACHEDB_REDIS_BACKOFF_MAX_MS :
	                        r->backoff_ms * 2;
}

static void tick_cb(uv_timer_t *t)
{
	struct cachedb_redis *r = t->data;
	uint64_t now = uv_now(r->loop);

	if ((r->state == CACHEDB_REDIS_CONNECTING &&
	     now >= r->connect_deadline) ||
	    (r->head != NULL && now >= r->head->deadline)) {
		redis_drop(r);
		retry_later(r);
	}
	tick_arm(r);
}

static void tick_arm(struct cachedb_redis *r)
{
	uint64_t now = uv_now(r->loop), at = UINT64_MAX;

	if (r->closing)
		return;
	if (r->state == CACHEDB_REDIS_CONNECTING)
		at = r->connect_deadline;
	if (r->head != NULL && r->head->deadline < at)
		at = r->head->deadline;
	if (at == UINT64_MAX) {
		uv_timer_stop(&r->tick);
		return;
	}
	uv_timer_start(&r->tick, tick_cb, at > now ? at - now : 0, 0);
}

static void on_connect(const redisAsyncContext *ac, int status)
{
	struct cachedb_redis *r = ac->data;

	if (r == NULL || r->ac != ac)
		return;
	if (status != REDIS_OK) {
		/* hiredis frees the context after this callback */
		r->ac = NULL;
		state_set(r, CACHEDB_REDIS_DOWN, "connect");
		r->counts.failures++;
		retry_later(r);
	}
	/* up only when PING is answered (ping_cb): a server that accepts
	 * connections but does not answer (stopped, overloaded) stays down */
	tick_arm(r);
}

static void on_disconnect(const redisAsyncContext *ac, int status)
{
	struct cachedb_redis *r = ac->data;

	(void)status;
	if (r == NULL || r->ac != ac)
		return; /* our own redis_drop or free */
	r->ac = NULL;
	state_set(r, CACHEDB_REDIS_DOWN, "disconnected");
	r->counts.failures++;
	retry_later(r);
	tick_arm(r);
}

/* AUTH's reply: anything but OK ends the connection. */
static void auth_cb(redisAsyncContext *ac, void *reply, void *privdata)
{
	const redisReply *rep = reply;

	(void)privdata;
	if (rep != NULL && (rep->type != REDIS_REPLY_STATUS || rep->len != 2 ||
	                    memcmp(rep->str, "OK", 2) != 0))
		redisAsyncDisconnect(ac);
}

/* PING's reply: PONG within the connect's deadline makes it up. */
static void ping_cb(redisAsyncContext *ac, void *reply, void *privdata)
{
	struct cachedb_redis *r = privdata;
	const redisReply *rep = reply;

	if (rep == NULL || r->ac != ac)
		return;
	if (rep->type != REDIS_REPLY_STATUS || rep->len != 4 ||
	    memcmp(rep->str, "PONG", 4) != 0) {
		redisAsyncDisconnect(ac);
		return;
	}
	state_set(r, CACHEDB_REDIS_UP, "");
	r->backoff_ms = CACHEDB_REDIS_BACKOFF_MIN_MS;
	r->counts.connects++;
	tick_arm(r);
}

static void redis_connect(struct cachedb_redis *r)
{
	redisAsyncContext *ac =
		r->path[0] != '\0' ? redisAsyncConnectUnix(r->path) :
				     redisAsyncConnect(r->host, (int)r->port);

	if (ac == NULL || ac->err != 0 || redisLibuvAttach(ac, r->loop) != 0) {
		if (ac != NULL)
			redisAsyncFree(ac);
		r->counts.failures++;
		retry_later(r);
		return;
	}
	ac->data = r;
	r->ac = ac;
	r->state = CACHEDB_REDIS_CONNECTING;
	r->connect_deadline = uv_now(r->loop) + r->timeout_ms;
	redisAsyncSetConnectCallback(ac, on_connect);
	redisAsyncSetDisconnectCallback(ac, on_disconnect);
	if (r->password[0] != '\0')
		(void)redisAsyncCommand(ac, auth_cb, NULL, "AUTH %s",
		                        r->password);
	(void)redisAsyncCommand(ac, ping_cb, r, "PING");
	tick_arm(r);
}

static void copy_text(char *dst, const char *src)
{
	snprintf(dst, CACHEDB_REDIS_TEXT_BYTES, "%s", src != NULL ? src : "");
}

struct cachedb_redis *cachedb_redis_new(uv_loop_t *loop,
                                        const struct cachedb_redis_params *p)
{
	struct cachedb_redis *r = calloc(1, sizeof *r);

	if (r == NULL)
		return NULL;
	r->loop = loop;
	copy_text(r->host, p->host);
	copy_text(r->path, p->path);
	copy_text(r->password, p->password);
	r->port = p->port;
	r->timeout_ms = p->timeout_ms > 0 ? p->timeout_ms : 1;
	r->backoff_ms = CACHEDB_REDIS_BACKOFF_MIN_MS;
	uv_timer_init(loop, &r->tick);
	uv_timer_init(loop, &r->retry);
	r->tick.data = r->retry.data = r;
	r->open_handles = 2;
	redis_connect(r);
	return r;
}

static void closed_cb(uv_handle_t *h)
{
	struct cachedb_redis *r = h->data;

	if (--r->open_handles == 0) {
		sodium_memzero(r->password, sizeof r->password);
		free(r);
	}
}

void cachedb_redis_free(struct cachedb_redis *r)
{
	struct cachedb_redis_call *c;

	if (r == NULL)
		return;
	r->closing = true;
	for (c = r->head; c != NULL; c = c->next)
		c->cancelled = true;
	if (r->ac != NULL) {
		redisAsyncContext *ac = r->ac;

		r->ac = NULL;
		redisAsyncFree(ac);
	}
	r->state = CACHEDB_REDIS_DOWN;
	uv_timer_stop(&r->tick);
	uv_timer_stop(&r->retry);
	uv_close((uv_handle_t *)&r->tick, closed_cb);
	uv_close((uv_handle_t *)&r->retry, closed_cb);
}

/* A GET's reply to its caller: a bulk string within bounds is a hit,
 * nil a miss, anything else (no reply: timeout or connection lost) an
 * error. */
static void get_deliver(struct cachedb_redis_call *c, const redisReply *rep)
{
	if (rep == NULL)
		c->fn(c->arg, CACHEDB_REDIS_ERROR, NULL, 0);
	else if (rep->type == REDIS_REPLY_NIL)
		c->fn(c->arg, CACHEDB_REDIS_MISS, NULL, 0);
	else if (rep->type == REDIS_REPLY_STRING && rep->str != NULL &&
	         rep->len <= CACHEDB_REDIS_VALUE_MAX)
		c->fn(c->arg, CACHEDB_REDIS_HIT, (const uint8_t *)rep->str,
		      rep->len);
	else
		c->fn(c->arg, CACHEDB_REDIS_ERROR, NULL, 0);
}

static void reply_cb(redisAsyncContext *ac, void *reply, void *privdata)
{
	struct cachedb_redis_call *c = privdata;
	struct cachedb_redis *r = c->r;
	const redisReply *rep = reply;

	(void)ac;
	call_unlink(r, c);
	if (c->fn == NULL && (rep == NULL || rep->type != REDIS_REPLY_STATUS ||
	                      rep->len != 2 || memcmp(rep->str, "OK", 2) != 0))
		r->counts.set_errors++;
	else if (c->fn != NULL && !c->cancelled)
		get_deliver(c, rep);
	free(c);
	if (!r->closing)
		tick_arm(r);
}

/* A call in the list, sent with argv; NULL when not up or not sent. */
static struct cachedb_redis_call *
call_send(struct cachedb_redis *r, cachedb_redis_get_fn *fn, void *arg,
          int argc, const char **argv, const size_t *lens)
{
	struct cachedb_redis_call *c;

	if (r == NULL || r->state != CACHEDB_REDIS_UP || r->ac == NULL ||
	    (c = calloc(1, sizeof *c)) == NULL)
		return NULL;
	c->r = r;
	c->fn = fn;
	c->arg = arg;
	c->deadline = uv_now(r->loop) + r->timeout_ms;
	if (redisAsyncCommandArgv(r->ac, reply_cb, c, argc, argv, lens) !=
	    REDIS_OK) {
		free(c);
		return NULL;
	}
	c->prev = r->tail;
	if (r->tail != NULL)
		r->tail->next = c;
	else
		r->head = c;
	r->tail = c;
	if (!uv_is_active((uv_handle_t *)&r->tick))
		tick_arm(r);
	return c;
}

struct cachedb_redis_call *cachedb_redis_get(struct cachedb_redis *r,
                                             const char *key,
                                             cachedb_redis_get_fn *fn,
                                             void *arg)
{
	const char *argv[2] = { "GET", key };
	size_t lens[2] = { 3, strlen(key) };

	if (fn == NULL)
		return NULL;
	return call_send(r, fn, arg, 2, argv, lens);
}

void cachedb_redis_cancel(struct cachedb_redis_call *call)
{
	if (call != NULL)
		call->cancelled = true;
}

bool cachedb_redis_set(struct cachedb_redis *r, const char *key,
                       const uint8_t *val, size_t len, uint32_t ttl)
{
	char ex[16];
	const char *argv[5] = { "SET", key, (const char *)val, "EX", ex };
	size_t lens[5] = { 3, strlen(key), len, 2, 0 };

	lens[4] = (size_t)snprintf(ex, sizeof ex, "%u", (unsigned)ttl);
	return call_send(r, NULL, NULL, ttl > 0 ? 5 : 3, argv, lens) != NULL;
}
