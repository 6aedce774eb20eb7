/*
 * resolver/ctl/control.c - the control socket: a Unix stream socket on the
 * daemon's libuv loop, peers checked with SO_PEERCRED, bytes handed to a
 * control_session (control_cmd.c) and its answers written back. See
 * control.h.
 */
#include <errno.h>
#include <grp.h>
#include <signal.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/un.h>
#include <unistd.h>

#include "conf/cfg.h"
#include "control.h"
#include "base/log.h"

/** Pending connections the kernel keeps. */
#define CONTROL_BACKLOG 8
/** Bytes read at a time from a peer. */
#define CONTROL_READ_BYTES 65536
/** Groups of a peer looked at (SO_PEERGROUPS); more: refused. */
#define CONTROL_PEER_GROUPS_MAX 1024
/** umask while binding, so the file is never wider than 0660. */
#define CONTROL_BIND_UMASK 0117
/** Mode of a parent directory we create. */
#define CONTROL_DIR_MODE 0755

/** One connected peer (a fixed slot). */
struct control_peer {
	struct control *ctl;
	bool used;
	bool closing;
	bool close_after; /**< close once the writes are done */
	bool stop_after;  /**< ...and then stop the daemon */
	unsigned handles; /**< pipe + timer still open */
	unsigned writes;  /**< uv_write requests in flight */
	struct control_session *sess;
	uv_pipe_t h;
	uv_timer_t idle;
	char rbuf[CONTROL_READ_BYTES];
};

/** One answer being written; owns its text. */
struct control_wreq {
	uv_write_t req;
	struct control_peer *peer;
	char *text;
};

struct control {
	uv_loop_t *loop;
	struct control_cmd *cmd;
	uv_pipe_t listen;
	bool listening;
	bool stopped;
	char path[CFG_MAX_PATH];
	uid_t uid;
	gid_t gid;
	struct control_peer peer[CONTROL_CONNS_MAX];
};

/* ------------------------------------------------------------------ */
/* Peers                                                               */

static void peer_handle_closed(uv_handle_t *h)
{
	struct control_peer *p = h->data;

	if (--p->handles > 0)
		return;
	control_session_free(p->sess);
	p->sess = NULL;
	p->used = false;
}

static void peer_close(struct control_peer *p)
{
	if (p->closing)
		return;
	p->closing = true;
	if (p->stop_after) {
		/* the stop command: its "ok" is out; stop as on SIGTERM */
		log_info("control_stop", "pid=%ld", (long)getpid());
		(void)kill(getpid(), SIGTERM);
	}
	uv_close((uv_handle_t *)&p->h, peer_handle_closed);
	uv_close((uv_handle_t *)&p->idle, peer_handle_closed);
}

static void peer_write_cb(uv_write_t *req, int status)
{
	struct control_wreq *w = req->data;
	struct control_peer *p = w->peer;

	free(w->text);
	free(w);
	p->writes--;
	if (status != 0 || (p->close_after && p->writes == 0))
		peer_close(p);
	else if (!p->closing)
		uv_timer_again(&p->idle);
}

/* Write an answer (taking its text) and, if asked, close afterwards. */
static void peer_send(struct control_peer *p, struct control_out *out,
                      enum control_state st)
{
	struct control_wreq *w;
	uv_buf_t b;

	if (st == CONTROL_STOP)
		p->stop_after = true;
	if (st != CONTROL_OPEN) {
		p->close_after = true;
		uv_read_stop((uv_stream_t *)&p->h);
	}
	if (out->len > 0 && !p->closing) {
		w = calloc(1, sizeof(*w));
		if (w != NULL) {
			w->peer = p;
			w->text = out->p;
			w->req.data = w;
			b = uv_buf_init(out->p, (unsigned)out->len);
			if (uv_write(&w->req, (uv_stream_t *)&p->h, &b, 1,
			             peer_write_cb) == 0) {
				p->writes++;
				memset(out, 0, sizeof(*out));
			} else {
				free(w);
				p->close_after = true;
			}
		}
	}
	control_out_free(out);
	if (p->close_after && p->writes == 0)
		peer_close(p);
}

static void peer_alloc_cb(uv_handle_t *h, size_t hint, uv_buf_t *b)
{
	struct control_peer *p = h->data;

	(void)hint;
	b->base = p->rbuf;
	b->len = sizeof p->rbuf;
}

static void peer_read_cb(uv_stream_t *s, ssize_t n, const uv_buf_t *b)
{
	struct control_peer *p = s->data;
	struct control_out out = { NULL, 0, 0, false };
	enum control_state st;

	if (p->closing || n == 0)
		return;
	if (n < 0) {
		st = n == UV_EOF ? control_session_eof(p->sess, &out) :
		                   CONTROL_CLOSE;
	} else {
		uv_timer_again(&p->idle);
		st = control_session_feed(p->sess, b->base, (size_t)n, &out);
	}
	peer_send(p, &out, st);
}

