/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_verify.c - the checker on hand-made damage to a memory volume. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "le.h"
#include "name.h"
#include "testvol.h"
#include "verify.h"

/* The counts of @r. */
static struct fp_report_summary sum(const struct fp_report *r)
{
	struct fp_report_summary s;

	fp_report_summary(r, &s);
	return s;
}

static void setup(void)
{
	testvol_make();
}

static void teardown(void)
{
	testvol_free();
}

/* A short entry @name (11 bytes) at @ent. */
static void put_ent(uint8_t *ent, const char *name, uint8_t attr,
		    uint16_t cl, uint32_t size)
{
	memset(ent, 0, 32);
	memcpy(ent, name, 11);
	ent[DIR_ATTR] = attr;
	fp_put_le16(ent + DIR_CLUS_LO, cl);
	fp_put_le32(ent + DIR_SIZE, size);
}

static uint8_t *root_ent(unsigned i)
{
	return vol + ROOT + i * 32;
}

/* A file at root slot @i with a chain from @cl of @n clusters. */
static void put_file(unsigned i, const char *name, uint16_t cl, unsigned n,
		     uint32_t size)
{
	unsigned k;

	for (k = 0; k + 1 < n; k++)
		put_fat(cl + k, (uint16_t)(cl + k + 1));
	if (n)
		put_fat(cl + n - 1, 0xFFFF);
	put_ent(root_ent(i), name, FP_ATTR_ARCHIVE, n ? cl : 0, size);
}

static struct fp_report *verify(void)
{
	struct fp_report *r = NULL;
	struct fp_img *img;

	ck_assert_int_eq(fp_img_mem(vol, (uint64_t)TOTAL * SEC, &img), FP_OK);
	ck_assert_int_eq(fp_verify(img, &r), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(img), 0);
	fp_img_close(img);
	return r;
}

/* The first finding of @p, or NULL. */
static const struct fp_finding *find(const struct fp_report *r,
				     enum fp_problem p)
{
	size_t i;

	for (i = 0; i < fp_report_finding_count(r); i++)
		if (fp_report_finding(r, i)->problem == p)
			return fp_report_finding(r, i);
	return NULL;
}

/* The first finding of @p, which must be at @path. */
static const struct fp_finding *find_at(const struct fp_report *r,
					enum fp_problem p, const char *path)
{
	const struct fp_finding *f = find(r, p);

	ck_assert_ptr_nonnull(f);
	ck_assert_str_eq(f->path, path);
	return f;
}

/* The first cross-link: @path's chain meets @other's at cluster @cl. */
static void check_xlink(const struct fp_report *r, const char *path,
			uint32_t cl, const char *other)
{
	const struct fp_finding *f = find_at(r, FP_P_CROSS_LINK, path);

	ck_assert_uint_eq(f->cl, cl);
	ck_assert_ptr_nonnull(f->other);
	ck_assert_str_eq(f->other, other);
}

START_TEST(test_clean)
{
	struct fp_report *r;

	put_file(0, "A       BIN", 2, 3, 3 * SEC);
	put_file(1, "EMPTY      ", 0, 0, 0);
	r = verify();
	ck_assert_uint_eq(fp_report_finding_count(r), 0);
	ck_assert_uint_eq(sum(r).errors + sum(r).warnings, 0);
	ck_assert_uint_eq(sum(r).files, 2);
	ck_assert_uint_eq(sum(r).used, 3);
	ck_assert_uint_eq(sum(r).free_cl, CLUSTERS - 3);
	fp_report_free(r);
}
END_TEST

START_TEST(test_cross_link_names_both_owners)
{
	struct fp_report *r;

	put_file(0, "A       BIN", 2, 4, 4 * SEC);
	put_file(1, "B       BIN", 10, 2, 2 * SEC);
	put_fat(11, 4);		/* B: 10 -> 11 -> 4 -> 5 (A's tail) */
	r = verify();
	check_xlink(r, "/B.BIN", 4, "/A.BIN");
	fp_report_free(r);
}
END_TEST

START_TEST(test_loop_short_tail)
{
	struct fp_report *r;

	put_file(0, "LOOP       ", 2, 3, 3 * SEC);
	put_fat(4, 3);		/* 2 -> 3 -> 4 -> 3 */
	put_file(1, "SHORT      ", 10, 1, 2 * SEC);
	put_file(2, "TAIL       ", 20, 3, 1);
	r = verify();
	ck_assert_ptr_nonnull(find(r, FP_P_CHAIN_LOOP));
	ck_assert_uint_eq(find(r, FP_P_CHAIN_LOOP)->cl, 3);
	ck_assert_ptr_nonnull(find(r, FP_P_CHAIN_SHORT));
	ck_assert_uint_eq(find(r, FP_P_CHAIN_SHORT)->b, 2);
	ck_assert_ptr_nonnull(find(r, FP_P_TAIL));
	ck_assert_uint_eq(sum(r).errors, 2);
	ck_assert_uint_eq(sum(r).warnings, 1);
	fp_report_free(r);
}
END_TEST

