/*
 * resolver/conf/cfg_dnssec.c - the repeatable DNSSEC options (cfg_int.h):
 * trust-anchor-file, auto-trust-anchor-file, trust-anchor and
 * domain-insecure (and encrypted-zone, a list of names alike), and the
 * RFC 5011 times add-holddown, del-holddown and keep-missing (seconds, as
 * Unbound), in the syntax Unbound's server: clause takes (values in quotes
 * or bare: the line reader cuts the quotes), so its lines can be pasted.
 * dnssec,
 * val-bogus-ttl and nsec3-max-iterations are plain values (cfg.c).
 *
 * Only the form is checked here: the records of the files and of the
 * trust-anchor lines are parsed when the daemon loads the anchors
 * (resolver/daemon/trust.h; conf/ may not include validate/), which
 * names the FILE:LINE of a trust-anchor line kept here.
 */
#include "cfg.h"
#include "cfg_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One more file in list (of *n): joined, once only; at[] keeps the
 * FILE:LINE of its line for the loader's messages (trust.h). */
static int file_add(struct cfg_ctx *x, const char *opt, char *v,
                    char list[][CFG_MAX_PATH], char at[][CFG_TRUST_AT_BYTES],
                    size_t *n)
{
	char path[CFG_MAX_PATH];
	size_t i;

	if (*v == '\0')
		return cfg_why(x, "%s needs a file", opt);
	if (cfg_path_join(x->file, v, path, sizeof path) != 0)
		return cfg_why(x, "%s: path too long: \"%.60s...\"", opt, v);
	for (i = 0; i < *n; i++)
		if (strcmp(list[i], path) == 0)
			return cfg_why(x, "%s given twice: \"%.60s\"", opt, v);
	if (*n >= CFG_MAX_TRUST_FILES)
		return cfg_why(x, "too many %s lines (at most %d)", opt,
		               CFG_MAX_TRUST_FILES);
	snprintf(at[*n], CFG_TRUST_AT_BYTES, "%.*s:%zu", CFG_MAX_PATH - 1,
	         x->file, x->line);
	memcpy(list[(*n)++], path, strlen(path) + 1);
	return 0;
}

int cfg_opt_trust_anchor_file(struct cfg_ctx *x, char *v)
{
	return file_add(x, "trust-anchor-file", v, x->c->trust_anchor_file,
	                x->c->trust_anchor_file_at,
	                &x->c->n_trust_anchor_file);
}

int cfg_opt_auto_trust_anchor_file(struct cfg_ctx *x, char *v)
{
	return file_add(x, "auto-trust-anchor-file", v,
	                x->c->auto_trust_anchor_file,
	                x->c->auto_trust_anchor_file_at,
	                &x->c->n_auto_trust_anchor_file);
}

int cfg_opt_trust_anchor(struct cfg_ctx *x, char *v)
{
	struct cfg *c = x->c;
	size_t n;

	n = strlen(v);
	if (n == 0)
		return cfg_why(x, "%s",
		               "trust-anchor needs a record: \"NAME DS ...\" "
		               "or "
		               "\"NAME DNSKEY ...\"");
	if (n >= CFG_TRUST_ANCHOR_BYTES)
		return cfg_why(x, "trust-anchor longer than %d characters",
		               CFG_TRUST_ANCHOR_BYTES - 1);
	if (c->n_trust_anchor >= CFG_MAX_TRUST_ANCHORS)
		return cfg_why(x, "too many trust-anchor lines (at most %d)",
		               CFG_MAX_TRUST_ANCHORS);
	memcpy(c->trust_anchor[c->n_trust_anchor], v, n + 1);
	snprintf(c->trust_anchor_at[c->n_trust_anchor],
	         sizeof c->trust_anchor_at[0], "%.*s:%zu", CFG_MAX_PATH - 1,
	         x->file, x->line);
	c->n_trust_anchor++;
	return 0;
}

int cfg_opt_domain_insecure(struct cfg_ctx *x, char *v)
{
	struct cfg *c = x->c;

	return cfg_name_add("domain-insecure name", v, c->domain_insecure,
	                    c->domain_insecure_len, &c->n_domain_insecure,
	                    CFG_MAX_DOMAIN_INSECURE, x->why, sizeof x->why);
}

/* encrypted-zone: NAME (repeatable; a zone at most once). */
int cfg_opt_encrypted_zone(struct cfg_ctx *x, char *v)
{
	struct cfg *c = x->c;

	return cfg_name_add("encrypted-zone name", v, c->encrypted_zone,
	                    c->encrypted_zone_len, &c->n_encrypted_zone,
	                    CFG_MAX_ENCRYPTED_ZONES, x->why, sizeof x->why);
}

/* SECONDS, at most CFG_HOLDDOWN_MAX. */
static int seconds(struct cfg_ctx *x, const char *opt, char *v, uint32_t *out)
{
	char *end = NULL;
	unsigned long n;

	n = strtoul(v, &end, 10);
	if (*v < '0' || *v > '9' || end == NULL || *end != '\0' ||
	    n > CFG_HOLDDOWN_MAX)
		return cfg_why(x, "%s wants seconds (0 to %u), not \"%.40s\"",
		               opt, CFG_HOLDDOWN_MAX, v);
	*out = (uint32_t)n;
	return 0;
}

int cfg_opt_add_holddown(struct cfg_ctx *x, char *v)
{
	return seconds(x, "add-holddown", v, &x->c->add_holddown);
}

int cfg_opt_del_holddown(struct cfg_ctx *x, char *v)
{
	return seconds(x, "del-holddown", v, &x->c->del_holddown);
}

int cfg_opt_keep_missing(struct cfg_ctx *x, char *v)
{
	return seconds(x, "keep-missing", v, &x->c->keep_missing);
}
