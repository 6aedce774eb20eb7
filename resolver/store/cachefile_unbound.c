/*
 * resolver/store/cachefile_unbound.c - the lines of Unbound's cache dump
 * (the text "unbound-control dump_cache" writes), for load_cache (see
 * cachefile_int.h; cachefile_load.c stores what they say).
 *
 * The dump, as Unbound writes it:
 *
 *   START_RRSET_CACHE
 *   ;rrset [nsec_apex] TTL COUNT SIGCOUNT TRUST SECURITY
 *   COUNT record lines, then SIGCOUNT RRSIG lines (owner TTL class type
 *   data, in presentation format)
 *   ... more RRsets ...
 *   END_RRSET_CACHE
 *   START_MSG_CACHE
 *   msg lines and the RRset references under them
 *   END_MSG_CACHE
 *   EOF
 *
 * Design notes:
 * - Only the RRsets are taken: the message part points at RRsets of the
 *   first part and is skipped whole (curvecache builds its answers from
 *   RRsets).
 * - TRUST (Unbound's enum rrset_trust, 0..12) becomes a rank: additional
 *   and glue data glue, the authority section of a referral referral, a
 *   non-authoritative answer nonauth, authoritative data auth.
 * - SECURITY (Unbound's enum sec_status, 0..5) is never taken as
 *   proof: "insecure" (3) stays insecure, every other status becomes
 *   unchecked, secure included (curvecache validates its own data);
 *   a bogus RRset (1) is not loaded.
 * - Every line is read as (buffer, length): no byte at or past len is
 *   read; counts and TTLs are bounded before use.
 */
#include <string.h>

#include "cache.h"
#include "cachefile.h"
#include "cachefile_int.h"

/** The words of the dump's own lines. */
#define UB_START_RRSETS "START_RRSET_CACHE"
#define UB_END_RRSETS "END_RRSET_CACHE"
#define UB_START_MSGS "START_MSG_CACHE"
#define UB_END_MSGS "END_MSG_CACHE"
#define UB_EOF "EOF"
#define UB_RRSET ";rrset"
#define UB_NSEC_APEX "nsec_apex"

/** Unbound's enum rrset_trust values and enum sec_status values. */
#define UB_TRUST_MAX 12
#define UB_SEC_BOGUS 1
#define UB_SEC_INSECURE 3
#define UB_SEC_MAX 5

/** Records (or RRSIGs) of one RRset: at most as many as a load takes. */
#define UB_COUNT_MAX CACHEFILE_RRSET_MAX

/** The rank of each TRUST value (index), enum cache_rank. */
static const uint8_t ub_ranks[UB_TRUST_MAX + 1] = {
	CACHE_RANK_GLUE,     /* none */
	CACHE_RANK_GLUE,     /* additional, not AA */
	CACHE_RANK_REFERRAL, /* authority, not AA */
	CACHE_RANK_GLUE,     /* additional, AA */
	CACHE_RANK_NONAUTH,  /* answer, AA, not in the zone */
	CACHE_RANK_NONAUTH,  /* answer, not AA */
	CACHE_RANK_GLUE,     /* glue */
	CACHE_RANK_AUTH,     /* authority, AA */
	CACHE_RANK_AUTH,     /* answer, AA */
	CACHE_RANK_AUTH,     /* secondary zone data */
	CACHE_RANK_AUTH,     /* primary zone data */
	CACHE_RANK_AUTH,     /* validated (taken as auth, not as proof) */
	CACHE_RANK_AUTH,     /* ultimate (a trust anchor) */
};

/* Is line[0..len) exactly word? */
static bool ub_is(const char *line, size_t len, const char *word)
{
	return len == strlen(word) && memcmp(line, word, len) == 0;
}

/* Blanks only (or nothing). */
static bool ub_blank(const char *line, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (line[i] != ' ' && line[i] != '\t')
			return false;
	return true;
}

bool cf_ub_first(const char *line, size_t len)
{
	while (len > 0 && (line[len - 1] == ' ' || line[len - 1] == '\t'))
		len--;
	return ub_is(line, len, UB_START_RRSETS);
}

/* The numbers of a ";rrset" line (after the word): [nsec_apex] TTL
 * COUNT SIGCOUNT TRUST SECURITY. A negative TTL (expired) reads 0. */
