/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* commit.c - a change set of a volume, written in crash-safe order. */
#include "commit.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "copy.h"
#include "fat.h"
#include "util.h"

/* A byte range of the image to zero. */
struct zrange {
	uint64_t off;
	uint64_t len;
};

/* A copy: its data goes to runs[first .. first + count). */
struct copy {
	size_t tag;
	const char *host;
	const uint8_t *data;
	uint32_t size;
	size_t first, count;
};

/* A FAT entry of a pre-existing chain end that will point at new clusters. */
struct link {
	uint32_t cl;
	uint32_t next;
	uint32_t old;		/* its end-of-chain value on disk */
};

/* A chain to cut: @cut (0: none, the entry lets go) ends it, @count
 * clusters from @tail on are freed. */
struct cut {
	uint32_t cut;
	uint32_t tail;
	uint32_t count;
};

/* A field of the boot sector (fp_change_boot_field()). */
struct boot_field {
	uint32_t off, len;
	uint8_t bytes[FP_BOOT_FIELD_MAX];
	uint32_t sig_off;	/* 0: none */
	uint8_t first_sig;	/* != last_sig: a first write */
	uint8_t last_sig;
};

/* A late change of a directory: an entry put, or a set unlinked. */
struct late {
	struct fp_dir *dir;	/* borrowed */
	uint32_t slot;
	uint32_t count;		/* unlink: entries; put: 0 */
	uint8_t ent[FP_DIRENT_LEN];	/* put: the entry */
};

struct fp_change_set {
	struct fp_fs *fs;	/* borrowed */
	struct fp_fsinfo fsinfo;	/* FSInfo as it was when the set
					 * was made */
	struct zrange *zero;
	size_t zero_count, zero_cap;
	struct copy *copies;
	size_t copy_count, copy_cap;
	struct fp_copy_run *runs;	/* of every copy */
	size_t run_count, run_cap;
	struct link *links;
	size_t link_count, link_cap;
	struct cut *cuts;
	size_t cut_count, cut_cap;
	struct fp_dir **dirs;	/* borrowed */
	size_t dir_count, dir_cap;
	struct late *lates;	/* puts and unlinks, in the order given */
	size_t late_count, late_cap;
	uint32_t alloc_count;
	uint32_t freed_count;
	uint32_t last_alloc;
	int sync_copies;
	struct boot_field boot;
	int has_boot;
};

/* ---- filling -------------------------------------------------------- */

enum fp_err fp_change_set_new(struct fp_fs *fs, struct fp_change_set **out)
{
	struct fp_change_set *cs = calloc(1, sizeof(*cs));

	if (!cs)
		return FP_E_NOMEM;
	cs->fs = fs;
	cs->fsinfo = *fp_fs_fsinfo(fs);
	*out = cs;
	return FP_OK;
}

enum fp_err fp_change_zero(struct fp_change_set *cs, uint64_t off,
			   uint64_t len)
{
	struct zrange *z;
	enum fp_err err;

	if (len == 0)
		return FP_OK;
	if (cs->zero_count) {
		z = &cs->zero[cs->zero_count - 1];
		if (z->off + z->len == off) {
			z->len += len;
			return FP_OK;
		}
	}
	err = fp_grow(&cs->zero, &cs->zero_cap, cs->zero_count,
		      sizeof(*cs->zero));
	if (err)
		return err;
	cs->zero[cs->zero_count].off = off;
	cs->zero[cs->zero_count++].len = len;
	return FP_OK;
}

enum fp_err fp_change_copy(struct fp_change_set *cs, size_t tag,
			   const char *host, const uint8_t *data,
			   uint32_t size)
{
	struct copy *c;
	enum fp_err err;

	err = fp_grow(&cs->copies, &cs->copy_cap, cs->copy_count,
		      sizeof(*cs->copies));
	if (err)
		return err;
	c = &cs->copies[cs->copy_count++];
	c->tag = tag;
	c->host = host;
	c->data = data;
	c->size = size;
	c->first = cs->run_count;
	c->count = 0;
	return FP_OK;
}

