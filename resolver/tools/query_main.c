/*
 * resolver/tools/query_main.c - curvecache-query: send one DNS query to one
 * server, plain or boxed with DNSCurve (streamlined or TXT format), and
 * print the answer as dig does.
 *
 * Design notes:
 * - One query, one server, one fresh socket per attempt (the kernel picks
 *   a random source port); a random ID; the answer must match ID and
 *   question, and in boxed mode must open under the server key and our
 *   nonce. Everything else is dropped and counted, and we keep waiting
 *   until the timeout.
 * - Building and checking are exchange.c's, the daemon's own code (the
 *   tool sends the name as given: no 0x20).
 * - A truncated UDP answer is retried once over TCP, boxed the same way
 *   with a new nonce.
 * - No event loop: poll() on one socket with a deadline.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <sodium.h>

#include "curve.h"
#include "wire/exchange.h"
#include "wire/frame.h"
#include "query_int.h"
#include "wire/rrtext.h"
#include "wire/wire.h"

#define QUERY_EXIT_OK 0
#define QUERY_EXIT_USAGE 1
#define QUERY_EXIT_NOANSWER 2
/** EDNS payload offered in plain mode. */
#define QUERY_EDNS_PLAIN WIRE_EDNS_PAYLOAD_DEFAULT
/** EDNS payload offered inside a box: 1232 - 48 (curve/README, Sizes). */
#define QUERY_EDNS_BOXED \
	(WIRE_EDNS_PAYLOAD_DEFAULT - CURVE_STREAMLINED_RESPONSE_OVERHEAD)
/** Receive buffer: any UDP datagram or TCP message plus its prefix. */
#define QUERY_PKT_MAX (WIRE_MSG_MAX + WIRE_FRAME_PFX)
/** An OPT record without options (owner, type, class, TTL, RDLENGTH),
 *  and how far from its end the high byte of its flags word lies. */
#define QUERY_OPT_BYTES 11
#define QUERY_OPT_DO_BACK 4
/** Distinct rejection reasons remembered for the timeout message. */
#define QUERY_REASONS_MAX 8
#define NS_PER_SEC 1000000000ull

struct query_ctx {
	struct query_opts o;
	struct sockaddr_storage addr;
	socklen_t addrlen;
	char addr_text[INET6_ADDRSTRLEN];
	uint8_t qname[WIRE_NAME_MAX];
	size_t qnamelen;
	char qname_text[WIRE_NAME_TEXT_MAX];
	enum query_format format; /* resolved: STREAMLINED/TXT/OFF */
	uint8_t pk[CURVE_KEY_BYTES];
	char zone[WIRE_NAME_TEXT_MAX];
	struct curve_client *client;
	/* the attempt in flight (built and checked by exchange.c) */
	struct exchange_ask ask;
	struct exchange_sent sent;
	uint8_t nonce[CURVE_NONCE_BYTES];
	uint8_t inner[WIRE_MSG_MAX]; /* the query while boxing */
	uint8_t out[WIRE_MSG_MAX];   /* the packet sent */
	uint8_t pkt[QUERY_PKT_MAX];
	/* the accepted answer: msg.buf is pkt (plain) or answer (opened) */
	uint8_t answer[WIRE_MSG_MAX];
	size_t pktlen;
	struct wire_rr rr[WIRE_RR_MAX];
	struct wire_msg msg;
	int used_tcp;
	uint64_t rtt_ns;
	/* what was dropped */
	unsigned rejected;
	const char *reasons[QUERY_REASONS_MAX];
	size_t nreasons;
	const char *fatal; /* set on a socket error */
};

/* ------------------------------------------------------------------ */
/* Set-up: server address, name, key, format, zone                     */

