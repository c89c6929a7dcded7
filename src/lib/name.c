/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* name.c - FAT names: 8.3 rules, ~N aliases, LFN slots, UTF-8 <-> UCS-2. */
#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "le.h"
#include "name.h"

#define SFN_BASE_LEN 8
#define SFN_EXT_LEN 3
#define SFN_LEN 11

#define LFN_ATTR 11		/* always LFN_ATTR_VALUE */
#define LFN_TYPE 12		/* always 0 */
#define LFN_CLUSTER 26		/* always 0 */
#define LFN_ATTR_VALUE 0x0F

#define UNI_REPLACEMENT 0xFFFD

/* Byte offsets of the 13 UTF-16 units in an LFN slot. */
static const uint8_t lfn_ofs[FP_LFN_CHARS] = {
	1, 3, 5, 7, 9, 14, 16, 18, 20, 22, 24, 28, 30
};

static int is_surrogate(uint32_t c)
{
	return c >= 0xD800 && c <= 0xDFFF;
}

/* UTF-8 lead bytes: the bits that mark the length, and the smallest code
 * point each length may encode (anything below is an overlong form). */
struct utf8_lead {
	uint8_t mask;
	uint8_t value;
	uint8_t trail;
	uint32_t min;
};

static const struct utf8_lead utf8_leads[] = {
	{ 0x80, 0x00, 0, 0x0 },
	{ 0xE0, 0xC0, 1, 0x80 },
	{ 0xF0, 0xE0, 2, 0x800 },
	{ 0xF8, 0xF0, 3, 0x10000 },
};

/*
 * Decode the UTF-8 sequence at @s (@len > 0 bytes left) into *cp and its
 * byte length *n.  Stray or missing continuation bytes, overlong forms,
 * surrogates and code points above U+10FFFF give FP_E_NAME.
 */
static enum fp_err utf8_next(const uint8_t *s, size_t len, uint32_t *cp,
			     size_t *n)
{
	const struct utf8_lead *l = NULL;
	uint32_t c;
	size_t i;

	for (i = 0; i < sizeof(utf8_leads) / sizeof(utf8_leads[0]); i++)
		if ((s[0] & utf8_leads[i].mask) == utf8_leads[i].value)
			l = &utf8_leads[i];
	if (!l || l->trail >= len)
		return FP_E_NAME;
	c = s[0] & (uint8_t)~l->mask;
	for (i = 1; i <= l->trail; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return FP_E_NAME;
		c = (c << 6) | (s[i] & 0x3F);
	}
	if (c < l->min || c > 0x10FFFF || is_surrogate(c))
		return FP_E_NAME;
	*cp = c;
	*n = (size_t)l->trail + 1;
	return FP_OK;
}

size_t fp_name_utf8_len(const char *s, size_t len)
{
	uint32_t cp;
	size_t n;

	return utf8_next((const uint8_t *)s, len, &cp, &n) ? 0 : n;
}

enum fp_err fp_name_from_utf8(const char *s, size_t len, uint16_t *out,
			      size_t *count)
{
	uint16_t tmp[FP_LFN_MAX];
	size_t i = 0, n = 0, step;
	uint32_t cp;
	enum fp_err err;

	while (i < len) {
		err = utf8_next((const uint8_t *)s + i, len - i, &cp, &step);
		if (err != FP_OK)
			return err;
		if (cp == 0)
			return FP_E_NAME;
		if (cp > 0xFFFF)
			return FP_E_NONBMP;
		if (n == FP_LFN_MAX)
			return FP_E_NAMELEN;
		tmp[n++] = (uint16_t)cp;
		i += step;
	}
	memcpy(out, tmp, n * sizeof(tmp[0]));
	*count = n;
	return FP_OK;
}

