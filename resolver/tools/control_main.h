/*
 * resolver/tools/control_main.h - what the files of curvecache-control share
 * (control_main.c: options and one-shot commands; control_top.c: the
 * live view). Nobody else may include it.
 */
#ifndef CURVECACHE_RESOLVER_CONTROL_MAIN_H
#define CURVECACHE_RESOLVER_CONTROL_MAIN_H

#include <stdbool.h>
#include <stddef.h>

/** Exit statuses. */
#define CTLM_EXIT_OK 0
#define CTLM_EXIT_ERROR 1
#define CTLM_EXIT_USAGE 2
#define CTLM_EXIT_CONNECT 3

/**
 * Connect to the control socket.
 * @return the descriptor, or -1 (message printed).
 */
int ctlm_connect(const char *path);

/** Write all bytes (EINTR retried). @return 0 or -1. */
int ctlm_write_all(int fd, const char *p, size_t n);

/**
 * The top command.
 * @param argc, argv: "top" and its options.
 * @return an exit status.
 */
int ctlm_top(const char *path, int argc, char **argv);

#endif /* CURVECACHE_RESOLVER_CONTROL_MAIN_H */
