/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Copyright (C) 2026 The fatprealloc authors */
/* check_bitmap.c - unit tests for the free-cluster bitmap. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "bitmap.h"
#include "le.h"

/* The queries, which cannot fail on a bitmap without a FAT. */
static uint32_t next_free(struct fp_bitmap *bm, uint32_t from)
{
	uint32_t cl = 0xDEAD;

	ck_assert_int_eq(fp_bitmap_next_free(bm, from, &cl), FP_OK);
	return cl;
}

static uint32_t run_count(struct fp_bitmap *bm, uint32_t cl, uint32_t max)
{
	uint32_t n = 0xDEAD;

	ck_assert_int_eq(fp_bitmap_run_count(bm, cl, max, &n), FP_OK);
	return n;
}

/* The first run of @count from @goal, by fp_bitmap_new_range(); 0: none. */
static uint32_t lazy_run(struct fp_bitmap *bm, uint32_t goal, uint32_t count)
{
	uint32_t cl = 0, n;
	enum fp_err err = fp_bitmap_new_range(bm, FP_BM_CONTIGUOUS, goal,
					      count, 0, &cl, &n);

	ck_assert(err == FP_OK || err == FP_E_NOSPC);
	return cl;
}

/* Where the lowest run of @count is (0: nowhere): a search from 2. */
static uint32_t find_run(struct fp_bitmap *bm, uint32_t count)
{
	return lazy_run(bm, 2, count);
}

/* The largest run, *start 0 if none. */
static void largest(struct fp_bitmap *bm, uint32_t *start, uint32_t *len)
{
	enum fp_err err = fp_bitmap_new_range(bm, 0, 2, UINT32_MAX, 0, start,
					      len);

	ck_assert(err == FP_OK || err == FP_E_NOSPC);
	if (err)
		*start = *len = 0;
}

/* The highest run whose clusters are below @below, *start 0 if none. */
static void last_run(struct fp_bitmap *bm, uint32_t below, uint32_t *start,
		     uint32_t *len)
{
	enum fp_err err = fp_bitmap_new_range(bm, FP_BM_END,
					      below ? below - 1 : 0,
					      UINT32_MAX, 0, start, len);

	ck_assert(err == FP_OK || err == FP_E_NOSPC);
	if (err)
		*start = *len = 0;
}

/* Free clusters, which cannot fail on a bitmap without a FAT. */
static uint32_t free_count(struct fp_bitmap *bm)
{
	uint32_t n = 0xDEAD;

	ck_assert_int_eq(fp_bitmap_free_count(bm, &n), FP_OK);
	return n;
}

/* Slow reference: the free run at @cl, by single bits. */
static uint32_t ref_run(const struct fp_bitmap *bm, uint32_t cl)
{
	uint32_t n = 0;

	while (cl + n <= fp_bitmap_max_cl(bm) && !fp_bitmap_used(bm, cl + n))
		n++;
	return n;
}

START_TEST(test_init)
{
	struct fp_bitmap *bm;

	ck_assert_int_eq(fp_bitmap_new(100, &bm), FP_OK);
	ck_assert_uint_eq(fp_bitmap_max_cl(bm), 100);
	ck_assert_uint_eq(free_count(bm), 99);
	ck_assert(fp_bitmap_used(bm, 0));
	ck_assert(fp_bitmap_used(bm, 1));
	ck_assert(!fp_bitmap_used(bm, 2));
	ck_assert(!fp_bitmap_used(bm, 100));
	ck_assert(fp_bitmap_used(bm, 101));
	ck_assert(fp_bitmap_used(bm, UINT32_MAX));
	ck_assert_uint_eq(next_free(bm, 0), 2);
	ck_assert_uint_eq(next_free(bm, 100), 100);
	ck_assert_uint_eq(next_free(bm, 101), 0);
	ck_assert_uint_eq(run_count(bm, 2, UINT32_MAX), 99);
	ck_assert_uint_eq(run_count(bm, 0, 10), 0);
	fp_bitmap_free(bm);
	fp_bitmap_free(NULL);
	ck_assert_int_eq(fp_bitmap_new(1, &bm), FP_E_INVAL);
	ck_assert_int_eq(fp_bitmap_new(UINT32_MAX, &bm), FP_E_INVAL);
}
END_TEST

