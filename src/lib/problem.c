/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* problem.c - the problems the checker reports: codes, severities, messages. */
#include "problem.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "profile.h"

/* The problem table, made from problems.def (its comment says the columns). */
static const struct {
	const char *code;
	enum fp_severity sev;
	const char *msg;
	int no_fsck;
} problems[FP_P_COUNT] = {
#define FP_PROBLEM(name, code_, sev_, no_fsck_, msg_) \
	[name] = { \
		.code = code_, .sev = sev_, .msg = msg_, .no_fsck = no_fsck_, \
	},
#include "problems.def"
#undef FP_PROBLEM
};

const char *fp_problem_code(enum fp_problem p)
{
	return problems[p].code;
}

enum fp_severity fp_problem_severity(enum fp_problem p)
{
	return problems[p].sev;
}

int fp_problem_fsck_repairs(enum fp_problem p)
{
	return !problems[p].no_fsck;
}

void fp_problem_format(const struct fp_finding *f, char *buf, size_t len)
{
	const char *t = problems[f->problem].msg;
	size_t n = 0;
	int w;

	for (; *t && n + 1 < len; t++) {
		if (*t != '%' || !t[1]) {
			buf[n++] = *t;
			continue;
		}
		switch (*++t) {
		case 'c':
			w = snprintf(buf + n, len - n, "%" PRIu32, f->cl);
			break;
		case 'a':
			w = snprintf(buf + n, len - n, "%" PRIu64, f->a);
			break;
		case 'b':
			w = snprintf(buf + n, len - n, "%" PRIu64, f->b);
			break;
		case 'h':
			w = snprintf(buf + n, len - n, "0x%" PRIX64, f->a);
			break;
		case 'H':
			w = snprintf(buf + n, len - n, "0x%" PRIX64, f->b);
			break;
		case 'r':
			if (!f->rule) {
				w = snprintf(buf + n, len - n, "?");
				break;
			}
			fp_profile_rule_format(f->rule, f->a, f->b, buf + n,
					       len - n);
			n += strlen(buf + n);
			continue;
		default:
			w = snprintf(buf + n, len - n, "%s",
				     f->other ? f->other : "?");
			break;
		}
		if (w < 0 || (size_t)w >= len - n)
			break;
		n += (size_t)w;
	}
	buf[n < len ? n : len - 1] = '\0';
}
