/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* verify.c - a read-only, fsck-style check of a FAT volume. */
#include "verify.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "dir.h"
#include "fs.h"
#include "le.h"
#include "name.h"
#include "util.h"

/* FAT entries decoded at a time by the pass over the FAT. */
#define SCAN_CHUNK 1024u
/* FAT entries entry() reads at a time and keeps. */
#define NEAR_COUNT 16u
/* Shortest run of links scan_fat keeps for the walk (16 KiB of FAT32). */
#define LINK_RUN_MIN 4096u
/*
 * Clean FAT windows kept (one 2 MiB chunk of 8): scan_fat reads the FAT
 * in order and keeps long runs for the walk, which then reads little;
 * a walk that jumps about makes fat.c keep every window anyway.
 */
#define VERIFY_CACHE_LEN (2u * 1024u * 1024u)

/* ---- state ---------------------------------------------------------- */

/*
 * A directory waiting to be read; kept so that ancestors can be found.
 * A frame holds its own name only, in vctx.names_buf: a full path per
 * frame would cost the square of the depth (4,000 levels of 255-byte
 * names: 2 GB).  Paths are made from the parents when a finding needs
 * one (frame_path()).
 */
struct frame {
	uint32_t cl;		/* first cluster, 0 for a fixed root */
	uint32_t cl_count;	/* clusters claimed for it (chain dirs) */
	size_t parent;		/* index of the parent frame (root: itself) */
	size_t name_off;	/* its name in vctx.names_buf (UTF-8) */
	size_t name_len;	/* bytes; 0 for the root */
};

/*
 * The path of a finding: @s as it is, or the entry @e (NULL: none) in
 * the directory of frame @frame, made only when a finding asks for it,
 * as most entries need none.
 */
struct epath {
	const char *s;		/* the path given, or NULL: made */
	size_t frame;
	const struct fp_dirent *e;
	char *made;		/* owned; NULL until asked */
};

/* A cluster found in two chains and the first chain that holds it. */
struct xlink {
	uint32_t cl;
	int want;		/* a kept finding names it: find its owner */
	char *owner;
};

/* Entries @cl .. @cl + @len - 1 each link to the next cluster. */
struct link_run {
	uint32_t cl;
	uint32_t len;
};

/* A name of an entry, keyed and hashed case-insensitively. */
struct nkey {
	uint64_t key;		/* fp_name_key() */
	uint64_t h;		/* fp_name_hash(), made when keys meet */
	uint32_t slot;		/* the short entry */
	uint32_t first_slot;	/* its first long-name slot */
	int is_long;
	int twin;		/* same key as its entry's short name */
};

/* The names of the directory being checked: arrays kept for the next. */
struct names {
	struct nkey *keys;
	size_t count, cap;
	uint64_t *set;		/* values_distinct()'s table */
	size_t set_cap;
};

/* A directory found damaged, by its first cluster. */
struct dmg_dir {
	uint32_t cl;
	enum fp_problem problem;
};

struct fp_damage {
	struct dmg_dir *dirs;	/* chains, sorted by cluster, then problem */
	size_t dir_count, dir_cap;
	uint32_t *shared;	/* sorted */
	size_t shared_count;
	uint32_t *free_used;	/* sorted */
	size_t free_count;
	struct fp_bitset claimed;	/* the clusters the walk reached */
};

struct vctx {
	struct fp_fs *fs;
	const struct fp_geom *g;
	struct fp_fat *fat;
	enum fp_fat_type type;	/* of the FAT, for fp_fat_kind_of() */
	uint32_t max_cl;
	uint32_t near[NEAR_COUNT];	/* entries near_cl .. + near_count - 1 */
	uint32_t near_cl, near_count;	/* as entry() read them last */
	struct fp_report *r;
	struct fp_bitset claimed;	/* clusters in a chain already */
	struct fp_bitset pointed;	/* clusters some entry links to */
	struct fp_bitset used;	/* clusters neither free nor bad */
	uint32_t used_end;	/* clusters in use all lie below it */
	struct frame *frames;
	size_t frame_count, frame_cap;
	char *names_buf;	/* the frames' names, one after the other */
	size_t names_len, names_cap;
	struct xlink *xl;	/* sorted by cluster for the owner pass */
	size_t xl_count, xl_cap;
	int owners_pass;	/* re-walk to name the first owners */
	int fat32;
	enum fp_err err;	/* first allocation or I/O failure */
	struct fp_tick tick;	/* progress: the FAT pass, then the walk */
	uint64_t walked;	/* clusters the walk has claimed */
	uint32_t run_end, cur_count;	/* the free run scan_fat is in */
	struct link_run *links;	/* scan_fat's long runs, sorted, disjoint */
	size_t link_count, link_cap;
	struct fp_damage *dmg;	/* fp_damage_find(): what it records */
	struct names names;	/* scan_entries() */
	enum fp_problem last;	/* the problem added last */
	int holes;		/* look for metadata in holes (--verify) */
	uint64_t hole_bytes, hole_count;	/* what was found there */
	uint32_t *taken;	/* clusters marked free that a chain uses */
	size_t taken_count, taken_cap;
	int root_label;		/* the root has a label entry: */
	uint8_t label[11];	/* the first one's name */
};

static void fail(struct vctx *v, enum fp_err err)
{
	if (!v->err)
		v->err = err;
}

/* Set bit @i of @b; no memory fails the check. */
static inline void bit_set(struct vctx *v, struct fp_bitset *b, uint32_t i)
{
	if (fp_bitset_set(b, i))
		fail(v, FP_E_NOMEM);
}

/* Set bits @lo .. @hi (inclusive) of @b; no memory fails the check. */
static void bits_fill(struct vctx *v, struct fp_bitset *b, uint32_t lo,
		      uint32_t hi)
{
	if (fp_bitset_fill(b, lo, hi))
		fail(v, FP_E_NOMEM);
}

/* Empty sets for every cluster number of the volume. */
static void bits_init(struct vctx *v, struct fp_bitset *b)
{
	if (fp_bitset_init(b, (uint64_t)v->max_cl + 1))
		fail(v, FP_E_NOMEM);
}

/* For fp_damage_find(): the chain that starts at @cl has problem @p. */
static void mark_dir(struct vctx *v, uint32_t cl, enum fp_problem p)
{
	struct fp_damage *d = v->dmg;

	if (!d)
		return;
	if (fp_grow(&d->dirs, &d->dir_cap, d->dir_count, sizeof(*d->dirs))) {
		fail(v, FP_E_NOMEM);
		return;
	}
	d->dirs[d->dir_count].cl = cl;
	d->dirs[d->dir_count++].problem = p;
}

/*
 * A chain uses @cl, which the FAT marks free: the allocator must not hand
 * it out (fp_damage_free_used()), so --verify does not count it free.
 */
static void mark_free_used(struct vctx *v, uint32_t cl)
{
	if (v->owners_pass)
		return;
	if (fp_grow(&v->taken, &v->taken_cap, v->taken_count,
		    sizeof(*v->taken))) {
		fail(v, FP_E_NOMEM);
		return;
	}
	v->taken[v->taken_count++] = cl;
}

/*
 * FAT entry @cl.  A read error fails the whole check (its findings are
 * dropped), and from then on every entry reads as end-of-chain, so that
 * the walks under way stop at once.  The group of NEAR_COUNT entries
 * around @cl is read at once and kept: the files of a directory often
 * start at neighbouring clusters.  A group lies in one window (windows
 * hold a multiple of NEAR_COUNT entries), the one fp_fat_get() reads.
 */
static uint32_t entry_read(struct vctx *v, uint32_t cl)
{
	uint32_t base = cl - cl % NEAR_COUNT, n;
	enum fp_err err = FP_E_INVAL;

	if (v->err)
		return fp_fat_eoc(v->fat);
	n = cl <= v->max_cl && v->max_cl - base < NEAR_COUNT ?
	    v->max_cl - base + 1 : NEAR_COUNT;
	if (cl <= v->max_cl)
		err = fp_fat_get_run(v->fat, base, n, v->near);
	if (err) {
		fail(v, err);
		return fp_fat_eoc(v->fat);
	}
	v->near_cl = base;
	v->near_count = n;
	return v->near[cl - base];
}

/* entry_read, inline where the entry is among those kept. */
static inline uint32_t entry(struct vctx *v, uint32_t cl)
{
	if (cl - v->near_cl < v->near_count && !v->err)
		return v->near[cl - v->near_cl];
	return entry_read(v, cl);
}

/* What FAT entry value @val is, without a call. */
static enum fp_fat_kind kind(const struct vctx *v, uint32_t val)
{
	return fp_fat_kind_of(v->type, v->max_cl, val);
}

