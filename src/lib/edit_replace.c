/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * edit_replace.c - a copy that replaces an existing file (--replace): new
 * data in clusters of its own, the entry switched to them in one write,
 * the old chain freed last.
 */
#include "plan_impl.h"

enum fp_err fp_edit_check_freed(struct fp_plan *p, const struct fp_dirent *e,
				uint32_t *have)
{
	struct fp_walk_check c = fp_plan_gate(p);
	uint32_t last;
	enum fp_err err;

	if (fp_walk_bad_name(&c, e))
		return FP_E_DAMAGED;
	err = e->cl ? fp_plan_check_chain(p, e->cl) : FP_OK;
	if (!err)
		err = fp_plan_file_chain(p, e, have, &last);
	if (err == FP_E_CORRUPT)
		err = fp_plan_damaged(p, FP_P_CHAIN_BAD);
	if (!err && fp_walk_chain_short(&c, e, *have))
		err = FP_E_DAMAGED;
	return err;
}

/*
 * The old clusters are not free to this plan: the FAT and the free bitmap
 * keep them used until the commit frees them, after the entry no longer
 * points at them (docs/DESIGN.md "Commit order"), so a replace that
 * fits only by reusing them fails with FP_E_NOSPC.
 */
enum fp_err fp_edit_replace(struct fp_plan *p, const struct fp_req *r,
			    const struct fp_req_src *src,
			    struct fp_plan_file *f, struct fp_dir *dir,
			    const struct fp_dirent *e)
{
	uint32_t clus = fp_fs_geom(p->fs)->clus_len, have = 0;
	enum fp_err err;

	if (e->attr & FP_ATTR_DIR)
		return FP_E_ISDIR;
	err = fp_edit_check_freed(p, e, &have);
	if (err)
		return err;
	f->action = FP_ACT_REPLACE;
	f->dir = dir;
	f->slot = e->slot;
	f->old_size = e->size;
	f->old_clusters = have;
	f->new_size = (uint32_t)r->size;
	err = fp_plan_alloc_file(p, f, (uint32_t)((r->size + clus - 1) / clus),
				 0);
	if (!err)
		err = fp_plan_copy_data(p, f);
	if (!err && have)
		err = fp_change_free_chain(p->cs, 0, e->cl, have);
	if (err)
		return err;
	f->freed = have;
	f->first_cl = f->ext_count ? f->ext[0].start : 0;
	fp_plan_set_stamp(p, src->mtime);
	fp_plan_switch_entry(p, f);
	fp_plan_set_stamp(p, p->opts.time);
	return FP_OK;
}

enum fp_err fp_edit_replace_copy(struct fp_plan *p, const struct fp_req *r,
				 const struct fp_req_src *src,
				 struct fp_plan_file *f, int *done)
{
	uint16_t name[FP_LFN_MAX];
	struct fp_dirent e;
	struct fp_dir *dir;
	size_t n;
	enum fp_err err;

	*done = 0;
	if (r->size > FP_FILE_MAX)
		return FP_E_TOOBIG;
	err = fp_plan_find_entry(p, r->path, FP_PLAN_NAME_ENTRY, name, &n,
				 &dir, &e);
	if (err == FP_E_NOFILE)	/* fp_plan_one() walks again, names anew */
		return FP_OK;	/* none there: planned as a new copy */
	if (err)
		return err;
	*done = 1;
	f->src = src->host;
	f->src_data = src->data;
	if (fp_plan_same_file(p, dir, e.slot))
		return FP_E_DUPPATH;
	return fp_edit_replace(p, r, src, f, dir, &e);
}
