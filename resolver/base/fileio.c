/*
 * resolver/base/fileio.c - files read and written whole (see fileio.h).
 */
#include "fileio.h"

#include "base.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The first allocation when fstat gives no size (a pipe). */
#define FILEIO_FIRST_CHUNK 4096

static int fail(int code, char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(int code, char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL && whylen > 0) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return code;
}

/* Make room for at least one more byte plus the NUL in *buf (capacity
 * *cap, never past max + 2): 0, or -1 out of memory. */
static int grow(char **buf, size_t *cap, size_t got, size_t max)
{
	size_t want;
	char *p;

	if (got + 1 < *cap)
		return 0;
	want = *cap < (max + 2) / 2 ? *cap * 2 : max + 2;
	p = realloc(*buf, want);
	if (p == NULL)
		return -1;
	*buf = p;
	*cap = want;
	return 0;
}

/* The first capacity: the size fstat reports (plus the NUL and one byte
 * to notice growth), within [FILEIO_FIRST_CHUNK, max + 2]. */
static size_t first_cap(const struct stat *st, size_t max)
{
	size_t cap = FILEIO_FIRST_CHUNK;

	if (st->st_size > 0 && (unsigned long long)st->st_size < max)
		cap = (size_t)st->st_size + 2;
	if (cap < FILEIO_FIRST_CHUNK)
		cap = FILEIO_FIRST_CHUNK;
	return cap > max + 2 ? max + 2 : cap;
}

int fileio_read_fd(int fd, size_t max, bool regular_only, char **buf,
                   size_t *len, char *why, size_t whylen)
{
	struct stat st;
	size_t got = 0, cap;
	ssize_t n = 0;

	DEBUG_ASSERT(max < (size_t)-2);
	*buf = NULL;
	*len = 0;
	if (fstat(fd, &st) != 0)
		return fail(FILEIO_EOPEN, why, whylen, "cannot stat: %s",
		            strerror(errno));
	if (regular_only && !S_ISREG(st.st_mode))
		return fail(FILEIO_ENOTREG, why, whylen, "not a regular file");
	if (S_ISREG(st.st_mode) && (unsigned long long)st.st_size > max)
		return fail(FILEIO_ETOOBIG, why, whylen,
		            "larger than %zu bytes", max);
	cap = first_cap(&st, max);
	*buf = malloc(cap);
	while (*buf != NULL && got <= max) {
		if (grow(buf, &cap, got, max) != 0)
			break;
		n = read(fd, *buf + got, cap - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += (size_t)n;
	}
	if (*buf == NULL || (got <= max && n > 0)) {
		free(*buf);
		*buf = NULL;
		return fail(FILEIO_ENOMEM, why, whylen, "out of memory");
	}
	if (n < 0 || got > max) {
		int code = n < 0 ? FILEIO_EREAD : FILEIO_ETOOBIG;

		if (n < 0)
			fail(code, why, whylen, "read error: %s",
			     strerror(errno));
		else
			fail(code, why, whylen, "larger than %zu bytes", max);
		free(*buf);
		*buf = NULL;
		return code;
	}
	REQUIRE(got < cap);
	(*buf)[got] = '\0';
	*len = got;
	return FILEIO_OK;
}

int fileio_read_path(const char *path, size_t max, bool regular_only,
                     char **buf, size_t *len, char *why, size_t whylen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	int rc;

	*buf = NULL;
	*len = 0;
	if (fd < 0)
		return fail(FILEIO_EOPEN, why, whylen, "%s", strerror(errno));
	rc = fileio_read_fd(fd, max, regular_only, buf, len, why, whylen);
	close(fd);
	return rc;
}

int fileio_dir_of(const char *path, char *dir, size_t cap)
{
	const char *slash = strrchr(path, '/');
	size_t n;

	if (slash == NULL)
		return -1;
	n = slash == path ? 1 : (size_t)(slash - path);
	if (n >= cap)
		return -1;
	memcpy(dir, path, n);
	dir[n] = '\0';
	return 0;
}

void fileio_sync_dir(const char *path)
{
	char dir[PATH_MAX];
	int fd;

	if (fileio_dir_of(path, dir, sizeof dir) != 0)
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		(void)fsync(fd);
		close(fd);
	}
}

int fileio_replace(const char *tmp, const char *path)
{
	if (rename(tmp, path) != 0)
		return -1;
	fileio_sync_dir(path);
	return 0;
}