static char *frame_path(const struct vctx *v, size_t f,
			const struct fp_dirent *e);

/* The path @p stands for, made now if need be; NULL without memory. */
static const char *epath_str(struct vctx *v, struct epath *p)
{
	if (p->s)
		return p->s;
	if (!p->made && !(p->made = frame_path(v, p->frame, p->e)))
		fail(v, FP_E_NOMEM);
	return p->made;
}

/*
 * Record a finding at the path @ep stands for; past FP_VERIFY_CAP of one
 * problem only count it.
 */
static struct fp_finding *add_at(struct vctx *v, enum fp_problem p,
				 struct epath *ep, uint32_t cl, uint64_t a,
				 uint64_t b)
{
	struct fp_finding *f;
	const char *path;
	enum fp_err err;

	v->last = p;
	/* the writers' walk (v->dmg) keeps no findings */
	if (v->owners_pass || !fp_report_count(v->r, p) || v->dmg)
		return NULL;
	path = epath_str(v, ep);
	if (!path)
		return NULL;
	err = fp_report_add(v->r, p, path, cl, a, b, &f);
	if (err)
		fail(v, err);
	return f;
}

/* Record a finding at @path. */
static struct fp_finding *add(struct vctx *v, enum fp_problem p,
			      const char *path, uint32_t cl, uint64_t a,
			      uint64_t b)
{
	struct epath ep = { path, 0, NULL, NULL };

	return add_at(v, p, &ep, cl, a, b);
}

/* Record a finding at the directory of frame @f ("/" for the root). */
static void add_dir(struct vctx *v, enum fp_problem p, size_t f,
		    uint32_t cl, uint64_t a, uint64_t b)
{
	struct epath ep = { NULL, f, NULL, NULL };

	add_at(v, p, &ep, cl, a, b);
	free(ep.made);
}

/*
 * Problem @p of the directory of frame @f as a whole: a finding at its
 * path ("/" for the root), and the directory damaged for the writers.
 */
static void dir_problem(struct vctx *v, size_t f, enum fp_problem p,
			uint64_t a, uint64_t b)
{
	add_dir(v, p, f, 0, a, b);
	mark_dir(v, v->frames[f].cl, p);
}

/* ---- boot sector and FAT -------------------------------------------- */

/* The FAT32 BPB with the extended fields: BPB_BytsPerSec .. BS_FilSysType. */
#define BOOT_BPB_FROM 11
#define BOOT_BPB_TO 90
/* BPB_HiddSec: the sectors before the volume, le32. */
#define BOOT_HIDDEN 28
#define BOOT_HIDDEN_LEN 4

/* What a differing byte of the backup boot sector is. */
enum boot_byte {
	BOOT_CODE,	/* jump, OEM name, boot code: boot-backup-code */
	BOOT_HIDDEN_SEC,	/* BPB_HiddSec: boot-backup-hidden */
	BOOT_BPB,	/* the rest of the BPB, the signature: boot-backup */
};

static enum boot_byte boot_byte_kind(uint32_t i)
{
	if (i >= BOOT_HIDDEN && i < BOOT_HIDDEN + BOOT_HIDDEN_LEN)
		return BOOT_HIDDEN_SEC;
	if ((i >= BOOT_BPB_FROM && i < BOOT_BPB_TO) ||
	    i == FP_BOOT_SIG_OFF || i == FP_BOOT_SIG_OFF + 1)
		return BOOT_BPB;
	return BOOT_CODE;
}

/*
 * Boot loaders (syslinux --install) rewrite the jump, OEM name and boot
 * code of sector 0 but not of the backup; fsck.fat calls that "mostly
 * harmless".  Partitioning tools that move a partition rewrite the
 * hidden-sector count of sector 0 only: no FAT reader uses it to find
 * the volume (FreeBSD's fsck_msdosfs test expects such a volume clean).
 * Only the other BPB bytes and the signature describe the volume, so
 * only they make an error; any other difference is a warning.
 */
static void check_backup(struct vctx *v)
{
	const struct fp_geom *g = v->g;
	uint8_t *a = malloc(g->sec_len), *b = malloc(g->sec_len);
	uint32_t i, first[3] = { 0, 0, 0 };

	if (!a || !b) {
		fail(v, FP_E_NOMEM);
		goto out;
	}
	if (fp_img_read(v->fs->img, 0, a, g->sec_len) ||
	    fp_img_read(v->fs->img, (uint64_t)g->backup_sec * g->sec_len, b,
			g->sec_len)) {
		fail(v, FP_E_IO);
		goto out;
	}
	for (i = g->sec_len; i-- > 0;)
		if (a[i] != b[i])
			first[boot_byte_kind(i)] = i + 1;
	if (first[BOOT_BPB])
		add(v, FP_P_BOOT_BACKUP, "", 0, g->backup_sec,
		    first[BOOT_BPB] - 1);
	if (first[BOOT_HIDDEN_SEC])
		add(v, FP_P_BOOT_BACKUP_HIDDEN, "", 0, g->backup_sec,
		    fp_le32(b + BOOT_HIDDEN));
	if (first[BOOT_CODE])
		add(v, FP_P_BOOT_BACKUP_CODE, "", 0, g->backup_sec,
		    first[BOOT_CODE] - 1);
out:
	free(a);
	free(b);
}

static void check_boot(struct vctx *v)
{
	const struct fp_geom *g = v->g;
	const struct fp_fsinfo *fi = &v->fs->fsinfo;

	if (g->type != FP_FAT32)
		return;
	if (g->cluster_count < FP_FAT32_MIN_CLUSTERS)
		add(v, FP_P_FAT_TYPE, "", 0, g->cluster_count, 0);
	if (g->backup_sec)
		check_backup(v);
	if (g->fsinfo_sec && !fi->valid)
		add(v, FP_P_FSINFO_SIG, "", 0, g->fsinfo_sec, 0);
	if (fi->trusted && fi->next_free != FP_FSINFO_UNKNOWN &&
	    (fi->next_free < 2 || fi->next_free > fp_geom_max_cl(g)))
		add(v, FP_P_FSINFO_NEXT, "", 0, fi->next_free, 0);
}

/* Entry 0 holds the media byte, entry 1 end-of-chain plus state bits. */
static void check_fat_head(struct vctx *v)
{
	uint32_t mask = fp_fat_eoc(v->fat), e0, e1, clean, ioerr;
	uint32_t want0 = (mask & ~0xFFu) | v->g->media;

	e0 = entry(v, 0);
	e1 = entry(v, 1);
	if (e0 != want0)
		add(v, FP_P_FAT_MEDIA, "", 0, e0, want0);
	if (v->g->type == FP_FAT32) {
		clean = FP_FAT32_CLEAN;
		ioerr = FP_FAT32_NO_IOERR;
	} else if (v->g->type == FP_FAT16) {
		clean = FP_FAT16_CLEAN;
		ioerr = FP_FAT16_NO_IOERR;
	} else {
		clean = ioerr = 0;
	}
	if (kind(v, e1 | clean | ioerr) != FP_FK_EOC)
		add(v, FP_P_FAT_ENTRY1, "", 0, e1, 0);
	if ((v->g->state & FP_STATE_DIRTY) || (clean && !(e1 & clean)))
		add(v, FP_P_DIRTY, "", 0, 0, 0);
	if (ioerr && !(e1 & ioerr))
		add(v, FP_P_IO_ERROR, "", 0, 0, 0);
}

/*
 * Progress is counted in clusters: the FAT pass is the first half, one
 * unit per cluster; the directory walk the second, scaled from the share
 * of the used clusters it has claimed.  So the total is known before the
 * FAT is read, and the walk ends below 100%, which only the end reports.
 */
static void walk_tick(struct vctx *v, uint32_t n)
{
	uint64_t half = v->tick.total / 2, used = v->r->used;

	v->walked += n;
	if (v->owners_pass || !used)
		return;
	fp_tick(&v->tick, half + (v->walked < used ?
				  half * v->walked / used : half - 1));
}

/* The same, in line: without a progress callback (the usual) nothing. */
static inline void walk_progress(struct vctx *v, uint32_t n)
{
	if (v->tick.prog)
		walk_tick(v, n);
}

/*
 * Free clusters @cl .. @cl + @n - 1 extend the current run or start one;
 * entries come in increasing order, so a gap means clusters in between
 * were not free.
 */
static void free_span(struct vctx *v, uint32_t cl, uint32_t n)
{
	if (v->cur_count && v->run_end + 1 == cl)
		v->cur_count += n;
	else
		v->cur_count = n;
	v->run_end = cl + n - 1;
	v->r->free_cl += n;
	if (v->cur_count > v->r->run_count) {
		v->r->run_count = v->cur_count;
		v->r->run_start = v->run_end - v->cur_count + 1;
	}
}

