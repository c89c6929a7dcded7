/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * findings_impl.h - the fields of struct fp_report, for the library files
 * that build a report (findings.c, verify.c, walk.c, walk_claim.c,
 * walk_base.c, dupname.c) only; everything else reads it through
 * findings.h.
 */
#ifndef FP_FINDINGS_IMPL_H
#define FP_FINDINGS_IMPL_H

#include "findings.h"

struct fp_report {
	struct fp_geom geom;
	struct fp_finding *findings;
	size_t finding_count, finding_cap;
	uint64_t dropped[FP_P_COUNT];	/* findings past FP_VERIFY_CAP or
					 * FP_VERIFY_PATH_BYTES */
	size_t path_bytes;	/* kept in findings' paths, with NULs */
	uint64_t per_problem[FP_P_COUNT];
	uint64_t files, dirs;
	uint64_t used, free_cl, bad, lost;	/* clusters */
	uint32_t run_start, run_count;	/* the largest free run (the
					 * first of the longest); 0, 0: none */
	uint64_t errors, warnings;
};

#endif
