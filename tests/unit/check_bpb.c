/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_bpb.c - unit tests for boot sector, BPB and FSInfo decoding. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpb.h"
#include "le.h"
#include "tmpdir.h"

/* The test's own copy of the BPB layout (Microsoft FAT specification). */
enum {
	O_JMP = 0, O_BPS = 11, O_SPC = 13, O_RSVD = 14, O_FATS = 16,
	O_ROOT = 17, O_TOT16 = 19, O_MEDIA = 21, O_FATSZ16 = 22,
	O_TOT32 = 32, O_STATE16 = 37, O_FATSZ32 = 36, O_EXTFLAGS = 40,
	O_FSVER = 42, O_ROOTCLUS = 44, O_FSINFO = 48, O_BKBOOT = 50,
	O_STATE32 = 65, O_SIG = 510,
};

static void common(uint8_t *s, unsigned bps, unsigned spc, unsigned rsvd,
		   unsigned fats, unsigned media)
{
	memset(s, 0, 512);
	s[O_JMP] = 0xEB;
	s[1] = 0x3C;
	s[2] = 0x90;
	memcpy(s + 3, "MSWIN4.1", 8);
	fp_put_le16(s + O_BPS, (uint16_t)bps);
	s[O_SPC] = (uint8_t)spc;
	fp_put_le16(s + O_RSVD, (uint16_t)rsvd);
	s[O_FATS] = (uint8_t)fats;
	s[O_MEDIA] = (uint8_t)media;
	s[O_SIG] = 0x55;
	s[O_SIG + 1] = 0xAA;
}

/* A 1.44 MB floppy: 2847 clusters of 512 bytes, FAT12. */
static void make_fat12(uint8_t *s)
{
	common(s, 512, 1, 1, 2, 0xF0);
	fp_put_le16(s + O_ROOT, 224);
	fp_put_le16(s + O_TOT16, 2880);
	fp_put_le16(s + O_FATSZ16, 9);
	s[O_STATE16] = 0x01;
}

/* 16 MiB: 8167 clusters of 2 KiB, FAT16. */
static void make_fat16(uint8_t *s)
{
	common(s, 512, 4, 4, 2, 0xF8);
	fp_put_le16(s + O_ROOT, 512);
	fp_put_le16(s + O_TOT16, 32768);
	fp_put_le16(s + O_FATSZ16, 32);
}

/* 64 MiB: 129008 clusters of 512 bytes, FAT32. */
static void make_fat32(uint8_t *s)
{
	common(s, 512, 1, 32, 2, 0xF8);
	fp_put_le32(s + O_TOT32, 131072);
	fp_put_le32(s + O_FATSZ32, 1016);
	fp_put_le32(s + O_ROOTCLUS, 2);
	fp_put_le16(s + O_FSINFO, 1);
	fp_put_le16(s + O_BKBOOT, 6);
	s[O_STATE32] = 0x01;
}

static enum fp_err decode(const uint8_t *s, struct fp_geom *g)
{
	return fp_bpb_decode(s, UINT64_MAX, g);
}

START_TEST(test_fat12)
{
	uint8_t s[512];
	struct fp_geom g;

	make_fat12(s);
	ck_assert_int_eq(fp_bpb_decode(s, 1474560, &g), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT12);
	ck_assert_uint_eq(g.sec_len, 512);
	ck_assert_uint_eq(g.clus_len, 512);
	ck_assert_uint_eq(g.cluster_count, 2847);
	ck_assert_uint_eq(fp_geom_max_cl(&g), 2848);
	ck_assert_uint_eq(g.fat_off, 512);
	ck_assert_uint_eq(g.fat_len, 9 * 512);
	ck_assert_uint_eq(g.root_off, 19 * 512);
	ck_assert_uint_eq(g.root_len, 224 * 32);
	ck_assert_uint_eq(g.data_off, 33 * 512);
	ck_assert_uint_eq(g.vol_len, 1474560);
	ck_assert_uint_eq(g.total_secs, 2880);
	ck_assert_uint_eq(g.media, 0xF0);
	ck_assert_uint_eq(g.state, 0x01);
	ck_assert_int_eq(g.mirror, 1);
	ck_assert_uint_eq(g.active_fat, 0);
	ck_assert_uint_eq(g.root_cl, 0);
	ck_assert_uint_eq(fp_geom_cl_off(&g, 3), 34 * 512);
}
END_TEST

