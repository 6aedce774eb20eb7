/*
 * tests/unit/check_control_stats.c - Suite "control", continued: the
 * stats commands (reset, every format, a strict check of the Prometheus
 * text) and setting up the socket file. The fixture is check_control.c's.
 */
#include "control_test.h"

#include <ares.h>
#include <ctype.h>
#include <stdio.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "conf/cfg.h"
#include "ctl/control.h"
#include "front/respond.h"
#include "front/server.h"
#include "stats/stats.h"

/* ------------------------------------------------------------------ */
/* Counters                                                            */

static struct stats *worker_stats(void)
{
	/* The worker's own counters, bumped as its query path would. */
	return (struct stats *)(uintptr_t)server_stats(srv);
}

START_TEST(stats_reset_and_noreset)
{
	struct stats *st = worker_stats();
	struct conv c;

	st->queries = 5;
	stats_qtype(st, WIRE_TYPE_A);
	stats_qtype(st, WIRE_TYPE_A);
	stats_qtype(st, WIRE_TYPE_A);
	stats_qtype(st, 65000);
	stats_rcode(st, WIRE_RCODE_NXDOMAIN);
	stats_recursion(st, 1500);
	st->answers_curve = 2;
	c = talk("stats_noreset\n");
	ck_assert(strncmp(c.text, "total.num.queries=5\n", 20) == 0);
	HAS(c, "\nnum.query.type.A=3\n");
	HAS(c, "\nnum.query.type.AAAA=0\n");
	HAS(c, "\nnum.query.type.other=1\n");
	HAS(c, "\nnum.answer.rcode.NXDOMAIN=1\n");
	HAS(c, "\nhistogram.000000.001024.to.000000.002048=1\n");
	HAS(c, "\nhistogram.000000.000000.to.000000.000001=0\n");
	HAS(c, "\nhistogram.262144.000000.to.524288.000000=0\n");
	HAS(c, "\ntotal.num.recursivereplies=1\n");
	HAS(c, "\ntotal.recursion.time.avg=0.001500\n");
	HAS(c, "\ncurve.answers.dnscurve=2\n");
	HAS(c, "\ntotal.requestlist.current.all=0\n");
	HAS(c, "\nrrset.cache.count=0\n");
	HAS(c, "\ntime.up=");
	ck_assert_int_eq(count_of(c.text, "histogram."), STATS_HIST_BUCKETS);
	free(c.text);
	c = talk("stats\n");
	ck_assert(strncmp(c.text, "total.num.queries=5\n", 20) == 0);
	free(c.text);
	st->queries += 2;
	c = talk("stats_noreset\nstats_noreset\n");
	ck_assert_int_eq(count_of(c.text, "total.num.queries=2\n"), 2);
	HAS(c, "\nnum.query.type.A=0\n");
	HAS(c, "\ntotal.recursion.time.avg=0.000000\n");
	free(c.text);
}
END_TEST

/* A metric name: [a-zA-Z_:][a-zA-Z0-9_:]*; returns its length. */
static size_t prom_name_len(const char *p)
{
	size_t n = 0;

	while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') ||
	       p[n] == '_' || p[n] == ':' ||
	       (n > 0 && p[n] >= '0' && p[n] <= '9'))
		n++;
	return n;
}

/** What the Prometheus check knows while it reads. */
struct prom_state {
	char family[128];
	char type[16];
	double prev_bucket;
	int samples;
};

/* "# HELP" and "# TYPE" lines. */
static void prom_comment(struct prom_state *ps, const char *line)
{
	size_t n = prom_name_len(line + 7);

	if (strncmp(line, "# HELP ", 7) == 0) {
		ck_assert_msg(n > 0 && line[7 + n] == ' ', "%s", line);
		snprintf(ps->family, sizeof ps->family, "%.*s", (int)n,
		         line + 7);
		return;
	}
	ck_assert_msg(strncmp(line, "# TYPE ", 7) == 0, "%s", line);
	ck_assert_msg(strncmp(line + 7, ps->family, n) == 0 &&
	                      ps->family[n] == '\0',
	              "%s", line);
	snprintf(ps->type, sizeof ps->type, "%s", line + 8 + n);
	ck_assert_msg(strcmp(ps->type, "counter") == 0 ||
	                      strcmp(ps->type, "gauge") == 0 ||
	                      strcmp(ps->type, "histogram") == 0,
	              "%s", line);
}

