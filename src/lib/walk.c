/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* walk.c - the tree walk that --verify and the writers' damage gate share. */
#include "walk_impl.h"

#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "dupname.h"
#include "findings_impl.h"
#include "name.h"
#include "util.h"

/* For the writers' walk: the chain that starts at @cl has problem @p. */
static void mark_dir(struct fp_walk *v, uint32_t cl, enum fp_problem p)
{
	if (v->r)
		return;
	if (fp_grow(&v->marks, &v->mark_cap, v->mark_count,
		    sizeof(*v->marks))) {
		fp_walk_fail(v, FP_E_NOMEM);
		return;
	}
	v->marks[v->mark_count].cl = cl;
	v->marks[v->mark_count++].problem = p;
}

/* Record a finding at the directory of frame @f ("/" for the root). */
static void add_dir(struct fp_walk *v, enum fp_problem p, size_t f,
		    uint32_t cl, uint64_t a, uint64_t b)
{
	struct fp_walk_path ep = { NULL, f, NULL, NULL };

	fp_walk_add_at(v, p, &ep, cl, a, b);
	free(ep.made);
}

/*
 * Problem @p of the directory of frame @f as a whole: a finding at its
 * path ("/" for the root), and the directory damaged for the writers.
 */
static void dir_problem(struct fp_walk *v, size_t f, enum fp_problem p,
			uint64_t a, uint64_t b)
{
	add_dir(v, p, f, 0, a, b);
	mark_dir(v, v->frames[f].cl, p);
}

/*
 * Progress is counted in clusters: the FAT pass is the first half, one
 * unit per cluster; the directory walk the second, scaled from the share
 * of the used clusters it has claimed.  So the total is known before the
 * FAT is read, and the walk ends below 100%, which only the end reports.
 */
static void walk_tick(struct fp_walk *v, uint32_t n)
{
	uint64_t half = fp_progress_tick_total(&v->tick) / 2;
	uint64_t used = v->r->used;

	v->walked += n;
	if (v->owners_pass || !used)
		return;
	fp_progress_tick(&v->tick, half + (v->walked < used ?
					  half * v->walked / used : half - 1));
}

/* The same, in line: without a progress callback (the usual) nothing. */
static inline void walk_progress(struct fp_walk *v, uint32_t n)
{
	if (fp_progress_tick_on(&v->tick))
		walk_tick(v, n);
}

/*
 * Entry @e fails check @p: in the walk, a finding (@cl, @a, @b) at the
 * check's path and, with @mark, its chain marked damaged (not cluster 0:
 * no chain, and the FAT12/16 root's key); for a writer, the problem.
 */
static int failed(const struct fp_walk_check *c, enum fp_problem p,
		  const struct fp_dirent *e, uint32_t cl, uint64_t a,
		  uint64_t b, int mark)
{
	if (c->walk) {
		fp_walk_add_at(c->walk, p, c->path, cl, a, b);
		if (mark && e->cl)
			mark_dir(c->walk, e->cl, p);
	}
	if (c->problem)
		*c->problem = p;
	return 1;
}

int fp_walk_dir_size(const struct fp_walk_check *c,
		     const struct fp_dirent *e)
{
	return e->size ? failed(c, FP_P_DIR_SIZE, e, e->cl, e->size, 0, 1) :
			 0;
}

int fp_walk_dir_no_chain(const struct fp_walk_check *c,
			 const struct fp_dirent *e)
{
	return e->cl == 0 ? failed(c, FP_P_DIR_NO_CHAIN, e, 0, 0, 0, 0) : 0;
}

int fp_walk_dir_cycle(const struct fp_walk_check *c,
		      const struct fp_dirent *e, int up)
{
	return up ? failed(c, FP_P_DIR_CYCLE, e, e->cl, 0, 0, 0) : 0;
}

int fp_walk_bad_name(const struct fp_walk_check *c,
		     const struct fp_dirent *e)
{
	return fp_name_sfn_bad(e->sfn) ?
	       failed(c, FP_P_BAD_NAME, e, 0, 0, 0, 0) : 0;
}

int fp_walk_chain_short(const struct fp_walk_check *c,
			const struct fp_dirent *e, uint32_t have)
{
	uint64_t clus = c->clus_len;
	/* clus_len is a power of two: a shift, not a division an entry */
	uint64_t want = (e->size + clus - 1) >> __builtin_ctz(clus);

	return have < want ?
	       failed(c, FP_P_CHAIN_SHORT, e, e->cl, have, want, 1) : 0;
}

