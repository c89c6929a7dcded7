/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* reqs.c - the requests of a run: where each file and copied node goes. */
#include "reqs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "path.h"
#include "util.h"

/* reqs[i] and srcs[i] make request i; see reqs.h. */
struct fp_reqs {
	struct fp_req *reqs;
	struct fp_req_src *srcs;	/* as many as reqs */
	struct fp_req_edit *edits;	/* as many as reqs */
	size_t count, cap;
	struct fp_tree **trees;	/* scanned sources: own srcs' host and data */
	size_t tree_count, tree_cap;
	char **owned;		/* copies' volume paths: own their reqs' path */
	size_t owned_count, owned_cap;
};

struct fp_reqs *fp_reqs_new(void)
{
	return calloc(1, sizeof(struct fp_reqs));
}

size_t fp_reqs_count(const struct fp_reqs *l)
{
	return l->count;
}

const char *fp_reqs_path(const struct fp_reqs *l, size_t i)
{
	return l->reqs[i].path;
}

uint64_t fp_reqs_size(const struct fp_reqs *l, size_t i)
{
	return l->reqs[i].size;
}

const struct fp_req_src *fp_reqs_src(const struct fp_reqs *l, size_t i)
{
	return &l->srcs[i];
}

const struct fp_req_edit *fp_reqs_edit(const struct fp_reqs *l, size_t i)
{
	return &l->edits[i];
}

const struct fp_req *fp_reqs_array(const struct fp_reqs *l)
{
	return l->reqs;
}

const struct fp_req_src *fp_reqs_srcs(const struct fp_reqs *l)
{
	return l->srcs;
}

const struct fp_req_edit *fp_reqs_edits(const struct fp_reqs *l)
{
	return l->edits;
}

enum fp_err fp_reqs_add(struct fp_reqs *l, const char *path, uint64_t size)
{
	size_t cap = l->cap, cap2 = l->cap;

	/* l->srcs and l->edits have as many elements as l->reqs */
	if (fp_grow(&l->reqs, &cap, l->count, sizeof(*l->reqs)) ||
	    fp_grow(&l->edits, &cap2, l->count, sizeof(*l->edits)) ||
	    fp_grow(&l->srcs, &l->cap, l->count, sizeof(*l->srcs)))
		return FP_E_NOMEM;
	memset(&l->srcs[l->count], 0, sizeof(*l->srcs));
	memset(&l->edits[l->count], 0, sizeof(*l->edits));
	l->reqs[l->count].path = path;
	l->reqs[l->count].size = size;
	l->count++;
	return FP_OK;
}

void fp_reqs_add_flags(struct fp_reqs *l, size_t i, unsigned flags)
{
	l->edits[i].flags |= flags;
}

/* Keep @p (malloc'd, or NULL) as long as @l; NULL when it cannot. */
static char *keep_path(struct fp_reqs *l, char *p)
{
	if (p && fp_grow(&l->owned, &l->owned_cap, l->owned_count,
			 sizeof(*l->owned))) {
		free(p);
		p = NULL;
	}
	if (p)
		l->owned[l->owned_count++] = p;
	return p;
}

enum fp_err fp_reqs_add_edit(struct fp_reqs *l, const char *path,
			     const struct fp_req_edit *e)
{
	enum fp_err err = fp_reqs_add(l, path, 0);

	if (!err)
		l->edits[l->count - 1] = *e;
	return err;
}

enum fp_err fp_reqs_add_edit_dup(struct fp_reqs *l, const char *path,
				 const struct fp_req_edit *e)
{
	char *p = keep_path(l, strdup(path));

	return p ? fp_reqs_add_edit(l, p, e) : FP_E_NOMEM;
}

/* The length of @s without trailing slashes. */
static size_t unslashed_len(const char *s)
{
	size_t n = strlen(s);

	while (n && s[n - 1] == '/')
		n--;
	return n;
}

/* 1 if @s ends in a slash: a directory to put a file in. */
static int has_slash_end(const char *s)
{
	size_t n = strlen(s);

	return n && s[n - 1] == '/';
}

/*
 * Where tree node @n of source @src goes under @dest, into *@path
 * (malloc'd): see fp_reqs_add_copy().  1: nowhere (the volume's root);
 * -1: out of memory.
 */
