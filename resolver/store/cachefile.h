/*
 * resolver/store/cachefile.h - the text format of curvecache-control
 * dump_cache and load_cache: the answer cache written out and read back.
 *
 * The format is zone-file presentation, one RR per line, with the TTL
 * that remained at the time of the dump and a trailing comment that says
 * what the cache knew about the entry:
 *
 *   ; curvecache-dump version=1 time=1764770000
 *   www.example.lab.   300  IN  A      127.0.0.1  ; rank=auth src=plain
 *   www.curve.lab.     300  IN  A      127.0.0.2  ; rank=auth src=uz5...
 *   example.lab.       60   IN  SOA    ns1... ... ; nxdomain name=nx.ex...
 *   example.lab.       60   IN  SOA    ns1... ... ; nodata name=a.ex...
 *                                                   type=AAAA ...
 *   www.signed.lab.    300  IN  A      127.0.0.3  ; rank=auth src=plain
 *                                                   sec=secure
 *   www.signed.lab.    300  IN  RRSIG  A 13 3 300 2026... ; dnssec
 *
 * - The first line is the header; its time (Unix seconds) is when the
 *   TTLs were read, so a load later counts them down from there and drops
 *   what has expired meanwhile.
 * - rank= is glue, referral, nonauth or auth (RFC 2181 5.4.1 ranks, as
 *   cache.h has them); src= is "plain", or the uz5 key label of the
 *   DNSCurve server the data came from; sec= is the DNSSEC status
 *   (insecure, secure or bogus; enum cache_sec), written only when it is
 *   not unchecked and read as unchecked when absent, so the lines of an
 *   unchecked entry are those of the first version of this format.
 * - An entry's DNSSEC image (the RRSIGs of an RRset, the signed proof
 *   of a negative answer) follows its lines: one line per record, with
 *   the entry's TTL and the comment "; dnssec" alone. A "; dnssec" line
 *   with no entry before it, or a bad one, is a bad line, and the entry
 *   it belongs to is not stored. A reader older than sec= and dnssec
 *   lines refuses them as bad lines; it never stores an entry without
 *   its status. The header still says version=1 (dump_cache and
 *   load_cache read both forms); the cache file (persist.h) carries its
 *   own format version in its trailer, and that one changed.
 * - An RRset is the run of consecutive lines with the same owner, class,
 *   type, TTL and comment. A negative entry is one SOA line (owner = the
 *   zone) whose comment names the entry: nxdomain name=NAME, or nodata
 *   name=NAME type=TYPE.
 * - RDATA is what rrtext.h prints: A, AAAA, NS, CNAME, DNAME, PTR, MX,
 *   TXT, SOA, SRV, RRSIG, DNSKEY, CDNSKEY, DS, CDS, NSEC, NSEC3 and
 *   NSEC3PARAM in their usual (dig's) form, anything else, and a record
 *   of those types that has no such form, in the RFC 3597 generic form
 *   "\# LEN HEX". The reader takes both forms for every type, so dumps
 *   written before the DNSSEC types had their own form (in "\#") load as
 *   they did, to the same bytes; each text the writer makes reads back
 *   as the bytes it was made from. Every RDATA read is checked against
 *   its type (a name where a name belongs, exact lengths), whatever its
 *   form.
 * - Other comment lines (starting with ';') and blank lines are ignored.
 * - Unbound's dump (what "unbound-control dump_cache" writes: a first line
 *   START_RRSET_CACHE, then ";rrset TTL COUNT SIGCOUNT TRUST SECURITY"
 *   and its record and RRSIG lines, then the message part) loads too,
 *   so a switch from Unbound keeps its warm cache: each RRset becomes an
 *   entry (TRUST a rank, its RRSIGs its DNSSEC image), never a
 *   validated one (Unbound's "insecure" stays insecure, every other
 *   status reads unchecked, a bogus RRset is not loaded); the message
 *   part and what follows the line EOF are skipped
 *   (cachefile_unbound.c).
 *
 * Design notes:
 * - Loading reads untrusted bytes: each line is at most CACHEFILE_LINE_MAX
 *   bytes and is parsed with bounded readers; a bad line is reported with
 *   its number and its RRset is not stored, the rest goes on. At most
 *   CACHEFILE_ERRORS_SHOWN bad lines are reported one by one.
 * - Entries are stored as they are read (cache_rrset_put and
 *   cache_neg_put apply the usual rank rule and memory bound), so a load
 *   never holds the whole file.
 * - Dumping runs inside cache_iterate: the callback writes one entry's
 *   lines through the caller's put function under a shard lock.
 */
#ifndef CURVECACHE_RESOLVER_CACHEFILE_H
#define CURVECACHE_RESOLVER_CACHEFILE_H

#include "base/base.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "wire/rrtext.h"

struct cache;

