/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_name.c - unit tests for FAT names (name.h). */
#include <check.h>
#include <stdint.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "name.h"

/* Decode the NUL-terminated UTF-8 @s, which must be a valid name. */
static size_t u16(const char *s, uint16_t out[FP_LFN_MAX])
{
	size_t n = 0;

	ck_assert_int_eq(fp_name_from_utf8(s, strlen(s), out, &n), FP_OK);
	return n;
}

/* fp_name_from_utf8() on @len bytes of @s; *count must stay put on error. */
static enum fp_err from_utf8(const char *s, size_t len)
{
	uint16_t u[FP_LFN_MAX];
	size_t n = 777;
	enum fp_err err = fp_name_from_utf8(s, len, u, &n);

	if (err != FP_OK)
		ck_assert_uint_eq(n, 777);
	return err;
}

static void check_sfn_bytes(const uint8_t got[11], const char *want)
{
	ck_assert_msg(memcmp(got, want, 11) == 0, "got \"%.11s\", want \"%s\"",
		      (const char *)got, want);
}

START_TEST(test_utf8_decode)
{
	uint16_t u[FP_LFN_MAX];

	ck_assert_uint_eq(u16("\xc3\xa9", u), 1);	/* e acute */
	ck_assert_uint_eq(u[0], 0x00e9);
	ck_assert_uint_eq(u16("\xe6\x97\xa5\xe6\x9c\xac", u), 2);
	ck_assert_uint_eq(u[0], 0x65e5);
	ck_assert_uint_eq(u[1], 0x672c);
	ck_assert_uint_eq(u16("a\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf", u), 4);
	ck_assert_uint_eq(u[1], 0x07ff);
	ck_assert_uint_eq(u[2], 0x0800);
	ck_assert_uint_eq(u[3], 0xffff);
	ck_assert_uint_eq(u16("\xed\x9f\xbf\xee\x80\x80", u), 2);
	ck_assert_uint_eq(u[0], 0xd7ff);
	ck_assert_uint_eq(u[1], 0xe000);
}
END_TEST

START_TEST(test_utf8_round_trip)
{
	static const char *const names[] = {
		"caf\xc3\xa9.txt",
		"\xe6\x97\xa5\xe6\x9c\xac.dat",
		"\xc3\x89\x43OLE",	/* \x43 is C */
		"plain name.tar.gz",
	};
	uint16_t u[FP_LFN_MAX];
	char out[3 * FP_LFN_MAX + 1];
	size_t i, n;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		n = u16(names[i], u);
		ck_assert_uint_eq(fp_name_to_utf8(u, n, out, sizeof(out)),
				  strlen(names[i]));
		ck_assert_str_eq(out, names[i]);
	}
}
END_TEST

/*
 * The sequence lengths that --json writes as they are; 0 for the bytes it
 * escapes one by one.
 */
START_TEST(test_utf8_len)
{
	ck_assert_uint_eq(fp_name_utf8_len("a", 1), 1);
	ck_assert_uint_eq(fp_name_utf8_len("\xc3\xa9x", 3), 2);
	ck_assert_uint_eq(fp_name_utf8_len("\xe6\x97\xa5", 3), 3);
	ck_assert_uint_eq(fp_name_utf8_len("\xef\xbf\xbd", 3), 3);
	ck_assert_uint_eq(fp_name_utf8_len("\xf0\x9f\x98\x80", 4), 4);
	ck_assert_uint_eq(fp_name_utf8_len("\xf4\x8f\xbf\xbf", 4), 4);
	/* overlong forms */
	ck_assert_uint_eq(fp_name_utf8_len("\xc0\xaf", 2), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\xc1\xbf", 2), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\xe0\x9f\xbf", 3), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\xf0\x8f\xbf\xbf", 4), 0);
	/* surrogates, above U+10FFFF, never a lead byte */
	ck_assert_uint_eq(fp_name_utf8_len("\xed\xa0\x80", 3), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\xed\xbf\xbf", 3), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\xed\x9f\xbf", 3), 3);
	ck_assert_uint_eq(fp_name_utf8_len("\xf4\x90\x80\x80", 4), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\xf5\x80\x80\x80", 4), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\xff", 1), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\x80", 1), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\xbf\x80", 2), 0);
	/* cut short by the end, by the length, by an ASCII byte */
	ck_assert_uint_eq(fp_name_utf8_len("\xe2\x82", 2), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\xc3\xa9", 1), 0);
	ck_assert_uint_eq(fp_name_utf8_len("\xf0\x9f\x98x", 4), 0);
}
END_TEST

