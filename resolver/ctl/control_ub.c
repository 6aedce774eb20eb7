/*
 * resolver/ctl/control_ub.c - Unbound's everyday commands that read
 * curvecache's own tables in Unbound's words: dump_infra (the server
 * selection table, one line per address in the fields unbound-control
 * prints) and ratelimit_list (Unbound's per-zone rate limit, which
 * curvecache does not have: always empty). See control.h.
 *
 * dump_infra's fields, from what the table knows of an address:
 *   ADDR ZONE ttl T ping SRTT var 0 rtt SRTT rto RTO tA 0 tAAAA 0
 *   tother TIMEOUTS ednsknown 0|1 edns 0|-1 delay 0|1 lame dnssec 0|1
 *   rec 0|1 A 0 other 0
 * ZONE is the zone it was last asked about ("." if none noted); ttl is
 * what is left of Unbound's infra-host-ttl (900 s) since the address
 * last answered or failed; rto is SRTT doubled for each timeout in a
 * row (at most CONTROL_UB_RTO_MAX ms); ednsknown says whether an answer
 * (or the EDNS fallback) taught it; edns -1 means sent without EDNS;
 * delay 1 is curvecache's back-off; "lame dnssec" is the broken mark,
 * "rec" the lame one. Worker 0's table is shown, as servers does.
 */
#include <inttypes.h>
#include <stdio.h>

#include "base/clock.h"
#include "base/netaddr.h"
#include "control_int.h"
#include "front/server.h"
#include "infra/sel.h"
#include "wire/wire.h"

/** Unbound's default infra-host-ttl, seconds. */
#define CONTROL_UB_INFRA_TTL 900u
/** The largest rto shown, milliseconds (Unbound's cap). */
#define CONTROL_UB_RTO_MAX 120000u
/** Bytes of an address as text. */
#define CONTROL_UB_ADDR_TEXT 64
#define CONTROL_UB_MS 1000u

/* The seconds left of the infra TTL since the last news of the address. */
static uint64_t ub_ttl(const struct sel_info *i)
{
	uint64_t age = UINT64_MAX;

	if (i->answered)
		age = i->answer_age_ms;
	if (i->last_error != SEL_ERR_NONE && i->error_age_ms < age)
		age = i->error_age_ms;
	age = age == UINT64_MAX ? 0 : age / CONTROL_UB_MS;
	return age < CONTROL_UB_INFRA_TTL ? CONTROL_UB_INFRA_TTL - age : 0;
}

static uint32_t ub_rto(const struct sel_info *i)
{
	uint64_t rto = i->srtt_ms;
	uint32_t k;

	for (k = 0; k < i->timeouts && rto < CONTROL_UB_RTO_MAX; k++)
		rto *= 2;
	return rto < CONTROL_UB_RTO_MAX ? (uint32_t)rto : CONTROL_UB_RTO_MAX;
}

static int infra_cb(const struct sockaddr *sa, const struct sel_info *i,
                    void *arg)
{
	struct control_out *out = arg;
	char addr[CONTROL_UB_ADDR_TEXT], zone[WIRE_NAME_TEXT_MAX] = ".";

	netaddr_text(sa, addr, sizeof addr);
	if (i->zonelen > 0 && wire_name_to_text(i->zone, i->zonelen, zone,
	                                        sizeof zone, NULL) != WIRE_OK)
		snprintf(zone, sizeof zone, ".");
	control_out_printf(out,
	                   "%s %s ttl %" PRIu64 " ping %" PRIu32
	                   " var 0 rtt %" PRIu32 " rto %" PRIu32
	                   " tA 0 tAAAA 0 tother %" PRIu32
	                   " ednsknown %d edns %d delay %d lame dnssec %d "
	                   "rec %d A 0 other 0\n",
	                   addr, zone, ub_ttl(i), i->srtt_ms, i->srtt_ms,
	                   ub_rto(i), i->timeouts,
	                   i->answered || i->noedns ? 1 : 0,
	                   i->noedns ? -1 : 0, i->backoff ? 1 : 0,
	                   i->last_error == SEL_ERR_BROKEN ? 1 : 0,
	                   i->last_error == SEL_ERR_LAME ? 1 : 0);
	return out->full ? 1 : 0;
}

const char *control_cmd_ub_tables(struct control_cmd *c, char **argv,
                                  size_t argc, struct control_out *out,
                                  char *err)
{
	(void)argc;
	(void)err;
	if (argv[0][0] == 'r')
		return NULL; /* ratelimit_list: no zone rate limit here */
	(void)sel_walk(server_sel(c->env.srv), clock_ms(), infra_cb, out);
	return NULL;
}
