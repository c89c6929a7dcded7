/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * plan_build.c - fp_plan_build(): each request, in order, to the file
 * and copy planner (plan.c) or to the edits (edit.c), which both build
 * on plan.c's helpers; so this file sits on top of both.
 */
#include <string.h>

#include "plan_impl.h"

enum fp_err fp_plan_build(struct fp_fs *fs, const struct fp_plan_opts *opts,
			  const struct fp_req *reqs, size_t count,
			  struct fp_plan **out, struct fp_plan_diag *diag)
{
	const struct fp_req_edit *ed;
	struct fp_plan_file *f;
	struct fp_plan *p;
	enum fp_err err;
	size_t i;

	err = fp_plan_start(fs, opts, count, &p, diag);
	if (err)
		return err;
	for (i = 0; !err && i < count; i++) {
		diag->req = i;
		f = &p->files[i];
		memset(f, 0, sizeof(*f));
		f->path = reqs[i].path;
		ed = opts->edits ? &opts->edits[i] : NULL;
		if (ed && ed->kind != FP_REQ_FILE)
			err = fp_edit_plan(p, &reqs[i], ed, f);
		else
			err = fp_plan_one(p, &reqs[i], opts->srcs ?
					  &opts->srcs[i] : NULL, f);
		p->file_count = i + 1;
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
