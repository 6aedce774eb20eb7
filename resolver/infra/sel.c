/*
 * resolver/infra/sel.c - server selection table (see sel.h).
 *
 * A fixed array of entries addressed by a hash of the server address with
 * a probe window of SEL_PROBE_MAX slots. Nothing here allocates after
 * sel_new.
 */
#include <stdlib.h>
#include <string.h>
#include <netinet/in.h>

#include "sel.h"

#include "base/netaddr.h"

/** Bytes of an address key: family byte + IPv6-sized address. */
#define SEL_ADDR_BYTES 16
/** Bytes of an IPv4 address (the start of its key's ip). */
#define SEL_IPV4_BYTES 4
/** Largest shift applied to the timeout per consecutive timeout. */
#define SEL_TIMEOUT_SHIFT_MAX 5
/** Largest shift applied to the back-off. */
#define SEL_BACKOFF_SHIFT_MAX 8
/** The smoothed RTT is kept in 1/SEL_RTT_SCALE ms, so that samples of
 *  0 and 1 ms (a loopback server) average to a fraction instead of being
 *  rounded away, and moves 1/SEL_RTT_GAIN of the way to each sample. */
#define SEL_RTT_SCALE 64u
#define SEL_RTT_GAIN 8u

/** A zone mark: lame or broken for one zone until a time. */
struct sel_zmark {
	uint64_t zone_hash;
	uint64_t until_ms; /**< 0: slot free */
	uint8_t kind;      /**< enum sel_mark */
};

/** What the table knows about one address. */
struct sel_entry {
	bool used;
	uint8_t family; /**< AF_INET or AF_INET6 */
	uint8_t ip[SEL_ADDR_BYTES];
	bool have_rtt;
	uint32_t srtt8;     /**< smoothed RTT in 1/SEL_RTT_SCALE ms */
	uint64_t rtt_at_ms; /**< when srtt8 was last updated */
	uint64_t answer_ms; /**< last answer (0: never) */
	uint32_t timeouts;  /**< consecutive */
	uint64_t backoff_until_ms;
	uint64_t noedns_until_ms;
	uint64_t touched_ms; /**< last write: LRU for eviction */
	struct sel_zmark marks[SEL_MARKS_MAX];
	bool curve;
	uint8_t key[KEY_BYTES];
	uint8_t zonelen; /**< 0: no zone noted */
	uint8_t zone[SEL_ZONE_MAX];
	uint8_t last_error; /**< enum sel_error */
	uint64_t error_ms;
};

struct sel {
	size_t nslots; /**< a power of two */
	size_t entries;
	uint64_t evictions;
	struct sel_entry *slot;
};

/** An address reduced to its lookup key. */
struct sel_key {
	uint8_t family;
	uint8_t ip[SEL_ADDR_BYTES];
};

const char *sel_strerror(int status)
{
	switch (status) {
	case SEL_OK: return "ok";
	case SEL_EINVAL: return "invalid argument";
	case SEL_ENOMEM: return "out of memory";
	default: return "unknown sel status";
	}
}

int sel_new(size_t slots, struct sel **out)
{
	struct sel *s;
	size_t n = SEL_SLOTS_MIN;

	if (out == NULL)
		return SEL_EINVAL;
	if (slots == 0)
		slots = SEL_SLOTS_DEFAULT;
	if (slots > SEL_SLOTS_MAX)
		return SEL_EINVAL;
	while (n < slots)
		n <<= 1;
	s = calloc(1, sizeof(*s));
	if (s == NULL)
		return SEL_ENOMEM;
	s->slot = calloc(n, sizeof(*s->slot));
	if (s->slot == NULL) {
		free(s);
		return SEL_ENOMEM;
	}
	s->nslots = n;
	*out = s;
	return SEL_OK;
}

void sel_free(struct sel *s)
{
	if (s == NULL)
		return;
	free(s->slot);
	free(s);
}

