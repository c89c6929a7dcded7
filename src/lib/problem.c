/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* problem.c - the problems the checker reports: codes, severities, messages. */
#include "problem.h"

#include <inttypes.h>
#include <stdio.h>

/*
 * The problem table: stable code, severity, message template, and
 * .no_fsck = 1 for a problem that fsck.fat 4.2 does not repair (it
 * reads the bytes as sound).  In a template %c is the finding's cluster,
 * %a and %b its numbers (%h and %H the same in hex), %o the other owner.
 */
static const struct {
	const char *code;
	enum fp_severity sev;
	const char *msg;
	int no_fsck;
} problems[FP_P_COUNT] = {
	[FP_P_PART_OVERLAP] = {
		.code = "partition-overlap", .sev = FP_SEV_ERROR,
		.msg = "partition %a overlaps %o from sector %b of the image, "
			"which a write into the volume may change",
		.no_fsck = 1,
	},
	[FP_P_GPT_PRIMARY] = {
		.code = "gpt-primary", .sev = FP_SEV_WARNING,
		.msg = "the primary GPT header or its entry array is damaged; "
			"partition %a was found through the backup header",
		.no_fsck = 1,
	},
	[FP_P_BOOT_BACKUP] = {
		.code = "boot-backup", .sev = FP_SEV_ERROR,
		.msg = "BPB of the backup boot sector (sector %a) differs "
			"from the boot sector's, first at byte %b",
	},
	[FP_P_BOOT_BACKUP_CODE] = {
		.code = "boot-backup-code", .sev = FP_SEV_WARNING,
		.msg = "boot code or OEM name of the backup boot sector "
			"(sector %a) differs from the boot sector's, first at "
			"byte %b",
	},
	[FP_P_BOOT_BACKUP_HIDDEN] = {
		.code = "boot-backup-hidden", .sev = FP_SEV_WARNING,
		.msg = "hidden sectors (BPB_HiddSec) of the backup boot "
			"sector (sector %a) are %b, not the boot sector's "
			"(partitioning tools rewrite them in the boot sector "
			"only)",
	},
	[FP_P_FSINFO_SIG] = {
		.code = "fsinfo-signature", .sev = FP_SEV_ERROR,
		.msg = "FSInfo sector %a has bad signatures",
	},
	[FP_P_FSINFO_FREE] = {
		.code = "fsinfo-free-count", .sev = FP_SEV_WARNING,
		.msg = "FSInfo free count is %a, but %b clusters are free",
	},
	[FP_P_FSINFO_NEXT] = {
		.code = "fsinfo-next-free", .sev = FP_SEV_WARNING,
		.msg = "FSInfo next-free hint %a is out of range",
	},
	[FP_P_FAT_TYPE] = {
		.code = "fat-type", .sev = FP_SEV_WARNING,
		.msg = "FAT32 volume has only %a clusters (FAT32 needs 65525)",
	},
	[FP_P_FAT_MEDIA] = {
		.code = "fat-media", .sev = FP_SEV_ERROR,
		.msg = "FAT entry 0 is %h, expected %H for the media byte",
	},
	[FP_P_FAT_ENTRY1] = {
		.code = "fat-entry1", .sev = FP_SEV_WARNING,
		.msg = "FAT entry 1 is %h, not an end-of-chain value",
	},
	[FP_P_DIRTY] = {
		.code = "volume-dirty", .sev = FP_SEV_WARNING,
		.msg = "volume is marked dirty (not cleanly unmounted)",
	},
	[FP_P_IO_ERROR] = {
		.code = "volume-io-error", .sev = FP_SEV_WARNING,
		.msg = "volume is marked as having had I/O errors",
	},
	[FP_P_FAT_BAD_ENTRY] = {
		.code = "fat-bad-entry", .sev = FP_SEV_ERROR,
		.msg = "FAT entry of cluster %c holds the reserved or "
			"out-of-range value %h",
	},
	[FP_P_FAT_MISMATCH] = {
		.code = "fat-mismatch", .sev = FP_SEV_ERROR,
		.msg = "FAT copy %a differs from the active FAT (entries "
			"differing: %b, the first at cluster %c)",
	},
	[FP_P_FAT_MISMATCH_LOST] = {
		.code = "fat-mismatch-lost", .sev = FP_SEV_WARNING,
		.msg = "FAT copy %a differs from the active FAT only by lost "
			"clusters, as an interrupted write leaves it (entries "
			"differing: %b, the first at cluster %c); the next "
			"write makes the copies equal",
	},
	[FP_P_BAD_START] = {
		.code = "bad-start", .sev = FP_SEV_ERROR,
		.msg = "start cluster %c is out of range, free or bad",
	},
	[FP_P_CHAIN_LOOP] = {
		.code = "chain-loop", .sev = FP_SEV_ERROR,
		.msg = "cluster chain loops back to cluster %c after %a "
			"clusters",
	},
	[FP_P_CHAIN_FREE] = {
		.code = "chain-free", .sev = FP_SEV_ERROR,
		.msg = "cluster chain runs into free cluster %c",
	},
	[FP_P_CHAIN_BAD] = {
		.code = "chain-bad", .sev = FP_SEV_ERROR,
		.msg = "cluster chain runs into bad cluster %c",
	},
	[FP_P_CHAIN_RANGE] = {
		.code = "chain-range", .sev = FP_SEV_ERROR,
		.msg = "cluster %c links to %h, outside the data area",
	},
	[FP_P_CROSS_LINK] = {
		.code = "cross-link", .sev = FP_SEV_ERROR,
		.msg = "cluster %c is also in the chain of %o",
	},
	[FP_P_CHAIN_SHORT] = {
		.code = "chain-short", .sev = FP_SEV_ERROR,
		.msg = "chain has %a clusters, the size needs %b",
	},
	[FP_P_TAIL] = {
		.code = "tail-beyond-size", .sev = FP_SEV_WARNING,
		.msg = "chain has %a clusters, the size needs only %b (Linux "
			"remounts read-only if it grows the file; fsck.fat "
			"frees the rest)",
	},
	[FP_P_DIR_SIZE] = {
		.code = "dir-size", .sev = FP_SEV_ERROR,
		.msg = "directory entry has size %a, not 0",
	},
	[FP_P_DIR_NO_CHAIN] = {
		.code = "dir-no-chain", .sev = FP_SEV_ERROR,
		.msg = "directory has no clusters",
	},
	[FP_P_DIR_LONG] = {
		.code = "dir-too-long", .sev = FP_SEV_ERROR,
		.msg = "directory has %a clusters, room for more than the "
			"65536 entries the FAT specification allows (Linux "
			"reads them all, fatprealloc the first 65536)",
		.no_fsck = 1,
	},
	[FP_P_DOT] = {
		.code = "dot-entry", .sev = FP_SEV_ERROR,
		.msg = "'.' or '..' entry is missing or points to the wrong "
			"cluster",
	},
	[FP_P_ROOT_DOT] = {
		.code = "root-dot", .sev = FP_SEV_ERROR,
		.msg = "%a '.' or '..' entries in the root directory, which "
			"has none (Linux lists them beside its own)",
	},
	[FP_P_DIR_CYCLE] = {
		.code = "dir-cycle", .sev = FP_SEV_ERROR,
		.msg = "directory entry points back to its ancestor at "
			"cluster %c",
	},
	[FP_P_BAD_NAME] = {
		.code = "bad-name", .sev = FP_SEV_ERROR,
		.msg = "short name has invalid characters",
	},
	[FP_P_DUP_NAME] = {
		.code = "duplicate-name", .sev = FP_SEV_ERROR,
		.msg = "name is also used by %o",
	},
	[FP_P_LFN_ORPHAN] = {
		.code = "lfn-orphan", .sev = FP_SEV_ERROR,
		.msg = "%a long-name slots belong to no valid short entry, or "
			"hold bits or fields that readers take apart",
	},
	[FP_P_AFTER_END] = {
		.code = "after-end", .sev = FP_SEV_ERROR,
		.msg = "entries after the end-of-directory mark: %a, the "
			"first at slot %b (Linux and fsck.fat read them, "
			"mtools does not)",
		.no_fsck = 1,
	},
	[FP_P_BAD_LFN] = {
		.code = "bad-long-name", .sev = FP_SEV_ERROR,
		.msg = "long names that Linux cannot list: %a (empty, '.', "
			"'..', with '/' or with a surrogate alone), the first "
			"at slot %b",
		.no_fsck = 1,
	},
	[FP_P_LABEL] = {
		.code = "label", .sev = FP_SEV_ERROR,
		.msg = "volume label entry is a duplicate or outside the root",
	},
	[FP_P_LABEL_MISMATCH] = {
		.code = "label-mismatch", .sev = FP_SEV_ERROR,
		.msg = "volume labels differ: %o (Windows and blkid show the "
			"root directory's; fsck.fat makes the boot sector's "
			"agree)",
	},
	[FP_P_BAD_LABEL] = {
		.code = "bad-label", .sev = FP_SEV_ERROR,
		.msg = "volume label %o is empty or has invalid characters "
			"(fsck.fat removes it)",
	},
	[FP_P_LOST] = {
		.code = "lost-chain", .sev = FP_SEV_ERROR,
		.msg = "lost chain starting at cluster %c, length %a",
	},
	[FP_P_METADATA_HOLE] = {
		.code = "metadata-hole", .sev = FP_SEV_WARNING,
		.msg = "%a bytes of boot sectors, FATs or directories lie in "
			"%b holes of the image file, which a flash that skips "
			"holes leaves as the card's old bytes; fatprealloc "
			"--fill-holes writes them",
	},
};

