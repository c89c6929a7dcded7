/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * edit_mkdir.c - plan mkdir [-p]: a new directory (and with -p its missing
 * parents), made as the directories of copies and of --parents are
 * (fp_plan_new_dir(): its cluster written whole before it is linked,
 * then its entry), stamped with the run's time.
 */
#include <string.h>

#include "plan_impl.h"

/* 1 if @path has no component: the root. */
static int names_root(const char *path)
{
	const char *s;
	size_t len;

	return !fp_path_next(&path, &s, &len);
}

enum fp_err fp_edit_mkdir(struct fp_plan *p, const struct fp_req *r,
			  const struct fp_req_edit *ed,
			  struct fp_plan_file *f)
{
	int parents = p->opts.parents, dash_p = !!(ed->flags & FP_EDIT_PARENTS);
	uint16_t name[FP_LFN_MAX];
	struct fp_dirent e;
	struct fp_dir *dir, *sub;
	size_t n;
	enum fp_err err;

	f->is_dir = 1;
	if (names_root(r->path))
		return dash_p ? FP_OK : FP_E_EXISTS;
	/* the path layer's missing hook makes parents with opts.parents */
	p->opts.parents = dash_p;
	err = fp_plan_find_entry(p, r->path, FP_PLAN_NAME_DIR, name, &n, &dir,
				 &e);
	p->opts.parents = parents;
	if (!err) {
		if (!(e.attr & FP_ATTR_DIR))
			return FP_E_EXISTS;
		return dash_p ? FP_OK : FP_E_EXISTS;
	}
	if (err != FP_E_NOFILE)
		return err;
	f->action = FP_ACT_MKDIR;
	return fp_plan_new_dir(p, dir, name, n, r->path, strlen(r->path),
			       1, &sub);
}
