/*
 * resolver/base/log.h - logging for the daemon.
 *
 * One line per event, in logfmt: key=value fields after the event name:
 *   level=info event=start listen=127.0.0.1@53 threads=1
 * to stderr (foreground) or syslog (daemon facility). Messages above the
 * configured level cost one comparison. Never log key bytes or packets'
 * plaintext.
 *
 * Every line parses as logfmt because the logger escapes every value
 * itself: a format is a list of "key=VALUE" fields separated by literal
 * spaces, and whatever VALUE becomes once its conversions are filled in
 * (a domain name with a space or a quote byte, an error message) goes
 * through log_escape. So callers write "why=%s", never "why=\"%s\"",
 * and a value with spaces comes from a %s argument, not the format.
 * tests/lint.sh rejects a log format with a '\"', a field without
 * "key=", or a type logged as a number ("type=%u": use rrtext_type_name).
 *
 * On stderr each line starts with a UTC timestamp, unless stderr is the
 * systemd journal (JOURNAL_STREAM names it): then the line starts with
 * the syslog priority as "<N>" (sd-daemon(3)), which the journal takes
 * as the level and strips, and the journal adds its own time.
 *
 * Events that a flood can trigger once per packet (servfail, downgrades,
 * refused control peers) are written with log_event_limited: at most
 * LOG_LIMIT_BURST lines per event kind per LOG_LIMIT_WINDOW_MS, per
 * process (all threads); the rest are counted and reported as one line
 *   level=info event=log_suppressed kind=servfail suppressed=3919
 * written once the window ended: with the next line (of any kind), at
 * the daemon's next log_flush_due (each second) or log_flush_suppressed
 * (exit). At log-level debug nothing is limited:
 * debug is meant to show every event.
 *
 * The query log (log-queries) is one "event=query" line per client query;
 * it is written whatever the level, at info priority, and never limited.
 */
#ifndef CURVECACHE_RESOLVER_LOG_H
#define CURVECACHE_RESOLVER_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** Log levels (config "verbosity", cfg.h); a line is written when its
 *  level is at most the configured one. */
enum cfg_log_level {
	CFG_LOG_ERROR = 0,
	CFG_LOG_WARN,
	CFG_LOG_INFO,
	CFG_LOG_DEBUG
};

/** Longest line (without timestamp); longer ones lose their tail. */
#define LOG_LINE_BYTES 2048
/** Lines of one event kind written per window before it is limited. */
#define LOG_LIMIT_BURST 10
/** The rate limiter's window. */
#define LOG_LIMIT_WINDOW_MS 1000
/** Event kinds the limiter tells apart (more share the last slot). */
#define LOG_LIMIT_KINDS 32

/**
 * Set where and how much to log. May be called again (SIGHUP).
 * @param level: messages above it are dropped.
 * @param to_stderr: true for stderr, false for syslog.
 */
void log_init(enum cfg_log_level level, bool to_stderr);

/** The level set by log_init. */
enum cfg_log_level log_level(void);

/** Change the level alone (control verbosity; a reload sets it again). */
void log_level_set(enum cfg_log_level level);

/**
 * Log one event.
 * @param level: its level.
 * @param event: a short name without spaces ("start", "curve_bad_box"),
 *   a string that lives as long as the process (a literal).
 * @param fmt: printf format of the "key=VALUE" fields that follow,
 *   separated by single spaces; may be "" for none. Each VALUE (literal
 *   text and conversions up to the next literal space) is escaped as a
 *   whole by log_escape. A field without "key=" is written as
 *   "msg=VALUE" (or dropped when empty). The line is cut at
 *   LOG_LINE_BYTES, between fields or inside a quoted value, never into
 *   invalid logfmt.
 */
void log_event(enum cfg_log_level level, const char *event, const char *fmt,
               ...) __attribute__((format(printf, 3, 4)));

/**
 * Log one event that may come once per packet or query: as log_event,
 * but rate-limited per event kind (see the header comment). Thread-safe.
 */