const char *fp_problem_code(enum fp_problem p)
{
	return problems[p].code;
}

enum fp_severity fp_problem_severity(enum fp_problem p)
{
	return problems[p].sev;
}

int fp_problem_fsck_repairs(enum fp_problem p)
{
	return !problems[p].no_fsck;
}

void fp_finding_format(const struct fp_finding *f, char *buf, size_t len)
{
	const char *t = problems[f->problem].msg;
	size_t n = 0;
	int w;

	for (; *t && n + 1 < len; t++) {
		if (*t != '%' || !t[1]) {
			buf[n++] = *t;
			continue;
		}
		switch (*++t) {
		case 'c':
			w = snprintf(buf + n, len - n, "%" PRIu32, f->cl);
			break;
		case 'a':
			w = snprintf(buf + n, len - n, "%" PRIu64, f->a);
			break;
		case 'b':
			w = snprintf(buf + n, len - n, "%" PRIu64, f->b);
			break;
		case 'h':
			w = snprintf(buf + n, len - n, "0x%" PRIX64, f->a);
			break;
		case 'H':
			w = snprintf(buf + n, len - n, "0x%" PRIX64, f->b);
			break;
		default:
			w = snprintf(buf + n, len - n, "%s",
				     f->other ? f->other : "?");
			break;
		}
		if (w < 0 || (size_t)w >= len - n)
			break;
		n += (size_t)w;
	}
	buf[n < len ? n : len - 1] = '\0';
}
