/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_fat.c - unit tests for the in-memory FAT and the image layer. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fat.h"
#include "image.h"
#include "le.h"
#include "platform.h"
#include "tmpdir.h"

#define SEC 512u

/*
 * A memory image holding one reserved sector and @fats FAT copies of
 * @fat_secs sectors; no data area (fat.c never looks at it).  Copy c is
 * filled with a byte pattern xor c, so the copies differ unless @same.
 */
struct vol {
	struct fp_geom g;
	struct fp_img *img;
	uint8_t *orig;		/* the image as built */
	uint64_t len;
};

static uint8_t pattern(uint64_t i)
{
	return (uint8_t)(i * 37 + 11 + (i >> 9));
}

static void vol_make(struct vol *v, enum fp_fat_type type,
		     uint32_t clusters, uint32_t fat_secs, uint32_t fats,
		     int same)
{
	struct fp_geom *g = &v->g;
	uint64_t i;
	uint32_t c;

	memset(v, 0, sizeof(*v));
	g->type = type;
	g->sec_len = SEC;
	g->sec_per_clus = 1;
	g->clus_len = SEC;
	g->reserved_secs = 1;
	g->fat_count = fats;
	g->fat_secs = fat_secs;
	g->cluster_count = clusters;
	g->mirror = 1;
	g->fat_off = SEC;
	g->fat_len = (uint64_t)fat_secs * SEC;
	g->data_off = g->fat_off + fats * g->fat_len;
	g->root_off = g->data_off;
	g->vol_len = g->data_off;
	g->total_secs = g->vol_len / SEC;
	v->len = g->vol_len;
	v->orig = malloc(v->len);
	ck_assert_ptr_nonnull(v->orig);
	memset(v->orig, 0xEE, SEC);
	for (c = 0; c < fats; c++)
		for (i = 0; i < g->fat_len; i++)
			v->orig[g->fat_off + c * g->fat_len + i] =
				pattern(i) ^ (same ? 0 : (uint8_t)c);
	ck_assert_int_eq(fp_img_mem(v->orig, v->len, &v->img), FP_OK);
}

static void vol_free(struct vol *v)
{
	ck_assert_int_eq(fp_img_close(v->img), FP_OK);
	free(v->orig);
}

/* The bytes of copy @c in the image. */
static const uint8_t *copy_data(const struct vol *v, uint32_t c)
{
	return fp_img_mem_data(v->img) + v->g.fat_off + c * v->g.fat_len;
}

/* Reference entry decoder, bit by bit, independent of fat.c. */
static uint32_t ref_get(const uint8_t *p, enum fp_fat_type t, uint32_t cl)
{
	uint64_t bit = (uint64_t)cl * t;
	uint32_t v = 0;
	unsigned k;

	for (k = 0; k < (unsigned)t; k++, bit++)
		v |= (uint32_t)((p[bit / 8] >> (bit % 8)) & 1) << k;
	return t == FP_FAT32 ? v & 0x0FFFFFFF : v;
}

static uint32_t get(struct fp_fat *fat, uint32_t cl)
{
	uint32_t val = 0xDEADBEEF;

	ck_assert_int_eq(fp_fat_get(fat, cl, &val), FP_OK);
	return val;
}

static void set(struct fp_fat *fat, uint32_t cl, uint32_t val)
{
	ck_assert_int_eq(fp_fat_set(fat, cl, val), FP_OK);
}

/* fp_fat_seq() from @cl, as far as the window allows. */
static uint32_t check_seq(struct fp_fat *fat, uint32_t cl)
{
	uint32_t len = 0xDEADBEEF;

	ck_assert_int_eq(fp_fat_seq(fat, cl, UINT32_MAX, &len), FP_OK);
	return len;
}

/* What fp_fat_stats() says of @fat now. */
static struct fp_fat_stats stats(const struct fp_fat *fat)
{
	struct fp_fat_stats st;

	memset(&st, 0xA5, sizeof(st));
	fp_fat_stats(fat, &st);
	return st;
}

/* Every entry of @fat, of type @t, against the bytes at @p. */
static void check_all(struct fp_fat *fat, enum fp_fat_type t,
		      const uint8_t *p)
{
	uint32_t cl;

	for (cl = 0; cl <= fp_fat_max_cl(fat); cl++)
		ck_assert_uint_eq(get(fat, cl), ref_get(p, t, cl));
}

/*
 * Flush @fat and return a bit mask of the sectors (at most 32) written:
 * copy 1 of the volume is filled with 0x5A first, so the sectors of it
 * that no longer hold 0x5A are those the flush wrote.  Needs mirroring.
 */
static uint32_t flushed(struct vol *v, struct fp_fat *fat)
{
	uint64_t off = v->g.fat_off + v->g.fat_len, s, i;
	const uint8_t *c1;
	uint8_t *fill = malloc(v->g.fat_len);
	uint32_t mask = 0;

	ck_assert_ptr_nonnull(fill);
	memset(fill, 0x5A, v->g.fat_len);
	ck_assert_int_eq(fp_img_write(v->img, off, fill, v->g.fat_len),
			 FP_OK);
	free(fill);
	ck_assert_int_eq(fp_fat_flush(fat, v->img, &v->g), FP_OK);
	c1 = copy_data(v, 1);
	for (s = 0; s < v->g.fat_len / SEC && s < 32; s++)
		for (i = 0; i < SEC; i++)
			if (c1[s * SEC + i] != 0x5A) {
				mask |= 1u << s;
				break;
			}
	/* what was written equals copy 0, also written */
	for (s = 0; s < 32; s++)
		if (mask & (1u << s))
			ck_assert_mem_eq(c1 + s * SEC,
					 copy_data(v, 0) + s * SEC, SEC);
	return mask;
}

START_TEST(test_fat12_get)
{
	struct vol v;
	struct fp_fat *fat = NULL;

	vol_make(&v, FP_FAT12, 1000, 3, 2, 1);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	ck_assert_uint_eq(fp_fat_eoc(fat), 0xFFF);
	ck_assert_uint_eq(fp_fat_max_cl(fat), 1001);
	ck_assert_uint_eq(stats(fat).len, 3 * SEC);
	ck_assert_uint_eq(fp_fat_win_count(fat), 1);
	ck_assert_uint_eq(stats(fat).reads, 0);	/* nothing read yet */
	check_all(fat, v.g.type, copy_data(&v, 0));
	ck_assert_uint_eq(stats(fat).reads, 1);
	ck_assert_uint_eq(flushed(&v, fat), 0);
	fp_fat_free(fat);
	fp_fat_free(NULL);
	vol_free(&v);
}
END_TEST

/* Entry 341 (odd) is bytes 511-512, entry 682 (even) bytes 1023-1024. */
START_TEST(test_fat12_set)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	uint8_t before[3 * SEC];
	const uint8_t *c0;
	uint32_t cl;

	vol_make(&v, FP_FAT12, 1000, 3, 2, 1);
	c0 = copy_data(&v, 0);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	memcpy(before, c0, sizeof(before));
	set(fat, 341, 0xABC);
	ck_assert_uint_eq(get(fat, 341), 0xABC);
	ck_assert_uint_eq(flushed(&v, fat), 3);
	ck_assert_uint_eq(c0[511], (before[511] & 0x0F) | 0xC0);
	ck_assert_uint_eq(c0[512], 0xAB);
	ck_assert_mem_eq(c0, before, 511);
	ck_assert_mem_eq(c0 + 513, before + 513, sizeof(before) - 513);

	memcpy(before, c0, sizeof(before));
	set(fat, 682, 0x123);
	ck_assert_uint_eq(get(fat, 681), ref_get(before, 12, 681));
	ck_assert_uint_eq(get(fat, 683), ref_get(before, 12, 683));
	ck_assert_uint_eq(flushed(&v, fat), 6);
	ck_assert_uint_eq(c0[1023], 0x23);
	ck_assert_uint_eq(c0[1024], (before[1024] & 0xF0) | 0x01);

	set(fat, 340, 0xFFFF);		/* masked to 12 bits */
	ck_assert_uint_eq(get(fat, 340), 0xFFF);
	ck_assert_uint_eq(get(fat, 341), 0xABC);
	ck_assert_uint_eq(flushed(&v, fat), 1);

	/* every entry, odd and even, against the reference decoder */
	for (cl = 2; cl <= fp_fat_max_cl(fat); cl++)
		set(fat, cl, (cl * 7919) & 0xFFF);
	ck_assert_uint_eq(flushed(&v, fat), 7);
	check_all(fat, v.g.type, c0);
	for (cl = 2; cl <= fp_fat_max_cl(fat); cl++)
		ck_assert_uint_eq(get(fat, cl), (cl * 7919) & 0xFFF);
	for (cl = 1503; cl < 3 * SEC; cl++)	/* bytes after the entries */
		ck_assert_uint_eq(c0[cl], pattern(cl));
	ck_assert_uint_eq(get(fat, 0), ref_get(v.orig + SEC, 12, 0));
	ck_assert_uint_eq(get(fat, 1), ref_get(v.orig + SEC, 12, 1));
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

