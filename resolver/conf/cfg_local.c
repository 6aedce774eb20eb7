/*
 * resolver/conf/cfg_local.c - the local-zone, local-data and local-data-ptr
 * lines of a config (see cfg.h), as Unbound writes them:
 *
 *   local-zone: "ads.example." always_nxdomain
 *   local-data: "printer.lan. 600 IN A 192.168.1.10"
 *   local-data-ptr: "192.168.1.10 printer.lan."
 *
 * Design notes:
 * - A config is plain data, copied whole; these lines may be a million
 *   (block lists), so they live in one list outside struct cfg that the
 *   config points at. The list grows while the config is read and is
 *   read-only once sealed (cfg_end_check); appending to a sealed list
 *   (a second cfg_parse into one config) copies it first.
 * - Sealed lists are kept in a registry until the process ends, and an
 *   equal list read again (a reload of the same files) is shared: every
 *   copy of every config may point at a list at any time, so none is
 *   ever freed.
 * - Zones: type (1 byte), name length (1 byte), wire name. Data: name
 *   length, wire name, type (2), TTL (4), RDATA text length (2), text.
 */
#include "cfg.h"
#include "cfg_int.h"
#include "wire/rrtext.h"
#include "wire/wire.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/** First bytes of a list's buffers; they double as they fill. */
#define CFG_LOCAL_START 1024
/** Largest TTL taken (2^31 - 1, RFC 2181 section 8). */
#define CFG_LOCAL_TTL_MAX 0x7fffffffu
/** Longest RDATA text kept. */
#define CFG_LOCAL_RDATA_MAX 65535u
/** Fixed bytes of a data entry besides the name and text. */
#define CFG_LOCAL_DATA_FIXED 9
/** FNV-1a, 64 bits. */
#define CFG_FNV_OFFSET 0xcbf29ce484222325ull
#define CFG_FNV_PRIME 0x100000001b3ull

/** A growing byte buffer. */
struct cfg_buf {
	uint8_t *p;
	size_t len, cap;
};

struct cfg_local {
	struct cfg_buf z; /**< zones */
	struct cfg_buf d; /**< data */
	size_t nzones, ndata;
	uint64_t hash; /**< of both buffers, once sealed */
	bool sealed;
	struct cfg_local *next; /**< the registry */
};

static const char *const cfg_lz_names[CFG_LZ_COUNT] = { CFG_LZ_NAMES };

static pthread_mutex_t cfg_local_lock = PTHREAD_MUTEX_INITIALIZER;
static struct cfg_local *cfg_local_sealed; /**< the registry */

int cfg_lz_type_parse(const char *s)
{
	int i;

	for (i = 0; i < CFG_LZ_COUNT; i++)
		if (strcmp(s, cfg_lz_names[i]) == 0)
			return i;
	return -1;
}

const char *cfg_lz_type_name(enum cfg_lz_type t)
{
	return (unsigned)t < CFG_LZ_COUNT ? cfg_lz_names[t] : "?";
}

static int lfail(char *why, size_t whylen, const char *what, const char *v)
{
	snprintf(why, whylen, "%s \"%.60s\"", what, v);
	return -1;
}

static int buf_put(struct cfg_buf *b, const void *data, size_t n)
{
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : CFG_LOCAL_START;
		uint8_t *np;

		while (cap < b->len + n)
			cap *= 2;
		np = realloc(b->p, cap);
		if (np == NULL)
			return -1;
		b->p = np;
		b->cap = cap;
	}
	memcpy(b->p + b->len, data, n);
	b->len += n;
	return 0;
}

static int buf_copy(struct cfg_buf *to, const struct cfg_buf *from)
{
	memset(to, 0, sizeof(*to));
	return from->len == 0 ? 0 : buf_put(to, from->p, from->len);
}

static void local_free(struct cfg_local *l)
{
	if (l == NULL)
		return;
	free(l->z.p);
	free(l->d.p);
	free(l);
}

/* The list of c to append to: new, or a copy of a sealed one. */
static struct cfg_local *local_open(struct cfg *c)
{
	const struct cfg_local *old = c->local;
	struct cfg_local *l;

