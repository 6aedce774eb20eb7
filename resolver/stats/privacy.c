/*
 * resolver/stats/privacy.c - the count of a query sent upstream in plain:
 * the worker's counter, and its server in the top servers asked in plain
 * (topk.h, TOPK_SERVERS), which "curvecache-control privacy" and the
 * Prometheus output show (resolver/ctl/control_privacy.c).
 */
#include "stats.h"
#include "topk.h"

void stats_plain_sent(struct stats *st, const struct sockaddr *sa,
                      const uint8_t *zone, size_t zonelen)
{
	st->upstream_plain++;
	topk_note_server(topk_shared(), sa, zone, zonelen);
}
