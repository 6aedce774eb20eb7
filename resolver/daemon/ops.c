/*
 * resolver/daemon/ops.c - client key, cache file and sd_notify for the daemon
 * (see ops.h).
 */
#include "ops.h"

#include <errno.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <sodium.h>

#include "base/clock.h"
#include "curve.h"
#include "infra/hints.h"
#include "policy/localdata.h"
#include "policy/localzone.h"
#include "base/log.h"
#include "base/netaddr.h"
#include "notify.h"
#include "trust.h"
#include "store/persist.h"

/** What a config note says before its reason (cfg.h: notes). */
#define OPS_IGNORED "ignored ("

/** Bytes of the reason curve_client_load_why gives. */
#define OPS_WHY_BYTES 512

/* A key file must be a regular file of mode 0600 or stricter (the rule
 * curve_client_load applies, said clearly). */
static int key_file_ok(const char *kf, const struct stat *sb, char *err,
                       size_t errlen)
{
	if (!S_ISREG(sb->st_mode)) {
		snprintf(err, errlen, "curve-key-file %s: not a regular file",
		         kf);
		return -1;
	}
	if (sb->st_mode & 07777 & ~(mode_t)0600) {
		snprintf(err, errlen,
		         "curve-key-file %s: mode %04o; a secret "
		         "key file must be mode 0600 or stricter (chmod 600 "
		         "%s)",
		         kf, (unsigned)(sb->st_mode & 07777), kf);
		return -1;
	}
	return 0;
}

/* key_file_ok, and a missing key file is made. */
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
			snprintf(err, errlen,
			         "curve-key-file %s: cannot create "
			         "it: %s (%s)",
			         kf, curve_strerror(rc), strerror(errno));
			return -1;
		}
		log_info("curve_key_created", "file=%s", kf);
		return 0;
	}
	return key_file_ok(kf, &sb, err, errlen);
}

/* The client key's public half, shortened: which key is in use. */
static void key_id(const struct curve_client *cl, char *out, size_t cap)
{
	uint8_t pk[CURVE_KEY_BYTES];

	curve_client_pk(cl, pk);
	sodium_bin2hex(out, cap, pk, OPS_KEY_ID_BYTES);
}

/* A curve-key-file problem (err) under the FILE:LINE of its option. */
static int key_failed(const struct cfg *c, char *err, size_t errlen)
{
	char why[CFG_ERR_BYTES];

	if (c->curve_key_file[0] == '\0' || c->curve_key_file_at[0] == '\0')
		return -1;
	snprintf(why, sizeof why, "%s", err);
	snprintf(err, errlen, "%s: %s", c->curve_key_file_at, why);
	return -1;
}

