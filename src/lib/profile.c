/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * profile.c - the geometry rules of boot targets (--profile).  Each rule
 * says where it comes from in docs/PROFILES.md; the figures are the
 * public specifications' and the readers' documented limits.
 */
#include "profile.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "fs.h"

#define FAT12_MAX_CLUSTERS 4084u
#define FAT16_MIN_CLUSTERS 4085u
#define FAT16_MAX_CLUSTERS 65524u
#define FAT32_MAX_CLUSTERS 0x0FFFFFF5u
#define SPEC_CLUSTER_MAX (32u * 1024u)	/* Microsoft's FAT specification */
#define UBOOT_CLUSTER_MAX (64u * 1024u)	/* CONFIG_FS_FAT_MAX_CLUSTSIZE */
#define ESP_MIN_LEN ((uint64_t)32 << 20)
#define DISK_SEC_DEFAULT 512u
#define MBR_TYPE_ESP 0xEF

/* C12A7328-F81F-11D2-BA4B-00A0C93EC93B as GPT stores it. */
static const uint8_t gpt_type_esp[16] = {
	0x28, 0x73, 0x2A, 0xC1, 0x1F, 0xF8, 0xD2, 0x11,
	0xBA, 0x4B, 0x00, 0xA0, 0xC9, 0x3E, 0xC9, 0x3B,
};

/*
 * A rule: its stable name, its text (%a the figure, %b the limit, %h the
 * figure in hex) and the test, which says 1 when @g breaks it and then
 * sets the figure it checked and the limit.
 */
struct fp_profile_rule {
	const char *name;
	const char *text;
	int (*broken)(const struct fp_profile_geom *g, uint64_t *figure,
		      uint64_t *limit);
	int part;	/* about the partition entry, not the volume */
};

struct fp_profile {
	const char *name;
	const struct fp_profile_rule *const *rules;	/* NULL-ended */
};

/* Set the figure and the limit of a broken rule: 1. */
static int say(uint64_t *figure, uint64_t *limit, uint64_t f, uint64_t l)
{
	*figure = f;
	*limit = l;
	return 1;
}

static uint32_t disk_sec_len(const struct fp_profile_geom *g)
{
	return g->disk_sec_len ? g->disk_sec_len : DISK_SEC_DEFAULT;
}

static int fat12_clusters(const struct fp_profile_geom *g, uint64_t *f,
			  uint64_t *l)
{
	return g->type == FP_FAT12 && g->cluster_count > FAT12_MAX_CLUSTERS &&
	       say(f, l, g->cluster_count, FAT12_MAX_CLUSTERS);
}

static int fat16_clusters(const struct fp_profile_geom *g, uint64_t *f,
			  uint64_t *l)
{
	if (g->type != FP_FAT16)
		return 0;
	if (g->cluster_count < FAT16_MIN_CLUSTERS)
		return say(f, l, g->cluster_count, FAT16_MIN_CLUSTERS);
	return g->cluster_count > FAT16_MAX_CLUSTERS &&
	       say(f, l, g->cluster_count, FAT16_MAX_CLUSTERS);
}

static int fat32_clusters(const struct fp_profile_geom *g, uint64_t *f,
			  uint64_t *l)
{
	if (g->type != FP_FAT32)
		return 0;
	if (g->cluster_count < FP_FAT32_MIN_CLUSTERS)
		return say(f, l, g->cluster_count, FP_FAT32_MIN_CLUSTERS);
	return g->cluster_count > FAT32_MAX_CLUSTERS &&
	       say(f, l, g->cluster_count, FAT32_MAX_CLUSTERS);
}

static int sector_size(const struct fp_profile_geom *g, uint64_t *f,
		       uint64_t *l)
{
	return (g->sec_len < FP_SECTOR_MIN || g->sec_len > FP_SECTOR_MAX ||
		(g->sec_len & (g->sec_len - 1))) &&
	       say(f, l, g->sec_len, FP_SECTOR_MIN);
}