static int setup_key(struct query_ctx *x, int *have_key)
{
	int rc;

	*have_key = 0;
	if (x->o.key != NULL) {
		rc = curve_keylabel_parse((const uint8_t *)x->o.key,
		                          strlen(x->o.key), x->pk);
		if (rc != CURVE_OK)
			return query_usage_error("not a uz5 key label",
			                         x->o.key);
		*have_key = 1;
	} else if (x->o.ns != NULL) {
		rc = curve_keylabel_find_text(x->o.ns, strlen(x->o.ns), x->pk);
		if (rc == CURVE_ENAME)
			return query_usage_error("bad --ns name", x->o.ns);
		*have_key = (rc == CURVE_OK);
	}
	return 0;
}

static int setup_zone(struct query_ctx *x)
{
	uint8_t z[WIRE_NAME_MAX];
	size_t zlen, off;
	const char *src = x->o.zone;

	if (src != NULL) {
		if (wire_name_from_text(src, strlen(src), z, &zlen) != WIRE_OK)
			return query_usage_error("bad zone name", src);
		off = 0;
	} else {
		if (wire_name_parent(x->qname, x->qnamelen, &off) != WIRE_OK)
			return query_usage_error(
				"--curve=txt needs --zone for", ".");
		memcpy(z, x->qname, x->qnamelen);
		zlen = x->qnamelen;
	}
	if (wire_name_to_text(z + off, zlen - off, x->zone, sizeof(x->zone),
	                      NULL) != WIRE_OK)
		return query_usage_error("bad zone name", src);
	return 0;
}

/* The question as the exchange module takes it. */
static void setup_ask(struct query_ctx *x)
{
	struct exchange_ask *a = &x->ask;

	a->mode = x->format == FMT_STREAMLINED ? EXCHANGE_STREAMLINED :
	          x->format == FMT_TXT         ? EXCHANGE_TXT :
	                                         EXCHANGE_PLAIN;
	a->qname = x->qname;
	a->qnamelen = x->qnamelen;
	a->qtype = x->o.qtype;
	a->qclass = x->o.qclass;
	a->flags = (uint16_t)((x->o.rd ? WIRE_FLAG_RD : 0) |
	                      (x->o.cd ? WIRE_FLAG_CD : 0));
	if (!x->o.no_edns)
		a->edns = x->format == FMT_OFF ? QUERY_EDNS_PLAIN :
		                                 QUERY_EDNS_BOXED;
	a->client = x->client;
	a->server_key = x->pk;
	a->nonce = x->nonce;
	a->zone = x->zone;
}

static int setup(struct query_ctx *x)
{
	int have_key, rc;

	if (query_server_addr(&x->o, &x->addr, &x->addrlen, x->addr_text,
	                      sizeof(x->addr_text)) != 0)
		return -1;
	rc = wire_name_from_text(x->o.name, strlen(x->o.name), x->qname,
	                         &x->qnamelen);
	if (rc != WIRE_OK)
		return query_usage_error(wire_strerror(rc), x->o.name);
	if (wire_name_to_text(x->qname, x->qnamelen, x->qname_text,
	                      sizeof(x->qname_text), NULL) != WIRE_OK)
		return query_usage_error("bad name", x->o.name);
	if (setup_key(x, &have_key) != 0)
		return -1;
	x->format = x->o.format;
	if (x->format == FMT_AUTO)
		x->format = have_key ? FMT_STREAMLINED : FMT_OFF;
	if (x->format != FMT_OFF && !have_key)
		return query_usage_error("--curve needs --key, or --ns with a "
		                         "key "
		                         "label",
		                         NULL);
	if (x->o.dnssec && (x->format != FMT_OFF || x->o.no_edns))
		return query_usage_error("+dnssec needs plain DNS with EDNS "
		                         "(not --curve, not +noedns)",
		                         NULL);
	if (x->format == FMT_TXT && setup_zone(x) != 0)
		return -1;
	if (x->format != FMT_OFF &&
	    curve_client_new(&x->client, 1) != CURVE_OK) {
		fprintf(stderr,
		        "curvecache-query: cannot create a client key\n");
		return -1;
	}
	setup_ask(x);
	return 0;
}

