/*
 * tests/fuzz/fuzz_control.c - libFuzzer target for the control protocol
 * and its commands (control_session_feed, resolver/ctl/control_cmd.c).
 *
 * A worker (no listeners, no sockets), a small cache and the command
 * engine are made once, as check_control.c does; reload is refused (no
 * reload function), so no command touches the filesystem. Each input is
 * one conversation: a fresh session is fed the bytes in chunks of
 * 1 + (first byte mod 64) bytes (splits land anywhere in a line), then
 * the end of the stream; load_cache streams load into the cache. The
 * cache is emptied after each input. Every answer must end in a newline.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <uv.h>

#include "cache.h"
#include "conf/cfg.h"
#include "ctl/control.h"
#include "fuzz_hints.h"
#include "fuzz_load.h"
#include "policy/localzone.h"
#include "front/server.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** Bytes of the cache: small, so that eviction runs too. */
#define FUZZ_CACHE_BYTES ((size_t)1024 * 1024)
/** Chunk sizes cycle through 1..FUZZ_CHUNKS. */
#define FUZZ_CHUNKS 64

static uv_loop_t loop;
static struct cfg cfg;
static struct cache *cache;
static struct localzone *lz;
static struct server *srv;
static struct control_cmd *cmd;

static void init(void)
{
	struct server_params p;
	struct control_env env;

	if (uv_loop_init(&loop) != 0)
		abort();
	cfg_defaults(&cfg);
	cache = fuzz_cache_new(FUZZ_CACHE_BYTES);
	if (localzone_new(NULL, 0, &lz) != LOCALZONE_OK)
		abort();
	memset(&p, 0, sizeof p);
	p.loop = &loop;
	p.cfg = &cfg;
	p.cache = cache;
	p.lz = lz;
	p.hints = fuzz_hints();
	if (server_new(&srv, &p) != SERVER_OK)
		abort();
	memset(&env, 0, sizeof env);
	env.cache = cache;
	env.srv = srv;
	env.cfg = &cfg;
	env.cfg_path = "/nonexistent/curvecache.conf";
	env.start_wall = FUZZ_NOW;
	if (control_cmd_new(&env, &cmd) != CONTROL_OK)
		abort();
}

/* Feed the input in chunks; stop when the session closes. */
static void converse(struct control_session *s, const char *buf, size_t len,
                     struct control_out *out)
{
	size_t chunk = len ? 1 + (uint8_t)buf[0] % FUZZ_CHUNKS : 1, n;

	while (len > 0) {
		n = len < chunk ? len : chunk;
		if (control_session_feed(s, buf, n, out) == CONTROL_CLOSE)
			return;
		buf += n;
		len -= n;
	}
	(void)control_session_eof(s, out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct control_session *s = NULL;
	struct control_out out;

	if (cmd == NULL)
		init();
	memset(&out, 0, sizeof out);
	if (control_session_new(cmd, &s) != CONTROL_OK)
		abort();
	converse(s, (const char *)data, size, &out);
	if (out.len > 0 && out.p[out.len - 1] != '\n')
		abort();
	control_session_free(s);
	control_out_free(&out);
	cache_flush_all(cache, NULL);
	localzone_rt_clear(); /* local_zone ...: each input starts afresh */
	return 0;
}
