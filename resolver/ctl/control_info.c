/*
 * resolver/ctl/control_info.c - the control commands that look, and the
 * small ones that only hand over to another module: status (also in
 * Unbound's words), lookup (cached data and the servers a resolution
 * would ask), servers (the server-selection table) and flush_infra
 * (forgetting it), list_forwards and
 * list_stubs (the running config); the local zone commands are in
 * control_local.c. See control.h.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "store/cachefile.h"
#include "conf/cfg.h"
#include "base/clock.h"
#include "base/fileio.h"
#include "control_int.h"
#include "iter/iter.h"
#include "policy/localdata.h"
#include "base/log.h"
#include "wire/rrtext.h"
#include "infra/deadzone.h"
#include "infra/sel.h"
#include "infra/authtls.h"
#include "front/server.h"
#include "front/cachedb_step.h"
#include "anchor/autotrust.h"
#include "stats/fwdstate.h"

/** Bytes of an address as text. */
#define CONTROL_ADDR_TEXT 64

/* "plain" or "dnscurve key=uz5..." for a key. */
static void key_text(bool curve, const uint8_t *key, char *out, size_t cap)
{
	char label[CURVE_KEYLABEL_LEN + 1];

	if (curve && curve_keylabel_make(label, key) == CURVE_OK)
		snprintf(out, cap, "dnscurve key=%s", label);
	else
		snprintf(out, cap, "plain");
}

/* An address without its port. */
static void addr_text(const struct sockaddr *sa, char *out, size_t cap)
{
	char *at;

	server_addr_text(sa, out, cap);
	at = strrchr(out, '@');
	if (at != NULL)
		*at = '\0';
}

/* One auto-trust-anchor-file as it says now (RFC 5011): its keys by
 * state and its probe times. */
static void status_autotrust(const char *path, struct autotrust_zone *z,
                             struct control_out *out)
{
	char why[AUTOTRUST_ERR_MAX], name[WIRE_NAME_TEXT_MAX];
	size_t len = 0, i, n[AUTOTRUST_REMOVED + 1] = { 0 };
	char *buf = NULL;

	if (fileio_read_path(path, AUTOTRUST_TEXT_MAX, true, &buf, &len, why,
	                     sizeof why) != FILEIO_OK ||
	    autotrust_file_parse(buf, len, path, z, why, sizeof why) !=
	            AUTOTRUST_OK ||
	    wire_name_to_text(z->name, z->namelen, name, sizeof name, NULL) !=
	            WIRE_OK) {
		free(buf);
		control_out_printf(out, "autotrust: %s error: %s\n", path,
		                   why);
		return;
	}
	free(buf);
	for (i = 0; i < z->nkeys; i++)
		n[z->key[i].state]++;
	control_out_printf(out,
	                   "autotrust: %s zone %s valid %zu missing %zu "
	                   "addpend %zu revoked %zu last_success %lld "
	                   "next_probe %lld failed %u\n",
	                   path, name, n[AUTOTRUST_VALID],
	                   n[AUTOTRUST_MISSING], n[AUTOTRUST_ADDPEND],
	                   n[AUTOTRUST_REVOKED], (long long)z->last_success,
	                   (long long)z->next_probe,
	                   (unsigned)z->query_failed);
}

const char *control_cmd_status(struct control_cmd *c, char **argv, size_t argc,
                               struct control_out *out, char *err)
{
	const struct control_env *env = &c->env;
	struct autotrust_zone *z = NULL;
	struct cache_stats cs;
	char line[CONTROL_LINE_MAX];
	time_t now = time(NULL);
	size_t i;

