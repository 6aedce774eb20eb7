/*
 * resolver/stats.c - counters of one worker: summing and printing.
 */
#include "stats.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/** One named counter: its name and its offset in struct stats. */
struct stats_field {
	const char *name;
	size_t off;
};

#define STATS_F(n, f) { n, offsetof(struct stats, f) }

static const struct stats_field stats_fields[] = {
	STATS_F("queries", queries),
	STATS_F("queries.udp", queries_udp),
	STATS_F("queries.tcp", queries_tcp),
	STATS_F("acl.refused", acl_refused),
	STATS_F("acl.dropped", acl_dropped),
	STATS_F("queries.dropped", dropped),
	STATS_F("cache.hits", cache_hits),
	STATS_F("cache.misses", cache_misses),
	STATS_F("local.answers", local_answers),
	STATS_F("queries.nonrecursive", nonrecursive),
	STATS_F("answers.truncated", truncated),
	STATS_F("answers.send_errors", send_errors),
	STATS_F("tcp.accepted", tcp_accepted),
	STATS_F("tcp.rejected", tcp_rejected),
	STATS_F("tcp.idle_closed", tcp_idle_closed),
	STATS_F("inflight.started", inflight_started),
	STATS_F("inflight.joined", inflight_joined),
	STATS_F("inflight.evicted", inflight_evicted),
	STATS_F("inflight.refused", inflight_refused),
	STATS_F("resolutions.done", resolutions_done),
	STATS_F("resolutions.servfail", resolutions_servfail),
	STATS_F("upstream.sends", upstream_sends),
	STATS_F("upstream.udp", upstream_udp),
	STATS_F("upstream.tcp", upstream_tcp),
	STATS_F("upstream.replies", upstream_replies),
	STATS_F("upstream.timeouts", upstream_timeouts),
	STATS_F("upstream.unreachable", upstream_unreachable),
	STATS_F("upstream.ignored", upstream_ignored),
	STATS_F("upstream.formerr_edns", upstream_formerr_edns),
	STATS_F("upstream.truncated", upstream_truncated),
	STATS_F("upstream.errors", upstream_errors),
	STATS_F("curve.queries", curve_queries),
	STATS_F("curve.queries.streamlined", curve_streamlined),
	STATS_F("curve.queries.txt", curve_txt),
	STATS_F("curve.responses.ok", curve_responses_ok),
	STATS_F("curve.responses.bad", curve_responses_bad),
	STATS_F("curve.plain_fallback", curve_plain_fallback),
};

#define STATS_NFIELDS (sizeof stats_fields / sizeof stats_fields[0])

/** Names of the counted RCODEs, index = RCODE. */
static const char *const stats_rcode_names[STATS_RCODES] = {
	"noerror", "formerr", "servfail", "nxdomain", "notimp", "refused",
	"yxdomain", "yxrrset", "nxrrset", "notauth", "notzone", "rcode11",
	"rcode12", "rcode13", "rcode14", "rcode15"
};

static uint64_t *stats_at(struct stats *st, size_t off)
{
	return (uint64_t *)(void *)((uint8_t *)st + off);
}

static uint64_t stats_val(const struct stats *st, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)st + off, sizeof v);
	return v;
}

void stats_add(struct stats *dst, const struct stats *src)
{
	size_t i;

	for (i = 0; i < STATS_NFIELDS; i++)
		*stats_at(dst, stats_fields[i].off) +=
			stats_val(src, stats_fields[i].off);
	for (i = 0; i < STATS_RCODES; i++)
		dst->rcode[i] += src->rcode[i];
}

void stats_rcode(struct stats *st, unsigned rcode)
{
	st->rcode[rcode & (STATS_RCODES - 1)]++;
}

/* Append one line; *n counts what the whole text needs. */
static void stats_line(char *out, size_t cap, size_t *n, const char *pfx,
                       const char *name, uint64_t v)
{
	int k;

	k = snprintf(*n < cap ? out + *n : NULL, *n < cap ? cap - *n : 0,
	             "%s%s=%" PRIu64 "\n", pfx, name, v);
	if (k > 0)
		*n += (size_t)k;
}

size_t stats_format(const struct stats *st, char *out, size_t cap)
{
	size_t i, n = 0;

	if (cap > 0)
		out[0] = '\0';
	for (i = 0; i < STATS_NFIELDS; i++)
		stats_line(out, cap, &n, "", stats_fields[i].name,
		           stats_val(st, stats_fields[i].off));
	for (i = 0; i < STATS_RCODES; i++)
		stats_line(out, cap, &n, "answers.rcode.",
		           stats_rcode_names[i], st->rcode[i]);
	return n;
}

int stats_get(const struct stats *st, const char *name, uint64_t *value)
{
	static const char rpfx[] = "answers.rcode.";
	size_t i;

	for (i = 0; i < STATS_NFIELDS; i++) {
		if (strcmp(name, stats_fields[i].name) == 0) {
			*value = stats_val(st, stats_fields[i].off);
			return 0;
		}
	}
	if (strncmp(name, rpfx, sizeof rpfx - 1) != 0)
		return -1;
	for (i = 0; i < STATS_RCODES; i++) {
		if (strcmp(name + sizeof rpfx - 1, stats_rcode_names[i]) == 0) {
			*value = st->rcode[i];
			return 0;
		}
	}
	return -1;
}
