/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_image.c - the sysfs lookup of a partition's whole disk. */
#include <check.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "image.h"
#include "tmpdir.h"

/* A fake sysfs tree under a temporary directory; removed by teardown. */
static char root[TEST_TMPL_LEN];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static void dir(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	ck_assert_int_eq(mkdir(path, 0755), 0);
}

static void link_dev(const char *devno, const char *target)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/dev/block/%s", root, devno);
	ck_assert_int_eq(symlink(target, path), 0);
}

/*
 * As the kernel lays it out: /sys/dev/block/MAJ:MIN links to the device's
 * directory, a partition's directory sits in its disk's and holds a
 * "partition" file.
 */
static void setup(void)
{
	ck_assert_ptr_nonnull(
		mkdtemp(test_tmpl(root, sizeof(root), "fp-sysfs")));
	dir("dev");
	dir("dev/block");
	dir("devices");
	dir("devices/sdb");
	put("devices/sdb/dev", "8:16\n");
	dir("devices/sdb/sdb1");
	put("devices/sdb/sdb1/dev", "8:17\n");
	put("devices/sdb/sdb1/partition", "1\n");
	dir("devices/nvme0n1");
	put("devices/nvme0n1/dev", "259:0\n");
	dir("devices/nvme0n1/nvme0n1p2");
	put("devices/nvme0n1/nvme0n1p2/dev", "259:2\n");
	put("devices/nvme0n1/nvme0n1p2/partition", "2\n");
	dir("devices/bad");
	put("devices/bad/dev", "garbage\n");
	dir("devices/bad/bad1");
	put("devices/bad/bad1/partition", "1\n");
	link_dev("8:16", "../../devices/sdb");
	link_dev("8:17", "../../devices/sdb/sdb1");
	link_dev("259:0", "../../devices/nvme0n1");
	link_dev("259:2", "../../devices/nvme0n1/nvme0n1p2");
	link_dev("9:1", "../../devices/bad/bad1");
}

static void teardown(void)
{
	char cmd[TEST_TMPL_LEN + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

START_TEST(test_partition)
{
	char name[32] = "";
	dev_t disk = 0;

	ck_assert_int_eq(fp_img_sysfs_disk(root, makedev(8, 17), &disk, name,
					   sizeof(name)), FP_OK);
	ck_assert_uint_eq(major(disk), 8);
	ck_assert_uint_eq(minor(disk), 16);
	ck_assert_str_eq(name, "sdb");
	ck_assert_int_eq(fp_img_sysfs_disk(root, makedev(259, 2), &disk,
					   name, sizeof(name)), FP_OK);
	ck_assert_uint_eq(major(disk), 259);
	ck_assert_uint_eq(minor(disk), 0);
	ck_assert_str_eq(name, "nvme0n1");
}
END_TEST

START_TEST(test_not_partition)
{
	char name[32] = "x";
	dev_t disk = 7;

	/* a whole disk, an unknown device: nothing set */
	ck_assert_int_eq(fp_img_sysfs_disk(root, makedev(8, 16), &disk, name,
					   sizeof(name)), FP_E_NOPART);
	ck_assert_int_eq(fp_img_sysfs_disk(root, makedev(8, 99), &disk, name,
					   sizeof(name)), FP_E_NOPART);
	ck_assert_int_eq(fp_img_sysfs_disk("/nonexistent", makedev(8, 17),
					   &disk, name, sizeof(name)),
			 FP_E_NOPART);
	ck_assert_str_eq(name, "x");
	ck_assert_uint_eq(disk, 7);
}
END_TEST

START_TEST(test_bad_parent)
{
	char name[32] = "x";
	dev_t disk = 7;

	ck_assert_int_eq(fp_img_sysfs_disk(root, makedev(9, 1), &disk, name,
					   sizeof(name)), FP_E_IO);
	/* a name that does not fit */
	ck_assert_int_eq(fp_img_sysfs_disk(root, makedev(8, 17), &disk, name,
					   3), FP_E_IO);
	ck_assert_str_eq(name, "x");
	ck_assert_uint_eq(disk, 7);
}
END_TEST

/* The real /sys: a loop device (no partitions) is a whole disk. */
START_TEST(test_real_loop)
{
	char name[32];
	dev_t disk;

	if (access("/sys/dev/block/7:0", F_OK) < 0)
		return;
	ck_assert_int_eq(fp_img_sysfs_disk("/sys", makedev(7, 0), &disk,
					   name, sizeof(name)), FP_E_NOPART);
}
END_TEST

static Suite *image_suite(void)
{
	Suite *s = suite_create("image");
	TCase *tc = tcase_create("sysfs");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_partition);
	tcase_add_test(tc, test_not_partition);
	tcase_add_test(tc, test_bad_parent);
	tcase_add_test(tc, test_real_loop);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(image_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