START_TEST(test_utf8_reject)
{
	/* U+1F600 and U+10FFFF are valid UTF-8 but outside the BMP. */
	ck_assert_int_eq(from_utf8("\xf0\x9f\x98\x80", 4), FP_E_NONBMP);
	ck_assert_int_eq(from_utf8("a\xf4\x8f\xbf\xbf", 5), FP_E_NONBMP);
	/* Overlong forms of '/' and U+0000. */
	ck_assert_int_eq(from_utf8("\xc0\xaf", 2), FP_E_NAME);
	ck_assert_int_eq(from_utf8("\xc1\xbf", 2), FP_E_NAME);
	ck_assert_int_eq(from_utf8("\xe0\x80\xaf", 3), FP_E_NAME);
	ck_assert_int_eq(from_utf8("\xf0\x80\x80\xaf", 4), FP_E_NAME);
	ck_assert_int_eq(from_utf8("\xc0\x80", 2), FP_E_NAME);
	/* U+D800 and U+DFFF encoded in UTF-8. */
	ck_assert_int_eq(from_utf8("\xed\xa0\x80", 3), FP_E_NAME);
	ck_assert_int_eq(from_utf8("\xed\xbf\xbf", 3), FP_E_NAME);
	/* Above U+10FFFF, and bytes that never start a sequence. */
	ck_assert_int_eq(from_utf8("\xf4\x90\x80\x80", 4), FP_E_NAME);
	ck_assert_int_eq(from_utf8("\xf8\x88\x80\x80\x80", 5), FP_E_NAME);
	ck_assert_int_eq(from_utf8("\xff", 1), FP_E_NAME);
	ck_assert_int_eq(from_utf8("a\x80", 2), FP_E_NAME);
	/* Truncated sequences, at the end and before an ASCII byte. */
	ck_assert_int_eq(from_utf8("\xc3", 1), FP_E_NAME);
	ck_assert_int_eq(from_utf8("\xe6\x97", 2), FP_E_NAME);
	ck_assert_int_eq(from_utf8("\xf0\x9f\x98", 3), FP_E_NAME);
	ck_assert_int_eq(from_utf8("\xe6\x97x", 3), FP_E_NAME);
	/* The length is honoured: the last byte of "\xc3\xa9" is cut off. */
	ck_assert_int_eq(from_utf8("\xc3\xa9", 1), FP_E_NAME);
	/* U+0000. */
	ck_assert_int_eq(from_utf8("a\0b", 3), FP_E_NAME);
	ck_assert_int_eq(from_utf8("", 0), FP_OK);
}
END_TEST

START_TEST(test_utf8_length)
{
	char s[2 * (FP_LFN_MAX + 1) + 1];
	uint16_t u[FP_LFN_MAX];
	size_t n = 0, i;

	memset(s, 'a', FP_LFN_MAX + 1);
	ck_assert_int_eq(fp_name_from_utf8(s, FP_LFN_MAX, u, &n), FP_OK);
	ck_assert_uint_eq(n, FP_LFN_MAX);
	ck_assert_int_eq(from_utf8(s, FP_LFN_MAX + 1), FP_E_NAMELEN);

	/* Units, not bytes, count: 255 two-byte characters fit. */
	for (i = 0; i <= FP_LFN_MAX; i++)
		memcpy(s + 2 * i, "\xc3\xa9", 2);
	ck_assert_int_eq(fp_name_from_utf8(s, 2 * FP_LFN_MAX, u, &n), FP_OK);
	ck_assert_uint_eq(n, FP_LFN_MAX);
	ck_assert_uint_eq(u[FP_LFN_MAX - 1], 0x00e9);
	ck_assert_int_eq(from_utf8(s, 2 * (FP_LFN_MAX + 1)), FP_E_NAMELEN);
}
END_TEST

START_TEST(test_utf8_encode)
{
	const uint16_t pair[] = { 'x', 0xd83d, 0xde00 };
	const uint16_t lone[] = { 0xd800, 'a', 0xdc00, 0 };
	const uint16_t ae[] = { 'a', 0x00e9 };
	char out[16];

	ck_assert_uint_eq(fp_name_to_utf8(pair, 3, out, sizeof(out)), 5);
	ck_assert_str_eq(out, "x\xf0\x9f\x98\x80");
	ck_assert_uint_eq(fp_name_to_utf8(pair, 2, out, sizeof(out)), 4);
	ck_assert_str_eq(out, "x\xef\xbf\xbd");
	ck_assert_uint_eq(fp_name_to_utf8(lone, 4, out, sizeof(out)), 10);
	ck_assert_str_eq(out, "\xef\xbf\xbd" "a\xef\xbf\xbd\xef\xbf\xbd");

	/* A small buffer cuts at a character boundary. */
	ck_assert_uint_eq(fp_name_to_utf8(ae, 2, out, 4), 3);
	ck_assert_str_eq(out, "a\xc3\xa9");
	ck_assert_uint_eq(fp_name_to_utf8(ae, 2, out, 3), 1);
	ck_assert_str_eq(out, "a");
	ck_assert_uint_eq(fp_name_to_utf8(ae, 2, out, 1), 0);
	ck_assert_str_eq(out, "");
	out[0] = 'z';
	ck_assert_uint_eq(fp_name_to_utf8(ae, 2, out, 0), 0);
	ck_assert_int_eq(out[0], 'z');
}
END_TEST

