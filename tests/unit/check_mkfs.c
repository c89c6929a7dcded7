/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_mkfs.c - unit tests for the geometry of new volumes (mkfs.h). */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "findings.h"
#include "fs.h"
#include "le.h"
#include "mkfs.h"
#include "verify.h"

#define MiB (1024ull * 1024)
#define GiB (1024ull * MiB)

/* Clusters the layout of @g leaves, computed here from its fields. */
static uint64_t count_of(const struct fp_mkfs_geom *g)
{
	uint64_t meta = g->reserved_secs + (uint64_t)g->fat_count *
			g->fat_secs + (uint64_t)g->root_entries * 32 /
			g->sec_len;

	return (g->total_secs - meta) / (g->clus_len / g->sec_len);
}

/* What every geometry must satisfy, whatever chose it. */
static void check_sane(const struct fp_mkfs_geom *g, uint64_t dev_off)
{
	uint64_t n = count_of(g), entries = n + 2;
	uint64_t need = g->type == FP_FAT12 ? (entries * 3 + 1) / 2 :
			entries * (g->type / 8);

	ck_assert_uint_eq(n, g->cluster_count);
	if (g->type == FP_FAT12)
		ck_assert_uint_le(n, 4084);
	else if (g->type == FP_FAT16)
		ck_assert(n >= 4085 && n <= 65524);
	else
		ck_assert(n >= 65525 && n <= 0x0FFFFFF5);
	ck_assert_uint_ge((uint64_t)g->fat_secs * g->sec_len, need);
	/* the smallest FAT, unless padded for the alignment */
	ck_assert_uint_eq((dev_off + g->data_off) % g->align, 0);
	ck_assert_uint_eq(g->data_off, (g->reserved_secs +
			  (uint64_t)g->fat_count * g->fat_secs) * g->sec_len +
			  (uint64_t)g->root_entries * 32);
	ck_assert_uint_eq(g->root_entries * 32 % g->sec_len, 0);
	ck_assert_uint_le(g->reserved_secs, 0xFFFF);
}

struct auto_case {
	uint64_t len;
	uint32_t sec;
	enum fp_fat_type type;
	uint32_t clus;
	uint64_t align;
};

/* Sizes as mkfs.fat picks types (docs/MKFS.md has both tables). */
static const struct auto_case auto_cases[] = {
	{ 1 * MiB, 0, FP_FAT12, 2048, 2048 },
	{ 4 * MiB, 0, FP_FAT12, 2048, MiB },
	{ 8 * MiB, 0, FP_FAT12, 2048, MiB },
	{ 16 * MiB, 0, FP_FAT12, 4096, MiB },
	{ 17 * MiB, 0, FP_FAT16, 2048, MiB },
	{ 128 * MiB, 0, FP_FAT16, 2048, MiB },
	{ 256 * MiB, 0, FP_FAT16, 4096, MiB },
	{ 511 * MiB, 0, FP_FAT16, 8192, MiB },
	{ 512 * MiB, 0, FP_FAT32, 4096, MiB },
	{ 8 * GiB, 0, FP_FAT32, 4096, MiB },
	{ 16 * GiB, 0, FP_FAT32, 8192, MiB },
	{ 64 * GiB, 0, FP_FAT32, 32768, MiB },
	{ 2047 * GiB, 0, FP_FAT32, 32768, MiB },
	{ 64 * MiB, 4096, FP_FAT16, 4096, MiB },
	{ 1 * GiB, 4096, FP_FAT32, 4096, MiB },
};

START_TEST(test_auto)
{
	const struct auto_case *c = &auto_cases[_i];
	struct fp_mkfs_opts o = { .vol_len = c->len, .sec_len = c->sec };
	struct fp_mkfs_geom g;
	struct fp_mkfs_diag d;

	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
	ck_assert_int_eq(g.type, c->type);
	ck_assert_uint_eq(g.clus_len, c->clus);
	ck_assert_uint_eq(g.align, c->align);
	ck_assert_uint_eq(g.sec_len, c->sec ? c->sec : 512);
	ck_assert_uint_eq(g.fat_count, 2);
	ck_assert_uint_eq(g.media, 0xF8);
	check_sane(&g, 0);
}
END_TEST

