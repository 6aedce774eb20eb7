/*
 * resolver/conf/cfg_doh.c - the options of DNS over HTTPS for clients
 * (RFC 8484; Unbound's names): https-port, http-endpoint,
 * http-max-streams, http-query-buffer-size and
 * http-response-buffer-size (cfg_int.h), and their defaults; and
 * tls-ticket-rotate, the session-ticket keys of DoT and DoH.
 */
#include "cfg.h"
#include "cfg_int.h"

#include <stdio.h>
#include <string.h>

/** Least http-*-buffer-size: one query or answer of the largest size. */
#define CFG_HTTP_BUFFER_MIN (64u * 1024u)

void cfg_doh_defaults(struct cfg *c)
{
	c->https_port = CFG_HTTPS_PORT_DEFAULT;
	snprintf(c->http_endpoint, sizeof c->http_endpoint, "%s",
	         CFG_HTTP_ENDPOINT_DEFAULT);
	c->http_max_streams = CFG_HTTP_STREAMS_DEFAULT;
	c->http_query_buffer_size = CFG_HTTP_BUFFER_DEFAULT;
	c->http_response_buffer_size = CFG_HTTP_BUFFER_DEFAULT;
	c->tls_ticket_rotate = CFG_TICKET_ROTATE_DEFAULT;
}

int cfg_opt_tls_ticket_rotate(struct cfg_ctx *x, char *value)
{
	uint32_t v;

	if (cfg_parse_u32(x, value, CFG_TICKET_ROTATE_MAX, &v) != 0 ||
	    v == 0) {
		snprintf(x->why, sizeof x->why,
		         "bad tls-ticket-rotate \"%s\" (1 to %u seconds)",
		         value, CFG_TICKET_ROTATE_MAX);
		return -1;
	}
	x->c->tls_ticket_rotate = v;
	return 0;
}

int cfg_opt_https_port(struct cfg_ctx *x, char *value)
{
	uint32_t v;

	if (cfg_parse_u32(x, value, UINT16_MAX, &v) != 0 || v == 0) {
		snprintf(x->why, sizeof x->why, "bad https-port \"%s\"",
		         value);
		return -1;
	}
	x->c->https_port = (uint16_t)v;
	return 0;
}

/* An absolute path of printable characters, with no query or fragment
 * (the query string is the client's: ?dns=). */
int cfg_opt_http_endpoint(struct cfg_ctx *x, char *value)
{
	size_t i, n = strlen(value);

	for (i = 0; i < n; i++)
		if (value[i] <= ' ' || value[i] > '~' || value[i] == '?' ||
		    value[i] == '#')
			break;
	if (n == 0 || value[0] != '/' || i < n ||
	    n >= sizeof x->c->http_endpoint) {
		snprintf(x->why, sizeof x->why,
		         "bad http-endpoint \"%.60s\" (a path: /dns-query)",
		         value);
		return -1;
	}
	memcpy(x->c->http_endpoint, value, n + 1);
	return 0;
}

int cfg_opt_http_max_streams(struct cfg_ctx *x, char *value)
{
	uint32_t v;

	if (cfg_parse_u32(x, value, CFG_HTTP_STREAMS_MAX, &v) != 0 || v == 0) {
		snprintf(x->why, sizeof x->why,
		         "bad http-max-streams \"%s\" (1 to %u)", value,
		         CFG_HTTP_STREAMS_MAX);
		return -1;
	}
	x->c->http_max_streams = v;
	return 0;
}

static int cfg_http_buffer(struct cfg_ctx *x, const char *value, uint64_t *out)
{
	uint64_t v;

	if (cfg_parse_size(x, value, &v) != 0)
		return -1;
	if (v < CFG_HTTP_BUFFER_MIN) {
		snprintf(x->why, sizeof x->why, "%s below 64k: \"%s\"", x->key,
		         value);
		return -1;
	}
	*out = v;
	return 0;
}

int cfg_opt_http_query_buffer(struct cfg_ctx *x, char *value)
{
	return cfg_http_buffer(x, value, &x->c->http_query_buffer_size);
}

int cfg_opt_http_response_buffer(struct cfg_ctx *x, char *value)
{
	return cfg_http_buffer(x, value, &x->c->http_response_buffer_size);
}
