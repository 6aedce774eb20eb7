/*
 * resolver/wire/rrtext.c - records in dig's presentation format. See rrtext.h.
 */
#include "config.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "rrtext.h"
#include "rrtext_int.h"

/* dig's columns (BIND master style used by dig) and tab width. */
#define COL_TTL 24
#define COL_CLASS 32
#define COL_TYPE 40
#define COL_RDATA 48
#define TAB_WIDTH 8
/* Bytes per space-separated hex group in "\# len hex", as dig prints. */
#define GENERIC_HEX_GROUP 28

/* ------------------------------------------------------------------ */
/* Bounded text buffer (rrtext_int.h)                                  */

static void tb_init(struct rrtext_tb *t, char *p, size_t cap)
{
	t->p = p;
	t->cap = cap;
	t->len = 0;
	t->err = (p == NULL || cap == 0) ? WIRE_ESPACE : WIRE_OK;
	if (t->err == WIRE_OK)
		p[0] = '\0';
}

void rrtext_tb_putn(struct rrtext_tb *t, const char *s, size_t n)
{
	if (t->err != WIRE_OK)
		return;
	if (n >= t->cap - t->len) { /* keep room for the NUL */
		t->err = WIRE_ESPACE;
		return;
	}
	memcpy(t->p + t->len, s, n);
	t->len += n;
	t->p[t->len] = '\0';
}

void rrtext_tb_puts(struct rrtext_tb *t, const char *s)
{
	rrtext_tb_putn(t, s, strlen(s));
}

void rrtext_tb_putc(struct rrtext_tb *t, char c)
{
	rrtext_tb_putn(t, &c, 1);
}

void rrtext_tb_printf(struct rrtext_tb *t, const char *fmt, ...)
{
	char tmp[64];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(tmp)) {
		t->err = WIRE_ESPACE;
		return;
	}
	rrtext_tb_putn(t, tmp, (size_t)n);
}

/* Cut the text back to len (drop a half-rendered field). */
static void tb_truncate(struct rrtext_tb *t, size_t len)
{
	if (len <= t->len && t->cap > 0) {
		t->len = len;
		t->p[len] = '\0';
		if (t->err != WIRE_ESPACE)
			t->err = WIRE_OK;
	}
}

static int tb_done(const struct rrtext_tb *t, size_t *outlen)
{
	if (outlen != NULL)
		*outlen = t->len;
	return t->err;
}

/*
 * Move from column *col to column to, as BIND's indent(): tabs while a
 * tab stop is reached, then spaces; always at least one blank.
 */
static void tb_indent(struct rrtext_tb *t, size_t *col, size_t to)
{
	size_t from = *col, ntabs;

	if (to < from + 1)
		to = from + 1;
	ntabs = to / TAB_WIDTH - from / TAB_WIDTH;
	if (ntabs > 0) {
		while (ntabs-- > 0)
			rrtext_tb_putc(t, '\t');
		from = (to / TAB_WIDTH) * TAB_WIDTH;
	}
	while (from++ < to)
		rrtext_tb_putc(t, ' ');
	*col = to;
}

/* ------------------------------------------------------------------ */
/* Names of numbers                                                    */

struct code_name {
	uint16_t code;
	const char *name;
};

