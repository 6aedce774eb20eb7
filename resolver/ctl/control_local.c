/*
 * resolver/ctl/control_local.c - the local zone and local data commands,
 * with Unbound's names and input forms (see control.h):
 *
 *   local_zone NAME TYPE        local_zone_remove NAME
 *   local_data "RR"             local_data_remove NAME
 *   local_zones, local_zones_remove, local_datas, local_datas_remove:
 *                               the same, one argument a line, read after
 *                               the command line (curvecache-control and
 *                               unbound-control send their standard input)
 *   list_local_zones, list_local_data
 *
 * A bulk command's lines end at the end of the stream, or at a line of
 * one byte 0x04 (what unbound-control sends); each bad line is answered
 * "error for input line: LINE", then "added N zones" (removed, datas),
 * as Unbound does. The changes go to the runtime table
 * (policy/localzone.h): every worker sees them at its next query; they
 * survive reloads.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conf/cfg.h"
#include "control_int.h"
#include "policy/localzone.h"
#include "wire/rrtext.h"
#include "wire/wire.h"

/** Most lines of one bulk command. */
#define CTL_BULK_LINES_MAX 4000000u
/** The line that ends a bulk command's input (unbound-control's). */
#define CTL_BULK_EOT 0x04

/** A bulk command's input being read. */
struct control_bulk {
	int op;           /**< enum localzone_rt_op */
	const char *what; /**< "zones" or "datas" */
	bool remove;      /**< "removed" else "added" */
	char **lines;     /**< lines read */
	size_t n, cap;
	char part[LOCALZONE_RT_LINE_MAX]; /**< a line not yet ended */
	size_t plen;
	bool skipping; /**< an over-long line: to its end */
};

/** The operation of each command. */
static const struct {
	const char *name;
	int op;
	bool bulk;
} ctl_local_ops[] = {
	{ "local_zone", LOCALZONE_RT_ZONE, false },
	{ "local_zone_remove", LOCALZONE_RT_ZONE_REMOVE, false },
	{ "local_data", LOCALZONE_RT_DATA, false },
	{ "local_data_remove", LOCALZONE_RT_DATA_REMOVE, false },
	{ "local_zones", LOCALZONE_RT_ZONE, true },
	{ "local_zones_remove", LOCALZONE_RT_ZONE_REMOVE, true },
	{ "local_datas", LOCALZONE_RT_DATA, true },
	{ "local_datas_remove", LOCALZONE_RT_DATA_REMOVE, true },
};

void control_bulk_free(struct control_bulk *b)
{
	size_t i;

	if (b == NULL)
		return;
	for (i = 0; i < b->n; i++)
		free(b->lines[i]);
	free(b->lines);
	free(b);
}

/* Keep one line of input; false when out of memory or too many. */
static bool bulk_keep(struct control_bulk *b, const char *line, size_t len)
{
	char *l;

	if (len > 0 && line[len - 1] == '\r')
		len--;
	if (len == 0)
		return true;
	if (b->n == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 256;
		char **nl;

		if (cap > CTL_BULK_LINES_MAX)
			return false;
		nl = realloc(b->lines, cap * sizeof(*nl));
		if (nl == NULL)
			return false;
		b->lines = nl;
		b->cap = cap;
	}
	l = malloc(len + 1);
	if (l == NULL)
		return false;
	memcpy(l, line, len);
	l[len] = '\0';
	b->lines[b->n++] = l;
	return true;
}

/** What a bad line's message needs. */
struct ctl_bad {
	struct control_out *out;
	char *const *lines;
	size_t n; /**< bad lines told */
};

static void bulk_bad(void *arg, size_t i, const char *why)
{
	struct ctl_bad *b = arg;

	b->n++;
	control_out_printf(b->out, "error for input line: %.200s (%.200s)\n",
	                   b->lines[i], why);
}

/* Apply the lines, publish once; the answer as Unbound's. */
static void bulk_apply(struct control_bulk *b, bool ubct,
                       struct control_out *out)
{
	char err[CONTROL_ERR_BYTES];
	struct ctl_bad bad = { out, b->lines, 0 };
	size_t done = 0;
	int rc;