/*
 * How many of the @n entries from @cl (a multiple of 64) are free, in
 * whole groups of 64 from the first: the free part of a FAT, the bulk of
 * a young volume, is counted without decoding an entry.
 */
static uint32_t free_groups(struct vctx *v, uint32_t cl, uint32_t n)
{
	uint32_t g = 0;
	enum fp_err err;

	if (cl % 64 || n < 64)
		return 0;
	err = fp_fat_free_groups(v->fat, cl, n / 64, &g);
	if (err)
		fail(v, err);
	return err ? 0 : g * 64;
}

/* Entry @cl, whose value is @val, in the counts and bitmaps. */
static void scan_entry(struct vctx *v, uint32_t cl, uint32_t val)
{
	switch (kind(v, val)) {
	case FP_FK_FREE:
		free_span(v, cl, 1);
		return;
	case FP_FK_BAD:
		v->r->bad++;
		return;
	case FP_FK_NEXT:
		bit_set(v, &v->pointed, val);
		break;
	case FP_FK_EOC:
		break;
	default:
		add(v, FP_P_FAT_BAD_ENTRY, "", cl, val, 0);
		break;
	}
	bit_set(v, &v->used, cl);
	v->used_end = cl + 1;	/* scan_fat goes up */
	v->r->used++;
}

/*
 * Links @cl .. @cl + @n - 1 found by scan_fat: kept (joined to the run
 * before when they continue it) if the run grows to LINK_RUN_MIN, so that
 * the walk claims it without reading the FAT again.  The table holds at
 * most one run per LINK_RUN_MIN clusters.
 */
static void note_links(struct vctx *v, uint32_t cl, uint32_t n)
{
	struct link_run *last = v->link_count ?
				&v->links[v->link_count - 1] : NULL;

	if (last && last->cl + last->len == cl) {
		last->len += n;
		return;
	}
	if (last && last->len < LINK_RUN_MIN)
		v->link_count--;	/* too short to keep: replace it */
	if (fp_grow(&v->links, &v->link_cap, v->link_count,
		    sizeof(*v->links))) {
		fail(v, FP_E_NOMEM);
		return;
	}
	v->links[v->link_count].cl = cl;
	v->links[v->link_count++].len = n;
}

/* How many entries from @cl on link to the next, by scan_fat's runs. */
static uint32_t links_from(const struct vctx *v, uint32_t cl)
{
	size_t lo = 0, hi = v->link_count, mid;

	while (lo < hi) {	/* the first run that starts above @cl */
		mid = lo + (hi - lo) / 2;
		if (v->links[mid].cl <= cl)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || cl - v->links[lo - 1].cl >= v->links[lo - 1].len)
		return 0;
	return v->links[lo - 1].len - (cl - v->links[lo - 1].cl);
}

/*
 * One pass over the FAT: counts, bad values, and who is linked to.  Runs
 * of consecutive links, the bulk of a FAT, are taken a run at a time.
 */
static void scan_fat(struct vctx *v)
{
	uint32_t cl = 2, n, i, max = fp_geom_max_cl(v->g), vals[SCAN_CHUNK];
	uint32_t step = v->g->cluster_count / 1024;	/* even progress */
	enum fp_err err = FP_OK;

	if (step < 16)
		step = 16;
	while (cl <= max && !err && !v->err) {
		fp_tick(&v->tick, cl - 1);
		n = max - cl + 1 < step ? max - cl + 1 : step;
		err = fp_fat_seq(v->fat, cl, n, &n);
		if (!err && n) {
			bits_fill(v, &v->used, cl, cl + n - 1);
			v->used_end = cl + n;
			bits_fill(v, &v->pointed, cl + 1, cl + n);
			v->r->used += n;
			note_links(v, cl, n);
			cl += n;
			continue;
		}
		n = max - cl + 1 < SCAN_CHUNK ? max - cl + 1 : SCAN_CHUNK;
		n = n < step ? n : step;
		if (!err && (i = free_groups(v, cl, n)) != 0) {
			free_span(v, cl, i);
			cl += i;
			continue;
		}
		if (n > 64 && (cl + n) % 64)	/* end on a group */
			n -= (cl + n) % 64;
		if (!err)
			err = fp_fat_get_run(v->fat, cl, n, vals);
		for (i = 0; !err && i < n; i++)
			scan_entry(v, cl + i, vals[i]);
		cl += n;
	}
	if (v->link_count && v->links[v->link_count - 1].len < LINK_RUN_MIN)
		v->link_count--;
	if (err)
		fail(v, err);
}

/*
 * The mirrored copies, compared window by window while scan_fat read:
 * fat-mismatch-lost for a copy that differs only as an interrupted
 * commit leaves it (fp_damage_copy_lost()), else fat-mismatch.  The walk
 * of the active copy that tells is made only when a copy differs.
 */
static void report_copies(struct vctx *v)
{
	struct fp_damage *da = NULL;
	struct fp_fat_diff d;
	enum fp_err err = FP_OK;
	uint32_t copy;
	int lost = 0;

	for (copy = 0; !err && copy < v->g->fat_count; copy++) {
		d = fp_fat_copy_diff(v->fat, copy);
		if (!d.count)
			continue;
		if (!da)
			err = fp_damage_find(v->fs, &da);
		if (!err)
			err = fp_damage_copy_lost(v->fs, da, copy, &lost);
		if (!err)
			add(v, lost ? FP_P_FAT_MISMATCH_LOST :
			    FP_P_FAT_MISMATCH, "", d.first_cl, copy + 1,
			    d.count);
	}
	fp_damage_free(da);
	if (err)
		fail(v, err);
}

/* ---- chains --------------------------------------------------------- */

/* 1 if @cl is among the first @n clusters of the chain from @start. */
static int in_chain(struct vctx *v, uint32_t start, uint32_t n,
		    uint32_t cl)
{
	while (n--) {
		if (start == cl)
			return 1;
		start = entry(v, start);
	}
	return 0;
}

static int xl_cmp(const void *a, const void *b)
{
	const struct xlink *x = a, *y = b;

	return (x->cl > y->cl) - (x->cl < y->cl);
}

static struct xlink *xl_find(struct vctx *v, uint32_t cl)
{
	struct xlink key = { .cl = cl };

	if (!v->xl_count)
		return NULL;
	return bsearch(&key, v->xl, v->xl_count, sizeof(*v->xl), xl_cmp);
}

static void cross_link(struct vctx *v, struct epath *path, uint32_t cl)
{
	if (v->owners_pass)
		return;
	if (fp_grow(&v->xl, &v->xl_cap, v->xl_count, sizeof(*v->xl))) {
		fail(v, FP_E_NOMEM);
		return;
	}
	v->xl[v->xl_count].cl = cl;
	v->xl[v->xl_count].want = 0;
	v->xl[v->xl_count++].owner = NULL;
	add_at(v, FP_P_CROSS_LINK, path, cl, 0, 0);
}

/* In the owner pass: remember the first chain that holds each cluster. */
static void note_owner(struct vctx *v, struct epath *path, uint32_t cl)
{
	struct xlink *x;
	const char *s;

	if (!v->owners_pass || !(x = xl_find(v, cl)) || !x->want ||
	    x->owner)
		return;
	s = epath_str(v, path);
	if (s && fp_report_path_budget(v->r, strlen(s)) &&
	    !(x->owner = strdup(s)))
		fail(v, FP_E_NOMEM);
}

/*
 * Claim, in one step, the run of consecutive clusters that starts at the
 * unclaimed @cl, up to the first claimed cluster it links to (where the
 * walk then finds the loop or cross-link, as cluster by cluster); returns
 * the clusters claimed (0: take the slow path).  The run comes from
 * scan_fat's table, else from the FAT.  Not in the owner pass, which
 * looks at each cluster.
 */
static uint32_t claim_run(struct vctx *v, uint32_t cl)
{
	uint64_t first;
	uint32_t run;
	enum fp_err err;

	if (v->owners_pass || v->err)
		return 0;
	run = links_from(v, cl);
	err = run ? FP_OK : fp_fat_seq(v->fat, cl, UINT32_MAX, &run);
	if (err) {
		fail(v, err);
		return 0;
	}
	if (run == 0)
		return 0;
	first = fp_bitset_first(&v->claimed, cl + 1, cl + run);
	if (first < (uint64_t)cl + run)
		run = (uint32_t)(first - cl);
	bits_fill(v, &v->claimed, cl, cl + run - 1);
	return run;
}

