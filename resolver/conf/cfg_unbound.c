/*
 * resolver/conf/cfg_unbound.c - Unbound's syntax (issue 22 item 5), so that
 * the server: section of an unbound.conf runs as written:
 *
 *   - the clause lines: server:, forward-zone: and stub-zone: (with name:,
 *     forward-addr:, stub-addr: ... lines, which become one flat
 *     forward-zone: or stub-zone: line), remote-control:; the clauses of
 *     what curvecache does not do (auth-zone:, view:, rpz: ...) are
 *     refused;
 *   - the one table of Unbound's option names (ub_names): each is
 *     curvecache's option under another name, read and ignored here (a
 *     note for curvecache -t: it means nothing here or is always so), or
 *     refused with the reason and the nearest curvecache option;
 *   - for a name that is neither curvecache's nor Unbound's, the nearest
 *     name, when one is near (a typo).
 *
 * Options of the same name and meaning in both (access-control, do-ip6,
 * prefetch, root-hints ...) never come here: cfg.c's table has them.
 */
#include "cfg.h"
#include "cfg_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** Unbound's default msg-cache-size and rrset-cache-size (4m each). */
#define UB_CACHE_DEFAULT (4 * 1024 * 1024)
/** A name this many edits away or fewer is "near" (a typo). */
#define UB_NEAR_EDITS 2
/** Longest option name compared for nearness. */
#define UB_NAME_CMP 40

/* What an Unbound name is here. */
enum ub_kind {
	UB_ALIAS,    /* curvecache's option to (same value) */
	UB_IGNORED,  /* read, means nothing here: a note with why */
	UB_NO_ONLY,  /* "no" is what curvecache does: yes is refused */
	UB_YES_ONLY, /* "yes" is what curvecache does: no is refused */
	UB_REFUSED,  /* refused: why; to: the nearest option, if any */
	UB_SPECIAL   /* a handler below (fn) */
};

typedef int (*ub_fn)(struct cfg_ctx *x, const char *key, char *v);

/* A row of the one table: Unbound's names (one or more, a space between
 * two) that are the same here. */
struct ub_name {
	const char *names;
	enum ub_kind kind;
	const char *to;  /* UB_ALIAS, UB_REFUSED: curvecache's option */
	const char *why; /* the note or the reason */
	ub_fn fn;        /* UB_SPECIAL */
};

static int ub_cache_size(struct cfg_ctx *x, const char *key, char *v);
static int ub_verbosity(struct cfg_ctx *x, const char *key, char *v);
static int ub_module_config(struct cfg_ctx *x, const char *key, char *v);

#define WHY_CLAUSE "only inside a forward-zone: or stub-zone: clause"

