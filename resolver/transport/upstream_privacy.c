/*
 * resolver/transport/upstream_privacy.c - what the privacy report reads
 * of a worker's transport: its RFC 9539 table (upstream.h), and the
 * transport a reply came over, which the iterator stores with the data
 * (cache.h, enum cache_via; the control socket's lookup shows it).
 */
#include "upstream_int.h"

#include "cache.h"

const struct authtls *upstream_authtls_table(const struct upstream *u)
{
	return u != NULL ? u->authtls : NULL;
}

uint8_t upstream_reply_via(const struct upstream_att *a)
{
	if (a == NULL)
		return CACHE_VIA_PLAIN;
	if (a->tls && a->q != NULL && a->q->t.dane)
		return CACHE_VIA_TLS_DANE; /* authenticated by its TLSA */
	if (a->tls) /* opp: an authoritative server; else a forwarder */
		return a->opp ? CACHE_VIA_TLS : CACHE_VIA_FWD_TLS;
	return a->s.mode != EXCHANGE_PLAIN ? CACHE_VIA_CURVE : CACHE_VIA_PLAIN;
}
