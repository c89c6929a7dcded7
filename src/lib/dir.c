/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* dir.c - directories in memory: walk, lookup, free slots, entry codec. */
#include "dir.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "le.h"

/* A directory in memory (dir.h); every buffer is owned. */
struct fp_dir_index;

struct fp_dir {
	uint32_t first_cl;	/* 0 for the fixed root */
	uint32_t *cls;		/* the chain, cl_count clusters */
	uint32_t cl_count;
	uint32_t disk_cl_count;	/* clusters that are on disk already */
	uint8_t *buf;		/* len bytes: every entry */
	size_t len;
	uint8_t *dirty;		/* one byte a sector of buf */
	uint32_t end;		/* index of the first end marker, or count */
	uint32_t disk_end;	/* the same as loaded, before any change */
	uint32_t sec_len;
	uint32_t clus_len;
	uint32_t free_from[FP_DIR_SET_MAX + 1];	/* [k]: no free run of k
				 * slots starts below it */
	uint32_t put_end;	/* the slot after the highest set that
				 * fp_dir_put() stored; 0 before any */
	struct fp_dir_index *index;	/* names, made by the first lookup */
};

static size_t sectors_of(const struct fp_dir *d, size_t len)
{
	return (len + d->sec_len - 1) / d->sec_len;
}

/* Buffers for @len bytes of entries, zeroed if @zero (else all are read). */
static enum fp_err dir_alloc(struct fp_dir *d, size_t len, uint32_t cl_cap,
			     int zero)
{
	d->buf = zero ? calloc(1, len ? len : 1) : malloc(len ? len : 1);
	d->dirty = calloc(1, sectors_of(d, len) + 1);
	d->cls = calloc(cl_cap ? cl_cap : 1, sizeof(*d->cls));
	if (!d->buf || !d->dirty || !d->cls)
		return FP_E_NOMEM;
	d->len = len;
	return FP_OK;
}

static uint32_t find_end(const struct fp_dir *d)
{
	uint32_t i, n = fp_dir_count(d);

	for (i = 0; i < n; i++)
		if (fp_dir_ent(d, i)[0] == FP_DIRENT_END)
			break;
	return i;
}

/* Read the chain's clusters into d->buf, one read per run on disk. */
static enum fp_err read_chain(struct fp_dir *d, struct fp_img *img,
			      const struct fp_geom *g)
{
	uint32_t i = 0, j;
	enum fp_err err;

	while (i < d->cl_count) {
		for (j = i + 1; j < d->cl_count; j++)
			if (d->cls[j] != d->cls[j - 1] + 1)
				break;
		err = fp_img_read(img, fp_geom_cl_off(g, d->cls[i]),
				  d->buf + (size_t)i * d->clus_len,
				  (size_t)(j - i) * d->clus_len);
		if (err)
			return err;
		i = j;
	}
	return FP_OK;
}

/* Room for a chain of @count clusters, within the entry limit. */
static enum fp_err alloc_chain(struct fp_dir *d, const struct fp_geom *g,
			       uint32_t count)
{
	uint64_t len = (uint64_t)count * g->clus_len;

	if (count == 0 ||
	    (len > (uint64_t)FP_DIR_MAX_ENTRIES * FP_DIRENT_LEN && count > 1))
		return FP_E_CORRUPT;
	d->cl_count = d->disk_cl_count = count;
	return dir_alloc(d, (size_t)len, count, 0);
}

static enum fp_err load_chain(struct fp_dir *d, struct fp_img *img,
			      const struct fp_geom *g, struct fp_fat *fat)
{
	uint32_t count, last, cl, i;
	enum fp_err err;

	err = fp_fat_chain(fat, d->first_cl, &count, &last);
	if (!err)
		err = alloc_chain(d, g, count);
	if (err)
		return err;
	for (cl = d->first_cl, i = 0; i < count; i++) {
		if (i && (err = fp_fat_get(fat, cl, &cl)))
			return err;
		d->cls[i] = cl;
	}
	return read_chain(d, img, g);
}

/* A directory at @first_cl with no buffers yet; NULL without memory. */
static struct fp_dir *dir_new(const struct fp_geom *g, uint32_t first_cl)
{
	struct fp_dir *dir = calloc(1, sizeof(*dir));

