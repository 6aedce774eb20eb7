/*
 * resolver/wire/rrtext.h - DNS records in presentation (text) format, dig
 * style.
 *
 * Renders what resolver/wire/wire.c parsed: questions, resource records and
 * their RDATA, the EDNS OPT pseudo-section, and the names of types,
 * classes, opcodes, RCODEs and header flags. Used by curvecache-query
 * (its output is compared with dig's byte for byte), and by logs and
 * tests.
 *
 * Design notes:
 * - Input is a message parsed by wire_msg_parse and held by the caller;
 *   names inside RDATA are decompressed against the whole message with
 *   the bounded reader (wire_read_rdata_name), so hostile RDATA is safe.
 * - Known types: A, AAAA, NS, CNAME, DNAME, PTR, MX, TXT, SOA, SRV, and
 *   the DNSSEC types (rrtext_dnssec.c) RRSIG, DNSKEY, DS, NSEC, NSEC3,
 *   NSEC3PARAM, CDS and CDNSKEY as dig prints them: RRSIG times as
 *   YYYYMMDDHHmmSS UTC, keys and signatures in base64 and DS digests in
 *   uppercase hex, both with a blank every 56 characters, NSEC3 salts in
 *   hex ("-" when empty) and next hashed owners in uppercase base32hex,
 *   type bitmaps as mnemonics (TYPEnnn for the others). Any other type,
 *   and a known type whose RDATA is malformed, is rendered in the RFC
 *   3597 generic form "\# LEN HEX" (which is always valid text).
 * - A DNSSEC type is rendered in its presentation form only when the
 *   cache file reader (resolver/store/cachefile_dnssec.c) turns that text
 *   back into the same bytes: no empty key, signature, digest or next
 *   hash, no compressed name, a type bitmap in its one canonical form
 *   (windows in order, no empty or zero-ended window; not empty for
 *   NSEC) of at most RRTEXT_BITMAP_TYPES_MAX types; else the generic
 *   form. dump_cache output thus loads back byte for byte.
 * - RRSIG times are read as seconds since 1970 (years 1970-2106); dig
 *   takes the date nearest to today instead, so the two differ only for
 *   a time more than 68 years away.
 * - Columns follow BIND's dig: TTL at 24, class at 32, type at 40, RDATA
 *   at 48, tab-expanded, at least one blank between fields.
 * - Output goes to a caller-provided buffer, NUL-terminated, never past
 *   its capacity; nothing allocates.
 */
#ifndef CURVECACHE_RESOLVER_RRTEXT_H
#define CURVECACHE_RESOLVER_RRTEXT_H

#include "base/base.h"

#include <stddef.h>
#include <stdint.h>

#include "wire.h"

/** Buffer size for a type, class, opcode or RCODE name ("CLASS65535"). */
#define RRTEXT_NAME_MAX 16
/** Buffer size for any RDATA: up to 4 characters per byte, plus slack. */
#define RRTEXT_RDATA_MAX (4 * (size_t)WIRE_MSG_MAX + 64)
/** Buffer size for any whole record line (owner + fields + RDATA). */
#define RRTEXT_LINE_MAX (RRTEXT_RDATA_MAX + WIRE_NAME_TEXT_MAX + 64)
/** Buffer size for the header flags text ("qr aa tc rd ra ad cd"). */
#define RRTEXT_FLAGS_MAX 32
/** Types without a WIRE_TYPE_ name that rrtext renders (RFC 5155, 7344). */
#define RRTEXT_TYPE_NSEC3PARAM 51
#define RRTEXT_TYPE_CDS 59
#define RRTEXT_TYPE_CDNSKEY 60
/** Most types of an NSEC or NSEC3 bitmap printed as names (each costs at
 *  most 11 characters); a bitmap with more is shown in generic form. */
#define RRTEXT_BITMAP_TYPES_MAX 1024
/** Characters of an RRSIG time, YYYYMMDDHHmmSS. */
#define RRTEXT_TIME_CHARS 14

/**
 * Name of a record type ("A", "AAAA", ... or "TYPE65280").
 * @param buf: scratch for the TYPEnnn form.
 * @return a static string or buf; never NULL.
 */
