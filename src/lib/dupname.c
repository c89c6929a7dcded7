/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* dupname.c - the walk's check for two entries of one name in a directory. */
#include "dupname.h"

#include <stdlib.h>
#include <string.h>

#include "name.h"
#include "util.h"

/* A name of an entry, keyed and hashed case-insensitively. */
struct fp_walk_nkey {
	uint64_t key;		/* fp_name_key() */
	uint64_t h;		/* fp_name_hash(), made when keys meet */
	uint32_t slot;		/* the short entry */
	uint32_t first_slot;	/* its first long-name slot */
	int is_long;
	int twin;		/* same key as its entry's short name */
};

/* The short or long name of the entry a key stands for. */
static size_t key_name(const struct fp_dir *d, const struct fp_walk_nkey *k,
		       uint16_t *u)
{
	const uint8_t *ent = fp_dir_ent(d, k->slot);
	uint32_t s;
	size_t n = 0, max = 0;
	unsigned ord;

	if (!k->is_long)
		return fp_name_sfn_decode(ent, ent[DIR_NTRES], u);
	for (s = k->first_slot; s < k->slot; s++) {
		ord = fp_dir_ent(d, s)[FP_LFN_ORD] & FP_LFN_ORD_MASK;
		fp_name_lfn_decode(fp_dir_ent(d, s),
				   u + (ord - 1) * FP_LFN_CHARS);
		if (ord * FP_LFN_CHARS > max)
			max = ord * FP_LFN_CHARS;
	}
	while (n < max && n < FP_LFN_MAX && u[n])
		n++;
	return n;
}

static inline struct fp_walk_nkey *add_key(struct fp_walk *v,
					   struct fp_walk_names *nm,
				   const struct fp_dirent *e, int is_long)
{
	struct fp_walk_nkey *k;

	if (nm->count == nm->cap &&	/* fp_grow() is a call */
	    fp_grow(&nm->keys, &nm->cap, nm->count, sizeof(*nm->keys))) {
		fp_walk_fail(v, FP_E_NOMEM);
		return NULL;
	}
	k = &nm->keys[nm->count++];
	k->slot = e->slot;
	k->first_slot = e->first_slot;
	k->is_long = is_long;
	k->twin = 0;
	k->key = is_long ? fp_name_key(e->lfn, e->lfn_count) :
			   fp_name_sfn_key(e->sfn);
	return k;
}

void fp_dupname_add(struct fp_walk *v, const struct fp_dirent *e)
{
	struct fp_walk_names *nm = &v->names;
	struct fp_walk_nkey *s = add_key(v, nm, e, 0), *l;

	if (s && e->lfn_count && (l = add_key(v, nm, e, 1)))
		l->twin = l->key == nm->keys[nm->count - 2].key;
}

/* Hash every name, when some share a key. */
static void hash_names(const struct fp_dir *d, struct fp_walk_names *nm)
{
	uint16_t u[FP_LFN_MAX + FP_LFN_CHARS];
	size_t i;

	for (i = 0; i < nm->count; i++)
		nm->keys[i].h = fp_name_hash(u, key_name(d, &nm->keys[i], u));
}

static int key_cmp(const void *a, const void *b)
{
	const struct fp_walk_nkey *x = a, *y = b;

	if (x->h != y->h)
		return (x->h > y->h) - (x->h < y->h);
	return (x->slot > y->slot) - (x->slot < y->slot);
}

static char *key_path(const struct fp_walk *v, const struct fp_dir *d,
		      size_t f, const struct fp_walk_nkey *k)
{
	struct fp_dir_iter it = { k->first_slot, 0 };
	struct fp_dirent e;

	if (!fp_dir_next(d, v->fat32, &it, &e))
		return NULL;
	return fp_walk_frame_path(v, f, &e);
}

/* Names @a and @b of the directory @d of frame @f are the same. */
static void report_dup(struct fp_walk *v, const struct fp_dir *d, size_t f,
		       const struct fp_walk_nkey *a,
		       const struct fp_walk_nkey *b)
{
	char *pa = NULL, *pb = NULL;
	struct fp_finding *fd;

	if (!v->r || v->owners_pass ||
	    v->r->per_problem[FP_P_DUP_NAME] >= FP_VERIFY_CAP) {
		/* only counted */
		fp_walk_add(v, FP_P_DUP_NAME, "", 0, 0, 0);
		return;
	}
	pa = key_path(v, d, f, a);
	pb = key_path(v, d, f, b);
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

/*
 * 1 if no two names have the same key (@fnv 0) or hash (@fnv 1), by an
 * open-addressed set of the values (0 on doubt: a value of 0 or 1, both
 * stored as 1, or no memory); most directories need then neither the
 * hashes nor the sort nor a name compared.
 */
static int values_distinct(struct fp_walk_names *nm, int fnv)
{
	size_t cap = 16, i, j;
	uint64_t *set, h;
	int ok = 1;

	while (cap < 2 * nm->count)
		cap *= 2;
	if (cap > nm->set_cap) {
		free(nm->set);
		nm->set_cap = 0;
		if (!(nm->set = malloc(cap * sizeof(*set))))
			return 0;
		nm->set_cap = cap;
	}
	set = nm->set;
	memset(set, 0, cap * sizeof(*set));
	for (i = 0; i < nm->count && ok; i++) {
		if (!fnv && nm->keys[i].twin)
			continue;	/* no second name to compare */
		h = fnv ? nm->keys[i].h : nm->keys[i].key;
		h = h > 1 ? h : 1;
		for (j = (size_t)h & (cap - 1); set[j] && ok;
		     j = (j + 1) & (cap - 1))
			ok = set[j] != h;
		set[j] = h;
	}
	return ok;
}

/*
 * Names that hash alike are compared for real: hashes are not trusted.
 * First the cheap keys: equal names have equal keys, so distinct keys
 * (a long name keyed as its own short name does not count) prove that
 * the directory has no duplicate.  Otherwise every name is hashed and
 * the hashes sorted, so that duplicates are found, and reported, in
 * the order of their hashes.  Returns 1 if a duplicate was found.
 */
int fp_dupname_check(struct fp_walk *v, const struct fp_dir *d, size_t f)
{
	struct fp_walk_names *nm = &v->names;
	uint16_t ua[FP_LFN_MAX + FP_LFN_CHARS], ub[FP_LFN_MAX + FP_LFN_CHARS];
	size_t i, j, na, nb;
	int found = 0;

	if (nm->count < 2 || values_distinct(nm, 0))
		return 0;
	hash_names(d, nm);
	if (values_distinct(nm, 1))
		return 0;
	qsort(nm->keys, nm->count, sizeof(*nm->keys), key_cmp);
	for (i = 0; i < nm->count; i++) {
		for (j = i + 1; j < nm->count && nm->keys[j].h ==
		     nm->keys[i].h; j++) {
			if (nm->keys[j].slot == nm->keys[i].slot)
				continue;
			na = key_name(d, &nm->keys[i], ua);
			nb = key_name(d, &nm->keys[j], ub);
			if (fp_name_equal(ua, na, ub, nb)) {
				report_dup(v, d, f, &nm->keys[i],
					   &nm->keys[j]);
				found = 1;
				break;
			}
		}
	}
	return found;
}
