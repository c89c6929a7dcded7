/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* dupname.c - two entries of one name in a directory, as VFAT compares. */
#include "dupname.h"

#include <stdlib.h>
#include <string.h>

#include "name.h"
#include "util.h"

/* A name of an entry, keyed and hashed case-insensitively. */
struct fp_dupname_key {
	uint64_t key;		/* fp_name_key() */
	uint64_t h;		/* fp_name_hash(), made when keys meet */
	uint32_t slot;		/* the short entry */
	uint32_t first_slot;	/* its first long-name slot */
	int is_long;
	int twin;		/* same key as its entry's short name */
};

/* The short or long name of the entry a key stands for. */
static size_t key_name(const struct fp_dir *d, const struct fp_dupname_key *k,
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

static inline struct fp_dupname_key *add_key(struct fp_dupname *nm,
					      const struct fp_dirent *e,
					      int is_long)
{
	struct fp_dupname_key *k;

	if (nm->count == nm->cap &&	/* fp_grow() is a call */
	    fp_grow(&nm->keys, &nm->cap, nm->count, sizeof(*nm->keys)))
		return NULL;
	k = &nm->keys[nm->count++];
	k->slot = e->slot;
	k->first_slot = e->first_slot;
	k->is_long = is_long;
	k->twin = 0;
	k->key = is_long ? fp_name_key(e->lfn, e->lfn_count) :
			   fp_name_sfn_key(e->sfn);
	return k;
}

void fp_dupname_reset(struct fp_dupname *nm)
{
	nm->count = 0;
}

void fp_dupname_release(struct fp_dupname *nm)
{
	free(nm->keys);
	free(nm->set);
	memset(nm, 0, sizeof(*nm));
}

enum fp_err fp_dupname_add(struct fp_dupname *nm, const struct fp_dirent *e)
{
	struct fp_dupname_key *s = add_key(nm, e, 0), *l = NULL;

	if (s && e->lfn_count && (l = add_key(nm, e, 1)))
		l->twin = l->key == nm->keys[nm->count - 2].key;
	return !s || (e->lfn_count && !l) ? FP_E_NOMEM : FP_OK;
}

/* Hash every name, when some share a key. */
static void hash_names(const struct fp_dir *d, struct fp_dupname *nm)
{
	uint16_t u[FP_LFN_MAX + FP_LFN_CHARS];
	size_t i;

	for (i = 0; i < nm->count; i++)
		nm->keys[i].h = fp_name_hash(u, key_name(d, &nm->keys[i], u));
}

static int key_cmp(const void *a, const void *b)
{
	const struct fp_dupname_key *x = a, *y = b;

	if (x->h != y->h)
		return (x->h > y->h) - (x->h < y->h);
	return (x->slot > y->slot) - (x->slot < y->slot);
}

/*
 * 1 if no two names have the same key (@fnv 0) or hash (@fnv 1), by an
 * open-addressed set of the values (0 on doubt: a value of 0 or 1, both
 * stored as 1, or no memory); most directories need then neither the
 * hashes nor the sort nor a name compared.
 */
static int values_distinct(struct fp_dupname *nm, int fnv)
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
int fp_dupname_check(struct fp_dupname *nm, const struct fp_dir *d,
		     fp_dupname_fn *fn, void *ctx)
{
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
				fn(ctx, nm->keys[i].first_slot,
				   nm->keys[j].first_slot);
				found = 1;
				break;
			}
		}
	}
	return found;
}
