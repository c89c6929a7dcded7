/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_ptable.c - unit tests for MBR/GPT partition tables and CRC-32. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "le.h"
#include "ptable.h"
#include "tmpdir.h"

#define SEC 512u

/* The test's own copy of the layouts (MBR conventions, UEFI spec). */
enum {
	M_TABLE = 446, M_ENT = 16, M_SIG = 510,
	G_REV = 8, G_HSIZE = 12, G_HCRC = 16, G_MY = 24, G_ALT = 32,
	G_FIRST_USE = 40, G_LAST_USE = 48, G_DISK = 56, G_ELBA = 72,
	G_ECOUNT = 80, G_ESIZE = 84, G_ECRC = 88,
	E_UNIQ = 16, E_FIRST = 32, E_LAST = 40, E_NAME = 56,
};

static const uint8_t guid_basic[16] = {	/* EBD0A0A2-B9E5-4433-... */
	0xA2, 0xA0, 0xD0, 0xEB, 0xE5, 0xB9, 0x33, 0x44,
	0x87, 0xC0, 0x68, 0xB6, 0xB7, 0x26, 0x99, 0xC7,
};

static const uint8_t guid_esp[16] = {	/* C12A7328-F81F-11D2-... */
	0x28, 0x73, 0x2A, 0xC1, 0x1F, 0xF8, 0xD2, 0x11,
	0xBA, 0x4B, 0x00, 0xA0, 0xC9, 0x3E, 0xC9, 0x3B,
};

static const uint8_t guid_linux[16] = {	/* 0FC63DAF-8483-4772-... */
	0xAF, 0x3D, 0xC6, 0x0F, 0x83, 0x84, 0x72, 0x47,
	0x8E, 0x79, 0x3D, 0x69, 0xD8, 0x47, 0x7D, 0xE4,
};

/* Basic data written in plain big-endian order: not the FAT type. */
static const uint8_t guid_basic_be[16] = {
	0xEB, 0xD0, 0xA0, 0xA2, 0xB9, 0xE5, 0x44, 0x33,
	0x87, 0xC0, 0x68, 0xB6, 0xB7, 0x26, 0x99, 0xC7,
};

static void put_le64(uint8_t *p, uint64_t v)
{
	fp_put_le32(p, (uint32_t)v);
	fp_put_le32(p + 4, (uint32_t)(v >> 32));
}

/* --- helpers --- */

/* Read the table of @len bytes at @buf through a memory image. */
static enum fp_err read_mem(const uint8_t *buf, uint64_t len,
			    struct fp_ptable *pt)
{
	struct fp_img *img;
	enum fp_err err;

	ck_assert_int_eq(fp_img_mem(buf, len, &img), FP_OK);
	err = fp_ptable_read(img, pt);
	fp_img_close(img);
	return err;
}

/* The read must fail with @want and leave *pt alone. */
static void expect_err(const uint8_t *buf, uint64_t len, enum fp_err want)
{
	struct fp_ptable pt, orig;

	memset(&pt, 0xA5, sizeof(pt));
	orig = pt;
	ck_assert_int_eq(read_mem(buf, len, &pt), want);
	ck_assert(memcmp(&pt, &orig, sizeof(pt)) == 0);
}

static void expect_none(const uint8_t *buf, uint64_t len)
{
	struct fp_ptable pt;

	ck_assert_int_eq(read_mem(buf, len, &pt), FP_OK);
	ck_assert_int_eq(pt.kind, FP_PT_NONE);
	ck_assert_uint_eq(pt.count, 0);
	ck_assert_ptr_null(pt.parts);
	fp_ptable_release(&pt);
}

static const struct fp_part *part(const struct fp_ptable *pt, unsigned n,
				  uint64_t off, uint64_t len, int fat)
{
	const struct fp_part *p = fp_ptable_find(pt, n);

	ck_assert_msg(p != NULL, "no partition %u", n);
	ck_assert_uint_eq(p->number, n);
	ck_assert_uint_eq(p->off, off);
	ck_assert_uint_eq(p->len, len);
	ck_assert_int_eq(p->fat_type, fat);
	return p;
}

static void mbr_ent(uint8_t *sec, unsigned slot, uint8_t boot, uint8_t type,
		    uint32_t lba, uint32_t secs)
{
	uint8_t *e = sec + M_TABLE + slot * M_ENT;

	memset(e, 0, M_ENT);
	e[0] = boot;
	e[4] = type;
	fp_put_le32(e + 8, lba);
	fp_put_le32(e + 12, secs);
	sec[M_SIG] = 0x55;
	sec[M_SIG + 1] = 0xAA;
}

static uint8_t *zalloc(uint64_t len)
{
	uint8_t *d = calloc(1, (size_t)len);

	ck_assert_ptr_nonnull(d);
	return d;
}

/* --- CRC-32 --- */

/* Expected values from Python's zlib.crc32, an independent CRC-32. */
START_TEST(test_crc32)
{
	static const char check[] = "123456789";
	static const char fox[] =
		"The quick brown fox jumps over the lazy dog";
	uint8_t zeros[32], ones[32];
	size_t n = strlen(fox), k;

	memset(zeros, 0, sizeof(zeros));
	memset(ones, 0xFF, sizeof(ones));
	ck_assert_uint_eq(fp_ptable_crc32(0, check, 9), 0xCBF43926u);
	ck_assert_uint_eq(fp_ptable_crc32(0, fox, n), 0x414FA339u);
	ck_assert_uint_eq(fp_ptable_crc32(0, "a", 1), 0xE8B7BE43u);
	ck_assert_uint_eq(fp_ptable_crc32(0, zeros, 32), 0x190A55ADu);
	ck_assert_uint_eq(fp_ptable_crc32(0, ones, 32), 0xFF6CAB0Bu);
	ck_assert_uint_eq(fp_ptable_crc32(0, NULL, 0), 0);
	ck_assert_uint_eq(fp_ptable_crc32(0x12345678u, "", 0), 0x12345678u);
	for (k = 0; k <= n; k++)
		ck_assert_uint_eq(fp_ptable_crc32(fp_ptable_crc32(0, fox, k),
						  fox + k, n - k), 0x414FA339u);
}
END_TEST

