/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_size.c - unit tests for SIZE parsing (size.h). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>

#include "size.h"

struct size_case {
	const char *in;
	enum fp_err err;
	uint64_t val;
};

#define OK(s, v) { s, FP_OK, v }
#define BAD(s) { s, FP_E_INVAL, 0 }

static const struct size_case size_cases[] = {
	OK("0", 0),
	OK("1", 1),
	OK("007", 7),
	OK("1K", 1024),
	OK("1k", 1024),
	OK("1KiB", 1024),
	OK("1kib", 1024),
	OK("1Kib", 1024),
	OK("1kiB", 1024),
	OK("1KB", 1000),
	OK("1kb", 1000),
	OK("1Kb", 1000),
	OK("1M", 1048576),
	OK("1MiB", 1048576),
	OK("1MB", 1000000),
	OK("4G", 4294967296ull),
	OK("4GB", 4000000000ull),
	OK("1T", 1099511627776ull),
	OK("1t", 1099511627776ull),
	OK("1TiB", 1099511627776ull),
	OK("1TB", 1000000000000ull),
	OK("0T", 0),
	OK("16777215T", 18446742974197923840ull),
	OK("18446744TB", 18446744000000000000ull),
	OK("18446744073709551615", UINT64_MAX),
	OK("00000000000000000000018446744073709551615", UINT64_MAX),
	/* util-linux: hex, and fractions before a suffix */
	OK("0x10", 16),
	OK("0X10", 16),
	OK("0x1000", 4096),
	OK("0xfF", 255),
	OK("0x1B", 27),
	OK("0x10K", 16384),
	OK("0x1KiB", 1024),
	OK("0x1KB", 1000),
	OK("0xffffffffffffffff", UINT64_MAX),
	OK("010", 10),
	OK("1.5K", 1536),
	OK("1.5k", 1536),
	OK("1.5M", 1572864),
	OK("1.5MiB", 1572864),
	OK("1.5MB", 1500000),
	OK("0.5K", 512),
	OK("0.25G", 268435456),
	OK("1.05M", 1101004),
	OK("0.1K", 102),
	OK("0.001K", 1),
	OK("0.0001K", 0),
	OK("0.999K", 1022),
	OK("0.9999999999999999999999999K", 1023),
	OK("1.000K", 1024),
	OK("0.33K", 337),
	OK("2.5KB", 2500),
	OK("0.0015KB", 1),
	OK("1.5T", 1649267441664ull),
	OK("16777215.99999999999999999999T", 18446744073709551615ull),
	OK("16777215.5T", 18446743523953737728ull),
	OK("18446744.073709551615TB", 18446744073709551615ull),
	BAD(""),
	BAD("-1"),
	BAD("+1"),
	BAD("12Q"),
	BAD("K"),
	BAD("KiB"),
	BAD(" 1"),
	BAD("1 "),
	BAD("1 K"),
	BAD("1KIB"),
	BAD("1KiBx"),
	BAD("1Ki"),
	BAD("1KBB"),
	BAD("1B"),
	BAD("1Z"),
	/* P and E are not suffixes: "1e" is a malformed number, not 1 EiB */
	BAD("1e"),
	BAD("1E"),
	BAD("1eX"),
	BAD("1e3"),
	BAD("1e9"),
	BAD("0E"),
	BAD("1EB"),
	BAD("1EiB"),
	BAD("1.5E"),
	BAD("15E"),
	BAD("18EB"),
	BAD("15.5E"),
	BAD("1P"),
	BAD("1p"),
	BAD("1PB"),
	BAD("1PiB"),
	BAD(" 1K"),
	BAD("1K "),
	BAD("1K\n"),
	BAD("1\t"),
	BAD("\t1K"),
	BAD("1.5"),
	BAD("1.0"),
	BAD("1."),
	BAD("1.K"),
	BAD(".5K"),
	BAD("1..5K"),
	BAD("1.5.K"),
	BAD("1,5K"),
	BAD("1.5 K"),
	BAD("0x"),
	BAD("0xK"),
	BAD("0x1.8K"),
	BAD("0xg"),
	BAD("x10"),
	BAD("0x10000000000000000"),
	BAD("16.0E"),
	BAD("18.4467440737095516160EB"),
	BAD("16777216.0T"),
	BAD("18446744.073709551616TB"),
	BAD("18446744073709551616"),
	BAD("99999999999999999999"),
	BAD("16E"),
	BAD("19EB"),
	BAD("18446745TB"),
	BAD("16777216T"),
	BAD("17179869184G"),
};

