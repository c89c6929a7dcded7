/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * plan_build.c - fp_plan_build(): each request, in order, to the file
 * and copy planner (plan.c) or to the edits (edit.c, and a copy that may
 * replace a file: edit_replace.c), which all build on plan.c's helpers;
 * so this file sits on top of them.
 */
#include <string.h>

#include "plan_impl.h"

/* Request @r, with its source @src and edit @ed (each may be NULL). */
static enum fp_err plan_req(struct fp_plan *p, const struct fp_req *r,
			    const struct fp_req_src *src,
			    const struct fp_req_edit *ed,
			    struct fp_plan_file *f)
{
	enum fp_err err;
	int done = 0;

	if (ed && ed->kind != FP_REQ_FILE)
		return fp_edit_plan(p, r, ed, f);
	if (ed && (ed->flags & FP_EDIT_REPLACE) && src && src->host &&
	    !src->is_dir) {
		err = fp_edit_replace_copy(p, r, src, f, &done);
		if (err || done)
			return err;
	}
	return fp_plan_one(p, r, src, f);
}

/*
 * The clusters request @r may want, for struct fp_plan's room_after: at
 * most 2^32 (more than any volume has), so that the sum cannot wrap.
 */
static uint64_t room(const struct fp_plan *p, const struct fp_req *r)
{
	uint32_t c = fp_fs_geom(p->fs)->clus_len;
	uint64_t n = r->size / c + (r->size % c != 0);

	return fp_alloc_room(p->alloc, n < UINT32_MAX ? n : UINT32_MAX) + 1;
}

enum fp_err fp_plan_build(struct fp_fs *fs, const struct fp_plan_opts *opts,
			  const struct fp_req *reqs, size_t count,
			  struct fp_plan **out, struct fp_plan_diag *diag)
{
	struct fp_plan_file *f;
	struct fp_plan *p;
	enum fp_err err;
	size_t i;

	err = fp_plan_start(fs, opts, count, &p, diag);
	if (err)
		return err;
	p->reqs = reqs;
	p->req_count = count;
	for (i = 0; i < count; i++)
		p->room_after += room(p, &reqs[i]);
	for (i = 0; !err && i < count; i++) {
		diag->req = i;
		p->room_after -= room(p, &reqs[i]);
		f = &p->files[i];
		memset(f, 0, sizeof(*f));
		f->path = reqs[i].path;
		err = plan_req(p, &reqs[i], opts->srcs ? &opts->srcs[i] : NULL,
			       opts->edits ? &opts->edits[i] : NULL, f);
		p->file_count = i + 1;
		if (!err)
			err = fp_plan_keep_file(p, f);
	}
	if (!err)
		err = fp_plan_finish(p);
	if (err) {
		fp_plan_free(p);
		return err;
	}
	*out = p;
	return FP_OK;
}