	rc = localzone_rt_apply(b->op, (const char *const *)b->lines, b->n,
	                        &done, bulk_bad, &bad, err, sizeof err);
	if (rc == LOCALZONE_EINVAL)
		rc = LOCALZONE_OK; /* told line by line */
	control_out_printf(out, "%s %zu %s\n", b->remove ? "removed" : "added",
	                   rc == LOCALZONE_OK ? done : 0, b->what);
	if (rc != LOCALZONE_OK)
		control_out_printf(out, "error%s %s\n", ubct ? "" : ":", err);
	else if (!ubct && bad.n > 0)
		control_out_printf(out, "error: %zu bad lines\n", bad.n);
	else if (!ubct)
		control_out_put(out, "ok\n", 3);
}

bool control_bulk_feed(struct control_bulk **bp, const char *buf, size_t len,
                       bool ubct, struct control_out *out)
{
	struct control_bulk *b = *bp;
	const char *nl;
	size_t n, k;

	while (len > 0) {
		nl = memchr(buf, '\n', len);
		n = nl != NULL ? (size_t)(nl - buf) : len;
		k = n < sizeof b->part - b->plen ? n :
		                                   sizeof b->part - b->plen;
		if (!b->skipping) {
			memcpy(b->part + b->plen, buf, k);
			b->plen += k;
			if (k < n)
				b->skipping = true; /* over-long: dropped */
		}
		if (nl == NULL)
			return false;
		buf += n + 1;
		len -= n + 1;
		if (b->plen == 1 && b->part[0] == CTL_BULK_EOT) {
			control_bulk_finish(bp, ubct, out);
			return true;
		}
		if (!b->skipping && !bulk_keep(b, b->part, b->plen)) {
			control_out_printf(out, "error: too many lines\n");
			control_bulk_free(b);
			*bp = NULL;
			return true;
		}
		b->plen = 0;
		b->skipping = false;
	}
	return false;
}

void control_bulk_finish(struct control_bulk **bp, bool ubct,
                         struct control_out *out)
{
	struct control_bulk *b = *bp;

	if (b->plen > 0 && !b->skipping &&
	    !(b->plen == 1 && b->part[0] == CTL_BULK_EOT))
		(void)bulk_keep(b, b->part, b->plen);
	bulk_apply(b, ubct, out);
	control_bulk_free(b);
	*bp = NULL;
}

/* list_local_zones: the config's local-zone lines, then the runtime
 * zones. */
static const char *list_zones(struct control_cmd *c, struct control_out *out)
{
	const struct cfg *cfg = c->env.cfg;
	struct cfg_local_zone z;
	char name[WIRE_NAME_TEXT_MAX], *text;
	size_t pos = 0, need;

	while (cfg != NULL && cfg_local_zone_next(cfg->local, &pos, &z))
		if (wire_name_to_text(z.name, z.namelen, name, sizeof name,
		                      NULL) == WIRE_OK)
			control_out_printf(out, "%s %s\n", name,
			                   cfg_lz_type_name(z.type));
	need = localzone_rt_list(NULL, 0);
	text = malloc(need + 1);
	if (text == NULL)
		return "out of memory";
	(void)localzone_rt_list(text, need + 1);
	control_out_put(out, text, need);
	free(text);
	return NULL;
}

/* list_local_data: the config's local-data lines, then the runtime
 * records. */
static const char *list_data(struct control_cmd *c, struct control_out *out)
{
	const struct cfg *cfg = c->env.cfg;
	struct cfg_local_data d;
	char name[WIRE_NAME_TEXT_MAX], type[RRTEXT_NAME_MAX], *text;
	size_t pos = 0, need;

	while (cfg != NULL && cfg_local_data_next(cfg->local, &pos, &d))
		if (wire_name_to_text(d.name, d.namelen, name, sizeof name,
		                      NULL) == WIRE_OK)
			control_out_printf(out, "%s\t%u\tIN\t%s\t%.*s\n", name,
			                   d.ttl,
			                   rrtext_type_name(d.type, type),
			                   (int)(d.rdlen > 2000 ? 2000 :
			                                          d.rdlen),
			                   d.rdata);
	need = localzone_rt_list_data(NULL, 0);
	text = malloc(need + 1);
	if (text == NULL)
		return "out of memory";
	(void)localzone_rt_list_data(text, need + 1);
	control_out_put(out, text, need);
	free(text);
	return NULL;
}

