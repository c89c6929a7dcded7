/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* diff.c - what differs between two volumes, and why (--diff). */
#include "diff.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dir.h"
#include "fat.h"
#include "le.h"
#include "path.h"
#include "sha256.h"
#include "util.h"

#define DIFF_CHUNK (1u << 20)	/* bytes compared at a time */
#define DIFF_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* ---- volume fields -------------------------------------------------- */

enum field_kind { F_UINT, F_SERIAL, F_TEXT, F_BYTES };

/* A boot sector (or FSInfo) field: @off and @len bytes, shown as @kind. */
struct field {
	const char *name;
	uint16_t off, len;
	enum field_kind kind;
};

static const struct field common_fields[] = {
	{ "jump", 0, 3, F_BYTES },
	{ "oem_name", 3, 8, F_TEXT },
	{ "bytes_per_sector", 11, 2, F_UINT },
	{ "sectors_per_cluster", 13, 1, F_UINT },
	{ "reserved_sectors", 14, 2, F_UINT },
	{ "fat_count", 16, 1, F_UINT },
	{ "root_entries", 17, 2, F_UINT },
	{ "total_sectors_16", 19, 2, F_UINT },
	{ "media", 21, 1, F_UINT },
	{ "sectors_per_fat_16", 22, 2, F_UINT },
	{ "sectors_per_track", 24, 2, F_UINT },
	{ "heads", 26, 2, F_UINT },
	{ "hidden_sectors", 28, 4, F_UINT },
	{ "total_sectors_32", 32, 4, F_UINT },
	{ "signature", 510, 2, F_UINT },
};

static const struct field fat16_fields[] = {
	{ "drive_number", 36, 1, F_UINT },
	{ "state", 37, 1, F_UINT },
	{ "boot_signature", 38, 1, F_UINT },
	{ "serial", 39, 4, F_SERIAL },
	{ "label", 43, 11, F_TEXT },
	{ "fs_type", 54, 8, F_TEXT },
	{ "boot_code", 62, 448, F_BYTES },
};

static const struct field fat32_fields[] = {
	{ "sectors_per_fat_32", 36, 4, F_UINT },
	{ "ext_flags", 40, 2, F_UINT },
	{ "fs_version", 42, 2, F_UINT },
	{ "root_cluster", 44, 4, F_UINT },
	{ "fsinfo_sector", 48, 2, F_UINT },
	{ "backup_boot_sector", 50, 2, F_UINT },
	{ "drive_number", 64, 1, F_UINT },
	{ "state", 65, 1, F_UINT },
	{ "boot_signature", 66, 1, F_UINT },
	{ "serial", 67, 4, F_SERIAL },
	{ "label", 71, 11, F_TEXT },
	{ "fs_type", 82, 8, F_TEXT },
	{ "boot_code", 90, 420, F_BYTES },
};

static const struct field fsinfo_fields[] = {
	{ "fsinfo_free_count", 488, 4, F_UINT },
	{ "fsinfo_next_free", 492, 4, F_UINT },
};

/* Field @f of @p as text into @buf (64 bytes). */
static void field_text(const struct field *f, const uint8_t *p, char *buf)
{
	uint32_t v = 0;
	size_t i, n = 0;

	switch (f->kind) {
	case F_UINT:
		for (i = f->len; i--;)
			v = v << 8 | p[f->off + i];
		snprintf(buf, 64, "%lu", (unsigned long)v);
		break;
	case F_SERIAL:
		v = fp_le32(p + f->off);
		snprintf(buf, 64, "%04X-%04X", (unsigned)(v >> 16),
			 (unsigned)(v & 0xFFFF));
		break;
	case F_TEXT:
		for (i = 0; i < f->len; i++) {
			uint8_t c = p[f->off + i];

			if (c >= 0x20 && c < 0x7F && c != '\\' && c != '"')
				buf[n++] = (char)c;
			else
				n += (size_t)snprintf(buf + n, 64 - n,
						      "\\x%02X", c);
		}
		buf[n] = '\0';
		break;
	case F_BYTES:
		snprintf(buf, 64, "%u bytes", f->len);
		break;
	}
}