/*
 * Claim the chain of entry @e as walk_chain() does; with a report, an
 * entry that starts where one claimed before does, with its size and
 * attributes, is a move cut short (moved-twice), not a cross-link.
 */
static uint32_t claim_entry(struct fp_walk *v, struct fp_walk_path *path,
			    const struct fp_dirent *e, int *ok)
{
	uint32_t n;

	v->twice = v->r && !v->owners_pass && e->cl <= v->max_cl &&
		   fp_bitset_test(&v->claimed, e->cl) &&
		   fp_twice_same(&v->starts, e);
	n = walk_chain(v, path, e->cl, ok);
	if (v->r && !v->owners_pass && !v->twice &&
	    fp_twice_add(&v->starts, e))
		fp_walk_fail(v, FP_E_NOMEM);
	v->twice = 0;
	return n;
}

static void check_file(struct fp_walk *v, struct fp_walk_path *path,
		       const struct fp_dirent *e)
{
	uint64_t clus = v->g->clus_len;
	/* clus_len is a power of two: a shift, not a division an entry */
	uint64_t want = (e->size + clus - 1) >> __builtin_ctz(clus);
	struct fp_walk_check c = { v, path, NULL, v->g->clus_len };
	uint32_t n = 0;
	int ok = 1;

	if (v->r && !v->owners_pass)
		v->r->files++;
	v->last = FP_P_COUNT;
	if (e->cl)
		n = claim_entry(v, path, e, &ok);
	walk_progress(v, n);
	if (!ok) {
		mark_dir(v, e->cl, v->last);
		return;
	}
	if (!fp_walk_chain_short(&c, e, n) && n > want)
		fp_walk_add_at(v, FP_P_TAIL, path, e->cl, n, want);
}

/* ---- directories ---------------------------------------------------- */

/* Room for @n more bytes in v->names_buf; 0, or -1 without memory. */
static int names_room(struct fp_walk *v, size_t n)
{
	size_t cap = v->names_cap ? v->names_cap : 4096;
	char *p;

	if (n <= v->names_cap - v->names_len)
		return 0;
	while (cap - v->names_len < n) {
		if (cap > SIZE_MAX / 2)
			return -1;
		cap *= 2;
	}
	p = realloc(v->names_buf, cap);
	if (!p)
		return -1;
	v->names_buf = p;
	v->names_cap = cap;
	return 0;
}

/* A frame for the directory @cl (@e: its entry; NULL for the root). */
static int push_frame(struct fp_walk *v, uint32_t cl, uint32_t cl_count,
		      size_t parent, const struct fp_dirent *e)
{
	char name[3 * FP_LFN_MAX + 1];
	size_t nlen = e ? fp_walk_entry_name(e, name) : 0;
	struct fp_walk_frame *fr;

	if (fp_grow(&v->frames, &v->frame_cap, v->frame_count,
		    sizeof(*v->frames)) || names_room(v, nlen)) {
		fp_walk_fail(v, FP_E_NOMEM);
		return -1;
	}
	fr = &v->frames[v->frame_count++];
	fr->cl = cl;
	fr->cl_count = cl_count;
	fr->parent = parent;
	fr->name_off = v->names_len;
	fr->name_len = nlen;
	if (nlen)
		memcpy(v->names_buf + v->names_len, name, nlen);
	v->names_len += nlen;
	return 0;
}

/* 1 if @cl starts directory @f or one of its ancestors. */
static int is_ancestor(const struct fp_walk *v, size_t f, uint32_t cl)
{
	for (;;) {
		if (v->frames[f].cl == cl)
			return 1;
		if (v->frames[f].parent == f)
			return 0;
		f = v->frames[f].parent;
	}
}

static void check_subdir(struct fp_walk *v, size_t f,
			 struct fp_walk_path *path, const struct fp_dirent *e)
{
	struct fp_walk_check c = { v, path, NULL, v->g->clus_len };
	uint32_t n;
	int ok;

