/*
 * resolver/front/udpio.c - a UDP socket served in batches: our own recvmmsg
 * loop on a libuv poll handle, answers of a batch queued and sent with
 * one sendmmsg; wildcard sockets carry each datagram's destination
 * (packet info) to its answer.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1 /* recvmmsg, sendmmsg, struct in6_pktinfo */
#endif
#include "udpio.h"

#include "base/netaddr.h"

#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/** Control messages looked at per datagram at most. */
#define UDPIO_CMSG_STEPS 8

/* ------------------------------------------------------------------ */
/* Packet info (pure: buffer and length in, no socket)                 */

bool udpio_is_wildcard(const struct sockaddr *sa)
{
	static const uint8_t zero[16];
	size_t len;
	const uint8_t *b = netaddr_bytes(sa, &len);

	return b != NULL && memcmp(b, zero, len) == 0;
}

/* One control message's data into *out, if it is packet info. */
static bool pktinfo_take(const struct cmsghdr *h, const uint8_t *data,
                         size_t dlen, uint16_t port,
                         struct sockaddr_storage *out)
{
	memset(out, 0, sizeof *out);
	if (h->cmsg_level == IPPROTO_IP && h->cmsg_type == IP_PKTINFO &&
	    dlen >= sizeof(struct in_pktinfo)) {
		struct sockaddr_in *v4 = (struct sockaddr_in *)out;
		struct in_pktinfo pi;

		memcpy(&pi, data, sizeof pi);
		v4->sin_family = AF_INET;
		v4->sin_port = port;
		v4->sin_addr = pi.ipi_spec_dst;
		return true;
	}
	if (h->cmsg_level == IPPROTO_IPV6 && h->cmsg_type == IPV6_PKTINFO &&
	    dlen >= sizeof(struct in6_pktinfo)) {
		struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)out;
		struct in6_pktinfo pi;

		memcpy(&pi, data, sizeof pi);
		v6->sin6_family = AF_INET6;
		v6->sin6_port = port;
		v6->sin6_addr = pi.ipi6_addr;
		v6->sin6_scope_id = pi.ipi6_ifindex;
		return true;
	}
	return false;
}

bool udpio_pktinfo_read(const uint8_t *ctl, size_t ctllen, uint16_t port,
                        struct sockaddr_storage *out)
{
	size_t pos = 0, hlen = CMSG_LEN(0);
	unsigned step;
	struct cmsghdr h;

	for (step = 0; step < UDPIO_CMSG_STEPS; step++) {
		if (ctl == NULL || pos > ctllen || ctllen - pos < hlen)
			return false;
		memcpy(&h, ctl + pos, sizeof h);
		if (h.cmsg_len < hlen || h.cmsg_len > ctllen - pos)
			return false;
		if (pktinfo_take(&h, ctl + pos + hlen, h.cmsg_len - hlen, port,
		                 out))
			return true;
		pos += CMSG_ALIGN(h.cmsg_len);
	}
	return false;
}

/* Write one control message (level, type, data) at ctl. */
static size_t cmsg_put(uint8_t *ctl, size_t cap, int level, int type,
                       const void *data, size_t dlen)
{
	struct cmsghdr h;

	if (cap < CMSG_SPACE(dlen))
		return 0;
	memset(ctl, 0, CMSG_SPACE(dlen));
	memset(&h, 0, sizeof h);
	h.cmsg_len = CMSG_LEN(dlen);
	h.cmsg_level = level;
	h.cmsg_type = type;
	memcpy(ctl, &h, sizeof h);
	memcpy(ctl + CMSG_LEN(0), data, dlen);
	return CMSG_SPACE(dlen);
}

