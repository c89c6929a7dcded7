/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_vol.c - unit tests for opening a volume (vol.h). */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "le.h"
#include "tmpdir.h"
#include "vol.h"

#define MIB (1024 * 1024)

/* The counts of @r. */
static struct fp_report_summary sum(const struct fp_report *r)
{
	struct fp_report_summary s;

	fp_report_summary(r, &s);
	return s;
}

static char dir[TEST_TMPL_LEN];
static char img[TEST_TMPL_LEN + 16];

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(test_tmpl(dir, sizeof(dir),
						"check_vol")));
	snprintf(img, sizeof(img), "%s/disk.img", dir);
	ck_assert_int_eq(setenv("IMG", img, 1), 0);
}

static void teardown(void)
{
	char cmd[TEST_TMPL_LEN + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd), 0);
}

/* Run the shell command @cmd, with the image's path in $IMG. */
static void sh(const char *cmd)
{
	ck_assert_msg(system(cmd) == 0, "failed: %s", cmd);
}

/*
 * An 8 MiB image whose MBR (made by sfdisk) holds partition 1 at sector
 * 2048, 8192 sectors long, with a FAT12 volume in it (mkfs.fat --offset).
 */
static void make_mbr(void)
{
	sh("truncate -s 8M \"$IMG\" && echo 'start=2048, size=8192, type=c' | "
	   "sfdisk -q \"$IMG\" >/dev/null 2>&1");
	sh("mkfs.fat --invariant -F 12 --offset 2048 \"$IMG\" 4096 >/dev/null "
	   "2>&1");
}

/* @len bytes of the image at @off. */
static void peek(uint64_t off, uint8_t *buf, size_t len)
{
	FILE *f = fopen(img, "rb");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)off, SEEK_SET), 0);
	ck_assert_uint_eq(fread(buf, 1, len, f), len);
	fclose(f);
}

