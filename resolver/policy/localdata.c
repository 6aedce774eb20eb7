/*
 * resolver/policy/localdata.c - local-data-file and block-file: parse, sort,
 * answer (see localdata.h).
 *
 * A record in the record arena: name length (1 byte), the lowercase wire
 * name, type (2 bytes, host order), RDATA length (1 byte), RDATA. A
 * blocked name in the block arena: name length, name. Each arena has an
 * array of offsets sorted by name (records: then type, then RDATA, for
 * PTR the order of the file), searched by bisection.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* qsort_r */
#endif
#include "localdata.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/fileio.h"
#include "wire/wire.h"

/** First arena and index sizes; they double as they fill. */
#define LD_ARENA_START 4096
#define LD_INDEX_START 64
/** Largest arena (offsets are 32 bits). */
#define LD_ARENA_MAX 0xffffffffu
/** Bytes of an IPv4 and an IPv6 address. */
#define LD_IPV4_BYTES 4
#define LD_IPV6_BYTES 16
/** Wire bytes of a record's fixed part: name length, type, RDLENGTH. */
#define LD_REC_FIXED 4

/** A growing byte arena and its index of entry offsets. */
struct ld_arena {
	uint8_t *buf;
	size_t len, cap;
	uint32_t *idx;
	size_t n, ncap;
};

struct localdata {
	struct ld_arena rec;
	struct ld_arena blk;
	bool finished;
};

/** A record as read from the arena. */
struct ld_rec {
	const uint8_t *name;
	size_t namelen;
	uint16_t type;
	const uint8_t *rdata;
	size_t rdlen;
};

const char *localdata_strerror(int status)
{
	switch (status) {
	case LOCALDATA_OK: return "ok";
	case LOCALDATA_ENOTLOCAL: return "not a local name";
	case LOCALDATA_ESPACE: return "buffer too small";
	case LOCALDATA_EINVAL: return "invalid argument";
	case LOCALDATA_EPARSE: return "bad line";
	case LOCALDATA_EFILE: return "cannot read file";
	case LOCALDATA_ENOMEM: return "out of memory";
	case LOCALDATA_ETOOMANY: return "too many entries";
	default: return "unknown status";
	}
}

int localdata_new(struct localdata **out)
{
	struct localdata *ld = calloc(1, sizeof(*ld));

	if (ld == NULL)
		return LOCALDATA_ENOMEM;
	*out = ld;
	return LOCALDATA_OK;
}

void localdata_free(struct localdata *ld)
{
	if (ld == NULL)
		return;
	free(ld->rec.buf);
	free(ld->rec.idx);
	free(ld->blk.buf);
	free(ld->blk.idx);
	free(ld);
}

void localdata_counts(const struct localdata *ld, size_t *records,
                      size_t *blocked)
{
	*records = ld != NULL ? ld->rec.n : 0;
	*blocked = ld != NULL ? ld->blk.n : 0;
}

/* Room for need more bytes and one more index slot. */
static int arena_reserve(struct ld_arena *a, size_t need)
{
	if (a->n >= LOCALDATA_ENTRIES_MAX)
		return LOCALDATA_ETOOMANY;
	if (need > LD_ARENA_MAX - a->len)
		return LOCALDATA_ETOOMANY;
	if (a->len + need > a->cap) {
		size_t cap = a->cap ? a->cap : LD_ARENA_START;
		uint8_t *nb;

		while (cap < a->len + need)
			cap *= 2;
		nb = realloc(a->buf, cap);
		if (nb == NULL)
			return LOCALDATA_ENOMEM;
		a->buf = nb;
		a->cap = cap;
	}
	if (a->n == a->ncap) {
		size_t ncap = a->ncap ? a->ncap * 2 : LD_INDEX_START;
		uint32_t *ni = realloc(a->idx, ncap * sizeof(*ni));

		if (ni == NULL)
			return LOCALDATA_ENOMEM;
		a->idx = ni;
		a->ncap = ncap;
	}
	return LOCALDATA_OK;
}