	if (!dir)
		return NULL;
	dir->first_cl = first_cl;
	dir->sec_len = g->sec_len;
	dir->clus_len = g->clus_len;
	return dir;
}

/* Common end of the loaders: free on failure, else find the end. */
static enum fp_err dir_loaded(struct fp_dir *dir, enum fp_err err,
			      struct fp_dir **out)
{
	if (err) {
		fp_dir_free(dir);
		return err;
	}
	dir->end = dir->disk_end = find_end(dir);
	*out = dir;
	return FP_OK;
}

enum fp_err fp_dir_load(struct fp_img *img, const struct fp_geom *g,
			struct fp_fat *fat, uint32_t first_cl,
			struct fp_dir **out)
{
	struct fp_dir *dir = dir_new(g, first_cl);
	enum fp_err err;

	if (!dir)
		return FP_E_NOMEM;
	if (first_cl == 0) {
		err = dir_alloc(dir, (size_t)g->root_len, 0, 0);
		if (!err)
			err = fp_img_read(img, g->root_off, dir->buf,
					  dir->len);
	} else {
		err = load_chain(dir, img, g, fat);
	}
	return dir_loaded(dir, err, out);
}

enum fp_err fp_dir_load_list(struct fp_img *img, const struct fp_geom *g,
			     const uint32_t *cls, uint32_t count,
			     struct fp_dir **out)
{
	struct fp_dir *dir = dir_new(g, count ? cls[0] : 0);
	enum fp_err err;

	if (!dir)
		return FP_E_NOMEM;
	err = alloc_chain(dir, g, count);
	if (!err) {
		memcpy(dir->cls, cls, (size_t)count * sizeof(*cls));
		err = read_chain(dir, img, g);
	}
	return dir_loaded(dir, err, out);
}

static void dot_entry(uint8_t *ent, const char *name, uint32_t cl,
		      uint16_t date, uint16_t time)
{
	uint8_t sfn[11];

	memset(sfn, ' ', sizeof(sfn));
	memcpy(sfn, name, strlen(name));
	fp_dirent_encode(ent, sfn, FP_ATTR_DIR, 0, cl, 0, 1, date, time, 0);
}

enum fp_err fp_dir_create(const struct fp_geom *g, uint32_t cl,
			  uint32_t parent_cl, uint16_t date, uint16_t time,
			  struct fp_dir **out)
{
	struct fp_dir *dir = dir_new(g, cl);
	enum fp_err err;

	err = dir ? dir_alloc(dir, g->clus_len, 1, 1) : FP_E_NOMEM;
	if (err) {
		fp_dir_free(dir);
		return err;
	}
	dir->cls[0] = cl;
	dir->cl_count = 1;
	dot_entry(fp_dir_ent(dir, 0), ".", cl, date, time);
	dot_entry(fp_dir_ent(dir, 1), "..", parent_cl, date, time);
	dir->end = 2;
	*out = dir;
	return FP_OK;
}

/* ---- accessors ------------------------------------------------------ */

uint32_t fp_dir_count(const struct fp_dir *d)
{
	return (uint32_t)(d->len / FP_DIRENT_LEN);
}

uint8_t *fp_dir_ent(const struct fp_dir *d, uint32_t slot)
{
	return d->buf + (size_t)slot * FP_DIRENT_LEN;
}

uint32_t fp_dir_first_cl(const struct fp_dir *d)
{
	return d->first_cl;
}

const uint32_t *fp_dir_cls(const struct fp_dir *d)
{
	return d->cls;
}

uint32_t fp_dir_cl_count(const struct fp_dir *d)
{
	return d->cl_count;
}

uint32_t fp_dir_disk_cl_count(const struct fp_dir *d)
{
	return d->disk_cl_count;
}

uint32_t fp_dir_put_end(const struct fp_dir *d)
{
	return d->put_end;
}

/* Long-name assembly state while walking entries. */
struct lfn_state {
	uint16_t units[20 * FP_LFN_CHARS];
	unsigned next_ord;	/* ordinal expected next; 0: none pending */
	unsigned total;		/* slots in the sequence */
	unsigned pending;	/* slots taken into the sequence so far */
	int complete;		/* slot 1 seen: a short entry may follow */
	uint8_t sum;
	uint32_t first_slot;
	uint32_t *orphans;	/* the iterator's count of dropped slots */
};

