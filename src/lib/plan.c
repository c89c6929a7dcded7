/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* plan.c - plan preallocations of an open volume in memory, commit them. */
#include "plan.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "le.h"
#include "name.h"
#include "path.h"
#include "plan_impl.h"
#include "util.h"

/* ---- directories ---------------------------------------------------- */

static int is_fat32(const struct fp_plan *p)
{
	return fp_fs_geom(p->fs)->type == FP_FAT32;
}

/* The cluster a directory entry uses for the root: 0 on every FAT type. */
static uint32_t root_key(const struct fp_plan *p)
{
	return is_fat32(p) ? fp_fs_geom(p->fs)->root_cl : 0;
}

/* ---- damage --------------------------------------------------------- */

/* Fail the request: the path so far (diag->component) has problem @pr. */
enum fp_err fp_plan_damaged(struct fp_plan *p, enum fp_problem pr)
{
	p->diag->problem = pr;
	return FP_E_DAMAGED;
}

/* The walk's checks (walk.h) as a writer makes them: the diag's problem. */
struct fp_walk_check fp_plan_gate(struct fp_plan *p)
{
	struct fp_walk_check c = { NULL, NULL, &p->diag->problem,
				   fp_fs_geom(p->fs)->clus_len };

	return c;
}

/*
 * The tree walk's verdict on the chain from @cl: a file's or directory's
 * first cluster, or the root's key (0 on FAT12/16).
 */
enum fp_err fp_plan_check_chain(struct fp_plan *p, uint32_t cl)
{
	enum fp_problem pr = fp_damage_chain(p->dmg, cl);

	return pr == FP_P_COUNT ? FP_OK : fp_plan_damaged(p, pr);
}

/* A cross-link on one of the @count clusters at @cls. */
static enum fp_err check_shared(struct fp_plan *p, const uint32_t *cls,
				uint32_t count)
{
	uint32_t i;

	for (i = 0; i < count; i++)
		if (fp_damage_shared(p->dmg, cls[i]))
			return fp_plan_damaged(p, FP_P_CROSS_LINK);
	return FP_OK;
}

/* The same for the chain of @count clusters from @cl, read from the FAT. */
static enum fp_err check_shared_chain(struct fp_plan *p, uint32_t cl,
				      uint32_t count)
{
	enum fp_err err = FP_OK;
	uint32_t i;

	for (i = 0; !err && i < count; i++) {
		if (i)
			err = fp_fat_get(fp_fs_fat(p->fs), cl, &cl);
		if (!err)
			err = check_shared(p, &cl, 1);
	}
	return err;
}

/*
 * The chain of the existing file @e (none: *have 0), walked once by
 * fp_fat_chain() and, on a volume with cross-links, checked against them.
 */
enum fp_err fp_plan_file_chain(struct fp_plan *p, const struct fp_dirent *e,
				uint32_t *have, uint32_t *last)
{
	enum fp_err err = FP_OK;

	*have = *last = 0;
	if (e->cl)
		err = fp_fat_chain(fp_fs_fat(p->fs), e->cl, have, last);
	if (!err && e->cl && fp_damage_shared_count(p->dmg))
		err = check_shared_chain(p, e->cl, *have);
	return err;
}

/*
 * The path layer's enter hook: the entry @e of a directory on the path,
 * before going into it (fp_path_parent() has checked that it has a chain
 * and does not lead back to a directory on the path), must have size 0,
 * a valid short name and a chain the tree walk found sound.
 */
static enum fp_err enter_dir(void *ctx, const struct fp_dirent *e)
{
	struct fp_plan *p = ctx;
	struct fp_walk_check c = fp_plan_gate(p);

	if (fp_walk_dir_size(&c, e) || fp_walk_bad_name(&c, e))
		return FP_E_DAMAGED;
	return fp_plan_check_chain(p, e->cl);
}

/* Clusters a chain uses although the FAT marks them free: keep them. */
static enum fp_err reserve_free_used(struct fp_plan *p)
{
	size_t count;
	const uint32_t *cls = fp_damage_free_used(p->dmg, &count);

	return fp_alloc_reserve(p->alloc, cls, count);
}

/*
 * The directory starting at @cl (the root's key for the root), loaded
 * and checked once: the path layer's load hook.
 */
