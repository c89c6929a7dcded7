/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * plan_dirs.c - the size a directory that the plan makes will reach: the
 * entry slots that the plan's requests add to it, counted once from
 * their paths, so that fp_plan_new_dir() takes all its clusters in one
 * run instead of one cluster at a time between the files' data
 * (docs/DESIGN.md, "Directories in one run").
 */
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "name.h"
#include "path.h"
#include "plan_impl.h"

/* The slots that the requests add to one directory. */
struct fp_plan_want {
	char *key;		/* the directory's fp_path_key() */
	uint32_t slots;		/* at most FP_DIR_MAX_ENTRIES */
};

static int want_cmp(const void *a, const void *b)
{
	return strcmp(((const struct fp_plan_want *)a)->key,
		      ((const struct fp_plan_want *)b)->key);
}

/*
 * The path at which request @i makes an entry when its directory is new:
 * a file's or a copy's, or a mkdir's; NULL for the other edits.
 */
static const char *entry_path(const struct fp_plan *p, size_t i)
{
	const struct fp_req_edit *ed = p->opts.edits ? &p->opts.edits[i] :
				       NULL;

	if (!ed || ed->kind == FP_REQ_FILE || ed->kind == FP_REQ_MKDIR)
		return p->reqs[i].path;
	return NULL;
}

/*
 * The slots of the entry set for the last component of @path, and the
 * length of the path before it; 0 when there is no component or the name
 * is refused (its request fails the plan anyway).
 */
static uint32_t set_slots(const char *path, size_t *parent_len)
{
	size_t end = strlen(path), start, n;
	uint16_t u[FP_LFN_MAX];
	uint8_t sfn[11], ntres;

	while (end && path[end - 1] == '/')
		end--;
	for (start = end; start && path[start - 1] != '/'; start--)
		;
	*parent_len = start;
	if (start == end || fp_path_name(path + start, end - start, u, &n))
		return 0;
	return fp_name_to_sfn(u, n, sfn, &ntres) ? 1 :
	       fp_name_lfn_slots(n) + 1;
}

/* fp_path_key() of the first @len bytes of @path, or NULL. */
static char *key_of(const char *path, size_t len)
{
	char *s = strndup(path, len), *key = s ? fp_path_key(s) : NULL;

	free(s);
	return key;
}

/* Add @slots to @w's, within the entry limit. */
static void add_slots(struct fp_plan_want *w, uint32_t slots)
{
	w->slots = slots < FP_DIR_MAX_ENTRIES - w->slots ? w->slots + slots :
		   FP_DIR_MAX_ENTRIES;
}

/* Sum the slots of equal keys into the first of them (@w sorted). */
static size_t merge(struct fp_plan_want *w, size_t n)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		if (m && !strcmp(w[m - 1].key, w[i].key)) {
			add_slots(&w[m - 1], w[i].slots);
			free(w[i].key);
		} else {
			w[m++] = w[i];
		}
	}
	return m;
}

/*
 * The table of p->want, once: a key and the slots for every parent.  A
 * request whose parent is spelt as the one before's (a tree's files come
 * so) adds to that entry without a key of its own.
 */
static enum fp_err count_wants(struct fp_plan *p)
{
	struct fp_plan_want *w;
	const char *path, *prev = NULL;
	size_t i, n = 0, len, prev_len = 0;
	uint32_t slots;

	w = calloc(p->req_count ? p->req_count : 1, sizeof(*w));
	if (!w)
		return FP_E_NOMEM;
	p->want = w;
	for (i = 0; i < p->req_count; i++) {
		path = entry_path(p, i);
		slots = path ? set_slots(path, &len) : 0;
		if (!slots)
			continue;
		if (n && len == prev_len && !memcmp(path, prev, len)) {
			add_slots(&w[n - 1], slots);
			continue;
		}
		prev = path;
		prev_len = len;
		w[n].key = key_of(path, len);
		if (!w[n].key) {
			p->want_count = n;
			return FP_E_NOMEM;
		}
		w[n++].slots = slots;
	}
	qsort(w, n, sizeof(*w), want_cmp);
	p->want_count = merge(w, n);
	return FP_OK;
}

enum fp_err fp_plan_dir_size(struct fp_plan *p, const char *path,
			     size_t len, uint32_t *clusters)
{
	uint32_t per = fp_fs_geom(p->fs)->clus_len / FP_DIRENT_LEN;
	struct fp_plan_want k = { NULL, 0 }, *w = NULL;
	uint64_t slots = 2;	/* "." and ".." */
	enum fp_err err = FP_OK;

	if (!p->want)
		err = count_wants(p);
	if (!err && !(k.key = key_of(path, len)))
		err = FP_E_NOMEM;
	if (err)
		return err;
	if (p->want_count)
		w = bsearch(&k, p->want, p->want_count, sizeof(k), want_cmp);
	free(k.key);
	if (w)
		slots += w->slots;
	if (slots > FP_DIR_MAX_ENTRIES)
		slots = FP_DIR_MAX_ENTRIES;
	*clusters = (uint32_t)((slots + per - 1) / per);
	return FP_OK;
}

void fp_plan_dirs_free(struct fp_plan *p)
{
	size_t i;

	for (i = 0; i < p->want_count; i++)
		free(p->want[i].key);
	free(p->want);
	p->want = NULL;
	p->want_count = 0;
}
