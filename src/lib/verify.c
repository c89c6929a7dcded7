/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* verify.c - a read-only, fsck-style check of a FAT volume. */
#include "verify.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bitset.h"
#include "damage.h"
#include "findings_impl.h"
#include "fs.h"
#include "le.h"
#include "name.h"
#include "util.h"
#include "walk.h"

/* FAT entries decoded at a time by the pass over the FAT. */
#define SCAN_CHUNK 1024u
/*
 * Clean FAT windows kept (one 2 MiB chunk of 8): scan_fat reads the FAT
 * in order and keeps long runs for the walk, which then reads little;
 * a walk that jumps about makes fat.c keep every window anyway.
 */
#define VERIFY_CACHE_LEN (2u * 1024u * 1024u)

/*
 * The check: the tree walk (walk.c), which records the findings of the
 * directories and chains, and what only the pass over the whole FAT
 * knows.
 */
struct vctx {
	struct fp_walk *w;	/* owned */
	struct fp_fs *fs;	/* owned */
	const struct fp_geom *g;
	struct fp_fat *fat;
	struct fp_report *r;	/* borrowed: the caller's */
	uint32_t max_cl;
	uint32_t *taken;	/* clusters marked free that a chain uses */
	size_t taken_count;
	struct fp_bitset pointed;	/* clusters some entry links to */
	struct fp_bitset used;	/* clusters neither free nor bad */
	uint32_t used_end;	/* clusters in use all lie below it */
	uint32_t run_end, cur_count;	/* the free run scan_fat is in */
};

/* What FAT entry value @val is, without a call. */
static inline enum fp_fat_kind entry_kind(const struct vctx *v, uint32_t val)
{
	return fp_fat_kind_of(v->g->type, v->max_cl, val);
}

/* ---- boot sector and FAT -------------------------------------------- */

/* The FAT32 BPB with the extended fields: BPB_BytsPerSec .. BS_FilSysType. */
#define BOOT_BPB_FROM 11
#define BOOT_BPB_TO 90
/* BPB_HiddSec: the sectors before the volume, le32. */
#define BOOT_HIDDEN 28
#define BOOT_HIDDEN_LEN 4
/* FAT32 BS_BootSig and BS_VolLab: what a label change writes. */
#define BOOT32_SIG 66
#define BOOT32_LABEL 71
#define BOOT_LABEL_LEN 11

/* What a differing byte of the backup boot sector is. */
enum boot_byte {
	BOOT_CODE,	/* jump, OEM name, boot code: boot-backup-code */
	BOOT_HIDDEN_SEC,	/* BPB_HiddSec: boot-backup-hidden */
	BOOT_BPB,	/* the rest of the BPB, the signature: boot-backup */
	BOOT_LABEL,	/* BS_BootSig, BS_VolLab: boot-backup-label */
};

static enum boot_byte boot_byte_kind(uint32_t i)
{
	if (i >= BOOT_HIDDEN && i < BOOT_HIDDEN + BOOT_HIDDEN_LEN)
		return BOOT_HIDDEN_SEC;
	if (i == BOOT32_SIG ||
	    (i >= BOOT32_LABEL && i < BOOT32_LABEL + BOOT_LABEL_LEN))
		return BOOT_LABEL;
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
 * A label change (fatprealloc --label) writes the label of sector 0
 * before the backup's, so a cut between them leaves the two labels (and,
 * cut earlier, the extended signatures, docs/DESIGN.md "Labels")
 * different; fsck.fat calls that "mostly harmless" too.  Only the other
 * BPB bytes and the signature describe the volume, so only they make an
 * error; any other difference is a warning.
 */
