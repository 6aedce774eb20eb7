/*
 * resolver/base/base.h - what every part of resolver/ shares, and nothing
 * else: the must-check mark, the DNSCurve key size, and the two kinds of
 * assertion (style rule 11). Includes only the C library, so any header
 * of resolver/, the codec included, may include it. cache/ and curve/
 * are leaves and keep their own marks.
 */
#ifndef CURVECACHE_RESOLVER_BASE_H
#define CURVECACHE_RESOLVER_BASE_H

#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/** A result the caller must look at (an error it must not drop). */
#define MUST_CHECK __attribute__((warn_unused_result))

/** Bytes of a DNSCurve (Curve25519) public key, wherever one is kept:
 *  delegations, the server-selection table, the upstream box. Equal to
 *  curve/'s CURVE_KEY_BYTES (checked where both are in sight). */
#define KEY_BYTES 32

/**
 * FNV-1a, 64 bits, of n bytes (with fold: A-Z hashed as a-z, for names
 * compared without case), continuing from h. For bounded in-memory
 * tables whose keys come from the network only where a flood can at
 * worst crowd one set (topk, curvepin, sel) or where the table is
 * private to one resolution (iter).
 */
static inline uint64_t base_fnv1a_add(uint64_t h, const uint8_t *p, size_t n,
                                      int fold)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint8_t c = p[i];

		if (fold && c >= 'A' && c <= 'Z')
			c = (uint8_t)(c + ('a' - 'A'));
		h ^= c;
		h *= 0x100000001b3ull;
	}
	return h;
}

/** FNV-1a of p from the start value: base_fnv1a_add continues a hash
 *  over more bytes (a key in parts). */
#define BASE_FNV_OFFSET 0xcbf29ce484222325ull
static inline uint64_t base_fnv1a(const uint8_t *p, size_t n, int fold)
{
	return base_fnv1a_add(BASE_FNV_OFFSET, p, n, fold);
}

/**
 * Always-on fatal check, for invariants that protect memory (an index
 * within its array, a length within its buffer): when broken, go on
 * would read or write out of bounds, so the process stops with the file,
 * line and condition on stderr, whatever the build.
 */
#define REQUIRE(cond) \
	do { \
		if (__builtin_expect(!(cond), 0)) \
			base_impossible(__FILE__, __LINE__, #cond); \
	} while (0)

/** Debug-only check, for everything else (compiled out with NDEBUG). */
#define DEBUG_ASSERT(cond) assert(cond)

/** Print "FILE:LINE: invariant broken: WHAT" and abort (REQUIRE). */
__attribute__((noreturn, cold)) static inline void
base_impossible(const char *file, int line, const char *what)
{
	fprintf(stderr, "curvecache: %s:%d: invariant broken: %s\n", file,
	        line, what);
	abort();
}

#endif /* CURVECACHE_RESOLVER_BASE_H */