	if (v->r && !v->owners_pass)
		v->r->dirs++;
	fp_walk_dir_size(&c, e);
	if (fp_walk_dir_no_chain(&c, e))
		return;
	if (fp_walk_dir_cycle(&c, e, e->cl <= v->max_cl &&
			      fp_bitset_test(&v->claimed, e->cl) &&
			      is_ancestor(v, f, e->cl)))
		return;
	/*
	 * Claim the chain now, in entry order, so that a directory keeps its
	 * clusters against a file listed after it (as fsck.fat decides).
	 */
	v->last = FP_P_COUNT;
	n = claim_entry(v, path, e, &ok);
	walk_progress(v, n);
	if (!ok)
		mark_dir(v, e->cl, v->last);
	if (n == 0)
		return;
	push_frame(v, e->cl, n, f, e);
}

/* Per-directory state of the entry checks. */
struct dstate {
	size_t frame;
	int is_root;
	int labels;
	int dot, dotdot;	/* seen and right */
	uint32_t root_dots;	/* dot entries seen in the root */
	uint32_t bad_lfn;	/* entries whose long name readers refuse */
	uint32_t bad_slot;	/* the first of them */
	uint32_t parent_cl;	/* what ".." must hold */
};

static void check_dot(struct fp_walk *v, struct dstate *ds,
		      const struct fp_dirent *e)
{
	uint32_t own = v->frames[ds->frame].cl;

	if (fp_dir_dots(e->sfn) == 1)
		ds->dot = e->slot == 0 && e->cl == own &&
			  (e->attr & FP_ATTR_DIR);
	else
		ds->dotdot = e->slot == 1 && e->cl == ds->parent_cl &&
			     (e->attr & FP_ATTR_DIR);
}

/* Check entry @e; 1 if it names a file or directory (no label, no dot). */
static int check_entry(struct fp_walk *v, struct dstate *ds,
		       const struct fp_dirent *e)
{
	struct fp_walk_path path = { NULL, ds->frame, e, NULL };
	struct fp_walk_check c = { v, &path, NULL, v->g->clus_len };

	if (e->lfn_bad && !ds->bad_lfn++)
		ds->bad_slot = e->slot;
	if (fp_dir_is_label(e->attr)) {	/* what the lookup skips */
		if (!ds->is_root || ++ds->labels > 1) {
			dir_problem(v, ds->frame, FP_P_LABEL, 0, 0);
		} else if (!(e->attr & FP_ATTR_DIR) && !v->root_label) {
			v->root_label = 1;	/* fp_walk_root_label() */
			memcpy(v->label, e->sfn, sizeof(v->label));
		}
		return 0;
	}
	if (fp_dir_dots(e->sfn)) {
		if (!ds->is_root)
			check_dot(v, ds, e);
		else
			ds->root_dots++;
		return 0;
	}
	fp_walk_bad_name(&c, e);
	if (e->attr & FP_ATTR_DIR)
		check_subdir(v, ds->frame, &path, e);
	else
		check_file(v, &path, e);
	free(path.made);
	return 1;
}

/* ---- the tree ------------------------------------------------------- */

/* Where fp_dupname_check() reports: the directory @d of frame @f. */
struct dup_ctx {
	struct fp_walk *v;
	const struct fp_dir *d;
	size_t f;
};

/* The path of the entry whose set starts at @slot of directory @d. */
static char *slot_path(const struct fp_walk *v, const struct fp_dir *d,
		       size_t f, uint32_t slot)
{
	struct fp_dir_iter it = { slot, 0 };
	struct fp_dirent e;

	if (!fp_dir_next(d, v->fat32, &it, &e))
		return NULL;
	return fp_walk_frame_path(v, f, &e);
}

/* The entries at slots @a and @b of the directory have the same name. */
static void report_dup(void *ctx, uint32_t a, uint32_t b)
{
	const struct dup_ctx *c = ctx;
	struct fp_walk *v = c->v;
	char *pa = NULL, *pb = NULL;
	struct fp_finding *fd;

	if (!v->r || v->owners_pass ||
	    v->r->per_problem[FP_P_DUP_NAME] >= FP_VERIFY_CAP) {
		/* only counted */
		fp_walk_add(v, FP_P_DUP_NAME, "", 0, 0, 0);
		return;
	}
	pa = slot_path(v, c->d, c->f, a);
	pb = slot_path(v, c->d, c->f, b);
	if (!pa || !pb) {
		fp_walk_fail(v, FP_E_NOMEM);
	} else if (!fp_report_path_budget(v->r, strlen(pa))) {
		if (fp_report_count(v->r, FP_P_DUP_NAME))
			v->r->dropped[FP_P_DUP_NAME]++;
	} else {
		fd = fp_walk_add(v, FP_P_DUP_NAME, pb, 0, 0, 0);
		if (fd) {
			fd->other = pa;
			pa = NULL;
		} else {	/* not kept: nor is its other path */
			v->r->path_bytes -= strlen(pa) + 1;
		}
	}
	free(pa);
	free(pb);
}

