/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fp_err.h - error codes of the fatprealloc library and their messages. */
#ifndef FP_ERR_H
#define FP_ERR_H

/*
 * Every library function returns one of these.  FP_E_IO carries an errno,
 * kept in the image object (fp_img_errno()).
 */
enum fp_err {
	FP_OK = 0,
	FP_E_NOMEM,	/* out of memory */
	FP_E_IO,	/* read or write failed; see fp_img_errno() */
	FP_E_TRUNC,	/* the image ends before a region the BPB describes */
	FP_E_NOTFAT,	/* not a FAT boot sector at all */
	FP_E_BPB,	/* a BPB field is out of range or inconsistent */
	FP_E_CORRUPT,	/* a chain or directory on the image is broken */
	FP_E_DAMAGED,	/* a path or file to be written through is damaged */
	FP_E_FATDIFF,	/* FAT copies that should be equal differ */
	FP_E_DIRTY,	/* the volume is marked dirty (not cleanly unmounted) */
	FP_E_NOSPC,	/* not enough free clusters */
	FP_E_NORUN,	/* no free run long enough for --contiguous */
	FP_E_ROOTFULL,	/* the fixed root directory of FAT12/16 is full */
	FP_E_DIRFULL,	/* a directory reached 65536 entries */
	FP_E_NOENT,	/* a parent directory does not exist */
	FP_E_NOFILE,	/* no such file */
	FP_E_NOTDIR,	/* a path component is not a directory */
	FP_E_ISDIR,	/* the target exists as a directory */
	FP_E_NAME,	/* invalid file name */
	FP_E_NAMELEN,	/* file name longer than 255 UTF-16 units */
	FP_E_RESERVED,	/* a device name that Windows reserves (NUL.TXT) */
	FP_E_NONBMP,	/* character outside the Basic Multilingual Plane */
	FP_E_ALIAS,	/* no free 8.3 alias left */
	FP_E_TOOBIG,	/* size above the FAT limit of 4 GiB - 1 */
	FP_E_PTABLE,	/* the partition table is broken */
	FP_E_LOCKED,	/* another process holds the image lock */
	FP_E_NOPART,	/* no such partition, or no partition table */
	FP_E_MANYPART,	/* several FAT partitions: pick one */
	FP_E_DUPPATH,	/* two requests name the same file */
	FP_E_INVAL,	/* invalid argument */
	FP_E_SRC,	/* a host source cannot be read; errno given apart */
	FP_E_SPECIAL,	/* a host source is neither a file nor a directory */
	FP_E_LOOP,	/* a host directory contains itself through a link */
	FP_E_EXISTS,	/* the copy's target exists as a file */
	FP_E_CHANGED,	/* a host source changed after it was planned */
	FP_E_PASTPART,	/* the FAT volume runs past its partition's end */
	FP_E_SNAPBIG,	/* a host file of size 0 holds more than is read
			 * into memory (FP_TREE_SNAP_MAX) */
	FP_E_AMBIG,	/* sector 0 is both a FAT boot sector and a table */
	FP_E_COUNT
};

/* Message for @err, lowercase, without a full stop; never NULL. */
const char *fp_strerror(enum fp_err err);

#endif
