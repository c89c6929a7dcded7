/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_rm.c - rm [-r] and mkdir [-p] planned and committed in memory. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "le.h"
#include "plan.h"
#include "testvol.h"

struct ctx {
	struct fp_img *img;
	struct fp_fs *fs;
	struct fp_plan *plan;
	struct fp_plan_diag diag;
};

static const struct fp_req_edit rm = { FP_REQ_RM, 0, NULL, 0, 0 };
static const struct fp_req_edit rm_r = { FP_REQ_RM, FP_EDIT_RECURSIVE,
					  NULL, 0, 0 };
static const struct fp_req_edit md = { FP_REQ_MKDIR, 0, NULL, 0, 0 };
static const struct fp_req_edit md_p = { FP_REQ_MKDIR, FP_EDIT_PARENTS,
					    NULL, 0, 0 };
static const struct fp_req_edit none = { FP_REQ_FILE, 0, NULL, 0, 0 };

/* What the memory image @img (a copy of vol) holds, into vol. */
static void take_back(const struct fp_img *img)
{
	uint64_t len = fp_img_mem_len(img);

	memcpy(vol, fp_img_mem_data(img), len);
	memset(vol + len, 0, (uint64_t)TOTAL * SEC - len);
}

/*
 * The tree every test starts from, committed on the memory volume:
 * /a.bin (clusters 2-4), /d (5) with x (6-7) and e (8) with y (9), and
 * /keep.bin (10).
 */
static void setup(void)
{
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1,
				  .parents = 1 };
	struct fp_req r[] = { { "/a.bin", 3 * SEC }, { "/d/x", 2 * SEC },
			      { "/d/e/y", 1 }, { "/keep.bin", 1 } };
	struct fp_plan_diag diag;
	struct fp_plan *plan;
	struct fp_img *img;
	struct fp_fs *fs;

	testvol_make();
	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &img), FP_OK);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	ck_assert_int_eq(fp_plan_build(fs, &o, r, 4, &plan, &diag), FP_OK);
	ck_assert_int_eq(fp_plan_commit(plan, 1), FP_OK);
	take_back(img);
	fp_plan_free(plan);
	fp_fs_free(fs);
	fp_img_close(img);
}

static void teardown(void)
{
	testvol_free();
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

static enum fp_err plan(struct ctx *c, const struct fp_req *r,
			const struct fp_req_edit *ed, size_t n)
{
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1, .edits = ed };

	return fp_plan_build(c->fs, &o, r, n, &c->plan, &c->diag);
}

/* Drop the plan of @c, uncommitted, to plan again. */
static void replan(struct ctx *c)
{
	fp_plan_free(c->plan);
	c->plan = NULL;
}

/* Commit the plan of @c and take the image back into vol. */
static void commit(struct ctx *c)
{
	ck_assert_int_eq(fp_plan_commit(c->plan, 1), FP_OK);
	take_back(c->img);
}

static uint16_t fat(uint32_t cl)
{
	return fp_le16(vol + FAT0 + 2 * cl);
}

static uint16_t fat1(uint32_t cl)
{
	return fp_le16(vol + FAT1 + 2 * cl);
}

/* The first byte of entry @slot of the root, or of cluster @cl's. */
static uint8_t root_ent(uint32_t slot)
{
	return vol[ROOT + 32 * slot];
}

START_TEST(test_tree_as_expected)
{
	ck_assert_mem_eq(vol + ROOT, "A       BIN", 11);
	ck_assert_mem_eq(vol + ROOT + 32, "D          ", 11);
	ck_assert_mem_eq(vol + ROOT + 64, "KEEP    BIN", 11);
	ck_assert_uint_eq(fat(4), 0xFFFF);
	ck_assert_uint_eq(fat(5), 0xFFFF);
	ck_assert_mem_eq(vol + testvol_cl_off(5) + 96, "E          ", 11);
	ck_assert_mem_eq(vol + testvol_cl_off(8) + 64, "Y          ", 11);
	ck_assert_uint_eq(fat(9), 0xFFFF);
	ck_assert_uint_eq(fat(10), 0xFFFF);
}
END_TEST

