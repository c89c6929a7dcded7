/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * plan_impl.h - the planner's state and the helpers that its edit files
 * (edit*.c: rm, mkdir, mv, attributes, label) share with plan.c.  Private
 * to the planner: only plan.c, plan_build.c and edit*.c include it.
 * plan_build.c, on top, hands each request to plan.c or to edit.c, so
 * that the edit files can call plan.c and plan.c never calls them.
 */
#ifndef FP_PLAN_IMPL_H
#define FP_PLAN_IMPL_H

#include "alloc.h"
#include "bitset.h"
#include "commit.h"
#include "dir.h"
#include "path.h"
#include "plan.h"
#include "slotset.h"
#include "walk.h"

struct fp_plan {
	struct fp_fs *fs;
	struct fp_plan_opts opts;
	uint16_t date, time;
	uint8_t tenth;
	struct fp_plan_file *files;
	size_t file_count;
	struct fp_path_walk walk;	/* keeps every directory loaded or
					 * created */
	struct fp_plan_dir *made;	/* created directories */
	size_t made_count, made_cap;
	struct fp_change_set *cs;	/* what the commit writes */
	struct fp_alloc *alloc;	/* the allocator over fp_fs_bm(fs) */
	struct fp_plan_diag *diag;	/* the caller's, filled on failure */
	struct fp_damage *dmg;	/* the tree walk's findings */
	struct fp_slotset held;	/* (dir, slot) of each planned request */
	struct fp_bitset changed;	/* first clusters of the directories
					 * in which a planned request changed
					 * an entry (not removed it) */
	uint64_t room_after;	/* clusters the requests after the one
				 * being planned will want (fp_alloc_room()
				 * of each, plus one for a directory) */
	const struct fp_req *reqs;	/* the requests (fp_plan_build()) */
	size_t req_count;
	struct fp_plan_want *want;	/* plan_dirs.c's table, made when
					 * the plan makes a directory */
	size_t want_count;
};

/* plan.c */

/*
 * A new plan of @count requests on @fs (fp_plan_build() without the
 * requests): the tree walked for damage, the allocator made.  *diag is
 * cleared and kept, as fp_plan_build() keeps it.
 */
enum fp_err fp_plan_start(struct fp_fs *fs, const struct fp_plan_opts *opts,
			  size_t count, struct fp_plan **out,
			  struct fp_plan_diag *diag);

/*
 * Plan request @r (a file or a copy: its edit, if any, is FP_REQ_FILE)
 * into @f (zeroed, its path set).
 */
enum fp_err fp_plan_one(struct fp_plan *p, const struct fp_req *r,
			const struct fp_req_src *src, struct fp_plan_file *f);

/* Once every request is planned: the directories go into the change set. */
enum fp_err fp_plan_finish(struct fp_plan *p);

/* Fail the request: the path so far (diag->component) has problem @pr. */
enum fp_err fp_plan_damaged(struct fp_plan *p, enum fp_problem pr);

/* The walk's checks (walk.h) as a writer makes them: the diag's problem. */
struct fp_walk_check fp_plan_gate(struct fp_plan *p);

/*
 * The tree walk's verdict on the chain from @cl: a file's or directory's
 * first cluster, or the root's key (0 on FAT12/16).
 */
enum fp_err fp_plan_check_chain(struct fp_plan *p, uint32_t cl);

/*
 * The directory starting at @cl (the root's key for the root; @ctx the
 * plan), from the walk's cache or loaded, its chain checked as a
 * directory on a path is (fp_plan_check_chain(), no cluster in a second
 * chain), and kept by the walk.
 */
enum fp_err fp_plan_get_dir(void *ctx, uint32_t cl, struct fp_dir **out);

/*
 * The chain of the existing file @e (none: *have 0), walked once and, on
 * a volume with cross-links, checked against them.
 */
enum fp_err fp_plan_file_chain(struct fp_plan *p, const struct fp_dirent *e,
				uint32_t *have, uint32_t *last);

/*
 * Add an entry set (long-name slots, then the short entry) for @name to
 * @dir, stamped with the plan's current time; *slot: the short entry.
 */
enum fp_err fp_plan_add_entry(struct fp_plan *p, struct fp_dir *dir,
			      const uint16_t *name, size_t n, uint8_t attr,
			      uint32_t cl, uint32_t size, uint32_t *slot);

