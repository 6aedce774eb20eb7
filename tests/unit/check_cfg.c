/*
 * tests/unit/check_config.c - Suite "config": the configuration file.
 */
#include <arpa/inet.h>
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "conf/cfg.h"
#include "wire/wire.h"

static struct cfg c;
static char err[CFG_ERR_BYTES];

static int parse(const char *text)
{
	cfg_defaults(&c);
	err[0] = '\0';
	return cfg_parse("test.conf", text, strlen(text), &c, err, sizeof err);
}

/* A check that text is refused with a message that holds want. */
static void refused(const char *text, const char *want)
{
	ck_assert_msg(parse(text) == -1, "accepted: %s", text);
	ck_assert_msg(strstr(err, want) != NULL, "%s: %s", text, err);
}

/* What a line should be refused with: the message holds want. */
struct refusal {
	const char *text, *want;
};

/* A check that each of the n texts is refused, the message starting
 * with head (NULL: with want). */
static void refused_all(const struct refusal *r, size_t n, const char *head)
{
	size_t i;

	for (i = 0; i < n; i++) {
		const char *h = head != NULL ? head : r[i].want;

		refused(r[i].text, r[i].want);
		ck_assert_msg(strncmp(err, h, strlen(h)) == 0,
		              "%s: got \"%s\", want \"%s\"", r[i].text, err,
		              h);
	}
}

#define REFUSED_ALL(r, head) refused_all(r, sizeof r / sizeof r[0], head)

static struct sockaddr_storage addr(const char *s)
{
	struct sockaddr_storage ss;
	struct cfg_addr a;

	ck_assert_int_eq(cfg_addr_parse(s, 53, &a), 0);
	memcpy(&ss, &a.sa, sizeof ss);
	return ss;
}

static enum cfg_acl_action acl(const char *s)
{
	struct sockaddr_storage ss = addr(s);

	return cfg_acl_check(&c, (struct sockaddr *)&ss);
}

static bool proxy_from(const char *s)
{
	struct sockaddr_storage ss = addr(s);

	return cfg_proxy_from(&c, (struct sockaddr *)&ss);
}

START_TEST(test_defaults)
{
	ck_assert_int_eq(parse(""), 0);
	ck_assert_uint_eq(c.n_listen, 2);
	ck_assert_uint_eq(c.port, 53);
	ck_assert_uint_eq(c.max_ttl, 86400);
	ck_assert_uint_eq(c.neg_max_ttl, 3600);
	ck_assert_uint_eq(c.query_timeout_ms, 5000);
	ck_assert(c.curve && !c.curve_plain_fallback);
	ck_assert(c.qname_minimisation && c.do_not_query_localhost);
	ck_assert_uint_eq(c.n_curve_order, 2);
	ck_assert_int_eq(c.curve_order[0], CFG_CURVE_STREAMLINED);
	ck_assert_int_eq(acl("127.0.0.1"), CFG_ACL_ALLOW);
	ck_assert_int_eq(acl("127.9.8.7"), CFG_ACL_ALLOW);
	ck_assert_int_eq(acl("::1"), CFG_ACL_ALLOW);
	ck_assert_int_eq(acl("192.0.2.1"), CFG_ACL_REFUSE);
	ck_assert_int_eq(acl("2001:db8::1"), CFG_ACL_REFUSE);
	ck_assert_int_eq(acl("::ffff:127.0.0.1"), CFG_ACL_ALLOW);
}
END_TEST

START_TEST(test_values)
{
	ck_assert_int_eq(parse("# a comment\n"
	                       "port: 5300   # trailing comment\n"
	                       "listen: 127.0.0.2\n"
	                       "listen: ::1@5353\n"
	                       "cache-size: 128m\n"
	                       "min-ttl: 5\n"
	                       "max-ttl: 600\n"
	                       "query-timeout: 0.5\n"
	                       "curve-formats: txt streamlined\n"
	                       "user:\n"
	                       "control-socket:\n"
	                       "threads: 2\n"
	                       "ratelimit: 50\n"
	                       "ratelimit-exempt-loopback: no\n"
	                       "log-level: debug\n"
	                       "access-control: 10.0.0.0/8 allow\n"
	                       "access-control: 10.1.0.0/16 deny\n"
	                       "proxy-protocol-from: 10.9.0.0/16\n"),
	                 0);
	ck_assert_uint_eq(c.n_listen, 2);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in *)&c.listen[0].sa)
	                                ->sin_port),
	                  5300);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in6 *)&c.listen[1].sa)
	                                ->sin6_port),
	                  5353);
	ck_assert_uint_eq(c.cache_size, 128u * 1024 * 1024);
	ck_assert_uint_eq(c.min_ttl, 5);
	ck_assert_uint_eq(c.query_timeout_ms, 500);
	ck_assert_int_eq(c.curve_order[0], CFG_CURVE_TXT);
	ck_assert_str_eq(c.user, "");
	ck_assert_str_eq(c.control_socket, "");
	ck_assert_uint_eq(c.threads, 2);
	ck_assert_uint_eq(c.ratelimit, 50);
	ck_assert(!c.ratelimit_exempt_loopback);
	ck_assert_int_eq(c.log_level, CFG_LOG_DEBUG);
	/* The first access-control line replaces the default list. */
	ck_assert_int_eq(acl("127.0.0.1"), CFG_ACL_REFUSE);
	ck_assert_int_eq(acl("10.2.3.4"), CFG_ACL_ALLOW);
	ck_assert_int_eq(acl("10.1.3.4"), CFG_ACL_DENY); /* longest wins */
	ck_assert_uint_eq(c.n_proxy_from, 1);
	ck_assert(proxy_from("10.9.1.2"));
	ck_assert(!proxy_from("10.8.1.2"));
}
END_TEST

/* Each bad line must fail, naming the file and the line. */
START_TEST(test_reject)
{
	static const char *const bad[] = {
		"bogus: 1\n",
		"port: 0\n",
		"port: 70000\n",
		"port: x\n",
		"listen: 300.1.1.1\n",
		"listen: 127.0.0.1@99999\n",
		"do-ip4: maybe\n",
		"cache-size: 12q\n",
		"cache-size: 1k\n",
		"access-control: 10.0.0.0/33 allow\n",
		"access-control: 10.0.0.0/8\n",
		"access-control: 10.0.0.0/8 permit\n",
		"curve-formats: streamlined streamlined\n",
		"curve-formats: dnscrypt\n",
		"log-level: loud\n",
		"threads: 0\n",
		"ratelimit: -1\n",
		"ratelimit: 1000001\n",
		"ratelimit-exempt-loopback: sometimes\n",
		"query-timeout: -1\n",
		"query-timeout: 5x\n",
		"no colon here\n",
		"port:\n",
		"edns-buffer-size: 100\n",
		"outgoing-interface: 127.0.0.1@53\n",
		"min-ttl: 18446744073709551616\n",
		"curve-key-rotate: 8785\n",
		"curve-key-rotate: 5d\n",
		"curve-key-rotate: h\n",
		"curve-key-rotate: -1s\n",
		"log-queries: maybe\n",
		"cache-file: var/cache\n",
		"proxy-protocol-from: 127.0.0.0/33\n",
		"proxy-protocol-from: lb.example\n",
		"proxy-protocol-from:\n",
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char text[200];

		snprintf(text, sizeof text, "# line 1\n%s", bad[i]);
		ck_assert_msg(parse(text) == -1, "accepted: %s", bad[i]);
		ck_assert_msg(strncmp(err, "test.conf:2: ", 13) == 0,
		              "message for %s: %s", bad[i], err);
	}
}
END_TEST

