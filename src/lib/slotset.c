/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* slotset.c - sets of (directory, slot) pairs in a hash table. */
#include "slotset.h"

#include <assert.h>
#include <stdlib.h>

struct fp_slotset_key {
	const struct fp_dir *dir;	/* NULL: an empty place */
	uint32_t slot;
};

/* The first place to look for the pair in a table of @cap places. */
static size_t slotset_place(const struct fp_dir *dir, uint32_t slot,
			    size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)dir * 0x9E3779B97F4A7C15ull;

	h ^= (h >> 29) ^ ((uint64_t)slot * 0xC2B2AE3D27D4EB4Full);
	h ^= h >> 32;
	return (size_t)h & (cap - 1);
}

/* The place of the pair, or of the empty place where it would go. */
static size_t slotset_find(const struct fp_slotset_key *k, size_t cap,
			   const struct fp_dir *dir, uint32_t slot)
{
	size_t i = slotset_place(dir, slot, cap);

	while (k[i].dir && (k[i].dir != dir || k[i].slot != slot))
		i = (i + 1) & (cap - 1);
	return i;
}

/* Twice the places (64 to start), every pair moved over. */
static enum fp_err slotset_grow(struct fp_slotset *s)
{
	size_t cap = s->cap ? 2 * s->cap : 64, i, j;
	struct fp_slotset_key *k;

	if (s->cap > SIZE_MAX / 2 / sizeof(*k))
		return FP_E_NOMEM;
	k = calloc(cap, sizeof(*k));
	if (!k)
		return FP_E_NOMEM;
	for (i = 0; i < s->cap; i++) {
		if (!s->keys[i].dir)
			continue;
		j = slotset_find(k, cap, s->keys[i].dir, s->keys[i].slot);
		k[j] = s->keys[i];
	}
	free(s->keys);
	s->keys = k;
	s->cap = cap;
	return FP_OK;
}

enum fp_err fp_slotset_add(struct fp_slotset *s, const struct fp_dir *dir,
			   uint32_t slot)
{
	enum fp_err err;
	size_t i;

	assert(dir);
	if (fp_slotset_has(s, dir, slot))
		return FP_OK;
	if (2 * (s->count + 1) > s->cap) {
		err = slotset_grow(s);
		if (err)
			return err;
	}
	i = slotset_find(s->keys, s->cap, dir, slot);
	s->keys[i].dir = dir;
	s->keys[i].slot = slot;
	s->count++;
	return FP_OK;
}

int fp_slotset_has(const struct fp_slotset *s, const struct fp_dir *dir,
		   uint32_t slot)
{
	if (!s->cap || !dir)
		return 0;
	return s->keys[slotset_find(s->keys, s->cap, dir, slot)].dir != NULL;
}

size_t fp_slotset_count(const struct fp_slotset *s)
{
	return s->count;
}

void fp_slotset_release(struct fp_slotset *s)
{
	free(s->keys);
	s->keys = NULL;
	s->count = s->cap = 0;
}
