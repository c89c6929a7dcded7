/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* mirror.h - the requests that make a volume directory equal a host one. */
#ifndef FP_MIRROR_H
#define FP_MIRROR_H

#include <stdint.h>

#include "fp_err.h"
#include "fs.h"
#include "list.h"
#include "reqs.h"
#include "tree.h"

/* Why fp_mirror_add() failed: the host path or the volume path. */
struct fp_mirror_diag {
	struct fp_tree_diag tree;	/* a host error: tree.path set */
	struct fp_list_diag list;	/* a volume error (fp_list_open) */
};

/* What fp_mirror_add() found. */
struct fp_mirror_stats {
	size_t same;		/* files left as they are */
	size_t compared;	/* of them and the others: content compared */
};

/*
 * --mirror SRC ::DEST: append to @rq the requests that make directory
 * @dest of @fs (the volume path after "::"; made when missing) hold what
 * host directory @src holds, as rsync -r --delete makes it:
 *
 *  - a removal (FP_REQ_RM, FP_EDIT_RECURSIVE) of each entry under @dest
 *    whose name @src does not hold, or holds as the other kind (a file
 *    for a directory or the other way round), all of them first;
 *  - then, in the scanned tree's order, a copy of each directory and
 *    file that @dest lacks (or lost to a removal above), and a copy with
 *    FP_EDIT_REPLACE of each file that differs.
 *
 * Names are compared as VFAT compares them (fp_path_key()), so a name
 * that differs only in case is the same file and keeps its name.  A file
 * differs when its size or its write time differs, the time as a copy
 * would write it (fp_dir_timestamp() of the scanned mtime, @clamp and
 * @utc as for a copy); a file whose time is *@clamp carries no time of
 * its own, and its content is compared too.
 *
 * Nothing is read through damage: the volume side is an fp_list_open()
 * listing.  Errors: FP_E_INVAL when @src is not a directory; those of
 * fp_tree_scan() (diag->tree) and of fp_list_open()/fp_list_next()
 * (diag->list: FP_E_DAMAGED, FP_E_NOTDIR for a @dest that is a file,
 * FP_E_IO ...); FP_E_SRC for a host read of a compared file; FP_E_NOMEM.
 * The requests added before a failure stay in @rq.
 *
 * *@walk: the writers' walk of @fs the listing made, for the plan of
 * these requests to take (fp_plan_opts.walk) rather than walk the volume
 * again; NULL when DEST did not exist (the caller frees it otherwise,
 * fp_damage_free(), also after a failure).
 */
enum fp_err fp_mirror_add(struct fp_reqs *rq, struct fp_fs *fs,
			  const char *src, const char *dest,
			  const int64_t *clamp, int utc,
			  struct fp_mirror_stats *st, struct fp_damage **walk,
			  struct fp_mirror_diag *diag);

#endif
