/*
 * tests/unit/check_cachedb_redis.c - Suite "cachedb_redis": the Redis
 * connection of the cache tier (resolver/transport/cachedb_redis.c)
 * against a scripted server on a unix socket in the same loop: it is up
 * only after PONG; a bulk string is a hit, nil a miss, and every other
 * reply (integer, array, error, a bulk over the bound) an error; a GET
 * not answered ends as an error after redis-timeout, the connection goes
 * down and the next GET is not even sent.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "transport/cachedb_redis.h"

/** The replies the server gives, in order, to each command after PING;
 *  NULL: none (the server stays silent). */
static const char *script[8];
static size_t nscript, next_reply;
static uv_loop_t loop;
/** Connections accepted (a reconnect is another). */
#define PEERS_MAX 8
static uv_pipe_t listener, peers[PEERS_MAX];
static size_t npeers;
static char path[108];

/* What the tests saw. */
static int results[8];
static size_t lens[8], nresults;

static void alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *b)
{
	static char buf[65536];

	(void)h;
	(void)hint;
	*b = uv_buf_init(buf, sizeof buf);
}

static void write_cb(uv_write_t *w, int status)
{
	(void)status;
	free(w);
}

static void say(uv_stream_t *peer, const char *text)
{
	uv_write_t *w = malloc(sizeof *w);
	uv_buf_t b = uv_buf_init((char *)text, strlen(text));

	ck_assert_ptr_nonnull(w);
	uv_write(w, peer, &b, 1, write_cb);
}

/* Each command is a RESP array: count its "*" starts in the chunk. */
static void read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	ssize_t i;

	if (n < 0) {
		uv_close((uv_handle_t *)s, NULL);
		return;
	}
	for (i = 0; i < n; i++) {
		if (b->base[i] != '*' || (i > 0 && b->base[i - 1] != '\n'))
			continue;
		if (i + 12 <= n &&
		    memcmp(b->base + i, "*1\r\n$4\r\nPING", 12) == 0)
			say(s, "+PONG\r\n");
		else if (next_reply < nscript && script[next_reply] != NULL)
			say(s, script[next_reply++]);
		else
			next_reply++;
	}
}

static void accept_cb(uv_stream_t *l, int status)
{
	uv_stream_t *p = (uv_stream_t *)&peers[npeers];

	ck_assert_int_eq(status, 0);
	ck_assert_uint_lt(npeers, PEERS_MAX);
	npeers++;
	uv_pipe_init(&loop, (uv_pipe_t *)p, 0);
	ck_assert_int_eq(uv_accept(l, p), 0);
	uv_read_start(p, alloc_cb, read_cb);
}

static void get_cb(void *arg, enum cachedb_redis_result res,
                   const uint8_t *val, size_t len)
{
	(void)arg;
	(void)val;
	results[nresults] = res;
	lens[nresults++] = len;
}

static void guard_cb(uv_timer_t *t)
{
	(void)t;
}

/* Run the loop until f holds or 2 s pass (a timer wakes it up). */
static void run_until(bool (*f)(struct cachedb_redis *),
                      struct cachedb_redis *r)
{
	uint64_t end = uv_now(&loop) + 2000;
	uv_timer_t guard;

	uv_timer_init(&loop, &guard);
	uv_timer_start(&guard, guard_cb, 10, 10);
	while (!f(r) && uv_now(&loop) < end) {
		uv_run(&loop, UV_RUN_ONCE);
		uv_update_time(&loop);
	}
	uv_close((uv_handle_t *)&guard, NULL);
	uv_run(&loop, UV_RUN_NOWAIT);
}

static bool is_up(struct cachedb_redis *r)
{
	return cachedb_redis_state(r) == CACHEDB_REDIS_UP;
}

static bool never(struct cachedb_redis *r)
{
	(void)r;
	return false;
}

static size_t want;
static bool have_all(struct cachedb_redis *r)
{
	(void)r;
	return nresults >= want;
}

static struct cachedb_redis *start(void)
{
	struct cachedb_redis_params p = { "", 0, path, "", 50 };
	struct cachedb_redis *r;

