/*
 * tests/unit/check_upshare.c - Suite "upshare": equal upstream queries
 * in flight are sent once, with a fake transport that records sends and
 * cancels and lets the test deliver replies.
 */
#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sodium.h>

#include "transport/upshare.h"

#define FAKE_MAX 200

/* The fake transport: each send gets a slot; cb/arg kept to reply. */
static struct fake_q {
	upstream_cb cb;
	void *arg;
	bool cancelled;
} fq[FAKE_MAX];
static size_t nsent, ncancel;
static int send_rc;

static int fake_send(void *ctx, const struct iter_target *t, uint64_t mono_ms,
                     upstream_cb cb, void *arg, struct upstream_query **out)
{
	(void)ctx;
	(void)t;
	(void)mono_ms;
	if (send_rc != UPSTREAM_OK)
		return send_rc;
	ck_assert_uint_lt(nsent, FAKE_MAX);
	fq[nsent].cb = cb;
	fq[nsent].arg = arg;
	*out = (struct upstream_query *)&fq[nsent];
	nsent++;
	return UPSTREAM_OK;
}

static void fake_cancel(void *ctx, struct upstream_query *q)
{
	struct fake_q *f = (struct fake_q *)q;

	(void)ctx;
	ck_assert(!f->cancelled);
	f->cancelled = true;
	ncancel++;
}

/* Deliver a reply of kind to the query of send number i. */
static void fake_reply(size_t i, enum iter_reply_kind kind)
{
	struct iter_reply r;

	memset(&r, 0, sizeof r);
	r.kind = kind;
	r.token = 999; /* upshare must put each waiter's own */
	ck_assert(!fq[i].cancelled);
	fq[i].cb(fq[i].arg, &r);
}

/* The askers: each records the replies it got. */
struct asker {
	int got;
	uint32_t token;
	enum iter_reply_kind kind;
	struct upshare_q *q;
	void (*hook)(struct asker *a); /* run inside the callback */
};

static struct upshare *t;
static uint64_t joined;
static struct iter_target tg;

static void asker_cb(void *arg, const struct iter_reply *r)
{
	struct asker *a = arg;

	a->got++;
	a->kind = r->kind;
	ck_assert_uint_eq(r->token, a->token);
	if (r->kind != ITER_REPLY_TIMEOUT)
		a->q = NULL; /* a final reply ends the wait (upshare.h) */
	if (a->hook != NULL)
		a->hook(a);
}

static void ask(struct asker *a, uint32_t token)
{
	struct iter_target g = tg;

	a->token = token;
	g.token = token;
	ck_assert_int_eq(upshare_send(t, &g, 0, asker_cb, a, &a->q),
	                 UPSTREAM_OK);
}

/* The asker stops waiting (if it still is). */
static void bye(struct asker *a)
{
	upshare_detach(a->q, a, a->token);
	a->q = NULL;
}

static void setup(void)
{
	struct sockaddr_in *in = (struct sockaddr_in *)&tg.addr;

	memset(fq, 0, sizeof fq);
	nsent = ncancel = 0;
	send_rc = UPSTREAM_OK;
	joined = 0;
	memset(&tg, 0, sizeof tg);
	memcpy(tg.qname, "\7example\3lab\0", 13);
	tg.qnamelen = 13;
	memcpy(tg.zone, "\3lab\0", 5);
	tg.zonelen = 5;
	tg.qtype = 2;
	tg.qclass = 1;
	tg.edns = 1232;
	in->sin_family = AF_INET;
	in->sin_port = htons(53);
	inet_pton(AF_INET, "127.53.1.1", &in->sin_addr);
	tg.addrlen = sizeof *in;
	t = upshare_new(fake_send, fake_cancel, NULL, &joined);
	ck_assert_ptr_nonnull(t);
}

static void teardown(void)
{
	ck_assert_uint_eq(upshare_count(t), 0);
	ck_assert_uint_eq(ncancel, nsent);
	upshare_free(t);
}