static int rec_add(struct localdata *ld, const uint8_t *name, size_t nlen,
                   uint16_t type, const uint8_t *rd, size_t rdlen)
{
	struct ld_arena *a = &ld->rec;
	int rc = arena_reserve(a, LD_REC_FIXED + nlen + rdlen);
	uint8_t *p;

	if (rc != LOCALDATA_OK)
		return rc;
	p = a->buf + a->len;
	a->idx[a->n++] = (uint32_t)a->len;
	*p++ = (uint8_t)nlen;
	memcpy(p, name, nlen);
	p += nlen;
	memcpy(p, &type, sizeof type);
	p += sizeof type;
	*p++ = (uint8_t)rdlen;
	memcpy(p, rd, rdlen);
	a->len += LD_REC_FIXED + nlen + rdlen;
	return LOCALDATA_OK;
}

static int blk_add(struct localdata *ld, const uint8_t *name, size_t nlen)
{
	struct ld_arena *a = &ld->blk;
	int rc = arena_reserve(a, 1 + nlen);

	if (rc != LOCALDATA_OK)
		return rc;
	a->idx[a->n++] = (uint32_t)a->len;
	a->buf[a->len] = (uint8_t)nlen;
	memcpy(a->buf + a->len + 1, name, nlen);
	a->len += 1 + nlen;
	return LOCALDATA_OK;
}

static void rec_read(const struct ld_arena *a, uint32_t off, struct ld_rec *r)
{
	const uint8_t *p = a->buf + off;

	r->namelen = p[0];
	r->name = p + 1;
	memcpy(&r->type, p + 1 + r->namelen, sizeof r->type);
	r->rdlen = p[1 + r->namelen + 2];
	r->rdata = p + LD_REC_FIXED + r->namelen;
}

/* ------------------------------------------------------------------ */
/* Sorting and searching                                               */

static int name_cmp(const uint8_t *a, size_t alen, const uint8_t *b,
                    size_t blen)
{
	int c = memcmp(a, b, alen < blen ? alen : blen);

	if (c != 0)
		return c;
	return alen < blen ? -1 : alen > blen ? 1 : 0;
}

static int rec_sort_cmp(const void *x, const void *y, void *arg)
{
	const struct ld_arena *a = arg;
	uint32_t ox = *(const uint32_t *)x, oy = *(const uint32_t *)y;
	struct ld_rec rx, ry;
	int c;

	rec_read(a, ox, &rx);
	rec_read(a, oy, &ry);
	c = name_cmp(rx.name, rx.namelen, ry.name, ry.namelen);
	if (c == 0 && rx.type != ry.type)
		c = rx.type < ry.type ? -1 : 1;
	if (c == 0 && rx.type != WIRE_TYPE_PTR)
		c = name_cmp(rx.rdata, rx.rdlen, ry.rdata, ry.rdlen);
	if (c == 0 && ox != oy)
		c = ox < oy ? -1 : 1; /* the order of the file */
	return c;
}

static int blk_sort_cmp(const void *x, const void *y, void *arg)
{
	const struct ld_arena *a = arg;
	const uint8_t *px = a->buf + *(const uint32_t *)x;
	const uint8_t *py = a->buf + *(const uint32_t *)y;

	return name_cmp(px + 1, px[0], py + 1, py[0]);
}

int localdata_finish(struct localdata *ld)
{
	if (ld == NULL)
		return LOCALDATA_EINVAL;
	if (ld->rec.n > 1)
		qsort_r(ld->rec.idx, ld->rec.n, sizeof(uint32_t), rec_sort_cmp,
		        &ld->rec);
	if (ld->blk.n > 1)
		qsort_r(ld->blk.idx, ld->blk.n, sizeof(uint32_t), blk_sort_cmp,
		        &ld->blk);
	ld->finished = true;
	return LOCALDATA_OK;
}