enum fp_err fp_change_copy_run(struct fp_change_set *cs, uint32_t cl,
			       uint32_t count)
{
	const struct fp_geom *g = fp_fs_geom(cs->fs);
	enum fp_err err;

	assert(cs->copy_count);
	err = fp_grow(&cs->runs, &cs->run_cap, cs->run_count,
		      sizeof(*cs->runs));
	if (err)
		return err;
	cs->runs[cs->run_count].off = fp_geom_cl_off(g, cl);
	cs->runs[cs->run_count++].len = (uint64_t)count * g->clus_len;
	cs->copies[cs->copy_count - 1].count++;
	return FP_OK;
}

void fp_change_alloc(struct fp_change_set *cs, uint32_t start,
		     uint32_t count)
{
	cs->alloc_count += count;
	cs->last_alloc = start + count - 1;
}

enum fp_err fp_change_link(struct fp_change_set *cs, uint32_t cl,
			   uint32_t old, uint32_t next)
{
	enum fp_err err;

	err = fp_grow(&cs->links, &cs->link_cap, cs->link_count,
		      sizeof(*cs->links));
	if (err)
		return err;
	cs->links[cs->link_count].cl = cl;
	cs->links[cs->link_count].old = old;
	cs->links[cs->link_count++].next = next;
	return FP_OK;
}

enum fp_err fp_change_free_chain(struct fp_change_set *cs, uint32_t cut,
				 uint32_t tail, uint32_t count)
{
	enum fp_err err;

	err = fp_grow(&cs->cuts, &cs->cut_cap, cs->cut_count,
		      sizeof(*cs->cuts));
	if (err)
		return err;
	cs->cuts[cs->cut_count].cut = cut;
	cs->cuts[cs->cut_count].tail = tail;
	cs->cuts[cs->cut_count++].count = count;
	cs->freed_count += count;
	return FP_OK;
}

enum fp_err fp_change_dir(struct fp_change_set *cs, struct fp_dir *dir)
{
	enum fp_err err;

	err = fp_grow(&cs->dirs, &cs->dir_cap, cs->dir_count,
		      sizeof(*cs->dirs));
	if (!err)
		cs->dirs[cs->dir_count++] = dir;
	return err;
}

enum fp_err fp_change_boot_field(struct fp_change_set *cs, uint32_t off,
				 const uint8_t *bytes, uint32_t len,
				 uint32_t sig_off, uint8_t first_sig,
				 uint8_t last_sig)
{
	uint32_t sec_len = fp_fs_geom(cs->fs)->sec_len;

	if (cs->has_boot || len > FP_BOOT_FIELD_MAX || off + len > sec_len ||
	    sig_off >= sec_len)
		return FP_E_INVAL;
	cs->boot.off = off;
	cs->boot.len = len;
	memcpy(cs->boot.bytes, bytes, len);
	cs->boot.sig_off = sig_off;
	cs->boot.first_sig = sig_off ? first_sig : last_sig;
	cs->boot.last_sig = last_sig;
	cs->has_boot = 1;
	return FP_OK;
}

static enum fp_err add_late(struct fp_change_set *cs, struct fp_dir *dir,
			    uint32_t slot, uint32_t count, const uint8_t *ent)
{
	struct late *l;
	enum fp_err err;

	err = fp_grow(&cs->lates, &cs->late_cap, cs->late_count,
		      sizeof(*cs->lates));
	if (err)
		return err;
	l = &cs->lates[cs->late_count++];
	l->dir = dir;
	l->slot = slot;
	l->count = count;
	if (ent)
		memcpy(l->ent, ent, FP_DIRENT_LEN);
	return FP_OK;
}

enum fp_err fp_change_put_late(struct fp_change_set *cs, struct fp_dir *dir,
			       uint32_t slot, const uint8_t *ent)
{
	return add_late(cs, dir, slot, 0, ent);
}

enum fp_err fp_change_unlink(struct fp_change_set *cs, struct fp_dir *dir,
			     uint32_t slot, uint32_t count)
{
	assert(count);
	return add_late(cs, dir, slot, count, NULL);
}

void fp_change_sync_copies(struct fp_change_set *cs)
{
	cs->sync_copies = 1;
}

uint32_t fp_change_alloc_count(const struct fp_change_set *cs)
{
	return cs->alloc_count;
}

