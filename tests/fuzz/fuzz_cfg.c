/*
 * tests/fuzz/fuzz_cfg.c - libFuzzer target for the config parser.
 *
 * The input is the text of a config file, parsed with cfg_parse over the
 * built-in defaults, as cfg_load does after reading the file. On failure
 * the message must be a NUL-terminated "FILE:..." line (this file's,
 * unless an include line names another); on success every
 * count must be within its cap and every string NUL-terminated, the
 * access list must answer for a few client addresses, the local-zone
 * lines must build a local zone table, and every trust-anchor line and
 * domain-insecure name goes through the anchor parser
 * (resolver/anchor/anchor.h): accepted or refused with a message.
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "policy/localzone.h"
#include "anchor/anchor.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define FUZZ_CFG_NAME "fuzz.conf"

static void check_str(const char *s, size_t cap)
{
	if (memchr(s, '\0', cap) == NULL)
		abort();
}

static void check_acl(const struct cfg *c)
{
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
	enum cfg_acl_action a;

	memset(&v4, 0, sizeof v4);
	v4.sin_family = AF_INET;
	v4.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	memset(&v6, 0, sizeof v6);
	v6.sin6_family = AF_INET6;
	v6.sin6_addr = in6addr_loopback;
	a = cfg_acl_check(c, (const struct sockaddr *)&v4);
	if (a != CFG_ACL_ALLOW && a != CFG_ACL_REFUSE && a != CFG_ACL_DENY)
		abort();
	a = cfg_acl_check(c, (const struct sockaddr *)&v6);
	if (a != CFG_ACL_ALLOW && a != CFG_ACL_REFUSE && a != CFG_ACL_DENY)
		abort();
}

/* Every accepted set of local-zone lines builds a table; local-data
 * lines may still hold RDATA the table refuses (EINVAL, as -t says). */
static void check_local_zones(const struct cfg *c)
{
	struct localzone *lz = NULL;
	char err[256];
	size_t nz, nd;
	int rc = localzone_build(c->local, &lz, err, sizeof err);

	cfg_local_counts(c, &nz, &nd);
	if (rc != LOCALZONE_OK && (rc != LOCALZONE_EINVAL || nd == 0))
		abort();
	localzone_free(lz);
}

/* The DNSSEC lists: within their caps, strings ended, and the records
 * and names taken or refused by the anchor set. */
static void check_dnssec(const struct cfg *c)
{
	char err[ANCHOR_ERR_MAX];
	struct anchors *a = NULL;
	size_t i;

	if (c->n_trust_anchor_file > CFG_MAX_TRUST_FILES ||
	    c->n_auto_trust_anchor_file > CFG_MAX_TRUST_FILES ||
	    c->n_trust_anchor > CFG_MAX_TRUST_ANCHORS ||
	    c->n_domain_insecure > CFG_MAX_DOMAIN_INSECURE ||
	    anchors_new(&a) != ANCHOR_OK)
		abort();
	for (i = 0; i < c->n_trust_anchor_file; i++)
		check_str(c->trust_anchor_file[i], CFG_MAX_PATH);
	for (i = 0; i < c->n_auto_trust_anchor_file; i++)
		check_str(c->auto_trust_anchor_file[i], CFG_MAX_PATH);
	for (i = 0; i < c->n_trust_anchor; i++) {
		check_str(c->trust_anchor_at[i], CFG_TRUST_AT_BYTES);
		memset(err, 0x55, sizeof err);
		if (anchors_add_text(a, c->trust_anchor[i], err, sizeof err) !=
		            ANCHOR_OK &&
		    strncmp(err, "trust-anchor \"", 14) != 0)
			abort();
	}
	for (i = 0; i < c->n_domain_insecure; i++)
		if (anchors_add_insecure(a, c->domain_insecure[i],
		                         c->domain_insecure_len[i]) !=
		            ANCHOR_OK ||
		    !anchors_insecure(a, c->domain_insecure[i],
		                      c->domain_insecure_len[i]))
			abort();
	anchors_free(a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct cfg c;
	char err[CFG_ERR_BYTES];

	cfg_defaults(&c);
	memset(err, 0x55, sizeof err);
	if (cfg_parse(FUZZ_CFG_NAME, (const char *)data, size, &c, err,
	              sizeof err) != 0) {
		check_str(err, sizeof err);
		/* an include line may name a problem in another file */
		if (strncmp(err, FUZZ_CFG_NAME, strlen(FUZZ_CFG_NAME)) != 0 &&
		    memmem(data, size, "include", 7) == NULL)
			abort();
		return 0;
	}
	if (c.n_listen > CFG_MAX_LISTEN || c.n_acl > CFG_MAX_ACL ||
	    c.n_outgoing > CFG_MAX_OUTGOING || c.n_curve_order > 2 ||
	    c.threads == 0)
		abort();
	check_str(c.root_hints, sizeof c.root_hints);
	check_str(c.curve_key_file, sizeof c.curve_key_file);
	check_str(c.user, sizeof c.user);
	check_str(c.control_socket, sizeof c.control_socket);
	check_acl(&c);
	check_local_zones(&c);
	check_dnssec(&c);
	return 0;
}
