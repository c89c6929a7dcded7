/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fat.h - the active FAT through a cache of windows: 12/16/32-bit entries. */
#ifndef FP_FAT_H
#define FP_FAT_H

#include <stdint.h>

#include "bpb.h"
#include "fp_err.h"
#include "image.h"

/* Entry values after masking (FAT32 entries are 28 bits). */
#define FP_FAT_FREE 0u

/* State bits in FAT entry 1 (FAT16, FAT32): set means clean, no I/O error. */
#define FP_FAT16_CLEAN 0x8000u
#define FP_FAT16_NO_IOERR 0x4000u
#define FP_FAT32_CLEAN 0x08000000u
#define FP_FAT32_NO_IOERR 0x04000000u
/* Bit of the BPB state byte (struct fp_geom state): volume is dirty. */
#define FP_STATE_DIRTY 0x01

/* Bytes of a FAT32 window: 65536 entries; a multiple of every sector. */
#define FP_FAT_WIN_LEN (256u * 1024u)
/*
 * Bytes of another FAT copy read and compared at a time (a FAT12 FAT is
 * smaller): the part stays in cache between its read and the compare,
 * and few fresh pages are touched.
 */
#define FP_FAT_PART_LEN (64u * 1024u)
/* Clean windows kept in memory by default. */
#define FP_FAT_CACHE_LEN (32u * 1024u * 1024u)

enum fp_fat_kind {
	FP_FK_FREE,	/* 0 */
	FP_FK_NEXT,	/* 2 .. max cluster: link to the next cluster */
	FP_FK_EOC,	/* end of chain (>= 0xFF8 / 0xFFF8 / 0x0FFFFFF8) */
	FP_FK_BAD,	/* 0xFF7 / 0xFFF7 / 0x0FFFFFF7 */
	FP_FK_INVALID,	/* 1, above max cluster, or reserved values */
};

/* How one FAT copy differs from the active one in the windows compared. */
struct fp_fat_diff {
	uint32_t first_cl;	/* lowest differing cluster */
	uint32_t count;		/* differing entries; 0: none */
};

/*
 * The active FAT copy, read on demand in windows: FAT12 and FAT16 as one
 * window, FAT32 in windows of FP_FAT_WIN_LEN bytes.  Entries 0 .. max_cl
 * are addressable.  Windows changed by fp_fat_set() stay in memory until
 * fp_fat_flush() writes their dirty sectors, as coalesced runs, to every
 * copy that must get them; clean windows are dropped, least recently used
 * first, beyond the cache size.  A window that fp_fat_set_chain() fills
 * with links is kept as a short list of the entries that are not links
 * to the next cluster, so that the memory held until the flush does not
 * grow with the clusters allocated.  Opaque; defined in fat.c.
 */
struct fp_fat;

/*
 * Prepare the active copy of the FAT described by @g for reading into
 * *out (set only on success); nothing is read yet.  The entry accessors
 * of the FAT type are chosen here, once.  @img and @g are borrowed until
 * fp_fat_free(); the caller owns *out.
 */
enum fp_err fp_fat_open(struct fp_img *img, const struct fp_geom *g,
			struct fp_fat **out);

/* Keep at most @len bytes of clean windows (at least one window). */
void fp_fat_cache(struct fp_fat *fat, uint64_t len);

/*
 * From now on compare every window read from the active copy with the
 * same bytes of the other copies when the FATs are mirrored (no-op
 * otherwise); differences add up per copy (fp_fat_copy_diff()).  The
 * windows already in memory are compared now.  A pass over every entry
 * so compares the copies whole.
 */
enum fp_err fp_fat_check_copies(struct fp_fat *fat);

/*
 * How copy @copy differs from the active one in the windows compared so
 * far; a count of 0 when no difference was seen (or none was looked for).
 */
struct fp_fat_diff fp_fat_copy_diff(const struct fp_fat *fat,
				    uint32_t copy);

/*
 * Call @fn(@ctx, cl, act, other) for every entry cl that differs between
 * copy @copy and the active copy, in the windows compared so far where a
 * difference was seen, as both copies are on disk (changes made by
 * fp_fat_set() and not flushed play no part): act is its value in the
 * active copy, other in copy @copy, both masked (so a FAT32 entry that
 * differs only in its top 4 bits comes with act == other).  A nonzero
 * return of @fn stops the walk.
 */
enum fp_err fp_fat_copy_each(struct fp_fat *fat, uint32_t copy,
			     int (*fn)(void *ctx, uint32_t cl, uint32_t act,
				       uint32_t other),
			     void *ctx);

/*
 * Mark dirty every sector of the windows where another copy was seen to
 * differ that differs from that copy, so that the next fp_fat_flush()
 * makes every copy equal to the active one there.
 */
enum fp_err fp_fat_copy_sync(struct fp_fat *fat);

/* The highest valid cluster number. */
uint32_t fp_fat_max_cl(const struct fp_fat *fat);

/* Entries per window (the last window may hold fewer). */
uint32_t fp_fat_win_cl(const struct fp_fat *fat);

