/*
 * tests/fuzz/fuzz_query.c - libFuzzer target for the client-query
 * handler: the path of server_query (resolver/front/server.c) from the packet
 * to the response, without sockets.
 *
 * The input is a client's query. It is parsed (respond_query_parse),
 * refused or answered with an error as the server does, else answered
 * from the local zones, from a small cache loaded once from a real dump
 * of the lab (fuzz_query_cache.h), or for RD=0 with a referral from the
 * cache; a cache miss with RD=1 would start a resolution (the iter
 * target covers that). Every response is built for UDP (the client's
 * limit) and for TCP, and must be a DNS message that answers the query:
 * it parses, echoes the ID, has QR set and stays within its limit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "fuzz_load.h"
#include "fuzz_query_cache.h"
#include "policy/localzone.h"
#include "front/respond.h"
#include "wire/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/** The daemon's default EDNS size (etc/curvecache.conf). */
#define FUZZ_EDNS_SIZE 1232
/** Bytes of the cache: enough for the dump. */
#define FUZZ_CACHE_BYTES ((size_t)4 * 1024 * 1024)
#define FUZZ_RCODE_BADVERS 16u

static struct cache *cache;
static struct localzone *lz;
static uint8_t ans[RESPOND_BUF_BYTES];
static uint8_t out[RESPOND_BUF_BYTES];
static struct wire_rr rrs[WIRE_RR_MAX];

static void init(void)
{
	struct cachefile_load_counts n;

	cache = fuzz_cache_new(FUZZ_CACHE_BYTES);
	fuzz_load_text(cache, FUZZ_NOW, fuzz_query_dump,
	               strlen(fuzz_query_dump), &n);
	if (n.bad != 0 || n.entries == 0 ||
	    localzone_new(NULL, 0, &lz) != LOCALZONE_OK)
		abort();
}

/* A response must parse and answer the query. */
static void check_response(const struct respond_query *q, size_t len,
                           size_t limit)
{
	struct wire_msg m;

	if (len > limit ||
	    wire_msg_parse(&m, out, len, rrs, WIRE_RR_MAX) != WIRE_OK ||
	    m.hdr.id != q->id || !(m.hdr.flags & WIRE_FLAG_QR))
		abort();
	if (q->has_question &&
	    wire_msg_match(&m, q->id, q->qname, q->qnamelen, q->qtype,
	                   q->qclass, WIRE_MATCH_CASE) != WIRE_OK)
		abort();
}

static void error(const struct respond_query *q, unsigned rcode)
{
	size_t len = 0;

	if (respond_error(q, rcode, out, sizeof out, &len) != RESPOND_OK)
		abort();
	check_response(q, len, sizeof out);
}

/* Build for UDP and for TCP, as server_answer does. */
static void answer(const struct respond_query *q, const struct answer *a)
{
	size_t limit = respond_udp_limit(q, FUZZ_EDNS_SIZE), len = 0;
	bool tc = false;

	if (respond_build(q, a, limit, out, sizeof out, &len, &tc) !=
	    RESPOND_OK)
		abort();
	check_response(q, len, limit);
	if (respond_build(q, a, WIRE_MSG_MAX, out, sizeof out, &len, &tc) !=
	            RESPOND_OK ||
	    tc)
		abort();
	check_response(q, len, WIRE_MSG_MAX);
}

static void lookup(const struct respond_query *q)
{
	struct answer a;

	if (localzone_answer(lz, q->lname, q->qnamelen, q->qtype, q->qclass,
	                     &a, ans, sizeof ans) == LOCALZONE_OK) {
		answer(q, &a);
		return;
	}
	if (respond_cache_answer(cache, q->lname, q->qnamelen, q->qtype,
	                         q->qclass, FUZZ_NOW, &a, ans,
	                         sizeof ans) == RESPOND_OK) {
		answer(q, &a);
		return;
	}
	if (q->flags & WIRE_FLAG_RD)
		return; /* a resolution */
	if (respond_cache_referral(cache, q->lname, q->qnamelen, q->qclass,
	                           FUZZ_NOW, &a, ans,
	                           sizeof ans) == RESPOND_OK)
		answer(q, &a);
	else
		error(q, WIRE_RCODE_REFUSED);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct respond_query q;
	unsigned rcode;
	int rc;

	if (cache == NULL)
		init();
	rc = respond_query_parse(data, size, &q);
	if (rc == RESPOND_EDROP)
		return 0;
	if (rc == RESPOND_ENOTIMP)
		rcode = WIRE_RCODE_NOTIMP;
	else if (rc == RESPOND_EBADVERS)
		rcode = FUZZ_RCODE_BADVERS;
	else if (rc != RESPOND_OK)
		rcode = WIRE_RCODE_FORMERR;
	else
		rcode = respond_policy(&q);
	if (rcode != 0)
		error(&q, rcode);
	else
		lookup(&q);
	return 0;
}
