/*
 * resolver/anchor/autotrust_file.c - the text of an auto-trust-anchor-
 * file (see autotrust.h), close to Unbound's:
 *
 *   ; autotrust trust anchor file, kept by curvecache (RFC 5011)
 *   ;;id: . 1
 *   ;;last_queried: 1764900000 ;;Sat Dec  5 09:20:00 2025
 *   ;;last_success: 1764900000 ;;Sat Dec  5 09:20:00 2025
 *   ;;next_probe_time: 1764943200 ;;Sat Dec  5 21:20:00 2025
 *   ;;query_failed: 0
 *   ;;query_interval: 43200
 *   ;;retry_time: 8640
 *   .	172800	IN	DNSKEY	257 3 8 AwEAAa...= ;{id = 20326 (ksk)}
 *       ;;state=2 [  VALID  ] ;;count=0 ;;lastchange=1764900000 ;;Sat...
 *
 * (the record and its comment are one line). Each record is read by the
 * trust-anchor text parser of anchor.h (anchors_add_text, into a set of
 * its own), so DS and DNSKEY RDATA have one reader in the tree; the
 * REVOKE bit of a revoked key is cleared for that reader (which refuses
 * revoked keys as anchors) and set again here.
 *
 * Bounds: a record is at most AUTOTRUST_LINE_MAX bytes (over lines in
 * parentheses at most AUTOTRUST_PAREN_LINES lines); every read checks
 * the position against the text's length.
 */
#include "autotrust.h"

#include <ctype.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/evp.h>

#include "wire/rrtext.h"

/** Bytes of one record's text (a 4096-bit key is about 700). */
#define AUTOTRUST_LINE_MAX 4096
/** Lines one record in parentheses may take. */
#define AUTOTRUST_PAREN_LINES 64
/** Tokens read ahead in a record: owner, TTL, class, type, flags. */
#define AUTOTRUST_HEAD_TOKENS 5
/** Bytes of a date in a comment. */
#define AUTOTRUST_DATE_MAX 64

/** A token of the record text. */
struct atok {
	const char *p;
	size_t n;
};

/** The record being read. */
struct arec {
	char text[AUTOTRUST_LINE_MAX]; /**< NUL-terminated */
	size_t len;
	size_t line; /**< its first line */
	const char *file;
	char *err;
	size_t errlen;
};

