/*
 * resolver/stats/stats.c - counters of one worker: summing, walking, printing.
 */
#include "stats.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cache.h"
#include "front/respond.h"
#include "wire/rrtext.h"
#include "wire/wire.h"

/** One named counter: its name, its offset in struct stats, its help. */
struct stats_field {
	const char *name;
	size_t off;
	const char *help;
	bool alias; /**< Unbound's name of a value listed above it */
};

#define STATS_F(n, f, h) \
	{ \
		n, offsetof(struct stats, f), h, false \
	}
#define STATS_A(n, f, h) \
	{ \
		n, offsetof(struct stats, f), h, true \
	}

static const struct stats_field stats_fields[] = {
	STATS_F("total.num.queries", queries, "client queries received"),
	STATS_F("num.query.udp", queries_udp, "client queries over UDP"),
	STATS_F("num.query.tcp", queries_tcp, "client queries over TCP"),
	STATS_F("num.query.tls", queries_tls,
	        "client queries over DNS over TLS (counted in tcp too)"),
	STATS_F("num.query.tls.resume", tls_resumed,
	        "client TLS handshakes that resumed a session"),
	STATS_F("num.query.https", queries_https,
	        "client queries over DNS over HTTPS (counted in tls too)"),
	STATS_F("num.query.https.error", doh_errors,
	        "DNS over HTTPS requests answered with an HTTP error"),
	STATS_F("num.answer.ddr", ddr_answers,
	        "_dns.resolver.arpa questions answered (RFC 9462)"),
	STATS_F("tls.handshakes", tls_handshakes,
	        "client TLS handshakes completed"),
	STATS_F("tls.failed", tls_failed,
	        "client TLS handshakes failed or not done in time"),
	STATS_F("acl.refused", acl_refused,
	        "queries answered REFUSED by access control"),
	STATS_F("acl.dropped", acl_dropped,
	        "queries dropped by access control"),
	STATS_F("num.query.proxy.bad", proxy_bad,
	        "packets from a proxy-protocol-from balancer without a valid "
	        "PROXY v2 header (dropped)"),
	STATS_F("num.ratelimited", ratelimited,
	        "queries dropped by the per-client rate limit"),
	STATS_F("num.query.dropped", dropped,
	        "packets not answered: QR set or too short"),
	STATS_F("total.num.cachehits", cache_hits,
	        "queries answered from the cache"),
	STATS_F("total.num.cachemiss", cache_misses,
	        "queries the cache could not answer"),
	STATS_F("num.answer.localzone", local_answers,
	        "queries answered from a local zone"),
	STATS_F("num.answer.localdata", localdata_answers,
	        "queries answered from local-data-file"),
	STATS_F("num.answer.blocked", blocked,
	        "queries answered NXDOMAIN by block-file"),
	STATS_F("num.expired", expired,
	        "answers served from expired data (serve-stale)"),
	STATS_F("num.prefetch", prefetch,
	        "cache answers refreshed in the background (prefetch)"),
	STATS_F("forward.queries", forward_queries,
	        "questions sent to forward-zone servers"),
	STATS_F("forward.failures", forward_failures,
	        "forwarded questions no forwarder answered"),
	STATS_F("num.query.nonrecursive", nonrecursive, "queries with RD=0"),
	STATS_F("num.answer.truncated", truncated,
	        "UDP answers sent with TC set"),
	STATS_F("num.answer.send_errors", send_errors,
	        "answers the kernel did not take"),
	STATS_F("tcp.accepted", tcp_accepted, "TCP client connections"),
	STATS_F("tcp.rejected", tcp_rejected,
	        "TCP connections refused at the cap"),
	STATS_F("tcp.idle_closed", tcp_idle_closed,
	        "TCP connections closed when idle"),
	STATS_F("inflight.started", inflight_started, "resolutions started"),
	STATS_F("inflight.joined", inflight_joined,
	        "queries joined to a resolution in flight"),
	STATS_F("total.requestlist.overwritten", inflight_evicted,
	        "resolutions jostled out under overload (jostle-timeout)"),
	STATS_F("total.requestlist.exceeded", inflight_refused,
	        "queries dropped under overload (no room)"),
	STATS_F("resolutions.done", resolutions_done, "resolutions finished"),
	STATS_F("resolutions.servfail", resolutions_servfail,
	        "resolutions that ended in SERVFAIL"),
	STATS_F("total.num.recursivereplies", recursive_replies,
	        "clients answered by a resolution"),
	STATS_F("upstream.sends", upstream_sends,
	        "packets sent upstream, all transports"),
	STATS_F("upstream.udp", upstream_udp, "upstream packets over UDP"),
	STATS_F("upstream.tcp", upstream_tcp, "upstream queries over TCP"),
	STATS_F("upstream.tls.queries", upstream_tls,
	        "upstream queries over TLS (forwarders, authoritative "
	        "servers)"),
	STATS_F("upstream.tls.dane.queries", upstream_tls_dane,
	        "upstream queries over TLS authenticated by DANE (a part "
	        "of upstream.tls.queries)"),
	STATS_F("upstream.tls.handshakes", upstream_tls_handshakes,
	        "TLS connections made (forwarders, authoritative servers)"),
	STATS_F("upstream.tls.resumed", upstream_tls_resumed,
	        "TLS connections that resumed a session"),
	STATS_F("upstream.tls.failures", upstream_tls_failures,
	        "TLS connections that failed (connect, handshake, checks)"),
	STATS_F("upstream.authtls.probes", upstream_authtls_probes,
	        "probes of authoritative servers for DNS over TLS (RFC 9539)"),
	STATS_F("upstream.authtls.works", upstream_authtls_works,
	        "probes that found DNS over TLS working"),
	STATS_F("upstream.authtls.failed", upstream_authtls_failed,
	        "authoritative servers whose TLS probe or connection failed "
	        "(plain until the damping ends)"),
	STATS_F("upstream.authtls.plain_retry", upstream_authtls_plain,
	        "TLS queries to authoritative servers asked again in plain"),
	STATS_F("upstream.authtls.dane", upstream_authtls_dane,
	        "queries over TLS authenticated by DANE (a TLSA 3 1 1 pin)"),
	STATS_F("upstream.authtls.dane_failed", upstream_authtls_dane_failed,
	        "DANE TLS connections that failed (pin mismatch, no TLS)"),
	STATS_F("upstream.replies", upstream_replies,
	        "valid upstream replies"),
	STATS_F("upstream.timeouts", upstream_timeouts,
	        "upstream queries timed out"),
	STATS_F("upstream.hedges", upstream_hedges,
	        "upstream queries hedged: the next server asked too"),
	STATS_F("upstream.unreachable", upstream_unreachable,
	        "upstream servers unreachable"),
	STATS_F("upstream.shared", upstream_shared,
	        "upstream queries joined to an equal one in flight"),
	STATS_F("upstream.ignored", upstream_ignored,
	        "upstream packets that matched no query"),
	STATS_F("unwanted.replies", unwanted_replies,
	        "upstream packets dropped: unmatched, forged or unopened"),
	STATS_F("upstream.formerr_edns", upstream_formerr_edns,
	        "FORMERR replies to queries with EDNS"),
	STATS_F("upstream.truncated", upstream_truncated,
	        "truncated upstream replies retried over TCP"),
	STATS_F("upstream.errors", upstream_errors,
	        "local send or socket failures"),
	STATS_F("upstream.lame", upstream_lame,
	        "replies that marked a server lame for its zone"),
	STATS_F("upstream.malformed", upstream_malformed,
	        "replies dropped: a record did not parse"),
	STATS_F("upstream.answers_noaa", upstream_noaa,
	        "answers used without the AA bit"),
	STATS_F("upstream.parent_fallback", upstream_fallback,
	        "failed zone cuts re-asked at the parent zone"),
	STATS_F("upstream.case_lost", upstream_case_lost,
	        "plain replies that lost the 0x20 case (asked again "
	        "in lowercase)"),
	STATS_F("upstream.private_stripped", upstream_private_stripped,
	        "answer address records removed by private-address"),
	STATS_F("upstream.zone_backoff", upstream_zone_backoff,
	        "questions failed at once: every server of their zone was "
	        "silent lately (RFC 9520 back-off)"),
	STATS_F("upstream.failure_cached", upstream_failure_cached,
	        "questions failed at once: their own resolution failed "
	        "within the last second (RFC 9520)"),
	STATS_F("upstream.zone_probe", upstream_zone_probe,
	        "background probes of a zone whose back-off ended, by a timer "
	        "at its end or the next question (no client waits; RFC 9520)"),
	STATS_F("curve.queries", curve_queries, "DNSCurve queries sent"),
	STATS_F("curve.queries.streamlined", curve_streamlined,
	        "DNSCurve queries in the streamlined format"),
	STATS_F("curve.queries.txt", curve_txt,
	        "DNSCurve queries in the TXT format"),
	STATS_F("curve.responses.ok", curve_responses_ok,
	        "DNSCurve responses opened and matched"),
	STATS_F("curve.responses.bad", curve_responses_bad,
	        "DNSCurve responses dropped: did not open or match"),
	STATS_F("curve.fallback.txt", curve_fallback_txt,
	        "TXT format tried after the streamlined one timed out"),
	STATS_F("curve.fallback.plain", curve_plain_fallback,
	        "plain queries to DNSCurve servers (config allows)"),
	STATS_F("curve.downgrade.refused", curve_downgrade_refused,
	        "key-less referrals or plain answers refused (curve-require, "
	        "curve-pin)"),
	STATS_F("curve.answers.dnscurve", answers_curve,
	        "answers whose data all came over DNSCurve"),
	STATS_F("curve.answers.plain", answers_plain,
	        "answers with data learned in plain DNS"),
	/* Unbound's names of values curvecache names its own way */
	STATS_A("total.num.prefetch", prefetch, "= num.prefetch"),
	STATS_A("total.num.expired", expired, "= num.expired"),
	STATS_A("total.num.queries_ip_ratelimited", ratelimited,
	        "= num.ratelimited"),
	STATS_A("num.query.tcpout", upstream_tcp, "= upstream.tcp"),
	STATS_A("num.query.udpout", upstream_udp, "= upstream.udp"),
	/* Unbound's extended statistics */
	STATS_F("num.answer.rcode.nodata", nodata,
	        "NOERROR answers without answer records"),
	STATS_F("num.query.edns.present", edns_present,
	        "client queries with EDNS"),
	STATS_F("num.query.edns.DO", edns_do,
	        "client queries with the DNSSEC OK bit"),
	STATS_F("num.query.ipv6", qipv6, "client queries over IPv6"),
	/* DNSSEC */
	STATS_F("num.answer.secure", answer_secure,
	        "answers whose data was validated secure (DNSSEC)"),
	STATS_F("num.answer.bogus", answer_bogus,
	        "answers of data that failed validation (SERVFAIL, or the "
	        "data to CD=1 clients)"),
	STATS_F("num.rrset.bogus", rrset_bogus,
	        "RRsets that failed DNSSEC validation"),
	STATS_F("num.query.aggressive.NOERROR", aggressive_nodata,
	        "NODATA answers synthesized from cached NSEC/NSEC3 "
	        "(RFC 8198)"),
	STATS_F("num.query.aggressive.NXDOMAIN", aggressive_nxdomain,
	        "NXDOMAIN answers synthesized from cached NSEC/NSEC3 "
	        "(RFC 8198)"),
	STATS_F("num.query.aggressive.wildcard", aggressive_wildcard,
	        "answers synthesized from a cached wildcard and the NSEC "
	        "that proves the name absent (RFC 8198 section 5.4)"),
	STATS_F("cachedb.hits", cachedb_hits,
	        "local cache misses answered from the Redis tier"),
	STATS_F("cachedb.misses", cachedb_misses,
	        "local cache misses the Redis tier did not hold"),
	STATS_F("cachedb.errors", cachedb_errors,
	        "Redis lookups that timed out, lost the connection or got a "
	        "reply of the wrong type"),
	STATS_F("cachedb.refused", cachedb_refused,
	        "Redis records refused: MAC (another secret), version, "
	        "question or a bad record"),
	STATS_F("cachedb.skipped", cachedb_skipped,
	        "local cache misses not looked up: Redis down"),
	STATS_F("cachedb.stores", cachedb_stores,
	        "resolutions written to the Redis tier"),
	STATS_F("cachedb.lookups", cachedb_lookups,
	        "Redis lookups that ended (hit, miss, error or refused)"),
	STATS_F("cachedb.lookup.usec", cachedb_lookup_usec,
	        "time of those lookups, summed, in microseconds"),
};

