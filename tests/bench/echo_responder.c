/*
 * tests/bench/echo_responder.c - the limit of the resolver benchmark
 * (tests/bench/resolvers.sh): a trivial DNS responder that answers every
 * query with one fixed answer (its ID and question copied, one A record
 * pointing at the question), through the very socket path of curvecache
 * (resolver/front/udpio.h: recvmmsg batches, answers of a batch sent
 * with one sendmmsg). What curvecache spends per query beyond this is the
 * price of being a resolver.
 *
 * Usage: echo_responder ADDRESS PORT
 * Runs in the foreground until SIGTERM or SIGINT.
 */
#include <arpa/inet.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "front/udpio.h"
#include "wire/wire.h"

/** The answer: a pointer to the question, A, IN, TTL 3600, 192.0.2.1. */
static const uint8_t echo_rr[] = {
	0xc0, 0x0c, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
	0x0e, 0x10, 0x00, 0x04, 0xc0, 0x00, 0x02, 0x01,
};
/** Header flags of the answer: QR, RD, RA. */
#define ECHO_FLAGS_HI 0x81
#define ECHO_FLAGS_LO 0x80
/** Bytes of the question's type and class. */
#define ECHO_QFIXED 4

static uv_signal_t sig_term, sig_int;
static struct udpio sock;
static uint8_t out[WIRE_MSG_MAX];

/* Answer: header, the question as sent (up to its end), one record. */
static void echo_recv(struct udpio *u, const uint8_t *pkt, size_t len,
                      const struct sockaddr *from, socklen_t fromlen,
                      const struct sockaddr *local)
{
	size_t pos = WIRE_HEADER_BYTES, qend;

	if (len < WIRE_HEADER_BYTES + 1 + ECHO_QFIXED || (pkt[2] & 0x80))
		return;
	while (pos < len && pkt[pos] != 0 && pkt[pos] < 64)
		pos += 1 + (size_t)pkt[pos];
	qend = pos + 1 + ECHO_QFIXED;
	if (pos >= len || qend > len || qend + sizeof echo_rr > sizeof out)
		return;
	memcpy(out, pkt, qend);
	out[2] = ECHO_FLAGS_HI;
	out[3] = ECHO_FLAGS_LO;
	out[4] = 0;
	out[5] = 1; /* QDCOUNT */
	out[6] = 0;
	out[7] = 1; /* ANCOUNT */
	memset(out + 8, 0, 4);
	memcpy(out + qend, echo_rr, sizeof echo_rr);
	udpio_send(u, out, qend + sizeof echo_rr, from, fromlen, local);
}

static void on_signal(uv_signal_t *s, int signum)
{
	(void)s;
	(void)signum;
	udpio_close(&sock);
	uv_close((uv_handle_t *)&sig_term, NULL);
	uv_close((uv_handle_t *)&sig_int, NULL);
}

int main(int argc, char **argv)
{
	struct sockaddr_storage sa;
	uv_loop_t *loop = uv_default_loop();
	int rc;

	if (argc != 3 || (uv_ip4_addr(argv[1], atoi(argv[2]),
	                              (struct sockaddr_in *)&sa) != 0 &&
	                  uv_ip6_addr(argv[1], atoi(argv[2]),
	                              (struct sockaddr_in6 *)&sa) != 0)) {
		fprintf(stderr, "usage: echo_responder ADDRESS PORT\n");
		return 2;
	}
	rc = udpio_open(&sock, loop, (const struct sockaddr *)&sa, 0,
	                echo_recv, NULL);
	if (rc != 0) {
		fprintf(stderr, "echo_responder: %s: %s\n", argv[1],
		        uv_strerror(rc));
		return 1;
	}
	uv_signal_init(loop, &sig_term);
	uv_signal_init(loop, &sig_int);
	uv_signal_start(&sig_term, on_signal, SIGTERM);
	uv_signal_start(&sig_int, on_signal, SIGINT);
	uv_run(loop, UV_RUN_DEFAULT);
	uv_loop_close(loop);
	printf("echo_responder: send errors %llu\n",
	       (unsigned long long)sock.own_errors);
	return 0;
}
