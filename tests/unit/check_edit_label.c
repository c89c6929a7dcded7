/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * check_edit_label.c - label changes: the name as mkfs.fat checks it, the
 * root's entry and the boot sectors together, the serial kept, and a cut
 * at any write leaving no label mismatch.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dir.h"
#include "edit_label.h"
#include "le.h"
#include "plan.h"
#include "verify.h"
#include "tmpdir.h"

/* Names as mkfs.fat 4.2 takes them; what it refuses, refused. */
START_TEST(test_check)
{
	static const struct {
		const char *name;
		enum fp_err err;
		const char *lab;
	} t[] = {
		{ "BOOT", FP_OK, "BOOT       " },
		{ "lower Case", FP_OK, "lower Case " },
		{ "12345678901", FP_OK, "12345678901" },
		{ "caf\xc3\xa9", FP_OK, "caf\x82       " },
		{ "a-b_c!#$%&'", FP_OK, "a-b_c!#$%&'" },
		{ "123456789012", FP_E_NAMELEN, NULL },
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", FP_OK,
		  "\x82\x82\x82\x82\x82\x82     " },
		{ " lead", FP_E_NAME, NULL }, { "a.b", FP_E_NAME, NULL },
		{ "a*b", FP_E_NAME, NULL }, { "a?", FP_E_NAME, NULL },
		{ "a,b", FP_E_NAME, NULL }, { "a;b", FP_E_NAME, NULL },
		{ "a:b", FP_E_NAME, NULL }, { "a/b", FP_E_NAME, NULL },
		{ "a\\b", FP_E_NAME, NULL }, { "a|b", FP_E_NAME, NULL },
		{ "a+b", FP_E_NAME, NULL }, { "a=b", FP_E_NAME, NULL },
		{ "a<b", FP_E_NAME, NULL }, { "a>b", FP_E_NAME, NULL },
		{ "a[b", FP_E_NAME, NULL }, { "a]b", FP_E_NAME, NULL },
		{ "a\"b", FP_E_NAME, NULL }, { "a\tb", FP_E_NAME, NULL },
		{ "\xe2\x82\xac", FP_E_NAME, NULL },	/* no euro in 437 */
		{ "\xcf\x83x", FP_E_NAME, NULL },	/* sigma: 0xE5 */
		{ "\xff", FP_E_NAME, NULL },
		{ "\xf0\x9f\x98\x80", FP_E_NAME, NULL },
	};
	uint8_t lab[11];
	int remove = 7;
	size_t i;

	for (i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		memset(lab, 0x55, sizeof(lab));
		ck_assert_msg(fp_edit_label_check(t[i].name, lab, &remove) ==
			      t[i].err, "'%s'", t[i].name);
		if (t[i].err) {
			ck_assert_uint_eq(lab[0], 0x55);
			continue;
		}
		ck_assert_msg(!memcmp(lab, t[i].lab, 11), "'%s'", t[i].name);
		ck_assert_int_eq(remove, 0);
	}
	ck_assert_int_eq(fp_edit_label_check("", lab, &remove), FP_OK);
	ck_assert(!memcmp(lab, "NO NAME    ", 11));
	ck_assert_int_eq(remove, 1);
}
END_TEST

static uint8_t *base;
static uint64_t base_len;

/* base: mkfs.fat -F @bits -s 1 @args of @kib KiB. */
static void make_image(unsigned bits, unsigned kib, const char *args)
{
	char dir[TEST_TMPL_LEN], path[TEST_TMPL_LEN + 16];
	char cmd[TEST_TMPL_LEN + 160];
	FILE *f;

	ck_assert_ptr_nonnull(
		mkdtemp(test_tmpl(dir, sizeof(dir), "check_edit_label")));
	snprintf(path, sizeof(path), "%s/x.img", dir);
	snprintf(cmd, sizeof(cmd), "mkfs.fat -C --invariant -F %u -s 1 %s "
		 "'%s' %u >/dev/null 2>&1", bits, args, path, kib);
	ck_assert_msg(system(cmd) == 0, "mkfs.fat (dosfstools) is needed");
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	base_len = (uint64_t)ftell(f);
	rewind(f);
	free(base);
	base = malloc(base_len);
	ck_assert_ptr_nonnull(base);
	ck_assert_uint_eq(fread(base, 1, base_len, f), base_len);
	fclose(f);
	unlink(path);
	rmdir(dir);
}