/* --- MBR --- */

START_TEST(test_mbr_none)
{
	uint8_t *d = zalloc(4096);

	expect_none(d, 100);
	expect_none(d, 0);
	expect_none(d, 4096);
	mbr_ent(d, 0, 0, 0, 0, 0);	/* signature, all entries empty */
	expect_none(d, 4096);
	mbr_ent(d, 1, 0x12, 0x0C, 1, 7);	/* boot code, not a table */
	expect_none(d, 4096);
	mbr_ent(d, 1, 0x80, 0x0C, 1, 7);
	d[M_SIG + 1] = 0xAB;
	expect_none(d, 4096);
	d[M_SIG + 1] = 0xAA;
	expect_none(d, 511);		/* shorter than a sector */
	free(d);
}
END_TEST

/*
 * fp_ptable_claims(): Linux's reading of a table (signature, boot flags
 * 0x00/0x80), counting only entries that start past sector 0 and inside
 * the image; the rest of the table is not checked.
 */
START_TEST(test_mbr_claims)
{
	uint8_t sec[SEC];
	uint64_t len = 2048 * SEC;

	memset(sec, 0, sizeof(sec));
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_NONE);
	mbr_ent(sec, 0, 0x00, 0x00, 0, 0);	/* signature, no entry */
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_NONE);
	mbr_ent(sec, 0, 0x80, 0x06, 0, 2048);	/* mkfs.fat --mbr */
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_NONE);
	mbr_ent(sec, 1, 0x00, 0x83, 2048, 0);	/* no sectors */
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_NONE);
	mbr_ent(sec, 1, 0x00, 0x83, 2048, 1);	/* starts at the end */
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_NONE);
	mbr_ent(sec, 1, 0x00, 0x83, 2047, 100);	/* runs past the end */
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_MBR);
	ck_assert_int_eq(fp_ptable_claims(sec, 2047 * SEC), FP_PT_NONE);
	ck_assert_int_eq(fp_ptable_claims(sec, 0), FP_PT_NONE);
	sec[M_TABLE + 3 * M_ENT] = 0x01;	/* a flag of boot code */
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_NONE);
	sec[M_TABLE + 3 * M_ENT] = 0x80;
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_MBR);
	sec[M_SIG] = 0x54;
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_NONE);
	memset(sec, 0, sizeof(sec));
	mbr_ent(sec, 0, 0x00, 0xEE, 1, 2047);	/* protective MBR */
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_GPT);
	mbr_ent(sec, 0, 0x00, 0xEE, 0, 2048);
	ck_assert_int_eq(fp_ptable_claims(sec, len), FP_PT_NONE);
}
END_TEST

START_TEST(test_mbr_primary)
{
	uint8_t *d = zalloc(2049 * SEC);
	struct fp_ptable pt;
	const struct fp_part *p;

	mbr_ent(d, 0, 0x00, 0x0C, 63, 100);
	mbr_ent(d, 2, 0x00, 0x83, 200, 1848);	/* ends at the image end */
	mbr_ent(d, 3, 0x80, 0xEF, 163, 10);
	ck_assert_int_eq(read_mem(d, 2048 * SEC, &pt), FP_OK);
	ck_assert_int_eq(pt.kind, FP_PT_MBR);
	ck_assert_uint_eq(pt.count, 3);
	ck_assert_int_eq(pt.gpt_backup, 0);
	p = part(&pt, 1, 63 * SEC, 100 * SEC, 1);
	ck_assert_uint_eq(p->mbr_type, 0x0C);
	ck_assert(memcmp(p->gpt_type, (uint8_t[16]){ 0 }, 16) == 0);
	p = part(&pt, 3, 200 * SEC, 1848 * SEC, 0);
	ck_assert_uint_eq(p->mbr_type, 0x83);
	part(&pt, 4, 163 * SEC, 10 * SEC, 1);
	ck_assert_ptr_null(fp_ptable_find(&pt, 2));
	ck_assert_ptr_null(fp_ptable_find(&pt, 0));
	ck_assert_ptr_null(fp_ptable_find(&pt, 5));
	ck_assert_ptr_null(fp_ptable_find(NULL, 1));
	fp_ptable_release(&pt);
	ck_assert_ptr_null(pt.parts);
	ck_assert_uint_eq(pt.count, 0);
	fp_ptable_release(&pt);
	fp_ptable_release(NULL);
	/* A length that is not a whole number of sectors. */
	ck_assert_int_eq(read_mem(d, 2048 * SEC + 100, &pt), FP_OK);
	fp_ptable_release(&pt);
	free(d);
}
END_TEST

START_TEST(test_mbr_fat_types)
{
	static const uint8_t fat[] = { 0x01, 0x04, 0x06, 0x0B, 0x0C, 0x0E,
				       0xEF };
	uint8_t *d = zalloc(64 * SEC);
	struct fp_ptable pt;
	unsigned t, i;
	int want;

	for (t = 1; t < 256; t++) {
		if (t == 0x05 || t == 0x0F || t == 0x85 || t == 0xEE)
			continue;
		mbr_ent(d, 1, 0, (uint8_t)t, 8, 8);
		want = 0;
		for (i = 0; i < sizeof(fat); i++)
			want |= fat[i] == t;
		ck_assert_int_eq(read_mem(d, 64 * SEC, &pt), FP_OK);
		ck_assert_uint_eq(pt.count, 1);
		ck_assert_uint_eq(pt.parts[0].mbr_type, t);
		ck_assert_msg(pt.parts[0].fat_type == want, "type %#x", t);
		fp_ptable_release(&pt);
	}
	free(d);
}
END_TEST

/*
 * 4 MiB: FAT in slot 1, extended [4096, 8192) in slot 2 with EBRs at
 * 4096 and 5096; logicals 5 at 4159 and 6 at 5097.
 */
static uint8_t *make_logicals(void)
{
	uint8_t *d = zalloc(8192 * SEC);

	mbr_ent(d, 0, 0x80, 0x0E, 2048, 1024);
	mbr_ent(d, 1, 0x00, 0x0F, 4096, 4096);
	mbr_ent(d + 4096 * SEC, 0, 0, 0x0B, 63, 937);
	mbr_ent(d + 4096 * SEC, 1, 0, 0x05, 1000, 1000);
	mbr_ent(d + 5096 * SEC, 0, 0, 0x83, 1, 2000);
	return d;
}

