/*
 * resolver/conf/cfg.c - the options of the curvecache configuration file:
 * the value parsers, one handler per option, the option table, the
 * defaults (cfg_defaults), one "option: value" line (cfg_line_parse) and
 * the checks of the whole config (cfg_end_check). Lines, comments and
 * files are read by cfg_file.c; the access-control and proxy-from
 * options and lookups are in cfg_acl.c. Calls only cfg_zone.c, cfg_file.c (the
 * include option, the file options' paths), cfg_dnssec.c (trust anchors,
 * domain-insecure) and cfg_unbound.c (Unbound's clauses, and the names not in
 * the table).
 *
 * One handler per option, found through a table; each handler checks its
 * value and writes the reason into a small buffer on failure, which
 * cfg_parse prefixes with "FILE:LINE: ".
 */
#include "cfg.h"
#include "cfg_int.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef int (*cfg_handler)(struct cfg_ctx *, char *value);

static int fail(struct cfg_ctx *x, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct cfg_ctx *x, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(x->why, sizeof x->why, fmt, ap);
	va_end(ap);
	return -1;
}

static int copy_str(struct cfg_ctx *x, char *dst, size_t cap,
                    const char *value)
{
	size_t n = strlen(value);

	if (n >= cap)
		return fail(x, "value too long: %.40s...", value);
	memcpy(dst, value, n + 1);
	return 0;
}

static int parse_bool(struct cfg_ctx *x, const char *value, bool *out)
{
	if (strcmp(value, "yes") == 0) {
		*out = true;
		return 0;
	}
	if (strcmp(value, "no") == 0) {
		*out = false;
		return 0;
	}
	return fail(x, "expected yes or no, not \"%s\"", value);
}

static int parse_u64(struct cfg_ctx *x, const char *value, uint64_t max,
                     uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (!isdigit((unsigned char)value[0]))
		return fail(x, "expected a number, not \"%s\"", value);
	errno = 0;
	v = strtoull(value, &end, 10);
	if (errno != 0 || *end != '\0' || v > max)
		return fail(x, "number out of range: \"%s\"", value);
	*out = v;
	return 0;
}

static int parse_u32(struct cfg_ctx *x, const char *value, uint32_t max,
                     uint32_t *out)
{
	uint64_t v;

	if (parse_u64(x, value, max, &v) != 0)
		return -1;
	*out = (uint32_t)v;
	return 0;
}

/* "64m", "1g", "500000", "512k": bytes. */
static int parse_size(struct cfg_ctx *x, const char *value, uint64_t *out)
{
	char num[32];
	size_t n = strlen(value);
	uint64_t mult = 1, v;

	if (n == 0 || n >= sizeof num)
		return fail(x, "bad size \"%s\"", value);
	memcpy(num, value, n + 1);
	switch (tolower((unsigned char)num[n - 1])) {
	case 'k': mult = 1024; break;
	case 'm': mult = 1024 * 1024; break;
	case 'g': mult = 1024 * 1024 * 1024; break;
	default: break;
	}
	if (mult != 1)
		num[n - 1] = '\0';
	if (parse_u64(x, num, UINT64_MAX / mult, &v) != 0)
		return fail(x, "bad size \"%s\" (bytes, or with k/m/g)",
		            value);
	*out = v * mult;
	return 0;
}

int cfg_parse_u32(struct cfg_ctx *x, const char *value, uint32_t max,
                  uint32_t *out)
{
	return parse_u32(x, value, max, out);
}

int cfg_parse_size(struct cfg_ctx *x, const char *value, uint64_t *out)
{
	return parse_size(x, value, out);
}

/* "5", "0.5", "2.25": seconds to milliseconds, at most 1 hour. */
static int parse_seconds_ms(struct cfg_ctx *x, const char *value,
                            uint32_t *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(value, &end);
	if (!isdigit((unsigned char)value[0]) || errno != 0 || *end != '\0' ||
	    v <= 0 || v > 3600)
		return fail(x, "expected seconds (0 < s <= 3600), not \"%s\"",
		            value);
	*out = (uint32_t)(v * 1000 + 0.5);
	if (*out == 0)
		*out = 1;
	return 0;
}

