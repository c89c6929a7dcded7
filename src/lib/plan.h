/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* plan.h - plan preallocations of an open volume in memory, commit them. */
#ifndef FP_PLAN_H
#define FP_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "damage.h"
#include "fp_err.h"
#include "fs.h"
#include "problem.h"
#include "progress.h"

#define FP_FILE_MAX 0xFFFFFFFFull	/* largest FAT file size */

/* One request: a path inside the volume ("/dir/name") and a size. */
struct fp_req {
	const char *path;
	uint64_t size;
};

/*
 * What makes a request a copy: a host source.  A file (the request's size)
 * is created with the data of @host (refused with FP_E_EXISTS when the
 * path exists); with @is_dir a directory is created, or merged with when
 * it exists.  Either gets @mtime as its time.  @host NULL: a
 * preallocation.  @data, when not NULL, holds the file's bytes, read
 * before planning (fp_tree_scan: a file of size 0 with content), and is
 * copied instead of @host; borrowed, it must live until the commit.
 */
struct fp_req_src {
	const char *host;
	int is_dir;
	int64_t mtime;
	const uint8_t *data;
};

/* What a request does beyond a file's size or a copy (issue 29's edits). */
enum fp_req_kind {
	FP_REQ_FILE,		/* preallocate, extend, trim or copy */
	FP_REQ_RM,		/* remove a file (a tree: FP_EDIT_RECURSIVE) */
	FP_REQ_MKDIR,		/* make a directory (FP_EDIT_PARENTS) */
	FP_REQ_MV,		/* rename or move the path to @to */
	FP_REQ_ATTR,		/* set and clear attribute bits */
	FP_REQ_LABEL,		/* set the volume label to @to */
};

#define FP_EDIT_RECURSIVE 0x1u	/* rm: a directory and all below it */
#define FP_EDIT_PARENTS 0x2u	/* mkdir: make missing parents too */
#define FP_EDIT_REPLACE 0x4u	/* a copy or mv may replace a file */

/*
 * The edit of one request: with opts->edits, one per request.  Kind
 * FP_REQ_FILE with no flags is a request as without edits; the request's
 * size is used by FP_REQ_FILE only.
 */
struct fp_req_edit {
	enum fp_req_kind kind;
	unsigned flags;		/* FP_EDIT_* */
	const char *to;		/* FP_REQ_MV: the new path; FP_REQ_LABEL:
				 * the label; borrowed */
	uint8_t attr_set;	/* FP_REQ_ATTR: FP_ATTR_* bits to set */
	uint8_t attr_clear;	/* and to clear */
};

struct fp_plan_opts {
	int keep_size;		/* allocate, keep the recorded size */
	int zero;		/* with keep_size: zero the clusters too */
	int punch_holes;	/* zero by punching holes (fp_img_punch) */
	int contiguous;		/* new clusters of a file form one run */
	int parents;		/* create missing directories */
	int place_end;		/* files' new clusters: the highest free
				 * ones, packed against the volume's end */
	int trim;		/* instead: free each file's clusters past
				 * its size (the sizes of the requests are
				 * not used) */
	int64_t time;		/* stamp for new and resized entries */
	const struct fp_req_src *srcs;	/* NULL, or one per request */
	const struct fp_req_edit *edits;	/* NULL, or one per request */
	int utc;		/* time is shown in UTC, else local time */
	const struct fp_progress *progress;	/* zeroing and copied data,
						 * one piece; NULL: none */
	struct fp_damage *walk;	/* the writers' walk (fp_damage_find())
				 * of this volume, made before and nothing
				 * written since: the plan takes it (freed
				 * with the plan, or by a failed build) and
				 * walks no more; NULL: it walks itself */
};

enum fp_action {
	FP_ACT_NONE,		/* already satisfied */
	FP_ACT_CREATE,		/* a new file */
	FP_ACT_EXTEND,		/* an existing file gets clusters or size */
	FP_ACT_TRIM,		/* clusters past the size are freed */
	FP_ACT_REPLACE,		/* a copy's new data replaces a file */
	FP_ACT_REMOVE,		/* a file or tree is removed */
	FP_ACT_MKDIR,		/* a directory is made */
	FP_ACT_MOVE,		/* an entry is renamed or moved */
	FP_ACT_ATTR,		/* an entry's attributes change */
	FP_ACT_LABEL,		/* the volume label changes */
};

/* A run of clusters. */
struct fp_extent {
	uint32_t start;
	uint32_t count;
};

/* What the plan does to one requested file. */
struct fp_plan_file {
	const char *path;	/* borrowed from the request */
	const char *src;	/* a copy: borrowed from the request */
	const uint8_t *src_data;	/* its bytes read before, or NULL */
	int is_dir;		/* a copy's directory: action CREATE or NONE */
	enum fp_action action;
	uint32_t old_size;
	uint32_t new_size;
	uint32_t old_clusters;	/* chain length before */
	uint32_t new_clusters;	/* clusters added */
	uint32_t freed;		/* FP_ACT_TRIM: clusters freed */
	uint32_t first_cl;	/* first cluster afterwards, 0 if none */
	struct fp_extent *ext;	/* the added clusters, in chain order */
	size_t ext_count;
	struct fp_dir *dir;	/* where its entry lives (plan's cache) */
	uint32_t slot;		/* index of its short entry */
	uint8_t old_attr;	/* FP_ACT_ATTR: the entry's attributes */
	uint8_t new_attr;	/* before and after (equal: unchanged) */
	uint8_t old_label[11];	/* FP_ACT_LABEL: the root's label entry */
	uint8_t new_label[11];	/* before and after; spaces: none */
	const char *to;		/* FP_ACT_MOVE: the new path, borrowed */
};

