/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* fat.c - the active FAT through a cache of windows: get, set, flush. */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "fat.h"
#include "le.h"
#include "platform.h"

/* Window buffers come in chunks of 8 FAT32 windows, one huge page. */
#define CHUNK_LEN (2u * 1024u * 1024u)
/* Entries of a packed window that do not link to the next cluster. */
#define PATCH_MAX 32u
#define RANGE_ENDS 8u	/* chain ends a ranged window notes */

#define FAT32_MASK 0x0FFFFFFFu
#define FAT32_HIGH 0xF0000000u
#define PAIR_HIGH 0xF0000000F0000000ull	/* FAT32_HIGH of two entries */
#define PAIR_STEP 0x0000000200000002ull	/* the next two links */

/* An entry of a packed window that does not link to the next cluster. */
struct fp_fat_patch {
	uint32_t i;		/* index in the window */
	uint32_t raw;		/* the entry, top 4 bits included */
};

/*
 * One window of the active copy.  buf holds the window's bytes, NULL while
 * it is not loaded; dirty has one byte per sector (kept when buf goes).
 *
 * A FAT32 window whose entries all link to the next cluster but for at
 * most PATCH_MAX (what preallocated chains make of a window) is packed:
 * patch lists those entries by index and buf is given back, so that new
 * chains cost no memory while they wait for the flush.  packed_dirty says
 * that the whole window is still to be written.
 */
struct fp_fat_win {
	uint8_t *buf;
	uint8_t *dirty;
	uint32_t dirty_count;	/* dirty sectors; a dirty window stays */
	uint32_t linked;	/* entries set by fp_fat_set_chain() */
	uint64_t used;		/* fat->clock at the last use */
	int compared;		/* checked against the other copies */
	int differs;		/* ... and another copy differs in it */
	int zero;		/* all zeros as read (a hole, or tested), unchanged */
	int zero_checked;	/* zero tested since the window was read */
	/*
	 * ranged: since the window was zero, link32 alone changed it, in
	 * one range that grew at its ends: entries lo .. hi - 1, each once,
	 * with the chain ends at ends[]; the rest is still zero.  Once the
	 * range is the whole window, the window packs without a scan.
	 */
	int ranged;
	uint32_t lo, hi;
	uint32_t end_count;
	uint32_t ends[RANGE_ENDS];
	struct fp_fat_patch *patch;	/* packed: non-NULL */
	uint32_t patch_count;
	int packed_dirty;
};

/*
 * What differs between FAT12, FAT16 and FAT32, chosen once when the FAT
 * is opened: the entry accessors on a window's bytes and the loops over
 * many entries, so that no entry pays for a test of the FAT type and the
 * scans (verify, the free bitmap) make no call per entry.  @p is the
 * first byte of a window (for FAT12 an even entry: a window holds the
 * whole FAT12), @i an entry's index in it.
 */
struct fp_fat_ops {
	uint32_t bits;		/* 12, 16, 32: bits per entry on disk */
	uint32_t mask;		/* largest value: EOC; BAD is mask - 8 */
	/* entry @i, unmasked (FAT32 keeps its top 4 bits) */
	uint32_t (*get)(const uint8_t *p, uint32_t i);
	/*
	 * Store masked @val as entry @i, keeping the other nibble of a
	 * shared FAT12 byte and the top 4 bits of a FAT32 entry; returns
	 * the offset of the first byte touched ((bits + 7) / 8 of them).
	 */
	size_t (*put)(uint8_t *p, uint32_t i, uint32_t val);
	/* vals[k] = entry @i + k, masked, for k < @n */
	void (*get_run)(const uint8_t *p, uint32_t i, uint32_t n,
			uint32_t *vals);
	/* how many of the @n entries from @i hold @next, @next + 1, ... */
	uint32_t (*seq)(const uint8_t *p, uint32_t i, uint32_t n,
			uint32_t next);
	/* bit k set: entry @i + k is free, for k < @n <= 64 */
	uint64_t (*free_mask)(const uint8_t *p, uint32_t i, uint32_t n);
};

/*
 * The active FAT copy (see fat.h).  The image and the geometry are
 * borrowed; the windows and everything below them are owned.
 */
struct fp_fat {
	const struct fp_fat_ops *ops;	/* of the FAT type */
	enum fp_fat_type type;
	uint32_t max_cl;	/* highest valid cluster number */
	uint32_t sec_len;
	struct fp_img *img;
	uint64_t len;		/* bytes of entries 0 .. max_cl, in sectors */
	uint32_t win_len;	/* bytes per window (the last may be shorter) */
	uint32_t win_cl;	/* entries per window */
	uint32_t win_count;
	struct fp_fat_win *win;
	uint8_t **chunks;	/* where window buffers come from */
	uint32_t chunk_count;
	uint32_t chunk_left;	/* unused windows in the last chunk */
	uint32_t loaded;	/* windows in memory */
	uint32_t cache_max;	/* clean windows kept at most */
	uint64_t clock;		/* use counter for the LRU choice */
	uint64_t reads;		/* windows read from the image */
	uint32_t packed;	/* windows packed (see below) */
	uint8_t *spare;		/* window buffers given back, a list */
	uint8_t *gen;		/* packed windows unpacked for a write */
	/* copy checking: other copies compared with each window read */
	const struct fp_geom *geom;	/* for the copies */
	int check_copies;
	uint8_t *scratch;	/* FP_FAT_PART_LEN bytes of another copy */
	struct fp_fat_diff *diff;	/* one per copy, while checking copies */
};

/* ---- entry accessors, one set per FAT type --------------------------- */

/* FAT32 links @next and @next + 1 as one 8-byte word (fp_le64 order). */
static uint64_t pair32(uint32_t next)
{
	return (uint64_t)next | (uint64_t)(next + 1) << 32;
}

/*
 * GCC and clang vector types, where the host is little-endian: 16-byte
 * loads and stores of four FAT32 entries (SSE2 on x86-64), which GCC 12
 * at -O2 makes of none of the plain loops below.  Elsewhere the plain
 * loops do the same work, two entries a word.
 */
#if defined(__GNUC__) && FP_LE_HOST
#define FP_VEC 1
typedef uint32_t vec4 __attribute__((vector_size(16)));
#else
#define FP_VEC 0
#endif

/*
 * The @len bytes at @p (a multiple of 32) ORed as FAT32 entries, two in
 * one word: even entries in the low half, odd ones in the high half.
 */
static inline uint64_t or_run(const uint8_t *p, uint32_t len)
{
	uint32_t k;
#if FP_VEC
	vec4 x = { 0 }, y = { 0 }, v, u;

	for (k = 0; k < len; k += 32) {
		memcpy(&v, p + k, sizeof(v));
		memcpy(&u, p + k + 16, sizeof(u));
		x |= v;
		y |= u;
	}
	x |= y;
	return (uint64_t)(x[0] | x[2]) | (uint64_t)(x[1] | x[3]) << 32;
#else
	uint64_t a = 0, b = 0, c = 0, d = 0;

	for (k = 0; k < len; k += 32) {
		a |= fp_le64(p + k);
		b |= fp_le64(p + k + 8);
		c |= fp_le64(p + k + 16);
		d |= fp_le64(p + k + 24);
	}
	return a | b | c | d;
#endif
}

/* The 64 FAT32 entries at @p ORed, as two in one word. */
static uint64_t or64(const uint8_t *p)
{
	return or_run(p, 256);
}