START_TEST(test_mbr_logical)
{
	uint8_t *d = make_logicals();
	struct fp_ptable pt;
	const struct fp_part *p;

	ck_assert_int_eq(read_mem(d, 8192 * SEC, &pt), FP_OK);
	ck_assert_int_eq(pt.kind, FP_PT_MBR);
	ck_assert_uint_eq(pt.count, 4);
	part(&pt, 1, 2048 * SEC, 1024 * SEC, 1);
	p = part(&pt, 2, 4096 * SEC, 4096 * SEC, 0);
	ck_assert_uint_eq(p->mbr_type, 0x0F);
	p = part(&pt, 5, 4159 * SEC, 937 * SEC, 1);
	ck_assert_uint_eq(p->mbr_type, 0x0B);
	p = part(&pt, 6, 5097 * SEC, 2000 * SEC, 0);
	ck_assert_uint_eq(p->mbr_type, 0x83);
	ck_assert_ptr_null(fp_ptable_find(&pt, 7));
	fp_ptable_release(&pt);

	/* An extended partition whose first EBR was never written. */
	memset(d + 4096 * SEC, 0, SEC);
	ck_assert_int_eq(read_mem(d, 8192 * SEC, &pt), FP_OK);
	ck_assert_uint_eq(pt.count, 2);
	fp_ptable_release(&pt);
	free(d);
}
END_TEST

/* EBRs out of disk order, and an EBR without a logical partition. */
START_TEST(test_mbr_chain_backwards)
{
	uint8_t *d = zalloc(8192 * SEC);
	uint8_t *e1 = d + 4096 * SEC, *e2 = d + 7000 * SEC;
	uint8_t *e3 = d + 5000 * SEC;
	struct fp_ptable pt;

	mbr_ent(d, 3, 0, 0x85, 4096, 4096);
	mbr_ent(e1, 1, 0, 0x05, 2904, 100);	/* no logical, link to e2 */
	mbr_ent(e2, 0, 0, 0x06, 10, 100);
	mbr_ent(e2, 1, 0, 0x05, 904, 100);	/* back to e3 */
	mbr_ent(e3, 0, 0, 0x01, 2, 50);
	ck_assert_int_eq(read_mem(d, 8192 * SEC, &pt), FP_OK);
	ck_assert_uint_eq(pt.count, 3);
	part(&pt, 4, 4096 * SEC, 4096 * SEC, 0);
	part(&pt, 5, 7010 * SEC, 100 * SEC, 1);
	part(&pt, 6, 5002 * SEC, 50 * SEC, 1);
	fp_ptable_release(&pt);
	free(d);
}
END_TEST

START_TEST(test_mbr_ebr_loop)
{
	uint8_t *d = make_logicals();
	uint8_t *e1 = d + 4096 * SEC, *e2 = d + 5096 * SEC;

	mbr_ent(e2, 1, 0, 0x05, 0, 1);		/* e2 -> e1 */
	expect_err(d, 8192 * SEC, FP_E_PTABLE);
	mbr_ent(e2, 1, 0, 0x05, 1000, 1);	/* e2 -> e2 */
	expect_err(d, 8192 * SEC, FP_E_PTABLE);
	mbr_ent(e2, 1, 0, 0, 0, 0);
	mbr_ent(e1, 1, 0, 0x0F, 0, 1);		/* e1 -> e1 */
	expect_err(d, 8192 * SEC, FP_E_PTABLE);
	free(d);
}
END_TEST

/* A chain of @n EBRs, each with a one-sector logical, in 300 sectors. */
static enum fp_err chain_of(unsigned n, struct fp_ptable *pt)
{
	uint8_t *d = zalloc(2048 * SEC);
	enum fp_err err;
	unsigned i;

	mbr_ent(d, 0, 0, 0x05, 1024, 300);
	for (i = 0; i < n; i++) {
		uint8_t *e = d + (1024 + 2 * i) * SEC;

		mbr_ent(e, 0, 0, 0x0C, 1, 1);
		if (i + 1 < n)
			mbr_ent(e, 1, 0, 0x05, 2 * (i + 1), 2);
	}
	err = read_mem(d, 2048 * SEC, pt);
	free(d);
	return err;
}

START_TEST(test_mbr_chain_bound)
{
	struct fp_ptable pt;

	ck_assert_int_eq(chain_of(128, &pt), FP_OK);
	ck_assert_uint_eq(pt.count, 129);
	part(&pt, 132, (1024 + 2 * 127 + 1) * SEC, SEC, 1);
	fp_ptable_release(&pt);
	ck_assert_int_eq(chain_of(129, &pt), FP_E_PTABLE);
}
END_TEST

START_TEST(test_mbr_bad)
{
	uint8_t *d = make_logicals();
	uint8_t *e1 = d + 4096 * SEC, *e2 = d + 5096 * SEC;
	const uint64_t len = 8192 * SEC;

	mbr_ent(d, 2, 0, 0x06, 8000, 193);	/* one sector past the end */
	expect_err(d, len, FP_E_PTABLE);
	mbr_ent(d, 2, 0, 0x06, 8000, 192);
	expect_err(d, len - 1, FP_E_PTABLE);
	mbr_ent(d, 2, 0, 0x06, 8000, 0);	/* empty */
	expect_err(d, len, FP_E_PTABLE);
	mbr_ent(d, 2, 0, 0x06, 0xFFFFFFFFu, 0xFFFFFFFFu);
	expect_err(d, len, FP_E_PTABLE);
	mbr_ent(d, 2, 0, 0x06, 8191, 1);
	mbr_ent(d, 1, 0, 0x0F, 4096, 4097);	/* extended past the end */
	expect_err(d, len, FP_E_PTABLE);
	mbr_ent(d, 1, 0, 0x0F, 4096, 4096);
	mbr_ent(e2, 0, 0, 0x83, 1, 3096);	/* logical past the end */
	expect_err(d, len, FP_E_PTABLE);
	mbr_ent(e2, 0, 0, 0x83, 1, 0);		/* empty logical */
	expect_err(d, len, FP_E_PTABLE);
	mbr_ent(e2, 0, 0, 0x05, 1, 10);		/* logical of extended type */
	expect_err(d, len, FP_E_PTABLE);
	mbr_ent(e2, 0, 0, 0x83, 1, 10);
	mbr_ent(e1, 1, 0, 0x05, 4096, 1);	/* EBR past the extended */
	expect_err(d, len, FP_E_PTABLE);
	mbr_ent(e1, 1, 0, 0x05, 0xFFFFFFFFu, 1);
	expect_err(d, len, FP_E_PTABLE);
	mbr_ent(e1, 1, 0, 0x83, 1000, 1000);	/* link of a data type */
	expect_err(d, len, FP_E_PTABLE);
	mbr_ent(e1, 1, 0, 0x05, 1000, 1000);
	e2[M_SIG] = 0;				/* link to a non-EBR */
	expect_err(d, len, FP_E_PTABLE);
	e2[M_SIG] = 0x55;
	mbr_ent(d, 1, 0, 0x0F, 4096, 1000);	/* the link leaves it */
	expect_err(d, len, FP_E_PTABLE);
	free(d);
}
END_TEST