/* Drop the sequence so far (plus @extra slots) as orphans. */
static void lfn_drop(struct lfn_state *st, unsigned extra)
{
	*st->orphans += st->pending + extra;
	st->pending = 0;
	st->next_ord = 0;
	st->complete = 0;
}

/*
 * 1 if LFN slot @ent, its 13 units @u decoded, breaks a rule that a
 * reader enforces: a type byte other than 0 (fsck.fat zeroes it), a
 * cluster field other than 0 (fsck.fat zeroes it, FatFs drops the slot),
 * or units after the name's end other than 0xFFFF (FatFs drops the slot).
 */
static int lfn_slot_odd(const uint8_t *ent, const uint16_t *u)
{
	unsigned k = 0;

	if (ent[FP_LFN_TYPE] || fp_le16(ent + FP_LFN_CLUSTER))
		return 1;
	while (k < FP_LFN_CHARS && u[k] != 0)
		k++;
	for (k++; k < FP_LFN_CHARS; k++)
		if (u[k] != 0xFFFF)
			return 1;
	return 0;
}

/*
 * Take one LFN slot.  A sequence starts with the slot flagged last (the
 * highest ordinal) and counts down to 1 with one checksum; anything else
 * is an orphan and drops the sequence, and so is a slot that
 * lfn_slot_odd() refuses, which some readers take apart.  The ordinal is
 * every bit but FP_LFN_LAST, as Linux and FatFs read it (mtools and
 * fsck.fat read the low five bits only): with bit 0x20 or 0x80 set it is
 * over 20, so that such a slot is an orphan to us, whichever reading is
 * taken elsewhere.
 */
static void lfn_slot(struct lfn_state *st, const uint8_t *ent, uint32_t slot)
{
	unsigned ord = ent[FP_LFN_ORD] & ~FP_LFN_LAST;
	uint16_t *u;

	if (ent[FP_LFN_ORD] & FP_LFN_LAST) {
		lfn_drop(st, 0);
		st->total = ord;
		st->next_ord = ord;
		st->sum = ent[FP_LFN_SUM];
		st->first_slot = slot;
	}
	st->complete = 0;
	if (ord == 0 || ord > 20 || ord != st->next_ord ||
	    ent[FP_LFN_SUM] != st->sum) {
		lfn_drop(st, 1);
		return;
	}
	u = st->units + (ord - 1) * FP_LFN_CHARS;
	fp_name_lfn_decode(ent, u);
	if (lfn_slot_odd(ent, u)) {
		lfn_drop(st, 1);
		return;
	}
	st->pending++;
	st->next_ord = ord - 1;
	st->complete = st->next_ord == 0;
}

/* Copy a completed long name into @out if it belongs to @ent. */
static void lfn_finish(struct lfn_state *st, const uint8_t *ent,
		       struct fp_dirent *out)
{
	size_t n = 0, max = (size_t)st->total * FP_LFN_CHARS;

	out->lfn_count = 0;
	out->lfn_bad = 0;
	out->first_slot = out->slot;
	if (!st->complete || fp_name_lfn_sum(ent) != st->sum) {
		lfn_drop(st, 0);
		return;
	}
	while (n < max && st->units[n] != 0)
		n++;
	st->pending = 0;
	st->complete = 0;
	out->lfn_bad = fp_name_lfn_bad(st->units, n);
	if (n == 0 || n > FP_LFN_MAX)
		return;
	memcpy(out->lfn, st->units, n * sizeof(uint16_t));
	out->lfn_count = n;
	out->first_slot = st->first_slot;
}

static void decode_short(const uint8_t *ent, int fat32, uint32_t slot,
			 struct fp_dirent *out)
{
	out->slot = slot;
	memcpy(out->sfn, ent, 11);
	out->attr = ent[DIR_ATTR];
	out->ntres = ent[DIR_NTRES];
	out->cl = fp_dirent_cluster(ent, fat32);
	out->size = fp_le32(ent + DIR_SIZE);
}

