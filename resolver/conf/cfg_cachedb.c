/*
 * resolver/conf/cfg_cachedb.c - the options of the shared cache tier on
 * Redis (issue 26), under Unbound's cachedb names: cachedb-backend: redis
 * (the only value; absent: off), redis-server-host, redis-server-port,
 * redis-server-path (a unix socket, preferred to host and port),
 * redis-server-password, redis-timeout (ms), redis-expire-records,
 * cachedb-no-store and cachedb-secret-file (the fleet secret: required
 * with the backend on).
 *
 * The secret file is read when its line is: at least
 * CFG_CACHEDB_SECRET_MIN bytes, at most CFG_CACHEDB_SECRET_MAX; the
 * config keeps only a key derived from it (keyed BLAKE2b), never the
 * bytes, so a config copy in each worker holds nothing more secret
 * than that key.
 */
#include "cfg.h"
#include "cfg_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sodium.h>

#include "base/fileio.h"

/** What the key derived from the secret is for (BLAKE2b's input). */
static const char cachedb_kdf_context[] = "curvecache cachedb key v1";

void cfg_cachedb_defaults(struct cfg_cachedb *d)
{
	memset(d, 0, sizeof *d);
	snprintf(d->host, sizeof d->host, "%s", "127.0.0.1");
	d->port = CFG_REDIS_PORT_DEFAULT;
	d->timeout_ms = CFG_REDIS_TIMEOUT_DEFAULT_MS;
	d->expire_records = true;
}

static int cachedb_yes_no(struct cfg_ctx *x, const char *v, bool *out)
{
	if (strcmp(v, "yes") != 0 && strcmp(v, "no") != 0)
		return cfg_why(x, "%s: expected yes or no, not \"%.40s\"",
		               x->key, v);
	*out = v[0] == 'y';
	return 0;
}

static int cachedb_u32(struct cfg_ctx *x, const char *v, uint32_t lo,
                       uint32_t hi, uint32_t *out)
{
	char *end;
	unsigned long n;

	if (*v < '0' || *v > '9')
		return cfg_why(x, "%s wants a number, not \"%.40s\"", x->key,
		               v);
	n = strtoul(v, &end, 10);
	if (*end != '\0' || n < lo || n > hi)
		return cfg_why(x, "%s must be %u to %u, not \"%.40s\"", x->key,
		               (unsigned)lo, (unsigned)hi, v);
	*out = (uint32_t)n;
	return 0;
}

static int cachedb_text(struct cfg_ctx *x, const char *v, char *dst,
                        size_t cap)
{
	if (strlen(v) >= cap)
		return cfg_why(x, "%s: too long (at most %zu bytes)", x->key,
		               cap - 1);
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

/* cachedb-secret-file: read now, keep the key derived from it. */
static int cachedb_secret(struct cfg_ctx *x, const char *v)
{
	struct cfg_cachedb *d = &x->c->cachedb;
	char why[CFG_WHY_BYTES / 2], *buf = NULL;
	uint8_t h[CFG_CACHEDB_KEY_BYTES];
	size_t len = 0;

	if (cfg_path_join(x->file, v, d->secret_file, sizeof d->secret_file) !=
	    0)
		return cfg_why(x, "%s: path too long", x->key);
	if (fileio_read_path(d->secret_file, CFG_CACHEDB_SECRET_MAX, true,
	                     &buf, &len, why, sizeof why) != FILEIO_OK)
		return cfg_why(x, "%s %.120s: %s", x->key, d->secret_file,
		               why);
	if (len < CFG_CACHEDB_SECRET_MIN) {
		sodium_memzero(buf, len);
		free(buf);
		return cfg_why(x, "%s %.120s: %zu bytes, at least %u needed",
		               x->key, d->secret_file, len,
		               (unsigned)CFG_CACHEDB_SECRET_MIN);
	}
	/* the secret's hash keys the hash of the context: any length */
	crypto_generichash(h, sizeof h, (const uint8_t *)buf, len, NULL, 0);
	crypto_generichash(d->key, sizeof d->key,
	                   (const uint8_t *)cachedb_kdf_context,
	                   sizeof cachedb_kdf_context - 1, h, sizeof h);
	sodium_memzero(h, sizeof h);
	d->key_set = true;
	sodium_memzero(buf, len);
	free(buf);
	return 0;
}

static int cachedb_backend(struct cfg_ctx *x, const char *v)
{
	struct cfg_cachedb *d = &x->c->cachedb;

	if (strcmp(v, "redis") != 0)
		return cfg_why(x,
		               "cachedb-backend: \"%.40s\" is refused: redis "
		               "is the only backend",
		               v);
	d->on = true;
	snprintf(d->on_at, sizeof d->on_at, "%.*s:%zu", CFG_MAX_PATH - 1,
	         x->file, x->line);
	return 0;
}

int cfg_opt_cachedb(struct cfg_ctx *x, char *v)
{
	struct cfg_cachedb *d = &x->c->cachedb;
	const char *k = x->key + strlen("redis-");

	if (strcmp(x->key, "cachedb-backend") == 0)
		return cachedb_backend(x, v);
	if (strcmp(x->key, "cachedb-secret-file") == 0)
		return cachedb_secret(x, v);
	if (strcmp(x->key, "cachedb-no-store") == 0)
		return cachedb_yes_no(x, v, &d->no_store);
	if (strcmp(k, "expire-records") == 0)
		return cachedb_yes_no(x, v, &d->expire_records);
	if (strcmp(k, "timeout") == 0)
		return cachedb_u32(x, v, 1, CFG_REDIS_TIMEOUT_MAX_MS,
		                   &d->timeout_ms);
	if (strcmp(k, "server-port") == 0)
		return cachedb_u32(x, v, 1, UINT16_MAX, &d->port);
	if (strcmp(k, "server-host") == 0)
		return cachedb_text(x, v, d->host, sizeof d->host);
	if (strcmp(k, "server-password") == 0)
		return cachedb_text(x, v, d->password, sizeof d->password);
	if (*v == '\0') {
		d->path[0] = '\0';
		return 0;
	}
	if (cfg_path_join(x->file, v, d->path, sizeof d->path) != 0)
		return cfg_why(x, "%s: path too long", x->key);
	return 0;
}

int cfg_cachedb_end(struct cfg_ctx *x)
{
	const struct cfg_cachedb *d = &x->c->cachedb;

	if (!d->on || d->key_set)
		return 0;
	return cfg_why(x,
	               "%s: cachedb-backend: redis needs cachedb-secret-file: "
	               "(a file of at least %u secret bytes, the same on "
	               "every member of the fleet)",
	               d->on_at, (unsigned)CFG_CACHEDB_SECRET_MIN);
}
