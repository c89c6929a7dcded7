/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_edit_mv.c - --replace and --mv on a memory volume. */
#include <check.h>
#include <stdint.h>
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

/* Open the volume of the memory image anew (a new run). */
static void reopen(struct ctx *c)
{
	fp_plan_free(c->plan);
	c->plan = NULL;
	fp_fs_free(c->fs);
	ck_assert_int_eq(fp_fs_open(c->img, &c->fs), FP_OK);
}

static void ctx_open(struct ctx *c)
{
	memset(c, 0, sizeof(*c));
	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &c->img),
			 FP_OK);
	ck_assert_int_eq(fp_fs_open(c->img, &c->fs), FP_OK);
}

static void ctx_close(struct ctx *c)
{
	fp_plan_free(c->plan);
	fp_fs_free(c->fs);
	fp_img_close(c->img);
}

/*
 * Plan copying @len bytes of @data to @path (with --replace when
 * @replace), stamped @mtime, on a new open of the image.
 */
static enum fp_err copy(struct ctx *c, const char *path,
			const uint8_t *data, uint32_t len, int replace,
			int64_t mtime)
{
	struct fp_req r = { path, len };
	struct fp_req_src s = { "host", 0, mtime, data };
	struct fp_req_edit e = { FP_REQ_FILE, replace ? FP_EDIT_REPLACE : 0,
				 NULL, 0, 0 };
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1, .srcs = &s,
				  .edits = &e };

	reopen(c);
	return fp_plan_build(c->fs, &o, &r, 1, &c->plan, &c->diag);
}

static const uint8_t *disk(const struct ctx *c)
{
	return fp_img_mem_data(c->img);
}

static uint16_t disk_fat(const struct ctx *c, uint32_t cl)
{
	return fp_le16(disk(c) + FAT0 + 2 * cl);
}

/* The bytes of @n, each one @v. */
static uint8_t *filled(uint8_t v, size_t n)
{
	uint8_t *b = malloc(n);

	ck_assert_ptr_nonnull(b);
	memset(b, v, n);
	return b;
}