/* The one table of Unbound's names that are not curvecache's. */
static const struct ub_name ub_names[] = {
	/* the same meaning under another name */
	{ "interface", UB_ALIAS, "listen", NULL, NULL },
	{ "num-threads", UB_ALIAS, "threads", NULL, NULL },
	{ "cache-min-ttl", UB_ALIAS, "min-ttl", NULL, NULL },
	{ "cache-max-ttl", UB_ALIAS, "max-ttl", NULL, NULL },
	{ "cache-max-negative-ttl", UB_ALIAS, "negative-max-ttl", NULL, NULL },
	{ "serve-expired", UB_ALIAS, "serve-stale", NULL, NULL },
	{ "serve-expired-ttl", UB_ALIAS, "serve-stale-window", NULL, NULL },
	{ "username", UB_ALIAS, "user", NULL, NULL },
	{ "ip-ratelimit", UB_ALIAS, "ratelimit", NULL, NULL },
	{ "include-toplevel", UB_ALIAS, "include", NULL, NULL },
	{ "ssl-service-key", UB_ALIAS, "tls-service-key", NULL, NULL },
	{ "ssl-service-pem", UB_ALIAS, "tls-service-pem", NULL, NULL },
	{ "ssl-port", UB_ALIAS, "tls-port", NULL, NULL },
	{ "msg-cache-size rrset-cache-size", UB_SPECIAL, "cache-size", NULL,
	  ub_cache_size },
	{ "verbosity", UB_SPECIAL, "log-level", NULL, ub_verbosity },
	{ "module-config", UB_SPECIAL, "dnssec", NULL, ub_module_config },
	/* harmless here: read, and a note says why nothing changes */
	{ "key-cache-size", UB_IGNORED, NULL, "keys live in cache-size",
	  NULL },
	{ "neg-cache-size", UB_IGNORED, NULL,
	  "denials live in cache-size; aggressive-nsec keeps its own 4 MiB",
	  NULL },
	{ "use-syslog logfile log-time-ascii", UB_IGNORED, NULL,
	  "curvecache logs to syslog (to stderr with -f, the journal under "
	  "systemd)",
	  NULL },
	{ "val-log-level log-servfail", UB_IGNORED, NULL,
	  "log-level decides what is logged", NULL },
	{ "chroot", UB_IGNORED, NULL,
	  "curvecache does not chroot; the systemd unit confines it", NULL },
	{ "directory", UB_IGNORED, NULL,
	  "a relative path is taken from the folder of the config file "
	  "that names it",
	  NULL },
	{ "do-daemonize", UB_IGNORED, NULL,
	  "curvecache runs in the background unless started with -f", NULL },
	{ "hide-identity hide-version hide-trustanchor identity version",
	  UB_IGNORED, NULL,
	  "curvecache never puts its identity or version in an answer", NULL },
	{ "harden-dnssec-stripped", UB_YES_ONLY, NULL,
	  "a signed zone's unsigned answer is always bogus", NULL },
	{ "harden-referral-path harden-below-nxdomain harden-algo-downgrade "
	  "harden-large-queries harden-short-bufsize "
	  "harden-unknown-additional harden-unverified-glue use-caps-for-id "
	  "root-key-sentinel trust-anchor-signaling",
	  UB_IGNORED, NULL,
	  "no such switch here; what curvecache checks: curvecache(8)", NULL },
	{ "prefetch-key", UB_IGNORED, NULL,
	  "DNSKEYs are fetched as validation needs them", NULL },
	{ "so-reuseport", UB_IGNORED, NULL,
	  "each worker thread has its own sockets", NULL },
	{ "so-rcvbuf so-sndbuf", UB_IGNORED, NULL,
	  "the kernel's socket buffer sizes are used", NULL },
	{ "outgoing-range outgoing-num-tcp msg-cache-slabs rrset-cache-slabs "
	  "infra-cache-slabs key-cache-slabs infra-cache-numhosts "
	  "infra-host-ttl msg-buffer-size max-udp-size edns-tcp-keepalive "
	  "tcp-idle-timeout minimal-responses rrset-roundrobin "
	  "unwanted-reply-threshold val-clean-additional prefer-ip4 "
	  "prefer-ip6 outgoing-port-permit outgoing-port-avoid "
	  "serve-expired-reply-ttl serve-expired-client-timeout "
	  "infra-keep-probing serve-expired-ttl-reset infra-cache-min-rtt "
	  "infra-cache-max-rtt delay-close udp-connect sock-queue-timeout",
	  UB_IGNORED, NULL, "curvecache sizes and tunes this itself", NULL },
	{ "num-queries-per-thread", UB_IGNORED, NULL,
	  "256 a thread, see jostle-timeout in curvecache.conf(5)", NULL },
	{ "statistics-interval statistics-cumulative extended-statistics",
	  UB_IGNORED, NULL, "curvecache-control stats gives the counters",
	  NULL },
	{ "interface-automatic", UB_IGNORED, NULL,
	  "a wildcard listen, 0.0.0.0 or ::, always answers from the address "
	  "asked",
	  NULL },
	{ "log-replies log-local-actions log-tag-queryreply", UB_IGNORED, NULL,
	  "log-queries: yes logs each query with its answer", NULL },
	{ "ede", UB_IGNORED, NULL,
	  "curvecache adds Extended DNS Errors to its failures", NULL },
	{ "qname-minimisation-strict", UB_NO_ONLY, "qname-minimisation",
	  "only the relaxed qname-minimisation is here", NULL },
	{ "unblock-lan-zones", UB_NO_ONLY, "local-zone",
	  "name each private reverse zone with local-zone: ZONE nodefault",
	  NULL },
	{ "insecure-lan-zones", UB_NO_ONLY, "domain-insecure",
	  "name each zone to leave unvalidated with domain-insecure:", NULL },
	{ "send-client-subnet", UB_REFUSED, NULL,
	  "curvecache sends no EDNS Client Subnet", NULL },
	{ "do-udp do-tcp", UB_YES_ONLY, NULL,
	  "curvecache answers over UDP and TCP", NULL },
	/* refused: their meaning cannot be kept */
	{ "ip-transparent", UB_REFUSED, "ip-freebind",
	  "curvecache binds foreign addresses with IP_FREEBIND", NULL },
	{ "val-permissive-mode", UB_NO_ONLY, "dnssec",
	  "an answer that fails validation is SERVFAIL", NULL },
	{ "tls-upstream", UB_NO_ONLY, "forward-zone",
	  "write each TLS forwarder ADDR@853#AUTH-NAME, or set "
	  "forward-tls-upstream: yes in its forward-zone: clause",
	  NULL },
	{ "tls-ciphers tls-ciphersuites", UB_IGNORED, NULL,
	  "libssl's default ciphers for TLS 1.2 and 1.3", NULL },
	{ "tls-session-ticket-keys", UB_IGNORED, NULL,
	  "each thread makes its own ticket key at start and reload", NULL },
	{ "tls-use-sni", UB_IGNORED, NULL,
	  "the one certificate is served whatever name is asked", NULL },
	{ "pad-responses", UB_YES_ONLY, NULL,
	  "answers over TLS are always padded", NULL },
	{ "pad-responses-block-size", UB_IGNORED, NULL,
	  "468 bytes, as RFC 8467 recommends", NULL },
	{ "access-control-view", UB_REFUSED, "access-control",
	  "curvecache has no views", NULL },
	{ "dns64-prefix", UB_REFUSED, NULL, "curvecache does no DNS64", NULL },
	{ "name", UB_REFUSED, "forward-zone", WHY_CLAUSE, NULL },
	{ "backend", UB_ALIAS, "cachedb-backend", NULL, NULL },
	{ "secret-seed", UB_REFUSED, "cachedb-secret-file",
	  "records are signed with the bytes of a file", NULL },
	{ "forward-addr", UB_REFUSED, "forward-zone", WHY_CLAUSE, NULL },
	{ "stub-addr", UB_REFUSED, "stub-zone", WHY_CLAUSE, NULL },
};