/** The EDE codes counted, index = slot of ede[] (stats_ede_index). */
static const uint16_t stats_ede_list[STATS_EDE_CODES] = {
	0, 1, 2, 3, 6, 7, 8, 9, 10, 12, 18, 22, 23, 27,
};

#define STATS_NFIELDS (sizeof stats_fields / sizeof stats_fields[0])
#define STATS_WORDS (sizeof(struct stats) / sizeof(uint64_t))

_Static_assert(sizeof(struct stats) % sizeof(uint64_t) == 0,
               "struct stats holds uint64_t only");

/** Names of the counted RCODEs, index = RCODE (Unbound's spelling). */
static const char *const stats_rcode_names[STATS_RCODES] = {
	"NOERROR",  "FORMERR", "SERVFAIL", "NXDOMAIN", "NOTIMPL", "REFUSED",
	"YXDOMAIN", "YXRRSET", "NXRRSET",  "NOTAUTH",  "NOTZONE", "RCODE11",
	"RCODE12",  "RCODE13", "RCODE14",  "RCODE15",
};

/** Query types reported even when zero (dashboards expect them). */
static const uint16_t stats_common_types[] = { 1,  2,  5,  6,  12,
	                                       15, 16, 28, 33, 255 };

/** Microseconds in a second; the sub-second buckets. */
#define STATS_USEC 1000000u
#define STATS_HIST_SUBSEC 20

