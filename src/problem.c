/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* problem.c - the problems the checker reports: codes, severities, messages. */
#include "problem.h"

#include <inttypes.h>
#include <stdio.h>

/*
 * The problem table: stable code, severity, message template, and 1 in
 * the last field for a problem that fsck.fat 4.2 does not repair (it
 * reads the bytes as sound).  In a template %c is the finding's cluster,
 * %a and %b its numbers (%h and %H the same in hex), %o the other owner.
 */
static const struct {
	const char *code;
	enum fp_severity sev;
	const char *msg;
	int no_fsck;
} problems[FP_P_COUNT] = {
	[FP_P_PART_OVERLAP] = { "partition-overlap", FP_SEV_ERROR,
		"partition %a overlaps %o from sector %b of the image, which "
		"a write into the volume may change", 1 },
	[FP_P_GPT_PRIMARY] = { "gpt-primary", FP_SEV_WARNING,
		"the primary GPT header or its entry array is damaged; "
		"partition %a was found through the backup header", 1 },
	[FP_P_BOOT_BACKUP] = { "boot-backup", FP_SEV_ERROR,
		"BPB of the backup boot sector (sector %a) differs from the "
		"boot sector's, first at byte %b" },
	[FP_P_BOOT_BACKUP_CODE] = { "boot-backup-code", FP_SEV_WARNING,
		"boot code or OEM name of the backup boot sector (sector %a) "
		"differs from the boot sector's, first at byte %b" },
	[FP_P_BOOT_BACKUP_HIDDEN] = { "boot-backup-hidden", FP_SEV_WARNING,
		"hidden sectors (BPB_HiddSec) of the backup boot sector "
		"(sector %a) are %b, not the boot sector's (partitioning "
		"tools rewrite them in the boot sector only)" },
	[FP_P_FSINFO_SIG] = { "fsinfo-signature", FP_SEV_ERROR,
		"FSInfo sector %a has bad signatures" },
	[FP_P_FSINFO_FREE] = { "fsinfo-free-count", FP_SEV_WARNING,
		"FSInfo free count is %a, but %b clusters are free" },
	[FP_P_FSINFO_NEXT] = { "fsinfo-next-free", FP_SEV_WARNING,
		"FSInfo next-free hint %a is out of range" },
	[FP_P_FAT_TYPE] = { "fat-type", FP_SEV_WARNING,
		"FAT32 volume has only %a clusters (FAT32 needs 65525)" },
	[FP_P_FAT_MEDIA] = { "fat-media", FP_SEV_ERROR,
		"FAT entry 0 is %h, expected %H for the media byte" },
	[FP_P_FAT_ENTRY1] = { "fat-entry1", FP_SEV_WARNING,
		"FAT entry 1 is %h, not an end-of-chain value" },
	[FP_P_DIRTY] = { "volume-dirty", FP_SEV_WARNING,
		"volume is marked dirty (not cleanly unmounted)" },
	[FP_P_IO_ERROR] = { "volume-io-error", FP_SEV_WARNING,
		"volume is marked as having had I/O errors" },
	[FP_P_FAT_BAD_ENTRY] = { "fat-bad-entry", FP_SEV_ERROR,
		"FAT entry of cluster %c holds the reserved or out-of-range "
		"value %h" },
	[FP_P_FAT_MISMATCH] = { "fat-mismatch", FP_SEV_ERROR,
		"FAT copy %a differs from the active FAT (entries differing: "
		"%b, the first at cluster %c)" },
	[FP_P_FAT_MISMATCH_LOST] = { "fat-mismatch-lost", FP_SEV_WARNING,
		"FAT copy %a differs from the active FAT only by lost "
		"clusters, as an interrupted write leaves it (entries "
		"differing: %b, the first at cluster %c); the next write "
		"makes the copies equal" },
	[FP_P_BAD_START] = { "bad-start", FP_SEV_ERROR,
		"start cluster %c is out of range, free or bad" },
	[FP_P_CHAIN_LOOP] = { "chain-loop", FP_SEV_ERROR,
		"cluster chain loops back to cluster %c after %a clusters" },
	[FP_P_CHAIN_FREE] = { "chain-free", FP_SEV_ERROR,
		"cluster chain runs into free cluster %c" },
	[FP_P_CHAIN_BAD] = { "chain-bad", FP_SEV_ERROR,
		"cluster chain runs into bad cluster %c" },
	[FP_P_CHAIN_RANGE] = { "chain-range", FP_SEV_ERROR,
		"cluster %c links to %h, outside the data area" },
	[FP_P_CROSS_LINK] = { "cross-link", FP_SEV_ERROR,
		"cluster %c is also in the chain of %o" },
	[FP_P_CHAIN_SHORT] = { "chain-short", FP_SEV_ERROR,
		"chain has %a clusters, the size needs %b" },
	[FP_P_TAIL] = { "tail-beyond-size", FP_SEV_WARNING,
		"chain has %a clusters, the size needs only %b (Linux "
		"remounts read-only if it grows the file; fsck.fat frees "
		"the rest)" },
	[FP_P_DIR_SIZE] = { "dir-size", FP_SEV_ERROR,
		"directory entry has size %a, not 0" },
	[FP_P_DIR_NO_CHAIN] = { "dir-no-chain", FP_SEV_ERROR,
		"directory has no clusters" },
	[FP_P_DIR_LONG] = { "dir-too-long", FP_SEV_ERROR,
		"directory has %a clusters, room for more than the 65536 "
		"entries the FAT specification allows (Linux reads them all, "
		"fatprealloc the first 65536)", 1 },
	[FP_P_DOT] = { "dot-entry", FP_SEV_ERROR,
		"'.' or '..' entry is missing or points to the wrong cluster" },
	[FP_P_ROOT_DOT] = { "root-dot", FP_SEV_ERROR,
		"%a '.' or '..' entries in the root directory, which has none "
		"(Linux lists them beside its own)" },
	[FP_P_DIR_CYCLE] = { "dir-cycle", FP_SEV_ERROR,
		"directory entry points back to its ancestor at cluster %c" },
	[FP_P_BAD_NAME] = { "bad-name", FP_SEV_ERROR,
		"short name has invalid characters" },
	[FP_P_DUP_NAME] = { "duplicate-name", FP_SEV_ERROR,
		"name is also used by %o" },
	[FP_P_LFN_ORPHAN] = { "lfn-orphan", FP_SEV_ERROR,
		"%a long-name slots belong to no valid short entry, or hold "
		"bits or fields that readers take apart" },
	[FP_P_AFTER_END] = { "after-end", FP_SEV_ERROR,
		"entries after the end-of-directory mark: %a, the first at "
		"slot %b (Linux and fsck.fat read them, mtools does not)", 1 },
	[FP_P_BAD_LFN] = { "bad-long-name", FP_SEV_ERROR,
		"long names that Linux cannot list: %a (empty, '.', '..', "
		"with '/' or with a surrogate alone), the first at slot %b",
		1 },
	[FP_P_LABEL] = { "label", FP_SEV_ERROR,
		"volume label entry is a duplicate or outside the root" },
	[FP_P_LABEL_MISMATCH] = { "label-mismatch", FP_SEV_ERROR,
		"volume labels differ: %o (Windows and blkid show the root "
		"directory's; fsck.fat makes the boot sector's agree)" },
	[FP_P_BAD_LABEL] = { "bad-label", FP_SEV_ERROR,
		"volume label %o is empty or has invalid characters "
		"(fsck.fat removes it)" },
	[FP_P_LOST] = { "lost-chain", FP_SEV_ERROR,
		"lost chain starting at cluster %c, length %a" },
	[FP_P_METADATA_HOLE] = { "metadata-hole", FP_SEV_WARNING,
		"%a bytes of boot sectors, FATs or directories lie in %b "
		"holes of the image file, which a flash that skips holes "
		"leaves as the card's old bytes; fatprealloc --fill-holes "
		"writes them" },
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