/* ------------------------------------------------------------------ */
/* Building and accepting                                              */

/* +dnssec: set DO in the OPT record that ends a plain query (RFC 3225;
 * the exchange builds it without): its flags word's high byte is the
 * fourth byte from the end. */
static void set_do(uint8_t *pkt, size_t len)
{
	size_t opt = len - QUERY_OPT_BYTES;

	if (len < WIRE_HEADER_BYTES + QUERY_OPT_BYTES || pkt[opt] != 0 ||
	    pkt[opt + 1] != 0 || pkt[opt + 2] != WIRE_TYPE_OPT)
		return;
	pkt[len - QUERY_OPT_DO_BACK] |= (uint8_t)(WIRE_EDNS_DO >> 8);
}

/* Make a fresh query: new ID, new nonce, boxed as the format says. */
static int build_query(struct query_ctx *x)
{
	struct exchange_bufs b = { x->out,   sizeof(x->out),
		                   x->inner, sizeof(x->inner),
		                   NULL,     NULL,
		                   0,        0 };
	int rc;

	if (x->format != FMT_OFF &&
	    curve_nonce_next(x->client, x->nonce) != CURVE_OK) {
		x->fatal = "no nonce";
		return -1;
	}
	rc = exchange_build(&x->ask, &b, &x->sent);
	if (rc != EXCHANGE_OK) {
		x->fatal = exchange_strerror(rc, b.why);
		return -1;
	}
	if (x->o.dnssec && x->format == FMT_OFF)
		set_do(x->out, x->sent.pktlen);
	return 0;
}

static void reject(struct query_ctx *x, const char *reason)
{
	size_t i;

	x->rejected++;
	for (i = 0; i < x->nreasons; i++)
		if (strcmp(x->reasons[i], reason) == 0)
			return;
	if (x->nreasons < QUERY_REASONS_MAX)
		x->reasons[x->nreasons++] = reason;
}

/* Check a received packet; 1 if it is the answer, 0 if dropped. */
static int accept_packet(struct query_ctx *x, uint8_t *pkt, size_t len)
{
	struct exchange_bufs b = { NULL,        0,
		                   x->answer,   sizeof(x->answer),
		                   x->out,      x->rr,
		                   WIRE_RR_MAX, 0 };
	int rc = exchange_check(&x->ask, &x->sent, &b, pkt, len, &x->msg);

	/* a FORMERR that leaves out the question answers nothing shown */
	if (rc == EXCHANGE_FORMERR && !x->msg.has_question) {
		rc = EXCHANGE_EQUESTION;
		b.why = WIRE_EQUESTION;
	}
	if (rc != EXCHANGE_OK && rc != EXCHANGE_FORMERR) {
		reject(x, exchange_strerror(rc, b.why));
		return 0;
	}
	x->pktlen = len;
	return 1;
}

/* ------------------------------------------------------------------ */
/* Transport                                                           */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * NS_PER_SEC + (uint64_t)ts.tv_nsec;
}

/* Wait until fd is ready for events or the deadline; 1 ready, 0 late. */
static int wait_fd(int fd, short events, uint64_t deadline)
{
	struct pollfd p = { fd, events, 0 };
	uint64_t t;
	int rc;

	for (;;) {
		t = now_ns();
		if (t >= deadline)
			return 0;
		rc = poll(&p, 1, (int)((deadline - t + 999999) / 1000000));
		if (rc > 0)
			return 1;
		if (rc < 0 && errno != EINTR)
			return -1;
	}
}

static int open_socket(struct query_ctx *x, int type, uint64_t deadline)
{
	int fd, err = 0;
	socklen_t el = sizeof(err);

	fd = socket(x->addr.ss_family, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0) {
		x->fatal = strerror(errno);
		return -1;
	}
	if (connect(fd, (struct sockaddr *)&x->addr, x->addrlen) == 0)
		return fd;
	if (errno == EINPROGRESS && wait_fd(fd, POLLOUT, deadline) == 1 &&
	    getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &el) == 0 && err == 0)
		return fd;
	x->fatal = err                  ? strerror(err) :
	           errno == EINPROGRESS ? "connect timed out" :
	                                  strerror(errno);
	close(fd);
	return -1;
}