static uint64_t stats_val(const struct stats *st, size_t off)
{
	uint64_t v;

	memcpy(&v, (const uint8_t *)st + off, sizeof v);
	return v;
}

void stats_thread_of(const struct stats *st, struct stats_thread *t)
{
	t->queries = st->queries;
	t->cache_hits = st->cache_hits;
	t->cache_misses = st->cache_misses;
	t->prefetch = st->prefetch;
	t->expired = st->expired;
	t->recursive_replies = st->recursive_replies;
	t->recursion_usec = st->recursion_usec;
	memcpy(t->hist, st->hist, sizeof t->hist);
	t->requestlist_sum = st->requestlist_sum;
	t->inflight_started = st->inflight_started;
	t->requestlist_max = st->requestlist_max;
	t->inflight_evicted = st->inflight_evicted;
	t->inflight_refused = st->inflight_refused;
	t->requestlist_now = 0;
}

void stats_add(struct stats *dst, const struct stats *src)
{
	uint64_t a, b,
		max = dst->requestlist_max > src->requestlist_max ?
	                      dst->requestlist_max :
	                      src->requestlist_max;
	size_t i;

	for (i = 0; i < STATS_WORDS; i++) {
		memcpy(&a, (uint8_t *)dst + i * sizeof a, sizeof a);
		memcpy(&b, (const uint8_t *)src + i * sizeof b, sizeof b);
		a += b;
		memcpy((uint8_t *)dst + i * sizeof a, &a, sizeof a);
	}
	dst->requestlist_max = max; /* a level, not a count */
}

