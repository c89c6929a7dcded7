/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * twice.h - the first clusters of the entries a walk has claimed, with
 * their sizes and attributes, to tell a move cut short (two entries of
 * one file: moved-twice) from a cross-link.
 */
#ifndef FP_TWICE_H
#define FP_TWICE_H

#include <stddef.h>
#include <stdint.h>

#include "dir.h"
#include "fp_err.h"

struct fp_twice_slot;	/* twice.c */

/* A table of starts; zeroed to begin, read only through the functions. */
struct fp_twice {
	struct fp_twice_slot *slots;
	size_t count, cap;	/* cap: 0 or a power of two */
};

/* Keep entry @e's first cluster (not 0) with its size and attributes. */
enum fp_err fp_twice_add(struct fp_twice *t, const struct fp_dirent *e);

/*
 * 1 if an entry kept starts where @e does, with @e's size and attributes
 * (the archive bit aside, which a copy may set): the state between the
 * two directory writes of a move (docs/DESIGN.md "Moves").
 */
int fp_twice_same(const struct fp_twice *t, const struct fp_dirent *e);

void fp_twice_release(struct fp_twice *t);

#endif
