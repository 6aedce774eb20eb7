/*
 * resolver/transport/upstream_privacy.c - what the privacy report reads
 * of a worker's transport: its RFC 9539 table (upstream.h).
 */
#include "upstream_int.h"

const struct authtls *upstream_authtls_table(const struct upstream *u)
{
	return u != NULL ? u->authtls : NULL;
}