START_TEST(test_fat16)
{
	uint8_t s[512];
	struct fp_geom g;

	make_fat16(s);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT16);
	ck_assert_uint_eq(g.clus_len, 2048);
	ck_assert_uint_eq(g.cluster_count, 8167);
	ck_assert_uint_eq(g.fat_off, 4 * 512);
	ck_assert_uint_eq(g.root_off, 68 * 512);
	ck_assert_uint_eq(g.data_off, 100 * 512);
	ck_assert_uint_eq(g.vol_len, 16u << 20);
	ck_assert_int_eq(g.has_label, 0);
	ck_assert_uint_eq(g.serial, 0);
	/* BS_BootSig 0x29: BS_VolID (offset 39) and BS_VolLab follow */
	s[38] = 0x29;
	fp_put_le32(s + 39, 0x1234ABCD);
	memcpy(s + 43, "MY LABEL   ", 11);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.has_label, 1);
	ck_assert_uint_eq(g.serial, 0x1234ABCD);
	ck_assert_mem_eq(g.label, "MY LABEL   ", 11);
	ck_assert_int_eq(g.label_held, 0);
	/* 0x28 in front of "FAT": held by --label; in front of code: DOS 3.4 */
	s[38] = 0x28;
	memcpy(s + 54, "FAT16   ", 8);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.has_label, 0);
	ck_assert_int_eq(g.label_held, 1);
	ck_assert_mem_eq(g.label, "MY LABEL   ", 11);
	s[54] = 0xFA;
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.label_held, 0);
	s[38] = 0x29;
	s[54] = 'F';
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.label_held, 0);
}
END_TEST

START_TEST(test_fat32)
{
	uint8_t s[512];
	struct fp_geom g;

	make_fat32(s);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT32);
	ck_assert_uint_eq(g.cluster_count, 129008);
	ck_assert_uint_eq(g.fat_secs, 1016);
	ck_assert_uint_eq(g.fat_off, 32 * 512);
	ck_assert_uint_eq(g.data_off, (32 + 2 * 1016) * 512);
	ck_assert_uint_eq(g.root_off, g.data_off);
	ck_assert_uint_eq(g.root_len, 0);
	ck_assert_uint_eq(g.root_entries, 0);
	/* FAT32: BS_BootSig at 66, BS_VolID at 67 */
	s[66] = 0x29;
	fp_put_le32(s + 67, 0xCAFEF00D);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_uint_eq(g.serial, 0xCAFEF00D);
	ck_assert_uint_eq(g.root_cl, 2);
	ck_assert_uint_eq(g.fsinfo_sec, 1);
	ck_assert_uint_eq(g.backup_sec, 6);
	ck_assert_uint_eq(g.state, 0x01);
	ck_assert_int_eq(g.mirror, 1);
	ck_assert_uint_eq(g.active_fat, 0);
}
END_TEST

/* FAT32 is decided by BPB_FATSz16 == 0, not by the cluster count. */
START_TEST(test_fat32_few_clusters)
{
	uint8_t s[512];
	struct fp_geom g;

	make_fat32(s);
	fp_put_le32(s + O_TOT32, 32 + 2 * 8 + 1000);
	fp_put_le32(s + O_FATSZ32, 8);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT32);
	ck_assert_uint_eq(g.cluster_count, 1000);
}
END_TEST

START_TEST(test_ext_flags)
{
	uint8_t s[512];
	struct fp_geom g;

	make_fat32(s);
	fp_put_le16(s + O_EXTFLAGS, 0x0081);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.mirror, 0);
	ck_assert_uint_eq(g.active_fat, 1);
	ck_assert_uint_eq(g.ext_flags, 0x0081);
	fp_put_le16(s + O_EXTFLAGS, 0x0082);
	ck_assert_int_eq(decode(s, &g), FP_E_BPB);
	/* with mirroring on, bits 0-3 mean nothing */
	fp_put_le16(s + O_EXTFLAGS, 0x0003);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.mirror, 1);
	ck_assert_uint_eq(g.active_fat, 0);
}
END_TEST

START_TEST(test_fsinfo_none)
{
	uint8_t s[512];
	struct fp_geom g;

	make_fat32(s);
	fp_put_le16(s + O_FSINFO, 0xFFFF);
	fp_put_le16(s + O_BKBOOT, 0);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_uint_eq(g.fsinfo_sec, 0);
	ck_assert_uint_eq(g.backup_sec, 0);
}
END_TEST