static void teardown(void)
{
	free(base);
	base = NULL;
}

/* Plan and commit the label @name on @img; the first error. */
static enum fp_err label_run(struct fp_img *img, const char *name)
{
	struct fp_req r = { "/", 0 };
	struct fp_req_edit ed = { FP_REQ_LABEL, 0, name, 0, 0 };
	struct fp_plan_opts o = { .time = 1700000000, .utc = 1,
				   .edits = &ed };
	struct fp_plan_diag diag;
	struct fp_plan *plan = NULL;
	struct fp_fs *fs = NULL;
	enum fp_err err;

	err = fp_fs_open(img, &fs);
	if (!err)
		err = fp_plan_build(fs, &o, &r, 1, &plan, &diag);
	if (!err)
		err = fp_plan_commit(plan, 1);
	fp_plan_free(plan);
	fp_fs_free(fs);
	return err;
}

/* The label of @img as fp_edit_label_read() finds it ("" for none). */
static void read_label(struct fp_img *img, char out[12])
{
	struct fp_fs *fs;
	uint8_t lab[11];
	int found;

	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	ck_assert_int_eq(fp_edit_label_read(fs, lab, &found), FP_OK);
	memcpy(out, found ? (const char *)lab : "", found ? 11 : 1);
	out[11] = '\0';
	fp_fs_free(fs);
}

/*
 * Findings a cut label change may leave: on FAT12/16 boot-label-held,
 * exactly while sector 0's signature reads 0x28 (the raw bytes, not the
 * decoder's label_held: byte 38, "FAT" at 54), else none; on FAT32 a backup
 * boot sector whose label differs; never a label mismatch.
 */
static void check_cut(struct fp_img *img, unsigned long k)
{
	const uint8_t *d = fp_img_mem_data(img);
	int fat32 = !fp_le16(d + 22), held = 0;
	int want = !fat32 && d[38] == 0x28 && !memcmp(d + 54, "FAT", 3);
	struct fp_report *r;
	size_t i;

	ck_assert_int_eq(fp_verify(img, &r), FP_OK);
	for (i = 0; i < fp_report_finding_count(r); i++) {
		enum fp_problem p = fp_report_finding(r, i)->problem;

		held += p == FP_P_LABEL_HELD;
		ck_assert_msg(fat32 ? p == FP_P_BOOT_BACKUP_LABEL :
			      p == FP_P_LABEL_HELD, "write %lu: %s", k,
			      fp_problem_code(p));
	}
	ck_assert_msg(held == want, "write %lu: boot-label-held %d times, "
		      "signature %02x", k, held, d[fat32 ? 66 : 38]);
	fp_report_free(r);
}

/* Offsets of BS_VolLab and BS_BootSig of a FAT type. */
static unsigned lab_off(unsigned bits)
{
	return bits == 32 ? 71 : 43;
}

static unsigned sig_off(unsigned bits)
{
	return bits == 32 ? 66 : 38;
}

/*
 * OLDLABEL to "New Label" and then removed, on FAT12, FAT16 and FAT32:
 * the root's entry, sector 0 and the backup say it; the serial, the
 * signature and every other byte of the boot sectors are kept; cut at
 * every write, each state reads the old or the new label and --verify
 * finds no label mismatch.
 */
