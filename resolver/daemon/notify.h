/*
 * resolver/daemon/notify.h - tell the service manager how the daemon is doing
 * (systemd's sd_notify protocol, without libsystemd).
 *
 * The manager puts the path of a Unix datagram socket in NOTIFY_SOCKET
 * ("/run/systemd/notify", or "@name" for an abstract socket); the daemon
 * sends newline-separated VAR=value assignments to it: READY=1 once it
 * answers, STOPPING=1 when it begins to stop, STATUS=text for
 * "systemctl status". Without NOTIFY_SOCKET nothing is sent. This is what
 * Type=notify in etc/curvecache.service waits for.
 */
#ifndef CURVECACHE_RESOLVER_NOTIFY_H
#define CURVECACHE_RESOLVER_NOTIFY_H

/** Status codes of notify_send. */
enum notify_status {
	NOTIFY_OK = 0,   /**< sent */
	NOTIFY_NOSOCKET, /**< NOTIFY_SOCKET is not set: nothing to do */
	NOTIFY_EADDR,    /**< NOTIFY_SOCKET is not an absolute path or
	                      "@name", or is too long */
	NOTIFY_ESEND     /**< socket or sendto failed (errno set) */
};

/**
 * Send one message to the service manager.
 * @param state: the assignments, e.g. "READY=1\nSTATUS=answering".
 * @return a notify_status.
 */
int notify_send(const char *state);

#endif /* CURVECACHE_RESOLVER_NOTIFY_H */