	(void)argv;
	(void)argc;
	(void)err;
	cache_stats_get(env->cache, &cs);
	control_out_printf(out, "version: %s\n", PACKAGE_VERSION);
	control_out_printf(out, "pid: %ld\n", (long)getpid());
	control_out_printf(out, "uptime: %" PRId64 " seconds\n",
	                   (int64_t)(now > env->start_wall ?
	                                     now - env->start_wall :
	                                     0));
	/* workers (threads: N; a restart is needed to change it) */
	control_out_printf(out, "threads: %u\n", env->cfg->threads);
	control_out_printf(out, "config: %s\n",
	                   env->cfg_path != NULL ? env->cfg_path : "-");
	control_out_printf(out, "control-socket: %s\n",
	                   env->cfg->control_socket);
	control_out_printf(out, "dnscurve: %s\n",
	                   env->cfg->curve ? "on" : "off");
	control_out_printf(out, "cache: %zu entries, %zu of %zu bytes\n",
	                   cs.entries, cs.bytes, cs.max_bytes);
	control_out_printf(out, "resolutions: %zu\n",
	                   server_resolutions(env->srv));
	cachedb_step_status(env->srv, line, sizeof line);
	control_out_printf(out, "cachedb: %s\n", line);
	for (i = 0; env->cfg->dnssec && i < env->cfg->n_auto_trust_anchor_file;
	     i++) {
		if (z == NULL && (z = malloc(sizeof *z)) == NULL)
			break;
		status_autotrust(env->cfg->auto_trust_anchor_file[i], z, out);
	}
	free(z);
	control_out_printf(out, "is running\n");
	return NULL;
}

/* status in the shape of Unbound's (its framing): scripts look for
 * "is running" and read "version:" and "uptime:". */
const char *control_cmd_status_ub(struct control_cmd *c, char **argv,
                                  size_t argc, struct control_out *out,
                                  char *err)
{
	const struct control_env *env = &c->env;
	time_t now = time(NULL);

	(void)argv;
	(void)argc;
	(void)err;
	control_out_printf(out, "version: %s\n", PACKAGE_VERSION);
	control_out_printf(out, "verbosity: %d\n", (int)log_level());
	control_out_printf(out, "threads: %u\n", env->cfg->threads);
	control_out_printf(out, "modules: 1 [ iterator ]\n");
	control_out_printf(out, "uptime: %" PRId64 " seconds\n",
	                   (int64_t)(now > env->start_wall ?
	                                     now - env->start_wall :
	                                     0));
	control_out_printf(out, "options: control(namedpipe)\n");
	control_out_printf(out, "curvecache (pid %ld) is running...\n",
	                   (long)getpid());
	return NULL;
}

/* ------------------------------------------------------------------ */
/* lookup                                                              */

static int lookup_put(void *arg, const char *text, size_t len)
{
	struct control_out *out = arg;

	control_out_put(out, text, len);
	return out->full ? 1 : 0;
}

/* " lame=840s" / " broken=50s" when the address is marked for the zone,
 * " backoff" when it backs off after timeouts; else "". */
static void lookup_marks(const struct sel *sel, const struct sockaddr *sa,
                         const struct iter_peek *peek,
                         const struct sel_info *info, uint64_t now_ms,
                         char *out, size_t cap)
{
	enum sel_mark mark;
	uint64_t left;
	int n = 0;

	out[0] = 0;
	if (sel_mark_get(sel, sa, peek->zone, peek->zonelen, now_ms, &mark,
	                 &left))
		n = snprintf(out, cap, " %s=%" PRIu64 "s",
		             mark == SEL_MARK_LAME ? "lame" : "broken",
		             (left + 999) / 1000);
	if (info->backoff && n >= 0 && (size_t)n < cap)
		snprintf(out + n, cap - (size_t)n, " backoff");
}

/* One NS name of the peeked cut and its addresses. */
static void lookup_ns(struct control_cmd *c, const struct iter_peek *peek,
                      const struct iter_peek_ns *ns, uint64_t now_ms,
                      struct control_out *out)
{
	char name[WIRE_NAME_TEXT_MAX], key[CURVE_KEYLABEL_LEN + 32];
	char addr[CONTROL_ADDR_TEXT], marks[32];
	struct sel_info info;
	size_t j;

	if (wire_name_to_text(ns->name, ns->namelen, name, sizeof name,
	                      NULL) != WIRE_OK)
		snprintf(name, sizeof name, "?");
	key_text(ns->curve, ns->key, key, sizeof key);
	control_out_printf(out, "ns: %s %s%s\n", name, key,
	                   ns->naddr == 0 ? " (no address cached: the "
	                                    "iterator resolves it first)" :
	                                    "");
	for (j = 0; j < ns->naddr; j++) {
		const struct sockaddr *sa =
			(const struct sockaddr *)&ns->addr[j];

		addr_text(sa, addr, sizeof addr);
		sel_info_get(server_sel(c->env.srv), sa, now_ms, &info);
		lookup_marks(server_sel(c->env.srv), sa, peek, &info, now_ms,
		             marks, sizeof marks);
		control_out_printf(out,
		                   "  addr: %s score=%" PRIu32 " srtt=%" PRIu32
		                   "ms%s timeouts=%" PRIu32 "%s\n",
		                   addr, ns->score[j], info.srtt_ms,
		                   info.known ? "" : "(unknown)",
		                   info.timeouts, marks);
	}
}

