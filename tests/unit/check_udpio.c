/*
 * tests/unit/check_udpio.c - Suite "udpio": the batched UDP socket of the
 * client listeners (resolver/front/udpio.h) on 127.0.0.1: a burst answered in
 * order and in full, answers queued inside a batch and sent at its end,
 * answers outside a batch sent at once, SO_REUSEPORT sockets sharing an
 * address (and plain ones refusing to); packet info: the control messages
 * written and read back, malformed ones refused, and a wildcard socket
 * answering from the address each query was sent to.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* struct in6_pktinfo */
#endif
#include <arpa/inet.h>
#include <check.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <uv.h>

#include "front/udpio.h"

/** Datagrams in the burst: more than one receive batch. */
#define BURST (3 * UDPIO_BATCH + 7)
/** How long the client waits for each answer (ms). */
#define WAIT_MS 2000

static uv_loop_t loop;
static struct udpio srv;
static struct sockaddr_in addr;
static unsigned seen;
static unsigned queued_max;
/** The local address of the last datagram (family 0: none given). */
static struct sockaddr_storage last_local;

/* Echo each datagram with its first byte + 1; note the send queue. */
static void echo(struct udpio *u, const uint8_t *pkt, size_t len,
                 const struct sockaddr *from, socklen_t fromlen,
                 const struct sockaddr *local)
{
	uint8_t out[64];

	ck_assert_uint_le(len, sizeof out);
	memcpy(out, pkt, len);
	out[0]++;
	seen++;
	memset(&last_local, 0, sizeof last_local);
	if (local != NULL)
		memcpy(&last_local, local, sizeof(struct sockaddr_in6));
	udpio_send(u, out, len, from, fromlen, local);
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
	ck_assert_int_eq(udpio_open(&srv, &loop, (struct sockaddr *)&addr, 0,
	                            echo, NULL),
	                 0);
	ck_assert_int_eq(getsockname(srv.fd, (struct sockaddr *)&addr, &alen),
	                 0);
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
		                        (struct sockaddr *)&addr, sizeof addr),
		                 (ssize_t)sizeof b);
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
	udpio_send(&srv, b, sizeof b, (struct sockaddr *)&to, tl, NULL);
	ck_assert_uint_eq(srv.nout, 0); /* not queued: sent at once */
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
	ck_assert_int_eq(udpio_open(&a, &loop, (struct sockaddr *)&addr,
	                            UDPIO_F_REUSEPORT, echo, NULL),
	                 0);
	{
		socklen_t alen = sizeof addr;

		ck_assert_int_eq(getsockname(a.fd, (struct sockaddr *)&addr,
		                             &alen),
		                 0);
	}
	ck_assert_int_eq(udpio_open(&b, &loop, (struct sockaddr *)&addr,
	                            UDPIO_F_REUSEPORT, echo, NULL),
	                 0);
	ck_assert_int_eq(udpio_open(&c, &loop, (struct sockaddr *)&addr, 0,
	                            echo, NULL),
	                 UV_EADDRINUSE);
	udpio_close(&a);
	udpio_close(&b);
	udpio_close(&c);
}
END_TEST

/* ---- packet info: pure functions ---- */

static void v4_addr(struct sockaddr_in *a, const char *text, uint16_t port)
{
	memset(a, 0, sizeof *a);
	a->sin_family = AF_INET;
	a->sin_port = htons(port);
	ck_assert_int_eq(inet_pton(AF_INET, text, &a->sin_addr), 1);
}

