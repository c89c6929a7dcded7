/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_profile.c - unit tests for the boot targets' geometry rules. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "fs.h"
#include "problem.h"
#include "profile.h"

/* GPT type GUIDs as stored: the ESP's and Microsoft basic data. */
static const uint8_t guid_esp[16] = {
	0x28, 0x73, 0x2A, 0xC1, 0x1F, 0xF8, 0xD2, 0x11,
	0xBA, 0x4B, 0x00, 0xA0, 0xC9, 0x3E, 0xC9, 0x3B,
};
static const uint8_t guid_basic[16] = {
	0xA2, 0xA0, 0xD0, 0xEB, 0xE5, 0xB9, 0x33, 0x44,
	0x87, 0xC0, 0x68, 0xB6, 0xB7, 0x26, 0x99, 0xC7,
};

/* A FAT32 of 512 MiB, 4 KiB clusters, 2 FATs, bare: every rule holds. */
static void fat32_ok(struct fp_profile_geom *g)
{
	memset(g, 0, sizeof(*g));
	g->type = FP_FAT32;
	g->sec_len = 512;
	g->clus_len = 4096;
	g->cluster_count = 130000;
	g->fat_count = 2;
	g->vol_len = (uint64_t)512 << 20;
}

/* Check @g against profile @name: the rules broken, in *v. */
static size_t run(const char *name, const struct fp_profile_geom *g,
		  struct fp_profile_violation *v)
{
	const struct fp_profile *p = fp_profile_find(name);
	size_t n = 99;

	ck_assert_ptr_nonnull(p);
	fp_profile_check(p, g, v, &n);
	ck_assert_uint_le(n, FP_PROFILE_RULES_MAX);
	return n;
}

/* @g breaks exactly rule @rule of profile @name, with @figure, @limit. */
static void breaks_one(const char *name, const struct fp_profile_geom *g,
		       const char *rule, uint64_t figure, uint64_t limit)
{
	struct fp_profile_violation v[FP_PROFILE_RULES_MAX];
	size_t n = run(name, g, v);

	ck_assert_msg(n == 1, "%s: %zu rules broken, want %s alone", name, n,
		      rule);
	ck_assert_str_eq(fp_profile_rule_name(v[0].rule), rule);
	ck_assert_uint_eq(v[0].figure, figure);
	ck_assert_uint_eq(v[0].limit, limit);
}

static void breaks_none(const char *name, const struct fp_profile_geom *g)
{
	struct fp_profile_violation v[FP_PROFILE_RULES_MAX];
	size_t n = run(name, g, v);

	ck_assert_msg(n == 0, "%s: %zu rules broken, the first %s", name, n,
		      n ? fp_profile_rule_name(v[0].rule) : "");
}

START_TEST(test_names)
{
	static const char *const want[] = {
		"uefi-esp", "raspberry-pi", "uboot", "generic",
	};
	size_t i;

	for (i = 0; i < 4; i++) {
		ck_assert_ptr_nonnull(fp_profile_at(i));
		ck_assert_str_eq(fp_profile_name(fp_profile_at(i)), want[i]);
		ck_assert_ptr_eq(fp_profile_find(want[i]), fp_profile_at(i));
	}
	ck_assert_ptr_null(fp_profile_at(4));
	ck_assert_ptr_null(fp_profile_find("UEFI-ESP"));
	ck_assert_ptr_null(fp_profile_find(""));
	ck_assert_ptr_null(fp_profile_rule_find("no-such-rule"));
	ck_assert_str_eq(fp_profile_rule_name(
		fp_profile_rule_find("esp-fat32")), "esp-fat32");
}
END_TEST

START_TEST(test_sound_fat32)
{
	struct fp_profile_geom g;
	size_t i;

	fat32_ok(&g);
	for (i = 0; fp_profile_at(i); i++)
		breaks_none(fp_profile_name(fp_profile_at(i)), &g);
}
END_TEST