int cfg_addr_parse(const char *s, uint16_t port, struct cfg_addr *out)
{
	char host[INET6_ADDRSTRLEN + 8];
	const char *at = strchr(s, '@');
	size_t hl = at ? (size_t)(at - s) : strlen(s);
	struct sockaddr_in *v4 = (struct sockaddr_in *)&out->sa;
	struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&out->sa;

	if (hl == 0 || hl >= sizeof host)
		return -1;
	memcpy(host, s, hl);
	host[hl] = '\0';
	if (at != NULL) {
		char *end;
		unsigned long p;

		errno = 0;
		p = strtoul(at + 1, &end, 10);
		if (!isdigit((unsigned char)at[1]) || *end != '\0' ||
		    errno != 0 || p > 65535)
			return -1;
		port = (uint16_t)p;
	}
	memset(out, 0, sizeof *out);
	out->port_given = at != NULL;
	if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
		v4->sin_family = AF_INET;
		v4->sin_port = htons(port);
		out->len = sizeof *v4;
		return 0;
	}
	if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
		v6->sin6_family = AF_INET6;
		v6->sin6_port = htons(port);
		out->len = sizeof *v6;
		return 0;
	}
	return -1;
}

static int add_addr(struct cfg_ctx *x, const char *value, uint16_t port,
                    struct cfg_addr *list, size_t *n, size_t max)
{
	if (*n >= max)
		return fail(x, "too many addresses (at most %zu)", max);
	if (cfg_addr_parse(value, port, &list[*n]) != 0)
		return fail(x, "bad address \"%s\" (want ADDR or ADDR@PORT)",
		            value);
	(*n)++;
	return 0;
}

static int opt_listen(struct cfg_ctx *x, char *value)
{
	if (!x->listen_set) {
		x->listen_set = true;
		x->c->n_listen = 0;
	}
	return add_addr(x, value, x->c->port, x->c->listen, &x->c->n_listen,
	                CFG_MAX_LISTEN);
}

static int opt_outgoing(struct cfg_ctx *x, char *value)
{
	if (!x->outgoing_set) {
		x->outgoing_set = true;
		x->c->n_outgoing = 0;
	}
	if (strchr(value, '@') != NULL)
		return fail(x, "outgoing-interface takes no port: \"%s\"",
		            value);
	return add_addr(x, value, 0, x->c->outgoing, &x->c->n_outgoing,
	                CFG_MAX_OUTGOING);
}

/* tls-port: listen addresses on it serve DNS over TLS. */
static int opt_tls_port(struct cfg_ctx *x, char *value)
{
	uint32_t v;

	if (parse_u32(x, value, UINT16_MAX, &v) != 0 || v == 0)
		return fail(x, "bad tls-port \"%s\"", value);
	x->c->tls_port = (uint16_t)v;
	return 0;
}

/* incoming-num-tcp: client connection slots per worker. */
static int opt_incoming_tcp(struct cfg_ctx *x, char *value)
{
	uint32_t v;

	if (parse_u32(x, value, CFG_INCOMING_TCP_MAX, &v) != 0 || v == 0)
		return fail(x, "bad incoming-num-tcp \"%s\" (1 to %u)", value,
		            CFG_INCOMING_TCP_MAX);
	x->c->incoming_num_tcp = v;
	return 0;
}

static int opt_port(struct cfg_ctx *x, char *value)
{
	uint32_t v;
	size_t i;

	if (parse_u32(x, value, 65535, &v) != 0 || v == 0)
		return fail(x, "bad port \"%s\"", value);
	x->c->port = (uint16_t)v;
	/* Listen addresses given without @PORT follow the port option;
	 * an explicit ADDR@PORT keeps its own. */
	for (i = 0; i < x->c->n_listen; i++) {
		struct sockaddr_in *v4 =
			(struct sockaddr_in *)&x->c->listen[i].sa;
		struct sockaddr_in6 *v6 =
			(struct sockaddr_in6 *)&x->c->listen[i].sa;

		if (x->c->listen[i].port_given)
			continue;
		if (v4->sin_family == AF_INET)
			v4->sin_port = htons(x->c->port);
		else
			v6->sin6_port = htons(x->c->port);
	}
	return 0;
}

