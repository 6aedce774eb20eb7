/*
 * curve/random.c - per-thread pool of random bytes for the per-query
 * values (query IDs, 0x20 case bits, the random half of client nonces).
 *
 * A cold resolution used to cost two getrandom(2) system calls for its
 * ID and case bits alone. The pool takes CURVE_RANDOM_POOL bytes from
 * libsodium (randombytes_buf: the kernel's CSPRNG) at a time and hands
 * them out in order; bytes handed out are wiped from the pool at once,
 * so a later look at the process's memory does not reveal IDs or ports
 * of queries already sent. Larger requests bypass the pool.
 */
#include "curve.h"

#include <string.h>
#include <sodium.h>

/** Bytes fetched from the kernel per refill (about 120 queries). */
#define CURVE_RANDOM_POOL 4096u
/** Requests above this size go to randombytes_buf directly. */
#define CURVE_RANDOM_DIRECT 64u

static _Thread_local struct {
	unsigned char b[CURVE_RANDOM_POOL];
	size_t used;
	int filled;
} pool;

void curve_random(void *out, size_t len)
{
	unsigned char *o = out;

	if (len > CURVE_RANDOM_DIRECT) {
		randombytes_buf(out, len);
		return;
	}
	if (!pool.filled || pool.used + len > CURVE_RANDOM_POOL) {
		randombytes_buf(pool.b, sizeof pool.b);
		pool.used = 0;
		pool.filled = 1;
	}
	memcpy(o, pool.b + pool.used, len);
	sodium_memzero(pool.b + pool.used, len);
	pool.used += len;
}

uint16_t curve_random16(void)
{
	uint16_t v;

	curve_random(&v, sizeof v);
	return v;
}
