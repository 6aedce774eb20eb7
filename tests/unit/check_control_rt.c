/*
 * tests/unit/check_control_rt.c - the control commands that reach every
 * worker (resolver/ctl/control_rt.c): forward_add and forward_remove change
 * the running forward lines and forwarders; dump_requestlist lists a
 * resolution in flight (a forward-zone question to a loopback socket
 * that reads and never answers); flush_requestlist ends it, its client
 * gets SERVFAIL, and a late reply to the abandoned upstream query is
 * dropped safely. Part of Suite "control" (check_control.c).
 */
#include "control_test.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "conf/cfg.h"
#include "front/server.h"
#include "anchor/anchor.h"

/** Two "workers": the test's server, visited twice as main.c visits
 *  worker 0 and one thread (dump_requestlist shows two sections). */
static unsigned each_calls;

static void fake_each(void *arg, control_worker_fn *fn, void *fnarg)
{
	(void)arg;
	each_calls++;
	fn(srv, &cfg, fnarg);
	fn(srv, &cfg, fnarg); /* every command is the same twice */
}

/* Talk through an engine whose env has each (the fixture's has none). */
static struct conv talk_rt(const char *in)
{
	struct control_cmd *saved = cmd, *rt = ct_cmd_each(fake_each);
	struct conv c;

	cmd = rt;
	c = talk(in);
	cmd = saved;
	control_cmd_free(rt);
	return c;
}

/* The whole answer to in, through talk_rt, is want. */
static void talk_rt_is(const char *in, const char *want)
{
	struct conv c = talk_rt(in);

	ck_assert_str_eq(c.text, want);
	free(c.text);
}

START_TEST(rt_forward_add_remove)
{
	struct conv c;

	talk_rt_is("UBCT1 forward_add +i Corp.Example. 192.0.2.1 "
	           "192.0.2.2@5353\n",
	           "ok\n");
	ck_assert_uint_eq(cfg.n_forward, 1);
	talk_rt_is("UBCT1 list_forwards\n",
	           "corp.example. IN forward 192.0.2.1 "
	           "192.0.2.2@5353\n");
	/* the same zone again: replaced, not added */
	talk_rt_is("forward_add corp.example 192.0.2.3\n", "ok\n");
	ck_assert_uint_eq(cfg.n_forward, 1);
	ck_assert_uint_eq(cfg.forward[0].naddr, 1);
	talk_rt_is("UBCT1 forward_add tls.example. 127.0.0.1@853#tls.ex\n",
	           "ok\n");
	c = talk_rt("UBCT1 forward_add tls.example. 127.0.0.1@853#a..b\n");
	ck_assert(strncmp(c.text, "error ", 6) == 0);
	free(c.text);
	c = talk_rt("forward_remove tls.example.\n");
	free(c.text);
	/* +t (Unbound's): every server with #AUTH-NAME, flags combine */
	c = talk_rt("forward_add +it tls.example. 127.0.0.1@853#tls.ex\n"
	            "forward_add +x tls.example. 127.0.0.1@853#tls.ex\n"
	            "forward_add + tls.example. 127.0.0.1@853#tls.ex\n");
	ck_assert(strncmp(c.text, "ok\nerror: unknown flag", 22) == 0);
	ck_assert_int_eq(count_of(c.text, "error: "), 2);
	free(c.text);
	ck_assert(cfg.forward[1].tls_upstream);
	c = talk_rt("forward_remove +i tls.example.\n");
	free(c.text);
	c = talk_rt("forward_add +t a.example. 192.0.2.1\n"
	            "forward_add a.example. nonsense\n"
	            "forward_add a.example.\nforward_remove\n");
	ck_assert_int_eq(count_of(c.text, "error: "), 4);
	free(c.text);
	ck_assert_uint_eq(cfg.n_forward, 1);
	talk_rt_is("forward_remove +i corp.example.\n"
	           "forward_remove not.there.\n",
	           "ok\nok\n");
	ck_assert_uint_eq(cfg.n_forward, 0);
	/* without env.each (no way to reach the workers): refused */
	c = talk("forward_add b.example. 192.0.2.1\n");
	HAS(c, "error: ");
	free(c.text);
	ck_assert_uint_eq(cfg.n_forward, 0);
}
END_TEST

