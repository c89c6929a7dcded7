/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fs.c - an opened volume: geometry, active FAT, free bitmap, FSInfo. */
#include "fs.h"

#include <stdlib.h>
#include <string.h>

/* An opened volume.  Borrows the image; owns everything else. */
struct fp_fs {
	struct fp_img *img;
	struct fp_geom geom;
	struct fp_fat *fat;
	struct fp_bitmap *bm;	/* NULL until fp_fs_bitmap() */
	struct fp_fsinfo fsinfo;	/* valid only on FAT32 with FSInfo */
};

static enum fp_err load_fsinfo(struct fp_fs *fs)
{
	const struct fp_geom *g = &fs->geom;
	uint8_t *sec;
	enum fp_err err;

	if (g->type != FP_FAT32 || g->fsinfo_sec == 0)
		return FP_OK;
	sec = malloc(g->sec_len);
	if (!sec)
		return FP_E_NOMEM;
	err = fp_img_read(fs->img, (uint64_t)g->fsinfo_sec * g->sec_len, sec,
			  g->sec_len);
	if (!err)
		fp_bpb_fsinfo_decode(sec, &fs->fsinfo);
	free(sec);
	return err;
}

enum fp_err fp_fs_open(struct fp_img *img, struct fp_fs **out)
{
	return fp_fs_open_copy(img, UINT32_MAX, out);
}

enum fp_err fp_fs_open_copy(struct fp_img *img, uint32_t copy,
			    struct fp_fs **out)
{
	uint8_t boot[FP_SECTOR_MIN];
	struct fp_fs *fs;
	enum fp_err err;

	if (fp_img_len(img) < sizeof(boot))
		return FP_E_NOTFAT;
	err = fp_img_read(img, 0, boot, sizeof(boot));
	if (err)
		return err;
	fs = calloc(1, sizeof(*fs));
	if (!fs)
		return FP_E_NOMEM;
	fs->img = img;
	err = fp_bpb_decode(boot, fp_img_len(img), &fs->geom);
	if (!err && copy != UINT32_MAX && copy >= fs->geom.fat_count)
		err = FP_E_INVAL;
	else if (!err && copy != UINT32_MAX)
		fs->geom.active_fat = copy;
	if (!err)
		err = fp_fat_open(img, &fs->geom, &fs->fat);
	if (!err)
		err = load_fsinfo(fs);
	if (err) {
		fp_fs_free(fs);
		return err;
	}
	*out = fs;
	return FP_OK;
}

static enum fp_err volume_dirty(struct fp_fs *fs, int *dirty)
{
	uint32_t e1;
	enum fp_err err = fp_fat_get(fs->fat, 1, &e1);

	if (err)
		return err;
	if (fs->geom.state & FP_STATE_DIRTY)
		*dirty = 1;
	else if (fs->geom.type == FP_FAT16)
		*dirty = !(e1 & FP_FAT16_CLEAN);
	else if (fs->geom.type == FP_FAT32)
		*dirty = !(e1 & FP_FAT32_CLEAN);
	else
		*dirty = 0;
	return FP_OK;
}

const struct fp_geom *fp_fs_geom(const struct fp_fs *fs)
{
	return &fs->geom;
}

struct fp_img *fp_fs_img(const struct fp_fs *fs)
{
	return fs->img;
}

struct fp_fat *fp_fs_fat(const struct fp_fs *fs)
{
	return fs->fat;
}

struct fp_bitmap *fp_fs_bm(const struct fp_fs *fs)
{
	return fs->bm;
}

const struct fp_fsinfo *fp_fs_fsinfo(const struct fp_fs *fs)
{
	return &fs->fsinfo;
}

void fp_fs_set_fsinfo(struct fp_fs *fs, const struct fp_fsinfo *fi)
{
	fs->fsinfo = *fi;
}

enum fp_err fp_fs_bitmap(struct fp_fs *fs)
{
	if (fs->bm)
		return FP_OK;
	return fp_bitmap_load(fs->fat, &fs->bm);
}

