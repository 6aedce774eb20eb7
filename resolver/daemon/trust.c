/*
 * resolver/daemon/trust.c - the choice of trust anchors (see trust.h):
 * the options, else Debian's root.key, else the built-in root KSKs; then
 * the negative anchors. The records themselves are read by
 * resolver/anchor/anchor.h.
 */
#include "trust.h"
#include "base/fileio.h"
#include "base/log.h"
#include "anchor/autotrust.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int trust_auto_read(const char *path, struct autotrust_zone *z, char *err,
                    size_t errlen)
{
	char why[ANCHOR_ERR_MAX];
	char *buf = NULL;
	size_t len = 0;
	int rc;

	if (fileio_read_path(path, AUTOTRUST_TEXT_MAX, true, &buf, &len, why,
	                     sizeof why) != FILEIO_OK) {
		snprintf(err, errlen, "%s: %s", path, why);
		return -1;
	}
	rc = autotrust_file_parse(buf, len, path, z, err, errlen);
	free(buf);
	return rc == AUTOTRUST_OK ? 0 : -1;
}

/* An auto-trust-anchor-file: its VALID and MISSING keys (or its first DS
 * records) as anchors. */
static int load_auto(const char *path, struct anchors *a, char *err,
                     size_t errlen)
{
	struct autotrust_zone *z = malloc(sizeof *z);
	int rc = -1;

	if (z == NULL) {
		snprintf(err, errlen, "%s: out of memory", path);
		return -1;
	}
	if (trust_auto_read(path, z, err, errlen) == 0) {
		rc = autotrust_anchors_add(z, a);
		if (rc == ANCHOR_EEMPTY)
			snprintf(err, errlen,
			         "%s: no trusted key left (every key revoked "
			         "or removed)",
			         path);
		else if (rc != ANCHOR_OK)
			snprintf(err, errlen, "%s: too many anchors", path);
		rc = rc == ANCHOR_OK ? 0 : -1;
	}
	free(z);
	return rc;
}

/* The loader's message (err, naming the file) under the FILE:LINE of the
 * option that names it: "conf:3: trust-anchor-file /x/root.key: ...". */
static int option_failed(const char *at, const char *opt, char *err,
                         size_t errlen)
{
	char why[CFG_ERR_BYTES + ANCHOR_ERR_MAX];

	snprintf(why, sizeof why, "%s", err);
	if (at[0] != '\0')
		snprintf(err, errlen, "%s: %s %s", at, opt, why);
	else
		snprintf(err, errlen, "%s %s", opt, why);
	return -1;
}

/* Every trust-anchor-file, auto-trust-anchor-file and trust-anchor line
 * of the config, in that order; a failure names its line. */
static int load_options(const struct cfg *c, struct anchors *a, char *err,
                        size_t errlen)
{
	char why[ANCHOR_ERR_MAX];
	size_t i;

	for (i = 0; i < c->n_trust_anchor_file; i++)
		if (anchors_add_file(a, c->trust_anchor_file[i], err,
		                     errlen) != ANCHOR_OK)
			return option_failed(c->trust_anchor_file_at[i],
			                     "trust-anchor-file", err, errlen);
	for (i = 0; i < c->n_auto_trust_anchor_file; i++)
		if (load_auto(c->auto_trust_anchor_file[i], a, err, errlen) !=
		    0)
			return option_failed(c->auto_trust_anchor_file_at[i],
			                     "auto-trust-anchor-file", err,
			                     errlen);
	for (i = 0; i < c->n_trust_anchor; i++) {
		if (anchors_add_text(a, c->trust_anchor[i], why, sizeof why) ==
		    ANCHOR_OK)
			continue;
		snprintf(err, errlen, "%s: %s", c->trust_anchor_at[i], why);
		return -1;
	}
	return 0;
}

/* No option: Debian's file when it is there and loads (into a set of its
 * own, so that a half-read file leaves nothing), else the built-in
 * KSKs. */
static int load_default(const char *debian, struct anchors **a,
                        struct trust_used *u)
{
	struct anchors *d = NULL;
	struct stat st;

	if (stat(debian, &st) == 0 || errno != ENOENT) {
		if (anchors_new(&d) != ANCHOR_OK)
			return -1;
		if (anchors_add_file(d, debian, u->note, sizeof u->note) ==
		    ANCHOR_OK) {
			anchors_free(*a);
			*a = d;
			snprintf(u->source, sizeof u->source, "file:%s",
			         debian);
			return 0;
		}
		anchors_free(d);
	}
	snprintf(u->source, sizeof u->source, "builtin");
	return anchors_add_builtin(*a) == ANCHOR_OK ? 0 : -1;
}

/* The domain-insecure lines, as negative anchors. */
static int load_insecure(const struct cfg *c, struct anchors *a, char *err,
                         size_t errlen)
{
	size_t i;

	for (i = 0; i < c->n_domain_insecure; i++) {
		if (anchors_add_insecure(a, c->domain_insecure[i],
		                         c->domain_insecure_len[i]) ==
		    ANCHOR_OK)
			continue;
		snprintf(err, errlen, "domain-insecure: more than %d names",
		         ANCHOR_ZONES_MAX);
		return -1;
	}
	return 0;
}

int trust_anchors_choose(const struct cfg *cfg, const char *debian,
                         struct anchors **out, struct trust_used *used,
                         char *err, size_t errlen)
{
	struct trust_used scratch;
	struct trust_used *u = used != NULL ? used : &scratch;
	struct anchors *a = NULL;
	int rc = 0;

	memset(u, 0, sizeof *u);
	if (anchors_new(&a) != ANCHOR_OK) {
		snprintf(err, errlen, "trust anchors: out of memory");
		return -1;
	}
	if (!cfg->dnssec) {
		snprintf(u->source, sizeof u->source, "none");
	} else if (cfg->n_trust_anchor_file + cfg->n_auto_trust_anchor_file +
	                   cfg->n_trust_anchor >
	           0) {
		snprintf(u->source, sizeof u->source, "options");
		rc = load_options(cfg, a, err, errlen);
	} else if (load_default(debian, &a, u) != 0) {
		snprintf(err, errlen, "trust anchors: out of memory");
		rc = -1;
	}
	if (rc == 0 && cfg->dnssec)
		rc = load_insecure(cfg, a, err, errlen);
	if (rc != 0) {
		anchors_free(a);
		return -1;
	}
	u->zones = anchors_count(a);
	u->insecure = cfg->dnssec ? cfg->n_domain_insecure : 0;
	*out = a;
	return 0;
}

int trust_anchors_load(const struct cfg *cfg, struct anchors **out, char *err,
                       size_t errlen)
{
	return trust_anchors_choose(cfg, ANCHOR_DEBIAN_ROOT_KEY, out, NULL,
	                            err, errlen);
}

void trust_anchors_log(const struct trust_used *used)
{
	log_info("trust_anchors", "source=%s zones=%zu insecure=%zu",
	         used->source, used->zones, used->insecure);
	if (used->note[0] != '\0')
		log_warn("trust_anchors_fallback", "error=%s used=%s",
		         used->note, used->source);
}