/* Free clusters 63, 64, 65 only: a run across a word boundary. */
START_TEST(test_word_boundary)
{
	struct fp_bitmap *bm;
	uint32_t start, len;

	ck_assert_int_eq(fp_bitmap_new(200, &bm), FP_OK);
	fp_bitmap_take(bm, 2, 61);
	fp_bitmap_take(bm, 66, 135);
	ck_assert_uint_eq(free_count(bm), 3);
	ck_assert(fp_bitmap_used(bm, 62));
	ck_assert(!fp_bitmap_used(bm, 63));
	ck_assert(!fp_bitmap_used(bm, 65));
	ck_assert(fp_bitmap_used(bm, 66));
	ck_assert(fp_bitmap_used(bm, 200));
	ck_assert_uint_eq(next_free(bm, 2), 63);
	ck_assert_uint_eq(next_free(bm, 64), 64);
	ck_assert_uint_eq(next_free(bm, 66), 0);
	ck_assert_uint_eq(run_count(bm, 63, 100), 3);
	ck_assert_uint_eq(run_count(bm, 64, 100), 2);
	ck_assert_uint_eq(run_count(bm, 63, 2), 2);
	ck_assert_uint_eq(run_count(bm, 62, 100), 0);
	ck_assert_uint_eq(find_run(bm, 3), 63);
	ck_assert_uint_eq(find_run(bm, 4), 0);
	largest(bm, &start, &len);
	ck_assert_uint_eq(start, 63);
	ck_assert_uint_eq(len, 3);
	fp_bitmap_take(bm, 64, 1);
	ck_assert_uint_eq(free_count(bm), 2);
	ck_assert_uint_eq(find_run(bm, 2), 0);
	ck_assert_uint_eq(find_run(bm, 1), 63);
	ck_assert_uint_eq(next_free(bm, 64), 65);
	fp_bitmap_free(bm);
}
END_TEST

/* max_cl around a multiple of 64: the last word is full or nearly. */
START_TEST(test_tail)
{
	static const uint32_t max[] = { 2, 62, 63, 64, 65, 127, 128, 130 };
	uint32_t m = max[_i], start, len;
	struct fp_bitmap *bm;

	ck_assert_int_eq(fp_bitmap_new(m, &bm), FP_OK);
	ck_assert_uint_eq(free_count(bm), m - 1);
	ck_assert_uint_eq(run_count(bm, 2, UINT32_MAX), m - 1);
	ck_assert_uint_eq(ref_run(bm, 2), m - 1);
	ck_assert_uint_eq(find_run(bm, m - 1), 2);
	ck_assert_uint_eq(find_run(bm, m), 0);
	ck_assert_uint_eq(next_free(bm, m), m);
	ck_assert_uint_eq(next_free(bm, m + 1), 0);
	ck_assert(fp_bitmap_used(bm, m + 1));
	largest(bm, &start, &len);
	ck_assert_uint_eq(start, 2);
	ck_assert_uint_eq(len, m - 1);
	fp_bitmap_take(bm, m, 1);
	ck_assert_uint_eq(next_free(bm, m), 0);
	ck_assert_uint_eq(run_count(bm, 2, UINT32_MAX), m - 2);
	fp_bitmap_take(bm, 2, m - 2);
	ck_assert_uint_eq(free_count(bm), 0);
	ck_assert_uint_eq(next_free(bm, 0), 0);
	ck_assert_uint_eq(find_run(bm, 1), 0);
	largest(bm, &start, &len);
	ck_assert_uint_eq(start, 0);
	ck_assert_uint_eq(len, 0);
	fp_bitmap_free(bm);
}
END_TEST

/* Free runs: 5 at 10, 3 at 20, 8 at 40, 8 at 100, rest of 300 used. */
static struct fp_bitmap *fragment(void)
{
	struct fp_bitmap *bm;

	ck_assert_int_eq(fp_bitmap_new(300, &bm), FP_OK);
	fp_bitmap_take(bm, 2, 8);
	fp_bitmap_take(bm, 15, 5);
	fp_bitmap_take(bm, 23, 17);
	fp_bitmap_take(bm, 48, 52);
	fp_bitmap_take(bm, 108, 193);
	ck_assert_uint_eq(free_count(bm), 24);
	return bm;
}

START_TEST(test_runs)
{
	struct fp_bitmap *bm;
	uint32_t start, len;

	bm = fragment();
	ck_assert_uint_eq(find_run(bm, 1), 10);
	ck_assert_uint_eq(find_run(bm, 5), 10);
	ck_assert_uint_eq(find_run(bm, 6), 40);
	ck_assert_uint_eq(find_run(bm, 8), 40);
	ck_assert_uint_eq(find_run(bm, 9), 0);
	ck_assert_int_eq(fp_bitmap_new_range(bm, FP_BM_CONTIGUOUS, 2, 0, 0,
					     &start, &len), FP_E_INVAL);
	ck_assert_uint_eq(find_run(bm, 25), 0);
	ck_assert_uint_eq(next_free(bm, 15), 20);
	ck_assert_uint_eq(next_free(bm, 48), 100);
	ck_assert_uint_eq(run_count(bm, 12, UINT32_MAX), 3);
	largest(bm, &start, &len);
	ck_assert_uint_eq(start, 40);	/* the lowest of two equal */
	ck_assert_uint_eq(len, 8);
	fp_bitmap_take(bm, 40, 8);
	ck_assert_uint_eq(find_run(bm, 6), 100);
	largest(bm, &start, &len);
	ck_assert_uint_eq(start, 100);
	ck_assert_uint_eq(free_count(bm), 16);
	fp_bitmap_free(bm);
}
END_TEST

