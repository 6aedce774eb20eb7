/*
 * resolver/daemon/autotrust_run.c - RFC 5011 probes in the daemon (see
 * autotrust_run.h): the timer, the probe's end, the file, the anchors.
 */
#include "autotrust_run.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/clock.h"
#include "base/fileio.h"
#include "base/log.h"
#include "cache.h"
#include "conf/cfg.h"
#include "front/server.h"
#include "trust.h"
#include "anchor/autotrust.h"
#include "wire/answer.h"
#include "workers.h"

/** The timer's tick. */
#define AT_TICK_MS 1000u
/** A probe not ended after this long is given up (the resolution has
 *  its own deadline; this only guards the bookkeeping). */
#define AT_PROBE_GIVEUP_S 60
/** Bytes of the DNSKEY set and its RRSIGs read from the cache. */
#define AT_READ_BYTES (64 * 1024)

/** The DNSKEY set of a probe, as views into the run's buffer. */
struct at_set {
	struct dnssec_rdata rd[AUTOTRUST_KEYS_MAX * 2];
	struct dnssec_rdata sig[AUTOTRUST_KEYS_MAX];
	struct dnssec_rrset set;
	size_t nsigs;
	uint32_t ttl;
};

/** One auto-trust-anchor-file. */
struct at_file {
	char path[CFG_MAX_PATH];
	struct autotrust_zone z;
	bool ok; /**< read: probed */
};

struct autotrust_run {
	uv_timer_t timer;
	bool timer_open;
	struct server *srv;
	struct cache *cache;
	struct workers *w;
	const struct cfg *cfg;
	struct at_file f[CFG_MAX_TRUST_FILES];
	size_t n;
	bool probing;
	size_t probe_i; /**< the file probed */
	time_t probe_start;
	unsigned gen, probe_gen; /**< a reload ignores the probe in flight */
	uint8_t buf[AT_READ_BYTES];
	struct at_set set; /**< views into buf */
	char text[AUTOTRUST_TEXT_MAX];
};

static void params_of(const struct cfg *c, struct autotrust_params *p)
{
	p->add_holddown = c->add_holddown;
	p->del_holddown = c->del_holddown;
	p->keep_missing = c->keep_missing;
	p->permit_small = c->permit_small_holddown;
}

static void zone_text(const struct autotrust_zone *z, char *out, size_t cap)
{
	if (wire_name_to_text(z->name, z->namelen, out, cap, NULL) != WIRE_OK)
		snprintf(out, cap, "?");
}

/* Can the run user replace the file (write its directory)? */
static void check_writable(const char *path)
{
	char dir[CFG_MAX_PATH];

	if (fileio_dir_of(path, dir, sizeof dir) != 0)
		snprintf(dir, sizeof dir, ".");
	if (access(dir, W_OK) != 0 ||
	    (access(path, F_OK) == 0 && access(path, W_OK) != 0))
		log_warn("autotrust_file_unwritable",
		         "file=%s dir=%s error=%s uid=%ld kept=memory_only",
		         path, dir, strerror(errno), (long)geteuid());
}

/* Read the files named by the config. */
static void files_read(struct autotrust_run *r)
{
	char err[AUTOTRUST_ERR_MAX];
	size_t i;

	r->n = r->cfg->dnssec ? r->cfg->n_auto_trust_anchor_file : 0;
	for (i = 0; i < r->n; i++) {
		struct at_file *f = &r->f[i];

		snprintf(f->path, sizeof f->path, "%s",
		         r->cfg->auto_trust_anchor_file[i]);
		f->ok = trust_auto_read(f->path, &f->z, err, sizeof err) == 0;
		if (!f->ok)
			log_error("autotrust_read_failed", "error=%s", err);
		else
			check_writable(f->path);
	}
}

