/*
 * tests/unit/check_iter_curve.c - Suite "iter_curve": where the iterator
 * takes DNSCurve keys from, curve-require and curve-pin, driven through
 * the fake network of check_iter_net.c.
 *
 * The world: net_std() (root -> example. at 192.0.2.1), and
 * curve.example. delegated by 192.0.2.1 to KEY.ns1.curve.example. at
 * 192.0.2.5 (boxed), or, stripped, to ns1.curve.example. at the same
 * address (plain).
 *
 * Keys confirmed by DNSSEC (iter_curvesec.c): the fake servers sign
 * nothing, so a signed zone is made by what the iterator reads: a trust
 * anchor for curve.example., its DNSKEY set cached SECURE (the zone is
 * SECURE), and its apex NS set cached SECURE; or a confirmation noted in
 * the pin table directly.
 */
#include <check.h>
#include <sodium.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "curve.h"
#include "infra/curvepin.h"
#include "iter_net.h"
#include "anchor/anchor.h"

/* The lab's TEST key and a key no server holds. */
#define KEYLABEL "uz5jwc7p039nvnbsd1y6wkqzqp5mrt7psuj024538xmqd280z0ynh2"
#define OTHERLABEL "uz5ff8w2prur0vr7yut61ykyhdlg730frvc1tz8f5sdqz1tj6yjzy1"
#define KEYED_NS "curve.example. 86400 NS " KEYLABEL ".ns1.curve.example."
#define KEYED_GLUE KEYLABEL ".ns1.curve.example. 86400 A 192.0.2.5"
#define PLAIN_NS "curve.example. 86400 NS ns1.curve.example."
#define PLAIN_GLUE "ns1.curve.example. 86400 A 192.0.2.5"
/** Seconds past the delegation's NS TTL. */
#define PAST_NS_TTL (86400 + 1)

static uint64_t downgrades;
static size_t parent_fake; /* index of the parent's referral in N.fakes */

static void setup(void)
{
	net_setup();
	downgrades = 0;
	N.env.downgrades = &downgrades;
	ck_assert_int_eq(curvepin_new(&N.env.pin), CURVEPIN_OK);
}

static void teardown(void)
{
	curvepin_free(N.env.pin);
	anchors_free((struct anchors *)N.env.anchors);
	N.env.anchors = NULL;
	net_teardown();
}

static void require(const char *zone)
{
	size_t i = N.cfg.n_curve_require++;

	N.cfg.curve_require_len[i] = net_wire(zone, N.cfg.curve_require[i]);
}

/* The parent's referral to curve.example. (keyed or not), and the
 * child's answer for www.curve.example. */
static void world(bool keyed)
{
	net_std();
	parent_fake = N.nfakes;
	net_add(&(struct fake){ .server = "192.0.2.1",
	                        .qname = "*.curve.example.",
	                        .ns = { keyed ? KEYED_NS : PLAIN_NS },
	                        .ar = { keyed ? KEYED_GLUE : PLAIN_GLUE } });
	net_add(&(struct fake){
		.server = "192.0.2.5",
		.qname = "*.curve.example.",
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { "www.curve.example. 300 A 192.0.2.55" } });
}

/* The attacker strips the keys from the parent's referral. */
static void strip(void)
{
	N.fakes[parent_fake].ns[0] = PLAIN_NS;
	N.fakes[parent_fake].ar[0] = PLAIN_GLUE;
}

static size_t curve_sends(void)
{
	size_t i, n = 0;

	for (i = 0; i < N.nsends; i++)
		n += N.sends[i].curve;
	return n;
}

/* www.curve.example. answered plain, with `refused` downgrades so far. */
static void resolved_plain(uint64_t refused)
{
	const struct answer *r = net_resolve("www.curve.example.",
	                                     WIRE_TYPE_A);

	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(!r->curve);
	ck_assert_uint_eq(downgrades, refused);
}

static void flush(void)
{
	size_t n;

	cache_flush_all(N.cache, &n);
	net_primed();
}

/* ---- curve-require ---- */

START_TEST(test_require_keyed)
{
	const struct answer *r;

	require("curve.example.");
	world(true);
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(r->curve);
	ck_assert_uint_eq(curve_sends(), 1);
	ck_assert_uint_eq(iter_counts(N.req)->downgrades, 0);
	ck_assert_uint_eq(downgrades, 0);
}
END_TEST

