/*
 * tests/fuzz/fuzz_exchange.c - libFuzzer target for the reply check of
 * the query exchange (resolver/wire/exchange.c): what the daemon's transport
 * and curvecache-query run on every packet a server sends back.
 *
 * The first input byte picks the query the rest answers: 0 plain with
 * 0x20 and strict case (the daemon), 1 plain as curvecache-query asks,
 * 2 streamlined, 3 TXT; 4 streamlined with the rest boxed genuinely by
 * the server key as the inner reply, so the match past the box runs (the
 * box must then open). The queries are built once; their ID, 0x20 name
 * and TXT outer ID are then fixed so that seeds stay meaningful.
 */
#include <string.h>
#include <sodium.h>

#include "wire/exchange.h"
#include "fuzz_common.h"

/** The fixed ID of every (inner) query and of the TXT outer query. */
#define FUZZ_ID 0x2a2a
#define FUZZ_MODES 5

/* www.example.com in wire form, and as the 0x20 query sends it. */
static const uint8_t name[] = "\3www\7example\3com";
static const uint8_t mixed[] = "\3wWw\7ExAmPlE\3cOm";

static struct exchange_ask ask[FUZZ_MODES];
static struct exchange_sent sent[FUZZ_MODES];
static uint8_t query[FUZZ_MODES][WIRE_MSG_MAX];
static uint8_t scratch[WIRE_MSG_MAX], pkt[WIRE_MSG_MAX + 1];
static struct wire_rr rr[WIRE_RR_MAX];

static void make_query(size_t i, enum exchange_mode mode, bool strict)
{
	struct exchange_bufs b = { query[i], sizeof query[i],
		                   scratch,  sizeof scratch,
		                   NULL,     NULL,
		                   0,        0 };
	struct exchange_ask *a = &ask[i];

	a->mode = mode;
	a->qname = name;
	a->qnamelen = sizeof name;
	a->qtype = WIRE_TYPE_A;
	a->qclass = WIRE_CLASS_IN;
	a->edns = WIRE_EDNS_PAYLOAD_DEFAULT;
	a->mix_case = strict;
	a->strict_case = strict;
	a->client = fuzz_client();
	a->server_key = fuzz_server_pk;
	a->nonce = fuzz_nonce;
	a->zone = "example.com";
	if (exchange_build(a, &b, &sent[i]) != EXCHANGE_OK)
		abort();
	sent[i].id = FUZZ_ID;
	if (sent[i].mixed)
		memcpy(sent[i].qname, mixed, sizeof mixed);
	query[i][0] = (uint8_t)(FUZZ_ID >> 8);
	query[i][1] = (uint8_t)FUZZ_ID;
}

static void init(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	if (sodium_init() < 0)
		abort();
	make_query(0, EXCHANGE_PLAIN, true);
	make_query(1, EXCHANGE_PLAIN, false);
	make_query(2, EXCHANGE_STREAMLINED, false);
	make_query(3, EXCHANGE_TXT, false);
	make_query(4, EXCHANGE_STREAMLINED, false);
}

/* The rest of the input as a genuine streamlined response into pkt. */
static size_t box_genuine(const uint8_t *data, size_t size)
{
	uint8_t n[crypto_box_NONCEBYTES], cpk[CURVE_KEY_BYTES];
	size_t pos = CURVE_MAGIC_BYTES;

	if (size + CURVE_STREAMLINED_RESPONSE_OVERHEAD > sizeof pkt)
		return 0;
	memcpy(pkt, "R6fnvWJ8", CURVE_MAGIC_BYTES);
	memcpy(pkt + pos, fuzz_nonce, CURVE_NONCE_BYTES);
	pos += CURVE_NONCE_BYTES;
	memset(pkt + pos, 0x5a, CURVE_NONCE_BYTES);
	memcpy(n, fuzz_nonce, CURVE_NONCE_BYTES);
	memcpy(n + CURVE_NONCE_BYTES, pkt + pos, CURVE_NONCE_BYTES);
	pos += CURVE_NONCE_BYTES;
	curve_client_pk(fuzz_client(), cpk);
	if (crypto_box_easy(pkt + pos, data, size, n, cpk, fuzz_server_sk) !=
	    0)
		abort();
	return size + CURVE_STREAMLINED_RESPONSE_OVERHEAD;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct exchange_bufs b = { NULL, 0,  scratch,     sizeof scratch,
		                   NULL, rr, WIRE_RR_MAX, 0 };
	struct wire_msg msg;
	size_t i, len;
	int rc;

	init();
	if (size < 1 || size - 1 > WIRE_MSG_MAX)
		return 0;
	i = data[0] % FUZZ_MODES;
	b.sent = query[i];
	len = size - 1;
	if (i == 4)
		len = box_genuine(data + 1, len);
	else
		memcpy(pkt, data + 1, len);
	if (i == 4 && len == 0)
		return 0;
	rc = exchange_check(&ask[i], &sent[i], &b, pkt, len, &msg);
	if (i == 4 && (rc == EXCHANGE_EBOX || rc == EXCHANGE_EPLAIN))
		abort(); /* a genuine box always opens */
	if ((rc == EXCHANGE_OK || rc == EXCHANGE_FORMERR) &&
	    (msg.len > len || (msg.buf != pkt && msg.buf != scratch)))
		abort();
	(void)exchange_strerror(rc, b.why);
	return 0;
}