/*
 * The chain from @start (a cluster number if @in_range), whose entry is
 * of kind @k, for walk_chain: a bad start, or the loop that walks and
 * claims.
 */
static uint32_t walk_links(struct vctx *v, struct epath *path,
			   uint32_t start, int in_range, enum fp_fat_kind k,
			   int *ok)
{
	uint32_t cl = start, n = 0, val, run;

	*ok = 0;
	if (!in_range || k == FP_FK_FREE || k == FP_FK_BAD) {
		if (k == FP_FK_FREE)
			mark_free_used(v, start);
		add_at(v, FP_P_BAD_START, path, start, 0, 0);
		return 0;
	}
	for (;;) {
		if (fp_bitset_test(&v->claimed, cl)) {
			if (in_chain(v, start, n, cl))
				add_at(v, FP_P_CHAIN_LOOP, path, cl, n, 0);
			else
				cross_link(v, path, cl);
			return n;
		}
		run = claim_run(v, cl);
		n += run;
		cl += run;
		if (run)
			continue;
		bit_set(v, &v->claimed, cl);
		note_owner(v, path, cl);
		n++;
		val = entry(v, cl);
		k = kind(v, val);
		if (k == FP_FK_EOC) {
			*ok = 1;
			return n;
		}
		if (k == FP_FK_FREE)
			mark_free_used(v, cl);
		if (k != FP_FK_NEXT) {
			add_at(v, k == FP_FK_BAD ? FP_P_CHAIN_BAD :
			       k == FP_FK_FREE ? FP_P_CHAIN_FREE :
			       FP_P_CHAIN_RANGE, path, cl, val, 0);
			return n;
		}
		cl = val;
	}
}

/*
 * Walk and claim the chain from @start for @path.  Returns its length, 0
 * for an unusable start; *ok says whether it ended properly.  A chain of
 * one cluster, a small file, is claimed here without a call: what
 * walk_links finds, without its run search and a second read of the
 * entry (not in the owner pass, which notes each cluster's owner).
 */
static inline uint32_t walk_chain(struct vctx *v, struct epath *path,
				  uint32_t start, int *ok)
{
	int in_range = start >= 2 && start <= v->max_cl;
	enum fp_fat_kind k = in_range ? kind(v, entry(v, start)) :
				 FP_FK_INVALID;

	if (k == FP_FK_EOC && !v->owners_pass &&
	    !fp_bitset_test(&v->claimed, start)) {
		bit_set(v, &v->claimed, start);
		*ok = 1;
		return 1;
	}
	return walk_links(v, path, start, in_range, k, ok);
}

static void check_file(struct vctx *v, struct epath *path,
		       const struct fp_dirent *e)
{
	uint64_t clus = v->g->clus_len;
	/* clus_len is a power of two: a shift, not a division an entry */
	uint64_t want = (e->size + clus - 1) >> __builtin_ctz(clus);
	uint32_t n = 0;
	int ok = 1;

	if (!v->owners_pass)
		v->r->files++;
	v->last = FP_P_COUNT;
	if (e->cl)
		n = walk_chain(v, path, e->cl, &ok);
	walk_progress(v, n);
	if (!ok) {
		mark_dir(v, e->cl, v->last);
		return;
	}
	if (n < want) {
		add_at(v, FP_P_CHAIN_SHORT, path, e->cl, n, want);
		if (e->cl)	/* 0 is no chain, and the FAT12/16 root's key */
			mark_dir(v, e->cl, FP_P_CHAIN_SHORT);
	}
	else if (n > want)
		add_at(v, FP_P_TAIL, path, e->cl, n, want);
}

/* ---- directories ---------------------------------------------------- */

/* The name of entry @e in UTF-8 into @name (3 * FP_LFN_MAX + 1 bytes). */
static size_t entry_name(const struct fp_dirent *e, char *name)
{
	uint16_t sname[12];
	size_t n;

	if (e->lfn_count)
		return fp_name_to_utf8(e->lfn, e->lfn_count, name,
				       3 * FP_LFN_MAX + 1);
	n = fp_name_sfn_decode(e->sfn, e->ntres, sname);
	return fp_name_to_utf8(sname, n, name, 3 * FP_LFN_MAX + 1);
}

/*
 * "/a/b/name": the path of entry @e (NULL: of the directory itself, "/"
 * for the root) in the directory of frame @f, malloc'd; NULL without
 * memory.  One pass up the parents to measure, one to fill from the end:
 * linear in the depth.
 */
static char *frame_path(const struct vctx *v, size_t f,
			const struct fp_dirent *e)
{
	char name[3 * FP_LFN_MAX + 1];
	size_t len = 0, nlen = 0, i;
	const struct frame *fr;
	char *p;

	if (e)
		len = 1 + (nlen = entry_name(e, name));
	for (i = f; i != 0; i = v->frames[i].parent)
		len += 1 + v->frames[i].name_len;
	if (len == 0)
		return strdup("/");
	p = malloc(len + 1);
	if (!p)
		return NULL;
	p[len] = '\0';
	if (e) {
		len -= nlen;
		memcpy(p + len, name, nlen);
		p[--len] = '/';
	}
	for (i = f; i != 0; i = fr->parent) {
		fr = &v->frames[i];
		len -= fr->name_len;
		memcpy(p + len, v->names_buf + fr->name_off, fr->name_len);
		p[--len] = '/';
	}
	assert(len == 0);
	return p;
}

/* Room for @n more bytes in v->names_buf; 0, or -1 without memory. */
static int names_room(struct vctx *v, size_t n)
{
	size_t cap = v->names_cap ? v->names_cap : 4096;
	char *p;

	if (n <= v->names_cap - v->names_len)
		return 0;
	while (cap - v->names_len < n) {
		if (cap > SIZE_MAX / 2)
			return -1;
		cap *= 2;
	}
	p = realloc(v->names_buf, cap);
	if (!p)
		return -1;
	v->names_buf = p;
	v->names_cap = cap;
	return 0;
}

/* A frame for the directory @cl (@e: its entry; NULL for the root). */
static int push_frame(struct vctx *v, uint32_t cl, uint32_t cl_count,
		      size_t parent, const struct fp_dirent *e)
{
	char name[3 * FP_LFN_MAX + 1];
	size_t nlen = e ? entry_name(e, name) : 0;
	struct frame *fr;

	if (fp_grow(&v->frames, &v->frame_cap, v->frame_count,
		    sizeof(*v->frames)) || names_room(v, nlen)) {
		fail(v, FP_E_NOMEM);
		return -1;
	}
	fr = &v->frames[v->frame_count++];
	fr->cl = cl;
	fr->cl_count = cl_count;
	fr->parent = parent;
	fr->name_off = v->names_len;
	fr->name_len = nlen;
	if (nlen)
		memcpy(v->names_buf + v->names_len, name, nlen);
	v->names_len += nlen;
	return 0;
}

/* 1 if @cl starts directory @f or one of its ancestors. */
static int is_ancestor(const struct vctx *v, size_t f, uint32_t cl)
{
	for (;;) {
		if (v->frames[f].cl == cl)
			return 1;
		if (v->frames[f].parent == f)
			return 0;
		f = v->frames[f].parent;
	}
}

static void check_subdir(struct vctx *v, size_t f, struct epath *path,
			 const struct fp_dirent *e)
{
	uint32_t n;
	int ok;

	if (!v->owners_pass)
		v->r->dirs++;
	if (e->size) {
		add_at(v, FP_P_DIR_SIZE, path, e->cl, e->size, 0);
		if (e->cl)	/* 0 is no chain, and the FAT12/16 root's key */
			mark_dir(v, e->cl, FP_P_DIR_SIZE);
	}
	if (e->cl == 0) {
		add_at(v, FP_P_DIR_NO_CHAIN, path, 0, 0, 0);
		return;
	}
	if (e->cl <= v->max_cl && fp_bitset_test(&v->claimed, e->cl) &&
	    is_ancestor(v, f, e->cl)) {
		add_at(v, FP_P_DIR_CYCLE, path, e->cl, 0, 0);
		return;
	}
	/*
	 * Claim the chain now, in entry order, so that a directory keeps its
	 * clusters against a file listed after it (as fsck.fat decides).
	 */
	v->last = FP_P_COUNT;
	n = walk_chain(v, path, e->cl, &ok);
	walk_progress(v, n);
	if (!ok)
		mark_dir(v, e->cl, v->last);
	if (n == 0)
		return;
	push_frame(v, e->cl, n, f, e);
}