/* The mnemonics dig (BIND 9.18) knows, so that type bitmaps read alike. */
static const struct code_name type_names[] = {
	{ 1, "A" },         { 2, "NS" },        { 3, "MD" },
	{ 4, "MF" },        { 5, "CNAME" },     { 6, "SOA" },
	{ 7, "MB" },        { 8, "MG" },        { 9, "MR" },
	{ 10, "NULL" },     { 11, "WKS" },      { 12, "PTR" },
	{ 13, "HINFO" },    { 14, "MINFO" },    { 15, "MX" },
	{ 16, "TXT" },      { 17, "RP" },       { 18, "AFSDB" },
	{ 19, "X25" },      { 20, "ISDN" },     { 21, "RT" },
	{ 22, "NSAP" },     { 23, "NSAP-PTR" }, { 24, "SIG" },
	{ 25, "KEY" },      { 26, "PX" },       { 27, "GPOS" },
	{ 28, "AAAA" },     { 29, "LOC" },      { 30, "NXT" },
	{ 31, "EID" },      { 32, "NIMLOC" },   { 33, "SRV" },
	{ 34, "ATMA" },     { 35, "NAPTR" },    { 36, "KX" },
	{ 37, "CERT" },     { 38, "A6" },       { 39, "DNAME" },
	{ 40, "SINK" },     { 41, "OPT" },      { 42, "APL" },
	{ 43, "DS" },       { 44, "SSHFP" },    { 45, "IPSECKEY" },
	{ 46, "RRSIG" },    { 47, "NSEC" },     { 48, "DNSKEY" },
	{ 49, "DHCID" },    { 50, "NSEC3" },    { 51, "NSEC3PARAM" },
	{ 52, "TLSA" },     { 53, "SMIMEA" },   { 55, "HIP" },
	{ 56, "NINFO" },    { 57, "RKEY" },     { 58, "TALINK" },
	{ 59, "CDS" },      { 60, "CDNSKEY" },  { 61, "OPENPGPKEY" },
	{ 62, "CSYNC" },    { 63, "ZONEMD" },   { 64, "SVCB" },
	{ 65, "HTTPS" },    { 66, "DSYNC" },    { 67, "HHIT" },
	{ 68, "BRID" },     { 99, "SPF" },      { 100, "UINFO" },
	{ 101, "UID" },     { 102, "GID" },     { 103, "UNSPEC" },
	{ 104, "NID" },     { 105, "L32" },     { 106, "L64" },
	{ 107, "LP" },      { 108, "EUI48" },   { 109, "EUI64" },
	{ 249, "TKEY" },    { 250, "TSIG" },    { 251, "IXFR" },
	{ 252, "AXFR" },    { 253, "MAILB" },   { 254, "MAILA" },
	{ 255, "ANY" },     { 256, "URI" },     { 257, "CAA" },
	{ 258, "AVC" },     { 259, "DOA" },     { 260, "AMTRELAY" },
	{ 261, "RESINFO" }, { 262, "WALLET" },  { 32768, "TA" },
	{ 32769, "DLV" },
};

static const struct code_name class_names[] = {
	{ 1, "IN" }, { 3, "CH" }, { 4, "HS" }, { 254, "NONE" }, { 255, "ANY" },
};

static const struct code_name rcode_names[] = {
	{ 0, "NOERROR" },    { 1, "FORMERR" },  { 2, "SERVFAIL" },
	{ 3, "NXDOMAIN" },   { 4, "NOTIMP" },   { 5, "REFUSED" },
	{ 6, "YXDOMAIN" },   { 7, "YXRRSET" },  { 8, "NXRRSET" },
	{ 9, "NOTAUTH" },    { 10, "NOTZONE" }, { 16, "BADVERS" },
	{ 23, "BADCOOKIE" },
};

static const struct code_name opcode_names[] = {
	{ 0, "QUERY" },  { 1, "IQUERY" }, { 2, "STATUS" },
	{ 4, "NOTIFY" }, { 5, "UPDATE" },
};

/* Extended DNS error info codes (RFC 8914), as dig names them. */
static const char *const ede_names[] = {
	"Other",
	"Unsupported DNSKEY Algorithm",
	"Unsupported DS Digest Type",
	"Stale Answer",
	"Forged Answer",
	"DNSSEC Indeterminate",
	"DNSSEC Bogus",
	"Signature Expired",
	"Signature Not Yet Valid",
	"DNSKEY Missing",
	"RRSIGs Missing",
	"No Zone Key Bit Set",
	"NSEC Missing",
	"Cached Error",
	"Not Ready",
	"Blocked",
	"Censored",
	"Filtered",
	"Prohibited",
	"Stale NXDOMAIN Answer",
	"Not Authoritative",
	"Not Supported",
	"No Reachable Authority",
	"Network Error",
	"Invalid Data",
};

#define N_ELEMS(a) (sizeof(a) / sizeof((a)[0]))

static const char *lookup(const struct code_name *tab, size_t n, unsigned code)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (tab[i].code == code)
			return tab[i].name;
	return NULL;
}

/** The bits of each code shown as a number: a TYPE or CLASS, an
 *  extended RCODE (RFC 6891 section 6.1.3), an OPCODE. */
#define RT_BITS_16 0xffffu
#define RT_BITS_RCODE 0xfffu
#define RT_BITS_OPCODE 0xfu

/* The name of CODE in TAB, else PREFIX and CODE & MASK in decimal (in
 * buf). */
static const char *name_or_number(const struct code_name *tab, size_t n,
                                  unsigned code, const char *prefix,
                                  unsigned mask, char buf[RRTEXT_NAME_MAX])
{
	const char *s = lookup(tab, n, code);

	if (s != NULL)
		return s;
	snprintf(buf, RRTEXT_NAME_MAX, "%s%u", prefix, code & mask);
	return buf;
}

