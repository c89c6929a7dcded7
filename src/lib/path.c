/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* path.c - paths inside a volume: components, keys, walks to a parent. */
#include "path.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "name.h"
#include "util.h"
#include "walk.h"

/* ---- components ----------------------------------------------------- */

int fp_path_next(const char **path, const char **s, size_t *len)
{
	const char *e;

	while (**path == '/')
		(*path)++;
	if (!**path)
		return 0;
	*s = *path;
	e = strchr(*s, '/');
	*len = e ? (size_t)(e - *s) : strlen(*s);
	*path = *s + *len;
	return 1;
}

enum fp_err fp_path_name(const char *s, size_t len, uint16_t *u, size_t *n)
{
	enum fp_err err = fp_name_from_utf8(s, len, u, n);

	return err ? err : fp_name_check(u, *n);
}

static int at_end(const char *path)
{
	while (*path == '/')
		path++;
	return !*path;
}

/* ---- keys ----------------------------------------------------------- */

/* Append one component of a path key: upper-cased, or raw if not UTF-8. */
static void key_component(const char *c, size_t len, char *out, size_t *n)
{
	uint16_t u[FP_LFN_MAX];
	size_t count, i;

	if (fp_name_from_utf8(c, len, u, &count)) {
		memcpy(out + *n, c, len);
		*n += len;
		return;
	}
	for (i = 0; i < count; i++)
		u[i] = fp_name_upcase(u[i]);
	*n += fp_name_to_utf8(u, count, out + *n, 3 * FP_LFN_MAX + 1);
}

/*
 * Each component upper-cased as VFAT folds it, joined by '/'.  Upper-casing
 * within the BMP never makes a UTF-8 sequence longer than 3 bytes per unit,
 * and a raw (non-UTF-8) component keeps its bytes, so 3 * length + 2
 * bytes always suffice.
 */
char *fp_path_key(const char *path)
{
	char *key = malloc(3 * strlen(path) + 3 * FP_LFN_MAX + 2);
	const char *c;
	size_t len, n = 0;

	if (!key)
		return NULL;
	while (fp_path_next(&path, &c, &len)) {
		key[n++] = '/';
		key_component(c, len, key, &n);
	}
	key[n] = '\0';
	return key;
}

int fp_path_same(const char *a, const char *b)
{
	char *ka = fp_path_key(a), *kb = fp_path_key(b);
	int same = ka && kb && !strcmp(ka, kb);

	free(ka);
	free(kb);
	return same;
}

/* ---- directories ---------------------------------------------------- */

void fp_path_walk_init(struct fp_path_walk *w, struct fp_fs *fs,
		       const struct fp_path_ops *ops, void *ctx)
{
	memset(w, 0, sizeof(*w));
	w->fs = fs;
	w->ops = ops;
	w->ctx = ctx;
}

void fp_path_walk_report(struct fp_path_walk *w, char *where,
			 size_t where_len, enum fp_problem *problem)
{
	w->where = where;
	w->where_len = where_len;
	w->problem = problem;
}

void fp_path_walk_allow_reserved(struct fp_path_walk *w)
{
	w->reserved_ok = 1;
}

size_t fp_path_dir_count(const struct fp_path_walk *w)
{
	return w->dir_count;
}

struct fp_dir *fp_path_dir(const struct fp_path_walk *w, size_t i)
{
	assert(i < w->dir_count);
	return w->dirs[i];
}

size_t fp_path_depth(const struct fp_path_walk *w)
{
	return w->trail_count;
}

/* A hash of cluster number @cl that spreads any pattern of clusters. */
static size_t cl_hash(uint32_t cl)
{
	cl ^= cl >> 16;
	cl *= 0x85EBCA6Bu;
	cl ^= cl >> 13;
	cl *= 0xC2B2AE35u;
	return cl ^ (cl >> 16);
}

/* The slot of the directory with first cluster @cl, or the empty one. */
static struct fp_path_slot *slot_of(const struct fp_path_walk *w,
				    uint32_t cl)
{
	size_t mask = w->index_cap - 1, i = cl_hash(cl) & mask;

	while (w->index[i].dir && w->index[i].cl != cl)
		i = (i + 1) & mask;
	return &w->index[i];
}

/* The slot of the directory with first cluster @cl, or NULL. */
static struct fp_path_slot *find_slot(const struct fp_path_walk *w,
				      uint32_t cl)
{
	struct fp_path_slot *s;

	if (!w->index_cap)
		return NULL;
	s = slot_of(w, cl);
	return s->dir ? s : NULL;
}

int fp_path_on_trail(const struct fp_path_walk *w, uint32_t cl)
{
	struct fp_path_slot *s = find_slot(w, cl);

	return s && s->on_path == w->walk_no;
}

struct fp_dir *fp_path_cached(const struct fp_path_walk *w, uint32_t cl)
{
	struct fp_path_slot *s = find_slot(w, cl);

	return s ? w->dirs[s->dir - 1] : NULL;
}

/*
 * Index dirs[@i], unless a directory of its first cluster is there (the
 * first one kept is the one found, as before there was an index); the
 * table is kept at most half full.
 */
static enum fp_err index_add(struct fp_path_walk *w, size_t i)
{
	struct fp_path_slot *old = w->index, *s;
	size_t cap = w->index_cap, j;
	uint32_t cl;

	if (2 * (i + 1) > cap) {
		w->index_cap = cap ? 2 * cap : 64;
		w->index = calloc(w->index_cap, sizeof(*w->index));
		if (!w->index) {
			w->index = old;
			w->index_cap = cap;
			return FP_E_NOMEM;
		}
		for (j = 0; j < cap; j++)
			if (old[j].dir)
				*slot_of(w, old[j].cl) = old[j];
		free(old);
	}
	cl = fp_dir_first_cl(w->dirs[i]);
	s = slot_of(w, cl);
	if (!s->dir) {
		s->dir = i + 1;
		s->cl = cl;
	}
	return FP_OK;
}