/* A bulk command: its input follows. */
static const char *start_bulk(struct control_session *s, size_t i)
{
	struct control_bulk **bp = control_session_bulk(s);
	struct control_bulk *b = calloc(1, sizeof(*b));

	if (b == NULL)
		return "out of memory";
	b->op = ctl_local_ops[i].op;
	b->what = b->op == LOCALZONE_RT_ZONE ||
	                          b->op == LOCALZONE_RT_ZONE_REMOVE ?
	                  "zones" :
	                  "datas";
	b->remove = b->op == LOCALZONE_RT_ZONE_REMOVE ||
	            b->op == LOCALZONE_RT_DATA_REMOVE;
	control_bulk_free(*bp);
	*bp = b;
	return NULL;
}

static const char *cmd_local(struct control_session *s, char **argv,
                             size_t argc, struct control_out *out, char *err)
{
	char two[CONTROL_LINE_MAX + 2];
	const char *line;
	size_t i, done;
	int rc;

	if (strcmp(argv[0], "list_local_zones") == 0)
		return list_zones(control_session_cmd(s), out);
	if (strcmp(argv[0], "list_local_data") == 0)
		return list_data(control_session_cmd(s), out);
	for (i = 0; i < sizeof ctl_local_ops / sizeof ctl_local_ops[0]; i++)
		if (strcmp(argv[0], ctl_local_ops[i].name) == 0)
			break;
	if (i == sizeof ctl_local_ops / sizeof ctl_local_ops[0])
		return "unknown command";
	if (ctl_local_ops[i].bulk)
		return start_bulk(s, i);
	if (argc < 2)
		return "an argument is missing";
	line = argv[1];
	if (argc == 3) { /* local_zone NAME TYPE */
		snprintf(two, sizeof two, "%s %s", argv[1], argv[2]);
		line = two;
	}
	rc = localzone_rt_apply(ctl_local_ops[i].op, &line, 1, &done, NULL,
	                        NULL, err, CONTROL_ERR_BYTES);
	if (rc != LOCALZONE_OK || done == 0)
		return err[0] != '\0' ? err : "nothing done";
	return NULL;
}

const struct control_verb control_local_verbs[] = {
	{ "local_zone", 2, 2, cmd_local,
	  "NAME TYPE  a local zone (static, always_nxdomain, ...)",
	  CONTROL_VERB_ACTION },
	{ "local_zone_remove", 1, 1, cmd_local, "NAME  drop a local zone",
	  CONTROL_VERB_ACTION },
	{ "local_zones", 0, 0, cmd_local,
	  "local_zone lines \"NAME TYPE\" follow (stdin)", 0 },
	{ "local_zones_remove", 0, 0, cmd_local,
	  "local_zone_remove lines \"NAME\" follow (stdin)", 0 },
	{ "local_data", 1, 1, cmd_local,
	  "NAME [TTL] [IN] TYPE RDATA  answer NAME locally",
	  CONTROL_VERB_ACTION | CONTROL_VERB_REST },
	{ "local_data_remove", 1, 1, cmd_local, "NAME  drop NAME's local data",
	  CONTROL_VERB_ACTION },
	{ "local_datas", 0, 0, cmd_local,
	  "local_data lines \"RR\" follow (stdin)", 0 },
	{ "local_datas_remove", 0, 0, cmd_local,
	  "local_data_remove lines \"NAME\" follow (stdin)", 0 },
	{ "list_local_zones", 0, 0, cmd_local,
	  "the local zones of the config and of local_zone", 0 },
	{ "list_local_data", 0, 0, cmd_local,
	  "the local data of the config and of local_data", 0 },
};

const size_t control_local_nverbs = sizeof control_local_verbs /
                                    sizeof control_local_verbs[0];