/* Unbound's clause lines of what curvecache does not do. */
static const char ub_refused_clauses[] = "auth-zone view rpz python dynlib "
					 "dnstap dnscrypt ipset "
					 "remote-control-tls";

/* The word of a list (words with a space between two) at *at and its
 * length *n; *at moves past it. NULL at the end of the list. */
static const char *word_next(const char **at, size_t *n)
{
	const char *w = *at;

	if (*w == '\0')
		return NULL;
	*n = strcspn(w, " ");
	*at = w[*n] == ' ' ? w + *n + 1 : w + *n;
	return w;
}

/* Whether key is one of the words of list. */
static bool listed(const char *key, const char *list)
{
	size_t klen = strlen(key), n;
	const char *at = list, *w;

	while ((w = word_next(&at, &n)) != NULL)
		if (n == klen && memcmp(w, key, n) == 0)
			return true;
	return false;
}

/* The row of ub_names that lists key, or NULL. */
static const struct ub_name *ub_find(const char *key)
{
	size_t i;

	for (i = 0; i < sizeof ub_names / sizeof ub_names[0]; i++)
		if (listed(key, ub_names[i].names))
			return &ub_names[i];
	return NULL;
}

/* A note for curvecache -t: "FILE:LINE: KEY: ignored (why)". */
static void note(struct cfg_ctx *x, const char *key, const char *why)
{
	char *n = x->c->notes;
	size_t used = strlen(n);

	if (used + 1 < sizeof x->c->notes)
		snprintf(n + used, sizeof x->c->notes - used,
		         "%s:%zu: %s: ignored (%s)\n", x->file, x->line, key,
		         why);
}

/* msg-cache-size, rrset-cache-size: curvecache's one cache holds both,
 * so cache-size is their sum (the one not given at Unbound's 4m). */
static int ub_cache_size(struct cfg_ctx *x, const char *key, char *v)
{
	struct cfg_ub_clause *u = &x->ub;
	uint64_t *mine = strcmp(key, "msg-cache-size") == 0 ? &u->msg_size :
	                                                      &u->rrset_size;
	char sum[32];

	if (cfg_option_run(x, "cache-size", v) != 0)
		return -1;
	*mine = x->c->cache_size;
	snprintf(sum, sizeof sum, "%llu",
	         (unsigned long long)((u->msg_size ? u->msg_size :
	                                             UB_CACHE_DEFAULT) +
	                              (u->rrset_size ? u->rrset_size :
	                                               UB_CACHE_DEFAULT)));
	return cfg_option_run(x, "cache-size", sum);
}

