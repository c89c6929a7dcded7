/* check_fat.c - unit tests for the in-memory FAT and the image layer. */
#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fat.h"
#include "image.h"
#include "le.h"

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

static void check_all(const struct fp_fat *fat, const uint8_t *p)
{
	uint32_t cl;

	for (cl = 0; cl <= fat->max_cl; cl++)
		ck_assert_uint_eq(fp_fat_get(fat, cl),
				  ref_get(p, fat->type, cl));
}

static int dirty_count(const struct fp_fat *fat)
{
	uint32_t s;
	int n = 0;

	for (s = 0; s < fat->sec_count; s++)
		n += fat->dirty[s] != 0;
	return n;
}

START_TEST(test_fat12_get)
{
	struct vol v;
	struct fp_fat fat;

	vol_make(&v, FP_FAT12, 1000, 3, 2, 1);
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	ck_assert_int_eq(fat.type, FP_FAT12);
	ck_assert_uint_eq(fat.max_cl, 1001);
	ck_assert_uint_eq(fat.sec_count, 3);
	ck_assert_uint_eq(fat.len, 3 * SEC);
	ck_assert_int_eq(dirty_count(&fat), 0);
	check_all(&fat, copy_data(&v, 0));
	fp_fat_release(&fat);
	ck_assert_ptr_null(fat.buf);
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

/* Entry 341 (odd) is bytes 511-512, entry 682 (even) bytes 1023-1024. */
START_TEST(test_fat12_set)
{
	struct vol v;
	struct fp_fat fat;
	uint8_t before[3 * SEC];
	uint32_t cl;

	vol_make(&v, FP_FAT12, 1000, 3, 2, 1);
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	memcpy(before, fat.buf, sizeof(before));
	fp_fat_set(&fat, 341, 0xABC);
	ck_assert_uint_eq(fp_fat_get(&fat, 341), 0xABC);
	ck_assert_uint_eq(fat.buf[511], (before[511] & 0x0F) | 0xC0);
	ck_assert_uint_eq(fat.buf[512], 0xAB);
	ck_assert_mem_eq(fat.buf, before, 511);
	ck_assert_mem_eq(fat.buf + 513, before + 513, sizeof(before) - 513);
	ck_assert(fat.dirty[0] && fat.dirty[1] && !fat.dirty[2]);

	memset(fat.dirty, 0, fat.sec_count);
	memcpy(before, fat.buf, sizeof(before));
	fp_fat_set(&fat, 682, 0x123);
	ck_assert_uint_eq(fat.buf[1023], 0x23);
	ck_assert_uint_eq(fat.buf[1024], (before[1024] & 0xF0) | 0x01);
	ck_assert_uint_eq(fp_fat_get(&fat, 681), ref_get(before, 12, 681));
	ck_assert_uint_eq(fp_fat_get(&fat, 683), ref_get(before, 12, 683));
	ck_assert(!fat.dirty[0] && fat.dirty[1] && fat.dirty[2]);

	memset(fat.dirty, 0, fat.sec_count);
	fp_fat_set(&fat, 340, 0xFFFF);		/* masked to 12 bits */
	ck_assert_uint_eq(fp_fat_get(&fat, 340), 0xFFF);
	ck_assert_uint_eq(fp_fat_get(&fat, 341), 0xABC);
	ck_assert(fat.dirty[0] && !fat.dirty[1] && !fat.dirty[2]);

	/* every entry, odd and even, against the reference decoder */
	for (cl = 2; cl <= fat.max_cl; cl++)
		fp_fat_set(&fat, cl, (cl * 7919) & 0xFFF);
	check_all(&fat, fat.buf);
	for (cl = 2; cl <= fat.max_cl; cl++)
		ck_assert_uint_eq(fp_fat_get(&fat, cl), (cl * 7919) & 0xFFF);
	for (cl = 1503; cl < 3 * SEC; cl++)	/* bytes after the entries */
		ck_assert_uint_eq(fat.buf[cl], pattern(cl));
	ck_assert_uint_eq(fp_fat_get(&fat, 0), ref_get(copy_data(&v, 0),
						       12, 0));
	ck_assert_uint_eq(fp_fat_get(&fat, 1), ref_get(copy_data(&v, 0),
						       12, 1));
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

START_TEST(test_fat16)
{
	struct vol v;
	struct fp_fat fat;

	vol_make(&v, FP_FAT16, 1000, 4, 2, 1);
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	check_all(&fat, copy_data(&v, 0));
	fp_fat_set(&fat, 256, 0x1234);
	ck_assert_uint_eq(fp_le16(fat.buf + 512), 0x1234);
	ck_assert(!fat.dirty[0] && fat.dirty[1] && dirty_count(&fat) == 1);
	fp_fat_set(&fat, 255, 0x12345);
	ck_assert_uint_eq(fp_fat_get(&fat, 255), 0x2345);
	ck_assert(fat.dirty[0] && dirty_count(&fat) == 2);
	ck_assert_uint_eq(fp_fat_get(&fat, 257), ref_get(copy_data(&v, 0),
							 16, 257));
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

START_TEST(test_fat32)
{
	struct vol v;
	struct fp_fat fat;
	uint32_t raw;

	vol_make(&v, FP_FAT32, 1000, 8, 2, 1);
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	check_all(&fat, copy_data(&v, 0));
	raw = fp_le32(fat.buf + 5 * 4);
	ck_assert_uint_ne(raw >> 28, 0);
	ck_assert_uint_eq(fp_fat_get(&fat, 5), raw & 0x0FFFFFFF);
	fp_fat_set(&fat, 5, 0xFFFFFFFF);
	ck_assert_uint_eq(fp_le32(fat.buf + 20), (raw & 0xF0000000) |
			  0x0FFFFFFF);
	ck_assert_uint_eq(fp_fat_get(&fat, 5), 0x0FFFFFFF);
	fp_fat_set(&fat, 5, 0);
	ck_assert_uint_eq(fp_le32(fat.buf + 20), raw & 0xF0000000);
	ck_assert_uint_eq(fp_fat_get(&fat, 5), 0);
	ck_assert(fat.dirty[0] && dirty_count(&fat) == 1);
	fp_fat_set(&fat, 128, 7);
	ck_assert(fat.dirty[1] && dirty_count(&fat) == 2);
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

/* Only the sectors holding entries are loaded from an oversized FAT. */
START_TEST(test_load_oversized)
{
	struct vol v;
	struct fp_fat fat;

	vol_make(&v, FP_FAT32, 1000, 100, 1, 1);
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	ck_assert_uint_eq(fat.sec_count, 8);
	ck_assert_uint_eq(fat.len, 8 * SEC);
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

START_TEST(test_load_errors)
{
	struct vol v;
	struct fp_fat fat;
	struct fp_geom g;

	vol_make(&v, FP_FAT16, 1000, 4, 2, 1);
	g = v.g;
	g.fat_secs = 3;
	g.fat_len = 3 * SEC;		/* too small for 1002 entries */
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &g), FP_E_BPB);
	ck_assert_ptr_null(fat.buf);
	g = v.g;
	g.active_fat = 2;
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &g), FP_E_INVAL);
	g = v.g;
	g.cluster_count = 65526;	/* cluster 65527 = 0xFFF7 is BAD */
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &g), FP_E_INVAL);
	g = v.g;
	g.fat_off = v.len - SEC;	/* the image ends inside the FAT */
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &g), FP_E_TRUNC);
	ck_assert_ptr_null(fat.buf);
	ck_assert_ptr_null(fat.dirty);
	vol_free(&v);
}
END_TEST

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
	struct fp_fat fat;
	uint32_t bad = t[_i].bad;

	memset(&fat, 0, sizeof(fat));
	fat.type = t[_i].type;
	fat.max_cl = t[_i].max_cl;
	ck_assert_int_eq(fp_fat_kind(&fat, 0), FP_FK_FREE);
	ck_assert_int_eq(fp_fat_kind(&fat, 1), FP_FK_INVALID);
	ck_assert_int_eq(fp_fat_kind(&fat, 2), FP_FK_NEXT);
	ck_assert_int_eq(fp_fat_kind(&fat, fat.max_cl), FP_FK_NEXT);
	if (fat.max_cl + 1 < bad - 7)
		ck_assert_int_eq(fp_fat_kind(&fat, fat.max_cl + 1),
				 FP_FK_INVALID);
	if (fat.max_cl < bad - 7)
		ck_assert_int_eq(fp_fat_kind(&fat, bad - 7), FP_FK_INVALID);
	ck_assert_int_eq(fp_fat_kind(&fat, bad - 1), fat.max_cl >= bad - 1 ?
			 FP_FK_NEXT : FP_FK_INVALID);
	ck_assert_int_eq(fp_fat_kind(&fat, bad), FP_FK_BAD);
	ck_assert_int_eq(fp_fat_kind(&fat, bad + 1), FP_FK_EOC);
	ck_assert_int_eq(fp_fat_kind(&fat, bad + 8), FP_FK_EOC);
	ck_assert_int_eq(fp_fat_kind(&fat, bad + 9), FP_FK_INVALID);
	ck_assert_int_eq(fp_fat_kind(&fat, fp_fat_eoc(&fat)), FP_FK_EOC);
	ck_assert_uint_eq(fp_fat_eoc(&fat), bad + 8);
}
END_TEST