/* One UDP exchange: 1 accepted, 0 timed out, -1 socket error. */
static int exchange_udp(struct query_ctx *x, uint64_t deadline)
{
	ssize_t n;
	int fd, rc = 0;

	fd = open_socket(x, SOCK_DGRAM, deadline);
	if (fd < 0)
		return -1;
	if (send(fd, x->out, x->sent.pktlen, 0) != (ssize_t)x->sent.pktlen) {
		x->fatal = strerror(errno);
		close(fd);
		return -1;
	}
	while (rc == 0 && wait_fd(fd, POLLIN, deadline) == 1) {
		n = recv(fd, x->pkt, sizeof(x->pkt), 0);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n < 0) {
			x->fatal = strerror(errno);
			rc = -1;
			break;
		}
		rc = accept_packet(x, x->pkt, (size_t)n);
	}
	close(fd);
	return rc;
}

/* Read exactly n bytes before the deadline; 1 done, 0 late/EOF, -1 err. */
static int read_full(struct query_ctx *x, int fd, uint8_t *p, size_t n,
                     uint64_t deadline)
{
	size_t got = 0;
	ssize_t r;

	while (got < n) {
		if (wait_fd(fd, POLLIN, deadline) != 1)
			return 0;
		r = read(fd, p + got, n - got);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r < 0) {
			x->fatal = strerror(errno);
			return -1;
		}
		if (r == 0) {
			x->fatal = "connection closed";
			return -1;
		}
		got += (size_t)r;
	}
	return 1;
}

