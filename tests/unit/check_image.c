/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * check_image.c - the sysfs lookups of a partition's whole disk and of the
 * loop device that holds a file; what the POSIX platform file does instead.
 */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "image.h"
#include "platform.h"
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

/*
 * Fake loop devices: loop0 holds "@root/img (deleted)", loop1 "@root/other",
 * loop2 is unbound (no loop/ directory), "sda" has a backing_file but is
 * no loop device.  Their dev files name a device that has no node, so
 * only the sysfs paths are there to go by.  @root/img itself is made by
 * the test; @root/link is a hard link to it, @root/other another file.
 */
static void fake_loops(void)
{
	char img[PATH_MAX], text[PATH_MAX + 32];

	dir("block");
	dir("block/loop0");
	dir("block/loop0/loop");
	put("block/loop0/dev", "4095:1048570\n");
	snprintf(img, sizeof(img), "%s/img", root);
	snprintf(text, sizeof(text), "%s (deleted)\n", img);
	put("block/loop0/loop/backing_file", text);
	dir("block/loop1");
	dir("block/loop1/loop");
	put("block/loop1/dev", "4095:1048571\n");
	snprintf(text, sizeof(text), "%s/other\n", root);
	put("block/loop1/loop/backing_file", text);
	put("other", "x");
	dir("block/loop2");
	put("block/loop2/dev", "4095:1048572\n");
	dir("block/sda");
	dir("block/sda/loop");
	put("block/sda/dev", "4095:1048573\n");
	snprintf(text, sizeof(text), "%s/link\n", root);
	put("block/sda/loop/backing_file", text);
}

static void stat_rel(const char *rel, struct stat *st)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	ck_assert_int_eq(stat(path, st), 0);
}

static void link_rel(const char *from, const char *to)
{
	char a[PATH_MAX], b[PATH_MAX];

	snprintf(a, sizeof(a), "%s/%s", root, from);
	snprintf(b, sizeof(b), "%s/%s", root, to);
	ck_assert_int_eq(link(a, b), 0);
}

static void unlink_rel(const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	ck_assert_int_eq(unlink(path), 0);
}

/*
 * The file, not the name, is compared: a hard link of the backing file
 * is found, and the device named; another file of the same directory is
 * not; a path with " (deleted)" is found once that name leads to the file
 * again, and not while it leads nowhere.
 */
START_TEST(test_loop_hard_link)
{
	struct stat img, other;
	char name[16] = "";

	fake_loops();
	put("img", "fat");
	link_rel("img", "link");
	stat_rel("link", &img);
	stat_rel("other", &other);
	ck_assert_int_eq(fp_img_loop_find(root, &img, name, sizeof(name)), 1);
	ck_assert_str_eq(name, "loop0");
	ck_assert_int_eq(fp_img_loop_find(root, &other, name, sizeof(name)), 1);
	ck_assert_str_eq(name, "loop1");
	unlink_rel("img");
	ck_assert_int_eq(fp_img_loop_find(root, &img, name, sizeof(name)), 0);
	link_rel("link", "img");
	ck_assert_int_eq(fp_img_loop_find(root, &img, name, sizeof(name)), 1);
	ck_assert_str_eq(name, "loop0");
}
END_TEST

/*
 * A file that is no loop's: not found, though "sda" names it; a missing
 * tree, none.  A file whose name ends in " (deleted)" as sysfs shows it
 * cannot be told from the deleted name: it counts.
 */
START_TEST(test_loop_none)
{
	struct stat st;
	char name[16] = "none";

	fake_loops();
	put("img", "x");
	link_rel("img", "link");
	unlink_rel("img");
	stat_rel("link", &st);
	ck_assert_int_eq(fp_img_loop_find(root, &st, name, sizeof(name)), 0);
	ck_assert_int_eq(fp_img_loop_find("/nonexistent", &st, name,
					  sizeof(name)), 0);
	ck_assert_str_eq(name, "none");
	put("img (deleted)", "a name that sysfs could show");
	stat_rel("img (deleted)", &st);
	ck_assert_int_eq(fp_img_loop_find(root, &st, name, sizeof(name)), 1);
	ck_assert_str_eq(name, "loop0");
}
END_TEST

/*
 * The POSIX fallback knows no whole disk and no loop device, even where
 * the sysfs tree names them (the fake one above, as Linux lays it out),
 * and sets nothing.
 */
