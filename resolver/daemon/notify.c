/*
 * resolver/daemon/notify.c - sd_notify without libsystemd (see notify.h).
 */
#include "notify.h"

#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int notify_send(const char *state)
{
	const char *path = getenv("NOTIFY_SOCKET");
	struct sockaddr_un sun;
	size_t len;
	ssize_t n;
	int fd, saved;

	if (path == NULL || path[0] == '\0')
		return NOTIFY_NOSOCKET;
	len = strlen(path);
	if ((path[0] != '/' && path[0] != '@') || len < 2 ||
	    len > sizeof sun.sun_path - (path[0] == '/'))
		return NOTIFY_EADDR;
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, path, len);
	if (path[0] == '@')
		sun.sun_path[0] = '\0'; /* abstract namespace */
	fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return NOTIFY_ESEND;
	n = sendto(fd, state, strlen(state), MSG_NOSIGNAL,
	           (const struct sockaddr *)&sun,
	           (socklen_t)(offsetof(struct sockaddr_un, sun_path) + len +
	                       (path[0] == '/')));
	saved = errno;
	close(fd);
	errno = saved;
	return n == (ssize_t)strlen(state) ? NOTIFY_OK : NOTIFY_ESEND;
}