static void peer_idle_cb(uv_timer_t *t)
{
	struct control_peer *p = t->data;

	log_info("control_idle", "closed=1");
	peer_close(p);
}

/* ------------------------------------------------------------------ */
/* Who may connect                                                     */

/* Whether the peer's supplementary groups hold gid. */
static bool peer_in_group(int fd, gid_t gid)
{
#ifdef SO_PEERGROUPS
	gid_t groups[CONTROL_PEER_GROUPS_MAX];
	socklen_t len = sizeof groups;
	size_t i;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len) != 0)
		return false;
	for (i = 0; i < len / sizeof groups[0]; i++)
		if (groups[i] == gid)
			return true;
#else
	(void)fd;
	(void)gid;
#endif
	return false;
}

/* Root, the daemon's user, or a member of its group. */
static bool peer_allowed(const struct control *ctl, uv_pipe_t *h)
{
	struct ucred cr;
	socklen_t len = sizeof cr;
	uv_os_fd_t fd;

	if (uv_fileno((uv_handle_t *)h, &fd) != 0 ||
	    getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cr, &len) != 0 ||
	    len != sizeof cr)
		return false;
	if (cr.uid == 0 || cr.uid == ctl->uid || cr.gid == ctl->gid)
		return true;
	return peer_in_group(fd, ctl->gid);
}

/* ------------------------------------------------------------------ */
/* Accepting                                                           */

static void spare_closed_cb(uv_handle_t *h)
{
	free(h);
}

/* No slot free: take the connection and close it at once. */
static void refuse_busy(struct control *ctl)
{
	uv_pipe_t *t = malloc(sizeof(*t));

	if (t == NULL || uv_pipe_init(ctl->loop, t, 0) != 0) {
		free(t);
		return;
	}
	(void)uv_accept((uv_stream_t *)&ctl->listen, (uv_stream_t *)t);
	uv_close((uv_handle_t *)t, spare_closed_cb);
	log_warn_limited("control_busy", "peers=%d", CONTROL_CONNS_MAX);
}

/* Set up a slot for an accepted connection; false if it failed. */
static bool peer_open(struct control *ctl, struct control_peer *p)
{
	memset(p, 0, offsetof(struct control_peer, rbuf));
	p->ctl = ctl;
	p->used = true;
	if (uv_pipe_init(ctl->loop, &p->h, 0) != 0) {
		p->used = false;
		return false;
	}
	p->h.data = p;
	p->handles = 1;
	if (uv_timer_init(ctl->loop, &p->idle) != 0) {
		p->closing = true;
		uv_close((uv_handle_t *)&p->h, peer_handle_closed);
		return false;
	}
	p->idle.data = p;
	p->handles = 2;
	return true;
}

static void on_connection(uv_stream_t *server, int status)
{
	struct control *ctl = server->data;
	struct control_out out = { NULL, 0, 0, false };
	struct control_peer *p = NULL;
	size_t i;

	if (status != 0 || ctl->stopped)
		return;
	for (i = 0; i < CONTROL_CONNS_MAX && p == NULL; i++)
		if (!ctl->peer[i].used)
			p = &ctl->peer[i];
	if (p == NULL || !peer_open(ctl, p)) {
		refuse_busy(ctl);
		return;
	}
	if (uv_accept(server, (uv_stream_t *)&p->h) != 0) {
		peer_close(p);
		return;
	}
	uv_timer_start(&p->idle, peer_idle_cb, CONTROL_IDLE_MS,
	               CONTROL_IDLE_MS);
	if (!peer_allowed(ctl, &p->h)) {
		log_warn_limited("control_denied", "reason=%s",
		                 "peer credentials");
		control_out_printf(&out, "error: permission denied\n");
		peer_send(p, &out, CONTROL_CLOSE);
		return;
	}
	uv_stream_t *st = (uv_stream_t *)&p->h;

	if (control_session_new(ctl->cmd, &p->sess) != CONTROL_OK ||
	    uv_read_start(st, peer_alloc_cb, peer_read_cb) != 0)
		peer_close(p);
}

/* ------------------------------------------------------------------ */
/* Creating the socket                                                 */

/* The uid and gid the socket belongs to: cfg->user's, or our own. */
static int owner_of(const struct cfg *cfg, uid_t *uid, gid_t *gid, char *err,
                    size_t errlen)
{
	struct passwd *pw;

	if (cfg->user[0] == '\0') {
		*uid = geteuid();
		*gid = getegid();
		return CONTROL_OK;
	}
	errno = 0;
	pw = getpwnam(cfg->user);
	if (pw == NULL) {
		snprintf(err, errlen, "user %s: %s", cfg->user,
		         errno != 0 ? strerror(errno) : "no such user");
		return CONTROL_EUSER;
	}
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
	return CONTROL_OK;
}

