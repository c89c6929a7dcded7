/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_commit.c - change sets built by hand, committed to a memory image. */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "bitmap.h"
#include "commit.h"
#include "dir.h"
#include "le.h"
#include "testvol.h"

#define EOC 0xFFFFu
#define PER_CL (SEC / FP_DIRENT_LEN)	/* entries a cluster */

static void setup(void)
{
	testvol_make();
}

static void teardown(void)
{
	testvol_free();
}

/* Short entry @sfn in slot @slot of the root: first cluster @cl, @size. */
static void put_root_ent(uint32_t slot, const char *sfn, uint8_t attr,
			 uint32_t cl, uint32_t size)
{
	fp_dirent_encode(vol + ROOT + slot * FP_DIRENT_LEN,
			 (const uint8_t *)sfn, attr, 0, cl, size, 0, 0x21, 0,
			 0);
}

/* The chain @cl .. @cl + @count - 1, ended, in both FAT copies. */
static void put_chain(uint32_t cl, uint32_t count)
{
	uint32_t i;

	for (i = 0; i < count; i++)
		put_fat(cl + i, i + 1 < count ? (uint16_t)(cl + i + 1) : EOC);
}

struct vol_state {
	struct fp_img *img;
	struct fp_fs *fs;
	struct fp_dir *root, *sub;
	struct fp_change_set *cs;
};

/*
 * The volume of vol, with its free bitmap read whole (as planning reads
 * the windows it searches before it takes clusters), an empty change set
 * and the root loaded.
 */
static void open_vol(struct vol_state *v)
{
	uint32_t n;

	memset(v, 0, sizeof(*v));
	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &v->img),
			 FP_OK);
	ck_assert_int_eq(fp_fs_open(v->img, &v->fs), FP_OK);
	ck_assert_int_eq(fp_fs_bitmap(v->fs), FP_OK);
	ck_assert_int_eq(fp_bitmap_free_count(fp_fs_bm(v->fs), &n), FP_OK);
	ck_assert_int_eq(fp_change_set_new(v->fs, &v->cs), FP_OK);
	ck_assert_int_eq(fp_dir_load(v->img, fp_fs_geom(v->fs),
				     fp_fs_fat(v->fs), 0, &v->root), FP_OK);
}

static void close_vol(struct vol_state *v)
{
	fp_change_set_free(v->cs);
	fp_dir_free(v->root);
	fp_dir_free(v->sub);
	fp_fs_free(v->fs);
	fp_img_close(v->img);
}

static uint16_t disk_fat(const struct vol_state *v, int copy, uint32_t cl)
{
	const uint8_t *d = fp_img_mem_data(v->img);

	return fp_le16(d + (copy ? FAT1 : FAT0) + 2 * cl);
}

static const uint8_t *disk_cl(const struct vol_state *v, uint32_t cl)
{
	return fp_img_mem_data(v->img) + testvol_cl_off(cl);
}

static const uint8_t *disk_root_ent(const struct vol_state *v, uint32_t slot)
{
	return fp_img_mem_data(v->img) + ROOT + slot * FP_DIRENT_LEN;
}