static int cluster_size(const struct fp_profile_geom *g, uint64_t *f,
			uint64_t *l)
{
	return g->clus_len > SPEC_CLUSTER_MAX &&
	       say(f, l, g->clus_len, SPEC_CLUSTER_MAX);
}

static int fat_count(const struct fp_profile_geom *g, uint64_t *f,
		     uint64_t *l)
{
	return (g->fat_count < 1 || g->fat_count > 2) &&
	       say(f, l, g->fat_count, 2);
}

static int esp_fat32(const struct fp_profile_geom *g, uint64_t *f,
		     uint64_t *l)
{
	return g->type != FP_FAT32 && !g->removable &&
	       say(f, l, (uint64_t)g->type, FP_FAT32);
}

static int esp_sector_size(const struct fp_profile_geom *g, uint64_t *f,
			   uint64_t *l)
{
	return g->sec_len != disk_sec_len(g) &&
	       say(f, l, g->sec_len, disk_sec_len(g));
}

static int esp_min_size(const struct fp_profile_geom *g, uint64_t *f,
			uint64_t *l)
{
	return g->vol_len < ESP_MIN_LEN && say(f, l, g->vol_len, ESP_MIN_LEN);
}

static int esp_mbr_type(const struct fp_profile_geom *g, uint64_t *f,
			uint64_t *l)
{
	return g->part_kind == FP_PT_MBR && g->mbr_type != MBR_TYPE_ESP &&
	       say(f, l, g->mbr_type, MBR_TYPE_ESP);
}

static int esp_gpt_type(const struct fp_profile_geom *g, uint64_t *f,
			uint64_t *l)
{
	return g->part_kind == FP_PT_GPT &&
	       memcmp(g->gpt_type, gpt_type_esp, sizeof(gpt_type_esp)) &&
	       say(f, l, 0, 0);
}

static int rpi_fat12(const struct fp_profile_geom *g, uint64_t *f,
		     uint64_t *l)
{
	return g->type == FP_FAT12 && say(f, l, FP_FAT12, FP_FAT16);
}

static int rpi_mbr_type(const struct fp_profile_geom *g, uint64_t *f,
			uint64_t *l)
{
	return g->part_kind == FP_PT_MBR && g->mbr_type == MBR_TYPE_ESP &&
	       say(f, l, g->mbr_type, 0x0C);
}

static int uboot_cluster_size(const struct fp_profile_geom *g, uint64_t *f,
			      uint64_t *l)
{
	return g->clus_len > UBOOT_CLUSTER_MAX &&
	       say(f, l, g->clus_len, UBOOT_CLUSTER_MAX);
}

static int uboot_sector_size(const struct fp_profile_geom *g, uint64_t *f,
			     uint64_t *l)
{
	return g->sec_len != disk_sec_len(g) &&
	       say(f, l, g->sec_len, disk_sec_len(g));
}

