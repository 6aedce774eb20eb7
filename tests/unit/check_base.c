/*
 * tests/unit/check_base.c - Suite "base": resolver/base/base.h, the two kinds
 * of assertion (REQUIRE stops the process in every build; DEBUG_ASSERT
 * only where NDEBUG is not set) and the shared key size.
 */
#include <check.h>
#include <signal.h>
#include <stdlib.h>

#include "base/base.h"
#include "curve.h"

static volatile int after;

START_TEST(test_require_holds)
{
	int a[4] = { 0 };
	size_t i = 3;

	REQUIRE(i < sizeof a / sizeof a[0]);
	a[i] = 1;
	ck_assert_int_eq(a[3], 1);
}
END_TEST

START_TEST(test_require_aborts)
{
	size_t i = 4;

	REQUIRE(i < 4);
	after = 1;  /* never reached: the test expects SIGABRT */
}
END_TEST

START_TEST(test_key_size)
{
	ck_assert_int_eq(KEY_BYTES, CURVE_KEY_BYTES);
}
END_TEST

static Suite *base_suite(void)
{
	Suite *s = suite_create("base");
	TCase *tc = tcase_create("base");

	tcase_add_test(tc, test_require_holds);
	tcase_add_test_raise_signal(tc, test_require_aborts, SIGABRT);
	tcase_add_test(tc, test_key_size);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(base_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
