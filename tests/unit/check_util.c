/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_util.c - unit tests for the growable-array helper in util.h. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "util.h"

START_TEST(test_grow_doubles)
{
	uint32_t *v = NULL;
	size_t cap = 0, count;

	for (count = 0; count < 100; count++) {
		ck_assert_int_eq(fp_grow(&v, &cap, count, sizeof(*v)), FP_OK);
		ck_assert_uint_gt(cap, count);
		v[count] = (uint32_t)count;
	}
	ck_assert_uint_eq(cap, 128);
	for (count = 0; count < 100; count++)
		ck_assert_uint_eq(v[count], count);
	free(v);
}
END_TEST

START_TEST(test_grow_room_left)
{
	uint32_t *v = malloc(4 * sizeof(*v));
	uint32_t *old = v;
	size_t cap = 4;

	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(fp_grow(&v, &cap, 3, sizeof(*v)), FP_OK);
	ck_assert_ptr_eq(v, old);
	ck_assert_uint_eq(cap, 4);
	free(v);
}
END_TEST

/* cap * 2 * elem past SIZE_MAX is refused, not wrapped to a small size. */
START_TEST(test_grow_overflow)
{
	char *v = malloc(1);
	char *old = v;
	size_t cap = SIZE_MAX / 64 + 1;

	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(fp_grow(&v, &cap, cap, 32), FP_E_NOMEM);
	ck_assert_ptr_eq(v, old);
	ck_assert_uint_eq(cap, SIZE_MAX / 64 + 1);
	cap = SIZE_MAX / 2 + 1;
	ck_assert_int_eq(fp_grow(&v, &cap, cap, 1), FP_E_NOMEM);
	ck_assert_uint_eq(cap, SIZE_MAX / 2 + 1);
	free(v);
}
END_TEST

static Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("grow");

	tcase_add_test(tc, test_grow_doubles);
	tcase_add_test(tc, test_grow_room_left);
	tcase_add_test(tc, test_grow_overflow);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(util_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
