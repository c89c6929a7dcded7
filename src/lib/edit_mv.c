/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * edit_mv.c - rename or move a file or directory within the volume
 * (--mv): the entry keeps its start cluster, size, attributes and times;
 * no data is copied.  The order of the writes is docs/DESIGN.md "Moves".
 */
#include "plan_impl.h"

#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "le.h"
#include "name.h"

/* The entry being moved and where it goes. */
struct mv {
	struct fp_dir *sdir;	/* holds the entry */
	struct fp_dirent e;	/* the entry */
	struct fp_dir *tdir;	/* where it goes */
	uint16_t name[FP_LFN_MAX];	/* under this name */
	size_t n;
	int fat32;
};

static uint32_t root_key(const struct fp_plan *p)
{
	const struct fp_geom *g = fp_fs_geom(p->fs);

	return g->type == FP_FAT32 ? g->root_cl : 0;
}

/* 1 if @path names the root (no component). */
static int is_root(const char *path)
{
	const char *s;
	size_t len;

	return !fp_path_next(&path, &s, &len);
}

/* FP_E_DAMAGED, the damaged entry being the one at @path. */
static enum fp_err damaged_at(struct fp_plan *p, const char *path)
{
	snprintf(p->diag->component, sizeof(p->diag->component), "%s", path);
	return FP_E_DAMAGED;
}

/*
 * The entry @e at @path a move reads or rewrites, checked as a writer
 * checks what it writes through: a valid short name; a directory with
 * size 0 and a chain; a chain the tree walk found sound.  A damaged one
 * is named in the diag as @path, not as the directory that holds it.
 */
static enum fp_err check_entry(struct fp_plan *p, const struct fp_dirent *e,
			       const char *path)
{
	struct fp_walk_check c = fp_plan_gate(p);
	enum fp_err err = FP_OK;

	if (fp_walk_bad_name(&c, e))
		err = FP_E_DAMAGED;
	else if ((e->attr & FP_ATTR_DIR) &&
		 (fp_walk_dir_size(&c, e) || fp_walk_dir_no_chain(&c, e)))
		err = FP_E_DAMAGED;
	else if (e->cl)
		err = fp_plan_check_chain(p, e->cl);
	return err == FP_E_DAMAGED ? damaged_at(p, path) : err;
}

/* FROM: its directory and entry, checked. */
static enum fp_err find_from(struct fp_plan *p, const char *path,
			     struct mv *m)
{
	enum fp_err err;

	if (is_root(path))
		return FP_E_MVROOT;
	err = fp_plan_find_entry(p, path, FP_PLAN_NAME_DIR, m->name, &m->n,
				 &m->sdir, &m->e);
	if (err)
		return err;
	if (fp_plan_same_file(p, m->sdir, m->e.slot))
		return FP_E_DUPPATH;
	return check_entry(p, &m->e, path);
}

/* The name @m's entry has: its long name, else its short one as shown. */
static void own_name(struct mv *m)
{
	if (m->e.lfn_count) {
		memcpy(m->name, m->e.lfn, m->e.lfn_count * sizeof(*m->name));
		m->n = m->e.lfn_count;
	} else {
		m->n = fp_name_sfn_decode(m->e.sfn, m->e.ntres, m->name);
	}
}

/*
 * Into the existing directory @d at @path (an entry of the walk's last
 * directory).
 */
static enum fp_err enter(struct fp_plan *p, const struct fp_dirent *d,
			 const char *path, struct mv *m)
{
	enum fp_err err = check_entry(p, d, path);

	if (!err && fp_path_on_trail(&p->walk, d->cl))
		err = fp_plan_damaged(p, FP_P_DIR_CYCLE);
	return err ? err : fp_plan_get_dir(p, d->cl, &m->tdir);
}

/*
 * TO: the directory the entry goes to and its name there; *t and *found:
 * what has that name there already.  TO names a directory to move into
 * when it ends in a slash, is the root or is an existing directory (not
 * the entry itself: "mv ::dir ::DIR" renames); the entry then keeps its
 * own name.  A directory never goes into itself or below.
 */
static enum fp_err find_to(struct fp_plan *p, const char *to, struct mv *m,
			   struct fp_dirent *t, int *found)
{
	size_t len = strlen(to);
	int into = is_root(to) || (len && to[len - 1] == '/');
	enum fp_err err;