static uint32_t get12(const uint8_t *p, uint32_t i)
{
	uint32_t v = fp_le16(p + i + i / 2);

	return i & 1 ? v >> 4 : v & 0xFFF;
}

static uint32_t get16(const uint8_t *p, uint32_t i)
{
	return fp_le16(p + (size_t)i * 2);
}

static uint32_t get32(const uint8_t *p, uint32_t i)
{
	return fp_le32(p + (size_t)i * 4);
}

/* An odd entry owns the high nibble of its first byte, an even one the
 * low nibble of its second. */
static size_t put12(uint8_t *p, uint32_t i, uint32_t val)
{
	size_t off = (size_t)i + i / 2;

	p += off;
	if (i & 1) {
		p[0] = (uint8_t)((p[0] & 0x0F) | ((val & 0x0F) << 4));
		p[1] = (uint8_t)(val >> 4);
	} else {
		p[0] = (uint8_t)val;
		p[1] = (uint8_t)((p[1] & 0xF0) | (val >> 8));
	}
	return off;
}

static size_t put16(uint8_t *p, uint32_t i, uint32_t val)
{
	size_t off = (size_t)i * 2;

	fp_put_le16(p + off, (uint16_t)val);
	return off;
}

static size_t put32(uint8_t *p, uint32_t i, uint32_t val)
{
	size_t off = (size_t)i * 4;

	fp_put_le32(p + off, val | (fp_le32(p + off) & FAT32_HIGH));
	return off;
}

/*
 * The loops, written once; each type's copy below passes its own getter
 * and mask as constants, so the compiler inlines the getter into the loop.
 */
typedef uint32_t entry_get_fn(const uint8_t *p, uint32_t i);

static inline void run_loop(entry_get_fn *get, uint32_t mask,
			    const uint8_t *p, uint32_t i, uint32_t n,
			    uint32_t *vals)
{
	uint32_t k;

	for (k = 0; k < n; k++)
		vals[k] = get(p, i + k) & mask;
}

static inline uint32_t seq_loop(entry_get_fn *get, uint32_t mask,
				const uint8_t *p, uint32_t i, uint32_t n,
				uint32_t next)
{
	uint32_t k;

	for (k = 0; k < n; k++)
		if ((get(p, i + k) & mask) != next + k)
			break;
	return k;
}

static inline uint64_t free_loop(entry_get_fn *get, uint32_t mask,
				 const uint8_t *p, uint32_t i, uint32_t n)
{
	uint64_t m = 0;
	uint32_t k;

	for (k = 0; k < n; k++)
		if ((get(p, i + k) & mask) == FP_FAT_FREE)
			m |= 1ull << k;
	return m;
}

static void run12(const uint8_t *p, uint32_t i, uint32_t n, uint32_t *vals)
{
	run_loop(get12, 0xFFFu, p, i, n, vals);
}

static void run16(const uint8_t *p, uint32_t i, uint32_t n, uint32_t *vals)
{
	run_loop(get16, 0xFFFFu, p, i, n, vals);
}

static void run32(const uint8_t *p, uint32_t i, uint32_t n, uint32_t *vals)
{
	run_loop(get32, FAT32_MASK, p, i, n, vals);
}

static uint32_t seq12(const uint8_t *p, uint32_t i, uint32_t n,
		      uint32_t next)
{
	return seq_loop(get12, 0xFFFu, p, i, n, next);
}

static uint32_t seq16(const uint8_t *p, uint32_t i, uint32_t n,
		      uint32_t next)
{
	return seq_loop(get16, 0xFFFFu, p, i, n, next);
}

/*
 * How many of the @n FAT32 entries from entry @i at @p hold @next,
 * @next + 1, ...: eight entries a test, two in a word (verify asks this
 * of every cluster in use); the entries of a failed test are looked at
 * one by one.
 */
static uint32_t seq32(const uint8_t *p, uint32_t i, uint32_t n,
		      uint32_t next)
{
	uint64_t a = pair32(next), d;
	uint32_t k = 0;

	p += (size_t)i * 4;
	for (; k + 8 <= n; k += 8, a += 4 * PAIR_STEP) {
		d = (fp_le64(p + (size_t)k * 4) ^ a) |
		    (fp_le64(p + (size_t)k * 4 + 8) ^ (a + PAIR_STEP)) |
		    (fp_le64(p + (size_t)k * 4 + 16) ^ (a + 2 * PAIR_STEP)) |
		    (fp_le64(p + (size_t)k * 4 + 24) ^ (a + 3 * PAIR_STEP));
		if (d & ~PAIR_HIGH)
			break;
	}
	for (; k < n; k++)
		if ((fp_le32(p + (size_t)k * 4) & FAT32_MASK) != next + k)
			break;
	return k;
}

static uint64_t free12(const uint8_t *p, uint32_t i, uint32_t n)
{
	return free_loop(get12, 0xFFFu, p, i, n);
}

static uint64_t free16(const uint8_t *p, uint32_t i, uint32_t n)
{
	return free_loop(get16, 0xFFFFu, p, i, n);
}

/* Mostly free entries in a fresh FAT32: one test for all of them. */
static uint64_t free32(const uint8_t *p, uint32_t i, uint32_t n)
{
	if (n == 64 && (or64(p + (size_t)i * 4) & ~PAIR_HIGH) == 0)
		return ~0ull;
	return free_loop(get32, FAT32_MASK, p, i, n);
}

static const struct fp_fat_ops fat12_ops = {
	12, 0xFFFu, get12, put12, run12, seq12, free12,
};
static const struct fp_fat_ops fat16_ops = {
	16, 0xFFFFu, get16, put16, run16, seq16, free16,
};
static const struct fp_fat_ops fat32_ops = {
	32, FAT32_MASK, get32, put32, run32, seq32, free32,
};

/* The accessors of FAT @type; NULL for no FAT type. */
static const struct fp_fat_ops *ops_of(enum fp_fat_type type)
{
	switch (type) {
	case FP_FAT12:
		return &fat12_ops;
	case FP_FAT16:
		return &fat16_ops;
	case FP_FAT32:
		return &fat32_ops;
	default:
		return NULL;
	}
}

/*
 * Check that @g is a FAT this module can hold, of the type that @ops
 * handles; *need = bytes holding entries 0 .. max_cl.
 */
static enum fp_err check_geom(const struct fp_geom *g,
			      const struct fp_fat_ops *ops, struct fp_img *img,
			      uint64_t *need)
{
	if (!ops)
		return FP_E_INVAL;
	if (g->sec_len == 0 || g->sec_len > FP_SECTOR_MAX ||
	    FP_FAT_WIN_LEN % g->sec_len != 0 || g->fat_len % g->sec_len != 0)
		return FP_E_INVAL;
	/* the highest cluster number must stay below the BAD value */
	if (g->cluster_count == 0 ||
	    g->cluster_count > ops->mask - 10 ||
	    g->fat_count == 0 || g->active_fat >= g->fat_count)
		return FP_E_INVAL;
	*need = (((uint64_t)fp_geom_max_cl(g) + 1) * ops->bits + 7) / 8;
	if (*need > g->fat_len || g->fat_len / g->sec_len > UINT32_MAX)
		return FP_E_BPB;
	if (g->fat_off + (uint64_t)g->active_fat * g->fat_len + *need >
	    fp_img_len(img))
		return FP_E_TRUNC;
	return FP_OK;
}

