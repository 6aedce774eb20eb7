/*
 * resolver/ctl/control_stats.c - the stats commands: every counter of the
 * daemon (the worker's, the cache's, the DNSCurve client's, the
 * selection table's) read at one moment, less the baseline of the last
 * reset, written as name=value lines, Prometheus text or JSON.
 *
 * Prometheus names, one scheme for every metric: "curvecache_" and the
 * dotted name in lower case with '.' as '_' and Unbound's "total."
 * dropped, "_total" after counters, a unit after times and sizes
 * ("_seconds", "_bytes"), "_entries" after counts of things held;
 * labelled families (num.query.type, num.answer.rcode) become one metric
 * with a "type" or "rcode" label; the recursion-time buckets become the
 * histogram curvecache_recursion_time_seconds; curvecache_build_info is
 * 1 with the versions as labels (Prometheus' custom for build facts).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "control_int.h"
#include "infra/sel.h"
#include "front/server.h"

#include <ares.h>
#include <openssl/crypto.h>
#include <sodium.h>
#include <uv.h>

/** Bytes of a Prometheus metric name. */
#define CONTROL_PROM_NAME 96
/** Microseconds and milliseconds per second. */
#define CONTROL_USEC 1000000u
#define CONTROL_MSEC 1000u

/** Prometheus names that the mechanical rule would get wrong. */
static const struct {
	const char *family;
	const char *prom;
} control_prom_names[] = {
	{ "rrset.cache.count", "curvecache_rrset_cache_entries" },
	{ "infra.cache.count", "curvecache_infra_cache_entries" },
	{ "mem.cache.rrset", "curvecache_mem_cache_rrset_bytes" },
	{ "mem.cache.limit", "curvecache_mem_cache_limit_bytes" },
	{ "mem.cache.message", "curvecache_mem_cache_message_bytes" },
	{ "msg.cache.count", "curvecache_msg_cache_entries" },
	{ "time.now", "curvecache_time_now_seconds" },
	{ "time.up", "curvecache_time_up_seconds" },
	{ "time.elapsed", "curvecache_time_elapsed_seconds" },
};

/* ------------------------------------------------------------------ */
/* Reading                                                             */

static uint64_t minus(uint64_t a, uint64_t b)
{
	return a >= b ? a - b : 0;
}

static int snap_server_cb(const struct sockaddr *sa,
                          const struct sel_info *info, void *arg)
{
	struct control_snap *s = arg;

	(void)sa;
	s->servers++;
	if (info->curve)
		s->servers_curve++;
	return 0;
}

/** What snap_resolutions_one fills: the snapshot, the next thread. */
struct snap_each {
	struct control_snap *s;
	size_t i;
};

/* On a worker: its resolutions running now (threadN.requestlist.
 * current.all); the total is their sum. */
static void snap_resolutions_one(struct server *srv, struct cfg *cfg,
                                 void *arg)
{
	struct snap_each *x = arg;
	uint64_t n = server_resolutions(srv);

	(void)cfg;
	if (x->i < x->s->nthr)
		x->s->thr[x->i].requestlist_now = n;
	x->i++;
	x->s->requestlist += n;
}

void control_snap_take(const struct control_env *env, struct control_snap *s)
{
	struct snap_each x = { s, 0 };

	memset(s, 0, sizeof(*s));
	s->st = *server_stats_threads(env->srv, s->thr, STATS_THREADS_MAX,
	                              &s->nthr);
	cache_stats_get(env->cache, &s->cache);
	if (env->curve != NULL)
		curve_client_stats(env->curve, &s->curve);
	if (env->each != NULL)
		env->each(env->each_arg, snap_resolutions_one, &x);
	else
		snap_resolutions_one(env->srv, NULL, &x);
	s->tcpusage = minus(s->st.tcp_opened, s->st.tcp_freed);
	(void)sel_walk(server_sel(env->srv), clock_ms(), snap_server_cb, s);
	s->mono_ms = clock_ms();
}

/* One thread's counters less the baseline; levels (requestlist max
 * and now) stay as they are. */