enum fp_err fp_fs_check(struct fp_fs *fs, struct fp_fs_diag *diag)
{
	struct fp_fat_diff d;
	uint32_t copy;
	int dirty;
	enum fp_err err;

	err = volume_dirty(fs, &dirty);
	if (!err && dirty)
		err = FP_E_DIRTY;
	if (!err)
		err = fp_fat_check_copies(fs->fat);
	for (copy = 0; !err && copy < fs->geom.fat_count; copy++) {
		d = fp_fat_copy_diff(fs->fat, copy);
		if (!d.count)
			continue;
		diag->copy = copy;
		diag->first_cl = d.first_cl;
		diag->diff_count = d.count;
		err = FP_E_FATDIFF;
	}
	return err;
}

/* Write zeros into the holes of [off, off + len). */
static enum fp_err fill_range(struct fp_img *img, uint64_t off, uint64_t len,
			      uint64_t *bytes, uint64_t *count)
{
	uint64_t end = off + len, ho, hl;
	enum fp_err err;

	while (off < end) {
		err = fp_img_find_hole(img, off, end - off, &ho, &hl);
		if (err || hl == 0)
			return err;
		err = fp_img_zero(img, ho, hl);
		if (err)
			return err;
		*bytes += hl;
		(*count)++;
		off = ho + hl;
	}
	return FP_OK;
}

/* 1 if cluster @cl is in use: neither free nor bad. */
static enum fp_err cl_used(struct fp_fs *fs, uint32_t cl, int *used)
{
	enum fp_fat_kind k;
	uint32_t val;
	enum fp_err err;

	err = fp_fat_get(fs->fat, cl, &val);
	if (err)
		return err;
	k = fp_fat_kind(fs->fat, val);
	*used = k != FP_FK_FREE && k != FP_FK_BAD;
	return FP_OK;
}

enum fp_err fp_fs_fill_holes(struct fp_fs *fs, uint64_t *bytes,
			     uint64_t *count)
{
	const struct fp_geom *g = &fs->geom;
	uint32_t cl, start = 0, end = fp_geom_max_cl(g) + 1;
	uint64_t b = 0, n = 0;
	enum fp_err err;
	int used = 0;

	err = fill_range(fs->img, 0, g->data_off, &b, &n);
	/* runs of clusters in use, one range a run */
	for (cl = 2; !err && cl <= end; cl++) {
		used = 0;
		if (cl < end)
			err = cl_used(fs, cl, &used);
		if (!err && used && !start)
			start = cl;
		if (!err && !used && start) {
			err = fill_range(fs->img, fp_geom_cl_off(g, start),
					 (uint64_t)(cl - start) * g->clus_len,
					 &b, &n);
			start = 0;
		}
	}
	if (err)
		return err;
	*bytes = b;
	*count = n;
	return FP_OK;
}

void fp_fs_free(struct fp_fs *fs)
{
	if (!fs)
		return;
	fp_bitmap_free(fs->bm);
	fp_fat_free(fs->fat);
	free(fs);
}

/* What fat_at() found at a partition's start. */
enum fat_fit {
	FAT_NONE,	/* no valid FAT boot sector */
	FAT_FITS,	/* a FAT volume within the partition */
	FAT_PAST,	/* a FAT volume longer than the partition */
};

/* What fat_at() found. */
struct fat_probe {
	enum fat_fit fit;
	uint64_t vol_len;	/* the volume's bytes, unless FAT_NONE */
	int maybe_mbr;		/* the sector could be an MBR as well */
	enum fp_ptable_kind claims;	/* fp_ptable_claims() of it */
};

/*
 * Whether a valid FAT boot sector starts at @off, and whether its volume
 * fits in the @len bytes there.  A failed read is an error, not "no FAT
 * here".
 */
static enum fp_err fat_at(struct fp_img *img, uint64_t off, uint64_t len,
			  struct fat_probe *fp)
{
	uint8_t boot[FP_SECTOR_MIN];
	struct fp_geom g;
	enum fp_err err;

