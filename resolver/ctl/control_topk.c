/*
 * resolver/ctl/control_topk.c - the control command top_queries: the
 * busiest query names and clients since the last look (see topk.h).
 */
#include <stdlib.h>
#include <string.h>

#include "control.h"
#include "stats/topk.h"
#include "wire/wire.h"

/* One table's entries, with its heading line. */
static void topk_write_table(struct control_out *out, enum topk_table which,
                             size_t n)
{
	struct topk_entry *e = malloc(sizeof(*e) * TOPK_TAKE_MAX);
	char text[WIRE_NAME_TEXT_MAX];
	uint64_t total = 0, skipped = 0;
	size_t i, got;

	got = e != NULL ?
	              topk_take(topk_shared(), which, e, n, &total, &skipped) :
	              0;
	control_out_printf(out, "%s queries=%llu skipped=%llu\n",
	                   which == TOPK_NAMES ? "names" : "clients",
	                   (unsigned long long)total,
	                   (unsigned long long)skipped);
	for (i = 0; i < got; i++) {
		if (which == TOPK_CLIENTS)
			topk_client_text(&e[i], text, sizeof(text));
		else if (wire_name_to_text(e[i].key, e[i].keylen, text,
		                           sizeof(text), NULL) != WIRE_OK)
			continue;
		control_out_printf(out, "%s %llu %s\n",
		                   which == TOPK_NAMES ? "name" : "client",
		                   (unsigned long long)e[i].count, text);
	}
	free(e);
}

const char *control_topk_write(char **argv, size_t argc,
                               struct control_out *out)
{
	unsigned long n = TOPK_SHOW_DEFAULT;
	char *end;

	if (argc > 1) {
		n = strtoul(argv[1], &end, 10);
		if (argv[1][0] == '\0' || *end != '\0' || n == 0 ||
		    n > TOPK_TAKE_MAX)
			return "N must be 1 to 64";
	}
	topk_write_table(out, TOPK_NAMES, n);
	topk_write_table(out, TOPK_CLIENTS, n);
	return NULL;
}