/* --verify's verdict: an error always, a warning only with --strict. */
START_TEST(test_verdict)
{
	struct fp_report *r;

	put_file(0, "A       BIN", 2, 3, 3 * SEC);
	r = verify();
	ck_assert_int_eq(fp_report_verdict(r, 0), FP_OK);
	ck_assert_int_eq(fp_report_verdict(r, 1), FP_OK);
	fp_report_free(r);
	put_file(1, "TAIL       ", 20, 3, 1);	/* tail-beyond-size */
	r = verify();
	ck_assert_ptr_nonnull(find(r, FP_P_TAIL));
	ck_assert_int_eq(fp_report_verdict(r, 0), FP_OK);
	ck_assert_int_eq(fp_report_verdict(r, 1), FP_E_CORRUPT);
	fp_report_free(r);
	put_fat(4, 3);		/* A: 2 -> 3 -> 4 -> 3, an error */
	r = verify();
	ck_assert_ptr_nonnull(find(r, FP_P_CHAIN_LOOP));
	ck_assert_int_eq(fp_report_verdict(r, 0), FP_E_CORRUPT);
	ck_assert_int_eq(fp_report_verdict(r, 1), FP_E_CORRUPT);
	ck_assert_int_eq(fp_err_class(FP_E_CORRUPT), FP_CLASS_DAMAGED);
	fp_report_free(r);
}
END_TEST

START_TEST(test_lost_chains_and_loops)
{
	struct fp_report *r;
	size_t i, lost = 0;

	put_fat(100, 101);
	put_fat(101, 102);
	put_fat(102, 0xFFFF);	/* a lost chain of 3 from 100 */
	put_fat(200, 201);
	put_fat(201, 200);	/* a lost loop of 2 */
	r = verify();
	for (i = 0; i < fp_report_finding_count(r); i++) {
		if (fp_report_finding(r, i)->problem != FP_P_LOST)
			continue;
		lost++;
		if (fp_report_finding(r, i)->cl == 100)
			ck_assert_uint_eq(fp_report_finding(r, i)->a, 3);
		else
			ck_assert_uint_eq(fp_report_finding(r, i)->cl, 200);
	}
	ck_assert_uint_eq(lost, 2);
	ck_assert_uint_eq(sum(r).lost, 5);
	fp_report_free(r);
}
END_TEST

START_TEST(test_names_and_orphans)
{
	uint16_t u[] = { 'l', 'o', 'n', 'g', 'n', 'a', 'm', 'e' };
	struct fp_report *r;

	put_file(0, "SAME    TXT", 0, 0, 0);
	put_file(1, "SAME    TXT", 0, 0, 0);
	put_file(2, "bad?    TXT", 0, 0, 0);
	/* A long-name slot whose checksum fits no short entry. */
	fp_name_lfn_encode(root_ent(3), u, 8, 1, 0x12);
	put_file(4, "OTHER   TXT", 0, 0, 0);
	r = verify();
	ck_assert_ptr_nonnull(find(r, FP_P_DUP_NAME));
	ck_assert_str_eq(find(r, FP_P_DUP_NAME)->other, "/SAME.TXT");
	ck_assert_ptr_nonnull(find(r, FP_P_BAD_NAME));
	ck_assert_ptr_nonnull(find(r, FP_P_LFN_ORPHAN));
	ck_assert_uint_eq(find(r, FP_P_LFN_ORPHAN)->a, 1);
	fp_report_free(r);
}
END_TEST

START_TEST(test_dir_cycle_and_dots)
{
	uint8_t *d = vol + testvol_cl_off(30);
	struct fp_report *r;

	put_fat(30, 0xFFFF);
	put_ent(root_ent(0), "D          ", FP_ATTR_DIR, 30, 0);
	put_ent(d, ".          ", FP_ATTR_DIR, 30, 0);
	put_ent(d + 32, "..         ", FP_ATTR_DIR, 7, 0);	/* wrong */
	put_ent(d + 64, "E          ", FP_ATTR_DIR, 30, 0);	/* itself */
	r = verify();
	ck_assert_ptr_nonnull(find(r, FP_P_DIR_CYCLE));
	ck_assert_str_eq(find(r, FP_P_DIR_CYCLE)->path, "/D/E");
	ck_assert_ptr_nonnull(find(r, FP_P_DOT));
	ck_assert_uint_eq(sum(r).dirs, 2);
	fp_report_free(r);
}
END_TEST

START_TEST(test_fat_copies_and_bad_values)
{
	struct fp_report *r;
	uint32_t cl;

	fp_put_le16(vol + FAT1 + 2 * 50, 0xFFF7);	/* bad, copy 2 only */
	for (cl = 1000; cl < 1100; cl++)
		put_fat(cl, 0xFFF2);			/* reserved */
	r = verify();
	ck_assert_ptr_nonnull(find(r, FP_P_FAT_MISMATCH));
	ck_assert_uint_eq(find(r, FP_P_FAT_MISMATCH)->cl, 50);
	ck_assert_ptr_null(find(r, FP_P_FAT_MISMATCH_LOST));
	ck_assert_uint_eq(fp_report_problem_count(r, FP_P_FAT_BAD_ENTRY), 100);
	ck_assert_uint_eq(fp_report_dropped(r, FP_P_FAT_BAD_ENTRY),
			  100 - FP_VERIFY_CAP);
	fp_report_free(r);
}
END_TEST

/* Set FAT entry @cl of copy @copy (0 or 1) only. */
static void put_fat_copy(unsigned copy, uint32_t cl, uint16_t v)
{
	fp_put_le16(vol + (copy ? FAT1 : FAT0) + 2 * cl, v);
}

/* The problem that verify() reports about the FAT copies. */
static enum fp_problem copies_problem(void)
{
	struct fp_report *r = verify();
	enum fp_problem p = FP_P_COUNT;

