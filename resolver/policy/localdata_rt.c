/*
 * resolver/policy/localdata_rt.c - local data added at run time (the control
 * commands local_data and local_data_remove): A and AAAA records kept as
 * hosts lines, built into a finished table that every worker's lookup
 * consults before its files' table. See localdata.h.
 *
 * Design notes:
 * - Only the control thread changes the entries; it builds a new table
 *   and publishes it with one atomic store. A worker loads the pointer
 *   once per lookup and reads the table for microseconds, so a table
 *   replaced is freed only after LOCALDATA_RT_GRACE_S seconds (at a
 *   later change), never at once.
 * - At most LOCALDATA_RT_MAX entries; each is "ADDRESS NAME", the line
 *   form of local-data-file, so names get the same answers (A/AAAA, the
 *   reverse PTR, NODATA for other types).
 */
#include "localdata.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wire/rrtext.h"
#include "wire/wire.h"

/** Bytes of one entry: an IPv6 address, a space, a name. */
#define LOCALDATA_RT_LINE (INET6_ADDRSTRLEN + 1 + WIRE_NAME_TEXT_MAX)
/** Tables replaced and not yet freed. */
#define LOCALDATA_RT_RETIRED 64

/** One entry: its hosts line and the name it answers, lowercase. */
struct localdata_rt_entry {
	char line[LOCALDATA_RT_LINE];
	uint8_t name[WIRE_NAME_MAX];
	size_t namelen;
};

/** A table replaced, and when. */
struct localdata_rt_old {
	struct localdata *ld;
	time_t when;
};

static struct localdata_rt_entry rt_entry[LOCALDATA_RT_MAX];
static size_t rt_n;
static struct localdata *rt_table; /**< read with __atomic_load_n */
static struct localdata_rt_old rt_old[LOCALDATA_RT_RETIRED];
static size_t rt_nold;

const struct localdata *localdata_rt_table(void)
{
	return __atomic_load_n(&rt_table, __ATOMIC_ACQUIRE);
}

/* Free the replaced tables past their grace period. */
static void rt_reap(time_t now, bool all)
{
	size_t i = 0;

	while (i < rt_nold) {
		if (all || now - rt_old[i].when >= LOCALDATA_RT_GRACE_S) {
			localdata_free(rt_old[i].ld);
			rt_old[i] = rt_old[--rt_nold];
		} else {
			i++;
		}
	}
}

/* Build the table of the entries and publish it. */
static int rt_publish(char *err, size_t errlen)
{
	struct localdata *ld = NULL, *was;
	char text[LOCALDATA_RT_LINE + 1];
	size_t i, n;
	int rc;

	rt_reap(time(NULL), false);
	if (rt_nold == LOCALDATA_RT_RETIRED) {
		snprintf(err, errlen,
		         "too many changes at once: try again in "
		         "%d seconds",
		         LOCALDATA_RT_GRACE_S);
		return LOCALDATA_ETOOMANY;
	}
	rc = localdata_new(&ld);
	for (i = 0; i < rt_n && rc == LOCALDATA_OK; i++) {
		n = strnlen(rt_entry[i].line, LOCALDATA_RT_LINE - 1);
		memcpy(text, rt_entry[i].line, n);
		text[n] = '\n';
		rc = localdata_add_text(ld, LOCALDATA_HOSTS, "local_data",
		                        text, n + 1, err, errlen);
	}
	if (rc == LOCALDATA_OK)
		rc = localdata_finish(ld);
	if (rc != LOCALDATA_OK) {
		localdata_free(ld);
		return rc;
	}
	was = __atomic_exchange_n(&rt_table, ld, __ATOMIC_ACQ_REL);
	if (was != NULL) {
		rt_old[rt_nold].ld = was;
		rt_old[rt_nold].when = time(NULL);
		rt_nold++;
	}
	return LOCALDATA_OK;
}

