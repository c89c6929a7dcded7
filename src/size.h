/* size.h - parse SIZE arguments with util-linux fallocate(1) semantics. */
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

#endif
