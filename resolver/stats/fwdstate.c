/*
 * resolver/stats/fwdstate.c - the state of DNS-over-TLS forwarders'
 * connections for list_forwards (see fwdstate.h).
 */
#include "fwdstate.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/netaddr.h"

/** Bytes of an AUTH-NAME kept (longer names are cut: display only). */
#define FWDSTATE_NAME_BYTES 256

struct fwdstate_entry {
	bool used;
	uint8_t ip[16];
	size_t iplen;
	uint16_t port;
	char name[FWDSTATE_NAME_BYTES];
	bool has_pin;
	uint8_t pin[FWDSTATE_PIN_BYTES];
	unsigned up;  /**< connections up now (one per worker at most) */
	bool failing; /**< the last event was a failure */
	char why[FWDSTATE_WHY_BYTES];
};

static pthread_mutex_t fwdstate_mu = PTHREAD_MUTEX_INITIALIZER;
static struct fwdstate_entry fwdstate_tab[FWDSTATE_MAX];

/* The entry of (sa, name), made when add; NULL if none or full. */
static struct fwdstate_entry *fwdstate_find(const struct sockaddr *sa,
                                            const char *name,
                                            const uint8_t *pin, bool add)
{
	size_t len, i;
	const uint8_t *ip = netaddr_bytes(sa, &len);
	struct fwdstate_entry *free_e = NULL, *e;

	if (ip == NULL || name == NULL)
		return NULL;
	for (i = 0; i < FWDSTATE_MAX; i++) {
		e = &fwdstate_tab[i];
		if (!e->used) {
			free_e = free_e != NULL ? free_e : e;
			continue;
		}
		if (e->iplen == len && memcmp(e->ip, ip, len) == 0 &&
		    e->port == netaddr_port(sa) &&
		    strncmp(e->name, name, sizeof e->name - 1) == 0 &&
		    e->has_pin == (pin != NULL) &&
		    (pin == NULL || memcmp(e->pin, pin, sizeof e->pin) == 0))
			return e;
	}
	if (!add || free_e == NULL)
		return NULL;
	memset(free_e, 0, sizeof *free_e);
	free_e->used = true;
	memcpy(free_e->ip, ip, len);
	free_e->iplen = len;
	free_e->port = netaddr_port(sa);
	snprintf(free_e->name, sizeof free_e->name, "%s", name);
	free_e->has_pin = pin != NULL;
	if (pin != NULL)
		memcpy(free_e->pin, pin, sizeof free_e->pin);
	return free_e;
}

void fwdstate_note(const struct sockaddr *sa, const char *name,
                   const uint8_t *pin, enum fwdstate_event ev, const char *why)
{
	struct fwdstate_entry *e;

	if (name == NULL || name[0] == '\0')
		return; /* no AUTH-NAME: an authoritative server (RFC 9539) */
	pthread_mutex_lock(&fwdstate_mu);
	if ((e = fwdstate_find(sa, name, pin, true)) != NULL) {
		if (ev == FWDSTATE_UP) {
			e->up++;
			e->failing = false;
		} else if (ev == FWDSTATE_DOWN) {
			e->up -= e->up > 0 ? 1 : 0;
		} else {
			e->failing = true;
			snprintf(e->why, sizeof e->why, "%s",
			         why != NULL ? why : "");
		}
	}
	pthread_mutex_unlock(&fwdstate_mu);
}

void fwdstate_text(const struct sockaddr *sa, const char *name,
                   const uint8_t *pin, char *out, size_t cap)
{
	const struct fwdstate_entry *e;

	pthread_mutex_lock(&fwdstate_mu);
	e = fwdstate_find(sa, name, pin, false);
	if (e == NULL)
		snprintf(out, cap, "not used yet");
	else if (e->failing)
		snprintf(out, cap, "failing (%s)", e->why);
	else if (e->up > 0)
		snprintf(out, cap, "connected (%u)", e->up);
	else
		snprintf(out, cap, "idle");
	pthread_mutex_unlock(&fwdstate_mu);
}

void fwdstate_clear(void)
{
	pthread_mutex_lock(&fwdstate_mu);
	memset(fwdstate_tab, 0, sizeof fwdstate_tab);
	pthread_mutex_unlock(&fwdstate_mu);
}