/* 2^32 - 16 sectors of 4 KiB: offsets beyond 32 bits. */
START_TEST(test_fat32_huge)
{
	uint8_t s[512];
	struct fp_geom g;

	common(s, 4096, 64, 32, 2, 0xF8);
	fp_put_le32(s + O_TOT32, 0xFFFFFFF0u);
	fp_put_le32(s + O_FATSZ32, 65535);
	fp_put_le32(s + O_ROOTCLUS, 67106816);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_uint_eq(g.cluster_count, 67106815);
	ck_assert_uint_eq(g.fat_len, 65535ull * 4096);
	ck_assert_uint_eq(g.data_off, 131102ull * 4096);
	ck_assert_uint_eq(g.vol_len, 0xFFFFFFF0ull * 4096);
	ck_assert_uint_eq(fp_geom_cl_off(&g, 67106816),
			  131102ull * 4096 + 67106814ull * 262144);
	ck_assert_int_eq(fp_bpb_decode(s, g.vol_len - 1, &g), FP_E_TRUNC);
}
END_TEST

/* Fields whose 32-bit products would wrap: caught, not wrapped. */
START_TEST(test_overflow)
{
	uint8_t s[512];
	struct fp_geom g;

	common(s, 4096, 1, 0xFFFF, 255, 0xF8);
	fp_put_le32(s + O_TOT32, 0xFFFFFFFFu);
	fp_put_le32(s + O_FATSZ32, 0xFFFFFFFFu);
	fp_put_le32(s + O_ROOTCLUS, 2);
	ck_assert_int_eq(decode(s, &g), FP_E_BPB);
	/* metadata fits but more than 0x0FFFFFF5 clusters */
	common(s, 512, 1, 32, 1, 0xF8);
	fp_put_le32(s + O_TOT32, 0xFFFFFFFFu);
	fp_put_le32(s + O_FATSZ32, 0x200000);
	fp_put_le32(s + O_ROOTCLUS, 2);
	ck_assert_int_eq(decode(s, &g), FP_E_BPB);
}
END_TEST

/*
 * Neither the jump nor the 0x55AA signature is needed (Linux checks
 * neither; Atari volumes have a 68000 branch and no signature): a sector
 * is FAT when its BPB validates.  A bad field is FP_E_BPB when the
 * sector means to be FAT (x86 jump and signature, or the common fields
 * in range), else FP_E_NOTFAT.
 */
START_TEST(test_not_fat)
{
	uint8_t s[512];
	struct fp_geom g;

	memset(&g, 0x5A, sizeof(g));
	memset(s, 0, sizeof(s));
	ck_assert_int_eq(decode(s, &g), FP_E_NOTFAT);
	ck_assert_uint_eq(g.sec_len, 0x5A5A5A5A);	/* untouched */
	s[O_SIG] = 0x55;
	s[O_SIG + 1] = 0xAA;
	ck_assert_int_eq(decode(s, &g), FP_E_NOTFAT);
	make_fat12(s);
	s[O_SIG] = 0x00;
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_uint_eq(g.type, FP_FAT12);
	make_fat12(s);
	s[O_SIG + 1] = 0x55;
	ck_assert_int_eq(decode(s, &g), FP_OK);
	/* Atari: a 68000 branch, no signature */
	make_fat16(s);
	s[O_JMP] = 0x60;
	s[1] = 0x1C;
	s[O_SIG] = s[O_SIG + 1] = 0x00;
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_uint_eq(g.type, FP_FAT16);
	make_fat32(s);
	s[O_JMP] = 0x00;
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_uint_eq(g.type, FP_FAT32);
	make_fat12(s);
	s[O_JMP] = 0xE9;
	ck_assert_int_eq(decode(s, &g), FP_OK);
	/* a bad common field: BPB with an x86 jump and the signature only */
	memset(&g, 0x5A, sizeof(g));
	make_fat12(s);
	fp_put_le16(s + O_BPS, 0);
	ck_assert_int_eq(decode(s, &g), FP_E_BPB);
	s[O_SIG] = 0x00;
	ck_assert_int_eq(decode(s, &g), FP_E_NOTFAT);
	make_fat12(s);
	fp_put_le16(s + O_BPS, 0);
	s[O_JMP] = 0x00;
	ck_assert_int_eq(decode(s, &g), FP_E_NOTFAT);
	ck_assert_uint_eq(g.sec_len, 0x5A5A5A5A);
	/* common fields in range, the FAT too small: BPB either way */
	make_fat16(s);
	fp_put_le16(s + O_FATSZ16, 1);
	ck_assert_int_eq(decode(s, &g), FP_E_BPB);
	s[O_JMP] = 0x60;
	s[O_SIG] = 0x00;
	ck_assert_int_eq(decode(s, &g), FP_E_BPB);
}
END_TEST