/* The highest free run below a limit, for --place end. */
START_TEST(test_last_run)
{
	struct fp_bitmap *bm;
	uint32_t start = 1, len = 1;

	bm = fragment();
	/* runs: 5 at 10, 3 at 20, 8 at 40, 8 at 100 */
	last_run(bm, 301, &start, &len);
	ck_assert_uint_eq(start, 100);
	ck_assert_uint_eq(len, 8);
	last_run(bm, UINT32_MAX, &start, &len);
	ck_assert_uint_eq(start, 100);
	/* a limit inside a run cuts it */
	last_run(bm, 104, &start, &len);
	ck_assert_uint_eq(start, 100);
	ck_assert_uint_eq(len, 4);
	last_run(bm, 100, &start, &len);
	ck_assert_uint_eq(start, 40);
	ck_assert_uint_eq(len, 8);
	last_run(bm, 15, &start, &len);
	ck_assert_uint_eq(start, 10);
	ck_assert_uint_eq(len, 5);
	last_run(bm, 10, &start, &len);
	ck_assert_uint_eq(start, 0);
	ck_assert_uint_eq(len, 0);
	last_run(bm, 0, &start, &len);
	ck_assert_uint_eq(start, 0);
	fp_bitmap_free(bm);
	/* a run down to cluster 2, and up to max_cl */
	ck_assert_int_eq(fp_bitmap_new(200, &bm), FP_OK);
	last_run(bm, 201, &start, &len);
	ck_assert_uint_eq(start, 2);
	ck_assert_uint_eq(len, 199);
	fp_bitmap_free(bm);
}
END_TEST

/* Pseudo-random patterns against the bit-by-bit reference. */
START_TEST(test_random)
{
	struct fp_bitmap *bm;
	uint32_t x = 12345, cl, n, best = 0, best_cl = 0, free_ref = 0;
	uint32_t start, len;

	ck_assert_int_eq(fp_bitmap_new(5000, &bm), FP_OK);
	for (cl = 2; cl <= 5000; cl += n + 1 + x % 3) {
		x = x * 1103515245 + 12345;
		n = (x >> 16) % 150;
		if (cl + n > 5000)
			n = 5001 - cl;
		fp_bitmap_take(bm, cl, n);
	}
	for (cl = 2; cl <= 5000; cl++) {
		free_ref += !fp_bitmap_used(bm, cl);
		n = ref_run(bm, cl);
		ck_assert_uint_eq(run_count(bm, cl, UINT32_MAX), n);
		if (n > best && (cl == 2 || fp_bitmap_used(bm, cl - 1))) {
			best = n;
			best_cl = cl;
		}
	}
	ck_assert_uint_eq(free_count(bm), free_ref);
	largest(bm, &start, &len);
	ck_assert_uint_eq(start, best_cl);
	ck_assert_uint_eq(len, best);
	ck_assert_uint_eq(find_run(bm, best), best_cl);
	fp_bitmap_free(bm);
}
END_TEST

/* Slow reference: the first free cluster from @from (2 at least), or 0. */
static uint32_t ref_next(const struct fp_bitmap *bm, uint32_t from)
{
	uint32_t cl;

	for (cl = from < 2 ? 2 : from; cl <= fp_bitmap_max_cl(bm); cl++)
		if (!fp_bitmap_used(bm, cl))
			return cl;
	return 0;
}

/*
 * next_free() remembers the used clusters its last answer stepped over:
 * searches from the same place, from inside that range and from just
 * after it, with clusters taken in between (as a plan does, file after
 * file), must answer as a search bit by bit does.
 */
START_TEST(test_next_free_memo)
{
	struct fp_bitmap *bm;
	uint32_t x = 777, from, cl, k, n;

	ck_assert_int_eq(fp_bitmap_new(20000, &bm), FP_OK);
	for (k = 0; k < 3000; k++) {
		x = x * 1103515245 + 12345;
		from = (x >> 8) % 4 == 0 ? (x >> 12) % 20010 : 100 + k % 7;
		cl = next_free(bm, from);
		ck_assert_uint_eq(cl, ref_next(bm, from));
		if (!cl)
			continue;
		n = run_count(bm, cl, 1 + (x >> 20) % 40);
		fp_bitmap_take(bm, cl, n);
		ck_assert_uint_eq(next_free(bm, from), ref_next(bm, from));
		ck_assert_uint_eq(next_free(bm, cl), ref_next(bm, cl));
	}
	ck_assert_uint_eq(next_free(bm, 2), ref_next(bm, 2));
	fp_bitmap_free(bm);
}
END_TEST