/* "NAME [TTL] [IN] A|AAAA ADDRESS": the name and the address text. */
static int rt_parse(const char *rr, char *name, size_t namecap, char *addr,
                    size_t addrcap)
{
	char w[5][LOCALDATA_RT_LINE];
	int n, i = 1;

	n = sscanf(rr, "%255s %255s %255s %255s %255s", w[0], w[1], w[2], w[3],
	           w[4]);
	if (n < 3)
		return -1;
	if (w[i][0] >= '0' && w[i][0] <= '9' && n > i + 2)
		i++; /* a TTL: local data has its own (LOCALDATA_TTL) */
	if (strcasecmp(w[i], "IN") == 0 && n > i + 2)
		i++;
	if (strcasecmp(w[i], "A") != 0 && strcasecmp(w[i], "AAAA") != 0)
		return -1;
	if (i + 2 != n || strlen(w[0]) >= namecap ||
	    strlen(w[i + 1]) >= addrcap)
		return -1;
	snprintf(name, namecap, "%s", w[0]);
	snprintf(addr, addrcap, "%s", w[i + 1]);
	return strcasecmp(w[i], "A") == 0 ? AF_INET : AF_INET6;
}

int localdata_rt_add(const char *rr, char *err, size_t errlen)
{
	char name[WIRE_NAME_TEXT_MAX], addr[INET6_ADDRSTRLEN];
	uint8_t bin[16];
	struct localdata_rt_entry *e;
	int family, rc;

	family = rt_parse(rr, name, sizeof name, addr, sizeof addr);
	if (family < 0 || inet_pton(family, addr, bin) != 1) {
		snprintf(err, errlen,
		         "not an A or AAAA record: NAME [TTL] "
		         "[IN] A|AAAA ADDRESS");
		return LOCALDATA_EPARSE;
	}
	if (rt_n == LOCALDATA_RT_MAX) {
		snprintf(err, errlen, "more than %d local_data entries",
		         LOCALDATA_RT_MAX);
		return LOCALDATA_ETOOMANY;
	}
	e = &rt_entry[rt_n];
	if (wire_name_from_text(name, strlen(name), e->name, &e->namelen) !=
	    WIRE_OK) {
		snprintf(err, errlen, "not a domain name: %.64s", name);
		return LOCALDATA_EPARSE;
	}
	wire_name_lower(e->name, e->namelen);
	snprintf(e->line, sizeof e->line, "%s %s", addr, name);
	rt_n++;
	rc = rt_publish(err, errlen);
	if (rc != LOCALDATA_OK)
		rt_n--;
	return rc;
}

int localdata_rt_remove(const char *name, size_t *removed, char *err,
                        size_t errlen)
{
	uint8_t wn[WIRE_NAME_MAX];
	size_t len, i = 0, n = 0;

	*removed = 0;
	if (wire_name_from_text(name, strlen(name), wn, &len) != WIRE_OK) {
		snprintf(err, errlen, "not a domain name: %.64s", name);
		return LOCALDATA_EPARSE;
	}
	wire_name_lower(wn, len);
	while (i < rt_n) {
		if (rt_entry[i].namelen == len &&
		    memcmp(rt_entry[i].name, wn, len) == 0) {
			rt_entry[i] = rt_entry[--rt_n];
			n++;
		} else {
			i++;
		}
	}
	*removed = n;
	return n == 0 ? LOCALDATA_OK : rt_publish(err, errlen);
}

size_t localdata_rt_list(char *out, size_t cap)
{
	size_t i, n = 0;
	int k;

	if (cap > 0)
		out[0] = '\0';
	for (i = 0; i < rt_n; i++) {
		char addr[LOCALDATA_RT_LINE];
		const char *sp = strchr(rt_entry[i].line, ' ');
		size_t al = sp != NULL ? (size_t)(sp - rt_entry[i].line) : 0;

		memcpy(addr, rt_entry[i].line, al);
		addr[al] = '\0';
		k = snprintf(n < cap ? out + n : NULL, n < cap ? cap - n : 0,
		             "%s\t%u\tIN\t%s\t%s\n", sp != NULL ? sp + 1 : "",
		             LOCALDATA_TTL, strchr(addr, ':') ? "AAAA" : "A",
		             addr);
		if (k > 0)
			n += (size_t)k;
	}
	return n;
}

void localdata_rt_clear(void)
{
	struct localdata *was;

	rt_n = 0;
	was = __atomic_exchange_n(&rt_table, NULL, __ATOMIC_ACQ_REL);
	localdata_free(was);
	rt_reap(0, true);
}