enum fp_err fp_plan_get_dir(void *ctx, uint32_t cl, struct fp_dir **out)
{
	struct fp_plan *p = ctx;
	struct fp_dir *dir = fp_path_cached(&p->walk, cl);
	enum fp_err err;

	if (dir) {
		*out = dir;
		return FP_OK;
	}
	err = fp_plan_check_chain(p, cl);
	if (!err)
		err = fp_dir_load(fp_fs_img(p->fs), fp_fs_geom(p->fs),
				  fp_fs_fat(p->fs), cl, &dir);
	if (err)
		return err;
	err = check_shared(p, fp_dir_cls(dir), fp_dir_cl_count(dir));
	if (err) {
		fp_dir_free(dir);
		return err;
	}
	return fp_path_keep(&p->walk, dir, out);
}

/* ---- clusters ------------------------------------------------------- */

/*
 * Link @count clusters from @start, taken by the allocator, as one chain
 * piece after @prev (0: none).  @prev_on_disk says that prev ends a chain
 * that is on disk already: that link is written after the new entries
 * (see commit).
 */
static enum fp_err link_run(struct fp_plan *p, uint32_t start,
			    uint32_t count, uint32_t prev, int prev_on_disk)
{
	struct fp_fat *fat = fp_fs_fat(p->fs);
	uint32_t old = 0;
	enum fp_err err;

	err = fp_fat_set_chain(fat, start, count);
	if (!err && prev && prev_on_disk)
		err = fp_fat_get(fat, prev, &old);
	if (!err && prev)
		err = fp_fat_set(fat, prev, start);
	if (err)
		return err;
	if (prev && prev_on_disk)
		err = fp_change_link(p->cs, prev, old, start);
	if (!err)
		fp_change_alloc(p->cs, start, count);
	return err;
}

static enum fp_err add_extent(struct fp_plan_file *f, uint32_t start,
			      uint32_t count, size_t *cap)
{
	enum fp_err err;

	err = fp_grow(&f->ext, cap, f->ext_count, sizeof(*f->ext));
	if (err)
		return err;
	f->ext[f->ext_count].start = start;
	f->ext[f->ext_count++].count = count;
	f->new_clusters += count;
	return FP_OK;
}

/*
 * The allocator's runs for request @r (fp_alloc_get()); on failure its
 * numbers go into the plan's diag.
 */
static enum fp_err alloc_runs(struct fp_plan *p, const struct fp_alloc_req *r,
			      const struct fp_alloc_run **runs, size_t *count)
{
	struct fp_alloc_diag d;
	enum fp_err err = fp_alloc_get(p->alloc, r, 1, runs, count, &d);

	if (err == FP_E_NOSPC || err == FP_E_NORUN) {
		p->diag->need = d.need;
		p->diag->avail = d.avail;
		p->diag->last_cl = d.last_cl;
	}
	return err;
}

/*
 * Link the @count runs into one chain after *last (0: a new chain; on
 * disk when @on_disk), in order, and record them as @f's extents when @f
 * is not NULL; *last follows the chain's end.
 */
static enum fp_err link_runs(struct fp_plan *p, const struct fp_alloc_run *runs,
			     size_t count, uint32_t *last, int on_disk,
			     struct fp_plan_file *f)
{
	enum fp_err err = FP_OK;
	size_t i, cap = 0;

	for (i = 0; !err && i < count; i++) {
		err = link_run(p, runs[i].start, runs[i].count, *last,
			       on_disk && i == 0);
		if (!err && f)
			err = add_extent(f, runs[i].start, runs[i].count, &cap);
		*last = runs[i].start + runs[i].count - 1;
	}
	return err;
}

/* One cluster for a directory, linked after @prev (0: none). */
static enum fp_err take_one(struct fp_plan *p, uint32_t prev,
			    int prev_on_disk, uint32_t *cl)
{
	struct fp_alloc_req r = { .need = 1, .flags = FP_ALLOC_DIR };
	const struct fp_alloc_run *runs;
	size_t n;
	enum fp_err err = alloc_runs(p, &r, &runs, &n);

	if (err)
		return err;
	*cl = runs[0].start;
	return link_runs(p, runs, n, &prev, prev_on_disk, NULL);
}

/*
 * Allocate @need clusters for @f whose chain ends at @last (0: no chain),
 * with the options' -c and --place (fp_alloc_get() has the policy), and
 * link them.
 */
