/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_plan.c - the planner and its commit on a memory image. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "le.h"
#include "plan.h"
#include "testvol.h"

static void setup(void)
{
	testvol_make();
}

static void teardown(void)
{
	testvol_free();
}

struct ctx {
	struct fp_img *img;
	struct fp_fs *fs;
	struct fp_plan *plan;
	struct fp_plan_diag diag;
};

static void ctx_open(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &c->img),
			 FP_OK);
	ck_assert_int_eq(fp_fs_open(c->img, &c->fs), FP_OK);
	ck_assert_int_eq(fp_fs_geom(c->fs)->type, FP_FAT16);
	ck_assert_uint_eq(fp_fs_geom(c->fs)->cluster_count, CLUSTERS);
}

static void ctx_close(struct ctx *c)
{
	fp_plan_free(c->plan);
	fp_fs_free(c->fs);
	fp_img_close(c->img);
}

static enum fp_err plan(struct ctx *c, const struct fp_plan_opts *o,
			const struct fp_req *r, size_t n)
{
	return fp_plan_build(c->fs, o, r, n, &c->plan, &c->diag);
}

/* Entry of cluster @cl as committed to FAT copy @copy of the memory image. */
static uint16_t disk_fat(const struct ctx *c, int copy, uint32_t cl)
{
	const uint8_t *d = fp_img_mem_data(c->img);

	return fp_le16(d + (copy ? FAT1 : FAT0) + 2 * cl);
}

START_TEST(test_new_files_are_contiguous_in_request_order)
{
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1 };
	struct fp_req r[] = { { "/a.bin", 3 * SEC }, { "/b.bin", 1 } };
	const struct fp_plan_file *f;
	size_t n;
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, &o, r, 2), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	f = fp_plan_files(c.plan, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(f[0].action, FP_ACT_CREATE);
	ck_assert_uint_eq(f[0].ext_count, 1);
	ck_assert_uint_eq(f[0].ext[0].start, 2);
	ck_assert_uint_eq(f[0].ext[0].count, 3);
	ck_assert_uint_eq(f[1].ext[0].start, 5);
	ck_assert_uint_eq(f[1].ext[0].count, 1);
	ck_assert_uint_eq(fp_plan_alloc_count(c.plan), 4);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	ck_assert_uint_eq(disk_fat(&c, 0, 2), 3);
	ck_assert_uint_eq(disk_fat(&c, 0, 3), 4);
	ck_assert_uint_eq(disk_fat(&c, 0, 4), 0xFFFF);
	ck_assert_uint_eq(disk_fat(&c, 1, 4), 0xFFFF);
	ck_assert_uint_eq(disk_fat(&c, 1, 5), 0xFFFF);
	ck_assert_uint_eq(disk_fat(&c, 0, 6), 0);
	ctx_close(&c);
}
END_TEST

START_TEST(test_short_entry_written_with_case_bits)
{
	struct fp_plan_opts o = { .time = 0, .utc = 1 };
	struct fp_req r[] = { { "/readme.txt", 10 } };
	const uint8_t *root;
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, &o, r, 1), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	root = fp_img_mem_data(c.img) + ROOT;
	ck_assert_mem_eq(root, "README  TXT", 11);
	ck_assert_uint_eq(root[DIR_NTRES], FP_NT_LOWER_BASE | FP_NT_LOWER_EXT);
	ck_assert_uint_eq(fp_le16(root + DIR_CLUS_LO), 2);
	ck_assert_uint_eq(fp_le32(root + DIR_SIZE), 10);
	/* 1970 is before the FAT epoch: clamped to 1980-01-01 00:00. */
	ck_assert_uint_eq(fp_le16(root + DIR_WRT_DATE), (1 << 5) | 1);
	ck_assert_uint_eq(root[32], 0);	/* end marker follows */
	ctx_close(&c);
}
END_TEST

/* Plan @r on a fresh open of the same memory image and commit it. */
static void plan_commit(struct ctx *c, const struct fp_req *r, size_t n)
{
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1 };

	fp_plan_free(c->plan);
	c->plan = NULL;
	fp_fs_free(c->fs);
	ck_assert_int_eq(fp_fs_open(c->img, &c->fs), FP_OK);
	ck_assert_int_eq(plan(c, &o, r, n), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c->plan, 1), FP_OK);
}