/* A file: its entry deleted, its chain freed in both FATs, no more. */
START_TEST(test_rm_file)
{
	struct fp_req r[] = { { "/a.bin", 0 } };
	const struct fp_plan_file *f;
	uint32_t free_before, free_after;
	size_t n;
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, r, &rm, 1), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	f = fp_plan_files(c.plan, &n);
	ck_assert_int_eq(f[0].action, FP_ACT_REMOVE);
	ck_assert_uint_eq(f[0].freed, 3);
	ck_assert_uint_eq(f[0].old_clusters, 3);
	ck_assert_uint_eq(f[0].old_size, 3 * SEC);
	ck_assert_uint_eq(fp_plan_freed_count(c.plan), 3);
	ck_assert_uint_eq(fp_plan_alloc_count(c.plan), 0);
	ck_assert_int_eq(fp_plan_free_count(c.plan, &free_after), FP_OK);
	commit(&c);
	ck_assert_uint_eq(root_ent(0), FP_DIRENT_FREE);
	ck_assert_mem_eq(vol + ROOT + 1, "       BIN", 10);
	ck_assert_uint_eq(root_ent(1), 'D');
	ck_assert_uint_eq(fat(2), 0);
	ck_assert_uint_eq(fat(3), 0);
	ck_assert_uint_eq(fat(4), 0);
	ck_assert_uint_eq(fat1(2), 0);
	ck_assert_uint_eq(fat1(4), 0);
	ck_assert_uint_eq(fat(5), 0xFFFF);
	ck_assert_uint_eq(fat(10), 0xFFFF);
	free_before = CLUSTERS - 9;
	ck_assert_uint_eq(free_after, free_before + 3);
	ctx_close(&c);
}
END_TEST

/* Clusters the plan frees are not free to it: a new file goes past. */
START_TEST(test_freed_not_reused)
{
	struct fp_req r[] = { { "/a.bin", 0 }, { "/n.bin", 3 * SEC } };
	struct fp_req_edit ed[] = { rm, none };
	const struct fp_plan_file *f;
	size_t n;
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, r, ed, 2), FP_OK);
	f = fp_plan_files(c.plan, &n);
	ck_assert_int_eq(f[1].action, FP_ACT_CREATE);
	ck_assert_uint_eq(f[1].ext_count, 1);
	ck_assert_uint_ge(f[1].ext[0].start, 11);
	commit(&c);
	ck_assert_uint_eq(fat(2), 0);
	ck_assert_uint_eq(fat(f[1].ext[0].start + 2), 0xFFFF);
	ctx_close(&c);
}
END_TEST

/* -r: every chain of the tree freed; only the top entry changes. */
START_TEST(test_rm_tree)
{
	struct fp_req r[] = { { "/D/", 0 } };
	const struct fp_plan_file *f;
	uint8_t e_dir[SEC];
	size_t n;
	uint32_t cl;
	struct ctx c;

	memcpy(e_dir, vol + testvol_cl_off(8), SEC);
	ctx_open(&c);
	ck_assert_int_eq(plan(&c, r, &rm_r, 1), FP_OK);
	f = fp_plan_files(c.plan, &n);
	ck_assert_uint_eq(f[0].freed, 5);
	ck_assert_uint_eq(f[0].old_clusters, 1);
	commit(&c);
	ck_assert_uint_eq(root_ent(1), FP_DIRENT_FREE);
	ck_assert_uint_eq(root_ent(0), 'A');
	ck_assert_uint_eq(root_ent(2), 'K');
	for (cl = 5; cl <= 9; cl++)
		ck_assert_uint_eq(fat(cl), 0);
	ck_assert_uint_eq(fat(4), 0xFFFF);
	ck_assert_uint_eq(fat(10), 0xFFFF);
	/* the entries inside are left: their clusters are free now */
	ck_assert_mem_eq(vol + testvol_cl_off(8), e_dir, SEC);
	ctx_close(&c);
}
END_TEST

/* Without -r a directory must be empty; the plan writes nothing. */
START_TEST(test_rm_not_empty)
{
	struct fp_req r[] = { { "/d", 0 } };
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, r, &rm, 1), FP_E_NOTEMPTY);
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	ctx_close(&c);
}
END_TEST

/* A directory emptied by the requests before it goes without -r. */
START_TEST(test_rm_emptied_dir)
{
	struct fp_req r[] = { { "/d/e/y", 0 }, { "/d/e", 0 } };
	struct fp_req_edit ed[] = { rm, rm };
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, r, ed, 2), FP_OK);
	ck_assert_uint_eq(fp_plan_freed_count(c.plan), 2);
	commit(&c);
	ck_assert_uint_eq(vol[testvol_cl_off(5) + 96], FP_DIRENT_FREE);
	ck_assert_uint_eq(vol[testvol_cl_off(8) + 64], FP_DIRENT_FREE);
	ck_assert_uint_eq(fat(8), 0);
	ck_assert_uint_eq(fat(9), 0);
	ck_assert_uint_eq(fat(6), 7);
	ctx_close(&c);
}
END_TEST

