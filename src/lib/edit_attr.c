/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * edit_attr.c - plan an attribute edit (--attr SPEC ::PATH): the one byte
 * of an existing entry changed in memory, its sector written by the
 * commit's directory step; times, name, chain and size are kept, as
 * mattrib keeps them.
 */
#include "edit_attr.h"

#include <string.h>

#include "plan_impl.h"

/* The letters of SPEC, in the order fp_edit_attr_letters() shows them. */
static const struct {
	char letter;
	uint8_t bit;
} letters[] = {
	{ 'r', FP_ATTR_RO },
	{ 'h', FP_ATTR_HIDDEN },
	{ 's', FP_ATTR_SYSTEM },
	{ 'a', FP_ATTR_ARCHIVE },
};

#define LETTER_COUNT (sizeof(letters) / sizeof(letters[0]))

/* The bit of letter @ch (either case), or 0. */
static uint8_t letter_bit(char ch)
{
	size_t i;

	if (ch >= 'A' && ch <= 'Z')
		ch = (char)(ch - 'A' + 'a');
	for (i = 0; i < LETTER_COUNT; i++)
		if (letters[i].letter == ch)
			return letters[i].bit;
	return 0;
}

enum fp_err fp_edit_attr_parse(const char *spec, uint8_t *set,
			       uint8_t *clear)
{
	uint8_t s = 0, c = 0, bit, *to = NULL;
	int letters_after_sign = 1;

	for (; *spec; spec++) {
		if (*spec == '+' || *spec == '-') {
			if (!letters_after_sign)
				return FP_E_INVAL;	/* "+-a", "+" */
			to = *spec == '+' ? &s : &c;
			letters_after_sign = 0;
			continue;
		}
		bit = letter_bit(*spec);
		if (!to || !bit)
			return FP_E_INVAL;	/* "r", "+x" */
		*to |= bit;
		letters_after_sign = 1;
	}
	if (!to || !letters_after_sign || (s & c))
		return FP_E_INVAL;
	*set = s;
	*clear = c;
	return FP_OK;
}

void fp_edit_attr_letters(uint8_t attr, char out[5])
{
	size_t i;

	for (i = 0; i < LETTER_COUNT; i++)
		out[i] = attr & letters[i].bit ? letters[i].letter : '-';
	out[LETTER_COUNT] = '\0';
}

/*
 * The entry @e that an attribute edit changes, checked as a writer
 * checks what it writes into: a valid short name, and for a directory
 * the entry the path walk would enter (size 0, a chain); a chain the
 * tree walk found damaged, or cross-linked, is refused too, although the
 * edit writes nothing of it, so that no edit changes a file that
 * --verify calls damaged.  *have: the chain's length, for the report.
 */
static enum fp_err gate_entry(struct fp_plan *p, const struct fp_dirent *e,
			      uint32_t *have)
{
	struct fp_walk_check c = fp_plan_gate(p);
	uint32_t last;
	enum fp_err err;

	if (fp_walk_bad_name(&c, e))
		return FP_E_DAMAGED;
	if ((e->attr & FP_ATTR_DIR) &&
	    (fp_walk_dir_size(&c, e) || fp_walk_dir_no_chain(&c, e)))
		return FP_E_DAMAGED;
	err = e->cl ? fp_plan_check_chain(p, e->cl) : FP_OK;
	return err ? err : fp_plan_file_chain(p, e, have, &last);
}

/* 1 if @path ends in a slash: it names a directory (as --map reads it). */
static int ends_in_slash(const char *path)
{
	size_t n = strlen(path);

	return n && path[n - 1] == '/';
}

/*
 * The entry is changed in the directory's buffer only: its sector goes
 * out in the commit's step 4 (docs/DESIGN.md "Commit order"), one sector
 * write for the byte.  An earlier request of the plan may have made or
 * changed the entry (a copy, then its attributes): the edit holds no
 * entry of its own (f->dir stays NULL), so that it never makes a later
 * request of the same path a duplicate.
 */
enum fp_err fp_edit_attr_plan(struct fp_plan *p, const struct fp_req *r,
			      const struct fp_req_edit *ed,
			      struct fp_plan_file *f)
{
	uint16_t name[FP_LFN_MAX];
	struct fp_dirent e;
	struct fp_dir *dir;
	uint8_t *ent, attr;
	size_t n;
	int parents;
	enum fp_err err;

	if ((ed->attr_set | ed->attr_clear) & ~FP_EDIT_ATTR_BITS)
		return FP_E_INVAL;	/* never the volume or directory bit */
	parents = p->opts.parents;	/* an edit makes no directory */
	p->opts.parents = 0;
	err = fp_plan_find_entry(p, r->path, FP_PLAN_NAME_ENTRY, name, &n,
				 &dir, &e);
	p->opts.parents = parents;
	if (err)
		return err;
	if (ends_in_slash(r->path) && !(e.attr & FP_ATTR_DIR))
		return FP_E_NOTDIR;
	err = gate_entry(p, &e, &f->old_clusters);
	if (err)
		return err;
	attr = (uint8_t)((e.attr | ed->attr_set) & ~ed->attr_clear);
	f->is_dir = 0;
	f->old_size = f->new_size = e.size;
	f->first_cl = e.cl;
	f->old_attr = e.attr;
	f->new_attr = attr;
	f->action = FP_ACT_ATTR;	/* old_attr == new_attr: unchanged */
	if (attr == e.attr)
		return FP_OK;
	ent = fp_dir_ent(dir, e.slot);
	ent[DIR_ATTR] = attr;
	fp_dir_touch(dir, e.slot);
	return FP_OK;
}