struct bad_case {
	struct fp_mkfs_opts o;
	enum fp_mkfs_why why;
};

static const struct bad_case bad_cases[] = {
	{ { .vol_len = 64 * MiB, .type = FP_FAT12, .clus_len = 2048 },
	  FP_MKFS_FAT12_MANY },
	{ { .vol_len = 1 * MiB, .type = FP_FAT16 }, FP_MKFS_FAT16_FEW },
	{ { .vol_len = 2048 * GiB }, FP_MKFS_TOO_BIG },
	{ { .vol_len = 8 * GiB, .type = FP_FAT16 }, FP_MKFS_FAT16_MANY },
	{ { .vol_len = 16 * MiB, .type = FP_FAT32 }, FP_MKFS_FAT32_FEW },
	/* 32 KiB clusters at most unless asked for */
	{ { .vol_len = 9000 * GiB, .sec_len = 4096 }, FP_MKFS_FAT32_MANY },
	{ { .vol_len = 16384 * GiB, .sec_len = 4096 }, FP_MKFS_TOO_BIG },
	{ { .vol_len = 4 * GiB, .type = FP_FAT32, .reserved_secs = 7 },
	  FP_MKFS_RESERVED },
	{ { .vol_len = 4 * MiB, .clus_len = 3072 }, FP_MKFS_CLUSTER },
	{ { .vol_len = 4 * MiB, .clus_len = 256 }, FP_MKFS_CLUSTER },
	{ { .vol_len = 4 * MiB, .sec_len = 4096, .clus_len = 1024 * 1024 },
	  FP_MKFS_CLUSTER },
	{ { .vol_len = 4 * MiB, .sec_len = 1000 }, FP_MKFS_SECTOR },
	{ { .vol_len = 4 * MiB, .sec_len = 8192 }, FP_MKFS_SECTOR },
	{ { .vol_len = 4 * MiB, .dev_off = 100 }, FP_MKFS_OFFSET },
	{ { .vol_len = 4 * MiB, .has_root_entries = 1, .root_entries = 100 },
	  FP_MKFS_ROOT },
	{ { .vol_len = 4 * MiB, .has_root_entries = 1, .root_entries = 0 },
	  FP_MKFS_ROOT },
	{ { .vol_len = 4 * GiB, .type = FP_FAT32, .has_root_entries = 1,
	    .root_entries = 512 }, FP_MKFS_ROOT },
	{ { .vol_len = 4 * MiB, .align = 3000 }, FP_MKFS_ALIGN },
	/* reserved and root given, two FATs: an odd padding cannot be */
	{ { .vol_len = 4 * MiB, .type = FP_FAT12, .clus_len = 2048,
	    .reserved_secs = 3, .has_root_entries = 1, .root_entries = 512,
	    .align = 1024 * 1024 }, FP_MKFS_ALIGN },
	{ { .vol_len = 8192 }, FP_MKFS_TOO_SMALL },
};

START_TEST(test_bad)
{
	const struct bad_case *c = &bad_cases[_i];
	struct fp_mkfs_geom g;
	struct fp_mkfs_diag d;

	memset(&g, 0xAB, sizeof(g));
	ck_assert_int_eq(fp_mkfs_geom(&c->o, &g, &d), FP_E_GEOM);
	ck_assert_int_eq(d.why, c->why);
	ck_assert_uint_eq(g.sec_len, 0xABABABABu);	/* left alone */
}
END_TEST