START_TEST(test_check)
{
	static const char *const bad[] = {
		".", "..", "a:b", "a\\b", "x.", "x ", "\x01", "a/b", "a*b",
		"a?b", "a<b", "a>b", "a|b", "a\"b", "tab\there", "...",
	};
	static const char *const good[] = {
		"a", "a.b", " lead", ".bashrc", "My File.tar.gz", "a+b;c=d[e]",
		"\xe6\x97\xa5\xe6\x9c\xac", "x..y",
	};
	uint16_t u[FP_LFN_MAX + 1];
	size_t i, n;

	ck_assert_int_eq(fp_name_check(NULL, 0), FP_E_NAME);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = u16(bad[i], u);
		ck_assert_msg(fp_name_check(u, n) == FP_E_NAME,
			      "\"%s\" accepted", bad[i]);
	}
	for (i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		n = u16(good[i], u);
		ck_assert_msg(fp_name_check(u, n) == FP_OK,
			      "\"%s\" rejected", good[i]);
	}
	for (i = 0; i <= FP_LFN_MAX; i++)
		u[i] = 'a';
	ck_assert_int_eq(fp_name_check(u, FP_LFN_MAX), FP_OK);
	ck_assert_int_eq(fp_name_check(u, FP_LFN_MAX + 1), FP_E_NAMELEN);
}
END_TEST

START_TEST(test_check_reserved)
{
	static const char *const reserved[] = {
		"CON", "con", "Prn", "AUX", "nul", "NUL.txt", "nul.tar.gz",
		"AUX.bin", "aux.", "COM1", "com9", "LPT1", "lpt9.log",
		"Com1.c", "conin$", "CONOUT$.x", "nul .txt", "con  ",
		"COM\xc2\xb9", "lpt\xc2\xb2.txt", "LPT\xc2\xb3",
	};
	static const char *const allowed[] = {
		"COM0", "lpt0.txt", "COM10", "LPT10", "CONSOLE", "NULL",
		"nul_", "xnul", "aux-1.bin", "COM", "LPT", "c.on", ".nul",
		"COM\xc2\xb4", "COM\xc2\xb0", "my nul", "CO", "COMA",
	};
	uint16_t u[FP_LFN_MAX];
	size_t i, n;
	enum fp_err err;

	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		n = u16(reserved[i], u);
		err = fp_name_check(u, n);
		ck_assert_msg(err == FP_E_RESERVED || err == FP_E_NAME,
			      "\"%s\" accepted", reserved[i]);
		if (u[n - 1] != '.' && u[n - 1] != ' ')
			ck_assert_msg(err == FP_E_RESERVED,
				      "\"%s\": %d", reserved[i], err);
	}
	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++) {
		n = u16(allowed[i], u);
		ck_assert_msg(fp_name_check(u, n) == FP_OK,
			      "\"%s\" rejected", allowed[i]);
	}
}
END_TEST

START_TEST(test_upcase)
{
	uint16_t c;

	ck_assert_uint_eq(fp_name_upcase('a'), 'A');
	ck_assert_uint_eq(fp_name_upcase('z'), 'Z');
	ck_assert_uint_eq(fp_name_upcase('A'), 'A');
	ck_assert_uint_eq(fp_name_upcase('{'), '{');
	ck_assert_uint_eq(fp_name_upcase(0x00e9), 0x00c9);	/* e acute */
	ck_assert_uint_eq(fp_name_upcase(0x00f7), 0x00f7);	/* division */
	ck_assert_uint_eq(fp_name_upcase(0x00df), 0x00df);	/* sharp s */
	ck_assert_uint_eq(fp_name_upcase(0x00ff), 0x0178);	/* y diaer. */
	ck_assert_uint_eq(fp_name_upcase(0x0101), 0x0100);	/* a macron */
	ck_assert_uint_eq(fp_name_upcase(0x0100), 0x0100);
	ck_assert_uint_eq(fp_name_upcase(0x0142), 0x0141);	/* l stroke */
	ck_assert_uint_eq(fp_name_upcase(0x017e), 0x017d);	/* z caron */
	ck_assert_uint_eq(fp_name_upcase(0x0131), 0x0131);	/* dotless */
	ck_assert_uint_eq(fp_name_upcase(0x03b1), 0x0391);	/* alpha */
	ck_assert_uint_eq(fp_name_upcase(0x03c2), 0x03a3);	/* final s. */
	ck_assert_uint_eq(fp_name_upcase(0x03c3), 0x03a3);	/* sigma */
	ck_assert_uint_eq(fp_name_upcase(0x03ce), 0x038f);	/* omega t. */
	ck_assert_uint_eq(fp_name_upcase(0x044f), 0x042f);	/* ya */
	ck_assert_uint_eq(fp_name_upcase(0x0451), 0x0401);	/* io */
	ck_assert_uint_eq(fp_name_upcase(0x65e5), 0x65e5);
	for (c = 0; c < 0x80; c++)
		ck_assert_uint_eq(fp_name_upcase(c), c >= 'a' && c <= 'z' ?
				  c - 0x20 : c);
}
END_TEST

