/*
 * resolver/conf/cfg_acl.c - the run-time lookups of a loaded configuration:
 * the access-control rules (cfg_acl_check) and the proxy-from list
 * (cfg_proxy_from), longest prefix first (see cfg.h). The rules are
 * parsed in cfg.c; this file reads struct cfg only and calls nothing.
 */
#include "cfg.h"

#include "base/netaddr.h"

#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

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