int ops_curve_open(const struct cfg *c, struct curve_client **out, char *err,
                   size_t errlen)
{
	const char *kf = c->curve_key_file;
	char id[2 * OPS_KEY_ID_BYTES + 1], why[OPS_WHY_BYTES] = "";
	int rc;

	if (kf[0] != '\0' && check_key_file(kf, err, errlen) != 0)
		return key_failed(c, err, errlen);
	if (kf[0] != '\0')
		rc = curve_client_load_why(out, 0, kf, why, sizeof why);
	else
		rc = curve_client_new(out, 0);
	if (rc != CURVE_OK && why[0] != '\0') {
		snprintf(err, errlen, "DNSCurve client key: %s", why);
		return key_failed(c, err, errlen);
	}
	if (rc != CURVE_OK) {
		snprintf(err, errlen, "DNSCurve client key%s%s: %s",
		         kf[0] ? " " : "", kf, curve_strerror(rc));
		return key_failed(c, err, errlen);
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
	log_info("curve_key_rotated",
	         "key_id=%s rotations=%" PRIu64 " next_in=%" PRIu32 "s", id,
	         st.rotations, period_s);
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
		log_info("cache_loaded",
		         "file=%s entries=%zu records=%zu "
		         "expired=%zu kept=%zu bytes=%" PRIu64,
		         f, n.entries, n.records, n.expired, n.kept, n.bytes);
}

void ops_cache_save(struct cache *cache, const struct cfg *c)
{
	const char *f = c->cache_file;
	char err[PERSIST_ERR_BYTES];
	struct persist_counts n;
	uint64_t t0 = clock_ms();

	if (f[0] == '\0')
		return;
	if (persist_cache_save(cache, f, time(NULL), &n, err, sizeof err) !=
	    PERSIST_OK)
		log_error("cache_save_failed", "file=%s error=%s", f, err);
	else
		log_info("cache_saved",
		         "file=%s entries=%zu records=%zu "
		         "bytes=%" PRIu64 " ms=%" PRIu64,
		         f, n.entries, n.records, n.bytes, clock_ms() - t0);
}

void ops_notify(const char *state)
{
	int rc = notify_send(state);

	if (rc == NOTIFY_EADDR || rc == NOTIFY_ESEND)
		log_warn("notify_failed", "socket=%s error=%s",
		         getenv("NOTIFY_SOCKET"),
		         rc == NOTIFY_EADDR ? "bad NOTIFY_SOCKET" :
		                              strerror(errno));
}

/* ------------------------------------------------------------------ */
/* Reload: the options that need a restart                             */

/* Whether the listen addresses differ; a port: change alone does not
 * count for the addresses written without one (it is reported as port). */
static bool listen_changed(const struct cfg *old, const struct cfg *nc)
{
	size_t i;

	if (nc->n_listen != old->n_listen)
		return true;
	for (i = 0; i < nc->n_listen; i++) {
		struct cfg_addr a = old->listen[i], b = nc->listen[i];

		if (!a.port_given && !b.port_given &&
		    a.sa.ss_family == b.sa.ss_family)
			netaddr_set_port((struct sockaddr *)&b.sa,
			                 netaddr_port((struct sockaddr *)&a
			                                      .sa));
		if (memcmp(&a, &b, sizeof a) != 0)
			return true;
	}
	return false;
}

/* Append name to the comma-separated list if changed. */
static void note_changed(char *list, size_t cap, bool changed,
                         const char *name)
{
	size_t n = strlen(list);

	if (changed && n < cap)
		snprintf(list + n, cap - n, "%s%s", n ? "," : "", name);
}

/* The restart-only options a reload would change: warn, naming them. */
static void warn_restart_only(const struct cfg *old, const struct cfg *nc)
{
	char names[256] = "";

	note_changed(names, sizeof names, nc->port != old->port, "port");
	note_changed(names, sizeof names, listen_changed(old, nc), "listen");
	note_changed(names, sizeof names, strcmp(nc->user, old->user) != 0,
	             "user");
	note_changed(names, sizeof names, nc->cache_size != old->cache_size,
	             "cache-size");
	note_changed(names, sizeof names, nc->min_ttl != old->min_ttl,
	             "min-ttl");
	note_changed(names, sizeof names, nc->max_ttl != old->max_ttl,
	             "max-ttl");
	note_changed(names, sizeof names, nc->neg_max_ttl != old->neg_max_ttl,
	             "negative-max-ttl");
	note_changed(names, sizeof names,
	             strcmp(nc->curve_key_file, old->curve_key_file) != 0,
	             "curve-key-file");
	note_changed(names, sizeof names, nc->threads != old->threads,
	             "threads");
	note_changed(names, sizeof names,
	             strcmp(nc->control_socket, old->control_socket) != 0,
	             "control-socket");
	note_changed(names, sizeof names,
	             strcmp(nc->pidfile, old->pidfile) != 0, "pidfile");
	note_changed(names, sizeof names, nc->ip_freebind != old->ip_freebind,
	             "ip-freebind");
	note_changed(names, sizeof names, nc->tls_port != old->tls_port,
	             "tls-port");
	note_changed(names, sizeof names,
	             nc->incoming_num_tcp != old->incoming_num_tcp,
	             "incoming-num-tcp");
	if (names[0] != '\0')
		log_warn("reload_partial", "restart_needed=%s kept=running",
		         names);
}

void ops_keep_restart_only(const struct cfg *old, struct cfg *nc)
{
	warn_restart_only(old, nc);
	nc->port = old->port;
	nc->tls_port = old->tls_port;
	nc->incoming_num_tcp = old->incoming_num_tcp;
	nc->n_listen = old->n_listen;
	memcpy(nc->listen, old->listen, sizeof nc->listen);
	memcpy(nc->user, old->user, sizeof nc->user);
	nc->cache_size = old->cache_size;
	nc->min_ttl = old->min_ttl;
	nc->max_ttl = old->max_ttl;
	nc->neg_max_ttl = old->neg_max_ttl;
	memcpy(nc->curve_key_file, old->curve_key_file,
	       sizeof nc->curve_key_file);
	nc->threads = old->threads;
	memcpy(nc->control_socket, old->control_socket,
	       sizeof nc->control_socket);
	memcpy(nc->pidfile, old->pidfile, sizeof nc->pidfile);
	nc->ip_freebind = old->ip_freebind;
}

/* ------------------------------------------------------------------ */
/* Files a reload reads, the check of -t, the pidfile                  */

/* One note, "FILE:LINE: OPTION: ignored (WHY)" (cfg.h: notes), as a
 * structured line: the line number is the first ":DIGITS: " (a file
 * name may hold colons, rarely digits after one). */
static void note_log(const char *s, size_t n)
{
	const char *p, *end = s + n, *key, *why, *note;
	char *num_end = NULL;
	unsigned long line = 0;

	for (p = s; p < end && (p = memchr(p, ':', (size_t)(end - p))); p++) {
		line = strtoul(p + 1, &num_end, 10);
		if (p[1] >= '0' && p[1] <= '9' && num_end + 1 < end &&
		    num_end[0] == ':' && num_end[1] == ' ')
			break;
	}
	if (p == NULL || p >= end) {
		log_info("config_note", "note=%.*s", (int)n, s);
		return;
	}
	key = num_end + 2;
	why = memchr(key, ':', (size_t)(end - key));
	if (why == NULL)
		why = end;
	note = why < end ? why + 2 : end;
	/* "ignored (WHY)": the WHY */
	if ((size_t)(end - note) > sizeof OPS_IGNORED &&
	    memcmp(note, OPS_IGNORED, sizeof OPS_IGNORED - 1) == 0 &&
	    end[-1] == ')') {
		note += sizeof OPS_IGNORED - 1;
		end--;
	}
	log_info("config_note", "file=%.*s line=%lu option=%.*s note=%.*s",
	         (int)(p - s), s, line, (int)(why - key), key,
	         (int)(end - note), note);
}

void ops_notes_log(const struct cfg *c)
{
	const char *s = c->notes, *nl;

	for (; *s != '\0'; s = nl + 1) {
		nl = strchr(s, '\n');
		if (nl == NULL)
			nl = s + strlen(s);
		if (nl > s)
			note_log(s, (size_t)(nl - s));
		if (*nl == '\0')
			break;
	}
}

/* A file a reload reads, opened as the run user: 0, or -1 naming it. */
static int readable_as(const char *opt, const char *file, const char *user,
                       char *err, size_t errlen)
{
	int fd;

	if (file[0] == '\0')
		return 0;
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		close(fd);
		return 0;
	}
	snprintf(err, errlen,
	         "%s %s: cannot be read by user %s: %s "
	         "(a reload reads it)",
	         opt, file, user, strerror(errno));
	return -1;
}