	if (old != NULL && !old->sealed)
		return (struct cfg_local *)old; /* ours while reading */
	l = calloc(1, sizeof(*l));
	if (l == NULL)
		return NULL;
	if (old != NULL) {
		if (buf_copy(&l->z, &old->z) != 0 ||
		    buf_copy(&l->d, &old->d) != 0) {
			local_free(l);
			return NULL;
		}
		l->nzones = old->nzones;
		l->ndata = old->ndata;
	}
	c->local = l;
	return l;
}

/* A name token, maybe quoted, into lowercase wire form. */
static int name_token(char *tok, uint8_t *out, size_t *len)
{
	return cfg_name_parse(cfg_unquote(tok), out, len);
}

int cfg_local_zone_add(struct cfg *c, char *value, char *why, size_t whylen)
{
	char *save = NULL, *name, *type;
	uint8_t wire[CFG_NAME_MAX], head[2];
	size_t len;
	struct cfg_local *l;
	int t;

	value = cfg_unquote(value); /* "NAME TYPE" in one pair, or none */
	name = strtok_r(value, " \t", &save);
	if (name == NULL || name_token(name, wire, &len) != 0 || len == 1)
		return lfail(why, whylen, "bad local-zone name",
		             name != NULL ? name : "");
	type = strtok_r(NULL, " \t", &save);
	if (type == NULL || strtok_r(NULL, " \t", &save) != NULL) {
		snprintf(why, whylen, "local-zone wants NAME TYPE");
		return -1;
	}
	t = cfg_lz_type_parse(cfg_unquote(type));
	if (t < 0)
		return lfail(why, whylen,
		             "bad local-zone type (static, transparent, "
		             "always_nxdomain, ...: see curvecache.conf(5))",
		             type);
	l = local_open(c);
	if (l == NULL || l->nzones >= CFG_MAX_LOCAL_ZONES) {
		snprintf(why, whylen, "too many local-zone lines");
		return -1;
	}
	head[0] = (uint8_t)t;
	head[1] = (uint8_t)len;
	if (buf_put(&l->z, head, 2) != 0 || buf_put(&l->z, wire, len) != 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	l->nzones++;
	return 0;
}

/* A TTL token: decimal, at most CFG_LOCAL_TTL_MAX. */
static bool ttl_token(const char *s, uint32_t *ttl)
{
	unsigned long long v = 0;
	size_t i;

	for (i = 0; s[i] != '\0'; i++) {
		if (!isdigit((unsigned char)s[i]) || i >= 10)
			return false;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (i == 0 || v > CFG_LOCAL_TTL_MAX)
		return false;
	*ttl = (uint32_t)v;
	return true;
}

/* The next blank-separated word of text at *pos into w (cap bytes). */
static bool next_word(const char *text, size_t *pos, char *w, size_t cap)
{
	size_t n = 0, p = *pos;

	while (text[p] == ' ' || text[p] == '\t')
		p++;
	while (text[p] != '\0' && text[p] != ' ' && text[p] != '\t') {
		if (n + 1 >= cap)
			return false;
		w[n++] = text[p++];
	}
	w[n] = '\0';
	*pos = p;
	return n > 0;
}

/* The RDATA text from *pos: blanks trimmed both ends. */
static int rdata_rest(const char *text, size_t pos, struct cfg_local_data *out)
{
	size_t end = strlen(text);

	while (text[pos] == ' ' || text[pos] == '\t')
		pos++;
	while (end > pos && (text[end - 1] == ' ' || text[end - 1] == '\t' ||
	                     text[end - 1] == '\r'))
		end--;
	if (end == pos || end - pos > CFG_LOCAL_RDATA_MAX)
		return -1;
	out->rdata = text + pos;
	out->rdlen = end - pos;
	return 0;
}

int cfg_local_data_parse(const char *text, struct cfg_local_data *out,
                         char *why, size_t whylen)
{
	char w[WIRE_NAME_TEXT_MAX + 1];
	size_t pos = 0;
	int i;

	memset(out, 0, sizeof(*out));
	out->ttl = CFG_LOCAL_TTL;
	if (!next_word(text, &pos, w, sizeof w) ||
	    cfg_name_parse(w, out->name, &out->namelen) != 0)
		return lfail(why, whylen, "bad local-data name", text);
	for (i = 0; i < 3; i++) { /* TTL and class, either order */
		if (!next_word(text, &pos, w, sizeof w))
			return lfail(why, whylen,
			             "local-data wants NAME [TTL] [IN] TYPE "
			             "RDATA, not",
			             text);
		if (ttl_token(w, &out->ttl))
			continue;
		if (strcasecmp(w, "IN") == 0)
			continue;
		if (strcasecmp(w, "CH") == 0 || strcasecmp(w, "HS") == 0)
			return lfail(why, whylen,
			             "local-data of class IN only:", text);
		break;
	}
	if (rrtext_type_parse(w, &out->type) != WIRE_OK ||
	    out->type == WIRE_TYPE_ANY)
		return lfail(why, whylen, "bad local-data type", w);
	if (rdata_rest(text, pos, out) != 0)
		return lfail(why, whylen, "local-data without RDATA:", text);
	return 0;
}

/* The reverse name (in-addr.arpa / ip6.arpa) of an address text. */
static int reverse_text(const char *addr, char *out, size_t cap)
{
	uint8_t ip[16];
	size_t n = 0;
	int i;

	if (inet_pton(AF_INET, addr, ip) == 1) {
		snprintf(out, cap, "%u.%u.%u.%u.in-addr.arpa.", ip[3], ip[2],
		         ip[1], ip[0]);
		return 0;
	}
	if (inet_pton(AF_INET6, addr, ip) != 1 || cap < 16 * 4 + 10)
		return -1;
	for (i = 15; i >= 0; i--)
		n += (size_t)snprintf(out + n, cap - n, "%x.%x.", ip[i] & 0xf,
		                      ip[i] >> 4);
	snprintf(out + n, cap - n, "ip6.arpa.");
	return 0;
}

int cfg_local_ptr_parse(const char *text, struct cfg_local_data *out,
                        char *why, size_t whylen)
{
	char w[WIRE_NAME_TEXT_MAX + 1], rev[WIRE_NAME_TEXT_MAX + 1];
	size_t pos = 0, at;
	uint8_t target[CFG_NAME_MAX];
	size_t tlen;

	memset(out, 0, sizeof(*out));
	out->ttl = CFG_LOCAL_TTL;
	out->type = WIRE_TYPE_PTR;
	if (!next_word(text, &pos, w, sizeof w) ||
	    reverse_text(w, rev, sizeof rev) != 0 ||
	    cfg_name_parse(rev, out->name, &out->namelen) != 0)
		return lfail(why, whylen, "bad local-data-ptr address", text);
	at = pos;
	if (next_word(text, &pos, w, sizeof w) && ttl_token(w, &out->ttl))
		at = pos;
	if (rdata_rest(text, at, out) != 0 || out->rdlen > WIRE_NAME_TEXT_MAX)
		return lfail(why, whylen,
		             "local-data-ptr wants ADDRESS NAME:", text);
	memcpy(w, out->rdata, out->rdlen);
	w[out->rdlen] = '\0';
	if (cfg_name_parse(w, target, &tlen) != 0)
		return lfail(why, whylen, "bad local-data-ptr name", w);
	return 0;
}

int cfg_local_data_add(struct cfg *c, char *value, bool ptr, char *why,
                       size_t whylen)
{
	struct cfg_local_data d;
	struct cfg_local *l;
	uint8_t fixed[CFG_LOCAL_DATA_FIXED - 1];
	uint8_t nl;
	int rc;

	value = cfg_unquote(value);
	if (value[0] == '\'' && strlen(value) >= 2 &&
	    value[strlen(value) - 1] == '\'') {
		value[strlen(value) - 1] = '\0'; /* 'NAME TXT "text"' */
		value++;
	}
	rc = ptr ? cfg_local_ptr_parse(value, &d, why, whylen) :
	           cfg_local_data_parse(value, &d, why, whylen);
	if (rc != 0)
		return -1;
	l = local_open(c);
	if (l == NULL || l->ndata >= CFG_MAX_LOCAL_ZONES) {
		snprintf(why, whylen, "too many local-data lines");
		return -1;
	}
	nl = (uint8_t)d.namelen;
	fixed[0] = (uint8_t)(d.type >> 8);
	fixed[1] = (uint8_t)d.type;
	fixed[2] = (uint8_t)(d.ttl >> 24);
	fixed[3] = (uint8_t)(d.ttl >> 16);
	fixed[4] = (uint8_t)(d.ttl >> 8);
	fixed[5] = (uint8_t)d.ttl;
	fixed[6] = (uint8_t)(d.rdlen >> 8);
	fixed[7] = (uint8_t)d.rdlen;
	if (buf_put(&l->d, &nl, 1) != 0 ||
	    buf_put(&l->d, d.name, d.namelen) != 0 ||
	    buf_put(&l->d, fixed, sizeof fixed) != 0 ||
	    buf_put(&l->d, d.rdata, d.rdlen) != 0) {
		snprintf(why, whylen, "out of memory");
		return -1;
	}
	l->ndata++;
	return 0;
}

void cfg_local_counts(const struct cfg *c, size_t *zones, size_t *data)
{
	*zones = c->local != NULL ? c->local->nzones : 0;
	*data = c->local != NULL ? c->local->ndata : 0;
}

bool cfg_local_zone_next(const struct cfg_local *l, size_t *pos,
                         struct cfg_local_zone *out)
{
	const uint8_t *p;

	if (l == NULL || *pos + 2 > l->z.len)
		return false;
	p = l->z.p + *pos;
	out->type = (enum cfg_lz_type)p[0];
	out->namelen = p[1];
	memcpy(out->name, p + 2, p[1]);
	*pos += 2 + (size_t)p[1];
	return true;
}

bool cfg_local_data_next(const struct cfg_local *l, size_t *pos,
                         struct cfg_local_data *out)
{
	const uint8_t *p, *f;

	if (l == NULL || *pos >= l->d.len)
		return false;
	p = l->d.p + *pos;
	out->namelen = p[0];
	memcpy(out->name, p + 1, p[0]);
	f = p + 1 + p[0];
	out->type = (uint16_t)(f[0] << 8 | f[1]);
	out->ttl = (uint32_t)f[2] << 24 | (uint32_t)f[3] << 16 |
	           (uint32_t)f[4] << 8 | f[5];
	out->rdlen = (size_t)(f[6] << 8 | f[7]);
	out->rdata = (const char *)f + 8;
	*pos += CFG_LOCAL_DATA_FIXED + p[0] + out->rdlen;
	return true;
}

static uint64_t fnv(uint64_t h, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ p[i]) * CFG_FNV_PRIME;
	return h;
}

static bool local_equal(const struct cfg_local *a, const struct cfg_local *b)
{
	return a->hash == b->hash && a->z.len == b->z.len &&
	       a->d.len == b->d.len && a->nzones == b->nzones &&
	       (a->z.len == 0 || memcmp(a->z.p, b->z.p, a->z.len) == 0) &&
	       (a->d.len == 0 || memcmp(a->d.p, b->d.p, a->d.len) == 0);
}

void cfg_local_seal(struct cfg *c)
{
	struct cfg_local *l = (struct cfg_local *)c->local, *s;

	if (l == NULL || l->sealed)
		return;
	l->hash = fnv(fnv(CFG_FNV_OFFSET, l->z.p, l->z.len), l->d.p, l->d.len);
	pthread_mutex_lock(&cfg_local_lock);
	for (s = cfg_local_sealed; s != NULL; s = s->next)
		if (local_equal(s, l))
			break;
	if (s != NULL) {
		c->local = s;
		local_free(l);
	} else {
		l->sealed = true;
		l->next = cfg_local_sealed;
		cfg_local_sealed = l;
	}
	pthread_mutex_unlock(&cfg_local_lock);
}
