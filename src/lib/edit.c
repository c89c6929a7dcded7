/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * edit.c - plan the edits of existing entries (rm, mkdir, mv, attributes,
 * label): one function a kind, in the edit*.c files, called in request
 * order beside the preallocations and copies of plan.c, so that a whole
 * update is one plan and one commit.
 */
#include "plan_impl.h"

enum fp_err fp_edit_plan(struct fp_plan *p, const struct fp_req *r,
			 const struct fp_req_edit *ed,
			 struct fp_plan_file *f)
{
	switch (ed->kind) {
	case FP_REQ_RM:
		return fp_edit_rm(p, r, ed, f);
	case FP_REQ_MKDIR:
		return fp_edit_mkdir(p, r, ed, f);
	case FP_REQ_ATTR:
		return fp_edit_attr_plan(p, r, ed, f);
	case FP_REQ_LABEL:
		return fp_edit_label_plan(p, r, ed, f);
	case FP_REQ_MV:
		return fp_edit_mv(p, r, ed, f);
	default:	/* a kind this build does not plan yet */
		return FP_E_INVAL;
	}
}