START_TEST(test_extend_continues_after_last_cluster)
{
	struct fp_req r1[] = { { "/x", SEC }, { "/y", SEC } };
	struct fp_req r2[] = { { "/X", 3 * SEC }, { "/z", 1 } };
	const struct fp_plan_file *f;
	const uint8_t *root;
	size_t n;
	struct ctx c;

	ctx_open(&c);
	plan_commit(&c, r1, 2);		/* x: 2, y: 3 */
	plan_commit(&c, r2, 2);		/* y blocks 3: x goes on at 4-5 */
	f = fp_plan_files(c.plan, &n);
	ck_assert_int_eq(f[0].action, FP_ACT_EXTEND);
	ck_assert_uint_eq(f[0].old_clusters, 1);
	ck_assert_uint_eq(f[0].ext[0].start, 4);
	ck_assert_uint_eq(f[0].ext[0].count, 2);
	ck_assert_uint_eq(f[1].ext[0].start, 6);
	ck_assert_uint_eq(disk_fat(&c, 0, 2), 4);
	ck_assert_uint_eq(disk_fat(&c, 1, 2), 4);
	ck_assert_uint_eq(disk_fat(&c, 1, 5), 0xFFFF);
	root = fp_img_mem_data(c.img) + ROOT;
	ck_assert_mem_eq(root, "X          ", 11);
	ck_assert_uint_eq(fp_le32(root + DIR_SIZE), 3 * SEC);
	ck_assert_uint_eq(fp_le16(root + DIR_CLUS_LO), 2);
	ctx_close(&c);
}
END_TEST

START_TEST(test_satisfied_request_writes_nothing)
{
	struct fp_req r1[] = { { "/x", 5000 } };
	struct fp_req r2[] = { { "/x", 4000 } };
	const struct fp_plan_file *f;
	unsigned long writes;
	size_t n;
	struct ctx c;

	ctx_open(&c);
	plan_commit(&c, r1, 1);
	writes = fp_img_write_count(c.img);
	plan_commit(&c, r2, 1);
	f = fp_plan_files(c.plan, &n);
	ck_assert_int_eq(f[0].action, FP_ACT_NONE);
	ck_assert_uint_eq(f[0].new_size, 5000);
	ck_assert_uint_eq(fp_img_write_count(c.img), writes);
	ctx_close(&c);
}
END_TEST

START_TEST(test_duplicate_path_refused)
{
	struct fp_plan_opts o = { .time = 1, .utc = 1 };
	struct fp_req r[] = { { "/Data.bin", 1 }, { "/DATA.BIN", 2 } };
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, &o, r, 2), FP_E_DUPPATH);
	ck_assert_uint_eq(c.diag.req, 1);
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	ctx_close(&c);
}
END_TEST

START_TEST(test_no_space_and_too_big)
{
	struct fp_plan_opts o = { .time = 1, .utc = 1 };
	struct fp_req big[] = { { "/big", (uint64_t)(CLUSTERS + 1) * SEC } };
	struct fp_req huge[] = { { "/huge", 0x100000000ull } };
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, &o, big, 1), FP_E_NOSPC);
	ck_assert_uint_eq(c.diag.need, CLUSTERS + 1);
	ck_assert_uint_eq(c.diag.avail, CLUSTERS);
	ck_assert_int_eq(plan(&c, &o, huge, 1), FP_E_TOOBIG);
	ctx_close(&c);
}
END_TEST

START_TEST(test_contiguous_on_fragmented_volume)
{
	struct fp_plan_opts o = { .time = 1, .utc = 1, .contiguous = 1 };
	struct fp_req fits[] = { { "/f", 7 * SEC } };
	struct fp_req nofit[] = { { "/g", 15000u * SEC } };
	const struct fp_plan_file *f;
	uint32_t cl;
	size_t n;
	struct ctx c;

	/* Used clusters at 2, 12, 22, ...: free runs of 9 up to 10002. */
	for (cl = 2; cl <= 10002; cl += 10)
		put_fat(cl, 0xFFFF);
	ctx_open(&c);
	ck_assert_int_eq(plan(&c, &o, fits, 1), FP_OK);
	f = fp_plan_files(c.plan, &n);
	ck_assert_uint_eq(f[0].ext_count, 1);
	ck_assert_uint_eq(f[0].ext[0].start, 3);
	fp_plan_free(c.plan);
	c.plan = NULL;
	fp_fs_free(c.fs);
	ck_assert_int_eq(fp_fs_open(c.img, &c.fs), FP_OK);
	ck_assert_int_eq(plan(&c, &o, nofit, 1), FP_E_NORUN);
	ck_assert_uint_eq(c.diag.need, 15000);
	ck_assert_uint_eq(c.diag.avail, CLUSTERS + 1 - 10002);
	ctx_close(&c);
}
END_TEST