/* Values given are kept exactly; the padding goes where none was given. */
START_TEST(test_kept)
{
	struct fp_mkfs_opts o = {
		.vol_len = 32 * MiB, .type = FP_FAT16, .clus_len = 1024,
		.reserved_secs = 3, .fat_count = 3, .has_root_entries = 1,
		.root_entries = 224, .media = 0xF0, .has_hidden = 1,
		.hidden_secs = 63, .align = 512,
	};
	struct fp_mkfs_geom g;
	struct fp_mkfs_diag d;

	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT16);
	ck_assert_uint_eq(g.clus_len, 1024);
	ck_assert_uint_eq(g.reserved_secs, 3);
	ck_assert_uint_eq(g.fat_count, 3);
	ck_assert_uint_eq(g.root_entries, 224);
	ck_assert_uint_eq(g.media, 0xF0);
	ck_assert_uint_eq(g.hidden_secs, 63);
	ck_assert_uint_eq(g.total_secs, 65536);
	check_sane(&g, 0);
	/* the smallest FAT: one sector less would not hold the clusters */
	ck_assert_uint_lt((uint64_t)(g.fat_secs - 1) * 512,
			  ((uint64_t)g.cluster_count + 2) * 2);

	/* reserved given: the root directory takes the padding */
	o.align = 0;
	o.has_root_entries = 0;
	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
	ck_assert_uint_eq(g.reserved_secs, 3);
	ck_assert_uint_gt(g.root_entries, 512);
	ck_assert_uint_eq(g.align, MiB);
	check_sane(&g, 0);
}
END_TEST

/* A partition at 63 sectors: aligned on the device, hidden by default. */
START_TEST(test_dev_off)
{
	struct fp_mkfs_opts o = { .vol_len = 300 * MiB, .dev_off = 63 * 512 };
	struct fp_mkfs_geom g;
	struct fp_mkfs_diag d;

	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
	ck_assert_uint_eq(g.hidden_secs, 63);
	ck_assert_uint_eq(g.align, MiB);
	check_sane(&g, o.dev_off);
}
END_TEST

/* Above 32 KiB when asked for, with 1, 2 and 3 FATs. */
START_TEST(test_big_cluster)
{
	struct fp_mkfs_opts o = { .vol_len = 8192 * GiB, .sec_len = 4096,
				  .clus_len = 65536, .fat_count = 1 };
	struct fp_mkfs_geom g;
	struct fp_mkfs_diag d;
	uint32_t n;

	for (n = 1; n <= 3; n++) {
		o.fat_count = n;
		ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
		ck_assert_int_eq(g.type, FP_FAT32);
		ck_assert_uint_eq(g.clus_len, 65536);
		ck_assert_uint_eq(g.fat_count, n);
		check_sane(&g, 0);
	}
}
END_TEST

/* FAT32 just above its limit, FAT16 at both of its limits. */
START_TEST(test_limits)
{
	struct fp_mkfs_opts o = { .type = FP_FAT32, .clus_len = 512,
				  .align = 512 };
	struct fp_mkfs_geom g;
	struct fp_mkfs_diag d;
	uint64_t secs;

	/* 65525 clusters: 32 reserved + 2 * 512 FAT + 65525 data sectors */
	secs = 32 + 2 * 512 + 65525;
	o.vol_len = secs * 512;
	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
	ck_assert_uint_eq(g.cluster_count, 65525);
	o.vol_len -= 512;
	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_E_GEOM);
	ck_assert_int_eq(d.why, FP_MKFS_FAT32_FEW);
	ck_assert_uint_eq(d.figure, 65524);

	o.type = FP_FAT16;
	o.vol_len = (1 + 2 * 16 + 32 + 4085) * 512ull;
	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
	ck_assert_uint_eq(g.cluster_count, 4085);
	o.vol_len -= 512;
	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_E_GEOM);
	ck_assert_int_eq(d.why, FP_MKFS_FAT16_FEW);
}
END_TEST

struct write_case {
	uint64_t len;
	uint32_t sec;
	enum fp_fat_type type;
	uint32_t fats;
	uint32_t clus;
};

static const struct write_case write_cases[] = {
	{ 1 * MiB, 512, FP_FAT12, 2, 0 },
	{ 4 * MiB, 4096, FP_FAT12, 1, 0 },
	{ 8 * MiB, 512, FP_FAT16, 2, 512 },
	{ 64 * MiB, 4096, FP_FAT16, 3, 0 },
	{ 40 * MiB, 512, FP_FAT32, 2, 512 },
	{ 300 * MiB, 4096, FP_FAT32, 1, 4096 },
	{ 520 * MiB, 512, FP_FAT32, 3, 0 },
};

