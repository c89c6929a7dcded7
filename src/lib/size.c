/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* size.c - parse SIZE and OFFSET arguments (util-linux, mtools). */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>

#include "size.h"

/* What a number may look like besides decimal digits and a suffix. */
enum size_form {
	SIZE_HEX = 1,		/* 0x or 0X: hexadecimal */
	SIZE_OCTAL = 2,		/* a leading 0 means octal (strtol base 0) */
	SIZE_SECTORS = 4,	/* S = 512 bytes (mtools) */
	SIZE_FRAC = 8,		/* decimal fraction before a suffix */
};

/* The value of digit @c in @base, or -1. */
static int digit_val(char c, unsigned base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return (unsigned)v < base ? v : -1;
}

/*
 * Index + 1 of @c in "KMGT", ignoring case; 0 if it is not there.  No P
 * or E: a FAT file holds less than 4 GiB, so they could only make a size
 * too big, and "1e" is more likely a mistyped number than an exbibyte.
 */
static unsigned suffix_exp(char c)
{
	static const char letters[] = "KMGT";
	unsigned i;

	if (c >= 'a' && c <= 'z')
		c = (char)(c - 'a' + 'A');
	for (i = 0; letters[i]; i++)
		if (letters[i] == c)
			return i + 1;
	return 0;
}

/*
 * The multiplier of suffix @p: 1 for none, else 1024^n or 1000^n for the
 * n-th letter of "KMGT", or 512 for S when @form allows it.
 */
static enum fp_err suffix_mult(const char *p, unsigned form, uint64_t *mult)
{
	unsigned exp, i;
	uint64_t base, m = 1;

	if (!*p) {
		*mult = 1;
		return FP_OK;
	}
	if ((form & SIZE_SECTORS) && (*p == 'S' || *p == 's') && !p[1]) {
		*mult = 512;
		return FP_OK;
	}
	exp = suffix_exp(*p++);
	if (!exp)
		return FP_E_INVAL;
	if (!*p || (p[0] == 'i' && (p[1] == 'B' || p[1] == 'b') && !p[2]))
		base = 1024;
	else if ((p[0] == 'B' || p[0] == 'b') && !p[1])
		base = 1000;
	else
		return FP_E_INVAL;
	for (i = 0; i < exp; i++)
		m *= base;
	*mult = m;
	return FP_OK;
}

/* Read the digits of @base at *@sp into @val; at least one. */
static enum fp_err parse_digits(const char **sp, unsigned base, uint64_t *val)
{
	const char *s = *sp;
	uint64_t v = 0;
	int d;

	if (digit_val(*s, base) < 0)
		return FP_E_INVAL;
	for (; (d = digit_val(*s, base)) >= 0; s++) {
		if (v > (UINT64_MAX - (unsigned)d) / base)
			return FP_E_INVAL;
		v = v * base + (unsigned)d;
	}
	*sp = s;
	*val = v;
	return FP_OK;
}

/*
 * floor(@mult * 0.DIGITS) for the decimal digits from @p to @end, exactly:
 * Horner's rule from the last digit, q = floor((d * mult + q) / 10).  The
 * floor of each step loses nothing, since floor((n + y) / 10) equals
 * floor((n + floor(y)) / 10) for an integer n; and q < mult keeps
 * d * mult + q below 10 * mult, which fits for every mult up to 1024^4.
 */
static uint64_t frac_part(const char *p, const char *end, uint64_t mult)
{
	uint64_t q = 0;

	assert(mult <= UINT64_MAX / 10);
	while (end > p) {
		end--;
		q = ((uint64_t)(*end - '0') * mult + q) / 10;
		assert(q < mult);
	}
	return q;
}

static enum fp_err parse_number(const char *s, unsigned form, uint64_t *out)
{
	const char *frac = NULL, *frac_end = NULL;
	uint64_t val, mult, part = 0;
	unsigned base = 10;

	if (!s)
		return FP_E_INVAL;
	if ((form & SIZE_HEX) && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
	} else if ((form & SIZE_OCTAL) && s[0] == '0') {
		base = 8;
	}
	if (parse_digits(&s, base, &val))
		return FP_E_INVAL;
	if ((form & SIZE_FRAC) && base == 10 && *s == '.') {
		frac = ++s;
		while (*s >= '0' && *s <= '9')
			s++;
		frac_end = s;
		/* "1.K" and "1.5" (no suffix) are refused, as ".5K" */
		if (frac == frac_end || !*s)
			return FP_E_INVAL;
	}
	if (suffix_mult(s, form, &mult) != FP_OK || val > UINT64_MAX / mult)
		return FP_E_INVAL;
	if (frac)
		part = frac_part(frac, frac_end, mult);
	if (val * mult > UINT64_MAX - part)
		return FP_E_INVAL;
	*out = val * mult + part;
	return FP_OK;
}

enum fp_err fp_size_parse(const char *s, uint64_t *out)
{
	return parse_number(s, SIZE_HEX | SIZE_FRAC, out);
}

enum fp_err fp_size_parse_offset(const char *s, uint64_t *out)
{
	return parse_number(s, SIZE_HEX | SIZE_OCTAL | SIZE_SECTORS, out);
}