uint32_t fp_change_freed_count(const struct fp_change_set *cs)
{
	return cs->freed_count;
}

enum fp_err fp_change_free_count(const struct fp_change_set *cs,
				 uint32_t *count)
{
	return fp_alloc_free_after(fp_fs_bm(cs->fs), &cs->fsinfo,
				   fp_fs_geom(cs->fs)->cluster_count,
				   cs->alloc_count, cs->freed_count, count);
}

void fp_change_set_free(struct fp_change_set *cs)
{
	if (!cs)
		return;
	free(cs->zero);
	free(cs->copies);
	free(cs->runs);
	free(cs->links);
	free(cs->cuts);
	free(cs->dirs);
	free(cs->lates);
	free(cs);
}

/* ---- data ----------------------------------------------------------- */

/*
 * Bytes the commit writes as data and reports progress of: the zeroed
 * ranges (first), then the clusters of the copies.
 */
static uint64_t zero_bytes(const struct fp_change_set *cs)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < cs->zero_count; i++)
		total += cs->zero[i].len;
	return total;
}

static uint64_t copy_bytes(const struct fp_change_set *cs)
{
	uint64_t total = 0;
	size_t i;

	for (i = 0; i < cs->run_count; i++)
		total += cs->runs[i].len;
	return total;
}

#define ZERO_CHUNK (1u << 20)	/* bytes zeroed between progress reports */

/*
 * Zero the ranges, as data unless holes were asked for; in chunks when
 * progress is reported.
 */
static enum fp_err zero_all(struct fp_change_set *cs, int punch,
			    struct fp_tick *tick)
{
	struct fp_img *img = fp_fs_img(cs->fs);
	uint64_t done = 0, off, n;
	enum fp_err err = FP_OK;
	size_t i;

	for (i = 0; !err && i < cs->zero_count; i++) {
		for (off = 0; !err && off < cs->zero[i].len; off += n) {
			n = cs->zero[i].len - off;
			if (fp_progress_tick_on(tick) && n > ZERO_CHUNK)
				n = ZERO_CHUNK;
			if (punch)
				err = fp_img_punch(img, cs->zero[i].off + off,
						   n);
			else
				err = fp_img_zero(img, cs->zero[i].off + off,
						  n);
			done += n;
			fp_progress_tick(tick, done);
		}
	}
	return err;
}

/*
 * Write the data of every copy with a cluster into its clusters
 * (fp_copy_file(), or fp_copy_mem() for bytes read before), reporting
 * progress on @tick after the @done bytes of zeroing.
 */
static enum fp_err copy_all(struct fp_change_set *cs, struct fp_tick *tick,
			    uint64_t done, struct fp_commit_fail *fail)
{
	struct fp_img *img = fp_fs_img(cs->fs);
	struct fp_copy *c = NULL;
	const struct copy *k;
	size_t i;
	enum fp_err err = FP_OK;

	for (i = 0; !err && i < cs->copy_count; i++) {
		k = &cs->copies[i];
		if (!k->count)
			continue;
		if (!c) {
			err = fp_copy_new(&c);
			if (!err)
				fp_copy_progress(c, fp_progress_tick_on(tick) ?
						    tick : NULL, done);
		}
		if (!err && k->data)
			err = fp_copy_mem(c, img, k->data, k->size,
					  cs->runs + k->first, k->count);
		else if (!err)
			err = fp_copy_file(c, img, k->host, k->size,
					   cs->runs + k->first, k->count);
		if ((err == FP_E_SRC || err == FP_E_CHANGED) && fail) {
			fail->tag = k->tag;
			fail->errnum = fp_copy_errno(c);
		}
	}
	fp_copy_free(c);
	return err;
}

/* ---- metadata ------------------------------------------------------- */

/*
 * Write every FAT copy in two passes.  The first writes the new chains
 * with the ends of pre-existing chains as they are on disk (their own
 * end-of-chain value, which need not be the one this tool writes); the
 * second points those ends at the new clusters.  So, whenever the process
 * stops, every existing chain ends in clusters that are already linked up,
 * and every FAT byte holds its old or its new value.
 */