/*
 * FAT12 and FAT16 (at most 6 KiB and 128 KiB) are one window, so a FAT12
 * entry never straddles two; FAT32 windows hold whole 4-byte entries.
 */
enum fp_err fp_fat_open(struct fp_img *img, const struct fp_geom *g,
			struct fp_fat **out)
{
	const struct fp_fat_ops *ops = ops_of(g->type);
	struct fp_fat *fat;
	uint64_t need, len;
	enum fp_err err;

	err = check_geom(g, ops, img, &need);
	if (err)
		return err;
	fat = calloc(1, sizeof(*fat));
	if (!fat)
		return FP_E_NOMEM;
	len = (need + g->sec_len - 1) / g->sec_len * g->sec_len;
	fat->ops = ops;
	fat->type = g->type;
	fat->max_cl = fp_geom_max_cl(g);
	fat->sec_len = g->sec_len;
	fat->img = img;
	fat->geom = g;
	fat->len = len;
	if (g->type == FP_FAT32 && len > FP_FAT_WIN_LEN) {
		fat->win_len = FP_FAT_WIN_LEN;
		fat->win_cl = FP_FAT_WIN_LEN / 4;
	} else {
		fat->win_len = (uint32_t)len;
		fat->win_cl = fat->max_cl + 1;
	}
	fat->win_count = (uint32_t)((len + fat->win_len - 1) / fat->win_len);
	fat->win = calloc(fat->win_count, sizeof(*fat->win));
	if (!fat->win) {
		fp_fat_free(fat);
		return FP_E_NOMEM;
	}
	fp_fat_cache(fat, FP_FAT_CACHE_LEN);
	*out = fat;
	return FP_OK;
}

void fp_fat_cache(struct fp_fat *fat, uint64_t len)
{
	uint64_t n = len / fat->win_len;

	fat->cache_max = n < 1 ? 1 : n > fat->win_count ? fat->win_count :
			 (uint32_t)n;
}

uint32_t fp_fat_max_cl(const struct fp_fat *fat)
{
	return fat->max_cl;
}

uint32_t fp_fat_win_cl(const struct fp_fat *fat)
{
	return fat->win_cl;
}

uint32_t fp_fat_win_count(const struct fp_fat *fat)
{
	return fat->win_count;
}

uint32_t fp_fat_eoc(const struct fp_fat *fat)
{
	return fat->ops->mask;
}

enum fp_fat_kind fp_fat_kind(const struct fp_fat *fat, uint32_t val)
{
	return fp_fat_kind_of(fat->type, fat->max_cl, val);
}

struct fp_fat_diff fp_fat_copy_diff(const struct fp_fat *fat,
				    uint32_t copy)
{
	struct fp_fat_diff none = { 0, 0 };

	if (!fat->diff || copy >= fat->geom->fat_count)
		return none;
	return fat->diff[copy];
}

void fp_fat_stats(const struct fp_fat *fat, struct fp_fat_stats *st)
{
	st->len = fat->len;
	st->win_len = fat->win_len;
	st->cache_max = fat->cache_max;
	st->loaded = fat->loaded;
	st->packed = fat->packed;
	st->reads = fat->reads;
}

/* Bytes of window @w (the last one may be short). */
static uint32_t win_bytes(const struct fp_fat *fat, uint32_t w)
{
	uint64_t off = (uint64_t)w * fat->win_len;

	return fat->len - off < fat->win_len ? (uint32_t)(fat->len - off) :
	       fat->win_len;
}

/* Entries of window @w that are addressable. */
static uint32_t win_entries(const struct fp_fat *fat, uint32_t w)
{
	uint64_t first = (uint64_t)w * fat->win_cl;
	uint64_t left = (uint64_t)fat->max_cl + 1 - first;

	return left < fat->win_cl ? (uint32_t)left : fat->win_cl;
}

/*
 * Count the entries in the @len bytes at @off of window @w that differ
 * between the window's bytes @mem and @disk, those bytes of another copy
 * (@off is 0 for FAT12, whose FAT is one part); the unused half byte
 * after an odd FAT12 entry count is not compared.
 */
static void diff_part(const struct fp_fat *fat, uint32_t w, uint32_t off,
		      uint32_t len, const uint8_t *mem, const uint8_t *disk,
		      uint32_t *first, uint32_t *diffs)
{
	uint32_t i, lo = off * 8 / fat->ops->bits;
	uint32_t hi = (off + len) * 8 / fat->ops->bits;

	if (memcmp(mem + off, disk, len) == 0)
		return;
	if (hi > win_entries(fat, w))
		hi = win_entries(fat, w);
	for (i = lo; i < hi; i++) {
		if (fat->ops->get(mem, i) == fat->ops->get(disk, i - lo))
			continue;
		if (*diffs == 0)
			*first = w * fat->win_cl + i;
		(*diffs)++;
	}
}

/* Byte offset of FAT copy @c. */
static uint64_t copy_off(const struct fp_geom *g, uint32_t c)
{
	return g->fat_off + (uint64_t)c * g->fat_len;
}

/* Byte offset of window @w in FAT copy @c. */
static uint64_t win_off(const struct fp_fat *fat, const struct fp_geom *g,
			uint32_t c, uint32_t w)
{
	return copy_off(g, c) + (uint64_t)w * fat->win_len;
}

/* Read the @len bytes at @off of window @w of copy @copy into @buf. */
static enum fp_err read_part(const struct fp_fat *fat, uint32_t copy,
			     uint32_t w, uint32_t off, uint32_t len,
			     uint8_t *buf)
{
	return fp_img_read(fat->img, win_off(fat, fat->geom, copy, w) + off,
			   buf, len);
}

/* Read window @w of copy @copy into @buf. */
static enum fp_err read_copy(const struct fp_fat *fat, uint32_t copy,
			     uint32_t w, uint8_t *buf)
{
	return read_part(fat, copy, w, 0, win_bytes(fat, w), buf);
}

/* Compare loaded window @w with the other copies; note differences. */
static enum fp_err check_window(struct fp_fat *fat, uint32_t w)
{
	const struct fp_geom *g = fat->geom;
	struct fp_fat_win *win = &fat->win[w];
	uint32_t copy, first = 0, diffs, off, len, bytes = win_bytes(fat, w);
	enum fp_err err;

	assert(fat->type != FP_FAT12 || bytes <= FP_FAT_PART_LEN); /* a part */
	for (copy = 0; copy < g->fat_count; copy++) {
		if (copy == g->active_fat || (win->zero &&
		    fp_img_in_hole(fat->img, win_off(fat, g, copy, w), bytes)))
			continue;	/* zeros both: nothing to read */
		diffs = 0;
		for (off = 0; off < bytes; off += len) {
			len = bytes - off < FP_FAT_PART_LEN ? bytes - off :
			      FP_FAT_PART_LEN;
			err = read_part(fat, copy, w, off, len, fat->scratch);
			if (err)
				return err;
			diff_part(fat, w, off, len, win->buf, fat->scratch,
				  &first, &diffs);
		}
		if (!diffs)
			continue;
		win->differs = 1;
		if (!fat->diff[copy].count || first < fat->diff[copy].first_cl)
			fat->diff[copy].first_cl = first;
		fat->diff[copy].count += diffs;
	}
	win->compared = 1;
	return FP_OK;
}

/*
 * A buffer never used yet.  FAT32 window buffers are carved from 2 MiB
 * chunks that Linux may back with one huge page each: on a VM a page
 * fault can cost 18 us, and 8 windows take 512 of them otherwise.
 */
