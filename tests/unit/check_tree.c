/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_tree.c - unit tests for the host tree scan in tree.h. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <unistd.h>

#include "tmpdir.h"
#include "tree.h"

static char root[4096];

/* A fresh directory under $TMPDIR. */
static void make_root(void)
{
	ck_assert_ptr_nonnull(mkdtemp(test_tmpl(root, sizeof(root),
						"check_tree")));
}

static void rm_tree(void)
{
	char cmd[4200];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

static const char *at(const char *rel)
{
	static char buf[4200];

	snprintf(buf, sizeof(buf), "%s/%s", root, rel);
	return buf;
}

static void put(const char *rel, size_t len, time_t mtime)
{
	struct timeval tv[2] = { { mtime, 0 }, { mtime, 0 } };
	FILE *f = fopen(at(rel), "w");
	size_t i;

	ck_assert_ptr_nonnull(f);
	for (i = 0; i < len; i++)
		fputc('a' + (int)(i % 26), f);
	ck_assert_int_eq(fclose(f), 0);
	ck_assert_int_eq(utimes(at(rel), tv), 0);
}

/* Entries come sorted bytewise whatever order they were made in. */
START_TEST(test_sorted_preorder)
{
	static const char *const want[] = {
		"", "B", "a", "a/x", "a/y", "b.txt", "\xc3\xa9",
	};
	struct fp_tree_diag diag;
	struct fp_tree *t;
	size_t i;

	make_root();
	put("\xc3\xa9", 1, 1000);
	put("b.txt", 3, 1000);
	ck_assert_int_eq(mkdir(at("a"), 0755), 0);
	put("a/y", 5, 1000);
	put("a/x", 0, 1000);
	ck_assert_int_eq(mkdir(at("B"), 0755), 0);
	ck_assert_int_eq(fp_tree_scan(root, NULL, &t, &diag), FP_OK);
	ck_assert_uint_eq(fp_tree_count(t), sizeof(want) / sizeof(want[0]));
	for (i = 0; i < fp_tree_count(t); i++)
		ck_assert_str_eq(fp_tree_node(t, i)->rel, want[i]);
	ck_assert_int_eq(fp_tree_node(t, 0)->kind, FP_TREE_DIR);
	ck_assert_int_eq(fp_tree_node(t, 2)->kind, FP_TREE_DIR);
	ck_assert_int_eq(fp_tree_node(t, 4)->kind, FP_TREE_FILE);
	ck_assert_uint_eq(fp_tree_node(t, 4)->size, 5);
	ck_assert_uint_eq(fp_tree_node(t, 5)->size, 3);
	ck_assert_str_eq(fp_tree_node(t, 5)->host, at("b.txt"));
	fp_tree_free(t);
	rm_tree();
}
END_TEST

/* A later mtime becomes the clamp; an earlier one is kept. */
START_TEST(test_clamp)
{
	struct fp_tree_diag diag;
	struct fp_tree *t;
	int64_t clamp = 2000;

	make_root();
	put("new", 1, 5000);
	put("old", 1, 1500);
	ck_assert_int_eq(fp_tree_scan(root, &clamp, &t, &diag), FP_OK);
	ck_assert_uint_eq(fp_tree_count(t), 3);
	ck_assert_int_eq(fp_tree_node(t, 1)->mtime, 2000);
	ck_assert_int_eq(fp_tree_node(t, 2)->mtime, 1500);
	fp_tree_free(t);
	ck_assert_int_eq(fp_tree_scan(at("new"), NULL, &t, &diag), FP_OK);
	ck_assert_uint_eq(fp_tree_count(t), 1);
	ck_assert_str_eq(fp_tree_node(t, 0)->rel, "");
	ck_assert_int_eq(fp_tree_node(t, 0)->mtime, 5000);
	fp_tree_free(t);
	rm_tree();
}
END_TEST

/* Links are followed; a dangling one and a cycle are refused. */
START_TEST(test_links)
{
	struct fp_tree_diag diag;
	struct fp_tree *t;

	make_root();
	put("f", 7, 1000);
	ck_assert_int_eq(symlink("f", at("l")), 0);
	ck_assert_int_eq(fp_tree_scan(root, NULL, &t, &diag), FP_OK);
	ck_assert_uint_eq(fp_tree_count(t), 3);
	ck_assert_str_eq(fp_tree_node(t, 2)->rel, "l");
	ck_assert_uint_eq(fp_tree_node(t, 2)->size, 7);
	fp_tree_free(t);
	ck_assert_int_eq(symlink("nothing", at("m")), 0);
	ck_assert_int_eq(fp_tree_scan(root, NULL, &t, &diag), FP_E_SRC);
	ck_assert_str_eq(diag.path, at("m"));
	ck_assert_int_eq(diag.link, 1);
	ck_assert_int_eq(unlink(at("m")), 0);
	ck_assert_int_eq(mkdir(at("d"), 0755), 0);
	ck_assert_int_eq(symlink("..", at("d/up")), 0);
	ck_assert_int_eq(fp_tree_scan(root, NULL, &t, &diag), FP_E_LOOP);
	ck_assert_str_eq(diag.path, at("d/up"));
	rm_tree();
}
END_TEST

/* A FIFO, and a sparse file of 4 GiB, are refused with their paths. */
START_TEST(test_refusals)
{
	struct fp_tree_diag diag;
	struct fp_tree *t;
	int fd;

	make_root();
	ck_assert_int_eq(mkfifo(at("fifo"), 0644), 0);
	ck_assert_int_eq(fp_tree_scan(root, NULL, &t, &diag), FP_E_SPECIAL);
	ck_assert_str_eq(diag.path, at("fifo"));
	ck_assert_int_eq(unlink(at("fifo")), 0);
	fd = open(at("big"), O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)0x100000000ll), 0);
	close(fd);
	ck_assert_int_eq(fp_tree_scan(root, NULL, &t, &diag), FP_E_TOOBIG);
	ck_assert_str_eq(diag.path, at("big"));
	ck_assert_int_eq(fp_tree_scan(at("none"), NULL, &t, &diag),
			 FP_E_SRC);
	ck_assert_int_eq(diag.link, 0);
	rm_tree();
}
END_TEST