/* --- GPT built in memory --- */

/* A GPT image: entry arrays and headers of both copies. */
struct gpt {
	uint8_t *d;
	uint64_t len;
	uint64_t blocks;
	uint32_t blk;
	uint32_t count;
	uint32_t esize;
	uint64_t hdr_lba[2];	/* primary, backup */
	uint64_t arr_lba[2];
};

static void gpt_init(struct gpt *g, uint32_t blk, uint64_t blocks,
		     uint32_t count, uint32_t esize)
{
	uint64_t arr_blocks = ((uint64_t)count * esize + blk - 1) / blk;

	g->blk = blk;
	g->blocks = blocks;
	g->len = blocks * blk;
	g->count = count;
	g->esize = esize;
	g->d = zalloc(g->len);
	g->hdr_lba[0] = 1;
	g->hdr_lba[1] = blocks - 1;
	g->arr_lba[0] = 2;
	g->arr_lba[1] = blocks - 1 - arr_blocks;
	mbr_ent(g->d, 0, 0, 0xEE, 1,
		blocks - 1 > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)blocks - 1);
}

static uint8_t *gpt_hdr(struct gpt *g, int c)
{
	return g->d + g->hdr_lba[c] * g->blk;
}

static uint8_t *gpt_arr(struct gpt *g, int c)
{
	return g->d + g->arr_lba[c] * g->blk;
}

/* Entry @i in both arrays. */
static void gpt_ent(struct gpt *g, unsigned i, const uint8_t *type,
		    uint64_t first, uint64_t last)
{
	int c;

	for (c = 0; c < 2; c++) {
		uint8_t *e = gpt_arr(g, c) + (size_t)i * g->esize;

		memcpy(e, type, 16);
		memset(e + E_UNIQ, (int)(0x40 + i), 16);
		put_le64(e + E_FIRST, first);
		put_le64(e + E_LAST, last);
		e[E_NAME] = 'p';
	}
}

/* Recompute the header CRC of copy @c over its size, at most a block. */
static void gpt_rehash(struct gpt *g, int c)
{
	uint8_t *h = gpt_hdr(g, c);
	uint32_t size = fp_le32(h + G_HSIZE);

	if (size > g->blk)
		size = g->blk;
	fp_put_le32(h + G_HCRC, 0);
	fp_put_le32(h + G_HCRC, fp_ptable_crc32(0, h, size));
}

/* Write header @c (0 primary, 1 backup) with fresh CRCs. */
static void gpt_seal(struct gpt *g, int c)
{
	uint8_t *h = gpt_hdr(g, c);

	memset(h, 0, g->blk);
	memcpy(h, "EFI PART", 8);
	fp_put_le32(h + G_REV, 0x00010000);
	fp_put_le32(h + G_HSIZE, 92);
	put_le64(h + G_MY, g->hdr_lba[c]);
	put_le64(h + G_ALT, g->hdr_lba[!c]);
	put_le64(h + G_FIRST_USE, g->arr_lba[0] +
		 ((uint64_t)g->count * g->esize + g->blk - 1) / g->blk);
	put_le64(h + G_LAST_USE, g->arr_lba[1] - 1);
	memset(h + G_DISK, 0x5C, 16);
	put_le64(h + G_ELBA, g->arr_lba[c]);
	fp_put_le32(h + G_ECOUNT, g->count);
	fp_put_le32(h + G_ESIZE, g->esize);
	fp_put_le32(h + G_ECRC, fp_ptable_crc32(0, gpt_arr(g, c),
						(size_t)g->count * g->esize));
	gpt_rehash(g, c);
}

static void gpt_seal_both(struct gpt *g)
{
	gpt_seal(g, 0);
	gpt_seal(g, 1);
}

/* 1 MiB of 512-byte blocks: partitions 1 (basic data), 3 (ESP), 6. */
static void gpt_std(struct gpt *g)
{
	gpt_init(g, SEC, 2048, 128, 128);
	gpt_ent(g, 0, guid_basic, 34, 1000);
	gpt_ent(g, 2, guid_esp, 1001, 1500);
	gpt_ent(g, 5, guid_linux, 1501, 2014);
	gpt_seal_both(g);
}

/* The partitions of gpt_std(), read from either copy. */
static void gpt_std_check(struct gpt *g, int backup)
{
	struct fp_ptable pt;
	const struct fp_part *p;

	ck_assert_int_eq(read_mem(g->d, g->len, &pt), FP_OK);
	ck_assert_int_eq(pt.kind, FP_PT_GPT);
	ck_assert_int_eq(pt.gpt_backup, backup);
	ck_assert_uint_eq(pt.count, 3);
	p = part(&pt, 1, 34 * SEC, 967 * SEC, 1);
	ck_assert(memcmp(p->gpt_type, guid_basic, 16) == 0);
	ck_assert_uint_eq(p->mbr_type, 0);
	p = part(&pt, 3, 1001 * SEC, 500 * SEC, 1);
	ck_assert(memcmp(p->gpt_type, guid_esp, 16) == 0);
	p = part(&pt, 6, 1501 * SEC, 514 * SEC, 0);
	ck_assert(memcmp(p->gpt_type, guid_linux, 16) == 0);
	ck_assert_ptr_null(fp_ptable_find(&pt, 2));
	fp_ptable_release(&pt);
}

