/*
 * resolver/log.c - key=value event lines to stderr or syslog.
 */
#include "log.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#define LOG_LINE_BYTES 1024

static enum cfg_log_level log_max = CFG_LOG_INFO;
static bool log_stderr = true;
static bool log_journal;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const log_names[] = { "error", "warn", "info", "debug" };
static const int log_prio[] = { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };

bool log_stderr_is_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	uintmax_t dev, ino;
	struct stat sb;
	char end;

	if (js == NULL ||
	    sscanf(js, "%" SCNuMAX ":%" SCNuMAX "%c", &dev, &ino, &end) != 2 ||
	    fstat(STDERR_FILENO, &sb) != 0)
		return false;
	return (uintmax_t)sb.st_dev == dev && (uintmax_t)sb.st_ino == ino;
}

void log_init(enum cfg_log_level level, bool to_stderr)
{
	bool journal = to_stderr && log_stderr_is_journal();

	pthread_mutex_lock(&log_lock);
	if (!to_stderr && __atomic_load_n(&log_stderr, __ATOMIC_RELAXED))
		openlog("curvecache", LOG_PID | LOG_NDELAY, LOG_DAEMON);
	__atomic_store_n(&log_max, level, __ATOMIC_RELAXED);
	/* read by every thread's log_emit without the lock */
	__atomic_store_n(&log_stderr, to_stderr, __ATOMIC_RELAXED);
	__atomic_store_n(&log_journal, journal, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&log_lock);
}

enum cfg_log_level log_level(void)
{
	return __atomic_load_n(&log_max, __ATOMIC_RELAXED);
}

void log_level_set(enum cfg_log_level level)
{
	__atomic_store_n(&log_max, level, __ATOMIC_RELAXED);
}

/* Write one finished line where the log goes. */
static void log_emit(enum cfg_log_level level, const char *line)
{
	struct timespec ts;
	struct tm tm;
	char when[32];

	if (!__atomic_load_n(&log_stderr, __ATOMIC_RELAXED)) {
		syslog(log_prio[level], "%s", line);
		return;
	}
	if (__atomic_load_n(&log_journal, __ATOMIC_RELAXED)) {
		pthread_mutex_lock(&log_lock);
		fprintf(stderr, "<%d>%s\n", log_prio[level], line);
		pthread_mutex_unlock(&log_lock);
		return;
	}
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
	pthread_mutex_lock(&log_lock);
	fprintf(stderr, "%s.%03ldZ %s\n", when, ts.tv_nsec / 1000000, line);
	pthread_mutex_unlock(&log_lock);
}

static void log_vline(enum cfg_log_level level, const char *event,
                      const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Format "level=L event=E fields" and emit it. */
static void log_vline(enum cfg_log_level level, const char *event,
                      const char *fmt, va_list ap)
{
	char line[LOG_LINE_BYTES];
	size_t len;
	int n;

	n = snprintf(line, sizeof line, "level=%s event=%s%s",
	             log_names[level], event, fmt[0] ? " " : "");
	if (n < 0 || (size_t)n >= sizeof line)
		return;
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	len = strlen(line);
	while (len > 0 && line[len - 1] == ' ')  /* empty fields: no tail */
		line[--len] = '\0';
	log_emit(level, line);
}

void log_event(enum cfg_log_level level, const char *event,
               const char *fmt, ...)
{
	va_list ap;

	if (level > __atomic_load_n(&log_max, __ATOMIC_RELAXED) ||
	    level < CFG_LOG_ERROR)
		return;
	va_start(ap, fmt);
	log_vline(level, event, fmt, ap);
	va_end(ap);
}

void log_query(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline(CFG_LOG_INFO, "query", fmt, ap);
	va_end(ap);
}
