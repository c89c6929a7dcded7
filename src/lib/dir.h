/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* dir.h - directories in memory: walk, lookup, free slots, entry codec. */
#ifndef FP_DIR_H
#define FP_DIR_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "bpb.h"
#include "fat.h"
#include "fp_err.h"
#include "image.h"
#include "name.h"

#define FP_DIR_MAX_ENTRIES 65536u	/* the specification's limit */
#define FP_DIR_SET_MAX 21		/* slots of an entry set: 20 + 1 */

/* Byte offsets inside a 32-byte directory entry. */
#define DIR_NAME 0
#define DIR_ATTR 11
#define DIR_NTRES 12
#define DIR_CRT_TENTH 13
#define DIR_CRT_TIME 14
#define DIR_CRT_DATE 16
#define DIR_ACC_DATE 18
#define DIR_CLUS_HI 20
#define DIR_WRT_TIME 22
#define DIR_WRT_DATE 24
#define DIR_CLUS_LO 26
#define DIR_SIZE 28

#define FP_ATTR_RO 0x01
#define FP_ATTR_HIDDEN 0x02
#define FP_ATTR_SYSTEM 0x04
#define FP_ATTR_VOLUME 0x08
#define FP_ATTR_DIR 0x10
#define FP_ATTR_ARCHIVE 0x20
#define FP_ATTR_LFN 0x0F

#define FP_DIRENT_FREE 0xE5	/* first byte of a deleted entry */
#define FP_DIRENT_END 0x00	/* first byte of the end marker */

/*
 * A whole directory in memory (opaque, dir.c): the fixed root of FAT12/16
 * (first cluster 0) or a cluster chain.  Its clusters from
 * fp_dir_disk_cl_count() on are new: planned in memory, written whole by
 * fp_dir_flush_new() before the FAT links them.  Changes to the other
 * clusters are tracked per sector and written by fp_dir_flush().  Made by
 * fp_dir_load(), fp_dir_load_list() or fp_dir_create(), freed with
 * fp_dir_free(); it owns all its buffers.
 */
struct fp_dir;

/* A decoded short entry with the long name that precedes it, if valid. */
struct fp_dirent {
	uint32_t slot;		/* index of the short entry */
	uint32_t first_slot;	/* first LFN slot, == slot without one */
	uint8_t sfn[11];
	uint8_t attr;
	uint8_t ntres;
	uint32_t cl;
	uint32_t size;
	uint16_t lfn[FP_LFN_MAX];
	size_t lfn_count;	/* 0: no valid long name */
	int lfn_bad;		/* a long name fp_name_lfn_bad() refuses */
};

/* Entries the directory holds. */
uint32_t fp_dir_count(const struct fp_dir *d);

/*
 * Pointer to entry @slot (< fp_dir_count()); valid until fp_dir_grow() or
 * fp_dir_free().
 */
uint8_t *fp_dir_ent(const struct fp_dir *d, uint32_t slot);

/* The first cluster: 0 for the fixed root of FAT12/16. */
uint32_t fp_dir_first_cl(const struct fp_dir *d);

/*
 * The chain, fp_dir_cl_count() clusters (none for the fixed root), new
 * ones included; valid until fp_dir_grow() or fp_dir_free().
 */
const uint32_t *fp_dir_cls(const struct fp_dir *d);

/* Clusters in the chain, new ones included. */
uint32_t fp_dir_cl_count(const struct fp_dir *d);

/* The first clusters of the chain that are on disk already; then new. */
uint32_t fp_dir_disk_cl_count(const struct fp_dir *d);

/* The slot after the highest set that fp_dir_put() stored; 0 before any. */
uint32_t fp_dir_put_end(const struct fp_dir *d);

/*
 * 1 if an entry of attribute @attr (not a long-name slot) is a volume
 * label: the volume bit, whatever the others, as Linux, mtools and
 * fsck.fat take it.  fp_dir_lookup() never finds one; --verify walks
 * none as a directory.
 */
static inline int fp_dir_is_label(uint8_t attr)
{
	return (attr & FP_ATTR_VOLUME) != 0;
}

/* 1 if the short name @sfn is ".", 2 if it is "..", else 0. */
static inline int fp_dir_dots(const uint8_t sfn[11])
{
	if (sfn[0] != '.')	/* inline: asked of every entry, seldom true */
		return 0;
	if (!memcmp(sfn, ".          ", 11))
		return 1;
	if (!memcmp(sfn, "..         ", 11))
		return 2;
	return 0;
}

