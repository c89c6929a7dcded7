/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* bitmap.h - free-cluster bitmap, filled from the FAT window by window. */
#ifndef FP_BITMAP_H
#define FP_BITMAP_H

#include <stdint.h>

#include "fat.h"
#include "fp_err.h"

/*
 * One bit per cluster number 0 .. max_cl: the free clusters of a FAT.
 * A bitmap made by fp_bitmap_load() reads a FAT window the first time a
 * query needs its clusters, so a search that succeeds early reads little
 * of a large FAT.  Opaque; the caller owns it (fp_bitmap_free()).
 */
struct fp_bitmap;

/*
 * *out = a bitmap of @fat's clusters, which @fat must outlive; a cluster
 * is free when its entry is 0.
 */
enum fp_err fp_bitmap_load(struct fp_fat *fat, struct fp_bitmap **out);

/* *out = an all-free bitmap for clusters 2 .. @max_cl (for tests). */
enum fp_err fp_bitmap_new(uint32_t max_cl, struct fp_bitmap **out);

/* The highest cluster number. */
uint32_t fp_bitmap_max_cl(const struct fp_bitmap *bm);

/* 1 if @cl is in use, by the bits known so far. */
int fp_bitmap_used(const struct fp_bitmap *bm, uint32_t cl);

/* Mark @count clusters from @cl used (they must be known free). */
void fp_bitmap_take(struct fp_bitmap *bm, uint32_t cl, uint32_t count);

/*
 * The primitives below fp_bitmap_new_range(), which allocators use
 * instead.  *cl = first free cluster >= @from (>= 2), or 0 if none.
 */
enum fp_err fp_bitmap_next_free(struct fp_bitmap *bm, uint32_t from,
				uint32_t *cl);

/* *len = length of the free run starting at @cl, counting at most @max. */
enum fp_err fp_bitmap_run_count(struct fp_bitmap *bm, uint32_t cl,
			      uint32_t max, uint32_t *len);

/* Flags of fp_bitmap_new_range(). */
enum fp_bm_flag {
	FP_BM_FIXED_GOAL = 1u << 0,	/* the run starts at the goal */
	FP_BM_CONTIGUOUS = 1u << 1,	/* the whole length as one run */
	FP_BM_END = 1u << 2		/* highest first, down from the goal */
};

/*
 * The one allocator entry point (after e2fsprogs' ext2fs_new_range()):
 * find a free run of at most @len clusters and at least @min_count (0
 * counts as 1; FP_BM_CONTIGUOUS makes it @len), and set *start and *count
 * to it.  Nothing is taken: fp_bitmap_take() does that.
 *
 * - FP_BM_FIXED_GOAL: the run starts at @goal and is as long as the free
 *   clusters there allow, at most @len.
 * - FP_BM_END: the highest free run whose clusters are at most @goal (any
 *   @goal past the last cluster means the last) and that holds @min_count
 *   of them; the run returned is its top @len clusters, or all of it.
 * - neither: the first run of @len clusters at or after @goal (a @goal
 *   inside a free run counts from the goal), else the first one from
 *   cluster 2 on; else the largest free run, the lowest of equal ones,
 *   when it holds @min_count.  A @goal outside 2 .. max_cl means 2.
 *
 * FP_E_NOSPC when no such run exists; FP_E_INVAL for an unknown flag,
 * FP_BM_FIXED_GOAL with FP_BM_END, @len 0 or @min_count above @len.
 */
enum fp_err fp_bitmap_new_range(struct fp_bitmap *bm, unsigned flags,
				uint32_t goal, uint32_t len,
				uint32_t min_count, uint32_t *start,
				uint32_t *count);

/* *count = free clusters on the whole volume. */
enum fp_err fp_bitmap_free_count(struct fp_bitmap *bm, uint32_t *count);

/* Free @bm and what it owns; NULL is a no-op. */
void fp_bitmap_free(struct fp_bitmap *bm);

#endif
