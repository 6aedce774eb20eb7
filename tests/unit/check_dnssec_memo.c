/*
 * tests/unit/check_dnssec_memo.c - the per-thread memo of verified
 * signatures (resolver/validate/dnssec_memo.h): a digest changes with
 * the key, the signature, the data and where the two split; only what
 * was added is seen; a slot holds the last digest put in it.
 */
#include <string.h>

#include "dnssec_test.h"
#include "validate/dnssec_memo.h"

START_TEST(test_memo_digest)
{
	uint8_t id[DNSSEC_MEMO_DIGEST], id2[DNSSEC_MEMO_DIGEST];
	uint8_t a[DNSSEC_MEMO_DIGEST], b[DNSSEC_MEMO_DIGEST];
	const uint8_t key[] = { 1, 2, 3, 4 }, msg[] = "signature|data";

	ck_assert(dnssec_memo_key_id(13, key, sizeof key, id));
	ck_assert(dnssec_memo_key_id(14, key, sizeof key, id2));
	ck_assert_mem_ne(id, id2, DNSSEC_MEMO_DIGEST); /* algorithm */
	ck_assert(dnssec_memo_digest(id, msg, 9, msg + 9, 5, a));
	ck_assert(dnssec_memo_digest(id2, msg, 9, msg + 9, 5, b));
	ck_assert_mem_ne(a, b, DNSSEC_MEMO_DIGEST); /* key */
	ck_assert(dnssec_memo_digest(id, msg, 10, msg + 10, 4, b));
	ck_assert_mem_ne(a, b, DNSSEC_MEMO_DIGEST); /* split */
	ck_assert(dnssec_memo_digest(id, msg, 9, msg + 9, 4, b));
	ck_assert_mem_ne(a, b, DNSSEC_MEMO_DIGEST); /* data */
	ck_assert(dnssec_memo_digest(id, msg, 9, msg + 9, 5, b));
	ck_assert_mem_eq(a, b, DNSSEC_MEMO_DIGEST);
}
END_TEST

START_TEST(test_memo_seen)
{
	uint8_t a[DNSSEC_MEMO_DIGEST], b[DNSSEC_MEMO_DIGEST];

	memset(a, 0x11, sizeof a);
	memcpy(b, a, sizeof b);
	b[DNSSEC_MEMO_DIGEST - 1] ^= 1; /* same slot, other digest */
	ck_assert(!dnssec_memo_seen(a));
	dnssec_memo_add(a);
	ck_assert(dnssec_memo_seen(a));
	ck_assert(!dnssec_memo_seen(b));
	dnssec_memo_add(b);
	ck_assert(dnssec_memo_seen(b));
	ck_assert(!dnssec_memo_seen(a));
}
END_TEST

TCase *dnssec_memo_tcase(void)
{
	TCase *tc = tcase_create("memo");

	tcase_add_test(tc, test_memo_digest);
	tcase_add_test(tc, test_memo_seen);
	return tc;
}
