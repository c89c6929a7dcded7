/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* list.c - the files and directories under a volume path (--list). */
#include "list.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "damage.h"
#include "dir.h"
#include "le.h"
#include "map.h"
#include "name.h"
#include "path.h"
#include "util.h"
#include "walk.h"

#define LIST_KEEP_MAX (16u << 20)	/* bytes of directories kept loaded */
#define NAME_MAX_LEN (3 * FP_LFN_MAX + 1)
#define LIST_READ (2u << 20)	/* bytes per read of fp_list_hash() */

/* A directory on the path from the root to the entry being listed. */
struct list_frame {
	uint32_t cl;		/* first cluster; 0: the fixed root */
	struct fp_dir *dir;
	int loaded;		/* dir holds it; else read it again */
	struct fp_dir_iter it;	/* where its entries go on */
	size_t path_len;	/* bytes of its path ("" for the root) */
};

struct fp_list {
	struct fp_fs *fs;	/* borrowed */
	const struct fp_geom *g;
	int fat32;
	unsigned flags;
	struct fp_damage *dmg;	/* owned, unless dmg_borrowed */
	int dmg_borrowed;	/* fp_list_open_again(): its from's */
	struct list_frame *frames;	/* owned; root first */
	size_t frame_count, frame_cap;
	size_t base;		/* frames above the start: done when the
				 * listing pops back to them */
	size_t kept;		/* bytes of the loaded directories */
	uint32_t *onpath;	/* open addressing: first clusters of the
				 * frames' directories (0: empty slot) */
	size_t onpath_cap;	/* a power of two */
	char *path;		/* the current entry's path; owned */
	size_t path_cap;
	struct fp_dirent start;	/* the start entry, returned first */
	int have_start;
	int descend;		/* the last entry returned is a directory
				 * whose entries come next */
	struct fp_list_entry cur;
	struct fp_extent *ext;	/* the runs of cur; owned */
	size_t ext_cap;
	uint8_t *buf;		/* LIST_READ bytes for fp_list_hash(); owned */
	struct fp_sha256 hash0;	/* a hash just set up, if hash0_set: */
	int hash0_set;		/* copied for each file, so that the CPU is
				 * asked once per listing, not per file */
	enum fp_sha256_impl hash0_impl;
	enum fp_err err;	/* the first failure, returned again */
	char *start_path;	/* as given to fp_list_open(); owned */
	int at_dir;		/* fp_list_open_dir(): start at dir_cl */
	uint32_t dir_cl;
	uint8_t label[11];	/* the root's label entry, if has_label */
	int has_label;
};

/* ---- directories on the path ---------------------------------------- */

static size_t onpath_slot(const struct fp_list *l, uint32_t cl)
{
	return (size_t)(cl * 2654435761u) & (l->onpath_cap - 1);
}

/* 1 if a directory on the path has first cluster @cl (not 0). */
static int on_path(const struct fp_list *l, uint32_t cl)
{
	size_t i;

	if (!l->onpath_cap)
		return 0;
	for (i = onpath_slot(l, cl); l->onpath[i];
	     i = (i + 1) & (l->onpath_cap - 1))
		if (l->onpath[i] == cl)
			return 1;
	return 0;
}

static void onpath_put(struct fp_list *l, uint32_t cl)
{
	size_t i;

	for (i = onpath_slot(l, cl); l->onpath[i];
	     i = (i + 1) & (l->onpath_cap - 1))
		;
	l->onpath[i] = cl;
}

/* Add @cl (not 0), kept at most half full: the table grows by doubling. */
static enum fp_err onpath_add(struct fp_list *l, uint32_t cl)
{
	uint32_t *old = l->onpath;
	size_t i, old_cap = l->onpath_cap;

	if (2 * (l->frame_count + 1) > old_cap) {
		l->onpath = calloc(old_cap ? 2 * old_cap : 64,
				   sizeof(*l->onpath));
		if (!l->onpath) {
			l->onpath = old;
			return FP_E_NOMEM;
		}
		l->onpath_cap = old_cap ? 2 * old_cap : 64;
		for (i = 0; i < old_cap; i++)
			if (old[i])
				onpath_put(l, old[i]);
		free(old);
	}
	onpath_put(l, cl);
	return FP_OK;
}

