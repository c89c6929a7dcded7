/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* damage.c - what a writer must know of the tree before it writes. */
#include "damage.h"

#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "walk.h"

struct fp_damage {
	struct fp_walk_mark *dirs;	/* chains, sorted by cluster, then
					 * problem */
	size_t dir_count;
	uint32_t *shared;	/* sorted */
	size_t shared_count;
	uint32_t *free_used;	/* sorted */
	size_t free_count;
	struct fp_bitset claimed;	/* the clusters the walk reached */
};

static int dir_cmp(const void *a, const void *b)
{
	const struct fp_walk_mark *x = a, *y = b;

	if (x->cl != y->cl)
		return (x->cl > y->cl) - (x->cl < y->cl);
	return (x->problem > y->problem) - (x->problem < y->problem);
}

/* Take over what the writers' walk @w recorded, sorted. */
static enum fp_err damage_finish(struct fp_walk *w, struct fp_damage *d)
{
	fp_walk_take_marks(w, &d->dirs, &d->dir_count);	/* ours now */
	if (d->dir_count)
		qsort(d->dirs, d->dir_count, sizeof(*d->dirs), dir_cmp);
	fp_walk_take_free_used(w, &d->free_used, &d->free_count);
	return fp_walk_xlink_cls(w, &d->shared, &d->shared_count);
}

enum fp_err fp_damage_find(struct fp_fs *fs, struct fp_damage **out)
{
	struct fp_damage *d = calloc(1, sizeof(*d));
	struct fp_walk *w = NULL;
	enum fp_err err;

	if (!d)
		return FP_E_NOMEM;
	err = fp_walk_new(fs, NULL, &w);
	if (!err) {
		fp_walk_tree(w);
		err = fp_walk_err(w);
	}
	if (!err)
		err = damage_finish(w, d);
	if (w)	/* the walk's claimed set, now the outcome's */
		fp_walk_take_claimed(w, &d->claimed);
	fp_walk_free(w);
	if (err) {
		fp_damage_free(d);
		return err;
	}
	*out = d;
	return FP_OK;
}

enum fp_problem fp_damage_chain(const struct fp_damage *d, uint32_t cl)
{
	size_t lo = 0, hi = d->dir_count, mid;

	/* the first entry with this cluster: the lowest problem */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->dirs[mid].cl < cl)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->dir_count && d->dirs[lo].cl == cl)
		return d->dirs[lo].problem;
	return FP_P_COUNT;
}

int fp_damage_shared(const struct fp_damage *d, uint32_t cl)
{
	return d->shared_count &&
	       bsearch(&cl, d->shared, d->shared_count, sizeof(cl),
		       fp_walk_cl_cmp) != NULL;
}

size_t fp_damage_shared_count(const struct fp_damage *d)
{
	return d ? d->shared_count : 0;
}

const uint32_t *fp_damage_free_used(const struct fp_damage *d,
				    size_t *count)
{
	*count = d->free_count;
	return d->free_used;
}

void fp_damage_free(struct fp_damage *d)
{
	if (!d)
		return;
	fp_bitset_release(&d->claimed);
	free(d->dirs);
	free(d->shared);
	free(d->free_used);
	free(d);
}

/* ---- FAT copies that differ ----------------------------------------- */

/* What fp_damage_copy_lost() classifies the differing entries with. */
struct copy_view {
	enum fp_fat_type type;
	uint32_t max_cl;
	const struct fp_bitset *reached[2];	/* active copy, the other */
	int other_found;	/* an entry no interrupted commit leaves */
};

static int reached(const struct copy_view *cv, int side, uint32_t cl)
{
	return cl >= 2 && cl <= cv->max_cl &&
	       fp_bitset_test(cv->reached[side], cl);
}

/*
 * Whether entry @cl may hold @val[0] in the active copy and @val[1] in
 * the other, as an interrupted commit leaves them (the rule is in
 * docs/VERIFY.md, "FAT copies"): (a) no chain that a directory entry
 * reaches holds the cluster in either copy, and neither value marks it
 * bad: a cluster free or lost in both, whatever it links to (fsck.fat,
 * too, counts a lost chain that runs into a file's chain as lost
 * clusters, and a FAT12 entry torn between two sectors may link
 * anywhere); or (b) a
 * reached chain holds it in both copies, ends there in one and, in the
 * other, links to a cluster that no chain reaches in the copy that ends.
 */
