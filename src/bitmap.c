/* bitmap.c - free-cluster bitmap, scanned a 64-bit word at a time. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "bitmap.h"

/* Bitmap words filled at a time while a window is scanned. */
#define SCAN_GROUPS 256u

/* Arrays from this size on are aligned to it, for huge pages. */
#define HUGE_LEN (2u * 1024u * 1024u)

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

uint64_t *fp_bits_new(uint64_t count, uint64_t fill)
{
	uint64_t len, i;
	uint64_t *p;

	if (count == 0 || count > SIZE_MAX / sizeof(*p) - HUGE_LEN)
		return NULL;
	len = count * sizeof(*p);
	if (len < HUGE_LEN) {
		p = malloc((size_t)len);
	} else {
		len = (len + HUGE_LEN - 1) / HUGE_LEN * HUGE_LEN;
		p = aligned_alloc(HUGE_LEN, (size_t)len);
#ifdef MADV_HUGEPAGE
		if (p)
			(void)madvise(p, (size_t)len, MADV_HUGEPAGE);
#endif
	}
	for (i = 0; p && i < count; i++)
		p[i] = fill;
	return p;
}

/* All bits set ("in use"); free_count 0. */
static enum fp_err bm_alloc(struct fp_bitmap *bm, uint32_t max_cl)
{
	memset(bm, 0, sizeof(*bm));
	if (max_cl < 2 || max_cl == UINT32_MAX)
		return FP_E_INVAL;
	bm->words = fp_bits_new(word_count(max_cl), ~0ull);
	if (!bm->words)
		return FP_E_NOMEM;
	bm->max_cl = max_cl;
	bm->win_cl = max_cl + 1;
	return FP_OK;
}

enum fp_err fp_bitmap_load(struct fp_bitmap *bm, struct fp_fat *fat)
{
	enum fp_err err = bm_alloc(bm, fp_fat_max_cl(fat));

	if (err)
		return err;
	bm->fat = fat;
	bm->win_cl = fp_fat_win_cl(fat);
	bm->unscanned = fp_fat_win_count(fat);
	bm->scanned = calloc(fp_fat_win_count(fat), 1);
	if (!bm->scanned) {
		fp_bitmap_release(bm);
		return FP_E_NOMEM;
	}
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

/* The last cluster of the window that holds @cl. */
static uint32_t win_end(const struct fp_bitmap *bm, uint32_t cl)
{
	uint64_t end = (uint64_t)(cl / bm->win_cl + 1) * bm->win_cl - 1;

	return end < bm->max_cl ? (uint32_t)end : bm->max_cl;
}

/*
 * Clear the bits of the free clusters of the window that holds @cl, 64
 * at a time (windows start at a multiple of 64); 0 and 1 stay used.
 */
static enum fp_err scan(struct fp_bitmap *bm, uint32_t cl)
{
	uint32_t w = cl / bm->win_cl, end = win_end(bm, cl), n, g;
	uint64_t masks[SCAN_GROUPS];
	enum fp_err err;

