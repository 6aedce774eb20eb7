/*
 * resolver/ctl/control_cache.c - the control commands on the cache's
 * entries (see control.h): flush, flush_zone, flush_type, flush_all,
 * flush_negative and dump_cache. load_cache is a stream of its session
 * and stays with the sessions (control_cmd.c). Calls the cache
 * (cache.h), the cache-file writer (cachefile.h) and the type names of
 * rrtext.h; no sockets, no workers.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "store/cachefile.h"
#include "control_int.h"
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
	if (strcmp(argv[0], "flush_all") == 0)
		cache_flush_all(c->env.cache, &n);
	else
		cache_flush_negative(c->env.cache, &n);
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
	rc = cachefile_dump(c->env.cache, time(NULL), dump_put, out, &st);
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
	return NULL;
}
