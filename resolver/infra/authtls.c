/*
 * resolver/infra/authtls.c - the RFC 9539 state of each authoritative
 * server address (see authtls.h).
 *
 * A fixed array of entries addressed by a hash of the address with a
 * probe window of AUTHTLS_PROBE_MAX slots. Nothing here allocates after
 * authtls_new.
 */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "authtls.h"

#include "base/netaddr.h"

/** Bytes of an address key (IPv6-sized). */
#define AUTHTLS_ADDR_BYTES 16
/** Mixing shift of the slot hash. */
#define AUTHTLS_HASH_SHIFT 29

/** What the table knows about one address. */
struct authtls_entry {
	bool used;
	uint8_t family; /**< AF_INET or AF_INET6 */
	uint8_t ip[AUTHTLS_ADDR_BYTES];
	uint8_t state;       /**< enum authtls_state */
	uint64_t until_ms;   /**< end of the state (probe deadline,
	                          damping, persistence) */
	uint64_t touched_ms; /**< last write: LRU for eviction */
};

struct authtls {
	size_t nslots;       /**< a power of two */
	uint64_t damping_ms; /**< no new probe after a failure for this long */
	struct authtls_stats st;
	struct authtls_entry *slot;
};

/** An address reduced to its lookup key. */
struct authtls_key {
	uint8_t family;
	uint8_t ip[AUTHTLS_ADDR_BYTES];
};

const char *authtls_strerror(int status)
{
	switch (status) {
	case AUTHTLS_OK: return "ok";
	case AUTHTLS_EINVAL: return "invalid argument";
	case AUTHTLS_ENOMEM: return "out of memory";
	default: return "unknown authtls status";
	}
}

const char *authtls_state_name(enum authtls_state st)
{
	switch (st) {
	case AUTHTLS_UNKNOWN: return "unknown";
	case AUTHTLS_PROBING: return "probing";
	case AUTHTLS_WORKS: return "tls";
	case AUTHTLS_FAILED: return "failed";
	case AUTHTLS_CURVE: return "curve";
	default: return "?";
	}
}

int authtls_new(size_t slots, uint64_t damping_ms, struct authtls **out)
{
	struct authtls *t;
	size_t n = AUTHTLS_SLOTS_MIN;

	if (out == NULL)
		return AUTHTLS_EINVAL;
	if (slots == 0)
		slots = AUTHTLS_SLOTS_DEFAULT;
	if (slots > AUTHTLS_SLOTS_MAX)
		return AUTHTLS_EINVAL;
	while (n < slots)
		n <<= 1;
	if ((t = calloc(1, sizeof *t)) == NULL)
		return AUTHTLS_ENOMEM;
	if ((t->slot = calloc(n, sizeof *t->slot)) == NULL) {
		free(t);
		return AUTHTLS_ENOMEM;
	}
	t->nslots = n;
	t->damping_ms = damping_ms != 0 ? damping_ms : AUTHTLS_DAMPING_MS;
	t->st.slots = n;
	*out = t;
	return AUTHTLS_OK;
}

void authtls_free(struct authtls *t)
{
	if (t == NULL)
		return;
	free(t->slot);
	free(t);
}

/* Reduce a socket address to a key; v4-mapped IPv6 counts as IPv4. */
static bool key_of(const struct sockaddr *sa, struct authtls_key *k)
{
	size_t len;
	const uint8_t *b;

	memset(k, 0, sizeof *k);
	if (sa == NULL || (b = netaddr_unmapped(sa, &len)) == NULL)
		return false;
	k->family = len == 4 ? AF_INET : AF_INET6;
	memcpy(k->ip, b, len);
	return true;
}

static size_t home_of(const struct authtls *t, const struct authtls_key *k)
{
	uint64_t h = base_fnv1a(&k->family, 1, 0);

	h = base_fnv1a_add(h, k->ip, AUTHTLS_ADDR_BYTES, 0);
	return (size_t)(h ^ (h >> AUTHTLS_HASH_SHIFT)) & (t->nslots - 1);
}

static bool same_key(const struct authtls_entry *e,
                     const struct authtls_key *k)
{
	return e->used && e->family == k->family &&
	       memcmp(e->ip, k->ip, AUTHTLS_ADDR_BYTES) == 0;
}

static struct authtls_entry *find(const struct authtls *t,
                                  const struct authtls_key *k)
{
	size_t i, home = home_of(t, k);

	for (i = 0; i < AUTHTLS_PROBE_MAX; i++) {
		struct authtls_entry *e =
			&t->slot[(home + i) & (t->nslots - 1)];

		if (same_key(e, k))
			return e;
	}
	return NULL;
}

/* The entry of k, made UNKNOWN in a free slot of its window or in place
 * of the least recently touched one. */
static struct authtls_entry *get(struct authtls *t,
                                 const struct authtls_key *k, uint64_t now)
{
	struct authtls_entry *e = find(t, k), *old = NULL;
	size_t i, home = home_of(t, k);

	if (e != NULL)
		return e;
	for (i = 0; i < AUTHTLS_PROBE_MAX; i++) {
		e = &t->slot[(home + i) & (t->nslots - 1)];
		if (!e->used)
			break;
		if (old == NULL || e->touched_ms < old->touched_ms)
			old = e;
		e = NULL;
	}
	if (e == NULL) {
		e = old;
		t->st.evictions++;
	} else {
		t->st.entries++;
	}
	memset(e, 0, sizeof *e);
	e->used = true;
	e->family = k->family;
	memcpy(e->ip, k->ip, AUTHTLS_ADDR_BYTES);
	e->touched_ms = now;
	return e;
}

