/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * walk_claim.c - the chains the tree walk claims: runs of links from the
 * FAT pass, loops, cross-links and their first owners, clusters marked
 * free that a chain uses.
 */
#include "walk_impl.h"

#include <stdlib.h>
#include <string.h>

#include "findings_impl.h"
#include "util.h"

/* Shortest run of links fp_walk_links() keeps (16 KiB of FAT32). */
#define LINK_RUN_MIN 4096u

/*
 * A chain uses @cl, which the FAT marks free: the allocator must not hand
 * it out (fp_damage_free_used()), so --verify does not count it free.
 */
static void mark_free_used(struct fp_walk *v, uint32_t cl)
{
	if (v->owners_pass)
		return;
	if (fp_grow(&v->taken, &v->taken_cap, v->taken_count,
		    sizeof(*v->taken))) {
		fp_walk_fail(v, FP_E_NOMEM);
		return;
	}
	v->taken[v->taken_count++] = cl;
}

/* How many entries from @cl on link to the next, by fp_walk_links(). */
static uint32_t links_from(const struct fp_walk *v, uint32_t cl)
{
	size_t lo = 0, hi = v->link_count, mid;

	while (lo < hi) {	/* the first run that starts above @cl */
		mid = lo + (hi - lo) / 2;
		if (v->links[mid].cl <= cl)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || cl - v->links[lo - 1].cl >= v->links[lo - 1].len)
		return 0;
	return v->links[lo - 1].len - (cl - v->links[lo - 1].cl);
}

/* ---- chains --------------------------------------------------------- */

/* 1 if @cl is among the first @n clusters of the chain from @start. */
static int in_chain(struct fp_walk *v, uint32_t start, uint32_t n,
		    uint32_t cl)
{
	while (n--) {
		if (start == cl)
			return 1;
		start = walk_entry(v, start);
	}
	return 0;
}

static int xl_cmp(const void *a, const void *b)
{
	const struct fp_walk_xlink *x = a, *y = b;

	return (x->cl > y->cl) - (x->cl < y->cl);
}

static struct fp_walk_xlink *xl_find(struct fp_walk *v, uint32_t cl)
{
	struct fp_walk_xlink key = { .cl = cl };

	if (!v->xl_count)
		return NULL;
	return bsearch(&key, v->xl, v->xl_count, sizeof(*v->xl), xl_cmp);
}

static void cross_link(struct fp_walk *v, struct fp_walk_path *path,
		       uint32_t cl)
{
	if (v->owners_pass)
		return;
	if (fp_grow(&v->xl, &v->xl_cap, v->xl_count, sizeof(*v->xl))) {
		fp_walk_fail(v, FP_E_NOMEM);
		return;
	}
	v->xl[v->xl_count].cl = cl;
	v->xl[v->xl_count].want = 0;
	v->xl[v->xl_count++].owner = NULL;
	fp_walk_add_at(v, v->twice ? FP_P_MOVED_TWICE : FP_P_CROSS_LINK, path,
		       cl, 0, 0);
}

/* In the owner pass: remember the first chain that holds each cluster. */
static void note_owner(struct fp_walk *v, struct fp_walk_path *path,
		       uint32_t cl)
{
	struct fp_walk_xlink *x;
	const char *s;

	if (!v->owners_pass || !(x = xl_find(v, cl)) || !x->want ||
	    x->owner)
		return;
	s = fp_walk_path_str(v, path);
	if (s && fp_report_path_budget(v->r, strlen(s)) &&
	    !(x->owner = strdup(s)))
		fp_walk_fail(v, FP_E_NOMEM);
}

/*
 * Claim, in one step, the run of consecutive clusters that starts at the
 * unclaimed @cl, up to the first claimed cluster it links to (where the
 * walk then finds the loop or cross-link, as cluster by cluster); returns
 * the clusters claimed (0: take the slow path).  The run comes from
 * the FAT pass's table (fp_walk_links()), else from the FAT.  Not in the
 * owner pass, which looks at each cluster.
 */
static uint32_t claim_run(struct fp_walk *v, uint32_t cl)
{
	uint64_t first;
	uint32_t run;
	enum fp_err err;

	if (v->owners_pass || v->err)
		return 0;
	run = links_from(v, cl);
	err = run ? FP_OK : fp_fat_seq(v->fat, cl, UINT32_MAX, &run);
	if (err) {
		fp_walk_fail(v, err);
		return 0;
	}
	if (run == 0)
		return 0;
	first = fp_bitset_first(&v->claimed, cl + 1, cl + run);
	if (first < (uint64_t)cl + run)
		run = (uint32_t)(first - cl);
	fp_walk_bits_fill(v, &v->claimed, cl, cl + run - 1);
	return run;
}