/* One sample line: name{labels} value, inside the current family. */
static void prom_sample(struct prom_state *ps, const char *line)
{
	size_t n = prom_name_len(line), i;
	double v;
	char *end;

	for (i = 0; i < n; i++)
		ck_assert_msg(!isupper((unsigned char)line[i]),
		              "not in the one naming scheme (lower case): %s",
		              line);
	ck_assert_msg(n >= strlen(ps->family) &&
	                      strncmp(line, ps->family, strlen(ps->family)) ==
	                              0,
	              "sample %s outside family %s", line, ps->family);
	if (strcmp(ps->type, "counter") == 0)
		ck_assert_msg(n >= 6 &&
		                      strncmp(line + n - 6, "_total", 6) == 0,
		              "%s", line);
	if (line[n] == '{') {
		const char *close = strchr(line + n, '}');

		ck_assert_ptr_nonnull(close);
		ck_assert_msg(strstr(line + n, "=\"") != NULL, "%s", line);
		n = (size_t)(close - line) + 1;
	}
	ck_assert_msg(line[n] == ' ', "%s", line);
	v = strtod(line + n + 1, &end);
	ck_assert_msg(*end == '\0' && end != line + n + 1, "%s", line);
	if (strstr(line, "_bucket{") != NULL) {
		ck_assert_msg(v >= ps->prev_bucket, "%s", line);
		ps->prev_bucket = v;
	}
	ps->samples++;
}

/* A strict reading of the text exposition format as we write it. */
static void prom_check(const char *text)
{
	struct prom_state ps;
	const char *p = text, *nl;
	char line[512];
	size_t len;

	memset(&ps, 0, sizeof ps);
	ps.prev_bucket = -1;
	while (*p != '\0' && strcmp(p, "ok\n") != 0) {
		nl = strchr(p, '\n');
		ck_assert_ptr_nonnull(nl);
		len = (size_t)(nl - p);
		ck_assert_uint_lt(len, sizeof line);
		memcpy(line, p, len);
		line[len] = '\0';
		p = nl + 1;
		if (line[0] == '#')
			prom_comment(&ps, line);
		else
			prom_sample(&ps, line);
	}
	ck_assert_int_gt(ps.samples, 50);
}

START_TEST(stats_prometheus)
{
	struct stats *st = worker_stats();
	struct conv c;
	char want[128];

	st->queries = 7;
	stats_qtype(st, WIRE_TYPE_AAAA);
	stats_recursion(st, 3);
	stats_recursion(st, 2000000);
	stats_sent(st, STATS_TR_HTTPS, WIRE_RCODE_SERVFAIL);
	stats_sent(st, STATS_TR_TLS, WIRE_RCODE_NOERROR);
	stats_sent(st, STATS_TR_TLS, WIRE_RCODE_NOERROR);
	c = talk("stats_noreset\n");
	HAS(c, "num.answer.transport.udp=0\nnum.answer.transport.tcp=0\n"
	       "num.answer.transport.tls=2\nnum.answer.transport.https=1\n"
	       "num.answer.transport.servfail.udp=0\n");
	HAS(c, "num.answer.transport.servfail.https=1\n");
	free(c.text);
	c = talk("stats_noreset prometheus\n");
	prom_check(c.text);
	HAS(c,
	    "curvecache_num_answer_transport_total{transport=\"tls\"} 2\n"
	    "curvecache_num_answer_transport_total{transport=\"https\"} 1\n");
	HAS(c, "curvecache_num_answer_transport_servfail_total{transport="
	       "\"https\"} 1\n");
	HAS(c, "# TYPE curvecache_num_queries_total counter\n"
	       "curvecache_num_queries_total 7\n");
	HAS(c, "curvecache_num_query_type_total{type=\"AAAA\"} 1\n");
	HAS(c, "curvecache_num_answer_rcode_total{rcode=\"SERVFAIL\"} 0\n");
	HAS(c, "# TYPE curvecache_requestlist_current_all gauge\n");
	HAS(c, "curvecache_mem_cache_rrset_bytes ");
	HAS(c, "# TYPE curvecache_recursion_time_seconds histogram\n");
	HAS(c,
	    "curvecache_recursion_time_seconds_bucket{le=\"0.000004\"} 1\n");
	HAS(c, "curvecache_recursion_time_seconds_bucket{le=\"+Inf\"} 2\n");
	HAS(c, "curvecache_recursion_time_seconds_count 2\n");
	HAS(c, "curvecache_recursion_time_seconds_sum 2.000003\n");
	HAS(c, "curvecache_num_query_edns_do_total ");
	HAS(c, "# TYPE curvecache_build_info gauge\n"
	       "curvecache_build_info{version=\"" PACKAGE_VERSION
	       "\",libsodium=\"");
	snprintf(want, sizeof want, "\",libuv=\"%s\",c_ares=\"%s\"} 1\n",
	         uv_version_string(), ares_version(NULL));
	HAS(c, want);
	HAS(c, "\",openssl=\"3.");
	ck_assert_int_eq(count_of(c.text, "# TYPE curvecache_num_query_type"),
	                 1);
	free(c.text);
}
END_TEST