/** Format version written and accepted. */
#define CACHEFILE_VERSION 1
/** Longest line read or written: any RR line (rrtext) plus the comment. */
#define CACHEFILE_LINE_MAX (RRTEXT_LINE_MAX + 2 * WIRE_NAME_TEXT_MAX)
/** Records gathered into one RRset; a longer run is an error. */
#define CACHEFILE_RRSET_MAX 4096
/** Bytes of RDATA gathered into one RRset (the cache's image cap). */
#define CACHEFILE_RDATA_BYTES 65535
/** Bytes of the DNSSEC image gathered for one entry (the cache's cap). */
#define CACHEFILE_DNSSEC_BYTES 65535
/** Space for cachefile_dump_get: a line, an entry's records and its
 *  DNSSEC image (two cache images and their lengths). */
#define CACHEFILE_GET_SCRATCH_BYTES (CACHEFILE_LINE_MAX + 2 * 65536u)
/** Bad lines reported one by one; the rest are only counted. */
#define CACHEFILE_ERRORS_SHOWN 50
/** Bytes of one error message ("line N: reason"). */
#define CACHEFILE_ERR_BYTES 128
/** Bytes that always hold the report of cachefile_load_report. */
#define CACHEFILE_REPORT_BYTES \
	((CACHEFILE_ERRORS_SHOWN + 4) * CACHEFILE_ERR_BYTES)

/** Status codes. */
enum cachefile_status {
	CACHEFILE_OK = 0,
	CACHEFILE_ESYNTAX,  /**< a line that is not an RR line */
	CACHEFILE_ENAME,    /**< bad owner or RDATA name */
	CACHEFILE_ETTL,     /**< bad TTL */
	CACHEFILE_ECLASS,   /**< unknown class */
	CACHEFILE_ETYPE,    /**< unknown or unstorable type */
	CACHEFILE_ERDATA,   /**< RDATA does not fit its type */
	CACHEFILE_EMETA,    /**< the trailing comment is missing or bad */
	CACHEFILE_EHEADER,  /**< no valid header line first */
	CACHEFILE_ETOOLONG, /**< line or RRset over its cap */
	CACHEFILE_ECACHE,   /**< the cache refused the entry */
	CACHEFILE_ENOMEM,   /**< allocation failed */
	CACHEFILE_EINVAL    /**< bad argument */
};

/**
 * Where dump text goes: called with one or more whole lines.
 * @return 0 to go on, non-zero to stop the dump.
 */
typedef int (*cachefile_put_fn)(void *arg, const char *text, size_t len);

/** What a dump wrote. */
struct cachefile_dump_stats {
	size_t entries; /**< cache entries written */
	size_t rrs;     /**< lines of RRs written */
	size_t dnssec;  /**< lines of DNSSEC images written */
	size_t skipped; /**< entries left out: expired or unrenderable */
	size_t hidden;  /**< entries of private-use types left out
	                     (cachefile_dump_shown) */
};

/** The private-use record types (RFC 6895 section 3.1), which the
 *  resolver uses for its own notes in the cache (the parent's NS set
 *  of a zone cut, marks of insecure delegations...). */
#define CACHEFILE_TYPE_PRIVATE_MIN 65280
#define CACHEFILE_TYPE_PRIVATE_MAX 65534

/** Opaque state of one load. */
struct cachefile_load;

/** What a load did (see cachefile_load_counts). */
struct cachefile_load_counts {
	size_t lines;   /**< lines read */
	size_t entries; /**< entries stored */
	size_t rrs;     /**< RRs in them */
	size_t dnssec;  /**< records of their DNSSEC images */
	size_t expired; /**< entries dropped: TTL ran out since the dump */
	size_t kept;    /**< not stored: better data already cached */
	size_t bad;     /**< bad lines */
};

/**
 * Describe a status code.
 * @return a static string; never NULL.
 */
const char *cachefile_strerror(int status);

/**
 * Write every fresh entry of the cache in the format above, header
 * first.
 * @param c: the cache.
 * @param now: wall-clock seconds (the header's time and the TTLs).
 * @param put, arg: where the text goes.
 * @param st: NULL, or receives what was written.
 * @return CACHEFILE_OK, CACHEFILE_ENOMEM, or CACHEFILE_EINVAL when put
 *   stopped the dump.
 */
int cachefile_dump(struct cache *c, time_t now, cachefile_put_fn put,
                   void *arg, struct cachefile_dump_stats *st) MUST_CHECK;

/**
 * cachefile_dump without the entries of private-use types (the
 * resolver's own notes, which no other program can read; counted in
 * st->hidden): the dump_cache an administrator reads.
 * @return as cachefile_dump.
 */
int cachefile_dump_shown(struct cache *c, time_t now, cachefile_put_fn put,
                         void *arg, struct cachefile_dump_stats *st)
	MUST_CHECK;