/*
 * The bytes (*bytes, zeroed) and geometry of an image of one reserved
 * sector and one FAT copy of @fat_secs sectors; no data area, as only the
 * FAT is read.
 */
static void fat_image(enum fp_fat_type type, uint32_t clusters,
				uint32_t fat_secs, uint8_t **bytes,
				struct fp_geom *g)
{
	memset(g, 0, sizeof(*g));
	g->type = type;
	g->sec_len = 512;
	g->fat_count = 1;
	g->fat_secs = fat_secs;
	g->fat_off = 512;
	g->fat_len = (uint64_t)fat_secs * 512;
	g->cluster_count = clusters;
	g->mirror = 1;
	*bytes = calloc(1, 512 + g->fat_len);
	ck_assert_ptr_nonnull(*bytes);
}

/* Windows that @fat has read from the image. */
static uint64_t fat_reads(const struct fp_fat *fat)
{
	struct fp_fat_stats st;

	fp_fat_stats(fat, &st);
	return st.reads;
}

/* A FAT16 with used, bad and free clusters, read by the bitmap. */
START_TEST(test_load)
{
	struct fp_geom g;
	struct fp_img *img;
	struct fp_fat *fat = NULL;
	struct fp_bitmap *bm;
	uint8_t *bytes, *buf;
	uint32_t cl, n;

	fat_image(FP_FAT16, 199, 1, &bytes, &g);
	buf = bytes + 512;
	fp_put_le16(buf, 0xFFF8);
	fp_put_le16(buf + 2, 0xFFFF);
	for (cl = 2; cl <= 200; cl++)
		if (cl % 3 == 0 || (cl >= 64 && cl < 70) || cl == 199)
			fp_put_le16(buf + 2 * cl, cl == 199 ? 0xFFF7 : 0xFFFF);
	ck_assert_int_eq(fp_img_mem(bytes, 1024, &img), FP_OK);
	ck_assert_int_eq(fp_fat_open(img, &g, &fat), FP_OK);
	ck_assert_int_eq(fp_bitmap_load(fat, &bm), FP_OK);
	ck_assert_uint_eq(fat_reads(fat), 0);
	ck_assert_int_eq(fp_bitmap_free_count(bm, &n), FP_OK);
	ck_assert_uint_eq(n, 199 - 66 - 4 - 1);
	for (cl = 0; cl <= 201; cl++)
		ck_assert_int_eq(fp_bitmap_used(bm, cl),
				 cl < 2 || cl > 200 || cl % 3 == 0 ||
				 (cl >= 64 && cl < 70) || cl == 199);
	ck_assert_uint_eq(find_run(bm, 2), 4);
	ck_assert_uint_eq(find_run(bm, 3), 0);
	fp_bitmap_free(bm);
	fp_fat_free(fat);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	free(bytes);
}
END_TEST

/*
 * A FAT32 of 300000 clusters (5 windows of 65536) whose clusters are in
 * use except 100000 .. 100099 and 250000 .. 300001 (and 1 at 70000):
 * queries read only the windows they need, and searches from a hint wrap
 * around to cluster 2.
 */
START_TEST(test_lazy)
{
	struct fp_geom g;
	struct fp_img *img;
	struct fp_fat *fat = NULL;
	struct fp_bitmap *bm;
	uint8_t *bytes;
	uint32_t cl, n, start;

	fat_image(FP_FAT32, 300000, 2344, &bytes, &g);
	for (cl = 0; cl <= 300001; cl++)
		if (!(cl >= 100000 && cl < 100100) && cl < 250000 &&
		    cl != 70000)
			fp_put_le32(bytes + 512 + 4 * cl, 0x0FFFFFFF);
	ck_assert_int_eq(fp_img_mem(bytes, 512 + g.fat_len, &img), FP_OK);
	ck_assert_int_eq(fp_fat_open(img, &g, &fat), FP_OK);
	ck_assert_int_eq(fp_bitmap_load(fat, &bm), FP_OK);
	ck_assert_uint_eq(next_free(bm, 100050), 100050);
	ck_assert_uint_eq(fat_reads(fat), 1);		/* window 1 only */
	ck_assert_uint_eq(run_count(bm, 100050, 1000), 50);
	ck_assert_uint_eq(fat_reads(fat), 1);
	ck_assert_uint_eq(next_free(bm, 100100), 250000);
	ck_assert_uint_eq(fat_reads(fat), 3);		/* windows 2 and 3 */
	ck_assert_uint_eq(run_count(bm, 250000, UINT32_MAX), 50002);
	ck_assert_uint_eq(fat_reads(fat), 4);
	/* from a hint: the first run after it, else wrap around */
	start = lazy_run(bm, 260000, 100);
	ck_assert_uint_eq(start, 260000);
	start = lazy_run(bm, 260000, 45000);
	ck_assert_uint_eq(start, 0 + 250000);
	ck_assert_uint_eq(fat_reads(fat), 5);		/* window 0 too */
	start = lazy_run(bm, 299999, 60);
	ck_assert_uint_eq(start, 100000);
	start = lazy_run(bm, 2, 50003);
	ck_assert_uint_eq(start, 0);
	ck_assert_int_eq(fp_bitmap_free_count(bm, &n), FP_OK);
	ck_assert_uint_eq(n, 100 + 50002 + 1);
	ck_assert_uint_eq(next_free(bm, 2), 70000);
	fp_bitmap_take(bm, 250000, 50002);
	ck_assert_int_eq(fp_bitmap_free_count(bm, &n), FP_OK);
	ck_assert_uint_eq(n, 101);
	ck_assert_uint_eq(next_free(bm, 100100), 0);
	fp_bitmap_free(bm);
	fp_fat_free(fat);
	ck_assert_int_eq(fp_img_close(img), FP_OK);
	free(bytes);
}
END_TEST