enum fp_err fp_plan_alloc_file(struct fp_plan *p, struct fp_plan_file *f,
			       uint32_t need, uint32_t last)
{
	struct fp_alloc_req r = { .need = need, .last_cl = last,
				  .room_after = p->room_after };
	const struct fp_alloc_run *runs;
	size_t n;
	enum fp_err err;

	if (p->opts.contiguous)
		r.flags |= FP_ALLOC_CONTIG;
	if (p->opts.place_end)
		r.flags |= FP_ALLOC_END;
	err = alloc_runs(p, &r, &runs, &n);
	if (!err)
		err = link_runs(p, runs, n, &last, last != 0, f);
	return err;
}

/* ---- zeroing -------------------------------------------------------- */

/* Zero bytes [from, to) of the existing chain starting at @cl. */
static enum fp_err zero_chain(struct fp_plan *p, uint32_t cl, uint64_t from,
			      uint64_t to)
{
	const struct fp_geom *g = fp_fs_geom(p->fs);
	uint64_t pos = 0, a, b;
	enum fp_err err = FP_OK;

	for (; !err && pos < to; pos += g->clus_len) {
		if (pos + g->clus_len > from) {
			a = from > pos ? from - pos : 0;
			b = to - pos < g->clus_len ? to - pos : g->clus_len;
			err = fp_change_zero(p->cs, fp_geom_cl_off(g, cl) + a,
					     b - a);
		}
		if (!err && pos + g->clus_len < to)
			err = fp_fat_get(fp_fs_fat(p->fs), cl, &cl);
	}
	return err;
}

static enum fp_err zero_extents(struct fp_plan *p,
				const struct fp_plan_file *f)
{
	const struct fp_geom *g = fp_fs_geom(p->fs);
	size_t i;
	enum fp_err err;

	for (i = 0; i < f->ext_count; i++) {
		err = fp_change_zero(p->cs, fp_geom_cl_off(g, f->ext[i].start),
				     (uint64_t)f->ext[i].count * g->clus_len);
		if (err)
			return err;
	}
	return FP_OK;
}

/* ---- entries -------------------------------------------------------- */

/*
 * Grow @dir by enough zeroed clusters for a set of @slots entries that
 * starts at fp_dir_grow_slot(): *slot.
 */
static enum fp_err grow_dir(struct fp_plan *p, struct fp_dir *dir,
			    uint32_t slots, uint32_t *slot)
{
	uint32_t per = fp_fs_geom(p->fs)->clus_len / FP_DIRENT_LEN;
	uint32_t k, i, cl, prev;
	enum fp_err err;

	if (fp_dir_first_cl(dir) == 0)
		return FP_E_ROOTFULL;
	*slot = fp_dir_grow_slot(dir, fp_dir_put_end(dir));
	assert(*slot + slots > fp_dir_count(dir));
	k = (*slot + slots - fp_dir_count(dir) + per - 1) / per;
	if (fp_dir_count(dir) + (uint64_t)k * per > FP_DIR_MAX_ENTRIES)
		return FP_E_DIRFULL;
	for (i = 0; i < k; i++) {
		prev = fp_dir_cls(dir)[fp_dir_cl_count(dir) - 1];
		err = take_one(p, prev,
			       fp_dir_cl_count(dir) <= fp_dir_disk_cl_count(dir),
			       &cl);
		if (err == FP_E_NOSPC) {
			p->diag->need = k;
			p->diag->avail += i;
		}
		if (!err)
			err = fp_dir_grow(dir, cl);
		if (err)
			return err;
	}
	return FP_OK;
}

/*
 * Where a new set of @slots entries goes in @dir.  The sets a plan makes
 * in one directory lie on disk in the order it makes them (a copy makes
 * them in name order, for readers that list in disk order): each in the
 * lowest free slots after the set before it (put_end), the first in the
 * lowest free slots of all; else in new clusters, right after the free
 * slots the set before it left there (a directory the plan creates is
 * all new clusters, so its sets leave no gap).  Only a directory that
 * cannot grow (a full fixed root, the entry limit, no free cluster)
 * takes the set into lower free slots, out of order, rather than fail.
 */