void stats_sub(struct stats *dst, const struct stats *base)
{
	uint64_t a, b, max = dst->requestlist_max;
	size_t i;

	for (i = 0; i < STATS_WORDS; i++) {
		memcpy(&a, (uint8_t *)dst + i * sizeof a, sizeof a);
		memcpy(&b, (const uint8_t *)base + i * sizeof b, sizeof b);
		a = a >= b ? a - b : 0;
		memcpy((uint8_t *)dst + i * sizeof a, &a, sizeof a);
	}
	dst->requestlist_max = max; /* a level, not a count */
}

void stats_rcode(struct stats *st, unsigned rcode)
{
	st->rcode[rcode & (STATS_RCODES - 1)]++;
}

void stats_qtype(struct stats *st, uint16_t qtype)
{
	if (qtype < STATS_QTYPES)
		st->qtype[qtype]++;
	else
		st->qtype_other++;
}

void stats_query(struct stats *st, const struct respond_query *q, bool ipv6)
{
	st->qopcode[WIRE_OPCODE(q->flags) & (STATS_OPCODES - 1)]++;
	if (q->has_question) {
		stats_qtype(st, q->qtype);
		if (q->qclass < STATS_QCLASSES)
			st->qclass[q->qclass]++;
		else
			st->qclass_other++;
	}
	if (q->edns)
		st->edns_present++;
	if (q->edns && q->edns_do)
		st->edns_do++;
	if (ipv6)
		st->qipv6++;
}

