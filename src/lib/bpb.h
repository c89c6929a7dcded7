/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* bpb.h - boot sector, BPB and FSInfo decoding into native structs. */
#ifndef FP_BPB_H
#define FP_BPB_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"

#define FP_SECTOR_MIN 512
#define FP_SECTOR_MAX 4096
#define FP_CLUSTER_MAX (256u * 1024u)	/* 128/256 KiB accepted, see docs */
#define FP_DIRENT_LEN 32
/*
 * Fewest clusters of a FAT32 volume: below it a volume is FAT12 or FAT16
 * by its cluster count (Microsoft's FAT specification).
 */
#define FP_FAT32_MIN_CLUSTERS 65525u
#define FP_BOOT_SIG_OFF 510	/* 0x55 0xAA in a boot sector */

enum fp_fat_type {
	FP_FAT12 = 12,
	FP_FAT16 = 16,
	FP_FAT32 = 32,
};

/* Volume geometry, validated; all offsets are bytes from the volume start. */
struct fp_geom {
	enum fp_fat_type type;
	uint32_t sec_len;	/* bytes per sector: 512..4096, power of 2 */
	uint32_t sec_per_clus;	/* power of 2 */
	uint32_t clus_len;	/* bytes per cluster, <= FP_CLUSTER_MAX */
	uint32_t reserved_secs;
	uint32_t fat_count;	/* >= 1 */
	uint32_t fat_secs;	/* sectors per FAT */
	uint32_t root_entries;	/* fixed root entries (FAT12/16), else 0 */
	uint64_t total_secs;
	uint32_t cluster_count;	/* data clusters: 2 .. cluster_count + 1 */
	uint32_t root_cl;	/* FAT32 root directory cluster, else 0 */
	uint32_t fsinfo_sec;	/* FAT32 FSInfo sector, 0 if none */
	uint32_t backup_sec;	/* FAT32 backup boot sector, 0 if none */
	uint16_t ext_flags;	/* FAT32 BPB_ExtFlags, else 0 */
	int mirror;		/* 1: every FAT copy is written */
	uint32_t active_fat;	/* the copy read (and written if !mirror) */
	uint8_t media;
	uint8_t state;		/* BS_Reserved1 / "state": bit 0 = dirty */
	int has_label;		/* BS_BootSig is 0x29: BS_VolLab is there */
	uint8_t label[11];	/* BS_VolLab as stored, if has_label */
	uint32_t serial;	/* BS_VolID if has_label, else 0 */
	int label_held;		/* BS_BootSig 0x28 under a BS_FilSysType
				   "FAT...": a label change cut short
				   (docs/DESIGN.md "Labels") */
	uint64_t fat_off;	/* first FAT */
	uint64_t fat_len;	/* bytes per FAT copy */
	uint64_t root_off;	/* fixed root directory (FAT12/16) */
	uint64_t root_len;
	uint64_t data_off;	/* cluster 2 */
	uint64_t vol_len;	/* total_secs * sec_len */
};

/* Byte offset of cluster @cl (2 <= cl <= cluster_count + 1). */
static inline uint64_t fp_geom_cl_off(const struct fp_geom *g, uint32_t cl)
{
	return g->data_off + (uint64_t)(cl - 2) * g->clus_len;
}

/* Highest valid cluster number. */
static inline uint32_t fp_geom_max_cl(const struct fp_geom *g)
{
	return g->cluster_count + 1;
}

/*
 * Decode and validate the boot sector in @sec (at least 512 bytes) of a
 * volume whose image holds @img_len bytes.  Every field is checked before
 * it is used; neither an x86 jump nor the 0x55AA signature is required,
 * as Linux requires neither (Atari volumes have neither).  FP_E_NOTFAT
 * when it is no FAT boot sector at all, FP_E_BPB for a bad field of a
 * sector that is meant to be one (an x86 jump and the signature, or the
 * fields common to all FAT types in range), FP_E_TRUNC when the volume
 * is larger than the image.  FAT32 when BPB_FATSz16 is 0, else FAT12/16
 * by the cluster count.
 */
enum fp_err fp_bpb_decode(const uint8_t *sec, uint64_t img_len,
			  struct fp_geom *g);

/*
 * 1 if the sector @sec could also be an MBR: it ends in 0x55AA (no MBR
 * lacks it) and does not start with an x86 jump (EB or E9), as FAT boot
 * sectors of DOS and Windows do and MBRs do not.
 */
int fp_bpb_maybe_mbr(const uint8_t *sec);

/* FSInfo sector contents (FAT32). */
struct fp_fsinfo {
	int valid;		/* the three signatures are right */
	int trusted;		/* the lead and structure signatures are
				 * right: Linux and mtools use the counts */
	uint32_t free_count;	/* 0xFFFFFFFF = unknown */
	uint32_t next_free;	/* 0xFFFFFFFF = unknown */
};

#define FP_FSINFO_UNKNOWN 0xFFFFFFFFu

/* Decode the FSInfo sector at @sec (its first 512 bytes are read). */
void fp_bpb_fsinfo_decode(const uint8_t *sec, struct fp_fsinfo *fi);

/* Store free_count and next_free into @sec, leaving all else alone. */
void fp_bpb_fsinfo_encode(uint8_t *sec, const struct fp_fsinfo *fi);

#endif