START_TEST(test_reject_whole)
{
	ck_assert_int_eq(parse("do-ip4: no\ndo-ip6: no\n"), -1);
	ck_assert_str_eq(err, "test.conf: do-ip4 and do-ip6 are both no");
	ck_assert_int_eq(parse("min-ttl: 100\nmax-ttl: 10\n"), -1);
	ck_assert_int_eq(cfg_parse("t", "port: 1\0x\n", 10, &c, err,
	                           sizeof err),
	                 -1);
	ck_assert_ptr_nonnull(strstr(err, "NUL"));
}
END_TEST

START_TEST(test_limits)
{
	char *text = malloc(100000);
	size_t n = 0;
	int i;

	for (i = 0; i < CFG_MAX_ACL + 1; i++)
		n += (size_t)sprintf(text + n,
		                     "access-control: 10.%d.0.0/16 allow\n",
		                     i);
	refused(text, "test.conf:65: too many");
	memset(text, 'a', 5000);
	memcpy(text + 5000, ": 1\n", 5);
	refused(text, "line too long");
	free(text);
}
END_TEST

START_TEST(test_load_file)
{
	char path[] = "/tmp/check_config_XXXXXX";
	int fd = mkstemp(path);
	const char *text = "port: 5301\nbogus-option: yes\n";

	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, text, strlen(text)), (int)strlen(text));
	close(fd);
	ck_assert_int_eq(cfg_load(path, &c, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err,
	                             ":2: unknown option \"bogus-option\""));
	ck_assert_int_eq(strncmp(err, path, strlen(path)), 0);
	unlink(path);
	ck_assert_int_eq(cfg_load(path, &c, err, sizeof err), -1);
	ck_assert_ptr_nonnull(strstr(err, "cannot open"));
}
END_TEST

/* Operations options: key rotation units, cache file, query log. */
START_TEST(test_ops_values)
{
	ck_assert_int_eq(parse(""), 0);
	ck_assert_uint_eq(c.curve_key_rotate_s, 0);
	ck_assert_str_eq(c.cache_file, "");
	ck_assert(!c.log_queries);
	ck_assert_int_eq(parse("curve-key-rotate: 24\n"), 0);
	ck_assert_uint_eq(c.curve_key_rotate_s, 86400);
	ck_assert_int_eq(parse("curve-key-rotate: 2h\n"), 0);
	ck_assert_uint_eq(c.curve_key_rotate_s, 7200);
	ck_assert_int_eq(parse("curve-key-rotate: 5m\n"), 0);
	ck_assert_uint_eq(c.curve_key_rotate_s, 300);
	ck_assert_int_eq(parse("curve-key-rotate: 3s\n"), 0);
	ck_assert_uint_eq(c.curve_key_rotate_s, 3);
	ck_assert_int_eq(parse("curve-key-rotate: 8784\n"), 0);
	ck_assert_uint_eq(c.curve_key_rotate_s, CFG_MAX_ROTATE_S);
	ck_assert_int_eq(parse("cache-file: /var/lib/curvecache/cache\n"
	                       "log-queries: yes\n"),
	                 0);
	ck_assert_str_eq(c.cache_file, "/var/lib/curvecache/cache");
	ck_assert(c.log_queries);
}
END_TEST

/* serve-stale, prefetch, forward and stub zones, local data. */
START_TEST(test_zone_values)
{
	static const uint8_t corp[] = "\004corp\007example";
	char key[] = "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2";
	char text[512];

	ck_assert_int_eq(parse(""), 0);
	ck_assert(c.serve_stale && c.prefetch);
	ck_assert_uint_eq(c.serve_stale_window, 86400);
	ck_assert_uint_eq(c.n_forward + c.n_stub, 0);
	snprintf(text, sizeof text,
	         "serve-stale: no\n"
	         "serve-stale-window: 60\nprefetch: no\n"
	         "forward-zone: Corp.Example. 10.0.0.53 ::1@5353\n"
	         "forward-zone: . 127.0.0.1\n"
	         "stub-zone: corp.example 192.0.2.1/%s 192.0.2.2\n"
	         "local-data-file: /etc/hosts\nblock-file: /dev/null\n",
	         key);
	ck_assert_msg(parse(text) == 0, "%s", err);
	ck_assert(!c.serve_stale && !c.prefetch);
	ck_assert_uint_eq(c.serve_stale_window, 60);
	ck_assert_uint_eq(c.n_forward, 2);
	ck_assert_uint_eq(c.forward[0].namelen, sizeof corp);
	ck_assert_mem_eq(c.forward[0].name, corp, sizeof corp);
	ck_assert_uint_eq(c.forward[0].naddr, 2);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in6 *)&c.forward[0]
	                                 .addr[1]
	                                 .sa)
	                                ->sin6_port),
	                  5353);
	ck_assert_uint_eq(c.forward[1].namelen, 1);
	ck_assert_uint_eq(c.n_stub, 1);
	ck_assert_str_eq(c.stub[0].key[0], key);
	ck_assert_str_eq(c.stub[0].key[1], "");
	ck_assert_str_eq(c.local_data_file, "/etc/hosts");
	ck_assert_str_eq(c.block_file, "/dev/null");
	/* The longest zone wins; "." holds everything. */
	ck_assert_int_eq(cfg_zone_find(c.forward, c.n_forward,
	                               (const uint8_t
	                                        *)"\003www\004corp\007example",
	                               18),
	                 0);
	ck_assert_int_eq(cfg_zone_find(c.forward, c.n_forward,
	                               (const uint8_t *)"\004corp\007example",
	                               14),
	                 0);
	ck_assert_int_eq(cfg_zone_find(c.forward, c.n_forward,
	                               (const uint8_t *)"\005xcorp\007example",
	                               15),
	                 1);
	ck_assert_int_eq(cfg_zone_find(c.forward, 1,
	                               (const uint8_t *)"\007example", 9),
	                 -1);
}
END_TEST

/* Issue 13 item 1: a TLS forwarder in Unbound's syntax is refused, never
 * sent plain DNS; '#' starts a comment only after white space. */
/* Zone names in the config go through the codec's one text parser:
 * lowercase wire form, escapes, the same limits. */
START_TEST(test_name_parse)
{
	uint8_t w[CFG_NAME_MAX];
	size_t n;
	char label64[80];

	ck_assert_int_eq(cfg_name_parse("Corp.Example", w, &n), 0);
	ck_assert_uint_eq(n, 14);
	ck_assert_int_eq(memcmp(w, "\4corp\7example\0", 14), 0);
	ck_assert_int_eq(cfg_name_parse("corp.example.", w, &n), 0);
	ck_assert_uint_eq(n, 14);
	ck_assert_int_eq(cfg_name_parse(".", w, &n), 0);
	ck_assert_uint_eq(n, 1);
	ck_assert_int_eq(cfg_name_parse("a\\.b.lab", w, &n), 0);
	ck_assert_uint_eq(n, 9);
	ck_assert_int_eq(memcmp(w, "\3a.b\3lab", 9), 0);
	ck_assert_int_eq(cfg_name_parse("a..b", w, &n), -1);
	ck_assert_int_eq(cfg_name_parse("", w, &n), -1);
	ck_assert_int_eq(cfg_name_parse("a b", w, &n), -1);
	ck_assert_int_eq(cfg_name_parse("a\tb", w, &n), -1);
	memset(label64, 'x', 64);
	strcpy(label64 + 64, ".lab");
	ck_assert_int_eq(cfg_name_parse(label64, w, &n), -1);
	strcpy(label64 + 63, ".lab"); /* 63 x and lab: fine */
	ck_assert_int_eq(cfg_name_parse(label64, w, &n), 0);
}
END_TEST

