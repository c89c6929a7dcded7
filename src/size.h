/* size.h - parse SIZE and OFFSET arguments (util-linux, mtools). */
#ifndef FP_SIZE_H
#define FP_SIZE_H

#include <stdint.h>

#include "fp_err.h"

/*
 * Parse @s as a byte count: decimal digits, optionally followed by one of
 * K M G T P E (powers of 1024), KiB MiB ... (powers of 1024) or KB MB ...
 * (powers of 1000); suffix letters are case-insensitive except the "i"
 * ("1KiB", "1kib" and "1Kib" are 1024, "1KIB" is an error).  Decimal only:
 * no "0x", no fractions ("1.5K"), no bare "B".  Empty strings, signs, other
 * suffixes, spaces and values above UINT64_MAX fail with FP_E_INVAL.
 * *out is set only on success.
 */
enum fp_err fp_size_parse(const char *s, uint64_t *out);

/*
 * Parse @s as a byte offset, as mtools reads IMAGE@@OFFSET: a number in
 * the base that strtol(3) picks ("0x100000" hex, "04000000" octal, else
 * decimal), optionally followed by S (512-byte sectors), K, M or G (powers
 * of 1024), any case.  The suffixes of fp_size_parse() (T P E, KiB..., KB...)
 * are taken too; no fractions, signs or spaces.  Failures as
 * fp_size_parse(); *out is set only on success.
 */
enum fp_err fp_size_parse_offset(const char *s, uint64_t *out);

#endif