START_TEST(test_pktinfo_roundtrip)
{
	union udpio_ctl ctl;
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
	struct sockaddr_storage out;
	size_t n;

	v4_addr(&v4, "127.0.55.7", 99);
	n = udpio_pktinfo_write(ctl.buf, sizeof ctl.buf,
	                        (struct sockaddr *)&v4);
	ck_assert_uint_eq(n, CMSG_SPACE(sizeof(struct in_pktinfo)));
	ck_assert(udpio_pktinfo_read(ctl.buf, n, htons(53), &out));
	ck_assert_int_eq(out.ss_family, AF_INET);
	ck_assert_uint_eq(((struct sockaddr_in *)&out)->sin_port, htons(53));
	ck_assert_mem_eq(&((struct sockaddr_in *)&out)->sin_addr, &v4.sin_addr,
	                 sizeof v4.sin_addr);

	memset(&v6, 0, sizeof v6);
	v6.sin6_family = AF_INET6;
	ck_assert_int_eq(inet_pton(AF_INET6, "fd00:55::7", &v6.sin6_addr), 1);
	n = udpio_pktinfo_write(ctl.buf, sizeof ctl.buf,
	                        (struct sockaddr *)&v6);
	ck_assert_uint_eq(n, CMSG_SPACE(sizeof(struct in6_pktinfo)));
	ck_assert_uint_le(n, UDPIO_CTL_BYTES);
	ck_assert(udpio_pktinfo_read(ctl.buf, n, htons(53), &out));
	ck_assert_int_eq(out.ss_family, AF_INET6);
	ck_assert_mem_eq(&((struct sockaddr_in6 *)&out)->sin6_addr,
	                 &v6.sin6_addr, sizeof v6.sin6_addr);
	/* the interface index is left to the routing table */
	ck_assert_uint_eq(((struct sockaddr_in6 *)&out)->sin6_scope_id, 0);
	/* ... except for a link-local address, which keeps it */
	v6.sin6_scope_id = 3;
	ck_assert_int_eq(inet_pton(AF_INET6, "fe80::7", &v6.sin6_addr), 1);
	n = udpio_pktinfo_write(ctl.buf, sizeof ctl.buf,
	                        (struct sockaddr *)&v6);
	ck_assert(udpio_pktinfo_read(ctl.buf, n, htons(53), &out));
	ck_assert_uint_eq(((struct sockaddr_in6 *)&out)->sin6_scope_id, 3);
}
END_TEST

START_TEST(test_pktinfo_write_reject)
{
	union udpio_ctl ctl;
	struct sockaddr_in v4;
	struct sockaddr un;

	v4_addr(&v4, "127.0.0.1", 0);
	ck_assert_uint_eq(
		udpio_pktinfo_write(ctl.buf,
	                            CMSG_SPACE(sizeof(struct in_pktinfo)) - 1,
	                            (struct sockaddr *)&v4),
		0);
	memset(&un, 0, sizeof un);
	un.sa_family = AF_UNIX;
	ck_assert_uint_eq(udpio_pktinfo_write(ctl.buf, sizeof ctl.buf, &un),
	                  0);
}
END_TEST

/* Another control message first (skipped), then the packet info. */
START_TEST(test_pktinfo_read_skips_other)
{
	union {
		struct cmsghdr align;
		uint8_t buf[2 * UDPIO_CTL_BYTES];
	} ctl;
	struct cmsghdr h;
	struct sockaddr_in v4;
	struct sockaddr_storage out;
	size_t first = CMSG_SPACE(sizeof(int)), n;
	int fd = 7;

	memset(&ctl, 0, sizeof ctl);
	memset(&h, 0, sizeof h);
	h.cmsg_len = CMSG_LEN(sizeof fd);
	h.cmsg_level = SOL_SOCKET;
	h.cmsg_type = SCM_RIGHTS;
	memcpy(ctl.buf, &h, sizeof h);
	memcpy(ctl.buf + CMSG_LEN(0), &fd, sizeof fd);
	v4_addr(&v4, "127.0.55.8", 0);
	n = udpio_pktinfo_write(ctl.buf + first, sizeof ctl.buf - first,
	                        (struct sockaddr *)&v4);
	ck_assert_uint_gt(n, 0);
	ck_assert(udpio_pktinfo_read(ctl.buf, first + n, 0, &out));
	ck_assert_mem_eq(&((struct sockaddr_in *)&out)->sin_addr, &v4.sin_addr,
	                 sizeof v4.sin_addr);
	/* the second message cut short: not found */
	ck_assert(!udpio_pktinfo_read(
		ctl.buf, first + CMSG_LEN(sizeof(struct in_pktinfo)) - 1, 0,
		&out));
	ck_assert(!udpio_pktinfo_read(ctl.buf, first, 0, &out));
}
END_TEST

