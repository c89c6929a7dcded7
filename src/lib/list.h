/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* list.h - the files and directories under a volume path (--list). */
#ifndef FP_LIST_H
#define FP_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"
#include "fs.h"
#include "plan.h"	/* struct fp_extent */
#include "problem.h"
#include "sha256.h"

/*
 * A tree iterator for --list, and for the readers built on it (--extract,
 * --diff):
 *
 *	struct fp_list *l;
 *	const struct fp_list_entry *e;
 *	struct fp_list_diag diag = { 0 };
 *
 *	err = fp_list_open(fs, "/EFI", &l, &diag);
 *	while (!err && (err = fp_list_next(l, &e, &diag)) == FP_OK && e)
 *		use(e);		(e and what it points to: until the next call)
 *	fp_list_free(l);
 *	fp_list_diag_release(&diag);
 *
 * Order: pre-order, each directory's entries in on-disk slot order; a
 * directory entry comes before what it holds.  Deleted slots, long-name
 * slots, volume labels and "." / ".." are not entries.  The path given
 * to fp_list_open() comes first itself, at depth 0, when it names a file
 * or a directory other than the root; the root's entries are at depth 1.
 *
 * Damage: fp_list_open() first walks the whole tree as the writers do
 * before they write (fp_damage_find(), the walk --verify makes), and the
 * iterator never lists through what that walk, or --verify, calls
 * damaged: a directory on the path or listed (its chain, its clusters in
 * a second chain, its dot entries, long-name slots, labels, duplicate
 * names, entries after its end mark, names Linux cannot list), a file
 * listed (its chain, its clusters in a second chain, too short for its
 * size) and each entry itself (bad-name, dir-size, dir-no-chain,
 * dir-cycle).  Such an entry stops the listing with FP_E_DAMAGED, the
 * entry's path and the problem in the diag, before the entry is
 * returned: a caller that must not print half a listing runs the
 * iterator once without output first (fp_list_next() is cheap without
 * the runs: FP_LIST_NO_RUNS).  So no entry is ever returned twice, no
 * chain is followed that loops or leaves the volume, and a name holds
 * no '/' and is neither "." nor "..".  A name may still hold control
 * characters (a long name Linux lists): callers escape what they print.
 *
 * Memory: the directories on the path from the start to the entry (each
 * as loaded by fp_dir_load(); those beyond 16 MiB in all are dropped and
 * read again on the way back), the path, and the runs of one entry;
 * never a list of the files.
 */
struct fp_list;

/* A date and time field as stored, and decoded. */
struct fp_list_time {
	uint16_t date;		/* as stored; 0: not set */
	uint16_t time;		/* as stored (0 for the access date) */
	uint8_t tenth;		/* creation: 10 ms units 0..199, else 0 */
	int valid;		/* the fields below are a real date (and time) */
	int year, month, day;	/* 1980..2107, 1..12, 1..31 */
	int hour, minute, second;	/* second 0..59, with the tenth's */
	int centi;		/* hundredths beyond second, from tenth */
};

/* What fp_list_next() returns: valid until the next call or the free. */
struct fp_list_entry {
	const char *path;	/* "/DIR/name": long names, UTF-8 */
	size_t path_len;
	const char *name;	/* the last component, inside path */
	unsigned depth;		/* 0: the start itself; 1: in it ... */
	char alias[37];		/* the 8.3 name as stored, "NAME.EXT"
				 * without the case bits, UTF-8 (bytes
				 * from 0x80 on in code page 437) */
	uint8_t sfn[11];	/* the short name's bytes */
	int has_lfn;		/* a long name is stored */
	uint8_t attr;		/* FP_ATTR_* (dir.h) */
	uint8_t ntres;		/* case bits */
	uint32_t size;
	uint32_t first_cl;	/* 0: no chain */
	uint32_t slot;		/* the short entry's slot in its directory */
	uint32_t first_slot;	/* its first long-name slot, or slot */
	struct fp_list_time created, modified, accessed;
	uint32_t clusters;	/* in its chain */
	const struct fp_extent *runs;	/* chain order, as --map; NULL
					 * with FP_LIST_NO_RUNS */
	size_t run_count;
};

/* Where and why the listing stopped. */
struct fp_list_diag {
	char *path;		/* malloc'd: FP_E_DAMAGED, FP_E_NOENT,
				 * FP_E_NOFILE, FP_E_NOTDIR; or NULL */
	enum fp_problem problem;	/* FP_E_DAMAGED: what is wrong */
};

enum fp_list_flags {
	FP_LIST_NO_RUNS = 1 << 0,	/* entries without runs (clusters 0):
					 * checks only, no chain mapped */
};