uint32_t fp_walk_chain_links(struct fp_walk *v, struct fp_walk_path *path,
			     uint32_t start, int in_range, enum fp_fat_kind k,
			     int *ok)
{
	uint32_t cl = start, n = 0, val, run;

	*ok = 0;
	if (!in_range || k == FP_FK_FREE || k == FP_FK_BAD) {
		if (k == FP_FK_FREE)
			mark_free_used(v, start);
		fp_walk_add_at(v, FP_P_BAD_START, path, start, 0, 0);
		return 0;
	}
	for (;;) {
		if (fp_bitset_test(&v->claimed, cl)) {
			if (in_chain(v, start, n, cl))
				fp_walk_add_at(v, FP_P_CHAIN_LOOP, path, cl,
					       n, 0);
			else
				cross_link(v, path, cl);
			return n;
		}
		run = claim_run(v, cl);
		n += run;
		cl += run;
		if (run)
			continue;
		fp_walk_bit_set(v, &v->claimed, cl);
		note_owner(v, path, cl);
		n++;
		val = walk_entry(v, cl);
		k = walk_kind(v, val);
		if (k == FP_FK_EOC) {
			*ok = 1;
			return n;
		}
		if (k == FP_FK_FREE)
			mark_free_used(v, cl);
		if (k != FP_FK_NEXT) {
			fp_walk_add_at(v, k == FP_FK_BAD ? FP_P_CHAIN_BAD :
			       k == FP_FK_FREE ? FP_P_CHAIN_FREE :
			       FP_P_CHAIN_RANGE, path, cl, val, 0);
			return n;
		}
		cl = val;
	}
}

/* ---- cross-link owners ---------------------------------------------- */

int fp_walk_owners_start(struct fp_walk *v)
{
	struct fp_report *r = v->r;
	struct fp_walk_xlink *x;
	size_t i;

	if (!v->xl_count || v->err)
		return 0;
	qsort(v->xl, v->xl_count, sizeof(*v->xl), xl_cmp);
	/* owners only for the findings kept: at most FP_VERIFY_CAP paths */
	for (i = 0; i < r->finding_count; i++)
		if ((r->findings[i].problem == FP_P_CROSS_LINK ||
		     r->findings[i].problem == FP_P_MOVED_TWICE) &&
		    (x = xl_find(v, r->findings[i].cl)))
			x->want = 1;
	fp_bitset_clear(&v->claimed);
	v->owners_pass = 1;
	return 1;
}

void fp_walk_owners_end(struct fp_walk *v)
{
	struct fp_report *r = v->r;
	struct fp_walk_xlink *x;
	size_t i;

	v->owners_pass = 0;	/* later findings count again */
	for (i = 0; i < r->finding_count; i++) {
		if (r->findings[i].problem != FP_P_CROSS_LINK &&
		    r->findings[i].problem != FP_P_MOVED_TWICE)
			continue;
		x = xl_find(v, r->findings[i].cl);
		if (x && x->owner && !r->findings[i].other &&
		    fp_report_path_budget(r, strlen(x->owner))) {
			r->findings[i].other = strdup(x->owner);
			if (!r->findings[i].other)
				fp_walk_fail(v, FP_E_NOMEM);
		}
	}
}

int fp_walk_cl_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* Sort the clusters of mark_free_used() and drop repeats. */
static void sort_taken(struct fp_walk *v)
{
	size_t i, n = 0;

	if (!v->taken_count)
		return;
	qsort(v->taken, v->taken_count, sizeof(*v->taken), fp_walk_cl_cmp);
	for (i = 0; i < v->taken_count; i++)
		if (n == 0 || v->taken[i] != v->taken[n - 1])
			v->taken[n++] = v->taken[i];
	v->taken_count = n;
}

/* ---- set-up, what the callers feed and take ------------------------ */

/*
 * Links @cl .. @cl + @n - 1: joined to the run before when they continue
 * it, else a new run that replaces the one before if that stayed shorter
 * than LINK_RUN_MIN.  The table holds at most one run per LINK_RUN_MIN
 * clusters.
 */
void fp_walk_links(struct fp_walk *w, uint32_t cl, uint32_t n)
{
	struct fp_walk_run *last = w->link_count ?
				&w->links[w->link_count - 1] : NULL;

	if (last && last->cl + last->len == cl) {
		last->len += n;
		return;
	}
	if (last && last->len < LINK_RUN_MIN)
		w->link_count--;	/* too short to keep: replace it */
	if (fp_grow(&w->links, &w->link_cap, w->link_count,
		    sizeof(*w->links))) {
		fp_walk_fail(w, FP_E_NOMEM);
		return;
	}
	w->links[w->link_count].cl = cl;
	w->links[w->link_count++].len = n;
}

void fp_walk_links_end(struct fp_walk *w)
{
	if (w->link_count && w->links[w->link_count - 1].len < LINK_RUN_MIN)
		w->link_count--;
}

struct fp_bitset *fp_walk_claimed(struct fp_walk *w)
{
	return &w->claimed;
}

void fp_walk_take_claimed(struct fp_walk *w, struct fp_bitset *out)
{
	*out = w->claimed;
	memset(&w->claimed, 0, sizeof(w->claimed));
}

void fp_walk_take_free_used(struct fp_walk *w, uint32_t **cls,
			    size_t *count)
{
	sort_taken(w);
	*cls = w->taken;
	*count = w->taken_count;
	w->taken = NULL;
	w->taken_count = w->taken_cap = 0;
}

enum fp_err fp_walk_xlink_cls(const struct fp_walk *w, uint32_t **cls,
			      size_t *count)
{
	uint32_t *p = NULL;
	size_t i;

	if (w->xl_count) {
		p = malloc(w->xl_count * sizeof(*p));
		if (!p)
			return FP_E_NOMEM;
		for (i = 0; i < w->xl_count; i++)
			p[i] = w->xl[i].cl;
		qsort(p, w->xl_count, sizeof(*p), fp_walk_cl_cmp);
	}
	*cls = p;
	*count = w->xl_count;
	return FP_OK;
}
