/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* dupname.h - two entries of one name in a directory, as VFAT compares. */
#ifndef FP_DUPNAME_H
#define FP_DUPNAME_H

#include <stddef.h>
#include <stdint.h>

#include "dir.h"
#include "fp_err.h"

struct fp_dupname_key;	/* a name of an entry, keyed (dupname.c) */

/*
 * The names of one directory, gathered entry by entry and then compared;
 * its arrays are kept from one directory to the next.  Zeroed to start;
 * read only through the functions below.
 */
struct fp_dupname {
	struct fp_dupname_key *keys;
	size_t count, cap;
	uint64_t *set;		/* a table of values for the first test */
	size_t set_cap;
};

/* Forget the names gathered, to start a new directory. */
void fp_dupname_reset(struct fp_dupname *nm);

/* Free the arrays; @nm may be reset and used again. */
void fp_dupname_release(struct fp_dupname *nm);

/* Keep the short name of entry @e and its long name if it has one. */
enum fp_err fp_dupname_add(struct fp_dupname *nm, const struct fp_dirent *e);

/*
 * Told of two entries of directory @d with one name, by the first slots
 * of their entry sets (@a first in the order duplicates are found).
 */
typedef void fp_dupname_fn(void *ctx, uint32_t a, uint32_t b);

/*
 * Compare the names kept for directory @d case-insensitively, as VFAT
 * does, calling @fn for each duplicate.  Returns 1 if one was found.
 */
int fp_dupname_check(struct fp_dupname *nm, const struct fp_dir *d,
		     fp_dupname_fn *fn, void *ctx);

#endif
