/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_edit_attr.c - attribute edits: the SPEC, the plan, the one byte. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "edit_attr.h"
#include "le.h"
#include "plan.h"
#include "testvol.h"

#define R FP_ATTR_RO
#define H FP_ATTR_HIDDEN
#define S FP_ATTR_SYSTEM
#define A FP_ATTR_ARCHIVE

/* SPECs as mattrib's flags, several in one word; the rest refused. */
START_TEST(test_parse)
{
	static const struct {
		const char *spec;
		int ok;
		uint8_t set, clear;
	} t[] = {
		{ "+r", 1, R, 0 }, { "-a", 1, 0, A },
		{ "+rhs-a", 1, R | H | S, A }, { "-a+h", 1, H, A },
		{ "+RHS", 1, R | H | S, 0 }, { "+r+h", 1, R | H, 0 },
		{ "+rr", 1, R, 0 }, { "-rhsa", 1, 0, R | H | S | A },
		{ "", 0, 0, 0 }, { "+", 0, 0, 0 }, { "-", 0, 0, 0 },
		{ "r", 0, 0, 0 }, { "+x", 0, 0, 0 }, { "+v", 0, 0, 0 },
		{ "+d", 0, 0, 0 }, { "+-a", 0, 0, 0 }, { "+r-", 0, 0, 0 },
		{ "+r-r", 0, 0, 0 }, { "+r a", 0, 0, 0 }, { "=r", 0, 0, 0 },
	};
	uint8_t set, clear;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		set = clear = 0x55;
		ck_assert_msg((fp_edit_attr_parse(t[i].spec, &set, &clear) ==
			       FP_OK) == t[i].ok, "'%s'", t[i].spec);
		if (!t[i].ok) {
			ck_assert_uint_eq(set, 0x55);	/* untouched */
			ck_assert_uint_eq(clear, 0x55);
			continue;
		}
		ck_assert_msg(set == t[i].set && clear == t[i].clear,
			      "'%s': +%02x -%02x", t[i].spec, set, clear);
	}
}
END_TEST

START_TEST(test_letters)
{
	char s[5];

	fp_edit_attr_letters(0, s);
	ck_assert_str_eq(s, "----");
	fp_edit_attr_letters(R | A | FP_ATTR_DIR, s);
	ck_assert_str_eq(s, "r--a");
	fp_edit_attr_letters(0xFF, s);
	ck_assert_str_eq(s, "rhsa");
}
END_TEST

static void setup(void)
{
	testvol_make();
}

static void teardown(void)
{
	testvol_free();
}

/* Plan and commit @r on the test volume; the plan's error. */
static enum fp_err run(const struct fp_req *r, const struct fp_req_edit *ed,
		       size_t n, unsigned long *writes)
{
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1, .parents = 1,
				   .edits = ed };
	struct fp_plan_diag diag;
	struct fp_plan *plan = NULL;
	struct fp_img *img;
	struct fp_fs *fs;
	enum fp_err err;

	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &img), FP_OK);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	err = fp_plan_build(fs, &o, r, n, &plan, &diag);
	if (!err)
		err = fp_plan_commit(plan, 1);
	*writes = fp_img_write_count(img);
	if (!err)
		memcpy(vol, fp_img_mem_data(img), (size_t)TOTAL * SEC);
	fp_plan_free(plan);
	fp_fs_free(fs);
	fp_img_close(img);
	return err;
}

/* Offset of the root entry whose short name is @sfn. */
static size_t root_ent(const char *sfn)
{
	size_t off;

	for (off = ROOT; off < DATA; off += 32)
		if (!memcmp(vol + off, sfn, 11))
			return off;
	ck_abort_msg("no root entry '%s'", sfn);
	return 0;
}

/* A file and a directory; then their attributes change. */
static void make_files(void)
{
	static const struct fp_req r[] = {
		{ "/file.txt", 700 }, { "/d/x", 1 },
	};
	unsigned long w;

	ck_assert_int_eq(run(r, NULL, 2, &w), FP_OK);
}

/*
 * +rhs-a on a file changes its attribute byte only: one byte of the
 * image, written in one sector write; times, size and chain kept.
 */
START_TEST(test_one_byte_one_write)
{
	static const struct fp_req r[] = { { "/FILE.TXT", 0 } };
	static const struct fp_req_edit ed[] = {
		{ FP_REQ_ATTR, 0, NULL, R | H | S, A },
	};
	uint8_t *before = malloc((size_t)TOTAL * SEC);
	unsigned long w;
	size_t off, i, diff = 0;

	ck_assert_ptr_nonnull(before);
	make_files();
	off = root_ent("FILE    TXT");
	ck_assert_uint_eq(vol[off + DIR_ATTR], A);
	memcpy(before, vol, (size_t)TOTAL * SEC);
	ck_assert_int_eq(run(r, ed, 1, &w), FP_OK);
	ck_assert_uint_eq(w, 1);
	for (i = 0; i < (size_t)TOTAL * SEC; i++)
		diff += vol[i] != before[i];
	ck_assert_uint_eq(diff, 1);
	ck_assert_uint_eq(vol[off + DIR_ATTR], R | H | S);
	free(before);
}
END_TEST

