/*
 * resolver/base/fileio.h - files read and written whole: the one bounded
 * whole-file reader of resolver/, and the one atomic replace.
 *
 * Configuration, root hints and local data are read whole into memory
 * before they are parsed. This is the only place that does it, so each
 * of them gets the same guards: a size limit checked while reading (a
 * file that grows is still cut off), a NUL after the last byte, and,
 * where asked, a refusal of anything but a regular file (a FIFO or a
 * device named by mistake would hang or never end).
 *
 * Files written whole (the cache file, its key) are written to a
 * temporary in the same directory, synced, then put in place with one
 * rename (fileio_replace) or link, after which the directory is synced
 * (fileio_sync_dir): a crash leaves the old file or the new one, never a
 * part.
 *
 * curve/ keeps its own small reader and replace: it is a leaf library.
 */
#ifndef CURVECACHE_RESOLVER_FILEIO_H
#define CURVECACHE_RESOLVER_FILEIO_H

#include "base.h"

#include <stdbool.h>
#include <stddef.h>

enum {
	FILEIO_OK = 0,
	FILEIO_EOPEN = -1,   /**< open or fstat failed (errno text in why) */
	FILEIO_ENOTREG = -2, /**< not a regular file, and one was required */
	FILEIO_ETOOBIG = -3, /**< more than max bytes */
	FILEIO_EREAD = -4,   /**< read failed */
	FILEIO_ENOMEM = -5   /**< out of memory */
};

/**
 * Read an open file descriptor to its end.
 * @param fd: open for reading; not closed.
 * @param max: the largest size accepted, in bytes.
 * @param regular_only: refuse anything fstat does not call a regular file.
 * @param buf: out: malloc'd, len + 1 bytes, NUL-terminated; the caller
 *   frees it. NULL on failure.
 * @param len: out: the number of bytes read.
 * @param why: out: on failure a short reason without the file name
 *   ("larger than 1048576 bytes"); may be NULL.
 * @return FILEIO_OK or one of the FILEIO_E* codes.
 */
int fileio_read_fd(int fd, size_t max, bool regular_only, char **buf,
                   size_t *len, char *why, size_t whylen);

/**
 * Open path (O_CLOEXEC, O_NONBLOCK so a FIFO cannot hang us), then as
 * fileio_read_fd.
 */
int fileio_read_path(const char *path, size_t max, bool regular_only,
                     char **buf, size_t *len, char *why, size_t whylen);

/**
 * The directory of an absolute path ("/" for "/cache").
 * @return 0, or -1 (no slash, or longer than cap).
 */
MUST_CHECK int fileio_dir_of(const char *path, char *dir, size_t cap);

/**
 * fsync the directory holding path, so that a rename or link into it
 * survives a crash. Best effort: a directory that cannot be opened is
 * left as it is.
 */
void fileio_sync_dir(const char *path);

/**
 * Put tmp in place of path atomically: rename(tmp, path), then sync the
 * directory. The caller has written and synced tmp, in path's directory.
 * @return 0, or -1 with errno set (tmp is left where it was).
 */
MUST_CHECK int fileio_replace(const char *tmp, const char *path);

#endif /* CURVECACHE_RESOLVER_FILEIO_H */
