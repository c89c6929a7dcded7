/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* bitset.h - sets of cluster numbers as sparse bit arrays. */
#ifndef FP_BITSET_H
#define FP_BITSET_H

#include <stdint.h>

/*
 * A bit per number below a bound, kept in blocks of FP_BITSET_BLOCK bits
 * (4 KiB, a page) made on first use.  A block with no bit set costs no
 * memory, and neither does one filled whole: it points at a block of
 * ones that the set shares.  So the set of the clusters of big files
 * takes a few pages whatever the size of the volume, where a plain bit
 * array takes (and pays page faults for) a bit per cluster.
 */
#define FP_BITSET_SHIFT 15u
#define FP_BITSET_BLOCK (1u << FP_BITSET_SHIFT)	/* bits a block */
#define FP_BITSET_WORDS (FP_BITSET_BLOCK / 64u)	/* words a block */

struct fp_bitset {
	uint64_t **blk;		/* NULL: no bit set; ones: all bits set */
	uint64_t *ones;		/* the block of ones, never changed */
	uint32_t blk_count;
};

/* An empty set for 0 .. @bound - 1 (@bound >= 1); -1: no memory. */
int fp_bitset_init(struct fp_bitset *s, uint64_t bound);
void fp_bitset_release(struct fp_bitset *s);
/* Empty the set again. */
void fp_bitset_clear(struct fp_bitset *s);

/* A block for the one bit @i of a block that has none yet; -1: no memory. */
int fp_bitset_set_new(struct fp_bitset *s, uint32_t i);
/* Set bits @lo .. @hi (inclusive, none if @lo > @hi); -1: no memory. */
int fp_bitset_fill(struct fp_bitset *s, uint32_t lo, uint32_t hi);
/* The lowest set bit of @lo .. @hi (inclusive), @hi + 1 if none. */
uint64_t fp_bitset_first(const struct fp_bitset *s, uint32_t lo, uint32_t hi);

static inline int fp_bitset_test(const struct fp_bitset *s, uint32_t i)
{
	const uint64_t *b = s->blk[i >> FP_BITSET_SHIFT];

	return b && ((b[i % FP_BITSET_BLOCK / 64] >> (i % 64)) & 1);
}

/*
 * Set bit @i; -1: no memory.  In the block of ones the store writes
 * what is there already.
 */
static inline int fp_bitset_set(struct fp_bitset *s, uint32_t i)
{
	uint64_t *b = s->blk[i >> FP_BITSET_SHIFT];

	if (!b)
		return fp_bitset_set_new(s, i);
	b[i % FP_BITSET_BLOCK / 64] |= 1ull << (i % 64);
	return 0;
}

/*
 * Block @k's words (FP_BITSET_WORDS of them, bit j of word w standing
 * for k * FP_BITSET_BLOCK + 64 * w + j); NULL when no bit of it is set.
 */
static inline const uint64_t *fp_bitset_block(const struct fp_bitset *s,
					      uint32_t k)
{
	return s->blk[k];
}

/* 1 if every bit of block @k is set. */
static inline int fp_bitset_full(const struct fp_bitset *s, uint32_t k)
{
	return s->blk[k] && s->blk[k] == s->ones;
}

#endif
