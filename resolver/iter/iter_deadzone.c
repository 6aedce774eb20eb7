/*
 * resolver/iter/iter_deadzone.c - the iterator's side of the resolution
 * failure cache (RFC 9520; the table is infra/deadzone.h).
 *
 * A request watches the zones it asks (struct iter_dz_watch): queries
 * sent, timeouts, unreachable servers, and whether any server of the
 * zone answered (which ends the zone's back-off at once). When every
 * server of a zone was tried and none answered, the request holds the
 * zone: it waits on for late answers as before, while other questions
 * into the zone fail at once. When it ends, a held zone that never
 * answered backs off (deadzone_fail); before asking a zone, a frame
 * checks it: in back-off, or held by another request, the frame fails
 * at once with EDE 22 (23 when its servers were unreachable by network
 * errors only). A failed client question is itself answered SERVFAIL at
 * once for DEADZONE_QUESTION_MS (RFC 9520 section 3.2).
 *
 * When the back-off ended, the first request to reach the zone is its
 * probe. With iter_env.dz_probe (a worker), a client's request does not
 * wait on that: it hands its question to a probe with no client (the
 * worker starts it later, with iter_env.dz_probe_key) and fails at once;
 * the probe's answer ends the back-off, its failure doubles it.
 */
#include <string.h>

#include "conf/cfg.h"
#include "infra/deadzone.h"
#include "infra/sel.h"
#include "iter_int.h"

/** A hold lasts the request's time left and this much more. */
#define ITER_DZ_HOLD_SLACK_MS 500u

/* The EXTRA-TEXT of the EDEs given here (RFC 8914). */
static const char iter_dz_text_silent[] = "no server of the zone answered";
static const char iter_dz_text_neterr[] =
	"every server of the zone unreachable (network error)";
static const char iter_dz_text_backoff[] =
	"zone's servers unreachable: in back-off (RFC 9520)";
static const char iter_dz_text_question[] =
	"resolution failure cached (RFC 9520)";
static const char iter_dz_text_none[] = "no server could answer";
static const char iter_dz_text_probe[] =
	"zone's servers unreachable: probed in the background (RFC 9520)";

static struct iter_dz_watch *iter_dz_find(struct iter_req *req, uint64_t key)
{
	size_t i;

	for (i = 0; key != 0 && i < ITER_DZ_WATCH_MAX; i++)
		if (req->dz[i].key == key)
			return &req->dz[i];
	return NULL;
}

/* The watch of a key, made when there is room (else NULL). */
static struct iter_dz_watch *iter_dz_get(struct iter_req *req, uint64_t key)
{
	struct iter_dz_watch *w = iter_dz_find(req, key);
	size_t i;

	for (i = 0; w == NULL && i < ITER_DZ_WATCH_MAX; i++) {
		if (req->dz[i].key == 0) {
			w = &req->dz[i];
			w->key = key;
		}
	}
	return w;
}

static uint64_t iter_dz_zone_key(const struct iter_frame *f)
{
	/* the forwarders of a forward zone: held as one, apart from the
	 * zone's own servers (forward-first iterates to them) */
	if (f->zone.fwd != 0)
		return deadzone_key(f->zone.name + f->zone.len - f->zone.fwd,
		                    f->zone.fwd, ITER_FWD_DZ_TYPE);
	return deadzone_key(f->zone.name, f->zone.len, 0);
}

static uint32_t iter_dz_hold_ms(const struct iter_req *req)
{
	uint64_t left = req->deadline_ms > req->now.mono_ms ?
	                        req->deadline_ms - req->now.mono_ms :
	                        0;

	return (uint32_t)left + ITER_DZ_HOLD_SLACK_MS;
}

void iter_dz_sent(struct iter_req *req, size_t fi, struct iter_out *o)
{
	struct iter_dz_watch *w;

	if (req->env->deadzone == NULL)
		return;
	o->dz_key = iter_dz_zone_key(req->frame[fi]);
	w = iter_dz_get(req, o->dz_key);
	if (w != NULL && w->sent < UINT16_MAX)
		w->sent++;
}