static int rec_fail(const struct arec *r, int rc, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int rec_fail(const struct arec *r, int rc, const char *fmt, ...)
{
	char why[AUTOTRUST_ERR_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof why, fmt, ap);
	va_end(ap);
	if (r->err != NULL && r->errlen > 0)
		snprintf(r->err, r->errlen, "%s:%zu: %s", r->file, r->line,
		         why);
	return rc;
}

/* The first tokens of the text (comments, parentheses and newlines are
 * blanks); returns how many. */
static size_t head_tokens(const char *s, size_t n, struct atok *t, size_t max)
{
	size_t i = 0, k = 0;

	while (i < n && k < max) {
		char c = s[i];

		if (c == ';') {
			while (i < n && s[i] != '\n')
				i++;
		} else if (isspace((unsigned char)c) || c == '(' || c == ')') {
			i++;
		} else {
			t[k].p = s + i;
			while (i < n && !isspace((unsigned char)s[i]) &&
			       s[i] != ';' && s[i] != '(' && s[i] != ')')
				i++;
			t[k].n = (size_t)(s + i - t[k].p);
			k++;
		}
	}
	return k;
}

static bool tok_digits(const struct atok *t)
{
	size_t i;

	for (i = 0; i < t->n; i++)
		if (!isdigit((unsigned char)t->p[i]))
			return false;
	return t->n > 0 && t->n < 11;
}

/* A number after "key" in the text (0 when absent). */
static long long after(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p == NULL ? 0 : strtoll(p + strlen(key), NULL, 10);
}

/* The type, TTL and the index of the token after the type. */
static int rec_head(const struct arec *r, const struct atok *t, size_t nt,
                    uint16_t *type, uint32_t *ttl, size_t *after_type)
{
	char word[RRTEXT_NAME_MAX];
	size_t i;

	*ttl = 0;
	for (i = 1; i < nt && i < 3; i++) {
		if (tok_digits(&t[i]))
			*ttl = (uint32_t)strtoul(t[i].p, NULL, 10);
		else if (!(t[i].n == 2 && strncasecmp(t[i].p, "IN", 2) == 0))
			break;
	}
	if (i >= nt || t[i].n >= sizeof word)
		return rec_fail(r, AUTOTRUST_ESYNTAX, "%s", "no type");
	memcpy(word, t[i].p, t[i].n);
	word[t[i].n] = '\0';
	if (rrtext_type_parse(word, type) != WIRE_OK)
		return rec_fail(r, AUTOTRUST_ESYNTAX, "unknown type \"%s\"",
		                word);
	*after_type = i + 1;
	return AUTOTRUST_OK;
}

/* The text without the REVOKE bit in the flags token t (in place). */
static int clear_revoke(struct arec *r, const struct atok *t, bool *revoked)
{
	char num[8], rest[AUTOTRUST_LINE_MAX];
	unsigned long flags;
	size_t off = (size_t)(t->p - r->text), tail;
	int k;

	*revoked = false;
	if (!tok_digits(t) || (flags = strtoul(t->p, NULL, 10)) > UINT16_MAX)
		return rec_fail(r, AUTOTRUST_ESYNTAX, "%s",
		                "bad DNSKEY flags");
	if (!(flags & DNSSEC_DNSKEY_FLAG_REVOKE))
		return AUTOTRUST_OK;
	*revoked = true;
	k = snprintf(num, sizeof num, "%lu",
	             flags & ~(unsigned long)DNSSEC_DNSKEY_FLAG_REVOKE);
	tail = r->len - off - t->n;
	memcpy(rest, t->p + t->n, tail);
	memcpy(r->text + off, num, (size_t)k);
	memcpy(r->text + off + (size_t)k, rest, tail);
	r->len = off + (size_t)k + tail;
	r->text[r->len] = '\0';
	return AUTOTRUST_OK;
}

/* The RDATA of the one record of the text, read by anchor.h. */
static int rec_rdata(const struct arec *r, const uint8_t *owner,
                     size_t ownerlen, uint16_t type, uint8_t *rd,
                     uint16_t *rdlen)
{
	char why[ANCHOR_ERR_MAX];
	struct anchors *a = NULL;
	const struct anchor *an;
	const struct anchor_rdata *x;
	int rc = AUTOTRUST_OK;

	if (anchors_new(&a) != ANCHOR_OK)
		return rec_fail(r, AUTOTRUST_EINVAL, "%s", "out of memory");
	if (anchors_add_text(a, r->text, why, sizeof why) != ANCHOR_OK) {
		/* its message quotes the record first: what is wrong only */
		const char *what = strstr(why, "\": ");

		rc = rec_fail(r, AUTOTRUST_ESYNTAX, "%s",
		              what != NULL ? what + 3 : why);
	} else {
		an = anchors_find(a, owner, ownerlen);
		x = type == WIRE_TYPE_DS ? &an->ds[0] : &an->dnskey[0];
		memcpy(rd, x->data, x->len);
		*rdlen = x->len;
	}
	anchors_free(a);
	return rc;
}

/* The state comment of a record; a record without it is VALID. */
static int rec_state(const struct arec *r, enum autotrust_state *st)
{
	const char *p = strstr(r->text, ";;state=");
	long v;

	*st = AUTOTRUST_VALID;
	if (p == NULL)
		return AUTOTRUST_OK;
	v = strtol(p + 8, NULL, 10);
	if (!isdigit((unsigned char)p[8]) || v < AUTOTRUST_START ||
	    v > AUTOTRUST_REMOVED)
		return rec_fail(r, AUTOTRUST_ESYNTAX, "%s",
		                "bad ;;state= (0 to 5)");
	*st = (enum autotrust_state)v;
	return AUTOTRUST_OK;
}

/* Keep a DNSKEY of the file in the zone. */
static int keep_key(struct autotrust_zone *z, const struct arec *r,
                    const uint8_t *rd, uint16_t len, uint32_t ttl,
                    bool revoked)
{
	struct autotrust_key *k;
	enum autotrust_state st;

	if (rec_state(r, &st) != AUTOTRUST_OK)
		return AUTOTRUST_ESYNTAX;
	if (z->nkeys >= AUTOTRUST_KEYS_MAX)
		return rec_fail(r, AUTOTRUST_EFULL, "more than %d keys",
		                AUTOTRUST_KEYS_MAX);
	k = &z->key[z->nkeys++];
	memset(k, 0, sizeof *k);
	memcpy(k->rdata, rd, len);
	k->len = len;
	k->ttl = ttl;
	if (revoked) {
		k->rdata[1] |= (uint8_t)DNSSEC_DNSKEY_FLAG_REVOKE;
		if (st != AUTOTRUST_REMOVED)
			st = AUTOTRUST_REVOKED; /* never trusted again */
	}
	k->state = st;
	k->count = (uint32_t)after(r->text, ";;count=");
	k->lastchange = (time_t)after(r->text, ";;lastchange=");
	return AUTOTRUST_OK;
}

/* One record (its text in r): owner, type, RDATA, state. */
static int rec_read(struct autotrust_zone *z, struct arec *r)
{
	struct atok t[AUTOTRUST_HEAD_TOKENS];
	uint8_t owner[WIRE_NAME_MAX], rd[ANCHOR_RDATA_MAX];
	size_t nt, ownerlen, ti = 0;
	uint16_t type, rdlen = 0;
	uint32_t ttl;
	bool revoked = false;

	nt = head_tokens(r->text, r->len, t, AUTOTRUST_HEAD_TOKENS);
	if (nt == 0)
		return rec_fail(r, AUTOTRUST_ESYNTAX, "%s", "no owner");
	if (t[0].p[0] == '$')
		return rec_fail(r, AUTOTRUST_ESYNTAX, "%s",
		                "directives ($ORIGIN, $TTL) are not read "
		                "here: "
		                "write absolute owners");
	if (wire_name_from_text(t[0].p, t[0].n, owner, &ownerlen) != WIRE_OK)
		return rec_fail(r, AUTOTRUST_ESYNTAX, "%s", "bad owner");
	wire_name_lower(owner, ownerlen);
	if (rec_head(r, t, nt, &type, &ttl, &ti) != AUTOTRUST_OK)
		return AUTOTRUST_ESYNTAX;
	if (type != WIRE_TYPE_DS && type != DNSSEC_TYPE_DNSKEY)
		return AUTOTRUST_OK; /* skipped, as in trust-anchor-file */
	if (z->namelen > 0 &&
	    !wire_name_equal(owner, ownerlen, z->name, z->namelen))
		return rec_fail(r, AUTOTRUST_ESYNTAX, "%s",
		                "a second zone (one zone per file)");
	if (type == DNSSEC_TYPE_DNSKEY &&
	    (ti >= nt || clear_revoke(r, &t[ti], &revoked) != AUTOTRUST_OK))
		return rec_fail(r, AUTOTRUST_ESYNTAX, "%s",
		                "bad DNSKEY flags");
	if (rec_rdata(r, owner, ownerlen, type, rd, &rdlen) != AUTOTRUST_OK)
		return AUTOTRUST_ESYNTAX;
	memcpy(z->name, owner, ownerlen);
	z->namelen = ownerlen;
	if (type == DNSSEC_TYPE_DNSKEY)
		return keep_key(z, r, rd, rdlen, ttl, revoked);
	if (z->nds >= ANCHOR_RR_MAX)
		return rec_fail(r, AUTOTRUST_EFULL, "more than %d DS records",
		                ANCHOR_RR_MAX);
	memcpy(z->ds[z->nds].data, rd, rdlen);
	z->ds[z->nds++].len = rdlen;
	z->ds_ttl = ttl;
	return AUTOTRUST_OK;
}

/* A header line ";;name: value". */
static void header(struct autotrust_zone *z, const char *s)
{
	if (strncmp(s, ";;last_queried:", 15) == 0)
		z->last_queried = (time_t)after(s, ":");
	else if (strncmp(s, ";;last_success:", 15) == 0)
		z->last_success = (time_t)after(s, ":");
	else if (strncmp(s, ";;next_probe_time:", 18) == 0)
		z->next_probe = (time_t)after(s, ":");
	else if (strncmp(s, ";;query_failed:", 15) == 0)
		z->query_failed = (uint32_t)after(s, ":");
	else if (strncmp(s, ";;query_interval:", 17) == 0)
		z->query_interval = (uint32_t)after(s, ":");
	else if (strncmp(s, ";;retry_time:", 13) == 0)
		z->retry_time = (uint32_t)after(s, ":");
}

/* Append the line at *pos to r; false when it does not fit. */
static bool line_take(struct arec *r, const char *text, size_t len,
                      size_t *pos)
{
	const char *nl = memchr(text + *pos, '\n', len - *pos);
	size_t end = nl != NULL ? (size_t)(nl - text) : len;
	size_t n = end - *pos;

	if (r->len + n + 1 >= sizeof r->text)
		return false;
	memcpy(r->text + r->len, text + *pos, n);
	r->len += n;
	r->text[r->len++] = '\n';
	r->text[r->len] = '\0';
	*pos = nl != NULL ? end + 1 : len;
	return true;
}

/* Are the parentheses of the text (outside comments) open? */
static bool paren_open(const char *s, size_t n)
{
	bool open = false, comment = false;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\n')
			comment = false;
		else if (s[i] == ';')
			comment = true;
		else if (!comment && (s[i] == '(' || s[i] == ')'))
			open = s[i] == '(';
	}
	return open;
}