static void fields_compare(const struct field *f, size_t count,
			   const uint8_t *a, const uint8_t *b,
			   const struct fp_diff_out *out,
			   struct fp_diff_result *r)
{
	char ta[64], tb[64];
	size_t i, n;

	for (i = 0; i < count; i++) {
		if (!memcmp(a + f[i].off, b + f[i].off, f[i].len))
			continue;
		field_text(&f[i], a, ta);
		field_text(&f[i], b, tb);
		if (out->field)
			out->field(out->ctx, f[i].name, ta, tb,
				   f[i].kind == F_TEXT);
		n = strlen(r->field_names);
		snprintf(r->field_names + n, sizeof(r->field_names) - n,
			 "%s%s", n ? ", " : "", f[i].name);
		r->fields++;
	}
}

/* The boot sectors' fields, and FSInfo's when both have one. */
static enum fp_err diff_fields(struct fp_fs *a, struct fp_fs *b,
			       const struct fp_diff_out *out,
			       struct fp_diff_result *r)
{
	const struct fp_geom *ga = fp_fs_geom(a), *gb = fp_fs_geom(b);
	uint8_t sa[512], sb[512];
	enum fp_err err;
	int t32 = ga->type == FP_FAT32, u32 = gb->type == FP_FAT32;

	err = fp_img_read(fp_fs_img(a), 0, sa, sizeof(sa));
	if (!err)
		err = fp_img_read(fp_fs_img(b), 0, sb, sizeof(sb));
	if (err)
		return err;
	fields_compare(common_fields, DIFF_LEN(common_fields), sa, sb, out,
		       r);
	if (t32 != u32) {
		if (out->field)
			out->field(out->ctx, "fat_type", t32 ? "32" : "12/16",
				   u32 ? "32" : "12/16", 0);
		snprintf(r->field_names + strlen(r->field_names),
			 sizeof(r->field_names) - strlen(r->field_names),
			 "%sfat_type", r->fields ? ", " : "");
		r->fields++;
		return FP_OK;
	}
	if (!t32) {
		fields_compare(fat16_fields, DIFF_LEN(fat16_fields), sa, sb,
			       out, r);
		return FP_OK;
	}
	fields_compare(fat32_fields, DIFF_LEN(fat32_fields), sa, sb, out, r);
	if (!ga->fsinfo_sec || !gb->fsinfo_sec)
		return FP_OK;
	err = fp_img_read(fp_fs_img(a), (uint64_t)ga->fsinfo_sec *
			  ga->sec_len, sa, sizeof(sa));
	if (!err)
		err = fp_img_read(fp_fs_img(b), (uint64_t)gb->fsinfo_sec *
				  gb->sec_len, sb, sizeof(sb));
	if (!err)
		fields_compare(fsinfo_fields, DIFF_LEN(fsinfo_fields), sa, sb,
			       out, r);
	return err;
}

/* ---- the trees -------------------------------------------------------- */

/* One entry of a directory, as compared. */
struct rec {
	char *name;		/* owned */
	char *key;		/* fp_path_key() of name (owned) */
	uint32_t rank;		/* its place among the directory's entries */
	uint8_t sfn[11], ntres, attr;
	uint32_t size;
	uint32_t cl;		/* first cluster */
	struct fp_list_time c, m, a;
	uint8_t digest[FP_SHA256_LEN];	/* files: content */
	uint8_t runs[FP_SHA256_LEN];	/* of the runs, for placement */
};

struct recs {
	struct rec *v;
	size_t count, cap;
};

/* A directory still to compare: its path and first cluster in each. */
struct todo {
	char *path;		/* owned */
	uint32_t cl[2];
};

