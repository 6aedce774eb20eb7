/*
 * resolver/tools/query_int.h - what the files of curvecache-query share
 * (query_main.c: set-up, transport and output; query_args.c: the command
 * line in dig's habits and where the server is). Nobody else may include
 * it.
 */
#ifndef CURVECACHE_RESOLVER_QUERY_INT_H
#define CURVECACHE_RESOLVER_QUERY_INT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/socket.h>

#include "wire/wire.h"

/** Default resolver configuration, for the server when no @SERVER is
 *  given; the environment variable QUERY_RESOLV_ENV names another. */
#define QUERY_RESOLV_CONF "/etc/resolv.conf"
#define QUERY_RESOLV_ENV "CURVECACHE_RESOLV_CONF"
/** Bytes of a nameserver address kept from resolv.conf. */
#define QUERY_SERVER_MAX 256

enum query_format { FMT_AUTO = 0, FMT_STREAMLINED, FMT_TXT, FMT_OFF };

/** What parse_args returns besides 0 and -1. */
#define QUERY_ARGS_HELP 1
#define QUERY_ARGS_VERSION 2

struct query_opts {
	int family; /* 0, AF_INET or AF_INET6 (-4 / -6) */
	unsigned port;
	uint16_t qtype, qclass;
	int type_given, class_given;
	int tcp, rd, short_out, no_edns;
	int dnssec; /* +dnssec: DO set (plain mode) */
	int cd;     /* +cd: CD set */
	enum query_format format;
	double timeout;
	const char *key, *ns, *zone, *server, *name;
	/* -x ADDR: the reverse name, pointed to by name */
	char reverse[WIRE_NAME_TEXT_MAX];
	/* the server named by resolv.conf, pointed to by server */
	char resolv_server[QUERY_SERVER_MAX];
};

/**
 * Parse the command line: options anywhere, then @SERVER, NAME, TYPE,
 * CLASS and +options in any order (dig's habits); -x ADDR asks the PTR
 * of ADDR's reverse name. Without @SERVER, the first nameserver of
 * resolv.conf ($CURVECACHE_RESOLV_CONF or /etc/resolv.conf).
 * @param o: zeroed by the caller; filled.
 * @return 0, -1 (usage error, message printed), QUERY_ARGS_HELP or
 *   QUERY_ARGS_VERSION.
 */
int query_args_parse(int argc, char **argv, struct query_opts *o);

/**
 * Print a usage error and the hint to --help on stderr.
 * @param arg: NULL or the offending argument.
 * @return -1.
 */
int query_usage_error(const char *what, const char *arg);

/** Print the help text. */
void query_usage(FILE *f);

/**
 * Find the server's address: an IPv4 or IPv6 literal, else a host name
 * resolved with getaddrinfo (the first address of the family asked for).
 * @param addr, addrlen: receive the address with o->port.
 * @param text, cap: receive the address as text.
 * @return 0, or -1 (message printed).
 */
int query_server_addr(const struct query_opts *o,
                      struct sockaddr_storage *addr, socklen_t *addrlen,
                      char *text, size_t cap);

#endif /* CURVECACHE_RESOLVER_QUERY_INT_H */