void stats_answer(struct stats *st, unsigned rcode, uint16_t ancount)
{
	stats_rcode(st, rcode);
	if ((rcode & (STATS_RCODES - 1)) == WIRE_RCODE_NOERROR && ancount == 0)
		st->nodata++;
}

int stats_ede_index(uint16_t code)
{
	int i;

	for (i = 0; i < STATS_EDE_CODES; i++)
		if (stats_ede_list[i] == code)
			return i;
	return -1;
}

void stats_response_dnssec(struct stats *st, const struct respond_query *q,
                           const struct answer *a)
{
	struct respond_plan p;
	int i;

	respond_plan(q, a, &p);
	stats_answer(st, p.rcode, p.records ? a->an_count : 0);
	if (p.bogus)
		st->answer_bogus++;
	else if (a->sec == CACHE_SEC_SECURE &&
	         (p.rcode == WIRE_RCODE_NOERROR ||
	          p.rcode == WIRE_RCODE_NXDOMAIN))
		st->answer_secure++; /* an error is never a secure answer */
	i = p.ede ? stats_ede_index(p.ede_code) : -1;
	if (i >= 0)
		st->ede[i]++;
}

void stats_requestlist(struct stats *st, uint64_t running)
{
	st->requestlist_sum += running;
	if (running > st->requestlist_max)
		st->requestlist_max = running;
}

uint64_t stats_hist_upper_us(size_t i)
{
	if (i >= STATS_HIST_BUCKETS)
		return 0;
	if (i < STATS_HIST_SUBSEC)
		return (uint64_t)1 << i;
	return ((uint64_t)1 << (i - STATS_HIST_SUBSEC)) * STATS_USEC;
}

void stats_recursion(struct stats *st, uint64_t usec)
{
	size_t i;

	st->recursive_replies++;
	st->recursion_usec += usec;
	for (i = 0; i + 1 < STATS_HIST_BUCKETS; i++)
		if (usec < stats_hist_upper_us(i))
			break;
	st->hist[i]++;
}

double stats_recursion_quantile(const struct stats *st, double q)
{
	return stats_hist_quantile(st->hist, q);
}

double stats_hist_quantile(const uint64_t hist[STATS_HIST_BUCKETS], double q)
{
	uint64_t total = 0, cum = 0, lo;
	double target;
	size_t i;

	for (i = 0; i < STATS_HIST_BUCKETS; i++)
		total += hist[i];
	if (total == 0)
		return 0.0;
	target = q * (double)total;
	for (i = 0; i < STATS_HIST_BUCKETS; i++) {
		if (hist[i] > 0 && (double)(cum + hist[i]) >= target) {
			lo = i > 0 ? stats_hist_upper_us(i - 1) : 0;
			return ((double)lo +
			        (double)(stats_hist_upper_us(i) - lo) *
			                ((target - (double)cum) /
			                 (double)hist[i])) /
			       STATS_USEC;
		}
		cum += hist[i];
	}
	return (double)stats_hist_upper_us(STATS_HIST_BUCKETS - 1) /
	       STATS_USEC;
}

static bool stats_type_common(unsigned t)
{
	size_t i;

	for (i = 0;
	     i < sizeof stats_common_types / sizeof stats_common_types[0]; i++)
		if (stats_common_types[i] == t)
			return true;
	return false;
}

/* Report one labelled value: family.lvalue. */
static void stats_labelled(const char *family, const char *label,
                           const char *lvalue, const char *help, uint64_t v,
                           stats_walk_fn fn, void *arg)
{
	char name[STATS_NAME_MAX];
	struct stats_item it;

	snprintf(name, sizeof name, "%s.%s", family, lvalue);
	it.name = name;
	it.family = family;
	it.label = label;
	it.lvalue = lvalue;
	it.help = help;
	it.kind = STATS_COUNTER;
	it.value = v;
	it.alias = false;
	fn(&it, arg);
}