	if (find(r, FP_P_FAT_MISMATCH))
		p = FP_P_FAT_MISMATCH;
	if (find(r, FP_P_FAT_MISMATCH_LOST)) {
		ck_assert_uint_eq(p, FP_P_COUNT);	/* one or the other */
		ck_assert_uint_eq(find(r, FP_P_FAT_MISMATCH_LOST)->a, 2);
		p = FP_P_FAT_MISMATCH_LOST;
	}
	fp_report_free(r);
	return p;
}

/*
 * FAT copies that differ as an interrupted commit leaves them, by lost
 * clusters, are fat-mismatch-lost (a warning); any other difference on
 * a chain that an entry reaches, or in a bad mark, stays fat-mismatch.
 * A: clusters 2-4, which its size needs; D: directory at 10.
 */
START_TEST(test_fat_copies_lost)
{
	struct fp_report *r;

	put_file(0, "A       BIN", 2, 3, 3 * SEC);
	put_ent(root_ent(1), "D          ", FP_ATTR_DIR, 10, 0);
	put_fat(10, 0xFFFF);
	put_ent(vol + testvol_cl_off(10), ".          ", FP_ATTR_DIR, 10, 0);
	put_ent(vol + testvol_cl_off(10) + 32, "..         ", FP_ATTR_DIR, 0,
		0);

	/* a new chain in the active copy only: allocation, first pass */
	put_fat_copy(0, 100, 101);
	put_fat_copy(0, 101, 0xFFFF);
	ck_assert_uint_eq(copies_problem(), FP_P_FAT_MISMATCH_LOST);
	r = verify();
	ck_assert_uint_eq(sum(r).warnings, 1);	/* the errors: a lost chain */
	ck_assert_ptr_nonnull(find(r, FP_P_LOST));
	fp_report_free(r);
	/* the directory grown into it: allocation, second pass */
	put_fat_copy(0, 10, 100);
	put_fat_copy(1, 100, 101);
	put_fat_copy(1, 101, 0xFFFF);
	ck_assert_uint_eq(copies_problem(), FP_P_FAT_MISMATCH_LOST);
	/* the other way round: the other copy has the link */
	put_fat_copy(0, 10, 0xFFFF);
	put_fat_copy(1, 10, 100);
	ck_assert_uint_eq(copies_problem(), FP_P_FAT_MISMATCH_LOST);
	put_fat(10, 0xFFFF);
	/* a tail the active copy freed: trim, second pass */
	put_fat(4, 0xFFFF);
	put_fat_copy(0, 100, 0);
	put_fat_copy(0, 101, 0);
	ck_assert_uint_eq(copies_problem(), FP_P_FAT_MISMATCH_LOST);
	/* a lost cluster that runs into A, free in the active copy */
	put_fat_copy(1, 100, 3);
	ck_assert_uint_eq(copies_problem(), FP_P_FAT_MISMATCH_LOST);
	put_fat(100, 0);
	put_fat(101, 0);

	/* A cut short after its first cluster in the other copy: its size
	 * needs the rest */
	put_fat_copy(1, 2, 0xFFFF);
	ck_assert_uint_eq(copies_problem(), FP_P_FAT_MISMATCH);
	/* ... and ending where the other copy links to clusters it reaches */
	put_fat_copy(1, 2, 3);
	put_fat_copy(0, 4, 0xFFFF);
	put_fat_copy(1, 4, 5);
	put_fat(5, 0xFFFF);
	put_file(1, "B       BIN", 5, 1, SEC);
	ck_assert_uint_eq(copies_problem(), FP_P_FAT_MISMATCH);
	/* a reached link that differs */
	put_fat_copy(1, 4, 0xFFFF);
	put_fat_copy(1, 3, 7);
	put_fat_copy(1, 7, 0xFFFF);
	ck_assert_uint_eq(copies_problem(), FP_P_FAT_MISMATCH);
	put_fat(3, 4);
	put_fat(7, 0);
	/* a cluster of A free in the other copy */
	put_fat_copy(1, 3, 0);
	ck_assert_uint_eq(copies_problem(), FP_P_FAT_MISMATCH);
	put_fat(3, 4);
	/* a bad mark in one copy only, on a lost cluster */
	put_fat_copy(0, 200, 0xFFF7);
	ck_assert_uint_eq(copies_problem(), FP_P_FAT_MISMATCH);
	put_fat(200, 0xFFF7);
	ck_assert_uint_eq(copies_problem(), FP_P_COUNT);
}
END_TEST

START_TEST(test_dirty_and_labels)
{
	struct fp_report *r;

	put_fat(1, 0x7FFF);
	put_ent(root_ent(0), "LABEL1     ", FP_ATTR_VOLUME, 0, 0);
	put_ent(root_ent(1), "LABEL2     ", FP_ATTR_VOLUME, 0, 0);
	r = verify();
	ck_assert_ptr_nonnull(find(r, FP_P_DIRTY));
	ck_assert_ptr_nonnull(find(r, FP_P_LABEL));
	ck_assert_ptr_null(find(r, FP_P_FAT_ENTRY1));
	fp_report_free(r);
}
END_TEST

/*
 * An entry with the volume bit is a label whatever its other bits, as
 * the kernel's vfat and fsck.fat take it: not a directory, and no name
 * that a file of the same name duplicates.
 */
START_TEST(test_label_dir_bit)
{
	struct fp_report *r;

	put_ent(root_ent(0), "DIR        ", FP_ATTR_VOLUME | FP_ATTR_DIR, 0,
		0);
	put_file(1, "DIR        ", 10, 1, 100);
	r = verify();
	ck_assert_uint_eq(sum(r).errors + sum(r).warnings, 0);
	ck_assert_uint_eq(sum(r).dirs, 0);
	fp_report_free(r);
	put_ent(root_ent(2), "LABEL      ", FP_ATTR_VOLUME, 0, 0);
	r = verify();
	find_at(r, FP_P_LABEL, "/");
	ck_assert_ptr_null(find(r, FP_P_DUP_NAME));
	fp_report_free(r);
}
END_TEST