/* Take @cl out of the set, moving back the entries that probed past it. */
static void onpath_del(struct fp_list *l, uint32_t cl)
{
	size_t mask = l->onpath_cap - 1, i, j, k;

	for (i = onpath_slot(l, cl); l->onpath[i] != cl; i = (i + 1) & mask)
		assert(l->onpath[i]);
	l->onpath[i] = 0;
	for (j = (i + 1) & mask; l->onpath[j]; j = (j + 1) & mask) {
		k = onpath_slot(l, l->onpath[j]);
		/* leave it when its home lies cyclically in (i, j] */
		if (i <= j ? (i < k && k <= j) : (i < k || k <= j))
			continue;
		l->onpath[i] = l->onpath[j];
		l->onpath[j] = 0;
		i = j;
	}
}

/* Cluster @cl of a directory or file is in a second chain too. */
static int shared_in(const struct fp_list *l, const uint32_t *cls,
		     uint32_t count)
{
	uint32_t i;

	if (!fp_damage_shared_count(l->dmg))
		return 0;
	for (i = 0; i < count; i++)
		if (fp_damage_shared(l->dmg, cls[i]))
			return 1;
	return 0;
}

/* Load frame @f's directory, checked for clusters another chain has. */
static enum fp_err frame_load(struct fp_list *l, struct list_frame *f,
			      enum fp_problem *problem)
{
	enum fp_err err;

	err = fp_dir_load(fp_fs_img(l->fs), l->g, fp_fs_fat(l->fs), f->cl,
			  &f->dir);
	if (err)
		return err;
	f->loaded = 1;
	l->kept += (size_t)fp_dir_count(f->dir) * FP_DIRENT_LEN;
	if (shared_in(l, fp_dir_cls(f->dir), fp_dir_cl_count(f->dir))) {
		*problem = FP_P_CROSS_LINK;
		return FP_E_DAMAGED;
	}
	return FP_OK;
}

static void frame_drop(struct fp_list *l, struct list_frame *f)
{
	if (!f->loaded)
		return;
	l->kept -= (size_t)fp_dir_count(f->dir) * FP_DIRENT_LEN;
	fp_dir_free(f->dir);
	f->dir = NULL;
	f->loaded = 0;
}

/* Push the directory @cl, whose path is the first @path_len bytes. */
static enum fp_err frame_push(struct fp_list *l, uint32_t cl,
			      size_t path_len, enum fp_problem *problem)
{
	struct list_frame *f;
	enum fp_err err;

	if (fp_grow(&l->frames, &l->frame_cap, l->frame_count,
		    sizeof(*l->frames)))
		return FP_E_NOMEM;
	if (cl && (err = onpath_add(l, cl)))
		return err;
	/* beyond the budget, the parent is read again on the way back */
	if (l->frame_count &&
	    l->kept + FP_DIR_MAX_ENTRIES * FP_DIRENT_LEN > LIST_KEEP_MAX)
		frame_drop(l, &l->frames[l->frame_count - 1]);
	f = &l->frames[l->frame_count++];
	memset(f, 0, sizeof(*f));
	f->cl = cl;
	f->path_len = path_len;
	return frame_load(l, f, problem);
}

static void frame_pop(struct fp_list *l)
{
	struct list_frame *f = &l->frames[--l->frame_count];

	frame_drop(l, f);
	if (f->cl)
		onpath_del(l, f->cl);
}

/* ---- entries -------------------------------------------------------- */

/* The days of @month (1..12) of @year, Gregorian (2100 is no leap year). */
static int month_days(int year, int month)
{
	static const uint8_t days[12] = {
		31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31
	};
	int leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);

	assert(month >= 1 && month <= 12);
	return days[month - 1] + (month == 2 && leap);
}

void fp_list_time_decode(uint16_t date, uint16_t time, uint8_t tenth,
			 struct fp_list_time *t)
{
	memset(t, 0, sizeof(*t));
	t->date = date;
	t->time = time;
	t->tenth = tenth;
	t->year = 1980 + (date >> 9);
	t->month = (date >> 5) & 0x0F;
	t->day = date & 0x1F;
	t->hour = time >> 11;
	t->minute = (time >> 5) & 0x3F;
	t->second = (time & 0x1F) * 2 + tenth / 100;
	t->centi = tenth % 100;
	t->valid = t->month >= 1 && t->month <= 12 && t->day >= 1 &&
		   t->day <= month_days(t->year, t->month) &&
		   t->hour <= 23 && t->minute <= 59 && t->second <= 59 &&
		   tenth <= 199;
}