size_t udpio_pktinfo_write(uint8_t *ctl, size_t cap,
                           const struct sockaddr *local)
{
	if (local->sa_family == AF_INET) {
		struct in_pktinfo pi;

		memset(&pi, 0, sizeof pi);
		pi.ipi_spec_dst =
			((const struct sockaddr_in *)local)->sin_addr;
		return cmsg_put(ctl, cap, IPPROTO_IP, IP_PKTINFO, &pi,
		                sizeof pi);
	}
	if (local->sa_family == AF_INET6) {
		const struct sockaddr_in6 *v6 =
			(const struct sockaddr_in6 *)local;
		struct in6_pktinfo pi;

		memset(&pi, 0, sizeof pi);
		pi.ipi6_addr = v6->sin6_addr;
		/* a link-local source needs its interface (Linux refuses
		   one without); any other is left to the routing table */
		if (IN6_IS_ADDR_LINKLOCAL(&v6->sin6_addr))
			pi.ipi6_ifindex = v6->sin6_scope_id;
		return cmsg_put(ctl, cap, IPPROTO_IPV6, IPV6_PKTINFO, &pi,
		                sizeof pi);
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Sending                                                             */

/* One outgoing message: destination copied to *name, the source as
 * packet info in *ctl when local is given. */
static void udpio_msg_fill(struct msghdr *m, struct iovec *iov,
                           struct sockaddr_storage *name,
                           const struct sockaddr *to, socklen_t tolen,
                           union udpio_ctl *ctl, const struct sockaddr *local)
{
	size_t cl = 0;

	memset(m, 0, sizeof *m);
	memcpy(name, to, tolen);
	m->msg_name = name;
	m->msg_namelen = tolen;
	m->msg_iov = iov;
	m->msg_iovlen = 1;
	if (local != NULL)
		cl = udpio_pktinfo_write(ctl->buf, sizeof ctl->buf, local);
	if (cl > 0) {
		m->msg_control = ctl->buf;
		m->msg_controllen = cl;
	}
}

/* Send the queued answers: one sendmmsg, again after a partial send. */
static void udpio_flush(struct udpio *u)
{
	unsigned done = 0;
	int n;

	while (done < u->nout) {
		n = sendmmsg(u->fd, u->msgs + done, u->nout - done, 0);
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

/* Queue one answer (flushing first if the queue is full). */
static void udpio_queue(struct udpio *u, const uint8_t *msg, size_t len,
                        const struct sockaddr *to, socklen_t tolen,
                        const struct sockaddr *local)
{
	unsigned i;

	if (u->nout == UDPIO_BATCH)
		udpio_flush(u);
	i = u->nout++;
	memcpy(u->obuf + (size_t)i * UDPIO_SEND_MAX, msg, len);
	u->iov[i].iov_base = u->obuf + (size_t)i * UDPIO_SEND_MAX;
	u->iov[i].iov_len = len;
	u->msgs[i].msg_len = 0;
	udpio_msg_fill(&u->msgs[i].msg_hdr, &u->iov[i], &u->to[i], to, tolen,
	               &u->ctl[i], local);
}

void udpio_send(struct udpio *u, const uint8_t *msg, size_t len,
                const struct sockaddr *to, socklen_t tolen,
                const struct sockaddr *local)
{
	struct sockaddr_storage name;
	union udpio_ctl ctl;
	struct msghdr m;
	struct iovec iov;

	if (!u->open || tolen > sizeof(struct sockaddr_storage))
		return;
	if (u->in_batch && len <= UDPIO_SEND_MAX) {
		udpio_queue(u, msg, len, to, tolen, local);
		return;
	}
	iov.iov_base = (void *)(uintptr_t)msg;
	iov.iov_len = len;
	udpio_msg_fill(&m, &iov, &name, to, tolen, &ctl, local);
	if (sendmsg(u->fd, &m, 0) < 0)
		(*u->errors)++;
}

/* ------------------------------------------------------------------ */
/* Receiving                                                           */

/* Make the receive headers ready for the next recvmmsg. */
static void udpio_rmsgs_reset(struct udpio *u)
{
	unsigned i;

	for (i = 0; i < UDPIO_BATCH; i++) {
		struct msghdr *m = &u->rmsgs[i].msg_hdr;

		u->riov[i].iov_base = u->rbuf + (size_t)i * UDPIO_CHUNK;
		u->riov[i].iov_len = UDPIO_CHUNK;
		m->msg_name = &u->from[i];
		m->msg_namelen = sizeof u->from[i];
		m->msg_iov = &u->riov[i];
		m->msg_iovlen = 1;
		m->msg_control = u->wildcard ? u->rctl[i].buf : NULL;
		m->msg_controllen = u->wildcard ? sizeof u->rctl[i].buf : 0;
		m->msg_flags = 0;
		u->rmsgs[i].msg_len = 0;
	}
}

/* Hand datagram i of the batch to the receiver. */
static void udpio_deliver(struct udpio *u, unsigned i)
{
	const struct msghdr *m = &u->rmsgs[i].msg_hdr;
	const struct sockaddr *from = m->msg_name;
	struct sockaddr_storage local;
	const struct sockaddr *lp = NULL;
	socklen_t alen;

	if ((m->msg_flags & MSG_TRUNC) || u->rmsgs[i].msg_len == 0)
		return;
	if (from->sa_family == AF_INET)
		alen = sizeof(struct sockaddr_in);
	else if (from->sa_family == AF_INET6)
		alen = sizeof(struct sockaddr_in6);
	else
		return;
	if (u->wildcard && !(m->msg_flags & MSG_CTRUNC) &&
	    udpio_pktinfo_read(m->msg_control, m->msg_controllen, u->port,
	                       &local))
		lp = (const struct sockaddr *)&local;
	u->recv(u, u->rbuf + (size_t)i * UDPIO_CHUNK, u->rmsgs[i].msg_len,
	        from, alen, lp);
}

/* One recvmmsg and its answers. @return datagrams read, <= 0: none. */
static int udpio_batch(struct udpio *u)
{
	int n, i;

	udpio_rmsgs_reset(u);
	do
		n = recvmmsg(u->fd, u->rmsgs, UDPIO_BATCH, MSG_DONTWAIT, NULL);
	while (n < 0 && errno == EINTR);
	if (n <= 0)
		return n;
	u->in_batch = true;
	for (i = 0; i < n && u->open; i++)
		udpio_deliver(u, (unsigned)i);
	u->in_batch = false;
	udpio_flush(u);
	return n;
}

static void udpio_poll_cb(uv_poll_t *h, int status, int events)
{
	struct udpio *u = h->data;
	unsigned round;

	if (status < 0 || !(events & UV_READABLE))
		return;
	/* a short batch means the queue is empty: stop there */
	for (round = 0; round < UDPIO_ROUNDS && u->open; round++)
		if (udpio_batch(u) < UDPIO_BATCH)
			break;
}

/* ------------------------------------------------------------------ */
/* Sockets                                                             */

/* The options set before bind. @return 0 or a negative errno. */
static int udpio_sockopts(int fd, int family, int type, unsigned flags)
{
	int on = 1;

	if (family == AF_INET6 &&
	    setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &on, sizeof on) != 0)
		return -errno;
	if ((flags & UDPIO_F_REUSEPORT) &&
	    setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &on, sizeof on) != 0)
		return -errno;
	/* TCP: bind beside connections in TIME_WAIT, as uv_tcp_bind does
	   (a restart after the server closed connections) */
	if (type == SOCK_STREAM &&
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on) != 0)
		return -errno;
	if ((flags & UDPIO_F_FREEBIND) &&
	    (family == AF_INET6 ? setsockopt(fd, IPPROTO_IPV6, IPV6_FREEBIND,
	                                     &on, sizeof on) :
	                          setsockopt(fd, IPPROTO_IP, IP_FREEBIND, &on,
	                                     sizeof on)) != 0)
		return -errno;
	return 0;
}

int udpio_socket(const struct sockaddr *sa, int type, unsigned flags)
{
	socklen_t salen = sa->sa_family == AF_INET6 ?
	                          sizeof(struct sockaddr_in6) :
	                          sizeof(struct sockaddr_in);
	int fd, rc;

	fd = socket(sa->sa_family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	rc = udpio_sockopts(fd, sa->sa_family, type, flags);
	if (rc == 0 && bind(fd, sa, salen) != 0)
		rc = -errno;
	if (rc != 0) {
		close(fd);
		return rc;
	}
	return fd;
}

/* Ask for each datagram's destination (wildcard sockets). */
static int udpio_pktinfo_on(int fd, int family)
{
	int on = 1;

	if (family == AF_INET6 ?
	            setsockopt(fd, IPPROTO_IPV6, IPV6_RECVPKTINFO, &on,
	                       sizeof on) :
	            setsockopt(fd, IPPROTO_IP, IP_PKTINFO, &on, sizeof on))
		return -errno;
	return 0;
}

/* A receive buffer for bursts: UDPIO_RCVBUF, above the system's limit
 * when we may (root, at start-up), else as much as allowed. */
static void udpio_rcvbuf(int fd)
{
	int size = UDPIO_RCVBUF;

	/* SO_RCVBUFFORCE passes the system's limit, but needs privilege. */
	if (setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size))
		(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size,
		                 sizeof size);
}

/* The bound port (network order; asked when bound to port 0). */
static uint16_t udpio_bound_port(int fd)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof ss;

	if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0)
		return 0;
	if (ss.ss_family == AF_INET6)
		return ((struct sockaddr_in6 *)&ss)->sin6_port;
	return ((struct sockaddr_in *)&ss)->sin_port;
}