/* Per-directory state of the entry checks. */
struct dstate {
	size_t frame;
	int is_root;
	int labels;
	int dot, dotdot;	/* seen and right */
	uint32_t root_dots;	/* dot entries seen in the root */
	uint32_t bad_lfn;	/* entries whose long name readers refuse */
	uint32_t bad_slot;	/* the first of them */
	uint32_t parent_cl;	/* what ".." must hold */
};

static void check_dot(struct vctx *v, struct dstate *ds,
		      const struct fp_dirent *e)
{
	uint32_t own = v->frames[ds->frame].cl;

	if (fp_dir_dots(e->sfn) == 1)
		ds->dot = e->slot == 0 && e->cl == own &&
			  (e->attr & FP_ATTR_DIR);
	else
		ds->dotdot = e->slot == 1 && e->cl == ds->parent_cl &&
			     (e->attr & FP_ATTR_DIR);
}

/* Check entry @e; 1 if it names a file or directory (no label, no dot). */
static int check_entry(struct vctx *v, struct dstate *ds,
		       const struct fp_dirent *e)
{
	struct epath path = { NULL, ds->frame, e, NULL };

	if (e->lfn_bad && !ds->bad_lfn++)
		ds->bad_slot = e->slot;
	if (fp_dir_is_label(e->attr)) {	/* what the lookup skips */
		if (!ds->is_root || ++ds->labels > 1) {
			dir_problem(v, ds->frame, FP_P_LABEL, 0, 0);
		} else if (!(e->attr & FP_ATTR_DIR) && !v->root_label) {
			v->root_label = 1;	/* for check_label */
			memcpy(v->label, e->sfn, sizeof(v->label));
		}
		return 0;
	}
	if (fp_dir_dots(e->sfn)) {
		if (!ds->is_root)
			check_dot(v, ds, e);
		else
			ds->root_dots++;
		return 0;
	}
	if (fp_name_sfn_bad(e->sfn))
		add_at(v, FP_P_BAD_NAME, &path, 0, 0, 0);
	if (e->attr & FP_ATTR_DIR)
		check_subdir(v, ds->frame, &path, e);
	else
		check_file(v, &path, e);
	free(path.made);
	return 1;
}

/* ---- duplicate names ------------------------------------------------ */

/* The short or long name of the entry a key stands for. */
static size_t key_name(const struct fp_dir *d, const struct nkey *k,
		       uint16_t *u)
{
	const uint8_t *ent = fp_dir_ent(d, k->slot);
	uint32_t s;
	size_t n = 0, max = 0;
	unsigned ord;

	if (!k->is_long)
		return fp_name_sfn_decode(ent, ent[DIR_NTRES], u);
	for (s = k->first_slot; s < k->slot; s++) {
		ord = fp_dir_ent(d, s)[FP_LFN_ORD] & FP_LFN_ORD_MASK;
		fp_name_lfn_decode(fp_dir_ent(d, s),
				   u + (ord - 1) * FP_LFN_CHARS);
		if (ord * FP_LFN_CHARS > max)
			max = ord * FP_LFN_CHARS;
	}
	while (n < max && n < FP_LFN_MAX && u[n])
		n++;
	return n;
}

static inline struct nkey *add_key(struct vctx *v, struct names *nm,
				   const struct fp_dirent *e, int is_long)
{
	struct nkey *k;

	if (nm->count == nm->cap &&	/* fp_grow() is a call */
	    fp_grow(&nm->keys, &nm->cap, nm->count, sizeof(*nm->keys))) {
		fail(v, FP_E_NOMEM);
		return NULL;
	}
	k = &nm->keys[nm->count++];
	k->slot = e->slot;
	k->first_slot = e->first_slot;
	k->is_long = is_long;
	k->twin = 0;
	k->key = is_long ? fp_name_key(e->lfn, e->lfn_count) :
			   fp_name_sfn_key(e->sfn);
	return k;
}

/* The short name of @e, and its long name if it has one. */
static void add_keys(struct vctx *v, struct names *nm,
		     const struct fp_dirent *e)
{
	struct nkey *s = add_key(v, nm, e, 0), *l;

	if (s && e->lfn_count && (l = add_key(v, nm, e, 1)))
		l->twin = l->key == nm->keys[nm->count - 2].key;
}

/* Hash every name, when some share a key. */
static void hash_names(const struct fp_dir *d, struct names *nm)
{
	uint16_t u[FP_LFN_MAX + FP_LFN_CHARS];
	size_t i;

	for (i = 0; i < nm->count; i++)
		nm->keys[i].h = fp_name_hash(u, key_name(d, &nm->keys[i], u));
}

static int key_cmp(const void *a, const void *b)
{
	const struct nkey *x = a, *y = b;

	if (x->h != y->h)
		return (x->h > y->h) - (x->h < y->h);
	return (x->slot > y->slot) - (x->slot < y->slot);
}

static char *key_path(const struct vctx *v, const struct fp_dir *d,
		      size_t f, const struct nkey *k)
{
	struct fp_dir_iter it = { k->first_slot, 0 };
	struct fp_dirent e;

	if (!fp_dir_next(d, v->fat32, &it, &e))
		return NULL;
	return frame_path(v, f, &e);
}

/* Names @a and @b of the directory @d of frame @f are the same. */
static void report_dup(struct vctx *v, const struct fp_dir *d, size_t f,
		       const struct nkey *a, const struct nkey *b)
{
	char *pa = NULL, *pb = NULL;
	struct fp_finding *fd;

	if (v->dmg || v->owners_pass ||
	    v->r->per_problem[FP_P_DUP_NAME] >= FP_VERIFY_CAP) {
		add(v, FP_P_DUP_NAME, "", 0, 0, 0);	/* only counted */
		return;
	}
	pa = key_path(v, d, f, a);
	pb = key_path(v, d, f, b);
	if (!pa || !pb) {
		fail(v, FP_E_NOMEM);
	} else if (!fp_report_path_budget(v->r, strlen(pa))) {
		if (fp_report_count(v->r, FP_P_DUP_NAME))
			v->r->dropped[FP_P_DUP_NAME]++;
	} else {
		fd = add(v, FP_P_DUP_NAME, pb, 0, 0, 0);
		if (fd) {
			fd->other = pa;
			pa = NULL;
		} else {	/* not kept: nor is its other path */
			v->r->path_bytes -= strlen(pa) + 1;
		}
	}
	free(pa);
	free(pb);
}

/*
 * 1 if no two names have the same key (@fnv 0) or hash (@fnv 1), by an
 * open-addressed set of the values (0 on doubt: a value of 0 or 1, both
 * stored as 1, or no memory); most directories need then neither the
 * hashes nor the sort nor a name compared.
 */
static int values_distinct(struct names *nm, int fnv)
{
	size_t cap = 16, i, j;
	uint64_t *set, h;
	int ok = 1;

	while (cap < 2 * nm->count)
		cap *= 2;
	if (cap > nm->set_cap) {
		free(nm->set);
		nm->set_cap = 0;
		if (!(nm->set = malloc(cap * sizeof(*set))))
			return 0;
		nm->set_cap = cap;
	}
	set = nm->set;
	memset(set, 0, cap * sizeof(*set));
	for (i = 0; i < nm->count && ok; i++) {
		if (!fnv && nm->keys[i].twin)
			continue;	/* no second name to compare */
		h = fnv ? nm->keys[i].h : nm->keys[i].key;
		h = h > 1 ? h : 1;
		for (j = (size_t)h & (cap - 1); set[j] && ok;
		     j = (j + 1) & (cap - 1))
			ok = set[j] != h;
		set[j] = h;
	}
	return ok;
}

/*
 * Names that hash alike are compared for real: hashes are not trusted.
 * First the cheap keys: equal names have equal keys, so distinct keys
 * (a long name keyed as its own short name does not count) prove that
 * the directory has no duplicate.  Otherwise every name is hashed and
 * the hashes sorted, so that duplicates are found, and reported, in
 * the order of their hashes.  Returns 1 if a duplicate was found.
 */
static int check_dups(struct vctx *v, const struct fp_dir *d, size_t f,
		      struct names *nm)
{
	uint16_t ua[FP_LFN_MAX + FP_LFN_CHARS], ub[FP_LFN_MAX + FP_LFN_CHARS];
	size_t i, j, na, nb;
	int found = 0;

	if (nm->count < 2 || values_distinct(nm, 0))
		return 0;
	hash_names(d, nm);
	if (values_distinct(nm, 1))
		return 0;
	qsort(nm->keys, nm->count, sizeof(*nm->keys), key_cmp);
	for (i = 0; i < nm->count; i++) {
		for (j = i + 1; j < nm->count && nm->keys[j].h ==
		     nm->keys[i].h; j++) {
			if (nm->keys[j].slot == nm->keys[i].slot)
				continue;
			na = key_name(d, &nm->keys[i], ua);
			nb = key_name(d, &nm->keys[j], ub);
			if (fp_name_equal(ua, na, ub, nb)) {
				report_dup(v, d, f, &nm->keys[i],
					   &nm->keys[j]);
				found = 1;
				break;
			}
		}
	}
	return found;
}