/*
 * Written into memory, the volume reads back as the geometry says,
 * opens, and --verify finds nothing in it: the label, the counts.
 */
/*
 * --profile: what is left to choose keeps the rules (uefi-esp: FAT32 at
 * 100 MiB where the size alone picks FAT16; the table's 4096-byte blocks
 * as the sector; raspberry-pi: FAT16 at 4 MiB), and what was given and
 * breaks a rule is refused with the rule and its figure.
 */
START_TEST(test_profile)
{
	const struct fp_profile *esp = fp_profile_find("uefi-esp");
	const struct fp_profile *rpi = fp_profile_find("raspberry-pi");
	struct fp_mkfs_opts o = { 0 };
	struct fp_profile_geom where = { 0 };
	struct fp_mkfs_diag d;
	struct fp_mkfs_geom g;

	o.vol_len = 100 * MiB;
	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT16);
	ck_assert_int_eq(fp_mkfs_geom_profile(&o, NULL, NULL, &g, &d), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT16);
	ck_assert_int_eq(fp_mkfs_geom_profile(&o, esp, NULL, &g, &d), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT32);
	ck_assert_int_eq(g.sec_len, 512);
	ck_assert_uint_ge(g.cluster_count, FP_FAT32_MIN_CLUSTERS);
	check_sane(&g, 0);

	o.vol_len = 300 * MiB;
	where.part_kind = FP_PT_GPT;
	where.disk_sec_len = 4096;
	memcpy(where.gpt_type, "\x28\x73\x2A\xC1\x1F\xF8\xD2\x11"
	       "\xBA\x4B\x00\xA0\xC9\x3E\xC9\x3B", 16);
	ck_assert_int_eq(fp_mkfs_geom_profile(&o, esp, &where, &g, &d), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT32);
	ck_assert_int_eq(g.sec_len, 4096);

	o.sec_len = 4096;
	ck_assert_int_eq(fp_mkfs_geom_profile(&o, esp, NULL, &g, &d),
			 FP_E_GEOM);
	ck_assert_int_eq(d.why, FP_MKFS_PROFILE);
	ck_assert_uint_eq(d.rule_count, 1);
	ck_assert_str_eq(fp_profile_rule_name(d.rules[0].rule),
			 "esp-sector-size");
	ck_assert_uint_eq(d.rules[0].figure, 4096);
	ck_assert_uint_eq(d.rules[0].limit, 512);

	o.sec_len = 0;
	o.vol_len = 16 * MiB;
	ck_assert_int_eq(fp_mkfs_geom_profile(&o, esp, NULL, &g, &d),
			 FP_E_GEOM);
	ck_assert_int_eq(d.why, FP_MKFS_PROFILE);
	ck_assert_str_eq(fp_profile_rule_name(d.rules[d.rule_count - 1].rule),
			 "esp-min-size");
	ck_assert_uint_eq(d.rules[d.rule_count - 1].figure, 16 * MiB);

	o.vol_len = 4 * MiB;
	ck_assert_int_eq(fp_mkfs_geom_profile(&o, rpi, NULL, &g, &d), FP_OK);
	ck_assert_int_eq(g.type, FP_FAT16);
	o.type = FP_FAT12;
	ck_assert_int_eq(fp_mkfs_geom_profile(&o, rpi, NULL, &g, &d),
			 FP_E_GEOM);
	ck_assert_str_eq(fp_profile_rule_name(d.rules[0].rule), "rpi-fat12");
}
END_TEST

