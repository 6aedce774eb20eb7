/*
 * resolver/store/persist.h - the cache file (cache-file): the answer cache
 * saved when the daemon stops and loaded when it starts.
 *
 * The file is the text of curvecache-control dump_cache (cachefile.h:
 * header with the dump time, one RR per line with the TTL left, rank and
 * provenance) followed by one trailer line:
 *
 *   ; curvecache-dump-end version=3 entries=E records=R bytes=B mac=HEX
 *
 * where B is the length of everything before the trailer, E and R what
 * the dump wrote, and HEX the keyed BLAKE2b-256 (libsodium
 * crypto_generichash with a 32-byte key) of everything before the trailer
 * followed by the trailer's text up to "mac=". The key is in PATH.key
 * beside the file (64 hex digits, mode 0600), made at the first save.
 * The trailer of version 1 (no version=, "blake2b=" a plain checksum)
 * is refused as another format, and so is version 2 (the same trailer,
 * written before entries kept their DNSSEC status and image: sec= and
 * the "; dnssec" lines of cachefile.h): such a file is skipped with a
 * message that says the format changed, and the cache starts empty.
 *
 * Design notes:
 * - Never trusted blindly. Before a byte reaches the cache the file must
 *   be a regular file (the last path component not a symbolic link),
 *   owned by the daemon's user or root, writable by nobody else, at most
 *   max_bytes long, start with the dump header and end with a trailer of
 *   version 3 whose length and MAC match (a truncated or altered file
 *   fails here). Then every line goes through the cachefile loader, which
 *   checks each RR against its type and drops entries whose TTL ran out
 *   since the dump. A bad line, or an entry count that differs from the
 *   trailer's, empties the cache again: the file is skipped as a whole.
 * - Why a MAC: the file says which records were learned over DNSCurve
 *   (src=); a plain checksum lets anyone who can write the file, or
 *   plant one (a restored backup, a careless copy), vouch for forged
 *   records by recomputing it. Without the key, no file is accepted. The
 *   key file is checked as persist_int.h says; one that group or others
 *   may read is refused (load and save), with the chmod that fixes it.
 * - Writing is atomic: a temporary file PATH.XXXXXX in the same
 *   directory (mode 0600, flock'ed while written), fsync, rename over the
 *   old file, fsync of the directory. A crash leaves the old file or the
 *   new one, never half of one; the temporary a killed save leaves is
 *   removed at the next load or save once it is stale (persist_int.h:
 *   our name pattern and contents, at least PERSIST_STALE_S old, no lock
 *   held on it), never anything else.
 * - dump_cache and load_cache (control) use the same text without the
 *   trailer and without a MAC: what an administrator feeds by hand is
 *   trusted as much as its sender.
 */
#ifndef CURVECACHE_RESOLVER_PERSIST_H
#define CURVECACHE_RESOLVER_PERSIST_H

#include "base/base.h"

#include <stddef.h>
#include <stdint.h>
#include <time.h>

struct cache;

/** Status codes. */
enum persist_status {
	PERSIST_OK = 0,
	PERSIST_ENOENT,   /**< load: no such file (nothing to load) */
	PERSIST_EIO,      /**< a read, write, rename or sync failed */
	PERSIST_EFILE,    /**< not a regular file, wrong owner or mode,
	                       or too large */
	PERSIST_EFOREIGN, /**< not a curvecache dump (no header) */
	PERSIST_ECORRUPT, /**< trailer missing or bad, length, MAC or
	                       entry count does not match */
	PERSIST_EBADLINE, /**< a record line did not load */
	PERSIST_ENOMEM,   /**< allocation failed */
	PERSIST_EINVAL,   /**< bad argument */
	PERSIST_EKEY,     /**< the MAC key file is missing (load), unsafe
	                       (not a regular file, another owner, a mode
	                       outside 0600) or malformed */
	PERSIST_EVERSION  /**< a trailer of another format version */
};

/** What a save wrote or a load stored. */
struct persist_counts {
	size_t entries; /**< entries written / stored */
	size_t records; /**< RRs in them */
	size_t expired; /**< load: dropped, TTL ran out since the save */
	size_t kept;    /**< load: not stored, better data cached */
	size_t bad;     /**< load: bad lines */
	uint64_t bytes; /**< file length */
};

/** Bytes of the err text of save and load. */
#define PERSIST_ERR_BYTES 512

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *persist_strerror(int status);

/**
 * Write the cache to path atomically (mode 0600), with the MAC under the
 * key in path.key (created if missing). Stale temporaries are removed
 * first (each logged as event=cache_tmp_removed).
 * @param c: the cache.
 * @param path: the file; its directory must be writable.
 * @param now: wall-clock seconds (the dump's time).
 * @param out: NULL, or receives what was written.
 * @param err, errlen: receive the reason on failure (with errno's text).
 * @return PERSIST_OK, PERSIST_EKEY, PERSIST_EIO, PERSIST_ENOMEM or
 *   PERSIST_EINVAL; on failure the old file, if any, is left as it was.
 */
int persist_cache_save(struct cache *c, const char *path, time_t now,
                       struct persist_counts *out, char *err, size_t errlen)
	MUST_CHECK;

/**
 * Remove stale temporaries, check the file as the design notes say
 * (the MAC with the key in path.key, never created here), then load it
 * into the cache. Meant for an empty cache at start-up: on
 * PERSIST_EBADLINE and on an entry count mismatch the whole cache is
 * flushed again. Stale temporaries are removed first, as by a save.
 * @param c: the cache (empty).
 * @param path: the file.
 * @param now: wall-clock seconds (what has expired since the save).
 * @param max_bytes: the largest file accepted.
 * @param out: NULL, or receives what was stored (on PERSIST_EBADLINE:
 *   what had been stored before the flush, and the bad lines).
 * @param err, errlen: receive the reason on failure ("line N: ..." for
 *   the first bad line; the key file's name for PERSIST_EKEY).
 * @return PERSIST_OK, or the status of the first check that failed.
 */
int persist_cache_load(struct cache *c, const char *path, time_t now,
                       uint64_t max_bytes, struct persist_counts *out,
                       char *err, size_t errlen) MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_PERSIST_H */
