/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* size.h - parse SIZE and OFFSET arguments (util-linux, mtools). */
#ifndef FP_SIZE_H
#define FP_SIZE_H

#include <stdint.h>

#include "fp_err.h"

/*
 * Parse @s as a byte count, as util-linux fallocate -l: decimal digits or
 * "0x" and hex digits, optionally followed by one of K M G T (powers of
 * 1024), KiB MiB GiB TiB (powers of 1024) or KB MB GB TB (powers of 1000);
 * suffix letters are case-insensitive except the "i" ("1KiB", "1kib" and
 * "1Kib" are 1024, "1KIB" is an error).  A decimal number may have a
 * fraction when a suffix follows ("1.5K" is 1536); a fraction that does
 * not give whole bytes is rounded down ("0.1K" is 102).  Leading zeros are
 * decimal, not octal.  No bare "B", no fraction without a suffix ("1.5")
 * or without digits ("1.K", ".5K"), no hex fraction.  Empty strings,
 * signs, other suffixes (P and E too: "1e" is no exbibyte), spaces and
 * values above UINT64_MAX fail with FP_E_INVAL.  *out is set only on
 * success.
 */
enum fp_err fp_size_parse(const char *s, uint64_t *out);

/*
 * Parse @s as a byte offset, as mtools reads IMAGE@@OFFSET: a number in
 * the base that strtol(3) picks ("0x100000" hex, "04000000" octal, else
 * decimal), optionally followed by S (512-byte sectors), K, M or G (powers
 * of 1024), any case.  The suffixes of fp_size_parse() (T, KiB..., KB...)
 * are taken too; no fractions, signs or spaces.  Failures as
 * fp_size_parse(); *out is set only on success.
 */
enum fp_err fp_size_parse_offset(const char *s, uint64_t *out);

#endif
