/*
 * resolver/ctl/control_option_list.c - get_option for the options that
 * are lists or words (listen, access-control, private-address,
 * forward-zone, trust-anchor-file, curve-formats, ...): one line per
 * value, as the configuration would hold it ("127.0.0.0/8 allow", "ADDR"
 * or "ADDR@PORT", "NAME ADDR..."), nothing for an empty list. The plain
 * values (numbers, yes/no, paths) are control_option.c's.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <string.h>

#include "base/netaddr.h"
#include "conf/cfg.h"
#include "control_int.h"
#include "wire/wire.h"

/** Bytes of an address with its prefix or port. */
#define OPTL_ADDR_TEXT 64

/** How a list option prints: its names and its printer. */
struct optl {
	const char *name;    /**< curvecache's */
	const char *unbound; /**< Unbound's of the same meaning, or NULL */
	void (*print)(const struct cfg *cfg, struct control_out *out);
};

static const char *const optl_actions[] = { "allow", "refuse", "deny" };

/* "ADDR/BITS" of a prefix. */
static void optl_prefix(int family, const uint8_t *addr, unsigned bits,
                        char *out, size_t cap)
{
	char ip[INET6_ADDRSTRLEN];

	if (inet_ntop(family, addr, ip, sizeof ip) == NULL)
		snprintf(ip, sizeof ip, "?");
	snprintf(out, cap, "%s/%u", ip, bits);
}

static void optl_name(struct control_out *out, const uint8_t *name, size_t len)
{
	char text[WIRE_NAME_TEXT_MAX];

	if (wire_name_to_text(name, len, text, sizeof text, NULL) == WIRE_OK)
		control_out_printf(out, "%s\n", text);
}

static void optl_addrs(struct control_out *out, const struct cfg_addr *a,
                       size_t n)
{
	char text[OPTL_ADDR_TEXT];
	size_t i;

	for (i = 0; i < n; i++) {
		if (a[i].port_given)
			netaddr_text_port((const struct sockaddr *)&a[i].sa,
			                  text, sizeof text);
		else
			netaddr_text((const struct sockaddr *)&a[i].sa, text,
			             sizeof text);
		control_out_printf(out, "%s\n", text);
	}
}

static void optl_listen(const struct cfg *cfg, struct control_out *out)
{
	optl_addrs(out, cfg->listen, cfg->n_listen);
}

static void optl_outgoing(const struct cfg *cfg, struct control_out *out)
{
	optl_addrs(out, cfg->outgoing, cfg->n_outgoing);
}

/* access-control and proxy-protocol-from lines. */
static void optl_acls(struct control_out *out, const struct cfg_acl *a,
                      size_t n, bool action)
{
	char text[OPTL_ADDR_TEXT];
	size_t i;

	for (i = 0; i < n; i++) {
		optl_prefix(a[i].family, a[i].addr, a[i].prefix, text,
		            sizeof text);
		if (action && (size_t)a[i].action < 3)
			control_out_printf(out, "%s %s\n", text,
			                   optl_actions[a[i].action]);
		else
			control_out_printf(out, "%s\n", text);
	}
}

static void optl_acl(const struct cfg *cfg, struct control_out *out)
{
	optl_acls(out, cfg->acl, cfg->n_acl, true);
}

static void optl_proxy(const struct cfg *cfg, struct control_out *out)
{
	optl_acls(out, cfg->proxy_from, cfg->n_proxy_from, false);
}

static void optl_acl_default(const struct cfg *cfg, struct control_out *out)
{
	if ((size_t)cfg->acl_default < 3)
		control_out_printf(out, "%s\n",
		                   optl_actions[cfg->acl_default]);
}

static void optl_private_address(const struct cfg *cfg,
                                 struct control_out *out)
{
	char text[OPTL_ADDR_TEXT];
	size_t i;

	for (i = 0; i < cfg->priv.nprefix; i++) {
		const struct privaddr_prefix *p = &cfg->priv.prefix[i];

		optl_prefix(p->family == 4 ? AF_INET : AF_INET6, p->addr,
		            p->bits, text, sizeof text);
		control_out_printf(out, "%s\n", text);
	}
}

static void optl_private_domain(const struct cfg *cfg, struct control_out *out)
{
	size_t i;

	for (i = 0; i < cfg->priv.ndomain; i++)
		optl_name(out, cfg->priv.domain[i], cfg->priv.domainlen[i]);
}

static void optl_curve_require(const struct cfg *cfg, struct control_out *out)
{
	size_t i;

	for (i = 0; i < cfg->n_curve_require; i++)
		optl_name(out, cfg->curve_require[i],
		          cfg->curve_require_len[i]);
}

static void optl_domain_insecure(const struct cfg *cfg,
                                 struct control_out *out)
{
	size_t i;