/* Which sectors could be an MBR as well as a FAT boot sector. */
START_TEST(test_maybe_mbr)
{
	uint8_t s[512];

	make_fat16(s);
	ck_assert_int_eq(fp_bpb_maybe_mbr(s), 0);	/* EB jump */
	s[O_JMP] = 0xE9;
	ck_assert_int_eq(fp_bpb_maybe_mbr(s), 0);
	s[O_JMP] = 0x33;	/* xor ax,ax, as MBR code starts */
	ck_assert_int_eq(fp_bpb_maybe_mbr(s), 1);
	s[O_SIG] = 0x00;	/* no MBR lacks the signature */
	ck_assert_int_eq(fp_bpb_maybe_mbr(s), 0);
}
END_TEST

/* One bad field of the FAT12 sector at a time. */
struct bad16 {
	unsigned off, width;
	uint32_t val;
};

static const struct bad16 bad12_cases[] = {
	{ O_BPS, 2, 1000 }, { O_BPS, 2, 256 }, { O_BPS, 2, 0 },
	{ O_BPS, 2, 8192 }, { O_SPC, 1, 0 }, { O_SPC, 1, 3 },
	{ O_SPC, 1, 255 }, { O_RSVD, 2, 0 }, { O_FATS, 1, 0 },
	{ O_MEDIA, 1, 0x12 }, { O_MEDIA, 1, 0xF7 }, { O_TOT16, 2, 0 },
	{ O_ROOT, 2, 0 }, { O_FATSZ16, 2, 8 }, { O_TOT16, 2, 30 },
	{ O_RSVD, 2, 3000 },
	/* a root directory that ends inside a sector */
	{ O_ROOT, 2, 225 }, { O_ROOT, 2, 1 }, { O_ROOT, 2, 0xFFFF },
};

static void poke(uint8_t *s, unsigned off, unsigned width, uint32_t val)
{
	if (width == 1)
		s[off] = (uint8_t)val;
	else if (width == 2)
		fp_put_le16(s + off, (uint16_t)val);
	else
		fp_put_le32(s + off, val);
}

START_TEST(test_bad_fat12)
{
	const struct bad16 *c = &bad12_cases[_i];
	uint8_t s[512];
	struct fp_geom g;

	make_fat12(s);
	poke(s, c->off, c->width, c->val);
	ck_assert_msg(decode(s, &g) == FP_E_BPB, "offset %u value %u",
		      c->off, (unsigned)c->val);
}
END_TEST

static const struct bad16 bad32_cases[] = {
	{ O_ROOT, 2, 16 }, { O_FSVER, 2, 1 }, { O_ROOTCLUS, 4, 0 },
	{ O_ROOTCLUS, 4, 1 }, { O_ROOTCLUS, 4, 129010 },
	{ O_ROOTCLUS, 4, 0xFFFFFFFF }, { O_FSINFO, 2, 32 },
	{ O_BKBOOT, 2, 32 }, { O_BKBOOT, 2, 1 }, { O_EXTFLAGS, 2, 0x0082 },
	{ O_EXTFLAGS, 2, 0x008F }, { O_FATSZ32, 4, 0 },
	{ O_FATSZ32, 4, 1000 }, { O_TOT32, 4, 0 }, { O_FATS, 1, 0 },
};

START_TEST(test_bad_fat32)
{
	const struct bad16 *c = &bad32_cases[_i];
	uint8_t s[512];
	struct fp_geom g;

	make_fat32(s);
	poke(s, c->off, c->width, c->val);
	ck_assert_msg(decode(s, &g) == FP_E_BPB, "offset %u value %u",
		      c->off, (unsigned)c->val);
}
END_TEST