/* What diag->component names once fp_plan_find_entry() has walked. */
enum fp_plan_name {
	FP_PLAN_NAME_DIR,	/* the directory walked to (the walk's) */
	FP_PLAN_NAME_ENTRY,	/* the path: what fails next is the entry's */
};

/*
 * Walk @path to the directory that holds its last component and look
 * that component up there: *dir, @name (FP_LFN_MAX units) and *n as
 * fp_path_parent() sets them, *e the entry (fp_dir_lookup()), and
 * diag->component as @how says.  FP_E_NOFILE when the entry is not there
 * (all but *e set, for a caller that makes it); else the walk's errors,
 * never FP_E_NOFILE themselves.
 */
enum fp_err fp_plan_find_entry(struct fp_plan *p, const char *path,
			       enum fp_plan_name how, uint16_t *name,
			       size_t *n, struct fp_dir **dir,
			       struct fp_dirent *e);

/*
 * Make the directory @name (the path @path, @path_len bytes) in @parent:
 * with @sized (a request's own path, not a parent that -p makes) with
 * the clusters the plan's entries in it will need (fp_plan_dir_size()),
 * else with one.
 */
enum fp_err fp_plan_new_dir(struct fp_plan *p, struct fp_dir *parent,
			    const uint16_t *name, size_t n, const char *path,
			    size_t path_len, int sized, struct fp_dir **out);

/*
 * Allocate @need clusters for @f whose chain ends at @last (0: no chain),
 * with the options' -c and --place, link them and record them as @f's
 * extents.
 */
enum fp_err fp_plan_alloc_file(struct fp_plan *p, struct fp_plan_file *f,
			       uint32_t need, uint32_t last);

/* The commit copies the data of file @f (a copy) into its extents. */
enum fp_err fp_plan_copy_data(struct fp_plan *p,
			      const struct fp_plan_file *f);

/* 1 if an earlier request of the plan already holds entry @slot of @dir. */
int fp_plan_same_file(const struct fp_plan *p, const struct fp_dir *dir,
		      uint32_t slot);

/*
 * 1 if an earlier request of the plan changed an entry (other than
 * removing it) of the directory whose first cluster is @cl.
 */
int fp_plan_dir_changed(const struct fp_plan *p, uint32_t cl);

/*
 * Request @f is planned: keep the entry it holds, and its directory if it
 * changed the entry, for fp_plan_same_file() and fp_plan_dir_changed(),
 * which later requests ask in O(1) rather than walking the requests.
 */
enum fp_err fp_plan_keep_file(struct fp_plan *p,
			      const struct fp_plan_file *f);

/*
 * Switch the short entry of @f to its first cluster and new size,
 * stamped with the plan's current time as written (the access date too);
 * the name, the attributes and the creation time stay.
 */
void fp_plan_switch_entry(struct fp_plan *p, const struct fp_plan_file *f);

/* New entries get @t (a copy's time), else the run's time. */
void fp_plan_set_stamp(struct fp_plan *p, int64_t t);

/*
 * Where a new set of @slots entries goes in @dir: the lowest free slots
 * after the set before it, else in new clusters (the directory grows),
 * else lower free slots; FP_E_ROOTFULL, FP_E_DIRFULL, FP_E_NOSPC.
 */
enum fp_err fp_plan_place_set(struct fp_plan *p, struct fp_dir *dir,
			      uint32_t slots, uint32_t *slot);

/* plan_dirs.c */

/*
 * *@clusters = the clusters that the directory @path (its first @len
 * bytes), which the plan makes, needs for "." and "..", and for an entry
 * set for each request that makes a file, a copy or a directory in it:
 * at least 1, at most the entry limit's.  Counted from every request's
 * path the first time (p->reqs); FP_E_NOMEM.
 */
enum fp_err fp_plan_dir_size(struct fp_plan *p, const char *path,
			     size_t len, uint32_t *clusters);

/* Free the table of fp_plan_dir_size(). */
void fp_plan_dirs_free(struct fp_plan *p);

/* edit.c */

/*
 * Plan request @r whose edit @ed is not FP_REQ_FILE into @f (zeroed, its
 * path set): dispatched by kind to the edit files.
 */
enum fp_err fp_edit_plan(struct fp_plan *p, const struct fp_req *r,
			 const struct fp_req_edit *ed,
			 struct fp_plan_file *f);

/* edit_rm.c */