/* Append entry @e's name to the path of its directory (@dir_len bytes). */
static enum fp_err path_set(struct fp_list *l, size_t dir_len,
			    const struct fp_dirent *e)
{
	uint16_t sname[12];
	size_t n;

	while (l->path_cap < dir_len + 1 + NAME_MAX_LEN) {
		size_t cap = l->path_cap ? 2 * l->path_cap : 1024;
		char *p = realloc(l->path, cap);

		if (!p)
			return FP_E_NOMEM;
		l->path = p;
		l->path_cap = cap;
	}
	l->path[dir_len] = '/';
	if (e->lfn_count) {
		n = fp_name_to_utf8(e->lfn, e->lfn_count, l->path + dir_len + 1,
				    NAME_MAX_LEN);
	} else {
		n = fp_name_sfn_decode(e->sfn, e->ntres, sname);
		n = fp_name_to_utf8(sname, n, l->path + dir_len + 1,
				    NAME_MAX_LEN);
	}
	l->cur.path = l->path;
	l->cur.path_len = dir_len + 1 + n;
	l->cur.name = l->path + dir_len + 1;
	return FP_OK;
}

/*
 * The checks of entry @e that the walk does not mark on a chain, then
 * the marks of its chain: *problem and 1 if it is damaged.
 */
static int entry_damaged(struct fp_list *l, const struct fp_dirent *e,
			 enum fp_problem *problem)
{
	struct fp_walk_check c = { NULL, NULL, problem, l->g->clus_len };

	if (fp_walk_bad_name(&c, e))
		return 1;
	if (e->attr & FP_ATTR_DIR) {
		if (fp_walk_dir_size(&c, e) || fp_walk_dir_no_chain(&c, e) ||
		    fp_walk_dir_cycle(&c, e, on_path(l, e->cl) ||
				      (l->fat32 && e->cl == l->g->root_cl)))
			return 1;
	}
	if (e->cl && (*problem = fp_damage_chain(l->dmg, e->cl)) != FP_P_COUNT)
		return 1;
	return 0;
}

/* The chain of @e: clusters, runs, and the checks the runs make. */
static enum fp_err entry_chain(struct fp_list *l, const struct fp_dirent *e,
			       enum fp_problem *problem)
{
	struct fp_walk_check c = { NULL, NULL, problem, l->g->clus_len };
	struct fp_fat *fat = fp_fs_fat(l->fs);
	uint32_t n = 0, last, i, k;
	size_t runs = 0;
	enum fp_err err;

	if (e->cl && (err = fp_fat_chain(fat, e->cl, &n, &last))) {
		*problem = FP_P_CHAIN_BAD;
		return err == FP_E_CORRUPT ? FP_E_DAMAGED : err;
	}
	if (!(e->attr & FP_ATTR_DIR) && fp_walk_chain_short(&c, e, n))
		return FP_E_DAMAGED;
	l->cur.clusters = n;
	l->cur.runs = NULL;
	l->cur.run_count = 0;
	if (!n || ((l->flags & FP_LIST_NO_RUNS) &&
		   !fp_damage_shared_count(l->dmg)))
		return FP_OK;
	err = fp_map_runs(fat, e->cl, n, &l->ext, &l->ext_cap, &runs);
	if (err)
		return err;
	for (i = 0; i < runs && fp_damage_shared_count(l->dmg); i++)
		for (k = 0; k < l->ext[i].count; k++)
			if (fp_damage_shared(l->dmg, l->ext[i].start + k)) {
				*problem = FP_P_CROSS_LINK;
				return FP_E_DAMAGED;
			}
	if (!(l->flags & FP_LIST_NO_RUNS)) {
		l->cur.runs = l->ext;
		l->cur.run_count = runs;
	}
	return FP_OK;
}