START_TEST(test_fat16)
{
	struct vol v;
	struct fp_fat *fat = NULL;

	vol_make(&v, FP_FAT16, 1000, 4, 2, 1);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	check_all(fat, v.g.type, copy_data(&v, 0));
	set(fat, 256, 0x1234);
	ck_assert_uint_eq(flushed(&v, fat), 2);
	ck_assert_uint_eq(fp_le16(copy_data(&v, 0) + 512), 0x1234);
	set(fat, 256, 0x1234);
	set(fat, 255, 0x12345);
	ck_assert_uint_eq(get(fat, 255), 0x2345);
	ck_assert_uint_eq(flushed(&v, fat), 3);
	ck_assert_uint_eq(get(fat, 257), ref_get(v.orig + SEC, 16, 257));
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

START_TEST(test_fat32)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	const uint8_t *c0;
	uint32_t raw;

	vol_make(&v, FP_FAT32, 1000, 8, 2, 1);
	c0 = copy_data(&v, 0);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	check_all(fat, v.g.type, c0);
	raw = fp_le32(c0 + 5 * 4);
	ck_assert_uint_ne(raw >> 28, 0);
	ck_assert_uint_eq(get(fat, 5), raw & 0x0FFFFFFF);
	set(fat, 5, 0xFFFFFFFF);
	ck_assert_uint_eq(get(fat, 5), 0x0FFFFFFF);
	ck_assert_uint_eq(flushed(&v, fat), 1);
	ck_assert_uint_eq(fp_le32(c0 + 20), (raw & 0xF0000000) | 0x0FFFFFFF);
	set(fat, 5, 0);
	ck_assert_uint_eq(get(fat, 5), 0);
	set(fat, 128, 7);
	ck_assert_uint_eq(flushed(&v, fat), 3);
	ck_assert_uint_eq(fp_le32(c0 + 20), raw & 0xF0000000);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/*
 * A volume of each type: a FAT12 of 1003 entries (an odd count), a
 * FAT16, a FAT32 of 5 windows.
 */
static const struct shape {
	enum fp_fat_type t;
	uint32_t clusters, secs;
} shapes[] = {
	{ FP_FAT12, 1001, 3 }, { FP_FAT16, 5000, 20 },
	{ FP_FAT32, 300000, 2344 },
};

/* Reference entry encoder, bit by bit: the 12/16/28 value bits only. */
static void ref_put(uint8_t *p, enum fp_fat_type t, uint32_t cl,
		    uint32_t v)
{
	uint64_t bit = (uint64_t)cl * t;
	unsigned k, n = t == FP_FAT32 ? 28 : (unsigned)t;
	uint8_t m;

	for (k = 0; k < n; k++, bit++) {
		m = (uint8_t)(1u << (bit % 8));
		p[bit / 8] = (uint8_t)((v >> k) & 1 ? p[bit / 8] | m :
				       p[bit / 8] & ~m);
	}
}

/*
 * The entry accessors of each type, against the bit-by-bit reference:
 * a value set reads back masked, the neighbours keep theirs, and after
 * a flush the copy differs from the one before in the entry's value
 * bits only (FAT12 entries sharing a byte, odd and even, at the ends
 * and across sector 0/1; FAT32 top 4 bits; FAT32 window boundaries).
 */
START_TEST(test_entry_round_trip)
{
	static const uint32_t cls[] = {
		0, 1, 2, 3, 340, 341, 342, 682, 683, 1001, 1002, 4999,
		65535, 65536, 65537, 299999, 300000, 300001,
	};
	enum fp_fat_type t = shapes[_i].t;
	uint32_t vals[] = { 0, 1, 2, 0x5A5, 0, 0, 0xFFFFFFFF, 0x12345678 };
	uint32_t mask, max, cl, k, i, top = 0;
	struct fp_fat *fat = NULL;
	uint8_t *want;
	struct vol v;

	vol_make(&v, t, shapes[_i].clusters, shapes[_i].secs, 2, 1);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	mask = fp_fat_eoc(fat);
	max = fp_fat_max_cl(fat);
	ck_assert_uint_eq(max, shapes[_i].clusters + 1);
	vals[4] = mask - 8;		/* bad */
	vals[5] = mask;			/* end of chain */
	want = malloc(v.g.fat_len);
	ck_assert_ptr_nonnull(want);
	memcpy(want, copy_data(&v, 0), v.g.fat_len);
	for (i = 0; i < sizeof(cls) / sizeof(cls[0]); i++) {
		cl = cls[i];
		if (cl > max)
			continue;
		if (t == FP_FAT32)
			top |= fp_le32(want + 4 * cl) >> 28;
		for (k = 0; k < sizeof(vals) / sizeof(vals[0]); k++) {
			set(fat, cl, vals[k]);
			ref_put(want, t, cl, vals[k] & mask);
			ck_assert_uint_eq(get(fat, cl), vals[k] & mask);
			if (cl > 0)
				ck_assert_uint_eq(get(fat, cl - 1),
						  ref_get(want, t, cl - 1));
			if (cl < max)
				ck_assert_uint_eq(get(fat, cl + 1),
						  ref_get(want, t, cl + 1));
			ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
			ck_assert_msg(memcmp(copy_data(&v, 0), want,
					     v.g.fat_len) == 0,
				      "type %d entry %u value %x", t, cl,
				      vals[k]);
			ck_assert_mem_eq(copy_data(&v, 1), want, v.g.fat_len);
		}
	}
	if (t == FP_FAT32)		/* the top bits kept were not all 0 */
		ck_assert_uint_ne(top, 0);
	free(want);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/*
 * The ends of the FAT: entry max_cl is the last one that can be read or
 * set; every call that takes a range refuses one past it, and changes
 * nothing when it does.
 */
START_TEST(test_entry_bounds)
{
	struct fp_fat *fat = NULL;
	uint32_t max, vals[2] = { 7, 7 }, len = 7;
	uint64_t m[2];
	struct vol v;

	vol_make(&v, shapes[_i].t, shapes[_i].clusters, shapes[_i].secs, 1,
		 1);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	max = fp_fat_max_cl(fat);
	set(fat, max, 3);
	ck_assert_uint_eq(get(fat, max), 3);
	ck_assert_int_eq(fp_fat_get_run(fat, max, 1, vals), FP_OK);
	ck_assert_uint_eq(vals[0], 3);
	ck_assert_uint_eq(vals[1], 7);
	ck_assert_int_eq(fp_fat_get_run(fat, max, 2, vals), FP_E_INVAL);
	ck_assert_int_eq(fp_fat_get_run(fat, max + 1, 1, vals), FP_E_INVAL);
	ck_assert_int_eq(fp_fat_get_run(fat, 0, UINT32_MAX, vals),
			 FP_E_INVAL);
	ck_assert_int_eq(fp_fat_seq(fat, max, UINT32_MAX, &len), FP_OK);
	ck_assert_uint_eq(len, 0);	/* max_cl links nowhere further */
	ck_assert_int_eq(fp_fat_set_chain(fat, max, 1), FP_OK);
	ck_assert_uint_eq(get(fat, max), fp_fat_eoc(fat));
	ck_assert_int_eq(fp_fat_set_chain(fat, max, 2), FP_E_INVAL);
	ck_assert_int_eq(fp_fat_set_chain(fat, max + 1, 1), FP_E_INVAL);
	ck_assert_int_eq(fp_fat_free_masks(fat, max / 64 * 64, 1, m), FP_OK);
	ck_assert_int_eq(fp_fat_free_masks(fat, max / 64 * 64, 2, m),
			 FP_E_INVAL);
	ck_assert_int_eq(fp_fat_free_masks(fat, max / 64 * 64 + 64, 1, m),
			 FP_E_INVAL);
	ck_assert_uint_eq(get(fat, max), fp_fat_eoc(fat));
	ck_assert_uint_eq(get(fat, max - 1), ref_get(copy_data(&v, 0),
						     shapes[_i].t, max - 1));
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/* Only the sectors holding entries are read from an oversized FAT. */
START_TEST(test_load_oversized)
{
	struct vol v;
	struct fp_fat *fat = NULL;

	vol_make(&v, FP_FAT32, 1000, 100, 1, 1);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	ck_assert_uint_eq(stats(fat).len, 8 * SEC);
	ck_assert_uint_eq(stats(fat).win_len, 8 * SEC);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

START_TEST(test_load_errors)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	struct fp_geom g;

	vol_make(&v, FP_FAT16, 1000, 4, 2, 1);
	g = v.g;
	g.fat_secs = 3;
	g.fat_len = 3 * SEC;		/* too small for 1002 entries */
	ck_assert_int_eq(fp_fat_open(v.img, &g, &fat), FP_E_BPB);
	ck_assert_ptr_null(fat);
	g = v.g;
	g.active_fat = 2;
	ck_assert_int_eq(fp_fat_open(v.img, &g, &fat), FP_E_INVAL);
	g = v.g;
	g.cluster_count = 65526;	/* cluster 65527 = 0xFFF7 is BAD */
	ck_assert_int_eq(fp_fat_open(v.img, &g, &fat), FP_E_INVAL);
	g = v.g;
	g.fat_off = v.len - SEC;	/* the image ends inside the FAT */
	ck_assert_int_eq(fp_fat_open(v.img, &g, &fat), FP_E_TRUNC);
	ck_assert_ptr_null(fat);
	vol_free(&v);
}
END_TEST

/*
 * Kind of @val for a FAT of @type up to @max_cl; the same from @fat,
 * when one of that shape is open (a FAT32 of 0x0FFFFFF6 clusters is
 * 1 GiB: too much to build in memory).
 */
static enum fp_fat_kind kind(enum fp_fat_type type, uint32_t max_cl,
			     const struct fp_fat *fat, uint32_t val)
{
	enum fp_fat_kind k = fp_fat_kind_of(type, max_cl, val);

	if (fat)
		ck_assert_int_eq(fp_fat_kind(fat, val), k);
	return k;
}

START_TEST(test_kinds)
{
	static const struct {
		enum fp_fat_type type;
		uint32_t max_cl, bad;
	} t[] = {
		{ FP_FAT12, 1001, 0xFF7 }, { FP_FAT12, 0xFF5, 0xFF7 },
		{ FP_FAT16, 60000, 0xFFF7 }, { FP_FAT16, 0xFFF5, 0xFFF7 },
		{ FP_FAT32, 1000000, 0x0FFFFFF7 },
		{ FP_FAT32, 0x0FFFFFF6, 0x0FFFFFF7 },
	};
	enum fp_fat_type type = t[_i].type;
	uint32_t bad = t[_i].bad, max = t[_i].max_cl, secs;
	struct fp_fat *fat = NULL;
	struct vol v;

	if (max < 0x01000000) {
		secs = (uint32_t)((((uint64_t)max + 1) * type + 7) / 8 /
				  SEC + 1);
		vol_make(&v, type, max - 1, secs, 1, 1);
		ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
		ck_assert_uint_eq(fp_fat_max_cl(fat), max);
		ck_assert_uint_eq(fp_fat_eoc(fat), bad + 8);
	}
	ck_assert_int_eq(kind(type, max, fat, 0), FP_FK_FREE);
	ck_assert_int_eq(kind(type, max, fat, 1), FP_FK_INVALID);
	ck_assert_int_eq(kind(type, max, fat, 2), FP_FK_NEXT);
	ck_assert_int_eq(kind(type, max, fat, max), FP_FK_NEXT);
	if (max + 1 < bad - 7)
		ck_assert_int_eq(kind(type, max, fat, max + 1),
				 FP_FK_INVALID);
	if (max < bad - 7)
		ck_assert_int_eq(kind(type, max, fat, bad - 7),
				 FP_FK_INVALID);
	ck_assert_int_eq(kind(type, max, fat, bad - 1), max >= bad - 1 ?
			 FP_FK_NEXT : FP_FK_INVALID);
	ck_assert_int_eq(kind(type, max, fat, bad), FP_FK_BAD);
	ck_assert_int_eq(kind(type, max, fat, bad + 1), FP_FK_EOC);
	ck_assert_int_eq(kind(type, max, fat, bad + 8), FP_FK_EOC);
	ck_assert_int_eq(kind(type, max, fat, bad + 9), FP_FK_INVALID);
	if (fat) {
		fp_fat_free(fat);
		vol_free(&v);
	}
}
END_TEST

/* A FAT16 of 100 clusters (2 .. 101) with links set by hand. */
static struct fp_fat *chain_fat(struct vol *v)
{
	static const uint16_t links[][2] = {
		{ 2, 3 }, { 3, 4 }, { 4, 0xFFFF }, { 10, 0xFFF8 },
		{ 30, 31 }, { 31, 30 }, { 40, 40 }, { 50, 0xFFF7 },
		{ 51, 52 }, { 52, 0 }, { 53, 500 }, { 54, 1 },
		{ 55, 0xFFF0 }, { 60, 101 }, { 101, 0xFFFA },
	};
	struct fp_fat *fat = NULL;
	uint32_t cl;
	size_t i;

	vol_make(v, FP_FAT16, 100, 1, 1, 1);
	ck_assert_int_eq(fp_fat_open(v->img, &v->g, &fat), FP_OK);
	for (cl = 0; cl <= fp_fat_max_cl(fat); cl++)
		set(fat, cl, 0);
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		set(fat, links[i][0], links[i][1]);
	return fat;
}

START_TEST(test_chain)
{
	static const uint32_t corrupt[] = {
		0, 1, 102, UINT32_MAX, 20, 30, 31, 40, 50, 51, 53, 54, 55,
	};
	struct vol v;
	struct fp_fat *fat;
	uint32_t count, last, i;

	fat = chain_fat(&v);
	ck_assert_int_eq(fp_fat_chain(fat, 2, &count, &last), FP_OK);
	ck_assert_uint_eq(count, 3);
	ck_assert_uint_eq(last, 4);
	ck_assert_int_eq(fp_fat_chain(fat, 10, &count, &last), FP_OK);
	ck_assert_uint_eq(count, 1);
	ck_assert_uint_eq(last, 10);
	ck_assert_int_eq(fp_fat_chain(fat, 60, &count, &last), FP_OK);
	ck_assert_uint_eq(count, 2);
	ck_assert_uint_eq(last, 101);
	/* runs of entries that hold the next cluster number */
	ck_assert_int_eq(fp_fat_seq(fat, 2, UINT32_MAX, &count), FP_OK);
	ck_assert_uint_eq(count, 2);
	ck_assert_int_eq(fp_fat_seq(fat, 2, 1, &count), FP_OK);
	ck_assert_uint_eq(count, 1);
	ck_assert_int_eq(fp_fat_seq(fat, 30, UINT32_MAX, &count), FP_OK);
	ck_assert_uint_eq(count, 1);
	ck_assert_int_eq(fp_fat_seq(fat, 4, UINT32_MAX, &count), FP_OK);
	ck_assert_uint_eq(count, 0);
	set(fat, 100, 101);		/* 101 is max_cl: a link to it counts */
	ck_assert_int_eq(fp_fat_seq(fat, 100, UINT32_MAX, &count), FP_OK);
	ck_assert_uint_eq(count, 1);
	ck_assert_int_eq(fp_fat_seq(fat, 101, UINT32_MAX, &count), FP_OK);
	ck_assert_uint_eq(count, 0);
	set(fat, 100, 0);
	for (i = 0; i < sizeof(corrupt) / sizeof(corrupt[0]); i++) {
		count = last = 777;
		ck_assert_msg(fp_fat_chain(fat, corrupt[i], &count, &last) ==
			      FP_E_CORRUPT, "start %u", (unsigned)corrupt[i]);
		ck_assert_uint_eq(count, 777);
		ck_assert_uint_eq(last, 777);
	}
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/*
 * FAT32 runs (which fp_fat_seq tests 16 entries at a time) end exactly
 * where a link breaks, wherever that falls in a block of 16, and the top
 * 4 bits (random here, from pattern()) do not count.
 */
START_TEST(test_seq32)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	uint32_t max_cl;
	uint32_t cl, brk, from;

	vol_make(&v, FP_FAT32, 200, 2, 1, 1);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	max_cl = fp_fat_max_cl(fat);
	for (cl = 2; cl <= max_cl; cl++)
		set(fat, cl, cl + 1);
	/* the last entry links past max_cl, so it is not counted */
	ck_assert_uint_eq(check_seq(fat, 2), max_cl - 2);
	for (brk = 2; brk < 80; brk++) {
		set(fat, brk, 0x0FFFFFFF);
		for (from = 2; from <= brk; from++)
			ck_assert_uint_eq(check_seq(fat, from), brk - from);
		set(fat, brk, brk + 2);	/* skips one: a break too */
		ck_assert_uint_eq(check_seq(fat, 2), brk - 2);
		set(fat, brk, brk + 1);
	}
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/* A chain through every cluster is fine; one more link is a loop. */
START_TEST(test_chain_full)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	uint32_t count, last;

	fat = chain_fat(&v);
	ck_assert_int_eq(fp_fat_set_chain(fat, 2, 100), FP_OK);
	ck_assert_int_eq(fp_fat_chain(fat, 2, &count, &last), FP_OK);
	ck_assert_uint_eq(count, 100);
	ck_assert_uint_eq(last, 101);
	ck_assert_uint_eq(get(fat, 101), fp_fat_eoc(fat));
	set(fat, 101, 2);
	ck_assert_int_eq(fp_fat_chain(fat, 2, &count, &last), FP_E_CORRUPT);
	ck_assert_int_eq(fp_fat_chain(fat, 77, &count, &last),
			 FP_E_CORRUPT);
	ck_assert_int_eq(fp_fat_set_chain(fat, 2, 101), FP_E_INVAL);
	ck_assert_int_eq(fp_fat_set_chain(fat, 1, 1), FP_E_INVAL);
	ck_assert_int_eq(fp_fat_set_chain(fat, 2, 0), FP_E_INVAL);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/* Dirty sectors 0, 2, 3 of a 4-sector FAT16: runs [0] and [2, 3]. */
static void dirty_three(struct fp_fat *fat)
{
	set(fat, 10, 11);
	set(fat, 600, 0xFFFF);
	set(fat, 700, 0xFFF7);
	set(fat, 900, 0);
}

/* The image as it must be after dirty_three() and a flush to @copies. */
static uint8_t *want_three(const struct vol *v, uint32_t src,
			   uint32_t first, uint32_t end)
{
	uint8_t *want = malloc(v->len), *p;
	uint32_t c;

	ck_assert_ptr_nonnull(want);
	memcpy(want, v->orig, v->len);
	p = want + v->g.fat_off + src * v->g.fat_len;
	fp_put_le16(p + 20, 11);
	fp_put_le16(p + 1200, 0xFFFF);
	fp_put_le16(p + 1400, 0xFFF7);
	fp_put_le16(p + 1800, 0);
	for (c = first; c < end; c++) {
		uint8_t *q = want + v->g.fat_off + c * v->g.fat_len;

		memcpy(q, p, SEC);
		memcpy(q + 2 * SEC, p + 2 * SEC, 2 * SEC);
	}
	return want;
}

START_TEST(test_flush_mirror)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	uint8_t *want;

	vol_make(&v, FP_FAT16, 1000, 4, 3, 0);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	dirty_three(fat);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(v.img), 3 * 2);
	want = want_three(&v, 0, 0, 3);
	ck_assert_mem_eq(fp_img_mem_data(v.img), want, v.len);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(v.img), 6);
	free(want);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/* Mirroring off, active copy 1: copies 0 and 2 are never touched. */
START_TEST(test_flush_active)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	uint8_t *want;

	vol_make(&v, FP_FAT16, 1000, 4, 3, 0);
	v.g.mirror = 0;
	v.g.active_fat = 1;
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	check_all(fat, v.g.type, copy_data(&v, 1));
	ck_assert_uint_ne(get(fat, 3), ref_get(copy_data(&v, 0), 16, 3));
	dirty_three(fat);
	set(fat, 300, 5);			/* sector 1: one run */
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(v.img), 1);
	want = want_three(&v, 1, 0, 0);
	fp_put_le16(want + v.g.fat_off + v.g.fat_len + 600, 5);
	ck_assert_mem_eq(fp_img_mem_data(v.img), want, v.len);
	free(want);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

START_TEST(test_flush_fault)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	const uint8_t *img;
	uint8_t *want;

	vol_make(&v, FP_FAT16, 1000, 4, 2, 1);
	img = fp_img_mem_data(v.img);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	dirty_three(fat);
	want = want_three(&v, 0, 0, 2);
	fp_img_fail_write(v.img, 1, EIO);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_E_IO);
	ck_assert_int_eq(fp_img_errno(v.img), EIO);
	ck_assert_mem_eq(img, v.orig, v.len);

	/* the second write call and all later ones fail */
	fp_img_fail_write(v.img, 2, ENOSPC);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_E_IO);
	ck_assert_int_eq(fp_img_errno(v.img), ENOSPC);
	ck_assert_uint_eq(fp_img_write_count(v.img), 1);
	ck_assert_mem_eq(img + SEC, want + SEC, SEC);
	ck_assert_mem_eq(img + 2 * SEC, v.orig + 2 * SEC, v.len - 2 * SEC);

	/* still dirty: a retry writes everything */
	fp_img_fail_write(v.img, 0, 0);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_mem_eq(img, want, v.len);
	free(want);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/*
 * A FAT32 of 300000 clusters is 5 windows of 65536 entries.  With room
 * for one clean window, reading in any order gives the right values,
 * changed windows stay until flushed, and the flush writes exactly them.
 */