START_TEST(test_pktinfo_read_reject)
{
	union udpio_ctl ctl;
	struct cmsghdr h;
	struct sockaddr_in v4;
	struct sockaddr_storage out;
	size_t n;

	ck_assert(!udpio_pktinfo_read(NULL, 0, 0, &out));
	v4_addr(&v4, "127.0.55.7", 0);
	n = udpio_pktinfo_write(ctl.buf, sizeof ctl.buf,
	                        (struct sockaddr *)&v4);
	/* shorter than a header, shorter than its own length */
	ck_assert(!udpio_pktinfo_read(ctl.buf, CMSG_LEN(0) - 1, 0, &out));
	ck_assert(!udpio_pktinfo_read(ctl.buf,
	                              CMSG_LEN(sizeof(struct in_pktinfo)) - 1,
	                              0, &out));
	/* a length below the header's size */
	memcpy(&h, ctl.buf, sizeof h);
	h.cmsg_len = CMSG_LEN(0) - 1;
	memcpy(ctl.buf, &h, sizeof h);
	ck_assert(!udpio_pktinfo_read(ctl.buf, n, 0, &out));
	/* packet info too short for its type */
	h.cmsg_len = CMSG_LEN(sizeof(struct in_pktinfo) - 1);
	memcpy(ctl.buf, &h, sizeof h);
	ck_assert(!udpio_pktinfo_read(ctl.buf, n, 0, &out));
	/* IPv6 packet info of IPv4 size */
	h.cmsg_len = CMSG_LEN(sizeof(struct in_pktinfo));
	h.cmsg_level = IPPROTO_IPV6;
	h.cmsg_type = IPV6_PKTINFO;
	memcpy(ctl.buf, &h, sizeof h);
	ck_assert(!udpio_pktinfo_read(ctl.buf, n, 0, &out));
}
END_TEST

START_TEST(test_is_wildcard)
{
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;

	v4_addr(&v4, "0.0.0.0", 53);
	ck_assert(udpio_is_wildcard((struct sockaddr *)&v4));
	v4_addr(&v4, "127.0.0.1", 53);
	ck_assert(!udpio_is_wildcard((struct sockaddr *)&v4));
	memset(&v6, 0, sizeof v6);
	v6.sin6_family = AF_INET6;
	ck_assert(udpio_is_wildcard((struct sockaddr *)&v6));
	v6.sin6_addr.s6_addr[15] = 1;
	ck_assert(!udpio_is_wildcard((struct sockaddr *)&v6));
}
END_TEST

/* ---- packet info on sockets ---- */

/* Send one datagram from fd and run the loop until it was handled. */
static void send_serve(int fd, const uint8_t *b, size_t len,
                       const struct sockaddr *to, socklen_t tl)
{
	seen = 0;
	ck_assert_int_eq(sendto(fd, b, len, 0, to, tl), (ssize_t)len);
	serve(1);
}

/* Ask dst:port from a client bound to 127.0.0.1; return the answer's
 * source address (its first byte checked). */
static struct sockaddr_in ask_from(struct udpio *u, const char *dst,
                                   uint16_t port)
{
	int fd = client();
	struct sockaddr_in to, src;
	socklen_t sl = sizeof src;
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t b[2] = { 41, 0 };

	v4_addr(&to, dst, 0);
	to.sin_port = port;
	send_serve(fd, b, sizeof b, (struct sockaddr *)&to, sizeof to);
	ck_assert_int_eq(poll(&p, 1, WAIT_MS), 1);
	ck_assert_int_eq(recvfrom(fd, b, sizeof b, 0, (struct sockaddr *)&src,
	                          &sl),
	                 (ssize_t)sizeof b);
	ck_assert_uint_eq(b[0], 42);
	ck_assert_uint_eq(u->own_errors, 0);
	close(fd);
	return src;
}

/* A wildcard socket answers from the address each query was sent to. */
START_TEST(test_wildcard_answers_from_destination)
{
	struct udpio w;
	struct sockaddr_in any, src;
	socklen_t alen = sizeof any;
	const char *dsts[] = { "127.0.55.7", "127.0.55.8", "127.0.0.1" };
	size_t i;

	memset(&w, 0, sizeof w);
	v4_addr(&any, "0.0.0.0", 0);
	ck_assert_int_eq(udpio_open(&w, &loop, (struct sockaddr *)&any, 0,
	                            echo, NULL),
	                 0);
	ck_assert(w.wildcard);
	ck_assert_int_eq(getsockname(w.fd, (struct sockaddr *)&any, &alen), 0);
	for (i = 0; i < sizeof dsts / sizeof dsts[0]; i++) {
		src = ask_from(&w, dsts[i], any.sin_port);
		ck_assert_int_eq(last_local.ss_family, AF_INET);
		ck_assert_uint_eq(((struct sockaddr_in *)&last_local)
		                          ->sin_port,
		                  any.sin_port);
		ck_assert_str_eq(inet_ntoa(src.sin_addr), dsts[i]);
		ck_assert_uint_eq(src.sin_port, any.sin_port);
	}
	udpio_close(&w);
}
END_TEST