/* verbosity: 0 errors only, 1 and 2 operational, 3 and more queries. */
static int ub_verbosity(struct cfg_ctx *x, const char *key, char *v)
{
	static char level[][6] = { "error", "info", "info", "debug" };
	char *end;
	long n = strtol(v, &end, 10);

	if (*v < '0' || *v > '9' || *end != '\0')
		return cfg_why(x, "%s wants a number (0 to 5), not \"%.40s\"",
		               key, v);
	return cfg_option_run(x, "log-level", level[n > 3 ? 3 : n]);
}

/* module-config: "validator iterator" validates, "iterator" does not;
 * other modules are not here. */
static int ub_module_config(struct cfg_ctx *x, const char *key, char *v)
{
	char yes[] = "yes", no[] = "no";

	if (strcmp(v, "validator iterator") == 0)
		return cfg_option_run(x, "dnssec", yes);
	if (strcmp(v, "iterator") == 0)
		return cfg_option_run(x, "dnssec", no);
	return cfg_why(x,
	               "%s \"%.60s\" refused: curvecache has the modules "
	               "\"validator iterator\" (dnssec: yes) or \"iterator\" "
	               "(dnssec: no) only",
	               key, v);
}

/* Edits from a to b, lb bytes (Levenshtein), both cut at UB_NAME_CMP. */
static size_t edits(const char *a, const char *b, size_t lb)
{
	size_t row[UB_NAME_CMP + 1], la = strlen(a), i, j;

	la = la > UB_NAME_CMP ? UB_NAME_CMP : la;
	lb = lb > UB_NAME_CMP ? UB_NAME_CMP : lb;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j],
			       best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[lb];
}

/* The name nearest key among curvecache's and Unbound's, or NULL; its
 * length in *len. */
static const char *nearest(const char *key, size_t *len)
{
	const char *best = NULL, *n, *at;
	size_t i, d, bd = UB_NEAR_EDITS + 1, nl;

	for (i = 0; (n = cfg_option_name(i)) != NULL; i++)
		if ((d = edits(key, n, strlen(n))) < bd)
			bd = d, best = n, *len = strlen(n);
	for (i = 0; i < sizeof ub_names / sizeof ub_names[0]; i++)
		for (at = ub_names[i].names;
		     (n = word_next(&at, &nl)) != NULL;)
			if ((d = edits(key, n, nl)) < bd)
				bd = d, best = n, *len = nl;
	return best;
}

static int yes_no(struct cfg_ctx *x, const char *key, const char *v, bool *out)
{
	if (strcmp(v, "yes") != 0 && strcmp(v, "no") != 0)
		return cfg_why(x, "%s: expected yes or no, not \"%.40s\"", key,
		               v);
	*out = v[0] == 'y';
	return 0;
}

/* An Unbound name (key) of the table's row u, value v. */
static int ub_run(struct cfg_ctx *x, const struct ub_name *u, const char *key,
                  char *v)
{
	bool yes = false;

	switch (u->kind) {
	case UB_ALIAS: return cfg_option_run(x, u->to, v);
	case UB_SPECIAL: return u->fn(x, key, v);
	case UB_IGNORED: note(x, key, u->why); return 0;
	case UB_YES_ONLY:
	case UB_NO_ONLY:
		if (yes_no(x, key, v, &yes) != 0)
			return -1;
		if (yes == (u->kind == UB_YES_ONLY))
			return 0;
		return cfg_why(x, "Unbound's %s: %s is refused: %s%s%s%s", key,
		               v, u->why, u->to ? " (see " : "",
		               u->to ? u->to : "", u->to ? ":)" : "");
	default: break;
	}
	if (u->to != NULL)
		return cfg_why(x,
		               "unknown option \"%s\" (%s); curvecache calls "
		               "it %s:",
		               key, u->why, u->to);
	return cfg_why(x, "Unbound's option \"%s\" is refused: %s", key,
	               u->why);
}