/* The trust-anchor files a reload reads (trust.h), each named with the
 * FILE:LINE of its option. */
static int trust_files_readable(const struct cfg *c, const char *user,
                                char *err, size_t errlen)
{
	char opt[CFG_TRUST_AT_BYTES + 32];
	size_t i;

	for (i = 0; i < c->n_trust_anchor_file; i++) {
		snprintf(opt, sizeof opt, "%s: trust-anchor-file",
		         c->trust_anchor_file_at[i]);
		if (readable_as(opt, c->trust_anchor_file[i], user, err,
		                errlen) != 0)
			return -1;
	}
	for (i = 0; i < c->n_auto_trust_anchor_file; i++) {
		snprintf(opt, sizeof opt, "%s: auto-trust-anchor-file",
		         c->auto_trust_anchor_file_at[i]);
		if (readable_as(opt, c->auto_trust_anchor_file[i], user, err,
		                errlen) != 0)
			return -1;
	}
	return 0;
}

int ops_reload_files_check(const struct cfg *c, const char *path,
                           const char *user, char *err, size_t errlen)
{
	const char *const opt[] = { "root-hints", "local-data-file",
		                    "block-file", "tls-service-key",
		                    "tls-service-pem" };
	const char *const file[] = { c->root_hints, c->local_data_file,
		                     c->block_file, c->tls_service_key,
		                     c->tls_service_pem };
	char why[CFG_ERR_BYTES];
	struct cfg *scratch = malloc(sizeof(*scratch));
	size_t i;
	int rc;

	if (scratch == NULL) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	rc = cfg_load(path, scratch, why, sizeof why);
	free(scratch);
	if (rc != 0) {
		snprintf(err, errlen,
		         "%s (read as user %s: a reload reads "
		         "it)",
		         why, user);
		return -1;
	}
	for (i = 0; i < sizeof opt / sizeof opt[0]; i++)
		if (readable_as(opt[i], file[i], user, err, errlen) != 0)
			return -1;
	return trust_files_readable(c, user, err, errlen);
}

