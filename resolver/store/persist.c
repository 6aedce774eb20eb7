/*
 * resolver/store/persist.c - save and load the cache file (see persist.h).
 */
#include "persist.h"
#include "persist_int.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sodium.h>

#include "cache.h"
#include "cachefile.h"

/** The trailer's first word. */
#define PERSIST_TAIL "; curvecache-dump-end"
/** The trailer's format version (1: a plain BLAKE2b checksum; 2: the
 *  MAC, entries without DNSSEC status and image; 3: with them). */
#define PERSIST_TAIL_VERSION 3
/** Longest trailer line, newline included. */
#define PERSIST_TAIL_MAX 200
/** Bytes of the MAC. */
#define PERSIST_MAC_BYTES crypto_generichash_BYTES
/** Bytes read at a time. */
#define PERSIST_CHUNK 65536

const char *persist_strerror(int status)
{
	switch (status) {
	case PERSIST_OK: return "ok";
	case PERSIST_ENOENT: return "no such file";
	case PERSIST_EIO: return "I/O error";
	case PERSIST_EFILE: return "unsafe or oversized file";
	case PERSIST_EFOREIGN: return "not a curvecache cache file";
	case PERSIST_ECORRUPT: return "corrupt (truncated or altered)";
	case PERSIST_EBADLINE: return "bad record line";
	case PERSIST_ENOMEM: return "out of memory";
	case PERSIST_EINVAL: return "invalid argument";
	case PERSIST_EKEY: return "MAC key file unusable";
	case PERSIST_EVERSION: return "format of another version";
	default: return "unknown status";
	}
}

int persist_err(char *err, size_t errlen, int status, const char *fmt, ...)
{
	char detail[PERSIST_ERR_BYTES];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof detail, fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", persist_strerror(status), detail);
	return status;
}

/* ------------------------------------------------------------------ */
/* Save                                                                */

/** State of one save. */
struct ps_out {
	FILE *f;
	crypto_generichash_state h; /**< keyed: the MAC so far */
	uint64_t bytes;
	bool failed;
};

/* cachefile_put_fn: to the file and the MAC. */
static int ps_put(void *arg, const char *text, size_t len)
{
	struct ps_out *o = arg;

	if (fwrite(text, 1, len, o->f) != len) {
		o->failed = true;
		return 1;
	}
	crypto_generichash_update(&o->h, (const unsigned char *)text, len);
	o->bytes += len;
	return 0;
}

/* The trailer (its text up to "mac=" is under the MAC too), then flush
 * and sync; 0 or -1 (errno set). */
static int ps_finish(struct ps_out *o, const struct cachefile_dump_stats *st)
{
	unsigned char mac[PERSIST_MAC_BYTES];
	char pre[PERSIST_TAIL_MAX], hex[2 * PERSIST_MAC_BYTES + 1];
	int n;

	n = snprintf(pre, sizeof pre,
	             "%s version=%d entries=%zu records=%zu "
	             "bytes=%" PRIu64 " mac=",
	             PERSIST_TAIL, PERSIST_TAIL_VERSION, st->entries, st->rrs,
	             o->bytes);
	if (n < 0 || (size_t)n >= sizeof pre) {
		errno = EOVERFLOW;
		return -1;
	}
	crypto_generichash_update(&o->h, (const unsigned char *)pre,
	                          (size_t)n);
	crypto_generichash_final(&o->h, mac, sizeof mac);
	sodium_bin2hex(hex, sizeof hex, mac, sizeof mac);
	if (fprintf(o->f, "%s%s\n", pre, hex) < 0 || fflush(o->f) != 0 ||
	    fsync(fileno(o->f)) != 0)
		return -1;
	return 0;
}

/* Tidy, get the key (made if missing), open the locked temporary. */
static int ps_open_out(const char *path, time_t now, struct ps_out *o,
                       char *tmp, size_t cap, char *err, size_t errlen)
{
	uint8_t key[PERSIST_KEY_BYTES];
	int fd, rc;

	(void)persist_tidy(path, now);
	rc = persist_key_get(path, true, key, err, errlen);
	if (rc != PERSIST_OK)
		return rc;
	crypto_generichash_init(&o->h, key, sizeof key, PERSIST_MAC_BYTES);
	sodium_memzero(key, sizeof key);
	fd = persist_tmp_open(path, tmp, cap, err, errlen);
	if (fd < 0)
		return PERSIST_EIO;
	o->f = fdopen(fd, "w");
	if (o->f == NULL) {
		(void)persist_tmp_drop(fd, tmp, err, errlen);
		return PERSIST_EIO;
	}
	return PERSIST_OK;
}