/* A comparison under way. */
struct dcmp {
	struct fp_list *base[2];	/* the whole-tree checks, owned */
	int placement;
	enum fp_sha256_impl impl;
	const struct fp_diff_out *out;
	struct fp_diff_result *r;
	struct fp_list_diag *diag;
	int *which;
	struct todo *todo;	/* directories still to compare (owned) */
	size_t todo_count, todo_cap;
};

static void recs_clear(struct recs *rs)
{
	size_t i;

	for (i = 0; i < rs->count; i++) {
		free(rs->v[i].name);
		free(rs->v[i].key);
	}
	rs->count = 0;
}

static int rec_cmp(const void *x, const void *y)
{
	const struct rec *a = x, *b = y;
	int d = strcmp(a->key, b->key);

	return d ? d : strcmp(a->name, b->name);
}

/* The SHA-256 of the runs of @e, so two placements compare in 32 bytes. */
static void runs_digest(const struct fp_list_entry *e, uint8_t *d)
{
	struct fp_sha256 s;
	uint8_t b[8];
	size_t i;

	fp_sha256_init(&s, FP_SHA256_C);
	for (i = 0; i < e->run_count; i++) {
		fp_put_le32(b, e->runs[i].start);
		fp_put_le32(b + 4, e->runs[i].count);
		fp_sha256_update(&s, b, sizeof(b));
	}
	fp_sha256_final(&s, d);
}

static enum fp_err rec_add(struct dcmp *dc, struct fp_list *l,
			   const struct fp_list_entry *e, struct recs *rs)
{
	struct rec *r;
	enum fp_err err = FP_OK;

	if (fp_grow(&rs->v, &rs->cap, rs->count, sizeof(*rs->v)))
		return FP_E_NOMEM;
	r = &rs->v[rs->count];
	memset(r, 0, sizeof(*r));
	r->name = strdup(e->name);
	r->key = fp_path_key(e->name);	/* as VFAT compares names */
	if (!r->name || !r->key) {
		free(r->name);
		free(r->key);
		return FP_E_NOMEM;
	}
	r->rank = (uint32_t)rs->count;
	memcpy(r->sfn, e->sfn, sizeof(r->sfn));
	r->ntres = e->ntres;
	r->attr = e->attr;
	r->size = e->size;
	r->cl = e->first_cl;
	r->c = e->created;
	r->m = e->modified;
	r->a = e->accessed;
	runs_digest(e, r->runs);
	if (!(e->attr & FP_ATTR_DIR))
		err = fp_list_hash(l, e, dc->impl, r->digest);
	if (!err)
		rs->count++;
	else {
		free(r->name);
		free(r->key);
	}
	return err;
}

/*
 * The entries of directory @t of volume @side into @rs, sorted: opened
 * at its cluster, not walked to from the root again (that would read
 * every directory once per level above it).
 */
static enum fp_err collect(struct dcmp *dc, int side, const struct todo *t,
			   struct recs *rs)
{
	const struct fp_list_entry *e;
	struct fp_list *l = NULL;
	enum fp_err err;

	recs_clear(rs);
	err = fp_list_open_dir(dc->base[side], t->path, t->cl[side], 0, &l,
			       dc->diag);
	while (!err && (err = fp_list_next(l, &e, dc->diag)) == FP_OK && e) {
		if (e->attr & FP_ATTR_DIR)
			fp_list_prune(l);
		err = rec_add(dc, l, e, rs);
	}
	fp_list_free(l);
	if (err)
		*dc->which = side;
	else
		qsort(rs->v, rs->count, sizeof(*rs->v), rec_cmp);
	return err;
}

static int same_time(const struct fp_list_time *a, const struct fp_list_time *b)
{
	return a->date == b->date && a->time == b->time && a->tenth == b->tenth;
}