const char *rrtext_type_name(uint16_t type, char buf[RRTEXT_NAME_MAX])
{
	return name_or_number(type_names, N_ELEMS(type_names), type, "TYPE",
	                      RT_BITS_16, buf);
}

const char *rrtext_class_name(uint16_t rclass, char buf[RRTEXT_NAME_MAX])
{
	return name_or_number(class_names, N_ELEMS(class_names), rclass,
	                      "CLASS", RT_BITS_16, buf);
}

const char *rrtext_rcode_name(unsigned rcode, char buf[RRTEXT_NAME_MAX])
{
	return name_or_number(rcode_names, N_ELEMS(rcode_names), rcode, "",
	                      RT_BITS_RCODE, buf);
}

const char *rrtext_opcode_name(unsigned opcode, char buf[RRTEXT_NAME_MAX])
{
	return name_or_number(opcode_names, N_ELEMS(opcode_names), opcode,
	                      "RESERVED", RT_BITS_OPCODE, buf);
}

/* Parse a decimal number in [0, 65535] that fills s. */
static int parse_u16(const char *s, uint16_t *out)
{
	unsigned long v = 0;

	if (*s == '\0')
		return WIRE_ETEXT;
	for (; *s != '\0'; s++) {
		if (*s < '0' || *s > '9')
			return WIRE_ETEXT;
		v = v * 10 + (unsigned long)(*s - '0');
		if (v > 0xffffu)
			return WIRE_ETEXT;
	}
	*out = (uint16_t)v;
	return WIRE_OK;
}

int rrtext_type_parse(const char *s, uint16_t *type)
{
	size_t i;

	if (s == NULL)
		return WIRE_ETEXT;
	for (i = 0; i < N_ELEMS(type_names); i++) {
		if (strcasecmp(s, type_names[i].name) == 0) {
			*type = type_names[i].code;
			return WIRE_OK;
		}
	}
	if (strncasecmp(s, "TYPE", 4) == 0)
		return parse_u16(s + 4, type);
	return WIRE_ETEXT;
}

void rrtext_flags(uint16_t flags, char out[RRTEXT_FLAGS_MAX])
{
	static const struct code_name bits[] = {
		{ WIRE_FLAG_QR, "qr" }, { WIRE_FLAG_AA, "aa" },
		{ WIRE_FLAG_TC, "tc" }, { WIRE_FLAG_RD, "rd" },
		{ WIRE_FLAG_RA, "ra" }, { WIRE_FLAG_AD, "ad" },
		{ WIRE_FLAG_CD, "cd" },
	};
	struct rrtext_tb t;
	size_t i;

	tb_init(&t, out, RRTEXT_FLAGS_MAX);
	for (i = 0; i < N_ELEMS(bits); i++) {
		if (!(flags & bits[i].code))
			continue;
		if (t.len > 0)
			rrtext_tb_putc(&t, ' ');
		rrtext_tb_puts(&t, bits[i].name);
	}
}

/* ------------------------------------------------------------------ */
/* RDATA                                                               */

/* A record being rendered: the message, the record, a read position. */
struct rdctx {
	const uint8_t *msg;
	size_t msglen;
	const struct wire_rr *rr;
	size_t pos;
	size_t end;
};

/* Render the name at the read position; advances it. */
static int put_rdata_name(struct rrtext_tb *t, struct rdctx *c)
{
	uint8_t name[WIRE_NAME_MAX];
	char text[WIRE_NAME_TEXT_MAX];
	size_t n;
	int rc;

	rc = wire_read_rdata_name(c->msg, c->msglen, c->rr, &c->pos, name, &n,
	                          0);
	if (rc != WIRE_OK)
		return rc;
	rc = wire_name_to_text(name, n, text, sizeof(text), NULL);
	if (rc != WIRE_OK)
		return rc;
	rrtext_tb_puts(t, text);
	return WIRE_OK;
}

/* Render a 16- or 32-bit field of the RDATA as decimal. */
static int put_u16(struct rrtext_tb *t, struct rdctx *c)
{
	uint16_t v;

	if (wire_read_u16(c->msg, c->end, &c->pos, &v) != WIRE_OK)
		return WIRE_ERDATA;
	rrtext_tb_printf(t, "%u", (unsigned)v);
	return WIRE_OK;
}

