/*
 * resolver/base/netaddr.c - socket addresses: port and text (netaddr.h).
 */
#include "netaddr.h"

#include <arpa/inet.h>
#include <stdio.h>

socklen_t netaddr_make(struct sockaddr_storage *ss, const void *ip, size_t len,
                       uint16_t port)
{
	void *p = ss;

	memset(ss, 0, sizeof(*ss));
	if (len == 4) {
		struct sockaddr_in *in = p;

		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		memcpy(&in->sin_addr, ip, len);
		return (socklen_t)sizeof(*in);
	}
	if (len == 16) {
		struct sockaddr_in6 *in6 = p;

		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		memcpy(&in6->sin6_addr, ip, len);
		return (socklen_t)sizeof(*in6);
	}
	return 0;
}

uint16_t netaddr_port(const struct sockaddr *sa)
{
	const void *p = sa;

	if (sa->sa_family == AF_INET)
		return ntohs(((const struct sockaddr_in *)p)->sin_port);
	if (sa->sa_family == AF_INET6)
		return ntohs(((const struct sockaddr_in6 *)p)->sin6_port);
	return 0;
}

void netaddr_set_port(struct sockaddr *sa, uint16_t port)
{
	void *p = sa;

	if (sa->sa_family == AF_INET)
		((struct sockaddr_in *)p)->sin_port = htons(port);
	else if (sa->sa_family == AF_INET6)
		((struct sockaddr_in6 *)p)->sin6_port = htons(port);
}

void netaddr_text(const struct sockaddr *sa, char *out, size_t cap)
{
	char a[INET6_ADDRSTRLEN];
	size_t len;
	const uint8_t *b = netaddr_bytes(sa, &len);

	if (b == NULL || inet_ntop(sa->sa_family, b, a, sizeof a) == NULL)
		snprintf(out, cap, "?");
	else
		snprintf(out, cap, "%s", a);
}

void netaddr_text_port(const struct sockaddr *sa, char *out, size_t cap)
{
	char a[INET6_ADDRSTRLEN];

	netaddr_text(sa, a, sizeof a);
	snprintf(out, cap, "%s@%u", a, (unsigned)netaddr_port(sa));
}