START_TEST(test_tls_forwarder)
{
	char bundle[] = "/tmp/check_cfg_bundle.XXXXXX";
	char line[128];
	int fd;

	ck_assert_int_eq(parse("forward-zone: fwd.example. "
	                       "127.0.55.9@8853#tls.example "
	                       "127.0.55.10#b.example"
	                       " 127.0.55.11\n"),
	                 0);
	ck_assert_uint_eq(c.forward[0].naddr, 3);
	ck_assert_str_eq(c.forward[0].tls[0].name, "tls.example");
	ck_assert_uint_eq(ntohs(((struct sockaddr_in *)&c.forward[0]
	                                 .addr[1]
	                                 .sa)
	                                ->sin_port),
	                  853);
	ck_assert(c.forward[0].addr[1].port_given);
	ck_assert_str_eq(c.forward[0].tls[2].name, "");
	ck_assert_str_eq(c.tls_cert_bundle, CFG_TLS_BUNDLE_DEFAULT);
	/* Unbound's clause with forward-tls-upstream: yes */
	ck_assert_int_eq(parse("forward-zone:\n name: q.example.\n"
	                       " forward-tls-upstream: yes\n"
	                       " forward-addr: 9.9.9.9@853#dns.quad9.net\n"),
	                 0);
	ck_assert(c.forward[0].tls_upstream);
	ck_assert_str_eq(c.forward[0].tls[0].name, "dns.quad9.net");
	/* forward-tls-upstream: every server needs its name */
	refused("forward-zone: f.example. forward-tls-upstream "
	        "127.0.55.9#a.example 127.0.55.10\n",
	        "test.conf:1:");
	ck_assert_ptr_nonnull(strstr(err, "forward-tls-upstream"));
	refused("forward-zone: f.example. 127.0.55.9#a..b\n", "AUTH-NAME");
	refused("stub-zone: s.example. 127.0.55.9#x\n", "not TLS");
	/* tls-cert-bundle: a file that exists */
	refused("tls-cert-bundle: /nonexistent/ca.pem\n", "tls-cert-bundle");
	fd = mkstemp(bundle);
	ck_assert_int_ge(fd, 0);
	close(fd);
	snprintf(line, sizeof line, "tls-cert-bundle: %s\n", bundle);
	ck_assert_int_eq(parse(line), 0);
	ck_assert_str_eq(c.tls_cert_bundle, bundle);
	unlink(bundle);
	/* a comment after white space is still a comment */
	ck_assert_int_eq(parse("forward-zone: fwd.example. 127.0.55.9@53 "
	                       "# plain\n"),
	                 0);
	ck_assert_uint_eq(c.forward[0].naddr, 1);
	ck_assert_int_eq(parse("# a whole line\n  # indented\n"), 0);
}
END_TEST

/* Issue 13 item 2: port applies only to listen addresses without one. */
START_TEST(test_port_keeps_explicit_listen)
{
	ck_assert_int_eq(parse("listen: 127.0.55.1@5401\nlisten: 127.0.55.2\n"
	                       "port: 5402\n"),
	                 0);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in *)&c.listen[0].sa)
	                                ->sin_port),
	                  5401);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in *)&c.listen[1].sa)
	                                ->sin_port),
	                  5402);
	ck_assert_int_eq(parse("port: 5402\nlisten: 127.0.55.1@5401\n"), 0);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in *)&c.listen[0].sa)
	                                ->sin_port),
	                  5401);
}
END_TEST

START_TEST(test_zone_reject)
{
	static const char *const bad[] = {
		"serve-stale: maybe\n",
		"serve-stale-window: 604801\n",
		"serve-stale-window: -1\n",
		"prefetch: 1\n",
		"forward-zone: corp.example.\n",
		"forward-zone:\n",
		"forward-zone: corp..example 10.0.0.1\n",
		"forward-zone: corp.example 10.0.0.1@99999\n",
		"forward-zone: corp.example host.example\n",
		"forward-zone: corp.example "
		"10.0.0.1/uz5jwc7p039nvnbsd1y6wkqzqp5m"
		"rt7psuj024538xmqd280z0ynh2\n",
		"forward-zone: a 1.1.1.1\nforward-zone: A. 2.2.2.2\n",
		"forward-zone: a 1.1.1.1 1.1.1.2 1.1.1.3 1.1.1.4 1.1.1.5 "
		"1.1.1.6"
		" 1.1.1.7 1.1.1.8 1.1.1.9\n",
		"stub-zone: corp.example 10.0.0.1/uz5short\n",
		"stub-zone: corp.example 10.0.0.1/\n",
		"stub-zone: "
		"x.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaaa 10.0.0.1\n",
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(parse(bad[i]) == -1, "accepted: %s", bad[i]);
		ck_assert_msg(strncmp(err, "test.conf:", 10) == 0, "%s", err);
	}
	refused("forward-zone: z 1.1.1.1\n"
	        "forward-zone: z 1.1.1.2\n",
	        "test.conf:2:");
}
END_TEST

/* curve-require (repeatable zone names) and curve-pin. */
START_TEST(test_curve_require)
{
	static const uint8_t secure[] = "\6secure\7example";
	char text[64 * (CFG_MAX_CURVE_REQUIRE + 1)];
	size_t i, n = 0;

	ck_assert_int_eq(parse(""), 0);
	ck_assert(!c.curve_pin);
	ck_assert_uint_eq(c.n_curve_require, 0);
	ck_assert_int_eq(parse("curve-require: Secure.Example.\n"
	                       "curve-require: .\ncurve-pin: yes\n"),
	                 0);
	ck_assert(c.curve_pin);
	ck_assert_uint_eq(c.n_curve_require, 2);
	ck_assert_uint_eq(c.curve_require_len[0], sizeof secure);
	ck_assert(memcmp(c.curve_require[0], secure, sizeof secure) == 0);
	ck_assert_uint_eq(c.curve_require_len[1], 1);
	for (i = 0; i <= CFG_MAX_CURVE_REQUIRE; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
		                      "curve-require: z%zu.example\n", i);
	refused(text, "test.conf:17:");
}
END_TEST

START_TEST(test_curve_require_reject)
{
	static const char *const bad[] = {
		"curve-require:\n",
		"curve-require: a..b\n",
		"curve-require: a b\n",
		"curve-require: "
		"x.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		"aaaaaaaaaaaaaaaaaaaaa\n",
		"curve-require: a.example\ncurve-require: A.example.\n",
		"curve-pin: maybe\n",
		"curve-pin:\n",
	};
	size_t i;

	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		ck_assert_msg(parse(bad[i]) == -1, "accepted: %s", bad[i]);
		ck_assert_msg(strncmp(err, "test.conf:", 10) == 0, "%s", err);
	}
}
END_TEST

/* The DNSSEC options as Unbound's server: clause writes them (quoted or
 * not), and their defaults. */