/* Fill l->cur from @e, at @depth, its path already set. */
static void entry_fill(struct fp_list *l, const struct fp_dirent *e,
		       unsigned depth, const uint8_t *raw)
{
	struct fp_list_entry *c = &l->cur;
	uint16_t sname[12];
	size_t n;

	c->depth = depth;
	memcpy(c->sfn, e->sfn, sizeof(c->sfn));
	n = fp_name_sfn_decode(e->sfn, 0, sname);
	fp_name_to_utf8(sname, n, c->alias, sizeof(c->alias));
	c->has_lfn = e->lfn_count != 0;
	c->attr = e->attr;
	c->ntres = e->ntres;
	c->size = e->size;
	c->first_cl = e->cl;
	c->slot = e->slot;
	c->first_slot = e->first_slot;
	fp_list_time_decode(fp_le16(raw + DIR_CRT_DATE),
			    fp_le16(raw + DIR_CRT_TIME), raw[DIR_CRT_TENTH],
			    &c->created);
	fp_list_time_decode(fp_le16(raw + DIR_WRT_DATE),
			    fp_le16(raw + DIR_WRT_TIME), 0, &c->modified);
	fp_list_time_decode(fp_le16(raw + DIR_ACC_DATE), 0, 0, &c->accessed);
}

/*
 * Make entry @e (whose 32 bytes are @raw) of the directory whose path is
 * @dir_len bytes the current one, or fail with @diag set.
 */
static enum fp_err entry_make(struct fp_list *l, const struct fp_dirent *e,
			      const uint8_t *raw, size_t dir_len,
			      unsigned depth, struct fp_list_diag *diag)
{
	enum fp_problem problem = FP_P_COUNT;
	enum fp_err err;

	err = path_set(l, dir_len, e);
	if (err)
		return err;
	if (entry_damaged(l, e, &problem))
		err = FP_E_DAMAGED;
	if (!err)
		err = entry_chain(l, e, &problem);
	if (err == FP_E_DAMAGED) {
		diag->problem = problem;
		free(diag->path);
		diag->path = strndup(l->path, l->cur.path_len);
		return err;
	}
	if (!err)
		entry_fill(l, e, depth, raw);
	return err;
}

/* ---- the walk ------------------------------------------------------- */

/* Fail @l with @err for good. */
static enum fp_err list_fail(struct fp_list *l, enum fp_err err)
{
	if (!l->err)
		l->err = err;
	return l->err;
}

/* Set @diag's path to the first @len bytes of @path. */
static void diag_at(struct fp_list_diag *diag, const char *path, size_t len,
		    enum fp_problem problem)
{
	free(diag->path);
	diag->path = strndup(len ? path : "/", len ? len : 1);
	diag->problem = problem;
}

/* Go into the directory of the entry just returned. */
static enum fp_err list_descend(struct fp_list *l, struct fp_list_diag *diag)
{
	enum fp_problem problem = FP_P_COUNT;
	enum fp_err err;

	l->descend = 0;
	err = frame_push(l, l->cur.first_cl, l->cur.path_len, &problem);
	if (err == FP_E_DAMAGED)
		diag_at(diag, l->path, l->cur.path_len, problem);
	return err;
}

/* The next entry of the top frame's directory, or 0 at its end. */
static enum fp_err list_step(struct fp_list *l, struct fp_list_diag *diag,
			     int *got)
{
	struct list_frame *f = &l->frames[l->frame_count - 1];
	enum fp_problem problem = FP_P_COUNT;
	struct fp_dir_iter it;
	struct fp_dirent e;
	enum fp_err err;

	*got = 0;
	if (!f->loaded) {	/* dropped for the budget: read it again */
		it = f->it;
		err = frame_load(l, f, &problem);
		if (err)
			return err;
		f->it = it;
	}
	while (fp_dir_next(f->dir, l->fat32, &f->it, &e)) {
		if (fp_dir_is_label(e.attr) || fp_dir_dots(e.sfn))
			continue;
		err = entry_make(l, &e, fp_dir_ent(f->dir, e.slot),
				 f->path_len,
				 (unsigned)(l->frame_count - l->base), diag);
		if (err)
			return err;
		l->descend = !!(e.attr & FP_ATTR_DIR);
		*got = 1;
		return FP_OK;
	}
	return FP_OK;
}