	*found = 0;
	if (is_root(to)) {
		err = fp_plan_get_dir(p, root_key(p), &m->tdir);
	} else {
		err = fp_plan_find_entry(p, to, FP_PLAN_NAME_DIR, m->name,
					 &m->n, &m->tdir, t);
		*found = !err;
		if (err == FP_E_NOFILE)
			err = FP_OK;	/* a new name there */
		if (!err && !into && *found && m->tdir == m->sdir &&
		    t->slot == m->e.slot)
			return FP_OK;	/* the entry itself: a rename */
		if (!err && into && !(*found && (t->attr & FP_ATTR_DIR)))
			err = *found ? FP_E_NOTDIR : FP_E_NOENT;
		into = !err && *found && (t->attr & FP_ATTR_DIR);
		if (into)
			err = enter(p, t, to, m);
	}
	if (err)
		return err;
	if (into) {
		own_name(m);
		*found = fp_dir_lookup(m->tdir, m->fat32, m->name, m->n, t);
	}
	if ((m->e.attr & FP_ATTR_DIR) &&
	    (fp_dir_first_cl(m->tdir) == m->e.cl ||
	     fp_path_on_trail(&p->walk, m->e.cl)))
		return FP_E_MVSELF;
	return FP_OK;
}

/*
 * The entry set for @m's name in @m->tdir into @ents (*count entries):
 * long-name slots, then a short entry that is @old (attributes, times,
 * cluster, size) with its new short name and case bits.
 */
static enum fp_err make_set(struct mv *m, const uint8_t *old, uint8_t *ents,
			    unsigned *count)
{
	uint8_t sfn[11], ntres, *sent;
	unsigned nlfn = 0, i;
	int lfn;
	enum fp_err err;

	err = fp_dir_pick_sfn(m->tdir, m->name, m->n, sfn, &ntres, &lfn);
	if (err)
		return err;
	if (lfn)
		nlfn = fp_name_lfn_slots(m->n);
	for (i = 0; i < nlfn; i++)
		fp_name_lfn_encode(ents + i * FP_DIRENT_LEN, m->name, m->n,
				   nlfn - i, fp_name_lfn_sum(sfn));
	sent = ents + nlfn * FP_DIRENT_LEN;
	memcpy(sent, old, FP_DIRENT_LEN);
	memcpy(sent + DIR_NAME, sfn, 11);
	sent[DIR_NTRES] = ntres;
	*count = nlfn + 1;
	return FP_OK;
}

/* Slots of @m's entry set, long-name slots included. */
static uint32_t set_len(const struct mv *m)
{
	return m->e.slot - m->e.first_slot + 1;
}

/*
 * A new entry set in @m->tdir, where fp_plan_place_set() puts it; the old
 * set is unlinked once the new one is on disk (fp_change_unlink()).
 */
static enum fp_err move_new(struct fp_plan *p, struct mv *m)
{
	uint8_t ents[FP_DIR_SET_MAX * FP_DIRENT_LEN];
	uint32_t slot;
	unsigned count;
	enum fp_err err;

	err = make_set(m, fp_dir_ent(m->sdir, m->e.slot), ents, &count);
	if (!err)
		err = fp_plan_place_set(p, m->tdir, count, &slot);
	if (err)
		return err;
	fp_dir_put(m->tdir, slot, ents, count);
	return fp_change_unlink(p->cs, m->sdir, m->e.first_slot, set_len(m));
}

/*
 * A rename within one directory: the new set in the old one's slots when
 * it fits there (ending at the short entry, the slots before it deleted),
 * so that one write of those sectors switches the name; else move_new().
 * *same: the name is the one the entry has, byte for byte.
 */
static enum fp_err rename_here(struct fp_plan *p, struct mv *m, int *same)
{
	uint8_t old[FP_DIR_SET_MAX * FP_DIRENT_LEN];
	uint8_t ents[FP_DIR_SET_MAX * FP_DIRENT_LEN];
	uint32_t oc = set_len(m);
	unsigned nc;
	enum fp_err err;

	assert(oc <= FP_DIR_SET_MAX);
	memcpy(old, fp_dir_ent(m->sdir, m->e.first_slot), oc * FP_DIRENT_LEN);
	/* its own short name is free to the new name */
	fp_dir_delete(m->sdir, m->e.first_slot, oc, FP_DIR_KEEP);
	err = make_set(m, old + (oc - 1) * FP_DIRENT_LEN, ents, &nc);
	*same = !err && nc == oc && !memcmp(ents, old, oc * FP_DIRENT_LEN);
	if (!err && nc <= oc && !*same) {
		fp_dir_put(m->sdir, m->e.slot + 1 - nc, ents, nc);
		return FP_OK;
	}
	fp_dir_put(m->sdir, m->e.first_slot, old, oc);
	return err || *same ? err : move_new(p, m);
}