START_TEST(test_require_stripped)
{
	const struct answer *r;
	struct cache_answer ans;

	require("curve.example.");
	world(false);
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_ptr_nonnull(r->why);
	ck_assert_str_eq(r->why, "curve-require: referral without keys");
	ck_assert_uint_eq(iter_counts(N.req)->downgrades, 1);
	ck_assert_uint_eq(downgrades, 1);
	/* nothing asked of the key-less server, nothing cached from it */
	ck_assert_uint_eq(net_sends_to("192.0.2.5"), 0);
	ck_assert_int_eq(net_cache("curve.example.", WIRE_TYPE_NS, &ans, NULL,
	                           0),
	                 CACHE_ENOTFOUND);
	ck_assert_int_eq(net_cache("ns1.curve.example.", WIRE_TYPE_A, &ans,
	                           NULL, 0),
	                 CACHE_ENOTFOUND);
	/* the zone above is not affected */
	net_add(&(struct fake){ .server = "192.0.2.1",
	                        .qname = "www.example.",
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "www.example. 300 A 192.0.2.80" } });
	r = net_resolve("www.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
}
END_TEST

/* A zone below a required one needs keys as well; without the option
 * the same stripped referral is followed (plain). */
START_TEST(test_require_below_and_off)
{
	const struct answer *r;

	world(false);
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(!r->curve);
	ck_assert_uint_eq(downgrades, 0);
	flush();
	require("example.");
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_uint_eq(downgrades, 1);
}
END_TEST

/* A keyed referral with a key-less server beside: only the keyed one is
 * asked. */
START_TEST(test_require_mixed)
{
	const struct answer *r;

	require("curve.example.");
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "*.curve.example.",
		.ns = { "curve.example. 86400 NS ns2.curve.example.",
	                KEYED_NS },
		.ar = { "ns2.curve.example. 86400 A 192.0.2.6",
	                KEYED_GLUE } });
	net_add(&(struct fake){
		.server = "*",
		.qname = "*.curve.example.",
		.qtype = WIRE_TYPE_A,
		.flags = WIRE_FLAG_AA,
		.an = { "www.curve.example. 300 A 192.0.2.55" } });
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(r->curve);
	ck_assert_uint_eq(net_sends_to("192.0.2.6"), 0);
	ck_assert_uint_eq(net_sends_to("192.0.2.5"), 1);
}
END_TEST

/* The parent's server answers for the child itself, in plain DNS. */
START_TEST(test_require_plain_answer)
{
	const struct answer *r;
	struct cache_answer ans;

	require("curve.example.");
	net_std();
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "www.curve.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "www.curve.example. 300 A 192.0.2.66" } });
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "curve-require: plain answer");
	ck_assert_uint_eq(downgrades, 1);
	ck_assert_int_eq(net_cache("www.curve.example.", WIRE_TYPE_A, &ans,
	                           NULL, 0),
	                 CACHE_ENOTFOUND);
	/* and a CNAME from outside into the zone, answered plain */
	net_add(&(struct fake){
		.server = "192.0.2.1",
		.qname = "alias.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "alias.example. 300 CNAME www.curve.example.",
	                "www.curve.example. 300 A 192.0.2.66" } });
	r = net_resolve("alias.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_uint_eq(downgrades, 2);
}
END_TEST

/* A key-less cut of a required zone already in the cache (learned
 * before the option was set): its plain referral to a keyed zone below
 * is not believed either. */
