/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* progress.c - a progress callback for long library work, rate-limited. */
#include "progress.h"

#include <stddef.h>

void fp_progress_tick_start(struct fp_tick *t,
			    const struct fp_progress *prog, uint64_t total)
{
	t->prog = prog && prog->fn && total ? prog : NULL;
	t->total = total;
	t->next = 0;
	fp_progress_tick(t, 0);
}

void fp_progress_tick(struct fp_tick *t, uint64_t done)
{
	uint64_t step;

	if (done > t->total)
		done = t->total;
	if (!t->prog || (done < t->next && done < t->total) ||
	    t->next == UINT64_MAX)
		return;
	t->prog->fn(t->prog->ctx, done, t->total);
	step = t->total / 100 ? t->total / 100 : 1;
	t->next = done < t->total ? done + step : UINT64_MAX;
}
