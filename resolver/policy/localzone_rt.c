/*
 * resolver/policy/localzone_rt.c - local zones and data changed at run time
 * (the control commands local_zone, local_zone_remove, local_zones,
 * local_zones_remove, local_data, local_data_remove, local_datas,
 * local_datas_remove). See localzone.h.
 *
 * Design notes:
 * - Only the control thread changes the working table (rt_work, never
 *   read by a worker). After each command it copies it into a new table
 *   and publishes that with one atomic store; a worker loads the pointer
 *   once per lookup and reads the table for microseconds, so a replaced
 *   table is freed LOCALZONE_RT_GRACE_S seconds later (at a later
 *   change), never at once. A bulk command publishes once.
 * - A zone removed at run time is a node marked LZ_REMOVED: it hides the
 *   configured zone of that name. Records added or removed at a name
 *   (LZ_F_DATASET) replace the configured records of that name.
 */
#include "localzone_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wire/rrtext.h"
#include "wire/wire.h"

/** Tables replaced and not yet freed. */
#define LZ_RT_RETIRED 64

/** A table replaced, and when. */
struct lz_rt_old {
	struct localzone *lz;
	time_t when;
};

static struct localzone *rt_work;  /**< the control thread's */
static struct localzone *rt_table; /**< read with __atomic_load_n */
static struct lz_rt_old rt_old[LZ_RT_RETIRED];
static size_t rt_nold;
/** The records added, as text (list_local_data): "NAME TTL IN TYPE
 *  RDATA" and the owner's wire name before it (length byte first). */
static char **rt_text;
static size_t rt_ntext, rt_captext;

const struct localzone *localzone_rt_table(void)
{
	return __atomic_load_n(&rt_table, __ATOMIC_ACQUIRE);
}

static void rt_reap(time_t now, bool all)
{
	size_t i = 0;

	while (i < rt_nold) {
		if (all || now - rt_old[i].when >= LOCALZONE_RT_GRACE_S) {
			localzone_free(rt_old[i].lz);
			rt_old[i] = rt_old[--rt_nold];
		} else {
			i++;
		}
	}
}

static int vec_clone(struct lz_vec *to, const struct lz_vec *from, size_t elem)
{
	to->n = to->cap = from->n;
	to->p = NULL;
	if (from->n == 0)
		return 0;
	to->p = malloc(from->n * elem);
	if (to->p == NULL)
		return -1;
	memcpy(to->p, from->p, from->n * elem);
	return 0;
}

static struct localzone *rt_clone(const struct localzone *w)
{
	struct localzone *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return NULL;
	c->nzones = w->nzones;
	memcpy(c->tld, w->tld, sizeof c->tld);
	c->nslots = w->nslots;
	c->slots = malloc(w->nslots * sizeof(*c->slots));
	if (c->slots == NULL ||
	    vec_clone(&c->nodes, &w->nodes, sizeof(struct lz_node)) != 0 ||
	    vec_clone(&c->names, &w->names, 1) != 0 ||
	    vec_clone(&c->rrs, &w->rrs, sizeof(struct lz_rr)) != 0 ||
	    vec_clone(&c->rdata, &w->rdata, 1) != 0) {
		localzone_free(c);
		return NULL;
	}
	memcpy(c->slots, w->slots, w->nslots * sizeof(*c->slots));
	return c;
}

/* Publish a copy of the working table. */
static int rt_publish(char *err, size_t errlen)
{
	struct localzone *c, *was;

	rt_reap(time(NULL), false);
	if (rt_nold == LZ_RT_RETIRED) {
		snprintf(err, errlen,
		         "too many changes at once: try again in %d seconds",
		         LOCALZONE_RT_GRACE_S);
		return LOCALZONE_ETOOMANY;
	}
	c = rt_clone(rt_work);
	if (c == NULL) {
		snprintf(err, errlen, "out of memory");
		return LOCALZONE_ENOMEM;
	}
	was = __atomic_exchange_n(&rt_table, c, __ATOMIC_ACQ_REL);
	if (was != NULL) {
		rt_old[rt_nold].lz = was;
		rt_old[rt_nold].when = time(NULL);
		rt_nold++;
	}
	return LOCALZONE_OK;
}

/* A copy of a line without blanks at either end and without one pair of
 * double quotes around it. */
static void rt_unquote(const char *line, char *out, size_t cap)
{
	size_t n;

	while (*line == ' ' || *line == '\t')
		line++;
	snprintf(out, cap, "%s", line);
	n = strlen(out);
	while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == '\t' ||
	                 out[n - 1] == '\r' || out[n - 1] == '\n'))
		out[--n] = '\0';
	if (n >= 2 && out[0] == '"' && out[n - 1] == '"') {
		memmove(out, out + 1, n - 2);
		out[n - 2] = '\0';
	}
}

