/*
 * tests/unit/check_control.c - Suite "control": the control protocol
 * driven with bytes (resolver/ctl/control.h): lines, errors, closing,
 * load_cache streams; every command against a real worker, cache and
 * selection table (no sockets). The stats formats and the socket file
 * are in check_control_stats.c, the cache file format has its own suite
 * in check_cachefile.c.
 */
#include "control_test.h"

#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "store/cachefile.h"
#include "conf/cfg.h"
#include "base/clock.h"
#include "ctl/control.h"
#include "infra/hints.h"
#include "policy/localdata.h"
#include "policy/localzone.h"
#include "base/log.h"
#include "infra/deadzone.h"
#include "iter/iter.h"
#include "infra/sel.h"
#include "front/server.h"
#include "stats/stats.h"

#define KEY_NS "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2"

uv_loop_t loop;
struct cfg cfg;
struct cache *cache;
struct server *srv;
struct control_cmd *cmd;
static struct localzone *lz;
static int reload_calls;
static int reload_fails;

static int fake_reload(void *arg, char *err, size_t errlen)
{
	(void)arg;
	reload_calls++;
	if (!reload_fails)
		return 0;
	snprintf(err, errlen, "bad.conf:3: unknown option");
	return -1;
}

void setup(void)
{
	struct server_params p;
	struct control_env env;
	struct hints *h = NULL;
	char err[HINTS_ERR_BYTES];

	ck_assert_int_eq(uv_loop_init(&loop), 0);
	cfg_defaults(&cfg);
	cfg.do_not_query_localhost = false;
	cache = ct_cache();
	ck_assert_int_eq(localzone_new(NULL, 0, &lz), LOCALZONE_OK);
	ck_assert_msg(hints_load(SRCDIR "/tests/lab/root.hints", &h, err,
	                         sizeof err) == HINTS_OK,
	              "%s", err);
	memset(&p, 0, sizeof p);
	p.loop = &loop;
	p.cfg = &cfg;
	p.cache = cache;
	p.lz = lz;
	p.hints = h;
	ck_assert_int_eq(server_new(&srv, &p), SERVER_OK);
	memset(&env, 0, sizeof env);
	env.cache = cache;
	env.srv = srv;
	env.cfg = &cfg;
	env.cfg_path = "/etc/test.conf";
	env.start_wall = time(NULL) - 5;
	env.start_ms = clock_ms();
	env.reload = fake_reload;
	ck_assert_int_eq(control_cmd_new(&env, &cmd), CONTROL_OK);
	reload_calls = 0;
	reload_fails = 0;
}

void teardown(void)
{
	control_cmd_free(cmd);
	server_stop(srv);
	uv_run(&loop, UV_RUN_DEFAULT);
	server_free(srv);
	ck_assert_int_eq(uv_loop_close(&loop), 0);
	cache_destroy(cache);
	localzone_free(lz);
}

struct control_cmd *ct_cmd_each(control_each_fn each)
{
	struct control_env env;
	struct control_cmd *c = NULL;

	memset(&env, 0, sizeof env);
	env.cache = cache;
	env.srv = srv;
	env.cfg = &cfg;
	env.each = each;
	ck_assert_int_eq(control_cmd_new(&env, &c), CONTROL_OK);
	return c;
}

/* Feed input in chunks of `chunk` bytes (0: all at once), then EOF if
 * asked. */
struct conv talk_chunked(const char *in, size_t len, size_t chunk, bool eof)
{
	struct control_out out = { NULL, 0, 0, false };
	struct control_session *s = NULL;
	struct conv c;
	size_t off = 0, n;

	ck_assert_int_eq(control_session_new(cmd, &s), CONTROL_OK);
	c.st = CONTROL_OPEN;
	while (off < len) {
		n = chunk == 0 || chunk > len - off ? len - off : chunk;
		c.st = control_session_feed(s, in + off, n, &out);
		off += n;
	}
	if (eof)
		c.st = control_session_eof(s, &out);
	control_session_free(s);
	control_out_put(&out, "", 1);
	ck_assert(!out.full);
	c.text = out.p;
	c.len = out.len - 1;
	return c;
}

struct conv talk(const char *in)
{
	return talk_chunked(in, strlen(in), 0, false);
}

/* The whole answer to in is want; the session's state after it. */
static enum control_state talk_is(const char *in, const char *want)
{
	struct conv c = talk(in);
	enum control_state st = c.st;

	ck_assert_str_eq(c.text, want);
	free(c.text);
	return st;
}

int count_of(const char *text, const char *needle)
{
	int n = 0;
	const char *p = text;

	while ((p = strstr(p, needle)) != NULL) {
		n++;
		p += strlen(needle);
	}
	return n;
}

/* ------------------------------------------------------------------ */
/* The protocol                                                        */

static void put_a_now(const char *owner, uint8_t last);

START_TEST(ubct_status_closes)
{
	struct conv c = talk("UBCT1  status\nstatus\n");

	ck_assert(strncmp(c.text, "version: " PACKAGE_VERSION "\n",
	                  strlen("version: " PACKAGE_VERSION "\n")) == 0);
	HAS(c, ") is running...\n");
	HASNT(c, "\nok\n");
	ck_assert_int_eq(count_of(c.text, "version: "), 1);
	ck_assert_int_eq(c.st, CONTROL_CLOSE);
	free(c.text);
}
END_TEST

START_TEST(ubct_version_mismatch)
{
	ck_assert_int_eq(talk_is("UBCT2 status\n", "error version mismatch\n"),
	                 CONTROL_CLOSE);
}
END_TEST

START_TEST(ubct_error_first)
{
	struct conv c = talk("UBCT1  flush\n");

	ck_assert(strncmp(c.text, "error usage: flush", 18) == 0);
	ck_assert_int_eq(c.st, CONTROL_CLOSE);
	free(c.text);
	c = talk("UBCT1  nosuch\n");
	ck_assert(strncmp(c.text, "error unknown command", 21) == 0);
	free(c.text);
	c = talk("UBCT1 \n");
	ck_assert(strncmp(c.text, "error ", 6) == 0);
	free(c.text);
}
END_TEST

START_TEST(ubct_action_ok)
{
	ck_assert_int_eq(talk_is("UBCT1  flush_all\n",
	                         "ok removed 0 entries\n"),
	                 CONTROL_CLOSE);
}
END_TEST

START_TEST(ubct_stats_text)
{
	struct conv c = talk("UBCT1  stats_noreset\n");

	ck_assert(strncmp(c.text, "total.num.queries=0\n", 20) == 0);
	HASNT(c, "\nok\n");
	free(c.text);
}
END_TEST

START_TEST(ubct_dump_load_to_eof_line)
{
	struct conv c;
	char *in;
	size_t n;

	put_a_now("a.example.", 1);
	c = talk("UBCT1  dump_cache\n");
	ck_assert(c.len > 4);
	ck_assert_str_eq(c.text + c.len - 4, "EOF\n");
	n = strlen("UBCT1  load_cache\n") + c.len;
	in = malloc(n + 1);
	ck_assert_ptr_nonnull(in);
	snprintf(in, n + 1, "UBCT1  load_cache\n%s", c.text);
	free(c.text);
	cache_flush_all(cache, NULL);
	c = talk_chunked(in, n, 7, false); /* no end of stream */
	ck_assert_msg(strncmp(c.text, "ok loaded 1 entries", 19) == 0, "%s",
	              c.text);
	ck_assert_int_eq(c.st, CONTROL_CLOSE);
	free(c.text);
	free(in);
}
END_TEST

