/*
 * resolver/infra/hints_builtin.c - the root hints compiled in, and the choice
 * between a named file, Debian's file and the compiled-in set (see
 * hints.h).
 *
 * The compiled-in set is a table of facts (the 13 root server names of
 * the IANA root hints and their addresses); it is written out as hints
 * text and read by hints_parse, so it passes the same checks as a file.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "hints.h"

/** Bytes of the hints text written from the table (about 2,300 used). */
#define HINTS_BUILTIN_TEXT_MAX 4096

/** One root server: its letter and its addresses (IANA root hints). */
struct hints_root {
	char letter;
	const char *ip4;
	const char *ip6;
};

static const struct hints_root hints_roots[HINTS_BUILTIN_NS] = {
	{ 'a', "198.41.0.4", "2001:503:ba3e::2:30" },
	{ 'b', "170.247.170.2", "2801:1b8:10::b" },
	{ 'c', "192.33.4.12", "2001:500:2::c" },
	{ 'd', "199.7.91.13", "2001:500:2d::d" },
	{ 'e', "192.203.230.10", "2001:500:a8::e" },
	{ 'f', "192.5.5.241", "2001:500:2f::f" },
	{ 'g', "192.112.36.4", "2001:500:12::d0d" },
	{ 'h', "198.97.190.53", "2001:500:1::53" },
	{ 'i', "192.36.148.17", "2001:7fe::53" },
	{ 'j', "192.58.128.30", "2001:503:c27::2:30" },
	{ 'k', "193.0.14.129", "2001:7fd::1" },
	{ 'l', "199.7.83.42", "2001:500:9f::42" },
	{ 'm', "202.12.27.33", "2001:dc3::35" },
};

/* Write the records of root server r; returns the new length, or cap
 * when it did not fit. */
static size_t hints_root_text(const struct hints_root *r, char *text, size_t n,
                              size_t cap)
{
	int w = snprintf(text + n, cap - n,
	                 ". %u IN NS %c.root-servers.net.\n"
	                 "%c.root-servers.net. %u IN A %s\n"
	                 "%c.root-servers.net. %u IN AAAA %s\n",
	                 HINTS_BUILTIN_TTL, r->letter, r->letter,
	                 HINTS_BUILTIN_TTL, r->ip4, r->letter,
	                 HINTS_BUILTIN_TTL, r->ip6);

	if (w < 0 || (size_t)w >= cap - n)
		return cap;
	return n + (size_t)w;
}

int hints_builtin(struct hints **out)
{
	char text[HINTS_BUILTIN_TEXT_MAX];
	size_t i, n = 0;

	for (i = 0; i < HINTS_BUILTIN_NS && n < sizeof text; i++)
		n = hints_root_text(&hints_roots[i], text, n, sizeof text);
	if (n >= sizeof text)
		return HINTS_ENOMEM;
	return hints_parse(HINTS_BUILTIN_NAME, text, n, out, NULL, 0);
}

static void hints_used(char *used, size_t usedlen, const char *what)
{
	if (used != NULL && usedlen > 0)
		snprintf(used, usedlen, "%s", what);
}

/* The fallback file if it loads; else the built-in set, with the reason
 * in err when the file exists but fails. */
static int hints_fallback(const char *fallback, struct hints **out, char *used,
                          size_t usedlen, char *err, size_t errlen)
{
	struct stat st;

	if (fallback != NULL && stat(fallback, &st) == 0) {
		if (hints_load(fallback, out, err, errlen) == HINTS_OK) {
			hints_used(used, usedlen, fallback);
			return HINTS_OK;
		}
	} else if (fallback != NULL && errno != ENOENT && err != NULL &&
	           errlen > 0) {
		snprintf(err, errlen, "%s: %s", fallback, strerror(errno));
	}
	hints_used(used, usedlen, HINTS_BUILTIN_NAME);
	return hints_builtin(out);
}

int hints_select(const char *path, const char *fallback, struct hints **out,
                 char *used, size_t usedlen, char *err, size_t errlen)
{
	int rc;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	if (path == NULL || out == NULL)
		return HINTS_EINVAL;
	if (path[0] == '\0')
		return hints_fallback(fallback, out, used, usedlen, err,
		                      errlen);
	rc = hints_load(path, out, err, errlen);
	if (rc == HINTS_OK)
		hints_used(used, usedlen, path);
	return rc;
}
