/*
 * resolver/store/persist_tidy.c - the cache file's temporaries: made locked,
 * removed when stale (see persist_int.h).
 *
 * Design notes:
 * - Why a lock and an age: a save holds an exclusive flock on its
 *   temporary from just after mkstemp until it is closed, so a running
 *   save (even one stopped or stalled for minutes) is never removed under
 *   it; a SIGKILL drops the lock with the process. The age (mtime at
 *   least PERSIST_STALE_S old) covers the instant between mkstemp and
 *   flock, a save that has closed its file but not yet renamed it, and
 *   writers that take no lock (an older curvecache): a live save writes
 *   all the time, so its mtime stays fresh.
 * - Why the contents: the name pattern alone could match a file of the
 *   administrator's (cache.backup owned by the daemon's user); our
 *   temporaries hold nothing yet, the start of a dump, or a key's hex.
 * - The file removed is the one checked: it is opened (O_NOFOLLOW),
 *   checked through that descriptor, and unlinked only while its name
 *   still leads to the same inode.
 */
#include "persist.h"
#include "persist_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/log.h"

int persist_tmp_open(const char *path, char *tmp, size_t cap, char *err,
                     size_t errlen)
{
	int fd;

	if (snprintf(tmp, cap, "%s%s", path, PERSIST_TMP_SUFFIX) >= (int)cap) {
		persist_err(err, errlen, PERSIST_EINVAL, "%s",
		            "path too long");
		return -1;
	}
	fd = mkstemp(tmp);
	if (fd < 0) {
		persist_err(err, errlen, PERSIST_EIO, "%s: %s", tmp,
		            strerror(errno));
		return -1;
	}
	if (fchmod(fd, 0600) != 0 || flock(fd, LOCK_EX) != 0)
		return persist_tmp_drop(fd, tmp, err, errlen);
	return fd;
}

int persist_tmp_drop(int fd, const char *tmp, char *err, size_t errlen)
{
	persist_err(err, errlen, PERSIST_EIO, "%s: %s", tmp, strerror(errno));
	close(fd);
	unlink(tmp);
	return -1;
}

/* Is name "BASE" + ".XXXXXX" with six letters or digits? */
static bool tidy_name(const char *name, const char *base, size_t blen)
{
	size_t i, n = sizeof PERSIST_TMP_SUFFIX - 2;

	if (strncmp(name, base, blen) != 0 || name[blen] != '.' ||
	    strlen(name + blen + 1) != n)
		return false;
	for (i = blen + 1; i < blen + 1 + n; i++)
		if (!((name[i] >= 'a' && name[i] <= 'z') ||
		      (name[i] >= 'A' && name[i] <= 'Z') ||
		      (name[i] >= '0' && name[i] <= '9')))
			return false;
	return true;
}

/* Only hex digits, and a newline after exactly PERSIST_KEY_HEX of them. */
static bool tidy_is_key(const char *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i == PERSIST_KEY_HEX && buf[i] == '\n' && i + 1 == n)
			return true;
		if (i >= PERSIST_KEY_HEX ||
		    !((buf[i] >= '0' && buf[i] <= '9') ||
		      (buf[i] >= 'a' && buf[i] <= 'f')))
			return false;
	}
	return true;
}

/* Does the file hold what our temporaries hold? */
static bool tidy_content(int fd, off_t size)
{
	char buf[PERSIST_KEY_FILE_BYTES + 1];
	size_t head = sizeof PERSIST_HEAD - 1, n;
	ssize_t r;

	r = pread(fd, buf, sizeof buf, 0);
	if (r < 0)
		return false;
	n = (size_t)r;
	if (n == 0)
		return size == 0;
	if (memcmp(buf, PERSIST_HEAD, n < head ? n : head) == 0)
		return true;
	return size == (off_t)n && tidy_is_key(buf, n);
}

/* The checks of persist_tidy on an open candidate. */
static bool tidy_stale(int fd, const struct stat *sb, time_t now)
{
	return S_ISREG(sb->st_mode) && sb->st_uid == geteuid() &&
	       (sb->st_mode & 07777 & ~(mode_t)0600) == 0 &&
	       sb->st_mtime <= now - PERSIST_STALE_S &&
	       flock(fd, LOCK_EX | LOCK_NB) == 0 &&
	       tidy_content(fd, sb->st_size);
}

/* Remove dir/name if it is a stale temporary of ours; 1 if removed. */
static size_t tidy_one(int dfd, const char *dir, const char *name, time_t now)
{
	struct stat sb, again;
	size_t removed = 0;
	int fd;

	fd = openat(dfd, name,
	            O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	if (fstat(fd, &sb) == 0 && tidy_stale(fd, &sb, now) &&
	    fstatat(dfd, name, &again, AT_SYMLINK_NOFOLLOW) == 0 &&
	    again.st_dev == sb.st_dev && again.st_ino == sb.st_ino &&
	    unlinkat(dfd, name, 0) == 0) {
		log_info("cache_tmp_removed", "file=%s/%s age=%llds", dir,
		         name, (long long)(now - sb.st_mtime));
		removed = 1;
	}
	close(fd);
	return removed;
}

size_t persist_tidy(const char *path, time_t now)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX];
	struct dirent *de;
	size_t blen, removed = 0;
	DIR *d;

	if (fileio_dir_of(path, dir, sizeof dir) != 0)
		return 0;
	blen = strlen(slash + 1);
	d = opendir(dir);
	if (d == NULL)
		return 0;
	while ((de = readdir(d)) != NULL)
		if (tidy_name(de->d_name, slash + 1, blen))
			removed += tidy_one(dirfd(d), dir, de->d_name, now);
	closedir(d);
	return removed;
}