static void thread_sub(struct stats_thread *t, const struct stats_thread *o)
{
	size_t i;

	t->queries = minus(t->queries, o->queries);
	t->cache_hits = minus(t->cache_hits, o->cache_hits);
	t->cache_misses = minus(t->cache_misses, o->cache_misses);
	t->prefetch = minus(t->prefetch, o->prefetch);
	t->expired = minus(t->expired, o->expired);
	t->recursive_replies = minus(t->recursive_replies,
	                             o->recursive_replies);
	t->recursion_usec = minus(t->recursion_usec, o->recursion_usec);
	for (i = 0; i < STATS_HIST_BUCKETS; i++)
		t->hist[i] = minus(t->hist[i], o->hist[i]);
	t->requestlist_sum = minus(t->requestlist_sum, o->requestlist_sum);
	t->inflight_started = minus(t->inflight_started, o->inflight_started);
	t->inflight_evicted = minus(t->inflight_evicted, o->inflight_evicted);
	t->inflight_refused = minus(t->inflight_refused, o->inflight_refused);
}

/* Counters less the baseline; levels stay as they are. */
static void snap_sub(struct control_snap *s, const struct control_snap *b)
{
	size_t i;

	stats_sub(&s->st, &b->st);
	s->cache.hits = minus(s->cache.hits, b->cache.hits);
	s->cache.misses = minus(s->cache.misses, b->cache.misses);
	s->cache.stale_hits = minus(s->cache.stale_hits, b->cache.stale_hits);
	s->cache.inserts = minus(s->cache.inserts, b->cache.inserts);
	s->cache.rank_kept = minus(s->cache.rank_kept, b->cache.rank_kept);
	s->cache.evictions = minus(s->cache.evictions, b->cache.evictions);
	s->cache.expired = minus(s->cache.expired, b->cache.expired);
	s->cache.too_big = minus(s->cache.too_big, b->cache.too_big);
	s->curve.shared_hits = minus(s->curve.shared_hits,
	                             b->curve.shared_hits);
	s->curve.shared_misses = minus(s->curve.shared_misses,
	                               b->curve.shared_misses);
	s->curve.shared_evictions = minus(s->curve.shared_evictions,
	                                  b->curve.shared_evictions);
	s->curve.rotations = minus(s->curve.rotations, b->curve.rotations);
	for (i = 0; i < s->nthr && i < b->nthr; i++)
		thread_sub(&s->thr[i], &b->thr[i]);
}

/* ------------------------------------------------------------------ */
/* The values beyond the worker's counters                             */

/** An extra value: name, kind, help, and where it is in a snapshot. */
struct control_extra {
	const char *name;
	enum stats_kind kind;
	const char *help;
	uint64_t (*get)(const struct control_snap *s,
	                const struct control_cmd *c);
};

#define X_GET(fn, expr) \
	static uint64_t fn(const struct control_snap *s, \
	                   const struct control_cmd *c) \
	{ \
		(void)s; \
		(void)c; \
		return (uint64_t)(expr); \
	}

X_GET(x_reqlist, s->requestlist)
X_GET(x_reqlist_max, s->st.requestlist_max)
X_GET(x_tcpusage, s->tcpusage)
X_GET(x_none, 0)
X_GET(x_mem, s->cache.bytes)
X_GET(x_mem_limit, s->cache.max_bytes)
X_GET(x_entries, s->cache.entries)
X_GET(x_inserts, s->cache.inserts)
X_GET(x_evictions, s->cache.evictions)
X_GET(x_expired, s->cache.expired)
X_GET(x_rank_kept, s->cache.rank_kept)
X_GET(x_too_big, s->cache.too_big)
X_GET(x_servers, s->servers)
X_GET(x_curve_servers, s->servers_curve)
X_GET(x_sk_hits, s->curve.shared_hits)
X_GET(x_sk_misses, s->curve.shared_misses)
X_GET(x_sk_evictions, s->curve.shared_evictions)
X_GET(x_sk_entries, s->curve.shared_entries)
X_GET(x_rotations, s->curve.rotations)
X_GET(x_now, time(NULL))
X_GET(x_up, (uint64_t)time(NULL) > (uint64_t)c->env.start_wall ?
                    (uint64_t)time(NULL) - (uint64_t)c->env.start_wall :
                    0)
X_GET(x_elapsed, minus(s->mono_ms, c->base.mono_ms) / CONTROL_MSEC)

