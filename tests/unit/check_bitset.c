/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_bitset.c - unit tests for the sparse bit sets. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bitset.h"

/* Four blocks and a part: fills cross blocks, the last one is short. */
#define BOUND (4u * FP_BITSET_BLOCK + 1000u)

/* A plain bit per number: what the set must agree with. */
static unsigned char ref[BOUND];

/* The set's bits, each of them, and block by block, against ref. */
static void agree(const struct fp_bitset *s)
{
	uint32_t i, k, j;
	const uint64_t *b;

	for (i = 0; i < BOUND; i++)
		ck_assert_int_eq(fp_bitset_test(s, i), ref[i]);
	for (k = 0; k * FP_BITSET_BLOCK < BOUND; k++) {
		b = fp_bitset_block(s, k);
		for (j = 0; j < FP_BITSET_BLOCK &&
		     k * FP_BITSET_BLOCK + j < BOUND; j++)
			ck_assert_int_eq(b ? (int)(b[j / 64] >> (j % 64) & 1) :
					 0, ref[k * FP_BITSET_BLOCK + j]);
	}
}

static uint64_t ref_first(uint32_t lo, uint32_t hi)
{
	uint64_t i;

	for (i = lo; i <= hi; i++)
		if (ref[i])
			return i;
	return (uint64_t)hi + 1;
}

static void fill(struct fp_bitset *s, uint32_t lo, uint32_t hi)
{
	ck_assert_int_eq(fp_bitset_fill(s, lo, hi), 0);
	memset(ref + lo, 1, hi - lo + 1);
}

START_TEST(test_empty)
{
	struct fp_bitset s;

	memset(ref, 0, sizeof(ref));
	ck_assert_int_eq(fp_bitset_init(&s, BOUND), 0);
	agree(&s);
	ck_assert_uint_eq(fp_bitset_first(&s, 0, BOUND - 1), BOUND);
	ck_assert_uint_eq(fp_bitset_first(&s, 9, 8), 9);	/* no range */
	ck_assert_int_eq(fp_bitset_full(&s, 0), 0);
	ck_assert_int_eq(fp_bitset_fill(&s, 200, 100), 0);	/* no range */
	agree(&s);
	fp_bitset_release(&s);
}
END_TEST

/*
 * A run filled window by window, as scan_fat does, ends up a shared block
 * of ones wherever it covers a block; the edges stay exact.
 */
START_TEST(test_fill_pieces)
{
	const uint32_t piece = FP_BITSET_BLOCK / 2;
	struct fp_bitset s;
	uint32_t lo;

	memset(ref, 0, sizeof(ref));
	ck_assert_int_eq(fp_bitset_init(&s, BOUND), 0);
	for (lo = 3; lo + piece <= 3 * FP_BITSET_BLOCK + 7; lo += piece)
		fill(&s, lo, lo + piece - 1);
	agree(&s);
	ck_assert_int_eq(fp_bitset_full(&s, 0), 0);	/* bits 0-2 clear */
	ck_assert_int_eq(fp_bitset_full(&s, 1), 1);
	ck_assert_int_eq(fp_bitset_full(&s, 2), 1);
	ck_assert_int_eq(fp_bitset_full(&s, 3), 0);
	ck_assert_ptr_eq(fp_bitset_block(&s, 1), fp_bitset_block(&s, 2));
	ck_assert_uint_eq(fp_bitset_first(&s, 0, BOUND - 1), 3);
	ck_assert_uint_eq(fp_bitset_first(&s, FP_BITSET_BLOCK + 5, BOUND - 1),
			  FP_BITSET_BLOCK + 5);
	/* setting a bit of a full block leaves the shared ones alone */
	ck_assert_int_eq(fp_bitset_set(&s, FP_BITSET_BLOCK + 9), 0);
	agree(&s);
	fp_bitset_clear(&s);
	memset(ref, 0, sizeof(ref));
	agree(&s);
	fp_bitset_release(&s);
}
END_TEST

/* Random sets, fills and searches, then a clear, against ref. */
START_TEST(test_random)
{
	struct fp_bitset s;
	uint32_t n, lo, hi, i;

	srand(7);
	memset(ref, 0, sizeof(ref));
	ck_assert_int_eq(fp_bitset_init(&s, BOUND), 0);
	for (n = 0; n < 3000; n++) {
		lo = (uint32_t)rand() % BOUND;
		hi = lo + (uint32_t)rand() %
			  (n % 3 ? 200 : 3 * FP_BITSET_BLOCK);
		if (hi >= BOUND)
			hi = BOUND - 1;
		switch (rand() % 3) {
		case 0:
			ck_assert_int_eq(fp_bitset_set(&s, lo), 0);
			ref[lo] = 1;
			break;
		case 1:
			if (rand() % 8 == 0)	/* keep most of it clear */
				fill(&s, lo, hi);
			break;
		default:
			ck_assert_uint_eq(fp_bitset_first(&s, lo, hi),
					  ref_first(lo, hi));
		}
		if (n % 500 == 0)
			agree(&s);
		if (n == 2000) {
			fp_bitset_clear(&s);
			memset(ref, 0, sizeof(ref));
		}
	}
	agree(&s);
	for (i = 0; i + 100 < BOUND; i += 997)
		ck_assert_uint_eq(fp_bitset_first(&s, i, i + 100),
				  ref_first(i, i + 100));
	fp_bitset_release(&s);
}
END_TEST

static Suite *bitset_suite(void)
{
	Suite *s = suite_create("bitset");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_empty);
	tcase_add_test(tc, test_fill_pieces);
	tcase_add_test(tc, test_random);
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bitset_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