/* Every byte in every place of a short name, against the rule spelled out. */
START_TEST(test_sfn_bad)
{
	static const char punct[] = "\"*+,./:;<=>?[\\]|";
	uint8_t sfn[11];
	unsigned c, i;
	int want;

	for (i = 0; i < 11; i++) {
		for (c = 0; c < 0x100; c++) {
			memcpy(sfn, "AB      TXT", 11);
			sfn[i] = (uint8_t)c;
			want = c < 0x20 || c == 0x7F ||
			       (c >= 'a' && c <= 'z') ||
			       (c && c < 0x80 && strchr(punct, (int)c));
			if (i == 0 && c == 0x05)
				want = 0;
			if (i == 0 && c == ' ')
				want = 1;
			ck_assert_int_eq(fp_name_sfn_bad(sfn), want);
		}
	}
}
END_TEST

/*
 * Every byte in every place of a volume label, against the rule spelled
 * out: the short-name rule (as fsck.fat 4.2 reads labels) with lower
 * case and 0x7F allowed, a leading 0x05 not special; all spaces is empty.
 */
START_TEST(test_label_bad)
{
	static const char punct[] = "\"*+,./:;<=>?[\\]|";
	uint8_t lab[11];
	uint16_t u[11];
	unsigned c, i;
	int want;

	for (i = 0; i < 11; i++) {
		for (c = 0; c < 0x100; c++) {
			memcpy(lab, "MY DISK    ", 11);
			lab[i] = (uint8_t)c;
			want = c < 0x20 ||
			       (c && c < 0x80 && strchr(punct, (int)c));
			if (i == 0 && c == ' ')
				want = 1;
			ck_assert_int_eq(fp_name_label_bad(lab), want);
		}
	}
	ck_assert_int_eq(fp_name_label_bad((const uint8_t *)"           "), 1);
	ck_assert_int_eq(fp_name_label_bad((const uint8_t *)"NO NAME    "), 0);
	memcpy(lab, "A\x01\x82      DE", 11);
	ck_assert_uint_eq(fp_name_label_decode(lab, u), 11);
	ck_assert_uint_eq(u[1], 0xFFFD);
	ck_assert_uint_eq(u[2], 0x00E9);	/* e acute in code page 437 */
	memcpy(lab, "           ", 11);
	ck_assert_uint_eq(fp_name_label_decode(lab, u), 0);
}
END_TEST

static int equal_utf8(const char *a, const char *b)
{
	uint16_t ua[FP_LFN_MAX], ub[FP_LFN_MAX];
	size_t an = u16(a, ua), bn = u16(b, ub);

	return fp_name_equal(ua, an, ub, bn);
}

START_TEST(test_equal)
{
	ck_assert_int_eq(equal_utf8("\xc3\x89" "COLE", "\xc3\xa9" "cole"), 1);
	ck_assert_int_eq(equal_utf8("Foo.TXT", "fOO.txt"), 1);
	ck_assert_int_eq(equal_utf8("stra\xc3\x9f" "e", "STRASSE"), 0);
	ck_assert_int_eq(equal_utf8("stra\xc3\x9f" "e", "STRA\xc3\x9f" "E"), 1);
	ck_assert_int_eq(equal_utf8("abc", "abcd"), 0);
	ck_assert_int_eq(equal_utf8("abc", "abd"), 0);
	ck_assert_int_eq(equal_utf8("\xd1\x8f", "\xd0\xaf"), 1); /* ya */
}
END_TEST

/* fp_name_to_sfn() on UTF-8 @s: 1 with @want and @ntres, or 0. */
static void check_sfn(const char *s, int fits, const char *want,
		      uint8_t want_ntres)
{
	uint16_t u[FP_LFN_MAX];
	uint8_t sfn[11], ntres = 0xee;
	size_t n = u16(s, u);

	memset(sfn, '#', sizeof(sfn));
	ck_assert_msg(fp_name_to_sfn(u, n, sfn, &ntres) == fits,
		      "\"%s\": fits should be %d", s, fits);
	if (!fits) {
		check_sfn_bytes(sfn, "###########");
		ck_assert_uint_eq(ntres, 0xee);
		return;
	}
	check_sfn_bytes(sfn, want);
	ck_assert_msg(ntres == want_ntres, "\"%s\": ntres 0x%02x, want 0x%02x",
		      s, ntres, want_ntres);
}

