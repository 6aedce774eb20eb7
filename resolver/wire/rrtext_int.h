/*
 * resolver/wire/rrtext_int.h - what rrtext.c (records, names of numbers,
 * the usual types, OPT) and rrtext_dnssec.c (the DNSSEC types) share: the
 * bounded text buffer and the hex of the generic form. Nobody else may
 * include it.
 */
#ifndef CURVECACHE_RESOLVER_RRTEXT_INT_H
#define CURVECACHE_RESOLVER_RRTEXT_INT_H

#include <stddef.h>
#include <stdint.h>

/**
 * Text being built in a caller's buffer: always NUL-terminated, never
 * past cap. The first failure sticks in err (WIRE_ESPACE: it did not
 * fit); later puts are then ignored.
 */
struct rrtext_tb {
	char *p;
	size_t cap;
	size_t len;
	int err;
};

/** Append n bytes of s (or set WIRE_ESPACE, leaving the text as it was). */
void rrtext_tb_putn(struct rrtext_tb *t, const char *s, size_t n);
/** Append a NUL-terminated string. */
void rrtext_tb_puts(struct rrtext_tb *t, const char *s);
/** Append one character. */
void rrtext_tb_putc(struct rrtext_tb *t, char c);
/** Append formatted text of at most 63 characters (else WIRE_ESPACE). */
__attribute__((format(printf, 2, 3))) void
rrtext_tb_printf(struct rrtext_tb *t, const char *fmt, ...);

/**
 * Append bytes as uppercase hex; group > 0: a blank after every group
 * bytes (none after the last), as dig breaks DS digests and "\#" data.
 */
void rrtext_tb_hex(struct rrtext_tb *t, const uint8_t *p, size_t n,
                   size_t group);

/**
 * Append the presentation form of the RDATA of a DNSSEC type: RRSIG,
 * DNSKEY, CDNSKEY, DS, CDS, NSEC, NSEC3, NSEC3PARAM (RFC 4034 sections
 * 2.2, 3.2, 4.2, 5.3; RFC 5155 sections 3.3, 4.3; RFC 7344).
 * @param p, n: the RDATA, uncompressed; nothing at or past n is read.
 * @return WIRE_OK, or WIRE_ERDATA when the RDATA is malformed, not of such
 *   a type, or not in the one form the cache file reader gives back byte
 *   for byte (see rrtext.h); then t may hold part of a text, which the
 *   caller cuts off before writing the generic form.
 */
int rrtext_dnssec_rdata(struct rrtext_tb *t, uint16_t type, const uint8_t *p,
                        size_t n);

#endif /* CURVECACHE_RESOLVER_RRTEXT_INT_H */