static int put_u32(struct rrtext_tb *t, struct rdctx *c)
{
	uint32_t v;

	if (wire_read_u32(c->msg, c->end, &c->pos, &v) != WIRE_OK)
		return WIRE_ERDATA;
	rrtext_tb_printf(t, "%lu", (unsigned long)v);
	return WIRE_OK;
}

static int rd_a(struct rrtext_tb *t, struct rdctx *c)
{
	const uint8_t *p = c->msg + c->rr->rdata;

	if (c->rr->rdlen != 4)
		return WIRE_ERDATA;
	rrtext_tb_printf(t, "%u.%u.%u.%u", p[0], p[1], p[2], p[3]);
	c->pos = c->end;
	return WIRE_OK;
}

static int rd_aaaa(struct rrtext_tb *t, struct rdctx *c)
{
	char text[INET6_ADDRSTRLEN];

	if (c->rr->rdlen != 16)
		return WIRE_ERDATA;
	if (inet_ntop(AF_INET6, c->msg + c->rr->rdata, text, sizeof(text)) ==
	    NULL)
		return WIRE_ERDATA;
	rrtext_tb_puts(t, text);
	c->pos = c->end;
	return WIRE_OK;
}

static int rd_name(struct rrtext_tb *t, struct rdctx *c)
{
	return put_rdata_name(t, c);
}

static int rd_mx(struct rrtext_tb *t, struct rdctx *c)
{
	int rc = put_u16(t, c);

	if (rc != WIRE_OK)
		return rc;
	rrtext_tb_putc(t, ' ');
	return put_rdata_name(t, c);
}

static int rd_soa(struct rrtext_tb *t, struct rdctx *c)
{
	int rc, i;

	if ((rc = put_rdata_name(t, c)) != WIRE_OK)
		return rc;
	rrtext_tb_putc(t, ' ');
	if ((rc = put_rdata_name(t, c)) != WIRE_OK)
		return rc;
	for (i = 0; i < 5; i++) {
		rrtext_tb_putc(t, ' ');
		if ((rc = put_u32(t, c)) != WIRE_OK)
			return rc;
	}
	return WIRE_OK;
}

static int rd_srv(struct rrtext_tb *t, struct rdctx *c)
{
	int rc, i;

	for (i = 0; i < 3; i++) {
		if ((rc = put_u16(t, c)) != WIRE_OK)
			return rc;
		rrtext_tb_putc(t, ' ');
	}
	return put_rdata_name(t, c);
}

/* One character-string byte as dig prints it inside quotes. */
static void put_txt_byte(struct rrtext_tb *t, uint8_t b)
{
	if (b < 0x20 || b >= 0x7f)
		rrtext_tb_printf(t, "\\%03u", (unsigned)b);
	else if (b == '"' || b == '\\')
		rrtext_tb_printf(t, "\\%c", (char)b);
	else
		rrtext_tb_putc(t, (char)b);
}

static int rd_txt(struct rrtext_tb *t, struct rdctx *c)
{
	uint8_t n;
	size_t i;

	int first = 1;

	if (c->pos >= c->end)
		return WIRE_ERDATA; /* at least one string */
	while (c->pos < c->end) {
		if (wire_read_u8(c->msg, c->end, &c->pos, &n) != WIRE_OK ||
		    n > c->end - c->pos)
			return WIRE_ERDATA;
		if (!first)
			rrtext_tb_putc(t, ' ');
		first = 0;
		rrtext_tb_putc(t, '"');
		for (i = 0; i < n; i++)
			put_txt_byte(t, c->msg[c->pos + i]);
		rrtext_tb_putc(t, '"');
		c->pos += n;
	}
	return WIRE_OK;
}

void rrtext_tb_hex(struct rrtext_tb *t, const uint8_t *p, size_t n,
                   size_t group)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (group > 0 && i > 0 && i % group == 0)
			rrtext_tb_putc(t, ' ');
		rrtext_tb_printf(t, "%02X", p[i]);
	}
}

/* RFC 3597: "\# len hex", in groups of GENERIC_HEX_GROUP bytes. */
static void rd_generic(struct rrtext_tb *t, const uint8_t *p, size_t n)
{
	rrtext_tb_printf(t, "\\# %lu", (unsigned long)n);
	if (n > 0)
		rrtext_tb_putc(t, ' ');
	rrtext_tb_hex(t, p, n, GENERIC_HEX_GROUP);
}

/* The DNSSEC types (rrtext_dnssec.c): RDATA with no compressed names. */
static int rd_dnssec(struct rrtext_tb *t, struct rdctx *c)
{
	int rc = rrtext_dnssec_rdata(t, c->rr->type, c->msg + c->pos,
	                             c->end - c->pos);

	if (rc == WIRE_OK)
		c->pos = c->end;
	return rc;
}

