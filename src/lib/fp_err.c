/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fp_err.c - the one message table of the library. */
#include "fp_err.h"

static const char *const messages[FP_E_COUNT] = {
	[FP_OK] = "success",
	[FP_E_NOMEM] = "out of memory",
	[FP_E_IO] = "input/output error",
	[FP_E_TRUNC] = "image is truncated",
	[FP_E_NOTFAT] = "not a FAT filesystem",
	[FP_E_BPB] = "invalid boot sector",
	[FP_E_CORRUPT] = "filesystem is corrupt",
	[FP_E_DAMAGED] = "damaged; refusing to write through it",
	[FP_E_FATDIFF] = "FAT copies differ",
	[FP_E_DIRTY] = "volume is marked dirty",
	[FP_E_NOSPC] = "no space left in the filesystem",
	[FP_E_NORUN] = "no contiguous free run is large enough",
	[FP_E_ROOTFULL] = "root directory is full",
	[FP_E_DIRFULL] = "directory is full",
	[FP_E_NOENT] = "no such directory",
	[FP_E_NOFILE] = "no such file",
	[FP_E_NOTDIR] = "not a directory",
	[FP_E_ISDIR] = "is a directory",
	[FP_E_NAME] = "invalid file name",
	[FP_E_NAMELEN] = "file name too long",
	[FP_E_RESERVED] = "file name reserved by Windows for a device",
	[FP_E_NONBMP] = "file name has a character outside the BMP",
	[FP_E_ALIAS] = "no free short name alias",
	[FP_E_TOOBIG] = "size exceeds the FAT file size limit (4 GiB - 1)",
	[FP_E_PTABLE] = "invalid partition table",
	[FP_E_LOCKED] = "image is locked by another process",
	[FP_E_NOPART] = "no such partition",
	[FP_E_MANYPART] = "several FAT partitions; choose one with --partition",
	[FP_E_DUPPATH] = "the same file is named twice",
	[FP_E_INVAL] = "invalid argument",
	[FP_E_SRC] = "cannot read the source",
	[FP_E_SPECIAL] = "not a regular file or directory",
	[FP_E_LOOP] = "directory contains itself through a symbolic link",
	[FP_E_EXISTS] = "file exists",
	[FP_E_CHANGED] = "source changed while being copied",
	[FP_E_PASTPART] = "the volume runs past the end of its partition",
	[FP_E_SNAPBIG] = "source of size 0 holds more than 64 MiB",
	[FP_E_AMBIG] =
		"sector 0 is both a FAT boot sector and a partition table",
};

const char *fp_strerror(enum fp_err err)
{
	if ((unsigned)err >= FP_E_COUNT || !messages[err])
		return "unknown error";
	return messages[err];
}