/* Create the parent directory if it is missing (one level). */
static int make_parent(const struct control *ctl, char *err, size_t errlen)
{
	char dir[CFG_MAX_PATH];
	char *slash;
	struct stat st;

	snprintf(dir, sizeof dir, "%s", ctl->path);
	slash = strrchr(dir, '/');
	if (slash == NULL || slash == dir)
		return CONTROL_OK;
	*slash = '\0';
	if (stat(dir, &st) == 0)
		return CONTROL_OK;
	if (errno != ENOENT || mkdir(dir, CONTROL_DIR_MODE) != 0 ||
	    chown(dir, ctl->uid, ctl->gid) != 0) {
		snprintf(err, errlen, "%s: %s", dir, strerror(errno));
		return CONTROL_ESOCKET;
	}
	return CONTROL_OK;
}

/* A file already at the path: a dead socket goes, anything else stays. */
static int clear_stale(const struct control *ctl, char *err, size_t errlen)
{
	struct sockaddr_un sun;
	struct stat st;
	int fd, rc;

	if (lstat(ctl->path, &st) != 0)
		return CONTROL_OK;
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, errlen, "%s: exists and is not a socket",
		         ctl->path);
		return CONTROL_ESOCKET;
	}
	memset(&sun, 0, sizeof sun);
	sun.sun_family = AF_UNIX;
	memcpy(sun.sun_path, ctl->path, strlen(ctl->path));
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		snprintf(err, errlen, "socket: %s", strerror(errno));
		return CONTROL_ESOCKET;
	}
	rc = connect(fd, (struct sockaddr *)&sun, sizeof sun);
	close(fd);
	if (rc == 0) {
		snprintf(err, errlen, "%s: another process answers there",
		         ctl->path);
		return CONTROL_EINUSE;
	}
	if (unlink(ctl->path) != 0) {
		snprintf(err, errlen, "%s: %s", ctl->path, strerror(errno));
		return CONTROL_ESOCKET;
	}
	return CONTROL_OK;
}

/* Bind (never wider than 0660), give it to the daemon's user, listen. */
static int bind_listen(struct control *ctl, char *err, size_t errlen)
{
	mode_t old;
	int rc;

	rc = uv_pipe_init(ctl->loop, &ctl->listen, 0);
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", ctl->path, uv_strerror(rc));
		return CONTROL_ESOCKET;
	}
	ctl->listen.data = ctl;
	ctl->listening = true;
	old = umask(CONTROL_BIND_UMASK);
	rc = uv_pipe_bind(&ctl->listen, ctl->path);
	umask(old);
	if (rc == 0 && (chown(ctl->path, ctl->uid, ctl->gid) != 0 ||
	                chmod(ctl->path, CONTROL_SOCKET_MODE) != 0))
		rc = uv_translate_sys_error(errno);
	if (rc == 0)
		rc = uv_listen((uv_stream_t *)&ctl->listen, CONTROL_BACKLOG,
		               on_connection);
	if (rc != 0) {
		snprintf(err, errlen, "%s: %s", ctl->path, uv_strerror(rc));
		return CONTROL_ESOCKET;
	}
	return CONTROL_OK;
}

int control_new(uv_loop_t *loop, const struct control_env *env,
                struct control **out, char *err, size_t errlen)
{
	struct control *ctl;
	struct sockaddr_un sun;
	int rc;

	if (loop == NULL || env == NULL || env->cfg == NULL || out == NULL)
		return CONTROL_EINVAL;
	if (env->cfg->control_socket[0] == '\0' ||
	    strlen(env->cfg->control_socket) >= sizeof sun.sun_path) {
		snprintf(err, errlen, "%s: path empty or too long",
		         env->cfg->control_socket);
		return CONTROL_EINVAL;
	}
	ctl = calloc(1, sizeof(*ctl));
	if (ctl == NULL)
		return CONTROL_ENOMEM;
	ctl->loop = loop;
	snprintf(ctl->path, sizeof ctl->path, "%s", env->cfg->control_socket);
	rc = control_cmd_new(env, &ctl->cmd);
	if (rc == CONTROL_OK)
		rc = owner_of(env->cfg, &ctl->uid, &ctl->gid, err, errlen);
	if (rc == CONTROL_OK)
		rc = make_parent(ctl, err, errlen);
	if (rc == CONTROL_OK)
		rc = clear_stale(ctl, err, errlen);
	if (rc == CONTROL_OK)
		rc = bind_listen(ctl, err, errlen);
	*out = ctl; /* even on failure: control_stop, loop, control_free */
	return rc;
}

void control_stop(struct control *ctl)
{
	size_t i;

	if (ctl == NULL || ctl->stopped)
		return;
	ctl->stopped = true;
	for (i = 0; i < CONTROL_CONNS_MAX; i++)
		if (ctl->peer[i].used)
			peer_close(&ctl->peer[i]);
	if (ctl->listening) {
		uv_close((uv_handle_t *)&ctl->listen, NULL);
		ctl->listening = false;
		/* Fails after the privilege drop if the directory is not
		 * ours; a later start replaces the dead socket. */
		(void)unlink(ctl->path);
	}
}

void control_free(struct control *ctl)
{
	if (ctl == NULL)
		return;
	control_cmd_free(ctl->cmd);
	free(ctl);
}