START_TEST(test_windows)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	uint8_t *want;
	uint32_t cl, reads, vals[3000], i;

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	ck_assert_uint_eq(fp_fat_win_count(fat), 5);
	ck_assert_uint_eq(fp_fat_win_cl(fat), 65536);
	fp_fat_cache(fat, 1);
	ck_assert_uint_eq(stats(fat).cache_max, 1);
	check_all(fat, v.g.type, copy_data(&v, 0));
	ck_assert_uint_eq(stats(fat).reads, 5);
	ck_assert_uint_eq(stats(fat).loaded, 1);
	for (cl = fp_fat_max_cl(fat); cl >= 7; cl -= 7)
		ck_assert_uint_eq(get(fat, cl), ref_get(copy_data(&v, 0),
							 32, cl));
	reads = (uint32_t)stats(fat).reads;
	ck_assert_uint_ge(reads, 9);
	/* a run read across the window boundary at 131072 */
	ck_assert_int_eq(fp_fat_get_run(fat, 131072 - 1500, 3000, vals),
			 FP_OK);
	for (i = 0; i < 3000; i++)
		ck_assert_uint_eq(vals[i], ref_get(copy_data(&v, 0), 32,
						   131072 - 1500 + i));
	ck_assert_int_eq(fp_fat_get_run(fat, fp_fat_max_cl(fat), 2, vals),
			 FP_E_INVAL);
	/* a fresh load: after 2 reads a window the cache would keep all */
	fp_fat_free(fat);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	fp_fat_cache(fat, 1);
	/* a chain across two windows, and an entry in a third */
	ck_assert_int_eq(fp_fat_set_chain(fat, 65000, 1000), FP_OK);
	set(fat, 299999, 0x0ABCDEF0);
	for (cl = 2; cl <= fp_fat_max_cl(fat); cl += 4099)
		get(fat, cl);		/* streams past the dirty windows */
	ck_assert_uint_eq(stats(fat).loaded, 4);
	ck_assert_uint_eq(get(fat, 65999), 0x0FFFFFFF);
	ck_assert_uint_eq(get(fat, 299999), 0x0ABCDEF0);
	want = malloc(v.len);
	ck_assert_ptr_nonnull(want);
	memcpy(want, v.orig, v.len);
	for (i = 0; i < 2; i++) {
		uint8_t *p = want + v.g.fat_off + i * v.g.fat_len;

		for (cl = 65000; cl < 66000; cl++)
			fp_put_le32(p + 4 * cl, (fp_le32(v.orig + SEC + 4 * cl) &
						  0xF0000000) |
				    (cl == 65999 ? 0x0FFFFFFF : cl + 1));
		fp_put_le32(p + 4 * 299999,
			    (fp_le32(v.orig + SEC + 4 * 299999) & 0xF0000000) |
			    0x0ABCDEF0);
	}
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_mem_eq(fp_img_mem_data(v.img), want, v.len);
	/* two runs (one per window touched by the chain) + one, per copy */
	ck_assert_uint_eq(fp_img_write_count(v.img), 2 * 3);
	free(want);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/*
 * A full cache drops a window of zeros before an older one that holds
 * entries: a pass over a young FAT keeps the windows its walks read.
 */
