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

static uint32_t run_len(struct fp_bitmap *bm, uint32_t cl, uint32_t max)
{
	uint32_t n = 0xDEAD;

	ck_assert_int_eq(fp_bitmap_run_len(bm, cl, max, &n), FP_OK);
	return n;
}

/* The lowest run of @count: a search from cluster 2. */
static uint32_t find_run(struct fp_bitmap *bm, uint32_t count)
{
	uint32_t cl = 0xDEAD;

	ck_assert_int_eq(fp_bitmap_find_run(bm, 2, count, &cl), FP_OK);
	return cl;
}

static void largest(struct fp_bitmap *bm, uint32_t *start, uint32_t *len)
{
	ck_assert_int_eq(fp_bitmap_largest_run(bm, start, len), FP_OK);
}

/* Slow reference: the free run at @cl, by single bits. */
static uint32_t ref_run(const struct fp_bitmap *bm, uint32_t cl)
{
	uint32_t n = 0;

	while (cl + n <= bm->max_cl && !fp_bitmap_used(bm, cl + n))
		n++;
	return n;
}

START_TEST(test_init)
{
	struct fp_bitmap bm;

	ck_assert_int_eq(fp_bitmap_init(&bm, 100), FP_OK);
	ck_assert_uint_eq(bm.max_cl, 100);
	ck_assert_uint_eq(bm.free_count, 99);
	ck_assert(fp_bitmap_used(&bm, 0));
	ck_assert(fp_bitmap_used(&bm, 1));
	ck_assert(!fp_bitmap_used(&bm, 2));
	ck_assert(!fp_bitmap_used(&bm, 100));
	ck_assert(fp_bitmap_used(&bm, 101));
	ck_assert(fp_bitmap_used(&bm, UINT32_MAX));
	ck_assert_uint_eq(next_free(&bm, 0), 2);
	ck_assert_uint_eq(next_free(&bm, 100), 100);
	ck_assert_uint_eq(next_free(&bm, 101), 0);
	ck_assert_uint_eq(run_len(&bm, 2, UINT32_MAX), 99);
	ck_assert_uint_eq(run_len(&bm, 0, 10), 0);
	fp_bitmap_release(&bm);
	ck_assert_ptr_null(bm.words);
	fp_bitmap_release(&bm);
	ck_assert_int_eq(fp_bitmap_init(&bm, 1), FP_E_INVAL);
	ck_assert_int_eq(fp_bitmap_init(&bm, UINT32_MAX), FP_E_INVAL);
}
END_TEST

/* Free clusters 63, 64, 65 only: a run across a word boundary. */
START_TEST(test_word_boundary)
{
	struct fp_bitmap bm;
	uint32_t start, len;

	ck_assert_int_eq(fp_bitmap_init(&bm, 200), FP_OK);
	fp_bitmap_take(&bm, 2, 61);
	fp_bitmap_take(&bm, 66, 135);
	ck_assert_uint_eq(bm.free_count, 3);
	ck_assert(fp_bitmap_used(&bm, 62));
	ck_assert(!fp_bitmap_used(&bm, 63));
	ck_assert(!fp_bitmap_used(&bm, 65));
	ck_assert(fp_bitmap_used(&bm, 66));
	ck_assert(fp_bitmap_used(&bm, 200));
	ck_assert_uint_eq(next_free(&bm, 2), 63);
	ck_assert_uint_eq(next_free(&bm, 64), 64);
	ck_assert_uint_eq(next_free(&bm, 66), 0);
	ck_assert_uint_eq(run_len(&bm, 63, 100), 3);
	ck_assert_uint_eq(run_len(&bm, 64, 100), 2);
	ck_assert_uint_eq(run_len(&bm, 63, 2), 2);
	ck_assert_uint_eq(run_len(&bm, 62, 100), 0);
	ck_assert_uint_eq(find_run(&bm, 3), 63);
	ck_assert_uint_eq(find_run(&bm, 4), 0);
	largest(&bm, &start, &len);
	ck_assert_uint_eq(start, 63);
	ck_assert_uint_eq(len, 3);
	fp_bitmap_take(&bm, 64, 1);
	ck_assert_uint_eq(bm.free_count, 2);
	ck_assert_uint_eq(find_run(&bm, 2), 0);
	ck_assert_uint_eq(find_run(&bm, 1), 63);
	ck_assert_uint_eq(next_free(&bm, 64), 65);
	fp_bitmap_release(&bm);
}
END_TEST

