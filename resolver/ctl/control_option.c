/*
 * resolver/ctl/control_option.c - get_option NAME: the running value of one
 * configuration option, by curvecache's name or by Unbound's name for an
 * option of the same meaning (rrset-cache-size, num-threads, ...), in
 * the form Unbound prints it: "yes"/"no", a number, a path ("" when
 * unset). Lists and words (listen, access-control, forward-zone, ...) are
 * control_option_list.c's. See control.h.
 */
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "conf/cfg.h"
#include "control_int.h"
#include "base/log.h"

/** How an option's field is read. */
enum control_opt_kind {
	CONTROL_OPT_BOOL = 0,
	CONTROL_OPT_U16,
	CONTROL_OPT_U32,
	CONTROL_OPT_U64,
	CONTROL_OPT_UINT,
	CONTROL_OPT_STR,
	CONTROL_OPT_MS, /**< uint32_t milliseconds, shown in seconds */
	CONTROL_OPT_LOG /**< the log level now (verbosity changes it) */
};

/** One option: its names, its kind and where it is in struct cfg. */
struct control_opt {
	const char *name;    /**< curvecache's */
	const char *unbound; /**< Unbound's of the same meaning, or NULL */
	enum control_opt_kind kind;
	size_t off;
};

#define OPT(n, u, k, f) \
	{ \
		n, u, CONTROL_OPT_##k, offsetof(struct cfg, f) \
	}

static const struct control_opt control_opts[] = {
	OPT("port", NULL, U16, port),
	OPT("ratelimit", "ip-ratelimit", U32, ratelimit),
	OPT("ratelimit-exempt-loopback", NULL, BOOL,
	    ratelimit_exempt_loopback),
	OPT("root-hints", NULL, STR, root_hints),
	OPT("do-ip4", NULL, BOOL, do_ip4),
	OPT("do-ip6", NULL, BOOL, do_ip6),
	OPT("qname-minimisation", NULL, BOOL, qname_minimisation),
	OPT("do-not-query-localhost", NULL, BOOL, do_not_query_localhost),
	OPT("harden-glue", NULL, BOOL, harden_glue),
	OPT("cache-size", "rrset-cache-size", U64, cache_size),
	OPT("min-ttl", "cache-min-ttl", U32, min_ttl),
	OPT("max-ttl", "cache-max-ttl", U32, max_ttl),
	OPT("negative-max-ttl", "cache-max-negative-ttl", U32, neg_max_ttl),
	OPT("edns-buffer-size", NULL, U16, edns_size),
	OPT("query-timeout", NULL, MS, query_timeout_ms),
	OPT("curve", NULL, BOOL, curve),
	OPT("curve-plain-fallback", NULL, BOOL, curve_plain_fallback),
	OPT("curve-pin", NULL, BOOL, curve_pin),
	OPT("curve-key-file", NULL, STR, curve_key_file),
	OPT("curve-key-rotate", NULL, U32, curve_key_rotate_s),
	OPT("cache-file", NULL, STR, cache_file),
	OPT("log-queries", NULL, BOOL, log_queries),
	OPT("serve-stale", "serve-expired", BOOL, serve_stale),
	OPT("serve-stale-window", "serve-expired-ttl", U32,
	    serve_stale_window),
	OPT("prefetch", NULL, BOOL, prefetch),
	OPT("local-data-file", NULL, STR, local_data_file),
	OPT("block-file", NULL, STR, block_file),
	OPT("user", "username", STR, user),
	OPT("control-socket", "control-interface", STR, control_socket),
	OPT("log-level", NULL, LOG, log_level),
	OPT("threads", "num-threads", UINT, threads),
	OPT("ip-freebind", NULL, BOOL, ip_freebind),
	OPT("jostle-timeout", NULL, U32, jostle_timeout_ms),
	OPT("pidfile", NULL, STR, pidfile),
	OPT("dnssec", NULL, BOOL, dnssec),
	OPT("val-bogus-ttl", NULL, U32, val_bogus_ttl),
	OPT("nsec3-max-iterations", NULL, U16, nsec3_max_iterations),
	OPT("aggressive-nsec", NULL, BOOL, aggressive_nsec),
	OPT("add-holddown", NULL, U32, add_holddown),
	OPT("del-holddown", NULL, U32, del_holddown),
	OPT("keep-missing", NULL, U32, keep_missing),
	OPT("permit-small-holddown", NULL, BOOL, permit_small_holddown),
};

#define CONTROL_NOPTS (sizeof control_opts / sizeof control_opts[0])

/* The length of an option's name; Unbound's tools may add the colon of
 * the config syntax. */
static size_t opt_len(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && name[n - 1] == ':' ? n - 1 : n;
}

static const struct control_opt *opt_find(const char *name)
{
	size_t i, n = opt_len(name);

	for (i = 0; i < CONTROL_NOPTS; i++) {
		const struct control_opt *o = &control_opts[i];

		if ((strlen(o->name) == n && strncmp(o->name, name, n) == 0) ||
		    (o->unbound != NULL && strlen(o->unbound) == n &&
		     strncmp(o->unbound, name, n) == 0))
			return o;
	}
	return NULL;
}

/* The value of a numeric field, widened. */
static uint64_t opt_number(const struct control_opt *o, const uint8_t *p)
{
	uint16_t u16;
	uint32_t u32;
	uint64_t u64;
	unsigned u;

	switch (o->kind) {
	case CONTROL_OPT_U16: memcpy(&u16, p, sizeof u16); return u16;
	case CONTROL_OPT_U32: memcpy(&u32, p, sizeof u32); return u32;
	case CONTROL_OPT_MS: memcpy(&u32, p, sizeof u32); return u32 / 1000u;
	case CONTROL_OPT_UINT: memcpy(&u, p, sizeof u); return u;
	default: memcpy(&u64, p, sizeof u64); return u64;
	}
}

const char *control_cmd_get_option(struct control_cmd *c, char **argv,
                                   size_t argc, struct control_out *out,
                                   char *err)
{
	static const char *const levels[] = { "error", "warn", "info",
		                              "debug" };
	const struct control_opt *o = opt_find(argv[1]);
	const uint8_t *p;
	bool b;

	(void)argc;
	if (o == NULL &&
	    control_option_list(c, argv[1], opt_len(argv[1]), out))
		return NULL;
	if (o == NULL) {
		snprintf(err, CONTROL_ERR_BYTES, "unknown option %.64s",
		         argv[1]);
		return err;
	}
	p = (const uint8_t *)c->env.cfg + o->off;
	if (o->kind == CONTROL_OPT_BOOL) {
		memcpy(&b, p, sizeof b);
		control_out_printf(out, "%s\n", b ? "yes" : "no");
	} else if (o->kind == CONTROL_OPT_STR) {
		control_out_printf(out, "%s\n", (const char *)p);
	} else if (o->kind == CONTROL_OPT_LOG) {
		control_out_printf(out, "%s\n", levels[log_level() & 3u]);
	} else {
		control_out_printf(out, "%" PRIu64 "\n", opt_number(o, p));
	}
	return NULL;
}
