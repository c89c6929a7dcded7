/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * walk_base.c - what both files of the tree walk stand on: its failure,
 * its bit sets, its reads of FAT entries, the paths of its findings and
 * their recording.  walk.c (the tree) calls walk_claim.c (the chains),
 * and both call this file, which calls neither.
 */
#include "walk_impl.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "findings_impl.h"
#include "name.h"

void fp_walk_fail(struct fp_walk *v, enum fp_err err)
{
	if (!v->err)
		v->err = err;
}

/* Set bits @lo .. @hi (inclusive) of @b; no memory fails the check. */
void fp_walk_bits_fill(struct fp_walk *v, struct fp_bitset *b, uint32_t lo,
		       uint32_t hi)
{
	if (fp_bitset_fill(b, lo, hi))
		fp_walk_fail(v, FP_E_NOMEM);
}

/* Empty sets for every cluster number of the volume. */
void fp_walk_bits_init(struct fp_walk *v, struct fp_bitset *b)
{
	if (fp_bitset_init(b, (uint64_t)v->max_cl + 1))
		fp_walk_fail(v, FP_E_NOMEM);
}

/*
 * FAT entry @cl.  A read error fails the whole check (its findings are
 * dropped), and from then on every entry reads as end-of-chain, so that
 * the walks under way stop at once.  The group of NEAR entries around
 * @cl is read at once and kept: the files of a directory often start at
 * neighbouring clusters.  A group lies in one window (windows hold a
 * multiple of NEAR entries), the one fp_fat_get() reads.
 */
uint32_t fp_walk_entry_read(struct fp_walk *v, uint32_t cl)
{
	uint32_t base = cl - cl % NEAR, n;
	enum fp_err err = FP_E_INVAL;

	if (v->err)
		return fp_fat_eoc(v->fat);
	n = cl <= v->max_cl && v->max_cl - base < NEAR ?
	    v->max_cl - base + 1 : NEAR;
	if (cl <= v->max_cl)
		err = fp_fat_get_run(v->fat, base, n, v->near);
	if (err) {
		fp_walk_fail(v, err);
		return fp_fat_eoc(v->fat);
	}
	v->near_cl = base;
	v->near_count = n;
	return v->near[cl - base];
}

uint32_t fp_walk_entry(struct fp_walk *v, uint32_t cl)
{
	return walk_entry(v, cl);
}

const char *fp_walk_path_str(struct fp_walk *v, struct fp_walk_path *p)
{
	if (p->s)
		return p->s;
	if (!p->made && !(p->made = fp_walk_frame_path(v, p->frame, p->e)))
		fp_walk_fail(v, FP_E_NOMEM);
	return p->made;
}

struct fp_finding *fp_walk_add_at(struct fp_walk *v, enum fp_problem p,
				  struct fp_walk_path *ep, uint32_t cl,
				  uint64_t a, uint64_t b)
{
	struct fp_finding *f;
	const char *path;
	enum fp_err err;

	v->last = p;
	/* the writers' walk (no report) keeps no findings */
	if (v->owners_pass || !v->r || !fp_report_count(v->r, p))
		return NULL;
	path = fp_walk_path_str(v, ep);
	if (!path)
		return NULL;
	err = fp_report_add(v->r, p, path, cl, a, b, &f);
	if (err)
		fp_walk_fail(v, err);
	return f;
}

struct fp_finding *fp_walk_add(struct fp_walk *v, enum fp_problem p,
			       const char *path, uint32_t cl, uint64_t a,
			       uint64_t b)
{
	struct fp_walk_path ep = { path, 0, NULL, NULL };

	return fp_walk_add_at(v, p, &ep, cl, a, b);
}

/* The name of entry @e in UTF-8 into @name (3 * FP_LFN_MAX + 1 bytes). */
size_t fp_walk_entry_name(const struct fp_dirent *e, char *name)
{
	uint16_t sname[12];
	size_t n;

	if (e->lfn_count)
		return fp_name_to_utf8(e->lfn, e->lfn_count, name,
				       3 * FP_LFN_MAX + 1);
	n = fp_name_sfn_decode(e->sfn, e->ntres, sname);
	return fp_name_to_utf8(sname, n, name, 3 * FP_LFN_MAX + 1);
}

/*
 * "/a/b/name": the path of entry @e (NULL: of the directory itself, "/"
 * for the root) in the directory of frame @f, malloc'd; NULL without
 * memory.  One pass up the parents to measure, one to fill from the end:
 * linear in the depth.
 */
char *fp_walk_frame_path(const struct fp_walk *v, size_t f,
			 const struct fp_dirent *e)
{
	char name[3 * FP_LFN_MAX + 1];
	size_t len = 0, nlen = 0, i;
	const struct fp_walk_frame *fr;
	char *p;

	if (e)
		len = 1 + (nlen = fp_walk_entry_name(e, name));
	for (i = f; i != 0; i = v->frames[i].parent)
		len += 1 + v->frames[i].name_len;
	if (len == 0)
		return strdup("/");
	p = malloc(len + 1);
	if (!p)
		return NULL;
	p[len] = '\0';
	if (e) {
		len -= nlen;
		memcpy(p + len, name, nlen);
		p[--len] = '/';
	}
	for (i = f; i != 0; i = fr->parent) {
		fr = &v->frames[i];
		len -= fr->name_len;
		memcpy(p + len, v->names_buf + fr->name_off, fr->name_len);
		p[--len] = '/';
	}
	assert(len == 0);
	return p;
}