/* Microsoft's FAT specification: the cluster counts of each type. */
START_TEST(test_cluster_counts)
{
	struct fp_profile_geom g;

	fat32_ok(&g);
	g.cluster_count = 65524;
	breaks_one("generic", &g, "fat32-clusters", 65524, 65525);
	g.cluster_count = 65525;
	breaks_none("generic", &g);
	g.cluster_count = 0x0FFFFFF6;
	breaks_one("generic", &g, "fat32-clusters", 0x0FFFFFF6, 0x0FFFFFF5);
	g.type = FP_FAT16;
	g.clus_len = 2048;
	g.cluster_count = 4084;
	breaks_one("generic", &g, "fat16-clusters", 4084, 4085);
	g.cluster_count = 65525;
	breaks_one("generic", &g, "fat16-clusters", 65525, 65524);
	g.cluster_count = 4085;
	breaks_none("generic", &g);
	g.cluster_count = 65524;
	breaks_none("generic", &g);
	g.type = FP_FAT12;
	g.cluster_count = 4085;
	breaks_one("generic", &g, "fat12-clusters", 4085, 4084);
	g.cluster_count = 4084;
	breaks_none("generic", &g);
	/* every profile has the counts */
	g.type = FP_FAT32;
	g.cluster_count = 60000;
	breaks_one("uboot", &g, "fat32-clusters", 60000, 65525);
}
END_TEST

START_TEST(test_generic_sizes)
{
	struct fp_profile_geom g;

	fat32_ok(&g);
	g.sec_len = 256;
	breaks_one("generic", &g, "sector-size", 256, 512);
	g.sec_len = 1536;
	breaks_one("generic", &g, "sector-size", 1536, 512);
	g.sec_len = 8192;
	breaks_one("generic", &g, "sector-size", 8192, 512);
	g.sec_len = 4096;
	breaks_none("generic", &g);
	fat32_ok(&g);
	g.clus_len = 65536;
	breaks_one("generic", &g, "cluster-size", 65536, 32768);
	g.clus_len = 32768;
	breaks_none("generic", &g);
	g.fat_count = 3;
	breaks_one("generic", &g, "fat-count", 3, 2);
	g.fat_count = 1;
	breaks_none("generic", &g);
}
END_TEST

START_TEST(test_uefi)
{
	struct fp_profile_geom g;

	/* FAT16 on a fixed disk; the same on removable media */
	fat32_ok(&g);
	g.type = FP_FAT16;
	g.cluster_count = 30000;
	breaks_one("uefi-esp", &g, "esp-fat32", 16, 32);
	g.removable = 1;
	breaks_none("uefi-esp", &g);
	g.type = FP_FAT12;
	g.cluster_count = 4000;
	breaks_none("uefi-esp", &g);
	/* 4 KiB sectors: on a 512-byte disk, and on a 4Kn disk */
	fat32_ok(&g);
	g.sec_len = 4096;
	breaks_one("uefi-esp", &g, "esp-sector-size", 4096, 512);
	g.part_kind = FP_PT_GPT;
	memcpy(g.gpt_type, guid_esp, 16);
	g.disk_sec_len = 4096;
	breaks_none("uefi-esp", &g);
	g.sec_len = 512;
	breaks_one("uefi-esp", &g, "esp-sector-size", 512, 4096);
	/* the size */
	fat32_ok(&g);
	g.vol_len = ((uint64_t)32 << 20) - 512;
	breaks_one("uefi-esp", &g, "esp-min-size", g.vol_len,
		   (uint64_t)32 << 20);
	g.vol_len = (uint64_t)32 << 20;
	breaks_none("uefi-esp", &g);
}
END_TEST