/* Three askers of one question: one send; the reply reaches each with
 * its token, and the query is cancelled once, after the last. */
START_TEST(test_join_and_reply)
{
	struct asker a = { 0 }, b = { 0 }, c = { 0 };

	ask(&a, 1);
	ask(&b, 7);
	ask(&c, 9);
	ck_assert_uint_eq(nsent, 1);
	ck_assert_uint_eq(joined, 2);
	ck_assert_uint_eq(upshare_count(t), 1);
	fake_reply(0, ITER_REPLY_MSG);
	ck_assert_int_eq(a.got + b.got + c.got, 3);
	ck_assert_ptr_null(a.q);
	ck_assert_uint_eq(ncancel, 1);
}
END_TEST

/* The key: any of server, port, name, type, class, zone, EDNS size,
 * DNSCurve flag or key apart makes a separate query. */
START_TEST(test_key_fields)
{
	struct asker a[11];
	struct iter_target base = tg;
	size_t i;

	memset(a, 0, sizeof a);
	ask(&a[0], 1);
	for (i = 1; i < 11; i++) {
		tg = base;
		switch (i) {
		case 1:
			((struct sockaddr_in *)&tg.addr)->sin_addr.s_addr ^=
				htonl(1);
			break;
		case 2:
			((struct sockaddr_in *)&tg.addr)->sin_port = htons(54);
			break;
		case 3: tg.qname[1] = 'E'; break; /* keys are exact bytes */
		case 4: tg.qtype = 1; break;
		case 5: tg.qclass = 3; break;
		case 6:
			memcpy(tg.zone, "\0", 1);
			tg.zonelen = 1;
			break;
		case 7: tg.edns = 0; break;
		case 8: tg.curve = true; break;
		case 9:
			tg.curve = true;
			tg.key[0] = 1;
			break;
		case 10: tg.dane = true; break; /* DANE joins no plain one */
		}
		ask(&a[i], 1);
	}
	ck_assert_uint_eq(nsent, 11);
	ck_assert_uint_eq(joined, 0);
	/* padding of the sockaddr does not count */
	tg = base;
	memset(((struct sockaddr_in *)&tg.addr)->sin_zero, 0x5a, 8);
	a[0].q = NULL;
	ask(&a[0], 2);
	ck_assert_uint_eq(nsent, 11);
	ck_assert_uint_eq(joined, 1);
	bye(&a[0]);
	a[0].token = 1; /* still waits under token 1 */
	for (i = 1; i < 11; i++)
		bye(&a[i]);
	fake_reply(0, ITER_REPLY_MSG);
	ck_assert_int_eq(a[0].got, 1);
}
END_TEST

/* A timeout goes to every waiter; the query then takes no new waiter
 * (a fresh send instead) but still delivers a late answer to the old
 * ones; it is cancelled when they are gone. */
START_TEST(test_timeout_then_late)
{
	struct asker a = { 0 }, b = { 0 }, c = { 0 };

	ask(&a, 1);
	ask(&b, 2);
	fake_reply(0, ITER_REPLY_TIMEOUT);
	ck_assert_int_eq(a.got, 1);
	ck_assert_int_eq(b.got, 1);
	ck_assert_int_eq(a.kind, ITER_REPLY_TIMEOUT);
	ask(&c, 3);
	ck_assert_uint_eq(nsent, 2);
	fake_reply(0, ITER_REPLY_MSG);
	ck_assert_int_eq(a.got, 2);
	ck_assert_int_eq(b.kind, ITER_REPLY_MSG);
	ck_assert_int_eq(c.got, 0);
	ck_assert_uint_eq(ncancel, 1);
	bye(&c);
}
END_TEST

/* Detaching: the others still get the reply; when all have gone before
 * any reply, the query is cancelled and nobody is called. */