START_TEST(test_write)
{
	const struct write_case *c = &write_cases[_i];
	struct fp_mkfs_opts o = { .vol_len = c->len, .sec_len = c->sec,
				  .type = c->type, .fat_count = c->fats,
				  .clus_len = c->clus };
	struct fp_mkfs_meta m = { .volume_id = 0x12345678, .has_label = 1,
				  .time = 1700000000, .utc = 1 };
	struct fp_report_summary sum;
	struct fp_report *r;
	struct fp_mkfs_geom g;
	struct fp_mkfs_diag d;
	struct fp_img *img;
	struct fp_geom fg;
	struct fp_fs *fs;
	uint8_t bs[4096];

	ck_assert_int_eq(fp_mkfs_label("Boot", m.label), FP_OK);
	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
	ck_assert_int_eq(fp_img_sparse(c->len, &img), FP_OK);
	ck_assert_int_eq(fp_mkfs_write(img, &g, &m, 1), FP_OK);
	ck_assert_int_eq(fp_img_read(img, 0, bs, sizeof(bs)), FP_OK);
	ck_assert_int_eq(fp_bpb_decode(bs, c->len, &fg), FP_OK);
	ck_assert_int_eq(fg.type, c->type);
	ck_assert_uint_eq(fg.sec_len, g.sec_len);
	ck_assert_uint_eq(fg.clus_len, g.clus_len);
	ck_assert_uint_eq(fg.fat_count, c->fats);
	ck_assert_uint_eq(fg.cluster_count, g.cluster_count);
	ck_assert_uint_eq(fg.data_off, g.data_off);
	ck_assert_uint_eq(fg.fat_secs, g.fat_secs);
	ck_assert(fg.has_label);
	ck_assert(!memcmp(fg.label, "Boot       ", 11));
	ck_assert_uint_eq(fp_le32(bs + (c->type == FP_FAT32 ? 67 : 39)),
			  0x12345678);
	ck_assert_int_eq(fp_fs_open(img, &fs), FP_OK);
	if (c->type == FP_FAT32) {
		ck_assert(fp_fs_fsinfo(fs)->valid);
		ck_assert_uint_eq(fp_fs_fsinfo(fs)->free_count,
				  g.cluster_count - 1);
		ck_assert_uint_eq(fg.backup_sec, 6);
	}
	fp_fs_free(fs);
	ck_assert_int_eq(fp_verify(img, &r), FP_OK);
	fp_report_summary(r, &sum);
	ck_assert_uint_eq(sum.errors, 0);
	ck_assert_uint_eq(sum.warnings, 0);
	ck_assert_uint_eq(sum.free_cl, g.cluster_count -
			  (c->type == FP_FAT32));
	fp_report_free(r);
	fp_img_close(img);
}
END_TEST

/* The same volume written with its zeros into a file-like image. */
START_TEST(test_write_zeros)
{
	struct fp_mkfs_opts o = { .vol_len = 2 * MiB };
	struct fp_mkfs_meta m = { .volume_id = 1 };
	struct fp_mkfs_geom g;
	struct fp_mkfs_diag d;
	struct fp_img *img;
	uint8_t *junk = malloc(2 * MiB);
	struct fp_report *r;
	struct fp_report_summary sum;
	const uint8_t *b;

	ck_assert_ptr_nonnull(junk);
	memset(junk, 0x5A, 2 * MiB);
	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
	ck_assert_int_eq(fp_img_mem(junk, 2 * MiB, &img), FP_OK);
	ck_assert_int_eq(fp_mkfs_write(img, &g, &m, 0), FP_OK);
	b = fp_img_mem_data(img);
	/* the stub's message, the jump to the code, the signature */
	ck_assert_ptr_nonnull(memmem(b + 62, 448, "not bootable", 12));
	ck_assert_uint_eq(b[0], 0xEB);
	ck_assert_uint_eq(b[1], 62 - 2);
	ck_assert_uint_eq(b[510], 0x55);
	ck_assert_uint_eq(b[511], 0xAA);
	ck_assert(!memcmp(b + 43, "NO NAME    ", 11));
	ck_assert_int_eq(fp_verify(img, &r), FP_OK);
	fp_report_summary(r, &sum);
	ck_assert_uint_eq(sum.errors + sum.warnings, 0);
	ck_assert_uint_eq(sum.free_cl, g.cluster_count);
	fp_report_free(r);
	fp_img_close(img);
	free(junk);
}
END_TEST

