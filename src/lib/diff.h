/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* diff.h - what differs between two volumes, and why (--diff). */
#ifndef FP_DIFF_H
#define FP_DIFF_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"
#include "fs.h"
#include "list.h"

/* How an entry differs: bits 1 << value in fp_diff_entry's aspects. */
enum fp_diff_aspect {
	FP_DIFF_ADDED,		/* only in the second volume */
	FP_DIFF_REMOVED,	/* only in the first */
	FP_DIFF_TYPE,		/* a file in one, a directory in the other */
	FP_DIFF_CONTENT,	/* SHA-256 of the content */
	FP_DIFF_SIZE,
	FP_DIFF_MTIME,
	FP_DIFF_CTIME,		/* creation date, time, tenths */
	FP_DIFF_ATIME,		/* access date */
	FP_DIFF_ATTR,
	FP_DIFF_NAME,		/* the long name's spelling (case) */
	FP_DIFF_ALIAS,		/* the 8.3 name or its case bits */
	FP_DIFF_PLACEMENT,	/* the runs (shown only when asked) */
	FP_DIFF_ORDER,		/* a directory's common entries' order */
	FP_DIFF_ASPECT_COUNT
};

/* Regions of the volumes whose bytes differ. */
enum fp_diff_region {
	FP_DIFF_R_SIZE,		/* the volumes' lengths */
	FP_DIFF_R_RESERVED,	/* boot sector, FSInfo, backup: reserved */
	FP_DIFF_R_FAT,		/* the first (active) FAT copy */
	FP_DIFF_R_FAT_COPIES,	/* another FAT copy */
	FP_DIFF_R_ROOT,		/* the fixed root directory */
	FP_DIFF_R_USED,		/* clusters in use in either volume */
	FP_DIFF_R_FREE,		/* clusters free in both */
	FP_DIFF_R_TAIL,		/* after the last cluster */
	FP_DIFF_REGION_COUNT
};

/* What fp_diff() reports as it goes, each with @ctx. */
struct fp_diff_out {
	/*
	 * A volume field @name that differs: its two values as text;
	 * @text: the field is text (label, OEM name), whose spaces count.
	 */
	void (*field)(void *ctx, const char *name, const char *a,
		      const char *b, int text);
	/* Entry @path (of the first volume, else the second) differs. */
	void (*entry)(void *ctx, const char *path, unsigned aspects);
	void *ctx;
};

/* The totals, for the summary and the exit status. */
struct fp_diff_result {
	int identical;		/* the volumes are byte-identical */
	unsigned fields;	/* volume fields that differ: count */
	char field_names[160];	/* their names, ", " between */
	unsigned aspects;	/* the union of the entries' aspects */
	uint32_t aspect_count[FP_DIFF_ASPECT_COUNT];	/* entries each */
	char *order_dir;	/* the first directory whose order differs
				 * (malloc'd; fp_diff_result_release()) */
	unsigned regions;	/* bits 1 << enum fp_diff_region */
};

/*
 * Compare the volumes @a and @b (borrowed): the boot sector's fields and
 * FSInfo's, then the trees, one directory at a time (each directory's
 * entries from both, matched by name ignoring case as VFAT folds it,
 * fp_path_key()), then every
 * byte.  Runs are compared always, for the totals; @placement shows
 * them in the entries given to @out too.  Each
 * difference goes to @out as found; the totals into @r (set also on an
 * error).  FP_E_DAMAGED, with @diag set (the volume in *@which, 0 or 1),
 * when either tree is damaged; FP_E_IO, FP_E_NOMEM.
 *
 * Memory: two directories' entries (at most 65536 each, names and
 * digests), the directories still to compare (a stack of paths), and
 * the iterators' own; the bytes are compared 1 MiB at a time.
 */
enum fp_err fp_diff(struct fp_fs *a, struct fp_fs *b, int placement,
		    const struct fp_diff_out *out, struct fp_diff_result *r,
		    struct fp_list_diag *diag, int *which);

/*
 * The one-line answer to "why are these volumes not byte-identical?"
 * into @buf: "the volumes are byte-identical", "only the volume serial",
 * "only entry order in /EFI", "only mtimes", "only bytes in free space",
 * or the parts joined.
 */
void fp_diff_summary(const struct fp_diff_result *r, char *buf, size_t len);

/* The name of aspect @a ("content", "mtime") or region @g. */
const char *fp_diff_aspect_name(enum fp_diff_aspect a);
const char *fp_diff_region_name(enum fp_diff_region g);

void fp_diff_result_release(struct fp_diff_result *r);

#endif