/* The record that starts at *pos (over lines in parentheses). */
static int rec_gather(struct arec *r, const char *text, size_t len,
                      size_t *pos, size_t *line)
{
	size_t k;

	r->len = 0;
	r->line = *line;
	for (k = 0; k < AUTOTRUST_PAREN_LINES; k++) {
		if (!line_take(r, text, len, pos))
			return rec_fail(r, AUTOTRUST_ESYNTAX, "%s",
			                "record too long");
		(*line)++;
		if (!paren_open(r->text, r->len))
			return AUTOTRUST_OK;
		if (*pos >= len)
			break;
	}
	return rec_fail(r, AUTOTRUST_ESYNTAX, "%s", "'(' is never closed");
}

/* A line holding only blanks and maybe a comment? */
static bool line_blank(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r'))
		i++;
	return i >= n || s[i] == '\n' || s[i] == ';';
}

int autotrust_file_parse(const char *text, size_t len, const char *file,
                         struct autotrust_zone *z, char *err, size_t errlen)
{
	struct arec r; /* on the stack: workers load at once */
	size_t pos = 0, line = 1;
	int rc;

	if (text == NULL || z == NULL || file == NULL)
		return AUTOTRUST_EINVAL;
	memset(z, 0, sizeof *z);
	memset(&r, 0, sizeof r);
	r.file = file;
	r.err = err;
	r.errlen = errlen;
	while (pos < len) {
		if (line_blank(text + pos, len - pos)) {
			r.len = 0;
			r.line = line;
			if (!line_take(&r, text, len, &pos))
				return rec_fail(&r, AUTOTRUST_ESYNTAX, "%s",
				                "line too long");
			header(z, r.text);
			line++;
			continue;
		}
		if ((rc = rec_gather(&r, text, len, &pos, &line)) != 0 ||
		    (rc = rec_read(z, &r)) != 0)
			return rc;
	}
	if (z->nkeys == 0 && z->nds == 0)
		return rec_fail(&r, AUTOTRUST_ESYNTAX, "%s",
		                "no DS or DNSKEY record");
	return AUTOTRUST_OK;
}

