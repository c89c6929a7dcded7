/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* tree.h - scan a host file or directory tree for copying into a volume. */
#ifndef FP_TREE_H
#define FP_TREE_H

#include <stddef.h>
#include <stdint.h>

#include "fp_err.h"

enum fp_tree_kind {
	FP_TREE_FILE,
	FP_TREE_DIR,
};

/*
 * The most bytes read into memory from a file whose size is 0 (see
 * fp_tree_scan): 64 MiB.
 */
#define FP_TREE_SNAP_MAX (64u << 20)

/* One file or directory of the tree. */
struct fp_tree_node {
	char *host;		/* its host path (owned) */
	char *rel;		/* below the root, "a/b"; "" for the root */
	enum fp_tree_kind kind;
	uint64_t size;		/* files: bytes */
	int64_t mtime;		/* seconds, clamped (see fp_tree_scan) */
	uint8_t *data;		/* files: the @size bytes read at the scan
				 * (owned), or NULL: read the file later */
};

/*
 * A scanned tree (opaque, tree.c): its nodes in pre-order, the root
 * first, then each directory's entries sorted by name bytewise (strcmp),
 * each subdirectory followed by its own tree.  It owns the nodes.
 */
struct fp_tree;

/* Why a scan failed: the host path, and errno for FP_E_SRC. */
struct fp_tree_diag {
	char path[4096];
	int errnum;
	int link;		/* the path is a symbolic link */
};

/*
 * Scan @src, a host file or directory, following symbolic links (as
 * mcopy and cp -L do): its files and directories, their sizes and their
 * modification times, each later than *@clamp made *@clamp (@clamp NULL:
 * none).  The order depends only on the names, never on readdir() order,
 * the locale or the host filesystem.
 *
 * A regular file whose size is 0 is read at once: files of /proc and
 * other pseudo filesystems say 0 and have content.  What the reads give
 * is the file's content, kept in the node (data, size), and copied
 * rather than the file read again, so that the plan knows its size and
 * the copy cannot change; a file that gives nothing is an empty file.
 *
 * Fails, with the path in *diag, with FP_E_SRC (a stat, open, read or
 * readdir error, errno in diag->errnum: a dangling link is ENOENT with
 * diag->link set), FP_E_SPECIAL (neither a regular file nor a
 * directory), FP_E_LOOP (a directory that contains itself through a
 * link), FP_E_TOOBIG (a file over 4 GiB - 1) or FP_E_SNAPBIG (a file of
 * size 0 that gives more than FP_TREE_SNAP_MAX bytes).
 */
enum fp_err fp_tree_scan(const char *src, const int64_t *clamp,
			 struct fp_tree **out, struct fp_tree_diag *diag);

/* The nodes of @tree, the root included. */
size_t fp_tree_count(const struct fp_tree *tree);

/* Node @i (< fp_tree_count()) in pre-order; borrowed from @tree. */
const struct fp_tree_node *fp_tree_node(const struct fp_tree *tree,
					size_t i);

/* Free @tree and its nodes; NULL: no-op. */
void fp_tree_free(struct fp_tree *tree);

#endif