/* Reduce a socket address to a key; v4-mapped IPv6 counts as IPv4. */
static bool sel_key_of(const struct sockaddr *sa, struct sel_key *k)
{
	size_t len;
	const uint8_t *b;

	memset(k, 0, sizeof(*k));
	if (sa == NULL || (b = netaddr_unmapped(sa, &len)) == NULL)
		return false;
	k->family = len == 4 ? AF_INET : AF_INET6;
	memcpy(k->ip, b, len);
	return true;
}

/* Hash of a zone name, case-folded (names reach us canonical anyway). */
static uint64_t sel_zone_hash(const uint8_t *zone, size_t zonelen)
{
	return zone == NULL ? BASE_FNV_OFFSET : base_fnv1a(zone, zonelen, 1);
}

/* The home slot of a key: its family and the address's own bytes (the
 * rest of an IPv4 key is zero; hashing it too was a tenth of the
 * selection's instructions). */
static size_t sel_home(const struct sel *s, const struct sel_key *k)
{
	uint64_t h = base_fnv1a(&k->family, 1, 0);

	h = base_fnv1a_add(h, k->ip,
	                   k->family == AF_INET ? SEL_IPV4_BYTES :
	                                          SEL_ADDR_BYTES,
	                   0);
	return (size_t)(h ^ (h >> 29)) & (s->nslots - 1);
}

static bool sel_entry_is(const struct sel_entry *e, const struct sel_key *k)
{
	return e->used && e->family == k->family &&
	       memcmp(e->ip, k->ip, SEL_ADDR_BYTES) == 0;
}

/* Find the entry of an address, or NULL. */
static struct sel_entry *sel_find(const struct sel *s,
                                  const struct sockaddr *sa)
{
	struct sel_key k;
	size_t home, i;

	if (s == NULL || !sel_key_of(sa, &k))
		return NULL;
	home = sel_home(s, &k);
	for (i = 0; i < SEL_PROBE_MAX; i++) {
		struct sel_entry *e = &s->slot[(home + i) & (s->nslots - 1)];

		if (sel_entry_is(e, &k))
			return e;
	}
	return NULL;
}

/* Find or create the entry of an address; NULL for a bad address. */
static struct sel_entry *sel_get(struct sel *s, const struct sockaddr *sa,
                                 uint64_t now_ms)
{
	struct sel_key k;
	struct sel_entry *victim = NULL;
	size_t home, i;

	if (s == NULL || !sel_key_of(sa, &k))
		return NULL;
	home = sel_home(s, &k);
	for (i = 0; i < SEL_PROBE_MAX; i++) {
		struct sel_entry *e = &s->slot[(home + i) & (s->nslots - 1)];

		if (sel_entry_is(e, &k)) {
			e->touched_ms = now_ms;
			return e;
		}
		if (!e->used) {
			if (victim == NULL || victim->used)
				victim = e;
		} else if (victim == NULL ||
		           (victim->used &&
		            e->touched_ms < victim->touched_ms)) {
			victim = e;
		}
	}
	if (victim->used)
		s->evictions++;
	else
		s->entries++;
	memset(victim, 0, sizeof(*victim));
	victim->used = true;
	victim->family = k.family;
	memcpy(victim->ip, k.ip, SEL_ADDR_BYTES);
	victim->touched_ms = now_ms;
	return victim;
}

/* Smoothed RTT (1/SEL_RTT_SCALE ms) as it stands at now_ms: the samples'
 * average while the server is heard from; after SEL_DECAY_MS of silence
 * unknown again. Only an estimate above SEL_RTT_UNKNOWN_MS decays toward
 * it while idle (so a slow server is tried again some day); a fast one
 * keeps its estimate: idle time is no evidence of slowness, and the
 * server is asked (and measured) whenever it is chosen. */
static uint32_t sel_srtt8(const struct sel_entry *e, uint64_t now_ms)
{
	const uint64_t unknown8 = (uint64_t)SEL_RTT_UNKNOWN_MS * SEL_RTT_SCALE;
	uint64_t age, over;

	if (e == NULL || !e->have_rtt)
		return (uint32_t)unknown8;
	age = now_ms > e->rtt_at_ms ? now_ms - e->rtt_at_ms : 0;
	if (age >= SEL_DECAY_MS)
		return (uint32_t)unknown8;
	if (e->srtt8 <= unknown8)
		return e->srtt8;
	over = e->srtt8 - unknown8;
	return (uint32_t)(e->srtt8 - over * age / SEL_DECAY_MS);
}