START_TEST(test_require_cached_plain_cut)
{
	const struct answer *r;
	uint8_t sub[WIRE_NAME_MAX];
	size_t n, len = net_wire("sub.curve.example.", sub);

	net_std();
	net_add(&(struct fake){ .server = "192.0.2.1",
	                        .qname = "*.curve.example.",
	                        .ns = { PLAIN_NS },
	                        .ar = { PLAIN_GLUE } });
	net_add(&(struct fake){
		.server = "192.0.2.5",
		.qname = "*.sub.curve.example.",
		.ns = { "sub.curve.example. 86400 NS " KEYLABEL
	                ".ns1.sub.curve.example." },
		.ar = { KEYLABEL
	                ".ns1.sub.curve.example. 86400 A 192.0.2.7" } });
	net_add(&(struct fake){
		.server = "192.0.2.7",
		.qname = "www.sub.curve.example.",
		.flags = WIRE_FLAG_AA,
		.an = { "www.sub.curve.example. 300 A 192.0.2.77" } });
	r = net_resolve("www.sub.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(r->curve);
	ck_assert_int_eq(cache_flush_zone(N.cache, sub, len, &n), 0);
	require("curve.example.");
	r = net_resolve("www.sub.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "curve-require: plain reply");
	ck_assert_uint_eq(downgrades, 1);
	ck_assert_uint_eq(net_sends_to("192.0.2.7"), 0);
}
END_TEST

/* curve-plain-fallback: yes does not open a required zone to plain. */
START_TEST(test_require_no_plain_fallback)
{
	const struct answer *r;

	require("curve.example.");
	N.cfg.curve_plain_fallback = true;
	net_std();
	net_add(&(struct fake){ .server = "192.0.2.1",
	                        .qname = "*.curve.example.",
	                        .ns = { KEYED_NS },
	                        .ar = { KEYED_GLUE } });
	net_add(&(struct fake){
		.server = "192.0.2.5",
		.qname = "www.curve.example.",
		.flags = WIRE_FLAG_AA,
		.unboxed = true,
		.an = { "www.curve.example. 300 A 192.0.2.66" } });
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_uint_ge(downgrades, 1);
}
END_TEST

/* ---- curve-pin ---- */

START_TEST(test_pin)
{
	const struct answer *r;

	N.cfg.curve_pin = true;
	world(true);
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(r->curve);
	ck_assert_uint_eq(curvepin_count(N.env.pin, N.now.wall), 1);
	/* keys stripped; the cache lost the delegation: refused */
	strip();
	flush();
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, "curve-pin: referral without keys");
	ck_assert_uint_eq(downgrades, 1);
	ck_assert_uint_eq(net_sends_to("192.0.2.5"), 0);
	/* past the NS TTL the pin is gone: the plain delegation is used */
	N.now.wall += PAST_NS_TTL;
	resolved_plain(1);
}
END_TEST

START_TEST(test_pin_off)
{
	const struct answer *r;

	world(true);
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	strip();
	flush();
	resolved_plain(0);
}
END_TEST

/* ---- keys come from the parent ---- */

/* The child answers its apex NS with another key (or none): the client
 * gets that answer, but the cache keeps the parent's keys and the next
 * query goes boxed to the parent's key. */
static void swap_case(const char *child_ns)
{
	const struct answer *r;
	struct cache_answer ans;
	char rd[512];

	world(true);
	net_add(&(struct fake){ .server = "192.0.2.5",
	                        .qname = "curve.example.",
	                        .qtype = WIRE_TYPE_NS,
	                        .flags = WIRE_FLAG_AA,
	                        .an = { child_ns } });
	r = net_resolve("curve.example.", WIRE_TYPE_NS);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(net_count(r, WIRE_TYPE_NS), 1);
	ck_assert_int_eq(net_cache("curve.example.", WIRE_TYPE_NS, &ans, rd,
	                           sizeof rd),
	                 CACHE_OK);
	ck_assert_int_eq(ans.rank, CACHE_RANK_REFERRAL);
	ck_assert_msg(strstr(rd, KEYLABEL) != NULL, "cached NS: %s", rd);
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(r->curve);
	ck_assert_uint_eq(N.nsends, 1);
	ck_assert(N.sends[0].curve);
}

START_TEST(test_swap_other_key)
{
	swap_case("curve.example. 86400 NS " OTHERLABEL ".ns1.curve.example.");
}
END_TEST

START_TEST(test_swap_no_key)
{
	swap_case("curve.example. 86400 NS ns1.curve.example.");
}
END_TEST

/* The child answers NS for its apex with an (and a2, if not NULL), after
 * a keyed or plain delegation: the client gets every record; the cache
 * holds the NS RRset at `rank` with `count` records afterwards. */
static void apex_ns_case(bool keyed, const char *an, const char *a2, int rank,
                         size_t count)
{
	const struct answer *r;
	struct cache_answer ans;

	world(keyed);
	net_add(&(struct fake){ .server = "192.0.2.5",
	                        .qname = "curve.example.",
	                        .qtype = WIRE_TYPE_NS,
	                        .flags = WIRE_FLAG_AA,
	                        .an = { an, a2 } });
	r = net_resolve("curve.example.", WIRE_TYPE_NS);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(net_count(r, WIRE_TYPE_NS), a2 != NULL ? 2 : 1);
	ck_assert_int_eq(net_cache("curve.example.", WIRE_TYPE_NS, &ans, NULL,
	                           0),
	                 CACHE_OK);
	ck_assert_int_eq(ans.rank, rank);
	ck_assert_uint_eq(ans.count, count);
}

/* The same keys: the authoritative NS RRset replaces the referral's. */
START_TEST(test_ns_same_keys_cached)
{
	apex_ns_case(true,
	             "curve.example. 3600 NS " KEYLABEL ".ns2.curve.example.",
	             NULL, CACHE_RANK_AUTH, 1);
}
END_TEST

/* A plain zone whose own servers claim a key: not cached either (the
 * parent published none). */
START_TEST(test_swap_key_added)
{
	apex_ns_case(false, KEYED_NS, NULL, CACHE_RANK_REFERRAL, 1);
}
END_TEST

/* A child with keys and a key-less server beside them: not cached. */
START_TEST(test_swap_plain_beside)
{
	apex_ns_case(true, KEYED_NS, "curve.example. 86400 NS evil.example.",
	             CACHE_RANK_REFERRAL, 1);
}
END_TEST

/* ---- keys confirmed by DNSSEC ---- */

/* The digest the iterator keeps of a key set ({KEYLABEL}, {OTHERLABEL},
 * or none): BLAKE2b of the sorted keys. */
static void digest(const char *label, uint8_t out[CURVEPIN_DIGEST_BYTES])
{
	uint8_t key[CURVE_KEY_BYTES];

	if (label != NULL)
		ck_assert_int_eq(curve_keylabel_find_text(label, strlen(label),
		                                          key),
		                 CURVE_OK);
	ck_assert_int_eq(crypto_generichash(out, CURVEPIN_DIGEST_BYTES, key,
	                                    label != NULL ? sizeof key : 0,
	                                    NULL, 0),
	                 0);
}

/* curve.example.'s keys confirmed: `keys`'s (NULL: none), the delegation
 * had `parent`'s at the time (NULL: none). */
static void confirm_as(const char *keys, const char *parent, time_t ttl)
{
	uint8_t z[WIRE_NAME_MAX];
	struct curvepin_conf c;

	memset(&c, 0, sizeof c);
	digest(keys, c.keys);
	digest(parent, c.parent);
	c.nkeys = keys != NULL;
	c.until = N.now.wall + ttl;
	ck_assert_int_eq(curvepin_confirm(N.env.pin, z,
	                                  net_wire("curve.example.", z), &c,
	                                  N.now.wall),
	                 CURVEPIN_OK);
}

static void confirm(const char *parent, time_t ttl)
{
	confirm_as(KEYLABEL, parent, ttl);
}

static void check_downgrade(const struct answer *r, const char *why)
{
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_SERVFAIL);
	ck_assert_str_eq(r->why, why);
	ck_assert(r->ede);
	ck_assert_uint_eq(r->ede_code, 0);
	ck_assert_ptr_nonnull(strstr(r->ede_text, "DNSCurve downgrade"));
	ck_assert_uint_eq(downgrades, 1);
	ck_assert_uint_eq(iter_counts(N.req)->downgrades, 1);
	ck_assert_uint_eq(net_sends_to("192.0.2.5"), 0);
}