/* Encode code point @c (no surrogate) as UTF-8 into @buf; the length. */
static size_t utf8_put(uint32_t c, uint8_t buf[4])
{
	if (c < 0x80) {
		buf[0] = (uint8_t)c;
		return 1;
	}
	if (c < 0x800) {
		buf[0] = (uint8_t)(0xC0 | (c >> 6));
		buf[1] = (uint8_t)(0x80 | (c & 0x3F));
		return 2;
	}
	if (c < 0x10000) {
		buf[0] = (uint8_t)(0xE0 | (c >> 12));
		buf[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
		buf[2] = (uint8_t)(0x80 | (c & 0x3F));
		return 3;
	}
	buf[0] = (uint8_t)(0xF0 | (c >> 18));
	buf[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
	buf[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
	buf[3] = (uint8_t)(0x80 | (c & 0x3F));
	return 4;
}

/* The code point at u[*i], joining a surrogate pair (and advancing *i
 * past its second half); unpaired surrogates and U+0000 give U+FFFD. */
static uint32_t ucs2_next(const uint16_t *u, size_t count, size_t *i)
{
	uint32_t c = u[*i];

	if (c >= 0xD800 && c <= 0xDBFF && *i + 1 < count &&
	    u[*i + 1] >= 0xDC00 && u[*i + 1] <= 0xDFFF) {
		c = 0x10000 + ((c - 0xD800) << 10) + (u[*i + 1] - 0xDC00u);
		(*i)++;
	} else if (c == 0 || is_surrogate(c)) {
		c = UNI_REPLACEMENT;
	}
	return c;
}

size_t fp_name_to_utf8(const uint16_t *u, size_t count, char *out,
		       size_t out_len)
{
	uint8_t buf[4];
	size_t i, n, pos = 0;

	if (!out_len)
		return 0;
	for (i = 0; i < count; i++) {
		if (u[i] && u[i] < 0x80 && pos + 1 < out_len) {
			out[pos++] = (char)u[i];	/* ASCII, the usual */
			continue;
		}
		n = utf8_put(ucs2_next(u, count, &i), buf);
		if (pos + n >= out_len)
			break;
		memcpy(out + pos, buf, n);
		pos += n;
	}
	out[pos] = '\0';
	return pos;
}

/* 1 if @u[0 .. @n) equals the ASCII @s, ignoring ASCII case. */
static int ascii_equal(const uint16_t *u, size_t n, const char *s)
{
	size_t i;

	for (i = 0; i < n; i++) {
		uint16_t c = u[i] >= 'a' && u[i] <= 'z' ? u[i] - 0x20 : u[i];

		if (!s[i] || c != (unsigned char)s[i])
			return 0;
	}
	return !s[n];
}

/*
 * Win32 path parsing maps these names to devices in every directory,
 * whatever follows the first dot and with spaces before it ("nul .txt"):
 * the base name decides.  COM0 and LPT0 are not devices (Windows 10 and
 * 11 create such files); COM¹-COM³ and LPT¹-LPT³ are.
 */
static int reserved(const uint16_t *u, size_t count)
{
	static const char *const names[] = {
		"CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$",
	};
	size_t n = 0, i;
	uint16_t d;

	while (n < count && u[n] != '.')
		n++;
	while (n > 0 && u[n - 1] == ' ')
		n--;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (ascii_equal(u, n, names[i]))
			return 1;
	if (n != 4 || !(ascii_equal(u, 3, "COM") || ascii_equal(u, 3, "LPT")))
		return 0;
	d = u[3];
	return (d >= '1' && d <= '9') || d == 0xB9 || d == 0xB2 || d == 0xB3;
}

/* "." and ".." need no case of their own: they end in a dot. */
enum fp_err fp_name_check(const uint16_t *u, size_t count)
{
	static const char bad[] = "\"*/:<>?\\|";
	size_t i;

	if (!count)
		return FP_E_NAME;
	if (count > FP_LFN_MAX)
		return FP_E_NAMELEN;
	for (i = 0; i < count; i++) {
		if (u[i] < 0x20)
			return FP_E_NAME;
		if (u[i] < 0x80 && strchr(bad, u[i]))
			return FP_E_NAME;
	}
	if (u[count - 1] == '.' || u[count - 1] == ' ')
		return FP_E_NAME;
	return reserved(u, count) ? FP_E_RESERVED : FP_OK;
}

/*
 * Simple upper-case mappings as ranges.  UPCASE_ODD / UPCASE_EVEN ranges
 * hold alternating pairs where only the odd / even units are lower case.
 * Mappings into ASCII (U+0131 dotless i, U+017F long s) and the micro sign
 * are left out on purpose, so that no non-ASCII name folds onto an ASCII
 * one.
 */
enum upcase_parity { UPCASE_ALL, UPCASE_ODD, UPCASE_EVEN };

struct upcase_range {
	uint16_t first;
	uint16_t last;
	int16_t delta;
	uint8_t parity;
};

static const struct upcase_range upcase_ranges[] = {
	{ 0x0061, 0x007A, -0x20, UPCASE_ALL },	/* a-z */
	{ 0x00E0, 0x00F6, -0x20, UPCASE_ALL },	/* Latin-1 */
	{ 0x00F8, 0x00FE, -0x20, UPCASE_ALL },
	{ 0x00FF, 0x00FF, 0x79, UPCASE_ALL },	/* y diaeresis */
	{ 0x0100, 0x012F, -1, UPCASE_ODD },	/* Latin Extended-A */
	{ 0x0132, 0x0137, -1, UPCASE_ODD },
	{ 0x0139, 0x0148, -1, UPCASE_EVEN },
	{ 0x014A, 0x0177, -1, UPCASE_ODD },
	{ 0x0179, 0x017E, -1, UPCASE_EVEN },
	{ 0x0370, 0x0373, -1, UPCASE_ODD },	/* archaic Greek */
	{ 0x0377, 0x0377, -1, UPCASE_ALL },
	{ 0x03AC, 0x03AC, -0x26, UPCASE_ALL },	/* Greek tonos */
	{ 0x03AD, 0x03AF, -0x25, UPCASE_ALL },
	{ 0x03B1, 0x03C1, -0x20, UPCASE_ALL },	/* Greek */
	{ 0x03C2, 0x03C2, -0x1F, UPCASE_ALL },	/* final sigma */
	{ 0x03C3, 0x03CB, -0x20, UPCASE_ALL },
	{ 0x03CC, 0x03CC, -0x40, UPCASE_ALL },
	{ 0x03CD, 0x03CE, -0x3F, UPCASE_ALL },
	{ 0x03D8, 0x03EF, -1, UPCASE_ODD },	/* archaic Greek, Coptic */
	{ 0x0430, 0x044F, -0x20, UPCASE_ALL },	/* Cyrillic */
	{ 0x0450, 0x045F, -0x50, UPCASE_ALL },
	{ 0x0460, 0x0481, -1, UPCASE_ODD },
	{ 0x048A, 0x04BF, -1, UPCASE_ODD },
	{ 0x04C1, 0x04CE, -1, UPCASE_EVEN },
	{ 0x04CF, 0x04CF, -0x0F, UPCASE_ALL },
	{ 0x04D0, 0x04FF, -1, UPCASE_ODD },
};

uint16_t fp_name_upcase(uint16_t c)
{
	const struct upcase_range *r;
	size_t i;

	/* the first range, a-z, in two tests: most names are ASCII */
	if (c < 0x61)
		return c;
	if (c <= 0x7A)
		return (uint16_t)(c - 0x20);
	for (i = 1; i < sizeof(upcase_ranges) / sizeof(upcase_ranges[0]);
	     i++) {
		r = &upcase_ranges[i];
		if (c < r->first || c > r->last)
			continue;
		if ((r->parity == UPCASE_ODD && !(c & 1)) ||
		    (r->parity == UPCASE_EVEN && (c & 1)))
			return c;
		return (uint16_t)(c + r->delta);
	}
	return c;
}

uint64_t fp_name_hash(const uint16_t *u, size_t count)
{
	uint64_t h = 0xcbf29ce484222325ull;

	while (count--) {
		h ^= fp_name_upcase(*u++);
		h *= 0x100000001b3ull;
	}
	return h;
}

int fp_name_equal(const uint16_t *a, size_t an, const uint16_t *b,
		  size_t bn)
{
	size_t i;

	if (an != bn)
		return 0;
	for (i = 0; i < an; i++)
		if (fp_name_upcase(a[i]) != fp_name_upcase(b[i]))
			return 0;
	return 1;
}

/* 1 if @c may appear in a short name (lower case letters included). */
static int sfn_char_ok(uint16_t c)
{
	static const char extra[] = "!#$%&'()-@^_`{}~";

	if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9'))
		return 1;
	return c && c < 0x80 && strchr(extra, c);
}

static uint8_t ascii_upper(uint16_t c)
{
	return (uint8_t)(c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c);
}

/*
 * Copy one part (@len units) of a name that should fit 8.3 into @dst in
 * upper case, adding @lower_bit to *bits if it is all lower case.  0 if a
 * character is not valid or the part mixes cases.
 */
static int sfn_part(const uint16_t *u, size_t len, uint8_t *dst,
		    uint8_t lower_bit, uint8_t *bits)
{
	int upper = 0, lower = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (!sfn_char_ok(u[i]))
			return 0;
		upper |= u[i] >= 'A' && u[i] <= 'Z';
		lower |= u[i] >= 'a' && u[i] <= 'z';
		dst[i] = ascii_upper(u[i]);
	}
	if (upper && lower)
		return 0;
	if (lower)
		*bits |= lower_bit;
	return 1;
}

int fp_name_to_sfn(const uint16_t *u, size_t count, uint8_t sfn[11],
		   uint8_t *ntres)
{
	uint8_t tmp[SFN_LEN], bits = 0;
	size_t dot, ext_count = 0;

	if (!count || count > SFN_BASE_LEN + 1 + SFN_EXT_LEN)
		return 0;
	for (dot = 0; dot < count && u[dot] != '.'; dot++)
		;
	if (dot < count) {
		ext_count = count - dot - 1;
		if (!ext_count)
			return 0;
	}
	if (!dot || dot > SFN_BASE_LEN || ext_count > SFN_EXT_LEN)
		return 0;
	memset(tmp, ' ', sizeof(tmp));
	if (!sfn_part(u, dot, tmp, FP_NT_LOWER_BASE, &bits) ||
	    !sfn_part(u + dot + 1, ext_count, tmp + SFN_BASE_LEN,
		      FP_NT_LOWER_EXT, &bits))
		return 0;
	memcpy(sfn, tmp, sizeof(tmp));
	*ntres = bits;
	return 1;
}

/*
 * Append @c to the alias part @dst (*len used of @cap) as a short name
 * character: upper case, '_' for anything invalid.  Sets *lost when the
 * character is replaced or does not fit.
 */
static void alias_put(uint8_t *dst, size_t cap, size_t *len, uint16_t c,
		      int *lost)
{
	uint8_t b = ascii_upper(c);

	if (!sfn_char_ok(c)) {
		b = '_';
		*lost = 1;
	}
	if (*len == cap) {
		*lost = 1;
		return;
	}
	dst[(*len)++] = b;
}

/*
 * Spaces are dropped everywhere, so a run of leading dots and spaces is
 * skipped first; the extension starts after the last dot left, and any
 * earlier dot is dropped.  Only a name of nothing but dots and spaces
 * leaves the base empty; it becomes "_" (such a name fails
 * fp_name_check() anyway).
 */
void fp_name_alias_basis(const uint16_t *u, size_t count, uint8_t basis[11],
			 int *lossy)
{
	uint8_t tmp[SFN_LEN];
	size_t start = 0, last = count, i, blen = 0, elen = 0;
	int lost;

	memset(tmp, ' ', sizeof(tmp));
	while (start < count && (u[start] == '.' || u[start] == ' '))
		start++;
	lost = start > 0;
	for (i = start; i < count; i++)
		if (u[i] == '.')
			last = i;
	for (i = start; i < count; i++) {
		if (u[i] == ' ' || (u[i] == '.' && i != last))
			lost = 1;
		else if (i < last)
			alias_put(tmp, SFN_BASE_LEN, &blen, u[i], &lost);
		else if (i > last)
			alias_put(tmp + SFN_BASE_LEN, SFN_EXT_LEN, &elen,
				  u[i], &lost);
	}
	if (!blen) {
		tmp[0] = '_';
		lost = 1;
	}
	memcpy(basis, tmp, sizeof(tmp));
	*lossy = lost;
}

void fp_name_alias_tail(const uint8_t basis[11], uint32_t n, uint8_t out[11])
{
	uint8_t tmp[SFN_LEN];
	char tail[16];
	size_t tlen, blen = SFN_BASE_LEN, keep;

	assert(n >= 1 && n <= 999999);
	snprintf(tail, sizeof(tail), "~%" PRIu32, n);
	tlen = strlen(tail);
	if (tlen > SFN_BASE_LEN)
		tlen = SFN_BASE_LEN;
	while (blen > 0 && basis[blen - 1] == ' ')
		blen--;
	keep = SFN_BASE_LEN - tlen;
	if (keep > blen)
		keep = blen;
	memset(tmp, ' ', SFN_BASE_LEN);
	memcpy(tmp, basis, keep);
	memcpy(tmp + keep, tail, tlen);
	memcpy(tmp + SFN_BASE_LEN, basis + SFN_BASE_LEN, SFN_EXT_LEN);
	memcpy(out, tmp, sizeof(tmp));
}

void fp_name_alias_hashed(const uint8_t basis[11], const uint16_t *u,
			  size_t count, uint32_t round, uint8_t out[11])
{
	static const char hex[] = "0123456789ABCDEF";
	uint32_t h = 0x811c9dc5u ^ round;
	size_t keep = 0, i;
	unsigned v;

	for (i = 0; i < count; i++) {
		h ^= u[i];
		h *= 0x01000193u;
	}
	v = (h >> 16) ^ (h & 0xFFFFu);
	while (keep < 2 && basis[keep] != ' ')
		keep++;
	memset(out, ' ', SFN_BASE_LEN);
	memcpy(out, basis, keep);
	for (i = 0; i < 4; i++)
		out[keep + i] = (uint8_t)hex[(v >> (12 - 4 * i)) & 0xF];
	memcpy(out + SFN_BASE_LEN, basis + SFN_BASE_LEN, SFN_EXT_LEN);
}

uint8_t fp_name_lfn_sum(const uint8_t sfn[11])
{
	uint8_t sum = 0;
	size_t i;

	for (i = 0; i < SFN_LEN; i++)
		sum = (uint8_t)(((sum & 1) << 7) + (sum >> 1) + sfn[i]);
	return sum;
}

void fp_name_lfn_encode(uint8_t ent[32], const uint16_t *u, size_t count,
			unsigned ord, uint8_t sum)
{
	unsigned slots = fp_name_lfn_slots(count), k;
	size_t idx;
	uint16_t c;

	assert(ord >= 1 && ord <= slots);
	ent[FP_LFN_ORD] = (uint8_t)(ord | (ord == slots ? FP_LFN_LAST : 0));
	ent[LFN_ATTR] = LFN_ATTR_VALUE;
	ent[LFN_TYPE] = 0;
	ent[FP_LFN_SUM] = sum;
	fp_put_le16(ent + LFN_CLUSTER, 0);
	for (k = 0; k < FP_LFN_CHARS; k++) {
		idx = (size_t)(ord - 1) * FP_LFN_CHARS + k;
		if (idx < count)
			c = u[idx];
		else
			c = idx == count ? 0x0000 : 0xFFFF;
		fp_put_le16(ent + lfn_ofs[k], c);
	}
}

void fp_name_lfn_decode(const uint8_t ent[32], uint16_t units[13])
{
	unsigned k;

	for (k = 0; k < FP_LFN_CHARS; k++)
		units[k] = fp_le16(ent + lfn_ofs[k]);
}

/* Length of a space-padded short name part of at most @max bytes. */
static size_t sfn_part_len(const uint8_t *p, size_t max)
{
	while (max > 0 && p[max - 1] == ' ')
		max--;
	return max;
}

/*
 * Short name bytes from 0x80 on, as code page 437 has them: the OEM code
 * page of US DOS and Windows, and Linux's default (codepage=437), so that
 * a name reads here as the kernel lists it.
 */
static const uint16_t cp437_high[0x80] = {
	/* 0x80 */ 0x00C7, 0x00FC, 0x00E9, 0x00E2, 0x00E4, 0x00E0, 0x00E5,
	0x00E7, 0x00EA, 0x00EB, 0x00E8, 0x00EF, 0x00EE, 0x00EC, 0x00C4, 0x00C5,
	/* 0x90 */ 0x00C9, 0x00E6, 0x00C6, 0x00F4, 0x00F6, 0x00F2, 0x00FB,
	0x00F9, 0x00FF, 0x00D6, 0x00DC, 0x00A2, 0x00A3, 0x00A5, 0x20A7, 0x0192,
	/* 0xA0 */ 0x00E1, 0x00ED, 0x00F3, 0x00FA, 0x00F1, 0x00D1, 0x00AA,
	0x00BA, 0x00BF, 0x2310, 0x00AC, 0x00BD, 0x00BC, 0x00A1, 0x00AB, 0x00BB,
	/* 0xB0 */ 0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561, 0x2562,
	0x2556, 0x2555, 0x2563, 0x2551, 0x2557, 0x255D, 0x255C, 0x255B, 0x2510,
	/* 0xC0 */ 0x2514, 0x2534, 0x252C, 0x251C, 0x2500, 0x253C, 0x255E,
	0x255F, 0x255A, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256C, 0x2567,
	/* 0xD0 */ 0x2568, 0x2564, 0x2565, 0x2559, 0x2558, 0x2552, 0x2553,
	0x256B, 0x256A, 0x2518, 0x250C, 0x2588, 0x2584, 0x258C, 0x2590, 0x2580,
	/* 0xE0 */ 0x03B1, 0x00DF, 0x0393, 0x03C0, 0x03A3, 0x03C3, 0x00B5,
	0x03C4, 0x03A6, 0x0398, 0x03A9, 0x03B4, 0x221E, 0x03C6, 0x03B5, 0x2229,
	/* 0xF0 */ 0x2261, 0x00B1, 0x2265, 0x2264, 0x2320, 0x2321, 0x00F7,
	0x2248, 0x00B0, 0x2219, 0x00B7, 0x221A, 0x207F, 0x00B2, 0x25A0, 0x00A0,
};

/* Short name byte @b as a unit (code page 437). */
static uint16_t sfn_byte_unit(uint8_t b)
{
	return b < 0x80 ? b : cp437_high[b - 0x80];
}

/* Copy @len bytes of a short name part as units to @out, lower-casing
 * A-Z if @lower.  Returns @len. */
static size_t sfn_part_decode(const uint8_t *p, size_t len, int lower,
			      uint16_t *out)
{
	size_t i;

	for (i = 0; i < len; i++) {
		out[i] = sfn_byte_unit(p[i]);
		if (lower && p[i] >= 'A' && p[i] <= 'Z')
			out[i] = (uint16_t)(p[i] - 'A' + 'a');
	}
	return len;
}

size_t fp_name_sfn_decode(const uint8_t sfn[11], uint8_t ntres,
			  uint16_t out[12])
{
	size_t blen = sfn_part_len(sfn, SFN_BASE_LEN);
	size_t elen = sfn_part_len(sfn + SFN_BASE_LEN, SFN_EXT_LEN);
	size_t n;

	n = sfn_part_decode(sfn, blen, ntres & FP_NT_LOWER_BASE, out);
	if (n > 0 && sfn[0] == 0x05)
		out[0] = sfn_byte_unit(0xE5);
	if (elen) {
		out[n++] = '.';
		n += sfn_part_decode(sfn + SFN_BASE_LEN, elen,
				     ntres & FP_NT_LOWER_EXT, out + n);
	}
	return n;
}

/* The 3 bytes of a short name's extension, byte k in bits 8k .. 8k + 7. */
static uint64_t sfn_ext_word(const uint8_t sfn[11])
{
	const uint8_t *e = sfn + SFN_BASE_LEN;

	return (uint64_t)e[0] | (uint64_t)e[1] << 8 | (uint64_t)e[2] << 16;
}

/*
 * The key of a name that fits 8.3 once upper-cased (ASCII, at most one
 * dot, base and extension of at most 8 and 3 units), from its base and
 * extension space padded (as fp_le64() and sfn_ext_word() read them).
 */
static uint64_t key_of_sfn(uint64_t base, uint64_t ext)
{
	uint64_t h = base * 0x9E3779B97F4A7C15ull;

	h ^= ext * 0xC2B2AE3D27D4EB4Full;
	h ^= h >> 32;
	h *= 0xD6E8FEB86659FD93ull;
	return h ^ (h >> 32);
}

uint64_t fp_name_key(const uint16_t *u, size_t count)
{
	uint8_t b[SFN_LEN];
	size_t i, k = 0, end = SFN_BASE_LEN;
	uint16_t c;

	memset(b, ' ', sizeof(b));
	for (i = 0; i < count; i++) {
		c = fp_name_upcase(u[i]);
		if (c == '.' && end == SFN_BASE_LEN) {
			k = end;
			end = SFN_LEN;
		} else if (c < 0x80 && c != '.' && k < end) {
			b[k++] = (uint8_t)c;
		} else {
			return fp_name_hash(u, count);
		}
	}
	return key_of_sfn(fp_le64(b), sfn_ext_word(b));
}

/* Bytes 0x80 and up, or a dot, among the 8 bytes of @x. */
static int sfn_word_odd(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, highs = ones << 7;
	uint64_t dots = x ^ (ones * '.');

	return (x & highs) || ((dots - ones) & ~dots & highs);
}

/* The 8 ASCII bytes of @x with a-z upper-cased, at once. */
static uint64_t sfn_word_upcase(uint64_t x)
{
	const uint64_t ones = 0x0101010101010101ull, highs = ones << 7;
	uint64_t from_a = x + ones * (0x80 - 'a');	/* high bit: >= 'a' */
	uint64_t past_z = x + ones * (0x80 - 'z' - 1);	/* high bit: > 'z' */

	return x - ((from_a & ~past_z & highs) >> 2);
}

/*
 * A short name without a dot, a leading 0x05 (for 0xE5) or a byte from
 * 0x80 on is its decoded name, space padded: keyed from its words (the
 * extension's zero top bytes pass the tests and the upper-casing).
 */
uint64_t fp_name_sfn_key(const uint8_t sfn[11])
{
	uint64_t base = fp_le64(sfn), ext = sfn_ext_word(sfn);
	uint16_t u[12];

	if (sfn[0] == 0x05 || sfn_word_odd(base) || sfn_word_odd(ext))
		return fp_name_key(u, fp_name_sfn_decode(sfn, 0, u));
	return key_of_sfn(sfn_word_upcase(base), sfn_word_upcase(ext));
}

/*
 * 1 for a byte a stored short name may not hold: controls, DEL, a-z and
 *  " * + , . / : ; < = > ? [ \ ] |  (bytes from 0x80 on are allowed).
 * A table, not tests: the checker asks for every byte of every entry.
 */
static const uint8_t sfn_bad_byte[0x100] = {
	/* 0x00 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x10 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x20 */ 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 1, 1,
	/* 0x30 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1,
	/* 0x40 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	/* 0x50 */ 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0,
	/* 0x60 */ 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	/* 0x70 */ 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 1,
};

int fp_name_sfn_bad(const uint8_t sfn[11])
{
	const uint8_t *t = sfn_bad_byte;

	if (sfn[0] == ' ' || (sfn[0] != 0x05 && t[sfn[0]]))
		return 1;
	/* no loop: GCC -O2 would not unroll it */
	return t[sfn[1]] | t[sfn[2]] | t[sfn[3]] | t[sfn[4]] | t[sfn[5]] |
	       t[sfn[6]] | t[sfn[7]] | t[sfn[8]] | t[sfn[9]] | t[sfn[10]];
}

int fp_name_label_bad(const uint8_t lab[11])
{
	size_t i;
	int bad = lab[0] == ' ';

	for (i = 0; i < 11; i++)	/* lower case is no fault here */
		if (lab[i] < 0x80 && sfn_bad_byte[lab[i]] &&
		    !(lab[i] >= 'a' && lab[i] <= 'z') && lab[i] != 0x7F)
			bad = 1;
	return bad;
}

/* The code page 437 byte of unit @c, or 0 when it has none. */
static uint8_t unit_cp437(uint16_t c)
{
	size_t i;

	if (c < 0x80)
		return (uint8_t)c;
	for (i = 0; i < 0x80; i++)
		if (cp437_high[i] == c)
			return (uint8_t)(0x80 + i);
	return 0;
}

enum fp_err fp_name_label_encode(const uint16_t *u, size_t count,
				 uint8_t lab[11])
{
	static const char bad[] = "*?.,;:/\\|+=<>[]\"";
	uint8_t out[11];
	size_t i;

	if (count > sizeof(out))
		return FP_E_NAMELEN;
	memset(out, ' ', sizeof(out));
	for (i = 0; i < count; i++) {
		out[i] = unit_cp437(u[i]);
		if (out[i] < 0x20 || out[i] == 0x7F ||
		    (out[i] < 0x80 && strchr(bad, out[i])))
			return FP_E_NAME;
	}
	if (out[0] == ' ' || out[0] == FP_NAME_DELETED)
		return FP_E_NAME;
	memcpy(lab, out, sizeof(out));
	return FP_OK;
}

size_t fp_name_label_decode(const uint8_t lab[11], uint16_t out[11])
{
	size_t i, n = 11;

	while (n > 0 && lab[n - 1] == ' ')
		n--;
	for (i = 0; i < n; i++)
		out[i] = lab[i] < 0x20 || lab[i] == 0x7F ? 0xFFFD :
			 sfn_byte_unit(lab[i]);
	return n;
}

int fp_name_lfn_bad(const uint16_t *units, size_t count)
{
	size_t i;

	if (count == 0)
		return 1;
	if (units[0] == '.' && (count == 1 || (count == 2 && units[1] == '.')))
		return 1;
	for (i = 0; i < count; i++) {
		if (units[i] == '/')
			return 1;
		if (units[i] >= 0xDC00 && units[i] <= 0xDFFF)
			return 1;	/* a low surrogate alone */
		if (units[i] < 0xD800 || units[i] > 0xDBFF)
			continue;
		if (i + 1 == count || units[i + 1] < 0xDC00 ||
		    units[i + 1] > 0xDFFF)
			return 1;	/* a high surrogate alone */
		i++;
	}
	return 0;
}