int cfg_ub_option(struct cfg_ctx *x, const char *key, char *value)
{
	const struct ub_name *u = ub_find(key);
	const char *near;
	size_t len = 0;

	if (u != NULL)
		return ub_run(x, u, key, value);
	near = nearest(key, &len);
	if (near != NULL)
		return cfg_why(x,
		               "unknown option \"%.60s\"; did you mean %.*s:?",
		               key, (int)len, near);
	return cfg_why(x, "unknown option \"%.60s\"", key);
}

/* ---- clauses: server:, forward-zone:, stub-zone:, remote-control: ---- */

/* The options of a forward-zone: or stub-zone: clause and of
 * remote-control:, each handled below. */
static const char zone_keys[] =
	"name forward-addr stub-addr forward-host stub-host forward-first "
	"stub-first forward-tls-upstream stub-tls-upstream "
	"forward-ssl-upstream stub-ssl-upstream forward-no-cache "
	"stub-no-cache forward-tcp-upstream stub-tcp-upstream stub-prime";
static const char control_keys[] =
	"control-enable control-interface control-port control-use-cert "
	"server-key-file server-cert-file control-key-file control-cert-file";

/* The open zone clause becomes its flat forward-zone: or stub-zone:
 * line; "at_end": the message starts with the clause's FILE:LINE. */
static int clause_close(struct cfg_ctx *x, bool at_end)
{
	struct cfg_ub_clause *u = &x->ub;
	const char *opt = u->in == CFG_UB_STUB ? "stub-zone" : "forward-zone";
	char line[CFG_UB_NAME_BYTES + CFG_UB_ZONE_BYTES], why[CFG_WHY_BYTES];
	bool zone = u->in == CFG_UB_FORWARD || u->in == CFG_UB_STUB;

	u->in = CFG_UB_SERVER;
	if (!zone)
		return 0;
	if (u->name[0] == '\0')
		snprintf(why, sizeof why, "%s", "it has no name: line");
	snprintf(line, sizeof line, "%s%s", u->name, u->zone);
	if (u->name[0] != '\0' && cfg_option_run(x, opt, line) == 0)
		return 0;
	if (u->name[0] != '\0')
		snprintf(why, sizeof why, "%s", x->why);
	if (at_end)
		return cfg_why(x, "%.*s: %s: clause: %.*s", CFG_MAX_PATH,
		               u->at, opt, CFG_WHY_BYTES / 2, why);
	return cfg_why(x, "the %s: clause at %.*s: %.*s", opt, CFG_MAX_PATH,
	               u->at, CFG_WHY_BYTES / 2, why);
}

int cfg_ub_end(struct cfg_ctx *x)
{
	return clause_close(x, true);
}

/* name: and forward-addr: / stub-addr: of the open zone clause, each
 * checked on its own line. */
static int zone_value(struct cfg_ctx *x, const char *key, char *v)
{
	struct cfg_ub_clause *u = &x->ub;
	bool stub = u->in == CFG_UB_STUB;
	char probe[CFG_UB_NAME_BYTES];
	struct cfg_zone z;
	size_t n = strlen(u->zone);

	if (strcmp(key, "name") == 0) {
		uint8_t wire[CFG_NAME_MAX];
		size_t len;

		if (u->name[0] != '\0')
			return cfg_why(x, "%s",
			               "a second name: in one clause");
		if (strlen(v) >= sizeof u->name ||
		    cfg_name_parse(v, wire, &len) != 0)
			return cfg_why(x, "bad zone name \"%.60s\"", v);
		memcpy(u->name, v, strlen(v) + 1);
		return 0;
	}
	if (stub != (strcmp(key, "stub-addr") == 0))
		return cfg_why(x, "%s: in a %s: clause (it takes %s:)", key,
		               stub ? "stub-zone" : "forward-zone",
		               stub ? "stub-addr" : "forward-addr");
	if (snprintf(probe, sizeof probe, ". %s", v) >= (int)sizeof probe)
		return cfg_why(x, "bad server address \"%.60s\"", v);
	if (cfg_zone_parse(probe, stub, &z, x->why, sizeof x->why) != 0)
		return -1;
	if (n + 1 + strlen(v) >= sizeof u->zone)
		return cfg_why(x, "too many servers (at most %d)",
		               CFG_ZONE_ADDRS);
	snprintf(u->zone + n, sizeof u->zone - n, " %s", v);
	return 0;
}