static enum fp_err write_links(struct fp_change_set *cs)
{
	struct fp_fat *fat = fp_fs_fat(cs->fs);
	const struct fp_geom *g = fp_fs_geom(cs->fs);
	size_t i;
	enum fp_err err = FP_OK;

	for (i = 0; !err && i < cs->link_count; i++)
		err = fp_fat_set(fat, cs->links[i].cl, cs->links[i].old);
	if (!err)
		err = fp_fat_flush(fat, fp_fs_img(cs->fs), g);
	if (err || cs->link_count == 0)
		return err;
	for (i = 0; !err && i < cs->link_count; i++)
		err = fp_fat_set(fat, cs->links[i].cl, cs->links[i].next);
	return err ? err : fp_fat_flush(fat, fp_fs_img(cs->fs), g);
}

/*
 * Every FAT copy twice, after the entries (an entry that lets go of its
 * chain is written by then): the new chain ends, then the freed tails.
 * Whenever it stops, what is cut off is a lost chain or free.
 */
static enum fp_err write_frees(struct fp_change_set *cs)
{
	struct fp_fat *fat = fp_fs_fat(cs->fs);
	const struct fp_geom *g = fp_fs_geom(cs->fs);
	enum fp_err err = FP_OK;
	size_t i;

	for (i = 0; !err && i < cs->cut_count; i++)
		if (cs->cuts[i].cut)
			err = fp_fat_set(fat, cs->cuts[i].cut,
					 fp_fat_eoc(fat));
	if (!err)
		err = fp_fat_flush(fat, fp_fs_img(cs->fs), g);
	for (i = 0; !err && i < cs->cut_count; i++)
		err = fp_fat_free_chain(fat, cs->cuts[i].tail,
					cs->cuts[i].count);
	if (!err)
		err = fp_fat_flush(fat, fp_fs_img(cs->fs), g);
	return err;
}

/*
 * Linux and mtools use the counts of an FSInfo sector whose lead and
 * structure signatures are right, whatever its trail signature (mformat
 * 4.0.32 leaves bytes 508-509 as they were on the medium), so such counts
 * are kept true too.  The trail signature is left alone: the tool writes
 * only the two counts, and --verify still reports it.
 */
static enum fp_err write_fsinfo(struct fp_change_set *cs)
{
	const struct fp_geom *g = fp_fs_geom(cs->fs);
	struct fp_img *img = fp_fs_img(cs->fs);
	struct fp_fsinfo fi = *fp_fs_fsinfo(cs->fs);
	uint64_t off = (uint64_t)g->fsinfo_sec * g->sec_len;
	uint8_t *sec;
	enum fp_err err;

	if (!fi.trusted || (cs->alloc_count == 0 && cs->freed_count == 0))
		return FP_OK;
	fi.free_count = fp_alloc_fsinfo_after(&fi, g->cluster_count,
					      cs->alloc_count,
					      cs->freed_count);
	if (fi.next_free != FP_FSINFO_UNKNOWN && cs->alloc_count)
		fi.next_free = cs->last_alloc;
	sec = malloc(g->sec_len);
	if (!sec)
		return FP_E_NOMEM;
	err = fp_img_read(img, off, sec, g->sec_len);
	if (!err) {
		fp_bpb_fsinfo_encode(sec, &fi);
		err = fp_img_write(img, off, sec, g->sec_len);
	}
	free(sec);
	if (!err)
		fp_fs_set_fsinfo(cs->fs, &fi);
	return err;
}

/*
 * Put the boot field into the sector at @sec of the volume, with, in
 * sector 0, its signature byte as @last (its last write) or its first
 * write asks.
 */
static enum fp_err write_boot_sector(struct fp_change_set *cs, uint32_t sec,
				     int last)
{
	const struct fp_geom *g = fp_fs_geom(cs->fs);
	struct fp_img *img = fp_fs_img(cs->fs);
	struct boot_field *b = &cs->boot;
	uint64_t off = (uint64_t)sec * g->sec_len;
	uint8_t *buf = malloc(g->sec_len);
	enum fp_err err;

	if (!buf)
		return FP_E_NOMEM;
	err = fp_img_read(img, off, buf, g->sec_len);
	if (!err) {
		memcpy(buf + b->off, b->bytes, b->len);
		if (b->sig_off && sec == 0)
			buf[b->sig_off] = last ? b->last_sig : b->first_sig;
		err = fp_img_write(img, off, buf, g->sec_len);
	}
	free(buf);
	return err;
}