void iter_dz_reply(struct iter_req *req, const struct iter_out *o,
                   enum iter_reply_kind kind, bool hedge)
{
	struct iter_dz_watch *w = iter_dz_find(req, o->dz_key);

	if (o->dz_key == 0)
		return;
	if (kind == ITER_REPLY_MSG || kind == ITER_REPLY_FORMERR_EDNS) {
		/* any answer ends the zone's back-off (RFC 9520) */
		deadzone_alive(req->env->deadzone, o->dz_key);
		if (w != NULL)
			w->heard = true;
	} else if (w == NULL) {
		return;
	} else if (kind == ITER_REPLY_TIMEOUT && !hedge && !o->timed_out) {
		if (w->timeouts < UINT16_MAX)
			w->timeouts++;
	} else if (kind == ITER_REPLY_UNREACHABLE) {
		if (w->unreach < UINT16_MAX)
			w->unreach++;
	}
}

/* A background probe reaches its zone: it holds it while it runs (no
 * other probe meanwhile), unless an answer ended the back-off already. */
static void iter_dz_probe_claim(struct iter_req *req, uint64_t key)
{
	struct iter_dz_watch *w;

	if (!deadzone_extend(req->env->deadzone, key, req->now.mono_ms,
	                     iter_dz_hold_ms(req)))
		return;
	w = iter_dz_get(req, key);
	if (w != NULL)
		w->claimed = true;
	else
		deadzone_release(req->env->deadzone, key);
}

/* The back-off of a zone ended: a client's request hands the zone to a
 * probe in the background and fails at once (RFC 9520: no client waits
 * on a dead zone); false when it must probe itself (no background
 * probes here, or this request is one). */
static bool iter_dz_background(struct iter_req *req, struct iter_frame *f,
                               uint64_t key, uint16_t ede)
{
	const struct iter_env *env = req->env;

	if (env->dz_probe == NULL || env->dz_probe_key != 0)
		return false;
	if (!env->dz_probe(env->dz_probe_arg, key, f->sname, f->snamelen,
	                   f->qtype))
		deadzone_release(env->deadzone, key); /* a later one may */
	iter_tally(env->tally.zone_backoff);
	req->dz_ede = ede;
	req->dz_ede_text = iter_dz_text_probe;
	iter_fail(f, "zone's servers silent: probed in the background");
	return true;
}

/* Tell the worker that a zone failed (iter_env.dz_failed), with the
 * name of the zone of a frame that asked it (none: not told). */
static void iter_dz_failed(struct iter_req *req, uint64_t key)
{
	const struct iter_frame *f;
	size_t i;

	for (i = 0; req->env->dz_failed != NULL && i <= req->depth &&
	            i <= ITER_MAX_DEPTH;
	     i++) {
		f = req->frame[i];
		if (f == NULL || f->zone.len == 0 ||
		    iter_dz_zone_key(f) != key)
			continue;
		if (f->zone.fwd != 0)
			req->env->dz_failed(req->env->dz_probe_arg, key,
			                    f->zone.name + f->zone.len -
			                            f->zone.fwd,
			                    f->zone.fwd);
		else
			req->env->dz_failed(req->env->dz_probe_arg, key,
			                    f->zone.name, f->zone.len);
		return;
	}
}