START_TEST(test_to_sfn)
{
	check_sfn("readme.txt", 1, "README  TXT", 0x18);
	check_sfn("README.TXT", 1, "README  TXT", 0x00);
	check_sfn("readme.TXT", 1, "README  TXT", 0x08);
	check_sfn("README.txt", 1, "README  TXT", 0x10);
	check_sfn("a", 1, "A          ", 0x08);
	check_sfn("123", 1, "123        ", 0x00);
	check_sfn("123.abc", 1, "123     ABC", 0x10);
	check_sfn("x1.7z", 1, "X1      7Z ", 0x18);
	check_sfn("abcdefgh.txt", 1, "ABCDEFGHTXT", 0x18);
	check_sfn("!#$%&'()", 1, "!#$%&'()   ", 0x00);
	check_sfn("-@^_`{}~.~_-", 1, "-@^_`{}~~_-", 0x00);
	check_sfn("Readme.txt", 0, NULL, 0);
	check_sfn("readme.Txt", 0, NULL, 0);
	check_sfn("a+b.txt", 0, NULL, 0);
	check_sfn("longfilename.txt", 0, NULL, 0);
	check_sfn("abcdefghi", 0, NULL, 0);
	check_sfn("x.html", 0, NULL, 0);
	check_sfn(".bashrc", 0, NULL, 0);
	check_sfn("a.b.c", 0, NULL, 0);
	check_sfn("x.", 0, NULL, 0);
	check_sfn("a b", 0, NULL, 0);
	check_sfn("a,b", 0, NULL, 0);
	check_sfn("a;b", 0, NULL, 0);
	check_sfn("a=b", 0, NULL, 0);
	check_sfn("a[b]", 0, NULL, 0);
	check_sfn("\xc3\xa9.txt", 0, NULL, 0);
}
END_TEST

static void check_basis(const char *s, const char *want, int want_lossy)
{
	uint16_t u[FP_LFN_MAX];
	uint8_t basis[11];
	int lossy = -1;
	size_t n = u16(s, u);

	fp_name_alias_basis(u, n, basis, &lossy);
	check_sfn_bytes(basis, want);
	ck_assert_msg(lossy == want_lossy, "\"%s\": lossy %d, want %d", s,
		      lossy, want_lossy);
}

START_TEST(test_alias_basis)
{
	check_basis("longfilename.txt", "LONGFILETXT", 1);
	check_basis("a+b.txt", "A_B     TXT", 1);
	check_basis(".bashrc", "BASHRC     ", 1);
	check_basis("My File.tar.gz", "MYFILETAGZ ", 1);
	check_basis("Readme.txt", "README  TXT", 0);
	check_basis("readme.txt", "README  TXT", 0);
	check_basis("x.html", "X       HTM", 1);
	check_basis("verylongname", "VERYLONG   ", 1);
	check_basis("a,b;c=d[e]", "A_B_C_D_   ", 1);
	check_basis("\xe6\x97\xa5\xe6\x9c\xac.txt", "__      TXT", 1);
	check_basis("caf\xc3\xa9", "CAF_       ", 1);
	check_basis("a.b.c.d", "ABC     D  ", 1);
	check_basis("...txt", "TXT        ", 1);
	check_basis(" . x.y", "X       Y  ", 1);
	check_basis("abc.x y", "ABC     XY ", 1);
	check_basis("...", "_          ", 1);
}
END_TEST

static void check_tail(const char *basis, uint32_t n, const char *want)
{
	uint8_t out[11];

	fp_name_alias_tail((const uint8_t *)basis, n, out);
	check_sfn_bytes(out, want);
}

START_TEST(test_alias_tail)
{
	uint8_t b[11];

	check_tail("LONGFILETXT", 1, "LONGFI~1TXT");
	check_tail("LONGFILETXT", 12, "LONGF~12TXT");
	check_tail("LONGFILETXT", 999999, "L~999999TXT");
	check_tail("AB      TXT", 3, "AB~3    TXT");
	check_tail("AB      TXT", 123456, "A~123456TXT");
	check_tail("A          ", 9, "A~9        ");
	check_tail("ABCDEF     ", 9, "ABCDEF~9   ");
	check_tail("ABCDEF     ", 10, "ABCDE~10   ");
	check_tail("ABCDEF     ", 100, "ABCD~100   ");

	/* In place. */
	memcpy(b, "LONGFILETXT", 11);
	fp_name_alias_tail(b, 2, b);
	check_sfn_bytes(b, "LONGFI~2TXT");
}
END_TEST

/* FNV-1a over UTF-16 units from 0x811C9DC5 ^ round, folded to 16 bits. */
static unsigned fold_fnv(const char *ascii, uint32_t round)
{
	uint32_t h = 2166136261u ^ round;

	for (; *ascii; ascii++)
		h = (h ^ (unsigned char)*ascii) * 16777619u;
	return (h >> 16) ^ (h & 0xFFFF);
}