START_TEST(test_drop_zeros)
{
	static uint8_t zeros[2 * FP_FAT_WIN_LEN];	/* windows 1 and 2 */
	struct vol v;
	struct fp_fat *fat = NULL;
	uint64_t masks[2];

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	ck_assert_int_eq(fp_img_write(v.img, v.g.fat_off + 4 * 65536, zeros,
				      sizeof(zeros)), FP_OK);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	fp_fat_cache(fat, 2 * FP_FAT_WIN_LEN);
	get(fat, 100);					/* window 0 */
	ck_assert_int_eq(fp_fat_free_masks(fat, 65536, 2, masks), FP_OK);
	ck_assert_uint_eq(masks[0], ~0ull);		/* zeros */
	get(fat, 100);
	ck_assert_int_eq(fp_fat_free_masks(fat, 2 * 65536, 2, masks), FP_OK);
	ck_assert_uint_eq(masks[1], ~0ull);
	ck_assert_uint_eq(stats(fat).reads, 3);
	get(fat, 65536 + 7);				/* dropped: read */
	ck_assert_uint_eq(stats(fat).reads, 4);
	/* window 2 (zeros) made way, not window 0, the oldest */
	ck_assert_uint_eq(get(fat, 100), ref_get(copy_data(&v, 0), 32, 100));
	ck_assert_uint_eq(stats(fat).reads, 4);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/*
 * A chain that jumps between windows on every link (a hostile or badly
 * fragmented FAT) must not read a window per link: once the windows have
 * each been read about twice over, the cache keeps them all, so the reads
 * stay linear in the FAT size whatever the access pattern.
 */
START_TEST(test_thrash)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	uint32_t k;

	vol_make(&v, FP_FAT32, 300000, 2344, 1, 1);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	fp_fat_cache(fat, 1);
	for (k = 0; k < 100000; k++)
		get(fat, (k % 5) * 65536 + k % 1000 + 2);
	ck_assert_uint_le(stats(fat).reads, 3 * fp_fat_win_count(fat));
	ck_assert_uint_eq(stats(fat).loaded, fp_fat_win_count(fat));
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/* Zero entries @from .. @to - 1 in every copy of @v, in the image. */
static void zero_entries(struct vol *v, uint32_t from, uint32_t to)
{
	uint8_t *zero = calloc(to - from, 4);
	uint32_t c;

	ck_assert_ptr_nonnull(zero);
	for (c = 0; c < v->g.fat_count; c++)
		ck_assert_int_eq(fp_img_write(v->img, v->g.fat_off +
					      c * v->g.fat_len + 4 * from,
					      zero, 4 * (size_t)(to - from)),
				 FP_OK);
	free(zero);
}

/* Entry @cl of every copy in @img to @raw (top 4 bits included). */
static void ref_put32(const struct vol *v, uint8_t *img, uint32_t cl,
		      uint32_t raw)
{
	uint32_t c;

	for (c = 0; c < v->g.fat_count; c++)
		fp_put_le32(img + v->g.fat_off + c * v->g.fat_len + 4 * cl,
			    raw);
}

/*
 * A sparse image file at @path for @v (FAT32, 2 copies): holes but for
 * the first sector of each copy (entries 0-2: media, EOC, the root's
 * EOC), which goes into @head too.  Returns the open descriptor.
 */
static int sparse_file(const struct vol *v, char *path, uint8_t *head)
{
	uint32_t c;
	int fd;

	memset(head, 0, SEC);
	fp_put_le32(head, 0x0FFFFFF8);
	fp_put_le32(head + 4, 0x0FFFFFFF);
	fp_put_le32(head + 8, 0x0FFFFFFF);
	fd = mkstemp(test_tmpl(path, TEST_TMPL_LEN, "check_fat"));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, (off_t)v->len), 0);
	for (c = 0; c < 2; c++)
		ck_assert_int_eq(pwrite(fd, head, SEC, (off_t)(v->g.fat_off +
					c * v->g.fat_len)), SEC);
	return fd;
}

/*
 * A chain that fills windows read from holes of a sparse file packs them
 * without writing the links (when the filesystem reports holes; else as
 * any window): the flushed FAT must be the chain, entry by entry.
 */
START_TEST(test_pack_holes)
{
	char path[TEST_TMPL_LEN];
	const uint32_t end = 3 * 65536 - 1;	/* the last of window 2 */
	struct vol v;
	struct fp_fat *fat = NULL;
	struct fp_img *img;
	uint8_t *fatbuf, head[SEC];
	uint32_t cl, c;
	int e;

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	ck_assert_int_eq(close(sparse_file(&v, path, head)), 0);
	ck_assert_int_eq(fp_img_open(path, FP_IMG_WRITE, &img, &e), FP_OK);
	ck_assert_int_eq(fp_fat_open(img, &v.g, &fat), FP_OK);
	ck_assert_int_eq(fp_fat_check_copies(fat), FP_OK);
	ck_assert_int_eq(fp_fat_set_chain(fat, 3, end - 2), FP_OK);
	ck_assert_uint_eq(stats(fat).packed, 2);
	ck_assert_uint_eq(get(fat, 65536 * 2 - 1), 65536 * 2);
	ck_assert_uint_eq(get(fat, end), 0x0FFFFFFF);
	ck_assert_uint_eq(get(fat, end + 1), 0);
	ck_assert_int_eq(fp_fat_flush(fat, img, &v.g), FP_OK);
	fp_fat_free(fat);
	fatbuf = malloc(v.g.fat_len);
	ck_assert_ptr_nonnull(fatbuf);
	for (c = 0; c < 2; c++) {
		ck_assert_int_eq(fp_img_read(img, v.g.fat_off + c *
					     v.g.fat_len, fatbuf,
					     v.g.fat_len), FP_OK);
		for (cl = 0; cl < 300002; cl++)
			if (ref_get(fatbuf, FP_FAT32, cl) !=
			    (cl < 3 ? ref_get(head, FP_FAT32, cl) :
			     cl < end ? cl + 1 : cl == end ? 0x0FFFFFFF : 0))
				break;
		ck_assert_uint_eq(cl, 300002);
	}
	printf("check_fat: pack from holes: %lu hole reads\n",
	       fp_img_hole_reads(img));
	free(fatbuf);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	unlink(path);
	vol_free(&v);
}
END_TEST

/*
 * fp_fat_free_masks() against the bit-by-bit decoder, for every type: a
 * FAT with free entries here and there, a block of 64 free ones, and the
 * last, partial block; a start that is not a multiple of 64 is refused.
 */
START_TEST(test_free_mask)
{
	static uint64_t all[300000 / 64 + 1];
	struct vol v;
	struct fp_fat *fat = NULL;
	uint32_t cl, k, c, want, n;
	uint64_t m;

	for (c = 0; c < 3; c++) {
		vol_make(&v, shapes[c].t, shapes[c].clusters,
			 shapes[c].secs, 1, 1);
		ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
		for (cl = 0; cl <= fp_fat_max_cl(fat); cl += 3 + cl % 5)
			set(fat, cl, 0);
		for (cl = 128; cl < 192; cl++)
			set(fat, cl, 0);
		set(fat, 200, shapes[c].t == FP_FAT32 ? 0x10000000 : 0);
		set(fat, 64, 0xFF7);
		for (cl = 0; cl <= fp_fat_max_cl(fat); cl += 64) {
			ck_assert_int_eq(fp_fat_free_masks(fat, cl, 1, &m),
					 FP_OK);
			for (k = 0; k < 64; k++) {
				want = cl + k <= fp_fat_max_cl(fat) &&
				       get(fat, cl + k) == 0;
				ck_assert_msg(((m >> k) & 1) == want,
					      "type %d entry %u", shapes[c].t,
					      cl + k);
			}
		}
		ck_assert_int_eq(fp_fat_free_masks(fat, 128, 1, &m), FP_OK);
		ck_assert(m == ~0ull);
		ck_assert_int_eq(fp_fat_free_masks(fat, 32, 1, &m),
				 FP_E_INVAL);
		/* many at once, across windows, the same as one by one */
		n = (fp_fat_max_cl(fat) - 64) / 64 + 1;
		ck_assert_int_eq(fp_fat_free_masks(fat, 64, n, all), FP_OK);
		for (k = 0; k < n; k++) {
			ck_assert_int_eq(fp_fat_free_masks(fat, 64 + 64 * k,
							   1, &m), FP_OK);
			ck_assert(m == all[k]);
		}
		ck_assert_int_eq(fp_fat_free_masks(fat, 64, n + 1, all),
				 FP_E_INVAL);
		fp_fat_free(fat);
		vol_free(&v);
	}
}
END_TEST

/*
 * fp_fat_free_groups() against fp_fat_free_masks(): the whole groups of
 * 64 free entries from a start, with the window of 65,536 entries that
 * holds entries here and there, the windows of zeros after it (one test a
 * window), a FAT32 entry free but for its top 4 bits, the partial last
 * group (never whole) and starts in the middle of a run.
 */
START_TEST(test_free_groups)
{
	static const uint32_t counts[] = { 1, 2, 7, 1024, 5000 };
	struct vol v;
	struct fp_fat *fat = NULL;
	uint32_t cl, c, k, g, want, n, groups, max;
	uint64_t m;

	for (c = 0; c < 3; c++) {
		vol_make(&v, shapes[c].t, shapes[c].clusters,
			 shapes[c].secs, 1, 1);
		ck_assert_int_eq(fp_img_zero(v.img, v.g.fat_off, v.g.fat_len),
				 FP_OK);
		ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
		max = fp_fat_max_cl(fat);
		for (cl = 2; cl < 3000 && cl <= max; cl += 1 + cl % 200)
			set(fat, cl, cl + 1);
		if (max > 3200)
			set(fat, 3200, shapes[c].t == FP_FAT32 ? 0x10000000 :
				       0);
		set(fat, max - 70, 0xFF7);
		groups = (max - 64) / 64 + 1;
		for (cl = 64; cl <= max; cl += cl < 4096 ? 64 : 64 * 97) {
			for (k = 0; k < 5; k++) {
				n = counts[k];
				if (n > groups - (cl - 64) / 64)
					n = groups - (cl - 64) / 64;
				for (want = 0; want < n; want++) {
					ck_assert_int_eq(fp_fat_free_masks(fat,
						cl + 64 * want, 1, &m), FP_OK);
					if (m != ~0ull)
						break;
				}
				ck_assert_int_eq(fp_fat_free_groups(fat, cl, n,
								    &g), FP_OK);
				ck_assert_msg(g == want, "type %d cl %u n %u: "
					      "%u, not %u", shapes[c].t, cl, n,
					      g, want);
			}
		}
		ck_assert_int_eq(fp_fat_free_groups(fat, 32, 1, &g),
				 FP_E_INVAL);
		ck_assert_int_eq(fp_fat_free_groups(fat, 64, groups + 1, &g),
				 FP_E_INVAL);
		fp_fat_free(fat);
		vol_free(&v);
	}
}
END_TEST

/*
 * Windows that a chain fills are packed: their buffers are given back,
 * reads and changes go to the short list of entries that are not links
 * to the next cluster (the top 4 bits kept), one change too many unpacks
 * a window, and the flush writes exactly what the buffers would have.
 * The expected image is built here, entry by entry, from the old one.
 */