static const struct fp_profile_rule r_fat12_clusters = {
	"fat12-clusters", "FAT12 volume of %a clusters; the FAT "
	"specification allows at most %b, and readers that tell the type "
	"by the count take it for FAT16", fat12_clusters, 0,
};
static const struct fp_profile_rule r_fat16_clusters = {
	"fat16-clusters", "FAT16 volume of %a clusters; the FAT "
	"specification allows 4085 to 65524, and readers that tell the type "
	"by the count take it for FAT12 or FAT32", fat16_clusters, 0,
};
static const struct fp_profile_rule r_fat32_clusters = {
	"fat32-clusters", "FAT32 volume of %a clusters; the FAT "
	"specification allows 65525 to 268435445, and readers that tell the "
	"type by the count (EDK2/OVMF, Windows) do not read it as FAT32",
	fat32_clusters, 0,
};
static const struct fp_profile_rule r_sector_size = {
	"sector-size", "sectors of %a bytes; the FAT specification allows "
	"512, 1024, 2048 or 4096", sector_size, 0,
};
static const struct fp_profile_rule r_cluster_size = {
	"cluster-size", "clusters of %a bytes; the FAT specification allows "
	"at most %b (larger ones break many readers)", cluster_size, 0,
};
static const struct fp_profile_rule r_fat_count = {
	"fat-count", "%a FATs; the FAT specification asks for 2, as "
	"drivers may fail on other counts (1 is common and widely read)",
	fat_count, 0,
};
static const struct fp_profile_rule r_esp_fat32 = {
	"esp-fat32", "FAT%a volume; the UEFI specification reads FAT12 and "
	"FAT16 from removable media only, an EFI system partition on a "
	"fixed disk is FAT32", esp_fat32, 0,
};
static const struct fp_profile_rule r_esp_sector_size = {
	"esp-sector-size", "sectors of %a bytes on a disk of %b-byte blocks; "
	"UEFI firmware that reads FAT by device blocks (U-Boot's) refuses "
	"it", esp_sector_size, 0,
};
static const struct fp_profile_rule r_esp_min_size = {
	"esp-min-size", "volume of %a bytes; an EFI system partition below "
	"%b bytes (32 MiB) cannot be a FAT32 of 65525 clusters, which "
	"firmware needs", esp_min_size, 0,
};
static const struct fp_profile_rule r_esp_mbr_type = {
	"esp-mbr-type", "MBR partition type %h; the UEFI specification "
	"finds an EFI system partition of type 0xEF", esp_mbr_type, 1,
};
static const struct fp_profile_rule r_esp_gpt_type = {
	"esp-gpt-type", "GPT partition type is not the EFI system "
	"partition's, C12A7328-F81F-11D2-BA4B-00A0C93EC93B", esp_gpt_type,
	1,
};
static const struct fp_profile_rule r_rpi_fat12 = {
	"rpi-fat12", "FAT12 volume; the Raspberry Pi boot ROM and bootloader "
	"read FAT16 and FAT32 only", rpi_fat12, 0,
};
static const struct fp_profile_rule r_rpi_mbr_type = {
	"rpi-mbr-type", "MBR partition type %h; the boot ROM of the "
	"Raspberry Pi 1 to 3 does not take it (0x0C or 0x0B does; the "
	"Pi 4 and 5 bootloader takes both)", rpi_mbr_type, 1,
};
static const struct fp_profile_rule r_uboot_cluster_size = {
	"uboot-cluster-size", "clusters of %a bytes; U-Boot's FAT driver "
	"reads clusters of at most %b bytes (CONFIG_FS_FAT_MAX_CLUSTSIZE's "
	"default)", uboot_cluster_size, 0,
};
static const struct fp_profile_rule r_uboot_sector_size = {
	"uboot-sector-size", "sectors of %a bytes on a disk of %b-byte "
	"blocks; U-Boot's FAT driver refuses a sector size other than the "
	"device's block size (CONFIG_FS_FAT_HANDLE_SECTOR_SIZE_MISMATCH is "
	"off by default)", uboot_sector_size, 0,
};

/* Every rule once, for fp_profile_rule_find(). */
static const struct fp_profile_rule *const all_rules[] = {
	&r_fat12_clusters, &r_fat16_clusters, &r_fat32_clusters,
	&r_sector_size, &r_cluster_size, &r_fat_count, &r_esp_fat32,
	&r_esp_sector_size, &r_esp_min_size, &r_esp_mbr_type,
	&r_esp_gpt_type, &r_rpi_fat12, &r_rpi_mbr_type,
	&r_uboot_cluster_size, &r_uboot_sector_size, NULL,
};

/* The rules of each profile, in the order they are reported. */
static const struct fp_profile_rule *const generic_rules[] = {
	&r_fat12_clusters, &r_fat16_clusters, &r_fat32_clusters,
	&r_sector_size, &r_cluster_size, &r_fat_count, NULL,
};
static const struct fp_profile_rule *const uefi_rules[] = {
	&r_fat12_clusters, &r_fat16_clusters, &r_fat32_clusters,
	&r_sector_size, &r_cluster_size, &r_fat_count, &r_esp_fat32,
	&r_esp_sector_size, &r_esp_min_size, &r_esp_mbr_type,
	&r_esp_gpt_type, NULL,
};
static const struct fp_profile_rule *const rpi_rules[] = {
	&r_fat12_clusters, &r_fat16_clusters, &r_fat32_clusters,
	&r_sector_size, &r_rpi_fat12, &r_rpi_mbr_type, NULL,
};
static const struct fp_profile_rule *const uboot_rules[] = {
	&r_fat12_clusters, &r_fat16_clusters, &r_fat32_clusters,
	&r_sector_size, &r_uboot_cluster_size, &r_uboot_sector_size, NULL,
};

