/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/*
 * mirror.c - --mirror SRC ::DEST as requests: the host tree scanned and
 * indexed by volume path key, the volume directory listed once against
 * that index (fp_list, so nothing is read through damage), then the
 * removals and the copies appended to the run's requests, which plan and
 * commit as one (docs/DESIGN.md, "Mirror").
 */
#include "mirror.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dir.h"
#include "path.h"
#include "util.h"

/* What becomes of a scanned node. */
enum mstate {
	M_NEW,			/* copied: the volume lacks it */
	M_SAME,			/* left alone: the volume holds it so */
	M_REPLACE,		/* copied over the volume's file */
};

/* A scanned node's volume path key, for the lookups of the listing. */
struct mkey {
	char *key;
	uint64_t hash;		/* key_hash() of key */
};

struct mirror {
	struct fp_reqs *rq;
	const struct fp_tree *tree;
	struct mkey *keys;	/* by node */
	size_t count;		/* keys made (all nodes, once done) */
	size_t *slots;		/* hash table: node + 1, 0 empty */
	size_t mask;		/* its size - 1, a power of 2 minus 1 */
	uint8_t *state;		/* enum mstate, by node */
	const int64_t *clamp;
	int utc;
	struct fp_list *l;
	struct cmp *cmp;	/* the content compare's, made once */
	struct fp_mirror_stats *st;
	struct fp_mirror_diag *diag;
};

