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

/*
 * The outcome of a check (opaque): its findings, counted per problem, at
 * most FP_VERIFY_CAP of each kept; everything is owned by the report.
 * Built by the checker (verify.c, walk.c, dupname.c through
 * findings_impl.h, vol.c through the functions below), read through the
 * accessors below.
 */
struct fp_report;

/* What a report counts, copied out by fp_report_summary(). */
struct fp_report_summary {
	struct fp_geom geom;
	uint64_t files, dirs;
	uint64_t used, free_cl, bad, lost;	/* clusters */
	uint32_t run_start, run_count;	/* the largest free run (the
					 * first of the longest); 0, 0: none */
	uint64_t errors, warnings;
};

/* Copy the counts of @r into *s. */
void fp_report_summary(const struct fp_report *r,
		       struct fp_report_summary *s);

/* The number of findings @r keeps. */
size_t fp_report_finding_count(const struct fp_report *r);

/* Finding @i (below fp_report_finding_count()) of @r; owned by @r. */
const struct fp_finding *fp_report_finding(const struct fp_report *r,
					   size_t i);

/*
 * The findings of @p that @r counts but does not keep (past
 * FP_VERIFY_CAP or FP_VERIFY_PATH_BYTES).
 */
uint64_t fp_report_dropped(const struct fp_report *r, enum fp_problem p);

/* The findings of @p that @r counts, kept or not. */
uint64_t fp_report_problem_count(const struct fp_report *r, enum fp_problem p);

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
 * Count and keep, after the findings so far, a finding FP_P_PROFILE of
 * the volume: rule @rule broken with @figure and @limit (see
 * fp_profile_check()).
 */
enum fp_err fp_report_add_rule(struct fp_report *r,
			       const struct fp_profile_rule *rule,
			       uint64_t figure, uint64_t limit);

/*
 * The verdict on the volume that @r reports, as --verify's exit status
 * follows it: FP_E_CORRUPT (class FP_CLASS_DAMAGED) when @r counts an
 * error, or with @strict a warning (then warnings are errors); FP_OK
 * otherwise.
 */
enum fp_err fp_report_verdict(const struct fp_report *r, int strict);

void fp_report_free(struct fp_report *r);

#endif
