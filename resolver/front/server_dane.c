/*
 * resolver/front/server_dane.c - the background TLSA lookups of DANE
 * (issue 24, RFC 7671). The transport names the NS of a server that
 * takes opportunistic TLS, in a DNSSEC-secure zone, whose TLSA is not
 * cached (upstream_set_tlsa_want, iter_target.dane_want): its
 * _853._tcp.NS TLSA is queued and asked on the next loop turn (never
 * from inside the iterator step of the client's resolution) by a
 * resolution with no client (server_probe). Once that RRset is cached
 * SECURE with a usable record, the next queries to the server go by
 * DANE. A name is asked once per SERVER_DANE_AGAIN_MS at most (a lookup
 * that fails leaves nothing in the cache), at most SERVER_DANE_QUEUE
 * queued per worker, none while the worker is half full.
 */
#include "server_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "transport/upstream.h"
#include "validate/tlsa.h"

/** Names queued per worker; names remembered as asked. */
#define SERVER_DANE_QUEUE 16
#define SERVER_DANE_RECENT 64
/** A name is not asked again before this long. */
#define SERVER_DANE_AGAIN_MS 60000u

/** The labels put before an NS name for its TLSA: _853._tcp. */
static const uint8_t server_dane_prefix[] = "\004_853\004_tcp";
#define SERVER_DANE_PREFIX_BYTES (sizeof server_dane_prefix - 1)

struct server_dane_name {
	uint8_t name[WIRE_NAME_MAX];
	size_t len;
};

struct server_dane {
	struct server *s;
	uv_timer_t timer; /**< starts the lookups queued */
	size_t nq;
	struct server_dane_name q[SERVER_DANE_QUEUE];
	uint64_t recent[SERVER_DANE_RECENT]; /**< name hashes asked */
	uint64_t recent_ms[SERVER_DANE_RECENT];
	size_t next; /**< the ring's next slot */
};

/* Was the name asked lately? If not, it is now. */
static bool server_dane_recent(struct server_dane *d, uint64_t h, uint64_t now)
{
	size_t i;

	for (i = 0; i < SERVER_DANE_RECENT; i++)
		if (d->recent[i] == h &&
		    now - d->recent_ms[i] < SERVER_DANE_AGAIN_MS)
			return true;
	d->recent[d->next] = h;
	d->recent_ms[d->next] = now;
	d->next = (d->next + 1) % SERVER_DANE_RECENT;
	return false;
}

static void server_dane_ended(void *arg)
{
	(void)arg;
}

static void server_dane_cb(uv_timer_t *t)
{
	struct server_dane *d = t->data;
	struct server *s = d->s;
	char text[WIRE_NAME_TEXT_MAX];

	while (d->nq > 0) {
		const struct server_dane_name *n = &d->q[--d->nq];

		if (s->stopping ||
		    inflight_count(s->inflight) >= SERVER_RES_MAX / 2 ||
		    inflight_find(s->inflight, n->name, n->len, TLSA_RR_TYPE,
		                  WIRE_CLASS_IN) != NULL ||
		    server_probe(s, n->name, n->len, TLSA_RR_TYPE,
		                 server_dane_ended, d) != SERVER_OK)
			continue;
		if (wire_name_to_text(n->name, n->len, text, sizeof text,
		                      NULL) == WIRE_OK)
			log_debug("dane_lookup", "name=%s", text);
	}
}

/* The worker's queue, made at the first name. */
static struct server_dane *server_dane_get(struct server *s)
{
	struct server_dane *d = s->dane;

	if (d != NULL)
		return d;
	if ((d = calloc(1, sizeof *d)) == NULL)
		return NULL;
	if (uv_timer_init(s->loop, &d->timer) != 0) {
		free(d);
		return NULL;
	}
	d->s = s;
	d->timer.data = d;
	s->dane = d;
	return d;
}

void server_dane_want(void *arg, const char *ns)
{
	struct server *s = arg;
	struct server_dane *d;
	struct server_dane_name *n;
	uint8_t w[WIRE_NAME_MAX];
	size_t len = 0;

	if (s == NULL || s->stopping || ns == NULL ||
	    wire_name_from_text(ns, strlen(ns), w, &len) != WIRE_OK ||
	    len + SERVER_DANE_PREFIX_BYTES > WIRE_NAME_MAX ||
	    (d = server_dane_get(s)) == NULL || d->nq >= SERVER_DANE_QUEUE)
		return;
	n = &d->q[d->nq];
	memcpy(n->name, server_dane_prefix, SERVER_DANE_PREFIX_BYTES);
	memcpy(n->name + SERVER_DANE_PREFIX_BYTES, w, len);
	n->len = SERVER_DANE_PREFIX_BYTES + len;
	wire_name_lower(n->name, n->len);
	if (server_dane_recent(d, base_fnv1a(n->name, n->len, 0), clock_ms()))
		return;
	if (++d->nq == 1)
		uv_timer_start(&d->timer, server_dane_cb, 0, 0);
}

static void server_dane_closed(uv_handle_t *h)
{
	free(h->data);
}

void server_dane_stop(struct server *s)
{
	if (s->dane == NULL)
		return;
	s->dane->nq = 0;
	uv_close((uv_handle_t *)&s->dane->timer, server_dane_closed);
	s->dane = NULL;
}