/*
 * 64M clusters: a free run at the very end behind a fragmented start
 * (every other cluster free for 8M clusters); whole-map scans must stay
 * fast, being word at a time.
 */
START_TEST(test_large)
{
	const uint32_t max_cl = 64u * 1024 * 1024 + 1;
	struct fp_bitmap *bm;
	uint32_t start, len, i;

	ck_assert_int_eq(fp_bitmap_new(max_cl, &bm), FP_OK);
	for (i = 2; i < 8u << 20; i += 2)	/* every even cluster used */
		fp_bitmap_take(bm, i, 1);
	fp_bitmap_take(bm, 8u << 20, max_cl - (8u << 20) - 999);
	ck_assert_uint_eq(free_count(bm), (4u << 20) - 1 + 1000);
	ck_assert_uint_eq(next_free(bm, 2), 3);
	ck_assert_uint_eq(find_run(bm, 2), max_cl - 999);
	ck_assert_uint_eq(find_run(bm, 1000), max_cl - 999);
	ck_assert_uint_eq(find_run(bm, 1001), 0);
	ck_assert_uint_eq(next_free(bm, 8u << 20), max_cl - 999);
	largest(bm, &start, &len);
	ck_assert_uint_eq(start, max_cl - 999);
	ck_assert_uint_eq(len, 1000);
	fp_bitmap_take(bm, 3, 1);
	fp_bitmap_free(bm);
}
END_TEST

/*
 * A bitmap from @map, one character per cluster from cluster 2 on: 'X'
 * used, '.' free; a number before a character repeats it ("3X2." is
 * "XXX..").  max_cl is the last cluster the map names.
 */
static struct fp_bitmap *map_bitmap(const char *map)
{
	struct fp_bitmap *bm;
	uint32_t cl = 2, n, rep;
	const char *c;

	for (n = 1, c = map; *c; c++) {
		rep = 0;
		while (*c >= '0' && *c <= '9')
			rep = rep * 10 + (uint32_t)(*c++ - '0');
		n += rep ? rep : 1;
	}
	ck_assert_int_eq(fp_bitmap_new(n, &bm), FP_OK);
	for (c = map; *c; c++) {
		rep = 0;
		while (*c >= '0' && *c <= '9')
			rep = rep * 10 + (uint32_t)(*c++ - '0');
		rep = rep ? rep : 1;
		ck_assert(*c == 'X' || *c == '.');
		if (*c == 'X')
			fp_bitmap_take(bm, cl, rep);
		cl += rep;
	}
	return bm;
}

#define FIX FP_BM_FIXED_GOAL
#define CON FP_BM_CONTIGUOUS
#define END FP_BM_END
#define TOP UINT32_MAX

/* One query of fp_bitmap_new_range() and what it must answer. */
struct range_case {
	const char *map;
	unsigned flags;
	uint32_t goal, len, min;
	enum fp_err err;
	uint32_t start, count;
};

