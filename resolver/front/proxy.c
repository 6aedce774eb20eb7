/*
 * resolver/front/proxy.c - PROXY protocol version 2 header parser (see
 * proxy.h).
 */
#include "config.h"
#include "proxy.h"

#include <netinet/in.h>
#include <string.h>

#define PROXY_SIG_LEN 12u
#define PROXY_VERSION 0x2u
#define PROXY_CMD_LOCAL 0x0u
#define PROXY_CMD_PROXY 0x1u
#define PROXY_FAM_INET 0x1u
#define PROXY_FAM_INET6 0x2u

static const uint8_t proxy_sig[PROXY_SIG_LEN] = {
	0x0d, 0x0a, 0x0d, 0x0a, 0x00, 0x0d, 0x0a, 0x51, 0x55, 0x49, 0x54, 0x0a,
};

const char *proxy_strerror(int status)
{
	switch (status) {
	case PROXY_OK: return "ok";
	case PROXY_ESHORT: return "PROXY header truncated";
	case PROXY_ESIG: return "no PROXY v2 signature";
	case PROXY_EVERSION: return "PROXY version is not 2";
	case PROXY_ECOMMAND: return "unknown PROXY command";
	case PROXY_EFAMILY: return "PROXY address family not INET/INET6";
	case PROXY_ELENGTH: return "PROXY length beyond the packet";
	case PROXY_EADDR: return "PROXY address block too short";
	case PROXY_ETOOBIG: return "PROXY header longer than allowed";
	default: return "unknown proxy status";
	}
}

int proxy_has_signature(const uint8_t *buf, size_t len)
{
	size_t n = len < PROXY_SIG_LEN ? len : PROXY_SIG_LEN;

	return len > 0 && memcmp(buf, proxy_sig, n) == 0;
}

/* Fill *client from an address block of the given family. */
static int proxy_addr(unsigned fam, const uint8_t *p, size_t n,
                      struct sockaddr_storage *client)
{
	memset(client, 0, sizeof(*client));
	if (fam == PROXY_FAM_INET) {
		struct sockaddr_in *sin = (struct sockaddr_in *)client;

		if (n < PROXY_INET_LEN)
			return PROXY_EADDR;
		sin->sin_family = AF_INET;
		memcpy(&sin->sin_addr, p, 4);
		memcpy(&sin->sin_port, p + 8, 2);
		return PROXY_OK;
	}
	if (fam == PROXY_FAM_INET6) {
		struct sockaddr_in6 *sin6 = (struct sockaddr_in6 *)client;

		if (n < PROXY_INET6_LEN)
			return PROXY_EADDR;
		sin6->sin6_family = AF_INET6;
		memcpy(&sin6->sin6_addr, p, 16);
		memcpy(&sin6->sin6_port, p + 32, 2);
		return PROXY_OK;
	}
	return PROXY_EFAMILY;
}

/* Check the version and command of a fixed part (PROXY_FIXED_LEN bytes,
 * the signature checked) and give the announced length. */
static int proxy_fixed(const uint8_t *buf, size_t *body)
{
	unsigned ver = buf[12] >> 4, cmd = buf[12] & 0x0fu;

	if (ver != PROXY_VERSION)
		return PROXY_EVERSION;
	if (cmd != PROXY_CMD_LOCAL && cmd != PROXY_CMD_PROXY)
		return PROXY_ECOMMAND;
	*body = ((size_t)buf[14] << 8) | buf[15];
	return PROXY_OK;
}

int proxy_parse(const uint8_t *buf, size_t len, size_t *hdr_len,
                struct sockaddr_storage *client)
{
	struct sockaddr_storage ss;
	unsigned cmd, fam;
	size_t body;
	int rc;

	if (len < PROXY_FIXED_LEN)
		return proxy_has_signature(buf, len) ? PROXY_ESHORT :
		                                       PROXY_ESIG;
	if (memcmp(buf, proxy_sig, PROXY_SIG_LEN) != 0)
		return PROXY_ESIG;
	rc = proxy_fixed(buf, &body);
	if (rc != PROXY_OK)
		return rc;
	cmd = buf[12] & 0x0fu;
	fam = buf[13] >> 4;
	if (body > len - PROXY_FIXED_LEN)
		return PROXY_ELENGTH;
	if (cmd == PROXY_CMD_LOCAL) {
		memset(&ss, 0, sizeof(ss));
		ss.ss_family = AF_UNSPEC;
	} else {
		rc = proxy_addr(fam, buf + PROXY_FIXED_LEN, body, &ss);
		if (rc != PROXY_OK)
			return rc;
	}
	*client = ss;
	*hdr_len = PROXY_FIXED_LEN + body;
	return PROXY_OK;
}

int proxy_stream_want(const uint8_t *buf, size_t have, size_t *want)
{
	size_t body = 0, total;
	int rc;

	*want = 0;
	if (have > 0 && !proxy_has_signature(buf, have))
		return PROXY_ESIG;
	if (have < PROXY_FIXED_LEN) {
		*want = PROXY_FIXED_LEN - have;
		return PROXY_ESHORT;
	}
	rc = proxy_fixed(buf, &body);
	if (rc != PROXY_OK)
		return rc;
	total = PROXY_FIXED_LEN + body;
	if (total > PROXY_STREAM_MAX)
		return PROXY_ETOOBIG;
	if (have >= total)
		return PROXY_OK;
	*want = total - have;
	return PROXY_ESHORT;
}
