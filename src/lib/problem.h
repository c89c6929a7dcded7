/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* problem.h - the problems the checker reports: codes, severities, messages. */
#ifndef FP_PROBLEM_H
#define FP_PROBLEM_H

#include <stddef.h>
#include <stdint.h>

/* Every problem the checker knows; codes and messages are in problem.c. */
enum fp_problem {
	FP_P_PART_OVERLAP,	/* partition overlaps another or the table */
	FP_P_GPT_PRIMARY,	/* primary GPT damaged, the backup used */
	FP_P_BOOT_BACKUP,	/* FAT32 backup boot sector: BPB differs */
	FP_P_BOOT_BACKUP_CODE,	/* ... only boot code or OEM name differ */
	FP_P_BOOT_BACKUP_HIDDEN,	/* ... BPB_HiddSec differs */
	FP_P_FSINFO_SIG,	/* FSInfo signatures wrong */
	FP_P_FSINFO_FREE,	/* FSInfo free count wrong */
	FP_P_FSINFO_NEXT,	/* FSInfo next-free hint out of range */
	FP_P_FAT_TYPE,		/* FAT32 with a FAT12/16 cluster count */
	FP_P_FAT_MEDIA,		/* FAT entry 0 does not hold the media byte */
	FP_P_FAT_ENTRY1,	/* FAT entry 1 is not an end-of-chain value */
	FP_P_DIRTY,		/* volume marked dirty */
	FP_P_IO_ERROR,		/* volume marked as having had I/O errors */
	FP_P_FAT_BAD_ENTRY,	/* a reserved or out-of-range FAT value */
	FP_P_FAT_MISMATCH,	/* FAT copies differ */
	FP_P_FAT_MISMATCH_LOST,	/* ... only by lost clusters, as an
				 * interrupted commit leaves them */
	FP_P_BAD_START,		/* start cluster invalid, free or bad */
	FP_P_CHAIN_LOOP,	/* the chain loops */
	FP_P_CHAIN_FREE,	/* the chain runs into a free cluster */
	FP_P_CHAIN_BAD,		/* the chain runs into a bad cluster */
	FP_P_CHAIN_RANGE,	/* a link leaves the data area */
	FP_P_CROSS_LINK,	/* a cluster belongs to two chains */
	FP_P_CHAIN_SHORT,	/* fewer clusters than the size needs */
	FP_P_TAIL,		/* more clusters than the size needs */
	FP_P_DIR_SIZE,		/* a directory with a nonzero size */
	FP_P_DIR_NO_CHAIN,	/* a directory without clusters */
	FP_P_DIR_LONG,		/* a directory over 65536 entries */
	FP_P_DOT,		/* "." or ".." missing or wrong */
	FP_P_ROOT_DOT,		/* "." or ".." entries in the root */
	FP_P_DIR_CYCLE,		/* a directory contains an ancestor */
	FP_P_BAD_NAME,		/* invalid characters in an 8.3 name */
	FP_P_DUP_NAME,		/* two entries with the same name */
	FP_P_LFN_ORPHAN,	/* long-name slots without their short entry */
	FP_P_AFTER_END,		/* live entries after the end-of-directory mark */
	FP_P_BAD_LFN,		/* long names that Linux cannot list */
	FP_P_LABEL,		/* volume label twice, or outside the root */
	FP_P_LABEL_MISMATCH,	/* boot sector and root labels differ */
	FP_P_BAD_LABEL,		/* a volume label empty or with bad bytes */
	FP_P_LOST,		/* allocated clusters that no entry reaches */
	FP_P_METADATA_HOLE,	/* FATs, root or directories in file holes */
	FP_P_COUNT
};

enum fp_severity {
	FP_SEV_WARNING,
	FP_SEV_ERROR,
};

/* Stable code string ("cross-link") and severity of a problem. */
const char *fp_problem_code(enum fp_problem p);
enum fp_severity fp_problem_severity(enum fp_problem p);

/* 1 if fsck.fat repairs problem @p, 0 if it reads those bytes as sound. */
int fp_problem_fsck_repairs(enum fp_problem p);

/*
 * One finding: a problem, where, a cluster and two numbers whose meaning
 * the problem's message gives (fp_finding_format()).
 */
struct fp_finding {
	enum fp_problem problem;
	char *path;		/* "/DIR/NAME", "" for the volume; owned */
	char *other;		/* cross-link, duplicate: the other owner */
	uint32_t cl;		/* the cluster concerned, 0: none */
	uint64_t a, b;
};

/* The finding's message, without path and code, into @buf. */
void fp_finding_format(const struct fp_finding *f, char *buf, size_t len);

#endif