/* A fresh state; units are not cleared (only decoded slots are read). */
static void lfn_start(struct lfn_state *st, uint32_t *orphans)
{
	st->next_ord = st->total = st->pending = 0;
	st->complete = 0;
	st->sum = 0;
	st->first_slot = 0;
	st->orphans = orphans;
}

int fp_dir_next(const struct fp_dir *dir, int fat32, struct fp_dir_iter *it,
		struct fp_dirent *out)
{
	struct lfn_state st;
	uint32_t n = fp_dir_count(dir);
	const uint8_t *ent;

	lfn_start(&st, &it->orphans);
	for (; it->pos < n; it->pos++) {
		ent = fp_dir_ent(dir, it->pos);
		if (ent[0] == FP_DIRENT_END)
			break;
		if (ent[0] == FP_DIRENT_FREE) {
			lfn_drop(&st, 0);
		} else if (ent[DIR_ATTR] == FP_ATTR_LFN) {
			lfn_slot(&st, ent, it->pos);
		} else if ((ent[DIR_ATTR] & 0x3F) == FP_ATTR_LFN) {
			/*
			 * A reserved bit set: a long-name slot by the FAT
			 * specification's mask (and to FatFs), a label to
			 * Linux, mtools and fsck.fat.  An orphan either way.
			 */
			lfn_drop(&st, 1);
		} else {
			decode_short(ent, fat32, it->pos, out);
			lfn_finish(&st, ent, out);
			it->pos++;
			return 1;
		}
	}
	lfn_drop(&st, 0);
	it->pos = n;
	return 0;
}

/* ---- the name index ------------------------------------------------ */

/*
 * An open-addressing table of (hash, slot) pairs, at most half full; a
 * key of 0 is an empty place.  Equal hashes are candidates only: every
 * hit is compared for real.
 */
struct index_tab {
	uint64_t *keys;
	uint32_t *slots;
	uint32_t mask;		/* places - 1 */
	uint32_t count;
};

/*
 * names: upper-cased long and short names of files and directories, to
 * the slot a walk for that entry starts at (its first long-name slot);
 * sfns: the 11 bytes of every live short entry, to its slot.
 */
struct fp_dir_index {
	struct index_tab names;
	struct index_tab sfns;
};

static uint64_t hash_done(uint64_t h)
{
	return h ? h : 1;
}

static uint64_t hash_name(const uint16_t *u, size_t n)
{
	return hash_done(fp_name_hash(u, n));
}

static uint64_t hash_sfn(const uint8_t *sfn)
{
	uint64_t h = 0xcbf29ce484222325ull;
	int i;

	for (i = 0; i < 11; i++) {
		h ^= sfn[i];
		h *= 0x100000001b3ull;
	}
	return hash_done(h);
}

static void tab_insert(struct index_tab *t, uint64_t h, uint32_t slot)
{
	uint32_t i = (uint32_t)h & t->mask;

	while (t->keys[i])
		i = (i + 1) & t->mask;
	t->keys[i] = h;
	t->slots[i] = slot;
	t->count++;
}

static enum fp_err tab_put(struct index_tab *t, uint64_t h, uint32_t slot)
{
	struct index_tab n = { NULL, NULL, 0, 0 };
	uint32_t i;

	if (t->keys && 2 * (t->count + 1) <= t->mask + 1) {
		tab_insert(t, h, slot);
		return FP_OK;
	}
	n.mask = t->keys ? 2 * t->mask + 1 : 15;
	n.keys = calloc((size_t)n.mask + 1, sizeof(*n.keys));
	n.slots = malloc(((size_t)n.mask + 1) * sizeof(*n.slots));
	if (!n.keys || !n.slots) {
		free(n.keys);
		free(n.slots);
		return FP_E_NOMEM;
	}
	for (i = 0; t->keys && i <= t->mask; i++)
		if (t->keys[i])
			tab_insert(&n, t->keys[i], t->slots[i]);
	free(t->keys);
	free(t->slots);
	*t = n;
	tab_insert(t, h, slot);
	return FP_OK;
}

static void index_free(struct fp_dir_index *x)
{
	if (!x)
		return;
	free(x->names.keys);
	free(x->names.slots);
	free(x->sfns.keys);
	free(x->sfns.slots);
	free(x);
}