/* Windows of the FAT: entry cl is in window cl / fp_fat_win_cl(). */
uint32_t fp_fat_win_count(const struct fp_fat *fat);

/* What the cache holds and has done, for tests and measurements. */
struct fp_fat_stats {
	uint64_t len;		/* bytes of entries 0 .. max_cl, in sectors */
	uint32_t win_len;	/* bytes per window */
	uint32_t cache_max;	/* clean windows kept at most */
	uint32_t loaded;	/* windows in memory */
	uint32_t packed;	/* windows packed into lists of entries */
	uint64_t reads;		/* windows read from the image */
};

void fp_fat_stats(const struct fp_fat *fat, struct fp_fat_stats *st);

/* Entry @cl (0 <= cl <= max_cl), masked to 12/16/28 bits, into *val. */
enum fp_err fp_fat_get(struct fp_fat *fat, uint32_t cl, uint32_t *val);

/* Entries @cl .. @cl + @count - 1, masked, into @vals. */
enum fp_err fp_fat_get_run(struct fp_fat *fat, uint32_t cl, uint32_t count,
			   uint32_t *vals);

/*
 * masks[g] = which of the 64 entries from @cl + 64 g are free, bit k for
 * entry @cl + 64 g + k, for g < @count; @cl is a multiple of 64 and
 * entries above max_cl count as not free.
 */
enum fp_err fp_fat_free_masks(struct fp_fat *fat, uint32_t cl,
			      uint32_t count, uint64_t *masks);

/*
 * *groups = how many of the @count groups of 64 entries from @cl (a
 * multiple of 64) are free whole, from the first on: a group masks[g] of
 * fp_fat_free_masks() would call ~0.  A window of zeros is one test.
 */
enum fp_err fp_fat_free_groups(struct fp_fat *fat, uint32_t cl,
			       uint32_t count, uint32_t *groups);

/*
 * *len = how many entries from @cl on hold the next cluster number
 * (entry c == c + 1), at most @max, within the window of @cl: the length
 * of a run of consecutive clusters in a chain, without a call a cluster.
 */
enum fp_err fp_fat_seq(struct fp_fat *fat, uint32_t cl, uint32_t max,
		       uint32_t *len);

/*
 * Set entry @cl to @val, keeping the other nibble of a shared FAT12 byte and
 * the top 4 bits of a FAT32 entry; marks the touched sectors dirty.
 */
enum fp_err fp_fat_set(struct fp_fat *fat, uint32_t cl, uint32_t val);

/*
 * Free the @count clusters of the chain from @cl: each entry, followed
 * through the cache, set as fp_fat_set(fat, c, FP_FAT_FREE) would set it.
 */
enum fp_err fp_fat_free_chain(struct fp_fat *fat, uint32_t cl,
			      uint32_t count);

/* Link @start .. @start + @count - 1 in order and end them with EOC. */
enum fp_err fp_fat_set_chain(struct fp_fat *fat, uint32_t start,
			     uint32_t count);

/* The end-of-chain value written for this FAT type; also its mask. */
uint32_t fp_fat_eoc(const struct fp_fat *fat);

/*
 * Classify masked entry value @val of a FAT of @type whose highest
 * cluster is @max_cl (inline: verify calls it for every entry).  Links
 * are tested first: the highest FAT12/16 cluster numbers (0xFF5, 0xFFF5)
 * fall into the range 0xFF0..0xFF6 otherwise reserved.
 */
static inline enum fp_fat_kind fp_fat_kind_of(enum fp_fat_type type,
					      uint32_t max_cl, uint32_t val)
{
	uint32_t mask = type == FP_FAT12 ? 0xFFFu :
			type == FP_FAT16 ? 0xFFFFu : 0x0FFFFFFFu;

	if (val == FP_FAT_FREE)
		return FP_FK_FREE;
	if (val >= 2 && val <= max_cl)
		return FP_FK_NEXT;
	if (val == mask - 8)
		return FP_FK_BAD;
	if (val >= mask - 7 && val <= mask)
		return FP_FK_EOC;
	return FP_FK_INVALID;
}

/* Classify masked entry value @val of @fat. */
enum fp_fat_kind fp_fat_kind(const struct fp_fat *fat, uint32_t val);

/*
 * Walk the chain from @start, at most max_cl steps.  On success *count is
 * its length and *last its last cluster.  A start or link that is free,
 * bad, invalid or loops gives FP_E_CORRUPT.
 */
enum fp_err fp_fat_chain(struct fp_fat *fat, uint32_t start,
			 uint32_t *count, uint32_t *last);

/*
 * Write the dirty sectors, as coalesced runs, to every FAT copy when the
 * FATs are mirrored, else to the active copy only; then clear dirty.
 * Each run is written to every copy before the next run (a packed run
 * is built once), so a failed write leaves each copy with a prefix of
 * the runs.
 */
enum fp_err fp_fat_flush(struct fp_fat *fat, struct fp_img *img,
			 const struct fp_geom *g);

/* Free @fat and its windows; NULL is a no-op. */
void fp_fat_free(struct fp_fat *fat);

#endif
