/*
 * resolver/store/persist_int.h - inside the cache file code (persist.c): the
 * MAC key file (persist_key.c) and our temporary files (persist_tidy.c).
 *
 * Names in the directory of cache-file PATH:
 *   PATH          the cache file (persist.h)
 *   PATH.key      its MAC key: 64 hex digits and a newline, mode 0600
 *   PATH.XXXXXX   a temporary (six letters or digits, mkstemp): a save in
 *                 progress, a key being created, or one left by a killed
 *                 save (removed when stale: persist_tidy)
 */
#ifndef CURVECACHE_RESOLVER_PERSIST_INT_H
#define CURVECACHE_RESOLVER_PERSIST_INT_H

#include "base/base.h"
#include "base/fileio.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>
#include <sodium.h>

/** What the file must start with (the cachefile header's first words). */
#define PERSIST_HEAD "; curvecache-dump version="
/** Bytes of the MAC key (keyed BLAKE2b, crypto_generichash). */
#define PERSIST_KEY_BYTES crypto_generichash_KEYBYTES
/** Hex digits of the key in the key file. */
#define PERSIST_KEY_HEX (2 * PERSIST_KEY_BYTES)
/** Bytes of a key file: the hex digits and a newline. */
#define PERSIST_KEY_FILE_BYTES (PERSIST_KEY_HEX + 1)
/** The key file's name: the cache file's and this. */
#define PERSIST_KEY_SUFFIX ".key"
/** The temporaries' names: the cache file's and this (mkstemp). */
#define PERSIST_TMP_SUFFIX ".XXXXXX"
/** A temporary this many seconds old (mtime) may be stale. */
#define PERSIST_STALE_S 60

/**
 * Set err to "REASON: detail" (REASON = persist_strerror(status)).
 * @return status.
 */
int persist_err(char *err, size_t errlen, int status, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/**
 * Create a temporary PATH.XXXXXX (mode 0600) and hold an exclusive
 * flock on it until it is closed: persist_tidy never removes it.
 * @param path: the cache file.
 * @param tmp, cap: receive the temporary's name.
 * @param err, errlen: the reason on failure.
 * @return the open descriptor, or -1 (err set).
 */
int persist_tmp_open(const char *path, char *tmp, size_t cap, char *err,
                     size_t errlen);

/**
 * Give up a temporary: err gets "TMP: errno's text", then fd is closed
 * and tmp unlinked.
 * @return -1.
 */
int persist_tmp_drop(int fd, const char *tmp, char *err, size_t errlen);

/**
 * Get the MAC key from PATH.key. The file must be a regular file (not a
 * symbolic link) owned by us or root, of mode 0600 or stricter, exactly
 * PERSIST_KEY_FILE_BYTES long and hex; anything else is refused (a key
 * that others can read cannot vouch for anything).
 * @param path: the cache file.
 * @param create: a missing key file is created (a fresh random key,
 *   written to a temporary and linked into place, so the file appears
 *   whole or not at all; if another process made one first, that one is
 *   read).
 * @param key: receives the key; the caller wipes it (sodium_memzero).
 * @param err, errlen: on failure, the key file's name and what is wrong.
 * @return PERSIST_OK, PERSIST_EKEY (missing, unsafe or malformed),
 *   PERSIST_EIO or PERSIST_EINVAL.
 */
int persist_key_get(const char *path, bool create,
                    uint8_t key[PERSIST_KEY_BYTES], char *err, size_t errlen)
	MUST_CHECK;

/**
 * Remove the stale temporaries of the cache file path from its directory
 * and log each (event=cache_tmp_removed). A file is removed only if all
 * hold: its name is PATH.XXXXXX (six letters or digits); it is a regular
 * file, not a symbolic link, owned by our user, with no mode bit outside
 * 0600; its contents are what our temporaries hold (nothing yet, the
 * start of a dump, or hex digits of a key); it was last written at least
 * PERSIST_STALE_S seconds before now; and no process holds a flock on it
 * (a save in progress does).
 * @param path: the cache file.
 * @param now: wall-clock seconds.
 * @return the number of files removed.
 */
size_t persist_tidy(const char *path, time_t now);

#endif /* CURVECACHE_RESOLVER_PERSIST_INT_H */
