/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fs.h - an opened volume: geometry, active FAT, free bitmap, FSInfo. */
#ifndef FP_FS_H
#define FP_FS_H

#include <stdint.h>

#include "bitmap.h"
#include "bpb.h"
#include "fat.h"
#include "fp_err.h"
#include "image.h"
#include "ptable.h"

/*
 * An opened volume, opaque: read it through the fp_fs_*() accessors.
 * Borrows the image; owns everything else.
 */
struct fp_fs;

/*
 * Read the boot sector and FSInfo of @img and prepare its active FAT, whose
 * windows are read as they are needed.
 */
enum fp_err fp_fs_open(struct fp_img *img, struct fp_fs **out);

/*
 * The same, with FAT copy @copy read as the active one (the volume as a
 * reader of that copy alone sees it): FP_E_INVAL when there is no such
 * copy.  For checking how the copies differ; never write through it.
 */
enum fp_err fp_fs_open_copy(struct fp_img *img, uint32_t copy,
			    struct fp_fs **out);

/* The volume's geometry, decoded and checked: what callers outside the
 * library read of a volume. */
const struct fp_geom *fp_fs_geom(const struct fp_fs *fs);

/* The image the volume was opened on (borrowed from the caller). */
struct fp_img *fp_fs_img(const struct fp_fs *fs);

/* The active FAT, owned by the volume. */
struct fp_fat *fp_fs_fat(const struct fp_fs *fs);

/* The free bitmap, owned by the volume: NULL until fp_fs_bitmap(). */
struct fp_bitmap *fp_fs_bm(const struct fp_fs *fs);

/* The FSInfo sector as read (or last written): valid only on FAT32 with
 * an FSInfo sector, all zero otherwise. */
const struct fp_fsinfo *fp_fs_fsinfo(const struct fp_fs *fs);

/* Record @fi as the volume's FSInfo, once the writer has written it to
 * the image; the disk is not touched. */
void fp_fs_set_fsinfo(struct fp_fs *fs, const struct fp_fsinfo *fi);

/* Set up the free bitmap (once) that planning uses, fp_fs_bm(). */
enum fp_err fp_fs_bitmap(struct fp_fs *fs);

/* Details of a consistency refusal from fp_fs_check(). */
struct fp_fs_diag {
	uint32_t copy;		/* FP_E_FATDIFF: the copy that differs */
	uint32_t first_cl;	/* ... its first differing cluster */
	uint32_t diff_count;	/* ... and how many entries differ */
};

/*
 * Refuse an inconsistent volume: FP_E_DIRTY when it is marked dirty (boot
 * sector state bit 0, or the clean bit of FAT entry 1 cleared on FAT16/32),
 * FP_E_FATDIFF when mirrored FAT copies differ from the active one.  The
 * copies are compared over the FAT windows read: the first call turns
 * that on, so call it again after planning, before anything is written;
 * each window the plan will write has then been compared.
 */
enum fp_err fp_fs_check(struct fp_fs *fs, struct fp_fs_diag *diag);

/*
 * Make the volume safe to flash with a tool that skips holes (bmaptool):
 * write zeros into every hole of the image file that overlaps the
 * boot sectors, the FATs, the FAT12/16 root or a cluster in use (neither
 * free nor bad).  What the volume holds does not change: a hole reads as
 * zeros.  *bytes and *count: what was written, in how many holes.  Only
 * regular files have holes (fp_img_find_hole()).
 */
enum fp_err fp_fs_fill_holes(struct fp_fs *fs, uint64_t *bytes,
			     uint64_t *count);

void fp_fs_free(struct fp_fs *fs);

#define FP_LOCATE_MAX 16

/* Where the volume of an image is, as fp_fs_locate() found it. */
struct fp_locate {
	uint64_t off;		/* bytes from the image start */
	uint64_t len;		/* 0: to the end of the image */
	unsigned part;		/* the partition used, 0 for none */
	uint8_t mbr_type;	/* its MBR system id, 0 for GPT */
	uint8_t gpt_type[16];	/* its GPT type GUID as stored, zero for MBR */
	enum fp_ptable_kind kind;
	int gpt_backup;		/* the GPT backup header was used */
	unsigned fat_parts[FP_LOCATE_MAX];	/* FAT partitions seen */
	size_t fat_count;
	struct fp_overlap overlap;	/* what the partition used overlaps */
	uint64_t vol_len;	/* FP_E_PASTPART, FP_E_AMBIG: the volume's
				 * bytes */
	int table_bad;		/* FP_E_AMBIG: the table does not read */
	uint32_t sec_len;	/* the table's sector size, 0 for none */
};

/*
 * Find the FAT volume in @img.  With @part > 0: that partition of the MBR
 * or GPT (FP_E_NOPART without a table or such a partition; FP_E_NOTFAT
 * when it holds no valid FAT boot sector; FP_E_PASTPART when it holds one
 * whose volume is longer than the partition, loc->vol_len saying how
 * long).  With 0: a valid FAT boot sector at offset 0 is a bare volume;
 * else the one partition holding a FAT boot sector, whether its volume
 * fits or not (FP_E_MANYPART when several do, FP_E_NOTFAT when none).
 * Sector 0 is a bare volume when its BPB validates fully (no jump or
 * 0x55AA signature needed) and the volume fits, unless it could be an
 * MBR as well (0x55AA without an x86 jump) and a valid table with
 * partitions is read from it; FP_E_AMBIG when it starts with an x86 jump
 * and also holds a table that claims space past sector 0
 * (fp_ptable_claims()), loc->vol_len, loc->kind, loc->fat_parts and
 * loc->table_bad saying what both readings found (the rule is in fs.c).
 * A partition found that overlaps the table or another partition
 * is still returned, with loc->overlap saying so (fp_ptable_overlap()).
 * *loc is filled as far as known even on failure, so that the caller can
 * name the partitions it saw.
 */
enum fp_err fp_fs_locate(struct fp_img *img, unsigned part,
			 struct fp_locate *loc);

/*
 * Partition @part (> 0) of the MBR or GPT of @img, whatever it holds, as
 * fp_fs_locate() fills *loc for it (--mkfs): FP_E_NOPART without a table
 * or such a partition.
 */
enum fp_err fp_fs_locate_part(struct fp_img *img, unsigned part,
			      struct fp_locate *loc);

#endif