/** Ports tried for the worker's listener. */
#define RT_LISTEN_TRIES 8

/* A UDP socket on 127.0.0.1, port chosen by the kernel. */
static int udp_socket(uint16_t *port)
{
	struct sockaddr_in a;
	socklen_t len = sizeof a;
	int fd = socket(AF_INET, SOCK_DGRAM, 0);

	ck_assert_int_ge(fd, 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
	ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &len), 0);
	*port = ntohs(a.sin_port);
	return fd;
}

/* Run the loop until fd is readable (or about 2 s passed). */
static bool run_until_readable(int fd)
{
	struct pollfd p = { fd, POLLIN, 0 };
	int i;

	for (i = 0; i < 200; i++) {
		uv_run(&loop, UV_RUN_NOWAIT);
		if (poll(&p, 1, 10) == 1)
			return true;
	}
	return false;
}

/* A query for www.fwd.example. A, id 0x1234, RD. */
static size_t query_msg(uint8_t *q)
{
	static const uint8_t head[] = { 0x12, 0x34, 0x01, 0x00, 0, 1,
		                        0,    0,    0,    0,    0, 0 };
	static const uint8_t name[] = "\3www\3fwd\7example";
	size_t n = sizeof head;

	memcpy(q, head, sizeof head);
	memcpy(q + n, name, sizeof name); /* with the root's 0 */
	n += sizeof name;
	q[n++] = 0;
	q[n++] = 1;
	q[n++] = 0;
	q[n++] = 1;
	return n;
}

START_TEST(rt_requestlist_dump_flush)
{
	static const char head[] = "thread #0\n#   type cl name    seconds"
				   "    module status\n  0    A IN "
				   "www.fwd.example. 0.";
	uint8_t q[512], fq[512], buf[512];
	char line[128], err[256];
	uint16_t fport, sport, cport;
	int fwd = udp_socket(&fport), lfd = udp_socket(&sport), cli, i;
	struct sockaddr_in to, from;
	socklen_t flen = sizeof from;
	ssize_t fqn;
	size_t qn = query_msg(q);
	struct conv c;

	cfg.n_listen = 1;
	/* The worker listens on a port the kernel gave a UDP socket; its
	 * TCP twin may be taken by another program's connection: try a few. */
	for (i = 0; i < RT_LISTEN_TRIES; i++) {
		close(lfd);
		snprintf(line, sizeof line, "127.0.0.1@%u", (unsigned)sport);
		ck_assert_int_eq(cfg_addr_parse(line, 53, &cfg.listen[0]), 0);
		if (server_listen(srv, err, sizeof err) == SERVER_OK)
			break;
		lfd = udp_socket(&sport);
	}
	ck_assert_msg(i < RT_LISTEN_TRIES, "server_listen: %s", err);
	snprintf(line, sizeof line, "forward_add fwd.example. 127.0.0.1@%u\n",
	         (unsigned)fport);
	talk_rt_is(line, "ok\n");

	cli = udp_socket(&cport);
	memset(&to, 0, sizeof to);
	to.sin_family = AF_INET;
	to.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	to.sin_port = htons(sport);
	ck_assert_int_eq(sendto(cli, q, qn, 0, (struct sockaddr *)&to,
	                        sizeof to),
	                 (ssize_t)qn);
	/* the forwarder gets the question and keeps it unanswered */
	ck_assert(run_until_readable(fwd));
	fqn = recvfrom(fwd, fq, sizeof fq, 0, (struct sockaddr *)&from, &flen);
	ck_assert_int_gt(fqn, 12);
	ck_assert_uint_eq(server_resolutions(srv), 1);

	c = talk_rt("UBCT1 dump_requestlist\n");
	ck_assert_msg(strncmp(c.text, head, strlen(head)) == 0, "%s", c.text);
	HAS(c, " forward wait 1 client\nthread #1\n");
	free(c.text);
	each_calls = 0;
	talk_rt_is("UBCT1 flush_requestlist\n", "ok\n");
	ck_assert_uint_eq(each_calls, 1);
	ck_assert_uint_eq(server_resolutions(srv), 0);
	/* the client: SERVFAIL for its query */
	ck_assert(run_until_readable(cli));
	ck_assert_int_ge(recv(cli, buf, sizeof buf, 0), 12);
	ck_assert_uint_eq(buf[0], 0x12);
	ck_assert_uint_eq(buf[3] & 0x0f, 2);
	/* a late answer to the abandoned question: dropped, no harm (the
	 * sanitizer build would see a use after free) */
	fq[2] |= 0x80;
	ck_assert_int_eq(sendto(fwd, fq, (size_t)fqn, 0,
	                        (struct sockaddr *)&from, flen),
	                 fqn);
	for (i = 0; i < 20; i++) {
		uv_run(&loop, UV_RUN_NOWAIT);
		usleep(5000);
	}
	c = talk_rt("dump_requestlist\n");
	ck_assert_int_eq(count_of(c.text, "www.fwd.example."), 0);
	ck_assert_int_eq(count_of(c.text, "thread #"), 2);
	free(c.text);
	close(cli);
	close(fwd);
}
END_TEST