static int opt_curve_formats(struct cfg_ctx *x, char *value)
{
	char *save = NULL;
	char *tok;
	size_t n = 0;

	for (tok = strtok_r(value, " \t", &save); tok != NULL;
	     tok = strtok_r(NULL, " \t", &save)) {
		enum cfg_curve_format f;

		if (strcmp(tok, "streamlined") == 0)
			f = CFG_CURVE_STREAMLINED;
		else if (strcmp(tok, "txt") == 0)
			f = CFG_CURVE_TXT;
		else
			return fail(x,
			            "unknown DNSCurve format \"%s\" "
			            "(streamlined, txt)",
			            tok);
		if (n >= 2 || (n == 1 && x->c->curve_order[0] == f))
			return fail(x, "each format at most once: \"%s\"",
			            tok);
		x->c->curve_order[n++] = f;
	}
	if (n == 0)
		return fail(x, "%s",
		            "curve-formats needs streamlined and/or txt");
	x->c->n_curve_order = n;
	return 0;
}

static int opt_log_level(struct cfg_ctx *x, char *value)
{
	static const char *const names[] = { "error", "warn", "info",
		                             "debug" };
	size_t i;

	for (i = 0; i < sizeof names / sizeof names[0]; i++) {
		if (strcmp(value, names[i]) == 0) {
			x->c->log_level = (enum cfg_log_level)i;
			return 0;
		}
	}
	return fail(x, "bad log-level \"%s\" (error, warn, info, debug)",
	            value);
}

static int opt_threads(struct cfg_ctx *x, char *value)
{
	uint32_t v;

	if (parse_u32(x, value, 64, &v) != 0 || v == 0)
		return fail(x, "threads must be 1 to 64, not \"%s\"", value);
	x->c->threads = v;
	return 0;
}

static int opt_edns_size(struct cfg_ctx *x, char *value)
{
	uint32_t v;

	if (parse_u32(x, value, 65535, &v) != 0 || v < 512)
		return fail(x,
		            "edns-buffer-size must be 512 to 65535, not "
		            "\"%s\"",
		            value);
	x->c->edns_size = (uint16_t)v;
	return 0;
}

static int opt_cache_size(struct cfg_ctx *x, char *value)
{
	if (parse_size(x, value, &x->c->cache_size) != 0)
		return -1;
	if (x->c->cache_size < 64 * 1024)
		return fail(x, "cache-size below 64k: \"%s\"", value);
	return 0;
}

#define OPT_BOOL(fn, field) \
	static int fn(struct cfg_ctx *x, char *v) \
	{ \
		return parse_bool(x, v, &x->c->field); \
	}
#define OPT_TTL(fn, field) \
	static int fn(struct cfg_ctx *x, char *v) \
	{ \
		return parse_u32(x, v, 604800 * 4, &x->c->field); \
	}
#define OPT_STR(fn, field) \
	static int fn(struct cfg_ctx *x, char *v) \
	{ \
		return copy_str(x, x->c->field, sizeof x->c->field, v); \
	}
/* A file: relative from the folder of the file holding the line
 * (cfg_file.c: cfg_path_opt). */
#define OPT_PATH(fn, field) \
	static int fn(struct cfg_ctx *x, char *v) \
	{ \
		return cfg_path_opt(x, v, x->c->field, sizeof x->c->field); \
	}

OPT_BOOL(opt_do_ip4, do_ip4)
OPT_BOOL(opt_do_ip6, do_ip6)
OPT_BOOL(opt_qmin, qname_minimisation)
OPT_BOOL(opt_dnql, do_not_query_localhost)
OPT_BOOL(opt_curve, curve)
OPT_BOOL(opt_curve_fallback, curve_plain_fallback)
OPT_BOOL(opt_curve_pin, curve_pin)
OPT_BOOL(opt_log_queries, log_queries)
OPT_BOOL(opt_ratelimit_lo, ratelimit_exempt_loopback)
OPT_BOOL(opt_harden_glue, harden_glue)
OPT_BOOL(opt_ip_freebind, ip_freebind)
OPT_TTL(opt_min_ttl, min_ttl)
OPT_TTL(opt_max_ttl, max_ttl)
OPT_TTL(opt_neg_max_ttl, neg_max_ttl)
OPT_PATH(opt_root_hints, root_hints)
OPT_PATH(opt_curve_key_file, curve_key_file)
OPT_PATH(opt_tls_cert_bundle, tls_cert_bundle)
OPT_PATH(opt_tls_service_key, tls_service_key)
OPT_PATH(opt_tls_service_pem, tls_service_pem)
OPT_STR(opt_user, user)
OPT_PATH(opt_control_socket, control_socket)