/*
 * Load the directory at @first_cl (0: the fixed root of FAT12/16) into
 * *@out (the caller's, to fp_dir_free()).  A chain that is broken or
 * longer than FP_DIR_MAX_ENTRIES entries gives FP_E_CORRUPT.
 */
enum fp_err fp_dir_load(struct fp_img *img, const struct fp_geom *g,
			struct fp_fat *fat, uint32_t first_cl,
			struct fp_dir **out);

/*
 * Load a directory from the @count (>= 1) clusters at @cls into *@out,
 * for a caller that walked the chain itself; over FP_DIR_MAX_ENTRIES:
 * FP_E_CORRUPT.
 */
enum fp_err fp_dir_load_list(struct fp_img *img, const struct fp_geom *g,
			     const uint32_t *cls, uint32_t count,
			     struct fp_dir **out);

/*
 * A new, empty directory in cluster @cl with "." and ".." (@parent_cl, 0
 * for the root) stamped with @date/@time, into *@out.  Nothing is on
 * disk yet.
 */
enum fp_err fp_dir_create(const struct fp_geom *g, uint32_t cl,
			  uint32_t parent_cl, uint16_t date, uint16_t time,
			  struct fp_dir **out);

/* A walk over a directory's entries; start with { 0, 0 }. */
struct fp_dir_iter {
	uint32_t pos;		/* next slot to read */
	uint32_t orphans;	/* long-name slots dropped so far: a broken
				 * sequence, a bad checksum, no short entry */
};

/*
 * The next short entry (volume labels and dot entries included) that is
 * not deleted and not a long-name slot.  Returns 0 at the end marker or
 * the end of the directory, 1 with *out filled otherwise.
 */
int fp_dir_next(const struct fp_dir *dir, int fat32, struct fp_dir_iter *it,
		struct fp_dirent *out);

/*
 * The entries after the end marker that are not free (first byte neither
 * 0x00 nor 0xE5), which the FAT specification forbids: Linux and fsck.fat
 * read them, mtools and fp_dir_next() do not.  Returns how many, with
 * *first the lowest one's slot.
 */
uint32_t fp_dir_after_end(const struct fp_dir *dir, uint32_t *first);

/*
 * Find the file or directory called @name (compared case-insensitively
 * with long names and with short names), skipping volume labels, "." and
 * "..": the first such entry.  Returns 1 with *out filled, else 0.  The
 * first call indexes the directory's names in a hash table that
 * fp_dir_put() keeps up to date, so that a lookup costs O(1), not a walk
 * of the directory; without memory for it, lookups walk.
 */
int fp_dir_lookup(struct fp_dir *dir, int fat32, const uint16_t *name,
		  size_t count, struct fp_dirent *out);

/* 1 if a live short entry has the 8.3 name @sfn (indexed, as above). */
int fp_dir_sfn_used(struct fp_dir *dir, const uint8_t sfn[11]);

/*
 * The short name of a new entry called @name (@n units, valid as
 * fp_name_check() says) in @dir.  A name that fp_name_to_sfn() stores as
 * a bare 8.3 entry is that entry (*lfn 0, *ntres its case bits); any other
 * needs a long name (*lfn 1, *ntres 0) and an alias, chosen as Windows
 * chooses one (docs/DESIGN.md, "Names and aliases"): the first that no
 * live short entry of @dir has (fp_dir_sfn_used()) of the basis
 * (fp_name_alias_basis()) when nothing was lost, BASIS~1 .. BASIS~4, the
 * hashed bases (fp_name_alias_hashed()) of rounds 0 to 63 each with ~1 ..
 * ~9, then BASIS~5 .. BASIS~999999; none free: FP_E_ALIAS.  Whether @name
 * itself is in @dir is the caller's question (fp_dir_lookup()).  @sfn,
 * *ntres and *lfn are set only on success.
 */
enum fp_err fp_dir_pick_sfn(struct fp_dir *dir, const uint16_t *name,
			    size_t n, uint8_t sfn[11], uint8_t *ntres,
			    int *lfn);

/*
 * The lowest run of @count free slots (deleted entries and everything from
 * the end marker on) that starts at or after slot @from, within the
 * clusters that are in memory, and lies in one cluster that is on disk or
 * only in new clusters (a chain directory's), so that a crash never leaves
 * half of an entry set.  Returns 1 with *slot set, or 0.
 */
int fp_dir_find_free(struct fp_dir *dir, uint32_t count, uint32_t from,
		     uint32_t *slot);

