/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * check_dir.c - unit tests for directories in memory (dir.h): aliases,
 * deleted slots.
 */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"

/* 16 slots a cluster: a directory of one cluster is walked, not indexed. */
static const struct fp_geom small = { .sec_len = 512, .clus_len = 512 };
/* 1024 slots a cluster: indexed on the first question. */
static const struct fp_geom large = { .sec_len = 512, .clus_len = 32768 };

/* The ASCII string @s as UCS-2 units in @u; returns the count. */
static size_t units(const char *s, uint16_t u[FP_LFN_MAX])
{
	size_t n = strlen(s), i;

	ck_assert_uint_le(n, FP_LFN_MAX);
	for (i = 0; i < n; i++)
		u[i] = (uint8_t)s[i];
	return n;
}

/* Store a short entry named @sfn (11 bytes) at the directory's end. */
static void add_sfn(struct fp_dir *d, const char *sfn)
{
	uint8_t e[FP_DIRENT_LEN];
	uint32_t slot;

	ck_assert_uint_eq(strlen(sfn), 11);
	fp_dirent_encode(e, (const uint8_t *)sfn, FP_ATTR_ARCHIVE, 0, 0, 0, 0,
			 0, 0, 0);
	ck_assert_int_eq(fp_dir_find_free(d, 1, 0, &slot), 1);
	fp_dir_put(d, slot, e, 1);
}

/*
 * fp_dir_pick_sfn() for @name must give the 11 bytes @want, *lfn @lfn
 * and *ntres @ntres.
 */
static void check_pick(struct fp_dir *d, const char *name, const char *want,
		       int lfn, uint8_t ntres)
{
	uint16_t u[FP_LFN_MAX];
	size_t n = units(name, u);
	uint8_t sfn[11], got_ntres = 0xAA;
	int got_lfn = 7;

	ck_assert_int_eq(fp_dir_pick_sfn(d, u, n, sfn, &got_ntres, &got_lfn),
			 FP_OK);
	ck_assert_msg(!memcmp(sfn, want, 11), "'%s': got \"%.11s\", want "
		      "\"%s\"", name, (const char *)sfn, want);
	ck_assert_int_eq(got_lfn, lfn);
	ck_assert_uint_eq(got_ntres, ntres);
}

/*
 * The hashed basis as docs/DESIGN.md describes it, computed here on its
 * own: FNV-1a over the name's UTF-16 units from the offset basis
 * 0x811C9DC5 ^ @round (prime 16777619), folded to 16 bits, as four
 * upper-case hex digits after the first two characters of the basis; then
 * the tail ~@tail and the extension @ext (3 bytes).
 */
static void hashed(const char *name, const char *two, uint32_t round,
		   uint32_t tail, const char *ext, char out[12])
{
	uint32_t h = 0x811C9DC5u ^ round;
	const char *p;

	for (p = name; *p; p++)
		h = (h ^ (uint8_t)*p) * 16777619u;
	snprintf(out, 12, "%s%04X~%u", two, (unsigned)((h >> 16) ^
		 (h & 0xFFFF)), (unsigned)tail);
	memcpy(out + 8, ext, 3);
	out[11] = '\0';
}

/*
 * A name that is a bare 8.3 entry keeps it, with its case in NTRes; a
 * name that only mixes cases gets its basis alone and a long name.
 */
START_TEST(test_pick_bare)
{
	struct fp_dir *d;

	ck_assert_int_eq(fp_dir_create(&small, 5, 0, 0, 0, &d), FP_OK);
	check_pick(d, "README.TXT", "README  TXT", 0, 0);
	check_pick(d, "readme.txt", "README  TXT", 0,
		   FP_NT_LOWER_BASE | FP_NT_LOWER_EXT);
	check_pick(d, "readme.TXT", "README  TXT", 0, FP_NT_LOWER_BASE);
	/* mcopy 'ReadMe.txt': README.TXT and the long name */
	check_pick(d, "ReadMe.txt", "README  TXT", 1, 0);
	/* the basis taken: a numeric tail, even though nothing was lost */
	add_sfn(d, "README  TXT");
	check_pick(d, "ReadMe.txt", "README~1TXT", 1, 0);
	fp_dir_free(d);
}
END_TEST

/*
 * The first alias of names that lose something, each in an empty
 * directory: what mtools 4.0.32 mcopy gives them (checked by hand on an
 * image from mkfs.fat -F 16), which is what Windows and Linux give too.
 */
START_TEST(test_pick_first_alias)
{
	static const char *const cases[][2] = {
		{ "Long File Name.txt", "LONGFI~1TXT" },
		{ ".bashrc", "BASHRC~1   " },
		{ "archive.tar.gz", "ARCHIV~1GZ " },
		{ "a+b.txt", "A_B~1   TXT" },
		{ "My Documents", "MYDOCU~1   " },
		{ "x.y.z.html", "XYZ~1   HTM" },
	};
	struct fp_dir *d;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ck_assert_int_eq(fp_dir_create(&small, 5, 0, 0, 0, &d),
				 FP_OK);
		check_pick(d, cases[i][0], cases[i][1], 1, 0);
		fp_dir_free(d);
	}
}
END_TEST

/*
 * One basis for many names: ~1 to ~4 as mcopy gives them (mcopy goes on
 * with ~5, Windows does not), then the hashed basis, each of its tails in
 * turn, then the next round's.  In a directory of one small cluster
 * (walked) and in a large one (indexed), which must agree.
 */
