/*
 * resolver/stats/fwdstate.h - the state of each DNS-over-TLS forwarder's
 * connections, as curvecache-control list_forwards shows it.
 *
 * One table for the process (the workers each keep their own connection
 * to a forwarder; transport/dot.c reports its changes here, which happen
 * per connection, never per query), locked, a fixed number of entries;
 * a forwarder past the table is simply not shown.
 */
#ifndef CURVECACHE_RESOLVER_FWDSTATE_H
#define CURVECACHE_RESOLVER_FWDSTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

/** Forwarders the table keeps at most. */
#define FWDSTATE_MAX 128
/** Bytes of a failure's reason kept. */
#define FWDSTATE_WHY_BYTES 128

/** What happened to one connection. */
enum fwdstate_event {
	FWDSTATE_UP = 0, /**< handshake and checks passed */
	FWDSTATE_DOWN,   /**< an up connection closed (idle, by the peer) */
	FWDSTATE_FAILED  /**< connect, handshake or check failed */
};

/** Bytes of an SPKI pin. */
#define FWDSTATE_PIN_BYTES 32

/** Record an event of a connection to (sa, name, pin); why for FAILED.
 *  pin: FWDSTATE_PIN_BYTES or NULL (the same server with another pin is
 *  another entry). A connection without a name (opportunistic TLS to an
 *  authoritative server) is not a forwarder's: ignored. */
void fwdstate_note(const struct sockaddr *sa, const char *name,
                   const uint8_t *pin, enum fwdstate_event ev,
                   const char *why);

/**
 * The state of (sa, name) as text: "connected (N)", "idle",
 * "failing (REASON)", or "not used yet".
 */
void fwdstate_text(const struct sockaddr *sa, const char *name,
                   const uint8_t *pin, char *out, size_t cap);

/** Forget every entry (tests). */
void fwdstate_clear(void);

#endif /* CURVECACHE_RESOLVER_FWDSTATE_H */
