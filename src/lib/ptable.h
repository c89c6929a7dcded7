/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* ptable.h - MBR and GPT partition tables: find the FAT volume's bytes. */
#ifndef FP_PTABLE_H
#define FP_PTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"
#include "image.h"

enum fp_ptable_kind {
	FP_PT_NONE,		/* no partition table */
	FP_PT_MBR,
	FP_PT_GPT,
};

/* One partition, numbered as Linux does (MBR logicals from 5). */
struct fp_part {
	unsigned number;	/* 1-based */
	uint64_t off;		/* bytes from the image start */
	uint64_t len;		/* bytes */
	uint8_t mbr_type;	/* MBR system id, 0 for GPT */
	uint8_t gpt_type[16];	/* GPT type GUID as stored, zero for MBR */
	int fat_type;		/* 1 when the type code says FAT */
};

/* Bytes [off, off + len) of the image. */
struct fp_span {
	uint64_t off;
	uint64_t len;
};

struct fp_ptable {
	enum fp_ptable_kind kind;
	struct fp_part *parts;	/* owned */
	size_t count;
	struct fp_span *table;	/* where the table itself lies; owned */
	size_t table_count;
	int gpt_backup;		/* the primary GPT was bad, backup used */
	uint32_t sec_len;	/* its sector (GPT: block) size, 0 for none */
};

/* What a partition shares sectors with, if anything. */
struct fp_overlap {
	int found;
	unsigned other;		/* that partition's number, 0: the table */
	uint64_t off;		/* the first shared byte of the image */
};

/*
 * Read the partition table of @img (512-byte logical blocks; a GPT with
 * 4096-byte blocks is found too).  An MBR whose 0x55AA signature is
 * missing, or whose entries are all empty, is FP_PT_NONE.  A protective
 * MBR (type 0xEE) leads to the GPT: primary header at LBA 1 with header
 * and entry-array CRC32 checked, else the backup header at the last LBA
 * (gpt_backup = 1).  Extended MBR partitions (0x05, 0x0F, 0x85) are
 * followed through their EBR chain (bounded, loop-safe) as 5, 6, ...
 * Errors (FP_E_PTABLE): both GPT headers bad, a partition that is empty
 * or ends past the image, an EBR outside its extended partition.
 * *pt is set only on success.
 */
enum fp_err fp_ptable_read(struct fp_img *img, struct fp_ptable *pt);

/*
 * Whether sector 0 (@sec, 512 bytes) of an image of @img_len bytes holds
 * a table that claims space beyond itself, as Linux's msdos reader takes
 * a table: the 0x55AA signature, every boot flag 0x00 or 0x80 (other
 * flags mean boot code: DOS and Windows messages lie there), and an
 * entry with a type and sectors that starts past sector 0 and inside
 * the image.  FP_PT_GPT when a protective entry (0xEE) is among them,
 * else FP_PT_MBR; FP_PT_NONE when there is no such entry.  An entry that
 * starts at sector 0 describes the sector's own volume (mkfs.fat --mbr,
 * mformat) and claims nothing.  Nothing else of the table is checked: a
 * table fp_ptable_read() refuses still claims its partitions' space.
 */
enum fp_ptable_kind fp_ptable_claims(const uint8_t *sec, uint64_t img_len);

/* The partition numbered @number, or NULL. */
const struct fp_part *fp_ptable_find(const struct fp_ptable *pt,
				     unsigned number);

/*
 * Whether partition @p of @pt overlaps the partition table (the MBR and
 * every EBR; the protective MBR, the GPT header read, its entry array,
 * the other header and every block outside the header's usable range) or
 * another partition (for an MBR logical, not the extended partitions).
 * A write into such a partition may change the table or another
 * partition's data: partitioning tools refuse such tables.
 */
void fp_ptable_overlap(const struct fp_ptable *pt, const struct fp_part *p,
		       struct fp_overlap *o);

/* CRC-32 (IEEE 802.3, as GPT uses) of @len bytes, starting from @crc 0. */
uint32_t fp_ptable_crc32(uint32_t crc, const void *buf, size_t len);

void fp_ptable_release(struct fp_ptable *pt);

#endif