/* Write a file: a temporary beside it, fsync, rename. */
static int file_write(struct autotrust_run *r, struct at_file *f)
{
	char tmp[CFG_MAX_PATH + 16];
	size_t len = 0, off = 0;
	ssize_t k;
	int fd, rc = -1;

	if (autotrust_file_text(&f->z, r->text, sizeof r->text, &len) !=
	    AUTOTRUST_OK) {
		errno = ENOSPC;
		return -1;
	}
	snprintf(tmp, sizeof tmp, "%s.XXXXXX", f->path);
	fd = mkstemp(tmp);
	if (fd < 0)
		return -1;
	while (off < len && (k = write(fd, r->text + off, len - off)) > 0)
		off += (size_t)k;
	if (off == len && fchmod(fd, 0644) == 0 && fsync(fd) == 0)
		rc = 0;
	if (close(fd) != 0)
		rc = -1;
	if (rc == 0 && fileio_replace(tmp, f->path) == 0)
		return 0;
	k = errno;
	(void)unlink(tmp);
	errno = (int)k;
	return -1;
}

/* On a worker's thread: its anchors again, from the files. */
static void worker_anchors(struct server *srv, struct cfg *cfg, void *arg)
{
	char err[ANCHOR_ERR_MAX];
	struct anchors *a = NULL;

	(void)arg;
	if (trust_anchors_load(cfg, &a, err, sizeof err) != 0)
		log_error("autotrust_anchors_failed", "error=%s", err);
	else if (server_anchors_set(srv, a) != SERVER_OK)
		log_error("autotrust_anchors_failed", "error=%s",
		          "out of memory");
}

/* The trusted keys changed: every worker takes the files again. */
static void anchors_give(struct autotrust_run *r, struct at_file *f)
{
	char name[WIRE_NAME_TEXT_MAX];

	zone_text(&f->z, name, sizeof name);
	log_info("autotrust_anchors", "zone=%s trusted=%zu", name,
	         autotrust_trusted(&f->z));
	worker_anchors(r->srv, (struct cfg *)r->cfg, NULL);
	workers_each(r->w, worker_anchors, NULL);
}

static void log_events(const struct at_file *f,
                       const struct autotrust_events *ev)
{
	char name[WIRE_NAME_TEXT_MAX];
	size_t i;

	zone_text(&f->z, name, sizeof name);
	for (i = 0; i < ev->n; i++)
		log_info("autotrust_key",
		         "zone=%s tag=%u ds=%s from=%s to=%s why=%s", name,
		         (unsigned)ev->ev[i].tag, ev->ev[i].ds ? "yes" : "no",
		         autotrust_state_name(ev->ev[i].from),
		         autotrust_state_name(ev->ev[i].to), ev->ev[i].why);
	if (ev->revoked_all)
		log_error("autotrust_revoked_all",
		          "zone=%s file=%s anchors=unchanged", name, f->path);
}

/* The validated DNSKEY set of a zone from the cache; false if it is not
 * there or not SECURE. */
static bool set_read(struct autotrust_run *r, const struct autotrust_zone *z,
                     time_t now, struct at_set *s)
{
	struct cache_query q = { z->name, z->namelen, DNSSEC_TYPE_DNSKEY,
		                 WIRE_CLASS_IN, CACHE_GET_DNSSEC };
	struct cache_answer ans;
	struct answer_rr rr;
	size_t pos = 0, n = 0;

	memset(s, 0, sizeof *s);
	if (cache_get(r->cache, &q, now, &ans, r->buf, sizeof r->buf) !=
	            CACHE_OK ||
	    ans.kind != CACHE_KIND_RRSET || ans.sec != CACHE_SEC_SECURE)
		return false;
	while (n < AUTOTRUST_KEYS_MAX * 2 &&
	       answer_rr_next(r->buf, ans.len, &pos, &rr)) {
		s->rd[n].msg = r->buf;
		s->rd[n].msglen = ans.len;
		s->rd[n].off = rr.rdata;
		s->rd[n++].len = rr.rdlen;
	}
	pos = ans.len;
	while (s->nsigs < AUTOTRUST_KEYS_MAX &&
	       answer_rr_next(r->buf, ans.len + ans.dnssec_len, &pos, &rr))
		if (rr.type == DNSSEC_TYPE_RRSIG) {
			s->sig[s->nsigs].msg = r->buf;
			s->sig[s->nsigs].msglen = ans.len + ans.dnssec_len;
			s->sig[s->nsigs].off = rr.rdata;
			s->sig[s->nsigs++].len = rr.rdlen;
		}
	s->set.owner = z->name;
	s->set.ownerlen = z->namelen;
	s->set.type = DNSSEC_TYPE_DNSKEY;
	s->set.rclass = WIRE_CLASS_IN;
	s->set.rd = s->rd;
	s->set.count = n;
	s->ttl = ans.orig_ttl;
	return n > 0;
}