/* ---- the tree ------------------------------------------------------- */

/* Read directory @f, whose chain was claimed when it was found. */
/* Clusters of a directory of FP_DIR_MAX_ENTRIES entries (at least 1). */
static uint32_t dir_cap(const struct vctx *v)
{
	uint32_t cap = FP_DIR_MAX_ENTRIES * FP_DIRENT_LEN / v->g->clus_len;

	return cap ? cap : 1;
}

static enum fp_err load_dir(struct vctx *v, size_t f, struct fp_dir *d)
{
	uint32_t cap = dir_cap(v);
	uint32_t cl = v->frames[f].cl, n = v->frames[f].cl_count, *list, i;
	enum fp_err err;

	if (cl == 0)
		return fp_dir_load(d, v->fs->img, v->g, v->fat, 0);
	if (n > cap)
		n = cap;
	list = malloc((size_t)n * sizeof(*list));
	if (!list)
		return FP_E_NOMEM;
	for (i = 0; i < n; i++, cl = entry(v, cl))
		list[i] = cl;
	if (v->err) {
		free(list);
		return v->err;
	}
	err = fp_dir_load_list(d, v->fs->img, v->g, list, n);
	free(list);
	return err;
}

static void scan_entries(struct vctx *v, size_t f, const struct fp_dir *d)
{
	size_t parent = v->frames[f].parent;
	struct dstate ds = { .frame = f, .is_root = f == 0 };
	struct fp_dir_iter it = { 0, 0 };
	struct names *nm = &v->names;
	struct fp_dirent e;
	uint32_t hidden, slot = 0;

	ds.parent_cl = parent == 0 ? 0 : v->frames[parent].cl;
	nm->count = 0;
	while (fp_dir_next(d, v->fat32, &it, &e)) {
		if (!check_entry(v, &ds, &e))
			continue;
		add_keys(v, nm, &e);
	}
	if (it.orphans)
		dir_problem(v, f, FP_P_LFN_ORPHAN, it.orphans, 0);
	if (ds.bad_lfn)
		dir_problem(v, f, FP_P_BAD_LFN, ds.bad_lfn, ds.bad_slot);
	if (ds.root_dots)
		dir_problem(v, f, FP_P_ROOT_DOT, ds.root_dots, 0);
	hidden = fp_dir_after_end(d, &slot);
	if (hidden)
		dir_problem(v, f, FP_P_AFTER_END, hidden, slot);
	if (!ds.is_root && (!ds.dot || !ds.dotdot)) {
		add_dir(v, FP_P_DOT, f, v->frames[f].cl, 0, 0);
		mark_dir(v, v->frames[f].cl, FP_P_DOT);
	}
	if (check_dups(v, d, f, nm))
		mark_dir(v, v->frames[f].cl, FP_P_DUP_NAME);
}

/*
 * Count the bytes of [off, off + len) that lie in holes of the image file.
 * A hole-skipping flash (bmaptool) leaves a card's old bytes there; a
 * filesystem that cannot say, or fails to, counts as having none.
 */
static void count_holes(struct vctx *v, uint64_t off, uint64_t len)
{
	uint64_t end = off + len, ho, hl;

	while (off < end) {
		if (fp_img_find_hole(v->fs->img, off, end - off, &ho, &hl) ||
		    hl == 0)
			return;
		v->hole_bytes += hl;
		v->hole_count++;
		off = ho + hl;
	}
}

/* The clusters of a directory chain, a run of consecutive ones a call. */
static void dir_holes(struct vctx *v, const struct fp_dir *d)
{
	uint32_t i, j;

	for (i = 0; i < fp_dir_cl_count(d); i = j) {
		j = i + 1;
		while (j < fp_dir_cl_count(d) &&
		       fp_dir_cls(d)[j] == fp_dir_cls(d)[j - 1] + 1)
			j++;
		count_holes(v, fp_geom_cl_off(v->g, fp_dir_cls(d)[i]),
			    (uint64_t)(j - i) * v->g->clus_len);
	}
}

/* Everything before the data area, then what the walk found. */
static void check_holes(struct vctx *v)
{
	count_holes(v, 0, v->g->data_off);
	if (v->hole_bytes)
		add(v, FP_P_METADATA_HOLE, "", 0, v->hole_bytes,
		    v->hole_count);
}

static void check_dir(struct vctx *v, size_t f)
{
	struct fp_dir d;
	enum fp_err err;

	err = load_dir(v, f, &d);
	if (err) {
		fail(v, err);
		return;
	}
	if (v->holes && !v->owners_pass && fp_dir_first_cl(&d) != 0)
		dir_holes(v, &d);
	if (v->frames[f].cl_count > dir_cap(v))
		dir_problem(v, f, FP_P_DIR_LONG, v->frames[f].cl_count, 0);
	scan_entries(v, f, &d);
	fp_dir_release(&d);
}

static void free_frames(struct vctx *v)
{
	v->frame_count = 0;
	v->names_len = 0;
}

static void walk_tree(struct vctx *v)
{
	uint32_t cl = v->fat32 ? v->g->root_cl : 0, n = 0;
	struct epath slash = { "/", 0, NULL, NULL };
	size_t i;
	int ok;

	if (cl) {
		v->last = FP_P_COUNT;
		n = walk_chain(v, &slash, cl, &ok);
		if (!ok)
			mark_dir(v, cl, v->last);
		if (n == 0)
			return;
	}
	if (push_frame(v, cl, n, 0, NULL))
		return;
	for (i = 0; i < v->frame_count && !v->err; i++)
		check_dir(v, i);
	free_frames(v);
}

/* ---- lost clusters -------------------------------------------------- */

/* Claim the unclaimed chain from @cl and report it as lost. */
static void lost_chain(struct vctx *v, uint32_t cl)
{
	uint32_t start = cl, n = 0, val;

	while (cl >= 2 && cl <= v->max_cl &&
	       !fp_bitset_test(&v->claimed, cl) &&
	       fp_bitset_test(&v->used, cl)) {
		bit_set(v, &v->claimed, cl);
		n++;
		val = entry(v, cl);
		if (kind(v, val) != FP_FK_NEXT)
			break;
		cl = val;
	}
	v->r->lost += n;
	add(v, FP_P_LOST, "", start, n, 0);
}

/*
 * Pass 0: the lost chains of block @k of the sets that start there, at
 * clusters in use that no chain claimed and nothing links to (the head
 * bitmap); pass 1: what is left unclaimed after them, loops, reported
 * from their lowest cluster.
 */
static void lost_in_block(struct vctx *v, uint32_t k, int pass)
{
	const uint64_t *u = fp_bitset_block(&v->used, k), *c;
	const uint64_t *p = pass ? NULL : fp_bitset_block(&v->pointed, k);
	uint64_t w;
	uint32_t j, cl;

	if (!u || fp_bitset_full(&v->claimed, k))
		return;
	for (j = 0; j < FP_BITSET_WORDS && !v->err; j++) {
		c = fp_bitset_block(&v->claimed, k);	/* lost_chain sets */
		w = u[j] & ~(c ? c[j] : 0) & ~(p ? p[j] : 0);
		while (w) {
			cl = k * FP_BITSET_BLOCK + j * 64 +
			     (unsigned)__builtin_ctzll(w);
			w &= w - 1;
			if (!fp_bitset_test(&v->claimed, cl))
				lost_chain(v, cl);
		}
	}
}

/*
 * Lost chains, then loops.  The sets are read only up to the last
 * cluster in use: on a young volume the rest holds no block.
 */
static void find_lost(struct vctx *v)
{
	uint64_t end = v->used_end;
	uint32_t k, blocks = (uint32_t)((end + FP_BITSET_BLOCK - 1) /
					FP_BITSET_BLOCK);
	int pass;

	for (pass = 0; pass < 2; pass++)
		for (k = 0; k < blocks && !v->err; k++)
			lost_in_block(v, k, pass);
}

/* ---- cross-link owners ---------------------------------------------- */