static enum fp_err new_buf(struct fp_fat *fat, uint8_t **buf)
{
	uint32_t per = fat->win_count > 1 ? CHUNK_LEN / fat->win_len : 1;
	size_t len = (size_t)per * fat->win_len;
	uint8_t **chunks, *p;

	if (fat->chunk_left == 0) {
		chunks = realloc(fat->chunks, (fat->chunk_count + 1) *
				 sizeof(*chunks));
		if (!chunks)
			return FP_E_NOMEM;
		fat->chunks = chunks;
		p = per > 1 ? aligned_alloc(CHUNK_LEN, len) : malloc(len);
		if (!p)
			return FP_E_NOMEM;
		if (per > 1)
			fp_plat_advise_huge(p, len);
		fat->chunks[fat->chunk_count++] = p;
		fat->chunk_left = per;
	}
	*buf = fat->chunks[fat->chunk_count - 1] +
	       (size_t)(per - fat->chunk_left--) * fat->win_len;
	return FP_OK;
}

/*
 * 1 if clean window @x is to be dropped before @y (NULL: none yet): a
 * window of zeros (free clusters, which walks seldom read) first, then
 * the least recently used, so that a pass over a young FAT keeps the
 * windows that hold chains.
 */
static int drop_first(const struct fp_fat_win *x, const struct fp_fat_win *y)
{
	if (!y || x->zero != y->zero)
		return !y || x->zero;
	return x->used < y->used;
}

/*
 * A buffer for one more window: one given back by a packed window, else
 * a clean one's when the cache is full (drop_first), else new.
 */
static enum fp_err window_buf(struct fp_fat *fat, uint8_t **buf)
{
	struct fp_fat_win *lru = NULL;
	uint32_t w;

	if (fat->spare) {
		*buf = fat->spare;
		memcpy(&fat->spare, *buf, sizeof(fat->spare));
		return FP_OK;
	}
	if (fat->loaded >= fat->cache_max) {
		for (w = 0; w < fat->win_count; w++) {
			struct fp_fat_win *x = &fat->win[w];

			if (x->buf && !x->dirty_count && drop_first(x, lru))
				lru = x;
		}
	}
	if (lru) {
		*buf = lru->buf;
		lru->buf = NULL;
		fat->loaded--;
		return FP_OK;
	}
	return new_buf(fat, buf);
}

/* Give back window buffer @buf; its first bytes link the spare list. */
static void spare_put(struct fp_fat *fat, uint8_t *buf)
{
	memcpy(buf, &fat->spare, sizeof(fat->spare));
	fat->spare = buf;
}

/* Mark the sectors of the @len bytes at @off of @win dirty. */
static void mark_dirty(struct fp_fat *fat, struct fp_fat_win *win,
		       size_t off, size_t len)
{
	size_t s = off / fat->sec_len, e = (off + len - 1) / fat->sec_len;

	win->zero = 0;
	for (; s <= e; s++) {
		win->dirty_count += !win->dirty[s];
		win->dirty[s] = 1;
	}
}

/* ---- packed windows ---------------------------------------------- */

/* Window @w can be packed: a whole FAT32 window, compared if need be. */
static int packable(const struct fp_fat *fat, uint32_t w)
{
	const struct fp_geom *g = fat->geom;
	const struct fp_fat_win *win = &fat->win[w];
	int copies = g->mirror && g->fat_count > 1;

	return fat->type == FP_FAT32 && fat->win_count > 1 && win->buf &&
	       win_bytes(fat, w) == fat->win_len &&
	       win_entries(fat, w) == fat->win_cl &&
	       (win->compared || !copies);
}

/*
 * How many of the @n FAT32 entries at @p are @next, @next + 1, ... with
 * their top 4 bits clear: as seq32, eight a test, but unmasked.
 */
static uint32_t links_run(const uint8_t *p, uint32_t next, uint32_t n)
{
	uint64_t a = pair32(next);
	uint32_t k = 0;

	for (; k + 8 <= n; k += 8, a += 4 * PAIR_STEP, p += 32)
		if ((fp_le64(p) ^ a) | (fp_le64(p + 8) ^ (a + PAIR_STEP)) |
		    (fp_le64(p + 16) ^ (a + 2 * PAIR_STEP)) |
		    (fp_le64(p + 24) ^ (a + 3 * PAIR_STEP)))
			break;
	for (; k < n && fp_le32(p) == next + k; k++, p += 4)
		;
	return k;
}

/*
 * Make window @w packed, with the @n patches at @p, to be written whole
 * if @dirty; its buffer is given back.
 */
static enum fp_err pack_as(struct fp_fat *fat, uint32_t w,
			   const struct fp_fat_patch *p, uint32_t n,
			   int dirty)
{
	struct fp_fat_win *win = &fat->win[w];

	win->patch = malloc(PATCH_MAX * sizeof(*p));
	if (!win->patch)
		return FP_E_NOMEM;
	memcpy(win->patch, p, n * sizeof(*p));
	win->patch_count = n;
	win->packed_dirty = dirty;
	memset(win->dirty, 0, fat->win_len / fat->sec_len);
	win->dirty_count = 0;
	win->zero = 0;
	spare_put(fat, win->buf);
	win->buf = NULL;
	fat->loaded--;
	fat->packed++;
	return FP_OK;
}

/*
 * Pack window @w if all its entries but PATCH_MAX link to the next
 * cluster: note those, give the buffer back, and remember whether the
 * window was dirty (it is then written whole).  Else leave it.
 */
static enum fp_err pack(struct fp_fat *fat, uint32_t w)
{
	struct fp_fat_win *win = &fat->win[w];
	struct fp_fat_patch p[PATCH_MAX];
	uint32_t next = w * fat->win_cl + 1, i, n = 0;

	if (!packable(fat, w))
		return FP_OK;
	for (i = 0; i < fat->win_cl; i++) {
		i += links_run(win->buf + (size_t)i * 4, next + i,
			       fat->win_cl - i);
		if (i == fat->win_cl)
			break;
		if (n == PATCH_MAX)
			return FP_OK;
		p[n].i = i;
		p[n++].raw = fp_le32(win->buf + (size_t)i * 4);
	}
	return pack_as(fat, w, p, n, win->dirty_count != 0);
}

/*
 * FAT32 entries @next, @next + 1, ... into the @n entries at @p: 16 a
 * step in four vector stores, or two in one 8-byte store.
 */
static void put_seq32(uint8_t *p, uint32_t next, uint32_t n)
{
	uint64_t a;
	uint32_t k = 0;

#if FP_VEC
	vec4 v = { next, next + 1, next + 2, next + 3 }, v4 = v + 4;
	vec4 v8 = v + 8, v12 = v + 12;

	for (; k + 16 <= n; k += 16, p += 64) {
		memcpy(p, &v, sizeof(v));
		memcpy(p + 16, &v4, sizeof(v));
		memcpy(p + 32, &v8, sizeof(v));
		memcpy(p + 48, &v12, sizeof(v));
		v += 16;
		v4 += 16;
		v8 += 16;
		v12 += 16;
	}
#endif
	a = pair32(next + k);
	for (; k + 8 <= n; k += 8, a += 4 * PAIR_STEP, p += 32) {
		fp_put_le64(p, a);
		fp_put_le64(p + 8, a + PAIR_STEP);
		fp_put_le64(p + 16, a + 2 * PAIR_STEP);
		fp_put_le64(p + 24, a + 3 * PAIR_STEP);
	}
	for (; k < n; k++, p += 4)
		fp_put_le32(p, next + k);
}