enum fp_err fp_list_next(struct fp_list *l, const struct fp_list_entry **e,
			 struct fp_list_diag *diag)
{
	enum fp_err err = FP_OK;
	int got = 0;

	if (l->err)
		return l->err;
	*e = NULL;
	if (l->have_start) {
		l->have_start = 0;
		*e = &l->cur;	/* made and checked by fp_list_open() */
		return FP_OK;
	}
	if (l->descend && (err = list_descend(l, diag)))
		return list_fail(l, err);
	while (l->frame_count > l->base) {
		err = list_step(l, diag, &got);
		if (err)
			return list_fail(l, err);
		if (got) {
			*e = &l->cur;
			return FP_OK;
		}
		frame_pop(l);
	}
	return FP_OK;
}

/* ---- opening -------------------------------------------------------- */

/* @diag names the component @s (@len bytes) of the top frame's directory. */
static void diag_component(struct fp_list *l, const char *s, size_t len,
			   struct fp_list_diag *diag)
{
	size_t dir_len = l->frames[l->frame_count - 1].path_len;

	free(diag->path);
	diag->path = malloc(dir_len + len + 2);
	if (!diag->path)
		return;
	if (dir_len)
		memcpy(diag->path, l->path, dir_len);
	diag->path[dir_len] = '/';
	memcpy(diag->path + dir_len + 1, s, len);
	diag->path[dir_len + 1 + len] = '\0';
	diag->problem = FP_P_COUNT;
}

/*
 * Find the component @s (@len bytes) in the top frame's directory and
 * make it the current entry; a directory that is not the @last
 * component is pushed.
 */
static enum fp_err open_step(struct fp_list *l, const char *s, size_t len,
			     int last, struct fp_list_diag *diag)
{
	struct list_frame *f = &l->frames[l->frame_count - 1];
	uint16_t u[FP_LFN_MAX];
	enum fp_err err;
	size_t n;
	int dir;

	if (fp_name_from_utf8(s, len, u, &n) ||
	    !fp_dir_lookup(f->dir, l->fat32, u, n, &l->start)) {
		diag_component(l, s, len, diag);
		return last ? FP_E_NOFILE : FP_E_NOENT;
	}
	err = entry_make(l, &l->start, fp_dir_ent(f->dir, l->start.slot),
			 f->path_len, 0, diag);
	if (err)
		return err;
	dir = !!(l->start.attr & FP_ATTR_DIR);
	if (!last && !dir) {
		diag_at(diag, l->path, l->cur.path_len, FP_P_COUNT);
		return FP_E_NOTDIR;
	}
	l->descend = dir;
	return last ? FP_OK : list_descend(l, diag);
}

/* The first label entry of the root (frame 0), as --verify reads it. */
static void root_label(struct fp_list *l)
{
	struct fp_dir_iter it = { 0, 0 };
	struct fp_dirent e;

	l->has_label = 0;
	while (fp_dir_next(l->frames[0].dir, l->fat32, &it, &e)) {
		if (!fp_dir_is_label(e.attr))
			continue;
		if (!(e.attr & FP_ATTR_DIR)) {
			l->has_label = 1;
			memcpy(l->label, e.sfn, sizeof(l->label));
		}
		return;
	}
}

/* Walk @path from the root to the start, which comes first if named. */
static enum fp_err list_start(struct fp_list *l, const char *path,
			      struct fp_list_diag *diag)
{
	enum fp_problem problem = FP_P_COUNT;
	uint32_t root = l->fat32 ? l->g->root_cl : 0;
	const char *whole = path, *s, *peek, *s2;
	size_t len, len2, n = strlen(whole);
	enum fp_err err;
	int last;

	if ((problem = fp_damage_chain(l->dmg, root)) != FP_P_COUNT) {
		diag_at(diag, "/", 1, problem);
		return FP_E_DAMAGED;
	}
	err = frame_push(l, root, 0, &problem);
	if (err == FP_E_DAMAGED)
		diag_at(diag, "/", 1, problem);
	if (!err)
		root_label(l);
	while (!err && fp_path_next(&path, &s, &len)) {
		peek = path;
		last = !fp_path_next(&peek, &s2, &len2);
		err = open_step(l, s, len, last, diag);
		if (!err && last) {
			l->have_start = 1;
			if (!l->descend && whole[n - 1] == '/') {
				diag_at(diag, l->path, l->cur.path_len,
					FP_P_COUNT);
				err = FP_E_NOTDIR;
			}
		}
	}
	l->base = l->frame_count - (l->have_start ? 0 : 1);
	return err;
}