int persist_cache_save(struct cache *c, const char *path, time_t now,
                       struct persist_counts *out, char *err, size_t errlen)
{
	struct cachefile_dump_stats st;
	struct ps_out o;
	char tmp[PATH_MAX];
	int rc;

	if (c == NULL || path == NULL)
		return persist_err(err, errlen, PERSIST_EINVAL, "%s",
		                   "bad path");
	memset(&o, 0, sizeof o);
	rc = ps_open_out(path, now, &o, tmp, sizeof tmp, err, errlen);
	if (rc != PERSIST_OK) {
		sodium_memzero(&o.h, sizeof o.h);
		return rc;
	}
	rc = cachefile_dump(c, now, ps_put, &o, &st);
	if (rc == CACHEFILE_ENOMEM)
		rc = persist_err(err, errlen, PERSIST_ENOMEM, "%s", "dump");
	else if (rc != CACHEFILE_OK || o.failed || ps_finish(&o, &st) != 0)
		rc = persist_err(err, errlen, PERSIST_EIO, "%s: %s", tmp,
		                 strerror(errno));
	sodium_memzero(&o.h, sizeof o.h);
	if (fclose(o.f) != 0 && rc == PERSIST_OK)
		rc = persist_err(err, errlen, PERSIST_EIO, "%s: %s", tmp,
		                 strerror(errno));
	if (rc == PERSIST_OK && fileio_replace(tmp, path) != 0)
		rc = persist_err(err, errlen, PERSIST_EIO, "%s: %s", path,
		                 strerror(errno));
	if (rc != PERSIST_OK) {
		unlink(tmp);
		return rc;
	}
	if (out != NULL) {
		memset(out, 0, sizeof *out);
		out->entries = st.entries;
		out->records = st.rrs;
		out->bytes = o.bytes;
	}
	return PERSIST_OK;
}

/* ------------------------------------------------------------------ */
/* Load: checks before anything is stored                              */

/** What the trailer says. */
struct ps_tail {
	size_t entries, records;
	uint64_t bytes;
	char pre[PERSIST_TAIL_MAX]; /**< its text up to "mac=" */
	size_t prelen;
	unsigned char mac[PERSIST_MAC_BYTES];
};