/* A word of the flat forward-zone: line (cfg_zone.c). */
static int zone_word(struct cfg_ctx *x, const char *word)
{
	size_t n = strlen(x->ub.zone);

	if (n + 1 + strlen(word) >= sizeof x->ub.zone)
		return cfg_why(x, "%s", "too many servers");
	snprintf(x->ub.zone + n, sizeof x->ub.zone - n, " %s", word);
	return 0;
}

/* An option of the open forward-zone: or stub-zone: clause. */
static int zone_line(struct cfg_ctx *x, const char *key, char *v)
{
	const char *what = strchr(key, '-') + 1;
	bool yes = false;

	if (*v == '\0')
		return cfg_why(x, "option %s needs a value", key);
	if (strcmp(key, "name") == 0 || strcmp(what, "addr") == 0)
		return zone_value(x, key, v);
	if (strcmp(what, "host") == 0)
		return cfg_why(x,
		               "%s is refused: curvecache takes server "
		               "addresses (forward-addr:, stub-addr:), not "
		               "names",
		               key);
	if (strcmp(key, "stub-prime") == 0) {
		note(x, key, "stub servers are asked directly, unprimed");
		return 0;
	}
	if (yes_no(x, key, v, &yes) != 0)
		return -1;
	if (!yes)
		return 0;
	if (strcmp(key, "forward-first") == 0)
		return zone_word(x, CFG_FORWARD_FIRST);
	if (strcmp(key, "forward-tls-upstream") == 0 ||
	    strcmp(key, "forward-ssl-upstream") == 0)
		return zone_word(x, CFG_FORWARD_TLS);
	return cfg_why(x, "%s: yes is refused: %s", key,
	               strcmp(what, "first") == 0 ?
	                       "curvecache does not fall back to the root "
	                       "when the zone's servers fail" :
	               strcmp(what, "no-cache") == 0 ?
	                       "a zone's answers are cached as any other" :
	               strcmp(what, "tcp-upstream") == 0 ?
	                       "curvecache asks over UDP, and TCP after a "
	                       "truncated answer" :
	                       "stub servers are asked in plain DNS or "
	                       "DNSCurve");
}

/* An option of remote-control: curvecache-control's unix socket. */
static int control_line(struct cfg_ctx *x, const char *key, char *v)
{
	char none[] = "";

	if (strcmp(key, "control-enable") == 0 && strcmp(v, "no") == 0)
		return cfg_option_run(x, "control-socket", none);
	if (strcmp(key, "control-interface") == 0 && v[0] == '/')
		return cfg_option_run(x, "control-socket", v);
	if (strcmp(key, "control-enable") != 0 || strcmp(v, "yes") != 0)
		note(x, key,
		     "curvecache-control speaks over the unix socket of "
		     "control-socket:");
	return 0;
}

int cfg_ub_clause_line(struct cfg_ctx *x, const char *key, char *value)
{
	struct cfg_ub_clause *u = &x->ub;
	static const char *const opens[] = { "server", "forward-zone",
		                             "stub-zone", "remote-control" };
	size_t i;

	/* cachedb: holds flat options (cachedb-backend:, redis-...:) */
	if (*value == '\0' && strcmp(key, "cachedb") == 0)
		return clause_close(x, false) != 0 ? -1 : 0;

	for (i = 0; *value == '\0' && i < sizeof opens / sizeof opens[0];
	     i++) {
		if (strcmp(key, opens[i]) != 0)
			continue;
		if (clause_close(x, false) != 0)
			return -1;
		u->in = (enum cfg_ub_in)i;
		snprintf(u->at, sizeof u->at, "%.*s:%zu", CFG_MAX_PATH - 1,
		         x->file, x->line);
		u->name[0] = u->zone[0] = '\0';
		return 0;
	}
	if (*value == '\0' && listed(key, ub_refused_clauses))
		return cfg_why(x,
		               "Unbound's %s: clause is refused: curvecache "
		               "does not do it (curvecache.conf(5), UNBOUND "
		               "COMPATIBILITY)",
		               key);
	if ((u->in == CFG_UB_FORWARD || u->in == CFG_UB_STUB) &&
	    listed(key, zone_keys))
		return zone_line(x, key, value);
	if (u->in == CFG_UB_CONTROL && listed(key, control_keys))
		return control_line(x, key, value);
	/* any other option ends the clause: curvecache's options are flat */
	return clause_close(x, false) != 0 ? -1 : 1;
}