/* The bytes of @path as stdio reads them, into @buf; their count. */
static size_t slurp(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "rb");
	size_t n;

	ck_assert_ptr_nonnull(f);
	n = fread(buf, 1, len, f);
	fclose(f);
	return n;
}

/* How many bytes reads of @path give, counting up to @max + 1. */
static size_t read_len(const char *path, size_t max)
{
	static char buf[1 << 20];
	size_t len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY);

	ck_assert_int_ge(fd, 0);
	while (len <= max && (n = read(fd, buf, sizeof(buf))) > 0)
		len += (size_t)n;
	ck_assert_int_ge(n, 0);
	close(fd);
	return len;
}

/*
 * A regular file of size 0 is read at the scan: an empty one stays empty
 * (no data); /proc/version, which says size 0, has its bytes in the node,
 * through a link too; /proc/self/pagemap, 8 bytes for each page of the
 * address space, gives far more than is kept in a 64-bit process (256 GiB
 * for 47 bits), and is kept whole in a 32-bit one (8 MiB for 4 GiB).
 */
START_TEST(test_size_zero)
{
	static char want[65536];
	struct fp_tree_diag diag;
	struct fp_tree *t;
	struct stat st;
	size_t n, len;

	make_root();
	put("empty", 0, 1000);
	ck_assert_int_eq(symlink("/proc/version", at("version")), 0);
	if (stat("/proc/version", &st) || st.st_size != 0) {
		ck_assert_int_eq(unlink(at("version")), 0);
		put("version", 0, 1000);	/* no /proc here */
	}
	n = slurp(at("version"), want, sizeof(want));
	ck_assert_uint_lt(n, sizeof(want));
	ck_assert_int_eq(fp_tree_scan(root, NULL, &t, &diag), FP_OK);
	ck_assert_uint_eq(fp_tree_count(t), 3);
	ck_assert_str_eq(fp_tree_node(t, 1)->rel, "empty");
	ck_assert_uint_eq(fp_tree_node(t, 1)->size, 0);
	ck_assert_ptr_null(fp_tree_node(t, 1)->data);
	ck_assert_str_eq(fp_tree_node(t, 2)->rel, "version");
	ck_assert_uint_eq(fp_tree_node(t, 2)->size, n);
	if (n)
		ck_assert_mem_eq(fp_tree_node(t, 2)->data, want, n);
	fp_tree_free(t);
	rm_tree();
	if (stat("/proc/self/pagemap", &st) || st.st_size != 0)
		return;
	len = read_len("/proc/self/pagemap", FP_TREE_SNAP_MAX);
	if (len > FP_TREE_SNAP_MAX) {
		ck_assert_int_eq(fp_tree_scan("/proc/self/pagemap", NULL, &t,
					      &diag), FP_E_SNAPBIG);
		ck_assert_str_eq(diag.path, "/proc/self/pagemap");
		return;
	}
	ck_assert_uint_gt(len, 0);
	ck_assert_int_eq(fp_tree_scan("/proc/self/pagemap", NULL, &t, &diag),
			 FP_OK);
	ck_assert_uint_eq(fp_tree_count(t), 1);
	ck_assert_uint_eq(fp_tree_node(t, 0)->size, len);
	ck_assert_ptr_nonnull(fp_tree_node(t, 0)->data);
	fp_tree_free(t);
}
END_TEST

static Suite *tree_suite(void)
{
	Suite *s = suite_create("tree");
	TCase *tc = tcase_create("scan");

	tcase_add_test(tc, test_sorted_preorder);
	tcase_add_test(tc, test_clamp);
	tcase_add_test(tc, test_links);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_size_zero);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tree_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