static const struct control_extra control_extras[] = {
	{ "total.requestlist.current.all", STATS_GAUGE,
	  "resolutions running now", x_reqlist },
	{ "total.requestlist.current.user", STATS_GAUGE,
	  "resolutions running now for clients' questions (prefetches "
	  "included: curvecache does not tell them apart)",
	  x_reqlist },
	{ "total.requestlist.max", STATS_GAUGE,
	  "most resolutions running at once since the start", x_reqlist_max },
	{ "total.tcpusage", STATS_GAUGE, "client TCP connections open",
	  x_tcpusage },
	{ "mem.cache.rrset", STATS_GAUGE, "bytes the cache holds", x_mem },
	{ "mem.cache.message", STATS_GAUGE,
	  "no message cache: answers are "
	  "built from the RRset cache",
	  x_none },
	{ "mem.cache.limit", STATS_GAUGE, "the cache's memory bound",
	  x_mem_limit },
	{ "msg.cache.count", STATS_GAUGE,
	  "no message cache: answers are built from the RRset cache", x_none },
	{ "rrset.cache.count", STATS_GAUGE, "entries in the cache",
	  x_entries },
	{ "cache.inserts", STATS_COUNTER, "entries stored", x_inserts },
	{ "cache.evictions", STATS_COUNTER, "fresh entries pushed out",
	  x_evictions },
	{ "cache.expired", STATS_COUNTER, "expired entries reclaimed",
	  x_expired },
	{ "cache.rank_kept", STATS_COUNTER,
	  "stores refused: better data cached", x_rank_kept },
	{ "cache.too_big", STATS_COUNTER, "stores refused: too large",
	  x_too_big },
	{ "infra.cache.count", STATS_GAUGE,
	  "server addresses in the selection table", x_servers },
	{ "curve.servers.known", STATS_GAUGE,
	  "server addresses with a DNSCurve key", x_curve_servers },
	{ "curve.sharedkey.hits", STATS_COUNTER,
	  "DNSCurve shared keys found precomputed", x_sk_hits },
	{ "curve.sharedkey.misses", STATS_COUNTER,
	  "DNSCurve shared keys computed", x_sk_misses },
	{ "curve.sharedkey.evictions", STATS_COUNTER,
	  "DNSCurve shared keys pushed out", x_sk_evictions },
	{ "curve.sharedkey.entries", STATS_GAUGE, "DNSCurve shared keys held",
	  x_sk_entries },
	{ "curve.key.rotations", STATS_COUNTER,
	  "DNSCurve client key rotations", x_rotations },
	{ "time.now", STATS_GAUGE, "the clock, Unix seconds", x_now },
	{ "time.up", STATS_GAUGE, "seconds since start", x_up },
	{ "time.elapsed", STATS_GAUGE, "seconds since the last reset",
	  x_elapsed },
};

#define CONTROL_NEXTRAS (sizeof control_extras / sizeof control_extras[0])

/** The per-thread values: families "thread.X", shown as Unbound's
 *  "threadN.X". */
static const struct {
	const char *family;
	const char *help;
	size_t off;
	enum stats_kind kind;
} control_thread_vals[] = {
	{ "thread.num.queries", "client queries received, by thread",
	  offsetof(struct stats_thread, queries), STATS_COUNTER },
	{ "thread.num.cachehits", "answered from the cache, by thread",
	  offsetof(struct stats_thread, cache_hits), STATS_COUNTER },
	{ "thread.num.cachemiss", "went to a resolution, by thread",
	  offsetof(struct stats_thread, cache_misses), STATS_COUNTER },
	{ "thread.num.prefetch", "background refreshes started, by thread",
	  offsetof(struct stats_thread, prefetch), STATS_COUNTER },
	{ "thread.num.expired", "answered stale, by thread",
	  offsetof(struct stats_thread, expired), STATS_COUNTER },
	{ "thread.num.recursivereplies",
	  "clients answered by a resolution, "
	  "by thread",
	  offsetof(struct stats_thread, recursive_replies), STATS_COUNTER },
	{ "thread.requestlist.max",
	  "most resolutions running at once since the start, by thread",
	  offsetof(struct stats_thread, requestlist_max), STATS_GAUGE },
	{ "thread.requestlist.overwritten",
	  "resolutions ended to make room for new ones, by thread",
	  offsetof(struct stats_thread, inflight_evicted), STATS_COUNTER },
	{ "thread.requestlist.exceeded",
	  "queries refused: the request list was full, by thread",
	  offsetof(struct stats_thread, inflight_refused), STATS_COUNTER },
	{ "thread.requestlist.current.all",
	  "resolutions running now, by thread",
	  offsetof(struct stats_thread, requestlist_now), STATS_GAUGE },
	{ "thread.requestlist.current.user",
	  "resolutions running now for clients' questions, by thread",
	  offsetof(struct stats_thread, requestlist_now), STATS_GAUGE },
};

