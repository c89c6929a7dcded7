/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * edit_label.c - plan a label change (--label IMAGE NAME): the root's
 * label entry and the boot sector's BS_VolLab (and the FAT32 backup's)
 * together, the volume serial kept, in the order docs/DESIGN.md "Labels"
 * gives so that no state between has two labels that differ.
 */
#include "edit_label.h"

#include <string.h>

#include "bpb_layout.h"
#include "le.h"
#include "name.h"
#include "plan_impl.h"

#define BOOT_SIG_NO_LABEL 0x28	/* an extended boot record without label */
#define BOOT_SIG_LABEL 0x29	/* one with the label and file system type */

static const uint8_t no_name[11] = "NO NAME    ";

enum fp_err fp_edit_label_check(const char *name, uint8_t lab[11],
				int *remove)
{
	uint16_t u[FP_LFN_MAX];
	size_t n;
	enum fp_err err;

	if (!*name) {
		memcpy(lab, no_name, sizeof(no_name));
		*remove = 1;
		return FP_OK;
	}
	err = fp_name_from_utf8(name, strlen(name), u, &n);
	if (err == FP_E_NONBMP)
		err = FP_E_NAME;
	if (!err)
		err = fp_name_label_encode(u, n, lab);
	if (!err)
		*remove = 0;
	return err;
}

/*
 * The root directory's first label entry, as the tree walk takes it
 * (fp_walk_root_label()): its slot in *slot, 1; or 0.
 */
static int find_label(const struct fp_dir *root, int fat32, uint32_t *slot)
{
	struct fp_dir_iter it = { 0, 0 };
	struct fp_dirent e;

	while (fp_dir_next(root, fat32, &it, &e))
		if (fp_dir_is_label(e.attr) && !(e.attr & FP_ATTR_DIR)) {
			*slot = e.slot;
			return 1;
		}
	return 0;
}

/*
 * The root directory, through the walk @w: the directory that holds a
 * path's last component ("/x" needs no lookup of x).
 */
static enum fp_err root_dir(struct fp_path_walk *w, struct fp_dir **out)
{
	uint16_t name[FP_LFN_MAX];
	const char *path = "/x";
	size_t n;

	return fp_path_parent(w, &path, name, &n, out);
}

enum fp_err fp_edit_label_read(struct fp_fs *fs, uint8_t lab[11],
			       int *found)
{
	struct fp_path_walk w;
	struct fp_dir *root;
	uint32_t slot;
	enum fp_err err;

	fp_path_walk_init(&w, fs, NULL, NULL);
	err = root_dir(&w, &root);
	if (!err) {
		*found = find_label(root, fp_fs_geom(fs)->type == FP_FAT32,
				    &slot);
		if (*found)
			memcpy(lab, fp_dir_ent(root, slot), 11);
	}
	fp_path_walk_release(&w);
	return err;
}

/*
 * A new label entry @lab in the lowest free slot of @root, stamped with
 * the plan's time; on FAT32 a full root grows (fp_plan_place_set()), a
 * full FAT12/16 root is FP_E_ROOTFULL.
 */
static enum fp_err add_label(struct fp_plan *p, struct fp_dir *root,
			     const uint8_t lab[11])
{
	uint8_t ent[FP_DIRENT_LEN];
	uint32_t slot;
	enum fp_err err = FP_OK;

	fp_dirent_encode(ent, lab, FP_ATTR_VOLUME, 0, 0, 0,
			 fp_fs_geom(p->fs)->type == FP_FAT32, p->date, p->time,
			 p->tenth);
	if (!fp_dir_find_free(root, 1, 0, &slot))
		err = fp_plan_place_set(p, root, 1, &slot);
	if (!err)
		fp_dir_put(root, slot, ent, 1);
	return err;
}

/*
 * The root's label entry at @slot becomes @lab, with the plan's time as
 * its write time, or (@remove) is deleted: one byte, in its sector.
 */
