/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fuzz_commit.c - libFuzzer: never write through damage. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "fuzz_img.h"
#include "path.h"
#include "plan.h"
#include "verify.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

#define WALK_DEPTH 4		/* directory levels walked below the root */
#define WALK_DIRS 64		/* directories walked at most */
#define WALK_FILES 256		/* files summed at most */
#define CHAIN_MAX 512		/* clusters of a chain followed at most */
#define PATH_LEN 512

/* A regular file as the walk found it, known by where its entry is. */
struct sum {
	uint32_t dir_cl;	/* first cluster of its directory */
	uint32_t slot;		/* its short entry there */
	uint64_t hash;		/* entry, chain and cluster bytes */
	char path[PATH_LEN];	/* by long names where valid */
	char short_path[PATH_LEN];	/* by short names */
};

struct walk {
	const struct fp_report *report;	/* the check before the commit */
	struct fp_fs *fs;
	uint8_t *clus;		/* one cluster's bytes */
	struct sum sums[WALK_FILES];
	size_t count;
	unsigned dirs;
	int cut;		/* a limit stopped the walk */
};

static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len--)
		h = (h ^ *b++) * 0x100000001B3ull;
	return h;
}

/* Hash a file's short entry, its chain and the bytes of its clusters. */
static uint64_t file_hash(struct walk *w, const uint8_t *ent, uint32_t cl)
{
	const struct fp_geom *g = fp_fs_geom(w->fs);
	struct fp_img *img = fp_fs_img(w->fs);
	uint64_t h = fnv(0xCBF29CE484222325ull, ent, FP_DIRENT_LEN);
	uint32_t n, max = fp_geom_max_cl(g);

	for (n = 0; n < CHAIN_MAX && cl >= 2 && cl <= max; n++) {
		h = fnv(h, &cl, sizeof(cl));
		if (fp_img_read(img, fp_geom_cl_off(g, cl), w->clus,
				g->clus_len) == FP_OK)
			h = fnv(h, w->clus, g->clus_len);
		if (fp_fat_get(fp_fs_fat(w->fs), cl, &cl) != FP_OK)
			break;
	}
	return fnv(h, &cl, sizeof(cl));
}

/* "@dir/NAME" into @out, by the long name when @lng and there is one. */
static int join(char *out, const char *dir, const struct fp_dirent *e,
		int lng)
{
	char name[3 * FP_LFN_MAX + 1];
	uint16_t u[12];
	size_t n;

	if (lng && e->lfn_count) {
		n = fp_name_to_utf8(e->lfn, e->lfn_count, name, sizeof(name));
	} else {
		n = fp_name_sfn_decode(e->sfn, e->ntres, u);
		n = fp_name_to_utf8(u, n, name, sizeof(name));
	}
	name[n] = '\0';
	return (size_t)snprintf(out, PATH_LEN, "%s/%s", dir, name) <
	       PATH_LEN ? 0 : -1;
}

/* 1 if @r has an error finding of problem @p at @path. */
static int has_error(const struct fp_report *r, enum fp_problem p,
		     const char *path)
{
	size_t i;

	for (i = 0; i < fp_report_finding_count(r); i++)
		if (fp_report_finding(r, i)->problem == p &&
		    !strcmp(fp_report_finding(r, i)->path, path))
			return 1;
	return 0;
}

/*
 * 1 if the check did not walk the whole chain of the directory at @path:
 * its start is bad, or the chain is broken or shared (then the clusters
 * are another file's, or free, or garbage).  Such a directory's entries
 * are no files: the writers' walk does not see them either, so a free
 * cluster that one of them names may be allocated.  Sets w->cut when
 * findings of those problems were dropped and nobody can tell.
 */
static int unwalked(struct walk *w, const char *path)
{
	static const enum fp_problem stop[] = {
		FP_P_BAD_START, FP_P_CROSS_LINK, FP_P_DIR_CYCLE,
		FP_P_CHAIN_LOOP, FP_P_CHAIN_FREE, FP_P_CHAIN_BAD,
		FP_P_CHAIN_RANGE,
	};
	size_t i;

	for (i = 0; i < sizeof(stop) / sizeof(stop[0]); i++) {
		if (fp_report_dropped(w->report, stop[i]))
			w->cut = 1;
		if (has_error(w->report, stop[i], path))
			return 1;
	}
	return 0;
}

