/*
 * resolver/base/log.c - logfmt event lines to stderr or syslog.
 *
 * A line is built in one stack buffer: "level=L event=E", then each
 * field of the format. A field's value (its literal text and its
 * conversions, read from the va_list one by one as printf would) is
 * formatted into a scratch buffer and escaped as a whole into the line,
 * so no caller can forget to quote a value.
 */
#include "log.h"

#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

/** A field's value before escaping (a name is at most 1024 bytes). */
#define LOG_VALUE_BYTES 1280
/** One conversion specification ("%-*.*llu" with numbers filled in). */
#define LOG_SPEC_BYTES 48
/** Summaries written at once (one per kind at most). */
#define LOG_NOTES_MAX LOG_LIMIT_KINDS

static enum cfg_log_level log_max = CFG_LOG_INFO;
static bool log_stderr = true;
static bool log_journal;
static pthread_mutex_t log_lock = PTHREAD_MUTEX_INITIALIZER;

/* The rate limiter of log_event_limited, under its own lock; pending
 * says (without the lock) whether some kind has suppressed lines. */
static struct log_limit log_lim;
static pthread_mutex_t log_lim_lock = PTHREAD_MUTEX_INITIALIZER;
static bool log_lim_pending;

static const char *const log_names[] = { "error", "warn", "info", "debug" };
static const int log_prio[] = { LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG };

/** A line or value being built; full once something did not fit. */
struct log_buf {
	char *p;
	size_t cap;
	size_t len;
	bool full;
};

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

/* ------------------------------------------------------------------ */
/* Escaping                                                            */
/* ------------------------------------------------------------------ */

/* Whether byte c may stand in a bare value. */
static bool log_bare_byte(unsigned char c)
{
	return c > 0x20 && c < 0x7f && c != '"' && c != '=';
}

/* The escaped form of byte c inside quotes into esc (NUL-terminated). */
static size_t log_quote_byte(unsigned char c, char esc[5])
{
	static const char hex[] = "0123456789abcdef";

	if (c == '"' || c == '\\')
		return (size_t)snprintf(esc, 5, "\\%c", c);
	if (c == '\n')
		return (size_t)snprintf(esc, 5, "\\n");
	if (c == '\t')
		return (size_t)snprintf(esc, 5, "\\t");
	if (c == '\r')
		return (size_t)snprintf(esc, 5, "\\r");
	if (c >= 0x20 && c < 0x7f) {
		esc[0] = (char)c;
		esc[1] = '\0';
		return 1;
	}
	esc[0] = '\\';
	esc[1] = 'x';
	esc[2] = hex[c >> 4];
	esc[3] = hex[c & 0x0f];
	esc[4] = '\0';
	return 4;
}

size_t log_escape(const char *v, size_t n, char *out, size_t cap)
{
	const unsigned char *u = (const unsigned char *)v;
	size_t i, o = 0, k;
	bool bare = n > 0 && n < cap;
	char esc[5];

	if (cap < 3) {
		if (cap > 0)
			out[0] = '\0';
		return 0;
	}
	for (i = 0; bare && i < n; i++)
		bare = log_bare_byte(u[i]);
	if (bare) {
		memcpy(out, v, n);
		out[n] = '\0';
		return n;
	}
	out[o++] = '"';
	for (i = 0; i < n; i++) {
		k = log_quote_byte(u[i], esc);
		if (o + k + 2 > cap) /* room for the closing quote and NUL */
			break;
		memcpy(out + o, esc, k);
		o += k;
	}
	out[o++] = '"';
	out[o] = '\0';
	return o;
}

/* ------------------------------------------------------------------ */
/* Formatting one field                                                */
/* ------------------------------------------------------------------ */