START_TEST(test_dnssec_options)
{
	static const uint8_t corp[] = "\4corp\7example";

	ck_assert_int_eq(parse(""), 0);
	ck_assert(c.dnssec);
	ck_assert_uint_eq(c.val_bogus_ttl, 60);
	ck_assert_uint_eq(c.nsec3_max_iterations, 50);
	ck_assert(c.aggressive_nsec);
	ck_assert_uint_eq(c.n_trust_anchor_file + c.n_auto_trust_anchor_file +
	                          c.n_trust_anchor + c.n_domain_insecure,
	                  0);
	ck_assert_int_eq(
		parse("dnssec: no\n"
	              "trust-anchor-file: \"/etc/unbound/root.key\"\n"
	              "trust-anchor-file: /x/a.key\n"
	              "auto-trust-anchor-file: \"/var/lib/unbound/root.key\"\n"
	              "trust-anchor: \". DS 20326 8 2 E06D44B8\"  # KSK\n"
	              "trust-anchor: a. DNSKEY 257 3 8 AwEAAQ== ; key\n"
	              "domain-insecure: \"Corp.Example\"\n"
	              "domain-insecure: lab.\n"
	              "val-bogus-ttl: 30\n"
	              "nsec3-max-iterations: 0\n"
	              "aggressive-nsec: no\n"),
		0);
	ck_assert(!c.dnssec);
	ck_assert(!c.aggressive_nsec);
	ck_assert_uint_eq(c.n_trust_anchor_file, 2);
	ck_assert_str_eq(c.trust_anchor_file[0], "/etc/unbound/root.key");
	ck_assert_str_eq(c.trust_anchor_file[1], "/x/a.key");
	ck_assert_uint_eq(c.n_auto_trust_anchor_file, 1);
	ck_assert_str_eq(c.auto_trust_anchor_file[0],
	                 "/var/lib/unbound/root.key");
	ck_assert_uint_eq(c.n_trust_anchor, 2);
	ck_assert_str_eq(c.trust_anchor[0], ". DS 20326 8 2 E06D44B8");
	ck_assert_str_eq(c.trust_anchor_at[0], "test.conf:5");
	ck_assert_str_eq(c.trust_anchor[1],
	                 "a. DNSKEY 257 3 8 AwEAAQ== ; key");
	ck_assert_str_eq(c.trust_anchor_at[1], "test.conf:6");
	ck_assert_uint_eq(c.n_domain_insecure, 2);
	ck_assert_uint_eq(c.domain_insecure_len[0], sizeof corp);
	ck_assert(memcmp(c.domain_insecure[0], corp, sizeof corp) == 0);
	ck_assert_uint_eq(c.val_bogus_ttl, 30);
	ck_assert_uint_eq(c.nsec3_max_iterations, 0);
	ck_assert_int_eq(parse("nsec3-max-iterations: 65535\n"), 0);
	ck_assert_uint_eq(c.nsec3_max_iterations, 65535);
}
END_TEST

/* Each bad DNSSEC line: refused with FILE:LINE and the problem. */
START_TEST(test_dnssec_reject)
{
	static const struct refusal bad[] = {
		{ "dnssec: maybe\n", "test.conf:1: expected yes or no" },
		{ "trust-anchor-file:\n", "test.conf:1: option "
		                          "trust-anchor-file needs a value" },
		{ "trust-anchor-file: \"\"\n",
		  "test.conf:1: option trust-anchor-file needs a value" },
		{ "auto-trust-anchor-file: /a\nauto-trust-anchor-file: /a\n",
		  "test.conf:2: auto-trust-anchor-file given twice" },
		{ "trust-anchor: \"\"\n",
		  "test.conf:1: option trust-anchor needs a value" },
		{ "domain-insecure: a..b\n",
		  "test.conf:1: bad domain-insecure name \"a..b\"" },
		{ "domain-insecure: a\ndomain-insecure: A.\n",
		  "test.conf:2: domain-insecure name given twice" },
		{ "val-bogus-ttl: -1\n", "test.conf:1: expected a number" },
		{ "val-bogus-ttl: 99999999999\n",
		  "test.conf:1: number out of range" },
		{ "nsec3-max-iterations: 65536\n",
		  "test.conf:1: nsec3-max-iterations must be 0 to 65535" },
		{ "nsec3-max-iterations: many\n",
		  "test.conf:1: nsec3-max-iterations must be 0 to 65535" },
		{ "aggressive-nsec: on\n", "test.conf:1: expected yes or no" },
	};
	char text[128 * (CFG_MAX_DOMAIN_INSECURE + 1)];
	size_t i, n;

	REFUSED_ALL(bad, NULL);
	/* the caps: one line more than each list holds */
	for (i = 0, n = 0; i <= CFG_MAX_TRUST_FILES; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
		                      "trust-anchor-file: /k%zu\n", i);
	refused(text, "test.conf:9: too many trust-anchor-file");
	for (i = 0, n = 0; i <= CFG_MAX_TRUST_ANCHORS; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
		                      "trust-anchor: \"k%zu. DS 1 8 2 00\"\n",
		                      i);
	refused(text, "test.conf:17: too many trust-anchor");
	for (i = 0, n = 0; i <= CFG_MAX_DOMAIN_INSECURE; i++)
		n += (size_t)snprintf(text + n, sizeof text - n,
		                      "domain-insecure: z%zu.example\n", i);
	refused(text, "test.conf:65: too many lines of "
	              "domain-insecure");
	/* a path longer than CFG_MAX_PATH */
	n = (size_t)snprintf(text, sizeof text, "trust-anchor-file: /");
	memset(text + n, 'a', CFG_MAX_PATH);
	strcpy(text + n + CFG_MAX_PATH, "\n");
	refused(text, "test.conf:1: trust-anchor-file: path too "
	              "long");
}
END_TEST

/* The local-zone lines of c, in order. */
static size_t zones(struct cfg_local_zone *out, size_t max)
{
	size_t pos = 0, n = 0;

	while (n < max && cfg_local_zone_next(c.local, &pos, &out[n]))
		n++;
	return n;
}

/* local-zone: NAME TYPE, repeatable, quoted or not; harden-glue. */
START_TEST(test_local_zone)
{
	static const uint8_t corp[] = "\4corp\7example";
	struct cfg_local_zone z[8];
	size_t nz, nd;

	ck_assert_int_eq(parse(""), 0);
	cfg_local_counts(&c, &nz, &nd);
	ck_assert_uint_eq(nz + nd, 0);
	ck_assert(c.harden_glue);
	ck_assert_int_eq(parse("local-zone: test. nodefault\n"
	                       "local-zone: Corp.Example refuse  # REFUSED\n"
	                       "local-zone: lab.test.\ttransparent\n"
	                       "local-zone: \"home.example.\" static\n"
	                       "local-zone: \"ads.example. always_nxdomain\"\n"
	                       "local-zone: a.example. always_null\n"
	                       "harden-glue: no\n"),
	                 0);
	ck_assert(!c.harden_glue);
	ck_assert_uint_eq(zones(z, 8), 6);
	ck_assert_int_eq(z[0].type, CFG_LZ_NODEFAULT);
	ck_assert_uint_eq(z[0].namelen, 6);
	ck_assert_int_eq(z[1].type, CFG_LZ_REFUSE);
	ck_assert_uint_eq(z[1].namelen, sizeof corp);
	ck_assert(memcmp(z[1].name, corp, sizeof corp) == 0);
	ck_assert_int_eq(z[2].type, CFG_LZ_TRANSPARENT);
	ck_assert_int_eq(z[3].type, CFG_LZ_STATIC);
	ck_assert_uint_eq(z[3].namelen, 14);
	ck_assert_int_eq(z[4].type, CFG_LZ_ALWAYS_NXDOMAIN);
	ck_assert_int_eq(z[5].type, CFG_LZ_ALWAYS_NULL);
	ck_assert_int_eq(parse("harden-glue: yes\n"), 0);
	ck_assert(c.harden_glue);
}
END_TEST

/* Every type of Unbound is a type; a name given twice: the last wins. */
START_TEST(test_local_zone_types)
{
	static const char *const names[] = { CFG_LZ_NAMES };
	struct cfg_local_zone z[4];
	char text[128];
	size_t i;

	ck_assert_uint_eq(sizeof names / sizeof names[0], CFG_LZ_COUNT);
	for (i = 0; i < CFG_LZ_COUNT; i++) {
		snprintf(text, sizeof text, "local-zone: x.example. %s\n",
		         names[i]);
		ck_assert_msg(parse(text) == 0, "%s: %s", text, err);
		ck_assert_uint_eq(zones(z, 4), 1);
		ck_assert_int_eq(z[0].type, (int)i);
		ck_assert_str_eq(cfg_lz_type_name(z[0].type), names[i]);
	}
	ck_assert_int_eq(parse("local-zone: x.test. refuse\n"
	                       "local-zone: X.Test deny\n"),
	                 0);
	ck_assert_uint_eq(zones(z, 4), 2);
	ck_assert_int_eq(z[1].type, CFG_LZ_DENY);
}
END_TEST

