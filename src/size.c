/* size.c - parse SIZE arguments with util-linux fallocate(1) semantics. */
#include <stddef.h>
#include <stdint.h>

#include "size.h"

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Index + 1 of @c in "KMGTPE", ignoring case; 0 if it is not there. */
static unsigned suffix_exp(char c)
{
	static const char letters[] = "KMGTPE";
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
 * n-th letter of "KMGTPE".  1000^6 and 1024^6 both fit in 64 bits.
 */
static enum fp_err suffix_mult(const char *p, uint64_t *mult)
{
	unsigned exp, i;
	uint64_t base, m = 1;

	if (!*p) {
		*mult = 1;
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

enum fp_err fp_size_parse(const char *s, uint64_t *out)
{
	uint64_t val = 0, mult;
	unsigned d;

	if (!s || !is_digit(*s))
		return FP_E_INVAL;
	for (; is_digit(*s); s++) {
		d = (unsigned)(*s - '0');
		if (val > (UINT64_MAX - d) / 10)
			return FP_E_INVAL;
		val = val * 10 + d;
	}
	if (suffix_mult(s, &mult) != FP_OK)
		return FP_E_INVAL;
	if (val > UINT64_MAX / mult)
		return FP_E_INVAL;
	*out = val * mult;
	return FP_OK;
}