	for (i = 0; i < cfg->n_domain_insecure; i++)
		optl_name(out, cfg->domain_insecure[i],
		          cfg->domain_insecure_len[i]);
}

static void optl_curve_formats(const struct cfg *cfg, struct control_out *out)
{
	size_t i;

	for (i = 0; i < cfg->n_curve_order && i < 2; i++)
		control_out_printf(out, "%s%s",
		                   cfg->curve_order[i] == CFG_CURVE_TXT ?
		                           "txt" :
		                           "streamlined",
		                   i + 1 < cfg->n_curve_order ? " " : "\n");
}

/* forward-zone and stub-zone: "NAME ADDR[@PORT]..." a zone. */
static void optl_zones(struct control_out *out, const struct cfg_zone *z,
                       size_t n)
{
	char name[WIRE_NAME_TEXT_MAX], text[OPTL_ADDR_TEXT];
	size_t i, k;

	for (i = 0; i < n; i++) {
		if (wire_name_to_text(z[i].name, z[i].namelen, name,
		                      sizeof name, NULL) != WIRE_OK)
			continue;
		control_out_printf(out, "%s", name);
		for (k = 0; k < z[i].naddr; k++) {
			netaddr_text_port((const struct sockaddr *)&z[i]
			                          .addr[k]
			                          .sa,
			                  text, sizeof text);
			control_out_printf(out, " %s", text);
		}
		control_out_printf(out, "\n");
	}
}

static void optl_forward(const struct cfg *cfg, struct control_out *out)
{
	optl_zones(out, cfg->forward, cfg->n_forward);
}

static void optl_stub(const struct cfg *cfg, struct control_out *out)
{
	optl_zones(out, cfg->stub, cfg->n_stub);
}

/* local-zone: "NAME TYPE" a line of the config (local_zone's runtime
 * zones are list_local_zones'). */
static void optl_local_zone(const struct cfg *cfg, struct control_out *out)
{
	struct cfg_local_zone z;
	char name[WIRE_NAME_TEXT_MAX];
	size_t pos = 0;

	while (cfg_local_zone_next(cfg->local, &pos, &z))
		if (wire_name_to_text(z.name, z.namelen, name, sizeof name,
		                      NULL) == WIRE_OK)
			control_out_printf(out, "%s %s\n", name,
			                   cfg_lz_type_name(z.type));
}

static void optl_ta_file(const struct cfg *cfg, struct control_out *out)
{
	size_t i;

	for (i = 0; i < cfg->n_trust_anchor_file; i++)
		control_out_printf(out, "%s\n", cfg->trust_anchor_file[i]);
}

static void optl_auto_ta_file(const struct cfg *cfg, struct control_out *out)
{
	size_t i;

	for (i = 0; i < cfg->n_auto_trust_anchor_file; i++)
		control_out_printf(out, "%s\n",
		                   cfg->auto_trust_anchor_file[i]);
}

static void optl_ta(const struct cfg *cfg, struct control_out *out)
{
	size_t i;

	for (i = 0; i < cfg->n_trust_anchor; i++)
		control_out_printf(out, "%s\n", cfg->trust_anchor[i]);
}

static const struct optl control_optls[] = {
	{ "listen", "interface", optl_listen },
	{ "outgoing-interface", NULL, optl_outgoing },
	{ "access-control", NULL, optl_acl },
	{ "access-control-default", NULL, optl_acl_default },
	{ "proxy-protocol-from", NULL, optl_proxy },
	{ "private-address", NULL, optl_private_address },
	{ "private-domain", NULL, optl_private_domain },
	{ "curve-formats", NULL, optl_curve_formats },
	{ "curve-require", NULL, optl_curve_require },
	{ "domain-insecure", NULL, optl_domain_insecure },
	{ "forward-zone", NULL, optl_forward },
	{ "stub-zone", NULL, optl_stub },
	{ "local-zone", NULL, optl_local_zone },
	{ "trust-anchor-file", NULL, optl_ta_file },
	{ "auto-trust-anchor-file", NULL, optl_auto_ta_file },
	{ "trust-anchor", NULL, optl_ta },
};

bool control_option_list(struct control_cmd *c, const char *name, size_t len,
                         struct control_out *out)
{
	size_t i;

	for (i = 0; i < sizeof control_optls / sizeof control_optls[0]; i++) {
		const struct optl *o = &control_optls[i];

		if ((strlen(o->name) == len &&
		     strncmp(o->name, name, len) == 0) ||
		    (o->unbound != NULL && strlen(o->unbound) == len &&
		     strncmp(o->unbound, name, len) == 0)) {
			o->print(c->env.cfg, out);
			return true;
		}
	}
	return false;
}