	if (!bm->fat || bm->scanned[w])
		return FP_OK;
	for (cl = w * bm->win_cl; cl <= end; cl += n * 64) {
		n = (end - cl) / 64 + 1;
		if (n > SCAN_GROUPS)
			n = SCAN_GROUPS;
		err = fp_fat_free_masks(bm->fat, cl, n, masks);
		if (err)
			return err;
		if (cl == 0)
			masks[0] &= ~3ull;
		for (g = 0; g < n; g++) {
			bm->words[cl / 64 + g] &= ~masks[g];
			bm->free_count +=
				(uint32_t)__builtin_popcountll(masks[g]);
		}
		if (end - cl < n * 64)
			break;
	}
	bm->scanned[w] = 1;
	bm->unscanned--;
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

/* First clear bit in @from .. @end, or 0. */
static uint32_t first_clear(const struct fp_bitmap *bm, uint32_t from,
			    uint32_t end)
{
	uint64_t i = from / 64, last = end / 64, w;

	w = ~bm->words[i] & (~0ull << (from % 64));
	while (w == 0) {
		if (++i > last)
			return 0;
		w = ~bm->words[i];
	}
	i = i * 64 + (unsigned)__builtin_ctzll(w);
	return i <= end ? (uint32_t)i : 0;
}

/*
 * Bits only ever go from free to used once their window is scanned, so
 * the last answer stays true: every cluster in [used_from, used_to) is
 * used.  A search that starts there skips them, which keeps the searches
 * of many files from one hint linear rather than quadratic.
 */
enum fp_err fp_bitmap_next_free(struct fp_bitmap *bm, uint32_t from,
				uint32_t *cl)
{
	uint32_t end, c = 0, lo, pos;
	enum fp_err err;

	if (from < 2)
		from = 2;
	lo = from;
	if (from >= bm->used_from && from <= bm->used_to) {
		lo = bm->used_from;
		from = bm->used_to;
	}
	for (pos = from; pos <= bm->max_cl; pos = end + 1) {
		err = scan(bm, pos);
		if (err)
			return err;
		end = win_end(bm, pos);
		c = first_clear(bm, pos, end);
		if (c || end == bm->max_cl)
			break;
	}
	bm->used_from = lo;
	bm->used_to = c ? c : bm->max_cl + 1;
	*cl = c;
	return FP_OK;
}

/* Clear bits from @cl on, at most @max, not past a set bit. */
static uint64_t clear_run(const struct fp_bitmap *bm, uint32_t cl,
			  uint64_t max)
{
	uint64_t i = cl / 64, w, n = 0;
	unsigned b = cl % 64;

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
	return n < max ? n : max;
}

enum fp_err fp_bitmap_run_len(struct fp_bitmap *bm, uint32_t cl,
			      uint32_t max, uint32_t *len)
{
	uint64_t n = 0, k, room;
	uint32_t end;
	enum fp_err err;

	while (n < max && cl + n <= bm->max_cl) {
		err = scan(bm, (uint32_t)(cl + n));
		if (err)
			return err;
		end = win_end(bm, (uint32_t)(cl + n));
		room = end - (cl + n) + 1;
		k = clear_run(bm, (uint32_t)(cl + n),
			      max - n < room ? max - n : room);
		n += k;
		if (k < room)
			break;
	}
	*len = (uint32_t)n;
	return FP_OK;
}

/*
 * Each free run is measured once, at most @count clusters deep, and the
 * search resumes at the used cluster that ended it: O(words + runs).
 */
static enum fp_err run_in(struct fp_bitmap *bm, uint32_t lo, uint64_t hi,
			  uint32_t count, uint32_t *start)
{
	uint32_t cl, len;
	enum fp_err err;

	err = fp_bitmap_next_free(bm, lo, &cl);
	while (!err && cl && cl < hi) {
		err = fp_bitmap_run_len(bm, cl, count, &len);
		if (err || len >= count)
			break;
		err = fp_bitmap_next_free(bm, cl + len, &cl);
	}
	if (!err)
		*start = cl && cl < hi ? cl : 0;
	return err;
}

enum fp_err fp_bitmap_find_run(struct fp_bitmap *bm, uint32_t from,
			       uint32_t count, uint32_t *start)
{
	enum fp_err err;

	*start = 0;
	if (count == 0 || count > bm->max_cl - 1)
		return FP_OK;
	if (from < 2 || from > bm->max_cl)
		from = 2;
	err = run_in(bm, from, (uint64_t)bm->max_cl + 1, count, start);
	if (!err && !*start && from > 2)
		err = run_in(bm, 2, from, count, start);
	return err;
}

/* Cluster @cl is in use; its window is scanned first. */
static enum fp_err used_at(struct fp_bitmap *bm, uint32_t cl, int *used)
{
	enum fp_err err = scan(bm, cl);

	if (!err)
		*used = (bm->words[cl / 64] >> (cl % 64)) & 1;
	return err;
}

/* A cluster at a time, downwards: --place end is not a hot path. */
enum fp_err fp_bitmap_last_run(struct fp_bitmap *bm, uint32_t below,
			       uint32_t *start, uint32_t *len)
{
	uint32_t cl = below > bm->max_cl + 1 ? bm->max_cl + 1 : below, end;
	enum fp_err err = FP_OK;
	int used = 1;

	while (!err && used && cl > 2)
		err = used_at(bm, --cl, &used);
	if (err)
		return err;
	if (used) {
		*start = 0;
		*len = 0;
		return FP_OK;
	}
	end = cl;
	while (!err && cl > 2) {
		err = used_at(bm, cl - 1, &used);
		if (!err && used)
			break;
		if (!err)
			cl--;
	}
	if (err)
		return err;
	*start = cl;
	*len = end - cl + 1;
	return FP_OK;
}

enum fp_err fp_bitmap_largest_run(struct fp_bitmap *bm, uint32_t *start,
				  uint32_t *len)
{
	uint32_t cl, n = 0, best = 0, best_cl = 0;
	enum fp_err err;

	err = fp_bitmap_next_free(bm, 2, &cl);
	while (!err && cl) {
		err = fp_bitmap_run_len(bm, cl, UINT32_MAX, &n);
		if (err)
			break;
		if (n > best) {
			best = n;
			best_cl = cl;
		}
		err = fp_bitmap_next_free(bm, cl + n, &cl);
	}
	if (err)
		return err;
	*start = best_cl;
	*len = best;
	return FP_OK;
}

enum fp_err fp_bitmap_free_count(struct fp_bitmap *bm, uint32_t *count)
{
	uint64_t cl;
	enum fp_err err;

	for (cl = 0; bm->unscanned && cl <= bm->max_cl; cl += bm->win_cl) {
		err = scan(bm, (uint32_t)cl);
		if (err)
			return err;
	}
	*count = bm->free_count;
	return FP_OK;
}

void fp_bitmap_release(struct fp_bitmap *bm)
{
	if (!bm)
		return;
	free(bm->words);
	free(bm->scanned);
	memset(bm, 0, sizeof(*bm));
}
