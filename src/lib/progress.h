/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* progress.h - a progress callback for long library work, rate-limited. */
#ifndef FP_PROGRESS_H
#define FP_PROGRESS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Told how far long work is: @done of @total units (bytes or clusters;
 * only the ratio means anything).  @done never decreases, and the last
 * call of a piece of work has @done == @total.  The library never prints:
 * drawing is the caller's business.  Owned by the caller.
 */
struct fp_progress {
	void (*fn)(void *ctx, uint64_t done, uint64_t total);
	void *ctx;
};

/*
 * The library side: calls fn at most about 100 times over a piece of
 * work, whatever its size.  A NULL or empty fp_progress makes every
 * fp_progress_tick() a no-op.  Held by value by the work it follows, and
 * read through the functions below, never its fields.
 */
struct fp_tick {
	const struct fp_progress *prog;	/* NULL: nothing to report */
	uint64_t total;
	uint64_t next;		/* report when done reaches this */
};

/* Start work of @total units (0: nothing is reported); reports 0. */
void fp_progress_tick_start(struct fp_tick *t,
			    const struct fp_progress *prog, uint64_t total);

/* @done units are done: report when a hundredth more is, or all. */
void fp_progress_tick(struct fp_tick *t, uint64_t done);

/*
 * 1 if @t reports to a callback (inline: the tree walk asks it for every
 * chain); the fields of struct fp_tick are read only here and in
 * progress.c.
 */
static inline int fp_progress_tick_on(const struct fp_tick *t)
{
	return t->prog != NULL;
}

/* The units of the work @t was started with. */
static inline uint64_t fp_progress_tick_total(const struct fp_tick *t)
{
	return t->total;
}

#endif
