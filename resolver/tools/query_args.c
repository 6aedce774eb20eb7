/*
 * resolver/tools/query_args.c - the command line of curvecache-query, in dig's
 * habits, and where the server is (see query_int.h).
 *
 * Design notes:
 * - Options may come anywhere (getopt permutes); the other words are
 *   read one by one: @SERVER, +option, a type mnemonic (the first one is
 *   the type, as dig does; ANY is a type), a class (IN, CH, HS,
 *   CLASSnnn), else the name. A second name is an error, not a guess.
 * - -x ADDR writes the reverse name (in-addr.arpa / ip6.arpa) as text
 *   and asks PTR, unless a type is given.
 * - Without @SERVER the first nameserver line of resolv.conf is used; the
 *   file is read once, at most QUERY_RESOLV_MAX bytes, and parsed as
 *   (buffer, length). CURVECACHE_RESOLV_CONF names another file (tests).
 * - A server given by host name is resolved with getaddrinfo, which asks
 *   the system's resolver (/etc/hosts first, usually).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "query_int.h"
#include "wire/rrtext.h"

#define QUERY_PORT_DEFAULT 53
#define QUERY_TIMEOUT_DEFAULT 5.0
#define QUERY_TIMEOUT_MAX 3600.0
/** Bytes of resolv.conf read (the rest is ignored). */
#define QUERY_RESOLV_MAX 65536
/** Bytes of an IPv6 address. */
#define QUERY_IP6_BYTES 16

void query_usage(FILE *f)
{
	/* clang-format off */
	fprintf(f,
"usage: curvecache-query [OPTIONS] [@SERVER] NAME [TYPE] [CLASS] [+short]\n"
"         [+tcp] [+norec] [+dnssec] [+cd]  (words after the options in any\n"
"         order)\n"
"       curvecache-query [OPTIONS] [@SERVER] -x ADDR\n"
"\n"
"Send one query for NAME (type A, class IN by default) to SERVER (an\n"
"IPv4 or IPv6 address or a host name; default: the first nameserver of\n"
"/etc/resolv.conf, or of the file named by $CURVECACHE_RESOLV_CONF)\n"
"and print the answer as dig does.\n"
"\n"
"  -4, -6          use an IPv4 / IPv6 server address\n"
"  -p PORT         server port (default 53)\n"
"  -t TYPE         query type: A, AAAA, NS, MX, TXT, ..., or TYPEnnn\n"
"  -c CLASS        query class: IN (default), CH, HS or CLASSnnn\n"
"  -x ADDR         reverse lookup: the PTR of ADDR's in-addr.arpa or\n"
"                  ip6.arpa name\n"
"  --tcp, +tcp     use TCP (2-byte length framing) from the start; a UDP\n"
"                  answer with TC=1 is retried over TCP anyway\n"
"  --rd, +rec      set RD (recursion desired), the default, as dig\n"
"  --norec, +norec clear RD: ask without recursion (an authoritative\n"
"                  server, or what a resolver has in its cache)\n"
"  --key uz5...    the server's DNSCurve key label: box the query\n"
"  --ns NAME       the server's NS name; boxed if a label of it is a uz5\n"
"                  key label, plain DNS otherwise\n"
"  --curve=FMT     streamlined (default when a key is known), txt, or off\n"
"                  (plain DNS even if a key is known)\n"
"  --zone ZONE     zone of the server, for the TXT format (default: NAME\n"
"                  with its first label removed)\n"
"  --timeout SEC   wait at most SEC seconds per attempt (default 5)\n"
"  --short, +short print only the answer RDATA, as dig +short\n"
"  --no-edns, +noedns  send no EDNS0 OPT record (default: payload 1232\n"
"                  plain, 1184 inside a box)\n"
"  +dnssec         set DO (DNSSEC OK; plain DNS only): the answer brings\n"
"                  its RRSIGs and NSEC/NSEC3 proofs, printed with the AD\n"
"                  flag and any Extended DNS Error (EDE) of the response\n"
"  +cd, +cdflag    set CD (checking disabled): the resolver does not\n"
"                  validate, and sends data that failed validation\n"
"  --version       print the version and exit\n"
"\n"
"Exit status: 0 an answer was accepted (whatever its RCODE), 1 usage\n"
"error, 2 no answer accepted (timeout, or a socket error). In boxed mode\n"
"only answers that open under the key are accepted; everything else is\n"
"dropped, counted and reported on timeout.\n");
	/* clang-format on */
}

int query_usage_error(const char *what, const char *arg)
{
	fprintf(stderr, "curvecache-query: %s%s%s\n", what, arg ? ": " : "",
	        arg ? arg : "");
	fprintf(stderr, "try 'curvecache-query --help'\n");
	return -1;
}

