/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* alloc.c - the allocation policy behind one entry point: requests in, runs
 * out. */
#include "alloc.h"

#include <stdlib.h>

#include "util.h"

struct fp_alloc {
	struct fp_bitmap *bm;	/* borrowed */
	uint32_t hint;		/* where searches start */
	struct fp_alloc_run *runs;	/* the last fp_alloc_get()'s */
	size_t run_count, run_cap;
	size_t req;		/* the request being allocated */
	struct fp_alloc_diag *diag;	/* the caller's, filled on failure */
	uint32_t step;		/* clusters between host-aligned ones; 0:
				 * no alignment (fp_alloc_set_host()) */
	uint32_t phase;		/* cluster % step of an aligned cluster */
	uint32_t min_need;	/* new chains this long or longer align */
};

enum fp_err fp_alloc_new(struct fp_bitmap *bm, const struct fp_fsinfo *fi,
			 struct fp_alloc **out)
{
	struct fp_alloc *a = calloc(1, sizeof(*a));

	if (!a)
		return FP_E_NOMEM;
	a->bm = bm;
	a->hint = 2;
	if (fi && fi->trusted && fi->next_free >= 2 &&
	    fi->next_free <= fp_bitmap_max_cl(bm))
		a->hint = fi->next_free;
	*out = a;
	return FP_OK;
}

uint32_t fp_alloc_hint(const struct fp_alloc *a)
{
	return a->hint;
}

void fp_alloc_set_host(struct fp_alloc *a, uint64_t cl2_off,
		       uint32_t clus_len)
{
	uint64_t first;

	a->step = 0;
	if (clus_len == 0 || clus_len >= FP_ALLOC_ALIGN ||
	    FP_ALLOC_ALIGN % clus_len || cl2_off % clus_len)
		return;		/* every cluster aligned alike, or none */
	a->step = FP_ALLOC_ALIGN / clus_len;
	/* the clusters from 2 to the first aligned one */
	first = (FP_ALLOC_ALIGN - cl2_off % FP_ALLOC_ALIGN) % FP_ALLOC_ALIGN /
		clus_len;
	a->phase = (uint32_t)((2 + first) % a->step);
	a->min_need = FP_ALLOC_ALIGN_MIN / clus_len;
}

enum fp_err fp_alloc_reserve(struct fp_alloc *a, const uint32_t *cls,
			     size_t count)
{
	uint32_t cl, len;
	enum fp_err err;
	size_t i;

	for (i = 0; i < count; i++) {
		err = fp_bitmap_new_range(a->bm, FP_BM_FIXED_GOAL, cls[i], 1, 1,
					  &cl, &len);
		if (err == FP_E_NOSPC)
			continue;	/* in use already */
		if (err)
			return err;
		fp_bitmap_take(a->bm, cls[i], 1);
	}
	return FP_OK;
}

/* Take @count free clusters from @start for the current request. */
static enum fp_err take(struct fp_alloc *a, uint32_t start, uint32_t count)
{
	struct fp_alloc_run *r;
	enum fp_err err;

	err = fp_grow(&a->runs, &a->run_cap, a->run_count, sizeof(*a->runs));
	if (err)
		return err;
	fp_bitmap_take(a->bm, start, count);
	r = &a->runs[a->run_count++];
	r->start = start;
	r->count = count;
	r->req = a->req;
	return FP_OK;
}

/* @need clusters wanted, @had of them taken already from what is free. */
static enum fp_err no_space(struct fp_alloc *a, uint32_t need, uint32_t had)
{
	uint32_t n;
	enum fp_err err = fp_alloc_free_count(a, &n);

	if (err)
		return err;
	a->diag->need = need;
	a->diag->avail = n + had;
	a->diag->last_cl = 0;
	return FP_E_NOSPC;
}

enum fp_err fp_alloc_largest_run(struct fp_alloc *a, uint32_t *start,
				 uint32_t *count)
{
	enum fp_err err = fp_bitmap_new_range(a->bm, 0, 2, UINT32_MAX, 1, start,
					      count);

	if (err == FP_E_NOSPC) {
		*start = 0;
		*count = 0;
		err = FP_OK;
	}
	return err;
}

