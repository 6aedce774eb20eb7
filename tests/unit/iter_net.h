/*
 * tests/unit/iter_net.h - a fake network for the iterator tests.
 *
 * A table of canned authoritative replies keyed by (server address,
 * qname pattern, qtype), written with the wire writer, and a driver loop
 * like the shell's: iter_next / iter_feed with `now` moved by hand to the
 * next event (a reply after its delay, or a timeout after the target's
 * timeout_ms, and the early hedge timeout after hedge_ms). The iterator's
 * random values are fixed (N.rnd). Every send is logged for the tests to
 * inspect (and printed after each resolution when NET_TRACE is set).
 */
#ifndef CURVECACHE_TESTS_UNIT_ITER_NET_H
#define CURVECACHE_TESTS_UNIT_ITER_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "cache.h"
#include "conf/cfg.h"
#include "infra/hints.h"
#include "iter/iter.h"
#include "infra/sel.h"
#include "wire/wire.h"

/** Records per section of a canned reply. */
#define FAKE_RR_MAX 80
/** Sends logged per resolution. */
#define NET_SENDS_MAX 256

enum fake_act {
	FAKE_REPLY = 0, /**< answer after delay_ms */
	FAKE_SILENT,    /**< never answer (the caller times out) */
	FAKE_UNREACH    /**< ICMP unreachable at once */
};

/** One canned reply. Records: "OWNER TTL TYPE DATA..." */
struct fake {
	const char *server; /**< "192.0.2.1", or "*" for any */
	const char *qname;  /**< "a.b.", "*.b." (b. and below), "*" */
	uint16_t qtype;     /**< 0: any type */
	uint16_t flags;     /**< e.g. WIRE_FLAG_AA | rcode */
	const char *an[FAKE_RR_MAX];
	const char *ns[FAKE_RR_MAX];
	const char *ar[FAKE_RR_MAX];
	enum fake_act act;
	uint32_t delay_ms; /**< 0 = 1 ms */
	bool unboxed;      /**< plain reply even to a curve target */
	bool formerr_edns; /**< queries with EDNS: FORMERR_EDNS */
	bool formerr_msg;  /**< queries with EDNS: a FORMERR reply */
	bool udp_drop;     /**< silent over UDP, answers over TCP
	                        (a server with RRL) */
};

/** One query the iterator sent. */
struct net_send {
	char server[64];
	char qname[WIRE_NAME_TEXT_MAX];
	char zone[WIRE_NAME_TEXT_MAX];
	uint16_t qtype;
	bool curve;
	uint8_t key[KEY_BYTES];
	uint16_t edns;
	uint32_t timeout_ms;
	uint32_t hedge_ms;
	bool tcp;
	uint64_t at_ms;
	uint32_t token;
	bool dane; /**< with DANE records (iter_enc.c) */
	struct tlsa_set dane_set;
};

/** The test world. */
struct net {
	struct fake *fakes;
	size_t nfakes, capfakes;
	struct net_send sends[NET_SENDS_MAX];
	size_t nsends;
	struct iter_now now;
	uint64_t start_ms;
	struct cfg cfg;
	struct cache *cache;
	struct sel *sel;
	struct hints *hints;
	struct iter_env env;
	struct iter_req *req;
	const struct answer *res;
	uint32_t rnd; /**< what env.random returns (0: the
	                   first of tied unknown servers) */
	char **pool;  /**< strings made by net_str */
	size_t npool;
};

extern struct net N;

/** Fresh world: default cfg (qmin off, localhost allowed off), empty
 *  cache and sel, root hints a/b.root.test. at 198.51.100.1/2. */
void net_setup(void);
/** Cache the root NS set of the hints (a.root.test., b.root.test.) and
 *  their addresses, as a primed resolver has them (net_setup does). */
void net_primed(void);
void net_teardown(void);
/** Add a canned reply (copied). */
void net_add(const struct fake *f);
/** A formatted string that lives until net_teardown. */
const char *net_str(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/** Resolve a text name; runs the driver loop to ITER_DONE. */
const struct answer *net_resolve(const char *name, uint16_t type);
/** Build the canned reply f to (qname, qtype) into buf (NET_MSG_MAX
 *  bytes); returns its length. */
size_t net_msg(const struct fake *f, const char *qname, uint16_t qtype,
               uint8_t *buf);
/** Bytes of a canned reply buffer. */
#define NET_MSG_MAX 4096
/** Sends to one server during the last resolution. */
size_t net_sends_to(const char *server);
/** Wire name of a text name (static buffer per call site: copy it). */
size_t net_wire(const char *text, uint8_t out[WIRE_NAME_MAX]);
/** Number of RRs of a type in the result's answer section. */
size_t net_count(const struct answer *r, uint16_t type);
/** Text of the i-th answer RR: "owner TYPE rdata-ish" for checks. */
void net_rr_text(const struct answer *r, size_t i, char *out, size_t cap);
/** TTL of the i-th RR of an image. */
uint32_t net_ttl(const uint8_t *img, size_t len, size_t i);
/** Look a name up in the test cache: status, kind, rank. */
int net_cache(const char *name, uint16_t type, struct cache_answer *ans,
              char *rdata_text, size_t cap);

/** Cache one record of owner/type as SECURE (TTL 3600) at rank. */
void net_put_secure(const char *owner, uint16_t type, const uint8_t *rd,
                    size_t len, enum cache_rank rank);

/** Make zone SECURE for the iterator: N.env.anchors gets a DS anchor
 *  for it (freed by the caller's teardown) and its DNSKEY set is cached
 *  SECURE, so its trust settles without asking. */
void net_signed_zone(const char *zone);

/** Standard delegations used by many tests:
 *  root -> example. (ns1.example. 192.0.2.1)
 *       -> zone.example. (ns.zone.example. 192.0.2.2)
 *  root -> net. (ns1.net. 192.0.2.10) */
void net_std(void);

#endif /* CURVECACHE_TESTS_UNIT_ITER_NET_H */
