/*
 * resolver/front_tls/server_tlsproxy.c - a load balancer's PROXY v2 header on
 * the DoT and DoH ports (server_int.h: server_tlsproxy_accept).
 *
 * A proxy-protocol-from peer (dnsdist, haproxy) that passes TLS through
 * sends the header in plain before its ClientHello. The slot's own TCP
 * handle (unused by TLS otherwise) accepts the socket and reads the
 * header into the slot's frame buffer (empty until TLS brings
 * plaintext), never more than proxy_stream_want asks: the ClientHello
 * stays in the socket. Then the socket, duplicated, goes to the TLS
 * session (tls_conn_accept_fd); the slot's handle keeps its own
 * descriptor, unread, until the slot closes. The header may take
 * PROXY_STREAM_MAX bytes at most and is covered by the handshake's time
 * limit, which runs from the accept. Without proxy-protocol-from, TLS
 * accepts from the listener as before.
 */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "front/proxy.h"
#include "front/server_int.h"
#include "transport/tls.h"

/* The header is read into the slot's frame buffer: it must fit there. */
_Static_assert(PROXY_STREAM_MAX <= sizeof(((struct server_conn *)0)->rbuf),
               "a PROXY v2 header of PROXY_STREAM_MAX fits the slot's rbuf");

/* The socket in c->h, duplicated, to the TLS session. */
static int tlsproxy_handoff(struct server_conn *c)
{
	uv_os_fd_t fd;
	int dup_fd;

	if (uv_fileno((const uv_handle_t *)&c->h, &fd) != 0 ||
	    (dup_fd = fcntl(fd, F_DUPFD_CLOEXEC, 0)) < 0)
		return -1;
	switch (tls_conn_accept_fd(server_tls_session(c), dup_fd)) {
	case TLS_OK: return 0;
	case TLS_EINVAL: close(dup_fd); return -1;
	default: return -1;
	}
}

static bool tlsproxy_denied(struct server_conn *c)
{
	return cfg_acl_check(c->s->cfg, (const struct sockaddr *)&c->peer) ==
	       CFG_ACL_DENY;
}

/* The header is in rbuf (or the stream ended or erred first): its client
 * becomes the peer and TLS starts, or the connection closes (counted by
 * server_proxy_client). */
static void tlsproxy_done(struct server_conn *c)
{
	struct inflight_dest d;
	size_t skip = 0;

	uv_read_stop((uv_stream_t *)&c->h);
	memset(&d, 0, sizeof d);
	d.addr = c->peer;
	if (!server_proxy_client(c->s, c->rbuf, c->rlen, &d, &skip)) {
		server_tcp_close(c);
		return;
	}
	c->peer = d.addr;
	c->rlen = 0;
	c->proxy_done = true;
	if (tlsproxy_denied(c) || tlsproxy_handoff(c) != 0)
		server_tcp_close(c);
}

/* Room for exactly what the header still needs (none on error: libuv
 * then reports UV_ENOBUFS). */
static void tlsproxy_alloc(uv_handle_t *h, size_t hint, uv_buf_t *buf)
{
	struct server_conn *c = h->data;
	size_t want = 0;

	(void)hint;
	if (proxy_stream_want(c->rbuf, c->rlen, &want) != PROXY_ESHORT)
		want = 0;
	*buf = uv_buf_init((char *)c->rbuf + c->rlen, (unsigned)want);
}

static void tlsproxy_read(uv_stream_t *st, ssize_t n, const uv_buf_t *b)
{
	struct server_conn *c = st->data;
	size_t want = 0;
	int rc;

	(void)b;
	if (c->closing || n == 0)
		return;
	if (n > 0)
		c->rlen += (size_t)n;
	rc = proxy_stream_want(c->rbuf, c->rlen, &want);
	if (n > 0 && rc == PROXY_ESHORT)
		return; /* more to come */
	tlsproxy_done(c);
}

int server_tlsproxy_accept(struct server_conn *c, uv_stream_t *ls)
{
	struct tls_conn *t = server_tls_session(c);
	int alen = sizeof c->peer;

	if (c->s->cfg->n_proxy_from == 0) { /* TLS from the first byte */
		c->proxy_done = true;
		if (tls_conn_accept(t, ls) != TLS_OK ||
		    tls_conn_peer(t, &c->peer) != TLS_OK)
			return -1;
		return tlsproxy_denied(c) ? -1 : 0;
	}
	if (uv_accept(ls, (uv_stream_t *)&c->h) != 0 ||
	    uv_tcp_getpeername(&c->h, (struct sockaddr *)&c->peer, &alen) != 0)
		return -1;
	c->proxy_done = !cfg_proxy_from(c->s->cfg,
	                                (const struct sockaddr *)&c->peer);
	if (c->proxy_done)
		return tlsproxy_denied(c) ? -1 : tlsproxy_handoff(c);
	c->rlen = 0;
	if (uv_read_start((uv_stream_t *)&c->h, tlsproxy_alloc,
	                  tlsproxy_read) != 0)
		return -1;
	return 0;
}
