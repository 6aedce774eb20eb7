/*
 * resolver/front_tls/dohhttp.c - the HTTP side of DNS over HTTPS that needs
 * no HTTP/2 library (see dohhttp.h).
 */
#include "dohhttp.h"

#include <ctype.h>
#include <string.h>

#include "wire/b64.h"

/** The query-string parameter of a GET (RFC 8484 s4.1). */
#define DOHHTTP_PARAM "dns="
#define DOHHTTP_PARAM_LEN 4
/** Bytes of a record's type, class, TTL and RDLENGTH. */
#define DOHHTTP_RR_FIXED 10
/** A compression pointer's first two bits. */
#define DOHHTTP_PTR 0xc0u
/** Record type of OPT (RFC 6891). */
#define DOHHTTP_TYPE_OPT 41u

int dohhttp_b64url_decode(const char *in, size_t inlen, uint8_t *out,
                          size_t cap, size_t *outlen)
{
	while (inlen > 0 && in[inlen - 1] == '=')
		inlen--;
	switch (b64_decode(B64_URL, in, inlen, out, cap, outlen)) {
	case B64_OK: return 0;
	case B64_EFULL: return -2;
	default: return -1;
	}
}

/* The dns= parameter of a query string, decoded. */
static int path_query(const char *qs, size_t len, uint8_t *q, size_t cap,
                      size_t *qlen)
{
	size_t i = 0;

	while (i < len) {
		const char *amp = memchr(qs + i, '&', len - i);
		size_t end = amp != NULL ? (size_t)(amp - qs) : len;
		int rc;

		if (end - i >= DOHHTTP_PARAM_LEN &&
		    memcmp(qs + i, DOHHTTP_PARAM, DOHHTTP_PARAM_LEN) == 0) {
			i += DOHHTTP_PARAM_LEN;
			rc = dohhttp_b64url_decode(qs + i, end - i, q, cap,
			                           qlen);
			if (rc == 0 && *qlen >= DOHHTTP_DNS_MIN)
				return DOHHTTP_OK;
			*qlen = 0;
			return rc == -2 ? DOHHTTP_ETOOBIG : DOHHTTP_EBAD;
		}
		i = end + 1;
	}
	return DOHHTTP_NOQUERY;
}

int dohhttp_path(const char *path, size_t len, const char *endpoint,
                 uint8_t *q, size_t cap, size_t *qlen)
{
	const char *mark = memchr(path, '?', len);
	size_t plen = mark != NULL ? (size_t)(mark - path) : len;
	size_t elen = strlen(endpoint);

	*qlen = 0;
	if (plen != elen || memcmp(path, endpoint, elen) != 0)
		return DOHHTTP_ENOTFOUND;
	if (mark == NULL)
		return DOHHTTP_NOQUERY;
	return path_query(mark + 1, len - plen - 1, q, cap, qlen);
}

bool dohhttp_ctype_ok(const char *v, size_t len)
{
	size_t n = sizeof DOHHTTP_CTYPE - 1, i;

	while (len > 0 && (v[len - 1] == ' ' || v[len - 1] == '\t'))
		len--;
	if (len < n)
		return false;
	for (i = 0; i < n; i++)
		if (tolower((unsigned char)v[i]) != DOHHTTP_CTYPE[i])
			return false;
	while (i < len && (v[i] == ' ' || v[i] == '\t'))
		i++;
	return i == len || v[i] == ';';
}

/* Past a name at *pos (labels, then a root or a pointer). */
static bool skip_name(const uint8_t *m, size_t len, size_t *pos)
{
	size_t p = *pos;

	while (p < len) {
		uint8_t l = m[p];

		if ((l & DOHHTTP_PTR) == DOHHTTP_PTR) {
			*pos = p + 2;
			return *pos <= len;
		}
		if (l & DOHHTTP_PTR)
			return false;
		p += 1u + l;
		if (l == 0) {
			*pos = p;
			return true;
		}
	}
	return false;
}

/* The least TTL of n records from *pos; false on bytes that are not
 * records. */
static bool least_ttl(const uint8_t *m, size_t len, size_t *pos, unsigned n,
                      uint32_t *least)
{
	unsigned i;

	for (i = 0; i < n; i++) {
		size_t p = *pos;
		uint32_t ttl;
		uint16_t type;

		if (!skip_name(m, len, &p) || len - p < DOHHTTP_RR_FIXED)
			return false;
		type = (uint16_t)(m[p] << 8 | m[p + 1]);
		ttl = (uint32_t)m[p + 4] << 24 | (uint32_t)m[p + 5] << 16 |
		      (uint32_t)m[p + 6] << 8 | m[p + 7];
		p += DOHHTTP_RR_FIXED + (size_t)(m[p + 8] << 8 | m[p + 9]);
		if (p > len)
			return false;
		if (type != DOHHTTP_TYPE_OPT && ttl < *least)
			*least = ttl;
		*pos = p;
	}
	return true;
}

uint32_t dohhttp_max_age(const uint8_t *msg, size_t len)
{
	uint32_t least = UINT32_MAX;
	size_t pos = DOHHTTP_DNS_MIN;
	unsigned qd, an, ns, i;

	if (len < DOHHTTP_DNS_MIN)
		return 0;
	qd = (unsigned)(msg[4] << 8 | msg[5]);
	an = (unsigned)(msg[6] << 8 | msg[7]);
	ns = (unsigned)(msg[8] << 8 | msg[9]);
	for (i = 0; i < qd; i++) {
		if (!skip_name(msg, len, &pos) || len - pos < 4)
			return 0;
		pos += 4;
	}
	if (!least_ttl(msg, len, &pos, an, &least))
		return 0;
	if (an == 0 && !least_ttl(msg, len, &pos, ns, &least))
		return 0;
	return least == UINT32_MAX ? 0 : least;
}

int dohhttp_code(int status)
{
	switch (status) {
	case DOHHTTP_OK:
	case DOHHTTP_NOQUERY: return DOHHTTP_200;
	case DOHHTTP_ENOTFOUND: return DOHHTTP_404;
	case DOHHTTP_ETOOBIG: return DOHHTTP_413;
	default: return DOHHTTP_400;
	}
}