/* 1 if @e is what fp_dir_lookup() looks at: no label, no dot entry. */
static int is_named(const struct fp_dirent *e)
{
	return !fp_dir_is_label(e->attr) && !fp_dir_dots(e->sfn);
}

static enum fp_err index_add(struct fp_dir_index *x,
			     const struct fp_dirent *e)
{
	uint16_t sname[12];
	size_t n;
	enum fp_err err = tab_put(&x->sfns, hash_sfn(e->sfn), e->slot);

	if (err || !is_named(e))
		return err;
	n = fp_name_sfn_decode(e->sfn, e->ntres, sname);
	err = tab_put(&x->names, hash_name(sname, n), e->first_slot);
	if (!err && e->lfn_count)
		err = tab_put(&x->names, hash_name(e->lfn, e->lfn_count),
			      e->first_slot);
	return err;
}

/*
 * Index the entries from slot @from on (@all), or the one entry set that
 * starts there; on failure drop the index.
 */
static void index_from(struct fp_dir *d, uint32_t from, int all)
{
	struct fp_dir_iter it = { from, 0 };
	struct fp_dirent e;

	while (d->index && fp_dir_next(d, 0, &it, &e)) {
		if (index_add(d->index, &e)) {
			index_free(d->index);
			d->index = NULL;
		}
		if (!all)
			break;
	}
}

/*
 * Directories of up to this many slots (1 KiB) are walked, not indexed:
 * a walk of 32 slots costs about what hashing a name does, and a write
 * keeps every directory of its paths (an index is 0.5 KiB more each).
 */
#define INDEX_MIN_SLOTS 32u

/*
 * The index, made on first use; NULL for a small directory or without
 * memory (then walk).
 */
static struct fp_dir_index *get_index(struct fp_dir *d)
{
	if (!d->index && fp_dir_count(d) <= INDEX_MIN_SLOTS)
		return NULL;
	if (!d->index) {
		d->index = calloc(1, sizeof(*d->index));
		index_from(d, 0, 1);
	}
	return d->index;
}

/* 1 if @e is called @name, as fp_dir_lookup() compares. */
static int has_name(const struct fp_dirent *e, const uint16_t *name,
		    size_t count)
{
	uint16_t sname[12];
	size_t slen;

	if (!is_named(e))
		return 0;
	if (e->lfn_count && fp_name_equal(e->lfn, e->lfn_count, name, count))
		return 1;
	slen = fp_name_sfn_decode(e->sfn, e->ntres, sname);
	return fp_name_equal(sname, slen, name, count);
}

static int lookup_walk(const struct fp_dir *dir, int fat32,
		       const uint16_t *name, size_t count,
		       struct fp_dirent *out)
{
	struct fp_dir_iter it = { 0, 0 };
	struct fp_dirent e;

	while (fp_dir_next(dir, fat32, &it, &e)) {
		if (has_name(&e, name, count)) {
			*out = e;
			return 1;
		}
	}
	return 0;
}

int fp_dir_lookup(struct fp_dir *dir, int fat32, const uint16_t *name,
		  size_t count, struct fp_dirent *out)
{
	struct fp_dir_index *x = get_index(dir);
	uint64_t h = hash_name(name, count);
	struct fp_dir_iter it;
	struct fp_dirent e;
	uint32_t i, best = UINT32_MAX;

	if (!x)
		return lookup_walk(dir, fat32, name, count, out);
	for (i = (uint32_t)h & x->names.mask; x->names.keys && x->names.keys[i];
	     i = (i + 1) & x->names.mask) {
		if (x->names.keys[i] != h || x->names.slots[i] >= best)
			continue;
		it.pos = x->names.slots[i];
		it.orphans = 0;
		if (fp_dir_next(dir, fat32, &it, &e) &&
		    has_name(&e, name, count)) {
			best = x->names.slots[i];
			*out = e;
		}
	}
	return best != UINT32_MAX;
}

uint32_t fp_dir_after_end(const struct fp_dir *dir, uint32_t *first)
{
	uint32_t i, n = fp_dir_count(dir), count = 0;
	uint8_t b;

	for (i = dir->end + 1; i < n; i++) {
		b = fp_dir_ent(dir, i)[0];
		if (b == FP_DIRENT_END || b == FP_DIRENT_FREE)
			continue;
		if (!count++)
			*first = i;
	}
	return count;
}