START_TEST(test_uefi_partition_type)
{
	struct fp_profile_geom g;

	fat32_ok(&g);
	g.part_kind = FP_PT_MBR;
	g.mbr_type = 0x0C;
	breaks_one("uefi-esp", &g, "esp-mbr-type", 0x0C, 0xEF);
	g.mbr_type = 0xEF;
	breaks_none("uefi-esp", &g);
	g.part_kind = FP_PT_GPT;
	g.mbr_type = 0;
	memcpy(g.gpt_type, guid_basic, 16);
	breaks_one("uefi-esp", &g, "esp-gpt-type", 0, 0);
	memcpy(g.gpt_type, guid_esp, 16);
	breaks_none("uefi-esp", &g);
	/* not in a table: nothing to say */
	g.part_kind = FP_PT_NONE;
	memset(g.gpt_type, 0, 16);
	breaks_none("uefi-esp", &g);
	/* the generic profile has no partition rule */
	g.part_kind = FP_PT_MBR;
	g.mbr_type = 0x83;
	breaks_none("generic", &g);
}
END_TEST

START_TEST(test_raspberry_pi)
{
	struct fp_profile_geom g;

	fat32_ok(&g);
	g.type = FP_FAT12;
	g.clus_len = 2048;
	g.cluster_count = 2000;
	g.vol_len = 4 << 20;
	breaks_one("raspberry-pi", &g, "rpi-fat12", 12, 16);
	breaks_none("generic", &g);
	g.type = FP_FAT16;
	g.cluster_count = 30000;
	breaks_none("raspberry-pi", &g);
	g.part_kind = FP_PT_MBR;
	g.mbr_type = 0xEF;
	breaks_one("raspberry-pi", &g, "rpi-mbr-type", 0xEF, 0x0C);
	g.mbr_type = 0x0E;
	breaks_none("raspberry-pi", &g);
	/* the ROM's rules are not the ESP's: 4 KiB sectors say nothing */
	fat32_ok(&g);
	g.sec_len = 4096;
	breaks_none("raspberry-pi", &g);
}
END_TEST

START_TEST(test_uboot)
{
	struct fp_profile_geom g;

	fat32_ok(&g);
	g.clus_len = 131072;
	breaks_one("uboot", &g, "uboot-cluster-size", 131072, 65536);
	g.clus_len = 65536;
	breaks_none("uboot", &g);
	fat32_ok(&g);
	g.sec_len = 4096;
	breaks_one("uboot", &g, "uboot-sector-size", 4096, 512);
	g.disk_sec_len = 4096;
	breaks_none("uboot", &g);
	g.type = FP_FAT12;
	g.cluster_count = 100;
	breaks_none("uboot", &g);
}
END_TEST

/* Several rules at once are all reported, in the profile's order. */
START_TEST(test_several)
{
	struct fp_profile_violation v[FP_PROFILE_RULES_MAX];
	struct fp_profile_geom g;

	fat32_ok(&g);
	g.sec_len = 4096;
	g.clus_len = 4096;
	g.cluster_count = 5000;
	g.vol_len = 24 << 20;
	g.fat_count = 4;
	g.part_kind = FP_PT_MBR;
	g.mbr_type = 0x0B;
	ck_assert_uint_eq(run("uefi-esp", &g, v), 5);
	ck_assert_str_eq(fp_profile_rule_name(v[0].rule), "fat32-clusters");
	ck_assert_str_eq(fp_profile_rule_name(v[1].rule), "fat-count");
	ck_assert_str_eq(fp_profile_rule_name(v[2].rule), "esp-sector-size");
	ck_assert_str_eq(fp_profile_rule_name(v[3].rule), "esp-min-size");
	ck_assert_str_eq(fp_profile_rule_name(v[4].rule), "esp-mbr-type");
}
END_TEST