static int lost_entry(const struct copy_view *cv, uint32_t cl,
		      const uint32_t val[2])
{
	enum fp_fat_kind k[2];
	int s;

	k[0] = fp_fat_kind_of(cv->type, cv->max_cl, val[0]);
	k[1] = fp_fat_kind_of(cv->type, cv->max_cl, val[1]);
	if (cl < 2 || val[0] == val[1] || k[0] == FP_FK_BAD ||
	    k[1] == FP_FK_BAD)
		return 0;
	if (!reached(cv, 0, cl) && !reached(cv, 1, cl))
		return 1;
	if (k[0] == FP_FK_EOC && k[1] == FP_FK_NEXT)
		s = 0;				/* the copy that ends */
	else if (k[0] == FP_FK_NEXT && k[1] == FP_FK_EOC)
		s = 1;
	else
		return 0;
	return reached(cv, 0, cl) && reached(cv, 1, cl) &&
	       !reached(cv, s, val[!s]);
}

static int copy_entry(void *ctx, uint32_t cl, uint32_t act, uint32_t other)
{
	struct copy_view *cv = ctx;
	const uint32_t val[2] = { act, other };

	if (!lost_entry(cv, cl, val))
		cv->other_found = 1;
	return cv->other_found;
}

/* 1 if every damage @b records is one @a records too. */
static int damage_within(const struct fp_damage *b,
			 const struct fp_damage *a)
{
	size_t i;

	for (i = 0; i < b->dir_count; i++)
		if (!a->dir_count || !bsearch(&b->dirs[i], a->dirs,
					      a->dir_count, sizeof(*a->dirs),
					      dir_cmp))
			return 0;
	for (i = 0; i < b->shared_count; i++)
		if (!fp_damage_shared(a, b->shared[i]))
			return 0;
	for (i = 0; i < b->free_count; i++)
		if (!a->free_count || !bsearch(&b->free_used[i],
					       a->free_used, a->free_count,
					       sizeof(*a->free_used),
					       fp_walk_cl_cmp))
			return 0;
	return 1;
}

enum fp_err fp_damage_copy_lost(struct fp_fs *fs, const struct fp_damage *da,
				uint32_t copy, int *lost_only)
{
	const struct fp_geom *g = fp_fs_geom(fs);
	struct copy_view cv;
	struct fp_damage *db = NULL;
	struct fp_fs *fb = NULL;
	enum fp_err err;

	err = fp_fs_open_copy(fp_fs_img(fs), copy, &fb);
	if (!err)
		err = fp_damage_find(fb, &db);
	if (err)
		goto out;
	memset(&cv, 0, sizeof(cv));
	cv.type = g->type;
	cv.max_cl = fp_geom_max_cl(g);
	cv.reached[0] = &da->claimed;
	cv.reached[1] = &db->claimed;
	err = fp_fat_copy_each(fp_fs_fat(fs), copy, copy_entry, &cv);
	if (!err)
		*lost_only = !cv.other_found && damage_within(db, da);
out:
	fp_damage_free(db);
	fp_fs_free(fb);
	return err;
}

enum fp_err fp_damage_copies(struct fp_fs *fs, const struct fp_damage *da,
			     struct fp_fs_diag *diag)
{
	uint32_t copy, fat_count = fp_fs_geom(fs)->fat_count;
	struct fp_damage *own = NULL;
	struct fp_fat_diff d;
	enum fp_err err = FP_OK;
	int lost = 1;

	for (copy = 0; !err && lost && copy < fat_count; copy++) {
		d = fp_fat_copy_diff(fp_fs_fat(fs), copy);
		if (!d.count)
			continue;
		if (!da && !own)
			err = fp_damage_find(fs, &own);
		if (!err)
			err = fp_damage_copy_lost(fs, da ? da : own, copy,
						  &lost);
		if (!err && !lost) {
			diag->copy = copy;
			diag->first_cl = d.first_cl;
			diag->diff_count = d.count;
		}
	}
	fp_damage_free(own);
	return err ? err : lost ? FP_OK : FP_E_FATDIFF;
}