int fp_dir_sfn_used(struct fp_dir *dir, const uint8_t sfn[11])
{
	struct fp_dir_index *x = get_index(dir);
	uint64_t h = hash_sfn(sfn);
	const uint8_t *ent;
	uint32_t i;

	for (i = 0; !x && i < dir->end; i++) {
		ent = fp_dir_ent(dir, i);
		if (ent[0] != FP_DIRENT_FREE &&
		    (ent[DIR_ATTR] & 0x3F) != FP_ATTR_LFN &&
		    !memcmp(ent, sfn, 11))
			return 1;
	}
	for (i = x ? (uint32_t)h & x->sfns.mask : 0;
	     x && x->sfns.keys && x->sfns.keys[i];
	     i = (i + 1) & x->sfns.mask)
		if (x->sfns.keys[i] == h &&
		    !memcmp(fp_dir_ent(dir, x->sfns.slots[i]), sfn, 11))
			return 1;
	return 0;
}

static int slot_free(const struct fp_dir *dir, uint32_t i)
{
	return i >= dir->end || fp_dir_ent(dir, i)[0] == FP_DIRENT_FREE;
}

int fp_dir_find_free(struct fp_dir *dir, uint32_t count, uint32_t from,
		     uint32_t *slot)
{
	uint32_t per = dir->clus_len / FP_DIRENT_LEN, n = fp_dir_count(dir);
	uint32_t new_from = dir->disk_cl_count * per, i, run = 0;
	uint32_t *known = &dir->free_from[count];
	int whole = from <= *known;	/* the search covers all from 0 */

	assert(count >= 1 && count <= FP_DIR_SET_MAX);
	/*
	 * Slots are only taken while a plan runs, so no run of @count that
	 * was not there last time has appeared below where it stopped; a
	 * search that starts higher up learns nothing about what is below.
	 */
	for (i = whole ? *known : from; i < n; i++) {
		/*
		 * Each cluster on disk is written on its own, the new ones
		 * together before they are linked: a set may cross from one
		 * new cluster into the next, but never out of one on disk.
		 */
		if (dir->first_cl && i % per == 0 && i <= new_from)
			run = 0;
		run = slot_free(dir, i) ? run + 1 : 0;
		if (run == count) {
			*slot = i + 1 - count;
			if (whole)
				*known = *slot;
			return 1;
		}
	}
	if (whole)
		*known = n - run;
	return 0;
}

uint32_t fp_dir_grow_slot(const struct fp_dir *dir, uint32_t from)
{
	uint32_t per = dir->clus_len / FP_DIRENT_LEN, n = fp_dir_count(dir);
	uint32_t new_from = dir->disk_cl_count * per, s = n;

	assert(dir->first_cl && from <= n && new_from <= n);
	while (s > from && s > new_from && slot_free(dir, s - 1))
		s--;
	return s;
}

enum fp_err fp_dir_grow(struct fp_dir *dir, uint32_t cl)
{
	size_t len = dir->len + dir->clus_len;
	uint8_t *buf, *dirty;
	uint32_t *cls;

	if (dir->first_cl == 0)
		return FP_E_ROOTFULL;
	if (len > (size_t)FP_DIR_MAX_ENTRIES * FP_DIRENT_LEN)
		return FP_E_DIRFULL;
	buf = realloc(dir->buf, len);
	if (!buf)
		return FP_E_NOMEM;
	dir->buf = buf;
	dirty = realloc(dir->dirty, sectors_of(dir, len) + 1);
	if (!dirty)
		return FP_E_NOMEM;
	dir->dirty = dirty;
	cls = realloc(dir->cls, (dir->cl_count + 1) * sizeof(*cls));
	if (!cls)
		return FP_E_NOMEM;
	dir->cls = cls;
	memset(buf + dir->len, 0, dir->clus_len);
	memset(dirty + sectors_of(dir, dir->len), 0,
	       sectors_of(dir, len) - sectors_of(dir, dir->len) + 1);
	cls[dir->cl_count++] = cl;
	dir->len = len;
	return FP_OK;
}

void fp_dir_mark_on_disk(struct fp_dir *dir)
{
	dir->disk_cl_count = dir->cl_count;
}

