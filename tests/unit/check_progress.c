/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_progress.c - progress reports of the commit and the checker. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "plan.h"
#include "progress.h"
#include "testvol.h"
#include "verify.h"

/* Every report, for the assertions. */
struct calls {
	uint64_t done[1024];
	uint64_t total;
	size_t count;
	int bad_total;		/* the total changed between reports */
};

static void record(void *ctx, uint64_t done, uint64_t total)
{
	struct calls *c = ctx;

	if (c->count && total != c->total)
		c->bad_total = 1;
	c->total = total;
	if (c->count < sizeof(c->done) / sizeof(c->done[0]))
		c->done[c->count] = done;
	c->count++;
}

/* Reports start at 0, never go back, end at the total, and are few. */
static void assert_sane(const struct calls *c, size_t max)
{
	size_t i;

	ck_assert_uint_ge(c->count, 2);
	ck_assert_uint_le(c->count, max);
	ck_assert(!c->bad_total);
	ck_assert_uint_eq(c->done[0], 0);
	for (i = 1; i < c->count; i++)
		ck_assert_uint_gt(c->done[i], c->done[i - 1]);
	ck_assert_uint_eq(c->done[c->count - 1], c->total);
}

START_TEST(test_tick_rate)
{
	struct calls c;
	struct fp_progress p = { record, &c };
	struct fp_tick t;
	uint64_t d;

	memset(&c, 0, sizeof(c));
	fp_progress_tick_start(&t, &p, 1000000);
	for (d = 1; d <= 1000000; d++)
		fp_progress_tick(&t, d);
	fp_progress_tick(&t, 1000000);	/* the end is reported once */
	assert_sane(&c, 102);
	ck_assert_uint_ge(c.count, 100);
}
END_TEST

START_TEST(test_tick_jumps_and_none)
{
	struct calls c;
	struct fp_progress p = { record, &c }, empty = { NULL, NULL };
	struct fp_tick t;

	/* 250 units in steps of 3: the end is reported although it is less
	 * than a step past the last report. */
	memset(&c, 0, sizeof(c));
	fp_progress_tick_start(&t, &p, 250);
	fp_progress_tick(&t, 3);
	fp_progress_tick(&t, 249);
	fp_progress_tick(&t, 250);
	assert_sane(&c, 4);
	ck_assert_uint_eq(c.count, 4);
	/* Past the total counts as the total. */
	memset(&c, 0, sizeof(c));
	fp_progress_tick_start(&t, &p, 10);
	fp_progress_tick(&t, 20);
	assert_sane(&c, 2);
	/* No callback, or no work: nothing. */
	memset(&c, 0, sizeof(c));
	fp_progress_tick_start(&t, NULL, 10);
	fp_progress_tick(&t, 10);
	fp_progress_tick_start(&t, &empty, 10);
	fp_progress_tick(&t, 10);
	fp_progress_tick_start(&t, &p, 0);
	fp_progress_tick(&t, 0);
	ck_assert_uint_eq(c.count, 0);
}
END_TEST

START_TEST(test_commit_zeroing)
{
	struct fp_req r = { "/BIG.BIN", 3u << 20 };
	struct fp_plan_opts o;
	struct fp_plan_diag diag;
	struct fp_plan *plan;
	struct fp_fs *fs;
	struct fp_img *img;
	struct calls c;
	struct fp_progress p = { record, &c };

	testvol_make();
	memset(&o, 0, sizeof(o));
	memset(&c, 0, sizeof(c));
	o.progress = &p;
	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &img), FP_OK);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	ck_assert_int_eq(fp_plan_build(fs, &o, &r, 1, &plan, &diag), FP_OK);
	ck_assert_uint_eq(c.count, 0);	/* planning zeroes nothing */
	ck_assert_int_eq(fp_plan_commit(plan, 1), FP_OK);
	/* 3 MiB of new clusters, reported in 1 MiB chunks. */
	ck_assert_uint_eq(c.total, 3u << 20);
	assert_sane(&c, 4);
	ck_assert_uint_eq(c.count, 4);
	fp_plan_free(plan);
	fp_fs_free(fs);
	fp_img_close(img);
	testvol_free();
}
END_TEST

START_TEST(test_verify)
{
	struct fp_report *a = NULL, *b = NULL;
	struct fp_report_summary sa, sb;
	struct fp_img *img;
	struct calls c;
	struct fp_progress p = { record, &c };
	unsigned k;

	testvol_make();
	/* A file of 1000 clusters from cluster 2. */
	for (k = 2; k < 1001; k++)
		put_fat(k, (uint16_t)(k + 1));
	put_fat(1001, 0xFFFF);
	memcpy(vol + ROOT, "A       BIN", 11);
	vol[ROOT + 11] = 0x20;
	vol[ROOT + 26] = 2;
	vol[ROOT + 28] = 0;
	vol[ROOT + 29] = (1000 * SEC) >> 8 & 0xFF;
	vol[ROOT + 30] = (1000 * SEC) >> 16 & 0xFF;
	memset(&c, 0, sizeof(c));
	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &img), FP_OK);
	ck_assert_int_eq(fp_verify_progress(img, &p, &a), FP_OK);
	ck_assert_int_eq(fp_verify(img, &b), FP_OK);
	/* Two units per cluster: the FAT pass, then the walk. */
	ck_assert_uint_eq(c.total, 2u * CLUSTERS);
	assert_sane(&c, 110);
	ck_assert_uint_ge(c.count, 50);
	/* Progress changes nothing in the report. */
	fp_report_summary(a, &sa);
	fp_report_summary(b, &sb);
	ck_assert_uint_eq(sa.errors, 0);
	ck_assert_uint_eq(sa.files, 1);
	ck_assert_uint_eq(sa.used, 1000);
	ck_assert_uint_eq(sa.used, sb.used);
	ck_assert_uint_eq(fp_report_finding_count(a),
			  fp_report_finding_count(b));
	fp_report_free(a);
	fp_report_free(b);
	fp_img_close(img);
	testvol_free();
}
END_TEST

int main(void)
{
	Suite *s = suite_create("progress");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, test_tick_rate);
	tcase_add_test(tc, test_tick_jumps_and_none);
	tcase_add_test(tc, test_commit_zeroing);
	tcase_add_test(tc, test_verify);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