/* max_cl around a multiple of 64: the last word is full or nearly. */
START_TEST(test_tail)
{
	static const uint32_t max[] = { 2, 62, 63, 64, 65, 127, 128, 130 };
	uint32_t m = max[_i], start, len;
	struct fp_bitmap bm;

	ck_assert_int_eq(fp_bitmap_init(&bm, m), FP_OK);
	ck_assert_uint_eq(bm.free_count, m - 1);
	ck_assert_uint_eq(run_len(&bm, 2, UINT32_MAX), m - 1);
	ck_assert_uint_eq(ref_run(&bm, 2), m - 1);
	ck_assert_uint_eq(find_run(&bm, m - 1), 2);
	ck_assert_uint_eq(find_run(&bm, m), 0);
	ck_assert_uint_eq(next_free(&bm, m), m);
	ck_assert_uint_eq(next_free(&bm, m + 1), 0);
	ck_assert(fp_bitmap_used(&bm, m + 1));
	largest(&bm, &start, &len);
	ck_assert_uint_eq(start, 2);
	ck_assert_uint_eq(len, m - 1);
	fp_bitmap_take(&bm, m, 1);
	ck_assert_uint_eq(next_free(&bm, m), 0);
	ck_assert_uint_eq(run_len(&bm, 2, UINT32_MAX), m - 2);
	fp_bitmap_take(&bm, 2, m - 2);
	ck_assert_uint_eq(bm.free_count, 0);
	ck_assert_uint_eq(next_free(&bm, 0), 0);
	ck_assert_uint_eq(find_run(&bm, 1), 0);
	largest(&bm, &start, &len);
	ck_assert_uint_eq(start, 0);
	ck_assert_uint_eq(len, 0);
	fp_bitmap_release(&bm);
}
END_TEST

/* Free runs: 5 at 10, 3 at 20, 8 at 40, 8 at 100, rest of 300 used. */
static void fragment(struct fp_bitmap *bm)
{
	ck_assert_int_eq(fp_bitmap_init(bm, 300), FP_OK);
	fp_bitmap_take(bm, 2, 8);
	fp_bitmap_take(bm, 15, 5);
	fp_bitmap_take(bm, 23, 17);
	fp_bitmap_take(bm, 48, 52);
	fp_bitmap_take(bm, 108, 193);
	ck_assert_uint_eq(bm->free_count, 24);
}

START_TEST(test_runs)
{
	struct fp_bitmap bm;
	uint32_t start, len;

	fragment(&bm);
	ck_assert_uint_eq(find_run(&bm, 1), 10);
	ck_assert_uint_eq(find_run(&bm, 5), 10);
	ck_assert_uint_eq(find_run(&bm, 6), 40);
	ck_assert_uint_eq(find_run(&bm, 8), 40);
	ck_assert_uint_eq(find_run(&bm, 9), 0);
	ck_assert_uint_eq(find_run(&bm, 0), 0);
	ck_assert_uint_eq(find_run(&bm, 25), 0);
	ck_assert_uint_eq(next_free(&bm, 15), 20);
	ck_assert_uint_eq(next_free(&bm, 48), 100);
	ck_assert_uint_eq(run_len(&bm, 12, UINT32_MAX), 3);
	largest(&bm, &start, &len);
	ck_assert_uint_eq(start, 40);	/* the lowest of two equal */
	ck_assert_uint_eq(len, 8);
	fp_bitmap_take(&bm, 40, 8);
	ck_assert_uint_eq(find_run(&bm, 6), 100);
	largest(&bm, &start, &len);
	ck_assert_uint_eq(start, 100);
	ck_assert_uint_eq(bm.free_count, 16);
	fp_bitmap_release(&bm);
}
END_TEST