const char *rrtext_type_name(uint16_t type, char buf[RRTEXT_NAME_MAX]);

/**
 * Parse a type name, case-insensitively: a mnemonic (A, AAAA, NS, CNAME,
 * SOA, PTR, MX, TXT, SRV, DNAME, ANY, ...) or TYPEnnn (0-65535).
 * @param s: NUL-terminated text.
 * @param type: receives the number.
 * @return WIRE_OK or WIRE_ETEXT.
 */
int rrtext_type_parse(const char *s, uint16_t *type) MUST_CHECK;

/**
 * Parse an RRSIG time (RFC 4034 section 3.2): YYYYMMDDHHmmSS in UTC
 * (years 1901-2106, taken modulo 2^32 seconds as RFC 1982 serial
 * arithmetic reads them, so that dig's dates before 1970 come back as the
 * same field), or decimal seconds since 1970 (at most 10 digits).
 * @param s, n: the text (need not be NUL-terminated); nothing at or past
 *   n is read.
 * @param out: receives the 32-bit field.
 * @return WIRE_OK or WIRE_ETEXT (bad digits, date or range).
 */
int rrtext_time_parse(const char *s, size_t n, uint32_t *out) MUST_CHECK;

/** Name of a class ("IN", "CH", "HS", "NONE", "ANY", "CLASSnnn"). */
const char *rrtext_class_name(uint16_t rclass, char buf[RRTEXT_NAME_MAX]);

/** Name of an (extended) RCODE ("NOERROR", "NXDOMAIN", ... or "nnn"). */
const char *rrtext_rcode_name(unsigned rcode, char buf[RRTEXT_NAME_MAX]);

/** Name of an opcode ("QUERY", "NOTIFY", ... or "RESERVEDnn"). */
const char *rrtext_opcode_name(unsigned opcode, char buf[RRTEXT_NAME_MAX]);

/**
 * The set header flags as dig lists them: "qr aa tc rd ra ad cd" order,
 * space-separated, "" when none is set.
 * @param out: receives the NUL-terminated text.
 */
void rrtext_flags(uint16_t flags, char out[RRTEXT_FLAGS_MAX]);

/**
 * Render the RDATA of a record alone (what dig +short prints).
 * @param out, cap: destination (RRTEXT_RDATA_MAX always suffices).
 * @param outlen: NULL, or set to the text length.
 * @param msg, msglen: the message the record was parsed from.
 * @param rr: the record.
 * @return WIRE_OK, WIRE_ESPACE (out then holds a truncated string), or
 *   WIRE_ERDATA if the view lies outside msg (never for a record from
 *   wire_msg_parse on the same msg).
 */
int rrtext_rdata(char *out, size_t cap, size_t *outlen, const uint8_t *msg,
                 size_t msglen, const struct wire_rr *rr) MUST_CHECK;

/**
 * Render a whole record line, without newline:
 * "owner<TAB>ttl<TAB>class<TAB>type<TAB>rdata" with dig's columns.
 * @return WIRE_OK, WIRE_ESPACE, or a name error if the owner is
 *   malformed (cannot happen for a record from wire_msg_parse).
 */
int rrtext_rr(char *out, size_t cap, size_t *outlen, const uint8_t *msg,
              size_t msglen, const struct wire_rr *rr) MUST_CHECK;

/**
 * Render a question line as dig does: ";name<TAB>class<TAB>type".
 * @return WIRE_OK, WIRE_ESPACE or a name error.
 */
int rrtext_question(char *out, size_t cap, size_t *outlen,
                    const struct wire_question *q) MUST_CHECK;

/**
 * Render an OPT record as dig's pseudo-section body, lines separated by
 * '\n' and no final newline: "; EDNS: version: 0, flags: do; udp: 1232",
 * then one line per option (NSID, COOKIE, EDE by name, others as
 * "; OPT=n: hex").
 * @return WIRE_OK, WIRE_ESPACE, WIRE_EOPT (not an OPT record) or
 *   WIRE_ERDATA (options overrun the RDATA; nothing useful rendered).
 */
int rrtext_opt(char *out, size_t cap, size_t *outlen, const uint8_t *msg,
               size_t msglen, const struct wire_rr *rr) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_RRTEXT_H */
