/*
 * resolver/conf/cfg_zone.c - the values of forward-zone and stub-zone lines
 * (see cfg.h): a zone name, then its servers; and of local-zone lines: a
 * zone name, then its type.
 *
 *   forward-zone: corp.example. 10.0.0.53 10.0.0.54@5353
 *   stub-zone: lab.internal. 192.0.2.1 192.0.2.2/uz5...(54 characters)
 *   local-zone: test. nodefault (cfg_local.c)
 *
 * Servers are asked on port 53 unless they give their own (ADDR@PORT).
 * A forward server written ADDR[@PORT]#AUTH-NAME[^PIN] is asked over TLS
 * (port 853 unless given) and authenticated (cfg_tlsaddr.c); the word
 * forward-tls-upstream asks that of every server of the line.
 * A forward-zone line may hold the word forward-first (anywhere after
 * the name): when every forwarder fails, the name is iterated.
 *
 * Names are kept in lowercase wire form, so that the server and the
 * iterator match query names (already lowercase wire names) with one
 * suffix compare. A uz5 key label is only checked for its form here (the
 * iterator decodes it); cfg.c stays free of curve/ and wire.c.
 */
#include "cfg.h"
#include "cfg_int.h"
#include "wire/wire.h"

#include <stdio.h>
#include <string.h>

/** Characters of a uz5 key label: "uz5" and 51 base32 digits. */
#define CFG_KEYLABEL_LEN (CFG_KEYLABEL_BYTES - 1)

static int zfail(char *why, size_t whylen, const char *what, const char *value)
{
	snprintf(why, whylen, "%s \"%.60s\"", what, value);
	return -1;
}

/* "corp.example." or "corp.example" or "." into lowercase wire form:
 * the codec's one text parser (wire_name_from_text, which also takes
 * \DDD and \X escapes), on printable text without spaces. */
_Static_assert(CFG_NAME_MAX == WIRE_NAME_MAX, "one name size");

int cfg_name_parse(const char *text, uint8_t *out, size_t *outlen)
{
	size_t i, len = strlen(text);

	for (i = 0; i < len; i++)
		if ((unsigned char)text[i] <= ' ' ||
		    (unsigned char)text[i] > '~')
			return -1;
	if (wire_name_from_text(text, len, out, outlen) != WIRE_OK)
		return -1;
	wire_name_lower(out, *outlen);
	return 0;
}

static bool keylabel_ok(const char *k)
{
	size_t i;

	if (strlen(k) != CFG_KEYLABEL_LEN || strncmp(k, "uz5", 3) != 0)
		return false;
	for (i = 3; k[i] != '\0'; i++)
		if (!((k[i] >= '0' && k[i] <= '9') ||
		      (k[i] >= 'a' && k[i] <= 'z') ||
		      (k[i] >= 'A' && k[i] <= 'Z')))
			return false;
	return true;
}

/* A forward server: "ADDR[@PORT][#AUTH-NAME[^PIN]]" (cfg_tlsaddr.c). */
static int forwarder_parse(const char *tok, struct cfg_zone *z, char *why,
                           size_t whylen)
{
	struct cfg_tls *tls = &z->tls[z->naddr];

	if (cfg_tlsaddr_parse(tok, strlen(tok), &z->addr[z->naddr], tls) != 0)
		return zfail(why, whylen,
		             "bad forward server (want ADDR[@PORT] or "
		             "ADDR[@PORT]#AUTH-NAME[^BASE64-SHA256])",
		             tok);
	/* a TLS server's port (853 unless given) is the one to ask */
	if (tls->name[0] != '\0')
		z->addr[z->naddr].port_given = true;
	z->naddr++;
	return 0;
}

/* One server: "ADDR[@PORT]" or, with keys, "ADDR[@PORT]/uz5KEY". */
static int server_parse(char *tok, bool keys, struct cfg_zone *z, char *why,
                        size_t whylen)
{
	char *slash = strchr(tok, '/');

	if (z->naddr >= CFG_ZONE_ADDRS) {
		snprintf(why, whylen, "too many servers (at most %d)",
		         CFG_ZONE_ADDRS);
		return -1;
	}
	z->key[z->naddr][0] = '\0';
	if (!keys)
		return forwarder_parse(tok, z, why, whylen);
	if (strchr(tok, '#') != NULL)
		return zfail(why, whylen,
		             "stub-zone servers are asked in plain DNS or "
		             "DNSCurve, not TLS:",
		             tok);
	if (slash != NULL) {
		*slash = '\0';
		if (!keylabel_ok(slash + 1))
			return zfail(why, whylen, "bad uz5 key label",
			             slash + 1);
		memcpy(z->key[z->naddr], slash + 1, CFG_KEYLABEL_BYTES);
	}
	if (cfg_addr_parse(tok, 53, &z->addr[z->naddr]) != 0)
		return zfail(why, whylen,
		             "bad server address (want "
		             "ADDR or ADDR@PORT)",
		             tok);
	z->naddr++;
	return 0;
}