static int opt_cache_file(struct cfg_ctx *x, char *v)
{
	return cfg_path_opt(x, v, x->c->cache_file, sizeof x->c->cache_file);
}

/* pidfile: PATH (written by the daemon after the privilege drop). */
static int opt_pidfile(struct cfg_ctx *x, char *v)
{
	return cfg_path_opt(x, v, x->c->pidfile, sizeof x->c->pidfile);
}

/* curve-require: ZONE (repeatable; a zone at most once). */
static int opt_curve_require(struct cfg_ctx *x, char *v)
{
	struct cfg *c = x->c;

	return cfg_name_add("curve-require zone", v, c->curve_require,
	                    c->curve_require_len, &c->n_curve_require,
	                    CFG_MAX_CURVE_REQUIRE, x->why, sizeof x->why);
}

/* "24" or "24h" hours, "30m" minutes, "90s" seconds (tests); 0 = never. */
static int opt_curve_key_rotate(struct cfg_ctx *x, char *v)
{
	char num[16];
	size_t n = strlen(v);
	uint32_t k = 3600, val;

	if (n == 0 || n >= sizeof num)
		return fail(x, "bad curve-key-rotate \"%.40s\"", v);
	memcpy(num, v, n + 1);
	if (num[n - 1] == 'h' || num[n - 1] == 'm' || num[n - 1] == 's') {
		k = num[n - 1] == 'h' ? 3600 : num[n - 1] == 'm' ? 60 : 1;
		num[n - 1] = '\0';
	}
	if (parse_u32(x, num, CFG_MAX_ROTATE_S / k, &val) != 0)
		return fail(x,
		            "curve-key-rotate wants hours (or a number with "
		            "h, m or s) up to a year, not \"%s\"",
		            v);
	x->c->curve_key_rotate_s = val * k;
	return 0;
}

/* auth-tls: opportunistic | no (RFC 9539 to authoritative servers). */
static int opt_auth_tls(struct cfg_ctx *x, char *v)
{
	if (strcmp(v, "opportunistic") == 0 || strcmp(v, "no") == 0) {
		x->c->auth_tls = v[0] == 'n' ? CFG_AUTH_TLS_NO :
		                               CFG_AUTH_TLS_OPPORTUNISTIC;
		return 0;
	}
	return fail(x, "auth-tls must be opportunistic or no, not \"%.40s\"",
	            v);
}

/* auth-tls-damping: SECONDS, 1 to CFG_AUTH_TLS_DAMPING_MAX. */
static int opt_auth_tls_damping(struct cfg_ctx *x, char *v)
{
	if (parse_u32(x, v, CFG_AUTH_TLS_DAMPING_MAX,
	              &x->c->auth_tls_damping_s) != 0 ||
	    x->c->auth_tls_damping_s == 0)
		return fail(x,
		            "auth-tls-damping must be 1 to %u seconds, "
		            "not \"%.40s\"",
		            CFG_AUTH_TLS_DAMPING_MAX, v);
	return 0;
}

/* Queries per second per client; the bound is RATELIMIT_QPS_MAX. */
static int opt_ratelimit(struct cfg_ctx *x, char *v)
{
	if (parse_u32(x, v, 1000000, &x->c->ratelimit) != 0)
		return fail(x, "ratelimit must be 0 to 1000000, not \"%s\"",
		            v);
	return 0;
}

/* ---- operations: stale, prefetch, forward, local data ---- */
OPT_BOOL(opt_serve_stale, serve_stale)
OPT_BOOL(opt_prefetch, prefetch)
OPT_PATH(opt_local_data_file, local_data_file)
OPT_PATH(opt_block_file, block_file)

/* ---- DNSSEC: yes/no and numbers here, the lists in cfg_dnssec.c ---- */
OPT_BOOL(opt_dnssec, dnssec)
OPT_TTL(opt_val_bogus_ttl, val_bogus_ttl)
OPT_BOOL(opt_permit_small_holddown, permit_small_holddown)
OPT_BOOL(opt_aggressive_nsec, aggressive_nsec)