START_TEST(test_set_remove_cut)
{
	static const unsigned spec[][2] = { { 12, 1024 }, { 16, 8192 },
					    { 32, 33792 } };
	static const char *const names[] = { "New Label", "" };
	unsigned bits = spec[_i][0];
	unsigned long total, k;
	struct fp_img *img;
	uint8_t *before, *after;
	const uint8_t *d;
	char got[12], old[12];
	size_t n, j;

	make_image(bits, spec[_i][1], "-n OLDLABEL");
	for (n = 0; n < 2; n++) {
		before = malloc(base_len);
		ck_assert_ptr_nonnull(before);
		memcpy(before, base, base_len);
		ck_assert_int_eq(fp_img_mem(before, base_len, &img), FP_OK);
		read_label(img, old);
		ck_assert_int_eq(label_run(img, names[n]), FP_OK);
		total = fp_img_write_count(img);
		d = fp_img_mem_data(img);
		read_label(img, got);
		ck_assert_str_eq(got, n ? "" : "New Label  ");
		ck_assert(!memcmp(d + lab_off(bits),
				  n ? "NO NAME    " : "New Label  ", 11));
		ck_assert_uint_eq(d[sig_off(bits)], 0x29);
		/* outside the label, sector 0 is as it was (serial too) */
		for (j = 0; j < 512; j++)
			if (j < lab_off(bits) || j >= lab_off(bits) + 11u)
				ck_assert_msg(d[j] == before[j], "byte %zu", j);
		if (bits == 32)
			ck_assert(!memcmp(d, d + 6 * 512, 512));
		check_cut(img, 0);
		after = malloc(base_len);
		ck_assert_ptr_nonnull(after);
		memcpy(after, d, base_len);
		fp_img_close(img);
		/* the same again writes nothing */
		ck_assert_int_eq(fp_img_mem(after, base_len, &img), FP_OK);
		ck_assert_int_eq(label_run(img, names[n]), FP_OK);
		ck_assert_uint_eq(fp_img_write_count(img), 0);
		fp_img_close(img);
		ck_assert_uint_ge(total, 2);
		for (k = 1; k <= total; k++) {
			ck_assert_int_eq(fp_img_mem(before, base_len, &img),
					 FP_OK);
			fp_img_fault(img, FP_IMG_FAULT_WRITE, k, EIO);
			ck_assert_int_eq(label_run(img, names[n]), FP_E_IO);
			check_cut(img, k);
			read_label(img, got);
			ck_assert_msg(!strcmp(got, old) ||
				      !strcmp(got, n ? "" : "New Label  "),
				      "write %lu: label '%s'", k, got);
			/* the same change again finishes it */
			fp_img_fault(img, FP_IMG_FAULT_NONE, 0, 0);
			ck_assert_int_eq(label_run(img, names[n]), FP_OK);
			ck_assert_msg(!memcmp(fp_img_mem_data(img), after,
					      base_len),
				      "write %lu: not finished", k);
			d = fp_img_mem_data(img);
			ck_assert_uint_eq(d[sig_off(bits)], 0x29);
			ck_assert(!memcmp(d + lab_off(bits),
					  n ? "NO NAME    " : "New Label  ",
					  11));
			if (bits == 32)
				ck_assert(!memcmp(d, d + 6 * 512, 512));
			fp_img_close(img);
		}
		free(base);
		base = after;
		free(before);
	}
}
END_TEST

/*
 * No label entry yet: one is made in the first free slot, stamped; a
 * full FAT12/16 root refuses it (FP_E_ROOTFULL) and nothing is written.
 */
START_TEST(test_create_and_root_full)
{
	struct fp_img *img;
	const uint8_t *d;
	char got[12];
	uint32_t i;

	make_image(12, 1024, "-r 16");
	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	read_label(img, got);
	ck_assert_str_eq(got, "");
	ck_assert_int_eq(label_run(img, "MADE"), FP_OK);
	read_label(img, got);
	ck_assert_str_eq(got, "MADE       ");
	d = fp_img_mem_data(img);
	ck_assert(!memcmp(d + 43, "MADE       ", 11));
	fp_img_close(img);
	/* fill the 16 root entries, then ask for a label */
	for (i = 0; i < 16; i++) {
		uint8_t *e = base + 512 * (1 + 2 * fp_le16(base + 22)) + 32 * i;

		memcpy(e, "F          ", 11);
		e[1] = (uint8_t)('A' + i);
		e[DIR_ATTR] = FP_ATTR_ARCHIVE;
	}
	ck_assert_int_eq(fp_img_mem(base, base_len, &img), FP_OK);
	ck_assert_int_eq(label_run(img, "FULL"), FP_E_ROOTFULL);
	ck_assert_uint_eq(fp_img_write_count(img), 0);
	fp_img_close(img);
}
END_TEST

static Suite *edit_label_suite(void)
{
	Suite *s = suite_create("edit_label");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_check);
	tcase_add_checked_fixture(tc, NULL, teardown);
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_set_remove_cut, 0, 3);
	tcase_add_test(tc, test_create_and_root_full);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(edit_label_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
