/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* findings.c - the report of a check: its findings, counts and caps. */
#include "findings_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int fp_report_count(struct fp_report *r, enum fp_problem p)
{
	if (fp_problem_severity(p) == FP_SEV_ERROR)
		r->errors++;
	else
		r->warnings++;
	if (++r->per_problem[p] > FP_VERIFY_CAP) {
		r->dropped[p]++;
		return 0;
	}
	return 1;
}

int fp_report_path_budget(struct fp_report *r, size_t len)
{
	if (len >= FP_VERIFY_PATH_BYTES - r->path_bytes)
		return 0;
	r->path_bytes += len + 1;
	return 1;
}

enum fp_err fp_report_add(struct fp_report *r, enum fp_problem p,
			  const char *path, uint32_t cl, uint64_t a,
			  uint64_t b, struct fp_finding **out)
{
	struct fp_finding *f;

	*out = NULL;
	if (fp_grow(&r->findings, &r->finding_cap, r->finding_count,
		    sizeof(*r->findings)))
		return FP_E_NOMEM;
	if (!fp_report_path_budget(r, strlen(path))) {
		r->dropped[p]++;
		return FP_OK;
	}
	f = &r->findings[r->finding_count];
	memset(f, 0, sizeof(*f));
	f->problem = p;
	f->path = strdup(path);
	if (!f->path)
		return FP_E_NOMEM;
	f->cl = cl;
	f->a = a;
	f->b = b;
	r->finding_count++;
	*out = f;
	return FP_OK;
}

enum fp_err fp_report_add_volume(struct fp_report *r, enum fp_problem p,
				 const char *other, uint64_t a, uint64_t b)
{
	struct fp_finding f = { p, NULL, NULL, 0, a, b, NULL };

	if (!fp_report_count(r, p))
		return FP_OK;
	f.path = strdup("");
	if (other)
		f.other = strdup(other);
	if (!f.path || (other && !f.other) ||
	    fp_grow(&r->findings, &r->finding_cap, r->finding_count,
		    sizeof(*r->findings))) {
		free(f.path);
		free(f.other);
		return FP_E_NOMEM;
	}
	memmove(r->findings + 1, r->findings,
		r->finding_count++ * sizeof(*r->findings));
	r->findings[0] = f;
	return FP_OK;
}

enum fp_err fp_report_add_rule(struct fp_report *r,
			       const struct fp_profile_rule *rule,
			       uint64_t figure, uint64_t limit)
{
	struct fp_finding *f;
	enum fp_err err;

	if (!fp_report_count(r, FP_P_PROFILE))
		return FP_OK;
	err = fp_report_add(r, FP_P_PROFILE, "", 0, figure, limit, &f);
	if (!err && f)
		f->rule = rule;
	return err;
}

void fp_report_summary(const struct fp_report *r,
		       struct fp_report_summary *s)
{
	s->geom = r->geom;
	s->files = r->files;
	s->dirs = r->dirs;
	s->used = r->used;
	s->free_cl = r->free_cl;
	s->bad = r->bad;
	s->lost = r->lost;
	s->run_start = r->run_start;
	s->run_count = r->run_count;
	s->errors = r->errors;
	s->warnings = r->warnings;
}

size_t fp_report_finding_count(const struct fp_report *r)
{
	return r->finding_count;
}

const struct fp_finding *fp_report_finding(const struct fp_report *r,
					   size_t i)
{
	assert(i < r->finding_count);
	return &r->findings[i];
}

uint64_t fp_report_dropped(const struct fp_report *r, enum fp_problem p)
{
	return r->dropped[p];
}

uint64_t fp_report_problem_count(const struct fp_report *r, enum fp_problem p)
{
	return r->per_problem[p];
}

enum fp_err fp_report_verdict(const struct fp_report *r, int strict)
{
	return r->errors || (strict && r->warnings) ? FP_E_CORRUPT : FP_OK;
}

void fp_report_free(struct fp_report *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->finding_count; i++) {
		free(r->findings[i].path);
		free(r->findings[i].other);
	}
	free(r->findings);
	free(r);
}
