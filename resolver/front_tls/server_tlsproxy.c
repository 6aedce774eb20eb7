/*
 * resolver/front_tls/server_tlsproxy.c - a load balancer's PROXY v2 header on
 * the DoT and DoH ports (server_int.h: server_tlsproxy_accept).
 *
 * A proxy-protocol-from peer (dnsdist, haproxy) that passes TLS through
 * sends the header in plain before its ClientHello. The TLS session
 * accepts the socket and reads nothing (tls_conn_accept_held); the
 * header is read in plain on that same socket (tls_conn_read_plain) into
 * the slot's frame buffer (empty until TLS brings plaintext), never more
 * than proxy_stream_want asks: the ClientHello stays in the socket. Then
 * TLS starts on it (tls_conn_serve): one descriptor per connection, as
 * without a balancer (the slot's own TCP handle holds none). The header
 * may take PROXY_STREAM_MAX bytes at most and is covered by the
 * handshake's time limit, which runs from the accept.
 */
#include <string.h>

#include "front/proxy.h"
#include "front/server_int.h"
#include "transport/tls.h"

/* The header is read into the slot's frame buffer: it must fit there. */
_Static_assert(PROXY_STREAM_MAX <= sizeof(((struct server_conn *)0)->rbuf),
               "a PROXY v2 header of PROXY_STREAM_MAX fits the slot's rbuf");

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

	memset(&d, 0, sizeof d);
	d.addr = c->peer;
	if (!server_proxy_client(c->s, c->rbuf, c->rlen, &d, &skip)) {
		server_tcp_close(c);
		return;
	}
	c->peer = d.addr;
	c->rlen = 0;
	c->proxy_done = true;
	if (tlsproxy_denied(c) ||
	    tls_conn_serve(server_tls_session(c)) != TLS_OK)
		server_tcp_close(c);
}

/* Room for exactly what the header still needs (none on error: libuv
 * then reports UV_ENOBUFS). */
static void tlsproxy_room(void *arg, uint8_t **buf, size_t *len)
{
	struct server_conn *c = arg;
	size_t want = 0;

	if (proxy_stream_want(c->rbuf, c->rlen, &want) != PROXY_ESHORT)
		want = 0;
	*buf = c->rbuf + c->rlen;
	*len = want;
}

static void tlsproxy_got(void *arg, ssize_t n)
{
	struct server_conn *c = arg;
	size_t want = 0;
	int rc;

	if (c->closing)
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
	static const struct tls_plain_cbs cbs = { tlsproxy_room,
		                                  tlsproxy_got };
	struct tls_conn *t = server_tls_session(c);

	if (tls_conn_accept_held(t, ls) != TLS_OK ||
	    tls_conn_peer(t, &c->peer) != TLS_OK)
		return -1;
	/* a balancer's client is known after its PROXY v2 header */
	c->proxy_done = c->s->cfg->n_proxy_from == 0 ||
	                !cfg_proxy_from(c->s->cfg,
	                                (const struct sockaddr *)&c->peer);
	if (c->proxy_done)
		return tlsproxy_denied(c) || tls_conn_serve(t) != TLS_OK ? -1 :
		                                                           0;
	c->rlen = 0;
	return tls_conn_read_plain(t, &cbs, c) == TLS_OK ? 0 : -1;
}