/* privacy: the transports, the encrypted percent, the servers asked
 * most in plain merged by address (the zone of the most kept), and the
 * same servers in Prometheus with the zone's '"' escaped. */
START_TEST(stats_privacy)
{
	struct stats *st = worker_stats();
	struct sockaddr_in a, b;
	static const uint8_t lab[] = "\003lab", root[] = "";
	static const uint8_t odd[] = "\003a\"b";
	struct conv c;
	int i;

	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(0xc0000201); /* 192.0.2.1 */
	b = a;
	b.sin_addr.s_addr = htonl(0xc0000202);
	st->curve_queries = 3;
	st->upstream_tls = 5;
	st->upstream_tls_dane = 2;
	for (i = 0; i < 4; i++)
		stats_plain_sent(st, (struct sockaddr *)&a, lab, sizeof lab);
	stats_plain_sent(st, (struct sockaddr *)&a, root, sizeof root);
	stats_plain_sent(st, (struct sockaddr *)&b, odd, sizeof odd);
	c = talk("privacy\n");
	HAS(c, "upstream.transport.plain=6\n"
	       "upstream.transport.curve=3\n"
	       "upstream.transport.tls=3\n"
	       "upstream.transport.tls_dane=2\n"
	       "upstream.transport.encrypted.percent=57.1\n"
	       "plain.servers noted=6 skipped=0\n"
	       "plain.server 5 192.0.2.1 lab.\n"
	       "plain.server 1 192.0.2.2 a\\\"b.\nok\n");
	free(c.text);
	c = talk("privacy 1\n");
	ck_assert_int_eq(count_of(c.text, "plain.server "), 1);
	free(c.text);
	c = talk("privacy 65\n");
	HAS(c, "error: N must be 1 to 64\n");
	free(c.text);
	c = talk("stats_noreset prometheus\n");
	prom_check(c.text);
	HAS(c, "# TYPE curvecache_upstream_plain_server_queries gauge\n"
	       "curvecache_upstream_plain_server_queries{server=\"192.0.2.1\","
	       "zone=\"lab.\"} 5\n"
	       "curvecache_upstream_plain_server_queries{server=\"192.0.2.2\","
	       "zone=\"a\\\\\\\"b.\"} 1\n");
	HAS(c, "curvecache_upstream_transport_total{transport=\"tls\"} 3\n"
	       "curvecache_upstream_transport_total{transport=\"tls_dane\"} "
	       "2\n");
	free(c.text);
}
END_TEST

/* One parsed client query, as stats_query sees it. */
static void count_query(struct stats *st, unsigned opcode, uint16_t type,
                        uint16_t klass, bool edns, bool dnssec, bool ipv6)
{
	struct respond_query q;

	memset(&q, 0, sizeof q);
	q.flags = (uint16_t)((opcode & 0xfu) << 11);
	q.has_question = true;
	q.qtype = type;
	q.qclass = klass;
	q.edns = edns;
	q.edns_do = dnssec;
	stats_query(st, &q, ipv6);
}