typedef int (*rd_fn)(struct rrtext_tb *, struct rdctx *);

static rd_fn rd_lookup(uint16_t type)
{
	switch (type) {
	case WIRE_TYPE_A: return rd_a;
	case WIRE_TYPE_AAAA: return rd_aaaa;
	case WIRE_TYPE_NS:
	case WIRE_TYPE_CNAME:
	case WIRE_TYPE_DNAME:
	case WIRE_TYPE_PTR: return rd_name;
	case WIRE_TYPE_MX: return rd_mx;
	case WIRE_TYPE_TXT: return rd_txt;
	case WIRE_TYPE_SOA: return rd_soa;
	case WIRE_TYPE_SRV: return rd_srv;
	case WIRE_TYPE_DS:
	case WIRE_TYPE_RRSIG:
	case WIRE_TYPE_NSEC:
	case WIRE_TYPE_DNSKEY:
	case WIRE_TYPE_NSEC3:
	case RRTEXT_TYPE_NSEC3PARAM:
	case RRTEXT_TYPE_CDS:
	case RRTEXT_TYPE_CDNSKEY: return rd_dnssec;
	default: return NULL;
	}
}

/* Render RDATA into t, falling back to the generic form when malformed. */
static void put_rdata(struct rrtext_tb *t, const uint8_t *msg, size_t msglen,
                      const struct wire_rr *rr)
{
	size_t start = t->len;
	struct rdctx c;
	rd_fn fn;
	int rc = WIRE_ERDATA;

	if (rr->rdata > msglen || rr->rdlen > msglen - rr->rdata) {
		t->err = WIRE_ERDATA;
		return;
	}
	c.msg = msg;
	c.msglen = msglen;
	c.rr = rr;
	c.pos = rr->rdata;
	c.end = rr->rdata + rr->rdlen;
	fn = rd_lookup(rr->type);
	if (fn != NULL)
		rc = fn(t, &c);
	if (t->err != WIRE_OK)
		return;
	if (rc == WIRE_OK && c.pos == c.end)
		return;
	tb_truncate(t, start);
	rd_generic(t, msg + rr->rdata, rr->rdlen);
}

int rrtext_rdata(char *out, size_t cap, size_t *outlen, const uint8_t *msg,
                 size_t msglen, const struct wire_rr *rr)
{
	struct rrtext_tb t;

	tb_init(&t, out, cap);
	put_rdata(&t, msg, msglen, rr);
	return tb_done(&t, outlen);
}

/* ------------------------------------------------------------------ */
/* Lines                                                               */

/* Append a field and advance the column by its width. */
static void put_field(struct rrtext_tb *t, size_t *col, const char *s)
{
	size_t n = strlen(s);

	rrtext_tb_putn(t, s, n);
	*col += n;
}

/* Append a wire name as text and advance the column. */
static int put_name(struct rrtext_tb *t, size_t *col, const uint8_t *name,
                    size_t len)
{
	char text[WIRE_NAME_TEXT_MAX];
	int rc;

	rc = wire_name_to_text(name, len, text, sizeof(text), NULL);
	if (rc != WIRE_OK)
		return rc;
	put_field(t, col, text);
	return WIRE_OK;
}

int rrtext_rr(char *out, size_t cap, size_t *outlen, const uint8_t *msg,
              size_t msglen, const struct wire_rr *rr)
{
	uint8_t owner[WIRE_NAME_MAX];
	char nbuf[RRTEXT_NAME_MAX], ttl[16];
	size_t pos = rr->owner, olen, col = 0;
	struct rrtext_tb t;
	int rc;

	tb_init(&t, out, cap);
	rc = wire_read_name(msg, msglen, &pos, owner, &olen, 0);
	if (rc == WIRE_OK)
		rc = put_name(&t, &col, owner, olen);
	if (rc != WIRE_OK)
		return rc;
	snprintf(ttl, sizeof(ttl), "%lu", (unsigned long)rr->ttl);
	tb_indent(&t, &col, COL_TTL);
	put_field(&t, &col, ttl);
	tb_indent(&t, &col, COL_CLASS);
	put_field(&t, &col, rrtext_class_name(rr->rclass, nbuf));
	tb_indent(&t, &col, COL_TYPE);
	put_field(&t, &col, rrtext_type_name(rr->type, nbuf));
	tb_indent(&t, &col, COL_RDATA);
	put_rdata(&t, msg, msglen, rr);
	return tb_done(&t, outlen);
}

