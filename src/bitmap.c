/* bitmap.c - free-cluster bitmap, scanned a 64-bit word at a time. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"

/*
 * Bit cl of word cl / 64 is set when cluster cl is in use.  Clusters 0 and
 * 1 and every bit above max_cl are set too, and there is always at least
 * one such bit after max_cl (the word count is (max_cl + 1) / 64 + 1): a
 * scan for a used bit stops there without a bounds test.
 */
static uint64_t word_count(uint32_t max_cl)
{
	return ((uint64_t)max_cl + 1) / 64 + 1;
}

/* Mask of bits lo .. hi - 1 of a word, 0 <= lo < hi <= 64. */
static uint64_t bit_range(unsigned lo, unsigned hi)
{
	uint64_t m = hi == 64 ? ~0ull : (1ull << hi) - 1;

	return m & (~0ull << lo);
}

/* All bits set ("in use"); free_count 0. */
static enum fp_err bm_alloc(struct fp_bitmap *bm, uint32_t max_cl)
{
	uint64_t n = word_count(max_cl);

	memset(bm, 0, sizeof(*bm));
	if (max_cl < 2 || max_cl == UINT32_MAX)
		return FP_E_INVAL;
	if (n > SIZE_MAX / sizeof(uint64_t))
		return FP_E_NOMEM;
	bm->words = malloc((size_t)n * sizeof(uint64_t));
	if (!bm->words)
		return FP_E_NOMEM;
	memset(bm->words, 0xFF, (size_t)n * sizeof(uint64_t));
	bm->max_cl = max_cl;
	return FP_OK;
}

enum fp_err fp_bitmap_load(struct fp_bitmap *bm, const struct fp_fat *fat)
{
	enum fp_err err = bm_alloc(bm, fat->max_cl);
	uint32_t cl, free_count = 0;

	if (err)
		return err;
	for (cl = 2; cl <= fat->max_cl; cl++) {
		if (fp_fat_get(fat, cl) != FP_FAT_FREE)
			continue;
		bm->words[cl / 64] &= ~(1ull << (cl % 64));
		free_count++;
	}
	bm->free_count = free_count;
	return FP_OK;
}

enum fp_err fp_bitmap_init(struct fp_bitmap *bm, uint32_t max_cl)
{
	enum fp_err err = bm_alloc(bm, max_cl);
	uint64_t i, last;

	if (err)
		return err;
	last = max_cl / 64;
	for (i = 0; i <= last; i++)
		bm->words[i] = 0;
	bm->words[0] |= 3;			/* clusters 0 and 1 */
	if (max_cl % 64 != 63)			/* padding above max_cl */
		bm->words[last] |= ~0ull << (max_cl % 64 + 1);
	bm->free_count = max_cl - 1;
	return FP_OK;
}

int fp_bitmap_used(const struct fp_bitmap *bm, uint32_t cl)
{
	if (cl > bm->max_cl)
		return 1;
	return (bm->words[cl / 64] >> (cl % 64)) & 1;
}

void fp_bitmap_take(struct fp_bitmap *bm, uint32_t cl, uint32_t count)
{
	uint64_t pos = cl, end = (uint64_t)cl + count;

	assert(cl >= 2 && end <= (uint64_t)bm->max_cl + 1);
	if (end > (uint64_t)bm->max_cl + 1)
		end = (uint64_t)bm->max_cl + 1;
	while (pos < end) {
		uint64_t i = pos / 64;
		uint64_t left = end - i * 64;
		unsigned hi = left < 64 ? (unsigned)left : 64;
		uint64_t m = bit_range((unsigned)(pos % 64), hi);

		assert((bm->words[i] & m) == 0);
		bm->free_count -= (uint32_t)__builtin_popcountll(
			m & ~bm->words[i]);
		bm->words[i] |= m;
		pos = i * 64 + hi;
	}
}

uint32_t fp_bitmap_next_free(const struct fp_bitmap *bm, uint32_t from)
{
	uint64_t nw = word_count(bm->max_cl);
	uint64_t i, w;

	if (from < 2)
		from = 2;
	if (from > bm->max_cl)
		return 0;
	i = from / 64;
	w = ~bm->words[i] & (~0ull << (from % 64));
	while (w == 0) {
		if (++i >= nw)
			return 0;
		w = ~bm->words[i];
	}
	return (uint32_t)(i * 64 + (unsigned)__builtin_ctzll(w));
}

uint32_t fp_bitmap_run_len(const struct fp_bitmap *bm, uint32_t cl,
			   uint32_t max)
{
	uint64_t i, w, n = 0;
	unsigned b;

	if (cl > bm->max_cl)
		return 0;
	i = cl / 64;
	b = cl % 64;
	while (n < max) {
		w = bm->words[i] >> b;	/* the used bits from cluster cl + n */
		if (w) {
			n += (unsigned)__builtin_ctzll(w);
			break;
		}
		n += 64 - b;
		b = 0;
		i++;
	}
	return n < max ? (uint32_t)n : max;
}

/*
 * Each free run is measured once, at most @count clusters deep, and the
 * search resumes at the used cluster that ended it: O(words + runs).
 */
uint32_t fp_bitmap_find_run(const struct fp_bitmap *bm, uint32_t count)
{
	uint32_t cl, len;

	if (count == 0 || count > bm->free_count)
		return 0;
	for (cl = fp_bitmap_next_free(bm, 2); cl;
	     cl = fp_bitmap_next_free(bm, cl + len)) {
		len = fp_bitmap_run_len(bm, cl, count);
		if (len >= count)
			return cl;
	}
	return 0;
}

void fp_bitmap_largest_run(const struct fp_bitmap *bm, uint32_t *start,
			   uint32_t *len)
{
	uint32_t cl, n, best = 0, best_cl = 0;

	for (cl = fp_bitmap_next_free(bm, 2); cl;
	     cl = fp_bitmap_next_free(bm, cl + n)) {
		n = fp_bitmap_run_len(bm, cl, UINT32_MAX);
		if (n > best) {
			best = n;
			best_cl = cl;
		}
	}
	*start = best_cl;
	*len = best;
}

void fp_bitmap_release(struct fp_bitmap *bm)
{
	if (!bm)
		return;
	free(bm->words);
	memset(bm, 0, sizeof(*bm));
}