static void name_owners(struct vctx *v)
{
	struct fp_report *r = v->r;
	struct xlink *x;
	size_t i;

	if (!v->xl_count || v->err)
		return;
	qsort(v->xl, v->xl_count, sizeof(*v->xl), xl_cmp);
	/* owners only for the findings kept: at most FP_VERIFY_CAP paths */
	for (i = 0; i < r->finding_count; i++)
		if (r->findings[i].problem == FP_P_CROSS_LINK &&
		    (x = xl_find(v, r->findings[i].cl)))
			x->want = 1;
	fp_bitset_clear(&v->claimed);
	v->owners_pass = 1;
	walk_tree(v);
	v->owners_pass = 0;	/* later findings count again */
	for (i = 0; i < r->finding_count; i++) {
		if (r->findings[i].problem != FP_P_CROSS_LINK)
			continue;
		x = xl_find(v, r->findings[i].cl);
		if (x && x->owner && !r->findings[i].other &&
		    fp_report_path_budget(r, strlen(x->owner))) {
			r->findings[i].other = strdup(x->owner);
			if (!r->findings[i].other)
				fail(v, FP_E_NOMEM);
		}
	}
}

/* ---- the volume label ---------------------------------------------- */

/* "'LABEL'" for a message, into @buf of @len bytes. */
static void label_str(const uint8_t lab[11], char *buf, size_t len)
{
	uint16_t u[11];
	size_t n = fp_name_label_decode(lab, u);

	buf[0] = '\'';
	n = fp_name_to_utf8(u, n, buf + 1, len - 2);
	buf[n + 1] = '\'';
	buf[n + 2] = '\0';
}

/* A finding @p about the label(s) with the text @what as its "other". */
static void add_label(struct vctx *v, enum fp_problem p, const char *what)
{
	struct fp_finding *f = add(v, p, "", 0, 0, 0);

	if (f && !(f->other = strdup(what)))
		fail(v, FP_E_NOMEM);
}

/*
 * The label of the root directory (its first label entry without the
 * directory bit, as blkid and fsck.fat take it) against the boot
 * sector's BS_VolLab, as fsck.fat 4.2 compares them: an invalid root
 * label is reported alone; a valid one must equal the boot sector's byte
 * for byte; without one the boot sector must say "NO NAME" (or hold an
 * invalid label, reported as such).  A boot sector without the extended
 * signature has no label field: only the root's label is checked then.
 * Neither makes a write unsafe, so the writers do not ask (no mark_dir).
 */
static void check_label(struct vctx *v)
{
	static const uint8_t no_name[11] = "NO NAME    ";
	const struct fp_geom *g = v->g;
	char a[3 * 11 + 3], b[3 * 11 + 3], what[2 * sizeof(a) + 64];

	label_str(v->label, a, sizeof(a));
	label_str(g->label, b, sizeof(b));
	if (v->root_label && fp_name_label_bad(v->label)) {
		snprintf(what, sizeof(what), "%s in the root directory", a);
		add_label(v, FP_P_BAD_LABEL, what);
	} else if (!g->has_label) {
		return;
	} else if (v->root_label) {
		if (memcmp(v->label, g->label, sizeof(v->label)) == 0)
			return;
		snprintf(what, sizeof(what), "%s in the boot sector, %s in "
			 "the root directory", b, a);
		add_label(v, FP_P_LABEL_MISMATCH, what);
	} else if (fp_name_label_bad(g->label)) {
		snprintf(what, sizeof(what), "%s in the boot sector", b);
		add_label(v, FP_P_BAD_LABEL, what);
	} else if (memcmp(g->label, no_name, sizeof(no_name)) != 0) {
		snprintf(what, sizeof(what), "%s in the boot sector, none in "
			 "the root directory", b);
		add_label(v, FP_P_LABEL_MISMATCH, what);
	}
}

/* ---- the whole check ------------------------------------------------ */

static int cl_cmp(const void *a, const void *b)
{
	const uint32_t *x = a, *y = b;

	return (*x > *y) - (*x < *y);
}

/* Sort the clusters of mark_free_used() and drop repeats. */
static void sort_taken(struct vctx *v)
{
	size_t i, n = 0;

	if (!v->taken_count)
		return;
	qsort(v->taken, v->taken_count, sizeof(*v->taken), cl_cmp);
	for (i = 0; i < v->taken_count; i++)
		if (n == 0 || v->taken[i] != v->taken[n - 1])
			v->taken[n++] = v->taken[i];
	v->taken_count = n;
}

/*
 * The largest free run again, without the clusters in v->taken: a second
 * pass over the FAT, made only when one of them lies in the run scan_fat
 * found, which only a damaged volume has.
 */
static void rerun_free(struct vctx *v)
{
	uint32_t cl = 2, n, i, cur = 0, vals[SCAN_CHUNK];
	size_t j = 0;
	enum fp_err err = FP_OK;

	v->r->run_start = v->r->run_count = 0;
	while (cl <= v->max_cl && !err) {
		n = v->max_cl - cl + 1 < SCAN_CHUNK ? v->max_cl - cl + 1 :
						      SCAN_CHUNK;
		err = fp_fat_get_run(v->fat, cl, n, vals);
		for (i = 0; !err && i < n; i++, cl++) {
			while (j < v->taken_count && v->taken[j] < cl)
				j++;
			if (kind(v, vals[i]) != FP_FK_FREE ||
			    (j < v->taken_count && v->taken[j] == cl)) {
				cur = 0;
				continue;
			}
			if (++cur > v->r->run_count) {
				v->r->run_count = cur;
				v->r->run_start = cl - cur + 1;
			}
		}
	}
	if (err)
		fail(v, err);
}

/*
 * Clusters marked free that a chain uses are not free: the allocator
 * does not hand them out, so the free count, the largest free run and
 * the FSInfo comparison leave them out, and they count as used.
 */
static void count_taken(struct vctx *v)
{
	struct fp_report *r = v->r;
	size_t i;
	int in_run = 0;

	sort_taken(v);
	for (i = 0; i < v->taken_count; i++) {
		assert(r->free_cl > 0);
		r->free_cl--;
		r->used++;
		if (v->taken[i] >= r->run_start &&
		    v->taken[i] - r->run_start < r->run_count)
			in_run = 1;
	}
	if (in_run)
		rerun_free(v);
}

static void check_free_count(struct vctx *v)
{
	const struct fp_fsinfo *fi = &v->fs->fsinfo;

	if (v->g->type == FP_FAT32 && fi->trusted &&
	    fi->free_count != FP_FSINFO_UNKNOWN &&
	    fi->free_count != v->r->free_cl)
		add(v, FP_P_FSINFO_FREE, "", 0, fi->free_count,
		    v->r->free_cl);
}

static void vctx_release(struct vctx *v)
{
	size_t i;

	free_frames(v);
	free(v->frames);
	free(v->names_buf);
	free(v->links);
	free(v->names.keys);
	free(v->names.set);
	free(v->taken);
	for (i = 0; i < v->xl_count; i++)
		free(v->xl[i].owner);
	free(v->xl);
	fp_bitset_release(&v->claimed);
	fp_bitset_release(&v->pointed);
	fp_bitset_release(&v->used);
	if (!v->dmg)
		fp_fs_free(v->fs);
}

enum fp_err fp_verify(struct fp_img *img, struct fp_report **out)
{
	return fp_verify_progress(img, NULL, out);
}

enum fp_err fp_verify_progress(struct fp_img *img,
			       const struct fp_progress *prog,
			       struct fp_report **out)
{
	struct vctx v;
	struct fp_report *r;
	enum fp_err err;

	memset(&v, 0, sizeof(v));
	r = calloc(1, sizeof(*r));
	if (!r)
		return FP_E_NOMEM;
	err = fp_fs_open(img, &v.fs);
	if (err) {
		free(r);
		return err;
	}
	v.r = r;
	v.g = &v.fs->geom;
	v.fat = v.fs->fat;
	fp_fat_cache(v.fat, VERIFY_CACHE_LEN);
	v.fat32 = v.g->type == FP_FAT32;
	v.type = v.g->type;
	v.max_cl = fp_geom_max_cl(v.g);
	v.holes = 1;
	r->geom = *v.g;
	bits_init(&v, &v.claimed);
	bits_init(&v, &v.pointed);
	bits_init(&v, &v.used);
	fp_tick_start(&v.tick, prog, 2 * (uint64_t)v.g->cluster_count);
	if (!v.err) {
		check_boot(&v);
		check_fat_head(&v);
		err = fp_fat_check_copies(v.fat);
		if (err)
			fail(&v, err);
		scan_fat(&v);
		report_copies(&v);
		walk_tree(&v);
		check_label(&v);
		find_lost(&v);
		count_taken(&v);
		check_free_count(&v);
		name_owners(&v);
		check_holes(&v);
	}
	if (!v.err)
		fp_tick(&v.tick, v.tick.total);
	err = v.err;
	vctx_release(&v);
	if (err) {
		fp_report_free(r);
		return err;
	}
	*out = r;
	return FP_OK;
}