enum fp_err fp_path_keep(struct fp_path_walk *w, struct fp_dir *d,
			 struct fp_dir **out)
{
	enum fp_err err;

	err = fp_grow(&w->dirs, &w->dir_cap, w->dir_count, sizeof(*w->dirs));
	if (err) {
		fp_dir_free(d);
		return err;
	}
	w->dirs[w->dir_count++] = d;
	*out = d;
	return index_add(w, w->dir_count - 1);
}

/* The directory at @cl through the load hook, else as it is on disk. */
static enum fp_err load(struct fp_path_walk *w, uint32_t cl,
			struct fp_dir **out)
{
	struct fp_fs *fs = w->fs;
	struct fp_dir *dir;
	enum fp_err err;

	if (w->ops && w->ops->load)
		return w->ops->load(w->ctx, cl, out);
	dir = fp_path_cached(w, cl);
	if (dir) {
		*out = dir;
		return FP_OK;
	}
	err = fp_dir_load(fp_fs_img(fs), fp_fs_geom(fs), fp_fs_fat(fs), cl,
			  &dir);
	return err ? err : fp_path_keep(w, dir, out);
}

void fp_path_walk_release(struct fp_path_walk *w)
{
	size_t i;

	for (i = 0; i < w->dir_count; i++)
		fp_dir_free(w->dirs[i]);
	free(w->dirs);
	free(w->trail);
	free(w->index);
	w->dirs = NULL;
	w->trail = NULL;
	w->index = NULL;
	w->dir_count = w->dir_cap = w->trail_count = w->trail_cap = 0;
	w->index_cap = 0;
}

/* ---- walks ---------------------------------------------------------- */

/* Put the @len bytes at @s into w->where, cut to fit, NUL-terminated. */
static void set_where(struct fp_path_walk *w, const char *s, size_t len)
{
	if (!w->where_len)
		return;
	if (len >= w->where_len)
		len = w->where_len - 1;
	memcpy(w->where, s, len);
	w->where[len] = '\0';
}

/* Directory @cl, which @w keeps, is on the path of this walk. */
static enum fp_err trail_add(struct fp_path_walk *w, uint32_t cl)
{
	enum fp_err err = fp_grow(&w->trail, &w->trail_cap, w->trail_count,
				  sizeof(*w->trail));
	struct fp_path_slot *s = find_slot(w, cl);

	if (err)
		return err;
	assert(s);
	s->on_path = w->walk_no;
	w->trail[w->trail_count++] = cl;
	return FP_OK;
}

/*
 * Into the subdirectory of entry @e: it must have a chain (0 would read
 * as the root) and must not lead back to a directory on the path; then
 * the caller's checks, and the directory is loaded.
 */
static enum fp_err enter(struct fp_path_walk *w, const struct fp_dirent *e,
			 struct fp_dir **out)
{
	struct fp_walk_check c = { NULL, NULL, w->problem,
				   fp_fs_geom(w->fs)->clus_len };
	struct fp_path_slot *s = find_slot(w, e->cl);
	enum fp_err err = FP_OK;

	if (fp_walk_dir_no_chain(&c, e) ||
	    /* on the trail: kept */
	    fp_walk_dir_cycle(&c, e, s && s->on_path == w->walk_no))
		return FP_E_DAMAGED;
	if (w->ops && w->ops->enter)
		err = w->ops->enter(w->ctx, e);
	if (!err)
		err = load(w, e->cl, out);
	return err ? err : trail_add(w, e->cl);
}

/* The directory @u (@n units) in @dir, or what the missing hook makes. */
static enum fp_err step(struct fp_path_walk *w, struct fp_dir **dir,
			const uint16_t *u, size_t n, const char *start,
			size_t len)
{
	int fat32 = fp_fs_geom(w->fs)->type == FP_FAT32;
	struct fp_dirent e;

	if (!fp_dir_lookup(*dir, fat32, u, n, &e)) {
		if (!w->ops || !w->ops->missing)
			return FP_E_NOENT;
		return w->ops->missing(w->ctx, *dir, u, n, start, len, dir);
	}
	if (!(e.attr & FP_ATTR_DIR))
		return FP_E_NOTDIR;
	return enter(w, &e, dir);
}

enum fp_err fp_path_parent(struct fp_path_walk *w, const char **path,
			   uint16_t *u, size_t *n, struct fp_dir **out)
{
	const struct fp_geom *g = fp_fs_geom(w->fs);
	const char *start = *path, *s;
	struct fp_dir *dir;
	enum fp_err err;
	size_t len;

	set_where(w, "/", 1);
	w->trail_count = 0;
	w->walk_no++;
	err = load(w, g->type == FP_FAT32 ? g->root_cl : 0, &dir);
	if (!err)
		err = trail_add(w, fp_dir_first_cl(dir));
	while (!err) {
		if (!fp_path_next(path, &s, &len))
			return FP_E_NAME;	/* empty path or "/" */
		err = fp_path_name(s, len, u, n);
		if (err == FP_E_RESERVED && w->reserved_ok)
			err = FP_OK;
		if (err == FP_E_RESERVED)
			set_where(w, s, len);
		if (err || at_end(*path))
			break;
		set_where(w, start, (size_t)(*path - start));
		err = step(w, &dir, u, *n, start, (size_t)(*path - start));
	}
	if (!err)
		*out = dir;
	return err;
}