/* The boot field's first write, before any directory: when it is held. */
static enum fp_err write_boot_first(struct fp_change_set *cs)
{
	if (!cs->has_boot || cs->boot.first_sig == cs->boot.last_sig)
		return FP_OK;
	return write_boot_sector(cs, 0, 0);
}

/* Its last writes, after the directories: sector 0, then the backup. */
static enum fp_err write_boot_last(struct fp_change_set *cs)
{
	uint32_t backup = fp_fs_geom(cs->fs)->backup_sec;
	enum fp_err err;

	if (!cs->has_boot)
		return FP_OK;
	err = write_boot_sector(cs, 0, 1);
	if (!err && backup)
		err = write_boot_sector(cs, backup, 1);
	return err;
}

/* ---- the order ------------------------------------------------------ */

/* Directory writes of one kind: new clusters, end markers or sectors. */
static enum fp_err write_dirs(struct fp_change_set *cs,
			      enum fp_err (*fn)(struct fp_dir *,
						struct fp_img *,
						const struct fp_geom *))
{
	enum fp_err err = FP_OK;
	size_t i;

	for (i = 0; !err && i < cs->dir_count; i++)
		err = fn(cs->dirs[i], fp_fs_img(cs->fs), fp_fs_geom(cs->fs));
	return err;
}

/*
 * After the changed sectors: the late entries put, written, then the
 * sets unlinked, written (fp_dir_flush() writes only what changed).
 */
static enum fp_err write_lates(struct fp_change_set *cs)
{
	enum fp_err err = FP_OK;
	int unlink;
	size_t i;

	for (unlink = 0; !err && unlink < 2; unlink++) {
		for (i = 0; i < cs->late_count; i++) {
			struct late *l = &cs->lates[i];

			if (unlink && l->count) {
				fp_dir_delete(l->dir, l->slot, l->count,
					      FP_DIR_KEEP);
			} else if (!unlink && !l->count) {
				memcpy(fp_dir_ent(l->dir, l->slot), l->ent,
				       FP_DIRENT_LEN);
				fp_dir_touch(l->dir, l->slot);
			}
		}
		err = write_dirs(cs, fp_dir_flush);
	}
	return err;
}

/* Data first: nothing on disk points at it yet. */
static enum fp_err write_data(struct fp_change_set *cs,
			      const struct fp_commit_opts *o,
			      struct fp_commit_fail *fail)
{
	struct fp_tick tick;
	uint64_t zeroed = zero_bytes(cs);
	enum fp_err err;

	fp_progress_tick_start(&tick, o->progress, zeroed + copy_bytes(cs));
	err = zero_all(cs, o->punch_holes, &tick);
	return err ? err : copy_all(cs, &tick, zeroed, fail);
}

enum fp_err fp_commit_write(struct fp_change_set *cs,
			    const struct fp_commit_opts *o,
			    struct fp_commit_fail *fail)
{
	int frees_only = cs->cut_count && !cs->alloc_count;
	enum fp_err err = FP_OK;

	assert(cs->alloc_count || !cs->link_count);
	/* the differing sectors go with the first FAT write, to each copy */
	if (cs->sync_copies)
		err = fp_fat_copy_sync(fp_fs_fat(cs->fs));
	if (!err)
		err = write_data(cs, o, fail);
	if (!err)
		err = write_boot_first(cs);
	if (!err)
		err = write_dirs(cs, fp_dir_flush_new);
	if (!err)
		err = write_dirs(cs, fp_dir_flush_end);
	if (!err && !frees_only)
		err = write_links(cs);
	if (!err)
		err = write_dirs(cs, fp_dir_flush);
	if (!err && cs->late_count)
		err = write_lates(cs);
	if (!err)
		err = write_boot_last(cs);
	if (!err && cs->cut_count)
		err = write_frees(cs);
	if (!err)
		err = write_fsinfo(cs);
	if (!err && !o->no_sync)
		err = fp_img_sync(fp_fs_img(cs->fs));
	return err;
}