/* The same in whole milliseconds (rounded). */
static uint32_t sel_srtt(const struct sel_entry *e, uint64_t now_ms)
{
	return (sel_srtt8(e, now_ms) + SEL_RTT_SCALE / 2) / SEL_RTT_SCALE;
}

/* Whether the server answered within SEL_ALIVE_MS. */
static bool sel_alive(const struct sel_entry *e, uint64_t now_ms)
{
	return e != NULL && e->answer_ms != 0 &&
	       now_ms - e->answer_ms < SEL_ALIVE_MS;
}

uint32_t sel_timeout_ms(const struct sel *s, const struct sockaddr *sa,
                        uint64_t now_ms)
{
	const struct sel_entry *e = sel_find(s, sa);
	uint64_t t;
	uint32_t shift;

	if (e == NULL || !e->have_rtt)
		t = SEL_RTT_UNKNOWN_MS;
	else
		t = (uint64_t)sel_srtt(e, now_ms) * SEL_TIMEOUT_RTT_FACTOR +
		    SEL_TIMEOUT_SLACK_MS;
	shift = e != NULL ? e->timeouts : 0;
	if (shift > SEL_TIMEOUT_SHIFT_MAX)
		shift = SEL_TIMEOUT_SHIFT_MAX;
	if (shift > SEL_TIMEOUT_SHIFT_ALIVE && sel_alive(e, now_ms))
		shift = SEL_TIMEOUT_SHIFT_ALIVE;
	t <<= shift;
	if (t < SEL_TIMEOUT_MIN_MS)
		t = SEL_TIMEOUT_MIN_MS;
	if (t > SEL_TIMEOUT_MAX_MS)
		t = SEL_TIMEOUT_MAX_MS;
	return (uint32_t)t;
}

uint32_t sel_hedge_ms(const struct sel *s, const struct sockaddr *sa,
                      uint64_t now_ms)
{
	const struct sel_entry *e = sel_find(s, sa);
	uint32_t timeout = sel_timeout_ms(s, sa, now_ms);
	uint64_t h = SEL_HEDGE_MS;

	if (e != NULL && e->have_rtt) {
		h = (uint64_t)sel_srtt(e, now_ms) * SEL_HEDGE_RTT_FACTOR;
		if (h < SEL_HEDGE_MS)
			h = SEL_HEDGE_MS;
	}
	return h < timeout ? (uint32_t)h : 0;
}

bool sel_edns(const struct sel *s, const struct sockaddr *sa, uint64_t now_ms)
{
	const struct sel_entry *e = sel_find(s, sa);

	return e == NULL || e->noedns_until_ms <= now_ms;
}

static bool sel_entry_marked(const struct sel_entry *e, uint64_t zh,
                             uint64_t now_ms)
{
	size_t i;

	for (i = 0; e != NULL && i < SEL_MARKS_MAX; i++)
		if (e->marks[i].until_ms > now_ms &&
		    e->marks[i].zone_hash == zh)
			return true;
	return false;
}

/* The score of an entry (NULL: never heard from); zoned: zh is the
 * hash of the zone asked, whose marks count. */
static uint32_t sel_score_e(const struct sel_entry *e, bool zoned, uint64_t zh,
                            uint64_t now_ms)
{
	uint32_t score = sel_srtt(e, now_ms);

	if (e == NULL)
		return score;
	score += (e->timeouts < SEL_SCORE_TIMEOUTS_MAX ?
	                  e->timeouts :
	                  SEL_SCORE_TIMEOUTS_MAX) *
	         SEL_SCORE_TIMEOUT;
	if (e->backoff_until_ms > now_ms)
		score += SEL_SCORE_BACKOFF;
	if (zoned && sel_entry_marked(e, zh, now_ms))
		score += SEL_SCORE_MARKED;
	return score;
}

