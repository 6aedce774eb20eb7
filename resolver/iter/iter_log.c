/*
 * resolver/iter/iter_log.c - the failure lines of a resolution at the
 * default log level (iter_log.h): the zone and reason of a DNSSEC
 * failure, the zone and last server of a SERVFAIL.
 */
#include "iter_log.h"

#include <string.h>

#include "cache.h"
#include "iter_int.h"
#include "base/log.h"
#include "base/netaddr.h"
#include "conf/cfg.h"
#include "validate/dnssec.h"
#include "wire/rrtext.h"

/* A wire name as text, "-" when it cannot be written. */
static void iter_log_name(const uint8_t *name, size_t len, char *out)
{
	if (len == 0 || wire_name_to_text(name, len, out, WIRE_NAME_TEXT_MAX,
	                                  NULL) != WIRE_OK)
		strcpy(out, "-");
}

void iter_log_server(struct iter_req *req, const struct iter_out *o,
                     const uint8_t *zone, size_t zlen, const char *what)
{
	struct iter_log_note *l = &req->lognote;

	l->sa = o->sa;
	l->what = what;
	if (zone == NULL || zlen > WIRE_NAME_MAX)
		zlen = 0;
	else
		memcpy(l->zone, zone, zlen);
	l->zlen = (uint8_t)zlen;
}

void iter_log_reply(struct iter_req *req, const struct iter_out *o,
                    const uint8_t *zone, size_t zlen)
{
	static const char *const kinds[] = { "answer",   "cname",  "referral",
		                             "nxdomain", "nodata", "lame",
		                             "error" };
	const struct iter_class *c = &iter_cls;
	const char *what = (unsigned)c->kind < sizeof kinds / sizeof *kinds ?
	                           kinds[c->kind] :
	                           "error";

	if ((c->kind == ITER_K_LAME || c->kind == ITER_K_ERROR) &&
	    c->why != NULL)
		what = c->why;
	iter_log_server(req, o, zone, zlen, what);
}

void iter_log_bogus(struct iter_req *req, const uint8_t *zone, size_t zlen,
                    int status)
{
	struct iter_log_note *l = &req->lognote;

	if (zlen == 0 || zlen > WIRE_NAME_MAX || status == DNSSEC_OK ||
	    status == DNSSEC_EBUDGET)
		return;
	memcpy(l->bogus_zone, zone, zlen);
	l->bogus_zlen = (uint8_t)zlen;
	l->bogus_status = status;
	l->bogus_from = l->what != NULL;
	if (l->bogus_from)
		l->bogus_sa = l->sa;
	/* the server's data was bogus: that is what it did */
	if (l->what != NULL)
		l->what = "bogus";
}

void iter_log_finish(struct iter_req *req)
{
	const struct iter_log_note *l = &req->lognote;
	const struct iter_frame *f = req->frame[0];
	char zone[WIRE_NAME_TEXT_MAX], name[WIRE_NAME_TEXT_MAX];
	char server[ITER_LOG_SERVER_TEXT], tbuf[RRTEXT_NAME_MAX];

	if (!req->val_any || req->val_sec != CACHE_SEC_BOGUS ||
	    l->bogus_zlen == 0 || f == NULL || log_level() < CFG_LOG_INFO)
		return;
	iter_log_name(l->bogus_zone, l->bogus_zlen, zone);
	iter_log_name(f->sname, f->snamelen, name);
	if (l->bogus_from)
		netaddr_text((const struct sockaddr *)&l->bogus_sa, server,
		             sizeof server);
	else
		strcpy(server, "-");
	/* the EDE's text when there is one: the line and the client's
	 * EDE then tell the same reason */
	log_info_limited("dnssec_failure",
	                 "zone=%s reason=%s name=%s type=%s server=%s", zone,
	                 req->val_ede && req->val_ede_text != NULL ?
	                         req->val_ede_text :
	                         dnssec_strerror(l->bogus_status),
	                 name, rrtext_type_name(f->qtype, tbuf), server);
}

const char *iter_fail_where(const struct iter_req *req, char *zone,
                            char *server)
{
	const struct iter_log_note *l;

	strcpy(zone, "-");
	strcpy(server, "-");
	if (req == NULL || req->lognote.what == NULL)
		return "-";
	l = &req->lognote;
	iter_log_name(l->zone, l->zlen, zone);
	netaddr_text((const struct sockaddr *)&l->sa, server,
	             ITER_LOG_SERVER_TEXT);
	return l->what;
}
