/*
 * tests/unit/check_udpio.c - Suite "udpio": the batched UDP socket of the
 * client listeners (resolver/udpio.h) on 127.0.0.1: a burst answered in
 * order and in full, answers queued inside a batch and sent at its end,
 * answers outside a batch sent at once, SO_REUSEPORT sockets sharing an
 * address (and plain ones refusing to).
 */
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include "udpio.h"

/** Datagrams in the burst: more than one receive batch. */
#define BURST (3 * UDPIO_BATCH + 7)
/** How long the client waits for each answer (ms). */
#define WAIT_MS 2000

static uv_loop_t loop;
static struct udpio srv;
static struct sockaddr_in addr;
static unsigned seen;
static unsigned queued_max;

/* Echo each datagram with its first byte + 1; note the send queue. */
static void echo(struct udpio *u, const uint8_t *pkt, size_t len,
                 const struct sockaddr *from, socklen_t fromlen)
{
	uint8_t out[64];

	ck_assert_uint_le(len, sizeof out);
	memcpy(out, pkt, len);
	out[0]++;
	seen++;
	udpio_send(u, out, len, from, fromlen);
	if (u->nout > queued_max)
		queued_max = u->nout;
}

static void setup(void)
{
	socklen_t alen = sizeof addr;

	ck_assert_int_eq(uv_loop_init(&loop), 0);
	memset(&srv, 0, sizeof srv);
	memset(&addr, 0, sizeof addr);
	addr.sin_family = AF_INET;
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(udpio_open(&srv, &loop, (struct sockaddr *)&addr,
	                            false, echo, NULL), 0);
	ck_assert_int_eq(uv_udp_getsockname(&srv.h, (struct sockaddr *)&addr,
	                                    (int *)&alen), 0);
	seen = 0;
	queued_max = 0;
}

static void teardown(void)
{
	udpio_close(&srv);
	uv_run(&loop, UV_RUN_DEFAULT);
	ck_assert_int_eq(uv_loop_close(&loop), 0);
}

static int client(void)
{
	int fd = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in me;

	ck_assert_int_ge(fd, 0);
	memset(&me, 0, sizeof me);
	me.sin_family = AF_INET;
	me.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&me, sizeof me), 0);
	return fd;
}

/* Run the loop until n datagrams were handled (bounded). */
static void serve(unsigned n)
{
	unsigned i;

	for (i = 0; i < 100 && seen < n; i++)
		uv_run(&loop, UV_RUN_NOWAIT);
	ck_assert_uint_eq(seen, n);
}

START_TEST(test_burst)
{
	int fd = client();
	uint8_t b[2];
	unsigned i;

	for (i = 0; i < BURST; i++) {
		b[0] = (uint8_t)i;
		b[1] = 0xa5;
		ck_assert_int_eq(sendto(fd, b, sizeof b, 0,
		                        (struct sockaddr *)&addr,
		                        sizeof addr), (ssize_t)sizeof b);
	}
	serve(BURST);
	/* inside a batch the answers were queued, then all were sent */
	ck_assert_uint_gt(queued_max, 1);
	ck_assert_uint_eq(srv.nout, 0);
	ck_assert_uint_eq(srv.own_errors, 0);
	for (i = 0; i < BURST; i++) {
		struct pollfd p = { .fd = fd, .events = POLLIN };

		ck_assert_int_eq(poll(&p, 1, WAIT_MS), 1);
		ck_assert_int_eq(recv(fd, b, sizeof b, 0), (ssize_t)sizeof b);
		ck_assert_uint_eq(b[0], (uint8_t)(i + 1));
		ck_assert_uint_eq(b[1], 0xa5);
	}
	close(fd);
}
END_TEST

START_TEST(test_send_outside_batch)
{
	int fd = client();
	struct sockaddr_in to;
	socklen_t tl = sizeof to;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t b[3] = { 1, 2, 3 };

	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&to, &tl), 0);
	udpio_send(&srv, b, sizeof b, (struct sockaddr *)&to, tl);
	ck_assert_uint_eq(srv.nout, 0);  /* not queued: sent at once */
	ck_assert_int_eq(poll(&p, 1, WAIT_MS), 1);
	memset(b, 0, sizeof b);
	ck_assert_int_eq(recv(fd, b, sizeof b, 0), 3);
	ck_assert_uint_eq(b[2], 3);
	close(fd);
}
END_TEST

START_TEST(test_reuseport)
{
	struct udpio a, b, c;

	memset(&a, 0, sizeof a);
	memset(&b, 0, sizeof b);
	memset(&c, 0, sizeof c);
	addr.sin_port = 0;
	ck_assert_int_eq(udpio_open(&a, &loop, (struct sockaddr *)&addr, true,
	                            echo, NULL), 0);
	{
		socklen_t alen = sizeof addr;

		ck_assert_int_eq(uv_udp_getsockname(&a.h,
		                 (struct sockaddr *)&addr, (int *)&alen), 0);
	}
	ck_assert_int_eq(udpio_open(&b, &loop, (struct sockaddr *)&addr, true,
	                            echo, NULL), 0);
	ck_assert_int_eq(udpio_open(&c, &loop, (struct sockaddr *)&addr,
	                            false, echo, NULL), UV_EADDRINUSE);
	udpio_close(&a);
	udpio_close(&b);
	udpio_close(&c);
}
END_TEST

static Suite *udpio_suite(void)
{
	Suite *s = suite_create("udpio");
	TCase *tc = tcase_create("batches");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_burst);
	tcase_add_test(tc, test_send_outside_batch);
	tcase_add_test(tc, test_reuseport);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(udpio_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? 0 : 1;
}