static int write_full(struct query_ctx *x, int fd, const uint8_t *p, size_t n,
                      uint64_t deadline)
{
	size_t done = 0;
	ssize_t r;

	while (done < n) {
		if (wait_fd(fd, POLLOUT, deadline) != 1)
			return 0;
		r = send(fd, p + done, n - done, MSG_NOSIGNAL);
		if (r < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (r < 0) {
			x->fatal = strerror(errno);
			return -1;
		}
		done += (size_t)r;
	}
	return 1;
}

/* One message of the stream into x->pkt, its length prefix first
 * (wire_frame reads it); the message at x->pkt + WIRE_FRAME_PFX, *n
 * bytes. 1 done, 0 late, -1 error (EOF; a length of 0 or above
 * WIRE_MSG_MAX: the stream is lost). */
static int read_frame(struct query_ctx *x, int fd, size_t *n,
                      uint64_t deadline)
{
	int rc = read_full(x, fd, x->pkt, WIRE_FRAME_PFX, deadline);

	if (rc != 1)
		return rc;
	switch (wire_frame(x->pkt, WIRE_FRAME_PFX,
	                   sizeof(x->pkt) - WIRE_FRAME_PFX, n)) {
	case WIRE_FRAME_MORE: break;
	case WIRE_FRAME_EMPTY: x->fatal = "empty TCP message"; return -1;
	default: x->fatal = "TCP message too long"; return -1;
	}
	return read_full(x, fd, x->pkt + WIRE_FRAME_PFX, *n, deadline);
}

/* One TCP exchange: 1 accepted, 0 timed out, -1 socket error. */
static int exchange_tcp(struct query_ctx *x, uint64_t deadline)
{
	uint8_t pfx[WIRE_FRAME_PFX] = { (uint8_t)(x->sent.pktlen >> 8),
		                        (uint8_t)x->sent.pktlen };
	size_t n;
	int fd, rc;

	fd = open_socket(x, SOCK_STREAM, deadline);
	if (fd < 0)
		return -1;
	rc = write_full(x, fd, pfx, sizeof pfx, deadline);
	if (rc == 1)
		rc = write_full(x, fd, x->out, x->sent.pktlen, deadline);
	while (rc == 1) {
		rc = read_frame(x, fd, &n, deadline);
		if (rc == 1 && accept_packet(x, x->pkt + WIRE_FRAME_PFX, n))
			rc = 2;
	}
	close(fd);
	return rc == 2 ? 1 : rc;
}

/* Build, send and wait for one attempt. */
static int attempt(struct query_ctx *x, int tcp)
{
	uint64_t start, deadline;
	int rc;

	if (build_query(x) != 0)
		return -1;
	start = now_ns();
	deadline = start + (uint64_t)(x->o.timeout * (double)NS_PER_SEC);
	x->used_tcp = tcp;
	rc = tcp ? exchange_tcp(x, deadline) : exchange_udp(x, deadline);
	x->rtt_ns = now_ns() - start;
	return rc;
}

/* ------------------------------------------------------------------ */
/* Output                                                              */

static void print_header(const struct query_ctx *x)
{
	const struct wire_header *h = &x->msg.hdr;
	char a[RRTEXT_NAME_MAX], b[RRTEXT_NAME_MAX], f[RRTEXT_FLAGS_MAX];
	char tn[RRTEXT_NAME_MAX], cn[RRTEXT_NAME_MAX];

	printf("; <<>> curvecache-query %s <<>> %s %s%s%s @%s\n",
	       PACKAGE_VERSION, x->qname_text,
	       rrtext_type_name(x->o.qtype, tn),
	       x->o.qclass != WIRE_CLASS_IN ? " " : "",
	       x->o.qclass != WIRE_CLASS_IN ?
	               rrtext_class_name(x->o.qclass, cn) :
	               "",
	       x->o.server);
	printf(";; ->>HEADER<<- opcode: %s, status: %s, id: %u\n",
	       rrtext_opcode_name(WIRE_OPCODE(h->flags), a),
	       rrtext_rcode_name(wire_msg_rcode(&x->msg), b), (unsigned)h->id);
	rrtext_flags(h->flags, f);
	printf(";; flags:%s%s; QUERY: %u, ANSWER: %u, AUTHORITY: %u, "
	       "ADDITIONAL: %u\n\n",
	       f[0] ? " " : "", f, (unsigned)h->qdcount, (unsigned)h->ancount,
	       (unsigned)h->nscount, (unsigned)h->arcount);
}

/* Print the records of one section (OPT excluded), dig style. */
static void print_section(const struct query_ctx *x, const char *title,
                          size_t first, size_t count, char *line)
{
	size_t i, shown = 0;

	for (i = first; i < first + count; i++) {
		if (i == x->msg.opt)
			continue;
		if (shown++ == 0)
			printf(";; %s SECTION:\n", title);
		if (rrtext_rr(line, RRTEXT_LINE_MAX, NULL, x->msg.buf,
		              x->msg.len, &x->rr[i]) != WIRE_OK)
			printf(";; (record %zu not printable)\n", i);
		else
			printf("%s\n", line);
	}
	if (shown > 0)
		printf("\n");
}

static void print_footer(const struct query_ctx *x)
{
	char label[CURVE_KEYLABEL_LEN + 1];

	printf(";; Query time: %.3f ms\n", (double)x->rtt_ns / 1e6);
	printf(";; SERVER: %s#%u(%s) (%s)\n", x->addr_text, x->o.port,
	       x->o.server, x->used_tcp ? "TCP" : "UDP");
	if (x->format == FMT_OFF) {
		printf(";; DNSCURVE: off (plain DNS)\n");
	} else {
		if (curve_keylabel_make(label, x->pk) != CURVE_OK)
			snprintf(label, sizeof(label), "(invalid)");
		printf(";; DNSCURVE: %s, server key %s\n",
		       x->format == FMT_TXT ? "txt" : "streamlined", label);
	}
	printf(";; MSG SIZE  rcvd: %zu\n", x->msg.len);
	if (x->format != FMT_OFF)
		printf(";; PACKET SIZE rcvd: %zu\n", x->pktlen);
}

static int print_answer(const struct query_ctx *x)
{
	char *line = malloc(RRTEXT_LINE_MAX);
	const struct wire_msg *m = &x->msg;

	if (line == NULL)
		return -1;
	print_header(x);
	if (m->opt != WIRE_NONE) {
		printf(";; OPT PSEUDOSECTION:\n");
		if (rrtext_opt(line, RRTEXT_LINE_MAX, NULL, x->msg.buf,
		               x->msg.len, &x->rr[m->opt]) == WIRE_OK)
			printf("%s\n", line);
		else
			printf("; EDNS: malformed OPT record\n");
	}
	printf(";; QUESTION SECTION:\n");
	if (rrtext_question(line, RRTEXT_LINE_MAX, NULL, &m->q) == WIRE_OK)
		printf("%s\n\n", line);
	print_section(x, "ANSWER", 0, m->an, line);
	print_section(x, "AUTHORITY", m->an, m->ns, line);
	print_section(x, "ADDITIONAL", m->an + m->ns, m->ar, line);
	print_footer(x);
	free(line);
	return 0;
}

static int print_short(const struct query_ctx *x)
{
	char *line = malloc(RRTEXT_RDATA_MAX);
	size_t i;

	if (line == NULL)
		return -1;
	for (i = 0; i < x->msg.an; i++)
		if (rrtext_rdata(line, RRTEXT_RDATA_MAX, NULL, x->msg.buf,
		                 x->msg.len, &x->rr[i]) == WIRE_OK)
			printf("%s\n", line);
	free(line);
	return 0;
}

static void print_failure(const struct query_ctx *x)
{
	size_t i;

	if (x->fatal != NULL)
		fprintf(stderr,
		        ";; no answer accepted: %s; %u packets "
		        "rejected",
		        x->fatal, x->rejected);
	else
		fprintf(stderr,
		        ";; no answer accepted: timed out after %g s; "
		        "%u packets rejected",
		        x->o.timeout, x->rejected);
	for (i = 0; i < x->nreasons; i++)
		fprintf(stderr, "%s%s", i ? ", " : " (", x->reasons[i]);
	fprintf(stderr, "%s\n", x->nreasons ? ")" : "");
}

/* ------------------------------------------------------------------ */

/* UDP first (unless --tcp), then TCP if the answer was truncated. */
static int run(struct query_ctx *x)
{
	int rc = attempt(x, x->o.tcp);

	if (rc == 1 && !x->used_tcp && (x->msg.hdr.flags & WIRE_FLAG_TC)) {
		if (!x->o.short_out)
			printf(";; Truncated, retrying in TCP mode.\n");
		rc = attempt(x, 1);
	}
	return rc;
}

int main(int argc, char **argv)
{
	struct query_ctx *x = calloc(1, sizeof(*x));
	int rc, status = QUERY_EXIT_NOANSWER;

	if (x == NULL || sodium_init() < 0) {
		fprintf(stderr, "curvecache-query: initialisation failed\n");
		free(x);
		return QUERY_EXIT_NOANSWER;
	}
	rc = query_args_parse(argc, argv, &x->o);
	if (rc == QUERY_ARGS_HELP)
		query_usage(stdout);
	if (rc == QUERY_ARGS_VERSION)
		printf("curvecache-query %s (libsodium %s)\n", PACKAGE_VERSION,
		       sodium_version_string());
	if (rc != 0 || setup(x) != 0) {
		status = rc > 0 ? QUERY_EXIT_OK : QUERY_EXIT_USAGE;
		goto done;
	}
	if (run(x) == 1) {
		status = QUERY_EXIT_OK;
		if ((x->o.short_out ? print_short(x) : print_answer(x)) != 0)
			status = QUERY_EXIT_NOANSWER;
	} else {
		print_failure(x);
	}
done:
	curve_client_free(x->client);
	free(x);
	return status;
}
