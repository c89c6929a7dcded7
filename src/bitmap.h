/* bitmap.h - free-cluster bitmap, filled from the FAT window by window. */
#ifndef FP_BITMAP_H
#define FP_BITMAP_H

#include <stdint.h>

#include "fat.h"
#include "fp_err.h"

/* A free run of the list fp_bitmap_new_range() keeps. */
struct fp_bm_run {
	uint32_t start;
	uint32_t count;
};

/*
 * One bit a cluster number 0 .. max_cl; a set bit means "in use".
 * Clusters 0 and 1 are always in use.  A bitmap made by fp_bitmap_load()
 * reads a FAT window the first time a query needs its clusters, so a
 * search that succeeds early reads little of a large FAT; until then the
 * window's bits are set.  words and scanned are owned by the struct.
 */
struct fp_bitmap {
	uint64_t *words;
	uint32_t max_cl;
	uint32_t free_count;	/* free clusters in the windows scanned */
	struct fp_fat *fat;	/* borrowed; NULL: every bit is known */
	uint8_t *scanned;	/* a byte a FAT window: 1 = bits known */
	uint32_t win_cl;	/* clusters per window */
	uint32_t unscanned;	/* windows not scanned yet */
	uint32_t used_from;	/* clusters used_from .. used_to - 1 are */
	uint32_t used_to;	/* known to be used (used_to may be max_cl + 1) */
	struct fp_bm_run *runs;	/* the free runs in order, once listed */
	uint32_t run_count;
	uint32_t *best;		/* max-tree of the runs' lengths */
	uint32_t leaf_base;	/* best[leaf_base + i]: run i's length */
	uint32_t skipped;	/* short runs that searches stepped over */
	int want_runs;		/* list the runs again when they are dropped */
};

/*
 * @count 64-bit words, each @fill, for any bit array; large ones in huge
 * pages where the system allows (a page fault is dear on a VM).  NULL
 * when out of memory; release with free().
 */
uint64_t *fp_bits_new(uint64_t count, uint64_t fill);

/* A bitmap of @fat's clusters; a cluster is free when its entry is 0. */
enum fp_err fp_bitmap_load(struct fp_bitmap *bm, struct fp_fat *fat);

/* An all-free bitmap for clusters 2 .. max_cl (for tests). */
enum fp_err fp_bitmap_init(struct fp_bitmap *bm, uint32_t max_cl);

/* 1 if @cl is in use, by the bits known so far. */
int fp_bitmap_used(const struct fp_bitmap *bm, uint32_t cl);

/* Mark @count clusters from @cl used (they must be known free). */
void fp_bitmap_take(struct fp_bitmap *bm, uint32_t cl, uint32_t count);

/* *cl = first free cluster >= @from (>= 2), or 0 if none. */
enum fp_err fp_bitmap_next_free(struct fp_bitmap *bm, uint32_t from,
				uint32_t *cl);

/* *len = length of the free run starting at @cl, counting at most @max. */
enum fp_err fp_bitmap_run_len(struct fp_bitmap *bm, uint32_t cl,
			      uint32_t max, uint32_t *len);

/*
 * *start = the first free run of at least @count clusters that starts at
 * or after @from, else the first one from cluster 2; 0 if none.
 */
enum fp_err fp_bitmap_find_run(struct fp_bitmap *bm, uint32_t from,
			       uint32_t count, uint32_t *start);

/*
 * The highest free run whose clusters are all below @below: *start (0 if
 * none) and *len.
 */
enum fp_err fp_bitmap_last_run(struct fp_bitmap *bm, uint32_t below,
			       uint32_t *start, uint32_t *len);

/* The largest free run: *start (0 if none) and *len. */
enum fp_err fp_bitmap_largest_run(struct fp_bitmap *bm, uint32_t *start,
				  uint32_t *len);

/* Flags of fp_bitmap_new_range(). */
enum fp_bm_flag {
	FP_BM_FIXED_GOAL = 1u << 0,	/* the run starts at the goal */
	FP_BM_CONTIGUOUS = 1u << 1,	/* the whole length as one run */
	FP_BM_END = 1u << 2		/* highest first, down from the goal */
};

/*
 * The one allocator entry point (after e2fsprogs' ext2fs_new_range()):
 * find a free run of at most @len clusters and at least @min_len (0
 * counts as 1; FP_BM_CONTIGUOUS makes it @len), and set *start and *count
 * to it.  Nothing is taken: fp_bitmap_take() does that.
 *
 * - FP_BM_FIXED_GOAL: the run starts at @goal and is as long as the free
 *   clusters there allow, at most @len.
 * - FP_BM_END: the highest free run whose clusters are at most @goal (any
 *   @goal past the last cluster means the last) and that holds @min_len
 *   of them; the run returned is its top @len clusters, or all of it.
 * - neither: the first run of @len clusters at or after @goal (a @goal
 *   inside a free run counts from the goal), else the first one from
 *   cluster 2 on; else the largest free run, the lowest of equal ones,
 *   when it holds @min_len.  A @goal outside 2 .. max_cl means 2.
 *
 * FP_E_NOSPC when no such run exists; FP_E_INVAL for an unknown flag,
 * FP_BM_FIXED_GOAL with FP_BM_END, @len 0 or @min_len above @len.
 */
enum fp_err fp_bitmap_new_range(struct fp_bitmap *bm, unsigned flags,
				uint32_t goal, uint32_t len,
				uint32_t min_len, uint32_t *start,
				uint32_t *count);

/* *count = free clusters on the whole volume. */
enum fp_err fp_bitmap_free_count(struct fp_bitmap *bm, uint32_t *count);

void fp_bitmap_release(struct fp_bitmap *bm);

#endif