#define CONTROL_NTHREADVALS \
	(sizeof control_thread_vals / sizeof control_thread_vals[0])

/* The per-thread values: "thread0.num.queries", family
 * "thread.num.queries" with the label thread="0" for Prometheus. */
static void snap_walk_threads(const struct control_snap *s, stats_walk_fn fn,
                              void *arg)
{
	static const char pre[] = "thread.";
	char name[STATS_NAME_MAX], num[24];
	struct stats_item it;
	size_t i, t;

	for (i = 0; i < CONTROL_NTHREADVALS; i++) {
		for (t = 0; t < s->nthr; t++) {
			snprintf(name, sizeof name, "thread%zu.%s", t,
			         control_thread_vals[i].family + sizeof pre -
			                 1);
			snprintf(num, sizeof num, "%zu", t);
			memset(&it, 0, sizeof it);
			it.name = name;
			it.family = control_thread_vals[i].family;
			it.label = "thread";
			it.lvalue = num;
			it.help = control_thread_vals[i].help;
			it.kind = control_thread_vals[i].kind;
			memcpy(&it.value,
			       (const char *)&s->thr[t] +
			               control_thread_vals[i].off,
			       sizeof it.value);
			fn(&it, arg);
		}
	}
}

/* Every value: the worker's counters, then the extras. */
static void snap_walk(const struct control_snap *s,
                      const struct control_cmd *c, stats_walk_fn fn, void *arg)
{
	struct stats_item it;
	size_t i;

	stats_walk(&s->st, fn, arg);
	for (i = 0; i < CONTROL_NEXTRAS; i++) {
		memset(&it, 0, sizeof it);
		it.name = control_extras[i].name;
		it.family = it.name;
		it.help = control_extras[i].help;
		it.kind = control_extras[i].kind;
		it.value = control_extras[i].get(s, c);
		fn(&it, arg);
	}
	snap_walk_threads(s, fn, arg);
}

/* ------------------------------------------------------------------ */
/* Formats                                                             */

/** State of one write. */
struct control_wr {
	struct control_out *out;
	const char *family; /**< Prometheus: the family last described */
	bool first;         /**< JSON: no comma yet */
};

/* Histogram bucket names as Unbound spells them. */
static void hist_name(size_t i, char *out, size_t cap)
{
	uint64_t lo = i > 0 ? stats_hist_upper_us(i - 1) : 0;
	uint64_t hi = stats_hist_upper_us(i);

	snprintf(out, cap,
	         "histogram.%06" PRIu64 ".%06" PRIu64 ".to.%06" PRIu64
	         ".%06" PRIu64,
	         lo / CONTROL_USEC, lo % CONTROL_USEC, hi / CONTROL_USEC,
	         hi % CONTROL_USEC);
}

/* The average wait of recursive replies, seconds. */
static double recursion_avg(const struct stats *st)
{
	return st->recursive_replies == 0 ?
	               0.0 :
	               (double)st->recursion_usec / CONTROL_USEC /
	                       (double)st->recursive_replies;
}

/* The average number of resolutions running when one starts. */
static double requestlist_avg(const struct stats *st)
{
	return st->inflight_started == 0 ?
	               0.0 :
	               (double)st->requestlist_sum /
	                       (double)st->inflight_started;
}

/** Values that are not whole numbers (text and JSON only; Prometheus
 *  gets the histogram). */
struct control_real {
	const char *name;
	bool fixed; /**< "%.6f" (Unbound's seconds.micro); else "%g" */
	double value;
};

#define CONTROL_NREALS 4

static void reals_of(const struct stats *st,
                     struct control_real r[CONTROL_NREALS])
{
	r[0].name = "total.recursion.time.avg";
	r[0].fixed = true;
	r[0].value = recursion_avg(st);
	r[1].name = "total.recursion.time.median";
	r[1].fixed = false;
	r[1].value = stats_recursion_quantile(st, 0.5);
	r[2].name = "total.requestlist.avg";
	r[2].fixed = false;
	r[2].value = requestlist_avg(st);
	r[3].name = "upstream.transport.encrypted.share";
	r[3].fixed = false;
	r[3].value = stats_encrypted_share(st);
}

/* The reals and the histogram buckets: "name=value" lines, or JSON
 * members (each after a comma). */
