/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* tree.c - scan a host tree: sorted entries, kinds, sizes, clamped times. */
#include "tree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "util.h"

#define TREE_FILE_MAX 0xFFFFFFFFull	/* largest FAT file size */
#define TREE_SNAP_FIRST (64u << 10)	/* snapshot(): first buffer size */

/* The scanned tree (tree.h): its nodes in pre-order; owned. */
struct fp_tree {
	struct fp_tree_node *nodes;
	size_t count, cap;
};

/* A directory being scanned, to find one that contains itself. */
struct up {
	dev_t dev;
	ino_t ino;
};

struct scan {
	struct fp_tree *t;
	const int64_t *clamp;
	struct fp_tree_diag *diag;
	struct up *up;		/* the directories from the root down */
	size_t up_count, up_cap;
};

static enum fp_err fail(struct scan *s, const char *path, enum fp_err err,
			int errnum)
{
	struct stat st;

	snprintf(s->diag->path, sizeof(s->diag->path), "%s", path);
	s->diag->errnum = errnum;
	s->diag->link = lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
	return err;
}

/* "@a/@b", or @b when @a is empty; NULL when out of memory. */
static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	int slash = la && a[la - 1] != '/';
	char *p = malloc(la + lb + 2);

	if (!p)
		return NULL;
	memcpy(p, a, la);
	if (slash)
		p[la] = '/';
	memcpy(p + la + (size_t)slash, b, lb + 1);
	return p;
}

/*
 * Open @host, a regular file as stat() said, for reading: O_NONBLOCK, so
 * that a FIFO put in its place is refused rather than waited on, cleared
 * once fstat() has seen a regular file (F_SETFL 0: it is the only status
 * flag the descriptor has).  The descriptor, or -1.
 */
static int open_file(struct scan *s, const char *host, enum fp_err *err)
{
	struct stat st;
	int fd = open(host, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);

	if (fd < 0) {
		*err = fail(s, host, FP_E_SRC, errno);
		return -1;
	}
	if (fstat(fd, &st) < 0 || fcntl(fd, F_SETFL, 0) < 0)
		*err = fail(s, host, FP_E_SRC, errno);
	else if (!S_ISREG(st.st_mode))
		*err = fail(s, host, FP_E_SPECIAL, 0);
	else
		return fd;
	close(fd);
	return -1;
}

/*
 * read() into @buf of @len bytes, again on EINTR: the count, or -1 with
 * the failure recorded in *err.
 */
static ssize_t read_some(struct scan *s, const char *host, int fd,
			 uint8_t *buf, size_t len, enum fp_err *err)
{
	ssize_t r;

	do
		r = read(fd, buf, len);
	while (r < 0 && errno == EINTR);
	if (r < 0)
		*err = fail(s, host, FP_E_SRC, errno);
	return r;
}

/*
 * Read the file @host, whose size is 0, to its end: *data (NULL when it
 * gives nothing) and *len.  The buffer doubles up to FP_TREE_SNAP_MAX;
 * a byte more is FP_E_SNAPBIG.  The buffer sizes are 64 KiB times
 * powers of two, as some files of /proc read only in multiples of their
 * record size (pagemap: 8 bytes).
 */
static enum fp_err snapshot(struct scan *s, const char *host,
			    uint8_t **data, uint64_t *len)
{
	uint8_t *buf = NULL, *p, more[4096];
	size_t n = 0, cap = 0;
	enum fp_err err = FP_OK;
	ssize_t r = 1;
	int fd = open_file(s, host, &err);

	while (fd >= 0 && !err && r > 0) {
		if (n == cap && cap == FP_TREE_SNAP_MAX) {
			r = read_some(s, host, fd, more, sizeof(more), &err);
			if (r > 0)
				err = fail(s, host, FP_E_SNAPBIG, 0);
			break;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : TREE_SNAP_FIRST;
			p = realloc(buf, cap);
			if (!p) {
				err = FP_E_NOMEM;
				break;
			}
			buf = p;
		}
		r = read_some(s, host, fd, buf + n, cap - n, &err);
		if (r > 0)
			n += (size_t)r;
	}
	if (fd >= 0)
		close(fd);
	if (err || !n) {
		free(buf);
		buf = NULL;
	}
	if (!err) {
		*data = buf;
		*len = n;
	}
	return err;
}

/*
 * Append a node for @host (its stat @st), taking @host and @rel; a
 * regular file of size 0 is read now (snapshot()).
 */
static enum fp_err add_node(struct scan *s, char *host, char *rel,
			    const struct stat *st)
{
	uint64_t size = S_ISREG(st->st_mode) ? (uint64_t)st->st_size : 0;
	struct fp_tree *t = s->t;
	struct fp_tree_node *n;
	uint8_t *data = NULL;
	enum fp_err err = FP_OK;

	if (!S_ISREG(st->st_mode) && !S_ISDIR(st->st_mode))
		err = fail(s, host, FP_E_SPECIAL, 0);
	else if (size > TREE_FILE_MAX)
		err = fail(s, host, FP_E_TOOBIG, 0);
	else if (S_ISREG(st->st_mode) && size == 0)
		err = snapshot(s, host, &data, &size);
	if (!err)
		err = fp_grow(&t->nodes, &t->cap, t->count, sizeof(*t->nodes));
	if (err) {
		free(data);
		free(host);
		free(rel);
		return err;
	}
	n = &t->nodes[t->count++];
	n->host = host;
	n->rel = rel;
	n->kind = S_ISDIR(st->st_mode) ? FP_TREE_DIR : FP_TREE_FILE;
	n->size = size;
	n->data = data;
	n->mtime = (int64_t)st->st_mtime;
	if (s->clamp && n->mtime > *s->clamp)
		n->mtime = *s->clamp;
	return FP_OK;
}