static void udpio_buffers_free(struct udpio *u)
{
	free(u->rbuf);
	free(u->obuf);
	u->rbuf = u->obuf = NULL;
}

/* The socket, with packet info when it is a wildcard. */
static int udpio_make(struct udpio *u, const struct sockaddr *sa,
                      unsigned flags)
{
	int fd, rc;

	fd = udpio_socket(sa, SOCK_DGRAM, flags);
	if (fd < 0)
		return fd;
	u->wildcard = udpio_is_wildcard(sa);
	rc = u->wildcard ? udpio_pktinfo_on(fd, sa->sa_family) : 0;
	if (rc != 0) {
		close(fd);
		return rc;
	}
	udpio_rcvbuf(fd);
	u->port = udpio_bound_port(fd);
	u->fd = fd;
	return 0;
}

int udpio_open(struct udpio *u, uv_loop_t *loop, const struct sockaddr *sa,
               unsigned flags, udpio_recv_fn *recv, uint64_t *errors)
{
	int rc;

	u->recv = recv;
	u->errors = errors != NULL ? errors : &u->own_errors;
	u->nout = 0;
	u->in_batch = false;
	u->open = false;
	u->fd = -1;
	u->rbuf = malloc((size_t)UDPIO_BATCH * UDPIO_CHUNK);
	u->obuf = malloc((size_t)UDPIO_BATCH * UDPIO_SEND_MAX);
	if (u->rbuf == NULL || u->obuf == NULL) {
		udpio_buffers_free(u);
		return UV_ENOMEM;
	}
	rc = udpio_make(u, sa, flags);
	if (rc == 0) {
		rc = uv_poll_init_socket(loop, &u->h, u->fd);
		if (rc != 0)
			close(u->fd);
	}
	if (rc != 0) {
		udpio_buffers_free(u);
		return rc;
	}
	u->h.data = u;
	u->open = true;
	return uv_poll_start(&u->h, UV_READABLE, udpio_poll_cb);
}

static void udpio_closed_cb(uv_handle_t *h)
{
	struct udpio *u = h->data;

	close(u->fd);
	u->fd = -1;
	udpio_buffers_free(u);
}

void udpio_close(struct udpio *u)
{
	if (!u->open)
		return;
	udpio_flush(u);
	u->open = false;
	uv_close((uv_handle_t *)&u->h, udpio_closed_cb);
}
