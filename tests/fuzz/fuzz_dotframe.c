/*
 * tests/fuzz/fuzz_dotframe.c - libFuzzer target for the framing of DNS
 * over TLS answers (resolver/transport/dot_frame.c): 2-byte length, then
 * the message, as a server writes them on one connection.
 *
 * The input: a byte that seeds the sizes of the pieces the stream is cut
 * into (as reads cut it: a length split, two messages in one read), a
 * byte for the largest message taken (0: DOT_FRAME_MAX, else times 16),
 * a byte for when the buffer is trimmed between messages, then the
 * stream. The reader fed piece by piece must give the messages a plain
 * walk of the whole stream gives, in order and byte for byte, stop with
 * the same error at the same frame, keep what is left of a frame cut
 * short, and never hold more than one frame (or DOT_FRAME_FIRST); and
 * wire_frame, the 2-byte length reader under dot_frame_next and
 * front/server_tcp.c, must agree with the walk at every frame.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "transport/dot.h"
#include "wire/frame.h"

/** Bytes before the stream: seed, max, trim. */
#define FUZZ_DOTFRAME_HDR 3
/** Pieces are 0 to this many bytes. */
#define FUZZ_DOTFRAME_PIECE 300u
/** The max byte's unit. */
#define FUZZ_DOTFRAME_MAX_UNIT 16u

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The walk of the whole stream: where the next whole frame ends, 0 when
 * the stream ends (cut short or not) before, or the error of its prefix
 * in *err. The walk reads the prefix itself; wire_frame (wire/frame.h,
 * which dot_frame_next reads with) must say the same of the rest of the
 * stream. */
static size_t walk_next(const uint8_t *s, size_t n, size_t pos, size_t max,
                        int *err)
{
	size_t l = 0, wl;
	int want;

	*err = DOT_FRAME_MORE;
	if (n - pos >= 2)
		l = (size_t)s[pos] << 8 | s[pos + 1];
	if (n - pos >= 2 && l == 0)
		*err = DOT_FRAME_EEMPTY;
	else if (l > max)
		*err = DOT_FRAME_EBIG;
	want = *err == DOT_FRAME_EEMPTY         ? WIRE_FRAME_EMPTY :
	       *err == DOT_FRAME_EBIG           ? WIRE_FRAME_BIG :
	       n - pos >= 2 && n - pos - 2 >= l ? WIRE_FRAME_WHOLE :
	                                          WIRE_FRAME_MORE;
	if (wire_frame(s + pos, n - pos, max, &wl) != want || wl != l)
		abort();
	return want == WIRE_FRAME_WHOLE ? pos + 2 + l : 0;
}

/* Feed one piece; false once the stream ended in an error (checked). */
static bool feed(struct dot_frame *fr, const uint8_t *s, size_t n, size_t *pos,
                 const uint8_t *piece, size_t plen, unsigned trim, size_t max)
{
	size_t limit = max + 2 > DOT_FRAME_FIRST ? max + 2 : DOT_FRAME_FIRST;
	uint8_t *msg;
	size_t mlen, end;
	int rc, err;

	for (;;) {
		rc = dot_frame_next(fr, &piece, &plen, &msg, &mlen);
		if (fr->cap > limit || fr->len > fr->cap)
			abort();
		end = walk_next(s, n, *pos, max, &err);
		if (rc == DOT_FRAME_MORE && plen != 0)
			abort();
		if (rc == DOT_FRAME_MORE)
			return true;
		/* an error: the walk's, at the same frame */
		if (rc != DOT_FRAME_MSG && (rc != err || fr->len != 0))
			abort();
		if (rc != DOT_FRAME_MSG)
			return false;
		if (end == 0 || mlen != end - *pos - 2 || mlen == 0 ||
		    mlen > max || memcmp(msg, s + *pos + 2, mlen) != 0)
			abort();
		*pos = end;
		if (trim & 1u)
			dot_frame_trim(fr, trim & 2u ? 0 : DOT_FRAME_FIRST);
		trim = trim >> 1 | (trim & 1u) << 7;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct dot_frame fr;
	const uint8_t *s = data + FUZZ_DOTFRAME_HDR;
	size_t n, off = 0, plen, pos = 0, end;
	uint32_t rng;
	unsigned trim;
	int err;

	if (size < FUZZ_DOTFRAME_HDR)
		return 0;
	n = size - FUZZ_DOTFRAME_HDR;
	rng = data[0] * 2654435761u | 1u;
	memset(&fr, 0, sizeof fr);
	fr.max = (size_t)data[1] * FUZZ_DOTFRAME_MAX_UNIT;
	trim = data[2];
	for (;;) {
		rng ^= rng << 13;
		rng ^= rng >> 17;
		rng ^= rng << 5;
		plen = rng % (FUZZ_DOTFRAME_PIECE + 1);
		if (plen > n - off)
			plen = n - off;
		if (!feed(&fr, s, n, &pos, s + off, plen, trim,
		          fr.max != 0 ? fr.max : DOT_FRAME_MAX)) {
			dot_frame_free(&fr);
			return 0;
		}
		off += plen;
		if (off == n)
			break;
	}
	/* all taken: every whole frame came out, the rest is kept */
	end = walk_next(s, n, pos, fr.max != 0 ? fr.max : DOT_FRAME_MAX, &err);
	if (end != 0 || err != DOT_FRAME_MORE || fr.len != n - pos)
		abort();
	dot_frame_free(&fr);
	return 0;
}
