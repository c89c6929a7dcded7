/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* alloc.h - the allocation policy behind one entry point: requests in, runs
 * out. */
#ifndef FP_ALLOC_H
#define FP_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "bitmap.h"
#include "bpb.h"
#include "fp_err.h"

/*
 * The allocator decides which free clusters each request gets and takes
 * them from the free bitmap (after e2fsprogs' lib/ext2fs alloc.c over
 * its bitmaps).  It never reads or writes the FAT: the caller links the
 * runs it returns.  It owns the search start (the FSInfo next-free
 * hint), the clusters kept out of every allocation (fp_alloc_reserve())
 * and the numbers of a failure.  Opaque; the caller owns it
 * (fp_alloc_free()); it borrows the bitmap, which must outlive it.
 */
struct fp_alloc;

/* Flags of a request. */
enum fp_alloc_flag {
	FP_ALLOC_DIR = 1u << 0,		/* directory clusters: one at a time,
					 * each the first free one from the
					 * hint; last_cl and the flags below
					 * are not used */
	FP_ALLOC_CONTIG = 1u << 1,	/* --contiguous: the clusters right
					 * after last_cl, or for a new chain
					 * one run anywhere */
	FP_ALLOC_END = 1u << 2		/* --place end: the highest free
					 * clusters, down from the end */
};

/* One request: @need clusters for a chain that ends at @last_cl. */
struct fp_alloc_req {
	uint32_t need;		/* clusters wanted (0: none) */
	uint32_t last_cl;	/* the chain to continue: its last cluster;
				 * 0 for a new chain */
	unsigned flags;		/* enum fp_alloc_flag */
	uint64_t room_after;	/* clusters the requests after this one
				 * will want, fp_alloc_room() of each:
				 * host alignment is only taken in a run
				 * that holds them too */
};

/* A run of clusters taken for request @req, in the chain's order. */
struct fp_alloc_run {
	uint32_t start;
	uint32_t count;
	size_t req;		/* index into the requests */
};

/* Why a request failed: what the command line prints. */
struct fp_alloc_diag {
	size_t req;		/* index of the failing request */
	uint32_t need;		/* clusters it wanted */
	uint32_t avail;		/* FP_E_NOSPC: free clusters before it;
				 * FP_E_NORUN: the largest free run, or
				 * with @last_cl the free ones after it */
	uint32_t last_cl;	/* FP_E_NORUN: the chain's last cluster, 0 */
};

/*
 * *out = an allocator taking from @bm.  Searches start at the next-free
 * hint of @fi when @fi is trusted and the hint names a cluster of @bm
 * (so that a nearly full start of a large volume is not read again on
 * every run), else at cluster 2.  @fi NULL: no FSInfo.
 */
enum fp_err fp_alloc_new(struct fp_bitmap *bm, const struct fp_fsinfo *fi,
			 struct fp_alloc **out);

/* Where searches start: the hint, or 2. */
uint32_t fp_alloc_hint(const struct fp_alloc *a);

/*
 * Host alignment.  Writes into a file's page cache cost less when the
 * data starts on a large-folio boundary of the host file, as a new file
 * written from offset 0 does: on Linux's ext4, copy_file_range(2) of 30
 * MiB into an image's holes takes about the time of a new file's at a
 * 64 KiB boundary, 1.2 times it at a 16 KiB one (bench/align.sh).
 * So a new chain of FP_ALLOC_ALIGN_MIN bytes or more that first fit
 * places whole starts on the first cluster of that run that lies on an
 * FP_ALLOC_ALIGN boundary of the host file, when the run also holds the
 * clusters skipped to get there and the room_after of its request; else
 * it is allocated as without alignment.  So the gaps left never split a
 * file that would have been one run without them, in the usual case
 * where first fit fills one free run request after request.  Flash media
 * gain too: their pages and erase blocks are powers of two.
 */
#define FP_ALLOC_ALIGN (64u << 10)
#define FP_ALLOC_ALIGN_MIN (1u << 20)

/*
 * Cluster 2 lies at @cl2_off of the host file or device and clusters are
 * @clus_len bytes: the host-aligned clusters, for new chains.  Without
 * this call (or when no cluster can be aligned, or all are alike) there
 * is no alignment.
 */