/* How @a and @b, the same name in both, differ. */
static unsigned rec_aspects(const struct rec *a, const struct rec *b)
{
	unsigned m = 0;

	if ((a->attr ^ b->attr) & FP_ATTR_DIR)
		return 1u << FP_DIFF_TYPE;
	if (strcmp(a->name, b->name))
		m |= 1u << FP_DIFF_NAME;
	if (memcmp(a->sfn, b->sfn, 11) || a->ntres != b->ntres)
		m |= 1u << FP_DIFF_ALIAS;
	if (a->attr != b->attr)
		m |= 1u << FP_DIFF_ATTR;
	if (a->size != b->size)
		m |= 1u << FP_DIFF_SIZE;
	if (memcmp(a->digest, b->digest, FP_SHA256_LEN))
		m |= 1u << FP_DIFF_CONTENT;
	if (!same_time(&a->m, &b->m))
		m |= 1u << FP_DIFF_MTIME;
	if (!same_time(&a->c, &b->c))
		m |= 1u << FP_DIFF_CTIME;
	if (!same_time(&a->a, &b->a))
		m |= 1u << FP_DIFF_ATIME;
	if (memcmp(a->runs, b->runs, FP_SHA256_LEN))
		m |= 1u << FP_DIFF_PLACEMENT;
	return m;
}

/* "@dir/@name" (the root's "" gives "/name"), malloc'd. */
static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir), k = strlen(name);
	char *p = malloc(n + k + 2);

	if (!p)
		return NULL;
	memcpy(p, dir, n);
	p[n] = '/';
	memcpy(p + n + 1, name, k + 1);
	return p;
}

/*
 * Entry @path differs by @m.  Placement counts in the totals always (a
 * summary must say why the bytes differ) but is shown only when asked.
 */
static void report(struct dcmp *dc, const char *path, unsigned m)
{
	unsigned shown = dc->placement ? m : m & ~(1u << FP_DIFF_PLACEMENT);
	int i;

	dc->r->aspects |= m;
	for (i = 0; i < FP_DIFF_ASPECT_COUNT; i++)
		if (m & (1u << i))
			dc->r->aspect_count[i]++;
	if (shown && dc->out->entry)
		dc->out->entry(dc->out->ctx, *path ? path : "/", shown);
}

/* The ranks of @b's common entries, in the order of @a's: increasing? */
static int order_kept(const struct recs *a, const struct recs *b)
{
	uint32_t *rank_b = malloc((a->count + 1) * sizeof(*rank_b));
	size_t i = 0, j = 0, n;
	int kept = 1;

	if (!rank_b)
		return 1;
	/* rank_b[rank in a] = rank in b + 1, 0 when not common */
	memset(rank_b, 0, (a->count + 1) * sizeof(*rank_b));
	while (i < a->count && j < b->count) {
		int d = strcmp(a->v[i].key, b->v[j].key);

		if (!d)
			rank_b[a->v[i].rank] = b->v[j].rank + 1;
		i += d <= 0;
		j += d >= 0;
	}
	for (i = 0, n = 0; i < a->count && kept; i++) {
		if (!rank_b[i])
			continue;
		kept = rank_b[i] > n;
		n = rank_b[i];
	}
	free(rank_b);
	return kept;
}

/* Queue directory @path (malloc'd, taken), at @cl_a and @cl_b. */
static enum fp_err todo_push(struct dcmp *dc, char *path, uint32_t cl_a,
			     uint32_t cl_b)
{
	struct todo *t;

	if (!path || fp_grow(&dc->todo, &dc->todo_cap, dc->todo_count,
			     sizeof(*dc->todo))) {
		free(path);
		return FP_E_NOMEM;
	}
	t = &dc->todo[dc->todo_count++];
	t->path = path;
	t->cl[0] = cl_a;
	t->cl[1] = cl_b;
	return FP_OK;
}

/*
 * Merge the sorted entries @a and @b of directory @dir: what one has
 * and the other has not, what differs; common directories are queued.
 */
