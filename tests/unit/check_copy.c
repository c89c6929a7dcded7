/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_copy.c - unit tests for writing host files into image runs. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "copy.h"
#include "tmpdir.h"

static char dir[4096], path[4200];

static uint8_t byte_at(uint64_t pos)
{
	return (uint8_t)(1 + pos % 251);
}

/* A host file of @len bytes of byte_at(), zeros in [@hole, @hole_end). */
static void make_src(uint64_t len, uint64_t hole, uint64_t hole_end)
{
	ck_assert_ptr_nonnull(mkdtemp(test_tmpl(dir, sizeof(dir),
						"check_copy")));
	snprintf(path, sizeof(path), "%s/src", dir);
	test_write_file(path, len, hole, hole_end, byte_at);
}

static void rm_src(void)
{
	unlink(path);
	rmdir(dir);
}

/*
 * @len bytes into runs at @offs of @lens (garbage in the image before):
 * the file's bytes run by run, zeros in its hole and after its end.
 */
static void copy_and_check(uint64_t len, uint64_t hole, uint64_t hole_end,
			   const struct fp_copy_run *runs, size_t count,
			   uint64_t img_len)
{
	uint8_t *junk = malloc(img_len);
	struct fp_copy *c;
	struct fp_img *img;
	const uint8_t *d;
	uint64_t pos = 0, i, want;
	size_t r;

	ck_assert_ptr_nonnull(junk);
	memset(junk, 0xEE, img_len);
	make_src(len, hole, hole_end);
	ck_assert_int_eq(fp_img_mem(junk, img_len, &img), FP_OK);
	ck_assert_int_eq(fp_copy_new(&c), FP_OK);
	ck_assert_int_eq(fp_copy_file(c, img, path, len, runs, count), FP_OK);
	d = fp_img_mem_data(img);
	for (r = 0; r < count; r++) {
		for (i = 0; i < runs[r].len; i++, pos++) {
			want = pos >= len || (pos >= hole && pos < hole_end) ?
			       0 : byte_at(pos);
			if (d[runs[r].off + i] != want)
				ck_abort_msg("byte %llu of the file",
					     (unsigned long long)pos);
		}
	}
	ck_assert_uint_eq(d[runs[0].off - 1], 0xEE);
	fp_copy_free(c);
	fp_img_close(img);
	free(junk);
	rm_src();
}

/* A small file in two runs, the rest of the last one zeroed. */
START_TEST(test_small_two_runs)
{
	struct fp_copy_run runs[] = { { 4096, 1024 }, { 16384, 1024 } };

	copy_and_check(1500, 0, 0, runs, 2, 32768);
}
END_TEST

/* Over the 1 MiB buffer, with a hole: read and written in pieces. */
START_TEST(test_large_with_hole)
{
	struct fp_copy_run runs[] = { { 512, 1536 * 1024 },
				      { 2 * 1024 * 1024, 1024 * 1024 } };

	copy_and_check(2 * 1024 * 1024 + 1000, 300000, 1400000, runs, 2,
		       4 * 1024 * 1024);
}
END_TEST

/* A source that is gone, or no longer of the planned size. */
START_TEST(test_missing_or_changed)
{
	struct fp_copy_run run = { 0, 4096 };
	uint8_t zero[8192] = { 0 };
	struct fp_copy *c;
	struct fp_img *img;

	ck_assert_int_eq(fp_img_mem(zero, sizeof(zero), &img), FP_OK);
	ck_assert_int_eq(fp_copy_new(&c), FP_OK);
	make_src(100, 0, 0);
	ck_assert_int_eq(fp_copy_file(c, img, path, 101, &run, 1),
			 FP_E_CHANGED);
	rm_src();
	ck_assert_int_eq(fp_copy_file(c, img, path, 100, &run, 1), FP_E_SRC);
	ck_assert_int_eq(fp_copy_errno(c), ENOENT);
	ck_assert_mem_eq(fp_img_mem_data(img), zero, sizeof(zero));
	ck_assert_uint_eq(fp_copy_offloaded(c), 0);
	fp_copy_free(c);
	fp_img_close(img);
}
END_TEST

/* Bytes held in memory go into the runs the same way, zeros after. */
START_TEST(test_mem_two_runs)
{
	struct fp_copy_run runs[] = { { 4096, 1024 }, { 16384, 1024 } };
	uint8_t *junk = malloc(32768), src[1500];
	struct fp_copy *c;
	struct fp_img *img;
	const uint8_t *d;
	size_t i;

	ck_assert_ptr_nonnull(junk);
	memset(junk, 0xEE, 32768);
	for (i = 0; i < sizeof(src); i++)
		src[i] = byte_at(i);
	ck_assert_int_eq(fp_img_mem(junk, 32768, &img), FP_OK);
	ck_assert_int_eq(fp_copy_new(&c), FP_OK);
	ck_assert_int_eq(fp_copy_mem(c, img, src, sizeof(src), runs, 2),
			 FP_OK);
	d = fp_img_mem_data(img);
	ck_assert_mem_eq(d + 4096, src, 1024);
	ck_assert_mem_eq(d + 16384, src + 1024, sizeof(src) - 1024);
	for (i = 16384 + sizeof(src) - 1024; i < 16384 + 1024; i++)
		ck_assert_uint_eq(d[i], 0);
	ck_assert_uint_eq(d[4095], 0xEE);
	ck_assert_uint_eq(d[4096 + 1024], 0xEE);
	ck_assert_uint_eq(fp_copy_offloaded(c), 0);
	fp_copy_free(c);
	fp_img_close(img);
	free(junk);
}
END_TEST

/*
 * A FIFO put where a planned file was is no longer a regular file, found
 * without waiting for a writer (the test's timeout fails a hang).
 */
START_TEST(test_fifo_in_place)
{
	struct fp_copy_run run = { 0, 4096 };
	uint8_t zero[8192] = { 0 };
	struct fp_copy *c;
	struct fp_img *img;

	ck_assert_int_eq(fp_img_mem(zero, sizeof(zero), &img), FP_OK);
	ck_assert_int_eq(fp_copy_new(&c), FP_OK);
	make_src(100, 0, 0);
	ck_assert_int_eq(unlink(path), 0);
	ck_assert_int_eq(mkfifo(path, 0600), 0);
	ck_assert_int_eq(fp_copy_file(c, img, path, 100, &run, 1),
			 FP_E_CHANGED);
	ck_assert_mem_eq(fp_img_mem_data(img), zero, sizeof(zero));
	fp_copy_free(c);
	fp_img_close(img);
	rm_src();
}
END_TEST

static Suite *copy_suite(void)
{
	Suite *s = suite_create("copy");
	TCase *tc = tcase_create("file");

	tcase_add_test(tc, test_small_two_runs);
	tcase_add_test(tc, test_large_with_hole);
	tcase_add_test(tc, test_missing_or_changed);
	tcase_add_test(tc, test_fifo_in_place);
	tcase_add_test(tc, test_mem_two_runs);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(copy_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
