/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* path.h - paths inside a volume: components, keys, walks to a parent. */
#ifndef FP_PATH_H
#define FP_PATH_H

#include <stddef.h>
#include <stdint.h>

#include "dir.h"
#include "fp_err.h"
#include "fs.h"
#include "problem.h"

/*
 * A path inside a volume is a string of components separated by '/':
 * "/dir/name", "dir//name" and "dir/name/" are the same path (leading,
 * repeated and trailing slashes are skipped).  A component is kept as
 * given: "." and ".." are components like any other (and names that
 * fp_name_check() refuses), not references to a directory.
 */

/*
 * The next component of *path: slashes are skipped, then *s and *len are
 * set to the component's bytes and *path is moved past it.  Returns 0
 * (*s and *len untouched) when only slashes are left.
 */
int fp_path_next(const char **path, const char **s, size_t *len);

/*
 * The component of @len bytes at @s as a long name: UTF-8 decoded into
 * @u (room for FP_LFN_MAX units), *n units, then checked by
 * fp_name_check().  The errors of fp_name_from_utf8() (*n unset) and of
 * fp_name_check(); on FP_E_RESERVED, *n is set.
 */
enum fp_err fp_path_name(const char *s, size_t len, uint16_t *u, size_t *n);

/*
 * A string equal for two paths exactly when fp_path_same() says they are
 * the same (malloc'd; NULL when out of memory), for sorting: "/" before
 * each component, each component upper-cased as fp_name_upcase() folds,
 * or its bytes as they are when it is not a name fp_name_from_utf8()
 * decodes (malformed UTF-8, more than FP_LFN_MAX units).  "" for a path
 * without components.
 */
char *fp_path_key(const char *path);

/*
 * 1 if paths @a and @b name the same file as VFAT lookups compare them:
 * component by component, ignoring repeated slashes and case.  (An alias
 * and its long name are told apart only by a lookup in the directory.)
 * 0 also when out of memory.
 */
int fp_path_same(const char *a, const char *b);

/*
 * A walk from the root to the directory that holds a path's last
 * component, with the caller's hooks (all optional; ctx is the walk's):
 *
 * load: the directory whose first cluster is @cl (the root's: 0 on
 *	FAT12/16, BPB_RootClus on FAT32), from fp_path_cached() or loaded
 *	and handed to fp_path_keep(); a caller checks it there.  NULL: from
 *	the cache, else fp_dir_load() without any check.
 * enter: before going into the subdirectory of entry @e (which has a
 *	chain and is not on the path already); any error stops the walk.
 * missing: the directory @name (@n units) is not in @parent; @path is
 *	the path up to and including it (@len bytes, not NUL-terminated).
 *	Make it (fp_path_keep() it) and set *out, or return an error.
 *	NULL: FP_E_NOENT.
 */
struct fp_path_ops {
	enum fp_err (*load)(void *ctx, uint32_t cl, struct fp_dir **out);
	enum fp_err (*enter)(void *ctx, const struct fp_dirent *e);
	enum fp_err (*missing)(void *ctx, struct fp_dir *parent,
			       const uint16_t *name, size_t n,
			       const char *path, size_t len,
			       struct fp_dir **out);
};

/*
 * The walk's state, kept over many walks so that each directory is loaded
 * once (a plan keeps one for all its requests).  Callers hold it by value
 * (in struct fp_plan, on --map's stack) but its fields are path.c's: set
 * it up with fp_path_walk_init(), then optionally fp_path_walk_report()
 * and fp_path_walk_allow_reserved(); read the directories it keeps (to
 * write them back) through fp_path_dir_count() and fp_path_dir().
 */