/* curve-key-file as -t sees it: absent (made at start) or good. */
static int check_key_file_only(const char *kf, char *err, size_t errlen)
{
	struct stat sb;

	if (kf[0] == '\0')
		return 0;
	if (stat(kf, &sb) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "curve-key-file %s: %s", kf,
		         strerror(errno));
		return -1;
	}
	return key_file_ok(kf, &sb, err, errlen);
}

int ops_config_check(const struct cfg *c, char *err, size_t errlen)
{
	struct hints *h = NULL;
	struct localdata *ld = NULL;
	struct localzone *lz = NULL;
	struct anchors *a = NULL;
	char used[CFG_MAX_PATH], note[HINTS_ERR_BYTES];

	if (hints_select(c->root_hints, HINTS_DEBIAN_FILE, &h, used,
	                 sizeof used, note, sizeof note) != HINTS_OK) {
		cfg_root_hints_error(c, note, err, errlen);
		return -1;
	}
	hints_free(h);
	if (trust_anchors_load(c, &a, err, errlen) != 0)
		return -1;
	anchors_free(a);
	if (localdata_load(c->local_data_file, c->block_file, &ld, err,
	                   errlen) != LOCALDATA_OK) {
		cfg_file_error(c, err, errlen);
		return -1;
	}
	localdata_free(ld);
	if (localzone_build(c->local, &lz, err, errlen) != LOCALZONE_OK)
		return -1;
	localzone_free(lz);
	if (check_key_file_only(c->curve_key_file, err, errlen) != 0)
		return key_failed(c, err, errlen);
	return 0;
}

int ops_pidfile_write(const char *path, char *err, size_t errlen)
{
	char text[32];
	int fd, n;
	ssize_t w;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC,
	          0644);
	if (fd < 0) {
		snprintf(err, errlen, "pidfile %s: cannot write it: %s", path,
		         strerror(errno));
		return -1;
	}
	n = snprintf(text, sizeof text, "%ld\n", (long)getpid());
	w = write(fd, text, (size_t)n);
	if (w != n || close(fd) != 0) {
		snprintf(err, errlen, "pidfile %s: cannot write it: %s", path,
		         w < 0 ? strerror(errno) : "short write");
		if (w != n)
			close(fd);
		(void)unlink(path);
		return -1;
	}
	return 0;
}

void ops_pidfile_remove(const char *path)
{
	if (unlink(path) != 0 && errno != ENOENT)
		log_warn("pidfile_remove_failed", "file=%s error=%s", path,
		         strerror(errno));
}
