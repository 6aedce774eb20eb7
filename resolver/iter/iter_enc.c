/*
 * resolver/iter/iter_enc.c - encrypted-zone NAME: the servers of NAME and
 * of every zone below it are asked only when the query can reach them
 * encrypted and authenticated: over DNSCurve (a key in the delegation).
 * DANE-authenticated TLS (issue 24) is the second way, not yet known to
 * the iterator: until it is, a server without a key is not asked.
 *
 * Before a frame of such a zone sends anything, its servers without a key
 * are dropped (a log line names them); when none is left the frame fails
 * and the client's SERVFAIL carries EDE 22 (No Reachable Authority) with
 * ITER_ENC_TEXT, so nothing of the zone leaves in plain. The parents of
 * NAME are asked as usual (a referral names the zone, never more than
 * QNAME minimisation shows), and so are the zones of the NS names
 * themselves unless they too lie under an encrypted-zone.
 */
#include <string.h>

#include "base/log.h"
#include "conf/cfg.h"
#include "iter_int.h"

/** RFC 8914: No Reachable Authority. */
#define ITER_ENC_EDE 22
/** The EXTRA-TEXT of that EDE. */
static const char iter_enc_text[] =
	"encrypted-zone: no server reachable by DNSCurve or DANE TLS";
/** Bytes of the list of skipped NS names in the log line. */
#define ITER_ENC_LIST_BYTES 512

bool iter_enc_required(const struct iter_req *req, const uint8_t *name,
                       size_t len)
{
	const struct cfg *cfg = req->env->cfg;
	size_t i;

	for (i = 0; cfg != NULL && i < cfg->n_encrypted_zone; i++)
		if (iter_name_under(name, len, cfg->encrypted_zone[i],
		                    cfg->encrypted_zone_len[i]))
			return true;
	return false;
}

/* Append ns's name to list (comma-separated, cut when full). */
static void iter_enc_list_add(char *list, size_t cap, const struct iter_ns *ns)
{
	char text[WIRE_NAME_TEXT_MAX];
	size_t used = strlen(list);

	if (wire_name_to_text(ns->name, ns->namelen, text, sizeof text,
	                      NULL) != WIRE_OK)
		strcpy(text, "?");
	if (used + strlen(text) + 2 >= cap)
		return;
	if (used > 0)
		list[used++] = ',';
	strcpy(list + used, text);
}

bool iter_enc_step(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	struct iter_zone *z = &f->zone;
	char list[ITER_ENC_LIST_BYTES] = "";
	char zone[WIRE_NAME_TEXT_MAX];
	size_t i, n = 0, skipped = 0;

	if (!iter_enc_required(req, z->name, z->len))
		return false;
	for (i = 0; i < z->nns; i++) {
		if (z->ns[i].curve) {
			if (n != i)
				z->ns[n] = z->ns[i];
			n++;
			continue;
		}
		iter_enc_list_add(list, sizeof list, &z->ns[i]);
		skipped++;
	}
	z->nns = n;
	if (skipped == 0)
		return false;
	if (wire_name_to_text(z->name, z->len, zone, sizeof zone, NULL) !=
	    WIRE_OK)
		strcpy(zone, "?");
	log_warn_limited("encrypted_zone_skip",
	                 "zone=%s skipped=%zu servers=%s left=%zu", zone,
	                 skipped, list, n);
	if (n > 0)
		return false;
	req->dz_ede = ITER_ENC_EDE;
	req->dz_ede_text = iter_enc_text;
	iter_fail(f, "encrypted-zone: no server reachable encrypted");
	return true;
}
