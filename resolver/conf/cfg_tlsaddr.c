/*
 * resolver/conf/cfg_tlsaddr.c - a forward server as written on a
 * forward-zone line, with its DNS-over-TLS authentication (RFC 7858,
 * RFC 8310 strict profile):
 *
 *   ADDR            plain DNS, port 53
 *   ADDR@PORT       plain DNS, that port
 *   ADDR#NAME       TLS on port 853; the certificate must name NAME
 *   ADDR@PORT#NAME  TLS on that port
 *   ADDR@853#NAME^PIN  and the server's SubjectPublicKeyInfo must hash
 *                   (SHA-256) to PIN, 44 characters of base64 (RFC 7858
 *                   s4.2)
 *
 * The text comes from a configuration file: (buf, len), never read past.
 */
#include "cfg.h"

#include <string.h>

/** DNS over TLS's port (RFC 7858 s3.1). */
#define TLSADDR_PORT 853
/** Plain DNS's port. */
#define TLSADDR_PLAIN_PORT 53
/** Base64 characters of a SHA-256 pin: 32 bytes, one '=' of padding. */
#define TLSADDR_PIN_CHARS 44
/** Bits of one base64 digit. */
#define TLSADDR_B64_BITS 6
/** Longest label of a host name (RFC 1035). */
#define TLSADDR_LABEL_MAX 63

static int b64_digit(unsigned char c)
{
	if (c >= 'A' && c <= 'Z')
		return c - 'A';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 26;
	if (c >= '0' && c <= '9')
		return c - '0' + 52;
	if (c == '+')
		return 62;
	if (c == '/')
		return 63;
	return -1;
}

int cfg_pin_parse(const char *s, size_t len, uint8_t pin[CFG_PIN_BYTES])
{
	uint32_t acc = 0;
	size_t i, bits = 0, n = 0;

	if (len != TLSADDR_PIN_CHARS || s[len - 1] != '=')
		return -1;
	for (i = 0; i + 1 < len; i++) {
		int d = b64_digit((unsigned char)s[i]);

		if (d < 0)
			return -1;
		acc = (acc << TLSADDR_B64_BITS) | (uint32_t)d;
		bits += TLSADDR_B64_BITS;
		if (bits >= 8) {
			bits -= 8;
			if (n >= CFG_PIN_BYTES)
				return -1;
			pin[n++] = (uint8_t)(acc >> bits);
		}
	}
	/* 43 digits: 32 bytes and 2 bits left, which must be zero
	 * (canonical form only) */
	if (n != CFG_PIN_BYTES || (acc & ((1u << bits) - 1)) != 0)
		return -1;
	return 0;
}

/* A host name for the certificate check: letters, digits, '-', '_',
 * dots between labels of 1..63 characters, an optional final dot. */
static bool authname_ok(const char *s, size_t len)
{
	size_t i, label = 0;

	if (len == 0 || len >= CFG_TLSNAME_BYTES)
		return false;
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '.') {
			if (label == 0)
				return false;
			label = 0;
			continue;
		}
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		      (c >= '0' && c <= '9') || c == '-' || c == '_'))
			return false;
		if (++label > TLSADDR_LABEL_MAX)
			return false;
	}
	return true;
}

/* "#NAME" or "#NAME^PIN" (s points past '#'). */
static int tls_part(const char *s, size_t len, struct cfg_tls *tls)
{
	const char *caret = memchr(s, '^', len);
	size_t nl = caret != NULL ? (size_t)(caret - s) : len;

	if (!authname_ok(s, nl))
		return -1;
	memcpy(tls->name, s, nl);
	tls->name[nl] = '\0';
	if (nl > 1 && tls->name[nl - 1] == '.')
		tls->name[nl - 1] = '\0';
	if (caret == NULL)
		return 0;
	if (cfg_pin_parse(caret + 1, len - nl - 1, tls->pin) != 0)
		return -1;
	tls->has_pin = true;
	return 0;
}

int cfg_tlsaddr_parse(const char *s, size_t len, struct cfg_addr *addr,
                      struct cfg_tls *tls)
{
	char text[INET6_ADDRSTRLEN + 8];
	const char *hash = memchr(s, '#', len);
	size_t al = hash != NULL ? (size_t)(hash - s) : len;

	memset(tls, 0, sizeof *tls);
	if (al == 0 || al >= sizeof text || memchr(s, '\0', len) != NULL)
		return -1;
	memcpy(text, s, al);
	text[al] = '\0';
	if (hash != NULL && tls_part(hash + 1, len - al - 1, tls) != 0)
		return -1;
	if (cfg_addr_parse(text,
	                   hash != NULL ? TLSADDR_PORT : TLSADDR_PLAIN_PORT,
	                   addr) != 0) {
		memset(tls, 0, sizeof *tls);
		return -1;
	}
	return 0;
}
