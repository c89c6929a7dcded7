/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_walk.c - unit tests for the checks the walk and the writers share. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "walk.h"

#define CLUS 2048u
#define NONE FP_P_COUNT

/* A writer's check: no walk, the problem into *pr. */
static struct fp_walk_check writer(enum fp_problem *pr)
{
	struct fp_walk_check c = { NULL, NULL, pr, CLUS };

	*pr = NONE;
	return c;
}

/*
 * A check answered @got and set *@pr: it must have answered @want (1:
 * the entry fails it) and set @want_pr.
 */
static void answers(int got, const enum fp_problem *pr, int want,
		    enum fp_problem want_pr)
{
	ck_assert_int_eq(got, want);
	ck_assert_int_eq(*pr, want_pr);
}

/* A sound directory entry "SUB" at cluster @cl of size @size. */
static struct fp_dirent entry_of(uint32_t cl, uint32_t size)
{
	struct fp_dirent e;

	memset(&e, 0, sizeof(e));
	memcpy(e.sfn, "SUB        ", 11);
	e.attr = FP_ATTR_DIR;
	e.cl = cl;
	e.size = size;
	return e;
}

START_TEST(test_dir_size)
{
	enum fp_problem pr;
	struct fp_walk_check c = writer(&pr);
	struct fp_dirent e = entry_of(5, 0);

	answers(fp_walk_dir_size(&c, &e), &pr, 0, NONE);
	e.size = 1;
	answers(fp_walk_dir_size(&c, &e), &pr, 1, FP_P_DIR_SIZE);
}
END_TEST

START_TEST(test_dir_no_chain)
{
	enum fp_problem pr;
	struct fp_walk_check c = writer(&pr);
	struct fp_dirent e = entry_of(2, 0);

	answers(fp_walk_dir_no_chain(&c, &e), &pr, 0, NONE);
	e.cl = 0;
	answers(fp_walk_dir_no_chain(&c, &e), &pr, 1, FP_P_DIR_NO_CHAIN);
}
END_TEST

START_TEST(test_dir_cycle)
{
	enum fp_problem pr;
	struct fp_walk_check c = writer(&pr);
	struct fp_dirent e = entry_of(7, 0);

	answers(fp_walk_dir_cycle(&c, &e, 0), &pr, 0, NONE);
	answers(fp_walk_dir_cycle(&c, &e, 1), &pr, 1, FP_P_DIR_CYCLE);
}
END_TEST

START_TEST(test_bad_name)
{
	enum fp_problem pr;
	struct fp_walk_check c = writer(&pr);
	struct fp_dirent e = entry_of(7, 0);

	answers(fp_walk_bad_name(&c, &e), &pr, 0, NONE);
	e.sfn[1] = 'u';		/* lower case: what Windows never stores */
	answers(fp_walk_bad_name(&c, &e), &pr, 1, FP_P_BAD_NAME);
}
END_TEST

/* Short exactly when clusters * CLUS < size: the edges either side. */
START_TEST(test_chain_short)
{
	enum fp_problem pr;
	struct fp_walk_check c = writer(&pr);
	struct fp_dirent e = entry_of(9, 2 * CLUS);

	e.attr = FP_ATTR_ARCHIVE;
	ck_assert_int_eq(fp_walk_chain_short(&c, &e, 2), 0);
	ck_assert_int_eq(fp_walk_chain_short(&c, &e, 3), 0);	/* a tail */
	ck_assert_int_eq(pr, NONE);
	e.size = 2 * CLUS + 1;
	answers(fp_walk_chain_short(&c, &e, 2), &pr, 1, FP_P_CHAIN_SHORT);
	c = writer(&pr);
	e.size = 0xFFFFFFFFu;	/* the largest size: 2^21 clusters of 2 KiB */
	ck_assert_int_eq(fp_walk_chain_short(&c, &e, 1u << 21), 0);
	ck_assert_int_eq(fp_walk_chain_short(&c, &e, (1u << 21) - 1), 1);
	e.size = 1;
	e.cl = 0;	/* no chain at all */
	ck_assert_int_eq(fp_walk_chain_short(&c, &e, 0), 1);
}
END_TEST

/* A writer's check without a place for the problem still answers. */
START_TEST(test_no_problem_ptr)
{
	struct fp_walk_check c = { NULL, NULL, NULL, CLUS };
	struct fp_dirent e = entry_of(0, 3);

	ck_assert_int_eq(fp_walk_dir_size(&c, &e), 1);
	ck_assert_int_eq(fp_walk_dir_no_chain(&c, &e), 1);
}
END_TEST

static Suite *walk_suite(void)
{
	Suite *s = suite_create("walk");
	TCase *tc = tcase_create("checks");

	tcase_add_test(tc, test_dir_size);
	tcase_add_test(tc, test_dir_no_chain);
	tcase_add_test(tc, test_dir_cycle);
	tcase_add_test(tc, test_bad_name);
	tcase_add_test(tc, test_chain_short);
	tcase_add_test(tc, test_no_problem_ptr);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(walk_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
