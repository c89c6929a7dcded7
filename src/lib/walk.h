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

/* FAT entries fp_walk_entry() reads at a time and keeps. */
#define FP_WALK_NEAR 16u

struct fp_walk_frame;	/* a directory waiting to be read (walk.c) */
struct fp_walk_path;	/* the path of a finding, made when asked */
struct fp_dirent;	/* dir.h */

/* Entries @cl .. @cl + @len - 1 each link to the next cluster. */
struct fp_walk_run {
	uint32_t cl;
	uint32_t len;
};

/* A chain found damaged, by its first cluster (the writers' walk). */
struct fp_walk_mark {
	uint32_t cl;
	enum fp_problem problem;
};

/* A cluster found in two chains and the first chain that holds it. */
struct fp_walk_xlink {
	uint32_t cl;
	int want;		/* a kept finding names it: find its owner */
	char *owner;
};

/*
 * The walk of the directory tree from the root: every directory is read
 * and every chain reachable from it is claimed once, in entry order (a
 * directory keeps its clusters against a file listed after it, as
 * fsck.fat decides).  With a report (--verify) it records findings in
 * it; without (@r NULL: the writers' walk, fp_damage_find()) it keeps no
 * findings and records instead, without limit, the chains found damaged
 * (marks), the clusters where two chains meet (xl) and the clusters
 * marked free that a chain uses (taken).  Everything is owned by the
 * walk until fp_walk_release(); a caller may take an array over (and
 * set the pointer to NULL).
 */
struct fp_walk {
	struct fp_fs *fs;	/* borrowed */
	const struct fp_geom *g;
	struct fp_fat *fat;
	enum fp_fat_type type;	/* of the FAT, for fp_fat_kind_of() */
	uint32_t max_cl;
	int fat32;
	uint32_t near[FP_WALK_NEAR];	/* entries near_cl ..
					 * + near_count - 1 */
	uint32_t near_cl, near_count;	/* as fp_walk_entry() read
					 * them last */
	struct fp_report *r;	/* borrowed; NULL: the writers' walk */
	enum fp_err err;	/* first allocation or I/O failure */
	struct fp_bitset claimed;	/* clusters in a chain already */
	struct fp_walk_frame *frames;
	size_t frame_count, frame_cap;
	char *names_buf;	/* the frames' names, one after the other */
	size_t names_len, names_cap;
	struct fp_walk_xlink *xl;	/* sorted by cluster for the owners */
	size_t xl_count, xl_cap;
	int owners_pass;	/* re-walk to name the first owners */
	struct fp_tick tick;	/* progress (--verify): FAT pass, walk */
	uint64_t walked;	/* clusters the walk has claimed */
	struct fp_walk_run *links;	/* the FAT pass's long runs of links,
					 * sorted, disjoint; the walk claims
					 * them a run at a time */
	size_t link_count, link_cap;
	struct fp_walk_mark *marks;	/* the writers' walk: the
					 * damaged chains */
	size_t mark_count, mark_cap;
	struct fp_dupname names;	/* the duplicate-name check */
	enum fp_problem last;	/* the problem recorded last */
	int holes;		/* look for metadata in holes (--verify) */
	uint64_t hole_bytes, hole_count;	/* what was found there */
	uint32_t *taken;	/* clusters marked free that a chain uses */
	size_t taken_count, taken_cap;
	int root_label;		/* the root has a label entry: */
	uint8_t label[11];	/* the first one's name */
};

/*
 * Set up @w for a walk of @fs, recording findings in @r (NULL: the
 * writers' walk); a failure (no memory) is in w->err.
 */
void fp_walk_init(struct fp_walk *w, struct fp_fs *fs, struct fp_report *r);

/* Walk the tree from the root; the first failure is in w->err. */
void fp_walk_tree(struct fp_walk *w);

/*
 * Name the first owner of each cross-link that a kept finding reports
 * (fp_finding.other): the tree is walked again, claiming from scratch.
 */
void fp_walk_name_owners(struct fp_walk *w);

/* Sort w->taken and drop repeats. */
void fp_walk_sort_taken(struct fp_walk *w);

/* Count the bytes of [@off, @off + @len) of the image in file holes. */
void fp_walk_count_holes(struct fp_walk *w, uint64_t off, uint64_t len);

/*
 * Record a finding at @path (copied) in w->r, if the walk has a report;
 * the finding kept, or NULL.
 */
struct fp_finding *fp_walk_add(struct fp_walk *w, enum fp_problem p,
			       const char *path, uint32_t cl, uint64_t a,
			       uint64_t b);

/* Remember @err as the walk's failure, unless it failed already. */
void fp_walk_fail(struct fp_walk *w, enum fp_err err);

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
uint32_t fp_walk_entry_read(struct fp_walk *w, uint32_t cl);

/* fp_walk_entry_read, inline where the entry is among those kept. */
static inline uint32_t fp_walk_entry(struct fp_walk *w, uint32_t cl)
{
	if (cl - w->near_cl < w->near_count && !w->err)
		return w->near[cl - w->near_cl];
	return fp_walk_entry_read(w, cl);
}

/* What FAT entry value @val is, without a call. */
static inline enum fp_fat_kind fp_walk_kind(const struct fp_walk *w,
					    uint32_t val)
{
	return fp_fat_kind_of(w->type, w->max_cl, val);
}

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

/*
 * "/a/b/name": the path of entry @e (NULL: of the directory itself, "/"
 * for the root) in the directory of frame @f, malloc'd; NULL without
 * memory.
 */
char *fp_walk_frame_path(const struct fp_walk *w, size_t f,
			 const struct fp_dirent *e);

/* Release what @w owns (not the volume). */
void fp_walk_release(struct fp_walk *w);

#endif