/* M: free runs 2 at 2, 2 at 7, 4 at 10; max_cl 13. */
#define M "..XXX..X...."
static const struct range_case range_cases[] = {
	/* first fit from the goal, else from 2, else the largest */
	{ M, 0, 2, 1, 0, FP_OK, 2, 1 },
	{ M, 0, 2, 2, 0, FP_OK, 2, 2 },
	{ M, 0, 2, 3, 0, FP_OK, 10, 3 },
	{ M, 0, 2, 4, 0, FP_OK, 10, 4 },		/* exact fit */
	{ M, 0, 2, 5, 0, FP_OK, 10, 4 },		/* the largest */
	{ M, 0, 2, 5, 4, FP_OK, 10, 4 },
	{ M, 0, 2, 5, 5, FP_E_NOSPC, 0, 0 },
	{ M, 0, 2, TOP, 0, FP_OK, 10, 4 },
	{ M, 0, 8, 1, 0, FP_OK, 8, 1 },		/* goal inside a run */
	{ M, 0, 8, 2, 0, FP_OK, 10, 2 },
	{ M, 0, 11, 2, 0, FP_OK, 11, 2 },
	{ M, 0, 12, 2, 0, FP_OK, 12, 2 },
	{ M, 0, 12, 3, 0, FP_OK, 10, 3 },	/* wraps to the run's start */
	{ M, 0, 13, 2, 0, FP_OK, 2, 2 },
	{ M, 0, 5, 2, 0, FP_OK, 7, 2 },		/* goal in a used run */
	{ M, 0, 0, 2, 0, FP_OK, 2, 2 },
	{ M, 0, 14, 2, 0, FP_OK, 2, 2 },		/* goal past the end */
	{ M, 0, TOP, 3, 0, FP_OK, 10, 3 },
	{ M, CON, 2, 4, 0, FP_OK, 10, 4 },
	{ M, CON, 2, 5, 0, FP_E_NOSPC, 0, 0 },
	{ M, CON, 11, 4, 0, FP_OK, 10, 4 },
	{ M, CON, 11, 3, 1, FP_OK, 11, 3 },
	/* the run at the goal */
	{ M, FIX, 2, 5, 0, FP_OK, 2, 2 },
	{ M, FIX, 3, 5, 0, FP_OK, 3, 1 },
	{ M, FIX, 4, 1, 0, FP_E_NOSPC, 0, 0 },	/* goal in a used run */
	{ M, FIX, 11, 2, 0, FP_OK, 11, 2 },
	{ M, FIX, 11, 9, 0, FP_OK, 11, 3 },
	{ M, FIX, 11, 9, 3, FP_OK, 11, 3 },
	{ M, FIX, 11, 9, 4, FP_E_NOSPC, 0, 0 },
	{ M, FIX | CON, 11, 3, 0, FP_OK, 11, 3 },
	{ M, FIX | CON, 11, 4, 0, FP_E_NOSPC, 0, 0 },
	{ M, FIX, 13, 5, 0, FP_OK, 13, 1 },
	{ M, FIX, 14, 1, 0, FP_E_NOSPC, 0, 0 },	/* goal past the end */
	{ M, FIX, TOP, 1, 0, FP_E_NOSPC, 0, 0 },
	{ M, FIX, 0, 1, 0, FP_E_NOSPC, 0, 0 },
	{ M, FIX, 1, 1, 0, FP_E_NOSPC, 0, 0 },
	/* highest first, down from the goal */
	{ M, END, TOP, 1, 0, FP_OK, 13, 1 },
	{ M, END, 14, 3, 0, FP_OK, 11, 3 },
	{ M, END, 13, 6, 0, FP_OK, 10, 4 },
	{ M, END | CON, TOP, 4, 0, FP_OK, 10, 4 },
	{ M, END | CON, TOP, 5, 0, FP_E_NOSPC, 0, 0 },
	{ M, END, TOP, 5, 5, FP_E_NOSPC, 0, 0 },
	{ M, END, 11, 9, 0, FP_OK, 10, 2 },	/* the goal cuts a run */
	{ M, END | CON, 12, 3, 0, FP_OK, 10, 3 },
	{ M, END | CON, 11, 3, 0, FP_E_NOSPC, 0, 0 },
	{ M, END, 9, 9, 0, FP_OK, 7, 2 },	/* goal in a used run */
	{ M, END, 9, 9, 3, FP_E_NOSPC, 0, 0 },
	{ M, END, 3, 5, 0, FP_OK, 2, 2 },
	{ M, END, 2, 5, 0, FP_OK, 2, 1 },
	{ M, END, 1, 1, 0, FP_E_NOSPC, 0, 0 },
	{ M, END, 0, 1, 0, FP_E_NOSPC, 0, 0 },
	/* refused arguments */
	{ M, 1u << 3, 2, 1, 0, FP_E_INVAL, 0, 0 },	/* unknown flags */
	{ M, 1u << 31, 2, 1, 0, FP_E_INVAL, 0, 0 },
	{ M, FIX | END, 2, 1, 0, FP_E_INVAL, 0, 0 },
	{ M, 0, 2, 0, 0, FP_E_INVAL, 0, 0 },
	{ M, 0, 2, 2, 3, FP_E_INVAL, 0, 0 },
	/* no free cluster at all */
	{ "XXXX", 0, 2, 1, 0, FP_E_NOSPC, 0, 0 },
	{ "XXXX", END, TOP, 1, 0, FP_E_NOSPC, 0, 0 },
	{ "XXXX", FIX, 2, 1, 0, FP_E_NOSPC, 0, 0 },
	/* all free */
	{ "8.", 0, 2, 8, 0, FP_OK, 2, 8 },
	{ "8.", 0, 5, 8, 0, FP_OK, 2, 8 },
	{ "8.", 0, 2, 9, 0, FP_OK, 2, 8 },
	{ "8.", CON, 2, 9, 0, FP_E_NOSPC, 0, 0 },
	{ "8.", END, TOP, 3, 0, FP_OK, 7, 3 },
	/* fragmented: every other cluster used */
	{ "X.X.X.X.X.X.X.X.", 0, 2, 3, 0, FP_OK, 3, 1 },
	{ "X.X.X.X.X.X.X.X.", 0, 10, 1, 0, FP_OK, 11, 1 },
	{ "X.X.X.X.X.X.X.X.", 0, 10, 2, 0, FP_OK, 3, 1 },
	{ "X.X.X.X.X.X.X.X.", CON, 10, 2, 0, FP_E_NOSPC, 0, 0 },
	{ "X.X.X.X.X.X.X.X.", END, TOP, 3, 0, FP_OK, 17, 1 },
	{ "X.X.X.X.X.X.X.X.", END, 16, 3, 0, FP_OK, 15, 1 },
	/* runs across 64-bit words; free runs 10 at 62, 70 at 132 */
	{ "60X10.60X70.", 0, 2, 10, 0, FP_OK, 62, 10 },
	{ "60X10.60X70.", 0, 2, 11, 0, FP_OK, 132, 11 },
	{ "60X10.60X70.", 0, 140, 70, 0, FP_OK, 132, 70 },
	{ "60X10.60X70.", 0, 140, 71, 0, FP_OK, 132, 70 },
	{ "60X10.60X70.", FIX, 65, 100, 0, FP_OK, 65, 7 },
	{ "60X10.60X70.", END, 131, 100, 0, FP_OK, 62, 10 },
	{ "60X10.60X70.", END | CON, 200, 69, 0, FP_OK, 132, 69 },
	{ "60X10.60X70.", END | CON, 200, 70, 0, FP_E_NOSPC, 0, 0 },
};
#undef M