START_TEST(test_local_zone_reject)
{
	static const struct refusal bad[] = {
		{ "local-zone: test. denied\n", "bad local-zone type" },
		{ "local-zone: test. Static\n", "bad local-zone type" },
		{ "local-zone: test.\n", "local-zone wants NAME TYPE" },
		{ "local-zone: test. static x\n",
		  "local-zone wants NAME TYPE" },
		{ "local-zone: a..b static\n", "bad local-zone name" },
		{ "local-zone: . static\n", "bad local-zone name" },
		{ "local-zone: \".\" static\n", "bad local-zone name" },
		{ "local-zone:\n", "needs a value" },
		{ "harden-glue: maybe\n", "expected yes or no" },
		{ "harden-glue:\n", "needs a value" },
	};
	REFUSED_ALL(bad, "test.conf:");
	ck_assert_int_eq(parse("# 1\nlocal-zone: test. denied\n"), -1);
	ck_assert_msg(strncmp(err, "test.conf:2: bad local-zone type", 32) ==
	                      0,
	              "%s", err);
}
END_TEST

/* The local-data lines of c, in order. */
static size_t datas(struct cfg_local_data *out, size_t max)
{
	size_t pos = 0, n = 0;

	while (n < max && cfg_local_data_next(c.local, &pos, &out[n]))
		n++;
	return n;
}

static bool rdata_is(const struct cfg_local_data *d, const char *text)
{
	return d->rdlen == strlen(text) &&
	       memcmp(d->rdata, text, d->rdlen) == 0;
}

/* local-data: "NAME [TTL] [IN] TYPE RDATA", local-data-ptr: "ADDR
 * NAME", with their quotes or without. */
START_TEST(test_local_data)
{
	static const uint8_t host[] = "\4host\3lan";
	static const uint8_t rev4[] = "\0015\0010\0010\00210\7in-addr\4arpa";
	struct cfg_local_data d[8];

	ck_assert_int_eq(parse("local-data: \"host.lan. IN A 10.0.0.5\"\n"
	                       "local-data: host.lan. 600 AAAA fd00::5\n"
	                       "local-data: 'txt.lan. 60 IN TXT \"a b\" c'\n"
	                       "local-data: \"mx.lan. IN 120 MX 10 "
	                       "mail.lan.\"\n"
	                       "local-data-ptr: \"10.0.0.5 host.lan\"\n"
	                       "local-data-ptr: fd00::5 300 host.lan.\n"
	                       "local-data: \"Up.LAN. CNAME host.lan.\"\n"),
	                 0);
	ck_assert_uint_eq(datas(d, 8), 7);
	ck_assert_uint_eq(d[0].namelen, sizeof host);
	ck_assert(memcmp(d[0].name, host, sizeof host) == 0);
	ck_assert_uint_eq(d[0].type, WIRE_TYPE_A);
	ck_assert_uint_eq(d[0].ttl, CFG_LOCAL_TTL);
	ck_assert(rdata_is(&d[0], "10.0.0.5"));
	ck_assert_uint_eq(d[1].type, WIRE_TYPE_AAAA);
	ck_assert_uint_eq(d[1].ttl, 600);
	ck_assert(rdata_is(&d[2], "\"a b\" c"));
	ck_assert_uint_eq(d[2].type, WIRE_TYPE_TXT);
	ck_assert_uint_eq(d[3].ttl, 120);
	ck_assert(rdata_is(&d[3], "10 mail.lan."));
	ck_assert_uint_eq(d[4].type, WIRE_TYPE_PTR);
	ck_assert_uint_eq(d[4].namelen, sizeof rev4);
	ck_assert(memcmp(d[4].name, rev4, sizeof rev4) == 0);
	ck_assert(rdata_is(&d[4], "host.lan"));
	ck_assert_uint_eq(d[5].ttl, 300);
	ck_assert_uint_eq(d[5].namelen, 32 * 2 + 10); /* nibbles */
	ck_assert_uint_eq(d[6].name[1], 'u');         /* lowercase */
}
END_TEST

START_TEST(test_local_data_reject)
{
	static const struct refusal bad[] = {
		{ "local-data: \"host.lan. IN A\"\n", "without RDATA" },
		{ "local-data: \"host.lan.\"\n", "wants NAME" },
		{ "local-data: \"host.lan. CH TXT x\"\n", "class IN only" },
		{ "local-data: \"host.lan. IN BOGUS x\"\n",
		  "bad local-data type" },
		{ "local-data: \"a..b A 1.2.3.4\"\n", "bad local-data name" },
		{ "local-data-ptr: \"10.0.0 host.lan\"\n", "address" },
		{ "local-data-ptr: \"10.0.0.5\"\n", "wants ADDRESS NAME" },
		{ "local-data-ptr: \"10.0.0.5 a..b\"\n",
		  "bad local-data-ptr" },
	};
	REFUSED_ALL(bad, "test.conf:1:");
}
END_TEST

/* A list read twice is shared; a second parse into one config keeps
 * the first's lines (copy on write). */
START_TEST(test_local_shared)
{
	const struct cfg_local *first;
	size_t nz, nd;

	ck_assert_int_eq(parse("local-zone: a.example. deny\n"), 0);
	first = c.local;
	ck_assert_int_eq(parse("local-zone: a.example. deny\n"), 0);
	ck_assert_ptr_eq(c.local, first);
	ck_assert_int_eq(cfg_parse("more.conf",
	                           "local-data: b.lan A 1.2.3.4\n", 28, &c,
	                           err, sizeof err),
	                 0);
	ck_assert_ptr_ne(c.local, first);
	cfg_local_counts(&c, &nz, &nd);
	ck_assert_uint_eq(nz, 1);
	ck_assert_uint_eq(nd, 1);
}
END_TEST

/* ---- include: files in a temporary directory ---- */
static char incdir[] = "/tmp/check_cfg_inc_XXXXXX";

/* Write TEXT to incdir/NAME (NAME may hold one subdirectory). */
static void put(const char *name, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof path, "%s/%s", incdir, name);
	slash = strrchr(path, '/');
	*slash = '\0';
	(void)mkdir(path, 0700);
	*slash = '/';
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	ck_assert_int_ge(fputs(text, f), 0);
	ck_assert_int_eq(fclose(f), 0);
}

/* A check that the path got is incdir/rel (a macro: the caller's line). */
#define IN_INCDIR(got, rel) \
	do { \
		char in_want[CFG_MAX_PATH]; \
		snprintf(in_want, sizeof in_want, "%s/%s", incdir, rel); \
		ck_assert_str_eq(got, in_want); \
	} while (0)

/* cfg_load of incdir/NAME. */
static int load(const char *name)
{
	char path[512];

	snprintf(path, sizeof path, "%s/%s", incdir, name);
	err[0] = '\0';
	return cfg_load(path, &c, err, sizeof err);
}

static void inc_setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(incdir));
}

static void inc_teardown(void)
{
	char cmd[600];

	snprintf(cmd, sizeof cmd, "rm -rf '%s'", incdir);
	ck_assert_int_eq(system(cmd), 0);
	memcpy(incdir + strlen(incdir) - 6, "XXXXXX", 6);
}

/* A glob reads its files in sorted order, relative to the including
 * file's directory; a pattern matching nothing is fine. */
START_TEST(test_include_glob_order)
{
	put("d.d/20-b.conf", "threads: 3\nlisten: 127.0.0.3\n");
	put("d.d/10-a.conf", "threads: 2\nlisten: 127.0.0.2\n");
	put("d.d/notes.txt", "not a config line\n");
	put("main.conf", "port: 5301\ninclude: d.d/*.conf\n"
	                 "include: none.d/*.conf\n");
	ck_assert_msg(load("main.conf") == 0, "%s", err);
	ck_assert_uint_eq(c.threads, 3);
	ck_assert_uint_eq(c.n_listen, 2);
	ck_assert_uint_eq(ntohl(((struct sockaddr_in *)&c.listen[0].sa)
	                                ->sin_addr.s_addr),
	                  0x7f000002);
	ck_assert_uint_eq(ntohl(((struct sockaddr_in *)&c.listen[1].sa)
	                                ->sin_addr.s_addr),
	                  0x7f000003);
}
END_TEST