#define N_CASES ((int)(sizeof(size_cases) / sizeof(size_cases[0])))

/* Offsets: mtools' @@OFFSET forms, plus the suffixes of SIZE. */
static const struct size_case offset_cases[] = {
	OK("0", 0),
	OK("1048576", 1048576),
	OK("1M", 1048576),
	OK("1m", 1048576),
	OK("2048S", 1048576),
	OK("2048s", 1048576),
	OK("0S", 0),
	OK("1024K", 1048576),
	OK("1G", 1073741824),
	OK("0x100000", 1048576),
	OK("0X100000", 1048576),
	OK("0xAbC", 0xabc),
	OK("0x800S", 1048576),
	OK("0x1B", 27),
	OK("0x1KB", 1000),
	OK("04000000", 1048576),
	OK("010", 8),
	OK("007", 7),
	OK("04000S", 1048576),
	OK("01M", 1048576),
	OK("1KiB", 1024),
	OK("1MB", 1000000),
	OK("1T", 1099511627776ull),
	OK("0xffffffffffffffff", UINT64_MAX),
	OK("01777777777777777777777", UINT64_MAX),
	OK("18446744073709551615", UINT64_MAX),
	OK("36028797018963967S", 18446744073709551104ull),
	BAD(""),
	BAD("0x"),
	BAD("0X"),
	BAD("0xg"),
	BAD("08"),
	BAD("019"),
	BAD("09S"),
	BAD("-1"),
	BAD("+1"),
	BAD(" 1"),
	BAD("1 "),
	BAD("1.5M"),
	BAD("S"),
	BAD("1SB"),
	BAD("1Si"),
	BAD("1SiB"),
	BAD("1SS"),
	BAD("1X"),
	BAD("1P"),
	BAD("1E"),
	BAD("1e"),
	BAD("0x10000000000000000"),
	BAD("02000000000000000000000"),
	BAD("36028797018963968S"),
	BAD("18446744073709551616"),
};

#define N_OFFSET_CASES \
	((int)(sizeof(offset_cases) / sizeof(offset_cases[0])))

START_TEST(test_size_table)
{
	const struct size_case *c = &size_cases[_i];
	uint64_t out = 0x5a5a5a5a5a5a5a5aull;
	enum fp_err err = fp_size_parse(c->in, &out);

	ck_assert_msg(err == c->err, "\"%s\": got error %d, want %d", c->in,
		      (int)err, (int)c->err);
	if (c->err == FP_OK)
		ck_assert_msg(out == c->val, "\"%s\": got %llu, want %llu",
			      c->in, (unsigned long long)out,
			      (unsigned long long)c->val);
	else
		ck_assert_msg(out == 0x5a5a5a5a5a5a5a5aull,
			      "\"%s\": out written on failure", c->in);
}
END_TEST

START_TEST(test_offset_table)
{
	const struct size_case *c = &offset_cases[_i];
	uint64_t out = 0x5a5a5a5a5a5a5a5aull;
	enum fp_err err = fp_size_parse_offset(c->in, &out);

	ck_assert_msg(err == c->err, "offset \"%s\": got error %d, want %d",
		      c->in, (int)err, (int)c->err);
	if (c->err == FP_OK)
		ck_assert_msg(out == c->val, "offset \"%s\": got %llu, want "
			      "%llu", c->in, (unsigned long long)out,
			      (unsigned long long)c->val);
	else
		ck_assert_msg(out == 0x5a5a5a5a5a5a5a5aull,
			      "offset \"%s\": out written on failure", c->in);
}
END_TEST

START_TEST(test_size_null)
{
	uint64_t out = 3;

	ck_assert_int_eq(fp_size_parse(NULL, &out), FP_E_INVAL);
	ck_assert_uint_eq(out, 3);
	ck_assert_int_eq(fp_size_parse_offset(NULL, &out), FP_E_INVAL);
	ck_assert_uint_eq(out, 3);
}
END_TEST

static Suite *size_suite(void)
{
	Suite *s = suite_create("size");
	TCase *tc = tcase_create("core");

	tcase_add_loop_test(tc, test_size_table, 0, N_CASES);
	tcase_add_loop_test(tc, test_offset_table, 0, N_OFFSET_CASES);
	tcase_add_test(tc, test_size_null);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(size_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
