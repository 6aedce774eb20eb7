/*
 * tests/unit/control_test.h - helpers shared by check_control.c (Suite
 * "control": the protocol and the commands) and check_cachefile.c
 * (Suite "cachefile": the dump_cache/load_cache format).
 */
#ifndef CURVECACHE_TESTS_UNIT_CONTROL_TEST_H
#define CURVECACHE_TESTS_UNIT_CONTROL_TEST_H

#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uv.h>

#include "cache.h"
#include "ctl/control.h"
#include "wire/wire.h"

/** A fixed "now" for the cache in tests. */
#define CT_NOW ((time_t)1700000000)

/** A small cache with a zero hash key. */
static inline struct cache *ct_cache(void)
{
	struct cache_config cc;
	struct cache *c = NULL;

	cache_config_init(&cc);
	cc.max_bytes = 4u * 1024 * 1024;
	ck_assert_int_eq(cache_create(&cc, &c), CACHE_OK);
	return c;
}

/** A text name as a canonical wire name. */
static inline size_t ct_name(const char *text, uint8_t out[WIRE_NAME_MAX])
{
	size_t len;

	ck_assert_int_eq(wire_name_from_text(text, strlen(text), out, &len),
	                 WIRE_OK);
	wire_name_lower(out, len);
	return len;
}

/** Store an RRset of one or more RDATAs of one type. */
static inline void ct_put(struct cache *c, const char *owner, uint16_t type,
                          uint32_t ttl, const struct cache_rdata *rd, size_t n,
                          enum cache_rank rank, const uint8_t *key)
{
	uint8_t name[WIRE_NAME_MAX];
	struct cache_rrset set;

	memset(&set, 0, sizeof set);
	set.name_len = ct_name(owner, name);
	set.name = name;
	set.type = type;
	set.klass = WIRE_CLASS_IN;
	set.ttl = ttl;
	set.rdata = rd;
	set.count = n;
	set.rank = rank;
	set.server_key = key;
	ck_assert_int_eq(cache_rrset_put(c, &set, CT_NOW), CACHE_OK);
}

/** Store one A record. */
static inline void ct_put_a(struct cache *c, const char *owner, uint32_t ttl,
                            uint8_t last)
{
	uint8_t a[4] = { 192, 0, 2, 0 };
	struct cache_rdata rd = { a, sizeof a };

	a[3] = last;
	ct_put(c, owner, WIRE_TYPE_A, ttl, &rd, 1, CACHE_RANK_AUTH, NULL);
}

/** Whether text holds needle. */
static inline int ct_has(const char *text, size_t len, const char *needle)
{
	size_t n = strlen(needle), i;

	for (i = 0; i + n <= len; i++)
		if (memcmp(text + i, needle, n) == 0)
			return 1;
	return 0;
}

/* ---- the fixture of Suite "control" (check_control.c) ---- */

struct cfg;
struct server;
struct control_cmd;

/** The worker, its loop, config and cache, and the command engine. */
extern uv_loop_t loop;
extern struct cfg cfg;
extern struct cache *cache;
extern struct server *srv;
extern struct control_cmd *cmd;

void setup(void);
void teardown(void);

/** A command engine as the fixture's (cache, srv, cfg) whose env has
 *  each; control_cmd_free it. */
struct control_cmd *ct_cmd_each(control_each_fn each);

/** What one conversation gave. */
struct conv {
	char *text; /**< NUL-terminated; free it */
	size_t len;
	enum control_state st;
};

/** Feed input in chunks of `chunk` bytes (0: all at once), then the end
 *  of the stream if asked. */
struct conv talk_chunked(const char *in, size_t len, size_t chunk, bool eof);
/** One conversation: input at once, no end of stream. */
struct conv talk(const char *in);
/** How often needle is in text. */
int count_of(const char *text, const char *needle);

#define HAS(c, s) \
	ck_assert_msg(strstr((c).text, (s)) != NULL, "no \"%s\" in:\n%s", \
	              (s), (c).text)
#define HASNT(c, s) \
	ck_assert_msg(strstr((c).text, (s)) == NULL, "\"%s\" in:\n%s", (s), \
	              (c).text)

Suite *control_suite(void);
Suite *cachefile_suite(void);
TCase *control_stats_tcase(void);
/* check_control_rt.c */
TCase *control_rt_tcase(void);
TCase *control_socket_tcase(void);

#endif /* CURVECACHE_TESTS_UNIT_CONTROL_TEST_H */
