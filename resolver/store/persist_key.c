/*
 * resolver/store/persist_key.c - the cache file's MAC key, PATH.key (see
 * persist_int.h).
 *
 * Design notes:
 * - A key file that group or others can read or write is refused, for
 *   load and save alike, with its mode and the chmod that fixes it: such
 *   a key is no longer a secret, so a MAC made with it proves nothing.
 *   Refusing costs only the saved cache (the daemon starts with an empty
 *   one, as for any bad cache file); stopping the resolver for it would
 *   cost far more, and silently replacing the key would hide the problem.
 * - The key is made once, from randombytes, written to a locked temporary
 *   and link()ed to PATH.key: link fails if the name exists (the O_EXCL
 *   of a hard link), so two instances cannot overwrite each other's key,
 *   and a crash never leaves a half-written key file.
 * - Key bytes are wiped from every buffer they passed through and never
 *   appear in an error text.
 */
#include "persist.h"
#include "persist_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The key file's name. */
static int key_path(const char *path, char *kp, size_t cap)
{
	return snprintf(kp, cap, "%s%s", path, PERSIST_KEY_SUFFIX) < (int)cap ?
	               0 :
	               -1;
}

/* Regular, ours or root's, mode 0600 or stricter, the right size. */
static int key_check(int fd, const char *kp, char *err, size_t errlen)
{
	struct stat sb;

	if (fstat(fd, &sb) != 0)
		return persist_err(err, errlen, PERSIST_EIO, "%s: %s", kp,
		                   strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return persist_err(err, errlen, PERSIST_EKEY,
		                   "%s: not a "
		                   "regular file",
		                   kp);
	if (sb.st_uid != geteuid() && sb.st_uid != 0)
		return persist_err(err, errlen, PERSIST_EKEY,
		                   "%s: owned by "
		                   "uid %lu, not by uid %lu or root",
		                   kp, (unsigned long)sb.st_uid,
		                   (unsigned long)geteuid());
	if (sb.st_mode & 07777 & ~(mode_t)0600)
		return persist_err(err, errlen, PERSIST_EKEY,
		                   "%s: mode %04o; "
		                   "a key others can read proves nothing, so "
		                   "it is not used (chmod 600 %s, or remove "
		                   "it "
		                   "for a new key)",
		                   kp, (unsigned)(sb.st_mode & 07777), kp);
	if (sb.st_size != PERSIST_KEY_FILE_BYTES)
		return persist_err(err, errlen, PERSIST_EKEY,
		                   "%s: %lld bytes, "
		                   "not %d hex digits and a newline",
		                   kp, (long long)sb.st_size, PERSIST_KEY_HEX);
	return PERSIST_OK;
}

/* Read and check the open key file. */
static int key_read_fd(int fd, const char *kp, uint8_t *key, char *err,
                       size_t errlen)
{
	char buf[PERSIST_KEY_FILE_BYTES];
	size_t binlen = 0;
	const char *end = NULL;
	int rc = key_check(fd, kp, err, errlen);

	if (rc != PERSIST_OK)
		return rc;
	if (pread(fd, buf, sizeof buf, 0) != (ssize_t)sizeof buf)
		rc = persist_err(err, errlen, PERSIST_EIO, "%s: short read",
		                 kp);
	else if (buf[PERSIST_KEY_HEX] != '\n' ||
	         sodium_hex2bin(key, PERSIST_KEY_BYTES, buf, PERSIST_KEY_HEX,
	                        NULL, &binlen, &end) != 0 ||
	         binlen != PERSIST_KEY_BYTES || end != buf + PERSIST_KEY_HEX)
		rc = persist_err(err, errlen, PERSIST_EKEY,
		                 "%s: not %d hex "
		                 "digits and a newline",
		                 kp, PERSIST_KEY_HEX);
	sodium_memzero(buf, sizeof buf);
	return rc;
}

/* Open PATH.key: the descriptor, or -1 with errno set. */
static int key_open(const char *kp)
{
	return open(kp,
	            O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
}

/* Write a fresh key to a temporary; the descriptor or -1 (err set). */
static int key_write_tmp(const char *path, char *tmp, size_t cap, char *err,
                         size_t errlen)
{
	uint8_t key[PERSIST_KEY_BYTES];
	char hex[PERSIST_KEY_FILE_BYTES + 1];
	int fd = persist_tmp_open(path, tmp, cap, err, errlen);
	bool ok;

	if (fd < 0)
		return -1;
	randombytes_buf(key, sizeof key);
	sodium_bin2hex(hex, sizeof hex, key, sizeof key);
	sodium_memzero(key, sizeof key);
	hex[PERSIST_KEY_HEX] = '\n';
	ok = write(fd, hex, PERSIST_KEY_FILE_BYTES) ==
	             (ssize_t)PERSIST_KEY_FILE_BYTES &&
	     fsync(fd) == 0;
	sodium_memzero(hex, sizeof hex);
	return ok ? fd : persist_tmp_drop(fd, tmp, err, errlen);
}

/* Make PATH.key (or find that another process made it). */
static int key_create(const char *path, const char *kp, char *err,
                      size_t errlen)
{
	char tmp[PATH_MAX];
	int fd = key_write_tmp(path, tmp, sizeof tmp, err, errlen);
	int rc = PERSIST_OK;

	if (fd < 0)
		return PERSIST_EIO;
	if (link(tmp, kp) != 0 && errno != EEXIST)
		rc = persist_err(err, errlen, PERSIST_EIO, "%s: %s", kp,
		                 strerror(errno));
	unlink(tmp);
	close(fd);
	if (rc == PERSIST_OK)
		fileio_sync_dir(path);
	return rc;
}

int persist_key_get(const char *path, bool create,
                    uint8_t key[PERSIST_KEY_BYTES], char *err, size_t errlen)
{
	char kp[PATH_MAX];
	int fd, rc;

	if (path == NULL || key_path(path, kp, sizeof kp) != 0)
		return persist_err(err, errlen, PERSIST_EINVAL, "%s",
		                   "bad path");
	fd = key_open(kp);
	if (fd < 0 && errno == ENOENT && create) {
		rc = key_create(path, kp, err, errlen);
		if (rc != PERSIST_OK)
			return rc;
		fd = key_open(kp);
	}
	if (fd < 0 && errno == ENOENT)
		return persist_err(err, errlen, PERSIST_EKEY,
		                   "%s: missing, "
		                   "so the file cannot be verified",
		                   kp);
	if (fd < 0)
		return persist_err(err, errlen,
		                   errno == ELOOP ? PERSIST_EKEY : PERSIST_EIO,
		                   "%s: %s", kp,
		                   errno == ELOOP ? "a symbolic link" :
		                                    strerror(errno));
	rc = key_read_fd(fd, kp, key, err, errlen);
	close(fd);
	return rc;
}