/* A name alone, maybe quoted, into lowercase wire form. */
static int rt_name(char *text, uint8_t *name, size_t *len)
{
	size_t n = strlen(text);

	if (n >= 2 && text[0] == '"' && text[n - 1] == '"') {
		text[n - 1] = '\0';
		text++;
	}
	if (cfg_name_parse(text, name, len) != 0 || *len < 2)
		return -1;
	return 0;
}

/* "NAME TYPE" or "NAME" (remove): a zone. */
static int rt_zone(char *text, bool remove, char *err, size_t errlen)
{
	char *save = NULL, *name = strtok_r(text, " \t", &save);
	char *type = strtok_r(NULL, " \t", &save);
	uint8_t wire[WIRE_NAME_MAX];
	size_t len;
	struct lz_node *n;
	int t = LZ_REMOVED;

	if (name == NULL || rt_name(name, wire, &len) != 0) {
		snprintf(err, errlen, "bad zone name \"%.60s\"",
		         name != NULL ? name : "");
		return LOCALZONE_EINVAL;
	}
	if (!remove) {
		t = type != NULL ? cfg_lz_type_parse(type) : -1;
		if (t < 0 || strtok_r(NULL, " \t", &save) != NULL) {
			snprintf(err, errlen,
			         "want NAME TYPE (static, transparent, "
			         "always_nxdomain, ...), not a type \"%.40s\"",
			         type != NULL ? type : "");
			return LOCALZONE_EINVAL;
		}
		if (t == CFG_LZ_NODEFAULT)
			t = LZ_REMOVED;
	}
	n = lz_node_get(rt_work, wire, len);
	if (n == NULL) {
		snprintf(err, errlen, "too many runtime local zones");
		return LOCALZONE_ETOOMANY;
	}
	lz_set_zone(rt_work, n, (unsigned)t);
	return LOCALZONE_OK;
}

/* Forget the texts of a name's records. */
static void rt_text_drop(const uint8_t *name, size_t len)
{
	size_t i = 0;

	while (i < rt_ntext) {
		if ((size_t)(uint8_t)rt_text[i][0] == len &&
		    memcmp(rt_text[i] + 1, name, len) == 0) {
			free(rt_text[i]);
			rt_text[i] = rt_text[--rt_ntext];
		} else {
			i++;
		}
	}
}

/* Keep the text of a record added. */
static int rt_text_add(const struct cfg_local_data *d)
{
	char owner[WIRE_NAME_TEXT_MAX], type[RRTEXT_NAME_MAX], *t;
	size_t need;

	if (wire_name_to_text(d->name, d->namelen, owner, sizeof owner,
	                      NULL) != WIRE_OK)
		return -1;
	if (rt_ntext == rt_captext) {
		size_t cap = rt_captext ? rt_captext * 2 : 64;
		char **nt = realloc(rt_text, cap * sizeof(*nt));

		if (nt == NULL)
			return -1;
		rt_text = nt;
		rt_captext = cap;
	}
	need = 1 + d->namelen + strlen(owner) + d->rdlen + 64;
	t = malloc(need);
	if (t == NULL)
		return -1;
	t[0] = (char)d->namelen;
	memcpy(t + 1, d->name, d->namelen);
	snprintf(t + 1 + d->namelen, need - 1 - d->namelen,
	         "%s\t%u\tIN\t%s\t%.*s", owner, d->ttl,
	         rrtext_type_name(d->type, type), (int)d->rdlen, d->rdata);
	rt_text[rt_ntext++] = t;
	return 0;
}

size_t localzone_rt_list_data(char *out, size_t cap)
{
	size_t i, n = 0;
	int k;

	if (cap > 0)
		out[0] = '\0';
	for (i = 0; i < rt_ntext; i++) {
		const char *t = rt_text[i] + 1 + (uint8_t)rt_text[i][0];

		k = snprintf(n < cap ? out + n : NULL, n < cap ? cap - n : 0,
		             "%s\n", t);
		if (k > 0)
			n += (size_t)k;
	}
	return n;
}