/*
 * Sum every regular file under the directory at @cl, called @path (long
 * names) and @spath (short names).  A directory that starts at cluster 0
 * is not followed: cluster 0 means no cluster (the FAT12/16 root when a
 * ".." says it), and the root's files are summed as the root's.
 */
static void walk_dir(struct walk *w, uint32_t cl, const char *path,
		     const char *spath, unsigned depth)
{
	const struct fp_geom *g = fp_fs_geom(w->fs);
	int fat32 = g->type == FP_FAT32;
	struct fp_dir_iter it = { 0, 0 };
	char sub[PATH_LEN], ssub[PATH_LEN];
	struct fp_dirent e;
	struct fp_dir *d;
	struct sum *s;

	if (w->dirs++ >= WALK_DIRS) {
		w->cut = 1;
		return;
	}
	if (fp_dir_load(fp_fs_img(w->fs), g, fp_fs_fat(w->fs), cl, &d))
		return;
	while (fp_dir_next(d, fat32, &it, &e)) {
		if (fp_dir_is_label(e.attr) || e.sfn[0] == '.')
			continue;
		if (join(sub, path, &e, 1) || join(ssub, spath, &e, 0)) {
			w->cut = 1;
			continue;
		}
		if (e.attr & FP_ATTR_DIR) {
			if (e.cl != 0 && unwalked(w, sub))
				continue;
			if (e.cl != 0 && depth < WALK_DEPTH)
				walk_dir(w, e.cl, sub, ssub, depth + 1);
			else if (e.cl != 0)
				w->cut = 1;
			continue;
		}
		if (w->count == WALK_FILES) {
			w->cut = 1;
			break;
		}
		s = &w->sums[w->count++];
		s->dir_cl = cl;
		s->slot = e.slot;
		s->hash = file_hash(w, fp_dir_ent(d, e.slot), e.cl);
		memcpy(s->path, sub, sizeof(sub));
		memcpy(s->short_path, ssub, sizeof(ssub));
	}
	fp_dir_free(d);
}

/*
 * Walk the volume on @img from its root into *w, as far as the check
 * @before walked it; -1 if it does not open.
 */
static int walk(struct fp_img *img, const struct fp_report *before,
		struct walk *w)
{
	w->report = before;
	w->count = 0;
	w->dirs = 0;
	w->cut = 0;
	if (fp_fs_open(img, &w->fs))
		return -1;
	w->clus = malloc(fp_fs_geom(w->fs)->clus_len);
	if (w->clus)
		walk_dir(w, fp_fs_geom(w->fs)->root_cl, "", "", 0);
	else
		w->cut = 1;
	free(w->clus);
	fp_fs_free(w->fs);
	return 0;
}

/* The file of @w with the entry and path of @s. */
static const struct sum *find(const struct walk *w, const struct sum *s)
{
	size_t i;

	for (i = 0; i < w->count; i++)
		if (w->sums[i].dir_cl == s->dir_cl &&
		    w->sums[i].slot == s->slot &&
		    !strcmp(w->sums[i].path, s->path))
			return &w->sums[i];
	return NULL;
}

/* 1 if @w found a file at @path (by long names or by short names). */
static int found(const struct walk *w, const char *path)
{
	size_t i;

	for (i = 0; i < w->count; i++)
		if (fp_path_same(w->sums[i].path, path) ||
		    fp_path_same(w->sums[i].short_path, path))
			return 1;
	return 0;
}

/* 1 if the plan changed the file whose entry is at @dir_cl, @slot. */
static int planned(const struct fp_plan *plan, uint32_t dir_cl, uint32_t slot)
{
	const struct fp_plan_file *f;
	size_t i, n;

	f = fp_plan_files(plan, &n);
	for (i = 0; i < n; i++)
		if (f[i].action != FP_ACT_NONE &&
		    fp_dir_first_cl(f[i].dir) == dir_cl && f[i].slot == slot)
			return 1;
	return 0;
}