/* The hashed basis: 2 characters, the hash as 4 hex digits, the ext. */
START_TEST(test_alias_hashed)
{
	const char *name = "file_number_123.txt";
	uint16_t u[32];
	uint8_t out[11], again[11];
	char want[12];
	size_t n = strlen(name), i;
	uint32_t round;

	for (i = 0; i < n; i++)
		u[i] = (uint16_t)name[i];
	for (round = 0; round < 3; round++) {
		fp_name_alias_hashed((const uint8_t *)"FILE_NUMTXT", u, n,
				     round, out);
		snprintf(want, sizeof(want), "FI%04X  TXT",
			 fold_fnv(name, round));
		check_sfn_bytes(out, want);
		fp_name_alias_hashed((const uint8_t *)"FILE_NUMTXT", u, n,
				     round, again);
		ck_assert_mem_eq(out, again, 11);
	}
	/* a basis of one character keeps it alone */
	fp_name_alias_hashed((const uint8_t *)"A          ", u, n, 0, out);
	snprintf(want, sizeof(want), "A%04X      ", fold_fnv(name, 0));
	check_sfn_bytes(out, want);
}
END_TEST

START_TEST(test_lfn_sum)
{
	/* Computed independently with the rotate-right-and-add formula. */
	ck_assert_uint_eq(fp_name_lfn_sum((const uint8_t *)"README  TXT"),
			  0x73);
	ck_assert_uint_eq(fp_name_lfn_sum((const uint8_t *)"LONGFI~1TXT"),
			  0xd4);
	ck_assert_uint_eq(fp_name_lfn_sum((const uint8_t *)"FOO     BAR"),
			  0x53);
}
END_TEST

START_TEST(test_lfn_slots)
{
	ck_assert_uint_eq(fp_name_lfn_slots(1), 1);
	ck_assert_uint_eq(fp_name_lfn_slots(13), 1);
	ck_assert_uint_eq(fp_name_lfn_slots(14), 2);
	ck_assert_uint_eq(fp_name_lfn_slots(26), 2);
	ck_assert_uint_eq(fp_name_lfn_slots(27), 3);
	ck_assert_uint_eq(fp_name_lfn_slots(FP_LFN_MAX), 20);
}
END_TEST

static void check_ent(const uint8_t got[32], const uint8_t want[32])
{
	int i;

	for (i = 0; i < 32; i++)
		ck_assert_msg(got[i] == want[i],
			      "byte %d: got 0x%02x, want 0x%02x", i, got[i],
			      want[i]);
}

START_TEST(test_lfn_encode_two_slots)
{
	static const uint8_t want1[32] = {
		0x01, 'a', 0, 'b', 0, 'c', 0, 'd', 0, 'e', 0,
		0x0f, 0x00, 0x5c,
		'f', 0, 'g', 0, 'h', 0, 'i', 0, 'j', 0, 'k', 0,
		0x00, 0x00,
		'l', 0, 'm', 0,
	};
	static const uint8_t want2[32] = {
		0x42, 'n', 0, 'o', 0, 'p', 0, 'q', 0, 'r', 0,
		0x0f, 0x00, 0x5c,
		's', 0, 't', 0, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
		0x00, 0x00,
		0xff, 0xff, 0xff, 0xff,
	};
	uint16_t u[FP_LFN_MAX], units[2 * FP_LFN_CHARS];
	uint8_t ent[32];
	size_t n = u16("abcdefghijklmnopqrst", u);
	int i;

	ck_assert_uint_eq(n, 20);
	memset(ent, 0xaa, sizeof(ent));
	fp_name_lfn_encode(ent, u, n, 1, 0x5c);
	check_ent(ent, want1);
	fp_name_lfn_decode(ent, units);

	memset(ent, 0xaa, sizeof(ent));
	fp_name_lfn_encode(ent, u, n, 2, 0x5c);
	check_ent(ent, want2);
	fp_name_lfn_decode(ent, units + FP_LFN_CHARS);

	for (i = 0; i < 20; i++)
		ck_assert_uint_eq(units[i], u[i]);
	ck_assert_uint_eq(units[20], 0x0000);
	for (i = 21; i < 2 * FP_LFN_CHARS; i++)
		ck_assert_uint_eq(units[i], 0xffff);
}
END_TEST

