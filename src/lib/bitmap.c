/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* bitmap.c - free-cluster bitmap, scanned a 64-bit word at a time. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "platform.h"

/* A free run of the run list (see runs_build()). */
struct fp_bm_run {
	uint32_t start;
	uint32_t count;
};

/*
 * A set bit means "in use"; clusters 0 and 1 are always in use, and so
 * is every cluster of a window not read yet.  words, scanned, runs and
 * best are owned by the struct.
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

/*
 * The set bits of @m.  Most words of a FAT are all free or all used, and
 * without -mpopcnt __builtin_popcountll is a call into libgcc.
 */
static uint32_t count64(uint64_t m)
{
	if (m == 0 || m == ~0ull)
		return m ? 64 : 0;
	return (uint32_t)__builtin_popcountll(m);
}

/* Mask of bits lo .. hi - 1 of a word, 0 <= lo < hi <= 64. */
static uint64_t bit_range(unsigned lo, unsigned hi)
{
	uint64_t m = hi == 64 ? ~0ull : (1ull << hi) - 1;

	return m & (~0ull << lo);
}

/*
 * @count 64-bit words, each @fill; large ones in huge pages where the
 * system allows (a page fault is dear on a VM).  NULL when out of memory;
 * release with free().
 */
static uint64_t *bits_new(uint64_t count, uint64_t fill)
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
		if (p)
			fp_plat_advise_huge(p, (size_t)len);
	}
	for (i = 0; p && i < count; i++)
		p[i] = fill;
	return p;
}

/* All bits set ("in use"); free_count 0. */
static enum fp_err bm_alloc(uint32_t max_cl, struct fp_bitmap **out)
{
	struct fp_bitmap *bm;

	if (max_cl < 2 || max_cl == UINT32_MAX)
		return FP_E_INVAL;
	bm = calloc(1, sizeof(*bm));
	if (!bm)
		return FP_E_NOMEM;
	bm->words = bits_new(word_count(max_cl), ~0ull);
	if (!bm->words) {
		free(bm);
		return FP_E_NOMEM;
	}
	bm->max_cl = max_cl;
	bm->win_cl = max_cl + 1;
	*out = bm;
	return FP_OK;
}

enum fp_err fp_bitmap_load(struct fp_fat *fat, struct fp_bitmap **out)
{
	struct fp_bitmap *bm;
	enum fp_err err = bm_alloc(fp_fat_max_cl(fat), &bm);

	if (err)
		return err;
	bm->fat = fat;
	bm->win_cl = fp_fat_win_cl(fat);
	bm->unscanned = fp_fat_win_count(fat);
	bm->scanned = calloc(fp_fat_win_count(fat), 1);
	if (!bm->scanned) {
		fp_bitmap_free(bm);
		return FP_E_NOMEM;
	}
	*out = bm;
	return FP_OK;
}

enum fp_err fp_bitmap_new(uint32_t max_cl, struct fp_bitmap **out)
{
	struct fp_bitmap *bm;
	enum fp_err err = bm_alloc(max_cl, &bm);
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
	*out = bm;
	return FP_OK;
}