START_TEST(test_gpt_basic)
{
	struct gpt g;
	struct fp_ptable pt;

	gpt_std(&g);
	gpt_std_check(&g, 0);

	/* Byte order matters: a big-endian GUID is another type. */
	gpt_ent(&g, 0, guid_basic_be, 34, 1000);
	gpt_seal_both(&g);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	part(&pt, 1, 34 * SEC, 967 * SEC, 0);
	fp_ptable_release(&pt);

	/* A hybrid MBR: 0xEE in any slot means GPT. */
	mbr_ent(g.d, 0, 0x80, 0x0C, 34, 967);
	mbr_ent(g.d, 1, 0, 0xEE, 1, 2047);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	ck_assert_int_eq(pt.kind, FP_PT_GPT);
	fp_ptable_release(&pt);

	/* Without the protective MBR the GPT is not looked at. */
	mbr_ent(g.d, 1, 0, 0x0C, 1001, 500);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	ck_assert_int_eq(pt.kind, FP_PT_MBR);
	fp_ptable_release(&pt);
	free(g.d);
}
END_TEST

START_TEST(test_gpt_4k)
{
	struct gpt g;
	struct fp_ptable pt;

	gpt_init(&g, 4096, 512, 128, 128);
	gpt_ent(&g, 0, guid_basic, 6, 100);
	gpt_ent(&g, 1, guid_esp, 101, 506);
	gpt_seal_both(&g);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	ck_assert_int_eq(pt.kind, FP_PT_GPT);
	ck_assert_int_eq(pt.gpt_backup, 0);
	ck_assert_uint_eq(pt.count, 2);
	part(&pt, 1, 6 * 4096, 95 * 4096, 1);
	part(&pt, 2, 101 * 4096, 406 * 4096, 1);
	fp_ptable_release(&pt);

	gpt_hdr(&g, 0)[G_DISK] ^= 1;		/* primary bad */
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	ck_assert_int_eq(pt.gpt_backup, 1);
	part(&pt, 2, 101 * 4096, 406 * 4096, 1);
	fp_ptable_release(&pt);

	gpt_ent(&g, 1, guid_esp, 101, 512);	/* past the end */
	gpt_seal_both(&g);
	expect_err(g.d, g.len, FP_E_PTABLE);
	free(g.d);
}
END_TEST

START_TEST(test_gpt_fallback)
{
	struct gpt g;

	gpt_std(&g);
	gpt_hdr(&g, 0)[G_DISK + 3] ^= 0x10;	/* header CRC mismatch */
	gpt_std_check(&g, 1);
	gpt_hdr(&g, 1)[G_DISK + 3] ^= 0x10;	/* both bad */
	expect_err(g.d, g.len, FP_E_PTABLE);
	gpt_seal_both(&g);
	gpt_std_check(&g, 0);

	gpt_arr(&g, 0)[10 * 128 + E_NAME] = 'x';	/* entries CRC */
	gpt_std_check(&g, 1);
	gpt_arr(&g, 1)[10 * 128 + E_NAME] = 'x';
	expect_err(g.d, g.len, FP_E_PTABLE);
	gpt_seal_both(&g);

	/* Primary bad and the backup cut off. */
	gpt_hdr(&g, 0)[0] = 'e';
	expect_err(g.d, g.len - SEC, FP_E_PTABLE);
	expect_err(g.d, 3 * SEC, FP_E_PTABLE);
	expect_err(g.d, SEC + 100, FP_E_PTABLE);
	memset(gpt_hdr(&g, 1), 0, SEC);
	expect_err(g.d, g.len, FP_E_PTABLE);
	free(g.d);
}
END_TEST

/* Header field changes (CRC recomputed) that make the primary invalid. */
struct hdr_case {
	unsigned off;
	int wide;		/* a 64-bit field */
	uint64_t val;
};

static const struct hdr_case bad_hdr_cases[] = {
	{ 4, 0, 0x54524151u },			/* "EFI QART" */
	{ G_REV, 0, 0x00020000u },
	{ G_REV, 0, 0 },
	{ G_HSIZE, 0, 91 },
	{ G_HSIZE, 0, 513 },
	{ G_MY, 1, 2 },
	{ G_MY, 1, 2047 },
	{ G_ESIZE, 0, 120 },
	{ G_ESIZE, 0, 132 },
	{ G_ESIZE, 0, 4104 },
	{ G_ESIZE, 0, 0 },
	{ G_ESIZE, 0, 0xFFFFFFF8u },
	{ G_ECOUNT, 0, 1025 },
	{ G_ECOUNT, 0, 0xFFFFFFFFu },
	{ G_ECOUNT, 0, 129 },			/* array CRC differs */
	{ G_ECRC, 0, 0 },
	{ G_ELBA, 1, 0xFFFFFFFFFFFFFFFFu },
	{ G_ELBA, 1, 1ull << 55 },		/* times 512 wraps */
	{ G_ELBA, 1, (1ull << 55) + 2 },	/* wraps to a valid array */
	{ G_ELBA, 1, 2048 },
	{ G_ELBA, 1, 2047 },			/* array past the end */
	{ G_ELBA, 1, 3 },			/* array CRC differs */
};

START_TEST(test_gpt_bad_header)
{
	const struct hdr_case *c = &bad_hdr_cases[_i];
	struct gpt g;
	uint8_t *h;

	gpt_std(&g);
	h = gpt_hdr(&g, 0);
	if (c->wide)
		put_le64(h + c->off, c->val);
	else
		fp_put_le32(h + c->off, (uint32_t)c->val);
	gpt_rehash(&g, 0);
	gpt_std_check(&g, 1);

	/* The same damage in both copies. */
	h = gpt_hdr(&g, 1);
	if (c->wide)
		put_le64(h + c->off, c->off == G_MY ? 5 : c->val);
	else
		fp_put_le32(h + c->off, (uint32_t)c->val);
	gpt_rehash(&g, 1);
	expect_err(g.d, g.len, FP_E_PTABLE);
	free(g.d);
}
END_TEST

