/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_le.c - unit tests for the little-endian helpers in le.h. */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "le.h"

START_TEST(test_le16_load)
{
	const uint8_t b[] = { 0x34, 0x12, 0xff, 0xfe };

	ck_assert_uint_eq(fp_le16(b), 0x1234);
	ck_assert_uint_eq(fp_le16(b + 2), 0xfeff);
	ck_assert_uint_eq(fp_le16(b + 1), 0xff12);
}
END_TEST

START_TEST(test_le32_load)
{
	const uint8_t b[] = { 0x78, 0x56, 0x34, 0x12, 0x00, 0x00, 0x00, 0x80 };

	ck_assert_uint_eq(fp_le32(b), 0x12345678u);
	ck_assert_uint_eq(fp_le32(b + 4), 0x80000000u);
	ck_assert_uint_eq(fp_le32(b + 1), 0x00123456u);
	ck_assert_uint_eq(fp_le32(b + 3), 0x00000012u);
}
END_TEST

START_TEST(test_le_high_bits)
{
	const uint8_t ff[4] = { 0xff, 0xff, 0xff, 0xff };

	ck_assert_uint_eq(fp_le16(ff), 0xffffu);
	ck_assert_uint_eq(fp_le32(ff), 0xffffffffu);
}
END_TEST

START_TEST(test_le16_store)
{
	uint8_t b[4];

	memset(b, 0xaa, sizeof(b));
	fp_put_le16(b + 1, 0xbeef);
	ck_assert_uint_eq(b[0], 0xaa);
	ck_assert_uint_eq(b[1], 0xef);
	ck_assert_uint_eq(b[2], 0xbe);
	ck_assert_uint_eq(b[3], 0xaa);
}
END_TEST

START_TEST(test_le32_store)
{
	uint8_t b[6];

	memset(b, 0xaa, sizeof(b));
	fp_put_le32(b + 1, 0x0ffffff8u);
	ck_assert_uint_eq(b[0], 0xaa);
	ck_assert_uint_eq(b[1], 0xf8);
	ck_assert_uint_eq(b[2], 0xff);
	ck_assert_uint_eq(b[3], 0xff);
	ck_assert_uint_eq(b[4], 0x0f);
	ck_assert_uint_eq(b[5], 0xaa);
}
END_TEST

START_TEST(test_le_round_trip)
{
	static const uint32_t v32[] = { 0, 1, 0xff, 0x100, 0xdeadbeefu,
					0xffffffffu };
	uint8_t b[5];
	size_t i;

	for (i = 0; i < sizeof(v32) / sizeof(v32[0]); i++) {
		fp_put_le32(b + 1, v32[i]);
		ck_assert_uint_eq(fp_le32(b + 1), v32[i]);
		fp_put_le16(b + 1, (uint16_t)v32[i]);
		ck_assert_uint_eq(fp_le16(b + 1), (uint16_t)v32[i]);
	}
}
END_TEST

static Suite *le_suite(void)
{
	Suite *s = suite_create("le");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_le16_load);
	tcase_add_test(tc, test_le32_load);
	tcase_add_test(tc, test_le_high_bits);
	tcase_add_test(tc, test_le16_store);
	tcase_add_test(tc, test_le32_store);
	tcase_add_test(tc, test_le_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(le_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
