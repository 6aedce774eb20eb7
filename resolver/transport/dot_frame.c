/*
 * resolver/transport/dot_frame.c - the reader of DNS messages over a
 * stream, each after its 2-byte length (RFC 7766 s8; the answers of DNS
 * over TLS, see dot.h): bytes in as the socket gives them, whole messages
 * out, one buffer of one message at most. No socket here: the fuzz
 * target (tests/fuzz/fuzz_dotframe.c) feeds it the bytes it makes.
 */
#include "dot.h"

#include <stdlib.h>
#include <string.h>

#include "wire/frame.h"

/* Room for want bytes (the prefix, or a whole frame: one allocation a
 * message), at least DOT_FRAME_FIRST. */
static bool frame_room(struct dot_frame *fr, size_t want)
{
	uint8_t *p;

	if (want <= fr->cap)
		return true;
	if (want < DOT_FRAME_FIRST)
		want = DOT_FRAME_FIRST;
	if ((p = realloc(fr->buf, want)) == NULL)
		return false;
	fr->buf = p;
	fr->cap = want;
	return true;
}

/* An error: the reader starts over. */
static int frame_fail(struct dot_frame *fr, int rc)
{
	fr->len = 0;
	return rc;
}

int dot_frame_next(struct dot_frame *fr, const uint8_t **in, size_t *inlen,
                   uint8_t **msg, size_t *msglen)
{
	size_t max = fr->max != 0 && fr->max < DOT_FRAME_MAX ? fr->max :
	                                                       DOT_FRAME_MAX;
	size_t size, need, take;

	for (;;) {
		/* what the bytes held are (wire/frame.h): a length of 0 or
		 * above max fails as soon as the prefix is whole */
		switch (wire_frame(fr->buf, fr->len, max, &size)) {
		case WIRE_FRAME_EMPTY: /* not DNS */
			return frame_fail(fr, DOT_FRAME_EEMPTY);
		case WIRE_FRAME_BIG: return frame_fail(fr, DOT_FRAME_EBIG);
		case WIRE_FRAME_WHOLE:
			*msg = fr->buf + WIRE_FRAME_PFX;
			*msglen = size;
			fr->len = 0; /* the buffer stays until the next call */
			return DOT_FRAME_MSG;
		default: break;
		}
		if (*inlen == 0)
			return DOT_FRAME_MORE;
		/* the prefix (size 0 until it is whole), then its message */
		need = WIRE_FRAME_PFX + size;
		take = need - fr->len < *inlen ? need - fr->len : *inlen;
		if (!frame_room(fr, need))
			return frame_fail(fr, DOT_FRAME_ENOMEM);
		memcpy(fr->buf + fr->len, *in, take);
		fr->len += take;
		*in += take;
		*inlen -= take;
	}
}

void dot_frame_trim(struct dot_frame *fr, size_t keep)
{
	if (fr->len == 0 && fr->cap > keep)
		dot_frame_free(fr);
}

void dot_frame_free(struct dot_frame *fr)
{
	free(fr->buf);
	fr->buf = NULL;
	fr->cap = 0;
	fr->len = 0;
}