START_TEST(session_status)
{
	struct conv c = talk("status\n");

	HAS(c, "version: " PACKAGE_VERSION "\n");
	HAS(c, "pid: ");
	HAS(c, "uptime: ");
	HAS(c, "threads: 1\n");
	HAS(c, "config: /etc/test.conf\n");
	ck_assert_str_eq(c.text + c.len - 3, "ok\n");
	ck_assert_int_eq(c.st, CONTROL_OPEN);
	free(c.text);
}
END_TEST

START_TEST(session_unknown_keeps_open)
{
	struct conv c = talk("bogus\nstatus\n");

	ck_assert(strncmp(c.text, "error: unknown command", 22) == 0);
	HAS(c, "\nok\n");
	ck_assert_int_eq(c.st, CONTROL_OPEN);
	free(c.text);
}
END_TEST

START_TEST(session_usage_errors)
{
	struct conv c = talk("flush\nflush_all now\nlookup\n"
	                     "stats xml\nstats_noreset a b\n");

	ck_assert_int_eq(count_of(c.text, "error: usage: "), 4);
	ck_assert_int_eq(count_of(c.text, "error: format must be"), 1);
	HASNT(c, "\nok\n");
	ck_assert_int_eq(c.st, CONTROL_OPEN);
	free(c.text);
}
END_TEST

START_TEST(session_split_crlf_blank)
{
	static const char in[] = "\n  \t\nsta tus\r\nstatus\r\n\nstatus\n";
	struct conv c = talk_chunked(in, strlen(in), 1, false);

	ck_assert_int_eq(count_of(c.text, "ok\n"), 2);
	ck_assert_int_eq(count_of(c.text, "error: "), 1);
	free(c.text);
}
END_TEST

START_TEST(session_too_long_closes)
{
	char in[CONTROL_LINE_MAX + 10];
	struct conv c;

	memset(in, 'a', sizeof in);
	c = talk_chunked(in, sizeof in, 100, false);
	ck_assert_str_eq(c.text, "error: malformed command: line too long\n");
	ck_assert_int_eq(c.st, CONTROL_CLOSE);
	free(c.text);
	/* Exactly CONTROL_LINE_MAX bytes is still a line. */
	memset(in, ' ', CONTROL_LINE_MAX);
	memcpy(in + CONTROL_LINE_MAX - 6, "status", 6);
	in[CONTROL_LINE_MAX] = '\n';
	c = talk_chunked(in, CONTROL_LINE_MAX + 1, 0, false);
	ck_assert_int_eq(c.st, CONTROL_OPEN);
	HAS(c, "ok\n");
	free(c.text);
}
END_TEST

START_TEST(session_malformed_closes)
{
	static const char bin[] = "stat\001us\nstatus\n";
	struct conv c = talk_chunked(bin, sizeof bin - 1, 0, false);

	ck_assert_str_eq(c.text, "error: malformed command: bytes outside "
	                         "printable ASCII\n");
	ck_assert_int_eq(c.st, CONTROL_CLOSE);
	free(c.text);
	ck_assert_int_eq(talk_is("lookup a b c d\n",
	                         "error: malformed command: too many "
	                         "words\n"),
	                 CONTROL_CLOSE);
	c = talk_chunked("status\0\n", 8, 0, false);
	ck_assert_int_eq(c.st, CONTROL_CLOSE);
	free(c.text);
	c = talk("st\xc3\xa4tus\n");
	ck_assert_int_eq(c.st, CONTROL_CLOSE);
	free(c.text);
}
END_TEST

START_TEST(session_eof)
{
	struct conv c = talk_chunked("status", 6, 0, true);

	HAS(c, "ok\n");
	ck_assert_int_eq(c.st, CONTROL_CLOSE);
	free(c.text);
	c = talk_chunked("", 0, 0, true);
	ck_assert_uint_eq(c.len, 0);
	ck_assert_int_eq(c.st, CONTROL_CLOSE);
	free(c.text);
	c = talk_chunked("status\nstatus\nstatus\n", 21, 0, true);
	ck_assert_int_eq(count_of(c.text, "\nok\n"), 3);
	free(c.text);
}
END_TEST

