/*
 * resolver/stats/topk.h - the busiest query names and clients since the last
 * look: what "curvecache-control top" shows under a flood.
 *
 * Two approximate heavy-hitter counters (space-saving, set-associative):
 * one keyed by the question name, one by the client address. A key hashes
 * to a set of TOPK_WAYS slots; a key already there is counted, a new one
 * takes the slot with the smallest count in its set and inherits that
 * count plus one (so a count is an upper bound, and a key with more
 * than 1/TOPK_WAYS of its set's queries, so surely one with more than
 * 1/TOPK_WAYS of all, is never lost).
 *
 * Design notes:
 * - Bounded memory (three static tables of 16 KB per process, and per
 *   slot one heap block for its key, reused by the slot's next keys while
 *   they fit: topk.c), O(TOPK_WAYS) per query.
 * - Thread-safe and never blocking on the query path: the workers note
 *   queries under a mutex taken with trylock; a note that finds it busy
 *   is counted as skipped instead of waiting (under contention the
 *   counts become a sample, which still shows who dominates).
 * - topk_take reads the top entries and starts a new interval (the
 *   counts are reset), as "stats" resets the counters: two viewers
 *   polling at once split the intervals between them.
 */
#ifndef CURVECACHE_RESOLVER_TOPK_H
#define CURVECACHE_RESOLVER_TOPK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/** Sets of each table, and slots per set. */
#define TOPK_SETS 64
#define TOPK_WAYS 8
/** Longest key: a wire name (255 bytes). */
#define TOPK_KEY_MAX 255
/** Most entries topk_take returns per table. */
#define TOPK_TAKE_MAX 64

/** Which table. */
enum topk_table {
	TOPK_NAMES = 0,
	TOPK_CLIENTS,
	TOPK_SERVERS, /**< upstream servers asked in plain, since start
	                   (topk_note_server; read with topk_peek) */
	TOPK_NTABLES
};

/** One entry as topk_take returns it. */
struct topk_entry {
	uint64_t count;            /**< queries (an upper bound) */
	uint8_t key[TOPK_KEY_MAX]; /**< wire name, or family byte + address */
	size_t keylen;
};

/** The counters (opaque). */
struct topk;

/**
 * The process's counters (static storage; never NULL; valid for the life
 * of the process).
 */
struct topk *topk_shared(void);

/**
 * Create private counters (tests).
 * @return NULL when out of memory; free with topk_free.
 */
struct topk *topk_new(void);

/** Free counters made by topk_new. NULL is allowed. */
void topk_free(struct topk *t);

/**
 * Count a query's name.
 * @param name, len: canonical (lowercase) wire name; longer than
 *   TOPK_KEY_MAX or empty: ignored.
 */
void topk_note_name(struct topk *t, const uint8_t *name, size_t len);

/**
 * Count a query's client.
 * @param sa: AF_INET or AF_INET6 (others are ignored).
 */
void topk_note_client(struct topk *t, const struct sockaddr *sa);

/**
 * Count a query sent in plain to an upstream server (the privacy
 * report): the key is the address (as a client's) followed by the zone
 * the server was asked for (left out when it does not fit).
 * @param sa: AF_INET or AF_INET6 (others are ignored).
 * @param zone, zonelen: wire name of the zone cut; zonelen 0: none.
 */
void topk_note_server(struct topk *t, const struct sockaddr *sa,
                      const uint8_t *zone, size_t zonelen);

/**
 * The busiest entries of one table, most first, without starting a new
 * interval (as topk_take otherwise): the server table counts since the
 * start of the process.
 */
size_t topk_peek(struct topk *t, enum topk_table which, struct topk_entry *out,
                 size_t cap, uint64_t *total, uint64_t *skipped);

/**
 * Merge server entries (topk_note_server's keys) of the same address:
 * their counts are added into the first (the largest, whose zone is
 * kept), the result sorted most first.
 * @param e, n: entries as topk_peek returns them; changed in place.
 * @return the entries left.
 */
size_t topk_merge_servers(struct topk_entry *e, size_t n);

/**
 * Bytes of the address part of a client or server key (family byte
 * included): 5 or 17; 0 for a malformed key.
 */
size_t topk_addr_len(const struct topk_entry *e);

/**
 * The busiest entries of one table since the last take, most first, and
 * start a new interval for that table.
 * @param out, cap: room for at most cap (<= TOPK_TAKE_MAX) entries.
 * @param total: receives the queries noted in the interval.
 * @param skipped: receives the notes skipped (the table was busy).
 * @return the number of entries written.
 */
size_t topk_take(struct topk *t, enum topk_table which, struct topk_entry *out,
                 size_t cap, uint64_t *total, uint64_t *skipped);

/**
 * A client key of topk_take as text.
 * @return buf ("?" for a malformed key).
 */
const char *topk_client_text(const struct topk_entry *e, char *buf,
                             size_t cap);

struct control_out;

/** Entries per table the control command shows by default. */
#define TOPK_SHOW_DEFAULT 10

/**
 * The control command "top_queries [N]" (control_topk.c): the N
 * (default TOPK_SHOW_DEFAULT, at most TOPK_TAKE_MAX) busiest names and
 * clients of topk_shared() since the last such command, then a new
 * interval. Lines:
 *   names queries=TOTAL skipped=SKIPPED
 *   name COUNT NAME            (most first)
 *   clients queries=TOTAL skipped=SKIPPED
 *   client COUNT ADDRESS
 * @param argv, argc: the command's words ("top_queries" [N]).
 * @return NULL, or an error message (static).
 */
const char *control_topk_write(char **argv, size_t argc,
                               struct control_out *out);

#endif /* CURVECACHE_RESOLVER_TOPK_H */