/* The bytes of packed window @w into @out (fat->win_len of them). */
static void unpack_into(const struct fp_fat *fat, uint32_t w, uint8_t *out)
{
	const struct fp_fat_win *win = &fat->win[w];
	uint32_t next = w * fat->win_cl + 1, k;

	put_seq32(out, next, fat->win_cl);
	for (k = 0; k < win->patch_count; k++)
		fp_put_le32(out + (size_t)win->patch[k].i * 4,
			    win->patch[k].raw);
}

/* Turn packed window @w back into a buffer, dirty where it was. */
static enum fp_err unpack(struct fp_fat *fat, uint32_t w)
{
	struct fp_fat_win *win = &fat->win[w];
	uint8_t *buf;
	enum fp_err err = window_buf(fat, &buf);

	if (err)
		return err;
	unpack_into(fat, w, buf);
	win->buf = buf;
	win->ranged = 0;
	fat->loaded++;
	if (win->packed_dirty)
		mark_dirty(fat, win, 0, fat->win_len);
	free(win->patch);
	win->patch = NULL;
	win->patch_count = 0;
	win->packed_dirty = 0;
	fat->packed--;
	return FP_OK;
}

/* Index in win->patch of entry @i of packed @win, patch_count if none. */
static uint32_t patch_of(const struct fp_fat_win *win, uint32_t i)
{
	uint32_t k;

	for (k = 0; k < win->patch_count; k++)
		if (win->patch[k].i == i)
			break;
	return k;
}

/* Raw entry @cl of packed window @win. */
static uint32_t packed_raw(const struct fp_fat *fat,
			   const struct fp_fat_win *win, uint32_t cl)
{
	uint32_t k = patch_of(win, cl % fat->win_cl);

	return k < win->patch_count ? win->patch[k].raw : cl + 1;
}

/*
 * Set entry @cl of packed @win to @val (masked), keeping its top 4 bits.
 * Returns 0 when that needs one patch more than PATCH_MAX.
 */
static int packed_set(const struct fp_fat *fat, struct fp_fat_win *win,
		      uint32_t cl, uint32_t val)
{
	uint32_t k = patch_of(win, cl % fat->win_cl), raw;

	raw = (k < win->patch_count ? win->patch[k].raw : cl + 1) &
	      FAT32_HIGH;
	raw |= val;
	if (k < win->patch_count && raw == cl + 1) {
		win->patch[k] = win->patch[--win->patch_count];
	} else if (k < win->patch_count) {
		win->patch[k].raw = raw;
	} else if (raw != cl + 1) {
		if (k == PATCH_MAX)
			return 0;
		win->patch[k].i = cl % fat->win_cl;
		win->patch[k].raw = raw;
		win->patch_count++;
	}
	win->packed_dirty = 1;
	return 1;
}

/* Window @w in memory, read (and compared) on first use. */
static enum fp_err window(struct fp_fat *fat, uint32_t w,
			  struct fp_fat_win **out)
{
	struct fp_fat_win *win = &fat->win[w];
	unsigned long holes;
	uint8_t *buf;
	enum fp_err err;

	if (!win->buf && win->patch) {
		err = unpack(fat, w);
		if (err)
			return err;
	}
	if (!win->buf) {
		/*
		 * The cache thrashes (an access pattern that jumps between
		 * windows, as a hostile or badly fragmented chain does):
		 * from now on keep every window, so that the reads stay
		 * linear in the FAT size.
		 */
		if (fat->reads >= 2 * (uint64_t)fat->win_count)
			fat->cache_max = fat->win_count;
		if (!win->dirty)
			win->dirty = calloc(fat->win_len / fat->sec_len, 1);
		if (!win->dirty)
			return FP_E_NOMEM;
		holes = fp_img_hole_reads(fat->img);
		err = window_buf(fat, &buf);
		if (!err)	/* on failure buf stays unused until release */
			err = read_copy(fat, fat->geom->active_fat, w, buf);
		if (err)
			return err;
		win->zero = fp_img_hole_reads(fat->img) != holes;
		win->zero_checked = 0;
		win->ranged = 0;
		fat->loaded++;
		fat->reads++;
		win->buf = buf;
		if (fat->check_copies && !win->compared) {
			err = check_window(fat, w);
			if (err)
				return err;
		}
	}
	win->used = ++fat->clock;
	*out = win;
	return FP_OK;
}

/*
 * Call @fn for each entry of part @off, @len of window @w that differs
 * between @act and @other, those bytes of the active copy and of another
 * one; 1 when @fn stopped the walk.
 */
static int each_in_part(const struct fp_fat *fat, uint32_t w, uint32_t off,
			uint32_t len, const uint8_t *act, const uint8_t *other,
			int (*fn)(void *, uint32_t, uint32_t, uint32_t),
			void *ctx)
{
	uint32_t i, a, b, lo = off * 8 / fat->ops->bits;
	uint32_t hi = (off + len) * 8 / fat->ops->bits;

	if (memcmp(act, other, len) == 0)
		return 0;
	if (hi > win_entries(fat, w))
		hi = win_entries(fat, w);
	for (i = lo; i < hi; i++) {
		a = fat->ops->get(act, i - lo);
		b = fat->ops->get(other, i - lo);
		if (a != b && fn(ctx, w * fat->win_cl + i, a & fat->ops->mask,
				 b & fat->ops->mask))
			return 1;
	}
	return 0;
}

enum fp_err fp_fat_copy_each(struct fp_fat *fat, uint32_t copy,
			     int (*fn)(void *ctx, uint32_t cl, uint32_t act,
				       uint32_t other),
			     void *ctx)
{
	uint32_t w, off, len, bytes;
	uint8_t *act = NULL, *other = NULL;
	enum fp_err err = FP_OK;
	int stop = 0;

	if (!fat->diff || copy >= fat->geom->fat_count ||
	    copy == fat->geom->active_fat)
		return FP_OK;
	act = malloc(FP_FAT_PART_LEN);
	other = malloc(FP_FAT_PART_LEN);
	if (!act || !other)
		err = FP_E_NOMEM;
	for (w = 0; !err && !stop && w < fat->win_count; w++) {
		if (!fat->win[w].differs)
			continue;
		bytes = win_bytes(fat, w);
		for (off = 0; !err && !stop && off < bytes; off += len) {
			len = bytes - off < FP_FAT_PART_LEN ? bytes - off :
			      FP_FAT_PART_LEN;
			err = read_part(fat, fat->geom->active_fat, w, off,
					len, act);
			if (!err)
				err = read_part(fat, copy, w, off, len, other);
			if (!err)
				stop = each_in_part(fat, w, off, len, act,
						    other, fn, ctx);
		}
	}
	free(act);
	free(other);
	return err;
}

/* Mark dirty the sectors of window @w that differ from another copy. */
static enum fp_err sync_window(struct fp_fat *fat, uint32_t w)
{
	const struct fp_geom *g = fat->geom;
	struct fp_fat_win *win;
	uint32_t copy, off, len, s, bytes = win_bytes(fat, w);
	enum fp_err err = window(fat, w, &win);