/* Append n bytes of s to b (what fits; full if not all). */
static void log_put(struct log_buf *b, const char *s, size_t n)
{
	size_t room = b->cap - b->len - 1;

	if (n > room) {
		n = room;
		b->full = true;
	}
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

/** What the length modifier of a conversion says the argument is. */
enum log_len {
	LOG_LEN_INT,
	LOG_LEN_LONG,
	LOG_LEN_LLONG,
	LOG_LEN_SIZE,
	LOG_LEN_MAX,
	LOG_LEN_PTRDIFF,
	LOG_LEN_LDOUBLE
};

/* Copy the flags, width and precision of the conversion at *f into spec
 * (a '*' taken from ap and written as a number); advance *f. */
static size_t log_spec_head(const char **f, va_list *ap, char *spec)
{
	const char *p = *f;
	size_t s = 0;

	spec[s++] = '%';
	while (*p != '\0' && strchr("-+ #0", *p) != NULL && s < 8)
		spec[s++] = *p++;
	if (*p == '*') {
		s += (size_t)snprintf(spec + s, 12, "%d", va_arg(*ap, int));
		p++;
	}
	while (*p >= '0' && *p <= '9' && s < 20)
		spec[s++] = *p++;
	if (*p == '.') {
		spec[s++] = *p++;
		if (*p == '*') {
			int pr = va_arg(*ap, int);

			s += (size_t)snprintf(spec + s, 12, "%d",
			                      pr < 0 ? 0 : pr);
			p++;
		}
		while (*p >= '0' && *p <= '9' && s < 36)
			spec[s++] = *p++;
	}
	*f = p;
	return s;
}

/* Copy the length modifier at *f into spec; advance *f. */
static enum log_len log_spec_len(const char **f, char *spec, size_t *s)
{
	static const struct {
		const char *m;
		enum log_len len;
	} mods[] = {
		{ "hh", LOG_LEN_INT },    { "h", LOG_LEN_INT },
		{ "ll", LOG_LEN_LLONG },  { "l", LOG_LEN_LONG },
		{ "z", LOG_LEN_SIZE },    { "j", LOG_LEN_MAX },
		{ "t", LOG_LEN_PTRDIFF }, { "L", LOG_LEN_LDOUBLE },
	};
	size_t i, n;

	for (i = 0; i < sizeof mods / sizeof mods[0]; i++) {
		n = strlen(mods[i].m);
		if (strncmp(*f, mods[i].m, n) == 0) {
			memcpy(spec + *s, mods[i].m, n);
			*s += n;
			*f += n;
			return mods[i].len;
		}
	}
	return LOG_LEN_INT;
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* Format a signed (d, i) or unsigned (u, o, x, X) integer argument. */
static int log_conv_int(char *out, size_t cap, const char *spec,
                        enum log_len len, bool sign, va_list *ap)
{
	switch (len) {
	case LOG_LEN_LONG:
		return sign ? snprintf(out, cap, spec, va_arg(*ap, long)) :
		              snprintf(out, cap, spec,
		                       va_arg(*ap, unsigned long));
	case LOG_LEN_LLONG:
		return sign ? snprintf(out, cap, spec,
		                       va_arg(*ap, long long)) :
		              snprintf(out, cap, spec,
		                       va_arg(*ap, unsigned long long));
	case LOG_LEN_SIZE:
		return sign ? snprintf(out, cap, spec, va_arg(*ap, ssize_t)) :
		              snprintf(out, cap, spec, va_arg(*ap, size_t));
	case LOG_LEN_MAX:
		return sign ? snprintf(out, cap, spec, va_arg(*ap, intmax_t)) :
		              snprintf(out, cap, spec, va_arg(*ap, uintmax_t));
	case LOG_LEN_PTRDIFF:
		return snprintf(out, cap, spec, va_arg(*ap, ptrdiff_t));
	default:
		return sign ? snprintf(out, cap, spec, va_arg(*ap, int)) :
		              snprintf(out, cap, spec, va_arg(*ap, unsigned));
	}
}

/* Format the argument of conversion c (spec complete) into out; -1 for
 * a conversion the logger does not know. */
static int log_conv_arg(char *out, size_t cap, const char *spec, char c,
                        enum log_len len, va_list *ap)
{
	const char *s;

	switch (c) {
	case 'd':
	case 'i': return log_conv_int(out, cap, spec, len, true, ap);
	case 'u':
	case 'o':
	case 'x':
	case 'X': return log_conv_int(out, cap, spec, len, false, ap);
	case 'c': return snprintf(out, cap, spec, va_arg(*ap, int));
	case 's':
		s = va_arg(*ap, const char *);
		return snprintf(out, cap, spec, s != NULL ? s : "(null)");
	case 'p': return snprintf(out, cap, spec, va_arg(*ap, void *));
	case 'e':
	case 'E':
	case 'f':
	case 'F':
	case 'g':
	case 'G':
	case 'a':
	case 'A':
		if (len == LOG_LEN_LDOUBLE)
			return snprintf(out, cap, spec,
			                va_arg(*ap, long double));
		return snprintf(out, cap, spec, va_arg(*ap, double));
	default: return -1;
	}
}

#pragma GCC diagnostic pop

/* Append the conversion at *f (just after its '%') with its argument(s)
 * from ap to b; advance *f. false if it is one the logger does not know
 * (the rest of the arguments can then not be read). */
static bool log_conv(const char **f, va_list *ap, struct log_buf *b)
{
	char spec[LOG_SPEC_BYTES], tmp[LOG_VALUE_BYTES];
	enum log_len len;
	size_t s;
	int n;
	char c;

	if (**f == '%') {
		(*f)++;
		log_put(b, "%", 1);
		return true;
	}
	s = log_spec_head(f, ap, spec);
	len = log_spec_len(f, spec, &s);
	c = **f;
	if (c == '\0')
		return false;
	(*f)++;
	spec[s++] = c;
	spec[s] = '\0';
	n = log_conv_arg(tmp, sizeof tmp, spec, c, len, ap);
	if (n < 0)
		return false;
	log_put(b, tmp, (size_t)n < sizeof tmp ? (size_t)n : sizeof tmp - 1);
	return true;
}

/* Append " key=" and the escaped value v to line, or nothing if even a
 * short value would not fit (then the line is full). */
static void log_put_field(struct log_buf *line, const char *key, size_t keylen,
                          const char *v, size_t vlen)
{
	if (line->full || line->len + 1 + keylen + 1 + 3 >= line->cap) {
		line->full = true;
		return;
	}
	log_put(line, " ", 1);
	log_put(line, key, keylen);
	log_put(line, "=", 1);
	line->len += log_escape(v, vlen, line->p + line->len,
	                        line->cap - line->len);
}

/* Append the field at *f (up to the next literal space) to line;
 * advance *f. false once the format cannot be read further. */
static bool log_field(struct log_buf *line, const char **f, va_list *ap)
{
	char val[LOG_VALUE_BYTES];
	struct log_buf v = { val, sizeof val, 0, false };
	const char *key = *f, *p = *f;
	size_t keylen = 0;
	bool ok = true;

	val[0] = '\0';
	while (*p != '\0' && *p != ' ' && *p != '=' && *p != '%')
		p++;
	if (*p == '=') {
		keylen = (size_t)(p - key);
		p++;
	} else {
		p = key;
	}
	while (ok && *p != '\0' && *p != ' ') {
		if (*p == '%') {
			p++;
			ok = log_conv(&p, ap, &v);
		} else {
			log_put(&v, p++, 1);
		}
	}
	*f = p;
	if (keylen > 0)
		log_put_field(line, key, keylen, val, v.len);
	else if (v.len > 0)
		log_put_field(line, "msg", 3, val, v.len);
	return ok;
}

/* ------------------------------------------------------------------ */
/* Lines                                                               */
/* ------------------------------------------------------------------ */

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

/* Start line with "level=L event=E". */
static void log_head(struct log_buf *line, enum cfg_log_level level,
                     const char *event)
{
	const char *lv = log_names[level];

	line->p[0] = '\0';
	log_put(line, "level=", 6);
	log_put(line, lv, strlen(lv));
	log_put_field(line, "event", 5, event, strlen(event));
}

static void log_vline(enum cfg_log_level level, const char *event,
                      const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* Format "level=L event=E fields" and emit it. */
static void log_vline(enum cfg_log_level level, const char *event,
                      const char *fmt, va_list ap)
{
	char buf[LOG_LINE_BYTES];
	struct log_buf line = { buf, sizeof buf, 0, false };
	const char *f = fmt;
	va_list aq;

	log_head(&line, level, event);
	va_copy(aq, ap);
	while (*f != '\0') {
		if (*f == ' ')
			f++;
		else if (!log_field(&line, &f, &aq))
			break;
	}
	va_end(aq);
	log_emit(level, buf);
}

void log_pairs(enum cfg_log_level level, const char *event, const char *text)
{
	char buf[LOG_LINE_BYTES];
	struct log_buf line = { buf, sizeof buf, 0, false };
	const char *p = text, *tok, *eq;
	size_t n;

	if (level > log_level() || level < CFG_LOG_ERROR)
		return;
	log_head(&line, level, event);
	while (*p != '\0') {
		n = strcspn(p, " \t\n");
		tok = p;
		p += n;
		p += strspn(p, " \t\n");
		if (n == 0)
			continue;
		eq = memchr(tok, '=', n);
		if (eq != NULL && eq > tok)
			log_put_field(&line, tok, (size_t)(eq - tok), eq + 1,
			              n - (size_t)(eq - tok) - 1);
		else
			log_put_field(&line, "msg", 3, tok, n);
	}
	log_emit(level, buf);
}

/* Format and emit a line of fixed fields (the summaries). */
static void log_line(enum cfg_log_level level, const char *event,
                     const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void log_line(enum cfg_log_level level, const char *event,
                     const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vline(level, event, fmt, ap);
	va_end(ap);
}

static void log_write_due(bool all);

void log_event(enum cfg_log_level level, const char *event, const char *fmt,
               ...)
{
	va_list ap;

	if (level > __atomic_load_n(&log_max, __ATOMIC_RELAXED) ||
	    level < CFG_LOG_ERROR)
		return;
	if (__atomic_load_n(&log_lim_pending, __ATOMIC_RELAXED))
		log_write_due(false);
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

/* ------------------------------------------------------------------ */
/* Rate limit                                                          */
/* ------------------------------------------------------------------ */

/* The kind of event in l, added if new (the last slot is shared once
 * the table is full). */
static struct log_limit_kind *log_limit_kind(struct log_limit *l,
                                             const char *event,
                                             enum cfg_log_level level,
                                             uint64_t now_ms)
{
	struct log_limit_kind *k;
	size_t i;

	for (i = 0; i < l->n; i++)
		if (strcmp(l->kind[i].event, event) == 0)
			return &l->kind[i];
	if (l->n == LOG_LIMIT_KINDS)
		return &l->kind[LOG_LIMIT_KINDS - 1];
	k = &l->kind[l->n++];
	memset(k, 0, sizeof *k);
	k->event = event;
	k->level = level;
	k->window_ms = now_ms;
	return k;
}

bool log_limit_admit(struct log_limit *l, const char *event,
                     enum cfg_log_level level, uint64_t now_ms)
{
	struct log_limit_kind *k = log_limit_kind(l, event, level, now_ms);

	if (now_ms - k->window_ms >= LOG_LIMIT_WINDOW_MS ||
	    now_ms < k->window_ms) {
		k->window_ms = now_ms;
		k->sent = 0;
	}
	if (k->sent < LOG_LIMIT_BURST) {
		k->sent++;
		return true;
	}
	k->suppressed++;
	return false;
}

size_t log_limit_due(struct log_limit *l, uint64_t now_ms, bool all,
                     struct log_limit_note *notes, size_t max)
{
	struct log_limit_kind *k;
	size_t i, n = 0;

	for (i = 0; i < l->n && n < max; i++) {
		k = &l->kind[i];
		if (k->suppressed == 0 ||
		    (!all && now_ms - k->window_ms < LOG_LIMIT_WINDOW_MS &&
		     now_ms >= k->window_ms))
			continue;
		notes[n].event = k->event;
		notes[n].level = k->level;
		notes[n].suppressed = k->suppressed;
		n++;
		k->suppressed = 0;
	}
	return n;
}

/* Milliseconds of the monotonic clock. */
static uint64_t log_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Whether any kind of l still has suppressed lines. */
static bool log_limit_pending(const struct log_limit *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->kind[i].suppressed > 0)
			return true;
	return false;
}

/* Take the due summaries (all of them if all) into notes; admit one
 * line of event if it is not NULL (*ok: whether to write it). */
static size_t log_take_due(bool all, struct log_limit_note *notes,
                           const char *event, enum cfg_log_level level,
                           bool *ok)
{
	uint64_t now = log_now_ms();
	size_t n;

	pthread_mutex_lock(&log_lim_lock);
	n = log_limit_due(&log_lim, now, all, notes, LOG_NOTES_MAX);
	if (event != NULL)
		*ok = log_limit_admit(&log_lim, event, level, now);
	__atomic_store_n(&log_lim_pending, log_limit_pending(&log_lim),
	                 __ATOMIC_RELAXED);
	pthread_mutex_unlock(&log_lim_lock);
	return n;
}

/* Write the summaries notes[0..n). */
static void log_write_notes(const struct log_limit_note *notes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		log_line(notes[i].level, "log_suppressed",
		         "kind=%s suppressed=%" PRIu64, notes[i].event,
		         notes[i].suppressed);
}

/* Write the summaries that are due (all pending ones if all). */
static void log_write_due(bool all)
{
	struct log_limit_note notes[LOG_NOTES_MAX];

	log_write_notes(notes,
	                log_take_due(all, notes, NULL, CFG_LOG_INFO, NULL));
}

void log_flush_suppressed(void)
{
	log_write_due(true);
}

void log_flush_due(void)
{
	if (__atomic_load_n(&log_lim_pending, __ATOMIC_RELAXED))
		log_write_due(false);
}

void log_event_limited(enum cfg_log_level level, const char *event,
                       const char *fmt, ...)
{
	struct log_limit_note notes[LOG_NOTES_MAX];
	bool ok = true;
	va_list ap;

	if (level > log_level() || level < CFG_LOG_ERROR)
		return;
	/* at debug level every event is shown: nothing is limited */
	log_write_notes(notes,
	                log_take_due(false, notes,
	                             log_level() < CFG_LOG_DEBUG ? event :
	                                                           NULL,
	                             level, &ok));
	if (!ok)
		return;
	va_start(ap, fmt);
	log_vline(level, event, fmt, ap);
	va_end(ap);
}