static void check_backup(struct vctx *v)
{
	const struct fp_geom *g = v->g;
	struct fp_img *img = fp_fs_img(v->fs);
	uint8_t *a = malloc(g->sec_len), *b = malloc(g->sec_len);
	uint32_t i, first[4] = { 0, 0, 0, 0 };

	if (!a || !b) {
		fp_walk_fail(v->w, FP_E_NOMEM);
		goto out;
	}
	if (fp_img_read(img, 0, a, g->sec_len) ||
	    fp_img_read(img, (uint64_t)g->backup_sec * g->sec_len, b,
			g->sec_len)) {
		fp_walk_fail(v->w, FP_E_IO);
		goto out;
	}
	for (i = g->sec_len; i-- > 0;)
		if (a[i] != b[i])
			first[boot_byte_kind(i)] = i + 1;
	if (first[BOOT_BPB])
		fp_walk_add(v->w, FP_P_BOOT_BACKUP, "", 0, g->backup_sec,
			    first[BOOT_BPB] - 1);
	if (first[BOOT_HIDDEN_SEC])
		fp_walk_add(v->w, FP_P_BOOT_BACKUP_HIDDEN, "", 0,
			    g->backup_sec, fp_le32(b + BOOT_HIDDEN));
	if (first[BOOT_CODE])
		fp_walk_add(v->w, FP_P_BOOT_BACKUP_CODE, "", 0, g->backup_sec,
			    first[BOOT_CODE] - 1);
	if (first[BOOT_LABEL])
		fp_walk_add(v->w, FP_P_BOOT_BACKUP_LABEL, "", 0, g->backup_sec,
			    first[BOOT_LABEL] - 1);
out:
	free(a);
	free(b);
}

static void check_boot(struct vctx *v)
{
	const struct fp_geom *g = v->g;
	const struct fp_fsinfo *fi = fp_fs_fsinfo(v->fs);

	if (g->type != FP_FAT32)
		return;
	if (g->cluster_count < FP_FAT32_MIN_CLUSTERS)
		fp_walk_add(v->w, FP_P_FAT_TYPE, "", 0, g->cluster_count, 0);
	if (g->backup_sec)
		check_backup(v);
	if (g->fsinfo_sec && !fi->valid)
		fp_walk_add(v->w, FP_P_FSINFO_SIG, "", 0, g->fsinfo_sec, 0);
	if (fi->trusted && fi->next_free != FP_FSINFO_UNKNOWN &&
	    (fi->next_free < 2 || fi->next_free > fp_geom_max_cl(g)))
		fp_walk_add(v->w, FP_P_FSINFO_NEXT, "", 0, fi->next_free, 0);
}

/* Entry 0 holds the media byte, entry 1 end-of-chain plus state bits. */
static void check_fat_head(struct vctx *v)
{
	uint32_t mask = fp_fat_eoc(v->fat), e0, e1, clean, ioerr;
	uint32_t want0 = (mask & ~0xFFu) | v->g->media;

	e0 = fp_walk_entry(v->w, 0);
	e1 = fp_walk_entry(v->w, 1);
	if (e0 != want0)
		fp_walk_add(v->w, FP_P_FAT_MEDIA, "", 0, e0, want0);
	if (v->g->type == FP_FAT32) {
		clean = FP_FAT32_CLEAN;
		ioerr = FP_FAT32_NO_IOERR;
	} else if (v->g->type == FP_FAT16) {
		clean = FP_FAT16_CLEAN;
		ioerr = FP_FAT16_NO_IOERR;
	} else {
		clean = ioerr = 0;
	}
	if (entry_kind(v, e1 | clean | ioerr) != FP_FK_EOC)
		fp_walk_add(v->w, FP_P_FAT_ENTRY1, "", 0, e1, 0);
	if ((v->g->state & FP_STATE_DIRTY) || (clean && !(e1 & clean)))
		fp_walk_add(v->w, FP_P_DIRTY, "", 0, 0, 0);
	if (ioerr && !(e1 & ioerr))
		fp_walk_add(v->w, FP_P_IO_ERROR, "", 0, 0, 0);
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
		fp_walk_fail(v->w, err);
	return err ? 0 : g * 64;
}