uint32_t sel_score(const struct sel *s, const struct sockaddr *sa,
                   const uint8_t *zone, size_t zonelen, uint64_t now_ms)
{
	return sel_score_e(sel_find(s, sa), zone != NULL,
	                   zone != NULL ? sel_zone_hash(zone, zonelen) : 0,
	                   now_ms);
}

/* No RTT (never heard from, or not within SEL_DECAY_MS), no timeout in
 * a row, no mark or back-off (the score says so). */
static bool sel_unknown_e(const struct sel_entry *e, uint32_t score,
                          uint64_t now_ms)
{
	if (score != SEL_RTT_UNKNOWN_MS)
		return false;
	if (e == NULL)
		return true;
	return e->timeouts == 0 &&
	       (!e->have_rtt || now_ms >= e->rtt_at_ms + SEL_DECAY_MS);
}

/* Whether sa is unknown and scores best (one lookup of its entry). */
static bool sel_tied(const struct sel *s, const struct sockaddr *sa,
                     bool zoned, uint64_t zh, uint32_t best, uint64_t now_ms)
{
	const struct sel_entry *e = sel_find(s, sa);

	return sel_unknown_e(e, best, now_ms) &&
	       sel_score_e(e, zoned, zh, now_ms) == best;
}

/* Each server's entry is looked up once a pass and the zone hashed once
 * (three lookups and hashes a server were a third of a query's choice). */
size_t sel_choose(const struct sel *s, const struct sockaddr *const *sa,
                  size_t n, const uint8_t *zone, size_t zonelen,
                  uint64_t now_ms, uint32_t rnd, bool *unknown)
{
	size_t best = SEL_NONE, i, ties = 0;
	uint32_t best_score = 0;
	bool zoned = zone != NULL, best_unknown = false;
	uint64_t zh = zoned ? sel_zone_hash(zone, zonelen) : 0;

	if (unknown != NULL)
		*unknown = false;
	for (i = 0; sa != NULL && i < n; i++) {
		const struct sel_entry *e;
		uint32_t sc;

		if (sa[i] == NULL)
			continue;
		e = sel_find(s, sa[i]);
		sc = sel_score_e(e, zoned, zh, now_ms);
		if (best == SEL_NONE || sc < best_score) {
			best = i;
			best_score = sc;
			best_unknown = sel_unknown_e(e, sc, now_ms);
		}
	}
	if (best == SEL_NONE || !best_unknown)
		return best;
	for (i = best; i < n; i++)
		if (sa[i] != NULL &&
		    sel_tied(s, sa[i], zoned, zh, best_score, now_ms))
			ties++;
	if (unknown != NULL)
		*unknown = ties > 1;
	/* the rnd-th of the tied unknown servers */
	rnd %= (uint32_t)ties;
	for (i = best; i < n; i++) {
		if (sa[i] == NULL ||
		    !sel_tied(s, sa[i], zoned, zh, best_score, now_ms))
			continue;
		if (rnd-- == 0)
			return i;
	}
	return best;
}

void sel_rtt_report(struct sel *s, const struct sockaddr *sa, uint32_t rtt_ms,
                    uint64_t now_ms)
{
	struct sel_entry *e = sel_get(s, sa, now_ms);

	if (e == NULL)
		return;
	if (rtt_ms > SEL_TIMEOUT_MAX_MS)
		rtt_ms = SEL_TIMEOUT_MAX_MS;
	if (!e->have_rtt || now_ms >= e->rtt_at_ms + SEL_DECAY_MS) {
		/* the first sample, or the first after the estimate expired */
		e->srtt8 = rtt_ms * SEL_RTT_SCALE;
		e->have_rtt = true;
	} else {
		/* srtt += (rtt - srtt) / SEL_RTT_GAIN, kept in fine units so
		 * that 1 ms samples are not rounded away */
		uint32_t cur = sel_srtt8(e, now_ms);

		e->srtt8 = cur - cur / SEL_RTT_GAIN +
		           rtt_ms * SEL_RTT_SCALE / SEL_RTT_GAIN;
	}
	e->rtt_at_ms = now_ms;
	e->answer_ms = now_ms != 0 ? now_ms : 1;
	e->timeouts = 0;
	e->backoff_until_ms = 0;
}

