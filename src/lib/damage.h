/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* damage.h - what a writer must know of the tree before it writes. */
#ifndef FP_DAMAGE_H
#define FP_DAMAGE_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"
#include "fs.h"
#include "problem.h"

/*
 * What a writer must know before it writes into the tree of @fs: the walk
 * of the directory tree that --verify makes, without its pass over the
 * whole FAT, so that its cost grows with the clusters in use rather than
 * with the volume.  Every chain reachable from the root is claimed once;
 * the outcome records, without limit, the directories found damaged (by
 * their first cluster, the root's key for the root: 0 on FAT12/16), the
 * clusters where two chains meet, and the clusters marked free that a
 * chain runs into.  Owned by the caller; release with fp_damage_free().
 */
struct fp_damage;

enum fp_err fp_damage_find(struct fp_fs *fs, struct fp_damage **out);

/*
 * The first problem (lowest in enum fp_problem) of the file or directory
 * whose chain starts at @cl: its chain (bad start, loop, a free, bad or
 * out-of-range link, a cross-link found on it, too short for the size),
 * a directory's nonzero size, and for a directory also its "." and "..",
 * and its entries' long-name slots, labels and names.  FP_P_COUNT when
 * there is none.
 */
enum fp_problem fp_damage_chain(const struct fp_damage *d, uint32_t cl);

/* 1 if cluster @cl is in two chains (a cross-link starts there). */
int fp_damage_shared(const struct fp_damage *d, uint32_t cl);

/* How many clusters are in two chains (0 for @d NULL). */
size_t fp_damage_shared_count(const struct fp_damage *d);

/*
 * The clusters marked free in the FAT that a chain uses (its start, or a
 * link), sorted; must not be allocated, or that chain would take in the
 * new file.
 */
const uint32_t *fp_damage_free_used(const struct fp_damage *d,
				    size_t *count);

/*
 * Whether FAT copy @copy of @fs differs from the active copy only as an
 * interrupted commit leaves them, by lost clusters (the rule is in
 * docs/VERIFY.md, "FAT copies"), over the windows compared so far
 * (fp_fat_copy_each()): *lost_only 1 if so.  @da is the walk of the
 * active copy (fp_damage_find() before any fp_fat_set()); the tree is
 * walked again with copy @copy as the FAT, which must record no damage
 * that @da does not.
 */
enum fp_err fp_damage_copy_lost(struct fp_fs *fs, const struct fp_damage *da,
				uint32_t copy, int *lost_only);

/*
 * What a writer asks before it writes: FP_OK when no mirrored copy
 * differs in the windows compared so far, or each that does only by lost
 * clusters (fp_damage_copy_lost()); else FP_E_FATDIFF, with @diag naming
 * the first such copy.  @da NULL: the walk of the active copy is made
 * here (before any fp_fat_set() then).
 */
enum fp_err fp_damage_copies(struct fp_fs *fs, const struct fp_damage *da,
			     struct fp_fs_diag *diag);

void fp_damage_free(struct fp_damage *d);

#endif
