/*
 * resolver/front/cachedb_step.c - the Redis tier's step in the resolution
 * path (see cachedb_step.h): the worker's connection, the lookup of a
 * local miss (key, GET, the image checked and loaded into the cache) and
 * the write at a resolution's end.
 */
#include "cachedb_step.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/log.h"
#include "server_int.h"
#include "store/cachedb.h"
#include "transport/cachedb_redis.h"

_Static_assert(CACHEDB_REDIS_VALUE_MAX == CACHEDB_IMAGE_MAX,
               "a Redis value holds any record image");

/** Nanoseconds per microsecond (uv_hrtime). */
#define CACHEDB_NS_PER_US 1000u

/** The tier in one worker: its connection, the space to build records. */
struct cachedb_worker {
	struct cachedb_redis *r;
	struct cachefile_load *ld; /**< reused for every record read */
	uint8_t scratch[CACHEDB_SCRATCH_BYTES];
};

/** A lookup in flight: the question and whom to tell. */
struct cachedb_fetch {
	struct server *s;
	cachedb_step_fn *fn;
	void *arg;
	struct cachedb_redis_call *call;
	uint64_t start_ns;
	uint8_t qname[WIRE_NAME_MAX];
	struct cachedb_question q;
};

/* The worker's connection, made at the first use; NULL when off. */
static struct cachedb_redis *step_conn(struct server *s)
{
	const struct cfg_cachedb *c = &s->cfg->cachedb;
	struct cachedb_redis_params p = { c->host, c->port, c->path,
		                          c->password, c->timeout_ms };

	if (!c->on || !c->key_set || s->stopping)
		return NULL;
	if (s->cdb == NULL) {
		if ((s->cdb = calloc(1, sizeof *s->cdb)) == NULL)
			return NULL;
		if (cachefile_load_new(s->cache, 0, &s->cdb->ld) !=
		    CACHEFILE_OK)
			s->cdb->ld = NULL; /* then one per record */
	}
	if (s->cdb->r == NULL)
		s->cdb->r = cachedb_redis_new(s->loop, &p);
	return s->cdb->r;
}

/* A value from Redis: the image checked, its entries into the cache. */
static bool step_take(struct cachedb_fetch *f, const uint8_t *val, size_t len)
{
	struct server *s = f->s;
	struct cachedb_image img;
	time_t now = clock_wall_s();
	int rc;

	rc = cachedb_image_parse(val, len, s->cfg->cachedb.key, now, &f->q,
	                         &img);
	if (rc == CACHEDB_OK)
		rc = cachedb_image_load(s->cache, s->cdb->ld, now, &img, NULL);
	if (rc == CACHEDB_OK)
		return true;
	if (rc == CACHEDB_EEXPIRED || rc == CACHEDB_EEMPTY)
		s->st.cachedb_misses++;
	else
		s->st.cachedb_refused++;
	if (rc != CACHEDB_EEXPIRED && rc != CACHEDB_EEMPTY)
		log_event_limited(CFG_LOG_INFO, "cachedb_refused",
		                  "why=%s bytes=%zu", cachedb_strerror(rc),
		                  len);
	return false;
}

static void step_reply(void *arg, enum cachedb_redis_result res,
                       const uint8_t *val, size_t len)
{
	struct cachedb_fetch *f = arg;
	struct server *s = f->s;
	uint64_t now = uv_hrtime();
	bool hit = false;

	s->st.cachedb_lookups++;
	s->st.cachedb_lookup_usec +=
		now > f->start_ns ? (now - f->start_ns) / CACHEDB_NS_PER_US :
				    0;
	if (res == CACHEDB_REDIS_HIT)
		hit = step_take(f, val, len);
	else if (res == CACHEDB_REDIS_MISS)
		s->st.cachedb_misses++;
	else
		s->st.cachedb_errors++;
	if (hit)
		s->st.cachedb_hits++;
	f->call = NULL;
	f->fn(f->arg, hit);
	free(f);
}

struct cachedb_fetch *cachedb_step_fetch(struct server *s,
                                         const uint8_t *lname, size_t len,
                                         uint16_t qtype, uint16_t qclass,
                                         cachedb_step_fn *fn, void *arg)
{
	struct cachedb_redis *r = step_conn(s);
	char key[CACHEDB_KEY_TEXT_BYTES];
	struct cachedb_fetch *f;

	if (r == NULL || len > WIRE_NAME_MAX)
		return NULL;
	if (cachedb_redis_state(r) != CACHEDB_REDIS_UP ||
	    (f = calloc(1, sizeof *f)) == NULL) {
		s->st.cachedb_skipped++;
		return NULL;
	}
	f->s = s;
	f->fn = fn;
	f->arg = arg;
	memcpy(f->qname, lname, len);
	f->q = (struct cachedb_question){ f->qname, len, qtype, qclass, 0 };
	cachedb_key_text(s->cfg->cachedb.key, &f->q, key);
	f->start_ns = uv_hrtime();
	f->call = cachedb_redis_get(r, key, step_reply, f);
	if (f->call == NULL) {
		s->st.cachedb_skipped++;
		free(f);
		return NULL;
	}
	return f;
}

void cachedb_step_cancel(struct cachedb_fetch *f)
{
	if (f == NULL)
		return;
	cachedb_redis_cancel(f->call);
	free(f);
}

void cachedb_step_store(struct server *s, const uint8_t *lname, size_t len,
                        uint16_t qtype, uint16_t qclass)
{
	struct cachedb_question q = { lname, len, qtype, qclass, 0 };
	struct cachedb_redis *r = step_conn(s);
	char key[CACHEDB_KEY_TEXT_BYTES];
	uint8_t *img = NULL;
	size_t n = 0;
	uint32_t ttl = 0;

	if (r == NULL || s->cfg->cachedb.no_store ||
	    cachedb_redis_state(r) != CACHEDB_REDIS_UP)
		return;
	if (cachedb_image_build(s->cache, clock_wall_s(), s->cfg->cachedb.key,
	                        &q, s->cdb->scratch, sizeof s->cdb->scratch,
	                        &img, &n, &ttl) != CACHEDB_OK)
		return;
	cachedb_key_text(s->cfg->cachedb.key, &q, key);
	if (cachedb_redis_set(r, key, img, n,
	                      s->cfg->cachedb.expire_records ? ttl : 0))
		s->st.cachedb_stores++;
	free(img);
}

void cachedb_step_start(struct server *s)
{
	(void)step_conn(s);
}

void cachedb_step_stop(struct server *s)
{
	if (s->cdb != NULL) {
		cachedb_redis_free(s->cdb->r);
		cachefile_load_free(s->cdb->ld);
	}
	free(s->cdb);
	s->cdb = NULL;
}

void cachedb_step_status(const struct server *s, char *out, size_t cap)
{
	const struct cfg_cachedb *c = &s->cfg->cachedb;
	const struct cachedb_redis *r = s->cdb != NULL ? s->cdb->r : NULL;

	if (!c->on) {
		snprintf(out, cap, "off");
		return;
	}
	if (c->path[0] != '\0')
		snprintf(out, cap, "redis unix:%s %s", c->path,
		         cachedb_redis_state_name(cachedb_redis_state(r)));
	else
		snprintf(out, cap, "redis %s:%u %s", c->host,
		         (unsigned)c->port,
		         cachedb_redis_state_name(cachedb_redis_state(r)));
}
