/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* commit.h - a change set of a volume, written in crash-safe order. */
#ifndef FP_COMMIT_H
#define FP_COMMIT_H

#include <stddef.h>
#include <stdint.h>

#include "dir.h"
#include "fp_err.h"
#include "fs.h"
#include "progress.h"

/*
 * Everything one run writes to a volume, gathered in memory before the
 * first write: ranges to zero, copied data, FAT links and freed chains,
 * the directories whose new clusters and changed sectors go out, and what
 * FSInfo must learn.  New chains themselves are set in the FAT cache
 * (fp_fs_fat()) by whoever fills the set; the set records that they were
 * allocated.  fp_commit_write() writes it all in the order of
 * docs/DESIGN.md "Commit order".  Opaque; defined in commit.c.
 */
struct fp_change_set;

/*
 * A new, empty change set of @fs into *out (set only on success).  @fs is
 * borrowed until fp_change_set_free(); its FSInfo as it is now is kept
 * for fp_change_free_count().
 */
enum fp_err fp_change_set_new(struct fp_fs *fs, struct fp_change_set **out);

/* Zero the @len bytes at byte @off of the image (adjacent ranges merge). */
enum fp_err fp_change_zero(struct fp_change_set *cs, uint64_t off,
			   uint64_t len);

/*
 * Copy the first @size bytes of host file @host (or, when @data is not
 * NULL, of @data, which is copied instead) into the clusters that the
 * fp_change_copy_run() calls after this one give, in order.  @tag names
 * the copy in fp_commit_write()'s failure report.  @host and @data are
 * borrowed until the commit.
 */
enum fp_err fp_change_copy(struct fp_change_set *cs, size_t tag,
			   const char *host, const uint8_t *data,
			   uint32_t size);

/* The next @count clusters from @cl of the last fp_change_copy(). */
enum fp_err fp_change_copy_run(struct fp_change_set *cs, uint32_t cl,
			       uint32_t count);

/*
 * @count clusters from @start were allocated: their chain is set in the
 * FAT cache already.  Counted for FSInfo; the last call gives FSInfo's
 * next-free hint (start + count - 1).
 */
void fp_change_alloc(struct fp_change_set *cs, uint32_t start,
		     uint32_t count);

/*
 * The end @cl of a chain that is on disk (its FAT entry there: @old) now
 * points at the new clusters from @next, in the FAT cache already.  The
 * commit writes it only once the new chains are on disk.
 */
enum fp_err fp_change_link(struct fp_change_set *cs, uint32_t cl,
			   uint32_t old, uint32_t next);

/*
 * Free @count clusters of a chain on disk from @tail on, and end that
 * chain at @cut (0: no cluster is kept; the entry that held the chain
 * lets go of it in a directory change).  Nothing is changed in the FAT
 * cache until the commit.
 */
enum fp_err fp_change_free_chain(struct fp_change_set *cs, uint32_t cut,
				 uint32_t tail, uint32_t count);

/*
 * Directory @dir (borrowed until the commit) has changes to write: its
 * new clusters (written whole before they are linked), the end marker of
 * its old clusters when it grew, and its changed sectors on disk.  Added
 * once per directory, in the order they are to be written.
 */
enum fp_err fp_change_dir(struct fp_change_set *cs, struct fp_dir *dir);

#define FP_BOOT_FIELD_MAX 16	/* bytes of one boot sector field */

/*
 * Set the @len (<= FP_BOOT_FIELD_MAX) bytes at byte @off of the boot
 * sector to @bytes, then the same bytes of the FAT32 backup boot sector,
 * after the directories' changed sectors (step 4).  With @sig_off (0:
 * none), that last write of the boot sector also sets the byte at
 * @sig_off to @last_sig, and when @first_sig differs, a first write, made
 * before any directory is written (with @bytes already), sets it to
 * @first_sig: the extended boot signature 0x28 while a label changes, so
 * that no reader sees two labels that differ (docs/DESIGN.md "Labels").
 * The backup's byte at @sig_off is left alone.  One field a set: a
 * second is FP_E_INVAL.
 */
