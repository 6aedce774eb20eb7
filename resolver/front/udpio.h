/*
 * resolver/front/udpio.h - one UDP socket served in batches: datagrams are
 * received with recvmmsg and the answers sent while a batch is being
 * handled are queued and sent together with one sendmmsg when the batch
 * ends.
 *
 * The server's client listeners use it, and so does the benchmarks'
 * trivial responder (tests/bench/echo_responder.c), so that the
 * benchmark's "limit" uses exactly the socket path of the resolver.
 *
 * Design notes:
 * - The socket is made here and watched with a libuv poll handle; the
 *   receive loop is our own (libuv's UDP handle hides the control
 *   messages), up to UDPIO_ROUNDS recvmmsg calls per wake-up.
 * - Nothing is allocated per datagram: the receive area (UDPIO_BATCH
 *   chunks of UDPIO_CHUNK bytes) and the send queue (UDPIO_BATCH answers
 *   of up to UDPIO_SEND_MAX bytes) are allocated once, at udpio_open.
 * - A wildcard socket (0.0.0.0 or ::) asks the kernel for each
 *   datagram's destination (IP_PKTINFO, IPV6_RECVPKTINFO), hands it to
 *   the receiver as `local`, and an answer given that address leaves
 *   from it (IP_PKTINFO / IPV6_PKTINFO on sendmsg), so a client that
 *   asked 127.0.55.7 hears 127.0.55.7, not the address the routing table
 *   would pick. A socket bound to one address does no control-message
 *   work at all: its answers leave from that address anyway.
 * - A send outside a batch (an answer to a resolution that finished on
 *   an upstream socket) goes out at once with sendmsg.
 * - The receive buffer is raised to UDPIO_RCVBUF (SO_RCVBUFFORCE while
 *   still root, else SO_RCVBUF up to the system's limit), so a burst of
 *   queries is not dropped by the kernel before the loop wakes up.
 * - UDPIO_F_REUSEPORT sets SO_REUSEPORT before bind, so several workers
 *   (threads) can each hold a socket of the same address and the kernel
 *   spreads the clients over them; UDPIO_F_FREEBIND (ip-freebind) lets
 *   the bind succeed for an address not (yet) configured on the host.
 * - Not thread-safe: one udpio belongs to one loop's thread.
 */
#ifndef CURVECACHE_RESOLVER_UDPIO_H
#define CURVECACHE_RESOLVER_UDPIO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <uv.h>

/** Datagrams per receive batch (one recvmmsg). */
#define UDPIO_BATCH 20
/** recvmmsg calls per wake-up at most (then the loop runs the rest). */
#define UDPIO_ROUNDS 32
/** Bytes reserved per datagram of a batch (the UDP maximum). */
#define UDPIO_CHUNK (64u * 1024u)
/** Socket receive buffer asked for (bytes; a burst of small queries). */
#define UDPIO_RCVBUF (4 * 1024 * 1024)
/** Largest answer the send queue holds (bigger ones go out at once). */
#define UDPIO_SEND_MAX 4096u
/** Control-message room per datagram: one IPv4 or IPv6 packet-info
 *  message (CMSG_SPACE of in6_pktinfo is 40 on Linux) with margin. */
#define UDPIO_CTL_BYTES 64u

/** udpio_open / udpio_socket flags. */
#define UDPIO_F_REUSEPORT 0x1u /**< SO_REUSEPORT (several workers) */
#define UDPIO_F_FREEBIND 0x2u  /**< IP_FREEBIND / IPV6_FREEBIND */

struct udpio;

/**
 * A datagram arrived.
 * @param u: the socket (u->data is the caller's).
 * @param pkt, len: the datagram (valid during the call only).
 * @param from, fromlen: its source address.
 * @param local: wildcard sockets: the address the datagram was sent to
 *   (port: the socket's), to give back to udpio_send; NULL on a socket
 *   bound to one address, or when the kernel did not say.
 */
typedef void udpio_recv_fn(struct udpio *u, const uint8_t *pkt, size_t len,
                           const struct sockaddr *from, socklen_t fromlen,
                           const struct sockaddr *local);

/** Control-message storage, aligned for struct cmsghdr. */
union udpio_ctl {
	struct cmsghdr align;
	uint8_t buf[UDPIO_CTL_BYTES];
};