uint32_t fp_bitmap_max_cl(const struct fp_bitmap *bm)
{
	return bm->max_cl;
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
			bm->free_count += count64(masks[g]);
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

static void runs_take(struct fp_bitmap *bm, uint32_t cl, uint32_t count);
static void runs_drop(struct fp_bitmap *bm);

/* Set bits @lo .. @hi - 1 of word @i, which must be clear. */
static void take_bits(struct fp_bitmap *bm, uint64_t i, unsigned lo,
		      unsigned hi)
{
	uint64_t m = bit_range(lo, hi);

	assert((bm->words[i] & m) == 0);
	bm->free_count -= count64(m & ~bm->words[i]);
	bm->words[i] |= m;
}

void fp_bitmap_take(struct fp_bitmap *bm, uint32_t cl, uint32_t count)
{
	uint64_t pos = cl, end = (uint64_t)cl + count, base;

	assert(cl >= 2 && end <= (uint64_t)bm->max_cl + 1);
	if (end > (uint64_t)bm->max_cl + 1)
		end = (uint64_t)bm->max_cl + 1;
	if (pos % 64 && pos < end) {	/* the head, inside one word */
		base = pos - pos % 64;
		take_bits(bm, base / 64, (unsigned)(pos % 64),
			  end - base < 64 ? (unsigned)(end - base) : 64);
		pos = end - base < 64 ? end : base + 64;
	}
	for (; pos + 64 <= end; pos += 64)	/* whole words: most of it */
		take_bits(bm, pos / 64, 0, 64);
	if (pos < end)
		take_bits(bm, pos / 64, 0, (unsigned)(end - pos));
	if (bm->runs && count)
		runs_take(bm, cl, count);
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

enum fp_err fp_bitmap_run_count(struct fp_bitmap *bm, uint32_t cl,
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
		err = fp_bitmap_run_count(bm, cl, count, &len);
		if (err || len >= count)
			break;
		bm->skipped++;
		err = fp_bitmap_next_free(bm, cl + len, &cl);
	}
	if (!err)
		*start = cl && cl < hi ? cl : 0;
	return err;
}

static enum fp_err find_run(struct fp_bitmap *bm, uint32_t from,
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
static enum fp_err last_run(struct fp_bitmap *bm, uint32_t below,
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

static enum fp_err largest_run(struct fp_bitmap *bm, uint32_t *start,
			       uint32_t *len)
{
	uint32_t cl, n = 0, best = 0, best_cl = 0;
	enum fp_err err;

	err = fp_bitmap_next_free(bm, 2, &cl);
	while (!err && cl) {
		err = fp_bitmap_run_count(bm, cl, UINT32_MAX, &n);
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

void fp_bitmap_free(struct fp_bitmap *bm)
{
	if (!bm)
		return;
	free(bm->words);
	free(bm->scanned);
	runs_drop(bm);
	free(bm);
}

/* ---- the run list ---------------------------------------------------- */

/*
 * Once a search has to look at the whole volume (no run of the length
 * from the goal, or the largest run), the free runs are listed once, in
 * order, with a max-tree of their lengths over them: best[k] is the
 * longest run under node k, the leaves from leaf_base on.  Every later
 * search is a descent of that tree, O(log runs), instead of a pass over
 * the bitmap, so a file in many pieces costs O(clusters) per plan, not
 * O(pieces x clusters).  fp_bitmap_take() shortens the run it takes from
 * (runs are taken from their start or their end); a take from the middle
 * of a run drops the list, and the next search lists the runs again.
 * The bits stay the truth; the list only answers searches faster.
 */
#define NONE UINT32_MAX

static void runs_drop(struct fp_bitmap *bm)
{
	free(bm->runs);
	free(bm->best);
	bm->runs = NULL;
	bm->best = NULL;
	bm->run_count = 0;
}

/* Count the free runs, and store them into @runs unless it is NULL. */
static uint32_t list_runs(const struct fp_bitmap *bm, struct fp_bm_run *runs)
{
	uint32_t n = 0, cl = 2, len;

	while (cl <= bm->max_cl && (cl = first_clear(bm, cl, bm->max_cl))) {
		len = (uint32_t)clear_run(bm, cl, bm->max_cl - cl + 1);
		if (runs) {
			runs[n].start = cl;
			runs[n].count = len;
		}
		n++;
		cl += len;
	}
	return n;
}

static void tree_fix(struct fp_bitmap *bm, uint32_t k)
{
	uint32_t a = bm->best[2 * k], b = bm->best[2 * k + 1];

	bm->best[k] = a > b ? a : b;
}

/*
 * Read every window and list the runs.  Out of memory is no error: the
 * searches then go over the bitmap as before the list.
 */
static enum fp_err runs_build(struct fp_bitmap *bm)
{
	uint32_t n, k, i;
	enum fp_err err = fp_bitmap_free_count(bm, &n);

	bm->want_runs = 1;
	if (err || bm->runs)
		return err;
	n = list_runs(bm, NULL);
	for (k = 1; k < n; k *= 2)
		;
	bm->runs = malloc((n ? n : 1) * sizeof(*bm->runs));
	bm->best = calloc(2 * (size_t)k, sizeof(*bm->best));
	if (!bm->runs || !bm->best) {
		runs_drop(bm);
		return FP_OK;
	}
	bm->run_count = list_runs(bm, bm->runs);
	bm->leaf_base = k;
	for (i = 0; i < n; i++)
		bm->best[k + i] = bm->runs[i].count;
	while (--k >= 1)
		tree_fix(bm, k);
	return FP_OK;
}

/* The last run that starts at or before @cl, or NONE. */
static uint32_t run_at(const struct fp_bitmap *bm, uint32_t cl)
{
	uint32_t lo = 0, hi = bm->run_count, mid;

	while (lo < hi) {		/* runs[.. lo - 1] start at or before cl */
		mid = lo + (hi - lo) / 2;
		if (bm->runs[mid].start <= cl)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo ? lo - 1 : NONE;
}

/*
 * The first run from index @lo on (NONE: none) of at least @need, under
 * node @k, which covers the @span runs from @k_lo.
 */
static uint32_t leftmost(const struct fp_bitmap *bm, uint32_t k,
			 uint32_t k_lo, uint32_t span, uint32_t lo,
			 uint32_t need)
{
	uint32_t r;

	if (k_lo + span <= lo || bm->best[k] < need)
		return NONE;
	if (span == 1)
		return k_lo;
	r = leftmost(bm, 2 * k, k_lo, span / 2, lo, need);
	if (r == NONE)
		r = leftmost(bm, 2 * k + 1, k_lo + span / 2, span / 2, lo,
			     need);
	return r;
}

/* The last run up to index @hi of at least @need, as leftmost(). */
static uint32_t rightmost(const struct fp_bitmap *bm, uint32_t k,
			  uint32_t k_lo, uint32_t span, uint32_t hi,
			  uint32_t need)
{
	uint32_t r;

	if (k_lo > hi || bm->best[k] < need)
		return NONE;
	if (span == 1)
		return k_lo;
	r = rightmost(bm, 2 * k + 1, k_lo + span / 2, span / 2, hi, need);
	if (r == NONE)
		r = rightmost(bm, 2 * k, k_lo, span / 2, hi, need);
	return r;
}

static uint32_t first_of(const struct fp_bitmap *bm, uint32_t lo,
			 uint32_t need)
{
	return leftmost(bm, 1, 0, bm->leaf_base, lo, need);
}

static void runs_take(struct fp_bitmap *bm, uint32_t cl, uint32_t count)
{
	uint32_t i = run_at(bm, cl), k;
	struct fp_bm_run *r;

	r = i == NONE ? NULL : &bm->runs[i];
	assert(r && cl - r->start < r->count &&
	       count <= r->count - (cl - r->start));
	if (!r || cl - r->start >= r->count ||
	    count > r->count - (cl - r->start)) {
		runs_drop(bm);		/* not within a listed run */
		return;
	}
	if (cl == r->start) {
		r->start += count;
		r->count -= count;
	} else if (cl + count == r->start + r->count) {
		r->count -= count;
	} else {
		runs_drop(bm);		/* a split: list them again */
		return;
	}
	k = bm->leaf_base + i;
	bm->best[k] = r->count;
	while ((k /= 2) >= 1)
		tree_fix(bm, k);
}

/* First fit by the list, as range_first() by the bitmap. */
static void list_first(const struct fp_bitmap *bm, uint32_t goal,
		       uint32_t len, uint32_t *start, uint32_t *count)
{
	uint32_t i = run_at(bm, goal), j = NONE;
	const struct fp_bm_run *r = i == NONE ? NULL : &bm->runs[i];

	*start = 0;
	*count = len;
	if (r && goal - r->start < r->count &&
	    r->count - (goal - r->start) >= len) {
		*start = goal;
		return;
	}
	j = first_of(bm, i == NONE ? 0 : i + 1, len);
	if (j == NONE)
		j = first_of(bm, 0, len);
	if (j == NONE && bm->best[1]) {
		*count = bm->best[1];
		j = first_of(bm, 0, *count);
	}
	if (j != NONE)
		*start = bm->runs[j].start;
}

/* FP_BM_END by the list: the runs at or below @top (>= 2). */
static void list_high(const struct fp_bitmap *bm, uint32_t top,
		      uint32_t min_count, uint32_t *start, uint32_t *count)
{
	uint32_t i = run_at(bm, top), n = 0, s = 0;

	*start = 0;
	if (i == NONE)
		return;
	if (bm->runs[i].count) {
		s = bm->runs[i].start;
		n = bm->runs[i].count;
		if (s + n - 1 > top)
			n = top - s + 1;
	}
	if (n < min_count) {
		i = i ? rightmost(bm, 1, 0, bm->leaf_base, i - 1, min_count)
		      : NONE;
		if (i == NONE)
			return;
		s = bm->runs[i].start;
		n = bm->runs[i].count;
	}
	*start = s;
	*count = n;
}

#define KNOWN_FLAGS (FP_BM_FIXED_GOAL | FP_BM_CONTIGUOUS | FP_BM_END)

/* FP_BM_FIXED_GOAL: the free clusters from @goal, at most @len. */
static enum fp_err range_at(struct fp_bitmap *bm, uint32_t goal,
			    uint32_t len, uint32_t min_count, uint32_t *start,
			    uint32_t *count)
{
	uint32_t n;
	enum fp_err err;

	if (goal < 2 || goal > bm->max_cl)
		return FP_E_NOSPC;
	err = fp_bitmap_run_count(bm, goal, len, &n);
	if (err)
		return err;
	if (n < min_count)
		return FP_E_NOSPC;
	*start = goal;
	*count = n;
	return FP_OK;
}

/*
 * FP_BM_END: the top of the highest run at or below @goal.  Without the
 * run list, the highest run is found going down from the goal; when it
 * is too short, the runs are listed.
 */
static enum fp_err range_high(struct fp_bitmap *bm, uint32_t goal,
			      uint32_t len, uint32_t min_count,
			      uint32_t *start, uint32_t *count)
{
	uint32_t top = goal < bm->max_cl ? goal : bm->max_cl, s = 0, n = 0;
	enum fp_err err = FP_OK;

	if (top < 2)
		return FP_E_NOSPC;
	if (!bm->runs && bm->want_runs)
		err = runs_build(bm);
	if (!err && !bm->runs) {
		err = last_run(bm, top + 1, &s, &n);
		if (!err && s && n < min_count)
			err = runs_build(bm);
		while (!err && !bm->runs && s && n < min_count)
			err = last_run(bm, s, &s, &n);
	}
	if (!err && bm->runs && (!s || n < min_count))
		list_high(bm, top, min_count, &s, &n);
	if (err)
		return err;
	if (!s || n < min_count)
		return FP_E_NOSPC;
	*count = n < len ? n : len;
	*start = s + n - *count;
	return FP_OK;
}

/* Short runs the searches may step over before the runs are listed. */
static uint32_t skip_budget(const struct fp_bitmap *bm)
{
	return bm->max_cl / 64 + 64;
}

/*
 * Neither flag: the first run of @len from @goal, else the largest.
 * Without the run list, a search goes over the bitmap from the goal,
 * which reads only the FAT windows it reaches; the runs are listed when
 * it fails, or when searches have stepped over many short runs.
 */
static enum fp_err range_first(struct fp_bitmap *bm, uint32_t goal,
			       uint32_t len, uint32_t min_count,
			       uint32_t *start, uint32_t *count)
{
	uint32_t s = 0, n = len;
	enum fp_err err = FP_OK;

	if (!bm->runs && (bm->want_runs || bm->skipped > skip_budget(bm)))
		err = runs_build(bm);
	if (!err && !bm->runs)
		err = find_run(bm, goal, len, &s);
	if (!err && !s && !bm->runs)
		err = runs_build(bm);
	if (goal < 2 || goal > bm->max_cl)
		goal = 2;
	if (!err && !s && bm->runs)
		list_first(bm, goal, len, &s, &n);
	else if (!err && !s)
		err = largest_run(bm, &s, &n);
	if (err)
		return err;
	if (!s || n < min_count)
		return FP_E_NOSPC;
	assert(n <= len);
	*start = s;
	*count = n;
	return FP_OK;
}

enum fp_err fp_bitmap_new_range(struct fp_bitmap *bm, unsigned flags,
				uint32_t goal, uint32_t len,
				uint32_t min_count, uint32_t *start,
				uint32_t *count)
{
	if ((flags & ~(unsigned)KNOWN_FLAGS) || len == 0 || min_count > len ||
	    ((flags & FP_BM_FIXED_GOAL) && (flags & FP_BM_END)))
		return FP_E_INVAL;
	if (flags & FP_BM_CONTIGUOUS)
		min_count = len;
	if (min_count == 0)
		min_count = 1;
	if (flags & FP_BM_FIXED_GOAL)
		return range_at(bm, goal, len, min_count, start, count);
	if (flags & FP_BM_END)
		return range_high(bm, goal, len, min_count, start, count);
	return range_first(bm, goal, len, min_count, start, count);
}