	memset(fp, 0, sizeof(*fp));
	if (len < sizeof(boot))
		return FP_OK;
	err = fp_img_read(img, off, boot, sizeof(boot));
	if (err == FP_E_TRUNC)
		return FP_OK;
	if (err)
		return err;
	if (fp_bpb_decode(boot, UINT64_MAX, &g) != FP_OK)
		return FP_OK;
	fp->fit = g.vol_len <= len ? FAT_FITS : FAT_PAST;
	fp->vol_len = g.vol_len;
	fp->maybe_mbr = fp_bpb_maybe_mbr(boot);
	fp->claims = fp_ptable_claims(boot, fp_img_len(img));
	return FP_OK;
}

/* Use partition @p, whose volume fits or runs past its end (@fp). */
static enum fp_err use_part(const struct fp_part *p,
			    const struct fat_probe *fp, struct fp_locate *loc)
{
	loc->off = p->off;
	loc->len = p->len;
	loc->part = p->number;
	loc->mbr_type = p->mbr_type;
	memcpy(loc->gpt_type, p->gpt_type, sizeof(loc->gpt_type));
	if (fp->fit != FAT_PAST)
		return FP_OK;
	loc->vol_len = fp->vol_len;
	return FP_E_PASTPART;
}

/*
 * Note in @loc the partitions that hold a FAT boot sector; *found is the
 * last of them (NULL for none) and *found_fp what fat_at() said of it.
 * One whose volume runs past its end counts: the message then says so,
 * rather than that no partition holds FAT.
 */
static enum fp_err note_fat(struct fp_img *img, const struct fp_ptable *pt,
			    struct fp_locate *loc, const struct fp_part **found,
			    struct fat_probe *found_fp)
{
	struct fat_probe fp;
	enum fp_err err;
	size_t i;

	*found = NULL;
	for (i = 0; i < pt->count; i++) {
		err = fat_at(img, pt->parts[i].off, pt->parts[i].len, &fp);
		if (err)
			return err;
		if (fp.fit == FAT_NONE)
			continue;
		if (loc->fat_count < FP_LOCATE_MAX)
			loc->fat_parts[loc->fat_count] = pt->parts[i].number;
		loc->fat_count++;
		*found = &pt->parts[i];
		*found_fp = fp;
	}
	return FP_OK;
}

/* Use the one partition that holds a FAT boot sector. */
static enum fp_err pick_fat(struct fp_img *img, const struct fp_ptable *pt,
			    struct fp_locate *loc)
{
	const struct fp_part *found;
	struct fat_probe fp;
	enum fp_err err;

	err = note_fat(img, pt, loc, &found, &fp);
	if (err)
		return err;
	if (loc->fat_count > 1)
		return FP_E_MANYPART;
	return found ? use_part(found, &fp, loc) : FP_E_NOTFAT;
}

/*
 * Sector 0 holds a FAT boot sector (@fp) and a table that claims space
 * beyond it: say what the table holds (its kind, its FAT partitions, or
 * loc->table_bad when it does not read) and the volume's length, for the
 * message.  Always FP_E_AMBIG but for a failed read.
 */
static enum fp_err sector0_both(struct fp_img *img,
				const struct fat_probe *fp,
				struct fp_locate *loc)
{
	const struct fp_part *found;
	struct fat_probe part_fp;
	struct fp_ptable pt;
	enum fp_err err;

	loc->vol_len = fp->vol_len;
	loc->kind = fp->claims;
	err = fp_ptable_read(img, &pt);
	if (err == FP_E_PTABLE) {
		loc->table_bad = 1;
		return FP_E_AMBIG;
	}
	if (err)
		return err;
	loc->kind = pt.kind;
	err = note_fat(img, &pt, loc, &found, &part_fp);
	fp_ptable_release(&pt);
	return err ? err : FP_E_AMBIG;
}