static void set_state(struct authtls_entry *e, enum authtls_state st,
                      uint64_t until, uint64_t now)
{
	e->state = (uint8_t)st;
	e->until_ms = until;
	e->touched_ms = now;
}

/* The state as time has made it: an expired damping, persistence or
 * CURVE mark reads as UNKNOWN, a probe past its deadline as FAILED. */
static enum authtls_state effective(const struct authtls_entry *e,
                                    uint64_t now)
{
	enum authtls_state st = (enum authtls_state)e->state;

	if (now < e->until_ms)
		return st;
	return st == AUTHTLS_PROBING ? AUTHTLS_FAILED : AUTHTLS_UNKNOWN;
}

static void fail_at(struct authtls *t, struct authtls_entry *e, uint64_t at,
                    uint64_t now)
{
	t->st.failures++;
	set_state(e, AUTHTLS_FAILED, at + t->damping_ms, now);
}

enum authtls_use authtls_use(struct authtls *t, const struct sockaddr *sa,
                             uint64_t now_ms)
{
	struct authtls_key k;
	struct authtls_entry *e;

	if (t == NULL || !key_of(sa, &k))
		return AUTHTLS_USE_PLAIN;
	e = get(t, &k, now_ms);
	switch (effective(e, now_ms)) {
	case AUTHTLS_WORKS: return AUTHTLS_USE_TLS;
	case AUTHTLS_UNKNOWN:
		t->st.probes++;
		set_state(e, AUTHTLS_PROBING,
		          now_ms + AUTHTLS_PROBE_TIMEOUT_MS, now_ms);
		return AUTHTLS_USE_PROBE;
	case AUTHTLS_FAILED:
		if (e->state == AUTHTLS_PROBING) /* its probe timed out */
			fail_at(t, e, e->until_ms, now_ms);
		return AUTHTLS_USE_PLAIN;
	case AUTHTLS_PROBING:
	case AUTHTLS_CURVE:
	default: return AUTHTLS_USE_PLAIN;
	}
}

void authtls_ok(struct authtls *t, const struct sockaddr *sa, uint64_t now_ms)
{
	struct authtls_key k;
	struct authtls_entry *e;
	enum authtls_state st;

	if (t == NULL || !key_of(sa, &k) || (e = find(t, &k)) == NULL)
		return;
	st = (enum authtls_state)e->state;
	if (st != AUTHTLS_PROBING && st != AUTHTLS_WORKS)
		return;
	if (st == AUTHTLS_PROBING)
		t->st.works++;
	set_state(e, AUTHTLS_WORKS, now_ms + AUTHTLS_PERSIST_MS, now_ms);
}

void authtls_fail(struct authtls *t, const struct sockaddr *sa,
                  uint64_t now_ms)
{
	struct authtls_key k;
	struct authtls_entry *e;

	if (t == NULL || !key_of(sa, &k))
		return;
	e = get(t, &k, now_ms);
	/* a DNSCurve server stays one; a failure already damped (a probe
	 * that timed out, then its connection) is counted once */
	if ((e->state == AUTHTLS_CURVE || e->state == AUTHTLS_FAILED) &&
	    now_ms < e->until_ms)
		return;
	fail_at(t, e, now_ms, now_ms);
}

void authtls_curve(struct authtls *t, const struct sockaddr *sa,
                   uint64_t now_ms)
{
	struct authtls_key k;

	if (t == NULL || !key_of(sa, &k))
		return;
	set_state(get(t, &k, now_ms), AUTHTLS_CURVE,
	          now_ms + AUTHTLS_PERSIST_MS, now_ms);
}

void authtls_damping_set(struct authtls *t, uint64_t damping_ms)
{
	if (t != NULL)
		t->damping_ms = damping_ms != 0 ? damping_ms :
		                                  AUTHTLS_DAMPING_MS;
}

void authtls_forget(struct authtls *t, const struct sockaddr *sa)
{
	struct authtls_key k;
	struct authtls_entry *e;

	if (t == NULL || !key_of(sa, &k) || (e = find(t, &k)) == NULL)
		return;
	memset(e, 0, sizeof *e);
	t->st.entries--;
}

enum authtls_state authtls_state_of(const struct authtls *t,
                                    const struct sockaddr *sa, uint64_t now_ms,
                                    uint64_t *until_ms)
{
	struct authtls_key k;
	const struct authtls_entry *e;
	enum authtls_state st = AUTHTLS_UNKNOWN;

	if (until_ms != NULL)
		*until_ms = 0;
	if (t == NULL || !key_of(sa, &k) || (e = find(t, &k)) == NULL)
		return AUTHTLS_UNKNOWN;
	st = effective(e, now_ms);
	if (until_ms != NULL && st != AUTHTLS_UNKNOWN)
		*until_ms = st == AUTHTLS_FAILED &&
		                            e->state == AUTHTLS_PROBING ?
		                    e->until_ms + t->damping_ms :
		                    e->until_ms;
	return st;
}

void authtls_stats(const struct authtls *t, struct authtls_stats *out)
{
	if (t == NULL) {
		memset(out, 0, sizeof *out);
		return;
	}
	*out = t->st;
}