START_TEST(test_from_bpb)
{
	struct fp_profile_geom pg;
	struct fp_locate loc;
	struct fp_geom g;

	memset(&g, 0, sizeof(g));
	g.type = FP_FAT16;
	g.sec_len = 1024;
	g.clus_len = 4096;
	g.cluster_count = 5000;
	g.fat_count = 1;
	g.vol_len = 21 << 20;
	memset(&loc, 0, sizeof(loc));
	loc.kind = FP_PT_MBR;
	loc.sec_len = 512;
	loc.mbr_type = 0x06;
	memset(&pg, 0xA5, sizeof(pg));
	fp_profile_geom_from_bpb(&pg, &g, &loc);
	/* partition 0: the volume is not a partition's */
	ck_assert_int_eq(pg.type, FP_FAT16);
	ck_assert_uint_eq(pg.sec_len, 1024);
	ck_assert_uint_eq(pg.clus_len, 4096);
	ck_assert_uint_eq(pg.cluster_count, 5000);
	ck_assert_uint_eq(pg.fat_count, 1);
	ck_assert_uint_eq(pg.vol_len, 21 << 20);
	ck_assert_int_eq(pg.part_kind, FP_PT_NONE);
	ck_assert_uint_eq(pg.disk_sec_len, 0);
	ck_assert_uint_eq(pg.mbr_type, 0);
	ck_assert_int_eq(pg.removable, 0);
	loc.part = 2;
	fp_profile_geom_from_bpb(&pg, &g, &loc);
	ck_assert_int_eq(pg.part_kind, FP_PT_MBR);
	ck_assert_uint_eq(pg.disk_sec_len, 512);
	ck_assert_uint_eq(pg.mbr_type, 0x06);
	loc.kind = FP_PT_GPT;
	loc.mbr_type = 0;
	memcpy(loc.gpt_type, guid_basic, 16);
	fp_profile_geom_from_bpb(&pg, &g, &loc);
	ck_assert_int_eq(memcmp(pg.gpt_type, guid_basic, 16), 0);
	fp_profile_geom_from_bpb(&pg, &g, NULL);
	ck_assert_int_eq(pg.part_kind, FP_PT_NONE);
}
END_TEST

START_TEST(test_format)
{
	const struct fp_profile_rule *r = fp_profile_rule_find("esp-mbr-type");
	struct fp_finding f;
	char buf[512], small[12];

	fp_profile_rule_format(r, 0x0C, 0xEF, buf, sizeof(buf));
	ck_assert_msg(!strncmp(buf, "esp-mbr-type: MBR partition type 0x0C;",
			       38), "%s", buf);
	r = fp_profile_rule_find("fat32-clusters");
	fp_profile_rule_format(r, 60000, 65525, buf, sizeof(buf));
	ck_assert_msg(!strncmp(buf, "fat32-clusters: FAT32 volume of 60000 "
			       "clusters;", 47), "%s", buf);
	memset(small, 'x', sizeof(small));
	fp_profile_rule_format(r, 60000, 65525, small, sizeof(small));
	ck_assert_str_eq(small, "fat32-clust");
	/* the finding of --verify says the same */
	memset(&f, 0, sizeof(f));
	f.problem = FP_P_PROFILE;
	f.rule = r;
	f.a = 60000;
	f.b = 65525;
	fp_problem_format(&f, buf, sizeof(buf));
	ck_assert_msg(!strncmp(buf, "fat32-clusters: FAT32 volume of 60000 "
			       "clusters;", 47), "%s", buf);
	ck_assert_str_eq(fp_problem_code(FP_P_PROFILE), "profile");
	ck_assert_int_eq(fp_problem_severity(FP_P_PROFILE), FP_SEV_WARNING);
	fp_problem_format(&f, small, sizeof(small));
	ck_assert_str_eq(small, "fat32-clust");
}
END_TEST

static Suite *profile_suite(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("rules");

	tcase_add_test(tc, test_names);
	tcase_add_test(tc, test_sound_fat32);
	tcase_add_test(tc, test_cluster_counts);
	tcase_add_test(tc, test_generic_sizes);
	tcase_add_test(tc, test_uefi);
	tcase_add_test(tc, test_uefi_partition_type);
	tcase_add_test(tc, test_raspberry_pi);
	tcase_add_test(tc, test_uboot);
	tcase_add_test(tc, test_several);
	tcase_add_test(tc, test_from_bpb);
	tcase_add_test(tc, test_format);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(profile_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