/* The highest free run below a limit, for --place end. */
START_TEST(test_last_run)
{
	struct fp_bitmap bm;
	uint32_t start = 1, len = 1;

	fragment(&bm);
	/* runs: 5 at 10, 3 at 20, 8 at 40, 8 at 100 */
	ck_assert_int_eq(fp_bitmap_last_run(&bm, 301, &start, &len), FP_OK);
	ck_assert_uint_eq(start, 100);
	ck_assert_uint_eq(len, 8);
	ck_assert_int_eq(fp_bitmap_last_run(&bm, UINT32_MAX, &start, &len),
			 FP_OK);
	ck_assert_uint_eq(start, 100);
	/* a limit inside a run cuts it */
	ck_assert_int_eq(fp_bitmap_last_run(&bm, 104, &start, &len), FP_OK);
	ck_assert_uint_eq(start, 100);
	ck_assert_uint_eq(len, 4);
	ck_assert_int_eq(fp_bitmap_last_run(&bm, 100, &start, &len), FP_OK);
	ck_assert_uint_eq(start, 40);
	ck_assert_uint_eq(len, 8);
	ck_assert_int_eq(fp_bitmap_last_run(&bm, 15, &start, &len), FP_OK);
	ck_assert_uint_eq(start, 10);
	ck_assert_uint_eq(len, 5);
	ck_assert_int_eq(fp_bitmap_last_run(&bm, 10, &start, &len), FP_OK);
	ck_assert_uint_eq(start, 0);
	ck_assert_uint_eq(len, 0);
	ck_assert_int_eq(fp_bitmap_last_run(&bm, 0, &start, &len), FP_OK);
	ck_assert_uint_eq(start, 0);
	fp_bitmap_release(&bm);
	/* a run down to cluster 2, and up to max_cl */
	ck_assert_int_eq(fp_bitmap_init(&bm, 200), FP_OK);
	ck_assert_int_eq(fp_bitmap_last_run(&bm, 201, &start, &len), FP_OK);
	ck_assert_uint_eq(start, 2);
	ck_assert_uint_eq(len, 199);
	fp_bitmap_release(&bm);
}
END_TEST

/* Pseudo-random patterns against the bit-by-bit reference. */
START_TEST(test_random)
{
	struct fp_bitmap bm;
	uint32_t x = 12345, cl, n, best = 0, best_cl = 0, free_ref = 0;
	uint32_t start, len;

	ck_assert_int_eq(fp_bitmap_init(&bm, 5000), FP_OK);
	for (cl = 2; cl <= 5000; cl += n + 1 + x % 3) {
		x = x * 1103515245 + 12345;
		n = (x >> 16) % 150;
		if (cl + n > 5000)
			n = 5001 - cl;
		fp_bitmap_take(&bm, cl, n);
	}
	for (cl = 2; cl <= 5000; cl++) {
		free_ref += !fp_bitmap_used(&bm, cl);
		n = ref_run(&bm, cl);
		ck_assert_uint_eq(run_len(&bm, cl, UINT32_MAX), n);
		if (n > best && (cl == 2 || fp_bitmap_used(&bm, cl - 1))) {
			best = n;
			best_cl = cl;
		}
	}
	ck_assert_uint_eq(bm.free_count, free_ref);
	largest(&bm, &start, &len);
	ck_assert_uint_eq(start, best_cl);
	ck_assert_uint_eq(len, best);
	ck_assert_uint_eq(find_run(&bm, best), best_cl);
	fp_bitmap_release(&bm);
}
END_TEST