enum {
	OPT_TCP = 256,
	OPT_CURVE,
	OPT_KEY,
	OPT_NS,
	OPT_ZONE,
	OPT_TIMEOUT,
	OPT_SHORT,
	OPT_NOEDNS,
	OPT_RD,
	OPT_NOREC,
	OPT_HELP,
	OPT_VERSION
};

static const struct option long_opts[] = {
	{ "tcp", no_argument, NULL, OPT_TCP },
	{ "curve", required_argument, NULL, OPT_CURVE },
	{ "key", required_argument, NULL, OPT_KEY },
	{ "ns", required_argument, NULL, OPT_NS },
	{ "zone", required_argument, NULL, OPT_ZONE },
	{ "timeout", required_argument, NULL, OPT_TIMEOUT },
	{ "short", no_argument, NULL, OPT_SHORT },
	{ "no-edns", no_argument, NULL, OPT_NOEDNS },
	{ "rd", no_argument, NULL, OPT_RD },
	{ "norec", no_argument, NULL, OPT_NOREC },
	{ "help", no_argument, NULL, OPT_HELP },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* ------------------------------------------------------------------ */
/* Types, classes, reverse names                                       */

/* A class word: IN, CH, HS or CLASSnnn; 0 or -1. */
static int class_parse(const char *s, uint16_t *out)
{
	char *end;
	unsigned long v;

	if (strcasecmp(s, "IN") == 0)
		*out = WIRE_CLASS_IN;
	else if (strcasecmp(s, "CH") == 0 || strcasecmp(s, "CHAOS") == 0)
		*out = WIRE_CLASS_CH;
	else if (strcasecmp(s, "HS") == 0)
		*out = WIRE_CLASS_HS;
	else if (strncasecmp(s, "CLASS", 5) == 0 && s[5] >= '0' &&
	         s[5] <= '9') {
		errno = 0;
		v = strtoul(s + 5, &end, 10);
		if (*end != '\0' || errno != 0 || v > UINT16_MAX)
			return -1;
		*out = (uint16_t)v;
	} else {
		return -1;
	}
	return 0;
}

/* The reverse name of an address as text ("4.3.2.1.in-addr.arpa."). */
static int reverse_name(const char *addr, char *out, size_t cap)
{
	static const char hex[] = "0123456789abcdef";
	uint8_t ip[QUERY_IP6_BYTES];
	size_t n = 0;
	int i;

	if (inet_pton(AF_INET, addr, ip) == 1) {
		snprintf(out, cap, "%u.%u.%u.%u.in-addr.arpa.", ip[3], ip[2],
		         ip[1], ip[0]);
		return 0;
	}
	if (inet_pton(AF_INET6, addr, ip) != 1)
		return query_usage_error("-x: not an IP address", addr);
	for (i = QUERY_IP6_BYTES - 1; i >= 0 && n + 4 < cap; i--) {
		out[n++] = hex[ip[i] & 0xf];
		out[n++] = '.';
		out[n++] = hex[ip[i] >> 4];
		out[n++] = '.';
	}
	snprintf(out + n, cap - n, "ip6.arpa.");
	return 0;
}

/* ------------------------------------------------------------------ */
/* Options                                                             */

static int parse_value(struct query_opts *o, int c, const char *arg)
{
	char *end;

	switch (c) {
	case 'p':
		o->port = (unsigned)strtoul(arg, &end, 10);
		if (*arg == '\0' || *end != '\0' || o->port == 0 ||
		    o->port > 65535)
			return query_usage_error("bad port", arg);
		return 0;
	case 't':
		if (rrtext_type_parse(arg, &o->qtype) != WIRE_OK)
			return query_usage_error("unknown type", arg);
		o->type_given = 1;
		return 0;
	case 'c':
		if (class_parse(arg, &o->qclass) != 0)
			return query_usage_error("unknown class", arg);
		o->class_given = 1;
		return 0;
	case 'x':
		o->name = o->reverse;
		if (!o->type_given)
			o->qtype = WIRE_TYPE_PTR;
		return reverse_name(arg, o->reverse, sizeof(o->reverse));
	default: return query_usage_error("bad option", NULL);
	}
}

static int parse_curve(struct query_opts *o, int c, const char *arg)
{
	char *end;

	switch (c) {
	case OPT_CURVE:
		if (strcmp(arg, "streamlined") == 0)
			o->format = FMT_STREAMLINED;
		else if (strcmp(arg, "txt") == 0)
			o->format = FMT_TXT;
		else if (strcmp(arg, "off") == 0)
			o->format = FMT_OFF;
		else
			return query_usage_error("bad --curve", arg);
		return 0;
	case OPT_TIMEOUT:
		o->timeout = strtod(arg, &end);
		if (*arg == '\0' || *end != '\0' || !(o->timeout > 0) ||
		    o->timeout > QUERY_TIMEOUT_MAX)
			return query_usage_error("bad timeout", arg);
		return 0;
	default: return parse_value(o, c, arg);
	}
}

static int parse_option(struct query_opts *o, int c, const char *arg)
{
	switch (c) {
	case '4': o->family = AF_INET; return 0;
	case '6': o->family = AF_INET6; return 0;
	case OPT_TCP: o->tcp = 1; return 0;
	case OPT_RD: o->rd = 1; return 0;
	case OPT_NOREC: o->rd = 0; return 0;
	case OPT_SHORT: o->short_out = 1; return 0;
	case OPT_NOEDNS: o->no_edns = 1; return 0;
	case OPT_KEY: o->key = arg; return 0;
	case OPT_NS: o->ns = arg; return 0;
	case OPT_ZONE: o->zone = arg; return 0;
	default: return parse_curve(o, c, arg);
	}
}

/* A +option (dig's query options we have). */
static int parse_plus(struct query_opts *o, const char *w)
{
	const struct {
		const char *name;
		int *field;
		int val;
	} plus[] = {
		{ "+short", &o->short_out, 1 },
		{ "+noshort", &o->short_out, 0 },
		{ "+tcp", &o->tcp, 1 },
		{ "+notcp", &o->tcp, 0 },
		{ "+rec", &o->rd, 1 },
		{ "+norec", &o->rd, 0 },
		{ "+edns", &o->no_edns, 0 },
		{ "+noedns", &o->no_edns, 1 },
		{ "+dnssec", &o->dnssec, 1 },
		{ "+nodnssec", &o->dnssec, 0 },
		{ "+cd", &o->cd, 1 },
		{ "+cdflag", &o->cd, 1 },
		{ "+nocd", &o->cd, 0 },
		{ "+nocdflag", &o->cd, 0 },
	};
	size_t i;

	for (i = 0; i < sizeof(plus) / sizeof(plus[0]); i++) {
		if (strcmp(w, plus[i].name) == 0) {
			*plus[i].field = plus[i].val;
			return 0;
		}
	}
	return query_usage_error("unknown query option", w);
}

/* One word after the options: @SERVER, +option, type, class or name. */
static int parse_word(struct query_opts *o, const char *w)
{
	uint16_t v;

	if (w[0] == '@') {
		if (o->server != NULL || w[1] == '\0')
			return query_usage_error(o->server != NULL ?
			                                 "a second @SERVER" :
			                                 "empty @SERVER",
			                         w);
		o->server = w + 1;
		return 0;
	}
	if (w[0] == '+')
		return parse_plus(o, w);
	if (!o->type_given && rrtext_type_parse(w, &v) == WIRE_OK) {
		o->qtype = v;
		o->type_given = 1;
		return 0;
	}
	if (!o->class_given && class_parse(w, &v) == 0) {
		o->qclass = v;
		o->class_given = 1;
		return 0;
	}
	if (o->name != NULL)
		return query_usage_error("unexpected argument (a second "
		                         "name?)",
		                         w);
	o->name = w;
	return 0;
}

/* ------------------------------------------------------------------ */
/* resolv.conf                                                         */

/* The address of the first "nameserver" line of buf[0..len); 0 or -1. */
static int resolv_first(const char *buf, size_t len, char *out, size_t cap)
{
	static const char kw[] = "nameserver";
	size_t pos = 0, a, n;

	while (pos < len) {
		while (pos < len && (buf[pos] == ' ' || buf[pos] == '\t'))
			pos++;
		if (len - pos > sizeof(kw) - 1 &&
		    memcmp(buf + pos, kw, sizeof(kw) - 1) == 0 &&
		    (buf[pos + sizeof(kw) - 1] == ' ' ||
		     buf[pos + sizeof(kw) - 1] == '\t')) {
			pos += sizeof(kw) - 1;
			while (pos < len &&
			       (buf[pos] == ' ' || buf[pos] == '\t'))
				pos++;
			a = pos;
			while (pos < len && buf[pos] != ' ' &&
			       buf[pos] != '\t' && buf[pos] != '\n' &&
			       buf[pos] != '\r' && buf[pos] != '#' &&
			       buf[pos] != ';')
				pos++;
			n = pos - a;
			if (n > 0 && n < cap) {
				memcpy(out, buf + a, n);
				out[n] = '\0';
				return 0;
			}
		}
		while (pos < len && buf[pos] != '\n')
			pos++;
		pos++;
	}
	return -1;
}

/* o->server from resolv.conf; 0 or -1 (message printed). */
static int resolv_server(struct query_opts *o)
{
	const char *file = getenv(QUERY_RESOLV_ENV);
	char *buf;
	ssize_t k;
	size_t len = 0;
	int fd, rc = -1;

	if (file == NULL || *file == '\0')
		file = QUERY_RESOLV_CONF;
	buf = malloc(QUERY_RESOLV_MAX);
	fd = open(file, O_RDONLY | O_CLOEXEC);
	while (buf != NULL && fd >= 0 && len < QUERY_RESOLV_MAX &&
	       ((k = read(fd, buf + len, QUERY_RESOLV_MAX - len)) > 0 ||
	        (k < 0 && errno == EINTR)))
		len += k > 0 ? (size_t)k : 0;
	if (fd < 0)
		fprintf(stderr, "curvecache-query: no @SERVER, and %s: %s\n",
		        file, strerror(errno));
	else if (buf != NULL && resolv_first(buf, len, o->resolv_server,
	                                     sizeof(o->resolv_server)) == 0)
		rc = 0;
	else
		fprintf(stderr,
		        "curvecache-query: no @SERVER, and no "
		        "nameserver line in %s\n",
		        file);
	if (fd >= 0)
		close(fd);
	free(buf);
	o->server = o->resolv_server;
	return rc;
}

/* ------------------------------------------------------------------ */

int query_args_parse(int argc, char **argv, struct query_opts *o)
{
	int c, i;

	o->port = QUERY_PORT_DEFAULT;
	o->qtype = WIRE_TYPE_A;
	o->qclass = WIRE_CLASS_IN;
	o->timeout = QUERY_TIMEOUT_DEFAULT;
	o->rd = 1; /* dig's default: +rec */
	while ((c = getopt_long(argc, argv, "46p:t:c:x:h", long_opts, NULL)) !=
	       -1) {
		if (c == 'h' || c == OPT_HELP)
			return QUERY_ARGS_HELP;
		if (c == OPT_VERSION)
			return QUERY_ARGS_VERSION;
		if (c == '?' || parse_option(o, c, optarg) != 0)
			return c == '?' ?
			               query_usage_error("bad option", NULL) :
			               -1;
	}
	for (i = optind; i < argc; i++)
		if (parse_word(o, argv[i]) != 0)
			return -1;
	if (o->name == NULL)
		return query_usage_error("need a NAME (or -x ADDR)", NULL);
	if (o->key != NULL && o->ns != NULL)
		return query_usage_error("give --key or --ns, not both", NULL);
	if (o->server == NULL)
		return resolv_server(o);
	return 0;
}

/* getaddrinfo for the server; 0 or an EAI_ code. */
static int server_lookup(const char *server, int family, int flags,
                         struct addrinfo **res)
{
	struct addrinfo hints;

	memset(&hints, 0, sizeof(hints));
	hints.ai_family = family;
	hints.ai_socktype = SOCK_DGRAM;
	hints.ai_flags = flags;
	return getaddrinfo(server, NULL, &hints, res);
}

/* Copy the first address with the port; its text into text. */
static void server_take(const struct query_opts *o, const struct addrinfo *res,
                        struct sockaddr_storage *addr, socklen_t *addrlen,
                        char *text, size_t cap)
{
	memset(addr, 0, sizeof(*addr));
	memcpy(addr, res->ai_addr, res->ai_addrlen);
	*addrlen = (socklen_t)res->ai_addrlen;
	if (addr->ss_family == AF_INET)
		((struct sockaddr_in *)addr)->sin_port =
			htons((uint16_t)o->port);
	else
		((struct sockaddr_in6 *)addr)->sin6_port =
			htons((uint16_t)o->port);
	if (getnameinfo((struct sockaddr *)addr, *addrlen, text,
	                (socklen_t)cap, NULL, 0, NI_NUMERICHOST) != 0)
		snprintf(text, cap, "%s", o->server);
}

int query_server_addr(const struct query_opts *o,
                      struct sockaddr_storage *addr, socklen_t *addrlen,
                      char *text, size_t cap)
{
	struct addrinfo *res = NULL;
	int rc;

	/* an address literal of the other family than -4/-6 asked for */
	rc = server_lookup(o->server, AF_UNSPEC, AI_NUMERICHOST, &res);
	if (rc == 0 && o->family != 0 && res->ai_family != o->family) {
		freeaddrinfo(res);
		return query_usage_error("not an address of the family asked "
		                         "for",
		                         o->server);
	}
	if (rc != 0)
		rc = server_lookup(o->server,
		                   o->family ? o->family : AF_UNSPEC,
		                   AI_ADDRCONFIG, &res);
	if (rc != 0 || res == NULL || res->ai_addrlen > sizeof(*addr) ||
	    (res->ai_family != AF_INET && res->ai_family != AF_INET6)) {
		fprintf(stderr, "curvecache-query: server %s: %s\n", o->server,
		        rc != 0 ? gai_strerror(rc) : "no usable address");
		if (rc == 0 && res != NULL)
			freeaddrinfo(res);
		return -1;
	}
	server_take(o, res, addr, addrlen, text, cap);
	freeaddrinfo(res);
	return 0;
}