/* Every error finding of @after that @before did not have is new. */
static void check_findings(const struct fp_report *before,
			   const struct fp_report *after)
{
	const struct fp_finding *f;
	size_t i;

	for (i = 0; i < fp_report_finding_count(after); i++) {
		f = fp_report_finding(after, i);
		if (fp_problem_severity(f->problem) != FP_SEV_ERROR ||
		    fp_report_dropped(before, f->problem) ||
		    has_error(before, f->problem, f->path))
			continue;
		fprintf(stderr, "fuzz_commit: new error %s at '%s'\n",
			fp_problem_code(f->problem), f->path);
		abort();
	}
}

/*
 * Files the plan left alone are unchanged; the planned ones are where
 * their paths say.  Not checked when a limit cut either walk short.
 */
static void check_files(const struct walk *before, const struct walk *after,
			const struct fp_plan *plan)
{
	const struct fp_plan_file *f;
	const struct sum *s, *a;
	size_t i, n;

	if (before->cut || after->cut)
		return;
	for (i = 0; i < before->count; i++) {
		s = &before->sums[i];
		if (planned(plan, s->dir_cl, s->slot))
			continue;
		a = find(after, s);
		if (a && a->hash == s->hash)
			continue;
		fprintf(stderr, "fuzz_commit: '%s' %s\n", s->path,
			a ? "changed" : "gone");
		abort();
	}
	f = fp_plan_files(plan, &n);
	for (i = 0; i < n; i++) {
		if (found(after, f[i].path))
			continue;
		fprintf(stderr, "fuzz_commit: '%s' is not where planned\n",
			f[i].path);
		abort();
	}
}

/* main.c's check before planning: FAT copies that differ by lost
 * clusters go on. */
static enum fp_err open_check(struct fp_fs *fs, struct fp_fs_diag *d)
{
	enum fp_err err = fp_fs_check(fs, d);

	return err == FP_E_FATDIFF ? fp_damage_copies(fs, NULL, d) : err;
}

/*
 * The first byte picks the options and the requests (bits 4 and 5 add
 * the last two); the rest is an image as fuzz_img.h describes it, damaged
 * or not.  The tool's checks come first (before and after planning, as
 * main.c makes them: copies that differ only by lost clusters go on, and
 * the commit makes them equal).  A commit that succeeds must not have
 * written through damage: the image has no error finding (problem and
 * path) that it did not have before; every regular file that the plan
 * did not ask for keeps its entry, chain and bytes; every planned file
 * is found at its path.
 */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const struct fp_req all[] = {
		{ "/dir/A new long name.bin", 7000 },
		{ "/new.txt", 3000 },
		{ "/A long name.txt", 5000 },	/* an existing file */
		{ "/dir/sub/f", 1 },
	};
	static struct walk w_before, w_after;
	struct fp_req reqs[4];
	struct fp_plan_opts o;
	struct fp_report *before = NULL, *after = NULL;
	struct fp_plan *plan = NULL;
	struct fp_plan_diag diag;
	struct fp_fs_diag fdiag;
	struct fp_fs *fs = NULL;
	struct fp_img *img;
	size_t count;

	if (fuzz_plan_input(data, len, &o, &img))
		return 0;
	reqs[0] = all[0];
	reqs[1] = all[1];
	count = 2;
	if (data[0] & 16)
		reqs[count++] = all[2];
	if (data[0] & 32)
		reqs[count++] = all[3];
	if (fp_verify(img, &before) || walk(img, before, &w_before) ||
	    fp_fs_open(img, &fs) || open_check(fs, &fdiag) ||
	    fp_plan_build(fs, &o, reqs, count, &plan, &diag) ||
	    fp_plan_check_copies(plan, &fdiag) || fp_plan_commit(plan, 1))
		goto out;
	assert(fp_verify(img, &after) == FP_OK);
	assert(walk(img, before, &w_after) == 0);
	check_findings(before, after);
	check_files(&w_before, &w_after, plan);
out:
	fp_plan_free(plan);
	fp_fs_free(fs);
	fp_report_free(before);
	fp_report_free(after);
	fp_img_close(img);
	return 0;
}