/*
 * A directory's bit stays whatever the SPEC says; the plan reports the
 * attributes before and after; a SPEC that changes nothing writes
 * nothing.
 */
START_TEST(test_directory_and_unchanged)
{
	static const struct fp_req r[] = { { "/d", 0 }, { "/d/", 0 } };
	static const struct fp_req_edit ed[] = {
		{ FP_REQ_ATTR, 0, NULL, H | S, R | A },
		{ FP_REQ_ATTR, 0, NULL, H, 0 },
	};
	struct fp_plan_opts o = { .time = 1, .utc = 1, .edits = ed };
	const struct fp_plan_file *f;
	struct fp_plan_diag diag;
	struct fp_plan *plan;
	struct fp_img *img;
	struct fp_fs *fs;
	unsigned long w;
	size_t off, n;

	make_files();
	off = root_ent("D          ");
	ck_assert_uint_eq(vol[off + DIR_ATTR], FP_ATTR_DIR);
	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &img), FP_OK);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	ck_assert_int_eq(fp_plan_build(fs, &o, r, 2, &plan, &diag), FP_OK);
	f = fp_plan_files(plan, &n);
	ck_assert_uint_eq(n, 2);
	ck_assert_int_eq(f[0].action, FP_ACT_ATTR);
	ck_assert_uint_eq(f[0].old_attr, FP_ATTR_DIR);
	ck_assert_uint_eq(f[0].new_attr, FP_ATTR_DIR | H | S);
	ck_assert_uint_eq(f[1].old_attr, FP_ATTR_DIR | H | S);
	ck_assert_uint_eq(f[1].new_attr, FP_ATTR_DIR | H | S);
	ck_assert_int_eq(fp_plan_commit(plan, 1), FP_OK);
	memcpy(vol, fp_img_mem_data(img), (size_t)TOTAL * SEC);
	fp_plan_free(plan);
	fp_fs_free(fs);
	fp_img_close(img);
	ck_assert_uint_eq(vol[off + DIR_ATTR], FP_ATTR_DIR | H | S);
	ck_assert_int_eq(run(r + 1, ed + 1, 1, &w), FP_OK);
	ck_assert_uint_eq(w, 0);
}
END_TEST

/*
 * Refusals write nothing: a missing file (FP_E_NOFILE) or directory on
 * the way (FP_E_NOENT), a file named with a trailing slash
 * (FP_E_NOTDIR), the root (FP_E_NAME: no entry), a bit outside r, h, s
 * and a (FP_E_INVAL), and the first request is not written either.
 */
START_TEST(test_refusals)
{
	static const struct {
		const char *path;
		uint8_t set;
		enum fp_err err;
	} t[] = {
		{ "/nothing", R, FP_E_NOFILE },
		{ "/no/such", R, FP_E_NOENT },
		{ "/file.txt/", R, FP_E_NOTDIR },
		{ "/", R, FP_E_NAME },
		{ "/file.txt", FP_ATTR_VOLUME, FP_E_INVAL },
		{ "/file.txt", FP_ATTR_DIR, FP_E_INVAL },
	};
	struct fp_req r[2] = { { "/file.txt", 0 }, { NULL, 0 } };
	struct fp_req_edit ed[2] = { { FP_REQ_ATTR, 0, NULL, R, 0 },
				     { FP_REQ_ATTR, 0, NULL, 0, 0 } };
	uint8_t *before = malloc((size_t)TOTAL * SEC);
	unsigned long w;
	size_t i;

	ck_assert_ptr_nonnull(before);
	make_files();
	memcpy(before, vol, (size_t)TOTAL * SEC);
	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		r[1].path = t[i].path;
		ed[1].attr_set = t[i].set;
		ck_assert_int_eq(run(r, ed, 2, &w), t[i].err);
		ck_assert_uint_eq(w, 0);
		ck_assert(!memcmp(vol, before, (size_t)TOTAL * SEC));
	}
	free(before);
}
END_TEST

/* A copy's new file, then its attributes: one plan, one entry. */
START_TEST(test_after_create)
{
	static const struct fp_req r[] = {
		{ "/new.sys", 100 }, { "/NEW.SYS", 0 },
	};
	static const struct fp_req_edit ed[] = {
		{ FP_REQ_FILE, 0, NULL, 0, 0 },
		{ FP_REQ_ATTR, 0, NULL, R | H | S, A },
	};
	unsigned long w;

	ck_assert_int_eq(run(r, ed, 2, &w), FP_OK);
	ck_assert_uint_eq(vol[root_ent("NEW     SYS") + DIR_ATTR], R | H | S);
}
END_TEST

static Suite *edit_attr_suite(void)
{
	Suite *s = suite_create("edit_attr");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_parse);
	tcase_add_test(tc, test_letters);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_one_byte_one_write);
	tcase_add_test(tc, test_directory_and_unchanged);
	tcase_add_test(tc, test_refusals);
	tcase_add_test(tc, test_after_create);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(edit_attr_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
