/*
 * resolver/daemon/main_signal.c - the running daemon's signals (see main.c):
 * SIGTERM and SIGINT stop it (counters logged, the cache file saved,
 * STOPPING=1 to systemd, every handle closed so that the loop ends),
 * SIGHUP reloads the configuration, the root hints and the trust
 * anchors (also the control socket's reload: all new or all old;
 * restart-only settings keep their running values, ops.h), SIGUSR1 logs
 * every counter. Calls back into main.c only for its timers, workers and
 * root hints (main_int.h).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "conf/cfg.h"
#include "ctl/control.h"
#include "infra/hints.h"
#include "base/log.h"
#include "main_int.h"
#include "ops.h"
#include "front/server.h"
#include "stats/stats.h"
#include "workers.h"

/** Buffer for the text of every counter. */
#define MAIN_STATS_BYTES 16384
/** Longest "stats" log line (the log line buffer is 1024 bytes). */
#define MAIN_STATS_LINE 800

static void on_signal(uv_signal_t *sig, int signum);

/* SIGPIPE ignored; TERM, INT, HUP and USR1 to on_signal. */
int main_start_signals(struct main_ctx *m)
{
	static const int sigs[MAIN_SIGNALS] = { SIGTERM, SIGINT, SIGHUP,
		                                SIGUSR1 };
	size_t i;

	signal(SIGPIPE, SIG_IGN);
	for (i = 0; i < MAIN_SIGNALS; i++) {
		if (uv_signal_init(&m->loop, &m->sig[i]) != 0)
			return -1;
		m->sig[i].data = m;
		m->nsig++;
		if (uv_signal_start(&m->sig[i], on_signal, sigs[i]) != 0)
			return -1;
	}
	return 0;
}

/* Every counter, as "stats" lines of name=value fields (SIGUSR1, exit). */
static void log_stats(const struct main_ctx *m)
{
	char text[MAIN_STATS_BYTES], *p, *end, *nl;

	(void)stats_format(server_stats(m->srv), text, sizeof text);
	p = text;
	end = text + strlen(text);
	while (p < end) {
		char *cut = p + MAIN_STATS_LINE < end ? p + MAIN_STATS_LINE :
		                                        end;

		if (cut < end) {
			while (cut > p && *cut != '\n')
				cut--;
			if (cut == p)
				break;
		}
		for (nl = p; nl < cut; nl++)
			if (*nl == '\n')
				*nl = ' ';
		*cut = '\0';
		log_pairs(CFG_LOG_INFO, "stats", p);
		p = cut + 1;
	}
}

static void stop(struct main_ctx *m)
{
	size_t i;

	ops_notify("STOPPING=1");
	log_flush_suppressed();
	log_info("stop", "signal=term");
	log_stats(m);
	ops_cache_save(m->cache, &m->cfg);
	main_close_log_tick(m);
	autotrust_run_close(m->at);
	if (m->rotate_open)
		uv_close((uv_handle_t *)&m->rotate, NULL);
	m->rotate_open = false;
	control_stop(m->ctl);
	server_stop(m->srv);
	main_stop_workers(m);
	for (i = 0; i < m->nsig; i++)
		uv_close((uv_handle_t *)&m->sig[i], NULL);
	m->nsig = 0;
}

/* What a reload reads before it changes anything: the config, the root
 * hints, the trust anchors (trust.h) and the local data; -1 with
 * everything read so far freed. */
static int reload_read(struct main_ctx *m, struct cfg *nc, struct hints **h,
                       struct main_hints *w, struct anchors **na,
                       struct trust_used *tu, char *err, size_t errlen)
{
	if (cfg_load(m->cfg_path, nc, err, errlen) != 0 ||
	    main_load_hints(nc, h, w, err, errlen) != 0)
		return -1;
	if (trust_anchors_choose(nc, ANCHOR_DEBIAN_ROOT_KEY, na, tu, err,
	                         errlen) != 0) {
		hints_free(*h);
		return -1;
	}
	if (server_localdata_load(m->srv, nc, err, errlen) != SERVER_OK) {
		cfg_file_error(nc, err, errlen);
		hints_free(*h);
		anchors_free(*na);
		return -1;
	}
	return 0;
}

int main_reload(struct main_ctx *m, char *err, size_t errlen)
{
	struct cfg *nc = malloc(sizeof(*nc));
	struct hints *h = NULL;
	struct main_hints w;
	struct anchors *na = NULL;
	struct trust_used tu;
	bool rotate_changed;

	if (nc == NULL) {
		snprintf(err, errlen, "out of memory");
		log_error("reload_failed", "error=%s", "out of memory");
		return -1;
	}
	if (reload_read(m, nc, &h, &w, &na, &tu, err, errlen) != 0) {
		log_error("reload_failed", "error=%s kept=old", err);
		free(nc);
		return -1;
	}
	if (server_hints_set(m->srv, h) != SERVER_OK) {
		snprintf(err, errlen, "out of memory");
		log_error("reload_failed", "error=%s kept=old",
		          "out of memory");
		anchors_free(na);
		free(nc);
		return -1;
	}
	ops_keep_restart_only(&m->cfg, nc);
	if (server_forward_set(m->srv, nc, err, errlen) != SERVER_OK) {
		log_error("reload_partial",
		          "error=%s%s kept=old_forward_zones",
		          "forward zones: ", err);
		nc->n_forward = m->cfg.n_forward;
		memcpy(nc->forward, m->cfg.forward, sizeof nc->forward);
	}
	rotate_changed = nc->curve_key_rotate_s != m->cfg.curve_key_rotate_s;
	m->cfg = *nc;
	free(nc);
	/* running resolutions keep the old set (server_anchors_set) */
	if (server_anchors_set(m->srv, na) != SERVER_OK)
		log_error("reload_partial", "error=%s kept=old",
		          "trust anchors: out of memory");
	m->anchors_used = tu;
	if (workers_reload(m->workers, &m->cfg, err, errlen) != WORKERS_OK)
		log_error("reload_partial", "error=%s kept=old", err);
	if (m->at != NULL)
		autotrust_run_reload(m->at);
	else if (autotrust_run_start(&m->at, &m->loop, m->srv, m->cache,
	                             m->workers, &m->cfg) != 0)
		log_error("reload_partial", "error=%s",
		          "autotrust: no memory");
	if (rotate_changed)
		main_arm_rotate(m);
	log_init(m->cfg.log_level, m->foreground);
	m->hints = w;
	log_info("reload", "file=%s root_hints=%s", m->cfg_path,
	         m->hints.used);
	main_log_hints_note(m);
	trust_anchors_log(&m->anchors_used);
	ops_notes_log(&m->cfg);
	return 0;
}

static void on_signal(uv_signal_t *sig, int signum)
{
	struct main_ctx *m = sig->data;
	char err[CFG_ERR_BYTES + HINTS_ERR_BYTES];

	if (signum == SIGHUP)
		(void)main_reload(m, err, sizeof err);
	else if (signum == SIGUSR1)
		log_stats(m);
	else if (m->nsig > 0)
		stop(m);
}