static void poke(uint64_t off, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(img, "r+b");

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(fseek(f, (long)off, SEEK_SET), 0);
	ck_assert_uint_eq(fwrite(buf, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

/* The whole image, to compare before and after (8 MiB at most). */
static uint8_t *snapshot(void)
{
	uint8_t *buf = malloc(8 * MIB);

	ck_assert_ptr_nonnull(buf);
	peek(0, buf, 8 * MIB);
	return buf;
}

static void same_as(uint8_t *before)
{
	uint8_t *now = snapshot();

	ck_assert_msg(!memcmp(before, now, 8 * MIB), "the image changed");
	free(now);
	free(before);
}

/* Partition 1 is found, by looking and by number, and its FAT opened. */
START_TEST(test_partition)
{
	struct fp_vol_diag d;
	struct fp_vol *vol;
	uint8_t mbr[512], bs[512];
	unsigned part;

	make_mbr();
	peek(0, mbr, sizeof(mbr));
	peek(2048 * 512, bs, sizeof(bs));
	/* what sfdisk and mkfs.fat wrote, read from the bytes */
	ck_assert_uint_eq(fp_le32(mbr + 446 + 8), 2048);
	ck_assert_uint_eq(fp_le16(bs + 510), 0xAA55);
	ck_assert_uint_eq(fp_le16(bs + 19), 8192);
	for (part = 0; part < 2; part++) {
		ck_assert_int_eq(fp_vol_open(img, part, 0, 0, &vol, &d),
				 FP_OK);
		ck_assert_int_eq(d.step, FP_VOL_STEP_DONE);
		ck_assert_uint_eq(d.loc.part, 1);
		ck_assert_uint_eq(d.base, 2048 * 512);
		ck_assert_uint_eq(fp_vol_locate(vol)->part, 1);
		ck_assert_uint_eq(fp_img_base(fp_vol_img(vol)), 2048 * 512);
		ck_assert_ptr_nonnull(fp_vol_fs(vol));
		ck_assert_uint_eq(fp_fs_geom(fp_vol_fs(vol))->type, FP_FAT12);
		ck_assert_int_eq(fp_vol_close(vol, NULL), FP_OK);
	}
	/* an explicit offset reads no table */
	ck_assert_int_eq(fp_vol_open(img, 0, 2048 * 512, FP_VOL_OFFSET |
				     FP_VOL_WRITE, &vol, &d), FP_OK);
	ck_assert_uint_eq(fp_vol_locate(vol)->part, 0);
	ck_assert_uint_eq(fp_img_base(fp_vol_img(vol)), 2048 * 512);
	ck_assert_int_eq(fp_vol_close(vol, NULL), FP_OK);
	ck_assert_int_eq(fp_vol_close(NULL, NULL), FP_OK);
}
END_TEST

/* Zeros: no FAT at offset 0 and no table; no partition 1. */
START_TEST(test_not_fat)
{
	struct fp_vol_diag d;
	struct fp_vol *vol = NULL;
	struct fp_report *r = NULL;

	sh("truncate -s 8M \"$IMG\"");
	ck_assert_int_eq(fp_vol_open(img, 0, 0, 0, &vol, &d), FP_E_NOTFAT);
	ck_assert_int_eq(d.step, FP_VOL_STEP_FS);
	ck_assert_uint_eq(d.base, 0);
	ck_assert_int_eq(fp_vol_open(img, 1, 0, 0, &vol, &d), FP_E_NOPART);
	ck_assert_int_eq(d.step, FP_VOL_STEP_LOCATE);
	ck_assert_int_eq(d.loc.kind, FP_PT_NONE);
	/* past the end of the image */
	ck_assert_int_eq(fp_vol_open(img, 0, 16 * MIB, FP_VOL_OFFSET, &vol,
				     &d), FP_E_TRUNC);
	ck_assert_int_eq(d.step, FP_VOL_STEP_WINDOW);
	ck_assert_uint_eq(d.loc.off, 16 * MIB);
	/* --verify opens no FAT: it is its own finding */
	ck_assert_int_eq(fp_vol_open(img, 0, 0, FP_VOL_NOFS, &vol, &d),
			 FP_OK);
	ck_assert_ptr_null(fp_vol_fs(vol));
	ck_assert_int_eq(fp_vol_verify(vol, NULL, &r), FP_E_NOTFAT);
	ck_assert_ptr_null(r);
	fp_vol_close(vol, NULL);
	/* a file that is not there */
	unlink(img);
	ck_assert_int_ne(fp_vol_open(img, 0, 0, 0, &vol, &d), FP_OK);
	ck_assert_int_eq(d.step, FP_VOL_STEP_OPEN);
	ck_assert_int_eq(d.errnum, ENOENT);
}
END_TEST

/*
 * Partition 2 starts inside partition 1: a writer is refused before it
 * reads the FAT, and the image is unchanged; a reader goes on, and
 * --verify reports it first.
 */
START_TEST(test_overlap)
{
	struct fp_vol_diag d;
	struct fp_vol *vol;
	struct fp_report *r;
	uint8_t e[16] = { 0 };
	char name[64];
	uint8_t *before;

	make_mbr();
	e[4] = 0x83;
	fp_put_le32(e + 8, 6144);
	fp_put_le32(e + 12, 4096);
	poke(446 + 16, e, sizeof(e));
	before = snapshot();

	ck_assert_int_eq(fp_vol_open(img, 0, 0, FP_VOL_WRITE, &vol, &d),
			 FP_E_PTABLE);
	ck_assert_int_eq(d.step, FP_VOL_STEP_OVERLAP);
	ck_assert_uint_eq(d.loc.part, 1);
	ck_assert_int_eq(d.loc.overlap.found, 1);
	ck_assert_uint_eq(d.loc.overlap.other, 2);
	ck_assert_uint_eq(d.loc.overlap.off, 6144 * 512);
	fp_vol_overlap_name(&d.loc.overlap, name, sizeof(name));
	ck_assert_str_eq(name, "partition 2");
	same_as(before);

	ck_assert_int_eq(fp_vol_open(img, 0, 0, FP_VOL_NOWRITE | FP_VOL_NOFS,
				     &vol, &d), FP_OK);
	ck_assert_int_eq(fp_vol_locate(vol)->overlap.found, 1);
	ck_assert_int_eq(fp_vol_verify(vol, NULL, &r), FP_OK);
	ck_assert_uint_ge(fp_report_finding_count(r), 1);
	ck_assert_int_eq(fp_report_finding(r, 0)->problem, FP_P_PART_OVERLAP);
	ck_assert_str_eq(fp_report_finding(r, 0)->other, "partition 2");
	ck_assert_uint_eq(fp_report_finding(r, 0)->a, 1);
	ck_assert_uint_eq(fp_report_finding(r, 0)->b, 6144);
	ck_assert_uint_ge(sum(r).errors, 1);
	fp_report_free(r);
	fp_vol_close(vol, NULL);
}
END_TEST

/* A GPT whose primary header is gone is read through its backup. */
START_TEST(test_gpt_backup)
{
	static const uint8_t zero[8];
	struct fp_vol_diag d;
	struct fp_vol *vol;
	struct fp_report *r;
	uint8_t sig[8];

	sh("truncate -s 8M \"$IMG\" && printf 'label: gpt\\nstart=2048, "
	   "size=8192, type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7\\n' | "
	   "sfdisk -q \"$IMG\" >/dev/null 2>&1");
	sh("mkfs.fat --invariant -F 12 --offset 2048 \"$IMG\" 4096 >/dev/null "
	   "2>&1");
	peek(512, sig, sizeof(sig));
	ck_assert(!memcmp(sig, "EFI PART", 8));
	poke(512, zero, sizeof(zero));
	ck_assert_int_eq(fp_vol_open(img, 0, 0, FP_VOL_NOFS, &vol, &d),
			 FP_OK);
	ck_assert_int_eq(d.loc.gpt_backup, 1);
	ck_assert_uint_eq(fp_vol_locate(vol)->part, 1);
	ck_assert_int_eq(fp_vol_verify(vol, NULL, &r), FP_OK);
	ck_assert_uint_ge(fp_report_finding_count(r), 1);
	ck_assert_int_eq(fp_report_finding(r, 0)->problem, FP_P_GPT_PRIMARY);
	ck_assert_uint_eq(fp_report_finding(r, 0)->a, 1);
	fp_report_free(r);
	fp_vol_close(vol, NULL);
}
END_TEST

/* A writer's lock keeps a reader out, which is told, and the disk is not. */
START_TEST(test_locked)
{
	struct fp_vol_diag d;
	struct fp_vol *w, *ro;

	make_mbr();
	ck_assert_int_eq(fp_vol_open(img, 0, 0, FP_VOL_WRITE, &w, &d), FP_OK);
	ck_assert_int_eq(fp_vol_open(img, 0, 0, 0, &ro, &d), FP_E_LOCKED);
	ck_assert_int_eq(d.step, FP_VOL_STEP_LOCK);
	ck_assert_str_eq(d.disk, "");
	ck_assert_int_eq(fp_vol_close(w, NULL), FP_OK);
	ck_assert_int_eq(fp_vol_open(img, 0, 0, 0, &ro, &d), FP_OK);
	fp_vol_close(ro, NULL);
}
END_TEST

/* Open the image at offset 0 for writing and ask fp_vol_check(). */
static enum fp_err check(struct fp_fs_diag *diag)
{
	struct fp_vol_diag d;
	struct fp_vol *vol;
	enum fp_err err;

	memset(diag, 0, sizeof(*diag));
	ck_assert_int_eq(fp_vol_open(img, 0, 0, FP_VOL_WRITE | FP_VOL_OFFSET,
				     &vol, &d), FP_OK);
	err = fp_vol_check(vol, diag);
	ck_assert_int_eq(fp_vol_close(vol, NULL), FP_OK);
	return err;
}

/*
 * A writer's check: clean; FAT copy 2 without the chain of a file, an
 * error; copy 2 with a lost cluster only, as an interrupted run leaves
 * it, none; the dirty bit.  Bytes patched at offsets read from the BPB.
 */
START_TEST(test_check)
{
	struct fp_fs_diag diag;
	uint8_t bs[512], b[2], e[2];
	uint64_t fat2;

	sh("mkfs.fat -C --invariant -F 12 -s 1 \"$IMG\" 2048 >/dev/null && "
	   "echo hello | MTOOLS_SKIP_CHECK=1 mcopy -i \"$IMG\" - ::A.TXT");
	peek(0, bs, sizeof(bs));
	ck_assert_uint_eq(fp_le16(bs + 11), 512);
	ck_assert_uint_eq(bs[16], 2);
	fat2 = (uint64_t)(fp_le16(bs + 14) + fp_le16(bs + 22)) * 512;
	ck_assert_int_eq(check(&diag), FP_OK);

	/* cluster 100 (bytes 150-151, low 12 bits) lost in copy 2 */
	peek(fat2 + 150, e, 2);
	ck_assert(e[0] == 0 && !(e[1] & 0x0F));
	b[0] = 0xFF;
	b[1] = e[1] | 0x0F;
	poke(fat2 + 150, b, 2);
	ck_assert_int_eq(check(&diag), FP_OK);
	poke(fat2 + 150, e, 2);

	/* A.TXT's cluster 2 (bytes 3-4, low 12 bits) free in copy 2 */
	peek(fat2 + 3, e, 2);
	ck_assert_uint_eq(e[0] | (e[1] & 0x0F) << 8, 0xFFF);
	b[0] = 0;
	b[1] = e[1] & 0xF0;
	poke(fat2 + 3, b, 2);
	ck_assert_int_eq(check(&diag), FP_E_FATDIFF);
	ck_assert_uint_eq(diag.copy, 1);
	ck_assert_uint_eq(diag.first_cl, 2);
	ck_assert_uint_eq(diag.diff_count, 1);
	poke(fat2 + 3, e, 2);

	bs[37] |= 1;
	poke(0, bs, sizeof(bs));
	ck_assert_int_eq(check(&diag), FP_E_DIRTY);
}
END_TEST

static Suite *vol_suite(void)
{
	Suite *s = suite_create("vol");
	TCase *tc = tcase_create("open");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_partition);
	tcase_add_test(tc, test_not_fat);
	tcase_add_test(tc, test_overlap);
	tcase_add_test(tc, test_gpt_backup);
	tcase_add_test(tc, test_locked);
	tcase_add_test(tc, test_check);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(vol_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