/* Unusual but valid headers. */
START_TEST(test_gpt_odd_header)
{
	struct gpt g;
	struct fp_ptable pt;
	uint8_t *h;

	gpt_std(&g);
	h = gpt_hdr(&g, 0);
	fp_put_le32(h + G_HSIZE, SEC);		/* CRC over the whole block */
	h[SEC - 1] = 0x77;
	gpt_rehash(&g, 0);
	gpt_std_check(&g, 0);
	fp_put_le32(h + G_REV, 0x00010001);	/* a later minor revision */
	gpt_rehash(&g, 0);
	gpt_std_check(&g, 0);
	free(g.d);

	gpt_init(&g, SEC, 2048, 0, 128);	/* no entries at all */
	gpt_seal_both(&g);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	ck_assert_int_eq(pt.kind, FP_PT_GPT);
	ck_assert_uint_eq(pt.count, 0);
	fp_ptable_release(&pt);
	free(g.d);

	gpt_init(&g, SEC, 2048, 64, 256);	/* larger entries */
	gpt_ent(&g, 1, guid_esp, 100, 199);
	gpt_ent(&g, 63, guid_basic, 200, 2000);
	gpt_seal_both(&g);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	ck_assert_uint_eq(pt.count, 2);
	part(&pt, 2, 100 * SEC, 100 * SEC, 1);
	part(&pt, 64, 200 * SEC, 1801 * SEC, 1);
	fp_ptable_release(&pt);
	free(g.d);
}
END_TEST

/* The largest array accepted: 1024 entries of 4096 bytes. */
START_TEST(test_gpt_huge)
{
	struct gpt g;
	struct fp_ptable pt;

	gpt_init(&g, SEC, 16384 + 64, 1024, 4096);
	gpt_ent(&g, 1023, guid_basic, 8200, 8249);
	gpt_seal_both(&g);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	ck_assert_uint_eq(pt.count, 1);
	part(&pt, 1024, 8200 * SEC, 50 * SEC, 1);
	fp_ptable_release(&pt);
	fp_put_le32(gpt_hdr(&g, 0) + G_ECOUNT, 1025);
	gpt_rehash(&g, 0);
	fp_put_le32(gpt_hdr(&g, 1) + G_ECOUNT, 0xFFFFFFFFu);
	fp_put_le32(gpt_hdr(&g, 1) + G_ESIZE, 4096);
	gpt_rehash(&g, 1);
	expect_err(g.d, g.len, FP_E_PTABLE);
	free(g.d);

	/* Valid CRCs, but more entries or an entry size than allowed. */
	gpt_init(&g, SEC, 2048, 1025, 128);
	gpt_seal_both(&g);
	expect_err(g.d, g.len, FP_E_PTABLE);
	free(g.d);
	gpt_init(&g, SEC, 2048, 64, 140);
	gpt_seal_both(&g);
	expect_err(g.d, g.len, FP_E_PTABLE);
	free(g.d);
}
END_TEST

START_TEST(test_gpt_bad_entries)
{
	struct gpt g;
	struct fp_ptable pt;

	gpt_std(&g);
	gpt_ent(&g, 5, guid_linux, 1501, 1500);		/* last < first */
	gpt_seal_both(&g);
	expect_err(g.d, g.len, FP_E_PTABLE);
	gpt_ent(&g, 5, guid_linux, 1501, 2048);		/* past the end */
	gpt_seal_both(&g);
	expect_err(g.d, g.len, FP_E_PTABLE);
	gpt_ent(&g, 5, guid_linux, 0, UINT64_MAX);
	gpt_seal_both(&g);
	expect_err(g.d, g.len, FP_E_PTABLE);
	gpt_ent(&g, 5, guid_linux, UINT64_MAX, UINT64_MAX);
	gpt_seal_both(&g);
	expect_err(g.d, g.len, FP_E_PTABLE);
	gpt_ent(&g, 5, guid_linux, 2047, 2047);		/* the last block */
	gpt_seal_both(&g);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	part(&pt, 6, 2047 * SEC, SEC, 0);
	fp_ptable_release(&pt);
	free(g.d);
}
END_TEST

/* --- tables written by sfdisk (util-linux) --- */

struct tmp {
	char dir[TEST_TMPL_LEN];
	char img[TEST_TMPL_LEN + 16];
	char script[TEST_TMPL_LEN + 16];
};

static void tmp_remove(struct tmp *t)
{
	unlink(t->img);
	unlink(t->script);
	rmdir(t->dir);
}

/*
 * Make an image of @mib MiB in a fresh directory and run sfdisk on it with
 * @script.  sfdisk is a declared dependency: its absence fails the test.
 */
static void sfdisk(struct tmp *t, unsigned mib, const char *script)
{
	char cmd[2 * TEST_TMPL_LEN + 128];
	FILE *f;
	int fd, ok;

	ck_assert_ptr_nonnull(
		mkdtemp(test_tmpl(t->dir, sizeof(t->dir), "check_ptable")));
	snprintf(t->img, sizeof(t->img), "%s/x.img", t->dir);
	snprintf(t->script, sizeof(t->script), "%s/script", t->dir);
	fd = open(t->img, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)mib << 20), 0);
	close(fd);
	f = fopen(t->script, "w");
	ck_assert_ptr_nonnull(f);
	fputs(script, f);
	ck_assert_int_eq(fclose(f), 0);
	snprintf(cmd, sizeof(cmd),
		 "PATH=\"$PATH:/sbin:/usr/sbin\" LC_ALL=C "
		 "sfdisk -q '%s' <'%s' >/dev/null 2>&1", t->img, t->script);
	ok = system(cmd) == 0;
	if (!ok)
		tmp_remove(t);
	ck_assert_msg(ok, "sfdisk (util-linux fdisk) is needed by this test");
}

static enum fp_err read_file(const char *path, struct fp_ptable *pt)
{
	struct fp_img *img;
	enum fp_err err;
	int e;

	ck_assert_int_eq(fp_img_open(path, 0, &img, &e), FP_OK);
	err = fp_ptable_read(img, pt);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	return err;
}

