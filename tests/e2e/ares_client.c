/*
 * tests/e2e/ares_client.c - a DNS stub client built on c-ares, for the
 * end-to-end tests: it resolves names through one recursive server (the
 * curvecache under test) the way an application linked with c-ares would,
 * and prints what it got, one line per item, for the test to compare.
 *
 * Usage: ares_client SERVER[:PORT] QUERY...
 *   QUERY is NAME (ares_getaddrinfo, IPv4 and IPv6) or NAME/TYPE with TYPE
 *   one of A, AAAA, MX, TXT (ares_query and the matching parser).
 * Output, per QUERY:
 *   NAME addr ADDRESS          one line per address (getaddrinfo)
 *   NAME cname CANONICAL       when getaddrinfo reports a canonical name
 *                              other than NAME
 *   NAME A ADDRESS / NAME AAAA ADDRESS / NAME MX PREF HOST
 *   NAME TXT "STRING" ...      one line per TXT record, dig +short style
 *   NAME TYPE error CODE       on failure (CODE: ENOTFOUND, ENODATA,
 *                              ESERVFAIL, ETIMEOUT, EREFUSED, ...)
 * Exit status: 0 when every query finished (failures included, they are
 * printed), 1 on a usage or set-up error, 2 when the overall time bound
 * (ARESC_TOTAL_MS) ran out with queries still open.
 *
 * Design note: one channel, DNS only (no hosts file), no search list, one
 * try of ARESC_TRY_MS per query, no address sorting (c-ares would open
 * sockets toward the answers to sort them; this client touches nothing but
 * the server). The event loop is the classic ares_fds/select/ares_process.
 */
#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <ares.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/select.h>
#include <sys/socket.h>
#include <time.h>

/** Time for one try of one query, and for the whole run. */
#define ARESC_TRY_MS 4000
#define ARESC_TOTAL_MS 20000
/** Most queries on one command line. */
#define ARESC_MAX_QUERIES 64
/** Longest NAME/TYPE argument accepted. */
#define ARESC_ARG_MAX 300
/** Room for one address as text. */
#define ARESC_ADDR_TEXT 64

/** One query: its name and type as given, for the output lines. */
struct aresc_query {
	char name[ARESC_ARG_MAX];
	const char *type; /**< "A", "AAAA", "MX", "TXT" or NULL (addrinfo) */
	int qtype;
};

static int aresc_open;

/** The short name of an ares status, for the output. */
static const char *aresc_status_name(int status)
{
	switch (status) {
	case ARES_ENODATA: return "ENODATA";
	case ARES_EFORMERR: return "EFORMERR";
	case ARES_ESERVFAIL: return "ESERVFAIL";
	case ARES_ENOTFOUND: return "ENOTFOUND";
	case ARES_ENOTIMP: return "ENOTIMP";
	case ARES_EREFUSED: return "EREFUSED";
	case ARES_EBADRESP: return "EBADRESP";
	case ARES_ECONNREFUSED: return "ECONNREFUSED";
	case ARES_ETIMEOUT: return "ETIMEOUT";
	case ARES_ECANCELLED: return "ECANCELLED";
	case ARES_EDESTRUCTION: return "EDESTRUCTION";
	default: return "EOTHER";
	}
}

static void aresc_error(const struct aresc_query *q, int status)
{
	printf("%s %s error %s\n", q->name, q->type ? q->type : "addr",
	       aresc_status_name(status));
}

static void aresc_addrinfo_cb(void *arg, int status, int timeouts,
                              struct ares_addrinfo *res)
{
	const struct aresc_query *q = arg;
	const struct ares_addrinfo_node *n;
	const struct ares_addrinfo_cname *c;
	char text[ARESC_ADDR_TEXT];

	(void)timeouts;
	aresc_open--;
	if (status != ARES_SUCCESS) {
		aresc_error(q, status);
		return;
	}
	for (c = res->cnames; c != NULL; c = c->next)
		if (c->name != NULL && c->next == NULL &&
		    strcasecmp(c->name, q->name) != 0)
			printf("%s cname %s\n", q->name, c->name);
	for (n = res->nodes; n != NULL; n = n->ai_next) {
		const void *src;

		if (n->ai_family == AF_INET)
			src = &((const struct sockaddr_in *)(const void *)
			        n->ai_addr)->sin_addr;
		else if (n->ai_family == AF_INET6)
			src = &((const struct sockaddr_in6 *)(const void *)
			        n->ai_addr)->sin6_addr;
		else
			continue;
		if (inet_ntop(n->ai_family, src, text, sizeof text) != NULL)
			printf("%s addr %s\n", q->name, text);
	}
	ares_freeaddrinfo(res);
}