/* Nested includes; each relative path from its own file's directory. */
START_TEST(test_include_nested)
{
	put("sub/c.conf", "threads: 7\n");
	put("sub/b.conf", "# b\ninclude: c.conf\n");
	put("main.conf", "include: sub/b.conf\n");
	ck_assert_msg(load("main.conf") == 0, "%s", err);
	ck_assert_uint_eq(c.threads, 7);
}
END_TEST

/* Relative trust-anchor files are taken from the directory of the file
 * holding the line; a trust-anchor line keeps its own FILE:LINE. */
START_TEST(test_trust_anchor_paths)
{
	put("sub/b.conf", "# b\nauto-trust-anchor-file: a.key\n"
	                  "trust-anchor: \". DS 1 8 1 00\"\n");
	put("main.conf", "trust-anchor-file: keys/root.key\n"
	                 "include: sub/b.conf\n"
	                 "trust-anchor-file: /abs/root.key\n");
	ck_assert_msg(load("main.conf") == 0, "%s", err);
	ck_assert_uint_eq(c.n_trust_anchor_file, 2);
	IN_INCDIR(c.trust_anchor_file[0], "keys/root.key");
	ck_assert_str_eq(c.trust_anchor_file[1], "/abs/root.key");
	IN_INCDIR(c.auto_trust_anchor_file[0], "sub/a.key");
	IN_INCDIR(c.trust_anchor_at[0], "sub/b.conf:3");
	/* each file keeps the FILE:LINE of its line, for the loader */
	IN_INCDIR(c.trust_anchor_file_at[0], "main.conf:1");
	IN_INCDIR(c.trust_anchor_file_at[1], "main.conf:3");
	IN_INCDIR(c.auto_trust_anchor_file_at[0], "sub/b.conf:2");
}
END_TEST

/* A problem inside an included file names that file and its line. */
START_TEST(test_include_error_names_file)
{
	char want[600];

	put("d.d/10-a.conf", "threads: 2\n");
	put("d.d/20-b.conf", "threads: 3\nbogus-option: yes\n");
	put("main.conf", "port: 5301\ninclude: d.d/*.conf\n");
	ck_assert_int_eq(load("main.conf"), -1);
	snprintf(want, sizeof want,
	         "%s/d.d/20-b.conf:2: unknown option "
	         "\"bogus-option\"",
	         incdir);
	ck_assert_str_eq(err, want);
}
END_TEST

/* A plain file that is missing is an error at the include line. */
START_TEST(test_include_missing)
{
	char want[600];

	put("main.conf", "port: 5301\n\ninclude: nope.conf\n");
	ck_assert_int_eq(load("main.conf"), -1);
	snprintf(want, sizeof want,
	         "%s/main.conf:3: include %s/nope.conf: "
	         "cannot open: No such file or directory",
	         incdir, incdir);
	ck_assert_str_eq(err, want);
}
END_TEST

/* A file including itself, directly or through another, is refused. */
START_TEST(test_include_loop)
{
	char want[600];

	put("self.conf", "include: self.conf\n");
	ck_assert_int_eq(load("self.conf"), -1);
	snprintf(want, sizeof want,
	         "%s/self.conf:1: include %s/self.conf: "
	         "include loop: the file is already being read",
	         incdir, incdir);
	ck_assert_str_eq(err, want);
	put("a.conf", "port: 5301\ninclude: sub/b.conf\n");
	put("sub/b.conf", "\n\ninclude: ../a.conf\n");
	ck_assert_int_eq(load("a.conf"), -1);
	snprintf(want, sizeof want,
	         "%s/sub/b.conf:3: include %s/sub/../a.conf: "
	         "include loop",
	         incdir, incdir);
	ck_assert_msg(strncmp(err, want, strlen(want)) == 0, "%s", err);
}
END_TEST

/* Deep chains stop at CFG_MAX_INCLUDE_DEPTH; only regular files. */
START_TEST(test_include_limits)
{
	char name[32], text[64];
	int i;

	for (i = 0; i <= CFG_MAX_INCLUDE_DEPTH; i++) {
		snprintf(name, sizeof name, "n%d.conf", i);
		snprintf(text, sizeof text, "include: n%d.conf\n", i + 1);
		put(name, text);
	}
	put("n9.conf", "threads: 2\n");
	ck_assert_int_eq(load("n0.conf"), -1);
	ck_assert_msg(strstr(err, "/n8.conf:1: include ") != NULL &&
	                      strstr(err, "nested deeper than 8") != NULL,
	              "%s", err);
	ck_assert_msg(load("n1.conf") == 0, "%s", err);
	put("dir.conf", "include: /dev/null\n");
	ck_assert_int_eq(load("dir.conf"), -1);
	ck_assert_msg(strstr(err, "not a regular file") != NULL, "%s", err);
}
END_TEST

/* pidfile: an absolute path, or empty for none. */
START_TEST(test_pidfile)
{
	ck_assert_int_eq(parse("pidfile: /run/curvecache.pid\n"), 0);
	ck_assert_str_eq(c.pidfile, "/run/curvecache.pid");
	ck_assert_int_eq(parse("pidfile:\n"), 0);
	ck_assert_str_eq(c.pidfile, "");
	ck_assert_int_eq(parse("\npidfile: run/curvecache.pid\n"), -1);
	ck_assert_str_eq(err, "test.conf:2: pidfile must be an absolute "
	                      "path, not \"run/curvecache.pid\"");
}
END_TEST

/* The sample config parses, and gives exactly the built-in defaults. */
START_TEST(test_sample_file)
{
	struct cfg dflt;
	char path[512];

	snprintf(path, sizeof path, "%s/etc/curvecache.conf", SRCDIR);
	ck_assert_msg(cfg_load(path, &c, err, sizeof err) == 0, "%s", err);
	cfg_defaults(&dflt);
	memset(dflt.file, 0, sizeof dflt.file);
	memset(c.file, 0, sizeof c.file);
	memset(dflt.root_hints, 0, sizeof dflt.root_hints);
	memset(c.root_hints, 0, sizeof c.root_hints);
	memset(c.root_hints_at, 0, sizeof c.root_hints_at);
	c.load_gen = 0; /* which load made it */
	ck_assert_msg(memcmp(&c, &dflt, sizeof c) == 0,
	              "etc/curvecache.conf differs from the defaults");
}
END_TEST

/* ---- issue 22: Unbound's syntax ---- */

/* Issue 22 item 1: every value may carry quotes, cut by the line reader:
 * a quote is never part of a name, an address or a path. */
