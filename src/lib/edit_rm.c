/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * edit_rm.c - plan rm [-r]: the entry set of the file or directory marked
 * deleted in its directory, and every chain of it (of the whole tree
 * with -r) freed.  The commit writes the directory before it frees
 * (docs/DESIGN.md, "Commit order"), so that a crash leaves the entry or
 * lost clusters.  Nothing is freed that the tree walk found damaged or
 * that a second chain shares: that would free another file's clusters.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "name.h"
#include "plan_impl.h"
#include "util.h"

/* A directory of the tree being removed, and how far its walk is. */
struct rm_frame {
	struct fp_dir *dir;	/* the walk's, kept */
	struct fp_dir_iter it;
	size_t path_len;	/* rm_walk.path up to this directory's parent */
};

/*
 * The walk of a tree to remove, without recursion (a tree may be 60,000
 * levels deep): a stack of frames, the path of the directory on top (for
 * a failure's message), and the first clusters of the directories met,
 * so that an entry that leads back into the tree is a cycle.
 */
struct rm_walk {
	struct fp_plan *p;
	int fat32;
	uint32_t bound;		/* clusters numbers are below it */
	struct fp_bitset seen;	/* directories of the tree */
	struct rm_frame *frames;
	size_t count, cap;
	char *path;		/* the top directory's path, NUL-terminated */
	size_t path_len, path_cap;
	uint32_t freed;		/* clusters freed so far */
	int earlier;		/* a directory of the tree holds an entry
				 * an earlier request changed */
};

static enum fp_err walk_init(struct rm_walk *w, struct fp_plan *p,
			     const char *path)
{
	const struct fp_geom *g = fp_fs_geom(p->fs);

	memset(w, 0, sizeof(*w));
	w->p = p;
	w->fat32 = g->type == FP_FAT32;
	w->bound = g->cluster_count + 2;
	if (fp_bitset_init(&w->seen, w->bound))
		return FP_E_NOMEM;
	w->path_len = strlen(path);
	w->path_cap = w->path_len + 1;
	w->path = malloc(w->path_cap);
	if (!w->path)
		return FP_E_NOMEM;
	memcpy(w->path, path, w->path_cap);
	return FP_OK;
}

static void walk_release(struct rm_walk *w)
{
	fp_bitset_release(&w->seen);
	free(w->frames);
	free(w->path);
}

/* @e's name as UTF-8 into @out of @len bytes, cut if need be. */
static void entry_name(const struct fp_dirent *e, char *out, size_t len)
{
	uint16_t u[12];
	size_t n;

	if (e->lfn_count) {
		fp_name_to_utf8(e->lfn, e->lfn_count, out, len);
		return;
	}
	n = fp_name_sfn_decode(e->sfn, e->ntres, u);
	fp_name_to_utf8(u, n, out, len);
}

/* Append "/NAME" of @e to the path, for the directory pushed. */
static enum fp_err path_push(struct rm_walk *w, const struct fp_dirent *e)
{
	char name[3 * FP_LFN_MAX + 1], *q;
	size_t n;

	entry_name(e, name, sizeof(name));
	n = strlen(name);
	if (w->path_len + n + 2 > w->path_cap) {
		q = realloc(w->path, 2 * (w->path_len + n + 2));
		if (!q)
			return FP_E_NOMEM;
		w->path = q;
		w->path_cap = 2 * (w->path_len + n + 2);
	}
	w->path[w->path_len++] = '/';
	memcpy(w->path + w->path_len, name, n + 1);
	w->path_len += n;
	return FP_OK;
}

/* The diag names entry @e of the directory on top. */
static void name_failure(struct rm_walk *w, const struct fp_dirent *e)
{
	char *out = w->p->diag->component;
	size_t len = sizeof(w->p->diag->component), n;

	n = (size_t)snprintf(out, len, "%s/", w->path);
	if (n < len - 1)
		entry_name(e, out + n, len - n);
}

/*
 * The checks the writers make on an entry (walk.h) before it goes: a
 * valid short name; a directory also has size 0, a chain, and does not
 * lead back to the root, to a directory on the path to the tree or into
 * the tree itself.
 */
static enum fp_err check_entry(struct rm_walk *w, const struct fp_dirent *e)
{
	struct fp_walk_check c = fp_plan_gate(w->p);
	const struct fp_geom *g = fp_fs_geom(w->p->fs);
	int up;

	if (fp_walk_bad_name(&c, e))
		return FP_E_DAMAGED;
	if (e->cl && (e->cl < 2 || e->cl >= w->bound))
		return fp_plan_damaged(w->p, FP_P_BAD_START);
	if (!(e->attr & FP_ATTR_DIR))
		return FP_OK;
	if (fp_walk_dir_size(&c, e) || fp_walk_dir_no_chain(&c, e))
		return FP_E_DAMAGED;
	up = (w->fat32 && e->cl == g->root_cl) ||
	     fp_path_on_trail(&w->p->walk, e->cl) ||
	     fp_bitset_test(&w->seen, e->cl);
	return fp_walk_dir_cycle(&c, e, up) ? FP_E_DAMAGED : FP_OK;
}

/*
 * Free the chain of entry @e (none for cluster 0), once the tree walk
 * found it sound and no cluster of it in a second chain.
 */
static enum fp_err free_entry(struct rm_walk *w, const struct fp_dirent *e,
			      uint32_t *have)
{
	uint32_t last;
	enum fp_err err;

	*have = 0;
	if (!e->cl)
		return FP_OK;
	err = fp_plan_check_chain(w->p, e->cl);
	if (!err)
		err = fp_plan_file_chain(w->p, e, have, &last);
	if (!err && *have)
		err = fp_change_free_chain(w->p->cs, 0, e->cl, *have);
	if (!err)
		w->freed += *have;
	return err;
}

