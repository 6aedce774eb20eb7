/*
 * resolver/udpio.c - a UDP socket served in batches: recvmmsg through
 * libuv, answers of a batch queued and sent with one sendmmsg.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* sendmmsg */
#endif
#include "udpio.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void udpio_alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *b)
{
	struct udpio *u = h->data;

	(void)hint;
	b->base = (char *)u->rbuf;
	b->len = (size_t)UDPIO_BATCH * UDPIO_CHUNK;
}

/* Send the queued answers: one sendmmsg, again after a partial send. */
static void udpio_flush(struct udpio *u)
{
	unsigned done = 0;
	uv_os_fd_t fd;
	int n;

	if (u->nout == 0)
		return;
	if (uv_fileno((uv_handle_t *)&u->h, &fd) != 0) {
		*u->errors += u->nout;
		u->nout = 0;
		return;
	}
	while (done < u->nout) {
		n = sendmmsg(fd, u->msgs + done, u->nout - done, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			/* the first message of the rest failed: skip it */
			(*u->errors)++;
			done++;
			continue;
		}
		done += (unsigned)n;
	}
	u->nout = 0;
}

static void udpio_recv_cb(uv_udp_t *h, ssize_t n, const uv_buf_t *b,
                          const struct sockaddr *addr, unsigned flags)
{
	struct udpio *u = h->data;
	socklen_t alen;

	if (addr == NULL) {
		/* end of a batch (UV_UDP_MMSG_FREE), nothing more, or error */
		u->in_batch = false;
		udpio_flush(u);
		return;
	}
	if (flags & UV_UDP_MMSG_CHUNK)
		u->in_batch = true;
	if (n <= 0 || (flags & UV_UDP_PARTIAL))
		return;
	if (addr->sa_family == AF_INET)
		alen = sizeof(struct sockaddr_in);
	else if (addr->sa_family == AF_INET6)
		alen = sizeof(struct sockaddr_in6);
	else
		return;
	u->recv(u, (const uint8_t *)b->base, (size_t)n, addr, alen);
}

/* Queue one answer (flushing first if the queue is full). */
static void udpio_queue(struct udpio *u, const uint8_t *msg, size_t len,
                        const struct sockaddr *to, socklen_t tolen)
{
	unsigned i;

	if (u->nout == UDPIO_BATCH)
		udpio_flush(u);
	i = u->nout++;
	memcpy(u->obuf + (size_t)i * UDPIO_SEND_MAX, msg, len);
	memcpy(&u->to[i], to, tolen);
	u->iov[i].iov_base = u->obuf + (size_t)i * UDPIO_SEND_MAX;
	u->iov[i].iov_len = len;
	memset(&u->msgs[i], 0, sizeof u->msgs[i]);
	u->msgs[i].msg_hdr.msg_name = &u->to[i];
	u->msgs[i].msg_hdr.msg_namelen = tolen;
	u->msgs[i].msg_hdr.msg_iov = &u->iov[i];
	u->msgs[i].msg_hdr.msg_iovlen = 1;
}

void udpio_send(struct udpio *u, const uint8_t *msg, size_t len,
                const struct sockaddr *to, socklen_t tolen)
{
	uv_os_fd_t fd;

	if (!u->open || tolen > sizeof(struct sockaddr_storage))
		return;
	if (u->in_batch && len <= UDPIO_SEND_MAX) {
		udpio_queue(u, msg, len, to, tolen);
		return;
	}
	if (uv_fileno((uv_handle_t *)&u->h, &fd) != 0 ||
	    sendto(fd, msg, len, 0, to, tolen) < 0)
		(*u->errors)++;
}

int udpio_reuseport_socket(const struct sockaddr *sa, int type)
{
	socklen_t salen = sa->sa_family == AF_INET6 ?
		sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
	int fd, on = 1, rc = 0;

	fd = socket(sa->sa_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if ((sa->sa_family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on) != 0) ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0 ||
	    /* TCP: bind beside connections in TIME_WAIT, as uv_tcp_bind
	       does (a restart after the server closed connections) */
	    (type == SOCK_STREAM &&
	     setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0) ||
	    bind(fd, sa, salen) != 0)
		rc = -errno;
	if (rc != 0) {
		close(fd);
		return rc;
	}
	return fd;
}

static int udpio_bind(struct udpio *u, const struct sockaddr *sa,
                      bool reuseport)
{
	int fd, rc;

	if (!reuseport)
		return uv_udp_bind(&u->h, sa, sa->sa_family == AF_INET6 ?
		                   UV_UDP_IPV6ONLY : 0);
	fd = udpio_reuseport_socket(sa, SOCK_DGRAM);
	if (fd < 0)
		return fd;
	rc = uv_udp_open(&u->h, fd);
	if (rc != 0)
		close(fd);
	return rc;
}

/* A receive buffer for bursts: UDPIO_RCVBUF, above the system's limit
 * when we may (root, at start-up), else as much as allowed. */
static void udpio_rcvbuf(struct udpio *u)
{
	int size = UDPIO_RCVBUF;
	uv_os_fd_t fd;

	if (uv_fileno((uv_handle_t *)&u->h, &fd) != 0)
		return;
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size,
	               sizeof size) != 0)
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
}

int udpio_open(struct udpio *u, uv_loop_t *loop, const struct sockaddr *sa,
               bool reuseport, udpio_recv_fn *recv, uint64_t *errors)
{
	int rc;

	u->recv = recv;
	u->errors = errors != NULL ? errors : &u->own_errors;
	u->nout = 0;
	u->in_batch = false;
	u->rbuf = malloc((size_t)UDPIO_BATCH * UDPIO_CHUNK);
	u->obuf = malloc((size_t)UDPIO_BATCH * UDPIO_SEND_MAX);
	if (u->rbuf == NULL || u->obuf == NULL) {
		free(u->rbuf);
		free(u->obuf);
		u->rbuf = u->obuf = NULL;
		return UV_ENOMEM;
	}
	rc = uv_udp_init_ex(loop, &u->h, AF_UNSPEC | UV_UDP_RECVMMSG);
	if (rc != 0) {
		free(u->rbuf);
		free(u->obuf);
		u->rbuf = u->obuf = NULL;
		return rc;
	}
	u->h.data = u;
	u->open = true;
	rc = udpio_bind(u, sa, reuseport);
	if (rc == 0) {
		udpio_rcvbuf(u);
		rc = uv_udp_recv_start(&u->h, udpio_alloc_cb, udpio_recv_cb);
	}
	return rc;
}

static void udpio_closed_cb(uv_handle_t *h)
{
	struct udpio *u = h->data;

	free(u->rbuf);
	free(u->obuf);
	u->rbuf = u->obuf = NULL;
}

void udpio_close(struct udpio *u)
{
	if (!u->open)
		return;
	udpio_flush(u);
	u->open = false;
	uv_close((uv_handle_t *)&u->h, udpio_closed_cb);
}
