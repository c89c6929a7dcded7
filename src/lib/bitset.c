/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* bitset.c - sets of cluster numbers as sparse bit arrays. */
#include "bitset.h"

#include <stdlib.h>
#include <string.h>

int fp_bitset_init(struct fp_bitset *s, uint64_t bound)
{
	s->blk_count = (uint32_t)((bound + FP_BITSET_BLOCK - 1) /
				  FP_BITSET_BLOCK);
	s->ones = NULL;
	s->blk = calloc(s->blk_count, sizeof(*s->blk));
	return s->blk ? 0 : -1;
}

void fp_bitset_clear(struct fp_bitset *s)
{
	uint32_t k;

	for (k = 0; k < s->blk_count; k++) {
		if (s->blk[k] != s->ones)
			free(s->blk[k]);
		s->blk[k] = NULL;
	}
}

void fp_bitset_release(struct fp_bitset *s)
{
	if (s->blk)
		fp_bitset_clear(s);
	free(s->blk);
	free(s->ones);
	s->blk = NULL;
	s->ones = NULL;
}

int fp_bitset_set_new(struct fp_bitset *s, uint32_t i)
{
	uint64_t *b = calloc(FP_BITSET_WORDS, sizeof(*b));

	if (!b)
		return -1;
	s->blk[i >> FP_BITSET_SHIFT] = b;
	b[i % FP_BITSET_BLOCK / 64] |= 1ull << (i % 64);
	return 0;
}

/* Mask of bits @lo .. @hi (inclusive) of a word, @lo <= @hi < 64. */
static uint64_t span(unsigned lo, unsigned hi)
{
	return (~0ull >> (63 - hi)) & (~0ull << lo);
}

/* Set bits @lo .. @hi (inclusive) of block @b. */
static void fill_words(uint64_t *b, uint32_t lo, uint32_t hi)
{
	uint32_t w = lo / 64, last = hi / 64;

	if (w == last) {
		b[w] |= span(lo % 64, hi % 64);
		return;
	}
	b[w++] |= span(lo % 64, 63);
	if (w < last)
		memset(b + w, 0xFF, (size_t)(last - w) * sizeof(*b));
	b[last] |= span(0, hi % 64);
}

/* 1 if every bit of block @b is set. */
static int all_ones(const uint64_t *b)
{
	uint32_t w;

	for (w = 0; w < FP_BITSET_WORDS; w++)
		if (b[w] != ~0ull)
			return 0;
	return 1;
}

/* Block @k made all ones. */
static int fill_whole(struct fp_bitset *s, uint32_t k)
{
	if (!s->ones) {
		s->ones = malloc(FP_BITSET_WORDS * sizeof(*s->ones));
		if (!s->ones)
			return -1;
		memset(s->ones, 0xFF, FP_BITSET_WORDS * sizeof(*s->ones));
	}
	if (s->blk[k] != s->ones)
		free(s->blk[k]);
	s->blk[k] = s->ones;
	return 0;
}

int fp_bitset_fill(struct fp_bitset *s, uint32_t lo, uint32_t hi)
{
	uint32_t k, a, e, last = hi >> FP_BITSET_SHIFT;

	for (k = lo >> FP_BITSET_SHIFT; lo <= hi && k <= last; k++) {
		a = k == lo >> FP_BITSET_SHIFT ? lo % FP_BITSET_BLOCK : 0;
		e = k == last ? hi % FP_BITSET_BLOCK : FP_BITSET_BLOCK - 1;
		if (a == 0 && e == FP_BITSET_BLOCK - 1) {
			if (fill_whole(s, k))
				return -1;
			continue;
		}
		if (s->blk[k] == s->ones && s->ones)
			continue;
		if (!s->blk[k] &&
		    !(s->blk[k] = calloc(FP_BITSET_WORDS, sizeof(uint64_t))))
			return -1;
		fill_words(s->blk[k], a, e);
		/* pieces of a run (a window at a time) may fill it whole */
		if ((a == 0 || e == FP_BITSET_BLOCK - 1) &&
		    all_ones(s->blk[k]) && fill_whole(s, k))
			return -1;
	}
	return 0;
}

/* The lowest set bit of @lo .. @hi (inclusive) of block @b, or -1. */
static int64_t first_in(const uint64_t *b, uint32_t lo, uint32_t hi)
{
	uint32_t w = lo / 64, last = hi / 64;
	uint64_t m;

	for (; w <= last; w++) {
		m = b[w] & span(w == lo / 64 ? lo % 64 : 0,
				w == last ? hi % 64 : 63);
		if (m)
			return (int64_t)w * 64 + __builtin_ctzll(m);
	}
	return -1;
}

uint64_t fp_bitset_first(const struct fp_bitset *s, uint32_t lo, uint32_t hi)
{
	uint32_t k, a, e, last = hi >> FP_BITSET_SHIFT;
	int64_t j;

	for (k = lo >> FP_BITSET_SHIFT; lo <= hi && k <= last; k++) {
		if (!s->blk[k])
			continue;
		a = k == lo >> FP_BITSET_SHIFT ? lo % FP_BITSET_BLOCK : 0;
		e = k == last ? hi % FP_BITSET_BLOCK : FP_BITSET_BLOCK - 1;
		j = s->blk[k] == s->ones ? (int64_t)a :
		    first_in(s->blk[k], a, e);
		if (j >= 0)
			return (uint64_t)k * FP_BITSET_BLOCK + (uint64_t)j;
	}
	return (uint64_t)hi + 1;
}
