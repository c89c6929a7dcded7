/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* problem.h - the problems the checker reports: codes, severities, messages. */
#ifndef FP_PROBLEM_H
#define FP_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

struct fp_profile_rule;

enum fp_severity {
	FP_SEV_WARNING,
	FP_SEV_ERROR,
};

/* Every problem the checker knows: one row each in problems.def. */
enum fp_problem {
#define FP_PROBLEM(name, code, sev, no_fsck, msg) name,
#include "problems.def"
#undef FP_PROBLEM
	FP_P_COUNT
};

/* Stable code string ("cross-link") and severity of a problem. */
const char *fp_problem_code(enum fp_problem p);
enum fp_severity fp_problem_severity(enum fp_problem p);

/* 1 if fsck.fat repairs problem @p, 0 if it reads those bytes as sound. */
int fp_problem_fsck_repairs(enum fp_problem p);

/*
 * One finding: a problem, where, a cluster and two numbers whose meaning
 * the problem's message gives (fp_problem_format()).
 */
struct fp_finding {
	enum fp_problem problem;
	char *path;		/* "/DIR/NAME", "" for the volume; owned */
	char *other;		/* cross-link, duplicate: the other owner */
	uint32_t cl;		/* the cluster concerned, 0: none */
	uint64_t a, b;
	const struct fp_profile_rule *rule;	/* FP_P_PROFILE: the rule
						 * broken, a its figure and
						 * b its limit; static */
};

/* The finding's message, without path and code, into @buf. */
void fp_problem_format(const struct fp_finding *f, char *buf, size_t len);

#endif
