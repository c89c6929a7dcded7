/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* vol.c - open a volume: image, lock, loop refusal, partition, its FAT. */
#include "vol.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "damage.h"

struct fp_vol {
	struct fp_img *img;	/* owned */
	struct fp_fs *fs;	/* owned; NULL with FP_VOL_NOFS */
	struct fp_locate loc;
};

/* fp_img_open() and fp_img_lock(), as the flags say. */
static enum fp_err open_locked(const char *path, unsigned flags,
			       struct fp_img **img, struct fp_vol_diag *d)
{
	int write = !!(flags & FP_VOL_WRITE);
	const char *disk;
	enum fp_err err;

	d->step = FP_VOL_STEP_OPEN;
	err = fp_img_open(path, write ? FP_IMG_WRITE | FP_IMG_EXCL : 0, img,
			  &d->errnum);
	if (err)
		return err;
	d->step = FP_VOL_STEP_LOCK;
	err = fp_img_lock(*img, write, !!(flags & FP_VOL_WAIT));
	disk = fp_img_lock_disk(*img);
	if (err) {
		if (disk)
			snprintf(d->disk, sizeof(d->disk), "%s", disk);
		d->errnum = fp_img_errno(*img);
		goto out;
	}
	d->step = FP_VOL_STEP_LOOP;
	if (write && !(flags & FP_VOL_FORCE) &&
	    fp_img_loop_attached(*img, d->loop, sizeof(d->loop)))
		err = FP_E_LOCKED;
out:
	if (err) {
		fp_img_close(*img);
		*img = NULL;
	}
	return err;
}

/*
 * Find the volume (d->loc): at the offset given, in a partition, or by
 * looking; refuse an overlapping partition unless FP_VOL_NOWRITE; window
 * @img to it.
 */
static enum fp_err place_window(struct fp_img *img, unsigned part,
				uint64_t off, unsigned flags,
				struct fp_vol_diag *d)
{
	struct fp_locate *loc = &d->loc;
	enum fp_err err = FP_OK;

	d->step = FP_VOL_STEP_LOCATE;
	loc->off = off;
	if ((flags & FP_VOL_NEW) && part) {
		err = fp_fs_locate_part(img, part, loc);
		if (err == FP_E_IO)
			d->errnum = fp_img_errno(img);
		if (err)
			return err;
	} else if (!(flags & (FP_VOL_OFFSET | FP_VOL_NEW))) {
		err = fp_fs_locate(img, part, loc);
		if (err == FP_E_IO)
			d->errnum = fp_img_errno(img);
		/* no table and no FAT at 0: fp_fs_open() says so */
		if (err && (err != FP_E_NOTFAT || part ||
			    loc->kind != FP_PT_NONE))
			return err;
	}
	d->step = FP_VOL_STEP_OVERLAP;
	if (loc->overlap.found && !(flags & FP_VOL_NOWRITE))
		return FP_E_PTABLE;
	d->step = FP_VOL_STEP_WINDOW;
	return fp_img_set_window(img, loc->off, loc->len);
}

enum fp_err fp_vol_open(const char *path, unsigned part, uint64_t off,
			unsigned flags, struct fp_vol **out,
			struct fp_vol_diag *diag)
{
	struct fp_vol *vol;
	enum fp_err err;

	memset(diag, 0, sizeof(*diag));
	vol = calloc(1, sizeof(*vol));
	if (!vol)
		return FP_E_NOMEM;
	err = open_locked(path, flags, &vol->img, diag);
	if (!err)
		err = place_window(vol->img, part, off, flags, diag);
	if (err)
		goto out;
	diag->step = FP_VOL_STEP_FS;
	diag->base = fp_img_base(vol->img);
	if (!(flags & FP_VOL_NOFS)) {
		err = fp_fs_open(vol->img, &vol->fs);
		if (err == FP_E_IO)
			diag->errnum = fp_img_errno(vol->img);
		if (err)
			goto out;
	}
	diag->step = FP_VOL_STEP_DONE;
	vol->loc = diag->loc;
	*out = vol;
	vol = NULL;
out:
	if (vol)
		fp_img_close(vol->img);
	free(vol);
	return err;
}

struct fp_img *fp_vol_img(const struct fp_vol *vol)
{
	return vol->img;
}

struct fp_fs *fp_vol_fs(const struct fp_vol *vol)
{
	return vol->fs;
}

const struct fp_locate *fp_vol_locate(const struct fp_vol *vol)
{
	return &vol->loc;
}

void fp_vol_overlap_name(const struct fp_overlap *o, char *buf, size_t len)
{
	if (o->other)
		snprintf(buf, len, "partition %u", o->other);
	else
		snprintf(buf, len, "the partition table");
}

/* What the table said of the volume's partition, first in @r. */
static enum fp_err report_table(const struct fp_locate *loc,
				struct fp_report *r)
{
	enum fp_err err = FP_OK;
	char other[64];

	if (loc->gpt_backup)
		err = fp_report_add_volume(r, FP_P_GPT_PRIMARY, NULL,
					   loc->part, 0);
	if (!err && loc->overlap.found) {
		fp_vol_overlap_name(&loc->overlap, other, sizeof(other));
		err = fp_report_add_volume(r, FP_P_PART_OVERLAP, other,
					   loc->part, loc->overlap.off / 512);
	}
	return err;
}

enum fp_err fp_vol_verify(struct fp_vol *vol, const struct fp_progress *prog,
			  struct fp_report **out)
{
	struct fp_report *r = NULL;
	enum fp_err err;

	err = fp_verify_progress(vol->img, prog, &r);
	if (!err)
		err = report_table(&vol->loc, r);
	if (err) {
		fp_report_free(r);
		return err;
	}
	*out = r;
	return FP_OK;
}

/* The rules of @profile that the volume of @vol, checked in @r, breaks. */
static enum fp_err report_profile(const struct fp_vol *vol,
				  const struct fp_profile *profile,
				  struct fp_report *r)
{
	struct fp_profile_violation v[FP_PROFILE_RULES_MAX];
	struct fp_report_summary s;
	struct fp_profile_geom pg;
	enum fp_err err = FP_OK;
	size_t i, n;

	fp_report_summary(r, &s);
	fp_profile_geom_from_bpb(&pg, &s.geom, &vol->loc);
	fp_profile_check(profile, &pg, v, &n);
	for (i = 0; i < n && !err; i++)
		err = fp_report_add_rule(r, v[i].rule, v[i].figure,
					 v[i].limit);
	return err;
}

enum fp_err fp_vol_verify_profile(struct fp_vol *vol,
				  const struct fp_progress *prog,
				  const struct fp_profile *profile,
				  struct fp_report **out)
{
	struct fp_report *r = NULL;
	enum fp_err err;

	err = fp_vol_verify(vol, prog, &r);
	if (!err && profile)
		err = report_profile(vol, profile, r);
	if (err) {
		fp_report_free(r);
		return err;
	}
	*out = r;
	return FP_OK;
}

enum fp_err fp_vol_check(struct fp_vol *vol, struct fp_fs_diag *diag)
{
	enum fp_err err = fp_fs_check(vol->fs, diag);

	if (err == FP_E_FATDIFF)
		err = fp_damage_copies(vol->fs, NULL, diag);
	return err;
}

enum fp_err fp_vol_close(struct fp_vol *vol, int *errnum)
{
	enum fp_err err;

	if (!vol)
		return FP_OK;
	fp_fs_free(vol->fs);
	err = fp_img_close(vol->img);
	if (err && errnum)
		*errnum = errno;
	free(vol);
	return err;
}