static bool ub_set_numbers(struct cf_cur *c, uint32_t v[5])
{
	static const uint32_t max[5] = { CF_TTL_MAX, UB_COUNT_MAX,
		                         UB_COUNT_MAX, UB_TRUST_MAX,
		                         UB_SEC_MAX };
	struct cf_tok t;
	size_t i;

	if (cf_next(c, &t) != CF_TOKEN)
		return false;
	if (!t.quoted && t.len == strlen(UB_NSEC_APEX) &&
	    memcmp(t.p, UB_NSEC_APEX, t.len) == 0 &&
	    cf_next(c, &t) != CF_TOKEN)
		return false;
	for (i = 0; i < 5; i++) {
		if (i > 0 && cf_next(c, &t) != CF_TOKEN)
			return false;
		if (i == 0 && t.len > 1 && t.p[0] == '-') {
			t.p++;
			t.len--;
			if (!cf_number(&t, UINT32_MAX, &v[0]))
				return false;
			v[0] = 0;
		} else if (!cf_number(&t, max[i], &v[i])) {
			return false;
		}
	}
	return cf_next(c, &t) == CF_END && c->pos == c->len;
}

/* A ";rrset" line: the next RRset's shape. */
static enum cf_ub_line ub_set(struct cf_ub *u, const char *line, size_t len,
                              const char **why)
{
	struct cf_cur c = { line, len, strlen(UB_RRSET) };
	uint32_t v[5];

	if (u->rrs + u->sigs > 0 && !u->drop)
		u->cut = true;
	u->rrs = u->sigs = 0;
	u->drop = true;
	if (len > c.pos && line[c.pos] != ' ' && line[c.pos] != '\t') {
		*why = "not an ;rrset line";
		return CF_UB_BAD;
	}
	if (!ub_set_numbers(&c, v)) {
		*why = "bad ;rrset line (TTL COUNT SIGCOUNT TRUST SECURITY)";
		return CF_UB_BAD;
	}
	u->ttl = v[0];
	u->rrs = v[1];
	u->sigs = v[2];
	u->rank = ub_ranks[v[3]];
	u->sec = v[4] == UB_SEC_INSECURE ? CACHE_SEC_INSECURE :
	                                   CACHE_SEC_UNCHECKED;
	/* a bogus RRset, or signatures without records: not loaded */
	u->drop = v[4] == UB_SEC_BOGUS || v[1] == 0;
	return CF_UB_SET;
}

/* The end of the RRset part (or of the dump): the open RRset is cut if
 * lines of it are missing. */
static void ub_close(struct cf_ub *u)
{
	if (u->rrs + u->sigs > 0 && !u->drop)
		u->cut = true;
	u->rrs = u->sigs = 0;
	u->drop = false;
}

/* A line of the RRset part. */
static enum cf_ub_line ub_rrsets(struct cf_ub *u, const char *line, size_t len,
                                 const char **why)
{
	bool sig;

	if (len >= strlen(UB_RRSET) &&
	    memcmp(line, UB_RRSET, strlen(UB_RRSET)) == 0)
		return ub_set(u, line, len, why);
	if (ub_is(line, len, UB_END_RRSETS)) {
		ub_close(u);
		u->where = CF_UB_BETWEEN;
		return CF_UB_SKIP;
	}
	if (u->rrs + u->sigs == 0) {
		if (ub_blank(line, len))
			return CF_UB_SKIP;
		*why = "a line outside an RRset";
		return CF_UB_BAD;
	}
	sig = u->rrs == 0;
	if (sig)
		u->sigs--;
	else
		u->rrs--;
	if (u->drop)
		return CF_UB_SKIP;
	return sig ? CF_UB_SIG : CF_UB_RR;
}

enum cf_ub_line cf_ub_next(struct cf_ub *u, const char *line, size_t len,
                           const char **why)
{
	*why = NULL;
	if (u->where == CF_UB_DONE)
		return CF_UB_SKIP;
	if (ub_is(line, len, UB_EOF)) {
		ub_close(u);
		u->where = CF_UB_DONE;
		return CF_UB_END;
	}
	switch (u->where) {
	case CF_UB_RRSETS: return ub_rrsets(u, line, len, why);
	case CF_UB_MSGS:
		if (ub_is(line, len, UB_END_MSGS))
			u->where = CF_UB_BETWEEN;
		return CF_UB_SKIP;
	default:
		if (ub_is(line, len, UB_START_MSGS)) {
			u->where = CF_UB_MSGS;
			return CF_UB_SKIP;
		}
		if (ub_blank(line, len))
			return CF_UB_SKIP;
		*why = "a line after the RRsets that is not a part's start";
		return CF_UB_BAD;
	}
}

bool cf_ub_finish(struct cf_ub *u)
{
	ub_close(u);
	u->where = CF_UB_DONE;
	return u->cut;
}