/*
 * An entry after the end-of-directory mark: the FAT specification says
 * every entry after it is free, and mtools stops there, but Linux's vfat
 * and fsck.fat read on and list the file.  An error at the directory,
 * once, counting the live entries; deleted ones there are harmless.
 */
START_TEST(test_after_end)
{
	struct fp_report *r;
	const struct fp_finding *f;

	put_file(0, "A       BIN", 2, 1, 100);
	put_ent(root_ent(2), "GONE    BIN", FP_ATTR_ARCHIVE, 0, 0);
	root_ent(2)[0] = FP_DIRENT_FREE;
	r = verify();
	ck_assert_uint_eq(sum(r).errors + sum(r).warnings, 0);
	fp_report_free(r);
	put_file(3, "B       BIN", 5, 1, 100);
	put_file(5, "C       BIN", 7, 1, 100);
	r = verify();
	f = find_at(r, FP_P_AFTER_END, "/");
	ck_assert_uint_eq(f->a, 2);
	ck_assert_uint_eq(f->b, 3);
	ck_assert_uint_eq(sum(r).files, 1);
	ck_assert_str_eq(fp_problem_code(FP_P_AFTER_END), "after-end");
	ck_assert_int_eq(fp_problem_severity(FP_P_AFTER_END), FP_SEV_ERROR);
	fp_report_free(r);
}
END_TEST

START_TEST(test_format)
{
	struct fp_finding f = { .problem = FP_P_CROSS_LINK, .cl = 77,
				.other = (char *)"/x" };
	char buf[64];

	fp_problem_format(&f, buf, sizeof(buf));
	ck_assert_str_eq(buf, "cluster 77 is also in the chain of /x");
	fp_problem_format(&f, buf, 12);
	ck_assert_uint_lt(strlen(buf), 12);
	ck_assert_str_eq(fp_problem_code(FP_P_TAIL), "tail-beyond-size");
	ck_assert_int_eq(fp_problem_severity(FP_P_TAIL), FP_SEV_WARNING);
}
END_TEST

/*
 * An entry at @at called @name (UTF-8) with the short name @sfn: its
 * long-name slots, then the short entry.  Returns the next free entry.
 */
static uint8_t *put_named(uint8_t *at, const char *name, const char *sfn,
			  uint8_t attr, uint16_t cl, uint32_t size)
{
	uint16_t u[FP_LFN_MAX];
	size_t n;
	unsigned ord;

	ck_assert_int_eq(fp_name_from_utf8(name, strlen(name), u, &n), FP_OK);
	for (ord = fp_name_lfn_slots(n); ord >= 1; ord--, at += 32)
		fp_name_lfn_encode(at, u, n, ord,
				   fp_name_lfn_sum((const uint8_t *)sfn));
	put_ent(at, sfn, attr, cl, size);
	return at + 32;
}

/*
 * A long-name slot with a reserved attribute bit (0x4F): a long-name slot
 * to the FAT specification's mask (0x3F) and to FatFs, a volume label to
 * Linux, mtools and fsck.fat, which then list the file by its short name.
 * Neither reading is safe: the slot is an orphan, and so is the rest of
 * the sequence.
 */
START_TEST(test_lfn_reserved_attr)
{
	struct fp_report *r;

	put_named(root_ent(0), "Long Name.txt", "LONGNA~1TXT", FP_ATTR_ARCHIVE,
		  0, 0);
	r = verify();
	ck_assert_uint_eq(sum(r).errors + sum(r).warnings, 0);
	fp_report_free(r);
	root_ent(0)[DIR_ATTR] = 0x4F;
	r = verify();
	ck_assert_uint_eq(find_at(r, FP_P_LFN_ORPHAN, "/")->a, 1);
	ck_assert_ptr_null(find(r, FP_P_LABEL));
	fp_report_free(r);
}
END_TEST

/*
 * An ordinal with bit 0x20 or 0x80 set: ordinal 1 to mtools and fsck.fat
 * (the low five bits), to Linux and FatFs (every bit but 0x40) 33 or 129,
 * which breaks the sequence.  An orphan.
 */
START_TEST(test_lfn_ordinal_bits)
{
	static const uint8_t bits[] = { 0x20, 0x80 };
	struct fp_report *r;
	unsigned i;

	for (i = 0; i < 2; i++) {
		put_named(root_ent(0), "A long name.txt", "ALONGN~1TXT",
			  FP_ATTR_ARCHIVE, 0, 0);
		r = verify();
		ck_assert_uint_eq(sum(r).errors + sum(r).warnings, 0);
		fp_report_free(r);
		root_ent(1)[FP_LFN_ORD] |= bits[i];	/* ordinal 1 */
		r = verify();
		ck_assert_uint_eq(find_at(r, FP_P_LFN_ORPHAN, "/")->a, 2);
		fp_report_free(r);
	}
}
END_TEST

/* Units 1-4 of the LFN slot at @ent after its first 0 made 0xFFFF, as
 * writers pad them (unit k at byte 1 + 2k; units 5-12 are 0xFFFF). */
static void pad_lfn(uint8_t *ent)
{
	unsigned k = 0;

	while (k < 5 && fp_le16(ent + 1 + 2 * k) != 0)
		k++;
	for (k++; k < 5; k++)
		fp_put_le16(ent + 1 + 2 * k, 0xFFFF);
}

