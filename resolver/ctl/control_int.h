/*
 * resolver/ctl/control_int.h - what the files of the control module share
 * (control_cmd.c: sessions, the command table; control_cache.c: flushes
 * and dump_cache; control_info.c: status, lookup, servers;
 * control_stats.c: counters). Nobody else may include it.
 */
#ifndef CURVECACHE_RESOLVER_CONTROL_INT_H
#define CURVECACHE_RESOLVER_CONTROL_INT_H

#include "cache.h"
#include "control.h"
#include "curve.h"
#include "stats/stats.h"

/** Everything the stats commands report, read at one moment. */
struct control_snap {
	struct stats st; /**< the workers' counters, summed */
	struct cache_stats cache;
	struct curve_stats curve;
	uint64_t requestlist;   /**< resolutions running */
	uint64_t tcpusage;      /**< client TCP slots in use */
	uint64_t servers;       /**< addresses in the selection table */
	uint64_t servers_curve; /**< ...with a DNSCurve key */
	uint64_t mono_ms;       /**< when it was taken */
	struct stats_thread thr[STATS_THREADS_MAX]; /**< per thread */
	size_t nthr;                                /**< entries of thr */
};

struct control_cmd {
	struct control_env env;
	struct control_snap base; /**< counters at the last reset */
};

/** Bytes of an error message of a command. */
#define CONTROL_ERR_BYTES 256

/**
 * The commands of control_info.c: each appends its output to out and
 * returns NULL, or returns an error message (static, or written in err).
 */
const char *control_cmd_status(struct control_cmd *c, char **argv, size_t argc,
                               struct control_out *out, char *err);
/* status as Unbound words it (for its framing, control.h) */
const char *control_cmd_status_ub(struct control_cmd *c, char **argv,
                                  size_t argc, struct control_out *out,
                                  char *err);
const char *control_cmd_lookup(struct control_cmd *c, char **argv, size_t argc,
                               struct control_out *out, char *err);
/* list_forwards and list_stubs: "NAME IN forward ADDR..." a zone */
const char *control_cmd_list_zones(struct control_cmd *c, char **argv,
                                   size_t argc, struct control_out *out,
                                   char *err);
/* get_option of a list or word option (listen, access-control,
 * private-address, forward-zone, ...): its values, one a line, to out;
 * false if NAME (len bytes) is none of those (control_option_list.c) */
bool control_option_list(struct control_cmd *c, const char *name, size_t len,
                         struct control_out *out);
/* get_option NAME: one option's running value (control_option.c) */
const char *control_cmd_get_option(struct control_cmd *c, char **argv,
                                   size_t argc, struct control_out *out,
                                   char *err);
const char *control_cmd_servers(struct control_cmd *c, char **argv,
                                size_t argc, struct control_out *out,
                                char *err);
/* dump_infra (worker 0's selection table in Unbound's fields) and
 * ratelimit_list (empty: no zone rate limit) (control_ub.c) */
const char *control_cmd_ub_tables(struct control_cmd *c, char **argv,
                                  size_t argc, struct control_out *out,
                                  char *err);
/* flush_infra all|ADDR: sel_forget in every worker's table */
const char *control_cmd_flush_infra(struct control_cmd *c, char **argv,
                                    size_t argc, struct control_out *out,
                                    char *err);

/* flush and flush_zone NAME, flush_all, flush_negative, flush_bogus (by
 * argv[0]):
 * "removed N entries" (control_cache.c) */
const char *control_cmd_flush(struct control_cmd *c, char **argv, size_t argc,
                              struct control_out *out, char *err);
/* flush_type NAME TYPE: that RRset (or NODATA) and the name's NXDOMAIN
 * (control_cache.c) */
const char *control_cmd_flush_type(struct control_cmd *c, char **argv,
                                   size_t argc, struct control_out *out,
                                   char *err);
/* dump_cache: the cache as text, then "; end entries=N records=N"; the
 * entries of private-use types (the resolver's own notes) are left out
 * and counted on a comment line; an answer too large for out is cut at
 * a line and is an error (control_cache.c) */
const char *control_cmd_dump(struct control_cmd *c, char **argv, size_t argc,
                             struct control_out *out, char *err);