/* Clusters of a directory of FP_DIR_MAX_ENTRIES entries (at least 1). */
static uint32_t dir_cap(const struct fp_walk *v)
{
	uint32_t cap = FP_DIR_MAX_ENTRIES * FP_DIRENT_LEN / v->g->clus_len;

	return cap ? cap : 1;
}

static enum fp_err load_dir(struct fp_walk *v, size_t f, struct fp_dir **d)
{
	uint32_t cap = dir_cap(v);
	uint32_t cl = v->frames[f].cl, n = v->frames[f].cl_count, *list, i;
	enum fp_err err;

	if (cl == 0)
		return fp_dir_load(fp_fs_img(v->fs), v->g, v->fat, 0, d);
	if (n > cap)
		n = cap;
	list = malloc((size_t)n * sizeof(*list));
	if (!list)
		return FP_E_NOMEM;
	for (i = 0; i < n; i++, cl = walk_entry(v, cl))
		list[i] = cl;
	if (v->err) {
		free(list);
		return v->err;
	}
	err = fp_dir_load_list(fp_fs_img(v->fs), v->g, list, n, d);
	free(list);
	return err;
}

static void scan_entries(struct fp_walk *v, size_t f, const struct fp_dir *d)
{
	size_t parent = v->frames[f].parent;
	struct dstate ds = { .frame = f, .is_root = f == 0 };
	struct fp_dir_iter it = { 0, 0 };
	struct fp_dirent e;
	uint32_t hidden, slot = 0;

	ds.parent_cl = parent == 0 ? 0 : v->frames[parent].cl;
	fp_dupname_reset(&v->names);
	while (fp_dir_next(d, v->fat32, &it, &e)) {
		if (check_entry(v, &ds, &e) && fp_dupname_add(&v->names, &e))
			fp_walk_fail(v, FP_E_NOMEM);
	}
	if (it.orphans)
		dir_problem(v, f, FP_P_LFN_ORPHAN, it.orphans, 0);
	if (ds.bad_lfn)
		dir_problem(v, f, FP_P_BAD_LFN, ds.bad_lfn, ds.bad_slot);
	if (ds.root_dots)
		dir_problem(v, f, FP_P_ROOT_DOT, ds.root_dots, 0);
	hidden = fp_dir_after_end(d, &slot);
	if (hidden)
		dir_problem(v, f, FP_P_AFTER_END, hidden, slot);
	if (!ds.is_root && (!ds.dot || !ds.dotdot)) {
		add_dir(v, FP_P_DOT, f, v->frames[f].cl, 0, 0);
		mark_dir(v, v->frames[f].cl, FP_P_DOT);
	}
	if (fp_dupname_check(&v->names, d, report_dup,
			     &(struct dup_ctx){ v, d, f }))
		mark_dir(v, v->frames[f].cl, FP_P_DUP_NAME);
}

/*
 * Count the bytes of [off, off + len) that lie in holes of the image file.
 * A hole-skipping flash (bmaptool) leaves a card's old bytes there; a
 * filesystem that cannot say, or fails to, counts as having none.
 */
void fp_walk_count_holes(struct fp_walk *v, uint64_t off, uint64_t len)
{
	struct fp_img *img = fp_fs_img(v->fs);
	uint64_t end = off + len, ho, hl;

	while (off < end) {
		if (fp_img_find_hole(img, off, end - off, &ho, &hl) ||
		    hl == 0)
			return;
		v->hole_bytes += hl;
		v->hole_count++;
		off = ho + hl;
	}
}

/* The clusters of a directory chain, a run of consecutive ones a call. */
static void dir_holes(struct fp_walk *v, const struct fp_dir *d)
{
	uint32_t i, j;

	const uint32_t *cls = fp_dir_cls(d);

	for (i = 0; i < fp_dir_cl_count(d); i = j) {
		j = i + 1;
		while (j < fp_dir_cl_count(d) && cls[j] == cls[j - 1] + 1)
			j++;
		fp_walk_count_holes(v, fp_geom_cl_off(v->g, cls[i]),
				    (uint64_t)(j - i) * v->g->clus_len);
	}
}