/*
 * Long-name slots that readers take apart: a type byte or a cluster field
 * other than 0 (fsck.fat zeroes them; FatFs drops a slot whose cluster
 * field is not 0), units after the name's end other than 0xFFFF (FatFs
 * drops the slot).  Orphans, as lfn-orphan counts them.
 */
START_TEST(test_lfn_odd_fields)
{
	struct fp_report *r;
	unsigned i;

	for (i = 0; i < 4; i++) {
		put_named(root_ent(0), "xyz", "XYZ        ", FP_ATTR_ARCHIVE,
			  0, 0);
		if (i == 1)
			root_ent(0)[FP_LFN_TYPE] = 1;
		if (i == 2)
			fp_put_le16(root_ent(0) + FP_LFN_CLUSTER, 5);
		if (i == 3)
			fp_put_le16(root_ent(0) + 1 + 2 * 4, 'w');
		r = verify();
		if (i == 0)
			ck_assert_uint_eq(sum(r).errors + sum(r).warnings, 0);
		else
			ck_assert_uint_eq(find_at(r, FP_P_LFN_ORPHAN, "/")->a,
					  1);
		fp_report_free(r);
	}
}
END_TEST

/*
 * Long names that Linux cannot list: with a '/' or empty (its readdir of
 * the whole directory fails with EIO), "." or ".." (a second dot entry),
 * with a surrogate alone (listed without it).  Each case patches units
 * of the one-slot name "xyz" (unit k at byte 1 + 2k); names like those
 * but sound are not flagged.
 */
START_TEST(test_bad_long_names)
{
	static const struct {
		uint16_t units[3];	/* the first units */
		size_t len;
		int bad;
	} cases[] = {
		{ { 'x', '/' }, 2, 1 }, { { 'x', '\\' }, 2, 0 },
		{ { 0 }, 1, 1 }, { { '.', 0 }, 2, 1 },
		{ { '.', '.', 0 }, 3, 1 }, { { '.', '.', '.' }, 3, 0 },
		{ { '.', 'x' }, 2, 0 },
		{ { 0xD83D, 0xDE00 }, 2, 0 },	/* U+1F600, a pair */
		{ { 'x', 0xD83D }, 2, 1 }, { { 0xDE00, 'y' }, 2, 1 },
		{ { 'x', 'y', 0xD800 }, 3, 1 },	/* then 0: alone */
	};
	const struct fp_finding *f;
	struct fp_report *r;
	uint8_t *at;
	size_t i, k;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		at = put_named(root_ent(0), "abc", "ABC        ",
			       FP_ATTR_ARCHIVE, 0, 0);
		put_named(at, "xyz", "XYZ        ", FP_ATTR_ARCHIVE, 0, 0);
		for (k = 0; k < cases[i].len; k++)
			fp_put_le16(root_ent(2) + 1 + 2 * k,
				    cases[i].units[k]);
		pad_lfn(root_ent(2));
		r = verify();
		f = find(r, FP_P_BAD_LFN);
		ck_assert_msg(!f == !cases[i].bad, "case %zu", i);
		if (f) {
			ck_assert_str_eq(f->path, "/");
			ck_assert_uint_eq(f->a, 1);
			ck_assert_uint_eq(f->b, 3);	/* the short entry */
			ck_assert_uint_eq(sum(r).errors, 1);
		}
		fp_report_free(r);
	}
	ck_assert_str_eq(fp_problem_code(FP_P_BAD_LFN), "bad-long-name");
	ck_assert(!fp_problem_fsck_repairs(FP_P_BAD_LFN));
	ck_assert(fp_problem_fsck_repairs(FP_P_LFN_ORPHAN));
}
END_TEST

/*
 * "." and ".." entries in the root, which has none: Linux lists them
 * beside the two it makes up, fsck.fat drops them.  One finding, at "/".
 */
START_TEST(test_root_dots)
{
	const struct fp_finding *f;
	struct fp_report *r;

	put_file(0, "A       BIN", 2, 1, 100);
	put_ent(root_ent(1), ".          ", FP_ATTR_DIR, 0, 0);
	r = verify();
	f = find_at(r, FP_P_ROOT_DOT, "/");
	ck_assert_uint_eq(f->a, 1);
	ck_assert_uint_eq(sum(r).errors, 1);
	fp_report_free(r);
	put_ent(root_ent(2), "..         ", FP_ATTR_DIR, 0, 0);
	r = verify();
	ck_assert_uint_eq(find_at(r, FP_P_ROOT_DOT, "/")->a, 2);
	ck_assert_uint_eq(sum(r).files, 1);
	fp_report_free(r);
	ck_assert_str_eq(fp_problem_code(FP_P_ROOT_DOT), "root-dot");
}
END_TEST