static int opt_nsec3_max_iterations(struct cfg_ctx *x, char *v)
{
	uint32_t n;

	if (parse_u32(x, v, UINT16_MAX, &n) != 0)
		return fail(x,
		            "nsec3-max-iterations must be 0 to 65535, not "
		            "\"%s\"",
		            v);
	x->c->nsec3_max_iterations = (uint16_t)n;
	return 0;
}

static int opt_stale_window(struct cfg_ctx *x, char *v)
{
	uint32_t *w = &x->c->serve_stale_window;

	if (parse_u32(x, v, CFG_STALE_WINDOW_MAX, w) != 0)
		return fail(x,
		            "serve-stale-window must be 0 to %u seconds, "
		            "not \"%s\"",
		            CFG_STALE_WINDOW_MAX, v);
	return 0;
}

/* A forward-zone or stub-zone line; a zone name at most once. */
static int opt_zone(struct cfg_ctx *x, char *v, struct cfg_zone *list,
                    size_t *n, bool keys)
{
	struct cfg_zone z;
	size_t i;

	if (cfg_zone_parse(v, keys, &z, x->why, sizeof x->why) != 0)
		return -1;
	for (i = 0; i < *n; i++)
		if (list[i].namelen == z.namelen &&
		    memcmp(list[i].name, z.name, z.namelen) == 0)
			return fail(x, "%s", "zone given twice");
	if (*n >= CFG_MAX_ZONES)
		return fail(x, "too many zones (at most %d)", CFG_MAX_ZONES);
	list[(*n)++] = z;
	return 0;
}

static int opt_forward_zone(struct cfg_ctx *x, char *v)
{
	return opt_zone(x, v, x->c->forward, &x->c->n_forward, false);
}

static int opt_stub_zone(struct cfg_ctx *x, char *v)
{
	return opt_zone(x, v, x->c->stub, &x->c->n_stub, true);
}

/* private-address: PREFIX, private-domain: NAME (cfg_zone.c). */
static int opt_private_address(struct cfg_ctx *x, char *v)
{
	return cfg_private_add(x->c, false, v, x->why, sizeof x->why);
}

static int opt_private_domain(struct cfg_ctx *x, char *v)
{
	return cfg_private_add(x->c, true, v, x->why, sizeof x->why);
}

static int opt_query_timeout(struct cfg_ctx *x, char *v)
{
	return parse_seconds_ms(x, v, &x->c->query_timeout_ms);
}

/* jostle-timeout: MSEC, a plain number as Unbound takes it. */
static int opt_jostle_timeout(struct cfg_ctx *x, char *v)
{
	return parse_u32(x, v, CFG_JOSTLE_MAX_MS, &x->c->jostle_timeout_ms);
}