START_TEST(test_quotes)
{
	static const uint8_t corp[] = "\004corp\010internal";
	static const uint8_t ads[] = "\003ads\007example";
	struct cfg_local_zone z[4];
	size_t nz;

	ck_assert_msg(parse("forward-zone: \"corp.internal.\" \"10.0.0.53\" "
	                    "10.0.0.54@5353\n"
	                    "local-zone: \"ads.example.\" refuse\n"
	                    "listen: \"127.0.0.2\"\n"
	                    "access-control: \"10.0.0.0/8\" allow\n"
	                    "root-hints: \"/etc/my hints\"   # a comment\n"
	                    "cache-size: '128m'\n"
	                    "trust-anchor: '. DS 1 8 2 \"#x\"'\n"
	                    "log-level: \"debug\"\n") == 0,
	              "%s", err);
	ck_assert_uint_eq(c.n_forward, 1);
	ck_assert_mem_eq(c.forward[0].name, corp, sizeof corp);
	ck_assert_uint_eq(c.forward[0].namelen, sizeof corp);
	ck_assert_uint_eq(c.forward[0].naddr, 2);
	nz = zones(z, sizeof z / sizeof z[0]);
	ck_assert_uint_ge(nz, 1);
	ck_assert_mem_eq(z[nz - 1].name, ads, sizeof ads);
	ck_assert_int_eq(acl("10.1.2.3"), CFG_ACL_ALLOW);
	ck_assert_uint_eq(c.n_listen, 1);
	ck_assert_str_eq(c.root_hints, "/etc/my hints");
	ck_assert_uint_eq(c.cache_size, 128 * 1024 * 1024);
	ck_assert_str_eq(c.trust_anchor[0], ". DS 1 8 2 \"#x\"");
	ck_assert_int_eq(c.log_level, CFG_LOG_DEBUG);
	ck_assert_int_eq(parse("\nlisten: \"127.0.0.1\n"), -1);
	ck_assert_str_eq(err, "test.conf:2: unbalanced quote: a \" without "
	                      "its pair");
	ck_assert_int_eq(parse("local-zone: 'a.example. refuse\n"), -1);
	ck_assert_str_eq(err, "test.conf:1: unbalanced quote: a ' without "
	                      "its pair");
}
END_TEST

/* Issue 22 item 5: Unbound's clauses and names. forward-zone: and
 * stub-zone: clauses become their zones; Unbound's names of curvecache's
 * options are taken, harmless ones noted, the rest refused with the
 * nearest option. */
START_TEST(test_unbound_clauses)
{
	static const uint8_t corp[] = "\004corp\010internal";

	ck_assert_msg(parse("server:\n"
	                    "  interface: 127.0.0.2\n"
	                    "  num-threads: 2\n"
	                    "  cache-min-ttl: 10\n"
	                    "  cache-max-ttl: 7200\n"
	                    "  msg-cache-size: 50m\n"
	                    "  rrset-cache-size: 100m\n"
	                    "  verbosity: 0\n"
	                    "  hide-identity: yes\n"
	                    "  do-udp: yes\n"
	                    "forward-zone:\n"
	                    "  name: \"corp.internal.\"\n"
	                    "  forward-addr: 10.0.0.53@5353\n"
	                    "  forward-addr: 10.0.0.54\n"
	                    "  forward-first: no\n"
	                    "stub-zone:\n"
	                    "  name: lab.\n"
	                    "  stub-addr: 192.0.2.1\n"
	                    "remote-control:\n"
	                    "  control-enable: no\n") == 0,
	              "%s", err);
	ck_assert_uint_eq(c.n_listen, 1);
	ck_assert_uint_eq(c.threads, 2);
	ck_assert_uint_eq(c.min_ttl, 10);
	ck_assert_uint_eq(c.max_ttl, 7200);
	ck_assert_uint_eq(c.cache_size, 150 * 1024 * 1024);
	ck_assert_int_eq(c.log_level, CFG_LOG_ERROR);
	ck_assert_uint_eq(c.n_forward, 1);
	ck_assert_mem_eq(c.forward[0].name, corp, sizeof corp);
	ck_assert_uint_eq(c.forward[0].naddr, 2);
	ck_assert_uint_eq(c.n_stub, 1);
	ck_assert_str_eq(c.control_socket, "");
	ck_assert_str_eq(c.notes, "test.conf:9: hide-identity: ignored "
	                          "(curvecache never puts its identity or "
	                          "version in an answer)\n");
	/* a clause at the end of the text is closed there */
	ck_assert_int_eq(parse("forward-zone:\nname: .\nforward-addr: ::1\n"),
	                 0);
	ck_assert_uint_eq(c.n_forward, 1);
	ck_assert(!c.forward[0].first);
	/* forward-first: yes: iterate when every forwarder failed */
	ck_assert_int_eq(parse("forward-zone:\nname: .\nforward-first: yes\n"
	                       "forward-addr: ::1\n"),
	                 0);
	ck_assert(c.forward[0].first);
	ck_assert_uint_eq(c.forward[0].naddr, 1);
	ck_assert_int_eq(parse("forward-zone: . ::1 forward-first\n"), 0);
	ck_assert(c.forward[0].first);
}
END_TEST

START_TEST(test_unbound_refused)
{
	static const struct refusal bad[] = {
		{ "ip-transparent: yes\n",
		  "test.conf:1: unknown option \"ip-transparent\" (curvecache "
		  "binds foreign addresses with IP_FREEBIND); curvecache "
		  "calls it ip-freebind:" },
		{ "listn: 127.0.0.1\n",
		  "test.conf:1: unknown option \"listn\"; did you mean "
		  "listen:?" },
		{ "frobnicate: 1\n", "test.conf:1: unknown option "
		                     "\"frobnicate\"" },
		{ "do-tcp: no\n", "test.conf:1: Unbound's do-tcp: no is "
		                  "refused" },
		{ "auth-zone:\n",
		  "test.conf:1: Unbound's auth-zone: clause is "
		  "refused" },
		{ "forward-addr: 1.1.1.1\n",
		  "test.conf:1: unknown option \"forward-addr\" (only inside "
		  "a forward-zone: or stub-zone: clause)" },
		{ "forward-zone:\nname: x.\nforward-host: dns.example\n",
		  "test.conf:3: forward-host is refused" },
		{ "stub-zone:\nname: x.\nstub-first: yes\n",
		  "test.conf:3: stub-first: yes is refused" },
		{ "forward-zone:\nname: x.\nforward-tls-upstream: yes\n"
		  "forward-addr: 1.1.1.1\n",
		  "test.conf:" },
		{ "forward-zone:\nname: x.\nstub-addr: 1.1.1.1\n",
		  "test.conf:3: stub-addr: in a forward-zone: clause" },
		{ "forward-zone:\nname: x.\nserver:\n",
		  "test.conf:3: the forward-zone: clause at test.conf:1: zone "
		  "needs at least one server address" },
		{ "forward-zone:\nforward-addr: 1.1.1.1\n",
		  "test.conf:1: forward-zone: clause: it has no name: line" },
		{ "module-config: \"respip validator iterator\"\n",
		  "test.conf:1: module-config \"respip validator iterator\" "
		  "refused" },
	};
	REFUSED_ALL(bad, NULL);
}
END_TEST

/* Issue 22 item 2: a relative path of a file option is taken from the
 * folder of the file that names it, as include; a missing file the
 * daemon reads is refused at that FILE:LINE. */
START_TEST(test_relative_paths)
{
	char want[600];

	put("sub/hosts", "10.0.0.5 host.lan\n");
	put("block", "ads.example\n");
	put("sub/z.conf", "root-hints: \"my hints\"\n"
	                  "local-data-file: hosts\n"
	                  "block-file: ../block\n"
	                  "cache-file: state/cache\n"
	                  "pidfile: run.pid\n"
	                  "curve-key-file: key\n"
	                  "control-socket: ctl\n");
	/* Debian's unbound.conf ends in include-toplevel: */
	put("main.conf", "server:\ninclude-toplevel: \"sub/z.conf\"\n");
	ck_assert_msg(load("main.conf") == 0, "%s", err);
	IN_INCDIR(c.root_hints, "sub/my hints");
	IN_INCDIR(c.root_hints_at, "sub/z.conf:1");
	IN_INCDIR(c.local_data_file, "sub/hosts");
	IN_INCDIR(c.block_file, "sub/../block");
	IN_INCDIR(c.cache_file, "sub/state/cache");
	IN_INCDIR(c.pidfile, "sub/run.pid");
	IN_INCDIR(c.curve_key_file, "sub/key");
	IN_INCDIR(c.curve_key_file_at, "sub/z.conf:6");
	/* a loader's message about such a file names the option's line */
	snprintf(err, sizeof err, "%s/sub/hosts:3: bad address \"x\"", incdir);
	cfg_file_error(&c, err, sizeof err);
	snprintf(want, sizeof want,
	         "%s/sub/z.conf:2: local-data-file %s/sub/hosts:3: bad "
	         "address \"x\"",
	         incdir, incdir);
	ck_assert_str_eq(err, want);
	snprintf(err, sizeof err, "%s/sub/../block:1: bad", incdir);
	cfg_file_error(&c, err, sizeof err);
	snprintf(want, sizeof want,
	         "%s/sub/z.conf:3: block-file %s/sub/../block:1: bad", incdir,
	         incdir);
	ck_assert_str_eq(err, want);
	snprintf(err, sizeof err, "%s/sub/hostsX:1: other", incdir);
	snprintf(want, sizeof want, "%s", err);
	cfg_file_error(&c, err, sizeof err);
	ck_assert_str_eq(err, want);
	IN_INCDIR(c.control_socket, "sub/ctl");
	put("bad.conf", "\n\nblock-file: gone\n");
	ck_assert_int_eq(load("bad.conf"), -1);
	snprintf(want, sizeof want,
	         "%s/bad.conf:3: block-file %s/gone: No such file or "
	         "directory",
	         incdir, incdir);
	ck_assert_str_eq(err, want);
}
END_TEST