/**
 * Write the entries of one name as cachefile_dump does, without the
 * header, stale ones included (their comment ends in " stale=Ns", so
 * these lines are for people, not for load_cache).
 * @param name, name_len: canonical wire name.
 * @param type: only entries of this type (and the name's NXDOMAIN); 0
 *   for every type.
 * @param found: NULL, or receives the number of entries written.
 * @return as cachefile_dump.
 */
int cachefile_dump_name(struct cache *c, time_t now, const uint8_t *name,
                        size_t name_len, uint16_t type, cachefile_put_fn put,
                        void *arg, size_t *found) MUST_CHECK;

/**
 * Write the one fresh entry that answers (name, type, klass) as
 * cachefile_dump does, without the header: the RRset or NODATA entry of
 * the key, else the name's NXDOMAIN (cache_get's choice; one lookup, no
 * walk over the cache, so it is cheap enough for every resolution: the
 * Redis tier, resolver/store/cachedb.h).
 * @param scratch, cap: the caller's space, at least
 *   CACHEFILE_GET_SCRATCH_BYTES (nothing is allocated).
 * @param found: NULL, or receives the number of entries written (0: a
 *   miss).
 * @return as cachefile_dump; CACHEFILE_EINVAL for too little space.
 */
int cachefile_dump_get(struct cache *c, time_t now, const uint8_t *name,
                       size_t name_len, uint16_t type, uint16_t klass,
                       uint8_t *scratch, size_t cap, cachefile_put_fn put,
                       void *arg, size_t *found) MUST_CHECK;

/**
 * Start a load into a cache.
 * @param c: the cache the entries go to.
 * @param now: wall-clock seconds (expiry of what is stored).
 * @param out: receives the state; free with cachefile_load_free.
 * @return CACHEFILE_OK, CACHEFILE_EINVAL or CACHEFILE_ENOMEM.
 */
int cachefile_load_new(struct cache *c, time_t now,
                       struct cachefile_load **out) MUST_CHECK;

/**
 * Start another load into the same cache, keeping ld's memory (the
 * Redis tier loads a few lines per record: no allocation each time).
 * @param now: as cachefile_load_new's.
 */
void cachefile_load_reset(struct cachefile_load *ld, time_t now);

/**
 * Read one line (without its newline; a final '\r' is ignored).
 * @param ld: the load.
 * @param line, len: the bytes; any content, any length (longer than
 *   CACHEFILE_LINE_MAX is a bad line).
 * @return CACHEFILE_OK, or the status of the line's problem (already
 *   counted and recorded for the report).
 */
int cachefile_load_line(struct cachefile_load *ld, const char *line,
                        size_t len);

/**
 * End the load: store the RRset still being gathered.
 * @param ld: the load.
 */
void cachefile_load_finish(struct cachefile_load *ld);

/** The counters of a load. */
void cachefile_load_counts(const struct cachefile_load *ld,
                           struct cachefile_load_counts *out);

/**
 * The report of a finished load: one "line N: reason" per bad line
 * shown, then "loaded ..." with the counters, each line ending in '\n'.
 * @param out, cap: destination, NUL-terminated when cap > 0
 *   (CACHEFILE_REPORT_BYTES always suffices).
 * @return the length written.
 */
size_t cachefile_load_report(const struct cachefile_load *ld, char *out,
                             size_t cap);

/**
 * The first bad line of a finished load read from FILE, as
 * "FILE:LINE: reason" (the form of the configuration's errors).
 * @param file: the name the lines came from.
 * @param out, cap: destination, NUL-terminated when cap > 0.
 * @return the length written; 0 (out empty) when no line was bad.
 */
size_t cachefile_load_first_bad(const struct cachefile_load *ld,
                                const char *file, char *out, size_t cap);

/** Free a load (NULL is allowed). */
void cachefile_load_free(struct cachefile_load *ld);

/**
 * Parse the RDATA of a record from presentation text (the part after
 * the type, comment removed), in its usual form or "\# LEN HEX".
 * @param type: the record type.
 * @param text, len: the RDATA text.
 * @param out, cap: receive the wire RDATA (uncompressed names).
 * @param outlen: receives its length.
 * @return CACHEFILE_OK, CACHEFILE_ERDATA, CACHEFILE_ENAME or
 *   CACHEFILE_ETYPE (a type with no text form other than the generic).
 */
int cachefile_rdata_parse(uint16_t type, const char *text, size_t len,
                          uint8_t *out, size_t cap, size_t *outlen) MUST_CHECK;

/**
 * Check wire RDATA against its type: A is 4 bytes, AAAA 16, NS, CNAME,
 * DNAME and PTR exactly one name, MX and SRV their fields and a name, SOA
 * two names and 20 bytes, TXT a run of character-strings; other types
 * are taken as they are.
 * @return CACHEFILE_OK or CACHEFILE_ERDATA.
 */
int cachefile_rdata_check(uint16_t type, const uint8_t *rdata, size_t len)
	MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_CACHEFILE_H */
