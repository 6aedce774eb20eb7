/*
 * resolver/ctl/control_cache.c - the control commands on the cache's
 * entries (see control.h): flush, flush_zone, flush_type, flush_all,
 * flush_negative and dump_cache, and the DNSSEC lines of lookup (the
 * status of each entry of the name next to its provenance, and a
 * one-line verdict on the answer a client would get, and the DNSCurve keys
 * DNSSEC confirmed for its zone). load_cache is a stream
 * of its session and stays with the sessions (control_cmd.c). Calls the cache
 * (cache.h), the cache-file writer (cachefile.h) and the type names of
 * rrtext.h; no sockets, no workers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/cachefile.h"
#include "control_int.h"
#include "infra/curvepin.h"
#include "infra/nsecidx.h"
#include "front/respond.h"
#include "wire/answer.h"
#include "wire/rrtext.h"
#include "wire/wire.h"

static const char *flush_name(struct control_cmd *c, char **argv, size_t argc,
                              struct control_out *out, char *err)
{
	uint8_t name[WIRE_NAME_MAX];
	size_t len, n = 0;
	bool zone = strcmp(argv[0], "flush_zone") == 0;

	(void)argc;
	(void)err;
	if (!control_name_arg(argv[1], name, &len))
		return "not a domain name";
	if ((zone ? cache_flush_zone(c->env.cache, name, len, &n) :
	            cache_flush_name(c->env.cache, name, len, &n)) != CACHE_OK)
		return "not a domain name";
	if (zone)
		(void)nsecidx_flush(c->env.nsec, name, len);
	control_out_printf(out, "removed %zu entries\n", n);
	return NULL;
}

/* flush_type NAME TYPE: that RRset (or NODATA) and the name's NXDOMAIN. */
const char *control_cmd_flush_type(struct control_cmd *c, char **argv,
                                   size_t argc, struct control_out *out,
                                   char *err)
{
	uint8_t name[WIRE_NAME_MAX];
	uint16_t type;
	size_t len, n = 0;

	(void)argc;
	if (!control_name_arg(argv[1], name, &len))
		return "not a domain name";
	if (rrtext_type_parse(argv[2], &type) != WIRE_OK) {
		snprintf(err, CONTROL_ERR_BYTES, "unknown type: %.32s",
		         argv[2]);
		return err;
	}
	if (cache_flush_type(c->env.cache, name, len, type, &n) != CACHE_OK) {
		snprintf(err, CONTROL_ERR_BYTES, "type %.32s is never cached",
		         argv[2]);
		return err;
	}
	control_out_printf(out, "removed %zu entries\n", n);
	return NULL;
}

static const char *flush_all(struct control_cmd *c, char **argv, size_t argc,
                             struct control_out *out, char *err)
{
	size_t n = 0;

	(void)argc;
	(void)err;
	if (strcmp(argv[0], "flush_bogus") == 0) {
		/* the NSEC index holds SECURE proofs only: it stays */
		cache_flush_bogus(c->env.cache, &n);
		control_out_printf(out, "removed %zu entries\n", n);
		return NULL;
	}
	if (strcmp(argv[0], "flush_all") == 0)
		cache_flush_all(c->env.cache, &n);
	else
		cache_flush_negative(c->env.cache, &n);
	/* aggressive answers are negative answers too */
	(void)nsecidx_flush(c->env.nsec, NULL, 0);
	control_out_printf(out, "removed %zu entries\n", n);
	return NULL;
}

const char *control_cmd_flush(struct control_cmd *c, char **argv, size_t argc,
                              struct control_out *out, char *err)
{
	if (strcmp(argv[0], "flush") == 0 ||
	    strcmp(argv[0], "flush_zone") == 0)
		return flush_name(c, argv, argc, out, err);
	return flush_all(c, argv, argc, out, err);
}

/* cachefile_put_fn into a control_out; stops once it is full. */
static int dump_put(void *arg, const char *text, size_t len)
{
	struct control_out *out = arg;

	control_out_put(out, text, len);
	return out->full ? 1 : 0;
}

const char *control_cmd_dump(struct control_cmd *c, char **argv, size_t argc,
                             struct control_out *out, char *err)
{
	struct cachefile_dump_stats st;
	int rc;