START_TEST(test_replace_new_clusters_then_old_freed)
{
	uint8_t *a = filled('a', 3 * SEC), *b = filled('b', 2 * SEC + 7);
	const uint8_t *root;
	const struct fp_plan_file *f;
	uint16_t crt_date, crt_time;
	uint8_t attr;
	unsigned long writes;
	size_t n;
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(copy(&c, "/Config.txt", a, 3 * SEC, 0, 1600000000),
			 FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	root = disk(&c) + ROOT;
	attr = root[32 + DIR_ATTR] | FP_ATTR_SYSTEM;
	ck_assert_int_eq(fp_img_write(c.img, ROOT + 32 + DIR_ATTR, &attr, 1),
			 FP_OK);
	crt_date = fp_le16(root + 32 + DIR_CRT_DATE);
	crt_time = fp_le16(root + 32 + DIR_CRT_TIME);
	writes = fp_img_write_count(c.img);
	/* without --replace: refused, nothing written */
	ck_assert_int_eq(copy(&c, "/CONFIG.TXT", b, 2 * SEC + 7, 0,
			      1700000000), FP_E_EXISTS);
	ck_assert_int_eq(copy(&c, "/config.txt", b, 2 * SEC + 7, 1,
			      1700000000), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(c.img), writes);
	f = fp_plan_files(c.plan, &n);
	ck_assert_int_eq(f[0].action, FP_ACT_REPLACE);
	ck_assert_uint_eq(f[0].old_size, 3 * SEC);
	ck_assert_uint_eq(f[0].old_clusters, 3);
	ck_assert_uint_eq(f[0].freed, 3);
	/* the old clusters 2..4 are not this plan's to take */
	ck_assert_uint_eq(f[0].ext[0].start, 5);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	/* long name and alias kept, attributes and creation time too */
	ck_assert_mem_eq(root + 32, "CONFIG  TXT", 11);
	ck_assert_uint_eq(root[32 + DIR_ATTR], FP_ATTR_ARCHIVE |
			  FP_ATTR_SYSTEM);
	ck_assert_uint_eq(fp_le16(root + 32 + DIR_CRT_DATE), crt_date);
	ck_assert_uint_eq(fp_le16(root + 32 + DIR_CRT_TIME), crt_time);
	ck_assert_uint_ne(fp_le16(root + 32 + DIR_WRT_DATE), crt_date);
	ck_assert_uint_eq(fp_le16(root + 32 + DIR_CLUS_LO), 5);
	ck_assert_uint_eq(fp_le32(root + 32 + DIR_SIZE), 2 * SEC + 7);
	ck_assert_mem_eq(disk(&c) + testvol_cl_off(5), b, 2 * SEC + 7);
	ck_assert_uint_eq(disk_fat(&c, 2), 0);
	ck_assert_uint_eq(disk_fat(&c, 4), 0);
	ck_assert_uint_eq(disk_fat(&c, 5), 6);
	ck_assert_uint_eq(disk_fat(&c, 7), 0xFFFF);
	ctx_close(&c);
	free(a);
	free(b);
}
END_TEST

START_TEST(test_replace_refused_without_room_of_its_own)
{
	uint32_t big = (CLUSTERS / 2 + 10) * SEC;
	uint8_t *a = filled('a', big), *d = filled('d', SEC);
	const struct fp_plan_file *f;
	unsigned long writes;
	uint32_t old;
	struct ctx c;
	size_t n;

	ctx_open(&c);
	ck_assert_int_eq(copy(&c, "/k", a, big, 0, 1), FP_OK);
	f = fp_plan_files(c.plan, &n);
	old = f[0].ext[0].start;
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	writes = fp_img_write_count(c.img);
	/* fits only in the clusters it frees */
	ck_assert_int_eq(copy(&c, "/k", a, big, 1, 2), FP_E_NOSPC);
	ck_assert_uint_eq(fp_img_write_count(c.img), writes);
	/* a smaller one fits beside it */
	ck_assert_int_eq(copy(&c, "/k", d, SEC, 1, 2), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	/* the old chain is free (its first and last cluster) */
	ck_assert_uint_eq(disk_fat(&c, old), 0);
	ck_assert_uint_eq(disk_fat(&c, old + big / SEC - 1), 0);
	ctx_close(&c);
	free(a);
	free(d);
}
END_TEST

/* A cross-linked file is never freed: its clusters are another's too. */
START_TEST(test_replace_refuses_cross_linked_file)
{
	uint8_t *a = filled('a', 2 * SEC), ent[32];
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(copy(&c, "/A", a, 2 * SEC, 0, 1), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	/* /B: a second entry on /A's chain */
	memcpy(ent, disk(&c) + ROOT, 32);
	ent[0] = 'B';
	ck_assert_int_eq(fp_img_write(c.img, ROOT + 32, ent, 32), FP_OK);
	ck_assert_int_eq(copy(&c, "/B", a, SEC, 1, 2), FP_E_DAMAGED);
	ck_assert_int_eq(c.diag.problem, FP_P_CROSS_LINK);
	ctx_close(&c);
	free(a);
}
END_TEST

/* A directory is not replaced by a file. */
START_TEST(test_replace_refuses_directory)
{
	struct fp_req r = { "/D", 0 };
	struct fp_req_src s = { "host", 1, 1, NULL };
	struct fp_plan_opts o = { .time = 1, .utc = 1, .srcs = &s };
	uint8_t *d = filled('d', SEC);
	unsigned long writes;
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(fp_plan_build(c.fs, &o, &r, 1, &c.plan, &c.diag),
			 FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	writes = fp_img_write_count(c.img);
	ck_assert_int_eq(copy(&c, "/d", d, SEC, 1, 2), FP_E_ISDIR);
	ck_assert_uint_eq(fp_img_write_count(c.img), writes);
	ctx_close(&c);
	free(d);
}
END_TEST

/* Plan --mv @from @to (@flags) on a new open of the image. */
static enum fp_err mv(struct ctx *c, const char *from, const char *to,
		      unsigned flags)
{
	struct fp_req r = { from, 0 };
	struct fp_req_edit e = { FP_REQ_MV, flags, to, 0, 0 };
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1, .edits = &e };

	reopen(c);
	return fp_plan_build(c->fs, &o, &r, 1, &c->plan, &c->diag);
}

/* Make directory @path (a copy of an empty host directory). */
static void mkdir_at(struct ctx *c, const char *path)
{
	struct fp_req r = { path, 0 };
	struct fp_req_src s = { "host", 1, 1, NULL };
	struct fp_plan_opts o = { .time = 1, .utc = 1, .srcs = &s };

	reopen(c);
	ck_assert_int_eq(fp_plan_build(c->fs, &o, &r, 1, &c->plan, &c->diag),
			 FP_OK);
	ck_assert_int_eq(fp_plan_commit(c->plan, 1), FP_OK);
}

/* The first cluster of directory entry @slot of the root. */
static uint16_t root_cl(const struct ctx *c, uint32_t slot)
{
	return fp_le16(disk(c) + ROOT + slot * 32 + DIR_CLUS_LO);
}

START_TEST(test_mv_rename_in_place)
{
	uint8_t *a = filled('a', 3 * SEC), before[32];
	const uint8_t *root;
	unsigned long writes;
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(copy(&c, "/A.TXT", a, 3 * SEC, 0, 1600000000),
			 FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	root = disk(&c) + ROOT;
	memcpy(before, root, 32);
	ck_assert_int_eq(mv(&c, "/a.txt", "/B.BIN", 0), FP_OK);
	writes = fp_img_write_count(c.img);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	/* one write: the root's sector; nothing of the FAT */
	ck_assert_uint_eq(fp_img_write_count(c.img) - writes, 1);
	ck_assert_mem_eq(root, "B       BIN", 11);
	ck_assert_mem_eq(root + 11, before + 11, 21);
	ck_assert_uint_eq(root[32], 0);
	/* to itself: nothing to do */
	ck_assert_int_eq(mv(&c, "/b.bin", "/B.BIN", 0), FP_OK);
	ck_assert_int_eq(fp_plan_files(c.plan, &(size_t){ 0 })[0].action,
			 FP_ACT_NONE);
	ctx_close(&c);
	free(a);
}
END_TEST

START_TEST(test_mv_into_directory_and_dotdot)
{
	uint8_t *a = filled('a', SEC);
	const uint8_t *sub;
	uint16_t d1, d2;
	struct ctx c;

	ctx_open(&c);
	mkdir_at(&c, "/D1");
	mkdir_at(&c, "/D2");
	d1 = root_cl(&c, 0);
	d2 = root_cl(&c, 1);
	ck_assert_int_eq(copy(&c, "/Long File Name.txt", a, SEC, 0, 1),
			 FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	/* a file into D1/, keeping its long name */
	ck_assert_int_eq(mv(&c, "/long file name.TXT", "/d1/", 0), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	sub = disk(&c) + testvol_cl_off(d1);
	ck_assert_uint_eq(sub[2 * 32 + DIR_ATTR], FP_ATTR_LFN);
	ck_assert_uint_eq(sub[3 * 32 + DIR_ATTR], FP_ATTR_LFN);
	ck_assert_mem_eq(sub + 4 * 32, "LONGFI~1TXT", 11);
	ck_assert_uint_eq(disk(&c)[ROOT + 2 * 32], FP_DIRENT_FREE);
	ck_assert_uint_eq(disk(&c)[ROOT + 3 * 32], FP_DIRENT_FREE);
	ck_assert_uint_eq(disk(&c)[ROOT + 4 * 32], FP_DIRENT_FREE);
	/* D1 into D2 (an existing directory): ".." follows */
	ck_assert_int_eq(mv(&c, "/D1", "/D2", 0), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	sub = disk(&c) + testvol_cl_off(d2);
	ck_assert_mem_eq(sub + 2 * 32, "D1         ", 11);
	ck_assert_uint_eq(fp_le16(sub + 2 * 32 + DIR_CLUS_LO), d1);
	sub = disk(&c) + testvol_cl_off(d1);
	ck_assert_mem_eq(sub + 32, "..         ", 11);
	ck_assert_uint_eq(fp_le16(sub + 32 + DIR_CLUS_LO), d2);
	ck_assert_uint_eq(disk(&c)[ROOT], FP_DIRENT_FREE);
	/* and back to the root: ".." is 0 */
	ck_assert_int_eq(mv(&c, "/D2/D1", "/", 0), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	ck_assert_uint_eq(fp_le16(sub + 32 + DIR_CLUS_LO), 0);
	ctx_close(&c);
	free(a);
}
END_TEST

START_TEST(test_mv_refusals)
{
	uint8_t *a = filled('a', 2 * SEC);
	unsigned long writes;
	struct ctx c;

	ctx_open(&c);
	mkdir_at(&c, "/D");
	mkdir_at(&c, "/D/E");
	ck_assert_int_eq(copy(&c, "/F", a, 2 * SEC, 0, 1), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	ck_assert_int_eq(copy(&c, "/G", a, SEC, 0, 1), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	writes = fp_img_write_count(c.img);
	ck_assert_int_eq(mv(&c, "/", "/X", 0), FP_E_MVROOT);
	ck_assert_int_eq(mv(&c, "/D", "/D/E/", 0), FP_E_MVSELF);
	ck_assert_int_eq(mv(&c, "/D", "/D", 0), FP_OK);	/* itself */
	ck_assert_int_eq(mv(&c, "/D", "/D/", 0), FP_E_MVSELF);
	ck_assert_int_eq(mv(&c, "/F", "/F/", 0), FP_E_NOTDIR);
	ck_assert_int_eq(mv(&c, "/D", "/d/x", 0), FP_E_MVSELF);
	ck_assert_int_eq(mv(&c, "/nope", "/X", 0), FP_E_NOFILE);
	ck_assert_int_eq(mv(&c, "/F", "/G", 0), FP_E_EXISTS);
	ck_assert_int_eq(mv(&c, "/D", "/G", FP_EDIT_REPLACE), FP_E_NOTDIR);
	ck_assert_int_eq(mv(&c, "/F", "/nodir/", 0), FP_E_NOENT);
	ck_assert_uint_eq(fp_img_write_count(c.img), writes);
	/* --replace: G takes F's chain, G's cluster is freed */
	ck_assert_int_eq(mv(&c, "/F", "/G", FP_EDIT_REPLACE), FP_OK);
	ck_assert_int_eq(fp_plan_commit(c.plan, 1), FP_OK);
	ck_assert_uint_eq(disk(&c)[ROOT + 32], FP_DIRENT_FREE);
	ck_assert_mem_eq(disk(&c) + ROOT + 2 * 32, "G          ", 11);
	ck_assert_uint_eq(root_cl(&c, 2), 4);
	ck_assert_uint_eq(fp_le32(disk(&c) + ROOT + 2 * 32 + DIR_SIZE),
			  2 * SEC);
	ck_assert_uint_eq(disk_fat(&c, 6), 0);
	ck_assert_uint_eq(disk_fat(&c, 4), 5);
	ctx_close(&c);
	free(a);
}
END_TEST

static Suite *edit_suite(void)
{
	Suite *s = suite_create("edit_mv");
	TCase *tc = tcase_create("replace");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_replace_new_clusters_then_old_freed);
	tcase_add_test(tc, test_replace_refused_without_room_of_its_own);
	tcase_add_test(tc, test_replace_refuses_cross_linked_file);
	tcase_add_test(tc, test_replace_refuses_directory);
	suite_add_tcase(s, tc);
	tc = tcase_create("mv");
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_mv_rename_in_place);
	tcase_add_test(tc, test_mv_into_directory_and_dotdot);
	tcase_add_test(tc, test_mv_refusals);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(edit_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
