/*
 * resolver/ops.c - client key, cache file and sd_notify for the daemon
 * (see ops.h).
 */
#include "ops.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <sodium.h>

#include "curve.h"
#include "log.h"
#include "notify.h"
#include "persist.h"
#include "upstream.h"

/* A key file must be a regular file of mode 0600 or stricter (the rule
 * curve_client_load applies, said clearly); a missing one is made. */
static int check_key_file(const char *kf, char *err, size_t errlen)
{
	struct stat sb;
	int rc;

	if (stat(kf, &sb) != 0) {
		if (errno != ENOENT) {
			snprintf(err, errlen, "curve-key-file %s: %s", kf,
			         strerror(errno));
			return -1;
		}
		rc = curve_keyfile_generate(kf);
		if (rc != CURVE_OK) {
			snprintf(err, errlen, "curve-key-file %s: cannot create "
			         "it: %s (%s)", kf, curve_strerror(rc),
			         strerror(errno));
			return -1;
		}
		log_info("curve_key_created", "file=%s", kf);
		return 0;
	}
	if (!S_ISREG(sb.st_mode)) {
		snprintf(err, errlen, "curve-key-file %s: not a regular file",
		         kf);
		return -1;
	}
	if (sb.st_mode & 07777 & ~(mode_t)0600) {
		snprintf(err, errlen, "curve-key-file %s: mode %04o; a secret "
		         "key file must be mode 0600 or stricter (chmod 600 %s)",
		         kf, (unsigned)(sb.st_mode & 07777), kf);
		return -1;
	}
	return 0;
}

/* The client key's public half, shortened: which key is in use. */
static void key_id(const struct curve_client *cl, char *out, size_t cap)
{
	uint8_t pk[CURVE_KEY_BYTES];

	curve_client_pk(cl, pk);
	sodium_bin2hex(out, cap, pk, OPS_KEY_ID_BYTES);
}

int ops_curve_open(const struct cfg *c, struct curve_client **out,
                   char *err, size_t errlen)
{
	const char *kf = c->curve_key_file;
	char id[2 * OPS_KEY_ID_BYTES + 1];
	int rc;

	if (kf[0] != '\0' && check_key_file(kf, err, errlen) != 0)
		return -1;
	if (kf[0] != '\0')
		rc = curve_client_load(out, 0, kf);
	else
		rc = curve_client_new(out, 0);
	if (rc != CURVE_OK) {
		snprintf(err, errlen, "DNSCurve client key%s%s: %s",
		         kf[0] ? " " : "", kf, curve_strerror(rc));
		return -1;
	}
	key_id(*out, id, sizeof id);
	log_info("curve_key", "source=%s key_id=%s rotate=%" PRIu32 "s",
	         kf[0] ? "file" : "fresh", id, c->curve_key_rotate_s);
	return 0;
}

void ops_curve_rotate(struct curve_client *cl, uint32_t period_s)
{
	char id[2 * OPS_KEY_ID_BYTES + 1];
	struct curve_stats st;
	int rc = curve_client_rotate(cl);

	if (rc != CURVE_OK) {
		log_error("curve_key_rotate_failed", "error=%s",
		          curve_strerror(rc));
		return;
	}
	curve_client_stats(cl, &st);
	key_id(cl, id, sizeof id);
	log_info("curve_key_rotated", "key_id=%s rotations=%" PRIu64
	         " next_in=%" PRIu32 "s", id, st.rotations, period_s);
}

void ops_cache_load(struct cache *cache, const struct cfg *c)
{
	const char *f = c->cache_file;
	uint64_t max = 4 * c->cache_size + OPS_CACHE_FILE_SLACK;
	char err[PERSIST_ERR_BYTES];
	struct persist_counts n;
	int rc;

	if (f[0] == '\0')
		return;
	rc = persist_cache_load(cache, f, time(NULL), max, &n, err,
	                        sizeof err);
	if (rc == PERSIST_ENOENT)
		log_info("cache_file_absent", "file=%s", f);
	else if (rc != PERSIST_OK)
		log_warn("cache_file_skipped", "file=%s error=%s", f, err);
	else
		log_info("cache_loaded", "file=%s entries=%zu records=%zu "
		         "expired=%zu kept=%zu bytes=%" PRIu64, f, n.entries,
		         n.records, n.expired, n.kept, n.bytes);
}

void ops_cache_save(struct cache *cache, const struct cfg *c)
{
	const char *f = c->cache_file;
	char err[PERSIST_ERR_BYTES];
	struct persist_counts n;
	uint64_t t0 = upstream_now_ms();

	if (f[0] == '\0')
		return;
	if (persist_cache_save(cache, f, time(NULL), &n, err, sizeof err) !=
	    PERSIST_OK)
		log_error("cache_save_failed", "file=%s error=%s", f, err);
	else
		log_info("cache_saved", "file=%s entries=%zu records=%zu "
		         "bytes=%" PRIu64 " ms=%" PRIu64, f, n.entries,
		         n.records, n.bytes, upstream_now_ms() - t0);
}

void ops_notify(const char *state)
{
	int rc = notify_send(state);

	if (rc == NOTIFY_EADDR || rc == NOTIFY_ESEND)
		log_warn("notify_failed", "socket=%s error=%s",
		         getenv("NOTIFY_SOCKET"), rc == NOTIFY_EADDR ?
		         "bad NOTIFY_SOCKET" : strerror(errno));
}
