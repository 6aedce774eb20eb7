/*
 * tests/bench/bench_curve.c - what one DNSCurve packet costs the client.
 *
 * Measures, in one run, boxes built (60-byte query) and boxes opened
 * (500-byte response) per second three ways:
 *   - curve/ API: streamlined box/open with the shared key taken from the
 *     client's precomputed table (what the resolver does per packet);
 *   - raw afternm: libsodium with a precomputed key, no table (the floor);
 *   - fresh: crypto_box_easy / crypto_box_open_easy, which redo the
 *     Curve25519 key agreement on every packet (no precomputation).
 * and prints the ratios. Each figure is the median of 9 timed rounds, the
 * six loops taking turns within each round.
 * Not a test: run it with "make bench".
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "curve.h"

#define QUERY_BYTES 60
#define RESPONSE_BYTES 500
#define ROUNDS 9

struct bench_keys {
	uint8_t spk[CURVE_KEY_BYTES], ssk[CURVE_SECRET_BYTES];
	uint8_t cpk[CURVE_KEY_BYTES], csk[CURVE_SECRET_BYTES];
	uint8_t k[crypto_box_BEFORENMBYTES];
	uint8_t cnonce[CURVE_NONCE_BYTES];
	uint8_t n[crypto_box_NONCEBYTES];
	struct curve_client *client;
	uint8_t query[QUERY_BYTES];
	uint8_t resp[RESPONSE_BYTES];
	uint8_t sealed[RESPONSE_BYTES + CURVE_BOX_OVERHEAD];
	uint8_t pkt[RESPONSE_BYTES + CURVE_STREAMLINED_RESPONSE_OVERHEAD];
	uint8_t out[CURVE_MAX_PACKET];
};

typedef void (*bench_fn)(struct bench_keys *, unsigned long);

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void die(const char *what)
{
	fprintf(stderr, "bench_curve: %s failed\n", what);
	exit(1);
}

static void api_box(struct bench_keys *b, unsigned long iters)
{
	size_t len;

	for (unsigned long i = 0; i < iters; i++)
		if (curve_streamlined_box(b->client, b->spk, b->cnonce,
		                          b->query, sizeof b->query, b->out,
		                          sizeof b->out, &len) != CURVE_OK)
			die("curve_streamlined_box");
}

static void api_open(struct bench_keys *b, unsigned long iters)
{
	size_t len;

	for (unsigned long i = 0; i < iters; i++)
		if (curve_streamlined_open(b->client, b->spk, b->cnonce,
		                           b->pkt, sizeof b->pkt, b->out,
		                           sizeof b->out, &len) != CURVE_OK)
			die("curve_streamlined_open");
}

static void raw_box(struct bench_keys *b, unsigned long iters)
{
	for (unsigned long i = 0; i < iters; i++)
		if (crypto_box_easy_afternm(b->out, b->query, sizeof b->query,
		                            b->n, b->k) != 0)
			die("crypto_box_easy_afternm");
}

static void raw_open(struct bench_keys *b, unsigned long iters)
{
	for (unsigned long i = 0; i < iters; i++)
		if (crypto_box_open_easy_afternm(b->out, b->sealed,
		                                 sizeof b->sealed, b->n,
		                                 b->k) != 0)
			die("crypto_box_open_easy_afternm");
}

static void fresh_box(struct bench_keys *b, unsigned long iters)
{
	for (unsigned long i = 0; i < iters; i++)
		if (crypto_box_easy(b->out, b->query, sizeof b->query, b->n,
		                    b->spk, b->csk) != 0)
			die("crypto_box_easy");
}

static void fresh_open(struct bench_keys *b, unsigned long iters)
{
	for (unsigned long i = 0; i < iters; i++)
		if (crypto_box_open_easy(b->out, b->sealed, sizeof b->sealed,
		                         b->n, b->spk, b->csk) != 0)
			die("crypto_box_open_easy");
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define NFN 6

/* Iterations that take about 0.1 s for fn. */
static unsigned long calibrate(struct bench_keys *b, bench_fn fn)
{
	unsigned long iters = 64;
	double t0, dt;

	for (;;) {
		t0 = now_s();
		fn(b, iters);
		dt = now_s() - t0;
		if (dt > 0.02)
			break;
		iters *= 2;
	}
	return (unsigned long)((double)iters * 0.1 / dt) + 1;
}