START_TEST(test_detach)
{
	struct asker a = { 0 }, b = { 0 };

	ask(&a, 1);
	ask(&b, 2);
	bye(&a);
	ck_assert_uint_eq(ncancel, 0);
	upshare_detach(NULL, &a, 1);
	upshare_detach(b.q, &a, 99); /* not a waiter: no change */
	fake_reply(0, ITER_REPLY_UNREACHABLE);
	ck_assert_int_eq(a.got, 0);
	ck_assert_int_eq(b.got, 1);
	ck_assert_uint_eq(ncancel, 1);
	ask(&a, 3);
	ask(&b, 4);
	bye(&b);
	bye(&a);
	ck_assert_uint_eq(ncancel, 2);
	ck_assert_int_eq(a.got + b.got, 1);
}
END_TEST

/* Inside a hand-out: the first waiter's callback detaches the second
 * (which is then not called) and asks the same question again (a new
 * send: the ending query takes nobody). */
static struct asker hx_a, hx_b, hx_c;

static void hook_first(struct asker *a)
{
	(void)a;
	bye(&hx_b);
	ask(&hx_c, 3);
}

START_TEST(test_reentry)
{
	memset(&hx_a, 0, sizeof hx_a);
	memset(&hx_b, 0, sizeof hx_b);
	memset(&hx_c, 0, sizeof hx_c);
	hx_a.hook = hook_first;
	ask(&hx_a, 1);
	ask(&hx_b, 2);
	fake_reply(0, ITER_REPLY_MSG);
	ck_assert_int_eq(hx_a.got, 1);
	ck_assert_int_eq(hx_b.got, 0);
	ck_assert_uint_eq(nsent, 2);
	ck_assert_uint_eq(ncancel, 1);
	ck_assert_uint_eq(upshare_count(t), 1);
	fake_reply(1, ITER_REPLY_MSG);
	ck_assert_int_eq(hx_c.got, 1);
}
END_TEST

/* At UPSHARE_WAITERS_MAX waiters a query is full: the next asker gets
 * a query of its own. A failed send is the caller's to report. */
START_TEST(test_full_and_fail)
{
	static struct asker a[UPSHARE_WAITERS_MAX + 1];
	struct asker f = { 0 };
	struct iter_target g = tg;
	size_t i;

	memset(a, 0, sizeof a);
	for (i = 0; i <= UPSHARE_WAITERS_MAX; i++)
		ask(&a[i], (uint32_t)i + 1);
	ck_assert_uint_eq(nsent, 2);
	ck_assert_uint_eq(joined, UPSHARE_WAITERS_MAX - 1);
	fake_reply(0, ITER_REPLY_MSG);
	fake_reply(1, ITER_REPLY_MSG);
	for (i = 0; i <= UPSHARE_WAITERS_MAX; i++)
		ck_assert_int_eq(a[i].got, 1);
	send_rc = UPSTREAM_ESOCKET;
	g.token = 5;
	f.q = NULL;
	ck_assert_int_eq(upshare_send(t, &g, 0, asker_cb, &f, &f.q),
	                 UPSTREAM_ESOCKET);
	ck_assert_ptr_null(f.q);
	g.qnamelen = WIRE_NAME_MAX + 1;
	ck_assert_int_eq(upshare_send(t, &g, 0, asker_cb, &f, &f.q),
	                 UPSTREAM_EBUILD);
	ck_assert_uint_eq(upshare_count(t), 0);
}
END_TEST

static Suite *upshare_suite(void)
{
	Suite *su = suite_create("upshare");
	TCase *tc = tcase_create("share");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_join_and_reply);
	tcase_add_test(tc, test_key_fields);
	tcase_add_test(tc, test_timeout_then_late);
	tcase_add_test(tc, test_detach);
	tcase_add_test(tc, test_reentry);
	tcase_add_test(tc, test_full_and_fail);
	suite_add_tcase(su, tc);
	return su;
}

int main(void)
{
	SRunner *sr;
	int failed;

	if (sodium_init() < 0)
		return EXIT_FAILURE;
	sr = srunner_create(upshare_suite());
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