/* Slow reference: the first free cluster from @from (2 at least), or 0. */
static uint32_t ref_next(const struct fp_bitmap *bm, uint32_t from)
{
	uint32_t cl;

	for (cl = from < 2 ? 2 : from; cl <= bm->max_cl; cl++)
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
	struct fp_bitmap bm;
	uint32_t x = 777, from, cl, k, n;

	ck_assert_int_eq(fp_bitmap_init(&bm, 20000), FP_OK);
	for (k = 0; k < 3000; k++) {
		x = x * 1103515245 + 12345;
		from = (x >> 8) % 4 == 0 ? (x >> 12) % 20010 : 100 + k % 7;
		cl = next_free(&bm, from);
		ck_assert_uint_eq(cl, ref_next(&bm, from));
		if (!cl)
			continue;
		n = run_len(&bm, cl, 1 + (x >> 20) % 40);
		fp_bitmap_take(&bm, cl, n);
		ck_assert_uint_eq(next_free(&bm, from), ref_next(&bm, from));
		ck_assert_uint_eq(next_free(&bm, cl), ref_next(&bm, cl));
	}
	ck_assert_uint_eq(next_free(&bm, 2), ref_next(&bm, 2));
	fp_bitmap_release(&bm);
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
	struct fp_bitmap bm;
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
	ck_assert_int_eq(fp_bitmap_load(&bm, fat), FP_OK);
	ck_assert_uint_eq(fat_reads(fat), 0);
	ck_assert_int_eq(fp_bitmap_free_count(&bm, &n), FP_OK);
	ck_assert_uint_eq(n, 199 - 66 - 4 - 1);
	for (cl = 0; cl <= 201; cl++)
		ck_assert_int_eq(fp_bitmap_used(&bm, cl),
				 cl < 2 || cl > 200 || cl % 3 == 0 ||
				 (cl >= 64 && cl < 70) || cl == 199);
	ck_assert_uint_eq(find_run(&bm, 2), 4);
	ck_assert_uint_eq(find_run(&bm, 3), 0);
	fp_bitmap_release(&bm);
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
	struct fp_bitmap bm;
	uint8_t *bytes;
	uint32_t cl, n, start;

	fat_image(FP_FAT32, 300000, 2344, &bytes, &g);
	for (cl = 0; cl <= 300001; cl++)
		if (!(cl >= 100000 && cl < 100100) && cl < 250000 &&
		    cl != 70000)
			fp_put_le32(bytes + 512 + 4 * cl, 0x0FFFFFFF);
	ck_assert_int_eq(fp_img_mem(bytes, 512 + g.fat_len, &img), FP_OK);
	ck_assert_int_eq(fp_fat_open(img, &g, &fat), FP_OK);
	ck_assert_int_eq(fp_bitmap_load(&bm, fat), FP_OK);
	ck_assert_uint_eq(next_free(&bm, 100050), 100050);
	ck_assert_uint_eq(fat_reads(fat), 1);		/* window 1 only */
	ck_assert_uint_eq(run_len(&bm, 100050, 1000), 50);
	ck_assert_uint_eq(fat_reads(fat), 1);
	ck_assert_uint_eq(next_free(&bm, 100100), 250000);
	ck_assert_uint_eq(fat_reads(fat), 3);		/* windows 2 and 3 */
	ck_assert_uint_eq(run_len(&bm, 250000, UINT32_MAX), 50002);
	ck_assert_uint_eq(fat_reads(fat), 4);
	/* from a hint: the first run after it, else wrap around */
	ck_assert_int_eq(fp_bitmap_find_run(&bm, 260000, 100, &start), FP_OK);
	ck_assert_uint_eq(start, 260000);
	ck_assert_int_eq(fp_bitmap_find_run(&bm, 260000, 45000, &start),
			 FP_OK);
	ck_assert_uint_eq(start, 0 + 250000);
	ck_assert_uint_eq(fat_reads(fat), 5);		/* window 0 too */
	ck_assert_int_eq(fp_bitmap_find_run(&bm, 299999, 60, &start), FP_OK);
	ck_assert_uint_eq(start, 100000);
	ck_assert_int_eq(fp_bitmap_find_run(&bm, 2, 50003, &start), FP_OK);
	ck_assert_uint_eq(start, 0);
	ck_assert_int_eq(fp_bitmap_free_count(&bm, &n), FP_OK);
	ck_assert_uint_eq(n, 100 + 50002 + 1);
	ck_assert_uint_eq(next_free(&bm, 2), 70000);
	fp_bitmap_take(&bm, 250000, 50002);
	ck_assert_int_eq(fp_bitmap_free_count(&bm, &n), FP_OK);
	ck_assert_uint_eq(n, 101);
	ck_assert_uint_eq(next_free(&bm, 100100), 0);
	fp_bitmap_release(&bm);
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
	struct fp_bitmap bm;
	uint32_t start, len, i;

	ck_assert_int_eq(fp_bitmap_init(&bm, max_cl), FP_OK);
	for (i = 0; i < (8u << 20) / 64; i++)
		bm.words[i] = 0x5555555555555555ull;
	bm.words[0] |= 3;
	fp_bitmap_take(&bm, 8u << 20, max_cl - (8u << 20) - 999);
	bm.free_count = (4u << 20) - 1 + 1000;
	ck_assert_uint_eq(next_free(&bm, 2), 3);
	ck_assert_uint_eq(find_run(&bm, 2), max_cl - 999);
	ck_assert_uint_eq(find_run(&bm, 1000), max_cl - 999);
	ck_assert_uint_eq(find_run(&bm, 1001), 0);
	ck_assert_uint_eq(next_free(&bm, 8u << 20), max_cl - 999);
	largest(&bm, &start, &len);
	ck_assert_uint_eq(start, max_cl - 999);
	ck_assert_uint_eq(len, 1000);
	fp_bitmap_take(&bm, 3, 1);
	fp_bitmap_release(&bm);
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