/* A referral that drops confirmed keys: refused without curve-pin. */
START_TEST(test_sec_dropped)
{
	confirm(KEYLABEL, 3600);
	world(false);
	check_downgrade(net_resolve("www.curve.example.", WIRE_TYPE_A),
	                "referral drops the DNSSEC-confirmed DNSCurve keys");
}
END_TEST

/* A referral with another key: refused. */
START_TEST(test_sec_changed)
{
	confirm(KEYLABEL, 3600);
	world(true);
	N.fakes[parent_fake].ns[0] = "curve.example. 86400 NS " OTHERLABEL
				     ".ns1.curve.example.";
	N.fakes[parent_fake].ar[0] = OTHERLABEL ".ns1.curve.example. 86400 A "
						"192.0.2.5";
	check_downgrade(net_resolve("www.curve.example.", WIRE_TYPE_A),
	                "referral changes the DNSSEC-confirmed DNSCurve keys");
}
END_TEST

/* The confirmed keys: boxed, and a key-less server beside them is
 * dropped; past the confirmation's TTL a plain referral is taken. */
START_TEST(test_sec_same_and_expired)
{
	const struct answer *r;

	confirm(KEYLABEL, 3600);
	world(true);
	/* the key-less server first: it would be asked first */
	N.fakes[parent_fake].ns[1] = N.fakes[parent_fake].ns[0];
	N.fakes[parent_fake].ns[0] = "curve.example. 86400 NS "
				     "ns9.curve.example.";
	N.fakes[parent_fake].ar[1] = "ns9.curve.example. 86400 A 192.0.2.9";
	net_add(&(struct fake){ .server = "192.0.2.9",
	                        .qname = "*.curve.example.",
	                        .flags = WIRE_FLAG_AA,
	                        .an = { "www.curve.example. 300 A 192.0.2.9" },
	                        .unboxed = true });
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(r->curve);
	ck_assert_uint_eq(curve_sends(), 1);
	ck_assert_uint_eq(downgrades, 0);
	strip();
	flush();
	N.now.wall += 3600;
	resolved_plain(0);
}
END_TEST

