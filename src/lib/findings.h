/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* findings.h - the report of a check: its findings, counts and caps. */
#ifndef FP_FINDINGS_H
#define FP_FINDINGS_H

#include <stddef.h>
#include <stdint.h>

#include "bpb.h"
#include "fp_err.h"
#include "problem.h"

#define FP_VERIFY_CAP 50	/* findings kept per problem */
/*
 * Bytes of paths the findings of one report keep, at most: past it, a
 * finding is counted as past FP_VERIFY_CAP.  A path is as long as the
 * tree is deep (10,000 levels of 255-byte names on 16 MiB: 2.5 MB).
 */
#define FP_VERIFY_PATH_BYTES ((size_t)64 << 20)

/* The outcome of a check; everything is owned by the report. */
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

/*
 * Count a finding of @p in @r (errors or warnings, and per problem);
 * 1 if it may be kept, 0 past FP_VERIFY_CAP (then it is counted as
 * dropped).
 */
int fp_report_count(struct fp_report *r, enum fp_problem p);

/*
 * 1 if a finding may keep a path of @len bytes (its own, or the other
 * path it names), which is then counted against FP_VERIFY_PATH_BYTES;
 * 0 past it, so that findings deep in a hostile tree (paths of
 * megabytes) stay in bounds.
 */
int fp_report_path_budget(struct fp_report *r, size_t len);

/*
 * Keep a finding of @p, counted already (fp_report_count() said 1), at
 * a copy of @path: *out is it, or NULL when the path is past the budget
 * (the finding is counted as dropped then).  FP_E_NOMEM without memory.
 */
enum fp_err fp_report_add(struct fp_report *r, enum fp_problem p,
			  const char *path, uint32_t cl, uint64_t a,
			  uint64_t b, struct fp_finding **out);

/*
 * Put a finding @p about the volume as a whole, which the caller made
 * outside it (its partition), first in @r; @other as fp_finding.other.
 */
enum fp_err fp_report_add_volume(struct fp_report *r, enum fp_problem p,
				 const char *other, uint64_t a, uint64_t b);

/*
 * The verdict on the volume that @r reports, as --verify's exit status
 * follows it: FP_E_CORRUPT (class FP_CLASS_DAMAGED) when @r counts an
 * error, or with @strict a warning (then warnings are errors); FP_OK
 * otherwise.
 */
enum fp_err fp_report_verdict(const struct fp_report *r, int strict);

void fp_report_free(struct fp_report *r);

#endif