enum fp_err fp_plan_place_set(struct fp_plan *p, struct fp_dir *dir,
			      uint32_t slots, uint32_t *slot)
{
	enum fp_err err;

	if (fp_dir_find_free(dir, slots, fp_dir_put_end(dir), slot))
		return FP_OK;
	err = grow_dir(p, dir, slots, slot);
	if ((err == FP_E_ROOTFULL || err == FP_E_DIRFULL ||
	     err == FP_E_NOSPC) && fp_dir_find_free(dir, slots, 0, slot))
		return FP_OK;
	return err;
}

/*
 * Add an entry set (long-name slots, then the short entry) for @name to
 * @dir, where fp_plan_place_set() puts it.
 */
enum fp_err fp_plan_add_entry(struct fp_plan *p, struct fp_dir *dir,
			      const uint16_t *name, size_t n, uint8_t attr,
			      uint32_t cl, uint32_t size, uint32_t *slot)
{
	uint8_t ents[FP_DIR_SET_MAX * FP_DIRENT_LEN], sfn[11], ntres, sum;
	unsigned nlfn = 0, i;
	int lfn;
	enum fp_err err;

	err = fp_dir_pick_sfn(dir, name, n, sfn, &ntres, &lfn);
	if (err)
		return err;
	if (lfn)
		nlfn = fp_name_lfn_slots(n);
	sum = fp_name_lfn_sum(sfn);
	for (i = 0; i < nlfn; i++)
		fp_name_lfn_encode(ents + i * FP_DIRENT_LEN, name, n,
				   nlfn - i, sum);
	fp_dirent_encode(ents + nlfn * FP_DIRENT_LEN, sfn, attr, ntres, cl,
			 size, is_fat32(p), p->date, p->time, p->tenth);
	err = fp_plan_place_set(p, dir, nlfn + 1, slot);
	if (err)
		return err;
	fp_dir_put(dir, *slot, ents, nlfn + 1);
	*slot += nlfn;
	return FP_OK;
}

/* ---- paths ---------------------------------------------------------- */

/*
 * The @k clusters of a new directory, as one run: the first that holds
 * them from the hint (FP_ALLOC_CONTIG); without such a run (or without
 * the space), one cluster as take_one() takes it, the directory to grow
 * as its entries come, as before.  *cl, *got.
 */
static enum fp_err take_dir(struct fp_plan *p, uint32_t k, uint32_t *cl,
			    uint32_t *got)
{
	struct fp_alloc_req r = { .need = k, .flags = FP_ALLOC_CONTIG };
	const struct fp_alloc_run *runs;
	struct fp_alloc_diag d;
	size_t n;
	enum fp_err err = FP_E_NORUN;

	if (k > 1)
		err = fp_alloc_get(p->alloc, &r, 1, &runs, &n, &d);
	if (err == FP_E_NORUN || err == FP_E_NOSPC) {
		*got = 1;
		return take_one(p, 0, 0, cl);
	}
	if (err)
		return err;
	*cl = runs[0].start;
	*got = k;
	return link_run(p, *cl, k, 0, 0);
}

/*
 * A parent that -p makes is not sized: its path is a prefix of the
 * request's, and a key made of each such prefix would cost the square of
 * a deep path's length.  It grows as its entries come.
 */
enum fp_err fp_plan_new_dir(struct fp_plan *p, struct fp_dir *parent,
			    const uint16_t *name, size_t n, const char *path,
			    size_t path_len, int sized, struct fp_dir **out)
{
	struct fp_dir *d = NULL;
	uint32_t cl, slot, up, k = 1, i;
	enum fp_err err = FP_OK;

	if (sized)
		err = fp_plan_dir_size(p, path, path_len, &k);
	if (!err)
		err = take_dir(p, k, &cl, &k);
	if (!err)
		err = fp_plan_add_entry(p, parent, name, n, FP_ATTR_DIR, cl,
					0, &slot);
	if (err)
		return err;
	up = fp_dir_first_cl(parent) == root_key(p) ? 0 :
	     fp_dir_first_cl(parent);
	err = fp_dir_create(fp_fs_geom(p->fs), cl, up, p->date, p->time, &d);
	for (i = 1; !err && i < k; i++)
		err = fp_dir_grow(d, cl + i);
	if (err) {
		fp_dir_free(d);
		return err;
	}
	err = fp_path_keep(&p->walk, d, out);
	if (!err)
		err = fp_grow(&p->made, &p->made_cap, p->made_count,
			      sizeof(*p->made));
	if (err)
		return err;
	p->made[p->made_count].path = path;
	p->made[p->made_count++].len = path_len;
	return FP_OK;
}