/* A probe's result into the state machine; the file and anchors. */
static void probe_done(struct autotrust_run *r, struct at_file *f)
{
	struct at_set *s = &r->set;
	struct autotrust_params p;
	struct autotrust_events ev;
	char name[WIRE_NAME_TEXT_MAX];
	time_t now = clock_wall_s();
	const char *result = "failed";
	int rc;

	params_of(r->cfg, &p);
	memset(&ev, 0, sizeof ev);
	if (set_read(r, &f->z, now, s)) {
		rc = autotrust_update(&f->z, &p, &s->set, s->sig, s->nsigs,
		                      s->ttl, now, &ev);
		result = rc == AUTOTRUST_OK ? "ok" : "untrusted";
	} else {
		autotrust_failed(&f->z, &p, now);
	}
	zone_text(&f->z, name, sizeof name);
	log_info("autotrust_probe",
	         "zone=%s result=%s keys=%zu trusted=%zu next_probe=%lld",
	         name, result, f->z.nkeys, autotrust_trusted(&f->z),
	         (long long)f->z.next_probe);
	log_events(f, &ev);
	if (file_write(r, f) != 0) {
		log_error("autotrust_write_failed",
		          "file=%s error=%s uid=%ld anchors=unchanged",
		          f->path, strerror(errno), (long)geteuid());
		return;
	}
	if (ev.anchors_changed)
		anchors_give(r, f);
}

static void probe_cb(void *arg)
{
	struct autotrust_run *r = arg;

	r->probing = false;
	if (r->probe_gen != r->gen || r->probe_i >= r->n ||
	    !r->f[r->probe_i].ok)
		return;
	probe_done(r, &r->f[r->probe_i]);
}

static void tick_cb(uv_timer_t *t)
{
	struct autotrust_run *r = t->data;
	time_t now = clock_wall_s();
	size_t i;

	if (r->probing && now - r->probe_start < AT_PROBE_GIVEUP_S)
		return;
	if (r->probing)
		r->gen++; /* given up: its late end changes nothing */
	r->probing = false;
	for (i = 0; i < r->n; i++) {
		struct at_file *f = &r->f[i];

		if (!f->ok || f->z.next_probe > now)
			continue;
		r->probing = true;
		r->probe_i = i;
		r->probe_gen = r->gen;
		r->probe_start = now;
		if (server_probe(r->srv, f->z.name, f->z.namelen,
		                 DNSSEC_TYPE_DNSKEY, probe_cb,
		                 r) != SERVER_OK) {
			r->probing = false;
			continue;
		}
		return;
	}
}

int autotrust_run_start(struct autotrust_run **out, uv_loop_t *loop,
                        struct server *srv, struct cache *cache,
                        struct workers *w, const struct cfg *cfg)
{
	struct autotrust_run *r;

	*out = NULL;
	if (!cfg->dnssec || cfg->n_auto_trust_anchor_file == 0)
		return 0;
	r = calloc(1, sizeof *r);
	if (r == NULL)
		return -1;
	r->srv = srv;
	r->cache = cache;
	r->w = w;
	r->cfg = cfg;
	files_read(r);
	if (uv_timer_init(loop, &r->timer) != 0) {
		free(r);
		return -1;
	}
	r->timer.data = r;
	r->timer_open = true;
	(void)uv_timer_start(&r->timer, tick_cb, AT_TICK_MS, AT_TICK_MS);
	*out = r;
	return 0;
}

void autotrust_run_reload(struct autotrust_run *r)
{
	if (r == NULL)
		return;
	r->gen++;
	files_read(r);
}

void autotrust_run_close(struct autotrust_run *r)
{
	if (r == NULL || !r->timer_open)
		return;
	r->gen++; /* a probe ended by the stop changes nothing */
	uv_close((uv_handle_t *)&r->timer, NULL);
	r->timer_open = false;
}

void autotrust_run_free(struct autotrust_run *r)
{
	free(r);
}
