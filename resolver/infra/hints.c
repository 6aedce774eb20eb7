/*
 * resolver/infra/hints.c - root hints file parser (see hints.h).
 *
 * Lines are split into at most HINTS_TOKENS_MAX tokens; NS records go
 * straight into the server list, addresses into a bounded pending list
 * that is matched to the NS names once the whole file has been read (an
 * address may come before its NS record).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/fileio.h"
#include "base/netaddr.h"
#include "hints.h"
#include "wire/wire.h"

/** Most whitespace-separated tokens on one line (one more = error). */
#define HINTS_TOKENS_MAX 6
/** Most addresses read before matching them to NS names. */
#define HINTS_PENDING_MAX (HINTS_MAX_NS * HINTS_MAX_ADDRS)
/** Largest TTL (RFC 2181 section 8). */
#define HINTS_TTL_MAX 0x7fffffffUL
/** The DNS port. */
#define HINTS_PORT 53
/** Bytes of an IPv6 address; IPv4 uses the first 4. */
#define HINTS_IP_BYTES 16

struct hints_addr {
	int family;
	uint8_t ip[HINTS_IP_BYTES];
};

struct hints_ns {
	uint8_t name[HINTS_NAME_MAX];
	size_t namelen;
	size_t line;
	size_t naddr;
	struct hints_addr addr[HINTS_MAX_ADDRS];
};

struct hints {
	size_t n;
	struct hints_ns ns[HINTS_MAX_NS];
};

/** An address waiting for its NS name. */
struct hints_pending {
	uint8_t name[HINTS_NAME_MAX];
	size_t namelen;
	size_t line;
	struct hints_addr addr;
};

/** Parser state. */
struct hints_ctx {
	const char *file;
	size_t line;
	char *err;
	size_t errlen;
	struct hints *h;
	struct hints_pending *pend;
	size_t npend;
};

/** One line cut into tokens (pointers into a line copy). */
struct hints_tokens {
	char *tok[HINTS_TOKENS_MAX];
	size_t n;
};

const char *hints_strerror(int status)
{
	switch (status) {
	case HINTS_OK: return "ok";
	case HINTS_ESYNTAX: return "syntax error";
	case HINTS_ETOOMANY: return "too many servers or addresses";
	case HINTS_EEMPTY: return "no root servers";
	case HINTS_ENOADDR: return "root server without an address";
	case HINTS_EORPHAN:
		return "address of a name that is not a root server";
	case HINTS_EIO: return "cannot read the file";
	case HINTS_EINVAL: return "invalid argument";
	case HINTS_ENOMEM: return "out of memory";
	default: return "unknown hints status";
	}
}