void fp_dir_touch(struct fp_dir *dir, uint32_t slot)
{
	dir->dirty[(size_t)slot * FP_DIRENT_LEN / dir->sec_len] = 1;
}

void fp_dir_put(struct fp_dir *dir, uint32_t slot, const uint8_t *ents,
		uint32_t count)
{
	uint32_t i, after = slot + count, n = fp_dir_count(dir);

	assert(after <= n);
	for (i = dir->end; i < slot; i++) {
		memset(fp_dir_ent(dir, i), 0, FP_DIRENT_LEN);
		fp_dir_ent(dir, i)[0] = FP_DIRENT_FREE;
		fp_dir_touch(dir, i);
	}
	memcpy(fp_dir_ent(dir, slot), ents, (size_t)count * FP_DIRENT_LEN);
	for (i = slot; i < after; i++)
		fp_dir_touch(dir, i);
	if (dir->index)
		index_from(dir, slot, 0);
	if (after > dir->put_end)
		dir->put_end = after;
	if (after > dir->end) {
		if (after < n && fp_dir_ent(dir, after)[0] != FP_DIRENT_END) {
			memset(fp_dir_ent(dir, after), 0, FP_DIRENT_LEN);
			fp_dir_touch(dir, after);
		}
		dir->end = after;
	}
}

void fp_dir_delete(struct fp_dir *dir, uint32_t slot, uint32_t count,
		   enum fp_dir_reuse reuse)
{
	uint32_t i;

	assert(count >= 1 && slot + count <= dir->end);
	for (i = slot; i < slot + count; i++) {
		fp_dir_ent(dir, i)[0] = FP_DIRENT_FREE;
		fp_dir_touch(dir, i);
	}
	/*
	 * The index may keep the set's names: a lookup checks every hit
	 * against the entries, which no longer hold them.  fp_dir_find_free()
	 * takes it that no free run appears below where it last stopped;
	 * with FP_DIR_REUSE this one does, so it is told.
	 */
	if (reuse == FP_DIR_KEEP)
		return;
	for (i = 1; i <= FP_DIR_SET_MAX; i++)
		if (dir->free_from[i] > slot)
			dir->free_from[i] = slot;
}

/* Byte offset on disk of byte @pos of the directory. */
static uint64_t disk_off(const struct fp_dir *d, const struct fp_geom *g,
			 size_t pos)
{
	if (d->first_cl == 0)
		return g->root_off + pos;
	return fp_geom_cl_off(g, d->cls[pos / d->clus_len]) +
	       pos % d->clus_len;
}

enum fp_err fp_dir_flush_new(struct fp_dir *dir, struct fp_img *img,
			     const struct fp_geom *g)
{
	uint32_t i = dir->disk_cl_count, j;
	enum fp_err err;

	while (i < dir->cl_count) {
		for (j = i + 1; j < dir->cl_count; j++)
			if (dir->cls[j] != dir->cls[j - 1] + 1)
				break;
		err = fp_img_write(img, fp_geom_cl_off(g, dir->cls[i]),
				   dir->buf + (size_t)i * dir->clus_len,
				   (size_t)(j - i) * dir->clus_len);
		if (err)
			return err;
		i = j;
	}
	return FP_OK;
}

enum fp_err fp_dir_flush_end(struct fp_dir *dir, struct fp_img *img,
			     const struct fp_geom *g)
{
	uint32_t per = dir->clus_len / FP_DIRENT_LEN, i, n;
	uint32_t old = dir->disk_cl_count * per;
	enum fp_err err = FP_OK;
	uint8_t *free_slots;

	if (dir->first_cl == 0 || dir->cl_count == dir->disk_cl_count ||
	    dir->disk_end >= old)
		return FP_OK;
	free_slots = calloc(1, dir->clus_len);
	if (!free_slots)
		return FP_E_NOMEM;
	for (i = 0; i < per; i++)
		free_slots[(size_t)i * FP_DIRENT_LEN] = FP_DIRENT_FREE;
	for (i = dir->disk_end; !err && i < old; i += n) {
		n = per - i % per;	/* to the end of slot i's cluster */
		err = fp_img_write(img, disk_off(dir, g,
						 (size_t)i * FP_DIRENT_LEN),
				   free_slots, (size_t)n * FP_DIRENT_LEN);
	}
	free(free_slots);
	return err;
}