static void pick_sequence(const struct fp_geom *g)
{
	const char *name = "Long File Name 5.txt";
	char want[12], tail[12];
	struct fp_dir *d;
	uint32_t i;

	ck_assert_int_eq(fp_dir_create(g, 5, 0, 0, 0, &d), FP_OK);
	for (i = 1; i <= 4; i++) {
		snprintf(tail, sizeof(tail), "LONGFI~%uTXT", (unsigned)i);
		check_pick(d, name, tail, 1, 0);
		add_sfn(d, tail);
	}
	for (i = 1; i <= 9; i++) {
		hashed(name, "LO", 0, i, "TXT", want);
		check_pick(d, name, want, 1, 0);
		add_sfn(d, want);
	}
	/* 15 of the small directory's 16 slots are used, none after */
	hashed(name, "LO", 1, 1, "TXT", want);
	check_pick(d, name, want, 1, 0);
	fp_dir_free(d);
	/* a deleted entry's name is free */
	ck_assert_int_eq(fp_dir_create(g, 5, 0, 0, 0, &d), FP_OK);
	add_sfn(d, "LONGFI~1TXT");
	fp_dir_ent(d, 2)[0] = FP_DIRENT_FREE;
	fp_dir_touch(d, 2);
	check_pick(d, name, "LONGFI~1TXT", 1, 0);
	fp_dir_free(d);
}

START_TEST(test_pick_sequence_walked)
{
	pick_sequence(&small);
}
END_TEST

START_TEST(test_pick_sequence_indexed)
{
	pick_sequence(&large);
}
END_TEST

/*
 * Every hashed name of the 64 rounds taken as well as ~1 to ~4: BASIS~5,
 * and with ~5 to ~9 taken too, ~10 with the base cut to fit 8.  (577
 * short entries, in one indexed cluster.)
 */
START_TEST(test_pick_after_rounds)
{
	const char *name = "Long File Name.txt";
	char want[12];
	struct fp_dir *d;
	uint32_t round, i;

	ck_assert_int_eq(fp_dir_create(&large, 5, 0, 0, 0, &d), FP_OK);
	add_sfn(d, "LONGFI~1TXT");
	add_sfn(d, "LONGFI~2TXT");
	add_sfn(d, "LONGFI~3TXT");
	add_sfn(d, "LONGFI~4TXT");
	for (round = 0; round < 64; round++)
		for (i = 1; i <= 9; i++) {
			hashed(name, "LO", round, i, "TXT", want);
			if (round < 63 || i < 9)
				add_sfn(d, want);
		}
	/* the last hashed name of the last round, then no more */
	hashed(name, "LO", 63, 9, "TXT", want);
	check_pick(d, name, want, 1, 0);
	add_sfn(d, want);
	check_pick(d, name, "LONGFI~5TXT", 1, 0);
	for (i = 5; i <= 9; i++) {
		snprintf(want, sizeof(want), "LONGFI~%uTXT", (unsigned)i);
		add_sfn(d, want);
	}
	check_pick(d, name, "LONGF~10TXT", 1, 0);
	fp_dir_free(d);
}
END_TEST

/*
 * fp_dir_delete() frees a set's slots for the plan's new sets with
 * FP_DIR_REUSE (rm), even below where fp_dir_find_free() stopped before;
 * with FP_DIR_KEEP (a move) it does not hand them out.
 */
START_TEST(test_delete_reuse)
{
	char sfn[] = "FILE00  TXT";
	struct fp_dir *d;
	uint32_t slot;
	int i;

	ck_assert_int_eq(fp_dir_create(&small, 5, 0, 0, 0, &d), FP_OK);
	for (i = 2; i < 16; i++) {	/* after "." and "..": full */
		sfn[4] = (char)('0' + i / 10);
		sfn[5] = (char)('0' + i % 10);
		add_sfn(d, sfn);
	}
	ck_assert_int_eq(fp_dir_find_free(d, 1, 0, &slot), 0);
	fp_dir_delete(d, 3, 2, FP_DIR_KEEP);
	ck_assert_uint_eq(fp_dir_ent(d, 3)[0], FP_DIRENT_FREE);
	ck_assert_uint_eq(fp_dir_ent(d, 4)[0], FP_DIRENT_FREE);
	ck_assert_int_eq(fp_dir_find_free(d, 1, 0, &slot), 0);
	fp_dir_delete(d, 9, 1, FP_DIR_REUSE);
	ck_assert_uint_eq(fp_dir_ent(d, 9)[0], FP_DIRENT_FREE);
	ck_assert_int_eq(fp_dir_find_free(d, 1, 0, &slot), 1);
	ck_assert_uint_eq(slot, 9);
	fp_dir_free(d);
}
END_TEST

static Suite *dir_suite(void)
{
	Suite *s = suite_create("dir");
	TCase *alias = tcase_create("alias");
	TCase *del = tcase_create("delete");

	tcase_add_test(alias, test_pick_bare);
	tcase_add_test(alias, test_pick_first_alias);
	tcase_add_test(alias, test_pick_sequence_walked);
	tcase_add_test(alias, test_pick_sequence_indexed);
	tcase_add_test(alias, test_pick_after_rounds);
	suite_add_tcase(s, alias);
	tcase_add_test(del, test_delete_reuse);
	suite_add_tcase(s, del);
	return s;
}

int main(void)
{
	SRunner *r = srunner_create(dir_suite());
	int failed;

	srunner_run_all(r, CK_NORMAL);
	failed = srunner_ntests_failed(r);
	srunner_free(r);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