/* Negative trust anchors at run time: refused while the worker does not
 * validate; with anchors, insecure_add makes a zone insecure on every
 * worker (and flushes what was cached under it), list_insecure shows it,
 * insecure_remove takes it back; forward_add +i and forward_remove +i
 * do it with the forward zone. */
START_TEST(rt_insecure)
{
	struct anchors *a = NULL;
	uint8_t n[WIRE_NAME_MAX];
	size_t nl;
	struct conv c;

	c = talk_rt("insecure_add corp.example\n");
	HAS(c, "validation is off");
	free(c.text);
	ck_assert_int_eq(anchors_new(&a), ANCHOR_OK);
	ck_assert_int_eq(anchors_add_builtin(a), ANCHOR_OK);
	ck_assert_int_eq(server_anchors_set(srv, a), SERVER_OK);
	ck_assert_int_eq(wire_name_from_text("www.corp.example.", 17, n, &nl),
	                 WIRE_OK);
	ck_assert(!anchors_insecure(server_anchors(srv), n, nl));
	talk_rt_is("UBCT1 insecure_add Corp.Example.\n", "ok\n");
	ck_assert(anchors_insecure(server_anchors(srv), n, nl));
	talk_rt_is("UBCT1 list_insecure\n", "corp.example.\n");
	c = talk_rt("insecure_add ..bad\ninsecure_remove other.example\n");
	ck_assert_int_eq(count_of(c.text, "error: "), 2);
	HAS(c, "not an insecure domain");
	free(c.text);
	talk_rt_is("UBCT1 insecure_remove corp.example\n", "ok\n");
	ck_assert(!anchors_insecure(server_anchors(srv), n, nl));
	talk_rt_is("UBCT1 list_insecure\n", "");
	/* forward_add +i (Unbound's): the zone insecure too; forward_remove
	 * +i takes both back */
	talk_rt_is("UBCT1 forward_add +i corp.example. 192.0.2.1\n", "ok\n");
	ck_assert(anchors_insecure(server_anchors(srv), n, nl));
	talk_rt_is("UBCT1 forward_remove +i corp.example.\n", "ok\n");
	ck_assert(!anchors_insecure(server_anchors(srv), n, nl));
	ck_assert_uint_eq(cfg.n_forward, 0);
	ck_assert_int_eq(server_anchors_set(srv, NULL), SERVER_OK);
}
END_TEST

/* tls_cert: an error while no certificate is served. */
START_TEST(rt_tls_cert_none)
{
	struct conv c = talk_rt("tls_cert\n");

	HAS(c, "no certificate");
	free(c.text);
}
END_TEST

TCase *control_rt_tcase(void)
{
	TCase *tc = tcase_create("runtime");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, rt_forward_add_remove);
	tcase_add_test(tc, rt_requestlist_dump_flush);
	tcase_add_test(tc, rt_insecure);
	tcase_add_test(tc, rt_tls_cert_none);
	return tc;
}