static uint32_t prng(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

START_TEST(session_garbage)
{
	static const char *const words[] = {
		"status", "stats", "flush", "lookup",     "load_cache",
		"\n",     " ",     "\r",    "a.lab",      "\t",
		"json",   "\001",  "\n\n",  "servers",    "flush_zone",
		"..",     "help",  "\377",  "dump_cache", "A",
	};
	char in[4096];
	uint32_t s = 99;
	size_t i, k, len;
	struct conv c;

	for (i = 0; i < 500; i++) {
		len = 0;
		for (k = prng(&s) % 40; k > 0; k--) {
			const char *w = words[prng(&s) % (sizeof words /
			                                  sizeof words[0])];

			if (len + strlen(w) >= sizeof in)
				break;
			memcpy(in + len, w, strlen(w));
			len += strlen(w);
		}
		c = talk_chunked(in, len, 1 + prng(&s) % 8, i % 2 == 0);
		ck_assert(c.len == 0 || c.text[c.len - 1] == '\n');
		free(c.text);
	}
}
END_TEST

/* ------------------------------------------------------------------ */
/* Commands                                                            */

static size_t entries(void)
{
	struct cache_stats st;

	cache_stats_get(cache, &st);
	return st.entries;
}

static void put_neg(const char *name)
{
	uint8_t n[WIRE_NAME_MAX], z[WIRE_NAME_MAX], soa[256];
	struct cache_neg neg;
	size_t len;

	memset(&neg, 0, sizeof neg);
	neg.kind = CACHE_KIND_NXDOMAIN;
	neg.name_len = ct_name(name, n);
	neg.name = n;
	neg.klass = WIRE_CLASS_IN;
	neg.soa_name_len = ct_name("lab.", z);
	neg.soa_name = z;
	neg.soa_ttl = 300;
	ck_assert_int_eq(cachefile_rdata_parse(WIRE_TYPE_SOA,
	                                       "a. b. 1 2 3 4 300", 17, soa,
	                                       sizeof soa, &len),
	                 CACHEFILE_OK);
	neg.soa_rdata = soa;
	neg.soa_rdlen = len;
	neg.rank = CACHE_RANK_AUTH;
	ck_assert_int_eq(cache_neg_put(cache, &neg, time(NULL)), CACHE_OK);
}

/* One RR of owner stored at the real time (the commands use time()). */
static void put_rr(const char *owner, uint16_t type, struct cache_rdata *rd,
                   enum cache_rank rank, enum cache_sec sec,
                   enum cache_via via)
{
	uint8_t name[WIRE_NAME_MAX];
	struct cache_rrset set;

	memset(&set, 0, sizeof set);
	set.name_len = ct_name(owner, name);
	set.name = name;
	set.type = type;
	set.klass = WIRE_CLASS_IN;
	set.ttl = 300;
	set.rdata = rd;
	set.count = 1;
	set.rank = rank;
	set.sec = sec;
	ck_assert_int_eq(cache_rrset_put_via(cache, &set, time(NULL), via),
	                 CACHE_OK);
}

/* An A record (192.0.2.last) learned over a transport (enum cache_via). */
static void put_a_via(const char *owner, uint8_t last, enum cache_via via)
{
	uint8_t a[4] = { 192, 0, 2, 0 };
	struct cache_rdata rd = { a, 4 };

	a[3] = last;
	put_rr(owner, WIRE_TYPE_A, &rd, CACHE_RANK_AUTH, CACHE_SEC_UNCHECKED,
	       via);
}

static void put_a_now(const char *owner, uint8_t last)
{
	put_a_via(owner, last, CACHE_VIA_PLAIN);
}

static void put_text_sec(const char *owner, uint16_t type, const char *rd,
                         enum cache_rank rank, enum cache_sec sec)
{
	uint8_t buf[512];
	struct cache_rdata r;

	ck_assert_int_eq(cachefile_rdata_parse(type, rd, strlen(rd), buf,
	                                       sizeof buf, &r.len),
	                 CACHEFILE_OK);
	r.data = buf;
	put_rr(owner, type, &r, rank, sec, CACHE_VIA_PLAIN);
}

static void put_text_now(const char *owner, uint16_t type, const char *rd,
                         enum cache_rank rank)
{
	put_text_sec(owner, type, rd, rank, CACHE_SEC_UNCHECKED);
}

START_TEST(cmd_flushes)
{
	struct conv c;

	put_a_now("www.z.lab.", 1);
	put_text_now("www.z.lab.", WIRE_TYPE_AAAA, "2001:db8::1",
	             CACHE_RANK_AUTH);
	put_a_now("a.www.z.lab.", 2);
	put_a_now("z.lab.", 3);
	put_a_now("other.lab.", 4);
	put_neg("nx.lab.");
	put_neg("nx2.other.lab.");
	talk_is("flush WWW.Z.lab\n", "removed 2 entries\nok\n");
	talk_is("flush_negative\n", "removed 2 entries\nok\n");
	/* flush_bogus: only what failed validation, secure data stays */
	put_text_sec("bad.other.lab.", WIRE_TYPE_A, "192.0.2.9",
	             CACHE_RANK_AUTH, CACHE_SEC_BOGUS);
	put_text_sec("good.other.lab.", WIRE_TYPE_A, "192.0.2.8",
	             CACHE_RANK_AUTH, CACHE_SEC_SECURE);
	talk_is("flush_bogus\n", "removed 1 entries\nok\n");
	talk_is("flush good.other.lab.\n", "removed 1 entries\nok\n");
	talk_is("flush_zone z.lab.\n", "removed 2 entries\nok\n");
	ck_assert_uint_eq(entries(), 1);
	talk_is("flush_all\n", "removed 1 entries\nok\n");
	ck_assert_uint_eq(entries(), 0);
	c = talk("flush a..b\nflush_zone .bad\n");
	ck_assert_int_eq(count_of(c.text, "error: not a domain name\n"), 2);
	free(c.text);
}
END_TEST

/* flush_type NAME TYPE: that type of that name (and an NXDOMAIN of the
 * name) go; other types and names stay; bad arguments are errors. */
START_TEST(cmd_flush_type)
{
	struct conv c;

	put_a_now("www.z.lab.", 1);
	put_text_now("www.z.lab.", WIRE_TYPE_AAAA, "2001:db8::1",
	             CACHE_RANK_AUTH);
	put_a_now("a.www.z.lab.", 2);
	put_neg("nx.lab.");
	talk_is("flush_type WWW.z.lab A\n", "removed 1 entries\nok\n");
	ck_assert_uint_eq(entries(), 3);
	talk_is("flush_type www.z.lab. A\nflush_type nx.lab. TXT\n",
	        "removed 0 entries\nok\nremoved 1 entries\nok\n");
	talk_is("UBCT1 flush_type www.z.lab aaaa\n", "ok removed 1 entries\n");
	ck_assert_uint_eq(entries(), 1);
	c = talk("flush_type www.z.lab\nflush_type a..b A\n"
	         "flush_type x.lab NOSUCHTYPE\nflush_type x.lab ANY\n"
	         "flush_type x.lab A MX\n");
	HAS(c, "error: usage: flush_type NAME TYPE");
	HAS(c, "error: not a domain name\n");
	HAS(c, "error: unknown type: NOSUCHTYPE\n");
	HAS(c, "error: type ANY is never cached\n");
	ck_assert_int_eq(count_of(c.text, "error: usage: flush_type"), 2);
	free(c.text);
	c = talk("UBCT1 flush_type x.lab\n");
	ck_assert_int_eq(strncmp(c.text, "error usage: flush_type", 23), 0);
	free(c.text);
	ck_assert_uint_eq(entries(), 1);
}
END_TEST

static int each_calls;

/* env.each as main.c's: worker 0, then "worker 1" (here the same server
 * again, whose table the first run has already emptied of the address). */
static void fake_each(void *arg, control_worker_fn *fn, void *fnarg)
{
	(void)arg;
	each_calls++;
	fn(srv, &cfg, fnarg);
	fn(srv, &cfg, fnarg);
}

static void sa4(struct sockaddr_storage *ss, uint8_t last);

/* flush_infra ADDR|all: without env.each, worker 0's table alone; bad
 * addresses are errors. */
START_TEST(cmd_flush_infra)
{
	struct sockaddr_storage a, b;
	struct sel *sel = server_sel(srv);
	uint64_t now = clock_ms();
	struct sel_info info;
	struct conv c;

	sa4(&a, 9);
	sa4(&b, 10);
	sel_rtt_report(sel, (struct sockaddr *)&a, 30, now);
	sel_timeout_report(sel, (struct sockaddr *)&b, now);
	talk_is("flush_infra 127.0.0.9\n", "forgot 1 server entries\nok\n");
	sel_info_get(sel, (struct sockaddr *)&a, now, &info);
	ck_assert(!info.known);
	sel_info_get(sel, (struct sockaddr *)&b, now, &info);
	ck_assert(info.known && info.backoff);
	talk_is("UBCT1 flush_infra 127.0.0.9\n",
	        "ok forgot 0 server entries\n");
	c = talk("flush_infra\nflush_infra 300.1.1.1\nflush_infra x y\n"
	         "flush_infra www.lab\n");
	ck_assert_int_eq(count_of(c.text, "error: usage: flush_infra"), 2);
	HAS(c, "error: not an IP address: 300.1.1.1\n");
	HAS(c, "error: not an IP address: www.lab\n");
	free(c.text);
	talk_is("UBCT1 flush_infra all\n", "ok forgot 1 server entries\n");
	sel_info_get(sel, (struct sockaddr *)&b, now, &info);
	ck_assert(!info.known);
}
END_TEST

/* With threads, every worker's own table is reached through env.each
 * (main.c: worker 0, then workers_each), and the removals are summed. */
START_TEST(cmd_flush_infra_workers)
{
	struct control_cmd *old = cmd;
	struct sockaddr_storage a;
	struct sel *sel = server_sel(srv);
	uint64_t now = clock_ms();
	struct sel_info info;
	struct conv c;

	cmd = ct_cmd_each(fake_each);
	each_calls = 0;
	sa4(&a, 7);
	sel_rtt_report(sel, (struct sockaddr *)&a, 30, now);
	talk_is("flush_infra 127.0.0.7\n", "forgot 1 server entries\nok\n");
	ck_assert_int_eq(each_calls, 1);
	sel_info_get(sel, (struct sockaddr *)&a, now, &info);
	ck_assert(!info.known);
	sel_rtt_report(sel, (struct sockaddr *)&a, 30, now);
	c = talk("flush_infra all\n");
	ck_assert_int_eq(each_calls, 2);
	HAS(c, "forgot 1 server entries\n");
	free(c.text);
	c = talk("flush_infra nope\n");
	ck_assert_int_eq(each_calls, 2);
	free(c.text);
	control_cmd_free(cmd);
	cmd = old;
}
END_TEST

START_TEST(cmd_reload)
{
	talk_is("reload\n", "reloaded /etc/test.conf\nok\n");
	reload_fails = 1;
	talk_is("reload\n", "error: bad.conf:3: unknown option\n");
	ck_assert_int_eq(reload_calls, 2);
	/* reload_keep_cache: the same reload (the cache is always kept) */
	reload_fails = 0;
	put_a_now("kept.lab.", 1);
	talk_is("reload_keep_cache\n", "reloaded /etc/test.conf\nok\n");
	ck_assert_int_eq(reload_calls, 3);
	ck_assert_uint_eq(entries(), 1);
}
END_TEST

START_TEST(cmd_dump_then_load)
{
	struct conv c, d;
	char *in;
	size_t n;

	put_a_now("www.z.lab.", 1);
	put_neg("nx.lab.");
	c = talk("dump_cache\n");
	ck_assert(strncmp(c.text, "; curvecache-dump version=1 time=", 33) ==
	          0);
	HAS(c, "www.z.lab.");
	HAS(c, "; nxdomain name=nx.lab. rank=auth src=plain\n");
	HAS(c, "; end entries=2 records=2\nok\n");
	c.text[c.len - 3] = '\0'; /* the dump without its "ok" */
	n = strlen("load_cache\n") + strlen(c.text);
	in = malloc(n + 1);
	ck_assert_ptr_nonnull(in);
	snprintf(in, n + 1, "load_cache\n%s", c.text);
	cache_flush_all(cache, NULL);
	/* One byte at a time, and the stream's end finishes the load. */
	d = talk_chunked(in, n, 1, true);
	ck_assert_str_eq(d.text, "loaded 2 entries (2 records); 0 expired, "
	                         "0 kept (better data cached), 0 bad\nok\n");
	ck_assert_int_eq(d.st, CONTROL_CLOSE);
	ck_assert_uint_eq(entries(), 2);
	free(d.text);
	free(in);
	free(c.text);
}
END_TEST

/* dump_cache leaves out the private-use types the iterator keeps beside
 * the public ones (the parent's NS set is TYPE65280): no TYPE65280 line,
 * a count of what was left out instead. */
START_TEST(cmd_dump_hides_private_types)
{
	static const char ns[] = "\\# 9 036e7331036c616200";
	struct conv c;

	put_a_now("www.z.lab.", 1);
	put_text_now("z.lab.", 65280, ns, CACHE_RANK_REFERRAL);
	put_text_now("z.lab.", 65534, ns, CACHE_RANK_REFERRAL);
	put_text_now("z.lab.", WIRE_TYPE_NS, "ns1.lab.", CACHE_RANK_AUTH);
	c = talk("dump_cache\n");
	HASNT(c, "TYPE65280");
	HASNT(c, "TYPE65534");
	HAS(c, "NS\tns1.lab.");
	HAS(c, "; end entries=2 records=2\n; 2 entries of private-use types "
	       "(the resolver's own notes) not shown\nok\n");
	free(c.text);
}
END_TEST

START_TEST(cmd_load_reports_bad_lines)
{
	static const char in[] =
		"load_cache\n"
		"; curvecache-dump version=1 time=1700000000\n"
		"a.lab. 9999999999 IN A 192.0.2.1 ; rank=auth src=plain\n"
		"b.lab. 300 IN A 192.0.2.x ; rank=auth src=plain\n"
		"\001\002garbage\n"
		"status\n";
	struct conv c = talk_chunked(in, sizeof in - 1, 7, true);

	HAS(c, "line 2: bad TTL\n");
	HAS(c, "line 3: RDATA does not fit its type\n");
	HAS(c, "line 4: not a record line\n");
	HAS(c, "line 5: bad TTL\n");
	HAS(c, "loaded 0 entries");
	ck_assert_uint_ge(c.len, 19);
	ck_assert_str_eq(c.text + c.len - 19, "error: 4 bad lines\n");
	free(c.text);
}
END_TEST

/** An RRSIG signature of 64 bytes, base64. */
#define UB_SIG \
	"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8gISIjJCUmJygpKissLS4vMDE" \
	"y" \
	"MzQ1Njc4OTo7PD0+Pw=="

/* An Unbound dump (unbound-control dump_cache): its RRsets are stored,
 * never as validated (secure reads unchecked, insecure stays), a bogus
 * RRset is not, RRSIGs become the DNSSEC image, the message part and
 * what follows EOF are ignored. */
START_TEST(cmd_load_unbound_dump)
{
	static const char in[] =
		"load_cache\n"
		"START_RRSET_CACHE\n"
		";rrset 3000 1 1 8 5\n"
		"www.ub.lab.\t3000\tIN\tA\t192.0.2.80\n"
		"www.ub.lab.\t3000\tIN\tRRSIG\tA 8 3 3600 20270101000000 "
		"20261201000000 12345 ub.lab. " UB_SIG "\n"
		";rrset 86000 2 0 2 0\n"
		"ub.lab.\t86000\tIN\tNS\tns1.ub.lab.\n"
		"ub.lab.\t86000\tIN\tNS\tns2.ub.lab.\n"
		";rrset nsec_apex 600 1 0 7 3\n"
		"ins.lab.\t600\tIN\tTXT\t\"v=1; x\" \"two\"\n"
		";rrset 3000 1 0 8 1\n"
		"bogus.lab.\t3000\tIN\tA\t192.0.2.66\n"
		";rrset -5 1 0 8 0\n"
		"old.lab.\t0\tIN\tA\t192.0.2.5\n"
		"END_RRSET_CACHE\n"
		"START_MSG_CACHE\n"
		"msg www.ub.lab. IN A 33152 1 3000 3 1 0 0\n"
		"www.ub.lab. IN A 0\n"
		"END_MSG_CACHE\n"
		"EOF\n"
		"after eof: ignored\n";
	struct conv c = talk_chunked(in, sizeof in - 1, 5, true);

	ck_assert_str_eq(c.text, "loaded 3 entries (4 records); 1 expired, "
	                         "0 kept (better data cached), 0 bad\nok\n");
	free(c.text);
	c = talk("dump_cache\n");
	HAS(c, "www.ub.lab.\t\t3000\tIN\tA\t192.0.2.80\t; rank=auth "
	       "src=plain\n");
	HAS(c, "\tRRSIG\tA 8 3 3600 20270101000000 20261201000000 12345 "
	       "ub.lab. ");
	HAS(c, "\tNS\tns2.ub.lab.\t; rank=referral src=plain\n");
	HAS(c, "\"v=1; x\" \"two\"\t; rank=auth src=plain sec=insecure\n");
	HASNT(c, "sec=secure");
	HASNT(c, "bogus.lab.");
	HASNT(c, "old.lab.");
	HAS(c, "; end entries=3 records=4\n");
	free(c.text);
}
END_TEST

/* A hostile or cut Unbound dump: each bad line by number, an RRset
 * with a bad or missing line not stored, the good ones stored. */
START_TEST(cmd_load_unbound_bad)
{
	static const char in[] =
		"load_cache\n"
		"START_RRSET_CACHE\n"                 /* line 1 */
		";rrset 3000 2 0 8 0\n"               /* 2: cut below */
		"a.lab.\t3000\tIN\tA\t192.0.2.1\n"    /* 3 */
		";rrset 3000 1 0 99 0\n"              /* 4: trust */
		"b.lab.\t3000\tIN\tA\t192.0.2.2\n"    /* 5: outside */
		";rrset 3000 2 0 8 0\n"               /* 6 */
		"c.lab.\t3000\tIN\tA\t192.0.2.3\n"    /* 7 */
		"d.lab.\t3000\tIN\tA\t192.0.2.4\n"    /* 8: another */
		";rrset 3000 1 1 8 0\n"               /* 9 */
		"e.lab.\t3000\tIN\tA\t192.0.2.5\n"    /* 10 */
		"e.lab.\t3000\tIN\tA\t192.0.2.6\n"    /* 11: not RRSIG */
		";rrset 3000 1 0 8 0\n"               /* 12 */
		"f.lab.\t3000\tIN\tA\t192.0.2.777\n"  /* 13: bad data */
		";rrset 3000 1 0 8 0 junk\n"          /* 14 */
		";rrset 3000 1 0 8 0\n"               /* 15 */
		"good.lab.\t3000\tIN\tA\t192.0.2.9\n" /* 16 */
		"END_RRSET_CACHE\n"                   /* 17 */
		"what is this\n"                      /* 18 */
		"START_MSG_CACHE\n"                   /* 19 */
		";rrset 3000 5 0 8 0\n";              /* 20: no end */
	struct conv c = talk_chunked(in, sizeof in - 1, 3, true);

	HAS(c, "line 2: not a record line: RRset cut short\n");
	HAS(c, "line 4: not a record line: bad ;rrset line");
	HAS(c, "line 5: not a record line: a line outside an RRset\n");
	HAS(c, "line 8: not a record line: not of the RRset");
	HAS(c, "line 11: unknown type: an RRSIG of the RRset expected\n");
	HAS(c, "line 13: RDATA does not fit its type\n");
	HAS(c, "line 14: not a record line: bad ;rrset line");
	HAS(c, "line 18: not a record line: a line after the RRsets");
	HAS(c, "loaded 1 entries (1 records); 0 expired, 0 kept (better "
	       "data cached), 8 bad\nerror: 8 bad lines\n");
	free(c.text);
	c = talk("dump_cache\n");
	HAS(c, "good.lab.");
	HASNT(c, "a.lab.");
	HASNT(c, "c.lab.");
	HASNT(c, "e.lab.");
	free(c.text);
}
END_TEST

START_TEST(cmd_load_overlong_line)
{
	size_t n = strlen("load_cache\n") + CACHEFILE_LINE_MAX + 100;
	char *in = malloc(n);
	struct conv c;

	ck_assert_ptr_nonnull(in);
	memset(in, 'x', n);
	memcpy(in, "load_cache\n; curvecache-dump version=1 time=1\n", 47);
	in[n - 1] = '\n';
	c = talk_chunked(in, n, 4096, true);
	HAS(c, "line 2: line or RRset too long\n");
	HAS(c, "error: 1 bad lines\n");
	free(c.text);
	free(in);
}
END_TEST

START_TEST(lookup_verdicts)
{
	ck_assert_str_eq(control_sec_summary(CACHE_SEC_SECURE, true),
	                 "secure and private (DNSSEC + DNSCurve)");
	ck_assert_str_eq(control_sec_summary(CACHE_SEC_SECURE, false),
	                 "secure (DNSSEC), plain transport");
	ck_assert_str_eq(control_sec_summary(CACHE_SEC_INSECURE, true),
	                 "private (DNSCurve), unsigned");
	ck_assert_str_eq(control_sec_summary(CACHE_SEC_INSECURE, false),
	                 "neither (unsigned, plain)");
	ck_assert_str_eq(control_sec_summary(CACHE_SEC_UNCHECKED, true),
	                 "private (DNSCurve), not validated");
	ck_assert_str_eq(control_sec_summary(CACHE_SEC_BOGUS, false),
	                 "BOGUS (failed DNSSEC validation; plain)");
	ck_assert_str_eq(control_sec_summary(CACHE_SEC_BOGUS, true),
	                 "BOGUS (failed DNSSEC validation; DNSCurve)");
}
END_TEST

START_TEST(cmd_lookup)
{
	struct conv c;

	put_a_now("www.example.lab.", 10);
	c = talk("lookup www.example.lab\n");
	HAS(c, "cache:\nwww.example.lab.");
	HAS(c, "192.0.2.10\t; rank=auth src=plain\n");
	HAS(c, "zone: . (root hints;");
	HAS(c, "ns: a.root.lab. plain\n");
	HAS(c, "  addr: 127.53.0.1 score=400 srtt=400ms(unknown) "
	       "timeouts=0\n");
	/* DNSSEC: the entry's status and provenance, then the verdict. */
	HAS(c, "dnssec: A ");
	HAS(c, " (plain)\nlearned: A plain\n"
	       "answer: A neither (not validated, plain)\nzone: ");
	free(c.text);
	/* how each entry was learned: the transport stored with it */
	put_a_via("tls.example.lab.", 11, CACHE_VIA_TLS);
	put_a_via("fwd.example.lab.", 12, CACHE_VIA_FWD_TLS);
	put_a_via("dane.example.lab.", 13, CACHE_VIA_TLS_DANE);
	c = talk("lookup tls.example.lab\nlookup fwd.example.lab\n"
	         "lookup dane.example.lab\n");
	HAS(c, "\nlearned: A tls\n");
	HAS(c, "\nlearned: A forwarder-tls\n");
	HAS(c, "\nlearned: A tls-dane\n");
	free(c.text);
	put_text_now("example.lab.", WIRE_TYPE_NS, "ns1.example.lab.",
	             CACHE_RANK_REFERRAL);
	put_text_now("example.lab.", WIRE_TYPE_NS, KEY_NS ".ns2.example.lab.",
	             CACHE_RANK_REFERRAL);
	put_text_now(KEY_NS ".ns2.example.lab.", WIRE_TYPE_A, "127.53.1.9",
	             CACHE_RANK_GLUE);
	c = talk("lookup www.example.lab AAAA\n");
	HAS(c, "cache:\n; nothing cached\nanswer: AAAA not cached\n");
	HASNT(c, "dnssec: ");
	HAS(c, "zone: example.lab. (cached NS;");
	HAS(c, "ns: " KEY_NS ".ns2.example.lab. dnscurve key=" KEY_NS "\n");
	HAS(c, "  addr: 127.53.1.9 score=");
	free(c.text);
	talk_is("lookup www.example.lab BOGUS\nlookup a..b\n",
	        "error: unknown type\n"
	        "error: not a domain name\n");
}
END_TEST

static void sa4(struct sockaddr_storage *ss, uint8_t last)
{
	struct sockaddr_in *in = (struct sockaddr_in *)ss;

	memset(ss, 0, sizeof(*ss));
	in->sin_family = AF_INET;
	in->sin_addr.s_addr = htonl(0x7f000000u | last);
}

/* The selection table of the infra listings: 127.0.0.9 answered in
 * 30 ms for zone, 127.0.0.10 timed out once (with a DNSCurve key, when
 * given). */
static void two_servers(const uint8_t *zone, size_t zl, const uint8_t *key,
                        uint64_t now)
{
	struct sel *sel = server_sel(srv);
	struct sockaddr_storage a, b;

	sa4(&a, 9);
	sa4(&b, 10);
	sel_rtt_report(sel, (struct sockaddr *)&a, 30, now);
	sel_zone_note(sel, (struct sockaddr *)&a, zone, zl, now);
	if (key != NULL)
		sel_key_set(sel, (struct sockaddr *)&b, key, now);
	sel_timeout_report(sel, (struct sockaddr *)&b, now);
}

START_TEST(cmd_servers)
{
	static const uint8_t key[32] = { 1, 2, 3 };
	struct iter_env ienv;
	uint8_t zone[WIRE_NAME_MAX];
	size_t zl = ct_name("example.lab.", zone);
	uint64_t now = clock_ms();
	struct conv c;

	two_servers(zone, zl, key, now);
	c = talk("servers\n");
	HAS(c, "127.0.0.9 zone=example.lab. srtt=30ms timeouts=0 backoff=no "
	       "edns=yes key=none last_error=- transport=plain\n");
	HAS(c, "127.0.0.10 zone=- srtt=400ms timeouts=1 backoff=yes "
	       "edns=yes key=uz5");
	HAS(c, " last_error=timeout error_age=0s transport=curve\n");
	HAS(c, "; 2 servers, 1 with a DNSCurve key\n"
	       "; 0 asked over TLS (transport= as worker 0 asks)\n"
	       "; 0 zones in back-off (RFC 9520)\nok\n");
	free(c.text);
	/* a zone whose servers were all silent (RFC 9520) */
	server_iter_env(srv, &ienv);
	(void)deadzone_fail(ienv.deadzone, deadzone_key(zone, zl, 0), zone, zl,
	                    0, DEADZONE_EDE_NO_REACH, now);
	c = talk("servers\n");
	HAS(c, "; backoff example.lab. failures=1 left=1s ede=22\n"
	       "; 1 zones in back-off (RFC 9520)\nok\n");
	free(c.text);
	/* flush_infra all forgets it */
	talk_is("flush_infra all\n", "forgot 2 server entries\nok\n");
	c = talk("servers\n");
	HAS(c, "; 0 zones in back-off (RFC 9520)\nok\n");
	free(c.text);
}
END_TEST

/* dump_infra: the selection table in unbound-control's fields;
 * ratelimit_list: empty (no zone rate limit). */
START_TEST(cmd_dump_infra)
{
	uint8_t zone[WIRE_NAME_MAX];
	size_t zl = ct_name("example.lab.", zone);
	struct conv c;

	two_servers(zone, zl, NULL, clock_ms());
	c = talk("dump_infra\n");
	HAS(c, "127.0.0.9 example.lab. ttl 900 ping 30 var 0 rtt 30 rto 30 "
	       "tA 0 tAAAA 0 tother 0 ednsknown 1 edns 0 delay 0 lame "
	       "dnssec 0 rec 0 A 0 other 0\n");
	HAS(c, "127.0.0.10 . ttl 900 ping 400 var 0 rtt 400 rto 800 tA 0 "
	       "tAAAA 0 tother 1 ednsknown 0 edns 0 delay 1 lame dnssec 0 "
	       "rec 0 A 0 other 0\n");
	free(c.text);
	talk_is("ratelimit_list\n", "ok\n");
	talk_is("UBCT1 ratelimit_list +a\n", "");
}
END_TEST

/* A forward or stub zone with IPv4 servers at PORTs. */
static void zone_set(struct cfg_zone *z, const char *name,
                     const uint16_t *ports, size_t n)
{
	size_t i;

	memset(z, 0, sizeof *z);
	z->namelen = ct_name(name, z->name);
	for (i = 0; i < n; i++) {
		struct sockaddr_in *sin = (struct sockaddr_in *)&z->addr[i].sa;

		sin->sin_family = AF_INET;
		sin->sin_port = htons(ports[i]);
		sin->sin_addr.s_addr = htonl(0xc0000235u + (uint32_t)i);
		z->addr[i].len = sizeof *sin;
	}
	z->naddr = n;
}

START_TEST(cmd_lists)
{
	static const uint16_t ports[] = { 53, 5353 };
	char lzline[] = "home.arpa. transparent", why[128];
	struct conv c;

	zone_set(&cfg.forward[0], "corp.example.", ports, 2);
	cfg.n_forward = 1;
	zone_set(&cfg.stub[0], "lab.", ports, 1);
	cfg.n_stub = 1;
	ck_assert_int_eq(cfg_local_zone_add(&cfg, lzline, why, sizeof why), 0);
	cfg_local_seal(&cfg);
	talk_is("UBCT1  list_forwards\n",
	        "corp.example. IN forward 192.0.2.53 "
	        "192.0.2.54@5353\n");
	talk_is("UBCT1  list_stubs\n", "lab. IN stub 192.0.2.53\n");
	talk_is("UBCT1  list_local_zones\n", "home.arpa. transparent\n");
	c = talk("list_forwards\n");
	HAS(c, "forward 192.0.2.53 192.0.2.54@5353\nok\n");
	free(c.text);
}
END_TEST

START_TEST(cmd_get_option)
{
	cfg.prefetch = true;
	cfg.cache_size = 123456789;
	cfg.query_timeout_ms = 5000;
	talk_is("UBCT1  get_option prefetch\n", "yes\n");
	talk_is("UBCT1  get_option rrset-cache-size\n", "123456789\n");
	talk_is("UBCT1  get_option num-threads:\n", "1\n");
	talk_is("UBCT1  get_option query-timeout\n", "5\n");
	talk_is("UBCT1  get_option control-interface\n",
	        "/run/curvecache/control\n");
	talk_is("UBCT1  get_option no-such-option\n",
	        "error unknown option no-such-option\n");
}
END_TEST

/* get_option answers for every option of the config syntax; a list
 * (listen, access-control, private-address, forward-zone...) one value
 * a line, as the config holds it. */
START_TEST(cmd_get_option_every)
{
	static const char conf[] =
		"listen: 127.0.0.1@5353\n"
		"listen: ::1\n"
		"access-control: 10.0.0.0/8 refuse\n"
		"access-control: 127.0.0.0/8 allow\n"
		"private-address: 192.168.0.0/16\n"
		"private-address: fd00::/8\n"
		"private-domain: lan.example.\n"
		"forward-zone: corp.example. 192.0.2.1 192.0.2.2@5353\n"
		"domain-insecure: test.\n"
		"ip-freebind: yes\n"
		"jostle-timeout: 250\n";
	static const char *const every[] = {
		"port",
		"listen",
		"ip-freebind",
		"access-control",
		"access-control-default",
		"proxy-protocol-from",
		"ratelimit",
		"ratelimit-exempt-loopback",
		"root-hints",
		"do-ip4",
		"do-ip6",
		"outgoing-interface",
		"qname-minimisation",
		"do-not-query-localhost",
		"harden-glue",
		"private-address",
		"private-domain",
		"cache-size",
		"min-ttl",
		"max-ttl",
		"negative-max-ttl",
		"edns-buffer-size",
		"query-timeout",
		"jostle-timeout",
		"curve",
		"curve-formats",
		"curve-plain-fallback",
		"curve-require",
		"curve-pin",
		"curve-key-file",
		"curve-key-rotate",
		"cache-file",
		"log-queries",
		"serve-stale",
		"serve-stale-window",
		"prefetch",
		"forward-zone",
		"stub-zone",
		"local-data-file",
		"block-file",
		"local-zone",
		"user",
		"control-socket",
		"log-level",
		"threads",
		"pidfile",
		"dnssec",
		"trust-anchor-file",
		"auto-trust-anchor-file",
		"trust-anchor",
		"domain-insecure",
		"val-bogus-ttl",
		"nsec3-max-iterations",
		"aggressive-nsec",
		"add-holddown",
		"del-holddown",
		"keep-missing",
		"permit-small-holddown",
		"interface",
	};
	char err[256], line[64];
	struct conv c;
	size_t i;

	ck_assert_msg(cfg_parse("test.conf", conf, sizeof conf - 1, &cfg, err,
	                        sizeof err) == 0,
	              "%s", err);
	for (i = 0; i < sizeof every / sizeof every[0]; i++) {
		snprintf(line, sizeof line, "get_option %s\n", every[i]);
		c = talk(line);
		ck_assert_msg(strncmp(c.text, "error", 5) != 0 && c.len >= 3 &&
		                      strcmp(c.text + c.len - 3, "ok\n") == 0,
		              "%s: %s", every[i], c.text);
		free(c.text);
	}
	talk_is("get_option interface\n", "127.0.0.1@5353\n::1\nok\n");
	talk_is("get_option access-control\n",
	        "10.0.0.0/8 refuse\n127.0.0.0/8 allow\nok\n");
	talk_is("get_option private-address\n",
	        "192.168.0.0/16\nfd00::/8\nok\n");
	talk_is("get_option private-domain\n", "lan.example.\nok\n");
	talk_is("get_option forward-zone\n",
	        "corp.example. 192.0.2.1@53 192.0.2.2@5353\nok\n");
	talk_is("get_option domain-insecure\n", "test.\nok\n");
	talk_is("get_option ip-freebind\n", "yes\nok\n");
	talk_is("get_option jostle-timeout\n", "250\nok\n");
	talk_is("get_option access-control-default\n", "refuse\nok\n");
	talk_is("get_option stub-zone\n", "ok\n");
}
END_TEST

START_TEST(cmd_verbosity_stop)
{
	enum cfg_log_level was = log_level();
	struct conv c;

	c = talk("UBCT1  verbosity 4\n");
	ck_assert_str_eq(c.text, "ok\n");
	ck_assert_int_eq(log_level(), CFG_LOG_DEBUG);
	free(c.text);
	c = talk("UBCT1  verbosity 0\n");
	ck_assert_int_eq(log_level(), CFG_LOG_WARN);
	free(c.text);
	c = talk("UBCT1  verbosity x\n");
	ck_assert(strncmp(c.text, "error in verbosity number syntax", 32) ==
	          0);
	free(c.text);
	log_level_set(was);
	talk_is("UBCT1  log_reopen\n", "ok\n");
	c = talk("UBCT1  stop\n");
	ck_assert_str_eq(c.text, "ok\n");
	ck_assert_int_eq(c.st, CONTROL_STOP);
	free(c.text);
	c = talk("stop\nstatus\n");
	ck_assert_str_eq(c.text, "ok\n");
	ck_assert_int_eq(c.st, CONTROL_STOP);
	free(c.text);
}
END_TEST

/* What a worker's local zones (the built-in table and the runtime one)
 * answer for a name: LOCALZONE_ status; rcode and answer count. */
static int local_lookup(const char *name, uint16_t type, uint16_t *an,
                        uint8_t *rcode)
{
	uint8_t wn[WIRE_NAME_MAX], buf[LOCALZONE_ANSWER_MAX];
	struct answer a;
	size_t len = ct_name(name, wn);
	int rc;

	memset(&a, 0, sizeof a);
	rc = localzone_answer(lz, wn, len, type, WIRE_CLASS_IN, &a, buf,
	                      sizeof buf);
	*an = a.an_count;
	*rcode = a.rcode;
	return rc;
}

/* A conversation to the end of the stream. */
static struct conv talk_eof(const char *in)
{
	return talk_chunked(in, strlen(in), 0, true);
}

START_TEST(cmd_local_data)
{
	struct conv c;
	uint16_t an = 0;
	uint8_t rcode = 0;

	talk_is("UBCT1  local_data printer.home.arpa. 300 IN A "
	        "192.0.2.9\n",
	        "ok\n");
	talk_is("local_data \"printer.home.arpa AAAA 2001:db8::9\"\n", "ok\n");
	talk_is("local_data txt.home.arpa. TXT \"hi there\"\n", "ok\n");
	ck_assert_int_eq(local_lookup("printer.home.arpa.", WIRE_TYPE_A, &an,
	                              &rcode),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(an, 1);
	ck_assert_int_eq(local_lookup("printer.home.arpa.", WIRE_TYPE_MX, &an,
	                              &rcode),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(an, 0); /* NODATA */
	ck_assert_uint_eq(rcode, WIRE_RCODE_NOERROR);
	c = talk("UBCT1  list_local_data\n");
	HAS(c, "printer.home.arpa.\t300\tIN\tA\t192.0.2.9\n");
	HAS(c, "printer.home.arpa.\t3600\tIN\tAAAA\t2001:db8::9\n");
	HAS(c, "txt.home.arpa.\t3600\tIN\tTXT\t\"hi there\"\n");
	free(c.text);
	c = talk("UBCT1  local_data x.home.arpa. A 192.0.2\n");
	ck_assert_msg(strncmp(c.text, "error local-data: bad RDATA", 27) == 0,
	              "%s", c.text);
	free(c.text);
	talk_is("UBCT1  local_data_remove printer.home.arpa.\n", "ok\n");
	ck_assert_int_eq(local_lookup("printer.home.arpa.", WIRE_TYPE_A, &an,
	                              &rcode),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(rcode, WIRE_RCODE_NXDOMAIN); /* static home.arpa. */
	localzone_rt_clear();
}
END_TEST

/* local_zone, local_zone_remove, and the bulk forms with their input
 * after the command (native: to the end of the stream; Unbound's
 * framing: to a line 0x04). */
START_TEST(cmd_local_zones)
{
	static const char bulk[] = "local_zones\n"
				   "ads1.example. always_nxdomain\n"
				   "\"ads2.example\" always_refuse\n"
				   "bad..name static\n"
				   "\n"
				   "ads3.example. always_null";
	static const char ubulk[] = "UBCT1 local_zones_remove\n"
				    "ads1.example.\n\x04\n";
	struct conv c;
	uint16_t an = 0;
	uint8_t rcode = 0;

	talk_is("UBCT1  local_zone test.lab. always_nxdomain\n", "ok\n");
	ck_assert_int_eq(local_lookup("x.test.lab.", WIRE_TYPE_A, &an, &rcode),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(rcode, WIRE_RCODE_NXDOMAIN);
	c = talk("local_zone test.lab. bogus\n");
	HAS(c, "error: ");
	free(c.text);
	c = talk_chunked(bulk, sizeof bulk - 1, 7, true);
	HAS(c, "error for input line: bad..name static");
	HAS(c, "added 3 zones\n");
	HAS(c, "error: 1 bad lines\n");
	free(c.text);
	ck_assert_int_eq(local_lookup("a.ads1.example.", WIRE_TYPE_A, &an,
	                              &rcode),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(rcode, WIRE_RCODE_NXDOMAIN);
	ck_assert_int_eq(local_lookup("ads2.example.", WIRE_TYPE_A, &an,
	                              &rcode),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(rcode, WIRE_RCODE_REFUSED);
	ck_assert_int_eq(local_lookup("ads3.example.", WIRE_TYPE_A, &an,
	                              &rcode),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(an, 1);
	c = talk_chunked(ubulk, sizeof ubulk - 1, 5, false);
	ck_assert_str_eq(c.text, "removed 1 zones\n");
	free(c.text);
	ck_assert_int_eq(local_lookup("a.ads1.example.", WIRE_TYPE_A, &an,
	                              &rcode),
	                 LOCALZONE_ENOTLOCAL);
	c = talk("UBCT1 list_local_zones\n");
	HAS(c, "ads2.example. always_refuse\n");
	HAS(c, "ads1.example. removed\n");
	free(c.text);
	c = talk("local_datas\nw.lab. A 192.0.2.1\nw.lab. A 192.0.2.2\n");
	free(c.text);
	c = talk_eof("local_datas\nw.lab. A 192.0.2.1\nv.lab. TXT x\n");
	HAS(c, "added 2 datas\nok\n");
	free(c.text);
	ck_assert_int_eq(local_lookup("w.lab.", WIRE_TYPE_A, &an, &rcode),
	                 LOCALZONE_OK);
	ck_assert_uint_eq(an, 1);
	c = talk_eof("local_datas_remove\nw.lab.\nv.lab\n");
	HAS(c, "removed 2 datas\nok\n");
	free(c.text);
	ck_assert_int_eq(local_lookup("w.lab.", WIRE_TYPE_A, &an, &rcode),
	                 LOCALZONE_ENOTLOCAL);
	talk_is("UBCT1  local_zone_remove test.lab\n", "ok\n");
	ck_assert_int_eq(local_lookup("x.test.lab.", WIRE_TYPE_A, &an, &rcode),
	                 LOCALZONE_ENOTLOCAL);
	localzone_rt_clear();
}
END_TEST

START_TEST(cmd_help)
{
	struct conv c = talk("help\n");
	static const char *const cmds[] = {
		"status",      "stats",      "stats_noreset", "reload",
		"flush",       "flush_zone", "flush_all",     "flush_negative",
		"dump_cache",  "load_cache", "lookup",        "servers",
		"flush_bogus",
	};
	size_t i;
	char want[32];

	for (i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
		snprintf(want, sizeof want, "\n%s ", cmds[i]);
		ck_assert_msg(strstr(c.text, want) != NULL ||
		                      strncmp(c.text, want + 1,
		                              strlen(want) - 1) == 0,
		              "%s", cmds[i]);
	}
	free(c.text);
}
END_TEST

Suite *control_suite(void)
{
	Suite *s = suite_create("control");
	TCase *tc;

	tc = tcase_create("session");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, session_status);
	tcase_add_test(tc, ubct_status_closes);
	tcase_add_test(tc, ubct_version_mismatch);
	tcase_add_test(tc, ubct_error_first);
	tcase_add_test(tc, ubct_action_ok);
	tcase_add_test(tc, ubct_stats_text);
	tcase_add_test(tc, ubct_dump_load_to_eof_line);
	tcase_add_test(tc, session_unknown_keeps_open);
	tcase_add_test(tc, session_usage_errors);
	tcase_add_test(tc, session_split_crlf_blank);
	tcase_add_test(tc, session_too_long_closes);
	tcase_add_test(tc, session_malformed_closes);
	tcase_add_test(tc, session_eof);
	tcase_add_test(tc, session_garbage);
	suite_add_tcase(s, tc);
	tc = tcase_create("commands");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, cmd_flushes);
	tcase_add_test(tc, cmd_flush_type);
	tcase_add_test(tc, cmd_flush_infra);
	tcase_add_test(tc, cmd_flush_infra_workers);
	tcase_add_test(tc, cmd_reload);
	tcase_add_test(tc, cmd_dump_then_load);
	tcase_add_test(tc, cmd_dump_hides_private_types);
	tcase_add_test(tc, cmd_load_reports_bad_lines);
	tcase_add_test(tc, cmd_load_overlong_line);
	tcase_add_test(tc, cmd_load_unbound_dump);
	tcase_add_test(tc, cmd_load_unbound_bad);
	tcase_add_test(tc, cmd_lookup);
	tcase_add_test(tc, lookup_verdicts);
	tcase_add_test(tc, cmd_servers);
	tcase_add_test(tc, cmd_dump_infra);
	tcase_add_test(tc, cmd_help);
	tcase_add_test(tc, cmd_lists);
	tcase_add_test(tc, cmd_get_option);
	tcase_add_test(tc, cmd_get_option_every);
	tcase_add_test(tc, cmd_verbosity_stop);
	tcase_add_test(tc, cmd_local_data);
	tcase_add_test(tc, cmd_local_zones);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, control_stats_tcase());
	suite_add_tcase(s, control_socket_tcase());
	suite_add_tcase(s, control_rt_tcase());
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(control_suite());
	int failed;

	srunner_add_suite(sr, cachefile_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
