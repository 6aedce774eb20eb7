/*
 * resolver/udpio.h - one UDP socket served in batches: datagrams are
 * received with recvmmsg (libuv's UV_UDP_RECVMMSG) and the answers sent
 * while a batch is being handled are queued and sent together with one
 * sendmmsg when the batch ends.
 *
 * The server's client listeners use it, and so does the benchmarks'
 * trivial responder (tests/bench/echo_responder.c), so that the
 * benchmark's "limit" uses exactly the socket path of the resolver.
 *
 * Design notes:
 * - Nothing is allocated per datagram: the receive area (UDPIO_BATCH
 *   chunks of libuv's 64 KiB) and the send queue (UDPIO_BATCH answers of
 *   up to UDPIO_SEND_MAX bytes) are allocated once, at udpio_open.
 * - A send outside a batch (an answer to a resolution that finished on
 *   an upstream socket) goes out at once with sendto.
 * - The receive buffer is raised to UDPIO_RCVBUF (SO_RCVBUFFORCE while
 *   still root, else SO_RCVBUF up to the system's limit), so a burst of
 *   queries is not dropped by the kernel before the loop wakes up.
 * - With reuseport, the socket is made here with SO_REUSEPORT set before
 *   bind, so several workers (threads) can each hold a socket of the same
 *   address and the kernel spreads the clients over them.
 * - Not thread-safe: one udpio belongs to one loop's thread.
 */
#ifndef CURVECACHE_RESOLVER_UDPIO_H
#define CURVECACHE_RESOLVER_UDPIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <uv.h>

/** Datagrams per receive batch (libuv takes at most 20 per recvmmsg). */
#define UDPIO_BATCH 20
/** Bytes libuv reserves per datagram of a batch (its 64 KiB maximum). */
#define UDPIO_CHUNK (64u * 1024u)
/** Socket receive buffer asked for (bytes; a burst of small queries). */
#define UDPIO_RCVBUF (4 * 1024 * 1024)
/** Largest answer the send queue holds (bigger ones go out at once). */
#define UDPIO_SEND_MAX 4096u

struct udpio;

/**
 * A datagram arrived.
 * @param u: the socket (u->data is the caller's).
 * @param pkt, len: the datagram (valid during the call only).
 * @param from, fromlen: its source address.
 */
typedef void udpio_recv_fn(struct udpio *u, const uint8_t *pkt, size_t len,
                           const struct sockaddr *from, socklen_t fromlen);

/** One socket; the fields are private except data. */
struct udpio {
	uv_udp_t h;
	void *data;                 /**< the caller's */
	uint64_t *errors;           /**< answers the kernel refused */
	uint64_t own_errors;
	udpio_recv_fn *recv;
	bool open;
	bool in_batch;
	unsigned nout;
	uint8_t *rbuf;              /**< UDPIO_BATCH * UDPIO_CHUNK bytes */
	uint8_t *obuf;              /**< UDPIO_BATCH * UDPIO_SEND_MAX bytes */
	struct mmsghdr msgs[UDPIO_BATCH];
	struct iovec iov[UDPIO_BATCH];
	struct sockaddr_storage to[UDPIO_BATCH];
};

/**
 * Bind a socket and start receiving.
 * @param u: zeroed or unused storage; stays in place until closed.
 * @param loop: the loop of the calling thread.
 * @param sa: the address (AF_INET or AF_INET6; IPv6 sockets are
 *   IPv6-only).
 * @param reuseport: set SO_REUSEPORT (several sockets on one address).
 * @param recv: called for each datagram.
 * @param errors: counts the answers the kernel refused (NULL: counted
 *   inside u).
 * @return 0 or a libuv error code (the caller still calls udpio_close
 *   when u->open is true).
 */
int udpio_open(struct udpio *u, uv_loop_t *loop, const struct sockaddr *sa,
               bool reuseport, udpio_recv_fn *recv, uint64_t *errors);

/**
 * Send an answer: queued when called from within a batch, else sent now.
 * Failures are counted in *errors (udpio_open).
 * @param u: the socket.
 * @param msg, len: the datagram (copied when queued).
 * @param to, tolen: the destination.
 */
void udpio_send(struct udpio *u, const uint8_t *msg, size_t len,
                const struct sockaddr *to, socklen_t tolen);

/**
 * A socket with SO_REUSEPORT (and IPV6_V6ONLY for IPv6), non-blocking,
 * bound to sa: for uv_udp_open or uv_tcp_open (TCP listeners of several
 * workers use it too; SOCK_STREAM also gets SO_REUSEADDR, so that a
 * restart binds beside connections left in TIME_WAIT).
 * @param sa: AF_INET or AF_INET6.
 * @param type: SOCK_DGRAM or SOCK_STREAM.
 * @return the descriptor, or a negative errno value (a libuv error code
 *   on Linux).
 */
int udpio_reuseport_socket(const struct sockaddr *sa, int type);

/**
 * Close: the handle is closed on the loop and the buffers freed when it
 * is. Run the loop afterwards. Does nothing if not open.
 */
void udpio_close(struct udpio *u);

#endif /* CURVECACHE_RESOLVER_UDPIO_H */
