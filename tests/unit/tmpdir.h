/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* tmpdir.h - temporary files for unit tests, under $TMPDIR. */
#ifndef FP_TEST_TMPDIR_H
#define FP_TEST_TMPDIR_H

#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Room for a template from test_tmpl(); paths under it need a bit more. */
#define TEST_TMPL_LEN 256

/* The directory for temporary files: $TMPDIR, or /tmp if unset or empty. */
static inline const char *test_tmpdir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

/*
 * Write "$TMPDIR/NAME.XXXXXX" (a template for mkstemp or mkdtemp) into
 * @buf of @len bytes and return @buf; the test fails if it does not fit.
 */
static inline char *test_tmpl(char *buf, size_t len, const char *name)
{
	int n = snprintf(buf, len, "%s/%s.XXXXXX", test_tmpdir(), name);

	ck_assert_msg(n > 0 && (size_t)n < len, "TMPDIR is too long");
	return buf;
}

/*
 * Write the file @path: @len bytes of @byte(pos), but a hole (zeros, not
 * written) in [@hole, @hole_end) when @hole_end > @hole, to the end of
 * the file if need be.  The test fails on any error.
 */
static inline void test_write_file(const char *path, uint64_t len,
				   uint64_t hole, uint64_t hole_end,
				   uint8_t (*byte)(uint64_t pos))
{
	FILE *f = fopen(path, "wb");
	uint64_t pos;

	ck_assert_ptr_nonnull(f);
	for (pos = 0; pos < len; pos++) {
		if (pos == hole && hole_end > hole) {
			ck_assert_int_eq(fseek(f, (long)hole_end, SEEK_SET), 0);
			pos = hole_end;
			if (pos >= len)
				break;
		}
		fputc(byte(pos), f);
	}
	if (hole_end >= len && hole < len)
		ck_assert_int_eq(ftruncate(fileno(f), (off_t)len), 0);
	ck_assert_int_eq(fclose(f), 0);
}

#endif
