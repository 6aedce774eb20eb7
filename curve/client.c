/*
 * curve/client.c - the client: keypair, key files, rotation, counters,
 * status strings.
 *
 * Design notes:
 * - The secret key lives in its own sodium_malloc block (guard pages,
 *   wiped by sodium_free); struct curve_client itself is ordinary heap,
 *   wiped on free.
 * - A key file is one line of 64 hex digits. It is opened once and
 *   checked with fstat on that descriptor (no check-then-open race): a
 *   regular file whose mode has no bit outside 0600.
 * - Files are replaced atomically: temporary file in the same directory,
 *   fsync, rename, fsync of the directory.
 * - Rotation swaps the keypair under the table lock and empties the
 *   table. The nonce counter is not reset: it keeps going up, so a nonce
 *   drawn just before a rotation can never repeat under the new key.
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "internal.h"

/** Hex digits of a secret key in a key file. */
#define KEYFILE_HEX (2 * CURVE_SECRET_BYTES)
/** Largest key file we read: the hex digits and a newline. */
#define KEYFILE_MAX (KEYFILE_HEX + 1)
/** Mode bits a key file may have. */
#define KEYFILE_MODE 0600

const char *curve_strerror(int status)
{
	switch (status) {
	case CURVE_OK: return "success";
	case CURVE_ESHORT: return "packet too short";
	case CURVE_EMAGIC: return "bad DNSCurve magic";
	case CURVE_ENONCE: return "client nonce not echoed";
	case CURVE_EAUTH: return "box did not open";
	case CURVE_EBASE32: return "invalid DNSCurve base32";
	case CURVE_ESPACE: return "output buffer too small";
	case CURVE_EFORMAT: return "malformed outer packet";
	case CURVE_EID: return "outer DNS ID does not match";
	case CURVE_EQUESTION: return "question does not match the query";
	case CURVE_ENOKEY: return "no uz5 key label";
	case CURVE_ENAME: return "malformed domain name";
	case CURVE_ENOMEM: return "out of memory";
	case CURVE_EIO: return "key file I/O error";
	case CURVE_EKEYFILE:
		return "key or nonce file malformed, or mode not "
		       "0600";
	case CURVE_EINVAL: return "invalid argument";
	case CURVE_ECRYPTO: return "cryptographic failure";
	default: return "unknown curve status";
	}
}

/** Allocate a client with an empty table and no keypair yet. */
static int client_alloc(struct curve_client **out, size_t slots)
{
	struct curve_client *c;
	int st;

	if (out == NULL)
		return CURVE_EINVAL;
	*out = NULL;
	if (sodium_init() < 0)
		return CURVE_ECRYPTO;
	c = calloc(1, sizeof *c);
	if (c == NULL)
		return CURVE_ENOMEM;
	c->sk = sodium_malloc(CURVE_SECRET_BYTES);
	if (c->sk == NULL) {
		free(c);
		return CURVE_ENOMEM;
	}
	st = curve_shared_init(&c->shared, slots);
	if (st == CURVE_OK && pthread_mutex_init(&c->nonce_lock, NULL) != 0) {
		curve_shared_destroy(&c->shared);
		st = CURVE_ENOMEM;
	}
	if (st != CURVE_OK) {
		sodium_free(c->sk);
		free(c);
		return st;
	}
	c->counter = 1;
	c->reserved = UINT64_MAX;
	*out = c;
	return CURVE_OK;
}

int curve_client_new(struct curve_client **out, size_t slots)
{
	int st = client_alloc(out, slots);

	if (st != CURVE_OK)
		return st;
	if (crypto_box_keypair((*out)->pk, (*out)->sk) != 0) {
		curve_client_free(*out);
		*out = NULL;
		return CURVE_ECRYPTO;
	}
	return CURVE_OK;
}

int curve_client_from_secret(struct curve_client **out, size_t slots,
                             const uint8_t sk[CURVE_SECRET_BYTES])
{
	int st;

	if (sk == NULL)
		return CURVE_EINVAL;
	st = client_alloc(out, slots);
	if (st != CURVE_OK)
		return st;
	memcpy((*out)->sk, sk, CURVE_SECRET_BYTES);
	if (crypto_scalarmult_base((*out)->pk, (*out)->sk) != 0) {
		curve_client_free(*out);
		*out = NULL;
		return CURVE_ECRYPTO;
	}
	return CURVE_OK;
}

