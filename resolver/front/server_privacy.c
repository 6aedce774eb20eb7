/*
 * resolver/front/server_privacy.c - what the privacy report reads of a
 * worker (server.h): its transport's RFC 9539 table.
 */
#include "server_int.h"
#include "transport/upstream.h"

const struct authtls *server_authtls(const struct server *s)
{
	return upstream_authtls_table(s->up);
}
