/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* reqs.h - the requests of a run: where each file and copied node goes. */
#ifndef FP_REQS_H
#define FP_REQS_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"
#include "plan.h"
#include "tree.h"

/*
 * The requests of one run, in order, as fp_plan_build() takes them:
 * reqs[i] (a volume path, after any "::", and a size) and srcs[i] (its
 * host source for a copy, zeros for a preallocation).  Zero it before
 * use; release with fp_reqs_release().
 */
struct fp_reqs {
	struct fp_req *reqs;
	struct fp_req_src *srcs;	/* as many as reqs */
	size_t count, cap;
	struct fp_tree **trees;	/* scanned sources: own srcs' host and data */
	size_t tree_count, tree_cap;
	char **owned;		/* copies' volume paths: own their reqs' path */
	size_t owned_count, owned_cap;
};

/*
 * Append a request without a source (a preallocation, or a path to map
 * or trim): @path is borrowed and must live as long as @l.
 */
enum fp_err fp_reqs_add(struct fp_reqs *l, const char *path, uint64_t size);

/*
 * SRC ::DEST: scan host file or directory @src (fp_tree_scan(), with
 * @clamp) and append a request for each of its nodes, in the tree's
 * order.  @dest is the volume path after its "::".  A directory's root
 * goes to @dest itself (none for the volume's root, which exists), its
 * nodes to @dest/REL; a file goes to @dest, or, when @dest ends in a
 * slash or is empty, into it under the last component of @src.  The
 * tree is kept by @l.
 *
 * Fails as fp_tree_scan() does, *@diag naming the host path; or with
 * FP_E_NOMEM and diag->path empty once the scan is done (the requests
 * added so far stay).
 */
enum fp_err fp_reqs_add_copy(struct fp_reqs *l, const char *src,
			     const char *dest, const int64_t *clamp,
			     struct fp_tree_diag *diag);

/*
 * Two requests that name the same file (fp_path_key(): as VFAT compares
 * names), directories of copies left out, as a directory copied twice is
 * merged: FP_E_DUPPATH with the first such pair in path order, *a < *b
 * (request indexes).  FP_OK when there is none; FP_E_NOMEM.
 */
enum fp_err fp_reqs_find_dup(const struct fp_reqs *l, size_t *a, size_t *b);

/* Free what @l holds and zero it. */
void fp_reqs_release(struct fp_reqs *l);

#endif