static void file_rw(const char *path, uint64_t off, void *buf, size_t len,
		    int write)
{
	struct fp_img *img;
	int e;

	ck_assert_int_eq(fp_img_open(path, write ? FP_IMG_WRITE : 0, &img,
				     &e), FP_OK);
	if (write)
		ck_assert_int_eq(fp_img_write(img, off, buf, len), FP_OK);
	else
		ck_assert_int_eq(fp_img_read(img, off, buf, len), FP_OK);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
}

/* Invert the byte at @off of the file @path. */
static void file_flip(const char *path, uint64_t off)
{
	uint8_t b;

	file_rw(path, off, &b, 1, 0);
	b = (uint8_t)~b;
	file_rw(path, off, &b, 1, 1);
}

/* sfdisk's CRCs of the primary header and its array against ours. */
static void sfdisk_crcs(const char *path)
{
	uint8_t h[SEC], *arr;
	uint32_t crc, hsize;
	size_t arr_len;

	file_rw(path, SEC, h, SEC, 0);
	ck_assert(memcmp(h, "EFI PART", 8) == 0);
	hsize = fp_le32(h + G_HSIZE);
	ck_assert_uint_eq(hsize, 92);
	crc = fp_le32(h + G_HCRC);
	fp_put_le32(h + G_HCRC, 0);
	ck_assert_uint_eq(fp_ptable_crc32(0, h, hsize), crc);
	arr_len = (size_t)fp_le32(h + G_ECOUNT) * fp_le32(h + G_ESIZE);
	ck_assert_uint_eq(arr_len, 128 * 128);
	arr = zalloc(arr_len);
	file_rw(path, (uint64_t)fp_le32(h + G_ELBA) * SEC, arr, arr_len, 0);
	ck_assert_uint_eq(fp_ptable_crc32(0, arr, arr_len),
			  fp_le32(h + G_ECRC));
	free(arr);
}

static void sfdisk_gpt_check(const char *path, int backup)
{
	struct fp_ptable pt;
	const struct fp_part *p;

	ck_assert_int_eq(read_file(path, &pt), FP_OK);
	ck_assert_int_eq(pt.kind, FP_PT_GPT);
	ck_assert_int_eq(pt.gpt_backup, backup);
	ck_assert_uint_eq(pt.count, 3);
	p = part(&pt, 1, 2048 * SEC, 4096 * SEC, 1);
	ck_assert(memcmp(p->gpt_type, guid_basic, 16) == 0);
	p = part(&pt, 2, 6144 * SEC, 2048 * SEC, 0);
	ck_assert(memcmp(p->gpt_type, guid_linux, 16) == 0);
	p = part(&pt, 3, 8192 * SEC, 1024 * SEC, 1);
	ck_assert(memcmp(p->gpt_type, guid_esp, 16) == 0);
	fp_ptable_release(&pt);
}

START_TEST(test_sfdisk_gpt)
{
	struct tmp t;
	struct fp_ptable pt;

	sfdisk(&t, 8, "label: gpt\n"
	       "start=2048, size=4096, "
	       "type=EBD0A0A2-B9E5-4433-87C0-68B6B72699C7\n"
	       "start=6144, size=2048, "
	       "type=0FC63DAF-8483-4772-8E79-3D69D8477DE4\n"
	       "start=8192, size=1024, "
	       "type=C12A7328-F81F-11D2-BA4B-00A0C93EC93B\n");
	sfdisk_crcs(t.img);
	sfdisk_gpt_check(t.img, 0);
	file_flip(t.img, SEC + G_DISK);			/* primary bad */
	sfdisk_gpt_check(t.img, 1);
	file_flip(t.img, (16384 - 1) * SEC + G_DISK);	/* backup bad */
	memset(&pt, 0, sizeof(pt));
	ck_assert_int_eq(read_file(t.img, &pt), FP_E_PTABLE);
	tmp_remove(&t);
}
END_TEST

START_TEST(test_sfdisk_dos)
{
	struct tmp t;
	struct fp_ptable pt;
	const struct fp_part *p;

	sfdisk(&t, 8, "label: dos\n"
	       "start=2048, size=4096, type=c\n"
	       "start=8192, size=8192, type=5\n"
	       "start=10240, size=2048, type=c\n"
	       "start=14336, size=1024, type=83\n");
	ck_assert_int_eq(read_file(t.img, &pt), FP_OK);
	ck_assert_int_eq(pt.kind, FP_PT_MBR);
	ck_assert_uint_eq(pt.count, 4);
	p = part(&pt, 1, 2048 * SEC, 4096 * SEC, 1);
	ck_assert_uint_eq(p->mbr_type, 0x0C);
	p = part(&pt, 2, 8192 * SEC, 8192 * SEC, 0);
	ck_assert_uint_eq(p->mbr_type, 0x05);
	p = part(&pt, 5, 10240 * SEC, 2048 * SEC, 1);
	ck_assert_uint_eq(p->mbr_type, 0x0C);
	p = part(&pt, 6, 14336 * SEC, 1024 * SEC, 0);
	ck_assert_uint_eq(p->mbr_type, 0x83);
	fp_ptable_release(&pt);
	tmp_remove(&t);
}
END_TEST

/* --- overlaps --- */

/* Partition @n of @pt overlaps @other (0: the table) from sector @sec. */
static void expect_overlap(const struct fp_ptable *pt, unsigned n,
			   int found, unsigned other, uint64_t sec)
{
	const struct fp_part *p = fp_ptable_find(pt, n);
	struct fp_overlap o;

	ck_assert_msg(p != NULL, "no partition %u", n);
	memset(&o, 0xA5, sizeof(o));
	fp_ptable_overlap(pt, p, &o);
	ck_assert_msg(o.found == found, "partition %u: found %d", n, o.found);
	ck_assert_uint_eq(o.other, found ? other : 0);
	ck_assert_uint_eq(o.off, found ? sec * SEC : 0);
}

