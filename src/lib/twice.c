/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* twice.c - first clusters of claimed entries, for moved-twice. */
#include "twice.h"

#include <stdlib.h>

struct fp_twice_slot {
	uint32_t cl;		/* 0: empty */
	uint32_t size;
	uint8_t attr;
};

/* The attribute bits compared: all but the archive bit. */
#define TWICE_ATTR(a) ((uint8_t)((a) & ~FP_ATTR_ARCHIVE))

static size_t slot_of(uint32_t cl, size_t cap)
{
	uint32_t h = cl * 0x9E3779B1u;

	return (size_t)(h ^ (h >> 15)) & (cap - 1);
}

static void insert(struct fp_twice_slot *s, size_t cap,
		   const struct fp_twice_slot *v)
{
	size_t i = slot_of(v->cl, cap);

	while (s[i].cl && s[i].cl != v->cl)
		i = (i + 1) & (cap - 1);
	if (!s[i].cl)
		s[i] = *v;
}

static enum fp_err grow(struct fp_twice *t)
{
	size_t cap = t->cap ? 2 * t->cap : 64, i;
	struct fp_twice_slot *s = calloc(cap, sizeof(*s));

	if (!s)
		return FP_E_NOMEM;
	for (i = 0; i < t->cap; i++)
		if (t->slots[i].cl)
			insert(s, cap, &t->slots[i]);
	free(t->slots);
	t->slots = s;
	t->cap = cap;
	return FP_OK;
}

enum fp_err fp_twice_add(struct fp_twice *t, const struct fp_dirent *e)
{
	struct fp_twice_slot v = { e->cl, e->size, TWICE_ATTR(e->attr) };
	enum fp_err err;

	if (!e->cl)
		return FP_OK;
	if (2 * (t->count + 1) > t->cap) {
		err = grow(t);
		if (err)
			return err;
	}
	insert(t->slots, t->cap, &v);
	t->count++;
	return FP_OK;
}

int fp_twice_same(const struct fp_twice *t, const struct fp_dirent *e)
{
	size_t i;

	if (!t->cap || !e->cl)
		return 0;
	for (i = slot_of(e->cl, t->cap); t->slots[i].cl;
	     i = (i + 1) & (t->cap - 1))
		if (t->slots[i].cl == e->cl)
			return t->slots[i].size == e->size &&
			       t->slots[i].attr == TWICE_ATTR(e->attr);
	return 0;
}

void fp_twice_release(struct fp_twice *t)
{
	free(t->slots);
	t->slots = NULL;
	t->count = t->cap = 0;
}