START_TEST(test_pack)
{
	const uint32_t start = 65536 - 100, end = 3 * 65536 + 99;
	const uint32_t high = 2 * 65536 + 5;	/* top 4 bits set */
	struct vol v;
	struct fp_fat *fat = NULL;
	uint8_t *want;
	uint32_t cl, k;

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	zero_entries(&v, 60000, 270000);
	ref_put32(&v, v.orig, high, 0x30000000);
	ck_assert_int_eq(fp_img_write(v.img, v.g.fat_off + 4 * high,
				      v.orig + v.g.fat_off + 4 * high, 4),
			 FP_OK);
	ck_assert_int_eq(fp_img_write(v.img, v.g.fat_off + v.g.fat_len +
				      4 * high, v.orig + v.g.fat_off +
				      4 * high, 4), FP_OK);
	want = malloc(v.len);
	ck_assert_ptr_nonnull(want);
	memcpy(want, fp_img_mem_data(v.img), v.len);

	/* without the copies compared first, nothing is packed */
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	ck_assert_int_eq(fp_fat_set_chain(fat, start, end - start + 1),
			 FP_OK);
	ck_assert_uint_eq(stats(fat).packed, 0);
	ck_assert_uint_eq(stats(fat).loaded, 4);
	fp_fat_free(fat);

	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	ck_assert_int_eq(fp_fat_check_copies(fat), FP_OK);
	ck_assert_int_eq(fp_fat_set_chain(fat, start, end - start + 1),
			 FP_OK);
	for (cl = start; cl <= end; cl++)
		ref_put32(&v, want, cl, (cl == high ? 0x30000000 : 0) |
			  (cl == end ? 0x0FFFFFFF : cl + 1));
	ck_assert_uint_eq(stats(fat).packed, 2);	/* windows 1 and 2 */
	ck_assert_uint_eq(stats(fat).loaded, 2);	/* windows 0 and 3 */
	ck_assert_uint_eq(fp_fat_copy_diff(fat, 1).count, 0);
	ck_assert_uint_eq(get(fat, 65536), 65537);
	ck_assert_uint_eq(get(fat, high), high + 1);
	ck_assert_uint_eq(get(fat, 3 * 65536 - 1), 3 * 65536);
	/* a link made an end, and back; an end in window 2 */
	set(fat, 65536 + 1000, 0x0FFFFFFF);
	ck_assert_uint_eq(get(fat, 65536 + 1000), 0x0FFFFFFF);
	set(fat, 65536 + 1000, 65536 + 1001);
	set(fat, high, 0x0FFFFFF8);
	ref_put32(&v, want, high, 0x3FFFFFF8);
	ck_assert_uint_eq(get(fat, high), 0x0FFFFFF8);
	ck_assert_uint_eq(stats(fat).packed, 2);
	/* 33 changes in window 1 are one too many: it is unpacked */
	for (k = 0; k < 33; k++) {
		cl = 65536 + 7 * k;
		set(fat, cl, 0x0FFFFFFF);
		ref_put32(&v, want, cl, 0x0FFFFFFF);
	}
	ck_assert_uint_eq(stats(fat).packed, 1);
	ck_assert_uint_eq(get(fat, 65536 + 7), 0x0FFFFFFF);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_mem_eq(fp_img_mem_data(v.img), want, v.len);
	/* after the 4 writes above: windows 0-3, one write each, per copy */
	ck_assert_uint_eq(fp_img_write_count(v.img), 4 + 2 * 4);
	/* once written, a packed window is written again only if changed */
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(v.img), 4 + 2 * 4);
	set(fat, 2 * 65536 + 9, 0x0FFFFFFF);
	ref_put32(&v, want, 2 * 65536 + 9, 0x0FFFFFFF);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_mem_eq(fp_img_mem_data(v.img), want, v.len);
	ck_assert_uint_eq(fp_img_write_count(v.img), 4 + 2 * 5);
	/* a read through the window API unpacks it, clean */
	ck_assert_uint_eq(stats(fat).packed, 1);
	ck_assert_uint_eq(check_seq(fat, 2 * 65536 + 10), 65536 - 10);
	ck_assert_uint_eq(stats(fat).packed, 0);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(v.img), 4 + 2 * 5);
	free(want);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/* Entry @cl of every copy of the image and of @want to @raw. */
static void put_both(struct vol *v, uint8_t *want, uint32_t cl, uint32_t raw)
{
	uint8_t b[4];
	uint32_t c;

	fp_put_le32(b, raw);
	ref_put32(v, want, cl, raw);
	for (c = 0; c < v->g.fat_count; c++)
		ck_assert_int_eq(fp_img_write(v->img, v->g.fat_off +
					      c * v->g.fat_len + 4 * cl, b, 4),
				 FP_OK);
}

/*
 * A chain that fills a window packs it straight from the old entries:
 * each entry with top 4 bits set is a patch that keeps them.  Window 1
 * has 32 such entries (PATCH_MAX: packed), window 2 as many plus the
 * chain's end (one too many: linked in the buffer).  A short chain at an
 * odd index links entry by entry.  The flush must write exactly the
 * chain, top bits kept, with one write a window and copy, each window
 * to both copies before the next: a failed fifth write leaves windows
 * 0 and 1 new in both copies and window 2 old in both.
 */
START_TEST(test_pack_high)
{
	const uint32_t start = 65536, end = 3 * 65536 - 1;
	struct vol v;
	struct fp_fat *fat = NULL;
	uint8_t *want, *orig;
	uint32_t cl, k, old, writes;

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	zero_entries(&v, 60000, 270000);
	want = malloc(v.len);
	orig = malloc(v.len);
	ck_assert_ptr_nonnull(want);
	ck_assert_ptr_nonnull(orig);
	memcpy(want, fp_img_mem_data(v.img), v.len);
	for (k = 0; k < 32; k++) {
		put_both(&v, want, 65536 + 5 + 2000 * k, (k % 15 + 1) << 28);
		put_both(&v, want, 131072 + 3 + 2000 * k, (k % 15 + 1) << 28);
	}
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	ck_assert_int_eq(fp_fat_check_copies(fat), FP_OK);
	ck_assert_int_eq(fp_fat_set_chain(fat, start, end - start + 1),
			 FP_OK);
	ck_assert_int_eq(fp_fat_set_chain(fat, 60001, 7), FP_OK);
	ck_assert_uint_eq(stats(fat).packed, 1);	/* window 1 */
	ck_assert_uint_eq(stats(fat).loaded, 2);	/* windows 0 and 2 */
	for (cl = start; cl <= end; cl++) {
		old = fp_le32(want + v.g.fat_off + 4 * cl) & 0xF0000000;
		ref_put32(&v, want, cl, old | (cl == end ? 0x0FFFFFFF :
					       cl + 1));
	}
	for (cl = 60001; cl <= 60007; cl++)
		ref_put32(&v, want, cl, cl == 60007 ? 0x0FFFFFFF : cl + 1);
	ck_assert_uint_eq(get(fat, 65536 + 5), 65536 + 6);
	ck_assert_uint_eq(get(fat, 131072 + 3), 131072 + 4);
	ck_assert_uint_eq(get(fat, end), 0x0FFFFFFF);
	/* each window goes to both copies before the next one */
	memcpy(orig, fp_img_mem_data(v.img), v.len);
	writes = (uint32_t)fp_img_write_count(v.img);
	fp_img_fail_write(v.img, writes + 5, EIO);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_E_IO);
	ck_assert_uint_eq(fp_img_write_count(v.img) - writes, 4);
	for (k = 0; k < 2; k++) {
		size_t at = v.g.fat_off + k * v.g.fat_len;

		ck_assert_mem_eq(fp_img_mem_data(v.img) + at, want + at,
				 2 * 65536 * 4);
		ck_assert_mem_eq(fp_img_mem_data(v.img) + at + 2 * 65536 * 4,
				 orig + at + 2 * 65536 * 4, 65536 * 4);
	}
	fp_img_fail_write(v.img, 0, 0);
	writes = (uint32_t)fp_img_write_count(v.img);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_mem_eq(fp_img_mem_data(v.img), want, v.len);
	ck_assert_uint_eq(fp_img_write_count(v.img) - writes, 2 * 3);
	free(orig);
	free(want);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/* The chain @start .. @start + @count - 1 into every copy of @want. */
static void ref_chain(const struct vol *v, uint8_t *want, uint32_t start,
		      uint32_t count)
{
	uint32_t cl, end = start + count - 1;

	for (cl = start; cl <= end; cl++)
		ref_put32(v, want, cl, cl == end ? 0x0FFFFFFF : cl + 1);
}

/* Reads of another copy for a window of @bytes. */
static unsigned long parts(uint32_t bytes)
{
	return (bytes + FP_FAT_PART_LEN - 1) / FP_FAT_PART_LEN;
}

/*
 * The copies of a sparse image are compared without reading a window of
 * another copy where the active one read zeros from a hole and the other
 * is a hole too; a window of copy 1 with data where copy 0 has a hole is
 * still read and its difference found.  Where the filesystem reports no
 * holes every window of both copies is read.
 */
START_TEST(test_compare_holes)
{
	char path[TEST_TMPL_LEN];
	const uint32_t odd = 2 * 65536 + 30000;	/* set in copy 1 only */
	struct vol v;
	struct fp_fat *fat = NULL;
	struct fp_img *img;
	uint8_t head[SEC], b[4];
	uint32_t w, last;
	int fd, e;

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	last = (uint32_t)(((300000 + 2) * 4 + SEC - 1) / SEC * SEC -
			  4 * FP_FAT_WIN_LEN);	/* bytes of window 4 */
	fd = sparse_file(&v, path, head);
	fp_put_le32(b, 9);
	ck_assert_int_eq(pwrite(fd, b, 4, (off_t)(v.g.fat_off + v.g.fat_len +
						  4 * odd)), 4);
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(fp_img_open(path, FP_IMG_WRITE, &img, &e), FP_OK);
	ck_assert_int_eq(fp_fat_open(img, &v.g, &fat), FP_OK);
	ck_assert_int_eq(fp_fat_check_copies(fat), FP_OK);
	for (w = 0; w < fp_fat_win_count(fat); w++)
		get(fat, w * 65536 + 3);
	ck_assert_uint_eq(fp_fat_copy_diff(fat, 1).count, 1);
	ck_assert_uint_eq(fp_fat_copy_diff(fat, 1).first_cl, odd);
	/*
	 * copy 0: 5 windows, a read each; copy 1: at least windows 0 and 2
	 * (data), and windows 1 and 3 (holes, so far from any data that no
	 * block of the filesystem holds both) not, each read in parts
	 */
	if (fp_img_hole_reads(img))
		ck_assert_uint_le(fp_img_read_count(img),
				  5 + 2 * parts(FP_FAT_WIN_LEN) +
				  parts(last));
	else
		ck_assert_uint_eq(fp_img_read_count(img),
				  5 + 4 * parts(FP_FAT_WIN_LEN) +
				  parts(last));
	printf("check_fat: compare holes: %lu reads, %lu from holes\n",
	       fp_img_read_count(img), fp_img_hole_reads(img));
	fp_fat_free(fat);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	unlink(path);
	vol_free(&v);
}
END_TEST

/*
 * Windows that are zeros as data (not holes), once the free masks have
 * seen them: chains that fill window 1 in one growing range (the second
 * one before the first) pack it without a scan; in window 2 a chain that
 * leaves a gap after the range must not count as filling it; window 3
 * gets an entry of its first chain set on its own before the adjacent
 * second chain (it packs by a scan, the entry a patch).  The flushed FAT must be the chains and
 * that entry, entry by entry, in both copies.
 */
START_TEST(test_pack_ranged)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	uint8_t *want;
	uint64_t masks[1024];
	uint32_t w, max;

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	zero_entries(&v, 2, 300002);
	want = malloc(v.len);
	ck_assert_ptr_nonnull(want);
	memcpy(want, fp_img_mem_data(v.img), v.len);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	ck_assert_int_eq(fp_fat_check_copies(fat), FP_OK);
	max = fp_fat_max_cl(fat);
	for (w = 0; w * 65536 <= max; w++) {
		ck_assert_int_eq(fp_fat_free_masks(fat, w * 65536,
			w * 65536 + 65535 <= max ? 1024 :
			(max - w * 65536) / 64 + 1, masks), FP_OK);
		ck_assert_uint_eq(masks[5], ~0ull);
	}
	ck_assert_int_eq(fp_fat_set_chain(fat, 65536 + 100, 65536 - 100 + 51),
			 FP_OK);
	ref_chain(&v, want, 65536 + 100, 65536 - 100 + 51);
	ck_assert_uint_eq(stats(fat).packed, 0);
	ck_assert_int_eq(fp_fat_set_chain(fat, 65536, 100), FP_OK);
	ref_chain(&v, want, 65536, 100);
	ck_assert_uint_eq(stats(fat).packed, 1);	/* window 1 */
	ck_assert_uint_eq(get(fat, 65536 + 99), 0x0FFFFFFF);
	ck_assert_uint_eq(get(fat, 65536 + 100), 65536 + 101);
	/* window 2: [0, 51) then [1000, end): not one range */
	ck_assert_int_eq(fp_fat_set_chain(fat, 131072 + 1000, 65536 - 1000),
			 FP_OK);
	ref_chain(&v, want, 131072 + 1000, 65536 - 1000);
	ck_assert_uint_eq(stats(fat).packed, 1);
	ck_assert_uint_eq(get(fat, 131072 + 51), 0);
	/* window 3: a chain, an entry set alone, the adjacent rest */
	ck_assert_int_eq(fp_fat_set_chain(fat, 196608, 30000), FP_OK);
	ref_chain(&v, want, 196608, 30000);
	set(fat, 196608 + 100, 7);
	ref_put32(&v, want, 196608 + 100, 7);
	ck_assert_int_eq(fp_fat_set_chain(fat, 196608 + 30000, 35536),
			 FP_OK);
	ref_chain(&v, want, 196608 + 30000, 35536);
	ck_assert_uint_eq(stats(fat).packed, 2);	/* by a scan: 7 a patch */
	ck_assert_uint_eq(get(fat, 196608 + 100), 7);
	ck_assert_int_eq(fp_fat_flush(fat, v.img, &v.g), FP_OK);
	ck_assert_mem_eq(fp_img_mem_data(v.img), want, v.len);
	free(want);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/*
 * With copy checking on, a window is compared with the other copies when
 * it is first read: a difference in a window never read is not seen.
 */