static const struct {
	const char *name;
	cfg_handler fn;
	bool may_be_empty;
} cfg_options[] = {
	{ "port", opt_port, false },
	{ "listen", opt_listen, false },
	{ "ip-freebind", opt_ip_freebind, false },
	{ "access-control", cfg_opt_acl, false },
	{ "access-control-default", cfg_opt_acl_default, false },
	{ "proxy-protocol-from", cfg_opt_proxy_from, false },
	{ "ratelimit", opt_ratelimit, false },
	{ "ratelimit-exempt-loopback", opt_ratelimit_lo, false },
	{ "root-hints", opt_root_hints, false },
	{ "tls-cert-bundle", opt_tls_cert_bundle, false },
	{ "auth-tls", opt_auth_tls, false },
	{ "auth-tls-damping", opt_auth_tls_damping, false },
	{ "tls-port", opt_tls_port, false },
	{ "incoming-num-tcp", opt_incoming_tcp, false },
	{ "tls-service-key", opt_tls_service_key, true },
	{ "tls-service-pem", opt_tls_service_pem, true },
	{ "https-port", cfg_opt_https_port, false },
	{ "http-endpoint", cfg_opt_http_endpoint, false },
	{ "http-max-streams", cfg_opt_http_max_streams, false },
	{ "tls-ticket-rotate", cfg_opt_tls_ticket_rotate, false },
	{ "http-query-buffer-size", cfg_opt_http_query_buffer, false },
	{ "http-response-buffer-size", cfg_opt_http_response_buffer, false },
	{ "do-ip4", opt_do_ip4, false },
	{ "do-ip6", opt_do_ip6, false },
	{ "outgoing-interface", opt_outgoing, false },
	{ "qname-minimisation", opt_qmin, false },
	{ "do-not-query-localhost", opt_dnql, false },
	{ "harden-glue", opt_harden_glue, false },
	{ "private-address", opt_private_address, false },
	{ "private-domain", opt_private_domain, false },
	{ "cache-size", opt_cache_size, false },
	{ "min-ttl", opt_min_ttl, false },
	{ "max-ttl", opt_max_ttl, false },
	{ "negative-max-ttl", opt_neg_max_ttl, false },
	{ "edns-buffer-size", opt_edns_size, false },
	{ "query-timeout", opt_query_timeout, false },
	{ "jostle-timeout", opt_jostle_timeout, false },
	{ "curve", opt_curve, false },
	{ "curve-formats", opt_curve_formats, false },
	{ "curve-plain-fallback", opt_curve_fallback, false },
	{ "curve-require", opt_curve_require, false },
	{ "curve-pin", opt_curve_pin, false },
	{ "encrypted-zone", cfg_opt_encrypted_zone, false },
	{ "curve-key-file", opt_curve_key_file, true },
	{ "curve-key-rotate", opt_curve_key_rotate, false },
	{ "cache-file", opt_cache_file, true },
	{ "log-queries", opt_log_queries, false },
	{ "serve-stale", opt_serve_stale, false },
	{ "serve-stale-window", opt_stale_window, false },
	{ "prefetch", opt_prefetch, false },
	{ "forward-zone", opt_forward_zone, false },
	{ "stub-zone", opt_stub_zone, false },
	{ "local-data-file", opt_local_data_file, true },
	{ "block-file", opt_block_file, true },
	{ "local-zone", cfg_opt_local_zone, false },
	{ "local-data", cfg_opt_local_data, false },
	{ "local-data-ptr", cfg_opt_local_data_ptr, false },
	{ "user", opt_user, true },
	{ "control-socket", opt_control_socket, true },
	{ "log-level", opt_log_level, false },
	{ "threads", opt_threads, false },
	{ "include", cfg_include, false },
	{ "pidfile", opt_pidfile, true },
	{ "dnssec", opt_dnssec, false },
	{ "trust-anchor-file", cfg_opt_trust_anchor_file, false },
	{ "auto-trust-anchor-file", cfg_opt_auto_trust_anchor_file, false },
	{ "trust-anchor", cfg_opt_trust_anchor, false },
	{ "domain-insecure", cfg_opt_domain_insecure, false },
	{ "val-bogus-ttl", opt_val_bogus_ttl, false },
	{ "nsec3-max-iterations", opt_nsec3_max_iterations, false },
	{ "aggressive-nsec", opt_aggressive_nsec, false },
	{ "add-holddown", cfg_opt_add_holddown, false },
	{ "del-holddown", cfg_opt_del_holddown, false },
	{ "keep-missing", cfg_opt_keep_missing, false },
	{ "permit-small-holddown", opt_permit_small_holddown, false },
	{ "cachedb-backend", cfg_opt_cachedb, false },
	{ "redis-server-host", cfg_opt_cachedb, false },
	{ "redis-server-port", cfg_opt_cachedb, false },
	{ "redis-server-path", cfg_opt_cachedb, true },
	{ "redis-server-password", cfg_opt_cachedb, true },
	{ "redis-timeout", cfg_opt_cachedb, false },
	{ "redis-expire-records", cfg_opt_cachedb, false },
	{ "cachedb-no-store", cfg_opt_cachedb, false },
	{ "cachedb-secret-file", cfg_opt_cachedb, false },
};