static void aresc_print_addrs(const struct aresc_query *q,
                              const unsigned char *abuf, int alen)
{
	char text[ARESC_ADDR_TEXT];
	int i, n = ARESC_MAX_QUERIES;
	int status;

	if (q->qtype == ns_t_a) {
		struct ares_addrttl a[ARESC_MAX_QUERIES];

		status = ares_parse_a_reply(abuf, alen, NULL, a, &n);
		if (status != ARES_SUCCESS) {
			aresc_error(q, status);
			return;
		}
		for (i = 0; i < n; i++)
			if (inet_ntop(AF_INET, &a[i].ipaddr, text, sizeof text))
				printf("%s A %s\n", q->name, text);
	} else {
		struct ares_addr6ttl a[ARESC_MAX_QUERIES];

		status = ares_parse_aaaa_reply(abuf, alen, NULL, a, &n);
		if (status != ARES_SUCCESS) {
			aresc_error(q, status);
			return;
		}
		for (i = 0; i < n; i++)
			if (inet_ntop(AF_INET6, &a[i].ip6addr, text,
			              sizeof text))
				printf("%s AAAA %s\n", q->name, text);
	}
}

static void aresc_print_mx(const struct aresc_query *q,
                           const unsigned char *abuf, int alen)
{
	struct ares_mx_reply *mx = NULL, *m;
	int status = ares_parse_mx_reply(abuf, alen, &mx);

	if (status != ARES_SUCCESS) {
		aresc_error(q, status);
		return;
	}
	for (m = mx; m != NULL; m = m->next)
		printf("%s MX %u %s.\n", q->name, (unsigned)m->priority,
		       m->host);
	ares_free_data(mx);
}

/* One character-string as dig prints it: quoted, with " and \ escaped. */
static void aresc_print_string(const unsigned char *s, size_t len)
{
	size_t i;

	putchar('"');
	for (i = 0; i < len; i++) {
		if (s[i] == '"' || s[i] == '\\')
			putchar('\\');
		putchar(s[i]);
	}
	putchar('"');
}

static void aresc_print_txt(const struct aresc_query *q,
                            const unsigned char *abuf, int alen)
{
	struct ares_txt_ext *txt = NULL, *t;
	int status = ares_parse_txt_reply_ext(abuf, alen, &txt);
	int open_line = 0;

	if (status != ARES_SUCCESS) {
		aresc_error(q, status);
		return;
	}
	for (t = txt; t != NULL; t = t->next) {
		if (t->record_start) {
			if (open_line)
				putchar('\n');
			printf("%s TXT", q->name);
			open_line = 1;
		}
		putchar(' ');
		aresc_print_string(t->txt, t->length);
	}
	if (open_line)
		putchar('\n');
	ares_free_data(txt);
}

static void aresc_query_cb(void *arg, int status, int timeouts,
                           unsigned char *abuf, int alen)
{
	const struct aresc_query *q = arg;

	(void)timeouts;
	aresc_open--;
	if (status != ARES_SUCCESS) {
		aresc_error(q, status);
		return;
	}
	if (q->qtype == ns_t_a || q->qtype == ns_t_aaaa)
		aresc_print_addrs(q, abuf, alen);
	else if (q->qtype == ns_t_mx)
		aresc_print_mx(q, abuf, alen);
	else
		aresc_print_txt(q, abuf, alen);
}

/* Parse NAME or NAME/TYPE into q; -1 on a bad argument. */
static int aresc_parse_arg(const char *arg, struct aresc_query *q)
{
	static const struct { const char *name; int qtype; } types[] = {
		{ "A", ns_t_a }, { "AAAA", ns_t_aaaa },
		{ "MX", ns_t_mx }, { "TXT", ns_t_txt },
	};
	const char *slash = strchr(arg, '/');
	size_t len = slash ? (size_t)(slash - arg) : strlen(arg);
	size_t i;

	if (len == 0 || len >= sizeof q->name)
		return -1;
	memcpy(q->name, arg, len);
	q->name[len] = '\0';
	q->type = NULL;
	q->qtype = 0;
	if (slash == NULL)
		return 0;
	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(slash + 1, types[i].name) == 0) {
			q->type = types[i].name;
			q->qtype = types[i].qtype;
			return 0;
		}
	return -1;
}