/*
 * The path layer's missing hook: with --parents, make the directory
 * (fp_plan_new_dir()); else FP_E_NOENT.
 */
static enum fp_err make_dir(void *ctx, struct fp_dir *parent,
			    const uint16_t *name, size_t n,
			    const char *path, size_t path_len,
			    struct fp_dir **out)
{
	struct fp_plan *p = ctx;

	if (!p->opts.parents)
		return FP_E_NOENT;
	return fp_plan_new_dir(p, parent, name, n, path, path_len, 0, out);
}

static const struct fp_path_ops walk_ops = {
	.load = fp_plan_get_dir,
	.enter = enter_dir,
	.missing = make_dir,
};

/* ---- files ---------------------------------------------------------- */

static uint32_t clusters_for(const struct fp_plan *p, uint64_t bytes)
{
	uint32_t c = fp_fs_geom(p->fs)->clus_len;

	return (uint32_t)((bytes + c - 1) / c);
}

/* The commit copies the data of file @f (a copy) into its clusters. */
enum fp_err fp_plan_copy_data(struct fp_plan *p, const struct fp_plan_file *f)
{
	enum fp_err err = FP_OK;
	size_t i;

	if (f->ext_count)
		err = fp_change_copy(p->cs, (size_t)(f - p->files), f->src,
				     f->src_data, f->new_size);
	for (i = 0; !err && i < f->ext_count; i++)
		err = fp_change_copy_run(p->cs, f->ext[i].start,
					 f->ext[i].count);
	return err;
}

static enum fp_err create_file(struct fp_plan *p, struct fp_plan_file *f,
			       struct fp_dir *dir, const uint16_t *name,
			       size_t n, uint64_t size)
{
	int keep = p->opts.keep_size && !f->src;	/* a copy has data */
	enum fp_err err;

	f->action = FP_ACT_CREATE;
	f->new_size = keep ? 0 : (uint32_t)size;
	err = fp_plan_alloc_file(p, f, clusters_for(p, size), 0);
	if (!err && !f->src && (!keep || p->opts.zero))
		err = zero_extents(p, f);
	if (!err && f->src)
		err = fp_plan_copy_data(p, f);
	f->first_cl = f->ext_count ? f->ext[0].start : 0;
	if (!err)
		err = fp_plan_add_entry(p, dir, name, n, FP_ATTR_ARCHIVE,
					f->first_cl, f->new_size, &f->slot);
	f->dir = dir;
	return err;
}

void fp_plan_switch_entry(struct fp_plan *p, const struct fp_plan_file *f)
{
	uint8_t *ent = fp_dir_ent(f->dir, f->slot);

	fp_dirent_set_cluster(ent, f->first_cl, is_fat32(p));
	fp_put_le32(ent + DIR_SIZE, f->new_size);
	fp_put_le16(ent + DIR_WRT_TIME, p->time);
	fp_put_le16(ent + DIR_WRT_DATE, p->date);
	fp_put_le16(ent + DIR_ACC_DATE, p->date);
	fp_dir_touch(f->dir, f->slot);
}

/*
 * Rewrite the entry of an extended file: its cluster, and its size and
 * write time when the size changed.
 */
static void update_entry(struct fp_plan *p, const struct fp_plan_file *f)
{
	if (f->new_size != f->old_size) {
		fp_plan_switch_entry(p, f);
		return;
	}
	fp_dirent_set_cluster(fp_dir_ent(f->dir, f->slot), f->first_cl,
			      is_fat32(p));
	fp_dir_touch(f->dir, f->slot);
}

static enum fp_err extend_file(struct fp_plan *p, struct fp_plan_file *f,
			       const struct fp_dirent *e, uint64_t size)
{
	uint64_t clus = fp_fs_geom(p->fs)->clus_len, zend;
	uint32_t have, last, want = clusters_for(p, size);
	enum fp_err err = fp_plan_file_chain(p, e, &have, &last);

	if (err)
		return err;
	if ((uint64_t)have * clus < e->size)
		return FP_E_CORRUPT;
	f->old_size = f->new_size = e->size;
	f->old_clusters = have;
	f->first_cl = e->cl;
	if (!p->opts.keep_size && size > e->size)
		f->new_size = (uint32_t)size;
	if (want <= have && f->new_size == f->old_size)
		return FP_OK;
	f->action = FP_ACT_EXTEND;
	if (want > have)
		err = fp_plan_alloc_file(p, f, want - have, last);
	if (!err && !f->first_cl && f->ext_count)
		f->first_cl = f->ext[0].start;
	zend = p->opts.keep_size ? have * clus :
	       (uint64_t)clusters_for(p, f->new_size) * clus;
	if (zend > have * clus)
		zend = have * clus;
	if (!err && (!p->opts.keep_size || p->opts.zero)) {
		if (e->cl && zend > e->size)
			err = zero_chain(p, e->cl, e->size, zend);
		if (!err)
			err = zero_extents(p, f);
	}
	if (!err)
		update_entry(p, f);
	return err;
}

