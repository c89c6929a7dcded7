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
 * request i is a volume path (after any "::") and a size, with its host
 * source for a copy (zeros for a preallocation).  Opaque: made by
 * fp_reqs_new(), read through the fp_reqs_*() accessors below, freed by
 * fp_reqs_free().
 */
struct fp_reqs;

/* A new empty list, or NULL when out of memory. */
struct fp_reqs *fp_reqs_new(void);

/* The number of requests in @l. */
size_t fp_reqs_count(const struct fp_reqs *l);

/* Request @i's volume path (@i < fp_reqs_count()): lives as long as @l. */
const char *fp_reqs_path(const struct fp_reqs *l, size_t i);

/* Request @i's size in bytes (@i < fp_reqs_count()). */
uint64_t fp_reqs_size(const struct fp_reqs *l, size_t i);

/* Request @i's source (@i < fp_reqs_count()): host NULL if none. */
const struct fp_req_src *fp_reqs_src(const struct fp_reqs *l, size_t i);

/* Request @i's edit (@i < fp_reqs_count()): kind FP_REQ_FILE if none. */
const struct fp_req_edit *fp_reqs_edit(const struct fp_reqs *l, size_t i);

/*
 * The requests, their sources and their edits as arrays of
 * fp_reqs_count() elements, as fp_plan_build() and struct fp_plan_opts
 * take them; valid until @l changes or is freed.  NULL while @l is empty.
 */
const struct fp_req *fp_reqs_array(const struct fp_reqs *l);
const struct fp_req_src *fp_reqs_srcs(const struct fp_reqs *l);
const struct fp_req_edit *fp_reqs_edits(const struct fp_reqs *l);

/*
 * Append a request without a source (a preallocation, or a path to map
 * or trim): @path is borrowed and must live as long as @l.
 */
enum fp_err fp_reqs_add(struct fp_reqs *l, const char *path, uint64_t size);

/*
 * Append an edit of volume path @path (rm, mkdir, mv, attr, label: see
 * struct fp_req_edit); @path and @e->to are borrowed and must live as
 * long as @l.
 */
enum fp_err fp_reqs_add_edit(struct fp_reqs *l, const char *path,
			     const struct fp_req_edit *e);

/* As fp_reqs_add_edit(), @path copied and kept by @l: FP_E_NOMEM. */
enum fp_err fp_reqs_add_edit_dup(struct fp_reqs *l, const char *path,
				 const struct fp_req_edit *e);

/*
 * Add @flags (FP_EDIT_*) to request @i's edit (@i < fp_reqs_count()): a
 * copy's file with FP_EDIT_REPLACE may replace an existing file.
 */
void fp_reqs_add_flags(struct fp_reqs *l, size_t i, unsigned flags);

/*
 * Keep scanned tree @t (fp_tree_scan()) as long as @l, whose requests may
 * then borrow its nodes' host paths and data: @t is @l's from now on, and
 * freed at once when it cannot be kept (FP_E_NOMEM).
 */
enum fp_err fp_reqs_keep_tree(struct fp_reqs *l, struct fp_tree *t);

/*
 * Append the request of node @n of a tree kept by @l, copied from host
 * path @src to volume path @dest as fp_reqs_add_copy() places it (none
 * for a directory that goes to the volume's root): FP_E_NOMEM.
 */
enum fp_err fp_reqs_add_node(struct fp_reqs *l, const char *src,
			     const char *dest, const struct fp_tree_node *n);

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
 * merged, and attribute and label edits left out, as they may follow a
 * request that makes or changes the same file: FP_E_DUPPATH with the
 * first such pair in path order, *a < *b
 * (request indexes).  FP_OK when there is none; FP_E_NOMEM.
 */
enum fp_err fp_reqs_find_dup(const struct fp_reqs *l, size_t *a, size_t *b);

/* Drop every request of @l and free what they hold: @l is empty again. */
void fp_reqs_release(struct fp_reqs *l);

/* Free @l and what it holds; NULL is ignored. */
void fp_reqs_free(struct fp_reqs *l);

#endif