START_TEST(test_check_copies)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	uint8_t byte;
	uint64_t off;

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	off = v.g.fat_off + v.g.fat_len + 4 * 200001;
	byte = pattern(4 * 200001) ^ 0x01;
	ck_assert_int_eq(fp_img_write(v.img, off, &byte, 1), FP_OK);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	get(fat, 7);
	ck_assert_int_eq(fp_fat_check_copies(fat), FP_OK);
	get(fat, 70000);
	ck_assert_uint_eq(fp_fat_copy_diff(fat, 1).count, 0);
	get(fat, 200000);
	ck_assert_uint_eq(fp_fat_copy_diff(fat, 1).count, 1);
	ck_assert_uint_eq(fp_fat_copy_diff(fat, 1).first_cl, 200001);
	ck_assert_uint_eq(fp_fat_copy_diff(fat, 0).count, 0);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

/*
 * Compare FAT copy @copy of @v with copy 0 as copy checking does: a fresh
 * load with the check on, then a read of every window.
 */
static enum fp_err compare(struct vol *v, uint32_t copy, int *equal,
			   uint32_t *first, uint32_t *count)
{
	struct fp_fat *fat = NULL;
	uint32_t cl;

	ck_assert_int_eq(fp_fat_open(v->img, &v->g, &fat), FP_OK);
	ck_assert_int_eq(fp_fat_check_copies(fat), FP_OK);
	for (cl = 0; cl < fp_fat_max_cl(fat); cl += 1000)
		get(fat, cl);
	get(fat, fp_fat_max_cl(fat));
	*equal = fp_fat_copy_diff(fat, copy).count == 0;
	*first = fp_fat_copy_diff(fat, copy).first_cl;
	*count = fp_fat_copy_diff(fat, copy).count;
	fp_fat_free(fat);
	return FP_OK;
}

/* Flip @mask in byte @i of FAT copy 1 (of a volume built with @same). */
static void flip(struct vol *v, uint64_t i, uint8_t mask)
{
	uint8_t byte = pattern(i) ^ mask;

	ck_assert_int_eq(fp_img_write(v->img, v->g.fat_off + v->g.fat_len + i,
				      &byte, 1), FP_OK);
}

START_TEST(test_compare)
{
	struct vol v;
	int equal = 7;
	uint32_t first, count;

	vol_make(&v, FP_FAT16, 1000, 4, 2, 1);
	ck_assert_int_eq(compare(&v, 1, &equal, &first, &count), FP_OK);
	ck_assert_int_eq(equal, 1);
	ck_assert_uint_eq(count, 0);
	flip(&v, 2 * 10 + 1, 0x40);
	flip(&v, 2 * 700, 0xFF);
	flip(&v, 2 * 700 + 1, 0x01);
	flip(&v, 2 * 1002, 0xFF);		/* after the last entry */
	ck_assert_int_eq(compare(&v, 1, &equal, &first, &count), FP_OK);
	ck_assert_int_eq(equal, 0);
	ck_assert_uint_eq(first, 10);
	ck_assert_uint_eq(count, 2);
	vol_free(&v);
}
END_TEST

/* 1003 FAT12 entries: the last one ends in the low nibble of byte 1504. */
START_TEST(test_compare_fat12_odd)
{
	struct vol v;
	int equal;
	uint32_t first, count;

	vol_make(&v, FP_FAT12, 1001, 3, 2, 1);
	flip(&v, 1504, 0xF0);
	flip(&v, 1505, 0xFF);
	ck_assert_int_eq(compare(&v, 1, &equal, &first, &count), FP_OK);
	ck_assert_int_eq(equal, 1);
	flip(&v, 1504, 0x01);
	ck_assert_int_eq(compare(&v, 1, &equal, &first, &count), FP_OK);
	ck_assert_int_eq(equal, 0);
	ck_assert_uint_eq(first, 1002);
	ck_assert_uint_eq(count, 1);
	/* the shared byte of entries 340/341 counts for 341 only */
	flip(&v, 511, 0x10);
	ck_assert_int_eq(compare(&v, 1, &equal, &first, &count), FP_OK);
	ck_assert_uint_eq(first, 341);
	ck_assert_uint_eq(count, 2);
	vol_free(&v);
}
END_TEST

/* Copy 1 of @v against copy 0: @count entries differ, the first @first. */
static void expect_diff(struct vol *v, uint32_t first, uint32_t count)
{
	int equal;
	uint32_t f, n;

	ck_assert_int_eq(compare(v, 1, &equal, &f, &n), FP_OK);
	ck_assert_int_eq(equal, count == 0);
	ck_assert_uint_eq(n, count);
	if (count)
		ck_assert_uint_eq(f, first);
}

/*
 * A FAT32 of several windows (65536 entries each), the other copy read
 * in parts of FP_FAT_PART_LEN bytes: entries on both sides of the edges
 * of windows and of parts.
 */
START_TEST(test_compare_chunks)
{
	const uint32_t part = FP_FAT_PART_LEN / 4;	/* entries a part */
	struct vol v;

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	expect_diff(&v, 0, 0);
	flip(&v, 4 * (65536 + part - 1) + 3, 0x01);
	flip(&v, 4 * (65536 + part), 0x01);
	flip(&v, 4 * 196607 + 3, 0x01);
	flip(&v, 4 * 196608, 0x01);
	flip(&v, 4 * 250000 + 3, 0x80);		/* top 4 bits only */
	flip(&v, 4 * 300002, 0xFF);		/* after the last entry */
	expect_diff(&v, 65536 + part - 1, 5);
	vol_free(&v);
}
END_TEST

/* A FAT16 of 120 KiB, one window: its second part is compared too. */
START_TEST(test_compare_fat16_parts)
{
	const uint32_t part = FP_FAT_PART_LEN / 2;	/* entries a part */
	struct vol v;

	vol_make(&v, FP_FAT16, 60000, 235, 2, 1);
	expect_diff(&v, 0, 0);
	flip(&v, 2 * 50000 + 1, 0x20);
	expect_diff(&v, 50000, 1);
	flip(&v, 2 * part, 0x01);
	flip(&v, 2 * (part - 1) + 1, 0x01);
	expect_diff(&v, part - 1, 3);
	vol_free(&v);
}
END_TEST

START_TEST(test_img_mem)
{
	uint8_t data[1000], buf[16];
	struct fp_img *img;
	const uint8_t *p;
	size_t i;

	for (i = 0; i < sizeof(data); i++)
		data[i] = (uint8_t)i;
	ck_assert_int_eq(fp_img_mem(NULL, 5, &img), FP_E_INVAL);
	ck_assert_int_eq(fp_img_mem(data, sizeof(data), &img), FP_OK);
	p = fp_img_mem_data(img);
	ck_assert_uint_eq(fp_img_len(img), 1000);
	ck_assert_int_eq(fp_img_is_regular(img), 1);
	ck_assert_int_eq(fp_img_read(img, 990, buf, 10), FP_OK);
	ck_assert_uint_eq(buf[9], 999 & 0xFF);
	memset(buf, 0x77, sizeof(buf));
	ck_assert_int_eq(fp_img_read(img, 995, buf, 10), FP_E_TRUNC);
	ck_assert_uint_eq(buf[0], 0x77);
	ck_assert_int_eq(fp_img_read(img, UINT64_MAX, buf, 2), FP_E_TRUNC);
	ck_assert_int_eq(fp_img_write(img, 999, buf, 2), FP_E_TRUNC);
	ck_assert_int_eq(fp_img_zero(img, 10, UINT64_MAX), FP_E_TRUNC);
	ck_assert_int_eq(fp_img_write(img, 1000, buf, 0), FP_OK);
	ck_assert_int_eq(fp_img_write(img, 1001, buf, 0), FP_E_TRUNC);
	ck_assert_mem_eq(p, data, sizeof(data));
	ck_assert_int_eq(fp_img_zero(img, 100, 100), FP_OK);
	ck_assert_uint_eq(p[99], 99);
	ck_assert_uint_eq(p[100] | p[199], 0);
	ck_assert_uint_eq(p[200], 200);
	ck_assert_uint_eq(fp_img_write_count(img), 2);
	ck_assert_int_eq(fp_img_sync(img), FP_OK);

	ck_assert_int_eq(fp_img_set_window(img, 300, 200), FP_OK);
	ck_assert_uint_eq(fp_img_len(img), 200);
	ck_assert_int_eq(fp_img_read(img, 0, buf, 1), FP_OK);
	ck_assert_uint_eq(buf[0], 300 & 0xFF);
	ck_assert_int_eq(fp_img_write(img, 199, buf, 2), FP_E_TRUNC);
	ck_assert_int_eq(fp_img_write(img, 199, "z", 1), FP_OK);
	ck_assert_uint_eq(p[499], 'z');
	ck_assert_int_eq(fp_img_set_window(img, 900, 101), FP_E_TRUNC);
	ck_assert_uint_eq(fp_img_len(img), 200);
	ck_assert_int_eq(fp_img_set_window(img, 1001, 0), FP_E_TRUNC);
	ck_assert_int_eq(fp_img_set_window(img, 900, 0), FP_OK);
	ck_assert_uint_eq(fp_img_len(img), 100);

	fp_img_fail_write(img, fp_img_write_count(img) + 3, EROFS);
	ck_assert_int_eq(fp_img_write(img, 0, "a", 1), FP_OK);
	ck_assert_int_eq(fp_img_write(img, 1, "b", 1), FP_OK);
	ck_assert_int_eq(fp_img_zero(img, 0, 2), FP_E_IO);
	ck_assert_int_eq(fp_img_errno(img), EROFS);
	ck_assert_int_eq(fp_img_write(img, 2, "c", 1), FP_E_IO);
	ck_assert_uint_eq(p[900], 'a');
	ck_assert_uint_eq(p[901], 'b');
	ck_assert_uint_eq(p[902], 902 & 0xFF);
	ck_assert_uint_eq(fp_img_write_count(img), 5);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	ck_assert_int_eq(fp_img_close(NULL), FP_OK);
}
END_TEST

/* A new file in $TMPDIR of @len bytes @fill; its name into @path. */
static void temp_file(char path[TEST_TMPL_LEN], size_t len, uint8_t fill)
{
	uint8_t *buf = malloc(len);
	int fd = mkstemp(test_tmpl(path, TEST_TMPL_LEN, "check_fat"));

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_ge(fd, 0);
	memset(buf, fill, len);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
	free(buf);
}