/* "RR" (add) or "NAME" (remove): local data. */
static int rt_data(char *text, bool remove, char *err, size_t errlen)
{
	struct cfg_local_data d;
	struct lz_node *n;

	if (remove) {
		if (rt_name(text, d.name, &d.namelen) != 0) {
			snprintf(err, errlen, "bad name \"%.60s\"", text);
			return LOCALZONE_EINVAL;
		}
	} else if (cfg_local_data_parse(text, &d, err, errlen) != 0) {
		return LOCALZONE_EINVAL;
	}
	n = lz_node_get(rt_work, d.name, d.namelen);
	if (n == NULL) {
		snprintf(err, errlen, "too many runtime local data");
		return LOCALZONE_ETOOMANY;
	}
	if (remove || !(n->flags & LZ_F_DATASET)) {
		n->first = n->last = LZ_NO_RR; /* replaces the config's */
		rt_text_drop(d.name, d.namelen);
	}
	n->flags |= LZ_F_DATASET;
	if (remove)
		return LOCALZONE_OK;
	if (lz_add_data(rt_work, &d, err, errlen) != 0)
		return LOCALZONE_EINVAL;
	return rt_text_add(&d) == 0 ? LOCALZONE_OK : LOCALZONE_ENOMEM;
}

static int rt_one(int op, const char *line, char *err, size_t errlen)
{
	char text[LOCALZONE_RT_LINE_MAX];

	rt_unquote(line, text, sizeof text);
	if (text[0] == '\0')
		return LOCALZONE_ENOTLOCAL; /* a blank line: skipped */
	switch (op) {
	case LOCALZONE_RT_ZONE: return rt_zone(text, false, err, errlen);
	case LOCALZONE_RT_ZONE_REMOVE: return rt_zone(text, true, err, errlen);
	case LOCALZONE_RT_DATA: return rt_data(text, false, err, errlen);
	case LOCALZONE_RT_DATA_REMOVE: return rt_data(text, true, err, errlen);
	default: return LOCALZONE_EINVAL;
	}
}

int localzone_rt_apply(int op, const char *const *lines, size_t n,
                       size_t *done, localzone_rt_bad_fn *bad, void *arg,
                       char *err, size_t errlen)
{
	char why[LOCALZONE_RT_LINE_MAX];
	size_t i, nbad = 0;
	int rc = LOCALZONE_OK;

	*done = 0;
	if (errlen > 0)
		err[0] = '\0';
	if (rt_work == NULL && (rt_work = lz_alloc()) == NULL)
		return LOCALZONE_ENOMEM;
	for (i = 0; i < n; i++) {
		why[0] = '\0';
		rc = rt_one(op, lines[i], why, sizeof why);
		if (rc == LOCALZONE_OK) {
			(*done)++;
			continue;
		}
		if (rc == LOCALZONE_ENOTLOCAL)
			continue; /* blank */
		if (nbad++ == 0)
			snprintf(err, errlen, "%s", why);
		if (bad != NULL)
			bad(arg, i, why);
		if (rc == LOCALZONE_ETOOMANY || rc == LOCALZONE_ENOMEM)
			return rc;
	}
	if (*done == 0)
		return nbad > 0 ? LOCALZONE_EINVAL : LOCALZONE_OK;
	rc = rt_publish(why, sizeof why);
	if (rc != LOCALZONE_OK)
		snprintf(err, errlen, "%s", why);
	return rc;
}

size_t localzone_rt_list(char *out, size_t cap)
{
	const struct localzone *t = rt_work;
	const struct lz_node *nodes;
	char name[WIRE_NAME_TEXT_MAX];
	size_t i, n = 0;
	int k;

	if (cap > 0)
		out[0] = '\0';
	if (t == NULL)
		return 0;
	nodes = t->nodes.p;
	for (i = 0; i < t->nodes.n; i++) {
		if (nodes[i].zone == LZ_NONE ||
		    wire_name_to_text(lz_name(t, &nodes[i]), nodes[i].len,
		                      name, sizeof name, NULL) != WIRE_OK)
			continue;
		k = snprintf(n < cap ? out + n : NULL, n < cap ? cap - n : 0,
		             "%s %s\n", name,
		             nodes[i].zone == LZ_REMOVED ?
		                     "removed" :
		                     cfg_lz_type_name(nodes[i].zone));
		if (k > 0)
			n += (size_t)k;
	}
	return n;
}

void localzone_rt_clear(void)
{
	struct localzone *was;

	was = __atomic_exchange_n(&rt_table, NULL, __ATOMIC_ACQ_REL);
	localzone_free(was);
	localzone_free(rt_work);
	rt_work = NULL;
	rt_reap(0, true);
	while (rt_ntext > 0)
		free(rt_text[--rt_ntext]);
	free(rt_text);
	rt_text = NULL;
	rt_captext = 0;
}
