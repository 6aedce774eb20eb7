/*
 * curve/nonce.c - client nonces: an 8-byte big-endian counter that only
 * goes up, then 4 random bytes (curve/README, "Nonces").
 *
 * Design notes:
 * - The counter is guarded by the client's nonce lock, so threads never
 *   draw the same value.
 * - For a key loaded from a file the high-water mark lives in PATH.nonce
 *   (one line, decimal): every counter value below the mark may have been
 *   used. Before the counter reaches the mark, a new mark one block
 *   (CURVE_NONCE_BLOCK) higher is written (temporary file, fsync, rename)
 *   and only then is the block used. A restart starts at the mark, so it
 *   never reuses a value, at the cost of skipping the rest of a block.
 * - The counter value UINT64_MAX is never handed out: the counter is
 *   exhausted there (unreachable in practice; set_counter can force it).
 */
#include "config.h"
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "internal.h"

/** Suffix of the mark file after the key file's path. */
#define NONCE_SUFFIX ".nonce"
/** Largest mark file: 20 decimal digits and a newline. */
#define NONCE_FILE_MAX 21

/** Write the mark `mark` to c->nonce_path. Caller holds nonce_lock. */
static int nonce_mark_write(const struct curve_client *c, uint64_t mark)
{
	char line[NONCE_FILE_MAX + 1];
	char digits[NONCE_FILE_MAX];
	size_t n = 0, i;

	do {
		digits[n++] = (char)('0' + mark % 10);
		mark /= 10;
	} while (mark > 0);
	for (i = 0; i < n; i++)
		line[i] = digits[n - 1 - i];
	line[n++] = '\n';
	return curve_file_replace(c->nonce_path, line, n);
}

/** What a mark file must hold, for the error texts. */
#define NONCE_EXPECTED \
	"expected the nonce counter's mark (decimal digits and a newline)"

/** Parse a mark file's contents (digits, optional newline). */
static int nonce_mark_parse(const char *path, const char *buf, size_t n,
                            uint64_t *mark, char *why, size_t whylen)
{
	uint64_t v = 0;
	size_t i;

	if (n > 0 && buf[n - 1] == '\n')
		n--;
	if (n == 0)
		return curve_why(why, whylen, CURVE_EKEYFILE, path, "%s; %s",
		                 "empty", NONCE_EXPECTED);
	for (i = 0; i < n; i++) {
		if (buf[i] < '0' || buf[i] > '9')
			return curve_why(why, whylen, CURVE_EKEYFILE, path,
			                 "byte %zu is not a digit; %s", i + 1,
			                 NONCE_EXPECTED);
		if (v > (UINT64_MAX - (uint64_t)(buf[i] - '0')) / 10)
			return curve_why(why, whylen, CURVE_EKEYFILE, path,
			                 "%s", "number over 2^64 - 1");
		v = v * 10 + (uint64_t)(buf[i] - '0');
	}
	*mark = v;
	return CURVE_OK;
}

/** Read the mark from path; 1 when the file does not exist. */
static int nonce_mark_read(const char *path, uint64_t *mark, char *why,
                           size_t whylen)
{
	char buf[NONCE_FILE_MAX + 1];
	size_t n = 0;
	ssize_t r;
	int fd, saved;

	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT) {
		*mark = 1;
		return CURVE_OK;
	}
	if (fd < 0)
		return curve_why(why, whylen, CURVE_EIO, path, "%s",
		                 strerror(errno));
	while (n < sizeof buf) {
		r = read(fd, buf + n, sizeof buf - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			saved = errno;
			close(fd);
			errno = saved;
			return curve_why(why, whylen, CURVE_EIO, path, "%s",
			                 strerror(errno));
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (n > NONCE_FILE_MAX)
		return curve_why(why, whylen, CURVE_EKEYFILE, path,
		                 "over %d "
		                 "bytes; %s",
		                 NONCE_FILE_MAX, NONCE_EXPECTED);
	return nonce_mark_parse(path, buf, n, mark, why, whylen);
}

/** Reserve the block starting at c->counter. Caller holds nonce_lock. */
static int nonce_reserve(struct curve_client *c)
{
	uint64_t mark;
	int st;

	if (c->counter > UINT64_MAX - CURVE_NONCE_BLOCK)
		mark = UINT64_MAX;
	else
		mark = c->counter + CURVE_NONCE_BLOCK;
	st = nonce_mark_write(c, mark);
	if (st == CURVE_OK)
		c->reserved = mark;
	return st;
}

int curve_nonce_file_attach(struct curve_client *c, const char *keypath,
                            char *why, size_t whylen)
{
	size_t klen = strlen(keypath);
	uint64_t mark = 1;
	int st;

	c->nonce_path = malloc(klen + sizeof NONCE_SUFFIX);
	if (c->nonce_path == NULL)
		return CURVE_ENOMEM;
	memcpy(c->nonce_path, keypath, klen);
	memcpy(c->nonce_path + klen, NONCE_SUFFIX, sizeof NONCE_SUFFIX);
	st = nonce_mark_read(c->nonce_path, &mark, why, whylen);
	if (st != CURVE_OK)
		return st;
	if (mark == 0)
		mark = 1;
	pthread_mutex_lock(&c->nonce_lock);
	c->counter = mark;
	c->reserved = mark;
	st = nonce_reserve(c);
	pthread_mutex_unlock(&c->nonce_lock);
	if (st != CURVE_OK)
		curve_why(why, whylen, st, c->nonce_path,
		          "cannot write the "
		          "mark: %s",
		          strerror(errno));
	return st;
}

int curve_nonce_next(struct curve_client *c, uint8_t nonce[CURVE_NONCE_BYTES])
{
	uint64_t v;
	size_t i;
	int st = CURVE_OK;

	if (c == NULL || nonce == NULL)
		return CURVE_EINVAL;
	pthread_mutex_lock(&c->nonce_lock);
	if (c->counter == UINT64_MAX)
		st = CURVE_EINVAL;
	else if (c->nonce_path != NULL && c->counter >= c->reserved)
		st = nonce_reserve(c);
	if (st == CURVE_OK && c->counter >= c->reserved)
		st = CURVE_EIO; /* mark saturated below the counter */
	v = c->counter;
	if (st == CURVE_OK)
		c->counter++;
	pthread_mutex_unlock(&c->nonce_lock);
	if (st != CURVE_OK)
		return st;
	for (i = 0; i < CURVE_COUNTER_BYTES; i++)
		nonce[i] = (uint8_t)(v >> (8 * (CURVE_COUNTER_BYTES - 1 - i)));
	curve_random(nonce + CURVE_COUNTER_BYTES, CURVE_NONCE_RANDOM_BYTES);
	return CURVE_OK;
}