static void stats_walk_types(const struct stats *st, stats_walk_fn fn,
                             void *arg)
{
	static const char help[] = "client queries by type";
	char buf[RRTEXT_NAME_MAX];
	unsigned t;

	for (t = 0; t < STATS_QTYPES; t++)
		if (st->qtype[t] != 0 || stats_type_common(t))
			stats_labelled("num.query.type", "type",
			               rrtext_type_name((uint16_t)t, buf),
			               help, st->qtype[t], fn, arg);
	stats_labelled("num.query.type", "type", "other", help,
	               st->qtype_other, fn, arg);
}

/* Classes: IN always, the others when counted (Unbound's names). */
static void stats_walk_classes(const struct stats *st, stats_walk_fn fn,
                               void *arg)
{
	static const char help[] = "client queries by class";
	char buf[RRTEXT_NAME_MAX];
	unsigned c;

	for (c = 0; c < STATS_QCLASSES; c++)
		if (st->qclass[c] != 0 || c == WIRE_CLASS_IN)
			stats_labelled("num.query.class", "class",
			               rrtext_class_name((uint16_t)c, buf),
			               help, st->qclass[c], fn, arg);
	if (st->qclass_other != 0)
		stats_labelled("num.query.class", "class", "other", help,
		               st->qclass_other, fn, arg);
}

/* An OPCODE as Unbound names it: OPCODE6 where there is no name. */
static const char *stats_opcode_name(unsigned o, char buf[RRTEXT_NAME_MAX])
{
	const char *n = rrtext_opcode_name(o, buf);

	if (n == buf)
		snprintf(buf, RRTEXT_NAME_MAX, "OPCODE%u", o);
	return n;
}

/* OPCODEs: QUERY always, the others when counted. */
static void stats_walk_opcodes(const struct stats *st, stats_walk_fn fn,
                               void *arg)
{
	static const char help[] = "client queries by OPCODE";
	char buf[RRTEXT_NAME_MAX];
	unsigned o;

	for (o = 0; o < STATS_OPCODES; o++)
		if (st->qopcode[o] != 0 || o == WIRE_OPCODE_QUERY)
			stats_labelled("num.query.opcode", "opcode",
			               stats_opcode_name(o, buf), help,
			               st->qopcode[o], fn, arg);
}

/* EDE codes: every one counted, zero or not (num.answer.ede.CODE). */
static void stats_walk_ede(const struct stats *st, stats_walk_fn fn, void *arg)
{
	char code[RRTEXT_NAME_MAX];
	size_t i;

	for (i = 0; i < STATS_EDE_CODES; i++) {
		snprintf(code, sizeof code, "%u", (unsigned)stats_ede_list[i]);
		stats_labelled("num.answer.ede", "code", code,
		               "responses sent with an Extended DNS Error, "
		               "by INFO-CODE",
		               st->ede[i], fn, arg);
	}
}

/* Upstream queries by transport: plain, curve (DNSCurve), tls (without
 * DANE), tls_dane (a name of letters, digits, dots and underscores, as
 * every statistic: Unbound's readers split on nothing else); the four
 * add up to every upstream query. */
static void stats_walk_transport(const struct stats *st, stats_walk_fn fn,
                                 void *arg)
{
	static const char help[] = "upstream queries by transport";

	stats_labelled("upstream.transport", "transport", "plain", help,
	               st->upstream_plain, fn, arg);
	stats_labelled("upstream.transport", "transport", "curve", help,
	               st->curve_queries, fn, arg);
	stats_labelled("upstream.transport", "transport", "tls", help,
	               stats_tls_opportunistic(st), fn, arg);
	stats_labelled("upstream.transport", "transport", "tls_dane", help,
	               st->upstream_tls_dane, fn, arg);
}

/* Answers sent to clients by their transport (udp, tcp, tls, https:
 * each answer once, a DoH answer in https only), and the SERVFAIL
 * among them. */
