/*
 * resolver/log.h - logging for the daemon.
 *
 * One line per event, as key=value fields after the event name:
 *   level=info event=start listen=127.0.0.1@53 threads=1
 * to stderr (foreground) or syslog (daemon facility). Messages above the
 * configured level cost one comparison. Never log key bytes or packets'
 * plaintext.
 *
 * On stderr each line starts with a UTC timestamp, unless stderr is the
 * systemd journal (JOURNAL_STREAM names it): then the line starts with
 * the syslog priority as "<N>" (sd-daemon(3)), which the journal takes
 * as the level and strips, and the journal adds its own time.
 *
 * The query log (log-queries) is one "event=query" line per client query;
 * it is written whatever the level, at info priority.
 */
#ifndef CURVECACHE_RESOLVER_LOG_H
#define CURVECACHE_RESOLVER_LOG_H

#include <stdbool.h>
#include "cfg.h"

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
 * @param event: a short name without spaces ("start", "curve_bad_box").
 * @param fmt: printf format of the key=value fields that follow; may be
 *   "" for none.
 */
void log_event(enum cfg_log_level level, const char *event,
               const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/**
 * Log one client query (the query log); written whatever the level.
 * @param fmt: printf format of the key=value fields.
 */
void log_query(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * Whether stderr is the systemd journal: JOURNAL_STREAM holds the
 * "DEVICE:INODE" of stderr. Read by log_init.
 * @return true if it is.
 */
bool log_stderr_is_journal(void);

#define log_error(ev, ...) log_event(CFG_LOG_ERROR, ev, __VA_ARGS__)
#define log_warn(ev, ...) log_event(CFG_LOG_WARN, ev, __VA_ARGS__)
#define log_info(ev, ...) log_event(CFG_LOG_INFO, ev, __VA_ARGS__)
#define log_debug(ev, ...) \
	do { \
		if (log_level() >= CFG_LOG_DEBUG) \
			log_event(CFG_LOG_DEBUG, ev, __VA_ARGS__); \
	} while (0)

#endif /* CURVECACHE_RESOLVER_LOG_H */