int rrtext_question(char *out, size_t cap, size_t *outlen,
                    const struct wire_question *q)
{
	char nbuf[RRTEXT_NAME_MAX];
	size_t col = 0; /* dig does not count the ';' */
	struct rrtext_tb t;
	int rc;

	tb_init(&t, out, cap);
	rrtext_tb_putc(&t, ';');
	rc = put_name(&t, &col, q->name, q->namelen);
	if (rc != WIRE_OK)
		return rc;
	tb_indent(&t, &col, COL_CLASS);
	put_field(&t, &col, rrtext_class_name(q->qclass, nbuf));
	tb_indent(&t, &col, COL_TYPE);
	put_field(&t, &col, rrtext_type_name(q->qtype, nbuf));
	return tb_done(&t, outlen);
}

/* Option bytes as dig shows NSID and unknown options: hex ("text"). */
static void put_opt_hex_text(struct rrtext_tb *t, const uint8_t *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		rrtext_tb_printf(t, "%s%02x", i ? " " : "", p[i]);
	rrtext_tb_puts(t, " (\"");
	for (i = 0; i < n; i++)
		rrtext_tb_putc(t, (p[i] >= 0x20 && p[i] < 0x7f) ? (char)p[i] :
		                                                  '.');
	rrtext_tb_puts(t, "\")");
}

static void put_opt_ede(struct rrtext_tb *t, const uint8_t *p, size_t n)
{
	unsigned code;
	size_t i;

	if (n < 2) {
		put_opt_hex_text(t, p, n);
		return;
	}
	code = (unsigned)p[0] << 8 | p[1];
	rrtext_tb_printf(t, "%u", code);
	if (code < N_ELEMS(ede_names))
		rrtext_tb_printf(t, " (%s)", ede_names[code]);
	if (n > 2) {
		rrtext_tb_puts(t, ": (");
		for (i = 2; i < n; i++)
			put_txt_byte(t, p[i]);
		rrtext_tb_putc(t, ')');
	}
}

/* Render one EDNS option on its own line. */
static void put_option(struct rrtext_tb *t, uint16_t code, const uint8_t *p,
                       size_t n)
{
	size_t i;

	rrtext_tb_putc(t, '\n');
	switch (code) {
	case 3:
		rrtext_tb_puts(t, "; NSID: ");
		put_opt_hex_text(t, p, n);
		break;
	case 10:
		rrtext_tb_puts(t, "; COOKIE: ");
		for (i = 0; i < n; i++)
			rrtext_tb_printf(t, "%02x", p[i]);
		break;
	case 15:
		rrtext_tb_puts(t, "; EDE: ");
		put_opt_ede(t, p, n);
		break;
	default:
		rrtext_tb_printf(t, "; OPT=%u: ", (unsigned)code);
		put_opt_hex_text(t, p, n);
		break;
	}
}

int rrtext_opt(char *out, size_t cap, size_t *outlen, const uint8_t *msg,
               size_t msglen, const struct wire_rr *rr)
{
	size_t pos = rr->rdata, end = rr->rdata + rr->rdlen;
	uint32_t mbz = rr->ttl & 0xffffu & ~WIRE_EDNS_DO;
	uint16_t code, n;
	struct rrtext_tb t;

	tb_init(&t, out, cap);
	if (rr->type != WIRE_TYPE_OPT)
		return WIRE_EOPT;
	if (end > msglen)
		return WIRE_ERDATA;
	rrtext_tb_printf(&t, "; EDNS: version: %u, flags:",
	                 (unsigned)(rr->ttl >> 16) & 0xffu);
	if (rr->ttl & WIRE_EDNS_DO)
		rrtext_tb_puts(&t, " do");
	if (mbz != 0)
		rrtext_tb_printf(&t, "; MBZ: 0x%04lx, udp: %u",
		                 (unsigned long)mbz, (unsigned)rr->rclass);
	else
		rrtext_tb_printf(&t, "; udp: %u", (unsigned)rr->rclass);
	while (pos < end) {
		if (wire_read_u16(msg, end, &pos, &code) != WIRE_OK ||
		    wire_read_u16(msg, end, &pos, &n) != WIRE_OK ||
		    n > end - pos)
			return WIRE_ERDATA;
		put_option(&t, code, msg + pos, n);
		pos += n;
	}
	return tb_done(&t, outlen);
}