static enum fp_err merge(struct dcmp *dc, const char *dir,
			 const struct recs *a, const struct recs *b)
{
	enum fp_err err = FP_OK;
	size_t i = 0, j = 0;
	unsigned m;
	char *p;

	while (!err && (i < a->count || j < b->count)) {
		int d = i == a->count ? 1 : j == b->count ? -1 :
			strcmp(a->v[i].key, b->v[j].key);
		const struct rec *x = d <= 0 ? &a->v[i] : &b->v[j];

		p = join(dir, x->name);
		if (!p)
			return FP_E_NOMEM;
		m = d < 0 ? 1u << FP_DIFF_REMOVED : d > 0 ?
		    1u << FP_DIFF_ADDED : rec_aspects(x, &b->v[j]);
		if (m)
			report(dc, p, m);
		if (!d && (x->attr & FP_ATTR_DIR) &&
		    !(m & (1u << FP_DIFF_TYPE))) {
			err = todo_push(dc, p, x->cl, b->v[j].cl);
			p = NULL;
		}
		free(p);
		i += d <= 0;
		j += d >= 0;
	}
	return err;
}

/* Compare directory @t (its path taken) of both volumes. */
static enum fp_err diff_dir(struct dcmp *dc, struct todo t, struct recs *a,
			    struct recs *b)
{
	char *dir = t.path;
	enum fp_err err;

	err = collect(dc, 0, &t, a);
	if (!err)
		err = collect(dc, 1, &t, b);
	if (!err && !order_kept(a, b)) {
		report(dc, dir, 1u << FP_DIFF_ORDER);
		if (!dc->r->order_dir &&
		    !(dc->r->order_dir = strdup(*dir ? dir : "/")))
			err = FP_E_NOMEM;
	}
	if (!err)
		err = merge(dc, dir, a, b);
	free(dir);
	return err;
}

/* Check each tree whole first: damage stops the comparison at once. */
static enum fp_err check_tree(struct dcmp *dc, struct fp_fs *fs, int side)
{
	const struct fp_list_entry *e;
	enum fp_err err;

	*dc->which = side;
	err = fp_list_open(fs, "/", FP_LIST_NO_RUNS, &dc->base[side],
			   dc->diag);
	while (!err && (err = fp_list_next(dc->base[side], &e, dc->diag)) ==
	       FP_OK && e)
		;
	return err;
}

static enum fp_err diff_trees(struct dcmp *dc, struct fp_fs *a,
			      struct fp_fs *b)
{
	struct recs ra = { NULL, 0, 0 }, rb = { NULL, 0, 0 };
	enum fp_err err;

	err = check_tree(dc, a, 0);
	if (!err)
		err = check_tree(dc, b, 1);
	if (!err)
		err = todo_push(dc, strdup(""), 0, 0);	/* the roots */
	while (!err && dc->todo_count)
		err = diff_dir(dc, dc->todo[--dc->todo_count], &ra, &rb);
	while (dc->todo_count)
		free(dc->todo[--dc->todo_count].path);
	recs_clear(&ra);
	recs_clear(&rb);
	free(ra.v);
	free(rb.v);
	return err;
}

/* ---- the bytes ------------------------------------------------------ */

/* The region of byte @off of volume @g, with the FATs of both. */
static enum fp_diff_region region_of(const struct fp_geom *g,
				     struct fp_fat *fa, struct fp_fat *fb,
				     uint64_t off)
{
	uint32_t cl, va = 1, vb = 1;

	if (off < g->fat_off)
		return FP_DIFF_R_RESERVED;
	if (off < g->fat_off + g->fat_len)
		return FP_DIFF_R_FAT;
	if (off < g->fat_off + g->fat_count * g->fat_len)
		return FP_DIFF_R_FAT_COPIES;
	if (off < g->data_off)
		return FP_DIFF_R_ROOT;
	if (off >= g->data_off + (uint64_t)g->cluster_count * g->clus_len)
		return FP_DIFF_R_TAIL;
	cl = (uint32_t)((off - g->data_off) / g->clus_len) + 2;
	if (fp_fat_get(fa, cl, &va) || fp_fat_get(fb, cl, &vb))
		return FP_DIFF_R_USED;
	return va || vb ? FP_DIFF_R_USED : FP_DIFF_R_FREE;
}