START_TEST(test_fragmented_takes_fewest_pieces)
{
	struct fp_plan_opts o = { .time = 1, .utc = 1 };
	struct fp_req r[] = { { "/f", 15u * SEC } };
	const struct fp_plan_file *f;
	uint32_t cl;
	size_t n;
	struct ctx c;

	/* Used: 2, 6 and 17 .. the end except 30-34.  Free runs: 3-5 (3),
	 * 7-16 (10) and 30-34 (5); no run holds 15. */
	put_fat(2, 0xFFFF);
	put_fat(6, 0xFFFF);
	for (cl = 17; cl <= CLUSTERS + 1; cl++)
		if (cl < 30 || cl > 34)
			put_fat(cl, 0xFFFF);
	ctx_open(&c);
	ck_assert_int_eq(plan(&c, &o, r, 1), FP_OK);
	f = fp_plan_files(c.plan, &n);
	/* Largest run 7-16 (10) first, then the lowest run that holds 5. */
	ck_assert_uint_eq(f[0].ext_count, 2);
	ck_assert_uint_eq(f[0].ext[0].start, 7);
	ck_assert_uint_eq(f[0].ext[0].count, 10);
	ck_assert_uint_eq(f[0].ext[1].start, 30);
	ck_assert_uint_eq(f[0].ext[1].count, 5);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	ck_assert_uint_eq(disk_fat(&c, 0, 16), 30);
	ck_assert_uint_eq(disk_fat(&c, 1, 34), 0xFFFF);
	ctx_close(&c);
}
END_TEST

START_TEST(test_root_full)
{
	struct fp_plan_opts o = { .time = 1, .utc = 1 };
	struct fp_req r[] = { { "/one-more-file", 1 } };
	uint32_t i;
	struct ctx c;

	for (i = 0; i < 511; i++) {
		uint8_t *e = vol + ROOT + i * 32;

		memcpy(e, "F          ", 11);
		e[1] = (uint8_t)('A' + i % 26);
		e[2] = (uint8_t)('A' + i / 26 % 26);
		e[DIR_ATTR] = FP_ATTR_ARCHIVE;
	}
	ctx_open(&c);
	ck_assert_int_eq(plan(&c, &o, r, 1), FP_E_ROOTFULL);
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	ctx_close(&c);
}
END_TEST

START_TEST(test_write_fault_reported)
{
	struct fp_plan_opts o = { .time = 1, .utc = 1 };
	struct fp_req r[] = { { "/a", 100 * SEC } };
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, &o, r, 1), FP_OK);
	fp_img_fail_write(c.img, 2, EIO);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_E_IO);
	ck_assert_int_eq(fp_img_errno(c.img), EIO);
	ctx_close(&c);
}
END_TEST

START_TEST(test_mkdir_on_full_volume_says_what_it_needs)
{
	struct fp_plan_opts o = { .time = 1, .utc = 1, .parents = 1 };
	struct fp_req r[] = { { "/d/e.bin", 0 } };
	uint32_t cl;
	struct ctx c;

	for (cl = 2; cl <= CLUSTERS + 1; cl++)
		put_fat(cl, 0xFFFF);
	ctx_open(&c);
	ck_assert_int_eq(plan(&c, &o, r, 1), FP_E_NOSPC);
	ck_assert_uint_eq(c.diag.need, 1);
	ck_assert_uint_eq(c.diag.avail, 0);
	ctx_close(&c);
}
END_TEST

/*
 * A directory the plan creates is written whole before it is linked: a
 * long name's set that does not fit the two slots left in its first
 * cluster continues into the next one, and the short name after it in
 * request order comes after it, with no gap (it used to fill the gap).
 */