	(void)argv;
	(void)argc;
	rc = cachefile_dump_shown(c->env.cache, time(NULL), dump_put, out,
	                          &st);
	if (out->full) {
		/* Make room for the status line: drop the cut tail. */
		out->full = false;
		while (out->len > 0 && out->p[out->len - 1] != '\n')
			out->len--;
		return "answer too large: dump cut short";
	}
	if (rc != CACHEFILE_OK) {
		snprintf(err, CONTROL_ERR_BYTES, "dump failed: %s",
		         cachefile_strerror(rc));
		return err;
	}
	control_out_printf(out, "; end entries=%zu records=%zu\n", st.entries,
	                   st.rrs);
	if (st.hidden > 0)
		control_out_printf(out,
		                   "; %zu entries of private-use types (the "
		                   "resolver's own notes) not shown\n",
		                   st.hidden);
	return NULL;
}

/* ------------------------------------------------------------------ */
/* lookup: the DNSSEC status and provenance of a name's entries        */

/* How an entry was learned, as lookup's learned: line says it. */
static const char *via_name(enum cache_via via, bool curve)
{
	static const char *const names[CACHE_VIA_COUNT] = {
		[CACHE_VIA_PLAIN] = "plain",
		[CACHE_VIA_CURVE] = "curve",
		[CACHE_VIA_TLS] = "tls",
		[CACHE_VIA_TLS_DANE] = "tls-dane",
		[CACHE_VIA_FWD_TLS] = "forwarder-tls",
		[CACHE_VIA_LOCAL] = "local",
	};

	if (curve) /* the key is the proof, whatever else was noted */
		return names[CACHE_VIA_CURVE];
	return (size_t)via < CACHE_VIA_COUNT ? names[via] : "plain";
}

/** Most entries of one name shown (they share one hash chain). */
#define CONTROL_SEC_ROWS CACHE_CHAIN_MAX

/** One entry of the name, read under its shard lock. */
struct sec_row {
	enum cache_kind kind;
	uint16_t type;
	enum cache_sec sec;
	bool curve;
	bool stale;
	enum cache_via via;
};

/** What the walk collects. */
struct sec_walk {
	const uint8_t *name;
	size_t len;
	uint16_t type; /**< 0: every type */
	struct sec_row row[CONTROL_SEC_ROWS];
	size_t n;
};

static int sec_walk_cb(const struct cache_view *v, void *arg)
{
	struct sec_walk *w = arg;
	struct sec_row *r;

	if (v->name_len != w->len || memcmp(v->name, w->name, w->len) != 0 ||
	    (w->type != 0 && v->type != w->type &&
	     v->kind != CACHE_KIND_NXDOMAIN))
		return 0;
	if (w->n >= CONTROL_SEC_ROWS)
		return 1;
	r = &w->row[w->n++];
	r->kind = v->kind;
	r->type = v->type;
	r->sec = v->sec;
	r->curve = v->server_key != NULL;
	r->via = v->via;
	r->stale = v->stale != 0;
	return 0;
}

const char *control_sec_summary(int sec, bool curve)
{
	switch (sec) {
	case CACHE_SEC_SECURE:
		return curve ? "secure and private (DNSSEC + DNSCurve)" :
		               "secure (DNSSEC), plain transport";
	case CACHE_SEC_BOGUS:
		return curve ? "BOGUS (failed DNSSEC validation; DNSCurve)" :
		               "BOGUS (failed DNSSEC validation; plain)";
	case CACHE_SEC_INSECURE:
		return curve ? "private (DNSCurve), unsigned" :
		               "neither (unsigned, plain)";
	default:
		return curve ? "private (DNSCurve), not validated" :
		               "neither (not validated, plain)";
	}
}

/* "answer: TYPE SUMMARY": the chase a client would get (CNAMEs
 * followed), its least status and whether all of it came over
 * DNSCurve. */