START_TEST(test_img_file)
{
	char path[TEST_TMPL_LEN];
	const size_t len = 3u << 20;
	uint8_t *buf = malloc(len);
	struct fp_img *img;
	struct stat st;
	size_t i;
	int e;

	ck_assert_ptr_nonnull(buf);
	temp_file(path, len, 0xAB);
	ck_assert_int_eq(fp_img_open(path, FP_IMG_WRITE, &img, &e), FP_OK);
	ck_assert_int_eq(e, 0);
	ck_assert_uint_eq(fp_img_len(img), len);
	ck_assert_int_eq(fp_img_is_regular(img), 1);
	ck_assert_ptr_null(fp_img_mem_data(img));
	ck_assert_int_eq(fp_img_write(img, len - 3, "xyz", 3), FP_OK);
	ck_assert_int_eq(fp_img_write(img, len - 2, "xyz", 3), FP_E_TRUNC);
	ck_assert_int_eq(fp_img_zero(img, 1000, len - 2000), FP_OK);
	ck_assert_int_eq(fp_img_sync(img), FP_OK);
	ck_assert_int_eq(fp_img_read(img, 0, buf, len), FP_OK);
	/* One assertion for the whole buffer: 3M of them time out. */
	for (i = 0; i < len - 3; i++)
		if (buf[i] != (i < 1000 || i >= len - 1000 ? 0xAB : 0))
			break;
	ck_assert_uint_eq(i, len - 3);
	ck_assert_mem_eq(buf + len - 3, "xyz", 3);
	ck_assert_int_eq(fp_img_set_window(img, len - 1000, 0), FP_OK);
	ck_assert_int_eq(fp_img_read(img, 997, buf, 3), FP_OK);
	ck_assert_mem_eq(buf, "xyz", 3);
	fp_img_fail_write(img, fp_img_write_count(img) + 1, EIO);
	ck_assert_int_eq(fp_img_write(img, 0, "q", 1), FP_E_IO);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq((uint64_t)st.st_size, len);

	ck_assert_int_eq(fp_img_open(path, 0, &img, &e), FP_OK);
	ck_assert_int_eq(fp_img_read(img, len - 1000, buf, 1), FP_OK);
	ck_assert_uint_eq(buf[0], 0xAB);	/* the injected fault */
	ck_assert_int_eq(fp_img_write(img, 0, "q", 1), FP_E_IO);
	ck_assert_int_eq(fp_img_errno(img), EBADF);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	unlink(path);
	free(buf);
}
END_TEST

/* Whether @buf holds @len bytes of @byte (one assertion, not @len). */
static int all_bytes(const uint8_t *buf, size_t len, uint8_t byte)
{
	size_t i;

	for (i = 0; i < len && buf[i] == byte; i++)
		;
	return i == len;
}

/*
 * Reads of 64 KiB or more that lie in a hole of a sparse file are zeros
 * without a read, when the filesystem reports holes (SEEK_DATA); a read
 * that touches data, a small read, and any read after a write read the
 * file.  The file: data at [0, 4 KiB) and [3 MiB, 3 MiB + 4 KiB) of 4 MiB.
 */
START_TEST(test_img_holes)
{
	char path[TEST_TMPL_LEN];
	const off_t mib = 1 << 20;
	uint8_t *buf = malloc(256 << 10), data[4096];
	struct fp_img *img;
	unsigned long h;
	int fd, e, holes;

	ck_assert_ptr_nonnull(buf);
	memset(data, 0xAB, sizeof(data));
	fd = mkstemp(test_tmpl(path, sizeof(path), "check_fat"));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 4 * mib), 0);
	ck_assert_int_eq(pwrite(fd, data, sizeof(data), 0), sizeof(data));
	ck_assert_int_eq(pwrite(fd, data, sizeof(data), 3 * mib),
			 sizeof(data));
	ck_assert_int_eq(fsync(fd), 0);
	/* what this filesystem says: holes, or all data */
	holes = lseek(fd, 4096, SEEK_DATA) == 3 * mib;
	ck_assert_int_eq(close(fd), 0);
	printf("check_fat: %s reports holes: %s\n", path, holes ? "yes" : "no");

	ck_assert_int_eq(fp_img_open(path, FP_IMG_WRITE, &img, &e), FP_OK);
	memset(buf, 0x55, 256 << 10);
	ck_assert_int_eq(fp_img_read(img, 64 << 10, buf, 256 << 10), FP_OK);
	ck_assert(all_bytes(buf, 256 << 10, 0));
	h = fp_img_hole_reads(img);
	ck_assert_uint_eq(h, holes ? 1 : 0);
	/* a write into the known hole: read again, the bytes are there */
	ck_assert_int_eq(fp_img_write(img, mib, "xyz", 3), FP_OK);
	ck_assert_int_eq(fp_img_read(img, mib - (64 << 10), buf, 128 << 10),
			 FP_OK);
	ck_assert(all_bytes(buf, 64 << 10, 0));
	ck_assert_mem_eq(buf + (64 << 10), "xyz", 3);
	ck_assert_uint_eq(fp_img_hole_reads(img), h);
	/* hole then data then hole: read */
	memset(buf, 0x55, 256 << 10);
	ck_assert_int_eq(fp_img_read(img, 3 * mib - (128 << 10), buf,
				     256 << 10), FP_OK);
	ck_assert(all_bytes(buf, 128 << 10, 0));
	ck_assert(all_bytes(buf + (128 << 10), 4096, 0xAB));
	ck_assert(all_bytes(buf + (128 << 10) + 4096, (124 << 10), 0));
	/* a small read in the hole is a read */
	memset(buf, 0x55, 4096);
	ck_assert_int_eq(fp_img_read(img, 2 * mib, buf, 4096), FP_OK);
	ck_assert(all_bytes(buf, 4096, 0));
	ck_assert_uint_eq(fp_img_hole_reads(img), h);
	/* the hole at the end of the file (SEEK_DATA: ENXIO) */
	memset(buf, 0x55, 256 << 10);
	ck_assert_int_eq(fp_img_read(img, 3 * mib + (64 << 10), buf,
				     256 << 10), FP_OK);
	ck_assert(all_bytes(buf, 256 << 10, 0));
	ck_assert_uint_eq(fp_img_hole_reads(img), h + (holes ? 1 : 0));
	h = fp_img_hole_reads(img);
	/* the rest of the hole, relative to a window base */
	ck_assert_int_eq(fp_img_set_window(img, mib + 4096, 0), FP_OK);
	memset(buf, 0x55, 64 << 10);
	ck_assert_int_eq(fp_img_read(img, mib, buf, 64 << 10), FP_OK);
	ck_assert(all_bytes(buf, 64 << 10, 0));
	ck_assert_uint_eq(fp_img_hole_reads(img), h + (holes ? 1 : 0));
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	unlink(path);
	free(buf);
}
END_TEST

/*
 * A large read over data and holes reads the data and clears the holes
 * of 64 KiB or more itself; what it returns is the file's bytes whatever
 * the filesystem reports, a hole of less than 64 KiB between data is
 * read with it, no such read counts as a hole read, and a file that
 * shrank under a read is FP_E_TRUNC.  The file: 2 MiB, data at
 * [0, 4 KiB) and [12, 16) KiB, an 8 KiB hole between, data at
 * [1 MiB, 1 MiB + 4 KiB), holes elsewhere.
 */
START_TEST(test_img_split)
{
	char path[TEST_TMPL_LEN];
	const off_t mib = 1 << 20;
	uint8_t *buf = malloc(2 << 20), *want = calloc(1, 2 << 20);
	struct fp_img *img;
	int fd, e;

	ck_assert_ptr_nonnull(buf);
	ck_assert_ptr_nonnull(want);
	memset(want, 0xA1, 4096);
	memset(want + (12 << 10), 0xB2, 4096);
	memset(want + mib, 0xC3, 4096);
	fd = mkstemp(test_tmpl(path, sizeof(path), "check_fat"));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 2 * mib), 0);
	ck_assert_int_eq(pwrite(fd, want, 4096, 0), 4096);
	ck_assert_int_eq(pwrite(fd, want + (12 << 10), 4096, 12 << 10), 4096);
	ck_assert_int_eq(pwrite(fd, want + mib, 4096, mib), 4096);
	ck_assert_int_eq(fsync(fd), 0);

	ck_assert_int_eq(fp_img_open(path, FP_IMG_WRITE, &img, &e), FP_OK);
	memset(buf, 0x55, 2 << 20);
	ck_assert_int_eq(fp_img_read(img, 0, buf, 2 << 20), FP_OK);
	ck_assert_mem_eq(buf, want, 2 << 20);
	/* from inside the small hole, across the data at 1 MiB */
	memset(buf, 0x55, 2 << 20);
	ck_assert_int_eq(fp_img_read(img, 8 << 10, buf, mib + (64 << 10)),
			 FP_OK);
	ck_assert_mem_eq(buf, want + (8 << 10), mib + (64 << 10));
	ck_assert_uint_eq(fp_img_hole_reads(img), 0);
	/* the file shrinks to end in the hole before 1 MiB */
	ck_assert_int_eq(truncate(path, mib - 4096), 0);
	ck_assert_int_eq(fp_img_read(img, 0, buf, mib + 4096), FP_E_TRUNC);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	unlink(path);
	free(want);
	free(buf);
}
END_TEST

/*
 * fp_img_zero() makes data of a hole (a flasher that skips holes must
 * copy the zeros); fp_img_punch() makes a hole of data where the
 * filesystem can.  The file: 4 MiB, all hole, then data at [1, 2) MiB.
 */
START_TEST(test_img_zero_data)
{
	char path[TEST_TMPL_LEN];
	const off_t mib = 1 << 20;
	uint8_t buf[4096];
	struct fp_img *img;
	int fd, e, holes;

	fd = mkstemp(test_tmpl(path, sizeof(path), "check_fat"));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 4 * mib), 0);
	holes = lseek(fd, 0, SEEK_DATA) < 0 && errno == ENXIO;
	ck_assert_int_eq(fp_img_open(path, FP_IMG_WRITE, &img, &e), FP_OK);
	ck_assert_int_eq(fp_img_zero(img, mib, mib), FP_OK);
	ck_assert_int_eq(fp_img_sync(img), FP_OK);
	ck_assert_int_eq(fp_img_write_count(img), 1);
	if (holes) {
		ck_assert_int_eq(lseek(fd, 0, SEEK_DATA), mib);
		ck_assert_int_eq(lseek(fd, mib, SEEK_HOLE), 2 * mib);
	}
	memset(buf, 0x55, sizeof(buf));
	ck_assert_int_eq(fp_img_read(img, mib, buf, sizeof(buf)), FP_OK);
	ck_assert(all_bytes(buf, sizeof(buf), 0));
	ck_assert_int_eq(fp_img_write(img, mib, "xyz", 3), FP_OK);
	ck_assert_int_eq(fp_img_punch(img, mib, mib), FP_OK);
	ck_assert_int_eq(fp_img_sync(img), FP_OK);
	ck_assert_int_eq(fp_img_write_count(img), 3);
	if (holes && strcmp(fp_plat_name(), "posix") == 0)
		ck_assert_int_eq(lseek(fd, 0, SEEK_DATA), mib);	/* zeros */
	else if (holes)
		ck_assert(lseek(fd, 0, SEEK_DATA) < 0 && errno == ENXIO);
	ck_assert_int_eq(fp_img_read(img, mib, buf, sizeof(buf)), FP_OK);
	ck_assert(all_bytes(buf, sizeof(buf), 0));
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	ck_assert_int_eq(close(fd), 0);
	unlink(path);
}
END_TEST

/*
 * fp_img_find_hole(): the first hole in a range, clipped to it, relative
 * to the window; none in data, in memory, or where the filesystem cannot
 * tell.  The file: 4 MiB with data at [1, 2) MiB.
 */
