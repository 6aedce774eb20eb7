/*
 * tests/fuzz/fuzz_hints.h - the root hints of the lab
 * (tests/lab/root.hints) for the resolver/ fuzz targets that need a
 * server or an iterator (control, iter).
 */
#ifndef CURVECACHE_TESTS_FUZZ_FUZZ_HINTS_H
#define CURVECACHE_TESTS_FUZZ_FUZZ_HINTS_H

#include <stdlib.h>
#include <string.h>

#include "infra/hints.h"

static const char fuzz_hints_text[] = ".            3600000 NS a.root.lab.\n"
				      "a.root.lab.  3600000 A  127.53.0.1\n";

/** The lab's root hints; aborts on failure. Free with hints_free. */
static inline struct hints *fuzz_hints(void)
{
	char err[HINTS_ERR_BYTES];
	struct hints *h = NULL;

	if (hints_parse("root.hints", fuzz_hints_text, strlen(fuzz_hints_text),
	                &h, err, sizeof err) != HINTS_OK)
		abort();
	return h;
}

#endif /* CURVECACHE_TESTS_FUZZ_FUZZ_HINTS_H */