/*
 * Start at the directory l->dir_cl whose path is l->start_path, without
 * a walk from the root: its entries come at depth 1.
 */
static enum fp_err dir_start(struct fp_list *l, struct fp_list_diag *diag)
{
	enum fp_problem problem = FP_P_COUNT;
	size_t n = strlen(l->start_path);
	enum fp_err err;

	while (n && l->start_path[n - 1] == '/')
		n--;	/* the root: "" */
	if (n + 1 > l->path_cap) {
		char *p = realloc(l->path, n + 1);

		if (!p)
			return FP_E_NOMEM;
		l->path = p;
		l->path_cap = n + 1;
	}
	memcpy(l->path, l->start_path, n);
	err = frame_push(l, l->dir_cl, n, &problem);
	if (err == FP_E_DAMAGED)
		diag_at(diag, l->start_path, n, problem);
	l->base = l->frame_count - 1;
	return err;
}

/* Start @l as fp_list_open() or fp_list_open_dir() asked. */
static enum fp_err list_begin(struct fp_list *l, struct fp_list_diag *diag)
{
	return l->at_dir ? dir_start(l, diag) :
	       list_start(l, l->start_path, diag);
}

/*
 * A listing of @path with the walk @dmg (owned unless @borrowed); @at_dir:
 * of the directory @dir_cl, whose path @path is.
 */
static enum fp_err list_new(struct fp_fs *fs, struct fp_damage *dmg,
			    int borrowed, const char *path, unsigned flags,
			    int at_dir, uint32_t dir_cl, struct fp_list **out,
			    struct fp_list_diag *diag)
{
	struct fp_list *l = calloc(1, sizeof(*l));
	enum fp_err err;

	if (!l) {
		if (!borrowed)
			fp_damage_free(dmg);
		return FP_E_NOMEM;
	}
	l->fs = fs;
	l->g = fp_fs_geom(fs);
	l->fat32 = l->g->type == FP_FAT32;
	l->flags = flags;
	l->dmg = dmg;
	l->dmg_borrowed = borrowed;
	l->at_dir = at_dir;
	l->dir_cl = dir_cl;
	l->start_path = strdup(path ? path : "");
	err = l->start_path ? list_begin(l, diag) : FP_E_NOMEM;
	if (err) {
		fp_list_free(l);
		return err;
	}
	*out = l;
	return FP_OK;
}

enum fp_err fp_list_open(struct fp_fs *fs, const char *path, unsigned flags,
			 struct fp_list **out, struct fp_list_diag *diag)
{
	struct fp_damage *dmg;
	enum fp_err err;

	err = fp_damage_find(fs, &dmg);
	if (err)
		return err;
	return list_new(fs, dmg, 0, path, flags, 0, 0, out, diag);
}

enum fp_err fp_list_open_again(const struct fp_list *from, const char *path,
			       unsigned flags, struct fp_list **out,
			       struct fp_list_diag *diag)
{
	return list_new(from->fs, from->dmg, 1, path, flags, 0, 0, out, diag);
}

enum fp_err fp_list_open_dir(const struct fp_list *from, const char *path,
			     uint32_t cl, unsigned flags, struct fp_list **out,
			     struct fp_list_diag *diag)
{
	if (!cl && from->fat32)
		cl = from->g->root_cl;
	return list_new(from->fs, from->dmg, 1, path, flags, 1, cl, out,
			diag);
}

void fp_list_prune(struct fp_list *l)
{
	l->descend = 0;
}

/* ---- content ------------------------------------------------------ */

enum fp_err fp_list_map(struct fp_list *l, const struct fp_list_entry *e)
{
	size_t runs = 0;
	enum fp_err err;

	if (e != &l->cur)
		return FP_E_INVAL;
	if (e->runs || !e->clusters)
		return FP_OK;
	/* the chain was followed and checked when the entry was made */
	err = fp_map_runs(fp_fs_fat(l->fs), e->first_cl, e->clusters,
			  &l->ext, &l->ext_cap, &runs);
	if (!err) {
		l->cur.runs = l->ext;
		l->cur.run_count = runs;
	}
	return err;
}