/* lookup's DNSSEC lines (control_cache.c): "dnssec: TYPE STATUS
 * (DNSCurve|plain)" for each entry of the name (of type, or every type
 * when 0), then "answer: TYPE VERDICT" for the cache's answer to
 * (name, type or A), CNAMEs followed (control_sec_summary). */
void control_lookup_sec(struct control_cmd *c, const uint8_t *name, size_t len,
                        uint16_t type, struct control_out *out);

/* Run fn(srv, cfg, arg) on every worker's own thread, worker 0 first,
 * one after the other, and return when all have run it (fn may write
 * into arg without a lock). Without env.each: worker 0 alone, with a
 * NULL cfg (control_rt.c). */
void control_each(struct control_cmd *c, control_worker_fn *fn, void *arg);

/* dump_requestlist, flush_requestlist (control_rt.c) */
const char *control_cmd_requestlist(struct control_cmd *c, char **argv,
                                    size_t argc, struct control_out *out,
                                    char *err);
/* forward_add [+i] NAME ADDR..., forward_remove [+i] NAME (control_rt.c) */
/* insecure_add, insecure_remove, list_insecure (control_rt.c) */
const char *control_cmd_insecure(struct control_cmd *c, char **argv,
                                 size_t argc, struct control_out *out,
                                 char *err);
const char *control_cmd_forward(struct control_cmd *c, char **argv,
                                size_t argc, struct control_out *out,
                                char *err);
/* tls_cert: the certificate the workers serve, its expiry (control_rt.c) */
const char *control_cmd_tls_cert(struct control_cmd *c, char **argv,
                                 size_t argc, struct control_out *out,
                                 char *err);

/** Read every counter now. */
void control_snap_take(const struct control_env *env, struct control_snap *s);

/* flush_stats: the counters start from zero, nothing printed
 * (control_stats.c) */
const char *control_cmd_flush_stats(struct control_cmd *c, char **argv,
                                    size_t argc, struct control_out *out,
                                    char *err);

/**
 * A command word as a canonical (lowercase) wire name.
 * @return true on success.
 */
bool control_name_arg(const char *text, uint8_t *name, size_t *len);

/** Verb flag: the verb changes things (Unbound's framing answers "ok"
 *  and the message). */
#define CONTROL_VERB_ACTION 1u
/** Verb flag: the argument is the rest of the line, spaces kept. */
#define CONTROL_VERB_REST 2u

/** One command: its word, how many arguments, what runs it. */
struct control_verb {
	const char *name;
	size_t min_args, max_args;
	const char *(*run)(struct control_session *s, char **argv, size_t argc,
	                   struct control_out *out, char *err);
	const char *usage;
	unsigned flags;
};

/* The local zone and data commands (control_local.c): local_zone,
 * local_zone_remove, local_zones, local_zones_remove, local_data,
 * local_data_remove, local_datas, local_datas_remove, list_local_zones,
 * list_local_data; looked up after control_cmd.c's table. */
extern const struct control_verb control_local_verbs[];
extern const size_t control_local_nverbs;

/** The input of a bulk command (local_zones ...) being read. */
struct control_bulk;

/** The session's bulk input slot, and its command state (control_cmd.c). */
struct control_bulk **control_session_bulk(struct control_session *s);
struct control_cmd *control_session_cmd(struct control_session *s);

/**
 * Bytes of a bulk command's input (control_local.c).
 * @return true when the input ended (a line 0x04): the answer is in out,
 *   *b is freed and NULL; the rest of buf is ignored.
 */
bool control_bulk_feed(struct control_bulk **b, const char *buf, size_t len,
                       bool ubct, struct control_out *out);

/** The end of the stream: apply what was read, answer, free *b. */
void control_bulk_finish(struct control_bulk **b, bool ubct,
                         struct control_out *out);

/** Free a bulk input (NULL is allowed). */
void control_bulk_free(struct control_bulk *b);

/* privacy [N]: upstream queries by transport, the encrypted share and
 * the N servers that took the most plain queries (control_privacy.c) */
const char *control_cmd_privacy(struct control_cmd *c, char **argv,
                                size_t argc, struct control_out *out);
/* Those servers (at most 10) as a Prometheus gauge with a server and a
 * zone label (write_prom). */
void control_privacy_prom(struct control_out *out);

#endif /* CURVECACHE_RESOLVER_CONTROL_INT_H */