void sel_timeout_report(struct sel *s, const struct sockaddr *sa,
                        uint64_t now_ms)
{
	struct sel_entry *e = sel_get(s, sa, now_ms);
	uint32_t shift;

	if (e == NULL)
		return;
	if (e->timeouts < UINT32_MAX)
		e->timeouts++;
	e->last_error = SEL_ERR_TIMEOUT;
	e->error_ms = now_ms;
	if (sel_alive(e, now_ms)) {
		/* a drop (rate limiting), not an outage: a short back-off
		 * after a few in a row, never a long one */
		if (e->timeouts >= SEL_BACKOFF_ALIVE_AFTER)
			e->backoff_until_ms = now_ms + SEL_BACKOFF_BASE_MS;
		return;
	}
	shift = e->timeouts - 1;
	if (shift > SEL_BACKOFF_SHIFT_MAX)
		shift = SEL_BACKOFF_SHIFT_MAX;
	{
		uint64_t b = (uint64_t)SEL_BACKOFF_BASE_MS << shift;

		if (b > SEL_BACKOFF_MAX_MS)
			b = SEL_BACKOFF_MAX_MS;
		e->backoff_until_ms = now_ms + b;
	}
}

void sel_mark_set(struct sel *s, const struct sockaddr *sa,
                  const uint8_t *zone, size_t zonelen, enum sel_mark mark,
                  uint64_t now_ms)
{
	struct sel_entry *e = sel_get(s, sa, now_ms);
	uint64_t zh = sel_zone_hash(zone, zonelen);
	uint64_t until = now_ms +
	                 (mark == SEL_MARK_LAME ? SEL_LAME_MS : SEL_BROKEN_MS);
	struct sel_zmark *slot = NULL;
	size_t i;

	if (e == NULL)
		return;
	e->last_error = mark == SEL_MARK_LAME ? SEL_ERR_LAME : SEL_ERR_BROKEN;
	e->error_ms = now_ms;
	for (i = 0; i < SEL_MARKS_MAX; i++) {
		struct sel_zmark *m = &e->marks[i];

		if (m->until_ms > now_ms && m->zone_hash == zh) {
			if (m->until_ms < until) {
				m->until_ms = until;
				m->kind = (uint8_t)mark;
			}
			return;
		}
		if (slot == NULL || m->until_ms < slot->until_ms)
			slot = m;
	}
	slot->zone_hash = zh;
	slot->until_ms = until;
	slot->kind = (uint8_t)mark;
}

bool sel_mark_get(const struct sel *s, const struct sockaddr *sa,
                  const uint8_t *zone, size_t zonelen, uint64_t now_ms,
                  enum sel_mark *mark, uint64_t *left_ms)
{
	const struct sel_entry *e = sel_find(s, sa);
	uint64_t zh = sel_zone_hash(zone, zonelen);
	size_t i;

	for (i = 0; e != NULL && i < SEL_MARKS_MAX; i++) {
		const struct sel_zmark *m = &e->marks[i];

		if (m->until_ms <= now_ms || m->zone_hash != zh)
			continue;
		*mark = (enum sel_mark)m->kind;
		*left_ms = m->until_ms - now_ms;
		return true;
	}
	return false;
}

bool sel_marked(const struct sel *s, const struct sockaddr *sa,
                const uint8_t *zone, size_t zonelen, uint64_t now_ms)
{
	return sel_entry_marked(sel_find(s, sa), sel_zone_hash(zone, zonelen),
	                        now_ms);
}

void sel_noedns_set(struct sel *s, const struct sockaddr *sa, uint64_t now_ms)
{
	struct sel_entry *e = sel_get(s, sa, now_ms);

	if (e == NULL)
		return;
	e->noedns_until_ms = now_ms + SEL_NOEDNS_MS;
	e->last_error = SEL_ERR_NOEDNS;
	e->error_ms = now_ms;
}

void sel_key_set(struct sel *s, const struct sockaddr *sa, const uint8_t *key,
                 uint64_t now_ms)
{
	struct sel_entry *e = sel_get(s, sa, now_ms);

	if (e == NULL)
		return;
	e->curve = key != NULL;
	if (key != NULL)
		memcpy(e->key, key, KEY_BYTES);
	else
		memset(e->key, 0, KEY_BYTES);
}