/*
 * Every byte of both volumes, DIFF_CHUNK at a time; a chunk that
 * differs is looked at in sectors, each counted in its region.
 */
static enum fp_err diff_bytes(struct fp_fs *a, struct fp_fs *b,
			      struct fp_diff_result *r)
{
	const struct fp_geom *g = fp_fs_geom(a);
	uint64_t len = g->vol_len, off, k;
	uint8_t *pa = malloc(DIFF_CHUNK), *pb = malloc(DIFF_CHUNK);
	enum fp_err err = pa && pb ? FP_OK : FP_E_NOMEM;
	size_t n;

	if (g->vol_len != fp_fs_geom(b)->vol_len) {
		r->regions |= 1u << FP_DIFF_R_SIZE;
		if (fp_fs_geom(b)->vol_len < len)
			len = fp_fs_geom(b)->vol_len;
	}
	for (off = 0; !err && off < len; off += n) {
		n = len - off < DIFF_CHUNK ? (size_t)(len - off) : DIFF_CHUNK;
		err = fp_img_read(fp_fs_img(a), off, pa, n);
		if (!err)
			err = fp_img_read(fp_fs_img(b), off, pb, n);
		if (err || !memcmp(pa, pb, n))
			continue;
		for (k = 0; k < n; k += g->sec_len)
			if (memcmp(pa + k, pb + k, n - k < g->sec_len ?
				   n - k : g->sec_len))
				r->regions |= 1u << region_of(g,
					fp_fs_fat(a), fp_fs_fat(b), off + k);
	}
	free(pa);
	free(pb);
	return err;
}

enum fp_err fp_diff(struct fp_fs *a, struct fp_fs *b, int placement,
		    const struct fp_diff_out *out, struct fp_diff_result *r,
		    struct fp_list_diag *diag, int *which)
{
	struct dcmp dc;
	enum fp_err err;

	memset(r, 0, sizeof(*r));
	memset(&dc, 0, sizeof(dc));
	dc.placement = placement;
	dc.impl = fp_sha256_best();
	dc.out = out;
	dc.r = r;
	dc.diag = diag;
	dc.which = which;
	*which = 0;
	err = diff_fields(a, b, out, r);
	if (!err)
		err = diff_trees(&dc, a, b);
	if (!err)
		err = diff_bytes(a, b, r);
	fp_list_free(dc.base[0]);
	fp_list_free(dc.base[1]);
	free(dc.todo);
	r->identical = !err && !r->regions && !r->fields && !r->aspects;
	return err;
}

/* ---- the answer ------------------------------------------------------ */

const char *fp_diff_aspect_name(enum fp_diff_aspect a)
{
	static const char *const names[FP_DIFF_ASPECT_COUNT] = {
		"added", "removed", "type", "content", "size", "mtime",
		"ctime", "atime", "attributes", "name", "alias", "placement",
		"order",
	};

	return a < FP_DIFF_ASPECT_COUNT ? names[a] : "?";
}

const char *fp_diff_region_name(enum fp_diff_region g)
{
	static const char *const names[FP_DIFF_REGION_COUNT] = {
		"volume size", "reserved sectors", "FAT", "FAT copies",
		"root directory", "used clusters", "free space",
		"after the last cluster",
	};

	return g < FP_DIFF_REGION_COUNT ? names[g] : "?";
}

