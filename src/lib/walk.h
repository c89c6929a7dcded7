/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* walk.h - the tree walk that --verify and the writers' damage gate share. */
#ifndef FP_WALK_H
#define FP_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "bitset.h"
#include "findings.h"
#include "fp_err.h"
#include "fs.h"
#include "problem.h"
#include "dupname.h"
#include "progress.h"

struct fp_walk;		/* the walk's state (walk.c) */
struct fp_walk_path;	/* the path of a finding, made when asked */
struct fp_dirent;	/* dir.h */

/* A chain found damaged, by its first cluster (the writers' walk). */
struct fp_walk_mark {
	uint32_t cl;
	enum fp_problem problem;
};

/*
 * The walk of the directory tree from the root: every directory is read
 * and every chain reachable from it is claimed once, in entry order (a
 * directory keeps its clusters against a file listed after it, as
 * fsck.fat decides).  With a report (--verify) it records findings in
 * it and counts the bytes of the directories that lie in file holes;
 * without (@r NULL: the writers' walk, fp_damage_find()) it keeps no
 * findings and records instead, without limit, the chains found damaged
 * (marks), the clusters where two chains meet (cross-links) and the
 * clusters marked free that a chain uses.  Its state is read and set
 * only through the functions below; the first allocation or I/O failure
 * is kept (fp_walk_err()) and ends the walks under way.
 */

/*
 * A walk of @fs (borrowed), recording findings in @r (borrowed; NULL:
 * the writers' walk), into *@out; FP_E_NOMEM.  Free with fp_walk_free().
 */
enum fp_err fp_walk_new(struct fp_fs *fs, struct fp_report *r,
			struct fp_walk **out);

/* Free @w and what it owns (not the volume nor the report); NULL: no-op. */
void fp_walk_free(struct fp_walk *w);

/* The walk's first failure, FP_OK if none. */
enum fp_err fp_walk_err(const struct fp_walk *w);

/* Remember @err as the walk's failure, unless it failed already. */
void fp_walk_fail(struct fp_walk *w, enum fp_err err);

/*
 * Progress (--verify) in clusters over 2 * cluster_count units: the
 * caller's pass over the FAT the first half, one unit per cluster
 * (fp_walk_progress()), the tree walk the second; fp_walk_progress_end()
 * reports the whole, after a walk that did not fail.
 */
void fp_walk_progress_start(struct fp_walk *w,
			    const struct fp_progress *prog);
void fp_walk_progress(struct fp_walk *w, uint64_t done);
void fp_walk_progress_end(struct fp_walk *w);

/*
 * Entries @cl .. @cl + @n - 1 each link to the next, as the caller's pass
 * over the FAT found them, in increasing order: the runs that grow long
 * enough are kept, so that the walk claims them a run at a time without
 * reading the FAT again.  fp_walk_links_end() after the last.
 */
void fp_walk_links(struct fp_walk *w, uint32_t cl, uint32_t n);
void fp_walk_links_end(struct fp_walk *w);

/* Walk the tree from the root; the first failure is in fp_walk_err(). */
void fp_walk_tree(struct fp_walk *w);

/*
 * Name the first owner of each cross-link that a kept finding reports
 * (fp_finding.other): the tree is walked again, claiming from scratch.
 */
void fp_walk_name_owners(struct fp_walk *w);

/*
 * The clusters claimed so far (by the walk, or by the caller: lost
 * chains); borrowed from @w, which keeps using it.
 */
struct fp_bitset *fp_walk_claimed(struct fp_walk *w);

/* Move the set of claimed clusters to *@out; @w keeps an empty one. */
void fp_walk_take_claimed(struct fp_walk *w, struct fp_bitset *out);

/*
 * Move the chains the writers' walk marked damaged, in the order found,
 * to *@marks (malloc'd; NULL if none) and *@count.
 */
void fp_walk_take_marks(struct fp_walk *w, struct fp_walk_mark **marks,
			size_t *count);