START_TEST(test_posix_no_sysfs)
{
	char name[16] = "none";
	dev_t disk = 7;
	struct stat st;

	fake_loops();
	stat_rel("other", &st);
	ck_assert_int_eq(fp_img_loop_find(root, &st, name, sizeof(name)), 0);
	ck_assert_int_eq(fp_img_sysfs_disk(root, makedev(8, 17), &disk, name,
					   sizeof(name)), FP_E_NOPART);
	ck_assert_str_eq(name, "none");
	ck_assert_uint_eq(disk, 7);
}
END_TEST

/*
 * The POSIX fallback's device size is lseek(SEEK_END), which a regular
 * file answers too (Linux's BLKGETSIZE64 does not: ENOTTY); it neither
 * punches holes nor copies in the kernel, and touches nothing when asked.
 */
START_TEST(test_posix_calls)
{
	char path[PATH_MAX], buf[8];
	uint64_t size = 1;
	int fd, e = 0;

	snprintf(path, sizeof(path), "%s/f", root);
	put("f", "abcdefg");
	fd = open(path, O_RDWR);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fp_plat_dev_size(fd, &size, &e), FP_OK);
	ck_assert_uint_eq(size, 7);
	ck_assert_int_eq(fp_plat_punch(fd, 0, 4, &e), FP_E_INVAL);
	ck_assert_int_eq(fp_plat_copy_range(fd, 0, fd, 4, 3, &e), FP_E_INVAL);
	ck_assert_int_eq(e, 0);
	ck_assert_int_eq(pread(fd, buf, sizeof(buf), 0), 7);
	ck_assert_mem_eq(buf, "abcdefg", 7);
	ck_assert_int_eq(close(fd), 0);
}
END_TEST

/* Linux asks the block-device ioctl, which a regular file refuses. */
START_TEST(test_linux_dev_size)
{
	char path[PATH_MAX];
	uint64_t size = 1;
	int fd, e = 0;

	snprintf(path, sizeof(path), "%s/f", root);
	put("f", "abcdefg");
	fd = open(path, O_RDONLY);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(fp_plat_dev_size(fd, &size, &e), FP_E_IO);
	ck_assert_int_eq(e, ENOTTY);
	ck_assert_uint_eq(size, 1);
	ck_assert_int_eq(close(fd), 0);
}
END_TEST

/* A sparse image: zeros, the writes over them in order, far apart. */
START_TEST(test_sparse)
{
	const uint64_t len = 1ull << 40;	/* never held in memory */
	struct fp_img *img;
	uint8_t buf[8];

	ck_assert_int_eq(fp_img_sparse(len, &img), FP_OK);
	ck_assert_uint_eq(fp_img_len(img), len);
	ck_assert_int_eq(fp_img_write(img, len - 4, "wxyz", 4), FP_OK);
	ck_assert_int_eq(fp_img_write(img, 2, "abcd", 4), FP_OK);
	ck_assert_int_eq(fp_img_write(img, 4, "EF", 2), FP_OK);
	ck_assert_int_eq(fp_img_read(img, 0, buf, 8), FP_OK);
	ck_assert_mem_eq(buf, "\0\0abEF\0\0", 8);
	ck_assert_int_eq(fp_img_zero(img, 3, 2), FP_OK);
	ck_assert_int_eq(fp_img_read(img, 0, buf, 8), FP_OK);
	ck_assert_mem_eq(buf, "\0\0a\0\0F\0\0", 8);
	ck_assert_int_eq(fp_img_read(img, len - 6, buf, 6), FP_OK);
	ck_assert_mem_eq(buf, "\0\0wxyz", 6);
	ck_assert_int_eq(fp_img_write(img, len - 2, "abc", 3), FP_E_TRUNC);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
}
END_TEST

static Suite *image_suite(void)
{
	Suite *s = suite_create("image");
	TCase *tc = tcase_create("sysfs");

	tcase_add_checked_fixture(tc, setup, teardown);
	if (strcmp(fp_plat_name(), "linux") == 0) {
		tcase_add_test(tc, test_partition);
		tcase_add_test(tc, test_not_partition);
		tcase_add_test(tc, test_bad_parent);
		tcase_add_test(tc, test_real_loop);
		tcase_add_test(tc, test_loop_hard_link);
		tcase_add_test(tc, test_loop_none);
		tcase_add_test(tc, test_linux_dev_size);
	} else {
		tcase_add_test(tc, test_posix_no_sysfs);
		tcase_add_test(tc, test_posix_calls);
	}
	suite_add_tcase(s, tc);
	tc = tcase_create("sparse");
	tcase_add_test(tc, test_sparse);
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