START_TEST(test_rm_refusals)
{
	struct fp_req root[] = { { "//", 0 } }, nope[] = { { "/nope", 0 } };
	struct fp_req slash[] = { { "/a.bin/", 0 } };
	struct fp_req twice[] = { { "/a.bin", 5 }, { "/A.BIN", 0 } };
	struct fp_req_edit ed[] = { none, rm };
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, root, &rm_r, 1), FP_E_ROOT);
	ck_assert_int_eq(plan(&c, nope, &rm, 1), FP_E_NOFILE);
	ck_assert_int_eq(plan(&c, slash, &rm, 1), FP_E_NOTDIR);
	ck_assert_int_eq(plan(&c, twice, ed, 2), FP_E_DUPPATH);
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	ctx_close(&c);
}
END_TEST

/* A file made in the tree earlier in the plan: the tree is not freed. */
START_TEST(test_rm_tree_changed_by_plan)
{
	struct fp_req r[] = { { "/d/e/new", 1 }, { "/d", 0 } };
	struct fp_req r2[] = { { "/d/x", 5000 }, { "/d", 0 } };
	struct fp_req_edit ed[] = { none, rm_r };
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, r, ed, 2), FP_E_DUPPATH);
	ck_assert_int_eq(plan(&c, r2, ed, 2), FP_E_DUPPATH);
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	ctx_close(&c);
}
END_TEST

/*
 * What the earlier requests did decides, directory by directory: a file
 * changed two levels down keeps the tree; a file removed in it, an
 * attribute set in it (an edit that holds no entry), a change in the
 * tree's parent or beside the tree do not.
 */
START_TEST(test_rm_tree_earlier_kinds)
{
	static const struct fp_req_edit hide = { FP_REQ_ATTR, 0, NULL,
						 FP_ATTR_HIDDEN, 0 };
	struct fp_req deep[] = { { "/d/e/y", 5000 }, { "/d", 0 } };
	struct fp_req gone[] = { { "/d/x", 0 }, { "/d", 0 } };
	struct fp_req attr[] = { { "/d/e/y", 0 }, { "/d", 0 } };
	struct fp_req up[] = { { "/d/x", 5000 }, { "/d/e", 0 } };
	struct fp_req beside[] = { { "/keep.bin", 5000 }, { "/d", 0 } };
	struct fp_req_edit ed[] = { none, rm_r }, ed_rm[] = { rm, rm_r };
	struct fp_req_edit ed_attr[] = { hide, rm_r };
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, deep, ed, 2), FP_E_DUPPATH);
	ck_assert_int_eq(plan(&c, gone, ed_rm, 2), FP_OK);
	replan(&c);
	ck_assert_int_eq(plan(&c, attr, ed_attr, 2), FP_OK);
	replan(&c);
	ck_assert_int_eq(plan(&c, up, ed, 2), FP_OK);
	replan(&c);
	ck_assert_int_eq(plan(&c, beside, ed, 2), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	ctx_close(&c);
}
END_TEST

/* A cross-linked chain is never freed: that would free /keep.bin's. */
START_TEST(test_rm_cross_link_refused)
{
	struct fp_req r[] = { { "/a.bin", 0 } }, r2[] = { { "/keep.bin", 0 } };
	struct ctx c;

	put_fat(10, 3);		/* keep.bin: 10 -> 3 -> 4, a.bin's tail */
	vol[ROOT + 64 + DIR_SIZE + 1] = 0x06;	/* size 1536: three clusters */
	ctx_open(&c);
	ck_assert_int_eq(plan(&c, r, &rm, 1), FP_E_DAMAGED);
	ck_assert_int_eq(c.diag.problem, FP_P_CROSS_LINK);
	ck_assert_int_eq(plan(&c, r2, &rm, 1), FP_E_DAMAGED);
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	ctx_close(&c);
}
END_TEST

/* An entry in the tree that leads back up: refused, nothing freed. */
START_TEST(test_rm_cycle_refused)
{
	struct fp_req r[] = { { "/d", 0 } };
	uint8_t *ent = vol + testvol_cl_off(8) + 96;
	struct ctx c;

	memcpy(ent, "LOOP       ", 11);
	ent[DIR_ATTR] = FP_ATTR_DIR;
	fp_put_le16(ent + DIR_CLUS_LO, 5);	/* /d/e/LOOP is /d */
	ctx_open(&c);
	ck_assert_int_eq(plan(&c, r, &rm_r, 1), FP_E_DAMAGED);
	ck_assert_int_eq(c.diag.problem, FP_P_DIR_CYCLE);
	ck_assert_str_eq(c.diag.component, "/d/e/LOOP");
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	ctx_close(&c);
}
END_TEST