enum fp_err fp_dir_flush(struct fp_dir *dir, struct fp_img *img,
			 const struct fp_geom *g)
{
	size_t old_len = dir->first_cl ? (size_t)dir->disk_cl_count *
			 dir->clus_len : dir->len;
	size_t s, e, nsec = sectors_of(dir, old_len);
	enum fp_err err;

	for (s = 0; s < nsec; s = e) {
		if (!dir->dirty[s]) {
			e = s + 1;
			continue;
		}
		for (e = s + 1; e < nsec && dir->dirty[e]; e++)
			if (disk_off(dir, g, e * dir->sec_len) !=
			    disk_off(dir, g, (e - 1) * dir->sec_len) +
			    dir->sec_len)
				break;
		err = fp_img_write(img, disk_off(dir, g, s * dir->sec_len),
				   dir->buf + s * dir->sec_len,
				   (e - s) * dir->sec_len);
		if (err)
			return err;
	}
	memset(dir->dirty, 0, nsec);
	return FP_OK;
}

void fp_dir_free(struct fp_dir *dir)
{
	if (!dir)
		return;
	index_free(dir->index);
	free(dir->buf);
	free(dir->dirty);
	free(dir->cls);
	free(dir);
}

/* ---- aliases -------------------------------------------------------- */

#define ALIAS_NUMERIC 4		/* BASIS~1 .. BASIS~4 before hashed bases */
#define ALIAS_ROUNDS 64		/* hashed bases tried, each with ~1 .. ~9 */

/* A free alias from hashed bases of @basis (fp_name_alias_hashed()). */
static int hashed_alias(struct fp_dir *dir, const uint8_t basis[11],
			const uint16_t *name, size_t n, uint8_t sfn[11])
{
	uint8_t hb[11];
	uint32_t round, tail;

	for (round = 0; round < ALIAS_ROUNDS; round++) {
		fp_name_alias_hashed(basis, name, n, round, hb);
		for (tail = 1; tail <= 9; tail++) {
			fp_name_alias_tail(hb, tail, sfn);
			if (!fp_dir_sfn_used(dir, sfn))
				return 1;
		}
	}
	return 0;
}

/*
 * A free alias for @name in @dir, as Windows picks one: the basis itself
 * when nothing was lost and it is free, else BASIS~1 .. ~4, else hashed
 * bases (so that many names with one basis cost a few tries each, not one
 * per name before them), and only then every other tail of the basis.
 * Returns 1 with @sfn set, or 0.
 */
static int free_alias(struct fp_dir *dir, const uint8_t basis[11],
		      int lossy, const uint16_t *name, size_t n,
		      uint8_t sfn[11])
{
	uint32_t tail;

	if (!lossy && !fp_dir_sfn_used(dir, basis)) {
		memcpy(sfn, basis, 11);
		return 1;
	}
	for (tail = 1; tail <= ALIAS_NUMERIC; tail++) {
		fp_name_alias_tail(basis, tail, sfn);
		if (!fp_dir_sfn_used(dir, sfn))
			return 1;
	}
	if (hashed_alias(dir, basis, name, n, sfn))
		return 1;
	for (tail = ALIAS_NUMERIC + 1; tail <= 999999; tail++) {
		fp_name_alias_tail(basis, tail, sfn);
		if (!fp_dir_sfn_used(dir, sfn))
			return 1;
	}
	return 0;
}

enum fp_err fp_dir_pick_sfn(struct fp_dir *dir, const uint16_t *name,
			    size_t n, uint8_t sfn[11], uint8_t *ntres,
			    int *lfn)
{
	uint8_t basis[11], alias[11];
	int lossy;

	if (fp_name_to_sfn(name, n, sfn, ntres)) {
		*lfn = 0;
		return FP_OK;
	}
	fp_name_alias_basis(name, n, basis, &lossy);
	if (!free_alias(dir, basis, lossy, name, n, alias))
		return FP_E_ALIAS;
	memcpy(sfn, alias, 11);
	*ntres = 0;
	*lfn = 1;
	return FP_OK;
}