static void stats_walk_client(const struct stats *st, stats_walk_fn fn,
                              void *arg)
{
	static const char *const names[STATS_TRANSPORTS] = { "udp", "tcp",
		                                             "tls", "https" };
	size_t i;

	for (i = 0; i < STATS_TRANSPORTS; i++)
		stats_labelled("num.answer.transport", "transport", names[i],
		               "answers sent to clients by transport",
		               st->answer_transport[i], fn, arg);
	for (i = 0; i < STATS_TRANSPORTS; i++)
		stats_labelled("num.answer.transport.servfail", "transport",
		               names[i],
		               "SERVFAIL answers sent to clients by transport",
		               st->servfail_transport[i], fn, arg);
}

void stats_walk(const struct stats *st, stats_walk_fn fn, void *arg)
{
	struct stats_item it;
	size_t i;

	for (i = 0; i < STATS_NFIELDS; i++) {
		it.name = stats_fields[i].name;
		it.family = stats_fields[i].name;
		it.label = NULL;
		it.lvalue = NULL;
		it.help = stats_fields[i].help;
		it.kind = STATS_COUNTER;
		it.value = stats_val(st, stats_fields[i].off);
		it.alias = stats_fields[i].alias;
		fn(&it, arg);
	}
	for (i = 0; i < STATS_RCODES; i++)
		stats_labelled("num.answer.rcode", "rcode",
		               stats_rcode_names[i], "answers sent by RCODE",
		               st->rcode[i], fn, arg);
	stats_walk_ede(st, fn, arg);
	stats_walk_client(st, fn, arg);
	stats_walk_transport(st, fn, arg);
	stats_walk_types(st, fn, arg);
	stats_walk_classes(st, fn, arg);
	stats_walk_opcodes(st, fn, arg);
}

/** Where stats_format writes. */
struct stats_out {
	char *out;
	size_t cap;
	size_t n; /**< what the whole text needs */
};

static void stats_put(struct stats_out *o, const char *name, uint64_t v)
{
	int k;

	k = snprintf(o->n < o->cap ? o->out + o->n : NULL,
	             o->n < o->cap ? o->cap - o->n : 0, "%s=%" PRIu64 "\n",
	             name, v);
	if (k > 0)
		o->n += (size_t)k;
}

static void stats_format_cb(const struct stats_item *it, void *arg)
{
	stats_put(arg, it->name, it->value);
}

size_t stats_format(const struct stats *st, char *out, size_t cap)
{
	struct stats_out o = { out, cap, 0 };
	char name[STATS_NAME_MAX];
	uint64_t lo = 0, hi;
	size_t i;

	if (cap > 0)
		out[0] = '\0';
	stats_walk(st, stats_format_cb, &o);
	for (i = 0; i < STATS_HIST_BUCKETS; i++) {
		hi = stats_hist_upper_us(i);
		snprintf(name, sizeof name,
		         "histogram.%06" PRIu64 ".%06" PRIu64 ".to.%06" PRIu64
		         ".%06" PRIu64,
		         lo / STATS_USEC, lo % STATS_USEC, hi / STATS_USEC,
		         hi % STATS_USEC);
		stats_put(&o, name, st->hist[i]);
		lo = hi;
	}
	return o.n;
}

/** What stats_get looks for. */
struct stats_find {
	const char *name;
	uint64_t value;
	bool found;
};

static void stats_find_cb(const struct stats_item *it, void *arg)
{
	struct stats_find *f = arg;

	if (!f->found && strcmp(it->name, f->name) == 0) {
		f->found = true;
		f->value = it->value;
	}
}

int stats_get(const struct stats *st, const char *name, uint64_t *value)
{
	struct stats_find f = { name, 0, false };
	char buf[RRTEXT_NAME_MAX];
	static const char tpfx[] = "num.query.type.";
	uint16_t t;

	stats_walk(st, stats_find_cb, &f);
	if (!f.found && strncmp(name, tpfx, sizeof tpfx - 1) == 0 &&
	    rrtext_type_parse(name + sizeof tpfx - 1, &t) == WIRE_OK &&
	    t < STATS_QTYPES &&
	    strcmp(rrtext_type_name(t, buf), name + sizeof tpfx - 1) == 0) {
		f.found = true;
		f.value = st->qtype[t];
	}
	if (!f.found)
		return -1;
	*value = f.value;
	return 0;
}