bool iter_dz_blocked(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	struct iter_dz_watch *w;
	uint16_t ede = DEADZONE_EDE_NO_REACH;
	uint64_t key;

	if (!deadzone_busy(req->env->deadzone))
		return false;
	key = iter_dz_zone_key(f);
	if (f->dz_checked == key)
		return false;
	w = iter_dz_find(req, key);
	if (w != NULL && w->claimed)
		return false;
	if (key == req->env->dz_probe_key) {
		iter_dz_probe_claim(req, key);
		f->dz_checked = key;
		return false;
	}
	switch (deadzone_check(req->env->deadzone, key, req->now.mono_ms,
	                       iter_dz_hold_ms(req), &ede)) {
	case DEADZONE_FAIL:
		if (iter_fwd_fallback(req, fi))
			return true;
		iter_fwd_failed(req, fi);
		iter_tally(req->env->tally.zone_backoff);
		req->dz_ede = ede;
		req->dz_ede_text = iter_dz_text_backoff;
		iter_fail(f, "zone's servers silent: in back-off");
		return true;
	case DEADZONE_PROBE:
		if (iter_dz_background(req, f, key, ede))
			return true;
		w = iter_dz_get(req, key);
		if (w != NULL)
			w->claimed = true;
		else /* no room to watch it: let others probe */
			deadzone_release(req->env->deadzone, key);
		break;
	default: break;
	}
	f->dz_checked = key;
	return false;
}

/* Whether an address answered lately (sel.h: a rate-limited or busy
 * server drops some queries, it is not dead; nor is one whose replies
 * our own overloaded sockets lost). */
static bool iter_dz_addr_alive(const struct iter_req *req,
                               const struct iter_addr *a)
{
	struct sockaddr_storage ss;
	struct sel_info info;
	socklen_t sl;

	iter_addr_sockaddr(a, &ss, &sl);
	sel_info_get(req->env->sel, (const struct sockaddr *)&ss,
	             req->now.mono_ms, &info);
	return info.answered && info.answer_age_ms < SEL_ALIVE_MS;
}

/* Whether every usable address of the zone was asked and failed (timed
 * out or unreachable; lame and broken ones answered), none of them
 * alive lately; with all false, only that none is alive. */
static bool iter_dz_all_failed(const struct iter_req *req,
                               const struct iter_zone *z, bool all)
{
	size_t i, j, n = 0;

	for (i = 0; i < z->nns; i++) {
		for (j = 0; j < z->ns[i].naddr; j++) {
			const struct iter_addr *a = &z->ns[i].addr[j];

			if (!iter_addr_ok(req, &z->ns[i], a))
				continue;
			if (all && (a->tries == 0 || !(a->dropped || a->dead)))
				return false;
			if (iter_dz_addr_alive(req, a))
				return false;
			n++;
		}
	}
	return n > 0;
}

void iter_dz_silent(struct iter_req *req, size_t fi)
{
	struct iter_frame *f = req->frame[fi];
	struct iter_dz_watch *w;

	if (req->env->deadzone == NULL || f->prime)
		return;
	w = iter_dz_find(req, iter_dz_zone_key(f));
	if (w == NULL || w->claimed || w->heard || w->sent == 0 ||
	    !iter_dz_all_failed(req, &f->zone, true))
		return;
	w->claimed = true;
	deadzone_hold(req->env->deadzone, w->key, f->zone.name, f->zone.len, 0,
	              req->now.mono_ms, iter_dz_hold_ms(req));
}

bool iter_dz_question(struct iter_req *req)
{
	const struct iter_frame *f = req->frame[0];
	uint16_t ede = DEADZONE_EDE_NO_REACH;

	if (req->env->deadzone == NULL)
		return false;
	req->dz_qkey = deadzone_key(f->sname, f->snamelen, f->qtype);
	if (!deadzone_busy(req->env->deadzone) ||
	    req->env->dz_probe_key != 0 || /* a probe asks regardless */
	    deadzone_check(req->env->deadzone, req->dz_qkey, req->now.mono_ms,
	                   0, &ede) != DEADZONE_FAIL)
		return false;
	iter_tally(req->env->tally.failure_cached);
	req->dz_ede = ede;
	req->dz_ede_text = iter_dz_text_question;
	iter_finish(req, WIRE_RCODE_SERVFAIL, "resolution failure cached");
	return true;
}

/* A failed watch: its back-off starts (name NULL: a held zone, only
 * while its entry is there: another request's answer ended it); the
 * EDE it gives. */