START_TEST(test_lfn_encode_full_slot)
{
	uint16_t u[FP_LFN_MAX], units[FP_LFN_CHARS];
	uint8_t ent[32];
	size_t n = u16("\xc3\xa9" "bcdefghijklm", u);
	int i;

	ck_assert_uint_eq(n, 13);
	memset(ent, 0xaa, sizeof(ent));
	fp_name_lfn_encode(ent, u, n, 1, 0x01);
	ck_assert_uint_eq(ent[0], 0x41);
	ck_assert_uint_eq(ent[1], 0xe9);
	ck_assert_uint_eq(ent[2], 0x00);
	ck_assert_uint_eq(ent[11], 0x0f);
	ck_assert_uint_eq(ent[12], 0x00);
	ck_assert_uint_eq(ent[13], 0x01);
	ck_assert_uint_eq(ent[26], 0x00);
	ck_assert_uint_eq(ent[27], 0x00);
	ck_assert_uint_eq(ent[30], 'm');
	ck_assert_uint_eq(ent[31], 0x00);
	fp_name_lfn_decode(ent, units);
	for (i = 0; i < FP_LFN_CHARS; i++)
		ck_assert_uint_eq(units[i], u[i]);
}
END_TEST

START_TEST(test_lfn_encode_max)
{
	uint16_t u[FP_LFN_MAX], units[FP_LFN_CHARS];
	uint8_t ent[32];
	int i;

	for (i = 0; i < FP_LFN_MAX; i++)
		u[i] = (uint16_t)(0x4e00 + i);
	/* Slot 20 holds units 247..254, then the 0x0000 and 4 x 0xffff. */
	fp_name_lfn_encode(ent, u, FP_LFN_MAX, 20, 0x99);
	ck_assert_uint_eq(ent[0], 0x54);
	fp_name_lfn_decode(ent, units);
	for (i = 0; i < 8; i++)
		ck_assert_uint_eq(units[i], 0x4e00 + 247 + i);
	ck_assert_uint_eq(units[8], 0x0000);
	for (i = 9; i < FP_LFN_CHARS; i++)
		ck_assert_uint_eq(units[i], 0xffff);
	fp_name_lfn_encode(ent, u, FP_LFN_MAX, 19, 0x99);
	ck_assert_uint_eq(ent[0], 19);
}
END_TEST

static void check_sfn_decode(const char *sfn, uint8_t ntres,
			     const char *want)
{
	uint16_t out[12];
	char got[3 * 12 + 1];
	size_t n;

	n = fp_name_sfn_decode((const uint8_t *)sfn, ntres, out);
	ck_assert_uint_le(n, 12);
	fp_name_to_utf8(out, n, got, sizeof(got));
	ck_assert_str_eq(got, want);
}

START_TEST(test_sfn_decode)
{
	check_sfn_decode("README  TXT", 0x18, "readme.txt");
	check_sfn_decode("README  TXT", 0x00, "README.TXT");
	check_sfn_decode("README  TXT", 0x08, "readme.TXT");
	check_sfn_decode("README  TXT", 0x10, "README.txt");
	check_sfn_decode("NOEXT      ", 0x00, "NOEXT");
	check_sfn_decode("ABCDEFGHIJK", 0x00, "ABCDEFGH.IJK");
	check_sfn_decode("A~1_    7Z ", 0x18, "a~1_.7z");
	check_sfn_decode(".          ", 0x00, ".");
	check_sfn_decode("..         ", 0x00, "..");
	/*
	 * A leading 0x05 stands for 0xE5; bytes >= 0x80 are code page 437
	 * (names-oem.test checks them all against Linux): 0xE5 sigma, 0x90
	 * E acute, 0x80 C cedilla, 0xC9 a box corner, 0xFF no-break space.
	 */
	check_sfn_decode("\x05" "BC     TXT", 0x00, "\xcf\x83" "BC.TXT");
	check_sfn_decode("\x90T\x90     TXT", 0x08, "\xc3\x89t\xc3\x89.TXT");
	check_sfn_decode("\x80\xc9\xff     TXT", 0x00,
			 "\xc3\x87\xe2\x95\x94\xc2\xa0.TXT");
}
END_TEST

/* fp_name_sfn_key() against the key of the decoded name, as defined. */
static void check_sfn_key(const uint8_t sfn[11])
{
	static const uint8_t ntres[] = { 0, FP_NT_LOWER_BASE,
					 FP_NT_LOWER_EXT,
					 FP_NT_LOWER_BASE | FP_NT_LOWER_EXT };
	uint16_t u[12];
	size_t i, n;

	for (i = 0; i < sizeof(ntres); i++) {
		n = fp_name_sfn_decode(sfn, ntres[i], u);
		ck_assert_uint_eq(fp_name_sfn_key(sfn), fp_name_key(u, n));
	}
}

