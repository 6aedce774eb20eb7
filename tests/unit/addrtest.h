/*
 * tests/unit/addrtest.h - a socket address from its text, for the suites
 * that key tables by client address (ratelimit, topk).
 */
#ifndef CURVECACHE_TESTS_ADDRTEST_H
#define CURVECACHE_TESTS_ADDRTEST_H

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/socket.h>

/* "192.0.2.1" or "2001:db8::1" as a sockaddr (port 0); fails the test
 * on text that is neither. */
static inline struct sockaddr_storage test_addr(const char *text)
{
	struct sockaddr_storage ss;

	memset(&ss, 0, sizeof ss);
	if (strchr(text, ':') != NULL) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;

		in6->sin6_family = AF_INET6;
		ck_assert_int_eq(inet_pton(AF_INET6, text, &in6->sin6_addr),
		                 1);
	} else {
		struct sockaddr_in *in = (struct sockaddr_in *)&ss;

		in->sin_family = AF_INET;
		ck_assert_int_eq(inet_pton(AF_INET, text, &in->sin_addr), 1);
	}
	return ss;
}

#define SA(x) ((const struct sockaddr *)&(x))

#endif