START_TEST(test_img_find_hole)
{
	char path[TEST_TMPL_LEN];
	const off_t mib = 1 << 20;
	uint8_t data[4096];
	struct fp_img *img;
	uint64_t ho = 7, hl = 7;
	off_t k;
	int fd, e, holes;

	memset(data, 0xAB, sizeof(data));
	fd = mkstemp(test_tmpl(path, sizeof(path), "check_fat"));
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(ftruncate(fd, 4 * mib), 0);
	for (k = mib; k < 2 * mib; k += (off_t)sizeof(data))
		ck_assert_int_eq(pwrite(fd, data, sizeof(data), k),
				 sizeof(data));
	ck_assert_int_eq(fsync(fd), 0);
	holes = lseek(fd, 0, SEEK_DATA) == mib;
	ck_assert_int_eq(close(fd), 0);
	ck_assert_int_eq(fp_img_open(path, 0, &img, &e), FP_OK);
	ck_assert_int_eq(fp_img_find_hole(img, 0, 4 * mib, &ho, &hl), FP_OK);
	ck_assert_uint_eq(ho, 0);
	ck_assert_uint_eq(hl, holes ? (uint64_t)mib : 0);
	ck_assert_int_eq(fp_img_find_hole(img, mib, 3 * mib, &ho, &hl), FP_OK);
	if (holes) {
		ck_assert_uint_eq(ho, 2 * mib);
		ck_assert_uint_eq(hl, 2 * mib);
	}
	ck_assert_int_eq(fp_img_find_hole(img, mib, mib, &ho, &hl), FP_OK);
	ck_assert_uint_eq(hl, 0);
	ck_assert_int_eq(fp_img_find_hole(img, 3 * mib, 2 * mib, &ho, &hl),
			 FP_E_TRUNC);
	ck_assert_int_eq(fp_img_set_window(img, mib / 2, 0), FP_OK);
	ck_assert_int_eq(fp_img_find_hole(img, 0, mib, &ho, &hl), FP_OK);
	ck_assert_uint_eq(ho, 0);
	ck_assert_uint_eq(hl, holes ? (uint64_t)mib / 2 : 0);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	unlink(path);
	ck_assert_int_eq(fp_img_mem(data, sizeof(data), &img), FP_OK);
	ck_assert_int_eq(fp_img_find_hole(img, 0, sizeof(data), &ho, &hl),
			 FP_OK);
	ck_assert_uint_eq(hl, 0);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
}
END_TEST

START_TEST(test_img_open_errors)
{
	struct fp_img *img = (struct fp_img *)&img;
	int e = 0;

	ck_assert_int_eq(fp_img_open("/nonexistent/x.img", 0, &img, &e),
			 FP_E_IO);
	ck_assert_int_eq(e, ENOENT);
	ck_assert_ptr_eq(img, (struct fp_img *)&img);
	ck_assert_int_eq(fp_img_open(test_tmpdir(), 0, &img, &e), FP_E_IO);
	ck_assert_int_eq(e, EISDIR);
	ck_assert_int_eq(fp_img_open("/dev/null", 0, &img, &e), FP_E_IO);
	ck_assert_int_eq(e, ENOTBLK);
	ck_assert_int_eq(fp_img_open(test_tmpdir(), 8, &img, &e), FP_E_INVAL);
	ck_assert_ptr_eq(img, (struct fp_img *)&img);
}
END_TEST

/* Runs of a chain, in chain order, for test_free_chain(). */
static const uint32_t free_runs[][2] = {
	{ 100, 1000 }, { 1500, 2 }, { 3, 1 }, { 7, 1 }, { 2000, 500 },
	{ 1499, 1 }, { 3000, 991 },
	{ 65536 - 300, 600 }, { 131000, 101 },	/* FAT32 only */
};

/* The chain of free_runs[] that fits @fat, as cluster numbers. */
static uint32_t free_chain_cls(struct fp_fat *fat, uint32_t *cls)
{
	uint32_t n = 0, r, k;

	for (r = 0; r < sizeof(free_runs) / sizeof(free_runs[0]); r++)
		if (free_runs[r][0] + free_runs[r][1] <= fp_fat_max_cl(fat))
			for (k = 0; k < free_runs[r][1]; k++)
				cls[n++] = free_runs[r][0] + k;
	return n;
}

static void link_cls(struct fp_fat *fat, const uint32_t *cls, uint32_t n)
{
	uint32_t k;

	for (k = 0; k < n; k++)
		set(fat, cls[k], k + 1 < n ? cls[k + 1] : fp_fat_eoc(fat));
}

/*
 * fp_fat_free_chain() against freeing a cluster at a time with
 * fp_fat_get() and fp_fat_set(): the same bytes in both copies (FAT32
 * top bits kept; they come from pattern()), for a chain of runs (one
 * across a FAT32 window boundary), single clusters and jumps back, freed
 * whole or from a cluster on; fp_fat_chain() counts it through its runs.
 */
START_TEST(test_free_chain)
{
	static const struct {
		enum fp_fat_type t;
		uint32_t clusters, secs;
	} vols[] = {
		{ FP_FAT12, 4000, 12 }, { FP_FAT16, 20000, 79 },
		{ FP_FAT32, 300000, 2344 },
	};
	static const uint32_t from[] = { 0, 1, 999, 1000, 1003, 5 };
	uint32_t *cls = malloc(4000 * sizeof(*cls)), n, f, k, cl, next;
	uint32_t count, last;
	struct vol a, b;
	struct fp_fat *fa = NULL, *fb = NULL;

	ck_assert_ptr_nonnull(cls);
	for (f = 0; f < sizeof(from) / sizeof(from[0]); f++) {
		vol_make(&a, vols[_i].t, vols[_i].clusters, vols[_i].secs,
			 2, 1);
		vol_make(&b, vols[_i].t, vols[_i].clusters, vols[_i].secs,
			 2, 1);
		ck_assert_int_eq(fp_fat_open(a.img, &a.g, &fa), FP_OK);
		ck_assert_int_eq(fp_fat_open(b.img, &b.g, &fb), FP_OK);
		n = free_chain_cls(fa, cls);
		ck_assert_uint_ge(n, 2496);
		link_cls(fa, cls, n);
		link_cls(fb, cls, n);
		/* so that only what the frees mark dirty is written below */
		ck_assert_int_eq(fp_fat_flush(fa, a.img, &a.g), FP_OK);
		ck_assert_int_eq(fp_fat_flush(fb, b.img, &b.g), FP_OK);
		ck_assert_int_eq(fp_fat_chain(fa, cls[0], &count, &last),
				 FP_OK);
		ck_assert_uint_eq(count, n);
		ck_assert_uint_eq(last, cls[n - 1]);
		k = from[f];
		ck_assert_int_eq(fp_fat_free_chain(fa, cls[k], n - k), FP_OK);
		for (cl = cls[k], count = n - k; count--; cl = next) {
			next = get(fb, cl);
			set(fb, cl, FP_FAT_FREE);
		}
		for (cl = 0; cl < n; cl++)
			ck_assert_uint_eq(get(fa, cls[cl]), cl < k ?
					  get(fb, cls[cl]) : FP_FAT_FREE);
		ck_assert_int_eq(fp_fat_flush(fa, a.img, &a.g), FP_OK);
		ck_assert_int_eq(fp_fat_flush(fb, b.img, &b.g), FP_OK);
		ck_assert_mem_eq(fp_img_mem_data(a.img),
				 fp_img_mem_data(b.img), a.len);
		fp_fat_free(fa);
		fp_fat_free(fb);
		vol_free(&a);
		vol_free(&b);
	}
	free(cls);
}
END_TEST

/*
 * Runs in fp_fat_chain(): a loop back into a run and a link past the
 * last cluster are found; so is a loop through a chain of every
 * cluster, packed windows (fp_fat_set_chain()) walked an entry at a time.
 */
START_TEST(test_chain_runs)
{
	struct vol v;
	struct fp_fat *fat = NULL;
	uint32_t count, last, max_cl;

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	zero_entries(&v, 2, 300001);
	ck_assert_int_eq(fp_fat_open(v.img, &v.g, &fat), FP_OK);
	ck_assert_int_eq(fp_fat_check_copies(fat), FP_OK);
	max_cl = fp_fat_max_cl(fat);
	ck_assert_int_eq(fp_fat_set_chain(fat, 2, max_cl - 1), FP_OK);
	ck_assert_uint_gt(stats(fat).packed, 0);
	ck_assert_int_eq(fp_fat_chain(fat, 2, &count, &last), FP_OK);
	ck_assert_uint_eq(count, max_cl - 1);
	ck_assert_uint_eq(last, max_cl);
	set(fat, max_cl, 2);
	ck_assert_int_eq(fp_fat_chain(fat, 2, &count, &last), FP_E_CORRUPT);
	set(fat, 70000, 65000);	/* back into a run */
	ck_assert_int_eq(fp_fat_chain(fat, 60000, &count, &last),
			 FP_E_CORRUPT);
	set(fat, 70000, fp_fat_eoc(fat));
	ck_assert_int_eq(fp_fat_chain(fat, 60000, &count, &last), FP_OK);
	ck_assert_uint_eq(count, 10001);
	ck_assert_uint_eq(last, 70000);
	set(fat, 70000, max_cl + 1);
	ck_assert_int_eq(fp_fat_chain(fat, 60000, &count, &last),
			 FP_E_CORRUPT);
	fp_fat_free(fat);
	vol_free(&v);
}
END_TEST

static Suite *fat_suite(void)
{
	Suite *s = suite_create("fat");
	TCase *tc = tcase_create("fat");
	TCase *ti = tcase_create("image");

	tcase_add_test(tc, test_fat12_get);
	tcase_add_test(tc, test_fat12_set);
	tcase_add_test(tc, test_fat16);
	tcase_add_test(tc, test_fat32);
	tcase_add_loop_test(tc, test_entry_round_trip, 0, 3);
	tcase_add_loop_test(tc, test_entry_bounds, 0, 3);
	tcase_add_test(tc, test_load_oversized);
	tcase_add_test(tc, test_load_errors);
	tcase_add_loop_test(tc, test_kinds, 0, 6);
	tcase_add_test(tc, test_chain);
	tcase_add_test(tc, test_chain_full);
	tcase_add_test(tc, test_seq32);
	tcase_add_loop_test(tc, test_free_chain, 0, 3);
	tcase_add_test(tc, test_chain_runs);
	tcase_add_test(tc, test_flush_mirror);
	tcase_add_test(tc, test_flush_active);
	tcase_add_test(tc, test_flush_fault);
	tcase_add_test(tc, test_compare);
	tcase_add_test(tc, test_compare_fat12_odd);
	tcase_add_test(tc, test_compare_chunks);
	tcase_add_test(tc, test_compare_fat16_parts);
	tcase_add_test(tc, test_windows);
	tcase_add_test(tc, test_check_copies);
	tcase_add_test(tc, test_drop_zeros);
	tcase_add_test(tc, test_thrash);
	tcase_add_test(tc, test_pack);
	tcase_add_test(tc, test_pack_high);
	tcase_add_test(tc, test_pack_ranged);
	tcase_add_test(tc, test_free_mask);
	tcase_add_test(tc, test_free_groups);
	tcase_add_test(tc, test_pack_holes);
	tcase_add_test(tc, test_compare_holes);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tcase_add_test(ti, test_img_mem);
	tcase_add_test(ti, test_img_file);
	tcase_add_test(ti, test_img_holes);
	tcase_add_test(ti, test_img_split);
	tcase_add_test(ti, test_img_zero_data);
	tcase_add_test(ti, test_img_find_hole);
	tcase_add_test(ti, test_img_open_errors);
	tcase_set_timeout(ti, 60);
	suite_add_tcase(s, ti);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fat_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