struct fp_path_walk {
	struct fp_fs *fs;		/* borrowed */
	const struct fp_path_ops *ops;	/* borrowed; NULL: no hooks */
	void *ctx;
	int reserved_ok;	/* accept reserved device names (FP_E_RESERVED
				 * of fp_path_name()): for walks that only
				 * read */
	char *where;		/* where_len bytes of the caller's (NULL, 0:
				 * none): the path walked so far, "/" for the
				 * root, or the component that failed */
	size_t where_len;
	enum fp_problem *problem;	/* the caller's (NULL: none): set when
					 * the walk itself gives FP_E_DAMAGED */
	struct fp_dir **dirs;	/* every directory loaded or made; owned */
	size_t dir_count, dir_cap;
	uint32_t *trail;	/* first clusters of the directories on the
				 * path walked last, root first; owned */
	size_t trail_count, trail_cap;
	struct fp_path_slot *index;	/* dirs by first cluster, open
					 * addressing; owned */
	size_t index_cap;	/* a power of two, or 0 */
	uint64_t walk_no;	/* walks begun, for fp_path_slot.on_path */
};

/*
 * A slot of fp_path_walk.index: which directory, and whether it is on the
 * path being walked.  A lookup in the list of directories, or in the
 * trail, at each level would cost the square of the depth in time (a
 * path through 60,000 levels: 20 s); the index makes both constant.
 */
struct fp_path_slot {
	size_t dir;		/* index in dirs + 1; 0: empty */
	uint32_t cl;		/* its first cluster, so that a probe
				 * asks no directory */
	uint64_t on_path;	/* walk_no of the walk whose trail has it */
};

/* Set up @w for walks on @fs with @ops (NULL: none) and @ctx. */
void fp_path_walk_init(struct fp_path_walk *w, struct fp_fs *fs,
		       const struct fp_path_ops *ops, void *ctx);

/*
 * Where @w says what it walked: @where (@where_len bytes, NULL and 0 for
 * none) gets the path walked so far, "/" for the root, or the component
 * that failed; *@problem (NULL: none) is set when the walk itself gives
 * FP_E_DAMAGED.  Both are the caller's and must outlive the walks.
 */
void fp_path_walk_report(struct fp_path_walk *w, char *where,
			 size_t where_len, enum fp_problem *problem);

/* Accept reserved device names (FP_E_RESERVED of fp_path_name()) in the
 * walks of @w: for walks that only read. */
void fp_path_walk_allow_reserved(struct fp_path_walk *w);

/* How many directories @w keeps (loaded or made), and the @i-th of them
 * in the order they were kept; @w owns them, the caller never changes
 * which they are. */
size_t fp_path_dir_count(const struct fp_path_walk *w);
struct fp_dir *fp_path_dir(const struct fp_path_walk *w, size_t i);

/* How many directories the last walk of @w went through, the root and
 * the one that holds the last component included. */
size_t fp_path_depth(const struct fp_path_walk *w);

/*
 * 1 if the directory with first cluster @cl is on the path of the last
 * walk of @w (the root and the one that holds the last component
 * included), in constant time.
 */
int fp_path_on_trail(const struct fp_path_walk *w, uint32_t cl);

/* The directory with first cluster @cl that @w keeps, or NULL. */
struct fp_dir *fp_path_cached(const struct fp_path_walk *w, uint32_t cl);

/*
 * Keep the directory @d (loaded or made) in @w, which takes it over, even
 * on failure (it is freed then); *out is @d, kept for as long as @w is.
 */
enum fp_err fp_path_keep(struct fp_path_walk *w, struct fp_dir *d,
			 struct fp_dir **out);

/*
 * Walk @path to the directory that holds its last component: *out is
 * that directory, @u and *n the last component as a long name
 * (fp_path_name()), and *path points past it.  Each directory on the
 * way must be a directory (FP_E_NOTDIR), exist (or be made by the
 * missing hook; FP_E_NOENT), have a chain (cluster 0 would read as the
 * root: FP_E_DAMAGED, FP_P_DIR_NO_CHAIN) and not be on the path already
 * (FP_E_DAMAGED, FP_P_DIR_CYCLE).  A path without components gives
 * FP_E_NAME; a component that is not a valid name, fp_path_name()'s
 * error.  To make a directory and its parents (mkdir -p), walk to the
 * directory's own name with a missing hook that makes directories and
 * look the last component up or make it.
 */
enum fp_err fp_path_parent(struct fp_path_walk *w, const char **path,
			   uint16_t *u, size_t *n, struct fp_dir **out);

/* Release every directory @w keeps, and its trail. */
void fp_path_walk_release(struct fp_path_walk *w);

#endif