static void change_label(struct fp_plan *p, struct fp_dir *root,
			 uint32_t slot, const uint8_t lab[11], int remove)
{
	uint8_t *ent = fp_dir_ent(root, slot);

	if (remove) {
		ent[DIR_NAME] = FP_NAME_DELETED;
	} else {
		memcpy(ent + DIR_NAME, lab, 11);
		fp_put_le16(ent + DIR_WRT_TIME, p->time);
		fp_put_le16(ent + DIR_WRT_DATE, p->date);
		fp_put_le16(ent + DIR_ACC_DATE, p->date);
	}
	fp_dir_touch(root, slot);
}

/* 1 if the FAT32 backup boot sector's BS_VolLab is not @lab. */
static int backup_stale(struct fp_plan *p, const uint8_t lab[11],
			enum fp_err *err)
{
	const struct fp_geom *g = fp_fs_geom(p->fs);
	uint8_t b[11];

	*err = FP_OK;
	if (g->type != FP_FAT32 || !g->backup_sec)
		return 0;
	*err = fp_img_read(fp_fs_img(p->fs), (uint64_t)g->backup_sec *
			   g->sec_len + BS32_VOL_LAB, b, sizeof(b));
	return !*err && memcmp(b, lab, sizeof(b));
}

/*
 * The boot sector's label: BS_VolLab := @lab (and the backup's); when the
 * root's entry changes too (@root_too), the signature reads 0x28 from
 * before the root is written until the label is (docs/DESIGN.md
 * "Labels"), and a signature left at 0x28 by a cut change (label_held:
 * a DOS 3.4 boot sector with 0x28 has boot code where BS_FilSysType would
 * say FAT) is put back to 0x29, and a FAT32 backup left with the old
 * label gets the new one.  A boot sector without a label field (a
 * signature other than 0x29, or 0x28 of another tool) is left alone.
 */
static enum fp_err boot_label(struct fp_plan *p, const uint8_t lab[11],
			      int root_too)
{
	const struct fp_geom *g = fp_fs_geom(p->fs);
	int fat32 = g->type == FP_FAT32;
	enum fp_err err = FP_OK;
	uint32_t sig;
	int held = g->label_held;
	int stale = (g->has_label || held) && backup_stale(p, lab, &err);

	if (err || (!g->has_label && !held) ||
	    (!held && !stale && !memcmp(g->label, lab, 11)))
		return err;
	sig = root_too || held ? (fat32 ? BS32_BOOT_SIG : BS_BOOT_SIG) : 0;
	return fp_change_boot_field(p->cs, fat32 ? BS32_VOL_LAB : BS_VOL_LAB,
				    lab, 11, sig, root_too ? BOOT_SIG_NO_LABEL :
				    BOOT_SIG_LABEL, BOOT_SIG_LABEL);
}

enum fp_err fp_edit_label_plan(struct fp_plan *p, const struct fp_req *r,
			       const struct fp_req_edit *ed,
			       struct fp_plan_file *f)
{
	const struct fp_geom *g = fp_fs_geom(p->fs);
	uint8_t lab[11], *ent;
	struct fp_dir *root;
	uint32_t slot;
	int remove, has, root_too;
	enum fp_err err;

	(void)r;
	err = fp_edit_label_check(ed->to ? ed->to : "", lab, &remove);
	if (!err)
		err = root_dir(&p->walk, &root);
	if (err)
		return err;
	f->action = FP_ACT_LABEL;
	has = find_label(root, g->type == FP_FAT32, &slot);
	memset(f->old_label, ' ', 11);
	if (has)
		memcpy(f->old_label, fp_dir_ent(root, slot), 11);
	memcpy(f->new_label, remove ? (const uint8_t *)"           " : lab, 11);
	ent = has ? fp_dir_ent(root, slot) : NULL;
	root_too = remove ? has : !has || memcmp(ent, lab, 11);
	err = boot_label(p, lab, root_too);
	if (err || !root_too)
		return err;
	if (has) {
		change_label(p, root, slot, lab, remove);
		return FP_OK;
	}
	return add_label(p, root, lab);
}
