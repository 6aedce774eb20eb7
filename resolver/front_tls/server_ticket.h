/*
 * resolver/front_tls/server_ticket.h - the session-ticket keys of DNS over
 * TLS and DNS over HTTPS for clients (RFC 8446 s4.6.1, RFC 5077).
 *
 * One key encrypts the tickets issued during an interval
 * (tls-ticket-rotate:, default an hour); the key before it still
 * decrypts them (and the ticket is renewed under the new key), so a
 * ticket resumes for two intervals at most, and a key read from memory
 * opens no ticket older than that. The keys are random, never written
 * anywhere, and the process's: every worker's contexts share them (a
 * ticket issued by one worker resumes on another), before and after a
 * reload. Each worker's timer rotates them (the first one due does);
 * a ticket issued when a timer is late rotates them first.
 *
 * The ring's rules take the time as an argument (unit-tested);
 * server_ticket_attach hands them to libssl as the ticket-key callback.
 */
#ifndef CURVECACHE_RESOLVER_SERVER_TICKET_H
#define CURVECACHE_RESOLVER_SERVER_TICKET_H

#include <stdbool.h>
#include <stdint.h>

/** Bytes of a key's name (sent in the clear in each ticket), of its
 *  AES-256-CBC key and of its HMAC-SHA256 key. */
#define SERVER_TICKET_NAME 16
#define SERVER_TICKET_AES 32
#define SERVER_TICKET_HMAC 32

/** One ticket key. */
struct server_ticket_key {
	uint8_t name[SERVER_TICKET_NAME];
	uint8_t aes[SERVER_TICKET_AES];
	uint8_t hmac[SERVER_TICKET_HMAC];
	int64_t born; /**< when it began to encrypt (Unix seconds) */
};

/** The current key and the one before it. */
struct server_ticket_ring {
	struct server_ticket_key key[2]; /**< [0] current, [1] previous */
	unsigned n;                      /**< keys held, 0 to 2 */
	int64_t life;                    /**< seconds a key encrypts */
};

/**
 * Is a new key due: none yet, the current one has encrypted for its
 * interval, or the clock went back past its birth?
 * @param r: the ring.
 * @param now: Unix seconds.
 */
bool server_ticket_due(const struct server_ticket_ring *r, int64_t now);

/**
 * Make k the current key; the current one becomes the previous one,
 * the previous one is wiped.
 * @param r: the ring.
 * @param k: the new key (its born set by the caller).
 */
void server_ticket_push(struct server_ticket_ring *r,
                        const struct server_ticket_key *k);

/**
 * The key of a ticket's key name, if it still decrypts: born no later
 * than now and less than two intervals ago.
 * @param r: the ring.
 * @param name: SERVER_TICKET_NAME bytes from the ticket.
 * @param now: Unix seconds.
 * @return 0 (the current key), 1 (the previous: renew the ticket) or -1
 *   (none: a full handshake).
 */
int server_ticket_find(const struct server_ticket_ring *r, const uint8_t *name,
                       int64_t now);

struct tls_ctx;
struct server;

/**
 * Have a server context issue and take tickets with the process's keys.
 * @param ctx: a context of tls_ctx_serve (transport/tls.h).
 * @param life: seconds a key encrypts (cfg tls-ticket-rotate); the last
 *   call's value holds for the process.
 * @return 0, or -1 when libssl refused the callback.
 */
int server_ticket_attach(struct tls_ctx *ctx, uint32_t life);

/**
 * Rotate the process's keys when due (a new random key; logged).
 * @param now: Unix seconds.
 */
void server_ticket_tick(int64_t now);

/**
 * Start the worker's rotation timer (once: a reload changes the ring's
 * interval, not the timer's pace; it does not keep the loop running).
 * @param s: the worker.
 * @param life: seconds a key encrypts; the timer looks an eighth as
 *   often (from a second to a minute).
 */
void server_ticket_start(struct server *s, uint32_t life);

/** Close the worker's rotation timer (server_stop). */
void server_ticket_stop(struct server *s);

#endif /* CURVECACHE_RESOLVER_SERVER_TICKET_H */
