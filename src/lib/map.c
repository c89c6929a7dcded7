/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* map.c - where an existing file's or directory's clusters are (--map). */
#include "map.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "path.h"
#include "util.h"

enum fp_err fp_map_runs(struct fp_fat *fat, uint32_t start, uint32_t count,
			struct fp_extent **ext, size_t *cap, size_t *ext_count)
{
	uint32_t cl = start, i;
	enum fp_err err;
	size_t n = 0;

	for (i = 0; i < count; i++) {
		if (i && (err = fp_fat_get(fat, cl, &cl)))
			return err;
		if (n && (*ext)[n - 1].start + (*ext)[n - 1].count == cl) {
			(*ext)[n - 1].count++;
			continue;
		}
		if (fp_grow(ext, cap, n, sizeof(**ext)))
			return FP_E_NOMEM;
		(*ext)[n].start = cl;
		(*ext)[n++].count = 1;
	}
	*ext_count = n;
	return FP_OK;
}

/*
 * A path that ends in a slash names a directory, as in POSIX path
 * resolution and as mtools reads a target, although the walk skips
 * trailing slashes: a file there is FP_E_NOTDIR, named in @diag by the
 * path without them.
 */
static enum fp_err slash_names_dir(const char *path, const struct fp_map *m,
				   struct fp_plan_diag *diag)
{
	size_t n = strlen(path);

	if (m->is_dir || !n || path[n - 1] != '/')
		return FP_OK;
	while (n && path[n - 1] == '/')
		n--;
	snprintf(diag->component, sizeof(diag->component), "%.*s", (int)n,
		 path);
	return FP_E_NOTDIR;
}

enum fp_err fp_map_load(struct fp_fs *fs, const char *path,
			struct fp_map *map, struct fp_plan_diag *diag)
{
	struct fp_fat *fat = fp_fs_fat(fs);
	int fat32 = fp_fs_geom(fs)->type == FP_FAT32;
	const char *whole = path;
	struct fp_path_walk w;
	uint16_t name[FP_LFN_MAX];
	struct fp_map m = { 0 };
	struct fp_dirent e;
	struct fp_dir *dir;
	uint32_t last;
	enum fp_err err;
	size_t n, cap = 0;

	memset(diag, 0, sizeof(*diag));
	fp_path_walk_init(&w, fs, NULL, NULL);
	fp_path_walk_allow_reserved(&w);	/* --map writes nothing */
	fp_path_walk_report(&w, diag->component, sizeof(diag->component),
			    &diag->problem);
	err = fp_path_parent(&w, &path, name, &n, &dir);
	if (!err && !fp_dir_lookup(dir, fat32, name, n, &e))
		err = FP_E_NOFILE;
	if (!err) {
		m.size = e.size;
		m.is_dir = !!(e.attr & FP_ATTR_DIR);
		if (e.cl)
			err = fp_fat_chain(fat, e.cl, &m.clusters, &last);
	}
	if (!err && e.cl)
		err = fp_map_runs(fat, e.cl, m.clusters, &m.ext, &cap,
				  &m.ext_count);
	if (!err)
		err = slash_names_dir(whole, &m, diag);
	fp_path_walk_release(&w);
	if (err) {
		fp_map_release(&m);
		return err;
	}
	*map = m;
	return FP_OK;
}

void fp_map_release(struct fp_map *map)
{
	free(map->ext);
	memset(map, 0, sizeof(*map));
}