static int node_path(const char *src, const char *dest,
		     const struct fp_tree_node *n, char **path)
{
	size_t dl = unslashed_len(dest), sl = unslashed_len(src);
	const char *base = src + sl;

	*path = NULL;
	if (*n->rel)
		return asprintf(path, "%.*s/%s", (int)dl, dest, n->rel) < 0 ?
		       -1 : 0;
	if (n->kind == FP_TREE_DIR && !dl)
		return 1;
	if (n->kind == FP_TREE_DIR || (dest[0] && !has_slash_end(dest)))
		return (*path = strdup(dest)) ? 0 : -1;
	while (base > src && base[-1] != '/')
		base--;
	return asprintf(path, "%.*s/%.*s", (int)dl, dest,
			(int)(src + sl - base), base) < 0 ? -1 : 0;
}

enum fp_err fp_reqs_keep_tree(struct fp_reqs *l, struct fp_tree *t)
{
	if (fp_grow(&l->trees, &l->tree_cap, l->tree_count,
		    sizeof(*l->trees))) {
		fp_tree_free(t);
		return FP_E_NOMEM;
	}
	l->trees[l->tree_count++] = t;
	return FP_OK;
}

enum fp_err fp_reqs_add_node(struct fp_reqs *l, const char *src,
			     const char *dest, const struct fp_tree_node *n)
{
	struct fp_req_src *r;
	char *path;
	int rc = node_path(src, dest, n, &path);

	if (rc > 0)
		return FP_OK;
	if (rc < 0 || !keep_path(l, path) || fp_reqs_add(l, path, n->size))
		return FP_E_NOMEM;
	r = &l->srcs[l->count - 1];
	r->host = n->host;
	r->is_dir = n->kind == FP_TREE_DIR;
	r->mtime = n->mtime;
	r->data = n->data;
	return FP_OK;
}

enum fp_err fp_reqs_add_copy(struct fp_reqs *l, const char *src,
			     const char *dest, const int64_t *clamp,
			     struct fp_tree_diag *diag)
{
	struct fp_tree *t;
	enum fp_err err;
	size_t i;

	err = fp_tree_scan(src, clamp, &t, diag);
	if (err)
		return err;
	diag->path[0] = '\0';
	err = fp_reqs_keep_tree(l, t);
	for (i = 0; !err && i < fp_tree_count(t); i++)
		err = fp_reqs_add_node(l, src, dest, fp_tree_node(t, i));
	return err;
}

struct path_key {
	char *key;
	size_t req;
};

static int key_cmp(const void *a, const void *b)
{
	const struct path_key *x = a, *y = b;
	int d = strcmp(x->key, y->key);

	return d ? d : (x->req > y->req) - (x->req < y->req);
}

/*
 * Sort the requests' keys and compare neighbours: the first equal pair
 * in key order, each pair in request order.
 */
enum fp_err fp_reqs_find_dup(const struct fp_reqs *l, size_t *a, size_t *b)
{
	struct path_key *k;
	enum fp_err err = FP_OK;
	size_t i, m = 0;

	if (!l->count)
		return FP_OK;
	k = calloc(l->count, sizeof(*k));
	for (i = 0; k && i < l->count; i++) {
		/* a merged directory; edits (rm, mkdir, attr, label) may name
		 * a file that another request makes or changes */
		if (l->srcs[i].is_dir || l->edits[i].kind != FP_REQ_FILE)
			continue;
		k[m].req = i;
		k[m].key = fp_path_key(l->reqs[i].path);
		if (!k[m++].key)
			break;
	}
	if (!k || i < l->count) {
		err = FP_E_NOMEM;
		goto out;
	}
	qsort(k, m, sizeof(*k), key_cmp);
	for (i = 1; i < m; i++) {
		if (strcmp(k[i].key, k[i - 1].key))
			continue;
		*a = k[i - 1].req;
		*b = k[i].req;
		err = FP_E_DUPPATH;
		break;
	}
out:
	for (i = 0; k && i < m; i++)
		free(k[i].key);
	free(k);
	return err;
}

void fp_reqs_release(struct fp_reqs *l)
{
	size_t i;

	for (i = 0; i < l->tree_count; i++)
		fp_tree_free(l->trees[i]);
	for (i = 0; i < l->owned_count; i++)
		free(l->owned[i]);
	free(l->trees);
	free(l->owned);
	free(l->reqs);
	free(l->srcs);
	free(l->edits);
	memset(l, 0, sizeof(*l));
}

void fp_reqs_free(struct fp_reqs *l)
{
	if (!l)
		return;
	fp_reqs_release(l);
	free(l);
}
