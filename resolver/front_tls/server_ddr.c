/*
 * resolver/front_tls/server_ddr.c - Discovery of Designated Resolvers (RFC
 * 9462): the worker answers _dns.resolver.arpa. itself (AA) with one
 * SVCB record per encrypted service it runs (ddr.h): DNS over TLS on
 * tls-port, DNS over HTTPS on https-port, with the listen addresses that
 * are not wildcards as hints. Without either service the name is
 * resolved as any other.
 */
#include "front/server_int.h"

#include <netinet/in.h>
#include <string.h>

#include "base/netaddr.h"
#include "ddr.h"

/** Bytes of one SVCB RDATA (hints of both families and the path). */
#define SERVER_DDR_RDATA 1024

/* The hints of one service: its specific listen addresses on port. */
static void ddr_hints(const struct cfg *c, uint16_t port,
                      struct ddr_endpoint *e)
{
	static const uint8_t any6[DDR_V6];
	size_t i;

	for (i = 0; i < c->n_listen; i++) {
		const struct sockaddr_storage *ss = &c->listen[i].sa;
		const struct sockaddr_in *v4 = (const struct sockaddr_in *)ss;
		const struct sockaddr_in6 *v6 =
			(const struct sockaddr_in6 *)ss;

		if (netaddr_port((const struct sockaddr *)ss) != port)
			continue;
		if (ss->ss_family == AF_INET &&
		    v4->sin_addr.s_addr != htonl(INADDR_ANY) &&
		    e->n4 < DDR_HINTS_MAX)
			memcpy(e->v4[e->n4++], &v4->sin_addr, DDR_V4);
		if (ss->ss_family == AF_INET6 &&
		    memcmp(&v6->sin6_addr, any6, DDR_V6) != 0 &&
		    e->n6 < DDR_HINTS_MAX)
			memcpy(e->v6[e->n6++], &v6->sin6_addr, DDR_V6);
	}
}

/* Does any listen address use port? */
static bool ddr_listens(const struct cfg *c, uint16_t port)
{
	size_t i;

	for (i = 0; i < c->n_listen; i++) {
		const struct sockaddr *sa =
			(const struct sockaddr *)&c->listen[i].sa;

		if ((port == c->tls_port && server_tls_port(c, sa)) ||
		    (port == c->https_port && server_doh_port(c, sa)))
			return true;
	}
	return false;
}

/* Append the record of one service to the image. */
static bool ddr_add(const struct cfg *c, bool doh, uint16_t prio, uint8_t *img,
                    size_t cap, size_t *len)
{
	struct ddr_endpoint e;
	uint8_t rdata[SERVER_DDR_RDATA];
	size_t n;

	memset(&e, 0, sizeof e);
	e.priority = prio;
	e.doh = doh;
	e.port = doh ? c->https_port : c->tls_port;
	e.path = c->http_endpoint;
	ddr_hints(c, e.port, &e);
	n = ddr_svcb(&e, rdata, sizeof rdata);
	return n > 0 && answer_rr_append(img, cap, len, ddr_owner,
	                                 ddr_owner_len, DDR_TYPE_SVCB,
	                                 WIRE_CLASS_IN, DDR_TTL, rdata, n);
}

bool server_ddr(struct server *s, const struct respond_query *q,
                const struct inflight_dest *d)
{
	const struct cfg *c = s->cfg;
	bool dot, doh;
	struct answer a;
	size_t len = 0;
	uint16_t prio = 1;

	if (!ddr_qname(q->lname, q->qnamelen) || q->qclass != WIRE_CLASS_IN ||
	    s->tls_ctx == NULL)
		return false;
	dot = ddr_listens(c, c->tls_port);
	doh = ddr_listens(c, c->https_port);
	if (!dot && !doh)
		return false;
	memset(&a, 0, sizeof a);
	if (q->qtype == DDR_TYPE_SVCB) {
		if (doh &&
		    !ddr_add(c, true, prio++, s->ans, sizeof s->ans, &len))
			return false;
		if (dot &&
		    !ddr_add(c, false, prio, s->ans, sizeof s->ans, &len))
			return false;
		a.an = s->ans;
		a.an_len = len;
		a.an_count = (uint16_t)(doh + dot);
	}
	s->st.ddr_answers++;
	server_answer(s, q, d, &a, false, QLOG_SRC_LOCAL, true);
	return true;
}