/* FNV-1a, 64 bits, of the string @s. */
static uint64_t key_hash(const char *s)
{
	uint64_t h = 14695981039346656037u;

	for (; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211u;
	return h;
}

/* The key of node @n's volume path: @dest, then "/" and its rel. */
static char *node_key(const char *dest, const struct fp_tree_node *n)
{
	char *path, *key;

	if (asprintf(&path, "%s/%s", dest, n->rel) < 0)
		return NULL;
	key = fp_path_key(path);
	free(path);
	return key;
}

/*
 * Every node's key, in a hash table of at least twice as many slots
 * (linear probing): a lookup costs one hash and about one compare.
 */
static enum fp_err index_tree(struct mirror *m, const char *dest)
{
	size_t i, j, n = fp_tree_count(m->tree), cap = 2;

	while (cap < 2 * n)
		cap *= 2;
	m->keys = calloc(n, sizeof(*m->keys));
	m->state = calloc(n, 1);
	m->slots = calloc(cap, sizeof(*m->slots));
	if (!m->keys || !m->state || !m->slots)
		return FP_E_NOMEM;
	m->mask = cap - 1;
	for (i = 0; i < n; i++, m->count++) {
		m->keys[i].key = node_key(dest, fp_tree_node(m->tree, i));
		if (!m->keys[i].key)
			return FP_E_NOMEM;
		m->keys[i].hash = key_hash(m->keys[i].key);
		for (j = m->keys[i].hash & m->mask; m->slots[j];
		     j = (j + 1) & m->mask)
			;
		m->slots[j] = i + 1;
	}
	return FP_OK;
}

/* The scanned node whose volume path is @path (its index), or -1. */
static enum fp_err find_node(const struct mirror *m, const char *path,
			     ptrdiff_t *node)
{
	char *key = fp_path_key(path);
	uint64_t h;
	size_t j, k;

	if (!key)
		return FP_E_NOMEM;
	h = key_hash(key);
	*node = -1;
	for (j = h & m->mask; (k = m->slots[j]) != 0; j = (j + 1) & m->mask)
		if (m->keys[k - 1].hash == h &&
		    !strcmp(m->keys[k - 1].key, key)) {
			*node = (ptrdiff_t)(k - 1);
			break;
		}
	free(key);
	return FP_OK;
}

/* Compares a file's stored bytes, piece by piece, with its host source. */
struct cmp {
	const struct fp_tree_node *n;
	int fd;
	uint64_t off;
	int differ;
	int errnum;		/* FP_E_SRC: why */
	uint8_t buf[65536];
};

static enum fp_err cmp_piece(void *ctx, const uint8_t *p, size_t len)
{
	struct cmp *c = ctx;
	size_t want;
	ssize_t r;

	if (c->n->data && !c->differ)
		c->differ = memcmp(c->n->data + c->off, p, len) != 0;
	for (; !c->n->data && !c->differ && len; len -= (size_t)r) {
		want = len < sizeof(c->buf) ? len : sizeof(c->buf);
		r = pread(c->fd, c->buf, want, (off_t)c->off);
		if (r < 0 && errno == EINTR) {
			r = 0;
			continue;
		}
		if (r < 0) {
			c->errnum = errno;
			return FP_E_SRC;
		}
		c->differ = r == 0 || memcmp(c->buf, p, (size_t)r) != 0;
		p += r;
		c->off += (uint64_t)r;
	}
	if (c->n->data)
		c->off += len;
	return FP_OK;
}

/* *@same: file entry @e holds the bytes of node @n. */
static enum fp_err same_content(struct mirror *m,
				const struct fp_list_entry *e,
				const struct fp_tree_node *n, int *same)
{
	struct cmp *c = m->cmp ? m->cmp : (m->cmp = malloc(sizeof(*c)));
	enum fp_err err = FP_OK;

	if (!c)
		return FP_E_NOMEM;
	c->n = n;
	c->fd = -1;
	c->off = 0;
	c->differ = 0;
	c->errnum = 0;
	if (!n->data && (c->fd = open(n->host, O_RDONLY | O_CLOEXEC)) < 0) {
		c->errnum = errno;
		err = FP_E_SRC;
	}
	if (!err)
		err = fp_list_map(m->l, e);
	if (!err)
		err = fp_list_read(m->l, e, cmp_piece, c);
	if (err == FP_E_SRC) {
		m->diag->tree.errnum = c->errnum;
		snprintf(m->diag->tree.path, sizeof(m->diag->tree.path), "%s",
			 n->host);
	}
	*same = !c->differ;
	if (c->fd >= 0)
		close(c->fd);
	return err;
}

/*
 * File entry @e against node @n: the same size and write time as a copy
 * would write, and, when the time was clamped (it says nothing of the
 * file), the same bytes.
 */
static enum fp_err compare_file(struct mirror *m,
				const struct fp_list_entry *e,
				const struct fp_tree_node *n, uint8_t *state)
{
	uint16_t date, time;
	uint8_t tenth;
	enum fp_err err = FP_OK;
	int same = 0;

	fp_dir_timestamp(n->mtime, m->utc, &date, &time, &tenth);
	if (e->size == n->size && e->modified.date == date &&
	    e->modified.time == time) {
		same = !m->clamp || n->mtime != *m->clamp;
		if (!same) {
			m->st->compared++;
			err = same_content(m, e, n, &same);
		}
	}
	*state = same ? M_SAME : M_REPLACE;
	m->st->same += same;
	return err;
}

static enum fp_err add_rm(struct mirror *m, const char *path)
{
	static const struct fp_req_edit rm = { FP_REQ_RM, FP_EDIT_RECURSIVE,
					       NULL, 0, 0 };

	return fp_reqs_add_edit_dup(m->rq, path, &rm);
}

/* One entry of the listing of DEST. */
static enum fp_err dest_entry(struct mirror *m, const struct fp_list_entry *e)
{
	int is_dir = (e->attr & FP_ATTR_DIR) != 0;
	const struct fp_tree_node *n;
	ptrdiff_t k;
	enum fp_err err;

	if (!e->depth && !is_dir) {
		m->diag->list.path = strdup(e->path);
		return m->diag->list.path ? FP_E_NOTDIR : FP_E_NOMEM;
	}
	err = find_node(m, e->path, &k);
	if (err)
		return err;
	n = k >= 0 ? fp_tree_node(m->tree, (size_t)k) : NULL;
	if (n && (n->kind == FP_TREE_DIR) == is_dir) {
		if (is_dir)
			m->state[k] = M_SAME;
		return is_dir ? FP_OK :
		       compare_file(m, e, n, &m->state[k]);
	}
	if (is_dir)
		fp_list_prune(m->l);	/* removed whole */
	return add_rm(m, e->path);
}

/* List DEST against the index; a DEST that does not exist: all new. */
static enum fp_err compare_dest(struct mirror *m, struct fp_fs *fs,
				const char *dest)
{
	const struct fp_list_entry *e;
	enum fp_err err;

	err = fp_list_open(fs, dest, FP_LIST_NO_RUNS, &m->l, &m->diag->list);
	if (err == FP_E_NOFILE || err == FP_E_NOENT) {
		fp_list_diag_release(&m->diag->list);
		return FP_OK;
	}
	m->state[0] = M_SAME;	/* the root node: DEST exists */
	while (!err && (err = fp_list_next(m->l, &e, &m->diag->list)) ==
	       FP_OK && e)
		err = dest_entry(m, e);
	return err;
}

/* The copies, in the tree's order: what DEST lacks or holds otherwise. */
static enum fp_err add_copies(struct mirror *m, const char *src,
			      const char *dest)
{
	enum fp_err err = FP_OK;
	size_t i;

	for (i = 0; !err && i < fp_tree_count(m->tree); i++) {
		if (m->state[i] == M_SAME)
			continue;
		err = fp_reqs_add_node(m->rq, src, dest,
				       fp_tree_node(m->tree, i));
		if (!err && m->state[i] == M_REPLACE)
			fp_reqs_add_flags(m->rq, fp_reqs_count(m->rq) - 1,
					  FP_EDIT_REPLACE);
	}
	return err;
}

enum fp_err fp_mirror_add(struct fp_reqs *rq, struct fp_fs *fs,
			  const char *src, const char *dest,
			  const int64_t *clamp, int utc,
			  struct fp_mirror_stats *st, struct fp_damage **walk,
			  struct fp_mirror_diag *diag)
{
	struct mirror m = { .rq = rq, .clamp = clamp, .utc = utc, .st = st,
			    .diag = diag };
	struct fp_tree *t;
	enum fp_err err;
	size_t i;

	memset(st, 0, sizeof(*st));
	*walk = NULL;
	err = fp_tree_scan(src, clamp, &t, &diag->tree);
	if (err)
		return err;
	diag->tree.path[0] = '\0';
	if (fp_tree_node(t, 0)->kind != FP_TREE_DIR) {
		snprintf(diag->tree.path, sizeof(diag->tree.path), "%s", src);
		fp_tree_free(t);
		return FP_E_INVAL;
	}
	err = fp_reqs_keep_tree(rq, t);
	m.tree = t;
	if (!err)
		err = index_tree(&m, dest);
	if (!err)
		err = compare_dest(&m, fs, dest);
	if (!err)
		err = add_copies(&m, src, dest);
	if (m.l)
		*walk = fp_list_give_damage(m.l);
	fp_list_free(m.l);
	free(m.cmp);
	for (i = 0; i < m.count; i++)
		free(m.keys[i].key);
	free(m.keys);
	free(m.slots);
	free(m.state);
	return err;
}
