/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_diff.c - unit tests for the --diff summary (diff.h). */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "diff.h"

#define BIT(x) (1u << (x))

/* The summary of @r, in a buffer of @len bytes. */
static const char *summary(struct fp_diff_result *r, size_t len)
{
	static char buf[1024];

	memset(buf, 'x', sizeof(buf));
	fp_diff_summary(r, buf, len);
	ck_assert_uint_lt(strlen(buf), len);
	return buf;
}

START_TEST(test_identical)
{
	struct fp_diff_result r = { .identical = 1 };

	ck_assert_str_eq(summary(&r, 1024), "the volumes are byte-identical");
}
END_TEST

/* A field explains the boot sector: it is the only part. */
START_TEST(test_one_field)
{
	struct fp_diff_result r = { .fields = 1,
				    .regions = BIT(FP_DIFF_R_RESERVED) };

	strcpy(r.field_names, "serial");
	ck_assert_str_eq(summary(&r, 1024), "only the volume serial");
	r.fields = 2;
	strcpy(r.field_names, "serial, label");
	r.regions |= BIT(FP_DIFF_R_ROOT);
	ck_assert_str_eq(summary(&r, 1024),
			 "only volume fields (serial, label)");
}
END_TEST

START_TEST(test_order_and_times)
{
	struct fp_diff_result r = { .aspects = BIT(FP_DIFF_ORDER),
				    .regions = BIT(FP_DIFF_R_USED) };

	r.aspect_count[FP_DIFF_ORDER] = 1;
	r.order_dir = (char *)"/EFI";
	ck_assert_str_eq(summary(&r, 1024), "only entry order in /EFI");
	r.aspect_count[FP_DIFF_ORDER] = 3;
	ck_assert_str_eq(summary(&r, 1024),
			 "only entry order in 3 directories");
	r.aspects = BIT(FP_DIFF_MTIME);
	ck_assert_str_eq(summary(&r, 1024), "only mtimes");
	r.aspects |= BIT(FP_DIFF_CONTENT);
	ck_assert_str_eq(summary(&r, 1024), "content and mtimes");
}
END_TEST

/* Bytes that no difference explains are named; explained ones are not. */
START_TEST(test_regions)
{
	struct fp_diff_result r = { .regions = BIT(FP_DIFF_R_FREE) };

	ck_assert_str_eq(summary(&r, 1024), "only bytes in free space");
	r.regions = BIT(FP_DIFF_R_FAT_COPIES);
	ck_assert_str_eq(summary(&r, 1024), "only bytes in FAT copies");
	r.regions |= BIT(FP_DIFF_R_FAT);	/* a second copy follows */
	ck_assert_str_eq(summary(&r, 1024), "only bytes in FAT");
	r.aspects = BIT(FP_DIFF_ADDED);
	r.aspect_count[FP_DIFF_ADDED] = 2;
	r.regions |= BIT(FP_DIFF_R_FREE) | BIT(FP_DIFF_R_USED);
	ck_assert_str_eq(summary(&r, 1024),
			 "2 files added and bytes in free space");
}
END_TEST

/* A short buffer gets a truncated, terminated summary. */
START_TEST(test_short_buffer)
{
	struct fp_diff_result r = { .regions = BIT(FP_DIFF_R_FREE) |
					       BIT(FP_DIFF_R_TAIL) };

	ck_assert_str_eq(summary(&r, 8), "bytes i");
}
END_TEST

static Suite *diff_suite(void)
{
	Suite *s = suite_create("diff");
	TCase *tc = tcase_create("summary");

	tcase_add_test(tc, test_identical);
	tcase_add_test(tc, test_one_field);
	tcase_add_test(tc, test_order_and_times);
	tcase_add_test(tc, test_regions);
	tcase_add_test(tc, test_short_buffer);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(diff_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