/* Keys the signed apex added to a delegation that never had them: the
 * same key-less referral again is no downgrade. */
START_TEST(test_sec_parent_never_had)
{
	const struct answer *r;

	confirm(NULL, 3600);
	world(false);
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(downgrades, 0);
}
END_TEST

/* The signed set named no key, the referral had none then: a referral
 * with a key now is taken (and used). */
START_TEST(test_sec_none_confirmed)
{
	const struct answer *r;

	confirm_as(NULL, NULL, 3600);
	world(true);
	r = net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert(r->curve);
	ck_assert_uint_eq(downgrades, 0);
}
END_TEST

/* curve.example. is SECURE: anchored, its DNSKEY set cached SECURE. */
static void signed_zone(void)
{
	net_signed_zone("curve.example.");
}

/* The zone's own NS set, cached SECURE, names KEYLABEL: its keys are
 * confirmed without asking, the next query goes boxed, and a referral
 * that strips them later is refused. */
START_TEST(test_sec_cached_apex)
{
	uint8_t ns[WIRE_NAME_MAX];
	struct curvepin_conf c;
	uint8_t z[WIRE_NAME_MAX];
	size_t zl = net_wire("curve.example.", z);
	static const uint8_t ip[] = { 192, 0, 2, 5 };

	world(false);
	signed_zone();
	net_put_secure("curve.example.", WIRE_TYPE_NS, ns,
	               net_wire(KEYLABEL ".ns1.curve.example.", ns),
	               CACHE_RANK_AUTH);
	net_put_secure(KEYLABEL ".ns1.curve.example.", WIRE_TYPE_A, ip,
	               sizeof ip, CACHE_RANK_GLUE);
	(void)net_resolve("www.curve.example.", WIRE_TYPE_A);
	ck_assert(curvepin_confirmed(N.env.pin, z, zl, N.now.wall, &c));
	ck_assert_uint_eq(c.nkeys, 1);
	ck_assert_uint_ge(curve_sends(), 1);
	ck_assert_uint_eq(N.sends[N.nsends - 1].curve, 1);
	ck_assert_uint_eq(N.sends[N.nsends - 1].qtype, WIRE_TYPE_A);
	flush();
	/* the fake signs nothing: the first answer was stripped data, whose
	 * cut was looked for (www.curve.example. DS, through the plain
	 * referral: refused); only the second resolution is judged here */
	downgrades = 0;
	check_downgrade(net_resolve("www.curve.example.", WIRE_TYPE_A),
	                "referral drops the DNSSEC-confirmed DNSCurve keys");
}
END_TEST

/* A SECURE zone whose own NS set is not known: "curve.example. NS" is
 * asked of its servers first, once; an answer that does not validate
 * (the fake signs nothing) confirms nothing and switches nothing. */