/** One socket; the fields are private except data. */
struct udpio {
	uv_poll_t h;
	int fd;
	void *data;       /**< the caller's */
	uint64_t *errors; /**< answers the kernel refused */
	uint64_t own_errors;
	udpio_recv_fn *recv;
	bool open;
	bool wildcard; /**< packet info asked for (0.0.0.0, ::) */
	uint16_t port; /**< the bound port, network order */
	bool in_batch;
	unsigned nout;
	uint8_t *rbuf; /**< UDPIO_BATCH * UDPIO_CHUNK bytes */
	uint8_t *obuf; /**< UDPIO_BATCH * UDPIO_SEND_MAX bytes */
	struct mmsghdr rmsgs[UDPIO_BATCH];
	struct iovec riov[UDPIO_BATCH];
	struct sockaddr_storage from[UDPIO_BATCH];
	union udpio_ctl rctl[UDPIO_BATCH];
	struct mmsghdr msgs[UDPIO_BATCH];
	struct iovec iov[UDPIO_BATCH];
	struct sockaddr_storage to[UDPIO_BATCH];
	union udpio_ctl ctl[UDPIO_BATCH];
};

/**
 * Bind a socket and start receiving.
 * @param u: zeroed or unused storage; stays in place until closed.
 * @param loop: the loop of the calling thread.
 * @param sa: the address (AF_INET or AF_INET6; IPv6 sockets are
 *   IPv6-only). 0.0.0.0 and :: make a wildcard socket (see above).
 * @param flags: UDPIO_F_* bits.
 * @param recv: called for each datagram.
 * @param errors: counts the answers the kernel refused (NULL: counted
 *   inside u).
 * @return 0 or a libuv error code (the caller still calls udpio_close
 *   when u->open is true).
 */
int udpio_open(struct udpio *u, uv_loop_t *loop, const struct sockaddr *sa,
               unsigned flags, udpio_recv_fn *recv, uint64_t *errors);

/**
 * Send an answer: queued when called from within a batch, else sent now.
 * Failures are counted in *errors (udpio_open).
 * @param u: the socket.
 * @param msg, len: the datagram (copied when queued).
 * @param to, tolen: the destination.
 * @param local: the source address (the `local` of udpio_recv_fn, or a
 *   copy of it); NULL: the socket's own.
 */
void udpio_send(struct udpio *u, const uint8_t *msg, size_t len,
                const struct sockaddr *to, socklen_t tolen,
                const struct sockaddr *local);

/**
 * A non-blocking socket bound to sa (IPV6_V6ONLY for IPv6), for
 * udpio_open and for the TCP listeners (uv_tcp_open; SOCK_STREAM also
 * gets SO_REUSEADDR, so that a restart binds beside connections left in
 * TIME_WAIT).
 * @param sa: AF_INET or AF_INET6.
 * @param type: SOCK_DGRAM or SOCK_STREAM.
 * @param flags: UDPIO_F_* bits.
 * @return the descriptor, or a negative errno value (a libuv error code
 *   on Linux).
 */
int udpio_socket(const struct sockaddr *sa, int type, unsigned flags);

/**
 * Whether sa is a wildcard address (0.0.0.0 or ::).
 * @param sa: any address (other families: false).
 */
bool udpio_is_wildcard(const struct sockaddr *sa);

/**
 * Read the destination of a received datagram from its control
 * messages (IP_PKTINFO: the local address the kernel gives for the
 * answer; IPV6_PKTINFO: the destination, with its interface as scope).
 * @param ctl, ctllen: the control area as recvmsg filled it (msg_control,
 *   msg_controllen); never read past ctllen.
 * @param port: the port to put in *out (network order).
 * @param out: receives the address (sockaddr_in or sockaddr_in6).
 * @return true if a packet-info message was found, false otherwise
 *   (*out unspecified).
 */
bool udpio_pktinfo_read(const uint8_t *ctl, size_t ctllen, uint16_t port,
                        struct sockaddr_storage *out);

/**
 * Write the control message that makes a datagram leave from local
 * (IP_PKTINFO or IPV6_PKTINFO, interface index 0 so that the routing
 * table still chooses the way out; an IPv6 link-local address keeps its
 * sin6_scope_id, which Linux requires).
 * @param ctl, cap: the destination area, aligned for struct cmsghdr.
 * @param local: AF_INET or AF_INET6 (the port is ignored).
 * @return the control length for msg_controllen, or 0 if local is of
 *   another family or cap too small (nothing written then).
 */
size_t udpio_pktinfo_write(uint8_t *ctl, size_t cap,
                           const struct sockaddr *local);

/**
 * Close: the handle is closed on the loop and the socket and buffers
 * freed when it is. Run the loop afterwards. Does nothing if not open.
 */
void udpio_close(struct udpio *u);

#endif /* CURVECACHE_RESOLVER_UDPIO_H */
