/*
 * resolver/ctl/control_rt.c - the control commands that reach into every
 * worker's running state (see control.h): dump_requestlist and
 * flush_requestlist (the resolutions in flight, server.h), forward_add
 * and forward_remove (forward zones at run time; Unbound's flags +t: the
 * servers over TLS, +i: the zone insecure too). Each runs on every
 * worker's own thread through env.each, one worker after the other.
 *
 * Runtime forward zones change the running configuration of each worker
 * (its forward lines, so list_forwards shows them, and the iterator asks
 * them; server_forward_set logs the change). They last until the next reload
 * or restart, as in Unbound: a reload reads the forward zones of the
 * config file again. forward_remove may remove a zone of the config file
 * too (until the reload), as Unbound allows.
 */
#include <stdio.h>
#include <string.h>

#include "cache.h"
#include "conf/cfg.h"
#include "control_int.h"
#include "front/server.h"
#include "infra/nsecidx.h"
#include "anchor/anchor.h"
#include "wire/wire.h"

/** Everything that a worker's part of a command needs. */
struct rt_ctx {
	struct control_out *out;
	unsigned thread;             /**< the worker being visited */
	size_t n;                    /**< resolutions ended */
	const struct cfg_zone *add;  /**< forward_add: the zone */
	uint8_t name[WIRE_NAME_MAX]; /**< forward_remove, insecure_*: the
	                                  zone */
	size_t namelen;
	bool nta_add;  /**< insecure_add (else insecure_remove) */
	bool nta;      /**< forward_*: flag +i (the zone insecure too) */
	bool tls;      /**< forward_add: flag +t (forward-tls-upstream) */
	size_t failed; /**< workers whose forwarders (or anchors) failed */
	char err[CONTROL_ERR_BYTES];
};

/* Run fn on every worker; without env.each, on worker 0 alone (the
 * running cfg is then not ours to change: forward_* refuse earlier). */
void control_each(struct control_cmd *c, control_worker_fn *fn, void *x)
{
	if (c->env.each != NULL)
		c->env.each(c->env.each_arg, fn, x);
	else
		fn(c->env.srv, NULL, x);
}

static void put_text(void *arg, const char *text, size_t len)
{
	control_out_put(arg, text, len);
}

static void dump_one(struct server *srv, struct cfg *cfg, void *arg)
{
	struct rt_ctx *x = arg;

	(void)cfg;
	server_requestlist(srv, x->thread++, put_text, x->out);
}

static void flush_one(struct server *srv, struct cfg *cfg, void *arg)
{
	struct rt_ctx *x = arg;

	(void)cfg;
	x->n += server_requestlist_flush(srv);
}

const char *control_cmd_requestlist(struct control_cmd *c, char **argv,
                                    size_t argc, struct control_out *out,
                                    char *err)
{
	struct rt_ctx x;

	(void)argc;
	(void)err;
	memset(&x, 0, sizeof x);
	x.out = out;
	control_each(c,
	             strcmp(argv[0], "flush_requestlist") == 0 ? flush_one :
	                                                         dump_one,
	             &x);
	return NULL;
}

/* tls_cert: worker 0's certificate (every worker loads the same). */
struct rt_cert {
	bool done;
	size_t len;
	char text[2 * SERVER_TLS_CERT_BYTES];
};

static void cert_one(struct server *srv, struct cfg *cfg, void *arg)
{
	struct rt_cert *x = arg;

	(void)cfg;
	if (x->done)
		return;
	x->done = true;
	x->len = server_tls_cert(srv, x->text, sizeof x->text);
}

const char *control_cmd_tls_cert(struct control_cmd *c, char **argv,
                                 size_t argc, struct control_out *out,
                                 char *err)
{
	struct rt_cert *x = calloc(1, sizeof *x);

	(void)argv;
	(void)argc;
	(void)err;
	if (x == NULL)
		return "out of memory";
	control_each(c, cert_one, x);
	if (x->len == 0) {
		free(x);
		return "no certificate: DNS over TLS and HTTPS are not served";
	}
	control_out_put(out, x->text, x->len);
	free(x);
	return NULL;
}

/* The index of a forward zone in a cfg, or -1. */
static int zone_index(const struct cfg *cfg, const uint8_t *name, size_t len)
{
	size_t i;

	for (i = 0; i < cfg->n_forward; i++)
		if (cfg->forward[i].namelen == len &&
		    memcmp(cfg->forward[i].name, name, len) == 0)
			return (int)i;
	return -1;
}

/* On a worker: change its forward lines, then its forwarders. */
static void fwd_one(struct server *srv, struct cfg *cfg, void *arg)
{
	struct rt_ctx *x = arg;
	const uint8_t *name = x->add != NULL ? x->add->name : x->name;
	size_t len = x->add != NULL ? x->add->namelen : x->namelen;
	int i = zone_index(cfg, name, len);

	if (x->add != NULL && i < 0 && cfg->n_forward == CFG_MAX_ZONES) {
		x->failed++;
		return;
	}
	if (x->add != NULL) {
		if (i < 0)
			i = (int)cfg->n_forward++;
		cfg->forward[i] = *x->add;
	} else if (i >= 0) {
		memmove(&cfg->forward[i], &cfg->forward[i + 1],
		        (cfg->n_forward - (size_t)i - 1) *
		                sizeof cfg->forward[0]);
		cfg->n_forward--;
	}
	if (server_forward_set(srv, cfg, x->err, sizeof x->err) != SERVER_OK)
		x->failed++;
}

static const char *nta_apply(struct control_cmd *c, struct rt_ctx *x);

/* Unbound-control's flags at the start of text ("+i", "+t", "+it"):
 * 'i' the zone is also made (forward_remove: no longer) insecure, 't'
 * its forwarders are asked over TLS (each needs #AUTH-NAME). The text
 * after them, or NULL for another flag. */