/* Empty one slot. */
static void sel_entry_drop(struct sel *s, struct sel_entry *e)
{
	memset(e, 0, sizeof(*e));
	s->entries--;
}

size_t sel_forget(struct sel *s, const struct sockaddr *sa)
{
	struct sel_entry *e;
	size_t i, n = 0;

	if (s == NULL)
		return 0;
	if (sa != NULL) {
		/* sel_find scans the whole window: a hole breaks no probe */
		e = sel_find(s, sa);
		if (e == NULL)
			return 0;
		sel_entry_drop(s, e);
		return 1;
	}
	for (i = 0; i < s->nslots; i++) {
		if (s->slot[i].used) {
			sel_entry_drop(s, &s->slot[i]);
			n++;
		}
	}
	return n;
}

/* Fill info from an entry (NULL: unknown address). */
static void sel_entry_info(const struct sel_entry *e, uint64_t now_ms,
                           struct sel_info *info)
{
	memset(info, 0, sizeof(*info));
	info->srtt_ms = sel_srtt(e, now_ms);
	if (e == NULL)
		return;
	info->known = true;
	memcpy(info->zone, e->zone, e->zonelen);
	info->zonelen = e->zonelen;
	info->last_error = (enum sel_error)e->last_error;
	info->error_age_ms = now_ms > e->error_ms ? now_ms - e->error_ms : 0;
	info->timeouts = e->timeouts;
	info->answered = e->answer_ms != 0;
	info->answer_age_ms = info->answered && now_ms > e->answer_ms ?
	                              now_ms - e->answer_ms :
	                              0;
	info->backoff = e->backoff_until_ms > now_ms;
	info->noedns = e->noedns_until_ms > now_ms;
	info->curve = e->curve;
	memcpy(info->key, e->key, KEY_BYTES);
}

void sel_info_get(const struct sel *s, const struct sockaddr *sa,
                  uint64_t now_ms, struct sel_info *info)
{
	sel_entry_info(sel_find(s, sa), now_ms, info);
}

void sel_zone_note(struct sel *s, const struct sockaddr *sa,
                   const uint8_t *zone, size_t zonelen, uint64_t now_ms)
{
	struct sel_entry *e;

	if (zone == NULL || zonelen == 0 || zonelen > SEL_ZONE_MAX)
		return;
	e = sel_get(s, sa, now_ms);
	if (e == NULL)
		return;
	memcpy(e->zone, zone, zonelen);
	e->zonelen = (uint8_t)zonelen;
}

/* The socket address of an entry, port 0. */
static void sel_entry_addr(const struct sel_entry *e,
                           struct sockaddr_storage *ss)
{
	(void)netaddr_make(ss, e->ip, e->family == AF_INET ? 4 : 16, 0);
}

int sel_walk(const struct sel *s, uint64_t now_ms, sel_walk_fn fn, void *arg)
{
	struct sockaddr_storage ss;
	struct sel_info info;
	size_t i;
	int rc;

	for (i = 0; s != NULL && i < s->nslots; i++) {
		const struct sel_entry *e = &s->slot[i];

		if (!e->used)
			continue;
		sel_entry_addr(e, &ss);
		sel_entry_info(e, now_ms, &info);
		rc = fn((const struct sockaddr *)&ss, &info, arg);
		if (rc != 0)
			return rc;
	}
	return 0;
}

const char *sel_error_name(enum sel_error e)
{
	switch (e) {
	case SEL_ERR_TIMEOUT: return "timeout";
	case SEL_ERR_LAME: return "lame";
	case SEL_ERR_BROKEN: return "broken";
	case SEL_ERR_NOEDNS: return "formerr-edns";
	default: return "-";
	}
}

void sel_stats_get(const struct sel *s, struct sel_stats *st)
{
	memset(st, 0, sizeof(*st));
	if (s == NULL)
		return;
	st->entries = s->entries;
	st->slots = s->nslots;
	st->evictions = s->evictions;
}
