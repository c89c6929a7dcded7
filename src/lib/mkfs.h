/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* mkfs.h - choose the geometry of a new FAT volume and write it empty. */
#ifndef FP_MKFS_H
#define FP_MKFS_H

#include <stddef.h>
#include <stdint.h>

#include "bpb.h"
#include "fp_err.h"
#include "image.h"
#include "plan.h"
#include "profile.h"

#define FP_MKFS_ALIGN_DEFAULT (1024u * 1024u)	/* of the data area */
#define FP_MKFS_AUTO_CLUSTER_MAX (32u * 1024u)	/* never chosen above */
#define FP_MKFS_FAT12_MAX 4084u
#define FP_MKFS_FAT16_MIN 4085u
#define FP_MKFS_FAT16_MAX 65524u
#define FP_MKFS_FAT32_MAX 0x0FFFFFF5u
#define FP_MKFS_FAT32_RESERVED_MIN 8u	/* boot, FSInfo, backups at 6, 7 */

/*
 * The geometry of a new volume: every field the boot sector holds that a
 * rule checker (a --profile) needs, plain values, plus what follows from
 * them.  Filled by fp_mkfs_geom().
 */
struct fp_mkfs_geom {
	enum fp_fat_type type;
	uint32_t sec_len;	/* bytes per sector */
	uint32_t clus_len;	/* bytes per cluster */
	uint32_t reserved_secs;
	uint32_t fat_count;
	uint32_t root_entries;	/* 0 on FAT32 */
	uint32_t fat_secs;	/* sectors per FAT */
	uint64_t total_secs;	/* sectors of the volume */
	uint32_t hidden_secs;	/* BPB_HiddSec */
	uint8_t media;
	uint32_t cluster_count;	/* follows: data clusters */
	uint64_t data_off;	/* follows: bytes from the volume start to
				 * cluster 2 */
	uint64_t align;		/* the data area's alignment on the
				 * device that was reached, in bytes */
};

/*
 * What the caller asks for.  0 in a field means "choose" (for
 * root_entries and hidden_secs: has_* says whether it was given).
 * Values given are kept exactly or refused, never rounded.
 */
struct fp_mkfs_opts {
	uint64_t vol_len;	/* bytes the volume may take */
	uint64_t dev_off;	/* where the volume starts on its device */
	enum fp_fat_type type;
	uint32_t sec_len;	/* 0: 512 */
	uint32_t clus_len;
	uint32_t reserved_secs;
	uint32_t fat_count;	/* 0: 2 */
	uint32_t root_entries;
	int has_root_entries;
	uint32_t hidden_secs;
	int has_hidden;		/* else dev_off / sec_len */
	uint8_t media;		/* 0: 0xF8 */
	uint64_t align;		/* 0: 1 MiB where that keeps the type,
				 * else the cluster size; else exactly
				 * this (a power of 2, >= sec_len) */
};

/* Why fp_mkfs_geom() refused (FP_E_GEOM), with the figure in the diag. */
enum fp_mkfs_why {
	FP_MKFS_OK,
	FP_MKFS_TOO_SMALL,	/* no data cluster left: figure = bytes */
	FP_MKFS_TOO_BIG,	/* over 2^32 - 1 sectors: figure = sectors */
	FP_MKFS_FAT12_MANY,	/* figure = clusters (> 4084) */
	FP_MKFS_FAT16_FEW,	/* figure = clusters (< 4085) */
	FP_MKFS_FAT16_MANY,	/* figure = clusters (> 65524) */
	FP_MKFS_FAT32_FEW,	/* figure = clusters (< 65525) */
	FP_MKFS_FAT32_MANY,	/* figure = clusters (> 0x0FFFFFF5) */
	FP_MKFS_RESERVED,	/* reserved sectors: FAT32 < 8, or padding
				 * for the alignment over 65535: figure */
	FP_MKFS_ROOT,		/* root entries: not whole sectors, 0 on
				 * FAT12/16, or given on FAT32: figure */
	FP_MKFS_ALIGN,		/* the alignment asked for cannot be
				 * reached with the values given: figure */
	FP_MKFS_CLUSTER,	/* cluster size not a power-of-2 multiple of
				 * the sector of at most 128 sectors and
				 * 256 KiB: figure */
	FP_MKFS_SECTOR,		/* sector size: not 512 .. 4096, 2^n */
	FP_MKFS_OFFSET,		/* device offset: not whole sectors */
	FP_MKFS_PROFILE,	/* rules of the profile broken: rules[] */
};

struct fp_mkfs_diag {
	enum fp_mkfs_why why;
	uint64_t figure;
	enum fp_fat_type type;	/* the type the refusal is about */
	struct fp_profile_violation rules[FP_PROFILE_RULES_MAX];
	size_t rule_count;	/* FP_MKFS_PROFILE: the rules broken */
};