/* forward-tls-upstream: every server must say whom to authenticate. */
static int tls_all(const struct cfg_zone *z, char *why, size_t whylen)
{
	size_t i;

	for (i = 0; z->tls_upstream && i < z->naddr; i++)
		if (z->tls[i].name[0] == '\0') {
			snprintf(why, whylen,
			         "forward-tls-upstream: yes needs an "
			         "authentication name on every server "
			         "(ADDR@853#AUTH-NAME); server %zu has none",
			         i + 1);
			return -1;
		}
	return 0;
}

int cfg_zone_parse(char *value, bool keys, struct cfg_zone *out, char *why,
                   size_t whylen)
{
	char *save = NULL, *tok;

	memset(out, 0, sizeof(*out));
	tok = strtok_r(value, " \t", &save);
	if (tok == NULL || cfg_name_parse(tok, out->name, &out->namelen) != 0)
		return zfail(why, whylen, "bad zone name",
		             tok != NULL ? tok : "");
	while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
		/* forward-first (Unbound's name): iterate when every
		 * forwarder failed */
		if (!keys && strcmp(tok, CFG_FORWARD_FIRST) == 0)
			out->first = true;
		else if (!keys && strcmp(tok, CFG_FORWARD_TLS) == 0)
			out->tls_upstream = true;
		else if (server_parse(tok, keys, out, why, whylen) != 0)
			return -1;
	}
	if (out->naddr == 0) {
		snprintf(why, whylen,
		         "zone needs at least one server "
		         "address");
		return -1;
	}
	return tls_all(out, why, whylen);
}

char *cfg_unquote(char *v)
{
	size_t n = strlen(v);

	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		v[n - 1] = '\0';
		return v + 1;
	}
	return v;
}

int cfg_name_add(const char *what, const char *v, uint8_t list[][CFG_NAME_MAX],
                 size_t *lens, size_t *n, size_t max, char *why, size_t whylen)
{
	uint8_t name[CFG_NAME_MAX];
	size_t len, i;

	if (cfg_name_parse(v, name, &len) != 0) {
		snprintf(why, whylen, "bad %s \"%.60s\"", what, v);
		return -1;
	}
	for (i = 0; i < *n; i++) {
		if (lens[i] == len && memcmp(list[i], name, len) == 0) {
			snprintf(why, whylen, "%s given twice: \"%.60s\"",
			         what, v);
			return -1;
		}
	}
	if (*n >= max) {
		snprintf(why, whylen, "too many lines of %s (at most %zu)",
		         what, max);
		return -1;
	}
	memcpy(list[*n], name, len);
	lens[(*n)++] = len;
	return 0;
}

int cfg_private_add(struct cfg *c, bool domain, char *value, char *why,
                    size_t whylen)
{
	const char *opt = domain ? "private-domain" : "private-address";
	uint8_t name[CFG_NAME_MAX];
	size_t len;
	enum privaddr_status st;

	if (domain && cfg_name_parse(value, name, &len) != 0)
		st = PRIVADDR_ENAME;
	else if (domain)
		st = privaddr_add_domain(&c->priv, name, len);
	else
		st = privaddr_add_prefix(&c->priv, value, strlen(value));
	if (st == PRIVADDR_EFULL)
		snprintf(why, whylen, "too many %s lines (at most %d)", opt,
		         domain ? PRIVADDR_DOMAINS_MAX :
		                  PRIVADDR_PREFIXES_MAX);
	else if (st != PRIVADDR_OK)
		snprintf(why, whylen, "bad %s \"%.60s\": %s", opt, value,
		         privaddr_strerror(st));
	return st == PRIVADDR_OK ? 0 : -1;
}

/* Is zone (wire, lowercase) the name or one of its ancestors? */
static bool name_under(const uint8_t *name, size_t len, const uint8_t *zone,
                       size_t zlen)
{
	size_t off = 0;

	while (len - off > zlen) {
		if (name[off] == 0)
			return false;
		off += (size_t)name[off] + 1;
		if (off >= len)
			return false;
	}
	return len - off == zlen && memcmp(name + off, zone, zlen) == 0;
}

int cfg_zone_find(const struct cfg_zone *z, size_t n, const uint8_t *name,
                  size_t len)
{
	int best = -1;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!name_under(name, len, z[i].name, z[i].namelen))
			continue;
		if (best < 0 || z[i].namelen > z[best].namelen)
			best = (int)i;
	}
	return best;
}
