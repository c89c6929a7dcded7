/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_reqs.c - unit tests for the request list and copy mapping. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "reqs.h"
#include "tmpdir.h"

static char root[TEST_TMPL_LEN];

static const char *at(const char *rel)
{
	static char buf[TEST_TMPL_LEN + 64];

	snprintf(buf, sizeof(buf), "%s/%s", root, rel);
	return buf;
}

static void put(const char *rel, const char *text)
{
	FILE *f = fopen(at(rel), "w");

	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* root/d/{a.txt,sub/b.txt} and root/f.txt ("hello"). */
static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(test_tmpl(root, sizeof(root),
						"check_reqs")));
	ck_assert_int_eq(mkdir(at("d"), 0755), 0);
	ck_assert_int_eq(mkdir(at("d/sub"), 0755), 0);
	put("d/a.txt", "aa");
	put("d/sub/b.txt", "bbb");
	put("f.txt", "hello");
}

static void teardown(void)
{
	char cmd[TEST_TMPL_LEN + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	ck_assert_int_eq(system(cmd), 0);
}

/* A new empty list. */
static struct fp_reqs *new_reqs(void)
{
	struct fp_reqs *l = fp_reqs_new();

	ck_assert_ptr_nonnull(l);
	ck_assert_uint_eq(fp_reqs_count(l), 0);
	ck_assert_ptr_null(fp_reqs_array(l));
	ck_assert_ptr_null(fp_reqs_srcs(l));
	return l;
}

/* Copy host @rel to volume path @dest (after ::) into empty @l. */
static void copy(struct fp_reqs *l, const char *rel, const char *dest)
{
	struct fp_tree_diag d;

	ck_assert_uint_eq(fp_reqs_count(l), 0);
	ck_assert_int_eq(fp_reqs_add_copy(l, at(rel), dest, NULL, &d), FP_OK);
}

static void expect(const struct fp_reqs *l, size_t i, const char *path,
		   const char *host_rel, int is_dir, uint64_t size)
{
	ck_assert_uint_lt(i, fp_reqs_count(l));
	ck_assert_str_eq(fp_reqs_path(l, i), path);
	ck_assert_str_eq(fp_reqs_src(l, i)->host, at(host_rel));
	ck_assert_int_eq(fp_reqs_src(l, i)->is_dir, is_dir);
	/* the arrays fp_plan_build() takes hold the same */
	ck_assert_ptr_eq(fp_reqs_array(l)[i].path, fp_reqs_path(l, i));
	ck_assert_ptr_eq(&fp_reqs_srcs(l)[i], fp_reqs_src(l, i));
	if (!is_dir)
		ck_assert_uint_eq(fp_reqs_size(l, i), size);
}

/* A file goes to DEST, or into DEST when it ends in a slash or is "". */
START_TEST(test_file)
{
	struct fp_reqs *l = new_reqs();

	copy(l, "f.txt", "x/g.txt");
	ck_assert_uint_eq(fp_reqs_count(l), 1);
	expect(l, 0, "x/g.txt", "f.txt", 0, 5);
	fp_reqs_release(l);
	ck_assert_uint_eq(fp_reqs_count(l), 0);

	copy(l, "f.txt", "x//");
	ck_assert_uint_eq(fp_reqs_count(l), 1);
	expect(l, 0, "x/f.txt", "f.txt", 0, 5);
	fp_reqs_release(l);

	copy(l, "f.txt", "");
	ck_assert_uint_eq(fp_reqs_count(l), 1);
	expect(l, 0, "/f.txt", "f.txt", 0, 5);
	fp_reqs_free(l);
}
END_TEST

/*
 * A directory's tree appears at DEST, the directories before what they
 * hold; at the volume's root, the root itself is no request.
 */
START_TEST(test_dir)
{
	struct fp_reqs *l = new_reqs();

	copy(l, "d", "top/");
	ck_assert_uint_eq(fp_reqs_count(l), 4);
	expect(l, 0, "top/", "d", 1, 0);
	expect(l, 1, "top/a.txt", "d/a.txt", 0, 2);
	expect(l, 2, "top/sub", "d/sub", 1, 0);
	expect(l, 3, "top/sub/b.txt", "d/sub/b.txt", 0, 3);
	fp_reqs_release(l);

	copy(l, "d/", "");
	ck_assert_uint_eq(fp_reqs_count(l), 3);
	ck_assert_str_eq(fp_reqs_path(l, 0), "/a.txt");
	ck_assert_str_eq(fp_reqs_path(l, 1), "/sub");
	ck_assert_str_eq(fp_reqs_path(l, 2), "/sub/b.txt");
	fp_reqs_free(l);
}
END_TEST

/* Preallocations and copies in one list; the scan's refusals pass on. */
START_TEST(test_mixed)
{
	struct fp_tree_diag d;
	struct fp_reqs *l = new_reqs();

	ck_assert_int_eq(fp_reqs_add(l, "pre.bin", 4096), FP_OK);
	ck_assert_int_eq(fp_reqs_add_copy(l, at("f.txt"), "c/", NULL, &d),
			 FP_OK);
	ck_assert_uint_eq(fp_reqs_count(l), 2);
	ck_assert_str_eq(fp_reqs_path(l, 0), "pre.bin");
	ck_assert_uint_eq(fp_reqs_size(l, 0), 4096);
	ck_assert_ptr_null(fp_reqs_src(l, 0)->host);
	expect(l, 1, "c/f.txt", "f.txt", 0, 5);
	ck_assert_int_eq(fp_reqs_add_copy(l, at("none"), "x", NULL, &d),
			 FP_E_SRC);
	ck_assert_str_eq(d.path, at("none"));
	ck_assert_uint_eq(fp_reqs_count(l), 2);
	fp_reqs_free(l);
}
END_TEST

/*
 * Files that FAT names make one are found, in request order; a
 * directory copied twice is merged, and so no duplicate.
 */
START_TEST(test_dup)
{
	struct fp_tree_diag d;
	struct fp_reqs *l = new_reqs();
	size_t a = 99, b = 99;

	ck_assert_int_eq(fp_reqs_add_copy(l, at("d"), "x", NULL, &d), FP_OK);
	ck_assert_int_eq(fp_reqs_add_copy(l, at("d"), "X/", NULL, &d),
			 FP_OK);
	ck_assert_int_eq(fp_reqs_add(l, "other", 1), FP_OK);
	ck_assert_int_eq(fp_reqs_find_dup(l, &a, &b), FP_E_DUPPATH);
	/* x/a.txt (1) and X/a.txt (5): the first pair in path order */
	ck_assert_uint_eq(a, 1);
	ck_assert_uint_eq(b, 5);
	fp_reqs_release(l);

	ck_assert_int_eq(fp_reqs_add(l, "a/B.TXT", 1), FP_OK);
	ck_assert_int_eq(fp_reqs_add(l, "a/c", 1), FP_OK);
	ck_assert_int_eq(fp_reqs_find_dup(l, &a, &b), FP_OK);
	ck_assert_int_eq(fp_reqs_add(l, "/a//b.txt", 2), FP_OK);
	ck_assert_int_eq(fp_reqs_find_dup(l, &a, &b), FP_E_DUPPATH);
	ck_assert_uint_eq(a, 0);
	ck_assert_uint_eq(b, 2);
	fp_reqs_release(l);
	ck_assert_int_eq(fp_reqs_find_dup(l, &a, &b), FP_OK);
	fp_reqs_free(l);
}
END_TEST

/* Edits keep their kind, flags and target; plain requests have none. */
START_TEST(test_edit)
{
	struct fp_reqs *l = fp_reqs_new();
	struct fp_req_edit mv = { FP_REQ_MV, FP_EDIT_REPLACE, "/b", 0, 0 };
	const struct fp_req_edit *e;

	ck_assert_ptr_nonnull(l);
	ck_assert_int_eq(fp_reqs_add(l, "/f", 7), FP_OK);
	ck_assert_int_eq(fp_reqs_add_edit(l, "/a", &mv), FP_OK);
	ck_assert_uint_eq(fp_reqs_count(l), 2);
	e = fp_reqs_edit(l, 0);
	ck_assert_int_eq(e->kind, FP_REQ_FILE);
	ck_assert_uint_eq(e->flags, 0);
	ck_assert_ptr_null(e->to);
	e = fp_reqs_edit(l, 1);
	ck_assert_int_eq(e->kind, FP_REQ_MV);
	ck_assert_uint_eq(e->flags, FP_EDIT_REPLACE);
	ck_assert_str_eq(e->to, "/b");
	ck_assert_ptr_eq(fp_reqs_edits(l) + 1, e);
	ck_assert_str_eq(fp_reqs_path(l, 1), "/a");
	ck_assert_uint_eq(fp_reqs_size(l, 1), 0);
	ck_assert_ptr_null(fp_reqs_src(l, 1)->host);
	fp_reqs_free(l);
}
END_TEST

static Suite *reqs_suite(void)
{
	Suite *s = suite_create("reqs");
	TCase *tc = tcase_create("mapping");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_file);
	tcase_add_test(tc, test_dir);
	tcase_add_test(tc, test_mixed);
	tcase_add_test(tc, test_dup);
	tcase_add_test(tc, test_edit);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(reqs_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