/* What an aspect is called in the summary, with its entry count. */
static void aspect_part(const struct fp_diff_result *r, int i, char *buf,
			size_t len)
{
	static const char *const words[FP_DIFF_ASPECT_COUNT] = {
		"files added", "files removed", "file types", "content",
		"sizes", "mtimes", "creation times", "access dates",
		"attributes", "name case", "aliases", "placement",
		"entry order",
	};
	const char *word;
	uint32_t n;

	assert(i >= 0 && i < FP_DIFF_ASPECT_COUNT);
	n = r->aspect_count[i];
	word = words[i];
	if (i == FP_DIFF_ORDER && n == 1)
		snprintf(buf, len, "entry order in %s", r->order_dir);
	else if (i == FP_DIFF_ORDER)
		snprintf(buf, len, "entry order in %lu directories",
			 (unsigned long)n);
	else if (i <= FP_DIFF_REMOVED)
		snprintf(buf, len, "%lu %s %s", (unsigned long)n,
			 n == 1 ? "file" : "files", i ? "removed" : "added");
	else
		snprintf(buf, len, "%s", word);
}

/*
 * The regions that the differences found in fields and entries already
 * explain: the boot sector for a field, the FAT for what changes a
 * chain, directories and data for any entry.
 */
static unsigned explained(const struct fp_diff_result *r)
{
	unsigned m = 0, chains = (1u << FP_DIFF_ADDED) |
		(1u << FP_DIFF_REMOVED) | (1u << FP_DIFF_SIZE) |
		(1u << FP_DIFF_PLACEMENT) | (1u << FP_DIFF_TYPE);

	if (r->fields)
		m |= (1u << FP_DIFF_R_RESERVED) | (1u << FP_DIFF_R_SIZE);
	if (strstr(r->field_names, "label"))	/* the root's label entry */
		m |= (1u << FP_DIFF_R_ROOT) | (1u << FP_DIFF_R_USED);
	if (r->aspects)
		m |= (1u << FP_DIFF_R_ROOT) | (1u << FP_DIFF_R_USED);
	if (r->aspects & chains)
		m |= (1u << FP_DIFF_R_FAT) | (1u << FP_DIFF_R_FAT_COPIES) |
		     (1u << FP_DIFF_R_RESERVED);
	if (r->regions & (1u << FP_DIFF_R_FAT))
		m |= 1u << FP_DIFF_R_FAT_COPIES;
	return m;
}

void fp_diff_summary(const struct fp_diff_result *r, char *buf, size_t len)
{
	char part[FP_DIFF_ASPECT_COUNT + FP_DIFF_REGION_COUNT + 1][192];
	unsigned rest = r->regions & ~explained(r);
	size_t n = 0, i, k = 0;

	if (r->identical) {
		snprintf(buf, len, "the volumes are byte-identical");
		return;
	}
	if (r->fields == 1)
		snprintf(part[n++], sizeof(part[0]), "the volume %s",
			 r->field_names);
	else if (r->fields)
		snprintf(part[n++], sizeof(part[0]), "volume fields (%s)",
			 r->field_names);
	for (i = 0; i < FP_DIFF_ASPECT_COUNT; i++)
		if (r->aspects & (1u << i))
			aspect_part(r, (int)i, part[n++], sizeof(part[0]));
	for (i = 0; i < FP_DIFF_REGION_COUNT; i++)
		if (rest & (1u << i))
			snprintf(part[n++], sizeof(part[0]), "bytes in %s",
				 fp_diff_region_name((enum fp_diff_region)i));
	if (!n)		/* cannot be: bytes differ somewhere */
		snprintf(part[n++], sizeof(part[0]), "bytes");
	k = (size_t)snprintf(buf, len, "%s", n == 1 ? "only " : "");
	for (i = 0; i < n && k < len; i++)
		k += (size_t)snprintf(buf + k, len - k, "%s%s",
				      !i ? "" : i + 1 == n ? " and " : ", ",
				      part[i]);
}

void fp_diff_result_release(struct fp_diff_result *r)
{
	free(r->order_dir);
	r->order_dir = NULL;
}