/*
 * Choose the geometry for @o into *@g: the FAT type (FAT32 from 512 MiB,
 * else FAT12 when it fits with clusters of at most 4 KiB, else FAT16),
 * the cluster size (from a preferred size by type and volume size, the
 * next that gives a valid cluster count for the type, never over 32 KiB
 * unless asked), the FAT size (the smallest that holds every cluster),
 * and the padding that aligns the data area (docs/MKFS.md).  FP_E_GEOM
 * with *@d saying why when no geometry fits the values given; *@g is set
 * only on success.
 */
enum fp_err fp_mkfs_geom(const struct fp_mkfs_opts *o, struct fp_mkfs_geom *g,
			 struct fp_mkfs_diag *d);

/*
 * fp_mkfs_geom() for the boot target of profile @p (NULL: none, as
 * fp_mkfs_geom()), with the volume in the partition that @where's
 * partition fields name (fp_profile_geom_where(); NULL: none known).
 * What @o leaves to choose is chosen to keep the profile's rules: the
 * FAT type fp_mkfs_geom() picks, else FAT32, FAT16, FAT12 in that order;
 * 512-byte sectors, else the disk's block size.  When no choice keeps
 * them, FP_E_GEOM with FP_MKFS_PROFILE and the rules broken in *@d, those
 * of the choice that breaks the fewest (the first such); when no choice
 * has a geometry at all, fp_mkfs_geom()'s refusal of @o as given.
 */
enum fp_err fp_mkfs_geom_profile(const struct fp_mkfs_opts *o,
				 const struct fp_profile *p,
				 const struct fp_profile_geom *where,
				 struct fp_mkfs_geom *g,
				 struct fp_mkfs_diag *d);

#define FP_MKFS_CODE16_OFF 62	/* boot code of FAT12/16: 62..509 */
#define FP_MKFS_CODE32_OFF 90	/* of FAT32: 90..509 */
#define FP_MKFS_CODE_END 510

/* Bytes of the boot code area of a volume of @type. */
size_t fp_mkfs_code_len(enum fp_fat_type type);

/* What fp_mkfs_write() writes besides the geometry. */
struct fp_mkfs_meta {
	uint32_t volume_id;
	int has_label;
	uint8_t label[11];	/* space-padded, as stored */
	const uint8_t *boot_code;	/* fp_mkfs_code_len() bytes, or NULL
					 * for the "not a bootable disk"
					 * stub; borrowed */
	int64_t time;		/* the label entry's time */
	int utc;		/* ... in UTC, else local time */
};

/*
 * Check a volume label given as text: 1..11 bytes of printable ASCII,
 * no leading space, none of  * ? . , ; : / \ | + = < > [ ] "  (as
 * mkfs.fat refuses them).  Lowercase is kept.  On success @out holds it
 * space-padded; else FP_E_NAME.
 */
enum fp_err fp_mkfs_label(const char *s, uint8_t out[11]);

/*
 * The volume serial number for @time and @label (NULL: none): the same
 * inputs give the same number, and another epoch or label another one.
 */
uint32_t fp_mkfs_volume_id(int64_t time, const char *label);

/*
 * Write an empty volume of geometry @g into @img (windowed to the
 * volume, at least g->total_secs sectors): zeros over the reserved
 * sectors, the FATs and the root directory, the FATs' first entries, the
 * label entry, the FAT32 FSInfo (sector 1) and backup boot sector (6,
 * with its FSInfo at 7), and the boot sector last.  With @sparse the
 * zeros are not written (a fresh memory image reads as zeros).
 */
enum fp_err fp_mkfs_write(struct fp_img *img, const struct fp_mkfs_geom *g,
			  const struct fp_mkfs_meta *m, int sparse);

/*
 * Plan the @count requests @reqs (fp_plan_build() with @po, its progress
 * ignored) on the volume fp_mkfs_write() would make of @g and @m, in a
 * sparse memory image: nothing is written anywhere.  First every host
 * file that a copy reads must open (FP_E_SRC, diag->req and
 * diag->errnum).  FP_OK when they fit, *free_cl then the clusters left
 * free; else the planner's error with *@diag.  *@geom: the volume as
 * read back, set once it opened (for the planner's messages).
 */
enum fp_err fp_mkfs_plan_fits(const struct fp_mkfs_geom *g,
			      const struct fp_mkfs_meta *m,
			      const struct fp_plan_opts *po,
			      const struct fp_req *reqs, size_t count,
			      uint32_t *free_cl, struct fp_geom *geom,
			      struct fp_plan_diag *diag);

#endif