enum fp_err fp_alloc_free_count(struct fp_alloc *a, uint32_t *count)
{
	return fp_bitmap_free_count(a->bm, count);
}

/* 1 if FSInfo's free count can be right after @taken are taken. */
static int fsinfo_count_ok(const struct fp_fsinfo *fi,
			   uint32_t cluster_count, uint32_t taken)
{
	return fi->trusted && fi->free_count != FP_FSINFO_UNKNOWN &&
	       fi->free_count <= cluster_count && fi->free_count >= taken;
}

/* @n free clusters plus @freed, at most @max. */
static uint32_t add_freed(uint32_t n, uint32_t freed, uint32_t max)
{
	return max - n > freed ? n + freed : max;
}

enum fp_err fp_alloc_free_after(struct fp_bitmap *bm,
				const struct fp_fsinfo *fi,
				uint32_t cluster_count, uint32_t taken,
				uint32_t freed, uint32_t *count)
{
	uint32_t n;
	enum fp_err err;

	if (fsinfo_count_ok(fi, cluster_count, taken)) {
		n = fi->free_count - taken;
	} else {
		err = fp_bitmap_free_count(bm, &n);
		if (err)
			return err;
	}
	/* freed clusters are still counted used by the bitmap and FSInfo */
	*count = add_freed(n, freed, cluster_count);
	return FP_OK;
}

uint32_t fp_alloc_fsinfo_after(const struct fp_fsinfo *fi,
			       uint32_t cluster_count, uint32_t taken,
			       uint32_t freed)
{
	uint32_t n = fi->free_count;

	if (fsinfo_count_ok(fi, cluster_count, taken))
		n -= taken;
	else if (n <= cluster_count)
		n = FP_FSINFO_UNKNOWN;	/* provably stale */
	if (n != FP_FSINFO_UNKNOWN && n <= cluster_count)
		n = add_freed(n, freed, cluster_count);
	return n;
}

uint64_t fp_alloc_room(const struct fp_alloc *a, uint64_t need)
{
	if (a->step == 0 || need < a->min_need)
		return need;
	return need + a->step - 1;
}

/*
 * The first run found for request @r, @len clusters at *start: a new
 * chain that it holds whole starts instead on the first host-aligned
 * cluster in it (fp_alloc_set_host()), when the free run from *start
 * holds the clusters skipped to get there and r->room_after too.  The
 * run counted is one first fit chose anyway: no further search.
 */
static enum fp_err align_start(struct fp_alloc *a,
			       const struct fp_alloc_req *r, uint32_t *start,
			       uint32_t len)
{
	uint64_t want = fp_alloc_room(a, r->need) + r->room_after;
	uint32_t run;
	enum fp_err err;

	if (a->step == 0 || r->last_cl || len < r->need ||
	    r->need < a->min_need || want > fp_bitmap_max_cl(a->bm))
		return FP_OK;
	err = fp_bitmap_run_count(a->bm, *start, (uint32_t)want, &run);
	if (!err && run >= want)
		*start += (a->phase + a->step - *start % a->step) % a->step;
	return err;
}

/*
 * --contiguous cannot be met: no space at all, or no run of @need (right
 * after the chain's end @last when there is one: @run clusters are free
 * there).
 */
static enum fp_err no_run(struct fp_alloc *a, uint32_t need, uint32_t last,
			  uint32_t run)
{
	uint32_t start, len;
	enum fp_err err = no_space(a, need, 0);

	if (err != FP_E_NOSPC || a->diag->avail < need)
		return err;
	err = fp_alloc_largest_run(a, &start, &len);
	if (err)
		return err;
	a->diag->need = need;
	a->diag->avail = last ? run : len;
	a->diag->last_cl = last;
	return FP_E_NORUN;
}

/*
 * --contiguous, and the clusters do not fit after the chain's end (@run
 * are free there): one run of them elsewhere, if there is no chain yet.
 */