START_TEST(test_new_dir_sets_in_request_order)
{
	static const char long_name[] = "/d/LongLongLongLongLongLongLongName.bin";
	struct fp_plan_opts o = { .time = 1, .utc = 1, .parents = 1 };
	struct fp_req r[14];
	char names[12][8];
	const uint8_t *d2, *d3;
	unsigned i;
	struct ctx c;

	for (i = 0; i < 12; i++) {
		snprintf(names[i], sizeof(names[i]), "/d/A%02u", i);
		r[i].path = names[i];
		r[i].size = 0;
	}
	r[12].path = long_name;
	r[12].size = 0;
	r[13].path = "/d/UPPER";
	r[13].size = 0;
	ctx_open(&c);
	ck_assert_int_eq(plan(&c, &o, r, 14), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	ck_assert_uint_eq(disk_fat(&c, 0, 2), 3);	/* d grew once */
	ck_assert_uint_eq(disk_fat(&c, 0, 3), 0xFFFF);
	d2 = fp_img_mem_data(c.img) + testvol_cl_off(2);
	d3 = fp_img_mem_data(c.img) + testvol_cl_off(3);
	ck_assert_mem_eq(d2 + 13 * 32, "A11        ", 11);
	ck_assert_uint_eq(d2[14 * 32], 0x43);	/* last of 3 long-name slots */
	ck_assert_uint_eq(d2[14 * 32 + DIR_ATTR], FP_ATTR_LFN);
	ck_assert_uint_eq(d2[15 * 32], 0x02);
	ck_assert_uint_eq(d3[0], 0x01);
	ck_assert_mem_eq(d3 + 32, "LONGLO~1BIN", 11);
	ck_assert_mem_eq(d3 + 64, "UPPER      ", 11);
	ck_assert_uint_eq(d3[96], 0);	/* end marker */
	ctx_close(&c);
}
END_TEST

/* Store a one-slot entry called @name at @slot of @d. */
static void put_one(struct fp_dir *d, uint32_t slot, const char *name)
{
	uint8_t e[FP_DIRENT_LEN] = { 0 };

	memset(e, ' ', 11);
	memcpy(e, name, strlen(name));
	e[DIR_ATTR] = FP_ATTR_ARCHIVE;
	fp_dir_put(d, slot, e, 1);
}

/*
 * The free-slot search from a slot on, and where a set goes once the
 * directory grows: after the free slots at the end when they are new, at
 * the first new cluster when they are on disk.
 */
START_TEST(test_dir_free_from_and_grow_slot)
{
	struct fp_geom g = { .sec_len = 512, .clus_len = 512 };
	struct fp_dir *d;
	uint32_t slot, i;

	ck_assert_int_eq(fp_dir_create(&g, 5, 0, 0, 0, &d), FP_OK);
	ck_assert_uint_eq(fp_dir_put_end(d), 0);
	for (i = 2; i < 14; i++)
		put_one(d, i, "F");
	ck_assert_uint_eq(fp_dir_put_end(d), 14);
	fp_dir_ent(d, 3)[0] = FP_DIRENT_FREE;	/* a hole at 3 */
	ck_assert_int_eq(fp_dir_find_free(d, 1, 0, &slot), 1);
	ck_assert_uint_eq(slot, 3);
	ck_assert_int_eq(fp_dir_find_free(d, 1, fp_dir_put_end(d), &slot), 1);
	ck_assert_uint_eq(slot, 14);
	ck_assert_int_eq(fp_dir_find_free(d, 3, fp_dir_put_end(d), &slot), 0);
	ck_assert_uint_eq(fp_dir_grow_slot(d, fp_dir_put_end(d)), 14);
	/* the same directory as if its cluster were on disk */
	fp_dir_mark_on_disk(d);
	ck_assert_uint_eq(fp_dir_disk_cl_count(d), 1);
	ck_assert_uint_eq(fp_dir_grow_slot(d, fp_dir_put_end(d)), 16);
	ck_assert_int_eq(fp_dir_grow(d, 6), FP_OK);
	ck_assert_int_eq(fp_dir_find_free(d, 3, fp_dir_put_end(d), &slot), 1);
	ck_assert_uint_eq(slot, 16);
	put_one(d, 16, "G");
	ck_assert_uint_eq(fp_dir_grow_slot(d, fp_dir_put_end(d)), 17);
	ck_assert_int_eq(fp_dir_find_free(d, 1, fp_dir_put_end(d), &slot), 1);
	ck_assert_uint_eq(slot, 17);
	/* the search from 0 still knows the hole, and the cache agrees */
	ck_assert_int_eq(fp_dir_find_free(d, 1, 0, &slot), 1);
	ck_assert_uint_eq(slot, 3);
	ck_assert_int_eq(fp_dir_find_free(d, 2, 0, &slot), 1);
	ck_assert_uint_eq(slot, 14);
	fp_dir_free(d);
}
END_TEST

/* FAT date and time words of y-m-d h:m:s. */
#define FAT_DATE(y, m, d) ((uint16_t)((((y) - 1980) << 9) | ((m) << 5) | (d)))
#define FAT_TIME(h, m, s) ((uint16_t)(((h) << 11) | ((m) << 5) | ((s) / 2)))

/* fp_dir_timestamp(@epoch) in UTC is @date, @time and @tenth. */
static void check_stamp(int64_t epoch, uint16_t date, uint16_t time,
			uint8_t tenth)
{
	uint16_t d = 0, t = 0;
	uint8_t c = 0;

	fp_dir_timestamp(epoch, 1, &d, &t, &c);
	ck_assert_msg(d == date && t == time && c == tenth,
		      "epoch %lld: date %#x time %#x tenth %u, expected %#x "
		      "%#x %u", (long long)epoch, d, t, c, date, time, tenth);
}

/*
 * In range, before 1980 and after 2107, and beyond what gmtime_r can
 * hold (a year past INT_MAX): the latter clamp by their sign too.
 */
START_TEST(test_timestamp_clamps)
{
	const uint16_t first = FAT_DATE(1980, 1, 1);
	const uint16_t last = FAT_DATE(2107, 12, 31);
	const uint16_t last_t = FAT_TIME(23, 59, 58);

	check_stamp(1700000001, FAT_DATE(2023, 11, 14), FAT_TIME(22, 13, 21),
		    100);
	check_stamp(315532800, first, 0, 0);		/* 1980-01-01 */
	/* 2107-12-31 23:59:59 */
	check_stamp(4354819199, last, last_t, 100);
	check_stamp(0, first, 0, 0);
	check_stamp(-1, first, 0, 0);
	check_stamp(4354819200, last, last_t, 100);	/* 2108-01-01 */
	check_stamp(99999999999999999, last, last_t, 100);
	check_stamp(INT64_MAX, last, last_t, 100);
	check_stamp(-99999999999999999, first, 0, 0);
	check_stamp(INT64_MIN, first, 0, 0);
}
END_TEST

/*
 * A memory image given without its trailing zeros is the same image; it
 * holds the zeros once something is written there.
 */
START_TEST(test_mem_pad)
{
	uint64_t len = (uint64_t)TOTAL * SEC, cut = len;
	static const uint8_t x[3] = { 1, 2, 3 };
	struct fp_img *img;
	struct fp_fs *fs;
	uint8_t *buf;

	while (cut > 0 && vol[cut - 1] == 0)
		cut--;
	ck_assert_uint_lt(cut, len);
	buf = malloc(len);
	ck_assert_ptr_nonnull(buf);
	ck_assert_int_eq(fp_img_mem_pad(vol, cut, len, &img), FP_OK);
	ck_assert_uint_eq(fp_img_len(img), len);
	ck_assert_uint_eq(fp_img_mem_len(img), cut);
	ck_assert_int_eq(fp_img_read(img, 0, buf, len), FP_OK);
	ck_assert_mem_eq(buf, vol, len);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	fp_fs_free(fs);
	ck_assert_int_eq(fp_img_write(img, len - 3, x, 3), FP_OK);
	ck_assert_uint_eq(fp_img_mem_len(img), len);
	ck_assert_int_eq(fp_img_zero(img, cut - 1, 1), FP_OK);
	ck_assert_int_eq(fp_img_read(img, 0, buf, len), FP_OK);
	ck_assert_mem_eq(buf, vol, cut - 1);
	ck_assert_uint_eq(buf[cut - 1], 0);
	ck_assert_mem_eq(buf + len - 3, x, 3);
	ck_assert_mem_eq(fp_img_mem_data(img) + len - 3, x, 3);
	fp_img_close(img);
	ck_assert_int_eq(fp_img_mem_pad(vol, len, len - 1, &img), FP_E_INVAL);
	ck_assert_int_eq(fp_img_mem_pad(NULL, 0, 4096, &img), FP_OK);
	ck_assert_int_eq(fp_img_read(img, 4000, buf, 96), FP_OK);
	ck_assert_uint_eq(buf[95], 0);
	fp_img_close(img);
	free(buf);
}
END_TEST

static Suite *plan_suite(void)
{
	Suite *s = suite_create("plan");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_new_files_are_contiguous_in_request_order);
	tcase_add_test(tc, test_short_entry_written_with_case_bits);
	tcase_add_test(tc, test_extend_continues_after_last_cluster);
	tcase_add_test(tc, test_satisfied_request_writes_nothing);
	tcase_add_test(tc, test_duplicate_path_refused);
	tcase_add_test(tc, test_no_space_and_too_big);
	tcase_add_test(tc, test_contiguous_on_fragmented_volume);
	tcase_add_test(tc, test_fragmented_takes_fewest_pieces);
	tcase_add_test(tc, test_root_full);
	tcase_add_test(tc, test_write_fault_reported);
	tcase_add_test(tc, test_mkdir_on_full_volume_says_what_it_needs);
	tcase_add_test(tc, test_new_dir_sets_in_request_order);
	tcase_add_test(tc, test_dir_free_from_and_grow_slot);
	tcase_add_test(tc, test_timestamp_clamps);
	tcase_add_test(tc, test_mem_pad);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(plan_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
