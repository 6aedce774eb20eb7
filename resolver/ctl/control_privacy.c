/*
 * resolver/ctl/control_privacy.c - the control command privacy: upstream
 * queries by transport since the start (plain, curve, tls, tls_dane),
 * the share sent encrypted, and the servers that took the most plain
 * queries (topk.h, TOPK_SERVERS: one table for every worker, noted
 * under a lock taken with trylock, merged by address at read); and the
 * same top servers as a Prometheus gauge for "stats prometheus".
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "control_int.h"
#include "front/server.h"
#include "stats/topk.h"
#include "wire/wire.h"

/** Servers in the Prometheus output. */
#define PRIVACY_PROM_SERVERS 10
/** Bytes of an address as text. */
#define PRIVACY_ADDR_TEXT 64
/** Percent. */
#define PRIVACY_PERCENT 100.0

/* The top servers asked in plain, merged by address, most first. */
static size_t privacy_top(struct topk_entry *e, uint64_t *noted,
                          uint64_t *skipped)
{
	size_t n = topk_peek(topk_shared(), TOPK_SERVERS, e, TOPK_TAKE_MAX,
	                     noted, skipped);

	return topk_merge_servers(e, n);
}

/* An entry's address and zone as text ("-": no zone known). */
static void privacy_entry_text(const struct topk_entry *e, char *addr,
                               size_t acap, char *zone, size_t zcap)
{
	size_t al = topk_addr_len(e);

	topk_client_text(e, addr, acap);
	if (al == 0 || e->keylen == al ||
	    wire_name_to_text(e->key + al, e->keylen - al, zone, zcap, NULL) !=
	            WIRE_OK)
		snprintf(zone, zcap, "-");
}

const char *control_cmd_privacy(struct control_cmd *c, char **argv,
                                size_t argc, struct control_out *out)
{
	const struct stats *st = server_stats(c->env.srv);
	struct topk_entry *e;
	char addr[PRIVACY_ADDR_TEXT], zone[WIRE_NAME_TEXT_MAX], *end;
	unsigned long want = TOPK_SHOW_DEFAULT;
	uint64_t noted = 0, skipped = 0;
	size_t i, n;

	if (argc > 1) {
		want = strtoul(argv[1], &end, 10);
		if (argv[1][0] == '\0' || *end != '\0' || want == 0 ||
		    want > TOPK_TAKE_MAX)
			return "N must be 1 to 64";
	}
	control_out_printf(out,
	                   "upstream.transport.plain=%" PRIu64 "\n"
	                   "upstream.transport.curve=%" PRIu64 "\n"
	                   "upstream.transport.tls=%" PRIu64 "\n"
	                   "upstream.transport.tls_dane=%" PRIu64 "\n"
	                   "upstream.transport.encrypted.percent=%.1f\n",
	                   st->upstream_plain, st->curve_queries,
	                   stats_tls_opportunistic(st), st->upstream_tls_dane,
	                   stats_encrypted_share(st) * PRIVACY_PERCENT);
	e = malloc(sizeof(*e) * TOPK_TAKE_MAX);
	if (e == NULL)
		return "out of memory";
	n = privacy_top(e, &noted, &skipped);
	control_out_printf(out,
	                   "plain.servers noted=%" PRIu64 " skipped=%" PRIu64
	                   "\n",
	                   noted, skipped);
	for (i = 0; i < n && i < want; i++) {
		privacy_entry_text(&e[i], addr, sizeof addr, zone,
		                   sizeof zone);
		control_out_printf(out, "plain.server %" PRIu64 " %s %s\n",
		                   e[i].count, addr, zone);
	}
	free(e);
	return NULL;
}

/* A label value with '\' and '"' escaped (the exposition format). */
static void privacy_label(const char *in, char *out, size_t cap)
{
	size_t o = 0;

	for (; *in != '\0' && o + 2 < cap; in++) {
		if (*in == '\\' || *in == '"')
			out[o++] = '\\';
		out[o++] = *in;
	}
	out[o] = '\0';
}

void control_privacy_prom(struct control_out *out)
{
	static const char m[] = "curvecache_upstream_plain_server_queries";
	char addr[PRIVACY_ADDR_TEXT], zone[WIRE_NAME_TEXT_MAX];
	char lzone[2 * WIRE_NAME_TEXT_MAX];
	struct topk_entry *e = malloc(sizeof(*e) * TOPK_TAKE_MAX);
	uint64_t noted = 0, skipped = 0;
	size_t i, n;

	if (e == NULL)
		return;
	n = privacy_top(e, &noted, &skipped);
	control_out_printf(out,
	                   "# HELP %s plain upstream queries since the start "
	                   "to the servers that took the most (at most %d; "
	                   "an upper bound)\n# TYPE %s gauge\n",
	                   m, PRIVACY_PROM_SERVERS, m);
	for (i = 0; i < n && i < PRIVACY_PROM_SERVERS; i++) {
		privacy_entry_text(&e[i], addr, sizeof addr, zone,
		                   sizeof zone);
		privacy_label(zone, lzone, sizeof lzone);
		control_out_printf(out,
		                   "%s{server=\"%s\",zone=\"%s\"} %" PRIu64
		                   "\n",
		                   m, addr, lzone, e[i].count);
	}
	free(e);
}