/* A directory's entry: its name and what fstatat() said of it. */
struct child {
	char *name;
	struct stat st;
};

static int child_cmp(const void *a, const void *b)
{
	return strcmp(((const struct child *)a)->name,
		      ((const struct child *)b)->name);
}

static void free_children(struct child *c, size_t count)
{
	while (count)
		free(c[--count].name);
	free(c);
}

/* The names in open directory @d (@host) but . and .., unsorted. */
static enum fp_err read_names(struct scan *s, const char *host, DIR *d,
			      struct child **out, size_t *count)
{
	struct child *c = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	enum fp_err err = FP_OK;

	while (!err) {
		errno = 0;
		e = readdir(d);
		if (!e) {
			if (errno)
				err = fail(s, host, FP_E_SRC, errno);
			break;
		}
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		err = fp_grow(&c, &cap, n, sizeof(*c));
		if (!err && !(c[n].name = strdup(e->d_name)))
			err = FP_E_NOMEM;
		if (!err)
			n++;
	}
	*out = c;
	*count = n;
	return err;
}

/*
 * The entries of directory @host, but . and .., sorted bytewise, each
 * stat()ed (links followed) relative to the open directory: one path
 * component to resolve rather than the whole path, and one descriptor
 * open at a time whatever the depth.
 */
static enum fp_err read_children(struct scan *s, const char *host,
				 struct child **out, size_t *count)
{
	int fd = open(host, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOCTTY);
	DIR *d = fd < 0 ? NULL : fdopendir(fd);
	struct child *c = NULL;
	size_t n = 0, i;
	enum fp_err err;
	char *h;

	if (!d) {
		err = fail(s, host, FP_E_SRC, errno);
		if (fd >= 0)
			close(fd);
		return err;
	}
	err = read_names(s, host, d, &c, &n);
	if (!err && n)
		qsort(c, n, sizeof(*c), child_cmp);
	for (i = 0; !err && i < n; i++) {
		if (fstatat(fd, c[i].name, &c[i].st, 0) == 0)
			continue;
		h = join(host, c[i].name);
		err = h ? fail(s, h, FP_E_SRC, errno) : FP_E_NOMEM;
		free(h);
	}
	closedir(d);
	if (err) {
		free_children(c, n);
		return err;
	}
	*out = c;
	*count = n;
	return FP_OK;
}

static enum fp_err scan_dir(struct scan *s, const char *host,
			    const char *rel, const struct stat *st);

/* Add @host (its stat @st), and its tree if a directory. */
static enum fp_err scan_node(struct scan *s, char *host, char *rel,
			     const struct stat *st)
{
	enum fp_err err = add_node(s, host, rel, st);

	if (!err && S_ISDIR(st->st_mode))
		err = scan_dir(s, host, rel, st);
	return err;
}

static enum fp_err push_up(struct scan *s, const char *host,
			   const struct stat *st)
{
	size_t i;
	enum fp_err err;

	for (i = 0; i < s->up_count; i++)
		if (s->up[i].dev == st->st_dev && s->up[i].ino == st->st_ino)
			return fail(s, host, FP_E_LOOP, 0);
	err = fp_grow(&s->up, &s->up_cap, s->up_count, sizeof(*s->up));
	if (err)
		return err;
	s->up[s->up_count].dev = st->st_dev;
	s->up[s->up_count++].ino = st->st_ino;
	return FP_OK;
}

/*
 * The entries of directory @host (@rel in the tree), sorted by name, each
 * followed by its own tree.  @host and @rel belong to a node, whose
 * strings stay put when the node array moves.
 */
static enum fp_err scan_dir(struct scan *s, const char *host,
			    const char *rel, const struct stat *st)
{
	struct child *c = NULL;
	size_t count = 0, i;
	enum fp_err err = push_up(s, host, st);
	char *h, *r;

	if (!err)
		err = read_children(s, host, &c, &count);
	for (i = 0; !err && i < count; i++) {
		h = join(host, c[i].name);
		r = join(rel, c[i].name);
		if (!h || !r) {
			free(h);
			free(r);
			err = FP_E_NOMEM;
			break;
		}
		err = scan_node(s, h, r, &c[i].st);
	}
	free_children(c, count);
	if (!err)
		s->up_count--;
	return err;
}

enum fp_err fp_tree_scan(const char *src, const int64_t *clamp,
			 struct fp_tree **out, struct fp_tree_diag *diag)
{
	struct scan s = { .clamp = clamp, .diag = diag };
	struct stat st;
	char *host = strdup(src), *rel = strdup("");
	enum fp_err err;

	memset(diag, 0, sizeof(*diag));
	s.t = calloc(1, sizeof(*s.t));
	if (!s.t || !host || !rel) {
		free(host);
		free(rel);
		free(s.t);
		return FP_E_NOMEM;
	}
	if (stat(host, &st) < 0) {
		err = fail(&s, host, FP_E_SRC, errno);
		free(host);
		free(rel);
	} else {
		err = scan_node(&s, host, rel, &st);
	}
	free(s.up);
	if (err) {
		fp_tree_free(s.t);
		return err;
	}
	*out = s.t;
	return FP_OK;
}

size_t fp_tree_count(const struct fp_tree *tree)
{
	return tree->count;
}

const struct fp_tree_node *fp_tree_node(const struct fp_tree *tree,
					size_t i)
{
	return &tree->nodes[i];
}

void fp_tree_free(struct fp_tree *tree)
{
	size_t i;

	if (!tree)
		return;
	for (i = 0; i < tree->count; i++) {
		free(tree->nodes[i].host);
		free(tree->nodes[i].rel);
		free(tree->nodes[i].data);
	}
	free(tree->nodes);
	free(tree);
}
