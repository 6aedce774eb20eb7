/*
 * resolver/conf/cfg_acl.c - access control: the options access-control,
 * access-control-default and proxy-protocol-from (cfg_int.h), and the
 * run-time lookups of a loaded configuration: the access-control rules
 * (cfg_acl_check) and the proxy-from list (cfg_proxy_from), longest
 * prefix first (see cfg.h). The lookups read struct cfg only.
 */
#include "cfg.h"
#include "cfg_int.h"

#include "base/netaddr.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

int cfg_prefix_parse(const char *s, struct cfg_acl *a)
{
	char host[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(s, '/');
	size_t hl = slash ? (size_t)(slash - s) : strlen(s);
	unsigned max;

	if (hl == 0 || hl >= sizeof host)
		return -1;
	memcpy(host, s, hl);
	host[hl] = '\0';
	memset(a->addr, 0, sizeof a->addr);
	if (inet_pton(AF_INET, host, a->addr) == 1) {
		a->family = AF_INET;
		max = 32;
	} else if (inet_pton(AF_INET6, host, a->addr) == 1) {
		a->family = AF_INET6;
		max = 128;
	} else {
		return -1;
	}
	a->prefix = max;
	if (slash != NULL) {
		char *end;
		unsigned long p;

		errno = 0;
		p = strtoul(slash + 1, &end, 10);
		if (!isdigit((unsigned char)slash[1]) || *end != '\0' ||
		    errno != 0 || p > max)
			return -1;
		a->prefix = (unsigned)p;
	}
	return 0;
}

static int parse_action(const char *s, enum cfg_acl_action *out)
{
	if (strcmp(s, "allow") == 0)
		*out = CFG_ACL_ALLOW;
	else if (strcmp(s, "refuse") == 0)
		*out = CFG_ACL_REFUSE;
	else if (strcmp(s, "deny") == 0)
		*out = CFG_ACL_DENY;
	else
		return -1;
	return 0;
}

int cfg_opt_acl(struct cfg_ctx *x, char *value)
{
	char *sp = strpbrk(value, " \t");
	char *action;
	struct cfg_acl a;

	if (!x->acl_set) {
		x->acl_set = true;
		x->c->n_acl = 0;
	}
	if (sp == NULL)
		return cfg_why(x, "want PREFIX allow|refuse|deny, got \"%s\"",
		               value);
	*sp = '\0';
	action = sp + 1;
	while (*action == ' ' || *action == '\t')
		action++;
	if (cfg_prefix_parse(value, &a) != 0)
		return cfg_why(x, "bad address prefix \"%s\"", value);
	if (parse_action(action, &a.action) != 0)
		return cfg_why(x, "bad action \"%s\" (allow, refuse or deny)",
		               action);
	if (x->c->n_acl >= CFG_MAX_ACL)
		return cfg_why(x, "too many access-control rules (at most %d)",
		               CFG_MAX_ACL);
	x->c->acl[x->c->n_acl++] = a;
	return 0;
}

int cfg_opt_proxy_from(struct cfg_ctx *x, char *value)
{
	struct cfg_acl a;

	if (cfg_prefix_parse(value, &a) != 0)
		return cfg_why(x, "bad address prefix \"%s\"", value);
	if (x->c->n_proxy_from >= CFG_MAX_PROXY_FROM)
		return cfg_why(x, "too many proxy-protocol-from (at most %d)",
		               CFG_MAX_PROXY_FROM);
	a.action = CFG_ACL_ALLOW;
	x->c->proxy_from[x->c->n_proxy_from++] = a;
	return 0;
}

int cfg_opt_acl_default(struct cfg_ctx *x, char *value)
{
	if (parse_action(value, &x->c->acl_default) != 0)
		return cfg_why(x, "bad action \"%s\" (allow, refuse or deny)",
		               value);
	return 0;
}

static bool prefix_match(const uint8_t *addr, const struct cfg_acl *a)
{
	unsigned full = a->prefix / 8, rest = a->prefix % 8;
	uint8_t mask;

	if (memcmp(addr, a->addr, full) != 0)
		return false;
	if (rest == 0)
		return true;
	mask = (uint8_t)(0xff << (8 - rest));
	return ((addr[full] ^ a->addr[full]) & mask) == 0;
}

/* Index of the longest rule matching sa, -1 for none. */
static int acl_find(const struct cfg_acl *r, size_t n,
                    const struct sockaddr *sa)
{
	size_t len;
	const uint8_t *addr = netaddr_unmapped(sa, &len);
	int family = len == 4 ? AF_INET : AF_INET6;
	int best = -1;
	size_t i;

	if (addr == NULL)
		return -1;
	for (i = 0; i < n; i++) {
		if (r[i].family != family || !prefix_match(addr, &r[i]))
			continue;
		if (best < 0 || r[i].prefix > r[best].prefix)
			best = (int)i;
	}
	return best;
}

enum cfg_acl_action cfg_acl_check(const struct cfg *c,
                                  const struct sockaddr *sa)
{
	int best = acl_find(c->acl, c->n_acl, sa);

	return best < 0 ? c->acl_default : c->acl[best].action;
}

bool cfg_proxy_from(const struct cfg *c, const struct sockaddr *sa)
{
	return acl_find(c->proxy_from, c->n_proxy_from, sa) >= 0;
}
