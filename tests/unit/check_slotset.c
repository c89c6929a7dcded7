/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_slotset.c - unit tests for the sets of (directory, slot) pairs. */
#include <check.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "slotset.h"

/*
 * Stand-ins for directories: the set compares the pointers and never
 * reads through them, so any distinct, aligned addresses will do.
 */
#define DIRS 7
static max_align_t fake[DIRS];

static const struct fp_dir *dir(int i)
{
	return (const struct fp_dir *)(const void *)&fake[i];
}

START_TEST(test_empty)
{
	struct fp_slotset s;

	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(fp_slotset_has(&s, dir(0), 0), 0);
	ck_assert_int_eq(fp_slotset_has(&s, NULL, 0), 0);
	ck_assert_uint_eq(fp_slotset_count(&s), 0);
	fp_slotset_release(&s);		/* nothing to free */
	fp_slotset_release(&s);
	ck_assert_uint_eq(fp_slotset_count(&s), 0);
}
END_TEST

/* A pair is its directory and its slot: neither alone matches. */
START_TEST(test_pairs)
{
	struct fp_slotset s;

	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(fp_slotset_add(&s, dir(1), 5), FP_OK);
	ck_assert_int_eq(fp_slotset_add(&s, dir(2), 0), FP_OK);
	ck_assert_int_eq(fp_slotset_add(&s, dir(2), UINT32_MAX), FP_OK);
	ck_assert_int_eq(fp_slotset_has(&s, dir(1), 5), 1);
	ck_assert_int_eq(fp_slotset_has(&s, dir(1), 4), 0);
	ck_assert_int_eq(fp_slotset_has(&s, dir(1), 0), 0);
	ck_assert_int_eq(fp_slotset_has(&s, dir(2), 5), 0);
	ck_assert_int_eq(fp_slotset_has(&s, dir(2), 0), 1);
	ck_assert_int_eq(fp_slotset_has(&s, dir(2), UINT32_MAX), 1);
	ck_assert_int_eq(fp_slotset_has(&s, dir(3), 5), 0);
	ck_assert_uint_eq(fp_slotset_count(&s), 3);
	/* adding a pair again changes nothing */
	ck_assert_int_eq(fp_slotset_add(&s, dir(1), 5), FP_OK);
	ck_assert_uint_eq(fp_slotset_count(&s), 3);
	fp_slotset_release(&s);
	ck_assert_int_eq(fp_slotset_has(&s, dir(1), 5), 0);
	ck_assert_uint_eq(fp_slotset_count(&s), 0);
	/* and it can be used again */
	ck_assert_int_eq(fp_slotset_add(&s, dir(4), 9), FP_OK);
	ck_assert_int_eq(fp_slotset_has(&s, dir(4), 9), 1);
	fp_slotset_release(&s);
}
END_TEST

/*
 * Many pairs, added in the order a directory's slots go (so that the
 * table grows many times over and its probes wrap), across several
 * directories: each one added is found and each one not added is not,
 * against a plain array of flags.
 */
#define SLOTS 6000u
static unsigned char ref[DIRS][SLOTS];

START_TEST(test_many)
{
	struct fp_slotset s;
	uint32_t slot, n = 0, wrong = 0;
	int d;

	memset(&s, 0, sizeof(s));
	memset(ref, 0, sizeof(ref));
	for (slot = 0; slot < SLOTS; slot++) {
		for (d = 0; d < DIRS; d++) {
			/* every third slot of a directory, shifted by it */
			if ((slot + (uint32_t)d) % 3)
				continue;
			if (fp_slotset_add(&s, dir(d), slot) != FP_OK)
				wrong++;
			ref[d][slot] = 1;
			n++;
		}
	}
	ck_assert_uint_eq(wrong, 0);
	ck_assert_uint_eq(fp_slotset_count(&s), n);
	for (d = 0; d < DIRS; d++)
		for (slot = 0; slot < SLOTS; slot++)
			if (fp_slotset_has(&s, dir(d), slot) != ref[d][slot])
				wrong++;
	ck_assert_uint_eq(wrong, 0);
	fp_slotset_release(&s);
}
END_TEST

static Suite *slotset_suite(void)
{
	Suite *s = suite_create("slotset");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_pairs);
	tcase_add_test(tc, test_many);
	tcase_set_timeout(tc, 60);	/* a sanitizer build on a busy host */
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(slotset_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