static const struct fp_profile profiles[] = {
	{ "uefi-esp", uefi_rules },
	{ "raspberry-pi", rpi_rules },
	{ "uboot", uboot_rules },
	{ "generic", generic_rules },
};

void fp_profile_geom_from_bpb(struct fp_profile_geom *pg,
			      const struct fp_geom *g,
			      const struct fp_locate *loc)
{
	memset(pg, 0, sizeof(*pg));
	pg->type = g->type;
	pg->sec_len = g->sec_len;
	pg->clus_len = g->clus_len;
	pg->cluster_count = g->cluster_count;
	pg->fat_count = g->fat_count;
	pg->vol_len = g->vol_len;
	fp_profile_geom_where(pg, loc);
}

void fp_profile_geom_where(struct fp_profile_geom *pg,
			   const struct fp_locate *loc)
{
	if (!loc || !loc->part)
		return;
	pg->part_kind = loc->kind;
	pg->disk_sec_len = loc->sec_len;
	pg->mbr_type = loc->mbr_type;
	memcpy(pg->gpt_type, loc->gpt_type, sizeof(pg->gpt_type));
}

const struct fp_profile *fp_profile_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (!strcmp(profiles[i].name, name))
			return &profiles[i];
	return NULL;
}

const struct fp_profile *fp_profile_at(size_t i)
{
	return i < sizeof(profiles) / sizeof(profiles[0]) ? &profiles[i] :
	       NULL;
}

const char *fp_profile_name(const struct fp_profile *p)
{
	return p->name;
}

void fp_profile_check(const struct fp_profile *p,
		      const struct fp_profile_geom *pg,
		      struct fp_profile_violation *out, size_t *count)
{
	const struct fp_profile_rule *const *r;
	size_t n = 0;

	for (r = p->rules; *r; r++) {
		assert(n < FP_PROFILE_RULES_MAX);
		if ((*r)->broken(pg, &out[n].figure, &out[n].limit))
			out[n++].rule = *r;
	}
	*count = n;
}

const struct fp_profile_rule *fp_profile_rule_find(const char *name)
{
	const struct fp_profile_rule *const *r;

	for (r = all_rules; *r; r++)
		if (!strcmp((*r)->name, name))
			return *r;
	return NULL;
}

const char *fp_profile_rule_name(const struct fp_profile_rule *r)
{
	return r->name;
}

int fp_profile_rule_part(const struct fp_profile_rule *r)
{
	return r->part;
}

void fp_profile_rule_format(const struct fp_profile_rule *r, uint64_t figure,
			    uint64_t limit, char *buf, size_t len)
{
	const char *t = r->text;
	size_t n;
	int w;

	if (!len)
		return;
	w = snprintf(buf, len, "%s: ", r->name);
	n = w < 0 ? 0 : (size_t)w < len ? (size_t)w : len - 1;
	for (; *t && n + 1 < len; t++) {
		if (*t != '%' || !t[1]) {
			buf[n++] = *t;
			continue;
		}
		t++;
		if (*t == 'a')
			w = snprintf(buf + n, len - n, "%" PRIu64, figure);
		else if (*t == 'b')
			w = snprintf(buf + n, len - n, "%" PRIu64, limit);
		else
			w = snprintf(buf + n, len - n, "0x%02" PRIX64, figure);
		if (w < 0 || (size_t)w >= len - n)
			break;
		n += (size_t)w;
	}
	buf[n < len ? n : len - 1] = '\0';
}
