/*
 * resolver/wire/frame.h - the one reader of DNS messages over a stream,
 * each after a 2-byte length in network order (RFC 1035 s4.2.2, RFC 7766
 * s8, RFC 7858 s3.3): plain TCP and DNS over TLS, queries from clients
 * (front/server_tcp.c) and answers from servers (transport/dot_frame.c).
 * Pure: it looks at the bytes held so far and says what they are; it
 * keeps nothing, allocates nothing and reads nothing past the length.
 */
#ifndef CURVECACHE_RESOLVER_WIRE_FRAME_H
#define CURVECACHE_RESOLVER_WIRE_FRAME_H

#include <stddef.h>
#include <stdint.h>

#include "base/base.h"

/** Bytes of the length prefix. */
#define WIRE_FRAME_PFX 2
/** The largest length a prefix can announce. */
#define WIRE_FRAME_MAX 65535u

/** wire_frame's results. */
enum wire_frame_rc {
	WIRE_FRAME_MORE = 0, /**< the prefix or the message is not whole */
	WIRE_FRAME_WHOLE,    /**< a message of *msglen bytes at buf + 2 */
	WIRE_FRAME_EMPTY,    /**< a length of 0: not DNS */
	WIRE_FRAME_BIG       /**< a length above max */
};

/**
 * The first frame of a buffer.
 * @param buf, len: the bytes held (buf may be NULL when len is 0).
 * @param max: the largest message length taken.
 * @param msglen: receives the announced length once the prefix is
 *   whole (0 before).
 * @return WIRE_FRAME_MORE, WIRE_FRAME_WHOLE (the bytes after the frame
 *   are the next one's), WIRE_FRAME_EMPTY or WIRE_FRAME_BIG (both as
 *   soon as the prefix is whole: the stream is lost).
 */
int wire_frame(const uint8_t *buf, size_t len, size_t max, size_t *msglen)
	MUST_CHECK;

#endif /* CURVECACHE_RESOLVER_WIRE_FRAME_H */