static int all_zero(const uint8_t *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

/* ---- a set that allocates ------------------------------------------- */

/*
 * Root: A.BIN (cluster 2, one cluster of data) and the directory D
 * (cluster 40: ".", "..", then the end).  Clusters 3 and 4 hold junk.
 */
static void make_grow_vol(void)
{
	uint8_t *d = vol + testvol_cl_off(40);

	put_root_ent(0, "A       BIN", FP_ATTR_ARCHIVE, 2, SEC);
	put_root_ent(1, "D          ", FP_ATTR_DIR, 40, 0);
	put_chain(2, 1);
	put_chain(40, 1);
	fp_dirent_encode(d, (const uint8_t *)".          ", FP_ATTR_DIR, 0,
			 40, 0, 0, 0x21, 0, 0);
	fp_dirent_encode(d + FP_DIRENT_LEN, (const uint8_t *)"..         ",
			 FP_ATTR_DIR, 0, 0, 0, 0, 0x21, 0, 0);
	memset(vol + testvol_cl_off(3), 0xAA, 2 * SEC);
}

/*
 * A.BIN grows by clusters 3-4 (zeroed) to 3 sectors; D grows by cluster
 * 41, which gets the entry N.TXT.  Both are links from chain ends on
 * disk, so the FAT goes out in two passes.
 */
static void fill_grow_set(struct vol_state *v)
{
	struct fp_fat *fat = fp_fs_fat(v->fs);
	uint8_t ent[FP_DIRENT_LEN];

	fp_bitmap_take(fp_fs_bm(v->fs), 3, 2);
	ck_assert_int_eq(fp_fat_set_chain(fat, 3, 2), FP_OK);
	ck_assert_int_eq(fp_fat_set(fat, 2, 3), FP_OK);
	fp_change_alloc(v->cs, 3, 2);
	ck_assert_int_eq(fp_change_link(v->cs, 2, EOC, 3), FP_OK);
	ck_assert_int_eq(fp_change_zero(v->cs, testvol_cl_off(3), SEC),
			 FP_OK);
	ck_assert_int_eq(fp_change_zero(v->cs, testvol_cl_off(4), SEC),
			 FP_OK);
	fp_put_le32(fp_dir_ent(v->root, 0) + DIR_SIZE, 3 * SEC);
	fp_dir_touch(v->root, 0);

	ck_assert_int_eq(fp_dir_load(v->img, fp_fs_geom(v->fs), fat, 40,
				     &v->sub), FP_OK);
	fp_bitmap_take(fp_fs_bm(v->fs), 41, 1);
	ck_assert_int_eq(fp_fat_set_chain(fat, 41, 1), FP_OK);
	ck_assert_int_eq(fp_fat_set(fat, 40, 41), FP_OK);
	fp_change_alloc(v->cs, 41, 1);
	ck_assert_int_eq(fp_change_link(v->cs, 40, EOC, 41), FP_OK);
	ck_assert_int_eq(fp_dir_grow(v->sub, 41), FP_OK);
	fp_dirent_encode(ent, (const uint8_t *)"N       TXT", FP_ATTR_ARCHIVE,
			 0, 0, 0, 0, 0x21, 0, 0);
	fp_dir_put(v->sub, PER_CL, ent, 1);

	ck_assert_int_eq(fp_change_dir(v->cs, v->root), FP_OK);
	ck_assert_int_eq(fp_change_dir(v->cs, v->sub), FP_OK);
}

/* What of fill_grow_set() is on disk, one bit a step. */
enum {
	G_ZERO = 1 << 0,	/* clusters 3-4 zeroed */
	G_NEWDIR = 1 << 1,	/* cluster 41 holds N.TXT */
	G_END = 1 << 2,		/* D's end marker is a deleted entry */
	G_CHAIN0 = 1 << 3,	/* the new chains in FAT copy 0 */
	G_CHAIN1 = 1 << 4,
	G_LINK0 = 1 << 5,	/* a chain end on disk linked in copy 0 */
	G_LINK1 = 1 << 6,
	G_ENTRY = 1 << 7,	/* A.BIN's new size */
};

static unsigned grow_state(const struct vol_state *v)
{
	unsigned s = 0;
	int c;

	if (all_zero(disk_cl(v, 3), 2 * SEC))
		s |= G_ZERO;
	if (!memcmp(disk_cl(v, 41), "N       TXT", 11))
		s |= G_NEWDIR;
	if (disk_cl(v, 40)[2 * FP_DIRENT_LEN] == 0xE5)
		s |= G_END;
	for (c = 0; c < 2; c++) {
		if (disk_fat(v, c, 3) == 4 && disk_fat(v, c, 4) == EOC &&
		    disk_fat(v, c, 41) == EOC)
			s |= c ? G_CHAIN1 : G_CHAIN0;
		if (disk_fat(v, c, 2) == 3 || disk_fat(v, c, 40) == 41)
			s |= c ? G_LINK1 : G_LINK0;
	}
	if (fp_le32(disk_root_ent(v, 0) + DIR_SIZE) == 3 * SEC)
		s |= G_ENTRY;
	return s;
}

/*
 * Fail write k of the commit of the set that @fill makes, for k = 1, 2,
 * ... until the commit succeeds: the state @state reads after each must
 * be one of @order (@count states), none before the one the k before
 * reached, and the last once the commit succeeds; with @last_only_ok, a
 * commit that failed never leaves the last one.  The caller makes the
 * volume first.
 */
static void check_order(void (*fill)(struct vol_state *),
			unsigned (*state)(const struct vol_state *),
			const unsigned *order, size_t count, int last_only_ok)
{
	struct fp_commit_opts o = { .no_sync = 1 };
	struct vol_state v;
	unsigned long k;
	size_t seen = 0, i;
	unsigned s;
	enum fp_err err = FP_E_IO;

	for (k = 1; k < 64; k++) {
		open_vol(&v);
		fill(&v);
		fp_img_fail_write(v.img, k, EIO);
		err = fp_commit_write(v.cs, &o, NULL);
		s = state(&v);
		close_vol(&v);
		for (i = 0; i < count; i++)
			if (s == order[i])
				break;
		ck_assert_msg(i < count, "write %lu failed: state 0x%x", k, s);
		ck_assert_uint_ge(i, seen);	/* a later k gets further */
		seen = i;
		if (err == FP_OK)
			break;
		ck_assert_int_eq(err, FP_E_IO);
		if (last_only_ok)
			ck_assert_uint_ne(s, order[count - 1]);
	}
	ck_assert_int_eq(err, FP_OK);
	ck_assert_uint_eq(seen, count - 1);
}

START_TEST(test_alloc_set_is_written_whole)
{
	struct fp_commit_opts o = { .no_sync = 1 };
	struct vol_state v;
	uint32_t n;

	make_grow_vol();
	open_vol(&v);
	fill_grow_set(&v);
	ck_assert_uint_eq(fp_change_alloc_count(v.cs), 3);
	ck_assert_uint_eq(fp_change_freed_count(v.cs), 0);
	ck_assert_int_eq(fp_change_free_count(v.cs, &n), FP_OK);
	ck_assert_uint_eq(n, CLUSTERS - 5);
	ck_assert_uint_eq(fp_img_write_count(v.img), 0);
	ck_assert_int_eq(fp_commit_write(v.cs, &o, NULL), FP_OK);
	ck_assert_uint_eq(grow_state(&v), 0xFF);
	ck_assert_uint_eq(disk_fat(&v, 0, 2), 3);
	ck_assert_uint_eq(disk_fat(&v, 1, 2), 3);
	ck_assert_uint_eq(disk_fat(&v, 0, 40), 41);
	ck_assert_uint_eq(disk_fat(&v, 1, 40), 41);
	/* the new entry is followed by an end marker in its cluster */
	ck_assert_uint_eq(disk_cl(&v, 41)[FP_DIRENT_LEN], 0);
	close_vol(&v);
}
END_TEST

/*
 * Write k fails, for every k: what is on disk is a prefix of the order
 * (zero, new directory clusters, end markers, chains, links, entries),
 * so no entry or link ever reaches clusters that are not yet a chain.
 * (D's changed sector goes out again after the entries, unchanged.)
 */
START_TEST(test_alloc_set_order_under_faults)
{
	static const unsigned order[] = {
		0, G_ZERO, G_ZERO | G_NEWDIR, G_ZERO | G_NEWDIR | G_END,
		G_ZERO | G_NEWDIR | G_END | G_CHAIN0,
		G_ZERO | G_NEWDIR | G_END | G_CHAIN0 | G_CHAIN1,
		G_ZERO | G_NEWDIR | G_END | G_CHAIN0 | G_CHAIN1 | G_LINK0,
		0x7F, 0xFF,
	};

	make_grow_vol();
	check_order(fill_grow_set, grow_state, order,
		    sizeof(order) / sizeof(order[0]), 0);
}
END_TEST

/* ---- a set that frees ----------------------------------------------- */

/*
 * Root: B.BIN (one sector of data, chain 10-13: three clusters past its
 * size) and C.BIN (chain 20-21).  Cluster 30 holds junk.
 */
static void make_free_vol(void)
{
	put_root_ent(0, "B       BIN", FP_ATTR_ARCHIVE, 10, SEC);
	put_root_ent(1, "C       BIN", FP_ATTR_ARCHIVE, 20, SEC);
	put_chain(10, 4);
	put_chain(20, 2);
	memset(vol + testvol_cl_off(30), 0xAA, SEC);
}

/*
 * B.BIN loses its clusters past its size, and C.BIN is replaced: its
 * entry gets the new chain 30 (zeroed) and its old chain is freed, as a
 * replace or remove would free clusters.
 */
static void fill_free_set(struct vol_state *v)
{
	struct fp_fat *fat = fp_fs_fat(v->fs);

	ck_assert_int_eq(fp_change_free_chain(v->cs, 10, 11, 3), FP_OK);
	fp_bitmap_take(fp_fs_bm(v->fs), 30, 1);
	ck_assert_int_eq(fp_fat_set_chain(fat, 30, 1), FP_OK);
	fp_change_alloc(v->cs, 30, 1);
	ck_assert_int_eq(fp_change_zero(v->cs, testvol_cl_off(30), SEC),
			 FP_OK);
	fp_dirent_set_cluster(fp_dir_ent(v->root, 1), 30, 0);
	fp_dir_touch(v->root, 1);
	ck_assert_int_eq(fp_change_free_chain(v->cs, 0, 20, 2), FP_OK);
	ck_assert_int_eq(fp_change_dir(v->cs, v->root), FP_OK);
}

enum {
	F_ZERO = 1 << 0,	/* cluster 30 zeroed */
	F_CHAIN = 1 << 1,	/* cluster 30 a chain in both copies */
	F_ENTRY = 1 << 2,	/* C.BIN points at 30 */
	F_CUT0 = 1 << 3,	/* B.BIN's chain ends at 10 in copy 0 */
	F_CUT1 = 1 << 4,
	F_FREE0 = 1 << 5,	/* some freed cluster is free in copy 0 */
	F_FREE1 = 1 << 6,
};

static unsigned free_state(const struct vol_state *v)
{
	unsigned s = 0;
	int c;

	if (all_zero(disk_cl(v, 30), SEC))
		s |= F_ZERO;
	if (disk_fat(v, 0, 30) == EOC && disk_fat(v, 1, 30) == EOC)
		s |= F_CHAIN;
	if (fp_dirent_cluster(disk_root_ent(v, 1), 0) == 30)
		s |= F_ENTRY;
	for (c = 0; c < 2; c++) {
		if (disk_fat(v, c, 10) == EOC)
			s |= c ? F_CUT1 : F_CUT0;
		if (!disk_fat(v, c, 11) || !disk_fat(v, c, 20) ||
		    !disk_fat(v, c, 21))
			s |= c ? F_FREE1 : F_FREE0;
	}
	return s;
}

START_TEST(test_free_set_is_written_whole)
{
	struct fp_commit_opts o = { .no_sync = 1 };
	struct vol_state v;
	uint32_t n, cl, free_fat = 0;

	make_free_vol();
	open_vol(&v);
	fill_free_set(&v);
	ck_assert_uint_eq(fp_change_alloc_count(v.cs), 1);
	ck_assert_uint_eq(fp_change_freed_count(v.cs), 5);
	ck_assert_int_eq(fp_change_free_count(v.cs, &n), FP_OK);
	ck_assert_int_eq(fp_commit_write(v.cs, &o, NULL), FP_OK);
	ck_assert_uint_eq(free_state(&v), 0x7F);
	for (cl = 11; cl <= 13; cl++) {
		ck_assert_uint_eq(disk_fat(&v, 0, cl), 0);
		ck_assert_uint_eq(disk_fat(&v, 1, cl), 0);
	}
	ck_assert_uint_eq(disk_fat(&v, 0, 20), 0);
	ck_assert_uint_eq(disk_fat(&v, 1, 21), 0);
	ck_assert_uint_eq(fp_dirent_cluster(disk_root_ent(&v, 0), 0), 10);
	/* the count the set promised is what the FAT now holds free */
	for (cl = 2; cl < CLUSTERS + 2; cl++)
		free_fat += disk_fat(&v, 0, cl) == 0;
	ck_assert_uint_eq(n, free_fat);
	ck_assert_uint_eq(n, CLUSTERS - 2);
	close_vol(&v);
}
END_TEST

/*
 * The new chain before the entry that points at it, the entry before the
 * old chain is freed, the cut before the freed tail: a crash leaves lost
 * clusters at worst.
 */
START_TEST(test_free_set_order_under_faults)
{
	static const unsigned order[] = {
		0, F_ZERO, F_ZERO | F_CHAIN, F_ZERO | F_CHAIN | F_ENTRY,
		F_ZERO | F_CHAIN | F_ENTRY | F_CUT0,
		F_ZERO | F_CHAIN | F_ENTRY | F_CUT0 | F_CUT1,
		F_ZERO | F_CHAIN | F_ENTRY | F_CUT0 | F_CUT1 | F_FREE0,
		0x7F,
	};

	make_free_vol();
	check_order(fill_free_set, free_state, order,
		    sizeof(order) / sizeof(order[0]), 1);
}
END_TEST

/*
 * A set that only frees writes no FAT before its entries: the entry that
 * lets go of its chain is on disk before any cluster of it is free.
 */
START_TEST(test_free_only_set_entries_first)
{
	struct fp_commit_opts o = { .no_sync = 1 };
	struct vol_state v;

	make_free_vol();
	open_vol(&v);
	fp_dirent_set_cluster(fp_dir_ent(v.root, 1), 0, 0);
	fp_dir_touch(v.root, 1);
	ck_assert_int_eq(fp_change_free_chain(v.cs, 0, 20, 2), FP_OK);
	ck_assert_int_eq(fp_change_dir(v.cs, v.root), FP_OK);
	fp_img_fail_write(v.img, 2, EIO);
	ck_assert_int_eq(fp_commit_write(v.cs, &o, NULL), FP_E_IO);
	ck_assert_uint_eq(fp_dirent_cluster(disk_root_ent(&v, 1), 0), 0);
	ck_assert_uint_eq(disk_fat(&v, 0, 20), 21);
	ck_assert_uint_eq(disk_fat(&v, 1, 21), EOC);
	close_vol(&v);
}
END_TEST

/* A copy from memory lands in its clusters, the rest of them zeroed. */
START_TEST(test_copy_from_memory)
{
	static const uint8_t data[] = "change set";
	struct fp_commit_opts o = { .no_sync = 1 };
	struct fp_commit_fail fail = { 7, 7 };
	struct vol_state v;

	memset(vol + testvol_cl_off(50), 0xAA, 2 * SEC);
	open_vol(&v);
	ck_assert_int_eq(fp_change_copy(v.cs, 3, NULL, data, sizeof(data)),
			 FP_OK);
	ck_assert_int_eq(fp_change_copy_run(v.cs, 50, 1), FP_OK);
	ck_assert_int_eq(fp_commit_write(v.cs, &o, &fail), FP_OK);
	ck_assert_mem_eq(disk_cl(&v, 50), data, sizeof(data));
	ck_assert(all_zero(disk_cl(&v, 50) + sizeof(data),
			   SEC - sizeof(data)));
	ck_assert_uint_eq(disk_cl(&v, 51)[0], 0xAA);	/* not in the set */
	ck_assert_uint_eq(fail.tag, 7);
	close_vol(&v);
}
END_TEST

static Suite *commit_suite(void)
{
	Suite *s = suite_create("commit");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_alloc_set_is_written_whole);
	tcase_add_test(tc, test_alloc_set_order_under_faults);
	tcase_add_test(tc, test_free_set_is_written_whole);
	tcase_add_test(tc, test_free_set_order_under_faults);
	tcase_add_test(tc, test_free_only_set_entries_first);
	tcase_add_test(tc, test_copy_from_memory);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(commit_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
