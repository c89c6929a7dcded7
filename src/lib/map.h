/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* map.h - where an existing file's or directory's clusters are (--map). */
#ifndef FP_MAP_H
#define FP_MAP_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"
#include "fs.h"
#include "plan.h"	/* struct fp_extent, struct fp_plan_diag */

/* Where an existing file's (or directory's) clusters are. */
struct fp_map {
	uint32_t size;
	int is_dir;
	uint32_t clusters;
	struct fp_extent *ext;	/* runs of consecutive clusters; owned */
	size_t ext_count;
};

/*
 * Map @path of @fs into *map: its runs of clusters in chain order.  The
 * path is walked by fp_path_parent() without hooks: nothing is checked
 * for damage beyond what the walk refuses, and reserved device names are
 * accepted, as nothing is written.  FP_E_NOFILE or FP_E_NOENT when it
 * does not exist, FP_E_NOTDIR when @path ends in a slash (so it names a
 * directory) but is a file, FP_E_CORRUPT when its chain is broken,
 * FP_E_DAMAGED when a directory on the path has no chain or is its own
 * ancestor; *diag says where (component, problem).  Release with fp_map_release().
 */
enum fp_err fp_map_load(struct fp_fs *fs, const char *path,
			struct fp_map *map, struct fp_plan_diag *diag);

/*
 * The runs of the chain from @start, @count clusters long and sound (as
 * fp_fat_chain() found it), into *@ext, which holds *@cap runs and grows
 * as needed (a caller may reuse it from call to call), and *@ext_count;
 * FP_E_NOMEM, FP_E_IO.
 */
enum fp_err fp_map_runs(struct fp_fat *fat, uint32_t start, uint32_t count,
			struct fp_extent **ext, size_t *cap, size_t *ext_count);

/* Free the runs of @map and clear it; a cleared map may be released. */
void fp_map_release(struct fp_map *map);

#endif