/* "backoff: ..." when the zone's servers were all silent lately (RFC
 * 9520): questions into it fail at once for left=Ns more. */
static void lookup_backoff(struct deadzone *dz, const struct iter_peek *peek,
                           uint64_t now_ms, struct control_out *out)
{
	uint64_t left;
	unsigned fails;
	bool probing;

	if (!deadzone_get(dz, deadzone_key(peek->zone, peek->zonelen, 0),
	                  now_ms, &fails, &left, &probing))
		return;
	control_out_printf(out,
	                   "backoff: every server silent or unreachable, "
	                   "failures=%u "
	                   "left=%" PRIu64 "s%s\n",
	                   fails, (left + 999) / 1000,
	                   probing ? " (a query is out)" : "");
}

/* The zone cut and servers a resolution of the name would start with. */
static const char *lookup_servers(struct control_cmd *c, const uint8_t *name,
                                  size_t len, struct control_out *out)
{
	struct iter_peek *peek = malloc(sizeof(*peek));
	struct iter_env env;
	struct iter_now now;
	char zone[WIRE_NAME_TEXT_MAX];
	size_t i;

	if (peek == NULL)
		return "out of memory";
	server_iter_env(c->env.srv, &env);
	now.wall = time(NULL);
	now.mono_ms = clock_ms();
	if (iter_peek_cut(&env, name, len, &now, peek) != 0) {
		free(peek);
		return "no zone cut for that name";
	}
	if (wire_name_to_text(peek->zone, peek->zonelen, zone, sizeof zone,
	                      NULL) != WIRE_OK)
		snprintf(zone, sizeof zone, "?");
	control_out_printf(out,
	                   "zone: %s (%s; lowest score is asked "
	                   "first)\n",
	                   zone,
	                   peek->forward    ? "forwarders" :
	                   peek->from_hints ? "root hints" :
	                                      "cached NS");
	lookup_backoff(env.deadzone, peek, now.mono_ms, out);
	for (i = 0; i < peek->nns; i++)
		lookup_ns(c, peek, &peek->ns[i], now.mono_ms, out);
	free(peek);
	return NULL;
}

const char *control_cmd_lookup(struct control_cmd *c, char **argv, size_t argc,
                               struct control_out *out, char *err)
{
	uint8_t name[WIRE_NAME_MAX];
	uint16_t type = 0;
	size_t len, found = 0;
	int rc;

	if (!control_name_arg(argv[1], name, &len))
		return "not a domain name";
	if (argc > 2 && rrtext_type_parse(argv[2], &type) != WIRE_OK)
		return "unknown type";
	control_out_printf(out, "cache:\n");
	rc = cachefile_dump_name(c->env.cache, time(NULL), name, len, type,
	                         lookup_put, out, &found);
	if (rc != CACHEFILE_OK) {
		snprintf(err, CONTROL_ERR_BYTES, "cache read failed: %s",
		         cachefile_strerror(rc));
		return err;
	}
	if (found == 0)
		control_out_printf(out, "; nothing cached\n");
	control_lookup_sec(c, name, len, type, out);
	return lookup_servers(c, name, len, out);
}

/* ------------------------------------------------------------------ */
/* servers                                                             */

/** What the servers walk counts. */
struct servers_walk {
	struct control_out *out;
	size_t n, curve;
	const struct authtls *tls; /**< worker 0's RFC 9539 table, or NULL */
	uint64_t now_ms;
	size_t ntls; /**< servers asked over TLS */
};

/* " transport=curve|tls|probing|failed(Ns)|plain": how worker 0 asks the
 * server now (a key: DNSCurve; else its RFC 9539 state). */