/* mkdir: the directory's entry and its cluster with "." and "..". */
START_TEST(test_mkdir)
{
	struct fp_req r[] = { { "/New Dir", 0 } };
	const struct fp_plan_file *f;
	const struct fp_plan_dir *made;
	const uint8_t *d;
	size_t n;
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, r, &md, 1), FP_OK);
	f = fp_plan_files(c.plan, &n);
	ck_assert_int_eq(f[0].action, FP_ACT_MKDIR);
	ck_assert_int_eq(f[0].is_dir, 1);
	made = fp_plan_made_dirs(c.plan, &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(made[0].len, 8);
	ck_assert_uint_eq(fp_plan_alloc_count(c.plan), 1);
	commit(&c);
	/* "New Dir" needs a long name: 1 slot, then NEWDIR~1 */
	ck_assert_uint_eq(root_ent(3), 0x41);
	ck_assert_mem_eq(vol + ROOT + 4 * 32, "NEWDIR~1   ", 11);
	ck_assert_uint_eq(vol[ROOT + 4 * 32 + DIR_ATTR], FP_ATTR_DIR);
	ck_assert_uint_eq(fp_le16(vol + ROOT + 4 * 32 + DIR_CLUS_LO), 11);
	ck_assert_uint_eq(fat(11), 0xFFFF);
	d = vol + testvol_cl_off(11);
	ck_assert_mem_eq(d, ".          ", 11);
	ck_assert_uint_eq(fp_le16(d + DIR_CLUS_LO), 11);
	ck_assert_mem_eq(d + 32, "..         ", 11);
	ck_assert_uint_eq(fp_le16(d + 32 + DIR_CLUS_LO), 0);
	ck_assert_uint_eq(d[64], 0);
	ctx_close(&c);
}
END_TEST

START_TEST(test_mkdir_exists_and_parents)
{
	struct fp_req d[] = { { "/D", 0 } }, file[] = { { "/a.bin", 0 } };
	struct fp_req deep[] = { { "/q/r/s", 0 } };
	const struct fp_plan_file *f;
	size_t n;
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, d, &md, 1), FP_E_EXISTS);
	ck_assert_int_eq(plan(&c, file, &md, 1), FP_E_EXISTS);
	ck_assert_int_eq(plan(&c, file, &md_p, 1), FP_E_EXISTS);
	ck_assert_int_eq(plan(&c, deep, &md, 1), FP_E_NOENT);
	ck_assert_uint_eq(fp_img_write_count(c.img), 0);
	ck_assert_int_eq(plan(&c, d, &md_p, 1), FP_OK);
	f = fp_plan_files(c.plan, &n);
	ck_assert_int_eq(f[0].action, FP_ACT_NONE);
	ck_assert_uint_eq(fp_plan_alloc_count(c.plan), 0);
	fp_plan_free(c.plan);
	ck_assert_int_eq(plan(&c, deep, &md_p, 1), FP_OK);
	fp_plan_made_dirs(c.plan, &n);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(fp_plan_alloc_count(c.plan), 3);
	ctx_close(&c);
}
END_TEST

/*
 * rm -r and mkdir of the same name in one plan: a new, empty directory,
 * whose entry takes the freed slot (one sector write switches them).
 */
START_TEST(test_rm_then_mkdir)
{
	struct fp_req r[] = { { "/d", 0 }, { "/d", 0 } };
	struct fp_req_edit ed[] = { rm_r, md };
	struct ctx c;

	ctx_open(&c);
	ck_assert_int_eq(plan(&c, r, ed, 2), FP_OK);
	commit(&c);
	ck_assert_mem_eq(vol + ROOT + 32, "D          ", 11);
	ck_assert_uint_eq(fp_le16(vol + ROOT + 32 + DIR_CLUS_LO), 11);
	ck_assert_uint_eq(root_ent(3), 0);
	ck_assert_uint_eq(fat(5), 0);
	ck_assert_uint_eq(vol[testvol_cl_off(11) + 64], 0);
	ctx_close(&c);
}
END_TEST

static Suite *rm_suite(void)
{
	Suite *s = suite_create("rm");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_tree_as_expected);
	tcase_add_test(tc, test_rm_file);
	tcase_add_test(tc, test_freed_not_reused);
	tcase_add_test(tc, test_rm_tree);
	tcase_add_test(tc, test_rm_not_empty);
	tcase_add_test(tc, test_rm_emptied_dir);
	tcase_add_test(tc, test_rm_refusals);
	tcase_add_test(tc, test_rm_tree_changed_by_plan);
	tcase_add_test(tc, test_rm_tree_earlier_kinds);
	tcase_add_test(tc, test_rm_cross_link_refused);
	tcase_add_test(tc, test_rm_cycle_refused);
	tcase_add_test(tc, test_mkdir);
	tcase_add_test(tc, test_mkdir_exists_and_parents);
	tcase_add_test(tc, test_rm_then_mkdir);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(rm_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