/* A finding the caller made about the volume goes first, and counts. */
START_TEST(test_add_volume)
{
	char msg[160];
	struct fp_report *r;

	put_file(0, "A       BIN", 2, 1, 100);
	put_ent(root_ent(1), ".          ", FP_ATTR_DIR, 0, 0);
	r = verify();
	ck_assert_uint_eq(fp_report_finding_count(r), 1);
	ck_assert_int_eq(fp_report_add_volume(r, FP_P_PART_OVERLAP,
					      "partition 2", 1, 12288), FP_OK);
	ck_assert_uint_eq(fp_report_finding_count(r), 2);
	ck_assert_int_eq(fp_report_finding(r, 0)->problem, FP_P_PART_OVERLAP);
	ck_assert_str_eq(fp_report_finding(r, 0)->path, "");
	ck_assert_str_eq(fp_report_finding(r, 0)->other, "partition 2");
	ck_assert_int_eq(fp_report_finding(r, 1)->problem, FP_P_ROOT_DOT);
	ck_assert_uint_eq(sum(r).errors, 2);
	ck_assert_uint_eq(fp_report_problem_count(r, FP_P_PART_OVERLAP), 1);
	fp_problem_format(fp_report_finding(r, 0), msg, sizeof(msg));
	ck_assert_str_eq(msg, "partition 1 overlaps partition 2 from sector "
			 "12288 of the image, which a write into the volume "
			 "may change");
	ck_assert_str_eq(fp_problem_code(FP_P_PART_OVERLAP),
			 "partition-overlap");
	ck_assert(!fp_problem_fsck_repairs(FP_P_PART_OVERLAP));
	fp_report_free(r);
}
END_TEST

/* 1 if a duplicate-name finding pairs @a and @b, in either order. */
static int has_dup(const struct fp_report *r, const char *a, const char *b)
{
	const struct fp_finding *f;
	size_t i;

	for (i = 0; i < fp_report_finding_count(r); i++) {
		f = fp_report_finding(r, i);
		if (f->problem != FP_P_DUP_NAME || !f->other)
			continue;
		if ((!strcmp(f->path, a) && !strcmp(f->other, b)) ||
		    (!strcmp(f->path, b) && !strcmp(f->other, a)))
			return 1;
	}
	return 0;
}

/*
 * Names equal but for case, long against short and long against long
 * (Latin-1 too), and short names that decode alike; a long name that
 * differs from its own short name only in case is no duplicate.
 */
START_TEST(test_dup_names_case)
{
	uint8_t *at = root_ent(0);
	struct fp_report *r;

	at = put_named(at, "readme.TXT", "README~1TXT", FP_ATTR_ARCHIVE, 0, 0);
	put_ent(at, "README  TXT", FP_ATTR_ARCHIVE, 0, 0);
	at = put_named(at + 32, "Makefile", "MAKEFILE   ", FP_ATTR_ARCHIVE,
		       0, 0);
	at = put_named(at, "\xc3\xa9t\xc3\xa9.txt", "ETE~1   TXT",
		       FP_ATTR_ARCHIVE, 0, 0);
	at = put_named(at, "\xc3\x89T\xc3\x89.TXT", "ETE~2   TXT",
		       FP_ATTR_ARCHIVE, 0, 0);
	put_ent(at, "A.B        ", FP_ATTR_ARCHIVE, 0, 0);
	put_ent(at + 32, "A       B  ", FP_ATTR_ARCHIVE, 0, 0);
	r = verify();
	ck_assert_uint_eq(fp_report_problem_count(r, FP_P_DUP_NAME), 3);
	ck_assert(has_dup(r, "/readme.TXT", "/README.TXT"));
	ck_assert(has_dup(r, "/\xc3\xa9t\xc3\xa9.txt", "/\xc3\x89T\xc3\x89.TXT"));
	ck_assert(has_dup(r, "/A.B", "/A.B"));
	ck_assert_uint_eq(fp_report_problem_count(r, FP_P_BAD_NAME), 1);
	ck_assert_uint_eq(sum(r).files, 7);
	fp_report_free(r);
}
END_TEST

/* Findings two directories down name their long-named paths in full. */
START_TEST(test_deep_paths)
{
	uint8_t *d1 = vol + testvol_cl_off(30), *d2 = vol + testvol_cl_off(31);
	struct fp_report *r;
	uint8_t *at;

	put_fat(30, 0xFFFF);
	put_fat(31, 0xFFFF);
	put_named(root_ent(0), "Long Dir Name", "LONGDI~1   ", FP_ATTR_DIR,
		  30, 0);
	put_ent(d1, ".          ", FP_ATTR_DIR, 30, 0);
	put_ent(d1 + 32, "..         ", FP_ATTR_DIR, 0, 0);
	put_ent(d1 + 64, "SUB        ", FP_ATTR_DIR, 31, 0);
	put_ent(d2, ".          ", FP_ATTR_DIR, 31, 0);
	put_ent(d2 + 32, "..         ", FP_ATTR_DIR, 30, 0);
	put_fat(40, 0xFFFF);
	at = put_named(d2 + 64, "deep file.bin", "DEEPFI~1BIN",
		       FP_ATTR_ARCHIVE, 40, 2 * SEC);		/* short */
	put_ent(at, "bad?    TXT", FP_ATTR_ARCHIVE, 0, 0);
	put_fat(50, 51);
	put_fat(51, 0xFFFF);
	at = put_named(at + 32, "x.bin", "X       BIN", FP_ATTR_ARCHIVE, 50,
		       2 * SEC);
	put_fat(60, 51);					/* into x.bin */
	put_named(at, "y longer name.bin", "YLONGE~1BIN", FP_ATTR_ARCHIVE,
		  60, 2 * SEC);
	r = verify();
	ck_assert_uint_eq(sum(r).dirs, 2);
	ck_assert_uint_eq(sum(r).files, 4);
	find_at(r, FP_P_CHAIN_SHORT, "/Long Dir Name/SUB/deep file.bin");
	find_at(r, FP_P_BAD_NAME, "/Long Dir Name/SUB/bad?.TXT");
	check_xlink(r, "/Long Dir Name/SUB/y longer name.bin", 51,
		    "/Long Dir Name/SUB/x.bin");
	fp_report_free(r);
}
END_TEST