static void servers_transport(struct servers_walk *w, const struct sel_info *i,
                              const struct sockaddr *sa, char *out, size_t cap)
{
	enum authtls_state st = AUTHTLS_UNKNOWN;
	uint64_t until = 0;

	if (!i->curve && w->tls != NULL)
		st = authtls_state_of(w->tls, sa, w->now_ms, &until);
	if (i->curve || st == AUTHTLS_CURVE)
		snprintf(out, cap, " transport=curve");
	else if (st == AUTHTLS_UNKNOWN)
		snprintf(out, cap, " transport=plain");
	else if (st == AUTHTLS_FAILED)
		snprintf(out, cap, " transport=failed(%" PRIu64 "s)",
		         until > w->now_ms ? (until - w->now_ms + 999) / 1000 :
		                             0);
	else
		snprintf(out, cap, " transport=%s", authtls_state_name(st));
	if (st == AUTHTLS_WORKS)
		w->ntls++;
}

static int servers_cb(const struct sockaddr *sa, const struct sel_info *i,
                      void *arg)
{
	struct servers_walk *w = arg;
	char addr[CONTROL_ADDR_TEXT], zone[WIRE_NAME_TEXT_MAX];
	char key[CURVE_KEYLABEL_LEN + 1] = "none", age[32] = "", tr[48];

	addr_text(sa, addr, sizeof addr);
	servers_transport(w, i, sa, tr, sizeof tr);
	if (i->zonelen == 0 || wire_name_to_text(i->zone, i->zonelen, zone,
	                                         sizeof zone, NULL) != WIRE_OK)
		snprintf(zone, sizeof zone, "-");
	if (i->curve && curve_keylabel_make(key, i->key) != CURVE_OK)
		snprintf(key, sizeof key, "invalid");
	if (i->last_error != SEL_ERR_NONE)
		snprintf(age, sizeof age, " error_age=%" PRIu64 "s",
		         i->error_age_ms / 1000);
	control_out_printf(w->out,
	                   "%s zone=%s srtt=%" PRIu32 "ms "
	                   "timeouts=%" PRIu32 " backoff=%s edns=%s "
	                   "key=%s last_error=%s%s%s\n",
	                   addr, zone, i->srtt_ms, i->timeouts,
	                   i->backoff ? "yes" : "no", i->noedns ? "no" : "yes",
	                   key, sel_error_name(i->last_error), age, tr);
	w->n++;
	if (i->curve)
		w->curve++;
	return w->out->full ? 1 : 0;
}

/* One zone of the failure cache: "; backoff ZONE failures=N left=Ns
 * ede=22 [probing]" (questions are left out). */
static int backoff_cb(const struct deadzone_info *i, void *arg)
{
	struct servers_walk *w = arg;
	char zone[WIRE_NAME_TEXT_MAX];

	if (i->type != 0 || wire_name_to_text(i->name, i->namelen, zone,
	                                      sizeof zone, NULL) != WIRE_OK)
		return 0;
	control_out_printf(w->out,
	                   "; backoff %s failures=%u left=%" PRIu64
	                   "s ede=%u%s\n",
	                   zone, i->fails, (i->left_ms + 999) / 1000,
	                   (unsigned)i->ede, i->probing ? " probing" : "");
	w->n++;
	return w->out->full ? 1 : 0;
}

const char *control_cmd_servers(struct control_cmd *c, char **argv,
                                size_t argc, struct control_out *out,
                                char *err)
{
	struct servers_walk w = { out,        0, 0, server_authtls(c->env.srv),
		                  clock_ms(), 0 };

	(void)argv;
	(void)argc;
	(void)err;
	struct iter_env env;

	(void)sel_walk(server_sel(c->env.srv), w.now_ms, servers_cb, &w);
	control_out_printf(out, "; %zu servers, %zu with a DNSCurve key\n",
	                   w.n, w.curve);
	control_out_printf(out,
	                   "; %zu asked over TLS (transport= as worker 0 "
	                   "asks)\n",
	                   w.ntls);
	server_iter_env(c->env.srv, &env);
	w.n = 0;
	(void)deadzone_walk(env.deadzone, clock_ms(), backoff_cb, &w);
	control_out_printf(out, "; %zu zones in back-off (RFC 9520)\n", w.n);
	return NULL;
}

/* What flush_infra asks of each worker, and what they removed. */
struct infra_forget {
	const struct sockaddr *sa; /**< NULL: every address */
	size_t removed;
};

/* On one worker's thread: forget in its own selection table and its
 * upstream's DNSCurve format memory. */
static void infra_forget_one(struct server *srv, struct cfg *cfg, void *arg)
{
	struct infra_forget *f = arg;

	(void)cfg;
	f->removed += server_forget_infra(srv, f->sa);
}

