/*
 * resolver/log.c - key=value event lines to stderr or syslog.
 */
#include "log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <syslog.h>
#include <time.h>

#define LOG_LINE_BYTES 1024

static enum cfg_log_level log_max = CFG_LOG_INFO;
static bool log_stderr = true;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

static const char *const log_names[] = { "error", "warn", "info", "debug" };
static const int log_prio[] = { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };

void log_init(enum cfg_log_level level, bool to_stderr)
{
	pthread_mutex_lock(&log_lock);
	if (!to_stderr && log_stderr)
		openlog("curvecache", LOG_PID | LOG_NDELAY, LOG_DAEMON);
	log_max = level;
	log_stderr = to_stderr;
	pthread_mutex_unlock(&log_lock);
}

enum cfg_log_level log_level(void)
{
	return log_max;
}

void log_event(enum cfg_log_level level, const char *event,
               const char *fmt, ...)
{
	char line[LOG_LINE_BYTES];
	va_list ap;
	int n;

	if (level > log_max || level < CFG_LOG_ERROR)
		return;
	n = snprintf(line, sizeof line, "level=%s event=%s%s",
	             log_names[level], event, fmt[0] ? " " : "");
	if (n < 0 || (size_t)n >= sizeof line)
		return;
	va_start(ap, fmt);
	vsnprintf(line + n, sizeof line - (size_t)n, fmt, ap);
	va_end(ap);
	if (log_stderr) {
		struct timespec ts;
		struct tm tm;
		char when[32];

		clock_gettime(CLOCK_REALTIME, &ts);
		gmtime_r(&ts.tv_sec, &tm);
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
		pthread_mutex_lock(&log_lock);
		fprintf(stderr, "%s.%03ldZ %s\n", when, ts.tv_nsec / 1000000,
		        line);
		pthread_mutex_unlock(&log_lock);
	} else {
		syslog(log_prio[level], "%s", line);
	}
}