enum fp_err fp_change_boot_field(struct fp_change_set *cs, uint32_t off,
				 const uint8_t *bytes, uint32_t len,
				 uint32_t sig_off, uint8_t first_sig,
				 uint8_t last_sig);

/*
 * Entry @slot of @dir (borrowed until the commit, and given to
 * fp_change_dir() too) becomes the 32 bytes at @ent, written after the
 * changed directory sectors of step 4, as a step of its own: a moved
 * directory's ".." once its new entry is on disk.
 */
enum fp_err fp_change_put_late(struct fp_change_set *cs, struct fp_dir *dir,
			       uint32_t slot, const uint8_t *ent);

/*
 * The @count entries from @slot of @dir (borrowed until the commit, and
 * given to fp_change_dir() too) are marked deleted after the late entries
 * above, as the last directory write: a moved entry's old set goes only
 * once its new one is on disk, so that a cut in between leaves two
 * entries of one file (docs/DESIGN.md "Moves"), never none.
 */
enum fp_err fp_change_unlink(struct fp_change_set *cs, struct fp_dir *dir,
			     uint32_t slot, uint32_t count);

/*
 * The FAT copies differ by lost clusters only (fp_plan_check_copies()):
 * the first FAT write carries the differing sectors of the active copy
 * to every copy.
 */
void fp_change_sync_copies(struct fp_change_set *cs);

/* Clusters allocated, and freed, in all. */
uint32_t fp_change_alloc_count(const struct fp_change_set *cs);
uint32_t fp_change_freed_count(const struct fp_change_set *cs);

/*
 * *count = free clusters on the volume once the set is committed (the
 * same before and after fp_commit_write()), as the allocator counts them
 * (fp_alloc_free_after()): the FSInfo free count as the set was made,
 * minus the clusters allocated, when it can be right, else the free
 * entries of the free bitmap (fp_fs_bm(), which must be set up); plus
 * the clusters freed, at most the cluster count.
 */
enum fp_err fp_change_free_count(const struct fp_change_set *cs,
				 uint32_t *count);

void fp_change_set_free(struct fp_change_set *cs);

struct fp_commit_opts {
	int punch_holes;	/* zero by punching holes (fp_img_punch) */
	int no_sync;		/* skip the final fsync */
	const struct fp_progress *progress;	/* zeroing and copied data,
						 * one piece; NULL: none */
};

/* Which copy failed, when fp_commit_write() returns FP_E_SRC or
 * FP_E_CHANGED. */
struct fp_commit_fail {
	size_t tag;		/* fp_change_copy()'s tag */
	int errnum;		/* the source's errno (fp_copy_errno()) */
};

/*
 * Write @cs in crash-safe order (docs/DESIGN.md "Commit order"):
 *  1. zero the ranges, then write the copied data;
 *  2. the directories' new clusters whole, then the end markers of grown
 *     directories turned into deleted entries;
 *  3. every FAT copy: the new chains with the linked chain ends as they
 *     are on disk, then those ends pointed at the new chains;
 *  4. the changed directory sectors on disk, between the two writes of
 *     a boot sector field held (fp_change_boot_field()); then the late
 *     entries (fp_change_put_late()), then the entries unlinked
 *     (fp_change_unlink()), each a pass of directory writes; then the
 *     boot sector field's last write to the boot sector and its backup;
 *  5. every FAT copy: the ends of the chains that lose clusters, then
 *     the freed clusters;
 *  6. FSInfo's free count and next-free hint; fsync unless opts->no_sync.
 * Step 3 is left out when the set allocates nothing but frees clusters,
 * so that its first FAT write is step 5.  A crash after any write leaves
 * lost clusters at worst, never an entry pointing at free clusters.  A
 * failing copy source sets *fail (may be NULL).  Commit a set once.
 */
enum fp_err fp_commit_write(struct fp_change_set *cs,
			    const struct fp_commit_opts *opts,
			    struct fp_commit_fail *fail);

#endif