void fp_alloc_set_host(struct fp_alloc *a, uint64_t cl2_off,
		       uint32_t clus_len);

/*
 * The clusters a file of @need clusters may take: @need plus those that
 * alignment may skip before it.
 */
uint64_t fp_alloc_room(const struct fp_alloc *a, uint64_t need);

/*
 * Keep the @count clusters at @cls out of every allocation: clusters a
 * chain uses although the FAT marks them free.  Ones in use already are
 * skipped.
 */
enum fp_err fp_alloc_reserve(struct fp_alloc *a, const uint32_t *cls,
			     size_t count);

/*
 * Allocate the @count requests in order and take their clusters; the
 * runs, in request order and in each request's chain order, go to *runs
 * (owned by @a, valid until its next fp_alloc_get() or fp_alloc_free())
 * and *run_count.  Policy, for a file:
 *
 * 1. continue right after last_cl while those clusters are free;
 * 2. for the rest, the first free run that holds all of it, from the
 *    hint to the end, then from cluster 2 (a new chain long enough
 *    starting on its first host-aligned cluster: fp_alloc_set_host());
 * 3. else the largest free runs, one after another (fewest pieces).
 *
 * FP_ALLOC_CONTIG allows only step 1 (with a chain) or one run of @need
 * found as in step 2 (a new chain).  FP_ALLOC_END takes the highest
 * free clusters instead, the top of each run first, the chain going down
 * from run to run.  FP_ALLOC_DIR takes each cluster as the first free one
 * from the hint.
 *
 * FP_E_NOSPC when the volume has too few free clusters, FP_E_NORUN when
 * FP_ALLOC_CONTIG finds no run; *diag says which request and its
 * numbers.  On failure the clusters taken for the requests before stay
 * taken (a plan that fails is dropped).
 */
enum fp_err fp_alloc_get(struct fp_alloc *a, const struct fp_alloc_req *reqs,
			 size_t count, const struct fp_alloc_run **runs,
			 size_t *run_count, struct fp_alloc_diag *diag);

/*
 * The largest free run: *start (0 when no cluster is free) and *count.
 * Reads every FAT window not read yet.
 */
enum fp_err fp_alloc_largest_run(struct fp_alloc *a, uint32_t *start,
				 uint32_t *count);

/* *count = free clusters left, by the bitmap (reads the whole FAT). */
enum fp_err fp_alloc_free_count(struct fp_alloc *a, uint32_t *count);

/*
 * The free-cluster numbers of a change, here once for the planner, the
 * commit and the no-space errors.  Counting the free clusters of the
 * bitmap reads the whole FAT, which on a large FAT32 volume costs more
 * than the rest of a run; the FSInfo count is what Linux and mtools show,
 * so it is used when it can be right: @fi trusted (its lead and structure
 * signatures are right, as Linux and mtools check), its count not
 * "unknown", at most @cluster_count and at least @taken.
 */

/*
 * *count = free clusters once @taken clusters are taken and @freed freed:
 * FSInfo's count @fi minus @taken when it can be right, else the free
 * entries of @bm (reads the whole FAT); plus @freed, at most
 * @cluster_count.
 */
enum fp_err fp_alloc_free_after(struct fp_bitmap *bm,
				const struct fp_fsinfo *fi,
				uint32_t cluster_count, uint32_t taken,
				uint32_t freed, uint32_t *count);

/*
 * The free count to write into FSInfo @fi (trusted) once @taken clusters
 * are taken and @freed freed: its count minus @taken when it can be
 * right, FP_FSINFO_UNKNOWN when it provably cannot (in range but below
 * @taken, or not trusted), a value out of range left as it is; plus
 * @freed, at most @cluster_count, when known.
 */
uint32_t fp_alloc_fsinfo_after(const struct fp_fsinfo *fi,
			       uint32_t cluster_count, uint32_t taken,
			       uint32_t freed);

/* Free @a (not the bitmap); NULL is a no-op. */
void fp_alloc_free(struct fp_alloc *a);

#endif