/*
 * Chains at the top of the FAT, where entry()'s groups of neighbouring
 * entries are cut short by the last cluster: a cross-link there and a
 * lost chain just below, found as anywhere else.
 */
START_TEST(test_last_clusters)
{
	const uint32_t max = CLUSTERS + 1;
	const struct fp_finding *f;
	struct fp_report *r;

	put_file(0, "END     BIN", (uint16_t)(max - 2), 3, 3 * SEC);
	put_file(1, "X       BIN", 100, 1, SEC);
	put_fat(100, (uint16_t)max);		/* X: 100 -> max, END's last */
	put_fat(max - 5, (uint16_t)(max - 4));
	put_fat(max - 4, 0xFFFF);		/* lost: max - 5, max - 4 */
	r = verify();
	check_xlink(r, "/X.BIN", max, "/END.BIN");
	f = find(r, FP_P_LOST);
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(f->cl, max - 5);
	ck_assert_uint_eq(f->a, 2);
	ck_assert_uint_eq(sum(r).lost, 2);
	ck_assert_uint_eq(sum(r).used, 6);
	fp_report_free(r);
}
END_TEST

/*
 * A cluster marked free that a chain runs into, or starts at, is one the
 * allocator does not hand out: --verify counts it used, not free, and
 * leaves it out of the largest free run, once however many chains use it.
 */
START_TEST(test_free_taken)
{
	struct fp_report *r;

	put_file(0, "A       BIN", 2, 2, 2 * SEC);
	put_fat(3, 0);			/* A: 2 -> 3, marked free */
	put_file(1, "B       BIN", 50, 1, SEC);
	put_fat(50, 0);			/* B starts at a free cluster */
	put_file(2, "C       BIN", 10, 2, 2 * SEC);
	put_fat(11, 50);		/* C: 10 -> 11 -> 50, B's */
	r = verify();
	ck_assert_ptr_nonnull(find(r, FP_P_CHAIN_FREE));
	ck_assert_ptr_nonnull(find(r, FP_P_BAD_START));
	ck_assert_uint_eq(sum(r).used, 5);	/* 2, 10, 11, and 3 and 50 */
	ck_assert_uint_eq(sum(r).free_cl, CLUSTERS - 5);
	ck_assert_uint_eq(sum(r).used + sum(r).free_cl + sum(r).bad, CLUSTERS);
	ck_assert_uint_eq(sum(r).run_start, 51);
	ck_assert_uint_eq(sum(r).run_count, CLUSTERS + 1 - 50);
	fp_report_free(r);
}
END_TEST

/* The boot sector's label (testvol: "NO NAME", signature 0x29). */
static void boot_label(const char *lab)
{
	memcpy(vol + 43, lab, 11);
}

/* The labels found: @p (or none, FP_P_COUNT) with @other. */
static void check_label_finding(enum fp_problem p, const char *other)
{
	struct fp_report *r = verify();
	const struct fp_finding *f;

	ck_assert_ptr_null(find(r, p == FP_P_BAD_LABEL ?
				FP_P_LABEL_MISMATCH : FP_P_BAD_LABEL));
	if (p == FP_P_COUNT) {
		ck_assert_ptr_null(find(r, FP_P_LABEL_MISMATCH));
		ck_assert_uint_eq(sum(r).errors + sum(r).warnings, 0);
	} else {
		f = find_at(r, p, "");
		ck_assert_ptr_nonnull(f->other);
		ck_assert_str_eq(f->other, other);
		ck_assert_uint_eq(sum(r).errors, 1);
	}
	fp_report_free(r);
}

/*
 * The root's label entry against the boot sector's label, as fsck.fat
 * 4.2 compares them: byte for byte, "NO NAME" standing for none; an
 * empty label, a leading space, control characters or the characters
 * short names may not hold make a bad label; lower case and code page
 * bytes do not.  Without the extended boot signature there is no boot
 * sector label to compare.
 */
START_TEST(test_labels)
{
	check_label_finding(FP_P_COUNT, NULL);
	put_ent(root_ent(0), "LABEL1     ", FP_ATTR_VOLUME, 0, 0);
	check_label_finding(FP_P_LABEL_MISMATCH, "'NO NAME' in the boot "
			    "sector, 'LABEL1' in the root directory");
	boot_label("LABEL1     ");
	check_label_finding(FP_P_COUNT, NULL);
	boot_label("label1     ");
	check_label_finding(FP_P_LABEL_MISMATCH, "'label1' in the boot "
			    "sector, 'LABEL1' in the root directory");
	vol[38] = 0x28;			/* DOS 3.4: no BS_VolLab, boot code */
	vol[54] = 0xFA;
	check_label_finding(FP_P_COUNT, NULL);
	vol[38] = 0x29;
	vol[54] = 'F';
	put_ent(root_ent(0), "label1     ", FP_ATTR_VOLUME, 0, 0);
	check_label_finding(FP_P_COUNT, NULL);
	put_ent(root_ent(0), "LA?EL1     ", FP_ATTR_VOLUME, 0, 0);
	check_label_finding(FP_P_BAD_LABEL, "'LA?EL1' in the root directory");
	put_ent(root_ent(0), "           ", FP_ATTR_VOLUME, 0, 0);
	check_label_finding(FP_P_BAD_LABEL, "'' in the root directory");
	put_ent(root_ent(0), "LA\x01" "EL1     ", FP_ATTR_VOLUME, 0, 0);
	check_label_finding(FP_P_BAD_LABEL,
			    "'LA\xEF\xBF\xBD" "EL1' in the root directory");
	put_ent(root_ent(0), "M\x9aSIK      ", FP_ATTR_VOLUME, 0, 0);
	boot_label("M\x9aSIK      ");
	check_label_finding(FP_P_COUNT, NULL);
	root_ent(0)[0] = 0xE5;		/* deleted: no label in the root */
	check_label_finding(FP_P_LABEL_MISMATCH, "'M\xC3\x9CSIK' in the "
			    "boot sector, none in the root directory");
	boot_label("NO NAME    ");
	check_label_finding(FP_P_COUNT, NULL);
	boot_label("no name    ");
	check_label_finding(FP_P_LABEL_MISMATCH, "'no name' in the boot "
			    "sector, none in the root directory");
	boot_label("           ");
	check_label_finding(FP_P_BAD_LABEL, "'' in the boot sector");
	boot_label("LA:EL1     ");
	check_label_finding(FP_P_BAD_LABEL, "'LA:EL1' in the boot sector");
}
END_TEST

