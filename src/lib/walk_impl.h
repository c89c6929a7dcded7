/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * walk_impl.h - the fields of struct fp_walk and the walk's hot inline
 * steps, for the three files of the walk only: walk.c (directories,
 * entries, their checks), walk_claim.c (chains claimed, cross-links, runs
 * of links) and walk_base.c (failure, FAT entries, the paths and the
 * recording of findings).  Calls go one way: walk.c to walk_claim.c, both
 * to walk_base.c.  Everything else uses walk.h.
 */
#ifndef FP_WALK_IMPL_H
#define FP_WALK_IMPL_H

#include <stddef.h>
#include <stdint.h>

#include "bitset.h"
#include "dupname.h"
#include "fat.h"
#include "findings.h"
#include "fp_err.h"
#include "fs.h"
#include "problem.h"
#include "progress.h"
#include "twice.h"
#include "walk.h"

/* FAT entries walk_entry() reads at a time and keeps. */
#define NEAR 16u

/* Entries @cl .. @cl + @len - 1 each link to the next cluster. */
struct fp_walk_run {
	uint32_t cl;
	uint32_t len;
};

/* A cluster found in two chains and the first chain that holds it. */
struct fp_walk_xlink {
	uint32_t cl;
	int want;		/* a kept finding names it: find its owner */
	char *owner;
};

/*
 * A directory waiting to be read; kept so that ancestors can be found.
 * A frame holds its own name only, in fp_walk.names_buf: a full path per
 * frame would cost the square of the depth (4,000 levels of 255-byte
 * names: 2 GB).  Paths are made from the parents when a finding needs
 * one (frame_path()).
 */
struct fp_walk_frame {
	uint32_t cl;		/* first cluster, 0 for a fixed root */
	uint32_t cl_count;	/* clusters claimed for it (chain dirs) */
	size_t parent;		/* index of the parent frame (root: itself) */
	size_t name_off;	/* its name in fp_walk.names_buf (UTF-8) */
	size_t name_len;	/* bytes; 0 for the root */
};

/*
 * The path of a finding: @s as it is, or the entry @e (NULL: none) in
 * the directory of frame @frame, made only when a finding asks for it,
 * as most entries need none.
 */
struct fp_walk_path {
	const char *s;		/* the path given, or NULL: made */
	size_t frame;
	const struct fp_dirent *e;
	char *made;		/* owned; NULL until asked */
};

/* The state of a walk (walk.h); everything but @fs and @r is owned. */
struct fp_walk {
	struct fp_fs *fs;	/* borrowed */
	const struct fp_geom *g;
	struct fp_fat *fat;
	enum fp_fat_type type;	/* of the FAT, for fp_fat_kind_of() */
	uint32_t max_cl;
	int fat32;
	uint32_t near[NEAR];	/* entries near_cl .. + near_count - 1 */
	uint32_t near_cl, near_count;	/* as walk_entry() read them last */
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
	struct fp_twice starts;	/* --verify: the entries' first clusters */
	int twice;		/* the chain being claimed is moved-twice */
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

/* ---- walk_base.c, for walk.c and walk_claim.c ----------------------- */

/*
 * FAT entry @cl, read with the NEAR entries around it; a read error
 * fails the walk and reads as end-of-chain.
 */
uint32_t fp_walk_entry_read(struct fp_walk *v, uint32_t cl);

/* The name of entry @e in UTF-8 into @name (3 * FP_LFN_MAX + 1 bytes). */
size_t fp_walk_entry_name(const struct fp_dirent *e, char *name);

/*
 * "/a/b/name": the path of entry @e (NULL: of the directory itself, "/"
 * for the root) in the directory of frame @f, malloc'd; NULL without
 * memory.
 */
char *fp_walk_frame_path(const struct fp_walk *v, size_t f,
			 const struct fp_dirent *e);

/* The path @p stands for, made now if need be; NULL without memory. */
const char *fp_walk_path_str(struct fp_walk *v, struct fp_walk_path *p);

/*
 * Record a finding at the path @ep stands for; past FP_VERIFY_CAP of one
 * problem only count it.
 */
struct fp_finding *fp_walk_add_at(struct fp_walk *v, enum fp_problem p,
				  struct fp_walk_path *ep, uint32_t cl,
				  uint64_t a, uint64_t b);

/* ---- walk_claim.c, for walk.c --------------------------------------- */

/*
 * Before the owner pass of fp_walk_name_owners() (walk.c): the
 * cross-links sorted, those a kept finding names wanted, the claimed set
 * emptied, the pass on.  0 if there is nothing to name (no cross-link,
 * or the walk failed): no pass then.
 */
int fp_walk_owners_start(struct fp_walk *v);

/* After the owner pass: the pass off, each wanted owner into its findings. */
void fp_walk_owners_end(struct fp_walk *v);

/*
 * The chain from @start (a cluster number if @in_range), whose first
 * entry is of kind @k, for walk_chain() (walk_claim.c): a bad start, or
 * the loop that walks and claims; its length, *@ok whether it ended
 * properly.
 */
uint32_t fp_walk_chain_links(struct fp_walk *v, struct fp_walk_path *path,
			     uint32_t start, int in_range, enum fp_fat_kind k,
			     int *ok);

/* fp_walk_entry_read(), inline where the entry is among those kept. */
static inline uint32_t walk_entry(struct fp_walk *v, uint32_t cl)
{
	if (cl - v->near_cl < v->near_count && !v->err)
		return v->near[cl - v->near_cl];
	return fp_walk_entry_read(v, cl);
}

/* What FAT entry value @val is, without a call. */
static inline enum fp_fat_kind walk_kind(const struct fp_walk *v,
					 uint32_t val)
{
	return fp_fat_kind_of(v->type, v->max_cl, val);
}

/*
 * Walk and claim the chain from @start for @path.  Returns its length, 0
 * for an unusable start; *ok says whether it ended properly.  A chain of
 * one cluster, a small file, is claimed here without a call: what
 * fp_walk_chain_links() finds, without its run search and a second read of the
 * entry (not in the owner pass, which notes each cluster's owner).
 */
static inline uint32_t walk_chain(struct fp_walk *v,
				  struct fp_walk_path *path, uint32_t start,
				  int *ok)
{
	int in_range = start >= 2 && start <= v->max_cl;
	enum fp_fat_kind k = in_range ?
			     walk_kind(v, walk_entry(v, start)) :
			     FP_FK_INVALID;

	if (k == FP_FK_EOC && !v->owners_pass &&
	    !fp_bitset_test(&v->claimed, start)) {
		fp_walk_bit_set(v, &v->claimed, start);
		*ok = 1;
		return 1;
	}
	return fp_walk_chain_links(v, path, start, in_range, k, ok);
}


#endif