/*
 * Each request asks whether an earlier one holds the entry it names, and
 * rm -r whether one changed an entry in its tree: a manifest of N edit
 * lines asks N times, so a walk of the requests before it would make the
 * plan O(N^2).  A request's entry and action are final once it is
 * planned, so fp_plan_build() keeps them as it goes and each question
 * is a lookup.
 */
int fp_plan_same_file(const struct fp_plan *p, const struct fp_dir *dir,
		      uint32_t slot)
{
	return fp_slotset_has(&p->held, dir, slot);
}

/* Cluster numbers are below it. */
static uint64_t cl_bound(const struct fp_plan *p)
{
	return (uint64_t)fp_geom_max_cl(fp_fs_geom(p->fs)) + 1;
}

int fp_plan_dir_changed(const struct fp_plan *p, uint32_t cl)
{
	return cl && cl < cl_bound(p) && fp_bitset_test(&p->changed, cl);
}

enum fp_err fp_plan_keep_file(struct fp_plan *p, const struct fp_plan_file *f)
{
	uint32_t cl;

	if (!f->dir)
		return FP_OK;
	if (fp_slotset_add(&p->held, f->dir, f->slot))
		return FP_E_NOMEM;
	cl = fp_dir_first_cl(f->dir);
	if (f->action == FP_ACT_NONE || f->action == FP_ACT_REMOVE ||
	    !cl || cl >= cl_bound(p))
		return FP_OK;
	return fp_bitset_set(&p->changed, cl) ? FP_E_NOMEM : FP_OK;
}

/* ---- trims ---------------------------------------------------------- */

/*
 * Plan to free the clusters of @f past its size: its chain (from e->cl,
 * @have clusters, checked) keeps clusters_for(size); a file that keeps
 * none lets go of its chain in its entry.
 */
static enum fp_err trim_file(struct fp_plan *p, struct fp_plan_file *f,
			     const struct fp_dirent *e, uint32_t have)
{
	uint32_t keep = clusters_for(p, e->size), cl = e->cl, tail, i;
	enum fp_err err = FP_OK;

	f->old_size = f->new_size = e->size;
	f->old_clusters = have;
	f->first_cl = keep ? e->cl : 0;
	if (have <= keep)
		return FP_OK;
	for (i = 1; !err && i < keep; i++)
		err = fp_fat_get(fp_fs_fat(p->fs), cl, &cl);
	tail = e->cl;
	if (!err && keep)
		err = fp_fat_get(fp_fs_fat(p->fs), cl, &tail);
	if (!err)
		err = fp_change_free_chain(p->cs, keep ? cl : 0, tail,
					   have - keep);
	if (err)
		return err;
	f->action = FP_ACT_TRIM;
	f->freed = have - keep;
	if (!keep) {
		fp_dirent_set_cluster(fp_dir_ent(f->dir, f->slot), 0,
				      is_fat32(p));
		fp_dir_touch(f->dir, f->slot);
	}
	return FP_OK;
}

/* A file to trim: its chain checked as for an extension. */
static enum fp_err plan_trim(struct fp_plan *p, struct fp_plan_file *f,
			     const struct fp_dirent *e)
{
	struct fp_walk_check c = fp_plan_gate(p);
	uint32_t have, last;
	enum fp_err err = fp_plan_file_chain(p, e, &have, &last);

	if (!err && fp_walk_chain_short(&c, e, have))
		err = FP_E_DAMAGED;
	return err ? err : trim_file(p, f, e, have);
}

/* New entries get @t (a copy's time), else the run's time. */
void fp_plan_set_stamp(struct fp_plan *p, int64_t t)
{
	fp_dir_timestamp(t, p->opts.utc, &p->date, &p->time, &p->tenth);
}