void cfg_defaults(struct cfg *c)
{
	memset(c, 0, sizeof *c);
	c->port = 53;
	(void)cfg_addr_parse("127.0.0.1", c->port, &c->listen[0]);
	(void)cfg_addr_parse("::1", c->port, &c->listen[1]);
	c->n_listen = 2;
	(void)cfg_prefix_parse("127.0.0.0/8", &c->acl[0]);
	(void)cfg_prefix_parse("::1/128", &c->acl[1]);
	c->acl[0].action = c->acl[1].action = CFG_ACL_ALLOW;
	c->n_acl = 2;
	c->acl_default = CFG_ACL_REFUSE;
	c->ratelimit = 0;
	c->ratelimit_exempt_loopback = true;
	c->do_ip4 = c->do_ip6 = true;
	c->qname_minimisation = true;
	c->do_not_query_localhost = true;
	c->harden_glue = true;
	c->cache_size = 64 * 1024 * 1024;
	c->min_ttl = 0;
	c->max_ttl = 86400;
	c->neg_max_ttl = 3600;
	c->edns_size = 1232;
	c->query_timeout_ms = 5000;
	c->jostle_timeout_ms = CFG_JOSTLE_DEFAULT_MS;
	c->curve = true;
	c->curve_order[0] = CFG_CURVE_STREAMLINED;
	c->curve_order[1] = CFG_CURVE_TXT;
	c->n_curve_order = 2;
	snprintf(c->control_socket, sizeof c->control_socket, "%s",
	         "/run/curvecache/control");
	snprintf(c->tls_cert_bundle, sizeof c->tls_cert_bundle, "%s",
	         CFG_TLS_BUNDLE_DEFAULT);
	c->tls_port = CFG_TLS_PORT_DEFAULT;
	c->incoming_num_tcp = CFG_INCOMING_TCP_DEFAULT;
	cfg_doh_defaults(c);
	c->log_level = CFG_LOG_INFO;
	c->threads = 1;
	c->serve_stale = true;
	c->serve_stale_window = CFG_STALE_WINDOW_DEFAULT;
	c->prefetch = true;
	c->auth_tls = CFG_AUTH_TLS_OPPORTUNISTIC;
	c->auth_tls_damping_s = CFG_AUTH_TLS_DAMPING_DEFAULT;
	c->dnssec = true;
	c->val_bogus_ttl = CFG_VAL_BOGUS_TTL_DEFAULT;
	c->nsec3_max_iterations = CFG_NSEC3_ITERATIONS_DEFAULT;
	c->aggressive_nsec = true;
	c->add_holddown = c->del_holddown = CFG_HOLDDOWN_DEFAULT;
	c->keep_missing = CFG_KEEP_MISSING_DEFAULT;
	cfg_cachedb_defaults(&c->cachedb);
}

/* Trim in place; returns the start of the trimmed text. */
static char *trim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	end = s + strlen(s);
	while (end > s &&
	       (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

int cfg_option_run(struct cfg_ctx *x, const char *key, char *value)
{
	size_t i;

	for (i = 0; i < sizeof cfg_options / sizeof cfg_options[0]; i++) {
		if (strcmp(key, cfg_options[i].name) != 0)
			continue;
		if (*value == '\0' && !cfg_options[i].may_be_empty)
			return fail(x, "option %s needs a value", key);
		x->key = cfg_options[i].name;
		return cfg_options[i].fn(x, value);
	}
	return cfg_ub_option(x, key, value);
}

const char *cfg_option_name(size_t i)
{
	return i < sizeof cfg_options / sizeof cfg_options[0] ?
	               cfg_options[i].name :
	               NULL;
}

int cfg_line_parse(struct cfg_ctx *x, char *line)
{
	char *colon, *key, *value;
	int rc;

	line = trim(line);
	if (*line == '\0')
		return 0;
	colon = strchr(line, ':');
	if (colon == NULL)
		return fail(x, "expected \"option: value\", got \"%.60s\"",
		            line);
	*colon = '\0';
	key = trim(line);
	value = trim(colon + 1);
	rc = cfg_ub_clause_line(x, key, value);
	return rc == 1 ? cfg_option_run(x, key, value) : rc;
}

static int check_whole(struct cfg_ctx *x)
{
	struct cfg *c = x->c;

	if (!c->do_ip4 && !c->do_ip6)
		return fail(x, "%s", "do-ip4 and do-ip6 are both no");
	if (c->min_ttl > c->max_ttl)
		return fail(x, "%s", "min-ttl is above max-ttl");
	if (c->n_listen == 0)
		return fail(x, "%s", "no listen address");
	return 0;
}

int cfg_end_check(struct cfg_ctx *x, const char *name)
{
	if (cfg_ub_end(x) != 0) {
		snprintf(x->err, x->errlen, "%s", x->why);
		return -1;
	}
	cfg_local_seal(x->c);
	if (cfg_cachedb_end(x) != 0) {
		snprintf(x->err, x->errlen, "%s", x->why);
		return -1;
	}
	if (check_whole(x) != 0) {
		snprintf(x->err, x->errlen, "%s: %s", name, x->why);
		return -1;
	}
	return 0;
}