/* Report "FILE:LINE: reason" and return status. */
static int hints_fail(struct hints_ctx *x, size_t line, int status,
                      const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int hints_fail(struct hints_ctx *x, size_t line, int status,
                      const char *fmt, ...)
{
	va_list ap;
	int n;

	if (x->err == NULL || x->errlen == 0)
		return status;
	n = snprintf(x->err, x->errlen, "%s:%zu: ", x->file, line);
	if (n < 0 || (size_t)n >= x->errlen)
		return status;
	va_start(ap, fmt);
	(void)vsnprintf(x->err + n, x->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return status;
}

/* Cut a line (NUL-terminated copy) into tokens; drop the comment. */
static void hints_tokenize(char *line, struct hints_tokens *t)
{
	char *p = line;
	char *semi = strchr(line, ';');

	if (semi != NULL)
		*semi = '\0';
	t->n = 0;
	while (*p != '\0') {
		while (*p == ' ' || *p == '\t' || *p == '\r')
			p++;
		if (*p == '\0')
			break;
		if (t->n == HINTS_TOKENS_MAX) {
			t->n++;
			return;
		}
		t->tok[t->n++] = p;
		while (*p != '\0' && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (*p != '\0')
			*p++ = '\0';
	}
}

static bool hints_ttl_ok(const char *s)
{
	unsigned long v = 0;
	size_t i;

	if (s[0] == '\0')
		return false;
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		v = v * 10 + (unsigned long)(s[i] - '0');
		if (v > HINTS_TTL_MAX)
			return false;
	}
	return true;
}

static int hints_name(struct hints_ctx *x, const char *s, uint8_t *out,
                      size_t *outlen, const char *what)
{
	if (wire_name_from_text(s, strlen(s), out, outlen) != WIRE_OK)
		return hints_fail(x, x->line, HINTS_ESYNTAX,
		                  "bad %s name '%s'", what, s);
	wire_name_lower(out, *outlen);
	return HINTS_OK;
}

static int hints_add_ns(struct hints_ctx *x, const uint8_t *owner,
                        size_t ownerlen, const char *data)
{
	uint8_t name[HINTS_NAME_MAX];
	size_t namelen, i;
	int rc;

	if (ownerlen != 1 || owner[0] != 0)
		return hints_fail(x, x->line, HINTS_ESYNTAX,
		                  "NS record not owned by the root '.'");
	rc = hints_name(x, data, name, &namelen, "NS");
	if (rc != HINTS_OK)
		return rc;
	for (i = 0; i < x->h->n; i++)
		if (wire_name_equal(x->h->ns[i].name, x->h->ns[i].namelen,
		                    name, namelen))
			return HINTS_OK;
	if (x->h->n == HINTS_MAX_NS)
		return hints_fail(x, x->line, HINTS_ETOOMANY,
		                  "more than %d root servers", HINTS_MAX_NS);
	memcpy(x->h->ns[x->h->n].name, name, namelen);
	x->h->ns[x->h->n].namelen = namelen;
	x->h->ns[x->h->n].line = x->line;
	x->h->n++;
	return HINTS_OK;
}

static int hints_add_addr(struct hints_ctx *x, const uint8_t *owner,
                          size_t ownerlen, int family, const char *data)
{
	struct hints_pending *p;

	if (x->npend == HINTS_PENDING_MAX)
		return hints_fail(x, x->line, HINTS_ETOOMANY,
		                  "more than %d addresses", HINTS_PENDING_MAX);
	p = &x->pend[x->npend];
	memset(p, 0, sizeof(*p));
	if (inet_pton(family, data, p->addr.ip) != 1)
		return hints_fail(x, x->line, HINTS_ESYNTAX,
		                  "bad %s address '%s'",
		                  family == AF_INET ? "IPv4" : "IPv6", data);
	p->addr.family = family;
	memcpy(p->name, owner, ownerlen);
	p->namelen = ownerlen;
	p->line = x->line;
	x->npend++;
	return HINTS_OK;
}

/* Parse one record line (already tokenized, at least one token). */
static int hints_record(struct hints_ctx *x, const struct hints_tokens *t)
{
	uint8_t owner[HINTS_NAME_MAX];
	size_t ownerlen, ti = 2;
	const char *type;
	int rc;

	if (t->tok[0][0] == '$')
		return hints_fail(x, x->line, HINTS_ESYNTAX,
		                  "directive '%s' not supported", t->tok[0]);
	if (t->n < 4 || t->n > 5)
		return hints_fail(x, x->line, HINTS_ESYNTAX,
		                  "expected 'OWNER TTL [IN] TYPE DATA'");
	rc = hints_name(x, t->tok[0], owner, &ownerlen, "owner");
	if (rc != HINTS_OK)
		return rc;
	if (!hints_ttl_ok(t->tok[1]))
		return hints_fail(x, x->line, HINTS_ESYNTAX, "bad TTL '%s'",
		                  t->tok[1]);
	if (t->n == 5) {
		if (strcasecmp(t->tok[2], "IN") != 0)
			return hints_fail(x, x->line, HINTS_ESYNTAX,
			                  "class '%s' is not IN", t->tok[2]);
		ti = 3;
	}
	type = t->tok[ti];
	if (strcasecmp(type, "NS") == 0)
		return hints_add_ns(x, owner, ownerlen, t->tok[ti + 1]);
	if (strcasecmp(type, "A") == 0)
		return hints_add_addr(x, owner, ownerlen, AF_INET,
		                      t->tok[ti + 1]);
	if (strcasecmp(type, "AAAA") == 0)
		return hints_add_addr(x, owner, ownerlen, AF_INET6,
		                      t->tok[ti + 1]);
	return hints_fail(x, x->line, HINTS_ESYNTAX,
	                  "type '%s' is not NS, A or AAAA", type);
}

/* Give each pending address to its NS name. */
static int hints_match(struct hints_ctx *x)
{
	size_t i, j;

	for (i = 0; i < x->npend; i++) {
		const struct hints_pending *p = &x->pend[i];
		struct hints_ns *ns = NULL;
		bool dup = false;

		for (j = 0; j < x->h->n && ns == NULL; j++)
			if (wire_name_equal(x->h->ns[j].name,
			                    x->h->ns[j].namelen, p->name,
			                    p->namelen))
				ns = &x->h->ns[j];
		if (ns == NULL)
			return hints_fail(x, p->line, HINTS_EORPHAN,
			                  "address of a name that is no root "
			                  "server");
		for (j = 0; j < ns->naddr; j++)
			dup |= memcmp(&ns->addr[j], &p->addr,
			              sizeof(p->addr)) == 0;
		if (dup)
			continue;
		if (ns->naddr == HINTS_MAX_ADDRS)
			return hints_fail(x, p->line, HINTS_ETOOMANY,
			                  "more than %d addresses for one "
			                  "server",
			                  HINTS_MAX_ADDRS);
		ns->addr[ns->naddr++] = p->addr;
	}
	return HINTS_OK;
}

static int hints_check(struct hints_ctx *x)
{
	size_t i;

	if (x->h->n == 0) {
		/* the whole file is at fault: "FILE: reason", no line */
		if (x->err != NULL && x->errlen > 0)
			snprintf(x->err, x->errlen,
			         "%s: no root server (no NS "
			         "record owned by '.')",
			         x->file);
		return HINTS_EEMPTY;
	}
	for (i = 0; i < x->h->n; i++)
		if (x->h->ns[i].naddr == 0)
			return hints_fail(x, x->h->ns[i].line, HINTS_ENOADDR,
			                  "root server without an A or AAAA "
			                  "record");
	return HINTS_OK;
}

/* Parse one line of text [p, p + n). */
static int hints_line(struct hints_ctx *x, const char *p, size_t n)
{
	char buf[HINTS_MAX_LINE + 1];
	struct hints_tokens t;

	if (n > HINTS_MAX_LINE)
		return hints_fail(x, x->line, HINTS_ESYNTAX,
		                  "line longer than %d bytes", HINTS_MAX_LINE);
	if (memchr(p, '\0', n) != NULL)
		return hints_fail(x, x->line, HINTS_ESYNTAX, "NUL byte");
	memcpy(buf, p, n);
	buf[n] = '\0';
	hints_tokenize(buf, &t);
	if (t.n == 0)
		return HINTS_OK;
	return hints_record(x, &t);
}

static int hints_lines(struct hints_ctx *x, const char *text, size_t len)
{
	size_t pos = 0;
	int rc;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t n = nl != NULL ? (size_t)(nl - (text + pos)) :
		                        len - pos;

		x->line++;
		rc = hints_line(x, text + pos, n);
		if (rc != HINTS_OK)
			return rc;
		pos += n + (nl != NULL ? 1 : 0);
	}
	return HINTS_OK;
}

int hints_parse(const char *file, const char *text, size_t len,
                struct hints **out, char *err, size_t errlen)
{
	struct hints_ctx x;
	int rc;

	memset(&x, 0, sizeof(x));
	x.file = file != NULL ? file : "(hints)";
	x.err = err;
	x.errlen = errlen;
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (out == NULL || (text == NULL && len > 0))
		return hints_fail(&x, 0, HINTS_EINVAL, "invalid argument");
	x.h = calloc(1, sizeof(*x.h));
	x.pend = calloc(HINTS_PENDING_MAX, sizeof(*x.pend));
	if (x.h == NULL || x.pend == NULL) {
		rc = hints_fail(&x, 0, HINTS_ENOMEM, "out of memory");
		goto done;
	}
	rc = hints_lines(&x, text, len);
	if (rc == HINTS_OK)
		rc = hints_match(&x);
	if (rc == HINTS_OK)
		rc = hints_check(&x);
done:
	free(x.pend);
	if (rc != HINTS_OK) {
		free(x.h);
		return rc;
	}
	*out = x.h;
	return HINTS_OK;
}

/* Read a whole file (a regular one, at most HINTS_MAX_FILE_BYTES). */
static int hints_read(const char *path, char **text, size_t *len, char *err,
                      size_t errlen)
{
	char why[128];
	int rc = fileio_read_path(path, HINTS_MAX_FILE_BYTES, true, text, len,
	                          why, sizeof why);

	if (rc == FILEIO_OK)
		return HINTS_OK;
	if (err != NULL && errlen > 0)
		snprintf(err, errlen, "%s: %s", path, why);
	return rc == FILEIO_ENOMEM ? HINTS_ENOMEM : HINTS_EIO;
}

int hints_load(const char *path, struct hints **out, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (path == NULL || out == NULL)
		return HINTS_EINVAL;
	rc = hints_read(path, &text, &len, err, errlen);
	if (rc != HINTS_OK)
		return rc;
	rc = hints_parse(path, text, len, out, err, errlen);
	free(text);
	return rc;
}

void hints_free(struct hints *h)
{
	free(h);
}

size_t hints_ns_count(const struct hints *h)
{
	return h != NULL ? h->n : 0;
}

const uint8_t *hints_ns_name(const struct hints *h, size_t i, size_t *len)
{
	if (h == NULL || i >= h->n)
		return NULL;
	if (len != NULL)
		*len = h->ns[i].namelen;
	return h->ns[i].name;
}

size_t hints_addr_count(const struct hints *h, size_t i)
{
	return (h != NULL && i < h->n) ? h->ns[i].naddr : 0;
}

int hints_addr(const struct hints *h, size_t i, size_t j,
               struct sockaddr_storage *sa, socklen_t *salen)
{
	const struct hints_addr *a;

	if (h == NULL || i >= h->n || j >= h->ns[i].naddr || sa == NULL ||
	    salen == NULL)
		return HINTS_EINVAL;
	a = &h->ns[i].addr[j];
	*salen = netaddr_make(sa, a->ip, a->family == AF_INET ? 4 : 16,
	                      HINTS_PORT);
	return HINTS_OK;
}