/*
 * rm [-r] of @r->path: the entry set marked deleted in its directory
 * (fp_dir_delete()) and every chain of the file, the empty directory or,
 * with FP_EDIT_RECURSIVE, the whole tree, checked and freed by the
 * commit after the directory is written.  FP_E_ROOT for the root,
 * FP_E_NOFILE when missing, FP_E_NOTEMPTY, FP_E_DAMAGED (diag: the
 * entry and its problem), FP_E_DUPPATH when an earlier request of the
 * plan changed the entry or something in the tree.
 */
enum fp_err fp_edit_rm(struct fp_plan *p, const struct fp_req *r,
		       const struct fp_req_edit *ed, struct fp_plan_file *f);

/* edit_mkdir.c */

/*
 * mkdir [-p] of @r->path (@f->is_dir set): the directory made
 * (fp_plan_new_dir()), with FP_EDIT_PARENTS its missing parents too.
 * An existing directory is FP_E_EXISTS without FP_EDIT_PARENTS, action
 * FP_ACT_NONE with it; an existing file is FP_E_EXISTS; a missing parent
 * without FP_EDIT_PARENTS, FP_E_NOENT.
 */
enum fp_err fp_edit_mkdir(struct fp_plan *p, const struct fp_req *r,
			  const struct fp_req_edit *ed,
			  struct fp_plan_file *f);

/* edit_label.c */

/*
 * Plan the label change @ed (FP_REQ_LABEL, the label in ed->to, "" to
 * remove it): the root's label entry and the boot sector's field.
 */
enum fp_err fp_edit_label_plan(struct fp_plan *p, const struct fp_req *r,
			       const struct fp_req_edit *ed,
			       struct fp_plan_file *f);

/* edit_attr.c */

/*
 * Plan the attribute edit @ed (FP_REQ_ATTR) of request @r: the entry's
 * attribute byte, set and cleared in memory (fp_edit_attr_parse()).
 */
enum fp_err fp_edit_attr_plan(struct fp_plan *p, const struct fp_req *r,
			      const struct fp_req_edit *ed,
			      struct fp_plan_file *f);

/* edit_replace.c */

/*
 * The existing file @e, about to be replaced, as the writers check what
 * they free: a valid short name, a chain the tree walk found sound, not
 * cross-linked (its clusters go back to the free pool, so they must be
 * its own), and long enough for its size.  *have: its chain's length.
 */
enum fp_err fp_edit_check_freed(struct fp_plan *p, const struct fp_dirent *e,
				uint32_t *have);

/*
 * The copy request @r of host file @src lands on the existing entry @e of
 * @dir, and may replace it (FP_EDIT_REPLACE): plan the new data into
 * clusters of its own, the switch of @e's short entry to them (start
 * cluster, size, write time; name, attributes and creation time kept)
 * and the old chain freed after it.  A directory there is FP_E_ISDIR; a
 * damaged entry or chain FP_E_DAMAGED.
 */
enum fp_err fp_edit_replace(struct fp_plan *p, const struct fp_req *r,
			    const struct fp_req_src *src,
			    struct fp_plan_file *f, struct fp_dir *dir,
			    const struct fp_dirent *e);

/*
 * A copy of host file @src with FP_EDIT_REPLACE: when its path names an
 * existing entry, *done = 1 and the replacement is planned as
 * fp_edit_replace() plans it (a request that named the entry before is
 * FP_E_DUPPATH); else *done = 0 and nothing is planned, the copy goes to
 * fp_plan_one() as a new file.  Errors of the path walk either way.
 */
enum fp_err fp_edit_replace_copy(struct fp_plan *p, const struct fp_req *r,
				 const struct fp_req_src *src,
				 struct fp_plan_file *f, int *done);

/* edit_mv.c */

/*
 * --mv: rename or move @r->path to @ed->to (FP_EDIT_REPLACE: over an
 * existing file), as docs/DESIGN.md "Moves" says.  FP_E_MVROOT for the
 * root, FP_E_MVSELF for a directory into itself or below; FP_E_NOFILE,
 * FP_E_EXISTS, FP_E_ISDIR, FP_E_NOTDIR, FP_E_DAMAGED.
 */
enum fp_err fp_edit_mv(struct fp_plan *p, const struct fp_req *r,
		       const struct fp_req_edit *ed, struct fp_plan_file *f);

#endif
