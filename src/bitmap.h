/* bitmap.h - free-cluster bitmap: next free, first free run, counts. */
#ifndef FP_BITMAP_H
#define FP_BITMAP_H

#include <stdint.h>

#include "fat.h"
#include "fp_err.h"

/*
 * One bit a cluster number 0 .. max_cl; a set bit means "in use".
 * Clusters 0 and 1 are always in use.  words is owned by the struct.
 */
struct fp_bitmap {
	uint64_t *words;
	uint32_t max_cl;
	uint32_t free_count;
};

/* Build from @fat: a cluster is free when its entry is 0. */
enum fp_err fp_bitmap_load(struct fp_bitmap *bm, const struct fp_fat *fat);

/* An all-free bitmap for clusters 2 .. max_cl (for tests). */
enum fp_err fp_bitmap_init(struct fp_bitmap *bm, uint32_t max_cl);

int fp_bitmap_used(const struct fp_bitmap *bm, uint32_t cl);

/* Mark @count clusters from @cl used (they must be free). */
void fp_bitmap_take(struct fp_bitmap *bm, uint32_t cl, uint32_t count);

/* First free cluster >= @from (>= 2), or 0 if none. */
uint32_t fp_bitmap_next_free(const struct fp_bitmap *bm, uint32_t from);

/* Length of the free run starting at @cl, counting at most @max. */
uint32_t fp_bitmap_run_len(const struct fp_bitmap *bm, uint32_t cl,
			   uint32_t max);

/* Lowest-addressed free run of at least @count clusters; 0 if none. */
uint32_t fp_bitmap_find_run(const struct fp_bitmap *bm, uint32_t count);

/* The largest free run: *start (0 if none) and *len. */
void fp_bitmap_largest_run(const struct fp_bitmap *bm, uint32_t *start,
			   uint32_t *len);

void fp_bitmap_release(struct fp_bitmap *bm);

#endif
