/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* dupname.h - the walk's check for two entries of one name in a directory. */
#ifndef FP_DUPNAME_H
#define FP_DUPNAME_H

#include <stddef.h>

#include "dir.h"
#include "walk.h"

/*
 * Keep the short name of entry @e, and its long name if it has one, in
 * w->names (which the walk empties before each directory).
 */
void fp_dupname_add(struct fp_walk *w, const struct fp_dirent *e);

/*
 * Compare the names kept for directory @d (frame @f) case-insensitively,
 * as VFAT does; report each duplicate (duplicate-name) in the walk.
 * Returns 1 if a duplicate was found.
 */
int fp_dupname_check(struct fp_walk *w, const struct fp_dir *d, size_t f);

#endif