/* Issue 22 item 3: stub servers too may give their port (ADDR@PORT),
 * in the flat line and in Unbound's clause, with or without a key. */
START_TEST(test_stub_ports)
{
	char key[] = "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2";
	char text[512];
	const struct sockaddr_in6 *v6;

	snprintf(text, sizeof text,
	         "stub-zone: corp.example 10.0.0.1@5353 ::1@54/%s 10.0.0.2\n"
	         "stub-zone:\n  name: \"lab.\"\n  stub-addr: "
	         "127.0.0.9@10053\n",
	         key);
	ck_assert_msg(parse(text) == 0, "%s", err);
	ck_assert_uint_eq(c.n_stub, 2);
	ck_assert_uint_eq(c.stub[0].naddr, 3);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in *)&c.stub[0].addr[0].sa)
	                                ->sin_port),
	                  5353);
	ck_assert(c.stub[0].addr[0].port_given);
	v6 = (const struct sockaddr_in6 *)&c.stub[0].addr[1].sa;
	ck_assert_uint_eq(ntohs(v6->sin6_port), 54);
	ck_assert_str_eq(c.stub[0].key[1], key);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in *)&c.stub[0].addr[2].sa)
	                                ->sin_port),
	                  53);
	ck_assert(!c.stub[0].addr[2].port_given);
	ck_assert_uint_eq(ntohs(((struct sockaddr_in *)&c.stub[1].addr[0].sa)
	                                ->sin_port),
	                  10053);
}
END_TEST

static uint16_t port_of(const struct cfg_addr *a)
{
	if (a->sa.ss_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)&a->sa)->sin6_port);
	return ntohs(((const struct sockaddr_in *)&a->sa)->sin_port);
}

/* Issue 22 item 3: forward and stub servers take ADDR@PORT for any port,
 * IPv6 as Unbound writes it (2001:db8::1@5353, no brackets), in the flat
 * line and in Unbound's clauses (forward-addr:, stub-addr:). */
START_TEST(test_zone_ports_v6)
{
	ck_assert_msg(parse("forward-zone: f1. 2001:db8::1@5353 10.0.0.1@1 "
	                    "::1\n"
	                    "stub-zone: s1. 2001:db8::2@65535 192.0.2.1@1053\n"
	                    "forward-zone:\n  name: \"f2.\"\n"
	                    "  forward-addr: 2001:db8::3@5355\n"
	                    "  forward-addr: \"10.0.0.3@5300\"\n"
	                    "stub-zone:\n  name: s2.\n"
	                    "  stub-addr: \"2001:db8::4@5356\"\n"
	                    "  stub-addr: fe80::1\n") == 0,
	              "%s", err);
	ck_assert_uint_eq(c.n_forward, 2);
	ck_assert_uint_eq(c.n_stub, 2);
	ck_assert_int_eq(c.forward[0].addr[0].sa.ss_family, AF_INET6);
	ck_assert_uint_eq(port_of(&c.forward[0].addr[0]), 5353);
	ck_assert_uint_eq(port_of(&c.forward[0].addr[1]), 1);
	ck_assert_uint_eq(port_of(&c.forward[0].addr[2]), 53);
	ck_assert(!c.forward[0].addr[2].port_given);
	ck_assert_int_eq(c.stub[0].addr[0].sa.ss_family, AF_INET6);
	ck_assert_uint_eq(port_of(&c.stub[0].addr[0]), 65535);
	ck_assert_uint_eq(port_of(&c.stub[0].addr[1]), 1053);
	ck_assert_int_eq(c.forward[1].addr[0].sa.ss_family, AF_INET6);
	ck_assert_uint_eq(port_of(&c.forward[1].addr[0]), 5355);
	ck_assert_uint_eq(port_of(&c.forward[1].addr[1]), 5300);
	ck_assert_int_eq(c.stub[1].addr[0].sa.ss_family, AF_INET6);
	ck_assert_uint_eq(port_of(&c.stub[1].addr[0]), 5356);
	ck_assert(c.stub[1].addr[0].port_given);
	ck_assert_uint_eq(port_of(&c.stub[1].addr[1]), 53);
	/* a port out of range, or none after the @ */
	ck_assert_int_eq(parse("forward-zone: x. 2001:db8::1@65536\n"), -1);
	ck_assert_int_eq(parse("stub-zone:\nname: x.\nstub-addr: ::1@\n"), -1);
}
END_TEST

static Suite *config_suite(void)
{
	Suite *s = suite_create("config");
	TCase *tc = tcase_create("parse");

	tcase_add_test(tc, test_defaults);
	tcase_add_test(tc, test_values);
	tcase_add_test(tc, test_sample_file);
	tcase_add_test(tc, test_ops_values);
	tcase_add_test(tc, test_zone_values);
	tcase_add_test(tc, test_curve_require);
	tcase_add_test(tc, test_dnssec_options);
	tcase_add_test(tc, test_dnssec_reject);
	tcase_add_test(tc, test_local_zone);
	tcase_add_test(tc, test_quotes);
	tcase_add_test(tc, test_stub_ports);
	tcase_add_test(tc, test_zone_ports_v6);
	tcase_add_test(tc, test_unbound_clauses);
	tcase_add_test(tc, test_unbound_refused);
	suite_add_tcase(s, tc);
	tc = tcase_create("reject");
	tcase_add_test(tc, test_reject);
	tcase_add_test(tc, test_reject_whole);
	tcase_add_test(tc, test_zone_reject);
	tcase_add_test(tc, test_tls_forwarder);
	tcase_add_test(tc, test_name_parse);
	tcase_add_test(tc, test_port_keeps_explicit_listen);
	tcase_add_test(tc, test_curve_require_reject);
	tcase_add_test(tc, test_local_zone_reject);
	tcase_add_test(tc, test_local_zone_types);
	tcase_add_test(tc, test_local_data);
	tcase_add_test(tc, test_local_data_reject);
	tcase_add_test(tc, test_local_shared);
	tcase_add_test(tc, test_load_file);
	suite_add_tcase(s, tc);
	tc = tcase_create("include");
	tcase_add_checked_fixture(tc, inc_setup, inc_teardown);
	tcase_add_test(tc, test_include_glob_order);
	tcase_add_test(tc, test_include_nested);
	tcase_add_test(tc, test_trust_anchor_paths);
	tcase_add_test(tc, test_include_error_names_file);
	tcase_add_test(tc, test_include_missing);
	tcase_add_test(tc, test_include_loop);
	tcase_add_test(tc, test_include_limits);
	tcase_add_test(tc, test_pidfile);
	tcase_add_test(tc, test_relative_paths);
	suite_add_tcase(s, tc);
	tc = tcase_create("limits");
	tcase_add_test(tc, test_limits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(config_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
