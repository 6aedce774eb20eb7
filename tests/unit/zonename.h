/*
 * tests/unit/zonename.h - numbered zone names for the suites of the
 * shared zone tables (check_curvepin.c, check_deadzone.c).
 */
#ifndef CURVECACHE_TESTS_UNIT_ZONENAME_H
#define CURVECACHE_TESTS_UNIT_ZONENAME_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* "zN.example." in wire form (out: at least 32 bytes); its length. */
static inline size_t zonename(unsigned n, uint8_t *out)
{
	char label[16];
	size_t l = (size_t)snprintf(label, sizeof label, "z%u", n);

	out[0] = (uint8_t)l;
	memcpy(out + 1, label, l);
	memcpy(out + 1 + l, "\7example\0", 9);
	return l + 10;
}

#endif /* CURVECACHE_TESTS_UNIT_ZONENAME_H */