/*
 * A listing of @path of @fs (borrowed; "" or "/": the root) into *@out.
 * FP_E_NOFILE or FP_E_NOENT when it does not exist, FP_E_NOTDIR when it
 * ends in a slash but is a file, FP_E_DAMAGED (above), FP_E_NOMEM,
 * FP_E_IO, FP_E_CORRUPT; @diag says where (fp_list_diag_release()).
 */
enum fp_err fp_list_open(struct fp_fs *fs, const char *path, unsigned flags,
			 struct fp_list **out, struct fp_list_diag *diag);

/*
 * Another listing, of @path of the volume of @from, on the walk that
 * @from made (no second damage walk): @from must outlive it.
 */
enum fp_err fp_list_open_again(const struct fp_list *from, const char *path,
			       unsigned flags, struct fp_list **out,
			       struct fp_list_diag *diag);

/*
 * A listing of the directory whose first cluster is @cl (0: the root)
 * and whose path is @path, on the walk that @from made, without walking
 * down from the root to it: its entries come at depth 1 (there is no
 * depth 0).  For a caller that met the directory in a listing of the
 * same walk (its cycles were checked there): @from must outlive it.
 * Errors as fp_list_open() (FP_E_DAMAGED for the directory itself).
 */
enum fp_err fp_list_open_dir(const struct fp_list *from, const char *path,
			     uint32_t cl, unsigned flags, struct fp_list **out,
			     struct fp_list_diag *diag);

/*
 * Do not go into the directory fp_list_next() returned last: its
 * entries are skipped (and not checked), the listing goes on after it.
 */
void fp_list_prune(struct fp_list *l);

/*
 * The next entry into *@e, NULL after the last; an error ends the
 * listing (the same error again from then on), @diag says where.
 */
enum fp_err fp_list_next(struct fp_list *l, const struct fp_list_entry **e,
			 struct fp_list_diag *diag);

/*
 * The runs of @e, the entry fp_list_next() returned last, when the
 * listing has none (FP_LIST_NO_RUNS): for a caller that reads only some
 * files.  FP_E_INVAL for another entry; FP_E_NOMEM, FP_E_IO.
 */
enum fp_err fp_list_map(struct fp_list *l, const struct fp_list_entry *e);

/* What fp_list_read() hands the bytes to; an error stops the read. */
typedef enum fp_err fp_list_data_fn(void *ctx, const uint8_t *p, size_t n);

/*
 * The content of a file's entry @e (the entry fp_list_next() returned
 * last, listed with its runs) as stored: its size in bytes, read from
 * its runs in chain order with large sequential reads (2 MiB), handed to
 * @fn piece by piece (@p valid only during the call).  FP_E_INVAL for a
 * directory or without runs; FP_E_IO, FP_E_NOMEM, or @fn's error.
 */
enum fp_err fp_list_read(struct fp_list *l, const struct fp_list_entry *e,
			 fp_list_data_fn *fn, void *ctx);

/*
 * The SHA-256 of that content (fp_list_read()), hashed by @impl
 * (fp_sha256_best(), asked once per run).  Errors as fp_list_read().
 */
enum fp_err fp_list_hash(struct fp_list *l, const struct fp_list_entry *e,
			 enum fp_sha256_impl impl,
			 uint8_t digest[FP_SHA256_LEN]);

/*
 * Start @l again from the start path, with @flags: for a caller that
 * runs a checking pass (FP_LIST_NO_RUNS) before the one it prints,
 * without walking the tree for damage again.  Errors as fp_list_open().
 */
enum fp_err fp_list_rewind(struct fp_list *l, unsigned flags,
			   struct fp_list_diag *diag);

/*
 * The root's volume label entry (the first one, if it has no directory
 * bit, as --verify reads it) into @label: 1, or 0 when there is none.
 */
int fp_list_label(const struct fp_list *l, uint8_t label[11]);

/*
 * The free clusters of @fs and its largest free run (the lowest of equal
 * ones; 0 and 0 when nothing is free), from the FAT: FP_E_IO, FP_E_NOMEM.
 */
enum fp_err fp_list_space(struct fp_fs *fs, uint32_t *free_count,
			  uint32_t *run_start, uint32_t *run_count);

/* The writers' walk that fp_list_open() made (borrowed from @l). */
const struct fp_damage *fp_list_damage(const struct fp_list *l);

/*
 * That walk, given to the caller (fp_plan_opts.walk, or fp_damage_free())
 * and kept by @l until fp_list_free(): NULL if @l only borrows it
 * (fp_list_open_again(), fp_list_open_dir()) or gave it already.
 */
struct fp_damage *fp_list_give_damage(struct fp_list *l);

void fp_list_free(struct fp_list *l);

/* Free the path of @diag and clear it. */
void fp_list_diag_release(struct fp_list_diag *diag);

/* Decode a date/time field triple (@time 0 and @tenth 0 for a date). */
void fp_list_time_decode(uint16_t date, uint16_t time, uint8_t tenth,
			 struct fp_list_time *t);

#endif