/* Entry @cl, whose value is @val, in the counts and bitmaps. */
static void scan_entry(struct vctx *v, uint32_t cl, uint32_t val)
{
	switch (entry_kind(v, val)) {
	case FP_FK_FREE:
		free_span(v, cl, 1);
		return;
	case FP_FK_BAD:
		v->r->bad++;
		return;
	case FP_FK_NEXT:
		fp_walk_bit_set(v->w, &v->pointed, val);
		break;
	case FP_FK_EOC:
		break;
	default:
		fp_walk_add(v->w, FP_P_FAT_BAD_ENTRY, "", cl, val, 0);
		break;
	}
	fp_walk_bit_set(v->w, &v->used, cl);
	v->used_end = cl + 1;	/* scan_fat goes up */
	v->r->used++;
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
	while (cl <= max && !err && !fp_walk_err(v->w)) {
		fp_walk_progress(v->w, cl - 1);
		n = max - cl + 1 < step ? max - cl + 1 : step;
		err = fp_fat_seq(v->fat, cl, n, &n);
		if (!err && n) {
			fp_walk_bits_fill(v->w, &v->used, cl, cl + n - 1);
			v->used_end = cl + n;
			fp_walk_bits_fill(v->w, &v->pointed, cl + 1, cl + n);
			v->r->used += n;
			fp_walk_links(v->w, cl, n);
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
	fp_walk_links_end(v->w);
	if (err)
		fp_walk_fail(v->w, err);
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
			fp_walk_add(v->w, lost ? FP_P_FAT_MISMATCH_LOST :
				    FP_P_FAT_MISMATCH, "", d.first_cl, copy + 1,
				    d.count);
	}
	fp_damage_free(da);
	if (err)
		fp_walk_fail(v->w, err);
}

/* Everything before the data area, then what the walk found. */
static void check_holes(struct vctx *v)
{
	uint64_t bytes, count;

	fp_walk_count_holes(v->w, 0, v->g->data_off);
	fp_walk_holes(v->w, &bytes, &count);
	if (bytes)
		fp_walk_add(v->w, FP_P_METADATA_HOLE, "", 0, bytes, count);
}

/* ---- lost clusters -------------------------------------------------- */

/* Claim the unclaimed chain from @cl and report it as lost. */
static void lost_chain(struct vctx *v, uint32_t cl)
{
	struct fp_bitset *claimed = fp_walk_claimed(v->w);
	uint32_t start = cl, n = 0, val;

	while (cl >= 2 && cl <= v->max_cl &&
	       !fp_bitset_test(claimed, cl) &&
	       fp_bitset_test(&v->used, cl)) {
		fp_walk_bit_set(v->w, claimed, cl);
		n++;
		val = fp_walk_entry(v->w, cl);
		if (entry_kind(v, val) != FP_FK_NEXT)
			break;
		cl = val;
	}
	v->r->lost += n;
	fp_walk_add(v->w, FP_P_LOST, "", start, n, 0);
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
	struct fp_bitset *claimed = fp_walk_claimed(v->w);
	uint64_t w;
	uint32_t j, cl;

	if (!u || fp_bitset_full(claimed, k))
		return;
	for (j = 0; j < FP_BITSET_WORDS && !fp_walk_err(v->w); j++) {
		/* lost_chain sets bits */
		c = fp_bitset_block(claimed, k);
		w = u[j] & ~(c ? c[j] : 0) & ~(p ? p[j] : 0);
		while (w) {
			cl = k * FP_BITSET_BLOCK + j * 64 +
			     (unsigned)__builtin_ctzll(w);
			w &= w - 1;
			if (!fp_bitset_test(claimed, cl))
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
		for (k = 0; k < blocks && !fp_walk_err(v->w); k++)
			lost_in_block(v, k, pass);
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
	struct fp_finding *f = fp_walk_add(v->w, p, "", 0, 0, 0);

	if (f && !(f->other = strdup(what)))
		fp_walk_fail(v->w, FP_E_NOMEM);
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
	uint8_t label[11];
	int root_label = fp_walk_root_label(v->w, label);

	label_str(label, a, sizeof(a));
	label_str(g->label, b, sizeof(b));
	if (root_label && fp_name_label_bad(label)) {
		snprintf(what, sizeof(what), "%s in the root directory", a);
		add_label(v, FP_P_BAD_LABEL, what);
	} else if (!g->has_label) {
		return;
	} else if (root_label) {
		if (memcmp(label, g->label, sizeof(label)) == 0)
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

/*
 * A FAT12/16 boot sector whose signature --label holds at 0x28 while it
 * changes the root's label entry (docs/DESIGN.md "Labels"): what a cut
 * there leaves, whatever the root then holds (the old label, the new
 * one, none).  fsck.fat reads it as the label '' and calls it different
 * from the root's or invalid; a DOS 3.4 boot sector with 0x28 has boot
 * code where BS_FilSysType says FAT here (label_held), so it is not
 * named.  On FAT32 the backup boot sector, written last, differs
 * meanwhile: boot-backup-label names it, unless there is no backup.
 */
static void check_label_held(struct vctx *v)
{
	char lab[3 * 11 + 3];

	if (!v->g->label_held || (v->g->type == FP_FAT32 && v->g->backup_sec))
		return;
	label_str(v->g->label, lab, sizeof(lab));
	add_label(v, FP_P_LABEL_HELD, lab);
}

/* ---- the whole check ------------------------------------------------ */

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
			if (entry_kind(v, vals[i]) != FP_FK_FREE ||
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
		fp_walk_fail(v->w, err);
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

	fp_walk_take_free_used(v->w, &v->taken, &v->taken_count);
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
	const struct fp_fsinfo *fi = fp_fs_fsinfo(v->fs);

	if (v->g->type == FP_FAT32 && fi->trusted &&
	    fi->free_count != FP_FSINFO_UNKNOWN &&
	    fi->free_count != v->r->free_cl)
		fp_walk_add(v->w, FP_P_FSINFO_FREE, "", 0, fi->free_count,
			    v->r->free_cl);
}

static void vctx_release(struct vctx *v)
{
	fp_bitset_release(&v->pointed);
	fp_bitset_release(&v->used);
	free(v->taken);
	fp_walk_free(v->w);
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
	struct fp_fs *fs;
	struct fp_report *r;
	struct vctx v;
	enum fp_err err;

	r = calloc(1, sizeof(*r));
	if (!r)
		return FP_E_NOMEM;
	err = fp_fs_open(img, &fs);
	if (err) {
		free(r);
		return err;
	}
	memset(&v, 0, sizeof(v));
	v.fs = fs;
	v.g = fp_fs_geom(fs);
	v.fat = fp_fs_fat(fs);
	v.r = r;
	v.max_cl = fp_geom_max_cl(v.g);
	err = fp_walk_new(fs, r, &v.w);
	if (err) {
		vctx_release(&v);
		fp_report_free(r);
		return err;
	}
	fp_fat_cache(v.fat, VERIFY_CACHE_LEN);
	r->geom = *v.g;
	fp_walk_bits_init(v.w, &v.pointed);
	fp_walk_bits_init(v.w, &v.used);
	fp_walk_progress_start(v.w, prog);
	if (!fp_walk_err(v.w)) {
		check_boot(&v);
		check_fat_head(&v);
		err = fp_fat_check_copies(v.fat);
		if (err)
			fp_walk_fail(v.w, err);
		scan_fat(&v);
		report_copies(&v);
		fp_walk_tree(v.w);
		check_label(&v);
		check_label_held(&v);
		find_lost(&v);
		count_taken(&v);
		check_free_count(&v);
		fp_walk_name_owners(v.w);
		check_holes(&v);
	}
	err = fp_walk_err(v.w);
	if (!err)
		fp_walk_progress_end(v.w);
	vctx_release(&v);
	if (err) {
		fp_report_free(r);
		return err;
	}
	*out = r;
	return FP_OK;
}