	for (copy = 0; !err && copy < g->fat_count; copy++) {
		if (copy == g->active_fat)
			continue;
		for (off = 0; !err && off < bytes; off += len) {
			len = bytes - off < FP_FAT_PART_LEN ? bytes - off :
			      FP_FAT_PART_LEN;
			err = read_part(fat, copy, w, off, len, fat->scratch);
			for (s = 0; !err && s < len; s += fat->sec_len)
				if (memcmp(win->buf + off + s,
					   fat->scratch + s, fat->sec_len))
					mark_dirty(fat, win, off + s, 1);
		}
	}
	return err;
}

enum fp_err fp_fat_copy_sync(struct fp_fat *fat)
{
	uint32_t w;
	enum fp_err err = FP_OK;

	for (w = 0; !err && fat->diff && w < fat->win_count; w++)
		if (fat->win[w].differs)
			err = sync_window(fat, w);
	return err;
}

enum fp_err fp_fat_check_copies(struct fp_fat *fat)
{
	uint32_t w;
	enum fp_err err;

	if (!fat->geom->mirror || fat->geom->fat_count < 2 ||
	    fat->check_copies)
		return FP_OK;
	fat->scratch = malloc(FP_FAT_PART_LEN);
	fat->diff = calloc(fat->geom->fat_count, sizeof(*fat->diff));
	if (!fat->scratch || !fat->diff)
		return FP_E_NOMEM;
	fat->check_copies = 1;
	for (w = 0; w < fat->win_count; w++) {
		if (!fat->win[w].buf || fat->win[w].compared)
			continue;
		err = check_window(fat, w);
		if (err)
			return err;
	}
	return FP_OK;
}

/* The window holding entry @cl and the entry's index in it. */
static enum fp_err locate(struct fp_fat *fat, uint32_t cl,
			  struct fp_fat_win **win, uint32_t *i)
{
	assert(cl <= fat->max_cl);
	if (cl > fat->max_cl)
		return FP_E_INVAL;
	*i = cl % fat->win_cl;
	return window(fat, cl / fat->win_cl, win);
}

enum fp_err fp_fat_get(struct fp_fat *fat, uint32_t cl, uint32_t *val)
{
	struct fp_fat_win *win;
	uint32_t i;
	enum fp_err err;

	if (cl <= fat->max_cl && fat->win[cl / fat->win_cl].patch) {
		*val = packed_raw(fat, &fat->win[cl / fat->win_cl], cl) &
		       FAT32_MASK;
		return FP_OK;
	}
	err = locate(fat, cl, &win, &i);
	if (err)
		return err;
	*val = fat->ops->get(win->buf, i) & fat->ops->mask;
	return FP_OK;
}

enum fp_err fp_fat_get_run(struct fp_fat *fat, uint32_t cl, uint32_t count,
			   uint32_t *vals)
{
	uint32_t i, n;
	struct fp_fat_win *win;
	enum fp_err err;

	if (count == 0)
		return FP_OK;
	if (cl > fat->max_cl || count - 1 > fat->max_cl - cl)
		return FP_E_INVAL;
	while (count) {
		err = locate(fat, cl, &win, &i);
		if (err)
			return err;
		n = fat->win_cl - i < count ? fat->win_cl - i : count;
		fat->ops->get_run(win->buf, i, n, vals);
		vals += n;
		cl += n;
		count -= n;
	}
	return FP_OK;
}

/*
 * Test once whether loaded FAT32 window @w is all zeros, as a fresh FAT
 * written by mkfs.fat is: stop at the first KiB that is not.
 */
static void check_zero(struct fp_fat *fat, uint32_t w)
{
	struct fp_fat_win *win = &fat->win[w];
	uint32_t i, n = win_entries(fat, w);

	if (win->zero || win->zero_checked || fat->type != FP_FAT32 ||
	    win->dirty_count)
		return;
	win->zero_checked = 1;
	for (i = 0; i + 256 <= n; i += 256)	/* a KiB a test */
		if (or_run(win->buf + (size_t)i * 4, 1024))
			return;
	for (; i < n; i++)
		if (get32(win->buf, i))
			return;
	win->zero = 1;
}

/* Which of the @n (<= 64) entries from index @i of @win are free. */
static uint64_t free_mask(const struct fp_fat *fat,
			  const struct fp_fat_win *win, uint32_t i, uint32_t n)
{
	if (win->zero)
		return n == 64 ? ~0ull : (1ull << n) - 1;
	return fat->ops->free_mask(win->buf, i, n);
}

/* 1 if @cl starts a group of 64 entries and @count groups follow. */
static int groups_ok(const struct fp_fat *fat, uint32_t cl, uint32_t count)
{
	return cl % 64 == 0 && cl <= fat->max_cl &&
	       count <= (fat->max_cl - cl) / 64 + 1;
}

/* The window holding entry @cl, read and tested for zeros once. */
static enum fp_err locate_tested(struct fp_fat *fat, uint32_t cl,
				 struct fp_fat_win **win, uint32_t *i)
{
	enum fp_err err = locate(fat, cl, win, i);

	if (!err)
		check_zero(fat, cl / fat->win_cl);
	return err;
}

enum fp_err fp_fat_free_masks(struct fp_fat *fat, uint32_t cl,
			      uint32_t count, uint64_t *masks)
{
	struct fp_fat_win *win;
	uint32_t i, n, g;
	enum fp_err err;

	if (!groups_ok(fat, cl, count))
		return FP_E_INVAL;
	for (g = 0; g < count; g++, cl += 64) {
		if (g == 0 || cl % fat->win_cl == 0) {
			err = locate_tested(fat, cl, &win, &i);
			if (err)
				return err;
		}
		n = fat->max_cl - cl < 63 ? fat->max_cl - cl + 1 : 64;
		masks[g] = win->zero && n == 64 ? ~0ull :
			   free_mask(fat, win, cl % fat->win_cl, n);
	}
	return FP_OK;
}

/*
 * *n = the whole free groups from @cl (a multiple of 64) on, in its
 * window and at most @max; *more = 1 if all @max or all of the window's
 * were, so that the count may go on in the next window.
 */
static enum fp_err free_in_window(struct fp_fat *fat, uint32_t cl,
				  uint32_t max, uint32_t *n, int *more)
{
	struct fp_fat_win *win;
	uint32_t i, whole;
	enum fp_err err = locate_tested(fat, cl, &win, &i);

	*n = 0;
	*more = 0;
	if (err)
		return err;
	whole = (win_entries(fat, cl / fat->win_cl) - i) / 64;
	if (max > whole)
		max = whole;	/* 0 at the partial group at the end */
	if (win->zero)
		*n = max;
	while (*n < max && free_mask(fat, win, i + 64 * *n, 64) == ~0ull)
		(*n)++;
	*more = *n == max && max > 0;
	return FP_OK;
}

enum fp_err fp_fat_free_groups(struct fp_fat *fat, uint32_t cl,
			       uint32_t count, uint32_t *groups)
{
	enum fp_err err = groups_ok(fat, cl, count) ? FP_OK : FP_E_INVAL;
	uint32_t n;
	int more = 1;

	for (*groups = 0; !err && more && *groups < count; cl += 64 * n) {
		err = free_in_window(fat, cl, count - *groups, &n, &more);
		*groups += n;
	}
	return err;
}

enum fp_err fp_fat_seq(struct fp_fat *fat, uint32_t cl, uint32_t max,
		       uint32_t *len)
{
	uint32_t i, n;
	struct fp_fat_win *win;
	enum fp_err err;

	err = locate(fat, cl, &win, &i);
	if (err)
		return err;
	n = fat->win_cl - i < max ? fat->win_cl - i : max;
	if (n > fat->max_cl - cl)	/* the last entry links past max_cl */
		n = fat->max_cl - cl;
	*len = fat->ops->seq(win->buf, i, n, cl + 1);
	return FP_OK;
}

