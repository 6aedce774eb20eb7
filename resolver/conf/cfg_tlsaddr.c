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

#include "wire/b64.h"

/** DNS over TLS's port (RFC 7858 s3.1). */
#define TLSADDR_PORT 853
/** Plain DNS's port. */
#define TLSADDR_PLAIN_PORT 53
/** Base64 characters of a SHA-256 pin: 32 bytes, one '=' of padding. */
#define TLSADDR_PIN_CHARS 44
/** Longest label of a host name (RFC 1035). */
#define TLSADDR_LABEL_MAX 63

int cfg_pin_parse(const char *s, size_t len, uint8_t pin[CFG_PIN_BYTES])
{
	struct b64 b;
	size_t i, n = 0;
	uint8_t byte;

	if (len != TLSADDR_PIN_CHARS)
		return -1;
	b64_start(&b, B64_STD);
	for (i = 0; i < len; i++) {
		int rc = b64_char(&b, s[i], &byte);

		if (rc == B64_EBAD || (rc == B64_BYTE && n >= CFG_PIN_BYTES))
			return -1;
		if (rc == B64_BYTE)
			pin[n++] = byte;
	}
	/* 43 digits and one '=': 32 bytes, the 2 bits left zero (canonical
	 * form only) */
	return n == CFG_PIN_BYTES && b64_whole_padded(&b) ? 0 : -1;
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