/* ------------------------------------------------------------------ */
/* Writing                                                             */

/** The text being written. */
struct aout {
	char *p;
	size_t cap, len;
	bool full;
};

static void out_add(struct aout *o, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void out_add(struct aout *o, const char *fmt, ...)
{
	va_list ap;
	int k;

	if (o->full)
		return;
	va_start(ap, fmt);
	k = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
	va_end(ap);
	if (k < 0 || (size_t)k >= o->cap - o->len)
		o->full = true;
	else
		o->len += (size_t)k;
}

/* " ;;DATE" of a time, in UTC. */
static void out_date(struct aout *o, time_t t)
{
	char d[AUTOTRUST_DATE_MAX];
	struct tm tm;

	if (gmtime_r(&t, &tm) == NULL ||
	    strftime(d, sizeof d, "%a %b %e %H:%M:%S %Y", &tm) == 0)
		return;
	out_add(o, " ;;%s", d);
}

static void out_header(struct aout *o, const struct autotrust_zone *z,
                       const char *name)
{
	out_add(o, "; autotrust trust anchor file, kept by curvecache "
	           "(RFC 5011): do not edit while it runs\n");
	out_add(o, ";;id: %s 1\n", name);
	out_add(o, ";;last_queried: %lld", (long long)z->last_queried);
	out_date(o, z->last_queried);
	out_add(o, "\n;;last_success: %lld", (long long)z->last_success);
	out_date(o, z->last_success);
	out_add(o, "\n;;next_probe_time: %lld", (long long)z->next_probe);
	out_date(o, z->next_probe);
	out_add(o, "\n;;query_failed: %" PRIu32 "\n", z->query_failed);
	out_add(o, ";;query_interval: %" PRIu32 "\n", z->query_interval);
	out_add(o, ";;retry_time: %" PRIu32 "\n", z->retry_time);
}

/* The state comment of a record. */
static void out_state(struct aout *o, enum autotrust_state st, uint32_t count,
                      time_t lastchange)
{
	out_add(o, " ;;state=%d [ %s ] ;;count=%" PRIu32 " ;;lastchange=%lld",
	        (int)st, autotrust_state_name(st), count,
	        (long long)lastchange);
	out_date(o, lastchange);
	out_add(o, "\n");
}

static void out_key(struct aout *o, const char *name,
                    const struct autotrust_key *k)
{
	char b64[ANCHOR_RDATA_MAX / 3 * 4 + 8];
	uint16_t fl = (uint16_t)(k->rdata[0] << 8 | k->rdata[1]);

	if (k->len <= DNSSEC_DNSKEY_FIXED_BYTES)
		return;
	EVP_EncodeBlock((unsigned char *)b64,
	                k->rdata + DNSSEC_DNSKEY_FIXED_BYTES,
	                (int)(k->len - DNSSEC_DNSKEY_FIXED_BYTES));
	out_add(o, "%s\t%" PRIu32 "\tIN\tDNSKEY\t%u %u %u %s ;{id = %u (%s)}",
	        name, k->ttl, (unsigned)fl, (unsigned)k->rdata[2],
	        (unsigned)k->rdata[3], b64,
	        (unsigned)dnssec_key_tag(k->rdata, k->len),
	        fl & DNSSEC_DNSKEY_FLAG_SEP ? "ksk" : "zsk");
	out_state(o, k->state, k->count, k->lastchange);
}

static void out_ds(struct aout *o, const char *name, uint32_t ttl,
                   const struct anchor_rdata *d)
{
	size_t i;

	if (d->len <= DNSSEC_DS_FIXED_BYTES)
		return;
	out_add(o, "%s\t%" PRIu32 "\tIN\tDS\t%u %u %u ", name, ttl,
	        (unsigned)(d->data[0] << 8 | d->data[1]), (unsigned)d->data[2],
	        (unsigned)d->data[3]);
	for (i = DNSSEC_DS_FIXED_BYTES; i < d->len; i++)
		out_add(o, "%02X", (unsigned)d->data[i]);
	out_state(o, AUTOTRUST_START, 0, 0);
}

int autotrust_file_text(const struct autotrust_zone *z, char *out, size_t cap,
                        size_t *outlen)
{
	struct aout o = { out, cap, 0, false };
	char name[WIRE_NAME_TEXT_MAX];
	size_t i;

	if (z == NULL || out == NULL || cap == 0 ||
	    wire_name_to_text(z->name, z->namelen, name, sizeof name, NULL) !=
	            WIRE_OK)
		return AUTOTRUST_EINVAL;
	out[0] = '\0';
	out_header(&o, z, name);
	for (i = 0; i < z->nkeys; i++)
		out_key(&o, name, &z->key[i]);
	for (i = 0; i < z->nds; i++)
		out_ds(&o, name, z->ds_ttl, &z->ds[i]);
	if (o.full)
		return AUTOTRUST_ESPACE;
	*outlen = o.len;
	return AUTOTRUST_OK;
}