	snprintf(path, sizeof path, "/tmp/check_cdb_redis.%ld",
	         (long)getpid());
	unlink(path);
	ck_assert_int_eq(uv_loop_init(&loop), 0);
	uv_pipe_init(&loop, &listener, 0);
	ck_assert_int_eq(uv_pipe_bind(&listener, path), 0);
	ck_assert_int_eq(uv_listen((uv_stream_t *)&listener, 4, accept_cb), 0);
	nresults = next_reply = npeers = 0;
	r = cachedb_redis_new(&loop, &p);
	ck_assert_ptr_nonnull(r);
	ck_assert(!is_up(r));
	run_until(is_up, r);
	ck_assert(is_up(r));
	return r;
}

static void stop(struct cachedb_redis *r)
{
	size_t i;

	cachedb_redis_free(r);
	for (i = 0; i < npeers; i++)
		if (!uv_is_closing((uv_handle_t *)&peers[i]))
			uv_close((uv_handle_t *)&peers[i], NULL);
	uv_close((uv_handle_t *)&listener, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	ck_assert_int_eq(uv_loop_close(&loop), 0);
	unlink(path);
}

START_TEST(test_replies)
{
	static char big[CACHEDB_REDIS_VALUE_MAX + 64];
	struct cachedb_redis *r;
	size_t i;

	/* a bulk one byte over the bound, whole */
	i = (size_t)snprintf(big, sizeof big, "$%u\r\n",
	                     CACHEDB_REDIS_VALUE_MAX + 1);
	memset(big + i, 'x', CACHEDB_REDIS_VALUE_MAX + 1);
	memcpy(big + i + CACHEDB_REDIS_VALUE_MAX + 1, "\r\n", 3);
	script[0] = "$5\r\nhello\r\n";
	script[1] = "$-1\r\n";
	script[2] = ":42\r\n";
	script[3] = "*1\r\n$1\r\nx\r\n";
	script[4] = "-ERR no\r\n";
	script[5] = big;
	nscript = 6;
	r = start();
	for (i = 0; i < nscript; i++)
		ck_assert_ptr_nonnull(cachedb_redis_get(r, "k", get_cb, NULL));
	want = nscript;
	run_until(have_all, r);
	ck_assert_uint_eq(nresults, 6);
	ck_assert_int_eq(results[0], CACHEDB_REDIS_HIT);
	ck_assert_uint_eq(lens[0], 5);
	ck_assert_int_eq(results[1], CACHEDB_REDIS_MISS);
	for (i = 2; i < 6; i++)
		ck_assert_int_eq(results[i], CACHEDB_REDIS_ERROR);
	ck_assert(is_up(r));
	stop(r);
}
END_TEST

START_TEST(test_timeout_then_down)
{
	struct cachedb_redis_call *call;
	struct cachedb_redis *r;
	uint64_t t0;

	script[0] = NULL; /* silent */
	nscript = 1;
	r = start();
	t0 = uv_now(&loop);
	ck_assert_ptr_nonnull(cachedb_redis_get(r, "k", get_cb, NULL));
	want = 1;
	run_until(have_all, r);
	ck_assert_uint_eq(nresults, 1);
	ck_assert_int_eq(results[0], CACHEDB_REDIS_ERROR);
	ck_assert_uint_ge(uv_now(&loop) - t0, 45);
	ck_assert(!is_up(r));
	/* down: nothing is asked */
	ck_assert_ptr_null(cachedb_redis_get(r, "k", get_cb, NULL));
	ck_assert(!cachedb_redis_set(r, "k", (const uint8_t *)"v", 1, 5));
	/* a cancelled call is never reported */
	run_until(is_up, r);
	if (is_up(r)) {
		script[1] = "$1\r\nv\r\n";
		nscript = 2;
		next_reply = 1;
		call = cachedb_redis_get(r, "k", get_cb, NULL);
		ck_assert_ptr_nonnull(call);
		cachedb_redis_cancel(call);
		want = 2;
		run_until(never, r); /* 2 s of the loop: the reply comes */
		ck_assert_uint_eq(nresults, 1);
		ck_assert_uint_eq(next_reply, 2);
	}
	stop(r);
}
END_TEST

static Suite *redis_suite(void)
{
	Suite *s = suite_create("cachedb_redis");
	TCase *tc = tcase_create("replies");

	tcase_set_timeout(tc, 20);
	tcase_add_test(tc, test_replies);
	tcase_add_test(tc, test_timeout_then_down);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(redis_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
