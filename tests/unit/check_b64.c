/*
 * tests/unit/check_b64.c - resolver/wire/b64.h: base64 (RFC 4648 s4) and
 * base64url (s5) with one decoder, the alphabet an argument; RFC 4648
 * s10's test vectors, padding, stray bits, and the two users' rules.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "wire/b64.h"

/* A whole padded text, a character at a time; its bytes in out. */
static int padded(const char *last, const char *text, uint8_t *out, size_t *n)
{
	struct b64 b;
	uint8_t byte = 0;
	size_t i;
	int rc;

	*n = 0;
	b64_start(&b, last);
	for (i = 0; text[i] != '\0'; i++) {
		if ((rc = b64_char(&b, text[i], &byte)) == B64_EBAD)
			return B64_EBAD;
		if (rc == B64_BYTE)
			out[(*n)++] = byte;
	}
	return b64_whole_padded(&b) ? B64_OK : B64_EBAD;
}

/* RFC 4648 s10: "" "f" "fo" "foo" "foob" "fooba" "foobar". */
START_TEST(test_rfc_vectors)
{
	static const char *const enc[] = {
		"Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy"
	};
	static const char dec[] = "foobar";
	uint8_t out[16];
	size_t i, n;

	for (i = 0; i < sizeof enc / sizeof enc[0]; i++) {
		ck_assert_int_eq(padded(B64_STD, enc[i], out, &n), B64_OK);
		ck_assert_uint_eq(n, i + 1);
		ck_assert(memcmp(out, dec, n) == 0);
	}
	/* unpadded, as DoH sends it */
	ck_assert_int_eq(b64_decode(B64_URL, "Zm9vYg", 6, out, sizeof out, &n),
	                 B64_OK);
	ck_assert_uint_eq(n, 4);
	ck_assert(memcmp(out, "foob", 4) == 0);
	ck_assert_int_eq(padded(B64_STD, "", out, &n), B64_EBAD); /* empty */
}
END_TEST

/* 62 and 63 are the alphabet's: '+' '/' in one, '-' '_' in the other. */
START_TEST(test_alphabets)
{
	uint8_t out[8];
	size_t n;

	ck_assert_int_eq(padded(B64_STD, "+/+/", out, &n), B64_OK);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(out[0], 0xfb);
	ck_assert_uint_eq(out[1], 0xff);
	ck_assert_uint_eq(out[2], 0xbf);
	ck_assert_int_eq(padded(B64_STD, "-_-_", out, &n), B64_EBAD);
	ck_assert_int_eq(b64_decode(B64_URL, "-_-_", 4, out, sizeof out, &n),
	                 B64_OK);
	ck_assert_uint_eq(out[0], 0xfb);
	ck_assert_int_eq(b64_decode(B64_URL, "+/+/", 4, out, sizeof out, &n),
	                 B64_EBAD);
	ck_assert_uint_eq(n, 0);
}
END_TEST

/* Padding only at the end of a block, nothing after it; no stray bits
 * in the padded form; lengths 4n + 1 and too small a buffer refused. */
START_TEST(test_refused)
{
	uint8_t out[4];
	size_t n;

	ck_assert_int_eq(padded(B64_STD, "Z===", out, &n), B64_EBAD);
	ck_assert_int_eq(padded(B64_STD, "Zg==Zg==", out, &n), B64_EBAD);
	ck_assert_int_eq(padded(B64_STD, "Zg=A", out, &n), B64_EBAD);
	ck_assert_int_eq(padded(B64_STD, "Zh==", out, &n), B64_EBAD);
	ck_assert_int_eq(padded(B64_STD, "Zm9", out, &n), B64_EBAD);
	ck_assert_int_eq(padded(B64_STD, "Zm 9v", out, &n), B64_EBAD);
	ck_assert_int_eq(b64_decode(B64_URL, "Zm9vY", 5, out, sizeof out, &n),
	                 B64_EBAD);
	ck_assert_int_eq(b64_decode(B64_URL, "Zg==", 4, out, sizeof out, &n),
	                 B64_EBAD);
	ck_assert_int_eq(b64_decode(B64_URL, "Zm9vYmFy", 8, out, sizeof out,
	                            &n),
	                 B64_EFULL);
	ck_assert_int_eq(b64_decode(B64_URL, "Zm9vYg", 6, out, sizeof out, &n),
	                 B64_OK); /* exactly the room there is */
}
END_TEST

static Suite *b64_suite(void)
{
	Suite *s = suite_create("b64");
	TCase *t = tcase_create("decode");

	tcase_add_test(t, test_rfc_vectors);
	tcase_add_test(t, test_alphabets);
	tcase_add_test(t, test_refused);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(b64_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