/*
 * Each case on a fresh bitmap and on one whose free runs were listed by
 * an earlier query (a largest-run search); the bitmap does not change.
 */
START_TEST(test_new_range)
{
	const struct range_case *t = &range_cases[_i];
	struct fp_bitmap *bm;
	uint32_t start, count, before, after, pass;
	enum fp_err err;

	for (pass = 0; pass < 2; pass++) {
		bm = map_bitmap(t->map);
		if (pass)
			(void)fp_bitmap_new_range(bm, 0, 2, TOP, 0, &start,
						  &count);
		ck_assert_int_eq(fp_bitmap_free_count(bm, &before), FP_OK);
		start = count = 0xDEAD;
		err = fp_bitmap_new_range(bm, t->flags, t->goal, t->len,
					  t->min, &start, &count);
		ck_assert_msg(err == t->err, "case %d pass %u: err %d",
			      _i, pass, (int)err);
		ck_assert_uint_eq(start, t->err ? 0xDEAD : t->start);
		ck_assert_uint_eq(count, t->err ? 0xDEAD : t->count);
		ck_assert_int_eq(fp_bitmap_free_count(bm, &after), FP_OK);
		ck_assert_uint_eq(after, before);
		fp_bitmap_free(bm);
	}
}
END_TEST

/* The free run at @cl and down from it, by single bits (0 if used). */
static uint32_t ref_down(const struct fp_bitmap *bm, uint32_t cl)
{
	uint32_t n = 0;

	while (cl - n >= 2 && !fp_bitmap_used(bm, cl - n))
		n++;
	return n;
}

/*
 * The first free run of @len that starts in @lo .. @hi - 1 (a run that
 * @lo is inside counts from @lo), by single bits; 0 if none.
 */
static uint32_t ref_fit(const struct fp_bitmap *bm, uint32_t lo,
			uint32_t hi, uint32_t len)
{
	uint32_t cl;

	for (cl = lo; cl < hi; cl++)
		if (!fp_bitmap_used(bm, cl) &&
		    (cl == lo || fp_bitmap_used(bm, cl - 1)) &&
		    ref_run(bm, cl) >= len)
			return cl;
	return 0;
}