/* A FAT16 of 100 clusters (2 .. 101) with links set by hand. */
static void chain_fat(struct vol *v, struct fp_fat *fat)
{
	static const uint16_t links[][2] = {
		{ 2, 3 }, { 3, 4 }, { 4, 0xFFFF }, { 10, 0xFFF8 },
		{ 30, 31 }, { 31, 30 }, { 40, 40 }, { 50, 0xFFF7 },
		{ 51, 52 }, { 52, 0 }, { 53, 500 }, { 54, 1 },
		{ 55, 0xFFF0 }, { 60, 101 }, { 101, 0xFFFA },
	};
	size_t i;

	vol_make(v, FP_FAT16, 100, 1, 1, 1);
	ck_assert_int_eq(fp_fat_load(fat, v->img, &v->g), FP_OK);
	memset(fat->buf, 0, fat->len);
	for (i = 0; i < sizeof(links) / sizeof(links[0]); i++)
		fp_fat_set(fat, links[i][0], links[i][1]);
}

START_TEST(test_chain)
{
	static const uint32_t corrupt[] = {
		0, 1, 102, UINT32_MAX, 20, 30, 31, 40, 50, 51, 53, 54, 55,
	};
	struct vol v;
	struct fp_fat fat;
	uint32_t count, last, i;

	chain_fat(&v, &fat);
	ck_assert_int_eq(fp_fat_chain(&fat, 2, &count, &last), FP_OK);
	ck_assert_uint_eq(count, 3);
	ck_assert_uint_eq(last, 4);
	ck_assert_int_eq(fp_fat_chain(&fat, 10, &count, &last), FP_OK);
	ck_assert_uint_eq(count, 1);
	ck_assert_uint_eq(last, 10);
	ck_assert_int_eq(fp_fat_chain(&fat, 60, &count, &last), FP_OK);
	ck_assert_uint_eq(count, 2);
	ck_assert_uint_eq(last, 101);
	for (i = 0; i < sizeof(corrupt) / sizeof(corrupt[0]); i++) {
		count = last = 777;
		ck_assert_msg(fp_fat_chain(&fat, corrupt[i], &count, &last) ==
			      FP_E_CORRUPT, "start %u", (unsigned)corrupt[i]);
		ck_assert_uint_eq(count, 777);
		ck_assert_uint_eq(last, 777);
	}
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

/* A chain through every cluster is fine; one more link is a loop. */
START_TEST(test_chain_full)
{
	struct vol v;
	struct fp_fat fat;
	uint32_t cl, count, last;

	chain_fat(&v, &fat);
	for (cl = 2; cl < 101; cl++)
		fp_fat_set(&fat, cl, cl + 1);
	fp_fat_set(&fat, 101, fp_fat_eoc(&fat));
	ck_assert_int_eq(fp_fat_chain(&fat, 2, &count, &last), FP_OK);
	ck_assert_uint_eq(count, 100);
	ck_assert_uint_eq(last, 101);
	fp_fat_set(&fat, 101, 2);
	ck_assert_int_eq(fp_fat_chain(&fat, 2, &count, &last), FP_E_CORRUPT);
	ck_assert_int_eq(fp_fat_chain(&fat, 77, &count, &last),
			 FP_E_CORRUPT);
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

/* Dirty sectors 0, 2, 3 of a 4-sector FAT16: runs [0] and [2, 3]. */
static void dirty_three(struct fp_fat *fat)
{
	fp_fat_set(fat, 10, 11);
	fp_fat_set(fat, 600, 0xFFFF);
	fp_fat_set(fat, 700, 0xFFF7);
	fp_fat_set(fat, 900, 0);
	ck_assert(fat->dirty[0] && !fat->dirty[1] && fat->dirty[2] &&
		  fat->dirty[3]);
}

START_TEST(test_flush_mirror)
{
	struct vol v;
	struct fp_fat fat;
	uint8_t *want;
	uint32_t c;

	vol_make(&v, FP_FAT16, 1000, 4, 3, 0);
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	dirty_three(&fat);
	ck_assert_int_eq(fp_fat_flush(&fat, v.img, &v.g), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(v.img), 3 * 2);
	ck_assert_int_eq(dirty_count(&fat), 0);
	want = malloc(v.len);
	ck_assert_ptr_nonnull(want);
	memcpy(want, v.orig, v.len);
	for (c = 0; c < 3; c++) {
		uint8_t *p = want + v.g.fat_off + c * v.g.fat_len;

		memcpy(p, fat.buf, SEC);
		memcpy(p + 2 * SEC, fat.buf + 2 * SEC, 2 * SEC);
	}
	ck_assert_mem_eq(fp_img_mem_data(v.img), want, v.len);
	ck_assert_int_eq(fp_fat_flush(&fat, v.img, &v.g), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(v.img), 6);
	free(want);
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

/* Mirroring off, active copy 1: copies 0 and 2 are never touched. */
START_TEST(test_flush_active)
{
	struct vol v;
	struct fp_fat fat;
	uint8_t *want;

	vol_make(&v, FP_FAT16, 1000, 4, 3, 0);
	v.g.mirror = 0;
	v.g.active_fat = 1;
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	check_all(&fat, copy_data(&v, 1));
	ck_assert_uint_ne(fp_fat_get(&fat, 3), ref_get(copy_data(&v, 0),
						       16, 3));
	dirty_three(&fat);
	fp_fat_set(&fat, 300, 5);		/* sector 1: one run */
	ck_assert_int_eq(fp_fat_flush(&fat, v.img, &v.g), FP_OK);
	ck_assert_uint_eq(fp_img_write_count(v.img), 1);
	want = malloc(v.len);
	ck_assert_ptr_nonnull(want);
	memcpy(want, v.orig, v.len);
	memcpy(want + v.g.fat_off + v.g.fat_len, fat.buf, 4 * SEC);
	ck_assert_mem_eq(fp_img_mem_data(v.img), want, v.len);
	free(want);
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

START_TEST(test_flush_fault)
{
	struct vol v;
	struct fp_fat fat;
	const uint8_t *img;

	vol_make(&v, FP_FAT16, 1000, 4, 2, 1);
	img = fp_img_mem_data(v.img);
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	dirty_three(&fat);
	fp_img_fail_write(v.img, 1, EIO);
	ck_assert_int_eq(fp_fat_flush(&fat, v.img, &v.g), FP_E_IO);
	ck_assert_int_eq(fp_img_errno(v.img), EIO);
	ck_assert_mem_eq(img, v.orig, v.len);
	ck_assert_int_eq(dirty_count(&fat), 3);

	/* the second write call and all later ones fail */
	fp_img_fail_write(v.img, 2, ENOSPC);
	ck_assert_int_eq(fp_fat_flush(&fat, v.img, &v.g), FP_E_IO);
	ck_assert_int_eq(fp_img_errno(v.img), ENOSPC);
	ck_assert_uint_eq(fp_img_write_count(v.img), 1);
	ck_assert_mem_eq(img + SEC, fat.buf, SEC);
	ck_assert_mem_eq(img + 2 * SEC, v.orig + 2 * SEC, v.len - 2 * SEC);
	ck_assert_int_eq(dirty_count(&fat), 3);

	fp_img_fail_write(v.img, 0, 0);
	ck_assert_int_eq(fp_fat_flush(&fat, v.img, &v.g), FP_OK);
	ck_assert_int_eq(dirty_count(&fat), 0);
	ck_assert_mem_eq(img + SEC, fat.buf, 4 * SEC);
	ck_assert_mem_eq(img + 5 * SEC, fat.buf, 4 * SEC);
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

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
	struct fp_fat fat;
	int equal = 7;
	uint32_t first, count;

	vol_make(&v, FP_FAT16, 1000, 4, 2, 1);
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	ck_assert_int_eq(fp_fat_compare(&fat, v.img, &v.g, 1, &equal, &first,
					&count), FP_OK);
	ck_assert_int_eq(equal, 1);
	ck_assert_uint_eq(count, 0);
	flip(&v, 2 * 10 + 1, 0x40);
	flip(&v, 2 * 700, 0xFF);
	flip(&v, 2 * 700 + 1, 0x01);
	flip(&v, 2 * 1002, 0xFF);		/* after the last entry */
	ck_assert_int_eq(fp_fat_compare(&fat, v.img, &v.g, 1, &equal, &first,
					&count), FP_OK);
	ck_assert_int_eq(equal, 0);
	ck_assert_uint_eq(first, 10);
	ck_assert_uint_eq(count, 2);
	fp_fat_set(&fat, 5, 0x4321);		/* memory differs too */
	ck_assert_int_eq(fp_fat_compare(&fat, v.img, &v.g, 0, &equal, &first,
					&count), FP_OK);
	ck_assert_int_eq(equal, 0);
	ck_assert_uint_eq(first, 5);
	ck_assert_uint_eq(count, 1);
	equal = 7;
	ck_assert_int_eq(fp_fat_compare(&fat, v.img, &v.g, 2, &equal, &first,
					&count), FP_E_INVAL);
	ck_assert_int_eq(equal, 7);
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

/* 1003 FAT12 entries: the last one ends in the low nibble of byte 1504. */
START_TEST(test_compare_fat12_odd)
{
	struct vol v;
	struct fp_fat fat;
	int equal;
	uint32_t first, count;

	vol_make(&v, FP_FAT12, 1001, 3, 2, 1);
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	flip(&v, 1504, 0xF0);
	flip(&v, 1505, 0xFF);
	ck_assert_int_eq(fp_fat_compare(&fat, v.img, &v.g, 1, &equal, &first,
					&count), FP_OK);
	ck_assert_int_eq(equal, 1);
	flip(&v, 1504, 0x01);
	ck_assert_int_eq(fp_fat_compare(&fat, v.img, &v.g, 1, &equal, &first,
					&count), FP_OK);
	ck_assert_int_eq(equal, 0);
	ck_assert_uint_eq(first, 1002);
	ck_assert_uint_eq(count, 1);
	/* the shared byte of entries 340/341 counts for 341 only */
	flip(&v, 511, 0x10);
	ck_assert_int_eq(fp_fat_compare(&fat, v.img, &v.g, 1, &equal, &first,
					&count), FP_OK);
	ck_assert_uint_eq(first, 341);
	ck_assert_uint_eq(count, 2);
	fp_fat_release(&fat);
	vol_free(&v);
}
END_TEST

/* A FAT32 bigger than one compare chunk (768 KiB = 196608 entries). */
START_TEST(test_compare_chunks)
{
	struct vol v;
	struct fp_fat fat;
	int equal;
	uint32_t first, count;

	vol_make(&v, FP_FAT32, 300000, 2344, 2, 1);
	ck_assert_int_eq(fp_fat_load(&fat, v.img, &v.g), FP_OK);
	ck_assert_int_eq(fp_fat_compare(&fat, v.img, &v.g, 1, &equal, &first,
					&count), FP_OK);
	ck_assert_int_eq(equal, 1);
	flip(&v, 4 * 196607 + 3, 0x01);
	flip(&v, 4 * 196608, 0x01);
	flip(&v, 4 * 250000 + 3, 0x80);		/* top 4 bits only */
	flip(&v, 4 * 300002, 0xFF);		/* after the last entry */
	ck_assert_int_eq(fp_fat_compare(&fat, v.img, &v.g, 1, &equal, &first,
					&count), FP_OK);
	ck_assert_int_eq(equal, 0);
	ck_assert_uint_eq(first, 196607);
	ck_assert_uint_eq(count, 3);
	fp_fat_release(&fat);
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

static void temp_file(char *path, size_t len, uint8_t fill)
{
	uint8_t *buf = malloc(len);
	int fd = mkstemp(path);

	ck_assert_ptr_nonnull(buf);
	ck_assert_int_ge(fd, 0);
	memset(buf, fill, len);
	ck_assert_int_eq(write(fd, buf, len), (ssize_t)len);
	ck_assert_int_eq(close(fd), 0);
	free(buf);
}

START_TEST(test_img_file)
{
	char path[] = "/tmp/check_fat.XXXXXX";
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

START_TEST(test_img_open_errors)
{
	struct fp_img *img = (struct fp_img *)&img;
	int e = 0;

	ck_assert_int_eq(fp_img_open("/nonexistent/x.img", 0, &img, &e),
			 FP_E_IO);
	ck_assert_int_eq(e, ENOENT);
	ck_assert_ptr_eq(img, (struct fp_img *)&img);
	ck_assert_int_eq(fp_img_open("/tmp", 0, &img, &e), FP_E_IO);
	ck_assert_int_eq(e, EISDIR);
	ck_assert_int_eq(fp_img_open("/dev/null", 0, &img, &e), FP_E_IO);
	ck_assert_int_eq(e, ENOTBLK);
	ck_assert_int_eq(fp_img_open("/tmp", 8, &img, &e), FP_E_INVAL);
	ck_assert_ptr_eq(img, (struct fp_img *)&img);
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
	tcase_add_test(tc, test_load_oversized);
	tcase_add_test(tc, test_load_errors);
	tcase_add_loop_test(tc, test_kinds, 0, 6);
	tcase_add_test(tc, test_chain);
	tcase_add_test(tc, test_chain_full);
	tcase_add_test(tc, test_flush_mirror);
	tcase_add_test(tc, test_flush_active);
	tcase_add_test(tc, test_flush_fault);
	tcase_add_test(tc, test_compare);
	tcase_add_test(tc, test_compare_fat12_odd);
	tcase_add_test(tc, test_compare_chunks);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tcase_add_test(ti, test_img_mem);
	tcase_add_test(ti, test_img_file);
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
