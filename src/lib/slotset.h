/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * slotset.h - sets of directory entries, each a (directory, slot) pair:
 * the entries a plan's requests hold, found in O(1) rather than by a
 * walk of the requests.
 */
#ifndef FP_SLOTSET_H
#define FP_SLOTSET_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"

struct fp_dir;
struct fp_slotset_key;	/* slotset.c */

/*
 * An open-addressing hash table of pairs, at most half full.  Zeroed to
 * begin; read only through the functions below.  The directories are
 * compared as pointers and never read: a pair means something only while
 * its directory lives, and the set owns nothing but its table.
 */
struct fp_slotset {
	struct fp_slotset_key *keys;
	size_t count, cap;	/* cap: 0 or a power of two */
};

/*
 * Add (@dir, @slot) (@dir not NULL); adding a pair again changes
 * nothing.  FP_E_NOMEM leaves the set as it was.
 */
enum fp_err fp_slotset_add(struct fp_slotset *s, const struct fp_dir *dir,
			   uint32_t slot);

/* 1 if (@dir, @slot) was added, else 0. */
int fp_slotset_has(const struct fp_slotset *s, const struct fp_dir *dir,
		   uint32_t slot);

/* The number of distinct pairs added. */
size_t fp_slotset_count(const struct fp_slotset *s);

/* Free the table; @s is empty again and may be used again. */
void fp_slotset_release(struct fp_slotset *s);

#endif