void log_event_limited(enum cfg_log_level level, const char *event,
                       const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * Log one event whose fields are ready-made text (counters): each
 * white-space separated "key=value" token of text becomes a field, its
 * value escaped; a token without a key is written as "msg=token".
 * @param text: NUL-terminated; not modified.
 */
void log_pairs(enum cfg_log_level level, const char *event, const char *text);

/**
 * Log one client query (the query log); written whatever the level.
 * @param fmt: as for log_event.
 */
void log_query(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * Whether stderr is the systemd journal: JOURNAL_STREAM holds the
 * "DEVICE:INODE" of stderr. Read by log_init.
 * @return true if it is.
 */
bool log_stderr_is_journal(void);

/** Write the "log_suppressed" line of every kind that has one pending. */
void log_flush_suppressed(void);

/** Write the "log_suppressed" lines that are due (their window ended):
 * the daemon calls it each LOG_LIMIT_WINDOW_MS. */
void log_flush_due(void);

/**
 * Write v as one logfmt value: bare when it is not empty and has no
 * byte <= 0x20 (space, control), '"', '=', 0x7f or >= 0x80; otherwise in
 * double quotes with '"' and '\' escaped by a backslash, newline, tab
 * and return as \n \t \r and other such bytes as \xNN (so a line stays
 * ASCII and one line).
 * @param v: the bytes (any, NUL included), n of them.
 * @param out: receives the value and a NUL; cap bytes.
 * @param cap: at least 3. When the value does not fit, a quoted prefix
 *   of it that fits is written (still one valid value).
 * @return bytes written without the NUL (0 only if cap < 3).
 */
size_t log_escape(const char *v, size_t n, char *out, size_t cap);

/** One event kind of the rate limiter. */
struct log_limit_kind {
	const char *event;        /**< the kind (not owned) */
	enum cfg_log_level level; /**< level of its summary line */
	uint64_t window_ms;       /**< start of its current window */
	unsigned sent;            /**< lines written in the window */
	uint64_t suppressed;      /**< lines dropped, not yet reported */
};

/** The rate limiter's state; all zero is empty. Not locked itself. */
struct log_limit {
	struct log_limit_kind kind[LOG_LIMIT_KINDS];
	size_t n;
};

/** A "log_suppressed" line to write. */
struct log_limit_note {
	const char *event;
	enum cfg_log_level level;
	uint64_t suppressed;
};

/**
 * Whether one line of event kind event may be written at now_ms; counts
 * it as suppressed if not.
 * @param event: compared by content; kept by pointer (a literal).
 * @return true to write it.
 */
bool log_limit_admit(struct log_limit *l, const char *event,
                     enum cfg_log_level level, uint64_t now_ms);

/**
 * Take the summaries that are due: kinds with suppressed lines whose
 * window ended by now_ms (every such kind if all), their counts reset.
 * @param notes: receives up to max of them.
 * @return how many were written to notes.
 */
size_t log_limit_due(struct log_limit *l, uint64_t now_ms, bool all,
                     struct log_limit_note *notes, size_t max);

#define log_error(ev, ...) log_event(CFG_LOG_ERROR, ev, __VA_ARGS__)
#define log_warn(ev, ...) log_event(CFG_LOG_WARN, ev, __VA_ARGS__)
#define log_info(ev, ...) log_event(CFG_LOG_INFO, ev, __VA_ARGS__)
#define log_debug(ev, ...) \
	do { \
		if (log_level() >= CFG_LOG_DEBUG) \
			log_event(CFG_LOG_DEBUG, ev, __VA_ARGS__); \
	} while (0)
#define log_warn_limited(ev, ...) \
	log_event_limited(CFG_LOG_WARN, ev, __VA_ARGS__)
#define log_info_limited(ev, ...) \
	log_event_limited(CFG_LOG_INFO, ev, __VA_ARGS__)

#endif /* CURVECACHE_RESOLVER_LOG_H */