static void write_reals_hist(const struct stats *st, bool json,
                             struct control_out *out)
{
	struct control_real r[CONTROL_NREALS];
	char name[STATS_NAME_MAX], num[64];
	size_t i;

	reals_of(st, r);
	for (i = 0; i < CONTROL_NREALS; i++) {
		snprintf(num, sizeof num, r[i].fixed ? "%.6f" : "%g",
		         r[i].value);
		control_out_printf(out, json ? ",\n  \"%s\": %s" : "%s=%s\n",
		                   r[i].name, num);
	}
	for (i = 0; i < STATS_HIST_BUCKETS; i++) {
		hist_name(i, name, sizeof name);
		control_out_printf(out,
		                   json ? ",\n  \"%s\": %" PRIu64 :
		                          "%s=%" PRIu64 "\n",
		                   name, st->hist[i]);
	}
}

/* The per-thread reals: threadN.requestlist.avg, threadN.recursion.
 * time.avg and .median, as "name=value" lines or JSON members. */
static void put_thread_real(struct control_out *out, bool json, size_t t,
                            const char *name, const char *num)
{
	control_out_printf(out,
	                   json ? ",\n  \"thread%zu.%s\": %s" :
	                          "thread%zu.%s=%s\n",
	                   t, name, num);
}

static void write_thread_reals(const struct control_snap *s, bool json,
                               struct control_out *out)
{
	char num[64];
	size_t t;

	for (t = 0; t < s->nthr; t++) {
		const struct stats_thread *h = &s->thr[t];

		snprintf(num, sizeof num, "%g",
		         h->inflight_started == 0 ?
		                 0.0 :
		                 (double)h->requestlist_sum /
		                         (double)h->inflight_started);
		put_thread_real(out, json, t, "requestlist.avg", num);
		snprintf(num, sizeof num, "%.6f",
		         h->recursive_replies == 0 ?
		                 0.0 :
		                 (double)h->recursion_usec / CONTROL_USEC /
		                         (double)h->recursive_replies);
		put_thread_real(out, json, t, "recursion.time.avg", num);
		snprintf(num, sizeof num, "%g",
		         stats_hist_quantile(h->hist, 0.5));
		put_thread_real(out, json, t, "recursion.time.median", num);
	}
}

static void text_cb(const struct stats_item *it, void *arg)
{
	struct control_wr *w = arg;

	control_out_printf(w->out, "%s=%" PRIu64 "\n", it->name, it->value);
}

static void write_text(const struct control_snap *s,
                       const struct control_cmd *c, struct control_wr *w)
{
	snap_walk(s, c, text_cb, w);
	write_reals_hist(&s->st, false, w->out);
	write_thread_reals(s, false, w->out);
}

static void json_cb(const struct stats_item *it, void *arg)
{
	struct control_wr *w = arg;

	control_out_printf(w->out, "%s\n  \"%s\": %" PRIu64,
	                   w->first ? "" : ",", it->name, it->value);
	w->first = false;
}

static void write_json(const struct control_snap *s,
                       const struct control_cmd *c, struct control_wr *w)
{
	control_out_put(w->out, "{", 1);
	w->first = true;
	snap_walk(s, c, json_cb, w);
	write_reals_hist(&s->st, true, w->out);
	write_thread_reals(s, true, w->out);
	control_out_put(w->out, "\n}\n", 3);
}

/* The Prometheus name of a family. */
static void prom_name(const char *family, enum stats_kind kind, char *out,
                      size_t cap)
{
	static const char total[] = "total.";
	size_t i, n;

	for (i = 0;
	     i < sizeof control_prom_names / sizeof control_prom_names[0];
	     i++) {
		if (strcmp(family, control_prom_names[i].family) == 0) {
			snprintf(out, cap, "%s", control_prom_names[i].prom);
			return;
		}
	}
	if (strncmp(family, total, sizeof total - 1) == 0)
		family += sizeof total - 1;
	n = (size_t)snprintf(out, cap, "curvecache_%s%s", family,
	                     kind == STATS_COUNTER ? "_total" : "");
	for (i = 0; i < n && i < cap; i++)
		out[i] = out[i] == '.' ? '_' :
		                         (char)tolower((unsigned char)out[i]);
}

