/*
 * tests/unit/cachetest.h - shared by the Check suites "stale",
 * "forward" and "answer": a small cache made and destroyed around each
 * test (the fixture cachetest_setup/cachetest_teardown), text names in
 * wire form, and a put of one-record RRsets. Included by one .c file
 * per test program (static definitions).
 */
#ifndef CURVECACHE_TESTS_UNIT_CACHETEST_H
#define CURVECACHE_TESTS_UNIT_CACHETEST_H

#include <check.h>
#include <string.h>

#include "cache.h"
#include "wire/wire.h"

/** The wall clock of the tests. */
#define CACHETEST_T0 ((time_t)1700000000)
/** Memory of the test cache. */
#define CACHETEST_BYTES (1u << 20)

/** The cache of the current test. */
static struct cache *c;

/* A text name in wire form (case kept); its length. */
static size_t wname(uint8_t *out, const char *text)
{
	size_t len;

	ck_assert_int_eq(wire_name_from_text(text, strlen(text), out, &len),
	                 WIRE_OK);
	return len;
}

/* An RRset of one record into the test cache. */
static inline void cachetest_put(const char *name, uint16_t type, uint32_t ttl,
                                 const uint8_t *rd, size_t rdlen,
                                 enum cache_rank rank, time_t now)
{
	uint8_t n[WIRE_NAME_MAX];
	struct cache_rdata r = { rd, rdlen };
	struct cache_rrset set = {
		n, wname(n, name), type, WIRE_CLASS_IN,       ttl,  &r,
		1, rank,           NULL, CACHE_SEC_UNCHECKED, NULL, 0
	};

	ck_assert_int_eq(cache_rrset_put(c, &set, now), CACHE_OK);
}

static void cachetest_setup(void)
{
	struct cache_config cfg;

	cache_config_init(&cfg);
	cfg.max_bytes = CACHETEST_BYTES;
	ck_assert_int_eq(cache_create(&cfg, &c), CACHE_OK);
}

static void cachetest_teardown(void)
{
	cache_destroy(c);
	c = NULL;
}

#endif /* CURVECACHE_TESTS_UNIT_CACHETEST_H */