/* The first index whose entry's name is not below name (lower bound). */
static size_t lower_bound(const struct ld_arena *a, const uint8_t *name,
                          size_t len)
{
	size_t lo = 0, hi = a->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const uint8_t *p = a->buf + a->idx[mid];

		if (name_cmp(p + 1, p[0], name, len) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool entry_is(const struct ld_arena *a, size_t i, const uint8_t *name,
                     size_t len)
{
	const uint8_t *p;

	if (i >= a->n)
		return false;
	p = a->buf + a->idx[i];
	return p[0] == len && memcmp(p + 1, name, len) == 0;
}

/* Is the name, or an ancestor of it, blocked? */
static bool is_blocked(const struct localdata *ld, const uint8_t *name,
                       size_t len)
{
	size_t off = 0;

	if (ld->blk.n == 0)
		return false;
	while (off < len) {
		if (entry_is(&ld->blk,
		             lower_bound(&ld->blk, name + off, len - off),
		             name + off, len - off))
			return true;
		if (name[off] == 0)
			break;
		off += (size_t)name[off] + 1;
	}
	return false;
}

/* ------------------------------------------------------------------ */
/* Answers                                                             */

/* The records of a local name: those of qtype (ANY: all), one PTR. */
static int ld_records(const struct localdata *ld, size_t i,
                      const uint8_t *lname, size_t len, uint16_t qtype,
                      struct answer *a, uint8_t *buf, size_t cap)
{
	size_t used = 0;
	uint16_t count = 0, last_type = 0;

	for (; entry_is(&ld->rec, i, lname, len); i++) {
		struct ld_rec r;

		rec_read(&ld->rec, ld->rec.idx[i], &r);
		if (qtype != WIRE_TYPE_ANY && r.type != qtype)
			continue;
		if (r.type == WIRE_TYPE_PTR && count > 0 &&
		    last_type == WIRE_TYPE_PTR)
			continue; /* the first line giving the address */
		if (count == UINT16_MAX ||
		    !answer_rr_append(buf, cap, &used, r.name, r.namelen,
		                      r.type, WIRE_CLASS_IN, LOCALDATA_TTL,
		                      r.rdata, r.rdlen))
			return LOCALDATA_ESPACE;
		count++;
		last_type = r.type;
	}
	a->an = buf;
	a->an_len = used;
	a->an_count = count;
	return LOCALDATA_OK;
}

int localdata_answer(const struct localdata *ld, const uint8_t *lname,
                     size_t len, uint16_t qtype, uint16_t qclass,
                     struct answer *a, uint8_t *buf, size_t cap, bool *blocked)
{
	size_t i;

	if (blocked != NULL)
		*blocked = false;
	if (ld == NULL || (ld->rec.n == 0 && ld->blk.n == 0))
		return LOCALDATA_ENOTLOCAL;
	if (lname == NULL || a == NULL || buf == NULL || !ld->finished ||
	    len == 0 || len > WIRE_NAME_MAX)
		return LOCALDATA_EINVAL;
	if (qclass != WIRE_CLASS_IN && qclass != WIRE_CLASS_ANY)
		return LOCALDATA_ENOTLOCAL;
	memset(a, 0, sizeof(*a));
	a->rcode = WIRE_RCODE_NOERROR;
	i = ld->rec.n > 0 ? lower_bound(&ld->rec, lname, len) : 0;
	if (entry_is(&ld->rec, i, lname, len))
		return ld_records(ld, i, lname, len, qtype, a, buf, cap);
	if (!is_blocked(ld, lname, len))
		return LOCALDATA_ENOTLOCAL;
	a->rcode = WIRE_RCODE_NXDOMAIN;
	if (blocked != NULL)
		*blocked = true;
	return LOCALDATA_OK;
}

/* ------------------------------------------------------------------ */
/* Parsing                                                             */

/* The reverse name of an address (in-addr.arpa or ip6.arpa). */
static size_t reverse_name(int family, const uint8_t *ip, uint8_t *out)
{
	static const char hex[] = "0123456789abcdef";
	static const uint8_t v4[] = "\007in-addr\004arpa";
	static const uint8_t v6[] = "\003ip6\004arpa";
	size_t n = 0;
	int i;

	if (family == AF_INET) {
		for (i = LD_IPV4_BYTES - 1; i >= 0; i--) {
			int k = snprintf((char *)out + n + 1, 4, "%u", ip[i]);

			out[n] = (uint8_t)k;
			n += (size_t)k + 1;
		}
		memcpy(out + n, v4, sizeof v4);
		return n + sizeof v4;
	}
	for (i = LD_IPV6_BYTES - 1; i >= 0; i--) {
		out[n++] = 1;
		out[n++] = (uint8_t)hex[ip[i] & 0xf];
		out[n++] = 1;
		out[n++] = (uint8_t)hex[ip[i] >> 4];
	}
	memcpy(out + n, v6, sizeof v6);
	return n + sizeof v6;
}

/* A text name to lowercase wire form; false if malformed. */
static bool parse_name(const char *tok, uint8_t *out, size_t *len)
{
	if (wire_name_from_text(tok, strlen(tok), out, len) != WIRE_OK)
		return false;
	wire_name_lower(out, *len);
	return true;
}

/* Line context for messages. */
struct ld_line {
	const char *fname;
	size_t lineno;
	char *err;
	size_t errlen;
};

static int line_fail(const struct ld_line *l, const char *what,
                     const char *tok)
{
	snprintf(l->err, l->errlen, "%s:%zu: %s \"%.60s\"", l->fname,
	         l->lineno, what, tok);
	return LOCALDATA_EPARSE;
}

static int add_failed(const struct ld_line *l, int rc)
{
	snprintf(l->err, l->errlen, "%s:%zu: %s", l->fname, l->lineno,
	         localdata_strerror(rc));
	return rc;
}

/* "ADDRESS NAME..." of a hosts file. */
static int hosts_line(struct localdata *ld, const struct ld_line *l,
                      char *addr, char *save)
{
	uint8_t ip[LD_IPV6_BYTES], name[WIRE_NAME_MAX], rev[WIRE_NAME_MAX];
	size_t nlen, rlen;
	int family = AF_INET, rc, names = 0;
	char *tok;

	if (inet_pton(AF_INET, addr, ip) != 1) {
		family = AF_INET6;
		if (inet_pton(AF_INET6, addr, ip) != 1)
			return line_fail(l, "bad address", addr);
	}
	rlen = reverse_name(family, ip, rev);
	while ((tok = strtok_r(NULL, " \t", &save)) != NULL) {
		if (!parse_name(tok, name, &nlen))
			return line_fail(l, "bad name", tok);
		rc = rec_add(ld, name, nlen,
		             family == AF_INET ? WIRE_TYPE_A : WIRE_TYPE_AAAA,
		             ip,
		             family == AF_INET ? LD_IPV4_BYTES :
		                                 LD_IPV6_BYTES);
		if (rc == LOCALDATA_OK && names++ == 0)
			rc = rec_add(ld, rev, rlen, WIRE_TYPE_PTR, name, nlen);
		if (rc != LOCALDATA_OK)
			return add_failed(l, rc);
	}
	if (names == 0)
		return line_fail(l, "address without a name", addr);
	return LOCALDATA_OK;
}

/* "NAME" or "ADDRESS NAME..." of a block list. */
static int block_line(struct localdata *ld, const struct ld_line *l,
                      char *first, char *save)
{
	uint8_t name[WIRE_NAME_MAX], ip[LD_IPV6_BYTES];
	size_t nlen;
	char *tok = first;
	int rc;

	if (inet_pton(AF_INET, first, ip) == 1 ||
	    inet_pton(AF_INET6, first, ip) == 1)
		tok = strtok_r(NULL, " \t", &save);
	else if (strtok_r(NULL, " \t", &save) != NULL)
		return line_fail(l, "one name a line, not", first);
	if (tok == NULL)
		return line_fail(l, "address without a name", first);
	for (; tok != NULL; tok = strtok_r(NULL, " \t", &save)) {
		if (!parse_name(tok, name, &nlen))
			return line_fail(l, "bad name", tok);
		rc = blk_add(ld, name, nlen);
		if (rc != LOCALDATA_OK)
			return add_failed(l, rc);
	}
	return LOCALDATA_OK;
}

static int one_line(struct localdata *ld, enum localdata_kind kind,
                    const struct ld_line *l, char *line)
{
	char *save = NULL, *hash = strchr(line, '#'), *first;

	if (hash != NULL)
		*hash = '\0';
	first = strtok_r(line, " \t\r", &save);
	if (first == NULL)
		return LOCALDATA_OK;
	if (kind == LOCALDATA_HOSTS)
		return hosts_line(ld, l, first, save);
	return block_line(ld, l, first, save);
}

int localdata_add_text(struct localdata *ld, enum localdata_kind kind,
                       const char *fname, const char *text, size_t len,
                       char *err, size_t errlen)
{
	struct ld_line l = { fname, 0, err, errlen };
	char line[LOCALDATA_LINE_MAX];
	size_t pos = 0;
	int rc;

	if (ld == NULL || ld->finished || (text == NULL && len > 0))
		return LOCALDATA_EINVAL;
	while (pos < len) {
		size_t n = 0;

		l.lineno++;
		for (; pos < len && text[pos] != '\n'; pos++) {
			if (n + 1 >= sizeof line || text[pos] == '\0')
				return line_fail(&l,
				                 "line too long or NUL "
				                 "byte in",
				                 "");
			line[n++] = text[pos];
		}
		pos++;
		line[n] = '\0';
		rc = one_line(ld, kind, &l, line);
		if (rc != LOCALDATA_OK)
			return rc;
	}
	return LOCALDATA_OK;
}

/* Read a whole file (a regular one, at most LOCALDATA_FILE_MAX bytes). */
static int read_file(const char *path, char **text, size_t *len, char *err,
                     size_t errlen)
{
	char why[128];
	int rc = fileio_read_path(path, LOCALDATA_FILE_MAX, true, text, len,
	                          why, sizeof why);

	if (rc == FILEIO_OK)
		return LOCALDATA_OK;
	snprintf(err, errlen, "%s: %s", path, why);
	return rc == FILEIO_ENOMEM ? LOCALDATA_ENOMEM : LOCALDATA_EFILE;
}

static int load_one(struct localdata *ld, enum localdata_kind kind,
                    const char *path, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	int rc;

	if (path == NULL || path[0] == '\0')
		return LOCALDATA_OK;
	rc = read_file(path, &text, &len, err, errlen);
	if (rc == LOCALDATA_OK)
		rc = localdata_add_text(ld, kind, path, text, len, err,
		                        errlen);
	free(text);
	return rc;
}

int localdata_load(const char *hosts, const char *block,
                   struct localdata **out, char *err, size_t errlen)
{
	struct localdata *ld = NULL;
	int rc = localdata_new(&ld);

	if (rc != LOCALDATA_OK) {
		snprintf(err, errlen, "local data: out of memory");
		return rc;
	}
	rc = load_one(ld, LOCALDATA_HOSTS, hosts, err, errlen);
	if (rc == LOCALDATA_OK)
		rc = load_one(ld, LOCALDATA_BLOCK, block, err, errlen);
	if (rc == LOCALDATA_OK)
		rc = localdata_finish(ld);
	if (rc != LOCALDATA_OK) {
		localdata_free(ld);
		return rc;
	}
	*out = ld;
	return LOCALDATA_OK;
}