static enum fp_err contig_run(struct fp_alloc *a,
				const struct fp_alloc_req *r, uint32_t run)
{
	int end = (r->flags & FP_ALLOC_END) != 0;
	unsigned mode = end ? FP_BM_END : 0;
	uint32_t goal = end ? UINT32_MAX : a->hint;
	uint32_t start, len;
	enum fp_err err;

	if (r->last_cl)
		return no_run(a, r->need, r->last_cl, run);
	err = fp_bitmap_new_range(a->bm, mode | FP_BM_CONTIGUOUS, goal,
				  r->need, r->need, &start, &len);
	if (err == FP_E_NOSPC)
		return no_run(a, r->need, 0, 0);
	if (!err && !end)
		err = align_start(a, r, &start, len);
	if (err)
		return err;
	return take(a, start, len);
}

/*
 * A file's clusters, the policy of fp_alloc_get(): each choice is one
 * fp_bitmap_new_range() call.  The free clusters right after the chain's
 * end (FP_BM_FIXED_GOAL at last + 1); then, for what is still needed,
 * the first run that holds it all from the hint (a new chain moved to a
 * host-aligned cluster in it: align_start()), else the largest run
 * (no flag: the bitmap's search order), one run after another.  With
 * --place end the highest run at or below the goal (FP_BM_END), the goal
 * going below each run taken, so that the free space left below stays
 * in one run.
 */
static enum fp_err file_runs(struct fp_alloc *a, const struct fp_alloc_req *r)
{
	int end = (r->flags & FP_ALLOC_END) != 0;
	unsigned mode = end ? FP_BM_END : 0;
	uint32_t goal = end ? UINT32_MAX : a->hint;
	uint32_t need = r->need, run = 0, start, len = 0;
	enum fp_err err = FP_OK;

	if (need == 0)
		return FP_OK;
	if (r->last_cl)
		err = fp_bitmap_new_range(a->bm, FP_BM_FIXED_GOAL,
					  r->last_cl + 1, need, 1, &start,
					  &run);
	if (err == FP_E_NOSPC)
		err = FP_OK;		/* run stays 0 */
	if (!err && (r->flags & FP_ALLOC_CONTIG) && run < need)
		return contig_run(a, r, run);
	if (!err && run) {
		err = take(a, r->last_cl + 1, run);
		need -= run;
	}
	while (!err && need) {
		err = fp_bitmap_new_range(a->bm, mode, goal, need, 1, &start,
					  &len);
		if (err == FP_E_NOSPC)
			return no_space(a, r->need, r->need - need);
		if (!err && !end)
			err = align_start(a, r, &start, len);
		if (!err)
			err = take(a, start, len);
		need -= len;
		if (end)
			goal = start - 1;	/* below the run just taken */
	}
	return err;
}

/* Directory clusters: each the first free one from the hint. */
static enum fp_err dir_runs(struct fp_alloc *a, const struct fp_alloc_req *r)
{
	uint32_t i, cl, n;
	enum fp_err err;

	for (i = 0; i < r->need; i++) {
		err = fp_bitmap_new_range(a->bm, 0, a->hint, 1, 1, &cl, &n);
		if (err == FP_E_NOSPC)
			return no_space(a, r->need, i);
		if (!err)
			err = take(a, cl, 1);
		if (err)
			return err;
	}
	return FP_OK;
}

enum fp_err fp_alloc_get(struct fp_alloc *a, const struct fp_alloc_req *reqs,
			 size_t count, const struct fp_alloc_run **runs,
			 size_t *run_count, struct fp_alloc_diag *diag)
{
	enum fp_err err = FP_OK;
	size_t i;

	a->run_count = 0;
	a->diag = diag;
	for (i = 0; !err && i < count; i++) {
		a->req = i;
		if (reqs[i].flags & FP_ALLOC_DIR)
			err = dir_runs(a, &reqs[i]);
		else
			err = file_runs(a, &reqs[i]);
	}
	a->diag = NULL;
	if (err) {
		diag->req = i - 1;
		return err;
	}
	*runs = a->runs;
	*run_count = a->run_count;
	return FP_OK;
}

void fp_alloc_free(struct fp_alloc *a)
{
	if (!a)
		return;
	free(a->runs);
	free(a);
}