/*
 * A copy request: a file to create (an existing one, @e, is refused, or
 * with FP_EDIT_REPLACE replaced: fp_edit_replace()), or a directory to
 * create or to merge with; stamped with the source's time.
 */
static enum fp_err plan_copy(struct fp_plan *p, const struct fp_req *r,
			     const struct fp_req_src *src,
			     struct fp_plan_file *f, struct fp_dir *dir,
			     const uint16_t *name, size_t n,
			     const struct fp_dirent *e)
{
	struct fp_dir *sub;
	enum fp_err err;

	f->src = src->host;
	f->src_data = src->data;
	f->is_dir = src->is_dir;
	snprintf(p->diag->component, sizeof(p->diag->component), "%s",
		 r->path);
	if (e) {
		if (fp_plan_same_file(p, dir, e->slot))
			return FP_E_DUPPATH;
		if (!src->is_dir)
			return e->attr & FP_ATTR_DIR ? FP_E_ISDIR : FP_E_EXISTS;
		if (!(e->attr & FP_ATTR_DIR))
			return FP_E_NOTDIR;
		return FP_OK;	/* merged: checked as paths go through it */
	}
	fp_plan_set_stamp(p, src->mtime);
	if (src->is_dir) {
		f->action = FP_ACT_CREATE;
		err = fp_plan_new_dir(p, dir, name, n, r->path, strlen(r->path),
				      1, &sub);
	} else {
		err = create_file(p, f, dir, name, n, r->size);
	}
	fp_plan_set_stamp(p, p->opts.time);
	return err;
}

enum fp_err fp_plan_find_entry(struct fp_plan *p, const char *path,
			       enum fp_plan_name how, uint16_t *name,
			       size_t *n, struct fp_dir **dir,
			       struct fp_dirent *e)
{
	const char *rest = path;
	enum fp_err err = fp_path_parent(&p->walk, &rest, name, n, dir);

	assert(err != FP_E_NOFILE);	/* that is the entry's answer */
	if (err)
		return err;
	if (how == FP_PLAN_NAME_ENTRY)
		snprintf(p->diag->component, sizeof(p->diag->component), "%s",
			 path);
	return fp_dir_lookup(*dir, is_fat32(p), name, *n, e) ? FP_OK :
	       FP_E_NOFILE;
}

enum fp_err fp_plan_one(struct fp_plan *p, const struct fp_req *r,
			const struct fp_req_src *src, struct fp_plan_file *f)
{
	uint16_t name[FP_LFN_MAX];
	struct fp_walk_check c;
	struct fp_dirent e;
	struct fp_dir *dir;
	size_t n;
	enum fp_err err;

	if (r->size > FP_FILE_MAX)
		return FP_E_TOOBIG;
	err = fp_plan_find_entry(p, r->path, FP_PLAN_NAME_DIR, name, &n, &dir,
				 &e);
	if (err && err != FP_E_NOFILE)
		return err;
	if (src && src->host)
		return plan_copy(p, r, src, f, dir, name, n, err ? NULL : &e);
	if (err)	/* none there */
		return p->opts.trim ? FP_E_NOFILE :
		       create_file(p, f, dir, name, n, r->size);
	if (e.attr & FP_ATTR_DIR)
		return FP_E_ISDIR;
	if (fp_plan_same_file(p, dir, e.slot))
		return FP_E_DUPPATH;
	snprintf(p->diag->component, sizeof(p->diag->component), "%s",
		 r->path);
	c = fp_plan_gate(p);
	if (fp_walk_bad_name(&c, &e))
		return FP_E_DAMAGED;
	err = e.cl ? fp_plan_check_chain(p, e.cl) : FP_OK;
	if (err)
		return err;
	f->dir = dir;
	f->slot = e.slot;
	if (p->opts.trim)
		return plan_trim(p, f, &e);
	return extend_file(p, f, &e, r->size);
}

enum fp_err fp_plan_start(struct fp_fs *fs, const struct fp_plan_opts *opts,
			  size_t count, struct fp_plan **out,
			  struct fp_plan_diag *diag)
{
	struct fp_plan *p;
	enum fp_err err;

