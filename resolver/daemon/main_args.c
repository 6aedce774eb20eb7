/*
 * resolver/daemon/main_args.c - the command line of the curvecache daemon (see
 * main.c): -c FILE, -f, and the modes that run nothing: -h (usage), -V
 * (our version and the libraries' as run and as built) and -t (check
 * the configuration and the files it names, with a note for each Unbound
 * option read and ignored; as root with user: set, a child opens them as
 * that user). Calls cfg_load, ops.h's checks and
 * main_drop_privileges (main.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>
#include <ares.h>
#include <sodium.h>

#include "conf/cfg.h"
#include "front_tls/server_tls.h"
#include "main_int.h"
#include "ops.h"

static void usage(FILE *f)
{
	fprintf(f,
	        "usage: curvecache [-c FILE] [-f | -t] | -V | -h\n"
	        "  -c FILE  configuration file (default %s)\n"
	        "  -f       stay in the foreground, log to stderr\n"
	        "  -t       check the configuration and the files it names,\n"
	        "           print FILE:LINE problems; exit 0 if good, 1 if "
	        "not\n"
	        "  -V       print the version and the library versions\n"
	        "  -h       print this help\n",
	        CFG_DEFAULT_FILE);
}

/* -V: ours, and those of the libraries as run (and as built). */
static void print_versions(void)
{
	printf("curvecache %s\n", PACKAGE_VERSION);
	printf("libsodium %s (built with %s)\n", sodium_version_string(),
	       SODIUM_VERSION_STRING);
	printf("c-ares %s (built with %s)\n", ares_version(NULL),
	       ARES_VERSION_STR);
	printf("libuv %s (built with %d.%d.%d)\n", uv_version_string(),
	       UV_VERSION_MAJOR, UV_VERSION_MINOR, UV_VERSION_PATCH);
}

int main_args_parse(struct main_ctx *m, int argc, char **argv)
{
	int opt;

	m->cfg_path = CFG_DEFAULT_FILE;
	while ((opt = getopt(argc, argv, "c:fhtV")) != -1) {
		switch (opt) {
		case 'c': m->cfg_path = optarg; break;
		case 'f': m->foreground = true; break;
		case 't': m->check = true; break;
		case 'h': usage(stdout); exit(0);
		case 'V': print_versions(); exit(0);
		default: usage(stderr); return -1;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return -1;
	}
	if (realpath(m->cfg_path, m->cfg_abs) != NULL)
		m->cfg_path = m->cfg_abs;
	return 0;
}

/* -t as root with user: set: a child, as that user, opens the files a
 * reload reads (as the daemon does after its privilege drop). */
static int check_as_user(struct main_ctx *m)
{
	char err[CFG_ERR_BYTES];
	pid_t pid, w;
	int st = 0;

	if (m->cfg.user[0] == '\0' || geteuid() != 0)
		return 0;
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "curvecache: fork: %s\n", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		if (main_drop_privileges(m->cfg.user) != 0)
			_exit(1);
		if (ops_reload_files_check(&m->cfg, m->cfg_path, m->cfg.user,
		                           err, sizeof err) != 0) {
			fprintf(stderr, "%s\n", err);
			_exit(1);
		}
		_exit(0);
	}
	do
		w = waitpid(pid, &st, 0);
	while (w < 0 && errno == EINTR);
	return w == pid && WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -1;
}

int main_check(struct main_ctx *m)
{
	char err[CFG_ERR_BYTES], tls[CFG_ERR_BYTES];

	if (cfg_load(m->cfg_path, &m->cfg, err, sizeof err) != 0 ||
	    ops_config_check(&m->cfg, err, sizeof err) != 0 ||
	    server_tls_check(&m->cfg, tls, sizeof tls, err, sizeof err) != 0) {
		fprintf(stderr, "%s\n", err);
		return 1;
	}
	if (check_as_user(m) != 0)
		return 1;
	/* Unbound options read and ignored: each line says why */
	fputs(m->cfg.notes, stderr);
	if (tls[0] != '\0')
		printf("%s\n", tls);
	printf("curvecache: configuration %s is OK\n", m->cfg_path);
	return 0;
}