START_TEST(test_sfn_key)
{
	static const char bytes[] = " .AZaz09~\x05\x7f\xb5\xc0\xdf\xe0\xe5\xff";
	uint8_t sfn[11];
	uint32_t x = 12345;
	unsigned c, i, k;

	for (i = 0; i < 11; i++) {	/* every byte in every place */
		for (c = 0; c < 0x100; c++) {
			memcpy(sfn, "AB  C   TXT", 11);
			sfn[i] = (uint8_t)c;
			check_sfn_key(sfn);
			memcpy(sfn, "A          ", 11);
			sfn[i] = (uint8_t)c;
			check_sfn_key(sfn);
		}
	}
	for (k = 0; k < 20000; k++) {	/* mixes of the bytes that matter */
		for (i = 0; i < 11; i++) {
			x = x * 1103515245u + 12345u;
			sfn[i] = (uint8_t)bytes[(x >> 16) % (sizeof(bytes) - 1)];
		}
		check_sfn_key(sfn);
	}
	/* the same decoded name from different bytes: the same key */
	ck_assert_uint_eq(fp_name_sfn_key((const uint8_t *)"A.B        "),
			  fp_name_sfn_key((const uint8_t *)"A       B  "));
	/* code page 437: 0x84, 0x8E a umlaut; 0xE5 (0x05), 0xE4 sigma */
	ck_assert_uint_eq(fp_name_sfn_key((const uint8_t *)"\x84" "B      TXT"),
			  fp_name_sfn_key((const uint8_t *)"\x8e" "b      txt"));
	ck_assert_uint_eq(fp_name_sfn_key((const uint8_t *)"\x05" "B      TXT"),
			  fp_name_sfn_key((const uint8_t *)"\xe4" "B      TXT"));
	ck_assert_uint_ne(fp_name_sfn_key((const uint8_t *)"AB      TXT"),
			  fp_name_sfn_key((const uint8_t *)"ABTXT      "));
}
END_TEST

/* Names fp_name_equal() calls equal have one key, long or short. */
static void check_key_equal(const char *a, const char *b)
{
	uint16_t ua[FP_LFN_MAX], ub[FP_LFN_MAX];
	size_t an = u16(a, ua), bn = u16(b, ub);

	ck_assert(fp_name_equal(ua, an, ub, bn));
	ck_assert_uint_eq(fp_name_key(ua, an), fp_name_key(ub, bn));
}

START_TEST(test_name_key)
{
	uint16_t u[FP_LFN_MAX];
	size_t n;

	check_key_equal("readme.txt", "README.TXT");
	check_key_equal("Makefile", "MAKEFILE");
	check_key_equal("a.b.c", "A.B.C");
	check_key_equal("long file name.text", "LONG FILE NAME.TEXT");
	check_key_equal("\xc3\xa9t\xc3\xa9.txt", "\xc3\x89T\xc3\x89.TXT");
	check_key_equal("\xd0\xb4.txt", "\xd0\x94.TXT");	/* Cyrillic */
	check_key_equal("", "");
	/* a short name and the long name it decodes to */
	n = u16("f00001", u);
	ck_assert_uint_eq(fp_name_key(u, n),
			  fp_name_sfn_key((const uint8_t *)"F00001     "));
	n = u16("Abc.tXt", u);
	ck_assert_uint_eq(fp_name_key(u, n),
			  fp_name_sfn_key((const uint8_t *)"ABC     TXT"));
	n = u16("readme.txt", u);
	ck_assert_uint_ne(fp_name_key(u, n),
			  fp_name_sfn_key((const uint8_t *)"README  TX "));
}
END_TEST

static Suite *name_suite(void)
{
	Suite *s = suite_create("name");
	TCase *utf = tcase_create("utf8");
	TCase *rules = tcase_create("rules");
	TCase *lfn = tcase_create("lfn");

	tcase_add_test(utf, test_utf8_decode);
	tcase_add_test(utf, test_utf8_round_trip);
	tcase_add_test(utf, test_utf8_reject);
	tcase_add_test(utf, test_utf8_len);
	tcase_add_test(utf, test_utf8_length);
	tcase_add_test(utf, test_utf8_encode);
	suite_add_tcase(s, utf);

	tcase_add_test(rules, test_check);
	tcase_add_test(rules, test_check_reserved);
	tcase_add_test(rules, test_upcase);
	tcase_add_test(rules, test_sfn_bad);
	tcase_add_test(rules, test_label_bad);
	tcase_add_test(rules, test_equal);
	tcase_add_test(rules, test_to_sfn);
	tcase_add_test(rules, test_alias_basis);
	tcase_add_test(rules, test_alias_tail);
	tcase_add_test(rules, test_alias_hashed);
	suite_add_tcase(s, rules);

	tcase_add_test(lfn, test_lfn_sum);
	tcase_add_test(lfn, test_lfn_slots);
	tcase_add_test(lfn, test_lfn_encode_two_slots);
	tcase_add_test(lfn, test_lfn_encode_full_slot);
	tcase_add_test(lfn, test_lfn_encode_max);
	tcase_add_test(lfn, test_sfn_decode);
	tcase_add_test(lfn, test_sfn_key);
	tcase_add_test(lfn, test_name_key);
	suite_add_tcase(s, lfn);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(name_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