/*
 * Move the clusters marked free that a chain uses, sorted, without
 * repeats, to *@cls (malloc'd; NULL if none) and *@count.
 */
void fp_walk_take_free_used(struct fp_walk *w, uint32_t **cls,
			    size_t *count);

/*
 * The clusters where two chains met, sorted, into *@cls (malloc'd; NULL
 * if none) and *@count; FP_E_NOMEM.
 */
enum fp_err fp_walk_xlink_cls(const struct fp_walk *w, uint32_t **cls,
			      size_t *count);

/*
 * The name of the root directory's first label entry without the
 * directory bit into @label; 0 (and @label zeros) if it has none.
 */
int fp_walk_root_label(const struct fp_walk *w, uint8_t label[11]);

/* Count the bytes of [@off, @off + @len) of the image in file holes. */
void fp_walk_count_holes(struct fp_walk *w, uint64_t off, uint64_t len);

/* The bytes and the holes fp_walk_count_holes() and the walk counted. */
void fp_walk_holes(const struct fp_walk *w, uint64_t *bytes,
		   uint64_t *count);

/*
 * Record a finding at @path (copied) in the walk's report, if it has
 * one; the finding kept, or NULL.
 */
struct fp_finding *fp_walk_add(struct fp_walk *w, enum fp_problem p,
			       const char *path, uint32_t cl, uint64_t a,
			       uint64_t b);

/* Empty sets for every cluster number of the volume; bits @lo .. @hi. */
void fp_walk_bits_init(struct fp_walk *w, struct fp_bitset *b);
void fp_walk_bits_fill(struct fp_walk *w, struct fp_bitset *b, uint32_t lo,
		       uint32_t hi);

/* qsort() order of cluster numbers (uint32_t). */
int fp_walk_cl_cmp(const void *a, const void *b);

/*
 * FAT entry @cl.  A read error fails the whole walk, and from then on
 * every entry reads as end-of-chain, so that the walks under way stop
 * at once.
 */
uint32_t fp_walk_entry(struct fp_walk *w, uint32_t cl);

/* Set bit @i of @b; no memory fails the walk. */
static inline void fp_walk_bit_set(struct fp_walk *w, struct fp_bitset *b,
				   uint32_t i)
{
	if (fp_bitset_set(b, i))
		fp_walk_fail(w, FP_E_NOMEM);
}

/*
 * The checks of an entry that --verify reports and the writers refuse
 * by, each made here once.  Each returns 1 if entry @e fails it, and
 * then, with c->walk (the walk's own check of the entry), records the
 * finding at c->path and, in the writers' walk, marks the chain damaged
 * (fp_damage_chain() finds it) where the check says so; with
 * c->problem (a writer walking a path), sets *c->problem.
 */
struct fp_walk_check {
	struct fp_walk *walk;	/* NULL: a writer's check */
	struct fp_walk_path *path;	/* the entry's, in the walk */
	enum fp_problem *problem;	/* NULL, or set on failure */
	uint32_t clus_len;	/* bytes per cluster */
};

/* dir-size: a directory entry with a nonzero size (chain marked). */
int fp_walk_dir_size(const struct fp_walk_check *c,
		     const struct fp_dirent *e);

/* dir-no-chain: a directory entry without a chain (cluster 0). */
int fp_walk_dir_no_chain(const struct fp_walk_check *c,
			 const struct fp_dirent *e);

/*
 * dir-cycle: @up says that the directory of @e is the one that holds it
 * or an ancestor (each walk knows its path its own way).
 */
int fp_walk_dir_cycle(const struct fp_walk_check *c,
		      const struct fp_dirent *e, int up);

/* bad-name: invalid bytes in the short name. */
int fp_walk_bad_name(const struct fp_walk_check *c,
		     const struct fp_dirent *e);

/*
 * chain-short: the chain of @e, @have clusters long and properly ended,
 * is too short for its size (chain marked).
 */
int fp_walk_chain_short(const struct fp_walk_check *c,
			const struct fp_dirent *e, uint32_t have);

#endif