/* Where and why planning failed. */
struct fp_plan_diag {
	size_t req;		/* index of the failing request */
	uint32_t need;		/* FP_E_NOSPC / FP_E_NORUN: clusters wanted */
	uint32_t avail;		/* free clusters / largest free run */
	uint32_t last_cl;	/* FP_E_NORUN: an existing file's last
				 * cluster (avail: free ones after it), 0 */
	char component[256];	/* FP_E_NOENT, FP_E_NOTDIR, FP_E_DAMAGED:
				 * path so far ("/" for the root) */
	enum fp_problem problem;	/* FP_E_DAMAGED: what is wrong there */
	int errnum;		/* commit's FP_E_SRC: errno (req: the file) */
};

struct fp_plan;

/*
 * Plan @count requests on @fs in memory; nothing is written.  On failure
 * *diag says which request failed and why.  The plan never writes through
 * damage: first the directory tree is walked as --verify walks it
 * (fp_damage_find()), then a request whose path runs through a damaged
 * directory, whose entry goes into one, or that extends a damaged file
 * fails with FP_E_DAMAGED (diag: the path and the problem); clusters that
 * a chain uses although the FAT marks them free are never allocated.
 * Copies (opts->srcs) plan as files and directories to create; @diag
 * must stay valid until fp_plan_commit(), which fills it when a copy's
 * source fails.
 */
enum fp_err fp_plan_build(struct fp_fs *fs, const struct fp_plan_opts *opts,
			  const struct fp_req *reqs, size_t count,
			  struct fp_plan **out, struct fp_plan_diag *diag);

/* The planned files, in request order. */
const struct fp_plan_file *fp_plan_files(const struct fp_plan *plan,
					 size_t *count);

/*
 * A directory the plan creates: the first @len bytes (not NUL-terminated)
 * of the path of the request that made it.  A prefix of the caller's
 * string, not a copy, so that "mkdir -p" of N levels keeps N pointers,
 * not N paths of up to N components each.
 */
struct fp_plan_dir {
	const char *path;
	size_t len;
};

/* Directories the plan creates, in order (borrowed from the requests). */
const struct fp_plan_dir *fp_plan_made_dirs(const struct fp_plan *plan,
					    size_t *count);

/* Clusters the plan allocates in all, for files and directories. */
uint32_t fp_plan_alloc_count(const struct fp_plan *plan);

/* Clusters a trim plan (opts.trim) frees in all. */
uint32_t fp_plan_freed_count(const struct fp_plan *plan);

/* 1 if @plan was built with opts.trim. */
int fp_plan_is_trim(const struct fp_plan *plan);

/*
 * *count = free clusters on the volume once the plan is committed (the
 * same before and after fp_plan_commit()).  The FSInfo free count minus
 * the clusters allocated when FSInfo is trusted (its lead and structure
 * signatures are right, as Linux and mtools check) and that count is in
 * range and at least the clusters allocated (what Linux and mtools show),
 * else the free entries of the whole FAT (FAT12/16 always), which reads
 * every FAT window not read yet.
 */
enum fp_err fp_plan_free_count(struct fp_plan *plan, uint32_t *count);

/*
 * The largest run of free clusters once the plan is committed: *start (0
 * when no cluster is free) and *count.  Reads every FAT window not read
 * yet, so call it only for a report that shows it.  Not for trim plans,
 * whose freed clusters the bitmap still counts as used.
 */
enum fp_err fp_plan_largest_run(struct fp_plan *plan, uint32_t *start,
				uint32_t *count);

/*
 * Refuse an inconsistent volume before the commit, as fp_fs_check() does
 * (call it after fp_plan_build(): the FAT windows planning read have then
 * been compared), except FAT copies that differ only by lost clusters,
 * as an interrupted commit leaves them (fp_damage_copies(), with the
 * plan's walk of the active copy): then FP_OK, and fp_plan_commit()
 * writes the differing sectors of the active copy to every copy with
 * its first FAT write.
 */
enum fp_err fp_plan_check_copies(struct fp_plan *plan,
				 struct fp_fs_diag *diag);

/*
 * Write the change set that planning filled with fp_commit_write()
 * (commit.h), in crash-safe order: zero the data, write the copied files'
 * data (fp_copy_file(); a failing source sets the build's diag: req and
 * errnum), write new directory clusters, write every FAT copy (new chains
 * first, then the links from existing chains to them), write changed
 * directory sectors, free clusters (a trim plan: the new chain ends, then
 * the freed clusters, after the entries of files that keep no cluster),
 * update FSInfo, and fsync unless @no_sync.  A crash leaves lost clusters
 * at worst, never an entry pointing at free clusters.
 */
enum fp_err fp_plan_commit(struct fp_plan *plan, int no_sync);

void fp_plan_free(struct fp_plan *plan);

#endif