/* Store @val (masked) as entry @i of @win. */
static void put(struct fp_fat *fat, struct fp_fat_win *win, uint32_t i,
		uint32_t val)
{
	size_t off = fat->ops->put(win->buf, i, val);

	win->ranged = 0;
	mark_dirty(fat, win, off, (fat->ops->bits + 7) / 8);
}

enum fp_err fp_fat_set(struct fp_fat *fat, uint32_t cl, uint32_t val)
{
	struct fp_fat_win *win;
	uint32_t i;
	enum fp_err err;

	if (cl <= fat->max_cl) {
		win = &fat->win[cl / fat->win_cl];
		if (win->patch &&
		    packed_set(fat, win, cl, val & fat->ops->mask))
			return FP_OK;
	}
	err = locate(fat, cl, &win, &i);
	if (!err)
		put(fat, win, i, val & fat->ops->mask);
	return err;
}

/* Set the @n entries from @cl, all in one unpacked window, to free. */
static enum fp_err free_run(struct fp_fat *fat, uint32_t cl, uint32_t n)
{
	struct fp_fat_win *win;
	uint32_t i, k;
	size_t first, last = 0;
	enum fp_err err;

	err = locate(fat, cl, &win, &i);
	if (err)
		return err;
	assert(n && n <= fat->win_cl - i);
	first = fat->ops->put(win->buf, i, FP_FAT_FREE);
	if (fat->type == FP_FAT32) {	/* put32() without a call each */
		for (k = 1; k < n; k++)
			fp_put_le32(win->buf + first + 4 * k,
				    fp_le32(win->buf + first + 4 * k) &
				    FAT32_HIGH);
		last = first + 4 * (size_t)(n - 1);
	}
	for (k = fat->type == FP_FAT32 ? n : 1; k < n; k++)
		last = fat->ops->put(win->buf, i + k, FP_FAT_FREE);
	win->ranged = 0;
	mark_dirty(fat, win, first, (n > 1 ? last - first : 0) +
		   (fat->ops->bits + 7) / 8);
	return FP_OK;
}

/*
 * Each cluster is read and freed alone, as before; when it links to the
 * next cluster, the run of consecutive clusters (entry c holds c + 1)
 * that follows is found by fp_fat_seq() and freed in one pass over its
 * window, so that a chain of one cluster (many small files) costs what
 * it did.  A packed window is left to fp_fat_set(), which keeps it
 * packed.  Each entry gets the value fp_fat_set() would give it, in
 * chain order.
 */
enum fp_err fp_fat_free_chain(struct fp_fat *fat, uint32_t cl,
			      uint32_t count)
{
	uint32_t len, next = 0;
	enum fp_err err = FP_OK;

	while (!err && count--) {
		err = fp_fat_get(fat, cl, &next);
		if (!err)
			err = fp_fat_set(fat, cl, FP_FAT_FREE);
		len = 0;
		if (!err && count > 1 && next == cl + 1 &&
		    next <= fat->max_cl &&
		    !fat->win[next / fat->win_cl].patch)
			err = fp_fat_seq(fat, next, count, &len);
		if (!err && len)
			err = free_run(fat, next, len);
		cl = next + len;
		count -= len;
	}
	return err;
}

/*
 * Note in @win's range that link32 sets entries @i .. @i + @n - 1, for
 * clusters @cl on, the chain ending at @end.  Returns whether those
 * entries are zeros (the window was, and they are outside the range).
 */
static int range_note(struct fp_fat_win *win, uint32_t i, uint32_t n,
		      uint32_t cl, uint32_t end)
{
	if (win->zero) {
		win->ranged = 1;
		win->lo = i;
		win->hi = i + n;
		win->end_count = 0;
	} else if (win->ranged && (i == win->hi || i + n == win->lo)) {
		win->lo = i < win->lo ? i : win->lo;
		win->hi = i + n > win->hi ? i + n : win->hi;
	} else {
		win->ranged = 0;
		return 0;
	}
	if (end - cl < n && win->end_count == RANGE_ENDS)
		win->ranged = 0;	/* still zeros, just not tracked */
	else if (end - cl < n)
		win->ends[win->end_count++] = i + (end - cl);
	return 1;
}

/*
 * Entries @i .. @i + @n - 1 of FAT32 window @win, for clusters @cl on:
 * each links to the next, @end ends the chain; top 4 bits kept.  The
 * same as put() an entry at a time, with the dirty sectors marked once;
 * entries known to be zeros are plain stores, others two entries a load
 * and store, eight a step.
 */
static void link32(struct fp_fat *fat, struct fp_fat_win *win, uint32_t i,
		   uint32_t n, uint32_t cl, uint32_t end)
{
	uint8_t *p = win->buf + (size_t)i * 4;
	uint32_t links = end - cl < n ? end - cl : n, k = 0;
	uint64_t a = pair32(cl + 1);

	if (range_note(win, i, n, cl, end)) {
		put_seq32(p, cl + 1, links);
		k = links;
		p += (size_t)links * 4;
	}
	for (; k + 8 <= links; k += 8, a += 4 * PAIR_STEP, p += 32) {
		fp_put_le64(p, (fp_le64(p) & PAIR_HIGH) | a);
		fp_put_le64(p + 8, (fp_le64(p + 8) & PAIR_HIGH) |
			    (a + PAIR_STEP));
		fp_put_le64(p + 16, (fp_le64(p + 16) & PAIR_HIGH) |
			    (a + 2 * PAIR_STEP));
		fp_put_le64(p + 24, (fp_le64(p + 24) & PAIR_HIGH) |
			    (a + 3 * PAIR_STEP));
	}
	for (; k < links; k++, p += 4)
		put32(p, 0, cl + k + 1);
	if (links < n)
		put32(p, 0, FAT32_MASK);
	mark_dirty(fat, win, (size_t)i * 4, (size_t)n * 4);
}

/*
 * Pack window @w if link32 filled all of it from zeros: its patches are
 * the chain ends it noted.  *@packed says whether it did.
 */
static enum fp_err pack_ranged(struct fp_fat *fat, uint32_t w, int *packed)
{
	const struct fp_fat_win *win = &fat->win[w];
	struct fp_fat_patch p[RANGE_ENDS];
	uint32_t k;

	*packed = win->ranged && win->lo == 0 && win->hi == fat->win_cl &&
		  packable(fat, w);
	if (!*packed)
		return FP_OK;
	for (k = 0; k < win->end_count; k++) {
		p[k].i = win->ends[k];
		p[k].raw = FAT32_MASK;
	}
	return pack_as(fat, w, p, win->end_count, 1);
}

/*
 * A chain ending at @end fills window @w: pack it without writing the
 * links.  Its patches are the end, if in @w, and each entry whose top 4
 * bits are set (they are kept); *@packed stays 0 when there are more
 * than PATCH_MAX of them.
 */