static void iter_dz_record(struct iter_req *req, struct iter_dz_watch *w,
                           const uint8_t *name, size_t len)
{
	bool neterr = w->unreach > 0 && w->timeouts == 0;
	uint16_t ede = neterr ? DEADZONE_EDE_NETWORK : DEADZONE_EDE_NO_REACH;

	if (name != NULL)
		(void)deadzone_fail(req->env->deadzone, w->key, name, len, 0,
		                    ede, req->now.mono_ms);
	else if (!deadzone_refail(req->env->deadzone, w->key, ede,
	                          req->now.mono_ms))
		return;
	iter_dz_failed(req, w->key);
	w->claimed = false;
	w->heard = true; /* recorded once */
	if (req->dz_ede == 0 || ede == DEADZONE_EDE_NO_REACH) {
		req->dz_ede = ede;
		req->dz_ede_text = neterr ? iter_dz_text_neterr :
		                            iter_dz_text_silent;
	}
}

/* A SERVFAIL: the zones of the frames still running whose servers never
 * answered and failed at least once are recorded as well. */
static void iter_dz_frames(struct iter_req *req)
{
	size_t i;

	for (i = 0; i <= req->depth && i <= ITER_MAX_DEPTH; i++) {
		const struct iter_frame *f = req->frame[i];
		struct iter_dz_watch *w;

		if (f == NULL || f->prime || f->zone.len == 0)
			continue;
		w = iter_dz_find(req, iter_dz_zone_key(f));
		if (w != NULL && !w->heard && w->sent > 0 &&
		    w->timeouts + w->unreach > 0 &&
		    iter_dz_all_failed(req, &f->zone, false))
			iter_dz_record(req, w,
			               w->claimed ? NULL : f->zone.name,
			               f->zone.len);
	}
}

/* Whether a failure reason says that no server answered in time. */
static bool iter_dz_why_silent(const char *why)
{
	return why != NULL && (strcmp(why, "no server could answer") == 0 ||
	                       strcmp(why, "deadline reached") == 0);
}

/* A SERVFAIL the servers caused is cached for the question (not one
 * that failed at once: nothing new was learnt). */
static void iter_dz_question_fail(struct iter_req *req, const char *why)
{
	const struct iter_frame *f0 = req->frame[0];
	bool named = f0->cnames == 0; /* sname is still the question */

	if (req->counts.sends == 0 || req->dz_qkey == 0 ||
	    (req->dz_ede == 0 && !iter_dz_why_silent(why)))
		return;
	(void)deadzone_fail(req->env->deadzone, req->dz_qkey,
	                    named ? f0->sname : NULL, named ? f0->snamelen : 0,
	                    f0->qtype,
	                    req->dz_ede != 0 ? req->dz_ede :
	                                       DEADZONE_EDE_NO_REACH,
	                    req->now.mono_ms);
}

void iter_dz_finish(struct iter_req *req, uint8_t rcode, const char *why)
{
	struct deadzone *dz = req->env->deadzone;
	size_t i;

	if (dz == NULL)
		return;
	if (rcode == WIRE_RCODE_SERVFAIL)
		iter_dz_frames(req);
	for (i = 0; i < ITER_DZ_WATCH_MAX; i++) {
		struct iter_dz_watch *w = &req->dz[i];

		if (w->key == 0 || !w->claimed || w->heard)
			continue;
		if (w->sent > 0 && w->timeouts + w->unreach > 0)
			iter_dz_record(req, w, NULL, 0);
		else
			deadzone_release(dz, w->key);
	}
	if (rcode != WIRE_RCODE_SERVFAIL) {
		deadzone_alive(dz, req->dz_qkey);
		return;
	}
	if (req->dz_ede == 0 && iter_dz_why_silent(why)) {
		req->dz_ede = DEADZONE_EDE_NO_REACH;
		req->dz_ede_text = iter_dz_text_none;
	}
	iter_dz_question_fail(req, why);
}
