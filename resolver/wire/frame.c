/*
 * resolver/wire/frame.c - the 2-byte length framing of DNS over a stream
 * (frame.h).
 */
#include "frame.h"

int wire_frame(const uint8_t *buf, size_t len, size_t max, size_t *msglen)
{
	*msglen = 0;
	if (len < WIRE_FRAME_PFX)
		return WIRE_FRAME_MORE;
	*msglen = (size_t)buf[0] << 8 | buf[1];
	if (*msglen == 0)
		return WIRE_FRAME_EMPTY;
	if (*msglen > max)
		return WIRE_FRAME_BIG;
	return len - WIRE_FRAME_PFX >= *msglen ? WIRE_FRAME_WHOLE :
	                                         WIRE_FRAME_MORE;
}