/* flush_infra all|ADDR: every worker forgets in its own table, on its
 * own thread (control_each). */
const char *control_cmd_flush_infra(struct control_cmd *c, char **argv,
                                    size_t argc, struct control_out *out,
                                    char *err)
{
	struct cfg_addr a;
	struct infra_forget f = { NULL, 0 };

	(void)argc;
	if (strcmp(argv[1], "all") != 0) {
		if (cfg_addr_parse(argv[1], 53, &a) != 0) {
			snprintf(err, CONTROL_ERR_BYTES,
			         "not an IP address: %.64s", argv[1]);
			return err;
		}
		f.sa = (const struct sockaddr *)&a.sa;
	}
	control_each(c, infra_forget_one, &f);
	control_out_printf(out, "forgot %zu server entries\n", f.removed);
	if (f.sa == NULL) { /* and every zone's back-off (shared) */
		struct iter_env env;

		server_iter_env(c->env.srv, &env);
		(void)deadzone_flush(env.deadzone);
	}
	return NULL;
}

/* ------------------------------------------------------------------ */
/* list_forwards, list_stubs (the running config)                      */

/* An address as Unbound lists a server: without the port when it is
 * 53, else ADDR@PORT. */
static void server_text(const struct sockaddr *sa, char *out, size_t cap)
{
	static const char port53[] = "@53";
	size_t n;

	server_addr_text(sa, out, cap);
	n = strlen(out);
	if (n >= sizeof port53 - 1 &&
	    strcmp(out + n - (sizeof port53 - 1), port53) == 0)
		out[n - (sizeof port53 - 1)] = '\0';
}

/* A zone with a DNS-over-TLS server: one more line per server, its
 * transport and (TLS) the state of its connections (stats/fwdstate.h).
 * Zones without one are listed exactly as Unbound lists them. */
static void list_transports(const struct cfg_zone *z, struct control_out *out)
{
	char addr[CONTROL_ADDR_TEXT], state[FWDSTATE_WHY_BYTES + 32];
	size_t j;
	bool tls = false;

	for (j = 0; j < z->naddr; j++)
		tls = tls || z->tls[j].name[0] != '\0';
	for (j = 0; tls && j < z->naddr; j++) {
		const struct sockaddr *sa =
			(const struct sockaddr *)&z->addr[j].sa;

		server_text(sa, addr, sizeof addr);
		if (z->tls[j].name[0] == '\0') {
			control_out_printf(out, ";   %s transport=udp/tcp\n",
			                   addr);
			continue;
		}
		fwdstate_text(sa, z->tls[j].name,
		              z->tls[j].has_pin ? z->tls[j].pin : NULL, state,
		              sizeof state);
		control_out_printf(out, ";   %s#%s transport=tls state=%s\n",
		                   addr, z->tls[j].name, state);
	}
}

/* One line per zone: "NAME IN forward ADDR ADDR". */
static void list_zones(const struct cfg_zone *z, size_t n, const char *kind,
                       struct control_out *out)
{
	char name[WIRE_NAME_TEXT_MAX], addr[CONTROL_ADDR_TEXT];
	size_t i, j;

	for (i = 0; i < n; i++) {
		if (wire_name_to_text(z[i].name, z[i].namelen, name,
		                      sizeof name, NULL) != WIRE_OK)
			continue;
		control_out_printf(out, "%s IN %s", name, kind);
		for (j = 0; j < z[i].naddr; j++) {
			server_text((const struct sockaddr *)&z[i].addr[j].sa,
			            addr, sizeof addr);
			control_out_printf(out, " %s", addr);
			if (z[i].tls[j].name[0] != '\0') /* DNS over TLS */
				control_out_printf(out, "#%s",
				                   z[i].tls[j].name);
		}
		control_out_put(out, "\n", 1);
		list_transports(&z[i], out);
	}
}

const char *control_cmd_list_zones(struct control_cmd *c, char **argv,
                                   size_t argc, struct control_out *out,
                                   char *err)
{
	const struct cfg *cfg = c->env.cfg;

	(void)argc;
	(void)err;
	if (strcmp(argv[0], "list_stubs") == 0)
		list_zones(cfg->stub, cfg->n_stub, "stub", out);
	else
		list_zones(cfg->forward, cfg->n_forward, "forward", out);
	return NULL;
}
