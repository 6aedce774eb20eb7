/*
 * resolver/ctl/control_out.c - the answer buffer of the control protocol
 * (see control.h): bytes and printf-style text appended up to
 * CONTROL_OUT_MAX, and the text of the status codes. No sockets here.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control.h"

/** Smallest allocation of an output buffer. */
#define CONTROL_OUT_MIN 4096

const char *control_strerror(int status)
{
	switch (status) {
	case CONTROL_OK: return "ok";
	case CONTROL_ESOCKET: return "cannot set up the socket";
	case CONTROL_EINUSE: return "another process answers there";
	case CONTROL_EUSER: return "no such user";
	case CONTROL_ENOMEM: return "out of memory";
	case CONTROL_EINVAL: return "invalid argument";
	default: return "unknown status";
	}
}

void control_out_put(struct control_out *o, const char *s, size_t n)
{
	size_t want;
	char *p;

	if (o->full || n == 0)
		return;
	if (n > CONTROL_OUT_MAX - o->len) {
		o->full = true;
		return;
	}
	if (n > o->cap - o->len) {
		want = o->cap < CONTROL_OUT_MIN ? CONTROL_OUT_MIN : o->cap;
		while (want - o->len < n)
			want = want > CONTROL_OUT_MAX / 2 ? CONTROL_OUT_MAX :
			                                    want * 2;
		p = realloc(o->p, want);
		if (p == NULL) {
			o->full = true;
			return;
		}
		o->p = p;
		o->cap = want;
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

void control_out_printf(struct control_out *o, const char *fmt, ...)
{
	char buf[CONTROL_LINE_MAX * 4];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	control_out_put(o, buf,
	                (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1);
}

void control_out_free(struct control_out *o)
{
	free(o->p);
	memset(o, 0, sizeof(*o));
}