static enum fp_err pack_chain(struct fp_fat *fat, uint32_t w, uint32_t end,
			      int *packed)
{
	const struct fp_fat_win *win = &fat->win[w];
	struct fp_fat_patch pt[PATCH_MAX];
	uint32_t first = w * fat->win_cl, i, b, high, n = 0;

	*packed = 0;
	for (i = 0; !win->zero && i + 64 <= fat->win_cl; i += 64) {
		if (!(or64(win->buf + (size_t)i * 4) & PAIR_HIGH))
			continue;
		for (b = i; b < i + 64; b++) {
			high = get32(win->buf, b) & FAT32_HIGH;
			if (!high || first + b == end)
				continue;
			if (n == PATCH_MAX)
				return FP_OK;
			pt[n].i = b;
			pt[n++].raw = high | (first + b + 1);
		}
	}
	if (end / fat->win_cl == w) {
		if (n == PATCH_MAX)
			return FP_OK;
		i = end % fat->win_cl;
		pt[n].i = i;
		pt[n++].raw = (get32(win->buf, i) & FAT32_HIGH) | FAT32_MASK;
	}
	*packed = 1;
	return pack_as(fat, w, pt, n, 1);
}

enum fp_err fp_fat_set_chain(struct fp_fat *fat, uint32_t start,
			     uint32_t count)
{
	uint32_t cl = start, end, i, n, k;
	struct fp_fat_win *win;
	int packed;
	enum fp_err err;

	if (count == 0 || start < 2 || start > fat->max_cl ||
	    count - 1 > fat->max_cl - start)
		return FP_E_INVAL;
	end = start + count - 1;
	while (cl <= end) {
		err = locate(fat, cl, &win, &i);
		if (err)
			return err;
		n = fat->win_cl - i;
		if (n > end - cl + 1)
			n = end - cl + 1;
		if (n == fat->win_cl && packable(fat, cl / fat->win_cl)) {
			err = pack_chain(fat, cl / fat->win_cl, end, &packed);
			if (err)
				return err;
			if (packed) {
				cl += n;
				continue;
			}
		}
		if (fat->type == FP_FAT32) {
			link32(fat, win, i, n, cl, end);
			win->linked += n;
			err = pack_ranged(fat, cl / fat->win_cl, &packed);
			if (!err && !packed && win->linked >= fat->win_cl)
				err = pack(fat, cl / fat->win_cl);
			if (err)
				return err;
			cl += n;
			continue;
		}
		for (k = 0; k < n; k++, cl++)
			put(fat, win, i + k, cl == end ? fp_fat_eoc(fat) :
			    cl + 1);
	}
	return FP_OK;
}

/*
 * A chain holds distinct clusters, so one longer than the cluster count
 * (max_cl - 1) must revisit a cluster: that bounds the walk on a loop.
 * A run of consecutive clusters after a link to the next one is counted
 * by fp_fat_seq(), within the bound, instead of a cluster at a time.
 */
enum fp_err fp_fat_chain(struct fp_fat *fat, uint32_t start,
			 uint32_t *count, uint32_t *last)
{
	uint32_t cl = start, n = 1, v, run;
	enum fp_err err;

	if (start < 2 || start > fat->max_cl)
		return FP_E_CORRUPT;
	for (;;) {
		err = fp_fat_get(fat, cl, &v);
		if (err)
			return err;
		switch (fp_fat_kind_of(fat->type, fat->max_cl, v)) {
		case FP_FK_EOC:
			*count = n;
			*last = cl;
			return FP_OK;
		case FP_FK_NEXT:
			break;
		default:
			return FP_E_CORRUPT;
		}
		if (n == fat->max_cl - 1)
			return FP_E_CORRUPT;
		run = 0;
		if (v == cl + 1 && !fat->win[v / fat->win_cl].patch) {
			err = fp_fat_seq(fat, v, fat->max_cl - 2 - n, &run);
			if (err)
				return err;
		}
		cl = v + run;
		n += 1 + run;
	}
}

/* Write each run of dirty sectors of window @w, with one write, to @base. */
static enum fp_err flush_window(const struct fp_fat *fat, uint32_t w,
				uint64_t base)
{
	const struct fp_fat_win *win = &fat->win[w];
	uint32_t nsec = win_bytes(fat, w) / fat->sec_len, s = 0, e;
	uint64_t off;
	const uint8_t *d;
	enum fp_err err;

	while (s < nsec) {
		d = memchr(win->dirty + s, 1, nsec - s);
		if (!d)
			break;
		s = (uint32_t)(d - win->dirty);
		for (e = s + 1; e < nsec && win->dirty[e]; e++)
			;
		off = (uint64_t)s * fat->sec_len;
		err = fp_img_write(fat->img, base + off, win->buf + off,
				   (size_t)(e - s) * fat->sec_len);
		if (err)
			return err;
		s = e;
	}
	return FP_OK;
}

/*
 * Write the dirty packed windows from *@w on, at most a chunk of them,
 * built once, with one write into each of copies @c .. @end - 1; *@w
 * becomes the last one written.
 */
static enum fp_err flush_packed(struct fp_fat *fat, uint32_t *w,
				const struct fp_geom *g, uint32_t c,
				uint32_t end)
{
	uint32_t first = *w, n, max = CHUNK_LEN / fat->win_len;
	enum fp_err err = FP_OK;

	if (!fat->gen) {
		fat->gen = aligned_alloc(CHUNK_LEN, CHUNK_LEN);
		if (!fat->gen)
			return FP_E_NOMEM;
		fp_plat_advise_huge(fat->gen, CHUNK_LEN);
	}
	for (n = 0; n < max && first + n < fat->win_count &&
	     fat->win[first + n].packed_dirty; n++)
		unpack_into(fat, first + n,
			    fat->gen + (size_t)n * fat->win_len);
	*w = first + n - 1;
	for (; c < end && !err; c++)
		err = fp_img_write(fat->img, win_off(fat, g, c, first),
				   fat->gen, (size_t)n * fat->win_len);
	return err;
}

/*
 * Each copy gets the same writes in the same order, window by window:
 * a packed window is built once for all copies.
 */
enum fp_err fp_fat_flush(struct fp_fat *fat, struct fp_img *img,
			 const struct fp_geom *g)
{
	uint32_t c0 = g->mirror ? 0 : g->active_fat;
	uint32_t end = g->mirror ? g->fat_count : g->active_fat + 1;
	uint32_t w, c;
	enum fp_err err = FP_OK;

	if (fat->len > g->fat_len || end > g->fat_count ||
	    g->sec_len != fat->sec_len || img != fat->img)
		return FP_E_INVAL;
	for (w = 0; w < fat->win_count && !err; w++) {
		if (fat->win[w].packed_dirty) {
			err = flush_packed(fat, &w, g, c0, end);
			continue;
		}
		for (c = c0; c < end && !err && fat->win[w].dirty_count; c++)
			err = flush_window(fat, w, win_off(fat, g, c, w));
	}
	if (err)
		return err;
	for (w = 0; w < fat->win_count; w++) {
		fat->win[w].packed_dirty = 0;
		if (!fat->win[w].dirty_count)
			continue;
		memset(fat->win[w].dirty, 0, fat->win_len / fat->sec_len);
		fat->win[w].dirty_count = 0;
	}
	return FP_OK;
}

void fp_fat_free(struct fp_fat *fat)
{
	uint32_t w;

	if (!fat)
		return;
	for (w = 0; fat->win && w < fat->win_count; w++) {
		free(fat->win[w].dirty);
		free(fat->win[w].patch);
	}
	free(fat->gen);
	while (fat->chunk_count)
		free(fat->chunks[--fat->chunk_count]);
	free(fat->chunks);
	free(fat->win);
	free(fat->scratch);
	free(fat->diff);
	free(fat);
}