/* An answer sent later (outside a batch) with the saved local address. */
START_TEST(test_wildcard_send_outside_batch)
{
	struct udpio w;
	struct sockaddr_in any, to, src, me;
	socklen_t alen = sizeof any, sl = sizeof src, ml = sizeof me;
	int fd = client();
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t b[1] = { 5 };

	memset(&w, 0, sizeof w);
	v4_addr(&any, "0.0.0.0", 0);
	ck_assert_int_eq(udpio_open(&w, &loop, (struct sockaddr *)&any, 0,
	                            echo, NULL),
	                 0);
	ck_assert_int_eq(getsockname(w.fd, (struct sockaddr *)&any, &alen), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&me, &ml), 0);
	v4_addr(&to, "127.0.55.9", 0);
	udpio_send(&w, b, sizeof b, (struct sockaddr *)&me, ml,
	           (struct sockaddr *)&to);
	ck_assert_uint_eq(w.nout, 0);
	ck_assert_int_eq(poll(&p, 1, WAIT_MS), 1);
	ck_assert_int_eq(recvfrom(fd, b, sizeof b, 0, (struct sockaddr *)&src,
	                          &sl),
	                 1);
	ck_assert_str_eq(inet_ntoa(src.sin_addr), "127.0.55.9");
	close(fd);
	udpio_close(&w);
}
END_TEST

/* A socket bound to one address gets no local address (no cmsg work). */
START_TEST(test_specific_no_local)
{
	struct sockaddr_in src;

	ck_assert(!srv.wildcard);
	src = ask_from(&srv, "127.0.0.1", addr.sin_port);
	ck_assert_int_eq(last_local.ss_family, 0);
	ck_assert_str_eq(inet_ntoa(src.sin_addr), "127.0.0.1");
}
END_TEST

/* IPv6 wildcard: the local address ::1 reaches the receiver. */
START_TEST(test_wildcard_v6)
{
	struct udpio w;
	struct sockaddr_in6 any, to;
	socklen_t alen = sizeof any;
	int fd = socket(AF_INET6, SOCK_DGRAM, 0);
	struct pollfd p = { .fd = fd, .events = POLLIN };
	uint8_t b[2] = { 1, 0 };

	memset(&w, 0, sizeof w);
	memset(&any, 0, sizeof any);
	any.sin6_family = AF_INET6;
	if (udpio_open(&w, &loop, (struct sockaddr *)&any, 0, echo, NULL) !=
	    0) {
		close(fd);
		return; /* no IPv6 here */
	}
	ck_assert_int_eq(getsockname(w.fd, (struct sockaddr *)&any, &alen), 0);
	to = any;
	to.sin6_addr = in6addr_loopback;
	send_serve(fd, b, sizeof b, (struct sockaddr *)&to, sizeof to);
	ck_assert_int_eq(last_local.ss_family, AF_INET6);
	ck_assert(IN6_IS_ADDR_LOOPBACK(&((struct sockaddr_in6 *)&last_local)
	                                        ->sin6_addr));
	ck_assert_int_eq(poll(&p, 1, WAIT_MS), 1);
	ck_assert_int_eq(recv(fd, b, sizeof b, 0), (ssize_t)sizeof b);
	ck_assert_uint_eq(b[0], 2);
	close(fd);
	udpio_close(&w);
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
	tc = tcase_create("pktinfo");
	tcase_add_test(tc, test_pktinfo_roundtrip);
	tcase_add_test(tc, test_pktinfo_write_reject);
	tcase_add_test(tc, test_pktinfo_read_skips_other);
	tcase_add_test(tc, test_pktinfo_read_reject);
	tcase_add_test(tc, test_is_wildcard);
	suite_add_tcase(s, tc);
	tc = tcase_create("wildcard");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_wildcard_answers_from_destination);
	tcase_add_test(tc, test_wildcard_send_outside_batch);
	tcase_add_test(tc, test_specific_no_local);
	tcase_add_test(tc, test_wildcard_v6);
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