/* ---- damage, for writers -------------------------------------------- */

static int dir_cmp(const void *a, const void *b)
{
	const struct dmg_dir *x = a, *y = b;

	if (x->cl != y->cl)
		return (x->cl > y->cl) - (x->cl < y->cl);
	return (x->problem > y->problem) - (x->problem < y->problem);
}

/* Sort what the walk recorded; the cross-links come from v->xl. */
static enum fp_err damage_finish(struct vctx *v, struct fp_damage *d)
{
	size_t i;

	if (d->dir_count)
		qsort(d->dirs, d->dir_count, sizeof(*d->dirs), dir_cmp);
	sort_taken(v);
	d->free_used = v->taken;	/* the damage owns them now */
	d->free_count = v->taken_count;
	v->taken = NULL;
	if (!v->xl_count)
		return FP_OK;
	d->shared = malloc(v->xl_count * sizeof(*d->shared));
	if (!d->shared)
		return FP_E_NOMEM;
	for (i = 0; i < v->xl_count; i++)
		d->shared[i] = v->xl[i].cl;
	d->shared_count = v->xl_count;
	qsort(d->shared, d->shared_count, sizeof(*d->shared), cl_cmp);
	return FP_OK;
}

enum fp_err fp_damage_find(struct fp_fs *fs, struct fp_damage **out)
{
	struct fp_damage *d = calloc(1, sizeof(*d));
	struct vctx v;
	enum fp_err err;

	memset(&v, 0, sizeof(v));
	v.r = calloc(1, sizeof(*v.r));
	if (!d || !v.r) {
		free(d);
		free(v.r);
		return FP_E_NOMEM;
	}
	v.fs = fs;
	v.dmg = d;
	v.g = &fs->geom;
	v.fat = fs->fat;
	v.fat32 = v.g->type == FP_FAT32;
	v.type = v.g->type;
	v.max_cl = fp_geom_max_cl(v.g);
	bits_init(&v, &v.claimed);
	if (!v.err)
		walk_tree(&v);
	err = v.err ? v.err : damage_finish(&v, d);
	d->claimed = v.claimed;	/* the walk's, now the outcome's */
	memset(&v.claimed, 0, sizeof(v.claimed));
	vctx_release(&v);
	fp_report_free(v.r);
	if (err) {
		fp_damage_free(d);
		return err;
	}
	*out = d;
	return FP_OK;
}

enum fp_problem fp_damage_chain(const struct fp_damage *d, uint32_t cl)
{
	size_t lo = 0, hi = d->dir_count, mid;

	/* the first entry with this cluster: the lowest problem */
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (d->dirs[mid].cl < cl)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < d->dir_count && d->dirs[lo].cl == cl)
		return d->dirs[lo].problem;
	return FP_P_COUNT;
}

int fp_damage_shared(const struct fp_damage *d, uint32_t cl)
{
	return d->shared_count &&
	       bsearch(&cl, d->shared, d->shared_count, sizeof(cl),
		       cl_cmp) != NULL;
}

size_t fp_damage_shared_count(const struct fp_damage *d)
{
	return d ? d->shared_count : 0;
}

const uint32_t *fp_damage_free_used(const struct fp_damage *d,
				    size_t *count)
{
	*count = d->free_count;
	return d->free_used;
}

void fp_damage_free(struct fp_damage *d)
{
	if (!d)
		return;
	fp_bitset_release(&d->claimed);
	free(d->dirs);
	free(d->shared);
	free(d->free_used);
	free(d);
}

/* ---- FAT copies that differ ----------------------------------------- */

/* What fp_damage_copy_lost() classifies the differing entries with. */
struct copy_view {
	enum fp_fat_type type;
	uint32_t max_cl;
	const struct fp_bitset *reached[2];	/* active copy, the other */
	int other_found;	/* an entry no interrupted commit leaves */
};

static int reached(const struct copy_view *cv, int side, uint32_t cl)
{
	return cl >= 2 && cl <= cv->max_cl &&
	       fp_bitset_test(cv->reached[side], cl);
}

/*
 * Whether entry @cl may hold @val[0] in the active copy and @val[1] in
 * the other, as an interrupted commit leaves them (the rule is in
 * docs/VERIFY.md, "FAT copies"): (a) no chain that a directory entry
 * reaches holds the cluster in either copy, and neither value marks it
 * bad: a cluster free or lost in both, whatever it links to (fsck.fat,
 * too, counts a lost chain that runs into a file's chain as lost
 * clusters, and a FAT12 entry torn between two sectors may link
 * anywhere); or (b) a
 * reached chain holds it in both copies, ends there in one and, in the
 * other, links to a cluster that no chain reaches in the copy that ends.
 */
static int lost_entry(const struct copy_view *cv, uint32_t cl,
		      const uint32_t val[2])
{
	enum fp_fat_kind k[2];
	int s;

	k[0] = fp_fat_kind_of(cv->type, cv->max_cl, val[0]);
	k[1] = fp_fat_kind_of(cv->type, cv->max_cl, val[1]);
	if (cl < 2 || val[0] == val[1] || k[0] == FP_FK_BAD ||
	    k[1] == FP_FK_BAD)
		return 0;
	if (!reached(cv, 0, cl) && !reached(cv, 1, cl))
		return 1;
	if (k[0] == FP_FK_EOC && k[1] == FP_FK_NEXT)
		s = 0;				/* the copy that ends */
	else if (k[0] == FP_FK_NEXT && k[1] == FP_FK_EOC)
		s = 1;
	else
		return 0;
	return reached(cv, 0, cl) && reached(cv, 1, cl) &&
	       !reached(cv, s, val[!s]);
}

static int copy_entry(void *ctx, uint32_t cl, uint32_t act, uint32_t other)
{
	struct copy_view *cv = ctx;
	const uint32_t val[2] = { act, other };

	if (!lost_entry(cv, cl, val))
		cv->other_found = 1;
	return cv->other_found;
}

/* 1 if every damage @b records is one @a records too. */
static int damage_within(const struct fp_damage *b,
			 const struct fp_damage *a)
{
	size_t i;

	for (i = 0; i < b->dir_count; i++)
		if (!a->dir_count || !bsearch(&b->dirs[i], a->dirs,
					      a->dir_count, sizeof(*a->dirs),
					      dir_cmp))
			return 0;
	for (i = 0; i < b->shared_count; i++)
		if (!fp_damage_shared(a, b->shared[i]))
			return 0;
	for (i = 0; i < b->free_count; i++)
		if (!a->free_count || !bsearch(&b->free_used[i],
					       a->free_used, a->free_count,
					       sizeof(*a->free_used), cl_cmp))
			return 0;
	return 1;
}

enum fp_err fp_damage_copy_lost(struct fp_fs *fs, const struct fp_damage *da,
				uint32_t copy, int *lost_only)
{
	struct copy_view cv;
	struct fp_damage *db = NULL;
	struct fp_fs *fb = NULL;
	enum fp_err err;

	err = fp_fs_open_copy(fs->img, copy, &fb);
	if (!err)
		err = fp_damage_find(fb, &db);
	if (err)
		goto out;
	memset(&cv, 0, sizeof(cv));
	cv.type = fs->geom.type;
	cv.max_cl = fp_geom_max_cl(&fs->geom);
	cv.reached[0] = &da->claimed;
	cv.reached[1] = &db->claimed;
	err = fp_fat_copy_each(fs->fat, copy, copy_entry, &cv);
	if (!err)
		*lost_only = !cv.other_found && damage_within(db, da);
out:
	fp_damage_free(db);
	fp_fs_free(fb);
	return err;
}

enum fp_err fp_damage_copies(struct fp_fs *fs, const struct fp_damage *da,
			     struct fp_fs_diag *diag)
{
	struct fp_damage *own = NULL;
	struct fp_fat_diff d;
	enum fp_err err = FP_OK;
	uint32_t copy;
	int lost = 1;

	for (copy = 0; !err && lost && copy < fs->geom.fat_count; copy++) {
		d = fp_fat_copy_diff(fs->fat, copy);
		if (!d.count)
			continue;
		if (!da && !own)
			err = fp_damage_find(fs, &own);
		if (!err)
			err = fp_damage_copy_lost(fs, da ? da : own, copy,
						  &lost);
		if (!err && !lost) {
			diag->copy = copy;
			diag->first_cl = d.first_cl;
			diag->diff_count = d.count;
		}
	}
	fp_damage_free(own);
	return err ? err : lost ? FP_OK : FP_E_FATDIFF;
}