/*
 * Where a set goes that fp_dir_find_free() found no room for at or after
 * @from, once a chain directory grows: the first of the free slots at the
 * directory's end (at or after @from) when they lie in new clusters, which
 * are written together, so that the set continues them with no gap; else
 * the first slot past the clusters on disk.  The directory must grow until
 * the set ends within it.
 */
uint32_t fp_dir_grow_slot(const struct fp_dir *dir, uint32_t from);

/* Append the zero-filled cluster @cl; FP_E_DIRFULL past the entry limit. */
enum fp_err fp_dir_grow(struct fp_dir *dir, uint32_t cl);

/*
 * Count every cluster @dir holds now as on disk already, as if it had
 * been loaded: for tests that make a directory with fp_dir_create() and
 * need the state of one read from an image.  Nothing is written.
 */
void fp_dir_mark_on_disk(struct fp_dir *dir);

/*
 * Store @count entries from @ents at @slot.  Free slots before @slot are
 * turned from end markers into deleted entries, and an end marker is put
 * after the set where it replaces the end, so that every reader sees the
 * new entries and nothing behind them.  put_end follows the set's end.
 */
void fp_dir_put(struct fp_dir *dir, uint32_t slot, const uint8_t *ents,
		uint32_t count);

/* Whether the slots fp_dir_delete() frees go to fp_dir_find_free(). */
enum fp_dir_reuse {
	FP_DIR_KEEP,	/* no: to fp_dir_put() at a slot the caller picks */
	FP_DIR_REUSE,	/* yes: free for the new sets of the plan */
};

/*
 * Mark the @count entries from @slot (an entry set: its long-name slots,
 * then its short entry) deleted: each slot's first byte becomes 0xE5,
 * and the changed sectors are written by fp_dir_flush(), in slot order,
 * so that a set whose slots span two writes loses its long name before
 * its short entry.  Lookups no longer find it.  With FP_DIR_REUSE (rm)
 * its slots are free for new sets at once.  FP_DIR_KEEP is for a move,
 * whose slots stay its own, never another set's of the plan, for the
 * crash order of docs/DESIGN.md "Moves": a rename in place puts its new
 * set (ending where the old one did) or the old set back into them at
 * once; the old set of any other move is deleted by the commit, after
 * the new set is written.  fp_dir_find_free() may not see those slots
 * before the next load.
 */
void fp_dir_delete(struct fp_dir *dir, uint32_t slot, uint32_t count,
		   enum fp_dir_reuse reuse);

/* Mark entry @slot changed after editing it through fp_dir_ent(). */
void fp_dir_touch(struct fp_dir *dir, uint32_t slot);

/* Write the new clusters, whole, coalescing neighbours on disk. */
enum fp_err fp_dir_flush_new(struct fp_dir *dir, struct fp_img *img,
			     const struct fp_geom *g);

/*
 * Before the FAT links new clusters of @dir: turn the end marker of its
 * clusters on disk, and the free slots after it, into deleted entries.
 * Readers such as Linux read on past an end marker and mtools stops
 * there, so a crash between the FAT and fp_dir_flush() must not leave
 * entries in the new clusters behind one.  Nothing to do without new
 * clusters, or without an end marker in the old ones.
 */
enum fp_err fp_dir_flush_end(struct fp_dir *dir, struct fp_img *img,
			     const struct fp_geom *g);

/* Write the changed sectors of the clusters that were on disk. */
enum fp_err fp_dir_flush(struct fp_dir *dir, struct fp_img *img,
			 const struct fp_geom *g);

/* Free @dir and its buffers; NULL: no-op. */
void fp_dir_free(struct fp_dir *dir);

/* First cluster of an entry (the high word only on FAT32). */
uint32_t fp_dirent_cluster(const uint8_t *ent, int fat32);
void fp_dirent_set_cluster(uint8_t *ent, uint32_t cl, int fat32);

/*
 * A FAT date and time for @epoch, in UTC when @utc else in local time;
 * clamped to 1980-01-01 00:00:00 .. 2107-12-31 23:59:58, also when @epoch
 * is beyond what time_t or struct tm hold.  *tenth is the 10 ms creation
 * field.
 */
void fp_dir_timestamp(int64_t epoch, int utc, uint16_t *date, uint16_t *time,
		      uint8_t *tenth);

/*
 * Encode a short entry: @sfn, @attr, @ntres, first cluster @cl, @size,
 * creation, write and access stamps from @date/@time/@tenth.
 */
void fp_dirent_encode(uint8_t *ent, const uint8_t sfn[11], uint8_t attr,
		      uint8_t ntres, uint32_t cl, uint32_t size, int fat32,
		      uint16_t date, uint16_t time, uint8_t tenth);

#endif
