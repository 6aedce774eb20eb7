/*
 * resolver/front/qlog.c - the query log line (see qlog.h).
 */
#include "qlog.h"

#include <stdio.h>

#include "cache.h"
#include "base/log.h"
#include "wire/rrtext.h"
#include "server.h"
#include "wire/wire.h"

/** Bytes of a client address as text ("ffff:...@65535"). */
#define QLOG_ADDR_BYTES 64

static const char *const qlog_src_names[] = {
	"none", "local", "cache", "referral", "resolved",
};

/* proto= of a line, by enum qlog_proto. */
static const char *qlog_proto_name(int proto)
{
	switch (proto) {
	case QLOG_TCP: return "tcp";
	case QLOG_TLS: return "tls";
	case QLOG_HTTPS: return "https";
	default: return "udp";
	}
}

static void qlog_line(const struct respond_query *q,
                      const struct sockaddr *client, int proto, unsigned rcode,
                      enum qlog_src src, bool curve, uint8_t sec)
{
	char addr[QLOG_ADDR_BYTES], name[WIRE_NAME_TEXT_MAX];
	char tbuf[RRTEXT_NAME_MAX], rbuf[RRTEXT_NAME_MAX];
	const char *type = "-";

	server_addr_text(client, addr, sizeof addr);
	if (!q->has_question ||
	    wire_name_to_text(q->lname, q->qnamelen, name, sizeof name,
	                      NULL) != WIRE_OK)
		snprintf(name, sizeof name, "-");
	else
		type = rrtext_type_name(q->qtype, tbuf);
	if ((unsigned)src >= sizeof qlog_src_names / sizeof qlog_src_names[0])
		src = QLOG_SRC_NONE;
	log_query("client=%s proto=%s name=%s type=%s rcode=%s cached=%s "
	          "src=%s curve=%s dnssec=%s",
	          addr[0] ? addr : "-", qlog_proto_name(proto), name, type,
	          rrtext_rcode_name(rcode, rbuf),
	          src == QLOG_SRC_CACHE || src == QLOG_SRC_REFERRAL ? "yes" :
	                                                              "no",
	          qlog_src_names[src], curve ? "yes" : "no",
	          respond_sec_name(sec));
}

void qlog_write(const struct respond_query *q, const struct sockaddr *client,
                int proto, unsigned rcode, enum qlog_src src, bool curve)
{
	qlog_line(q, client, proto, rcode, src, curve, CACHE_SEC_UNCHECKED);
}

void qlog_answer(const struct respond_query *q, const struct sockaddr *client,
                 int proto, enum qlog_src src, const struct answer *a)
{
	struct respond_plan p;
	uint8_t sec = a->sec;

	respond_plan(q, a, &p);
	/* a failure is no secure data, whatever parts of it validated (a
	 * CNAME loop in a signed zone, a cap hit after a secure link) */
	if (sec == CACHE_SEC_SECURE && p.rcode != WIRE_RCODE_NOERROR &&
	    p.rcode != WIRE_RCODE_NXDOMAIN)
		sec = CACHE_SEC_UNCHECKED;
	qlog_line(q, client, proto, p.rcode, src, a->curve, sec);
}
