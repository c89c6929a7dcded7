/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_err.c - unit tests for the error list: classes and messages. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fp_err.h"

/*
 * The class of every error as the command line's exit statuses had it
 * before the classes were in fp_err.def (exit_code_of() in
 * src/cli/messages.c: 4 for CORRUPT, DAMAGED, FATDIFF, DIRTY; 16 for
 * DUPPATH, NAME, NAMELEN, NONBMP, RESERVED; 8 for the rest).  A change
 * here changes an exit status that scripts see.
 */
static const struct {
	enum fp_err err;
	enum fp_err_class cls;
} want[] = {
	{ FP_OK, FP_CLASS_OK },
	{ FP_E_NOMEM, FP_CLASS_OPERATIONAL },
	{ FP_E_IO, FP_CLASS_OPERATIONAL },
	{ FP_E_TRUNC, FP_CLASS_OPERATIONAL },
	{ FP_E_NOTFAT, FP_CLASS_OPERATIONAL },
	{ FP_E_BPB, FP_CLASS_OPERATIONAL },
	{ FP_E_CORRUPT, FP_CLASS_DAMAGED },
	{ FP_E_DAMAGED, FP_CLASS_DAMAGED },
	{ FP_E_FATDIFF, FP_CLASS_DAMAGED },
	{ FP_E_DIRTY, FP_CLASS_DAMAGED },
	{ FP_E_NOSPC, FP_CLASS_OPERATIONAL },
	{ FP_E_NORUN, FP_CLASS_OPERATIONAL },
	{ FP_E_ROOTFULL, FP_CLASS_OPERATIONAL },
	{ FP_E_DIRFULL, FP_CLASS_OPERATIONAL },
	{ FP_E_NOENT, FP_CLASS_OPERATIONAL },
	{ FP_E_NOFILE, FP_CLASS_OPERATIONAL },
	{ FP_E_NOTDIR, FP_CLASS_OPERATIONAL },
	{ FP_E_ISDIR, FP_CLASS_OPERATIONAL },
	{ FP_E_NAME, FP_CLASS_USAGE },
	{ FP_E_NAMELEN, FP_CLASS_USAGE },
	{ FP_E_RESERVED, FP_CLASS_USAGE },
	{ FP_E_NONBMP, FP_CLASS_USAGE },
	{ FP_E_ALIAS, FP_CLASS_OPERATIONAL },
	{ FP_E_TOOBIG, FP_CLASS_OPERATIONAL },
	{ FP_E_PTABLE, FP_CLASS_OPERATIONAL },
	{ FP_E_LOCKED, FP_CLASS_OPERATIONAL },
	{ FP_E_NOPART, FP_CLASS_OPERATIONAL },
	{ FP_E_MANYPART, FP_CLASS_OPERATIONAL },
	{ FP_E_DUPPATH, FP_CLASS_USAGE },
	{ FP_E_INVAL, FP_CLASS_OPERATIONAL },
	{ FP_E_SRC, FP_CLASS_OPERATIONAL },
	{ FP_E_SPECIAL, FP_CLASS_OPERATIONAL },
	{ FP_E_LOOP, FP_CLASS_OPERATIONAL },
	{ FP_E_EXISTS, FP_CLASS_OPERATIONAL },
	{ FP_E_CHANGED, FP_CLASS_OPERATIONAL },
	{ FP_E_PASTPART, FP_CLASS_OPERATIONAL },
	{ FP_E_SNAPBIG, FP_CLASS_OPERATIONAL },
	{ FP_E_AMBIG, FP_CLASS_OPERATIONAL },
	{ FP_E_GEOM, FP_CLASS_USAGE },
	{ FP_E_HOST, FP_CLASS_OPERATIONAL },
	{ FP_E_HOSTNAME, FP_CLASS_OPERATIONAL },
	{ FP_E_NOTEMPTY, FP_CLASS_OPERATIONAL },
	{ FP_E_ROOT, FP_CLASS_USAGE },
	{ FP_E_MVROOT, FP_CLASS_USAGE },
	{ FP_E_MVSELF, FP_CLASS_USAGE },
};

#define WANT_COUNT (sizeof(want) / sizeof(want[0]))

/* want[] names each error once, FP_OK being 0. */
START_TEST(test_table_complete)
{
	unsigned seen[FP_E_COUNT] = { 0 };
	size_t i;

	ck_assert_int_eq(FP_OK, 0);
	for (i = 0; i < WANT_COUNT; i++) {
		ck_assert_uint_lt(want[i].err, FP_E_COUNT);
		seen[want[i].err]++;
	}
	for (i = 0; i < FP_E_COUNT; i++)
		ck_assert_msg(seen[i] == 1, "error %zu listed %u times", i,
			      seen[i]);
}
END_TEST

START_TEST(test_class)
{
	size_t i;

	for (i = 0; i < WANT_COUNT; i++)
		ck_assert_msg(fp_err_class(want[i].err) == want[i].cls,
			      "error %d (%s): class %d, expected %d",
			      (int)want[i].err, fp_strerror(want[i].err),
			      (int)fp_err_class(want[i].err),
			      (int)want[i].cls);
}
END_TEST

/* A value that is no error is an operational failure, "unknown error". */
START_TEST(test_out_of_range)
{
	ck_assert_int_eq(fp_err_class(FP_E_COUNT), FP_CLASS_OPERATIONAL);
	ck_assert_int_eq(fp_err_class((enum fp_err)-1), FP_CLASS_OPERATIONAL);
	ck_assert_str_eq(fp_strerror(FP_E_COUNT), "unknown error");
	ck_assert_str_eq(fp_strerror((enum fp_err)-1), "unknown error");
}
END_TEST

/* Every error has a message: not empty, no full stop, no newline. */
START_TEST(test_messages)
{
	const char *m;
	size_t len;
	int e;

	for (e = 0; e < FP_E_COUNT; e++) {
		m = fp_strerror((enum fp_err)e);
		ck_assert_ptr_nonnull(m);
		len = strlen(m);
		ck_assert_msg(len > 0, "error %d: empty message", e);
		ck_assert_msg(m[len - 1] != '.' && !strchr(m, '\n'),
			      "error %d: '%s'", e, m);
		ck_assert_str_ne(m, "unknown error");
	}
	ck_assert_str_eq(fp_strerror(FP_OK), "success");
	ck_assert_str_eq(fp_strerror(FP_E_IO), "input/output error");
	ck_assert_str_eq(fp_strerror(FP_E_AMBIG),
			 "sector 0 is both a FAT boot sector and a partition "
			 "table");
}
END_TEST

static Suite *err_suite(void)
{
	Suite *s = suite_create("err");
	TCase *tc = tcase_create("list");

	tcase_add_test(tc, test_table_complete);
	tcase_add_test(tc, test_class);
	tcase_add_test(tc, test_out_of_range);
	tcase_add_test(tc, test_messages);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(err_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