/*
 * Median operations per second of each function over ROUNDS rounds. The
 * functions take turns within each round, so that a change of CPU speed
 * or load on this shared machine hits them all alike.
 */
static void measure_all(struct bench_keys *b, const bench_fn *fns,
                        double *median)
{
	double rates[NFN][ROUNDS], t0;
	unsigned long iters[NFN];
	int f, r;

	for (f = 0; f < NFN; f++)
		iters[f] = calibrate(b, fns[f]);
	for (r = 0; r < ROUNDS; r++) {
		for (f = 0; f < NFN; f++) {
			t0 = now_s();
			fns[f](b, iters[f]);
			rates[f][r] = (double)iters[f] / (now_s() - t0);
		}
	}
	for (f = 0; f < NFN; f++) {
		qsort(rates[f], ROUNDS, sizeof rates[f][0], cmp_double);
		median[f] = rates[f][ROUNDS / 2];
	}
}

/* The response packet as a server would send it, for the open benches. */
static void setup(struct bench_keys *b)
{
	size_t pos = 0;

	if (sodium_init() < 0)
		die("sodium_init");
	crypto_box_keypair(b->spk, b->ssk);
	crypto_box_keypair(b->cpk, b->csk);
	if (curve_client_from_secret(&b->client, 0, b->csk) != CURVE_OK ||
	    curve_nonce_next(b->client, b->cnonce) != CURVE_OK)
		die("curve client");
	if (crypto_box_beforenm(b->k, b->spk, b->csk) != 0)
		die("crypto_box_beforenm");
	randombytes_buf(b->query, sizeof b->query);
	randombytes_buf(b->resp, sizeof b->resp);
	memcpy(b->n, b->cnonce, CURVE_NONCE_BYTES);
	randombytes_buf(b->n + CURVE_NONCE_BYTES, CURVE_NONCE_BYTES);
	if (crypto_box_easy(b->sealed, b->resp, sizeof b->resp, b->n, b->cpk,
	                    b->ssk) != 0)
		die("server box");
	memcpy(b->pkt, "R6fnvWJ8", CURVE_MAGIC_BYTES);
	pos += CURVE_MAGIC_BYTES;
	memcpy(b->pkt + pos, b->n, 2 * CURVE_NONCE_BYTES);
	pos += 2 * CURVE_NONCE_BYTES;
	memcpy(b->pkt + pos, b->sealed, sizeof b->sealed);
}

int main(void)
{
	static struct bench_keys b;
	static const bench_fn fns[NFN] = {
		api_box, api_open, raw_box, raw_open, fresh_box, fresh_open,
	};
	double m[NFN], ab, ao, rb, ro, fb, fo;

	setup(&b);
	measure_all(&b, fns, m);
	ab = m[0], ao = m[1], rb = m[2], ro = m[3], fb = m[4], fo = m[5];
	printf("DNSCurve per-packet cost (median of %d rounds)\n", ROUNDS);
	printf("%-34s %14s %14s\n", "", "box 60 B/s", "open 500 B/s");
	printf("%-34s %14.0f %14.0f\n", "curve/ API (shared-key table)", ab,
	       ao);
	printf("%-34s %14.0f %14.0f\n", "libsodium afternm (precomputed)", rb,
	       ro);
	printf("%-34s %14.0f %14.0f\n", "libsodium fresh crypto_box", fb, fo);
	printf("ratio curve API / fresh:          %8.1fx %13.1fx\n", ab / fb,
	       ao / fo);
	printf("ratio curve API / raw afternm:    %8.2fx %13.2fx\n", ab / rb,
	       ao / ro);
	printf("per packet, curve API: box %.2f us, open %.2f us\n", 1e6 / ab,
	       1e6 / ao);
	curve_client_free(b.client);
	sodium_memzero(&b, sizeof b);
	return 0;
}