/* Read directory @f, whose chain was claimed when it was found. */
static void check_dir(struct fp_walk *v, size_t f)
{
	struct fp_dir *d;
	enum fp_err err;

	err = load_dir(v, f, &d);
	if (err) {
		fp_walk_fail(v, err);
		return;
	}
	if (v->holes && !v->owners_pass && fp_dir_first_cl(d) != 0)
		dir_holes(v, d);
	if (v->frames[f].cl_count > dir_cap(v))
		dir_problem(v, f, FP_P_DIR_LONG, v->frames[f].cl_count, 0);
	scan_entries(v, f, d);
	fp_dir_free(d);
}

static void free_frames(struct fp_walk *v)
{
	v->frame_count = 0;
	v->names_len = 0;
}

void fp_walk_tree(struct fp_walk *v)
{
	uint32_t cl = v->fat32 ? v->g->root_cl : 0, n = 0;
	struct fp_walk_path slash = { "/", 0, NULL, NULL };
	size_t i;
	int ok;

	if (cl) {
		v->last = FP_P_COUNT;
		n = walk_chain(v, &slash, cl, &ok);
		if (!ok)
			mark_dir(v, cl, v->last);
		if (n == 0)
			return;
	}
	if (push_frame(v, cl, n, 0, NULL))
		return;
	for (i = 0; i < v->frame_count && !v->err; i++)
		check_dir(v, i);
	free_frames(v);
}

void fp_walk_name_owners(struct fp_walk *v)
{
	if (!fp_walk_owners_start(v))
		return;
	fp_walk_tree(v);
	fp_walk_owners_end(v);
}

enum fp_err fp_walk_new(struct fp_fs *fs, struct fp_report *r,
			struct fp_walk **out)
{
	struct fp_walk *w = calloc(1, sizeof(*w));

	if (!w)
		return FP_E_NOMEM;
	w->fs = fs;
	w->r = r;
	w->g = fp_fs_geom(fs);
	w->fat = fp_fs_fat(fs);
	w->fat32 = w->g->type == FP_FAT32;
	w->type = w->g->type;
	w->max_cl = fp_geom_max_cl(w->g);
	w->holes = r != NULL;
	fp_walk_bits_init(w, &w->claimed);
	if (w->err) {
		fp_walk_free(w);
		return FP_E_NOMEM;
	}
	*out = w;
	return FP_OK;
}

void fp_walk_free(struct fp_walk *w)
{
	size_t i;

	if (!w)
		return;
	free(w->frames);
	free(w->names_buf);
	free(w->links);
	fp_dupname_release(&w->names);
	fp_twice_release(&w->starts);
	free(w->taken);
	free(w->marks);
	for (i = 0; i < w->xl_count; i++)
		free(w->xl[i].owner);
	free(w->xl);
	fp_bitset_release(&w->claimed);
	free(w);
}

enum fp_err fp_walk_err(const struct fp_walk *w)
{
	return w->err;
}

void fp_walk_progress_start(struct fp_walk *w,
			    const struct fp_progress *prog)
{
	fp_progress_tick_start(&w->tick, prog,
			       2 * (uint64_t)w->g->cluster_count);
}

void fp_walk_progress(struct fp_walk *w, uint64_t done)
{
	fp_progress_tick(&w->tick, done);
}

void fp_walk_progress_end(struct fp_walk *w)
{
	fp_progress_tick(&w->tick, fp_progress_tick_total(&w->tick));
}

void fp_walk_take_marks(struct fp_walk *w, struct fp_walk_mark **marks,
			size_t *count)
{
	*marks = w->marks;
	*count = w->mark_count;
	w->marks = NULL;
	w->mark_count = w->mark_cap = 0;
}

int fp_walk_root_label(const struct fp_walk *w, uint8_t label[11])
{
	memcpy(label, w->label, sizeof(w->label));
	return w->root_label;
}

void fp_walk_holes(const struct fp_walk *w, uint64_t *bytes,
		   uint64_t *count)
{
	*bytes = w->hole_bytes;
	*count = w->hole_count;
}