START_TEST(test_sec_fetch)
{
	uint8_t z[WIRE_NAME_MAX];
	size_t zl = net_wire("curve.example.", z), i, nsq = 0;

	world(false);
	(void)net_resolve("www.curve.example.", WIRE_TYPE_A);
	N.nsends = 0;
	signed_zone();
	net_add(&(struct fake){ .server = "192.0.2.5",
	                        .qname = "curve.example.",
	                        .qtype = WIRE_TYPE_NS,
	                        .flags = WIRE_FLAG_AA,
	                        .an = { KEYED_NS },
	                        .ar = { KEYED_GLUE } });
	(void)net_resolve("www2.curve.example.", WIRE_TYPE_A);
	ck_assert_uint_ge(N.nsends, 2);
	ck_assert_uint_eq(N.sends[0].qtype, WIRE_TYPE_NS);
	ck_assert_str_eq(N.sends[0].qname, "curve.example.");
	for (i = 0; i < N.nsends; i++)
		nsq += N.sends[i].qtype == WIRE_TYPE_NS;
	ck_assert_uint_eq(nsq, 1);
	ck_assert_uint_eq(N.sends[1].qtype, WIRE_TYPE_A);
	ck_assert_uint_eq(curve_sends(), 0);
	ck_assert(!curvepin_confirmed(N.env.pin, z, zl, N.now.wall, NULL));
}
END_TEST

/* RRSIGs asked for as such are not signed: passed on without AD, never
 * bogus, though the zone is SECURE and nothing covers them. */
START_TEST(test_sec_rrsig_question)
{
	const struct answer *r;

	world(false);
	signed_zone();
	net_add(&(struct fake){
		.server = "192.0.2.5",
		.qname = "www.curve.example.",
		.qtype = WIRE_TYPE_RRSIG,
		.flags = WIRE_FLAG_AA,
		.an = { "www.curve.example. 300 RRSIG \\# 37 "
	                "00010f030000012c7fffffff000000010001"
	                "056375727665076578616d706c6500deadbeef" } });
	r = net_resolve("www.curve.example.", WIRE_TYPE_RRSIG);
	ck_assert_uint_eq(r->rcode, WIRE_RCODE_NOERROR);
	ck_assert_uint_eq(r->an_count, 1);
	ck_assert_int_eq(r->sec, CACHE_SEC_UNCHECKED);
}
END_TEST

/* Validation off (no anchor): nothing is asked beyond the question. */
START_TEST(test_sec_unsigned_no_fetch)
{
	size_t i;

	world(true);
	(void)net_resolve("www.curve.example.", WIRE_TYPE_A);
	for (i = 0; i < N.nsends; i++)
		ck_assert_uint_ne(N.sends[i].qtype, WIRE_TYPE_NS);
}
END_TEST

static Suite *iter_curve_suite(void)
{
	Suite *s = suite_create("iter_curve");
	TCase *tc = tcase_create("require");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_require_keyed);
	tcase_add_test(tc, test_require_stripped);
	tcase_add_test(tc, test_require_below_and_off);
	tcase_add_test(tc, test_require_mixed);
	tcase_add_test(tc, test_require_plain_answer);
	tcase_add_test(tc, test_require_no_plain_fallback);
	tcase_add_test(tc, test_require_cached_plain_cut);
	suite_add_tcase(s, tc);
	tc = tcase_create("pin");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_pin);
	tcase_add_test(tc, test_pin_off);
	suite_add_tcase(s, tc);
	tc = tcase_create("keys_from_parent");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_swap_other_key);
	tcase_add_test(tc, test_swap_no_key);
	tcase_add_test(tc, test_ns_same_keys_cached);
	tcase_add_test(tc, test_swap_key_added);
	tcase_add_test(tc, test_swap_plain_beside);
	suite_add_tcase(s, tc);
	tc = tcase_create("dnssec");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_sec_dropped);
	tcase_add_test(tc, test_sec_changed);
	tcase_add_test(tc, test_sec_same_and_expired);
	tcase_add_test(tc, test_sec_parent_never_had);
	tcase_add_test(tc, test_sec_none_confirmed);
	tcase_add_test(tc, test_sec_cached_apex);
	tcase_add_test(tc, test_sec_fetch);
	tcase_add_test(tc, test_sec_unsigned_no_fetch);
	tcase_add_test(tc, test_sec_rrsig_question);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(iter_curve_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