/*
 * What sector 0 is: a bare FAT volume (*yes = 1), a partition table, or
 * both (FP_E_AMBIG).  A sector whose BPB validates fully (fp_bpb_decode(),
 * which needs neither jump nor signature) and whose volume fits in the
 * image is a FAT boot sector.  Then:
 * - without 0x55AA it is no MBR (Atari volumes, mkfs.fat -A): bare;
 * - with it and no x86 jump (fp_bpb_maybe_mbr()), it is an MBR whose
 *   boot code happens to read as a BPB when a valid partition table with
 *   a partition is read from it: the table wins, else bare;
 * - with an x86 jump, as DOS and Windows boot sectors and GRUB's boot.img
 *   start, it is bare unless its bytes 446-509 also read as a table that
 *   claims space past sector 0, as Linux's msdos reader takes a table
 *   (fp_ptable_claims(): boot flags 0x00/0x80 only, an entry that starts
 *   past sector 0 inside the image).  That is a disk formatted whole and
 *   partitioned later by a tool that kept the BPB (sfdisk, GRUB): Linux
 *   reads the table, but the volume at sector 0 still reads as well, and
 *   a write to the wrong one destroys the other's data, so neither is
 *   chosen.  mkfs.fat --mbr and mformat write an entry that starts at
 *   sector 0, the volume itself: no table claims more.
 */
static enum fp_err sector0(struct fp_img *img, struct fp_locate *loc,
			   int *yes)
{
	struct fat_probe fp;
	struct fp_ptable pt;
	enum fp_err err;

	*yes = 0;
	err = fat_at(img, 0, fp_img_len(img), &fp);
	if (err || fp.fit != FAT_FITS)
		return err;
	*yes = 1;
	if (!fp.maybe_mbr) {
		if (fp.claims == FP_PT_NONE)
			return FP_OK;
		*yes = 0;
		return sector0_both(img, &fp, loc);
	}
	err = fp_ptable_read(img, &pt);
	if (err == FP_E_PTABLE)		/* no valid table: not an MBR */
		return FP_OK;
	if (err)
		return err;
	*yes = pt.count == 0;
	fp_ptable_release(&pt);
	return FP_OK;
}

enum fp_err fp_fs_locate_part(struct fp_img *img, unsigned part,
			      struct fp_locate *loc)
{
	const struct fp_part *p;
	struct fp_ptable pt;
	enum fp_err err;

	memset(loc, 0, sizeof(*loc));
	err = fp_ptable_read(img, &pt);
	if (err)
		return err;
	loc->kind = pt.kind;
	loc->gpt_backup = pt.gpt_backup;
	loc->sec_len = pt.sec_len;
	p = fp_ptable_find(&pt, part);
	if (p) {
		loc->off = p->off;
		loc->len = p->len;
		loc->part = p->number;
		loc->mbr_type = p->mbr_type;
		memcpy(loc->gpt_type, p->gpt_type, sizeof(loc->gpt_type));
		fp_ptable_overlap(&pt, p, &loc->overlap);
	}
	fp_ptable_release(&pt);
	return p ? FP_OK : FP_E_NOPART;
}

enum fp_err fp_fs_locate(struct fp_img *img, unsigned part,
			 struct fp_locate *loc)
{
	const struct fp_part *p;
	struct fat_probe fp;
	struct fp_ptable pt;
	enum fp_err err;
	int yes;

	memset(loc, 0, sizeof(*loc));
	if (!part) {
		err = sector0(img, loc, &yes);
		if (err || yes)
			return err;
	}
	err = fp_ptable_read(img, &pt);
	if (err)
		return err;
	loc->kind = pt.kind;
	loc->gpt_backup = pt.gpt_backup;
	loc->sec_len = pt.sec_len;
	if (!part) {
		err = pt.kind == FP_PT_NONE ? FP_E_NOTFAT :
		      pick_fat(img, &pt, loc);
	} else if (!(p = fp_ptable_find(&pt, part))) {
		err = FP_E_NOPART;
	} else {
		err = fat_at(img, p->off, p->len, &fp);
		if (!err)
			err = use_part(p, &fp, loc);
		if (!err && fp.fit == FAT_NONE)
			err = FP_E_NOTFAT;
	}
	if (!err)
		fp_ptable_overlap(&pt, fp_ptable_find(&pt, loc->part),
				  &loc->overlap);
	fp_ptable_release(&pt);
	return err;
}
