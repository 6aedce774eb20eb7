/*
 * tests/fuzz/fuzz_dotserve.c - libFuzzer target for the server side of
 * DNS over TLS framing (resolver/front_tls/server_tls.c): the plaintext of a
 * client's TLS session, cut into reads, goes through server_tls_take (the
 * frame buffer, then the stage behind it), server_tls_unstage and
 * wire_frame (wire/frame.h: 2-byte lengths), as server_tcp.c's conn_process
 * drives them, without a socket.
 *
 * Input: a byte n, a byte r, then n bytes that cut the stream into reads
 * (taken in turn: a byte b < 128 is a read of b + 1 bytes, a larger one
 * of (b - 127) * 330 bytes, past the stage's bound at the top), then
 * the stream's bytes, repeated r % 16 + 1 times (so that inputs of
 * libFuzzer's usual 4096 bytes fill the frame buffer and the stage
 * behind it). Checked: nothing is read or written past the frame buffer
 * (ASan: it is allocated at its size), the stage stays within its
 * bound, every byte taken is in a whole frame, the frame buffer or the
 * stage, and every frame is the stream's bytes at its place.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "front/server.h"
#include "front_tls/server_tls.h"
#include "wire/frame.h"

/** The frame buffer of a connection (server_int.h's rbuf). */
#define FUZZ_DOT_RBUF (2 + SERVER_TCP_QUERY_MAX)
/** Cut bytes below this are small reads (b + 1 bytes). */
#define FUZZ_DOT_SMALL 128
/** Bytes per step of a large read. */
#define FUZZ_DOT_STEP 330
/** Most repeats of the stream's bytes. */
#define FUZZ_DOT_REPEAT 16

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** One connection's state while the stream comes in. */
struct fuzz_dot {
	uint8_t *rbuf;
	size_t rlen;
	struct server_tls_stage st;
	const uint8_t *stream;
	size_t taken; /**< stream bytes given to server_tls_take */
	size_t done;  /**< ...of them in whole frames */
};

/* What conn_process does with the frame buffer: every whole frame out,
 * the stage moved in as room is made. @return false: closed. */
static bool fuzz_dot_process(struct fuzz_dot *f)
{
	size_t need = 0;
	int fr;

	for (;;) {
		server_tls_unstage(f->rbuf, FUZZ_DOT_RBUF, &f->rlen, &f->st);
		if (f->rlen > FUZZ_DOT_RBUF)
			abort();
		fr = wire_frame(f->rbuf, f->rlen, SERVER_TCP_QUERY_MAX, &need);
		if (fr == WIRE_FRAME_EMPTY || fr == WIRE_FRAME_BIG)
			return false;
		if (fr == WIRE_FRAME_MORE) {
			/* a frame fits the buffer: the stage is drained */
			if (f->st.len != 0)
				abort();
			return true;
		}
		if (need == 0 || need > SERVER_TCP_QUERY_MAX ||
		    f->rlen < 2 + need ||
		    memcmp(f->rbuf, f->stream + f->done, 2 + need) != 0)
			abort();
		f->done += 2 + need;
		memmove(f->rbuf, f->rbuf + 2 + need, f->rlen - 2 - need);
		f->rlen -= 2 + need;
	}
}

/* The size of the next read, from the cut bytes. */
static size_t fuzz_dot_cut(const uint8_t *cut, size_t ncut, size_t *i)
{
	uint8_t b;

	if (ncut == 0)
		return FUZZ_DOT_SMALL;
	b = cut[(*i)++ % ncut];
	return b < FUZZ_DOT_SMALL ?
	               (size_t)b + 1 :
	               (size_t)(b - FUZZ_DOT_SMALL + 1) * FUZZ_DOT_STEP;
}

/* The stream: the body repeated reps times. */
static uint8_t *fuzz_dot_stream(const uint8_t *body, size_t len, size_t reps)
{
	uint8_t *s = malloc(len * reps + 1);
	size_t k;

	for (k = 0; s != NULL && k < reps; k++)
		memcpy(s + k * len, body, len);
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_dot f;
	uint8_t *stream;
	size_t ncut, reps, len, i = 0;

	if (size < 2 || (ncut = data[0]) > size - 2)
		return 0;
	reps = data[1] % FUZZ_DOT_REPEAT + 1;
	memset(&f, 0, sizeof f);
	stream = fuzz_dot_stream(data + 2 + ncut, size - 2 - ncut, reps);
	if (stream == NULL || (f.rbuf = malloc(FUZZ_DOT_RBUF)) == NULL) {
		free(stream);
		return 0;
	}
	f.stream = stream;
	size = (size - 2 - ncut) * reps;
	while (f.taken < size) {
		len = fuzz_dot_cut(data + 2, ncut, &i);
		len = len < size - f.taken ? len : size - f.taken;
		if (!server_tls_take(f.rbuf, FUZZ_DOT_RBUF, &f.rlen, &f.st,
		                     f.stream + f.taken, len)) {
			if (f.st.len + len <= SERVER_TLS_STAGE_MAX)
				abort(); /* refused within the bound */
			break;
		}
		f.taken += len;
		if (f.st.len > SERVER_TLS_STAGE_MAX ||
		    f.done + f.rlen + f.st.len != f.taken)
			abort();
		if (!fuzz_dot_process(&f))
			break;
		if (f.done + f.rlen + f.st.len != f.taken)
			abort();
	}
	free(f.st.buf);
	free(f.rbuf);
	free(stream);
	return 0;
}