START_TEST(test_label)
{
	uint8_t l[11];

	ck_assert_int_eq(fp_mkfs_label("ESP", l), FP_OK);
	ck_assert(!memcmp(l, "ESP        ", 11));
	ck_assert_int_eq(fp_mkfs_label("lower Case1", l), FP_OK);
	ck_assert(!memcmp(l, "lower Case1", 11));
	ck_assert_int_eq(fp_mkfs_label("", l), FP_E_NAME);
	ck_assert_int_eq(fp_mkfs_label("TWELVE_BYTES", l), FP_E_NAME);
	ck_assert_int_eq(fp_mkfs_label(" LEAD", l), FP_E_NAME);
	ck_assert_int_eq(fp_mkfs_label("A.B", l), FP_E_NAME);
	ck_assert_int_eq(fp_mkfs_label("A\"B", l), FP_E_NAME);
	ck_assert_int_eq(fp_mkfs_label("A\tB", l), FP_E_NAME);
	ck_assert_int_eq(fp_mkfs_label("\xc3\xa9", l), FP_E_NAME);
	ck_assert_uint_eq(fp_mkfs_volume_id(1, "A"),
			  fp_mkfs_volume_id(1, "A"));
	ck_assert_uint_ne(fp_mkfs_volume_id(1, "A"),
			  fp_mkfs_volume_id(2, "A"));
	ck_assert_uint_ne(fp_mkfs_volume_id(1, "A"),
			  fp_mkfs_volume_id(1, "B"));
	ck_assert_uint_eq(fp_mkfs_code_len(FP_FAT32), 420);
	ck_assert_uint_eq(fp_mkfs_code_len(FP_FAT16), 448);
}
END_TEST

/* The plan in memory: what fits, what does not, a source that fails. */
START_TEST(test_plan_fits)
{
	struct fp_mkfs_opts o = { .vol_len = 4 * MiB };
	struct fp_mkfs_meta m = { .volume_id = 1 };
	struct fp_req reqs[2] = { { "/a.bin", 100000 }, { "/b.bin", 1 } };
	struct fp_req_src srcs[2] = { { NULL, 0, 0, NULL },
				      { "/nonexistent/b", 0, 0, NULL } };
	struct fp_plan_opts po = { .time = 1700000000, .utc = 1 };
	struct fp_plan_diag diag;
	struct fp_mkfs_geom g;
	struct fp_mkfs_diag d;
	struct fp_geom fg;
	uint32_t free_cl = 0;

	ck_assert_int_eq(fp_mkfs_geom(&o, &g, &d), FP_OK);
	ck_assert_int_eq(fp_mkfs_plan_fits(&g, &m, &po, reqs, 1, &free_cl,
					   &fg, &diag), FP_OK);
	ck_assert_uint_eq(free_cl, g.cluster_count - (100000 + 2047) / 2048);
	ck_assert_uint_eq(fg.cluster_count, g.cluster_count);
	reqs[0].size = 4 * MiB;
	ck_assert_int_eq(fp_mkfs_plan_fits(&g, &m, &po, reqs, 1, &free_cl,
					   &fg, &diag), FP_E_NOSPC);
	reqs[0].size = 10;
	po.srcs = srcs;
	ck_assert_int_eq(fp_mkfs_plan_fits(&g, &m, &po, reqs, 2, &free_cl,
					   &fg, &diag), FP_E_SRC);
	ck_assert_uint_eq(diag.req, 1);
	ck_assert_int_eq(diag.errnum, ENOENT);
}
END_TEST

static Suite *mkfs_suite(void)
{
	Suite *s = suite_create("mkfs");
	TCase *tc = tcase_create("geom");

	tcase_add_loop_test(tc, test_auto, 0,
			    sizeof(auto_cases) / sizeof(auto_cases[0]));
	tcase_add_loop_test(tc, test_bad, 0,
			    sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, test_kept);
	tcase_add_test(tc, test_dev_off);
	tcase_add_test(tc, test_big_cluster);
	tcase_add_test(tc, test_limits);
	tcase_add_test(tc, test_profile);
	suite_add_tcase(s, tc);
	tc = tcase_create("write");
	tcase_set_timeout(tc, 60);
	tcase_add_loop_test(tc, test_write, 0,
			    sizeof(write_cases) / sizeof(write_cases[0]));
	tcase_add_test(tc, test_write_zeros);
	tcase_add_test(tc, test_label);
	tcase_add_test(tc, test_plan_fits);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(mkfs_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