/*
 * 1 if an earlier request of the plan changed directory @d: a set put
 * in it, or clusters added.  Freeing it would lose that change.
 */
static int changed(const struct fp_dir *d)
{
	return fp_dir_put_end(d) ||
	       fp_dir_cl_count(d) != fp_dir_disk_cl_count(d);
}

/* Into the subdirectory of entry @e (checked): loaded, its chain freed. */
static enum fp_err push(struct rm_walk *w, const struct fp_dirent *e)
{
	struct fp_dir *d;
	size_t len = w->path_len;
	uint32_t have;
	enum fp_err err;

	if (fp_bitset_set(&w->seen, e->cl))
		return FP_E_NOMEM;
	if (fp_plan_dir_changed(w->p, e->cl))
		w->earlier = 1;
	err = fp_plan_get_dir(w->p, e->cl, &d);
	if (!err && changed(d))
		err = FP_E_DUPPATH;
	if (!err)
		err = fp_grow(&w->frames, &w->cap, w->count,
			      sizeof(*w->frames));
	if (!err)
		err = free_entry(w, e, &have);
	if (!err && w->count)	/* the tree's top is the request's path */
		err = path_push(w, e);
	if (err)
		return err;
	w->frames[w->count].dir = d;
	w->frames[w->count].it.pos = 0;
	w->frames[w->count].it.orphans = 0;
	w->frames[w->count++].path_len = len;
	return FP_OK;
}

/* The next entry of the directory on top, or pop it; 0 when done. */
static int next_entry(struct rm_walk *w, struct fp_dirent *e)
{
	struct rm_frame *fr;

	while (w->count) {
		fr = &w->frames[w->count - 1];
		while (fp_dir_next(fr->dir, w->fat32, &fr->it, e))
			if (!fp_dir_dots(e->sfn) && !fp_dir_is_label(e->attr))
				return 1;
		w->path_len = fr->path_len;
		w->path[w->path_len] = '\0';
		w->count--;
	}
	return 0;
}

/* Free every chain below the directory pushed first, depth first. */
static enum fp_err walk_tree(struct rm_walk *w)
{
	struct fp_dirent e;
	uint32_t have;
	enum fp_err err = FP_OK;

	while (!err && next_entry(w, &e)) {
		err = check_entry(w, &e);
		if (!err && (e.attr & FP_ATTR_DIR))
			err = push(w, &e);
		else if (!err)
			err = free_entry(w, &e, &have);
		if (err)
			name_failure(w, &e);
	}
	return err;
}

/* Without -r: the directory pushed holds no entry. */
static enum fp_err check_empty(struct rm_walk *w)
{
	struct fp_dirent e;

	return next_entry(w, &e) ? FP_E_NOTEMPTY : FP_OK;
}

/*
 * An earlier request of the plan that changed an entry of a directory
 * of the tree (extended, trimmed, ...): freeing the tree would lose it.
 * push() asked of each directory it entered (fp_plan_dir_changed()).
 */
static enum fp_err check_earlier(const struct rm_walk *w)
{
	return w->earlier ? FP_E_DUPPATH : FP_OK;
}

/* The entry @e of the request's path: its chains, or its tree's. */
static enum fp_err remove_entry(struct rm_walk *w, const struct fp_dirent *e,
				unsigned flags, struct fp_plan_file *f)
{
	enum fp_err err = check_entry(w, e);

	if (!err && !(e->attr & FP_ATTR_DIR))
		return free_entry(w, e, &f->old_clusters);
	if (!err)
		err = push(w, e);
	if (!err)
		f->old_clusters = w->freed;
	if (!err && (flags & FP_EDIT_RECURSIVE))
		err = walk_tree(w);
	else if (!err)
		err = check_empty(w);
	return err ? err : check_earlier(w);	/* a directory: its tree */
}

/* 1 if @path has no component: the root. */
static int is_root(const char *path)
{
	const char *s;
	size_t len;

	return !fp_path_next(&path, &s, &len);
}

enum fp_err fp_edit_rm(struct fp_plan *p, const struct fp_req *r,
		       const struct fp_req_edit *ed, struct fp_plan_file *f)
{
	uint16_t name[FP_LFN_MAX];
	size_t n, len = strlen(r->path);
	struct fp_dirent e;
	struct fp_dir *dir;
	struct rm_walk w;
	enum fp_err err;

	if (is_root(r->path))
		return FP_E_ROOT;
	err = fp_plan_find_entry(p, r->path, FP_PLAN_NAME_ENTRY, name, &n,
				 &dir, &e);
	if (err)
		return err;
	if (fp_plan_same_file(p, dir, e.slot))
		return FP_E_DUPPATH;
	if (!(e.attr & FP_ATTR_DIR) && len && r->path[len - 1] == '/')
		return FP_E_NOTDIR;
	err = walk_init(&w, p, r->path);
	if (!err)
		err = remove_entry(&w, &e, ed->flags, f);
	if (!err) {
		fp_dir_delete(dir, e.first_slot, e.slot - e.first_slot + 1,
			      FP_DIR_REUSE);
		f->action = FP_ACT_REMOVE;
		f->dir = dir;
		f->slot = e.slot;
		f->old_size = e.size;
		f->freed = w.freed;
	}
	walk_release(&w);
	return err;
}