static void prom_cb(const struct stats_item *it, void *arg)
{
	struct control_wr *w = arg;
	char name[CONTROL_PROM_NAME];

	if (it->alias)
		return; /* the same value is there under its own name */
	prom_name(it->family, it->kind, name, sizeof name);
	if (w->family == NULL || strcmp(w->family, it->family) != 0) {
		control_out_printf(w->out, "# HELP %s %s\n# TYPE %s %s\n",
		                   name, it->help, name,
		                   it->kind == STATS_COUNTER ? "counter" :
		                                               "gauge");
		w->family = it->family;
	}
	if (it->label != NULL)
		control_out_printf(w->out, "%s{%s=\"%s\"} %" PRIu64 "\n", name,
		                   it->label, it->lvalue, it->value);
	else
		control_out_printf(w->out, "%s %" PRIu64 "\n", name,
		                   it->value);
}

/** Bytes of a version kept as a label value. */
#define CONTROL_VERSION_BYTES 48

/* A version as a label value: the characters versions are made of
 * (nothing that would need an escape in the exposition format). */
static const char *prom_version(const char *v, char *out)
{
	size_t i;

	for (i = 0; v != NULL && v[i] != '\0' && i + 1 < CONTROL_VERSION_BYTES;
	     i++)
		out[i] = isalnum((unsigned char)v[i]) ||
		                         strchr(".+-~_", v[i]) ?
		                 v[i] :
		                 '_';
	out[i] = '\0';
	return out;
}

/* curvecache_build_info: ours and the libraries' versions, as run. */
static void write_build_info(struct control_out *out)
{
	static const char b[] = "curvecache_build_info";
	char so[CONTROL_VERSION_BYTES], ssl[CONTROL_VERSION_BYTES];
	char uv[CONTROL_VERSION_BYTES], ar[CONTROL_VERSION_BYTES];

	control_out_printf(out,
	                   "# HELP %s the version of curvecache and of the "
	                   "libraries it runs with\n# TYPE %s gauge\n",
	                   b, b);
	control_out_printf(
		out,
		"%s{version=\"%s\",libsodium=\"%s\",openssl=\"%s\","
		"libuv=\"%s\",c_ares=\"%s\"} 1\n",
		b, PACKAGE_VERSION, prom_version(sodium_version_string(), so),
		prom_version(OpenSSL_version(OPENSSL_VERSION_STRING), ssl),
		prom_version(uv_version_string(), uv),
		prom_version(ares_version(NULL), ar));
}

static void write_prom(const struct control_snap *s,
                       const struct control_cmd *c, struct control_wr *w)
{
	static const char h[] = "curvecache_recursion_time_seconds";
	uint64_t cum = 0, up;
	size_t i;

	write_build_info(w->out);
	snap_walk(s, c, prom_cb, w);
	control_privacy_prom(w->out);
	control_out_printf(w->out,
	                   "# HELP %s time from a client's query to "
	                   "its answer by a resolution\n# TYPE %s "
	                   "histogram\n",
	                   h, h);
	for (i = 0; i < STATS_HIST_BUCKETS; i++) {
		cum += s->st.hist[i];
		up = stats_hist_upper_us(i);
		control_out_printf(w->out,
		                   "%s_bucket{le=\"%" PRIu64 ".%06" PRIu64
		                   "\"} %" PRIu64 "\n",
		                   h, up / CONTROL_USEC, up % CONTROL_USEC,
		                   cum);
	}
	control_out_printf(w->out,
	                   "%s_bucket{le=\"+Inf\"} %" PRIu64 "\n"
	                   "%s_sum %.6f\n%s_count %" PRIu64 "\n",
	                   h, cum, h,
	                   (double)s->st.recursion_usec / CONTROL_USEC, h,
	                   cum);
}

void control_stats_write(struct control_cmd *c, enum control_format fmt,
                         bool reset, struct control_out *out)
{
	struct control_snap now, shown;
	struct control_wr w = { out, NULL, true };

	control_snap_take(&c->env, &now);
	shown = now;
	snap_sub(&shown, &c->base);
	if (fmt == CONTROL_FMT_PROM)
		write_prom(&shown, c, &w);
	else if (fmt == CONTROL_FMT_JSON)
		write_json(&shown, c, &w);
	else
		write_text(&shown, c, &w);
	if (reset)
		c->base = now;
}

const char *control_cmd_flush_stats(struct control_cmd *c, char **argv,
                                    size_t argc, struct control_out *out,
                                    char *err)
{
	(void)argv;
	(void)argc;
	(void)out;
	(void)err;
	control_snap_take(&c->env, &c->base);
	return NULL;
}