/** Read up to cap bytes from fd; *n gets the count. */
static int read_all(int fd, char *buf, size_t cap, size_t *n)
{
	ssize_t r;

	*n = 0;
	while (*n < cap) {
		r = read(fd, buf + *n, cap - *n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return CURVE_EIO;
		if (r == 0)
			break;
		*n += (size_t)r;
	}
	return CURVE_OK;
}

int curve_why(char *why, size_t whylen, int status, const char *file,
              const char *fmt, ...)
{
	int saved = errno, n;
	va_list ap;

	if (why != NULL && whylen > 0) {
		n = snprintf(why, whylen, "%s: ", file);
		if (n >= 0 && (size_t)n < whylen) {
			va_start(ap, fmt);
			vsnprintf(why + n, whylen - (size_t)n, fmt, ap);
			va_end(ap);
		}
	}
	errno = saved;
	return status;
}

/** Check the open key file's type and mode. */
static int keyfile_check(int fd, const char *path, char *why, size_t whylen)
{
	struct stat sb;

	if (fstat(fd, &sb) != 0)
		return curve_why(why, whylen, CURVE_EIO, path, "%s",
		                 strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return curve_why(why, whylen, CURVE_EKEYFILE, path,
		                 "not a regular file");
	if (sb.st_mode & 07777 & ~KEYFILE_MODE)
		return curve_why(why, whylen, CURVE_EKEYFILE, path,
		                 "mode "
		                 "%04o; a secret key file must be mode 0600 "
		                 "or "
		                 "stricter",
		                 (unsigned)(sb.st_mode & 07777));
	return CURVE_OK;
}

/** Read and check a key file into sk. */
static int keyfile_read(const char *path, uint8_t sk[CURVE_SECRET_BYTES],
                        char *why, size_t whylen)
{
	char buf[KEYFILE_MAX + 1];
	size_t n = 0, binlen = 0;
	const char *end = NULL;
	int fd, st, saved;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return curve_why(why, whylen, CURVE_EIO, path, "%s",
		                 strerror(errno));
	st = keyfile_check(fd, path, why, whylen);
	if (st == CURVE_OK && read_all(fd, buf, sizeof buf, &n) != CURVE_OK)
		st = curve_why(why, whylen, CURVE_EIO, path, "%s",
		               strerror(errno));
	if (st != CURVE_OK)
		goto done;
	st = curve_why(why, whylen, CURVE_EKEYFILE, path,
	               "%zu%s bytes; "
	               "expected %d hex digits and a newline",
	               n, n > KEYFILE_MAX ? " or more" : "", KEYFILE_HEX);
	if (n != KEYFILE_HEX &&
	    !(n == KEYFILE_MAX && buf[KEYFILE_HEX] == '\n'))
		goto done;
	st = curve_why(why, whylen, CURVE_EKEYFILE, path,
	               "not %d hex "
	               "digits",
	               KEYFILE_HEX);
	if (sodium_hex2bin(sk, CURVE_SECRET_BYTES, buf, KEYFILE_HEX, NULL,
	                   &binlen, &end) == 0 &&
	    binlen == CURVE_SECRET_BYTES && end == buf + KEYFILE_HEX)
		st = CURVE_OK;
done:
	saved = errno;
	sodium_memzero(buf, sizeof buf);
	close(fd);
	errno = saved;
	return st;
}

int curve_client_load(struct curve_client **out, size_t slots,
                      const char *path)
{
	return curve_client_load_why(out, slots, path, NULL, 0);
}

int curve_client_load_why(struct curve_client **out, size_t slots,
                          const char *path, char *why, size_t whylen)
{
	uint8_t sk[CURVE_SECRET_BYTES];
	int st;

	if (out == NULL || path == NULL)
		return CURVE_EINVAL;
	*out = NULL;
	if (why != NULL && whylen > 0)
		why[0] = '\0';
	if (sodium_init() < 0)
		return CURVE_ECRYPTO;
	st = keyfile_read(path, sk, why, whylen);
	if (st == CURVE_OK)
		st = curve_client_from_secret(out, slots, sk);
	sodium_memzero(sk, sizeof sk);
	if (st != CURVE_OK)
		return st;
	st = curve_nonce_file_attach(*out, path, why, whylen);
	if (st != CURVE_OK) {
		int saved = errno;

		curve_client_free(*out);
		*out = NULL;
		errno = saved;
	}
	return st;
}

/** fsync the directory that holds path. */
static int fsync_parent(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int fd, rc;

	if (slash == NULL)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (dir == NULL)
		return CURVE_ENOMEM;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd < 0)
		return CURVE_EIO;
	rc = fsync(fd);
	close(fd);
	return rc == 0 ? CURVE_OK : CURVE_EIO;
}

/** Write all of data to fd. */
static int write_all(int fd, const char *data, size_t len)
{
	ssize_t w;

	while (len > 0) {
		w = write(fd, data, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return CURVE_EIO;
		data += w;
		len -= (size_t)w;
	}
	return CURVE_OK;
}

int curve_file_replace(const char *path, const char *data, size_t len)
{
	size_t plen = strlen(path);
	char *tmp = malloc(plen + sizeof ".XXXXXX");
	int fd, st = CURVE_EIO, saved;

	if (tmp == NULL)
		return CURVE_ENOMEM;
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".XXXXXX", sizeof ".XXXXXX");
	fd = mkstemp(tmp);
	if (fd < 0) {
		free(tmp);
		return CURVE_EIO;
	}
	if (fchmod(fd, KEYFILE_MODE) == 0 &&
	    write_all(fd, data, len) == CURVE_OK && fsync(fd) == 0)
		st = CURVE_OK;
	saved = errno;
	if (close(fd) != 0 && st == CURVE_OK) {
		st = CURVE_EIO;
		saved = errno;
	}
	if (st == CURVE_OK && rename(tmp, path) != 0) {
		st = CURVE_EIO;
		saved = errno;
	}
	if (st != CURVE_OK)
		unlink(tmp);
	free(tmp);
	if (st == CURVE_OK)
		st = fsync_parent(path);
	else
		errno = saved;
	return st;
}

int curve_keyfile_generate(const char *path)
{
	uint8_t sk[CURVE_SECRET_BYTES];
	char hex[KEYFILE_HEX + 1];
	int st;

	if (path == NULL)
		return CURVE_EINVAL;
	if (sodium_init() < 0)
		return CURVE_ECRYPTO;
	randombytes_buf(sk, sizeof sk);
	sodium_bin2hex(hex, sizeof hex, sk, sizeof sk);
	sodium_memzero(sk, sizeof sk);
	hex[KEYFILE_HEX] = '\n';
	st = curve_file_replace(path, hex, sizeof hex);
	sodium_memzero(hex, sizeof hex);
	return st;
}

int curve_client_rotate(struct curve_client *c)
{
	uint8_t pk[CURVE_KEY_BYTES], sk[CURVE_SECRET_BYTES];
	char *old;

	if (c == NULL)
		return CURVE_EINVAL;
	if (crypto_box_keypair(pk, sk) != 0) {
		sodium_memzero(sk, sizeof sk);
		return CURVE_ECRYPTO;
	}
	pthread_mutex_lock(&c->shared.lock);
	memcpy(c->pk, pk, sizeof pk);
	memcpy(c->sk, sk, CURVE_SECRET_BYTES);
	curve_shared_clear_locked(&c->shared);
	c->rotations++;
	pthread_mutex_unlock(&c->shared.lock);
	sodium_memzero(sk, sizeof sk);

	pthread_mutex_lock(&c->nonce_lock);
	old = c->nonce_path;
	c->nonce_path = NULL; /* the new key is not in the file */
	c->reserved = UINT64_MAX;
	pthread_mutex_unlock(&c->nonce_lock);
	free(old);
	return CURVE_OK;
}

void curve_client_free(struct curve_client *c)
{
	if (c == NULL)
		return;
	curve_shared_destroy(&c->shared);
	pthread_mutex_destroy(&c->nonce_lock);
	free(c->nonce_path);
	sodium_memzero(c->sk, CURVE_SECRET_BYTES);
	sodium_free(c->sk);
	sodium_memzero(c, sizeof *c);
	free(c);
}

void curve_client_pk(const struct curve_client *c, uint8_t pk[CURVE_KEY_BYTES])
{
	/* The lock is logically mutable: reading the key changes nothing. */
	struct curve_client *m = (struct curve_client *)(uintptr_t)c;

	pthread_mutex_lock(&m->shared.lock);
	memcpy(pk, c->pk, CURVE_KEY_BYTES);
	pthread_mutex_unlock(&m->shared.lock);
}

void curve_client_stats(struct curve_client *c, struct curve_stats *st)
{
	pthread_mutex_lock(&c->shared.lock);
	st->shared_hits = c->shared.hits;
	st->shared_misses = c->shared.misses;
	st->shared_evictions = c->shared.evictions;
	st->shared_entries = c->shared.used;
	st->rotations = c->rotations;
	pthread_mutex_unlock(&c->shared.lock);
}

void curve_client_set_counter(struct curve_client *c, uint64_t next)
{
	pthread_mutex_lock(&c->nonce_lock);
	c->counter = next;
	pthread_mutex_unlock(&c->nonce_lock);
}