START_TEST(stats_unbound_names)
{
	struct stats *st = worker_stats();
	struct conv c;

	count_query(st, 0, WIRE_TYPE_A, WIRE_CLASS_IN, true, true, false);
	count_query(st, 0, 200, WIRE_CLASS_IN, true, false, true);
	count_query(st, 0, 257, 3, false, false, false);
	count_query(st, 4, WIRE_TYPE_SOA, WIRE_CLASS_IN, false, false, true);
	count_query(st, 6, WIRE_TYPE_A, 300, false, false, false);
	stats_answer(st, WIRE_RCODE_NOERROR, 0);
	stats_answer(st, WIRE_RCODE_NOERROR, 2);
	stats_answer(st, WIRE_RCODE_NXDOMAIN, 0);
	st->inflight_started = 4;
	stats_requestlist(st, 1);
	stats_requestlist(st, 3);
	stats_requestlist(st, 2);
	stats_requestlist(st, 2);
	st->tcp_opened = 5;
	st->tcp_freed = 3;
	st->prefetch = 6;
	st->expired = 7;
	st->ratelimited = 8;
	st->upstream_tcp = 9;
	stats_recursion(st, 1500); /* bucket 1.024-2.048 ms */
	stats_recursion(st, 1500);
	stats_recursion(st, 3000); /* bucket 2.048-4.096 ms */
	c = talk("stats_noreset\n");
	HAS(c, "\nnum.query.type.TYPE200=1\n");
	HAS(c, "\nnum.query.type.CAA=1\n");
	HAS(c, "\nnum.query.type.other=0\n");
	HAS(c, "\nnum.query.class.IN=3\n");
	HAS(c, "\nnum.query.class.CH=1\n");
	HAS(c, "\nnum.query.class.other=1\n");
	HAS(c, "\nnum.query.opcode.QUERY=3\n");
	HAS(c, "\nnum.query.opcode.NOTIFY=1\n");
	HAS(c, "\nnum.query.opcode.OPCODE6=1\n");
	HAS(c, "\nnum.query.edns.present=2\n");
	HAS(c, "\nnum.query.edns.DO=1\n");
	HAS(c, "\nnum.query.ipv6=2\n");
	HAS(c, "\nnum.answer.rcode.nodata=1\n");
	HAS(c, "\nnum.answer.rcode.NOERROR=2\n");
	HAS(c, "\ntotal.requestlist.avg=2\n");
	HAS(c, "\ntotal.requestlist.max=3\n");
	HAS(c, "\ntotal.tcpusage=2\n");
	HAS(c, "\ntotal.num.prefetch=6\n");
	HAS(c, "\ntotal.num.expired=7\n");
	HAS(c, "\ntotal.num.queries_ip_ratelimited=8\n");
	HAS(c, "\nnum.query.tcpout=9\n");
	HAS(c, "\nmem.cache.message=0\n");
	HAS(c, "\ninfra.cache.count=");
	/* half of 3 = 1.5 of the 2 in [1.024, 2.048) ms: 3/4 of the way */
	HAS(c, "\ntotal.recursion.time.median=0.001792\n");
	free(c.text);
	/* After a reset the maximum stays (a level); the rest restarts. */
	free(talk("stats\n").text);
	c = talk("stats_noreset\n");
	HAS(c, "\ntotal.requestlist.max=3\n");
	HAS(c, "\ntotal.requestlist.avg=0\n");
	HAS(c, "\nnum.query.ipv6=0\n");
	HAS(c, "\ntotal.tcpusage=2\n");
	HAS(c, "\ntotal.recursion.time.median=0\n");
	free(c.text);
	c = talk("stats_noreset prometheus\n");
	prom_check(c.text);
	HASNT(c, "total_num_prefetch");
	ck_assert_int_eq(count_of(c.text, "\ncurvecache_num_prefetch_total "),
	                 1);
	HAS(c, "curvecache_num_query_opcode_total{opcode=\"QUERY\"} 0\n");
	HAS(c, "curvecache_tcpusage 2\n");
	HAS(c, "curvecache_mem_cache_message_bytes 0\n");
	free(c.text);
}
END_TEST

START_TEST(stats_json)
{
	struct conv c;

	worker_stats()->queries = 3;
	c = talk("stats_noreset --json\n");
	ck_assert(strncmp(c.text, "{\n  \"total.num.queries\": 3,\n", 28) ==
	          0);
	HAS(c, "\n  \"total.recursion.time.avg\": 0.000000,\n");
	HAS(c, "\"histogram.262144.000000.to.524288.000000\": 0,\n");
	HAS(c, "\"thread0.recursion.time.median\": 0\n}\nok\n");
	ck_assert_int_eq(count_of(c.text, "{"), 1);
	ck_assert_int_eq(count_of(c.text, "}"), 1);
	free(c.text);
}
END_TEST