START_TEST(test_edges)
{
	uint8_t s[512];
	struct fp_geom g;

	make_fat32(s);
	fp_put_le32(s + O_ROOTCLUS, 129009);	/* the highest cluster */
	ck_assert_int_eq(decode(s, &g), FP_OK);
	make_fat32(s);
	s[O_SPC] = 128;
	fp_put_le16(s + O_BPS, 4096);
	ck_assert_int_eq(decode(s, &g), FP_E_BPB);	/* 512 KiB cluster */
	fp_put_le16(s + O_BPS, 2048);
	fp_put_le32(s + O_TOT32, 32 + 2 * 8 + 128 * 100);
	fp_put_le32(s + O_FATSZ32, 8);
	ck_assert_int_eq(decode(s, &g), FP_OK);		/* 256 KiB */
	ck_assert_uint_eq(g.clus_len, FP_CLUSTER_MAX);
	ck_assert_uint_eq(g.cluster_count, 100);
}
END_TEST

/* A FATSz16 volume with 65525 or more clusters is neither 12 nor 16. */
START_TEST(test_fat16_too_many)
{
	uint8_t s[512];
	struct fp_geom g;

	common(s, 512, 1, 1, 2, 0xF8);
	fp_put_le16(s + O_ROOT, 512);
	fp_put_le32(s + O_TOT32, 1 + 2 * 256 + 32 + 65524);
	fp_put_le16(s + O_FATSZ16, 256);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT16);
	ck_assert_uint_eq(g.cluster_count, 65524);
	fp_put_le32(s + O_TOT32, 1 + 2 * 256 + 32 + 65525);
	ck_assert_int_eq(decode(s, &g), FP_E_BPB);
	/* the last FAT12 count and the first FAT16 one */
	make_fat12(s);
	fp_put_le16(s + O_TOT16, 33 + 4084);
	fp_put_le16(s + O_FATSZ16, 9);
	ck_assert_int_eq(decode(s, &g), FP_E_BPB);	/* FAT too small */
	fp_put_le16(s + O_TOT16, 1 + 24 + 14 + 4084);
	fp_put_le16(s + O_FATSZ16, 12);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT12);
	fp_put_le16(s + O_TOT16, 1 + 24 + 14 + 4085);
	ck_assert_int_eq(decode(s, &g), FP_E_BPB);	/* FAT too small */
	fp_put_le16(s + O_TOT16, 1 + 34 + 14 + 4085);
	fp_put_le16(s + O_FATSZ16, 17);
	ck_assert_int_eq(decode(s, &g), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT16);
}
END_TEST

START_TEST(test_trunc)
{
	uint8_t s[512];
	struct fp_geom g;

	make_fat12(s);
	ck_assert_int_eq(fp_bpb_decode(s, 1474559, &g), FP_E_TRUNC);
	ck_assert_int_eq(fp_bpb_decode(s, 0, &g), FP_E_TRUNC);
	ck_assert_int_eq(fp_bpb_decode(s, 1474560, &g), FP_OK);
}
END_TEST

START_TEST(test_fsinfo)
{
	uint8_t s[512], t[512];
	struct fp_fsinfo fi;

	memset(s, 0xC3, sizeof(s));
	fp_put_le32(s + 0, 0x41615252);
	fp_put_le32(s + 484, 0x61417272);
	fp_put_le32(s + 488, 1234);
	fp_put_le32(s + 492, 0xFFFFFFFF);
	fp_put_le32(s + 508, 0xAA550000);
	fp_bpb_fsinfo_decode(s, &fi);
	ck_assert_int_eq(fi.valid, 1);
	ck_assert_int_eq(fi.trusted, 1);
	ck_assert_uint_eq(fi.free_count, 1234);
	ck_assert_uint_eq(fi.next_free, FP_FSINFO_UNKNOWN);
	memcpy(t, s, sizeof(s));
	fi.free_count = 99;
	fi.next_free = 7;
	fp_bpb_fsinfo_encode(t, &fi);
	ck_assert_uint_eq(fp_le32(t + 488), 99);
	ck_assert_uint_eq(fp_le32(t + 492), 7);
	ck_assert_mem_eq(t, s, 488);
	ck_assert_mem_eq(t + 496, s + 496, 16);
	s[511] = 0;
	fp_bpb_fsinfo_decode(s, &fi);
	ck_assert_int_eq(fi.valid, 0);
	ck_assert_int_eq(fi.trusted, 1);	/* what mformat 4.0.32 leaves */
	s[486] = 0;
	fp_bpb_fsinfo_decode(s, &fi);
	ck_assert_int_eq(fi.trusted, 0);
	fp_put_le32(s + 484, 0x61417272);
	s[1] = 0;
	fp_bpb_fsinfo_decode(s, &fi);
	ck_assert_int_eq(fi.trusted, 0);
}
END_TEST