	memset(diag, 0, sizeof(*diag));
	p = calloc(1, sizeof(*p));
	if (!p) {
		fp_damage_free(opts->walk);
		return FP_E_NOMEM;
	}
	p->fs = fs;
	p->opts = *opts;
	p->opts.walk = NULL;
	p->dmg = opts->walk;
	p->diag = diag;
	fp_path_walk_init(&p->walk, fs, &walk_ops, p);
	fp_path_walk_report(&p->walk, diag->component,
			    sizeof(diag->component), &diag->problem);
	fp_plan_set_stamp(p, opts->time);
	err = fp_change_set_new(fs, &p->cs);
	p->files = calloc(count ? count : 1, sizeof(*p->files));
	if (!err && !p->files)
		err = FP_E_NOMEM;
	if (!err && fp_bitset_init(&p->changed, cl_bound(p)))
		err = FP_E_NOMEM;
	if (!err)
		err = fp_fs_bitmap(fs);
	if (!err)
		err = fp_alloc_new(fp_fs_bm(fs), fp_fs_fsinfo(fs), &p->alloc);
	if (!err)
		fp_alloc_set_host(p->alloc, fp_img_base(fp_fs_img(fs)) +
				  fp_fs_geom(fs)->data_off,
				  fp_fs_geom(fs)->clus_len);
	if (!err && !p->dmg)
		err = fp_damage_find(fs, &p->dmg);
	if (!err)
		err = reserve_free_used(p);
	if (err) {
		fp_plan_free(p);
		return err;
	}
	*out = p;
	return FP_OK;
}

enum fp_err fp_plan_finish(struct fp_plan *p)
{
	enum fp_err err = FP_OK;
	size_t i;

	/* every directory loaded or made, in walk order */
	for (i = 0; !err && i < fp_path_dir_count(&p->walk); i++)
		err = fp_change_dir(p->cs, fp_path_dir(&p->walk, i));
	return err;
}

const struct fp_plan_file *fp_plan_files(const struct fp_plan *plan,
					 size_t *count)
{
	*count = plan->file_count;
	return plan->files;
}

const struct fp_plan_dir *fp_plan_made_dirs(const struct fp_plan *plan,
					    size_t *count)
{
	*count = plan->made_count;
	return plan->made;
}

uint32_t fp_plan_alloc_count(const struct fp_plan *plan)
{
	return fp_change_alloc_count(plan->cs);
}

uint32_t fp_plan_freed_count(const struct fp_plan *plan)
{
	return fp_change_freed_count(plan->cs);
}

int fp_plan_is_trim(const struct fp_plan *plan)
{
	return plan->opts.trim;
}

enum fp_err fp_plan_largest_run(struct fp_plan *plan, uint32_t *start,
				uint32_t *count)
{
	assert(!plan->opts.trim);
	return fp_alloc_largest_run(plan->alloc, start, count);
}

enum fp_err fp_plan_free_count(struct fp_plan *plan, uint32_t *count)
{
	return fp_change_free_count(plan->cs, count);
}

/* ---- commit --------------------------------------------------------- */

enum fp_err fp_plan_check_copies(struct fp_plan *p, struct fp_fs_diag *diag)
{
	enum fp_err err = fp_fs_check(p->fs, diag);

	if (err != FP_E_FATDIFF)
		return err;
	err = fp_damage_copies(p->fs, p->dmg, diag);
	if (!err)
		fp_change_sync_copies(p->cs);
	return err;
}

/* The change set that planning filled, written by commit.c. */
enum fp_err fp_plan_commit(struct fp_plan *p, int no_sync)
{
	struct fp_commit_opts o = {
		.punch_holes = p->opts.punch_holes,
		.no_sync = no_sync,
		.progress = p->opts.progress,
	};
	struct fp_commit_fail fail;
	enum fp_err err = fp_commit_write(p->cs, &o, &fail);

	if (err == FP_E_SRC || err == FP_E_CHANGED) {
		p->diag->req = fail.tag;
		p->diag->errnum = fail.errnum;
	}
	return err;
}

void fp_plan_free(struct fp_plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->file_count; i++)
		free(p->files[i].ext);
	fp_change_set_free(p->cs);
	fp_path_walk_release(&p->walk);
	free(p->files);
	free(p->made);
	fp_alloc_free(p->alloc);
	fp_damage_free(p->dmg);
	fp_slotset_release(&p->held);
	fp_bitset_release(&p->changed);
	fp_plan_dirs_free(p);
	free(p);
}