static void sec_answer(struct cache *c, const uint8_t *name, size_t len,
                       uint16_t type, struct control_out *out)
{
	struct answer_chase ch = { c, WIRE_CLASS_IN, time(NULL), 0, 0, false };
	char tbuf[RRTEXT_NAME_MAX];
	uint8_t *buf = malloc(WIRE_MSG_MAX);
	struct answer a;

	if (buf == NULL)
		return;
	if (answer_chase(&ch, name, len, type, &a, buf, WIRE_MSG_MAX) ==
	    ANSWER_OK)
		control_out_printf(out, "answer: %s %s%s\n",
		                   rrtext_type_name(type, tbuf),
		                   a.rcode == WIRE_RCODE_NXDOMAIN ?
		                           "NXDOMAIN, " :
		                   a.an_count == 0 ? "NODATA, " :
		                                     "",
		                   control_sec_summary(a.sec, a.curve));
	else
		control_out_printf(out, "answer: %s not cached\n",
		                   rrtext_type_name(type, tbuf));
	free(buf);
}

/** Bytes of a UTC time as "2026-12-05T08:00:00Z" (and a NUL). */
#define CONTROL_UTC_TEXT 32

/* "dnscurve keys: ..." for the closest zone at or above the name whose
 * keys its signed apex NS set confirmed (resolver/iter/iter_curvesec.c),
 * and whether curve-pin holds that zone. */
static void sec_curve_keys(struct curvepin *pin, const uint8_t *name,
                           size_t len, struct control_out *out)
{
	struct curvepin_conf conf;
	time_t now = time(NULL);
	char zone[WIRE_NAME_TEXT_MAX], until[CONTROL_UTC_TEXT];
	struct tm tm;
	bool found = false;

	/* each step drops one label: the loop ends at the root */
	while (len > 1 && (size_t)name[0] + 1 < len &&
	       !(found = curvepin_confirmed(pin, name, len, now, &conf))) {
		len -= (size_t)name[0] + 1;
		name += (size_t)name[0] + 1;
	}
	if (!found ||
	    wire_name_to_text(name, len, zone, sizeof zone, NULL) != WIRE_OK ||
	    gmtime_r(&conf.until, &tm) == NULL ||
	    strftime(until, sizeof until, "%Y-%m-%dT%H:%M:%SZ", &tm) == 0)
		return;
	if (conf.nkeys > 0)
		control_out_printf(out,
		                   "dnscurve keys: %u of %s confirmed by "
		                   "DNSSEC "
		                   "until %s%s\n",
		                   conf.nkeys, zone, until,
		                   curvepin_held(pin, name, len, now) ?
		                           " (and pinned)" :
		                           "");
	else
		control_out_printf(out,
		                   "dnscurve keys: none for %s, says its "
		                   "DNSSEC-signed NS set (until %s)\n",
		                   zone, until);
}

void control_lookup_sec(struct control_cmd *c, const uint8_t *name, size_t len,
                        uint16_t type, struct control_out *out)
{
	struct sec_walk *w = calloc(1, sizeof(*w));
	char tbuf[RRTEXT_NAME_MAX];
	size_t i;

	if (w == NULL)
		return;
	w->name = name;
	w->len = len;
	w->type = type;
	(void)cache_iterate(c->env.cache, time(NULL), sec_walk_cb, w);
	for (i = 0; i < w->n; i++) {
		const struct sec_row *r = &w->row[i];

		control_out_printf(out, "dnssec: %s %s (%s)%s\n",
		                   r->kind == CACHE_KIND_NXDOMAIN ?
		                           "NXDOMAIN" :
		                           rrtext_type_name(r->type, tbuf),
		                   respond_sec_name((uint8_t)r->sec),
		                   r->curve ? "DNSCurve" : "plain",
		                   r->kind == CACHE_KIND_NODATA ? " NODATA" :
		                   r->stale                     ? " stale" :
		                                                  "");
		control_out_printf(out, "learned: %s %s\n",
		                   r->kind == CACHE_KIND_NXDOMAIN ?
		                           "NXDOMAIN" :
		                           rrtext_type_name(r->type, tbuf),
		                   via_name(r->via, r->curve));
	}
	free(w);
	sec_answer(c->env.cache, name, len, type != 0 ? type : WIRE_TYPE_A,
	           out);
	if (c->env.pin != NULL)
		sec_curve_keys(c->env.pin, name, len, out);
}
