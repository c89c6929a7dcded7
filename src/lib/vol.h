/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* vol.h - open a volume: image, lock, loop refusal, partition, its FAT. */
#ifndef FP_VOL_H
#define FP_VOL_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"
#include "fs.h"
#include "image.h"
#include "profile.h"
#include "progress.h"
#include "verify.h"

/* How fp_vol_open() opens a volume. */
enum fp_vol_flag {
	FP_VOL_WRITE = 1 << 0,	/* read-write and exclusive: a block device
				 * that is mounted is refused (EBUSY), and
				 * so is a regular file attached to a loop
				 * device, unless FP_VOL_FORCE */
	FP_VOL_FORCE = 1 << 1,	/* take a loop-attached file */
	FP_VOL_WAIT = 1 << 2,	/* wait for another process's lock */
	FP_VOL_OFFSET = 1 << 3,	/* the volume is at @off: no table read */
	FP_VOL_NOWRITE = 1 << 4,	/* nothing will be written into the
					 * volume (--verify, --map): a
					 * partition that overlaps the table
					 * or another one is no refusal */
	FP_VOL_NOFS = 1 << 5,	/* locate the volume but do not open its
				 * FAT (fp_vol_fs() is NULL), as
				 * fp_vol_verify() reads it itself */
	FP_VOL_NEW = 1 << 6,	/* a volume to be made (--mkfs): the
				 * partition @part whatever it holds
				 * (fp_fs_locate_part()), else the image
				 * from @off on; with FP_VOL_NOFS */
};

/* The steps of fp_vol_open(), in order: where it stopped. */
enum fp_vol_step {
	FP_VOL_STEP_OPEN,	/* fp_img_open() */
	FP_VOL_STEP_LOCK,	/* fp_img_lock() */
	FP_VOL_STEP_LOOP,	/* FP_VOL_WRITE: a loop device holds the file
				 * (FP_E_LOCKED) */
	FP_VOL_STEP_LOCATE,	/* fp_fs_locate() */
	FP_VOL_STEP_OVERLAP,	/* the partition overlaps (FP_E_PTABLE) */
	FP_VOL_STEP_WINDOW,	/* the offset is past the image's end */
	FP_VOL_STEP_FS,		/* fp_fs_open() */
	FP_VOL_STEP_DONE,	/* opened */
};

/*
 * What fp_vol_open() found, as far as it got, on success too: what a
 * front end needs for its messages.
 */
struct fp_vol_diag {
	enum fp_vol_step step;	/* the step that failed, or DONE */
	int errnum;		/* OPEN: open's errno (0: none); else the
				 * image's errno for FP_E_IO */
	char disk[64];		/* LOCK: the kernel name of the whole disk
				 * locked or tried ("sdb"), "" for none */
	char loop[64];		/* LOOP: the loop device ("loop0") */
	struct fp_locate loc;	/* from LOCATE on: where the volume is
				 * (fp_fs_locate(): as far as known when it
				 * failed); loc.off the offset given with
				 * FP_VOL_OFFSET */
	uint64_t base;		/* FS: where the window starts */
};

/*
 * An open volume: its image (windowed to the volume, locked for as long
 * as it is open), where it was found, and its FAT.  Opaque.
 */
struct fp_vol;

/*
 * Open the image at @path and the FAT volume in it, in this order: open
 * (FP_VOL_WRITE: read-write, O_EXCL), lock (fp_img_lock(): shared, or
 * exclusive for FP_VOL_WRITE), refuse a regular file attached to a loop
 * device (FP_VOL_WRITE without FP_VOL_FORCE), locate the volume (at @off
 * with FP_VOL_OFFSET, else in partition @part, 0: found by
 * fp_fs_locate(), which falls back to offset 0 when the image has
 * neither a FAT boot sector nor a partition table), refuse a partition
 * that overlaps the table or another partition (unless FP_VOL_NOWRITE),
 * window the image to the volume, and open its FAT (unless FP_VOL_NOFS).
 * @flags is a mask of enum fp_vol_flag.
 *
 * *@diag says where it stopped and what it saw (on success too); the
 * error is that of the failed step, FP_E_LOCKED for a loop-attached
 * file and FP_E_PTABLE for an overlap.  On failure nothing stays open.
 */
enum fp_err fp_vol_open(const char *path, unsigned part, uint64_t off,
			unsigned flags, struct fp_vol **out,
			struct fp_vol_diag *diag);

/* The image, windowed to the volume; borrowed from @vol. */
struct fp_img *fp_vol_img(const struct fp_vol *vol);

/* The volume's FAT, NULL with FP_VOL_NOFS; borrowed from @vol. */
struct fp_fs *fp_vol_fs(const struct fp_vol *vol);

/* Where the volume was found; borrowed from @vol. */
const struct fp_locate *fp_vol_locate(const struct fp_vol *vol);

/*
 * Name what partition overlap @o overlaps, into @buf of @len bytes:
 * "partition 2" or "the partition table".
 */
void fp_vol_overlap_name(const struct fp_overlap *o, char *buf, size_t len);

/*
 * --verify of @vol (fp_verify_progress()), with what the partition table
 * said of the volume's partition first in the report: an overlap
 * (FP_P_PART_OVERLAP), a GPT read through its backup header
 * (FP_P_GPT_PRIMARY).  *out is the caller's (fp_report_free()).
 */
enum fp_err fp_vol_verify(struct fp_vol *vol, const struct fp_progress *prog,
			  struct fp_report **out);

/*
 * fp_vol_verify(), then the rules of @profile (NULL: none) that the
 * volume's geometry breaks (fp_profile_check(), with the partition that
 * holds the volume), after the other findings: FP_P_PROFILE warnings.
 */
enum fp_err fp_vol_verify_profile(struct fp_vol *vol,
				  const struct fp_progress *prog,
				  const struct fp_profile *profile,
				  struct fp_report **out);

/*
 * What a writer asks of @vol before it plans: fp_fs_check() (FP_E_DIRTY,
 * FP_E_FATDIFF with *@diag), except that FAT copies that differ only by
 * lost clusters, as an interrupted run leaves them, are no refusal
 * (fp_damage_copies()): the run makes them equal.  Ask again after
 * planning, with fp_plan_check_copies(), as the copies are compared over
 * the FAT windows read so far.  Not with FP_VOL_NOFS.
 */
enum fp_err fp_vol_check(struct fp_vol *vol, struct fp_fs_diag *diag);

/*
 * Free the FAT and close the image, whose close may fail (a write-back
 * error): FP_E_IO with its errno in *@errnum (may be NULL).  NULL is a
 * no-op.
 */
enum fp_err fp_vol_close(struct fp_vol *vol, int *errnum);

#endif
