/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_sha256.c - unit tests for SHA-256 (sha256.h). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sha256.h"
#include "tmpdir.h"

/* The implementations to test: each that this CPU runs. */
static const enum fp_sha256_impl impls[] = { FP_SHA256_C, FP_SHA256_SHANI };

/* The hex digest of @len bytes at @p, fed @chunk bytes at a time. */
static void digest(enum fp_sha256_impl impl, const void *p, size_t len,
		   size_t chunk, char hex[FP_SHA256_HEX])
{
	const uint8_t *b = p;
	struct fp_sha256 s;
	uint8_t d[FP_SHA256_LEN];
	size_t n;

	ck_assert_int_eq(fp_sha256_init(&s, impl), FP_OK);
	for (; len; len -= n, b += n) {
		n = len < chunk ? len : chunk;
		fp_sha256_update(&s, b, n);
	}
	fp_sha256_final(&s, d);
	fp_sha256_hex(d, hex);
}

/*
 * The examples of FIPS 180-4's companion document (NIST "SHA256.pdf",
 * one and two blocks), the empty message and NIST's million a's, fed
 * whole and a byte at a time.
 */
START_TEST(test_nist)
{
	static const struct {
		const char *msg;
		const char *hex;
	} v[] = {
		{ "", "e3b0c44298fc1c149afbf4c8996fb924"
		      "27ae41e4649b934ca495991b7852b855" },
		{ "abc", "ba7816bf8f01cfea414140de5dae2223"
			 "b00361a396177a9cb410ff61f20015ad" },
		{ "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		  "248d6a61d20638b8e5c026930c3e6039"
		  "a33ce45964ff2167f6ecedd419db06c1" },
		{ "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmn"
		  "hijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
		  "cf5b16a778af8380036ce59e7b049237"
		  "0b249b11e8f07a51afac45037afee9d1" },
	};
	enum fp_sha256_impl impl = impls[_i];
	char hex[FP_SHA256_HEX];
	char *million;
	size_t i;

	if (!fp_sha256_has(impl)) {
		struct fp_sha256 s;

		ck_assert_int_eq(fp_sha256_init(&s, impl), FP_E_INVAL);
		return;
	}
	for (i = 0; i < sizeof(v) / sizeof(*v); i++) {
		digest(impl, v[i].msg, strlen(v[i].msg), 1 << 20, hex);
		ck_assert_str_eq(hex, v[i].hex);
		digest(impl, v[i].msg, strlen(v[i].msg), 1, hex);
		ck_assert_str_eq(hex, v[i].hex);
	}
	million = malloc(1000000);
	ck_assert_ptr_nonnull(million);
	memset(million, 'a', 1000000);
	digest(impl, million, 1000000, 1000000, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
			      "f1809a48a497200e046d39ccc7112cd0");
	digest(impl, million, 1000000, 4093, hex);
	ck_assert_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67"
			      "f1809a48a497200e046d39ccc7112cd0");
	free(million);
}
END_TEST

/*
 * Against sha256sum (coreutils): pseudo-random bytes of every length
 * around the block and padding edges (55, 56, 63, 64, 119, 120 ...)
 * and some long ones, fed in odd chunks; both implementations agree.
 */
START_TEST(test_sha256sum)
{
	static const size_t lens[] = {
		0, 1, 54, 55, 56, 57, 63, 64, 65, 111, 119, 120, 127, 128,
		129, 1000, 4096, 65536 + 17, 1 << 20, 3 * (1 << 20) + 5,
	};
	char path[TEST_TMPL_LEN], cmd[TEST_TMPL_LEN + 32];
	char hex[FP_SHA256_HEX], want[FP_SHA256_HEX];
	uint8_t *buf;
	uint32_t x = 12345;
	size_t i, k, max = 3 * (1 << 20) + 5;
	FILE *f;
	int fd;

	buf = malloc(max);
	ck_assert_ptr_nonnull(buf);
	for (i = 0; i < max; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
	test_tmpl(path, sizeof(path), "check_sha256");
	fd = mkstemp(path);
	ck_assert_int_ge(fd, 0);
	for (i = 0; i < sizeof(lens) / sizeof(*lens); i++) {
		f = fopen(path, "wb");
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(fwrite(buf, 1, lens[i], f), lens[i]);
		ck_assert_int_eq(fclose(f), 0);
		snprintf(cmd, sizeof(cmd), "sha256sum '%s'", path);
		f = popen(cmd, "r");
		ck_assert_ptr_nonnull(f);
		ck_assert_int_eq(fscanf(f, "%64s", want), 1);
		ck_assert_int_eq(pclose(f), 0);
		for (k = 0; k < 2; k++) {
			if (!fp_sha256_has(impls[k]))
				continue;
			digest(impls[k], buf, lens[i], 1 << 20, hex);
			ck_assert_str_eq(hex, want);
			digest(impls[k], buf, lens[i], 61, hex);
			ck_assert_str_eq(hex, want);
		}
	}
	close(fd);
	unlink(path);
	free(buf);
}
END_TEST

/* The best is one that runs, and SHA-NI where /proc/cpuinfo has it. */
START_TEST(test_best)
{
	enum fp_sha256_impl b = fp_sha256_best();

	ck_assert(fp_sha256_has(b));
	ck_assert(fp_sha256_has(FP_SHA256_C));
	if (fp_sha256_has(FP_SHA256_SHANI))
		ck_assert_int_eq(b, FP_SHA256_SHANI);
#if defined(__x86_64__)
	/*
	 * the kernel's word for the CPU, asked on its own; not under
	 * valgrind (tools/valgrind.sh sets FP_VALGRIND), whose CPUID hides
	 * the SHA extensions it cannot run
	 */
	if (!getenv("FP_VALGRIND") &&
	    system("grep -qw sha_ni /proc/cpuinfo 2>/dev/null") == 0)
		ck_assert(fp_sha256_has(FP_SHA256_SHANI));
#endif
}
END_TEST

static Suite *sha256_suite(void)
{
	Suite *s = suite_create("sha256");
	TCase *tc = tcase_create("sha256");

	tcase_add_loop_test(tc, test_nist, 0, 2);
	tcase_add_test(tc, test_sha256sum);
	tcase_add_test(tc, test_best);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sha256_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