/* Run mkfs.fat into @dir/x.img; 0 when it fails. */
static int mkfs(const char *dir, const char *args, unsigned kib,
		uint8_t *sec, uint64_t *len)
{
	char cmd[512], path[TEST_TMPL_LEN + 16];
	FILE *f;
	long end;
	int ok;

	snprintf(path, sizeof(path), "%s/x.img", dir);
	unlink(path);
	snprintf(cmd, sizeof(cmd),
		 "mkfs.fat -C --invariant %s '%s' %u >/dev/null 2>&1", args,
		 path, kib);
	if (system(cmd) != 0)
		return 0;
	f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	ok = fread(sec, 1, 512, f) == 512 && fseek(f, 0, SEEK_END) == 0;
	end = ftell(f);
	fclose(f);
	unlink(path);
	ck_assert(ok && end > 0);
	*len = (uint64_t)end;
	return 1;
}

/* Real boot sectors of known mkfs parameters. */
START_TEST(test_mkfs)
{
	char dir[TEST_TMPL_LEN];
	uint8_t s[512];
	uint64_t len, end;
	struct fp_geom g;

	ck_assert_ptr_nonnull(
		mkdtemp(test_tmpl(dir, sizeof(dir), "check_bpb")));
	ck_assert_msg(mkfs(dir, "-F 12", 1440, s, &len),
		      "mkfs.fat (dosfstools) is needed by this test");
	ck_assert_int_eq(fp_bpb_decode(s, len, &g), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT12);
	ck_assert_uint_eq(g.vol_len, 1474560);
	ck_assert_uint_eq(g.root_entries, 224);
	ck_assert(mkfs(dir, "-F 16 -s 4 -S 1024 -f 3 -r 1024", 32768, s,
		       &len));
	ck_assert_int_eq(fp_bpb_decode(s, len, &g), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT16);
	ck_assert_uint_eq(g.sec_len, 1024);
	ck_assert_uint_eq(g.clus_len, 4096);
	ck_assert_uint_eq(g.fat_count, 3);
	ck_assert_uint_eq(g.root_entries, 1024);
	ck_assert(mkfs(dir, "-F 32 -s 1 -R 40 -b 7", 65536, s, &len));
	ck_assert_int_eq(fp_bpb_decode(s, len, &g), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT32);
	ck_assert_uint_eq(g.reserved_secs, 40);
	ck_assert_uint_eq(g.backup_sec, 7);
	ck_assert_uint_eq(g.fsinfo_sec, 1);
	ck_assert_uint_eq(g.root_cl, 2);
	end = g.data_off + (uint64_t)g.cluster_count * g.clus_len;
	ck_assert(end <= g.vol_len && g.vol_len - end < g.clus_len);
	ck_assert_uint_eq(g.vol_len, 64u << 20);
	rmdir(dir);
}
END_TEST

static Suite *bpb_suite(void)
{
	Suite *s = suite_create("bpb");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_fat12);
	tcase_add_test(tc, test_fat16);
	tcase_add_test(tc, test_fat32);
	tcase_add_test(tc, test_fat32_few_clusters);
	tcase_add_test(tc, test_ext_flags);
	tcase_add_test(tc, test_fsinfo_none);
	tcase_add_test(tc, test_fat32_huge);
	tcase_add_test(tc, test_overflow);
	tcase_add_test(tc, test_not_fat);
	tcase_add_test(tc, test_maybe_mbr);
	tcase_add_loop_test(tc, test_bad_fat12, 0,
			    sizeof(bad12_cases) / sizeof(bad12_cases[0]));
	tcase_add_loop_test(tc, test_bad_fat32, 0,
			    sizeof(bad32_cases) / sizeof(bad32_cases[0]));
	tcase_add_test(tc, test_edges);
	tcase_add_test(tc, test_fat16_too_many);
	tcase_add_test(tc, test_trunc);
	tcase_add_test(tc, test_fsinfo);
	tcase_add_test(tc, test_mkfs);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bpb_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