enum fp_err fp_list_read(struct fp_list *l, const struct fp_list_entry *e,
			 fp_list_data_fn *fn, void *ctx)
{
	struct fp_img *img = fp_fs_img(l->fs);
	uint64_t left = e->size, off, len;
	enum fp_err err = FP_OK;
	size_t i, n;

	if (e != &l->cur || (e->attr & FP_ATTR_DIR) ||
	    (e->size && !e->run_count))
		return FP_E_INVAL;
	if (!l->buf && !(l->buf = malloc(LIST_READ)))
		return FP_E_NOMEM;
	/* the chain is at least size long: entry_chain() checked it */
	for (i = 0; !err && left && i < e->run_count; i++) {
		off = fp_geom_cl_off(l->g, e->runs[i].start);
		len = (uint64_t)e->runs[i].count * l->g->clus_len;
		if (len > left)
			len = left;
		left -= len;
		for (; !err && len; len -= n, off += n) {
			n = len < LIST_READ ? (size_t)len : LIST_READ;
			err = fp_img_read(img, off, l->buf, n);
			if (!err)
				err = fn(ctx, l->buf, n);
		}
	}
	assert(err || left == 0);
	return err;
}

static enum fp_err hash_data(void *ctx, const uint8_t *p, size_t n)
{
	fp_sha256_update(ctx, p, n);
	return FP_OK;
}

enum fp_err fp_list_hash(struct fp_list *l, const struct fp_list_entry *e,
			 enum fp_sha256_impl impl,
			 uint8_t digest[FP_SHA256_LEN])
{
	struct fp_sha256 s;
	enum fp_err err = FP_OK;

	if (!l->hash0_set || l->hash0_impl != impl) {
		err = fp_sha256_init(&l->hash0, impl);
		l->hash0_set = !err;
		l->hash0_impl = impl;
	}
	s = l->hash0;
	if (!err)
		err = fp_list_read(l, e, hash_data, &s);
	if (!err)
		fp_sha256_final(&s, digest);
	return err;
}

enum fp_err fp_list_rewind(struct fp_list *l, unsigned flags,
			   struct fp_list_diag *diag)
{
	enum fp_err err;

	while (l->frame_count)
		frame_pop(l);
	l->flags = flags;
	l->have_start = l->descend = 0;
	l->base = 0;
	l->err = FP_OK;
	err = list_begin(l, diag);
	return err ? list_fail(l, err) : FP_OK;
}

int fp_list_label(const struct fp_list *l, uint8_t label[11])
{
	if (l->has_label)
		memcpy(label, l->label, 11);
	return l->has_label;
}

enum fp_err fp_list_space(struct fp_fs *fs, uint32_t *free_count,
			  uint32_t *run_start, uint32_t *run_count)
{
	enum fp_err err = fp_fs_bitmap(fs);

	if (!err)
		err = fp_bitmap_free_count(fp_fs_bm(fs), free_count);
	if (!err)
		err = fp_bitmap_new_range(fp_fs_bm(fs), 0, 2, UINT32_MAX, 1,
					  run_start, run_count);
	if (err == FP_E_NOSPC) {
		*run_start = *run_count = 0;
		err = FP_OK;
	}
	return err;
}

struct fp_damage *fp_list_give_damage(struct fp_list *l)
{
	if (l->dmg_borrowed)
		return NULL;
	l->dmg_borrowed = 1;
	return l->dmg;
}

const struct fp_damage *fp_list_damage(const struct fp_list *l)
{
	return l->dmg;
}

void fp_list_free(struct fp_list *l)
{
	if (!l)
		return;
	while (l->frame_count)
		frame_pop(l);
	free(l->frames);
	free(l->onpath);
	free(l->path);
	free(l->ext);
	free(l->buf);
	free(l->start_path);
	if (!l->dmg_borrowed)
		fp_damage_free(l->dmg);
	free(l);
}

void fp_list_diag_release(struct fp_list_diag *diag)
{
	free(diag->path);
	memset(diag, 0, sizeof(*diag));
}