/*
 * The NT byte (DIR_NTRES) says nothing about whether a short name is
 * valid: Windows keeps EFS state there (0x01 encrypted, the padding in
 * 0xE4), and Linux reads only its case bits 0x08 and 0x10.  A ':' is a
 * bad name whatever the byte; a valid name with every other bit set is
 * none (fsck.fat 4.2 took 0x20 for "no 8.3 name" and skipped the check).
 */
START_TEST(test_ntres_bits)
{
	struct fp_report *r;

	put_file(0, "T:ST_E~1PFI", 10, 9, 4112);
	root_ent(0)[DIR_NTRES] = 0x21;
	put_file(1, "TEST_E~2PFI", 30, 9, 4112);
	root_ent(1)[DIR_NTRES] = 0xE5;
	r = verify();
	find_at(r, FP_P_BAD_NAME, "/T:ST_E~1.PFI");
	ck_assert_uint_eq(sum(r).errors + sum(r).warnings, 1);
	ck_assert_uint_eq(sum(r).files, 2);
	fp_report_free(r);
}
END_TEST

/*
 * Signature 0x28 in front of a BS_FilSysType that says FAT: what a cut
 * --label leaves (docs/DESIGN.md "Labels"), boot-label-held, a warning
 * with BS_VolLab, whatever label the root holds and no label mismatch.
 * 0x28 in front of boot code (DOS 3.4, OS/2 1.x) is no finding; nor is
 * "FAT" behind a signature of 0x29 or none.
 */
START_TEST(test_label_held)
{
	static const uint8_t code[19] = { 0xFA, 0x33, 0xC0, 0x8E, 0xD0, 0xBC,
		0x00, 0x7C, 0x16, 0x07, 0xBB, 0x78, 0x00, 0x36, 0xC5, 0x37,
		0x1E, 0x56, 0x16 };
	struct fp_report *r;
	const struct fp_finding *f;
	int i;

	vol[38] = 0x28;
	boot_label("New Label  ");
	for (i = 0; i < 2; i++) {
		r = verify();
		f = find_at(r, FP_P_LABEL_HELD, "");
		ck_assert_str_eq(f->other, "'New Label'");
		ck_assert_int_eq(fp_problem_severity(FP_P_LABEL_HELD),
				 FP_SEV_WARNING);
		ck_assert_uint_eq(sum(r).errors, 0);
		ck_assert_uint_eq(sum(r).warnings, 1);
		fp_report_free(r);
		put_ent(root_ent(0), "OLD LABEL  ", FP_ATTR_VOLUME, 0, 0);
	}
	vol[38] = 0x29;		/* finished: the two labels differ */
	r = verify();
	ck_assert_ptr_null(find(r, FP_P_LABEL_HELD));
	ck_assert_ptr_nonnull(find(r, FP_P_LABEL_MISMATCH));
	fp_report_free(r);
	vol[38] = 0x00;
	check_label_finding(FP_P_COUNT, NULL);
	vol[38] = 0x28;
	memcpy(vol + 43, code, sizeof(code));
	check_label_finding(FP_P_COUNT, NULL);
}
END_TEST

static Suite *verify_suite(void)
{
	Suite *s = suite_create("verify");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_clean);
	tcase_add_test(tc, test_cross_link_names_both_owners);
	tcase_add_test(tc, test_loop_short_tail);
	tcase_add_test(tc, test_verdict);
	tcase_add_test(tc, test_lost_chains_and_loops);
	tcase_add_test(tc, test_names_and_orphans);
	tcase_add_test(tc, test_dir_cycle_and_dots);
	tcase_add_test(tc, test_fat_copies_and_bad_values);
	tcase_add_test(tc, test_fat_copies_lost);
	tcase_add_test(tc, test_dirty_and_labels);
	tcase_add_test(tc, test_label_dir_bit);
	tcase_add_test(tc, test_after_end);
	tcase_add_test(tc, test_lfn_reserved_attr);
	tcase_add_test(tc, test_lfn_ordinal_bits);
	tcase_add_test(tc, test_lfn_odd_fields);
	tcase_add_test(tc, test_bad_long_names);
	tcase_add_test(tc, test_root_dots);
	tcase_add_test(tc, test_add_volume);
	tcase_add_test(tc, test_format);
	tcase_add_test(tc, test_dup_names_case);
	tcase_add_test(tc, test_deep_paths);
	tcase_add_test(tc, test_last_clusters);
	tcase_add_test(tc, test_free_taken);
	tcase_add_test(tc, test_labels);
	tcase_add_test(tc, test_label_held);
	tcase_add_test(tc, test_ntres_bits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(verify_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