/*
 * --replace: the existing file @t takes the moved entry's attributes,
 * times, cluster and size under its own name, in one write; its old
 * chain, checked as a replace checks it, is freed after the old set is
 * unlinked.
 */
static enum fp_err replace_target(struct fp_plan *p, struct mv *m,
				  const struct fp_dirent *t,
				  struct fp_plan_file *f)
{
	uint8_t ent[FP_DIRENT_LEN], *tent = fp_dir_ent(m->tdir, t->slot);
	uint32_t have = 0;
	enum fp_err err;

	if (t->attr & FP_ATTR_DIR)
		return FP_E_ISDIR;
	if (m->e.attr & FP_ATTR_DIR)
		return FP_E_NOTDIR;
	if (fp_plan_same_file(p, m->tdir, t->slot))
		return FP_E_DUPPATH;
	err = fp_edit_check_freed(p, t, &have);
	if (!err && have)
		err = fp_change_free_chain(p->cs, 0, t->cl, have);
	if (!err)
		err = fp_change_unlink(p->cs, m->sdir, m->e.first_slot,
				       set_len(m));
	if (err)
		return err;
	memcpy(ent, fp_dir_ent(m->sdir, m->e.slot), FP_DIRENT_LEN);
	memcpy(ent + DIR_NAME, tent + DIR_NAME, 11);
	ent[DIR_NTRES] = tent[DIR_NTRES];
	memcpy(tent, ent, FP_DIRENT_LEN);
	fp_dir_touch(m->tdir, t->slot);
	f->freed = have;
	f->old_clusters = have;
	return FP_OK;
}

/*
 * A directory moved to another parent: its ".." points at the new one
 * (0 for the root), written after the new entry and before the old one
 * is unlinked (fp_change_put_late()).
 */
static enum fp_err fix_dotdot(struct fp_plan *p, const struct mv *m)
{
	uint32_t up = fp_dir_first_cl(m->tdir);
	struct fp_dir_iter it = { 0, 0 };
	uint8_t ent[FP_DIRENT_LEN];
	struct fp_dirent d;
	struct fp_dir *md;
	int dotdot = 0;
	enum fp_err err = fp_plan_get_dir(p, m->e.cl, &md);

	if (err)
		return err;
	while (!dotdot && fp_dir_next(md, m->fat32, &it, &d))
		dotdot = fp_dir_dots(d.sfn) == 2;
	if (!dotdot)
		return fp_plan_damaged(p, FP_P_DOT);
	memcpy(ent, fp_dir_ent(md, d.slot), FP_DIRENT_LEN);
	fp_dirent_set_cluster(ent, up == root_key(p) ? 0 : up, m->fat32);
	return fp_change_put_late(p->cs, md, d.slot, ent);
}

enum fp_err fp_edit_mv(struct fp_plan *p, const struct fp_req *r,
		       const struct fp_req_edit *ed, struct fp_plan_file *f)
{
	struct fp_dirent t;
	struct mv m;
	int found, same = 0;
	enum fp_err err;

	memset(&m, 0, sizeof(m));
	m.fat32 = fp_fs_geom(p->fs)->type == FP_FAT32;
	err = find_from(p, r->path, &m);
	if (!err)
		err = find_to(p, ed->to, &m, &t, &found);
	if (err)
		return err;
	snprintf(p->diag->component, sizeof(p->diag->component), "%s",
		 ed->to);
	f->to = ed->to;
	f->dir = m.sdir;
	f->slot = m.e.slot;
	f->old_size = f->new_size = m.e.size;
	f->first_cl = m.e.cl;
	f->action = FP_ACT_MOVE;
	if (found && !(m.tdir == m.sdir && t.slot == m.e.slot))
		err = ed->flags & FP_EDIT_REPLACE ?
		      replace_target(p, &m, &t, f) : FP_E_EXISTS;
	else if (m.tdir == m.sdir)
		err = rename_here(p, &m, &same);
	else
		err = move_new(p, &m);
	if (!err && same)
		f->action = FP_ACT_NONE;
	if (!err && (m.e.attr & FP_ATTR_DIR) && m.tdir != m.sdir)
		err = fix_dotdot(p, &m);
	return err;
}