static char *fwd_flags(char *text, struct rt_ctx *x)
{
	size_t n, i;

	if (text[0] != '+')
		return text;
	n = strcspn(text, " \t");
	for (i = 1; i < n; i++) {
		if (text[i] == 'i')
			x->nta = true;
		else if (text[i] == 't')
			x->tls = true;
		else
			return NULL;
	}
	return n > 1 ? text + n + strspn(text + n, " \t") : NULL;
}

/* forward_add: argv[1] is the rest of the line, "[+it] NAME ADDR...";
 * forward_remove: the words "[+it] NAME". */
static const char *fwd_parse(struct control_cmd *c, char **argv, size_t argc,
                             bool add, struct cfg_zone *z, struct rt_ctx *x,
                             char *err)
{
	char *rest = fwd_flags(argv[1], x);
	char line[CONTROL_LINE_MAX + sizeof " " CFG_FORWARD_TLS];

	if (rest == NULL)
		return "unknown flag: +i (insecure) and +t (TLS) are known";
	if (!add) {
		if (rest[0] == '\0' && argc == 3)
			rest = argv[2];
		else if (argc != 2 || rest[0] == '\0')
			return "usage: forward_remove [+i] NAME";
		if (!control_name_arg(rest, x->name, &x->namelen))
			return "not a domain name";
		return NULL;
	}
	/* +t: the zone line's forward-tls-upstream */
	snprintf(line, sizeof line, "%s%s", rest,
	         x->tls ? " " CFG_FORWARD_TLS : "");
	if (cfg_zone_parse(line, false, z, err, CONTROL_ERR_BYTES) != 0)
		return err;
	if (zone_index(c->env.cfg, z->name, z->namelen) < 0 &&
	    c->env.cfg->n_forward == CFG_MAX_ZONES)
		return "too many forward zones";
	x->add = z;
	return NULL;
}

const char *control_cmd_forward(struct control_cmd *c, char **argv,
                                size_t argc, struct control_out *out,
                                char *err)
{
	bool add = strcmp(argv[0], "forward_add") == 0;
	struct cfg_zone z;
	struct rt_ctx x;
	const char *msg;

	(void)out;
	if (c->env.each == NULL)
		return "forward zones cannot be changed here";
	memset(&x, 0, sizeof x);
	msg = fwd_parse(c, argv, argc, add, &z, &x, err);
	if (msg != NULL)
		return msg;
	control_each(c, fwd_one, &x);
	if (x.failed > 0) {
		snprintf(err, CONTROL_ERR_BYTES,
		         "%zu workers kept their old forwarders: %.160s",
		         x.failed,
		         x.err[0] != '\0' ? x.err : "too many forward zones");
		return err;
	}
	/* +i: the zone insecure too (domain-insecure), as in Unbound;
	 * nothing to do when DNSSEC validation is off */
	if (!x.nta || server_anchors(c->env.srv) == NULL)
		return NULL;
	if (add) {
		memcpy(x.name, z.name, z.namelen);
		x.namelen = z.namelen;
	}
	x.nta_add = add;
	x.n = 0;
	msg = nta_apply(c, &x);
	return add ? msg : NULL; /* removed: insecure or not, gone */
}

/* ------------------------------------------------------------------ */
/* insecure_add, insecure_remove, list_insecure: negative trust anchors */

static void nta_one(struct server *srv, struct cfg *cfg, void *arg)
{
	struct rt_ctx *x = arg;

	(void)cfg;
	if (server_insecure_set(srv, x->name, x->namelen, x->nta_add) ==
	    SERVER_OK)
		x->n++;
	else
		x->failed++;
}

static const char *nta_list(struct control_cmd *c, struct control_out *out)
{
	const struct anchors *a = server_anchors(c->env.srv);
	const uint8_t *name;
	char text[WIRE_NAME_TEXT_MAX];
	size_t i, len;

	if (a == NULL)
		return "DNSSEC validation is off";
	for (i = 0; anchors_insecure_at(a, i, &name, &len); i++)
		if (wire_name_to_text(name, len, text, sizeof text, NULL) ==
		    WIRE_OK)
			control_out_printf(out, "%s\n", text);
	return NULL;
}

/* Add (x->nta_add) or remove x->name's negative trust anchor on every
 * worker, and flush what was judged under the old anchors. */
static const char *nta_apply(struct control_cmd *c, struct rt_ctx *x)
{
	size_t n = 0;

	control_each(c, nta_one, x);
	/* (a name already there counts as added; removed on any worker is
	 * removed) */
	if (x->nta_add ? x->failed > 0 : x->n == 0)
		return x->nta_add ? "too many insecure domains" :
		                    "not an insecure domain";
	/* a bogus answer cached a moment ago must not outlive insecure_add */
	if (c->env.cache != NULL &&
	    cache_flush_zone(c->env.cache, x->name, x->namelen, &n) !=
	            CACHE_OK)
		return "cache not flushed";
	(void)nsecidx_flush(c->env.nsec, x->name, x->namelen);
	return NULL;
}

const char *control_cmd_insecure(struct control_cmd *c, char **argv,
                                 size_t argc, struct control_out *out,
                                 char *err)
{
	struct rt_ctx x;

	(void)argc;
	(void)err;
	if (strcmp(argv[0], "list_insecure") == 0)
		return nta_list(c, out);
	if (server_anchors(c->env.srv) == NULL)
		return "DNSSEC validation is off";
	memset(&x, 0, sizeof x);
	if (!control_name_arg(argv[1], x.name, &x.namelen))
		return "not a domain name";
	x.nta_add = strcmp(argv[0], "insecure_add") == 0;
	return nta_apply(c, &x);
}