/* ------------------------------------------------------------------ */
/* The socket file                                                     */

static struct control *ctl_at(const char *path, int *rc)
{
	struct control_env env;
	struct control *ctl = NULL;
	char err[256];

	snprintf(cfg.control_socket, sizeof cfg.control_socket, "%s", path);
	memset(&env, 0, sizeof env);
	env.cache = cache;
	env.srv = srv;
	env.cfg = &cfg;
	*rc = control_new(&loop, &env, &ctl, err, sizeof err);
	return ctl;
}

static void ctl_done(struct control *ctl)
{
	control_stop(ctl);
	uv_run(&loop, UV_RUN_NOWAIT);
	control_free(ctl);
}

START_TEST(socket_file)
{
	char dir[] = "/tmp/check_control.XXXXXX", path[128], file[128];
	struct control *a, *b;
	struct stat st;
	FILE *f;
	int rc;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/sub/control", dir);
	a = ctl_at(path, &rc);
	ck_assert_int_eq(rc, CONTROL_OK);
	ck_assert_int_eq(lstat(path, &st), 0);
	ck_assert(S_ISSOCK(st.st_mode));
	ck_assert_uint_eq(st.st_mode & 07777, CONTROL_SOCKET_MODE);
	ck_assert_uint_eq(st.st_uid, geteuid());
	/* A second daemon on a live socket is refused. */
	b = ctl_at(path, &rc);
	ck_assert_int_eq(rc, CONTROL_EINUSE);
	ctl_done(b);
	ck_assert_int_eq(lstat(path, &st), 0);
	ctl_done(a);
	ck_assert_int_ne(lstat(path, &st), 0);
	/* A regular file is not replaced. */
	snprintf(file, sizeof file, "%s/file", dir);
	f = fopen(file, "w");
	ck_assert_ptr_nonnull(f);
	fclose(f);
	a = ctl_at(file, &rc);
	ck_assert_int_eq(rc, CONTROL_ESOCKET);
	ctl_done(a);
	ck_assert_int_eq(unlink(file), 0);
	/* Too long for sun_path. */
	memset(file, 'x', sizeof file - 1);
	file[0] = '/';
	file[sizeof file - 1] = '\0';
	ck_assert_ptr_null(ctl_at(file, &rc));
	ck_assert_int_eq(rc, CONTROL_EINVAL);
	snprintf(file, sizeof file, "%s/sub", dir);
	ck_assert_int_eq(rmdir(file), 0);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

START_TEST(socket_stale_replaced)
{
	char dir[] = "/tmp/check_control.XXXXXX", path[128];
	struct sockaddr_un sun;
	struct control *a;
	int fd, rc;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/control", dir);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	ck_assert_uint_lt(strlen(path), sizeof sun.sun_path);
	memcpy(sun.sun_path, path, strlen(path));
	ck_assert_int_eq(bind(fd, (struct sockaddr *)&sun, sizeof sun), 0);
	close(fd); /* a socket file nobody listens on */
	a = ctl_at(path, &rc);
	ck_assert_int_eq(rc, CONTROL_OK);
	ctl_done(a);
	ck_assert_int_eq(rmdir(dir), 0);
}
END_TEST

/* The DNSSEC counters: Unbound's names, one per EDE code, summed and
 * reset like the others, one labelled family in Prometheus. */
START_TEST(stats_dnssec)
{
	struct stats *st = worker_stats();
	struct conv c;

	st->answer_secure = 4;
	st->answer_bogus = 3;
	st->rrset_bogus = 2;
	st->aggressive_nxdomain = 5;
	st->aggressive_nodata = 6;
	st->aggressive_wildcard = 9;
	st->ede[stats_ede_index(6)] = 7;
	st->ede[stats_ede_index(27)] = 8;
	c = talk("stats_noreset\n");
	HAS(c, "\nnum.answer.secure=4\n");
	HAS(c, "\nnum.answer.bogus=3\n");
	HAS(c, "\nnum.rrset.bogus=2\n");
	HAS(c, "\nnum.query.aggressive.NXDOMAIN=5\n");
	HAS(c, "\nnum.query.aggressive.NOERROR=6\n");
	HAS(c, "\nnum.query.aggressive.wildcard=9\n");
	HAS(c, "\nnum.answer.ede.0=0\n");
	HAS(c, "\nnum.answer.ede.6=7\n");
	HAS(c, "\nnum.answer.ede.27=8\n");
	ck_assert_int_eq(count_of(c.text, "num.answer.ede."), STATS_EDE_CODES);
	free(c.text);
	c = talk("stats_noreset prometheus\n");
	prom_check(c.text);
	HAS(c, "curvecache_num_answer_secure_total 4\n");
	HAS(c, "curvecache_num_answer_ede_total{code=\"6\"} 7\n");
	ck_assert_int_eq(count_of(c.text, "# TYPE curvecache_num_answer_ede"),
	                 1);
	free(c.text);
	c = talk("stats_noreset json\n");
	HAS(c, "\n  \"num.answer.ede.6\": 7,\n");
	HAS(c, "\n  \"num.answer.bogus\": 3,\n");
	free(c.text);
	c = talk("stats\n");
	free(c.text);
	c = talk("stats_noreset\n");
	HAS(c, "\nnum.answer.secure=0\n");
	HAS(c, "\nnum.answer.ede.27=0\n");
	free(c.text);
}
END_TEST

/* Unbound's per-thread request list and recursion times, the user
 * request list, msg.cache.count; flush_stats resets without printing. */
START_TEST(stats_threads_and_flush)
{
	struct stats *st = worker_stats();
	struct conv c;

	st->queries = 5;
	stats_recursion(st, 1500);
	stats_recursion(st, 2500);
	stats_requestlist(st, 3);
	st->inflight_started = 2;
	st->inflight_refused = 4;
	c = talk("stats_noreset\n");
	HAS(c, "\nthread0.requestlist.max=3\n");
	HAS(c, "\nthread0.requestlist.exceeded=4\n");
	HAS(c, "\nthread0.requestlist.overwritten=0\n");
	HAS(c, "\nthread0.requestlist.current.all=0\n");
	HAS(c, "\nthread0.requestlist.current.user=0\n");
	HAS(c, "\nthread0.requestlist.avg=1.5\n");
	HAS(c, "\nthread0.recursion.time.avg=0.002000\n");
	HAS(c, "\nthread0.recursion.time.median=0.002048\n");
	HAS(c, "\ntotal.requestlist.current.user=0\n");
	HAS(c, "\nmsg.cache.count=0\n");
	free(c.text);
	c = talk("stats_noreset json\n");
	HAS(c, "\n  \"thread0.recursion.time.avg\": 0.002000");
	free(c.text);
	c = talk("stats_noreset prometheus\n");
	prom_check(c.text);
	HAS(c,
	    "curvecache_thread_requestlist_exceeded_total{thread=\"0\"} 4\n");
	HAS(c, "curvecache_thread_requestlist_current_all{thread=\"0\"} 0\n");
	HAS(c, "curvecache_msg_cache_entries 0\n");
	free(c.text);
	c = talk("flush_stats\n");
	ck_assert_str_eq(c.text, "ok\n");
	free(c.text);
	c = talk("stats_noreset\n");
	HAS(c, "total.num.queries=0\n");
	HAS(c, "\nthread0.recursion.time.avg=0.000000\n");
	HAS(c, "\nthread0.requestlist.exceeded=0\n");
	HAS(c, "\nthread0.requestlist.max=3\n"); /* a level: kept */
	free(c.text);
	st->queries += 2;
	c = talk("UBCT1 flush_stats\n");
	ck_assert_str_eq(c.text, "ok\n");
	free(c.text);
	c = talk("stats_noreset\n");
	HAS(c, "total.num.queries=0\n");
	free(c.text);
}
END_TEST

TCase *control_stats_tcase(void)
{
	TCase *tc = tcase_create("stats");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, stats_reset_and_noreset);
	tcase_add_test(tc, stats_prometheus);
	tcase_add_test(tc, stats_json);
	tcase_add_test(tc, stats_unbound_names);
	tcase_add_test(tc, stats_dnssec);
	tcase_add_test(tc, stats_threads_and_flush);
	tcase_add_test(tc, stats_privacy);
	return tc;
}

TCase *control_socket_tcase(void)
{
	TCase *tc = tcase_create("socket");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, socket_file);
	tcase_add_test(tc, socket_stale_replaced);
	return tc;
}