START_TEST(test_overlap_mbr)
{
	uint8_t *d = make_logicals();
	struct fp_ptable pt;

	/* Logicals inside their extended partition, EBRs outside them. */
	ck_assert_int_eq(read_mem(d, 8192 * SEC, &pt), FP_OK);
	expect_overlap(&pt, 1, 0, 0, 0);
	expect_overlap(&pt, 5, 0, 0, 0);
	expect_overlap(&pt, 6, 0, 0, 0);
	fp_ptable_release(&pt);

	/* Logical 5 grown over the EBR of logical 6 at 5096, no further. */
	mbr_ent(d + 4096 * SEC, 0, 0, 0x0B, 63, 938);
	ck_assert_int_eq(read_mem(d, 8192 * SEC, &pt), FP_OK);
	expect_overlap(&pt, 5, 1, 0, 5096);
	expect_overlap(&pt, 6, 0, 0, 0);
	fp_ptable_release(&pt);

	/* Primary 1 grown into the extended partition, and over its EBR. */
	mbr_ent(d + 4096 * SEC, 0, 0, 0x0B, 63, 937);
	mbr_ent(d, 0, 0x80, 0x0E, 2048, 2100);
	ck_assert_int_eq(read_mem(d, 8192 * SEC, &pt), FP_OK);
	expect_overlap(&pt, 1, 1, 0, 4096);
	expect_overlap(&pt, 5, 0, 0, 0);
	fp_ptable_release(&pt);

	/* A primary inside the extended partition, past the logicals. */
	mbr_ent(d, 0, 0x80, 0x0E, 2048, 1024);
	mbr_ent(d, 2, 0, 0x0C, 7500, 500);
	ck_assert_int_eq(read_mem(d, 8192 * SEC, &pt), FP_OK);
	expect_overlap(&pt, 3, 1, 2, 7500);
	expect_overlap(&pt, 6, 0, 0, 0);
	fp_ptable_release(&pt);
	free(d);

	/* Two primaries that share sectors; one that holds the MBR. */
	d = zalloc(8192 * SEC);
	mbr_ent(d, 0, 0, 0x0C, 2048, 4096);
	mbr_ent(d, 1, 0, 0x83, 4096, 2048);
	mbr_ent(d, 2, 0, 0x06, 0, 1024);
	ck_assert_int_eq(read_mem(d, 8192 * SEC, &pt), FP_OK);
	expect_overlap(&pt, 1, 1, 2, 4096);
	expect_overlap(&pt, 2, 1, 1, 4096);
	expect_overlap(&pt, 3, 1, 0, 0);
	fp_ptable_release(&pt);
	free(d);
}
END_TEST

START_TEST(test_overlap_gpt)
{
	struct gpt g;
	struct fp_ptable pt;
	int backup;

	gpt_std(&g);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	expect_overlap(&pt, 1, 0, 0, 0);
	expect_overlap(&pt, 3, 0, 0, 0);
	expect_overlap(&pt, 6, 0, 0, 0);
	fp_ptable_release(&pt);

	/* Into the primary array (LBA 2-33), onto partition 3 and over
	 * the usable range's end (2014) onto the backup array. */
	gpt_ent(&g, 0, guid_basic, 20, 1000);
	gpt_ent(&g, 2, guid_esp, 900, 1500);
	gpt_ent(&g, 5, guid_linux, 1501, 2020);
	for (backup = 0; backup < 2; backup++) {
		gpt_seal_both(&g);
		if (backup)	/* the same from the backup header */
			g.d[g.hdr_lba[0] * g.blk + G_DISK] ^= 1;
		ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
		ck_assert_int_eq(pt.gpt_backup, backup);
		expect_overlap(&pt, 1, 1, 0, 20);
		expect_overlap(&pt, 3, 1, 1, 900);
		expect_overlap(&pt, 6, 1, 0, 2015);
		fp_ptable_release(&pt);
	}

	/* The usable range alone: an array moved to LBA 40, usable from 80. */
	g.arr_lba[0] = 40;
	gpt_ent(&g, 0, guid_basic, 40, 1000);
	gpt_ent(&g, 2, guid_esp, 1001, 1500);
	gpt_ent(&g, 5, guid_linux, 1501, 2014);
	gpt_seal(&g, 0);
	put_le64(gpt_hdr(&g, 0) + G_FIRST_USE, 80);
	gpt_rehash(&g, 0);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	ck_assert_int_eq(pt.gpt_backup, 0);
	expect_overlap(&pt, 1, 1, 0, 40);
	fp_ptable_release(&pt);
	gpt_ent(&g, 0, guid_basic, 75, 1000);
	gpt_seal(&g, 0);
	put_le64(gpt_hdr(&g, 0) + G_FIRST_USE, 80);
	gpt_rehash(&g, 0);
	ck_assert_int_eq(read_mem(g.d, g.len, &pt), FP_OK);
	expect_overlap(&pt, 1, 1, 0, 75);
	fp_ptable_release(&pt);
	free(g.d);
}
END_TEST

static Suite *ptable_suite(void)
{
	Suite *s = suite_create("ptable");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_crc32);
	tcase_add_test(tc, test_mbr_none);
	tcase_add_test(tc, test_mbr_claims);
	tcase_add_test(tc, test_mbr_primary);
	tcase_add_test(tc, test_mbr_fat_types);
	tcase_add_test(tc, test_mbr_logical);
	tcase_add_test(tc, test_mbr_chain_backwards);
	tcase_add_test(tc, test_mbr_ebr_loop);
	tcase_add_test(tc, test_mbr_chain_bound);
	tcase_add_test(tc, test_mbr_bad);
	tcase_add_test(tc, test_gpt_basic);
	tcase_add_test(tc, test_gpt_4k);
	tcase_add_test(tc, test_gpt_fallback);
	tcase_add_loop_test(tc, test_gpt_bad_header, 0,
			    sizeof(bad_hdr_cases) / sizeof(bad_hdr_cases[0]));
	tcase_add_test(tc, test_gpt_odd_header);
	tcase_add_test(tc, test_gpt_huge);
	tcase_add_test(tc, test_gpt_bad_entries);
	tcase_add_test(tc, test_sfdisk_gpt);
	tcase_add_test(tc, test_sfdisk_dos);
	tcase_add_test(tc, test_overlap_mbr);
	tcase_add_test(tc, test_overlap_gpt);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ptable_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