/* Read exactly len bytes at off; 0 or -1. */
static int ps_pread(int fd, void *buf, size_t len, off_t off)
{
	size_t got = 0;
	ssize_t n;

	while (got < len) {
		n = pread(fd, (char *)buf + got, len - got, off + (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		got += (size_t)n;
	}
	return 0;
}

/* Regular, ours or root's, writable by no one else, not too large. */
static int ps_check_file(int fd, uint64_t max_bytes, uint64_t *size, char *err,
                         size_t errlen)
{
	struct stat sb;

	if (fstat(fd, &sb) != 0)
		return persist_err(err, errlen, PERSIST_EIO, "fstat: %s",
		                   strerror(errno));
	if (!S_ISREG(sb.st_mode))
		return persist_err(err, errlen, PERSIST_EFILE, "%s",
		                   "not a regular file");
	if (sb.st_uid != geteuid() && sb.st_uid != 0)
		return persist_err(err, errlen, PERSIST_EFILE,
		                   "owned by uid "
		                   "%lu, not by uid %lu or root",
		                   (unsigned long)sb.st_uid,
		                   (unsigned long)geteuid());
	if (sb.st_mode & (S_IWGRP | S_IWOTH))
		return persist_err(err, errlen, PERSIST_EFILE,
		                   "mode %04o: "
		                   "writable by group or others",
		                   (unsigned)(sb.st_mode & 07777));
	if ((uint64_t)sb.st_size > max_bytes)
		return persist_err(err, errlen, PERSIST_EFILE,
		                   "%" PRIu64
		                   " bytes, over the limit of %" PRIu64,
		                   (uint64_t)sb.st_size, max_bytes);
	*size = (uint64_t)sb.st_size;
	return PERSIST_OK;
}

/* The header's first words. */
static int ps_check_head(int fd, uint64_t size, char *err, size_t errlen)
{
	char head[sizeof PERSIST_HEAD - 1];

	if (size < sizeof head || ps_pread(fd, head, sizeof head, 0) != 0 ||
	    memcmp(head, PERSIST_HEAD, sizeof head) != 0)
		return persist_err(err, errlen, PERSIST_EFOREIGN, "%s",
		                   "no curvecache-dump header line");
	return PERSIST_OK;
}

/* The trailer's format must be ours (1: plain checksum, no version=). */
static int ps_tail_version(const char *line, char *err, size_t errlen)
{
	unsigned v = 1;

	if (strncmp(line, PERSIST_TAIL " ", sizeof PERSIST_TAIL) != 0)
		return persist_err(err, errlen, PERSIST_ECORRUPT, "%s",
		                   "bad trailer line");
	if (sscanf(line, PERSIST_TAIL " version=%u", &v) != 1)
		v = 1;
	if (v == 1)
		return persist_err(
			err, errlen, PERSIST_EVERSION, "%s",
			"format 1 (a plain checksum anyone can "
			"recompute), written by an older curvecache: "
			"the cache starts empty; the next save writes "
			"format 3, with a MAC");
	if (v == 2)
		return persist_err(
			err, errlen, PERSIST_EVERSION, "%s",
			"format 2, written by an older curvecache: the "
			"format changed (entries now keep their DNSSEC "
			"status and signatures), so the file is not read "
			"and the cache starts empty; the next save writes "
			"format 3");
	if (v != PERSIST_TAIL_VERSION)
		return persist_err(err, errlen, PERSIST_EVERSION,
		                   "format %u; "
		                   "this curvecache reads format %d",
		                   v, PERSIST_TAIL_VERSION);
	return PERSIST_OK;
}

/* The trailer's fields; t->pre gets its text up to "mac=". */
static int ps_tail_fields(const char *line, struct ps_tail *t, char *err,
                          size_t errlen)
{
	char hex[2 * PERSIST_MAC_BYTES + 1];
	int pre = 0, used = 0;
	unsigned v;

	if (sscanf(line,
	           PERSIST_TAIL " version=%u entries=%zu records=%zu "
	                        "bytes=%" SCNu64 " mac=%n%64[0-9a-f]%n",
	           &v, &t->entries, &t->records, &t->bytes, &pre, hex,
	           &used) != 5 ||
	    line[used] != '\0' || strlen(hex) != 2 * PERSIST_MAC_BYTES ||
	    (size_t)pre >= sizeof t->pre ||
	    sodium_hex2bin(t->mac, sizeof t->mac, hex, strlen(hex), NULL, NULL,
	                   NULL) != 0)
		return persist_err(err, errlen, PERSIST_ECORRUPT, "%s",
		                   "bad trailer line");
	memcpy(t->pre, line, (size_t)pre);
	t->prelen = (size_t)pre;
	return PERSIST_OK;
}

/* Parse the trailer: the last line of the file, ending in '\n'. */
static int ps_read_tail(int fd, uint64_t size, struct ps_tail *t, char *err,
                        size_t errlen)
{
	char buf[PERSIST_TAIL_MAX + 1];
	size_t n = size < PERSIST_TAIL_MAX ? (size_t)size : PERSIST_TAIL_MAX;
	char *line;
	uint64_t start;
	int rc;

	if (n == 0 || ps_pread(fd, buf, n, (off_t)(size - n)) != 0 ||
	    buf[n - 1] != '\n')
		return persist_err(err, errlen, PERSIST_ECORRUPT, "%s",
		                   "no trailer (file cut short?)");
	buf[n - 1] = '\0';
	line = strrchr(buf, '\n');
	line = line != NULL ? line + 1 : buf;
	if ((rc = ps_tail_version(line, err, errlen)) != PERSIST_OK ||
	    (rc = ps_tail_fields(line, t, err, errlen)) != PERSIST_OK)
		return rc;
	start = size - n + (uint64_t)(line - buf);
	if (t->bytes != start)
		return persist_err(err, errlen, PERSIST_ECORRUPT,
		                   "trailer "
		                   "says %" PRIu64
		                   " bytes before it, the file "
		                   "has %" PRIu64,
		                   t->bytes, start);
	return PERSIST_OK;
}

/** What is done with each chunk of the body. */
typedef void (*ps_chunk_fn)(void *arg, const char *buf, size_t len);

/* Read the first bytes bytes of the file in chunks, each through fn. */
static int ps_read_body(int fd, uint64_t bytes, char *buf, ps_chunk_fn fn,
                        void *arg, char *err, size_t errlen)
{
	uint64_t off = 0;
	size_t k;

	while (off < bytes) {
		k = bytes - off < PERSIST_CHUNK ? (size_t)(bytes - off) :
		                                  PERSIST_CHUNK;
		if (ps_pread(fd, buf, k, (off_t)off) != 0)
			return persist_err(err, errlen, PERSIST_EIO,
			                   "read: %s", strerror(errno));
		fn(arg, buf, k);
		off += k;
	}
	return PERSIST_OK;
}

static void ps_hash_chunk(void *arg, const char *buf, size_t len)
{
	crypto_generichash_update(arg, (const unsigned char *)buf, len);
}

/* The MAC (key PATH.key) of the first t->bytes bytes and the trailer's
 * text up to "mac=" must be the trailer's. */
static int ps_check_mac(int fd, const char *path, const struct ps_tail *t,
                        char *buf, char *err, size_t errlen)
{
	crypto_generichash_state h;
	uint8_t key[PERSIST_KEY_BYTES];
	unsigned char mac[PERSIST_MAC_BYTES];
	int rc = persist_key_get(path, false, key, err, errlen);

	if (rc != PERSIST_OK)
		return rc;
	crypto_generichash_init(&h, key, sizeof key, sizeof mac);
	sodium_memzero(key, sizeof key);
	rc = ps_read_body(fd, t->bytes, buf, ps_hash_chunk, &h, err, errlen);
	crypto_generichash_update(&h, (const unsigned char *)t->pre,
	                          t->prelen);
	crypto_generichash_final(&h, mac, sizeof mac);
	sodium_memzero(&h, sizeof h);
	if (rc == PERSIST_OK && sodium_memcmp(mac, t->mac, sizeof mac) != 0)
		rc = persist_err(err, errlen, PERSIST_ECORRUPT,
		                 "MAC does not "
		                 "match: altered, or not written with the key "
		                 "in %s%s",
		                 path, PERSIST_KEY_SUFFIX);
	return rc;
}

/* ------------------------------------------------------------------ */
/* Load: the records                                                   */

/** Line splitter state of one load. */
struct ps_in {
	struct cachefile_load *ld;
	char *line; /**< CACHEFILE_LINE_MAX + 1 bytes */
	size_t len;
	bool skipping; /**< in an over-long line */
};

/* Feed one chunk of the file, line by line (as control_cmd's loader). */
static void ps_feed(struct ps_in *in, const char *buf, size_t len)
{
	const char *nl;
	size_t n, room, k;

	while (len > 0) {
		nl = memchr(buf, '\n', len);
		n = nl != NULL ? (size_t)(nl - buf) : len;
		if (!in->skipping) {
			room = CACHEFILE_LINE_MAX + 1 - in->len;
			k = n < room ? n : room;
			memcpy(in->line + in->len, buf, k);
			in->len += k;
			if (in->len == CACHEFILE_LINE_MAX + 1) {
				(void)cachefile_load_line(in->ld, in->line,
				                          in->len);
				in->skipping = true;
			}
		}
		if (nl == NULL)
			return;
		if (!in->skipping)
			(void)cachefile_load_line(in->ld, in->line, in->len);
		in->len = 0;
		in->skipping = false;
		buf += n + 1;
		len -= n + 1;
	}
}

static void ps_feed_chunk(void *arg, const char *buf, size_t len)
{
	ps_feed(arg, buf, len);
}

/* Read the first t->bytes bytes into the loader. */
static int ps_feed_file(int fd, const struct ps_tail *t, struct ps_in *in,
                        char *buf, char *err, size_t errlen)
{
	int rc = ps_read_body(fd, t->bytes, buf, ps_feed_chunk, in, err,
	                      errlen);

	if (rc != PERSIST_OK)
		return rc;
	if (in->len > 0 && !in->skipping)
		(void)cachefile_load_line(in->ld, in->line, in->len);
	cachefile_load_finish(in->ld);
	return PERSIST_OK;
}

/* Judge a finished load of PATH; on failure the cache is emptied again
 * (a bad line is named PATH:LINE, as the configuration's errors are). */
static int ps_judge(struct cache *c, const char *path,
                    const struct cachefile_load *ld, const struct ps_tail *t,
                    struct persist_counts *out, char *err, size_t errlen)
{
	char first[PERSIST_ERR_BYTES];
	struct cachefile_load_counts n;

	cachefile_load_counts(ld, &n);
	out->entries = n.entries;
	out->records = n.rrs;
	out->expired = n.expired;
	out->kept = n.kept;
	out->bad = n.bad;
	if (n.bad > 0) {
		(void)cachefile_load_first_bad(ld, path, first, sizeof first);
		cache_flush_all(c, NULL);
		return persist_err(err, errlen, PERSIST_EBADLINE,
		                   "%s (%zu bad lines in all)", first, n.bad);
	}
	if (n.entries + n.expired + n.kept != t->entries) {
		cache_flush_all(c, NULL);
		return persist_err(err, errlen, PERSIST_ECORRUPT,
		                   "%zu entries "
		                   "read, the trailer says %zu",
		                   n.entries + n.expired + n.kept, t->entries);
	}
	return PERSIST_OK;
}

/* The checks, then the records; fd is open. */
static int ps_load_fd(struct cache *c, const char *path, int fd, time_t now,
                      uint64_t max_bytes, struct persist_counts *out,
                      char *buf, char *err, size_t errlen)
{
	struct ps_tail t;
	struct ps_in in;
	int rc;

	if ((rc = ps_check_file(fd, max_bytes, &out->bytes, err, errlen)) ||
	    (rc = ps_check_head(fd, out->bytes, err, errlen)) ||
	    (rc = ps_read_tail(fd, out->bytes, &t, err, errlen)) ||
	    (rc = ps_check_mac(fd, path, &t, buf, err, errlen)))
		return rc;
	memset(&in, 0, sizeof in);
	in.line = buf + PERSIST_CHUNK;
	if (cachefile_load_new(c, now, &in.ld) != CACHEFILE_OK)
		return persist_err(err, errlen, PERSIST_ENOMEM, "%s",
		                   "loader");
	rc = ps_feed_file(fd, &t, &in, buf, err, errlen);
	if (rc == PERSIST_OK)
		rc = ps_judge(c, path, in.ld, &t, out, err, errlen);
	else
		cache_flush_all(c, NULL);
	cachefile_load_free(in.ld);
	return rc;
}

int persist_cache_load(struct cache *c, const char *path, time_t now,
                       uint64_t max_bytes, struct persist_counts *out,
                       char *err, size_t errlen)
{
	struct persist_counts dummy;
	char *buf;
	int fd, rc;

	if (out == NULL)
		out = &dummy;
	memset(out, 0, sizeof *out);
	if (c == NULL || path == NULL)
		return persist_err(err, errlen, PERSIST_EINVAL, "%s",
		                   "no cache");
	(void)persist_tidy(path, now);
	fd = open(path,
	          O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY);
	if (fd < 0 && errno == ENOENT)
		return persist_err(err, errlen, PERSIST_ENOENT, "%s", path);
	if (fd < 0)
		return persist_err(err, errlen,
		                   errno == ELOOP ? PERSIST_EFILE :
		                                    PERSIST_EIO,
		                   "%s", strerror(errno));
	buf = malloc(PERSIST_CHUNK + CACHEFILE_LINE_MAX + 1);
	if (buf == NULL)
		rc = persist_err(err, errlen, PERSIST_ENOMEM, "%s", "buffer");
	else
		rc = ps_load_fd(c, path, fd, now, max_bytes, out, buf, err,
		                errlen);
	free(buf);
	close(fd);
	return rc;
}