/* fp_bitmap_new_range() by single bits, as its comment in bitmap.h says. */
static enum fp_err ref_range(const struct fp_bitmap *bm, uint32_t max_cl,
			     unsigned flags, uint32_t goal, uint32_t len,
			     uint32_t min, uint32_t *start, uint32_t *count)
{
	uint32_t cl, n, best = 0, best_cl = 0;

	min = flags & FP_BM_CONTIGUOUS ? len : min ? min : 1;
	if (flags & FP_BM_FIXED_GOAL) {
		n = goal >= 2 && goal <= max_cl ? ref_run(bm, goal) : 0;
		n = n < len ? n : len;
		*start = goal;
		*count = n;
		return n >= min ? FP_OK : FP_E_NOSPC;
	}
	if (flags & FP_BM_END) {
		for (cl = goal < max_cl ? goal : max_cl; cl >= 2; cl--) {
			n = ref_down(bm, cl);
			if (n >= min) {
				*count = n < len ? n : len;
				*start = cl - *count + 1;
				return FP_OK;
			}
			cl -= n;
		}
		return FP_E_NOSPC;
	}
	if (goal < 2 || goal > max_cl)
		goal = 2;
	cl = ref_fit(bm, goal, max_cl + 1, len);
	if (!cl)
		cl = ref_fit(bm, 2, goal, len);
	if (cl) {
		*start = cl;
		*count = len;
		return FP_OK;
	}
	for (cl = 2; cl <= max_cl; cl++) {	/* the largest */
		n = ref_run(bm, cl);
		if (n > best && (cl == 2 || fp_bitmap_used(bm, cl - 1))) {
			best = n;
			best_cl = cl;
		}
	}
	*start = best_cl;
	*count = best;
	return best && best >= min ? FP_OK : FP_E_NOSPC;
}

/*
 * Random queries against ref_range(), each answer taken (sometimes only
 * its middle, which splits a run), so that the run list is built,
 * shortened, dropped and built again.
 */
START_TEST(test_new_range_random)
{
	static const unsigned modes[] = {
		0, FP_BM_CONTIGUOUS, FP_BM_END, FP_BM_END | FP_BM_CONTIGUOUS,
		FP_BM_FIXED_GOAL
	};
	const uint32_t max_cl = 3000;
	struct fp_bitmap *bm;
	uint32_t x = 4242, k, goal, len, min, s, n, rs, rn;
	enum fp_err err, ref;
	unsigned flags;

	for (k = 0; k < 3000; k++) {
		if (k % 150 == 0) {		/* a new random volume */
			if (k)
				fp_bitmap_free(bm);
			ck_assert_int_eq(fp_bitmap_new(max_cl, &bm), FP_OK);
			for (s = 2; s <= max_cl; s += n + 1 + x % 9) {
				x = x * 1103515245 + 12345;
				n = (x >> 16) % (k % 300 ? 4 : 60);
				n = s + n > max_cl ? max_cl + 1 - s : n;
				fp_bitmap_take(bm, s, n);
			}
		}
		x = x * 1103515245 + 12345;
		flags = modes[(x >> 8) % 5];
		goal = (x >> 11) % 8 == 0 ? UINT32_MAX : (x >> 12) % 3100;
		len = 1 + (x >> 20) % (k % 3 ? 12 : 90);
		min = (x >> 4) % 3 ? 0 : 1 + (x >> 24) % len;
		s = n = rs = rn = 0;
		err = fp_bitmap_new_range(bm, flags, goal, len, min, &s, &n);
		ref = ref_range(bm, max_cl, flags, goal, len, min, &rs, &rn);
		ck_assert_msg(err == ref, "op %u: err %d, ref %d", k, err, ref);
		if (err)
			continue;
		ck_assert_msg(s == rs && n == rn, "op %u: %u+%u, ref %u+%u",
			      k, s, n, rs, rn);
		if (n > 2 && k % 7 == 0)
			fp_bitmap_take(bm, s + 1, n - 2);
		else if (k % 5)
			fp_bitmap_take(bm, s, n);
	}
	fp_bitmap_free(bm);
}
END_TEST

static Suite *bitmap_suite(void)
{
	Suite *s = suite_create("bitmap");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_init);
	tcase_add_test(tc, test_word_boundary);
	tcase_add_loop_test(tc, test_tail, 0, 8);
	tcase_add_test(tc, test_runs);
	tcase_add_test(tc, test_last_run);
	tcase_add_test(tc, test_random);
	tcase_add_test(tc, test_next_free_memo);
	tcase_add_test(tc, test_load);
	tcase_add_test(tc, test_lazy);
	tcase_add_test(tc, test_large);
	tcase_add_test(tc, test_new_range_random);
	tcase_add_loop_test(tc, test_new_range, 0,
			    (int)(sizeof(range_cases) / sizeof(range_cases[0])));
	tcase_set_timeout(tc, 120);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(bitmap_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