static long aresc_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Run the channel until nothing is open or the bound passes; 0 = done. */
static int aresc_loop(ares_channel ch)
{
	long deadline = aresc_now_ms() + ARESC_TOTAL_MS;

	while (aresc_open > 0) {
		fd_set rd, wr;
		struct timeval max, tv, *tvp;
		long left = deadline - aresc_now_ms();
		int nfds;

		if (left <= 0)
			return -1;
		max.tv_sec = left / 1000;
		max.tv_usec = (left % 1000) * 1000;
		FD_ZERO(&rd);
		FD_ZERO(&wr);
		nfds = ares_fds(ch, &rd, &wr);
		tvp = ares_timeout(ch, &max, &tv);
		if (nfds == 0 && aresc_open > 0 && tvp == NULL)
			return -1;
		(void)select(nfds, &rd, &wr, NULL, tvp);
		ares_process(ch, &rd, &wr);
	}
	return 0;
}

static int aresc_setup(ares_channel *ch, const char *server)
{
	struct ares_options opts;
	int mask = ARES_OPT_FLAGS | ARES_OPT_TIMEOUTMS | ARES_OPT_TRIES |
	           ARES_OPT_LOOKUPS;
	char csv[ARESC_ARG_MAX];
	char lookups[] = "b";
	int status;

	memset(&opts, 0, sizeof opts);
	opts.flags = ARES_FLAG_NOSEARCH;
	opts.timeout = ARESC_TRY_MS;
	opts.tries = 1;
	opts.lookups = lookups;
	status = ares_init_options(ch, &opts, mask);
	if (status != ARES_SUCCESS) {
		fprintf(stderr, "ares_client: init: %s\n",
		        ares_strerror(status));
		return -1;
	}
	if (strchr(server, ':') != NULL)
		snprintf(csv, sizeof csv, "%s", server);
	else
		snprintf(csv, sizeof csv, "%s:53", server);
	status = ares_set_servers_ports_csv(*ch, csv);
	if (status != ARES_SUCCESS) {
		fprintf(stderr, "ares_client: server %s: %s\n", server,
		        ares_strerror(status));
		ares_destroy(*ch);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static struct aresc_query q[ARESC_MAX_QUERIES];
	struct ares_addrinfo_hints hints;
	ares_channel ch;
	int i, n = argc - 2, rc;

	if (argc < 3 || n > ARESC_MAX_QUERIES) {
		fprintf(stderr, "usage: ares_client SERVER[:PORT] NAME[/TYPE]..."
		        " (at most %d)\n", ARESC_MAX_QUERIES);
		return 1;
	}
	for (i = 0; i < n; i++)
		if (aresc_parse_arg(argv[i + 2], &q[i]) != 0) {
			fprintf(stderr, "ares_client: bad query '%s' (TYPE: "
			        "A, AAAA, MX, TXT)\n", argv[i + 2]);
			return 1;
		}
	if (ares_library_init(ARES_LIB_INIT_ALL) != ARES_SUCCESS)
		return 1;
	if (aresc_setup(&ch, argv[1]) != 0) {
		ares_library_cleanup();
		return 1;
	}
	memset(&hints, 0, sizeof hints);
	hints.ai_family = AF_UNSPEC;
	hints.ai_flags = ARES_AI_NOSORT | ARES_AI_CANONNAME;
	for (i = 0; i < n; i++) {
		aresc_open++;
		if (q[i].type == NULL)
			ares_getaddrinfo(ch, q[i].name, NULL, &hints,
			                 aresc_addrinfo_cb, &q[i]);
		else
			ares_query(ch, q[i].name, ns_c_in, q[i].qtype,
			           aresc_query_cb, &q[i]);
	}
	rc = aresc_loop(ch) == 0 ? 0 : 2;
	if (rc != 0)
		fprintf(stderr, "ares_client: %d queries still open after "
		        "%d ms\n", aresc_open, ARESC_TOTAL_MS);
	ares_destroy(ch);
	ares_library_cleanup();
	fflush(stdout);
	return rc;
}
